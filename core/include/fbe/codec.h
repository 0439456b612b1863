/* Encode, decode and verify messages in the two wire models (FORMAT.md 5 and 6). */
#ifndef FBE_CODEC_H
#define FBE_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/buffer.h"
#include "fbe/message.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fbe_model {
  FBE_MODEL_STANDARD = 0, /* versioned: sizes, type ids and relative pointers */
  FBE_MODEL_FINAL = 1     /* compact: everything inline */
} fbe_model;

#define FBE_DEFAULT_MAX_DEPTH 256u
#define FBE_DEFAULT_MAX_MODEL_SIZE ((uint64_t)1 << 30)

/* Limits a decoder/verifier enforces against hostile input. Decoding also bounds the
 * memory it allocates to 16 times the model size plus 64 KiB. */
typedef struct fbe_limits {
  uint32_t max_depth;      /* nesting through optionals and collections (the only
                              ways a schema recurses); default FBE_DEFAULT_MAX_DEPTH */
  uint64_t max_model_size; /* largest model size accepted; default 1 GiB */
} fbe_limits;

/* Default limits (FBE_DEFAULT_MAX_DEPTH, FBE_DEFAULT_MAX_MODEL_SIZE). */
FBE_API fbe_limits fbe_limits_default(void);

/* Appends the model of msg to out (out->size grows by the model size). err may be
 * NULL. Fails only on out-of-memory, a model over 4 GiB, or a value nested deeper than
 * FBE_DEFAULT_MAX_DEPTH through optionals and collections (FBE_ERR_LIMIT: no decoder
 * with default limits would accept it). */
FBE_API fbe_status fbe_encode(const fbe_msg *msg, fbe_model model, fbe_buffer *out,
                              fbe_error *err);

/* Checks that data[0..size) starts with a valid model of `type`, without decoding.
 * On success *model_size (if not NULL) receives the model's size. On failure err
 * names the reason, the byte offset and the field path. limits may be NULL. */
FBE_API fbe_status fbe_verify(const fbe_struct *type, fbe_model model, const uint8_t *data,
                              size_t size, const fbe_limits *limits, size_t *model_size,
                              fbe_error *err);

/* Decodes the model at the start of data into a new message allocated in arena.
 * Every offset and length is checked before use; bytes that are not a valid model
 * give an error naming the offset (decode does not run the full verify: call
 * fbe_verify first to reject everything the verifier rejects). Missing fields of
 * older writers take their defaults (standard model). As in the reference, the
 * standard model's root type id is not checked here (a reader of another schema
 * version may read a sibling type, FORMAT.md 8); fbe_verify checks it, and the final
 * model's decode does. *model_size receives the number of bytes the model occupies. */
FBE_API fbe_status fbe_decode(const fbe_struct *type, fbe_model model, const uint8_t *data,
                              size_t size, fbe_arena *arena, const fbe_limits *limits,
                              fbe_msg **out, size_t *model_size, fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

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

/* Decodes the model at the start of data into a new message allocated in arena,
 * after verifying it: the bytes are first given to fbe_verify with the same limits,
 * and what verify refuses is refused with verify's status and error (reason, offset,
 * path) unchanged, so a decoded value never comes from bytes verify rejects (in the
 * standard model this includes a root type id other than type's). Missing fields of
 * older writers take their defaults (standard model). *model_size (if not NULL)
 * receives the number of bytes the model occupies. */
FBE_API fbe_status fbe_decode(const fbe_struct *type, fbe_model model, const uint8_t *data,
                              size_t size, fbe_arena *arena, const fbe_limits *limits,
                              fbe_msg **out, size_t *model_size, fbe_error *err);

/* fbe_decode without the verify: for bytes you trust or have verified already (a
 * receiver that verified the frame; a reader of another schema version reading a
 * sibling message type whose type id differs, FORMAT.md 8). Every offset and length is
 * still checked before use, so hostile bytes give an error naming the offset, never a
 * read outside data; but what only verify checks is not checked: the standard model's
 * root type id and struct type ids (as in the reference), null struct pointers and
 * present optionals without a value (read as their defaults), the final model's size
 * against its fields. Same arguments and results as fbe_decode. */
FBE_API fbe_status fbe_decode_trusted(const fbe_struct *type, fbe_model model, const uint8_t *data,
                                      size_t size, fbe_arena *arena, const fbe_limits *limits,
                                      fbe_msg **out, size_t *model_size, fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

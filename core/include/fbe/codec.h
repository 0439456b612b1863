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

/* A model by its name, "standard" or "final" (what the bindings take as a view's or a
 * stream's model): FBE_OK, or FBE_ERR_ARGUMENT 'model must be "standard" or "final", not
 * "NAME"'. name NULL: the host gave something that is not a name (the message ends
 * after "final"). */
FBE_API fbe_status fbe_model_parse(const char *name, size_t length, fbe_model *out, fbe_error *err);

#define FBE_DEFAULT_MAX_DEPTH 256u
#define FBE_DEFAULT_MAX_MODEL_SIZE ((uint64_t)1 << 30)

/* The memory budget (max_memory = 0): FBE_DEFAULT_MEMORY_FACTOR x the input's size
 * (the model size; for JSON reading, the text length) + FBE_DEFAULT_MEMORY_FLOOR. */
#define FBE_DEFAULT_MEMORY_FACTOR 16u
#define FBE_DEFAULT_MEMORY_FLOOR ((uint64_t)1 << 20)

/* What a value costs against the budget, the same in verify, decode and the JSON
 * reader: the bytes the core allocates for it (rounded up to 8, as the arena does) plus
 * FBE_VALUE_CHARGE bytes per value (every scalar, string, struct, optional, element and
 * collection, each map key and value), standing for the object a language binding
 * builds from it. Values that take their defaults (fields an older writer did not
 * have, null strings and optionals, elements of a JSON array written as {}) cost what
 * decoded ones do, their default strings included. So whatever passes fbe_verify
 * with some limits decodes within them, and verify's work is bounded by the budget
 * too: its time is linear in the input, bodies shared by many pointers included
 * (each pointer to one is charged the whole value it stands for). */
#define FBE_VALUE_CHARGE 8u

/* Output budget of JSON writing (fbe_json_write_limited, the `fbe decode` tool): the
 * text may be at most max_memory bytes; 0 = FBE_DEFAULT_OUTPUT_FACTOR x the size of
 * what is written (the model size for the tool; for an in-memory value, its cost as
 * above) + FBE_DEFAULT_MEMORY_FLOOR. */
#define FBE_DEFAULT_OUTPUT_FACTOR 32u

/* Limits against hostile input, taken by verify, decode, JSON reading and writing and
 * the receiver. A zero member means its default. Errors name the limit crossed
 * (FBE_ERR_LIMIT: "... the memory budget of N bytes (max_memory)"). */
typedef struct fbe_limits {
  uint32_t max_depth;      /* nesting through optionals and collections (the only
                              ways a schema recurses); default FBE_DEFAULT_MAX_DEPTH */
  uint64_t max_model_size; /* largest model size (and frame, JSON text) accepted;
                              default 1 GiB */
  uint64_t max_memory;     /* bytes one operation may cost (see FBE_VALUE_CHARGE);
                              0 = FBE_DEFAULT_MEMORY_FACTOR x input + FLOOR */
} fbe_limits;

/* Default limits (FBE_DEFAULT_MAX_DEPTH, FBE_DEFAULT_MAX_MODEL_SIZE, max_memory 0). */
FBE_API fbe_limits fbe_limits_default(void);

/* The memory budget limits give an input of `input_size` bytes: max_memory, or when
 * it is 0 (or limits is NULL) FBE_DEFAULT_MEMORY_FACTOR x input_size + FLOOR. */
FBE_API uint64_t fbe_limits_memory(const fbe_limits *limits, uint64_t input_size);

/* fbe_limits_memory(NULL, input_size), inline (generated code's entry points):
 * FBE_DEFAULT_MEMORY_FACTOR x input_size + FBE_DEFAULT_MEMORY_FLOOR, saturating. */
static inline uint64_t fbe_limits_memory_default(uint64_t input_size) {
  if (input_size > (UINT64_MAX - FBE_DEFAULT_MEMORY_FLOOR) / FBE_DEFAULT_MEMORY_FACTOR) return UINT64_MAX;
  return FBE_DEFAULT_MEMORY_FACTOR * input_size + FBE_DEFAULT_MEMORY_FLOOR;
}

/* Sets one member of *limits by name, the one way every binding takes limits from its
 * users (so the names, ranges and error texts are the same in every language). name is
 * "max_depth", "max_model_size" or "max_memory" (or the camelCase "maxDepth",
 * "maxModelSize", "maxMemory"); value 0 means the default. max_depth may only lower the
 * default (1..FBE_DEFAULT_MAX_DEPTH: no encoder writes deeper), max_model_size is at most
 * FBE_MAX_MODEL_SIZE_LIMIT (sizes are 32-bit on the wire), max_memory any byte count.
 * A negative value, one out of range or an unknown name fails with FBE_ERR_RANGE /
 * FBE_ERR_ARGUMENT ("max_depth must be 0 (the default) or 1..256, not 1000") and
 * leaves *limits as it was. */
#define FBE_MAX_MODEL_SIZE_LIMIT ((uint64_t)UINT32_MAX)
FBE_API fbe_status fbe_limits_set(fbe_limits *limits, const char *name, int64_t value, fbe_error *err);

/* Appends the model of msg to out (out->size grows by the model size). err may be
 * NULL. Fails only on out-of-memory, a model over 4 GiB, or a value nested deeper than
 * FBE_DEFAULT_MAX_DEPTH through optionals and collections (FBE_ERR_LIMIT: no decoder
 * with default limits would accept it). */
FBE_API fbe_status fbe_encode(const fbe_msg *msg, fbe_model model, fbe_buffer *out,
                              fbe_error *err);

/* Checks that data[0..size) starts with a valid model of `type`, without decoding.
 * Besides the layout (offsets, sizes, type ids, nesting) the values themselves: every
 * string is UTF-8 (fbe_utf8_check's rule) and every decimal has scale 0..28 and no
 * reserved bit set (FORMAT.md 3.2); either fails with FBE_ERR_MALFORMED at the bad
 * byte. On success *model_size (if not NULL) receives the model's size. On failure err
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
 * against its fields. The value rules are kept: a string that is not UTF-8 or a bad
 * decimal fails as in fbe_verify (FBE_ERR_MALFORMED, same text and offset), so no
 * decode, trusted or not, yields a value that cannot be written again. Same arguments
 * and results as fbe_decode. */
FBE_API fbe_status fbe_decode_trusted(const fbe_struct *type, fbe_model model, const uint8_t *data,
                                      size_t size, fbe_arena *arena, const fbe_limits *limits,
                                      fbe_msg **out, size_t *model_size, fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* JSON to and from messages, with the reference's conventions (FORMAT.md 10):
 * exact 64-bit integers, Base64 bytes, decimal strings, uuid strings, nanosecond
 * timestamps, map keys as strings, struct-keyed maps as [[key, value], ...]. */
#ifndef FBE_JSON_H
#define FBE_JSON_H

#include <stddef.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/buffer.h"
#include "fbe/message.h"
#include "fbe/codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How JSON is written and read; zero-initialised: the defaults (compact, enums and
 * flags as numbers, 64-bit integers as numbers, unknown members an error, default
 * limits). */
typedef struct fbe_json_options {
  int pretty;         /* write: indent by two spaces */
  int enum_names;     /* write: enums as their member name, flags as "a|b" names (the text
                       * form's rule, TEXT.md), a value with no name as its number */
  int int64_strings;  /* write: int64, uint64 and timestamps as strings ("1543145597933000000") */
  int ignore_unknown; /* read: skip members the struct does not have (JSON of a newer schema) */
  const fbe_limits *limits; /* NULL: the defaults */
} fbe_json_options;

/* The general forms: every reader accepts both writer options' forms (names for enums
 * and flags, 64-bit integers as strings). opts may be NULL (the defaults). The other
 * functions below are these with the defaults (and their pretty and limits). */
FBE_API fbe_status fbe_json_write_opts(fbe_ref value, const fbe_json_options *opts, fbe_buffer *out,
                                       fbe_error *err);
FBE_API fbe_status fbe_msg_to_json_opts(const fbe_msg *msg, const fbe_json_options *opts,
                                        fbe_buffer *out, fbe_error *err);
FBE_API fbe_status fbe_json_read_opts(fbe_ref value, const char *text, size_t length,
                                      const fbe_json_options *opts, fbe_error *err);
FBE_API fbe_status fbe_msg_from_json_opts(const fbe_struct *type, const char *text, size_t length,
                                          fbe_arena *arena, const fbe_json_options *opts,
                                          fbe_msg **out, fbe_error *err);

/* Appends the JSON text of the value (compact; indented by 2 when pretty) to out.
 * No NUL terminator is appended. err may be NULL. The text may be at most
 * limits->max_memory bytes, by default FBE_DEFAULT_OUTPUT_FACTOR x the value's cost
 * (codec.h) + FBE_DEFAULT_MEMORY_FLOOR: beyond, FBE_ERR_LIMIT ("JSON output larger
 * than N bytes (max_memory)") and out is left as it was. limits may be NULL. */
FBE_API fbe_status fbe_json_write_limited(fbe_ref value, int pretty, const fbe_limits *limits,
                                          fbe_buffer *out, fbe_error *err);
FBE_API fbe_status fbe_msg_to_json_limited(const fbe_msg *msg, int pretty, const fbe_limits *limits,
                                           fbe_buffer *out, fbe_error *err);
/* The same with the default limits. */
FBE_API fbe_status fbe_json_write(fbe_ref value, int pretty, fbe_buffer *out, fbe_error *err);
FBE_API fbe_status fbe_msg_to_json(const fbe_msg *msg, int pretty, fbe_buffer *out,
                                   fbe_error *err);

/* Reads JSON text into the value with the default options (members missing from the
 * text keep their current values; a member the struct does not have is
 * FBE_ERR_UNKNOWN_FIELD "unknown field 'symbl' of proto.Order (did you mean 'symbol'?)":
 * fbe_json_read_opts with ignore_unknown skips them). Enums and flags are read from
 * numbers or names ("sell", "good|64"), 64-bit integers from numbers or digit strings.
 * A string that is not a value of its field (uuid, decimal, Base64, enum name, map key)
 * is FBE_ERR_ARGUMENT; text that is not JSON FBE_ERR_JSON. Errors name the text offset
 * and the path.
 * Limits (NULL: the defaults): a text over max_model_size bytes, optionals and
 * collections nested deeper than max_depth, and values that cost more than
 * max_memory (codec.h; default FBE_DEFAULT_MEMORY_FACTOR x the text length + FLOOR)
 * are refused with FBE_ERR_LIMIT. */
FBE_API fbe_status fbe_json_read_limited(fbe_ref value, const char *text, size_t length,
                                         const fbe_limits *limits, fbe_error *err);
FBE_API fbe_status fbe_json_read(fbe_ref value, const char *text, size_t length, fbe_error *err);

/* New message of `type` in arena, defaults applied, then filled from the JSON text
 * (fbe_json_read_limited; the new message's defaults count against the budget too). */
FBE_API fbe_status fbe_msg_from_json_limited(const fbe_struct *type, const char *text, size_t length,
                                             fbe_arena *arena, const fbe_limits *limits,
                                             fbe_msg **out, fbe_error *err);
FBE_API fbe_status fbe_msg_from_json(const fbe_struct *type, const char *text, size_t length,
                                     fbe_arena *arena, fbe_msg **out, fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

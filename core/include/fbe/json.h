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

/* Reads JSON text into the value (members missing from the text keep their current
 * values; unknown members are ignored). Errors name the text offset and the path.
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

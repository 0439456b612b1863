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

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the JSON text of the value (compact; indented by 2 when pretty) to out.
 * No NUL terminator is appended. err may be NULL. */
FBE_API fbe_status fbe_json_write(fbe_ref value, int pretty, fbe_buffer *out, fbe_error *err);
FBE_API fbe_status fbe_msg_to_json(const fbe_msg *msg, int pretty, fbe_buffer *out,
                                   fbe_error *err);

/* Reads JSON text into the value (members missing from the text keep their current
 * values; unknown members are ignored). Errors name the text offset and the path. */
FBE_API fbe_status fbe_json_read(fbe_ref value, const char *text, size_t length, fbe_error *err);

/* New message of `type` in arena, defaults applied, then filled from the JSON text. */
FBE_API fbe_status fbe_msg_from_json(const fbe_struct *type, const char *text, size_t length,
                                     fbe_arena *arena, fbe_msg **out, fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

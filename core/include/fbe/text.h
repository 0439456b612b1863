/* The text form of a value (docs/TEXT.md): one line such as
 * Account(id=1,name="Test",state=initialized|calculated|good,...), written by the core
 * so that every binding's str/repr/toString/inspect shows the same text. It is lossless
 * but for [hidden] parts (values that differ print differently) and the same before and
 * after an encode/decode round trip in either model. */
#ifndef FBE_TEXT_H
#define FBE_TEXT_H

#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/buffer.h"
#include "fbe/schema.h"
#include "fbe/message.h"
#include "fbe/codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the text of the message (or of any value a ref points at: a field, an
 * element, a map key or value) to out, without a NUL. err may be NULL. Bounded like the
 * JSON writer (json.h): the text may be at most limits->max_memory bytes, by default
 * FBE_DEFAULT_OUTPUT_FACTOR x the value's cost + FBE_DEFAULT_MEMORY_FLOOR (FBE_ERR_LIMIT
 * "text larger than N bytes (max_memory)"), and optionals and collections may nest at
 * most limits->max_depth deep (FBE_ERR_LIMIT). On any error out is left as it was.
 * limits may be NULL (the defaults). */
FBE_API fbe_status fbe_msg_to_text(const fbe_msg *msg, fbe_buffer *out, fbe_error *err);
FBE_API fbe_status fbe_msg_to_text_limited(const fbe_msg *msg, const fbe_limits *limits,
                                           fbe_buffer *out, fbe_error *err);
FBE_API fbe_status fbe_text_write(fbe_ref value, const fbe_limits *limits, fbe_buffer *out,
                                  fbe_error *err);

/* Appends the text of one value of an enum or flags type (a binding's enum classes print
 * their members with it): `value` is the 64-bit pattern of fbe_enum_value_at
 * (sign-extended for signed bases). */
FBE_API fbe_status fbe_text_write_enum(const fbe_enum *type, uint64_t value, fbe_buffer *out,
                                       fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

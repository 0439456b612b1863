/* Internal: the texts of decoded values on dump lines (dump.c, fbe/dump.h). */
#ifndef FBE_DUMP_TEXT_H
#define FBE_DUMP_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/schema.h"

#define FBE_DUMP_STRING_SHOWN 48u /* bytes of a string or bytes value shown before "..." */

/* Room enough for any of the texts below. */
#define FBE_DUMP_TEXT_MAX (FBE_DUMP_STRING_SHOWN * 6 + 320)

/* `"text"` with escapes, at most FBE_DUMP_STRING_SHOWN bytes of s, then `... (N bytes)`. */
void fbei_dump_quote(const uint8_t *s, uint32_t n, char *out, size_t cap);

/* "bytes 41 42 43": at most 16 bytes of a `bytes` value, then `... (N bytes)`. */
void fbei_dump_hex(const uint8_t *s, uint32_t n, char *out, size_t cap);

/* The scalar of type t (wire kind, enum or flags) whose bytes are at s: "1000.0",
 * "1 (sell)", "0x06 (good)", "'!' (33)", dates of timestamps, odd bytes said. */
void fbei_dump_scalar(const fbe_type *t, const uint8_t *s, char *out, size_t cap);

#endif

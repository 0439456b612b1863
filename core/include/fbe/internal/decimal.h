/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* The 16-byte decimal on the wire (FORMAT.md 3.2): its validity check and error. */
#ifndef FBE_INTERNAL_DECIMAL_H
#define FBE_INTERNAL_DECIMAL_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/error.h"
#include "fbe/internal/endian.h"

/* The decimal rule (FORMAT.md 3.2): scale 0..28 and the reserved bits (bytes 12-13, bits
 * 0-6 of byte 15) zero. Verify and decode refuse any other pattern, so every decoded
 * decimal can be written again. b: the 16 wire bytes. */
static inline int fbei_decimal_bad(const uint8_t *b) {
  return (fbe_load32(b + 12) & 0x7f00ffffu) != 0 || b[14] > 28;
}

/* Sets err to FBE_ERR_MALFORMED for the bad decimal whose 16 bytes are at b (the model
 * offset `at`), naming the offending byte (its offset is the error's). Returns the code. */
fbe_status fbei_decimal_error(fbe_error *err, size_t at, const uint8_t *b);

#endif

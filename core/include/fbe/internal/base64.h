/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: Base64, RFC 4648 standard alphabet with '=' padding (JSON bytes fields). */
#ifndef FBE_BASE64_H
#define FBE_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* Length of the encoding of n bytes (4 * ceil(n / 3)); SIZE_MAX when it would overflow. */
size_t fbei_base64_encoded_size(size_t n);

/* Writes fbei_base64_encoded_size(n) characters to out (no NUL). */
void fbei_base64_encode(const uint8_t *in, size_t n, char *out);

/* Decodes padded Base64 text into out, which must hold at least 3 * (n / 4) bytes.
 * Returns the number of bytes written, or -1 (with *bad = offset of the first bad
 * character in text) on a character outside the alphabet, misplaced padding or a
 * length that is not a multiple of 4. Bits after the last byte are ignored. */
ptrdiff_t fbei_base64_decode(const char *text, size_t n, uint8_t *out, size_t *bad);

#endif

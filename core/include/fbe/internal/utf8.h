/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: the one UTF-8 validator (strings in verify, decode, the JSON reader, the
 * setters and fbe_utf8_check) and UTF-8 encoding. */
#ifndef FBE_UTF8_H
#define FBE_UTF8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "fbe/error.h"
#include "fbe/field.h"

/* Length (1..4) of the well-formed UTF-8 sequence at s[0..n), or 0 when it is not one
 * (stray continuation byte, overlong form, surrogate, above U+10FFFF, truncated). */
static inline size_t fbei_utf8_sequence(const uint8_t *s, size_t n) {
  uint8_t c = s[0];
  if (c < 0x80) return 1;
  size_t len;
  uint8_t lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
  if (c >= 0xc2 && c <= 0xdf) len = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    if (c == 0xe0) lo = 0xa0;      /* overlong */
    else if (c == 0xed) hi = 0x9f; /* surrogates */
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    if (c == 0xf0) lo = 0x90;      /* overlong */
    else if (c == 0xf4) hi = 0x8f; /* above U+10FFFF */
  } else return 0;
  if (n < len || s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < len; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  return len;
}

/* 1 when s[0..n) is all ASCII, the common case (inline, no loop up to 16 bytes). */
static inline int fbei_utf8_ascii(const uint8_t *s, size_t n) { return fbe_is_ascii(s, n); }

/* How many bytes of s[0..n) are well-formed UTF-8 from the start: n when all are, else
 * the offset of the first bad sequence (the first bad byte). */
size_t fbei_utf8_valid_prefix(const uint8_t *s, size_t n);

/* 1 when s[0..n) is well-formed UTF-8 (ASCII inline, the rest out of line). */
static inline int fbei_utf8_valid(const uint8_t *s, size_t n) {
  return fbei_utf8_ascii(s, n) || fbei_utf8_valid_prefix(s, n) == n;
}

/* Sets err to `code` for the bad sequence at s[at] (found by fbei_utf8_valid_prefix),
 * saying what is wrong ("a UTF-16 surrogate (U+D800) at byte 3 of the string"), with
 * err->offset = base + at (FBE_NO_OFFSET when base is). Returns code. */
fbe_status fbei_utf8_error(fbe_error *err, fbe_status code, size_t base, const uint8_t *s, size_t n,
                          size_t at);

/* Writes a Unicode scalar value (not a surrogate, <= U+10FFFF) as UTF-8; returns 1..4. */
static inline size_t fbei_utf8_encode(uint32_t cp, uint8_t *out) {
  if (cp < 0x80) {
    out[0] = (uint8_t)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (uint8_t)(0xc0 | cp >> 6);
    out[1] = (uint8_t)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (uint8_t)(0xe0 | cp >> 12);
    out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (uint8_t)(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = (uint8_t)(0xf0 | cp >> 18);
  out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (uint8_t)(0x80 | (cp & 0x3f));
  return 4;
}

#endif

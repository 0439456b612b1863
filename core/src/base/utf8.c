/* The string rule (fbe_utf8_check) and its error text, shared by verify, decode, the
 * JSON reader, the setters and the bindings, so every one refuses the same bytes with
 * the same words. */
#include <stdio.h>
#include "fbe/message.h"
#include "fbe/internal/error.h"
#include "fbe/internal/utf8.h"

size_t fbei_utf8_valid_prefix(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (s[i] < 0x80) {
      uint64_t w;
      while (n - i >= 8 && (memcpy(&w, s + i, 8), (w & 0x8080808080808080u) == 0)) i += 8;
      while (i < n && s[i] < 0x80) i++;
      continue;
    }
    size_t len = fbei_utf8_sequence(s + i, n - i);
    if (!len) return i;
    i += len;
  }
  return n;
}

/* What is wrong with the sequence at s[0..n) (fbei_utf8_sequence refused it). */
static void describe(const uint8_t *s, size_t n, char *out, size_t cap) {
  uint8_t c = s[0];
  if (c >= 0x80 && c <= 0xbf) {
    snprintf(out, cap, "a stray continuation byte 0x%02x", c);
  } else if (c == 0xc0 || c == 0xc1 || (c == 0xe0 && n > 1 && s[1] >= 0x80 && s[1] < 0xa0) ||
             (c == 0xf0 && n > 1 && s[1] >= 0x80 && s[1] < 0x90)) {
    snprintf(out, cap, "an overlong form (0x%02x 0x%02x)", c, n > 1 ? s[1] : 0);
  } else if (c == 0xed && n > 2 && s[1] >= 0xa0 && s[1] <= 0xbf && (s[2] & 0xc0) == 0x80) {
    unsigned cp = (unsigned)(c & 0x0f) << 12 | (unsigned)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
    snprintf(out, cap, "a UTF-16 surrogate (U+%04X)", cp);
  } else if ((c == 0xf4 && n > 1 && s[1] >= 0x90 && s[1] <= 0xbf) || (c >= 0xf5 && c <= 0xf7)) {
    snprintf(out, cap, "a code point above U+10FFFF");
  } else if (c >= 0xf8) {
    snprintf(out, cap, "the byte 0x%02x, which UTF-8 never uses", c);
  } else {
    size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2, i = 1;
    while (i < len && i < n && (s[i] & 0xc0) == 0x80) i++;
    if (i == n) snprintf(out, cap, "a sequence cut short by the end of the string");
    else snprintf(out, cap, "a sequence cut short (0x%02x is not a continuation byte)", s[i]);
  }
}

fbe_status fbei_utf8_error(fbe_error *err, fbe_status code, size_t base, const uint8_t *s, size_t n,
                          size_t at) {
  char what[96];
  describe(s + at, n - at, what, sizeof what);
  return fbei_error_set(err, code, base == FBE_NO_OFFSET ? FBE_NO_OFFSET : base + at,
                       "string is not valid UTF-8: %s at byte %zu of %zu", what, at, n);
}

fbe_status fbe_utf8_check(const void *data, size_t size, fbe_error *err) {
  const uint8_t *s = data;
  if (!size) return FBE_OK;
  if (!s) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no data");
  if (fbei_utf8_ascii(s, size)) return FBE_OK;
  size_t ok = fbei_utf8_valid_prefix(s, size);
  return ok == size ? FBE_OK : fbei_utf8_error(err, FBE_ERR_ARGUMENT, 0, s, size, ok);
}

/* Base64 (RFC 4648 section 4). */
#include "fbe/internal/base64.h"

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t fbei_base64_encoded_size(size_t n) {
  size_t groups = n / 3 + (n % 3 != 0);
  return groups > SIZE_MAX / 4 ? SIZE_MAX : groups * 4;
}

void fbei_base64_encode(const uint8_t *in, size_t n, char *out) {
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
    *out++ = alphabet[v >> 18];
    *out++ = alphabet[(v >> 12) & 63];
    *out++ = alphabet[(v >> 6) & 63];
    *out++ = alphabet[v & 63];
  }
  if (i < n) {
    uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0u);
    *out++ = alphabet[v >> 18];
    *out++ = alphabet[(v >> 12) & 63];
    *out++ = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
    *out++ = '=';
  }
}

static int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

ptrdiff_t fbei_base64_decode(const char *text, size_t n, uint8_t *out, size_t *bad) {
  if (n % 4 != 0) {
    *bad = n - n % 4; /* the incomplete last group */
    return -1;
  }
  size_t written = 0;
  for (size_t i = 0; i < n; i += 4) {
    int last = i + 4 == n;
    /* '=' may only end the last group: "xx==" or "xxx=". */
    size_t pad = last && text[i + 3] == '=' ? (text[i + 2] == '=' ? 2 : 1) : 0;
    uint32_t v = 0;
    for (size_t j = 0; j < 4 - pad; j++) {
      int s = sextet(text[i + j]);
      if (s < 0) {
        *bad = i + j;
        return -1;
      }
      v = v << 6 | (uint32_t)s;
    }
    v <<= 6 * pad;
    out[written++] = (uint8_t)(v >> 16);
    if (pad < 2) out[written++] = (uint8_t)(v >> 8);
    if (pad < 1) out[written++] = (uint8_t)v;
  }
  return (ptrdiff_t)written;
}

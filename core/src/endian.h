/* Internal: little-endian loads and stores at any alignment. */
#ifndef FBE_ENDIAN_H
#define FBE_ENDIAN_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FBE_BIG_ENDIAN 1
#define FBE_LE16(x) __builtin_bswap16(x)
#define FBE_LE32(x) __builtin_bswap32(x)
#define FBE_LE64(x) __builtin_bswap64(x)
#else
#define FBE_BIG_ENDIAN 0
#define FBE_LE16(x) (x)
#define FBE_LE32(x) (x)
#define FBE_LE64(x) (x)
#endif

static inline uint16_t fbe_load16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return FBE_LE16(v); }
static inline uint32_t fbe_load32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return FBE_LE32(v); }
static inline uint64_t fbe_load64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return FBE_LE64(v); }
static inline void fbe_store16(uint8_t *p, uint16_t v) { v = FBE_LE16(v); memcpy(p, &v, 2); }
static inline void fbe_store32(uint8_t *p, uint32_t v) { v = FBE_LE32(v); memcpy(p, &v, 4); }
static inline void fbe_store64(uint8_t *p, uint64_t v) { v = FBE_LE64(v); memcpy(p, &v, 8); }

/* Copies n bytes (a run of fixed-size fields) without a libc call for small n:
 * two overlapping loads/stores cover every length up to 16. */
static inline void fbe_copy_small(uint8_t *d, const uint8_t *s, size_t n) {
  if (n >= 8) {
    if (n > 16) {
      memcpy(d, s, n);
      return;
    }
    uint64_t a, b;
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
    memcpy(d, &a, 8);
    memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
  } else if (n) {
    uint8_t a = s[0], b = s[n / 2], c = s[n - 1];
    d[0] = a;
    d[n / 2] = b;
    d[n - 1] = c;
  }
}

#endif

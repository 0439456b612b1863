/* UUID text form and generation (RFC 4122 versions 1 and 4). No global state: every
 * call takes fresh randomness from the operating system. */
#if defined(_WIN32)
#define _CRT_RAND_S /* rand_s() */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fbe/message.h"
#include "fbe/internal/uuid.h"

#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define FBE_HAVE_GETRANDOM 1
#endif
#endif

#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || \
    defined(__NetBSD__) || defined(__DragonFly__)
#define FBE_HAVE_ARC4RANDOM 1
#endif

#if !defined(FBE_HAVE_ARC4RANDOM) /* arc4random_buf cannot fail */
/* Weak randomness for when the system source fails: mixes the clock with addresses
 * (which ASLR varies) through splitmix64. Never the normal path. */
static void fallback_random(uint8_t *out, size_t n) {
  uint64_t state = fbei_now_ns() ^ (uint64_t)(uintptr_t)out ^
                   ((uint64_t)(uintptr_t)&state << 17) ^ (uint64_t)clock();
  for (size_t i = 0; i < n; i += 8) {
    state += 0x9e3779b97f4a7c15u;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    for (size_t j = 0; j < 8 && i + j < n; j++) out[i + j] = (uint8_t)(z >> (8 * j));
  }
}
#endif

static void random_bytes(uint8_t *out, size_t n) {
#if defined(FBE_HAVE_ARC4RANDOM)
  arc4random_buf(out, n);
  return;
#elif defined(_WIN32)
  for (size_t i = 0; i < n; i++) {
    unsigned int r;
    if (rand_s(&r) != 0) {
      fallback_random(out, n);
      return;
    }
    out[i] = (uint8_t)r;
  }
  return;
#else
  size_t got = 0;
#if defined(FBE_HAVE_GETRANDOM)
  while (got < n) {
    ssize_t r = getrandom(out + got, n - got, 0);
    if (r <= 0) break; /* EINTR or no syscall: try /dev/urandom */
    got += (size_t)r;
  }
#endif
  if (got < n) {
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
      got += fread(out + got, 1, n - got, f);
      fclose(f);
    }
  }
  if (got < n) fallback_random(out + got, n - got);
#endif
}

void fbei_uuid_v4(uint8_t out[16]) {
  random_bytes(out, 16);
  out[6] = (uint8_t)((out[6] & 0x0f) | 0x40); /* version 4 */
  out[8] = (uint8_t)((out[8] & 0x3f) | 0x80); /* RFC 4122 variant */
}

/* Time-based: 100-ns intervals since 1582-10-15, a random clock sequence and a random
 * node with the multicast bit set (RFC 4122 4.5), so no MAC address and no state. */
void fbei_uuid_v1(uint8_t out[16]) {
  const uint64_t gregorian_offset = 0x01b21dd213814000u; /* 1582-10-15 .. 1970-01-01 */
  uint64_t t = fbei_now_ns() / 100u + gregorian_offset;
  uint8_t rnd[8];
  random_bytes(rnd, sizeof rnd);
  uint32_t time_low = (uint32_t)t;
  uint16_t time_mid = (uint16_t)(t >> 32);
  uint16_t time_hi = (uint16_t)(((t >> 48) & 0x0fff) | 0x1000); /* version 1 */
  out[0] = (uint8_t)(time_low >> 24);
  out[1] = (uint8_t)(time_low >> 16);
  out[2] = (uint8_t)(time_low >> 8);
  out[3] = (uint8_t)time_low;
  out[4] = (uint8_t)(time_mid >> 8);
  out[5] = (uint8_t)time_mid;
  out[6] = (uint8_t)(time_hi >> 8);
  out[7] = (uint8_t)time_hi;
  out[8] = (uint8_t)((rnd[0] & 0x3f) | 0x80); /* clock_seq_hi with the variant */
  out[9] = rnd[1];
  memcpy(out + 10, rnd + 2, 6);
  out[10] |= 0x01; /* multicast bit: a random node, not a MAC */
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int is_dash_position(size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; }

fbe_status fbe_uuid_parse(const char *text, size_t length, fbe_uuid *out) {
  if (!text || !out || length != 36) return FBE_ERR_ARGUMENT;
  uint8_t bytes[16];
  size_t nibble = 0;
  for (size_t i = 0; i < 36; i++) {
    if (is_dash_position(i)) {
      if (text[i] != '-') return FBE_ERR_ARGUMENT;
      continue;
    }
    int h = hex_value(text[i]);
    if (h < 0) return FBE_ERR_ARGUMENT;
    if (nibble % 2 == 0)
      bytes[nibble / 2] = (uint8_t)(h << 4);
    else
      bytes[nibble / 2] |= (uint8_t)h;
    nibble++;
  }
  memcpy(out->bytes, bytes, 16);
  return FBE_OK;
}

void fbe_uuid_format(const fbe_uuid *v, char out[37]) {
  static const char hex[] = "0123456789abcdef";
  size_t n = 0;
  for (size_t i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[n++] = '-';
    out[n++] = hex[v->bytes[i] >> 4];
    out[n++] = hex[v->bytes[i] & 0x0f];
  }
  out[n] = '\0';
}

/* Decimal text <-> the 16-byte .NET decimal (FORMAT.md 3.2): 96-bit magnitude in three
 * 32-bit limbs, scale 0..28, sign bit. Text is Python's str(Decimal) form. */
#include <stdint.h>
#include <string.h>
#include "fbe/message.h"
#include "fbe/internal/error.h"
#include "fbe/internal/decimal.h"

#define MAX_SCALE 28
#define MAX_DIGITS 29 /* 2^96 - 1 = 79228162514264337593543950335 */

typedef struct u96 { uint32_t w[3]; } u96; /* w[0] = low word */

/* m = m * 10 + digit; returns -1 (m unchanged) when the result needs more than 96 bits. */
static int u96_mul10_add(u96 *m, uint32_t digit) {
  u96 r;
  uint64_t carry = digit;
  for (int i = 0; i < 3; i++) {
    uint64_t t = (uint64_t)m->w[i] * 10u + carry;
    r.w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry) return -1;
  *m = r;
  return 0;
}

/* m = m / 10; returns the remainder. */
static uint32_t u96_div10(u96 *m) {
  uint64_t rem = 0;
  for (int i = 2; i >= 0; i--) {
    uint64_t cur = (rem << 32) | m->w[i];
    m->w[i] = (uint32_t)(cur / 10u);
    rem = cur % 10u;
  }
  return (uint32_t)rem;
}

static int u96_is_zero(const u96 *m) { return !(m->w[0] | m->w[1] | m->w[2]); }

static void store(fbe_decimal *out, const u96 *m, int scale, int negative) {
  memset(out->bytes, 0, sizeof out->bytes);
  for (int i = 0; i < 3; i++)
    for (int b = 0; b < 4; b++) out->bytes[i * 4 + b] = (uint8_t)(m->w[i] >> (8 * b));
  out->bytes[14] = (uint8_t)scale;
  out->bytes[15] = negative ? 0x80 : 0x00;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

fbe_status fbe_decimal_parse(const char *text, size_t length, fbe_decimal *out) {
  if (!text || !out) return FBE_ERR_ARGUMENT;
  const char *p = text, *end = text + length;
  int negative = 0;
  if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  const char *int_begin = p;
  while (p < end && is_digit(*p)) p++;
  size_t nint = (size_t)(p - int_begin);
  const char *frac_begin = p;
  size_t nfrac = 0;
  if (p < end && *p == '.') {
    frac_begin = ++p;
    while (p < end && is_digit(*p)) p++;
    nfrac = (size_t)(p - frac_begin);
  }
  if (nint + nfrac == 0) return FBE_ERR_ARGUMENT;
  int64_t exponent = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    int exp_negative = 0;
    if (p < end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
    if (p == end || !is_digit(*p)) return FBE_ERR_ARGUMENT;
    for (; p < end && is_digit(*p); p++)
      if (exponent < 1000000000) exponent = exponent * 10 + (*p - '0'); /* saturate */
    if (exp_negative) exponent = -exponent;
  }
  if (p != end) return FBE_ERR_ARGUMENT;

  /* The digits of int and fraction form one coefficient; value = coef * 10^-scale. */
  size_t total = nint + nfrac;
#define DIGIT(i) ((i) < nint ? int_begin[(i)] : frac_begin[(i) - nint])
  size_t lead = 0;
  while (lead < total && DIGIT(lead) == '0') lead++;
  int64_t scale = (int64_t)nfrac - exponent;
  u96 m = {{0, 0, 0}};
  if (lead == total) { /* zero: keep the scale where it fits */
    store(out, &m, scale < 0 ? 0 : scale > MAX_SCALE ? MAX_SCALE : (int)scale, negative);
    return FBE_OK;
  }
  /* A scale above 28 is only representable when enough trailing zeros can go. */
  size_t trailing = 0;
  while (DIGIT(total - 1 - trailing) == '0') trailing++;
  size_t drop = 0;
  if (scale > MAX_SCALE) {
    if ((uint64_t)(scale - MAX_SCALE) > trailing) return FBE_ERR_RANGE;
    drop = (size_t)(scale - MAX_SCALE);
    scale = MAX_SCALE;
  }
  if (total - lead - drop > MAX_DIGITS) return FBE_ERR_RANGE;
  for (size_t i = lead; i < total - drop; i++)
    if (u96_mul10_add(&m, (uint32_t)(DIGIT(i) - '0'))) return FBE_ERR_RANGE;
#undef DIGIT
  /* A positive exponent is folded into the magnitude (1E+3 -> 1000, scale 0). */
  for (; scale < 0; scale++)
    if (u96_mul10_add(&m, 0)) return FBE_ERR_RANGE;
  store(out, &m, (int)scale, negative);
  return FBE_OK;
}

/* Python's Decimal.__str__: plain notation unless the adjusted exponent is below -6. */
void fbe_decimal_format(const fbe_decimal *v, char *out, size_t out_size) {
  if (!out || !out_size) return;
  u96 m;
  for (int i = 0; i < 3; i++)
    m.w[i] = (uint32_t)v->bytes[i * 4] | (uint32_t)v->bytes[i * 4 + 1] << 8 |
             (uint32_t)v->bytes[i * 4 + 2] << 16 | (uint32_t)v->bytes[i * 4 + 3] << 24;
  int scale = v->bytes[14];
  char digits[MAX_DIGITS + 1];
  int nd = 0;
  do {
    digits[nd++] = (char)('0' + u96_div10(&m));
  } while (!u96_is_zero(&m));
  for (int i = 0; i < nd / 2; i++) { /* digits were produced lowest first */
    char t = digits[i];
    digits[i] = digits[nd - 1 - i];
    digits[nd - 1 - i] = t;
  }

  char buf[80]; /* worst case: sign, "0.", 5 zeros, 29 digits; or 29 digits, '.', "E-283" */
  size_t n = 0;
  if (v->bytes[15] & 0x80) buf[n++] = '-';
  int leftdigits = nd - scale;
  int dotplace = leftdigits > -6 ? leftdigits : 1;
  if (dotplace <= 0) {
    buf[n++] = '0';
    buf[n++] = '.';
    for (int i = 0; i < -dotplace; i++) buf[n++] = '0';
    memcpy(buf + n, digits, (size_t)nd);
    n += (size_t)nd;
  } else if (dotplace >= nd) { /* only for scale 0 (dotplace == nd) */
    memcpy(buf + n, digits, (size_t)nd);
    n += (size_t)nd;
  } else {
    memcpy(buf + n, digits, (size_t)dotplace);
    n += (size_t)dotplace;
    buf[n++] = '.';
    memcpy(buf + n, digits + dotplace, (size_t)(nd - dotplace));
    n += (size_t)(nd - dotplace);
  }
  if (leftdigits != dotplace) {
    int e = leftdigits - dotplace; /* always negative here */
    buf[n++] = 'E';
    buf[n++] = '-';
    char rev[8];
    int ne = 0;
    for (e = -e; e; e /= 10) rev[ne++] = (char)('0' + e % 10);
    while (ne) buf[n++] = rev[--ne];
  }
  if (n >= out_size) n = out_size - 1;
  memcpy(out, buf, n);
  out[n] = '\0';
}

fbe_status fbei_decimal_error(fbe_error *err, size_t at, const uint8_t *b) {
  if (b[14] > MAX_SCALE)
    return fbei_error_set(err, FBE_ERR_MALFORMED, at + 14, "decimal scale %u is above %d", (unsigned)b[14],
                         MAX_SCALE);
  unsigned i = b[12] ? 12 : b[13] ? 13 : 15;
  return fbei_error_set(err, FBE_ERR_MALFORMED, at + i,
                       "decimal has reserved bits set (byte %u is 0x%02x: bytes 12-13 must be 0, byte 15 "
                       "holds only the sign bit 0x80)", i, (unsigned)b[i]);
}

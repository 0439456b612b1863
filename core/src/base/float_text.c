/* Shortest round-trip double formatting and correctly rounded parsing, built on the C
 * library's exact printf("%e") and correctly rounded strtod/strtof. The only locale-
 * dependent part of those, the decimal point, never reaches them: we read printf's
 * output by structure and hand strtod integer mantissas ("123456e-3"). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fbe/internal/float_text.h"

/* A decimal d1.d2...dn x 10^exp, digits in ASCII, no leading zero unless zero. */
typedef struct decimal_digits {
  char d[24];
  int n;
  int exp;
} decimal_digits;

/* v correctly rounded to `precision` significant digits (1..17). */
static void round_digits(double v, int precision, decimal_digits *out) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*e", precision - 1, fabs(v));
  const char *p = buf;
  out->n = 0;
  /* "d[<point>ddd]e<sign>dd": skip whatever the locale uses as the point. */
  while (*p && *p != 'e') {
    if (*p >= '0' && *p <= '9' && out->n < (int)sizeof out->d) out->d[out->n++] = *p;
    p++;
  }
  out->exp = *p ? atoi(p + 1) : 0;
}

/* Parses the digits back as a double (same sign as v). */
static double digits_value(const decimal_digits *dd, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s%.*se%d", signbit(v) ? "-" : "", dd->n, dd->d,
           dd->exp - dd->n + 1);
  return strtod(buf, NULL);
}

/* The next n-digit decimal above (up = 1) or below (up = 0) dd. */
static void neighbour(decimal_digits *dd, int up) {
  int i = dd->n - 1;
  if (up) {
    while (i >= 0 && dd->d[i] == '9') dd->d[i--] = '0';
    if (i >= 0) {
      dd->d[i]++;
    } else { /* 99..9 -> 10..0 one decade up */
      dd->d[0] = '1';
      dd->exp++;
    }
  } else {
    while (i >= 0 && dd->d[i] == '0') dd->d[i--] = '9';
    dd->d[i]--; /* i >= 0: dd is not zero */
    if (dd->d[0] == '0') { /* 10..0 -> 99..9 one decade down */
      memmove(dd->d, dd->d + 1, (size_t)dd->n - 1);
      dd->d[dd->n - 1] = '9';
      dd->exp--;
    }
  }
}

/* Shortest digits at exactly `precision` digits that read back as v, if any. When the
 * correctly rounded candidate misses (possible where the rounding interval is
 * asymmetric, at powers of two), its neighbour on the other side of v may still hit. */
static int try_precision(double v, int precision, decimal_digits *out) {
  round_digits(v, precision, out);
  double back = digits_value(out, v);
  if (back == v) return 1;
  neighbour(out, fabs(back) < fabs(v));
  return digits_value(out, v) == v;
}

size_t fbei_double_format(double v, char out[FBE_DOUBLE_TEXT_MAX]) {
  size_t n = 0;
  if (signbit(v)) out[n++] = '-';
  if (v == 0) {
    memcpy(out + n, "0.0", 4);
    return n + 3;
  }
  if (fabs(v) < 1e16 && v == (double)(int64_t)v) { /* integral: its digits and ".0" */
    uint64_t mag = (uint64_t)(int64_t)fabs(v);
    char rev[20];
    int nd = 0;
    do {
      rev[nd++] = (char)('0' + mag % 10);
      mag /= 10;
    } while (mag);
    while (nd) out[n++] = rev[--nd];
    memcpy(out + n, ".0", 3);
    return n + 2;
  }
  decimal_digits dd;
  if (fabs(v) >= DBL_MIN) {
    /* Up to 15 digits a decimal maps to one double and back (DBL_DIG), so when 15
     * digits round-trip, dropping their trailing zeros gives the shortest text. */
    if (!try_precision(v, 15, &dd) && !try_precision(v, 16, &dd)) round_digits(v, 17, &dd);
  } else { /* subnormals carry fewer digits: search upwards */
    for (int p = 1; p <= 17; p++)
      if (try_precision(v, p, &dd)) break;
  }
  while (dd.n > 1 && dd.d[dd.n - 1] == '0') dd.n--;

  /* Python's repr: scientific when the point would be 4+ places left of the first
   * digit or the number has more than 16 integer digits. */
  int decpt = dd.exp + 1; /* position of the point relative to the first digit */
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      out[n++] = '0';
      out[n++] = '.';
      for (int i = 0; i < -decpt; i++) out[n++] = '0';
      memcpy(out + n, dd.d, (size_t)dd.n);
      n += (size_t)dd.n;
    } else if (decpt >= dd.n) {
      memcpy(out + n, dd.d, (size_t)dd.n);
      n += (size_t)dd.n;
      for (int i = dd.n; i < decpt; i++) out[n++] = '0';
      out[n++] = '.';
      out[n++] = '0';
    } else {
      memcpy(out + n, dd.d, (size_t)decpt);
      n += (size_t)decpt;
      out[n++] = '.';
      memcpy(out + n, dd.d + decpt, (size_t)(dd.n - decpt));
      n += (size_t)(dd.n - decpt);
    }
  } else {
    out[n++] = dd.d[0];
    if (dd.n > 1) {
      out[n++] = '.';
      memcpy(out + n, dd.d + 1, (size_t)dd.n - 1);
      n += (size_t)dd.n - 1;
    }
    n += (size_t)snprintf(out + n, FBE_DOUBLE_TEXT_MAX - n, "e%c%02d", dd.exp < 0 ? '-' : '+',
                          dd.exp < 0 ? -dd.exp : dd.exp);
  }
  out[n] = '\0';
  return n;
}

/* Enough significant digits to round any double or float correctly (at most 767 are
 * ever needed); the rest collapse into one sticky non-zero digit. */
#define KEEP_DIGITS 800

int fbei_number_parse(const char *text, size_t n, int as_float, double *out) {
  const char *p = text, *end = text + n;
  char buf[KEEP_DIGITS + 32];
  size_t len = 0;
  if (p < end && *p == '-') buf[len++] = *p++;
  size_t mantissa_start = len;
  int64_t exp_adjust = 0; /* value = kept digits x 10^(exponent + exp_adjust) */
  int sticky = 0, seen_point = 0;
  for (; p < end && *p != 'e' && *p != 'E'; p++) {
    if (*p == '.') {
      seen_point = 1;
      continue;
    }
    if (seen_point) exp_adjust--;
    if (*p == '0' && len == mantissa_start) continue; /* leading zero */
    if (len - mantissa_start < KEEP_DIGITS) {
      buf[len++] = *p;
    } else {
      exp_adjust++; /* dropped digit */
      sticky |= *p != '0';
    }
  }
  if (sticky) { /* stands for the dropped non-zero tail, one place further down */
    buf[len++] = '1';
    exp_adjust--;
  }
  if (len == mantissa_start) buf[len++] = '0';
  int64_t exponent = 0;
  if (p < end) { /* 'e' */
    p++;
    int negative = 0;
    if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
    for (; p < end; p++)
      if (exponent < 1000000000) exponent = exponent * 10 + (*p - '0'); /* saturate */
    if (negative) exponent = -exponent;
  }
  exponent += exp_adjust;
#if FLT_EVAL_METHOD == 0 /* not on i386 (x87: 2) nor s390x (1): strtod only there */
  size_t ndigits = len - mantissa_start;
  /* Clinger's fast path: an exact integer mantissa and an exact power of ten give the
   * correctly rounded result in one IEEE operation. Floats only take it when the
   * double result is exact, so that rounding to float is the only rounding. */
  static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (ndigits <= 15 && exponent >= -22 && exponent <= 22) {
    int64_t m = 0;
    for (size_t i = mantissa_start; i < len; i++) m = m * 10 + (buf[i] - '0');
    double v = exponent < 0 ? (double)m / pow10[-exponent] : (double)m * pow10[exponent];
    if (!as_float || (exponent >= 0 && v < 9007199254740992.0)) {
      if (as_float) v = (double)(float)v;
      if (buf[0] == '-') v = -v;
      if (isinf(v)) return -1;
      *out = v;
      return 0;
    }
  }
#endif
  /* Beyond these the result is 0 or infinite anyway, whatever the digits. */
  if (exponent > 99999) exponent = 99999;
  if (exponent < -99999) exponent = -99999;
  snprintf(buf + len, sizeof buf - len, "e%d", (int)exponent);
  double v = as_float ? (double)strtof(buf, NULL) : strtod(buf, NULL);
  if (isinf(v)) return -1;
  *out = v;
  return 0;
}

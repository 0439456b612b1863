/* Internal: what the JSON reader and writer share. */
#ifndef FBE_JSON_COMMON_H
#define FBE_JSON_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/schema.h"
#include "fbe/internal/kinds.h"

/* Deepest nesting of JSON objects/arrays either side accepts. The depth rule is the
 * core's (optionals and collections, limits->max_depth, counted by the reader and the
 * writer as decode does); one of its levels opens at most 3 containers (a map's '[',
 * a pair's '[', a struct's '{'), so this bound on raw containers (skipped members, the
 * recursion's stack) does not bind before the default max_depth does. */
#define FBE_JSON_MAX_DEPTH (3 * 256 + 64)

/* Room for "-9223372036854775808" / "18446744073709551615". */
#define FBE_INTEGER_TEXT_MAX 21
/* Room for any fbe_decimal_format output, NUL included (see fbe/message.h). */
#define FBE_DECIMAL_TEXT_MAX 48

/* Kinds written as JSON integers (wire kinds: enums and flags are their base). */
static inline int fbei_json_is_integer_kind(fbe_kind wire) {
  return (wire >= FBE_KIND_BYTE && wire <= FBE_KIND_UINT64) || wire == FBE_KIND_TIMESTAMP;
}

/* Decimal digits of a 64-bit pattern (as loaded by fbei_scalar_load); no NUL. */
static inline size_t fbei_json_format_integer(fbe_kind wire, uint64_t pattern,
                                             char out[FBE_INTEGER_TEXT_MAX]) {
  char rev[FBE_INTEGER_TEXT_MAX];
  size_t n = 0, len = 0;
  uint64_t mag = pattern;
  if (fbei_kind_is_signed(wire) && (int64_t)pattern < 0) {
    out[len++] = '-';
    mag = 0 - pattern; /* two's complement magnitude, also for INT64_MIN */
  }
  do {
    rev[n++] = (char)('0' + mag % 10);
    mag /= 10;
  } while (mag);
  while (n) out[len++] = rev[--n];
  return len;
}

#endif

/* Facts about type kinds (fbe/internal/kinds.h): the table, names, integer ranges. */
#include <stdbool.h>
#include <stdint.h>
#include "fbe/schema.h"
#include "fbe/internal/kinds.h"

const fbei_kind_facts fbei_kinds[FBE_KIND_COUNT_] = {
#define FBE_KIND_ROW_(kind, name, size, bits, is_signed, is_integer) \
  [kind] = {name, size, bits, is_signed, is_integer},
    FBE_KIND_LIST(FBE_KIND_ROW_)
#undef FBE_KIND_ROW_
};

/* The table has a row for every kind, in order. */
#define FBE_KIND_ONE_(kind, name, size, bits, is_signed, is_integer) +1
_Static_assert(0 FBE_KIND_LIST(FBE_KIND_ONE_) == FBE_KIND_COUNT_, "FBE_KIND_LIST");
#undef FBE_KIND_ONE_

const char *fbe_kind_name(fbe_kind kind) {
  return (unsigned)kind < FBE_KIND_COUNT_ ? fbei_kinds[kind].name : "unknown";
}

bool fbei_is_integer_kind(fbe_kind kind) {
  return (unsigned)kind < FBE_KIND_COUNT_ && fbei_kinds[kind].is_integer;
}

uint64_t fbei_int_pattern(bool neg, uint64_t mag) { return neg ? (uint64_t)0 - mag : mag; }

/* Kinds with an integer range: integers, char, wchar, timestamp (not bool). */
static bool ranged(fbe_kind kind) {
  return (unsigned)kind < FBE_KIND_COUNT_ && fbei_kinds[kind].bits >= 8;
}

uint64_t fbei_int_limit(fbe_kind kind, bool max) {
  if (!ranged(kind)) return 0;
  unsigned bits = fbei_kinds[kind].bits;
  bool is_signed = fbei_kinds[kind].is_signed;
  uint64_t half = (uint64_t)1 << (bits - 1);
  if (!max) return is_signed ? fbei_int_pattern(true, half) : 0;
  if (is_signed) return half - 1;
  return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

bool fbei_int_fits(fbe_kind kind, bool neg, uint64_t mag) {
  if (!ranged(kind)) return false;
  if (neg && mag != 0) return fbei_kinds[kind].is_signed && mag <= (uint64_t)1 << (fbei_kinds[kind].bits - 1);
  return mag <= fbei_int_limit(kind, true);
}

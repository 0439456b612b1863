/* Facts about type kinds: names and the integer kinds' widths and ranges. */
#include <stdbool.h>
#include <stdint.h>
#include "fbe/schema.h"
#include "fbe/internal/kinds.h"


static bool int_kind_info(fbe_kind kind, unsigned *bits, bool *is_signed) {
  *is_signed = kind == FBE_KIND_INT8 || kind == FBE_KIND_INT16 || kind == FBE_KIND_INT32 ||
               kind == FBE_KIND_INT64;
  switch (kind) {
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      *bits = 8;
      return true;
    case FBE_KIND_INT16: case FBE_KIND_UINT16:
      *bits = 16;
      return true;
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32:
      *bits = 32;
      return true;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      *bits = 64;
      return true;
    default:
      return false;
  }
}

bool fbe_is_integer_kind(fbe_kind kind) {
  return kind == FBE_KIND_BYTE || (kind >= FBE_KIND_INT8 && kind <= FBE_KIND_UINT64);
}

uint64_t fbe_int_pattern(bool neg, uint64_t mag) { return neg ? (uint64_t)0 - mag : mag; }

uint64_t fbe_int_limit(fbe_kind kind, bool max) {
  unsigned bits;
  bool is_signed;
  if (!int_kind_info(kind, &bits, &is_signed)) return 0;
  uint64_t half = (uint64_t)1 << (bits - 1);
  if (!max) return is_signed ? fbe_int_pattern(true, half) : 0;
  if (is_signed) return half - 1;
  return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

bool fbe_int_fits(fbe_kind kind, bool neg, uint64_t mag) {
  unsigned bits;
  bool is_signed;
  if (!int_kind_info(kind, &bits, &is_signed)) return false;
  if (neg && mag != 0) return is_signed && mag <= (uint64_t)1 << (bits - 1);
  return mag <= fbe_int_limit(kind, true);
}

const char *fbe_kind_name(fbe_kind kind) {
  static const char *const names[FBE_KIND_COUNT_] = {
      "bool",   "byte",    "char",     "wchar",     "int8",  "uint8",  "int16", "uint16",
      "int32",  "uint32",  "int64",    "uint64",    "float", "double", "decimal",
      "timestamp", "uuid", "string",   "bytes",     "enum",  "flags",  "struct", "optional",
      "array",  "vector",  "list",     "set",       "map",   "hash",
  };
  return (unsigned)kind < FBE_KIND_COUNT_ ? names[kind] : "unknown";
}

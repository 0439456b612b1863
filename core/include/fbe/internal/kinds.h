/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Facts about type kinds, one table (base/kinds.c): every walk asks it instead of
 * switching over kinds for a size, a width or a sign. */
#ifndef FBE_INTERNAL_KINDS_H
#define FBE_INTERNAL_KINDS_H

#include <stdbool.h>
#include <stdint.h>
#include "fbe/schema.h"

/* X(kind, name, size, bits, is_signed, is_integer):
 * size       bytes of a fixed-size scalar on the wire (0: not one);
 * bits       width of a bool, integer, char, wchar or timestamp (1 for bool; 0: none);
 * is_signed  a two's complement integer;
 * is_integer byte, int8 ... uint64 (what takes an integer literal as such). */
#define FBE_KIND_LIST(X)                            \
  X(FBE_KIND_BOOL, "bool", 1, 1, 0, 0)              \
  X(FBE_KIND_BYTE, "byte", 1, 8, 0, 1)              \
  X(FBE_KIND_CHAR, "char", 1, 8, 0, 0)              \
  X(FBE_KIND_WCHAR, "wchar", 4, 32, 0, 0)           \
  X(FBE_KIND_INT8, "int8", 1, 8, 1, 1)              \
  X(FBE_KIND_UINT8, "uint8", 1, 8, 0, 1)            \
  X(FBE_KIND_INT16, "int16", 2, 16, 1, 1)           \
  X(FBE_KIND_UINT16, "uint16", 2, 16, 0, 1)         \
  X(FBE_KIND_INT32, "int32", 4, 32, 1, 1)           \
  X(FBE_KIND_UINT32, "uint32", 4, 32, 0, 1)         \
  X(FBE_KIND_INT64, "int64", 8, 64, 1, 1)           \
  X(FBE_KIND_UINT64, "uint64", 8, 64, 0, 1)         \
  X(FBE_KIND_FLOAT, "float", 4, 0, 0, 0)            \
  X(FBE_KIND_DOUBLE, "double", 8, 0, 0, 0)          \
  X(FBE_KIND_DECIMAL, "decimal", 16, 0, 0, 0)       \
  X(FBE_KIND_TIMESTAMP, "timestamp", 8, 64, 0, 0)   \
  X(FBE_KIND_UUID, "uuid", 16, 0, 0, 0)             \
  X(FBE_KIND_STRING, "string", 0, 0, 0, 0)          \
  X(FBE_KIND_BYTES, "bytes", 0, 0, 0, 0)            \
  X(FBE_KIND_ENUM, "enum", 0, 0, 0, 0)              \
  X(FBE_KIND_FLAGS, "flags", 0, 0, 0, 0)            \
  X(FBE_KIND_STRUCT, "struct", 0, 0, 0, 0)          \
  X(FBE_KIND_OPTIONAL, "optional", 0, 0, 0, 0)      \
  X(FBE_KIND_ARRAY, "array", 0, 0, 0, 0)            \
  X(FBE_KIND_VECTOR, "vector", 0, 0, 0, 0)          \
  X(FBE_KIND_LIST, "list", 0, 0, 0, 0)              \
  X(FBE_KIND_SET, "set", 0, 0, 0, 0)                \
  X(FBE_KIND_MAP, "map", 0, 0, 0, 0)                \
  X(FBE_KIND_HASH, "hash", 0, 0, 0, 0)

typedef struct fbei_kind_facts {
  const char *name;
  uint8_t size, bits;
  bool is_signed, is_integer;
} fbei_kind_facts;

extern const fbei_kind_facts fbei_kinds[FBE_KIND_COUNT_];

/* Signed integer kinds (enums and flags: ask about their wire kind). */
static inline bool fbei_kind_is_signed(fbe_kind k) {
  return (unsigned)k < FBE_KIND_COUNT_ && fbei_kinds[k].is_signed;
}

/* Bit width of a bool, integer, char, wchar or timestamp kind (1 for bool; 64 for a
 * kind with no width, as the 64-bit patterns of the walks treat them). */
static inline unsigned fbei_kind_bits(fbe_kind k) {
  return (unsigned)k < FBE_KIND_COUNT_ && fbei_kinds[k].bits ? fbei_kinds[k].bits : 64;
}

/* Bytes of a fixed-size scalar kind on the wire, 0 for the others. */
static inline unsigned fbei_kind_size(fbe_kind k) {
  return (unsigned)k < FBE_KIND_COUNT_ ? fbei_kinds[k].size : 0;
}

bool fbei_is_integer_kind(fbe_kind kind);          /* byte, int8 ... uint64 */
bool fbei_int_fits(fbe_kind kind, bool neg, uint64_t mag);
uint64_t fbei_int_pattern(bool neg, uint64_t mag); /* two's complement 64-bit pattern */
uint64_t fbei_int_limit(fbe_kind kind, bool max);  /* pattern of the kind's min or max */

#endif

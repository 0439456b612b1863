/* The names of enum and flags values: looking a member up by name (fbe_enum_find) and
 * the parts a value is written as (enum_names.h, TEXT.md's rule). */
#include <string.h>
#include "schema/enum_names.h"

int fbe_enum_find(const fbe_enum *e, const char *name, size_t length, uint64_t *out) {
  if (!e || (!name && length)) return 0;
  for (uint32_t i = 0; i < e->nvalues; i++) {
    const char *n = e->values[i].name;
    if (strlen(n) == length && memcmp(n, name, length) == 0) {
      if (out) *out = e->values[i].value;
      return 1;
    }
  }
  return 0;
}

static uint64_t width_mask(fbe_kind base) {
  unsigned bits = fbei_kind_bits(base);
  return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

static fbe_status enum_parts(const fbe_enum *e, uint64_t pattern, fbei_enum_part_fn part, void *ctx) {
  for (uint32_t i = 0; i < e->nvalues; i++)
    if (e->values[i].value == pattern) return part(ctx, 0, &e->values[i], 0);
  return part(ctx, 0, NULL, pattern);
}

static fbe_status flags_parts(const fbe_enum *e, uint64_t pattern, fbei_enum_part_fn part, void *ctx) {
  uint64_t mask = width_mask(e->base);
  uint64_t v = pattern & mask, covered = 0;
  size_t printed = 0;
  for (uint32_t i = 0; i < e->nvalues; i++) {
    uint64_t m = e->values[i].value & mask;
    if (v == 0 && m == 0) return part(ctx, 0, &e->values[i], 0);
    if (!m || (v & m) != m) continue;
    fbe_status s = part(ctx, printed++, &e->values[i], 0);
    if (s) return s;
    covered |= m;
  }
  if (printed && v == covered) return FBE_OK;
  return part(ctx, printed, NULL, v & ~covered);
}

fbe_status fbei_enum_parts(const fbe_enum *e, uint64_t pattern, fbei_enum_part_fn part, void *ctx) {
  return e->is_flags ? flags_parts(e, pattern, part, ctx) : enum_parts(e, pattern, part, ctx);
}

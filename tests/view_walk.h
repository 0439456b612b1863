/* Reads every value under a view as a user would, for the tests of lazy views (the unit
 * test and the fuzz targets): fields, optionals, elements by iteration, keys and
 * values, every getter of its kind. */
#ifndef FBE_TESTS_VIEW_WALK_H
#define FBE_TESTS_VIEW_WALK_H

#include "fbe/fbe.h"

/* How many reads under v found no value or a getter's error; nesting deeper than
 * max_depth is not read (a lazy view does not bound it: a hostile model can nest
 * optionals as deep as its bytes allow). */
static inline size_t t_view_walk(fbe_view v, unsigned max_depth) {
  if (!fbe_view_ok(v)) return 1;
  if (!max_depth) return 0;
  size_t bad = 0;
  switch (fbe_view_kind(v)) {
    case FBE_KIND_STRUCT: {
      const fbe_struct *st = fbe_type_struct(v.type);
      for (size_t i = 0; i < fbe_struct_field_count(st); i++) bad += t_view_walk(fbe_view_field(v, i), max_depth - 1);
      return bad;
    }
    case FBE_KIND_OPTIONAL:
      return fbe_view_is_null(v) ? 0 : t_view_walk(fbe_view_deref(v), max_depth - 1);
    case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
    case FBE_KIND_MAP: case FBE_KIND_HASH: {
      int map = fbe_view_kind(v) == FBE_KIND_MAP || fbe_view_kind(v) == FBE_KIND_HASH;
      fbe_view_iter it = fbe_view_iterate(v);
      fbe_view a, b;
      while (fbe_view_next(&it, &a, map ? &b : NULL))
        bad += t_view_walk(a, max_depth - 1) + (map ? t_view_walk(b, max_depth - 1) : 0);
      return bad;
    }
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const uint8_t *p;
      size_t n;
      return fbe_view_get_bytes(v, &p, &n) != FBE_OK;
    }
    case FBE_KIND_DECIMAL: return fbe_view_get_decimal(v, &(fbe_decimal){0}) != FBE_OK;
    case FBE_KIND_UUID: return fbe_view_get_uuid(v, &(fbe_uuid){0}) != FBE_OK;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: return fbe_view_get_double(v, &(double){0}) != FBE_OK;
    case FBE_KIND_BOOL: return fbe_view_get_bool(v, &(int){0}) != FBE_OK;
    default: /* integers and the kinds read as them: one of the two getters takes any value */
      return fbe_view_get_int(v, &(int64_t){0}) != FBE_OK && fbe_view_get_uint(v, &(uint64_t){0}) != FBE_OK;
  }
}

/* Whether verify's refusal is about the whole model rather than a value a read meets:
 * depth, budget, the size limit, the final model's fields ending before its size. */
static inline int t_whole_model_rule(const fbe_error *e) {
  return e->code == FBE_ERR_LIMIT || strstr(e->message, "fields end here") != NULL;
}

#endif

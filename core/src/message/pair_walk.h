/* Internal: the walk two values of one type share when they are compared side by side
 * (equal.c: equality, order.c: key order) — where child i of a container sits in each. */
#ifndef FBE_PAIR_WALK_H
#define FBE_PAIR_WALK_H

#include <stdint.h>
#include "fbe/internal/value.h"

/* Child i of a struct (field i), an optional (i = 0), an array or vector (element i) or a
 * map (entry i / 2: its key when i is even, its value when odd), in slots a and b: its
 * type, with *ca and *cb pointing at its slots. */
static inline const fbe_type *fbei_pair_child(const fbe_type *t, const uint8_t *a, const uint8_t *b, uint32_t i,
                                              const uint8_t **ca, const uint8_t **cb) {
  size_t off;
  switch (t->wire) {
    case FBE_KIND_STRUCT: {
      const fbe_field *fld = &t->st->fields[i];
      *ca = a + fld->mem_offset;
      *cb = b + fld->mem_offset;
      return fld->type;
    }
    case FBE_KIND_OPTIONAL:
      *ca = *(const uint8_t *const *)(const void *)a;
      *cb = *(const uint8_t *const *)(const void *)b;
      return t->elem;
    case FBE_KIND_ARRAY:
      off = (size_t)i * t->elem->mem_size;
      *ca = a + off;
      *cb = b + off;
      return t->elem;
    case FBE_KIND_VECTOR:
      off = (size_t)i * t->elem->mem_size;
      *ca = (const uint8_t *)((const fbei_vec *)(const void *)a)->data + off;
      *cb = (const uint8_t *)((const fbei_vec *)(const void *)b)->data + off;
      return t->elem;
    default: /* MAP */
      off = (size_t)(i / 2) * t->pair_stride + (i % 2 ? t->pair_value_offset : 0);
      *ca = (const uint8_t *)((const fbei_vec *)(const void *)a)->data + off;
      *cb = (const uint8_t *)((const fbei_vec *)(const void *)b)->data + off;
      return i % 2 ? t->elem : t->key;
  }
}

#endif

/* Deep equality of values: floats by bit pattern, decimals by numeric value. */
#include <string.h>
#include "value.h"

/* Divides a 96-bit little-endian magnitude (three u32 limbs) by 10; returns the remainder. */
static uint32_t div10(uint32_t m[3]) {
  uint64_t rem = 0;
  for (int i = 2; i >= 0; i--) {
    uint64_t cur = (rem << 32) | m[i];
    m[i] = (uint32_t)(cur / 10);
    rem = cur % 10;
  }
  return (uint32_t)rem;
}

/* Magnitude and scale with trailing fractional zeros removed; zero gets scale 0. */
static void decimal_normalize(const uint8_t *d, uint32_t m[3], uint8_t *scale, uint8_t *neg) {
  for (int i = 0; i < 3; i++) m[i] = (uint32_t)d[4 * i] | (uint32_t)d[4 * i + 1] << 8 |
                                     (uint32_t)d[4 * i + 2] << 16 | (uint32_t)d[4 * i + 3] << 24;
  *scale = d[14];
  *neg = (d[15] & 0x80) != 0;
  if (!m[0] && !m[1] && !m[2]) {
    *scale = 0;
    *neg = 0;
    return;
  }
  while (*scale > 0) {
    uint32_t t[3] = {m[0], m[1], m[2]};
    if (div10(t)) break;
    memcpy(m, t, sizeof t);
    (*scale)--;
  }
}

static int decimal_equal(const uint8_t *a, const uint8_t *b) {
  uint32_t ma[3], mb[3];
  uint8_t sa, sb, na, nb;
  decimal_normalize(a, ma, &sa, &na);
  decimal_normalize(b, mb, &sb, &nb);
  return sa == sb && na == nb && !memcmp(ma, mb, sizeof ma);
}

static int str_equal(const fbe_str *a, const fbe_str *b) {
  return a->size == b->size && (a->size == 0 || !memcmp(a->data, b->data, a->size));
}

static int value_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b) {
  switch (t->wire) {
    case FBE_KIND_DECIMAL: return decimal_equal(a, b);
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      return str_equal((const fbe_str *)a, (const fbe_str *)b);
    case FBE_KIND_STRUCT: {
      const fbe_struct *st = t->st;
      for (uint32_t i = 0; i < st->nfields; i++) {
        const fbe_field *f = &st->fields[i];
        if (!value_equal(f->type, a + f->mem_offset, b + f->mem_offset)) return 0;
      }
      return 1;
    }
    case FBE_KIND_OPTIONAL: {
      const uint8_t *pa = *(const uint8_t *const *)a, *pb = *(const uint8_t *const *)b;
      if (!pa || !pb) return pa == pb;
      return value_equal(t->elem, pa, pb);
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++)
        if (!value_equal(t->elem, a + i * t->elem->mem_size, b + i * t->elem->mem_size)) return 0;
      return 1;
    case FBE_KIND_VECTOR: {
      const fbe_vec *va = (const fbe_vec *)a, *vb = (const fbe_vec *)b;
      if (va->count != vb->count) return 0;
      for (uint32_t i = 0; i < va->count; i++) {
        size_t off = (size_t)i * t->elem->mem_size;
        if (!value_equal(t->elem, (const uint8_t *)va->data + off, (const uint8_t *)vb->data + off))
          return 0;
      }
      return 1;
    }
    case FBE_KIND_MAP: {
      const fbe_vec *va = (const fbe_vec *)a, *vb = (const fbe_vec *)b;
      if (va->count != vb->count) return 0;
      for (uint32_t i = 0; i < va->count; i++) {
        const uint8_t *pa = (const uint8_t *)va->data + (size_t)i * t->pair_stride;
        const uint8_t *pb = (const uint8_t *)vb->data + (size_t)i * t->pair_stride;
        if (!value_equal(t->key, pa, pb) ||
            !value_equal(t->elem, pa + t->pair_value_offset, pb + t->pair_value_offset))
          return 0;
      }
      return 1;
    }
    case FBE_KIND_BOOL: return (*a != 0) == (*b != 0);
    default: return !memcmp(a, b, t->mem_size); /* integers, floats (bits), uuid */
  }
}

int fbe_ref_equal(fbe_ref a, fbe_ref b) {
  if (!a.slot || !b.slot || a.type != b.type) return 0;
  return value_equal(a.type, a.slot, b.slot);
}

int fbe_msg_equal(const fbe_msg *a, const fbe_msg *b) {
  if (!a || !b || a->type != b->type) return 0;
  return value_equal(a->type->self_type, fbe_msg_data(a), fbe_msg_data(b));
}

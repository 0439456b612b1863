/* Deep equality of values: floats by bit pattern, decimals by numeric value. */
#include <stdlib.h>
#include <string.h>
#include "fbe/internal/value.h"
#include "fbe/internal/memory.h"
#include "message/pair_walk.h"

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

static int str_equal(const fbei_str *a, const fbei_str *b) {
  return a->size == b->size && (a->size == 0 || !memcmp(a->data, b->data, a->size));
}

/* Compares values that hold no nested values; 0/1. */
static int leaf_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b) {
  switch (t->wire) {
    case FBE_KIND_DECIMAL: return decimal_equal(a, b);
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      return str_equal((const fbei_str *)a, (const fbei_str *)b);
    case FBE_KIND_BOOL: return (*a != 0) == (*b != 0);
    default: return !memcmp(a, b, t->mem_size); /* integers, floats (bits), uuid */
  }
}

/* One container being compared: child `next` of `count` is compared next. Children of a
 * map are its keys and values in turn (2 per entry). */
typedef struct frame {
  const fbe_type *t;
  const uint8_t *a, *b;
  uint32_t next, count;
} frame;

/* Child i of a container frame: its type and slots. */
static const fbe_type *child(const frame *f, uint32_t i, const uint8_t **a, const uint8_t **b) {
  return fbei_pair_child(f->t, f->a, f->b, i, a, b);
}

/* Opens a container: its child count, or -1 when the two already differ in shape. */
static int64_t open_container(const fbe_type *t, const uint8_t *a, const uint8_t *b) {
  switch (t->wire) {
    case FBE_KIND_STRUCT: return t->st->nfields;
    case FBE_KIND_OPTIONAL: {
      const void *pa = *(const void *const *)a, *pb = *(const void *const *)b;
      if (!pa || !pb) return pa == pb ? 0 : -1;
      return 1;
    }
    case FBE_KIND_ARRAY: return t->array_size;
    default: { /* VECTOR, MAP */
      uint32_t na = ((const fbei_vec *)a)->count, nb = ((const fbei_vec *)b)->count;
      if (na != nb) return -1;
      return t->wire == FBE_KIND_MAP ? (int64_t)na * 2 : na;
    }
  }
}

static int is_container(const fbe_type *t) {
  return t->wire == FBE_KIND_STRUCT || t->wire == FBE_KIND_OPTIONAL || t->wire == FBE_KIND_ARRAY ||
         t->wire == FBE_KIND_VECTOR || t->wire == FBE_KIND_MAP;
}

/* Walks both values with an explicit stack: values nested a million levels deep compare
 * without recursion. Returns 0 also when memory for the stack runs out. */
static int value_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b) {
  if (!is_container(t)) return leaf_equal(t, a, b);
  frame local[64], *stack = local;
  size_t depth = 0, cap = sizeof local / sizeof local[0];
  int equal = 1;
  int64_t n = open_container(t, a, b);
  if (n < 0) return 0;
  stack[depth++] = (frame){t, a, b, 0, (uint32_t)n};
  while (depth && equal) {
    frame *f = &stack[depth - 1];
    if (f->next == f->count) {
      depth--;
      continue;
    }
    const uint8_t *ca, *cb;
    const fbe_type *ct = child(f, f->next++, &ca, &cb);
    if (!is_container(ct)) {
      equal = leaf_equal(ct, ca, cb);
      continue;
    }
    int64_t cn = open_container(ct, ca, cb);
    if (cn < 0) {
      equal = 0;
      continue;
    }
    if (depth == cap) {
      frame *bigger = fbei_mem_alloc(sizeof(frame) * cap * 2);
      if (!bigger) {
        equal = 0;
        break;
      }
      memcpy(bigger, stack, sizeof(frame) * depth);
      if (stack != local) fbei_mem_free(stack);
      stack = bigger;
      cap *= 2;
    }
    stack[depth++] = (frame){ct, ca, cb, 0, (uint32_t)cn};
  }
  if (stack != local) fbei_mem_free(stack);
  return equal;
}

int fbei_decimal_value_equal(const uint8_t *a, const uint8_t *b) { return decimal_equal(a, b); }

int fbei_value_slot_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b) {
  return value_equal(t, a, b);
}

int fbei_type_same(const fbe_type *a, const fbe_type *b) {
  if (a == b) return 1;
  if (a->kind != b->kind || a->wire != b->wire || a->array_size != b->array_size || a->st != b->st ||
      a->enm != b->enm || !a->elem != !b->elem || !a->key != !b->key)
    return 0;
  return (!a->elem || fbei_type_same(a->elem, b->elem)) && (!a->key || fbei_type_same(a->key, b->key));
}

int fbe_ref_equal(fbe_ref a, fbe_ref b) {
  if (!a.slot || !b.slot) return 0;
  if (!fbei_type_same(a.type, b.type)) return 0; /* (distinct type nodes may describe one type) */
  return value_equal(a.type, a.slot, b.slot);
}

int fbe_msg_equal(const fbe_msg *a, const fbe_msg *b) {
  if (!a || !b || a->type != b->type) return 0;
  return value_equal(a->type->self_type, fbei_msg_data(a), fbei_msg_data(b));
}

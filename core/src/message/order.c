/* The order of values (fbe_msg_key_compare, docs/C.md "Keys"): a total order per kind
 * that calls two values 0 exactly when equal.c (and keys.c for structs by their keys)
 * calls them equal, so sorted containers and hash tables agree:
 * - bool: false < true; integers, enums, flags, char, wchar, timestamp: by number
 *   (signed for signed kinds and bases);
 * - float, double: IEEE totalOrder (-NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN),
 *   so distinct bit patterns (-0.0 and 0.0, NaNs) differ, as equality has it;
 * - decimal: by numeric value (1.5 and 1.50 compare 0);
 * - uuid: bytewise, which is the order of their text; string, bytes: bytewise, a
 *   prefix first;
 * - optional: null first; array, vector, list, set: element by element, a prefix
 *   first; map, hash: entry by entry (key, then value), a prefix first;
 * - struct: its fields in schema order (inherited first); at the top and for a key field
 *   whose type is a struct, its [key] fields only (none: 0).
 * The walk keeps its own stack, as equal.c's does: no recursion on deep values. */
#include <string.h>
#include "message/keys.h"
#include "fbe/internal/memory.h"
#include "message/pair_walk.h"

static int sign_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

/* A decimal (16 wire bytes) as its significant digits, most significant first (no
 * leading or trailing zeros), its scale after the trailing zeros went, and its sign. */
typedef struct digits {
  char d[32];
  int n, scale, neg;
} digits;

static void decimal_digits(const uint8_t *w, digits *out) {
  uint32_t m[3];
  for (int i = 0; i < 3; i++)
    m[i] = (uint32_t)w[4 * i] | (uint32_t)w[4 * i + 1] << 8 | (uint32_t)w[4 * i + 2] << 16 | (uint32_t)w[4 * i + 3] << 24;
  char rev[32];
  int n = 0;
  while (m[0] || m[1] || m[2]) {
    uint64_t rem = 0;
    for (int i = 2; i >= 0; i--) {
      uint64_t cur = (rem << 32) | m[i];
      m[i] = (uint32_t)(cur / 10);
      rem = cur % 10;
    }
    rev[n++] = (char)('0' + rem);
  }
  int scale = w[14], skip = 0;
  while (skip < n && rev[skip] == '0') skip++; /* trailing zeros: 1.50 is 1.5 (and 100 is 1 E2) */
  scale -= skip;
  out->n = n - skip;
  for (int i = 0; i < out->n; i++) out->d[i] = rev[n - 1 - i];
  out->scale = scale;
  out->neg = out->n && (w[15] & 0x80);
}

static int decimal_compare(const uint8_t *a, const uint8_t *b) {
  digits x, y;
  decimal_digits(a, &x);
  decimal_digits(b, &y);
  if (x.neg != y.neg) return x.neg ? -1 : 1;
  int c;
  if (!x.n || !y.n) {
    c = x.n ? 1 : y.n ? -1 : 0; /* zero against a magnitude */
  } else if (x.n - x.scale != y.n - y.scale) {
    c = x.n - x.scale < y.n - y.scale ? -1 : 1; /* the digits before the point */
  } else {
    int common = x.n < y.n ? x.n : y.n;
    c = memcmp(x.d, y.d, (size_t)common);
    c = c ? (c < 0 ? -1 : 1) : (x.n < y.n ? -1 : x.n > y.n); /* trailing digits are non-zero */
  }
  return x.neg ? -c : c;
}

/* IEEE totalOrder as an unsigned key: negatives flipped, positives above them. */
static uint64_t float_key(uint64_t bits, unsigned width) {
  uint64_t sign = (uint64_t)1 << (width - 1);
  return bits & sign ? ~bits & (sign | (sign - 1)) : bits | sign;
}

static int leaf_compare(const fbe_type *t, const uint8_t *a, const uint8_t *b) {
  switch (t->wire) {
    case FBE_KIND_DECIMAL: return decimal_compare(a, b);
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const fbei_str *x = (const fbei_str *)(const void *)a, *y = (const fbei_str *)(const void *)b;
      uint32_t n = x->size < y->size ? x->size : y->size;
      int c = n ? memcmp(x->data, y->data, n) : 0;
      return c ? (c < 0 ? -1 : 1) : sign_u64(x->size, y->size);
    }
    case FBE_KIND_UUID: {
      int c = memcmp(a, b, 16);
      return c < 0 ? -1 : c > 0;
    }
    case FBE_KIND_FLOAT: {
      uint32_t x, y;
      memcpy(&x, a, 4);
      memcpy(&y, b, 4);
      return sign_u64(float_key(x, 32), float_key(y, 32));
    }
    case FBE_KIND_DOUBLE: {
      uint64_t x, y;
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      return sign_u64(float_key(x, 64), float_key(y, 64));
    }
    case FBE_KIND_BOOL: return (*a != 0) - (*b != 0);
    default: { /* integers, char, wchar, timestamp; enums and flags by their base */
      uint64_t x = fbei_scalar_load(t->wire, a), y = fbei_scalar_load(t->wire, b);
      if (fbei_kind_is_signed(t->wire)) return (int64_t)x < (int64_t)y ? -1 : (int64_t)x > (int64_t)y;
      return sign_u64(x, y);
    }
  }
}

/* One container being compared: children next..count, then `tail` (the order of the
 * lengths) when every child compared 0. keys: a struct compared by its [key] fields. */
typedef struct frame {
  const fbe_type *t;
  const uint8_t *a, *b;
  uint32_t next, count;
  int tail, keys;
} frame;

static int is_container(const fbe_type *t) {
  return t->wire == FBE_KIND_STRUCT || t->wire == FBE_KIND_OPTIONAL || t->wire == FBE_KIND_ARRAY ||
         t->wire == FBE_KIND_VECTOR || t->wire == FBE_KIND_MAP;
}

/* Sets up a frame for two container slots; returns the order when it is already
 * decided (an optional null on one side only) through *decided. */
static frame open_frame(const fbe_type *t, const uint8_t *a, const uint8_t *b, int keys, int *decided) {
  frame f = {t, a, b, 0, 0, 0, keys};
  *decided = 0;
  switch (t->wire) {
    case FBE_KIND_STRUCT: f.count = t->st->nfields; break;
    case FBE_KIND_OPTIONAL: {
      const void *pa = *(const void *const *)(const void *)a, *pb = *(const void *const *)(const void *)b;
      if (!pa || !pb) *decided = pa ? 1 : pb ? -1 : 0;
      else f.count = 1;
      break;
    }
    case FBE_KIND_ARRAY: f.count = t->array_size; break;
    default: { /* VECTOR, MAP */
      uint32_t na = ((const fbei_vec *)(const void *)a)->count, nb = ((const fbei_vec *)(const void *)b)->count;
      uint32_t n = na < nb ? na : nb;
      f.count = t->wire == FBE_KIND_MAP ? n * 2 : n;
      f.tail = sign_u64(na, nb);
      break;
    }
  }
  return f;
}

/* Child i of a frame: its type and slots; *keys: whether it is a struct by its keys
 * (a key field that is a struct: by its own keys, keys.c). */
static const fbe_type *child(const frame *f, uint32_t i, const uint8_t **a, const uint8_t **b, int *keys) {
  *keys = f->t->wire == FBE_KIND_STRUCT && f->keys;
  return fbei_pair_child(f->t, f->a, f->b, i, a, b);
}

/* The next child a frame compares: a struct by its keys skips the other fields. */
static int has_next(frame *f) {
  if (f->keys && f->t->wire == FBE_KIND_STRUCT)
    while (f->next < f->count && !f->t->st->fields[f->next].is_key) f->next++;
  return f->next < f->count;
}

int fbei_value_slot_compare(const fbe_type *t, const uint8_t *a, const uint8_t *b, int keys) {
  if (!is_container(t)) return leaf_compare(t, a, b);
  frame local[64], *stack = local;
  size_t depth = 0, cap = sizeof local / sizeof local[0];
  int order, decided;
  stack[depth] = open_frame(t, a, b, keys, &decided);
  if (decided) return decided;
  depth++;
  order = 0;
  while (depth && !order) {
    frame *f = &stack[depth - 1];
    if (!has_next(f)) {
      order = f->tail;
      depth--;
      continue;
    }
    const uint8_t *ca, *cb;
    int ckeys;
    const fbe_type *ct = child(f, f->next++, &ca, &cb, &ckeys);
    if (!is_container(ct)) {
      order = leaf_compare(ct, ca, cb);
      continue;
    }
    frame next = open_frame(ct, ca, cb, ckeys && ct->wire == FBE_KIND_STRUCT, &decided);
    if (decided) {
      order = decided;
      continue;
    }
    if (depth == cap) {
      frame *bigger = fbei_mem_alloc(sizeof(frame) * cap * 2);
      if (!bigger) break; /* out of memory: what was compared so far (0) */
      memcpy(bigger, stack, sizeof(frame) * depth);
      if (stack != local) fbei_mem_free(stack);
      stack = bigger;
      cap *= 2;
    }
    stack[depth++] = next;
  }
  if (stack != local) fbei_mem_free(stack);
  return order;
}

int fbe_msg_key_compare(const fbe_msg *a, const fbe_msg *b) {
  if (!a || !b) return a ? 1 : b ? -1 : 0; /* no message first */
  if (a->type != b->type) { /* different structs: by full name */
    int c = strcmp(a->type->full_name, b->type->full_name);
    return c < 0 ? -1 : c > 0;
  }
  return fbei_value_slot_compare(a->type->self_type, fbei_msg_data(a), fbei_msg_data(b), 1);
}

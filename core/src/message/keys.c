/* Key identity of set elements and map/hash keys (SCHEMA.md 6.5, FORMAT.md 5.9): values
 * are equal as in equal.c (floats by bit pattern, decimals by numeric value), except
 * that a struct is identified by its [key] fields only (inherited first) and a struct
 * without key fields equals every other instance of its type. Readers accept duplicates
 * and the last one wins: decode and the JSON reader collapse them with fbei_keys_dedup,
 * so every language holds the same entries in the same (first-seen) order. */
#include <string.h>
#include "message/keys.h"
#include "fbe/internal/memory.h"

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
  return h;
}

static uint64_t bytes_hash(uint64_t h, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u; /* FNV-1a */
  return h;
}

/* A decimal as its normalized digits: 1.50 and 1.5 hash alike (equal.c's equality). */
uint64_t fbei_key_decimal_hash(uint64_t h, const uint8_t *d) {
  uint32_t m[3];
  for (int i = 0; i < 3; i++) m[i] = (uint32_t)d[4 * i] | (uint32_t)d[4 * i + 1] << 8 |
                                     (uint32_t)d[4 * i + 2] << 16 | (uint32_t)d[4 * i + 3] << 24;
  if (!m[0] && !m[1] && !m[2]) return mix(h, 0);
  uint8_t scale = d[14];
  while (scale > 0) { /* strip trailing fractional zeros */
    uint64_t rem = 0;
    uint32_t t[3];
    for (int i = 2; i >= 0; i--) {
      uint64_t cur = (rem << 32) | m[i];
      t[i] = (uint32_t)(cur / 10);
      rem = cur % 10;
    }
    if (rem) break;
    memcpy(m, t, sizeof t);
    scale--;
  }
  h = mix(h, (uint64_t)m[0] | (uint64_t)m[1] << 32);
  return mix(h, (uint64_t)m[2] | (uint64_t)scale << 32 | (uint64_t)(d[15] >> 7) << 40);
}

uint64_t fbei_key_hash(const fbe_type *t, const uint8_t *slot) {
  uint64_t h = 0xcbf29ce484222325u;
  switch (t->wire) {
    case FBE_KIND_DECIMAL: return fbei_key_decimal_hash(h, slot);
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const fbei_str *s = (const fbei_str *)(const void *)slot;
      return bytes_hash(mix(h, s->size), s->data, s->size);
    }
    case FBE_KIND_BOOL: return mix(h, *slot != 0);
    case FBE_KIND_STRUCT: {
      const fbe_struct *st = t->st;
      for (uint32_t i = 0; i < st->nfields; i++)
        if (st->fields[i].is_key) h = mix(h, fbei_key_hash(st->fields[i].type, slot + st->fields[i].mem_offset));
      return h;
    }
    case FBE_KIND_OPTIONAL: {
      const uint8_t *v = *(const uint8_t *const *)(const void *)slot;
      return v ? mix(h, fbei_key_hash(t->elem, v)) : mix(h, 1);
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++) h = mix(h, fbei_key_hash(t->elem, slot + (size_t)i * t->elem->mem_size));
      return h;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: { /* the count and the keys or elements */
      const fbei_vec *v = (const fbei_vec *)(const void *)slot;
      const fbe_type *e = t->wire == FBE_KIND_MAP ? t->key : t->elem;
      uint32_t stride = t->wire == FBE_KIND_MAP ? t->pair_stride : t->elem->mem_size;
      h = mix(h, v->count);
      for (uint32_t i = 0; i < v->count; i++) h = mix(h, fbei_key_hash(e, (const uint8_t *)v->data + (size_t)i * stride));
      return h;
    }
    default: return bytes_hash(h, slot, t->mem_size); /* integers, floats (bits), uuid */
  }
}

int fbei_key_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b) {
  if (t->wire != FBE_KIND_STRUCT) return fbei_value_slot_equal(t, a, b);
  const fbe_struct *st = t->st;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    if (f->is_key && !fbei_key_equal(f->type, a + f->mem_offset, b + f->mem_offset)) return 0;
  }
  return 1;
}

fbe_status fbei_keys_dedup(const fbe_type *t, void *collection) {
  fbei_vec *vec = collection;
  int map = t->wire == FBE_KIND_MAP;
  if ((t->kind != FBE_KIND_SET && !map) || vec->count < 2) return FBE_OK;
  const fbe_type *k = map ? t->key : t->elem;
  uint32_t stride = map ? t->pair_stride : t->elem->mem_size;
  uint32_t n = vec->count, cap = 4;
  while (cap < 2 * (uint64_t)n) cap *= 2;
  uint32_t *table = fbei_mem_alloc((size_t)cap * sizeof *table); /* kept index + 1, 0 empty */
  if (!table) return FBE_ERR_NOMEM;
  memset(table, 0, (size_t)cap * sizeof *table);
  uint8_t *data = vec->data;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *item = data + (size_t)i * stride;
    uint32_t at = (uint32_t)fbei_key_hash(k, item) & (cap - 1);
    while (table[at] && !fbei_key_equal(k, data + (size_t)(table[at] - 1) * stride, item)) at = (at + 1) & (cap - 1);
    if (table[at]) { /* a duplicate: the last one wins, in the first one's place */
      memmove(data + (size_t)(table[at] - 1) * stride, item, stride);
      continue;
    }
    if (kept != i) memmove(data + (size_t)kept * stride, item, stride);
    table[at] = ++kept;
  }
  vec->count = kept;
  fbei_mem_free(table);
  return FBE_OK;
}

uint64_t fbe_msg_key_hash(const fbe_msg *msg) {
  if (!msg || !msg->type->has_keys) return 0; /* keyless: one identity for every value */
  return fbei_key_hash(msg->type->self_type, fbei_msg_data(msg));
}

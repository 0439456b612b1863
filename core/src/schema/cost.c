/* The cost of a value already in memory (cost.h): the walk that says what decoding it,
 * or reading it from JSON, was charged; and the default output budget of JSON writing. */
#include "fbe/internal/cost.h"

uint64_t fbei_cost_image(const fbe_type *t) {
  if (t->kind == FBE_KIND_STRUCT) return t->st->default_cost;
  if (t->kind == FBE_KIND_ARRAY) return t->array_size * fbei_cost_image(t->elem);
  return 0;
}

/* Whether a value of t can hold anything beyond its slot (strings, pointers). */
static int has_dynamic(const fbe_type *t) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: case FBE_KIND_STRUCT: case FBE_KIND_OPTIONAL:
    case FBE_KIND_VECTOR: case FBE_KIND_MAP:
      return 1;
    case FBE_KIND_ARRAY: return has_dynamic(t->elem);
    default: return 0;
  }
}

/* What a value adds to its type's static cost. */
static uint64_t dynamic_cost(const fbe_type *t, const uint8_t *slot) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      return fbei_cost_bytes(((const fbei_str *)(const void *)slot)->size);
    case FBE_KIND_STRUCT: {
      uint64_t sum = 0;
      for (uint32_t i = 0; i < t->st->nfields; i++) {
        const fbe_field *f = &t->st->fields[i];
        sum += dynamic_cost(f->type, slot + f->mem_offset);
      }
      return sum;
    }
    case FBE_KIND_OPTIONAL: {
      const uint8_t *value = *(const uint8_t *const *)(const void *)slot;
      return value ? fbei_cost_optional(t) + dynamic_cost(t->elem, value) : 0;
    }
    case FBE_KIND_ARRAY: {
      uint64_t sum = 0;
      if (!has_dynamic(t->elem)) return 0;
      for (uint32_t i = 0; i < t->array_size; i++)
        sum += dynamic_cost(t->elem, slot + (size_t)i * t->elem->mem_size);
      return sum;
    }
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      const fbei_vec *v = (const fbei_vec *)(const void *)slot;
      uint64_t sum = v->count ? fbei_cost_sequence(t, v->count) : 0;
      const uint8_t *item = v->data;
      if (!t->key) {
        if (!has_dynamic(t->elem)) return sum;
        for (uint32_t i = 0; i < v->count; i++, item += t->elem->mem_size)
          sum += dynamic_cost(t->elem, item);
        return sum;
      }
      for (uint32_t i = 0; i < v->count; i++, item += t->pair_stride)
        sum += dynamic_cost(t->key, item) + dynamic_cost(t->elem, item + t->pair_value_offset);
      return sum;
    }
    default:
      return 0;
  }
}

uint64_t fbei_value_cost(const fbe_type *t, const void *slot) {
  return t->cost + dynamic_cost(t, slot);
}

uint64_t fbei_msg_cost(const fbe_msg *msg) {
  return fbei_cost_root(msg->type) + dynamic_cost(msg->type->self_type, fbei_msg_data(msg));
}

int fbei_out_grow(fbei_out_budget *b, size_t size, size_t n) {
  if (!b->by_cost) return 0;
  b->by_cost = 0; /* past the floor: the default budget needs the value's cost */
  b->max = fbei_cost_scale(FBE_DEFAULT_OUTPUT_FACTOR, fbei_value_cost(b->type, b->slot));
  return (uint64_t)(size - b->start) + n <= b->max;
}

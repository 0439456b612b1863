/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: the one cost function of a value against the memory budget (codec.h,
 * FBE_VALUE_CHARGE), and the limits as one operation applies them. verify.c, decode.c
 * and json_reader.c charge with these, so that they agree to the byte: what verify
 * accepts, decode fits in. The static part of each type's cost is computed once by
 * layout.c (fbe_type.cost, fbe_struct.cost, fbe_field.default_cost). */
#ifndef FBE_COST_H
#define FBE_COST_H

#include <stdint.h>
#include "fbe/codec.h"
#include "fbe/internal/value.h"

/* Bytes the arena takes for an allocation of n bytes (it rounds up to 8). */
static inline uint64_t fbei_cost_bytes(uint64_t n) { return (n + 7u) & ~(uint64_t)7u; }

/* factor x n + FBE_DEFAULT_MEMORY_FLOOR, saturating. */
static inline uint64_t fbei_cost_scale(uint64_t factor, uint64_t n) {
  if (n > (UINT64_MAX - FBE_DEFAULT_MEMORY_FLOOR) / factor) return UINT64_MAX;
  return factor * n + FBE_DEFAULT_MEMORY_FLOOR;
}

/* The limits' members, zero (or no limits) meaning the default. */
static inline uint32_t fbei_limits_depth(const fbe_limits *l) {
  return l && l->max_depth ? l->max_depth : FBE_DEFAULT_MAX_DEPTH;
}
static inline uint64_t fbei_limits_size(const fbe_limits *l) {
  return l && l->max_model_size ? l->max_model_size : FBE_DEFAULT_MAX_MODEL_SIZE;
}

/* fbe_limits_memory, inline for the codecs' entry points. */
static inline uint64_t fbei_limits_budget(const fbe_limits *l, uint64_t input_size) {
  return l && l->max_memory ? l->max_memory : fbe_limits_memory_default(input_size);
}

/* The message header and the root struct's slot and values. */
static inline uint64_t fbei_cost_root(const fbe_struct *st) {
  return fbei_cost_bytes(sizeof(fbe_msg) + (uint64_t)st->mem_size) + st->cost;
}

/* A present optional: its value slot and the value's static cost (layout.c keeps it in
 * t->item_cost: bytes(elem->mem_size) + elem->cost). */
static inline uint64_t fbei_cost_optional(const fbe_type *t) { return t->item_cost; }

/* A collection of n elements (pairs for a map): one storage block and their values
 * (layout.c: item_size = the element's or pair's bytes, item_cost = their cost). */
static inline uint64_t fbei_cost_sequence(const fbe_type *t, uint32_t n) {
  return fbei_cost_bytes((uint64_t)t->item_size * n) + t->item_cost * n;
}

/* The defaults of fields [from, to) of st (a short body: the fields it lacks). */
static inline uint64_t fbei_cost_defaults(const fbe_struct *st, uint32_t from, uint32_t to) {
  uint64_t sum = 0;
  for (uint32_t i = from; i < to; i++) sum += st->fields[i].default_cost;
  return sum;
}

/* What the default value of a type adds to its static cost (fbe_value_init): the
 * default strings and present optionals of inline structs and arrays. */
uint64_t fbei_cost_image(const fbe_type *t);

/* The cost of a value in memory (its slot not included, its static cost t->cost
 * included): what decoding it was charged, to the byte; what reading it from JSON was
 * charged at least. fbei_msg_cost adds the message header and root slot. */
uint64_t fbei_value_cost(const fbe_type *t, const void *slot);

/* The output budget of a writer of text (JSON, the text form: codec.h max_memory):
 * max_memory when the caller set it, else FBE_DEFAULT_OUTPUT_FACTOR x the value's cost
 * + the floor, the cost worked out only once the text passes the floor. */
typedef struct fbei_out_budget {
  size_t start;         /* the buffer's size before this value */
  uint64_t max;         /* bytes of text allowed so far */
  int by_cost;          /* max is the floor until the value's cost is known */
  const fbe_type *type; /* what is written (for its cost) */
  const void *slot;
} fbei_out_budget;

static inline fbei_out_budget fbei_out_budget_of(const fbe_limits *l, size_t start, const fbe_type *t,
                                                 const void *slot) {
  int by_cost = !l || !l->max_memory;
  fbei_out_budget b = {start, by_cost ? FBE_DEFAULT_MEMORY_FLOOR : l->max_memory, by_cost, t, slot};
  return b;
}

/* The cold part of fbei_out_fits (schema/cost.c). */
int fbei_out_grow(fbei_out_budget *b, size_t size, size_t n);

/* Whether text now `size` bytes long may grow by n: 1, or 0 (b->max: the budget). */
static inline int fbei_out_fits(fbei_out_budget *b, size_t size, size_t n) {
  return (uint64_t)(size - b->start) + n <= b->max || fbei_out_grow(b, size, n);
}
uint64_t fbei_msg_cost(const fbe_msg *msg);

/* What one verify or decode was charged, and the values verify's walk of the standard
 * model visited one by one (struct bodies, optional values, elements other than structs;
 * the final model, where no body is shared, is not counted): each costs
 * FBE_VALUE_CHARGE at least, so visits x FBE_VALUE_CHARGE <= charged, and verify's time
 * is linear in its budget. */
typedef struct fbei_cost_report {
  uint64_t charged;
  uint64_t visits;
} fbei_cost_report;

fbe_status fbei_verify_report(const fbe_struct *type, fbe_model model, const uint8_t *data,
                             size_t size, const fbe_limits *limits, size_t *model_size,
                             fbei_cost_report *report, fbe_error *err);
fbe_status fbei_decode_trusted_report(const fbe_struct *type, fbe_model model, const uint8_t *data,
                                     size_t size, fbe_arena *arena, const fbe_limits *limits,
                                     fbe_msg **out, size_t *model_size, fbei_cost_report *report,
                                     fbe_error *err);

#endif

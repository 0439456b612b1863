/* Verification of both wire models without materialising values (FORMAT.md 5.11, 6.5),
 * with the stricter checks the spec recommends: every block lies inside the model,
 * collection element areas and optional value slots fit, nesting is bounded, and every
 * value is charged to the memory budget exactly as decode.c charges it (cost.h): so
 * what verifies decodes within the same limits, and the work, each value walked being
 * charged, is bounded by the budget (bodies shared by many pointers cannot blow up). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "fbe/codec.h"
#include "fbe/internal/cost.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/error.h"
#include "fbe/internal/faults.h"
#include "fbe/internal/utf8.h"
#include "fbe/internal/value.h"

#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#define ALWAYS_INLINE __attribute__((always_inline))
#define UNREACHABLE() __builtin_unreachable()
#else
#define COLD
#define ALWAYS_INLINE
#define UNREACHABLE() ((void)0)
#endif

typedef struct verifier {
  const uint8_t *p;
  uint64_t end;      /* the model occupies [0, end) */
  uint32_t depth, max_depth;
  int64_t budget;    /* bytes left of the memory budget (cost.h); below 0 only after the
                        final model's strings, which are checked at the end */
  int64_t start;     /* the budget at the start */
  uint64_t limit;    /* the whole budget, for the error */
  uint64_t visits;   /* values the standard model's walk visited (fbei_cost_report) */
  const fbe_limits *limits;
  fbe_error *err;
} verifier;


/* Numbers go to the fault table's formats as unsigned long long. */
#define U(x) ((unsigned long long)(x))

COLD static int fail(verifier *v, fbei_fault fault, uint64_t offset, ...) {
  va_list ap;
  va_start(ap, offset);
  fbei_fault_vset(v->err, fault, (size_t)offset, ap);
  va_end(ap);
  return -1;
}

COLD static int too_deep(verifier *v, uint64_t offset) {
  return fail(v, FBE_FAULT_TOO_DEEP, offset, U(v->max_depth));
}

COLD static int over_budget(verifier *v, uint64_t offset) {
  return fail(v, FBE_FAULT_OVER_BUDGET, offset, U(v->limit));
}

COLD static int bad_pointer(verifier *v, uint64_t slot, uint64_t base) {
  uint32_t pointer = fbe_load32(v->p + slot);
  fbei_fault_bad_pointer(v->err, slot, pointer, base + pointer);
  return -1;
}

COLD static int bad_size(verifier *v, uint64_t at) {
  return fail(v, FBE_FAULT_SIZE_PAST_END, at, U(fbe_load32(v->p + at)), "model");
}

COLD static int bad_text(verifier *v, const uint8_t *s, uint32_t n, size_t at) {
  fbei_utf8_error(v->err, FBE_ERR_MALFORMED, (size_t)(s - v->p), s, n, at);
  return -1;
}

/* A string's bytes must be UTF-8 (fbe_utf8_check's rule); ASCII is checked inline. */
static inline int check_text(verifier *v, const uint8_t *s, uint32_t n) {
  if (fbei_utf8_ascii(s, n)) return 0;
  size_t ok = fbei_utf8_valid_prefix(s, n);
  return ok == n ? 0 : bad_text(v, s, n, ok);
}

COLD static int bad_decimal(verifier *v, uint64_t at) {
  fbei_decimal_error(v->err, (size_t)at, v->p + at);
  return -1;
}

/* Takes `bytes` (under 2^62: cost.h) from the memory budget: what decode.c takes for the
 * same value. */
static inline int charge(verifier *v, uint64_t offset, uint64_t bytes) {
  int64_t left = v->budget - (int64_t)bytes;
  if (left < 0) return over_budget(v, offset);
  v->budget = left;
  return 0;
}

/* Optionals and collections are where schemas recurse: they count as one level. */
static int enter(verifier *v, uint64_t offset, uint64_t bytes) {
  if (++v->depth > v->max_depth) return too_deep(v, offset);
  return charge(v, offset, bytes);
}

/* Follows the pointer stored at `slot` relative to `base`: the target must hold `need`
 * bytes inside the model and lie after the slot (writers allocate blocks after it). */
static inline int follow(verifier *v, uint64_t slot, uint64_t base, uint64_t need, uint64_t *out) {
  fbe_reader r = {v->p, v->end};
  return fbe_std_target(&r, slot, base, need, out) ? bad_pointer(v, slot, base) : 0;
}

/* ------------------------------------------------------------ standard model */

/* The walk dispatches once per step on the check layout.c chose (fbei_op.check); a
 * pointer's bounds are one test (`a <= slot || a + need > end`: pointers are 32-bit,
 * so the sum cannot wrap) and the reasons are told apart in cold paths only. */

static int std_body(verifier *v, const fbe_struct *st, uint64_t b);
static int std_short_body(verifier *v, const fbe_struct *st, uint64_t b, uint32_t size);
static int std_value(verifier *v, const fbe_type *t, uint64_t slot, uint64_t base, const fbe_field *f);

/* Why fbe_std_read_sequence refused a slot: its pointer, or its element count. */
COLD static int bad_sequence(verifier *v, uint64_t slot, uint64_t base) {
  uint64_t at = 0;
  if (follow(v, slot, base, 4, &at)) return -1;
  return fail(v, FBE_FAULT_ELEMENTS, at, U(fbe_load32(v->p + at)), "model");
}

/* Why a struct slot was refused, in the order of the checks: pointer 0, the pointer, then
 * the header's size and type id. */
COLD static int bad_struct(verifier *v, uint64_t slot, uint64_t base, const fbe_struct *st) {
  uint64_t b = 0;
  if (fbe_load32(v->p + slot) == 0) return fail(v, FBE_FAULT_STRUCT_POINTER_0, slot);
  if (follow(v, slot, base, 8, &b)) return -1;
  uint32_t size = fbe_load32(v->p + b), type_id = fbe_load32(v->p + b + 4);
  if (size < 8) return fail(v, FBE_FAULT_STRUCT_SMALL, b, U(size));
  if (size > v->end - b) return fail(v, FBE_FAULT_STRUCT_PAST_END, b, U(size), "model");
  return fail(v, FBE_FAULT_TYPE_ID, b + 4, U(type_id), st->full_name, U(st->type_id));
}

static inline ALWAYS_INLINE int std_body_inline(verifier *v, const fbe_struct *st, uint64_t b);

/* A struct slot's pointer and header (size 8..what is left, the type id): 1 when the body
 * at *b is at least the schema's, 0 when shorter (an older schema's), -1 refused. */
static inline ALWAYS_INLINE int std_header(verifier *v, uint64_t slot, uint64_t base,
                                           const fbe_struct *st, uint64_t *body) {
  uint64_t b = base + fbe_load32(v->p + slot), end = v->end; /* pointer 0: b = base <= slot */
  if (b <= slot || b + 8 > end) return bad_struct(v, slot, base, st);
  uint64_t head = fbe_load64(v->p + b);
  uint32_t size = (uint32_t)head;
  if ((uint32_t)(size - 8) > end - b - 8 || (uint32_t)(head >> 32) != st->type_id)
    return bad_struct(v, slot, base, st);
  v->visits++; /* paid for by whoever holds the struct: its cost includes st->cost */
  *body = b;
  return size >= st->body_size ? 1 : std_short_body(v, st, b, size);
}

/* A struct slot and its body, by a call. */
static inline ALWAYS_INLINE int std_struct(verifier *v, uint64_t slot, uint64_t base,
                                           const fbe_struct *st) {
  uint64_t b = 0;
  int rc = std_header(v, slot, base, st, &b);
  return rc == 1 ? std_body(v, st, b) : rc;
}

/* The same with the body inline: where a caller loops over elements. */
static inline ALWAYS_INLINE int std_struct_inline(verifier *v, uint64_t slot, uint64_t base,
                                                  const fbe_struct *st) {
  uint64_t b = 0;
  int rc = std_header(v, slot, base, st, &b);
  return rc == 1 ? std_body_inline(v, st, b) : rc;
}

/* A string (text: UTF-8 checked) or bytes slot; f: the field it is (a pointer 0 reads as
 * its default), or NULL (reads as empty). */
static inline ALWAYS_INLINE int std_blob(verifier *v, uint64_t slot, uint64_t base, int text,
                                         const fbe_field *f) {
  uint32_t pointer = fbe_load32(v->p + slot);
  if (!pointer) return f ? charge(v, slot, f->default_cost) : 0;
  uint64_t a = base + pointer, end = v->end;
  if (a <= slot || a + 4 > end) return bad_pointer(v, slot, base);
  uint32_t n = fbe_load32(v->p + a);
  if (n > end - a - 4) return bad_size(v, a);
  if (charge(v, slot, fbei_cost_bytes(n))) return -1;
  return text ? check_text(v, v->p + a + 4, n) : 0;
}

/* An optional of a struct (t: the optional's type); f as for std_blob. */
static int std_optional_struct(verifier *v, const fbe_type *t, const fbe_struct *st,
                               uint64_t slot, uint64_t base, const fbe_field *f) {
  uint64_t at = 0;
  if (v->p[slot] == 0) return f ? charge(v, slot, f->default_cost) : 0;
  if (fbe_load32(v->p + slot + 1) == 0) return fail(v, FBE_FAULT_OPTIONAL_EMPTY, slot);
  if (follow(v, slot + 1, base, 4, &at) || enter(v, at, fbei_cost_optional(t))) return -1;
  int rc = std_struct_inline(v, at, at, st); /* the value slot is its own base */
  v->depth--;
  return rc;
}

/* A vector, list or set of structs (t: its type). */
static int std_structs(verifier *v, const fbe_type *t, const fbe_struct *st, uint64_t slot,
                       uint64_t base) {
  fbe_reader r = {v->p, v->end};
  uint64_t at = 0;
  uint32_t n = 0;
  if (fbe_load32(v->p + slot) == 0) return 0; /* reads as empty */
  if (fbe_std_read_sequence(&r, slot, base, 4, &at, &n)) return bad_sequence(v, slot, base);
  if (enter(v, at - 4, fbei_cost_sequence(t, n))) return -1;
  for (uint32_t i = 0; i < n; i++) {
    if (std_struct_inline(v, at + (uint64_t)i * 4, base, st)) {
      fbei_error_prepend_index(v->err, i);
      return -1;
    }
  }
  v->depth--;
  return 0;
}

/* The generic path: any type, by its kind. f: the struct field the value is (absent data
 * takes its default), or NULL. */
static int std_value(verifier *v, const fbe_type *t, uint64_t slot, uint64_t base, const fbe_field *f) {
  uint64_t at = 0;
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      return std_blob(v, slot, base, t->wire == FBE_KIND_STRING, f);
    case FBE_KIND_STRUCT: return std_struct(v, slot, base, t->st);
    case FBE_KIND_DECIMAL: return fbei_decimal_bad(v->p + slot) ? bad_decimal(v, slot) : 0;
    case FBE_KIND_OPTIONAL: {
      if (t->elem->wire == FBE_KIND_STRUCT) return std_optional_struct(v, t, t->elem->st, slot, base, f);
      if (v->p[slot] == 0) return f ? charge(v, slot, f->default_cost) : 0;
      if (fbe_load32(v->p + slot + 1) == 0)
        return fail(v, FBE_FAULT_OPTIONAL_EMPTY, slot);
      if (follow(v, slot + 1, base, t->elem->wire_size, &at) || enter(v, at, fbei_cost_optional(t)))
        return -1;
      v->visits++;
      int rc = std_value(v, t->elem, at, at, NULL);
      v->depth--;
      return rc;
    }
    case FBE_KIND_ARRAY:
      if (t->elem->copyable) return 0;
      if (t->elem->wire != FBE_KIND_STRUCT) v->visits += t->array_size;
      for (uint32_t i = 0; i < t->array_size; i++) {
        if (std_value(v, t->elem, slot + (uint64_t)i * t->elem->wire_size, base, NULL)) {
          fbei_error_prepend_index(v->err, i);
          return -1;
        }
      }
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      if (!k && t->elem->wire == FBE_KIND_STRUCT) return std_structs(v, t, t->elem->st, slot, base);
      uint64_t stride = (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0);
      fbe_reader r = {v->p, v->end};
      uint32_t n = 0;
      if (fbe_load32(v->p + slot) == 0) return 0; /* reads as empty */
      if (fbe_std_read_sequence(&r, slot, base, stride, &at, &n)) return bad_sequence(v, slot, base);
      if (enter(v, at - 4, fbei_cost_sequence(t, n))) return -1;
      if (!k && t->elem->copyable) n = 0; /* fixed-size elements: nothing more to check */
      v->visits += n;
      for (uint32_t i = 0; i < n; i++) {
        uint64_t item = at + i * stride;
        if ((k && std_value(v, k, item, base, NULL)) ||
            std_value(v, t->elem, item + (k ? k->wire_size : 0), base, NULL)) {
          fbei_error_prepend_index(v->err, i);
          return -1;
        }
      }
      v->depth--;
      return 0;
    }
    default:
      return 0; /* other scalars: any bit pattern is valid */
  }
}

/* A body at least as large as the schema's: every field is there; only the steps
 * holding pointers need checking. */
static inline ALWAYS_INLINE int std_body_inline(verifier *v, const fbe_struct *st, uint64_t b) {
  for (const fbei_op *op = st->ptr_ops, *end = op + st->nptr_ops; op < end; op++) {
    uint64_t slot = b + op->wire_offset;
    int rc;
    switch (op->check) {
      case FBE_CHECK_TEXT: rc = std_blob(v, slot, b, 1, op->field); break;
      case FBE_CHECK_BYTES: rc = std_blob(v, slot, b, 0, op->field); break;
      case FBE_CHECK_STRUCT: rc = std_struct(v, slot, b, op->st); break;
      case FBE_CHECK_OPTIONAL_STRUCT: rc = std_optional_struct(v, op->type, op->st, slot, b, op->field); break;
      case FBE_CHECK_STRUCTS: rc = std_structs(v, op->type, op->st, slot, b); break;
      case FBE_CHECK_VALUE: rc = std_value(v, op->type, slot, b, op->field); break;
      default: UNREACHABLE(); /* every check has its case: the jump needs no range check */
    }
    if (rc) {
      fbei_error_prepend_field(v->err, op->path);
      return -1;
    }
  }
  return 0;
}

static int std_body(verifier *v, const fbe_struct *st, uint64_t b) {
  return std_body_inline(v, st, b);
}

/* A body written by an older schema: the fields that fit (the inherited part only as a
 * whole) are checked; the others take their defaults, charged as decode charges them. */
static int std_short_body(verifier *v, const fbe_struct *st, uint64_t b, uint32_t size) {
  uint32_t first = st->base_body_size <= size ? 0 : st->ninherited;
  uint32_t i = first;
  for (; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    if (f->wire_offset + f->type->wire_size > size) break;
    if (std_value(v, f->type, b + f->wire_offset, b, f)) {
      fbei_error_prepend_field(v->err, f->name);
      return -1;
    }
  }
  return charge(v, b, fbei_cost_defaults(st, 0, first) + fbei_cost_defaults(st, i, st->nfields));
}

/* The budget of a model of `total` bytes, and the root value's share of it. */
static int start_budget(verifier *v, const fbe_struct *st, uint32_t total) {
  v->end = total;
  v->limit = fbei_limits_budget(v->limits, total);
  v->budget = v->start = v->limit > INT64_MAX ? INT64_MAX : (int64_t)v->limit;
  return charge(v, 0, fbei_cost_root(st));
}

static int verify_standard(verifier *v, const fbe_struct *st, size_t size, size_t *model_size) {
  if (size < 16) return fail(v, FBE_FAULT_FEW_BYTES_STANDARD, 0, U(size));
  uint32_t total = fbe_load32(v->p);
  if (total < 16) return fail(v, FBE_FAULT_MODEL_SMALL_STANDARD, 0, U(total));
  if (total > size) return fail(v, FBE_FAULT_MODEL_PAST_BUFFER, 0, U(total));
  if (start_budget(v, st, total) || std_struct(v, 4, 0, st)) return -1;
  if (model_size) *model_size = total;
  return 0;
}

/* ------------------------------------------------------------ final model */

/* Positions only grow, so fixed-size steps just advance `pos`; the bound is checked
 * whenever bytes are read (a length, a flag) and once at the end of the model. */

static int fin_value(verifier *v, const fbe_type *t, uint64_t *pos);

COLD static int fin_short(verifier *v, uint64_t pos, uint64_t n) {
  return fail(v, FBE_FAULT_BYTES_PAST_END, pos < v->end ? pos : v->end, U(n), "model");
}

/* `room`: the length field plus the fixed bytes right after the string; text: a string
 * (UTF-8 checked), else bytes. */
static inline int fin_blob(verifier *v, uint64_t *pos, uint32_t room, int text) {
  if (*pos + 4 > v->end) return fin_short(v, *pos, 4);
  uint32_t n = fbe_load32(v->p + *pos);
  if (n > v->end - *pos - 4) return bad_size(v, *pos);
  /* no body is shared in the final model: all strings together are at most its size,
   * so their charge is checked once, at the end (verify_final) */
  v->budget -= (int64_t)fbei_cost_bytes(n);
  if (text && check_text(v, v->p + *pos + 4, n)) return -1;
  *pos += (uint64_t)n + room;
  return 0;
}

static int fin_optional_struct(verifier *v, const fbe_type *t, const fbe_struct *st, uint64_t *pos);
static int fin_structs(verifier *v, const fbe_type *t, const fbe_struct *st, uint64_t *pos);

/* The steps of one struct, the position in a register: a step first advances over the
 * fixed bytes before it (op->skip), a string also over those after it (its room). */
static inline ALWAYS_INLINE int fin_struct_inline(verifier *v, const fbe_struct *st, uint64_t *pos) {
  uint64_t at = *pos;
  for (const fbei_op *op = st->final_checks, *end = op + st->nfinal_checks; op < end; op++) {
    at += op->skip;
    int rc;
    switch (op->check) {
      case FBE_CHECK_TEXT: rc = fin_blob(v, &at, op->room, 1); break;
      case FBE_CHECK_BYTES: rc = fin_blob(v, &at, op->room, 0); break;
      case FBE_CHECK_OPTIONAL_STRUCT: rc = fin_optional_struct(v, op->type, op->st, &at); break;
      case FBE_CHECK_STRUCTS: rc = fin_structs(v, op->type, op->st, &at); break;
      default: rc = fin_value(v, op->type, &at); break; /* FBE_CHECK_VALUE */
    }
    if (rc) {
      fbei_error_prepend_field(v->err, op->path);
      return -1;
    }
  }
  *pos = at + st->final_tail;
  return 0;
}

static int fin_struct(verifier *v, const fbe_struct *st, uint64_t *pos) {
  return fin_struct_inline(v, st, pos);
}

/* An optional of a struct (t: the optional's type). */
static int fin_optional_struct(verifier *v, const fbe_type *t, const fbe_struct *st, uint64_t *pos) {
  uint64_t at = *pos;
  if (at >= v->end) return fin_short(v, at, 1);
  *pos = ++at;
  if (!v->p[at - 1]) return 0;
  if (enter(v, at, fbei_cost_optional(t))) return -1;
  int rc = fin_struct_inline(v, st, pos);
  v->depth--;
  return rc;
}

/* A vector, list or set of structs (t: its type). */
static int fin_structs(verifier *v, const fbe_type *t, const fbe_struct *st, uint64_t *pos) {
  uint64_t at = *pos;
  if (at + 4 > v->end) return fin_short(v, at, 4);
  uint32_t n = fbe_load32(v->p + at);
  if ((uint64_t)st->final_min * n > v->end - at - 4) return fail(v, FBE_FAULT_ELEMENTS, at, U(n), "model");
  if (enter(v, at, fbei_cost_sequence(t, n))) return -1;
  *pos = at + 4;
  for (uint32_t i = 0; i < n; i++) {
    if (fin_struct_inline(v, st, pos)) {
      fbei_error_prepend_index(v->err, i);
      return -1;
    }
  }
  v->depth--;
  return 0;
}

static int fin_value(verifier *v, const fbe_type *t, uint64_t *pos) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return fin_blob(v, pos, 4, t->wire == FBE_KIND_STRING);
    case FBE_KIND_STRUCT: return fin_struct(v, t->st, pos);
    case FBE_KIND_DECIMAL:
      if (*pos + 16 > v->end) return fin_short(v, *pos, 16);
      if (fbei_decimal_bad(v->p + *pos)) return bad_decimal(v, *pos);
      *pos += 16;
      return 0;
    case FBE_KIND_OPTIONAL: {
      if (t->elem->wire == FBE_KIND_STRUCT) return fin_optional_struct(v, t, t->elem->st, pos);
      if (*pos >= v->end) return fin_short(v, *pos, 1);
      if (!v->p[(*pos)++]) return 0;
      if (enter(v, *pos, fbei_cost_optional(t))) return -1;
      int rc = fin_value(v, t->elem, pos);
      v->depth--;
      return rc;
    }
    case FBE_KIND_ARRAY:
      if (t->elem->copyable) {
        *pos += t->wire_size;
        return 0;
      }
      for (uint32_t i = 0; i < t->array_size; i++) {
        if (fin_value(v, t->elem, pos)) {
          fbei_error_prepend_index(v->err, i);
          return -1;
        }
      }
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      if (!k && t->elem->wire == FBE_KIND_STRUCT) return fin_structs(v, t, t->elem->st, pos);
      if (*pos + 4 > v->end) return fin_short(v, *pos, 4);
      uint32_t n = fbe_load32(v->p + *pos);
      uint64_t least = (uint64_t)t->elem->final_min + (k ? k->final_min : 0);
      if (least * n > v->end - *pos - 4) return fail(v, FBE_FAULT_ELEMENTS, *pos, U(n), "model");
      if (enter(v, *pos, fbei_cost_sequence(t, n))) return -1;
      *pos += 4;
      if (!k && t->elem->copyable) { /* fixed-size elements: their area was checked above */
        *pos += least * n;
        v->depth--;
        return 0;
      }
      for (uint32_t i = 0; i < n; i++) {
        if ((k && fin_value(v, k, pos)) || fin_value(v, t->elem, pos)) {
          fbei_error_prepend_index(v->err, i);
          return -1;
        }
      }
      v->depth--;
      return 0;
    }
    default:
      *pos += t->wire_size;
      return 0;
  }
}

static int verify_final(verifier *v, const fbe_struct *st, size_t size, size_t *model_size) {
  if (size < 8) return fail(v, FBE_FAULT_FEW_BYTES_FINAL, 0, U(size));
  uint32_t total = fbe_load32(v->p), type_id = fbe_load32(v->p + 4);
  if (total < 8) return fail(v, FBE_FAULT_MODEL_SMALL_FINAL, 0, U(total));
  if (total > size) return fail(v, FBE_FAULT_MODEL_PAST_BUFFER, 0, U(total));
  if (type_id != st->type_id)
    return fail(v, FBE_FAULT_TYPE_ID, 4, U(type_id), st->full_name, U(st->type_id));
  uint64_t pos = 8;
  if (start_budget(v, st, total) || fin_struct(v, st, &pos)) return -1;
  if (pos > total) return fin_short(v, total, pos - total);
  if (pos != total) return fail(v, FBE_FAULT_FIELDS_END, pos, U(total));
  if (v->budget < 0) return over_budget(v, 8); /* the strings (fin_blob) */
  if (model_size) *model_size = total;
  return 0;
}

/* Both entry points: fbe_verify inlines it, so a plain verify pays no second call. */
static inline ALWAYS_INLINE fbe_status verify_model(const fbe_struct *type, fbe_model model,
                                                   const uint8_t *data, size_t size,
                                                   const fbe_limits *limits, size_t *model_size,
                                                   fbei_cost_report *report, fbe_error *err) {
  fbe_error local;
  if (!err) err = &local;
  if (!type || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no type or data");
  uint64_t max_size = fbei_limits_size(limits);
  if (size >= 4 && fbe_load32(data) > max_size)
    return fbei_fault_set(err, FBE_FAULT_MODEL_LIMIT, 0, U(fbe_load32(data)), U(max_size));
  verifier v = {data, 0, 0, fbei_limits_depth(limits), 0, 0, 0, 0, limits, err};
  int rc = model == FBE_MODEL_FINAL ? verify_final(&v, type, size, model_size)
                                    : verify_standard(&v, type, size, model_size);
  if (report) {
    report->charged = (uint64_t)(v.start - v.budget);
    report->visits = v.visits;
  }
  return rc ? err->code : FBE_OK;
}

fbe_status fbei_verify_report(const fbe_struct *type, fbe_model model, const uint8_t *data,
                             size_t size, const fbe_limits *limits, size_t *model_size,
                             fbei_cost_report *report, fbe_error *err) {
  return verify_model(type, model, data, size, limits, model_size, report, err);
}

fbe_status fbe_verify(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                      const fbe_limits *limits, size_t *model_size, fbe_error *err) {
  return verify_model(type, model, data, size, limits, model_size, NULL, err);
}

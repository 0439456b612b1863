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
#include "wire/verify_at.h"

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
  return fail(v, FBE_FAULT_OVER_BUDGET, offset, U(fbei_limits_budget(v->limits, v->end)));
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

/* The high bit of each of the last n bytes of a little-endian word (n <= 8). */
static const uint64_t ascii_tail[9] = {
    0, 0x8000000000000000u, 0x8080000000000000u, 0x8080800000000000u, 0x8080808000000000u,
    0x8080808080000000u, 0x8080808080800000u, 0x8080808080808000u, 0x8080808080808080u};

/* A string's bytes must be UTF-8 (fbe_utf8_check's rule); ASCII is checked inline. A
 * string of up to 8 bytes is one load: the 8 bytes that end where it ends lie inside the
 * model (its length field and at least 4 bytes of header come before any string). */
static inline int check_text(verifier *v, const uint8_t *s, uint32_t n) {
  if (n <= 8) { /* two tests, not a merged ternary: the compiler made it a flag and a third */
    if (!(fbe_load64(s + n - 8) & ascii_tail[n])) return 0;
  } else if (fbei_utf8_ascii(s, n)) {
    return 0;
  }
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

static int std_walk(verifier *v, const fbe_struct *st, uint64_t b);
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

/* What std_header gives besides a body: an older schema's (shorter) body, checked, or a
 * refusal (a body is never at 0 or at 2^64 - 1). */
#define STD_SHORT 0u
#define STD_REFUSED UINT64_MAX

/* std_header's exact checks, when its one test did not pass. */
static uint64_t std_header_slow(verifier *v, uint64_t slot, uint64_t base, const fbe_struct *st) {
  uint64_t b = base + fbe_load32(v->p + slot), end = v->end; /* pointer 0: b = base <= slot */
  int bad = b <= slot || b + 8 > end;
  uint64_t head = bad ? 0 : fbe_load64(v->p + b);
  uint32_t size = (uint32_t)head;
  if (bad || (uint32_t)(size - 8) > end - b - 8 || (uint32_t)(head >> 32) != st->type_id) {
    bad_struct(v, slot, base, st);
    return STD_REFUSED;
  }
  v->visits++; /* paid for by whoever holds the struct: its cost includes st->cost */
  if (size >= st->body_size) return b;
  return std_short_body(v, st, b, size) ? STD_REFUSED : STD_SHORT;
}

/* A struct slot's pointer and header (size 8..what is left, the type id): the body when it
 * is at least the schema's, else STD_SHORT or STD_REFUSED. The common case is one test:
 * the pointer leads past the slot, the schema's body fits, and header - head_key (type id
 * << 32 + body size) is the size beyond the schema's body, at most what is left: any
 * other type id makes it 2^32 or more (the model is smaller). */
static inline ALWAYS_INLINE uint64_t std_header(verifier *v, uint64_t slot, uint64_t base,
                                                const fbe_struct *st) {
  uint64_t b = base + fbe_load32(v->p + slot), full = b + st->body_size;
  if (b <= slot || full > v->end || fbe_load64(v->p + b) - st->head_key > v->end - full)
    return std_header_slow(v, slot, base, st);
  v->visits++;
  return b;
}

/* A struct slot and its body, by a call. */
static int std_struct(verifier *v, uint64_t slot, uint64_t base, const fbe_struct *st) {
  uint64_t b = std_header(v, slot, base, st);
  return b == STD_REFUSED ? -1 : b == STD_SHORT ? 0 : std_walk(v, st, b);
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
  if (a + 4 + n > end) return bad_size(v, a); /* no wrap: 32-bit a and n */
  if (charge(v, slot, fbei_cost_bytes(n))) return -1;
  return text ? check_text(v, v->p + a + 4, n) : 0;
}

/* The slot of an optional of a struct (t: the optional's type; f as for std_blob): 0
 * absent (its default charged), 1 present with *at its value slot (one level entered),
 * -1 refused. */
static inline ALWAYS_INLINE int std_optional_open(verifier *v, const fbe_type *t, uint64_t slot,
                                                  uint64_t base, const fbe_field *f, uint64_t *at) {
  if (v->p[slot] == 0) return f ? charge(v, slot, f->default_cost) : 0;
  if (fbe_load32(v->p + slot + 1) == 0) return fail(v, FBE_FAULT_OPTIONAL_EMPTY, slot);
  if (follow(v, slot + 1, base, 4, at) || enter(v, *at, fbei_cost_optional(t))) return -1;
  return 1;
}

/* An optional of a struct, by a call. */
static int std_optional_struct(verifier *v, const fbe_type *t, const fbe_struct *st,
                               uint64_t slot, uint64_t base, const fbe_field *f) {
  uint64_t at = 0;
  int rc = std_optional_open(v, t, slot, base, f, &at);
  if (rc <= 0) return rc;
  rc = std_struct(v, at, at, st); /* the value slot is its own base */
  v->depth--;
  return rc;
}

/* The slot of a vector, list or set of structs (t: its type): 0 empty (pointer 0), 1 with
 * *at the first element's slot and *count their number (one level entered), -1 refused. */
static inline ALWAYS_INLINE int std_count(verifier *v, const fbe_type *t, uint64_t slot,
                                          uint64_t base, uint64_t *at, uint32_t *count) {
  fbe_reader r = {v->p, v->end};
  if (fbe_load32(v->p + slot) == 0) return 0; /* reads as empty */
  if (fbe_std_read_sequence(&r, slot, base, 4, at, count)) return bad_sequence(v, slot, base);
  if (enter(v, *at - 4, fbei_cost_sequence(t, *count))) return -1;
  return 1;
}

/* A vector, list or set of structs, by calls. */
static int std_structs(verifier *v, const fbe_type *t, const fbe_struct *st, uint64_t slot,
                       uint64_t base) {
  uint64_t at = 0;
  uint32_t n = 0;
  int rc = std_count(v, t, slot, base, &at, &n);
  if (rc <= 0) return rc;
  for (uint32_t i = 0; i < n; i++) {
    if (std_struct(v, at + (uint64_t)i * 4, base, st)) {
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

/* A struct slot whose struct holds only strings and bytes (fbe_struct.blobs_only): its
 * header and blobs in one loop, with no frame of std_walk (most nested structs are so). */
static inline ALWAYS_INLINE int std_blobs_struct(verifier *v, uint64_t slot, uint64_t base,
                                                 const fbe_struct *st) {
  uint64_t b = std_header(v, slot, base, st);
  if (b == STD_REFUSED) return -1;
  if (b == STD_SHORT) return 0;
  for (const fbei_op *op = st->ptr_ops; op->check != FBE_CHECK_END; op++) {
    if (std_blob(v, b + op->wire_offset, b, op->check == FBE_CHECK_TEXT, op->field)) {
      fbei_error_prepend_field(v->err, op->path);
      return -1;
    }
  }
  return 0;
}

/* std_walk's frames: a struct entered at step `op` of the one below: a plain struct, an
 * optional of one, or element count - 1 - left of a collection of them, whose slot is
 * `slot` (relative to b, the body below). Deeper nesting than STD_FRAMES goes on by calls. */
typedef struct std_frame {
  const fbei_op *op;
  uint64_t b;      /* the body below */
  uint64_t slot;   /* a collection's: the current element's slot */
  uint32_t left;   /* elements after this one */
  uint32_t count;  /* elements in all (0: not a collection) */
  uint32_t level;  /* 1: an optional or a collection (one level of depth), 0: a plain struct */
} std_frame;
#define STD_FRAMES 16

/* Refusal inside std_walk at step op (NULL: entering the struct of the top frame): the
 * error's path, innermost first. */
COLD static int std_walk_failed(verifier *v, const fbei_op *op, const std_frame *stack, uint32_t sp) {
  if (op) fbei_error_prepend_field(v->err, op->path);
  while (sp--) {
    if (stack[sp].count) fbei_error_prepend_index(v->err, stack[sp].count - 1 - stack[sp].left);
    fbei_error_prepend_field(v->err, stack[sp].op->path);
  }
  return -1;
}

/* A body at least as large as the schema's (every field is there) and the bodies nested in
 * it, in one loop (no call per struct): only the steps holding pointers are checked. */
static inline ALWAYS_INLINE int std_walk_inline(verifier *v, const fbe_struct *st, uint64_t b) {
  std_frame stack[STD_FRAMES];
  uint32_t sp = 0, n = 0;
  uint64_t at = 0, base = 0, q = 0; /* q: for calls, so that at's address is never taken */
  int rc;
  const fbei_op *op = st->ptr_ops;
  for (;;) {
    uint64_t slot = b + op->wire_offset;
    switch (op->check) {
      case FBE_CHECK_TEXT:
        if (std_blob(v, slot, b, 1, op->field)) goto failed;
        op++;
        continue;
      case FBE_CHECK_BYTES:
        if (std_blob(v, slot, b, 0, op->field)) goto failed;
        op++;
        continue;
      case FBE_CHECK_STRUCT:
        if (op->st->blobs_only) {
          if (std_blobs_struct(v, slot, b, op->st)) goto failed;
          op++;
          continue;
        }
        if (sp == STD_FRAMES) goto value;
        stack[sp++] = (std_frame){op, b, 0, 0, 0, 0};
        at = slot;
        base = b;
        goto header;
      case FBE_CHECK_OPTIONAL_STRUCT:
        if (sp == STD_FRAMES) goto value;
        rc = std_optional_open(v, op->type, slot, b, op->field, &q);
        at = q;
        if (rc < 0) goto failed;
        if (rc == 0) {
          op++;
          continue;
        }
        if (op->st->blobs_only) {
          if (std_blobs_struct(v, at, at, op->st)) goto failed;
          v->depth--;
          op++;
          continue;
        }
        stack[sp++] = (std_frame){op, b, 0, 0, 0, 1};
        base = at; /* the value slot is its own base */
        goto header;
      case FBE_CHECK_STRUCTS:
        if (sp == STD_FRAMES) goto value;
        rc = std_count(v, op->type, slot, b, &q, &n);
        at = q;
        if (rc < 0) goto failed;
        if (rc == 0) {
          op++;
          continue;
        }
        if (op->st->blobs_only) {
          for (uint32_t i = 0; i < n; i++) {
            if (std_blobs_struct(v, at + (uint64_t)i * 4, b, op->st)) {
              fbei_error_prepend_index(v->err, i);
              goto failed;
            }
          }
          n = 0;
        }
        if (n == 0) {
          v->depth--;
          op++;
          continue;
        }
        stack[sp++] = (std_frame){op, b, at, n - 1, n, 1};
        base = b;
        goto header;
      case FBE_CHECK_VALUE:
      value:
        if (std_value(v, op->type, slot, b, op->field)) goto failed;
        op++;
        continue;
      case FBE_CHECK_END:
      next:
        if (!sp) return 0;
        if (stack[sp - 1].left) { /* the next element */
          stack[sp - 1].left--;
          at = stack[sp - 1].slot += 4;
          base = stack[sp - 1].b;
          goto header;
        }
        sp--;
        v->depth -= stack[sp].level;
        b = stack[sp].b;
        op = stack[sp].op + 1;
        continue;
      default: UNREACHABLE(); /* every check has its case: the jump needs no range check */
    }
  header: /* the struct of the top frame, its pointer at `at` relative to `base` */
    at = std_header(v, at, base, stack[sp - 1].op->st);
    if (at == STD_REFUSED) return std_walk_failed(v, NULL, stack, sp);
    if (at == STD_SHORT) goto next; /* an older schema's body: std_short_body checked it */
    b = at;
    op = stack[sp - 1].op->st->ptr_ops;
    continue;
  failed:
    return std_walk_failed(v, op, stack, sp);
  }
}

static int std_walk(verifier *v, const fbe_struct *st, uint64_t b) {
  return std_walk_inline(v, st, b);
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

/* The budget at the start of a model of `total` bytes (0 before there is one). */
static inline int64_t first_budget(const fbe_limits *limits, uint32_t total) {
  uint64_t limit = total ? fbei_limits_budget(limits, total) : 0;
  return limit > INT64_MAX ? INT64_MAX : (int64_t)limit;
}

/* The budget of a model of `total` bytes, and the root value's share of it. */
static int start_budget(verifier *v, const fbe_struct *st, uint32_t total) {
  v->end = total;
  v->budget = first_budget(v->limits, total);
  return charge(v, 0, st->root_cost);
}

static inline ALWAYS_INLINE int verify_standard(verifier *v, const fbe_struct *st, size_t size,
                                                size_t *model_size) {
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

/* A position of the final model's walk, or FIN_REFUSED (positions are under 2^33). */
#define FIN_REFUSED UINT64_MAX

/* The string or bytes at `pos` (text: UTF-8 checked): the position after it and the `room`
 * (the length field plus the fixed bytes right after it), or FIN_REFUSED. Positions go
 * in and out by value so that the walk keeps them in a register. */
static inline ALWAYS_INLINE uint64_t fin_blob(verifier *v, uint64_t pos, uint32_t room, int text) {
  if (pos + 4 > v->end) return fin_short(v, pos, 4), FIN_REFUSED;
  uint32_t n = fbe_load32(v->p + pos);
  if (pos + 4 + n > v->end) return bad_size(v, pos), FIN_REFUSED; /* no wrap: pos < 2^32 here */
  /* no body is shared in the final model: all strings together are at most its size,
   * so their charge is checked once, at the end (verify_final) */
  v->budget -= (int64_t)fbei_cost_bytes(n);
  if (text && check_text(v, v->p + pos + 4, n)) return FIN_REFUSED;
  return pos + n + room;
}

static int fin_walk(verifier *v, const fbe_struct *st, uint64_t *pos);

/* An optional of a struct (t: the optional's type), by a call. */
static int fin_optional_struct(verifier *v, const fbe_type *t, const fbe_struct *st, uint64_t *pos) {
  uint64_t at = *pos;
  if (at >= v->end) return fin_short(v, at, 1);
  *pos = ++at;
  if (!v->p[at - 1]) return 0;
  if (enter(v, at, fbei_cost_optional(t))) return -1;
  int rc = fin_walk(v, st, pos);
  v->depth--;
  return rc;
}

/* The elements of a vector, list or set of structs whose count at *pos - 4 was checked
 * and charged (fin_walk's, by calls); *pos: the first. */
static int fin_elements(verifier *v, const fbe_struct *st, uint32_t n, uint64_t *pos) {
  for (uint32_t i = 0; i < n; i++) {
    if (fin_walk(v, st, pos)) {
      fbei_error_prepend_index(v->err, i);
      return -1;
    }
  }
  v->depth--;
  return 0;
}

/* The count of a vector, list or set of structs at *pos (t: its type): checked, charged,
 * one level entered; *pos moves past it. */
static inline ALWAYS_INLINE int fin_count(verifier *v, const fbe_type *t, const fbe_struct *st,
                                          uint64_t *pos, uint32_t *count) {
  uint64_t at = *pos;
  if (at + 4 > v->end) return fin_short(v, at, 4);
  uint32_t n = fbe_load32(v->p + at);
  if ((uint64_t)st->final_min * n > v->end - at - 4) return fail(v, FBE_FAULT_ELEMENTS, at, U(n), "model");
  if (enter(v, at, fbei_cost_sequence(t, n))) return -1;
  *pos = at + 4;
  *count = n;
  return 0;
}

/* A vector, list or set of structs (t: its type), by calls. */
static int fin_structs(verifier *v, const fbe_type *t, const fbe_struct *st, uint64_t *pos) {
  uint32_t n = 0;
  return fin_count(v, t, st, pos, &n) ? -1 : fin_elements(v, st, n, pos);
}

/* A struct of the final model at *pos whose steps are all strings and bytes
 * (fbe_struct.final_blobs_only): in one loop, with no frame of fin_walk. */
static inline ALWAYS_INLINE uint64_t fin_blobs_struct(verifier *v, const fbe_struct *st, uint64_t pos) {
  pos += st->final_lead;
  for (const fbei_op *op = st->final_checks; op->check != FBE_CHECK_END; op++) {
    pos = fin_blob(v, pos, op->room, op->check == FBE_CHECK_TEXT);
    if (pos == FIN_REFUSED) {
      fbei_error_prepend_field(v->err, op->path);
      return FIN_REFUSED;
    }
  }
  return pos;
}

/* fin_walk's frames: a struct program entered at step `op` of the one below (an optional
 * of a struct, or element count - 1 - left of a collection of them). Deeper nesting than
 * FIN_FRAMES goes on by calls. */
typedef struct fin_frame {
  const fbei_op *op;
  uint32_t left;  /* elements after this one */
  uint32_t count; /* elements in all (0: an optional) */
} fin_frame;
#define FIN_FRAMES 16

/* Refusal inside fin_walk at step op (NULL: none): the error's path, innermost first. */
COLD static int fin_walk_failed(verifier *v, const fbei_op *op, const fin_frame *stack, uint32_t sp) {
  if (op) fbei_error_prepend_field(v->err, op->path);
  while (sp--) {
    if (stack[sp].count) fbei_error_prepend_index(v->err, stack[sp].count - 1 - stack[sp].left);
    fbei_error_prepend_field(v->err, stack[sp].op->path);
  }
  return -1;
}

/* The steps of a struct at *pos and of the structs nested in it, in one loop (no call
 * per struct): a struct starts with its fixed lead, a string advances over the fixed bytes
 * after it (its room), any other step over those after it once done (op->after). */
static inline ALWAYS_INLINE int fin_walk_inline(verifier *v, const fbe_struct *st, uint64_t *pos) {
  fin_frame stack[FIN_FRAMES];
  uint32_t sp = 0, n = 0;
  uint64_t at = *pos + st->final_lead, q; /* q: at's copy for calls, so that at's address is
                                             never taken and it stays in a register */
  const fbei_op *op = st->final_checks;
  for (;;) {
    switch (op->check) {
      case FBE_CHECK_TEXT:
        if ((at = fin_blob(v, at, op->room, 1)) == FIN_REFUSED) goto failed;
        op++;
        continue;
      case FBE_CHECK_BYTES:
        if ((at = fin_blob(v, at, op->room, 0)) == FIN_REFUSED) goto failed;
        op++;
        continue;
      case FBE_CHECK_OPTIONAL_STRUCT:
        if (at >= v->end) {
          fin_short(v, at, 1);
          goto failed;
        }
        if (!v->p[at++]) {
          at += op->after;
          op++;
          continue;
        }
        if (enter(v, at, fbei_cost_optional(op->type))) goto failed;
        if (op->st->final_blobs_only) {
          if ((at = fin_blobs_struct(v, op->st, at)) == FIN_REFUSED) goto failed;
          v->depth--;
          at += op->after;
          op++;
          continue;
        }
        if (sp == FIN_FRAMES) {
          int rc = fin_walk(v, op->st, (q = at, &q));
          at = q;
          v->depth--;
          if (rc) goto failed;
          at += op->after;
          op++;
          continue;
        }
        stack[sp++] = (fin_frame){op, 0, 0};
        at += op->st->final_lead;
        op = op->st->final_checks;
        continue;
      case FBE_CHECK_STRUCTS:
        if (fin_count(v, op->type, op->st, (q = at, &q), &n)) goto failed;
        at = q;
        if (op->st->final_blobs_only) {
          for (uint32_t i = 0; i < n; i++) {
            if ((at = fin_blobs_struct(v, op->st, at)) == FIN_REFUSED) {
              fbei_error_prepend_index(v->err, i);
              goto failed;
            }
          }
          n = 0;
        }
        if (n == 0 || sp == FIN_FRAMES) {
          if (fin_elements(v, op->st, n, (q = at, &q))) goto failed;
          at = q;
          at += op->after;
          op++;
          continue;
        }
        stack[sp++] = (fin_frame){op, n - 1, n};
        at += op->st->final_lead;
        op = op->st->final_checks;
        continue;
      case FBE_CHECK_STRUCT: case FBE_CHECK_VALUE:
        if (fin_value(v, op->type, (q = at, &q))) goto failed;
        at = q;
        at += op->after;
        op++;
        continue;
      case FBE_CHECK_END: {
        if (!sp) {
          *pos = at;
          return 0;
        }
        fin_frame *f = &stack[sp - 1];
        if (f->left) { /* the next element */
          f->left--;
          at += f->op->st->final_lead;
          op = f->op->st->final_checks;
          continue;
        }
        v->depth--;
        at += f->op->after;
        op = f->op + 1;
        sp--;
        continue;
      }
      default: UNREACHABLE(); /* every check has its case: the jump needs no range check */
    }
  failed:
    return fin_walk_failed(v, op, stack, sp);
  }
}

static int fin_walk(verifier *v, const fbe_struct *st, uint64_t *pos) {
  return fin_walk_inline(v, st, pos);
}

static int fin_value(verifier *v, const fbe_type *t, uint64_t *pos) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      *pos = fin_blob(v, *pos, 4, t->wire == FBE_KIND_STRING);
      return *pos == FIN_REFUSED ? -1 : 0;
    case FBE_KIND_STRUCT: return fin_walk(v, t->st, pos);
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

static inline ALWAYS_INLINE int verify_final(verifier *v, const fbe_struct *st, size_t size,
                                             size_t *model_size) {
  if (size < 8) return fail(v, FBE_FAULT_FEW_BYTES_FINAL, 0, U(size));
  uint32_t total = fbe_load32(v->p), type_id = fbe_load32(v->p + 4);
  if (total < 8) return fail(v, FBE_FAULT_MODEL_SMALL_FINAL, 0, U(total));
  if (total > size) return fail(v, FBE_FAULT_MODEL_PAST_BUFFER, 0, U(total));
  if (type_id != st->type_id)
    return fail(v, FBE_FAULT_TYPE_ID, 4, U(type_id), st->full_name, U(st->type_id));
  uint64_t pos = 8;
  if (start_budget(v, st, total) || fin_walk_inline(v, st, &pos)) return -1; /* inline: the root */
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
  verifier v = {data, 0, 0, fbei_limits_depth(limits), 0, 0, limits, err};
  int rc = model == FBE_MODEL_FINAL ? verify_final(&v, type, size, model_size)
                                    : verify_standard(&v, type, size, model_size);
  if (report) {
    report->charged = (uint64_t)(first_budget(limits, (uint32_t)v.end) - v.budget);
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

/* ------------------------------------------------------------ one value (verify_at.h) */

fbe_status fbei_verify_at(const fbe_type *t, fbe_model model, const uint8_t *data, uint64_t end,
                          uint64_t at, uint64_t base, const fbe_limits *limits, fbe_error *err) {
  fbe_error local;
  if (!err) err = &local;
  verifier v = {data, end, 0, fbei_limits_depth(limits), first_budget(limits, (uint32_t)end), 0, limits, err};
  int rc;
  if (model == FBE_MODEL_FINAL) {
    uint64_t pos = at;
    rc = t->wire == FBE_KIND_STRUCT ? charge(&v, at, t->st->root_cost) || fin_walk(&v, t->st, &pos)
                                    : fin_value(&v, t, &pos);
    if (!rc && pos > end) rc = fin_short(&v, end, pos - end); /* (fixed steps advance unchecked) */
    if (!rc && v.budget < 0) rc = over_budget(&v, at);         /* the strings (fin_blob) */
  } else if (t->wire == FBE_KIND_STRUCT) { /* at: the body, base: its size */
    const fbe_struct *st = t->st;
    rc = charge(&v, at, st->root_cost) ||
         (base >= st->body_size ? std_walk(&v, st, at) : std_short_body(&v, st, at, (uint32_t)base));
  } else {
    rc = std_value(&v, t, at, base, NULL);
  }
  return rc ? err->code : FBE_OK;
}

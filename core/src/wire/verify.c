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
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE __attribute__((always_inline))
#define UNREACHABLE() __builtin_unreachable()
#else
#define COLD
#define NOINLINE
#define ALWAYS_INLINE
#define UNREACHABLE() ((void)0)
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define ENTRY __attribute__((noipa)) /* not cloned without an unused argument (fbe_verify's) */
#else
#define ENTRY NOINLINE
#endif

typedef struct verifier {
  const uint8_t *p;
  uint64_t end;      /* the model occupies [0, end) */
  int64_t levels;    /* levels of nesting left (max_depth at the root) */
  int64_t budget;    /* bytes left of the memory budget (cost.h); below 0 only after
                        charges taken untested (the final model's strings, a lazy walk's) */
  uint64_t visits;   /* values the standard model's walk visited (fbei_cost_report) */
  const fbe_limits *limits;
  fbe_error *err;    /* may be NULL */
  fbe_status status; /* of the refusal, when there is one */
} verifier;


/* Numbers go to the fault table's formats as unsigned long long. */
#define U(x) ((unsigned long long)(x))

COLD static int fail(verifier *v, fbei_fault fault, uint64_t offset, ...) {
  va_list ap;
  va_start(ap, offset);
  v->status = fbei_fault_vset(v->err, fault, (size_t)offset, ap);
  va_end(ap);
  return -1;
}

COLD static int too_deep(verifier *v, uint64_t offset) {
  return fail(v, FBE_FAULT_TOO_DEEP, offset, U(fbei_limits_depth(v->limits)));
}

COLD static int over_budget(verifier *v, uint64_t offset) {
  return fail(v, FBE_FAULT_OVER_BUDGET, offset, U(fbei_limits_budget(v->limits, v->end)));
}

COLD static int bad_pointer(verifier *v, uint64_t slot, uint64_t base) {
  uint32_t pointer = fbe_load32(v->p + slot);
  v->status = fbei_fault_bad_pointer(v->err, slot, pointer, base + pointer);
  return -1;
}

COLD static int bad_size(verifier *v, uint64_t at) {
  return fail(v, FBE_FAULT_SIZE_PAST_END, at, U(fbe_load32(v->p + at)), "model");
}

COLD static int bad_text(verifier *v, const uint8_t *s, uint32_t n, size_t at) {
  v->status = fbei_utf8_error(v->err, FBE_ERR_MALFORMED, (size_t)(s - v->p), s, n, at);
  return -1;
}

/* The high bit of each of the last n bytes of a little-endian word (n <= 8): the ASCII test
 * of a short string, in one load. */
#define ASCII_TAIL(n) ((n) ? 0x8080808080808080u << ((64 - 8 * (n)) & 63) : 0)
static const uint64_t ascii_tail[9] = {ASCII_TAIL(0), ASCII_TAIL(1), ASCII_TAIL(2),
                                       ASCII_TAIL(3), ASCII_TAIL(4), ASCII_TAIL(5),
                                       ASCII_TAIL(6), ASCII_TAIL(7), ASCII_TAIL(8)};

/* blob_tail[n][kind]: ascii_tail[n] for a string (kind FBE_CHECK_TEXT), nothing for bytes:
 * a loop over both reads it with one index. */
_Static_assert(FBE_CHECK_TEXT == 0 && FBE_CHECK_BYTES == 1, "blob_tail is indexed by the check");
static const uint64_t blob_tail[9][2] = {
    {ASCII_TAIL(0), 0}, {ASCII_TAIL(1), 0}, {ASCII_TAIL(2), 0}, {ASCII_TAIL(3), 0},
    {ASCII_TAIL(4), 0}, {ASCII_TAIL(5), 0}, {ASCII_TAIL(6), 0}, {ASCII_TAIL(7), 0},
    {ASCII_TAIL(8), 0}};

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
  v->status = fbei_decimal_error(v->err, (size_t)at, v->p + at);
  return -1;
}

/* charge's refusal: the budget as it was before. */
COLD static int over_budget_by(verifier *v, uint64_t offset, uint64_t bytes) {
  v->budget += (int64_t)bytes;
  return over_budget(v, offset);
}

/* Takes `bytes` (under 2^62: cost.h) from the memory budget: what decode.c takes for the
 * same value. */
static inline int charge(verifier *v, uint64_t offset, uint64_t bytes) {
  if ((v->budget -= (int64_t)bytes) < 0) return over_budget_by(v, offset, bytes);
  return 0;
}

/* Optionals and collections are where schemas recurse: they count as one level. */
static int enter(verifier *v, uint64_t offset, uint64_t bytes) {
  if (--v->levels < 0) return too_deep(v, offset);
  return charge(v, offset, bytes);
}

/* Follows the pointer stored at `slot` relative to `base`: the target must hold `need`
 * bytes inside the model and lie after the slot (writers allocate blocks after it). */
static inline int follow(verifier *v, uint64_t slot, uint64_t base, uint64_t need, uint64_t *out) {
  uint64_t a = base + fbe_load32(v->p + slot); /* fbe_std_target's test, in one */
  if (a <= slot || a + need > v->end) return bad_pointer(v, slot, base);
  *out = a;
  return 0;
}

/* ------------------------------------------------------------ standard model */

/* The walk dispatches once per step on the check layout.c chose (fbei_op.check); a
 * pointer's bounds are one test (`a <= slot || a + need > end`: pointers are 32-bit,
 * so the sum cannot wrap) and the reasons are told apart in cold paths only. The common
 * cases, a struct header whose body fits and a string or bytes of up to 8 bytes (ASCII
 * for a string), are tested inline by predicates with no call (*_fast); anything else,
 * refusals included, goes to the exact checks (*_slow, *_from), which test it again: so a
 * loop over common cases keeps its state in registers.
 *
 * Its inlined copies run in one of two modes, a constant of each: exact, where every
 * charge is tested as it is taken, and lazy (fbe_verify's first pass), where the charge
 * of a short string or bytes (at most 8 bytes, and no work to bound) is taken without a
 * test and visits are not counted. The budget only falls, and both take the same charges
 * in the same order: so a lazy walk whose budget is still >= 0 when it refuses or ends
 * refused or passed as an exact one does, with the same error; otherwise verify_standard
 * walks again, exactly, for the first value over the budget. Every other charge is tested
 * at once, so a lazy walk overdraws at most 8 bytes per string of values already paid
 * for and its work stays bounded by the budget. */

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

/* What std_header gives: a body at least the schema's (*body set), an older schema's
 * (shorter) body, checked, or a refusal. */
#define STD_BODY 0
#define STD_SHORT 1
#define STD_REFUSED (-1)

/* std_header's exact checks, when its one test did not pass: the body, or one of these (a
 * body is never at 0 or at 2^64 - 1). */
#define STD_SLOW_SHORT 0u
#define STD_SLOW_REFUSED UINT64_MAX
static NOINLINE uint64_t std_header_slow(verifier *v, uint64_t slot, uint64_t base,
                                         const fbe_struct *st) {
  uint64_t b = base + fbe_load32(v->p + slot), end = v->end; /* pointer 0: b = base <= slot */
  int bad = b <= slot || b + 8 > end;
  uint64_t head = bad ? 0 : fbe_load64(v->p + b);
  uint32_t size = (uint32_t)head;
  if (bad || (uint32_t)(size - 8) > end - b - 8 || (uint32_t)(head >> 32) != st->type_id) {
    bad_struct(v, slot, base, st);
    return STD_SLOW_REFUSED;
  }
  v->visits++; /* paid for by whoever holds the struct: its cost includes st->cost */
  if (size >= st->body_size) return b;
  return std_short_body(v, st, b, size) ? STD_SLOW_REFUSED : STD_SLOW_SHORT;
}

/* The common case of a struct slot's pointer and header (size 8..what is left, the type
 * id), in one test: the pointer leads past the slot, the schema's body fits, and header -
 * head_key (type id << 32 + body size) is the size beyond the schema's body, at most what
 * is left: any other type id makes it 2^32 or more (the model is smaller). 1 with *body
 * set, or 0 for std_header_slow to decide. */
static inline ALWAYS_INLINE int std_header_fast(const verifier *v, uint64_t slot, uint64_t base,
                                                const fbe_struct *st, uint64_t *body) {
  uint64_t b = base + fbe_load32(v->p + slot), full = b + st->body_size;
  *body = b;
  return b > slot && full <= v->end && fbe_load64(v->p + b) - st->head_key <= v->end - full;
}

/* A struct slot's pointer and header. The status is a constant on the common path, so the
 * caller's tests of it fold away there. */
static inline ALWAYS_INLINE int std_header(verifier *v, uint64_t slot, uint64_t base,
                                           const fbe_struct *st, uint64_t *body, int lazy) {
  uint64_t b = 0;
  if (std_header_fast(v, slot, base, st, &b)) {
    if (!lazy) v->visits++;
  } else {
    b = std_header_slow(v, slot, base, st); /* returned, so that *body stays in a register */
    if (b == STD_SLOW_REFUSED) return STD_REFUSED;
    if (b == STD_SLOW_SHORT) return STD_SHORT;
  }
  *body = b;
  return STD_BODY;
}

/* A struct slot and its body, by a call (exact). */
static int std_struct(verifier *v, uint64_t slot, uint64_t base, const fbe_struct *st) {
  uint64_t b = 0;
  int rc = std_header(v, slot, base, st, &b, 0);
  return rc == STD_REFUSED ? -1 : rc == STD_SHORT ? 0 : std_walk(v, st, b);
}

/* A string (text: UTF-8 checked) or bytes slot, exactly; f: the field it is (a pointer 0
 * reads as its default), or NULL (reads as empty). */
static NOINLINE int std_blob_slow(verifier *v, uint64_t slot, uint64_t base, int text,
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

/* The common case of a string or bytes slot (kind: FBE_CHECK_TEXT or _BYTES), inline and
 * without a call: a pointer past the slot to at most 8 bytes inside the model, ASCII for a
 * string (one load, as check_text). Its charge, or -1 for std_blob_slow to decide. */
static inline ALWAYS_INLINE int64_t std_blob_fast(const verifier *v, uint64_t slot, uint64_t base,
                                                  size_t kind) {
  uint64_t a = base + fbe_load32(v->p + slot), end = v->end; /* pointer 0: a = base <= slot */
  if (a <= slot || a + 4 > end) return -1;
  uint32_t n = fbe_load32(v->p + a);
  if (n > 8 || a + 4 + n > end || (fbe_load64(v->p + a + n - 4) & blob_tail[n][kind])) return -1;
  return (int64_t)fbei_cost_bytes(n);
}

/* Takes the charge c a common case found: untested when lazy (see the two modes). -1 when
 * there is none (c < 0), or when exact and it is over the budget: the exact path decides. */
static inline ALWAYS_INLINE int std_take(verifier *v, int64_t c, int lazy) {
  if (c < 0 || (!lazy && c > v->budget)) return -1;
  v->budget -= c;
  return 0;
}

/* A string or bytes slot (f as for std_blob_slow: op->field). */
static inline ALWAYS_INLINE int std_blob(verifier *v, uint64_t slot, uint64_t base, size_t kind,
                                         const fbei_op *op, int lazy) {
  if (!std_take(v, std_blob_fast(v, slot, base, kind), lazy)) return 0;
  return std_blob_slow(v, slot, base, kind == FBE_CHECK_TEXT, op->field);
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
  v->levels++;
  return rc;
}

/* The slot of a vector, list or set of structs (t: its type): 0 empty (pointer 0), 1 with
 * *at the first element's slot and *count their number (one level entered), -1 refused. */
static inline ALWAYS_INLINE int std_count(verifier *v, const fbe_type *t, uint64_t slot,
                                          uint64_t base, uint64_t *at, uint32_t *count) {
  uint32_t pointer = fbe_load32(v->p + slot);
  if (!pointer) return 0; /* reads as empty */
  uint64_t a = base + pointer, end = v->end; /* fbe_std_read_sequence's tests, for 4-byte slots */
  if (a <= slot || a + 4 > end) return bad_sequence(v, slot, base);
  uint32_t n = fbe_load32(v->p + a);
  if ((uint64_t)n * 4 > end - a - 4) return bad_sequence(v, slot, base);
  *at = a + 4;
  *count = n;
  return enter(v, a, fbei_cost_sequence(t, n)) ? -1 : 1;
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
  v->levels++;
  return 0;
}

/* The generic path: any type, by its kind. f: the struct field the value is (absent data
 * takes its default), or NULL. */
static int std_value(verifier *v, const fbe_type *t, uint64_t slot, uint64_t base, const fbe_field *f) {
  uint64_t at = 0;
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      return std_blob_slow(v, slot, base, t->wire == FBE_KIND_STRING, f);
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
      v->levels++;
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
      v->levels++;
      return 0;
    }
    default:
      return 0; /* other scalars: any bit pattern is valid */
  }
}

/* A struct slot whose struct holds only strings and bytes (fbe_struct.blobs_only), most
 * nested structs: its header and blobs with no frame of std_walk. */

/* The blobs of body b from its step op on, exactly. */
static NOINLINE int std_blobs_from(verifier *v, uint64_t b, const fbei_op *op) {
  for (; op->check != FBE_CHECK_END; op++) {
    if (std_blob(v, b + op->wire_offset, b, op->check, op, 0)) {
      fbei_error_prepend_field(v->err, op->path);
      return -1;
    }
  }
  return 0;
}

/* Exactly, header and blobs. */
static NOINLINE int std_blobs_struct_slow(verifier *v, uint64_t slot, uint64_t base,
                                          const fbe_struct *st) {
  uint64_t b = 0;
  int rc = std_header(v, slot, base, st, &b, 0);
  if (rc != STD_BODY) return rc == STD_REFUSED ? -1 : 0;
  return std_blobs_from(v, b, st->ptr_ops);
}

/* Its header, then each blob, in their common cases (each charge taken as it passes), and
 * from the first that is not, exactly. */
static inline ALWAYS_INLINE int std_blobs_struct(verifier *v, uint64_t slot, uint64_t base,
                                                 const fbe_struct *st, int lazy) {
  uint64_t b = 0;
  if (!std_header_fast(v, slot, base, st, &b)) return std_blobs_struct_slow(v, slot, base, st);
  if (!lazy) v->visits++;
  for (const fbei_op *op = st->ptr_ops; op->check != FBE_CHECK_END; op++)
    if (std_take(v, std_blob_fast(v, b + op->wire_offset, b, op->check), lazy))
      return std_blobs_from(v, b, op);
  return 0;
}

/* The elements of a vector, list or set of them from the one at `slot` on, exactly; that
 * one from its blob `op` on (its body b) when op is not NULL. at: the first's slot, for
 * the error's index. */
static NOINLINE int std_blobs_structs_from(verifier *v, uint64_t at, uint64_t slot, uint64_t stop,
                                           uint64_t base, const fbe_struct *st, uint64_t b,
                                           const fbei_op *op) {
  for (; slot != stop; slot += 4, op = NULL) {
    if (op ? std_blobs_from(v, b, op) : std_blobs_struct_slow(v, slot, base, st)) {
      fbei_error_prepend_index(v->err, (size_t)(slot - at) / 4);
      return -1;
    }
  }
  return 0;
}

/* All n, their slots from `at`: as std_blobs_struct, in a loop with no call until the first
 * header or blob that is not the common case, and from there on by std_blobs_structs_from. */
static inline ALWAYS_INLINE int std_blobs_structs(verifier *v, uint64_t at, uint32_t n,
                                                  uint64_t base, const fbe_struct *st, int lazy) {
  uint64_t stop = at + (uint64_t)n * 4, b = 0;
  for (uint64_t slot = at; slot != stop; slot += 4) {
    if (!std_header_fast(v, slot, base, st, &b))
      return std_blobs_structs_from(v, at, slot, stop, base, st, 0, NULL);
    if (!lazy) v->visits++;
    for (const fbei_op *op = st->ptr_ops; op->check != FBE_CHECK_END; op++)
      if (std_take(v, std_blob_fast(v, b + op->wire_offset, b, op->check), lazy))
        return std_blobs_structs_from(v, at, slot, stop, base, st, b, op);
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
static inline ALWAYS_INLINE int std_walk_inline(verifier *v, const fbe_struct *st, uint64_t b,
                                                int lazy) {
  std_frame stack[STD_FRAMES];
  uint32_t sp = 0, n = 0;
  uint64_t at = 0, base = 0, q = 0; /* q: for calls, so that at's address is never taken */
  int rc;
  const fbei_op *op = st->ptr_ops;
  for (;;) {
    uint64_t slot = b + op->wire_offset;
    switch (op->check) {
      case FBE_CHECK_TEXT:
        if (std_blob(v, slot, b, FBE_CHECK_TEXT, op, lazy)) goto failed;
        op++;
        continue;
      case FBE_CHECK_BYTES:
        if (std_blob(v, slot, b, FBE_CHECK_BYTES, op, lazy)) goto failed;
        op++;
        continue;
      case FBE_CHECK_BLOBS_STRUCT:
        if (std_blobs_struct(v, slot, b, op->st, lazy)) goto failed;
        op++;
        continue;
      case FBE_CHECK_STRUCT:
        if (sp == STD_FRAMES) goto value;
        stack[sp++] = (std_frame){op, b, 0, 0, 0, 0};
        at = slot;
        base = b;
        goto header;
      case FBE_CHECK_OPTIONAL_BLOBS: {
        uint64_t value = 0;
        rc = std_optional_open(v, op->type, slot, b, op->field, &value);
        if (rc < 0) goto failed;
        if (rc > 0) { /* present: it entered a level */
          if (std_blobs_struct(v, value, value, op->st, lazy)) goto failed;
          v->levels++;
        }
        op++;
        continue;
      }
      case FBE_CHECK_OPTIONAL_STRUCT:
        if (sp == STD_FRAMES) goto value;
        rc = std_optional_open(v, op->type, slot, b, op->field, &q);
        at = q;
        if (rc < 0) goto failed;
        if (rc == 0) {
          op++;
          continue;
        }
        stack[sp++] = (std_frame){op, b, 0, 0, 0, 1};
        base = at; /* the value slot is its own base */
        goto header;
      case FBE_CHECK_BLOBS_STRUCTS: {
        uint64_t items = 0;
        uint32_t count = 0;
        rc = std_count(v, op->type, slot, b, &items, &count);
        if (rc < 0) goto failed;
        if (rc > 0) { /* not empty: it entered a level */
          if (std_blobs_structs(v, items, count, b, op->st, lazy))
            goto failed;
          v->levels++;
        }
        op++;
        continue;
      }
      case FBE_CHECK_STRUCTS:
        if (sp == STD_FRAMES) goto value;
        rc = std_count(v, op->type, slot, b, &q, &n);
        at = q;
        if (rc < 0) goto failed;
        if (rc == 0) {
          op++;
          continue;
        }
        if (n == 0) {
          v->levels++;
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
        v->levels += stack[sp].level;
        b = stack[sp].b;
        op = stack[sp].op + 1;
        continue;
      default: UNREACHABLE(); /* every check has its case: the jump needs no range check */
    }
  header: /* the struct of the top frame, its pointer at `at` relative to `base` */
    rc = std_header(v, at, base, stack[sp - 1].op->st, &q, lazy);
    if (rc == STD_REFUSED) return std_walk_failed(v, NULL, stack, sp);
    if (rc == STD_SHORT) goto next; /* an older schema's body: std_short_body checked it */
    b = q;
    op = stack[sp - 1].op->st->ptr_ops;
    continue;
  failed:
    return std_walk_failed(v, op, stack, sp);
  }
}

static int std_walk(verifier *v, const fbe_struct *st, uint64_t b) {
  return std_walk_inline(v, st, b, 0);
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

/* The budget of a model of `total` bytes. */
static inline int64_t first_budget(const fbe_limits *limits, uint32_t total) {
  uint64_t limit = fbei_limits_budget(limits, total);
  return limit > INT64_MAX ? INT64_MAX : (int64_t)limit;
}

/* The root struct, its slot at 4: lazy, in fbe_verify's first pass (see the two modes). */
static inline ALWAYS_INLINE int std_root(verifier *v, const fbe_struct *st, int lazy) {
  uint64_t b = 0;
  int rc = std_header(v, 4, 0, st, &b, lazy);
  return rc == STD_REFUSED ? -1 : rc == STD_SHORT ? 0 : std_walk_inline(v, st, b, lazy);
}

/* The exact walk again, after a lazy one that overdrew the budget: it refuses at the first
 * value over it, or (never, but as an exact walk would) refuses or passes as it does. */
static NOINLINE int std_again(verifier *v, const fbe_struct *st) {
  v->levels = fbei_limits_depth(v->limits);
  v->visits = 0;
  v->budget = first_budget(v->limits, (uint32_t)v->end);
  return charge(v, 0, st->root_cost) || std_root(v, st, 0) ? -1 : 0;
}

/* The model of v->end bytes (its size field) of the `size` given. */
static inline ALWAYS_INLINE int verify_standard(verifier *v, const fbe_struct *st, size_t size,
                                                int lazy) {
  if (size < 16) return fail(v, FBE_FAULT_FEW_BYTES_STANDARD, 0, U(size));
  if (v->end < 16) return fail(v, FBE_FAULT_MODEL_SMALL_STANDARD, 0, U(v->end));
  if (v->end > size) return fail(v, FBE_FAULT_MODEL_PAST_BUFFER, 0, U(v->end));
  if (charge(v, 0, st->root_cost)) return -1;
  int rc = std_root(v, st, lazy);
  if (lazy && v->budget < 0) rc = std_again(v, st);
  return rc;
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

/* The flag of an optional of a struct at *pos (t: the optional's type), *pos moved past
 * it: 0 absent, 1 present (one level entered), -1 refused. */
static inline ALWAYS_INLINE int fin_optional_open(verifier *v, const fbe_type *t, uint64_t *pos) {
  uint64_t at = *pos;
  if (at >= v->end) return fin_short(v, at, 1);
  *pos = ++at;
  if (!v->p[at - 1]) return 0;
  return enter(v, at, fbei_cost_optional(t)) ? -1 : 1;
}

/* An optional of a struct (t: the optional's type), by a call. */
static int fin_optional_struct(verifier *v, const fbe_type *t, const fbe_struct *st,
                               uint64_t *pos) {
  int rc = fin_optional_open(v, t, pos);
  if (rc <= 0) return rc;
  rc = fin_walk(v, st, pos);
  v->levels++;
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
  v->levels++;
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
  int rc;
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
      case FBE_CHECK_OPTIONAL_BLOBS:
        rc = fin_optional_open(v, op->type, (q = at, &q));
        at = q;
        if (rc < 0) goto failed;
        if (rc > 0) {
          if ((at = fin_blobs_struct(v, op->st, at)) == FIN_REFUSED) goto failed;
          v->levels++;
        }
        at += op->after;
        op++;
        continue;
      case FBE_CHECK_OPTIONAL_STRUCT:
        rc = fin_optional_open(v, op->type, (q = at, &q));
        at = q;
        if (rc < 0) goto failed;
        if (rc == 0) {
          at += op->after;
          op++;
          continue;
        }
        if (sp == FIN_FRAMES) {
          rc = fin_walk(v, op->st, (q = at, &q));
          at = q;
          v->levels++;
          if (rc) goto failed;
          at += op->after;
          op++;
          continue;
        }
        stack[sp++] = (fin_frame){op, 0, 0};
        at += op->st->final_lead;
        op = op->st->final_checks;
        continue;
      case FBE_CHECK_BLOBS_STRUCTS:
        if (fin_count(v, op->type, op->st, (q = at, &q), &n)) goto failed;
        at = q;
        for (uint32_t i = 0; i < n; i++) {
          if ((at = fin_blobs_struct(v, op->st, at)) == FIN_REFUSED) {
            fbei_error_prepend_index(v->err, i);
            goto failed;
          }
        }
        v->levels++;
        at += op->after;
        op++;
        continue;
      case FBE_CHECK_STRUCTS:
        if (fin_count(v, op->type, op->st, (q = at, &q), &n)) goto failed;
        at = q;
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
      case FBE_CHECK_STRUCT: case FBE_CHECK_BLOBS_STRUCT: case FBE_CHECK_VALUE: /* no structs */
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
        v->levels++;
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
      v->levels++;
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
        v->levels++;
        return 0;
      }
      for (uint32_t i = 0; i < n; i++) {
        if ((k && fin_value(v, k, pos)) || fin_value(v, t->elem, pos)) {
          fbei_error_prepend_index(v->err, i);
          return -1;
        }
      }
      v->levels++;
      return 0;
    }
    default:
      *pos += t->wire_size;
      return 0;
  }
}

/* The model of v->end bytes (its size field) of the `size` given. */
static inline ALWAYS_INLINE int verify_final(verifier *v, const fbe_struct *st, size_t size) {
  if (size < 8) return fail(v, FBE_FAULT_FEW_BYTES_FINAL, 0, U(size));
  uint64_t total = v->end, pos = 8;
  uint32_t type_id = fbe_load32(v->p + 4);
  if (total < 8) return fail(v, FBE_FAULT_MODEL_SMALL_FINAL, 0, U(total));
  if (total > size) return fail(v, FBE_FAULT_MODEL_PAST_BUFFER, 0, U(total));
  if (type_id != st->type_id)
    return fail(v, FBE_FAULT_TYPE_ID, 4, U(type_id), st->full_name, U(st->type_id));
  if (charge(v, 0, st->root_cost) || fin_walk_inline(v, st, &pos)) return -1; /* inline: the root */
  if (pos > total) return fin_short(v, total, pos - total);
  if (pos != total) return fail(v, FBE_FAULT_FIELDS_END, pos, U(total));
  if (v->budget < 0) return over_budget(v, 8); /* the strings (fin_blob) */
  return 0;
}

/* The checks before either model, the model's walk and the report (inlined: each entry
 * point pays no second call). */
static inline ALWAYS_INLINE fbe_status verify_model(const fbe_struct *type, fbe_model model,
                                                   const uint8_t *data, size_t size,
                                                   const fbe_limits *limits, size_t *model_size,
                                                   fbei_cost_report *report, fbe_error *err,
                                                   int lazy) {
  if (!type || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no type or data");
  uint64_t max_size = fbei_limits_size(limits);
  uint32_t total = size >= 4 ? fbe_load32(data) : 0; /* the model's size field */
  if (total > max_size) return fbei_fault_set(err, FBE_FAULT_MODEL_LIMIT, 0, U(total), U(max_size));
  int64_t budget = first_budget(limits, total);
  verifier v = {data, total, fbei_limits_depth(limits), budget, 0, limits, err, FBE_ERR_MALFORMED};
  int rc = model == FBE_MODEL_FINAL ? verify_final(&v, type, size)
                                    : verify_standard(&v, type, size, lazy);
  if (report) {
    report->charged = (uint64_t)(budget - v.budget);
    report->visits = v.visits;
  }
  if (rc) return v.status;
  if (model_size) *model_size = total;
  return FBE_OK;
}

/* fbe_verify of each model: in a function of its own, so that each has the frame and
 * registers its walk needs, with fbe_verify's arguments, in the same registers and stack
 * slot, so that fbe_verify calls them as a jump. The standard model is walked lazily (see
 * the two modes). */
static ENTRY fbe_status verify_final_model(const fbe_struct *type, fbe_model model,
                                           const uint8_t *data, size_t size,
                                           const fbe_limits *limits, size_t *model_size,
                                           fbe_error *err) {
  (void)model; /* FBE_MODEL_FINAL */
  return verify_model(type, FBE_MODEL_FINAL, data, size, limits, model_size, NULL, err, 0);
}

static ENTRY fbe_status verify_standard_model(const fbe_struct *type, fbe_model model,
                                              const uint8_t *data, size_t size,
                                              const fbe_limits *limits, size_t *model_size,
                                              fbe_error *err) {
  (void)model; /* not FBE_MODEL_FINAL */
  return verify_model(type, FBE_MODEL_STANDARD, data, size, limits, model_size, NULL, err, 1);
}

/* Exact in both models: the report counts the standard model's visits. */
fbe_status fbei_verify_report(const fbe_struct *type, fbe_model model, const uint8_t *data,
                             size_t size, const fbe_limits *limits, size_t *model_size,
                             fbei_cost_report *report, fbe_error *err) {
  return verify_model(type, model, data, size, limits, model_size, report, err, 0);
}

fbe_status fbe_verify(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                      const fbe_limits *limits, size_t *model_size, fbe_error *err) {
  if (model == FBE_MODEL_FINAL)
    return verify_final_model(type, model, data, size, limits, model_size, err);
  return verify_standard_model(type, model, data, size, limits, model_size, err);
}

/* ------------------------------------------------------------ one value (verify_at.h) */

fbe_status fbei_verify_at(const fbe_type *t, fbe_model model, const uint8_t *data, uint64_t end,
                          uint64_t at, uint64_t base, const fbe_limits *limits, fbe_error *err) {
  verifier v = {data, end, fbei_limits_depth(limits), first_budget(limits, (uint32_t)end), 0, limits, err,
                FBE_ERR_MALFORMED};
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
  return rc ? v.status : FBE_OK;
}

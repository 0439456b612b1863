/* Table-driven decoders for both wire models (FORMAT.md 5.10, 6.4). Every offset and
 * length read from the buffer is checked before use; missing fields of older writers
 * take their schema defaults (standard model). fbe_decode runs fbe_verify first;
 * fbe_decode_trusted is the decoder alone. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "fbe/codec.h"
#include "fbe/internal/cost.h"
#include "message/keys.h"
#include "wire/decode_at.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/error.h"
#include "fbe/internal/faults.h"
#include "fbe/internal/utf8.h"
#include "fbe/internal/value.h"
#include "fbe/internal/arena.h"

typedef struct decoder {
  const uint8_t *p;
  uint64_t end;      /* the model occupies [0, end) */
  fbe_arena *arena;
  uint32_t depth, max_depth;
  uint64_t budget;   /* bytes left of the memory budget (cost.h): bounds the output (and
                        the work) for hostile input, e.g. many pointers to one shared block;
                        charged exactly as verify.c charges */
  uint64_t limit;    /* the whole budget, for the error */
  const fbe_limits *limits;
  fbe_error *err;
  int check;         /* check strings (UTF-8) and decimals: verify has not (trusted decode) */
} decoder;

#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#else
#define COLD
#endif

/* Numbers go to the fault table's formats as unsigned long long. */
#define U(x) ((unsigned long long)(x))

COLD static int fail(decoder *d, fbei_fault fault, uint64_t offset, ...) {
  va_list ap;
  va_start(ap, offset);
  fbei_fault_vset(d->err, fault, (size_t)offset, ap);
  va_end(ap);
  return -1;
}

COLD static int oom(decoder *d, uint64_t offset) {
  fbei_error_set(d->err, FBE_ERR_NOMEM, (size_t)offset, "out of memory");
  return -1;
}

/* The end of a collection: a set or map keeps one entry per key (keys.c), as every
 * reader does. The budget was charged for all of them. */
static inline int end_collection(decoder *d, const fbe_type *t, fbei_vec *vec, uint64_t offset) {
  d->depth--;
  if ((t->kind == FBE_KIND_SET || t->wire == FBE_KIND_MAP) && fbei_keys_dedup(t, vec)) return oom(d, offset);
  return 0;
}

COLD static int limit_error(decoder *d, uint64_t offset, int depth) {
  if (depth) return fail(d, FBE_FAULT_TOO_DEEP, offset, U(d->max_depth));
  return fail(d, FBE_FAULT_OVER_BUDGET, offset, U(d->limit));
}

/* Takes `bytes` from the memory budget. */
static inline int charge(decoder *d, uint64_t offset, uint64_t bytes) {
  if (bytes > d->budget) return limit_error(d, offset, 0);
  d->budget -= bytes;
  return 0;
}

/* Optionals and collections are where schemas recurse: they count as one level. */
static inline int enter(decoder *d, uint64_t offset, uint64_t bytes) {
  if (++d->depth > d->max_depth) return limit_error(d, offset, 1);
  return charge(d, offset, bytes);
}

/* Resolves the pointer at `slot` (relative to `base`); the target must hold `need` bytes
 * inside the model and lie after the slot. */
static inline int follow(decoder *d, uint64_t slot, uint64_t base, uint64_t need, uint64_t *out) {
  fbe_reader r = {d->p, d->end};
  if (!fbe_std_target(&r, slot, base, need, out)) return 0;
  uint32_t pointer = fbe_load32(d->p + slot);
  fbei_fault_bad_pointer(d->err, slot, pointer, base + pointer);
  return -1;
}

/* Copies n bytes at `at` (the data of a string or bytes, inside the model) into the
 * arena. */
static inline int copy_blob(decoder *d, uint64_t at, uint32_t n, fbei_str *out) {
  if (charge(d, at, fbei_cost_bytes(n))) return -1;
  uint8_t *copy = NULL;
  if (n) {
    if (!(copy = fbei_arena_alloc_inline(d->arena, n))) return oom(d, at);
    if (n <= 16) fbe_copy_small(copy, d->p + at, n); /* most strings: no libc call */
    else memcpy(copy, d->p + at, n);
  }
  out->data = copy;
  out->size = n;
  return 0;
}

COLD static int bad_text(decoder *d, uint64_t at, uint32_t n, size_t bad) {
  fbei_utf8_error(d->err, FBE_ERR_MALFORMED, (size_t)at, d->p + at, n, bad);
  return -1;
}

/* A string's n bytes at `at` must be UTF-8 (fbe_utf8_check's rule) when d->check;
 * ASCII is checked inline. */
static inline int check_text(decoder *d, uint64_t at, uint32_t n) {
  if (!d->check || fbei_utf8_ascii(d->p + at, n)) return 0;
  size_t ok = fbei_utf8_valid_prefix(d->p + at, n);
  return ok == n ? 0 : bad_text(d, at, n, ok);
}

COLD static int bad_decimal(decoder *d, uint64_t at) {
  fbei_decimal_error(d->err, (size_t)at, d->p + at);
  return -1;
}

/* Storage for n elements of `size` bytes, left for the caller to fill. */
static inline int alloc_items(decoder *d, fbei_vec *vec, uint32_t n, uint32_t size, uint64_t at) {
  vec->count = vec->cap = n;
  vec->data = NULL;
  if (n && !(vec->data = fbei_arena_alloc_inline(d->arena, (size_t)n * size))) return oom(d, at);
  return 0;
}

/* Scalars share one layout in both models: little-endian of the slot's width. */
static void load_scalar(fbe_kind wire, const uint8_t *src, uint8_t *out) {
  switch (wire) {
    case FBE_KIND_BOOL: *out = *src != 0; break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      *out = *src; break;
    case FBE_KIND_INT16: case FBE_KIND_UINT16: *(uint16_t *)(void *)out = fbe_load16(src); break;
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_FLOAT:
      *(uint32_t *)(void *)out = fbe_load32(src); break;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_DOUBLE: case FBE_KIND_TIMESTAMP:
      *(uint64_t *)(void *)out = fbe_load64(src); break;
    default: memcpy(out, src, 16); break; /* decimal, uuid */
  }
}

/* ------------------------------------------------------------ standard model */

static int std_struct(decoder *d, const fbe_struct *st, uint64_t slot, uint64_t base,
                      uint8_t *out);

/* A struct field whose data is absent takes its default from the struct's image. */
static int field_default(decoder *d, const fbe_field *f, const uint8_t *image, uint8_t *out,
                         uint64_t at) {
  const fbe_type *t = f->type;
  if (charge(d, at, f->default_cost)) return -1;
  memcpy(out, image, t->mem_size);
  if (f->def.kind >= FBE_DEF_UTC) {
    if (fbei_field_dynamic_default(f, out, d->arena)) return oom(d, at);
  } else if (t->kind == FBE_KIND_STRUCT && t->st->dynamic_defaults) {
    if (fbei_struct_apply_dynamic_defaults(t->st, out, 0, t->st->nfields, d->arena))
      return oom(d, at);
  }
  return 0;
}

/* Why fbe_std_read_sequence refused a slot: its pointer, or its element count. */
COLD static int bad_sequence(decoder *d, uint64_t slot, uint64_t base) {
  uint64_t at = 0;
  if (follow(d, slot, base, 4, &at)) return -1;
  return fail(d, FBE_FAULT_ELEMENTS, at, U(fbe_load32(d->p + at)), "model");
}

/* Why fbe_std_read_blob refused a slot: its pointer or its size. */
COLD static int blob_error(decoder *d, uint64_t slot, uint64_t base) {
  uint64_t at = 0;
  if (follow(d, slot, base, 4, &at)) return -1;
  return fail(d, FBE_FAULT_SIZE_PAST_END, at, U(fbe_load32(d->p + at)), "model");
}

/* text: a string, else bytes. */
static inline int std_blob(decoder *d, uint64_t slot, uint64_t base, fbei_str *out, int text) {
  fbe_reader r = {d->p, d->end};
  const uint8_t *data;
  uint32_t n;
  if (fbe_std_read_blob(&r, slot, base, &data, &n)) return blob_error(d, slot, base);
  uint64_t at = (uint64_t)(data - d->p);
  if (text && check_text(d, at, n)) return -1;
  return copy_blob(d, at, n, out);
}

/* Decodes the value whose slot is at `slot` into out (uninitialised memory). For a
 * struct field, f and its default `image` are given: absent data (a null pointer, a
 * null optional) reads as that default (FORMAT.md 5.10); elsewhere as empty/null. */
static int std_value(decoder *d, const fbe_type *t, uint64_t slot, uint64_t base, uint8_t *out,
                     const fbe_field *f, const uint8_t *image) {
  uint64_t at = 0;
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      if (fbe_load32(d->p + slot) == 0) {
        if (f) return field_default(d, f, image, out, slot);
        memset(out, 0, sizeof(fbei_str));
        return 0;
      }
      return std_blob(d, slot, base, (fbei_str *)(void *)out, t->wire == FBE_KIND_STRING);
    case FBE_KIND_STRUCT:
      if (fbe_load32(d->p + slot) == 0) { /* the reference reads a default struct */
        if (f) return field_default(d, f, image, out, slot);
        if (charge(d, slot, t->st->default_cost)) return -1;
        return fbei_struct_init(t->st, out, d->arena) ? oom(d, slot) : 0;
      }
      return std_struct(d, t->st, slot, base, out);
    case FBE_KIND_OPTIONAL: {
      if (d->p[slot] == 0 || fbe_load32(d->p + slot + 1) == 0) {
        if (f) return field_default(d, f, image, out, slot);
        *(void **)(void *)out = NULL;
        return 0;
      }
      if (follow(d, slot + 1, base, t->elem->wire_size, &at) || enter(d, at, fbei_cost_optional(t)))
        return -1;
      uint8_t *value = fbei_arena_alloc_inline(d->arena, t->elem->mem_size);
      if (!value) return oom(d, at);
      if (t->elem->wire == FBE_KIND_STRUCT && fbe_load32(d->p + at)
              ? std_struct(d, t->elem->st, at, at, value)
              : std_value(d, t->elem, at, at, value, NULL, NULL))
        return -1;
      *(void **)(void *)out = value;
      d->depth--;
      return 0;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++) {
        if (std_value(d, t->elem, slot + (uint64_t)i * t->elem->wire_size, base,
                      out + (size_t)i * t->elem->mem_size, NULL, NULL)) {
          fbei_error_prepend_index(d->err, i);
          return -1;
        }
      }
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      fbei_vec *vec = (fbei_vec *)(void *)out;
      memset(vec, 0, sizeof *vec);
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint64_t stride = (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0);
      uint32_t mem = k ? t->pair_stride : t->elem->mem_size;
      fbe_reader r = {d->p, d->end};
      uint32_t n = 0;
      if (fbe_load32(d->p + slot) == 0) return 0; /* reads as empty */
      if (fbe_std_read_sequence(&r, slot, base, stride, &at, &n)) return bad_sequence(d, slot, base);
      if (enter(d, at - 4, fbei_cost_sequence(t, n)) || alloc_items(d, vec, n, mem, at - 4)) return -1;
      if (!k && t->elem->copyable) {
        if (n) memcpy(vec->data, d->p + at, (size_t)stride * n);
        return end_collection(d, t, vec, at);
      }
      uint8_t *item = vec->data;
      for (uint32_t i = 0; i < n; i++, item += mem) {
        uint64_t src = at + i * stride;
        if (!k && t->elem->wire == FBE_KIND_STRUCT && fbe_load32(d->p + src)) {
          /* the common case, without a dispatch */
          if (std_struct(d, t->elem->st, src, base, item)) {
            fbei_error_prepend_index(d->err, i);
            return -1;
          }
          continue;
        }
        if ((k && std_value(d, k, src, base, item, NULL, NULL)) ||
            std_value(d, t->elem, src + (k ? k->wire_size : 0), base,
                      item + (k ? t->pair_value_offset : 0), NULL, NULL)) {
          fbei_error_prepend_index(d->err, i);
          return -1;
        }
      }
      return end_collection(d, t, vec, at);
    }
    case FBE_KIND_DECIMAL:
      if (d->check && fbei_decimal_bad(d->p + slot)) return bad_decimal(d, slot);
      memcpy(out, d->p + slot, 16);
      return 0;
    default:
      load_scalar(t->wire, d->p + slot, out);
      return 0;
  }
}

/* A body written by an older schema: the fields that fit are read, the others (and the
 * whole inherited part when it does not fit) keep their defaults (charged as read). */
static int std_short_body(decoder *d, const fbe_struct *st, uint64_t b, uint32_t size, uint8_t *out) {
  memcpy(out, st->defaults, st->mem_size);
  uint32_t first = st->base_body_size <= size ? 0 : st->ninherited;
  uint32_t i = first;
  for (; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    if (f->wire_offset + f->type->wire_size > size) break;
    if (std_value(d, f->type, b + f->wire_offset, b, out + f->mem_offset, f,
                  (const uint8_t *)st->defaults + f->mem_offset)) {
      fbei_error_prepend_field(d->err, f->name);
      return -1;
    }
  }
  if (charge(d, b, fbei_cost_defaults(st, 0, first) + fbei_cost_defaults(st, i, st->nfields)))
    return -1;
  if (st->dynamic_defaults && (fbei_struct_apply_dynamic_defaults(st, out, 0, first, d->arena) ||
                               fbei_struct_apply_dynamic_defaults(st, out, i, st->nfields, d->arena)))
    return oom(d, b);
  return 0;
}

static int std_body(decoder *d, const fbe_struct *st, uint64_t b, uint8_t *out);

static int std_struct(decoder *d, const fbe_struct *st, uint64_t slot, uint64_t base,
                      uint8_t *out) {
  uint64_t b = 0;
  if (follow(d, slot, base, 8, &b)) return -1; /* its cost was charged with its holder */
  return std_body(d, st, b, out);
}

/* The struct body at b (its size, then its fields). */
static int std_body(decoder *d, const fbe_struct *st, uint64_t b, uint8_t *out) {
  uint32_t size = fbe_load32(d->p + b);
  if (size < 8) return fail(d, FBE_FAULT_STRUCT_SMALL, b, U(size));
  if (size > d->end - b) return fail(d, FBE_FAULT_STRUCT_PAST_END, b, U(size), "model");
  if (size < st->body_size) return std_short_body(d, st, b, size, out);
  const uint8_t *image = st->defaults;
  for (const fbei_op *op = st->ops, *end = op + st->nops; op < end; op++) {
    uint64_t at = b + op->wire_offset;
    uint8_t *to = out + op->mem_offset;
    int rc = 0;
    switch (op->code) {
      FBE_OP_COPY_CASES(to, d->p + at, op)
      case FBE_OP_BOOL: *to = d->p[at] != 0; break;
      case FBE_OP_BLOB:
        rc = fbe_load32(d->p + at) ? std_blob(d, at, b, (fbei_str *)(void *)to,
                                              op->field->type->wire == FBE_KIND_STRING)
                                   : field_default(d, op->field, image + op->mem_offset, to, at);
        break;
      default:
        rc = std_value(d, op->field->type, at, b, to, op->field, image + op->mem_offset);
        break;
    }
    if (rc) {
      fbei_error_prepend_field(d->err, op->path);
      return -1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------ final model */

static int fin_value(decoder *d, const fbe_type *t, uint64_t *pos, uint8_t *out);

static int fin_need(decoder *d, uint64_t pos, uint64_t n) {
  if (n > d->end - pos) return fail(d, FBE_FAULT_BYTES_PAST_END, pos, U(n), "model");
  return 0;
}

/* `after`: bytes of fixed steps that follow and are checked here too. */
/* Why fbe_fin_read_blob refused the value at pos: no room for its length, or its size. */
COLD static int fin_blob_error(decoder *d, uint64_t pos) {
  if (fin_need(d, pos, 4)) return -1;
  return fail(d, FBE_FAULT_SIZE_PAST_END, pos, U(fbe_load32(d->p + pos)), "model");
}

/* text: a string, else bytes. */
static inline int fin_blob(decoder *d, uint64_t *pos, uint8_t *out, uint32_t after, int text) {
  fbe_reader r = {d->p, d->end};
  const uint8_t *data;
  uint32_t n;
  uint64_t at = *pos;
  if (fbe_fin_read_blob(&r, pos, &data, &n)) return fin_blob_error(d, at);
  if (text && check_text(d, at + 4, n)) return -1;
  if (copy_blob(d, at + 4, n, (fbei_str *)(void *)out)) return -1;
  return after ? fin_need(d, *pos, after) : 0;
}

static int fin_struct(decoder *d, const fbe_struct *st, uint64_t *pos, uint8_t *out) {
  for (const fbei_op *op = st->final_ops, *end = op + st->nfinal_ops; op < end; op++) {
    uint8_t *to = out + op->mem_offset;
    int rc;
    if (FBE_OP_IS_FIXED(op->code)) {
      if (!op->room || (rc = fin_need(d, *pos, op->room)) == 0) {
        const uint8_t *from = d->p + *pos;
        switch (op->code) {
          FBE_OP_COPY_CASES(to, from, op)
          default: *to = *from != 0; break; /* bool */
        }
        *pos += op->size;
        continue;
      }
    } else {
      rc = op->code == FBE_OP_BLOB ? fin_blob(d, pos, to, op->room - 4,
                                              op->field->type->wire == FBE_KIND_STRING)
                                   : fin_value(d, op->field->type, pos, to);
    }
    if (rc) {
      fbei_error_prepend_field(d->err, op->path);
      return -1;
    }
  }
  return 0;
}

static int fin_value(decoder *d, const fbe_type *t, uint64_t *pos, uint8_t *out) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return fin_blob(d, pos, out, 0, t->wire == FBE_KIND_STRING);
    case FBE_KIND_STRUCT: return fin_struct(d, t->st, pos, out);
    case FBE_KIND_OPTIONAL: {
      if (fin_need(d, *pos, 1)) return -1;
      if (!d->p[(*pos)++]) {
        *(void **)(void *)out = NULL;
        return 0;
      }
      uint8_t *value = fbei_arena_alloc_inline(d->arena, t->elem->mem_size);
      if (!value) return oom(d, *pos);
      if (enter(d, *pos, fbei_cost_optional(t)) ||
          (t->elem->wire == FBE_KIND_STRUCT ? fin_struct(d, t->elem->st, pos, value)
                                            : fin_value(d, t->elem, pos, value)))
        return -1;
      d->depth--;
      *(void **)(void *)out = value;
      return 0;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++) {
        if (fin_value(d, t->elem, pos, out + (size_t)i * t->elem->mem_size)) {
          fbei_error_prepend_index(d->err, i);
          return -1;
        }
      }
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      fbei_vec *vec = (fbei_vec *)(void *)out;
      memset(vec, 0, sizeof *vec);
      if (fin_need(d, *pos, 4)) return -1;
      uint32_t n = fbe_load32(d->p + *pos);
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint64_t least = (uint64_t)t->elem->final_min + (k ? k->final_min : 0);
      uint32_t mem = k ? t->pair_stride : t->elem->mem_size;
      if (least * n > d->end - *pos - 4)
        return fail(d, FBE_FAULT_ELEMENTS, *pos, U(n), "model");
      if (enter(d, *pos, fbei_cost_sequence(t, n)) || alloc_items(d, vec, n, mem, *pos)) return -1;
      *pos += 4;
      if (!k && t->elem->copyable) { /* least == the exact size, checked above */
        if (n) memcpy(vec->data, d->p + *pos, (size_t)least * n);
        *pos += least * n;
        return end_collection(d, t, vec, *pos);
      }
      uint8_t *item = vec->data;
      for (uint32_t i = 0; i < n; i++, item += mem) {
        if (!k && t->elem->wire == FBE_KIND_STRUCT) { /* the common case, without a dispatch */
          if (fin_struct(d, t->elem->st, pos, item)) {
            fbei_error_prepend_index(d->err, i);
            return -1;
          }
          continue;
        }
        if ((k && fin_value(d, k, pos, item)) ||
            fin_value(d, t->elem, pos, item + (k ? t->pair_value_offset : 0))) {
          fbei_error_prepend_index(d->err, i);
          return -1;
        }
      }
      return end_collection(d, t, vec, *pos);
    }
    default:
      if (fin_need(d, *pos, t->wire_size)) return -1;
      if (t->wire == FBE_KIND_DECIMAL && d->check && fbei_decimal_bad(d->p + *pos)) return bad_decimal(d, *pos);
      load_scalar(t->wire, d->p + *pos, out);
      *pos += t->wire_size;
      return 0;
  }
}

/* ------------------------------------------------------------ entry point */

/* The model header. The root type id is checked in the final model only: in the
 * standard model a reader of another version may read a sibling type (FORMAT.md 8,
 * as the reference does: fbe_decode_trusted); fbe_verify, and so fbe_decode, check it
 * there. */
static int check_root(decoder *d, const fbe_struct *st, fbe_model model, size_t size, uint32_t min,
                      uint32_t *total, uint64_t type_at) {
  int final = model == FBE_MODEL_FINAL;
  if (size < min) return fail(d, final ? FBE_FAULT_FEW_BYTES_FINAL : FBE_FAULT_FEW_BYTES_STANDARD, 0, U(size));
  *total = fbe_load32(d->p);
  if (*total < min)
    return fail(d, final ? FBE_FAULT_MODEL_SMALL_FINAL : FBE_FAULT_MODEL_SMALL_STANDARD, 0, U(*total));
  if (*total > size) return fail(d, FBE_FAULT_MODEL_PAST_BUFFER, 0, U(*total));
  if (type_at + 4 > *total) return fail(d, FBE_FAULT_ROOT_OUTSIDE, 4);
  uint32_t type_id = fbe_load32(d->p + type_at);
  if (final && type_id != st->type_id)
    return fail(d, FBE_FAULT_TYPE_ID, type_at, U(type_id), st->full_name, U(st->type_id));
  d->end = *total;
  d->budget = d->limit = fbei_limits_budget(d->limits, *total);
  return charge(d, 0, fbei_cost_root(st));
}

/* check: the strings and decimals too (verify has not looked at them). */
static fbe_status decode_model(const fbe_struct *type, fbe_model model, const uint8_t *data,
                               size_t size, fbe_arena *arena, const fbe_limits *limits, fbe_msg **out,
                               size_t *model_size, fbei_cost_report *report, fbe_error *err, int check) {
  fbe_error local;
  if (!err) err = &local;
  if (!type || !arena || !out || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "missing type, arena, output or data");
  *out = NULL;
  uint64_t max_size = fbei_limits_size(limits);
  if (size >= 4 && fbe_load32(data) > max_size)
    return fbei_fault_set(err, FBE_FAULT_MODEL_LIMIT, 0, U(fbe_load32(data)), U(max_size));
  decoder d = {data, 0, arena, 0, fbei_limits_depth(limits), 0, 0, limits, err, check};
  fbe_msg *msg = fbei_arena_alloc_inline(arena, sizeof(fbe_msg) + type->mem_size);
  if (!msg) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  msg->type = type;
  msg->arena = arena;
  uint8_t *value = fbei_msg_data(msg);
  uint32_t total;
  int rc;
  if (model == FBE_MODEL_FINAL) {
    rc = check_root(&d, type, model, size, 8, &total, 4);
    uint64_t pos = 8;
    if (!rc) rc = fin_struct(&d, type, &pos, value);
  } else {
    rc = size < 8 ? fail(&d, FBE_FAULT_FEW_BYTES_STANDARD, 0, U(size))
                  : check_root(&d, type, model, size, 16, &total, (uint64_t)fbe_load32(data + 4) + 4);
    if (!rc) rc = std_struct(&d, type, 4, 0, value);
  }
  if (report) {
    report->charged = d.limit - d.budget;
    report->visits = 0;
  }
  if (rc) return err->code;
  *out = msg;
  if (model_size) *model_size = total;
  return FBE_OK;
}

/* Trusted bytes still get the string and decimal rules: no binding ever sees a string
 * that is not UTF-8 or a decimal it could not write again. */
fbe_status fbe_decode_trusted(const fbe_struct *type, fbe_model model, const uint8_t *data,
                              size_t size, fbe_arena *arena, const fbe_limits *limits, fbe_msg **out,
                              size_t *model_size, fbe_error *err) {
  return decode_model(type, model, data, size, arena, limits, out, model_size, NULL, err, 1);
}

fbe_status fbei_decode_trusted_report(const fbe_struct *type, fbe_model model, const uint8_t *data,
                                     size_t size, fbe_arena *arena, const fbe_limits *limits,
                                     fbe_msg **out, size_t *model_size, fbei_cost_report *report,
                                     fbe_error *err) {
  return decode_model(type, model, data, size, arena, limits, out, model_size, report, err, 1);
}

/* The default: nothing verify refuses is decoded, and its error is verify's. */
fbe_status fbe_decode(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                      fbe_arena *arena, const fbe_limits *limits, fbe_msg **out,
                      size_t *model_size, fbe_error *err) {
  fbe_error local;
  if (!err) err = &local;
  if (!type || !arena || !out || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "missing type, arena, output or data");
  *out = NULL;
  fbe_status rc = fbe_verify(type, model, data, size, limits, NULL, err);
  if (rc) return rc;
  return decode_model(type, model, data, size, arena, limits, out, model_size, NULL, err, 0);
}

/* One value inside a verified model, at a view's position (view.c): a struct at its
 * body (standard) or first field (final), anything else at its slot. Decoded exactly as
 * the whole message would decode it, without the checks verify made. */
fbe_status fbei_decode_at(const fbe_type *t, fbe_model model, const uint8_t *data, uint64_t end,
                          uint64_t at, uint64_t base, fbe_arena *arena, const fbe_limits *limits,
                          void *out, fbe_error *err) {
  decoder d = {data, end, arena, 0, fbei_limits_depth(limits), 0, 0, limits, err, 0};
  d.budget = d.limit = fbei_limits_budget(limits, end);
  uint8_t *to = out;
  int rc;
  if (model == FBE_MODEL_FINAL) {
    uint64_t pos = at;
    rc = t->wire == FBE_KIND_STRUCT ? fin_struct(&d, t->st, &pos, to) : fin_value(&d, t, &pos, to);
  } else {
    rc = t->wire == FBE_KIND_STRUCT ? std_body(&d, t->st, at, to) : std_value(&d, t, at, base, to, NULL, NULL);
  }
  return rc ? err->code : FBE_OK;
}

/* Table-driven encoders for both wire models (FORMAT.md 5.9 and 6.3). */
#include <string.h>
#include "fbe/codec.h"
#include "endian.h"
#include "error_internal.h"
#include "value.h"

enum { FAIL_NOMEM = 1, FAIL_TOO_LARGE = 2, FAIL_TOO_DEEP = 3 };

#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define COLD
#define ALWAYS_INLINE
#endif

typedef struct encoder {
  fbe_buffer *out;
  size_t start;  /* position of the model in out */
  int failed;    /* FAIL_NOMEM, FAIL_TOO_LARGE or FAIL_TOO_DEEP once something failed */
  uint32_t depth; /* nesting through optionals and collections */
} encoder;

/* Optionals and collections are where values recurse; beyond the decoders' default
 * depth the value could not be read back, and the recursion would risk the stack. */
static inline int enter(encoder *e) {
  if (++e->depth <= FBE_DEFAULT_MAX_DEPTH) return 0;
  e->failed = FAIL_TOO_DEEP;
  return -1;
}

/* Grows the buffer by n bytes; returns the position of the first, or 0 on failure
 * (0 is never a valid block position: the model header comes first). The bytes are
 * not cleared: every encoder step writes each byte of the slots it owns. */
static inline size_t alloc_block(encoder *e, size_t n) {
  fbe_buffer *out = e->out;
  if (out->size - e->start + n > UINT32_MAX) {
    e->failed = FAIL_TOO_LARGE;
    return 0;
  }
  if (n > out->capacity - out->size && fbe_buffer_reserve(out, n)) {
    e->failed = FAIL_NOMEM;
    return 0;
  }
  size_t pos = out->size;
  out->size += n;
  return pos;
}

/* ------------------------------------------------------------ standard model */

static void std_struct(encoder *e, size_t slot, size_t base, const fbe_struct *st, const uint8_t *v);

static inline void std_blob(encoder *e, size_t slot, size_t base, const fbe_str *s) {
  size_t d = alloc_block(e, 4 + (size_t)s->size);
  if (!d) return;
  uint8_t *p = e->out->data;
  fbe_store32(p + slot, (uint32_t)(d - base));
  fbe_store32(p + d, s->size);
  if (s->size <= 16) fbe_copy_small(p + d + 4, s->data, s->size); /* most strings: no libc call */
  else memcpy(p + d + 4, s->data, s->size);
}

static void std_value(encoder *e, const fbe_type *t, size_t slot, size_t base, const uint8_t *v) {
  switch (t->wire) {
    case FBE_KIND_BOOL: e->out->data[slot] = *v != 0; break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      e->out->data[slot] = *v; break;
    case FBE_KIND_INT16: case FBE_KIND_UINT16:
      fbe_store16(e->out->data + slot, *(const uint16_t *)v); break;
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_FLOAT:
      fbe_store32(e->out->data + slot, *(const uint32_t *)v); break;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_DOUBLE: case FBE_KIND_TIMESTAMP:
      fbe_store64(e->out->data + slot, *(const uint64_t *)v); break;
    case FBE_KIND_DECIMAL: case FBE_KIND_UUID: memcpy(e->out->data + slot, v, 16); break;
    case FBE_KIND_STRING: case FBE_KIND_BYTES: std_blob(e, slot, base, (const fbe_str *)v); break;
    case FBE_KIND_STRUCT: std_struct(e, slot, base, t->st, v); break;
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)v;
      if (!inner) { /* flag 0, pointer 0 */
        memset(e->out->data + slot, 0, 5);
        break;
      }
      size_t s = alloc_block(e, t->elem->wire_size);
      if (!s || enter(e)) return;
      e->out->data[slot] = 1;
      fbe_store32(e->out->data + slot + 1, (uint32_t)(s - base));
      std_value(e, t->elem, s, s, inner); /* the value slot becomes the base */
      e->depth--;
      break;
    }
    case FBE_KIND_ARRAY: {
      const fbe_type *el = t->elem;
      for (uint32_t i = 0; i < t->array_size && !e->failed; i++)
        std_value(e, el, slot + (size_t)i * el->wire_size, base, v + (size_t)i * el->mem_size);
      break;
    }
    case FBE_KIND_VECTOR: {
      const fbe_vec *vec = (const fbe_vec *)v;
      const fbe_type *el = t->elem;
      size_t d = alloc_block(e, 4 + (size_t)vec->count * el->wire_size);
      if (!d || enter(e)) return;
      fbe_store32(e->out->data + slot, (uint32_t)(d - base));
      fbe_store32(e->out->data + d, vec->count);
      if (el->copyable) {
        if (vec->count) memcpy(e->out->data + d + 4, vec->data, (size_t)vec->count * el->wire_size);
      } else {
        const uint8_t *item = vec->data;
        for (uint32_t i = 0; i < vec->count && !e->failed; i++, item += el->mem_size)
          std_value(e, el, d + 4 + (size_t)i * el->wire_size, base, item);
      }
      e->depth--;
      break;
    }
    case FBE_KIND_MAP: {
      const fbe_vec *vec = (const fbe_vec *)v;
      const fbe_type *k = t->key, *val = t->elem;
      size_t stride = (size_t)k->wire_size + val->wire_size;
      size_t d = alloc_block(e, 4 + (size_t)vec->count * stride);
      if (!d || enter(e)) return;
      fbe_store32(e->out->data + slot, (uint32_t)(d - base));
      fbe_store32(e->out->data + d, vec->count);
      const uint8_t *pair = vec->data;
      for (uint32_t i = 0; i < vec->count && !e->failed; i++, pair += t->pair_stride) {
        size_t at = d + 4 + (size_t)i * stride;
        std_value(e, k, at, base, pair);
        std_value(e, val, at + k->wire_size, base, pair + t->pair_value_offset);
      }
      e->depth--;
      break;
    }
    default: break;
  }
}

static void std_struct(encoder *e, size_t slot, size_t base, const fbe_struct *st, const uint8_t *v) {
  size_t b = alloc_block(e, st->body_size);
  if (!b) return;
  uint8_t *p = e->out->data;
  fbe_store32(p + slot, (uint32_t)(b - base));
  fbe_store32(p + b, st->body_size);
  fbe_store32(p + b + 4, st->type_id);
  for (const fbe_op *op = st->ops, *end = op + st->nops; op < end; op++) {
    size_t at = b + op->wire_offset;
    const uint8_t *from = v + op->mem_offset;
    switch (op->code) {
      FBE_OP_COPY_CASES(e->out->data + at, from, op)
      case FBE_OP_BOOL: e->out->data[at] = *from != 0; break;
      case FBE_OP_BLOB: std_blob(e, at, b, (const fbe_str *)from); break;
      case FBE_OP_STRUCT: std_struct(e, at, b, op->field->type->st, from); break;
      default: std_value(e, op->field->type, at, b, from); break;
    }
  }
}

/* ------------------------------------------------------------ final model */

/* A single forward pass through a bare cursor `w` (returned by every step, so it stays
 * in a register); room is checked per step against `limit` and the buffer grows in a
 * cold path. A step returns NULL once growing failed. */

typedef struct fin_writer {
  encoder *e;
  const uint8_t *limit; /* end of the buffer's capacity */
} fin_writer;

COLD static uint8_t *fin_grow(fin_writer *fw, uint8_t *w, size_t n) {
  fbe_buffer *out = fw->e->out;
  size_t used = (size_t)(w - out->data);
  if (used - fw->e->start + n > UINT32_MAX) {
    fw->e->failed = FAIL_TOO_LARGE;
    return NULL;
  }
  out->size = used;
  if (fbe_buffer_reserve(out, n)) {
    fw->e->failed = FAIL_NOMEM;
    return NULL;
  }
  fw->limit = out->data + out->capacity;
  return out->data + used;
}

static inline uint8_t *fin_room(fin_writer *fw, uint8_t *w, size_t n) {
  return (size_t)(fw->limit - w) >= n ? w : fin_grow(fw, w, n);
}

static uint8_t *fin_write(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w);
static uint8_t *fin_write_struct(fin_writer *fw, const fbe_struct *st, const uint8_t *v, uint8_t *w);

/* `room`: bytes to make sure of besides the data (the length, and fixed steps after it). */
static inline uint8_t *fin_blob(fin_writer *fw, const fbe_str *s, uint8_t *w, size_t room) {
  if (!(w = fin_room(fw, w, room + (size_t)s->size))) return NULL;
  fbe_store32(w, s->size);
  if (s->size <= 16) fbe_copy_small(w + 4, s->data, s->size);
  else memcpy(w + 4, s->data, s->size);
  return w + 4 + s->size;
}

static uint8_t *fin_optional(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w);
static uint8_t *fin_sequence(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w);

/* The steps of one struct. Inlined into the callers that loop over structs (sequence
 * elements, optionals, the root) so that a struct costs no call of its own. */
static inline ALWAYS_INLINE uint8_t *fin_steps(fin_writer *fw, const fbe_struct *st,
                                               const uint8_t *v, uint8_t *w) {
  for (const fbe_op *op = st->final_ops, *end = op + st->nfinal_ops; op < end; op++) {
    const uint8_t *from = v + op->mem_offset;
    /* a fixed step checks the room of its whole run (op->room) when it heads one */
#define FIXED_STEP(code, n, store)                                   \
  case code:                                                         \
    if (op->room && !(w = fin_room(fw, w, op->room))) return NULL;   \
    store;                                                           \
    w += (n);                                                        \
    continue;
    switch (op->code) {
      FIXED_STEP(FBE_OP_COPY1, 1, *w = *from)
      FIXED_STEP(FBE_OP_COPY2, 2, memcpy(w, from, 2))
      FIXED_STEP(FBE_OP_COPY4, 4, memcpy(w, from, 4))
      FIXED_STEP(FBE_OP_COPY8, 8, memcpy(w, from, 8))
      FIXED_STEP(FBE_OP_COPYN, op->size, fbe_copy_small(w, from, op->size))
      FIXED_STEP(FBE_OP_BOOL, 1, *w = *from != 0)
      case FBE_OP_BLOB: w = fin_blob(fw, (const fbe_str *)from, w, op->room); break;
      case FBE_OP_OPTIONAL: w = fin_optional(fw, op->field->type, from, w); break;
      case FBE_OP_SEQUENCE: w = fin_sequence(fw, op->field->type, from, w); break;
      default: w = fin_write(fw, op->field->type, from, w); break;
    }
#undef FIXED_STEP
    if (!w) return NULL;
  }
  return w;
}

static uint8_t *fin_write_struct(fin_writer *fw, const fbe_struct *st, const uint8_t *v, uint8_t *w) {
  return fin_steps(fw, st, v, w);
}

static uint8_t *fin_optional(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w) {
  const uint8_t *inner = *(const uint8_t *const *)v;
  if (!(w = fin_room(fw, w, 1))) return NULL;
  *w++ = inner != NULL;
  if (!inner) return w;
  if (enter(fw->e)) return NULL;
  w = t->elem->wire == FBE_KIND_STRUCT ? fin_steps(fw, t->elem->st, inner, w)
                                       : fin_write(fw, t->elem, inner, w);
  fw->e->depth--;
  return w;
}

/* vector, list, set, map, hash */
static uint8_t *fin_sequence(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w) {
  const fbe_vec *vec = (const fbe_vec *)v;
  const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
  size_t bulk = !k && t->elem->copyable ? (size_t)vec->count * t->elem->wire_size : 0;
  if (!(w = fin_room(fw, w, 4 + bulk))) return NULL;
  fbe_store32(w, vec->count);
  w += 4;
  if (!k && t->elem->copyable) {
    if (bulk) memcpy(w, vec->data, bulk);
    return w + bulk;
  }
  if (enter(fw->e)) return NULL;
  uint32_t stride = k ? t->pair_stride : t->elem->mem_size;
  const uint8_t *item = vec->data, *last = vec->count ? item + (size_t)vec->count * stride : item;
  if (!k && t->elem->wire == FBE_KIND_STRUCT) { /* the common case, without a dispatch */
    for (; item < last && w; item += stride) w = fin_steps(fw, t->elem->st, item, w);
  } else {
    for (; item < last && w; item += stride) {
      if (k) w = fin_write(fw, k, item, w);
      if (w) w = fin_write(fw, t->elem, item + (k ? t->pair_value_offset : 0), w);
    }
  }
  fw->e->depth--;
  return w;
}

static uint8_t *fin_write(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return fin_blob(fw, (const fbe_str *)v, w, 4);
    case FBE_KIND_STRUCT: return fin_write_struct(fw, t->st, v, w);
    case FBE_KIND_OPTIONAL: return fin_optional(fw, t, v, w);
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size && w; i++)
        w = fin_write(fw, t->elem, v + (size_t)i * t->elem->mem_size, w);
      return w;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: return fin_sequence(fw, t, v, w);
    case FBE_KIND_BOOL:
      if (!(w = fin_room(fw, w, 1))) return NULL;
      *w = *v != 0;
      return w + 1;
    default: /* fixed-size scalars */
      if (!(w = fin_room(fw, w, t->wire_size))) return NULL;
      switch (t->wire_size) {
        case 1: *w = *v; break;
        case 2: fbe_store16(w, *(const uint16_t *)v); break;
        case 4: fbe_store32(w, *(const uint32_t *)v); break;
        case 8: fbe_store64(w, *(const uint64_t *)v); break;
        default: memcpy(w, v, t->wire_size); break; /* decimal, uuid */
      }
      return w + t->wire_size;
  }
}

/* ------------------------------------------------------------ entry point */

fbe_status fbe_encode(const fbe_msg *msg, fbe_model model, fbe_buffer *out, fbe_error *err) {
  if (!msg || !out) return fbe_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no message or buffer");
  const fbe_struct *st = msg->type;
  const uint8_t *v = fbe_msg_data(msg);
  encoder e = {out, out->size, 0, 0};
  /* Most models fit in a few hundred bytes: one reserve avoids regrowth in the walk. */
  size_t guess = (size_t)st->body_size * 2 + 256;
  if (out->capacity - out->size < guess && fbe_buffer_reserve(out, guess))
    return fbe_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  size_t header = e.start;
  if (model == FBE_MODEL_FINAL) {
    fin_writer fw = {&e, out->data + out->capacity};
    uint8_t *w = out->data + header;
    fbe_store32(w + 4, st->type_id);
    w = fin_steps(&fw, st, v, w + 8);
    if (w && (size_t)(w - out->data) - e.start > UINT32_MAX) e.failed = FAIL_TOO_LARGE;
    if (w) out->size = (size_t)(w - out->data);
  } else {
    alloc_block(&e, 8); /* cannot fail after the reserve */
    std_struct(&e, header + 4, header, st, v);
  }
  if (e.failed) {
    out->size = e.start;
    if (e.failed == FAIL_TOO_LARGE)
      return fbe_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "model larger than 4 GiB");
    if (e.failed == FAIL_TOO_DEEP)
      return fbe_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET,
                           "value nested deeper than %u levels", FBE_DEFAULT_MAX_DEPTH);
    return fbe_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  }
  fbe_store32(out->data + header, (uint32_t)(out->size - e.start));
  return FBE_OK;
}

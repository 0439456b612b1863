/* Table-driven encoders for both wire models (FORMAT.md 5.9 and 6.3). */
#include <string.h>
#include "fbe/codec.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/error.h"
#include "fbe/internal/value.h"

/* FBE_WRITE_NOMEM and FBE_WRITE_TOO_LARGE come from the writers (fbe/field.h). */
enum { FAIL_TOO_DEEP = 3 };

#if defined(__GNUC__)
#define ALWAYS_INLINE __attribute__((always_inline))
#define UNREACHABLE() __builtin_unreachable()
#else
#define ALWAYS_INLINE
#define UNREACHABLE() ((void)0)
#endif

/* Optionals and collections are where values recurse; beyond the decoders' default
 * depth the value could not be read back, and the recursion would risk the stack. */
static inline int enter(uint32_t *depth, int *failed) {
  if (++*depth <= FBE_DEFAULT_MAX_DEPTH) return 0;
  *failed = FAIL_TOO_DEEP;
  return -1;
}

/* The standard model's writer: the used size and the data pointer are kept here (in
 * registers across a struct's steps) and written back to the buffer at the end; one test
 * per block covers both the capacity and the 4 GiB limit (`limit`). */
typedef struct encoder {
  uint8_t *data;     /* out->data */
  size_t size;       /* bytes in use (out->size once done) */
  size_t limit;      /* blocks end by here: the capacity, or 4 GiB past the model's start */
  fbe_buffer *out;
  size_t start;      /* position of the model header in out */
  int failed;        /* FBE_WRITE_* or FAIL_TOO_DEEP once a block could not be had */
  uint32_t depth;    /* nesting through optionals and collections */
} encoder;

static void set_limit(encoder *e) {
  size_t cap = e->out->capacity, most = e->start + (size_t)UINT32_MAX;
  e->limit = cap < most || most < e->start ? cap : most;
}

/* The cold path of alloc: grows the buffer, or fails. */
#if defined(__GNUC__)
__attribute__((cold, noinline))
#endif
static size_t grow(encoder *e, size_t n) {
  if (e->size - e->start + n > UINT32_MAX) {
    e->failed = FBE_WRITE_TOO_LARGE;
    return 0;
  }
  e->out->size = e->size;
  if (fbe_buffer_reserve(e->out, n)) {
    e->failed = FBE_WRITE_NOMEM;
    return 0;
  }
  e->data = e->out->data;
  set_limit(e);
  size_t pos = e->size;
  e->size += n;
  return pos;
}

/* Allocates n bytes at the end ("allocate n" of FORMAT.md 5.9): their position, or 0 on
 * failure (never a block: the header comes first). The caller writes every byte. */
static inline size_t alloc(encoder *e, size_t n) {
  if (n > e->limit - e->size) return grow(e, n);
  size_t pos = e->size;
  e->size += n;
  return pos;
}

/* ------------------------------------------------------------ standard model */

static void std_struct(encoder *e, size_t slot, size_t base, const fbe_struct *st, const uint8_t *v);
static void std_value(encoder *e, const fbe_type *t, size_t slot, size_t base, const uint8_t *v);

static inline void std_blob(encoder *e, size_t slot, size_t base, const fbei_str *s) {
  size_t d = alloc(e, 4 + (size_t)s->size);
  if (!d) return;
  uint8_t *p = e->data;
  fbe_store32(p + slot, (uint32_t)(d - base));
  fbe_store32(p + d, s->size);
  if (s->size <= 16) fbe_copy_small(p + d + 4, s->data, s->size); /* most strings: no libc call */
  else memcpy(p + d + 4, s->data, s->size);
}

static void std_optional(encoder *e, const fbe_type *t, size_t slot, size_t base, const uint8_t *v) {
  const uint8_t *inner = *(const uint8_t *const *)v;
  if (!inner) { /* flag 0, pointer 0 */
    memset(e->data + slot, 0, 5);
    return;
  }
  size_t s = alloc(e, t->elem->wire_size);
  if (!s || enter(&e->depth, &e->failed)) return;
  e->data[slot] = 1;
  fbe_store32(e->data + slot + 1, (uint32_t)(s - base));
  if (t->elem->wire == FBE_KIND_STRUCT) std_struct(e, s, s, t->elem->st, inner); /* the value slot becomes the base */
  else std_value(e, t->elem, s, s, inner);
  e->depth--;
}

/* vector, list, set (el: the element type), or map, hash (k: the key type) */
static void std_sequence(encoder *e, const fbe_type *t, size_t slot, size_t base, const uint8_t *v) {
  const fbei_vec *vec = (const fbei_vec *)v;
  const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL, *el = t->elem;
  size_t stride = (size_t)el->wire_size + (k ? k->wire_size : 0);
  size_t d = alloc(e, 4 + (size_t)vec->count * stride);
  if (!d || enter(&e->depth, &e->failed)) return;
  fbe_store32(e->data + slot, (uint32_t)(d - base));
  fbe_store32(e->data + d, vec->count);
  d += 4;
  const uint8_t *item = vec->data;
  if (k) {
    for (uint32_t i = 0; i < vec->count && !e->failed; i++, item += t->pair_stride) {
      size_t at = d + (size_t)i * stride;
      std_value(e, k, at, base, item);
      std_value(e, el, at + k->wire_size, base, item + t->pair_value_offset);
    }
  } else if (el->copyable) {
    if (vec->count) memcpy(e->data + d, vec->data, (size_t)vec->count * el->wire_size);
  } else if (el->wire == FBE_KIND_STRUCT) { /* the common case, without a dispatch */
    for (uint32_t i = 0; i < vec->count && !e->failed; i++, item += el->mem_size)
      std_struct(e, d + (size_t)i * 4, base, el->st, item);
  } else {
    for (uint32_t i = 0; i < vec->count && !e->failed; i++, item += el->mem_size)
      std_value(e, el, d + (size_t)i * el->wire_size, base, item);
  }
  e->depth--;
}

static void std_value(encoder *e, const fbe_type *t, size_t slot, size_t base, const uint8_t *v) {
  uint8_t *p = e->data;
  switch (t->wire) {
    case FBE_KIND_BOOL: p[slot] = *v != 0; break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      p[slot] = *v; break;
    case FBE_KIND_INT16: case FBE_KIND_UINT16:
      fbe_store16(p + slot, *(const uint16_t *)v); break;
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_FLOAT:
      fbe_store32(p + slot, *(const uint32_t *)v); break;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_DOUBLE: case FBE_KIND_TIMESTAMP:
      fbe_store64(p + slot, *(const uint64_t *)v); break;
    case FBE_KIND_DECIMAL: case FBE_KIND_UUID: memcpy(p + slot, v, 16); break;
    case FBE_KIND_STRING: case FBE_KIND_BYTES: std_blob(e, slot, base, (const fbei_str *)v); break;
    case FBE_KIND_STRUCT: std_struct(e, slot, base, t->st, v); break;
    case FBE_KIND_OPTIONAL: std_optional(e, t, slot, base, v); break;
    case FBE_KIND_ARRAY: {
      const fbe_type *el = t->elem;
      for (uint32_t i = 0; i < t->array_size && !e->failed; i++)
        std_value(e, el, slot + (size_t)i * el->wire_size, base, v + (size_t)i * el->mem_size);
      break;
    }
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: std_sequence(e, t, slot, base, v); break;
    default: break;
  }
}

static void std_struct(encoder *e, size_t slot, size_t base, const fbe_struct *st, const uint8_t *v) {
  size_t b = alloc(e, st->body_size);
  if (!b) return;
  fbe_store32(e->data + slot, (uint32_t)(b - base));
  fbe_store32(e->data + b, st->body_size);
  fbe_store32(e->data + b + 4, st->type_id);
  for (const fbei_op *op = st->ops;; op++) { /* to the FBE_OP_END after the last step */
    size_t at = b + op->wire_offset;
    const uint8_t *from = v + op->mem_offset;
    switch (op->code) {
      FBE_OP_COPY_CASES(e->data + at, from, op)
      case FBE_OP_BOOL: e->data[at] = *from != 0; break;
      case FBE_OP_BLOB: std_blob(e, at, b, (const fbei_str *)from); break;
      case FBE_OP_STRUCT: std_struct(e, at, b, op->field->type->st, from); break;
      case FBE_OP_OPTIONAL: std_optional(e, op->field->type, at, b, from); break;
      case FBE_OP_SEQUENCE: std_sequence(e, op->field->type, at, b, from); break;
      case FBE_OP_VALUE: std_value(e, op->field->type, at, b, from); break;
      case FBE_OP_END: return;
      default: UNREACHABLE(); /* every code has its case: the jump needs no range check */
    }
  }
}

/* ------------------------------------------------------------ final model */

/* A single forward pass through a bare cursor `w` (returned by every step, so it stays
 * in a register); room is checked per step (fbe_fin_room) and the buffer grows in a
 * cold path. A step returns NULL once growing failed. */

typedef struct fin_writer {
  fbe_fin_writer w;
  uint32_t depth; /* nesting through optionals and collections */
} fin_writer;

static inline uint8_t *fin_room(fin_writer *fw, uint8_t *w, size_t n) {
  return fbe_fin_room(&fw->w, w, n);
}

static uint8_t *fin_write(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w);
static uint8_t *fin_write_struct(fin_writer *fw, const fbe_struct *st, const uint8_t *v, uint8_t *w);

/* `room`: bytes to make sure of besides the data (the length, and fixed steps after it). */
static inline uint8_t *fin_blob(fin_writer *fw, const fbei_str *s, uint8_t *w, size_t room) {
  return fbe_fin_write_blob(&fw->w, w, s->data, s->size, room);
}

static uint8_t *fin_optional(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w);
static uint8_t *fin_sequence(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w);

/* The steps of one struct. Inlined into the callers that loop over structs (sequence
 * elements, optionals, the root) so that a struct costs no call of its own. */
static inline ALWAYS_INLINE uint8_t *fin_steps(fin_writer *fw, const fbe_struct *st,
                                               const uint8_t *v, uint8_t *w) {
  for (const fbei_op *op = st->final_ops;; op++) { /* to the FBE_OP_END after the last step */
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
      case FBE_OP_BLOB: w = fin_blob(fw, (const fbei_str *)from, w, op->room); break;
      case FBE_OP_OPTIONAL: w = fin_optional(fw, op->field->type, from, w); break;
      case FBE_OP_SEQUENCE: w = fin_sequence(fw, op->field->type, from, w); break;
      case FBE_OP_STRUCT: case FBE_OP_VALUE: w = fin_write(fw, op->field->type, from, w); break;
      case FBE_OP_END: return w;
      default: UNREACHABLE(); /* every code has its case: the jump needs no range check */
    }
#undef FIXED_STEP
    if (!w) return NULL;
  }
}

static uint8_t *fin_write_struct(fin_writer *fw, const fbe_struct *st, const uint8_t *v, uint8_t *w) {
  return fin_steps(fw, st, v, w);
}

static uint8_t *fin_optional(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w) {
  const uint8_t *inner = *(const uint8_t *const *)v;
  if (!(w = fbe_fin_write_flag(&fw->w, w, inner != NULL))) return NULL;
  if (!inner) return w;
  if (enter(&fw->depth, &fw->w.failed)) return NULL;
  w = t->elem->wire == FBE_KIND_STRUCT ? fin_steps(fw, t->elem->st, inner, w)
                                       : fin_write(fw, t->elem, inner, w);
  fw->depth--;
  return w;
}

/* vector, list, set, map, hash */
static uint8_t *fin_sequence(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w) {
  const fbei_vec *vec = (const fbei_vec *)v;
  const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
  size_t bulk = !k && t->elem->copyable ? (size_t)vec->count * t->elem->wire_size : 0;
  if (!(w = fbe_fin_write_count(&fw->w, w, vec->count, 4 + bulk))) return NULL;
  if (enter(&fw->depth, &fw->w.failed)) return NULL; /* every collection is a level, as in decode */
  if (!k && t->elem->copyable) {
    if (bulk) memcpy(w, vec->data, bulk);
    fw->depth--;
    return w + bulk;
  }
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
  fw->depth--;
  return w;
}

static uint8_t *fin_write(fin_writer *fw, const fbe_type *t, const uint8_t *v, uint8_t *w) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return fin_blob(fw, (const fbei_str *)v, w, 4);
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

/* The cold path of fbe_fin_room (fbe/field.h). */
uint8_t *fbe_fin_grow(fbe_fin_writer *fw, uint8_t *w, size_t n) {
  fbe_buffer *out = fw->out;
  size_t used = (size_t)(w - out->data);
  if (used - fw->start + n > UINT32_MAX) {
    fw->failed = FBE_WRITE_TOO_LARGE;
    return NULL;
  }
  out->size = used;
  if (fbe_buffer_reserve(out, n)) {
    fw->failed = FBE_WRITE_NOMEM;
    return NULL;
  }
  fw->limit = out->data + out->capacity;
  return out->data + used;
}

fbe_status fbe_encode(const fbe_msg *msg, fbe_model model, fbe_buffer *out, fbe_error *err) {
  if (!msg || !out) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no message or buffer");
  const fbe_struct *st = msg->type;
  const uint8_t *v = fbei_msg_data(msg);
  size_t start = out->size;
  int failed;
  /* Most models fit in a few hundred bytes: one reserve avoids regrowth in the walk. */
  size_t guess = (size_t)st->body_size * 2 + 256;
  if (out->capacity - out->size < guess && fbe_buffer_reserve(out, guess))
    return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  if (model == FBE_MODEL_FINAL) {
    fin_writer fw = {{out, start, out->data + out->capacity, 0}, 0};
    uint8_t *w = out->data + start;
    fbe_store32(w + 4, st->type_id);
    w = fin_steps(&fw, st, v, w + 8);
    if (w && (size_t)(w - out->data) - start > UINT32_MAX) fw.w.failed = FBE_WRITE_TOO_LARGE;
    if (w) out->size = (size_t)(w - out->data);
    failed = fw.w.failed;
  } else {
    encoder e = {out->data, start + 8, 0, out, start, 0, 0}; /* the header: in the reserve */
    set_limit(&e);
    std_struct(&e, start + 4, start, st, v);
    out->size = e.size;
    failed = e.failed;
  }
  if (failed) {
    out->size = start;
    if (failed == FBE_WRITE_TOO_LARGE)
      return fbei_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "model larger than 4 GiB");
    if (failed == FAIL_TOO_DEEP)
      return fbei_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET,
                           "value nested deeper than %u levels", FBE_DEFAULT_MAX_DEPTH);
    return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  }
  fbe_store32(out->data + start, (uint32_t)(out->size - start));
  return FBE_OK;
}

/* Table-driven encoders for both wire models (FORMAT.md 5.9 and 6.3). */
#include <string.h>
#include "fbe/codec.h"
#include "endian.h"
#include "error_internal.h"
#include "value.h"

enum { FAIL_NOMEM = 1, FAIL_TOO_LARGE = 2 };

typedef struct encoder {
  fbe_buffer *out;
  size_t start;  /* position of the model in out */
  int failed;    /* set by a failed allocation: FAIL_NOMEM or FAIL_TOO_LARGE */
} encoder;

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
  if (s->size) memcpy(p + d + 4, s->data, s->size);
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
      if (!s) return;
      e->out->data[slot] = 1;
      fbe_store32(e->out->data + slot + 1, (uint32_t)(s - base));
      std_value(e, t->elem, s, s, inner); /* the value slot becomes the base */
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
      if (!d) return;
      fbe_store32(e->out->data + slot, (uint32_t)(d - base));
      fbe_store32(e->out->data + d, vec->count);
      if (el->copyable) {
        if (vec->count) memcpy(e->out->data + d + 4, vec->data, (size_t)vec->count * el->wire_size);
        break;
      }
      const uint8_t *item = vec->data;
      for (uint32_t i = 0; i < vec->count && !e->failed; i++, item += el->mem_size)
        std_value(e, el, d + 4 + (size_t)i * el->wire_size, base, item);
      break;
    }
    case FBE_KIND_MAP: {
      const fbe_vec *vec = (const fbe_vec *)v;
      const fbe_type *k = t->key, *val = t->elem;
      size_t stride = (size_t)k->wire_size + val->wire_size;
      size_t d = alloc_block(e, 4 + (size_t)vec->count * stride);
      if (!d) return;
      fbe_store32(e->out->data + slot, (uint32_t)(d - base));
      fbe_store32(e->out->data + d, vec->count);
      const uint8_t *pair = vec->data;
      for (uint32_t i = 0; i < vec->count && !e->failed; i++, pair += t->pair_stride) {
        size_t at = d + 4 + (size_t)i * stride;
        std_value(e, k, at, base, pair);
        std_value(e, val, at + k->wire_size, base, pair + t->pair_value_offset);
      }
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
      case FBE_OP_COPY: fbe_copy_small(e->out->data + at, from, op->size); break;
      case FBE_OP_BOOL: e->out->data[at] = *from != 0; break;
      case FBE_OP_BLOB: std_blob(e, at, b, (const fbe_str *)from); break;
      case FBE_OP_STRUCT: std_struct(e, at, b, op->field->type->st, from); break;
      default: std_value(e, op->field->type, at, b, from); break;
    }
  }
}

/* ------------------------------------------------------------ final model */

/* Appends n bytes and returns where to write them, NULL on failure. */
static uint8_t *put(encoder *e, size_t n) {
  size_t pos = alloc_block(e, n);
  return pos ? e->out->data + pos : NULL;
}

static void fin_value(encoder *e, const fbe_type *t, const uint8_t *v);

static inline void fin_blob(encoder *e, const fbe_str *s) {
  uint8_t *p = put(e, 4 + (size_t)s->size);
  if (!p) return;
  fbe_store32(p, s->size);
  if (s->size) memcpy(p + 4, s->data, s->size);
}

static void fin_struct(encoder *e, const fbe_struct *st, const uint8_t *v) {
  for (const fbe_op *op = st->ops, *end = op + st->nops; op < end; op++) {
    const uint8_t *from = v + op->mem_offset;
    uint8_t *p;
    switch (op->code) {
      case FBE_OP_COPY:
        if ((p = put(e, op->size))) fbe_copy_small(p, from, op->size);
        break;
      case FBE_OP_BOOL:
        if ((p = put(e, 1))) *p = *from != 0;
        break;
      case FBE_OP_BLOB: fin_blob(e, (const fbe_str *)from); break;
      case FBE_OP_STRUCT: fin_struct(e, op->field->type->st, from); break;
      default: fin_value(e, op->field->type, from); break;
    }
  }
}

static void fin_value(encoder *e, const fbe_type *t, const uint8_t *v) {
  uint8_t *p;
  switch (t->wire) {
    case FBE_KIND_BOOL:
      if ((p = put(e, 1))) *p = *v != 0;
      break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      if ((p = put(e, 1))) *p = *v;
      break;
    case FBE_KIND_INT16: case FBE_KIND_UINT16:
      if ((p = put(e, 2))) fbe_store16(p, *(const uint16_t *)v);
      break;
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_FLOAT:
      if ((p = put(e, 4))) fbe_store32(p, *(const uint32_t *)v);
      break;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_DOUBLE: case FBE_KIND_TIMESTAMP:
      if ((p = put(e, 8))) fbe_store64(p, *(const uint64_t *)v);
      break;
    case FBE_KIND_DECIMAL: case FBE_KIND_UUID:
      if ((p = put(e, 16))) memcpy(p, v, 16);
      break;
    case FBE_KIND_STRING: case FBE_KIND_BYTES: fin_blob(e, (const fbe_str *)v); break;
    case FBE_KIND_STRUCT: fin_struct(e, t->st, v); break;
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)v;
      if (!(p = put(e, 1))) break;
      *p = inner != NULL;
      if (inner) fin_value(e, t->elem, inner);
      break;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size && !e->failed; i++)
        fin_value(e, t->elem, v + (size_t)i * t->elem->mem_size);
      break;
    case FBE_KIND_VECTOR: {
      const fbe_vec *vec = (const fbe_vec *)v;
      if (!(p = put(e, 4))) break;
      fbe_store32(p, vec->count);
      if (t->elem->copyable) {
        size_t n = (size_t)vec->count * t->elem->wire_size;
        if (n && (p = put(e, n))) memcpy(p, vec->data, n);
        break;
      }
      const uint8_t *item = vec->data;
      for (uint32_t i = 0; i < vec->count && !e->failed; i++, item += t->elem->mem_size)
        fin_value(e, t->elem, item);
      break;
    }
    case FBE_KIND_MAP: {
      const fbe_vec *vec = (const fbe_vec *)v;
      if (!(p = put(e, 4))) break;
      fbe_store32(p, vec->count);
      const uint8_t *pair = vec->data;
      for (uint32_t i = 0; i < vec->count && !e->failed; i++, pair += t->pair_stride) {
        fin_value(e, t->key, pair);
        fin_value(e, t->elem, pair + t->pair_value_offset);
      }
      break;
    }
    default: break;
  }
}

/* ------------------------------------------------------------ entry point */

fbe_status fbe_encode(const fbe_msg *msg, fbe_model model, fbe_buffer *out, fbe_error *err) {
  if (!msg || !out) return fbe_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no message or buffer");
  const fbe_struct *st = msg->type;
  const uint8_t *v = fbe_msg_data(msg);
  encoder e = {out, out->size, 0};
  /* Most models fit in a few hundred bytes: one reserve avoids regrowth in the walk. */
  if (fbe_buffer_reserve(out, (size_t)st->body_size * 2 + 256))
    return fbe_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  size_t header = e.start;
  alloc_block(&e, 8); /* cannot fail after the reserve */
  if (model == FBE_MODEL_FINAL) {
    fin_struct(&e, st, v);
    if (!e.failed) fbe_store32(out->data + header + 4, st->type_id);
  } else {
    std_struct(&e, header + 4, header, st, v);
  }
  if (e.failed) {
    out->size = e.start;
    if (e.failed == FAIL_TOO_LARGE)
      return fbe_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "model larger than 4 GiB");
    return fbe_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  }
  fbe_store32(out->data + header, (uint32_t)(out->size - e.start));
  return FBE_OK;
}

/* The tape <-> the core's in-memory value (value.h). See jfbe.h for the layout.
 * Java type-checks and range-checks every value while it flattens a Message onto the
 * tape (org.libfbe.Tape), so the reader only stores bits; it still checks every tape
 * position (a disagreement is an error, never a read past the end) and parses
 * decimals (their 96-bit range is the core's to judge). */
#include <stdlib.h>
#include <string.h>
#include "jfbe.h"

/* ------------------------------------------------------------------ programs */

/* A step stores one tape slot into a scalar at a fixed offset from the struct's start
 * (by size and, for the writer, signedness: the slot holds the bits), or a span, a
 * decimal, a uuid, or
 * (OP_VALUE) walks an optional, array or collection. Nested structs are spliced in, so
 * the Account's 30-odd values are a few flat loops with one switch each. */
enum { OP_BOOL, OP_I8, OP_U8, OP_I16, OP_U16, OP_I32, OP_U32, OP_U64, OP_SPAN, OP_STR, OP_DEC, OP_UUID, OP_VALUE };

typedef struct jf_op {
  uint8_t code;
  uint32_t offset;
  const fbe_type *type;
  const char *name; /* "wallet.currency" for a spliced nested field */
} jf_op;

struct jf_prog {
  uint32_t nops;
  jf_op *ops;
};

static uint8_t code_of(const fbe_type *t) {
  switch (t->wire) {
    case FBE_KIND_BOOL: return OP_BOOL;
    case FBE_KIND_INT8: return OP_I8;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: return OP_U8;
    case FBE_KIND_INT16: return OP_I16;
    case FBE_KIND_UINT16: return OP_U16;
    case FBE_KIND_INT32: return OP_I32;
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR: case FBE_KIND_FLOAT: return OP_U32; /* float: its bits */
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP: case FBE_KIND_DOUBLE: return OP_U64;
    case FBE_KIND_STRING: return OP_STR; /* a span whose bytes must be UTF-8 */
    case FBE_KIND_BYTES: return OP_SPAN;
    case FBE_KIND_DECIMAL: return OP_DEC;
    case FBE_KIND_UUID: return OP_UUID;
    default: return OP_VALUE;
  }
}

/* The steps and joined names a struct's program takes (to allocate them at once:
 * a schema's programs are one block of a few KiB). */
static void measure(const fbe_struct *st, size_t prefix, uint32_t *ops, size_t *names) {
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    size_t len = prefix ? prefix + 1 + strlen(f->name) : strlen(f->name);
    if (prefix) *names += len + 1;
    if (f->type->wire == FBE_KIND_STRUCT) measure(f->type->st, len, ops, names);
    else (*ops)++;
  }
}

static jf_op *emit(jf_op *op, char **pool, const fbe_struct *st, uint32_t base, const char *prefix) {
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    const char *name = f->name;
    if (prefix) {
      size_t a = strlen(prefix), b = strlen(f->name);
      char *joined = *pool;
      memcpy(joined, prefix, a);
      joined[a] = '.';
      memcpy(joined + a + 1, f->name, b + 1);
      *pool += a + b + 2;
      name = joined;
    }
    if (f->type->wire == FBE_KIND_STRUCT) op = emit(op, pool, f->type->st, base + f->mem_offset, name);
    else *op++ = (jf_op){code_of(f->type), base + f->mem_offset, f->type, name};
  }
  return op;
}

int jf_progs_compile(jf_core *c) {
  uint32_t nops = 0;
  size_t names = 0;
  for (uint32_t i = 0; i < c->nstructs; i++) measure(c->structs[i], 0, &nops, &names);
  size_t head = sizeof(jf_prog) * (c->nstructs + 1), body = sizeof(jf_op) * ((size_t)nops + 1);
  uint8_t *block = fbe_mem_calloc(1, head + body + names + 1);
  if (!block) return -1;
  c->progs = (jf_prog *)(void *)block;
  jf_op *op = (jf_op *)(void *)(block + head);
  char *pool = (char *)(block + head + body);
  for (uint32_t i = 0; i < c->nstructs; i++) {
    c->progs[i].ops = op;
    op = emit(op, &pool, c->structs[i], 0, NULL);
    c->progs[i].nops = (uint32_t)(op - c->progs[i].ops);
  }
  return 0;
}

static const jf_prog *prog_of(const jf_core *c, const fbe_struct *st) {
  int i = jf_struct_index(c, st);
  return i < 0 ? NULL : &c->progs[i];
}

/* ------------------------------------------------------------------ tape -> value */

typedef struct reader {
  const jf_core *core;
  const int64_t *num;
  uint32_t n, n_end;
  const uint8_t *bytes;
  uint32_t p, p_end;
  fbe_arena *arena;
  jf_err *err;
  uint32_t depth;
} reader;

static int rd_value(reader *r, const fbe_type *t, uint8_t *slot);

static int overrun(reader *r) {
  jf_err_set(r->err, FBE_ERR_ARGUMENT, "internal error: the value tape ends early");
  return -1;
}

static int nomem(reader *r) {
  jf_err_set(r->err, FBE_ERR_NOMEM, "out of memory");
  return -1;
}

static int no_program(reader *r) {
  jf_err_set(r->err, FBE_ERR_ARGUMENT, "internal error: a struct without a tape program");
  return -1;
}

static inline int rd_slot(reader *r, int64_t *out) {
  if (r->n >= r->n_end) return overrun(r);
  *out = r->num[r->n++];
  return 0;
}

/* A count or a byte length: 0 .. 2^32-1. */
static int rd_count(reader *r, uint32_t *out) {
  int64_t x;
  if (rd_slot(r, &x)) return -1;
  if (x < 0 || x > (int64_t)UINT32_MAX) return overrun(r);
  *out = (uint32_t)x;
  return 0;
}

static int rd_span(reader *r, const uint8_t **data, uint32_t *size) {
  uint32_t len;
  if (rd_count(r, &len)) return -1;
  if (len > r->p_end - r->p) return overrun(r);
  *data = r->bytes + r->p;
  *size = len;
  r->p += len;
  return 0;
}

static void put_be64(uint8_t *p, uint64_t x) {
  for (int i = 7; i >= 0; i--, x >>= 8) p[i] = (uint8_t)x;
}

static inline int rd_step(reader *r, unsigned code, const fbe_type *t, uint8_t *slot) {
  int64_t x = 0;
  if (code <= OP_U64) {
    if (r->n >= r->n_end) return overrun(r);
    x = r->num[r->n++];
  }
  switch (code) {
    case OP_BOOL: *slot = x != 0; return 0;
    case OP_I8: case OP_U8: *slot = (uint8_t)x; return 0;
    case OP_I16: case OP_U16: {
      uint16_t v = (uint16_t)x;
      memcpy(slot, &v, 2);
      return 0;
    }
    case OP_I32: case OP_U32: { /* a float's slot holds Float.floatToRawIntBits: NaN payloads kept */
      uint32_t v = (uint32_t)x;
      memcpy(slot, &v, 4);
      return 0;
    }
    case OP_U64: memcpy(slot, &x, 8); return 0;
    case OP_SPAN: { /* points into the byte tape: no copy */
      fbe_str *s = (fbe_str *)(void *)slot;
      return rd_span(r, &s->data, &s->size);
    }
    case OP_STR: { /* the core's check and words, the same in every binding (Tape.java puts
                    * a lone surrogate on the tape as its 3 bytes for this to refuse) */
      fbe_str *s = (fbe_str *)(void *)slot;
      fbe_error e;
      if (rd_span(r, &s->data, &s->size)) return -1;
      if (fbe_utf8_check(s->data, s->size, &e) == FBE_OK) return 0;
      jf_err_set(r->err, e.code, "%s", e.message);
      return -1;
    }
    case OP_DEC: {
      const uint8_t *text;
      uint32_t len;
      if (rd_span(r, &text, &len)) return -1;
      if (fbe_decimal_parse((const char *)text, len, (fbe_decimal *)(void *)slot)) {
        jf_err_set(r->err, FBE_ERR_RANGE,
                   "decimal %.*s does not fit FBE's decimal (96-bit coefficient, scale 0..28)",
                   (int)(len > 60 ? 60 : len), (const char *)text);
        return -1;
      }
      return 0;
    }
    case OP_UUID: {
      int64_t lo;
      if (rd_slot(r, &x) || rd_slot(r, &lo)) return -1;
      put_be64(slot, (uint64_t)x);
      put_be64(slot + 8, (uint64_t)lo);
      return 0;
    }
    default:
      return rd_value(r, t, slot);
  }
}

static int rd_prog(reader *r, const jf_prog *pg, uint8_t *base) {
  const jf_op *op = pg->ops, *end = op + pg->nops;
  for (; op < end; op++) {
    if (rd_step(r, op->code, op->type, base + op->offset)) {
      jf_err_prepend_field(r->err, op->name);
      return -1;
    }
  }
  return 0;
}

static int rd_elements(reader *r, const fbe_type *e, uint8_t *data, uint32_t count) {
  const jf_prog *pg = NULL;
  if (e->wire == FBE_KIND_STRUCT && !(pg = prog_of(r->core, e->st))) return no_program(r);
  unsigned code = code_of(e);
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *slot = data + (size_t)i * e->mem_size;
    if (pg ? rd_prog(r, pg, slot) : rd_step(r, code, e, slot)) {
      jf_err_prepend_index(r->err, i);
      return -1;
    }
  }
  return 0;
}

/* Structs, optionals, arrays and collections: the ways a value nests. */
static int rd_nested(reader *r, const fbe_type *t, uint8_t *slot) {
  uint32_t count;
  switch (t->wire) {
    case FBE_KIND_STRUCT: {
      const jf_prog *pg = prog_of(r->core, t->st);
      return pg ? rd_prog(r, pg, slot) : no_program(r);
    }
    case FBE_KIND_OPTIONAL: {
      int64_t present;
      void *value = NULL;
      if (rd_slot(r, &present)) return -1;
      if (present) {
        if (!(value = fbe_arena_alloc(r->arena, t->elem->mem_size))) return nomem(r);
        memset(value, 0, t->elem->mem_size);
        if (rd_value(r, t->elem, value)) return -1;
      }
      memcpy(slot, &value, sizeof value);
      return 0;
    }
    case FBE_KIND_ARRAY: return rd_elements(r, t->elem, slot, t->array_size);
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      fbe_vec *v = (fbe_vec *)(void *)slot;
      memset(v, 0, sizeof *v);
      if (rd_count(r, &count)) return -1;
      if (!count) return 0;
      int map = t->wire == FBE_KIND_MAP;
      /* every element takes at least one slot: a count beyond the tape is an overrun */
      if (count > r->n_end - r->n) return overrun(r);
      uint8_t *data = fbe_vec_grow(v, r->arena, map ? t->pair_stride : t->elem->mem_size, count);
      if (!data) return nomem(r);
      if (!map) return rd_elements(r, t->elem, data, count);
      for (uint32_t i = 0; i < count; i++) {
        uint8_t *pair = data + (size_t)i * t->pair_stride;
        if (rd_value(r, t->key, pair)) {
          jf_err_prepend_key(r->err);
          jf_err_prepend_index(r->err, i);
          return -1;
        }
        if (rd_value(r, t->elem, pair + t->pair_value_offset)) {
          jf_err_prepend_index(r->err, i);
          return -1;
        }
      }
      return 0;
    }
    default:
      jf_err_set(r->err, FBE_ERR_TYPE, "unsupported type %s", fbe_kind_name(t->kind));
      return -1;
  }
}

/* Present optionals and collections count one level each, as the core counts them
 * (structs and arrays do not): what decodes encodes again. */
static int rd_value(reader *r, const fbe_type *t, uint8_t *slot) {
  unsigned code = code_of(t);
  if (code != OP_VALUE) return rd_step(r, code, t, slot);
  unsigned level = t->wire == FBE_KIND_VECTOR || t->wire == FBE_KIND_MAP ||
                   (t->wire == FBE_KIND_OPTIONAL && r->n < r->n_end && r->num[r->n] != 0);
  if (level && ++r->depth > FBE_DEFAULT_MAX_DEPTH) {
    jf_err_set(r->err, FBE_ERR_LIMIT, "value nested deeper than %u levels", FBE_DEFAULT_MAX_DEPTH);
    return -1;
  }
  int rc = rd_nested(r, t, slot);
  r->depth -= level;
  return rc;
}

fbe_msg *jf_tape_read(const jf_core *core, const jf_tape *tp, uint32_t si, fbe_arena *arena,
                      uint32_t *n, uint32_t *p, jf_err *err) {
  reader r = {core, tp->num, *n, tp->num_cap, tp->bytes, *p, tp->bytes_cap, arena, err, 0};
  const fbe_struct *st = core->structs[si];
  fbe_msg *m = fbe_arena_alloc(arena, sizeof(fbe_msg) + st->mem_size);
  if (!m) {
    nomem(&r);
    return NULL;
  }
  m->type = st;
  m->arena = arena;
  memset(fbe_msg_data(m), 0, st->mem_size);
  if (r.n > r.n_end || r.p > r.p_end) {
    overrun(&r);
    return NULL;
  }
  if (rd_prog(&r, &core->progs[si], fbe_msg_data(m))) return NULL;
  *n = r.n;
  *p = r.p;
  return m;
}

/* ------------------------------------------------------------------ value -> tape */

typedef struct writer {
  const jf_core *core;
  jf_tape *tp;
  uint64_t n, p; /* past the capacity the writer only counts */
} writer;

static void wr_value(writer *w, const fbe_type *t, const uint8_t *slot);

static inline void wr_slot(writer *w, int64_t x) {
  if (w->n < w->tp->num_cap) w->tp->num[w->n] = x;
  w->n++;
}

static void wr_span(writer *w, const uint8_t *data, size_t size) {
  if (w->p + size <= w->tp->bytes_cap && size) memcpy(w->tp->bytes + w->p, data, size);
  w->p += size;
  wr_slot(w, (int64_t)size);
}

static uint64_t get_be64(const uint8_t *p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x = x << 8 | p[i];
  return x;
}

static inline void wr_step(writer *w, unsigned code, const fbe_type *t, const uint8_t *slot) {
  switch (code) {
    /* signed kinds sign-extended (as EnumValue.value expects), unsigned and float bits not */
    case OP_BOOL: case OP_U8: wr_slot(w, *slot); return;
    case OP_I8: wr_slot(w, (int8_t)*slot); return;
    case OP_I16: {
      int16_t v;
      memcpy(&v, slot, 2);
      wr_slot(w, v);
      return;
    }
    case OP_U16: {
      uint16_t v;
      memcpy(&v, slot, 2);
      wr_slot(w, v);
      return;
    }
    case OP_I32: {
      int32_t v;
      memcpy(&v, slot, 4);
      wr_slot(w, v);
      return;
    }
    case OP_U32: {
      uint32_t v;
      memcpy(&v, slot, 4);
      wr_slot(w, v);
      return;
    }
    case OP_U64: {
      int64_t v;
      memcpy(&v, slot, 8);
      wr_slot(w, v);
      return;
    }
    case OP_SPAN: case OP_STR: {
      const fbe_str *s = (const fbe_str *)(const void *)slot;
      wr_span(w, s->data, s->size);
      return;
    }
    case OP_DEC: {
      char text[64];
      fbe_decimal_format((const fbe_decimal *)(const void *)slot, text, sizeof text);
      wr_span(w, (const uint8_t *)text, strlen(text));
      return;
    }
    case OP_UUID:
      wr_slot(w, (int64_t)get_be64(slot));
      wr_slot(w, (int64_t)get_be64(slot + 8));
      return;
    default:
      wr_value(w, t, slot);
      return;
  }
}

static void wr_prog(writer *w, const jf_prog *pg, const uint8_t *base) {
  const jf_op *op = pg->ops, *end = op + pg->nops;
  for (; op < end; op++) wr_step(w, op->code, op->type, base + op->offset);
}

static void wr_elements(writer *w, const fbe_type *e, const uint8_t *data, uint32_t count) {
  const jf_prog *pg = e->wire == FBE_KIND_STRUCT ? prog_of(w->core, e->st) : NULL;
  unsigned code = code_of(e);
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *slot = data + (size_t)i * e->mem_size;
    if (pg) wr_prog(w, pg, slot);
    else wr_step(w, code, e, slot);
  }
}

static void wr_value(writer *w, const fbe_type *t, const uint8_t *slot) {
  switch (t->wire) {
    case FBE_KIND_STRUCT: {
      const jf_prog *pg = prog_of(w->core, t->st);
      if (pg) wr_prog(w, pg, slot);
      return;
    }
    case FBE_KIND_OPTIONAL: {
      const uint8_t *value;
      memcpy(&value, slot, sizeof value);
      wr_slot(w, value ? 1 : 0);
      if (value) wr_value(w, t->elem, value);
      return;
    }
    case FBE_KIND_ARRAY:
      wr_elements(w, t->elem, slot, t->array_size);
      return;
    case FBE_KIND_VECTOR: {
      const fbe_vec *v = (const fbe_vec *)(const void *)slot;
      wr_slot(w, v->count);
      wr_elements(w, t->elem, v->data, v->count);
      return;
    }
    case FBE_KIND_MAP: {
      const fbe_vec *v = (const fbe_vec *)(const void *)slot;
      wr_slot(w, v->count);
      for (uint32_t i = 0; i < v->count; i++) {
        const uint8_t *pair = (const uint8_t *)v->data + (size_t)i * t->pair_stride;
        wr_value(w, t->key, pair);
        wr_value(w, t->elem, pair + t->pair_value_offset);
      }
      return;
    }
    default:
      wr_step(w, code_of(t), t, slot);
      return;
  }
}

int jf_tape_write(const jf_core *core, jf_tape *tp, const fbe_msg *m, uint64_t *need_n, uint64_t *need_p) {
  writer w = {core, tp, 0, 0};
  wr_value(&w, fbe_msg_type(m)->self_type, fbe_msg_data(m));
  *need_n = w.n;
  *need_p = w.p;
  return w.n <= tp->num_cap && w.p <= tp->bytes_cap ? 0 : -1;
}

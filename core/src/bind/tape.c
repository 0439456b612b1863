/* The tape <-> the in-memory value (value.h), for the bindings that cross in one call
 * per message (fbe/internal/tape.h has the layout and the two slot formats). Driven by
 * the compiled schema tables: no name is looked up here. */
#include <math.h>
#include <string.h>
#include "fbe/internal/tape.h"
#include "fbe/internal/duplicates.h"
#include "fbe/internal/error.h"
#include "fbe/internal/input.h"
#include "fbe/internal/float_text.h"
#include "fbe/internal/memory.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/value.h"
#include "tape_program.h"

/* ------------------------------------------------------------------ programs */

#define code_of fbei_tape_code_of
#define prog_of fbei_tape_prog_of

/* The steps and the joined names' bytes a struct's program takes (a schema's programs
 * are one block). */
static void measure(const fbe_struct *st, size_t prefix, size_t *ops, size_t *names) {
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    size_t len = prefix ? prefix + 1 + strlen(f->name) : strlen(f->name);
    if (prefix) *names += len + 1;
    if (f->type->wire == FBE_KIND_STRUCT) measure(f->type->st, len, ops, names);
    else (*ops)++;
  }
}

static tape_op *emit(tape_op *op, char **pool, const fbe_struct *st, uint32_t base,
                     const char *prefix, fbei_tape_format format) {
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
    if (f->type->wire == FBE_KIND_STRUCT)
      op = emit(op, pool, f->type->st, base + f->mem_offset, name, format);
    else
      *op++ = (tape_op){(uint8_t)code_of(f->type, format), base + f->mem_offset, f->type, name, 0};
  }
  return op;
}

/* A struct's own fields, a nested struct one step (its own body in the standard model). */
static tape_op *emit_own(tape_op *op, const fbe_struct *st, fbei_tape_format format) {
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    uint8_t code = (uint8_t)(f->type->wire == FBE_KIND_STRUCT ? OP_NESTED : code_of(f->type, format));
    *op++ = (tape_op){code, f->mem_offset, f->type, f->name, f->wire_offset};
  }
  return op;
}

static int decide_keyed(fbei_tape_programs *pp);

fbei_tape_programs *fbei_tape_compile(const fbe_schema *schema, fbei_tape_format format) {
  uint32_t count = (uint32_t)fbe_schema_struct_count(schema);
  size_t nops = 0, names = 0;
  for (uint32_t i = 0; i < count; i++) {
    measure(fbe_schema_struct_at(schema, i), 0, &nops, &names);
    nops += fbe_schema_struct_at(schema, i)->nfields;
  }
  size_t head = sizeof(fbei_tape_programs) + sizeof(tape_prog) * ((size_t)count + 1);
  head = (head + 15) & ~(size_t)15;
  size_t body = sizeof(tape_op) * (nops + 1);
  uint8_t *block = fbei_mem_calloc(1, head + body + names + 1);
  if (!block) return NULL;
  fbei_tape_programs *pp = (fbei_tape_programs *)(void *)block;
  pp->format = format;
  pp->count = count;
  pp->progs = (tape_prog *)(void *)(pp + 1);
  tape_op *op = (tape_op *)(void *)(block + head);
  char *pool = (char *)(block + head + body);
  for (uint32_t i = 0; i < count; i++) {
    tape_prog *pg = &pp->progs[i];
    pg->st = fbe_schema_struct_at(schema, i);
    pg->ops = op;
    op = emit(op, &pool, pg->st, 0, NULL, format);
    pg->nops = (uint32_t)(op - pg->ops);
    pg->sops = op;
    op = emit_own(op, pg->st, format);
    pg->nsops = (uint32_t)(op - pg->sops);
  }
  decide_keyed(pp);
  return pp;
}

void fbei_tape_programs_free(fbei_tape_programs *pp) { fbei_mem_free(pp); }

/* Whether a message of each struct can hold a set, map or hash (tape_prog.keyed), in time
 * linear in the schema: a struct holds one itself (a field's type, through optionals,
 * arrays and collections) or reaches a struct that does through its fields (cycles
 * included): those are found backwards from the ones that hold one. 0, or -1 when out of
 * memory (then every struct counts as keyed: fbei_tape_encode leaves them all). */
static const fbe_type *inner_type(const fbe_type *t) {
  while (t->kind == FBE_KIND_OPTIONAL || t->kind == FBE_KIND_ARRAY || t->kind == FBE_KIND_VECTOR ||
         t->kind == FBE_KIND_LIST)
    t = t->elem;
  return t;
}

static int decide_keyed(fbei_tape_programs *pp) {
  uint32_t n = pp->count;
  size_t nedges = 0;
  for (uint32_t i = 0; i < n; i++) {
    const fbe_struct *st = pp->progs[i].st;
    for (uint32_t f = 0; f < st->nfields; f++) nedges += inner_type(st->fields[f].type)->kind == FBE_KIND_STRUCT;
  }
  uint32_t *start = fbei_mem_calloc((size_t)n + 1, sizeof *start); /* from[start[j], start[j+1]): reaching j */
  uint32_t *from = fbei_mem_calloc(nedges + 1, sizeof *from);
  uint32_t *queue = fbei_mem_calloc((size_t)n + 1, sizeof *queue);
  int rc = start && from && queue ? 0 : -1;
  for (uint32_t i = 0; !rc && i < n; i++) {
    const fbe_struct *st = pp->progs[i].st;
    for (uint32_t f = 0; f < st->nfields; f++) {
      const fbe_type *t = inner_type(st->fields[f].type);
      if (t->kind == FBE_KIND_STRUCT) start[t->st->index + 1]++;
    }
  }
  for (uint32_t j = 0; !rc && j < n; j++) start[j + 1] += start[j];
  uint32_t head = 0, tail = 0;
  for (uint32_t i = 0; !rc && i < n; i++) {
    tape_prog *pg = &pp->progs[i];
    pg->keyed = 1;
    for (uint32_t f = 0; f < pg->st->nfields; f++) {
      const fbe_type *t = inner_type(pg->st->fields[f].type);
      if (t->kind == FBE_KIND_SET || t->kind == FBE_KIND_MAP || t->kind == FBE_KIND_HASH) pg->keyed = 2;
      else if (t->kind == FBE_KIND_STRUCT) from[start[t->st->index]++] = i;
    }
    if (pg->keyed == 2) queue[tail++] = i;
  }
  for (uint32_t j = n; !rc && j > 0; j--) start[j] = start[j - 1]; /* (the fill moved each start to the next) */
  if (!rc) start[0] = 0;
  while (!rc && head < tail) {
    uint32_t j = queue[head++];
    for (uint32_t k = start[j]; k < start[j + 1]; k++) {
      tape_prog *pg = &pp->progs[from[k]];
      if (pg->keyed != 2) {
        pg->keyed = 2;
        queue[tail++] = from[k];
      }
    }
  }
  if (rc)
    for (uint32_t i = 0; i < n; i++) pp->progs[i].keyed = 2;
  fbei_mem_free(start);
  fbei_mem_free(from);
  fbei_mem_free(queue);
  return rc;
}

static int is_ours(const fbei_tape_programs *pp, const fbe_struct *st) {
  return st && st->index < pp->count && pp->progs[st->index].st == st;
}

int fbei_tape_programs_check(const fbei_tape_programs *pp, const fbe_struct *st, fbei_tape_format format) {
  return pp->format == format && is_ours(pp, st);
}

int fbei_tape_keyed(const fbei_tape_programs *pp, const fbe_struct *st) {
  return !is_ours(pp, st) || pp->progs[st->index].keyed != 1;
}

fbe_status fbei_tape_too_deep(fbe_error *err) {
  return fbei_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "value nested deeper than %u levels",
                       FBE_DEFAULT_MAX_DEPTH);
}

/* ------------------------------------------------------------------ tape -> value */

typedef struct reader {
  const fbei_tape_slot *num;
  uint32_t n, n_end;
  const uint8_t *bytes;
  uint32_t p, p_end;
  const fbei_tape_programs *progs;
  fbe_arena *arena;
  fbe_error *err;
  unsigned depth;
} reader;

static fbe_status rd_value(reader *r, const fbe_type *t, uint8_t *slot);

/* The host wrote the tape from the same schema: running off its end means the two
 * disagree. Reported, never read past. */
static fbe_status overrun(reader *r) {
  return fbei_error_set(r->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                       "internal error: the value tape ends early");
}

static fbe_status no_memory(reader *r) {
  return fbei_error_set(r->err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
}

/* A number that does not fit its field, in the input vocabulary's words (docs/INPUT.md):
 * a number that is not whole (1.5, NaN, Infinity) is a float where an integer belongs
 * (FBE_ERR_TYPE "expected int32, got a float"); a whole one out of range is
 * FBE_ERR_RANGE "value 300 does not fit uint8", named the way JavaScript prints it. A
 * float field's out-of-range number (beyond float32) is always the latter. */
static fbe_status out_of_range(reader *r, const fbe_type *t, double d) {
  int integer = t->wire != FBE_KIND_FLOAT;
  if (integer && (isnan(d) || isinf(d) || d != floor(d))) return fbei_error_type(r->err, t, FBEI_GOT_FLOAT, NULL);
  char text[FBE_DOUBLE_TEXT_MAX];
  size_t len = fbei_double_format(d, text);
  if (len > 2 && !strcmp(text + len - 2, ".0")) text[len - 2] = 0; /* 300, not 300.0 */
  return fbei_error_range(r->err, text, t->wire);
}

/* A count or a byte length: a whole number 0 .. 2^32-1 (DOUBLE: a string's length may
 * come negated, as the writer puts it, so what C writes reads back). */
static int rd_count(reader *r, uint32_t *out, int is_string) {
  if (r->n >= r->n_end) return -1;
  fbei_tape_slot s = r->num[r->n++];
  if (r->progs->format == FBE_TAPE_DOUBLE) {
    double d = is_string && s.d < 0 ? -s.d : s.d;
    if (!(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) return -1;
    *out = (uint32_t)d;
  } else {
    if (s.i < 0 || s.i > (int64_t)UINT32_MAX) return -1;
    *out = (uint32_t)s.i;
  }
  return 0;
}

/* An optional's flag (the slot is there: the caller checked). */
static int present(const reader *r) {
  fbei_tape_slot s = r->num[r->n];
  return r->progs->format == FBE_TAPE_DOUBLE ? s.d != 0 : s.i != 0;
}

static int rd_span(reader *r, const uint8_t **data, uint32_t *size, int is_string) {
  uint32_t len;
  if (rd_count(r, &len, is_string) || len > r->p_end - r->p) return -1;
  *data = r->bytes + r->p;
  *size = len;
  r->p += len;
  return 0;
}

static void put_be64(uint8_t *p, uint64_t x) {
  for (int i = 7; i >= 0; i--, x >>= 8) p[i] = (uint8_t)x;
}

/* At most 60 bytes of a host's text, NUL-terminated, for an error message. */
static const char *shown(char out[64], const uint8_t *text, uint32_t len) {
  if (len > 60) len = 60;
  memcpy(out, text, len);
  out[len] = 0;
  return out;
}

static inline void st16(uint8_t *slot, uint16_t v) { memcpy(slot, &v, 2); }
static inline void st32(uint8_t *slot, uint32_t v) { memcpy(slot, &v, 4); }

/* One scalar step; OP_VALUE goes to the generic walk. */
static inline fbe_status rd_step(reader *r, tape_code code, const fbe_type *t, uint8_t *slot) {
  int64_t x = 0;
  double d = 0;
  if (code <= OP_NUM_F32) {
    if (r->n >= r->n_end) return overrun(r);
    fbei_tape_slot s = r->num[r->n++];
    x = s.i;
    d = s.d;
  }
  switch (code) {
    case OP_BITS64: memcpy(slot, &x, 8); return FBE_OK;
    case OP_BOOL: *slot = x != 0; return FBE_OK;
    case OP_I8: case OP_U8: *slot = (uint8_t)x; return FBE_OK;
    case OP_I16: case OP_U16: st16(slot, (uint16_t)x); return FBE_OK;
    case OP_I32: case OP_U32: st32(slot, (uint32_t)x); return FBE_OK; /* a float's bits: NaN payloads kept */
    case OP_NUM_BOOL: *slot = d != 0; return FBE_OK;
    /* whole and in range: NaN fails the comparisons, 1.5 the round trip */
    case OP_NUM_I8:
      if (!(d >= -128.0 && d <= 127.0) || d != (double)(int8_t)d) return out_of_range(r, t, d);
      *slot = (uint8_t)(int8_t)d;
      return FBE_OK;
    case OP_NUM_U8:
      if (!(d >= 0 && d <= 255.0) || d != (double)(uint8_t)d) return out_of_range(r, t, d);
      *slot = (uint8_t)d;
      return FBE_OK;
    case OP_NUM_I16:
      if (!(d >= -32768.0 && d <= 32767.0) || d != (double)(int16_t)d) return out_of_range(r, t, d);
      st16(slot, (uint16_t)(int16_t)d);
      return FBE_OK;
    case OP_NUM_U16:
      if (!(d >= 0 && d <= 65535.0) || d != (double)(uint16_t)d) return out_of_range(r, t, d);
      st16(slot, (uint16_t)d);
      return FBE_OK;
    case OP_NUM_I32:
      if (!(d >= -2147483648.0 && d <= 2147483647.0) || d != (double)(int32_t)d)
        return out_of_range(r, t, d);
      st32(slot, (uint32_t)(int32_t)d);
      return FBE_OK;
    case OP_NUM_U32:
      if (!(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) return out_of_range(r, t, d);
      st32(slot, (uint32_t)d);
      return FBE_OK;
    case OP_NUM_F32: {
      float f = (float)d;
      if (isinf(f) && !isinf(d)) return out_of_range(r, t, d);
      memcpy(slot, &f, 4);
      return FBE_OK;
    }
    case OP_STR: case OP_BYTES: { /* points into the byte tape: no copy */
      fbei_str *s = (fbei_str *)(void *)slot;
      if (rd_span(r, &s->data, &s->size, code == OP_STR)) return overrun(r);
      /* the core's check and words, the same in every binding (the hosts put a lone
       * surrogate on the tape as its 3 bytes for this to refuse) */
      if (code == OP_STR && fbe_utf8_check(s->data, s->size, r->err) != FBE_OK) {
        r->err->offset = FBE_NO_OFFSET; /* an offset in the string, not in an input */
        return r->err->code;
      }
      return FBE_OK;
    }
    case OP_DEC: { /* the 96-bit range is the core's to judge */
      const uint8_t *text;
      uint32_t len;
      char buf[64];
      if (rd_span(r, &text, &len, 0)) return overrun(r);
      fbe_status s = fbe_decimal_parse((const char *)text, len, (fbe_decimal *)(void *)slot);
      if (s == FBE_ERR_RANGE) return fbei_error_decimal_range(r->err, shown(buf, text, len));
      if (s != FBE_OK) return fbei_error_bad_text(r->err, FBE_KIND_DECIMAL, (const char *)text, len);
      return FBE_OK;
    }
    case OP_UUID_SLOTS: {
      if (r->n_end - r->n < 2) return overrun(r);
      put_be64(slot, (uint64_t)r->num[r->n].i);
      put_be64(slot + 8, (uint64_t)r->num[r->n + 1].i);
      r->n += 2;
      return FBE_OK;
    }
    case OP_UUID_TEXT: {
      const uint8_t *text;
      uint32_t len;
      if (rd_span(r, &text, &len, 0)) return overrun(r);
      if (fbe_uuid_parse((const char *)text, len, (fbe_uuid *)(void *)slot) != FBE_OK)
        return fbei_error_bad_text(r->err, FBE_KIND_UUID, (const char *)text, len);
      return FBE_OK;
    }
    default:
      return rd_value(r, t, slot);
  }
}

static fbe_status rd_prog(reader *r, const tape_prog *pg, uint8_t *base) {
  const tape_op *op = pg->ops, *end = op + pg->nops;
  for (; op < end; op++) {
    fbe_status s = rd_step(r, (tape_code)op->code, op->type, base + op->offset);
    if (s != FBE_OK) {
      fbei_error_prepend_field(r->err, op->name);
      return s;
    }
  }
  return FBE_OK;
}

static fbe_status rd_elements(reader *r, const fbe_type *e, uint8_t *data, uint32_t count) {
  const tape_prog *pg = e->wire == FBE_KIND_STRUCT ? prog_of(r->progs, e->st) : NULL;
  tape_code code = code_of(e, r->progs->format);
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *slot = data + (size_t)i * e->mem_size;
    fbe_status s = pg ? rd_prog(r, pg, slot) : rd_step(r, code, e, slot);
    if (s != FBE_OK) {
      fbei_error_prepend_index(r->err, i);
      return s;
    }
  }
  return FBE_OK;
}

/* 1 when every value of t takes a slot (structs and arrays may take none). */
static int takes_a_slot(const fbe_type *t) {
  return t->wire != FBE_KIND_STRUCT && t->wire != FBE_KIND_ARRAY;
}

static fbe_status rd_collection(reader *r, const fbe_type *t, fbei_vec *v) {
  uint32_t count;
  memset(v, 0, sizeof *v);
  if (rd_count(r, &count, 0)) return overrun(r);
  if (!count) return FBE_OK;
  int map = t->wire == FBE_KIND_MAP;
  /* a count beyond what the tape can hold is an overrun, not an allocation */
  if ((map ? takes_a_slot(t->key) || takes_a_slot(t->elem) : takes_a_slot(t->elem)) &&
      count > r->n_end - r->n)
    return overrun(r);
  uint8_t *data = fbei_vec_grow(v, r->arena, map ? t->pair_stride : t->elem->mem_size, count);
  if (!data) return no_memory(r);
  if (!map) {
    fbe_status s = rd_elements(r, t->elem, data, count);
    if (s == FBE_OK && t->kind == FBE_KIND_SET && fbei_keys_dedup(t, v)) return no_memory(r);
    return s;
  }
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *pair = data + (size_t)i * t->pair_stride;
    fbe_status s = rd_value(r, t->key, pair);
    if (s != FBE_OK) fbei_error_prepend_key(r->err);
    else s = rd_value(r, t->elem, pair + t->pair_value_offset);
    if (s != FBE_OK) {
      fbei_error_prepend_index(r->err, i);
      return s;
    }
  }
  return fbei_keys_dedup(t, v) ? no_memory(r) : FBE_OK; /* one entry per key, the last value */
}

/* Structs, optionals, arrays, collections (and scalars reached through them). Present
 * optionals and collections count one level each, as the core counts them (structs
 * and arrays do not): what reads here encodes. */
static fbe_status rd_value(reader *r, const fbe_type *t, uint8_t *slot) {
  if (t->wire == FBE_KIND_STRUCT) return rd_prog(r, prog_of(r->progs, t->st), slot);
  tape_code code = code_of(t, r->progs->format);
  if (code != OP_VALUE) return rd_step(r, code, t, slot);
  if (t->wire == FBE_KIND_ARRAY) return rd_elements(r, t->elem, slot, t->array_size);
  if (t->wire == FBE_KIND_OPTIONAL) {
    if (r->n >= r->n_end) return overrun(r);
    if (!present(r)) { /* null: no level */
      r->n++;
      memset(slot, 0, sizeof(void *));
      return FBE_OK;
    }
  } else if (t->wire != FBE_KIND_VECTOR && t->wire != FBE_KIND_MAP) {
    return fbei_error_set(r->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "unsupported type %s",
                         fbe_kind_name(t->kind));
  }
  if (r->depth >= FBE_DEFAULT_MAX_DEPTH) return fbei_tape_too_deep(r->err);
  r->depth++;
  fbe_status s;
  if (t->wire == FBE_KIND_OPTIONAL) {
    void *value = fbe_arena_alloc(r->arena, t->elem->mem_size);
    r->n++;
    if (!value) {
      s = no_memory(r);
    } else {
      memset(value, 0, t->elem->mem_size);
      s = rd_value(r, t->elem, value);
    }
    memcpy(slot, &value, sizeof value);
  } else {
    s = rd_collection(r, t, (fbei_vec *)(void *)slot);
  }
  r->depth--;
  return s;
}

fbe_msg *fbei_tape_read(const fbei_tape_programs *progs, const fbei_tape *tp, const fbe_struct *st,
                       uint32_t *n, uint32_t *p, fbe_arena *arena, fbe_error *err) {
  reader r = {tp->num, *n, tp->num_cap, tp->bytes, *p, tp->bytes_cap, progs, arena, err, 0};
  if (!is_ours(progs, st)) {
    fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "internal error: a struct without a tape program");
    return NULL;
  }
  if (r.n > r.n_end || r.p > r.p_end) {
    overrun(&r);
    return NULL;
  }
  fbe_msg *m = fbei_msg_shell(arena, st);
  if (!m) {
    no_memory(&r);
    return NULL;
  }
  memset(fbei_msg_data(m), 0, st->mem_size);
  if (rd_prog(&r, prog_of(progs, st), fbei_msg_data(m)) != FBE_OK) return NULL;
  *n = r.n;
  *p = r.p;
  return m;
}

/* ------------------------------------------------------------------ value -> tape */

typedef struct writer {
  fbei_tape_slot *num;
  uint64_t n, n_cap; /* past the capacity the writer only counts: the totals say how */
  uint8_t *bytes;    /* much to grow */
  uint64_t p, p_cap;
  const fbei_tape_programs *progs;
  int negate_utf8;   /* FBE_TAPE_DOUBLE: a string that is not ASCII gets -length */
} writer;

static void wr_value(writer *w, const fbe_type *t, const uint8_t *slot);

static inline void wr_int(writer *w, int64_t x) {
  if (w->n < w->n_cap) w->num[w->n].i = x;
  w->n++;
}

static inline void wr_num(writer *w, double d) {
  if (w->n < w->n_cap) w->num[w->n].d = d;
  w->n++;
}

/* A count or a length in the slot format. */
static inline void wr_count(writer *w, uint32_t x) {
  if (w->progs->format == FBE_TAPE_DOUBLE) wr_num(w, x);
  else wr_int(w, x);
}

static void wr_text(writer *w, const uint8_t *data, size_t size, int is_string) {
  int negate = 0;
  if (w->p + size <= w->p_cap) {
    if (size) memcpy(w->bytes + w->p, data, size);
    negate = is_string && w->negate_utf8 && !fbe_is_ascii(data, size);
  }
  w->p += size;
  if (negate) wr_num(w, -(double)size);
  else wr_count(w, (uint32_t)size);
}

static uint64_t get_be64(const uint8_t *p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x = x << 8 | p[i];
  return x;
}

/* A slot's scalar, sign-extended for the signed kinds. */
static inline int64_t ld_i8(const uint8_t *p) { return (int8_t)*p; }
static inline int64_t ld_i16(const uint8_t *p) { int16_t v; memcpy(&v, p, 2); return v; }
static inline int64_t ld_u16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline int64_t ld_i32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return v; }
static inline int64_t ld_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline double ld_f32(const uint8_t *p) { float v; memcpy(&v, p, 4); return v; }

static inline void wr_step(writer *w, tape_code code, const fbe_type *t, const uint8_t *slot) {
  switch (code) {
    case OP_BITS64:
      if (w->n < w->n_cap) memcpy(&w->num[w->n], slot, 8);
      w->n++;
      return;
    /* INT64: signed kinds sign-extended, unsigned ones and a float's bits not */
    case OP_BOOL: case OP_U8: wr_int(w, *slot); return;
    case OP_I8: wr_int(w, ld_i8(slot)); return;
    case OP_I16: wr_int(w, ld_i16(slot)); return;
    case OP_U16: wr_int(w, ld_u16(slot)); return;
    case OP_I32: wr_int(w, ld_i32(slot)); return;
    case OP_U32: wr_int(w, ld_u32(slot)); return;
    case OP_UUID_SLOTS:
      wr_int(w, (int64_t)get_be64(slot));
      wr_int(w, (int64_t)get_be64(slot + 8));
      return;
    /* DOUBLE: the number */
    case OP_NUM_BOOL: case OP_NUM_U8: wr_num(w, *slot); return;
    case OP_NUM_I8: wr_num(w, ld_i8(slot)); return;
    case OP_NUM_I16: wr_num(w, ld_i16(slot)); return;
    case OP_NUM_U16: wr_num(w, ld_u16(slot)); return;
    case OP_NUM_I32: wr_num(w, ld_i32(slot)); return;
    case OP_NUM_U32: wr_num(w, ld_u32(slot)); return;
    case OP_NUM_F32: wr_num(w, ld_f32(slot)); return;
    case OP_UUID_TEXT: {
      char text[37];
      fbe_uuid_format((const fbe_uuid *)(const void *)slot, text);
      wr_text(w, (const uint8_t *)text, 36, 0);
      return;
    }
    case OP_STR: case OP_BYTES: {
      const fbei_str *s = (const fbei_str *)(const void *)slot;
      wr_text(w, s->data, s->size, code == OP_STR);
      return;
    }
    case OP_DEC: {
      char text[64];
      fbe_decimal_format((const fbe_decimal *)(const void *)slot, text, sizeof text);
      wr_text(w, (const uint8_t *)text, strlen(text), 0);
      return;
    }
    default:
      wr_value(w, t, slot);
      return;
  }
}

static void wr_prog(writer *w, const tape_prog *pg, const uint8_t *base) {
  const tape_op *op = pg->ops, *end = op + pg->nops;
  for (; op < end; op++) wr_step(w, (tape_code)op->code, op->type, base + op->offset);
}

static void wr_elements(writer *w, const fbe_type *e, const uint8_t *data, uint32_t count) {
  const tape_prog *pg = e->wire == FBE_KIND_STRUCT ? prog_of(w->progs, e->st) : NULL;
  tape_code code = code_of(e, w->progs->format);
  if (code == OP_BITS64 && e->mem_size == 8) { /* the slots are the elements' bytes: one copy */
    if (w->n <= w->n_cap && count <= w->n_cap - w->n) memcpy(&w->num[w->n], data, (size_t)count * 8);
    w->n += count;
    return;
  }
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *slot = data + (size_t)i * e->mem_size;
    if (pg) wr_prog(w, pg, slot);
    else wr_step(w, code, e, slot);
  }
}

static void wr_value(writer *w, const fbe_type *t, const uint8_t *slot) {
  switch (t->wire) {
    case FBE_KIND_STRUCT:
      wr_prog(w, prog_of(w->progs, t->st), slot);
      return;
    case FBE_KIND_OPTIONAL: {
      const uint8_t *value;
      memcpy(&value, slot, sizeof value);
      wr_count(w, value ? 1 : 0);
      if (value) wr_value(w, t->elem, value);
      return;
    }
    case FBE_KIND_ARRAY:
      wr_elements(w, t->elem, slot, t->array_size);
      return;
    case FBE_KIND_VECTOR: {
      const fbei_vec *v = (const fbei_vec *)(const void *)slot;
      wr_count(w, v->count);
      wr_elements(w, t->elem, v->data, v->count);
      return;
    }
    case FBE_KIND_MAP: {
      const fbei_vec *v = (const fbei_vec *)(const void *)slot;
      wr_count(w, v->count);
      for (uint32_t i = 0; i < v->count; i++) {
        const uint8_t *pair = (const uint8_t *)v->data + (size_t)i * t->pair_stride;
        wr_value(w, t->key, pair);
        wr_value(w, t->elem, pair + t->pair_value_offset);
      }
      return;
    }
    default:
      wr_step(w, code_of(t, w->progs->format), t, slot);
      return;
  }
}

/* A message is the ref of its root struct (written, never changed). */
int fbei_tape_write(const fbei_tape_programs *progs, fbei_tape *tp, const fbe_msg *m, uint32_t n,
                   uint32_t p, uint64_t *need_n, uint64_t *need_p) {
  return fbei_tape_write_ref(progs, tp, fbe_msg_ref((fbe_msg *)m), n, p, need_n, need_p);
}

int fbei_tape_write_ref(const fbei_tape_programs *progs, fbei_tape *tp, fbe_ref r, uint32_t n,
                       uint32_t p, uint64_t *need_n, uint64_t *need_p) {
  writer w = {tp->num, n, tp->num_cap, tp->bytes, p, tp->bytes_cap, progs,
              progs->format == FBE_TAPE_DOUBLE};
  if (r.type && r.slot && (r.type->wire != FBE_KIND_STRUCT || is_ours(progs, r.type->st)))
    wr_value(&w, r.type, r.slot);
  *need_n = w.n - n;
  *need_p = w.p - p;
  return w.n <= w.n_cap && w.p <= w.p_cap ? 0 : -1;
}

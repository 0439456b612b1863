/* Tape <-> in-memory value (see tape.h for the layout). Driven by the compiled schema
 * tables (schema_model.h) and the value layout (value.h): no name is looked up here. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tape.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/value.h"
#include "fbe/internal/error.h"

/* ------------------------------------------------------------------ programs */

/* One step: a scalar field at a fixed offset from the struct's start, or (OP_VALUE)
 * an optional, array or collection walked by the generic code. */
typedef enum tape_code {
  OP_BOOL, OP_I8, OP_U8, OP_I16, OP_U16, OP_I32, OP_U32, OP_BITS64, OP_F32, OP_F64,
  OP_STR, OP_BYTES, OP_DEC, OP_UUID, OP_VALUE
} tape_code;

typedef struct tape_op {
  uint8_t code;          /* tape_code */
  uint32_t offset;       /* from the start of the struct value */
  const fbe_type *type;
  const char *name;      /* "wallet.currency" for a spliced nested field */
} tape_op;

typedef struct tape_prog {
  const fbe_struct *st;
  uint32_t nops;
  tape_op *ops;
} tape_prog;

struct fbe_tape_progs {
  fbe_arena *arena;      /* owns everything below */
  uint32_t count, mask;
  tape_prog *progs;
  const tape_prog **table; /* open addressing by struct pointer */
};

static uint32_t slot_of(const fbe_struct *st, uint32_t mask) {
  uint64_t h = (uint64_t)(uintptr_t)st * UINT64_C(0x9e3779b97f4a7c15);
  return (uint32_t)(h >> 32) & mask;
}

static const tape_prog *prog_of(const fbe_tape_progs *pp, const fbe_struct *st) {
  for (uint32_t i = slot_of(st, pp->mask);; i = (i + 1) & pp->mask) {
    const tape_prog *pg = pp->table[i];
    if (!pg || pg->st == st) return pg;
  }
}

static tape_code code_of(const fbe_type *t) {
  switch (t->wire) {
    case FBE_KIND_BOOL: return OP_BOOL;
    case FBE_KIND_INT8: return OP_I8;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: return OP_U8;
    case FBE_KIND_INT16: return OP_I16;
    case FBE_KIND_UINT16: return OP_U16;
    case FBE_KIND_INT32: return OP_I32;
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR: return OP_U32;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP: return OP_BITS64;
    case FBE_KIND_FLOAT: return OP_F32;
    case FBE_KIND_DOUBLE: return OP_F64;
    case FBE_KIND_STRING: return OP_STR;
    case FBE_KIND_BYTES: return OP_BYTES;
    case FBE_KIND_DECIMAL: return OP_DEC;
    case FBE_KIND_UUID: return OP_UUID;
    default: return OP_VALUE;
  }
}

static uint32_t count_ops(const fbe_struct *st) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < st->nfields; i++)
    n += st->fields[i].type->kind == FBE_KIND_STRUCT ? count_ops(st->fields[i].type->st) : 1;
  return n;
}

static tape_op *emit(fbe_arena *arena, tape_op *op, const fbe_struct *st, uint32_t base,
                     const char *prefix) {
  for (uint32_t i = 0; i < st->nfields && op; i++) {
    const fbe_field *f = &st->fields[i];
    const char *name = f->name;
    if (prefix) {
      size_t a = strlen(prefix), b = strlen(f->name);
      char *joined = fbe_arena_alloc(arena, a + b + 2);
      if (!joined) return NULL;
      memcpy(joined, prefix, a);
      joined[a] = '.';
      memcpy(joined + a + 1, f->name, b + 1);
      name = joined;
    }
    if (f->type->kind == FBE_KIND_STRUCT) {
      op = emit(arena, op, f->type->st, base + f->mem_offset, name);
    } else {
      op->code = (uint8_t)code_of(f->type);
      op->offset = base + f->mem_offset;
      op->type = f->type;
      op->name = name;
      op++;
    }
  }
  return op;
}

fbe_tape_progs *fbe_tape_compile(const fbe_schema *schema) {
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return NULL;
  fbe_tape_progs *pp = fbe_arena_alloc(arena, sizeof *pp);
  if (!pp) goto fail;
  memset(pp, 0, sizeof *pp);
  pp->arena = arena;
  for (uint32_t i = 0; i < schema->npackages; i++) pp->count += schema->packages[i]->nstructs;
  uint32_t size = 8;
  while (size < 2 * pp->count + 2) size *= 2;
  pp->mask = size - 1;
  pp->progs = fbe_arena_alloc(arena, sizeof *pp->progs * (pp->count + 1));
  pp->table = fbe_arena_alloc(arena, sizeof *pp->table * size);
  if (!pp->progs || !pp->table) goto fail;
  memset(pp->table, 0, sizeof *pp->table * size);
  uint32_t k = 0;
  for (uint32_t i = 0; i < schema->npackages; i++) {
    const fbe_package *pkg = schema->packages[i];
    for (uint32_t j = 0; j < pkg->nstructs; j++, k++) {
      tape_prog *pg = &pp->progs[k];
      pg->st = pkg->structs[j];
      pg->nops = count_ops(pg->st);
      pg->ops = fbe_arena_alloc(arena, sizeof *pg->ops * (pg->nops + 1));
      if (!pg->ops || !emit(arena, pg->ops, pg->st, 0, NULL)) goto fail;
      uint32_t s = slot_of(pg->st, pp->mask);
      while (pp->table[s]) s = (s + 1) & pp->mask;
      pp->table[s] = pg;
    }
  }
  return pp;
fail:
  fbe_arena_free(arena);
  return NULL;
}

void fbe_tape_progs_free(fbe_tape_progs *pp) {
  if (pp) fbe_arena_free(pp->arena);
}

/* ------------------------------------------------------------------ reading */

typedef struct reader {
  const double *num;
  uint32_t n, n_end;
  const uint8_t *bytes;
  uint32_t p, p_end;
  fbe_arena *arena;
  fbe_error *err;
  const fbe_tape_progs *progs;
  unsigned depth;
} reader;

static fbe_status rd_value(reader *r, const fbe_type *t, uint8_t *slot);

/* The tape is written by lib/: running off its end means the JavaScript side and the
 * schema disagree. Reported, never read past. */
static fbe_status tape_overrun(reader *r) {
  return fbe_error_set(r->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                       "internal error: the value tape ends early");
}

static fbe_status out_of_range(reader *r, const fbe_type *t, double d) {
  char what[192];
  if (t->enm)
    snprintf(what, sizeof what, "%s (%s)", t->enm->full_name, fbe_kind_name(t->enm->base));
  else
    snprintf(what, sizeof what, "%s", fbe_kind_name(t->kind));
  if (d != d)
    return fbe_error_set(r->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "NaN is not a valid %s", what);
  return fbe_error_set(r->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "%.17g is out of range for %s%s", d,
                       what, isinf(d) || d == floor(d) ? "" : " (not a whole number)");
}

static fbe_status no_memory(reader *r) {
  return fbe_error_set(r->err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
}

/* A count or a length: a whole number that fits in 32 bits. */
static int rd_count(reader *r, uint32_t *out) {
  if (r->n >= r->n_end) return -1;
  double d = r->num[r->n++];
  if (!(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) return -1;
  *out = (uint32_t)d;
  return 0;
}

static int rd_span(reader *r, const uint8_t **data, uint32_t *size) {
  uint32_t len;
  if (rd_count(r, &len) || len > r->p_end - r->p) return -1;
  *data = r->bytes + r->p;
  *size = len;
  r->p += len;
  return 0;
}

/* One scalar step; OP_VALUE goes to the generic walk. */
static inline fbe_status rd_step(reader *r, tape_code code, const fbe_type *t, uint8_t *slot) {
  double d = 0;
  if (code <= OP_F64) {
    if (r->n >= r->n_end) return tape_overrun(r);
    if (code == OP_BITS64) { /* the slot holds the 64-bit pattern, not a double */
      memcpy(slot, &r->num[r->n++], 8);
      return FBE_OK;
    }
    d = r->num[r->n++];
  }
  switch (code) {
    case OP_BOOL: *slot = d != 0; return FBE_OK;
    case OP_I8:
      if (!(d >= -128.0 && d <= 127.0) || d != (double)(int8_t)d) return out_of_range(r, t, d);
      *(int8_t *)slot = (int8_t)d;
      return FBE_OK;
    case OP_U8:
      if (!(d >= 0 && d <= 255.0) || d != (double)(uint8_t)d) return out_of_range(r, t, d);
      *slot = (uint8_t)d;
      return FBE_OK;
    case OP_I16: {
      if (!(d >= -32768.0 && d <= 32767.0) || d != (double)(int16_t)d) return out_of_range(r, t, d);
      int16_t v = (int16_t)d;
      memcpy(slot, &v, 2);
      return FBE_OK;
    }
    case OP_U16: {
      if (!(d >= 0 && d <= 65535.0) || d != (double)(uint16_t)d) return out_of_range(r, t, d);
      uint16_t v = (uint16_t)d;
      memcpy(slot, &v, 2);
      return FBE_OK;
    }
    case OP_I32: {
      if (!(d >= -2147483648.0 && d <= 2147483647.0) || d != (double)(int32_t)d)
        return out_of_range(r, t, d);
      int32_t v = (int32_t)d;
      memcpy(slot, &v, 4);
      return FBE_OK;
    }
    case OP_U32: {
      if (!(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) return out_of_range(r, t, d);
      uint32_t v = (uint32_t)d;
      memcpy(slot, &v, 4);
      return FBE_OK;
    }
    case OP_F32: {
      float f = (float)d;
      if (isinf(f) && !isinf(d)) return out_of_range(r, t, d);
      memcpy(slot, &f, 4);
      return FBE_OK;
    }
    case OP_F64:
      memcpy(slot, &d, 8);
      return FBE_OK;
    case OP_STR: case OP_BYTES: {
      fbe_str *s = (fbe_str *)slot;
      if (rd_span(r, &s->data, &s->size)) return tape_overrun(r);
      /* the core's check and words, the same in every binding (lib/ puts a lone
       * surrogate on the tape as its 3 bytes for this to refuse) */
      if (code == OP_STR && fbe_utf8_check(s->data, s->size, r->err) != FBE_OK) {
        r->err->offset = FBE_NO_OFFSET; /* an offset in the string, not in an input */
        return r->err->code;
      }
      return FBE_OK;
    }
    case OP_DEC: {
      const uint8_t *text;
      uint32_t len;
      if (rd_span(r, &text, &len)) return tape_overrun(r);
      fbe_status s = fbe_decimal_parse((const char *)text, len, (fbe_decimal *)slot);
      if (s == FBE_ERR_RANGE)
        return fbe_error_set(r->err, FBE_ERR_RANGE, FBE_NO_OFFSET,
                             "decimal \"%.*s\" is out of range (96 bits, scale 28)",
                             (int)(len > 64 ? 64 : len), (const char *)text);
      if (s != FBE_OK)
        return fbe_error_set(r->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "\"%.*s\" is not a decimal number",
                             (int)(len > 64 ? 64 : len), (const char *)text);
      return FBE_OK;
    }
    case OP_UUID: {
      const uint8_t *text;
      uint32_t len;
      if (rd_span(r, &text, &len)) return tape_overrun(r);
      if (fbe_uuid_parse((const char *)text, len, (fbe_uuid *)slot) != FBE_OK)
        return fbe_error_set(r->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "\"%.*s\" is not a uuid",
                             (int)(len > 64 ? 64 : len), (const char *)text);
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
      fbe_error_prepend_field(r->err, op->name);
      return s;
    }
  }
  return FBE_OK;
}

static fbe_status rd_struct(reader *r, const fbe_struct *st, uint8_t *base) {
  const tape_prog *pg = prog_of(r->progs, st);
  if (!pg) return fbe_error_set(r->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "internal error: no program");
  return rd_prog(r, pg, base);
}

/* `count` elements of type e into storage with the given stride. */
static fbe_status rd_elements(reader *r, const fbe_type *e, uint8_t *data, uint32_t count,
                              uint32_t stride) {
  const tape_prog *pg = e->kind == FBE_KIND_STRUCT ? prog_of(r->progs, e->st) : NULL;
  tape_code code = code_of(e);
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *slot = data + (size_t)i * stride;
    fbe_status s = pg ? rd_prog(r, pg, slot) : rd_step(r, code, e, slot);
    if (s != FBE_OK) {
      fbe_error_prepend_index(r->err, i);
      return s;
    }
  }
  return FBE_OK;
}

fbe_status fbe_tape_too_deep(fbe_error *err) {
  return fbe_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "value nested deeper than %u levels",
                       FBE_DEFAULT_MAX_DEPTH);
}

/* Optionals, arrays, collections (and scalars reached through them). */
static fbe_status rd_value(reader *r, const fbe_type *t, uint8_t *slot) {
  if (t->kind == FBE_KIND_STRUCT) return rd_struct(r, t->st, slot);
  tape_code code = code_of(t);
  if (code != OP_VALUE) return rd_step(r, code, t, slot);
  /* optionals and collections: the only ways a value nests, one level each (the core's
   * rule; an array is not a level) */
  unsigned level = t->wire != FBE_KIND_ARRAY;
  if (t->wire == FBE_KIND_OPTIONAL && r->n < r->n_end && r->num[r->n] == 0) { /* null: no level */
    r->n++;
    memset(slot, 0, sizeof(void *));
    return FBE_OK;
  }
  if (level && r->depth >= FBE_DEFAULT_MAX_DEPTH) return fbe_tape_too_deep(r->err);
  fbe_status s = FBE_OK;
  uint32_t count;
  r->depth += level;
  switch (t->wire) {
    case FBE_KIND_OPTIONAL: {
      void *value = NULL;
      if (r->n >= r->n_end) {
        s = tape_overrun(r);
        break;
      }
      if (r->num[r->n++] != 0) {
        if (!(value = fbe_arena_alloc(r->arena, t->elem->mem_size))) {
          s = no_memory(r);
          break;
        }
        memset(value, 0, t->elem->mem_size);
        s = rd_value(r, t->elem, value);
      }
      memcpy(slot, &value, sizeof value);
      break;
    }
    case FBE_KIND_ARRAY:
      s = rd_elements(r, t->elem, slot, t->array_size, t->elem->mem_size);
      break;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      fbe_vec *v = (fbe_vec *)slot;
      memset(v, 0, sizeof *v);
      if (rd_count(r, &count)) {
        s = tape_overrun(r);
        break;
      }
      if (!count) break;
      int map = t->wire == FBE_KIND_MAP;
      uint8_t *data = fbe_vec_grow(v, r->arena, map ? t->pair_stride : t->elem->mem_size, count);
      if (!data) {
        s = no_memory(r);
        break;
      }
      if (!map) {
        s = rd_elements(r, t->elem, data, count, t->elem->mem_size);
        break;
      }
      for (uint32_t i = 0; i < count && s == FBE_OK; i++) {
        uint8_t *pair = data + (size_t)i * t->pair_stride;
        s = rd_value(r, t->key, pair);
        if (s == FBE_OK) s = rd_value(r, t->elem, pair + t->pair_value_offset);
        if (s != FBE_OK) fbe_error_prepend_index(r->err, i);
      }
      break;
    }
    default:
      s = fbe_error_set(r->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "unsupported type %s",
                        fbe_kind_name(t->kind));
      break;
  }
  r->depth -= level;
  return s;
}

fbe_status fbe_tape_read_struct(const fbe_tape *tp, const fbe_struct *st, void *slot,
                                fbe_arena *arena, fbe_error *err) {
  int32_t n0 = tp->regs[REG_N0], p0 = tp->regs[REG_P0];
  if (n0 < 0 || (uint32_t)n0 > tp->num_cap || p0 < 0 || (uint32_t)p0 > tp->bytes_cap)
    return fbe_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "internal error: bad tape position");
  reader r = {tp->num, (uint32_t)n0, tp->num_cap, tp->bytes, (uint32_t)p0, tp->bytes_cap,
              arena, err, tp->progs, 0};
  return rd_struct(&r, st, slot);
}

/* ------------------------------------------------------------------ writing */

typedef struct writer {
  double *num;
  uint64_t n, n_cap;
  uint8_t *bytes;
  uint64_t p, p_cap;
  const fbe_tape_progs *progs;
} writer;

static void wr_value(writer *w, const fbe_type *t, const uint8_t *slot);

/* Past the end of a tape, writers only count: the totals say how much to grow. */
static inline void wr_slot(writer *w, double d) {
  if (w->n < w->n_cap) w->num[w->n] = d;
  w->n++;
}

static void wr_text(writer *w, const uint8_t *data, size_t size, int check_ascii) {
  double len = (double)size;
  if (w->p + size <= w->p_cap) {
    if (size) memcpy(w->bytes + w->p, data, size);
    if (check_ascii) {
      uint8_t high = 0;
      for (size_t i = 0; i < size; i++) high |= data[i];
      if (high & 0x80) len = -len;
    }
  }
  w->p += size;
  wr_slot(w, len);
}

static inline void wr_step(writer *w, tape_code code, const fbe_type *t, const uint8_t *slot) {
  switch (code) {
    case OP_BOOL: case OP_U8: wr_slot(w, *slot); return;
    case OP_I8: wr_slot(w, *(const int8_t *)slot); return;
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
    case OP_BITS64: {
      if (w->n < w->n_cap) memcpy(&w->num[w->n], slot, 8);
      w->n++;
      return;
    }
    case OP_F32: {
      float f;
      memcpy(&f, slot, 4);
      wr_slot(w, (double)f);
      return;
    }
    case OP_F64: {
      double d;
      memcpy(&d, slot, 8);
      wr_slot(w, d);
      return;
    }
    case OP_STR: case OP_BYTES: {
      const fbe_str *s = (const fbe_str *)slot;
      wr_text(w, s->data, s->size, code == OP_STR);
      return;
    }
    case OP_DEC: {
      char text[64];
      fbe_decimal_format((const fbe_decimal *)slot, text, sizeof text);
      wr_text(w, (const uint8_t *)text, strlen(text), 0);
      return;
    }
    case OP_UUID: {
      char text[37];
      fbe_uuid_format((const fbe_uuid *)slot, text);
      wr_text(w, (const uint8_t *)text, 36, 0);
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

static void wr_elements(writer *w, const fbe_type *e, const uint8_t *data, uint32_t count,
                        uint32_t stride) {
  const tape_prog *pg = e->kind == FBE_KIND_STRUCT ? prog_of(w->progs, e->st) : NULL;
  tape_code code = code_of(e);
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t *slot = data + (size_t)i * stride;
    if (pg) wr_prog(w, pg, slot);
    else wr_step(w, code, e, slot);
  }
}

static void wr_value(writer *w, const fbe_type *t, const uint8_t *slot) {
  switch (t->wire) {
    case FBE_KIND_STRUCT: {
      const tape_prog *pg = prog_of(w->progs, t->st);
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
      wr_elements(w, t->elem, slot, t->array_size, t->elem->mem_size);
      return;
    case FBE_KIND_VECTOR: {
      const fbe_vec *v = (const fbe_vec *)slot;
      wr_slot(w, v->count);
      wr_elements(w, t->elem, v->data, v->count, t->elem->mem_size);
      return;
    }
    case FBE_KIND_MAP: {
      const fbe_vec *v = (const fbe_vec *)slot;
      const uint8_t *pairs = v->data;
      wr_slot(w, v->count);
      for (uint32_t i = 0; i < v->count; i++) {
        const uint8_t *pair = pairs + (size_t)i * t->pair_stride;
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

int fbe_tape_write_struct(fbe_tape *tp, const fbe_struct *st, const void *slot) {
  int32_t n0 = tp->regs[REG_N0], p0 = tp->regs[REG_P0];
  if (n0 < 0 || (uint32_t)n0 > tp->num_cap || p0 < 0 || (uint32_t)p0 > tp->bytes_cap) {
    n0 = 0;
    p0 = 0;
  }
  writer w = {tp->num, (uint64_t)n0, tp->num_cap, tp->bytes, (uint64_t)p0, tp->bytes_cap, tp->progs};
  const tape_prog *pg = prog_of(tp->progs, st);
  if (pg) wr_prog(&w, pg, slot);
  if (w.n <= w.n_cap && w.p <= w.p_cap) return 0;
  uint64_t need_n = w.n - (uint64_t)n0, need_p = w.p - (uint64_t)p0;
  tp->regs[REG_NEED_N] = need_n > INT32_MAX ? INT32_MAX : (int32_t)need_n;
  tp->regs[REG_NEED_P] = need_p > INT32_MAX ? INT32_MAX : (int32_t)need_p;
  return -1;
}

/* The tape straight to a model's bytes (fbe/internal/tape.h: fbei_tape_encode), without
 * building the in-memory value: what fbe_encode writes for the value fbei_tape_read
 * would build, for the values it can write this way. Anything else (a set, map or
 * hash, whose duplicate keys the reader collapses; a string that is not UTF-8; a
 * decimal out of range; a value nested too deep; a tape that disagrees with the schema;
 * an output larger than the room given) is left to the general way (read, then
 * fbe_encode), which gives the exact bytes or the exact error: this walk never decides
 * a rule, it only skips the in-memory value where that changes nothing.
 *
 * Mirrors wire/encode.c step for step (the standard model's blocks in the same order
 * at the same places, the final model's single pass), with the tape reader's reading
 * of each slot (tape.c: rd_step), over the tape programs (tape_program.h): the final
 * model walks a struct's spliced steps (its order), the standard model a struct's own
 * fields with their body offsets. A struct's walk keeps the positions in locals (the
 * output's byte stores cannot alias them), written back around a nested call. */
#include <string.h>
#include "fbe/codec.h"
#include "fbe/field.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/utf8.h"
#include "tape_program.h"

typedef struct tenc {
  const fbei_tape_programs *pp;
  /* the tape (FBE_TAPE_INT64) */
  const fbei_tape_slot *num;
  uint32_t n, n_end;
  const uint8_t *bytes;
  uint32_t p, p_end;
  /* the output */
  uint8_t *out;
  size_t size, cap;
  uint32_t depth;
} tenc;

#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define COLD
#define LIKELY(x) (x)
#endif

/* Bytes a one-slot scalar step writes (OP_BITS64 .. OP_U32). */
static const uint8_t WIDTH[] = {8, 1, 1, 1, 2, 2, 4, 4};

static void put_be64(uint8_t *p, uint64_t x) {
  for (int i = 7; i >= 0; i--, x >>= 8) p[i] = (uint8_t)x;
}

/* A one-slot scalar's bytes (code OP_BITS64 .. OP_U32): the value rd_step stores and
 * the encoders copy (a bool normalised, the others their low bytes; a float's bits). */
static inline void put_scalar(uint8_t *w, uint8_t code, int64_t x) {
  switch (code) {
    case OP_BITS64: fbe_store64(w, (uint64_t)x); return;
    case OP_BOOL: *w = x != 0; return;
    case OP_I8: case OP_U8: *w = (uint8_t)x; return;
    case OP_I16: case OP_U16: fbe_store16(w, (uint16_t)x); return;
    default: fbe_store32(w, (uint32_t)x); return;
  }
}

/* Where a step leaves the tape: its slot and byte positions (ok 0), or ok -1 (left). */
typedef struct tape_at {
  int ok;
  uint32_t n, p;
} tape_at;

/* The 16 bytes of a uuid (two slots) or a decimal (its text, parsed by the core's
 * fbe_decimal_parse) at w, from slot n and byte p. */
static tape_at put16(const fbei_tape_slot *num, uint32_t n, uint32_t n_end, const uint8_t *bytes, uint32_t p,
                     uint32_t p_end, uint8_t code, uint8_t *w) {
  tape_at r = {-1, n, p};
  if (code == OP_UUID_SLOTS) {
    if (n_end - n < 2) return r;
    put_be64(w, (uint64_t)num[n].i);
    put_be64(w + 8, (uint64_t)num[n + 1].i);
    return (tape_at){0, n + 2, p};
  }
  if (n >= n_end) return r;
  int64_t len = num[n].i;
  fbe_decimal d;
  if (len < 0 || len > p_end - p || fbe_decimal_parse((const char *)bytes + p, (size_t)len, &d) != FBE_OK) return r;
  memcpy(w, d.bytes, 16);
  return (tape_at){0, n + 1, p + (uint32_t)len};
}

/* A string's or bytes' length slot (at n) and contents (at byte p) as rd_span reads
 * them: the length, or -1 when the tape does not hold them. */
static inline int64_t span_len(const fbei_tape_slot *num, uint32_t n, uint32_t n_end, uint32_t p, uint32_t p_end) {
  if (n >= n_end) return -1;
  int64_t x = num[n].i;
  return x < 0 || x > p_end - p ? -1 : x;
}

static inline void copy_bytes(uint8_t *w, const uint8_t *data, uint32_t len) {
  if (len <= 16) fbe_copy_small(w, data, len); /* most strings: no libc call */
  else memcpy(w, data, len);
}

/* Optionals and collections count one level each, as the reader and the encoders count
 * them: past the limit the general way says so. */
static inline int enter(tenc *e) {
  if (e->depth >= FBE_DEFAULT_MAX_DEPTH) return -1;
  e->depth++;
  return 0;
}

/* A sequence's element count that the tape cannot hold is the reader's overrun. */
static inline int fits_tape(const tenc *e, const fbe_type *el, uint32_t c) {
  return el->wire != FBE_KIND_STRUCT && el->wire != FBE_KIND_ARRAY && c > e->n_end - e->n ? -1 : 0;
}

/* A count slot: 0 .. 2^32-1 (rd_count). */
static inline int count(tenc *e, uint32_t *c) {
  if (e->n >= e->n_end) return -1;
  int64_t x = e->num[e->n++].i;
  if (x < 0 || x > (int64_t)UINT32_MAX) return -1;
  *c = (uint32_t)x;
  return 0;
}

/* 8-byte elements whose slots are their wire bytes (a little-endian host): one copy. */
static inline int bulk64(const fbe_type *el) {
  return !FBE_BIG_ENDIAN && (el->wire == FBE_KIND_INT64 || el->wire == FBE_KIND_UINT64 ||
                             el->wire == FBE_KIND_TIMESTAMP || el->wire == FBE_KIND_DOUBLE);
}

/* ------------------------------------------------------------ final model */

static int fin_value(tenc *e, const fbe_type *t);

static int fin_prog(tenc *e, const tape_prog *pg) {
  const fbei_tape_slot *num = e->num;
  const uint8_t *bytes = e->bytes;
  const uint32_t n_end = e->n_end, p_end = e->p_end;
  uint8_t *out = e->out;
  const size_t cap = e->cap;
  uint32_t n = e->n, p = e->p;
  size_t size = e->size;
  for (const tape_op *op = pg->ops, *end = op + pg->nops; op < end; op++) {
    uint8_t code = op->code;
    if (LIKELY(code <= OP_U32)) {
      uint8_t w = WIDTH[code];
      if (n >= n_end || cap - size < w) return -1;
      put_scalar(out + size, code, num[n++].i);
      size += w;
      continue;
    }
    switch (code) {
      case OP_STR: case OP_BYTES: {
        int64_t x = span_len(num, n, n_end, p, p_end);
        if (x < 0 || cap - size < 4 + (size_t)x) return -1;
        uint32_t len = (uint32_t)x;
        const uint8_t *data = bytes + p;
        if (code == OP_STR && !fbei_utf8_valid(data, len)) return -1; /* the reader's check: its words */
        fbe_store32(out + size, len);
        copy_bytes(out + size + 4, data, len);
        n++, p += len;
        size += 4 + (size_t)len;
        continue;
      }
      case OP_DEC: case OP_UUID_SLOTS: {
        if (cap - size < 16) return -1;
        tape_at r = put16(num, n, n_end, bytes, p, p_end, code, out + size);
        if (r.ok) return -1;
        n = r.n, p = r.p;
        size += 16;
        continue;
      }
      case OP_VALUE: {
        e->n = n, e->p = p, e->size = size;
        if (fin_value(e, op->type)) return -1;
        n = e->n, p = e->p, size = e->size;
        continue;
      }
      default: /* a DOUBLE-format step: not this walk's */
        return -1;
    }
  }
  e->n = n, e->p = p, e->size = size;
  return 0;
}

/* One value of any type (what OP_VALUE steps hold, and their elements). */
static int fin_value(tenc *e, const fbe_type *t) {
  if (t->wire == FBE_KIND_STRUCT) return fin_prog(e, fbei_tape_prog_of(e->pp, t->st));
  uint8_t code = (uint8_t)fbei_tape_code_of(t, FBE_TAPE_INT64);
  if (code <= OP_U32) {
    uint8_t w = WIDTH[code];
    if (e->n >= e->n_end || e->cap - e->size < w) return -1;
    put_scalar(e->out + e->size, code, e->num[e->n++].i);
    e->size += w;
    return 0;
  }
  switch (code) {
    case OP_STR: case OP_BYTES: {
      int64_t x = span_len(e->num, e->n, e->n_end, e->p, e->p_end);
      if (x < 0 || e->cap - e->size < 4 + (size_t)x) return -1;
      uint32_t len = (uint32_t)x;
      const uint8_t *data = e->bytes + e->p;
      if (code == OP_STR && !fbei_utf8_valid(data, len)) return -1;
      fbe_store32(e->out + e->size, len);
      copy_bytes(e->out + e->size + 4, data, len);
      e->n++, e->p += len;
      e->size += 4 + (size_t)len;
      return 0;
    }
    case OP_DEC: case OP_UUID_SLOTS: {
      if (e->cap - e->size < 16) return -1;
      tape_at r = put16(e->num, e->n, e->n_end, e->bytes, e->p, e->p_end, code, e->out + e->size);
      if (r.ok) return -1;
      e->n = r.n, e->p = r.p;
      e->size += 16;
      return 0;
    }
    default:
      break;
  }
  switch (t->wire) {
    case FBE_KIND_OPTIONAL: {
      if (e->n >= e->n_end || e->cap == e->size) return -1;
      int present = e->num[e->n++].i != 0;
      e->out[e->size++] = (uint8_t)present;
      if (!present) return 0;
      if (enter(e)) return -1;
      int rc = fin_value(e, t->elem);
      e->depth--;
      return rc;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++)
        if (fin_value(e, t->elem)) return -1;
      return 0;
    case FBE_KIND_VECTOR: {
      if (t->kind == FBE_KIND_SET) return -1; /* the reader collapses duplicates */
      const fbe_type *el = t->elem;
      uint32_t c;
      if (count(e, &c) || fits_tape(e, el, c) || e->cap - e->size < 4 || enter(e)) return -1;
      fbe_store32(e->out + e->size, c);
      e->size += 4;
      int rc = 0;
      if (bulk64(el)) { /* the slots are the elements' bytes: one copy */
        if (e->cap - e->size < (size_t)c * 8) {
          rc = -1;
        } else {
          if (c) memcpy(e->out + e->size, &e->num[e->n], (size_t)c * 8);
          e->size += (size_t)c * 8;
          e->n += c;
        }
      } else if (el->wire == FBE_KIND_STRUCT) {
        const tape_prog *pg = fbei_tape_prog_of(e->pp, el->st);
        for (uint32_t i = 0; i < c && !rc; i++) rc = fin_prog(e, pg);
      } else {
        for (uint32_t i = 0; i < c && !rc; i++) rc = fin_value(e, el);
      }
      e->depth--;
      return rc;
    }
    default: /* map, hash: the reader collapses duplicate keys */
      return -1;
  }
}

/* ------------------------------------------------------------ standard model */

static int std_value(tenc *e, const fbe_type *t, size_t at, size_t base);

/* A struct at slot `at` (its pointer relative to base): its body allocated, its fields. */
static int std_prog(tenc *e, size_t at, size_t base, const tape_prog *pg) {
  const fbe_struct *st = pg->st;
  size_t b = e->size;
  if (st->body_size > e->cap - b) return -1;
  uint8_t *out = e->out;
  fbe_store32(out + at, (uint32_t)(b - base));
  fbe_store32(out + b, st->body_size);
  fbe_store32(out + b + 4, st->type_id);
  const fbei_tape_slot *num = e->num;
  const uint8_t *bytes = e->bytes;
  const uint32_t n_end = e->n_end, p_end = e->p_end;
  const size_t cap = e->cap;
  uint32_t n = e->n, p = e->p;
  size_t size = b + st->body_size;
  for (const tape_op *op = pg->sops, *end = op + pg->nsops; op < end; op++) {
    uint8_t code = op->code, *w = out + b + op->wire;
    if (LIKELY(code <= OP_U32)) {
      if (n >= n_end) return -1;
      put_scalar(w, code, num[n++].i);
      continue;
    }
    switch (code) {
      case OP_STR: case OP_BYTES: {
        int64_t x = span_len(num, n, n_end, p, p_end);
        if (x < 0 || cap - size < 4 + (size_t)x) return -1;
        uint32_t len = (uint32_t)x;
        const uint8_t *data = bytes + p;
        if (code == OP_STR && !fbei_utf8_valid(data, len)) return -1;
        fbe_store32(w, (uint32_t)(size - b));
        fbe_store32(out + size, len);
        copy_bytes(out + size + 4, data, len);
        n++, p += len;
        size += 4 + (size_t)len;
        continue;
      }
      case OP_DEC: case OP_UUID_SLOTS: {
        tape_at r = put16(num, n, n_end, bytes, p, p_end, code, w);
        if (r.ok) return -1;
        n = r.n, p = r.p;
        continue;
      }
      case OP_NESTED: case OP_VALUE: {
        e->n = n, e->p = p, e->size = size;
        int rc = code == OP_NESTED ? std_prog(e, b + op->wire, b, fbei_tape_prog_of(e->pp, op->type->st))
                                   : std_value(e, op->type, b + op->wire, b);
        if (rc) return -1;
        n = e->n, p = e->p, size = e->size;
        continue;
      }
      default: /* a DOUBLE-format step: not this walk's */
        return -1;
    }
  }
  e->n = n, e->p = p, e->size = size;
  return 0;
}

/* Allocates n bytes at the end ("allocate n" of FORMAT.md 5.9): their position, or 0
 * when they do not fit (never a block: the header comes first). */
static inline size_t alloc(tenc *e, size_t n) {
  if (n > e->cap - e->size) return 0;
  size_t pos = e->size;
  e->size += n;
  return pos;
}

static int std_value(tenc *e, const fbe_type *t, size_t at, size_t base) {
  if (t->wire == FBE_KIND_STRUCT) return std_prog(e, at, base, fbei_tape_prog_of(e->pp, t->st));
  uint8_t code = (uint8_t)fbei_tape_code_of(t, FBE_TAPE_INT64);
  if (code <= OP_U32) {
    if (e->n >= e->n_end) return -1;
    put_scalar(e->out + at, code, e->num[e->n++].i);
    return 0;
  }
  switch (code) {
    case OP_STR: case OP_BYTES: {
      int64_t x = span_len(e->num, e->n, e->n_end, e->p, e->p_end);
      if (x < 0) return -1;
      uint32_t len = (uint32_t)x;
      const uint8_t *data = e->bytes + e->p;
      if (code == OP_STR && !fbei_utf8_valid(data, len)) return -1;
      e->n++, e->p += len;
      size_t d = alloc(e, 4 + (size_t)len);
      if (!d) return -1;
      fbe_store32(e->out + at, (uint32_t)(d - base));
      fbe_store32(e->out + d, len);
      copy_bytes(e->out + d + 4, data, len);
      return 0;
    }
    case OP_DEC: case OP_UUID_SLOTS: {
      tape_at r = put16(e->num, e->n, e->n_end, e->bytes, e->p, e->p_end, code, e->out + at);
      if (r.ok) return -1;
      e->n = r.n, e->p = r.p;
      return 0;
    }
    default:
      break;
  }
  switch (t->wire) {
    case FBE_KIND_OPTIONAL: {
      if (e->n >= e->n_end) return -1;
      if (!e->num[e->n++].i) { /* flag 0, pointer 0 */
        memset(e->out + at, 0, 5);
        return 0;
      }
      size_t s = alloc(e, t->elem->wire_size);
      if (!s || enter(e)) return -1;
      e->out[at] = 1;
      fbe_store32(e->out + at + 1, (uint32_t)(s - base));
      int rc = std_value(e, t->elem, s, s); /* the value slot becomes the base */
      e->depth--;
      return rc;
    }
    case FBE_KIND_ARRAY: {
      const fbe_type *el = t->elem;
      for (uint32_t i = 0; i < t->array_size; i++)
        if (std_value(e, el, at + (size_t)i * el->wire_size, base)) return -1;
      return 0;
    }
    case FBE_KIND_VECTOR: {
      if (t->kind == FBE_KIND_SET) return -1; /* the reader collapses duplicates */
      const fbe_type *el = t->elem;
      uint32_t c;
      if (count(e, &c) || fits_tape(e, el, c)) return -1;
      size_t d = alloc(e, 4 + (size_t)c * el->wire_size);
      if (!d || enter(e)) return -1;
      fbe_store32(e->out + at, (uint32_t)(d - base));
      fbe_store32(e->out + d, c);
      d += 4;
      int rc = 0;
      if (bulk64(el)) { /* the slots are the elements' bytes: one copy */
        if (c) memcpy(e->out + d, &e->num[e->n], (size_t)c * 8);
        e->n += c;
      } else if (el->wire == FBE_KIND_STRUCT) {
        const tape_prog *pg = fbei_tape_prog_of(e->pp, el->st);
        for (uint32_t i = 0; i < c && !rc; i++) rc = std_prog(e, d + (size_t)i * 4, base, pg);
      } else {
        for (uint32_t i = 0; i < c && !rc; i++) rc = std_value(e, el, d + (size_t)i * el->wire_size, base);
      }
      e->depth--;
      return rc;
    }
    default: /* map, hash: the reader collapses duplicate keys */
      return -1;
  }
}

/* ------------------------------------------------------------ entry point */

int64_t fbei_tape_encode(const fbei_tape_programs *progs, const fbei_tape *tp, const fbe_struct *st,
                        fbe_model model, uint8_t *out, size_t cap) {
  if (!progs || !fbei_tape_programs_check(progs, st, FBE_TAPE_INT64) || fbei_tape_keyed(progs, st) || cap < 8 ||
      cap > UINT32_MAX)
    return -1;
  tenc e = {progs, tp->num, 0, tp->num_cap, tp->bytes, 0, tp->bytes_cap, out, 8, cap, 0};
  const tape_prog *pg = fbei_tape_prog_of(progs, st);
  if (model == FBE_MODEL_FINAL) {
    fbe_store32(out + 4, st->type_id);
    if (fin_prog(&e, pg)) return -1;
  } else if (std_prog(&e, 4, 0, pg)) {
    return -1;
  }
  fbe_store32(out, (uint32_t)e.size);
  return (int64_t)e.size;
}

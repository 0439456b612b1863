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
 * of each slot (tape.c: rd_step). */
#include <string.h>
#include "fbe/codec.h"
#include "fbe/field.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/tape.h"
#include "fbe/internal/utf8.h"

typedef struct tenc {
  /* the tape (FBE_TAPE_INT64) */
  const fbei_tape_slot *num;
  uint32_t n, n_end;
  const uint8_t *bytes;
  uint32_t p, p_end;
  /* the output */
  uint8_t *out;
  size_t size, cap;
  uint32_t depth;
  int failed; /* 1: leave it to the general way */
} tenc;

/* Gives up: the general way takes over (its result, bytes or error, is the one). */
#if defined(__GNUC__)
__attribute__((cold, noinline))
#endif
static int give_up(tenc *e) {
  e->failed = 1;
  return -1;
}

static inline int slot(tenc *e, int64_t *x) {
  if (e->n >= e->n_end) return give_up(e);
  *x = e->num[e->n++].i;
  return 0;
}

/* A count or length slot: 0 .. 2^32-1 (rd_count). */
static inline int count(tenc *e, uint32_t *c) {
  int64_t x;
  if (slot(e, &x)) return -1;
  if (x < 0 || x > (int64_t)UINT32_MAX) return give_up(e);
  *c = (uint32_t)x;
  return 0;
}

/* A string's or bytes' length and contents (rd_span), a string's checked as the reader
 * checks it (UTF-8: the general way words a failure). */
static inline int span(tenc *e, const uint8_t **data, uint32_t *len, int is_string) {
  if (count(e, len) || *len > e->p_end - e->p) return give_up(e);
  *data = e->bytes + e->p;
  e->p += *len;
  if (is_string && !fbei_utf8_valid(*data, *len)) return give_up(e);
  return 0;
}

static void put_be64(uint8_t *p, uint64_t x) {
  for (int i = 7; i >= 0; i--, x >>= 8) p[i] = (uint8_t)x;
}

/* A fixed-size scalar of wire kind k (wire size n) from the tape into w[0, n): the
 * value rd_step stores and the encoders copy. 0, or -1 (given up). */
static inline int scalar(tenc *e, fbe_kind k, uint8_t *w) {
  int64_t x;
  switch (k) {
    case FBE_KIND_BOOL:
      if (slot(e, &x)) return -1;
      *w = x != 0;
      return 0;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      if (slot(e, &x)) return -1;
      *w = (uint8_t)x;
      return 0;
    case FBE_KIND_INT16: case FBE_KIND_UINT16:
      if (slot(e, &x)) return -1;
      fbe_store16(w, (uint16_t)x);
      return 0;
    case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_WCHAR: case FBE_KIND_FLOAT:
      if (slot(e, &x)) return -1;
      fbe_store32(w, (uint32_t)x); /* a float's bits */
      return 0;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP: case FBE_KIND_DOUBLE:
      if (slot(e, &x)) return -1;
      fbe_store64(w, (uint64_t)x);
      return 0;
    case FBE_KIND_UUID: {
      int64_t lo;
      if (slot(e, &x) || slot(e, &lo)) return -1;
      put_be64(w, (uint64_t)x);
      put_be64(w + 8, (uint64_t)lo);
      return 0;
    }
    case FBE_KIND_DECIMAL: { /* the 96-bit range is fbe_decimal_parse's: a failure, the general way's words */
      const uint8_t *text;
      uint32_t len;
      fbe_decimal d;
      if (span(e, &text, &len, 0)) return -1;
      if (fbe_decimal_parse((const char *)text, len, &d) != FBE_OK) return give_up(e);
      memcpy(w, d.bytes, 16);
      return 0;
    }
    default:
      return give_up(e);
  }
}

/* 1 when values of wire kind k are one fixed-size scalar here. */
static inline int is_scalar(fbe_kind k) {
  return k <= FBE_KIND_UINT64 || k == FBE_KIND_FLOAT || k == FBE_KIND_DOUBLE || k == FBE_KIND_TIMESTAMP ||
         k == FBE_KIND_UUID || k == FBE_KIND_DECIMAL;
}

/* Optionals and collections count one level each, as the reader and the encoders count
 * them: past the limit the general way says so. */
static inline int enter(tenc *e) {
  if (e->depth >= FBE_DEFAULT_MAX_DEPTH) return give_up(e);
  e->depth++;
  return 0;
}

/* A sequence's element count that the tape cannot hold is the reader's overrun. */
static inline int fits_tape(tenc *e, const fbe_type *el, uint32_t c) {
  if (el->wire != FBE_KIND_STRUCT && el->wire != FBE_KIND_ARRAY && c > e->n_end - e->n) return give_up(e);
  return 0;
}

/* ------------------------------------------------------------ standard model */

static size_t alloc(tenc *e, size_t n) {
  if (n > e->cap - e->size) return (size_t)give_up(e), 0;
  size_t pos = e->size;
  e->size += n;
  return pos;
}

static int std_value(tenc *e, const fbe_type *t, size_t at, size_t base);

static int std_struct(tenc *e, size_t at, size_t base, const fbe_struct *st) {
  size_t b = alloc(e, st->body_size);
  if (!b) return -1;
  fbe_store32(e->out + at, (uint32_t)(b - base));
  fbe_store32(e->out + b, st->body_size);
  fbe_store32(e->out + b + 4, st->type_id);
  const fbe_field *f = st->fields, *end = f + st->nfields;
  for (; f < end; f++) {
    const fbe_type *t = f->type;
    uint8_t *w = e->out + b + f->wire_offset;
    if (is_scalar(t->wire)) {
      if (scalar(e, t->wire, w)) return -1;
    } else if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
      const uint8_t *data;
      uint32_t len;
      if (span(e, &data, &len, t->wire == FBE_KIND_STRING)) return -1;
      size_t d = alloc(e, 4 + (size_t)len);
      if (!d) return -1;
      fbe_store32(e->out + b + f->wire_offset, (uint32_t)(d - b));
      fbe_store32(e->out + d, len);
      memcpy(e->out + d + 4, data, len);
    } else if (std_value(e, t, b + f->wire_offset, b)) {
      return -1;
    }
  }
  return 0;
}

static int std_value(tenc *e, const fbe_type *t, size_t at, size_t base) {
  if (is_scalar(t->wire)) return scalar(e, t->wire, e->out + at);
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const uint8_t *data;
      uint32_t len;
      if (span(e, &data, &len, t->wire == FBE_KIND_STRING)) return -1;
      size_t d = alloc(e, 4 + (size_t)len);
      if (!d) return -1;
      fbe_store32(e->out + at, (uint32_t)(d - base));
      fbe_store32(e->out + d, len);
      memcpy(e->out + d + 4, data, len);
      return 0;
    }
    case FBE_KIND_STRUCT:
      return std_struct(e, at, base, t->st);
    case FBE_KIND_OPTIONAL: {
      int64_t present;
      if (slot(e, &present)) return -1;
      if (!present) { /* flag 0, pointer 0 */
        memset(e->out + at, 0, 5);
        return 0;
      }
      size_t s = alloc(e, t->elem->wire_size);
      if (!s || enter(e)) return -1;
      e->out[at] = 1;
      fbe_store32(e->out + at + 1, (uint32_t)(s - base));
      int rc = t->elem->wire == FBE_KIND_STRUCT ? std_struct(e, s, s, t->elem->st) : std_value(e, t->elem, s, s);
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
      if (t->kind == FBE_KIND_SET) return give_up(e); /* the reader collapses duplicates */
      const fbe_type *el = t->elem;
      uint32_t c;
      if (count(e, &c) || fits_tape(e, el, c)) return -1;
      size_t d = alloc(e, 4 + (size_t)c * el->wire_size);
      if (!d || enter(e)) return -1;
      fbe_store32(e->out + at, (uint32_t)(d - base));
      fbe_store32(e->out + d, c);
      d += 4;
      int rc = 0;
      if (el->wire_size == 8 && (el->wire == FBE_KIND_INT64 || el->wire == FBE_KIND_UINT64 ||
                                 el->wire == FBE_KIND_TIMESTAMP || el->wire == FBE_KIND_DOUBLE) &&
          !FBE_BIG_ENDIAN) { /* the slots are the elements' bytes: one copy */
        memcpy(e->out + d, &e->num[e->n], (size_t)c * 8);
        e->n += c;
      } else if (el->wire == FBE_KIND_STRUCT) {
        for (uint32_t i = 0; i < c && !rc; i++) rc = std_struct(e, d + (size_t)i * 4, base, el->st);
      } else {
        for (uint32_t i = 0; i < c && !rc; i++) rc = std_value(e, el, d + (size_t)i * el->wire_size, base);
      }
      e->depth--;
      return rc;
    }
    default: /* map, hash: the reader collapses duplicate keys */
      return give_up(e);
  }
}

/* ------------------------------------------------------------ final model */

static inline int room(tenc *e, size_t n) { return n > e->cap - e->size ? give_up(e) : 0; }

static int fin_value(tenc *e, const fbe_type *t);

static int fin_struct(tenc *e, const fbe_struct *st) {
  const fbe_field *f = st->fields, *end = f + st->nfields;
  for (; f < end; f++)
    if (fin_value(e, f->type)) return -1;
  return 0;
}

static int fin_value(tenc *e, const fbe_type *t) {
  fbe_kind k = t->wire;
  if (is_scalar(k)) {
    if (room(e, t->wire_size) || scalar(e, k, e->out + e->size)) return -1;
    e->size += t->wire_size;
    return 0;
  }
  switch (k) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const uint8_t *data;
      uint32_t len;
      if (span(e, &data, &len, k == FBE_KIND_STRING) || room(e, 4 + (size_t)len)) return -1;
      fbe_store32(e->out + e->size, len);
      memcpy(e->out + e->size + 4, data, len);
      e->size += 4 + (size_t)len;
      return 0;
    }
    case FBE_KIND_STRUCT:
      return fin_struct(e, t->st);
    case FBE_KIND_OPTIONAL: {
      int64_t present;
      if (slot(e, &present) || room(e, 1)) return -1;
      e->out[e->size++] = present != 0;
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
      if (t->kind == FBE_KIND_SET) return give_up(e); /* the reader collapses duplicates */
      const fbe_type *el = t->elem;
      uint32_t c;
      if (count(e, &c) || fits_tape(e, el, c) || room(e, 4) || enter(e)) return -1;
      fbe_store32(e->out + e->size, c);
      e->size += 4;
      int rc = 0;
      if (el->wire_size == 8 && (el->wire == FBE_KIND_INT64 || el->wire == FBE_KIND_UINT64 ||
                                 el->wire == FBE_KIND_TIMESTAMP || el->wire == FBE_KIND_DOUBLE) &&
          !FBE_BIG_ENDIAN) { /* the slots are the elements' bytes: one copy */
        if (!(rc = room(e, (size_t)c * 8))) {
          memcpy(e->out + e->size, &e->num[e->n], (size_t)c * 8);
          e->size += (size_t)c * 8;
          e->n += c;
        }
      } else {
        for (uint32_t i = 0; i < c && !rc; i++) rc = fin_value(e, el);
      }
      e->depth--;
      return rc;
    }
    default: /* map, hash: the reader collapses duplicate keys */
      return give_up(e);
  }
}

/* ------------------------------------------------------------ entry point */

int64_t fbei_tape_encode(const fbei_tape_programs *progs, const fbei_tape *tp, const fbe_struct *st,
                        fbe_model model, uint8_t *out, size_t cap) {
  if (!progs || !fbei_tape_programs_check(progs, st, FBE_TAPE_INT64) || fbei_tape_keyed(progs, st) ||
      cap > UINT32_MAX)
    return -1;
  tenc e = {tp->num, 0, tp->num_cap, tp->bytes, 0, tp->bytes_cap, out, 0, cap, 0, 0};
  if (model == FBE_MODEL_FINAL) {
    if (cap < 8) return -1;
    fbe_store32(out + 4, st->type_id);
    e.size = 8;
    if (fin_struct(&e, st)) return -1;
  } else {
    if (cap < 8) return -1;
    e.size = 8;
    if (std_struct(&e, 4, 0, st)) return -1;
  }
  fbe_store32(out, (uint32_t)e.size);
  return (int64_t)e.size;
}

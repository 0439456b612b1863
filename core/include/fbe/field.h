/* Field models: the per-type primitives both wire models are built from (FORMAT.md
 * 2-6). The dynamic codec (fbe_encode/fbe_decode/fbe_verify) and the code generated
 * by `fbe gen c` both use them, so the bytes come from one source of truth.
 *
 * Positions are byte offsets from the start of the buffer (writers) or of the model
 * (readers). Everything here is static inline so that generated code compiles to
 * straight-line loads and stores; nothing allocates except through fbe_buffer.
 *
 * Inline sizes (standard model, FORMAT.md 2): bool, byte, char, int8, uint8 1;
 * int16, uint16 2; wchar, int32, uint32, float 4; int64, uint64, double, timestamp 8;
 * decimal, uuid 16; enum/flags the size of their base; string, bytes, struct, vector,
 * list, set, map, hash 4 (a pointer); optional 5 (flag + pointer); array N * element.
 * In the final model fixed-size scalars keep these sizes and everything else is
 * written inline (FORMAT.md 6.2). */
#ifndef FBE_FIELD_H
#define FBE_FIELD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "fbe/export.h"
#include "fbe/buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inline sizes that are not a scalar's width. */
#define FBE_SIZE_POINTER 4u       /* string, bytes, struct, vector/list/set, map/hash slot */
#define FBE_SIZE_OPTIONAL 5u      /* standard optional slot: u8 flag + u32 pointer */
#define FBE_SIZE_STRUCT_HEADER 8u /* u32 body size + u32 type id (standard body, model root) */
#define FBE_SIZE_DECIMAL 16u
#define FBE_SIZE_UUID 16u

/* ------------------------------------------------------------ scalars (both models) */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FBE_BIG_ENDIAN 1
#define FBE_LE16(x) __builtin_bswap16(x)
#define FBE_LE32(x) __builtin_bswap32(x)
#define FBE_LE64(x) __builtin_bswap64(x)
#else
#define FBE_BIG_ENDIAN 0
#define FBE_LE16(x) (x)
#define FBE_LE32(x) (x)
#define FBE_LE64(x) (x)
#endif

/* Little-endian loads and stores at any alignment: every integer, char, wchar,
 * enum, flags and timestamp slot is one of these. */
static inline uint16_t fbe_load16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return FBE_LE16(v); }
static inline uint32_t fbe_load32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return FBE_LE32(v); }
static inline uint64_t fbe_load64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return FBE_LE64(v); }
static inline void fbe_store16(uint8_t *p, uint16_t v) { v = FBE_LE16(v); memcpy(p, &v, 2); }
static inline void fbe_store32(uint8_t *p, uint32_t v) { v = FBE_LE32(v); memcpy(p, &v, 4); }
static inline void fbe_store64(uint8_t *p, uint64_t v) { v = FBE_LE64(v); memcpy(p, &v, 8); }

/* bool: written as 0/1, any non-zero byte reads as true. */
static inline int fbe_load_bool(const uint8_t *p) { return *p != 0; }
static inline void fbe_store_bool(uint8_t *p, int v) { *p = (uint8_t)(v != 0); }

/* float / double: IEEE-754 bit patterns, little-endian. */
static inline float fbe_load_float(const uint8_t *p) { uint32_t u = fbe_load32(p); float f; memcpy(&f, &u, 4); return f; }
static inline double fbe_load_double(const uint8_t *p) { uint64_t u = fbe_load64(p); double d; memcpy(&d, &u, 8); return d; }
static inline void fbe_store_float(uint8_t *p, float f) { uint32_t u; memcpy(&u, &f, 4); fbe_store32(p, u); }
static inline void fbe_store_double(uint8_t *p, double d) { uint64_t u; memcpy(&u, &d, 8); fbe_store64(p, u); }

/* decimal and uuid: 16 bytes, already in wire order in fbe_decimal / fbe_uuid. */
static inline void fbe_load16bytes(const uint8_t *p, uint8_t out[16]) { memcpy(out, p, 16); }
static inline void fbe_store16bytes(uint8_t *p, const uint8_t v[16]) { memcpy(p, v, 16); }

/* Copies n bytes (string data, runs of fixed-size fields) without a libc call for
 * small n: two overlapping loads/stores cover every length up to 16. */
static inline void fbe_copy_small(uint8_t *d, const uint8_t *s, size_t n) {
  if (n >= 8) {
    if (n > 16) {
      memcpy(d, s, n);
      return;
    }
    uint64_t a, b;
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
    memcpy(d, &a, 8);
    memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
  } else if (n) {
    uint8_t a = s[0], b = s[n / 2], c = s[n - 1];
    d[0] = a;
    d[n / 2] = b;
    d[n - 1] = c;
  }
}

/* 1 when s[0..n) is all ASCII: the same overlapping loads OR-ed together, no loop up to
 * 16 bytes. The fast path of the UTF-8 check every string gets (fbe_utf8_check). */
static inline int fbe_is_ascii(const uint8_t *s, size_t n) {
  uint64_t acc;
  if (n > 16) {
    uint64_t w;
    acc = 0;
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&w, s + i, 8);
      acc |= w;
    }
    memcpy(&w, s + n - 8, 8);
    acc |= w;
  } else if (n >= 8) {
    uint64_t a, b;
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
    acc = a | b;
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    acc = a | b;
  } else if (n) {
    acc = (uint64_t)(s[0] | s[n / 2] | s[n - 1]);
  } else {
    return 1;
  }
  return (acc & 0x8080808080808080u) == 0;
}

/* Why a writer stopped (fbe_std_writer.failed, fbe_fin_writer.failed). */
#define FBE_WRITE_NOMEM 1     /* the buffer could not grow */
#define FBE_WRITE_TOO_LARGE 2 /* the model would exceed 4 GiB */

/* ------------------------------------------------------------ standard model: writing */

/* Appends one standard model to `out`, allocating blocks at its end in the order of
 * FORMAT.md 5.9. Zero-initialise it, then set out and start = out->size. */
typedef struct fbe_std_writer {
  fbe_buffer *out;
  size_t start;  /* position of the model header in out */
  int failed;    /* FBE_WRITE_* once an allocation failed; later calls are no-ops */
} fbe_std_writer;

/* Allocates n bytes at the end of the buffer ("allocate n" of FORMAT.md 5.9) and
 * returns their position, or 0 on failure (0 is never a block: the header comes
 * first). The bytes are not cleared: the caller writes every byte of its slots. */
static inline size_t fbe_std_alloc(fbe_std_writer *w, size_t n) {
  fbe_buffer *out = w->out;
  if (out->size - w->start + n > UINT32_MAX) {
    w->failed = FBE_WRITE_TOO_LARGE;
    return 0;
  }
  if (n > out->capacity - out->size && fbe_buffer_reserve(out, n)) {
    w->failed = FBE_WRITE_NOMEM;
    return 0;
  }
  size_t pos = out->size;
  out->size += n;
  return pos;
}

/* Writes a string or bytes value: allocates 4 + size, points the slot at it. */
static inline void fbe_std_write_blob(fbe_std_writer *w, size_t slot, size_t base,
                                      const uint8_t *data, uint32_t size) {
  size_t d = fbe_std_alloc(w, 4 + (size_t)size);
  if (!d) return;
  uint8_t *p = w->out->data;
  fbe_store32(p + slot, (uint32_t)(d - base));
  fbe_store32(p + d, size);
  if (size <= 16) fbe_copy_small(p + d + 4, data, size); /* most strings: no libc call */
  else memcpy(p + d + 4, data, size);
}

/* Starts a struct: allocates its body of body_size bytes, points the slot at it and
 * writes the header. Returns the body position b (fields at b + their offset), 0 on
 * failure. */
static inline size_t fbe_std_write_struct(fbe_std_writer *w, size_t slot, size_t base,
                                          uint32_t body_size, uint32_t type_id) {
  size_t b = fbe_std_alloc(w, body_size);
  if (!b) return 0;
  uint8_t *p = w->out->data;
  fbe_store32(p + slot, (uint32_t)(b - base));
  fbe_store32(p + b, body_size);
  fbe_store32(p + b + 4, type_id);
  return b;
}

/* Writes an optional's slot. Absent: flag and pointer 0, returns 0. Present:
 * allocates the value slot (inline_size bytes), returns its position s; the caller
 * writes the value at s with s as its base. 0 also on failure. */
static inline size_t fbe_std_write_optional(fbe_std_writer *w, size_t slot, size_t base,
                                            int present, uint32_t inline_size) {
  if (!present) {
    memset(w->out->data + slot, 0, 5);
    return 0;
  }
  size_t s = fbe_std_alloc(w, inline_size);
  if (!s) return 0;
  w->out->data[slot] = 1;
  fbe_store32(w->out->data + slot + 1, (uint32_t)(s - base));
  return s;
}

/* Writes a vector/list/set (stride = element inline size) or map/hash (stride = key
 * + value inline sizes) header: allocates 4 + count * stride, points the slot at it
 * and writes the count. Returns the position of the first element, 0 on failure. */
static inline size_t fbe_std_write_sequence(fbe_std_writer *w, size_t slot, size_t base,
                                            uint32_t count, size_t stride) {
  size_t d = fbe_std_alloc(w, 4 + (size_t)count * stride);
  if (!d) return 0;
  fbe_store32(w->out->data + slot, (uint32_t)(d - base));
  fbe_store32(w->out->data + d, count);
  return d + 4;
}

/* ------------------------------------------------------------ standard model: reading */

/* A model being read: data[0, end) is the model (end = its size field, already
 * checked against the buffer). */
typedef struct fbe_reader {
  const uint8_t *data;
  uint64_t end;
} fbe_reader;

/* Checks a standard model header in data[0, size): 0 and *r set when the size field
 * is >= 16 and fits the buffer, -1 otherwise. The root struct's slot is at 4, base 0. */
static inline int fbe_std_open(const uint8_t *data, size_t size, fbe_reader *r) {
  if (size < 16) return -1;
  uint32_t total = fbe_load32(data);
  if (total < 16 || total > size) return -1;
  r->data = data;
  r->end = total;
  return 0;
}

/* Resolves the pointer stored at `slot` (relative to `base`): 0 and *at set when the
 * target holds `need` bytes inside the model and lies after the slot (writers only
 * allocate forward, and this bounds the work on hostile input), -1 otherwise. The
 * slot itself must lie inside the model. */
static inline int fbe_std_target(const fbe_reader *r, uint64_t slot, uint64_t base, uint64_t need,
                                 uint64_t *at) {
  uint64_t a = base + fbe_load32(r->data + slot);
  if (a <= slot || a > r->end || need > r->end - a) return -1;
  *at = a;
  return 0;
}

/* Reads a string or bytes slot: 0 with *data and *size set (size 0 for pointer 0: the
 * caller decides between the field default and empty), -1 when the pointer or the
 * length leads outside the model. */
static inline int fbe_std_read_blob(const fbe_reader *r, uint64_t slot, uint64_t base,
                                    const uint8_t **data, uint32_t *size) {
  uint64_t at = 0;
  *data = NULL;
  *size = 0;
  if (fbe_load32(r->data + slot) == 0) return 0;
  if (fbe_std_target(r, slot, base, 4, &at)) return -1;
  uint32_t n = fbe_load32(r->data + at);
  if (n > r->end - at - 4) return -1;
  *data = r->data + at + 4;
  *size = n;
  return 0;
}

/* Reads a struct slot: 0 with *body (position) and *size (its size field) set, -1
 * when the pointer is 0 or the body is outside the model or its size < 8. Fields
 * whose slot ends beyond *size are absent (FORMAT.md 5.10); verifiers also compare
 * the type id at *body + 4. */
static inline int fbe_std_read_struct(const fbe_reader *r, uint64_t slot, uint64_t base,
                                      uint64_t *body, uint32_t *size) {
  if (fbe_load32(r->data + slot) == 0 || fbe_std_target(r, slot, base, 8, body)) return -1;
  *size = fbe_load32(r->data + *body);
  return *size < 8 || *size > r->end - *body ? -1 : 0;
}

/* Reads an optional slot: 1 with *at = the value slot (also the value's base) when
 * present, 0 when absent (flag 0 or pointer 0: verifiers reject flag != 0 with
 * pointer 0), -1 when the value slot (inline_size bytes) is outside the model. */
static inline int fbe_std_read_optional(const fbe_reader *r, uint64_t slot, uint64_t base,
                                        uint32_t inline_size, uint64_t *at) {
  if (r->data[slot] == 0 || fbe_load32(r->data + slot + 1) == 0) return 0;
  return fbe_std_target(r, slot + 1, base, inline_size, at) ? -1 : 1;
}

/* Reads a vector, list, set, map or hash slot: 0 with *items (first element) and *count
 * set (count 0 for pointer 0), -1 when the block or count * stride elements do not
 * fit in the model. */
static inline int fbe_std_read_sequence(const fbe_reader *r, uint64_t slot, uint64_t base,
                                        uint64_t stride, uint64_t *items, uint32_t *count) {
  uint64_t at = 0;
  *items = 0;
  *count = 0;
  if (fbe_load32(r->data + slot) == 0) return 0;
  if (fbe_std_target(r, slot, base, 4, &at)) return -1;
  uint32_t n = fbe_load32(r->data + at);
  if (stride * n > r->end - at - 4) return -1;
  *items = at + 4;
  *count = n;
  return 0;
}

/* ------------------------------------------------------------ final model: writing */

/* Appends one final model through a bare cursor `w` (a uint8_t * into out->data that
 * every step returns), checking room against `limit` and growing in a cold path.
 * Zero-initialise, then set out, start = out->size, limit = out->data +
 * out->capacity. When done, set out->size = w - out->data. */
typedef struct fbe_fin_writer {
  fbe_buffer *out;
  size_t start;         /* position of the model header in out */
  const uint8_t *limit; /* end of out's capacity */
  int failed;           /* FBE_WRITE_* once growing failed */
} fbe_fin_writer;

/* Grows the buffer so that n bytes fit at cursor w; returns the (moved) cursor or
 * NULL on failure (failed set). Out of line: the rare path of fbe_fin_room. */
FBE_API uint8_t *fbe_fin_grow(fbe_fin_writer *fw, uint8_t *w, size_t n);

/* Makes sure n bytes can be written at w; returns the cursor (moved when the buffer
 * grew) or NULL. Check once for a run of fixed-size fields, then store freely. */
static inline uint8_t *fbe_fin_room(fbe_fin_writer *fw, uint8_t *w, size_t n) {
  return (size_t)(fw->limit - w) >= n ? w : fbe_fin_grow(fw, w, n);
}

/* Writes a string or bytes value (u32 length + data) at w; `room` is what to make sure
 * of besides the data: 4 for the length plus any fixed bytes written right after.
 * Returns the cursor after the data, NULL on failure. */
static inline uint8_t *fbe_fin_write_blob(fbe_fin_writer *fw, uint8_t *w, const uint8_t *data,
                                          uint32_t size, size_t room) {
  if (!(w = fbe_fin_room(fw, w, room + (size_t)size))) return NULL;
  fbe_store32(w, size);
  if (size <= 16) fbe_copy_small(w + 4, data, size);
  else memcpy(w + 4, data, size);
  return w + 4 + size;
}

/* Writes an optional's flag byte (1: the value follows inline, written by the
 * caller). Returns the cursor after it, NULL on failure. */
static inline uint8_t *fbe_fin_write_flag(fbe_fin_writer *fw, uint8_t *w, int present) {
  if (!(w = fbe_fin_room(fw, w, 1))) return NULL;
  *w = (uint8_t)(present != 0);
  return w + 1;
}

/* Writes a vector/list/set/map/hash count; the elements follow inline (map: key,
 * value, key, value...), written by the caller. `room`: bytes to make sure of, 4 plus
 * any fixed-size elements written right after. Returns the cursor after the count. */
static inline uint8_t *fbe_fin_write_count(fbe_fin_writer *fw, uint8_t *w, uint32_t count, size_t room) {
  if (!(w = fbe_fin_room(fw, w, room))) return NULL;
  fbe_store32(w, count);
  return w + 4;
}

/* ------------------------------------------------------------ final model: reading */

/* Checks a final model header in data[0, size): 0 and *r set when the size field is
 * >= 8 and fits the buffer; the type id is at 4 and the fields start at 8. */
static inline int fbe_fin_open(const uint8_t *data, size_t size, fbe_reader *r) {
  if (size < 8) return -1;
  uint32_t total = fbe_load32(data);
  if (total < 8 || total > size) return -1;
  r->data = data;
  r->end = total;
  return 0;
}

/* 0 when n bytes are left at pos, -1 otherwise: check once per run of fixed-size
 * fields, then load freely. */
static inline int fbe_fin_need(const fbe_reader *r, uint64_t pos, uint64_t n) {
  return n > r->end - pos ? -1 : 0;
}

/* Reads a string or bytes value at *pos: 0 with *data and *size set and *pos advanced, -1
 * when it runs past the model. */
static inline int fbe_fin_read_blob(const fbe_reader *r, uint64_t *pos, const uint8_t **data,
                                    uint32_t *size) {
  if (4 > r->end - *pos) return -1;
  uint32_t n = fbe_load32(r->data + *pos);
  if (n > r->end - *pos - 4) return -1;
  *data = r->data + *pos + 4;
  *size = n;
  *pos += 4 + (uint64_t)n;
  return 0;
}

/* Reads a sequence count at *pos: 0 with *count set and *pos advanced past it, -1
 * when the count is missing or count * least (the smallest encoding of an element,
 * key + value for maps) cannot fit in the rest of the model. */
static inline int fbe_fin_read_count(const fbe_reader *r, uint64_t *pos, uint64_t least,
                                     uint32_t *count) {
  if (4 > r->end - *pos) return -1;
  uint32_t n = fbe_load32(r->data + *pos);
  if (least * n > r->end - *pos - 4) return -1;
  *count = n;
  *pos += 4;
  return 0;
}

/* Reads an optional's flag at *pos: 1 present (value follows), 0 absent, -1 past the
 * model; *pos advanced past the flag. */
static inline int fbe_fin_read_flag(const fbe_reader *r, uint64_t *pos) {
  if (*pos >= r->end) return -1;
  return r->data[(*pos)++] != 0;
}

#ifdef __cplusplus
}
#endif
#endif

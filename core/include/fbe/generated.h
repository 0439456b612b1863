/* Support for the C code `fbe gen c` writes (core/GEN_C.md): the value types it
 * uses for strings and collections, the allocator hook, enum name tables, a type
 * descriptor, and the bridges through the core (errors, JSON, clock and uuids).
 * The wire work itself is done with the field models of fbe/field.h. */
#ifndef FBE_GENERATED_H
#define FBE_GENERATED_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/arena.h"
#include "fbe/buffer.h"
#include "fbe/schema.h"
#include "fbe/message.h"
#include "fbe/codec.h"
#include "fbe/field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A string (UTF-8, not NUL-terminated) or bytes value: pointer + length. Decoded
 * values own their data through the allocator they were decoded with. */
typedef struct fbe_blob {
  const uint8_t *data;
  uint32_t size;
} fbe_blob;

/* Where generated code gets and returns memory (strings, collection storage, optional
 * structs). free may be NULL (arenas). Pass NULL for the core's own heap (malloc,
 * counted by fbe_memory_in_use): blocks of it come from fbe_gen_alloc(NULL, n) and go
 * back through fbe_gen_free(NULL, p) (or pkg_S_free), never through free(). */
typedef struct fbe_allocator {
  void *(*alloc)(void *ctx, size_t size);
  void (*free)(void *ctx, void *ptr);
  void *ctx;
} fbe_allocator;

/* Allocates size bytes (8-aligned) from a (NULL: the core's heap). NULL when out of memory. */
FBE_API void *fbe_gen_alloc(const fbe_allocator *a, size_t size);
/* Returns ptr to a (NULL: the core's heap); NULL ptr is a no-op. */
FBE_API void fbe_gen_free(const fbe_allocator *a, void *ptr);
/* An allocator drawing from an arena: free is a no-op, fbe_arena_reset frees all. */
FBE_API fbe_allocator fbe_allocator_arena(fbe_arena *arena);

/* One named value of an enum or flags type (generated name tables). */
typedef struct fbe_enum_entry {
  const char *name;
  uint64_t value; /* 64-bit pattern, sign-extended for signed bases */
} fbe_enum_entry;

/* State of one generated decode or verify: the model, the allocator, and the limits
 * against hostile input (nesting depth, and the dynamic codec's memory budget, charged
 * as fbe_verify and fbe_decode charge it: codec.h, FBE_VALUE_CHARGE). */
typedef struct fbe_gen_reader {
  fbe_reader r;
  const fbe_allocator *a;
  uint32_t depth;
  uint64_t budget;
  fbe_error *err;
  /* Allocators without free (arenas) are asked for chunks, then served from this
   * window inline; others get one call per allocation (each block is freed alone). */
  uint8_t *next, *end;
} fbe_gen_reader;

/* Out-of-line part of fbe_gen_take: a new chunk or a single block. */
FBE_API void *fbe_gen_refill(fbe_gen_reader *g, size_t n);

/* n bytes (8-aligned, not cleared) for decoded data, NULL when out of memory. */
static inline void *fbe_gen_take(fbe_gen_reader *g, size_t n) {
  n = (n + 7u) & ~(size_t)7u;
  if (n <= (size_t)(g->end - g->next)) {
    void *p = g->next;
    g->next += n;
    return p;
  }
  return fbe_gen_refill(g, n);
}

/* Starts reading a standard (final: fbe_fin_open) model; FBE_ERR_MALFORMED naming
 * the header problem otherwise. Both have fbe_decode's default memory budget
 * (fbe_limits_memory(NULL, model size)): fbe_gen_open for decoding (with an allocator),
 * fbe_gen_open_verify for verifying (inline: a small model's verify is mostly this). */
FBE_API fbe_status fbe_gen_open(fbe_gen_reader *g, fbe_model model, const uint8_t *data,
                                size_t size, const fbe_allocator *a, fbe_error *err);
static inline fbe_status fbe_gen_open_verify(fbe_gen_reader *g, fbe_model model, const uint8_t *data,
                                             size_t size, fbe_error *err) {
  g->a = NULL;
  g->depth = 0;
  g->err = err;
  g->next = g->end = NULL;
  if (!data || size < 4 || fbe_load32(data) > FBE_DEFAULT_MAX_MODEL_SIZE ||
      (model == FBE_MODEL_FINAL ? fbe_fin_open(data, size, &g->r) : fbe_std_open(data, size, &g->r)))
    return fbe_gen_open(g, model, data, size, NULL, err); /* its refusal, in its words */
  g->budget = fbe_limits_memory_default(g->r.end);
  return FBE_OK;
}

/* Generated code's bodies that its root verify wants inline whatever the compiler's
 * size heuristics say (a small struct's verified view is mostly its check). */
#if defined(__GNUC__)
#define FBE_GEN_INLINE inline __attribute__((always_inline))
#else
#define FBE_GEN_INLINE inline
#endif

/* Fails a decode/verify: sets err (code, offset, message) and returns -1. */
FBE_API FBE_COLD int fbe_gen_fail(fbe_gen_reader *g, fbe_status code, uint64_t offset, const char *message);
/* Adds a path component while unwinding: a field name, or an element index. */
FBE_API FBE_COLD void fbe_gen_path_field(fbe_gen_reader *g, const char *name);
FBE_API FBE_COLD void fbe_gen_path_index(fbe_gen_reader *g, size_t index);

/* FBE_ERR_LIMIT naming the memory budget (max_memory); returns -1. */
FBE_API FBE_COLD int fbe_gen_over_budget(fbe_gen_reader *g, uint64_t offset);

/* Takes n bytes from the memory budget; -1 with err set beyond it. */
static inline int fbe_gen_charge(fbe_gen_reader *g, uint64_t offset, uint64_t n) {
  if (n > g->budget) return fbe_gen_over_budget(g, offset);
  g->budget -= n;
  return 0;
}

/* Enters an optional or collection (one nesting level) and takes n from the budget;
 * -1 with err set beyond FBE_DEFAULT_MAX_DEPTH or the budget. Leave with depth--. */
static inline int fbe_gen_enter(fbe_gen_reader *g, uint64_t offset, uint64_t n) {
  if (++g->depth > FBE_DEFAULT_MAX_DEPTH)
    return fbe_gen_fail(g, FBE_ERR_LIMIT, offset, "nesting too deep");
  return fbe_gen_charge(g, offset, n);
}

/* The budget's charge for n bytes of strings (the core's arena rounds to 8) and for
 * a collection of n items of `slot` bytes and `each` bytes of values (cost.h). */
static inline uint64_t fbe_gen_cost_bytes(uint64_t n) { return (n + 7u) & ~(uint64_t)7u; }
static inline uint64_t fbe_gen_cost_items(uint32_t n, uint64_t slot, uint64_t each) {
  return fbe_gen_cost_bytes(slot * n) + each * n;
}



/* Allocates n zeroed bytes for decoded data at offset; -1 with err set on failure. */
static inline int fbe_gen_zalloc(fbe_gen_reader *g, uint64_t offset, size_t n, void **out) {
  *out = NULL;
  if (!n) return 0;
  void *p = fbe_gen_take(g, n);
  if (!p) return fbe_gen_fail(g, FBE_ERR_NOMEM, offset, "out of memory");
  memset(p, 0, n);
  *out = p;
  return 0;
}

/* Copies a decoded string or bytes value into the allocator; -1 with err set. */
static inline int fbe_gen_copy_blob(fbe_gen_reader *g, uint64_t offset, const uint8_t *data,
                                    uint32_t size, fbe_blob *out) {
  out->data = NULL;
  out->size = 0;
  if (!size) return 0;
  if (fbe_gen_charge(g, offset, fbe_gen_cost_bytes(size))) return -1;
  uint8_t *copy = (uint8_t *)fbe_gen_take(g, size);
  if (!copy) return fbe_gen_fail(g, FBE_ERR_NOMEM, offset, "out of memory");
  if (size <= 16) fbe_copy_small(copy, data, size);
  else memcpy(copy, data, size);
  out->data = copy;
  out->size = size;
  return 0;
}

/* The usual failures, with their messages; each returns -1. */
FBE_API FBE_COLD int fbe_gen_oom(fbe_gen_reader *g, uint64_t offset);
FBE_API FBE_COLD int fbe_gen_short(fbe_gen_reader *g, uint64_t offset);        /* final: past the end */
FBE_API FBE_COLD int fbe_gen_bad_pointer(fbe_gen_reader *g, uint64_t slot);    /* standard: pointer */
FBE_API FBE_COLD int fbe_gen_bad_struct(fbe_gen_reader *g, uint64_t body);     /* standard: body size */
FBE_API FBE_COLD int fbe_gen_bad_sequence(fbe_gen_reader *g, uint64_t slot);   /* standard: elements */
FBE_API FBE_COLD int fbe_gen_bad_count(fbe_gen_reader *g, uint64_t offset);    /* final: elements */
FBE_API FBE_COLD int fbe_gen_bad_blob(fbe_gen_reader *g, uint64_t slot);       /* string/bytes size */

/* Adds a field name (fbe_gen_in) or an element index (fbe_gen_at) to the error path
 * and passes rc through: `return fbe_gen_in(g, "orders", -1);`. */
static inline int fbe_gen_in(fbe_gen_reader *g, const char *field, int rc) {
  fbe_gen_path_field(g, field);
  return rc;
}
static inline int fbe_gen_at(fbe_gen_reader *g, size_t index, int rc) {
  fbe_gen_path_index(g, index);
  return rc;
}

/* Standard model string or bytes at slot into out (pointer 0: empty). */
static inline int fbe_gen_std_blob(fbe_gen_reader *g, uint64_t slot, uint64_t base, fbe_blob *out) {
  const uint8_t *data;
  uint32_t size;
  if (fbe_std_read_blob(&g->r, slot, base, &data, &size)) return fbe_gen_bad_blob(g, slot);
  return fbe_gen_copy_blob(g, slot, data, size, out);
}
static inline int fbe_gen_std_check_blob(fbe_gen_reader *g, uint64_t slot, uint64_t base) {
  const uint8_t *data;
  uint32_t size;
  if (fbe_std_read_blob(&g->r, slot, base, &data, &size)) return fbe_gen_bad_blob(g, slot);
  return fbe_gen_charge(g, slot, fbe_gen_cost_bytes(size));
}
/* Final model string or bytes at *pos into out. */
static inline int fbe_gen_fin_blob(fbe_gen_reader *g, uint64_t *pos, fbe_blob *out) {
  const uint8_t *data;
  uint32_t size;
  uint64_t at = *pos;
  if (fbe_fin_read_blob(&g->r, pos, &data, &size)) return fbe_gen_bad_blob(g, at);
  return fbe_gen_copy_blob(g, at, data, size, out);
}
static inline int fbe_gen_fin_check_blob(fbe_gen_reader *g, uint64_t *pos) {
  const uint8_t *data;
  uint32_t size;
  uint64_t at = *pos;
  if (fbe_fin_read_blob(&g->r, pos, &data, &size)) return fbe_gen_bad_blob(g, at);
  return fbe_gen_charge(g, at, fbe_gen_cost_bytes(size));
}

/* The value rules of fbe_verify, with its words and offsets: a string is UTF-8
 * (fbe_utf8_check), a decimal has scale 0..28 and no reserved bit set (FORMAT.md 3.2).
 * Generated verify and decode (trusted too) apply both. Each returns 0 or -1 with err set. */
FBE_API FBE_COLD int fbe_gen_text_slow(fbe_gen_reader *g, const uint8_t *data, uint32_t size);
FBE_API FBE_COLD int fbe_gen_bad_decimal(fbe_gen_reader *g, uint64_t offset);
static inline int fbe_gen_check_text(fbe_gen_reader *g, const uint8_t *data, uint32_t size) {
  return fbe_is_ascii(data, size) ? 0 : fbe_gen_text_slow(g, data, size); /* ASCII inline */
}
static inline int fbe_gen_check_decimal(fbe_gen_reader *g, uint64_t offset) {
  const uint8_t *b = g->r.data + offset;
  return (b[12] | b[13] | (b[15] & 0x7f)) != 0 || b[14] > 28 ? fbe_gen_bad_decimal(g, offset) : 0;
}

/* Strings: as the blob functions above, plus the UTF-8 check. */
static inline int fbe_gen_std_string(fbe_gen_reader *g, uint64_t slot, uint64_t base, fbe_blob *out) {
  const uint8_t *data;
  uint32_t size;
  if (fbe_std_read_blob(&g->r, slot, base, &data, &size)) return fbe_gen_bad_blob(g, slot);
  if (fbe_gen_check_text(g, data, size)) return -1;
  return fbe_gen_copy_blob(g, slot, data, size, out);
}
static inline int fbe_gen_std_check_string(fbe_gen_reader *g, uint64_t slot, uint64_t base) {
  const uint8_t *data;
  uint32_t size;
  if (fbe_std_read_blob(&g->r, slot, base, &data, &size)) return fbe_gen_bad_blob(g, slot);
  return fbe_gen_charge(g, slot, fbe_gen_cost_bytes(size)) || fbe_gen_check_text(g, data, size) ? -1 : 0;
}
static inline int fbe_gen_fin_string(fbe_gen_reader *g, uint64_t *pos, fbe_blob *out) {
  const uint8_t *data;
  uint32_t size;
  uint64_t at = *pos;
  if (fbe_fin_read_blob(&g->r, pos, &data, &size)) return fbe_gen_bad_blob(g, at);
  if (fbe_gen_check_text(g, data, size)) return -1;
  return fbe_gen_copy_blob(g, at, data, size, out);
}
static inline int fbe_gen_fin_check_string(fbe_gen_reader *g, uint64_t *pos) {
  const uint8_t *data;
  uint32_t size;
  uint64_t at = *pos;
  if (fbe_fin_read_blob(&g->r, pos, &data, &size)) return fbe_gen_bad_blob(g, at);
  return fbe_gen_charge(g, at, fbe_gen_cost_bytes(size)) || fbe_gen_check_text(g, data, size) ? -1 : 0;
}

/* Key identity (the core's rule, SCHEMA.md 6.5): a set or map read from bytes keeps one
 * entry per key, the last one read, in the first one's place. A struct is a key by its
 * [key] fields (none: every instance is the same key), floats by their bits (-0.0 is not
 * 0.0), decimals by value (1.5 is 1.50), strings and bytes by their bytes. Generated code
 * gives every key type a hash (fbe_gen_hash_fn, consistent with its equality) and an
 * equality over its C value. */
typedef uint64_t (*fbe_gen_hash_fn)(const void *item);
typedef int (*fbe_gen_equal_fn)(const void *a, const void *b);
/* Releases what one item (an element, or a map entry's key and value) owns. */
typedef void (*fbe_gen_drop_fn)(void *item, const fbe_allocator *a);

#define FBE_GEN_HASH_SEED UINT64_C(0xcbf29ce484222325)

static inline uint64_t fbe_gen_hash_mix(uint64_t h, uint64_t v) {
  return h ^ (v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2));
}
/* FNV-1a of n bytes (floats by their bits, uuids). */
static inline uint64_t fbe_gen_hash_bytes(const void *p, size_t n) {
  const uint8_t *b = (const uint8_t *)p;
  uint64_t h = FBE_GEN_HASH_SEED;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * UINT64_C(0x100000001b3);
  return h;
}
static inline uint64_t fbe_gen_hash_blob(const fbe_blob *b) {
  return fbe_gen_hash_mix(fbe_gen_hash_bytes(b->data, b->size), b->size);
}
static inline int fbe_gen_blob_equal(const fbe_blob *a, const fbe_blob *b) {
  return a->size == b->size && (a->size == 0 || memcmp(a->data, b->data, a->size) == 0);
}
/* Decimals by numeric value (the core's equality): 1.5 and 1.50 are equal, hash alike. */
FBE_API uint64_t fbe_gen_hash_decimal(const fbe_decimal *d);
FBE_API int fbe_gen_decimal_equal(const fbe_decimal *a, const fbe_decimal *b);

/* Collapses the duplicates among the *count items (stride bytes each; a map entry has
 * its key first) as the core's readers do: one item per key (equal), the last one in the
 * first one's place; drop (NULL: nothing to release) releases each replaced item's
 * memory to g's allocator. Linear time (an open-addressing table of the core's heap,
 * freed before returning). -1 with err set (out of memory, at offset) on failure. */
FBE_API int fbe_gen_dedup(fbe_gen_reader *g, uint64_t offset, void *items, uint32_t *count, size_t stride,
                          fbe_gen_hash_fn hash, fbe_gen_equal_fn equal, fbe_gen_drop_fn drop);

/* Copies text (a default string) into a blob owned by a. -1 when out of memory. */
FBE_API int fbe_gen_blob_set(fbe_blob *b, const fbe_allocator *a, const char *text, size_t size);

/* Finishes a generated encode: the model size into its header, or the writer's
 * failure as FBE_ERR_NOMEM / FBE_ERR_LIMIT (the buffer is cut back to start). */
FBE_API fbe_status fbe_gen_finish(fbe_buffer *out, size_t start, int failed, fbe_error *err);

/* JSON through the core: the value's final model is decoded into a dynamic message of
 * `type_name` ("proto.Account") of schema, which is then written as JSON (FORMAT.md
 * 10), and the reverse: JSON read into a dynamic message, encoded as a final model
 * appended to final_out. */
FBE_API fbe_status fbe_gen_json_write(const fbe_schema *schema, const char *type_name,
                                      const uint8_t *model, size_t size, int pretty,
                                      fbe_buffer *out, fbe_error *err);
FBE_API fbe_status fbe_gen_json_read(const fbe_schema *schema, const char *type_name,
                                     const char *text, size_t length, fbe_buffer *final_out,
                                     fbe_error *err);

/* Dynamic defaults (SCHEMA.md: utc, uuid1, uuid4): nanoseconds since the epoch, new
 * time-based and random uuids. */
FBE_API uint64_t fbe_gen_now(void);
FBE_API void fbe_gen_uuid1(fbe_uuid *out);
FBE_API void fbe_gen_uuid4(fbe_uuid *out);

/* ---- typed views (core/GEN_C.md, "Views"): generated `pkg_S_view` and the views of
 * collections and optionals each wrap one of these. A view reads a verified model in
 * place; every read checks its offsets against `end` again (the field models' checks),
 * so nothing outside data[0, end) is read even if the bytes changed after the open. */
typedef struct fbe_gen_view {
  const uint8_t *data; /* the model: data[0, end); NULL: no bytes (a struct's defaults,
                          an empty collection, an absent optional) */
  uint64_t end;
  uint64_t at;   /* standard: a struct's body, a collection's first element, an array's
                    or an optional value's slot; final: the first byte of the value (a
                    collection's first element, an optional's value) */
  uint64_t base; /* standard: what the pointers of the elements are relative to */
  uint32_t n;    /* standard struct: its body size; collection: its count; optional: 1
                    when present; array: its size */
  fbe_model model;
} fbe_gen_view;

static inline fbe_gen_view fbe_gen_view_none(void) {
  fbe_gen_view v;
  memset(&v, 0, sizeof v);
  return v;
}
/* A view of the same model as x at another place. */
static inline fbe_gen_view fbe_gen_view_make(const fbe_gen_view *x, uint64_t at, uint64_t base, uint32_t n) {
  fbe_gen_view v = *x;
  v.at = at;
  v.base = base;
  v.n = n;
  return v;
}
static inline fbe_reader fbe_gen_view_reader(const fbe_gen_view *x) {
  fbe_reader r = {x->data, x->end};
  return r;
}
/* 1 when n bytes at pos are not all inside the model. */
static inline int fbe_gen_view_short(const fbe_gen_view *x, uint64_t pos, uint64_t n) {
  return pos > x->end || n > x->end - pos;
}
static inline fbe_decimal fbe_gen_load_decimal(const uint8_t *p) {
  fbe_decimal d;
  memcpy(d.bytes, p, 16);
  return d;
}
static inline fbe_uuid fbe_gen_load_uuid(const uint8_t *p) {
  fbe_uuid u;
  memcpy(u.bytes, p, 16);
  return u;
}
/* A string or bytes value, borrowed from the model; empty when it is not there. */
static inline fbe_blob fbe_gen_view_std_blob(const fbe_gen_view *x, uint64_t slot, uint64_t base) {
  fbe_reader r = fbe_gen_view_reader(x);
  fbe_blob b = {NULL, 0};
  if (x->data && fbe_std_read_blob(&r, slot, base, &b.data, &b.size)) b.data = NULL, b.size = 0;
  return b;
}
static inline fbe_blob fbe_gen_view_fin_blob(const fbe_gen_view *x, uint64_t pos) {
  fbe_reader r = fbe_gen_view_reader(x);
  fbe_blob b = {NULL, 0};
  if (x->data && pos <= x->end && fbe_fin_read_blob(&r, &pos, &b.data, &b.size)) b.data = NULL, b.size = 0;
  return b;
}
/* Moves *pos (inside the model) past a final string or bytes value; -1 past the end. */
static inline int fbe_gen_fin_skip_blob(const fbe_reader *r, uint64_t *pos) {
  const uint8_t *data;
  uint32_t size;
  return fbe_fin_read_blob(r, pos, &data, &size);
}
/* A standard struct at slot: its body, or no bytes (its defaults) for pointer 0 or a
 * pointer leading outside the model. */
static inline fbe_gen_view fbe_gen_view_std_struct(const fbe_gen_view *x, uint64_t slot, uint64_t base) {
  fbe_reader r = fbe_gen_view_reader(x);
  uint64_t body = 0;
  uint32_t size = 0;
  if (!x->data || fbe_std_read_struct(&r, slot, base, &body, &size)) return fbe_gen_view_none();
  return fbe_gen_view_make(x, body, body, size);
}
/* A standard vector/list/set (stride: element) or map/hash (key + value) at slot. */
static inline fbe_gen_view fbe_gen_view_std_sequence(const fbe_gen_view *x, uint64_t slot, uint64_t base,
                                                     uint64_t stride) {
  fbe_reader r = fbe_gen_view_reader(x);
  uint64_t items = 0;
  uint32_t n = 0;
  if (!x->data || fbe_std_read_sequence(&r, slot, base, stride, &items, &n) || !n) return fbe_gen_view_none();
  return fbe_gen_view_make(x, items, base, n);
}
/* A final collection at pos: `least` is the smallest encoding of an element (entry). */
static inline fbe_gen_view fbe_gen_view_fin_sequence(const fbe_gen_view *x, uint64_t pos, uint64_t least) {
  fbe_reader r = fbe_gen_view_reader(x);
  uint32_t n = 0;
  if (!x->data || pos > x->end || fbe_fin_read_count(&r, &pos, least, &n) || !n) return fbe_gen_view_none();
  return fbe_gen_view_make(x, pos, 0, n);
}
/* An optional at slot (standard; inline_size: its value's) or pos (final): the view
 * of its value when present (n = 1), no bytes when absent. */
static inline fbe_gen_view fbe_gen_view_std_optional(const fbe_gen_view *x, uint64_t slot, uint64_t base,
                                                     uint32_t inline_size) {
  fbe_reader r = fbe_gen_view_reader(x);
  uint64_t at = 0;
  if (!x->data || fbe_std_read_optional(&r, slot, base, inline_size, &at) != 1) return fbe_gen_view_none();
  return fbe_gen_view_make(x, at, at, 1);
}
static inline fbe_gen_view fbe_gen_view_fin_optional(const fbe_gen_view *x, uint64_t pos) {
  fbe_reader r = fbe_gen_view_reader(x);
  if (!x->data || fbe_fin_read_flag(&r, &pos) != 1) return fbe_gen_view_none();
  return fbe_gen_view_make(x, pos, 0, 1);
}

/* Starts materializing a view (pkg_S_from_view): a reader over the view's model with
 * fbe_gen_open's memory budget. */
FBE_API void fbe_gen_view_reader_open(fbe_gen_reader *g, const fbe_gen_view *x, const fbe_allocator *a,
                                      fbe_error *err);

/* What a generated struct can do, for generic code (tests, tools): every generated
 * package exports a table of these (PACKAGE_types, PACKAGE_type_count). */
typedef struct fbe_gen_type {
  const char *name; /* "proto.Account" */
  size_t size;      /* sizeof the C struct */
  fbe_status (*init)(void *value, const fbe_allocator *a);
  void (*free)(void *value, const fbe_allocator *a);
  fbe_status (*encode)(const void *value, fbe_model model, fbe_buffer *out, fbe_error *err);
  fbe_status (*decode)(void *value, fbe_model model, const uint8_t *data, size_t size,
                       const fbe_allocator *a, size_t *model_size, fbe_error *err); /* verifies */
  fbe_status (*decode_trusted)(void *value, fbe_model model, const uint8_t *data, size_t size,
                               const fbe_allocator *a, size_t *model_size, fbe_error *err);
  fbe_status (*verify)(fbe_model model, const uint8_t *data, size_t size, size_t *model_size,
                       fbe_error *err);
  fbe_status (*to_json)(const void *value, const fbe_schema *schema, int pretty, fbe_buffer *out,
                        fbe_error *err);
  fbe_status (*from_json)(void *value, const fbe_schema *schema, const char *text, size_t length,
                          const fbe_allocator *a, fbe_error *err);
  /* views: pkg_S_open_view, pkg_S_from_view, pkg_S_equal_view_ over the fbe_gen_view a
   * pkg_S_view wraps */
  fbe_status (*open_view)(fbe_gen_view *view, fbe_model model, const uint8_t *data, size_t size,
                          size_t *model_size, fbe_error *err);
  fbe_status (*from_view)(void *value, fbe_gen_view view, const fbe_allocator *a, fbe_error *err);
  int (*equal_view)(fbe_gen_view view, const void *value);
} fbe_gen_type;

#ifdef __cplusplus
}
#endif
#endif

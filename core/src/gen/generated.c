/* The out-of-line part of the support for generated code (fbe/generated.h). */
#include <stdlib.h>
#include <string.h>
#include "fbe/generated.h"
#include "fbe/json.h"
#include "fbe/internal/error.h"
#include "fbe/internal/faults.h"
#include "message/keys.h"
#include "fbe/internal/utf8.h"
#include "fbe/internal/value.h"
#include "fbe/internal/memory.h"

static void *malloc_hook(void *ctx, size_t size) {
  (void)ctx;
  return fbei_mem_alloc(size ? size : 1);
}

static void *arena_hook(void *ctx, size_t size) { return fbe_arena_alloc((fbe_arena *)ctx, size); }

void *fbe_gen_alloc(const fbe_allocator *a, size_t size) {
  return a ? a->alloc(a->ctx, size) : malloc_hook(NULL, size);
}

void fbe_gen_free(const fbe_allocator *a, void *ptr) {
  if (!ptr) return;
  if (!a) fbei_mem_free(ptr);
  else if (a->free) a->free(a->ctx, ptr);
}

fbe_allocator fbe_allocator_arena(fbe_arena *arena) {
  fbe_allocator a = {arena_hook, NULL, arena};
  return a;
}

static fbe_status gen_open(fbe_gen_reader *g, fbe_model model, const uint8_t *data, size_t size,
                           const fbe_allocator *a, fbe_error *err) {
  memset(g, 0, sizeof *g);
  g->a = a;
  g->err = err;
  if (!data && size) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no data");
  if (size >= 4 && fbe_load32(data) > FBE_DEFAULT_MAX_MODEL_SIZE)
    return fbei_fault_set(err, FBE_FAULT_MODEL_LIMIT, 0, (unsigned long long)fbe_load32(data),
                         (unsigned long long)FBE_DEFAULT_MAX_MODEL_SIZE);
  int rc = model == FBE_MODEL_FINAL ? fbe_fin_open(data, size, &g->r) : fbe_std_open(data, size, &g->r);
  if (rc)
    return fbei_fault_set(err, FBE_FAULT_GEN_OPEN, 0, (unsigned long long)size,
                         model == FBE_MODEL_FINAL ? "final" : "standard");
  return FBE_OK;
}

fbe_status fbe_gen_open(fbe_gen_reader *g, fbe_model model, const uint8_t *data, size_t size,
                        const fbe_allocator *a, fbe_error *err) {
  fbe_status rc = gen_open(g, model, data, size, a, err);
  if (rc == FBE_OK) g->budget = fbe_limits_memory(NULL, g->r.end);
  return rc;
}

void fbe_gen_view_reader_open(fbe_gen_reader *g, const fbe_gen_view *x, const fbe_allocator *a, fbe_error *err) {
  memset(g, 0, sizeof *g);
  g->a = a;
  g->err = err;
  g->r.data = x->data;
  g->r.end = x->end;
  g->budget = fbe_limits_memory(NULL, x->end);
}

int fbe_gen_over_budget(fbe_gen_reader *g, uint64_t offset) {
  fbei_fault_set(g->err, FBE_FAULT_OVER_BUDGET, (size_t)offset,
                (unsigned long long)fbe_limits_memory(NULL, g->r.end));
  return -1;
}

int fbe_gen_fail(fbe_gen_reader *g, fbe_status code, uint64_t offset, const char *message) {
  fbei_error_set(g->err, code, (size_t)offset, "%s", message);
  return -1;
}

int fbe_gen_oom(fbe_gen_reader *g, uint64_t offset) {
  return fbe_gen_fail(g, FBE_ERR_NOMEM, offset, "out of memory");
}
/* The faults generated code reports (the core's one table of reasons). */
static int gen_fault(fbe_gen_reader *g, fbei_fault fault, uint64_t offset) {
  fbei_fault_set(g->err, fault, (size_t)offset);
  return -1;
}
int fbe_gen_short(fbe_gen_reader *g, uint64_t offset) {
  return gen_fault(g, FBE_FAULT_GEN_SHORT, offset < g->r.end ? offset : g->r.end);
}
int fbe_gen_bad_pointer(fbe_gen_reader *g, uint64_t slot) { return gen_fault(g, FBE_FAULT_GEN_POINTER, slot); }
int fbe_gen_bad_struct(fbe_gen_reader *g, uint64_t body) { return gen_fault(g, FBE_FAULT_GEN_STRUCT, body); }
int fbe_gen_bad_sequence(fbe_gen_reader *g, uint64_t slot) {
  return gen_fault(g, FBE_FAULT_GEN_COLLECTION, slot);
}
int fbe_gen_bad_count(fbe_gen_reader *g, uint64_t offset) {
  return gen_fault(g, FBE_FAULT_GEN_ELEMENTS, offset);
}
int fbe_gen_bad_blob(fbe_gen_reader *g, uint64_t slot) { return gen_fault(g, FBE_FAULT_GEN_BLOB, slot); }

int fbe_gen_text_slow(fbe_gen_reader *g, const uint8_t *data, uint32_t size) {
  size_t ok = fbei_utf8_valid_prefix(data, size);
  if (ok == size) return 0;
  fbei_utf8_error(g->err, FBE_ERR_MALFORMED, (size_t)(data - g->r.data), data, size, ok);
  return -1;
}
int fbe_gen_bad_decimal(fbe_gen_reader *g, uint64_t offset) {
  fbei_decimal_error(g->err, (size_t)offset, g->r.data + offset);
  return -1;
}

void fbe_gen_path_field(fbe_gen_reader *g, const char *name) { fbei_error_prepend_field(g->err, name); }
void fbe_gen_path_index(fbe_gen_reader *g, size_t index) { fbei_error_prepend_index(g->err, index); }

void *fbe_gen_refill(fbe_gen_reader *g, size_t n) {
  if (!g->a || g->a->free) return fbe_gen_alloc(g->a, n);
  /* an arena: one chunk serves this decode's next allocations */
  uint64_t want = 2 * g->r.end + 256; /* about what a model of this size decodes to */
  if (want > 65536) want = 65536;
  size_t chunk = n > want ? n : (size_t)want;
  uint8_t *p = g->a->alloc(g->a->ctx, chunk);
  if (!p) return NULL;
  g->next = p + n;
  g->end = p + chunk;
  return p;
}

uint64_t fbe_gen_hash_decimal(const fbe_decimal *d) { return fbei_key_decimal_hash(FBE_GEN_HASH_SEED, d->bytes); }

int fbe_gen_decimal_equal(const fbe_decimal *a, const fbe_decimal *b) {
  return fbei_decimal_value_equal(a->bytes, b->bytes);
}

/* Spreads the hash over the low bits the table uses (murmur3's finalizer): generated
 * hashes mix integers in as they are, and keys 0, 2^20, 2^21... must not share a slot. */
static uint64_t spread(uint64_t h) {
  h ^= h >> 33;
  h *= UINT64_C(0xff51afd7ed558ccd);
  h ^= h >> 33;
  h *= UINT64_C(0xc4ceb9fe1a85ec53);
  return h ^ (h >> 33);
}

/* keys.c's fbei_keys_dedup over generated C values. */
int fbe_gen_dedup(fbe_gen_reader *g, uint64_t offset, void *items, uint32_t *count, size_t stride,
                  fbe_gen_hash_fn hash, fbe_gen_equal_fn equal, fbe_gen_drop_fn drop) {
  uint32_t n = *count;
  if (n < 2) return 0;
  size_t cap = 4;
  while (cap < 2 * (size_t)n) cap *= 2;
  uint32_t *table = fbei_mem_alloc(cap * sizeof *table); /* kept index + 1, 0 empty */
  if (!table) return fbe_gen_oom(g, offset);
  memset(table, 0, cap * sizeof *table);
  uint8_t *data = items;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *item = data + (size_t)i * stride;
    size_t at = (size_t)spread(hash(item)) & (cap - 1);
    while (table[at] && !equal(data + (size_t)(table[at] - 1) * stride, item)) at = (at + 1) & (cap - 1);
    if (table[at]) { /* a duplicate: the last one wins, in the first one's place */
      uint8_t *first = data + (size_t)(table[at] - 1) * stride;
      if (drop) drop(first, g->a);
      memcpy(first, item, stride);
      continue;
    }
    if (kept != i) memcpy(data + (size_t)kept * stride, item, stride);
    table[at] = ++kept;
  }
  *count = kept;
  fbei_mem_free(table);
  return 0;
}

int fbe_gen_blob_set(fbe_blob *b, const fbe_allocator *a, const char *text, size_t size) {
  b->data = NULL;
  b->size = 0;
  if (!size) return 0;
  uint8_t *copy = fbe_gen_alloc(a, size);
  if (!copy) return -1;
  memcpy(copy, text, size);
  b->data = copy;
  b->size = (uint32_t)size;
  return 0;
}

fbe_status fbe_gen_finish(fbe_buffer *out, size_t start, int failed, fbe_error *err) {
  if (failed) {
    out->size = start;
    if (failed == FBE_WRITE_TOO_LARGE)
      return fbei_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "model larger than 4 GiB");
    return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  }
  fbe_store32(out->data + start, (uint32_t)(out->size - start));
  return FBE_OK;
}

static const fbe_struct *find_type(const fbe_schema *schema, const char *type_name, fbe_error *err) {
  const fbe_struct *st = schema ? fbe_schema_find_struct(schema, type_name) : NULL;
  if (!st) fbei_error_set(err, FBE_ERR_NOT_FOUND, FBE_NO_OFFSET, "schema has no struct %s", type_name);
  return st;
}

fbe_status fbe_gen_json_write(const fbe_schema *schema, const char *type_name, const uint8_t *model,
                              size_t size, int pretty, fbe_buffer *out, fbe_error *err) {
  const fbe_struct *st = find_type(schema, type_name, err);
  if (!st) return FBE_ERR_NOT_FOUND;
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_msg *msg = NULL;
  fbe_status rc = fbe_decode(st, FBE_MODEL_FINAL, model, size, arena, NULL, &msg, NULL, err);
  if (rc == FBE_OK) rc = fbe_msg_to_json(msg, pretty, out, err);
  fbe_arena_free(arena);
  return rc;
}

fbe_status fbe_gen_json_read(const fbe_schema *schema, const char *type_name, const char *text,
                             size_t length, fbe_buffer *final_out, fbe_error *err) {
  const fbe_struct *st = find_type(schema, type_name, err);
  if (!st) return FBE_ERR_NOT_FOUND;
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_msg *msg = NULL;
  fbe_status rc = fbe_msg_from_json(st, text, length, arena, &msg, err);
  if (rc == FBE_OK) rc = fbe_encode(msg, FBE_MODEL_FINAL, final_out, err);
  fbe_arena_free(arena);
  return rc;
}

uint64_t fbe_gen_now(void) { return fbei_now_ns(); }
void fbe_gen_uuid1(fbe_uuid *out) { fbei_uuid_v1(out->bytes); }
void fbe_gen_uuid4(fbe_uuid *out) { fbei_uuid_v4(out->bytes); }

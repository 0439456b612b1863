/* Generated C code (`fbe gen c`) against the conformance vectors and the dynamic core.
 *
 *   test_gen SCHEMAS_DIR VECTORS.jsonl MALFORMED.jsonl [ROUNDS [VERSIONING.jsonl]]
 *   test_gen SCHEMAS_DIR ROUNDS          (no records: steps 4 and 5 only)
 *
 * The packages come from FBE_GEN_PACKAGES (a header naming the generated type tables):
 * test_gen is built for the reference schemas (packages_reference.h), test_gen_schemas
 * for the coverage schemas of tests/gen/schemas (packages_schemas.h).
 *
 * 1. Every record of VECTORS: for struct records (standard, final) the generated
 *    verify accepts the bytes, decode + to_json equals the record's JSON (both made
 *    canonical by the core's JSON writer), encode of the decoded value and of the
 *    value read from the JSON give the bytes exactly; every truncation of the bytes
 *    is refused or decoded without a crash, and on damaged copies the generated verify
 *    agrees with fbe_verify. Stream records: each message is encoded
 *    through generated code and the concatenation equals the bytes; each is decoded
 *    back from its place in the stream.
 * 2. Every record of MALFORMED: the generated verify refuses it, as the core does.
 * 3. Every record of VERSIONING (bytes of another schema version): the generated
 *    reader type decodes the record's JSON and its verify agrees with fbe_verify.
 * 4. Round trip against the dynamic core over random values of every struct of the
 *    four schemas, both models: dynamic encode -> generated decode -> generated encode
 *    gives the bytes the dynamic decode + encode gives, the JSON is the same, and the
 *    generated verify accepts what the dynamic one does; on damaged copies of those
 *    bytes the generated verify agrees with fbe_verify.
 * 5. Defaults: init + encode gives the bytes of the dynamic core's new message in both
 *    models (only the size where utc/uuid1/uuid4 defaults make two values differ), and a
 *    view without bytes reads as init's value; the
 *    generated enum name tables list the schema's values; the header's constants.
 * 6. Duplicate keys (the package header's duplicate_checks): values whose sets and maps
 *    hold one key several times, written by generated encode (which writes what a value
 *    holds), read by every generated decoder (verified, trusted; both models; the heap
 *    and an arena) give what fbe_decode gives: one entry per key, the last one, in the
 *    first one's place (core/src/keys.c); JSON with duplicates reads as the core reads it.
 * 7. Views, on the bytes of steps 1, 3, 4 and 6 (`views`): the generated view reads as the
 *    decoded value through every typed accessor (pkg_S_equal_view_; the duplicates of step
 *    6 as written), and not as the default value when that differs; pkg_S_from_view gives
 *    what decode gives; a truncated copy is refused as verify refuses it; bytes changed
 *    in place after the open are read without a bad read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbe/fbe.h"
#include "record.h"
#include "fbe/internal/schema_model.h" /* fbe_struct.dynamic_defaults */

#ifndef FBE_GEN_PACKAGES
#define FBE_GEN_PACKAGES "packages_reference.h"
#endif

static int g_failed, g_checks;

#define CHECK(cond, ...)                                         \
  do {                                                           \
    g_checks++;                                                  \
    if (!(cond)) {                                               \
      g_failed++;                                                \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);       \
      fprintf(stderr, __VA_ARGS__);                              \
      fprintf(stderr, "\n");                                     \
    }                                                            \
  } while (0)

/* ------------------------------------------------------------ registry */

typedef struct package {
  const char *name;
  const fbe_gen_type *types;
  size_t count;
  fbe_schema *schema;
} package;

/* A generated enum or flags name table and the type it is for. */
typedef struct enum_table {
  const char *name; /* "pkg.Type" */
  const fbe_enum_entry *entries;
} enum_table;

/* Step 6, for the package headers (defined below). */
static void duplicates(const char *type, const void *value, void *decoded);
static void json_duplicates(const char *type, const char *text, const char *kept);

/* g_packages[], g_enums[], constant_checks() and duplicate_checks() */
#include FBE_GEN_PACKAGES
#define NPACKAGES (sizeof g_packages / sizeof g_packages[0])
#define NENUMS (sizeof g_enums / sizeof g_enums[0])

static const char *g_schemas_dir;

static package *find_package(const char *name) {
  for (size_t i = 0; i < NPACKAGES; i++) {
    package *p = &g_packages[i];
    if (strcmp(p->name, name)) continue;
    if (!p->schema) {
      const char *dirs[1] = {g_schemas_dir};
      fbe_load_options o = {dirs, 1};
      p->schema = fbe_schema_load_package(name, &o, NULL);
      if (!p->schema) {
        fprintf(stderr, "cannot load package %s from %s\n", name, g_schemas_dir);
        exit(1);
      }
    }
    return p;
  }
  return NULL;
}

static const fbe_gen_type *find_type(package *p, const char *type) {
  char full[256];
  snprintf(full, sizeof full, "%s.%s", p->name, type);
  for (size_t i = 0; i < p->count; i++)
    if (!strcmp(p->types[i].name, full)) return &p->types[i];
  return NULL;
}

/* The core's canonical JSON of a JSON text of a type (read, then written). */
static int canonical_json(package *p, const char *type, const char *text, size_t len, fbe_buffer *out) {
  const fbe_struct *st = fbe_schema_find_struct(p->schema, type);
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *msg = NULL;
  int rc = !st || fbe_msg_from_json(st, text, len, arena, &msg, NULL) || fbe_msg_to_json(msg, 0, out, NULL);
  fbe_arena_free(arena);
  return rc ? -1 : 0;
}

static int same(const fbe_buffer *a, const uint8_t *b, size_t n) {
  return a->size == n && (n == 0 || memcmp(a->data, b, n) == 0);
}

/* ------------------------------------------------------------ struct records */

static uint64_t g_rng = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

/* Damaged copies of the bytes (1 to 3 random bytes replaced): the generated verify
 * accepts exactly what fbe_verify accepts, and decode never crashes (ASan builds check
 * memory), succeeding whenever verify accepted. */
static void mutations(const char *id, const fbe_struct *st, const fbe_gen_type *gt, fbe_model model,
                      const uint8_t *bytes, size_t size) {
  uint8_t *copy = malloc(size);
  if (!copy || !size) {
    free(copy);
    return;
  }
  for (int round = 0; round < 200; round++) {
    memcpy(copy, bytes, size);
    for (int k = 0, n = 1 + (int)(rnd() % 3); k < n; k++) copy[rnd() % size] = (uint8_t)rnd();
    fbe_error err;
    int gen_ok = gt->verify(model, copy, size, NULL, &err) == FBE_OK;
    int dyn_ok = fbe_verify(st, model, copy, size, NULL, NULL, &err) == FBE_OK;
    CHECK(gen_ok == dyn_ok, "%s: mutation %d: generated verify says %d, fbe_verify %d (%s at %s)", id, round, gen_ok,
          dyn_ok, err.message, err.path);
    void *t = calloc(1, gt->size);
    fbe_error verr, derr;
    fbe_status vs = gt->verify(model, copy, size, NULL, &verr);
    fbe_status s = gt->decode(t, model, copy, size, NULL, NULL, &derr);
    CHECK((s == FBE_OK) == gen_ok, "%s: mutation %d: verify says %d, decode %d: %s", id, round, gen_ok, s == FBE_OK,
          derr.message);
    if (s == FBE_OK) gt->free(t, NULL);
    else
      CHECK(s == vs && derr.offset == verr.offset && !strcmp(derr.message, verr.message) &&
                !strcmp(derr.path, verr.path),
            "%s: mutation %d: decode's error (%s at %zu) is not verify's (%s at %zu)", id, round, derr.message,
            derr.offset, verr.message, verr.offset);
    /* the trusted decode of hostile bytes: an error or a value, never a bad read */
    if (gt->decode_trusted(t, model, copy, size, NULL, NULL, &derr) == FBE_OK) gt->free(t, NULL);
    free(t);
  }
  free(copy);
}

/* Views (core/GEN_C.md, "Views"): the view opened on bytes holding `written` (sets and
 * maps as written) reads as that value through every typed accessor (equal_view walks
 * them all) and not as `other` when other's bytes and JSON differ (NULL: no such check);
 * from_view gives `decoded` (what decode gives: its bytes once encoded); a truncated copy
 * is refused as verify refuses it; and bytes changed in place after the open are read
 * without a crash or a bad read (ASan builds check memory). */
static void views(const char *id, package *p, const fbe_gen_type *gt, fbe_model model, const uint8_t *bytes,
                  size_t size, const void *written, const void *decoded, const void *other) {
  fbe_error err;
  fbe_gen_view view;
  size_t ms = 0;
  fbe_buffer want, got, json;
  fbe_buffer_init(&want);
  fbe_buffer_init(&got);
  fbe_buffer_init(&json);
  uint8_t *copy = malloc(size ? size : 1);
  void *t = calloc(1, gt->size);
  memcpy(copy, bytes, size);
  fbe_status rc = gt->open_view(&view, model, copy, size, &ms, &err);
  CHECK(rc == FBE_OK && ms == size, "%s: open_view: %s at %s", id, err.message, err.path);
  if (rc == FBE_OK) {
    CHECK(gt->equal_view(view, written), "%s model %d: the view does not read as the value", id, (int)model);
    if (other) {
      fbe_buffer_reset(&got);
      fbe_buffer_reset(&json);
      int differ = gt->encode(other, model, &got, NULL) == FBE_OK && !same(&got, bytes, size) &&
                   gt->to_json(other, p->schema, 0, &json, NULL) == FBE_OK &&
                   gt->to_json(written, p->schema, 0, &want, NULL) == FBE_OK && !same(&json, want.data, want.size);
      if (differ) CHECK(!gt->equal_view(view, other), "%s model %d: the view reads as another value", id, (int)model);
    }
    fbe_buffer_reset(&want);
    fbe_buffer_reset(&got);
    CHECK(gt->encode(decoded, model, &want, &err) == FBE_OK, "%s: encode: %s", id, err.message);
    rc = gt->from_view(t, view, NULL, &err);
    CHECK(rc == FBE_OK, "%s model %d: from_view: %s at %s", id, (int)model, err.message, err.path);
    if (rc == FBE_OK) {
      CHECK(gt->encode(t, model, &got, &err) == FBE_OK && same(&got, want.data, want.size),
            "%s model %d: from_view is not what decode gives (%zu vs %zu bytes)", id, (int)model, got.size, want.size);
      gt->free(t, NULL);
    }
  }
  if (size) {
    fbe_error verr;
    fbe_gen_view cut;
    fbe_status vs = gt->verify(model, bytes, size - 1, NULL, &verr);
    rc = gt->open_view(&cut, model, bytes, size - 1, NULL, &err);
    CHECK(rc == vs && (rc == FBE_OK || (err.offset == verr.offset && !strcmp(err.message, verr.message))),
          "%s model %d: open_view of a truncated copy: %d (%s), verify: %d (%s)", id, (int)model, rc, err.message, vs,
          verr.message);
  }
  for (int round = 0; round < 50 && size; round++) {
    memcpy(copy, bytes, size);
    if (gt->open_view(&view, model, copy, size, NULL, &err) != FBE_OK) break;
    for (int k = 0, n = 1 + (int)(rnd() % 3); k < n; k++) copy[rnd() % size] = (uint8_t)rnd();
    (void)gt->equal_view(view, written); /* any answer; no bad read */
    if (gt->from_view(t, view, NULL, &err) == FBE_OK) gt->free(t, NULL);
  }
  free(t);
  free(copy);
  fbe_buffer_free(&want);
  fbe_buffer_free(&got);
  fbe_buffer_free(&json);
}

static void struct_record(const record *r, package *p, const fbe_gen_type *gt, fbe_model model,
                          const uint8_t *bytes, size_t size) {
  fbe_error err;
  size_t ms = 0;
  void *v = calloc(1, gt->size), *w = calloc(1, gt->size);
  fbe_buffer a, b;
  fbe_buffer_init(&a);
  fbe_buffer_init(&b);

  fbe_status st = gt->verify(model, bytes, size, &ms, &err);
  CHECK(st == FBE_OK && ms == size, "%s: verify: %s at %s (offset %zu)", r->id, err.message, err.path, err.offset);

  st = gt->decode(v, model, bytes, size, NULL, &ms, &err);
  CHECK(st == FBE_OK && ms == size, "%s: decode: %s at %s (offset %zu)", r->id, err.message, err.path, err.offset);
  if (st == FBE_OK) {
    CHECK(gt->to_json(v, p->schema, 0, &a, &err) == FBE_OK, "%s: to_json: %s", r->id, err.message);
    CHECK(canonical_json(p, r->type, r->json.at, r->json.len, &b) == 0, "%s: record JSON unreadable", r->id);
    CHECK(a.size == b.size && !memcmp(a.data, b.data, a.size), "%s: decode JSON\n  got  %.*s\n  want %.*s", r->id,
          (int)a.size, (const char *)a.data, (int)b.size, (const char *)b.data);
    fbe_buffer_reset(&a);
    CHECK(gt->encode(v, model, &a, &err) == FBE_OK && same(&a, bytes, size), "%s: encode of the decoded value differs",
          r->id);
    void *dflt = calloc(1, gt->size);
    CHECK(gt->init(dflt, NULL) == FBE_OK, "%s: init", r->id);
    views(r->id, p, gt, model, bytes, size, v, v, dflt);
    gt->free(dflt, NULL);
    free(dflt);
  }
  fbe_buffer_reset(&a);
  st = gt->from_json(w, p->schema, r->json.at, r->json.len, NULL, &err);
  CHECK(st == FBE_OK, "%s: from_json: %s", r->id, err.message);
  if (st == FBE_OK)
    CHECK(gt->encode(w, model, &a, &err) == FBE_OK && same(&a, bytes, size), "%s: encode of the JSON value differs",
          r->id);

  /* every truncation: refused or read, never a crash (ASan builds check memory) */
  for (size_t n = 0; n < size; n++) {
    void *t = calloc(1, gt->size);
    if (gt->verify(model, bytes, n, NULL, &err) == FBE_OK) {
      CHECK(gt->decode(t, model, bytes, n, NULL, NULL, &err) == FBE_OK, "%s: verified prefix %zu not decoded",
            r->id, n);
      gt->free(t, NULL);
    } else {
      CHECK(gt->decode(t, model, bytes, n, NULL, NULL, &err) != FBE_OK, "%s: prefix %zu decoded, verify refuses it",
            r->id, n);
      if (gt->decode_trusted(t, model, bytes, n, NULL, NULL, &err) == FBE_OK) gt->free(t, NULL);
    }
    free(t);
  }

  mutations(r->id, fbe_schema_find_struct(p->schema, r->type), gt, model, bytes, size);
  gt->free(v, NULL);
  gt->free(w, NULL);
  free(v);
  free(w);
  fbe_buffer_free(&a);
  fbe_buffer_free(&b);
}

/* ------------------------------------------------------------ stream records */

static void stream_record(const record *r, fbe_model model, const uint8_t *bytes, size_t size) {
  json_iter it;
  span item;
  fbe_buffer all, json;
  fbe_buffer_init(&all);
  fbe_buffer_init(&json);
  size_t at = 0;
  int more, items = 0;
  CHECK(json_iter_init(&it, r->json) == 0, "%s: json is not an array", r->id);
  while ((more = json_iter_next(&it, &item)) == 1) {
    record m;
    char why[160];
    if (record_parse(item.at, item.len, &m, why, sizeof why)) {
      CHECK(0, "%s: item %d: %s", r->id, items, why);
      record_free(&m);
      break;
    }
    package *p = find_package(m.schema);
    const fbe_gen_type *gt = p ? find_type(p, m.type) : NULL;
    CHECK(gt != NULL, "%s: no generated type %s.%s", r->id, m.schema, m.type);
    if (!gt) {
      record_free(&m);
      break;
    }
    fbe_error err;
    void *v = calloc(1, gt->size);
    CHECK(gt->from_json(v, p->schema, m.json.at, m.json.len, NULL, &err) == FBE_OK, "%s: from_json: %s", r->id,
          err.message);
    CHECK(gt->encode(v, model, &all, &err) == FBE_OK, "%s: encode: %s", r->id, err.message);
    gt->free(v, NULL);
    size_t ms = 0;
    if (at < size) {
      CHECK(gt->verify(model, bytes + at, size - at, &ms, &err) == FBE_OK, "%s: item %d verify: %s", r->id, items,
            err.message);
      if (gt->decode(v, model, bytes + at, size - at, NULL, &ms, &err) == FBE_OK) {
        fbe_buffer want;
        fbe_buffer_init(&want);
        fbe_buffer_reset(&json);
        CHECK(gt->to_json(v, p->schema, 0, &json, &err) == FBE_OK &&
                  canonical_json(p, m.type, m.json.at, m.json.len, &want) == 0 && json.size == want.size &&
                  !memcmp(json.data, want.data, json.size),
              "%s: item %d decodes to other JSON", r->id, items);
        fbe_buffer_free(&want);
        gt->free(v, NULL);
        at += ms;
      } else {
        CHECK(0, "%s: item %d decode: %s", r->id, items, err.message);
        at = size;
      }
    }
    free(v);
    record_free(&m);
    items++;
  }
  CHECK(more == 0 && at == size, "%s: stream not read to its end", r->id);
  CHECK(same(&all, bytes, size), "%s: the encoded stream differs", r->id);
  fbe_buffer_free(&all);
  fbe_buffer_free(&json);
}

/* ------------------------------------------------------------ files of records */

static char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) exit(1);
  text[n] = 0;
  fclose(f);
  *size = (size_t)n;
  return text;
}

typedef void (*record_fn)(const record *r, const uint8_t *bytes, size_t size);

static int each_record(const char *path, record_fn fn) {
  size_t size;
  char *text = read_all(path, &size);
  int count = 0;
  for (char *line = text, *end; *line; line = end + (*end != 0)) {
    end = strchr(line, '\n');
    if (!end) end = line + strlen(line);
    if (end == line) continue;
    record r;
    char why[160];
    if (record_parse(line, (size_t)(end - line), &r, why, sizeof why)) {
      CHECK(0, "%s: %s", path, why);
      record_free(&r);
      continue;
    }
    size_t n = 0;
    uint8_t *bytes = hex_decode(r.hex, &n);
    CHECK(bytes != NULL, "%s: bad hex", r.id);
    if (bytes) fn(&r, bytes, n);
    free(bytes);
    record_free(&r);
    count++;
  }
  free(text);
  return count;
}

static void vector_record(const record *r, const uint8_t *bytes, size_t size) {
  package *p = find_package(r->schema);
  CHECK(p != NULL, "%s: no generated package %s", r->id, r->schema);
  if (!p) return;
  if (!strcmp(r->format, "stream-standard") || !strcmp(r->format, "stream-final")) {
    stream_record(r, r->format[7] == 'f' ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, bytes, size);
    return;
  }
  const fbe_gen_type *gt = find_type(p, r->type);
  CHECK(gt != NULL, "%s: no generated type %s", r->id, r->type);
  CHECK(!strcmp(r->format, "standard") || !strcmp(r->format, "final"), "%s: format %s", r->id, r->format);
  if (gt) struct_record(r, p, gt, strcmp(r->format, "final") ? FBE_MODEL_STANDARD : FBE_MODEL_FINAL, bytes, size);
}

/* Bytes of an older or newer writer (standard model) read by the generated reader
 * type: the JSON the record gives (missing fields at their defaults, FORMAT.md 5.10),
 * and the generated verify agrees with the record and with fbe_verify. */
static void versioning_record(const record *r, const uint8_t *bytes, size_t size) {
  package *p = find_package(r->reader_schema);
  const fbe_gen_type *gt = p ? find_type(p, r->reader_type) : NULL;
  CHECK(gt != NULL, "%s: no generated type %s.%s", r->id, r->reader_schema, r->reader_type);
  if (!gt) return;
  fbe_error err;
  int gen_ok = gt->verify(FBE_MODEL_STANDARD, bytes, size, NULL, &err) == FBE_OK;
  int dyn_ok = fbe_verify(fbe_schema_find_struct(p->schema, r->reader_type), FBE_MODEL_STANDARD, bytes, size,
                          NULL, NULL, &err) == FBE_OK;
  CHECK(gen_ok == dyn_ok && (r->verify < 0 || gen_ok == r->verify), "%s: generated verify says %d", r->id, gen_ok);
  if (!r->json.len) return;
  void *v = calloc(1, gt->size);
  fbe_buffer a, b;
  fbe_buffer_init(&a);
  fbe_buffer_init(&b);
  /* a reader of a sibling type whose id differs decodes trusted (verify refuses it) */
  fbe_status st = (gen_ok ? gt->decode : gt->decode_trusted)(v, FBE_MODEL_STANDARD, bytes, size, NULL, NULL, &err);
  CHECK(st == FBE_OK, "%s: decode: %s at %s", r->id, err.message, err.path);
  if (!gen_ok) {
    void *t = calloc(1, gt->size);
    CHECK(gt->decode(t, FBE_MODEL_STANDARD, bytes, size, NULL, NULL, &err) != FBE_OK,
          "%s: decode accepts bytes verify refuses", r->id);
    free(t);
  }
  if (st == FBE_OK) {
    CHECK(gt->to_json(v, p->schema, 0, &a, &err) == FBE_OK &&
              canonical_json(p, r->reader_type, r->json.at, r->json.len, &b) == 0 && a.size == b.size &&
              !memcmp(a.data, b.data, a.size),
          "%s: decode JSON\n  got  %.*s\n  want %.*s", r->id, (int)a.size, (const char *)a.data, (int)b.size,
          (const char *)b.data);
    /* a missing field with a utc/uuid default: decode computes it, a view reads zero */
    if (gen_ok && !fbe_schema_find_struct(p->schema, r->reader_type)->dynamic_defaults)
      views(r->id, p, gt, FBE_MODEL_STANDARD, bytes, size, v, v, NULL);
    gt->free(v, NULL);
  }
  free(v);
  fbe_buffer_free(&a);
  fbe_buffer_free(&b);
}

static void malformed_record(const record *r, const uint8_t *bytes, size_t size) {
  package *p = find_package(r->schema);
  const fbe_gen_type *gt = p ? find_type(p, r->type) : NULL;
  CHECK(gt != NULL, "%s: no generated type %s.%s", r->id, r->schema, r->type);
  if (!gt) return;
  fbe_model model = strcmp(r->format, "final") ? FBE_MODEL_STANDARD : FBE_MODEL_FINAL;
  fbe_error err;
  CHECK(gt->verify(model, bytes, size, NULL, &err) != FBE_OK, "%s: generated verify accepts malformed bytes", r->id);
  void *v = calloc(1, gt->size);
  CHECK(gt->decode(v, model, bytes, size, NULL, NULL, &err) != FBE_OK, "%s: generated decode accepts malformed bytes",
        r->id);
  if (gt->decode_trusted(v, model, bytes, size, NULL, NULL, &err) == FBE_OK) gt->free(v, NULL);
  free(v);
}

/* ------------------------------------------------------------ random round trips */

static void fill(fbe_ref r, int depth);

static void fill_int(fbe_ref r, fbe_kind k) {
  uint64_t v = rnd();
  switch (k) {
    case FBE_KIND_BOOL: fbe_ref_set_bool(r, (int)(v & 1), NULL); return;
    case FBE_KIND_CHAR: fbe_ref_set_uint(r, 0x20 + v % 0x5f, NULL); return;
    case FBE_KIND_WCHAR: fbe_ref_set_uint(r, v % 0xd000, NULL); return;
    case FBE_KIND_BYTE: case FBE_KIND_UINT8: fbe_ref_set_uint(r, v & 0xff, NULL); return;
    case FBE_KIND_UINT16: fbe_ref_set_uint(r, v & 0xffff, NULL); return;
    case FBE_KIND_UINT32: fbe_ref_set_uint(r, v & 0xffffffffu, NULL); return;
    case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP: fbe_ref_set_uint(r, v, NULL); return;
    case FBE_KIND_INT8: fbe_ref_set_int(r, (int8_t)v, NULL); return;
    case FBE_KIND_INT16: fbe_ref_set_int(r, (int16_t)v, NULL); return;
    case FBE_KIND_INT32: fbe_ref_set_int(r, (int32_t)v, NULL); return;
    default: fbe_ref_set_int(r, (int64_t)v, NULL); return;
  }
}

static void fill(fbe_ref r, int depth) {
  fbe_kind k = fbe_ref_kind(r);
  char text[64];
  switch (k) {
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: fill_int(r, fbe_enum_base(fbe_type_enum(r.type))); return;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE:
      fbe_ref_set_double(r, (double)(int64_t)(rnd() % 2000001 - 1000000) / 64.0, NULL);
      return;
    case FBE_KIND_DECIMAL: {
      fbe_decimal d;
      snprintf(text, sizeof text, "%lld.%02u", (long long)(rnd() % 2000001) - 1000000, (unsigned)(rnd() % 100));
      if (fbe_decimal_parse(text, strlen(text), &d) == FBE_OK) fbe_ref_set_decimal(r, &d, NULL);
      return;
    }
    case FBE_KIND_UUID: {
      fbe_uuid u;
      for (int i = 0; i < 16; i++) u.bytes[i] = (uint8_t)rnd();
      fbe_ref_set_uuid(r, &u, NULL);
      return;
    }
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      size_t n = rnd() % 24;
      for (size_t i = 0; i < n; i++) text[i] = (char)(k == FBE_KIND_STRING ? 'a' + rnd() % 26 : rnd());
      fbe_ref_set_bytes(r, text, n, NULL);
      return;
    }
    case FBE_KIND_STRUCT: {
      const fbe_struct *st = fbe_type_struct(r.type);
      for (size_t i = 0; i < st->nfields; i++) {
        fbe_ref f = fbe_ref_field_at(r, i);
        /* a null `timestamp? f = utc` (`uuid? f = uuid1`, `uuid4`) reads back (standard
         * model) as the time of reading (a new uuid): keep those present so that two
         * reads agree */
        fbei_default_kind d = st->fields[i].def.kind;
        if (fbe_ref_kind(f) == FBE_KIND_OPTIONAL && (d == FBE_DEF_UTC || d == FBE_DEF_UUID1 || d == FBE_DEF_UUID4))
          fill(fbe_ref_emplace(f), depth + 1);
        else fill(f, depth);
      }
      return;
    }
    case FBE_KIND_OPTIONAL:
      if (depth < 3 && rnd() % 3)
        fill(fbe_ref_emplace(r), depth + 1);
      else fbe_ref_set_null(r, NULL);
      return;
    case FBE_KIND_ARRAY:
      for (size_t i = 0; i < fbe_ref_count(r); i++) fill(fbe_ref_at(r, i), depth + 1);
      return;
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET: {
      size_t n = depth < 3 ? rnd() % 4 : 0;
      for (size_t i = 0; i < n; i++) fill(fbe_ref_append(r), depth + 1);
      return;
    }
    case FBE_KIND_MAP: case FBE_KIND_HASH: {
      size_t n = depth < 3 ? rnd() % 4 : 0;
      for (size_t i = 0; i < n; i++) {
        fbe_ref value;
        fbe_ref key = fbe_ref_map_append(r, &value);
        fill(key, depth + 1);
        fill(value, depth + 1);
      }
      return;
    }
    default: fill_int(r, k); return;
  }
}

static void round_trips(int rounds) {
  fbe_arena *arena = fbe_arena_new(), *values = fbe_arena_new();
  fbe_allocator alloc = fbe_allocator_arena(values);
  fbe_buffer dyn, back, gen, ja, jb;
  fbe_buffer_init(&dyn);
  fbe_buffer_init(&back);
  fbe_buffer_init(&gen);
  fbe_buffer_init(&ja);
  fbe_buffer_init(&jb);
  for (size_t pi = 0; pi < NPACKAGES; pi++) {
    package *p = find_package(g_packages[pi].name);
    for (size_t ti = 0; ti < p->count; ti++) {
      const fbe_gen_type *gt = &p->types[ti];
      const fbe_struct *st = fbe_schema_find_struct(p->schema, gt->name);
      CHECK(st != NULL, "%s not in the schema", gt->name);
      if (!st) continue;
      for (int round = 0; round < rounds; round++) {
        for (int m = 0; m < 2; m++) {
          fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
          fbe_error err;
          fbe_arena_reset(arena);
          fbe_arena_reset(values);
          fbe_msg *msg = fbe_msg_new(arena, st), *dmsg = NULL;
          fill(fbe_msg_ref(msg), 0);
          fbe_buffer_reset(&dyn);
          fbe_buffer_reset(&back);
          fbe_buffer_reset(&gen);
          fbe_buffer_reset(&ja);
          fbe_buffer_reset(&jb);
          if (fbe_encode(msg, model, &dyn, &err) != FBE_OK) {
            CHECK(0, "%s: dynamic encode: %s", gt->name, err.message);
            continue;
          }
          /* what the dynamic core reads back is the reference for the generated code */
          CHECK(fbe_decode(st, model, dyn.data, dyn.size, arena, NULL, &dmsg, NULL, &err) == FBE_OK &&
                    fbe_encode(dmsg, model, &back, &err) == FBE_OK,
                "%s: dynamic round trip: %s", gt->name, err.message);
          /* maps with bool, float, double or bytes keys have no JSON form (FORMAT.md 10):
           * then both refuse it */
          fbe_status json_rc = fbe_msg_to_json(dmsg, 0, &jb, &err);
          void *v = calloc(1, gt->size);
          size_t ms = 0;
          CHECK(gt->verify(model, dyn.data, dyn.size, &ms, &err) == FBE_OK && ms == dyn.size,
                "%s model %d: generated verify: %s at %s", gt->name, m, err.message, err.path);
          fbe_status s = gt->decode(v, model, dyn.data, dyn.size, &alloc, &ms, &err);
          CHECK(s == FBE_OK, "%s model %d: generated decode: %s at %s", gt->name, m, err.message, err.path);
          if (s == FBE_OK) {
            CHECK(gt->encode(v, model, &gen, &err) == FBE_OK && same(&gen, back.data, back.size),
                  "%s model %d: generated encode differs from the dynamic one (%zu vs %zu bytes)", gt->name, m,
                  gen.size, back.size);
            CHECK(gt->to_json(v, p->schema, 0, &ja, &err) == json_rc &&
                      (json_rc != FBE_OK || (ja.size == jb.size && !memcmp(ja.data, jb.data, ja.size))),
                  "%s model %d: JSON differs\n  gen %.*s\n  dyn %.*s", gt->name, m, (int)ja.size,
                  (const char *)ja.data, (int)jb.size, (const char *)jb.data);
            /* and back: the generated bytes read by the dynamic core equal the value */
            fbe_msg *again = NULL;
            CHECK(fbe_decode(st, model, gen.data, gen.size, arena, NULL, &again, NULL, &err) == FBE_OK &&
                      fbe_msg_equal(again, dmsg),
                  "%s model %d: dynamic decode of generated bytes differs", gt->name, m);
            views(gt->name, p, gt, model, gen.data, gen.size, v, v, NULL);
          }
          mutations(gt->name, st, gt, model, dyn.data, dyn.size);
          free(v); /* allocations live in `values` (arena allocator) */
        }
      }
    }
  }
  fbe_buffer_free(&dyn);
  fbe_buffer_free(&back);
  fbe_buffer_free(&gen);
  fbe_buffer_free(&ja);
  fbe_buffer_free(&jb);
  fbe_arena_free(arena);
  fbe_arena_free(values);
}

/* Defaults: init gives the values the dynamic core's new message has, in both models. */
static void defaults(void) {
  fbe_buffer a, b;
  fbe_buffer_init(&a);
  fbe_buffer_init(&b);
  for (size_t pi = 0; pi < NPACKAGES; pi++) {
    package *p = find_package(g_packages[pi].name);
    for (size_t ti = 0; ti < p->count; ti++) {
      const fbe_gen_type *gt = &p->types[ti];
      const fbe_struct *st = fbe_schema_find_struct(p->schema, gt->name);
      CHECK(st != NULL, "%s not in the schema", gt->name);
      if (!st) continue;
      fbe_arena *arena = fbe_arena_new();
      fbe_msg *msg = fbe_msg_new(arena, st);
      void *v = calloc(1, gt->size);
      CHECK(gt->init(v, NULL) == FBE_OK, "%s: init", gt->name);
      for (int m = 0; m < 2; m++) {
        fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
        fbe_buffer_reset(&a);
        fbe_buffer_reset(&b);
        CHECK(gt->encode(v, model, &a, NULL) == FBE_OK && fbe_encode(msg, model, &b, NULL) == FBE_OK,
              "%s model %d: encode", gt->name, m);
        /* utc/uuid1/uuid4 defaults differ between two evaluations: compare sizes then */
        CHECK(st->dynamic_defaults ? a.size == b.size : same(&a, b.data, b.size),
              "%s model %d: init differs from the schema defaults (%zu vs %zu bytes)", gt->name, m, a.size, b.size);
      }
      /* a view without bytes (a missing struct) reads every field as its schema default */
      CHECK(st->dynamic_defaults || gt->equal_view(fbe_gen_view_none(), v), "%s: a view without bytes is not init's value",
            gt->name);
      gt->free(v, NULL);
      free(v);
      fbe_arena_free(arena);
    }
  }
  fbe_buffer_free(&a);
  fbe_buffer_free(&b);
}

/* The generated name tables: the schema's values in declaration order, then {NULL, 0}. */
static void enum_tables(void) {
  for (size_t i = 0; i < NENUMS; i++) {
    const enum_table *t = &g_enums[i];
    const fbe_enum *e = NULL; /* in any loaded schema: a package of enums only may be imported */
    for (size_t pi = 0; pi < NPACKAGES && !e; pi++)
      e = fbe_schema_find_enum(find_package(g_packages[pi].name)->schema, t->name);
    CHECK(e != NULL, "%s not in the schema", t->name);
    if (!e) continue;
    size_t n = fbe_enum_value_count(e);
    for (size_t k = 0; k < n; k++)
      CHECK(t->entries[k].name && !strcmp(t->entries[k].name, fbe_enum_value_name(e, k)) &&
                t->entries[k].value == fbe_enum_value_at(e, k),
            "%s: entry %zu is not %s", t->name, k, fbe_enum_value_name(e, k));
    CHECK(t->entries[n].name == NULL && t->entries[n].value == 0, "%s: the table does not end at %zu", t->name, n);
  }
}

/* ------------------------------------------------------------ duplicate keys */

/* The package and generated type of "pkg.Type". */
static const fbe_gen_type *type_named(const char *type, package **pp) {
  char pkg[256];
  const char *dot = strrchr(type, '.');
  snprintf(pkg, sizeof pkg, "%.*s", dot ? (int)(dot - type) : 0, type);
  *pp = find_package(pkg);
  const fbe_gen_type *gt = *pp && dot ? find_type(*pp, dot + 1) : NULL;
  CHECK(gt != NULL, "no generated type %s", type);
  return gt;
}

/* value (a generated value of type, its sets and maps holding duplicate keys) encoded by
 * generated code, in both models: every generated decoder reads what the dynamic one
 * reads (its bytes and JSON once encoded again). The generated decode of the final model
 * (verified, the core's heap) is left in decoded for the caller's typed checks. */
static void duplicates(const char *type, const void *value, void *decoded) {
  package *p;
  const fbe_gen_type *gt = type_named(type, &p);
  const fbe_struct *st = gt ? fbe_schema_find_struct(p->schema, type) : NULL;
  if (!gt || !st) return;
  fbe_arena *arena = fbe_arena_new(), *values = fbe_arena_new();
  fbe_allocator in_arena = fbe_allocator_arena(values);
  fbe_buffer bytes, want, got, jwant, jgot;
  fbe_buffer_init(&bytes);
  fbe_buffer_init(&want);
  fbe_buffer_init(&got);
  fbe_buffer_init(&jwant);
  fbe_buffer_init(&jgot);
  for (int m = 0; m < 2; m++) {
    fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbe_error err;
    fbe_msg *dmsg = NULL, *tmsg = NULL;
    fbe_buffer_reset(&bytes);
    fbe_buffer_reset(&want);
    fbe_buffer_reset(&jwant);
    CHECK(gt->encode(value, model, &bytes, &err) == FBE_OK, "%s model %d: encode: %s", type, m, err.message);
    CHECK(fbe_verify(st, model, bytes.data, bytes.size, NULL, NULL, &err) == FBE_OK &&
              gt->verify(model, bytes.data, bytes.size, NULL, &err) == FBE_OK,
          "%s model %d: duplicates do not verify: %s", type, m, err.message);
    if (fbe_decode(st, model, bytes.data, bytes.size, arena, NULL, &dmsg, NULL, &err) != FBE_OK ||
        fbe_encode(dmsg, model, &want, &err) != FBE_OK) {
      CHECK(0, "%s model %d: dynamic decode: %s", type, m, err.message);
      continue;
    }
    CHECK(fbe_decode_trusted(st, model, bytes.data, bytes.size, arena, NULL, &tmsg, NULL, &err) == FBE_OK &&
              fbe_msg_equal(tmsg, dmsg),
          "%s model %d: the core's trusted decode reads other values", type, m);
    fbe_status json_rc = fbe_msg_to_json(dmsg, 0, &jwant, &err); /* some keys have no JSON form */
    for (int trusted = 0; trusted < 2; trusted++) {
      for (int heap = 0; heap < 2; heap++) {
        void *v = calloc(1, gt->size);
        const fbe_allocator *a = heap ? NULL : &in_arena;
        fbe_status s = (trusted ? gt->decode_trusted : gt->decode)(v, model, bytes.data, bytes.size, a, NULL, &err);
        CHECK(s == FBE_OK, "%s model %d trusted %d: decode: %s", type, m, trusted, err.message);
        if (s == FBE_OK) {
          fbe_buffer_reset(&got);
          fbe_buffer_reset(&jgot);
          CHECK(gt->encode(v, model, &got, &err) == FBE_OK && same(&got, want.data, want.size),
                "%s model %d trusted %d heap %d: generated decode keeps other entries than the core (%zu vs %zu "
                "bytes)",
                type, m, trusted, heap, got.size, want.size);
          CHECK(gt->to_json(v, p->schema, 0, &jgot, &err) == json_rc &&
                    (json_rc != FBE_OK || same(&jgot, jwant.data, jwant.size)),
                "%s model %d: JSON differs\n  gen %.*s\n  dyn %.*s", type, m, (int)jgot.size,
                (const char *)jgot.data, (int)jwant.size, (const char *)jwant.data);
        }
        if (s == FBE_OK && !trusted && heap) /* a view reads the duplicates as written */
          views(type, p, gt, model, bytes.data, bytes.size, value, v, NULL);
        if (s == FBE_OK && m == 1 && !trusted && heap && decoded) {
          memcpy(decoded, v, gt->size); /* the caller frees it */
          decoded = NULL;
        } else if (s == FBE_OK) {
          gt->free(v, a);
        }
        free(v);
      }
    }
    fbe_arena_reset(arena);
    fbe_arena_reset(values);
  }
  fbe_buffer_free(&bytes);
  fbe_buffer_free(&want);
  fbe_buffer_free(&got);
  fbe_buffer_free(&jwant);
  fbe_buffer_free(&jgot);
  fbe_arena_free(arena);
  fbe_arena_free(values);
}

/* JSON with duplicate keys read by the generated from_json: what `kept` says (read by
 * the core and written back). */
static void json_duplicates(const char *type, const char *text, const char *kept) {
  package *p;
  const fbe_gen_type *gt = type_named(type, &p);
  if (!gt) return;
  fbe_buffer got, want;
  fbe_buffer_init(&got);
  fbe_buffer_init(&want);
  fbe_error err;
  void *v = calloc(1, gt->size);
  CHECK(canonical_json(p, type, kept, strlen(kept), &want) == 0, "%s: kept JSON unreadable", type);
  fbe_status s = gt->from_json(v, p->schema, text, strlen(text), NULL, &err);
  CHECK(s == FBE_OK, "%s: from_json: %s", type, err.message);
  if (s == FBE_OK) {
    CHECK(gt->to_json(v, p->schema, 0, &got, &err) == FBE_OK && same(&got, want.data, want.size),
          "%s: JSON with duplicates\n  reads %.*s\n  want  %.*s", type, (int)got.size, (const char *)got.data,
          (int)want.size, (const char *)want.data);
    gt->free(v, NULL);
  }
  free(v);
  fbe_buffer_free(&got);
  fbe_buffer_free(&want);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_gen SCHEMAS_DIR VECTORS.jsonl MALFORMED.jsonl [ROUNDS [VERSIONING.jsonl]]\n"
                    "       test_gen SCHEMAS_DIR ROUNDS\n");
    return 2;
  }
  g_schemas_dir = argv[1];
  size_t memory_base = fbe_memory_in_use(); /* generated code's NULL allocator is counted too */
  int records = argc > 3;
  int rounds = records ? (argc > 4 ? atoi(argv[4]) : 20) : atoi(argv[2]);
  if (rounds < 0) rounds = 0;
  int nvec = records ? each_record(argv[2], vector_record) : 0;
  int nmal = records ? each_record(argv[3], malformed_record) : 0;
  int nver = argc > 5 ? each_record(argv[5], versioning_record) : 0;
  defaults();
  enum_tables();
  constant_checks();
  duplicate_checks();
  view_checks();
  round_trips(rounds);
  for (size_t i = 0; i < NPACKAGES; i++) fbe_schema_release(g_packages[i].schema);
  CHECK(fbe_memory_in_use() == memory_base, "the core holds %zu bytes more than at the start (a leak)",
        fbe_memory_in_use() - memory_base);
  printf("test_gen: %d vector records, %d malformed records, %d versioning records, %d random rounds per "
         "type and model; %d checks, %d failed\n",
         nvec, nmal, nver, rounds, g_checks, g_failed);
  return g_failed ? 1 : 0;
}

/* Unit tests of views (core/include/fbe/view.h): for every record of the conformance
 * vectors, in its model, walking every value through a view gives what fbe_decode
 * gives (each scalar, string, optional and collection, recursively); a newer reader's
 * view of an older writer's bytes reads the missing fields as their defaults, as
 * decode does; bytes verify refuses are refused with verify's error; and a name or
 * index that is not there gives no value. A lazy view (fbe_view_open_lazy) reads the
 * same values as a verified one, and on bytes verify refuses, reading all of it finds
 * no value somewhere (but where verify's rule is about the whole model), never reading
 * outside the bytes: every record of the conformance files, each byte changed, each
 * prefix. */
#include "fbe_test.h"
#include "view_walk.h"

/* The quoted string value of "key":"..." in a conformance record line (the last one:
 * a record's own keys are plain, the value's JSON comes before "hex"). */
static int record_field(const char *line, const char *key, char *out, size_t cap) {
  char pattern[32];
  snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
  const char *at = NULL;
  for (const char *s = strstr(line, pattern); s; s = strstr(s + 1, pattern)) at = s;
  if (!at) return -1;
  at += strlen(pattern);
  const char *end = strchr(at, '"');
  if (!end || (size_t)(end - at) >= cap) return -1;
  memcpy(out, at, (size_t)(end - at));
  out[end - at] = 0;
  return 0;
}

/* A record's hex as exactly its bytes (malloc'd: a read past them is caught by ASan). */
static uint8_t *record_bytes(const char *hex, size_t *size) {
  *size = strlen(hex) / 2;
  uint8_t *bytes = malloc(*size ? *size : 1);
  assert_non_null(bytes);
  for (size_t k = 0; k < *size; k++) {
    unsigned byte;
    assert_int_equal(sscanf(hex + 2 * k, "%2x", &byte), 1);
    bytes[k] = (uint8_t)byte;
  }
  return bytes;
}

static int same_place(fbe_view a, fbe_view b) {
  return a.type == b.type && a.at == b.at && a.base == b.base && a.image == b.image;
}

/* fbe_view_next steps onto exactly the views fbe_view_at / _key_at / _value_at give. */
static void same_steps(fbe_view v, const char *path) {
  int map = fbe_view_kind(v) == FBE_KIND_MAP || fbe_view_kind(v) == FBE_KIND_HASH;
  fbe_view_iter it = fbe_view_iterate(v);
  fbe_view a, b;
  size_t i = 0;
  while (fbe_view_next(&it, &a, &b)) {
    if (!same_place(a, map ? fbe_view_key_at(v, i) : fbe_view_at(v, i)) ||
        (map && !same_place(b, fbe_view_value_at(v, i))))
      fail_msg("%s: step %zu is not element %zu", path, i, i);
    i++;
  }
  if (i != fbe_view_count(v)) fail_msg("%s: %zu steps, %zu elements", path, i, fbe_view_count(v));
}

/* fbe_view_get_scalars spans exactly the elements fbe_view_at gives, for a collection
 * of fixed-size scalars (in the bytes, or an empty default); FBE_ERR_TYPE otherwise. */
static void same_scalars(fbe_view v, const char *path) {
  const uint8_t *p = NULL;
  size_t n = 0, w = 0, count = fbe_view_count(v);
  fbe_status rc = fbe_view_get_scalars(v, &p, &n, &w);
  fbe_kind k = count ? fbe_view_kind(fbe_view_at(v, 0)) : FBE_KIND_COUNT_;
  int scalar = k < FBE_KIND_STRING || k == FBE_KIND_ENUM || k == FBE_KIND_FLAGS;
  if (count && (!scalar || (v.image && count))) {
    if (rc != FBE_ERR_TYPE) fail_msg("%s: scalars of %s elements", path, scalar ? "default" : "non-scalar");
    return;
  }
  if (!count) {
    if (rc == FBE_OK && n) fail_msg("%s: %zu scalars of no element", path, n);
    return;
  }
  if (rc != FBE_OK || n != count) fail_msg("%s: scalars %d, %zu of %zu", path, rc, n, count);
  for (size_t i = 0; i < n; i++) {
    fbe_view e = fbe_view_at(v, i);
    if (e.data + e.at != p + i * w) fail_msg("%s: scalar %zu is not element %zu", path, i, i);
  }
  assert_true(p >= v.data && p + n * w <= v.data + v.end);
}

static size_t leaves; /* scalars, strings and bytes compared: the walk reached the values */

/* Asserts that view v reads the value ref r holds, at `path` (for the failure text). */
static void same(fbe_view v, fbe_ref r, const char *path) {
  if (!fbe_view_ok(v)) fail_msg("%s: no value in the view", path);
  fbe_kind kind = fbe_ref_kind(r);
  if (fbe_view_kind(v) != kind) fail_msg("%s: kind %d, decode %d", path, fbe_view_kind(v), kind);
  char sub[512];
  switch (kind) {
    case FBE_KIND_STRUCT: {
      const fbe_struct *st = fbe_type_struct(r.type);
      for (size_t i = 0; i < fbe_struct_field_count(st); i++) {
        const char *name = fbe_field_name(fbe_struct_field_at(st, i));
        snprintf(sub, sizeof sub, "%s.%s", path, name);
        same(fbe_view_field(v, i), fbe_ref_field_at(r, i), sub);
        /* by name: the same value */
        fbe_view by_name = fbe_view_field_named(v, name), by_index = fbe_view_field(v, i);
        assert_true(by_name.at == by_index.at && by_name.type == by_index.type &&
                    by_name.image == by_index.image);
      }
      assert_false(fbe_view_ok(fbe_view_field(v, fbe_struct_field_count(st))));
      return;
    }
    case FBE_KIND_OPTIONAL:
      assert_int_equal(fbe_view_is_null(v), fbe_ref_is_null(r));
      if (fbe_ref_is_null(r)) {
        assert_false(fbe_view_ok(fbe_view_deref(v)));
      } else {
        snprintf(sub, sizeof sub, "%s?", path);
        same(fbe_view_deref(v), fbe_ref_deref(r), sub);
      }
      return;
    case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET: {
      size_t n = fbe_ref_count(r);
      if (fbe_view_count(v) != n) fail_msg("%s: %zu elements, decode %zu", path, fbe_view_count(v), n);
      for (size_t i = 0; i < n; i++) {
        snprintf(sub, sizeof sub, "%s[%zu]", path, i);
        same(fbe_view_at(v, i), fbe_ref_at(r, i), sub);
      }
      assert_false(fbe_view_ok(fbe_view_at(v, n)));
      assert_false(fbe_view_ok(fbe_view_key_at(v, 0)));
      same_steps(v, path);
      same_scalars(v, path);
      return;
    }
    case FBE_KIND_MAP: case FBE_KIND_HASH: {
      size_t n = fbe_ref_count(r);
      if (fbe_view_count(v) != n) fail_msg("%s: %zu entries, decode %zu", path, fbe_view_count(v), n);
      for (size_t i = 0; i < n; i++) {
        snprintf(sub, sizeof sub, "%s{key %zu}", path, i);
        same(fbe_view_key_at(v, i), fbe_ref_key_at(r, i), sub);
        snprintf(sub, sizeof sub, "%s{value %zu}", path, i);
        same(fbe_view_value_at(v, i), fbe_ref_value_at(r, i), sub);
      }
      assert_false(fbe_view_ok(fbe_view_value_at(v, n)));
      assert_false(fbe_view_ok(fbe_view_at(v, 0)));
      same_steps(v, path);
      return;
    }
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const uint8_t *a = NULL, *b = NULL;
      size_t an = 0, bn = 0;
      assert_int_equal(fbe_view_get_bytes(v, &a, &an), FBE_OK);
      assert_int_equal(fbe_ref_get_bytes(r, &b, &bn), FBE_OK);
      if (an != bn || (an && memcmp(a, b, an))) fail_msg("%s: '%.*s', decode '%.*s'", path, (int)an, a, (int)bn, b);
      leaves++;
      return;
    }
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: {
      double a, b;
      assert_int_equal(fbe_view_get_double(v, &a), FBE_OK);
      assert_int_equal(fbe_ref_get_double(r, &b), FBE_OK);
      if (memcmp(&a, &b, sizeof a)) fail_msg("%s: %g, decode %g", path, a, b);
      assert_int_equal(fbe_view_get_int(v, &(int64_t){0}), FBE_ERR_TYPE);
      leaves++;
      return;
    }
    case FBE_KIND_DECIMAL: {
      fbe_decimal a, b;
      assert_int_equal(fbe_view_get_decimal(v, &a), FBE_OK);
      assert_int_equal(fbe_ref_get_decimal(r, &b), FBE_OK);
      if (memcmp(&a, &b, sizeof a)) fail_msg("%s: decimals differ", path);
      leaves++;
      return;
    }
    case FBE_KIND_UUID: {
      fbe_uuid a, b;
      assert_int_equal(fbe_view_get_uuid(v, &a), FBE_OK);
      assert_int_equal(fbe_ref_get_uuid(r, &b), FBE_OK);
      if (memcmp(&a, &b, sizeof a)) fail_msg("%s: uuids differ", path);
      leaves++;
      return;
    }
    case FBE_KIND_BOOL: {
      int a = -1, b = -2;
      assert_int_equal(fbe_view_get_bool(v, &a), FBE_OK);
      assert_int_equal(fbe_ref_get_bool(r, &b), FBE_OK);
      if (a != b) fail_msg("%s: %d, decode %d", path, a, b);
      leaves++;
      return;
    }
    default: { /* integers, char, wchar, enums, flags, timestamps */
      int64_t ai = 0, bi = 0;
      uint64_t au = 0, bu = 0;
      fbe_status as = fbe_view_get_int(v, &ai), bs = fbe_ref_get_int(r, &bi);
      assert_int_equal(as, bs);
      assert_int_equal(fbe_view_get_uint(v, &au), fbe_ref_get_uint(r, &bu));
      if (ai != bi || au != bu) fail_msg("%s: %lld/%llu, decode %lld/%llu", path, (long long)ai,
                                         (unsigned long long)au, (long long)bi, (unsigned long long)bu);
      assert_int_equal(fbe_view_get_bytes(v, &(const uint8_t *){NULL}, &(size_t){0}), FBE_ERR_TYPE);
      leaves++;
      return;
    }
  }
}

static void same_text(fbe_status a_rc, fbe_buffer *a, fbe_status b_rc, fbe_buffer *b, const char *what) {
  if (a_rc != FBE_OK || b_rc != FBE_OK || a->size != b->size || memcmp(a->data, b->data, a->size))
    fail_msg("%s: the view's %.*s differs from the value's %.*s", what, (int)a->size, (const char *)a->data,
             (int)b->size, (const char *)b->data);
  fbe_buffer_free(a);
  fbe_buffer_free(b);
}

/* The view as a value: its JSON, text, equality and materialized message are the
 * decoded message's, for the root and for every field and element under it. */
static void same_as_value(fbe_view v, fbe_msg *m, const char *what) {
  fbe_buffer a = {0}, b = {0};
  same_text(fbe_view_to_json(v, NULL, &a, NULL), &a, fbe_msg_to_json(m, 0, &b, NULL), &b, what);
  same_text(fbe_view_to_text(v, NULL, &a, NULL), &a, fbe_msg_to_text(m, &b, NULL), &b, what);
  assert_true(fbe_view_equal_ref(v, fbe_msg_ref(m)));
  assert_true(fbe_view_equal(v, v));
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *copy = NULL;
  assert_int_equal(fbe_view_to_msg(v, arena, NULL, &copy, NULL), FBE_OK);
  assert_true(fbe_msg_equal(copy, m));
  const fbe_struct *st = fbe_msg_type(m);
  for (size_t i = 0; i < fbe_struct_field_count(st); i++) {
    fbe_view fv = fbe_view_field(v, i);
    fbe_ref fr = fbe_ref_field_at(fbe_msg_ref(m), i);
    if (!fbe_view_equal_ref(fv, fr)) fail_msg("%s: field %zu differs from the value's", what, i);
    fbe_kind k = fbe_ref_kind(fr);
    if (k == FBE_KIND_VECTOR || k == FBE_KIND_LIST || k == FBE_KIND_ARRAY)
      for (size_t j = 0; j < fbe_view_count(fv) && j < fbe_ref_count(fr); j++)
        if (!fbe_view_equal_ref(fbe_view_at(fv, j), fbe_ref_at(fr, j)))
          fail_msg("%s: field %zu element %zu differs from the value's", what, i, j);
    /* materialized over a ref of its type: the value's own field, in a copy */
    fbe_ref target = fbe_ref_field_at(fbe_msg_ref(copy), i);
    assert_int_equal(fbe_view_copy(fv, target, NULL, NULL), FBE_OK);
    assert_true(fbe_ref_equal(target, fr));
  }
  assert_true(fbe_msg_equal(copy, m));
  fbe_arena_free(arena);
}

/* Opens a view on bytes of `st` and checks it against fbe_decode of the same bytes. 1
 * when decode accepted them (and so did the view), 0 when both refused them. */
static int check_view(const fbe_struct *st, fbe_model model, const uint8_t *bytes, size_t size,
                      const char *what) {
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  fbe_msg *m = NULL;
  fbe_error derr, verr;
  fbe_status drc = fbe_decode(st, model, bytes, size, arena, NULL, &m, NULL, &derr);
  fbe_view v;
  fbe_status vrc = fbe_view_open(st, model, bytes, size, NULL, &v, &verr);
  assert_int_equal(vrc, drc);
  if (drc == FBE_OK) {
    same(v, fbe_msg_ref(m), what);
    same_as_value(v, m, what);
    fbe_view lazy;
    assert_int_equal(fbe_view_open_lazy(st, model, bytes, size, NULL, &lazy, NULL), FBE_OK);
    assert_true(lazy.lazy && !v.lazy);
    same(lazy, fbe_msg_ref(m), what);
  } else { /* refused with verify's error, as decode */
    assert_false(fbe_view_ok(v));
    assert_string_equal(verr.message, derr.message);
    assert_int_equal(verr.offset, derr.offset);
  }
  fbe_arena_free(arena);
  return drc == FBE_OK;
}

static const char *NAMES[] = {"proto", "protoex", "test", "enums"};

static size_t lazy_checked, lazy_refused;

/* A lazy view of bytes against verify: refused at the open with verify's error, or
 * read whole without a fault when verify accepts them (and materialized as decode's
 * value), and with one when it refuses them for a value; fbe_view_fault, and
 * materializing the root, then say what verify says. */
static void check_lazy(const fbe_struct *st, fbe_model model, const uint8_t *bytes, size_t size, const char *what,
                       int original) {
  fbe_error verr, lerr;
  fbe_status vrc = fbe_verify(st, model, bytes, size, NULL, NULL, &verr);
  fbe_view v;
  fbe_status lrc = fbe_view_open_lazy(st, model, bytes, size, NULL, &v, &lerr);
  lazy_checked++;
  if (lrc != FBE_OK) {
    if (vrc == FBE_OK) fail_msg("%s: the lazy open refused bytes verify accepts: %s", what, lerr.message);
    assert_int_equal(lrc, vrc);
    assert_string_equal(lerr.message, verr.message);
    assert_int_equal(lerr.offset, verr.offset);
    assert_false(fbe_view_ok(v));
    lazy_refused++;
    return;
  }
  size_t bad = t_view_walk(v, 1000);
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = NULL;
  if (vrc == FBE_OK) {
    if (bad) fail_msg("%s: %zu faults reading bytes verify accepts", what, bad);
    assert_int_equal(fbe_decode(st, model, bytes, size, arena, NULL, &m, NULL, NULL), FBE_OK);
    if (original) same_as_value(v, m, what); /* (a changed body may miss a field whose default is "utc": two decodes differ) */
    else assert_int_equal(fbe_view_to_msg(v, arena, NULL, &m, NULL), FBE_OK);
  } else if (!t_whole_model_rule(&verr)) {
    if (!bad) fail_msg("%s: read whole without a fault, but verify refuses it: %s", what, verr.message);
    lazy_refused++;
    assert_int_equal(fbe_view_fault(st, v, &lerr), vrc);
    assert_string_equal(lerr.message, verr.message);
    assert_int_equal(fbe_view_to_msg(v, arena, NULL, &m, &lerr), vrc);
    if (strcmp(lerr.message, verr.message) || lerr.offset != verr.offset)
      fail_msg("%s: materialized: %s at %zu, verify: %s at %zu", what, lerr.message, lerr.offset, verr.message,
               verr.offset);
  }
  fbe_arena_free(arena);
}

static void test_views_read_what_decode_reads(void **state) {
  (void)state;
  fbe_schema *schemas[4];
  for (int i = 0; i < 4; i++) {
    char file[32];
    snprintf(file, sizeof file, "%s.fbe", NAMES[i]);
    schemas[i] = t_load(file);
  }
  FILE *in = fopen(FBE_TESTS_DIR "/conformance/vectors.jsonl", "rb");
  assert_non_null(in);
  static char line[1 << 17], hex[1 << 16];
  char schema[64], type[128], format[32], full[256];
  int count[2] = {0, 0}, older = 0;
  leaves = 0;
  while (fgets(line, sizeof line, in)) {
    if (record_field(line, "schema", schema, sizeof schema) || record_field(line, "type", type, sizeof type) ||
        record_field(line, "format", format, sizeof format) || record_field(line, "hex", hex, sizeof hex))
      fail_msg("a vector without schema, type, format or hex: %.80s", line);
    if (strcmp(format, "standard") && strcmp(format, "final")) continue; /* streams: frames */
    int i = 0;
    while (i < 4 && strcmp(NAMES[i], schema)) i++;
    assert_true(i < 4);
    snprintf(full, sizeof full, "%s.%s", schema, type);
    fbe_model model = strcmp(format, "final") ? FBE_MODEL_STANDARD : FBE_MODEL_FINAL;
    size_t size;
    uint8_t *bytes = record_bytes(hex, &size);
    assert_true(check_view(t_struct(schemas[i], full), model, bytes, size, full));
    count[model]++;
    /* a newer reader (protoex) of an older writer's bytes (proto): the standard model's
     * short bodies, read as defaults */
    if (i == 0 && model == FBE_MODEL_STANDARD) {
      snprintf(full, sizeof full, "protoex.%s", type);
      const fbe_struct *newer = fbe_schema_find_struct(schemas[1], full);
      if (newer) older += check_view(newer, model, bytes, size, full);
    }
    free(bytes);
  }
  fclose(in);
  assert_true(count[FBE_MODEL_STANDARD] > 20 && count[FBE_MODEL_FINAL] > 20);
  assert_true(older > 0);
  assert_true(leaves > 500);
  for (int i = 0; i < 4; i++) fbe_schema_release(schemas[i]);
}

/* Bytes verify refuses: every truncation and a changed type id, in both models. */
static void test_refused_bytes_give_verifys_error(void **state) {
  (void)state;
  fbe_schema *s = t_load("proto.fbe");
  const fbe_struct *account = t_struct(s, "proto.Account");
  static const char *HEX[2] = {T_ACCOUNT_STD, T_ACCOUNT_FIN};
  for (int model = 0; model < 2; model++) {
    size_t n;
    uint8_t *bytes = t_hex(HEX[model], &n);
    assert_true(check_view(account, (fbe_model)model, bytes, n, "Account"));
    for (size_t cut = 0; cut < n; cut++) {
      uint8_t *part = t_dup(bytes, cut);
      assert_false(check_view(account, (fbe_model)model, part, cut, "Account (truncated)"));
      free(part);
    }
    bytes[model == FBE_MODEL_STANDARD ? 12 : 4] ^= 0x40; /* the root type id */
    fbe_error verr, err;
    fbe_view v;
    fbe_status rc = fbe_verify(account, (fbe_model)model, bytes, n, NULL, NULL, &verr);
    assert_int_equal(rc, FBE_ERR_MALFORMED);
    assert_int_equal(fbe_view_open(account, (fbe_model)model, bytes, n, NULL, &v, &err), rc);
    assert_string_equal(err.message, verr.message);
    assert_false(fbe_view_ok(v));
    free(bytes);
  }
  fbe_schema_release(s);
}

/* Names and indexes that are not there, and the wrong kinds. */
static void test_missing_names_and_wrong_kinds(void **state) {
  (void)state;
  fbe_schema *s = t_load("proto.fbe");
  const fbe_struct *account = t_struct(s, "proto.Account");
  for (int model = 0; model < 2; model++) {
    size_t n;
    uint8_t *bytes = t_hex(model ? T_ACCOUNT_FIN : T_ACCOUNT_STD, &n);
    fbe_view root;
    assert_int_equal(fbe_view_open(account, (fbe_model)model, bytes, n, NULL, &root, NULL), FBE_OK);
    assert_int_equal(fbe_view_kind(root), FBE_KIND_STRUCT);
    /* the same model at another address reads the same; a shorter buffer is refused */
    uint8_t *moved = malloc(n);
    assert_non_null(moved);
    memcpy(moved, bytes, n);
    fbe_view there = root;
    fbe_error err;
    assert_int_equal(fbe_view_rebind(&there, moved, n - 1, &err), FBE_ERR_MALFORMED);
    assert_non_null(strstr(err.message, "changed after it was opened"));
    assert_ptr_equal(there.data, bytes);
    assert_int_equal(fbe_view_rebind(&there, moved, n, &err), FBE_OK);
    assert_true(fbe_view_equal(there, root));
    free(moved);
    /* an access that found no value: the core's words, or verify's error on the bytes now */
    assert_int_equal(fbe_view_fault(NULL, root, &err), FBE_ERR_MALFORMED);
    assert_string_equal(err.message, "the bytes under the view changed after it was opened");
    uint8_t *broken = malloc(n);
    assert_non_null(broken);
    memcpy(broken, bytes, n);
    fbe_view later = root;
    assert_int_equal(fbe_view_rebind(&later, broken, n, NULL), FBE_OK);
    broken[4] ^= 0x55; /* the final model's type id, the standard model's root pointer */
    fbe_error verr;
    fbe_status vrc = fbe_verify(account, (fbe_model)model, broken, n, NULL, NULL, &verr);
    assert_int_not_equal(vrc, FBE_OK);
    assert_int_equal(fbe_view_fault(account, later, &err), vrc);
    assert_string_equal(err.message, verr.message);
    free(broken);
    fbe_view none = fbe_view_field_named(root, "no_such_field");
    assert_false(fbe_view_ok(none));
    assert_int_equal(fbe_view_kind(none), FBE_KIND_COUNT_);
    assert_false(fbe_view_ok(fbe_view_field_named(root, NULL)));
    assert_false(fbe_view_ok(fbe_view_field(none, 0)));
    assert_int_equal(fbe_view_get_int(none, &(int64_t){0}), FBE_ERR_TYPE);
    /* the values of FORMAT.md 11's Account, by name */
    int64_t id = 0;
    assert_int_equal(fbe_view_get_int(fbe_view_field_named(root, "id"), &id), FBE_OK);
    assert_int_equal(id, 1);
    const uint8_t *name;
    size_t len;
    assert_int_equal(fbe_view_get_bytes(fbe_view_field_named(root, "name"), &name, &len), FBE_OK);
    assert_int_equal(len, 4);
    assert_memory_equal(name, "Test", 4);
    assert_true(name >= bytes && name + len <= bytes + n); /* borrowed from the buffer */
    fbe_view orders = fbe_view_field_named(root, "orders");
    assert_int_equal(fbe_view_count(orders), 3);
    assert_false(fbe_view_ok(fbe_view_field_named(orders, "id"))); /* not a struct */
    assert_int_equal(fbe_view_is_null(orders), 0);                /* not an optional */
    assert_false(fbe_view_ok(fbe_view_deref(orders)));
    assert_int_equal(fbe_view_get_bytes(orders, &name, &len), FBE_ERR_TYPE);
    fbe_view symbol = fbe_view_field_named(fbe_view_at(orders, 2), "symbol");
    assert_int_equal(fbe_view_get_bytes(symbol, &name, &len), FBE_OK);
    assert_int_equal(len, 6);
    assert_memory_equal(name, "EURUSD", 6);
    assert_int_equal(fbe_view_count(symbol), 0);
    free(bytes);
  }
  fbe_view out;
  assert_int_equal(fbe_view_open(NULL, FBE_MODEL_STANDARD, NULL, 0, NULL, &out, NULL), FBE_ERR_ARGUMENT);
  fbe_schema_release(s);
}

/* fbe_view_get_scalars: a vector<int64> in place in both models, the other kinds
 * refused, and a count changed after the open (past the model) refused, not read. */
static void test_scalars_in_place(void **state) {
  (void)state;
  fbe_schema *s = t_load("bench/large.fbe");
  const fbe_struct *large = t_struct(s, "large.Large");
  static const char JSON[] = "{\"ids\":[1,-2,3000000000],\"names\":[\"a\"]}";
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *msg = NULL;
  assert_int_equal(fbe_msg_from_json(large, JSON, sizeof JSON - 1, arena, &msg, NULL), FBE_OK);
  for (int model = 0; model < 2; model++) {
    fbe_buffer b;
    fbe_buffer_init(&b);
    assert_int_equal(fbe_encode(msg, (fbe_model)model, &b, NULL), FBE_OK);
    fbe_view root;
    assert_int_equal(fbe_view_open(large, (fbe_model)model, b.data, b.size, NULL, &root, NULL), FBE_OK);
    fbe_view ids = fbe_view_field(root, 0);
    const uint8_t *p = NULL;
    size_t n = 0, w = 0;
    assert_int_equal(fbe_view_get_scalars(ids, &p, &n, &w), FBE_OK);
    assert_int_equal(n, 3);
    assert_int_equal(w, 8);
    assert_int_equal((int64_t)fbe_load64(p), 1);
    assert_int_equal((int64_t)fbe_load64(p + 8), -2);
    assert_int_equal((int64_t)fbe_load64(p + 16), 3000000000LL);
    assert_int_equal(fbe_view_get_scalars(fbe_view_field(root, 1), &p, &n, &w), FBE_ERR_TYPE); /* strings */
    assert_int_equal(fbe_view_get_scalars(root, &p, &n, &w), FBE_ERR_TYPE);
    assert_int_equal(fbe_view_get_scalars(fbe_view_at(ids, 0), &p, &n, &w), FBE_ERR_TYPE);
    assert_int_equal(fbe_view_get_scalars(ids, NULL, &n, &w), FBE_ERR_TYPE);
    /* the bytes change under the view: a count past the model is refused */
    uint8_t *count = (uint8_t *)(uintptr_t)(p - 4);
    count[3] = 0x7f;
    assert_int_equal(fbe_view_get_scalars(ids, &p, &n, &w), FBE_ERR_TYPE);
    fbe_buffer_free(&b);
  }
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

/* A model by name: the one rule of every binding's model= (fbe_model_parse). */
static void test_model_names(void **state) {
  (void)state;
  fbe_model m = FBE_MODEL_FINAL;
  fbe_error err;
  assert_int_equal(fbe_model_parse("standard", 8, &m, &err), FBE_OK);
  assert_int_equal(m, FBE_MODEL_STANDARD);
  assert_int_equal(fbe_model_parse("final", 5, &m, &err), FBE_OK);
  assert_int_equal(m, FBE_MODEL_FINAL);
  assert_int_equal(fbe_model_parse("finalx", 5, &m, &err), FBE_OK); /* the length counts, not a NUL */
  assert_int_equal(fbe_model_parse("Final", 5, &m, &err), FBE_ERR_ARGUMENT);
  assert_string_equal(err.message, "model must be \"standard\" or \"final\", not \"Final\"");
  assert_int_equal(fbe_model_parse(NULL, 0, &m, &err), FBE_ERR_ARGUMENT);
  assert_string_equal(err.message, "model must be \"standard\" or \"final\"");
  assert_int_equal(m, FBE_MODEL_FINAL);
}

/* Every record of the conformance files through lazy views, as it is and mutated: every
 * byte changed (every 7th of a record over 256 bytes; every third also one up) and every
 * other prefix. */
static void test_lazy_views_refuse_what_verify_refuses(void **state) {
  (void)state;
  fbe_schema *schemas[4];
  for (int i = 0; i < 4; i++) {
    char file[32];
    snprintf(file, sizeof file, "%s.fbe", NAMES[i]);
    schemas[i] = t_load(file);
  }
  static const char *FILES[] = {"vectors.jsonl", "malformed.jsonl", "malformed-extra.jsonl"};
  static char line[1 << 17], hex[1 << 16];
  char schema[64], type[128], format[32], full[256], path[512], what[400];
  lazy_checked = lazy_refused = 0;
  for (size_t f = 0; f < sizeof FILES / sizeof FILES[0]; f++) {
    snprintf(path, sizeof path, "%s/conformance/%s", FBE_TESTS_DIR, FILES[f]);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    while (fgets(line, sizeof line, in)) {
      if (record_field(line, "schema", schema, sizeof schema) || record_field(line, "type", type, sizeof type) ||
          record_field(line, "format", format, sizeof format) || record_field(line, "hex", hex, sizeof hex))
        continue; /* (frames, and records without bytes) */
      if (strcmp(format, "standard") && strcmp(format, "final")) continue;
      int i = 0;
      while (i < 4 && strcmp(NAMES[i], schema)) i++;
      assert_true(i < 4);
      snprintf(full, sizeof full, "%s.%s", schema, type);
      const fbe_struct *st = t_struct(schemas[i], full);
      fbe_model model = strcmp(format, "final") ? FBE_MODEL_STANDARD : FBE_MODEL_FINAL;
      size_t size;
      uint8_t *bytes = record_bytes(hex, &size);
      snprintf(what, sizeof what, "%s %s %s", FILES[f], full, format);
      check_lazy(st, model, bytes, size, what, 1);
      size_t step = size > 256 ? 7 : 1;
      for (size_t k = 0; k < size; k += step) {
        uint8_t *m = t_dup(bytes, size); /* exactly the bytes: a read past them is caught by ASan */
        m[k] ^= 0xff;
        check_lazy(st, model, m, size, what, 0);
        if (k % 3 == 0) { /* a count or size one more */
          m[k] = (uint8_t)(bytes[k] + 1);
          check_lazy(st, model, m, size, what, 0);
        }
        free(m);
        if (k % 2 == 0) {
          uint8_t *part = t_dup(bytes, k);
          check_lazy(st, model, part, k, what, 0);
          free(part);
        }
      }
      free(bytes);
    }
    fclose(in);
  }
  printf("lazy views: %zu inputs, %zu refused\n", lazy_checked, lazy_refused);
  assert_true(lazy_checked > 20000 && lazy_refused > 5000);
  for (int i = 0; i < 4; i++) fbe_schema_release(schemas[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_views_read_what_decode_reads),
      cmocka_unit_test(test_refused_bytes_give_verifys_error),
      cmocka_unit_test(test_missing_names_and_wrong_kinds),
      cmocka_unit_test(test_model_names),
      cmocka_unit_test(test_scalars_in_place),
      cmocka_unit_test(test_lazy_views_refuse_what_verify_refuses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

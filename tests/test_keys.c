/* Key identity (core/src/keys.c, SCHEMA.md 6.5, FORMAT.md 5.9): a set or map read from
 * bytes or JSON keeps one entry per key, the last one read, in the first one's place;
 * structs are keys by their [key] fields (a struct without them: one per set), floats
 * by their bits (-0.0 is not 0.0), decimals by value (1.5 is 1.50). Encoding writes
 * what a value holds; the bytes of duplicates still verify. */
#include "fbe_test.h"

static const char *const keys_schema =
    "package keys\n"
    "struct K { [key] int32 id; string name; }\n"
    "struct N { int32 x; }\n"
    "struct S {\n"
    "  K! ks; N! ns; double! ds; decimal! decs; string! ss;\n"
    "  int32{string} m; string<K> byk;\n"
    "}\n";

typedef struct fixture {
  fbe_schema *schema;
  const fbe_struct *s;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  f->schema = t_load_text(keys_schema, "keys.fbe");
  f->s = t_struct(f->schema, "S");
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->schema);
  free(f);
  return 0;
}

static fbe_msg *read_json(fixture *f, fbe_arena *arena, const char *json) {
  fbe_msg *m = NULL;
  fbe_error err;
  if (fbe_msg_from_json(f->s, json, strlen(json), arena, &m, &err))
    fail_msg("from_json: %s at '%s'", err.message, err.path);
  return m;
}

static char *write_json(const fbe_msg *m) {
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  assert_int_equal(fbe_msg_to_json(m, 0, &b, &err), FBE_OK);
  char *text = malloc(b.size + 1);
  memcpy(text, b.data, b.size);
  text[b.size] = 0;
  fbe_buffer_free(&b);
  return text;
}

/* The values with duplicates, as JSON, and what every reader keeps of them. */
static const char *const with_duplicates =
    "{\"ks\":[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":\"b\"},{\"id\":1,\"name\":\"c\"}],"
    "\"ns\":[{\"x\":1},{\"x\":2}],"
    "\"ds\":[0.0,-0.0,1.5,0.0],"
    "\"decs\":[\"1.5\",\"2\",\"1.50\"],"
    "\"ss\":[\"x\",\"y\",\"x\"],"
    "\"m\":{\"x\":1,\"y\":2,\"x\":3},"
    "\"byk\":[[{\"id\":7,\"name\":\"p\"},\"one\"],[{\"id\":7,\"name\":\"q\"},\"two\"]]}";
static const char *const kept =
    "{\"ks\":[{\"id\":1,\"name\":\"c\"},{\"id\":2,\"name\":\"b\"}],"
    "\"ns\":[{\"x\":2}],"
    "\"ds\":[0.0,-0.0,1.5],"
    "\"decs\":[\"1.50\",\"2\"],"
    "\"ss\":[\"x\",\"y\"],"
    "\"m\":{\"x\":3,\"y\":2},"
    "\"byk\":[[{\"id\":7,\"name\":\"q\"},\"two\"]]}";

static void test_json_reader_keeps_one_per_key(void **state) {
  fixture *f = *state;
  fbe_arena *arena = fbe_arena_new();
  char *out = write_json(read_json(f, arena, with_duplicates));
  assert_string_equal(out, kept);
  free(out);
  fbe_arena_free(arena);
}

/* Bytes with duplicates (written by a writer that keeps them: the C API's
 * fbe_ref_*_add holds what it is given) verify and decode to the same entries, in both
 * models, verified or trusted. */
static void test_decode_keeps_one_per_key(void **state) {
  fixture *f = *state;
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = fbe_msg_new(arena, f->s);
  fbe_ref ss = fbe_ref_field(fbe_msg_ref(m), "ss");
  const char *items[] = {"x", "y", "x", "z", "y"};
  for (size_t i = 0; i < 5; i++) {
    fbe_ref e = fbe_ref_append(ss);
    assert_true(fbe_ref_ok(e));
    assert_int_equal(fbe_ref_set_string(e, items[i], NULL), FBE_OK);
  }
  fbe_ref mm = fbe_ref_field(fbe_msg_ref(m), "m");
  for (int32_t i = 0; i < 4; i++) { /* four entries of the default key "" */
    fbe_ref value;
    assert_true(fbe_ref_ok(fbe_ref_map_append(mm, &value)));
    assert_int_equal(fbe_ref_set_int(value, i, NULL), FBE_OK);
  }
  for (int model = 0; model < 2; model++) {
    fbe_buffer b = t_encode(m, (fbe_model)model);
    size_t size = 0;
    fbe_error err;
    assert_int_equal(fbe_verify(f->s, (fbe_model)model, b.data, b.size, NULL, &size, &err), FBE_OK);
    for (int trusted = 0; trusted < 2; trusted++) {
      fbe_msg *back = NULL;
      fbe_status s = trusted ? fbe_decode_trusted(f->s, (fbe_model)model, b.data, b.size, arena, NULL, &back, NULL, &err)
                             : fbe_decode(f->s, (fbe_model)model, b.data, b.size, arena, NULL, &back, NULL, &err);
      assert_int_equal(s, FBE_OK);
      char *out = write_json(back);
      assert_non_null(strstr(out, "\"ss\":[\"x\",\"y\",\"z\"]"));
      assert_non_null(strstr(out, "\"m\":{\"\":3}"));
      free(out);
    }
    fbe_buffer_free(&b);
  }
  fbe_arena_free(arena);
}

/* 10^5 distinct keys and 10^5 copies of one key: linear work either way (a hash table,
 * not pairwise comparison), and the count is exact. */
static void test_many_keys(void **state) {
  fixture *f = *state;
  size_t n = 100000, cap = n * 24 + 64, len = 0;
  for (int same = 0; same < 2; same++) {
    char *json = malloc(cap);
    len = (size_t)snprintf(json, cap, "{\"ss\":[");
    for (size_t i = 0; i < n; i++) len += (size_t)snprintf(json + len, cap - len, "%s\"%zu\"", i ? "," : "", same ? 7 : i);
    len += (size_t)snprintf(json + len, cap - len, "]}");
    fbe_arena *arena = fbe_arena_new();
    fbe_msg *m = NULL;
    fbe_error err;
    fbe_limits roomy = {0, 0, 1u << 28};
    assert_int_equal(fbe_msg_from_json_limited(f->s, json, len, arena, &roomy, &m, &err), FBE_OK);
    assert_int_equal(fbe_ref_count(fbe_ref_field(fbe_msg_ref(m), "ss")), same ? 1 : n);
    fbe_arena_free(arena);
    free(json);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_json_reader_keeps_one_per_key),
      cmocka_unit_test(test_decode_keeps_one_per_key),
      cmocka_unit_test(test_many_keys),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

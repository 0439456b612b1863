/* The key identity of a struct (fbe_msg_key_hash, fbe_msg_key_compare; docs/C.md
 * "Keys"): the order of every kind, 0 exactly when the key fields are equal, hashes
 * equal for equal keys, structs without keys all alike. And fbe_msg_copy: deep,
 * independent of the original's arena, iterative on deep values. */
#include <math.h>
#include "fbe_test.h"

static const char KO_SCHEMA[] =
    "package ko\n"
    "enum Side : byte { buy; sell; }\n"
    "enum Signed : int8 { minus = -1; zero; }\n"
    "flags Perm : byte { r = 1; w = 2; }\n"
    "struct Inner { [key] int32 k; string note; }\n"
    "struct Plain { int32 x; }\n"
    "struct KBool { [key] bool v; int32 other; }\n"
    "struct KInt8 { [key] int8 v; int32 other; }\n"
    "struct KInt64 { [key] int64 v; int32 other; }\n"
    "struct KUint64 { [key] uint64 v; int32 other; }\n"
    "struct KChar { [key] char v; int32 other; }\n"
    "struct KWchar { [key] wchar v; int32 other; }\n"
    "struct KFloat { [key] float v; int32 other; }\n"
    "struct KDouble { [key] double v; int32 other; }\n"
    "struct KDecimal { [key] decimal v; int32 other; }\n"
    "struct KTime { [key] timestamp v; int32 other; }\n"
    "struct KUuid { [key] uuid v; int32 other; }\n"
    "struct KString { [key] string v; int32 other; }\n"
    "struct KBytes { [key] bytes v; int32 other; }\n"
    "struct KSide { [key] Side v; int32 other; }\n"
    "struct KSigned { [key] Signed v; int32 other; }\n"
    "struct KPerm { [key] Perm v; int32 other; }\n"
    "struct KOpt { [key] int32? v; int32 other; }\n"
    "struct KArr { [key] int32[2] v; int32 other; }\n"
    "struct KVec { [key] int32[] v; int32 other; }\n"
    "struct KMap { [key] string<int32> v; int32 other; }\n"
    "struct KInner { [key] Inner v; int32 other; }\n"
    "struct KInnerVec { [key] Inner[] v; int32 other; }\n"
    "struct KTwo { [key] int32 a; string mid; [key] string b; }\n"
    "struct KDerived : KTwo { [key] int32 c; }\n"
    "struct Keyless { int32 a; string b; }\n"
    "struct Node { int32 v; Node? next; }\n"
    "struct Bag { string s; bytes b; int32? o; string? os; int32[] v; string[] vs;\n"
    "  string<int32> m; Inner{string} h; Inner[2] arr; Inner inner; Plain[] plains; }\n";

typedef struct fixture {
  fbe_schema *schema;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  f->schema = t_load_text(KO_SCHEMA, "ko.fbe");
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->schema);
  free(f);
  return 0;
}

static fbe_msg *json_msg(fbe_arena *arena, const fbe_struct *st, const char *json) {
  fbe_msg *m = NULL;
  fbe_error err;
  if (fbe_msg_from_json(st, json, strlen(json), arena, &m, &err))
    fail_msg("from_json %s: %s at '%s'", json, err.message, err.path);
  return m;
}

/* A value of struct `name` whose key field v is `value` (JSON) and `other` is other. */
static fbe_msg *keyed(fbe_arena *arena, const fbe_struct *st, const char *value, int other) {
  char json[512];
  snprintf(json, sizeof json, "{\"v\":%s,\"other\":%d}", value, other);
  return json_msg(arena, st, json);
}

/* values: ascending; every pair compares by its positions, both ways, and a value
 * equals itself with another non-key field (compare 0, same hash, not fbe_msg_equal). */
static void check_order(fixture *f, const char *name, const char *const *values, size_t n) {
  const fbe_struct *st = t_struct(f->schema, name);
  fbe_arena *arena = fbe_arena_new();
  for (size_t i = 0; i < n; i++) {
    fbe_msg *a = keyed(arena, st, values[i], 1);
    fbe_msg *same = keyed(arena, st, values[i], 2);
    if (fbe_msg_key_compare(a, same) != 0) fail_msg("%s: %s vs itself", name, values[i]);
    assert_int_equal(fbe_msg_key_hash(a), fbe_msg_key_hash(same));
    assert_false(fbe_msg_equal(a, same));
    for (size_t j = 0; j < n; j++) {
      fbe_msg *b = keyed(arena, st, values[j], 1);
      int want = i < j ? -1 : i > j;
      if (fbe_msg_key_compare(a, b) != want)
        fail_msg("%s: compare(%s, %s) = %d, want %d", name, values[i], values[j], fbe_msg_key_compare(a, b), want);
    }
  }
  fbe_arena_free(arena);
}

#define ORDER(name, ...)                                             \
  do {                                                               \
    static const char *const v_[] = {__VA_ARGS__};                   \
    check_order(f, name, v_, sizeof v_ / sizeof *v_);                \
  } while (0)

static void test_order_of_every_kind(void **state) {
  fixture *f = *state;
  ORDER("KBool", "false", "true");
  ORDER("KInt8", "-128", "-1", "0", "1", "127");
  ORDER("KInt64", "-9223372036854775808", "-1", "0", "9223372036854775807");
  ORDER("KUint64", "0", "1", "9223372036854775808", "18446744073709551615");
  ORDER("KChar", "0", "65", "255");
  ORDER("KWchar", "0", "1092", "1114111");
  ORDER("KFloat", "-3.5", "-0.0", "0.0", "1.25", "1e30");
  ORDER("KDouble", "-1e300", "-1.5", "-5e-324", "-0.0", "0.0", "5e-324", "1e-300", "2.5", "1e300");
  ORDER("KDecimal", "\"-100.25\"", "\"-10.5\"", "\"-1\"", "\"-0.001\"", "\"0\"", "\"1E-7\"", "\"0.001\"",
        "\"0.01\"", "\"0.1\"", "\"1\"", "\"1.05\"", "\"1.5\"", "\"2\"", "\"10\"", "\"100.25\"",
        "\"79228162514264337593543950335\"");
  ORDER("KTime", "0", "1", "1543145597933000000", "18446744073709551615");
  ORDER("KUuid", "\"00000000-0000-0000-0000-000000000000\"", "\"00000000-0000-0000-0000-000000000001\"",
        "\"0fffffff-ffff-ffff-ffff-ffffffffffff\"", "\"ffffffff-0000-0000-0000-000000000000\"");
  ORDER("KString", "\"\"", "\"a\"", "\"ab\"", "\"b\"", "\"\\u00e9\"");
  ORDER("KBytes", "\"\"", "\"AA==\"", "\"AAE=\"", "\"AQ==\"");
  ORDER("KSide", "0", "1", "7");
  ORDER("KSigned", "-100", "-1", "0", "5");
  ORDER("KPerm", "0", "1", "3", "255");
  ORDER("KOpt", "null", "-5", "3");
  ORDER("KArr", "[-1,9]", "[0,0]", "[0,1]", "[1,0]");
  ORDER("KVec", "[]", "[-1]", "[1]", "[1,2]", "[2]");
  ORDER("KMap", "{}", "{\"1\":\"a\"}", "{\"1\":\"a\",\"0\":\"a\"}", "{\"1\":\"b\"}", "{\"2\":\"\"}");
  /* a key field that is a struct: by that struct's keys (the note does not count) */
  ORDER("KInner", "{\"k\":-1,\"note\":\"z\"}", "{\"k\":1,\"note\":\"z\"}", "{\"k\":2,\"note\":\"a\"}");
  /* structs inside a collection: every field, as equality has it */
  ORDER("KInnerVec", "[]", "[{\"k\":1,\"note\":\"a\"}]", "[{\"k\":1,\"note\":\"b\"}]", "[{\"k\":2,\"note\":\"\"}]");
}

static void test_equal_keys(void **state) {
  fixture *f = *state;
  fbe_arena *arena = fbe_arena_new();
  /* decimals by value: 1.5 and 1.50, 0 and -0, 100 and 1E+2 */
  const fbe_struct *kd = t_struct(f->schema, "KDecimal");
  static const char *const pairs[][2] = {{"\"1.5\"", "\"1.50\""}, {"\"0\"", "\"-0.000\""}, {"\"100\"", "\"1E+2\""}};
  for (size_t i = 0; i < 3; i++) {
    fbe_msg *a = keyed(arena, kd, pairs[i][0], 1), *b = keyed(arena, kd, pairs[i][1], 1);
    assert_int_equal(fbe_msg_key_compare(a, b), 0);
    assert_int_equal(fbe_msg_key_hash(a), fbe_msg_key_hash(b));
  }
  /* inner struct keys: the note is not part of the identity */
  const fbe_struct *ki = t_struct(f->schema, "KInner");
  fbe_msg *x = keyed(arena, ki, "{\"k\":1,\"note\":\"x\"}", 1), *y = keyed(arena, ki, "{\"k\":1,\"note\":\"y\"}", 1);
  assert_int_equal(fbe_msg_key_compare(x, y), 0);
  assert_int_equal(fbe_msg_key_hash(x), fbe_msg_key_hash(y));
  /* NaNs: by their bits, as equality has them; NaN above every number */
  const fbe_struct *kdbl = t_struct(f->schema, "KDouble");
  fbe_msg *nan = keyed(arena, kdbl, "0", 1), *nan2 = keyed(arena, kdbl, "0", 2), *big = keyed(arena, kdbl, "1e308", 1);
  t_set_dbl(fbe_msg_ref(nan), "v", NAN);
  t_set_dbl(fbe_msg_ref(nan2), "v", NAN);
  assert_int_equal(fbe_msg_key_compare(nan, nan2), 0);
  assert_int_equal(fbe_msg_key_hash(nan), fbe_msg_key_hash(nan2));
  assert_int_equal(fbe_msg_key_compare(big, nan), -1);
  t_set_dbl(fbe_msg_ref(nan2), "v", -NAN);
  assert_int_equal(fbe_msg_key_compare(nan2, keyed(arena, kdbl, "-1e308", 1)), -1);
  fbe_arena_free(arena);
}

static void test_several_keys(void **state) {
  fixture *f = *state;
  fbe_arena *arena = fbe_arena_new();
  const fbe_struct *two = t_struct(f->schema, "KTwo"), *der = t_struct(f->schema, "KDerived");
  fbe_msg *a = json_msg(arena, two, "{\"a\":1,\"mid\":\"z\",\"b\":\"b\"}");
  fbe_msg *b = json_msg(arena, two, "{\"a\":2,\"mid\":\"a\",\"b\":\"a\"}");
  fbe_msg *c = json_msg(arena, two, "{\"a\":1,\"mid\":\"a\",\"b\":\"c\"}");
  fbe_msg *d = json_msg(arena, two, "{\"a\":1,\"mid\":\"q\",\"b\":\"b\"}");
  assert_int_equal(fbe_msg_key_compare(a, b), -1); /* a first */
  assert_int_equal(fbe_msg_key_compare(a, c), -1); /* then b */
  assert_int_equal(fbe_msg_key_compare(c, a), 1);
  assert_int_equal(fbe_msg_key_compare(a, d), 0);  /* mid is not a key */
  assert_int_equal(fbe_msg_key_hash(a), fbe_msg_key_hash(d));
  assert_int_not_equal(fbe_msg_key_hash(a), fbe_msg_key_hash(c));
  /* inherited keys first, then the struct's own */
  fbe_msg *e = json_msg(arena, der, "{\"a\":1,\"b\":\"b\",\"c\":9}");
  fbe_msg *g = json_msg(arena, der, "{\"a\":1,\"b\":\"c\",\"c\":0}");
  fbe_msg *h = json_msg(arena, der, "{\"a\":1,\"b\":\"b\",\"c\":10}");
  assert_int_equal(fbe_msg_key_compare(e, g), -1);
  assert_int_equal(fbe_msg_key_compare(e, h), -1);
  /* different structs: by full name; no message first */
  assert_int_equal(fbe_msg_key_compare(a, e), 1); /* ko.KTwo after ko.KDerived */
  assert_int_equal(fbe_msg_key_compare(e, a), -1);
  assert_int_equal(fbe_msg_key_compare(NULL, a), -1);
  assert_int_equal(fbe_msg_key_compare(a, NULL), 1);
  assert_int_equal(fbe_msg_key_compare(NULL, NULL), 0);
  assert_int_equal(fbe_msg_key_hash(NULL), 0);
  fbe_arena_free(arena);
}

static void test_keyless(void **state) {
  fixture *f = *state;
  fbe_arena *arena = fbe_arena_new();
  const fbe_struct *st = t_struct(f->schema, "Keyless");
  fbe_msg *a = json_msg(arena, st, "{\"a\":1,\"b\":\"x\"}"), *b = json_msg(arena, st, "{\"a\":2,\"b\":\"y\"}");
  assert_int_equal(fbe_msg_key_hash(a), 0);
  assert_int_equal(fbe_msg_key_hash(b), 0);
  assert_int_equal(fbe_msg_key_compare(a, b), 0);
  fbe_arena_free(arena);
}

/* ---------------------------------------------------------------- copies */

static char *to_json(const fbe_msg *m) {
  fbe_buffer b;
  fbe_buffer_init(&b);
  assert_int_equal(fbe_msg_to_json(m, 0, &b, NULL), FBE_OK);
  return t_buffer_take(&b);
}

static void test_copy_is_deep(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->schema, "Bag");
  const char *json =
      "{\"s\":\"hello\",\"b\":\"AQID\",\"o\":5,\"os\":\"maybe\",\"v\":[1,2,3],\"vs\":[\"x\",\"\",\"yz\"],"
      "\"m\":{\"1\":\"one\",\"2\":\"two\"},\"h\":{\"k\":{\"k\":7,\"note\":\"seven\"}},"
      "\"arr\":[{\"k\":1,\"note\":\"a\"},{\"k\":2,\"note\":\"b\"}],\"inner\":{\"k\":3,\"note\":\"c\"},\"plains\":[]}";
  fbe_arena *from = fbe_arena_new(), *to = fbe_arena_new();
  fbe_msg *m = json_msg(from, st, json), *copy = NULL;
  char *before = to_json(m);
  assert_int_equal(fbe_msg_copy(m, to, &copy, NULL), FBE_OK);
  assert_non_null(copy);
  assert_true(fbe_msg_equal(m, copy));
  /* changing the copy leaves the original alone */
  fbe_ref c = fbe_msg_ref(copy);
  t_set_str(c, "vs[0]", "changed");
  assert_int_equal(fbe_ref_set_string(fbe_ref_value_at(fbe_ref_field(c, "m"), 0), "uno", NULL), FBE_OK);
  fbe_arena_free(from); /* the copy does not depend on the original's arena */
  char *after = to_json(copy);
  assert_non_null(strstr(after, "\"vs\":[\"changed\",\"\",\"yz\"]"));
  assert_non_null(strstr(after, "\"m\":{\"1\":\"uno\",\"2\":\"two\"}"));
  assert_non_null(strstr(after, "\"h\":{\"k\":{\"k\":7,\"note\":\"seven\"}}"));
  assert_non_null(strstr(after, "\"b\":\"AQID\""));
  assert_non_null(strstr(before, "\"vs\":[\"x\",\"\",\"yz\"]"));
  free(before);
  free(after);
  fbe_arena_free(to);
}

static void test_copy_defaults_and_deep_chains(void **state) {
  fixture *f = *state;
  fbe_arena *arena = fbe_arena_new(), *to = fbe_arena_new();
  /* a fresh value: schema-owned defaults are copied too */
  const fbe_struct *bag = t_struct(f->schema, "Bag");
  fbe_msg *m = fbe_msg_new(arena, bag), *copy = NULL;
  assert_int_equal(fbe_msg_copy(m, to, &copy, NULL), FBE_OK);
  assert_true(fbe_msg_equal(m, copy));
  /* 200000 nested optionals: no recursion */
  const fbe_struct *node = t_struct(f->schema, "Node");
  fbe_msg *head = fbe_msg_new(arena, node);
  fbe_ref r = fbe_msg_ref(head);
  for (int i = 0; i < 200000; i++) {
    assert_int_equal(fbe_ref_set_int(fbe_ref_field(r, "v"), i, NULL), FBE_OK);
    r = fbe_ref_emplace(fbe_ref_field(r, "next"));
    assert_true(fbe_ref_ok(r));
  }
  assert_int_equal(fbe_msg_copy(head, to, &copy, NULL), FBE_OK);
  assert_true(fbe_msg_equal(head, copy));
  fbe_arena_free(arena);
  /* walk the copy after the original is gone */
  fbe_ref c = fbe_msg_ref(copy);
  int64_t v = -1;
  for (int i = 0; i < 200000; i++) {
    assert_int_equal(fbe_ref_get_int(fbe_ref_field(c, "v"), &v), FBE_OK);
    assert_int_equal(v, i);
    c = fbe_ref_deref(fbe_ref_field(c, "next"));
  }
  fbe_arena_free(to);
  fbe_error err;
  copy = (fbe_msg *)1;
  assert_int_equal(fbe_msg_copy(NULL, to, &copy, &err), FBE_ERR_ARGUMENT);
  assert_null(copy);
  assert_string_equal(err.message, "fbe_msg_copy: no message, arena or output");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order_of_every_kind),
      cmocka_unit_test(test_equal_keys),
      cmocka_unit_test(test_several_keys),
      cmocka_unit_test(test_keyless),
      cmocka_unit_test(test_copy_is_deep),
      cmocka_unit_test(test_copy_defaults_and_deep_chains),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

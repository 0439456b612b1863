/* JSON reader and writer: every type, the reference examples of FORMAT.md 10, the
 * conformance vectors' JSON, error codes/paths/offsets, and hostile input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fbe/fbe.h"
#include "fbe/internal/float_text.h"
#include "fbe/internal/value.h"

/* ---------------------------------------------------------------- fixture */

typedef struct fixture {
  fbe_schema *test;    /* test.fbe (imports proto) */
  fbe_schema *protoex; /* protoex.fbe */
  fbe_schema *enums;   /* enums.fbe */
  fbe_schema *keys;    /* KEYS_SCHEMA below */
  fbe_schema *opts;    /* OPTS_SCHEMA below */
  fbe_arena *arena;
} fixture;

/* Map keys of every kind (FORMAT.md 10: which keys have a JSON form). */
static const char KEYS_SCHEMA[] =
    "package keys\n"
    "enum E : int8 { a = -1; b = 1; }\n"
    "flags F : uint16 { x = 1; }\n"
    "struct K {\n"
    "  int32<int64> i64; int32<uint64> u64; int32<char> chars; int32<wchar> wchars;\n"
    "  int32<timestamp> times; int32<uuid> uuids; int32<decimal> decimals;\n"
    "  int32<E> enums; int32{F} bits; int32<string> strings;\n"
    "  int32<bool> bools; int32<double> doubles; int32<bytes> blobs;\n"
    "  double d; float f; E e;\n"
    "}\n";

/* The writer options and the forms every reader takes (json.h: fbe_json_options). */
static const char OPTS_SCHEMA[] =
    "package opts\n"
    "enum Side : byte { buy; sell; }\n"
    "enum Big : uint64 { small = 1; huge = 0xFFFFFFFFFFFFFFFF; }\n"
    "flags State : byte { unknown = 0; invalid = 1; initialized = 2; calculated = 4;\n"
    "  good = initialized | calculated; }\n"
    "flags Bits : uint16 { x = 1; y = 2; }\n"
    "struct O { Side side; State state; Bits bits; Big big; int64 i; uint64 u; timestamp ts;\n"
    "  int32 n; Side? os; int32<Side> ms; int32<Big> mb; Side[] sides; }\n";

static fbe_schema *load(const char *file) {
  const char *dirs[] = {FBE_SCHEMAS_DIR};
  fbe_load_options options = {dirs, 1};
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", FBE_SCHEMAS_DIR, file);
  fbe_schema *s = fbe_schema_load_file(path, &options, NULL);
  if (!s) fail_msg("cannot load %s", path);
  return s;
}

static int group_setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  f->test = load("test.fbe");
  f->protoex = load("protoex.fbe");
  f->enums = load("enums.fbe");
  f->keys = fbe_schema_load_string(KEYS_SCHEMA, sizeof KEYS_SCHEMA - 1, "keys.fbe", NULL, NULL);
  if (!f->keys) fail_msg("cannot load the keys schema");
  f->opts = fbe_schema_load_string(OPTS_SCHEMA, sizeof OPTS_SCHEMA - 1, "opts.fbe", NULL, NULL);
  if (!f->opts) fail_msg("cannot load the opts schema");
  *state = f;
  return 0;
}

static int group_teardown(void **state) {
  fixture *f = *state;
  if (!f) return 0;
  fbe_schema_release(f->test);
  fbe_schema_release(f->protoex);
  fbe_schema_release(f->enums);
  fbe_schema_release(f->keys);
  fbe_schema_release(f->opts);
  free(f);
  return 0;
}

static int test_setup(void **state) {
  fixture *f = *state;
  f->arena = fbe_arena_new();
  return f->arena ? 0 : -1;
}

static int test_teardown(void **state) {
  fixture *f = *state;
  fbe_arena_free(f->arena);
  f->arena = NULL;
  return 0;
}

/* "proto.Account", "test.StructSimple", "keys.K", "enums.Enums", "protoex.Order". */
static const fbe_struct *type_of(const fixture *f, const char *name) {
  const fbe_schema *s = !strncmp(name, "protoex.", 8) ? f->protoex
                        : !strncmp(name, "enums.", 6) ? f->enums
                        : !strncmp(name, "keys.", 5)  ? f->keys
                        : !strncmp(name, "opts.", 5)  ? f->opts
                                                      : f->test;
  const fbe_struct *st = fbe_schema_find_struct(s, name);
  if (!st) fail_msg("no struct %s", name);
  return st;
}

/* ---------------------------------------------------------------- helpers */

static fbe_msg *from_json_n(fixture *f, const char *type, const char *json, size_t len) {
  fbe_msg *m = NULL;
  fbe_error err;
  fbe_status s = fbe_msg_from_json(type_of(f, type), json, len, f->arena, &m, &err);
  if (s) {
    char text[512];
    fbe_error_format(&err, text, sizeof text);
    fail_msg("from_json(%s) failed: %s", type, text);
  }
  return m;
}

static fbe_msg *from_json(fixture *f, const char *type, const char *json) {
  return from_json_n(f, type, json, strlen(json));
}

/* The JSON of m as a NUL-terminated malloc'd string. */
static char *to_json(const fbe_msg *m, int pretty) {
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  fbe_status s = fbe_msg_to_json(m, pretty, &b, &err);
  if (s) fail_msg("to_json failed: %s at '%s'", err.message, err.path);
  char *text = malloc(b.size + 1); /* the buffer's memory is the core's: copy, then release */
  assert_non_null(text);
  memcpy(text, b.data, b.size);
  text[b.size] = '\0';
  fbe_buffer_free(&b);
  return text;
}

/* Reads json and writes it back: the text must come out unchanged. */
static void assert_roundtrip(fixture *f, const char *type, const char *json) {
  char *out = to_json(from_json(f, type, json), 0);
  assert_string_equal(out, json);
  free(out);
}

/* Reads json into type and writes it: the output must be `expected`. */
static void assert_rewrites(fixture *f, const char *type, const char *json, const char *expected) {
  char *out = to_json(from_json(f, type, json), 0);
  assert_string_equal(out, expected);
  free(out);
}

/* Reading with opts must fail with code, path and offset (offset (size_t)-2: don't check). */
static fbe_error read_error_opts(fixture *f, const char *type, const char *json, const fbe_json_options *opts,
                                 fbe_status code, const char *path, size_t offset) {
  fbe_msg *m = (fbe_msg *)1;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbe_msg_from_json_opts(type_of(f, type), json, strlen(json), f->arena, opts, &m, &err);
  if (s != code || strcmp(err.path, path) || (offset != (size_t)-2 && err.offset != offset))
    fail_msg("%s: got %s '%s' at '%s' offset %zu; want %s at '%s' offset %zu", json,
             fbe_status_name(s), err.message, err.path, err.offset, fbe_status_name(code), path,
             offset);
  assert_null(m);
  return err;
}

/* The same with the defaults (fbe_msg_from_json). */
static fbe_error read_error(fixture *f, const char *type, const char *json, fbe_status code,
                            const char *path, size_t offset) {
  fbe_msg *m = (fbe_msg *)1;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbe_msg_from_json(type_of(f, type), json, strlen(json), f->arena, &m, &err);
  fbe_error again = read_error_opts(f, type, json, NULL, code, path, offset);
  if (s != again.code || strcmp(err.message, again.message)) fail_msg("%s: the defaults differ", json);
  assert_null(m);
  return err;
}

static const fbe_json_options LAX = {0, 0, 0, 1, NULL}; /* ignore_unknown */

/* A message read with ignore_unknown. */
static fbe_msg *from_json_lax(fixture *f, const char *type, const char *json) {
  fbe_msg *m = NULL;
  fbe_error err;
  if (fbe_msg_from_json_opts(type_of(f, type), json, strlen(json), f->arena, &LAX, &m, &err))
    fail_msg("from_json(%s, ignore_unknown) failed: %s", type, err.message);
  return m;
}

/* Reads more JSON into an existing message. */
static fbe_status read_into(fbe_msg *m, const char *json) {
  return fbe_json_read(fbe_msg_ref(m), json, strlen(json), NULL);
}

static fbe_ref field(fbe_msg *m, const char *name) {
  fbe_ref r = fbe_ref_field(fbe_msg_ref(m), name);
  assert_true(fbe_ref_ok(r));
  return r;
}

static int64_t get_int(fbe_msg *m, const char *name) {
  int64_t v = 0;
  assert_int_equal(fbe_ref_get_int(field(m, name), &v), FBE_OK);
  return v;
}

static uint64_t get_uint(fbe_msg *m, const char *name) {
  uint64_t v = 0;
  assert_int_equal(fbe_ref_get_uint(field(m, name), &v), FBE_OK);
  return v;
}

static double get_double(fbe_msg *m, const char *name) {
  double v = 0;
  assert_int_equal(fbe_ref_get_double(field(m, name), &v), FBE_OK);
  return v;
}

/* ---------------------------------------------------------------- reference examples */

static const char ACCOUNT_JSON[] =
    "{\"id\":1,\"name\":\"Test\",\"state\":6,\"wallet\":{\"currency\":\"USD\",\"amount\":1000.0},"
    "\"asset\":{\"currency\":\"EUR\",\"amount\":100.0},\"orders\":[{\"id\":1,\"symbol\":\"EURUSD\","
    "\"side\":0,\"type\":0,\"price\":1.23456,\"volume\":1000.0},{\"id\":2,\"symbol\":\"EURUSD\","
    "\"side\":1,\"type\":1,\"price\":1.0,\"volume\":100.0},{\"id\":3,\"symbol\":\"EURUSD\",\"side\":0,"
    "\"type\":2,\"price\":1.5,\"volume\":10.0}]}";

static const char SIMPLE_DEFAULT_JSON[] =
    "{\"id\":0,\"f1\":false,\"f2\":true,\"f3\":0,\"f4\":255,\"f5\":0,\"f6\":33,\"f7\":0,\"f8\":1092,"
    "\"f9\":0,\"f10\":127,\"f11\":0,\"f12\":255,\"f13\":0,\"f14\":32767,\"f15\":0,\"f16\":65535,"
    "\"f17\":0,\"f18\":2147483647,\"f19\":0,\"f20\":4294967295,\"f21\":0,"
    "\"f22\":9223372036854775807,\"f23\":0,\"f24\":18446744073709551615,\"f25\":0.0,"
    "\"f26\":123.45600128173828,\"f27\":0.0,\"f28\":-1.23456e+125,\"f29\":\"0\","
    "\"f30\":\"123456.123456\",\"f31\":\"\",\"f32\":\"Initial string!\",\"f33\":0,\"f34\":0,"
    "\"f35\":1543145597933000000,\"f36\":\"00000000-0000-0000-0000-000000000000\","
    "\"f37\":\"e7854072-f0a5-11e8-8f69-ac220bcdd8e0\","
    "\"f38\":\"123e4567-e89b-12d3-a456-426655440000\",\"f39\":0,\"f40\":0,"
    "\"f41\":{\"id\":0,\"symbol\":\"\",\"side\":0,\"type\":0,\"price\":0.0,\"volume\":0.0},"
    "\"f42\":{\"currency\":\"\",\"amount\":0.0},\"f43\":0,\"f44\":{\"id\":0,\"name\":\"\","
    "\"state\":11,\"wallet\":{\"currency\":\"\",\"amount\":0.0},\"asset\":null,\"orders\":[]}}";

static void test_reference_examples(void **state) {
  fixture *f = *state;
  assert_roundtrip(f, "proto.Account", ACCOUNT_JSON);
  assert_roundtrip(f, "test.StructSimple", SIMPLE_DEFAULT_JSON);
  /* defaults + the two non-deterministic fields pinned = the reference's default JSON */
  assert_rewrites(f, "test.StructSimple",
                  "{\"f35\":1543145597933000000,\"f37\":\"e7854072-f0a5-11e8-8f69-ac220bcdd8e0\"}",
                  SIMPLE_DEFAULT_JSON);
  assert_roundtrip(f, "test.StructBytes", "{\"f1\":\"QUJD\",\"f2\":\"eHk=\",\"f3\":null}");
  assert_roundtrip(f, "test.StructMap",
                   "{\"f1\":{\"1\":17,\"2\":34},\"f2\":{\"1\":null,\"2\":5},\"f3\":{\"3\":\"YWJj\"},"
                   "\"f4\":{},\"f5\":{},\"f6\":{},\"f7\":{},\"f8\":{},\"f9\":{},\"f10\":{}}");
  assert_rewrites(f, "protoex.Balance", "{\"locked\":12.5,\"currency\":\"USD\",\"amount\":1e3}",
                  "{\"currency\":\"USD\",\"amount\":1000.0,\"locked\":12.5}");
  assert_rewrites(f, "proto.AccountMessage", "{}",
                  "{\"body\":{\"id\":0,\"name\":\"\",\"state\":11,\"wallet\":{\"currency\":\"\","
                  "\"amount\":0.0},\"asset\":null,\"orders\":[]}}");
  assert_rewrites(f, "test.StructEmpty", " { } ", "{}");
}

/* Finds the raw text of the record's "json" member (a balanced JSON value). */
static int json_member(const char *line, const char **begin, size_t *len) {
  const char *p = strstr(line, "\"json\":");
  if (!p) return 0;
  p += 7;
  const char *q = p;
  int depth = 0;
  do {
    if (*q == '"') {
      for (q++; *q && *q != '"'; q++)
        if (*q == '\\' && q[1]) q++;
    } else if (*q == '{' || *q == '[') {
      depth++;
    } else if (*q == '}' || *q == ']') {
      depth--;
    } else if (!*q) {
      return 0;
    }
    q++;
  } while (depth > 0 || (*q != ',' && *q != '}'));
  *begin = p;
  *len = (size_t)(q - p);
  return 1;
}

static int string_member(const char *line, const char *name, char *out, size_t size) {
  char key[64];
  snprintf(key, sizeof key, "\"%s\":\"", name);
  const char *p = strstr(line, key);
  if (!p) return 0;
  p += strlen(key);
  const char *q = strchr(p, '"');
  if (!q || (size_t)(q - p) >= size) return 0;
  memcpy(out, p, (size_t)(q - p));
  out[q - p] = 0;
  return 1;
}

/* Every value of the conformance vectors: its JSON reads and writes back byte for byte
 * (the vectors' JSON is the reference's compact output). */
static void test_conformance_vectors(void **state) {
  fixture *f = *state;
  FILE *in = fopen(FBE_TESTS_DIR "/conformance/vectors.jsonl", "rb");
  assert_non_null(in);
  static char line[1 << 20];
  int checked = 0;
  while (fgets(line, sizeof line, in)) {
    char schema[32], type[64], format[32], name[128];
    const char *json;
    size_t len;
    if (!string_member(line, "schema", schema, sizeof schema) ||
        !string_member(line, "type", type, sizeof type) ||
        !string_member(line, "format", format, sizeof format) || !strncmp(format, "stream", 6) ||
        !json_member(line, &json, &len))
      continue;
    snprintf(name, sizeof name, "%s.%s", schema, type);
    fbe_msg *m = from_json_n(f, name, json, len);
    char *out = to_json(m, 0);
    if (strlen(out) != len || memcmp(out, json, len)) {
      size_t i = 0;
      while (i < len && out[i] == json[i]) i++;
      fail_msg("%s: JSON differs at byte %zu: ...%.60s", name, i, out + (i > 20 ? i - 20 : 0));
    }
    free(out);
    fbe_arena_reset(f->arena);
    checked++;
  }
  fclose(in);
  assert_true(checked >= 80);
}

/* ---------------------------------------------------------------- scalars */

static void test_integers(void **state) {
  fixture *f = *state;
  fbe_msg *m = from_json(f, "test.StructSimple",
                         "{\"f21\":-9223372036854775808,\"f22\":9223372036854775807,"
                         "\"f23\":0,\"f24\":18446744073709551615,\"f9\":-128,\"f10\":127,"
                         "\"f13\":-32768,\"f16\":65535,\"f17\":-2147483648,\"f20\":4294967295}");
  assert_true(get_int(m, "f21") == INT64_MIN);
  assert_true(get_int(m, "f22") == INT64_MAX);
  assert_true(get_uint(m, "f24") == UINT64_MAX);
  assert_int_equal(get_int(m, "f9"), -128);
  assert_int_equal(get_int(m, "f13"), -32768);
  assert_int_equal(get_int(m, "f17"), INT32_MIN);
  assert_int_equal(get_uint(m, "f20"), UINT32_MAX);
  char *out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f21\":-9223372036854775808,\"f22\":9223372036854775807,"));
  assert_non_null(strstr(out, "\"f24\":18446744073709551615,"));
  assert_non_null(strstr(out, "\"f9\":-128,\"f10\":127,"));
  free(out);

  /* negative numbers for unsigned fields are taken modulo 2^bits (Java writes them) */
  m = from_json(f, "test.StructSimple",
                "{\"f4\":-1,\"f12\":-128,\"f16\":-1,\"f20\":-2147483648,\"f24\":-1,\"f23\":-0,"
                "\"f33\":-1}");
  assert_int_equal(get_uint(m, "f4"), 255);
  assert_int_equal(get_uint(m, "f12"), 128);
  assert_int_equal(get_uint(m, "f16"), 65535);
  assert_int_equal(get_uint(m, "f20"), 0x80000000u);
  assert_true(get_uint(m, "f24") == UINT64_MAX);
  assert_int_equal(get_uint(m, "f23"), 0);
  assert_true(get_uint(m, "f33") == UINT64_MAX); /* timestamp */

  /* out of range: FBE_ERR_RANGE at the number */
  read_error(f, "test.StructSimple", "{\"f12\":256}", FBE_ERR_RANGE, "f12", 7);
  read_error(f, "test.StructSimple", "{\"f12\":-129}", FBE_ERR_RANGE, "f12", 7);
  read_error(f, "test.StructSimple", "{\"f9\":-129}", FBE_ERR_RANGE, "f9", 6);
  read_error(f, "test.StructSimple", "{\"f9\":128}", FBE_ERR_RANGE, "f9", 6);
  read_error(f, "test.StructSimple", "{\"f18\":2147483648}", FBE_ERR_RANGE, "f18", 7);
  read_error(f, "test.StructSimple", "{\"f22\":9223372036854775808}", FBE_ERR_RANGE, "f22", 7);
  read_error(f, "test.StructSimple", "{\"f21\":-9223372036854775809}", FBE_ERR_RANGE, "f21", 7);
  read_error(f, "test.StructSimple", "{\"f24\":18446744073709551616}", FBE_ERR_RANGE, "f24", 7);
  read_error(f, "test.StructSimple", "{\"f24\":-9223372036854775809}", FBE_ERR_RANGE, "f24", 7);
  read_error(f, "test.StructSimple", "{\"f24\":99999999999999999999999999}", FBE_ERR_RANGE, "f24",
             7);
  /* fractions, exponents and other JSON kinds are not integers */
  fbe_error e = read_error(f, "test.StructSimple", "{\"f17\":1.5}", FBE_ERR_TYPE, "f17", 7);
  assert_string_equal(e.message, "expected an integer for an int32 field, found 1.5");
  read_error(f, "test.StructSimple", "{\"f17\":1e3}", FBE_ERR_TYPE, "f17", 7);
  e = read_error(f, "test.StructSimple", "{\"f17\":\"1\"}", FBE_ERR_TYPE, "f17", 7);
  assert_string_equal(e.message, "expected an integer for an int32 field, found a string");
  read_error(f, "test.StructSimple", "{\"f17\":null}", FBE_ERR_TYPE, "f17", 7);
  read_error(f, "test.StructSimple", "{\"f17\":true}", FBE_ERR_TYPE, "f17", 7);
  read_error(f, "test.StructSimple", "{\"f1\":1}", FBE_ERR_TYPE, "f1", 6);
  /* number syntax */
  read_error(f, "test.StructSimple", "{\"f17\":01}", FBE_ERR_JSON, "", 8);
  read_error(f, "test.StructSimple", "{\"f17\":-}", FBE_ERR_JSON, "f17", 8);
  read_error(f, "test.StructSimple", "{\"f17\":+1}", FBE_ERR_JSON, "f17", 7);
  read_error(f, "test.StructSimple", "{\"f27\":1.}", FBE_ERR_JSON, "f27", 9);
  read_error(f, "test.StructSimple", "{\"f27\":1e}", FBE_ERR_JSON, "f27", 9);
  read_error(f, "test.StructSimple", "{\"f27\":.5}", FBE_ERR_JSON, "f27", 7);
}

static void test_char_wchar_enum_flags(void **state) {
  fixture *f = *state;
  /* char and wchar are integer codes; wchar goes above 0xFFFF */
  fbe_msg *m = from_json(f, "test.StructSimple", "{\"f5\":255,\"f6\":33,\"f7\":1114111,\"f8\":4294967295}");
  assert_int_equal(get_uint(m, "f5"), 255);
  assert_int_equal(get_uint(m, "f7"), 0x10ffff);
  assert_int_equal(get_uint(m, "f8"), 0xffffffffu);
  char *out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f5\":255,\"f6\":33,\"f7\":1114111,\"f8\":4294967295,"));
  free(out);
  read_error(f, "test.StructSimple", "{\"f5\":256}", FBE_ERR_RANGE, "f5", 6);
  read_error(f, "test.StructSimple", "{\"f7\":4294967296}", FBE_ERR_RANGE, "f7", 6);

  /* enums and flags: their integer, unknown values and bits kept */
  m = from_json(f, "test.StructNested",
                "{\"f1000\":77,\"f1002\":255,\"f1004\":-1,\"f1006\":18446744073709551615,"
                "\"f1007\":9223372036854775808}");
  assert_int_equal(get_int(m, "f1000"), 77);
  out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f1000\":77,\"f1001\":null,\"f1002\":255,\"f1003\":null,"
                              "\"f1004\":-1,\"f1005\":null,\"f1006\":18446744073709551615,"
                              "\"f1007\":9223372036854775808,"));
  free(out);
  read_error(f, "test.StructNested", "{\"f1002\":256}", FBE_ERR_RANGE, "f1002", 9);
  /* enums.Enums: every base type */
  m = from_json(f, "enums.Enums", "{}");
  out = to_json(m, 0);
  char *again = to_json(from_json(f, "enums.Enums", out), 0);
  assert_string_equal(again, out);
  free(out);
  free(again);
}

static void test_floats(void **state) {
  fixture *f = *state;
  /* float: widened to double, shortest text; reads straight to the nearest float */
  fbe_msg *m = from_json(f, "test.StructSimple", "{\"f25\":123.456,\"f27\":-0.0}");
  double v = get_double(m, "f25");
  assert_true(v == (double)(float)123.456);  /* the cast rounds: FLT_EVAL_METHOD may be 1 or 2 */
  v = get_double(m, "f27");
  assert_true(v == 0 && signbit(v));
  char *out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f25\":123.45600128173828,"));
  assert_non_null(strstr(out, "\"f27\":-0.0,"));
  free(out);

  static const struct { const char *in, *out; } doubles[] = {
    {"1000", "1000.0"},      {"1e3", "1000.0"},        {"1.5", "1.5"},
    {"1E16", "1e+16"},       {"1e15", "1000000000000000.0"},
    {"-1.23456e+125", "-1.23456e+125"},                {"5e-324", "5e-324"},
    {"4.9406564584124654e-324", "5e-324"},             {"1e-7", "1e-07"},
    {"0.0001", "0.0001"},    {"0.00001", "1e-05"},     {"0.1", "0.1"},
    {"-0", "-0.0"},          {"0", "0.0"},             {"1.7976931348623157e308", "1.7976931348623157e+308"},
    {"2.2250738585072014e-308", "2.2250738585072014e-308"},
    {"9007199254740993", "9007199254740992.0"},        {"123456789012345678", "1.2345678901234568e+17"},
    {"1e-400", "0.0"},       {"-1e-400", "-0.0"},
    {"0.30000000000000004", "0.30000000000000004"},
  };
  for (size_t i = 0; i < sizeof doubles / sizeof doubles[0]; i++) {
    char json[512], want[128];
    snprintf(json, sizeof json, "{\"d\":%s}", doubles[i].in);
    snprintf(want, sizeof want, "\"d\":%s,", doubles[i].out);
    char *text = to_json(from_json(f, "keys.K", json), 0);
    if (!strstr(text, want)) fail_msg("%s: got %s", doubles[i].in, text);
    free(text);
  }
  /* long mantissas: digits past the 800th still decide a rounding tie */
  char *longnum = malloc(2048);
  char *text;
  snprintf(longnum, 2048, "{\"d\":9007199254740993.%0800d1}", 0);
  text = to_json(from_json(f, "keys.K", longnum), 0);
  assert_non_null(strstr(text, "\"d\":9007199254740994.0,"));
  free(text);
  snprintf(longnum, 2048, "{\"d\":9007199254740993.%0800d}", 0);
  text = to_json(from_json(f, "keys.K", longnum), 0);
  assert_non_null(strstr(text, "\"d\":9007199254740992.0,"));
  free(text);
  snprintf(longnum, 2048, "{\"d\":1%0900de-900}", 0);
  text = to_json(from_json(f, "keys.K", longnum), 0);
  assert_non_null(strstr(text, "\"d\":1.0,"));
  free(text);
  snprintf(longnum, 2048, "{\"d\":0.%0900d1e+901}", 0);
  text = to_json(from_json(f, "keys.K", longnum), 0);
  assert_non_null(strstr(text, "\"d\":1.0,"));
  free(text);
  free(longnum);

  /* shortest round-trip text on its own */
  char buf[FBE_DOUBLE_TEXT_MAX];
  double tenth = 0.1, fifth = 0.2; /* variables: no excess precision (i386, x87) */
  fbei_double_format(tenth + fifth, buf);
  assert_string_equal(buf, "0.30000000000000004");
  fbei_double_format(-1.23456e-300, buf);
  assert_string_equal(buf, "-1.23456e-300");
  fbei_double_format(2.2250738585072009e-308, buf); /* largest subnormal */
  assert_string_equal(buf, "2.225073858507201e-308");

  /* float32 limits */
  m = from_json(f, "keys.K", "{\"f\":3.4028234663852886e+38}");
  out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f\":3.4028234663852886e+38,"));
  free(out);
  read_error(f, "keys.K", "{\"f\":3.5e38}", FBE_ERR_RANGE, "f", 5);
  read_error(f, "keys.K", "{\"d\":1e309}", FBE_ERR_RANGE, "d", 5);
  read_error(f, "keys.K", "{\"d\":\"1.5\"}", FBE_ERR_TYPE, "d", 5);
  read_error(f, "keys.K", "{\"d\":NaN}", FBE_ERR_JSON, "d", 5);

  /* non-finite values have no JSON form */
  m = from_json(f, "keys.K", "{}");
  assert_int_equal(fbe_ref_set_double(field(m, "d"), NAN, NULL), FBE_OK);
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_buffer_append(&b, "xyz", 3);
  fbe_error err;
  assert_int_equal(fbe_msg_to_json(m, 0, &b, &err), FBE_ERR_RANGE);
  assert_string_equal(err.path, "d");
  assert_int_equal(b.size, 3); /* nothing half-written left behind */
  assert_int_equal(fbe_ref_set_double(field(m, "d"), -INFINITY, NULL), FBE_OK);
  assert_int_equal(fbe_msg_to_json(m, 0, &b, &err), FBE_ERR_RANGE);
  fbe_buffer_free(&b);
}

static void test_decimals(void **state) {
  fixture *f = *state;
  static const struct { const char *in, *out; } cases[] = {
    {"\"123456.123456\"", "\"123456.123456\""}, {"\"-0.5\"", "\"-0.5\""},
    {"\"0\"", "\"0\""},                         {"\"1E-7\"", "\"1E-7\""},
    {"\"0.0000001\"", "\"1E-7\""},              {"\"-1.8E-13\"", "\"-1.8E-13\""},
    {"\"1.5e-10\"", "\"1.5E-10\""},             {"\"1.000\"", "\"1.000\""},
    {"\"1E+3\"", "\"1000\""},                   {"\"-0\"", "\"-0\""},
    {"\"79228162514264337593543950335\"", "\"79228162514264337593543950335\""},
    {"1.5", "\"1.5\""},                         {"-12", "\"-12\""},
    {"1e2", "\"100\""},                         {"\"0.0000000000000000000000000001\"", "\"1E-28\""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char json[128], want[128];
    snprintf(json, sizeof json, "{\"f30\":%s}", cases[i].in);
    snprintf(want, sizeof want, "\"f30\":%s,", cases[i].out);
    char *text = to_json(from_json(f, "test.StructSimple", json), 0);
    if (!strstr(text, want)) fail_msg("%s: got %s", cases[i].in, text);
    free(text);
  }
  fbe_error e = read_error(f, "test.StructSimple", "{\"f30\":\"abc\"}", FBE_ERR_ARGUMENT, "f30", 7);
  assert_string_equal(e.message, "'abc' is not a decimal number");
  read_error(f, "test.StructSimple", "{\"f30\":\"79228162514264337593543950336\"}", FBE_ERR_RANGE,
             "f30", 7);
  read_error(f, "test.StructSimple", "{\"f30\":1e-29}", FBE_ERR_RANGE, "f30", 7);
  read_error(f, "test.StructSimple", "{\"f30\":true}", FBE_ERR_TYPE, "f30", 7);
  read_error(f, "test.StructSimple", "{\"f30\":\"1 \"}", FBE_ERR_ARGUMENT, "f30", 7);
}

static void test_timestamp_uuid(void **state) {
  fixture *f = *state;
  fbe_msg *m = from_json(f, "test.StructSimple",
                         "{\"f33\":18446744073709551615,"
                         "\"f36\":\"E7854072-F0A5-11E8-8F69-AC220BCDD8E0\"}");
  char *out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f33\":18446744073709551615,"));
  assert_non_null(strstr(out, "\"f36\":\"e7854072-f0a5-11e8-8f69-ac220bcdd8e0\","));
  free(out);
  fbe_error e = read_error(f, "test.StructSimple", "{\"f36\":12}", FBE_ERR_TYPE, "f36", 7);
  assert_string_equal(e.message, "expected a string for a uuid field, found a number");
  e = read_error(f, "test.StructSimple", "{\"f36\":\"123e4567-e89b-12d3-a456-42665544000\"}",
                 FBE_ERR_ARGUMENT, "f36", 7);
  assert_string_equal(e.message, "'123e4567-e89b-12d3-a456-42665544000' is not a uuid (8-4-4-4-12 hexadecimal digits)");
  read_error(f, "test.StructSimple", "{\"f33\":1.5}", FBE_ERR_TYPE, "f33", 7);
  read_error(f, "test.StructSimple", "{\"f33\":18446744073709551616}", FBE_ERR_RANGE, "f33", 7);
}

static void test_bytes(void **state) {
  fixture *f = *state;
  assert_roundtrip(f, "test.StructBytes", "{\"f1\":\"\",\"f2\":\"QQ==\",\"f3\":\"QUI=\"}");
  fbe_msg *m = from_json(f, "test.StructBytes", "{\"f1\":\"QUJD\",\"f2\":\"\",\"f3\":\"//4AAQ==\"}");
  const uint8_t *data;
  size_t size;
  assert_int_equal(fbe_ref_get_bytes(field(m, "f1"), &data, &size), FBE_OK);
  assert_int_equal(size, 3);
  assert_memory_equal(data, "ABC", 3);
  assert_int_equal(fbe_ref_get_bytes(fbe_ref_deref(field(m, "f2")), &data, &size), FBE_OK);
  assert_int_equal(size, 0);
  assert_int_equal(fbe_ref_get_bytes(fbe_ref_deref(field(m, "f3")), &data, &size), FBE_OK);
  assert_int_equal(size, 4);
  assert_memory_equal(data, "\xff\xfe\x00\x01", 4);
  /* escaped characters inside the Base64 text are decoded first (Gson writes \u003d) */
  assert_rewrites(f, "test.StructBytes", "{\"f1\":\"QQ\\u003d\\u003d\",\"f2\":null}",
                  "{\"f1\":\"QQ==\",\"f2\":null,\"f3\":null}");

  static const char *bad[] = {"QQ=", "QUJ!", "QQ==QQ==", "Q===", "QUJD=", "QU JD"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char json[64];
    snprintf(json, sizeof json, "{\"f1\":\"%s\"}", bad[i]);
    read_error(f, "test.StructBytes", json, FBE_ERR_ARGUMENT, "f1", 6);
  }
  fbe_error e = read_error(f, "test.StructBytes", "{\"f1\":\"QUJ!\"}", FBE_ERR_ARGUMENT, "f1", 6);
  assert_string_equal(e.message, "'QUJ!' is not Base64 (at character 3)");
  e = read_error(f, "test.StructBytes", "{\"f1\":[65]}", FBE_ERR_TYPE, "f1", 6);
  assert_string_equal(e.message, "expected a Base64 string for a bytes field, found an array");
}

static void test_strings(void **state) {
  fixture *f = *state;
  /* every escape; \u0000 kept; surrogate pairs joined; output escapes only what it must */
  fbe_msg *m = from_json(f, "test.StructSimple",
                         "{\"f31\":\"a\\u0000b\\\"\\\\\\/\\b\\f\\n\\r\\t\\u001f\\u0041\\u00e9"
                         "\\u20AC\\ud83d\\ude00\x7f\"}");
  const uint8_t *data;
  size_t size;
  assert_int_equal(fbe_ref_get_bytes(field(m, "f31"), &data, &size), FBE_OK);
  static const char want[] = "a\0b\"\\/\b\f\n\r\t\x1f" "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x7f";
  assert_int_equal(size, sizeof want - 1);
  assert_memory_equal(data, want, size);
  char *out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f31\":\"a\\u0000b\\\"\\\\/\\b\\f\\n\\r\\t\\u001fA\xc3\xa9\xe2\x82\xac"
                              "\xf0\x9f\x98\x80\x7f\","));
  free(out);

  /* lone surrogates are refused, never replaced with U+FFFD */
  fbe_error e = read_error(f, "test.StructSimple", "{\"f31\":\"\\ud800x\"}", FBE_ERR_JSON, "f31", 8);
  assert_string_equal(e.message, "string is not valid UTF-8: a UTF-16 surrogate (U+D800) without its pair");
  read_error(f, "test.StructSimple", "{\"f31\":\"x\\udc00\"}", FBE_ERR_JSON, "f31", 9);
  read_error(f, "test.StructSimple", "{\"f31\":\"\\ud83d\"}", FBE_ERR_JSON, "f31", 8);
  read_error(f, "test.StructSimple", "{\"f31\":\"\\ud83d\\ud83d\"}", FBE_ERR_JSON, "f31", 8);

  /* the setters refuse bytes that are not UTF-8 in a string (not in bytes) */
  m = from_json(f, "test.StructSimple", "{\"f31\":\"ok\"}");
  assert_int_equal(fbe_ref_set_bytes(field(m, "f31"), "a\xff", 2, NULL), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_ref_set_string(field(m, "f31"), "\xed\xa0\x80", NULL), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_ref_get_bytes(field(m, "f31"), &data, &size), FBE_OK);
  assert_int_equal(size, 2); /* unchanged */
  fbe_msg *raw = from_json(f, "test.StructBytes", "{\"f1\":\"\"}");
  assert_int_equal(fbe_ref_set_bytes(field(raw, "f1"), "a\xff", 2, NULL), FBE_OK);

  /* a value built past the setters with bytes that are not UTF-8: the writer refuses it */
  fbe_ref f31 = field(m, "f31");
  assert_int_equal(fbei_str_assign(f31.slot, f31.arena, "a\xc3(", 3), 0);
  fbe_buffer b;
  fbe_buffer_init(&b);
  assert_int_equal(fbe_msg_to_json(m, 0, &b, &e), FBE_ERR_ARGUMENT);
  assert_string_equal(e.message, "string is not valid UTF-8: a sequence cut short (0x28 is not a "
                                 "continuation byte) at byte 1 of 3");
  assert_string_equal(e.path, "f31");
  fbe_buffer_free(&b);

  /* a string with 4-byte characters and NULs round-trips */
  assert_int_equal(fbe_ref_set_bytes(field(m, "f31"), "\xf0\x9f\x98\x80\0\xf4\x8f\xbf\xbf", 9, NULL),
                   FBE_OK);
  out = to_json(m, 0);
  fbe_msg *back = from_json(f, "test.StructSimple", out);
  assert_int_equal(fbe_ref_get_bytes(field(back, "f31"), &data, &size), FBE_OK);
  assert_int_equal(size, 9);
  assert_memory_equal(data, "\xf0\x9f\x98\x80\0\xf4\x8f\xbf\xbf", 9);
  free(out);

  /* bad strings */
  read_error(f, "test.StructSimple", "{\"f31\":\"a\nb\"}", FBE_ERR_JSON, "f31", 9);
  read_error(f, "test.StructSimple", "{\"f31\":\"\\x\"}", FBE_ERR_JSON, "f31", 8);
  read_error(f, "test.StructSimple", "{\"f31\":\"\\u12\"}", FBE_ERR_JSON, "f31", 8);
  read_error(f, "test.StructSimple", "{\"f31\":\"\\u12G4\"}", FBE_ERR_JSON, "f31", 8);
  read_error(f, "test.StructSimple", "{\"f31\":\"\xc3(\"}", FBE_ERR_JSON, "f31", 8);
  e = read_error(f, "test.StructSimple", "{\"f31\":\"ab\xed\xa0\x80\"}", FBE_ERR_JSON, "f31", 10);
  assert_string_equal(e.message, "string is not valid UTF-8: a UTF-16 surrogate (U+D800) at byte 2 of 5");
  read_error(f, "test.StructSimple", "{\"f31\":\"abc", FBE_ERR_JSON, "f31", 11);
  read_error(f, "test.StructSimple", "{\"f31\":\"abc\\", FBE_ERR_JSON, "f31", 12);
  read_error(f, "test.StructSimple", "{\"f31\":\"abc\\\"", FBE_ERR_JSON, "f31", 13);
  e = read_error(f, "test.StructSimple", "{\"f31\":5}", FBE_ERR_TYPE, "f31", 7);
  assert_string_equal(e.message, "expected a string for a string field, found a number");
}

/* ---------------------------------------------------------------- composites */

static void test_optionals(void **state) {
  fixture *f = *state;
  /* null -> absent, value -> present; a declared default does not come back for null */
  fbe_msg *m = from_json(f, "test.StructOptional",
                         "{\"f100\":true,\"f101\":null,\"f103\":0,\"f136\":1.5,\"f142\":\"1.50\","
                         "\"f145\":\"\",\"f151\":\"123e4567-e89b-12d3-a456-426655440000\","
                         "\"f158\":{\"id\":7},\"f162\":6}");
  assert_true(fbe_ref_is_null(field(m, "f101")));
  assert_false(fbe_ref_is_null(field(m, "f100")));
  char *out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f100\":true,\"f101\":null,\"f102\":null,\"f103\":0,\"f104\":255,"));
  assert_non_null(strstr(out, "\"f136\":1.5,\"f137\":123.45600128173828,\"f138\":null,"));
  assert_non_null(strstr(out, "\"f142\":\"1.50\","));
  assert_non_null(strstr(out, "\"f145\":\"\",\"f146\":\"Initial string!\",\"f147\":null,"));
  assert_non_null(strstr(out, "\"f151\":\"123e4567-e89b-12d3-a456-426655440000\","));
  assert_non_null(strstr(out, "\"f158\":{\"id\":7,\"symbol\":\"\",\"side\":0,\"type\":0,"
                              "\"price\":0.0,\"volume\":0.0},\"f159\":null,"));
  assert_non_null(strstr(out, "\"f162\":6,"));
  /* the whole thing reads back to the same text */
  char *again = to_json(from_json(f, "test.StructOptional", out), 0);
  assert_string_equal(again, out);
  free(out);
  free(again);

  /* a present optional struct read again keeps the members the text omits */
  m = from_json(f, "proto.Account", "{\"asset\":{\"currency\":\"EUR\",\"amount\":5}}");
  assert_int_equal(read_into(m, "{\"asset\":{\"amount\":7}}"), FBE_OK);
  out = to_json(m, 0);
  assert_non_null(strstr(out, "\"asset\":{\"currency\":\"EUR\",\"amount\":7.0}"));
  free(out);
  assert_int_equal(read_into(m, "{\"asset\":null}"), FBE_OK);
  assert_true(fbe_ref_is_null(field(m, "asset")));
  read_error(f, "test.StructOptional", "{\"f100\":nul}", FBE_ERR_JSON, "f100", 8);
}

static void test_members(void **state) {
  fixture *f = *state;
  /* missing members keep their defaults */
  fbe_msg *m = from_json(f, "test.StructSimple", "{}");
  char *out = to_json(m, 0);
  assert_non_null(strstr(out, "\"f2\":true,"));
  assert_non_null(strstr(out, "\"f32\":\"Initial string!\","));
  assert_non_null(strstr(out, "\"f44\":{\"id\":0,\"name\":\"\",\"state\":11,"));
  free(out);
  /* unknown members are an error by default, with the nearest name, the offset of the
   * member and the path of its struct */
  fbe_error e = read_error(f, "proto.Order", "{\"id\":5,\"symbl\":\"x\"}", FBE_ERR_UNKNOWN_FIELD, "", 8);
  assert_string_equal(e.message, "unknown field 'symbl' of proto.Order (did you mean 'symbol'?)");
  e = read_error(f, "proto.Account", "{\"orders\":[{},{\"zzz\":1}]}", FBE_ERR_UNKNOWN_FIELD, "orders[1]", 15);
  assert_string_equal(e.message, "unknown field 'zzz' of proto.Order");
  read_error(f, "proto.Order", "{\"id\\u0000\":9}", FBE_ERR_UNKNOWN_FIELD, "", 1);
  e = read_error(f, "proto.Order", "{\"Id\":8}", FBE_ERR_UNKNOWN_FIELD, "", 1);
  assert_string_equal(e.message, "unknown field 'Id' of proto.Order"); /* 1 edit of 2 letters: not near */
  e = read_error(f, "proto.Order", "{\"Symbol\":\"x\"}", FBE_ERR_UNKNOWN_FIELD, "", 1);
  assert_string_equal(e.message, "unknown field 'Symbol' of proto.Order (did you mean 'symbol'?)");
  /* with ignore_unknown they are skipped, whatever JSON they hold */
  m = from_json_lax(f, "proto.Order",
                "{\"zzz\":{\"a\":[1,-2.5e-3,{\"b\":null,\"c\":[[],{}]}],\"d\":\"x\\\"y\\u1234\"},"
                "\"id\":5,\"yyy\":[[true,false]],\"xxx\":-1.5e3,\"www\":true,\"vvv\":null,"
                "\"id\\u0000\":9,\"Id\":8}");
  assert_int_equal(get_int(m, "id"), 5);
  /* the last duplicate wins */
  m = from_json(f, "proto.Order", "{\"id\":1,\"id\":2,\"symbol\":\"a\",\"symbol\":\"bc\"}");
  assert_int_equal(get_int(m, "id"), 2);
  /* whitespace anywhere between tokens */
  assert_rewrites(f, "proto.Balance", " \t\r\n{ \"currency\" :\n\"X\" , \"amount\" : 2 }\n ",
                  "{\"currency\":\"X\",\"amount\":2.0}");
  /* JSON errors in skipped members are still errors */
  read_error_opts(f, "proto.Order", "{\"zzz\":[1,}", &LAX, FBE_ERR_JSON, "", 10);
  read_error_opts(f, "proto.Order", "{\"zzz\":tru}", &LAX, FBE_ERR_JSON, "", 7);
  read_error_opts(f, "proto.Order", "{\"zzz\":{1:2}}", &LAX, FBE_ERR_JSON, "", 8);
  read_error(f, "proto.Order", "{\"id\":1,}", FBE_ERR_JSON, "", 8);
  read_error(f, "proto.Order", "{\"id\" 1}", FBE_ERR_JSON, "", 6);
  read_error(f, "proto.Order", "{\"id\":1 \"symbol\":\"x\"}", FBE_ERR_JSON, "", 8);
  read_error(f, "proto.Order", "{id:1}", FBE_ERR_JSON, "", 1);
  read_error(f, "proto.Order", "{} x", FBE_ERR_JSON, "", 3);
  read_error(f, "proto.Order", "{}{}", FBE_ERR_JSON, "", 2);
  read_error(f, "proto.Order", "", FBE_ERR_JSON, "", 0);
  read_error(f, "proto.Order", "   ", FBE_ERR_JSON, "", 3);
  e = read_error(f, "proto.Order", "[]", FBE_ERR_TYPE, "", 0);
  assert_string_equal(e.message, "expected an object for a struct proto.Order field, found an array");
  read_error(f, "proto.Order", "null", FBE_ERR_TYPE, "", 0);
  read_error(f, "proto.Account", "{\"wallet\":null}", FBE_ERR_TYPE, "wallet", 10);
}

static void test_error_paths(void **state) {
  fixture *f = *state;
  /* a string where an int32 is expected, inside orders[1] */
  static const char json[] =
      "{\"id\":1,\"orders\":[{\"id\":1,\"symbol\":\"EURUSD\"},{\"id\":2,\"symbol\":5}]}";
  fbe_error e = read_error(f, "proto.Account", json, FBE_ERR_TYPE, "orders[1].symbol",
                           (size_t)(strstr(json, ":5}") + 1 - json));
  assert_string_equal(e.message, "expected a string for a string field, found a number");
  char text[512];
  fbe_error_format(&e, text, sizeof text);
  assert_string_equal(text, "expected a string for a string field, found a number at "
                            "'orders[1].symbol' (offset 62)");
  static const char json2[] = "{\"f44\":{\"orders\":[{},{\"id\":\"x\"}]}}";
  read_error(f, "test.StructSimple", json2, FBE_ERR_TYPE, "f44.orders[1].id",
             (size_t)(strstr(json2, "\"x\"") - json2));
  read_error(f, "test.StructMap", "{\"f9\":{\"1\":{},\"2\":{\"f41\":{\"price\":\"p\"}}}}",
             FBE_ERR_TYPE, "f9[1].f41.price", 34);
  read_error(f, "test.StructOptional", "{\"f164\":{\"asset\":{\"amount\":[]}}}", FBE_ERR_TYPE,
             "f164.asset.amount", 27);
  read_error(f, "test.StructVector", "{\"f10\":[null,{\"f44\":{\"orders\":[{\"side\":300}]}}]}",
             FBE_ERR_RANGE, "f10[1].f44.orders[0].side", 39);
  read_error(f, "test.StructArray", "{\"f9\":[{},{\"id\":true}]}", FBE_ERR_TYPE, "f9[1].id", 16);
}

static void test_arrays_vectors_sets(void **state) {
  fixture *f = *state;
  /* T[N] needs exactly N elements */
  fbe_msg *m = from_json(f, "test.StructArray",
                         "{\"f1\":[1,255],\"f2\":[null,3],\"f3\":[\"QQ==\",\"\"],\"f4\":[null,\"QUI=\"],"
                         "\"f5\":[1,4],\"f6\":[null,2],\"f7\":[1,5],\"f8\":[3,null],"
                         "\"f10\":[null,{\"id\":9}]}");
  char *out = to_json(m, 0);
  assert_non_null(strstr(out, "{\"f1\":[1,255],\"f2\":[null,3],\"f3\":[\"QQ==\",\"\"],"
                              "\"f4\":[null,\"QUI=\"],\"f5\":[1,4],\"f6\":[null,2],\"f7\":[1,5],"
                              "\"f8\":[3,null],\"f9\":[{\"id\":0,"));
  assert_non_null(strstr(out, "\"f10\":[null,{\"id\":9,\"f1\":false,\"f2\":true,"));
  char *again = to_json(from_json(f, "test.StructArray", out), 0);
  assert_string_equal(again, out);
  free(out);
  free(again);
  fbe_error e = read_error(f, "test.StructArray", "{\"f1\":[1]}", FBE_ERR_RANGE, "f1", 6);
  assert_string_equal(e.message, "expected 2 elements for an array of 2, found 1");
  read_error(f, "test.StructArray", "{\"f1\":[1,2,3]}", FBE_ERR_RANGE, "f1", 6);
  read_error(f, "test.StructArray", "{\"f1\":[]}", FBE_ERR_RANGE, "f1", 6);
  read_error(f, "test.StructArray", "{\"f1\":{}}", FBE_ERR_TYPE, "f1", 6);

  /* vectors, lists and sets keep the JSON order; a set one element per value */
  assert_roundtrip(f, "test.StructVector",
                   "{\"f1\":[17,34],\"f2\":[51,null],\"f3\":[\"QQ==\"],\"f4\":[null,\"Qg==\"],"
                   "\"f5\":[1],\"f6\":[2,null],\"f7\":[1],\"f8\":[null],\"f9\":[],\"f10\":[]}");
  assert_roundtrip(f, "test.StructList",
                   "{\"f1\":[3,2,1],\"f2\":[],\"f3\":[],\"f4\":[],\"f5\":[],\"f6\":[],\"f7\":[],"
                   "\"f8\":[],\"f9\":[],\"f10\":[null]}");
  m = from_json(f, "test.StructSet", "{\"f1\":[3,1,3],\"f2\":[4,0]}");
  out = to_json(m, 0);
  assert_non_null(strstr(out, "{\"f1\":[3,1],\"f2\":[4,0],\"f3\":[],\"f4\":[]}"));
  free(out);
  /* reading a collection replaces it */
  assert_int_equal(read_into(m, "{\"f1\":[9]}"), FBE_OK);
  assert_int_equal(fbe_ref_count(field(m, "f1")), 1);
  read_error(f, "test.StructVector", "{\"f1\":[1,\"2\"]}", FBE_ERR_TYPE, "f1[1]", 9);
  read_error(f, "test.StructVector", "{\"f1\":[1 2]}", FBE_ERR_JSON, "f1", 9);
  read_error(f, "test.StructVector", "{\"f1\":[1,]}", FBE_ERR_JSON, "f1[1]", 9);
}

static void test_maps(void **state) {
  fixture *f = *state;
  /* integer keys, negative ones too; JSON order kept */
  assert_roundtrip(f, "test.StructMap",
                   "{\"f1\":{\"10\":48,\"-5\":3},\"f2\":{},\"f3\":{},\"f4\":{},"
                   "\"f5\":{\"-2147483648\":1},\"f6\":{\"2147483647\":null},\"f7\":{},\"f8\":{},"
                   "\"f9\":{},\"f10\":{\"0\":null}}");
  /* a duplicate key: one entry, the last value, in the first one's place (keys.c) */
  char *dup = to_json(from_json(f, "test.StructMap", "{\"f1\":{\"10\":48,\"-5\":3,\"10\":1}}"), 0);
  assert_non_null(strstr(dup, "{\"f1\":{\"10\":1,\"-5\":3},"));
  free(dup);
  assert_roundtrip(f, "test.StructHash",
                   "{\"f1\":{\"k\":17,\"\":0,\"\\u0000\\n\":1},\"f2\":{},\"f3\":{\"b\":\"Wg==\"},"
                   "\"f4\":{},\"f5\":{},\"f6\":{},\"f7\":{},\"f8\":{},\"f9\":{},\"f10\":{}}");
  fbe_msg *m = from_json(f, "test.StructMap", "{\"f1\":{\"1\":1,\"2\":2}}");
  assert_int_equal(fbe_ref_count(field(m, "f1")), 2);
  /* bad keys */
  fbe_error e = read_error(f, "test.StructMap", "{\"f1\":{\"1\":1,\"x\":2}}", FBE_ERR_ARGUMENT,
                           "f1[1]", 13);
  assert_string_equal(e.message, "'x' is not an int32");
  read_error(f, "test.StructMap", "{\"f1\":{\"1.5\":2}}", FBE_ERR_ARGUMENT, "f1[0]", 7);
  read_error(f, "test.StructMap", "{\"f1\":{\" 1\":2}}", FBE_ERR_ARGUMENT, "f1[0]", 7);
  read_error(f, "test.StructMap", "{\"f1\":{\"\":2}}", FBE_ERR_ARGUMENT, "f1[0]", 7);
  read_error(f, "test.StructMap", "{\"f1\":{\"2147483648\":2}}", FBE_ERR_RANGE, "f1[0]", 7);
  read_error(f, "test.StructMap", "{\"f1\":{\"1\":256}}", FBE_ERR_RANGE, "f1[0]", 11);
  read_error(f, "test.StructMap", "{\"f1\":[]}", FBE_ERR_TYPE, "f1", 6);
  read_error(f, "test.StructMap", "{\"f1\":{1:2}}", FBE_ERR_JSON, "f1", 7);

  /* every stringable key kind */
  static const char keys_json[] =
      "{\"i64\":{\"-9223372036854775808\":1,\"9223372036854775807\":2},"
      "\"u64\":{\"18446744073709551615\":3},\"chars\":{\"33\":4,\"255\":5},"
      "\"wchars\":{\"1114111\":6},\"times\":{\"0\":7},"
      "\"uuids\":{\"123e4567-e89b-12d3-a456-426655440000\":8},"
      "\"decimals\":{\"1E-7\":9,\"1.000\":10,\"-0\":11},\"enums\":{\"-1\":12,\"1\":13},"
      "\"bits\":{\"65535\":14},\"strings\":{\"\":15,\"a\\\"b\":16},"
      "\"bools\":{},\"doubles\":{},\"blobs\":{},\"d\":0.0,\"f\":0.0,\"e\":0}";
  assert_roundtrip(f, "keys.K", keys_json);
  assert_rewrites(f, "keys.K", "{\"u64\":{\"-1\":1},\"uuids\":{\"E7854072-F0A5-11E8-8F69-AC220BCDD8E0\":2}}",
                  "{\"i64\":{},\"u64\":{\"18446744073709551615\":1},\"chars\":{},\"wchars\":{},"
                  "\"times\":{},\"uuids\":{\"e7854072-f0a5-11e8-8f69-ac220bcdd8e0\":2},"
                  "\"decimals\":{},\"enums\":{},\"bits\":{},\"strings\":{},\"bools\":{},"
                  "\"doubles\":{},\"blobs\":{},\"d\":0.0,\"f\":0.0,\"e\":0}");
  read_error(f, "keys.K", "{\"uuids\":{\"x\":1}}", FBE_ERR_ARGUMENT, "uuids[0]", 10);
  read_error(f, "keys.K", "{\"decimals\":{\"1E-29\":1}}", FBE_ERR_RANGE, "decimals[0]", 13);
  read_error(f, "keys.K", "{\"chars\":{\"256\":1}}", FBE_ERR_RANGE, "chars[0]", 10);

  /* keys of type bool, double, bytes are read but cannot be written */
  static const char *unwritable[] = {"{\"bools\":{\"true\":1}}", "{\"doubles\":{\"1.5\":1}}",
                                     "{\"blobs\":{\"QUJD\":1}}"};
  static const char *paths[] = {"bools[0]", "doubles[0]", "blobs[0]"};
  for (int i = 0; i < 3; i++) {
    m = from_json(f, "keys.K", unwritable[i]);
    fbe_buffer b;
    fbe_buffer_init(&b);
    fbe_error err;
    assert_int_equal(fbe_msg_to_json(m, 0, &b, &err), FBE_ERR_TYPE);
    assert_string_equal(err.path, paths[i]);
    assert_int_equal(b.size, 0);
    fbe_buffer_free(&b);
  }
  e = read_error(f, "keys.K", "{\"bools\":{\"yes\":1}}", FBE_ERR_ARGUMENT, "bools[0]", 10);
  assert_string_equal(e.message, "'yes' is not a bool");
  read_error(f, "keys.K", "{\"doubles\":{\"1e999\":1}}", FBE_ERR_RANGE, "doubles[0]", 12);
}

static void test_struct_keyed_maps(void **state) {
  fixture *f = *state;
  /* maps whose key is a struct: [[key, value], ...] pairs */
  fbe_msg *m = from_json(f, "test.StructHashEx",
                         "{\"f1\":[[{\"id\":1},{\"f1000\":2}],[{\"id\":2},{}]],"
                         "\"f2\":[[{\"id\":3},null]]}");
  assert_int_equal(fbe_ref_count(field(m, "f1")), 2);
  char *out = to_json(m, 0);
  assert_true(!strncmp(out, "{\"f1\":[[{\"id\":1,\"f1\":false,", 27));
  assert_non_null(strstr(out, "]],\"f2\":[[{\"id\":3,\"f1\":false,"));
  assert_non_null(strstr(out, "\"f1000\":2,"));
  assert_true(!strcmp(out + strlen(out) - 10, "}},null]]}"));
  char *again = to_json(from_json(f, "test.StructHashEx", out), 0);
  assert_string_equal(again, out);
  free(again);
  free(out);
  assert_rewrites(f, "test.StructHashEx", "{\"f1\":[],\"f2\":[]}", "{\"f1\":[],\"f2\":[]}");

  fbe_error e = read_error(f, "test.StructHashEx", "{\"f1\":{}}", FBE_ERR_TYPE, "f1", 6);
  assert_string_equal(e.message,
                      "expected an array of [key, value] pairs for a hash field, found an object");
  read_error(f, "test.StructHashEx", "{\"f1\":[[{\"id\":1}]]}", FBE_ERR_JSON, "f1[0]", 16);
  read_error(f, "test.StructHashEx", "{\"f1\":[[{},{},{}]]}", FBE_ERR_JSON, "f1[0]", 13);
  read_error(f, "test.StructHashEx", "{\"f1\":[{}]}", FBE_ERR_JSON, "f1[0]", 7);
  read_error(f, "test.StructHashEx", "{\"f1\":[[{\"id\":\"x\"},{}]]}", FBE_ERR_TYPE, "f1[0].id",
             14);
  read_error(f, "test.StructHashEx", "{\"f2\":[[{},{\"f1\":1}]]}", FBE_ERR_TYPE, "f2[0].f1", 17);
}

static void test_pretty(void **state) {
  fixture *f = *state;
  fbe_msg *m = from_json(f, "proto.Account",
                         "{\"id\":1,\"wallet\":{\"currency\":\"USD\",\"amount\":1000},"
                         "\"orders\":[{\"id\":2}]}");
  char *out = to_json(m, 1);
  assert_string_equal(out,
                      "{\n"
                      "  \"id\": 1,\n"
                      "  \"name\": \"\",\n"
                      "  \"state\": 11,\n"
                      "  \"wallet\": {\n"
                      "    \"currency\": \"USD\",\n"
                      "    \"amount\": 1000.0\n"
                      "  },\n"
                      "  \"asset\": null,\n"
                      "  \"orders\": [\n"
                      "    {\n"
                      "      \"id\": 2,\n"
                      "      \"symbol\": \"\",\n"
                      "      \"side\": 0,\n"
                      "      \"type\": 0,\n"
                      "      \"price\": 0.0,\n"
                      "      \"volume\": 0.0\n"
                      "    }\n"
                      "  ]\n"
                      "}");
  char *compact = to_json(from_json(f, "proto.Account", out), 0);
  char *direct = to_json(m, 0);
  assert_string_equal(compact, direct);
  free(out);
  free(compact);
  free(direct);
  out = to_json(from_json(f, "test.StructHashEx", "{\"f2\":[[{},null]]}"), 1);
  assert_non_null(strstr(out, "{\n  \"f1\": [],\n  \"f2\": [\n    [\n      {\n        \"id\": 0,\n"));
  assert_non_null(strstr(out, "      },\n      null\n    ]\n  ]\n}"));
  free(out);
}

static void test_depth_limit(void **state) {
  fixture *f = *state;
  /* 832 nested containers are fine (the struct's object counts), 833 are not (an
   * unknown member, skipped: no level of the core's rule, only JSON nesting) */
  char *json = malloc(2048);
  for (int extra = 831; extra <= 832; extra++) {
    size_t n = 5;
    memcpy(json, "{\"x\":", n);
    for (int i = 0; i < extra; i++) json[n++] = '[';
    for (int i = 0; i < extra; i++) json[n++] = ']';
    json[n++] = '}';
    json[n] = 0;
    if (extra == 831) from_json_lax(f, "proto.Order", json);
    else read_error_opts(f, "proto.Order", json, &LAX, FBE_ERR_LIMIT, "", 5 + 831);
  }
  free(json);
  /* far deeper input fails the same way without exhausting the stack */
  size_t big = 1000000;
  json = malloc(big + 8);
  memcpy(json, "{\"x\":", 5);
  memset(json + 5, '[', big);
  json[big + 5] = 0;
  read_error_opts(f, "proto.Order", json, &LAX, FBE_ERR_LIMIT, "", 5 + 831);
  memset(json + 5, '{', big);
  read_error_opts(f, "proto.Order", json, &LAX, FBE_ERR_JSON, "", 6);
  free(json);
}

/* The core's depth rule on both sides: 256 optionals nested (257 objects) are written
 * and read back, 257 are refused by the writer and by the reader, as by encode and
 * decode. */
static void test_write_depth_limit(void **state) {
  fixture *f = *state;
  static const char schema[] = "package rec\nstruct Node { int32 v; Node? next; }\n";
  fbe_schema *rec = fbe_schema_load_string(schema, sizeof schema - 1, "rec.fbe", NULL, NULL);
  assert_non_null(rec);
  const fbe_struct *node = fbe_schema_find_struct(rec, "rec.Node");
  fbe_msg *m = fbe_msg_new(f->arena, node);
  fbe_ref r = fbe_msg_ref(m);
  for (int i = 0; i < 256; i++) r = fbe_ref_emplace(fbe_ref_field(r, "next"));
  assert_true(fbe_ref_ok(r));
  char *out = to_json(m, 0); /* 256 levels, 257 objects */
  fbe_msg *back = NULL;
  fbe_error err;
  assert_int_equal(fbe_msg_from_json(node, out, strlen(out), f->arena, &back, &err), FBE_OK);
  assert_true(fbe_msg_equal(m, back));
  fbe_buffer b;
  fbe_buffer_init(&b);
  assert_int_equal(fbe_encode(m, FBE_MODEL_STANDARD, &b, &err), FBE_OK);
  fbe_buffer_free(&b);
  /* one level more: {"next": <the 256 levels>} */
  size_t len = strlen(out);
  char *deeper = malloc(len + 16);
  assert_non_null(deeper);
  snprintf(deeper, len + 16, "{\"next\":%s}", out);
  assert_int_equal(fbe_msg_from_json(node, deeper, strlen(deeper), f->arena, &back, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "nesting deeper than 256 levels (max_depth)");
  free(deeper);
  free(out);
  fbe_ref_emplace(fbe_ref_field(r, "next")); /* 257 */
  fbe_buffer_init(&b);
  assert_int_equal(fbe_msg_to_json(m, 0, &b, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "nesting deeper than 256 levels (max_depth)");
  assert_int_equal(b.size, 0);
  assert_int_equal(fbe_encode(m, FBE_MODEL_STANDARD, &b, &err), FBE_ERR_LIMIT);
  fbe_buffer_free(&b);
  fbe_schema_release(rec);
}

/* Reads text[0..len) from an exact-size heap copy, so any read past the end is caught
 * by the address sanitizer. */
static fbe_status read_exact(fixture *f, const char *type, const char *text, size_t len,
                             fbe_error *err) {
  char *copy = malloc(len ? len : 1);
  memcpy(copy, text, len);
  fbe_msg *m;
  fbe_status s = fbe_msg_from_json(type_of(f, type), copy, len, f->arena, &m, err);
  free(copy);
  fbe_arena_reset(f->arena);
  return s;
}

static void test_truncated_and_mutated(void **state) {
  fixture *f = *state;
  fbe_msg *nested = from_json(f, "test.StructNested",
                              "{\"f1009\":{},\"f1010\":{\"f164\":{\"orders\":[{}]}},"
                              "\"f31\":\"\\ud83d\\ude00\\n\"}");
  char *nested_json = to_json(nested, 1);
  char *hashex = to_json(from_json(f, "test.StructHashEx", "{\"f2\":[[{},null],[{},{}]]}"), 0);
  struct { const char *type, *json; } texts[] = {
    {"proto.Account", ACCOUNT_JSON},
    {"test.StructSimple", SIMPLE_DEFAULT_JSON},
    {"test.StructNested", nested_json},
    {"test.StructHashEx", hashex},
    {"keys.K", "{\"decimals\":{\"1E-7\":9},\"uuids\":{\"123e4567-e89b-12d3-a456-426655440000\":8},"
               "\"d\":-1.5e-300,\"strings\":{\"\\u00e9\":1}}"},
  };
  fbe_error err;
  for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
    size_t len = strlen(texts[t].json);
    assert_int_equal(read_exact(f, texts[t].type, texts[t].json, len, &err), FBE_OK);
    /* every proper prefix is an error, never a crash, with an offset inside the text */
    for (size_t n = 0; n < len; n++) {
      fbe_status s = read_exact(f, texts[t].type, texts[t].json, n, &err);
      if (s == FBE_OK) fail_msg("%s: prefix of %zu bytes accepted", texts[t].type, n);
      assert_true(err.offset <= n);
    }
    /* every byte replaced by characters that matter to the parser: no crash */
    static const char swaps[] = "\"{}[],:0-\\ euE.n\x01\xff";
    char *copy = malloc(len);
    size_t step = len / 1500 + 1; /* keep big texts affordable */
    for (size_t i = 0; i < len; i += step) {
      for (size_t k = 0; k < sizeof swaps - 1; k++) {
        memcpy(copy, texts[t].json, len);
        copy[i] = swaps[k];
        if (read_exact(f, texts[t].type, copy, len, &err) != FBE_OK)
          assert_true(err.offset <= len);
      }
    }
    free(copy);
  }
  free(nested_json);
  free(hashex);
}

static void test_api_edges(void **state) {
  fixture *f = *state;
  fbe_msg *m = NULL;
  fbe_error err;
  assert_int_equal(fbe_msg_from_json(NULL, "{}", 2, f->arena, &m, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_msg_from_json(type_of(f, "proto.Order"), "{}", 2, NULL, &m, &err),
                   FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_msg_from_json(type_of(f, "proto.Order"), NULL, 0, f->arena, &m, &err),
                   FBE_ERR_JSON); /* no text = empty text */
  /* err may be NULL */
  assert_int_equal(fbe_msg_from_json(type_of(f, "proto.Order"), "[", 1, f->arena, &m, NULL),
                   FBE_ERR_TYPE);
  /* reading and writing a single field through a ref */
  m = from_json(f, "proto.Account", ACCOUNT_JSON);
  fbe_ref orders = field(m, "orders");
  fbe_buffer b;
  fbe_buffer_init(&b);
  assert_int_equal(fbe_json_write(fbe_ref_at(orders, 2), 0, &b, NULL), FBE_OK);
  assert_int_equal(b.size, strlen("{\"id\":3,\"symbol\":\"EURUSD\",\"side\":0,\"type\":2,"
                                  "\"price\":1.5,\"volume\":10.0}"));
  assert_int_equal(fbe_json_read(field(m, "name"), "\"Renamed\"", 9, &err), FBE_OK);
  assert_int_equal(fbe_json_read(field(m, "asset"), "null", 4, &err), FBE_OK);
  assert_int_equal(fbe_json_read(field(m, "id"), "\"x\"", 3, &err), FBE_ERR_TYPE);
  assert_string_equal(err.path, "");
  b.size = 0;
  assert_int_equal(fbe_msg_to_json(m, 0, &b, &err), FBE_OK);
  assert_true(b.size > 20 && !memcmp(b.data, "{\"id\":1,\"name\":\"Renamed\"", 24));
  fbe_buffer_free(&b);
  fbe_ref none = {NULL, NULL, NULL};
  assert_int_equal(fbe_json_write(none, 0, &b, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_json_read(none, "{}", 2, &err), FBE_ERR_ARGUMENT);
}


/* ---------------------------------------------------------------- options */

/* The JSON of m with opts, NUL-terminated (malloc'd). */
static char *to_json_opts(const fbe_msg *m, const fbe_json_options *opts) {
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  if (fbe_msg_to_json_opts(m, opts, &b, &err)) fail_msg("to_json_opts: %s at '%s'", err.message, err.path);
  char *text = malloc(b.size + 1);
  assert_non_null(text);
  memcpy(text, b.data, b.size);
  text[b.size] = '\0';
  fbe_buffer_free(&b);
  return text;
}

static void test_options(void **state) {
  fixture *f = *state;
  const fbe_struct *o = type_of(f, "opts.O");
  const char *plain =
      "{\"side\":1,\"state\":6,\"bits\":0,\"big\":18446744073709551615,\"i\":-5,\"u\":18446744073709551615,"
      "\"ts\":1543145597933000000,\"n\":7,\"os\":7,\"ms\":{\"1\":1,\"7\":2},\"mb\":{\"5\":1},"
      "\"sides\":[0,1,7]}";
  fbe_msg *m = NULL, *back = NULL;
  fbe_error err;
  assert_int_equal(fbe_msg_from_json(o, plain, strlen(plain), f->arena, &m, &err), FBE_OK);

  /* the defaults: what fbe_msg_to_json writes */
  char *out = to_json_opts(m, NULL);
  assert_string_equal(out, plain);
  free(out);
  fbe_json_options pretty = {1, 0, 0, 0, NULL};
  out = to_json_opts(m, &pretty);
  char *expected = to_json(m, 1);
  assert_string_equal(out, expected);
  free(out);
  free(expected);

  /* enum_names: the text form's names; a value with no name stays a number */
  fbe_json_options names = {0, 1, 0, 0, NULL};
  static const char named[] =
      "{\"side\":\"sell\",\"state\":\"initialized|calculated|good\",\"bits\":0,\"big\":\"huge\",\"i\":-5,"
      "\"u\":18446744073709551615,\"ts\":1543145597933000000,\"n\":7,\"os\":7,"
      "\"ms\":{\"sell\":1,\"7\":2},\"mb\":{\"5\":1},\"sides\":[\"buy\",\"sell\",7]}";
  out = to_json_opts(m, &names);
  assert_string_equal(out, named);
  assert_int_equal(fbe_msg_from_json(o, out, strlen(out), f->arena, &back, &err), FBE_OK);
  assert_true(fbe_msg_equal(m, back));
  free(out);
  /* flags: leftover bits after the names, a lone number, a zero name */
  static const struct { const char *in, *out; } flags[] = {
      {"{\"state\":70}", "\"state\":\"initialized|calculated|good|64\""},
      {"{\"state\":64}", "\"state\":64"},
      {"{\"state\":0}", "\"state\":\"unknown\""},
      {"{\"bits\":3}", "\"bits\":\"x|y\""},
      {"{\"bits\":5}", "\"bits\":\"x|4\""},
  };
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
    assert_int_equal(fbe_msg_from_json(o, flags[i].in, strlen(flags[i].in), f->arena, &m, &err), FBE_OK);
    out = to_json_opts(m, &names);
    if (!strstr(out, flags[i].out)) fail_msg("%s: %s", flags[i].in, out);
    assert_int_equal(fbe_msg_from_json(o, out, strlen(out), f->arena, &back, &err), FBE_OK);
    assert_true(fbe_msg_equal(m, back));
    free(out);
  }

  /* int64_strings: the 64-bit kinds as digit strings (enums on 64-bit bases too) */
  assert_int_equal(fbe_msg_from_json(o, plain, strlen(plain), f->arena, &m, &err), FBE_OK);
  fbe_json_options strings = {0, 0, 1, 0, NULL};
  static const char stringed[] =
      "{\"side\":1,\"state\":6,\"bits\":0,\"big\":\"18446744073709551615\",\"i\":\"-5\","
      "\"u\":\"18446744073709551615\",\"ts\":\"1543145597933000000\",\"n\":7,\"os\":7,"
      "\"ms\":{\"1\":1,\"7\":2},\"mb\":{\"5\":1},\"sides\":[0,1,7]}";
  out = to_json_opts(m, &strings);
  assert_string_equal(out, stringed);
  assert_int_equal(fbe_msg_from_json(o, out, strlen(out), f->arena, &back, &err), FBE_OK);
  assert_true(fbe_msg_equal(m, back));
  free(out);
  fbe_json_options both = {0, 1, 1, 0, NULL};
  assert_int_equal(fbe_msg_from_json(o, "{\"big\":5}", 9, f->arena, &m, &err), FBE_OK);
  out = to_json_opts(m, &both);
  assert_non_null(strstr(out, "\"big\":\"5\""));
  assert_non_null(strstr(out, "\"side\":\"buy\""));
  assert_int_equal(fbe_msg_from_json(o, out, strlen(out), f->arena, &back, &err), FBE_OK);
  assert_true(fbe_msg_equal(m, back));
  free(out);

  /* the readers take names and digit strings always, and refuse bad ones */
  static const char *accepted[] = {
      "{\"side\":\"sell\",\"state\":\" good | 64 \",\"bits\":\"x|2\",\"ms\":{\"sell\":2,\"0\":1},\"os\":\"buy\"}",
      "{\"i\":\"-9223372036854775808\",\"u\":\"18446744073709551615\",\"ts\":\"0\",\"big\":\"1\"}",
  };
  for (size_t i = 0; i < 2; i++)
    assert_int_equal(fbe_msg_from_json(o, accepted[i], strlen(accepted[i]), f->arena, &m, &err), FBE_OK);
  int64_t v;
  assert_int_equal(fbe_ref_get_int(fbe_ref_field(fbe_msg_ref(m), "i"), &v), FBE_OK);
  assert_int_equal(v, INT64_MIN);
  static const struct { const char *json, *path, *message; fbe_status code; size_t offset; } bad[] = {
      {"{\"side\":\"sideways\"}", "side", "'sideways' is not a value of opts.Side", FBE_ERR_ARGUMENT, 8},
      {"{\"side\":\"sel\"}", "side", "'sel' is not a value of opts.Side (did you mean 'sell'?)", FBE_ERR_ARGUMENT, 8},
      {"{\"side\":\"1\"}", "side", "'1' is not a value of opts.Side", FBE_ERR_ARGUMENT, 8},
      {"{\"state\":\"good|bad\"}", "state", "'bad' is not a value of opts.State", FBE_ERR_ARGUMENT, 9},
      {"{\"ms\":{\"sideways\":1}}", "ms[0]", "'sideways' is not a value of opts.Side", FBE_ERR_ARGUMENT, 7},
      {"{\"side\":true}", "side", "expected an integer or a name for an enum opts.Side field, found a boolean",
       FBE_ERR_TYPE, 8},
      {"{\"n\":\"5\"}", "n", "expected an integer for an int32 field, found a string", FBE_ERR_TYPE, 5},
      {"{\"i\":\"x\"}", "i", "'x' is not an int64", FBE_ERR_ARGUMENT, 5},
      {"{\"i\":\"1.5\"}", "i", "'1.5' is not an int64", FBE_ERR_ARGUMENT, 5},
      {"{\"i\":\" 1\"}", "i", "' 1' is not an int64", FBE_ERR_ARGUMENT, 5},
      {"{\"u\":\"18446744073709551616\"}", "u", "18446744073709551616 is out of range for a uint64 field",
       FBE_ERR_RANGE, 5},
      {"{\"big\":\"huger\"}", "big", "'huger' is not a value of opts.Big (did you mean 'huge'?)", FBE_ERR_ARGUMENT, 7},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    fbe_error e = read_error(f, "opts.O", bad[i].json, bad[i].code, bad[i].path, bad[i].offset);
    assert_string_equal(e.message, bad[i].message);
  }
  /* ignore_unknown and limits through the options */
  fbe_json_options lax = {0, 0, 0, 1, NULL};
  assert_int_equal(fbe_msg_from_json_opts(o, "{\"new\":[1],\"n\":3}", 17, f->arena, &lax, &m, &err), FBE_OK);
  assert_int_equal(fbe_ref_get_int(fbe_ref_field(fbe_msg_ref(m), "n"), &v), FBE_OK);
  assert_int_equal(v, 3);
  fbe_limits tiny = {0, 4, 0};
  fbe_json_options limited = {0, 0, 0, 0, &tiny};
  assert_int_equal(fbe_msg_from_json_opts(o, "{\"n\":3}", 7, f->arena, &limited, &m, &err), FBE_ERR_LIMIT);
  assert_int_equal(fbe_json_read_opts(fbe_msg_ref(back), "{\"zz\":1}", 8, NULL, &err), FBE_ERR_UNKNOWN_FIELD);
  assert_int_equal(fbe_json_read_opts(fbe_msg_ref(back), "{\"zz\":1}", 8, &lax, &err), FBE_OK);
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)
  const struct CMUnitTest tests[] = {
    T(test_reference_examples),
    T(test_conformance_vectors),
    T(test_integers),
    T(test_char_wchar_enum_flags),
    T(test_floats),
    T(test_decimals),
    T(test_timestamp_uuid),
    T(test_bytes),
    T(test_strings),
    T(test_optionals),
    T(test_members),
    T(test_error_paths),
    T(test_arrays_vectors_sets),
    T(test_maps),
    T(test_struct_keyed_maps),
    T(test_pretty),
    T(test_depth_limit),
    T(test_write_depth_limit),
    T(test_truncated_and_mutated),
    T(test_api_edges),
    T(test_options),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

/* The input vocabulary (fbe/internal/input.h, docs/INPUT.md): every message with its
 * exact text and status, the nearest-name rule, and enum and flags values from their
 * text (fbe_enum_find, fbe_enum_parse). */
#include "fbe_test.h"
#include "fbe/internal/error.h"
#include "fbe/internal/input.h"

static const char INPUT_SCHEMA[] =
    "package inp\n"
    "enum Side : byte { buy; sell; }\n"
    "flags State : byte { unknown = 0; invalid = 1; initialized = 2; calculated = 4;\n"
    "  good = initialized | calculated; }\n"
    "flags NoZero : uint16 { a = 1; b = 2; }\n"
    "flags Small : int8 { lo = 1; top = -128; }\n"
    "struct Order { int32 id; string symbol; Side side; double price; }\n"
    "struct Tie { int32 abc; int32 abd; }\n"
    "struct Kinds { int32 i; string s; timestamp ts; decimal d; decimal? od; int32[3] arr;\n"
    "  Order[] orders; string() names; int32! ids; string<int32> m; Order{string} h;\n"
    "  Side? side; State st; int32?[] maybe; Order o; }\n";

typedef struct fixture {
  fbe_schema *schema;
  const fbe_struct *order, *tie, *kinds;
  const fbe_enum *side, *state, *nozero, *small;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  f->schema = t_load_text(INPUT_SCHEMA, "inp.fbe");
  f->order = t_struct(f->schema, "Order");
  f->tie = t_struct(f->schema, "Tie");
  f->kinds = t_struct(f->schema, "Kinds");
  f->side = fbe_schema_find_enum(f->schema, "Side");
  f->state = fbe_schema_find_enum(f->schema, "State");
  f->nozero = fbe_schema_find_enum(f->schema, "NoZero");
  f->small = fbe_schema_find_enum(f->schema, "Small");
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->schema);
  free(f);
  return 0;
}

static const fbe_type *field_type(const fbe_struct *st, const char *name) {
  const fbe_field *fld = fbe_struct_field(st, name);
  assert_non_null(fld);
  return fbe_field_type(fld);
}

/* The error's status and its whole text (fbe_error_format). */
static void expect(fbe_status got, const fbe_error *err, fbe_status status, const char *text) {
  char out[512];
  assert_int_equal(got, status);
  assert_int_equal(err->code, status);
  fbe_error_format(err, out, sizeof out);
  assert_string_equal(out, text);
}

static void test_type_words(void **state) {
  fixture *f = *state;
  static const char *const rows[][2] = {
      {"i", "int32"},
      {"s", "string"},
      {"ts", "timestamp"},
      {"od", "decimal or null"},
      {"arr", "array[3] of int32"},
      {"orders", "vector of inp.Order"},
      {"names", "list of string"},
      {"ids", "set of int32"},
      {"m", "map of int32 to string"},
      {"h", "hash of string to inp.Order"},
      {"side", "inp.Side or null"},
      {"st", "inp.State"},
      {"maybe", "vector of int32 or null"},
      {"o", "inp.Order"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    char out[128];
    fbei_type_words(field_type(f->kinds, rows[i][0]), out, sizeof out);
    assert_string_equal(out, rows[i][1]);
  }
  char tiny[8];
  fbei_type_words(field_type(f->kinds, "orders"), tiny, sizeof tiny);
  assert_string_equal(tiny, "vector "); /* cut, terminated */
}

static void test_type_errors(void **state) {
  fixture *f = *state;
  fbe_error err;
  const fbe_type *i = field_type(f->kinds, "i");
  static const struct { fbei_got got; const char *name, *text; } rows[] = {
      {FBEI_GOT_NULL, NULL, "expected int32, got null"},
      {FBEI_GOT_BOOL, NULL, "expected int32, got a boolean"},
      {FBEI_GOT_INTEGER, NULL, "expected int32, got an integer"},
      {FBEI_GOT_FLOAT, NULL, "expected int32, got a float"},
      {FBEI_GOT_STRING, NULL, "expected int32, got a string"},
      {FBEI_GOT_BYTES, NULL, "expected int32, got bytes"},
      {FBEI_GOT_LIST, NULL, "expected int32, got a list"},
      {FBEI_GOT_SET, NULL, "expected int32, got a set"},
      {FBEI_GOT_MAP, NULL, "expected int32, got a map"},
      {FBEI_GOT_STRUCT, "proto.Order", "expected int32, got a struct proto.Order"},
      {FBEI_GOT_ENUM, "proto.OrderType", "expected int32, got an enum proto.OrderType"},
      {FBEI_GOT_TIME, NULL, "expected int32, got a time"},
      {FBEI_GOT_UUID, NULL, "expected int32, got a uuid"},
      {FBEI_GOT_DECIMAL, NULL, "expected int32, got a decimal"},
      {FBEI_GOT_OTHER, "Object", "expected int32, got a Object"},
      {FBEI_GOT_OTHER, NULL, "expected int32, got a value"},
  };
  for (size_t k = 0; k < sizeof rows / sizeof *rows; k++)
    expect(fbei_error_type(&err, i, rows[k].got, rows[k].name), &err, FBE_ERR_TYPE, rows[k].text);
  expect(fbei_error_type(&err, field_type(f->kinds, "d"), FBEI_GOT_FLOAT, NULL), &err, FBE_ERR_TYPE,
         "expected decimal, got a float (binary floats are not exact: pass a decimal or its text)");
  expect(fbei_error_type(&err, field_type(f->kinds, "od"), FBEI_GOT_FLOAT, NULL), &err, FBE_ERR_TYPE,
         "expected decimal or null, got a float (binary floats are not exact: pass a decimal or its text)");
  expect(fbei_error_type(&err, field_type(f->kinds, "ts"), FBEI_GOT_FLOAT, NULL), &err, FBE_ERR_TYPE,
         "expected timestamp, got a float (pass integer nanoseconds or a time)");
  expect(fbei_error_type(&err, field_type(f->kinds, "ts"), FBEI_GOT_STRING, NULL), &err, FBE_ERR_TYPE,
         "expected timestamp, got a string");
  expect(fbei_error_type(&err, field_type(f->kinds, "orders"), FBEI_GOT_MAP, NULL), &err, FBE_ERR_TYPE,
         "expected vector of inp.Order, got a map");
  expect(fbei_error_type_struct(&err, f->order, FBEI_GOT_STRUCT, "proto.Balance"), &err, FBE_ERR_TYPE,
         "expected inp.Order, got a struct proto.Balance");
  expect(fbei_error_timestamp_number(&err), &err, FBE_ERR_TYPE,
         "expected timestamp, got a number (ambiguous: pass a bigint of nanoseconds or a Date)");
  /* the messages fill err after an earlier error's path: the path is cleared */
  fbei_error_prepend_field(&err, "x");
  expect(fbei_error_type(&err, i, FBEI_GOT_NULL, NULL), &err, FBE_ERR_TYPE, "expected int32, got null");
  assert_int_equal(fbei_error_type(NULL, i, FBEI_GOT_NULL, NULL), FBE_ERR_TYPE);
}

static void test_unknown_field(void **state) {
  fixture *f = *state;
  fbe_error err;
  expect(fbei_error_unknown_field(&err, f->order, "symbl", 5), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field 'symbl' of inp.Order (did you mean 'symbol'?)");
  expect(fbei_error_unknown_field(&err, f->order, "Price", 5), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field 'Price' of inp.Order (did you mean 'price'?)");
  /* not terminated: only length bytes count */
  expect(fbei_error_unknown_field(&err, f->order, "sidexyz", 4), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field 'side' of inp.Order");
  expect(fbei_error_unknown_field(&err, f->order, "quantity", 8), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field 'quantity' of inp.Order");
  /* a third of the longer name: "ide" is 1 from "id" (3/3 = 1), "sde" 2 from "side" (4/3 = 1) */
  expect(fbei_error_unknown_field(&err, f->order, "ide", 3), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field 'ide' of inp.Order (did you mean 'id'?)");
  expect(fbei_error_unknown_field(&err, f->order, "sd", 2), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field 'sd' of inp.Order");
  /* ties: schema order */
  expect(fbei_error_unknown_field(&err, f->tie, "abx", 3), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field 'abx' of inp.Tie (did you mean 'abc'?)");
  expect(fbei_error_unknown_field(&err, f->order, "", 0), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field '' of inp.Order");
  char longname[300];
  memset(longname, 'q', sizeof longname);
  expect(fbei_error_unknown_field(&err, f->order, longname, sizeof longname), &err, FBE_ERR_UNKNOWN_FIELD,
         "unknown field 'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq...' of inp.Order");
}

static void test_unknown_type(void **state) {
  fixture *f = *state;
  fbe_error err;
  expect(fbei_error_unknown_type(&err, f->schema, "struct", "Ordr", 4), &err, FBE_ERR_NOT_FOUND,
         "no struct 'Ordr' in package inp (did you mean 'Order'?)");
  expect(fbei_error_unknown_type(&err, f->schema, "type", "inp.Sidee", 9), &err, FBE_ERR_NOT_FOUND,
         "no type 'inp.Sidee' in package inp (did you mean 'inp.Side'?)");
  /* an enum is no suggestion for a struct lookup, and a far name gets none */
  expect(fbei_error_unknown_type(&err, f->schema, "struct", "Sidd", 4), &err, FBE_ERR_NOT_FOUND,
         "no struct 'Sidd' in package inp");
  expect(fbei_error_unknown_type(&err, f->schema, "enum", "Sidd", 4), &err, FBE_ERR_NOT_FOUND,
         "no enum or flags 'Sidd' in package inp (did you mean 'Side'?)");
  expect(fbei_error_unordered(&err, f->tie), &err, FBE_ERR_TYPE,
         "inp.Tie has no [key] fields: its values have no order");
}

static void test_bad_text(void **state) {
  (void)state;
  fbe_error err;
  expect(fbei_error_bad_text(&err, FBE_KIND_UUID, "xyz", 3), &err, FBE_ERR_ARGUMENT,
         "'xyz' is not a uuid (8-4-4-4-12 hexadecimal digits)");
  expect(fbei_error_bad_text(&err, FBE_KIND_DECIMAL, "abc", 3), &err, FBE_ERR_ARGUMENT,
         "'abc' is not a decimal number");
  expect(fbei_error_bad_text(&err, FBE_KIND_CHAR, "ab", 2), &err, FBE_ERR_ARGUMENT, "'ab' is not one character");
  expect(fbei_error_bad_text(&err, FBE_KIND_WCHAR, "", 0), &err, FBE_ERR_ARGUMENT, "'' is not one character");
  expect(fbei_error_bad_text(&err, FBE_KIND_BYTES, "%%%", 3), &err, FBE_ERR_ARGUMENT, "'%%%' is not Base64");
  expect(fbei_error_bad_text(&err, FBE_KIND_STRING, "a\xff", 2), &err, FBE_ERR_ARGUMENT,
         "'a\\xff' is not UTF-8 text");
  expect(fbei_error_bad_text(&err, FBE_KIND_INT32, "12a", 3), &err, FBE_ERR_ARGUMENT, "'12a' is not an int32");
  expect(fbei_error_bad_text(&err, FBE_KIND_TIMESTAMP, "x", 1), &err, FBE_ERR_ARGUMENT, "'x' is not a timestamp");
  /* control characters escaped, long texts cut at a character */
  expect(fbei_error_bad_text(&err, FBE_KIND_UUID, "a\nb", 3), &err, FBE_ERR_ARGUMENT,
         "'a\\x0ab' is not a uuid (8-4-4-4-12 hexadecimal digits)");
  const char *euros = "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
                      "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
                      "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"; /* 17 x 3 bytes */
  expect(fbei_error_bad_text(&err, FBE_KIND_DECIMAL, euros, strlen(euros)), &err, FBE_ERR_ARGUMENT,
         "'\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
         "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac..."
         "' is not a decimal number");
}

static void test_ranges(void **state) {
  fixture *f = *state;
  fbe_error err;
  expect(fbei_error_array_length(&err, field_type(f->kinds, "arr"), 2), &err, FBE_ERR_RANGE,
         "expected 3 elements for array[3] of int32, got 2");
  expect(fbei_error_int_range(&err, 0, 300, FBE_KIND_UINT8), &err, FBE_ERR_RANGE, "value 300 does not fit uint8");
  expect(fbei_error_int_range(&err, 1, 1, FBE_KIND_UINT32), &err, FBE_ERR_RANGE, "value -1 does not fit uint32");
  expect(fbei_error_int_range(&err, 1, 0, FBE_KIND_UINT32), &err, FBE_ERR_RANGE, "value 0 does not fit uint32");
  expect(fbei_error_int_range(&err, 1, (uint64_t)1 << 63 | 1, FBE_KIND_INT64), &err, FBE_ERR_RANGE,
         "value -9223372036854775809 does not fit int64");
  expect(fbei_error_int_range(&err, 0, UINT64_MAX, FBE_KIND_CHAR), &err, FBE_ERR_RANGE,
         "value 18446744073709551615 does not fit char");
  /* the same words as fbei_error_range */
  fbe_error other;
  fbei_error_range(&other, "300", FBE_KIND_UINT8);
  fbei_error_int_range(&err, 0, 300, FBE_KIND_UINT8);
  assert_string_equal(err.message, other.message);
}

static uint64_t parse_ok(const fbe_enum *e, const char *text) {
  uint64_t v = 12345;
  fbe_error err;
  if (fbe_enum_parse(e, text, strlen(text), &v, &err)) fail_msg("'%s': %s", text, err.message);
  return v;
}

static void parse_bad(const fbe_enum *e, const char *text, const char *message) {
  uint64_t v = 12345;
  fbe_error err;
  expect(fbe_enum_parse(e, text, strlen(text), &v, &err), &err, FBE_ERR_ARGUMENT, message);
  assert_int_equal(v, 12345); /* untouched */
}

static void test_enum_find(void **state) {
  fixture *f = *state;
  uint64_t v = 99;
  assert_true(fbe_enum_find(f->side, "sell", 4, &v));
  assert_int_equal(v, 1);
  assert_true(fbe_enum_find(f->side, "buyer", 3, &v)); /* length bytes only */
  assert_int_equal(v, 0);
  assert_false(fbe_enum_find(f->side, "sel", 3, &v));
  assert_false(fbe_enum_find(f->side, "sells", 5, &v));
  assert_false(fbe_enum_find(f->side, "", 0, &v));
  assert_false(fbe_enum_find(NULL, "buy", 3, &v));
  assert_true(fbe_enum_find(f->state, "good", 4, NULL));
  assert_true(fbe_enum_find(f->small, "top", 3, &v));
  assert_int_equal(v, (uint64_t)-128); /* sign-extended, as fbe_enum_value_at */
}

static void test_enum_parse(void **state) {
  fixture *f = *state;
  assert_int_equal(parse_ok(f->side, "sell"), 1);
  parse_bad(f->side, "sideways", "'sideways' is not a value of inp.Side");
  parse_bad(f->side, "sel", "'sel' is not a value of inp.Side (did you mean 'sell'?)");
  parse_bad(f->side, "1", "'1' is not a value of inp.Side"); /* an enum's text is a name */
  parse_bad(f->side, " buy", "' buy' is not a value of inp.Side (did you mean 'buy'?)");
  parse_bad(f->side, "", "'' is not a value of inp.Side");

  assert_int_equal(parse_ok(f->state, "initialized|calculated"), 6);
  assert_int_equal(parse_ok(f->state, " good | 64 "), 70);
  assert_int_equal(parse_ok(f->state, "good|64"), 70);
  assert_int_equal(parse_ok(f->state, "unknown"), 0);
  assert_int_equal(parse_ok(f->state, "0"), 0);
  assert_int_equal(parse_ok(f->state, "255"), 255);
  assert_int_equal(parse_ok(f->nozero, "a|b|65535"), 65535);
  assert_int_equal(parse_ok(f->small, "top|lo"), (uint64_t)-127); /* sign-extended */
  assert_int_equal(parse_ok(f->small, "128"), (uint64_t)-128);
  parse_bad(f->state, "nope", "'nope' is not a value of inp.State");
  parse_bad(f->state, "good|invalidd", "'invalidd' is not a value of inp.State (did you mean 'invalid'?)");
  parse_bad(f->state, "good||invalid", "'' is not a value of inp.State");
  parse_bad(f->state, "good|", "'' is not a value of inp.State");
  parse_bad(f->state, "", "'' is not a value of inp.State");
  parse_bad(f->state, "256", "'256' is not a value of inp.State"); /* beyond the base's width */
  parse_bad(f->state, "-1", "'-1' is not a value of inp.State");
  parse_bad(f->state, "99999999999999999999999", "'99999999999999999999999' is not a value of inp.State");
  parse_bad(f->state, "GOOD", "'GOOD' is not a value of inp.State");

  /* the text form's flags names parse back to the same value */
  for (unsigned v = 0; v < 256; v++) {
    fbe_buffer b;
    fbe_buffer_init(&b);
    assert_int_equal(fbe_text_write_enum(f->state, v, &b, NULL), FBE_OK);
    uint64_t back = 0;
    assert_int_equal(fbe_enum_parse(f->state, (const char *)b.data, b.size, &back, NULL), FBE_OK);
    assert_int_equal(back, v);
    fbe_buffer_free(&b);
  }
  uint64_t v;
  fbe_error err;
  expect(fbe_enum_parse(NULL, "a", 1, &v, &err), &err, FBE_ERR_ARGUMENT, "fbe_enum_parse: no type, text or output");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_type_words),   cmocka_unit_test(test_type_errors),
      cmocka_unit_test(test_unknown_field), cmocka_unit_test(test_unknown_type),
      cmocka_unit_test(test_bad_text),
      cmocka_unit_test(test_ranges),       cmocka_unit_test(test_enum_find),
      cmocka_unit_test(test_enum_parse),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

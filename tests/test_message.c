/* Unit tests of the dynamic messages (core/include/fbe/message.h): defaults
 * (SCHEMA.md 7), navigation, typed setters and their range checks, optionals,
 * collections, arrays and deep equality. Values are built with the fbe_ref API only. */
#include <float.h>
#include <math.h>
#include "fbe_test.h"

typedef struct fixture {
  fbe_schema *schema; /* test.fbe (imports proto) */
  const fbe_struct *simple, *optional, *nested, *array, *vector, *list, *set, *map, *hash,
      *hash_ex, *account;
  fbe_arena *arena;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  assert_non_null(f);
  f->schema = t_load("test.fbe");
  f->simple = t_struct(f->schema, "test.StructSimple");
  f->optional = t_struct(f->schema, "test.StructOptional");
  f->nested = t_struct(f->schema, "test.StructNested");
  f->array = t_struct(f->schema, "test.StructArray");
  f->vector = t_struct(f->schema, "test.StructVector");
  f->list = t_struct(f->schema, "test.StructList");
  f->set = t_struct(f->schema, "test.StructSet");
  f->map = t_struct(f->schema, "test.StructMap");
  f->hash = t_struct(f->schema, "test.StructHash");
  f->hash_ex = t_struct(f->schema, "test.StructHashEx");
  f->account = t_struct(f->schema, "proto.Account");
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->schema);
  free(f);
  return 0;
}

/* A fresh arena per test, freed by the per-test teardown. */
static int test_setup(void **state) {
  fixture *f = *state;
  f->arena = fbe_arena_new();
  assert_non_null(f->arena);
  return 0;
}

static int test_teardown(void **state) {
  fixture *f = *state;
  fbe_arena_free(f->arena);
  f->arena = NULL;
  return 0;
}

static uint32_t float_bits(double widened) {
  float x = (float)widened;
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}

static uint64_t double_bits(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return b;
}

static void assert_decimal_bytes(fbe_ref r, const char *path, const char *hex) {
  fbe_decimal d;
  T_CHECK(fbe_ref_get_decimal(t_path(r, path), &d), path);
  t_assert_bytes(d.bytes, 16, hex);
}

static void assert_uuid_bytes(fbe_ref r, const char *path, const char *hex) {
  fbe_uuid u;
  T_CHECK(fbe_ref_get_uuid(t_path(r, path), &u), path);
  t_assert_bytes(u.bytes, 16, hex);
}

static fbe_uuid get_uuid(fbe_ref r, const char *path) {
  fbe_uuid u;
  T_CHECK(fbe_ref_get_uuid(t_path(r, path), &u), path);
  return u;
}

/* RFC 4122 time-based uuid: version nibble 1 and variant bits 10. */
static void assert_uuid_v1(fbe_uuid u) {
  assert_int_equal(u.bytes[6] >> 4, 1);
  assert_int_equal(u.bytes[8] & 0xc0, 0x80);
}

#define UUID_123E "12 3e 45 67 e8 9b 12 d3 a4 56 42 66 55 44 00 00"
#define DEC_123456_123456 "40 f2 8e be 1c 00 00 00 00 00 00 00 00 00 06 00"

/* SCHEMA.md 7.2/7.4: a new test.StructSimple carries every declared and implicit default. */
static void test_struct_simple_defaults(void **state) {
  fixture *f = *state;
  uint64_t before = t_now_ns();
  fbe_msg *m = t_new(f->arena, f->simple);
  uint64_t after = t_now_ns();
  fbe_ref r = fbe_msg_ref(m);
  assert_ptr_equal(fbe_msg_type(m), f->simple);
  assert_ptr_equal(fbe_msg_arena(m), f->arena);
  assert_int_equal(fbe_ref_kind(r), FBE_KIND_STRUCT);

  assert_int_equal(t_int(r, "id"), 0);
  assert_int_equal(t_bool(r, "f1"), 0);
  assert_int_equal(t_bool(r, "f2"), 1);
  assert_int_equal(t_uint(r, "f3"), 0);
  assert_int_equal(t_uint(r, "f4"), 255);
  assert_int_equal(t_uint(r, "f5"), 0);
  assert_int_equal(t_uint(r, "f6"), '!');
  assert_int_equal(t_uint(r, "f7"), 0);
  assert_int_equal(t_uint(r, "f8"), 0x444);
  assert_int_equal(t_int(r, "f9"), 0);
  assert_int_equal(t_int(r, "f10"), 127);
  assert_int_equal(t_uint(r, "f11"), 0);
  assert_int_equal(t_uint(r, "f12"), 255);
  assert_int_equal(t_int(r, "f13"), 0);
  assert_int_equal(t_int(r, "f14"), 32767);
  assert_int_equal(t_uint(r, "f15"), 0);
  assert_int_equal(t_uint(r, "f16"), 65535);
  assert_int_equal(t_int(r, "f17"), 0);
  assert_int_equal(t_int(r, "f18"), INT32_MAX);
  assert_int_equal(t_uint(r, "f19"), 0);
  assert_int_equal(t_uint(r, "f20"), UINT32_MAX);
  assert_int_equal(t_int(r, "f21"), 0);
  assert_true(t_int(r, "f22") == INT64_MAX);
  assert_int_equal(t_uint(r, "f23"), 0);
  assert_true(t_uint(r, "f24") == UINT64_MAX);
  assert_int_equal(float_bits(t_dbl(r, "f25")), 0);
  /* float default rounded to binary32 (SCHEMA.md 7.2): 123.456 -> 0x42F6E979 */
  assert_int_equal(float_bits(t_dbl(r, "f26")), 0x42f6e979u);
  assert_true(t_dbl(r, "f26") == (double)(float)123.456);  /* the cast rounds: FLT_EVAL_METHOD may be 1 or 2 */
  assert_true(double_bits(t_dbl(r, "f27")) == 0);
  assert_true(double_bits(t_dbl(r, "f28")) == double_bits(-123.456e+123));
  assert_decimal_bytes(r, "f29", "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
  assert_decimal_bytes(r, "f30", DEC_123456_123456); /* FORMAT.md 3.2 table */
  t_assert_str(r, "f31", "");
  t_assert_str(r, "f32", "Initial string!");
  assert_int_equal(t_uint(r, "f33"), 0);
  assert_int_equal(t_uint(r, "f34"), 0); /* epoch */
  uint64_t f35 = t_uint(r, "f35");       /* utc, evaluated at creation */
  if (f35 < before || f35 > after)
    fail_msg("f35 = %llu not within [%llu, %llu]", (unsigned long long)f35,
             (unsigned long long)before, (unsigned long long)after);
  assert_uuid_bytes(r, "f36", "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
  assert_uuid_v1(get_uuid(r, "f37"));
  assert_uuid_bytes(r, "f38", UUID_123E);
  assert_int_equal(t_uint(r, "f39"), 0);
  assert_int_equal(t_uint(r, "f40"), 0);
  assert_int_equal(t_int(r, "f41.id"), 0);
  t_assert_str(r, "f41.symbol", "");
  assert_true(t_dbl(r, "f41.price") == 0.0);
  t_assert_str(r, "f42.currency", "");
  assert_int_equal(t_uint(r, "f43"), 0); /* flags without a default: 0 (SCHEMA.md 7.4) */
  /* proto.Account.state = State.initialized | State.bad = 2 | (0|1|8) = 11 */
  assert_int_equal(t_uint(r, "f44.state"), 11);
  t_assert_null(r, "f44.asset");
  assert_int_equal(fbe_ref_count(t_path(r, "f44.orders")), 0);
  t_assert_str(r, "f44.wallet.currency", "");
}

/* SCHEMA.md 7.3: utc/uuid1 are evaluated per value: two messages differ in f37. */
static void test_dynamic_defaults_per_message(void **state) {
  fixture *f = *state;
  fbe_msg *a = t_new(f->arena, f->simple);
  fbe_msg *b = t_new(f->arena, f->simple);
  fbe_uuid ua = get_uuid(fbe_msg_ref(a), "f37"), ub = get_uuid(fbe_msg_ref(b), "f37");
  assert_uuid_v1(ua);
  assert_uuid_v1(ub);
  assert_memory_not_equal(ua.bytes, ub.bytes, 16);
  /* Inline nested structs get their own evaluation too (StructNested.f1008 is a
   * StructSimple). */
  fbe_msg *n = t_new(f->arena, f->nested);
  fbe_ref nr = fbe_msg_ref(n);
  fbe_uuid outer = get_uuid(nr, "f37"), inner = get_uuid(nr, "f1008.f37");
  assert_uuid_v1(inner);
  assert_memory_not_equal(outer.bytes, inner.bytes, 16);
}

/* SCHEMA.md 7.5: optionals with a non-null default start present. */
static void test_struct_optional_defaults(void **state) {
  fixture *f = *state;
  uint64_t before = t_now_ns();
  fbe_msg *m = t_new(f->arena, f->optional);
  uint64_t after = t_now_ns();
  fbe_ref r = fbe_msg_ref(m);
  /* inherited StructSimple fields first */
  assert_int_equal(t_bool(r, "f2"), 1);
  t_assert_str(r, "f32", "Initial string!");
  assert_int_equal(fbe_struct_field_count(f->optional), 45 + 66);

  t_assert_null(r, "f100");
  assert_int_equal(t_bool(t_deref(r, "f101"), ""), 1);
  t_assert_null(r, "f102");
  t_assert_null(r, "f103");
  assert_int_equal(t_uint(t_deref(r, "f104"), ""), 255);
  t_assert_null(r, "f105");
  assert_int_equal(t_uint(t_deref(r, "f107"), ""), '!');
  assert_int_equal(t_uint(t_deref(r, "f110"), ""), 0x444);
  assert_int_equal(t_int(t_deref(r, "f113"), ""), 127);
  assert_int_equal(t_uint(t_deref(r, "f116"), ""), 255);
  assert_int_equal(t_int(t_deref(r, "f119"), ""), 32767);
  assert_int_equal(t_uint(t_deref(r, "f122"), ""), 65535);
  assert_int_equal(t_int(t_deref(r, "f125"), ""), INT32_MAX);
  assert_int_equal(t_uint(t_deref(r, "f128"), ""), UINT32_MAX);
  assert_true(t_int(t_deref(r, "f131"), "") == INT64_MAX);
  assert_true(t_uint(t_deref(r, "f134"), "") == UINT64_MAX);
  assert_int_equal(float_bits(t_dbl(t_deref(r, "f137"), "")), 0x42f6e979u);
  assert_true(double_bits(t_dbl(t_deref(r, "f140"), "")) == double_bits(-123.456e+123));
  fbe_decimal d;
  T_CHECK(fbe_ref_get_decimal(t_deref(r, "f143"), &d), "f143");
  t_assert_bytes(d.bytes, 16, DEC_123456_123456);
  t_assert_null(r, "f144");
  t_assert_null(r, "f145");
  t_assert_str(t_deref(r, "f146"), "", "Initial string!");
  t_assert_null(r, "f147");
  uint64_t ts = t_uint(t_deref(r, "f149"), ""); /* timestamp? = utc */
  assert_true(ts >= before && ts <= after);
  fbe_uuid u;
  T_CHECK(fbe_ref_get_uuid(t_deref(r, "f152"), &u), "f152");
  t_assert_bytes(u.bytes, 16, UUID_123E);
  const char *nulls[] = {"f150", "f151", "f153", "f154", "f155", "f156", "f157", "f158",
                         "f159", "f160", "f161", "f162", "f163", "f164", "f165"};
  for (size_t i = 0; i < sizeof nulls / sizeof *nulls; i++) t_assert_null(r, nulls[i]);
}

/* message.h navigation: by name and by index reach the same slot; bad names, indexes
 * and kinds give a ref with slot == NULL. */
static void test_navigation(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_new(f->arena, f->simple);
  fbe_ref r = fbe_msg_ref(m);
  size_t n = fbe_struct_field_count(f->simple);
  assert_int_equal(n, 45); /* id, f1 .. f44 */
  for (size_t i = 0; i < n; i++) {
    const fbe_field *fd = fbe_struct_field_at(f->simple, i);
    fbe_ref by_index = fbe_ref_field_at(r, i);
    fbe_ref by_name = fbe_ref_field(r, fbe_field_name(fd));
    assert_true(fbe_ref_ok(by_index));
    assert_ptr_equal(by_index.slot, by_name.slot);
    assert_ptr_equal(by_index.type, fbe_field_type(fd));
    assert_int_equal(fbe_field_index(fd), i);
  }
  assert_int_equal(fbe_ref_kind(fbe_ref_field_at(r, 0)), FBE_KIND_INT32);
  assert_int_equal(fbe_ref_kind(fbe_ref_field(r, "f32")), FBE_KIND_STRING);
  assert_int_equal(fbe_ref_kind(fbe_ref_field(r, "f39")), FBE_KIND_ENUM);
  assert_int_equal(fbe_ref_kind(fbe_ref_field(r, "f43")), FBE_KIND_FLAGS);
  assert_int_equal(fbe_ref_kind(fbe_ref_field_at(r, 44)), FBE_KIND_STRUCT);
  assert_false(fbe_ref_ok(fbe_ref_field_at(r, 45)));
  assert_false(fbe_ref_ok(fbe_ref_field_at(r, (size_t)-1)));
  assert_false(fbe_ref_ok(fbe_ref_field(r, "nope")));
  assert_false(fbe_ref_ok(fbe_ref_field(r, "F1")));
  assert_false(fbe_ref_ok(fbe_ref_field(r, "")));
  /* fields of a scalar do not exist; a failed step stays failed */
  fbe_ref id = fbe_ref_field(r, "id");
  assert_false(fbe_ref_ok(fbe_ref_field(id, "x")));
  assert_false(fbe_ref_ok(fbe_ref_field_at(id, 0)));
  assert_false(fbe_ref_ok(fbe_ref_field(fbe_ref_field(r, "nope"), "id")));
  assert_false(fbe_ref_ok(fbe_ref_at(id, 0)));

  /* nested: f44 (proto.Account) -> wallet (index 3) -> currency */
  fbe_ref acc = fbe_ref_field_at(r, 44);
  fbe_ref wallet = fbe_ref_field_at(acc, 3);
  assert_ptr_equal(wallet.slot, fbe_ref_field(acc, "wallet").slot);
  fbe_ref cur = fbe_ref_field(wallet, "currency");
  assert_int_equal(fbe_ref_kind(cur), FBE_KIND_STRING);
  /* writes through one path are visible through the other */
  t_set_str(cur, "", "CHF");
  t_assert_str(r, "f44.wallet.currency", "CHF");
  T_CHECK(fbe_ref_set_int(fbe_ref_field_at(r, 0), 77, NULL), "id");
  assert_int_equal(t_int(r, "id"), 77);
  /* nested value is a different struct from the outer one (inline, not shared) */
  t_set_str(r, "f42.currency", "EUR");
  t_assert_str(r, "f44.wallet.currency", "CHF");
}

/* message.h: setters fail with FBE_ERR_RANGE when the value does not fit and leave
 * the value unchanged. */
static void test_setter_ranges(void **state) {
  fixture *f = *state;
  fbe_ref r = fbe_msg_ref(t_new(f->arena, f->simple));
  struct {
    const char *field;
    int64_t ok_lo, ok_hi, bad_lo, bad_hi;
  } sig[] = {
      {"f9", INT8_MIN, INT8_MAX, (int64_t)INT8_MIN - 1, (int64_t)INT8_MAX + 1},
      {"f13", INT16_MIN, INT16_MAX, (int64_t)INT16_MIN - 1, (int64_t)INT16_MAX + 1},
      {"f17", INT32_MIN, INT32_MAX, (int64_t)INT32_MIN - 1, (int64_t)INT32_MAX + 1},
  };
  for (size_t i = 0; i < sizeof sig / sizeof *sig; i++) {
    fbe_ref x = t_path(r, sig[i].field);
    assert_int_equal(fbe_ref_set_int(x, sig[i].ok_hi, NULL), FBE_OK);
    assert_int_equal(t_int(x, ""), sig[i].ok_hi);
    assert_int_equal(fbe_ref_set_int(x, sig[i].bad_hi, NULL), FBE_ERR_RANGE);
    assert_int_equal(fbe_ref_set_uint(x, (uint64_t)sig[i].bad_hi, NULL), FBE_ERR_RANGE);
    assert_int_equal(t_int(x, ""), sig[i].ok_hi); /* unchanged */
    assert_int_equal(fbe_ref_set_int(x, sig[i].ok_lo, NULL), FBE_OK);
    assert_int_equal(t_int(x, ""), sig[i].ok_lo);
    assert_int_equal(fbe_ref_set_int(x, sig[i].bad_lo, NULL), FBE_ERR_RANGE);
    assert_int_equal(t_int(x, ""), sig[i].ok_lo);
  }
  /* the brief's examples: int8 128, uint8 -1 */
  assert_int_equal(fbe_ref_set_int(t_path(r, "f9"), 128, NULL), FBE_ERR_RANGE);
  assert_int_equal(fbe_ref_set_int(t_path(r, "f11"), -1, NULL), FBE_ERR_RANGE);

  struct {
    const char *field;
    uint64_t max;
  } uns[] = {{"f3", 0xff},        {"f11", 0xff},       {"f5", 0xff},  /* byte, uint8, char */
             {"f15", 0xffff},     {"f19", 0xffffffffu}, {"f7", 0xffffffffu}, /* wchar */
             {"f39", 0xff},       {"f43", 0xff}}; /* byte enum, byte flags */
  for (size_t i = 0; i < sizeof uns / sizeof *uns; i++) {
    fbe_ref x = t_path(r, uns[i].field);
    assert_int_equal(fbe_ref_set_uint(x, uns[i].max, NULL), FBE_OK);
    assert_true(t_uint(x, "") == uns[i].max);
    assert_int_equal(fbe_ref_set_uint(x, uns[i].max + 1, NULL), FBE_ERR_RANGE);
    assert_int_equal(fbe_ref_set_int(x, (int64_t)uns[i].max + 1, NULL), FBE_ERR_RANGE);
    assert_int_equal(fbe_ref_set_int(x, -1, NULL), FBE_ERR_RANGE);
    assert_true(t_uint(x, "") == uns[i].max);
  }
  /* 64-bit edges */
  assert_int_equal(fbe_ref_set_int(t_path(r, "f21"), INT64_MIN, NULL), FBE_OK);
  assert_true(t_int(r, "f21") == INT64_MIN);
  assert_int_equal(fbe_ref_set_uint(t_path(r, "f21"), (uint64_t)INT64_MAX + 1, NULL), FBE_ERR_RANGE);
  assert_true(t_int(r, "f21") == INT64_MIN);
  assert_int_equal(fbe_ref_set_uint(t_path(r, "f23"), UINT64_MAX, NULL), FBE_OK);
  assert_int_equal(fbe_ref_set_int(t_path(r, "f23"), -1, NULL), FBE_ERR_RANGE);
  assert_true(t_uint(r, "f23") == UINT64_MAX);
  /* timestamps are unsigned nanoseconds (FORMAT.md 3.3) */
  assert_int_equal(fbe_ref_set_uint(t_path(r, "f33"), UINT64_MAX, NULL), FBE_OK);
  assert_int_equal(fbe_ref_set_int(t_path(r, "f33"), -1, NULL), FBE_ERR_RANGE);
  /* getters that cannot represent the value refuse it */
  int64_t i64;
  uint64_t u64;
  assert_int_not_equal(fbe_ref_get_int(t_path(r, "f23"), &i64), FBE_OK); /* 2^64-1 */
  T_CHECK(fbe_ref_set_int(t_path(r, "f9"), -5, NULL), "f9");
  assert_int_not_equal(fbe_ref_get_uint(t_path(r, "f9"), &u64), FBE_OK);
  /* bool goes through int too: 0/1 fit, 2 does not */
  assert_int_equal(fbe_ref_set_int(t_path(r, "f1"), 1, NULL), FBE_OK);
  assert_int_equal(t_bool(r, "f1"), 1);
  assert_int_equal(fbe_ref_set_int(t_path(r, "f1"), 2, NULL), FBE_ERR_RANGE);
  /* unknown enum values are legal (FORMAT.md 3.6 / 8.3) */
  assert_int_equal(fbe_ref_set_int(t_path(r, "f39"), 200, NULL), FBE_OK);
  assert_int_equal(t_uint(r, "f39"), 200);
  /* a decimal scale above 28 is not a decimal (FORMAT.md 3.2) */
  fbe_decimal bad = t_dec("1");
  bad.bytes[14] = 29;
  assert_int_not_equal(fbe_ref_set_decimal(t_path(r, "f29"), &bad, NULL), FBE_OK);
}

/* message.h: a setter or getter of the wrong kind fails with FBE_ERR_TYPE. */
/* The setters' errors (message.h): status and text in the input vocabulary's words. */
static void expect_error(fbe_status got, const fbe_error *err, fbe_status status, const char *text) {
  assert_int_equal(got, status);
  assert_int_equal(err->code, status);
  assert_string_equal(err->message, text);
}

static void test_setter_errors(void **state) {
  fixture *f = *state;
  fbe_ref r = fbe_msg_ref(t_new(f->arena, f->simple));
  fbe_error e;
  fbe_decimal dv = t_dec("1.5");
  fbe_uuid uv = t_uuid("123e4567-e89b-12d3-a456-426655440000");
  /* wrong kind: the ref's type in the vocabulary's words */
  expect_error(fbe_ref_set_int(t_path(r, "f32"), 1, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_int: the value is a string, not an integer kind (integers, bool, char, wchar, "
               "enums, flags, timestamp)");
  expect_error(fbe_ref_set_uint(t_path(r, "f44.orders"), 1, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_uint: the value is a vector of proto.Order, not an integer kind (integers, bool, "
               "char, wchar, enums, flags, timestamp)");
  expect_error(fbe_ref_set_double(t_path(r, "f29"), 1, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_double: the value is a decimal, not a float or double");
  expect_error(fbe_ref_set_bool(t_path(r, "id"), 1, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_bool: the value is an int32, not a bool");
  expect_error(fbe_ref_set_string(t_path(r, "f41"), "x", &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_string: the value is a proto.Order, not a string or bytes");
  expect_error(fbe_ref_set_bytes(t_path(r, "f39"), "x", 1, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_bytes: the value is a proto.OrderSide, not a string or bytes");
  expect_error(fbe_ref_set_decimal(t_path(r, "f36"), &dv, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_decimal: the value is a uuid, not a decimal");
  expect_error(fbe_ref_set_uuid(t_path(r, "f29"), &uv, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_uuid: the value is a decimal, not a uuid");
  expect_error(fbe_ref_set_null(t_path(r, "id"), &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_null: the value is an int32, not an optional");
  expect_error(fbe_ref_clear(t_path(r, "f41"), &e), &e, FBE_ERR_TYPE,
               "fbe_ref_clear: the value is a proto.Order, not a vector, list, set, map or hash");
  fbe_ref o = fbe_msg_ref(t_new(f->arena, f->optional));
  expect_error(fbe_ref_set_int(t_path(o, "f124"), 5, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_int: the value is an int32 or null, not an integer kind (integers, bool, char, "
               "wchar, enums, flags, timestamp)");
  expect_error(fbe_ref_set_int(fbe_ref_field(r, "nope"), 1, &e), &e, FBE_ERR_TYPE,
               "fbe_ref_set_int: no value (a ref that navigation did not find)");
  /* out of range: the vocabulary's words, enums and flags by their base */
  expect_error(fbe_ref_set_int(t_path(r, "f11"), 300, &e), &e, FBE_ERR_RANGE, "value 300 does not fit uint8");
  expect_error(fbe_ref_set_int(t_path(r, "f11"), -1, &e), &e, FBE_ERR_RANGE, "value -1 does not fit uint8");
  expect_error(fbe_ref_set_int(t_path(r, "f9"), INT64_MIN, &e), &e, FBE_ERR_RANGE,
               "value -9223372036854775808 does not fit int8");
  expect_error(fbe_ref_set_uint(t_path(r, "f21"), UINT64_MAX, &e), &e, FBE_ERR_RANGE,
               "value 18446744073709551615 does not fit int64");
  expect_error(fbe_ref_set_int(t_path(r, "f1"), 2, &e), &e, FBE_ERR_RANGE, "value 2 does not fit bool");
  expect_error(fbe_ref_set_int(t_path(r, "f39"), 256, &e), &e, FBE_ERR_RANGE, "value 256 does not fit byte");
  expect_error(fbe_ref_set_int(t_path(r, "f33"), -1, &e), &e, FBE_ERR_RANGE, "value -1 does not fit timestamp");
  expect_error(fbe_ref_set_uint(t_path(r, "f7"), 0x110000000ull, &e), &e, FBE_ERR_RANGE,
               "value 4563402752 does not fit wchar");
  fbe_decimal bad = dv;
  bad.bytes[14] = 29;
  expect_error(fbe_ref_set_decimal(t_path(r, "f29"), &bad, &e), &e, FBE_ERR_RANGE,
               "fbe_ref_set_decimal: scale 29 is above 28");
  bad = dv;
  bad.bytes[12] = 1;
  expect_error(fbe_ref_set_decimal(t_path(r, "f29"), &bad, &e), &e, FBE_ERR_RANGE,
               "fbe_ref_set_decimal: reserved bits are set");
  /* a string that is not UTF-8: fbe_utf8_check's words and the bad byte's offset */
  assert_int_equal(fbe_ref_set_bytes(t_path(r, "f32"), "ab\xff", 3, &e), FBE_ERR_ARGUMENT);
  assert_int_equal(e.offset, 2);
  fbe_error check;
  fbe_utf8_check("ab\xff", 3, &check);
  assert_string_equal(e.message, check.message);
  /* success leaves err alone; NULL is allowed */
  e.code = FBE_ERR_IO;
  assert_int_equal(fbe_ref_set_int(t_path(r, "f11"), 255, &e), FBE_OK);
  assert_int_equal(e.code, FBE_ERR_IO);
  assert_int_equal(fbe_ref_set_int(t_path(r, "f11"), 256, NULL), FBE_ERR_RANGE);
  assert_int_equal(t_int(r, "f11"), 255);
}

static void test_setter_wrong_kind(void **state) {
  fixture *f = *state;
  fbe_ref r = fbe_msg_ref(t_new(f->arena, f->simple));
  fbe_ref id = t_path(r, "id"), dbl = t_path(r, "f27"), str = t_path(r, "f32");
  fbe_ref st = t_path(r, "f41"), dec = t_path(r, "f29"), uid = t_path(r, "f36");
  fbe_ref flt = t_path(r, "f25");
  double d;
  const uint8_t *data;
  size_t size;
  fbe_decimal dv = t_dec("1.5");
  fbe_uuid uv = t_uuid("123e4567-e89b-12d3-a456-426655440000");
  assert_int_equal(fbe_ref_set_double(id, 1.0, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_get_double(id, &d), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_int(dbl, 1, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_uint(flt, 1, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_int(str, 1, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_string(id, "1", NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_get_bytes(id, &data, &size), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_bytes(st, "x", 1, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_int(st, 1, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_bool(id, 1, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_decimal(uid, &dv, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_uuid(dec, &uv, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_decimal(dbl, &dv, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_double(dec, 1.5, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_int(t_path(r, "f36"), 0, NULL), FBE_ERR_TYPE);
  /* an optional is not its value: deref/emplace first */
  fbe_ref o = fbe_msg_ref(t_new(f->arena, f->optional));
  assert_int_equal(fbe_ref_set_int(t_path(o, "f124"), 5, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_string(t_path(o, "f145"), "x", NULL), FBE_ERR_TYPE);
  /* collections are not scalars */
  assert_int_equal(fbe_ref_set_int(t_path(r, "f44.orders"), 1, NULL), FBE_ERR_TYPE);
  /* failed setters left the values alone */
  assert_int_equal(t_int(r, "id"), 0);
  t_assert_str(r, "f32", "Initial string!");
  /* operations on a ref that does not exist fail instead of crashing */
  fbe_ref none = fbe_ref_field(r, "nope");
  assert_int_not_equal(fbe_ref_set_int(none, 1, NULL), FBE_OK);
  assert_int_not_equal(fbe_ref_set_string(none, "x", NULL), FBE_OK);
  assert_int_not_equal(fbe_ref_set_null(none, NULL), FBE_OK);
  assert_int_not_equal(fbe_ref_clear(none, NULL), FBE_OK);
  assert_false(fbe_ref_ok(fbe_ref_append(none)));
  assert_false(fbe_ref_ok(fbe_ref_emplace(none)));
  assert_int_equal(fbe_ref_count(none), 0);
}

/* fbe_ref_field_find: the field, or why there is none in the JSON reader's words. */
static void test_field_find(void **state) {
  fixture *f = *state;
  fbe_ref r = fbe_msg_ref(t_new(f->arena, f->simple)), out;
  fbe_error e;
  assert_int_equal(fbe_ref_field_find(r, "f32xyz", 3, &out, &e), FBE_OK);
  assert_true(fbe_ref_ok(out));
  assert_int_equal(fbe_ref_kind(out), FBE_KIND_STRING);
  assert_int_equal(fbe_ref_field_find(r, "f3x", 3, &out, &e), FBE_ERR_UNKNOWN_FIELD);
  assert_false(fbe_ref_ok(out));
  assert_string_equal(e.message, "unknown field 'f3x' of test.StructSimple (did you mean 'f3'?)");
  assert_int_equal(fbe_ref_field_find(t_path(r, "id"), "x", 1, &out, &e), FBE_ERR_TYPE);
  assert_string_equal(e.message, "fbe_ref_field_find: the value is an int32, not a struct");
}

/* fbe_char_parse: one character, or the core's refusal. */
static void test_char_parse(void **state) {
  (void)state;
  uint32_t cp = 0;
  fbe_error e;
  assert_int_equal(fbe_char_parse(FBE_KIND_CHAR, "A", 1, &cp, &e), FBE_OK);
  assert_int_equal(cp, 65);
  assert_int_equal(fbe_char_parse(FBE_KIND_WCHAR, "\xe2\x82\xac", 3, &cp, &e), FBE_OK);
  assert_int_equal(cp, 0x20ac);
  assert_int_equal(fbe_char_parse(FBE_KIND_CHAR, "ab", 2, &cp, &e), FBE_ERR_ARGUMENT);
  assert_string_equal(e.message, "'ab' is not one character");
  assert_int_equal(fbe_char_parse(FBE_KIND_CHAR, "", 0, &cp, &e), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_char_parse(FBE_KIND_CHAR, "\xe2\x82\xac", 3, &cp, &e), FBE_ERR_RANGE);
  assert_int_equal(fbe_char_parse(FBE_KIND_INT32, "a", 1, &cp, &e), FBE_ERR_ARGUMENT);
}

/* A finite double past float's range does not fit a float (an infinity does). */
static void test_set_double_float_range(void **state) {
  fixture *f = *state;
  fbe_ref r = fbe_msg_ref(t_new(f->arena, f->simple));
  fbe_error e;
  assert_int_equal(fbe_ref_set_double(t_path(r, "f25"), 1e39, &e), FBE_ERR_RANGE);
  assert_int_equal(fbe_ref_set_double(t_path(r, "f25"), HUGE_VAL, &e), FBE_OK);
  assert_int_equal(fbe_ref_set_double(t_path(r, "f25"), 3.0e38, &e), FBE_OK);
}

/* message.h optionals: is_null / emplace / deref / set_null. Declared defaults are
 * shared schema data: changing one message's value must not change the default. */
static void test_optionals(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_new(f->arena, f->optional);
  fbe_ref r = fbe_msg_ref(m);

  fbe_ref f100 = t_path(r, "f100");
  assert_int_equal(fbe_ref_kind(f100), FBE_KIND_OPTIONAL);
  assert_true(fbe_ref_is_null(f100));
  assert_false(fbe_ref_ok(fbe_ref_deref(f100)));
  fbe_ref v = fbe_ref_emplace(f100);
  assert_true(fbe_ref_ok(v));
  assert_int_equal(fbe_ref_kind(v), FBE_KIND_BOOL);
  assert_int_equal(t_bool(v, ""), 0); /* default of the element type */
  assert_false(fbe_ref_is_null(f100));
  t_set_bool(v, "", 1);
  assert_int_equal(t_bool(t_deref(r, "f100"), ""), 1);
  /* emplace on a present value keeps the value */
  assert_int_equal(t_bool(fbe_ref_emplace(f100), ""), 1);
  assert_int_equal(fbe_ref_set_null(f100, NULL), FBE_OK);
  assert_true(fbe_ref_is_null(f100));
  assert_false(fbe_ref_ok(fbe_ref_deref(f100)));

  /* f101 = true, f104 = max, f146 = "Initial string!": change them in one message */
  t_set_bool(t_emplace(r, "f101"), "", 0);
  assert_int_equal(t_uint(t_emplace(r, "f104"), ""), 255);
  t_set_uint(t_emplace(r, "f104"), "", 7);
  t_set_str(t_emplace(r, "f146"), "", "changed");
  assert_int_equal(t_bool(t_deref(r, "f101"), ""), 0);
  assert_int_equal(t_uint(t_deref(r, "f104"), ""), 7);
  t_assert_str(t_deref(r, "f146"), "", "changed");
  /* ... a new message still gets the declared defaults */
  fbe_ref r2 = fbe_msg_ref(t_new(f->arena, f->optional));
  assert_int_equal(t_bool(t_deref(r2, "f101"), ""), 1);
  assert_int_equal(t_uint(t_deref(r2, "f104"), ""), 255);
  t_assert_str(t_deref(r2, "f146"), "", "Initial string!");
  /* set_null on an optional with a default makes it null (in memory) */
  assert_int_equal(fbe_ref_set_null(t_path(r2, "f101"), NULL), FBE_OK);
  t_assert_null(r2, "f101");

  /* optional struct: emplace materialises the struct default */
  fbe_ref order = t_emplace(r, "f158");
  assert_int_equal(fbe_ref_kind(order), FBE_KIND_STRUCT);
  assert_int_equal(t_int(order, "id"), 0);
  t_assert_str(order, "symbol", "");
  t_set_int(order, "id", 5);
  assert_int_equal(t_int(t_deref(r, "f158"), "id"), 5);
  fbe_ref acc = t_emplace(r, "f164");
  assert_int_equal(t_uint(acc, "state"), 11);
  t_assert_null(acc, "asset");
  /* optional inside an optional struct */
  t_set_dbl(t_emplace(acc, "asset"), "amount", 2.5);
  assert_true(t_dbl(t_deref(t_deref(r, "f164"), "asset"), "amount") == 2.5);

  /* optional operations on a non-optional */
  fbe_ref plain = t_path(r, "f1");
  assert_false(fbe_ref_is_null(plain));
  assert_false(fbe_ref_ok(fbe_ref_emplace(plain)));
  assert_false(fbe_ref_ok(fbe_ref_deref(plain)));
  assert_int_not_equal(fbe_ref_set_null(plain, NULL), FBE_OK);
}

/* message.h collections: append / count / at / clear on vector, list and set. */
static void test_vectors(void **state) {
  fixture *f = *state;
  fbe_ref r = fbe_msg_ref(t_new(f->arena, f->account));
  fbe_ref orders = t_path(r, "orders");
  assert_int_equal(fbe_ref_kind(orders), FBE_KIND_VECTOR);
  assert_int_equal(fbe_ref_count(orders), 0);
  assert_false(fbe_ref_ok(fbe_ref_at(orders, 0)));
  fbe_ref o = fbe_ref_append(orders);
  assert_true(fbe_ref_ok(o));
  assert_int_equal(fbe_ref_kind(o), FBE_KIND_STRUCT);
  assert_int_equal(fbe_ref_count(orders), 1);
  assert_int_equal(t_int(o, "id"), 0);
  t_add_order(orders, 2, "EURUSD", 1, 1, 1.0, 100.0);
  t_add_order(orders, 3, "GBPUSD", 0, 2, 1.5, 10.0);
  t_set_int(r, "orders[0].id", 1); /* o may be stale after growth: use a fresh ref */
  assert_int_equal(fbe_ref_count(orders), 3);
  assert_int_equal(t_int(r, "orders[1].id"), 2);
  t_assert_str(r, "orders[2].symbol", "GBPUSD");
  assert_int_equal(t_uint(r, "orders[2].type"), 2);
  assert_false(fbe_ref_ok(fbe_ref_at(orders, 3)));
  assert_int_equal(fbe_ref_clear(orders, NULL), FBE_OK);
  assert_int_equal(fbe_ref_count(orders), 0);
  /* after clear, a new element is a fresh default, not the old content */
  fbe_ref again = fbe_ref_append(orders);
  assert_int_equal(t_int(again, "id"), 0);
  t_assert_str(again, "symbol", "");
  assert_int_equal(fbe_ref_count(orders), 1);

  /* growth keeps earlier elements */
  fbe_ref v = fbe_msg_ref(t_new(f->arena, f->vector));
  fbe_ref bytes = t_path(v, "f1");
  for (int i = 0; i < 1000; i++) t_set_uint(t_append(bytes, ""), "", (uint64_t)(i * 7) & 0xff);
  assert_int_equal(fbe_ref_count(bytes), 1000);
  for (int i = 0; i < 1000; i++)
    assert_int_equal(t_uint(fbe_ref_at(bytes, (size_t)i), ""), (uint64_t)(i * 7) & 0xff);
  /* optional elements start null; struct elements start at their defaults, with the
   * dynamic defaults evaluated per element */
  fbe_ref opt = t_append(v, "f2");
  assert_int_equal(fbe_ref_kind(opt), FBE_KIND_OPTIONAL);
  assert_true(fbe_ref_is_null(opt));
  fbe_ref s0 = t_append(v, "f9");
  fbe_ref s1 = t_append(v, "f9");
  s0 = t_path(v, "f9[0]");
  assert_int_equal(t_bool(s0, "f2"), 1);
  t_assert_str(s1, "f32", "Initial string!");
  assert_int_equal(t_uint(s1, "f44.state"), 11);
  fbe_uuid u0 = get_uuid(s0, "f37"), u1 = get_uuid(s1, "f37");
  assert_uuid_v1(u0);
  assert_memory_not_equal(u0.bytes, u1.bytes, 16);
  assert_true(fbe_ref_is_null(t_append(v, "f10")));

  /* list and set have the same API */
  fbe_ref l = fbe_msg_ref(t_new(f->arena, f->list));
  assert_int_equal(fbe_ref_kind(t_path(l, "f1")), FBE_KIND_LIST);
  t_set_uint(t_append(l, "f1"), "", 9);
  assert_int_equal(t_uint(l, "f1[0]"), 9);
  fbe_ref s = fbe_msg_ref(t_new(f->arena, f->set));
  assert_int_equal(fbe_ref_kind(t_path(s, "f1")), FBE_KIND_SET);
  t_set_uint(t_append(s, "f1"), "", 1);
  t_set_uint(t_append(s, "f1"), "", 2);
  assert_int_equal(fbe_ref_count(t_path(s, "f1")), 2);
  assert_int_equal(fbe_ref_clear(t_path(s, "f1"), NULL), FBE_OK);
  assert_int_equal(fbe_ref_count(t_path(s, "f1")), 0);

  /* append/clear on things that are not vectors */
  assert_false(fbe_ref_ok(fbe_ref_append(t_path(r, "id"))));
  fbe_ref mp = fbe_msg_ref(t_new(f->arena, f->map));
  assert_false(fbe_ref_ok(fbe_ref_append(t_path(mp, "f1"))));
  fbe_ref ar = fbe_msg_ref(t_new(f->arena, f->array));
  assert_false(fbe_ref_ok(fbe_ref_append(t_path(ar, "f1"))));
  assert_int_not_equal(fbe_ref_clear(t_path(r, "id"), NULL), FBE_OK);
  assert_int_not_equal(fbe_ref_clear(t_path(ar, "f1"), NULL), FBE_OK);
}

/* message.h maps: map_append / count / key_at / value_at on map and hash. */
static void test_maps(void **state) {
  fixture *f = *state;
  fbe_ref r = fbe_msg_ref(t_new(f->arena, f->map));
  fbe_ref m1 = t_path(r, "f1"); /* byte<int32> */
  assert_int_equal(fbe_ref_kind(m1), FBE_KIND_MAP);
  assert_int_equal(fbe_ref_count(m1), 0);
  fbe_ref v;
  fbe_ref k = fbe_ref_map_append(m1, &v);
  assert_true(fbe_ref_ok(k));
  assert_true(fbe_ref_ok(v));
  assert_int_equal(fbe_ref_kind(k), FBE_KIND_INT32);
  assert_int_equal(fbe_ref_kind(v), FBE_KIND_BYTE);
  assert_int_equal(t_int(k, ""), 0);
  assert_int_equal(t_uint(v, ""), 0);
  t_set_int(k, "", 10);
  t_set_uint(v, "", 0x30);
  for (int i = 1; i < 100; i++) { /* growth keeps earlier entries */
    k = fbe_ref_map_append(m1, &v);
    t_set_int(k, "", -i);
    t_set_uint(v, "", (uint64_t)i);
  }
  assert_int_equal(fbe_ref_count(m1), 100);
  assert_int_equal(t_int(fbe_ref_key_at(m1, 0), ""), 10);
  assert_int_equal(t_uint(fbe_ref_value_at(m1, 0), ""), 0x30);
  assert_int_equal(t_int(fbe_ref_key_at(m1, 99), ""), -99);
  assert_int_equal(t_uint(fbe_ref_value_at(m1, 99), ""), 99);
  assert_false(fbe_ref_ok(fbe_ref_key_at(m1, 100)));
  assert_false(fbe_ref_ok(fbe_ref_value_at(m1, 100)));
  assert_int_equal(fbe_ref_clear(m1, NULL), FBE_OK);
  assert_int_equal(fbe_ref_count(m1), 0);
  assert_false(fbe_ref_ok(fbe_ref_key_at(m1, 0)));

  /* optional values start null */
  k = fbe_ref_map_append(t_path(r, "f2"), &v);
  assert_int_equal(fbe_ref_kind(v), FBE_KIND_OPTIONAL);
  assert_true(fbe_ref_is_null(v));
  /* struct values start at the struct default */
  k = fbe_ref_map_append(t_path(r, "f9"), &v);
  assert_int_equal(t_bool(v, "f2"), 1);
  t_assert_str(v, "f32", "Initial string!");

  /* hash with string keys */
  fbe_ref h = fbe_msg_ref(t_new(f->arena, f->hash));
  fbe_ref h1 = t_path(h, "f1");
  assert_int_equal(fbe_ref_kind(h1), FBE_KIND_HASH);
  k = fbe_ref_map_append(h1, &v);
  assert_int_equal(fbe_ref_kind(k), FBE_KIND_STRING);
  t_assert_str(k, "", "");
  t_set_str(k, "", "key");
  t_set_uint(v, "", 0x11);
  t_assert_str(fbe_ref_key_at(h1, 0), "", "key");
  assert_int_equal(t_uint(fbe_ref_value_at(h1, 0), ""), 0x11);

  /* struct keys (StructNested{StructSimple}) start at the struct default */
  fbe_ref hx = fbe_msg_ref(t_new(f->arena, f->hash_ex));
  k = fbe_ref_map_append(t_path(hx, "f1"), &v);
  assert_int_equal(fbe_ref_kind(k), FBE_KIND_STRUCT);
  assert_int_equal(t_bool(k, "f2"), 1);
  assert_int_equal(t_uint(v, "f1002"), '2'); /* EnumTyped.ENUM_VALUE_2 = '1' + 1 */
  t_set_int(k, "id", 42);
  assert_int_equal(t_int(fbe_ref_key_at(t_path(hx, "f1"), 0), "id"), 42);

  /* map operations on a vector fail */
  fbe_ref vec = fbe_msg_ref(t_new(f->arena, f->vector));
  assert_false(fbe_ref_ok(fbe_ref_map_append(t_path(vec, "f1"), &v)));
  t_append(vec, "f1");
  assert_false(fbe_ref_ok(fbe_ref_key_at(t_path(vec, "f1"), 0)));
  assert_false(fbe_ref_ok(fbe_ref_value_at(t_path(vec, "f1"), 0)));
}

/* message.h arrays: fixed count N, elements at their defaults (SCHEMA.md 7.4). */
static void test_arrays(void **state) {
  fixture *f = *state;
  fbe_ref r = fbe_msg_ref(t_new(f->arena, f->array));
  fbe_ref a1 = t_path(r, "f1"); /* byte[2] */
  assert_int_equal(fbe_ref_kind(a1), FBE_KIND_ARRAY);
  assert_int_equal(fbe_ref_count(a1), 2);
  assert_int_equal(t_uint(fbe_ref_at(a1, 0), ""), 0);
  t_set_uint(fbe_ref_at(a1, 1), "", 0x41);
  assert_int_equal(t_uint(r, "f1[1]"), 0x41);
  assert_int_equal(t_uint(r, "f1[0]"), 0);
  assert_false(fbe_ref_ok(fbe_ref_at(a1, 2)));
  /* optional elements start null */
  assert_true(fbe_ref_is_null(t_path(r, "f2[0]")));
  assert_true(fbe_ref_is_null(t_path(r, "f2[1]")));
  t_set_uint(fbe_ref_emplace(t_path(r, "f2[1]")), "", 7);
  assert_true(fbe_ref_is_null(t_path(r, "f2[0]")));
  assert_int_equal(t_uint(fbe_ref_deref(t_path(r, "f2[1]")), ""), 7);
  /* struct elements start at their defaults, dynamic ones evaluated per element */
  fbe_ref a9 = t_path(r, "f9");
  assert_int_equal(fbe_ref_count(a9), 2);
  for (size_t i = 0; i < 2; i++) {
    fbe_ref e = fbe_ref_at(a9, i);
    assert_int_equal(t_bool(e, "f2"), 1);
    t_assert_str(e, "f32", "Initial string!");
    assert_int_equal(t_uint(e, "f44.state"), 11);
    assert_uuid_v1(get_uuid(e, "f37"));
  }
  fbe_uuid u0 = get_uuid(r, "f9[0].f37"), u1 = get_uuid(r, "f9[1].f37");
  assert_memory_not_equal(u0.bytes, u1.bytes, 16);
  assert_true(fbe_ref_is_null(t_path(r, "f10[1]")));
  /* string array elements are independent */
  t_set_bytes(r, "f3[0]", "ab", 2);
  t_assert_blob(r, "f3[0]", "ab", 2);
  t_assert_blob(r, "f3[1]", "", 0);
}

/* Gives b the same utc/uuid1 values as a, so two fresh StructSimple compare equal. */
static void copy_dynamic(fbe_ref a, fbe_ref b) {
  fbe_uuid u = get_uuid(a, "f37");
  T_CHECK(fbe_ref_set_uuid(t_path(b, "f37"), &u, NULL), "f37");
  t_set_uint(b, "f35", t_uint(a, "f35"));
}

/* message.h fbe_msg_equal: deep equality, floats by bit pattern, decimals by value. */
static void test_equal(void **state) {
  fixture *f = *state;
  fbe_msg *a = t_new(f->arena, f->simple), *b = t_new(f->arena, f->simple);
  fbe_ref ra = fbe_msg_ref(a), rb = fbe_msg_ref(b);
  assert_true(fbe_msg_equal(a, a));
  /* fresh messages differ only by their utc/uuid1 defaults */
  assert_false(fbe_msg_equal(a, b));
  copy_dynamic(ra, rb);
  assert_true(fbe_msg_equal(a, b));
  assert_true(fbe_msg_equal(b, a));

  t_set_int(rb, "id", 1);
  assert_false(fbe_msg_equal(a, b));
  t_set_int(rb, "id", 0);
  assert_true(fbe_msg_equal(a, b));

  /* decimals compare by numeric value: 1.0 == 1.00, -0 == 0, 1.0 != 1.01 */
  t_set_dec(ra, "f29", "1.0");
  t_set_dec(rb, "f29", "1.00");
  assert_true(fbe_msg_equal(a, b));
  t_set_dec(rb, "f29", "1.01");
  assert_false(fbe_msg_equal(a, b));
  t_set_dec(ra, "f29", "0");
  t_set_dec(rb, "f29", "-0");
  assert_true(fbe_msg_equal(a, b));

  /* floats compare by bit pattern: -0.0 != 0.0, and a NaN equals the same NaN */
  t_set_dbl(rb, "f25", -0.0);
  assert_false(fbe_msg_equal(a, b));
  t_set_dbl(rb, "f25", 0.0);
  assert_true(fbe_msg_equal(a, b));
  t_set_dbl(rb, "f27", -0.0);
  assert_false(fbe_msg_equal(a, b));
  t_set_dbl(ra, "f27", NAN);
  t_set_dbl(rb, "f27", NAN);
  assert_true(fbe_msg_equal(a, b));
  t_set_dbl(ra, "f27", 0.0);
  t_set_dbl(rb, "f27", 0.0);
  assert_true(fbe_msg_equal(a, b));

  /* strings, uuids, nested structs, vectors */
  t_set_str(rb, "f31", "x");
  assert_false(fbe_msg_equal(a, b));
  t_set_str(ra, "f31", "x");
  assert_true(fbe_msg_equal(a, b));
  t_set_uuid(rb, "f36", "123e4567-e89b-12d3-a456-426655440000");
  assert_false(fbe_msg_equal(a, b));
  t_set_uuid(ra, "f36", "123e4567-e89b-12d3-a456-426655440000");
  assert_true(fbe_msg_equal(a, b));
  t_set_dbl(rb, "f44.wallet.amount", 1.5);
  assert_false(fbe_msg_equal(a, b));
  assert_false(fbe_ref_equal(t_path(ra, "f44"), t_path(rb, "f44")));
  assert_true(fbe_ref_equal(t_path(ra, "f41"), t_path(rb, "f41")));
  t_set_dbl(ra, "f44.wallet.amount", 1.5);
  assert_true(fbe_msg_equal(a, b));
  t_add_order(t_path(rb, "f44.orders"), 1, "EURUSD", 0, 0, 1.0, 1.0);
  assert_false(fbe_msg_equal(a, b));
  t_add_order(t_path(ra, "f44.orders"), 1, "EURUSD", 0, 0, 1.0, 1.0);
  assert_true(fbe_msg_equal(a, b));
  t_set_str(rb, "f44.orders[0].symbol", "EURUSd");
  assert_false(fbe_msg_equal(a, b));
  t_set_str(rb, "f44.orders[0].symbol", "EURUSD");
  /* optional: null vs present, and present values */
  fbe_ref oa = t_path(ra, "f44.asset"), ob = t_path(rb, "f44.asset");
  fbe_ref_emplace(ob);
  assert_false(fbe_msg_equal(a, b));
  fbe_ref_emplace(oa);
  assert_true(fbe_msg_equal(a, b));
  t_set_str(fbe_ref_deref(oa), "currency", "EUR");
  assert_false(fbe_msg_equal(a, b));
  t_set_str(fbe_ref_deref(ob), "currency", "EUR");
  assert_true(fbe_msg_equal(a, b));

  /* maps compare keys and values */
  fbe_msg *ma = t_new(f->arena, f->map), *mb = t_new(f->arena, f->map);
  fbe_ref v;
  t_set_int(fbe_ref_map_append(t_path(fbe_msg_ref(ma), "f1"), &v), "", 1);
  t_set_uint(v, "", 2);
  t_set_int(fbe_ref_map_append(t_path(fbe_msg_ref(mb), "f1"), &v), "", 1);
  t_set_uint(v, "", 3);
  assert_false(fbe_msg_equal(ma, mb));
  t_set_uint(v, "", 2);
  assert_true(fbe_msg_equal(ma, mb));

  /* different types never compare equal */
  assert_false(fbe_msg_equal(a, ma));
  fbe_msg *o = t_new(f->arena, f->optional);
  assert_false(fbe_msg_equal(a, o));

  /* two fields declared alike have two type nodes: their values compare by value */
  fbe_schema *twin = t_load_text("package twin struct T { int32[] a; int32[] b; int64[] c; int32[2] d; int32[2] e; }",
                                 "twin.fbe");
  fbe_msg *t = t_new(f->arena, t_struct(twin, "twin.T"));
  fbe_ref rt = fbe_msg_ref(t);
  assert_true(fbe_ref_equal(t_path(rt, "a"), t_path(rt, "b")));  /* both empty */
  assert_false(fbe_ref_equal(t_path(rt, "a"), t_path(rt, "c"))); /* int32[] and int64[] */
  assert_true(fbe_ref_equal(t_path(rt, "d"), t_path(rt, "e")));
  t_set_int(fbe_ref_append(t_path(rt, "a")), "", 5);
  assert_false(fbe_ref_equal(t_path(rt, "a"), t_path(rt, "b")));
  t_set_int(fbe_ref_append(t_path(rt, "b")), "", 5);
  assert_true(fbe_ref_equal(t_path(rt, "a"), t_path(rt, "b")));
  fbe_schema_release(twin);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_struct_simple_defaults, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_field_find, test_setup, test_teardown),
      cmocka_unit_test(test_char_parse),
      cmocka_unit_test_setup_teardown(test_set_double_float_range, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_dynamic_defaults_per_message, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_struct_optional_defaults, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_navigation, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_setter_ranges, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_setter_wrong_kind, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_setter_errors, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_optionals, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_vectors, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_maps, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_arrays, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_equal, test_setup, test_teardown),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

/* Unit tests of fbe_decode and fbe_decode_trusted (core/include/fbe/codec.h): the
 * worked examples of FORMAT.md 11 read back into values equal to the hand-built ones
 * (both models), the reading rules of FORMAT.md 5.10 (defaults for missing data,
 * versioning, optional defaults), model_size, truncated input at every length, and
 * the default decode refusing what verify refuses with verify's error. */
#include "fbe_test.h"

typedef struct fixture {
  fbe_schema *test;    /* test.fbe + proto */
  fbe_schema *protoex; /* protoex.fbe + proto */
  fbe_arena *arena;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  assert_non_null(f);
  f->test = t_load("test.fbe");
  f->protoex = t_load("protoex.fbe");
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->test);
  fbe_schema_release(f->protoex);
  free(f);
  return 0;
}

static int test_setup(void **state) {
  fixture *f = *state;
  f->arena = fbe_arena_new();
  assert_non_null(f->arena);
  return 0;
}

static int test_teardown(void **state) {
  fixture *f = *state;
  fbe_arena_free(f->arena);
  return 0;
}

typedef fbe_msg *(*builder)(fbe_arena *, const fbe_struct *);

static fbe_msg *build_default(fbe_arena *a, const fbe_struct *st) { return t_new(a, st); }

static fbe_msg *build_balance(fbe_arena *a, const fbe_struct *st) {
  fbe_msg *m = t_new(a, st);
  t_set_str(fbe_msg_ref(m), "currency", "USD");
  t_set_dbl(fbe_msg_ref(m), "amount", 1000.0);
  return m;
}

/* The examples of FORMAT.md 11 (hex from the spec, not from our encoder). */
typedef struct example {
  const char *name;   /* struct */
  int protoex;        /* look the struct up in protoex.fbe instead of test.fbe */
  builder build;
  const char *std_hex, *fin_hex;
  uint8_t type_patch; /* non-zero: replace the root type id byte (StructList twin) */
} example;

static const example EXAMPLES[] = {
    {"proto.Account", 0, t_build_account, T_ACCOUNT_STD, T_ACCOUNT_FIN, 0},
    {"proto.Account", 0, build_default, T_ACCOUNT_DEFAULT_STD, T_ACCOUNT_DEFAULT_FIN, 0},
    {"test.StructEmpty", 0, build_default, T_EMPTY_STD, T_EMPTY_FIN, 0},
    {"test.StructBytes", 0, t_build_bytes, T_BYTES_STD, T_BYTES_FIN, 0},
    {"test.StructVector", 0, t_build_vector, T_VECTOR_STD, T_VECTOR_FIN, 0},
    {"test.StructList", 0, t_build_vector, T_VECTOR_STD, T_VECTOR_FIN, 131},
    {"test.StructMap", 0, t_build_map, T_MAP_STD, T_MAP_FIN, 0},
    {"test.StructHash", 0, t_build_hash, T_HASH_STD, T_HASH_FIN, 0},
    {"protoex.Balance", 1, t_build_balance_ex, T_BALANCE_EX_STD, T_BALANCE_EX_FIN, 0},
    {"proto.Balance", 0, build_balance, T_BALANCE_STD, T_BALANCE_FIN, 0},
};
#define NEXAMPLES (sizeof EXAMPLES / sizeof *EXAMPLES)

static const fbe_struct *example_struct(fixture *f, const example *e) {
  return t_struct(e->protoex ? f->protoex : f->test, e->name);
}

/* The bytes of example e in `model` (malloc'd, exact size). */
static uint8_t *example_bytes(const example *e, fbe_model model, size_t *n) {
  uint8_t *p = t_hex(model == FBE_MODEL_STANDARD ? e->std_hex : e->fin_hex, n);
  if (e->type_patch) p[model == FBE_MODEL_STANDARD ? 0x0c : 4] = e->type_patch;
  return p;
}

/* FORMAT.md 11: every worked example decodes (both models) to a value equal to the
 * one built by hand, and reports its model size. */
static void test_decode_examples(void **state) {
  fixture *f = *state;
  for (size_t i = 0; i < NEXAMPLES; i++) {
    const example *e = &EXAMPLES[i];
    const fbe_struct *st = example_struct(f, e);
    fbe_msg *expected = e->build(f->arena, st);
    for (int model = 0; model < 2; model++) {
      size_t n;
      uint8_t *bytes = example_bytes(e, (fbe_model)model, &n);
      fbe_msg *got = t_decode(st, (fbe_model)model, bytes, n, f->arena);
      if (!fbe_msg_equal(got, expected))
        fail_msg("example %zu (%s, %s model) decodes to a different value", i, e->name,
                 model ? "final" : "standard");
      /* and encodes back to the same bytes */
      fbe_buffer b = t_encode(got, (fbe_model)model);
      t_assert_mem(b.data, b.size, bytes, n);
      fbe_buffer_free(&b);
      free(bytes);
    }
  }
  /* spot checks of decoded content (11.1) */
  size_t n;
  uint8_t *bytes = t_hex(T_ACCOUNT_STD, &n);
  fbe_ref r = fbe_msg_ref(t_decode(t_struct(f->test, "proto.Account"), FBE_MODEL_STANDARD,
                                   bytes, n, f->arena));
  free(bytes);
  assert_int_equal(t_int(r, "id"), 1);
  t_assert_str(r, "name", "Test");
  assert_int_equal(t_uint(r, "state"), 6);
  t_assert_str(r, "wallet.currency", "USD");
  t_assert_str(t_deref(r, "asset"), "currency", "EUR");
  assert_true(t_dbl(t_deref(r, "asset"), "amount") == 100.0);
  assert_int_equal(fbe_ref_count(t_path(r, "orders")), 3);
  assert_true(t_dbl(r, "orders[0].price") == (double)1.23456); /* FLT_EVAL_METHOD 2 */
  assert_int_equal(t_uint(r, "orders[2].type"), 2);
}

/* Round trips of values the examples do not cover: every scalar of StructSimple,
 * optionals, nested structs, arrays, struct-keyed hashes. */
static void test_roundtrip(void **state) {
  fixture *f = *state;
  const fbe_struct *simple = t_struct(f->test, "test.StructSimple");
  const fbe_struct *nested = t_struct(f->test, "test.StructNested");
  const fbe_struct *array = t_struct(f->test, "test.StructArray");
  const fbe_struct *hash_ex = t_struct(f->test, "test.StructHashEx");
  const fbe_struct *set = t_struct(f->test, "test.StructSet");

  fbe_msg *msgs[5];
  msgs[0] = t_build_simple(f->arena, simple);

  fbe_msg *n = t_new(f->arena, nested);
  fbe_ref r = fbe_msg_ref(n);
  t_set_int(t_emplace(r, "f124"), "", -7);
  t_set_str(t_emplace(r, "f145"), "", "optional string");
  t_set_dec(t_emplace(r, "f142"), "", "-0.000001");
  t_set_str(t_emplace(r, "f158"), "symbol", "XAUUSD");
  t_add_order(t_path(t_emplace(r, "f164"), "orders"), 9, "A", 1, 1, 2.0, 3.0);
  t_set_int(r, "f1000", 3);
  t_set_int(t_emplace(r, "f1001"), "", 4);
  t_set_uint(r, "f1006", 0x7f);
  t_set_str(r, "f1008.f31", "nested");
  t_set_int(t_emplace(r, "f1009"), "id", 99);
  t_set_dbl(r, "f1010.f27", 2.5);
  msgs[1] = n;

  fbe_msg *a = t_new(f->arena, array);
  r = fbe_msg_ref(a);
  t_set_uint(r, "f1[1]", 0xaa);
  t_set_uint(fbe_ref_emplace(t_path(r, "f2[1]")), "", 0xbb);
  t_set_bytes(r, "f3[0]", "xyz", 3);
  t_set_bytes(fbe_ref_emplace(t_path(r, "f4[0]")), "", "", 0);
  t_set_int(r, "f5[1]", 4);
  t_set_str(r, "f9[1].f31", "second");
  t_set_int(fbe_ref_emplace(t_path(r, "f10[0]")), "id", 5);
  msgs[2] = a;

  fbe_msg *h = t_new(f->arena, hash_ex);
  r = fbe_msg_ref(h);
  fbe_ref v;
  fbe_ref k = fbe_ref_map_append(t_path(r, "f1"), &v);
  t_set_int(k, "id", 1);
  t_set_str(v, "f32", "value");
  k = fbe_ref_map_append(t_path(r, "f2"), &v);
  t_set_int(k, "id", 2); /* value null */
  k = fbe_ref_map_append(t_path(r, "f2"), &v);
  t_set_int(k, "id", 3);
  t_set_int(fbe_ref_emplace(v), "f1000", 1);
  msgs[3] = h;

  fbe_msg *s = t_new(f->arena, set);
  r = fbe_msg_ref(s);
  t_set_uint(t_append(r, "f1"), "", 1);
  t_set_uint(t_append(r, "f1"), "", 2);
  t_set_int(t_append(r, "f4"), "id", 3);
  msgs[4] = s;

  for (size_t i = 0; i < 5; i++)
    for (int model = 0; model < 2; model++) {
      fbe_buffer b = t_encode(msgs[i], (fbe_model)model);
      fbe_msg *got = t_decode(fbe_msg_type(msgs[i]), (fbe_model)model, b.data, b.size, f->arena);
      if (!fbe_msg_equal(got, msgs[i]))
        fail_msg("%s does not round-trip in the %s model", fbe_struct_full_name(fbe_msg_type(msgs[i])),
                 model ? "final" : "standard");
      fbe_buffer_free(&b);
    }
}

static fbe_msg *build_order(fbe_arena *a, const fbe_struct *st) {
  fbe_msg *m = t_new(a, st);
  fbe_ref r = fbe_msg_ref(m);
  t_set_int(r, "id", 1);
  t_set_str(r, "symbol", "EURUSD");
  t_set_int(r, "side", 1);
  t_set_int(r, "type", 2);
  t_set_dbl(r, "price", 1.23456);
  t_set_dbl(r, "volume", 1000.0);
  return m;
}

/* FORMAT.md 5.10 / 8.1: a body shorter than the reader's struct: the missing fields
 * take their defaults (proto.Order read as protoex.Order: tp 10.0, sl -10.0); a
 * longer body: the extra fields are ignored. */
static void test_older_and_newer_writer(void **state) {
  fixture *f = *state;
  const fbe_struct *old = t_struct(f->protoex, "proto.Order");
  const fbe_struct *neu = t_struct(f->protoex, "protoex.Order");
  fbe_buffer b = t_encode(build_order(f->arena, old), FBE_MODEL_STANDARD);
  assert_int_equal(t_get32(b.data, 8), 34); /* S of proto.Order */
  fbe_msg *got = t_decode(neu, FBE_MODEL_STANDARD, b.data, b.size, f->arena);
  fbe_buffer_free(&b);
  fbe_ref r = fbe_msg_ref(got);
  assert_true(t_dbl(r, "tp") == 10.0);
  assert_true(t_dbl(r, "sl") == -10.0);
  assert_true(fbe_msg_equal(got, build_order(f->arena, neu)));

  /* newer writer, older reader */
  fbe_msg *ex = build_order(f->arena, neu);
  t_set_dbl(fbe_msg_ref(ex), "tp", 1.1);
  t_set_dbl(fbe_msg_ref(ex), "sl", -1.1);
  b = t_encode(ex, FBE_MODEL_STANDARD);
  assert_int_equal(t_get32(b.data, 8), 50);
  got = t_decode(old, FBE_MODEL_STANDARD, b.data, b.size, f->arena);
  fbe_buffer_free(&b);
  assert_true(fbe_msg_equal(got, build_order(f->arena, old)));
}

/* FORMAT.md 8.2 / 11.4: protoex.Balance(base) data reads as proto.Balance, and the
 * proto.Balance written from that reads back as protoex.Balance with locked = 0.0. */
static void test_inheritance_cross_version(void **state) {
  fixture *f = *state;
  const fbe_struct *base = t_struct(f->protoex, "proto.Balance");
  const fbe_struct *ex = t_struct(f->protoex, "protoex.Balance");
  size_t n;
  uint8_t *bytes = t_hex(T_BALANCE_EX_STD, &n);
  fbe_msg *as_base = t_decode(base, FBE_MODEL_STANDARD, bytes, n, f->arena);
  free(bytes);
  t_assert_str(fbe_msg_ref(as_base), "currency", "USD");
  assert_true(t_dbl(fbe_msg_ref(as_base), "amount") == 1000.0);
  assert_true(fbe_msg_equal(as_base, build_balance(f->arena, base)));

  fbe_buffer b = t_encode(as_base, FBE_MODEL_STANDARD);
  t_assert_bytes(b.data, b.size, T_BALANCE_STD);
  fbe_msg *back = t_decode(ex, FBE_MODEL_STANDARD, b.data, b.size, f->arena);
  fbe_buffer_free(&b);
  assert_true(t_dbl(fbe_msg_ref(back), "locked") == 0.0);
  fbe_msg *expected = build_balance(f->arena, ex); /* locked keeps its default 0.0 */
  assert_true(fbe_msg_equal(back, expected));
}

/* FORMAT.md 5.10 derived structs: when S cannot hold the whole inherited part, none
 * of the inherited fields is read; a plain struct reads the fields that fit.
 * A proto.Balance body with S = 12 holds only the currency pointer. */
static void test_short_body(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *bytes = t_hex("1b 00 00 00 08 00 00 00 0c 00 00 00 02 00 00 00 0c 00 00 00"
                         " 03 00 00 00 55 53 44",
                         &n);
  assert_int_equal(n, 27);
  fbe_msg *b = t_decode(t_struct(f->protoex, "proto.Balance"), FBE_MODEL_STANDARD, bytes, n,
                        f->arena);
  t_assert_str(fbe_msg_ref(b), "currency", "USD");
  assert_true(t_dbl(fbe_msg_ref(b), "amount") == 0.0);
  const fbe_struct *ex = t_struct(f->protoex, "protoex.Balance");
  fbe_msg *e = t_decode(ex, FBE_MODEL_STANDARD, bytes, n, f->arena);
  free(bytes);
  assert_true(fbe_msg_equal(e, t_new(f->arena, ex))); /* all defaults */
}

/* FORMAT.md 5.10: string pointer 0 -> the field's default ("Initial string!" for
 * StructSimple.f32); outside a struct field (collection element, optional value slot)
 * -> empty. */
static void test_string_pointer_zero(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructSimple");
  fbe_msg *m = t_build_simple(f->arena, st);
  t_set_str(fbe_msg_ref(m), "f31", "was here");
  t_set_str(fbe_msg_ref(m), "f32", "other");
  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  t_put32(b.data, 8 + 142, 0); /* f31 */
  t_put32(b.data, 8 + 146, 0); /* f32 */
  fbe_ref r = fbe_msg_ref(t_decode(st, FBE_MODEL_STANDARD, b.data, b.size, f->arena));
  fbe_buffer_free(&b);
  t_assert_str(r, "f31", "");
  t_assert_str(r, "f32", "Initial string!");
  assert_int_equal(t_int(r, "id"), 0x01020304); /* the rest is read normally */

  /* StructVector.f3 = ["A"]: element slot at 0x51 -> 0 */
  size_t n;
  uint8_t *bytes = t_hex(T_VECTOR_STD, &n);
  assert_int_equal(t_get32(bytes, 0x51), 0x4d);
  t_put32(bytes, 0x51, 0);
  r = fbe_msg_ref(t_decode(t_struct(f->test, "test.StructVector"), FBE_MODEL_STANDARD, bytes, n,
                           f->arena));
  free(bytes);
  assert_int_equal(fbe_ref_count(t_path(r, "f3")), 1);
  t_assert_blob(r, "f3[0]", "", 0);

  /* StructBytes.f2 = "xy": its value slot at 0x25 holds the bytes pointer -> 0 */
  bytes = t_hex(T_BYTES_STD, &n);
  assert_int_equal(t_get32(bytes, 0x25), 4);
  t_put32(bytes, 0x25, 0);
  r = fbe_msg_ref(t_decode(t_struct(f->test, "test.StructBytes"), FBE_MODEL_STANDARD, bytes, n,
                           f->arena));
  free(bytes);
  t_assert_blob(t_deref(r, "f2"), "", "", 0);
  t_assert_blob(r, "f1", "ABC", 3);
}

/* FORMAT.md 5.10 / 7.5 / 12.1: an optional with flag 0 reads as its declared default
 * in the standard model (f101 -> true, f104 -> 255, f146 -> "Initial string!",
 * f149 utc -> now), stays null without a default or with "= null", and reads as null
 * in the final model. */
static void test_optional_null_with_default(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructOptional");
  fbe_msg *m = t_new(f->arena, st);
  fbe_ref r = fbe_msg_ref(m);
  const char *with_default[] = {"f101", "f104", "f107", "f146", "f149", "f152"};
  for (size_t i = 0; i < 6; i++) T_CHECK(fbe_ref_set_null(t_path(r, with_default[i]), NULL), "null");
  t_set_int(t_emplace(r, "f124"), "", 3); /* one present optional without default */

  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  assert_int_equal(b.data[8 + 237 + 5], 0); /* f101 written as null */
  uint64_t before = t_now_ns();
  fbe_ref d = fbe_msg_ref(t_decode(st, FBE_MODEL_STANDARD, b.data, b.size, f->arena));
  uint64_t after = t_now_ns();
  fbe_buffer_free(&b);
  assert_int_equal(t_bool(t_deref(d, "f101"), ""), 1);
  assert_int_equal(t_uint(t_deref(d, "f104"), ""), 255);
  assert_int_equal(t_uint(t_deref(d, "f107"), ""), '!');
  t_assert_str(t_deref(d, "f146"), "", "Initial string!");
  uint64_t ts = t_uint(t_deref(d, "f149"), "");
  if (ts < before || ts > after) fail_msg("f149 = %llu is not the time of reading", (unsigned long long)ts);
  fbe_uuid u;
  T_CHECK(fbe_ref_get_uuid(t_deref(d, "f152"), &u), "f152");
  t_assert_bytes(u.bytes, 16, "12 3e 45 67 e8 9b 12 d3 a4 56 42 66 55 44 00 00");
  t_assert_null(d, "f100"); /* no default */
  t_assert_null(d, "f102"); /* = null */
  t_assert_null(d, "f165");
  assert_int_equal(t_int(t_deref(d, "f124"), ""), 3);

  b = t_encode(m, FBE_MODEL_FINAL);
  d = fbe_msg_ref(t_decode(st, FBE_MODEL_FINAL, b.data, b.size, f->arena));
  fbe_buffer_free(&b);
  for (size_t i = 0; i < 6; i++) t_assert_null(d, with_default[i]);
  t_assert_null(d, "f100");
  assert_int_equal(t_int(t_deref(d, "f124"), ""), 3);
}

/* FORMAT.md 5.10: vector/map pointer 0 -> empty; struct pointer 0 -> default struct
 * (what a reader of trusted bytes reads; verify, and so fbe_decode, refuse a struct
 * pointer 0). */
static void test_collection_and_struct_pointer_zero(void **state) {
  fixture *f = *state;
  const fbe_struct *acc = t_struct(f->test, "proto.Account");
  size_t n;
  uint8_t *bytes = t_hex(T_ACCOUNT_STD, &n);
  t_put32(bytes, 0x22, 0); /* orders */
  fbe_ref r = fbe_msg_ref(t_decode(acc, FBE_MODEL_STANDARD, bytes, n, f->arena));
  assert_int_equal(fbe_ref_count(t_path(r, "orders")), 0);
  t_assert_str(r, "name", "Test");
  t_assert_str(t_deref(r, "asset"), "currency", "EUR");
  free(bytes);

  bytes = t_hex(T_ACCOUNT_STD, &n);
  t_put32(bytes, 0x19, 0); /* wallet */
  t_assert_decode_refused_as_verify(acc, FBE_MODEL_STANDARD, bytes, n, f->arena);
  r = fbe_msg_ref(t_decode_trusted(acc, FBE_MODEL_STANDARD, bytes, n, f->arena));
  t_assert_str(r, "wallet.currency", "");
  assert_true(t_dbl(r, "wallet.amount") == 0.0);
  assert_int_equal(fbe_ref_count(t_path(r, "orders")), 3);
  free(bytes);

  bytes = t_hex(T_MAP_STD, &n);
  t_put32(bytes, 0x10, 0); /* f1 */
  t_put32(bytes, 0x18, 0); /* f3 */
  r = fbe_msg_ref(t_decode(t_struct(f->test, "test.StructMap"), FBE_MODEL_STANDARD, bytes, n,
                           f->arena));
  free(bytes);
  assert_int_equal(fbe_ref_count(t_path(r, "f1")), 0);
  assert_int_equal(fbe_ref_count(t_path(r, "f2")), 2);
  assert_int_equal(fbe_ref_count(t_path(r, "f3")), 0);
}

/* FORMAT.md 5.10 / 7: a field missing from a short body takes its default, and
 * utc/uuid1 defaults are evaluated when reading. test.StructSimple with S = 166 holds
 * the fields up to f34 (slot 158..166); f35 (slot 166..174) .. f44 are missing. */
static void test_missing_fields_dynamic_defaults(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructSimple");
  fbe_msg *m = t_build_simple(f->arena, st);
  fbe_ref r = fbe_msg_ref(m);
  t_set_uuid(r, "f38", "00000000-0000-0000-0000-000000000000");
  t_set_uint(r, "f44.state", 0);
  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  t_put32(b.data, 8, 166); /* f35 (166..174) no longer fits: f35..f44 missing */
  uint64_t before = t_now_ns();
  fbe_ref d = fbe_msg_ref(t_decode(st, FBE_MODEL_STANDARD, b.data, b.size, f->arena));
  uint64_t after = t_now_ns();
  fbe_buffer_free(&b);
  assert_int_equal(t_uint(d, "f33"), 1543145597933463000u); /* present */
  uint64_t ts = t_uint(d, "f35");
  if (ts < before || ts > after) fail_msg("f35 = %llu is not the time of reading", (unsigned long long)ts);
  fbe_uuid u;
  T_CHECK(fbe_ref_get_uuid(t_path(d, "f37"), &u), "f37");
  assert_int_equal(u.bytes[6] >> 4, 1); /* a fresh uuid1, not the written one */
  fbe_uuid written = t_uuid("00112233-4455-6677-8899-aabbccddeeff");
  assert_memory_not_equal(u.bytes, written.bytes, 16);
  T_CHECK(fbe_ref_get_uuid(t_path(d, "f38"), &u), "f38");
  t_assert_bytes(u.bytes, 16, "12 3e 45 67 e8 9b 12 d3 a4 56 42 66 55 44 00 00");
  assert_int_equal(t_uint(d, "f39"), 0);
  assert_int_equal(t_uint(d, "f44.state"), 11);
  t_assert_str(d, "f32", "ab");
}

/* FORMAT.md 5.10: a body that ends in the middle of a run of fixed-size fields: the
 * fields that fit are read, the rest take their defaults. test.StructSimple with
 * S = 62 holds id .. f21 (f21 at 54..62); f22 (62..70) onward is missing. */
static void test_body_cut_inside_scalars(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructSimple");
  fbe_msg *m = t_build_simple(f->arena, st);
  fbe_ref r = fbe_msg_ref(m);
  t_set_int(r, "f22", 5);
  t_set_uint(r, "f24", 6);
  t_set_dbl(r, "f26", 7.0);
  t_set_dec(r, "f30", "8");
  t_set_int(r, "f44.state", 0);
  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  t_put32(b.data, 8, 62);
  fbe_ref d = fbe_msg_ref(t_decode(st, FBE_MODEL_STANDARD, b.data, b.size, f->arena));
  fbe_buffer_free(&b);
  assert_int_equal(t_int(d, "id"), 0x01020304);
  assert_int_equal(t_uint(d, "f19"), 0xdeadbeefu);
  assert_int_equal(t_int(d, "f21"), -2);           /* last field that fits */
  assert_true(t_int(d, "f22") == INT64_MAX);        /* defaults from here on */
  assert_int_equal(t_uint(d, "f23"), 0);
  assert_true(t_uint(d, "f24") == UINT64_MAX);
  assert_true(t_dbl(d, "f25") == 0.0);
  assert_true(t_dbl(d, "f26") == (double)(float)123.456);  /* the cast rounds: FLT_EVAL_METHOD may be 1 or 2 */
  assert_true(t_dbl(d, "f27") == 0.0);
  assert_true(t_dbl(d, "f28") == (double)-123.456e+123); /* FLT_EVAL_METHOD 2 */
  fbe_decimal dec;
  T_CHECK(fbe_ref_get_decimal(t_path(d, "f30"), &dec), "f30");
  t_assert_bytes(dec.bytes, 16, "40 f2 8e be 1c 00 00 00 00 00 00 00 00 00 06 00");
  t_assert_str(d, "f31", "");
  t_assert_str(d, "f32", "Initial string!");
  assert_int_equal(t_uint(d, "f33"), 0);
  assert_int_equal(t_uint(d, "f44.state"), 11);
  /* and verify agrees that such a body is valid (5.11: stop at the first field that
   * does not fit) */
  b = t_encode(m, FBE_MODEL_STANDARD);
  t_put32(b.data, 8, 62);
  size_t size = 0;
  assert_int_equal(fbe_verify(st, FBE_MODEL_STANDARD, b.data, b.size, NULL, &size, NULL), FBE_OK);
  assert_int_equal(size, b.size);
  fbe_buffer_free(&b);
}

/* FORMAT.md 3.6 / SCHEMA.md 4: enums of every base type keep their values, signed ones
 * sign-extended (enums.Enums: int8b1 = -128 is byte 0x80 at body offset 45). */
static void test_enums_roundtrip(void **state) {
  fixture *f = *state;
  fbe_schema *enums = t_load("enums.fbe");
  const fbe_struct *st = t_struct(enums, "enums.Enums");
  fbe_msg *m = t_new(f->arena, st);
  fbe_ref r = fbe_msg_ref(m);
  assert_int_equal(t_int(r, "int8b1"), -128);
  assert_int_equal(t_int(r, "int8b2"), -127);
  assert_int_equal(t_int(r, "int16b1"), -32768);
  assert_int_equal(t_int(r, "int32b1"), INT32_MIN);
  assert_true(t_int(r, "int64b1") == -INT64_MAX);
  assert_true(t_int(r, "int64b2") == -INT64_MAX + 1);
  assert_int_equal(t_uint(r, "byte4"), 255);
  assert_int_equal(t_uint(r, "char2"), '2');
  assert_int_equal(t_uint(r, "wchar2"), 0x445);
  assert_true(t_uint(r, "uint64b3") == 0xfffffffffffffffeu);
  assert_true(t_uint(r, "uint64b4") == UINT64_MAX);
  for (int model = 0; model < 2; model++) {
    fbe_buffer b = t_encode(m, (fbe_model)model);
    assert_int_equal(b.size, model == FBE_MODEL_STANDARD ? 8 + 224 : 8 + 216);
    size_t at = model == FBE_MODEL_STANDARD ? 8 + 44 : 44; /* int8b0 */
    t_assert_bytes(b.data + at, 6, "00 80 81 7e 7f 7e");
    fbe_msg *d = t_decode(st, (fbe_model)model, b.data, b.size, f->arena);
    fbe_buffer_free(&b);
    assert_true(fbe_msg_equal(d, m));
    assert_int_equal(t_int(fbe_msg_ref(d), "int8b1"), -128);
  }
  fbe_schema_release(enums);
}

/* codec.h: *model_size is the size of the model, not of the buffer; bytes after the
 * model are ignored, and a second model can be decoded from where the first ends. */
static void test_model_size(void **state) {
  fixture *f = *state;
  const fbe_struct *acc = t_struct(f->test, "proto.Account");
  const fbe_struct *bal = t_struct(f->test, "proto.Balance");
  for (int model = 0; model < 2; model++) {
    fbe_buffer b;
    fbe_buffer_init(&b);
    assert_int_equal(fbe_encode(t_build_account(f->arena, acc), (fbe_model)model, &b, NULL), FBE_OK);
    size_t first = b.size;
    assert_int_equal(fbe_encode(build_balance(f->arena, bal), (fbe_model)model, &b, NULL), FBE_OK);
    assert_int_equal(fbe_buffer_append(&b, "\xff\xff\xff", 3), 0);
    uint8_t *copy = t_dup(b.data, b.size);
    fbe_msg *out = NULL;
    size_t size = 0;
    assert_int_equal(fbe_decode(acc, (fbe_model)model, copy, b.size, f->arena, NULL, &out, &size, NULL),
                     FBE_OK);
    assert_int_equal(size, model == FBE_MODEL_STANDARD ? 252 : 152);
    assert_int_equal(size, first);
    assert_true(fbe_msg_equal(out, t_build_account(f->arena, acc)));
    assert_int_equal(fbe_decode(bal, (fbe_model)model, copy + size, b.size - size, f->arena, NULL,
                                &out, &size, NULL),
                     FBE_OK);
    assert_int_equal(size, model == FBE_MODEL_STANDARD ? 35 : 23);
    assert_true(fbe_msg_equal(out, build_balance(f->arena, bal)));
    /* model_size may be NULL */
    assert_int_equal(fbe_decode(acc, (fbe_model)model, copy, b.size, f->arena, NULL, &out, NULL, NULL),
                     FBE_OK);
    free(copy);
    fbe_buffer_free(&b);
  }
}

/* FORMAT.md 5.10: nested type ids are not checked while reading trusted bytes (verify,
 * and so fbe_decode, check them); enum values that the schema does not declare are
 * kept; any non-zero bool byte is true. */
static void test_lenient_reading(void **state) {
  fixture *f = *state;
  const fbe_struct *acc = t_struct(f->test, "proto.Account");
  size_t n;
  uint8_t *bytes = t_hex(T_ACCOUNT_STD, &n);
  bytes[0x18] = 0xf0;        /* state: undeclared flag bits */
  bytes[0x88] = 7;           /* orders[0].side: undeclared enum value */
  fbe_ref r = fbe_msg_ref(t_decode(acc, FBE_MODEL_STANDARD, bytes, n, f->arena));
  assert_int_equal(t_uint(r, "state"), 0xf0);
  assert_int_equal(t_uint(r, "orders[0].side"), 7);
  t_put32(bytes, 0x32, 77); /* wallet type id */
  t_assert_decode_refused_as_verify(acc, FBE_MODEL_STANDARD, bytes, n, f->arena);
  r = fbe_msg_ref(t_decode_trusted(acc, FBE_MODEL_STANDARD, bytes, n, f->arena));
  free(bytes);
  t_assert_str(r, "wallet.currency", "USD");
  assert_int_equal(t_uint(r, "state"), 0xf0);
  assert_int_equal(t_uint(r, "orders[0].side"), 7);

  const fbe_struct *st = t_struct(f->test, "test.StructSimple");
  fbe_buffer b = t_encode(t_build_simple(f->arena, st), FBE_MODEL_STANDARD);
  b.data[8 + 12] = 0x7f; /* f1 */
  fbe_msg *m = t_decode(st, FBE_MODEL_STANDARD, b.data, b.size, f->arena);
  fbe_buffer_free(&b);
  assert_int_equal(t_bool(fbe_msg_ref(m), "f1"), 1);
  b = t_encode(m, FBE_MODEL_STANDARD); /* writers emit 0x01 (FORMAT.md 3.1) */
  assert_int_equal(b.data[8 + 12], 1);
  fbe_buffer_free(&b);
}

/* FORMAT.md 1: float and double bit patterns are copied unchanged, NaN payloads
 * included (decode then encode gives the same bytes). */
static void test_nan_payloads(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructSimple");
  for (int model = 0; model < 2; model++) {
    fbe_buffer b = t_encode(t_build_simple(f->arena, st), (fbe_model)model);
    size_t base = model == FBE_MODEL_STANDARD ? 8 : 0; /* slot offsets: see test_encode.c */
    t_put32(b.data, base + 86, 0xffc12345u);          /* f25: quiet NaN with payload */
    t_put32(b.data, base + 90, 0x7f800001u);          /* f26: signalling NaN */
    t_put32(b.data, base + 94, 0x00000001u);          /* f27: signalling NaN, low word */
    t_put32(b.data, base + 98, 0x7ff00000u);          /*      high word */
    fbe_msg *m = t_decode(st, (fbe_model)model, b.data, b.size, f->arena);
    fbe_buffer again = t_encode(m, (fbe_model)model);
    t_assert_mem(again.data, again.size, b.data, b.size);
    fbe_buffer_free(&again);
    fbe_buffer_free(&b);
  }
}

/* FORMAT.md 5.9: readers accept any order and duplicate keys in maps and sets. */
static void test_duplicate_keys(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructMap");
  fbe_msg *m = t_new(f->arena, st);
  fbe_ref v;
  for (int i = 0; i < 3; i++) {
    t_set_int(fbe_ref_map_append(t_path(fbe_msg_ref(m), "f1"), &v), "", 7);
    t_set_uint(v, "", (uint64_t)(0x10 + i));
  }
  const fbe_struct *set = t_struct(f->test, "test.StructSet");
  fbe_msg *s = t_new(f->arena, set);
  t_set_uint(t_append(fbe_msg_ref(s), "f1"), "", 5);
  t_set_uint(t_append(fbe_msg_ref(s), "f1"), "", 5);
  for (int model = 0; model < 2; model++) {
    fbe_buffer b = t_encode(m, (fbe_model)model);
    fbe_ref r = fbe_msg_ref(t_decode(st, (fbe_model)model, b.data, b.size, f->arena));
    fbe_buffer_free(&b);
    size_t n = fbe_ref_count(t_path(r, "f1"));
    assert_true(n >= 1 && n <= 3);
    /* whichever entries are kept, key 7 maps to one of the written values; the last
     * one is the recommended winner */
    assert_int_equal(t_int(fbe_ref_key_at(t_path(r, "f1"), n - 1), ""), 7);
    assert_int_equal(t_uint(fbe_ref_value_at(t_path(r, "f1"), n - 1), ""), 0x12);
    b = t_encode(s, (fbe_model)model);
    r = fbe_msg_ref(t_decode(set, (fbe_model)model, b.data, b.size, f->arena));
    fbe_buffer_free(&b);
    assert_true(fbe_ref_count(t_path(r, "f1")) >= 1);
  }
}

/* FORMAT.md 5.2 / 5.10: the root body is wherever the root pointer says (the reference
 * writes 8, readers follow the pointer). proto.Balance with 4 spare bytes before the
 * body: root pointer 12. */
static void test_root_pointer_not_8(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "proto.Balance");
  size_t n;
  uint8_t *bytes = t_hex("27 00 00 00 0c 00 00 00 ee ee ee ee"
                         " 14 00 00 00 02 00 00 00 14 00 00 00 00 00 00 00 00 40 8f 40"
                         " 03 00 00 00 55 53 44",
                         &n);
  assert_int_equal(n, 39);
  fbe_msg *m = t_decode(st, FBE_MODEL_STANDARD, bytes, n, f->arena);
  assert_true(fbe_msg_equal(m, build_balance(f->arena, st)));
  size_t size = 0;
  assert_int_equal(fbe_verify(st, FBE_MODEL_STANDARD, bytes, n, NULL, &size, NULL), FBE_OK);
  assert_int_equal(size, 39);
  free(bytes);
}

/* Decodes data[0..len) from an exact-size copy; returns the status. A success must
 * produce a message and a model size within the buffer. */
static fbe_status decode_prefix(const fbe_struct *st, fbe_model model, const uint8_t *data,
                                size_t len, fbe_arena *arena) {
  uint8_t *copy = t_dup(data, len);
  fbe_msg *out = NULL;
  size_t size = 0;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbe_decode(st, model, copy, len, arena, NULL, &out, &size, &err);
  free(copy);
  if (s == FBE_OK) {
    assert_non_null(out);
    assert_true(size <= len);
  } else {
    assert_int_equal(err.code, s);
  }
  return s;
}

/* codec.h: a buffer cut short at any length is an error (never a crash or a read past
 * the end: run under AddressSanitizer). The same with the size field rewritten to the
 * cut length: error or value, never a crash. */
static void test_truncated_every_length(void **state) {
  fixture *f = *state;
  for (size_t i = 0; i < NEXAMPLES; i++) {
    const example *e = &EXAMPLES[i];
    const fbe_struct *st = example_struct(f, e);
    for (int model = 0; model < 2; model++) {
      size_t n;
      uint8_t *bytes = example_bytes(e, (fbe_model)model, &n);
      for (size_t len = 0; len < n; len++) {
        fbe_status s = decode_prefix(st, (fbe_model)model, bytes, len, f->arena);
        if (s == FBE_OK)
          fail_msg("%s (%s model) truncated to %zu of %zu bytes decodes", e->name,
                   model ? "final" : "standard", len, n);
        if (len >= 4) {
          uint8_t *cut = t_dup(bytes, len);
          t_put32(cut, 0, (uint32_t)len);
          decode_prefix(st, (fbe_model)model, cut, len, f->arena);
          free(cut);
        }
      }
      assert_int_equal(decode_prefix(st, (fbe_model)model, bytes, n, f->arena), FBE_OK);
      free(bytes);
      fbe_arena_reset(f->arena);
    }
  }
}

/* codec.h "every offset and length is checked", fbe_limits "against hostile input":
 * the output of a decode must stay proportional to the input. A standard model may
 * point many slots at one block (nothing in FORMAT.md 5 forbids it, and it verifies),
 * so 5000 pointers to one 20 000-byte bytes block (a 40 KB model) must not become
 * 5000 copies (100 MB): the decoder must either refuse it (FBE_ERR_LIMIT) or keep its
 * memory within a fixed multiple of the model size. */
static void test_shared_blocks_bounded(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructVector");
  const uint32_t k = 5000, len = 20000;
  /* 0x08 body (S 48, type 130, ten pointers) | f3 block: count k, k pointers to `blob` |
   * blob: bytes of length len | nine empty collections (count 0) */
  const size_t body = 8, vec = body + 48, blob = vec + 4 + 4 * (size_t)k;
  const size_t empties = blob + 4 + len, total = empties + 9 * 4;
  uint8_t *p = calloc(1, total);
  assert_non_null(p);
  t_put32(p, 0, (uint32_t)total);
  t_put32(p, 4, 8);
  t_put32(p, body, 48);
  t_put32(p, body + 4, 130);
  for (size_t i = 0, e = 0; i < 10; i++)
    t_put32(p, body + 8 + 4 * i, (uint32_t)((i == 2 ? vec : empties + 4 * e++) - body));
  t_put32(p, vec, k);
  for (uint32_t i = 0; i < k; i++) t_put32(p, vec + 4 + 4 * (size_t)i, (uint32_t)(blob - body));
  t_put32(p, blob, len);
  memset(p + blob + 4, 'x', len);

  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  fbe_msg *out = NULL;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbe_decode(st, FBE_MODEL_STANDARD, p, total, arena, NULL, &out, NULL, &err);
  size_t reserved = fbe_arena_reserved(arena);
  fbe_arena_free(arena);
  free(p);
  if (s == FBE_OK) {
    size_t bound = 64 * total + 65536;
    if (reserved > bound)
      fail_msg("a %zu-byte model decoded into %zu bytes of memory (%.0fx; bound %zu)", total,
               reserved, (double)reserved / (double)total, bound);
  } else {
    assert_int_equal(s, FBE_ERR_LIMIT);
  }
}

/* codec.h argument checks. */
static void test_decode_arguments(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructEmpty");
  size_t n;
  uint8_t *bytes = t_hex(T_EMPTY_STD, &n);
  fbe_msg *out;
  fbe_error err;
  assert_int_equal(fbe_decode(NULL, FBE_MODEL_STANDARD, bytes, n, f->arena, NULL, &out, NULL, &err),
                   FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_decode(st, FBE_MODEL_STANDARD, bytes, n, NULL, NULL, &out, NULL, &err),
                   FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_decode(st, FBE_MODEL_STANDARD, NULL, 16, f->arena, NULL, &out, NULL, &err),
                   FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_decode_trusted(NULL, FBE_MODEL_STANDARD, bytes, n, f->arena, NULL, &out, NULL, &err),
                   FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_decode_trusted(st, FBE_MODEL_STANDARD, bytes, n, f->arena, NULL, NULL, NULL, &err),
                   FBE_ERR_ARGUMENT);
  /* another root type: verify rejects it at the root body's type id, and so does the
   * default decode, with verify's error; the trusted decode reads it as the reference
   * does (a reader of another version may read a sibling type, FORMAT.md 8.4):
   * StructEmpty's 8-byte body read as proto.Order leaves every Order field at its
   * default */
  const fbe_struct *order = t_struct(f->test, "proto.Order");
  assert_int_equal(fbe_verify(order, FBE_MODEL_STANDARD, bytes, n, NULL, NULL, &err), FBE_ERR_MALFORMED);
  assert_int_equal(err.offset, 12); /* the root body's type id */
  t_assert_decode_refused_as_verify(order, FBE_MODEL_STANDARD, bytes, n, f->arena);
  assert_int_equal(fbe_decode(order, FBE_MODEL_STANDARD, bytes, n, f->arena, NULL, &out, NULL, &err),
                   FBE_ERR_MALFORMED);
  assert_non_null(strstr(err.message, "type id"));
  assert_int_equal(fbe_decode_trusted(order, FBE_MODEL_STANDARD, bytes, n, f->arena, NULL, &out, NULL, &err),
                   FBE_OK);
  assert_true(fbe_msg_equal(out, t_new(f->arena, order)));
  free(bytes);
  /* the final model: both decodes check the root type id */
  bytes = t_hex(T_EMPTY_FIN, &n);
  t_assert_decode_refused_as_verify(order, FBE_MODEL_FINAL, bytes, n, f->arena);
  assert_int_equal(fbe_decode_trusted(order, FBE_MODEL_FINAL, bytes, n, f->arena, NULL, &out, NULL, &err),
                   FBE_ERR_MALFORMED);
  free(bytes);
}

/* codec.h: fbe_decode verifies first. Bytes verify refuses are refused with verify's
 * error (status, reason, path, offset): proto.Account's bytes read as proto.Order (both
 * models: the type id), and a malformed Account (its orders count patched past the
 * model). fbe_decode_trusted reads what only verify refuses: a sibling message type of
 * another schema version (proto.OrderMessage, written by proto, read as
 * protoex.OrderMessage, whose type id differs; FORMAT.md 8). */
static void test_decode_verifies(void **state) {
  fixture *f = *state;
  const fbe_struct *order = t_struct(f->test, "proto.Order");
  for (int model = 0; model < 2; model++) {
    size_t n;
    uint8_t *bytes = t_hex(model ? T_ACCOUNT_FIN : T_ACCOUNT_STD, &n);
    t_assert_decode_refused_as_verify(order, (fbe_model)model, bytes, n, f->arena);
    fbe_msg *out = NULL;
    fbe_error err;
    assert_int_equal(fbe_decode(order, (fbe_model)model, bytes, n, f->arena, NULL, &out, NULL, &err),
                     FBE_ERR_MALFORMED);
    assert_string_equal(err.message, "type id 3 where proto.Order (1) was expected");
    assert_int_equal(err.offset, model ? 4 : 12);
    free(bytes);
  }
  size_t n;
  uint8_t *bytes = t_hex(T_ACCOUNT_STD, &n);
  t_put32(bytes, 0x68, 0x7fffffff); /* orders count */
  t_assert_decode_refused_as_verify(t_struct(f->test, "proto.Account"), FBE_MODEL_STANDARD, bytes, n,
                                    f->arena);
  free(bytes);

  const fbe_struct *writer = t_struct(f->protoex, "proto.OrderMessage");
  const fbe_struct *reader = t_struct(f->protoex, "protoex.OrderMessage");
  assert_int_not_equal(fbe_struct_type_id(writer), fbe_struct_type_id(reader));
  fbe_msg *sent = t_new(f->arena, writer);
  t_set_int(fbe_msg_ref(sent), "body.id", 7);
  t_set_str(fbe_msg_ref(sent), "body.symbol", "EURUSD");
  fbe_buffer b = t_encode(sent, FBE_MODEL_STANDARD);
  t_assert_decode_refused_as_verify(reader, FBE_MODEL_STANDARD, b.data, b.size, f->arena);
  fbe_ref got = fbe_msg_ref(t_decode_trusted(reader, FBE_MODEL_STANDARD, b.data, b.size, f->arena));
  fbe_buffer_free(&b);
  assert_int_equal(t_int(got, "body.id"), 7);
  t_assert_str(got, "body.symbol", "EURUSD");
  assert_true(t_dbl(got, "body.tp") == 10.0); /* protoex's defaults: proto has no tp, sl */
  assert_true(t_dbl(got, "body.sl") == -10.0);
}

#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_decode_examples),
      T(test_roundtrip),
      T(test_older_and_newer_writer),
      T(test_inheritance_cross_version),
      T(test_short_body),
      T(test_string_pointer_zero),
      T(test_optional_null_with_default),
      T(test_collection_and_struct_pointer_zero),
      T(test_missing_fields_dynamic_defaults),
      T(test_body_cut_inside_scalars),
      T(test_enums_roundtrip),
      T(test_model_size),
      T(test_lenient_reading),
      T(test_nan_payloads),
      T(test_duplicate_keys),
      T(test_root_pointer_not_8),
      T(test_truncated_every_length),
      T(test_shared_blocks_bounded),
      T(test_decode_arguments),
      T(test_decode_verifies),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

/* Unit tests of fbe_encode (core/include/fbe/codec.h): exact bytes of both wire
 * models for the worked examples of FORMAT.md 11, the scalar encodings of FORMAT.md 3
 * at their slot offsets, the allocation order of 5.9 and appending to a buffer. */
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

/* Encodes msg in `model` into a fresh buffer and compares with the hex dump. */
static void expect_encoding(const fbe_msg *msg, fbe_model model, const char *hex) {
  fbe_buffer b = t_encode(msg, model);
  t_assert_bytes(b.data, b.size, hex);
  /* the first u32 is the model size (FORMAT.md 4) */
  assert_int_equal(t_get32(b.data, 0), b.size);
  fbe_buffer_free(&b);
}

/* FORMAT.md 11.1: proto.Account, standard model, 252 bytes. */
static void test_account_standard(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_build_account(f->arena, t_struct(f->test, "proto.Account"));
  expect_encoding(m, FBE_MODEL_STANDARD, T_ACCOUNT_STD);
}

/* FORMAT.md 11.2: proto.Account, final model, 152 bytes. */
static void test_account_final(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_build_account(f->arena, t_struct(f->test, "proto.Account"));
  expect_encoding(m, FBE_MODEL_FINAL, T_ACCOUNT_FIN);
}

/* FORMAT.md 11.3: default proto.Account (70 bytes standard: empty string and empty
 * vector are allocated, absent optional is flag 0 + 4 zero bytes; state = 11). */
static void test_account_default(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_new(f->arena, t_struct(f->test, "proto.Account"));
  expect_encoding(m, FBE_MODEL_STANDARD, T_ACCOUNT_DEFAULT_STD);
  expect_encoding(m, FBE_MODEL_FINAL, T_ACCOUNT_DEFAULT_FIN);
}

/* FORMAT.md 5.2 / 11.3: the smallest models, test.StructEmpty (type 143). */
static void test_struct_empty(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_new(f->arena, t_struct(f->test, "test.StructEmpty"));
  expect_encoding(m, FBE_MODEL_STANDARD, T_EMPTY_STD);
  expect_encoding(m, FBE_MODEL_FINAL, T_EMPTY_FIN);
}

/* FORMAT.md 11.3: test.StructBytes, bytes and optional bytes (47 / 23 bytes). */
static void test_struct_bytes(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_build_bytes(f->arena, t_struct(f->test, "test.StructBytes"));
  expect_encoding(m, FBE_MODEL_STANDARD, T_BYTES_STD);
  expect_encoding(m, FBE_MODEL_FINAL, T_BYTES_FIN);
}

/* FORMAT.md 11.3: test.StructVector with optional elements (164 / 80 bytes). */
static void test_struct_vector(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_build_vector(f->arena, t_struct(f->test, "test.StructVector"));
  expect_encoding(m, FBE_MODEL_STANDARD, T_VECTOR_STD);
  expect_encoding(m, FBE_MODEL_FINAL, T_VECTOR_FIN);
}

/* FORMAT.md 2 / 11.3: lists are vectors on the wire; only the type id differs (131). */
static void test_struct_list(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_build_vector(f->arena, t_struct(f->test, "test.StructList"));
  size_t n;
  uint8_t *exp = t_hex(T_VECTOR_STD, &n);
  exp[0x0c] = 131; /* root body type id */
  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  t_assert_mem(b.data, b.size, exp, n);
  fbe_buffer_free(&b);
  free(exp);
  exp = t_hex(T_VECTOR_FIN, &n);
  exp[4] = 131; /* final root type id */
  b = t_encode(m, FBE_MODEL_FINAL);
  t_assert_mem(b.data, b.size, exp, n);
  fbe_buffer_free(&b);
  free(exp);
}

/* FORMAT.md 5.8 / 11.3: test.StructMap, pairs contiguous, key data before value data
 * (139 / 79 bytes). */
static void test_struct_map(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_build_map(f->arena, t_struct(f->test, "test.StructMap"));
  expect_encoding(m, FBE_MODEL_STANDARD, T_MAP_STD);
  expect_encoding(m, FBE_MODEL_FINAL, T_MAP_FIN);
}

/* FORMAT.md 11.3: test.StructHash with string keys (124 / 64 bytes). */
static void test_struct_hash(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_build_hash(f->arena, t_struct(f->test, "test.StructHash"));
  expect_encoding(m, FBE_MODEL_STANDARD, T_HASH_STD);
  expect_encoding(m, FBE_MODEL_FINAL, T_HASH_FIN);
}

/* FORMAT.md 5.4 / 11.4: inheritance, one header with the (base) type id 2, inherited
 * fields first (43 / 31 bytes). */
static void test_balance_inheritance(void **state) {
  fixture *f = *state;
  const fbe_struct *ex = t_struct(f->protoex, "protoex.Balance");
  assert_int_equal(fbe_struct_type_id(ex), 2);
  fbe_msg *m = t_build_balance_ex(f->arena, ex);
  expect_encoding(m, FBE_MODEL_STANDARD, T_BALANCE_EX_STD);
  expect_encoding(m, FBE_MODEL_FINAL, T_BALANCE_EX_FIN);
  /* the base struct alone */
  fbe_msg *b = t_new(f->arena, t_struct(f->protoex, "proto.Balance"));
  t_set_str(fbe_msg_ref(b), "currency", "USD");
  t_set_dbl(fbe_msg_ref(b), "amount", 1000.0);
  expect_encoding(b, FBE_MODEL_STANDARD, T_BALANCE_STD);
  expect_encoding(b, FBE_MODEL_FINAL, T_BALANCE_FIN);
}

/* Slot offsets inside test.StructSimple (FORMAT.md 2 inline sizes, 5.4 declaration
 * order). Body offsets (from the body start, header = 8 bytes):
 *   id 8 (int32) | f1 12 f2 13 f3 14 f4 15 f5 16 f6 17 (1 byte each) | f7 18 f8 22 (wchar 4)
 *   f9 26 f10 27 f11 28 f12 29 (1) | f13 30 f14 32 f15 34 f16 36 (2) | f17 38 f18 42 f19 46
 *   f20 50 (4) | f21 54 f22 62 f23 70 f24 78 (8) | f25 86 f26 90 (float 4) | f27 94 f28 102
 *   (double 8) | f29 110 f30 126 (decimal 16) | f31 142 f32 146 (string pointer 4) |
 *   f33 150 f34 158 f35 166 (timestamp 8) | f36 174 f37 190 f38 206 (uuid 16) |
 *   f39 222 f40 223 (byte enums) | f41 224 f42 228 (struct pointer 4) | f43 232 (byte
 *   flags) | f44 233 (pointer) -> S = 237.
 * Standard model: the root body starts at model offset 8, so a field's bytes are at
 * 8 + body offset. Final model: the 8-byte header is followed by the fields; every field
 * before f31 has a fixed size, so its model offset equals its body offset. After the
 * strings f31 = "" (4 bytes) and f32 = "ab" (6 bytes) the final offsets are
 *   f33 152 f34 160 f35 168 f36 176 f37 192 f38 208 f39 224 f40 225 f41 226 (Order, 26
 *   bytes) f42 252 (Balance, 12) f43 264 f44 265 (Account, 26) -> 291 bytes. */
typedef struct slot_check {
  const char *field;
  size_t body; /* body offset (standard model offset - 8) */
  size_t fin;  /* final model offset */
  const char *hex;
} slot_check;

static const slot_check SIMPLE_SLOTS[] = {
    {"id", 8, 8, "04 03 02 01"},
    {"f1", 12, 12, "01"},                         /* bool true */
    {"f2", 13, 13, "01"},                         /* default true */
    {"f4", 15, 15, "ff"},                         /* byte max */
    {"f5", 16, 16, "21"},                         /* char '!' */
    {"f6", 17, 17, "21"},                         /* default '!' */
    {"f7", 18, 18, "44 04 00 00"},                /* wchar U+0444 */
    {"f8", 22, 22, "44 04 00 00"},                /* default 0x0444 */
    {"f9", 26, 26, "ff"},                         /* int8 -1 */
    {"f10", 27, 27, "7f"},
    {"f12", 29, 29, "ff"},
    {"f13", 30, 30, "fe ff"},                     /* int16 -2 */
    {"f14", 32, 32, "ff 7f"},
    {"f15", 34, 34, "34 12"},                     /* uint16 0x1234 */
    {"f16", 36, 36, "ff ff"},
    {"f17", 38, 38, "fe ff ff ff"},               /* int32 -2 */
    {"f18", 42, 42, "ff ff ff 7f"},
    {"f19", 46, 46, "ef be ad de"},               /* uint32 0xdeadbeef */
    {"f20", 50, 50, "ff ff ff ff"},
    {"f21", 54, 54, "fe ff ff ff ff ff ff ff"},   /* int64 -2 (FORMAT.md 3.1) */
    {"f22", 62, 62, "ff ff ff ff ff ff ff 7f"},
    {"f23", 70, 70, "08 07 06 05 04 03 02 01"},   /* uint64 0x0102030405060708 */
    {"f24", 78, 78, "ff ff ff ff ff ff ff ff"},
    {"f25", 86, 86, "79 e9 f6 42"},               /* float 123.456 */
    {"f26", 90, 90, "79 e9 f6 42"},               /* default 123.456 */
    {"f27", 94, 94, "22 a5 55 10 2f 58 e7 d9"},   /* double -123.456e+123 */
    {"f28", 102, 102, "00 00 00 00 00 40 8f 40"}, /* double 1000.0 */
    {"f29", 110, 110, "40 f2 8e be 1c 00 00 00 00 00 00 00 00 00 06 00"}, /* 123456.123456 */
    {"f30", 126, 126, "40 f2 8e be 1c 00 00 00 00 00 00 00 00 00 06 00"},
    {"f33", 150, 152, "d8 25 88 d1 be 5a 6a 15"}, /* 1543145597933463000 ns (3.3) */
    {"f34", 158, 160, "00 00 00 00 00 00 00 00"},
    {"f35", 166, 168, "01 00 00 00 00 00 00 00"},
    {"f36", 174, 176, "12 3e 45 67 e8 9b 12 d3 a4 56 42 66 55 44 00 00"}, /* uuid (3.5) */
    {"f37", 190, 192, "00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff"},
    {"f38", 206, 208, "12 3e 45 67 e8 9b 12 d3 a4 56 42 66 55 44 00 00"},
    {"f39", 222, 224, "01"}, /* OrderSide.sell */
    {"f40", 223, 225, "02"}, /* OrderType.stop */
    {"f43", 232, 264, "0f"}, /* State flags */
};

static void check_slots(const uint8_t *data, int final_model) {
  for (size_t i = 0; i < sizeof SIMPLE_SLOTS / sizeof *SIMPLE_SLOTS; i++) {
    const slot_check *c = &SIMPLE_SLOTS[i];
    size_t n;
    uint8_t *exp = t_hex(c->hex, &n);
    size_t at = final_model ? c->fin : 8 + c->body;
    if (memcmp(data + at, exp, n) != 0) {
      t_dump("expected", exp, n);
      t_dump("got", data + at, n);
      free(exp);
      fail_msg("%s model: field %s at offset %zu", final_model ? "final" : "standard", c->field,
               at);
    }
    free(exp);
  }
}

/* FORMAT.md 3 scalar encodings, checked at their slots (offsets above). */
static void test_scalar_slots(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructSimple");
  fbe_msg *m = t_build_simple(f->arena, st);

  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  /* 8 header + 237 body + "" (4) + "ab" (6) + Order (34 + 4) + Balance (20 + 4)
   * + Account (30 + name 4 + wallet 20 + currency 4 + orders 4) = 379 */
  assert_int_equal(b.size, 379);
  assert_int_equal(t_get32(b.data, 0), 379);
  assert_int_equal(t_get32(b.data, 4), 8);
  assert_int_equal(t_get32(b.data, 8), 237);
  assert_int_equal(t_get32(b.data, 12), 110);
  check_slots(b.data, 0);
  /* 5.9 allocation order: f31 block right after the body (245), then f32, then the
   * bodies of f41, f42, f44, each followed by its own out-of-line data. Pointers are
   * relative to the body start (8); empty strings are allocated (5.3). */
  assert_int_equal(t_get32(b.data, 8 + 142), 245 - 8);
  assert_int_equal(t_get32(b.data, 245), 0);
  assert_int_equal(t_get32(b.data, 8 + 146), 249 - 8);
  t_assert_bytes(b.data + 249, 6, "02 00 00 00 61 62");
  assert_int_equal(t_get32(b.data, 8 + 224), 255 - 8); /* f41 Order body */
  t_assert_bytes(b.data + 255, 8, "22 00 00 00 01 00 00 00");
  assert_int_equal(t_get32(b.data, 8 + 228), 293 - 8); /* f42 Balance body */
  t_assert_bytes(b.data + 293, 8, "14 00 00 00 02 00 00 00");
  assert_int_equal(t_get32(b.data, 8 + 233), 317 - 8); /* f44 Account body */
  t_assert_bytes(b.data + 317, 8, "1e 00 00 00 03 00 00 00");
  assert_int_equal(b.data[317 + 16], 11); /* f44.state default */
  fbe_buffer_free(&b);

  b = t_encode(m, FBE_MODEL_FINAL);
  assert_int_equal(b.size, 291);
  t_assert_bytes(b.data, 8, "23 01 00 00 6e 00 00 00");
  check_slots(b.data, 1);
  t_assert_bytes(b.data + 142, 10, "00 00 00 00 02 00 00 00 61 62");
  fbe_buffer_free(&b);
}

/* Sizes of a default test.StructSimple: 392 bytes standard, 304 final. */
static void test_struct_simple_default_sizes(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_new(f->arena, t_struct(f->test, "test.StructSimple"));
  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  assert_int_equal(b.size, 392);
  /* f32 "Initial string!" block follows the empty f31 block */
  t_assert_bytes(b.data + 249, 19, "0f 00 00 00 49 6e 69 74 69 61 6c 20 73 74 72 69 6e 67 21");
  fbe_buffer_free(&b);
  b = t_encode(m, FBE_MODEL_FINAL);
  assert_int_equal(b.size, 304);
  fbe_buffer_free(&b);
}

/* FORMAT.md 3.2 decimal table, at the f29 slot (standard 8 + 110, final 110). */
static void test_decimal_table(void **state) {
  fixture *f = *state;
  static const struct {
    const char *text, *hex;
  } rows[] = {
      {"0", "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
      {"1", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
      {"-1", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80"},
      {"0.1", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00"},
      {"-0.000001", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 06 80"},
      {"1000", "e8 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
      {"1.000", "e8 03 00 00 00 00 00 00 00 00 00 00 00 00 03 00"},
      {"123456.123456", "40 f2 8e be 1c 00 00 00 00 00 00 00 00 00 06 00"},
      {"0.0000000000000000000000000001", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 1c 00"},
      {"79228162514264337593543950335", "ff ff ff ff ff ff ff ff ff ff ff ff 00 00 00 00"},
      {"-0", "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80"},
      {"1E+3", "e8 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00"}, /* scale 0 */
  };
  const fbe_struct *st = t_struct(f->test, "test.StructSimple");
  fbe_msg *m = t_new(f->arena, st);
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    t_set_dec(fbe_msg_ref(m), "f29", rows[i].text);
    for (int model = 0; model < 2; model++) {
      fbe_buffer b = t_encode(m, (fbe_model)model);
      size_t n;
      uint8_t *exp = t_hex(rows[i].hex, &n);
      size_t at = model == FBE_MODEL_FINAL ? 110 : 8 + 110;
      if (memcmp(b.data + at, exp, 16) != 0) {
        t_dump("expected", exp, 16);
        t_dump("got", b.data + at, 16);
        fail_msg("decimal %s, %s model", rows[i].text, model ? "final" : "standard");
      }
      free(exp);
      fbe_buffer_free(&b);
    }
  }
}

/* FORMAT.md 5.5: optional slots (flag + pointer), value slot with the base moved to it:
 * int32? 5 -> value slot 05 00 00 00; string? "xy" -> value slot 04 00 00 00 then the
 * string block. In test.StructOptional the optionals follow the 237-byte StructSimple
 * part, 5 bytes each: f100 at body offset 237, fN at 237 + 5 * (N - 100). */
static void test_optional_slots(void **state) {
  fixture *f = *state;
  fbe_msg *m = t_new(f->arena, t_struct(f->test, "test.StructOptional"));
  fbe_ref r = fbe_msg_ref(m);
  t_set_int(t_emplace(r, "f124"), "", 5);
  t_set_str(t_emplace(r, "f145"), "", "xy");
  T_CHECK(fbe_ref_set_null(t_path(r, "f101"), NULL), "f101");
  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  const size_t body = 8;
  assert_int_equal(t_get32(b.data, body), 567);
  assert_int_equal(t_get32(b.data, body + 4), 111);
  /* f101 null: flag 0, pointer bytes zero */
  t_assert_bytes(b.data + body + 237 + 5, 5, "00 00 00 00 00");
  /* f124 = 5 */
  size_t slot = body + 237 + 5 * 24;
  assert_int_equal(b.data[slot], 1);
  size_t value = body + t_get32(b.data, slot + 1);
  assert_true(value >= body + 567 && value + 4 <= b.size);
  t_assert_bytes(b.data + value, 4, "05 00 00 00");
  /* f145 = "xy": value slot holds 4 (relative to the value slot), block follows */
  slot = body + 237 + 5 * 45;
  assert_int_equal(b.data[slot], 1);
  value = body + t_get32(b.data, slot + 1);
  assert_true(value + 10 <= b.size);
  t_assert_bytes(b.data + value, 10, "04 00 00 00 02 00 00 00 78 79");
  fbe_buffer_free(&b);

  /* final model: the StructSimple part of a default value is 296 bytes (304 - 8), so
   * f100 starts at 304: f100 null, f101 null (set), f102 null, f103 null, f104 = 255
   * (01 ff), f105 null, f106 null, f107 = '!' (01 21) */
  b = t_encode(m, FBE_MODEL_FINAL);
  assert_int_equal(t_get32(b.data, 0), b.size);
  assert_int_equal(t_get32(b.data, 4), 111);
  t_assert_bytes(b.data + 304, 10, "00 00 00 00 01 ff 00 00 01 21");
  fbe_buffer_free(&b);
}

/* FORMAT.md 5.6 / 11.3 arrays: byte?[2] = [0x41, null], string[2]-like bytes[2] =
 * ["ab", ""]. test.StructArray body offsets: f1 8 (byte[2]), f2 10 (byte?[2], 10 bytes),
 * f3 20 (bytes[2], 8 bytes), f4 28, f5 38, f6 46, f7 56, f8 64, f9 74, f10 82 -> 92. */
static void test_array_slots(void **state) {
  fixture *f = *state;
  const fbe_struct *st = t_struct(f->test, "test.StructArray");
  fbe_msg *m = t_new(f->arena, st);
  fbe_ref r = fbe_msg_ref(m);
  t_set_uint(r, "f1[0]", 0x30);
  t_set_uint(r, "f1[1]", 0x31);
  t_set_uint(fbe_ref_emplace(t_path(r, "f2[0]")), "", 0x41);
  t_set_bytes(r, "f3[0]", "ab", 2);
  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  const size_t body = 8;
  assert_int_equal(t_get32(b.data, body), 92);
  assert_int_equal(t_get32(b.data, body + 4), 125);
  t_assert_bytes(b.data + body + 8, 2, "30 31");
  /* the first out-of-line block is f2[0]'s value slot, right after the body */
  t_assert_bytes(b.data + body + 10, 10, "01 5c 00 00 00 00 00 00 00 00");
  assert_int_equal(b.data[body + 92], 0x41);
  /* then f3[0] and f3[1] blocks */
  assert_int_equal(t_get32(b.data, body + 20), 93);
  assert_int_equal(t_get32(b.data, body + 24), 99);
  t_assert_bytes(b.data + body + 93, 10, "02 00 00 00 61 62 00 00 00 00");
  fbe_buffer_free(&b);

  b = t_encode(m, FBE_MODEL_FINAL);
  t_assert_bytes(b.data + 4, 4, "7d 00 00 00");
  t_assert_bytes(b.data + 8, 2 + 3 + 10, "30 31 01 41 00 02 00 00 00 61 62 00 00 00 00");
  fbe_buffer_free(&b);
}

/* fbe_encode appends: the bytes already in the buffer stay, and the new model is
 * self-contained (its pointers are relative to its own start, FORMAT.md 5.2 / 9.2). */
static void test_append_to_nonempty_buffer(void **state) {
  fixture *f = *state;
  fbe_msg *acc = t_build_account(f->arena, t_struct(f->test, "proto.Account"));
  fbe_msg *bal = t_new(f->arena, t_struct(f->test, "proto.Balance"));
  t_set_str(fbe_msg_ref(bal), "currency", "USD");
  t_set_dbl(fbe_msg_ref(bal), "amount", 1000.0);
  for (int model = 0; model < 2; model++) {
    fbe_buffer b;
    fbe_buffer_init(&b);
    assert_int_equal(fbe_buffer_append(&b, "junk!", 5), 0);
    assert_int_equal(fbe_encode(acc, (fbe_model)model, &b, NULL), FBE_OK);
    size_t first = b.size;
    assert_int_equal(fbe_encode(bal, (fbe_model)model, &b, NULL), FBE_OK);
    assert_memory_equal(b.data, "junk!", 5);
    if (model == FBE_MODEL_STANDARD) {
      assert_int_equal(first, 5 + 252);
      t_assert_bytes(b.data + 5, first - 5, T_ACCOUNT_STD);
      t_assert_bytes(b.data + first, b.size - first, T_BALANCE_STD);
    } else {
      assert_int_equal(first, 5 + 152);
      t_assert_bytes(b.data + 5, first - 5, T_ACCOUNT_FIN);
      t_assert_bytes(b.data + first, b.size - first, T_BALANCE_FIN);
    }
    fbe_buffer_free(&b);
  }
}

/* FORMAT.md 11.5: a protocol stream is the concatenation of two models. */
static void test_protocol_stream(void **state) {
  fixture *f = *state;
  fbe_msg *om = t_new(f->arena, t_struct(f->test, "proto.OrderMessage"));
  fbe_ref o = t_path(fbe_msg_ref(om), "body");
  t_set_int(o, "id", 1);
  t_set_str(o, "symbol", "EURUSD");
  t_set_dbl(o, "price", 1.23456);
  t_set_dbl(o, "volume", 1000.0);
  fbe_msg *bm = t_new(f->arena, t_struct(f->test, "proto.BalanceMessage"));
  t_set_str(fbe_msg_ref(bm), "body.currency", "USD");
  t_set_dbl(fbe_msg_ref(bm), "body.amount", 1000.0);
  for (int model = 0; model < 2; model++) {
    fbe_buffer b;
    fbe_buffer_init(&b);
    assert_int_equal(fbe_encode(om, (fbe_model)model, &b, NULL), FBE_OK);
    assert_int_equal(fbe_encode(bm, (fbe_model)model, &b, NULL), FBE_OK);
    t_assert_bytes(b.data, b.size, model == FBE_MODEL_STANDARD ? T_STREAM_STD : T_STREAM_FIN);
    fbe_buffer_free(&b);
  }
}

#if defined(__unix__) || defined(__APPLE__)
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#define HAVE_FORK 1
#endif

/* codec.h: fbe_encode fails only on out-of-memory, a model over 4 GiB, or a value
 * nested deeper than FBE_DEFAULT_MAX_DEPTH (FBE_ERR_LIMIT); message.h: fbe_msg_equal
 * returns 1 or 0. A deeply nested value (a chain of 100 000 optionals built with
 * fbe_ref_emplace) must get one of those answers from both, never a crash. Run in a
 * child process so that a stack overflow fails this test only; the child reports how
 * far it got through a pipe. */
static void test_deep_value(void **state) {
  (void)state;
#ifdef HAVE_FORK
  static const char *const stages[] = {"building the value", "fbe_encode (standard)",
                                       "fbe_encode (final)", "fbe_msg_equal", "done"};
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) { /* child: no cmocka assertions here, only exit codes */
    char stage = 0;
    close(fds[0]);
    const char *text = "package deep\nstruct Node { Node? next; }\n";
    fbe_schema *deep = fbe_schema_load_string(text, strlen(text), "deep.fbe", NULL, NULL);
    if (!deep) _exit(2);
    fbe_arena *arena = fbe_arena_new();
    fbe_msg *m = fbe_msg_new(arena, fbe_schema_find_struct(deep, "deep.Node"));
    if (!m) _exit(2);
    fbe_ref r = fbe_msg_ref(m);
    for (int i = 1; i < 100000; i++) r = fbe_ref_emplace(fbe_ref_field(r, "next"));
    if (!fbe_ref_ok(r)) _exit(2);
    for (int model = 0; model < 2; model++) {
      stage++;
      if (write(fds[1], &stage, 1) != 1) _exit(2);
      fbe_buffer b;
      fbe_buffer_init(&b);
      fbe_status s = fbe_encode(m, (fbe_model)model, &b, NULL);
      if (s != FBE_OK && s != FBE_ERR_LIMIT) _exit(3);
      if (s == FBE_OK && b.size != (model == FBE_MODEL_STANDARD ? 8 + 17 * 100000 - 4 : 8 + 100000))
        _exit(4);
      fbe_buffer_free(&b);
    }
    stage++;
    if (write(fds[1], &stage, 1) != 1) _exit(2);
    if (fbe_msg_equal(m, m) != 1) _exit(5);
    stage++;
    if (write(fds[1], &stage, 1) != 1) _exit(2);
    fbe_arena_free(arena);
    fbe_schema_release(deep);
    _exit(0);
  }
  close(fds[1]);
  char stage = 0, c;
  while (read(fds[0], &c, 1) == 1) stage = c;
  close(fds[0]);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (WIFSIGNALED(status))
    fail_msg("a 100000-deep value crashed in %s (signal %d)", stages[(int)stage], WTERMSIG(status));
  if (WEXITSTATUS(status) != 0)
    fail_msg("a 100000-deep value: %s failed (exit %d)", stages[(int)stage], WEXITSTATUS(status));
#else
  /* No fork (Windows): the same steps in this process; a stack overflow ends the whole
   * program, which ctest reports as this test program failing. */
  const char *text = "package deep\nstruct Node { Node? next; }\n";
  fbe_schema *deep = fbe_schema_load_string(text, strlen(text), "deep.fbe", NULL, NULL);
  assert_non_null(deep);
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = fbe_msg_new(arena, fbe_schema_find_struct(deep, "deep.Node"));
  assert_non_null(m);
  fbe_ref r = fbe_msg_ref(m);
  for (int i = 1; i < 100000; i++) r = fbe_ref_emplace(fbe_ref_field(r, "next"));
  assert_true(fbe_ref_ok(r));
  for (int model = 0; model < 2; model++) {
    fbe_buffer b;
    fbe_buffer_init(&b);
    fbe_status s = fbe_encode(m, (fbe_model)model, &b, NULL);
    assert_true(s == FBE_OK || s == FBE_ERR_LIMIT);
    if (s == FBE_OK)
      assert_int_equal(b.size, model == FBE_MODEL_STANDARD ? 8 + 17 * 100000 - 4 : 8 + 100000);
    fbe_buffer_free(&b);
  }
  assert_int_equal(fbe_msg_equal(m, m), 1);
  fbe_arena_free(arena);
  fbe_schema_release(deep);
#endif
}

/* fbe_encode argument checks. */
static void test_encode_arguments(void **state) {
  fixture *f = *state;
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  assert_int_equal(fbe_encode(NULL, FBE_MODEL_STANDARD, &b, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(err.code, FBE_ERR_ARGUMENT);
  fbe_msg *m = t_new(f->arena, t_struct(f->test, "test.StructEmpty"));
  assert_int_equal(fbe_encode(m, FBE_MODEL_STANDARD, NULL, NULL), FBE_ERR_ARGUMENT);
  assert_int_equal(b.size, 0);
  fbe_buffer_free(&b);
}

#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_account_standard),
      T(test_account_final),
      T(test_account_default),
      T(test_struct_empty),
      T(test_struct_bytes),
      T(test_struct_vector),
      T(test_struct_list),
      T(test_struct_map),
      T(test_struct_hash),
      T(test_balance_inheritance),
      T(test_scalar_slots),
      T(test_struct_simple_default_sizes),
      T(test_decimal_table),
      T(test_optional_slots),
      T(test_array_slots),
      T(test_append_to_nonempty_buffer),
      T(test_protocol_stream),
      T(test_deep_value),
      T(test_encode_arguments),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

/* The tape (fbe/internal/tape.h) that Java and JavaScript cross on: every conformance
 * vector's value written onto a tape and read back in both slot formats (and, INT64,
 * encoded straight from the tape as fbe_encode encodes it), the slots as each host
 * reads them, the range check of the DOUBLE format with its path, a tape too small for
 * the value, a tape that ends early, the depth rule, and what the straight encode
 * leaves to the general way. */
#include <math.h>
#include "fbe_test.h"
#include "fbe/internal/tape.h"

static const fbei_tape_format FORMATS[] = {FBE_TAPE_INT64, FBE_TAPE_DOUBLE};

/* A tape of n slots and p bytes (heap blocks the caller frees with t_tape_free). */
static fbei_tape t_tape(uint64_t n, uint64_t p) {
  fbei_tape tp = {calloc(n + 1, sizeof(fbei_tape_slot)), (uint32_t)n, calloc(p + 1, 1), (uint32_t)p};
  assert_non_null(tp.num);
  assert_non_null(tp.bytes);
  return tp;
}

static void t_tape_free(fbei_tape *tp) {
  free(tp->num);
  free(tp->bytes);
}

/* The model's bytes written straight from the tape (fbei_tape_encode) are fbe_encode's
 * of m, in both models, or it leaves m to the general way when m can hold a set, map or
 * hash; with a byte less of room it leaves it too. */
static void direct_encode(const fbei_tape_programs *progs, const fbei_tape *tp, const fbe_msg *m, const char *what) {
  static uint8_t out[1 << 17];
  for (int model = 0; model < 2; model++) {
    fbe_model md = model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbe_buffer want;
    fbe_buffer_init(&want);
    fbe_error err;
    if (fbe_encode(m, md, &want, &err) != FBE_OK) fail_msg("%s: encode: %s", what, err.message);
    int64_t size = fbei_tape_encode(progs, tp, fbe_msg_type(m), md, out, sizeof out);
    if (size < 0) {
      if (!fbei_tape_keyed(progs, fbe_msg_type(m))) fail_msg("%s: left to the general way (model %d)", what, model);
    } else {
      assert_int_equal((size_t)size, want.size);
      if (memcmp(out, want.data, want.size)) fail_msg("%s: other bytes than fbe_encode's (model %d)", what, model);
      assert_int_equal(fbei_tape_encode(progs, tp, fbe_msg_type(m), md, out, (size_t)size - 1), -1);
    }
    fbe_buffer_free(&want);
  }
}

/* m written onto a tape that fits exactly (after asking a too small one what it
 * needs), read back as a message equal to m, the positions past the whole value; and
 * (INT64) encoded straight from it as fbe_encode encodes m. */
static void round_trip(const fbei_tape_programs *progs, const fbe_msg *m, const char *what) {
  uint64_t need_n = 0, need_p = 0, again_n = 0, again_p = 0;
  fbei_tape none = {NULL, 0, NULL, 0};
  int rc = fbei_tape_write(progs, &none, m, 0, 0, &need_n, &need_p);
  assert_int_equal(rc, need_n || need_p ? -1 : 0);
  fbei_tape tp = t_tape(need_n, need_p);
  assert_int_equal(fbei_tape_write(progs, &tp, m, 0, 0, &again_n, &again_p), 0);
  assert_int_equal(again_n, need_n);
  assert_int_equal(again_p, need_p);
  fbe_arena *arena = fbe_arena_new();
  fbe_error err;
  memset(&err, 0, sizeof err);
  uint32_t n = 0, p = 0;
  fbe_msg *back = fbei_tape_read(progs, &tp, fbe_msg_type(m), &n, &p, arena, &err);
  if (!back) fail_msg("%s: read back failed: %s at '%s'", what, err.message, err.path);
  assert_int_equal(n, need_n);
  assert_int_equal(p, need_p);
  if (!fbe_msg_equal(m, back)) fail_msg("%s: read back differs", what);
  if (fbei_tape_programs_check(progs, fbe_msg_type(m), FBE_TAPE_INT64)) direct_encode(progs, &tp, m, what);
  else assert_int_equal(fbei_tape_encode(progs, &tp, fbe_msg_type(m), FBE_MODEL_FINAL, NULL, 0), -1);
  fbe_arena_free(arena);
  t_tape_free(&tp);
}

/* The quoted string value of "key":"..." in a conformance record line (the last one:
 * a record's own keys are plain, the value's JSON comes before "hex"). */
static int t_field(const char *line, const char *key, char *out, size_t cap) {
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

static void test_vectors_round_trip(void **state) {
  (void)state;
  const char *names[] = {"proto", "protoex", "test", "enums"};
  fbe_schema *schemas[4];
  fbei_tape_programs *progs[4][2];
  for (int i = 0; i < 4; i++) {
    char file[32];
    snprintf(file, sizeof file, "%s.fbe", names[i]);
    schemas[i] = t_load(file);
    for (int f = 0; f < 2; f++) assert_non_null(progs[i][f] = fbei_tape_compile(schemas[i], FORMATS[f]));
  }
  FILE *in = fopen(FBE_TESTS_DIR "/conformance/vectors.jsonl", "rb");
  assert_non_null(in);
  static char line[1 << 17];
  char schema[64], type[128], format[32], what[256];
  static char hex[1 << 16];
  int count = 0;
  while (fgets(line, sizeof line, in)) {
    if (t_field(line, "schema", schema, sizeof schema) || t_field(line, "type", type, sizeof type) ||
        t_field(line, "format", format, sizeof format) || t_field(line, "hex", hex, sizeof hex))
      fail_msg("a vector without schema, type, format or hex: %.80s", line);
    if (strcmp(format, "standard") && strcmp(format, "final")) continue; /* streams: frames */
    int i = 0;
    while (i < 4 && strcmp(names[i], schema)) i++;
    assert_true(i < 4);
    char full[256];
    snprintf(full, sizeof full, "%s.%s", schema, type);
    fbe_model model = strcmp(format, "final") ? FBE_MODEL_STANDARD : FBE_MODEL_FINAL;
    size_t size = strlen(hex) / 2;
    uint8_t *bytes = malloc(size + 1);
    assert_non_null(bytes);
    for (size_t k = 0; k < size; k++) {
      unsigned byte;
      assert_int_equal(sscanf(hex + 2 * k, "%2x", &byte), 1);
      bytes[k] = (uint8_t)byte;
    }
    fbe_arena *arena = fbe_arena_new();
    fbe_msg *m = t_decode(t_struct(schemas[i], full), model, bytes, size, arena);
    for (int f = 0; f < 2; f++) {
      snprintf(what, sizeof what, "%s %s, format %d", full, format, f);
      round_trip(progs[i][f], m, what);
    }
    fbe_arena_free(arena);
    free(bytes);
    count++;
  }
  fclose(in);
  assert_true(count > 0);
  for (int i = 0; i < 4; i++) {
    for (int f = 0; f < 2; f++) fbei_tape_programs_free(progs[i][f]);
    fbe_schema_release(schemas[i]);
  }
}

static const char *SCHEMA =
    "package t\n"
    "struct Inner { int32[] v; }\n"
    "struct S { int8 a; uint32 b; float c; string s; uuid u; bool f; Inner inner;\n"
    "  string<int16> m; int64? big; }\n"
    "struct R { R? next; }\n";

static const char *VALUE =
    "{\"a\": -5, \"b\": 4294967295, \"c\": 1.5, \"s\": \"\\u0444\", "
    "\"u\": \"123e4567-e89b-12d3-a456-426655440000\", \"f\": true, "
    "\"inner\": {\"v\": [7, -8]}, \"m\": {\"3\": \"x\"}, \"big\": -9}";

static fbe_msg *value_of(const fbe_struct *st, fbe_arena *arena) {
  fbe_msg *m = NULL;
  fbe_error err;
  if (fbe_msg_from_json(st, VALUE, strlen(VALUE), arena, &m, &err) != FBE_OK)
    fail_msg("json: %s at '%s'", err.message, err.path);
  return m;
}

/* The slots in the order tape.h gives, as each host reads them. */
static void test_slot_formats(void **state) {
  (void)state;
  fbe_schema *s = t_load_text(SCHEMA, "t.fbe");
  const fbe_struct *st = t_struct(s, "t.S");
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = value_of(st, arena);
  fbei_tape tp = t_tape(64, 256);
  uint64_t need_n, need_p;

  /* a b c s u u f inner.v: count 7 -8, m: count key value, big: flag value */
  fbei_tape_programs *ints = fbei_tape_compile(s, FBE_TAPE_INT64);
  assert_int_equal(fbei_tape_write(ints, &tp, m, 0, 0, &need_n, &need_p), 0);
  const int64_t want_i[] = {-5, 4294967295, 0x3fc00000 /* 1.5f's bits */, 2 /* U+0444's bytes */,
                            0x123e4567e89b12d3, (int64_t)0xa456426655440000u, 1, 2, 7, -8, 1, 3, 1,
                            1, -9};
  assert_int_equal(need_n, 15);
  assert_int_equal(need_p, 3);
  for (size_t i = 0; i < 15; i++) assert_int_equal(tp.num[i].i, want_i[i]);
  assert_memory_equal(tp.bytes, "\xd1\x84" "x", 3);
  round_trip(ints, m, "INT64");
  fbei_tape_programs_free(ints);

  /* the same, the uuid as text; the 64-bit big as its pattern */
  fbei_tape_programs *nums = fbei_tape_compile(s, FBE_TAPE_DOUBLE);
  assert_int_equal(fbei_tape_write(nums, &tp, m, 0, 0, &need_n, &need_p), 0);
  const double want_d[] = {-5, 4294967295.0, 1.5, -2 /* not ASCII: negated */, 36, 1, 2, 7, -8,
                           1, 3, 1 /* "x": ASCII */, 1};
  assert_int_equal(need_n, 14);
  assert_int_equal(need_p, 39);
  for (size_t i = 0; i < 13; i++) assert_true(tp.num[i].d == want_d[i]);
  int64_t big;
  memcpy(&big, &tp.num[13], 8);
  assert_int_equal(big, -9);
  assert_memory_equal(tp.bytes, "\xd1\x84" "123e4567-e89b-12d3-a456-426655440000" "x", 39);
  round_trip(nums, m, "DOUBLE");
  fbei_tape_programs_free(nums);

  t_tape_free(&tp);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

static void read_fails(const fbei_tape_programs *progs, const fbei_tape *tp, const fbe_struct *st,
                       fbe_status code, const char *text) {
  fbe_arena *arena = fbe_arena_new();
  fbe_error err;
  memset(&err, 0, sizeof err);
  uint32_t n = 0, p = 0;
  assert_null(fbei_tape_read(progs, tp, st, &n, &p, arena, &err));
  assert_int_equal(err.code, code);
  char got[512];
  fbe_error_format(&err, got, sizeof got);
  assert_string_equal(got, text);
  fbe_arena_free(arena);
}

/* A DOUBLE number that does not fit its field is the core's range error, with the
 * value's path, and one that is not whole the core's type error (docs/INPUT.md: a float
 * for an integer); bad uuid text the core's argument error; a tape that ends early is an
 * error, not a read past it. */
static void test_range_and_overrun(void **state) {
  (void)state;
  fbe_schema *s = t_load_text(SCHEMA, "t.fbe");
  const fbe_struct *st = t_struct(s, "t.S");
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = value_of(st, arena);
  fbei_tape_programs *nums = fbei_tape_compile(s, FBE_TAPE_DOUBLE);
  fbei_tape tp = t_tape(64, 256);
  uint64_t need_n, need_p;
  assert_int_equal(fbei_tape_write(nums, &tp, m, 0, 0, &need_n, &need_p), 0);

  /* a b c s u f inner.v: count 7 -8, m: count key value, big: flag value */
  tp.num[0].d = 300;
  read_fails(nums, &tp, st, FBE_ERR_RANGE, "value 300 does not fit int8 at 'a'");
  tp.num[0].d = -5;
  tp.num[8].d = 1.5;
  read_fails(nums, &tp, st, FBE_ERR_TYPE, "expected int32, got a float at 'inner.v[1]'");
  tp.num[8].d = -8;
  tp.num[10].d = 40000;
  read_fails(nums, &tp, st, FBE_ERR_RANGE, "value 40000 does not fit int16 at 'm[0][key]'");
  tp.num[10].d = 3;
  tp.num[1].d = -1;
  read_fails(nums, &tp, st, FBE_ERR_RANGE, "value -1 does not fit uint32 at 'b'");
  tp.num[1].d = NAN;
  read_fails(nums, &tp, st, FBE_ERR_TYPE, "expected uint32, got a float at 'b'");
  tp.num[1].d = -INFINITY;
  read_fails(nums, &tp, st, FBE_ERR_TYPE, "expected uint32, got a float at 'b'");
  tp.num[1].d = 4294967296.0;
  read_fails(nums, &tp, st, FBE_ERR_RANGE, "value 4294967296 does not fit uint32 at 'b'");
  tp.num[1].d = 4294967295.0;
  tp.num[2].d = 1e39;
  read_fails(nums, &tp, st, FBE_ERR_RANGE, "value 1e+39 does not fit float at 'c'");
  tp.num[2].d = 1.5;
  tp.bytes[0] = 0xff; /* the core's UTF-8 check and words */
  fbe_error bad;
  assert_int_equal(fbe_utf8_check(tp.bytes, 2, &bad), FBE_ERR_ARGUMENT);
  char want[400];
  snprintf(want, sizeof want, "%s at 's'", bad.message);
  read_fails(nums, &tp, st, FBE_ERR_ARGUMENT, want);
  tp.bytes[0] = 0xd1;
  tp.num[4].d = 35; /* the uuid text one short */
  read_fails(nums, &tp, st, FBE_ERR_ARGUMENT,
             "'123e4567-e89b-12d3-a456-42665544000' is not a uuid (8-4-4-4-12 hexadecimal digits) at 'u'");
  tp.num[4].d = 36;
  { /* the whole value reads again */
    uint32_t n = 0, p = 0;
    fbe_error err;
    assert_true(fbe_msg_equal(m, fbei_tape_read(nums, &tp, st, &n, &p, arena, &err)));
  }

  fbei_tape cut = tp;
  cut.num_cap = 2;
  read_fails(nums, &cut, st, FBE_ERR_ARGUMENT, "internal error: the value tape ends early at 'c'");
  cut = tp;
  cut.bytes_cap = 1;
  read_fails(nums, &cut, st, FBE_ERR_ARGUMENT, "internal error: the value tape ends early at 's'");
  tp.num[6].d = 1e9; /* a count the tape cannot hold */
  read_fails(nums, &tp, st, FBE_ERR_ARGUMENT, "internal error: the value tape ends early at 'inner.v'");

  t_tape_free(&tp);
  fbei_tape_programs_free(nums);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

/* A decimal crosses as text: text that is not a decimal is the core's argument error,
 * one beyond 96 bits its decimal range error (docs/INPUT.md). */
static void test_decimal_text(void **state) {
  (void)state;
  fbe_schema *s = t_load_text("package d\nstruct D { decimal x; }\n", "d.fbe");
  const fbe_struct *st = t_struct(s, "d.D");
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = t_new(arena, st);
  t_set_dec(fbe_msg_ref(m), "x", "1.50");
  for (size_t f = 0; f < 2; f++) {
    fbei_tape_programs *progs = fbei_tape_compile(s, FORMATS[f]);
    fbei_tape tp = t_tape(8, 64);
    uint64_t need_n, need_p;
    assert_int_equal(fbei_tape_write(progs, &tp, m, 0, 0, &need_n, &need_p), 0);
    assert_int_equal(need_p, 4);
    assert_memory_equal(tp.bytes, "1.50", 4);
    memcpy(tp.bytes, "1,50", 4);
    read_fails(progs, &tp, st, FBE_ERR_ARGUMENT, "'1,50' is not a decimal number at 'x'");
    memcpy(tp.bytes, "9E99", 4);
    read_fails(progs, &tp, st, FBE_ERR_RANGE,
               "decimal 9E99 does not fit FBE's decimal (96-bit coefficient, scale 0..28) at 'x'");
    t_tape_free(&tp);
    fbei_tape_programs_free(progs);
  }
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

/* A tape too small for the value: nothing written past its ends, and what it needs
 * counted from where the value starts. */
static void test_need_space(void **state) {
  (void)state;
  fbe_schema *s = t_load_text(SCHEMA, "t.fbe");
  const fbe_struct *st = t_struct(s, "t.S");
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = value_of(st, arena);
  for (int f = 0; f < 2; f++) {
    fbei_tape_programs *progs = fbei_tape_compile(s, FORMATS[f]);
    fbei_tape tp = t_tape(64, 256);
    memset(tp.num, 0xAB, 64 * sizeof *tp.num);
    memset(tp.bytes, 0xAB, 256);
    fbei_tape small = {tp.num, 10, tp.bytes, 1};
    uint64_t need_n, need_p;
    assert_int_equal(fbei_tape_write(progs, &small, m, 4, 0, &need_n, &need_p), -1);
    assert_int_equal(need_n, f ? 14 : 15); /* DOUBLE: the uuid as text */
    assert_int_equal(need_p, f ? 39 : 3);
    for (int i = 10; i < 64; i++) assert_int_equal(tp.num[i].i, (int64_t)0xABABABABABABABABu);
    for (int i = 1; i < 256; i++) assert_int_equal(tp.bytes[i], 0xAB);
    fbei_tape big = {tp.num, 4 + (uint32_t)need_n, tp.bytes, (uint32_t)need_p};
    assert_int_equal(fbei_tape_write(progs, &big, m, 4, 0, &need_n, &need_p), 0);
    fbe_error err;
    uint32_t n = 4, p = 0;
    fbe_msg *back = fbei_tape_read(progs, &big, st, &n, &p, arena, &err);
    assert_non_null(back);
    assert_int_equal(n, 4 + need_n);
    assert_true(fbe_msg_equal(m, back));
    t_tape_free(&tp);
    fbei_tape_programs_free(progs);
  }
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

/* Present optionals nest one level each: FBE_DEFAULT_MAX_DEPTH of them read, one
 * more is the core's depth error. */
static void test_depth(void **state) {
  (void)state;
  fbe_schema *s = t_load_text(SCHEMA, "t.fbe");
  const fbe_struct *r = t_struct(s, "t.R");
  fbei_tape_programs *ints = fbei_tape_compile(s, FBE_TAPE_INT64);
  fbei_tape tp = t_tape(FBE_DEFAULT_MAX_DEPTH + 2, 0);
  for (uint32_t i = 0; i < FBE_DEFAULT_MAX_DEPTH; i++) tp.num[i].i = 1;
  tp.num[FBE_DEFAULT_MAX_DEPTH].i = 0;
  fbe_arena *arena = fbe_arena_new();
  fbe_error err;
  uint32_t n = 0, p = 0;
  assert_non_null(fbei_tape_read(ints, &tp, r, &n, &p, arena, &err));
  assert_int_equal(n, FBE_DEFAULT_MAX_DEPTH + 1);
  tp.num[FBE_DEFAULT_MAX_DEPTH].i = 1;
  tp.num[FBE_DEFAULT_MAX_DEPTH + 1].i = 0;
  n = 0;
  assert_null(fbei_tape_read(ints, &tp, r, &n, &p, arena, &err));
  assert_int_equal(err.code, FBE_ERR_LIMIT);
  uint8_t out[2048];
  for (int model = 0; model < 2; model++) /* too deep: the general way's error */
    assert_int_equal(fbei_tape_encode(ints, &tp, r, model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, out, sizeof out), -1);
  fbe_error want;
  fbei_tape_too_deep(&want);
  assert_string_equal(err.message, want.message);
  fbe_arena_free(arena);
  t_tape_free(&tp);
  fbei_tape_programs_free(ints);
  fbe_schema_release(s);
}

/* What fbei_tape_encode leaves to the general way: a string that is not UTF-8, a tape
 * that ends early, a value holding a map (t.S's m). */
static void test_direct_encode_leaves(void **state) {
  (void)state;
  fbe_schema *s = t_load_text("package d\nstruct D { string s; int32[] v; }\n", "d.fbe");
  const fbe_struct *st = t_struct(s, "d.D");
  fbei_tape_programs *ints = fbei_tape_compile(s, FBE_TAPE_INT64);
  fbei_tape tp = t_tape(8, 8);
  tp.num[0].i = 2; /* s: 2 bytes */
  memcpy(tp.bytes, "ok", 2);
  tp.num[1].i = 2; /* v: 2 elements */
  tp.num[2].i = 7;
  tp.num[3].i = -8;
  uint8_t out[256];
  for (int model = 0; model < 2; model++) {
    fbe_model md = model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbei_tape whole = {tp.num, 4, tp.bytes, 2}, short_tape = {tp.num, 3, tp.bytes, 2};
    assert_true(fbei_tape_encode(ints, &whole, st, md, out, sizeof out) > 0);
    assert_int_equal(fbei_tape_encode(ints, &short_tape, st, md, out, sizeof out), -1);
    tp.bytes[0] = 0xff;
    assert_int_equal(fbei_tape_encode(ints, &whole, st, md, out, sizeof out), -1);
    tp.bytes[0] = 'o';
  }
  fbei_tape_programs_free(ints);
  fbe_schema_release(s);
  s = t_load_text(SCHEMA, "t.fbe");
  ints = fbei_tape_compile(s, FBE_TAPE_INT64);
  assert_true(fbei_tape_keyed(ints, t_struct(s, "t.S")));
  assert_false(fbei_tape_keyed(ints, t_struct(s, "t.R")));
  assert_false(fbei_tape_keyed(ints, t_struct(s, "t.Inner")));
  fbei_tape_programs_free(ints);
  fbe_schema_release(s);
  /* through a cycle: A reaches B's map, so A, B and C (which holds an A) are keyed; D is not */
  s = t_load_text("package c\nstruct A { B? b; int32 x; }\nstruct B { A[] a; int32<int32> m; }\n"
                  "struct C { A a; }\nstruct D { D? d; C[] never; }\nstruct E { E? e; }\n", "c.fbe");
  ints = fbei_tape_compile(s, FBE_TAPE_INT64);
  assert_true(fbei_tape_keyed(ints, t_struct(s, "c.A")));
  assert_true(fbei_tape_keyed(ints, t_struct(s, "c.B")));
  assert_true(fbei_tape_keyed(ints, t_struct(s, "c.C")));
  assert_true(fbei_tape_keyed(ints, t_struct(s, "c.D")));
  assert_false(fbei_tape_keyed(ints, t_struct(s, "c.E")));
  fbei_tape_programs_free(ints);
  fbe_schema_release(s);
  t_tape_free(&tp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vectors_round_trip),
      cmocka_unit_test(test_slot_formats),
      cmocka_unit_test(test_range_and_overrun),
      cmocka_unit_test(test_decimal_text),
      cmocka_unit_test(test_need_space),
      cmocka_unit_test(test_depth),
      cmocka_unit_test(test_direct_encode_leaves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

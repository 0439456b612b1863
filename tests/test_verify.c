/* Unit tests of fbe_verify (core/include/fbe/codec.h): valid models verify and report
 * their size (FORMAT.md 5.11, 6.5); hostile buffers are rejected with
 * FBE_ERR_MALFORMED / FBE_ERR_LIMIT and an error naming the offset of the bad bytes and
 * the path of the field. Every hostile buffer is also given to fbe_decode, which must
 * refuse it with verify's very error (status, reason, offset, path), and to
 * fbe_decode_trusted, which must return an error or a value and never crash (run under
 * AddressSanitizer). */
#include "fbe_test.h"

#define NO FBE_NO_OFFSET

typedef struct fixture {
  fbe_schema *test;    /* test.fbe + proto */
  fbe_schema *protoex; /* protoex.fbe + proto */
  fbe_schema *deep;    /* package deep: struct Node { Node? next; } */
  const fbe_struct *account, *node;
  fbe_arena *arena;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  assert_non_null(f);
  f->test = t_load("test.fbe");
  f->protoex = t_load("protoex.fbe");
  f->deep = t_load_text("package deep\n\nstruct Node\n{\n    Node? next;\n}\n", "deep.fbe");
  f->account = t_struct(f->test, "proto.Account");
  f->node = t_struct(f->deep, "deep.Node");
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->test);
  fbe_schema_release(f->protoex);
  fbe_schema_release(f->deep);
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

/* Gives data[0..n) (an exact-size copy) to fbe_decode_trusted, the decoder without the
 * verify: an error or a value, nothing else. A value must come with a model size inside
 * the buffer. */
static void decode_does_not_crash(const fbe_struct *st, fbe_model model, const uint8_t *data,
                                  size_t n, const fbe_limits *limits) {
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  uint8_t *copy = t_dup(data, n);
  fbe_msg *out = NULL;
  size_t size = 0;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbe_decode_trusted(st, model, copy, n, arena, limits, &out, &size, &err);
  if (s == FBE_OK) {
    assert_non_null(out);
    assert_true(size <= n);
  } else {
    assert_int_equal(err.code, s);
  }
  free(copy);
  fbe_arena_free(arena);
}

/* Gives data[0..n) (an exact-size copy), which verify refused with verr, to fbe_decode:
 * it must refuse it with the same error and give no message. 0, or 1 after printing
 * what differs. */
static int decode_refuses_like_verify(const fbe_struct *st, fbe_model model, const uint8_t *data,
                                      size_t n, const fbe_limits *limits, const fbe_error *verr,
                                      const char *what) {
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  uint8_t *copy = t_dup(data, n);
  fbe_msg *out = NULL;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbe_decode(st, model, copy, n, arena, limits, &out, NULL, &err);
  free(copy);
  fbe_arena_free(arena);
  char got[512], want[512];
  fbe_error_format(&err, got, sizeof got);
  fbe_error_format(verr, want, sizeof want);
  if (s != verr->code || err.code != verr->code || err.offset != verr->offset ||
      strcmp(err.path, verr->path) || strcmp(err.message, verr->message) || out) {
    print_message("FAIL %s: decode says %s (%s), verify said %s (%s)\n", what, fbe_status_name(s), got,
                  fbe_status_name(verr->code), want);
    return 1;
  }
  return 0;
}

/* Verifies data[0..n) from an exact-size copy. */
static fbe_status verify(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                         const fbe_limits *limits, size_t *model_size, fbe_error *err) {
  uint8_t *copy = t_dup(data, n);
  memset(err, 0, sizeof *err);
  err->offset = FBE_NO_OFFSET;
  fbe_status s = fbe_verify(st, model, copy, n, limits, model_size, err);
  free(copy);
  return s;
}

/* Checks that verify rejects the buffer: code MALFORMED (or LIMIT when allow_limit),
 * offset one of offsets[] (terminated by FBE_NO_OFFSET; NULL = any), path equal to
 * `path` (exact_path) or starting with it (NULL = any; "" exact = the root). Then runs
 * decode on it (which must not crash). Returns 0, or 1 after printing what is wrong,
 * so that table-driven tests report every failing case. */
static int check_reject(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                        const fbe_limits *limits, int allow_limit, const size_t *offsets,
                        const char *path, int exact_path, const char *what) {
  fbe_error err;
  size_t size = 12345;
  fbe_status s = verify(st, model, data, n, limits, &size, &err);
  char text[512];
  fbe_error_format(&err, text, sizeof text);
  int bad = 0;
  if (s == FBE_OK) {
    print_message("FAIL %s: verify accepted a hostile buffer\n", what);
    bad = 1;
  } else if (!(s == FBE_ERR_MALFORMED || (allow_limit && s == FBE_ERR_LIMIT))) {
    print_message("FAIL %s: verify returned %s (%s)\n", what, fbe_status_name(s), text);
    bad = 1;
  } else if (err.code != s || err.message[0] == '\0') {
    print_message("FAIL %s: error record not filled in\n", what);
    bad = 1;
  } else {
    if (offsets) {
      int found = 0;
      for (const size_t *o = offsets; *o != FBE_NO_OFFSET; o++) found |= err.offset == *o;
      if (!found) {
        print_message("FAIL %s: error offset %zu is not where the bad bytes are (%s)\n", what,
                      err.offset, text);
        bad = 1;
      }
    }
    if (path) {
      int ok = exact_path ? strcmp(err.path, path) == 0
                          : strncmp(err.path, path, strlen(path)) == 0;
      if (!ok) {
        print_message("FAIL %s: error path '%s', expected %s'%s' (%s)\n", what, err.path,
                      exact_path ? "" : "a path starting with ", path, text);
        bad = 1;
      }
    }
  }
  if (s != FBE_OK) bad |= decode_refuses_like_verify(st, model, data, n, limits, &err, what);
  decode_does_not_crash(st, model, data, n, limits);
  return bad;
}

static void expect_reject_ex(const fbe_struct *st, fbe_model model, const uint8_t *data,
                             size_t n, const fbe_limits *limits, int allow_limit,
                             const size_t *offsets, const char *path, int exact_path,
                             const char *what) {
  if (check_reject(st, model, data, n, limits, allow_limit, offsets, path, exact_path, what))
    fail_msg("%s", what);
}

/* Offset must be exactly `offset` and the path exactly `path`. */
static void expect_reject(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                          size_t offset, const char *path, const char *what) {
  size_t offsets[] = {offset, FBE_NO_OFFSET};
  expect_reject_ex(st, model, data, n, NULL, 0, offsets, path, 1, what);
}

static void expect_valid(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                         size_t model_size, const char *what) {
  fbe_error err;
  size_t size = 0;
  fbe_status s = verify(st, model, data, n, NULL, &size, &err);
  if (s != FBE_OK) {
    char text[512];
    fbe_error_format(&err, text, sizeof text);
    fail_msg("%s: verify failed: %s: %s", what, fbe_status_name(s), text);
  }
  assert_int_equal(size, model_size);
}

/* ------------------------------------------------------------------ valid models */

typedef struct example {
  const char *name;
  int protoex;
  const char *std_hex, *fin_hex;
} example;

static const example EXAMPLES[] = {
    {"proto.Account", 0, T_ACCOUNT_STD, T_ACCOUNT_FIN},
    {"proto.Account", 0, T_ACCOUNT_DEFAULT_STD, T_ACCOUNT_DEFAULT_FIN},
    {"test.StructEmpty", 0, T_EMPTY_STD, T_EMPTY_FIN},
    {"test.StructBytes", 0, T_BYTES_STD, T_BYTES_FIN},
    {"test.StructVector", 0, T_VECTOR_STD, T_VECTOR_FIN},
    {"test.StructMap", 0, T_MAP_STD, T_MAP_FIN},
    {"test.StructHash", 0, T_HASH_STD, T_HASH_FIN},
    {"protoex.Balance", 1, T_BALANCE_EX_STD, T_BALANCE_EX_FIN},
    {"proto.Balance", 0, T_BALANCE_STD, T_BALANCE_FIN},
};
#define NEXAMPLES (sizeof EXAMPLES / sizeof *EXAMPLES)

/* FORMAT.md 5.11 / 6.5: the worked examples verify and report their size; bytes after
 * the model are ignored. */
static void test_valid_models(void **state) {
  fixture *f = *state;
  for (size_t i = 0; i < NEXAMPLES; i++) {
    const fbe_struct *st = t_struct(EXAMPLES[i].protoex ? f->protoex : f->test, EXAMPLES[i].name);
    for (int model = 0; model < 2; model++) {
      size_t n;
      uint8_t *p = t_hex(model ? EXAMPLES[i].fin_hex : EXAMPLES[i].std_hex, &n);
      expect_valid(st, (fbe_model)model, p, n, n, EXAMPLES[i].name);
      /* trailing bytes are not part of the model */
      uint8_t *longer = malloc(n + 9);
      assert_non_null(longer);
      memcpy(longer, p, n);
      memset(longer + n, 0xee, 9);
      expect_valid(st, (fbe_model)model, longer, n + 9, n, EXAMPLES[i].name);
      free(longer);
      free(p);
    }
  }
  /* err and model_size may be NULL */
  size_t n;
  uint8_t *p = t_hex(T_ACCOUNT_STD, &n);
  assert_int_equal(fbe_verify(f->account, FBE_MODEL_STANDARD, p, n, NULL, NULL, NULL), FBE_OK);
  p[0x0c] = 9;
  assert_int_equal(fbe_verify(f->account, FBE_MODEL_STANDARD, p, n, NULL, NULL, NULL),
                   FBE_ERR_MALFORMED);
  free(p);
  /* values produced by our own encoder verify, in both models */
  const fbe_struct *nested = t_struct(f->test, "test.StructNested");
  fbe_msg *m = t_new(f->arena, nested);
  t_set_str(t_emplace(fbe_msg_ref(m), "f1009"), "f32", "x");
  for (int model = 0; model < 2; model++) {
    fbe_buffer b = t_encode(m, (fbe_model)model);
    expect_valid(nested, (fbe_model)model, b.data, b.size, b.size, "StructNested");
    fbe_buffer_free(&b);
  }
}

/* FORMAT.md 5.11 table: flag bytes other than 0/1 are not errors (readers: non-zero =
 * present), and unknown enum values are valid. */
static void test_lenient_values_verify(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *p = t_hex(T_ACCOUNT_STD, &n);
  p[0x1d] = 2;    /* asset flag */
  p[0x18] = 0xff; /* state */
  p[0x88] = 9;    /* orders[0].side */
  expect_valid(f->account, FBE_MODEL_STANDARD, p, n, n, "flag 2");
  free(p);
}

/* FORMAT.md 8.2 / 11.4: standard data verifies across the (base) extension in both
 * directions; final data does not. */
static void test_cross_version(void **state) {
  fixture *f = *state;
  const fbe_struct *base = t_struct(f->protoex, "proto.Balance");
  const fbe_struct *ex = t_struct(f->protoex, "protoex.Balance");
  size_t n;
  uint8_t *p = t_hex(T_BALANCE_EX_STD, &n);
  expect_valid(base, FBE_MODEL_STANDARD, p, n, n, "protoex.Balance as proto.Balance");
  free(p);
  p = t_hex(T_BALANCE_STD, &n);
  expect_valid(ex, FBE_MODEL_STANDARD, p, n, n, "proto.Balance as protoex.Balance");
  free(p);
  p = t_hex(T_BALANCE_EX_FIN, &n);
  expect_reject_ex(base, FBE_MODEL_FINAL, p, n, NULL, 0, NULL, NULL, 0, "final ex as base");
  free(p);
  p = t_hex(T_BALANCE_FIN, &n);
  expect_reject_ex(ex, FBE_MODEL_FINAL, p, n, NULL, 0, NULL, NULL, 0, "final base as ex");
  free(p);
}

/* ------------------------------------------------------------------ truncation */

/* A model cut at any length: rejected, and the error points at the size field that
 * promises more bytes than there are (offset 0). */
static void test_truncated_every_length(void **state) {
  fixture *f = *state;
  int failures = 0;
  for (size_t i = 0; i < NEXAMPLES; i++) {
    const fbe_struct *st = t_struct(EXAMPLES[i].protoex ? f->protoex : f->test, EXAMPLES[i].name);
    for (int model = 0; model < 2; model++) {
      size_t n;
      uint8_t *p = t_hex(model ? EXAMPLES[i].fin_hex : EXAMPLES[i].std_hex, &n);
      for (size_t len = 0; len < n; len++) {
        char what[96];
        snprintf(what, sizeof what, "%s %s cut to %zu", EXAMPLES[i].name,
                 model ? "final" : "standard", len);
        size_t at0[] = {0, NO};
        failures += check_reject(st, (fbe_model)model, p, len, NULL, 0, at0, "", 1, what);
      }
      free(p);
    }
  }
  if (failures) fail_msg("%d truncated buffers not rejected as expected", failures);
}

/* ------------------------------------------------------------------ standard model */

typedef struct patch {
  const char *what;
  size_t at;      /* where to write */
  uint32_t value; /* little-endian u32 written at `at` */
  size_t offsets[4];      /* accepted error offsets, terminated by FBE_NO_OFFSET */
  const char *path;
  int exact_path;
} patch;

/* Offsets in the proto.Account model of FORMAT.md 11.1 (see its annotated table). */
static const patch ACCOUNT_PATCHES[] = {
    {"model size larger than the buffer", 0x00, 253, {0x00, NO}, "", 1},
    {"model size below 16", 0x00, 15, {0x00, NO}, "", 1},
    {"model size 0", 0x00, 0, {0x00, NO}, "", 1},
    /* every block must lie inside the model, not just inside the buffer (5.11 gap 1):
     * with size 0xf2 the last block (orders[2].symbol at 0xf2) is outside */
    {"model size excludes the last block", 0x00, 0xf2, {0xdc, 0xf2, NO}, "orders[2].symbol", 1},
    {"root pointer out of range", 0x04, 0x1000, {0x04, NO}, "", 1},
    {"root pointer 0", 0x04, 0, {0x04, NO}, "", 1},
    {"root pointer 0xffffffff", 0x04, 0xffffffffu, {0x04, NO}, "", 1},
    {"root pointer to the model header", 0x04, 2, {0x04, 0x02, NO}, "", 1},
    {"root body size below 8", 0x08, 7, {0x08, NO}, "", 1},
    {"root body size 0", 0x08, 0, {0x08, NO}, "", 1},
    {"root body size past the end", 0x08, 0x1000, {0x08, NO}, "", 1},
    {"root body size one past the end", 0x08, 252 - 8 + 1, {0x08, NO}, "", 1},
    {"root type id", 0x0c, 4, {0x0c, NO}, "", 1},
    {"root type id 0", 0x0c, 0, {0x0c, NO}, "", 1},
    {"name pointer out of range", 0x14, 0x1000, {0x14, NO}, "name", 1},
    {"name size 0xffffffff", 0x26, 0xffffffffu, {0x26, NO}, "name", 1},
    {"name size one too many", 0x26, 252 - 0x2a + 1, {0x26, NO}, "name", 1},
    {"wallet pointer 0", 0x19, 0, {0x19, NO}, "wallet", 1},
    {"wallet pointer out of range", 0x19, 0xfffffff0u, {0x19, NO}, "wallet", 1},
    {"wallet pointer at its own slot", 0x19, 0x19 - 0x08, {0x19, 0x1d, NO}, "wallet", 1},
    {"wallet body size below 8", 0x2e, 4, {0x2e, NO}, "wallet", 1},
    {"wallet body size past the end", 0x2e, 0xffff, {0x2e, NO}, "wallet", 1},
    {"wallet type id", 0x32, 9, {0x32, NO}, "wallet", 1},
    {"wallet.currency size 0xffffffff", 0x42, 0xffffffffu, {0x42, NO}, "wallet.currency", 1},
    {"asset present with pointer 0", 0x1e, 0, {0x1d, 0x1e, NO}, "asset", 1},
    {"asset value slot out of range", 0x1e, 0xfff0, {0x1d, 0x1e, NO}, "asset", 1},
    {"asset value slot holds struct pointer 0", 0x49, 0, {0x49, NO}, "asset", 1},
    {"asset type id", 0x51, 9, {0x51, NO}, "asset", 1},
    {"asset.currency size 0xffffffff", 0x61, 0xffffffffu, {0x61, NO}, "asset.currency", 1},
    {"orders pointer out of range", 0x22, 0x1000, {0x22, NO}, "orders", 1},
    {"orders count 0xffffffff", 0x68, 0xffffffffu, {0x68, NO}, "orders", 1},
    {"orders count 2^31-1", 0x68, 0x7fffffffu, {0x68, NO}, "orders", 1},
    {"orders count 2^30", 0x68, 0x40000000u, {0x68, NO}, "orders", 1},
    {"orders count one too many", 0x68, 4, {0x78, 0x2a, NO}, "orders[3]", 1},
    {"orders[0] pointer 0", 0x6c, 0, {0x6c, NO}, "orders[0]", 1},
    {"orders[1] type id", 0xa8, 9, {0xa8, NO}, "orders[1]", 1},
    {"orders[1] body size below 8", 0xa4, 3, {0xa4, NO}, "orders[1]", 1},
    {"orders[1].symbol pointer out of range", 0xb0, 0x8000, {0xb0, NO}, "orders[1].symbol", 1},
    {"orders[1].symbol size 0xffffffff", 0xc6, 0xffffffffu, {0xc6, NO}, "orders[1].symbol", 1},
    {"orders[2].symbol size one too many", 0xf2, 7, {0xf2, NO}, "orders[2].symbol", 1},
};

/* FORMAT.md 5.11: each single corruption of the 11.1 model is rejected with the
 * offset of the corrupted bytes and the path of the field. Counts like 2^31-1 must
 * fail at once (no walk over billions of elements). */
static void test_standard_hostile(void **state) {
  fixture *f = *state;
  size_t n;
  int failures = 0;
  uint8_t *orig = t_hex(T_ACCOUNT_STD, &n);
  for (size_t i = 0; i < sizeof ACCOUNT_PATCHES / sizeof *ACCOUNT_PATCHES; i++) {
    const patch *c = &ACCOUNT_PATCHES[i];
    uint8_t *p = t_dup(orig, n);
    t_put32(p, c->at, c->value);
    clock_t start = clock();
    failures += check_reject(f->account, FBE_MODEL_STANDARD, p, n, NULL, 0, c->offsets, c->path,
                             c->exact_path, c->what);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    if (seconds > 1.0) fail_msg("%s: took %.1f s", c->what, seconds);
    free(p);
  }
  free(orig);
  if (failures) fail_msg("%d corruptions not rejected as expected", failures);
}

/* FORMAT.md 5.11 gaps 2 and 3: collection element areas and optional value slots must
 * fit; map keys and values are checked. */
static void test_standard_hostile_collections(void **state) {
  fixture *f = *state;
  const fbe_struct *vec = t_struct(f->test, "test.StructVector");
  const fbe_struct *map = t_struct(f->test, "test.StructMap");
  const fbe_struct *hash = t_struct(f->test, "test.StructHash");
  size_t n;
  uint8_t *p = t_hex(T_VECTOR_STD, &n);
  t_put32(p, 0x38, 65535); /* f1: byte[] claiming 65535 elements in 164 bytes */
  expect_reject(vec, FBE_MODEL_STANDARD, p, n, 0x38, "f1", "byte[] count 65535");
  free(p);
  p = t_hex(T_VECTOR_STD, &n);
  t_put32(p, 0x38, 200); /* f1: 200 one-byte elements do not fit in the 164 bytes either */
  expect_reject(vec, FBE_MODEL_STANDARD, p, n, 0x38, "f1", "byte[] count 200");
  free(p);
  p = t_hex(T_VECTOR_STD, &n);
  t_put32(p, 0x71, 12); /* f5: EnumSimple[] of 12 x 4 bytes from 0x75 ends at 165: 1 byte past */
  expect_reject(vec, FBE_MODEL_STANDARD, p, n, 0x71, "f5", "int32 enum[] one byte too long");
  free(p);
  p = t_hex(T_VECTOR_STD, &n);
  t_put32(p, 0x43, 0xffff); /* f2[0] optional value slot far away */
  expect_reject_ex(vec, FBE_MODEL_STANDARD, p, n, NULL, 0, (size_t[]){0x42, 0x43, NO}, "f2[0]", 1,
                   "byte?[] element value slot out of range");
  free(p);
  p = t_hex(T_VECTOR_STD, &n);
  t_put32(p, 0x43, 0); /* f2[0] present with pointer 0 */
  expect_reject_ex(vec, FBE_MODEL_STANDARD, p, n, NULL, 0, (size_t[]){0x42, 0x43, NO}, "f2[0]", 1,
                   "byte?[] element present with pointer 0");
  free(p);
  p = t_hex(T_VECTOR_STD, &n);
  t_put32(p, 0x55, 0xfffffff0u); /* f3[0] bytes length */
  expect_reject(vec, FBE_MODEL_STANDARD, p, n, 0x55, "f3[0]", "bytes[] element size");
  free(p);
  p = t_hex(T_VECTOR_STD, &n);
  t_put32(p, 0x9c, 0x7fffffffu); /* f9: StructSimple[] count */
  expect_reject(vec, FBE_MODEL_STANDARD, p, n, 0x9c, "f9", "StructSimple[] count 2^31-1");
  free(p);

  p = t_hex(T_MAP_STD, &n);
  t_put32(p, 0x38, 0xffffffffu); /* f1 count */
  expect_reject(map, FBE_MODEL_STANDARD, p, n, 0x38, "f1", "map count 0xffffffff");
  free(p);
  p = t_hex(T_MAP_STD, &n);
  t_put32(p, 0x65, 0x1000); /* f3[0] value pointer */
  expect_reject_ex(map, FBE_MODEL_STANDARD, p, n, NULL, 0, (size_t[]){0x65, NO}, "f3", 0,
                   "map value pointer out of range");
  free(p);
  p = t_hex(T_HASH_STD, &n);
  t_put32(p, 0x41, 0xffffffffu); /* f1 key "k": string size */
  expect_reject_ex(hash, FBE_MODEL_STANDARD, p, n, NULL, 0, (size_t[]){0x41, NO}, "f1", 0,
                   "hash key size 0xffffffff");
  free(p);
}

/* ------------------------------------------------------------------ final model */

/* Offsets in the proto.Account final model of FORMAT.md 11.2. */
static const patch FINAL_PATCHES[] = {
    /* the size field (0), the field that no longer fits (orders[2].volume at 0x90) or the
     * first missing byte (0x97) */
    {"size one short of the fields", 0x00, 151, {0x00, 0x90, 0x97, NO}, NULL, 0},
    {"size larger than the buffer", 0x00, 153, {0x00, NO}, "", 1},
    {"size 0", 0x00, 0, {0x00, NO}, "", 1},
    {"size 7", 0x00, 7, {0x00, NO}, "", 1},
    {"type id 0", 0x04, 0, {0x04, NO}, "", 1},
    {"type id 4", 0x04, 4, {0x04, NO}, "", 1},
    {"name size 0xffffffff", 0x0c, 0xffffffffu, {0x0c, NO}, "name", 1},
    {"wallet.currency size 0xffffffff", 0x15, 0xffffffffu, {0x15, NO}, "wallet.currency", 1},
    {"orders count 0xffffffff", 0x34, 0xffffffffu, {0x34, NO}, "orders", 1},
    {"orders count 2^31-1", 0x34, 0x7fffffffu, {0x34, NO}, "orders", 1},
    {"orders count one too many", 0x34, 4, {0x34, 0x98, NO}, "orders", 0},
    {"orders[1].symbol size 0xffffffff", 0x5c, 0xffffffffu, {0x5c, NO}, "orders[1].symbol", 1},
};

/* FORMAT.md 6.5: final-model corruptions. */
static void test_final_hostile(void **state) {
  fixture *f = *state;
  size_t n;
  int failures = 0;
  uint8_t *orig = t_hex(T_ACCOUNT_FIN, &n);
  for (size_t i = 0; i < sizeof FINAL_PATCHES / sizeof *FINAL_PATCHES; i++) {
    const patch *c = &FINAL_PATCHES[i];
    uint8_t *p = t_dup(orig, n);
    t_put32(p, c->at, c->value);
    clock_t start = clock();
    failures += check_reject(f->account, FBE_MODEL_FINAL, p, n, NULL, 0, c->offsets, c->path,
                             c->exact_path, c->what);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    if (seconds > 1.0) fail_msg("%s: took %.1f s", c->what, seconds);
    free(p);
  }
  /* size field larger than the fields, with the buffer holding that many bytes: the
   * exact-size rule (6.5) rejects it */
  uint8_t *p = malloc(n + 1);
  assert_non_null(p);
  memcpy(p, orig, n);
  p[n] = 0;
  t_put32(p, 0, (uint32_t)n + 1);
  failures += check_reject(f->account, FBE_MODEL_FINAL, p, n + 1, NULL, 0, (size_t[]){0, n, NO},
                           NULL, 0, "size one more than the fields");
  free(p);
  free(orig);
  if (failures) fail_msg("%d corruptions not rejected as expected", failures);
}

/* ------------------------------------------------------------------ limits */

/* A chain of `length` deep.Node values (each next present but the last). */
static fbe_msg *build_chain(fbe_arena *arena, const fbe_struct *node, size_t length) {
  fbe_msg *m = t_new(arena, node);
  fbe_ref r = fbe_msg_ref(m);
  for (size_t i = 1; i < length; i++) r = t_emplace(r, "next");
  return m;
}

/* The same chain written by hand (so that very deep input does not depend on the
 * encoder). Standard: node k's body (S 13, type, flag, pointer 13) at 8 + 17k, its
 * next value slot (struct pointer 4) right after it. Final: header, then one flag per
 * node (1 ... 1 0). */
static uint8_t *chain_bytes(size_t length, fbe_model model, uint32_t tid, size_t *n) {
  size_t size = model == FBE_MODEL_STANDARD ? 8 + 17 * length - 4 : 8 + length;
  uint8_t *p = calloc(1, size);
  assert_non_null(p);
  t_put32(p, 0, (uint32_t)size);
  if (model == FBE_MODEL_FINAL) {
    t_put32(p, 4, tid);
    memset(p + 8, 1, length - 1);
  } else {
    t_put32(p, 4, 8);
    for (size_t k = 0; k < length; k++) {
      size_t b = 8 + 17 * k;
      t_put32(p, b, 13);
      t_put32(p, b + 4, tid);
      if (k + 1 < length) {
        p[b + 8] = 1;
        t_put32(p, b + 9, 13);
        t_put32(p, b + 13, 4);
      }
    }
  }
  *n = size;
  return p;
}

static void expect_depth(fixture *f, size_t length, const fbe_limits *limits, int ok) {
  uint32_t tid = fbe_struct_type_id(f->node);
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  /* the encoder refuses values deeper than FBE_DEFAULT_MAX_DEPTH: compare with it only
   * where every counting of levels stays below that */
  fbe_msg *m = length <= 100 ? build_chain(arena, f->node, length) : NULL;
  for (int model = 0; model < 2; model++) {
    char what[96];
    snprintf(what, sizeof what, "chain of %zu nodes, %s model, max_depth %u", length,
             model ? "final" : "standard", limits ? limits->max_depth : 256);
    size_t n;
    uint8_t *bytes = chain_bytes(length, (fbe_model)model, tid, &n);
    if (m) { /* the hand-made bytes are what the encoder writes */
      fbe_buffer b = t_encode(m, (fbe_model)model);
      t_assert_mem(b.data, b.size, bytes, n);
      fbe_buffer_free(&b);
    }
    fbe_error err;
    size_t size = 0;
    fbe_status s = verify(f->node, (fbe_model)model, bytes, n, limits, &size, &err);
    fbe_msg *out = NULL;
    fbe_error derr;
    fbe_status d = fbe_decode(f->node, (fbe_model)model, bytes, n, arena, limits, &out, NULL,
                              &derr);
    fbe_msg *trusted_out = NULL;
    fbe_status dt = fbe_decode_trusted(f->node, (fbe_model)model, bytes, n, arena, limits,
                                       &trusted_out, NULL, &derr);
    if (ok) {
      if (s != FBE_OK) fail_msg("%s: verify failed: %s %s", what, fbe_status_name(s), err.message);
      assert_int_equal(size, n);
      if (d != FBE_OK) fail_msg("%s: decode failed: %s %s", what, fbe_status_name(d), derr.message);
      if (dt != FBE_OK) fail_msg("%s: trusted decode failed: %s %s", what, fbe_status_name(dt), derr.message);
      if (m) assert_true(fbe_msg_equal(out, m) && fbe_msg_equal(trusted_out, m));
    } else {
      if (s != FBE_ERR_LIMIT)
        fail_msg("%s: verify returned %s, expected FBE_ERR_LIMIT", what, fbe_status_name(s));
      if (d != FBE_ERR_LIMIT)
        fail_msg("%s: decode returned %s, expected FBE_ERR_LIMIT", what, fbe_status_name(d));
      if (dt != FBE_ERR_LIMIT) /* the decoder's own bound, without verify */
        fail_msg("%s: trusted decode returned %s, expected FBE_ERR_LIMIT", what, fbe_status_name(dt));
    }
    free(bytes);
  }
  fbe_arena_free(arena);
}

/* FORMAT.md 5.11 gap 5, codec.h fbe_limits.max_depth: nesting beyond the limit is
 * FBE_ERR_LIMIT for verify and decode; within the limit it is fine. */
static void test_depth_limit(void **state) {
  fixture *f = *state;
  assert_int_equal(fbe_limits_default().max_depth, 256);
  fbe_limits small = fbe_limits_default();
  small.max_depth = 10;
  /* A chain of n nodes nests n structs and n - 1 optionals: between n - 1 and 2n - 1
   * levels, depending on what an implementation counts as a level. The lengths below
   * are unambiguous under every such counting. */
  expect_depth(f, 3, &small, 1);    /* at most 5 levels */
  expect_depth(f, 12, &small, 0);   /* at least 11 levels */
  expect_depth(f, 100, NULL, 1);    /* at most 199 levels < 256 */
  expect_depth(f, 1000, NULL, 0);   /* at least 999 levels */
  expect_depth(f, 100000, NULL, 0); /* deep enough to overflow a recursive walk's stack */
}

/* The core's depth rule exactly: optionals and collections count one level each, 256
 * levels are accepted and 257 refused (FBE_ERR_LIMIT) by encode (both models), verify,
 * decode, trusted decode, the JSON reader and the JSON writer. The innermost level is
 * an int32[] (a vector of fixed-size elements, which encode copies in one block). */
static void test_depth_boundary(void **state) {
  (void)state;
  fbe_schema *s = t_load_text("package edge\n\nstruct W\n{\n    W? next;\n    int32[] xs;\n}\n", "edge.fbe");
  const fbe_struct *w = t_struct(s, "edge.W");
  for (int levels = 256; levels <= 257; levels++) {
    fbe_arena *arena = fbe_arena_new();
    assert_non_null(arena);
    fbe_msg *m = fbe_msg_new(arena, w);
    fbe_ref r = fbe_msg_ref(m);
    for (int i = 0; i < levels - 1; i++) r = fbe_ref_emplace(fbe_ref_field(r, "next"));
    assert_int_equal(fbe_ref_set_int(fbe_ref_append(fbe_ref_field(r, "xs")), 7, NULL), FBE_OK);
    int ok = levels == 256;
    fbe_error err;
    for (int model = 0; model < 2; model++) {
      fbe_buffer b;
      fbe_buffer_init(&b);
      fbe_status rc = fbe_encode(m, (fbe_model)model, &b, &err);
      assert_int_equal(rc, ok ? FBE_OK : FBE_ERR_LIMIT);
      if (ok) {
        fbe_msg *out;
        assert_int_equal(fbe_verify(w, (fbe_model)model, b.data, b.size, NULL, NULL, &err), FBE_OK);
        assert_int_equal(fbe_decode(w, (fbe_model)model, b.data, b.size, arena, NULL, &out, NULL, &err), FBE_OK);
        assert_true(fbe_msg_equal(out, m));
        assert_int_equal(fbe_decode_trusted(w, (fbe_model)model, b.data, b.size, arena, NULL, &out, NULL, &err),
                         FBE_OK);
        /* the same bytes with one more level: what the encoder refused, the readers refuse */
        fbe_limits one_less = fbe_limits_default();
        one_less.max_depth = 255;
        assert_int_equal(fbe_verify(w, (fbe_model)model, b.data, b.size, &one_less, NULL, &err), FBE_ERR_LIMIT);
        assert_int_equal(fbe_decode(w, (fbe_model)model, b.data, b.size, arena, &one_less, &out, NULL, &err),
                         FBE_ERR_LIMIT);
        assert_int_equal(fbe_decode_trusted(w, (fbe_model)model, b.data, b.size, arena, &one_less, &out, NULL,
                                            &err), FBE_ERR_LIMIT);
      }
      fbe_buffer_free(&b);
    }
    fbe_buffer json;
    fbe_buffer_init(&json);
    assert_int_equal(fbe_msg_to_json(m, 0, &json, &err), ok ? FBE_OK : FBE_ERR_LIMIT);
    if (ok) {
      fbe_msg *back;
      assert_int_equal(fbe_msg_from_json(w, (const char *)json.data, json.size, arena, &back, &err), FBE_OK);
      assert_true(fbe_msg_equal(back, m));
      /* one more level in the text */
      fbe_buffer more;
      fbe_buffer_init(&more);
      assert_int_equal(fbe_buffer_append(&more, "{\"next\":", 8), 0);
      assert_int_equal(fbe_buffer_append(&more, json.data, json.size), 0);
      assert_int_equal(fbe_buffer_append(&more, "}", 1), 0);
      assert_int_equal(fbe_msg_from_json(w, (const char *)more.data, more.size, arena, &back, &err),
                       FBE_ERR_LIMIT);
      fbe_buffer_free(&more);
    }
    fbe_buffer_free(&json);
    fbe_arena_free(arena);
  }
  fbe_schema_release(s);
}

/* Strings are UTF-8 and decimals have scale 0..28 with no reserved bit (codec.h): verify
 * refuses anything else with FBE_ERR_MALFORMED at the bad byte and the field's path, and
 * decode and trusted decode refuse it with the same error, in both models. */
static void expect_bad_value(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                             size_t offset, const char *path, const char *message) {
  fbe_error err, derr, terr;
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  fbe_msg *out;
  fbe_status v = verify(st, model, data, n, NULL, NULL, &err);
  fbe_status d = fbe_decode(st, model, data, n, arena, NULL, &out, NULL, &derr);
  fbe_status t = fbe_decode_trusted(st, model, data, n, arena, NULL, &out, NULL, &terr);
  if (v != FBE_ERR_MALFORMED || err.offset != offset || strcmp(err.path, path) || strcmp(err.message, message))
    fail_msg("verify: %s '%s' at '%s' offset %zu; want '%s' at '%s' offset %zu", fbe_status_name(v),
             err.message, err.path, err.offset, message, path, offset);
  assert_int_equal(d, FBE_ERR_MALFORMED);
  assert_int_equal(t, FBE_ERR_MALFORMED);
  assert_int_equal(derr.offset, offset);
  assert_int_equal(terr.offset, offset);
  assert_string_equal(derr.message, message);
  assert_string_equal(terr.message, message);
  assert_string_equal(derr.path, path);
  assert_string_equal(terr.path, path);
  fbe_arena_free(arena);
}

static size_t find_bytes(const uint8_t *data, size_t n, const void *what, size_t len) {
  for (size_t i = 0; i + len <= n; i++)
    if (!memcmp(data + i, what, len)) return i;
  fail_msg("bytes not found");
  return 0;
}

static void test_value_rules(void **state) {
  fixture *f = *state;
  /* Account.name is "Test": 4 bytes replaced by each case; `bad` = index of the bad byte */
  static const struct {
    const char *bytes, *message;
    size_t bad;
  } text[] = {
      {"T\xc0\x80t", "an overlong form (0xc0 0x80)", 1},
      {"\xe0\x80\x80t", "an overlong form (0xe0 0x80)", 0},
      {"\xf0\x80\x80\x80", "an overlong form (0xf0 0x80)", 0},
      {"T\xed\xa0\x80", "a UTF-16 surrogate (U+D800)", 1},
      {"T\xed\xbf\xbf", "a UTF-16 surrogate (U+DFFF)", 1},
      {"\xf4\x90\x80\x80", "a code point above U+10FFFF", 0},
      {"\xf5\x80\x80\x80", "a code point above U+10FFFF", 0},
      {"Te\xe2\x82", "a sequence cut short by the end of the string", 2},
      {"T\xe2\x82t", "a sequence cut short (0x74 is not a continuation byte)", 1},
      {"Tes\x80", "a stray continuation byte 0x80", 3},
      {"T\xffst", "the byte 0xff, which UTF-8 never uses", 1},
  };
  static const char *good[] = {"T\xc3\xa9t", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbft",
                               "T\xed\x9f\xbf", "\x7f\x00\x01t"};
  for (int model = 0; model < 2; model++) {
    size_t n;
    uint8_t *p = t_hex(model ? T_ACCOUNT_FIN : T_ACCOUNT_STD, &n);
    size_t at = find_bytes(p, n, "Test", 4);
    for (size_t i = 0; i < sizeof text / sizeof *text; i++) {
      memcpy(p + at, text[i].bytes, 4);
      char message[200];
      snprintf(message, sizeof message, "string is not valid UTF-8: %s at byte %zu of 4", text[i].message,
               text[i].bad);
      expect_bad_value(f->account, (fbe_model)model, p, n, at + text[i].bad, "name", message);
      assert_int_equal(fbe_utf8_check(text[i].bytes, 4, NULL), FBE_ERR_ARGUMENT);
    }
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
      memcpy(p + at, good[i], 4);
      expect_valid(f->account, (fbe_model)model, p, n, n, good[i]);
      assert_int_equal(fbe_utf8_check(good[i], 4, NULL), FBE_OK);
    }
    free(p);
  }
  /* the public check: what is wrong and where */
  fbe_error err;
  assert_int_equal(fbe_utf8_check("ab\xed\xa0\x80", 5, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(err.offset, 2);
  assert_string_equal(err.message, "string is not valid UTF-8: a UTF-16 surrogate (U+D800) at byte 2 of 5");
  assert_int_equal(fbe_utf8_check(NULL, 0, NULL), FBE_OK);

  /* decimals: StructSimple.f29 = 123456.123456; in a vector, an optional and an array too */
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  static const uint8_t dec[16] = {0x40, 0xf2, 0x8e, 0xbe, 0x1c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0};
  const fbe_struct *simple = t_struct(f->test, "test.StructSimple");
  fbe_msg *m = t_build_simple(arena, simple);
  fbe_schema *s = t_load_text("package dec\n\nstruct D\n{\n    decimal[] v;\n    decimal? o;\n    decimal[2] a;\n}\n",
                              "dec.fbe");
  const fbe_struct *d = t_struct(s, "dec.D");
  fbe_msg *dm = fbe_msg_new(arena, d);
  fbe_ref dr = fbe_msg_ref(dm);
  fbe_decimal value;
  memcpy(value.bytes, dec, 16);
  assert_int_equal(fbe_ref_set_decimal(fbe_ref_append(fbe_ref_field(dr, "v")), &value, NULL), FBE_OK);
  assert_int_equal(fbe_ref_set_decimal(fbe_ref_emplace(fbe_ref_field(dr, "o")), &value, NULL), FBE_OK);
  assert_int_equal(fbe_ref_set_decimal(fbe_ref_at(fbe_ref_field(dr, "a"), 1), &value, NULL), FBE_OK);
  for (int model = 0; model < 2; model++) {
    fbe_buffer b = t_encode(m, (fbe_model)model);
    size_t at = find_bytes(b.data, b.size, dec, 16);
    b.data[at + 14] = 29;
    expect_bad_value(simple, (fbe_model)model, b.data, b.size, at + 14, "f29", "decimal scale 29 is above 28");
    b.data[at + 14] = 255;
    expect_bad_value(simple, (fbe_model)model, b.data, b.size, at + 14, "f29", "decimal scale 255 is above 28");
    b.data[at + 14] = 28;
    expect_valid(simple, (fbe_model)model, b.data, b.size, b.size, "scale 28");
    b.data[at + 15] = 0x80;
    expect_valid(simple, (fbe_model)model, b.data, b.size, b.size, "negative");
    static const size_t reserved[] = {12, 13, 15};
    for (size_t i = 0; i < 3; i++) {
      uint8_t keep = b.data[at + reserved[i]];
      b.data[at + reserved[i]] = reserved[i] == 15 ? 0x81 : 0x01; /* byte 15: the sign bit is fine */
      char message[200];
      snprintf(message, sizeof message,
               "decimal has reserved bits set (byte %zu is 0x%02x: bytes 12-13 must be 0, byte 15 holds only "
               "the sign bit 0x80)", reserved[i], b.data[at + reserved[i]]);
      expect_bad_value(simple, (fbe_model)model, b.data, b.size, at + reserved[i], "f29", message);
      b.data[at + reserved[i]] = keep;
    }
    fbe_buffer_free(&b);
    b = t_encode(dm, (fbe_model)model);
    /* in wire order: the standard model has the array inline in the body, the rest after it */
    static const char *std_paths[] = {"a[1]", "v[0]", "o"}, *fin_paths[] = {"v[0]", "o", "a[1]"};
    const char **paths = model ? fin_paths : std_paths;
    size_t from = 0;
    for (size_t i = 0; i < 3; i++) {
      size_t at = from + find_bytes(b.data + from, b.size - from, dec, 16);
      from = at + 16;
      b.data[at + 14] = 40;
      expect_bad_value(d, (fbe_model)model, b.data, b.size, at + 14, paths[i], "decimal scale 40 is above 28");
      b.data[at + 14] = 6;
    }
    fbe_buffer_free(&b);
  }
  /* the setter keeps the same rule */
  value.bytes[14] = 29;
  assert_int_equal(fbe_ref_set_decimal(fbe_ref_field(dr, "o"), &value, NULL), FBE_ERR_TYPE);
  assert_int_equal(fbe_ref_set_decimal(fbe_ref_deref(fbe_ref_field(dr, "o")), &value, NULL), FBE_ERR_RANGE);
  value.bytes[14] = 6;
  value.bytes[12] = 1;
  assert_int_equal(fbe_ref_set_decimal(fbe_ref_deref(fbe_ref_field(dr, "o")), &value, NULL), FBE_ERR_RANGE);
  fbe_schema_release(s);
  fbe_arena_free(arena);
}

/* codec.h fbe_limits.max_model_size: a model larger than the limit is FBE_ERR_LIMIT;
 * the limit is about the model, so bytes after it do not count. */
static void test_model_size_limit(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *p = t_hex(T_ACCOUNT_STD, &n);
  fbe_limits lim = fbe_limits_default();
  lim.max_model_size = 100;
  fbe_error err;
  assert_int_equal(verify(f->account, FBE_MODEL_STANDARD, p, n, &lim, NULL, &err), FBE_ERR_LIMIT);
  decode_does_not_crash(f->account, FBE_MODEL_STANDARD, p, n, &lim);
  lim.max_model_size = 252;
  assert_int_equal(verify(f->account, FBE_MODEL_STANDARD, p, n, &lim, NULL, &err), FBE_OK);
  /* the same model followed by 1000 other bytes (e.g. the next messages of a stream) */
  uint8_t *longer = calloc(1, n + 1000);
  assert_non_null(longer);
  memcpy(longer, p, n);
  lim.max_model_size = 300;
  size_t size = 0;
  int failures = 0;
  fbe_status s = verify(f->account, FBE_MODEL_STANDARD, longer, n + 1000, &lim, &size, &err);
  if (s != FBE_OK) {
    print_message("FAIL verify: a 252-byte model followed by other data is refused with "
                  "max_model_size 300: %s %s\n", fbe_status_name(s), err.message);
    failures++;
  } else {
    assert_int_equal(size, 252);
  }
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *out;
  s = fbe_decode(f->account, FBE_MODEL_STANDARD, longer, n + 1000, arena, &lim, &out, &size, &err);
  if (s != FBE_OK) {
    print_message("FAIL decode: a 252-byte model followed by other data is refused with "
                  "max_model_size 300: %s %s\n", fbe_status_name(s), err.message);
    failures++;
  } else {
    assert_int_equal(size, 252);
  }
  fbe_arena_free(arena);
  free(longer);
  free(p);
  if (failures) fail_msg("max_model_size is applied to the buffer, not to the model");
}

/* ------------------------------------------------------------------ cycles */

/* A chain of two deep.Node in the standard model (38 bytes):
 *   0x00 size 38 | 0x04 root pointer 8
 *   0x08 node A body: S 13, type, next: flag 0x10 = 1, pointer 0x11 = 13 -> 0x15
 *   0x15 A.next value slot: struct pointer 4 (base 0x15) -> 0x19
 *   0x19 node B body: S 13, type, next: flag 0x21 = 0, pointer 0x22 = 0
 * Pointers are unsigned and relative, so a pointer "back" (to itself, to an ancestor)
 * is a 0 or a huge value that wraps around in 32-bit arithmetic: both must be refused
 * (FORMAT.md 5.11 gap 5), by the range checks or by the depth limit. */
static void test_cycles(void **state) {
  fixture *f = *state;
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  fbe_buffer b = t_encode(build_chain(arena, f->node, 2), FBE_MODEL_STANDARD);
  uint32_t tid = fbe_struct_type_id(f->node);
  uint8_t expected[38] = {38, 0, 0, 0, 8, 0, 0, 0, 13, 0, 0, 0, 0, 0, 0, 0, 1, 13, 0, 0, 0,
                          4,  0, 0, 0, 13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  t_put32(expected, 0x0c, tid);
  t_put32(expected, 0x1d, tid);
  t_assert_mem(b.data, b.size, expected, sizeof expected);
  fbe_arena_free(arena);
  fbe_buffer_free(&b);
  expect_valid(f->node, FBE_MODEL_STANDARD, expected, 38, 38, "two nodes");

  static const struct {
    const char *what;
    size_t at1;
    uint32_t v1;
    size_t at2;
    uint32_t v2;
    const char *path;
  } cases[] = {
      {"A.next value slot points at itself (pointer 0)", 0x15, 0, 0, 0, "next"},
      {"A.next value slot points back to A (wraps)", 0x15, (uint32_t)(0x08 - 0x15), 0, 0, "next"},
      {"A.next pointer points at its own slot", 0x11, 0x11 - 0x08, 0, 0, "next"},
      {"A.next pointer points back at A", 0x11, 0, 0, 0, "next"},
      {"B.next present, pointing back at A.next's value slot (wraps)", 0x21, 1, 0x22,
       (uint32_t)(0x15 - 0x19), "next.next"},
      {"B.next present, pointing back at A (wraps)", 0x21, 1, 0x22, (uint32_t)(0x08 - 0x19),
       "next.next"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    uint8_t p[38];
    memcpy(p, expected, 38);
    if (cases[i].at1 == 0x21) {
      p[0x21] = 1;
      t_put32(p, cases[i].at2, cases[i].v2);
    } else {
      t_put32(p, cases[i].at1, cases[i].v1);
    }
    clock_t start = clock();
    expect_reject_ex(f->node, FBE_MODEL_STANDARD, p, 38, NULL, 1, NULL, cases[i].path, 0,
                     cases[i].what);
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    if (seconds > 1.0) fail_msg("%s: took %.1f s", cases[i].what, seconds);
  }
}

/* codec.h argument checks. */
static void test_verify_arguments(void **state) {
  fixture *f = *state;
  fbe_error err;
  assert_int_equal(fbe_verify(NULL, FBE_MODEL_STANDARD, (const uint8_t *)"", 0, NULL, NULL, &err),
                   FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_verify(f->account, FBE_MODEL_STANDARD, NULL, 16, NULL, NULL, &err),
                   FBE_ERR_ARGUMENT);
  /* an empty buffer is not a model */
  assert_int_equal(fbe_verify(f->account, FBE_MODEL_STANDARD, NULL, 0, NULL, NULL, &err),
                   FBE_ERR_MALFORMED);
  assert_int_equal(fbe_verify(f->account, FBE_MODEL_FINAL, NULL, 0, NULL, NULL, &err),
                   FBE_ERR_MALFORMED);
}

#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_valid_models),
      T(test_lenient_values_verify),
      T(test_cross_version),
      T(test_truncated_every_length),
      T(test_standard_hostile),
      T(test_standard_hostile_collections),
      T(test_final_hostile),
      T(test_depth_limit),
      T(test_depth_boundary),
      T(test_value_rules),
      T(test_model_size_limit),
      T(test_cycles),
      T(test_verify_arguments),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

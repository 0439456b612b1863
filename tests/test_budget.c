/* The memory budget (codec.h: fbe_limits.max_memory, FBE_VALUE_CHARGE; cost.h): one
 * cost function charged by verify, decode and the JSON reader, so that verify passing
 * means decode fits, verify's work is linear in the budget, and every hostile shape
 * (bodies shared by many pointers, collections of empty structs, defaults of absent
 * fields, JSON of {} elements) is refused with an error naming the limit. The charges
 * and the values verify walked are read from fbei_verify_report / fbei_decode_trusted_report
 * (counts, never time). */
#include "fbe_test.h"
#include "fbe/internal/cost.h"

/* Shapes the shipped schemas lack. Type ids: Empty 1, Empties 2, Leaf 3, Mid 4, Top 5,
 * Long 6, Longs 7, Chain 8. */
static const char *const hostile_schema =
    "package hostile\n"
    "struct Empty {}\n"
    "struct Empties { Empty[] items; bytes pad; }\n"
    "struct Leaf { int32 x; }\n"
    "struct Mid { Leaf[] leaves; }\n"
    "struct Top { Mid[] mids; }\n"
    "struct Long { int32 a; string text = \"................................................................\"; }\n"
    "struct Longs { Long[] items; }\n"
    "struct Chain { int32 v; Chain? next; }\n";

typedef struct fixture {
  fbe_schema *proto, *hostile;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  f->proto = t_load("proto.fbe");
  f->hostile = t_load_text(hostile_schema, "hostile.fbe");
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->proto);
  fbe_schema_release(f->hostile);
  free(f);
  return 0;
}

/* ------------------------------------------------------------ models by hand */

typedef struct bytes {
  uint8_t *p;
  size_t n, cap;
} bytes;

static size_t put(bytes *b, const void *data, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2 + 64;
    b->p = realloc(b->p, b->cap);
    assert_non_null(b->p);
  }
  size_t at = b->n;
  if (data) memcpy(b->p + at, data, n);
  else memset(b->p + at, 0, n);
  b->n += n;
  return at;
}

static size_t put32(bytes *b, uint32_t v) {
  uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  return put(b, le, 4);
}

/* proto.Account, standard model: orders = n pointers to ONE Order body. */
static bytes shared_orders(uint32_t n) {
  bytes b = {NULL, 0, 0};
  size_t acct = 8, wallet = acct + 30, block = wallet + 20, order = block + 4 + 4 * (size_t)n;
  put32(&b, 0);
  put32(&b, 8);
  put32(&b, 30), put32(&b, 3), put32(&b, 1), put32(&b, 0), put(&b, NULL, 1);
  put32(&b, (uint32_t)(wallet - acct)), put(&b, NULL, 5), put32(&b, (uint32_t)(block - acct));
  put32(&b, 20), put32(&b, 2), put32(&b, 0), put(&b, NULL, 8);
  put32(&b, n);
  for (uint32_t i = 0; i < n; i++) put32(&b, (uint32_t)(order - acct));
  put32(&b, 34), put32(&b, 1), put32(&b, 7), put32(&b, 0), put(&b, NULL, 18);
  t_put32(b.p, 0, (uint32_t)b.n);
  return b;
}

/* hostile.Empties, final model: n empty structs (no byte each) and a pad of `pad`. */
static bytes empties_final(uint32_t n, uint32_t pad) {
  bytes b = {NULL, 0, 0};
  put32(&b, 0), put32(&b, 2), put32(&b, n), put32(&b, pad), put(&b, NULL, pad);
  t_put32(b.p, 0, (uint32_t)b.n);
  return b;
}

/* hostile.Top, standard model: a pointers to ONE Mid body whose leaves are b pointers
 * to ONE Leaf body: a * b values from 4 * (a + b) bytes. */
static bytes fanout(uint32_t a, uint32_t n) {
  bytes b = {NULL, 0, 0};
  size_t top = 8, mids = top + 12, mid = mids + 4 + 4 * (size_t)a, leaves = mid + 12;
  size_t leaf = leaves + 4 + 4 * (size_t)n;
  put32(&b, 0), put32(&b, 8);
  put32(&b, 12), put32(&b, 5), put32(&b, (uint32_t)(mids - top));
  put32(&b, a);
  for (uint32_t i = 0; i < a; i++) put32(&b, (uint32_t)(mid - top));
  put32(&b, 12), put32(&b, 4), put32(&b, (uint32_t)(leaves - mid));
  put32(&b, n);
  for (uint32_t i = 0; i < n; i++) put32(&b, (uint32_t)(leaf - mid));
  put32(&b, 12), put32(&b, 3), put32(&b, 42);
  t_put32(b.p, 0, (uint32_t)b.n);
  return b;
}

/* hostile.Longs, standard model: n pointers to ONE 8-byte Long body (an older writer's:
 * every field takes its default, the 64-byte string included). */
static bytes shared_defaults(uint32_t n) {
  bytes b = {NULL, 0, 0};
  size_t body = 8, block = body + 12, shared = block + 4 + 4 * (size_t)n;
  put32(&b, 0), put32(&b, 8);
  put32(&b, 12), put32(&b, 7), put32(&b, (uint32_t)(block - body));
  put32(&b, n);
  for (uint32_t i = 0; i < n; i++) put32(&b, (uint32_t)(shared - body));
  put32(&b, 8), put32(&b, 6);
  t_put32(b.p, 0, (uint32_t)b.n);
  return b;
}

/* ------------------------------------------------------------ checks */

/* verify and the trusted decode of data with limits: both succeed, charge the same,
 * that is the decoded value's cost, within the budget; verify walked no more values
 * than its charge pays for. Returns the charge. */
static uint64_t expect_fits(const fbe_struct *st, fbe_model model, const bytes *b, const fbe_limits *limits) {
  fbei_cost_report vr = {0, 0}, dr = {0, 0};
  fbe_error err;
  fbe_status s = fbei_verify_report(st, model, b->p, b->n, limits, NULL, &vr, &err);
  if (s) fail_msg("verify refused %zu bytes: %s at '%s'", b->n, err.message, err.path);
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = NULL;
  s = fbei_decode_trusted_report(st, model, b->p, b->n, arena, limits, &m, NULL, &dr, &err);
  if (s) fail_msg("verified bytes do not decode: %s at '%s'", err.message, err.path);
  assert_int_equal(vr.charged, dr.charged);
  assert_int_equal(fbei_msg_cost(m), dr.charged);
  assert_true(vr.charged <= fbe_limits_memory(limits, b->n));
  assert_true(vr.visits * FBE_VALUE_CHARGE <= vr.charged);
  /* memory used: the arena holds the charge, in blocks that at most double */
  assert_true(fbe_arena_reserved(arena) <= 2 * dr.charged + 8192);
  fbe_arena_free(arena);
  return vr.charged;
}

/* verify refuses data with FBE_ERR_LIMIT naming the memory budget of `limit` bytes, and
 * fbe_decode refuses it with verify's very error. Returns the values verify walked. */
static uint64_t expect_over_budget(const fbe_struct *st, fbe_model model, const bytes *b,
                                   const fbe_limits *limits, uint64_t limit) {
  fbei_cost_report vr = {0, 0};
  fbe_error err, derr;
  fbe_status s = fbei_verify_report(st, model, b->p, b->n, limits, NULL, &vr, &err);
  assert_int_equal(s, FBE_ERR_LIMIT);
  char want[128];
  snprintf(want, sizeof want, "decoding needs more than the memory budget of %llu bytes (max_memory)",
           (unsigned long long)limit);
  assert_string_equal(err.message, want);
  assert_true(vr.charged <= limit);
  assert_true(vr.visits * FBE_VALUE_CHARGE <= limit);
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = NULL;
  assert_int_equal(fbe_decode(st, model, b->p, b->n, arena, limits, &m, NULL, &derr), FBE_ERR_LIMIT);
  assert_string_equal(derr.message, err.message);
  assert_int_equal(derr.offset, err.offset);
  assert_string_equal(derr.path, err.path);
  assert_null(m);
  fbe_arena_free(arena);
  return vr.visits;
}

/* ------------------------------------------------------------ tests */

/* codec.h: max_memory 0 is FBE_DEFAULT_MEMORY_FACTOR x the input + FLOOR; set, it is
 * taken as it is; max_depth and max_model_size 0 are their defaults too. */
static void test_limits_default(void **state) {
  (void)state;
  fbe_limits d = fbe_limits_default();
  assert_int_equal(d.max_depth, FBE_DEFAULT_MAX_DEPTH);
  assert_int_equal(d.max_model_size, FBE_DEFAULT_MAX_MODEL_SIZE);
  assert_int_equal(d.max_memory, 0);
  assert_int_equal(fbe_limits_memory(NULL, 1000), 16 * 1000 + (1u << 20));
  assert_int_equal(fbe_limits_memory(&d, 0), 1u << 20);
  fbe_limits set = {0, 0, 12345};
  assert_int_equal(fbe_limits_memory(&set, 1000000), 12345);
  assert_int_equal(fbei_limits_depth(&set), FBE_DEFAULT_MAX_DEPTH);
  assert_int_equal(fbei_limits_size(&set), FBE_DEFAULT_MAX_MODEL_SIZE);
}

/* fbe_limits_set: the one way bindings take limits; names in both spellings, 0 the
 * default, out-of-range values and unknown names refused with one text, *limits kept. */
static void test_limits_set(void **state) {
  (void)state;
  fbe_limits l = fbe_limits_default();
  fbe_error err;
  assert_int_equal(fbe_limits_set(&l, "max_depth", 64, &err), FBE_OK);
  assert_int_equal(fbe_limits_set(&l, "maxModelSize", 4096, &err), FBE_OK);
  assert_int_equal(fbe_limits_set(&l, "max_memory", 1 << 20, &err), FBE_OK);
  assert_int_equal(l.max_depth, 64);
  assert_int_equal(l.max_model_size, 4096);
  assert_int_equal(l.max_memory, 1 << 20);
  assert_int_equal(fbe_limits_set(&l, "maxDepth", 257, &err), FBE_ERR_RANGE);
  assert_string_equal(err.message, "max_depth must be 0 (the default) or 1..256, not 257");
  assert_int_equal(fbe_limits_set(&l, "max_model_size", (int64_t)1 << 32, &err), FBE_ERR_RANGE);
  assert_string_equal(err.message, "max_model_size must be 0 (the default) or 1..4294967295, not 4294967296");
  assert_int_equal(fbe_limits_set(&l, "max_memory", -1, &err), FBE_ERR_RANGE);
  assert_string_equal(err.message, "max_memory must be 0 (the default) or a byte count, not -1");
  assert_int_equal(fbe_limits_set(&l, "max_size", 1, &err), FBE_ERR_ARGUMENT);
  assert_string_equal(err.message, "unknown limit 'max_size' (max_depth, max_model_size, max_memory)");
  assert_int_equal(l.max_depth, 64);
  assert_int_equal(l.max_model_size, 4096);
  assert_int_equal(l.max_memory, 1 << 20);
  assert_int_equal(fbe_limits_set(&l, "max_depth", 0, &err), FBE_OK);
  assert_int_equal(fbei_limits_depth(&l), FBE_DEFAULT_MAX_DEPTH);
}

/* One cost function: for the default value of every struct of the test schemas, in both
 * models, verify charges what decode charges, which is what the decoded value costs. */
static void test_one_cost_function(void **state) {
  (void)state;
  const char *files[] = {"test.fbe", "proto.fbe", "protoex.fbe", "enums.fbe"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    fbe_schema *s = t_load(files[i]);
    const fbe_package *pkg = fbe_schema_root(s);
    for (size_t k = 0; k < fbe_package_struct_count(pkg); k++) {
      const fbe_struct *st = fbe_package_struct_at(pkg, k);
      fbe_arena *arena = fbe_arena_new();
      fbe_msg *m = fbe_msg_new(arena, st);
      assert_non_null(m);
      for (int model = 0; model < 2; model++) {
        fbe_buffer out = t_encode(m, (fbe_model)model);
        bytes b = {out.data, out.size, out.size};
        uint64_t charged = expect_fits(st, (fbe_model)model, &b, NULL);
        /* a default value decodes to a value that costs what the default costs */
        assert_int_equal(charged, fbei_msg_cost(m));
        fbe_buffer_free(&out);
      }
      fbe_arena_free(arena);
    }
    fbe_schema_release(s);
  }
}

/* Bodies shared by many pointers: each pointer is charged the whole value it stands
 * for, in verify as in decode; a budget one byte short refuses, naming itself. */
static void test_shared_bodies(void **state) {
  fixture *f = *state;
  const fbe_struct *account = t_struct(f->proto, "Account");
  bytes b = shared_orders(1000);
  uint64_t charged = expect_fits(account, FBE_MODEL_STANDARD, &b, NULL);
  /* 1000 orders: their slots and values, as many times as they are pointed to */
  const fbe_struct *order = t_struct(f->proto, "Order");
  assert_true(charged >= 1000 * (uint64_t)(order->mem_size + 7 * FBE_VALUE_CHARGE));
  fbe_limits exact = {0, 0, charged};
  assert_int_equal(expect_fits(account, FBE_MODEL_STANDARD, &b, &exact), charged);
  fbe_limits short_by_one = {0, 0, charged - 1};
  expect_over_budget(account, FBE_MODEL_STANDARD, &b, &short_by_one, charged - 1);
  free(b.p);
  /* 10^6 pointers to one order: over the default budget, refused at once */
  b = shared_orders(1000000);
  uint64_t walked = expect_over_budget(account, FBE_MODEL_STANDARD, &b, NULL, fbe_limits_memory(NULL, b.n));
  assert_true(walked < 10);
  free(b.p);
}

/* Collections of empty structs (FORMAT.md 6: no byte each in the final model): only the
 * budget bounds their count. 2 x 10^6 of them with 1 MB of pad verified before and then
 * failed to decode; now both refuse, and a count that fits decodes. */
static void test_empty_struct_collections(void **state) {
  fixture *f = *state;
  const fbe_struct *empties = t_struct(f->hostile, "Empties");
  bytes b = empties_final(2000000, 1000000);
  expect_over_budget(empties, FBE_MODEL_FINAL, &b, NULL, fbe_limits_memory(NULL, b.n));
  free(b.p);
  b = empties_final(50000, 16);
  uint64_t charged = expect_fits(empties, FBE_MODEL_FINAL, &b, NULL);
  /* each: its 8-byte slot and one value */
  assert_int_equal(charged, fbei_cost_root(empties) + 50000 * (8 + FBE_VALUE_CHARGE) + 16);
  free(b.p);
  /* the largest count 2^32-1 claims: refused on its count, naming the budget */
  b = empties_final(UINT32_MAX, 0);
  expect_over_budget(empties, FBE_MODEL_FINAL, &b, NULL, fbe_limits_memory(NULL, b.n));
  free(b.p);
}

/* Verify's work is bounded by the budget: a body shared by many pointers whose own
 * collection is shared too (a * b values from 4 (a + b) bytes) is walked only as far as
 * the budget pays; under it, the walk is a * b + a + 2 values, linear in the charge. */
static void test_verify_work_bounded(void **state) {
  fixture *f = *state;
  const fbe_struct *top = t_struct(f->hostile, "Top");
  bytes b = fanout(100, 100);
  fbei_cost_report vr = {0, 0};
  assert_int_equal(fbei_verify_report(top, FBE_MODEL_STANDARD, b.p, b.n, NULL, NULL, &vr, NULL), FBE_OK);
  assert_int_equal(vr.visits, 100 * 100 + 100 + 1);
  expect_fits(top, FBE_MODEL_STANDARD, &b, NULL);
  free(b.p);
  /* 2.5 x 10^6 pointers to a Mid of 2.5 x 10^6 leaves (10 MB): before, 16 x the size in
   * values were walked (1.7 to 2.8 s); now refused within the budget's walk */
  b = fanout(60, 2500000);
  uint64_t limit = fbe_limits_memory(NULL, b.n);
  uint64_t walked = expect_over_budget(top, FBE_MODEL_STANDARD, &b, NULL, limit);
  assert_true(walked <= limit / FBE_VALUE_CHARGE);
  free(b.p);
}

/* Defaults of absent fields cost what decoded ones do: n pointers to one 8-byte body
 * whose 64-byte default string every element gets. */
static void test_defaults_charged(void **state) {
  fixture *f = *state;
  const fbe_struct *longs = t_struct(f->hostile, "Longs");
  bytes b = shared_defaults(100);
  uint64_t charged = expect_fits(longs, FBE_MODEL_STANDARD, &b, NULL);
  assert_true(charged >= 100 * (64 + 3 * (uint64_t)FBE_VALUE_CHARGE));
  free(b.p);
  b = shared_defaults(200000); /* 800 KB: 200000 x (64 + 24 + 3 x 8) bytes is over 13.8 MB */
  expect_over_budget(longs, FBE_MODEL_STANDARD, &b, NULL, fbe_limits_memory(NULL, b.n));
  free(b.p);
}

/* A lowered max_depth and max_model_size refuse with errors that name them. */
static void test_depth_and_size_named(void **state) {
  fixture *f = *state;
  const fbe_struct *chain = t_struct(f->hostile, "Chain");
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = NULL;
  fbe_error err;
  const char *json = "{\"v\":1,\"next\":{\"v\":2,\"next\":{\"v\":3,\"next\":null}}}";
  assert_int_equal(fbe_msg_from_json(chain, json, strlen(json), arena, &m, &err), FBE_OK);
  fbe_buffer out = t_encode(m, FBE_MODEL_STANDARD);
  fbe_limits shallow = {1, 0, 0};
  assert_int_equal(fbe_verify(chain, FBE_MODEL_STANDARD, out.data, out.size, &shallow, NULL, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "nesting deeper than 1 levels (max_depth)");
  fbe_limits small = {0, 20, 0};
  assert_int_equal(fbe_decode(chain, FBE_MODEL_STANDARD, out.data, out.size, arena, &small, &m, NULL, &err),
                   FBE_ERR_LIMIT);
  assert_non_null(strstr(err.message, "exceeds the limit of 20 bytes (max_model_size)"));
  /* the JSON reader: the core's depth rule, and the text's size */
  assert_int_equal(fbe_msg_from_json_limited(chain, json, strlen(json), arena, &shallow, &m, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "nesting deeper than 1 levels (max_depth)");
  fbe_limits two = {2, 0, 0};
  assert_int_equal(fbe_msg_from_json_limited(chain, json, strlen(json), arena, &two, &m, &err), FBE_OK);
  assert_int_equal(fbe_msg_from_json_limited(chain, json, strlen(json), arena, &small, &m, &err), FBE_ERR_LIMIT);
  assert_non_null(strstr(err.message, "(max_model_size)"));
  fbe_buffer_free(&out);
  fbe_arena_free(arena);
}

/* The JSON reader charges the same cost function: {} elements take their defaults and
 * cost what decoded defaults do; a lowered max_memory refuses, naming itself; what it
 * built costs fbei_msg_cost and no more than the budget; by default 10 MB of
 * {"orders":[{},{},...]} is refused after at most its budget. */
static void test_json_budget(void **state) {
  fixture *f = *state;
  const fbe_struct *account = t_struct(f->proto, "Account");
  size_t n = 1000;
  char *text = malloc(16 + 3 * n);
  size_t len = (size_t)sprintf(text, "{\"orders\":[");
  for (size_t i = 0; i < n; i++) len += (size_t)sprintf(text + len, i ? ",{}" : "{}");
  len += (size_t)sprintf(text + len, "]}");
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = NULL;
  fbe_error err;
  assert_int_equal(fbe_msg_from_json(account, text, len, arena, &m, &err), FBE_OK);
  uint64_t cost = fbei_msg_cost(m);
  /* the arena holds the value only: the collection grew in the heap */
  assert_true(fbe_arena_reserved(arena) <= 2 * cost + 8192);
  /* the same value from its wire bytes costs the same */
  fbe_buffer out = t_encode(m, FBE_MODEL_FINAL);
  bytes b = {out.data, out.size, out.size};
  assert_int_equal(expect_fits(account, FBE_MODEL_FINAL, &b, NULL), cost);
  fbe_buffer_free(&out);
  fbe_limits tight = {0, 0, cost / 2};
  fbe_arena_reset(arena);
  assert_int_equal(fbe_msg_from_json_limited(account, text, len, arena, &tight, &m, &err), FBE_ERR_LIMIT);
  char want[128];
  snprintf(want, sizeof want, "reading JSON needs more than the memory budget of %llu bytes (max_memory)",
           (unsigned long long)(cost / 2));
  assert_string_equal(err.message, want);
  assert_string_equal(err.path, "orders");
  assert_null(m);
  free(text);
  /* 10 MB of {} elements: refused, the arena never past the default budget */
  n = 10000000 / 3;
  text = malloc(16 + 3 * n);
  len = (size_t)sprintf(text, "{\"orders\":[");
  for (size_t i = 0; i < n; i++) {
    memcpy(text + len, i ? ",{}" : "{} ", 3);
    len += i ? 3 : 2;
  }
  len += (size_t)sprintf(text + len, "]}");
  fbe_arena_reset(arena);
  assert_int_equal(fbe_msg_from_json(account, text, len, arena, &m, &err), FBE_ERR_LIMIT);
  assert_non_null(strstr(err.message, "(max_memory)"));
  assert_true(fbe_arena_reserved(arena) <= 2 * fbe_limits_memory(NULL, len) + 8192);
  free(text);
  fbe_arena_free(arena);
}

/* The JSON writer's output budget: max_memory bytes of text, FBE_ERR_LIMIT beyond it
 * (the buffer left as it was); the default (32 x the value's cost + 1 MiB) takes any
 * value a decode built. */
static void test_json_output_budget(void **state) {
  fixture *f = *state;
  const fbe_struct *account = t_struct(f->proto, "Account");
  bytes b = shared_orders(5000);
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = NULL;
  fbe_error err;
  assert_int_equal(fbe_decode(account, FBE_MODEL_STANDARD, b.p, b.n, arena, NULL, &m, NULL, &err), FBE_OK);
  fbe_buffer out;
  fbe_buffer_init(&out);
  assert_int_equal(fbe_msg_to_json(m, 1, &out, &err), FBE_OK);
  size_t full = out.size;
  fbe_buffer_reset(&out);
  fbe_buffer_append(&out, "x", 1);
  fbe_limits small = {0, 0, full - 1};
  assert_int_equal(fbe_msg_to_json_limited(m, 1, &small, &out, &err), FBE_ERR_LIMIT);
  char want[96];
  snprintf(want, sizeof want, "JSON output larger than %zu bytes (max_memory)", full - 1);
  assert_string_equal(err.message, want);
  assert_int_equal(out.size, 1);
  fbe_limits enough = {0, 0, full};
  assert_int_equal(fbe_msg_to_json_limited(m, 1, &enough, &out, &err), FBE_OK);
  assert_int_equal(out.size, 1 + full);
  fbe_buffer_free(&out);
  fbe_arena_free(arena);
  free(b.p);
}

typedef struct counter {
  int messages;
} counter;

static int count_message(void *ctx, const fbe_msg *msg) {
  (void)msg;
  ((counter *)ctx)->messages++;
  return 0;
}

/* The receiver applies all three limits per frame: max_model_size bounds a frame (and
 * so what is buffered), max_memory what one frame's message may cost, each refusal
 * naming its limit; verify => decode holds inside it (a frame of 2 x 10^6 empty
 * structs is refused by verify, not left to fail in decode). */
static void test_receiver_limits(void **state) {
  fixture *f = *state;
  fbe_schema *s = t_load_text("package frames\nstruct E {}\nmessage M { E[] items; }\n", "frames.fbe");
  counter c = {0};
  bytes b = {NULL, 0, 0};
  put32(&b, 0), put32(&b, fbe_struct_type_id(t_struct(s, "M"))), put32(&b, 1000);
  t_put32(b.p, 0, (uint32_t)b.n);
  fbe_limits tight = {0, 0, 4096};
  fbe_receiver *r = fbe_receiver_new(s, NULL, FBE_MODEL_FINAL, &tight, count_message, &c);
  fbe_error err;
  assert_int_equal(fbe_receiver_feed(r, b.p, b.n, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "decoding needs more than the memory budget of 4096 bytes (max_memory)");
  assert_int_equal(c.messages, 0);
  fbe_receiver_free(r);
  r = fbe_receiver_new(s, NULL, FBE_MODEL_FINAL, NULL, count_message, &c);
  assert_int_equal(fbe_receiver_feed(r, b.p, b.n, &err), FBE_OK);
  assert_int_equal(c.messages, 1);
  t_put32(b.p, 8, 2000000); /* 2 x 10^6 empty structs in 12 bytes */
  assert_int_equal(fbe_receiver_feed(r, b.p, b.n, &err), FBE_ERR_LIMIT);
  assert_non_null(strstr(err.message, "(max_memory)"));
  assert_int_equal(c.messages, 1);
  fbe_receiver_free(r);
  fbe_limits small_frames = {0, 11, 0};
  r = fbe_receiver_new(s, NULL, FBE_MODEL_FINAL, &small_frames, count_message, &c);
  assert_int_equal(fbe_receiver_feed(r, b.p, 4, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "frame size 12 exceeds the limit of 11 bytes (max_model_size)");
  assert_int_equal(fbe_receiver_pending(r), 0);
  fbe_receiver_free(r);
  free(b.p);
  fbe_schema_release(s);
  (void)f;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_limits_default),
      cmocka_unit_test(test_one_cost_function),
      cmocka_unit_test(test_shared_bodies),
      cmocka_unit_test(test_empty_struct_collections),
      cmocka_unit_test(test_verify_work_bounded),
      cmocka_unit_test(test_defaults_charged),
      cmocka_unit_test(test_depth_and_size_named),
      cmocka_unit_test(test_json_budget),
      cmocka_unit_test(test_json_output_budget),
      cmocka_unit_test(test_receiver_limits),
      cmocka_unit_test(test_limits_set),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

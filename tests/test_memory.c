/* fbe_memory_in_use() (fbe/memory.h): the exact count of the bytes the core holds.
 * Each test notes the count, does some work of one kind (schemas, codec, buffers,
 * protocol, compat, dump, generated-code allocations, error paths), frees what it got,
 * and asserts the count is back exactly where it was: the bindings' leak tests rely on
 * this, so every allocation of the core must be counted and every free uncounted. */
#include "fbe_test.h"
#include "fbe/internal/arena.h" /* sizeof(struct fbe_arena): the exact cost of an arena */

static const char *INCLUDE[] = {FBE_SCHEMAS_DIR};

static fbe_schema *load_compat(const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/compat/%s", FBE_TESTS_DIR, name);
  fbe_load_options o = {INCLUDE, 1};
  fbe_diagnostics d = {0, NULL};
  fbe_schema *s = fbe_schema_load_file(path, &o, &d);
  fbe_diagnostics_free(&d);
  if (!s) fail_msg("%s did not load", path);
  return s;
}

/* The count moves by exactly what is asked of the system, and back. */
static void test_exact_sizes(void **state) {
  (void)state;
  size_t base = fbe_memory_in_use();
  fbe_buffer b;
  fbe_buffer_init(&b);
  assert_int_equal(fbe_buffer_reserve(&b, 1000), 0);
  assert_int_equal(b.capacity, 1024);
  assert_int_equal(fbe_memory_in_use(), base + 1024);
  assert_int_equal(fbe_buffer_reserve(&b, 5000), 0); /* grows in place or moves: realloc */
  assert_int_equal(fbe_memory_in_use(), base + b.capacity);
  fbe_buffer_free(&b);
  assert_int_equal(fbe_memory_in_use(), base);

  fbe_arena *a = fbe_arena_new();
  assert_non_null(a);
  assert_int_equal(fbe_memory_in_use(), base + sizeof(struct fbe_arena));
  for (int i = 0; i < 1000; i++) assert_non_null(fbe_arena_alloc(a, 100)); /* several blocks */
  assert_int_equal(fbe_memory_in_use(), base + sizeof(struct fbe_arena) + fbe_arena_reserved(a));
  fbe_arena_reset(a); /* keeps the first block only */
  assert_int_equal(fbe_memory_in_use(), base + sizeof(struct fbe_arena) + fbe_arena_reserved(a));
  fbe_arena_free(a);
  assert_int_equal(fbe_memory_in_use(), base);

  void *p = fbe_gen_alloc(NULL, 40); /* the default allocator of generated code */
  void *q = fbe_gen_alloc(NULL, 0);
  assert_non_null(p);
  assert_non_null(q);
  assert_int_equal(fbe_memory_in_use(), base + 40 + 1);
  fbe_gen_free(NULL, p);
  fbe_gen_free(NULL, q);
  assert_int_equal(fbe_memory_in_use(), base);
}

/* Loading (files with imports, text, a package by name, failures with diagnostics) and
 * releasing; retain/release pairs do not free. */
static void test_schemas(void **state) {
  (void)state;
  size_t base = fbe_memory_in_use();
  fbe_schema *s = t_load("test.fbe"); /* imports proto.fbe */
  size_t loaded = fbe_memory_in_use();
  assert_true(loaded > base);
  fbe_schema_retain(s);
  fbe_schema_release(s);
  assert_int_equal(fbe_memory_in_use(), loaded);
  fbe_schema_release(s);
  assert_int_equal(fbe_memory_in_use(), base);

  fbe_load_options o = {INCLUDE, 1};
  fbe_diagnostics d = {0, NULL};
  fbe_schema *p = fbe_schema_load_package("proto", &o, &d);
  assert_non_null(p);
  fbe_diagnostics_free(&d);
  fbe_schema_release(p);
  assert_int_equal(fbe_memory_in_use(), base);

  const char *bad = "package x\nstruct A { nope b; int32 c = ; }\n";
  assert_null(fbe_schema_load_string(bad, strlen(bad), "bad.fbe", &o, &d));
  assert_true(d.count > 0);
  assert_true(fbe_memory_in_use() > base); /* the diagnostics */
  fbe_diagnostics_free(&d);
  assert_int_equal(fbe_memory_in_use(), base);

  assert_null(fbe_schema_load_file("no/such/file.fbe", &o, &d));
  fbe_diagnostics_free(&d);
  assert_int_equal(fbe_memory_in_use(), base);
}

/* Building, encoding, verifying, decoding, JSON both ways, equality; and the same calls
 * failing. */
static void test_codec(void **state) {
  (void)state;
  fbe_schema *s = t_load("proto.fbe");
  const fbe_struct *account = t_struct(s, "Account");
  size_t base = fbe_memory_in_use();
  for (int m = 0; m < 2; m++) {
    fbe_arena *a = fbe_arena_new();
    fbe_msg *acc = t_build_account(a, account);
    fbe_buffer bytes = t_encode(acc, (fbe_model)m);
    assert_int_equal(fbe_verify(account, (fbe_model)m, bytes.data, bytes.size, NULL, NULL, NULL), FBE_OK);
    fbe_msg *back = t_decode(account, (fbe_model)m, bytes.data, bytes.size, a);
    assert_true(fbe_msg_equal(acc, back));
    fbe_buffer json;
    fbe_buffer_init(&json);
    assert_int_equal(fbe_msg_to_json(back, 1, &json, NULL), FBE_OK);
    fbe_msg *again = NULL;
    assert_int_equal(fbe_msg_from_json(account, (const char *)json.data, json.size, a, &again, NULL),
                     FBE_OK);
    assert_true(fbe_msg_equal(acc, again));

    fbe_error err;
    fbe_msg *none = NULL;
    assert_int_not_equal(fbe_decode(account, (fbe_model)m, bytes.data, 9, a, NULL, &none, NULL, &err),
                         FBE_OK);
    assert_int_not_equal(fbe_msg_from_json(account, "{\"id\":", 6, a, &none, &err), FBE_OK);
    fbe_buffer_free(&json);
    fbe_buffer_free(&bytes);
    fbe_arena_free(a);
    assert_int_equal(fbe_memory_in_use(), base);
  }
  fbe_schema_release(s);
}

static int to_buffer(void *ctx, const uint8_t *data, size_t size) {
  return fbe_buffer_append(ctx, data, size);
}

static int count_message(void *ctx, const fbe_msg *msg) {
  (void)msg;
  ++*(int *)ctx;
  return 0;
}

/* A sender and a receiver, the receiver fed in chunks (holding a partial frame) and fed
 * a bad frame; both freed while the receiver still buffers bytes. */
static void test_protocol(void **state) {
  (void)state;
  size_t base = fbe_memory_in_use();
  fbe_schema *s = t_load("proto.fbe");
  fbe_arena *a = fbe_arena_new();
  fbe_msg *msg = t_new(a, t_struct(s, "AccountMessage"));
  fbe_buffer stream;
  fbe_buffer_init(&stream);
  fbe_sender *snd = fbe_sender_new(s, NULL, FBE_MODEL_STANDARD, to_buffer, &stream);
  int got = 0;
  fbe_receiver *rcv = fbe_receiver_new(s, NULL, FBE_MODEL_STANDARD, NULL, count_message, &got);
  assert_non_null(snd);
  assert_non_null(rcv);
  for (int i = 0; i < 3; i++) assert_int_equal(fbe_sender_send(snd, msg, NULL), FBE_OK);
  for (size_t at = 0; at < stream.size; at += 5) {
    size_t n = stream.size - at < 5 ? stream.size - at : 5;
    assert_int_equal(fbe_receiver_feed(rcv, stream.data + at, n, NULL), FBE_OK);
  }
  assert_int_equal(got, 3);
  uint8_t junk[16] = {0x10, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  fbe_error err;
  assert_int_not_equal(fbe_receiver_feed(rcv, junk, sizeof junk, &err), FBE_OK);
  assert_int_equal(fbe_receiver_feed(rcv, stream.data, stream.size - 3, NULL), FBE_OK);
  assert_true(fbe_receiver_pending(rcv) > 0);
  fbe_receiver_free(rcv);
  fbe_sender_free(snd);
  fbe_buffer_free(&stream);
  fbe_arena_free(a);
  fbe_schema_release(s);
  assert_int_equal(fbe_memory_in_use(), base);
}

/* A compatibility report with changes, freed; then one between identical schemas. */
static void test_compat(void **state) {
  (void)state;
  size_t base = fbe_memory_in_use();
  fbe_schema *old_schema = load_compat("field_renamed.old.fbe");
  fbe_schema *new_schema = load_compat("field_renamed.new.fbe");
  size_t loaded = fbe_memory_in_use();
  fbe_compat_report r;
  assert_int_equal(fbe_compat_compare(old_schema, new_schema, &r, NULL), FBE_OK);
  assert_true(r.count > 0);
  fbe_compat_report_free(&r);
  assert_int_equal(fbe_memory_in_use(), loaded);
  assert_int_equal(fbe_compat_compare(old_schema, old_schema, &r, NULL), FBE_OK);
  fbe_compat_report_free(&r);
  fbe_schema_release(old_schema);
  fbe_schema_release(new_schema);
  assert_int_equal(fbe_memory_in_use(), base);
}

/* A dump of a valid model and of a broken one. */
static void test_dump(void **state) {
  (void)state;
  fbe_schema *s = t_load("proto.fbe");
  const fbe_struct *account = t_struct(s, "Account");
  size_t n;
  uint8_t *bytes = t_hex(T_ACCOUNT_STD, &n);
  size_t base = fbe_memory_in_use();
  fbe_buffer out;
  fbe_buffer_init(&out);
  assert_int_equal(fbe_dump(account, FBE_MODEL_STANDARD, bytes, n, NULL, &out, NULL), FBE_OK);
  assert_true(out.size > 0);
  fbe_buffer_free(&out);
  t_put32(bytes, 12, 0xffffffffu);
  fbe_error err;
  assert_int_not_equal(fbe_dump(account, FBE_MODEL_STANDARD, bytes, n, NULL, &out, &err), FBE_OK);
  fbe_buffer_free(&out);
  assert_int_equal(fbe_memory_in_use(), base);
  free(bytes);
  fbe_schema_release(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exact_sizes), cmocka_unit_test(test_schemas),
      cmocka_unit_test(test_codec),       cmocka_unit_test(test_protocol),
      cmocka_unit_test(test_compat),      cmocka_unit_test(test_dump),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

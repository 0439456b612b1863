/* Error texts say what is wrong: a pointer that leads backwards is not "outside the
 * model" (error_internal.h fbe_error_bad_pointer), and verify and decode word it alike. */
#include "fbe_test.h"

static void expect_refusal(const fbe_struct *st, const uint8_t *data, size_t n,
                           const char *message, size_t offset, const char *path) {
  fbe_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(fbe_verify(st, FBE_MODEL_STANDARD, data, n, NULL, NULL, &err),
                   FBE_ERR_MALFORMED);
  assert_string_equal(err.message, message);
  assert_int_equal(err.offset, offset);
  assert_string_equal(err.path, path);
  fbe_arena *arena = fbe_arena_new();
  t_assert_decode_refused_as_verify(st, FBE_MODEL_STANDARD, data, n, arena);
  fbe_arena_free(arena);
}

static void test_pointer_texts(void **state) {
  (void)state;
  fbe_schema *schema = t_load("proto.fbe");
  const fbe_struct *account = t_struct(schema, "Account");
  fbe_arena *arena = fbe_arena_new();
  fbe_buffer b = t_encode(t_build_account(arena, account), FBE_MODEL_STANDARD);
  /* FORMAT.md 11.1: orders[1].symbol's pointer is at 0xb0, relative to its order's body at
   * 0xa4: 0x22 leads to 0xc6, after the slot */
  t_put32(b.data, 0xb0, 1);
  expect_refusal(account, b.data, b.size,
                 "pointer 1 points back to offset 165, before its slot at 176", 0xb0,
                 "orders[1].symbol");
  t_put32(b.data, 0xb0, 0x0c); /* to the slot itself */
  expect_refusal(account, b.data, b.size,
                 "pointer 12 points back to offset 176, before its slot at 176", 0xb0,
                 "orders[1].symbol");
  t_put32(b.data, 0xb0, 0x1000);
  expect_refusal(account, b.data, b.size, "pointer 4096 leads outside the model", 0xb0,
                 "orders[1].symbol");
  fbe_buffer_free(&b);
  fbe_arena_free(arena);
  fbe_schema_release(schema);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pointer_texts)};
  return cmocka_run_group_tests_name("error_texts", tests, NULL, NULL);
}

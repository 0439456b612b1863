/* The one table of reasons bytes are refused (fbe/internal/faults.h): its formats take
 * only the conversions its callers pass (%llu, %s), every fault is a malformed-data or a
 * limit error, and verify, decode and dump name a fault in its words. */
#include "fbe_test.h"
#include "fbe/internal/faults.h"

static void test_formats_take_llu_and_s_only(void **state) {
  (void)state;
  for (int f = 0; f < FBE_FAULT_COUNT_; f++) {
    const char *fmt = fbei_fault_format((fbei_fault)f);
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p + 1, '%')) {
      int ok = strncmp(p, "%llu", 4) == 0 || strncmp(p, "%s", 2) == 0;
      if (!ok) fail_msg("fault %d: conversion %.4s in \"%s\"", f, p, fmt);
      if (p[1] == 'l') p += 3;
    }
    fbe_status st = fbei_fault_status((fbei_fault)f);
    assert_true(st == FBE_ERR_MALFORMED || st == FBE_ERR_LIMIT);
    for (int g = 0; g < f; g++) assert_string_not_equal(fmt, fbei_fault_format((fbei_fault)g));
  }
}

static void test_set(void **state) {
  (void)state;
  fbe_error err;
  memset(&err, 0, sizeof err);
  strcpy(err.path, "old");
  assert_int_equal(fbei_fault_set(&err, FBE_FAULT_TYPE_ID, 4, 7ull, "proto.Order", 1ull), FBE_ERR_MALFORMED);
  assert_string_equal(err.message, "type id 7 where proto.Order (1) was expected");
  assert_int_equal(err.offset, 4);
  assert_string_equal(err.path, "");
  assert_int_equal(fbei_fault_set(NULL, FBE_FAULT_TOO_DEEP, 0, 5ull), FBE_ERR_LIMIT);
  fbei_fault_bad_pointer(&err, 20, 4, 24);
  assert_string_equal(err.message, "pointer 4 leads outside the model");
  fbei_fault_bad_pointer(&err, 20, 4, 12);
  assert_string_equal(err.message, "pointer 4 points back to offset 12, before its slot at 20");
}

/* The same short buffer refused by verify, decode and dump in one wording. */
static void test_one_wording(void **state) {
  (void)state;
  fbe_schema *s = t_load("proto.fbe");
  const fbe_struct *order = t_struct(s, "proto.Order");
  const uint8_t bytes[12] = {12, 0, 0, 0, 1, 0, 0, 0};
  for (int model = 0; model < 2; model++) {
    fbe_model m = model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbe_error verr, derr, xerr;
    fbe_arena *arena = fbe_arena_new();
    fbe_msg *out = NULL;
    assert_int_not_equal(fbe_verify(order, m, bytes, sizeof bytes, NULL, NULL, &verr), FBE_OK);
    assert_int_not_equal(fbe_decode_trusted(order, m, bytes, sizeof bytes, arena, NULL, &out, NULL, &derr), FBE_OK);
    fbe_buffer text;
    fbe_buffer_init(&text);
    assert_int_not_equal(fbe_dump(order, m, bytes, sizeof bytes, NULL, &text, &xerr), FBE_OK);
    assert_string_equal(verr.message, derr.message);
    assert_string_equal(verr.message, xerr.message);
    fbe_buffer_free(&text);
    fbe_arena_free(arena);
  }
  fbe_schema_release(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_formats_take_llu_and_s_only),
      cmocka_unit_test(test_set),
      cmocka_unit_test(test_one_wording),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

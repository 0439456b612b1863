/* Unit tests of the bump allocator (core/include/fbe/arena.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fbe/arena.h"

/* Every allocation is aligned to 8 bytes, whatever the size asked for (arena.h). */
static void test_alignment(void **state) {
  (void)state;
  fbe_arena *a = fbe_arena_new();
  assert_non_null(a);
  for (size_t size = 1; size <= 200; size++) {
    uint8_t *p = fbe_arena_alloc(a, size);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 8, 0);
    memset(p, 0xab, size); /* the whole block is usable */
  }
  /* Odd sizes interleaved with 8-byte values: each still aligned and writable. */
  for (int i = 0; i < 1000; i++) {
    uint8_t *c = fbe_arena_alloc(a, 3);
    uint64_t *q = fbe_arena_alloc(a, sizeof *q);
    assert_non_null(c);
    assert_non_null(q);
    assert_int_equal((uintptr_t)q % 8, 0);
    *q = (uint64_t)i * 0x0101010101010101u;
    c[0] = c[1] = c[2] = 0xcd;
  }
  fbe_arena_free(a);
}

/* Many allocations spanning many blocks do not overlap: each keeps its own content. */
static void test_many_allocations_across_blocks(void **state) {
  (void)state;
  enum { N = 20000 };
  fbe_arena *a = fbe_arena_new();
  assert_non_null(a);
  uint8_t **ptrs = calloc(N, sizeof *ptrs);
  size_t *sizes = calloc(N, sizeof *sizes);
  assert_non_null(ptrs);
  assert_non_null(sizes);
  size_t total = 0;
  for (size_t i = 0; i < N; i++) {
    sizes[i] = 1 + (i * 37) % 300;
    ptrs[i] = fbe_arena_alloc(a, sizes[i]);
    assert_non_null(ptrs[i]);
    memset(ptrs[i], (int)(i & 0xff), sizes[i]);
    total += sizes[i];
  }
  /* More than one first block's worth was needed, and the arena accounts for it. */
  assert_true(total > 1000000);
  assert_true(fbe_arena_reserved(a) >= total);
  for (size_t i = 0; i < N; i++)
    for (size_t j = 0; j < sizes[i]; j++)
      if (ptrs[i][j] != (uint8_t)(i & 0xff)) fail_msg("allocation %zu byte %zu overwritten", i, j);
  /* One allocation larger than any block so far. */
  uint8_t *big = fbe_arena_alloc(a, 8u << 20);
  assert_non_null(big);
  assert_int_equal((uintptr_t)big % 8, 0);
  memset(big, 0x5a, 8u << 20);
  assert_true(fbe_arena_reserved(a) >= total + (8u << 20));
  assert_int_equal(ptrs[N - 1][0], (uint8_t)((N - 1) & 0xff));
  free(ptrs);
  free(sizes);
  fbe_arena_free(a);
}

/* One decode-like cycle: a few small values, some larger ones that need new blocks. */
static void fill_cycle(fbe_arena *a, int cycle) {
  for (int i = 0; i < 50; i++) {
    uint8_t *p = fbe_arena_alloc(a, 40);
    assert_non_null(p);
    memset(p, cycle & 0xff, 40);
  }
  for (int i = 0; i < 3; i++) {
    uint8_t *p = fbe_arena_alloc(a, 6000);
    assert_non_null(p);
    memset(p, cycle & 0xff, 6000);
  }
}

/* fbe_arena_reset keeps the first block for reuse: the first allocation after a reset
 * gets the same memory again, and the reserved total does not grow over 10000 cycles. */
static void test_reset_reuses_memory(void **state) {
  (void)state;
  fbe_arena *a = fbe_arena_new();
  assert_non_null(a);
  void *first = fbe_arena_alloc(a, 16);
  assert_non_null(first);
  fill_cycle(a, 0);
  fbe_arena_reset(a);
  assert_ptr_equal(fbe_arena_alloc(a, 16), first);
  fill_cycle(a, 1);
  size_t reserved_one_cycle = fbe_arena_reserved(a);
  assert_true(reserved_one_cycle >= 16 + 50 * 40 + 3 * 6000);
  size_t peak = 0;
  for (int cycle = 2; cycle < 10002; cycle++) {
    fbe_arena_reset(a);
    void *p = fbe_arena_alloc(a, 16);
    assert_ptr_equal(p, first);
    fill_cycle(a, cycle);
    size_t r = fbe_arena_reserved(a);
    if (r > peak) peak = r;
  }
  /* Bounded: the same work never needs more than it did in one cycle (2x slack for an
   * allocator that keeps a bigger block around). */
  if (peak > 2 * reserved_one_cycle)
    fail_msg("reserved grew to %zu bytes (one cycle: %zu)", peak, reserved_one_cycle);
  fbe_arena_reset(a);
  /* After a reset only the kept block remains reserved: less than a full cycle needed. */
  assert_true(fbe_arena_reserved(a) < reserved_one_cycle);
  fbe_arena_free(a);
}

/* A reset arena that is immediately freed, an unused arena, and free(NULL). */
static void test_free_and_unused(void **state) {
  (void)state;
  fbe_arena_free(NULL); /* documented no-op */
  fbe_arena *a = fbe_arena_new();
  assert_non_null(a);
  fbe_arena_free(a); /* never used */
  a = fbe_arena_new();
  assert_non_null(a);
  assert_non_null(fbe_arena_alloc(a, 100000));
  fbe_arena_reset(a);
  fbe_arena_free(a); /* leak checkers (ASan) see everything released */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alignment),
      cmocka_unit_test(test_many_allocations_across_blocks),
      cmocka_unit_test(test_reset_reuses_memory),
      cmocka_unit_test(test_free_and_unused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A cmocka-compatible subset for the Windows (mingw-w64) build only, where Debian has
 * no cmocka: exactly the part of cmocka's API that tests/test_*.c use, with cmocka's
 * semantics (CMakeLists.txt picks it when cmocka is not found and the target is MinGW;
 * every other build uses the real cmocka). Written for libfbe, not taken from cmocka.
 *
 *   struct CMUnitTest, cmocka_unit_test(f), cmocka_unit_test_setup_teardown(f, s, t),
 *   cmocka_run_group_tests(tests, setup, teardown), cmocka_run_group_tests_name(...)
 *   assert_true/false, assert_null/non_null, assert_int_equal/not_equal,
 *   assert_ptr_equal/not_equal, assert_string_equal/not_equal,
 *   assert_memory_equal/not_equal, fail(), fail_msg(...), skip(),
 *   print_message(...), print_error(...)
 *
 * As in cmocka: a failed assertion ends the test (longjmp back to the runner) and the
 * group goes on; a test's state starts as the group setup's state; a test whose setup
 * fails is an error and its teardown is not run; skip() ends the test as skipped;
 * the runner returns the number of failed tests. Integers compare as uintmax_t (cmocka's
 * LargestIntegralType); strings with strcmp (a NULL side fails, it does not crash). */
#ifndef FBE_CMOCKA_SHIM_H
#define FBE_CMOCKA_SHIM_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
  const char *name;
  CMUnitTestFunction test_func;
  CMFixtureFunction setup_func;
  CMFixtureFunction teardown_func;
  void *initial_state;
};

#define cmocka_unit_test(f) {#f, f, NULL, NULL, NULL}
#define cmocka_unit_test_setup_teardown(f, setup, teardown) {#f, f, setup, teardown, NULL}

int fbe_shim_run_group(const char *name, const struct CMUnitTest *tests, size_t count,
                       CMFixtureFunction group_setup, CMFixtureFunction group_teardown);
#define cmocka_run_group_tests(tests, setup, teardown) \
  fbe_shim_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)
#define cmocka_run_group_tests_name(name, tests, setup, teardown) \
  fbe_shim_run_group(name, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)

#if defined(__GNUC__)
#define FBE_SHIM_NORETURN __attribute__((noreturn))
#define FBE_SHIM_PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#else
#define FBE_SHIM_NORETURN
#define FBE_SHIM_PRINTF(a, b)
#endif

void print_message(const char *format, ...) FBE_SHIM_PRINTF(1, 2);
void print_error(const char *format, ...) FBE_SHIM_PRINTF(1, 2);
FBE_SHIM_NORETURN void fbe_shim_fail(const char *file, int line, const char *format, ...)
    FBE_SHIM_PRINTF(3, 4);
FBE_SHIM_NORETURN void fbe_shim_skip(const char *file, int line);
void fbe_shim_true(int ok, const char *expression, const char *file, int line);
void fbe_shim_int(uintmax_t a, uintmax_t b, int want_equal, const char *file, int line);
void fbe_shim_string(const char *a, const char *b, int want_equal, const char *file, int line);
void fbe_shim_memory(const void *a, const void *b, size_t size, int want_equal, const char *file,
                     int line);

#define fail() fbe_shim_fail(__FILE__, __LINE__, "fail()")
#define fail_msg(...) fbe_shim_fail(__FILE__, __LINE__, __VA_ARGS__)
#define skip() fbe_shim_skip(__FILE__, __LINE__)
#define assert_true(c) fbe_shim_true(!!(c), #c, __FILE__, __LINE__)
#define assert_false(c) fbe_shim_true(!(c), "!(" #c ")", __FILE__, __LINE__)
#define assert_non_null(p) fbe_shim_true((p) != NULL, #p " != NULL", __FILE__, __LINE__)
#define assert_null(p) fbe_shim_true((p) == NULL, #p " == NULL", __FILE__, __LINE__)
#define assert_int_equal(a, b) fbe_shim_int((uintmax_t)(a), (uintmax_t)(b), 1, __FILE__, __LINE__)
#define assert_int_not_equal(a, b) fbe_shim_int((uintmax_t)(a), (uintmax_t)(b), 0, __FILE__, __LINE__)
#define assert_ptr_equal(a, b) \
  fbe_shim_int((uintmax_t)(uintptr_t)(const void *)(a), (uintmax_t)(uintptr_t)(const void *)(b), 1, __FILE__, __LINE__)
#define assert_ptr_not_equal(a, b) \
  fbe_shim_int((uintmax_t)(uintptr_t)(const void *)(a), (uintmax_t)(uintptr_t)(const void *)(b), 0, __FILE__, __LINE__)
#define assert_string_equal(a, b) fbe_shim_string((a), (b), 1, __FILE__, __LINE__)
#define assert_string_not_equal(a, b) fbe_shim_string((a), (b), 0, __FILE__, __LINE__)
#define assert_memory_equal(a, b, n) fbe_shim_memory((a), (b), (size_t)(n), 1, __FILE__, __LINE__)
#define assert_memory_not_equal(a, b, n) fbe_shim_memory((a), (b), (size_t)(n), 0, __FILE__, __LINE__)

#endif

/* The runner and assertions of tests/cmocka_shim/cmocka.h (see there). */
#include "cmocka.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SHIM_OK, SHIM_FAILED, SHIM_SKIPPED };

static jmp_buf *shim_jump; /* where a failure or skip() returns to; NULL outside a test */
static int shim_outcome;

void print_message(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vprintf(format, ap);
  va_end(ap);
  fflush(stdout);
}

void print_error(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vfprintf(stderr, format, ap);
  va_end(ap);
  fflush(stderr);
}

static FBE_SHIM_NORETURN void shim_leave(int outcome) {
  if (!shim_jump) { /* an assertion outside the runner: nothing to return to */
    fprintf(stderr, "cmocka shim: assertion outside a test\n");
    exit(EXIT_FAILURE);
  }
  shim_outcome = outcome;
  longjmp(*shim_jump, 1);
}

void fbe_shim_fail(const char *file, int line, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  vfprintf(stderr, format, ap);
  va_end(ap);
  fprintf(stderr, "\n%s:%d: error: Failure!\n", file, line);
  fflush(stderr);
  shim_leave(SHIM_FAILED);
}

void fbe_shim_skip(const char *file, int line) {
  fprintf(stderr, "%s:%d: skipped\n", file, line);
  shim_leave(SHIM_SKIPPED);
}

void fbe_shim_true(int ok, const char *expression, const char *file, int line) {
  if (!ok) fbe_shim_fail(file, line, "%s", expression);
}

void fbe_shim_int(uintmax_t a, uintmax_t b, int want_equal, const char *file, int line) {
  if ((a == b) != want_equal)
    fbe_shim_fail(file, line, "%ju (%#jx) %s %ju (%#jx)", a, a, want_equal ? "!=" : "==", b, b);
}

void fbe_shim_string(const char *a, const char *b, int want_equal, const char *file, int line) {
  if (!a || !b) fbe_shim_fail(file, line, "a string to compare is NULL (\"%s\" vs \"%s\")", a ? a : "(null)", b ? b : "(null)");
  if ((strcmp(a, b) == 0) != want_equal)
    fbe_shim_fail(file, line, "\"%s\" %s \"%s\"", a, want_equal ? "!=" : "==", b);
}

void fbe_shim_memory(const void *a, const void *b, size_t size, int want_equal, const char *file,
                     int line) {
  if (!a || !b) fbe_shim_fail(file, line, "a memory block to compare is NULL");
  const unsigned char *x = a, *y = b;
  size_t i = 0;
  while (i < size && x[i] == y[i]) i++;
  if ((i == size) != want_equal) {
    if (want_equal)
      fbe_shim_fail(file, line, "%zu bytes differ at byte %zu: 0x%02x != 0x%02x", size, i, x[i], y[i]);
    fbe_shim_fail(file, line, "%zu bytes are equal", size);
  }
}

/* Runs one fixture or test function under the jump; returns its outcome. A fixture's
 * non-zero return is a failure. */
static int shim_call(CMUnitTestFunction test, CMFixtureFunction fixture, void **state) {
  jmp_buf here;
  jmp_buf *volatile outer = shim_jump;
  shim_outcome = SHIM_OK;
  if (setjmp(here) == 0) {
    shim_jump = &here;
    if (test) test(state);
    else if (fixture(state) != 0) shim_outcome = SHIM_FAILED;
  }
  shim_jump = outer;
  return shim_outcome;
}

int fbe_shim_run_group(const char *name, const struct CMUnitTest *tests, size_t count,
                       CMFixtureFunction group_setup, CMFixtureFunction group_teardown) {
  void *group_state = NULL;
  size_t failed = 0, skipped = 0, run = 0;
  printf("[==========] %s: Running %zu test(s).\n", name, count);
  fflush(stdout);
  if (group_setup && shim_call(NULL, group_setup, &group_state) != SHIM_OK) {
    printf("[  ERROR   ] %s: group setup failed\n", name);
    return (int)(count ? count : 1);
  }
  for (size_t i = 0; i < count; i++) {
    const struct CMUnitTest *t = &tests[i];
    void *state = t->initial_state ? t->initial_state : group_state;
    printf("[ RUN      ] %s\n", t->name);
    fflush(stdout);
    run++;
    int outcome = SHIM_OK;
    if (t->setup_func) outcome = shim_call(NULL, t->setup_func, &state);
    if (outcome == SHIM_OK) {
      outcome = shim_call(t->test_func, NULL, &state);
      if (t->teardown_func && shim_call(NULL, t->teardown_func, &state) != SHIM_OK && outcome == SHIM_OK)
        outcome = SHIM_FAILED;
    } else {
      printf("[  ERROR   ] %s: setup failed\n", t->name);
    }
    if (outcome == SHIM_OK) printf("[       OK ] %s\n", t->name);
    else if (outcome == SHIM_SKIPPED) printf("[  SKIPPED ] %s\n", t->name), skipped++;
    else printf("[  FAILED  ] %s\n", t->name), failed++;
    fflush(stdout);
  }
  if (group_teardown && shim_call(NULL, group_teardown, &group_state) != SHIM_OK) {
    printf("[  ERROR   ] %s: group teardown failed\n", name);
    failed++;
  }
  printf("[==========] %s: %zu test(s) run.\n", name, run);
  printf("[  PASSED  ] %zu test(s).\n", run - failed - skipped);
  if (skipped) printf("[  SKIPPED ] %zu test(s).\n", skipped);
  if (failed) printf("[  FAILED  ] %zu test(s).\n", failed);
  fflush(stdout);
  return (int)failed;
}

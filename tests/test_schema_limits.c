/* The limits of a schema load (fbe/schema.h): schema files are regular files of at most
 * FBE_SCHEMA_MAX_FILE_SIZE bytes, and the flattened field lists and final-model steps
 * of all structs are capped, each refused with an error at the file or struct that
 * crossed the limit, before the memory is taken. */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L /* mkdtemp, mkfifo */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fbe/schema.h"
#include "fbe/internal/schema_model.h"

#if defined(__unix__) || defined(__APPLE__)
#include <sys/stat.h>
#include <unistd.h>
#define HAVE_POSIX 1
#endif

#ifndef FBE_TESTS_DIR
#define FBE_TESTS_DIR "../tests"
#endif

/* A growing text buffer for generated schemas. */
typedef struct text {
  char *data;
  size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->data ? t->data + t->len : NULL, t->data ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    assert_true(n >= 0);
    if (t->data && t->len + (size_t)n < t->cap) {
      t->len += (size_t)n;
      return;
    }
    t->cap = (t->cap + (size_t)n + 1) * 2;
    t->data = realloc(t->data, t->cap);
    assert_non_null(t->data);
  }
}

/* Loads the text; asserts the load fails with exactly one diagnostic, `expected`. */
static void assert_refused(const text *t, const char *expected) {
  fbe_diagnostics diags;
  fbe_schema *schema = fbe_schema_load_string(t->data, t->len, "gen.fbe", NULL, &diags);
  assert_null(schema);
  char line[512] = "";
  if (diags.count) fbe_diagnostic_format(&diags.items[0], line, sizeof line);
  assert_string_equal(line, expected);
  assert_int_equal(diags.count, 1);
  fbe_diagnostics_free(&diags);
}

static fbe_schema *assert_loads(const text *t) {
  fbe_diagnostics diags;
  fbe_schema *schema = fbe_schema_load_string(t->data, t->len, "gen.fbe", NULL, &diags);
  assert_int_equal(diags.count, 0);
  assert_non_null(schema);
  fbe_diagnostics_free(&diags);
  return schema;
}

/* A chain S0 <- S1 <- ... of n structs, one field each: S_k has k + 1 fields, the
 * chain n(n+1)/2. 1023 structs hold 523,776 (within 2^19), 1024 hold 524,800. */
static void chain(text *t, int n) {
  t->len = 0;
  add(t, "package chain\nstruct S0 { int32 f0; }\n");
  for (int i = 1; i < n; i++) add(t, "struct S%d : S%d { int32 f%d; }\n", i, i - 1, i);
}

static void test_inherited_fields_in_all(void **state) {
  (void)state;
  text t = {0};
  chain(&t, 1023);
  fbe_schema *schema = assert_loads(&t);
  assert_int_equal(fbe_struct_field_count(fbe_schema_find_struct(schema, "S1022")), 1023);
  fbe_schema_release(schema);
  /* 10,000 deep (5e7 field records if built): refused where the sum crosses 2^19 */
  chain(&t, 10000);
  assert_refused(&t, "gen.fbe:1025:8: Struct S1023 takes the schema past 524288 fields in all "
                     "(each struct counts its inherited fields)");
  free(t.data);
}

static void test_fields_of_one_struct(void **state) {
  (void)state;
  text t = {0};
  add(&t, "package wide\nstruct A {");
  for (int i = 0; i < 40000; i++) add(&t, " int32 a%d;", i);
  add(&t, " }\nstruct B : A {");
  for (int i = 0; i < 30000; i++) add(&t, " int32 b%d;", i);
  add(&t, " }\nstruct C : B { int32 c; }\n"); /* over too, through B: not reported again */
  assert_refused(&t, "gen.fbe:3:8: Struct B has more than 65536 fields including inherited "
                     "ones");
  free(t.data);
}

/* Declarations cost memory without a field (1,000,000 empty structs: 1.19 GB before):
 * a file declares at most 2^19; the one past it is named. */
static void test_declarations(void **state) {
  (void)state;
  text t = {0};
  add(&t, "package many\nenum E { a; }\n");
  for (unsigned i = 1; i < FBE_SCHEMA_MAX_DECLARATIONS; i++) add(&t, "struct S%u {}\n", i);
  fbe_schema *schema = assert_loads(&t);
  fbe_schema_release(schema);
  add(&t, "struct Over {}\nstruct More {}\n");
  assert_refused(&t, "gen.fbe:524291:1: Too many declarations: a schema file may declare at most 524288 "
                     "enums, flags, structs and messages");
  free(t.data);
}

/* T_i holds two T_{i-1} inline: its final-model program has 2^i steps, all of
 * T0..T_n together 2^(n+1) - 1. */
static void doubling(text *t, int n) {
  t->len = 0;
  add(t, "package doubling\nstruct T0 { bool a; }\n");
  for (int i = 1; i <= n; i++) add(t, "struct T%d { T%d a; T%d b; }\n", i, i - 1, i - 1);
}

static void test_final_model_steps_in_all(void **state) {
  (void)state;
  text t = {0};
  doubling(&t, 18); /* 524,287 steps */
  fbe_schema_release(assert_loads(&t));
  doubling(&t, 19);
  assert_refused(&t, "gen.fbe:21:8: Struct T19 takes the schema past 524288 final-model steps "
                     "in all (a plain struct held inline counts each of its fields)");
  free(t.data);
}

/* Error paths of flattened steps are kept within what an error shows: a deep one becomes
 * "..." and its end, shared by the outer levels (the paths would otherwise cost the
 * cube of the depth: 330 MB for 999 levels). */
static void test_deep_step_paths(void **state) {
  (void)state;
  text t = {0};
  add(&t, "package nested\nstruct W0 { bool leaf; }\n");
  for (int i = 1; i < 200; i++) add(&t, "struct W%d { W%d inner; bool b; }\n", i, i - 1);
  fbe_schema *schema = assert_loads(&t);
  const fbe_struct *deepest = fbe_schema_find_struct(schema, "W199");
  assert_int_equal(deepest->nfinal_ops, 200); /* W0's leaf, then each level's b */
  const char *leaf = deepest->final_ops[0].path; /* 199 x "inner." + "leaf" in full */
  size_t len = strlen(leaf);
  assert_true(len < sizeof(((fbe_error *)0)->path));
  assert_memory_equal(leaf, "...", 3);
  assert_string_equal(leaf + len - 16, "inner.inner.leaf");
  assert_string_equal(deepest->final_ops[199].path, "b");
  assert_string_equal(deepest->final_ops[198].path, "inner.b");
  for (uint32_t i = 0; i < deepest->nfinal_ops; i++)
    assert_true(strlen(deepest->final_ops[i].path) < sizeof(((fbe_error *)0)->path));
  /* the cut path is shared with the level below, not copied */
  const fbe_struct *below = fbe_schema_find_struct(schema, "W198");
  assert_ptr_equal(below->final_ops[0].path, leaf);
  const fbe_struct *shallow = fbe_schema_find_struct(schema, "W2");
  assert_string_equal(shallow->final_ops[0].path, "inner.inner.leaf");
  fbe_schema_release(schema);
  free(t.data);
}

static void assert_file_refused(const char *path, const char *reason) {
  fbe_diagnostics diags;
  fbe_schema *schema = fbe_schema_load_file(path, NULL, &diags);
  assert_null(schema);
  assert_int_equal(diags.count, 1);
  char expected[512], line[512];
  snprintf(expected, sizeof expected, "%s: Cannot read file: %s", path, reason);
  fbe_diagnostic_format(&diags.items[0], line, sizeof line);
  assert_string_equal(line, expected);
  fbe_diagnostics_free(&diags);
}

static void test_files(void **state) {
  (void)state;
  assert_file_refused(FBE_TESTS_DIR "/schema_errors/no_such_file.fbe", "no such file");
  assert_file_refused(FBE_TESTS_DIR "/schema_errors", "not a regular file (a device, FIFO or "
                                                      "directory)");
#ifdef HAVE_POSIX
  assert_file_refused("/dev/zero", "not a regular file (a device, FIFO or directory)");
  char dir[] = "/tmp/fbe_limits_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char fifo[64], big[64], root[64], imported[64];
  snprintf(fifo, sizeof fifo, "%s/fifo.fbe", dir);
  snprintf(big, sizeof big, "%s/big.fbe", dir);
  snprintf(root, sizeof root, "%s/root.fbe", dir);
  snprintf(imported, sizeof imported, "%s/dep.fbe", dir);
  /* a FIFO would block the open: refused before it */
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_file_refused(fifo, "not a regular file (a device, FIFO or directory)");
  /* one byte past the cap (a sparse file: nothing is written) */
  FILE *f = fopen(big, "wb");
  assert_non_null(f);
  assert_int_equal(fseek(f, (long)FBE_SCHEMA_MAX_FILE_SIZE, SEEK_SET), 0);
  assert_int_equal(fputc(' ', f), ' ');
  assert_int_equal(fclose(f), 0);
  assert_file_refused(big, "too large: 67108865 bytes, the limit is 67108864");
  /* an import that is a directory: named, and the import reported */
  f = fopen(root, "wb");
  assert_non_null(f);
  fputs("package root\nimport dep\n", f);
  assert_int_equal(fclose(f), 0);
  assert_int_equal(mkdir(imported, 0700), 0);
  fbe_diagnostics diags;
  assert_null(fbe_schema_load_file(root, NULL, &diags));
  assert_int_equal(diags.count, 2);
  char line[512], expected[512];
  fbe_diagnostic_format(&diags.items[0], line, sizeof line); /* sorted by file: root first */
  snprintf(expected, sizeof expected, "%s:2:8: Cannot find dep.fbe for import dep", root);
  assert_string_equal(line, expected);
  fbe_diagnostic_format(&diags.items[1], line, sizeof line);
  snprintf(expected, sizeof expected,
           "%s: Cannot read file: not a regular file (a device, FIFO or directory)", imported);
  assert_string_equal(line, expected);
  fbe_diagnostics_free(&diags);
  assert_int_equal(rmdir(imported), 0);
  assert_int_equal(remove(root), 0);
  assert_int_equal(remove(big), 0);
  assert_int_equal(remove(fifo), 0);
  assert_int_equal(rmdir(dir), 0);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_inherited_fields_in_all),
      cmocka_unit_test(test_fields_of_one_struct),
      cmocka_unit_test(test_declarations),
      cmocka_unit_test(test_final_model_steps_in_all),
      cmocka_unit_test(test_deep_step_paths),
      cmocka_unit_test(test_files),
  };
  return cmocka_run_group_tests_name("schema_limits", tests, NULL, NULL);
}

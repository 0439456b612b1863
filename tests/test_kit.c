/* The binding kit: what every binding takes from the core instead of re-deriving it
 * (docs/BINDINGS.md) - introspection, the loader, the status table, the scratch pool,
 * the message shell and the converters' error helpers. */
#include "fbe_test.h"
#include "fbe/internal/error.h"
#include "fbe/internal/scratch.h"
#include "fbe/internal/value.h"

static void test_packages_and_dense_index(void **state) {
  (void)state;
  fbe_schema *s = t_load("protoex.fbe");
  assert_int_equal(fbe_schema_package_count(s), 2);
  assert_string_equal(fbe_package_name(fbe_schema_package_at(s, 0)), "proto"); /* imports first */
  assert_ptr_equal(fbe_schema_package_at(s, 1), fbe_schema_root(s));          /* root last */
  assert_null(fbe_schema_package_at(s, 2));
  const fbe_package *root = fbe_schema_root(s);
  assert_string_equal(fbe_package_domain(root), "com.chronoxor");
  assert_int_equal(fbe_package_version_major(root), 1);
  assert_int_equal(fbe_package_version_minor(root), 0);
  /* every struct of every package once, its index its place */
  size_t total = 0;
  for (size_t p = 0; p < fbe_schema_package_count(s); p++)
    total += fbe_package_struct_count(fbe_schema_package_at(s, p));
  assert_int_equal(fbe_schema_struct_count(s), total);
  for (size_t i = 0; i < fbe_schema_struct_count(s); i++)
    assert_int_equal(fbe_struct_index(fbe_schema_struct_at(s, i)), i);
  assert_null(fbe_schema_struct_at(s, total));
  size_t enums = 0;
  for (size_t p = 0; p < fbe_schema_package_count(s); p++)
    enums += fbe_package_enum_count(fbe_schema_package_at(s, p));
  assert_int_equal(fbe_schema_enum_count(s), enums);
  for (size_t i = 0; i < enums; i++) assert_int_equal(fbe_enum_index(fbe_schema_enum_at(s, i)), i);
  /* protoex.Balance : proto.Balance inherits its fields; Account has [key] id */
  const fbe_struct *balance = t_struct(s, "protoex.Balance");
  assert_int_equal(fbe_struct_inherited_count(balance),
                   fbe_struct_field_count(t_struct(s, "proto.Balance")));
  assert_int_equal(fbe_struct_inherited_count(t_struct(s, "proto.Balance")), 0);
  assert_true(fbe_struct_has_keys(t_struct(s, "protoex.Account")));
  assert_false(fbe_struct_has_keys(t_struct(s, "protoex.OrderMessage")));
  fbe_schema_release(s);
}

static fbe_default_class class_of(const fbe_struct *st, const char *field) {
  const fbe_field *f = fbe_struct_field(st, field);
  if (!f) fail_msg("no field %s", field);
  return fbe_field_default_class(f);
}

static void test_default_classes(void **state) {
  (void)state;
  fbe_schema *s = t_load("test.fbe");
  const fbe_struct *simple = t_struct(s, "test.StructSimple");
  assert_int_equal(class_of(simple, "f22"), FBE_DEFAULT_SHARED);  /* int64 */
  assert_int_equal(class_of(simple, "f32"), FBE_DEFAULT_SHARED);  /* string */
  assert_int_equal(class_of(simple, "f35"), FBE_DEFAULT_DYNAMIC); /* timestamp = utc */
  assert_int_equal(class_of(simple, "f37"), FBE_DEFAULT_DYNAMIC); /* uuid = uuid1 */
  assert_int_equal(class_of(simple, "f38"), FBE_DEFAULT_SHARED);  /* a fixed uuid */
  assert_int_equal(class_of(simple, "f41"), FBE_DEFAULT_FRESH);   /* a struct */
  const fbe_struct *optional = t_struct(s, "test.StructOptional");
  assert_int_equal(class_of(optional, "f148"), FBE_DEFAULT_SHARED);  /* timestamp? (null) */
  assert_int_equal(class_of(optional, "f149"), FBE_DEFAULT_DYNAMIC); /* timestamp? = utc */
  const fbe_struct *vector = t_struct(s, "test.StructVector");
  assert_int_equal(fbe_field_default_class(fbe_struct_field_at(vector, 0)), FBE_DEFAULT_FRESH);
  fbe_schema_release(s);
}

static void test_loader(void **state) {
  (void)state;
  fbe_loader *loader = fbe_loader_new();
  assert_non_null(loader);
  const char *text = "package p\nimport proto\nstruct S { proto.Order order; }\n";
  assert_null(fbe_loader_load_string(loader, text, strlen(text), "p.fbe")); /* no include yet */
  assert_true(fbe_loader_diagnostic_count(loader) >= 1);
  assert_true(fbe_loader_diagnostic_is_error(loader, 0));
  assert_non_null(strstr(fbe_loader_diagnostic_text(loader, 0), "p.fbe:2:"));
  assert_string_equal(fbe_loader_diagnostic_text(loader, 99), "");
  assert_int_equal(fbe_loader_add_include(loader, FBE_SCHEMAS_DIR), 0);
  fbe_schema *s = fbe_loader_load_string(loader, text, strlen(text), "p.fbe");
  assert_non_null(s);
  assert_int_equal(fbe_loader_diagnostic_count(loader), 0); /* each load replaces them */
  assert_int_equal(fbe_schema_package_count(s), 2);
  fbe_schema_release(s);
  fbe_loader_free(loader);
}

static void test_status_table(void **state) {
  (void)state;
  for (int i = 0; i < FBE_STATUS_COUNT; i++) {
    const char *cls = fbe_status_class((fbe_status)i);
    size_t n = strlen(cls);
    assert_true(n >= 5 && strcmp(cls + n - 5, "Error") == 0); /* FBE_OK: "Error", the root */
    for (int j = 0; j < i; j++) assert_string_not_equal(cls, fbe_status_class((fbe_status)j));
    fbe_status parent = fbe_status_parent((fbe_status)i);
    assert_true(parent < (fbe_status)i || i == 0); /* parents come first: made in order */
    assert_string_not_equal(fbe_status_name((fbe_status)i), "FBE_ERR_UNKNOWN");
  }
  assert_string_equal(fbe_status_name((fbe_status)FBE_STATUS_COUNT), "FBE_ERR_UNKNOWN");
  assert_string_equal(fbe_status_class(FBE_ERR_UNKNOWN_FIELD), "UnknownFieldError");
  assert_int_equal(fbe_status_parent(FBE_ERR_UNKNOWN_FIELD), FBE_ERR_NOT_FOUND);
  assert_int_equal(fbe_status_parent(FBE_ERR_MALFORMED), FBE_OK);
}

static void test_scratch_pool(void **state) {
  (void)state;
  size_t before = fbe_memory_in_use();
  fbei_scratch_pool pool;
  memset(&pool, 0, sizeof pool);
  fbei_scratch *a = fbei_scratch_get(&pool);
  assert_non_null(a);
  assert_non_null(fbe_arena_alloc(a->arena, 100));
  int host = 7;
  assert_int_equal(fbei_scratch_keep(a, &host), 0);
  assert_int_equal(a->nkeep, 1);
  fbei_scratch_put(&pool, a);
  fbei_scratch *b = fbei_scratch_get(&pool);
  assert_ptr_equal(a, b); /* reused, reset */
  assert_int_equal(b->nkeep, 0);
  /* more at once than the pool keeps: the extra ones are freed when given back */
  fbei_scratch *many[FBE_SCRATCH_POOL_SIZE + 3];
  many[0] = b;
  for (int i = 1; i < FBE_SCRATCH_POOL_SIZE + 3; i++) {
    many[i] = fbei_scratch_get(&pool);
    assert_non_null(many[i]);
    for (int j = 0; j < i; j++) assert_ptr_not_equal(many[i], many[j]);
  }
  for (int i = 0; i < FBE_SCRATCH_POOL_SIZE + 3; i++) fbei_scratch_put(&pool, many[i]);
  fbei_scratch_pool_drain(&pool);
  assert_int_equal(fbe_memory_in_use(), before);
  /* the variant for hosts under one lock (GIL, GVL): the same reuse, the same bound */
  fbei_scratch *c = fbei_scratch_get_locked(&pool);
  fbei_scratch_put_locked(&pool, c);
  assert_ptr_equal(fbei_scratch_get_locked(&pool), c);
  for (int i = 0; i < FBE_SCRATCH_POOL_SIZE + 3; i++) many[i] = i ? fbei_scratch_get_locked(&pool) : c;
  for (int i = 0; i < FBE_SCRATCH_POOL_SIZE + 3; i++) fbei_scratch_put_locked(&pool, many[i]);
  fbei_scratch_pool_drain(&pool);
  assert_int_equal(fbe_memory_in_use(), before);
}

static void test_message_shell(void **state) {
  (void)state;
  fbe_schema *s = t_load("proto.fbe");
  const fbe_struct *st = t_struct(s, "proto.Account");
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *m = fbei_msg_shell(arena, st);
  assert_non_null(m);
  assert_ptr_equal(fbe_msg_type(m), st);
  fbe_value_init(st->self_type, fbei_msg_data(m), arena); /* what a converter may do */
  assert_int_equal(fbe_msg_equal(m, fbe_msg_new(arena, st)), 1);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

static void test_walk_errors(void **state) {
  (void)state;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbei_error_prepend_field(&err, "x"); /* no error: nothing to add to */
  assert_string_equal(err.path, "");
  fbei_error_range(&err, "300", FBE_KIND_UINT8);
  assert_int_equal(err.code, FBE_ERR_RANGE);
  fbei_error_prepend_key(&err);
  fbei_error_prepend_index(&err, 2);
  fbei_error_prepend_field(&err, "orders");
  char text[512];
  fbe_error_format(&err, text, sizeof text);
  assert_string_equal(text, "value 300 does not fit uint8 at 'orders[2][key]'");
  char where[64];
  fbe_error_format_where("orders[2]", 17, where, sizeof where); /* what host code appends */
  assert_string_equal(where, " at 'orders[2]' (offset 17)");
  fbe_error_format_where(NULL, FBE_NO_OFFSET, where, sizeof where);
  assert_string_equal(where, "");
  fbe_error_format_where("", 0, where, sizeof where);
  assert_string_equal(where, " (offset 0)");
  fbei_error_decimal_range(&err, "1e99");
  assert_string_equal(err.message,
                      "decimal 1e99 does not fit FBE's decimal (96-bit coefficient, scale 0..28)");
}

/* A path too long for fbe_error.path keeps its inner parts, marked as cut ("..."), and
 * nothing goes in front of it after that: not even a short part that would fit. */
static void test_path_cut(void **state) {
  (void)state;
  fbe_error err;
  fbei_error_range(&err, "300", FBE_KIND_UINT8);
  fbei_error_prepend_field(&err, "symbol");
  fbei_error_prepend_index(&err, 3);
  char expected[sizeof err.path];
  size_t levels = 0;
  while (strlen(err.path) + strlen("abcdefghij.") < sizeof err.path - 1) { /* fill, part by part */
    fbei_error_prepend_field(&err, "abcdefghij");
    levels++;
  }
  strcpy(expected, err.path); /* "abcdefghij.abcdefghij.[...][3].symbol": whole */
  assert_true(levels > 10);
  assert_int_equal(strncmp(err.path, "abcdefghij.", 11), 0);
  fbei_error_prepend_field(&err, "a_name_that_does_not_fit_any_more");
  assert_int_equal(strncmp(err.path, "...", 3), 0); /* cut */
  assert_true(strlen(err.path) < sizeof err.path);
  assert_non_null(strstr(err.path, "[3].symbol"));
  /* the inner part is what it was, from a whole part on */
  assert_non_null(strstr(expected, err.path + 3));
  assert_true(err.path[3] == 'a');
  char before[sizeof err.path];
  strcpy(before, err.path);
  fbei_error_prepend_index(&err, 1); /* short, would fit: not put in front */
  fbei_error_prepend_field(&err, "x");
  assert_string_equal(err.path, before);
  char text[512];
  fbe_error_format(&err, text, sizeof text);
  assert_int_equal(strncmp(text, "value 300 does not fit uint8 at '...abcdefghij.", 47), 0);

  /* one part longer than the whole room: only the mark and what fits */
  fbei_error_range(&err, "300", FBE_KIND_UINT8);
  char huge[400];
  memset(huge, 'q', sizeof huge - 1);
  huge[sizeof huge - 1] = 0;
  fbei_error_prepend_field(&err, "inner");
  fbei_error_prepend_field(&err, huge);
  assert_string_equal(err.path, "...inner");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_packages_and_dense_index),
      cmocka_unit_test(test_default_classes),
      cmocka_unit_test(test_loader),
      cmocka_unit_test(test_status_table),
      cmocka_unit_test(test_scratch_pool),
      cmocka_unit_test(test_message_shell),
      cmocka_unit_test(test_walk_errors),
      cmocka_unit_test(test_path_cut),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

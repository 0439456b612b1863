/* Fuzz target: the schema loader (lexer, parser, resolver, layout) on fuzzed .fbe text.
 * Imports resolve against schemas/ (the fuzzed file pretends to live there), so
 * `import proto` works. Checks: a load fails exactly when it reports an error; every
 * diagnostic is well formed; introspection is consistent; and the default message of
 * every struct of a loaded schema passes every invariant of fuzz_common.h. */
#include <string.h>
#include "fuzz_common.h"

#define FUZZ_FILE FBE_SCHEMAS_DIR "/fuzz.fbe"

static void check_struct(const fbe_schema *schema, const fbe_struct *st) {
  const char *full = fbe_struct_full_name(st);
  FUZZ_CHECK(full && fbe_struct_name(st), "struct without a name");
  FUZZ_CHECK(fbe_schema_find_struct(schema, full) == st, "find_struct(%s) finds another", full);
  size_t n = fbe_struct_field_count(st);
  for (size_t i = 0; i < n; i++) {
    const fbe_field *f = fbe_struct_field_at(st, i);
    FUZZ_CHECK(f && fbe_field_index(f) == i, "%s: field %zu has index %zu", full, i,
               f ? fbe_field_index(f) : (size_t)-1);
    const fbe_field *by_name = fbe_struct_field(st, fbe_field_name(f));
    FUZZ_CHECK(by_name && !strcmp(fbe_field_name(by_name), fbe_field_name(f)),
               "%s: field %s not found by name", full, fbe_field_name(f));
    FUZZ_CHECK(fbe_type_kind(fbe_field_type(f)) < FBE_KIND_COUNT_, "%s.%s: bad kind", full,
               fbe_field_name(f));
  }
  if (!fuzz_struct_is_small(st)) return; /* legitimately huge: not worth the memory */
  fbe_arena *arena = fbe_arena_new();
  FUZZ_CHECK(arena != NULL, "out of memory");
  fbe_msg *msg = fbe_msg_new(arena, st);
  FUZZ_CHECK(msg != NULL, "fbe_msg_new(%s) failed", full);
  fuzz_check_message(msg, FUZZ_FROM_DEFAULTS);
  fbe_arena_free(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema =
      fbe_schema_load_string((const char *)data, size, FUZZ_FILE, fuzz_load_options(), &diags);
  size_t errors = 0;
  for (size_t i = 0; i < diags.count; i++) {
    const fbe_diagnostic *d = &diags.items[i];
    FUZZ_CHECK(d->severity == FBE_SEVERITY_ERROR || d->severity == FBE_SEVERITY_WARNING,
               "diagnostic %zu: severity %d", i, (int)d->severity);
    FUZZ_CHECK(d->file && d->message && d->message[0], "diagnostic %zu without text", i);
    char line[512];
    fbe_diagnostic_format(d, line, sizeof line);
    errors += d->severity == FBE_SEVERITY_ERROR;
  }
  FUZZ_CHECK((schema != NULL) == (errors == 0), "load %s but reported %zu error(s)",
             schema ? "succeeded" : "failed", errors);
  fbe_diagnostics_free(&diags);
  if (!schema) return 0;
  const fbe_package *root = fbe_schema_root(schema);
  FUZZ_CHECK(root && fbe_package_name(root), "loaded schema without a root package");
  for (size_t i = 0; i < fbe_package_enum_count(root); i++) {
    const fbe_enum *e = fbe_package_enum_at(root, i);
    FUZZ_CHECK(fbe_schema_find_enum(schema, fbe_enum_full_name(e)) == e, "find_enum(%s)",
               fbe_enum_full_name(e));
    for (size_t v = 0; v < fbe_enum_value_count(e); v++)
      FUZZ_CHECK(fbe_enum_value_name(e, v) != NULL, "%s: value %zu without a name",
                 fbe_enum_full_name(e), v);
  }
  for (size_t i = 0; i < fbe_package_struct_count(root); i++)
    check_struct(schema, fbe_package_struct_at(root, i));
  fbe_schema_release(schema);
  return 0;
}

/* Schema loader errors: every error of SCHEMA.md 9 (reference table and additional
 * errors 1-10) and the warnings, one fixture file each in tests/schema_errors/.
 * Each case asserts the exact "file:line:col: message" lines, in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fbe/schema.h"

#ifndef FBE_SCHEMAS_DIR
#define FBE_SCHEMAS_DIR "../schemas"
#endif
#ifndef FBE_TESTS_DIR
#define FBE_TESTS_DIR "../tests"
#endif
#define FIXTURES FBE_TESTS_DIR "/schema_errors/"

static const char *const include_dirs[] = {FBE_SCHEMAS_DIR};
static const fbe_load_options options = {include_dirs, 1};

typedef struct error_case {
  const char *fixture;             /* file in tests/schema_errors/ */
  const char *const *expected;     /* NULL-terminated, each relative to FIXTURES */
} error_case;

#define CASE(fixture, ...) {fixture, (const char *const[]){__VA_ARGS__, NULL}}

static const error_case cases[] = {
    /* ---- lexical errors (SCHEMA.md 2, additional error 10) ---- */
    CASE("unknown_token.fbe", "unknown_token.fbe:2:21: Unknown token!"),
    CASE("leading_zero.fbe",
         "leading_zero.fbe:2:25: Leading zeros are not allowed in decimal literal 0755"),
    CASE("multi_char.fbe",
         "multi_char.fbe:2:21: Character literal 'ab' must contain exactly one character",
         "multi_char.fbe:2:36: Empty character literal"),
    CASE("invalid_escape.fbe", "invalid_escape.fbe:2:27: Invalid escape sequence '\\q'",
         "invalid_escape.fbe:2:42: Invalid escape sequence '\\x' (expected 2 hexadecimal digits)"),
    CASE("integer_too_large.fbe",
         "integer_too_large.fbe:2:23: Integer literal 18446744073709551616 does not fit in 64 bits",
         "integer_too_large.fbe:2:55: Integer literal -9223372036854775809 does not fit in 64 "
         "bits"),
    CASE("unterminated_literal.fbe", "unterminated_literal.fbe:2:23: Unterminated string literal",
         "unterminated_literal.fbe:3:1: Syntax error: expected '|' or ';', found '}'",
         "unterminated_literal.fbe:4:1: Unterminated block comment"),
    CASE("bad_uuid.fbe",
         "bad_uuid.fbe:2:21: Invalid UUID text \"123e4567-e89b-12d3-a456-42665544000Z\""),

    /* ---- syntax errors ---- */
    CASE("syntax_missing_semicolon.fbe",
         "syntax_missing_semicolon.fbe:4:5: Syntax error: expected '=' or ';', found 'int32'"),
    CASE("syntax_missing_package.fbe",
         "syntax_missing_package.fbe:2:1: Syntax error: expected 'package', found 'struct'"),
    CASE("syntax_import_before_version.fbe",
         "syntax_import_before_version.fbe:3:1: Syntax error: expected a declaration (enum, "
         "flags, struct or message), found 'version'"),
    CASE("syntax_version_int.fbe",
         "syntax_version_int.fbe:2:9: Syntax error: expected a version number MAJOR.MINOR, "
         "found number 1"),
    CASE("syntax_base_without_type.fbe",
         "syntax_base_without_type.fbe:2:16: Syntax error: expected ':' and the base type of a "
         "(base) struct, found '{'"),
    CASE("syntax_flags_without_value.fbe",
         "syntax_flags_without_value.fbe:2:19: Syntax error: expected '=', found ';'"),
    CASE("syntax_reject_star.fbe",
         "syntax_reject_star.fbe:4:22: Syntax error: expected a reject type, found '*'"),
    CASE("syntax_key_spaces.fbe",
         "syntax_key_spaces.fbe:2:12: Syntax error: expected a type, found '['"),
    CASE("syntax_reserved_name.fbe",
         "syntax_reserved_name.fbe:2:8: Syntax error: expected a struct name, found 'message'",
         "syntax_reserved_name.fbe:3:10: Syntax error: expected an enum value name, found "
         "'null'"),
    CASE("syntax_recovery.fbe",
         "syntax_recovery.fbe:2:18: Syntax error: expected a field name, found ';'",
         "syntax_recovery.fbe:3:14: Syntax error: expected an integer, a character or an enum "
         "value name, found ';'",
         "syntax_recovery.fbe:4:11: Syntax error: expected an integer, '+' or 'base', found '{'",
         "syntax_recovery.fbe:5:30: Syntax error: expected a field name, found '='"),
    CASE("enum_value_foreign.fbe",
         "enum_value_foreign.fbe:3:15: Syntax error: expected ';', found '.'"),

    /* ---- package and imports ---- */
    CASE("negative_offset.fbe", "negative_offset.fbe:1:20: Package offset should not be negative!"),
    CASE("duplicate_import.fbe", "duplicate_import.fbe:3:8: Duplicate import package proto"),
    CASE("missing_import.fbe", "missing_import.fbe:2:8: Cannot find nosuch.fbe for import nosuch"),
    CASE("cycle_a.fbe", "cycle_b.fbe:2:8: Import cycle: cycle_a -> cycle_b -> cycle_a"),
    CASE("import_mismatch.fbe",
         "import_mismatch.fbe:2:8: Import wrong_name: " FIXTURES
         "wrong_name.fbe declares package other"),
    CASE("not_imported.fbe", "not_imported.fbe:3:12: Package proto is not imported"),
    CASE("unknown_package.fbe", "unknown_package.fbe:3:12: Unknown package finance"),
    CASE("unknown_type.fbe", "unknown_type.fbe:2:12: Unknown type Foo",
         "unknown_type.fbe:2:19: Unknown type Bar", "unknown_type.fbe:2:34: Unknown type Baz",
         "unknown_type.fbe:2:42: Unknown type bad.Qux"),

    /* ---- duplicate names ---- */
    CASE("duplicate_enum.fbe", "duplicate_enum.fbe:2:16: Duplicate enum name a",
         "duplicate_enum.fbe:3:6: Duplicate enum name E"),
    CASE("duplicate_flags.fbe", "duplicate_flags.fbe:2:18: Duplicate flags name a",
         "duplicate_flags.fbe:3:7: Duplicate flags name F"),
    CASE("duplicate_struct.fbe", "duplicate_struct.fbe:3:9: Duplicate struct name Order"),
    CASE("duplicate_across_kinds.fbe", "duplicate_across_kinds.fbe:3:8: Duplicate struct name Side",
         "duplicate_across_kinds.fbe:4:7: Duplicate flags name Side"),

    /* ---- structs ---- */
    CASE("duplicate_struct_type.fbe", "duplicate_struct_type.fbe:3:10: Duplicate struct type 5",
         "duplicate_struct_type.fbe:4:11: Duplicate struct type 5"),
    CASE("negative_struct_type.fbe",
         "negative_struct_type.fbe:2:10: Struct type should not be negative!",
         "negative_struct_type.fbe:3:11: Struct type should not be negative!"),
    CASE("struct_type_range.fbe", "struct_type_range.fbe:2:8: Struct type id 4294967296 is out of range",
         "struct_type_range.fbe:3:10: Struct type id 4294967296 is out of range"),
    CASE("two_id_fields.fbe", "two_id_fields.fbe:2:29: Struct M must have only one [id] field!"),
    CASE("duplicate_field.fbe", "duplicate_field.fbe:2:38: Duplicate struct field name a",
         "duplicate_field.fbe:2:46: Duplicate struct field name b"),
    CASE("inherited_field.fbe",
         "inherited_field.fbe:4:31: Duplicate struct field name x (inherited from bad.Base)",
         "inherited_field.fbe:5:41: Duplicate struct field name currency (inherited from "
         "proto.Balance)"),
    CASE("array_size_zero.fbe", "array_size_zero.fbe:2:17: Array size should be greater than zero!",
         "array_size_zero.fbe:2:30: Array size should be greater than zero!"),
    CASE("duplicate_reject.fbe", "duplicate_reject.fbe:4:24: Duplicate reject bad.Rej"),
    CASE("base_unknown.fbe", "base_unknown.fbe:2:18: Unknown type Nope",
         "base_unknown.fbe:3:12: Unknown package proto"),
    CASE("base_not_struct.fbe", "base_not_struct.fbe:4:21: E is not a struct or message",
         "base_not_struct.fbe:4:37: E is not a struct or message"),
    CASE("inheritance_cycle.fbe", "inheritance_cycle.fbe:2:8: Inheritance cycle: A -> C -> B -> A",
         "inheritance_cycle.fbe:2:12: warning: Struct C is used before its declaration",
         "inheritance_cycle.fbe:5:8: Inheritance cycle: Self -> Self"),
    CASE("self_containment.fbe",
         "self_containment.fbe:2:8: Struct Direct contains itself through Direct.self",
         "self_containment.fbe:3:8: Struct First contains itself through First.s -> Second.f",
         "self_containment.fbe:3:16: warning: Struct Second is used before its declaration"),
    CASE("duplicate_message_id.fbe",
         "duplicate_message_id.fbe:3:9: Message bad.A has the same type id 1 as message "
         "proto.OrderMessage",
         "duplicate_message_id.fbe:4:9: Message bad.B has the same type id 1 as message "
         "proto.OrderMessage",
         "duplicate_message_id.fbe:5:9: Message bad.C has the same type id 3 as message "
         "proto.AccountMessage",
         "duplicate_message_id.fbe:6:10: Duplicate struct type 1"),

    /* ---- enum and flags values ---- */
    CASE("enum_value_unknown.fbe", "enum_value_unknown.fbe:2:17: Unknown enum value nosuch",
         "enum_value_unknown.fbe:2:29: Enum value d must be declared before it is used",
         "enum_value_unknown.fbe:2:32: warning: Automatic enum value d = 1 follows an alias; "
         "some reference generators give it the alias's value",
         "enum_value_unknown.fbe:3:26: Flags value z must be declared before it is used",
         "enum_value_unknown.fbe:3:40: Unknown flags value nope"),
    CASE("enum_value_range.fbe", "enum_value_range.fbe:2:21: Enum value a = 256 is out of range for byte",
         "enum_value_range.fbe:2:30: Enum value b = -1 is out of range for byte",
         "enum_value_range.fbe:3:21: Enum value a = -129 is out of range for int8",
         "enum_value_range.fbe:4:21: Enum value a = 1092 is out of range for char",
         "enum_value_range.fbe:5:24: Flags value a = 65536 is out of range for uint16"),
    CASE("enum_auto_overflow.fbe",
         "enum_auto_overflow.fbe:2:29: Automatic enum value c = 256 is out of range for byte",
         "enum_auto_overflow.fbe:3:43: Automatic enum value b = 18446744073709551616 is out of "
         "range for uint64",
         "enum_auto_overflow.fbe:4:29: Automatic enum value b = 32768 is out of range for int16"),
    CASE("enum_char_literal.fbe",
         "enum_char_literal.fbe:2:21: Character literal 'x' is not allowed in enum E of base type "
         "byte"),

    /* ---- defaults (SCHEMA.md 7) ---- */
    CASE("min_max_unsupported.fbe",
         "min_max_unsupported.fbe:3:22: Unsupported type float for 'min' constant",
         "min_max_unsupported.fbe:3:38: Unsupported type string for 'max' constant",
         "min_max_unsupported.fbe:3:49: Unsupported type E for 'max' constant"),
    CASE("default_wrong_kind.fbe",
         "default_wrong_kind.fbe:5:15: Invalid default value true for field i of type int32",
         "default_wrong_kind.fbe:6:16: Invalid default value 5 for field s of type string",
         "default_wrong_kind.fbe:7:14: Invalid default value 1 for field b of type bool",
         "default_wrong_kind.fbe:8:14: Invalid default value 1.5 for field u of type uuid",
         "default_wrong_kind.fbe:9:12: Invalid default value a for field e1 of type E",
         "default_wrong_kind.fbe:10:11: Invalid default value E.a for field f of type F",
         "default_wrong_kind.fbe:11:12: Invalid default value E.a | E.a for field e2 of type E",
         "default_wrong_kind.fbe:12:14: Invalid default value 'A' for field c of type byte",
         "default_wrong_kind.fbe:13:18: Field data of type bytes cannot have a default value",
         "default_wrong_kind.fbe:14:15: Field self of type S? cannot have a default value"),
    CASE("default_not_utf8.fbe",
         "default_not_utf8.fbe:4:16: Default value of field a is not valid UTF-8",
         "default_not_utf8.fbe:5:17: Default value of field b is not valid UTF-8"),
    CASE("default_out_of_range.fbe",
         "default_out_of_range.fbe:3:14: Default value 256 is out of range for field b of type "
         "byte",
         "default_out_of_range.fbe:4:14: Default value 300 is out of range for field c of type "
         "char",
         "default_out_of_range.fbe:5:14: Default value -129 is out of range for field i of type "
         "int8",
         "default_out_of_range.fbe:6:15: Default value 1e39 is out of range for field f of type "
         "float",
         "default_out_of_range.fbe:7:16: Default value 1e999 is out of range for field d of type "
         "double",
         "default_out_of_range.fbe:8:17: Default value 79228162514264337593543950336.0 is out of "
         "range for field m of type decimal",
         "default_out_of_range.fbe:9:19: Default value -1 is out of range for field t of type "
         "timestamp",
         "default_out_of_range.fbe:10:17: Default value 65536 is out of range for field u of type "
         "uint16?"),
    CASE("default_unknown_value.fbe", "default_unknown_value.fbe:4:18: Unknown enum value E.z",
         "default_unknown_value.fbe:4:58: Unknown flags value proto.State.ugly"),
    CASE("default_null_non_optional.fbe",
         "default_null_non_optional.fbe:2:22: Null default for non-optional field a of type int32",
         "default_null_non_optional.fbe:2:59: Null default for non-optional field v of type "
         "int32[]"),
};

/* Loads the fixture of a case and compares every diagnostic with the expected lines. */
static void run_case(void **state) {
  const error_case *c = *state;
  fbe_diagnostics diags;
  fbe_schema *schema = fbe_schema_load_file(c->fixture, &options, &diags);
  size_t expected_count = 0;
  while (c->expected[expected_count]) expected_count++;
  for (size_t i = 0; i < diags.count || i < expected_count; i++) {
    char actual[1024] = "(none)", expected[1024] = "(none)";
    if (i < diags.count) fbe_diagnostic_format(&diags.items[i], actual, sizeof actual);
    if (i < expected_count) snprintf(expected, sizeof expected, "%s%s", FIXTURES, c->expected[i]);
    if (strcmp(actual, expected) != 0) {
      print_error("%s, diagnostic %zu:\n  expected: %s\n  actual:   %s\n", c->fixture, i,
                  expected, actual);
    }
    assert_string_equal(actual, expected);
  }
  assert_null(schema); /* every case has at least one error */
  fbe_diagnostics_free(&diags);
}

static void test_warnings_only(void **state) {
  (void)state;
  static const char *const expected[] = {
      "warnings.fbe:1:23: warning: Hexadecimal number 0x10 is read as 0 by the reference "
      "compiler",
      "warnings.fbe:2:3: warning: '*' inside a block comment is rejected by the reference "
      "compiler",
      "warnings.fbe:3:20: warning: Automatic enum value c = 1 follows an alias; some reference "
      "generators give it the alias's value",
      "warnings.fbe:4:16: warning: Struct Later is used before its declaration",
      "warnings.fbe:4:30: warning: Hexadecimal number 0x2 is read as 0 by the reference compiler",
      "warnings.fbe:5:14: warning: Hexadecimal number 0x3 is read as 0 by the reference compiler",
      "warnings.fbe:6:8: warning: Struct Same has the same type id 17 as struct First",
  };
  fbe_diagnostics diags;
  fbe_schema *schema = fbe_schema_load_file(FIXTURES "warnings.fbe", &options, &diags);
  assert_non_null(schema); /* warnings do not fail a load */
  assert_int_equal(diags.count, sizeof expected / sizeof expected[0]);
  for (size_t i = 0; i < diags.count; i++) {
    char actual[512], want[512];
    fbe_diagnostic_format(&diags.items[i], actual, sizeof actual);
    snprintf(want, sizeof want, "%s%s", FIXTURES, expected[i]);
    assert_string_equal(actual, want);
    assert_int_equal(diags.items[i].severity, FBE_SEVERITY_WARNING);
  }
  /* the hexadecimal numbers are still read as hexadecimal */
  assert_int_equal(fbe_struct_type_id(fbe_schema_find_struct(schema, "First")), 17);
  assert_int_equal(fbe_struct_type_id(fbe_schema_find_struct(schema, "Later")), 3);
  assert_int_equal(fbe_struct_type_id(fbe_schema_find_struct(schema, "Msg")), 18);
  fbe_diagnostics_free(&diags);
  fbe_schema_release(schema);
}

static void assert_single_diagnostic(fbe_schema *schema, fbe_diagnostics *diags,
                                     const char *expected) {
  assert_null(schema);
  assert_int_equal(diags->count, 1);
  char actual[512];
  fbe_diagnostic_format(&diags->items[0], actual, sizeof actual);
  assert_string_equal(actual, expected);
  fbe_diagnostics_free(diags);
}

static void test_missing_files(void **state) {
  (void)state;
  fbe_diagnostics diags;
  fbe_schema *schema = fbe_schema_load_file(FIXTURES "no_such_file.fbe", NULL, &diags);
  assert_single_diagnostic(schema, &diags, FIXTURES "no_such_file.fbe: Cannot read file: no such file");

  schema = fbe_schema_load_package("nosuch", &options, &diags);
  assert_single_diagnostic(schema, &diags,
                           "nosuch.fbe: Cannot find package nosuch in the include directories");

  static const char *const fixture_dir[] = {FIXTURES};
  const fbe_load_options from_fixtures = {fixture_dir, 1};
  schema = fbe_schema_load_package("wrong_name", &from_fixtures, &diags);
  assert_single_diagnostic(schema, &diags,
                           FIXTURES "wrong_name.fbe:1:9: File declares package other, expected "
                                    "wrong_name");
}

/* A relative root path that does not exist as given is looked up on the include
 * directories, as an import is; its imports are then found from where it was found. */
static void test_root_on_include_dirs(void **state) {
  (void)state;
  fbe_diagnostics diags;
  fbe_schema *schema = fbe_schema_load_file("protoex.fbe", &options, &diags);
  assert_non_null(schema);
  assert_int_equal(diags.count, 0);
  assert_string_equal(fbe_package_name(fbe_schema_root(schema)), "protoex");
  assert_non_null(fbe_schema_find_struct(schema, "proto.Order"));
  fbe_diagnostics_free(&diags);
  fbe_schema_release(schema);

  /* a path with directories, on the second include directory; imports from its own */
  static const char *const two[] = {FIXTURES, FBE_TESTS_DIR};
  const fbe_load_options both = {two, 2};
  schema = fbe_schema_load_file("gen/schemas/genmsg.fbe", &both, &diags);
  assert_non_null(schema);
  assert_string_equal(fbe_package_name(fbe_schema_root(schema)), "genmsg");
  assert_non_null(fbe_schema_find_enum(schema, "genenums.EnumByte")); /* an import's import */
  fbe_diagnostics_free(&diags);
  fbe_schema_release(schema);

  /* found nowhere: the error names every directory searched */
  schema = fbe_schema_load_file("no_such_file.fbe", &both, &diags);
  assert_single_diagnostic(schema, &diags,
                           "no_such_file.fbe: Cannot read file: no such file as given or in the include "
                           "directories " FIXTURES ", " FBE_TESTS_DIR);

  /* absolute paths are taken as given */
  schema = fbe_schema_load_file(FIXTURES "nested/protoex.fbe", &options, &diags);
  assert_single_diagnostic(schema, &diags, FIXTURES "nested/protoex.fbe: Cannot read file: no such file");
}

/* Plain struct nesting is limited (1000 levels): layout and codecs recurse on it. */
static void test_nesting_limit(void **state) {
  (void)state;
  static char text[64 * 1024];
  for (int levels = 1000; levels <= 1001; levels++) {
    /* S0 { S1 x; } ... with the innermost declared first (no forward references) */
    size_t n = (size_t)snprintf(text, sizeof text, "package deep\nstruct S%d { int32 a; }\n",
                                levels - 1);
    for (int i = levels - 2; i >= 0; i--) {
      n += (size_t)snprintf(text + n, sizeof text - n, "struct S%d { S%d[1] x; }\n", i, i + 1);
    }
    fbe_diagnostics diags;
    fbe_schema *schema = fbe_schema_load_string(text, n, "deep.fbe", NULL, &diags);
    if (levels == 1000) {
      assert_non_null(schema);
      assert_int_equal(diags.count, 0);
    } else {
      char line[256];
      assert_null(schema);
      assert_int_equal(diags.count, 1);
      fbe_diagnostic_format(&diags.items[0], line, sizeof line);
      assert_string_equal(line, "deep.fbe:1002:8: Struct S0 nests plain structs more than 1000 "
                                "levels deep");
    }
    fbe_diagnostics_free(&diags);
    fbe_schema_release(schema);
  }
}

/* Truncations and byte mutations of a reference schema: the loader reports, never crashes. */
static void test_never_crashes(void **state) {
  (void)state;
  FILE *f = fopen(FBE_SCHEMAS_DIR "/protoex.fbe", "rb");
  assert_non_null(f);
  static char text[16384];
  size_t n = fread(text, 1, sizeof text, f);
  fclose(f);
  static char mutated[sizeof text];
  uint32_t seed = 12345;
  static const char alphabet[] = "{}[]()<>;:.,=|!?~+*-'\"\\/ \n0x9_Az@";
  for (size_t len = 0; len <= n; len++) {
    memcpy(mutated, text, n);
    /* every length truncated as is, then again with a few bytes changed */
    for (int round = 0; round < 2; round++) {
      for (int edit = 0; round == 1 && edit < 3 && len > 0; edit++) {
        seed = seed * 1103515245u + 12345u;
        size_t at = (seed >> 8) % len;
        mutated[at] = (seed & 1) ? alphabet[(seed >> 4) % (sizeof alphabet - 1)] : (char)(seed >> 16);
      }
      fbe_diagnostics diags;
      fbe_schema *schema =
          fbe_schema_load_string(mutated, len, FBE_SCHEMAS_DIR "/fuzz.fbe", &options, &diags);
      for (size_t i = 0; i < diags.count; i++) {
        char line[256];
        fbe_diagnostic_format(&diags.items[i], line, sizeof line);
        assert_true(diags.items[i].line > 0);
        assert_true(diags.items[i].col > 0);
      }
      if (!schema) assert_true(diags.count > 0);
      fbe_diagnostics_free(&diags);
      fbe_schema_release(schema);
    }
  }
}

int main(void) {
  enum { NCASES = sizeof cases / sizeof cases[0] };
  struct CMUnitTest tests[NCASES + 5];
  static char paths[NCASES][512];
  static error_case located[NCASES];
  for (size_t i = 0; i < NCASES; i++) {
    snprintf(paths[i], sizeof paths[i], "%s%s", FIXTURES, cases[i].fixture);
    located[i] = cases[i];
    located[i].fixture = paths[i];
    tests[i] = (struct CMUnitTest){cases[i].fixture, run_case, NULL, NULL, &located[i]};
  }
  tests[NCASES] = (struct CMUnitTest)cmocka_unit_test(test_warnings_only);
  tests[NCASES + 1] = (struct CMUnitTest)cmocka_unit_test(test_missing_files);
  tests[NCASES + 2] = (struct CMUnitTest)cmocka_unit_test(test_nesting_limit);
  tests[NCASES + 3] = (struct CMUnitTest)cmocka_unit_test(test_never_crashes);
  tests[NCASES + 4] = (struct CMUnitTest)cmocka_unit_test(test_root_on_include_dirs);
  return cmocka_run_group_tests_name("schema_errors", tests, NULL, NULL);
}

/* Schema loader: the reference schemas (type ids, enum and flags values, inheritance,
 * defaults), loading from strings and packages, and the constructs the reference
 * schemas never use (T~, [id], [hidden], [deprecated], request annotations, uuid4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fbe/codec.h"
#include "fbe/json.h"
#include "fbe/message.h"
#include "fbe/schema.h"
#include "fbe/internal/schema_model.h"

#ifndef FBE_SCHEMAS_DIR
#define FBE_SCHEMAS_DIR "../schemas"
#endif

static const char *const schema_dirs[] = {FBE_SCHEMAS_DIR};
static const fbe_load_options schema_options = {schema_dirs, 1};

/* Loads schemas/<name>.fbe and asserts it has no diagnostics at all. */
static fbe_schema *load_reference(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.fbe", FBE_SCHEMAS_DIR, name);
  fbe_diagnostics diags;
  fbe_schema *schema = fbe_schema_load_file(path, &schema_options, &diags);
  for (size_t i = 0; i < diags.count; i++) {
    char text[512];
    fbe_diagnostic_format(&diags.items[i], text, sizeof text);
    print_error("unexpected diagnostic: %s\n", text);
  }
  assert_int_equal(diags.count, 0);
  fbe_diagnostics_free(&diags);
  assert_non_null(schema);
  return schema;
}

/* Loads schema text; asserts success without diagnostics. */
static fbe_schema *load_text(const char *text) {
  fbe_diagnostics diags;
  fbe_schema *schema =
      fbe_schema_load_string(text, strlen(text), "inline.fbe", &schema_options, &diags);
  for (size_t i = 0; i < diags.count; i++) {
    char line[512];
    fbe_diagnostic_format(&diags.items[i], line, sizeof line);
    print_error("unexpected diagnostic: %s\n", line);
  }
  assert_int_equal(diags.count, 0);
  fbe_diagnostics_free(&diags);
  assert_non_null(schema);
  return schema;
}

static const fbe_struct *find_struct(const fbe_schema *schema, const char *name) {
  const fbe_struct *st = fbe_schema_find_struct(schema, name);
  if (!st) print_error("no struct %s\n", name);
  assert_non_null(st);
  return st;
}

static const fbe_field *find_field(const fbe_struct *st, const char *name) {
  const fbe_field *f = fbe_struct_field(st, name);
  if (!f) print_error("no field %s.%s\n", st->full_name, name);
  assert_non_null(f);
  assert_string_equal(f->name, name);
  return f;
}

static void assert_type_id(const fbe_schema *schema, const char *name, uint32_t id) {
  const fbe_struct *st = find_struct(schema, name);
  if (fbe_struct_type_id(st) != id) print_error("%s\n", name);
  assert_int_equal(fbe_struct_type_id(st), id);
}

/* ---- type ids: every row of SCHEMA.md 6.2 ---- */

static void test_type_ids(void **state) {
  (void)state;
  fbe_schema *proto = load_reference("proto");
  assert_type_id(proto, "Order", 1);
  assert_type_id(proto, "Balance", 2);
  assert_type_id(proto, "Account", 3);
  assert_type_id(proto, "OrderMessage", 1);
  assert_type_id(proto, "BalanceMessage", 2);
  assert_type_id(proto, "AccountMessage", 3);
  fbe_schema_release(proto);

  fbe_schema *protoex = load_reference("protoex");
  assert_type_id(protoex, "Order", 1);
  assert_type_id(protoex, "Balance", 2);
  assert_type_id(protoex, "Account", 3);
  assert_type_id(protoex, "OrderMessage", 11);
  assert_type_id(protoex, "BalanceMessage", 12);
  assert_type_id(protoex, "AccountMessage", 13);
  assert_type_id(protoex, "proto.OrderMessage", 1); /* importing keeps proto's ids */
  fbe_schema_release(protoex);

  fbe_schema *test = load_reference("test");
  static const struct { const char *name; uint32_t id; } test_ids[] = {
      {"StructSimple", 110}, {"StructOptional", 111}, {"StructNested", 112},
      {"StructBytes", 120},  {"StructArray", 125},    {"StructVector", 130},
      {"StructList", 131},   {"StructSet", 132},      {"StructMap", 140},
      {"StructHash", 141},   {"StructHashEx", 142},   {"StructEmpty", 143},
  };
  for (size_t i = 0; i < sizeof test_ids / sizeof test_ids[0]; i++) {
    assert_type_id(test, test_ids[i].name, test_ids[i].id);
  }
  fbe_schema_release(test);

  fbe_schema *enums = load_reference("enums");
  assert_type_id(enums, "Enums", 1);
  fbe_schema_release(enums);
}

/* ---- enum values: SCHEMA.md 4.1 ---- */

static void assert_enum(const fbe_schema *schema, const char *name, fbe_kind base,
                        const uint64_t *values, size_t count) {
  const fbe_enum *e = fbe_schema_find_enum(schema, name);
  assert_non_null(e);
  assert_false(fbe_enum_is_flags(e));
  assert_int_equal(fbe_enum_base(e), base);
  assert_int_equal(fbe_enum_value_count(e), count);
  for (size_t i = 0; i < count; i++) {
    if (fbe_enum_value_at(e, i) != values[i]) print_error("%s value %zu\n", name, i);
    assert_int_equal(fbe_enum_value_at(e, i), values[i]);
  }
}

#define ASSERT_ENUM(schema, name, base, ...)                                  \
  do {                                                                        \
    static const uint64_t values_[] = {__VA_ARGS__};                          \
    assert_enum(schema, name, base, values_, sizeof values_ / sizeof values_[0]); \
  } while (0)

static void test_enum_values(void **state) {
  (void)state;
  fbe_schema *proto = load_reference("proto");
  ASSERT_ENUM(proto, "OrderSide", FBE_KIND_BYTE, 0, 1);
  assert_string_equal(fbe_enum_value_name(fbe_schema_find_enum(proto, "OrderSide"), 1), "sell");
  fbe_schema_release(proto);

  fbe_schema *protoex = load_reference("protoex");
  ASSERT_ENUM(protoex, "OrderType", FBE_KIND_BYTE, 0, 1, 2, 3);
  fbe_schema_release(protoex);

  fbe_schema *test = load_reference("test");
  ASSERT_ENUM(test, "EnumSimple", FBE_KIND_INT32, 0, 1, 2, 3, 4, 3);
  ASSERT_ENUM(test, "EnumTyped", FBE_KIND_CHAR, 0, 49, 50, 51, 52, 51);
  assert_int_equal(fbe_enum_value_count(fbe_schema_find_enum(test, "EnumEmpty")), 0);
  fbe_schema_release(test);

  fbe_schema *enums = load_reference("enums");
  ASSERT_ENUM(enums, "EnumByte", FBE_KIND_BYTE, 0, 0, 1, 254, 255, 254);
  ASSERT_ENUM(enums, "EnumChar", FBE_KIND_CHAR, 0, 49, 50, 51, 52, 51);
  ASSERT_ENUM(enums, "EnumWChar", FBE_KIND_WCHAR, 0, 0x444, 0x445, 0x555, 0x556, 0x555);
  ASSERT_ENUM(enums, "EnumInt8", FBE_KIND_INT8, 0, (uint64_t)-128, (uint64_t)-127, 126, 127, 126);
  ASSERT_ENUM(enums, "EnumInt64", FBE_KIND_INT64, 0, (uint64_t)-INT64_MAX,
              (uint64_t)(-INT64_MAX + 1), (uint64_t)INT64_MAX - 1, (uint64_t)INT64_MAX,
              (uint64_t)INT64_MAX - 1);
  ASSERT_ENUM(enums, "EnumUInt64", FBE_KIND_UINT64, 0, 0, 1, UINT64_MAX - 1, UINT64_MAX,
              UINT64_MAX - 1);
  ASSERT_ENUM(enums, "EnumInt16", FBE_KIND_INT16, 0, (uint64_t)-32768, (uint64_t)-32767, 32766,
              32767, 32766);
  ASSERT_ENUM(enums, "EnumUInt32", FBE_KIND_UINT32, 0, 0, 1, 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFE);
  fbe_schema_release(enums);
}

/* ---- flags: SCHEMA.md 5 ---- */

static void test_flags_values(void **state) {
  (void)state;
  fbe_schema *proto = load_reference("proto");
  const fbe_enum *st = fbe_schema_find_enum(proto, "State");
  assert_non_null(st);
  assert_true(fbe_enum_is_flags(st));
  assert_int_equal(fbe_enum_base(st), FBE_KIND_BYTE);
  static const uint64_t state_values[] = {0, 1, 2, 4, 8, 6, 9};
  assert_int_equal(fbe_enum_value_count(st), 7);
  for (size_t i = 0; i < 7; i++) assert_int_equal(fbe_enum_value_at(st, i), state_values[i]);
  assert_string_equal(fbe_enum_value_name(st, 5), "good");
  assert_string_equal(fbe_enum_full_name(st), "proto.State");
  fbe_schema_release(proto);

  fbe_schema *test = load_reference("test");
  const fbe_enum *typed = fbe_schema_find_enum(test, "FlagsTyped");
  assert_non_null(typed);
  assert_int_equal(fbe_enum_base(typed), FBE_KIND_UINT64);
  static const uint64_t typed_values[] = {0, 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x40, 0x2A};
  assert_int_equal(fbe_enum_value_count(typed), 10);
  for (size_t i = 0; i < 10; i++) assert_int_equal(fbe_enum_value_at(typed, i), typed_values[i]);
  const fbe_enum *simple = fbe_schema_find_enum(test, "FlagsSimple");
  assert_int_equal(fbe_enum_base(simple), FBE_KIND_INT32);
  assert_int_equal(fbe_enum_value_at(simple, 5), 0x5);
  fbe_schema_release(test);
}

/* ---- flattened fields and inheritance ---- */

static void test_inheritance(void **state) {
  (void)state;
  fbe_schema *test = load_reference("test");
  const fbe_struct *simple = find_struct(test, "StructSimple");
  const fbe_struct *optional = find_struct(test, "StructOptional");
  const fbe_struct *nested = find_struct(test, "StructNested");
  assert_int_equal(fbe_struct_field_count(simple), 45);
  assert_int_equal(fbe_struct_field_count(optional), 45 + 66);
  assert_int_equal(optional->ninherited, 45);
  assert_int_equal(fbe_struct_field_count(nested), 111 + 12);
  assert_int_equal(nested->ninherited, 111);
  assert_ptr_equal(fbe_struct_base(optional), simple);
  assert_ptr_equal(fbe_struct_base(nested), optional);
  assert_null(fbe_struct_base(simple));
  /* inherited fields first, then own, each knowing its declaring struct */
  const fbe_field *first = fbe_struct_field_at(optional, 0);
  assert_string_equal(fbe_field_name(first), "id");
  assert_true(fbe_field_is_key(first));
  assert_ptr_equal(first->declared_in, simple);
  const fbe_field *own = fbe_struct_field_at(optional, 45);
  assert_string_equal(fbe_field_name(own), "f100");
  assert_ptr_equal(own->declared_in, optional);
  assert_ptr_equal(fbe_struct_field_at(nested, 45)->declared_in, optional);
  assert_ptr_equal(fbe_struct_field_at(nested, 111)->declared_in, nested);
  for (size_t i = 0; i < fbe_struct_field_count(nested); i++) {
    assert_int_equal(fbe_field_index(fbe_struct_field_at(nested, i)), i);
  }
  /* name lookup over the flattened list */
  assert_int_equal(fbe_field_index(find_field(nested, "f1")), 1);
  assert_int_equal(fbe_field_index(find_field(nested, "f100")), 45);
  assert_int_equal(fbe_field_index(find_field(nested, "f1011")), 122);
  assert_null(fbe_struct_field(nested, "f9999"));
  assert_null(fbe_struct_field(nested, ""));
  assert_null(fbe_struct_field_at(nested, 123));
  fbe_schema_release(test);

  fbe_schema *protoex = load_reference("protoex");
  const fbe_struct *balance = find_struct(protoex, "Balance");
  const fbe_struct *base = find_struct(protoex, "proto.Balance");
  assert_ptr_equal(fbe_struct_base(balance), base);
  assert_int_equal(fbe_struct_type_id(balance), 2);
  assert_int_equal(fbe_struct_field_count(balance), 3);
  assert_string_equal(fbe_field_name(fbe_struct_field_at(balance, 0)), "currency");
  assert_string_equal(fbe_field_name(fbe_struct_field_at(balance, 2)), "locked");
  assert_ptr_equal(fbe_struct_field_at(balance, 0)->declared_in, base);
  assert_string_equal(fbe_struct_full_name(balance), "protoex.Balance");
  fbe_schema_release(protoex);
}

/* ---- type nodes ---- */

static void test_field_types(void **state) {
  (void)state;
  fbe_schema *test = load_reference("test");
  const fbe_type *t;

  t = find_field(find_struct(test, "StructSimple"), "f43")->type; /* proto.State */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_FLAGS);
  assert_int_equal(t->wire, FBE_KIND_BYTE);
  assert_ptr_equal(fbe_type_enum(t), fbe_schema_find_enum(test, "proto.State"));

  t = find_field(find_struct(test, "StructSimple"), "f44")->type; /* proto.Account */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_STRUCT);
  assert_ptr_equal(fbe_type_struct(t), find_struct(test, "proto.Account"));
  assert_ptr_equal(find_struct(test, "proto.Account")->self_type->st,
                   find_struct(test, "proto.Account"));

  t = find_field(find_struct(test, "StructOptional"), "f154")->type; /* proto.OrderSide? */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_OPTIONAL);
  assert_int_equal(t->wire, FBE_KIND_OPTIONAL);
  assert_int_equal(fbe_type_kind(fbe_type_element(t)), FBE_KIND_ENUM);
  assert_int_equal(fbe_type_element(t)->wire, FBE_KIND_BYTE);

  t = find_field(find_struct(test, "StructArray"), "f2")->type; /* byte?[2] */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_ARRAY);
  assert_int_equal(fbe_type_array_size(t), 2);
  assert_int_equal(fbe_type_kind(fbe_type_element(t)), FBE_KIND_OPTIONAL);
  assert_int_equal(fbe_type_kind(fbe_type_element(fbe_type_element(t))), FBE_KIND_BYTE);

  t = find_field(find_struct(test, "StructVector"), "f9")->type; /* StructSimple[] */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_VECTOR);
  assert_ptr_equal(fbe_type_struct(fbe_type_element(t)), find_struct(test, "StructSimple"));

  t = find_field(find_struct(test, "StructList"), "f5")->type; /* EnumSimple() */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_LIST);
  assert_int_equal(t->wire, FBE_KIND_VECTOR);
  assert_int_equal(fbe_type_element(t)->wire, FBE_KIND_INT32);

  t = find_field(find_struct(test, "StructSet"), "f3")->type; /* FlagsSimple! */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_SET);
  assert_int_equal(t->wire, FBE_KIND_VECTOR);
  assert_int_equal(fbe_type_kind(fbe_type_element(t)), FBE_KIND_FLAGS);

  t = find_field(find_struct(test, "StructMap"), "f2")->type; /* byte?<int32> */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_MAP);
  assert_int_equal(t->wire, FBE_KIND_MAP);
  assert_int_equal(fbe_type_kind(fbe_type_key(t)), FBE_KIND_INT32);
  assert_int_equal(fbe_type_kind(fbe_type_element(t)), FBE_KIND_OPTIONAL);

  t = find_field(find_struct(test, "StructHashEx"), "f2")->type; /* StructNested?{StructSimple} */
  assert_int_equal(fbe_type_kind(t), FBE_KIND_HASH);
  assert_int_equal(t->wire, FBE_KIND_MAP);
  assert_ptr_equal(fbe_type_struct(fbe_type_key(t)), find_struct(test, "StructSimple"));
  assert_ptr_equal(fbe_type_struct(fbe_type_element(fbe_type_element(t))),
                   find_struct(test, "StructNested"));

  t = find_field(find_struct(test, "StructBytes"), "f1")->type;
  assert_int_equal(fbe_type_kind(t), FBE_KIND_BYTES);
  assert_null(fbe_type_element(t));
  assert_null(fbe_type_key(t));
  fbe_schema_release(test);
}

/* ---- defaults: SCHEMA.md 7 ---- */

static void assert_int_default(const fbe_struct *st, const char *field, uint64_t value) {
  const fbe_field *f = find_field(st, field);
  if (f->def.kind != FBE_DEF_INT || f->def.u != value) print_error("default of %s\n", field);
  assert_int_equal(f->def.kind, FBE_DEF_INT);
  assert_int_equal(f->def.u, value);
}

static void test_defaults(void **state) {
  (void)state;
  fbe_schema *test = load_reference("test");
  const fbe_struct *simple = find_struct(test, "StructSimple");
  assert_int_equal(find_field(simple, "f1")->def.kind, FBE_DEF_NONE);
  assert_int_equal(find_field(simple, "f2")->def.kind, FBE_DEF_BOOL);
  assert_int_equal(find_field(simple, "f2")->def.u, 1);
  assert_int_default(simple, "f4", 255);     /* byte = max */
  assert_int_default(simple, "f6", '!');     /* char = '!' */
  assert_int_default(simple, "f8", 0x444);   /* wchar = 0x0444 */
  assert_int_default(simple, "f10", 127);    /* int8 = max */
  assert_int_default(simple, "f11", 0);      /* uint8 = min */
  assert_int_default(simple, "f14", 32767);
  assert_int_default(simple, "f18", INT32_MAX);
  assert_int_default(simple, "f20", UINT32_MAX);
  assert_int_default(simple, "f22", INT64_MAX);
  assert_int_default(simple, "f24", UINT64_MAX);
  assert_int_default(simple, "f34", 0);      /* timestamp = epoch */

  const fbe_field *f26 = find_field(simple, "f26"); /* float = 123.456 */
  assert_int_equal(f26->def.kind, FBE_DEF_FLOAT);
  float f = (float)f26->def.d;
  uint32_t bits;
  memcpy(&bits, &f, 4);
  assert_int_equal(bits, 0x42F6E979);
  assert_true(f26->def.d == (double)(float)123.456);  /* the cast rounds: FLT_EVAL_METHOD may be 1 or 2 */
  const fbe_field *f28 = find_field(simple, "f28"); /* double = -123.456e+123 */
  assert_int_equal(f28->def.kind, FBE_DEF_FLOAT);
  assert_true(f28->def.d == (double)-123.456e+123); /* FLT_EVAL_METHOD 2 */

  const fbe_field *f30 = find_field(simple, "f30"); /* decimal = 123456.123456 (FORMAT.md 3.2) */
  static const uint8_t decimal_bytes[16] = {0x40, 0xf2, 0x8e, 0xbe, 0x1c, 0, 0, 0,
                                            0,    0,    0,    0,    0,    0, 6, 0};
  assert_int_equal(f30->def.kind, FBE_DEF_DECIMAL);
  assert_memory_equal(f30->def.bytes, decimal_bytes, 16);

  const fbe_field *f32 = find_field(simple, "f32");
  assert_int_equal(f32->def.kind, FBE_DEF_STRING);
  assert_int_equal(f32->def.len, 15);
  assert_string_equal(f32->def.str, "Initial string!");

  assert_int_equal(find_field(simple, "f35")->def.kind, FBE_DEF_UTC);
  assert_int_equal(find_field(simple, "f37")->def.kind, FBE_DEF_UUID1);
  const fbe_field *f38 = find_field(simple, "f38");
  static const uint8_t uuid_bytes[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
                                         0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0x00, 0x00};
  assert_int_equal(f38->def.kind, FBE_DEF_UUID);
  assert_memory_equal(f38->def.bytes, uuid_bytes, 16);

  const fbe_struct *optional = find_struct(test, "StructOptional");
  assert_int_equal(find_field(optional, "f100")->def.kind, FBE_DEF_NONE);
  assert_int_equal(find_field(optional, "f101")->def.kind, FBE_DEF_BOOL);
  assert_int_equal(find_field(optional, "f102")->def.kind, FBE_DEF_NULL);
  assert_int_default(optional, "f104", 255);
  assert_int_equal(find_field(optional, "f143")->def.kind, FBE_DEF_DECIMAL);
  assert_int_equal(find_field(optional, "f149")->def.kind, FBE_DEF_UTC);
  assert_int_equal(find_field(optional, "f165")->def.kind, FBE_DEF_NULL);

  const fbe_struct *nested = find_struct(test, "StructNested");
  assert_int_default(nested, "f1002", 50);   /* EnumTyped.ENUM_VALUE_2 */
  assert_int_default(nested, "f1006", 0x2A); /* FLAG_VALUE_2 | FLAG_VALUE_4 | FLAG_VALUE_6 */
  assert_int_equal(find_field(nested, "f1007")->def.kind, FBE_DEF_NULL);
  fbe_schema_release(test);

  fbe_schema *proto = load_reference("proto");
  assert_int_default(find_struct(proto, "Account"), "state", 11); /* initialized | bad */
  assert_int_equal(find_field(find_struct(proto, "Order"), "price")->def.kind, FBE_DEF_FLOAT);
  fbe_schema_release(proto);

  fbe_schema *protoex = load_reference("protoex");
  assert_int_default(find_struct(protoex, "Account"), "state", 0x2B); /* initialized|bad|sad */
  assert_true(find_field(find_struct(protoex, "Order"), "sl")->def.d == -10.0);
  fbe_schema_release(protoex);

  fbe_schema *enums = load_reference("enums");
  const fbe_struct *all = find_struct(enums, "Enums");
  assert_int_default(all, "int8b1", (uint64_t)-128);
  assert_int_default(all, "uint64b4", UINT64_MAX);
  assert_int_default(all, "wchar2", 0x445);
  fbe_schema_release(enums);
}

/* Constant defaults of optional fields whose element is 16 bytes in memory (string,
 * decimal, uuid): the default's storage must be sized for the element. A new value
 * shows the defaults, and the standard model writes them. */
static void test_optional_defaults(void **state) {
  (void)state;
  fbe_schema *schema = load_text(
      "package optdef\n"
      "struct S {\n"
      "  string? a = \"abc\"; string? b = \"defgh\";\n"
      "  decimal? c = 1.5; decimal? d = -7922816251426433759354395033.5;\n"
      "  uuid? e = \"123e4567-e89b-12d3-a456-426655440000\"; uuid? f = uuid0;\n"
      "  int32? g = -7; double? h = 0.25; bool? i = true;\n"
      "}\n");
  const fbe_struct *st = find_struct(schema, "optdef.S");
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  fbe_msg *m = fbe_msg_new(arena, st);
  assert_non_null(m);
  fbe_buffer b;
  fbe_buffer_init(&b);
  assert_int_equal(fbe_msg_to_json(m, 0, &b, NULL), FBE_OK);
  static const char want[] =
      "{\"a\":\"abc\",\"b\":\"defgh\",\"c\":\"1.5\","
      "\"d\":\"-7922816251426433759354395033.5\","
      "\"e\":\"123e4567-e89b-12d3-a456-426655440000\","
      "\"f\":\"00000000-0000-0000-0000-000000000000\",\"g\":-7,\"h\":0.25,\"i\":true}";
  assert_int_equal(b.size, strlen(want));
  assert_memory_equal(b.data, want, b.size);
  /* the standard model: 1.5 is magnitude 15, scale 1 (FORMAT.md 3.2) */
  fbe_buffer_reset(&b);
  assert_int_equal(fbe_encode(m, FBE_MODEL_STANDARD, &b, NULL), FBE_OK);
  static const uint8_t one_and_a_half[16] = {15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};
  int found = 0;
  for (size_t at = 0; at + 16 <= b.size; at++) found |= !memcmp(b.data + at, one_and_a_half, 16);
  assert_true(found);
  fbe_buffer_free(&b);
  fbe_arena_free(arena);
  fbe_schema_release(schema);
}

/* ---- packages, loading paths and lookups ---- */

static void test_packages(void **state) {
  (void)state;
  fbe_schema *test = load_reference("test");
  const fbe_package *root = fbe_schema_root(test);
  assert_string_equal(fbe_package_name(root), "test");
  assert_string_equal(root->domain, "com.chronoxor");
  assert_int_equal(root->offset, 100);
  assert_int_equal(root->version_major, 123);
  assert_int_equal(root->version_minor, 456);
  assert_int_equal(root->nimports, 1);
  assert_string_equal(root->imports[0]->name, "proto");
  /* dependency order: imports first, root last */
  assert_int_equal(test->npackages, 2);
  assert_string_equal(test->packages[0]->name, "proto");
  assert_ptr_equal(test->packages[1], root);
  assert_int_equal(fbe_package_struct_count(root), 12);
  assert_int_equal(fbe_package_enum_count(root), 6);
  assert_string_equal(fbe_struct_name(fbe_package_struct_at(root, 0)), "StructSimple");
  assert_string_equal(fbe_enum_name(fbe_package_enum_at(root, 3)), "FlagsSimple");
  assert_null(fbe_package_struct_at(root, 12));
  assert_null(fbe_package_enum_at(root, 6));
  /* lookups: root package by default, any package qualified */
  assert_ptr_equal(fbe_schema_find_struct(test, "StructEmpty"),
                   fbe_schema_find_struct(test, "test.StructEmpty"));
  assert_non_null(fbe_schema_find_struct(test, "proto.Order"));
  assert_null(fbe_schema_find_struct(test, "Order"));
  assert_null(fbe_schema_find_struct(test, "nosuch.Order"));
  assert_null(fbe_schema_find_struct(test, "EnumSimple"));
  assert_non_null(fbe_schema_find_enum(test, "EnumSimple"));
  assert_null(fbe_schema_find_enum(test, "StructSimple"));
  assert_true(fbe_struct_is_message(fbe_schema_find_struct(test, "proto.OrderMessage")));
  assert_false(fbe_struct_is_message(fbe_schema_find_struct(test, "proto.Order")));
  /* reference counting */
  assert_ptr_equal(fbe_schema_retain(test), test);
  fbe_schema_release(test);
  assert_string_equal(fbe_package_name(fbe_schema_root(test)), "test");
  fbe_schema_release(test);
  fbe_schema_release(NULL);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char text[65536];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  return text;
}

static void test_load_string_and_package(void **state) {
  (void)state;
  const char *text = read_text(FBE_SCHEMAS_DIR "/test.fbe");
  /* imports are found in the directory of the load name... */
  fbe_diagnostics diags;
  fbe_schema *schema =
      fbe_schema_load_string(text, strlen(text), FBE_SCHEMAS_DIR "/test.fbe", NULL, &diags);
  assert_int_equal(diags.count, 0);
  assert_non_null(schema);
  assert_null(diags.items);
  assert_int_equal(fbe_struct_type_id(find_struct(schema, "StructHash")), 141);
  fbe_schema_release(schema);
  /* ...or through the include directories */
  schema = fbe_schema_load_string(text, strlen(text), "nowhere/test.fbe", &schema_options, &diags);
  assert_int_equal(diags.count, 0);
  assert_non_null(schema);
  fbe_diagnostics_free(&diags);
  fbe_schema_release(schema);
  /* without either, the import is missing */
  schema = fbe_schema_load_string(text, strlen(text), "nowhere/test.fbe", NULL, &diags);
  assert_null(schema);
  assert_int_equal(diags.count, 1);
  char line[256];
  fbe_diagnostic_format(&diags.items[0], line, sizeof line);
  assert_string_equal(line, "nowhere/test.fbe:15:8: Cannot find proto.fbe for import proto");
  fbe_diagnostics_free(&diags);
  assert_int_equal(diags.count, 0);
  assert_null(diags.items);

  schema = fbe_schema_load_package("protoex", &schema_options, NULL);
  assert_non_null(schema);
  assert_string_equal(fbe_package_name(fbe_schema_root(schema)), "protoex");
  fbe_schema_release(schema);

  /* diags may be NULL; a schema of only a package line is valid */
  schema = fbe_schema_load_string("package lone", 12, NULL, NULL, NULL);
  assert_non_null(schema);
  assert_int_equal(fbe_package_struct_count(fbe_schema_root(schema)), 0);
  fbe_schema_release(schema);
}

/* ---- what the reference schemas never use ---- */

static const char extras[] =
    "/* a comment with no star inside */\n"
    "package extras offset 5\n"
    "import proto\n"
    "[hidden] enum Color : byte { [deprecated] red; green = 5; blue; }\n"
    "[deprecated] flags Perm : uint16 { none = 0; read = 1; write = 2; all = read | write; }\n"
    "struct Request {\n"
    "  uuid [id] = uuid4;\n"
    "  [hidden] int32~ limit = 10;\n"
    "  [deprecated] string? note = null;\n"
    "  Color color = extras.Color.green;\n"
    "  Perm perm = Perm.all;\n"
    "  proto.State state = proto.State.good | proto.State.broken;\n"
    "  timestamp at = 1543145597933463000;\n"
    "  wchar w = '\\u0444';\n"
    "  decimal d = -0.000001;\n"
    "  uuid nil = uuid0;\n"
    "  int64 lowest = -9223372036854775808;\n"
    "  uint64 highest = 0xFFFFFFFFFFFFFFFF;\n"
    "  int8 negative_hex = -0x80;\n"
    "  double whole = 7;\n"
    "  float half = .5;\n"
    "}\n"
    "[hidden] message Reply { uuid [id] = uuid1; }\n"
    "message Rejected { uuid [id]; }\n"
    "message GlobalReject { uuid [id]; }\n"
    "[request] [response(Reply)] [reject(*GlobalReject, extras.Rejected)]\n"
    "message Ask : Request { bool~ flag; }\n"
    "[request] message Ping(+20) { }\n"
    "struct Linked { int32 value; Linked? next; Linked[] children; Linked{string} byName; }\n";

static void test_extra_constructs(void **state) {
  (void)state;
  fbe_schema *schema = load_text(extras);
  const fbe_enum *color = fbe_schema_find_enum(schema, "Color");
  assert_true(color->hidden);
  assert_false(color->deprecated);
  assert_true(color->values[0].deprecated);
  assert_int_equal(fbe_enum_value_at(color, 2), 6);
  assert_true(fbe_schema_find_enum(schema, "Perm")->deprecated);

  const fbe_struct *request = find_struct(schema, "Request");
  assert_int_equal(fbe_struct_type_id(request), 6); /* first automatic id: 1 + offset 5 */
  const fbe_field *id = find_field(request, "id");
  assert_int_equal(fbe_field_index(id), 0);
  assert_true(id->is_id);
  assert_true(fbe_field_is_key(id));
  assert_int_equal(id->def.kind, FBE_DEF_UUID4);
  /* int32~ limit = 10  ==  int32? limit = 10; bool limitReset; */
  const fbe_field *limit = find_field(request, "limit");
  const fbe_field *reset = find_field(request, "limitReset");
  assert_int_equal(fbe_field_index(limit), 1);
  assert_int_equal(fbe_field_index(reset), 2);
  assert_int_equal(fbe_type_kind(limit->type), FBE_KIND_OPTIONAL);
  assert_int_equal(fbe_type_kind(fbe_type_element(limit->type)), FBE_KIND_INT32);
  assert_int_equal(limit->def.kind, FBE_DEF_INT);
  assert_int_equal(limit->def.u, 10);
  assert_true(limit->hidden);
  assert_int_equal(fbe_type_kind(reset->type), FBE_KIND_BOOL);
  assert_int_equal(reset->def.kind, FBE_DEF_NONE);
  assert_false(fbe_field_is_key(reset));
  const fbe_field *note = find_field(request, "note");
  assert_true(note->deprecated);
  assert_int_equal(note->def.kind, FBE_DEF_NULL);
  assert_int_default(request, "color", 5);
  assert_int_default(request, "perm", 3);
  assert_int_default(request, "state", 14);
  assert_int_default(request, "at", 1543145597933463000ULL);
  assert_int_default(request, "w", 0x444);
  static const uint8_t micro[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0x80};
  assert_memory_equal(find_field(request, "d")->def.bytes, micro, 16);
  const fbe_field *nil = find_field(request, "nil");
  static const uint8_t zero[16] = {0};
  assert_int_equal(nil->def.kind, FBE_DEF_UUID);
  assert_memory_equal(nil->def.bytes, zero, 16);
  assert_int_default(request, "lowest", (uint64_t)INT64_MIN);
  assert_int_default(request, "highest", UINT64_MAX);
  assert_int_default(request, "negative_hex", (uint64_t)-128);
  assert_true(find_field(request, "whole")->def.d == 7.0);
  assert_true(find_field(request, "half")->def.d == 0.5);

  const fbe_struct *reply = find_struct(schema, "Reply");
  assert_true(reply->hidden);
  assert_int_equal(find_field(reply, "id")->def.kind, FBE_DEF_UUID1);

  const fbe_struct *ask = find_struct(schema, "Ask");
  assert_true(ask->is_request);
  assert_ptr_equal(ask->response, reply);
  assert_int_equal(ask->nrejects, 2);
  assert_true(ask->reject_global);
  assert_ptr_equal(ask->rejects[0], find_struct(schema, "GlobalReject"));
  assert_ptr_equal(ask->rejects[1], find_struct(schema, "Rejected"));
  assert_int_equal(fbe_struct_field_count(ask), fbe_struct_field_count(request) + 2);
  assert_string_equal(fbe_field_name(fbe_struct_field_at(ask, ask->nfields - 1)), "flagReset");

  const fbe_struct *ping = find_struct(schema, "Ping");
  assert_true(ping->is_request);
  assert_null(ping->response);
  assert_int_equal(ping->nrejects, 0);
  assert_false(ping->reject_global);
  assert_int_equal(fbe_struct_type_id(ping), 25);
  assert_false(find_struct(schema, "Rejected")->is_request);

  /* recursion through optionals and collections is allowed */
  const fbe_struct *linked = find_struct(schema, "Linked");
  assert_int_equal(fbe_struct_type_id(linked), 26); /* counter continues after (+20) */
  assert_ptr_equal(fbe_type_struct(fbe_type_element(find_field(linked, "next")->type)), linked);
  fbe_schema_release(schema);
}

static void test_formatting(void **state) {
  (void)state;
  assert_string_equal(fbe_kind_name(FBE_KIND_BOOL), "bool");
  assert_string_equal(fbe_kind_name(FBE_KIND_TIMESTAMP), "timestamp");
  assert_string_equal(fbe_kind_name(FBE_KIND_HASH), "hash");
  assert_string_equal(fbe_kind_name(FBE_KIND_COUNT_), "unknown");
  fbe_diagnostic error = {FBE_SEVERITY_ERROR, "a.fbe", 3, 7, "Unknown type X"};
  fbe_diagnostic warning = {FBE_SEVERITY_WARNING, "a.fbe", 1, 2, "careful"};
  fbe_diagnostic whole = {FBE_SEVERITY_ERROR, "b.fbe", 0, 0, "Cannot read file"};
  char out[64];
  fbe_diagnostic_format(&error, out, sizeof out);
  assert_string_equal(out, "a.fbe:3:7: Unknown type X");
  fbe_diagnostic_format(&warning, out, sizeof out);
  assert_string_equal(out, "a.fbe:1:2: warning: careful");
  fbe_diagnostic_format(&whole, out, sizeof out);
  assert_string_equal(out, "b.fbe: Cannot read file");
  fbe_diagnostic_format(&error, out, 6);
  assert_string_equal(out, "a.fbe");
  fbe_diagnostic nowhere = {FBE_SEVERITY_ERROR, "", 0, 0, "Out of memory"};
  fbe_diagnostic_format(&nowhere, out, sizeof out);
  assert_string_equal(out, "Out of memory");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_type_ids),
      cmocka_unit_test(test_enum_values),
      cmocka_unit_test(test_flags_values),
      cmocka_unit_test(test_inheritance),
      cmocka_unit_test(test_field_types),
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_optional_defaults),
      cmocka_unit_test(test_packages),
      cmocka_unit_test(test_load_string_and_package),
      cmocka_unit_test(test_extra_constructs),
      cmocka_unit_test(test_formatting),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

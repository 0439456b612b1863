/* The text form of values (docs/TEXT.md): every rule with its exact text, the
 * losslessness property over the conformance vectors (the text survives an encode /
 * decode round trip in both models; values that differ print differently), and the
 * bounds (output budget, depth, brackets). */
#include <math.h>
#include "fbe_test.h"
#include "fbe/internal/cost.h"
#include "fbe/internal/value.h"

/* Small schema for the rules the shipped schemas do not exercise. */
static const char TXT_SCHEMA[] =
    "package txt\n"
    "enum Color : byte { red; green; blue = 5; }\n"
    "enum Signed : int8 { minus = -1; zero; }\n"
    "[hidden] enum Secret { a; b; }\n"
    "enum Partly { shown; [hidden] masked; }\n"
    "flags Perm : byte { none = 0; read = 1; write = 2; exec = 4; rw = read | write; }\n"
    "flags Bits : uint8 { one = 1; two = 2; }\n"
    "flags Small : int8 { lo = 1; top = -128; }\n"
    "flags Masked { a = 1; [hidden] b = 2; c = 4; }\n"
    "[hidden] flags HiddenFlags { x = 1; }\n"
    "struct Inner { int32 x; }\n"
    "[hidden] struct Private { int32 pin; }\n"
    "struct Base { int32 id; }\n"
    "struct Derived : Base { string name; Inner inner; }\n"
    "struct Scalars { bool t; bool f; byte y; int8 i8; uint8 u8; int16 i16; uint16 u16;\n"
    "  int32 i32; uint32 u32; int64 i64; uint64 u64; timestamp ts; }\n"
    "struct Chars { char c; wchar w; }\n"
    "struct Floats { float f; double d; }\n"
    "struct Texts { decimal m; uuid u; string s; bytes b; }\n"
    "struct Enums { Color color; Signed sig; Secret secret; Partly partly; Perm perm; Bits bits;\n"
    "  Small small; Masked masked; HiddenFlags hf; }\n"
    "struct Holder { [hidden] string password; Private priv; Private? maybe; Private[] many;\n"
    "  int32 visible; }\n"
    "struct Collections { int32? none; int32? some; int32[3] arr; int32[] vec; string() lst;\n"
    "  int32! st; string<int32> mp; int32{string} hs; Inner?[] opt; }\n"
    "struct Node { int32 v; Node? next; }\n";

typedef struct fixture {
  fbe_schema *proto, *protoex, *test, *enums, *txt;
  fbe_arena *arena;
} fixture;

static int group_setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  f->proto = t_load("proto.fbe");
  f->protoex = t_load("protoex.fbe");
  f->test = t_load("test.fbe");
  f->enums = t_load("enums.fbe");
  f->txt = t_load_text(TXT_SCHEMA, "txt.fbe");
  *state = f;
  return 0;
}

static int group_teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->proto);
  fbe_schema_release(f->protoex);
  fbe_schema_release(f->test);
  fbe_schema_release(f->enums);
  fbe_schema_release(f->txt);
  free(f);
  return 0;
}

static int test_setup(void **state) {
  fixture *f = *state;
  f->arena = fbe_arena_new();
  return f->arena ? 0 : -1;
}

static int test_teardown(void **state) {
  fixture *f = *state;
  fbe_arena_free(f->arena);
  f->arena = NULL;
  return 0;
}

/* "proto.Account", "txt.Chars", ...: the struct of the fixture's schema of that package. */
static const fbe_struct *type_of(const fixture *f, const char *name) {
  const fbe_schema *s = !strncmp(name, "protoex.", 8) ? f->protoex
                        : !strncmp(name, "proto.", 6) ? f->proto
                        : !strncmp(name, "enums.", 6) ? f->enums
                        : !strncmp(name, "txt.", 4)   ? f->txt
                                                      : f->test;
  return t_struct(s, name);
}

static fbe_msg *from_json(fixture *f, const char *type, const char *json) {
  fbe_msg *m = NULL;
  fbe_error err;
  if (fbe_msg_from_json(type_of(f, type), json, strlen(json), f->arena, &m, &err))
    fail_msg("from_json(%s) failed: %s at '%s'", type, err.message, err.path);
  return m;
}

/* The text of a value as a malloc'd NUL-terminated string (free() it). */
static char *text_of_ref(fbe_ref r) {
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  fbe_status s = fbe_text_write(r, NULL, &b, &err);
  if (s) fail_msg("fbe_text_write failed: %s: %s at '%s'", fbe_status_name(s), err.message, err.path);
  return t_buffer_take(&b);
}

static char *text_of(const fbe_msg *m) {
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  fbe_status s = fbe_msg_to_text(m, &b, &err);
  if (s) fail_msg("fbe_msg_to_text failed: %s: %s at '%s'", fbe_status_name(s), err.message, err.path);
  return t_buffer_take(&b);
}

static void assert_text(const fbe_msg *m, const char *expected) {
  char *got = text_of(m);
  if (strcmp(got, expected)) {
    print_message("expected: %s\ngot:      %s\n", expected, got);
    free(got);
    fail_msg("text differs");
  }
  free(got);
}

/* JSON in, the exact text out, and the same text after a round trip in both models. */
static void assert_json_text(fixture *f, const char *type, const char *json, const char *expected);

/* Encodes m in `model`, decodes it back (verified) and returns the copy. */
static fbe_msg *round_trip(const fbe_msg *m, fbe_model model, fbe_arena *arena) {
  fbe_buffer b = t_encode(m, model);
  fbe_msg *back = t_decode(fbe_msg_type(m), model, b.data, b.size, arena);
  fbe_buffer_free(&b);
  return back;
}

static void assert_round_trips(const fbe_msg *m, fbe_arena *arena) {
  char *text = text_of(m);
  for (int model = 0; model < 2; model++) {
    char *again = text_of(round_trip(m, (fbe_model)model, arena));
    if (strcmp(text, again))
      fail_msg("%s model round trip changes the text:\n  %s\n  %s", model ? "final" : "standard", text,
               again);
    free(again);
  }
  free(text);
}

static void assert_json_text(fixture *f, const char *type, const char *json, const char *expected) {
  fbe_msg *m = from_json(f, type, json);
  assert_text(m, expected);
  assert_round_trips(m, f->arena);
}

/* ---------------------------------------------------------------- rule 2: structs */

static void test_account_readme(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *bytes = t_hex(T_ACCOUNT_STD, &n);
  fbe_msg *m = t_decode(type_of(f, "proto.Account"), FBE_MODEL_STANDARD, bytes, n, f->arena);
  free(bytes);
  assert_text(m,
              "Account(id=1,name=\"Test\",state=initialized|calculated|good,"
              "wallet=Balance(currency=\"USD\",amount=1000.0),asset=Balance(currency=\"EUR\",amount=100.0),"
              "orders=[3][Order(id=1,symbol=\"EURUSD\",side=buy,type=market,price=1.23456,volume=1000.0),"
              "Order(id=2,symbol=\"EURUSD\",side=sell,type=limit,price=1.0,volume=100.0),"
              "Order(id=3,symbol=\"EURUSD\",side=buy,type=stop,price=1.5,volume=10.0)])");
  /* the final model of the same value prints the same */
  bytes = t_hex(T_ACCOUNT_FIN, &n);
  fbe_msg *fin = t_decode(type_of(f, "proto.Account"), FBE_MODEL_FINAL, bytes, n, f->arena);
  free(bytes);
  char *a = text_of(m), *b = text_of(fin);
  assert_string_equal(a, b);
  free(a);
  free(b);
  /* one value inside a message: a field, an element */
  fbe_ref r = fbe_msg_ref(m);
  char *wallet = text_of_ref(t_path(r, "wallet"));
  assert_string_equal(wallet, "Balance(currency=\"USD\",amount=1000.0)");
  free(wallet);
  char *order = text_of_ref(t_path(r, "orders[1].side"));
  assert_string_equal(order, "sell");
  free(order);
}

static void test_inheritance_and_empty(void **state) {
  fixture *f = *state;
  /* inherited fields first, the struct's short name */
  assert_json_text(f, "txt.Derived", "{\"id\":1,\"name\":\"n\",\"inner\":{\"x\":2}}",
                   "Derived(id=1,name=\"n\",inner=Inner(x=2))");
  assert_json_text(f, "protoex.Balance", "{\"currency\":\"USD\",\"amount\":1000.0,\"locked\":12.5}",
                   "Balance(currency=\"USD\",amount=1000.0,locked=12.5)");
  assert_text(t_new(f->arena, type_of(f, "test.StructEmpty")), "StructEmpty()");
}

/* ---------------------------------------------------------------- rules 3-9: scalars */

static void test_integers(void **state) {
  fixture *f = *state;
  assert_json_text(f, "txt.Scalars",
                   "{\"t\":true,\"f\":false,\"y\":255,\"i8\":-128,\"u8\":200,\"i16\":-32768,\"u16\":65535,"
                   "\"i32\":-2147483648,\"u32\":4294967295,\"i64\":-9223372036854775808,"
                   "\"u64\":18446744073709551615,\"ts\":1543145597933000000}",
                   "Scalars(t=true,f=false,y=255,i8=-128,u8=200,i16=-32768,u16=65535,i32=-2147483648,"
                   "u32=4294967295,i64=-9223372036854775808,u64=18446744073709551615,"
                   "ts=1543145597933000000)");
}

static void test_chars(void **state) {
  fixture *f = *state;
  assert_json_text(f, "txt.Chars", "{\"c\":97,\"w\":1092}", "Chars(c='a',w='ф')");
  assert_json_text(f, "txt.Chars", "{\"c\":39,\"w\":34}", "Chars(c='\\'',w='\"')");
  assert_json_text(f, "txt.Chars", "{\"c\":92,\"w\":128512}", "Chars(c='\\\\',w='😀')");
  assert_json_text(f, "txt.Chars", "{\"c\":10,\"w\":13}", "Chars(c='\\n',w='\\r')");
  assert_json_text(f, "txt.Chars", "{\"c\":9,\"w\":0}", "Chars(c='\\t',w='\\u0000')");
  assert_json_text(f, "txt.Chars", "{\"c\":7,\"w\":127}", "Chars(c='\\u0007',w='\\u007f')");
  /* char is a byte read as U+0000-U+00FF; C1 controls escaped, the rest printed */
  assert_json_text(f, "txt.Chars", "{\"c\":150,\"w\":159}", "Chars(c='\\u0096',w='\\u009f')");
  assert_json_text(f, "txt.Chars", "{\"c\":233,\"w\":160}", "Chars(c='é',w='\xc2\xa0')");
  /* a wchar is any 32-bit number: surrogates and numbers above U+10FFFF escaped */
  assert_json_text(f, "txt.Chars", "{\"c\":255,\"w\":55296}", "Chars(c='ÿ',w='\\ud800')");
  assert_json_text(f, "txt.Chars", "{\"c\":32,\"w\":1114112}", "Chars(c=' ',w='\\U00110000')");
  assert_json_text(f, "txt.Chars", "{\"c\":0,\"w\":4294967295}", "Chars(c='\\u0000',w='\\Uffffffff')");
  assert_json_text(f, "txt.Chars", "{\"c\":126,\"w\":1114111}", "Chars(c='~',w='\xf4\x8f\xbf\xbf')");
}

static void set_bits32(fbe_ref r, uint32_t bits) { memcpy(r.slot, &bits, 4); }
static void set_bits64(fbe_ref r, uint64_t bits) { memcpy(r.slot, &bits, 8); }

static void test_floats(void **state) {
  fixture *f = *state;
  /* the JSON writer's shortest round-trip form; a float as the double it is */
  assert_json_text(f, "txt.Floats", "{\"f\":0.1,\"d\":1e300}", "Floats(f=0.10000000149011612,d=1e+300)");
  assert_json_text(f, "txt.Floats", "{\"f\":1000,\"d\":1.23456}", "Floats(f=1000.0,d=1.23456)");
  assert_json_text(f, "txt.Floats", "{\"f\":-0.0,\"d\":5e-324}", "Floats(f=-0.0,d=5e-324)");
  assert_json_text(f, "txt.Floats", "{\"f\":16777216,\"d\":1e16}", "Floats(f=16777216.0,d=1e+16)");
  assert_json_text(f, "txt.Floats", "{\"f\":1e16,\"d\":-1.23456e-125}",
                   "Floats(f=1.0000000272564224e+16,d=-1.23456e-125)");
  /* infinities and NaNs (which JSON has no form for) */
  fbe_msg *m = t_new(f->arena, type_of(f, "txt.Floats"));
  fbe_ref r = fbe_msg_ref(m);
  t_set_dbl(r, "f", INFINITY);
  t_set_dbl(r, "d", -INFINITY);
  assert_text(m, "Floats(f=inf,d=-inf)");
  assert_round_trips(m, f->arena);
  set_bits32(t_path(r, "f"), 0x7fc00000u);
  set_bits64(t_path(r, "d"), 0xfff8000000000000u);
  assert_text(m, "Floats(f=nan,d=-nan)");
  assert_round_trips(m, f->arena);
  set_bits32(t_path(r, "f"), 0xffc00000u);
  set_bits64(t_path(r, "d"), 0x7ff8000000000000u);
  assert_text(m, "Floats(f=-nan,d=nan)");
  /* any other NaN shows its bits: NaNs that differ print differently */
  set_bits32(t_path(r, "f"), 0x7f800001u);
  set_bits64(t_path(r, "d"), 0x7ff8000000000123u);
  assert_text(m, "Floats(f=nan(0x7f800001),d=nan(0x7ff8000000000123))");
  assert_round_trips(m, f->arena);
}

static void test_decimal_uuid_string_bytes(void **state) {
  fixture *f = *state;
  assert_json_text(f, "txt.Texts",
                   "{\"m\":\"-123.4500\",\"u\":\"123E4567-E89B-12D3-A456-426655440000\",\"s\":\"Test\","
                   "\"b\":\"AAEC/w==\"}",
                   "Texts(m=-123.4500,u=\"123e4567-e89b-12d3-a456-426655440000\",s=\"Test\","
                   "b=bytes[4]\"AAEC/w==\")");
  assert_json_text(f, "txt.Texts", "{\"m\":\"0.0000001\",\"b\":\"QQ==\"}",
                   "Texts(m=1E-7,u=\"00000000-0000-0000-0000-000000000000\",s=\"\",b=bytes[1]\"QQ==\")");
  assert_json_text(f, "txt.Texts", "{\"m\":\"79228162514264337593543950335\"}",
                   "Texts(m=79228162514264337593543950335,u=\"00000000-0000-0000-0000-000000000000\","
                   "s=\"\",b=bytes[0]\"\")");
  /* escapes: the quote, backslash, \n \r \t, other controls (C0, DEL, C1) as \u00XX;
   * the rest of UTF-8 as is */
  assert_json_text(f, "txt.Texts",
                   "{\"s\":\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u001f\\u007f\\u0085 'é€😀\"}",
                   "Texts(m=0,u=\"00000000-0000-0000-0000-000000000000\","
                   "s=\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u001f\\u007f\\u0085 'é€😀\",b=bytes[0]\"\")");
}

/* ---------------------------------------------------------------- rules 10-11: enums, flags */

static char *enum_text(const fbe_enum *e, uint64_t v) {
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  if (fbe_text_write_enum(e, v, &b, &err)) fail_msg("fbe_text_write_enum: %s", err.message);
  return t_buffer_take(&b);
}

static void assert_enum_text(const fbe_schema *s, const char *name, uint64_t v, const char *expected) {
  const fbe_enum *e = fbe_schema_find_enum(s, name);
  if (!e) fail_msg("no enum %s", name);
  char *got = enum_text(e, v);
  if (strcmp(got, expected)) {
    print_message("%s %llu: expected %s, got %s\n", name, (unsigned long long)v, expected, got);
    free(got);
    fail_msg("enum text differs");
  }
  free(got);
}

static void test_enums(void **state) {
  fixture *f = *state;
  /* the first declared value with the number (aliases: ENUM_VALUE_1 = 0 = ENUM_VALUE_0) */
  assert_enum_text(f->enums, "enums.EnumByte", 0, "ENUM_VALUE_0");
  assert_enum_text(f->enums, "enums.EnumByte", 254, "ENUM_VALUE_3");
  assert_enum_text(f->enums, "enums.EnumByte", 7, "7"); /* no declared value */
  assert_enum_text(f->enums, "enums.EnumChar", '1', "ENUM_VALUE_1");
  assert_enum_text(f->enums, "enums.EnumChar", 'z', "122");
  assert_enum_text(f->enums, "enums.EnumInt8", (uint64_t)-128, "ENUM_VALUE_1");
  assert_enum_text(f->enums, "enums.EnumInt8", 0x80, "ENUM_VALUE_1"); /* at the base's width */
  assert_enum_text(f->enums, "enums.EnumInt8", (uint64_t)-5, "-5");
  assert_enum_text(f->test, "test.EnumEmpty", 3, "3");
  assert_json_text(f, "txt.Enums", "{\"color\":5,\"sig\":-1,\"partly\":0}",
                   "Enums(color=blue,sig=minus,secret=***,partly=shown,perm=none,bits=0,small=0,masked=0,"
                   "hf=***)");
  assert_json_text(f, "txt.Enums", "{\"color\":9,\"sig\":-128,\"partly\":1}",
                   "Enums(color=9,sig=-128,secret=***,partly=***,perm=none,bits=0,small=0,masked=0,hf=***)");
}

static void test_flags(void **state) {
  fixture *f = *state;
  /* the examples, proto.State */
  assert_enum_text(f->proto, "proto.State", 6, "initialized|calculated|good");
  assert_enum_text(f->proto, "proto.State", 64, "64");
  assert_enum_text(f->proto, "proto.State", 70, "initialized|calculated|good|64");
  assert_enum_text(f->proto, "proto.State", 0, "unknown");
  assert_enum_text(f->proto, "proto.State", 11, "invalid|initialized|broken|bad");
  assert_enum_text(f->proto, "proto.State", 255, "invalid|initialized|calculated|broken|good|bad|240");
  /* aliases print both names, as the reference does */
  assert_enum_text(f->test, "test.FlagsSimple", 4, "FLAG_VALUE_3|FLAG_VALUE_4");
  assert_enum_text(f->test, "test.FlagsSimple", 5, "FLAG_VALUE_1|FLAG_VALUE_3|FLAG_VALUE_4|FLAG_VALUE_5");
  assert_enum_text(f->test, "test.FlagsTyped", 0x8000000000000000u, "9223372036854775808");
  assert_enum_text(f->test, "test.FlagsTyped", 0x2a, "FLAG_VALUE_2|FLAG_VALUE_4|FLAG_VALUE_6|FLAG_VALUE_9");
  assert_enum_text(f->test, "test.FlagsEmpty", 0, "0");
  assert_enum_text(f->test, "test.FlagsEmpty", 9, "9");
  /* no declared zero: 0; bits of a signed base unsigned at its width */
  assert_enum_text(f->txt, "txt.Bits", 0, "0");
  assert_enum_text(f->txt, "txt.Bits", 12, "12");
  assert_enum_text(f->txt, "txt.Bits", 13, "one|12");
  assert_enum_text(f->txt, "txt.Small", (uint64_t)-127, "lo|top");
  assert_enum_text(f->txt, "txt.Small", 0x81, "lo|top");
  assert_enum_text(f->txt, "txt.Small", (uint64_t)-1, "lo|top|126");
  assert_enum_text(f->txt, "txt.Small", 2, "2");
  /* hidden values and types */
  assert_enum_text(f->txt, "txt.Masked", 7, "a|***|c");
  assert_enum_text(f->txt, "txt.Masked", 2, "***");
  assert_enum_text(f->txt, "txt.Masked", 10, "***|8");
  assert_enum_text(f->txt, "txt.HiddenFlags", 1, "***");
  assert_enum_text(f->txt, "txt.Secret", 1, "***");
  assert_json_text(f, "txt.Enums", "{\"perm\":7,\"bits\":3,\"small\":-127,\"masked\":5,\"hf\":1}",
                   "Enums(color=red,sig=zero,secret=***,partly=shown,perm=read|write|exec|rw,bits=one|two,"
                   "small=lo|top,masked=a|c,hf=***)");
}

/* ---------------------------------------------------------------- rules 12-14: containers */

static void test_optionals_and_collections(void **state) {
  fixture *f = *state;
  assert_json_text(f, "txt.Collections",
                   "{\"none\":null,\"some\":0,\"arr\":[1,2,3],\"vec\":[4,5],\"lst\":[\"a\",\"b\"],\"st\":[3,1],"
                   "\"mp\":{\"2\":\"two\",\"1\":\"one\"},\"hs\":{\"k\":1,\"a->b\":2},\"opt\":[null,{\"x\":1}]}",
                   "Collections(none=null,some=0,arr=[3][1,2,3],vec=[2][4,5],lst=[2][\"a\",\"b\"],st=[2]{3,1},"
                   "mp=[2]<{2->\"two\"},{1->\"one\"}>,hs=[2]<{\"k\"->1},{\"a->b\"->2}>,"
                   "opt=[2][null,Inner(x=1)])");
  assert_json_text(f, "txt.Collections", "{}",
                   "Collections(none=null,some=null,arr=[3][0,0,0],vec=[0][],lst=[0][],st=[0]{},mp=[0]<>,"
                   "hs=[0]<>,opt=[0][])");
  /* the reference's worked examples (FORMAT.md 11.3) */
  assert_text(t_build_map(f->arena, type_of(f, "test.StructMap")),
              "StructMap(f1=[2]<{1->17},{2->34}>,f2=[2]<{3->null},{4->68}>,f3=[1]<{5->bytes[2]\"QUI=\"}>,"
              "f4=[0]<>,f5=[0]<>,f6=[0]<>,f7=[0]<>,f8=[0]<>,f9=[0]<>,f10=[0]<>)");
  assert_text(t_build_hash(f->arena, type_of(f, "test.StructHash")),
              "StructHash(f1=[1]<{\"k\"->17}>,f2=[0]<>,f3=[1]<{\"b\"->bytes[1]\"Wg==\"}>,f4=[0]<>,f5=[0]<>,"
              "f6=[0]<>,f7=[0]<>,f8=[0]<>,f9=[0]<>,f10=[0]<>)");
  /* a map key and value on their own */
  fbe_msg *m = from_json(f, "txt.Collections", "{\"mp\":{\"7\":\"seven\"}}");
  fbe_ref mp = t_path(fbe_msg_ref(m), "mp");
  char *key = text_of_ref(fbe_ref_key_at(mp, 0)), *value = text_of_ref(fbe_ref_value_at(mp, 0));
  assert_string_equal(key, "7");
  assert_string_equal(value, "\"seven\"");
  free(key);
  free(value);
}

/* ---------------------------------------------------------------- rule 15: [hidden] */

static void test_hidden(void **state) {
  fixture *f = *state;
  assert_json_text(f, "txt.Holder",
                   "{\"password\":\"x\",\"priv\":{\"pin\":1},\"maybe\":null,\"many\":[{\"pin\":1},{\"pin\":2}],"
                   "\"visible\":3}",
                   "Holder(password=***,priv=***,maybe=null,many=[2][***,***],visible=3)");
  assert_json_text(f, "txt.Holder", "{\"maybe\":{\"pin\":3}}",
                   "Holder(password=***,priv=***,maybe=***,many=[0][],visible=0)");
  /* a hidden struct printed on its own is hidden too */
  assert_text(from_json(f, "txt.Private", "{\"pin\":1234}"), "***");
}

/* ---------------------------------------------------------------- rule 16: lossless */

/* Reads string member `name` of a one-line JSON record into out. */
static int string_member(const char *line, const char *name, char *out, size_t cap) {
  char key[64];
  snprintf(key, sizeof key, "\"%s\":\"", name);
  const char *p = strstr(line, key);
  if (!p) return 0;
  p += strlen(key);
  size_t n = 0;
  while (p[n] && p[n] != '"') n++;
  if (n + 1 > cap) return 0;
  memcpy(out, p, n);
  out[n] = 0;
  return 1;
}

/* Lowercase hex without spaces (a record's "hex") as a malloc'd block of *n bytes. */
static uint8_t *hex_bytes(const char *hex, size_t *n) {
  size_t len = strlen(hex);
  uint8_t *out = malloc(len / 2 + 1);
  assert_non_null(out);
  for (size_t i = 0; i + 1 < len; i += 2) {
    unsigned v;
    if (sscanf(hex + i, "%2x", &v) != 1) fail_msg("bad hex at %zu", i);
    out[i / 2] = (uint8_t)v;
  }
  *n = len / 2;
  return out;
}

typedef struct decoded {
  const fbe_struct *type;
  fbe_msg *msg;
  char *text;
  char id[128];
} decoded;

/* Every standard and final vector: decoded, printed, round-tripped through both models
 * and printed again (the same text); then every pair of values of one type that differ
 * (fbe_msg_equal) prints differently. */
static void test_vectors_lossless(void **state) {
  fixture *f = *state;
  FILE *in = fopen(FBE_TESTS_DIR "/conformance/vectors.jsonl", "rb");
  assert_non_null(in);
  static char line[1 << 20];
  static char hex[1 << 20];
  decoded all[256];
  size_t count = 0, pairs = 0;
  while (fgets(line, sizeof line, in)) {
    char schema[32], type[64], format[32], name[128];
    if (!string_member(line, "schema", schema, sizeof schema) || !string_member(line, "type", type, sizeof type) ||
        !string_member(line, "format", format, sizeof format) ||
        (strcmp(format, "standard") && strcmp(format, "final")) || !string_member(line, "hex", hex, sizeof hex))
      continue;
    assert_true(count < sizeof all / sizeof all[0]);
    decoded *d = &all[count++];
    string_member(line, "id", d->id, sizeof d->id);
    snprintf(name, sizeof name, "%s.%s", schema, type);
    d->type = type_of(f, name);
    size_t n = 0;
    uint8_t *bytes = hex_bytes(hex, &n);
    fbe_model model = strcmp(format, "final") ? FBE_MODEL_STANDARD : FBE_MODEL_FINAL;
    d->msg = t_decode(d->type, model, bytes, n, f->arena);
    free(bytes);
    d->text = text_of(d->msg);
    assert_round_trips(d->msg, f->arena);
  }
  fclose(in);
  assert_true(count >= 90);
  for (size_t i = 0; i < count; i++)
    for (size_t j = i + 1; j < count; j++) {
      if (all[i].type != all[j].type || fbe_msg_equal(all[i].msg, all[j].msg)) continue;
      pairs++;
      if (!strcmp(all[i].text, all[j].text))
        fail_msg("%s and %s differ but print the same: %s", all[i].id, all[j].id, all[i].text);
    }
  assert_true(pairs >= 50);
  for (size_t i = 0; i < count; i++) free(all[i].text);
}

/* Values one step apart in the places a careless text would merge them. */
static void test_near_values_differ(void **state) {
  fixture *f = *state;
  static const char *const pairs[][3] = {
      {"txt.Floats", "{\"d\":0.0}", "{\"d\":-0.0}"},
      {"txt.Floats", "{\"f\":0.1}", "{\"f\":0.10000000149011612}"}, /* the same float: equal */
      {"txt.Texts", "{\"s\":\"a\\\"\"}", "{\"s\":\"a\\\\\\\"\"}"},
      {"txt.Texts", "{\"s\":\"\\n\"}", "{\"s\":\"\\\\n\"}"},
      {"txt.Texts", "{\"s\":\"\\u0001\"}", "{\"s\":\"\\\\u0001\"}"},
      {"txt.Texts", "{\"b\":\"\"}", "{\"b\":\"AA==\"}"},
      {"txt.Texts", "{\"m\":\"1.5\"}", "{\"m\":\"-1.5\"}"},
      {"txt.Chars", "{\"c\":92}", "{\"c\":39}"},
      {"txt.Enums", "{\"perm\":3}", "{\"perm\":7}"},
      {"txt.Enums", "{\"bits\":4}", "{\"bits\":5}"},
      {"txt.Enums", "{\"color\":1}", "{\"color\":2}"},
      {"txt.Collections", "{\"some\":null}", "{\"some\":0}"},
      {"txt.Collections", "{\"lst\":[\"a,b\"]}", "{\"lst\":[\"a\",\"b\"]}"},
      {"txt.Collections", "{\"hs\":{\"a\":1}}", "{\"hs\":{\"a\\\"->\":1}}"},
      {"txt.Collections", "{\"opt\":[]}", "{\"opt\":[null]}"},
      {"txt.Collections", "{\"vec\":[1,2]}", "{\"vec\":[2,1]}"},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    fbe_msg *a = from_json(f, pairs[i][0], pairs[i][1]), *b = from_json(f, pairs[i][0], pairs[i][2]);
    char *ta = text_of(a), *tb = text_of(b);
    if (fbe_msg_equal(a, b) ? strcmp(ta, tb) != 0 : strcmp(ta, tb) == 0)
      fail_msg("%s vs %s: %s / %s", pairs[i][1], pairs[i][2], ta, tb);
    free(ta);
    free(tb);
  }
}

/* ---------------------------------------------------------------- rule 17: bounds */

static void test_budget(void **state) {
  fixture *f = *state;
  fbe_msg *m = from_json(f, "txt.Derived", "{\"id\":1,\"name\":\"abcdef\"}");
  /* Derived(id=1,name="abcdef",inner=Inner(x=0)) is 44 bytes */
  fbe_limits limits = {0, 0, 44};
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_buffer_append(&b, "kept:", 5);
  fbe_error err;
  assert_int_equal(fbe_msg_to_text_limited(m, &limits, &b, &err), FBE_OK);
  assert_int_equal(b.size, 49);
  limits.max_memory = 43;
  b.size = 5;
  assert_int_equal(fbe_msg_to_text_limited(m, &limits, &b, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "text larger than 43 bytes (max_memory)");
  assert_int_equal(b.size, 5); /* nothing half-written */
  assert_memory_equal(b.data, "kept:", 5);
  fbe_buffer_free(&b);

  /* the default: 32 x the value's cost + 1 MiB, worked out once past the floor. Flags with
   * long names print far more than they cost. */
  static const char wide[] =
      "package wide\n"
      "flags W : uint8 { a0123456789012345678901234567890123456789 = 1;\n"
      "  b0123456789012345678901234567890123456789 = 2; c0123456789012345678901234567890123456789 = 4;\n"
      "  d0123456789012345678901234567890123456789 = 8; e0123456789012345678901234567890123456789 = 16;\n"
      "  f0123456789012345678901234567890123456789 = 32; g0123456789012345678901234567890123456789 = 64;\n"
      "  h0123456789012345678901234567890123456789 = 128; }\n"
      "struct S { W[] all; }\n";
  fbe_schema *s = t_load_text(wide, "wide.fbe");
  fbe_msg *big = t_new(f->arena, t_struct(s, "wide.S"));
  fbe_ref all = t_path(fbe_msg_ref(big), "all");
  for (int i = 0; i < 100000; i++) t_set_uint(t_append(all, ""), "", 255);
  uint64_t budget = fbei_cost_scale(FBE_DEFAULT_OUTPUT_FACTOR, fbei_value_cost(fbe_msg_ref(big).type,
                                                                             fbe_msg_ref(big).slot));
  char expected[128];
  snprintf(expected, sizeof expected, "text larger than %llu bytes (max_memory)", (unsigned long long)budget);
  fbe_buffer_init(&b);
  assert_int_equal(fbe_msg_to_text(big, &b, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, expected);
  assert_int_equal(b.size, 0);
  /* a tenth of it fits */
  fbe_ref_clear(all, NULL);
  for (int i = 0; i < 10000; i++) t_set_uint(t_append(all, ""), "", 255);
  assert_int_equal(fbe_msg_to_text(big, &b, &err), FBE_OK);
  assert_true(b.size > 3000000 && b.size <= budget);
  fbe_buffer_free(&b);
  fbe_schema_release(s);
}

static void test_depth(void **state) {
  fixture *f = *state;
  const fbe_struct *node = type_of(f, "txt.Node");
  fbe_msg *m = t_new(f->arena, node);
  fbe_ref r = fbe_msg_ref(m);
  for (int i = 0; i < 256; i++) r = fbe_ref_emplace(fbe_ref_field(r, "next"));
  char *text = text_of(m); /* 256 levels print */
  assert_int_equal(strlen(text), 257 * strlen("Node(v=0,next=") + strlen("null") + 257);
  free(text);
  fbe_ref_emplace(fbe_ref_field(r, "next")); /* 257 do not */
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  assert_int_equal(fbe_msg_to_text(m, &b, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "nesting deeper than 256 levels (max_depth)");
  assert_int_equal(b.size, 0);
  fbe_limits shallow = {3, 0, 0};
  assert_int_equal(fbe_msg_to_text_limited(m, &shallow, &b, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "nesting deeper than 3 levels (max_depth)");
  assert_string_equal(err.path, "next.next.next.next"); /* the 4th optional */
  /* far deeper values (built by hand) fail the same way, without exhausting the stack */
  for (int i = 0; i < 60000; i++) r = fbe_ref_emplace(fbe_ref_field(r, "next"));
  assert_int_equal(fbe_msg_to_text(m, &b, &err), FBE_ERR_LIMIT);
  assert_int_equal(b.size, 0);
  fbe_buffer_free(&b);
}

/* Plain structs nested through no level at all (the schema allows 1000): the walk stops
 * at the JSON writer's 832 brackets. */
static void test_bracket_nesting(void **state) {
  fixture *f = *state;
  size_t cap = 64 * 1000;
  char *schema = malloc(cap);
  assert_non_null(schema);
  for (int depth = 831; depth <= 833; depth += 2) {
    size_t n = (size_t)snprintf(schema, cap, "package deep\n");
    for (int i = 0; i < depth - 1; i++) n += (size_t)snprintf(schema + n, cap - n, "struct S%d { S%d s; }\n", i, i + 1);
    n += (size_t)snprintf(schema + n, cap - n, "struct S%d { int32 v; }\n", depth - 1);
    fbe_schema *s = t_load_text(schema, "deep.fbe");
    fbe_msg *m = t_new(f->arena, t_struct(s, "deep.S0"));
    fbe_buffer b;
    fbe_buffer_init(&b);
    fbe_error err;
    fbe_status st = fbe_msg_to_text(m, &b, &err);
    if (depth == 831) {
      assert_int_equal(st, FBE_OK);
    } else {
      assert_int_equal(st, FBE_ERR_LIMIT);
      assert_string_equal(err.message, "value nests deeper than 832 brackets");
      assert_int_equal(b.size, 0);
    }
    fbe_buffer_free(&b);
    fbe_schema_release(s);
  }
  free(schema);
}

/* ---------------------------------------------------------------- rule 18: errors */

/* What only a value built by hand can hold: refused as the JSON writer refuses it. */
static void test_unprintable(void **state) {
  fixture *f = *state;
  fbe_msg *m = from_json(f, "txt.Collections", "{\"lst\":[\"ok\",\"bad\"]}");
  fbe_ref bad = t_path(fbe_msg_ref(m), "lst[1]");
  static const uint8_t not_utf8[] = {'a', 0xff};
  fbei_str *s = bad.slot;
  s->data = not_utf8;
  s->size = 2;
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  assert_int_equal(fbe_msg_to_text(m, &b, &err), FBE_ERR_ARGUMENT);
  assert_string_equal(err.path, "lst[1]");
  assert_string_equal(err.message, "string is not valid UTF-8: the byte 0xff, which UTF-8 never uses at byte 1 of 2");
  assert_int_equal(b.size, 0);
  fbe_msg *t = t_new(f->arena, type_of(f, "txt.Texts"));
  ((uint8_t *)t_path(fbe_msg_ref(t), "m").slot)[14] = 29; /* scale 29 */
  assert_int_equal(fbe_msg_to_text(t, &b, &err), FBE_ERR_RANGE);
  assert_string_equal(err.message, "decimal scale 29 is above 28");
  assert_string_equal(err.path, "m");
  ((uint8_t *)t_path(fbe_msg_ref(t), "m").slot)[14] = 0;
  ((uint8_t *)t_path(fbe_msg_ref(t), "m").slot)[12] = 1;
  assert_int_equal(fbe_msg_to_text(t, &b, &err), FBE_ERR_RANGE);
  assert_string_equal(err.message, "decimal has reserved bits set");
  assert_int_equal(b.size, 0);
  fbe_ref none = {NULL, NULL, NULL};
  assert_int_equal(fbe_text_write(none, NULL, &b, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_msg_to_text(NULL, &b, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_text_write_enum(NULL, 0, &b, &err), FBE_ERR_ARGUMENT);
  fbe_buffer_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_account_readme, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_inheritance_and_empty, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_integers, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_chars, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_floats, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_decimal_uuid_string_bytes, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_enums, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_flags, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_optionals_and_collections, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_hidden, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_vectors_lossless, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_near_values_differ, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_budget, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_depth, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_bracket_nesting, test_setup, test_teardown),
      cmocka_unit_test_setup_teardown(test_unprintable, test_setup, test_teardown),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

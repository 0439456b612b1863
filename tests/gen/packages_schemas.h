/* test_gen_schemas's packages: the coverage schemas of tests/gen/schemas/ (see there). */
#include <limits.h>
#include <math.h>
#include "genempty.h"
#include "genenums.h"
#include "genpoint.h"
#include "genforms.h"
#include "genscalars.h"
#include "geninherit.h"
#include "genmsg.h"
#include "genkeys.h"

static package g_packages[] = {
    {"genpoint", genpoint_types, genpoint_TYPE_COUNT, NULL},
    {"genforms", genforms_types, genforms_TYPE_COUNT, NULL},
    {"genscalars", genscalars_types, genscalars_TYPE_COUNT, NULL},
    {"geninherit", geninherit_types, geninherit_TYPE_COUNT, NULL},
    {"genmsg", genmsg_types, genmsg_TYPE_COUNT, NULL},
    {"genkeys", genkeys_types, genkeys_TYPE_COUNT, NULL},
};

static const enum_table g_enums[] = {
    {"genenums.EnumByte", genenums_EnumByte_entries},
    {"genenums.EnumChar", genenums_EnumChar_entries},
    {"genenums.EnumWChar", genenums_EnumWChar_entries},
    {"genenums.EnumInt8", genenums_EnumInt8_entries},
    {"genenums.EnumUInt8", genenums_EnumUInt8_entries},
    {"genenums.EnumInt16", genenums_EnumInt16_entries},
    {"genenums.EnumUInt16", genenums_EnumUInt16_entries},
    {"genenums.EnumInt32", genenums_EnumInt32_entries},
    {"genenums.EnumUInt32", genenums_EnumUInt32_entries},
    {"genenums.EnumInt64", genenums_EnumInt64_entries},
    {"genenums.EnumUInt64", genenums_EnumUInt64_entries},
    {"genenums.EnumDefault", genenums_EnumDefault_entries},
    {"genenums.EnumEmpty", genenums_EnumEmpty_entries},
    {"genenums.Keywords", genenums_Keywords_entries},
    {"genenums.Attributed", genenums_Attributed_entries},
    {"genenums.FlagsByte", genenums_FlagsByte_entries},
    {"genenums.FlagsInt8", genenums_FlagsInt8_entries},
    {"genenums.FlagsUInt8", genenums_FlagsUInt8_entries},
    {"genenums.FlagsInt16", genenums_FlagsInt16_entries},
    {"genenums.FlagsUInt16", genenums_FlagsUInt16_entries},
    {"genenums.FlagsInt32", genenums_FlagsInt32_entries},
    {"genenums.FlagsUInt32", genenums_FlagsUInt32_entries},
    {"genenums.FlagsInt64", genenums_FlagsInt64_entries},
    {"genenums.FlagsUInt64", genenums_FlagsUInt64_entries},
    {"genenums.FlagsDefault", genenums_FlagsDefault_entries},
    {"genenums.FlagsEmpty", genenums_FlagsEmpty_entries},
    {"genforms.Color", genforms_Color_entries},
    {"genforms.Perm", genforms_Perm_entries},
};

/* The constants' C values at the limits of every base (the header's macros, not only the
 * name tables), and the escaped names. */
static void constant_checks(void) {
  CHECK(genenums_EnumInt8_V1 == INT8_MIN && genenums_EnumInt16_V1 == INT16_MIN &&
            genenums_EnumInt32_V1 == INT32_MIN && genenums_EnumInt64_V1 == INT64_MIN &&
            genenums_EnumInt64_V4 == INT64_MAX && genenums_EnumUInt64_V4 == UINT64_MAX &&
            genenums_EnumUInt32_V4 == UINT32_MAX && genenums_EnumUInt16_V4 == UINT16_MAX &&
            genenums_EnumByte_V4 == 255 && genenums_EnumChar_V3 == 0x7f && genenums_EnumWChar_V4 == 0x10FFFF &&
            genenums_EnumDefault_third == 11 && genenums_Attributed_b == 0,
        "enum constants at the limits of their bases");
  CHECK(genenums_FlagsInt64_top == INT64_C(0x4000000000000000) &&
            genenums_FlagsUInt64_all == (UINT64_C(0x8000000000000000) | 3) && genenums_FlagsByte_all == 0x83 &&
            genenums_FlagsDefault_rw == 3 && genforms_Perm_rw == 3,
        "flags constants");
  CHECK(genenums_Keywords_if == 0 && genenums_Keywords_NULL == 5 && genenums_Keywords_name(genenums_Keywords__Bool) &&
            !strcmp(genenums_Keywords_name(genenums_Keywords__Bool), "_Bool"),
        "enum values named like C keywords");
  genforms_Keywords k;
  CHECK(genforms_Keywords_init(&k, NULL) == FBE_OK && k.default_ == 1 && k.inline_.size == 6 && k.min == INT32_MAX &&
            k.max == INT32_MIN && !k._Alignas_.has,
        "fields named like C keywords");
  genforms_Keywords_free(&k, NULL);
}

/* ------------------------------------------------------------ duplicate keys (genkeys.fbe)
 * The values point at static memory (C literals, the arrays below): never freed. */

static fbe_blob text(const char *s) {
  fbe_blob b = {(const uint8_t *)s, (uint32_t)strlen(s)};
  return b;
}

static int text_is(fbe_blob b, const char *s) { return b.size == strlen(s) && !memcmp(b.data, s, b.size); }

static fbe_decimal dec(const char *s) {
  fbe_decimal d;
  memset(&d, 0, sizeof d);
  CHECK(fbe_decimal_parse(s, strlen(s), &d) == FBE_OK, "decimal %s", s);
  return d;
}

static int dec_is(const fbe_decimal *d, const char *s) {
  char out[64];
  fbe_decimal_format(d, out, sizeof out);
  return !strcmp(out, s);
}

static genkeys_Id id_of(int32_t id, const char *name) {
  genkeys_Id v;
  v.id = id;
  v.name = text(name);
  return v;
}

static genkeys_Tagged tagged_of(int32_t id, const char *name, const char *tag, double weight) {
  genkeys_Tagged v;
  v.id = id;
  v.name = text(name);
  v.tag = text(tag);
  v.weight = weight;
  return v;
}

static fbe_blob g_words[2];
static genkeys_map_string_int32_entry g_table[1];
static genkeys_Keyless g_loose[2];
static genkeys_Id g_ids[2];
static genpoint_Point g_points[1];

/* A Deep value with every key field set; variants change one field. */
static genkeys_Deep deep(int32_t payload) {
  genkeys_Deep d;
  memset(&d, 0, sizeof d);
  d.maybe.has = true;
  d.maybe.value = 7;
  d.pair.items[1] = 1.5;
  d.words.data = g_words;
  d.words.count = 2;
  d.table.data = g_table;
  d.table.count = 1;
  d.inner = id_of(1, "a");
  d.loose = &g_loose[0];
  d.amount = dec("1.5");
  d.ratio.has = true;
  d.ratio.value = 0.25f;
  d.blobs.items[0].has = true;
  d.blobs.items[0].value = text("b");
  d.ids.data = &g_ids[0];
  d.ids.count = 1;
  d.points.data = g_points;
  d.points.count = 1;
  d.payload = payload;
  return d;
}

static void set_duplicates(void) {
  genkeys_Sets v, back;
  memset(&v, 0, sizeof v);
  memset(&back, 0, sizeof back);
  genkeys_Id ids[] = {id_of(1, "a"), id_of(2, "b"), id_of(1, "c")};
  genkeys_Tagged tagged[] = {tagged_of(1, "n", "a", 1.0), tagged_of(1, "n", "b", 0.0), tagged_of(2, "n", "a", 0.0),
                             tagged_of(1, "m", "a", 2.0)};
  genkeys_Keyless keyless[] = {{1, {NULL, 0}}, {2, {NULL, 0}}, {3, {NULL, 0}}};
  keyless[2].s = text("r");
  /* the same key: d0, d1, d2 (a struct key field by its own keys), d5 (1.50 is 1.5);
   * other keys: d3 (an optional struct compared whole), d4 (-0.0), d6 (a vector of
   * structs compared whole), d7 (an absent optional), d8 (an absent optional struct) */
  genkeys_Deep deeps[9];
  for (int i = 0; i < 9; i++) deeps[i] = deep(i);
  deeps[2].inner.name = text("z");
  deeps[3].loose = &g_loose[1];
  deeps[4].pair.items[0] = -0.0;
  deeps[5].amount = dec("1.50");
  deeps[6].ids.data = &g_ids[1];
  deeps[7].ratio.has = false;
  deeps[8].loose = NULL;
  double doubles[] = {0.0, -0.0, 1.5, 0.0};
  float floats[] = {1.0f, -0.0f, 0.0f, 1.0f};
  fbe_decimal decimals[] = {dec("1.5"), dec("2"), dec("1.50")};
  fbe_blob strings[] = {text("x"), text("y"), text("x")};
  fbe_blob blobs[] = {text("\001\002"), text(""), text("\001\002"), text("")};
  bool bools[] = {true, false, true};
  fbe_uuid uuids[3];
  memset(uuids, 0, sizeof uuids);
  uuids[1].bytes[15] = 1;
  genpoint_Point points[] = {{1, 2}, {2, 1}, {1, 2}};
  v.ids.data = ids, v.ids.count = 3;
  v.tagged.data = tagged, v.tagged.count = 4;
  v.keyless.data = keyless, v.keyless.count = 3;
  v.deeps.data = deeps, v.deeps.count = 9;
  v.doubles.data = doubles, v.doubles.count = 4;
  v.floats.data = floats, v.floats.count = 4;
  v.decimals.data = decimals, v.decimals.count = 3;
  v.strings.data = strings, v.strings.count = 3;
  v.blobs.data = blobs, v.blobs.count = 4;
  v.bools.data = bools, v.bools.count = 3;
  v.uuids.data = uuids, v.uuids.count = 3;
  v.points.data = points, v.points.count = 3;
  duplicates("genkeys.Sets", &v, &back);
  CHECK(back.ids.count == 2 && back.ids.data[0].id == 1 && text_is(back.ids.data[0].name, "c") &&
            back.ids.data[1].id == 2,
        "Id!: one per id, the last one in the first one's place");
  CHECK(back.tagged.count == 3 && text_is(back.tagged.data[0].name, "m") && back.tagged.data[0].weight == 2.0 &&
            text_is(back.tagged.data[1].tag, "b") && back.tagged.data[2].id == 2,
        "Tagged!: keys inherited and own");
  CHECK(back.keyless.count == 1 && back.keyless.data[0].x == 3 && text_is(back.keyless.data[0].s, "r"),
        "Keyless!: one element, the last one");
  int deeps_kept = back.deeps.count == 6;
  static const int32_t kept[] = {5, 3, 4, 6, 7, 8};
  for (uint32_t i = 0; deeps_kept && i < 6; i++) deeps_kept = back.deeps.data[i].payload == kept[i];
  CHECK(deeps_kept && dec_is(&back.deeps.data[0].amount, "1.50"), "Deep!: key fields of every form");
  CHECK(back.doubles.count == 3 && !signbit(back.doubles.data[0]) && signbit(back.doubles.data[1]) &&
            back.doubles.data[2] == 1.5,
        "double!: -0.0 is not 0.0");
  CHECK(back.floats.count == 3 && back.floats.data[0] == 1.0f && signbit(back.floats.data[1]) &&
            !signbit(back.floats.data[2]),
        "float!: -0.0 is not 0.0");
  CHECK(back.decimals.count == 2 && dec_is(&back.decimals.data[0], "1.50") && dec_is(&back.decimals.data[1], "2"),
        "decimal!: 1.5 is 1.50, the last one kept");
  CHECK(back.strings.count == 2 && back.blobs.count == 2 && back.bools.count == 2 && back.bools.data[0] &&
            back.uuids.count == 2 && back.points.count == 2 && back.points.data[1].x == 2,
        "string!, bytes!, bool!, uuid!, genpoint.Point!");
  genkeys_Sets_free(&back, NULL);

  /* 10^5 keys: a table, not pairwise comparisons (keys that differ only above bit 20 too) */
  enum { MANY = 100000 };
  int64_t *many = malloc(MANY * sizeof *many);
  for (int same = 0; same < 2 && many; same++) {
    memset(&v, 0, sizeof v);
    for (int64_t i = 0; i < MANY; i++) many[i] = same ? 7 : i << 20;
    v.many.data = many;
    v.many.count = MANY;
    duplicates("genkeys.Sets", &v, &back);
    CHECK(back.many.count == (same ? 1u : (uint32_t)MANY), "int64!: %u of %d keys kept", back.many.count, MANY);
    genkeys_Sets_free(&back, NULL);
  }
  free(many);
}

static void map_duplicates(void) {
  genkeys_Maps v, back;
  memset(&v, 0, sizeof v);
  memset(&back, 0, sizeof back);
  genkeys_map_genkeys_Id_string_entry by_id[] = {{id_of(1, "a"), {NULL, 0}}, {id_of(2, "b"), {NULL, 0}},
                                                 {id_of(1, "c"), {NULL, 0}}};
  by_id[0].value = text("one");
  by_id[1].value = text("two");
  by_id[2].value = text("three");
  genkeys_map_genkeys_Keyless_string_entry by_keyless[2];
  memset(by_keyless, 0, sizeof by_keyless);
  by_keyless[0].key.x = 1;
  by_keyless[1].key.x = 2;
  by_keyless[1].value = text("last");
  genkeys_map_decimal_opt_string_entry by_decimal[2];
  memset(by_decimal, 0, sizeof by_decimal);
  by_decimal[0].key = dec("1.5");
  by_decimal[0].value.has = true;
  by_decimal[0].value.value = text("a");
  by_decimal[1].key = dec("1.50");
  genkeys_map_string_genkeys_Id_entry id_by_name[] = {{{NULL, 0}, id_of(1, "p")}, {{NULL, 0}, id_of(2, "q")}};
  id_by_name[0].key = text("x");
  id_by_name[1].key = text("x");
  genkeys_map_genkeys_Deep_genkeys_Deep_entry deep_by_deep[3];
  deep_by_deep[0].key = deep(1), deep_by_deep[0].value = deep(10);
  deep_by_deep[1].key = deep(2), deep_by_deep[1].value = deep(20);
  deep_by_deep[2].key = deep(3), deep_by_deep[2].value = deep(30);
  deep_by_deep[1].key.pair.items[0] = -0.0;
  genkeys_Tagged t1 = tagged_of(5, "v", "w", 0.5);
  genkeys_map_genkeys_Tagged_opt_genkeys_Tagged_entry by_tagged[] = {
      {tagged_of(1, "n", "a", 1.0), NULL}, {tagged_of(1, "n", "b", 1.0), NULL}, {tagged_of(1, "m", "a", 3.0), &t1}};
  v.byId.data = by_id, v.byId.count = 3;
  v.byKeyless.data = by_keyless, v.byKeyless.count = 2;
  v.byDecimal.data = by_decimal, v.byDecimal.count = 2;
  v.idByName.data = id_by_name, v.idByName.count = 2;
  v.deepByDeep.data = deep_by_deep, v.deepByDeep.count = 3;
  v.byTagged.data = by_tagged, v.byTagged.count = 3;
  duplicates("genkeys.Maps", &v, &back);
  CHECK(back.byId.count == 2 && text_is(back.byId.data[0].key.name, "c") && text_is(back.byId.data[0].value, "three"),
        "string<Id>: the last entry, key and value, in the first one's place");
  CHECK(back.byKeyless.count == 1 && back.byKeyless.data[0].key.x == 2 && text_is(back.byKeyless.data[0].value, "last"),
        "string{Keyless}: one entry");
  CHECK(back.byDecimal.count == 1 && dec_is(&back.byDecimal.data[0].key, "1.50") && !back.byDecimal.data[0].value.has,
        "string?{decimal}: 1.5 is 1.50");
  CHECK(back.idByName.count == 1 && back.idByName.data[0].value.id == 2, "Id<string>");
  CHECK(back.deepByDeep.count == 2 && back.deepByDeep.data[0].value.payload == 30 &&
            back.deepByDeep.data[1].value.payload == 20,
        "Deep{Deep}");
  CHECK(back.byTagged.count == 2 && back.byTagged.data[0].value && back.byTagged.data[0].value->id == 5 &&
            back.byTagged.data[0].key.weight == 3.0 && !back.byTagged.data[1].value,
        "Tagged?<Tagged>: the optional struct value of the last entry");
  genkeys_Maps_free(&back, NULL);
}

/* Keys without a JSON form: floats by their bits (NaN is one key, -0.0 another than 0.0). */
static void bit_key_duplicates(void) {
  genkeys_BitKeys v, back;
  memset(&v, 0, sizeof v);
  memset(&back, 0, sizeof back);
  genkeys_map_double_int32_entry by_double[] = {{0.0, 1}, {-0.0, 2}, {NAN, 3}, {0.0, 4}, {NAN, 5}};
  genkeys_map_float_int32_entry by_float[] = {{-0.0f, 1}, {(float)NAN, 2}, {-0.0f, 3}};
  genkeys_map_bytes_string_entry by_bytes[3];
  by_bytes[0].key = text("\377"), by_bytes[0].value = text("a");
  by_bytes[1].key = text(""), by_bytes[1].value = text("b");
  by_bytes[2].key = text("\377"), by_bytes[2].value = text("c");
  genkeys_map_bool_int32_entry by_bool[] = {{true, 1}, {false, 2}, {true, 3}};
  v.byDouble.data = by_double, v.byDouble.count = 5;
  v.byFloat.data = by_float, v.byFloat.count = 3;
  v.byBytes.data = by_bytes, v.byBytes.count = 3;
  v.byBool.data = by_bool, v.byBool.count = 3;
  duplicates("genkeys.BitKeys", &v, &back);
  CHECK(back.byDouble.count == 3 && back.byDouble.data[0].value == 4 && back.byDouble.data[1].value == 2 &&
            isnan(back.byDouble.data[2].key) && back.byDouble.data[2].value == 5,
        "int32<double>: keys by their bits");
  CHECK(back.byFloat.count == 2 && back.byFloat.data[0].value == 3, "int32{float}");
  CHECK(back.byBytes.count == 2 && text_is(back.byBytes.data[0].value, "c"), "string<bytes>");
  CHECK(back.byBool.count == 2 && back.byBool.data[0].value == 3, "int32{bool}");
  genkeys_BitKeys_free(&back, NULL);
}

/* Typed views by name: none here; test_gen.c step 7 reads every struct of these schemas
 * through its views (and step 5 a view without bytes as the defaults). */
static void view_checks(void) {}

static void duplicate_checks(void) {
  g_words[0] = text("w"), g_words[1] = text("v");
  g_table[0].key = text("k"), g_table[0].value = 1;
  memset(g_loose, 0, sizeof g_loose);
  g_loose[0].s = text("p"), g_loose[1].s = text("q");
  g_ids[0] = id_of(1, "a"), g_ids[1] = id_of(1, "b");
  g_points[0].x = 3, g_points[0].y = 4;
  set_duplicates();
  map_duplicates();
  bit_key_duplicates();
  json_duplicates("genkeys.Sets",
                  "{\"ids\":[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":\"b\"},{\"id\":1,\"name\":\"c\"}],"
                  "\"tagged\":[{\"id\":1,\"tag\":\"a\",\"weight\":1.0},{\"id\":1,\"tag\":\"b\"},"
                  "{\"id\":1,\"tag\":\"a\",\"weight\":2.0}],"
                  "\"keyless\":[{\"x\":1},{\"x\":2}],\"doubles\":[0.0,-0.0,1.5,0.0],"
                  "\"decimals\":[\"1.5\",\"2\",\"1.50\"],\"strings\":[\"x\",\"y\",\"x\"]}",
                  "{\"ids\":[{\"id\":1,\"name\":\"c\"},{\"id\":2,\"name\":\"b\"}],"
                  "\"tagged\":[{\"id\":1,\"tag\":\"a\",\"weight\":2.0},{\"id\":1,\"tag\":\"b\"}],"
                  "\"keyless\":[{\"x\":2}],\"doubles\":[0.0,-0.0,1.5],\"decimals\":[\"1.50\",\"2\"],"
                  "\"strings\":[\"x\",\"y\"]}");
  json_duplicates("genkeys.Maps",
                  "{\"byId\":[[{\"id\":1,\"name\":\"a\"},\"one\"],[{\"id\":2},\"two\"],[{\"id\":1,\"name\":\"c\"},"
                  "\"three\"]],\"byDecimal\":{\"1.5\":\"a\",\"1.50\":null},"
                  "\"idByName\":{\"x\":{\"id\":1},\"x\":{\"id\":2}}}",
                  "{\"byId\":[[{\"id\":1,\"name\":\"c\"},\"three\"],[{\"id\":2},\"two\"]],"
                  "\"byDecimal\":{\"1.50\":null},\"idByName\":{\"x\":{\"id\":2}}}");
}

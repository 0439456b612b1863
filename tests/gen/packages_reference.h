/* test_gen's packages: the four reference schemas of schemas/ (tests/gen/CMakeLists.txt). */
#include "proto.h"
#include "protoex.h"
#include "test.h"
#include "enums.h"

static package g_packages[] = {
    {"proto", proto_types, proto_TYPE_COUNT, NULL},
    {"protoex", protoex_types, protoex_TYPE_COUNT, NULL},
    {"test", test_types, test_TYPE_COUNT, NULL},
    {"enums", enums_types, enums_TYPE_COUNT, NULL},
};

static const enum_table g_enums[] = {
    {"proto.OrderSide", proto_OrderSide_entries},
    {"proto.OrderType", proto_OrderType_entries},
    {"proto.State", proto_State_entries},
    {"enums.EnumByte", enums_EnumByte_entries},
    {"enums.EnumInt64", enums_EnumInt64_entries},
    {"enums.EnumUInt64", enums_EnumUInt64_entries},
};

/* The constants' C values (the header's macros, not only the name tables). */
static void constant_checks(void) {
  CHECK(enums_EnumInt64_ENUM_VALUE_1 == -INT64_MAX && enums_EnumUInt64_ENUM_VALUE_4 == UINT64_MAX &&
            proto_State_bad == 9,
        "enum constants");
}

/* Duplicate keys (test_gen.c step 6): test.StructSet, StructSimple by its [key] id. */
static void duplicate_checks(void) {
  test_StructSimple simple[3];
  for (int i = 0; i < 3; i++) CHECK(test_StructSimple_init(&simple[i], NULL) == FBE_OK, "init");
  simple[0].id = 1;
  simple[1].id = 2;
  simple[2].id = 1;
  simple[2].f1 = true;
  uint8_t bytes[] = {1, 2, 1};
  test_StructSet v, back;
  memset(&v, 0, sizeof v);
  memset(&back, 0, sizeof back);
  v.f1.data = bytes;
  v.f1.count = 3;
  v.f4.data = simple;
  v.f4.count = 3;
  duplicates("test.StructSet", &v, &back);
  CHECK(back.f1.count == 2 && back.f4.count == 2 && back.f4.data[0].id == 1 && back.f4.data[0].f1 &&
            back.f4.data[1].id == 2,
        "test.StructSet: one element per key, the last one in the first one's place");
  test_StructSet_free(&back, NULL);
  for (int i = 0; i < 3; i++) test_StructSimple_free(&simple[i], NULL);
  /* f35 = utc and f37 = uuid1 given: their defaults differ between two reads */
#define TEST_SIMPLE_FIXED "\"f35\":1,\"f37\":\"00000000-0000-0000-0000-000000000001\""
  json_duplicates("test.StructSet",
                  "{\"f1\":[1,2,1],\"f2\":[1,1],\"f4\":[{\"id\":1," TEST_SIMPLE_FIXED "},{\"id\":2," TEST_SIMPLE_FIXED
                  "},{\"id\":1,\"f1\":true," TEST_SIMPLE_FIXED "}]}",
                  "{\"f1\":[1,2],\"f2\":[1],\"f4\":[{\"id\":1,\"f1\":true," TEST_SIMPLE_FIXED "},{\"id\":2,"
                  TEST_SIMPLE_FIXED "}]}");
#undef TEST_SIMPLE_FIXED
}

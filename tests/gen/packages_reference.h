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

/* test_gen_schemas's packages: the coverage schemas of tests/gen/schemas/ (see there). */
#include <limits.h>
#include "genempty.h"
#include "genenums.h"
#include "genpoint.h"
#include "genforms.h"
#include "geninherit.h"
#include "genmsg.h"

static package g_packages[] = {
    {"genpoint", genpoint_types, genpoint_TYPE_COUNT, NULL},
    {"genforms", genforms_types, genforms_TYPE_COUNT, NULL},
    {"geninherit", geninherit_types, geninherit_TYPE_COUNT, NULL},
    {"genmsg", genmsg_types, genmsg_TYPE_COUNT, NULL},
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

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

/* Typed views by name (test_gen.c step 7): proto.Account's accessors in both models, a
 * nested struct, an optional and a vector of structs, from_view of a nested view, the
 * defaults a view without bytes reads, and a refused open. */
static void view_checks(void) {
  proto_Account acc;
  proto_Balance asset;
  proto_Order orders[2];
  CHECK(proto_Account_init(&acc, NULL) == FBE_OK && proto_Balance_init(&asset, NULL) == FBE_OK &&
            proto_Order_init(&orders[0], NULL) == FBE_OK && proto_Order_init(&orders[1], NULL) == FBE_OK,
        "init");
  acc.id = -7;
  acc.name = (fbe_blob){(const uint8_t *)"Alice", 5};
  acc.state = proto_State_good;
  acc.wallet.currency = (fbe_blob){(const uint8_t *)"USD", 3};
  acc.wallet.amount = 1000.25;
  asset.currency = (fbe_blob){(const uint8_t *)"EUR", 3};
  asset.amount = -2.5;
  acc.asset = &asset;
  orders[0].id = 1;
  orders[0].symbol = (fbe_blob){(const uint8_t *)"EURUSD", 6};
  orders[0].side = proto_OrderSide_sell;
  orders[0].type = proto_OrderType_limit;
  orders[0].price = 1.5;
  orders[1].id = 2;
  orders[1].symbol = (fbe_blob){(const uint8_t *)"GBPUSD", 6};
  orders[1].volume = 10.0;
  acc.orders.data = orders;
  acc.orders.count = 2;
  for (int m = 0; m < 2; m++) {
    fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbe_buffer bytes;
    fbe_buffer_init(&bytes);
    fbe_error err;
    proto_Account_view v = {0};
    size_t size = 0;
    CHECK(proto_Account_encode(&acc, model, &bytes, &err) == FBE_OK &&
              proto_Account_open_view(&v, model, bytes.data, bytes.size, &size, &err) == FBE_OK && size == bytes.size,
          "proto.Account model %d: open_view", m);
    fbe_blob name = proto_Account_view_name(v);
    CHECK(proto_Account_view_id(v) == -7 && name.size == 5 && !memcmp(name.data, "Alice", 5) &&
              name.data > bytes.data && name.data < bytes.data + bytes.size &&
              proto_Account_view_state(v) == proto_State_good,
          "proto.Account model %d: id, name (borrowed from the buffer), state", m);
    proto_Balance_view wallet = proto_Account_view_wallet(v);
    fbe_blob currency = proto_Balance_view_currency(wallet);
    CHECK(currency.size == 3 && !memcmp(currency.data, "USD", 3) && proto_Balance_view_amount(wallet) == 1000.25,
          "proto.Account model %d: wallet", m);
    proto_opt_proto_Balance_view maybe = proto_Account_view_asset(v);
    proto_Balance_view got = proto_opt_proto_Balance_view_get(maybe);
    CHECK(proto_opt_proto_Balance_view_has(maybe) && proto_Balance_view_amount(got) == -2.5 &&
              proto_Balance_view_currency(got).size == 3,
          "proto.Account model %d: asset", m);
    proto_vec_proto_Order_view ov = proto_Account_view_orders(v);
    proto_Order_view o0 = proto_vec_proto_Order_view_at(ov, 0), o1 = proto_vec_proto_Order_view_at(ov, 1);
    fbe_blob s1 = proto_Order_view_symbol(o1);
    CHECK(proto_vec_proto_Order_view_count(ov) == 2 && proto_Order_view_id(o0) == 1 &&
              proto_Order_view_side(o0) == proto_OrderSide_sell && proto_Order_view_type(o0) == proto_OrderType_limit &&
              proto_Order_view_price(o0) == 1.5 && proto_Order_view_id(o1) == 2 && s1.size == 6 &&
              !memcmp(s1.data, "GBPUSD", 6) && proto_Order_view_volume(o1) == 10.0,
          "proto.Account model %d: orders", m);
    /* past the end: the zero view, whose fields read as their defaults */
    proto_Order_view past = proto_vec_proto_Order_view_at(ov, 2);
    CHECK(proto_Order_view_id(past) == 0 && proto_Order_view_symbol(past).size == 0, "proto.Account model %d: past the end", m);
    proto_Balance back;
    CHECK(proto_Balance_from_view(&back, wallet, NULL, &err) == FBE_OK && proto_Balance_equal_(&back, &acc.wallet),
          "proto.Account model %d: from_view of the wallet", m);
    proto_Balance_free(&back, NULL);
    CHECK(proto_Account_open_view(&v, model, bytes.data, bytes.size - 1, NULL, &err) != FBE_OK &&
              proto_Account_view_id(v) == 0 && proto_Account_view_state(v) == (proto_State)(proto_State_initialized | proto_State_bad),
          "proto.Account model %d: a refused open leaves a view of the defaults", m);
    fbe_buffer_free(&bytes);
  }
  proto_Account none;
  memset(&none, 0, sizeof none);
  CHECK(proto_Account_from_view(&none, (proto_Account_view){fbe_gen_view_none()}, NULL, NULL) == FBE_OK &&
            none.state == (proto_State)(proto_State_initialized | proto_State_bad) && none.orders.count == 0,
        "proto.Account: from_view of no bytes gives init's defaults");
  proto_Account_free(&none, NULL);
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

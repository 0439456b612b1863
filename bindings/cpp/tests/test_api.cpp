// The C++ API over the core: schemas, messages, encode/decode/verify, JSON, text,
// errors, views, lifetimes. Byte expectations come from the C API itself.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fbe/fbe.hpp"

namespace {

fbe::schema proto() { return fbe::schema::load_package("proto", {FBE_SCHEMAS_DIR}); }

const char *const ACCOUNT_JSON =
    R"({"id":1,"name":"Test","state":6,"wallet":{"currency":"USD","amount":1000.0},)"
    R"("asset":{"currency":"EUR","amount":100.0},"orders":[)"
    R"({"id":1,"symbol":"EURUSD","side":0,"type":0,"price":1.23456,"volume":1000.0},)"
    R"({"id":2,"symbol":"EURUSD","side":1,"type":1,"price":1.0,"volume":100.0}]})";

// What the C API writes for the same JSON.
std::vector<std::uint8_t> c_encode(const fbe::schema &s, const char *type, const char *json, fbe_model model) {
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *msg = nullptr;
  fbe_buffer out{};
  std::string t(type);
  EXPECT_EQ(fbe_msg_from_json(fbe_schema_find_struct(s.raw(), t.c_str()), json, std::strlen(json), arena, &msg, nullptr),
            FBE_OK);
  EXPECT_EQ(fbe_encode(msg, model, &out, nullptr), FBE_OK);
  std::vector<std::uint8_t> bytes(out.data, out.data + out.size);
  fbe_buffer_free(&out);
  fbe_arena_free(arena);
  return bytes;
}

TEST(Schema, LoadsAndFinds) {
  auto s = proto();
  EXPECT_EQ(s.package(), "proto");
  auto account = s.find("Account");
  ASSERT_TRUE(account);
  EXPECT_EQ(account->full_name(), "proto.Account");
  EXPECT_EQ(account->field_count(), 6u);
  EXPECT_EQ(account->field(1).name(), "name");
  EXPECT_EQ(account->field(1).kind(), FBE_KIND_STRING);
  EXPECT_FALSE(s.find("NoSuchType"));
  EXPECT_TRUE(s.find("proto.OrderMessage")->is_message());
}

TEST(Schema, ErrorsCarryTheDiagnostics) {
  try {
    fbe::schema::load_string("package broken\nstruct A { int32 x }\n", "broken.fbe");
    FAIL() << "loaded a broken schema";
  } catch (const fbe::schema_error &e) {
    EXPECT_EQ(e.status(), FBE_ERR_SCHEMA);
    ASSERT_FALSE(e.diagnostics().empty());
    EXPECT_NE(std::string(e.what()).find("broken.fbe:"), std::string::npos) << e.what();
  }
  EXPECT_THROW(fbe::schema::load_package("no_such_package", {FBE_SCHEMAS_DIR}), fbe::schema_error);
}

TEST(Message, DefaultsGetSet) {
  auto account = *proto().find("Account");
  fbe::message m = account.make();
  EXPECT_EQ(m.get<std::int32_t>("id"), 0);
  m.set("id", 42);
  m.set("name", "Alice");
  m["wallet"]["amount"].set(12.5);
  EXPECT_EQ(m.get<std::int64_t>("id"), 42);
  EXPECT_EQ(m.get<std::string_view>("name"), "Alice");
  EXPECT_EQ(m["wallet"]["amount"].get<double>(), 12.5);
  EXPECT_TRUE(m["asset"].is_null());
  m["asset"].emplace()["currency"].set("EUR");
  EXPECT_FALSE(m["asset"].is_null());
  EXPECT_EQ(m["asset"].deref()["currency"].get<std::string>(), "EUR");
  auto order = m["orders"].append();
  order["symbol"].set("EURUSD");
  order["side"].set_name("sell");
  EXPECT_EQ(m["orders"].size(), 1u);
  EXPECT_EQ(m["orders"][0]["side"].get<int>(), 1);
  int n = 0;
  for (fbe::ref o : m["orders"]) n += o["symbol"].get<std::string_view>() == "EURUSD";
  EXPECT_EQ(n, 1);
}

TEST(Message, RefusalsAreTheCoresErrors) {
  auto s = fbe::schema::load_package("test", {FBE_SCHEMAS_DIR});
  fbe::message m = s.find("StructSimple")->make();
  try {
    m.set("f3x", 1);
    FAIL();
  } catch (const fbe::error &e) {
    EXPECT_EQ(e.status(), FBE_ERR_UNKNOWN_FIELD);
    EXPECT_STREQ(e.what(), "unknown field 'f3x' of test.StructSimple (did you mean 'f3'?)");
  }
  try {
    m.set("f9", 128);  // int8
    FAIL();
  } catch (const fbe::error &e) {
    EXPECT_EQ(e.status(), FBE_ERR_RANGE);
    EXPECT_STREQ(e.status_name(), "FBE_ERR_RANGE");
  }
  try {
    m.set("f32", std::string_view("\xff"));  // not UTF-8
    FAIL();
  } catch (const fbe::error &e) {
    EXPECT_EQ(e.status(), FBE_ERR_ARGUMENT);
    ASSERT_TRUE(e.offset());
    EXPECT_EQ(*e.offset(), 0u);
  }
  EXPECT_THROW(m.set("id", "text"), fbe::error);
  EXPECT_THROW(m["f5"].set_char("ab"), fbe::error);
  EXPECT_THROW(m.get<std::string_view>("id"), fbe::error);
  m.set("f11", 255);
  EXPECT_THROW(m.get<std::int8_t>("f11"), fbe::error);
  EXPECT_EQ(m.get<std::uint8_t>("f11"), 255);
}

TEST(Codec, BytesAreTheCAPIs) {
  auto s = proto();
  auto account = *s.find("Account");
  for (fbe::model model : {fbe::model::standard, fbe::model::final_}) {
    fbe::message m = account.from_json(ACCOUNT_JSON);
    auto bytes = m.encode(model);
    EXPECT_EQ(bytes, c_encode(s, "proto.Account", ACCOUNT_JSON, static_cast<fbe_model>(model)));
    fbe::buffer into;
    m.encode(into, model);
    EXPECT_EQ(into.to_vector(), bytes);
    EXPECT_EQ(account.verify(bytes, model), bytes.size());
    fbe::message back = account.decode(bytes, model);
    EXPECT_EQ(back, m);
    EXPECT_EQ(back.to_json(), m.to_json());
    EXPECT_EQ(account.decode_trusted(bytes, model), m);
    fbe::message reused = account.make();
    account.decode_into(reused, bytes, model);
    EXPECT_EQ(reused, m);
  }
}

TEST(Codec, BadBytesAreRefusedWithVerifysError) {
  auto account = *proto().find("Account");
  auto bytes = account.from_json(ACCOUNT_JSON).encode();
  bytes.resize(bytes.size() - 3);
  EXPECT_FALSE(account.is_valid(bytes));
  auto verified = account.try_verify(bytes);
  ASSERT_FALSE(verified);
  EXPECT_EQ(verified.error_value().status(), FBE_ERR_MALFORMED);
  auto decoded = account.try_decode(bytes);
  ASSERT_FALSE(decoded);
  EXPECT_STREQ(decoded.error_value().what(), verified.error_value().what());
  EXPECT_THROW(account.decode(bytes), fbe::error);
  EXPECT_THROW(account.open_view(bytes), fbe::error);
  fbe::message reused = account.make();
  EXPECT_THROW(account.decode_into(reused, bytes), fbe::error);
  EXPECT_EQ(reused, account.make()) << "a failed decode_into leaves a default value";
}

TEST(Message, CopyEqualityTextJson) {
  auto account = *proto().find("Account");
  fbe::message a = account.from_json(ACCOUNT_JSON);
  fbe::message b = a;
  EXPECT_EQ(a, b);
  b.set("name", "Other");
  EXPECT_NE(a, b);
  EXPECT_EQ(a.get<std::string_view>("name"), "Test") << "a copy is deep";
  std::ostringstream os;
  os << a;
  EXPECT_EQ(os.str(), a.to_string());
  EXPECT_EQ(a.to_string().rfind("Account(id=1,name=\"Test\",", 0), 0u) << a.to_string();
  fbe::message c = std::move(b);
  EXPECT_EQ(c.get<std::string_view>("name"), "Other");
  EXPECT_THROW(account.from_json("{\"id\":\"x\"}"), fbe::error);
  try {
    account.from_json("{\"nme\":1}");
  } catch (const fbe::error &e) {
    EXPECT_EQ(e.status(), FBE_ERR_UNKNOWN_FIELD);
  }
}

TEST(View, ReadsInPlace) {
  auto account = *proto().find("Account");
  fbe::message m = account.from_json(ACCOUNT_JSON);
  for (fbe::model model : {fbe::model::standard, fbe::model::final_}) {
    auto bytes = m.encode(model);
    fbe::view v = account.open_view(bytes, model);
    EXPECT_EQ(v["id"].get<std::int32_t>(), 1);
    std::string_view name = v["name"].get<std::string_view>();
    EXPECT_EQ(name, "Test");
    EXPECT_GE(reinterpret_cast<const std::uint8_t *>(name.data()), bytes.data()) << "borrowed from the bytes";
    EXPECT_EQ(v["wallet"]["currency"].get<std::string_view>(), "USD");
    EXPECT_FALSE(v["asset"].is_null());
    EXPECT_EQ(v["asset"].deref()["amount"].get<double>(), 100.0);
    std::vector<std::int32_t> ids;
    for (fbe::view_ref order : v["orders"]) ids.push_back(order["id"].get<std::int32_t>());
    EXPECT_EQ(ids, (std::vector<std::int32_t>{1, 2}));
    EXPECT_FALSE(v["no_such_field"].ok());
    EXPECT_THROW(v["no_such_field"].get<int>(), fbe::error);
    EXPECT_EQ(v.to_json(), m.to_json());
    EXPECT_EQ(v.to_string(), m.to_string());
    EXPECT_EQ(v.to_message(), m);
    EXPECT_TRUE(v == m.root());
  }
}

TEST(View, IntegersTooWideForTheAskedTypeAreRangeErrors) {
  auto account = *proto().find("Account");
  fbe::message m = account.make();
  m.set("id", 300);
  auto bytes = m.encode();
  fbe::view v = account.open_view(bytes);
  EXPECT_EQ(v["id"].get<std::int16_t>(), 300);
  try {
    v["id"].get<std::int8_t>();
    FAIL() << "300 read as an int8";
  } catch (const fbe::error &e) {
    EXPECT_EQ(e.status(), FBE_ERR_RANGE);
  }
  m.set("id", -1);
  bytes = m.encode();
  EXPECT_THROW(account.open_view(bytes)["id"].get<std::uint32_t>(), fbe::error);
  EXPECT_THROW(m.get<std::uint32_t>("id"), fbe::error);
}

TEST(Lifetime, ValuesKeepTheirSchemaAlive) {
  std::vector<std::uint8_t> bytes;
  std::optional<fbe::message> m;
  std::optional<fbe::view> v;
  std::optional<fbe::struct_type> t;
  {
    auto s = proto();
    t = s.find("Account");
    m = t->from_json(ACCOUNT_JSON);
    bytes = m->encode();
    v = t->open_view(bytes);
  }  // the user's schema is gone
  EXPECT_EQ(m->to_string().rfind("Account(", 0), 0u);
  EXPECT_EQ(v->to_json(), m->to_json());
  EXPECT_EQ(t->decode(bytes), *m);
  EXPECT_EQ(t->full_name(), "proto.Account");
}

}  // namespace

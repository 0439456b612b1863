// Memory back where it was after a million cycles (fbe_memory_in_use: the core's exact
// count of what it holds), through every owning handle of the API.
#include <gtest/gtest.h>

#include "fbe/fbe.hpp"

namespace {

TEST(Memory, AMillionCyclesLeaveNothingBehind) {
  std::size_t before = fbe_memory_in_use();
  {
    auto s = fbe::schema::load_package("proto", {FBE_SCHEMAS_DIR});
    auto account = *s.find("Account");
    fbe::message m = account.make();
    m.set("name", "Test");
    m["orders"].append()["symbol"].set("EURUSD");
    auto bytes = m.encode();
    fbe::buffer out;
    fbe::message reused = account.make();
    for (int i = 0; i < 1000000; i++) {
      m.set("id", i);
      out.clear();
      m.encode(out);
      switch (i % 4) {
        case 0: account.decode_into(reused, fbe::bytes_view(out.data(), out.size())); break;
        case 1: EXPECT_EQ(account.open_view(bytes)["name"].get<std::string_view>(), "Test"); break;
        case 2: {
          fbe::message copy = m;
          EXPECT_EQ(copy.get<int>("id"), i);
          break;
        }
        default: {
          auto r = account.try_decode(fbe::bytes_view(bytes.data(), 3));
          EXPECT_FALSE(r);
        }
      }
    }
  }
  EXPECT_EQ(fbe_memory_in_use(), before);
}

TEST(Memory, StreamsAndClientsLeaveNothingBehind) {
  std::size_t before = fbe_memory_in_use();
  for (int round = 0; round < 1000; round++) {
    auto s = fbe::schema::load_package("exchange", {FBE_SCHEMAS_DIR});
    fbe::buffer wire;
    fbe::client c(s, "exchange", [&](fbe::bytes_view b) { wire.append(b.data(), b.size()); });
    c.request(s.find("Heartbeat")->make(), [](fbe::request_end, const fbe::message_ref *, const fbe::error *) {});
    int got = 0;
    fbe::receiver r(s, "exchange", fbe::model::standard, [&](const fbe::message_ref &) { got++; });
    r.feed(fbe::bytes_view(wire.data(), wire.size()));
    EXPECT_EQ(got, 1);
  }
  EXPECT_EQ(fbe_memory_in_use(), before);
}

}  // namespace

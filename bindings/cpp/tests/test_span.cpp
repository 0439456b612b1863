// Built as C++20 where the compiler has std::span: bytes pass as std::span<const
// std::uint8_t> both ways, and the headers compile under a newer standard too.
#include <gtest/gtest.h>

#include <span>
#include <string_view>
#include <vector>

#include "fbe/fbe.hpp"

namespace {

TEST(Span, BytesInAndOut) {
  auto account = *fbe::schema::load_package("proto", {FBE_SCHEMAS_DIR}).find("Account");
  fbe::message m = account.make();
  m.set("name", "Test");
  fbe::buffer out;
  m.encode(out);
  std::span<const std::uint8_t> bytes(out.data(), out.size());
  EXPECT_EQ(account.decode(bytes), m);
  EXPECT_EQ(account.verify(bytes), out.size());
  std::span<const std::uint8_t> back = fbe::bytes_view(out);
  EXPECT_EQ(back.size(), out.size());
  std::string_view text(reinterpret_cast<const char *>(out.data()), out.size());
  EXPECT_EQ(account.decode(fbe::bytes_view(text)), m);
}

}  // namespace

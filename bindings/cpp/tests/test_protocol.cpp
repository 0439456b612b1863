// The protocol over the core: sender -> receiver, client <-> server (responses,
// rejects, timeouts, reset), the proxy, log hooks, and a handler's exception.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "fbe/fbe.hpp"

namespace {

fbe::schema exchange() { return fbe::schema::load_package("exchange", {FBE_SCHEMAS_DIR}); }

fbe::message new_order(const fbe::schema &s, const char *id) {
  return s.find("NewOrder")->from_json(std::string("{\"id\":\"") + id +
                                       "\",\"symbol\":\"EURUSD\",\"side\":0,\"price\":1.5,\"quantity\":10.0}");
}

TEST(Stream, SenderToReceiverInAnyPieces) {
  auto s = fbe::schema::load_package("proto", {FBE_SCHEMAS_DIR});
  fbe::buffer wire;
  fbe::sender out(s, "proto", fbe::model::final_, [&](fbe::bytes_view b) { wire.append(b.data(), b.size()); });
  std::vector<std::string> sent_log;
  out.on_log([&](std::string_view text) { sent_log.emplace_back(text); });
  fbe::message m = s.find("AccountMessage")->make();
  m["body"]["name"].set("Test");
  out.send(m);
  out.send(m);
  EXPECT_EQ(out.bytes(), wire.size());
  ASSERT_EQ(sent_log.size(), 2u);
  EXPECT_EQ(sent_log[0], m.to_string());
  std::vector<fbe::message> got;
  fbe::receiver in(s, "proto", fbe::model::final_, [&](const fbe::message_ref &msg) { got.emplace_back(msg); });
  for (std::size_t i = 0; i < wire.size(); i++) in.feed(fbe::bytes_view(wire.data() + i, 1));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1], m);
  EXPECT_EQ(in.pending(), 0u);
}

TEST(Stream, BadFrameIsTheCoresErrorAndHandlerExceptionsComeOut) {
  auto s = fbe::schema::load_package("proto", {FBE_SCHEMAS_DIR});
  fbe::receiver in(s, "proto", fbe::model::standard, [](const fbe::message_ref &) {
    throw std::logic_error("handler refused");
  });
  std::vector<std::uint8_t> junk{8, 0, 0, 0, 1, 0, 0, 0};
  EXPECT_THROW(in.feed(junk), fbe::error);
  fbe::buffer wire;
  fbe::sender out(s, "proto", fbe::model::standard, [&](fbe::bytes_view b) { wire.append(b.data(), b.size()); });
  out.send(s.find("OrderMessage")->make());
  EXPECT_THROW(in.feed(fbe::bytes_view(wire.data(), wire.size())), std::logic_error);
}

TEST(Client, RequestResponseRejectTimeoutReset) {
  auto s = exchange();
  fbe::buffer to_server, to_client;
  std::vector<fbe::message> requests;
  fbe::server srv(
      s, "exchange", fbe::model::standard, [&](const fbe::message_ref &r) { requests.emplace_back(r); },
      [&](fbe::bytes_view b) { to_client.append(b.data(), b.size()); });
  fbe::client cli(s, "exchange", [&](fbe::bytes_view b) { to_server.append(b.data(), b.size()); });
  std::vector<std::string> ends;
  auto done = [&](fbe::request_end end, const fbe::message_ref *msg, const fbe::error *err) {
    std::string e = std::to_string(static_cast<int>(end));
    if (msg) e += " " + std::string(msg->type().name());
    if (err) e += std::string(" ") + err->status_name() + " " + err->what();
    ends.push_back(e);
  };
  cli.request(new_order(s, "00000000-0000-0000-0000-000000000001"), done, 0, 1);
  cli.request(new_order(s, "00000000-0000-0000-0000-000000000002"), done, 0, 2);
  cli.request(new_order(s, "00000000-0000-0000-0000-000000000003"), done, 100, 3);
  EXPECT_THROW(cli.request(new_order(s, "00000000-0000-0000-0000-000000000001"), done), fbe::error)
      << "a duplicate id";
  EXPECT_EQ(cli.pending(), 3u);
  srv.serve(fbe::bytes_view(to_server.data(), to_server.size()));
  ASSERT_EQ(requests.size(), 3u);
  fbe::message accepted = s.find("OrderAccepted")->make();
  accepted.set("order", 7);
  srv.reply(requests[0], accepted);
  fbe::message reject = s.find("Reject")->make();
  reject.set("reason", "no");
  srv.reply(requests[1], reject);
  fbe::message wrong = s.find("OrderCancelled")->make();
  EXPECT_THROW(srv.reply(requests[0], wrong), fbe::error) << "not NewOrder's answer";
  cli.feed(fbe::bytes_view(to_client.data(), to_client.size()));
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(ends[0], "1 OrderAccepted");
  EXPECT_EQ(ends[1].rfind("2 Reject FBE_ERR_REJECTED ", 0), 0u) << ends[1];
  EXPECT_EQ(cli.watchdog(1000), 1u);
  EXPECT_EQ(ends[2], "3 FBE_ERR_TIMEOUT Timeout!");
  cli.request(new_order(s, "00000000-0000-0000-0000-000000000004"), done, 0, 2000);
  cli.reset();
  EXPECT_EQ(ends[3], "4 FBE_ERR_RESET Reset client!");
  EXPECT_EQ(cli.pending(), 0u);
}

TEST(Proxy, FramesUndecoded) {
  auto s = exchange();
  fbe::buffer wire;
  fbe::sender out(s, "exchange", fbe::model::standard, [&](fbe::bytes_view b) { wire.append(b.data(), b.size()); });
  out.send(new_order(s, "00000000-0000-0000-0000-000000000001"));
  std::vector<std::uint8_t> frame;
  bool known = false;
  fbe::proxy p(s, "exchange", fbe::model::standard, true,
               [&](std::uint32_t, const std::optional<fbe::struct_type> &type, fbe::bytes_view f) {
                 known = type && type->name() == "NewOrder";
                 frame = f.to_vector();
               });
  p.feed(fbe::bytes_view(wire.data(), wire.size()));
  EXPECT_TRUE(known);
  EXPECT_EQ(frame, wire.to_vector());
}

}  // namespace

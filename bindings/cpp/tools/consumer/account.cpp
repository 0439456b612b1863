// The reference README's Account built field by field, encoded, and held to the bytes
// given as hex (the conformance vector pub-proto-Account-readme-standard); then decoded,
// verified and compared back. Usage: account SCHEMAS_DIR HEX
#include <fbe/fbe.hpp>

#include <cstdio>
#include <iostream>
#include <string>

namespace {

std::string to_hex(const std::vector<std::uint8_t> &bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (std::uint8_t b : bytes) {
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  return hex;
}

void order(const fbe::ref &orders, int id, const char *side, const char *type, double price, double volume) {
  fbe::ref o = orders.append();
  o["id"].set(id);
  o["symbol"].set("EURUSD");
  o["side"].set_name(side);
  o["type"].set_name(type);
  o["price"].set(price);
  o["volume"].set(volume);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: account SCHEMAS_DIR HEX\n");
    return 2;
  }
  try {
    fbe::schema proto = fbe::schema::load_package("proto", {argv[1]});
    fbe::struct_type account = *proto.find("Account");
    fbe::message m = account.make();
    m.set("id", 1);
    m.set("name", "Test");
    m["state"].set_name("initialized|calculated");
    m["wallet"]["currency"].set("USD");
    m["wallet"]["amount"].set(1000.0);
    fbe::ref asset = m["asset"].emplace();
    asset["currency"].set("EUR");
    asset["amount"].set(100.0);
    order(m["orders"], 1, "buy", "market", 1.23456, 1000.0);
    order(m["orders"], 2, "sell", "limit", 1.0, 100.0);
    order(m["orders"], 3, "buy", "stop", 1.5, 10.0);

    std::vector<std::uint8_t> bytes = m.encode();
    if (to_hex(bytes) != argv[2]) {
      std::cerr << "account: the bytes differ:\n  " << to_hex(bytes) << "\n  " << argv[2] << "\n";
      return 1;
    }
    fbe::message back = account.decode(bytes);
    if (!(back == m)) {
      std::cerr << "account: decoded " << back << "\n  built " << m << "\n";
      return 1;
    }
    std::cout << bytes.size() << " bytes, as expected: " << back << "\n";
    return 0;
  } catch (const fbe::error &e) {
    std::cerr << "account: " << e.what() << "\n";
    return 1;
  }
}

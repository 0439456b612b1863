// The C++ driver of the hostile suite (tests/hostile/README.md): runs ONE operation with
// the default limits, through fbe.hpp's public API only, and prints one JSON line,
// {"result":"ok","detail":...} or
// {"result":"error","type":class,"status":the core's status,"message":...}.
//
//   driver OP SCHEMA TYPE INPUT [final]      (the operations of driver.py)
//
// Only fbe::error (the binding's typed error) becomes an "error" line: anything else
// (std::bad_alloc, a stack overflow, an abort) ends the process, and the suite sees it.
// Built by run.py: c++ -std=c++17 -O2 -DFBE_STATIC -Icore/include
// -Ibindings/cpp/include driver.cpp build/release/libfbe.a -lm (as ci/demo.sh does).
#include <fbe/fbe.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr std::size_t CHUNK = 65536;

// The driver's own check failed (driver.py's AssertionError): an error line, not a crash.
struct check_failed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::uint8_t> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// levels bodies linked by `next`, built from the outermost in (no recursion).
fbe::message build_chain(const fbe::struct_type &type, long levels) {
  fbe::message value = type.make();
  fbe::ref at = value.root();
  for (long i = 0; i < levels; i++) {
    at["v"].set(static_cast<std::int32_t>(i));
    if (i + 1 < levels) at = at["next"].emplace();
  }
  return value;
}

std::string json_string(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", c);
      out += esc;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string run(const std::string &op, const std::string &schema_path, const std::string &type_name,
                const std::string &input, bool final) {
  fbe::model m = final ? fbe::model::final_ : fbe::model::standard;
  if (op == "load") {
    fbe::schema::load_file(input);
    return "loaded";
  }
  fbe::schema schema = fbe::schema::load_file(schema_path);
  std::optional<fbe::struct_type> type;
  if (op != "receive") {
    type = schema.find(type_name);
    if (!type) throw std::runtime_error("no type " + type_name);
  }
  if (op == "encode_chain" || op == "deep_hash" || op == "deep_eq" || op == "deep_repr" || op == "deep_json") {
    long levels = std::stol(input);
    fbe::message value = build_chain(*type, levels);
    if (op == "encode_chain") return std::to_string(value.encode().size()) + " bytes";
    if (op == "deep_hash") return "key hash " + std::to_string(value.key_hash());  // the hash of a value's [key] fields
    if (op == "deep_eq") return std::string("equal ") + (value == build_chain(*type, levels) ? "true" : "false");
    if (op == "deep_repr") return std::to_string(value.to_string().size()) + " characters";
    return std::to_string(value.to_json().size()) + " characters";
  }
  std::vector<std::uint8_t> data = read_file(input);
  if (op == "decode") {
    type->decode(data, m);
    return "decoded";
  }
  if (op == "verify") return "model size " + std::to_string(type->verify(data, m));
  if (op == "reencode") {
    std::vector<std::uint8_t> again = type->decode(data, m).encode(m);
    if (again != data)
      throw check_failed("re-encoding gave other bytes (" + std::to_string(again.size()) + ", not " +
                               std::to_string(data.size()) + ")");
    return "same " + std::to_string(again.size()) + " bytes";
  }
  if (op == "from_json") {
    type->from_json(std::string_view(reinterpret_cast<const char *>(data.data()), data.size()));
    return "read";
  }
  if (op == "receive") {
    std::size_t count = 0;
    fbe::receiver receiver(schema, type_name, m, [&count](const fbe::message_ref &) { count++; });
    for (std::size_t at = 0; at < data.size(); at += CHUNK)
      receiver.feed(fbe::bytes_view(data.data() + at, std::min(CHUNK, data.size() - at)));
    return std::to_string(count) + " messages, " + std::to_string(receiver.pending()) + " bytes pending";
  }
  throw std::runtime_error("unknown op " + op);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: driver OP SCHEMA TYPE INPUT [final]\n");
    return 2;
  }
  bool final = argc > 5 && std::string(argv[5]) == "final";
  std::string line;
  try {
    line = "{\"result\":\"ok\",\"detail\":" + json_string(run(argv[1], argv[2], argv[3], argv[4], final)) + "}";
  } catch (const fbe::error &e) {
    line = "{\"result\":\"error\",\"type\":" + json_string(e.class_name()) + ",\"status\":" +
           json_string(e.status_name()) + ",\"message\":" + json_string(e.what()) + "}";
  } catch (const check_failed &e) {
    line = "{\"result\":\"error\",\"type\":\"AssertionError\",\"status\":null,\"message\":" + json_string(e.what()) + "}";
  }
  std::fputs((line + "\n").c_str(), stdout);
  return 0;
}

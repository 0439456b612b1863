// encode with "native": true (docs/TESTEE.md): the value built the way a C++ program
// builds one, through fbe.hpp's typed setters, each JSON value standing for the C++
// value of its kind: true/false a bool, an integer a std::int64_t or std::uint64_t, a
// number with a fraction or an exponent a double, a string a std::string_view (for a
// bytes field the bytes of its Base64, for a decimal or uuid fbe::decimal::parse /
// fbe::uuid::parse, for an enum its name, for a char its one code point), null a
// nullptr, an object a struct filled field by field (or a map), a list the elements.
// Every refusal is the core's. A value C++ cannot even write for its field (a list for
// an int32, an integer past 64 bits, a text that is not Base64) is given to the core's
// JSON reader as it was written, so it is refused in the core's words.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "testee.hpp"

namespace testee {
namespace {

// What C++ has no value for: the JSON reader's refusal of the same text.
void as_written(const fbe::ref &r, const json &v) { r.from_json(v.raw); }

bool base64_decode(const std::string &s, std::vector<std::uint8_t> &out) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  if (s.size() % 4) return false;
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < s.size(); i++) {
    if (s[i] == '=') {
      if (i + 2 < s.size() || (i + 1 < s.size() && s[i + 1] != '=')) return false;
      break;
    }
    int v = value(s[i]);
    if (v < 0) return false;
    acc = acc << 6 | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  return true;
}

void build(const fbe::ref &r, const json &v);

void set_integer(const fbe::ref &r, const json &v) {
  errno = 0;
  char *end = nullptr;
  std::string text(v.raw);
  if (text[0] == '-') {
    long long n = std::strtoll(text.c_str(), &end, 10);
    if (errno == ERANGE) return as_written(r, v);
    r.set(static_cast<std::int64_t>(n));
  } else {
    unsigned long long n = std::strtoull(text.c_str(), &end, 10);
    if (errno == ERANGE) return as_written(r, v);
    r.set(static_cast<std::uint64_t>(n));
  }
}

void set_text(const fbe::ref &r, const json &v) {
  switch (r.kind()) {
    case FBE_KIND_BYTES: {
      std::vector<std::uint8_t> bytes;
      if (!base64_decode(v.text, bytes)) return as_written(r, v);
      return r.set(fbe::bytes_view(bytes));
    }
    case FBE_KIND_DECIMAL: return r.set(fbe::decimal::parse(v.text));
    case FBE_KIND_UUID: return r.set(fbe::uuid::parse(v.text));
    case FBE_KIND_ENUM:
    case FBE_KIND_FLAGS: return r.set_name(v.text);
    case FBE_KIND_CHAR:
    case FBE_KIND_WCHAR: return r.set_char(v.text);
    default: return r.set(std::string_view(v.text));  // a string; elsewhere the core's refusal
  }
}

void build_struct(const fbe::ref &r, const json &v) {
  for (const auto &[name, value] : v.members) build(r[name], value);
}

// A map key from an object member's name: a number, a bool or the text, by the key's kind.
json key_of(const fbe::ref &key, const std::string &name) {
  fbe_kind k = key.kind();
  bool numeric = k != FBE_KIND_BOOL && k <= FBE_KIND_TIMESTAMP && k != FBE_KIND_DECIMAL && k != FBE_KIND_UUID;
  try {
    json parsed = json::parse(name);
    bool use = (parsed.kind == json::integer && (numeric || k == FBE_KIND_ENUM || k == FBE_KIND_FLAGS)) ||
               (parsed.kind == json::number && (k == FBE_KIND_FLOAT || k == FBE_KIND_DOUBLE)) ||
               (parsed.kind == json::boolean && k == FBE_KIND_BOOL);
    if (use) return parsed;
  } catch (const std::exception &) {
  }
  json text;
  text.kind = json::string;
  text.text = name;
  return text;
}

void build_map(const fbe::ref &r, const json &v) {
  if (v.kind == json::object) {
    r.clear();
    for (const auto &[name, value] : v.members) {
      auto [key, val] = r.map_append();
      build(key, key_of(key, name));
      build(val, value);
    }
    return;
  }
  for (const auto &pair : v.items)  // [[key, value], ...]: every element a pair
    if (pair.kind != json::array || pair.items.size() != 2) return as_written(r, v);
  r.clear();
  for (const auto &pair : v.items) {
    auto [key, val] = r.map_append();
    build(key, pair.items[0]);
    build(val, pair.items[1]);
  }
}

void build(const fbe::ref &r, const json &v) {
  fbe_kind kind = r.kind();
  if (kind == FBE_KIND_OPTIONAL) {
    if (v.kind == json::null) return r.set(nullptr);
    return build(r.emplace(), v);
  }
  switch (v.kind) {
    case json::null: return r.set(nullptr);
    case json::boolean: return r.set(v.is_true());
    case json::integer:
      if (kind == FBE_KIND_FLOAT || kind == FBE_KIND_DOUBLE) return r.set(std::strtod(std::string(v.raw).c_str(), nullptr));
      if (kind == FBE_KIND_DECIMAL) return r.set(fbe::decimal::parse(v.raw));
      if (kind == FBE_KIND_BOOL || kind > FBE_KIND_FLAGS || kind == FBE_KIND_FLOAT || kind == FBE_KIND_DOUBLE ||
          kind == FBE_KIND_UUID || kind == FBE_KIND_STRING || kind == FBE_KIND_BYTES)
        return as_written(r, v);  // no C++ integer goes there
      return set_integer(r, v);
    case json::number: {
      double d = std::strtod(std::string(v.raw).c_str(), nullptr);
      if (std::isinf(d)) return as_written(r, v);  // past a double: no C++ value
      return r.set(d);
    }
    case json::string: return set_text(r, v);
    case json::object:
      if (kind == FBE_KIND_STRUCT) return build_struct(r, v);
      if (kind == FBE_KIND_MAP || kind == FBE_KIND_HASH) return build_map(r, v);
      return as_written(r, v);
    case json::array:
      if (kind == FBE_KIND_ARRAY) {
        if (v.items.size() != r.size()) return as_written(r, v);
        for (std::size_t i = 0; i < v.items.size(); i++) build(r[i], v.items[i]);
        return;
      }
      if (kind == FBE_KIND_VECTOR || kind == FBE_KIND_LIST || kind == FBE_KIND_SET) {
        r.clear();
        for (const auto &item : v.items) build(r.append(), item);
        return;
      }
      if (kind == FBE_KIND_MAP || kind == FBE_KIND_HASH) return build_map(r, v);
      return as_written(r, v);
  }
}

}  // namespace

fbe::message native_build(const fbe::struct_type &type, const json &value) {
  fbe::message msg = type.make();
  if (value.kind != json::object) {
    msg.read_json(value.raw);  // not a struct: the JSON reader's words
    return msg;
  }
  build_struct(msg.root(), value);
  return msg;
}

}  // namespace testee

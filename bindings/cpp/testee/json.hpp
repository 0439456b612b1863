// The testee's reader of the runner's requests: a JSON tree that keeps each value's
// source text (numbers stay exact: a 64-bit integer or a decimal is never a double,
// and a value's text can go to the core's JSON reader as it was written), and the
// writer's string escaping. The protocol's JSON only; values go through fbe.hpp.
#ifndef FBE_CPP_TESTEE_JSON_HPP
#define FBE_CPP_TESTEE_JSON_HPP

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace testee {

struct json {
  enum kind_t { null, boolean, integer, number, string, array, object } kind = null;
  std::string_view raw;                               // the value's text in the request
  std::string text;                                   // a string's decoded UTF-8
  std::vector<json> items;                            // an array's elements
  std::vector<std::pair<std::string, json>> members;  // an object's members, in order

  const json *find(std::string_view name) const {
    for (const auto &m : members)
      if (m.first == name) return &m.second;
    return nullptr;
  }
  bool is_true() const { return kind == boolean && raw == "true"; }

  static json parse(std::string_view text) {
    std::size_t pos = 0;
    json v = parse_value(text, pos, 0);
    skip_blank(text, pos);
    if (pos != text.size()) throw std::runtime_error("malformed request: text after the JSON value");
    return v;
  }

 private:
  static void skip_blank(std::string_view s, std::size_t &p) {
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r')) p++;
  }
  [[noreturn]] static void bad() { throw std::runtime_error("malformed request: not JSON"); }

  static void put_utf8(std::string &out, std::uint32_t cp) {
    // a lone surrogate too, as its 3-byte form: the core refuses it (fbe_utf8_check)
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  static std::uint32_t hex4(std::string_view s, std::size_t p) {
    if (p + 4 > s.size()) bad();
    std::uint32_t v = 0;
    for (std::size_t i = p; i < p + 4; i++) {
      char c = s[i];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else bad();
    }
    return v;
  }
  static std::string parse_string(std::string_view s, std::size_t &p) {
    std::string out;
    p++;  // the opening quote
    while (true) {
      if (p >= s.size()) bad();
      char c = s[p++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (p >= s.size()) bad();
      char e = s[p++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = hex4(s, p);
          p += 4;
          if (cp >= 0xD800 && cp < 0xDC00 && p + 6 <= s.size() && s[p] == '\\' && s[p + 1] == 'u') {
            std::uint32_t lo = hex4(s, p + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              p += 6;
            }
          }
          put_utf8(out, cp);
          break;
        }
        default: bad();
      }
    }
  }
  static json parse_value(std::string_view s, std::size_t &p, int depth) {
    if (depth > 4096) bad();
    skip_blank(s, p);
    if (p >= s.size()) bad();
    json v;
    std::size_t start = p;
    char c = s[p];
    if (c == '{') {
      v.kind = object;
      p++;
      skip_blank(s, p);
      if (p < s.size() && s[p] == '}') {
        p++;
      } else {
        while (true) {
          skip_blank(s, p);
          if (p >= s.size() || s[p] != '"') bad();
          std::string name = parse_string(s, p);
          skip_blank(s, p);
          if (p >= s.size() || s[p] != ':') bad();
          p++;
          v.members.emplace_back(std::move(name), parse_value(s, p, depth + 1));
          skip_blank(s, p);
          if (p < s.size() && s[p] == ',') { p++; continue; }
          if (p < s.size() && s[p] == '}') { p++; break; }
          bad();
        }
      }
    } else if (c == '[') {
      v.kind = array;
      p++;
      skip_blank(s, p);
      if (p < s.size() && s[p] == ']') {
        p++;
      } else {
        while (true) {
          v.items.push_back(parse_value(s, p, depth + 1));
          skip_blank(s, p);
          if (p < s.size() && s[p] == ',') { p++; continue; }
          if (p < s.size() && s[p] == ']') { p++; break; }
          bad();
        }
      }
    } else if (c == '"') {
      v.kind = string;
      v.text = parse_string(s, p);
    } else if (s.substr(p, 4) == "null") {
      p += 4;
    } else if (s.substr(p, 4) == "true") {
      v.kind = boolean;
      p += 4;
    } else if (s.substr(p, 5) == "false") {
      v.kind = boolean;
      p += 5;
    } else {
      // JSON number syntax; integral when it has no fraction and no exponent
      std::size_t i = p;
      if (i < s.size() && s[i] == '-') i++;
      std::size_t digits = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++;
      if (i == digits || (s[digits] == '0' && i > digits + 1)) bad();
      v.kind = integer;
      if (i < s.size() && s[i] == '.') {
        std::size_t frac = ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++;
        if (i == frac) bad();
        v.kind = number;
      }
      if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) i++;
        std::size_t exp = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') i++;
        if (i == exp) bad();
        v.kind = number;
      }
      p = i;
    }
    v.raw = s.substr(start, p - start);
    return v;
  }
};

// s as a JSON string (its bytes kept: UTF-8 stays UTF-8).
inline void put_string(std::string &out, std::string_view s) {
  static const char digits[] = "0123456789abcdef";
  out += '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      out += "\\u00";
      out += digits[c >> 4];
      out += digits[c & 15];
    } else {
      out += ch;
    }
  }
  out += '"';
}

inline std::string quoted(std::string_view s) {
  std::string out;
  put_string(out, s);
  return out;
}

}  // namespace testee

#endif

// fbe-cpp-testee: one JSON request per stdin line, one JSON answer per stdout line
// (docs/TESTEE.md): load, encode (native too), decode and text (from a view too),
// verify, stream-encode, stream-decode, describe, and the conversations' sessions.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>

#include "testee.hpp"

namespace testee {

const json &member(const json &req, std::string_view name) {
  const json *v = req.find(name);
  if (!v) throw bad_request("request needs \"" + std::string(name) + "\"");
  return *v;
}

std::string text_member(const json &req, std::string_view name) {
  const json &v = member(req, name);
  if (v.kind != json::string) throw bad_request("\"" + std::string(name) + "\" must be a string");
  return v.text;
}

fbe::model model_of(const json &req) {
  const json *m = req.find("model");
  return m && m->kind == json::string && m->text == "final" ? fbe::model::final_ : fbe::model::standard;
}

std::vector<std::uint8_t> hex_of(const json &req) {
  const json *h = req.find("hex");
  const char *why = "request needs \"hex\" (an even number of hex digits)";
  if (!h || h->kind != json::string || h->text.size() % 2) throw bad_request(why);
  std::vector<std::uint8_t> out(h->text.size() / 2);
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw bad_request(why);
  };
  for (std::size_t i = 0; i < out.size(); i++)
    out[i] = static_cast<std::uint8_t>(nibble(h->text[2 * i]) << 4 | nibble(h->text[2 * i + 1]));
  return out;
}

std::string hex(fbe::bytes_view bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out + "\"";
}

std::string fail(const fbe::error &e) {
  return "{\"ok\":false,\"status\":" + quoted(e.status_name()) + ",\"error\":" + quoted(e.what()) + "}";
}

static bool is_identifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

void state::forget() {
  sessions.clear();  // (they hold the schemas of the load)
  cache_.clear();
  includes_.clear();
  for (const auto &f : package_files_) std::remove(f.c_str());
  package_files_.clear();
  if (!packages_dir_.empty()) ::rmdir(packages_dir_.c_str());
  packages_dir_.clear();
}

void state::load(const json &req) {
  forget();
  if (const json *packages = req.find("packages")) {
    if (packages->kind != json::object) throw bad_request("\"packages\" must be an object: package name -> schema text");
    const char *base = std::getenv("TMPDIR");
    std::string dir = std::string(base && *base ? base : "/tmp") + "/fbe-cpp-testee-XXXXXX";
    if (!::mkdtemp(dir.data())) throw bad_request("cannot create a directory for the packages' schema texts");
    packages_dir_ = dir;
    includes_.push_back(dir);
    for (const auto &[name, text] : packages->members) {
      if (text.kind != json::string) throw bad_request("\"packages\" must be an object: package name -> schema text");
      if (!is_identifier(name)) throw bad_request("\"packages\": '" + name + "' is not a package name");
      std::string path = dir + "/" + name + ".fbe";
      std::FILE *f = std::fopen(path.c_str(), "wb");
      bool ok = f && std::fwrite(text.text.data(), 1, text.text.size(), f) == text.text.size();
      if (f && std::fclose(f)) ok = false;
      if (f) package_files_.push_back(path);
      if (!ok) throw bad_request("cannot write the schema of package '" + name + "' to " + path);
    }
  }
  if (const json *inc = req.find("include")) {
    if (inc->kind != json::array) throw bad_request("\"include\" must be an array of directory names");
    for (const auto &d : inc->items) {
      if (d.kind != json::string) throw bad_request("\"include\" must be an array of directory names");
      includes_.push_back(d.text);
    }
  }
  if (const json *files = req.find("files")) {
    for (const auto &f : files->items) {
      if (f.kind != json::string) throw bad_request("\"files\" must be an array of file names");
      try {
        fbe::schema::load_file(f.text, includes_);
      } catch (const fbe::schema_error &e) {
        throw bad_request(e.diagnostics().empty() ? "cannot load " + f.text : e.diagnostics()[0]);
      }
    }
  }
}

fbe::schema state::package(const std::string &name) {
  auto it = cache_.find(name);
  if (it != cache_.end()) return it->second;
  try {
    fbe::schema s = fbe::schema::load_package(name, includes_);
    cache_.emplace(name, s);
    return s;
  } catch (const fbe::schema_error &e) {
    throw bad_request(e.diagnostics().empty() ? "cannot load package '" + name + "'" : e.diagnostics()[0]);
  }
}

fbe::struct_type state::type_of(const json &req) {
  const json *p = req.find("package"), *t = req.find("type");
  if (!p || !t || p->kind != json::string || t->kind != json::string)
    throw bad_request("request needs \"package\" and \"type\"");
  std::string name = p->text + "." + t->text;
  auto type = package(p->text).find(name);
  if (!type) throw bad_request("no type " + name);
  return *type;
}

namespace {

std::string do_encode(state &st, const json &req) {
  fbe::struct_type type = st.type_of(req);
  const json &value = member(req, "json");
  const json *native = req.find("native");
  fbe::message msg = native && native->is_true() ? native_build(type, value) : type.from_json(value.raw);
  return "{\"ok\":true,\"hex\":" + hex(msg.encode(model_of(req))) + "}";
}

// decode and text; from a view with "view": true (which verifies, trusted or not).
std::string do_decode(state &st, const json &req, bool text) {
  fbe::struct_type type = st.type_of(req);
  std::vector<std::uint8_t> bytes = hex_of(req);
  const json *view = req.find("view"), *trusted = req.find("trusted");
  std::string out;
  if (view && view->is_true()) {
    fbe::view v = type.open_view(bytes, model_of(req));
    out = text ? v.to_string() : v.to_json();
  } else {
    fbe::message m = trusted && trusted->is_true() ? type.decode_trusted(bytes, model_of(req))
                                                   : type.decode(bytes, model_of(req));
    out = text ? m.to_string() : m.to_json();
  }
  return text ? "{\"ok\":true,\"text\":" + quoted(out) + "}" : "{\"ok\":true,\"json\":" + out + "}";
}

std::string do_verify(state &st, const json &req) {
  fbe::struct_type type = st.type_of(req);
  auto size = type.try_verify(hex_of(req), model_of(req));
  if (size) return "{\"ok\":true,\"valid\":true,\"size\":" + std::to_string(*size) + "}";
  return "{\"ok\":true,\"valid\":false,\"reason\":" + quoted(size.error_value().what()) + "}";
}

// The message of a stream item {"schema":PKG,"type":T,"json":VALUE}.
fbe::message stream_item(const fbe::schema &s, const json &item) {
  const json *pkg = item.find("schema"), *type = item.find("type"), *value = item.find("json");
  if (!pkg || !type || pkg->kind != json::string || type->kind != json::string)
    throw bad_request("a message needs \"schema\" and \"type\"");
  std::string name = pkg->text + "." + type->text;
  auto st = s.find(name);
  if (!st) throw bad_request("no type " + name + " in the schema");
  if (!value) throw bad_request(name + ": no \"json\" value");
  try {
    return st->from_json(value->raw);
  } catch (const fbe::error &e) {
    throw bad_request(name + ": " + e.what());
  }
}

std::string stream_item_json(const fbe::message_ref &m) {
  std::string_view full = m.type().full_name(), name = m.type().name();
  return "{\"schema\":\"" + std::string(full.substr(0, full.size() - name.size() - 1)) + "\",\"type\":\"" +
         std::string(name) + "\",\"json\":" + m.to_json() + "}";
}

std::string do_stream_encode(state &st, const json &req) {
  std::string package = text_member(req, "package");
  fbe::schema s = st.package(package);
  const json &messages = member(req, "messages");
  if (messages.kind != json::array) throw bad_request("request needs \"messages\"");
  fbe::buffer out;
  fbe::sender snd(s, package, model_of(req), [&](fbe::bytes_view b) { out.append(b.data(), b.size()); });
  for (const auto &item : messages.items) snd.send(stream_item(s, item));
  return "{\"ok\":true,\"hex\":" + hex(fbe::bytes_view(out.data(), out.size())) + "}";
}

// A non-negative integer member below 2^32, or -1 when absent.
long long size_member(const json *v, const char *what) {
  if (!v) return -1;
  if (v->kind != json::integer || v->raw[0] == '-' || v->raw.size() > 10) throw bad_request(what);
  unsigned long long n = std::stoull(std::string(v->raw));
  if (n > 0xFFFFFFFFull) throw bad_request(what);
  return static_cast<long long>(n);
}

std::string do_stream_decode(state &st, const json &req) {
  std::string package = text_member(req, "package");
  fbe::schema s = st.package(package);
  std::vector<std::uint8_t> bytes = hex_of(req);
  std::string messages;
  fbe::receiver rcv(s, package, model_of(req), [&](const fbe::message_ref &m) {
    if (!messages.empty()) messages += ",";
    messages += stream_item_json(m);
  });
  long long step = size_member(req.find("chunk_size"), "\"chunk_size\" must be a positive integer");
  if (step == 0) throw bad_request("\"chunk_size\" must be a positive integer");
  std::size_t pos = 0, size = bytes.size();
  bool fed = false;
  auto feed = [&](std::size_t n) {
    rcv.feed(fbe::bytes_view(bytes.data() + pos, n));
    pos += n;
    fed = true;
  };
  if (const json *chunks = req.find("chunks")) {
    const char *why = "\"chunks\" must be an array of non-negative integers";
    if (chunks->kind != json::array) throw bad_request(why);
    for (const auto &c : chunks->items) {
      long long n = size_member(&c, why);
      feed(std::min<std::size_t>(static_cast<std::size_t>(n), size - pos));
    }
  }
  if (step > 0) {
    while (pos < size) feed(std::min<std::size_t>(static_cast<std::size_t>(step), size - pos));
  } else if (pos < size || !fed) {
    feed(size - pos);
  }
  return "{\"ok\":true,\"messages\":[" + messages + "],\"pending\":" + std::to_string(rcv.pending()) + "}";
}

void put_type(std::string &out, const fbe_type *t) {
  fbe_kind kind = fbe_type_kind(t);
  out += "{\"kind\":" + quoted(fbe_kind_name(kind));
  if (kind == FBE_KIND_STRUCT) {
    out += ",\"struct\":" + quoted(fbe_struct_full_name(fbe_type_struct(t)));
  } else if (kind == FBE_KIND_ENUM || kind == FBE_KIND_FLAGS) {
    const fbe_enum *e = fbe_type_enum(t);
    out += ",\"enum\":" + quoted(fbe_enum_full_name(e)) + ",\"base\":" + quoted(fbe_kind_name(fbe_enum_base(e)));
    out += ",\"values\":[";
    for (std::size_t i = 0; i < fbe_enum_value_count(e); i++)
      out += (i ? "," : "") + std::to_string(fbe_enum_value_at(e, i));
    out += "]";
  } else if (kind == FBE_KIND_ARRAY) {
    out += ",\"size\":" + std::to_string(fbe_type_array_size(t));
  }
  if (fbe_type_key(t)) {
    out += ",\"key\":";
    put_type(out, fbe_type_key(t));
  }
  if (fbe_type_element(t)) {
    out += ",\"elem\":";
    put_type(out, fbe_type_element(t));
  }
  out += "}";
}

std::string do_describe(state &st, const json &req) {
  std::string package = text_member(req, "package");
  fbe::schema s = st.package(package);
  std::string out = "{\"ok\":true,\"structs\":[";
  bool first = true;
  for (const fbe::struct_type &t : s.structs()) {
    std::string_view full = t.full_name();
    if (full.substr(0, package.size() + 1) != package + ".") continue;  // the root package's own
    out += first ? "{\"name\":" : ",{\"name\":";
    first = false;
    out += quoted(full);
    if (auto base = t.base()) out += ",\"base\":" + quoted(base->full_name());
    out += t.is_message() ? ",\"message\":true,\"fields\":[" : ",\"fields\":[";
    for (std::size_t j = 0; j < t.field_count(); j++) {
      fbe::field_info f = t.field(j);
      out += j ? ",{\"name\":" : "{\"name\":";
      out += quoted(f.name()) + ",\"type\":";
      put_type(out, f.type());
      out += "}";
    }
    out += "]}";
  }
  return out + "]}";
}

std::string answer(state &st, const std::string &line, bool &quit) {
  json req;
  try {
    req = json::parse(line);
  } catch (const std::exception &e) {
    return "{\"ok\":false,\"error\":" + quoted(e.what()) + "}";
  }
  const json *opv = req.find("op");
  std::string op = opv && opv->kind == json::string ? opv->text : "";
  try {
    if (op == "quit") {
      quit = true;
      return "";
    }
    if (op == "load") {
      st.load(req);
      return "{\"ok\":true}";
    }
    if (op == "encode") return do_encode(st, req);
    if (op == "decode") return do_decode(st, req, false);
    if (op == "text") return do_decode(st, req, true);
    if (op == "verify") return do_verify(st, req);
    if (op == "stream-encode") return do_stream_encode(st, req);
    if (op == "stream-decode") return do_stream_decode(st, req);
    if (op == "describe") return do_describe(st, req);
    std::string out;
    if (conversation(st, op, req, out)) return out;
    return "{\"ok\":false,\"error\":\"unknown op\"}";
  } catch (const fbe::error &e) {
    return fail(e);
  } catch (const bad_request &e) {
    return "{\"ok\":false,\"error\":" + quoted(e.what()) + "}";
  } catch (const std::bad_alloc &) {
    return "{\"ok\":false,\"status\":\"FBE_ERR_NOMEM\",\"error\":\"out of memory\"}";
  }
}

}  // namespace
}  // namespace testee

int main(int argc, char **) {
  if (argc != 1) {
    std::cerr << "usage: fbe-cpp-testee   (JSON requests on stdin, see docs/TESTEE.md)\n";
    return 2;
  }
  std::ios::sync_with_stdio(false);
  testee::state st;
  std::string line;
  while (std::getline(std::cin, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
    if (line.empty()) continue;
    bool quit = false;
    std::string out = testee::answer(st, line, quit);
    if (quit) break;
    std::cout << out << '\n' << std::flush;
  }
  return 0;
}

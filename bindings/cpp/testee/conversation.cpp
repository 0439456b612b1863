// The conversations (docs/TESTEE.md "Conversations"): sessions that are an
// fbe::client, an fbe::server or an fbe::proxy of a package. What a session sends and
// what its callbacks see is gathered, then written into the answer of the request that
// caused it.
#include <optional>
#include <string>

#include "testee.hpp"

namespace testee {
namespace {

const char *const END_NAMES[] = {"sent", "responded", "rejected", "timeout", "reset"};

std::string message_json(const fbe::message_ref &m) {
  return "{\"type\":" + quoted(m.type().full_name()) + ",\"json\":" + m.to_json() + "}";
}

void add(std::string &list, const std::string &item) {
  if (!list.empty()) list += ",";
  list += item;
}

std::uint64_t u64_member(const json &req, const char *name, const char *why) {
  const json *v = req.find(name);
  if (!v) return 0;
  if (v->kind != json::integer || v->raw[0] == '-') throw bad_request(why);
  return std::stoull(std::string(v->raw));
}

struct conversation_session : session {
  fbe::schema schema;
  std::string package;
  fbe::buffer wire;                             // bytes sent since the last answer
  std::string ended, notified, items, log;      // JSON array elements since the last answer
  std::optional<fbe::client> client;
  std::optional<fbe::server> server;
  std::optional<fbe::proxy> proxy;
  std::vector<fbe::message> requests;           // a server's, kept for reply

  conversation_session(fbe::schema s, std::string pkg) : schema(std::move(s)), package(std::move(pkg)) {}

  fbe::sink_fn to_wire() {
    return [this](fbe::bytes_view b) { wire.append(b.data(), b.size()); };
  }
  fbe::log_fn logger(const char *way) {
    return [this, way](std::string_view text) { add(log, quoted(std::string(way) + std::string(text))); };
  }

  // The message of the request's "type" (P's own "Name", or "pkg.Name") and "json".
  fbe::message message_of(const json &req) {
    const json *type = req.find("type"), *value = req.find("json");
    if (!type || !value || type->kind != json::string) throw bad_request("request needs \"type\" and \"json\"");
    std::optional<fbe::struct_type> st;
    if (type->text.find('.') != std::string::npos) st = schema.find(type->text);
    if (!st) st = schema.find(package + "." + type->text);
    if (!st) throw bad_request("no such type");
    return st->from_json(value->raw);
  }

  // ok (or the error), what was sent, the lists the op reports, the log.
  std::string answer(const fbe::error *err, bool hex_too, const std::string &lists) {
    std::string out = err ? fail(*err) : "{\"ok\":true}";
    out.pop_back();
    if (hex_too) out += ",\"hex\":" + hex(fbe::bytes_view(wire.data(), wire.size()));
    wire.clear();
    auto put = [&](const char *name, std::string &list) {
      out += ",\"" + std::string(name) + "\":[" + list + "]";
      list.clear();
    };
    if (lists.find('e') != std::string::npos) put("ended", ended);
    if (lists.find('n') != std::string::npos) put("notified", notified);
    if (lists.find('r') != std::string::npos) put("requests", items);
    if (lists.find('f') != std::string::npos) put("frames", items);
    if (!log.empty()) put("log", log);
    return out + "}";
  }

  // Runs f, answering its fbe::error (if any) with the lists gathered anyway.
  template <class F>
  std::string run(F &&f, bool hex_too, const std::string &lists) {
    try {
      f();
    } catch (const fbe::error &e) {
      return answer(&e, hex_too, lists);
    }
    return answer(nullptr, hex_too, lists);
  }

  // The request's "hex" in pieces of "chunk_size" (default: whole).
  template <class Feed>
  std::string feed(const json &req, Feed &&to, const std::string &lists) {
    std::vector<std::uint8_t> bytes = hex_of(req);
    std::uint64_t chunk = u64_member(req, "chunk_size", "\"chunk_size\" must be a positive integer");
    std::size_t size = bytes.size();
    if (!chunk || chunk > size) chunk = size ? size : 1;
    return run(
        [&] {
          for (std::size_t at = 0; at < size || (!size && !at); at += chunk) {
            std::size_t n = std::min<std::size_t>(size - at, chunk);
            to(fbe::bytes_view(bytes.data() + at, n));
            if (!size) break;
          }
        },
        false, lists);
  }

  bool handle(const std::string &op, const json &req, std::string &out) override {
    if (op == "request") {
      if (!client) throw bad_request("not a client session");
      const char *why = "\"now\", \"timeout\" and \"token\" must be non-negative integers";
      std::uint64_t now = u64_member(req, "now", why), timeout = u64_member(req, "timeout", why);
      std::uint64_t token = u64_member(req, "token", why);
      fbe::message msg = message_of(req);
      out = run(
          [&] {
            client->request(
                msg,
                [this, token](fbe::request_end end, const fbe::message_ref *m, const fbe::error *e) {
                  std::string item = "{\"token\":" + std::to_string(token) + ",\"end\":\"" +
                                     END_NAMES[static_cast<int>(end)] + "\"";
                  if (m) item += ",\"type\":" + quoted(m->type().full_name()) + ",\"json\":" + m->to_json();
                  if (e) item += ",\"status\":" + quoted(e->status_name()) + ",\"error\":" + quoted(e->what());
                  add(ended, item + "}");
                },
                timeout, now);
          },
          true, "e");
    } else if (op == "feed") {
      if (server) throw bad_request("a server session is fed by \"serve\"");
      if (client) out = feed(req, [&](fbe::bytes_view b) { client->feed(b); }, "en");
      else out = feed(req, [&](fbe::bytes_view b) { proxy->feed(b); }, "f");
    } else if (op == "watchdog" || op == "reset") {
      if (!client) throw bad_request("not a client session");
      if (op == "watchdog") client->watchdog(u64_member(req, "now", "\"now\" must be a non-negative integer"));
      else client->reset();
      out = answer(nullptr, false, "e");
    } else if (op == "serve") {
      if (!server) throw bad_request("not a server session");
      out = feed(req, [&](fbe::bytes_view b) { server->serve(b); }, "r");
    } else if (op == "reply") {
      if (!server) throw bad_request("not a server session");
      std::uint64_t i = u64_member(req, "request", "no such request");
      if (i >= requests.size()) throw bad_request("no such request");
      fbe::message reply = message_of(req);
      out = run([&] { server->reply(requests[i], reply); }, true, "");
    } else if (op == "send") {
      if (proxy) throw bad_request("a proxy sends nothing");
      fbe::message msg = message_of(req);
      out = run([&] { client ? client->send(msg) : server->send(msg); }, true, client ? "e" : "");
    } else {
      return false;
    }
    return true;
  }
};

void open_session(state &st, const std::string &op, const json &req) {
  std::string name = text_member(req, "session");
  if (st.sessions.count(name)) throw bad_request("a session of that name is open");
  std::string package = text_member(req, "package");
  auto s = std::make_unique<conversation_session>(st.package(package), package);
  const json *logv = req.find("log"), *verify = req.find("verify");
  bool log = logv && logv->is_true();
  fbe::model m = model_of(req);
  if (op == "client") {
    fbe::client_options o;
    o.wire = m;
    o.max_pending = u64_member(req, "max_pending", "\"max_pending\" must be a non-negative integer");
    s->client.emplace(s->schema, package, s->to_wire(), o);
    auto *self = s.get();
    s->client->on_notify([self](const fbe::message_ref &msg) { add(self->notified, message_json(msg)); });
    if (log) {
      s->client->on_send_log(s->logger("send "));
      s->client->on_receive_log(s->logger("receive "));
    }
  } else if (op == "server") {
    auto *self = s.get();
    s->server.emplace(
        s->schema, package, m,
        [self](const fbe::message_ref &msg) {
          self->requests.emplace_back(msg);
          add(self->items, message_json(msg));
        },
        s->to_wire());
    if (log) {
      s->server->on_send_log(s->logger("send "));
      s->server->on_receive_log(s->logger("receive "));
    }
  } else {
    auto *self = s.get();
    s->proxy.emplace(s->schema, package, m, verify && verify->is_true(),
                     [self](std::uint32_t id, const std::optional<fbe::struct_type> &type, fbe::bytes_view frame) {
                       add(self->items, "{\"type_id\":" + std::to_string(id) + ",\"known\":" +
                                            (type ? "true" : "false") + ",\"hex\":" + hex(frame) + "}");
                     });
  }
  st.sessions[name] = std::move(s);
}

}  // namespace

bool conversation(state &st, const std::string &op, const json &req, std::string &out) {
  if (op == "client" || op == "server" || op == "proxy") {
    open_session(st, op, req);
    out = "{\"ok\":true}";
    return true;
  }
  static const char *const ops[] = {"request", "feed", "watchdog", "reset", "serve", "reply", "send", "close"};
  bool known = false;
  for (const char *o : ops) known = known || op == o;
  if (!known) return false;
  std::string name = text_member(req, "session");
  auto it = st.sessions.find(name);
  if (it == st.sessions.end()) throw bad_request("no such session");
  if (op == "close") {
    st.sessions.erase(it);
    out = "{\"ok\":true}";
    return true;
  }
  return it->second->handle(op, req, out);
}

}  // namespace testee

// The protocol (FORMAT.md 9, docs/CLIENT.md) over the core's sender, receiver, proxy
// and client: fbe::sender, fbe::receiver, fbe::proxy, fbe::client, fbe::server. Sinks
// and handlers are std::function; an exception a handler throws stops the core's call
// and comes out of it (send, feed ...) unchanged.
#ifndef FBE_CPP_PROTOCOL_HPP
#define FBE_CPP_PROTOCOL_HPP

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "fbe/cpp/buffer.hpp"
#include "fbe/cpp/error.hpp"
#include "fbe/cpp/message.hpp"
#include "fbe/cpp/schema.hpp"
#include "fbe/fbe.h"

namespace fbe {

using sink_fn = std::function<void(bytes_view)>;
// The text form of every message sent or received (the log hooks, FORMAT.md 9.5).
using log_fn = std::function<void(std::string_view text)>;

namespace detail {
struct sender_free {
  void operator()(fbe_sender *s) const noexcept { fbe_sender_free(s); }
};
struct receiver_free {
  void operator()(fbe_receiver *r) const noexcept { fbe_receiver_free(r); }
};
struct client_free {
  void operator()(fbe_client *c) const noexcept { fbe_client_free(c); }
};

// What the C callbacks reach: stable in memory while the handle moves.
struct callbacks {
  detail::schema_ptr schema;
  sink_fn sink;
  std::function<void(const message_ref &)> handler;
  log_fn send_log, receive_log;
  std::exception_ptr failure;  // a callback's exception, rethrown after the core's call

  template <class F>
  int guard(F &&f) noexcept {
    try {
      f();
      return 0;
    } catch (...) {
      failure = std::current_exception();
      return 1;
    }
  }
  void rethrow() {
    if (failure) {
      std::exception_ptr e = failure;
      failure = nullptr;
      std::rethrow_exception(e);
    }
  }
  static int on_sink(void *ctx, const std::uint8_t *data, std::size_t size) {
    auto *c = static_cast<callbacks *>(ctx);
    return c->guard([&] { c->sink(bytes_view(data, size)); });
  }
  static int on_message(void *ctx, const fbe_msg *msg) {
    auto *c = static_cast<callbacks *>(ctx);
    return c->handler ? c->guard([&] { c->handler(message_ref(c->schema, msg)); }) : 0;
  }
  static void on_send_log(void *ctx, const fbe_msg *, const char *text, std::size_t size) {
    auto *c = static_cast<callbacks *>(ctx);
    c->guard([&] { c->send_log(std::string_view(text, size)); });
  }
  static void on_receive_log(void *ctx, const fbe_msg *, const char *text, std::size_t size) {
    auto *c = static_cast<callbacks *>(ctx);
    c->guard([&] { c->receive_log(std::string_view(text, size)); });
  }
};

// The core refuses with NULL only for an unknown package or no memory.
[[noreturn]] inline void no_endpoint() { throw error(FBE_ERR_NOT_FOUND); }
}  // namespace detail

// Writes every message sent as one frame of `m` to the sink.
class sender {
 public:
  sender(const schema &s, const std::string &package, model m, sink_fn sink) : cb_(new detail::callbacks) {
    cb_->schema = s.handle();
    cb_->sink = std::move(sink);
    s_.reset(fbe_sender_new(s.raw(), package.c_str(), detail::c_model(m), detail::callbacks::on_sink, cb_.get()));
    if (!s_) detail::no_endpoint();
  }
  void send(const message_ref &msg) {
    fbe_error err;
    fbe_status s = fbe_sender_send(s_.get(), msg.raw(), &err);
    cb_->rethrow();
    detail::check(s, err);
  }
  std::uint64_t bytes() const noexcept { return fbe_sender_bytes(s_.get()); }
  void on_log(log_fn fn) {
    cb_->send_log = std::move(fn);
    fbe_sender_set_log(s_.get(), cb_->send_log ? detail::callbacks::on_send_log : nullptr, cb_.get());
  }

 private:
  std::unique_ptr<detail::callbacks> cb_;
  std::unique_ptr<fbe_sender, detail::sender_free> s_;
};

// Takes a stream in pieces of any size and hands every message to the handler (valid
// during the call: copy it into an fbe::message to keep it).
class receiver {
 public:
  receiver(const schema &s, const std::string &package, model m, std::function<void(const message_ref &)> handler,
           const fbe_limits *limits = nullptr)
      : cb_(new detail::callbacks) {
    cb_->schema = s.handle();
    cb_->handler = std::move(handler);
    r_.reset(fbe_receiver_new(s.raw(), package.c_str(), detail::c_model(m), limits, detail::callbacks::on_message,
                              cb_.get()));
    if (!r_) detail::no_endpoint();
  }
  void feed(bytes_view bytes) {
    fbe_error err;
    fbe_status s = fbe_receiver_feed(r_.get(), bytes.data(), bytes.size(), &err);
    cb_->rethrow();
    detail::check(s, err);
  }
  void reset() noexcept { fbe_receiver_reset(r_.get()); }
  std::size_t pending() const noexcept { return fbe_receiver_pending(r_.get()); }
  std::uint64_t received() const noexcept { return fbe_receiver_received(r_.get()); }
  std::uint64_t skipped() const noexcept { return fbe_receiver_skipped(r_.get()); }
  void on_log(log_fn fn) {
    cb_->receive_log = std::move(fn);
    fbe_receiver_set_log(r_.get(), cb_->receive_log ? detail::callbacks::on_receive_log : nullptr, cb_.get());
  }

 private:
  std::unique_ptr<detail::callbacks> cb_;
  std::unique_ptr<fbe_receiver, detail::receiver_free> r_;
};

// Hands every frame over undecoded: its type id, its type when the protocol knows it,
// and the whole frame (size field included), valid during the call.
class proxy {
 public:
  using frame_fn = std::function<void(std::uint32_t type_id, const std::optional<struct_type> &type, bytes_view frame)>;
  proxy(const schema &s, const std::string &package, model m, bool verify, frame_fn handler,
        const fbe_limits *limits = nullptr)
      : st_(new state) {
    st_->schema = s.handle();
    st_->handler = std::move(handler);
    r_.reset(fbe_proxy_new(s.raw(), package.c_str(), detail::c_model(m), limits, verify ? 1 : 0, on_frame, st_.get()));
    if (!r_) detail::no_endpoint();
  }
  void feed(bytes_view bytes) {
    fbe_error err;
    fbe_status s = fbe_receiver_feed(r_.get(), bytes.data(), bytes.size(), &err);
    st_->rethrow();
    detail::check(s, err);
  }
  void reset() noexcept { fbe_receiver_reset(r_.get()); }
  std::size_t pending() const noexcept { return fbe_receiver_pending(r_.get()); }

 private:
  struct state : detail::callbacks {
    frame_fn handler;
  };
  static int on_frame(void *ctx, std::uint32_t id, const fbe_struct *type, const std::uint8_t *frame, std::size_t size) {
    auto *s = static_cast<state *>(ctx);
    return s->guard([&] {
      std::optional<struct_type> t;
      if (type) t.emplace(s->schema, type);
      s->handler(id, t, bytes_view(frame, size));
    });
  }
  std::unique_ptr<state> st_;
  std::unique_ptr<fbe_receiver, detail::receiver_free> r_;
};

// How a request ended (fbe_request_end).
enum class request_end {
  sent = FBE_REQUEST_SENT,
  responded = FBE_REQUEST_RESPONDED,
  rejected = FBE_REQUEST_REJECTED,
  timed_out = FBE_REQUEST_TIMED_OUT,
  reset = FBE_REQUEST_RESET
};

struct client_options {
  model wire = model::standard;
  std::size_t max_pending = 0;  // 0: the core's default
  const fbe_limits *limits = nullptr;
};

// The request/response client (docs/CLIENT.md): no threads and no timers, the caller
// passes the time (ns of a clock that does not go back) and calls watchdog().
class client {
 public:
  // msg: the response or the reject (else null); err: the failure (rejected, timed out,
  // reset; else null). Both valid during the call.
  using done_fn = std::function<void(request_end end, const message_ref *msg, const error *err)>;
  using notify_fn = std::function<void(const message_ref &)>;

  client(const schema &s, const std::string &package, sink_fn sink, client_options opts = client_options()) : st_(new state) {
    st_->schema = s.handle();
    st_->sink = std::move(sink);
    fbe_client_options o{};
    o.model = detail::c_model(opts.wire);
    o.limits = opts.limits;
    o.max_pending = opts.max_pending;
    o.sink = detail::callbacks::on_sink;
    o.sink_ctx = st_.get();
    o.done = on_done;
    o.notify = detail::callbacks::on_message;
    o.ctx = st_.get();
    fbe_error err;
    c_.reset(fbe_client_new(s.raw(), package.c_str(), &o, &err));
    if (!c_) throw error(err);
  }

  // Sends a request; done is called once when it ends (at once for a type without a
  // response). Refusals (not a request type, a duplicate id, the cap) throw.
  void request(const message_ref &msg, done_fn done, std::uint64_t timeout_ns = 0, std::uint64_t now = 0) {
    std::uint64_t token = st_->next_token++;
    st_->pending.emplace(token, std::move(done));
    fbe_error err;
    fbe_status s = fbe_client_request(c_.get(), msg.raw(), timeout_ns, now, token, &err);
    if (s != FBE_OK) st_->pending.erase(token);
    st_->rethrow();
    detail::check(s, err);
  }
  void send(const message_ref &msg) {
    fbe_error err;
    fbe_status s = fbe_client_send(c_.get(), msg.raw(), &err);
    st_->rethrow();
    detail::check(s, err);
  }
  void feed(bytes_view bytes) {
    fbe_error err;
    fbe_status s = fbe_client_feed(c_.get(), bytes.data(), bytes.size(), &err);
    st_->rethrow();
    detail::check(s, err);
  }
  std::size_t watchdog(std::uint64_t now) {
    std::size_t n = fbe_client_watchdog(c_.get(), now);
    st_->rethrow();
    return n;
  }
  void reset() {
    fbe_client_reset(c_.get());
    st_->rethrow();
  }
  std::uint64_t next_deadline() const noexcept { return fbe_client_next_deadline(c_.get()); }
  std::size_t pending() const noexcept { return fbe_client_pending(c_.get()); }
  void on_notify(notify_fn fn) { st_->handler = std::move(fn); }
  void on_send_log(log_fn fn) {
    st_->send_log = std::move(fn);
    fbe_sender_set_log(fbe_client_sender(c_.get()), st_->send_log ? detail::callbacks::on_send_log : nullptr,
                       st_.get());
  }
  void on_receive_log(log_fn fn) {
    st_->receive_log = std::move(fn);
    fbe_receiver_set_log(fbe_client_receiver(c_.get()),
                         st_->receive_log ? detail::callbacks::on_receive_log : nullptr, st_.get());
  }

 private:
  struct state : detail::callbacks {
    std::uint64_t next_token = 1;
    std::unordered_map<std::uint64_t, done_fn> pending;
  };
  static void on_done(void *ctx, std::uint64_t token, fbe_request_end end, const fbe_msg *msg, const fbe_error *err) {
    auto *s = static_cast<state *>(ctx);
    auto it = s->pending.find(token);
    if (it == s->pending.end()) return;
    done_fn done = std::move(it->second);
    s->pending.erase(it);
    s->guard([&] {
      std::optional<message_ref> m;
      std::optional<error> e;
      if (msg) m.emplace(s->schema, msg);
      if (err) e.emplace(*err);
      if (done) done(static_cast<request_end>(end), m ? &*m : nullptr, e ? &*e : nullptr);
    });
  }
  std::unique_ptr<state> st_;
  std::unique_ptr<fbe_client, detail::client_free> c_;
};

// A server: a receiver for the requests and a sender for the replies, with the core's
// rule of what answers a request (fbe_reply_prepare: the type, and the id copied).
class server {
 public:
  server(const schema &s, const std::string &package, model m, std::function<void(const message_ref &)> on_request,
         sink_fn sink, const fbe_limits *limits = nullptr)
      : out_(s, package, m, std::move(sink)), in_(s, package, m, std::move(on_request), limits) {}
  void serve(bytes_view bytes) { in_.feed(bytes); }
  // Makes reply an answer to request (its type checked, its id set) and sends it.
  void reply(const message_ref &request, message &reply) {
    fbe_error err;
    detail::check(fbe_reply_prepare(request.raw(), reply.raw_mut(), &err), err);
    out_.send(reply);
  }
  void send(const message_ref &msg) { out_.send(msg); }
  void on_send_log(log_fn fn) { out_.on_log(std::move(fn)); }
  void on_receive_log(log_fn fn) { in_.on_log(std::move(fn)); }

 private:
  sender out_;
  receiver in_;
};

}  // namespace fbe

#endif

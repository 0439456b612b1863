// fbe::message: one value of a schema struct, owning its memory (an arena of its own),
// copyable (the core's deep copy) and movable; encode, decode, JSON, text, equality are
// the core's. fbe::message_ref: a message borrowed for a call (a receiver's handler).
#ifndef FBE_CPP_MESSAGE_HPP
#define FBE_CPP_MESSAGE_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fbe/cpp/buffer.hpp"
#include "fbe/cpp/error.hpp"
#include "fbe/cpp/schema.hpp"
#include "fbe/cpp/value.hpp"
#include "fbe/fbe.h"

namespace fbe {

namespace detail {
struct arena_free {
  void operator()(fbe_arena *a) const noexcept { fbe_arena_free(a); }
};
using arena_ptr = std::unique_ptr<fbe_arena, arena_free>;
inline arena_ptr new_arena() {
  fbe_arena *a = fbe_arena_new();
  if (!a) throw std::bad_alloc();
  return arena_ptr(a);
}
}  // namespace detail

// What every message, owned or borrowed, can do (read, print, encode, compare).
class message_ref {
 public:
  message_ref(detail::schema_ptr schema, const fbe_msg *msg) noexcept : schema_(std::move(schema)), msg_(msg) {}

  struct_type type() const noexcept { return struct_type(schema_, fbe_msg_type(msg_)); }
  // The whole value; its fields by name (fbe::error FBE_ERR_UNKNOWN_FIELD when none).
  ref root() const noexcept { return ref(fbe_msg_ref(const_cast<fbe_msg *>(msg_))); }
  ref operator[](std::string_view name) const { return root()[name]; }
  template <class T>
  T get(std::string_view name) const {
    return root()[name].template get<T>();
  }

  // Appends the model to out (no copy: the benchmark's and a server's loop).
  void encode(buffer &out, model m = model::standard) const {
    fbe_error err;
    detail::check(fbe_encode(msg_, detail::c_model(m), out.raw(), &err), err);
  }
  std::vector<std::uint8_t> encode(model m = model::standard) const {
    buffer out;
    encode(out, m);
    return out.to_vector();
  }
  std::string to_json(bool pretty = false) const {
    fbe_json_options opts{};
    opts.pretty = pretty ? 1 : 0;
    return to_json(opts);
  }
  std::string to_json(const fbe_json_options &opts) const {
    buffer out;
    fbe_error err;
    detail::check(fbe_msg_to_json_opts(msg_, &opts, out.raw(), &err), err);
    return std::string(out.str());
  }
  // The text form (docs/TEXT.md): Account(id=1,name="Test",...).
  std::string to_string() const {
    buffer out;
    fbe_error err;
    detail::check(fbe_msg_to_text(msg_, out.raw(), &err), err);
    return std::string(out.str());
  }
  friend std::ostream &operator<<(std::ostream &os, const message_ref &m) { return os << m.to_string(); }
  // The core's equality: floats by bit pattern, decimals by value.
  friend bool operator==(const message_ref &a, const message_ref &b) noexcept {
    return fbe_msg_equal(a.msg_, b.msg_) != 0;
  }
  friend bool operator!=(const message_ref &a, const message_ref &b) noexcept { return !(a == b); }
  std::uint64_t key_hash() const noexcept { return fbe_msg_key_hash(msg_); }

  const fbe_msg *raw() const noexcept { return msg_; }
  const detail::schema_ptr &schema_handle() const noexcept { return schema_; }

 protected:
  detail::schema_ptr schema_;
  const fbe_msg *msg_;
};

class message : public message_ref {
 public:
  // A new value of type with every field at its schema default.
  explicit message(const struct_type &type) : message_ref(type.schema_handle(), nullptr), arena_(detail::new_arena()) {
    msg_ = fbe_msg_new(arena_.get(), type.raw());
    if (!msg_) throw std::bad_alloc();
  }
  // A deep copy of any message (a borrowed one included).
  explicit message(const message_ref &other) : message_ref(other.schema_handle(), nullptr), arena_(detail::new_arena()) {
    copy_from(other.raw());
  }
  message(const message &other) : message(static_cast<const message_ref &>(other)) {}
  message &operator=(const message &other) {
    if (this != &other) *this = message(other);
    return *this;
  }
  message(message &&) noexcept = default;
  message &operator=(message &&) noexcept = default;
  ~message() = default;

  ref root() noexcept { return ref(fbe_msg_ref(mut())); }
  ref root() const noexcept { return message_ref::root(); }
  ref operator[](std::string_view name) { return root()[name]; }
  ref operator[](std::string_view name) const { return root()[name]; }
  template <class T>
  void set(std::string_view name, const T &value) {
    root()[name].set(value);
  }
  void set(std::string_view name, const char *text) { root()[name].set(text); }

  // Replaces the value by JSON's (members not given keep their values).
  void read_json(std::string_view json, const fbe_json_options *opts = nullptr) { root().from_json(json, opts); }

  fbe_msg *raw_mut() noexcept { return mut(); }

 private:
  friend class struct_type;
  friend class view;
  message(detail::schema_ptr schema, detail::arena_ptr arena, fbe_msg *msg) noexcept
      : message_ref(std::move(schema), msg), arena_(std::move(arena)) {}
  fbe_msg *mut() const noexcept { return const_cast<fbe_msg *>(msg_); }
  void copy_from(const fbe_msg *src) {
    fbe_msg *out = nullptr;
    fbe_error err;
    detail::check(fbe_msg_copy(src, arena_.get(), &out, &err), err);
    msg_ = out;
  }

  detail::arena_ptr arena_;
};

// ---- struct_type's verbs that make messages

inline message struct_type::make() const { return message(*this); }

inline message struct_type::decode(bytes_view bytes, model m, const fbe_limits *limits) const {
  auto arena = detail::new_arena();
  fbe_msg *out = nullptr;
  fbe_error err;
  detail::check(fbe_decode(st_, detail::c_model(m), bytes.data(), bytes.size(), arena.get(), limits, &out, nullptr, &err),
                err);
  return message(schema_, std::move(arena), out);
}

inline message struct_type::decode_trusted(bytes_view bytes, model m, const fbe_limits *limits) const {
  auto arena = detail::new_arena();
  fbe_msg *out = nullptr;
  fbe_error err;
  detail::check(
      fbe_decode_trusted(st_, detail::c_model(m), bytes.data(), bytes.size(), arena.get(), limits, &out, nullptr, &err),
      err);
  return message(schema_, std::move(arena), out);
}

inline void struct_type::decode_into(message &into, bytes_view bytes, model m, const fbe_limits *limits) const {
  fbe_arena *arena = into.arena_.get();
  fbe_msg *out = nullptr;
  fbe_error err;
  fbe_arena_reset(arena);
  fbe_status s = fbe_decode(st_, detail::c_model(m), bytes.data(), bytes.size(), arena, limits, &out, nullptr, &err);
  if (s != FBE_OK) {
    into.msg_ = fbe_msg_new(arena, st_);  // the arena was reset: a default value, not a dangling one
    throw error(err);
  }
  if (into.schema_ != schema_) into.schema_ = schema_;  // the loop's case: no atomic count
  into.msg_ = out;
}

inline result<message> struct_type::try_decode(bytes_view bytes, model m, const fbe_limits *limits) const {
  auto arena = detail::new_arena();
  fbe_msg *out = nullptr;
  fbe_error err;
  if (fbe_decode(st_, detail::c_model(m), bytes.data(), bytes.size(), arena.get(), limits, &out, nullptr, &err))
    return error(err);
  return message(schema_, std::move(arena), out);
}

inline message struct_type::from_json(std::string_view json, const fbe_json_options *opts) const {
  auto arena = detail::new_arena();
  fbe_msg *out = nullptr;
  fbe_error err;
  detail::check(fbe_msg_from_json_opts(st_, json.data(), json.size(), arena.get(), opts, &out, &err), err);
  return message(schema_, std::move(arena), out);
}

}  // namespace fbe

#endif

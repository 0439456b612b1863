// fbe::view: a message read in place from its verified bytes (fbe/view.h): no decode,
// no allocation. Strings are std::string_view into the bytes, nested values are
// fbe::view_ref cursors, collections iterate with range-for. The bytes are borrowed
// (keep them alive and unchanged); the view keeps its schema alive.
#ifndef FBE_CPP_VIEW_HPP
#define FBE_CPP_VIEW_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "fbe/cpp/buffer.hpp"
#include "fbe/cpp/error.hpp"
#include "fbe/cpp/message.hpp"
#include "fbe/cpp/schema.hpp"
#include "fbe/cpp/value.hpp"
#include "fbe/fbe.h"

namespace fbe {

class view_ref {
 public:
  view_ref() noexcept : v_{} {}
  explicit view_ref(const fbe_view &v) noexcept : v_(v) {}

  // false: no value (a name the struct does not have, an index past the end).
  bool ok() const noexcept { return fbe_view_ok(v_); }
  explicit operator bool() const noexcept { return ok(); }
  fbe_kind kind() const noexcept { return fbe_view_kind(v_); }
  const fbe_view &raw() const noexcept { return v_; }

  // ---- navigation (a view with no value when there is nothing there)
  view_ref operator[](const char *name) const noexcept { return view_ref(fbe_view_field_named(v_, name)); }
  view_ref operator[](const std::string &name) const noexcept { return (*this)[name.c_str()]; }
  view_ref field(std::size_t index) const noexcept { return view_ref(fbe_view_field(v_, index)); }
  std::size_t size() const noexcept { return fbe_view_count(v_); }
  view_ref operator[](std::size_t i) const noexcept { return view_ref(fbe_view_at(v_, i)); }
  view_ref key(std::size_t i) const noexcept { return view_ref(fbe_view_key_at(v_, i)); }
  view_ref value(std::size_t i) const noexcept { return view_ref(fbe_view_value_at(v_, i)); }
  bool is_null() const noexcept { return fbe_view_is_null(v_) != 0; }
  view_ref deref() const noexcept { return view_ref(fbe_view_deref(v_)); }

  // ---- scalars, as fbe::ref::get<T>; std::string_view and bytes_view borrow the bytes
  template <class T>
  T get() const {
    if constexpr (std::is_same_v<T, bool>) {
      int v = 0;
      check(fbe_view_get_bool(v_, &v));
      return v != 0;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      std::int64_t v = 0;
      check(fbe_view_get_int(v_, &v));
      return detail::narrow<T>(v);
    } else if constexpr (std::is_integral_v<T>) {
      std::uint64_t v = 0;
      check(fbe_view_get_uint(v_, &v));
      return detail::narrow<T>(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      double v = 0;
      check(fbe_view_get_double(v_, &v));
      return static_cast<T>(v);
    } else if constexpr (std::is_same_v<T, std::string_view> || std::is_same_v<T, std::string>) {
      const std::uint8_t *data = nullptr;
      std::size_t size = 0;
      check(kind() == FBE_KIND_STRING ? fbe_view_get_bytes(v_, &data, &size) : FBE_ERR_TYPE);
      return T(reinterpret_cast<const char *>(data), size);
    } else if constexpr (std::is_same_v<T, bytes_view>) {
      const std::uint8_t *data = nullptr;
      std::size_t size = 0;
      check(fbe_view_get_bytes(v_, &data, &size));
      return bytes_view(data, size);
    } else if constexpr (std::is_same_v<T, decimal>) {
      decimal d;
      check(fbe_view_get_decimal(v_, &d.raw));
      return d;
    } else if constexpr (std::is_same_v<T, uuid>) {
      uuid u;
      check(fbe_view_get_uuid(v_, &u.raw));
      return u;
    } else {
      static_assert(sizeof(T) == 0, "fbe::view_ref::get: no such value type");
    }
  }

  // ---- whole values: the same JSON and text as the decoded value's
  std::string to_json(const fbe_json_options *opts = nullptr) const {
    buffer out;
    fbe_error err;
    detail::check(fbe_view_to_json(v_, opts, out.raw(), &err), err);
    return std::string(out.str());
  }
  std::string to_string() const {
    buffer out;
    fbe_error err;
    detail::check(fbe_view_to_text(v_, nullptr, out.raw(), &err), err);
    return std::string(out.str());
  }
  friend bool operator==(const view_ref &a, const view_ref &b) noexcept { return fbe_view_equal(a.v_, b.v_) != 0; }
  friend bool operator!=(const view_ref &a, const view_ref &b) noexcept { return !(a == b); }
  friend bool operator==(const view_ref &a, const ref &b) noexcept { return fbe_view_equal_ref(a.v_, b.raw()) != 0; }

  // ---- range-for: the elements of an array/vector/list/set (O(1) a step in both
  // models), or with entries() the (key, value) pairs of a map/hash
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = view_ref;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = view_ref;
    iterator() noexcept : it_{}, cur_{}, done_(true) {}
    explicit iterator(fbe_view v) noexcept : it_(fbe_view_iterate(v)), cur_{}, done_(false) { ++*this; }
    view_ref operator*() const noexcept { return view_ref(cur_); }
    iterator &operator++() noexcept {
      done_ = !fbe_view_next(&it_, &cur_, nullptr);
      return *this;
    }
    friend bool operator==(const iterator &a, const iterator &b) noexcept { return a.done_ == b.done_; }
    friend bool operator!=(const iterator &a, const iterator &b) noexcept { return a.done_ != b.done_; }

   private:
    fbe_view_iter it_;
    fbe_view cur_;
    bool done_;
  };
  iterator begin() const noexcept { return iterator(v_); }
  iterator end() const noexcept { return iterator(); }

  class entry_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = std::pair<view_ref, view_ref>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    entry_iterator() noexcept : it_{}, k_{}, v_{}, done_(true) {}
    explicit entry_iterator(fbe_view v) noexcept : it_(fbe_view_iterate(v)), k_{}, v_{}, done_(false) { ++*this; }
    value_type operator*() const noexcept { return {view_ref(k_), view_ref(v_)}; }
    entry_iterator &operator++() noexcept {
      done_ = !fbe_view_next(&it_, &k_, &v_);
      return *this;
    }
    friend bool operator==(const entry_iterator &a, const entry_iterator &b) noexcept { return a.done_ == b.done_; }
    friend bool operator!=(const entry_iterator &a, const entry_iterator &b) noexcept { return a.done_ != b.done_; }

   private:
    fbe_view_iter it_;
    fbe_view k_, v_;
    bool done_;
  };
  struct entry_range {
    fbe_view v;
    entry_iterator begin() const noexcept { return entry_iterator(v); }
    entry_iterator end() const noexcept { return entry_iterator(); }
  };
  entry_range entries() const noexcept { return {v_}; }

 protected:
  // A read that failed on a value the view has: the bytes changed under it (the core's
  // words, fbe_view_fault); on no value, the getter's status.
  void check(fbe_status s) const {
    if (s == FBE_OK) return;
    if (ok() && s == FBE_ERR_MALFORMED) {
      fbe_error err;
      fbe_view_fault(nullptr, v_, &err);
      throw error(err);
    }
    throw error(s);
  }

  fbe_view v_;
};

// The root of a view: a view_ref that also holds the schema and its struct type.
class view : public view_ref {
 public:
  view(struct_type type, const fbe_view &v) noexcept : view_ref(v), type_(std::move(type)) {}
  const struct_type &type() const noexcept { return type_; }
  // The value the bytes decode to, as a message of its own.
  message to_message(const fbe_limits *limits = nullptr) const {
    auto arena = detail::new_arena();
    fbe_msg *out = nullptr;
    fbe_error err;
    detail::check(fbe_view_to_msg(v_, arena.get(), limits, &out, &err), err);
    return message(type_.schema_handle(), std::move(arena), out);
  }

 private:
  struct_type type_;
};

inline view struct_type::open_view(bytes_view bytes, model m, const fbe_limits *limits) const {
  fbe_view v;
  fbe_error err;
  detail::check(fbe_view_open(st_, detail::c_model(m), bytes.data(), bytes.size(), limits, &v, &err), err);
  return view(*this, v);
}

}  // namespace fbe

#endif

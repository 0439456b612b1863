// fbe::ref: a cursor on one value inside a message (a field, an element, a map key or
// value) with typed get/set, navigation and iteration; fbe::decimal and fbe::uuid.
// Every check (range, kind, UTF-8, scale) is the core's: a refused set throws its error.
#ifndef FBE_CPP_VALUE_HPP
#define FBE_CPP_VALUE_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "fbe/cpp/buffer.hpp"
#include "fbe/cpp/error.hpp"
#include "fbe/fbe.h"

namespace fbe {

// A decimal (FORMAT.md 3.2): parsed and printed by the core ("123.45").
struct decimal {
  fbe_decimal raw{};
  static decimal parse(std::string_view text) {
    decimal d;
    detail::check(fbe_decimal_parse(text.data(), text.size(), &d.raw));
    return d;
  }
  std::string to_string() const {
    char text[48];
    fbe_decimal_format(&raw, text, sizeof text);
    return text;
  }
};

// A uuid, 16 bytes in canonical order; text 8-4-4-4-12.
struct uuid {
  fbe_uuid raw{};
  static uuid parse(std::string_view text) {
    uuid u;
    detail::check(fbe_uuid_parse(text.data(), text.size(), &u.raw));
    return u;
  }
  std::string to_string() const {
    char text[37];
    fbe_uuid_format(&raw, text);
    return text;
  }
  friend bool operator==(const uuid &a, const uuid &b) noexcept {
    return std::char_traits<char>::compare(reinterpret_cast<const char *>(a.raw.bytes),
                                           reinterpret_cast<const char *>(b.raw.bytes), 16) == 0;
  }
};

// Bytes for a bytes field (a string_view would be a string).
struct bytes_value {
  bytes_view bytes;
};

namespace detail {
// The core's int64/uint64 into the integer type the caller asked for: a value the host
// type cannot hold is FBE_ERR_RANGE, never a truncated one (messages and views alike).
template <class T, class V>
T narrow(V v) {
  if constexpr (sizeof(T) < sizeof(V) || std::is_signed_v<T> != std::is_signed_v<V>) {
    if (static_cast<V>(static_cast<T>(v)) != v || ((static_cast<T>(v) < T{}) != (v < V{}))) throw error(FBE_ERR_RANGE);
  }
  return static_cast<T>(v);
}
}  // namespace detail

class ref {
 public:
  ref() noexcept : r_{nullptr, nullptr, nullptr} {}
  explicit ref(fbe_ref r) noexcept : r_(r) {}

  bool ok() const noexcept { return fbe_ref_ok(r_); }
  fbe_kind kind() const noexcept { return fbe_ref_kind(r_); }
  const fbe_ref &raw() const noexcept { return r_; }

  // ---- navigation
  // A struct's field by name: fbe::error (FBE_ERR_UNKNOWN_FIELD, the core's text) when
  // it has none, FBE_ERR_TYPE when this is not a struct.
  ref operator[](std::string_view name) const {
    fbe_ref out;
    fbe_error err;
    detail::check(fbe_ref_field_find(r_, name.data(), name.size(), &out, &err), err);
    return ref(out);
  }
  ref field(std::string_view name) const { return (*this)[name]; }
  ref field(std::size_t index) const noexcept { return ref(fbe_ref_field_at(r_, index)); }
  // Elements of an array/vector/list/set, entries of a map/hash.
  std::size_t size() const noexcept { return fbe_ref_count(r_); }
  ref operator[](std::size_t i) const noexcept { return ref(fbe_ref_at(r_, i)); }
  ref at(std::size_t i) const {
    if (i >= size()) throw std::out_of_range("fbe::ref::at");
    return (*this)[i];
  }
  ref key(std::size_t i) const noexcept { return ref(fbe_ref_key_at(r_, i)); }
  ref value(std::size_t i) const noexcept { return ref(fbe_ref_value_at(r_, i)); }

  // ---- optionals
  bool is_null() const noexcept { return fbe_ref_is_null(r_) != 0; }
  void set_null() const {
    fbe_error err;
    detail::check(fbe_ref_set_null(r_, &err), err);
  }
  // The optional's value, made present (its type's default) when it was null.
  ref emplace() const {
    fbe_ref v = fbe_ref_emplace(r_);
    if (!fbe_ref_ok(v)) fail_as("an optional");
    return ref(v);
  }
  ref deref() const noexcept { return ref(fbe_ref_deref(r_)); }

  // ---- collections
  ref append() const {
    fbe_ref v = fbe_ref_append(r_);
    if (!fbe_ref_ok(v)) fail_as("a vector, list or set");
    return ref(v);
  }
  // A new map entry: its key and value cursors.
  std::pair<ref, ref> map_append() const {
    fbe_ref value;
    fbe_ref key = fbe_ref_map_append(r_, &value);
    if (!fbe_ref_ok(key)) fail_as("a map or hash");
    return {ref(key), ref(value)};
  }
  void clear() const {
    fbe_error err;
    detail::check(fbe_ref_clear(r_, &err), err);
  }

  // ---- scalars: get<T>() and set(v) for bool, integers (also char, wchar, enums, flags,
  // timestamps in ns), float/double, decimal, uuid, std::string_view (string),
  // bytes_value (bytes), nullptr (a null optional).
  template <class T>
  T get() const {
    if constexpr (std::is_same_v<T, bool>) {
      int v = 0;
      detail::check(fbe_ref_get_bool(r_, &v));
      return v != 0;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      std::int64_t v = 0;
      detail::check(fbe_ref_get_int(r_, &v));
      return detail::narrow<T>(v);
    } else if constexpr (std::is_integral_v<T>) {
      std::uint64_t v = 0;
      detail::check(fbe_ref_get_uint(r_, &v));
      return detail::narrow<T>(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      double v = 0;
      detail::check(fbe_ref_get_double(r_, &v));
      return static_cast<T>(v);
    } else if constexpr (std::is_same_v<T, std::string_view> || std::is_same_v<T, std::string>) {
      const std::uint8_t *data = nullptr;
      std::size_t size = 0;
      detail::check(kind() == FBE_KIND_STRING ? fbe_ref_get_bytes(r_, &data, &size) : FBE_ERR_TYPE);
      return T(reinterpret_cast<const char *>(data), size);
    } else if constexpr (std::is_same_v<T, bytes_view>) {
      const std::uint8_t *data = nullptr;
      std::size_t size = 0;
      detail::check(fbe_ref_get_bytes(r_, &data, &size));
      return bytes_view(data, size);
    } else if constexpr (std::is_same_v<T, decimal>) {
      decimal d;
      detail::check(fbe_ref_get_decimal(r_, &d.raw));
      return d;
    } else if constexpr (std::is_same_v<T, uuid>) {
      uuid u;
      detail::check(fbe_ref_get_uuid(r_, &u.raw));
      return u;
    } else {
      static_assert(sizeof(T) == 0, "fbe::ref::get: no such value type");
    }
  }

  template <class T>
  void set(const T &v) const {
    fbe_error err;
    fbe_status s;
    if constexpr (std::is_same_v<T, bool>) {
      s = fbe_ref_set_bool(r_, v ? 1 : 0, &err);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      s = fbe_ref_set_int(r_, static_cast<std::int64_t>(v), &err);
    } else if constexpr (std::is_integral_v<T>) {
      s = fbe_ref_set_uint(r_, static_cast<std::uint64_t>(v), &err);
    } else if constexpr (std::is_floating_point_v<T>) {
      s = fbe_ref_set_double(r_, static_cast<double>(v), &err);
    } else if constexpr (std::is_same_v<T, decimal>) {
      s = fbe_ref_set_decimal(r_, &v.raw, &err);
    } else if constexpr (std::is_same_v<T, uuid>) {
      s = fbe_ref_set_uuid(r_, &v.raw, &err);
    } else if constexpr (std::is_same_v<T, bytes_value>) {
      s = fbe_ref_set_bytes(r_, v.bytes.data(), v.bytes.size(), &err);
    } else if constexpr (std::is_same_v<T, bytes_view>) {
      s = fbe_ref_set_bytes(r_, v.data(), v.size(), &err);
    } else if constexpr (std::is_same_v<T, std::nullptr_t>) {
      s = fbe_ref_set_null(r_, &err);
    } else if constexpr (std::is_convertible_v<const T &, std::string_view>) {
      std::string_view text(v);  // the core checks a string's UTF-8
      s = fbe_ref_set_bytes(r_, text.data(), text.size(), &err);
    } else {
      static_assert(sizeof(T) == 0, "fbe::ref::set: no such value type");
    }
    detail::check(s, err);
  }
  // A char or wchar from its one character of text ("A", "€"), read by the core.
  void set_char(std::string_view text) const {
    fbe_error err;
    std::uint32_t cp = 0;
    detail::check(fbe_char_parse(kind(), text.data(), text.size(), &cp, &err), err);
    detail::check(fbe_ref_set_uint(r_, cp, &err), err);
  }
  // An enum or flags value by its name(s) ("sell", "good|64"), read by the core.
  void set_name(std::string_view name) const {
    fbe_error err;
    if (kind() != FBE_KIND_ENUM && kind() != FBE_KIND_FLAGS) {
      detail::check(fbe_ref_set_uint(r_, 0, &err), err);  // the core's wrong-kind words
      return;
    }
    const fbe_enum *e = fbe_type_enum(r_.type);
    std::uint64_t bits = 0;
    detail::check(fbe_enum_parse(e, name.data(), name.size(), &bits, &err), err);
    fbe_kind base = fbe_enum_base(e);
    bool is_signed = base == FBE_KIND_INT8 || base == FBE_KIND_INT16 || base == FBE_KIND_INT32 || base == FBE_KIND_INT64;
    detail::check(is_signed ? fbe_ref_set_int(r_, static_cast<std::int64_t>(bits), &err) : fbe_ref_set_uint(r_, bits, &err),
                  err);
  }
  // (a string literal is text)
  void set(const char *text) const { set(std::string_view(text)); }

  // ---- whole values
  std::string to_string() const {
    buffer out;
    fbe_error err;
    detail::check(fbe_text_write(r_, nullptr, out.raw(), &err), err);
    return std::string(out.str());
  }
  std::string to_json(const fbe_json_options *opts = nullptr) const {
    buffer out;
    fbe_error err;
    detail::check(fbe_json_write_opts(r_, opts, out.raw(), &err), err);
    return std::string(out.str());
  }
  void from_json(std::string_view json, const fbe_json_options *opts = nullptr) const {
    fbe_error err;
    detail::check(fbe_json_read_opts(r_, json.data(), json.size(), opts, &err), err);
  }
  friend bool operator==(const ref &a, const ref &b) noexcept { return fbe_ref_equal(a.r_, b.r_) != 0; }
  friend bool operator!=(const ref &a, const ref &b) noexcept { return !(a == b); }

  // ---- range-for over the elements of an array/vector/list/set
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = ref;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = ref;
    iterator(fbe_ref r, std::size_t i) noexcept : r_(r), i_(i) {}
    ref operator*() const noexcept { return ref(fbe_ref_at(r_, i_)); }
    iterator &operator++() noexcept { ++i_; return *this; }
    iterator operator++(int) noexcept { iterator t = *this; ++i_; return t; }
    friend bool operator==(const iterator &a, const iterator &b) noexcept { return a.i_ == b.i_; }
    friend bool operator!=(const iterator &a, const iterator &b) noexcept { return a.i_ != b.i_; }

   private:
    fbe_ref r_;
    std::size_t i_;
  };
  iterator begin() const noexcept { return iterator(r_, 0); }
  iterator end() const noexcept { return iterator(r_, size()); }

 private:
  // A cursor call that found nothing to do: the core's wrong-kind error for this ref,
  // from the setter that takes what the call needs.
  [[noreturn]] void fail_as(const char *takes) const {
    fbe_error err;
    fbe_status s = FBE_ERR_TYPE;
    if (std::string_view(takes) == "an optional") s = fbe_ref_set_null(r_, &err);
    else s = fbe_ref_clear(r_, &err);
    if (s == FBE_OK) throw std::bad_alloc();  // the kind was right: memory ran out
    throw error(err);
  }
  fbe_ref r_;
};

}  // namespace fbe

#endif

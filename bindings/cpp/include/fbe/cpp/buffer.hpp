// fbe::buffer: the core's growable fbe_buffer with RAII, what encode and the text and
// JSON writers append to without a copy (reuse one across calls: it keeps its memory).
#ifndef FBE_CPP_BUFFER_HPP
#define FBE_CPP_BUFFER_HPP

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#if __has_include(<span>)
#include <span>
#endif

#include "fbe/fbe.h"

namespace fbe {

class buffer {
 public:
  buffer() noexcept { fbe_buffer_init(&b_); }
  buffer(const buffer &) = delete;
  buffer &operator=(const buffer &) = delete;
  buffer(buffer &&o) noexcept : b_(o.b_) { fbe_buffer_init(&o.b_); }
  buffer &operator=(buffer &&o) noexcept {
    if (this != &o) {
      fbe_buffer_free(&b_);
      b_ = o.b_;
      fbe_buffer_init(&o.b_);
    }
    return *this;
  }
  ~buffer() { fbe_buffer_free(&b_); }

  const std::uint8_t *data() const noexcept { return b_.data; }
  std::size_t size() const noexcept { return b_.size; }
  bool empty() const noexcept { return b_.size == 0; }
  const std::uint8_t *begin() const noexcept { return b_.data; }
  const std::uint8_t *end() const noexcept { return b_.data + b_.size; }
  void clear() noexcept { fbe_buffer_reset(&b_); }
  void append(const void *data, std::size_t size) {
    if (fbe_buffer_append(&b_, data, size)) throw std::bad_alloc();
  }
  std::string_view str() const noexcept {
    return b_.size ? std::string_view(reinterpret_cast<const char *>(b_.data), b_.size) : std::string_view();
  }
  std::vector<std::uint8_t> to_vector() const { return std::vector<std::uint8_t>(begin(), end()); }

  fbe_buffer *raw() noexcept { return &b_; }
  const fbe_buffer *raw() const noexcept { return &b_; }

 private:
  fbe_buffer b_;
};

// Bytes borrowed from somewhere else (a decoded value, a view's model): pointer and size.
class bytes_view {
 public:
  constexpr bytes_view() noexcept = default;
  constexpr bytes_view(const std::uint8_t *data, std::size_t size) noexcept : data_(data), size_(size) {}
  bytes_view(const std::vector<std::uint8_t> &v) noexcept : data_(v.data()), size_(v.size()) {}
  bytes_view(const buffer &b) noexcept : data_(b.data()), size_(b.size()) {}
  // Text's bytes as bytes (explicit: a string is not bytes by accident).
  explicit bytes_view(std::string_view text) noexcept
      : data_(reinterpret_cast<const std::uint8_t *>(text.data())), size_(text.size()) {}
#if defined(__cpp_lib_span) && __cpp_lib_span >= 202002L
  // C++20: to and from std::span of const bytes.
  constexpr bytes_view(std::span<const std::uint8_t> s) noexcept : data_(s.data()), size_(s.size()) {}
  constexpr operator std::span<const std::uint8_t>() const noexcept { return {data_, size_}; }
#endif
  constexpr const std::uint8_t *data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr const std::uint8_t *begin() const noexcept { return data_; }
  constexpr const std::uint8_t *end() const noexcept { return data_ + size_; }
  std::vector<std::uint8_t> to_vector() const { return std::vector<std::uint8_t>(begin(), end()); }
  friend bool operator==(bytes_view a, bytes_view b) noexcept {
    return a.size_ == b.size_ && (a.size_ == 0 || std::char_traits<char>::compare(
                                                      reinterpret_cast<const char *>(a.data_),
                                                      reinterpret_cast<const char *>(b.data_), a.size_) == 0);
  }
  friend bool operator!=(bytes_view a, bytes_view b) noexcept { return !(a == b); }

 private:
  const std::uint8_t *data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace fbe

#endif

// fbe::error: the core's fbe_error as a C++ exception (status, path, offset, and the
// one text every language shows, fbe_error_format's), and fbe::result<T> for the calls
// that also come without exceptions (try_decode, try_verify).
#ifndef FBE_CPP_ERROR_HPP
#define FBE_CPP_ERROR_HPP

#include <cstddef>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fbe/fbe.h"

namespace fbe {

using status = fbe_status;

class error : public std::runtime_error {
 public:
  explicit error(const fbe_error &e)
      : std::runtime_error(formatted(e)), status_(e.code), path_(e.path), offset_(e.offset), message_(e.message) {}
  // An error the core reports by status only (getters, parsers): its status text.
  explicit error(fbe_status s) : error(from_status(s)) {}

  fbe_status status() const noexcept { return status_; }
  // "FBE_ERR_RANGE": the name in the core's status table.
  const char *status_name() const noexcept { return fbe_status_name(status_); }
  // "RangeError": the class name every binding gives this status (the core's table).
  const char *class_name() const noexcept { return fbe_status_class(status_); }
  const std::string &path() const noexcept { return path_; }
  // The byte offset in the input, when one applies.
  std::optional<std::size_t> offset() const noexcept {
    return offset_ == FBE_NO_OFFSET ? std::nullopt : std::optional<std::size_t>(offset_);
  }
  // The message alone, without " at 'path'" and " (offset N)" (what() has them).
  const std::string &message() const noexcept { return message_; }

 private:
  static std::string formatted(const fbe_error &e) {
    char text[512];
    fbe_error_format(&e, text, sizeof text);
    return text;
  }
  static fbe_error from_status(fbe_status s) {
    fbe_error e{};
    e.code = s;
    e.offset = FBE_NO_OFFSET;
    std::snprintf(e.message, sizeof e.message, "%s", fbe_status_text(s));
    return e;
  }

  fbe_status status_;
  std::string path_;
  std::size_t offset_;
  std::string message_;
};

// A schema that did not load: FBE_ERR_SCHEMA with every diagnostic ("file:line:col:
// message"), the first one as the text.
class schema_error : public error {
 public:
  schema_error(const fbe_error &e, std::vector<std::string> diagnostics)
      : error(e), diagnostics_(std::move(diagnostics)) {}
  const std::vector<std::string> &diagnostics() const noexcept { return diagnostics_; }

 private:
  std::vector<std::string> diagnostics_;
};

// A value or the error that stopped it (std::expected's shape, for C++17).
template <class T>
class result {
 public:
  result(T value) : v_(std::move(value)) {}
  result(error e) : v_(std::move(e)) {}
  bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }
  T &value() & { return has_value() ? std::get<0>(v_) : throw std::get<1>(v_); }
  const T &value() const & { return has_value() ? std::get<0>(v_) : throw std::get<1>(v_); }
  T &&value() && { return has_value() ? std::get<0>(std::move(v_)) : throw std::get<1>(v_); }
  T &operator*() & { return std::get<0>(v_); }
  const T &operator*() const & { return std::get<0>(v_); }
  T *operator->() { return &std::get<0>(v_); }
  const T *operator->() const { return &std::get<0>(v_); }
  const error &error_value() const & { return std::get<1>(v_); }

 private:
  std::variant<T, error> v_;
};

namespace detail {
inline void check(fbe_status s, const fbe_error &e) {
  if (s != FBE_OK) throw error(e);
}
inline void check(fbe_status s) {
  if (s != FBE_OK) throw error(s);
}
}  // namespace detail

}  // namespace fbe

#endif

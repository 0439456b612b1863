// fbe::schema (a loaded .fbe schema, shared: every type, message and view taken from
// it keeps it alive) and fbe::struct_type (one struct or message of it).
#ifndef FBE_CPP_SCHEMA_HPP
#define FBE_CPP_SCHEMA_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fbe/cpp/buffer.hpp"
#include "fbe/cpp/error.hpp"
#include "fbe/fbe.h"

namespace fbe {

class message;
class view;

// The two wire models (FORMAT.md 5 and 6).
enum class model { standard = FBE_MODEL_STANDARD, final_ = FBE_MODEL_FINAL };

// A model by its name, "standard" or "final" (the core's words when it is neither).
inline model model_from_name(std::string_view name) {
  fbe_model m;
  fbe_error err;
  detail::check(fbe_model_parse(name.data(), name.size(), &m, &err), err);
  return static_cast<model>(m);
}

namespace detail {
using schema_ptr = std::shared_ptr<fbe_schema>;
inline fbe_model c_model(model m) noexcept { return static_cast<fbe_model>(m); }

// Takes a loaded schema (or the loader's diagnostics) into shared ownership.
inline schema_ptr adopt(fbe_schema *s, fbe_diagnostics &diags) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < diags.count; i++) {
    char text[1024];
    fbe_diagnostic_format(&diags.items[i], text, sizeof text);
    lines.emplace_back(text);
  }
  fbe_diagnostics_free(&diags);
  if (!s) {
    fbe_error e{};
    e.code = FBE_ERR_SCHEMA;
    e.offset = FBE_NO_OFFSET;
    std::snprintf(e.message, sizeof e.message, "%s", lines.empty() ? fbe_status_text(FBE_ERR_SCHEMA) : lines[0].c_str());
    throw schema_error(e, std::move(lines));
  }
  return schema_ptr(s, fbe_schema_release);
}

struct include_dirs {
  std::vector<const char *> ptrs;
  fbe_load_options opts;
  explicit include_dirs(const std::vector<std::string> &dirs) {
    for (const auto &d : dirs) ptrs.push_back(d.c_str());
    opts = {ptrs.data(), ptrs.size()};
  }
};
}  // namespace detail

// One field of a struct: name, position, type kind.
class field_info {
 public:
  field_info(const fbe_field *f) noexcept : f_(f) {}
  std::string_view name() const noexcept { return fbe_field_name(f_); }
  std::size_t index() const noexcept { return fbe_field_index(f_); }
  fbe_kind kind() const noexcept { return fbe_type_kind(fbe_field_type(f_)); }
  const fbe_type *type() const noexcept { return fbe_field_type(f_); }
  bool is_key() const noexcept { return fbe_field_is_key(f_) != 0; }
  const fbe_field *raw() const noexcept { return f_; }

 private:
  const fbe_field *f_;
};

class struct_type {
 public:
  struct_type(detail::schema_ptr schema, const fbe_struct *st) noexcept : schema_(std::move(schema)), st_(st) {}

  std::string_view name() const noexcept { return fbe_struct_name(st_); }
  std::string_view full_name() const noexcept { return fbe_struct_full_name(st_); }
  std::uint32_t type_id() const noexcept { return fbe_struct_type_id(st_); }
  bool is_message() const noexcept { return fbe_struct_is_message(st_) != 0; }
  std::optional<struct_type> base() const {
    const fbe_struct *b = fbe_struct_base(st_);
    return b ? std::optional<struct_type>(struct_type(schema_, b)) : std::nullopt;
  }
  std::size_t field_count() const noexcept { return fbe_struct_field_count(st_); }
  field_info field(std::size_t index) const noexcept { return fbe_struct_field_at(st_, index); }
  std::vector<field_info> fields() const {
    std::vector<field_info> out;
    for (std::size_t i = 0; i < field_count(); i++) out.push_back(field(i));
    return out;
  }

  // A new value with every field at its schema default.
  message make() const;
  // Bytes -> value, verified first (what verify refuses is refused with its error).
  message decode(bytes_view bytes, model m = model::standard, const fbe_limits *limits = nullptr) const;
  // Bytes -> value without the verify (bytes you trust: every offset is still checked).
  message decode_trusted(bytes_view bytes, model m = model::standard, const fbe_limits *limits = nullptr) const;
  // Decodes into `into` (of this type), reusing its memory: the loop that decodes many.
  void decode_into(message &into, bytes_view bytes, model m = model::standard,
                   const fbe_limits *limits = nullptr) const;
  result<message> try_decode(bytes_view bytes, model m = model::standard, const fbe_limits *limits = nullptr) const;
  // The model's size when the bytes are a valid model of this type, else fbe::error.
  std::size_t verify(bytes_view bytes, model m = model::standard, const fbe_limits *limits = nullptr) const {
    std::size_t size = 0;
    fbe_error err;
    detail::check(fbe_verify(st_, detail::c_model(m), bytes.data(), bytes.size(), limits, &size, &err), err);
    return size;
  }
  result<std::size_t> try_verify(bytes_view bytes, model m = model::standard,
                                 const fbe_limits *limits = nullptr) const noexcept {
    std::size_t size = 0;
    fbe_error err;
    if (fbe_verify(st_, detail::c_model(m), bytes.data(), bytes.size(), limits, &size, &err)) return error(err);
    return size;
  }
  bool is_valid(bytes_view bytes, model m = model::standard) const noexcept {
    return fbe_verify(st_, detail::c_model(m), bytes.data(), bytes.size(), nullptr, nullptr, nullptr) == FBE_OK;
  }
  // JSON (docs/JSON.md) -> value.
  message from_json(std::string_view json, const fbe_json_options *opts = nullptr) const;
  // A view of verified bytes, read in place; the bytes are borrowed: keep them alive.
  view open_view(bytes_view bytes, model m = model::standard, const fbe_limits *limits = nullptr) const;

  const fbe_struct *raw() const noexcept { return st_; }
  const detail::schema_ptr &schema_handle() const noexcept { return schema_; }
  friend bool operator==(const struct_type &a, const struct_type &b) noexcept { return a.st_ == b.st_; }
  friend bool operator!=(const struct_type &a, const struct_type &b) noexcept { return a.st_ != b.st_; }

 private:
  detail::schema_ptr schema_;
  const fbe_struct *st_;
};

class schema {
 public:
  static schema load_file(const std::string &path, const std::vector<std::string> &include = {}) {
    detail::include_dirs dirs(include);
    fbe_diagnostics diags{};
    fbe_schema *s = fbe_schema_load_file(path.c_str(), &dirs.opts, &diags);
    return schema(detail::adopt(s, diags));
  }
  // name: for diagnostics, and its directory for imports.
  static schema load_string(std::string_view text, const std::string &name = "<string>",
                            const std::vector<std::string> &include = {}) {
    detail::include_dirs dirs(include);
    fbe_diagnostics diags{};
    fbe_schema *s = fbe_schema_load_string(text.data(), text.size(), name.c_str(), &dirs.opts, &diags);
    return schema(detail::adopt(s, diags));
  }
  // PACKAGE.fbe found on the include directories.
  static schema load_package(const std::string &package, const std::vector<std::string> &include = {}) {
    detail::include_dirs dirs(include);
    fbe_diagnostics diags{};
    fbe_schema *s = fbe_schema_load_package(package.c_str(), &dirs.opts, &diags);
    return schema(detail::adopt(s, diags));
  }

  // "Name" (the root package's) or "package.Name"; nullopt when there is none.
  std::optional<struct_type> find(const std::string &name) const {
    const fbe_struct *st = fbe_schema_find_struct(s_.get(), name.c_str());
    return st ? std::optional<struct_type>(struct_type(s_, st)) : std::nullopt;
  }
  std::string_view package() const noexcept { return fbe_package_name(fbe_schema_root(s_.get())); }
  std::vector<struct_type> structs() const {
    std::vector<struct_type> out;
    for (std::size_t i = 0; i < fbe_schema_struct_count(s_.get()); i++)
      out.emplace_back(s_, fbe_schema_struct_at(s_.get(), i));
    return out;
  }

  fbe_schema *raw() const noexcept { return s_.get(); }
  const detail::schema_ptr &handle() const noexcept { return s_; }

 private:
  explicit schema(detail::schema_ptr s) noexcept : s_(std::move(s)) {}
  detail::schema_ptr s_;
};

}  // namespace fbe

#endif

/* Arguments in (strings, bytes, limits, include directories) and JavaScript values out. */
#include <stdio.h>
#include <string.h>

#include "binding.h"
#include "fbe/internal/error.h"
#include "fbe/internal/kinds.h"
#include "fbe/internal/memory.h" /* the core's counted allocator, for the addon's blocks too */

/* Throws the pending N-API failure as a JavaScript error (unless one is pending). */
napi_value napi_failure(napi_env env, const char *what) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) {
    const napi_extended_error_info *info = NULL;
    char text[256];
    napi_get_last_error_info(env, &info);
    snprintf(text, sizeof text, "fbe addon: %s failed: %s", what,
             info && info->error_message ? info->error_message : "N-API error");
    napi_throw_error(env, NULL, text);
  }
  return NULL;
}

napi_value throw_type(napi_env env, const char *text) {
  napi_throw_type_error(env, NULL, text);
  return NULL;
}

napi_value js_str(napi_env env, const char *s) {
  napi_value v;
  return napi_create_string_utf8(env, s ? s : "", NAPI_AUTO_LENGTH, &v) == napi_ok ? v : NULL;
}
napi_value js_num(napi_env env, double d) {
  napi_value v;
  return napi_create_double(env, d, &v) == napi_ok ? v : NULL;
}
napi_value js_bool(napi_env env, int b) {
  napi_value v;
  return napi_get_boolean(env, b != 0, &v) == napi_ok ? v : NULL;
}
napi_value js_undefined(napi_env env) {
  napi_value v;
  return napi_get_undefined(env, &v) == napi_ok ? v : NULL;
}
napi_value js_null(napi_env env) {
  napi_value v;
  return napi_get_null(env, &v) == napi_ok ? v : NULL;
}

int set_named(napi_env env, napi_value obj, const char *key, napi_value v) {
  return v && napi_set_named_property(env, obj, key, v) == napi_ok ? 0 : -1;
}

/* A new array (object) of n values; NULL when one of them is NULL (a failed call). */
napi_value array_of(napi_env env, const napi_value *items, uint32_t n) {
  napi_value arr;
  if (napi_create_array_with_length(env, n, &arr) != napi_ok) return NULL;
  for (uint32_t i = 0; i < n; i++)
    if (!items[i] || napi_set_element(env, arr, i, items[i]) != napi_ok) return NULL;
  return arr;
}

napi_value object_of(napi_env env, const char *const *keys, const napi_value *values, uint32_t n) {
  napi_value obj;
  if (napi_create_object(env, &obj) != napi_ok) return NULL;
  for (uint32_t i = 0; i < n; i++)
    if (set_named(env, obj, keys[i], values[i])) return NULL;
  return obj;
}

/* A string argument as a NUL-terminated copy (NULL with a TypeError thrown). */
char *arg_string(napi_env env, napi_value v, size_t *length) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) return throw_type(env, "expected a string"), NULL;
  char *s = fbei_mem_alloc(len + 1);
  if (!s) return napi_throw_error(env, NULL, "out of memory"), NULL;
  napi_get_value_string_utf8(env, v, s, len + 1, &len);
  if (length) *length = len;
  return s;
}

/* Optional package-name argument: NULL for undefined/null (the root package). */
int arg_package(napi_env env, napi_value v, char **out) {
  napi_valuetype type;
  *out = NULL;
  if (napi_typeof(env, v, &type) != napi_ok) return -1;
  if (type == napi_undefined || type == napi_null) return 0;
  return (*out = arg_string(env, v, NULL)) ? 0 : -1;
}

int32_t arg_int(napi_env env, napi_value v) {
  int32_t i = -1;
  napi_get_value_int32(env, v, &i);
  return i;
}

fbe_model arg_model(napi_env env, napi_value final) {
  bool b = false;
  napi_get_value_bool(env, final, &b);
  return b ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
}

/* A call's limits as lib/ passes them (lib/runtime.js limits()): undefined or null for
 * the defaults, else [name, value, ...] of the options' own defined properties, whole
 * numbers as bigints clamped to int64. Each goes to the core's fbe_limits_set, which
 * decides the names, ranges and texts; only the host's TYPE errors are here. *out:
 * NULL (the defaults) or limits. 0, or -1 with err set. */
int arg_limits(napi_env env, napi_value v, fbe_limits *limits, const fbe_limits **out, fbe_error *err) {
  napi_valuetype type;
  bool is_array = false;
  uint32_t n = 0;
  *out = NULL;
  if (napi_typeof(env, v, &type) != napi_ok || type == napi_undefined || type == napi_null) return 0;
  if (napi_is_array(env, v, &is_array) != napi_ok || !is_array || napi_get_array_length(env, v, &n) != napi_ok)
    return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET,
                         "limits must be an object ({ maxDepth, maxModelSize, maxMemory })"), -1;
  *limits = fbe_limits_default();
  for (uint32_t i = 0; i + 1 < n; i += 2) {
    napi_value key, value;
    char name[128] = "";
    size_t len = 0;
    int64_t x;
    bool lossless = false;
    if (napi_get_element(env, v, i, &key) == napi_ok)
      napi_get_value_string_utf8(env, key, name, sizeof name, &len);
    for (size_t k = 0; k < len; k++)
      if (!name[k]) name[k] = '?'; /* a NUL inside: still the unknown name it is */
    if (napi_get_element(env, v, i + 1, &value) != napi_ok ||
        napi_get_value_bigint_int64(env, value, &x, &lossless) != napi_ok)
      return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "limits.%.64s must be an integer (a number or a bigint)",
                           name), -1;
    if (fbe_limits_set(limits, name, x, err) != FBE_OK) return -1;
  }
  *out = limits;
  return 0;
}

/* A core loader with the include directories of an array of strings (NULL with an
 * exception thrown). */
fbe_loader *arg_loader(napi_env env, napi_value includes) {
  bool is_array = false;
  uint32_t n = 0;
  if (napi_is_array(env, includes, &is_array) != napi_ok || !is_array)
    return throw_type(env, "include directories must be an array of strings"), NULL;
  napi_get_array_length(env, includes, &n);
  fbe_loader *loader = fbe_loader_new();
  if (!loader) return napi_throw_error(env, NULL, "out of memory"), NULL;
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    char *dir = napi_get_element(env, includes, i, &item) == napi_ok ? arg_string(env, item, NULL) : NULL;
    int added = dir && fbe_loader_add_include(loader, dir) == 0;
    if (dir && !added) napi_throw_error(env, NULL, "out of memory");
    fbei_mem_free(dir);
    if (!added) {
      fbe_loader_free(loader);
      return NULL;
    }
  }
  return loader;
}

/* An enum or flags value as lib/ holds it: a number, a bigint on a 64-bit base (u: the
 * pattern at the base's width, as the schema keeps values). */
napi_value enum_value(napi_env env, const fbe_enum *e, uint64_t u) {
  napi_value v = NULL;
  fbe_kind base = fbe_enum_base(e);
  if (base == FBE_KIND_INT64) napi_create_bigint_int64(env, (int64_t)u, &v);
  else if (base == FBE_KIND_UINT64) napi_create_bigint_uint64(env, u, &v);
  else v = js_num(env, fbei_kind_is_signed(base) ? (double)(int64_t)u : (double)(u & 0xffffffffu));
  return v;
}

/* enumParse(enumIndex, text) -> the value, or [status, message] when the text names none:
 * the core's reading of a member name or (flags) names and numbers joined by '|'
 * (fbe_enum_parse), the same in every binding. */
napi_value enum_parse_cb(napi_env env, napi_callback_info info) {
  ARGS(2, nschema, ns);
  size_t len = 0;
  uint64_t u = 0;
  fbe_error err;
  const fbe_enum *e = argc >= 2 ? arg_enum(env, ns, argv[0]) : NULL;
  char *text = e ? arg_string(env, argv[1], &len) : NULL;
  if (!text) return argc < 2 ? throw_type(env, "enumParse(enumIndex, text)") : NULL;
  fbe_status s = fbe_enum_parse(e, text, len, &u, &err);
  fbei_mem_free(text);
  if (s == FBE_OK) return enum_value(env, e, u);
  napi_value arr, items[2] = {js_num(env, (double)s), js_str(env, err.message)};
  return (arr = array_of(env, items, 2)) ? arr : napi_failure(env, "enumParse");
}

/* enumText(enumIndex, value: number | bigint) -> the value's text form (TEXT.md rules 10,
 * 11 and 15: fbe_text_write_enum), or undefined for a value that is not a whole number. */
napi_value enum_text_cb(napi_env env, napi_callback_info info) {
  ARGS(2, nschema, ns);
  napi_valuetype type = napi_undefined;
  uint64_t u = 0;
  bool lossless = false;
  napi_value text;
  fbe_error err;
  const fbe_enum *e = argc >= 2 ? arg_enum(env, ns, argv[0]) : NULL;
  if (!e) return argc < 2 ? throw_type(env, "enumText(enumIndex, value)") : NULL;
  napi_typeof(env, argv[1], &type);
  if (type == napi_bigint) {
    int64_t i;
    if (fbe_enum_base(e) == FBE_KIND_UINT64) napi_get_value_bigint_uint64(env, argv[1], &u, &lossless);
    else napi_get_value_bigint_int64(env, argv[1], &i, &lossless), u = (uint64_t)i;
  } else if (type == napi_number) {
    double d = 0;
    napi_get_value_double(env, argv[1], &d);
    if (d >= -9223372036854775808.0 && d < 18446744073709551616.0) {
      u = d < 0 ? (uint64_t)(int64_t)d : (uint64_t)d;
      lossless = d == (d < 0 ? (double)(int64_t)u : (double)u);
    }
  }
  if (!lossless) return js_undefined(env);
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_status s = fbe_text_write_enum(e, u, &out, &err);
  napi_value v = s == FBE_OK && napi_create_string_utf8(env, out.size ? (const char *)out.data : "", out.size,
                                                        &text) == napi_ok ? text : js_undefined(env);
  fbe_buffer_free(&out);
  return v;
}

/* The errors: the core's status table (lib/errors.js makes its classes from it), the
 * last error of a schema's calls, and the core's error text and path rule for the
 * errors lib/ raises itself, so that the format lives only in the core. */
#include <stdio.h>
#include <string.h>

#include "binding.h"
#include "fbe/internal/error.h"
#include "fbe/internal/input.h"
#include "fbe/internal/memory.h"

/* statuses() -> [[code, name, text, class, parent status], ...], 0 .. FBE_STATUS_COUNT - 1 */
napi_value statuses_cb(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value rows[FBE_STATUS_COUNT], arr;
  for (int i = 0; i < FBE_STATUS_COUNT; i++) {
    napi_value row[5] = {js_num(env, i), js_str(env, fbe_status_name(i)), js_str(env, fbe_status_text(i)),
                         js_str(env, fbe_status_class(i)), js_num(env, fbe_status_parent(i))};
    rows[i] = array_of(env, row, 5);
  }
  return (arr = array_of(env, rows, FBE_STATUS_COUNT)) ? arr : napi_failure(env, "statuses");
}

/* message, then what fbe_error_format writes after one (for err's path and offset). */
static napi_value error_text(napi_env env, const char *message, size_t len, const fbe_error *err) {
  char where[sizeof err->path + 48];
  fbe_error_format_where(err->path, err->offset, where, sizeof where);
  size_t n = strlen(where);
  char *text = fbei_mem_alloc(len + n + 1);
  napi_value v = NULL;
  if (!text) return napi_throw_error(env, NULL, "out of memory"), NULL;
  memcpy(text, message, len);
  memcpy(text + len, where, n + 1);
  napi_create_string_utf8(env, text, len + n, &v);
  fbei_mem_free(text);
  return v;
}

/* lastError() -> [status, message, path, offset (-1: none), text (fbe_error_format)] of
 * the schema's last failed call */
napi_value last_error_cb(napi_env env, napi_callback_info info) {
  ARGS(0, nschema, ns);
  const fbe_error *e = &ns->err;
  char text[sizeof e->message + sizeof e->path + 48];
  fbe_error_format(e, text, sizeof text);
  napi_value arr, items[5] = {js_num(env, (double)e->code), js_str(env, e->message), js_str(env, e->path),
                              js_num(env, e->offset == FBE_NO_OFFSET ? -1.0 : (double)e->offset), js_str(env, text)};
  return (arr = array_of(env, items, 5)) ? arr : napi_failure(env, "lastError");
}

/* An error at path (a string) and offset (a number, else none; NULL: none), for the
 * core's rules. */
static int arg_where(napi_env env, napi_value path, napi_value offset, fbe_error *err) {
  double d = -1;
  memset(err, 0, sizeof *err);
  err->code = FBE_ERR_ARGUMENT; /* (the path rules hold for errors only) */
  if (offset) napi_get_value_double(env, offset, &d);
  err->offset = d >= 0 ? (size_t)d : FBE_NO_OFFSET;
  return napi_get_value_string_utf8(env, path, err->path, sizeof err->path, NULL) == napi_ok ? 0 : -1;
}

/* errorText(message, path, offset | null) -> "message at 'path' (offset N)": the text of
 * an error lib/ raises, by the core's fbe_error_format. */
napi_value error_text_cb(napi_env env, napi_callback_info info) {
  ARGS(3, void, unused);
  size_t len;
  fbe_error err;
  if (argc < 3 || arg_where(env, argv[1], argv[2], &err)) return throw_type(env, "errorText(message, path, offset)");
  char *message = arg_string(env, argv[0], &len);
  napi_value text = message ? error_text(env, message, len, &err) : NULL;
  fbei_mem_free(message);
  return text;
}

/* prependPath(path, field, index | undefined) -> the path one level out: field (unless
 * "") and [index] in front, as one part, by the core's rule (fbei_error_prepend_field:
 * a path that would grow too long is marked as cut, "...", and grows no more). */
napi_value prepend_path_cb(napi_env env, napi_callback_info info) {
  ARGS(3, void, unused);
  fbe_error err;
  char part[sizeof err.path + 32];
  size_t len = 0;
  double index = -1;
  if (argc < 3 || arg_where(env, argv[0], NULL, &err) ||
      napi_get_value_string_utf8(env, argv[1], part, sizeof err.path, &len) != napi_ok)
    return throw_type(env, "prependPath(path, field, index)");
  napi_get_value_double(env, argv[2], &index);
  if (index >= 0) snprintf(part + len, sizeof part - len, "[%.0f]", index);
  fbei_error_prepend_field(&err, part);
  return js_str(env, err.path);
}

/* A kind by its name ("int32"); FBE_KIND_COUNT_ when there is none. */
static fbe_kind kind_named(const char *name) {
  int k = 0;
  while (k < FBE_KIND_COUNT_ && strcmp(fbe_kind_name((fbe_kind)k), name)) k++;
  return (fbe_kind)k;
}

/* What lib/ says a refused host value is (lib/runtime.js got()), as the core's fbei_got. */
static int got_named(const char *word, fbei_got *out) {
  static const char *const words[] = {"null", "bool", "integer", "float", "string", "bytes", "list", "set",
                                      "map", "struct", "enum", "time", "uuid", "decimal", "other"};
  for (int i = 0; i < (int)(sizeof words / sizeof *words); i++)
    if (!strcmp(words[i], word)) return *out = (fbei_got)(FBEI_GOT_NULL + i), 0;
  return -1;
}

/* inputError(what, ...) -> [status, message]: the core's words (fbe/internal/input.h) for
 * a host value lib/ refuses, so that no message of the input table is written in
 * JavaScript (lib/ puts the path on it by the core's rule, prependPath):
 *   ('type', si, fi, steps, got, name)  a value of the wrong kind for that field type
 *                                       (arg_field_type); fi -1: the struct si itself
 *   ('timestamp')                       a plain number for a timestamp
 *   ('unknown', si, name)               a field name struct si does not have
 *   ('text', kind, text)                text that is not a value of the kind
 *   ('length', si, fi, steps, n)        an array of n elements for a fixed array */
napi_value input_error_cb(napi_env env, napi_callback_info info) {
  ARGS(6, nschema, ns);
  char what[16] = "", word[16] = "", kind[32] = "";
  fbe_error err;
  fbei_got got;
  size_t len = 0;
  memset(&err, 0, sizeof err);
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], what, sizeof what, NULL) != napi_ok)
    return throw_type(env, "inputError(what, ...)");
  if (!strcmp(what, "type") && argc >= 6) {
    char *name = NULL;
    int32_t fi = arg_int(env, argv[2]);
    if (napi_get_value_string_utf8(env, argv[4], word, sizeof word, NULL) != napi_ok || got_named(word, &got))
      return throw_type(env, "inputError: bad got word");
    if (arg_package(env, argv[5], &name)) return NULL; /* (undefined or a string) */
    if (fi < 0) {
      const fbe_struct *st = arg_struct_index(env, ns, argv[1]);
      if (st) fbei_error_type_struct(&err, st, got, name);
    } else {
      const fbe_type *t = arg_field_type(env, ns, argv[1], argv[2], argv[3]);
      if (t) fbei_error_type(&err, t, got, name);
    }
    fbei_mem_free(name);
  } else if (!strcmp(what, "timestamp")) {
    fbei_error_timestamp_number(&err);
  } else if (!strcmp(what, "unknown") && argc >= 3) {
    const fbe_struct *st = arg_struct_index(env, ns, argv[1]);
    char *name = st ? arg_string(env, argv[2], &len) : NULL;
    if (name) fbei_error_unknown_field(&err, st, name, len);
    fbei_mem_free(name);
  } else if (!strcmp(what, "text") && argc >= 3) {
    fbe_kind k = FBE_KIND_COUNT_;
    if (napi_get_value_string_utf8(env, argv[1], kind, sizeof kind, NULL) == napi_ok) k = kind_named(kind);
    char *text = k != FBE_KIND_COUNT_ ? arg_string(env, argv[2], &len) : NULL;
    if (text) fbei_error_bad_text(&err, k, text, len);
    fbei_mem_free(text);
  } else if (!strcmp(what, "length") && argc >= 5) {
    const fbe_type *t = arg_field_type(env, ns, argv[1], argv[2], argv[3]);
    double n = 0;
    napi_get_value_double(env, argv[4], &n);
    if (t) fbei_error_array_length(&err, t, n > 0 ? (size_t)n : 0);
  } else {
    return throw_type(env, "inputError: unknown request");
  }
  if (!err.code) return NULL; /* an argument was refused: its exception is pending */
  napi_value arr, items[2] = {js_num(env, (double)err.code), js_str(env, err.message)};
  return (arr = array_of(env, items, 2)) ? arr : napi_failure(env, "inputError");
}

/* typeNotFound(name, what) -> [status, message]: a name the schema has no type of
 * (what: "type", "struct" or "enum"), FBE_ERR_NOT_FOUND. */
napi_value type_not_found_cb(napi_env env, napi_callback_info info) {
  ARGS(2, nschema, ns);
  char what[16] = "type";
  fbe_error err;
  size_t len = 0;
  char *name = argc >= 2 ? arg_string(env, argv[0], &len) : NULL;
  if (!name) return argc < 2 ? throw_type(env, "typeNotFound(name, what)") : NULL;
  napi_get_value_string_utf8(env, argv[1], what, sizeof what, NULL);
  fbei_error_unknown_type(&err, ns->schema, what, name, len);
  fbei_mem_free(name);
  napi_value arr, items[2] = {js_num(env, (double)err.code), js_str(env, err.message)};
  return (arr = array_of(env, items, 2)) ? arr : napi_failure(env, "typeNotFound");
}

/* modelParse(value) -> [0, model] or [status, message]: a model by name, by the core's
 * rule and words (fbe_model_parse); a value that is not a string is not a name. */
napi_value model_parse_cb(napi_env env, napi_callback_info info) {
  ARGS(1, void, unused);
  napi_valuetype t = napi_undefined;
  if (argc >= 1) napi_typeof(env, argv[0], &t);
  char name[64];
  size_t len = 0;
  if (t == napi_string && napi_get_value_string_utf8(env, argv[0], name, sizeof name, &len) != napi_ok)
    return napi_failure(env, "modelParse");
  fbe_model model = FBE_MODEL_STANDARD;
  fbe_error err;
  fbe_status s = fbe_model_parse(t == napi_string ? name : NULL, len, &model, &err);
  napi_value arr, items[2] = {js_num(env, (double)s), s ? js_str(env, err.message) : js_num(env, (double)model)};
  return (arr = array_of(env, items, 2)) ? arr : napi_failure(env, "modelParse");
}

/* rangeText(value, kind) -> "value 300 does not fit uint8": the core's words
 * (fbei_error_range) for a number lib/ finds out of range itself (bigints, 64-bit kinds). */
napi_value range_text_cb(napi_env env, napi_callback_info info) {
  ARGS(2, void, unused);
  char value[64], kind[32];
  fbe_error err;
  if (argc < 2 || napi_get_value_string_utf8(env, argv[0], value, sizeof value, NULL) != napi_ok ||
      napi_get_value_string_utf8(env, argv[1], kind, sizeof kind, NULL) != napi_ok)
    return throw_type(env, "rangeText(value, kind)");
  fbe_kind k = kind_named(kind);
  if (k == FBE_KIND_COUNT_) return throw_type(env, "rangeText: unknown kind");
  fbei_error_range(&err, value, (fbe_kind)k);
  return js_str(env, err.message);
}

/* depthRule() -> [maxDepth, status, message]: the core's depth rule for values lib/
 * flattens (FBE_DEFAULT_MAX_DEPTH optionals and collections), and the error past it
 * (the one the core's tape reader fails with). */
napi_value depth_rule_cb(napi_env env, napi_callback_info info) {
  (void)info;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbei_tape_too_deep(&err);
  napi_value arr, items[3] = {js_num(env, FBE_DEFAULT_MAX_DEPTH), js_num(env, (double)s), js_str(env, err.message)};
  return (arr = array_of(env, items, 3)) ? arr : napi_failure(env, "depthRule");
}

/* The per-schema state: loading (the core's loader), the native schema object with the
 * schema's description (names, field types, defaults: lib/ generates the classes from
 * it), and the tapes lib/ registers with it. */
#include <stdio.h>
#include <string.h>

#include "binding.h"
#include "fbe/internal/memory.h"
#include "fbe/internal/value.h" /* default images (fbei_str slots), dynamic default kinds */

void ns_release(nschema *ns, napi_env env) {
  if (--ns->refs) return;
  for (int i = 0; i < 5; i++)
    if (ns->buffers[i]) napi_delete_reference(env, ns->buffers[i]);
  fbei_mem_free(ns->vtypes);
  fbei_tape_programs_free(ns->progs);
  fbe_buffer_free(&ns->out);
  fbe_arena_free(ns->arena);
  fbe_schema_release(ns->schema);
  fbei_mem_free(ns->codecs);
  fbei_mem_free(ns);
}

static void ns_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  ns_release(data, env);
}

/* A function bound to data that holds a count on ns. */
napi_value make_fn(napi_env env, nschema *ns, const char *name, napi_callback cb, void *data) {
  napi_value fn;
  if (napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, data, &fn) != napi_ok ||
      napi_add_finalizer(env, fn, ns, ns_finalize, NULL, NULL) != napi_ok)
    return NULL;
  ns->refs++;
  return fn;
}

/* An object owning data (finalize frees it and drops the count on ns taken here) with
 * methods bound to data, each holding the object, so data lives while one is reachable.
 * On failure data is finalized at once. */
napi_value native_object(napi_env env, nschema *ns, void *data, napi_finalize finalize,
                         const method *methods, size_t n) {
  napi_value obj, fn;
  ns->refs++;
  if (napi_create_object(env, &obj) != napi_ok ||
      napi_add_finalizer(env, obj, data, finalize, NULL, NULL) != napi_ok) {
    finalize(env, data, NULL);
    return napi_failure(env, "a native object");
  }
  for (size_t i = 0; i < n; i++) {
    CHECK(napi_create_function(env, methods[i].name, NAPI_AUTO_LENGTH, methods[i].cb, data, &fn));
    CHECK(napi_set_named_property(env, fn, "owner", obj));
    CHECK(napi_set_named_property(env, obj, methods[i].name, fn));
  }
  return obj;
}

/* The struct of a tape call's first argument (want: how many it takes; usage: how). */
const fbe_struct *arg_struct(napi_env env, nschema *ns, size_t argc, size_t want, napi_value *argv,
                             const char *usage) {
  int32_t i = argc >= want ? arg_int(env, argv[0]) : -1;
  if (!tapes_ready(env, ns)) return NULL;
  if (i >= 0 && (uint32_t)i < ns->nstructs) return fbe_schema_struct_at(ns->schema, (size_t)i);
  return throw_type(env, argc < want ? usage : "bad type index"), NULL;
}

/* A struct by its dense index (NULL with a TypeError thrown when there is none). */
const fbe_struct *arg_struct_index(napi_env env, nschema *ns, napi_value v) {
  int32_t i = arg_int(env, v);
  if (i >= 0 && (uint32_t)i < ns->nstructs) return fbe_schema_struct_at(ns->schema, (size_t)i);
  return throw_type(env, "bad type index"), NULL;
}

/* The type a value lib/ refuses was meant to be: field fi of struct si, then steps, a
 * string of 'e' (the element, value or optional's type) and 'k' (a map's key): how
 * lib/codegen.js names the place without any pointer crossing. */
const fbe_type *arg_field_type(napi_env env, nschema *ns, napi_value si, napi_value fi, napi_value steps) {
  const fbe_struct *st = arg_struct_index(env, ns, si);
  int32_t k = st ? arg_int(env, fi) : -1;
  char path[64] = "";
  if (!st) return NULL;
  if (k < 0 || (size_t)k >= fbe_struct_field_count(st) ||
      napi_get_value_string_utf8(env, steps, path, sizeof path, NULL) != napi_ok)
    return throw_type(env, "bad field type reference"), NULL;
  const fbe_type *t = fbe_field_type(fbe_struct_field_at(st, (size_t)k));
  for (const char *c = path; *c && t; c++) t = *c == 'k' ? fbe_type_key(t) : fbe_type_element(t);
  return t ? t : (throw_type(env, "bad field type reference"), NULL);
}

/* An enum or flags type by its dense index. */
const fbe_enum *arg_enum(napi_env env, nschema *ns, napi_value v) {
  int32_t i = arg_int(env, v);
  if (i >= 0 && (size_t)i < fbe_schema_enum_count(ns->schema)) return fbe_schema_enum_at(ns->schema, (size_t)i);
  return throw_type(env, "bad enum index"), NULL;
}

#define CAP32(len) ((len) > INT32_MAX ? (uint32_t)INT32_MAX : (uint32_t)(len))

/* setTape(k, buffer: ArrayBuffer): lib/'s buffer k, kept alive here: 0 the slots, 1 the
 * bytes, 2 the registers (REG_COUNT int32), 3 the output pool (encode puts its bytes
 * there at REG_OUT), 4 the view registers (VR_COUNT doubles, view.c). */
static napi_value set_tape_cb(napi_env env, napi_callback_info info) {
  ARGS(2, nschema, ns);
  bool is_ab = false;
  void *data;
  size_t len;
  int32_t k = argc >= 2 ? arg_int(env, argv[0]) : -1;
  if (k >= 0 && k < 5) napi_is_arraybuffer(env, argv[1], &is_ab);
  if (!is_ab || napi_get_arraybuffer_info(env, argv[1], &data, &len) != napi_ok || (k == 2 && len < REG_COUNT * 4) ||
      (k == 4 && len < VR_COUNT * 8))
    return throw_type(env, "setTape(k: 0..4, buffer: ArrayBuffer)");
  if (ns->buffers[k]) napi_delete_reference(env, ns->buffers[k]);
  ns->buffers[k] = NULL;
  CHECK(napi_create_reference(env, argv[1], 1, &ns->buffers[k]));
  if (k == 0) ns->tape.num = data, ns->tape.num_cap = CAP32(len / 8);
  if (k == 1) ns->tape.bytes = data, ns->tape.bytes_cap = CAP32(len);
  if (k == 2) ns->regs = data;
  if (k == 3) ns->pool = data, ns->pool_cap = CAP32(len);
  if (k == 4) ns->vregs = data;
  return NULL;
}

/* A scalar default as a JavaScript value (lib/ builds structs and collections). */
static napi_value scalar_value(napi_env env, fbe_kind kind, const uint8_t *slot) {
  napi_value v = NULL;
  char text[64];
  const fbei_str *s = (const fbei_str *)slot;
  switch (kind) {
    case FBE_KIND_BOOL: return js_bool(env, *slot);
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: case FBE_KIND_UINT16:
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR: return js_num(env, (double)fbei_scalar_load(kind, slot));
    case FBE_KIND_INT8: case FBE_KIND_INT16: case FBE_KIND_INT32:
      return js_num(env, (double)(int64_t)fbei_scalar_load(kind, slot));
    case FBE_KIND_INT64: napi_create_bigint_int64(env, (int64_t)fbei_scalar_load(kind, slot), &v); return v;
    case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      napi_create_bigint_uint64(env, fbei_scalar_load(kind, slot), &v);
      return v;
    case FBE_KIND_FLOAT: return js_num(env, (double)*(const float *)slot);
    case FBE_KIND_DOUBLE: return js_num(env, *(const double *)slot);
    case FBE_KIND_DECIMAL: fbe_decimal_format((const fbe_decimal *)slot, text, sizeof text); return js_str(env, text);
    case FBE_KIND_UUID: fbe_uuid_format((const fbe_uuid *)slot, text); return js_str(env, text);
    case FBE_KIND_STRING: napi_create_string_utf8(env, s->size ? (const char *)s->data : "", s->size, &v); return v;
    case FBE_KIND_BYTES:
      napi_create_buffer_copy(env, s->size, s->size ? s->data : (const uint8_t *)"", NULL, &v);
      return v;
    default: return js_undefined(env);
  }
}

/* {kind, enum?, struct?, size?, key?, elem?} */
static napi_value type_desc(napi_env env, const fbe_type *t) {
  napi_value o;
  fbe_kind kind = fbe_type_kind(t);
  const fbe_enum *e = fbe_type_enum(t);
  if (napi_create_object(env, &o) != napi_ok || set_named(env, o, "kind", js_str(env, fbe_kind_name(kind))) ||
      (e && set_named(env, o, "enum", js_num(env, (double)fbe_enum_index(e)))) ||
      (kind == FBE_KIND_STRUCT &&
       set_named(env, o, "struct", js_num(env, (double)fbe_struct_index(fbe_type_struct(t))))) ||
      (kind == FBE_KIND_ARRAY && set_named(env, o, "size", js_num(env, fbe_type_array_size(t)))) ||
      (fbe_type_key(t) && set_named(env, o, "key", type_desc(env, fbe_type_key(t)))) ||
      (fbe_type_element(t) && set_named(env, o, "elem", type_desc(env, fbe_type_element(t)))))
    return NULL;
  return o;
}

/* {name, type, key, default | dynamic}: scalars and optional scalars carry their
 * default (from the struct's default image; lib/ knows the rest: nested struct
 * defaults, empty collections); DYNAMIC ones say which: "utc", "uuid1" or "uuid4". */
static napi_value field_desc(napi_env env, const fbe_struct *st, const fbe_field *f) {
  static const char *const keys[] = {"name", "type", "key", "default"};
  static const char *const dynamic_keys[] = {"name", "type", "key", "dynamic"};
  const fbe_type *t = fbe_field_type(f), *vt = t;
  const uint8_t *slot = (const uint8_t *)st->defaults + f->mem_offset;
  int dynamic = fbe_field_default_class(f) == FBE_DEFAULT_DYNAMIC;
  if (fbe_type_kind(t) == FBE_KIND_OPTIONAL) { /* the slot holds a pointer to the value, or NULL */
    memcpy(&slot, slot, sizeof slot);
    vt = fbe_type_element(t);
  }
  fbe_kind kind = fbe_type_enum(vt) ? fbe_enum_base(fbe_type_enum(vt)) : fbe_type_kind(vt); /* the slot's */
  napi_value v[4] = {js_str(env, fbe_field_name(f)), type_desc(env, t), js_bool(env, fbe_field_is_key(f)),
                     dynamic ? js_str(env, f->def.kind == FBE_DEF_UTC     ? "utc"
                                           : f->def.kind == FBE_DEF_UUID1 ? "uuid1" : "uuid4")
                     : slot  ? scalar_value(env, kind, slot)
                             : js_null(env)};
  return object_of(env, dynamic ? dynamic_keys : keys, v, 4);
}

/* An array of n items made by item(env, of, i); NULL when one fails. */
typedef napi_value (*item_fn)(napi_env env, const void *of, size_t i);
static napi_value list(napi_env env, size_t n, item_fn item, const void *of) {
  napi_value arr, v;
  if (napi_create_array_with_length(env, n, &arr) != napi_ok) return NULL;
  for (size_t i = 0; i < n; i++)
    if (!(v = item(env, of, i)) || napi_set_element(env, arr, (uint32_t)i, v) != napi_ok) return NULL;
  return arr;
}

static napi_value import_item(napi_env env, const void *pkg, size_t i) {
  /* (no public call lists a package's imports) */
  return js_str(env, fbe_package_name(((const fbe_package *)pkg)->imports[i]));
}

static napi_value package_item(napi_env env, const void *schema, size_t i) {
  static const char *const keys[] = {"name", "domain", "version", "imports"};
  const fbe_package *pkg = fbe_schema_package_at(schema, i);
  const char *domain = fbe_package_domain(pkg);
  char version[32];
  snprintf(version, sizeof version, "%u.%u", fbe_package_version_major(pkg), fbe_package_version_minor(pkg));
  napi_value v[4] = {js_str(env, fbe_package_name(pkg)), domain ? js_str(env, domain) : js_undefined(env),
                     js_str(env, version), list(env, pkg->nimports, import_item, pkg)};
  return object_of(env, keys, v, 4);
}

static napi_value field_item(napi_env env, const void *st, size_t i) {
  return field_desc(env, st, fbe_struct_field_at(st, i));
}

static napi_value reject_item(napi_env env, const void *st, size_t i) {
  /* (no public call lists a request's annotations) */
  return js_num(env, (double)fbe_struct_index(((const fbe_struct *)st)->rejects[i]));
}

/* {name, fullName, package, typeId, message, base (-1: none), inherited (how many of
 * the fields come from bases: the first ones), fields, request ([request]), response
 * (its [response(...)]'s index, -1: none), rejects (its [reject(...)]'s indexes)} */
static napi_value struct_item(napi_env env, const void *schema, size_t i) {
  static const char *const keys[] = {"name",   "fullName", "package", "typeId",   "message", "base",
                                     "inherited", "fields", "request", "response", "rejects"};
  const fbe_struct *st = fbe_schema_struct_at(schema, i), *base = fbe_struct_base(st);
  napi_value v[11] = {js_str(env, fbe_struct_name(st)), js_str(env, fbe_struct_full_name(st)),
                      js_str(env, fbe_package_name(st->pkg)), js_num(env, fbe_struct_type_id(st)),
                      js_bool(env, fbe_struct_is_message(st)),
                      js_num(env, base ? (double)fbe_struct_index(base) : -1),
                      js_num(env, (double)fbe_struct_inherited_count(st)),
                      list(env, fbe_struct_field_count(st), field_item, st),
                      js_bool(env, st->is_request),
                      js_num(env, st->response ? (double)fbe_struct_index(st->response) : -1),
                      list(env, st->nrejects, reject_item, st)};
  return object_of(env, keys, v, 11);
}

/* [name, value]: a number, a bigint on a 64-bit base */
static napi_value enum_value_item(napi_env env, const void *e, size_t i) {
  napi_value v[2] = {js_str(env, fbe_enum_value_name(e, i)), enum_value(env, e, fbe_enum_value_at(e, i))};
  return array_of(env, v, 2);
}

static napi_value enum_item(napi_env env, const void *schema, size_t i) {
  static const char *const keys[] = {"name", "fullName", "package", "flags", "base", "values"};
  const fbe_enum *e = fbe_schema_enum_at(schema, i);
  napi_value v[6] = {js_str(env, fbe_enum_name(e)), js_str(env, fbe_enum_full_name(e)),
                     js_str(env, fbe_package_name(e->pkg)), js_bool(env, fbe_enum_is_flags(e)),
                     js_str(env, fbe_kind_name(fbe_enum_base(e))),
                     list(env, fbe_enum_value_count(e), enum_value_item, e)};
  return object_of(env, keys, v, 6);
}

static nschema *ns_new(fbe_schema *schema) {
  nschema *ns = fbei_mem_calloc(1, sizeof *ns);
  if (!ns) return NULL;
  ns->refs = 1; /* a temporary count, so a failure frees ns once every function is gone */
  ns->nstructs = (uint32_t)fbe_schema_struct_count(schema);
  ns->arena = fbe_arena_new();
  ns->progs = fbei_tape_compile(schema, FBE_TAPE_DOUBLE);
  ns->codecs = fbei_mem_calloc(2 * (size_t)ns->nstructs + 1, sizeof *ns->codecs);
  if (!ns->arena || !ns->progs || !ns->codecs) {
    ns_release(ns, NULL); /* (the schema is still the caller's; no buffers yet) */
    return NULL;
  }
  ns->schema = schema;
  for (uint32_t i = 0; i < 2 * ns->nstructs; i++)
    ns->codecs[i] = (codec){ns, fbe_schema_struct_at(schema, i / 2),
                            i % 2 ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD};
  return ns;
}

/* The native schema object: {desc: {root, packages, structs, enums}, warnings, and the
 * functions below}; structs and enums in the core's dense index order. */
static napi_value schema_object(napi_env env, fbe_schema *schema, napi_value warnings) {
  static const method methods[] = {{"codec", codec_cb},           {"setTape", set_tape_cb},
                                   {"verify", verify_cb},         {"toJson", to_json_cb},
                                   {"fromJson", from_json_cb},    {"lastError", last_error_cb},
                                   {"toText", to_text_cb},        {"pair", pair_cb},
                                   {"copy", copy_cb},             {"inputError", input_error_cb},
                                   {"enumParse", enum_parse_cb},  {"enumText", enum_text_cb},
                                   {"typeNotFound", type_not_found_cb},
                                   {"sender", sender_new_cb},     {"receiver", receiver_new_cb},
                                   {"client", client_new_cb},     {"server", server_new_cb},
                                   {"proxy", proxy_new_cb},
                                   {"viewOpeners", view_openers_cb},  {"viewGet", view_get_cb},
                                   {"viewCount", view_count_cb},  {"viewType", view_type_cb},
                                   {"viewValue", view_value_cb},  {"viewText", view_text_cb},
                                   {"viewEqual", view_equal_cb}};
  static const char *const keys[] = {"root", "packages", "structs", "enums"};
  nschema *ns = ns_new(schema);
  if (!ns) {
    fbe_schema_release(schema);
    return napi_throw_error(env, NULL, "out of memory"), NULL;
  }
  napi_value v[4] = {js_str(env, fbe_package_name(fbe_schema_root(schema))),
                     list(env, fbe_schema_package_count(schema), package_item, schema),
                     list(env, ns->nstructs, struct_item, schema),
                     list(env, fbe_schema_enum_count(schema), enum_item, schema)};
  napi_value obj = NULL, desc = object_of(env, keys, v, 4);
  int failed = !desc || napi_create_object(env, &obj) != napi_ok || set_named(env, obj, "desc", desc) ||
               set_named(env, obj, "warnings", warnings);
  for (size_t i = 0; !failed && i < sizeof methods / sizeof methods[0]; i++)
    failed = set_named(env, obj, methods[i].name, make_fn(env, ns, methods[i].name, methods[i].cb, ns));
  ns_release(ns, env);
  return failed ? napi_failure(env, "loading the schema") : obj;
}

/* The loader's errors (or warnings) as "file:line:col: message" texts. */
static napi_value diagnostics(napi_env env, fbe_loader *loader, int errors) {
  napi_value arr;
  uint32_t k = 0;
  if (napi_create_array(env, &arr) != napi_ok) return NULL;
  for (size_t i = 0; i < fbe_loader_diagnostic_count(loader); i++)
    if (!fbe_loader_diagnostic_is_error(loader, i) == !errors &&
        napi_set_element(env, arr, k++, js_str(env, fbe_loader_diagnostic_text(loader, i))) != napi_ok)
      return NULL;
  return arr;
}

enum load_kind { LOAD_FILE, LOAD_STRING, LOAD_PACKAGE };

/* loadFile(path, includes), loadString(text, name, includes), loadPackage(name,
 * includes) -> the native schema object, or {errors: [text, ...]} when it does not load. */
static napi_value load(napi_env env, napi_callback_info info, enum load_kind kind) {
  ARGS(3, void, unused);
  size_t want = kind == LOAD_STRING ? 3 : 2, len = 0;
  napi_value result = NULL, diags;
  if (argc < want) return throw_type(env, "load: missing arguments");
  char *text = arg_string(env, argv[0], &len);
  char *name = text && kind == LOAD_STRING ? arg_string(env, argv[1], NULL) : NULL;
  fbe_loader *loader = text && (name || kind != LOAD_STRING) ? arg_loader(env, argv[want - 1]) : NULL;
  fbe_schema *schema = !loader                ? NULL
                       : kind == LOAD_FILE   ? fbe_loader_load_file(loader, text)
                       : kind == LOAD_STRING ? fbe_loader_load_string(loader, text, len, name)
                                             : fbe_loader_load_package(loader, text);
  if (loader && (diags = diagnostics(env, loader, !schema)))
    result = schema ? schema_object(env, schema, diags)
                    : object_of(env, (const char *const[]){"errors"}, &diags, 1);
  else if (schema)
    fbe_schema_release(schema);
  fbe_loader_free(loader);
  fbei_mem_free(text);
  fbei_mem_free(name);
  return result ? result : napi_failure(env, "load");
}

napi_value load_file_cb(napi_env env, napi_callback_info info) { return load(env, info, LOAD_FILE); }
napi_value load_string_cb(napi_env env, napi_callback_info info) { return load(env, info, LOAD_STRING); }
napi_value load_package_cb(napi_env env, napi_callback_info info) { return load(env, info, LOAD_PACKAGE); }

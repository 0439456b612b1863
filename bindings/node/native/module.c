/* The module: its functions (loading, the status table, the error text, the dynamic
 * defaults, the memory count) registered on the exports of each Node environment. */
#include "binding.h"
#include "fbe/internal/memory.h"
#include "fbe/internal/uuid.h"

static napi_value version_cb(napi_env env, napi_callback_info info) {
  (void)info;
  return js_str(env, fbe_version());
}

/* utcNow() -> bigint nanoseconds; uuid1()/uuid4() -> string: the dynamic defaults. */
static napi_value utc_now_cb(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value v;
  CHECK(napi_create_bigint_uint64(env, fbei_now_ns(), &v));
  return v;
}

static napi_value uuid_cb(napi_env env, napi_callback_info info, int version) {
  (void)info;
  fbe_uuid u;
  char text[37];
  if (version == 1) fbei_uuid_v1(u.bytes);
  else fbei_uuid_v4(u.bytes);
  fbe_uuid_format(&u, text);
  return js_str(env, text);
}
static napi_value uuid1_cb(napi_env env, napi_callback_info info) { return uuid_cb(env, info, 1); }
static napi_value uuid4_cb(napi_env env, napi_callback_info info) { return uuid_cb(env, info, 4); }

/* memoryInUse() -> number: fbe_memory_in_use(), the bytes the core and this addon hold
 * (exact, below 2^53); internal, for the leak tests. */
static napi_value memory_in_use_cb(napi_env env, napi_callback_info info) {
  (void)info;
  return js_num(env, (double)fbe_memory_in_use());
}

NAPI_MODULE_INIT() {
  static const method fns[] = {
      {"loadFile", load_file_cb},   {"loadString", load_string_cb},     {"loadPackage", load_package_cb},
      {"version", version_cb},      {"statuses", statuses_cb},          {"errorText", error_text_cb},
      {"prependPath", prepend_path_cb}, {"rangeText", range_text_cb},   {"depthRule", depth_rule_cb},
      {"utcNow", utc_now_cb},       {"uuid1", uuid1_cb},                {"uuid4", uuid4_cb},
      {"memoryInUse", memory_in_use_cb}, {"modelParse", model_parse_cb}};
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    napi_value fn;
    if (napi_create_function(env, fns[i].name, NAPI_AUTO_LENGTH, fns[i].cb, NULL, &fn) != napi_ok ||
        napi_set_named_property(env, exports, fns[i].name, fn) != napi_ok)
      return NULL;
  }
  return exports;
}

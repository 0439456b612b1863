/* The Node-API addon: the libfbe core compiled in, offered to the JavaScript layer
 * (lib/) as a few coarse calls. Loading a schema returns a native object holding the
 * schema's description (names, field types, defaults: lib/ generates the classes from
 * it); codec(k) makes the encode and decode functions of a struct and model when lib/
 * first uses them, bound to their struct through the callback data, so a hot call
 * takes no argument to look up. Values cross on the tape (tape.h): one N-API call per
 * encode, decode, verify, JSON conversion or send; a receiver calls back into
 * JavaScript once per message.
 *
 * Memory: every native object's functions hold a count on the schema context, freed
 * by the last finalizer. Bytes handed to JavaScript are copies the GC owns (in lib/'s
 * output pool, or a Buffer of their own). */
#define NAPI_VERSION 8
#include <node_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbe/fbe.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/value.h"
#include "fbe/internal/error.h"
#include "fbe/internal/memory.h" /* the core's counted allocator, for this file's blocks too */
#include "tape.h"

/* ------------------------------------------------------------------ context */

typedef struct nschema nschema;

/* A struct's or enum's position in description order, found by its address. */
typedef struct index_entry {
  const void *p;
  uint32_t i;
} index_entry;

/* Callback data of the per-struct codec functions. */
typedef struct codec {
  nschema *ns;
  const fbe_struct *st;
  fbe_model model;
} codec;

struct nschema {
  uint32_t refs;          /* live JavaScript functions/objects pointing here */
  fbe_schema *schema;
  uint32_t nstructs, nenums;
  const fbe_struct **structs; /* description order: index = lib/'s type index */
  const fbe_enum **enums;
  codec *codecs;          /* 2 per struct: [index * 2 + model] */
  index_entry *struct_at; /* structs[] / enums[] sorted by address: an index in log n */
  index_entry *enum_at;
  fbe_tape tape;
  fbe_tape_progs *progs;
  napi_ref tape_refs[4];  /* keep the tape buffers and the output pool alive */
  fbe_arena *arena;       /* every call resets it */
  fbe_buffer out;
  fbe_error err;          /* the last error, for lastError() */
};

typedef struct nsender {
  nschema *ns;
  fbe_sender *sender;
  napi_env env;
  napi_value frame;       /* what the sink handed out during send (hand_out) */
} nsender;

typedef struct nreceiver {
  nschema *ns;
  fbe_receiver *receiver;
  napi_env env;
  napi_value deliver;     /* during feed: lib/'s function(typeIndex) (not kept: no cycle) */
  int feeding;
} nreceiver;

static void ns_release(nschema *ns, napi_env env) {
  if (--ns->refs) return;
  for (int i = 0; i < 4; i++)
    if (ns->tape_refs[i]) napi_delete_reference(env, ns->tape_refs[i]);
  fbe_tape_progs_free(ns->progs);
  fbe_buffer_free(&ns->out);
  fbe_arena_free(ns->arena);
  fbe_schema_release(ns->schema);
  fbe_mem_free(ns->structs);
  fbe_mem_free(ns->enums);
  fbe_mem_free(ns->codecs);
  fbe_mem_free(ns->struct_at);
  fbe_mem_free(ns->enum_at);
  fbe_mem_free(ns);
}

static void ns_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  ns_release(data, env);
}

/* ------------------------------------------------------------------ helpers */

/* Throws the pending N-API failure as a JavaScript error (unless one is pending). */
static napi_value napi_failure(napi_env env, const char *what) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) {
    const napi_extended_error_info *info = NULL;
    napi_get_last_error_info(env, &info);
    char text[256];
    snprintf(text, sizeof text, "fbe addon: %s failed: %s", what,
             info && info->error_message ? info->error_message : "N-API error");
    napi_throw_error(env, NULL, text);
  }
  return NULL;
}

#define CHECK(call)                                           \
  do {                                                        \
    if ((call) != napi_ok) return napi_failure(env, #call);   \
  } while (0)

static napi_value throw_type(napi_env env, const char *text) {
  napi_throw_type_error(env, NULL, text);
  return NULL;
}

static napi_value make_fn(napi_env env, nschema *ns, const char *name, napi_callback cb,
                          void *data) {
  napi_value fn;
  if (napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, data, &fn) != napi_ok) return NULL;
  if (napi_add_finalizer(env, fn, ns, ns_finalize, NULL, NULL) != napi_ok) return NULL;
  ns->refs++;
  return fn;
}

static int set_named(napi_env env, napi_value obj, const char *key, napi_value v) {
  return v && napi_set_named_property(env, obj, key, v) == napi_ok ? 0 : -1;
}

static napi_value str(napi_env env, const char *s) {
  napi_value v;
  return napi_create_string_utf8(env, s ? s : "", NAPI_AUTO_LENGTH, &v) == napi_ok ? v : NULL;
}

static napi_value num(napi_env env, double d) {
  napi_value v;
  return napi_create_double(env, d, &v) == napi_ok ? v : NULL;
}

static napi_value boolean(napi_env env, int b) {
  napi_value v;
  return napi_get_boolean(env, b != 0, &v) == napi_ok ? v : NULL;
}

static napi_value undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

/* A string argument as a malloc'd NUL-terminated copy (NULL with a TypeError thrown). */
static char *arg_string(napi_env env, napi_value v, size_t *length) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) {
    throw_type(env, "expected a string");
    return NULL;
  }
  char *s = fbe_mem_alloc(len + 1);
  if (!s) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  napi_get_value_string_utf8(env, v, s, len + 1, &len);
  if (length) *length = len;
  return s;
}

/* A text argument (JSON) as UTF-8 bytes, malloc'd. N-API writes a lone surrogate as
 * U+FFFD, which would hide it: when the UTF-8 holds U+FFFD, the UTF-16 code units are
 * converted here instead, a lone one as its 3 bytes (ED A0 80 for U+D800), so that the
 * core refuses it with its words. NULL with an exception thrown. */
static int has_replacement(const char *s, size_t n) {
  for (size_t i = 0; i + 3 <= n; i++)
    if ((uint8_t)s[i] == 0xef && (uint8_t)s[i + 1] == 0xbf && (uint8_t)s[i + 2] == 0xbd) return 1;
  return 0;
}

static char *arg_text(napi_env env, napi_value v, size_t *length) {
  char *s = arg_string(env, v, length);
  if (!s || !has_replacement(s, *length)) return s;
  fbe_mem_free(s);
  size_t units = 0;
  if (napi_get_value_string_utf16(env, v, NULL, 0, &units) != napi_ok) {
    throw_type(env, "expected a string");
    return NULL;
  }
  char16_t *u = fbe_mem_alloc((units + 1) * sizeof *u);
  uint8_t *out = u ? fbe_mem_alloc(units * 3 + 1) : NULL;
  if (!out) {
    fbe_mem_free(u);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  napi_get_value_string_utf16(env, v, u, units + 1, &units);
  size_t o = 0;
  for (size_t i = 0; i < units; i++) {
    uint32_t c = u[i];
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < units && u[i + 1] >= 0xdc00 && u[i + 1] <= 0xdfff)
      c = 0x10000 + ((c - 0xd800) << 10) + (u[++i] - 0xdc00u);
    if (c < 0x80) {
      out[o++] = (uint8_t)c;
    } else if (c < 0x800) {
      out[o++] = (uint8_t)(0xc0 | c >> 6);
      out[o++] = (uint8_t)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) { /* a lone surrogate too */
      out[o++] = (uint8_t)(0xe0 | c >> 12);
      out[o++] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
      out[o++] = (uint8_t)(0x80 | (c & 0x3f));
    } else {
      out[o++] = (uint8_t)(0xf0 | c >> 18);
      out[o++] = (uint8_t)(0x80 | ((c >> 12) & 0x3f));
      out[o++] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
      out[o++] = (uint8_t)(0x80 | (c & 0x3f));
    }
  }
  out[o] = 0;
  fbe_mem_free(u);
  *length = o;
  return (char *)out;
}

/* Bytes of a Uint8Array/Buffer argument (borrowed for the call). */
static int arg_bytes(napi_env env, napi_value v, const uint8_t **data, size_t *size) {
  napi_typedarray_type type;
  size_t length;
  void *p = NULL;
  if (napi_get_typedarray_info(env, v, &type, &length, &p, NULL, NULL) != napi_ok ||
      (type != napi_uint8_array && type != napi_int8_array && type != napi_uint8_clamped_array)) {
    throw_type(env, "expected a Uint8Array");
    return -1;
  }
  static const uint8_t empty[1] = {0};
  *data = p ? p : empty;
  *size = length;
  return 0;
}

static int32_t arg_int(napi_env env, napi_value v) {
  int32_t i = -1;
  napi_get_value_int32(env, v, &i);
  return i;
}

/* ------------------------------------------------------------------ limits */

/* An integer beyond int64 is clamped to INT64_MIN/INT64_MAX before the core sees it
 * (so it refuses it, or takes it as very large). */
static int64_t clamp_double(double d) {
  if (d >= 9223372036854775808.0) return INT64_MAX;
  if (d < -9223372036854775808.0) return INT64_MIN;
  return (int64_t)d;
}

static int limit_value(napi_env env, napi_value v, const char *name, int64_t *out, fbe_error *err) {
  napi_valuetype type;
  if (napi_typeof(env, v, &type) != napi_ok) type = napi_undefined;
  if (type == napi_number) {
    double d = 0;
    napi_get_value_double(env, v, &d);
    if (isfinite(d) && d == floor(d)) {
      *out = clamp_double(d);
      return 0;
    }
  } else if (type == napi_bigint) {
    bool lossless = false;
    napi_get_value_bigint_int64(env, v, out, &lossless);
    if (!lossless) { /* beyond int64: clamped by its sign */
      int sign = 0;
      size_t words = 1;
      uint64_t word;
      napi_get_value_bigint_words(env, v, &sign, &words, &word);
      *out = sign ? INT64_MIN : INT64_MAX;
    }
    return 0;
  }
  fbe_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "limits.%.64s must be an integer (a number or a bigint)", name);
  return -1;
}

/* The limits of the options a call was given ({maxDepth, maxModelSize, maxMemory}; lib/
 * passes a copy with data properties only, so reading them runs no JavaScript): each
 * own property goes to the core's fbe_limits_set, which decides the names, ranges and
 * texts (an unknown name's too). Only the host's part is here: a value that is not an
 * integer (a number or a bigint) is a TYPE error, an undefined one is absent.
 * Returns the limits to pass the core: NULL for undefined/null (the defaults), or NULL
 * with *failed = 1 and err set. */
static const fbe_limits *arg_limits(napi_env env, napi_value v, fbe_limits *limits, fbe_error *err,
                                    int *failed) {
  napi_valuetype type;
  *failed = 0;
  if (napi_typeof(env, v, &type) != napi_ok || type == napi_undefined || type == napi_null) return NULL;
  *limits = fbe_limits_default();
  napi_value keys;
  uint32_t n = 0;
  if (type != napi_object ||
      napi_get_all_property_names(env, v, napi_key_own_only,
                                  napi_key_enumerable | napi_key_skip_symbols,
                                  napi_key_numbers_to_strings, &keys) != napi_ok ||
      napi_get_array_length(env, keys, &n) != napi_ok) {
    fbe_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET,
                  "limits must be an object ({ maxDepth, maxModelSize, maxMemory })");
    *failed = 1;
    return NULL;
  }
  for (uint32_t i = 0; i < n; i++) {
    napi_value key, value;
    char name[128];
    size_t len = 0;
    napi_valuetype vt = napi_undefined;
    if (napi_get_element(env, keys, i, &key) != napi_ok ||
        napi_get_value_string_utf8(env, key, name, sizeof name, &len) != napi_ok ||
        napi_get_property(env, v, key, &value) != napi_ok) {
      fbe_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "limits: a property cannot be read");
      *failed = 1;
      return NULL;
    }
    for (size_t k = 0; k < len; k++)
      if (!name[k]) name[k] = '?'; /* a NUL inside: still the unknown name it is */
    napi_typeof(env, value, &vt);
    if (vt == napi_undefined) continue;
    int64_t x;
    if (limit_value(env, value, name, &x, err) || fbe_limits_set(limits, name, x, err) != FBE_OK) {
      *failed = 1;
      return NULL;
    }
  }
  return limits;
}

static const fbe_struct *arg_struct(napi_env env, nschema *ns, napi_value v) {
  int32_t i = arg_int(env, v);
  if (i < 0 || (uint32_t)i >= ns->nstructs) {
    throw_type(env, "bad type index");
    return NULL;
  }
  return ns->structs[i];
}

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const index_entry *)a)->p, y = (uintptr_t)((const index_entry *)b)->p;
  return x < y ? -1 : x > y;
}

/* The entries of items[0..n) sorted by address (NULL when out of memory). */
static index_entry *index_new(const void *const *items, uint32_t n) {
  index_entry *at = fbe_mem_calloc((size_t)n + 1, sizeof *at);
  if (!at) return NULL;
  for (uint32_t i = 0; i < n; i++) at[i] = (index_entry){items[i], i};
  qsort(at, n, sizeof *at, by_address);
  return at;
}

static int32_t index_find(const index_entry *at, uint32_t n, const void *p) {
  index_entry key = {p, 0};
  const index_entry *e = bsearch(&key, at, n, sizeof *at, by_address);
  return e ? (int32_t)e->i : -1;
}

/* Looked up per field when describing a schema and per message received: a linear
 * search made loading a schema of 10^5 structs quadratic. */
static int32_t struct_index(const nschema *ns, const fbe_struct *st) {
  return index_find(ns->struct_at, ns->nstructs, st);
}

static int32_t enum_index(const nschema *ns, const fbe_enum *e) {
  return index_find(ns->enum_at, ns->nenums, e);
}

static void set_status(nschema *ns, fbe_status s) {
  if (ns->tape.regs) ns->tape.regs[REG_STATUS] = (int32_t)s;
}

static int tapes_ready(napi_env env, nschema *ns) {
  if (ns->tape.regs) return 1;
  napi_throw_error(env, NULL, "fbe addon: setTapes was not called");
  return 0;
}

/* A new message of st in the schema's (reset) arena, filled from the tape. */
static fbe_msg *msg_from_tape(nschema *ns, const fbe_struct *st) {
  fbe_arena_reset(ns->arena);
  fbe_msg *m = fbe_arena_alloc(ns->arena, sizeof(fbe_msg) + st->mem_size);
  if (!m) {
    fbe_error_set(&ns->err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
    set_status(ns, FBE_ERR_NOMEM);
    return NULL;
  }
  m->type = st;
  m->arena = ns->arena;
  memset(fbe_msg_data(m), 0, st->mem_size);
  fbe_status s = fbe_tape_read_struct(&ns->tape, st, fbe_msg_data(m), ns->arena, &ns->err);
  if (s != FBE_OK) {
    set_status(ns, s);
    return NULL;
  }
  return m;
}

/* Writes a message onto the tape; REG_STATUS says ok or REG_NEED_SPACE. */
static void msg_to_tape(nschema *ns, const fbe_msg *m) {
  int rc = fbe_tape_write_struct(&ns->tape, m->type, fbe_msg_data(m));
  ns->tape.regs[REG_STATUS] = rc ? REG_NEED_SPACE : 0;
}

/* Big buffers are not kept between calls. */
static void trim(nschema *ns) {
  if (ns->out.capacity > ((size_t)1 << 20)) fbe_buffer_free(&ns->out);
}

/* ------------------------------------------------------------------ codecs */

/* Hands encoded bytes to JavaScript. Small results go into lib/'s output pool at
 * REG_OUT and lib/ makes a Buffer view of them, as Node's own Buffer.allocUnsafe pool
 * does: one backing store for many results instead of one each (a new Buffer per call
 * is the dearest part of a small encode). Returns NULL then (REG_OUT = 1, REG_SIZE =
 * size); bigger results become a Buffer of their own (REG_OUT = 0). */
static napi_value hand_out(napi_env env, nschema *ns, const uint8_t *data, size_t size) {
  int32_t *regs = ns->tape.regs;
  int32_t at = regs[REG_OUT];
  if (size <= POOL_RESULT_MAX && ns->tape.out && at >= 0 && (uint32_t)at <= ns->tape.out_cap &&
      size <= ns->tape.out_cap - (uint32_t)at) {
    if (size) memcpy(ns->tape.out + at, data, size);
    regs[REG_SIZE] = (int32_t)size;
    regs[REG_OUT] = 1;
    return NULL;
  }
  regs[REG_OUT] = 0;
  napi_value buf;
  if (napi_create_buffer_copy(env, size, size ? data : (const uint8_t *)"", NULL, &buf) != napi_ok)
    return napi_failure(env, "napi_create_buffer_copy");
  return buf;
}

/* enc(): the value on the tape, encoded and handed out (hand_out); REG_STATUS != 0 and
 * lastError() when it failed. */
static napi_value enc_cb(napi_env env, napi_callback_info info) {
  codec *c;
  CHECK(napi_get_cb_info(env, info, NULL, NULL, NULL, (void **)&c));
  nschema *ns = c->ns;
  if (!tapes_ready(env, ns)) return NULL;
  fbe_msg *m = msg_from_tape(ns, c->st);
  if (!m) return NULL;
  fbe_buffer_reset(&ns->out);
  fbe_status s = fbe_encode(m, c->model, &ns->out, &ns->err);
  if (s != FBE_OK) {
    set_status(ns, s);
    return NULL;
  }
  ns->tape.regs[REG_STATUS] = 0;
  napi_value buf = hand_out(env, ns, ns->out.data, ns->out.size);
  trim(ns);
  return buf;
}

/* dec(bytes[, limits]): decodes with the core's verifying fbe_decode (fbe_decode_trusted
 * when REG_FLAGS has FLAG_TRUSTED) within the limits, then writes the value onto the
 * tape. Result in REG_STATUS; REG_SIZE = model size. */
static napi_value dec_cb(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  codec *c;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&c));
  nschema *ns = c->ns;
  if (!tapes_ready(env, ns)) return NULL;
  int32_t *regs = ns->tape.regs;
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  int failed = 0;
  if (argc >= 2) limits = arg_limits(env, argv[1], &storage, &ns->err, &failed);
  if (failed) {
    regs[REG_STATUS] = (int32_t)ns->err.code;
    return NULL;
  }
  const uint8_t *data; /* borrowed: taken after the limits, with no JavaScript run between */
  size_t size;
  if (argc < 1 || arg_bytes(env, argv[0], &data, &size)) return NULL;
  fbe_arena_reset(ns->arena);
  fbe_msg *m = NULL;
  size_t model_size = 0;
  fbe_status s = (regs[REG_FLAGS] & FLAG_TRUSTED ? fbe_decode_trusted : fbe_decode)(
      c->st, c->model, data, size, ns->arena, limits, &m, &model_size, &ns->err);
  if (s != FBE_OK) {
    regs[REG_STATUS] = (int32_t)s;
    return NULL;
  }
  regs[REG_SIZE] = model_size > INT32_MAX ? INT32_MAX : (int32_t)model_size;
  msg_to_tape(ns, m);
  return NULL;
}

/* verify(typeIndex, final, bytes[, limits]) -> model size, -1 when the bytes are not
 * valid, -2 when the limits are refused (lastError says why). */
static napi_value verify_cb(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&ns));
  if (argc < 3) return throw_type(env, "verify(typeIndex, final, bytes)");
  const fbe_struct *st = arg_struct(env, ns, argv[0]);
  if (!st) return NULL;
  bool final = false;
  napi_get_value_bool(env, argv[1], &final);
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  int failed = 0;
  if (argc >= 4) limits = arg_limits(env, argv[3], &storage, &ns->err, &failed);
  if (failed) return num(env, -2.0);
  const uint8_t *data;
  size_t size, model_size = 0;
  if (arg_bytes(env, argv[2], &data, &size)) return NULL;
  fbe_status s = fbe_verify(st, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, data, size, limits,
                            &model_size, &ns->err);
  return num(env, s == FBE_OK ? (double)model_size : -1.0);
}

/* toJson(typeIndex, pretty) -> string | undefined: the value on the tape as JSON. */
static napi_value to_json_cb(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&ns));
  if (!tapes_ready(env, ns)) return NULL;
  if (argc < 2) return throw_type(env, "toJson(typeIndex, pretty)");
  const fbe_struct *st = arg_struct(env, ns, argv[0]);
  if (!st) return NULL;
  bool pretty = false;
  napi_get_value_bool(env, argv[1], &pretty);
  fbe_msg *m = msg_from_tape(ns, st);
  if (!m) return NULL;
  fbe_buffer_reset(&ns->out);
  fbe_status s = fbe_msg_to_json(m, pretty, &ns->out, &ns->err);
  if (s != FBE_OK) {
    set_status(ns, s);
    return NULL;
  }
  napi_value text;
  CHECK(napi_create_string_utf8(env, ns->out.size ? (const char *)ns->out.data : "",
                                ns->out.size, &text));
  trim(ns);
  return text;
}

/* fromJson(typeIndex, text[, limits]): reads JSON into a new message within the limits
 * and writes it onto the tape. */
static napi_value from_json_cb(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&ns));
  if (!tapes_ready(env, ns)) return NULL;
  if (argc < 2) return throw_type(env, "fromJson(typeIndex, text)");
  const fbe_struct *st = arg_struct(env, ns, argv[0]);
  if (!st) return NULL;
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  int failed = 0;
  if (argc >= 3) limits = arg_limits(env, argv[2], &storage, &ns->err, &failed);
  if (failed) {
    set_status(ns, ns->err.code);
    return NULL;
  }
  size_t len;
  char *text = arg_text(env, argv[1], &len);
  if (!text) return NULL;
  fbe_arena_reset(ns->arena);
  fbe_msg *m = NULL;
  fbe_status s = fbe_msg_from_json_limited(st, text, len, ns->arena, limits, &m, &ns->err);
  fbe_mem_free(text);
  if (s != FBE_OK) {
    set_status(ns, s);
    return NULL;
  }
  msg_to_tape(ns, m);
  return NULL;
}

/* lastError() -> [status, name, message, path, offset (-1: none)] */
static napi_value last_error_cb(napi_env env, napi_callback_info info) {
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, NULL, NULL, NULL, (void **)&ns));
  napi_value arr;
  CHECK(napi_create_array_with_length(env, 5, &arr));
  const fbe_error *e = &ns->err;
  napi_value items[5] = {
      num(env, (double)e->code), str(env, fbe_status_name(e->code)), str(env, e->message),
      str(env, e->path), num(env, e->offset == FBE_NO_OFFSET ? -1.0 : (double)e->offset)};
  for (uint32_t i = 0; i < 5; i++) CHECK(napi_set_element(env, arr, i, items[i]));
  return arr;
}

/* setTapes(numbers: ArrayBuffer, bytes: ArrayBuffer, regs: ArrayBuffer) */
static napi_value set_tapes_cb(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&ns));
  if (argc < 3) return throw_type(env, "setTapes(numbers, bytes, regs)");
  void *data[3];
  size_t len[3];
  for (int i = 0; i < 3; i++) {
    bool is_ab = false;
    napi_is_arraybuffer(env, argv[i], &is_ab);
    if (!is_ab) return throw_type(env, "setTapes: expected ArrayBuffers");
    CHECK(napi_get_arraybuffer_info(env, argv[i], &data[i], &len[i]));
  }
  if (len[0] / 8 > UINT32_MAX || len[1] > UINT32_MAX || len[2] < REG_COUNT * 4)
    return throw_type(env, "setTapes: bad sizes");
  for (int i = 0; i < 3; i++) {
    if (ns->tape_refs[i]) napi_delete_reference(env, ns->tape_refs[i]);
    ns->tape_refs[i] = NULL;
    CHECK(napi_create_reference(env, argv[i], 1, &ns->tape_refs[i]));
  }
  ns->tape.num = data[0];
  ns->tape.num_cap = (uint32_t)(len[0] / 8);
  ns->tape.bytes = data[1];
  ns->tape.bytes_cap = (uint32_t)len[1];
  ns->tape.regs = data[2];
  return NULL;
}

/* setOut(pool: ArrayBuffer): where encode puts its bytes (at REG_OUT). */
static napi_value set_out_cb(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&ns));
  bool is_ab = false;
  if (argc >= 1) napi_is_arraybuffer(env, argv[0], &is_ab);
  if (!is_ab) return throw_type(env, "setOut(pool: ArrayBuffer)");
  void *data;
  size_t len;
  CHECK(napi_get_arraybuffer_info(env, argv[0], &data, &len));
  if (ns->tape_refs[3]) napi_delete_reference(env, ns->tape_refs[3]);
  ns->tape_refs[3] = NULL;
  CHECK(napi_create_reference(env, argv[0], 1, &ns->tape_refs[3]));
  ns->tape.out = data;
  ns->tape.out_cap = len > INT32_MAX ? INT32_MAX : (uint32_t)len;
  return NULL;
}

/* ------------------------------------------------------------------ protocol */

static void sender_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  nsender *s = data;
  fbe_sender_free(s->sender);
  ns_release(s->ns, env);
  fbe_mem_free(s);
}

static int sender_sink(void *ctx, const uint8_t *data, size_t size) {
  nsender *s = ctx;
  s->frame = hand_out(s->env, s->ns, data, size);
  return s->frame || s->ns->tape.regs[REG_OUT] == 1 ? 0 : -1;
}

/* send(typeIndex) -> Buffer | undefined: the frame of the value on the tape, handed out
 * like an encode result (REG_STATUS says whether it failed). */
static napi_value sender_send_cb(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  nsender *s;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&s));
  nschema *ns = s->ns;
  if (!tapes_ready(env, ns)) return NULL;
  if (argc < 1) return throw_type(env, "send(typeIndex)");
  const fbe_struct *st = arg_struct(env, ns, argv[0]);
  if (!st) return NULL;
  fbe_msg *m = msg_from_tape(ns, st);
  if (!m) return NULL;
  s->env = env;
  s->frame = NULL;
  fbe_status rc = fbe_sender_send(s->sender, m, &ns->err);
  set_status(ns, rc);
  return rc == FBE_OK ? s->frame : NULL;
}

static napi_value sender_bytes_cb(napi_env env, napi_callback_info info) {
  nsender *s;
  CHECK(napi_get_cb_info(env, info, NULL, NULL, NULL, (void **)&s));
  return num(env, (double)fbe_sender_bytes(s->sender));
}

/* Optional package-name argument: NULL for undefined/null (the root package). */
static int arg_package(napi_env env, napi_value v, char **out) {
  napi_valuetype type;
  *out = NULL;
  if (napi_typeof(env, v, &type) != napi_ok) return -1;
  if (type == napi_undefined || type == napi_null) return 0;
  *out = arg_string(env, v, NULL);
  return *out ? 0 : -1;
}

/* sender(package | null, final) -> {send, bytes} | null (unknown package) */
static napi_value sender_new_cb(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&ns));
  if (argc < 2) return throw_type(env, "sender(package, final)");
  char *pkg;
  if (arg_package(env, argv[0], &pkg)) return NULL;
  bool final = false;
  napi_get_value_bool(env, argv[1], &final);
  nsender *s = fbe_mem_calloc(1, sizeof *s);
  if (!s) {
    fbe_mem_free(pkg);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  s->ns = ns;
  s->sender = fbe_sender_new(ns->schema, pkg, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                             sender_sink, s);
  fbe_mem_free(pkg);
  napi_value result;
  if (!s->sender) {
    fbe_mem_free(s);
    napi_get_null(env, &result);
    return result;
  }
  napi_value obj, send_fn, bytes_fn;
  ns->refs++;
  if (napi_create_object(env, &obj) != napi_ok ||
      napi_add_finalizer(env, obj, s, sender_finalize, NULL, NULL) != napi_ok) {
    fbe_sender_free(s->sender);
    fbe_mem_free(s);
    ns_release(ns, env);
    return napi_failure(env, "sender");
  }
  CHECK(napi_create_function(env, "send", NAPI_AUTO_LENGTH, sender_send_cb, s, &send_fn));
  CHECK(napi_create_function(env, "bytes", NAPI_AUTO_LENGTH, sender_bytes_cb, s, &bytes_fn));
  /* the functions point at s: they hold the object that owns it */
  CHECK(napi_set_named_property(env, send_fn, "owner", obj));
  CHECK(napi_set_named_property(env, bytes_fn, "owner", obj));
  CHECK(napi_set_named_property(env, obj, "send", send_fn));
  CHECK(napi_set_named_property(env, obj, "bytes", bytes_fn));
  return obj;
}

static void receiver_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  nreceiver *r = data;
  fbe_receiver_free(r->receiver);
  ns_release(r->ns, env);
  fbe_mem_free(r);
}

/* Writes the message onto the tape and calls deliver(typeIndex). deliver returns true
 * after it grew the tapes (the message is written again), anything else when done. */
static int receiver_handler(void *ctx, const fbe_msg *msg) {
  nreceiver *r = ctx;
  napi_env env = r->env;
  nschema *ns = r->ns;
  napi_value self, arg, result;
  if (napi_get_undefined(env, &self) != napi_ok ||
      napi_create_int32(env, struct_index(ns, msg->type), &arg) != napi_ok)
    return 1;
  for (int attempt = 0; attempt < 8; attempt++) {
    msg_to_tape(ns, msg);
    if (napi_call_function(env, self, r->deliver, 1, &arg, &result) != napi_ok) return 1;
    bool again = false;
    if (napi_get_value_bool(env, result, &again) != napi_ok || !again) return 0;
  }
  return 1;
}

/* feed(bytes, deliver): REG_STATUS = 0 or the error (lastError); an exception thrown by
 * deliver propagates. */
static napi_value receiver_feed_cb(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  nreceiver *r;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&r));
  nschema *ns = r->ns;
  if (!tapes_ready(env, ns)) return NULL;
  const uint8_t *data;
  size_t size;
  napi_valuetype type = napi_undefined;
  if (argc >= 2) napi_typeof(env, argv[1], &type);
  if (type != napi_function) return throw_type(env, "feed(bytes, deliver)");
  if (arg_bytes(env, argv[0], &data, &size)) return NULL;
  if (r->feeding) {
    napi_throw_error(env, NULL, "Receiver.feed called from its own message handler");
    return NULL;
  }
  r->env = env;
  r->deliver = argv[1];
  r->feeding = 1;
  fbe_status s = fbe_receiver_feed(r->receiver, data, size, &ns->err);
  r->feeding = 0;
  set_status(ns, s);
  return NULL;
}

static napi_value receiver_reset_cb(napi_env env, napi_callback_info info) {
  nreceiver *r;
  CHECK(napi_get_cb_info(env, info, NULL, NULL, NULL, (void **)&r));
  if (!r->feeding) fbe_receiver_reset(r->receiver);
  return NULL;
}

/* counts() -> [pending, received, skipped] */
static napi_value receiver_counts_cb(napi_env env, napi_callback_info info) {
  nreceiver *r;
  CHECK(napi_get_cb_info(env, info, NULL, NULL, NULL, (void **)&r));
  napi_value arr;
  CHECK(napi_create_array_with_length(env, 3, &arr));
  CHECK(napi_set_element(env, arr, 0, num(env, (double)fbe_receiver_pending(r->receiver))));
  CHECK(napi_set_element(env, arr, 1, num(env, (double)fbe_receiver_received(r->receiver))));
  CHECK(napi_set_element(env, arr, 2, num(env, (double)fbe_receiver_skipped(r->receiver))));
  return arr;
}

/* receiver(package | null, final[, limits]) -> {feed, reset, counts}; null for an
 * unknown package, undefined when the limits are refused (lastError says why). */
static napi_value receiver_new_cb(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&ns));
  if (argc < 2) return throw_type(env, "receiver(package, final)");
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  int failed = 0;
  if (argc >= 3) limits = arg_limits(env, argv[2], &storage, &ns->err, &failed);
  if (failed) return undefined(env);
  char *pkg;
  if (arg_package(env, argv[0], &pkg)) return NULL;
  bool final = false;
  napi_get_value_bool(env, argv[1], &final);
  nreceiver *r = fbe_mem_calloc(1, sizeof *r);
  if (!r) {
    fbe_mem_free(pkg);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  r->ns = ns;
  r->receiver = fbe_receiver_new(ns->schema, pkg, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                                 limits, receiver_handler, r);
  fbe_mem_free(pkg);
  napi_value result;
  if (!r->receiver) {
    fbe_mem_free(r);
    napi_get_null(env, &result);
    return result;
  }
  napi_value obj, fn;
  ns->refs++;
  if (napi_create_object(env, &obj) != napi_ok ||
      napi_add_finalizer(env, obj, r, receiver_finalize, NULL, NULL) != napi_ok) {
    fbe_receiver_free(r->receiver);
    fbe_mem_free(r);
    ns_release(ns, env);
    return napi_failure(env, "receiver");
  }
  static const struct {
    const char *name;
    napi_callback cb;
  } methods[] = {{"feed", receiver_feed_cb}, {"reset", receiver_reset_cb},
                 {"counts", receiver_counts_cb}};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
    CHECK(napi_create_function(env, methods[i].name, NAPI_AUTO_LENGTH, methods[i].cb, r, &fn));
    CHECK(napi_set_named_property(env, fn, "owner", obj));
    CHECK(napi_set_named_property(env, obj, methods[i].name, fn));
  }
  return obj;
}

/* ------------------------------------------------------------------ description */

/* A scalar slot as a JavaScript value: the defaults of the description. */
static napi_value scalar_value(napi_env env, const fbe_type *t, const uint8_t *slot) {
  napi_value v = NULL;
  switch (t->wire) {
    case FBE_KIND_BOOL: return boolean(env, *slot);
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: case FBE_KIND_UINT16:
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR:
      return num(env, (double)fbe_scalar_load(t->wire, slot));
    case FBE_KIND_INT8: case FBE_KIND_INT16: case FBE_KIND_INT32:
      return num(env, (double)(int64_t)fbe_scalar_load(t->wire, slot));
    case FBE_KIND_INT64: {
      int64_t i;
      memcpy(&i, slot, 8);
      napi_create_bigint_int64(env, i, &v);
      return v;
    }
    case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP: {
      uint64_t u;
      memcpy(&u, slot, 8);
      napi_create_bigint_uint64(env, u, &v);
      return v;
    }
    case FBE_KIND_FLOAT: {
      float f;
      memcpy(&f, slot, 4);
      return num(env, (double)f);
    }
    case FBE_KIND_DOUBLE: {
      double d;
      memcpy(&d, slot, 8);
      return num(env, d);
    }
    case FBE_KIND_DECIMAL: {
      char text[64];
      fbe_decimal_format((const fbe_decimal *)slot, text, sizeof text);
      return str(env, text);
    }
    case FBE_KIND_UUID: {
      char text[37];
      fbe_uuid_format((const fbe_uuid *)slot, text);
      return str(env, text);
    }
    case FBE_KIND_STRING: {
      const fbe_str *s = (const fbe_str *)slot;
      napi_create_string_utf8(env, s->size ? (const char *)s->data : "", s->size, &v);
      return v;
    }
    case FBE_KIND_BYTES: {
      const fbe_str *s = (const fbe_str *)slot;
      napi_create_buffer_copy(env, s->size, s->size ? s->data : (const uint8_t *)"", NULL, &v);
      return v;
    }
    default: return undefined(env); /* structs and collections: lib/ builds those */
  }
}

static napi_value type_desc(napi_env env, nschema *ns, const fbe_type *t) {
  napi_value o;
  if (napi_create_object(env, &o) != napi_ok) return NULL;
  if (set_named(env, o, "kind", str(env, fbe_kind_name(t->kind)))) return NULL;
  switch (t->kind) {
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS:
      if (set_named(env, o, "enum", num(env, enum_index(ns, t->enm)))) return NULL;
      break;
    case FBE_KIND_STRUCT:
      if (set_named(env, o, "struct", num(env, struct_index(ns, t->st)))) return NULL;
      break;
    case FBE_KIND_ARRAY:
      if (set_named(env, o, "size", num(env, t->array_size))) return NULL;
      /* fall through */
    case FBE_KIND_OPTIONAL: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
      if (set_named(env, o, "elem", type_desc(env, ns, t->elem))) return NULL;
      break;
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      if (set_named(env, o, "key", type_desc(env, ns, t->key)) ||
          set_named(env, o, "elem", type_desc(env, ns, t->elem)))
        return NULL;
      break;
    default: break;
  }
  return o;
}

static napi_value field_desc(napi_env env, nschema *ns, const fbe_struct *st, const fbe_field *f) {
  napi_value o;
  if (napi_create_object(env, &o) != napi_ok) return NULL;
  const uint8_t *slot = (const uint8_t *)st->defaults + f->mem_offset;
  if (set_named(env, o, "name", str(env, f->name)) ||
      set_named(env, o, "type", type_desc(env, ns, f->type)) ||
      set_named(env, o, "key", boolean(env, f->is_key)) ||
      set_named(env, o, "declaredIn", num(env, struct_index(ns, f->declared_in))))
    return NULL;
  const char *dynamic = f->def.kind == FBE_DEF_UTC     ? "utc"
                        : f->def.kind == FBE_DEF_UUID1 ? "uuid1"
                        : f->def.kind == FBE_DEF_UUID4 ? "uuid4"
                                                       : NULL;
  if (dynamic) return set_named(env, o, "dynamic", str(env, dynamic)) ? NULL : o;
  /* The default image: scalars and optional scalars carry their value; lib/ knows
   * the rest (nested struct defaults, empty collections). */
  const fbe_type *t = f->type;
  if (t->kind == FBE_KIND_OPTIONAL) {
    const uint8_t *value;
    memcpy(&value, slot, sizeof value);
    napi_value def;
    if (!value) napi_get_null(env, &def);
    else def = scalar_value(env, t->elem, value);
    if (set_named(env, o, "default", def)) return NULL;
  } else if (set_named(env, o, "default", scalar_value(env, t, slot))) {
    return NULL;
  }
  return o;
}

static napi_value enum_value(napi_env env, const fbe_enum *e, uint64_t v) {
  napi_value out = NULL;
  switch (e->base) {
    case FBE_KIND_INT64: napi_create_bigint_int64(env, (int64_t)v, &out); return out;
    case FBE_KIND_UINT64: napi_create_bigint_uint64(env, v, &out); return out;
    case FBE_KIND_INT8: case FBE_KIND_INT16: case FBE_KIND_INT32:
      return num(env, (double)(int64_t)v);
    default: return num(env, (double)(v & 0xffffffffu));
  }
}

static napi_value describe(napi_env env, nschema *ns) {
  const fbe_schema *schema = ns->schema;
  napi_value d, packages, structs, enums;
  if (napi_create_object(env, &d) != napi_ok || napi_create_array(env, &packages) != napi_ok ||
      napi_create_array(env, &structs) != napi_ok || napi_create_array(env, &enums) != napi_ok)
    return NULL;
  for (uint32_t i = 0; i < schema->npackages; i++) {
    const fbe_package *pkg = schema->packages[i];
    napi_value p, imports;
    char version[32];
    snprintf(version, sizeof version, "%u.%u", pkg->version_major, pkg->version_minor);
    if (napi_create_object(env, &p) != napi_ok || napi_create_array(env, &imports) != napi_ok ||
        set_named(env, p, "name", str(env, pkg->name)) ||
        set_named(env, p, "domain", pkg->domain ? str(env, pkg->domain) : undefined(env)) ||
        set_named(env, p, "version", str(env, version)) ||
        set_named(env, p, "imports", imports) || napi_set_element(env, packages, i, p) != napi_ok)
      return NULL;
    for (uint32_t j = 0; j < pkg->nimports; j++)
      if (napi_set_element(env, imports, j, str(env, pkg->imports[j]->name)) != napi_ok) return NULL;
  }
  for (uint32_t i = 0; i < ns->nenums; i++) {
    const fbe_enum *e = ns->enums[i];
    napi_value o, values;
    if (napi_create_object(env, &o) != napi_ok || napi_create_array(env, &values) != napi_ok ||
        set_named(env, o, "name", str(env, e->name)) ||
        set_named(env, o, "fullName", str(env, e->full_name)) ||
        set_named(env, o, "package", str(env, e->pkg->name)) ||
        set_named(env, o, "flags", boolean(env, e->is_flags)) ||
        set_named(env, o, "base", str(env, fbe_kind_name(e->base))) ||
        set_named(env, o, "values", values) || napi_set_element(env, enums, i, o) != napi_ok)
      return NULL;
    for (uint32_t j = 0; j < e->nvalues; j++) {
      napi_value pair;
      if (napi_create_array_with_length(env, 2, &pair) != napi_ok ||
          napi_set_element(env, pair, 0, str(env, e->values[j].name)) != napi_ok ||
          napi_set_element(env, pair, 1, enum_value(env, e, e->values[j].value)) != napi_ok ||
          napi_set_element(env, values, j, pair) != napi_ok)
        return NULL;
    }
  }
  for (uint32_t i = 0; i < ns->nstructs; i++) {
    const fbe_struct *st = ns->structs[i];
    napi_value o, fields;
    if (napi_create_object(env, &o) != napi_ok || napi_create_array(env, &fields) != napi_ok ||
        set_named(env, o, "name", str(env, st->name)) ||
        set_named(env, o, "fullName", str(env, st->full_name)) ||
        set_named(env, o, "package", str(env, st->pkg->name)) ||
        set_named(env, o, "typeId", num(env, st->type_id)) ||
        set_named(env, o, "message", boolean(env, st->is_message)) ||
        set_named(env, o, "base", num(env, st->base ? struct_index(ns, st->base) : -1)) ||
        set_named(env, o, "fields", fields) || napi_set_element(env, structs, i, o) != napi_ok)
      return NULL;
    for (uint32_t j = 0; j < st->nfields; j++)
      if (napi_set_element(env, fields, j, field_desc(env, ns, st, &st->fields[j])) != napi_ok)
        return NULL;
  }
  if (set_named(env, d, "root", str(env, schema->root->name)) ||
      set_named(env, d, "packages", packages) || set_named(env, d, "structs", structs) ||
      set_named(env, d, "enums", enums))
    return NULL;
  return d;
}

/* ------------------------------------------------------------------ loading */

static nschema *ns_new(fbe_schema *schema) {
  nschema *ns = fbe_mem_calloc(1, sizeof *ns);
  if (!ns) return NULL;
  ns->schema = schema;
  ns->arena = fbe_arena_new();
  ns->progs = fbe_tape_compile(schema);
  ns->tape.progs = ns->progs;
  for (uint32_t i = 0; i < schema->npackages; i++) {
    ns->nstructs += schema->packages[i]->nstructs;
    ns->nenums += schema->packages[i]->nenums;
  }
  ns->structs = fbe_mem_calloc(ns->nstructs + 1, sizeof *ns->structs);
  ns->enums = fbe_mem_calloc(ns->nenums + 1, sizeof *ns->enums);
  ns->codecs = fbe_mem_calloc(2 * (size_t)ns->nstructs + 1, sizeof *ns->codecs);
  if (ns->structs && ns->enums) {
    uint32_t si = 0, ei = 0;
    for (uint32_t i = 0; i < schema->npackages; i++) {
      const fbe_package *pkg = schema->packages[i];
      for (uint32_t j = 0; j < pkg->nstructs; j++) ns->structs[si++] = pkg->structs[j];
      for (uint32_t j = 0; j < pkg->nenums; j++) ns->enums[ei++] = pkg->enums[j];
    }
    ns->struct_at = index_new((const void *const *)ns->structs, ns->nstructs);
    ns->enum_at = index_new((const void *const *)ns->enums, ns->nenums);
  }
  if (!ns->arena || !ns->progs || !ns->structs || !ns->enums || !ns->codecs || !ns->struct_at ||
      !ns->enum_at) {
    fbe_tape_progs_free(ns->progs);
    fbe_arena_free(ns->arena);
    fbe_mem_free(ns->structs);
    fbe_mem_free(ns->enums);
    fbe_mem_free(ns->codecs);
    fbe_mem_free(ns->struct_at);
    fbe_mem_free(ns->enum_at);
    fbe_mem_free(ns);
    return NULL;
  }
  for (uint32_t i = 0; i < ns->nstructs; i++)
    for (int m = 0; m < 2; m++) {
      codec *c = &ns->codecs[i * 2 + m];
      c->ns = ns;
      c->st = ns->structs[i];
      c->model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    }
  return ns;
}

/* codec(k) -> [encode, decode], the functions of struct k >> 1 in model k & 1, made when
 * lib/ first needs them (lib/codegen.js compiles a struct's codec on first use): a
 * schema of 10^5 structs makes none of them at load. */
static napi_value codec_cb(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], pair;
  nschema *ns;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&ns));
  int32_t k = argc >= 1 ? arg_int(env, argv[0]) : -1;
  if (k < 0 || (uint32_t)k >= 2 * ns->nstructs) return throw_type(env, "bad codec index");
  napi_value e = make_fn(env, ns, "encode", enc_cb, &ns->codecs[k]);
  napi_value d = e ? make_fn(env, ns, "decode", dec_cb, &ns->codecs[k]) : NULL;
  if (!d) return napi_failure(env, "codec");
  CHECK(napi_create_array_with_length(env, 2, &pair));
  CHECK(napi_set_element(env, pair, 0, e));
  CHECK(napi_set_element(env, pair, 1, d));
  return pair;
}

/* The native schema object: {desc, codec, setTapes, setOut, verify, toJson, fromJson,
 * lastError, sender, receiver, warnings}. */
static napi_value schema_object(napi_env env, fbe_schema *schema, napi_value warnings) {
  nschema *ns = ns_new(schema);
  if (!ns) {
    fbe_schema_release(schema);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  /* a temporary count, so a failure below frees ns once every function is gone */
  ns->refs = 1;
  napi_value obj, desc = describe(env, ns);
  napi_value result = NULL;
  if (!desc || napi_create_object(env, &obj) != napi_ok) goto done;
  static const struct {
    const char *name;
    napi_callback cb;
  } methods[] = {{"codec", codec_cb},           {"setTapes", set_tapes_cb},
                 {"setOut", set_out_cb},        {"verify", verify_cb},
                 {"toJson", to_json_cb},        {"fromJson", from_json_cb},
                 {"lastError", last_error_cb},  {"sender", sender_new_cb},
                 {"receiver", receiver_new_cb}};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (set_named(env, obj, methods[i].name, make_fn(env, ns, methods[i].name, methods[i].cb, ns)))
      goto done;
  if (set_named(env, obj, "desc", desc) || set_named(env, obj, "warnings", warnings)) goto done;
  result = obj;
done:
  ns_release(ns, env);
  if (!result) return napi_failure(env, "loading the schema");
  return result;
}

/* Include directories from a JavaScript array of strings. */
typedef struct includes {
  char **dirs;
  size_t count;
} includes;

static void includes_free(includes *inc) {
  for (size_t i = 0; i < inc->count; i++) fbe_mem_free(inc->dirs[i]);
  fbe_mem_free(inc->dirs);
}

static int arg_includes(napi_env env, napi_value v, includes *inc) {
  inc->dirs = NULL;
  inc->count = 0;
  bool is_array = false;
  napi_is_array(env, v, &is_array);
  if (!is_array) {
    throw_type(env, "include directories must be an array of strings");
    return -1;
  }
  uint32_t n = 0;
  napi_get_array_length(env, v, &n);
  inc->dirs = fbe_mem_calloc(n + 1, sizeof *inc->dirs);
  if (!inc->dirs) return -1;
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    if (napi_get_element(env, v, i, &item) != napi_ok ||
        !(inc->dirs[i] = arg_string(env, item, NULL))) {
      includes_free(inc);
      return -1;
    }
    inc->count = i + 1;
  }
  return 0;
}

/* Diagnostics as an array of {severity, file, line, col, message, text}. */
static napi_value diagnostics_array(napi_env env, const fbe_diagnostics *diags, int errors) {
  napi_value arr;
  if (napi_create_array(env, &arr) != napi_ok) return NULL;
  uint32_t k = 0;
  for (size_t i = 0; i < diags->count; i++) {
    const fbe_diagnostic *dg = &diags->items[i];
    if ((dg->severity == FBE_SEVERITY_ERROR) != (errors != 0)) continue;
    char text[1024];
    fbe_diagnostic_format(dg, text, sizeof text);
    napi_value o;
    if (napi_create_object(env, &o) != napi_ok ||
        set_named(env, o, "severity", str(env, errors ? "error" : "warning")) ||
        set_named(env, o, "file", str(env, dg->file)) ||
        set_named(env, o, "line", num(env, dg->line)) ||
        set_named(env, o, "col", num(env, dg->col)) ||
        set_named(env, o, "message", str(env, dg->message)) ||
        set_named(env, o, "text", str(env, text)) || napi_set_element(env, arr, k++, o) != napi_ok)
      return NULL;
  }
  return arr;
}

enum load_kind { LOAD_FILE, LOAD_STRING, LOAD_PACKAGE };

/* load*(...) -> native schema object, or {errors: [...]} when the schema does not load. */
static napi_value load(napi_env env, napi_callback_info info, enum load_kind kind) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  size_t want = kind == LOAD_STRING ? 3 : 2;
  if (argc < want) return throw_type(env, "load: missing arguments");
  size_t text_len = 0;
  char *text = arg_string(env, argv[0], &text_len);
  if (!text) return NULL;
  char *name = NULL;
  if (kind == LOAD_STRING && !(name = arg_string(env, argv[1], NULL))) {
    fbe_mem_free(text);
    return NULL;
  }
  includes inc;
  if (arg_includes(env, argv[want - 1], &inc)) {
    fbe_mem_free(text);
    fbe_mem_free(name);
    return NULL;
  }
  fbe_load_options options = {(const char *const *)inc.dirs, inc.count};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = kind == LOAD_FILE     ? fbe_schema_load_file(text, &options, &diags)
                       : kind == LOAD_STRING ? fbe_schema_load_string(text, text_len, name, &options, &diags)
                                             : fbe_schema_load_package(text, &options, &diags);
  fbe_mem_free(text);
  fbe_mem_free(name);
  includes_free(&inc);
  napi_value result = NULL;
  if (!schema) {
    napi_value errors = diagnostics_array(env, &diags, 1);
    if (errors && napi_create_object(env, &result) == napi_ok &&
        set_named(env, result, "errors", errors))
      result = NULL;
  } else {
    napi_value warnings = diagnostics_array(env, &diags, 0);
    if (warnings) result = schema_object(env, schema, warnings);
    else fbe_schema_release(schema);
  }
  fbe_diagnostics_free(&diags);
  if (!result) return napi_failure(env, "load");
  return result;
}

static napi_value load_file_cb(napi_env env, napi_callback_info info) {
  return load(env, info, LOAD_FILE);
}
static napi_value load_string_cb(napi_env env, napi_callback_info info) {
  return load(env, info, LOAD_STRING);
}
static napi_value load_package_cb(napi_env env, napi_callback_info info) {
  return load(env, info, LOAD_PACKAGE);
}

/* ------------------------------------------------------------------ module */

static napi_value version_cb(napi_env env, napi_callback_info info) {
  (void)info;
  return str(env, fbe_version());
}

/* statuses() -> [[code, name, text], ...]: lib/errors.js builds its codes from it. */
static napi_value statuses_cb(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value arr;
  CHECK(napi_create_array(env, &arr));
  uint32_t i = 0;
#define FBE_NODE_STATUS_(name, value, text, cls, parent)                          \
  {                                                                               \
    napi_value item;                                                              \
    CHECK(napi_create_array_with_length(env, 3, &item));                          \
    CHECK(napi_set_element(env, item, 0, num(env, value)));                       \
    CHECK(napi_set_element(env, item, 1, str(env, #name)));                       \
    CHECK(napi_set_element(env, item, 2, str(env, text)));                        \
    CHECK(napi_set_element(env, arr, i++, item));                                 \
  }
  FBE_STATUS_LIST(FBE_NODE_STATUS_)
#undef FBE_NODE_STATUS_
  return arr;
}

/* utcNow() -> bigint nanoseconds; uuid1()/uuid4() -> string: the dynamic defaults. */
static napi_value utc_now_cb(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value v;
  CHECK(napi_create_bigint_uint64(env, fbe_now_ns(), &v));
  return v;
}

static napi_value uuid_cb(napi_env env, napi_callback_info info) {
  int version = 4;
  void *data;
  CHECK(napi_get_cb_info(env, info, NULL, NULL, NULL, &data));
  if (data) version = 1;
  fbe_uuid u;
  if (version == 1) fbe_uuid_v1(u.bytes);
  else fbe_uuid_v4(u.bytes);
  char text[37];
  fbe_uuid_format(&u, text);
  return str(env, text);
}

/* depthRule() -> [maxDepth, status, reason]: the core's depth rule for values lib/
 * flattens (FBE_DEFAULT_MAX_DEPTH optionals and collections), and the error past it
 * (tape.c's, the one the tape reader fails with). */
static napi_value depth_rule_cb(napi_env env, napi_callback_info info) {
  (void)info;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbe_tape_too_deep(&err);
  napi_value arr;
  CHECK(napi_create_array_with_length(env, 3, &arr));
  napi_value items[3] = {num(env, FBE_DEFAULT_MAX_DEPTH), num(env, (double)s), str(env, err.message)};
  for (uint32_t i = 0; i < 3; i++) CHECK(napi_set_element(env, arr, i, items[i]));
  return arr;
}

/* memoryInUse() -> number: fbe_memory_in_use(), the bytes the core and this addon hold
 * (exact, below 2^53); internal, for the leak tests. */
static napi_value memory_in_use_cb(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value v;
  CHECK(napi_create_double(env, (double)fbe_memory_in_use(), &v));
  return v;
}

NAPI_MODULE_INIT() {
  static int one = 1;
  static const struct {
    const char *name;
    napi_callback cb;
    void *data;
  } fns[] = {{"loadFile", load_file_cb, NULL},     {"loadString", load_string_cb, NULL},
             {"loadPackage", load_package_cb, NULL}, {"version", version_cb, NULL},
             {"statuses", statuses_cb, NULL},      {"utcNow", utc_now_cb, NULL},
             {"uuid1", uuid_cb, &one},             {"uuid4", uuid_cb, NULL},
             {"memoryInUse", memory_in_use_cb, NULL}, {"depthRule", depth_rule_cb, NULL}};
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    napi_value fn;
    if (napi_create_function(env, fns[i].name, NAPI_AUTO_LENGTH, fns[i].cb, fns[i].data, &fn) !=
            napi_ok ||
        napi_set_named_property(env, exports, fns[i].name, fn) != napi_ok)
      return NULL;
  }
  return exports;
}

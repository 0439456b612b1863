/* The entry points on the tape: a struct's encode and decode (made by codec(k), bound to
 * their struct through the callback data, so a hot call takes no argument to look up),
 * verify, and the JSON conversions; and the crossing they share with protocol.c (a
 * message from or onto the tape, encoded bytes out). Each reports through REG_STATUS
 * and lastError(). */
#include <string.h>

#include "binding.h"
#include "fbe/internal/memory.h"

/* A new message of st in the schema's (reset) arena, read from the tape at REG_N0 and
 * REG_P0. */
fbe_msg *msg_from_tape(nschema *ns, const fbe_struct *st) {
  int32_t n0 = ns->regs[REG_N0], p0 = ns->regs[REG_P0];
  uint32_t n = n0 < 0 ? UINT32_MAX : (uint32_t)n0, p = p0 < 0 ? UINT32_MAX : (uint32_t)p0;
  fbe_arena_reset(ns->arena);
  fbe_msg *m = fbei_tape_read(ns->progs, &ns->tape, st, &n, &p, ns->arena, &ns->err);
  if (!m) set_status(ns, ns->err.code);
  return m;
}

/* Writes a message onto the tape at REG_N0 and REG_P0; REG_STATUS says ok or
 * REG_NEED_SPACE (with what the value needs in REG_NEED_N and REG_NEED_P). */
void msg_to_tape(nschema *ns, const fbe_msg *m) {
  int32_t n0 = ns->regs[REG_N0], p0 = ns->regs[REG_P0];
  uint64_t need_n, need_p;
  int rc = fbei_tape_write(ns->progs, &ns->tape, m, n0 < 0 ? 0 : (uint32_t)n0, p0 < 0 ? 0 : (uint32_t)p0,
                          &need_n, &need_p);
  ns->regs[REG_STATUS] = rc ? REG_NEED_SPACE : 0;
  if (rc) {
    ns->regs[REG_NEED_N] = need_n > INT32_MAX ? INT32_MAX : (int32_t)need_n;
    ns->regs[REG_NEED_P] = need_p > INT32_MAX ? INT32_MAX : (int32_t)need_p;
  }
}

/* Hands encoded bytes to JavaScript. Small results go into lib/'s output pool at
 * REG_OUT and lib/ makes a Buffer view of them, as Node's own Buffer.allocUnsafe pool
 * does: one backing store for many results instead of one each (a new Buffer per call
 * is the dearest part of a small encode). Returns NULL then (REG_OUT = 1, REG_SIZE =
 * size); bigger results become a Buffer of their own (REG_OUT = 0). */
napi_value hand_out(napi_env env, nschema *ns, const uint8_t *data, size_t size) {
  int32_t *regs = ns->regs, at = regs[REG_OUT];
  napi_value buf;
  if (size <= POOL_RESULT_MAX && ns->pool && at >= 0 && (uint32_t)at <= ns->pool_cap &&
      size <= ns->pool_cap - (uint32_t)at) {
    if (size) memcpy(ns->pool + at, data, size);
    regs[REG_SIZE] = (int32_t)size;
    regs[REG_OUT] = 1;
    return NULL;
  }
  regs[REG_OUT] = 0;
  if (napi_create_buffer_copy(env, size, size ? data : (const uint8_t *)"", NULL, &buf) != napi_ok)
    return napi_failure(env, "napi_create_buffer_copy");
  return buf;
}

/* Big buffers are not kept between calls. */
static void trim(nschema *ns) {
  if (ns->out.capacity > ((size_t)1 << 20)) fbe_buffer_free(&ns->out);
}

/* enc(): the value on the tape, encoded and handed out (hand_out). */
static napi_value enc_cb(napi_env env, napi_callback_info info) {
  codec *c;
  CHECK(napi_get_cb_info(env, info, NULL, NULL, NULL, (void **)&c));
  nschema *ns = c->ns;
  if (!tapes_ready(env, ns)) return NULL;
  fbe_msg *m = msg_from_tape(ns, c->st);
  if (!m) return NULL;
  fbe_buffer_reset(&ns->out);
  fbe_status s = fbe_encode(m, c->model, &ns->out, &ns->err);
  set_status(ns, s);
  if (s != FBE_OK) return NULL;
  napi_value buf = hand_out(env, ns, ns->out.data, ns->out.size);
  trim(ns);
  return buf;
}

/* dec(bytes[, limits]): decodes with the core's verifying fbe_decode (fbe_decode_trusted
 * when REG_FLAGS has FLAG_TRUSTED) within the limits, then writes the value onto the
 * tape. REG_SIZE = model size. */
static napi_value dec_cb(napi_env env, napi_callback_info info) {
  ARGS(2, codec, c);
  size_t size, model_size = 0;
  nschema *ns = c->ns;
  if (!tapes_ready(env, ns)) return NULL;
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  if (argc >= 2 && arg_limits(env, argv[1], &storage, &limits, &ns->err)) return set_status(ns, ns->err.code), NULL;
  const uint8_t *data; /* borrowed: taken after the limits, with no JavaScript run between */
  if (argc < 1 || arg_bytes(env, argv[0], &data, &size)) return NULL;
  fbe_arena_reset(ns->arena);
  fbe_msg *m = NULL;
  fbe_status s = (ns->regs[REG_FLAGS] & FLAG_TRUSTED ? fbe_decode_trusted : fbe_decode)(
      c->st, c->model, data, size, ns->arena, limits, &m, &model_size, &ns->err);
  if (s != FBE_OK) return set_status(ns, s), NULL;
  ns->regs[REG_SIZE] = model_size > INT32_MAX ? INT32_MAX : (int32_t)model_size;
  msg_to_tape(ns, m);
  return NULL;
}

/* codec(k) -> [encode, decode], the functions of struct k >> 1 in model k & 1, made when
 * lib/ first needs them (lib/codegen.js compiles a struct's codec on first use): a
 * schema of 10^5 structs makes none of them at load. */
napi_value codec_cb(napi_env env, napi_callback_info info) {
  ARGS(1, nschema, ns);
  int32_t k = argc >= 1 ? arg_int(env, argv[0]) : -1;
  if (k < 0 || (uint32_t)k >= 2 * ns->nstructs) return throw_type(env, "bad codec index");
  napi_value fns[2] = {make_fn(env, ns, "encode", enc_cb, &ns->codecs[k]), NULL};
  fns[1] = fns[0] ? make_fn(env, ns, "decode", dec_cb, &ns->codecs[k]) : NULL;
  napi_value pair = fns[1] ? array_of(env, fns, 2) : NULL;
  return pair ? pair : napi_failure(env, "codec");
}

/* verify(typeIndex, final, bytes[, limits]) -> model size, -1 when the bytes are not
 * valid, -2 when the limits are refused (lastError says why). */
napi_value verify_cb(napi_env env, napi_callback_info info) {
  ARGS(4, nschema, ns);
  size_t size, model_size = 0;
  const fbe_struct *st = arg_struct(env, ns, argc, 3, argv, "verify(typeIndex, final, bytes)");
  if (!st) return NULL;
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  if (argc >= 4 && arg_limits(env, argv[3], &storage, &limits, &ns->err)) return js_num(env, -2.0);
  const uint8_t *data;
  if (arg_bytes(env, argv[2], &data, &size)) return NULL;
  fbe_status s = fbe_verify(st, arg_model(env, argv[1]), data, size, limits, &model_size, &ns->err);
  return js_num(env, s == FBE_OK ? (double)model_size : -1.0);
}

/* toJson(typeIndex, pretty) -> string | undefined: the value on the tape as JSON. */
napi_value to_json_cb(napi_env env, napi_callback_info info) {
  ARGS(2, nschema, ns);
  napi_value text;
  const fbe_struct *st = arg_struct(env, ns, argc, 2, argv, "toJson(typeIndex, pretty)");
  if (!st) return NULL;
  bool pretty = false;
  napi_get_value_bool(env, argv[1], &pretty);
  fbe_msg *m = msg_from_tape(ns, st);
  if (!m) return NULL;
  fbe_buffer_reset(&ns->out);
  fbe_status s = fbe_msg_to_json(m, pretty, &ns->out, &ns->err);
  if (s != FBE_OK) return set_status(ns, s), NULL;
  CHECK(napi_create_string_utf8(env, ns->out.size ? (const char *)ns->out.data : "", ns->out.size, &text));
  trim(ns);
  return text;
}

/* fromJson(typeIndex, text[, limits]): reads JSON into a new message within the limits
 * and writes it onto the tape. text: a string, or the bytes lib/ makes of one with a
 * lone surrogate (lib/runtime.js jsonText), which the core refuses with its words. */
napi_value from_json_cb(napi_env env, napi_callback_info info) {
  ARGS(3, nschema, ns);
  size_t len;
  const fbe_struct *st = arg_struct(env, ns, argc, 2, argv, "fromJson(typeIndex, text)");
  if (!st) return NULL;
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  if (argc >= 3 && arg_limits(env, argv[2], &storage, &limits, &ns->err)) return set_status(ns, ns->err.code), NULL;
  napi_valuetype type = napi_undefined;
  char *text = NULL;
  const uint8_t *bytes;
  napi_typeof(env, argv[1], &type);
  if (type == napi_string ? !(text = arg_string(env, argv[1], &len)) : arg_bytes(env, argv[1], &bytes, &len))
    return NULL;
  fbe_arena_reset(ns->arena);
  fbe_msg *m = NULL;
  fbe_status s = fbe_msg_from_json_limited(st, text ? text : (const char *)bytes, len, ns->arena, limits, &m,
                                           &ns->err);
  fbei_mem_free(text);
  if (s != FBE_OK) return set_status(ns, s), NULL;
  msg_to_tape(ns, m);
  return NULL;
}

/* The entry points on the tape: a struct's encode and decode (made by codec(k), bound to
 * their struct through the callback data, so a hot call takes no argument to look up),
 * verify, and the JSON conversions; and the crossing they share with protocol.c (a
 * message from or onto the tape, encoded bytes out). Each reports through REG_STATUS
 * and lastError(). */
#include <string.h>

#include "binding.h"
#include "fbe/internal/input.h"
#include "fbe/internal/memory.h"

/* A message of st in the schema's arena, read from the tape at the positions in
 * registers rn and rp; *n and *p: where it ends. */
static fbe_msg *read_at(nschema *ns, const fbe_struct *st, int rn, int rp, uint32_t *n, uint32_t *p) {
  return msg_from_tape_in(ns, st, rn, rp, ns->arena, n, p);
}

/* A message of st in `arena` (not reset), read from the tape at the positions in
 * registers rn and rp (rpc.c: a peer's messages live in its own arena). */
fbe_msg *msg_from_tape_in(nschema *ns, const fbe_struct *st, int rn, int rp, fbe_arena *arena, uint32_t *n,
                          uint32_t *p) {
  int32_t n0 = ns->regs[rn], p0 = ns->regs[rp];
  *n = n0 < 0 ? UINT32_MAX : (uint32_t)n0;
  *p = p0 < 0 ? UINT32_MAX : (uint32_t)p0;
  fbe_msg *m = fbei_tape_read(ns->progs, &ns->tape, st, n, p, arena, &ns->err);
  if (!m) set_status(ns, ns->err.code);
  return m;
}

/* A new message of st in the schema's (reset) arena, read from the tape at REG_N0 and
 * REG_P0. */
fbe_msg *msg_from_tape(nschema *ns, const fbe_struct *st) {
  uint32_t n, p;
  fbe_arena_reset(ns->arena);
  return read_at(ns, st, REG_N0, REG_P0, &n, &p);
}

/* Where a write onto the tape at REG_N0 and REG_P0 left it: REG_STATUS ok or
 * REG_NEED_SPACE (with what the value needs in REG_NEED_N and REG_NEED_P). */
static void wrote(nschema *ns, int rc, uint64_t need_n, uint64_t need_p) {
  ns->regs[REG_STATUS] = rc ? REG_NEED_SPACE : 0;
  if (rc) {
    ns->regs[REG_NEED_N] = need_n > INT32_MAX ? INT32_MAX : (int32_t)need_n;
    ns->regs[REG_NEED_P] = need_p > INT32_MAX ? INT32_MAX : (int32_t)need_p;
  }
}

/* Writes a message onto the tape at REG_N0 and REG_P0 (wrote() says how it went). */
void msg_to_tape(nschema *ns, const fbe_msg *m) {
  int32_t n0 = ns->regs[REG_N0], p0 = ns->regs[REG_P0];
  uint64_t need_n, need_p;
  int rc = fbei_tape_write(ns->progs, &ns->tape, m, n0 < 0 ? 0 : (uint32_t)n0, p0 < 0 ? 0 : (uint32_t)p0,
                          &need_n, &need_p);
  wrote(ns, rc, need_n, need_p);
}

/* Writes a value of any type (a view's, fbe_view_value) onto the tape at REG_N0 and
 * REG_P0, laid out as inside a message. */
void ref_to_tape(nschema *ns, fbe_ref r) {
  int32_t n0 = ns->regs[REG_N0], p0 = ns->regs[REG_P0];
  uint64_t need_n, need_p;
  int rc = fbei_tape_write_ref(ns->progs, &ns->tape, r, n0 < 0 ? 0 : (uint32_t)n0, p0 < 0 ? 0 : (uint32_t)p0,
                              &need_n, &need_p);
  wrote(ns, rc, need_n, need_p);
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

/* vfy([limits]): the core's fbe_verify (what fbe_decode runs first: its status and
 * error are decode's) of the REG_LEN bytes lib/ copied onto the byte tape at REG_P0,
 * within the limits; REG_STATUS 0 and REG_SIZE = model size when they are valid. A
 * small final-model decode (lib/codegen.js FDi) then builds the value from those bytes
 * itself: no message, no second pass over the tape, and no typed array to look up. */
static napi_value vfy_cb(napi_env env, napi_callback_info info) {
  ARGS(1, codec, c);
  size_t model_size = 0;
  nschema *ns = c->ns;
  if (!tapes_ready(env, ns)) return NULL;
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  if (argc >= 1 && arg_limits(env, argv[0], &storage, &limits, &ns->err)) return set_status(ns, ns->err.code), NULL;
  int32_t p0 = ns->regs[REG_P0], len = ns->regs[REG_LEN];
  if (p0 < 0 || len < 0 || (uint64_t)p0 + (uint64_t)len > ns->tape.bytes_cap)
    return throw_type(env, "fbe addon: bytes to verify outside the byte tape");
  static const uint8_t empty[1] = {0};
  fbe_status s = fbe_verify(c->st, c->model, len ? ns->tape.bytes + p0 : empty, (size_t)len, limits, &model_size,
                            &ns->err);
  if (s != FBE_OK) return set_status(ns, s), NULL;
  ns->regs[REG_SIZE] = model_size > INT32_MAX ? INT32_MAX : (int32_t)model_size;
  ns->regs[REG_STATUS] = 0;
  return NULL;
}

/* codec(k) -> [encode, decode, verify], the functions of struct k >> 1 in model k & 1,
 * made when lib/ first needs them (lib/codegen.js compiles a struct's codec on first
 * use): a schema of 10^5 structs makes none of them at load. */
napi_value codec_cb(napi_env env, napi_callback_info info) {
  ARGS(1, nschema, ns);
  int32_t k = argc >= 1 ? arg_int(env, argv[0]) : -1;
  if (k < 0 || (uint32_t)k >= 2 * ns->nstructs) return throw_type(env, "bad codec index");
  napi_value fns[3] = {make_fn(env, ns, "encode", enc_cb, &ns->codecs[k]), NULL, NULL};
  fns[1] = fns[0] ? make_fn(env, ns, "decode", dec_cb, &ns->codecs[k]) : NULL;
  fns[2] = fns[1] ? make_fn(env, ns, "verify", vfy_cb, &ns->codecs[k]) : NULL;
  napi_value all = fns[2] ? array_of(env, fns, 3) : NULL;
  return all ? all : napi_failure(env, "codec");
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

/* fromJson(typeIndex, text[, limits[, ignoreUnknown]]): reads JSON into a new message
 * within the limits and writes it onto the tape; members the struct does not have are
 * an error (FBE_ERR_UNKNOWN_FIELD) unless ignoreUnknown is true. text: a string, or the
 * bytes lib/ makes of one with a lone surrogate (lib/runtime.js jsonText), which the
 * core refuses with its words. */
napi_value from_json_cb(napi_env env, napi_callback_info info) {
  ARGS(4, nschema, ns);
  size_t len;
  const fbe_struct *st = arg_struct(env, ns, argc, 2, argv, "fromJson(typeIndex, text)");
  if (!st) return NULL;
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  if (argc >= 3 && arg_limits(env, argv[2], &storage, &limits, &ns->err)) return set_status(ns, ns->err.code), NULL;
  napi_valuetype type = napi_undefined;
  char *text = NULL;
  const uint8_t *bytes = NULL;
  napi_typeof(env, argv[1], &type);
  if (type == napi_string ? !(text = arg_string(env, argv[1], &len)) : arg_bytes(env, argv[1], &bytes, &len))
    return NULL;
  bool ignore = false;
  if (argc >= 4) napi_get_value_bool(env, argv[3], &ignore);
  fbe_json_options opts = {0};
  opts.ignore_unknown = ignore;
  opts.limits = limits;
  fbe_arena_reset(ns->arena);
  fbe_msg *m = NULL;
  fbe_status s = fbe_msg_from_json_opts(st, text ? text : (const char *)bytes, len, ns->arena, &opts, &m,
                                        &ns->err);
  fbei_mem_free(text);
  if (s != FBE_OK) return set_status(ns, s), NULL;
  msg_to_tape(ns, m);
  return NULL;
}

/* toText(typeIndex) -> string | undefined: the value on the tape in the core's text form
 * (fbe_msg_to_text, docs/TEXT.md), what String(value) and util.inspect show. */
napi_value to_text_cb(napi_env env, napi_callback_info info) {
  ARGS(1, nschema, ns);
  napi_value text;
  const fbe_struct *st = arg_struct(env, ns, argc, 1, argv, "toText(typeIndex)");
  if (!st) return NULL;
  fbe_msg *m = msg_from_tape(ns, st);
  if (!m) return NULL;
  fbe_buffer_reset(&ns->out);
  fbe_status s = fbe_msg_to_text(m, &ns->out, &ns->err);
  set_status(ns, s);
  if (s != FBE_OK) return NULL;
  CHECK(napi_create_string_utf8(env, ns->out.size ? (const char *)ns->out.data : "", ns->out.size, &text));
  trim(ns);
  return text;
}

enum pair_op { PAIR_EQUAL, PAIR_COMPARE, PAIR_HASH };

/* pair(op, i, j) -> number | bigint | undefined: two values on the tape, a of struct i at
 * REG_N0/REG_P0 and b of struct j at REG_N1/REG_P1, compared by the core: PAIR_EQUAL 1
 * or 0 (fbe_msg_equal: deep, floats by bits, decimals by value), PAIR_COMPARE -1, 0 or 1
 * (fbe_msg_key_compare: the [key] fields); PAIR_HASH the bigint fbe_msg_key_hash of a
 * alone (j unused). */
napi_value pair_cb(napi_env env, napi_callback_info info) {
  ARGS(3, nschema, ns);
  uint32_t n, p;
  napi_value v;
  int32_t op = argc >= 3 ? arg_int(env, argv[0]) : -1;
  if (op < PAIR_EQUAL || op > PAIR_HASH || !tapes_ready(env, ns)) return op < 0 ? throw_type(env, "pair(op, i, j)") : NULL;
  const fbe_struct *sa = arg_struct_index(env, ns, argv[1]);
  const fbe_struct *sb = sa && op != PAIR_HASH ? arg_struct_index(env, ns, argv[2]) : NULL;
  if (!sa || (op != PAIR_HASH && !sb)) return NULL;
  if (op == PAIR_COMPARE && !fbe_struct_has_keys(sa)) { /* the core's words, as in every binding */
    set_status(ns, fbei_error_unordered(&ns->err, sa));
    return js_undefined(env);
  }
  fbe_arena_reset(ns->arena);
  fbe_msg *a = read_at(ns, sa, REG_N0, REG_P0, &n, &p);
  fbe_msg *b = a && op != PAIR_HASH ? read_at(ns, sb, REG_N1, REG_P1, &n, &p) : NULL;
  if (!a || (op != PAIR_HASH && !b)) return NULL;
  set_status(ns, FBE_OK);
  if (op == PAIR_HASH) {
    CHECK(napi_create_bigint_uint64(env, fbe_msg_key_hash(a), &v));
    return v;
  }
  return js_num(env, op == PAIR_EQUAL ? fbe_msg_equal(a, b) : fbe_msg_key_compare(a, b));
}

/* copy(typeIndex): the value on the tape read into a message and written back after
 * itself (the message's strings point into the tape where it was read), the core's
 * form of it: REG_N1/REG_P1 say where the copy starts. REG_STATUS REG_NEED_SPACE: the
 * tape needs REG_NEED_N slots and REG_NEED_P bytes from REG_N0/REG_P0 (grow it and
 * flatten again). */
napi_value copy_cb(napi_env env, napi_callback_info info) {
  ARGS(1, nschema, ns);
  uint32_t n, p;
  uint64_t need_n, need_p;
  const fbe_struct *st = arg_struct(env, ns, argc, 1, argv, "copy(typeIndex)");
  if (!st) return NULL;
  fbe_arena_reset(ns->arena);
  fbe_msg *m = read_at(ns, st, REG_N0, REG_P0, &n, &p);
  if (!m) return NULL;
  int rc = fbei_tape_write(ns->progs, &ns->tape, m, n, p, &need_n, &need_p);
  int32_t *regs = ns->regs;
  regs[REG_STATUS] = rc ? REG_NEED_SPACE : 0;
  regs[REG_N1] = (int32_t)n;
  regs[REG_P1] = (int32_t)p;
  if (rc) {
    need_n += n - (uint32_t)regs[REG_N0];
    need_p += p - (uint32_t)regs[REG_P0];
    regs[REG_NEED_N] = need_n > INT32_MAX ? INT32_MAX : (int32_t)need_n;
    regs[REG_NEED_P] = need_p > INT32_MAX ? INT32_MAX : (int32_t)need_p;
  }
  return NULL;
}

/* Request/response (docs/CLIENT.md) as native objects of a schema, "peers": a client
 * (the core's fbe_client), a server (a receiver of requests and a sender of replies made
 * with fbe_reply_prepare) and a proxy (fbe_proxy_new). Nothing of the rules lives here:
 * matching, timeouts, ids and what may answer what are the core's; this file carries
 * messages and events between the core and lib/client.js.
 *
 * Every call that may make the core call back takes lib/'s dispatcher `cb` as its last
 * argument (not kept: no reference cycle through a native root), called as
 *   cb(WRITE, bytes)                        the bytes to send (a Buffer, a copy)
 *   cb(DONE, token, end, typeIndex, status, message)   a request ended (fbe_request_end;
 *                                           typeIndex -1: no message; status 0: no error)
 *   cb(MESSAGE, typeIndex)                  a received message (a client's notification,
 *                                           a server's request)
 *   cb(LOG, way, text)                      a log line (way 0: sent, 1: received)
 *   cb(FRAME, typeId, typeIndex, frame)     a proxy's frame (typeIndex -1: unknown type)
 * DONE and MESSAGE with a message find it on the tape (REG_N0/REG_P0, as a receiver's
 * deliver does); they return true when lib/ grew the tapes and wants it written again.
 * An exception cb throws is caught (the write then fails as the core's FBE_ERR_IO, a
 * MESSAGE stops the feed) and thrown again when the call returns; REG_STATUS and
 * lastError() say how the call itself went.
 *
 * Lifetimes: a peer counts the calls running on it (callbacks may call in again);
 * close() ends a client's pending requests (fbe_client_reset) and frees the native state
 * when the last running call returns; the finalizer never frees under a call. */
#include <string.h>

#include "binding.h"
#include "fbe/internal/memory.h"

enum { PEER_CLIENT, PEER_SERVER, PEER_PROXY };
enum { CB_WRITE = 0, CB_DONE = 1, CB_MESSAGE = 2, CB_LOG = 3, CB_FRAME = 4 };

/* What one running call needs: its dispatcher and the first exception it threw. */
typedef struct call {
  napi_value cb;
  napi_value thrown;
  struct call *outer;
} call;

typedef struct peer {
  nschema *ns;
  int kind;
  fbe_client *client;     /* PEER_CLIENT */
  fbe_sender *sender;     /* PEER_SERVER */
  fbe_receiver *receiver; /* PEER_SERVER: requests; PEER_PROXY: frames */
  fbe_arena *arena;       /* the messages of the calls (not ns->arena: a callback's calls reset that) */
  napi_env env;
  call *now;              /* the innermost running call */
  uint32_t depth;         /* calls running */
  int feeding;            /* feeds running (one at most but for a client's, whose core refuses a
                             nested feed itself) */
  int stop;               /* a reset during a feed: stop it after the current message */
  int closed;             /* close() was called: every call refused, freed at depth 0 */
} peer;

static void peer_free(peer *e, napi_env env) {
  fbe_client_free(e->client);
  fbe_sender_free(e->sender);
  fbe_receiver_free(e->receiver);
  fbe_arena_free(e->arena);
  e->client = NULL;
  e->sender = NULL;
  e->receiver = NULL;
  e->arena = NULL;
  ns_release(e->ns, env);
  fbei_mem_free(e);
}

static void peer_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  peer *e = data;
  if (e->depth) e->closed = 2; /* (cannot happen: a running call holds the object) freed when it returns */
  else peer_free(e, env);
}

/* ------------------------------------------------------------ calling lib/ */

/* cb(args...) of the innermost call; the result (NULL when it threw: the exception is
 * kept for the end of the call and cleared, so the core's run goes on). */
static napi_value dispatch(peer *e, size_t argc, napi_value *argv) {
  napi_env env = e->env;
  napi_value self, result = NULL;
  if (!e->now || napi_get_undefined(env, &self) != napi_ok) return NULL;
  if (napi_call_function(env, self, e->now->cb, argc, argv, &result) == napi_ok) return result;
  bool pending = false;
  napi_value ex;
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
      napi_get_and_clear_last_exception(env, &ex) == napi_ok && !e->now->thrown)
    e->now->thrown = ex;
  return NULL;
}

/* cb(args...) with msg on the tape (lib/ reads it there; it returns true when it grew
 * the tapes, then the message is written again). 0, or -1 when lib/ failed. */
static int dispatch_message(peer *e, const fbe_msg *msg, size_t argc, napi_value *argv) {
  for (int attempt = 0; attempt < 8; attempt++) {
    bool again = false;
    if (msg) msg_to_tape(e->ns, msg);
    napi_value r = dispatch(e, argc, argv);
    if (!r) return -1;
    if (!msg || napi_get_value_bool(e->env, r, &again) != napi_ok || !again) return 0;
  }
  return -1;
}

static int sink(void *ctx, const uint8_t *data, size_t size) {
  peer *e = ctx;
  napi_value argv[2] = {js_num(e->env, CB_WRITE), NULL};
  if (napi_create_buffer_copy(e->env, size, size ? data : (const uint8_t *)"", NULL, &argv[1]) != napi_ok)
    return -1;
  return dispatch(e, 2, argv) ? 0 : -1;
}

static void on_done(void *ctx, uint64_t token, fbe_request_end end, const fbe_msg *msg, const fbe_error *err) {
  peer *e = ctx;
  napi_env env = e->env;
  napi_value argv[6] = {js_num(env, CB_DONE), js_num(env, (double)token), js_num(env, end),
                        js_num(env, msg ? (double)fbe_struct_index(fbe_msg_type(msg)) : -1.0),
                        js_num(env, err ? err->code : 0), err ? js_str(env, err->message) : js_undefined(env)};
  dispatch_message(e, msg, 6, argv);
}

/* A client's notification or a server's request. Non-zero stops the feed: lib/ threw,
 * or a reset was asked meanwhile. */
static int on_message(void *ctx, const fbe_msg *msg) {
  peer *e = ctx;
  napi_value argv[2] = {js_num(e->env, CB_MESSAGE), js_num(e->env, (double)fbe_struct_index(fbe_msg_type(msg)))};
  return dispatch_message(e, msg, 2, argv) || e->stop ? 1 : 0;
}

static int on_frame(void *ctx, uint32_t type_id, const fbe_struct *type, const uint8_t *frame, size_t size) {
  peer *e = ctx;
  napi_env env = e->env;
  napi_value argv[4] = {js_num(env, CB_FRAME), js_num(env, type_id),
                        js_num(env, type ? (double)fbe_struct_index(type) : -1.0), NULL};
  if (napi_create_buffer_copy(env, size, frame, NULL, &argv[3]) != napi_ok) return 1;
  return !dispatch(e, 4, argv) || e->stop ? 1 : 0;
}

static void on_log(peer *e, int way, const char *text, size_t size) {
  napi_value argv[3] = {js_num(e->env, CB_LOG), js_num(e->env, way), NULL};
  if (napi_create_string_utf8(e->env, text, size, &argv[2]) == napi_ok) dispatch(e, 3, argv);
}
static void on_send_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  on_log(ctx, 0, text, size);
}
static void on_receive_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  on_log(ctx, 1, text, size);
}

/* ------------------------------------------------------------ calls */

/* A method's start: the peer (refused once closed), its call entered with cb (argv[k]). */
#define PEER_CALL(N, k)                                                               \
  ARGS(N, peer, e);                                                                   \
  call frame = {NULL, NULL, NULL};                                                    \
  if (e->closed) return napi_throw_error(env, NULL, "fbe: the peer is closed"), NULL; \
  if (!enter(env, e, &frame, argc > (k) ? argv[k] : NULL)) return NULL

static int enter(napi_env env, peer *e, call *c, napi_value cb) {
  napi_valuetype type = napi_undefined;
  if (cb) napi_typeof(env, cb, &type);
  if (type != napi_function) return throw_type(env, "fbe: a peer call needs its dispatcher"), 0;
  if (!tapes_ready(env, e->ns)) return 0;
  c->cb = cb;
  c->outer = e->now;
  e->now = c;
  e->env = env;
  if (!e->depth++) fbe_arena_reset(e->arena);
  return 1;
}

/* A method's end: the status of the core's call (its error as lastError()), the
 * exception a callback threw thrown again, the peer freed if it was closed meanwhile. */
static napi_value leave(napi_env env, peer *e, call *c, fbe_status rc, const fbe_error *err, napi_value result) {
  e->now = c->outer;
  if (rc != FBE_OK && err) e->ns->err = *err;
  set_status(e->ns, rc);
  if (!--e->depth && e->closed) {
    if (e->closed == 2) peer_free(e, env); /* finalized meanwhile */
    else {
      fbe_client_free(e->client);
      fbe_sender_free(e->sender);
      fbe_receiver_free(e->receiver);
      e->client = NULL;
      e->sender = NULL;
      e->receiver = NULL;
    }
  }
  if (c->thrown) {
    napi_throw(env, c->thrown);
    return NULL;
  }
  return result;
}

/* A 64-bit unsigned argument given as a bigint (times, in nanoseconds). */
static int arg_u64(napi_env env, napi_value v, uint64_t *out) {
  bool lossless = false;
  if (napi_get_value_bigint_uint64(env, v, out, &lossless) != napi_ok || !lossless)
    return throw_type(env, "fbe: expected a bigint of 0 .. 2^64-1"), -1;
  return 0;
}

/* request(typeIndex, timeout: bigint, now: bigint, token, cb): the request on the tape,
 * through fbe_client_request. */
static napi_value request_cb(napi_env env, napi_callback_info info) {
  PEER_CALL(5, 4);
  uint64_t timeout = 0, now = 0;
  fbe_error err;
  const fbe_struct *st = arg_struct(env, e->ns, argc, 5, argv, "request(typeIndex, timeout, now, token, cb)");
  if (!st || arg_u64(env, argv[1], &timeout) || arg_u64(env, argv[2], &now)) return leave(env, e, &frame, FBE_OK, NULL, NULL);
  double token = 0;
  napi_get_value_double(env, argv[3], &token);
  uint32_t n, p;
  fbe_msg *m = msg_from_tape_in(e->ns, st, REG_N0, REG_P0, e->arena, &n, &p);
  if (!m) return leave(env, e, &frame, e->ns->err.code, NULL, NULL);
  fbe_status rc = fbe_client_request(e->client, m, timeout, now, (uint64_t)token, &err);
  return leave(env, e, &frame, rc, &err, NULL);
}

/* send(typeIndex, cb): the message on the tape, sent as it is (a client's
 * fbe_client_send, a server's sender). */
static napi_value send_cb(napi_env env, napi_callback_info info) {
  PEER_CALL(2, 1);
  fbe_error err;
  const fbe_struct *st = arg_struct(env, e->ns, argc, 2, argv, "send(typeIndex, cb)");
  uint32_t n, p;
  fbe_msg *m = st ? msg_from_tape_in(e->ns, st, REG_N0, REG_P0, e->arena, &n, &p) : NULL;
  if (!m) return leave(env, e, &frame, st ? e->ns->err.code : FBE_OK, NULL, NULL);
  fbe_status rc = e->client ? fbe_client_send(e->client, m, &err) : fbe_sender_send(e->sender, m, &err);
  return leave(env, e, &frame, rc, &err, NULL);
}

/* reply(requestIndex, replyIndex, cb): a server's answer: the request on the tape at
 * REG_N0/REG_P0, the reply at REG_N1/REG_P1; fbe_reply_prepare gives the reply the
 * request's id (and refuses a reply that is not the request's response or reject),
 * then the sender sends it. */
static napi_value reply_cb(napi_env env, napi_callback_info info) {
  PEER_CALL(3, 2);
  fbe_error err;
  const fbe_struct *rq = argc >= 3 ? arg_struct_index(env, e->ns, argv[0]) : NULL;
  const fbe_struct *rp = rq ? arg_struct_index(env, e->ns, argv[1]) : NULL;
  if (!rp || !e->sender) return leave(env, e, &frame, FBE_OK, NULL, e->sender ? NULL : throw_type(env, "not a server"));
  uint32_t n, p;
  fbe_msg *request = msg_from_tape_in(e->ns, rq, REG_N0, REG_P0, e->arena, &n, &p);
  fbe_msg *reply = request ? msg_from_tape_in(e->ns, rp, REG_N1, REG_P1, e->arena, &n, &p) : NULL;
  if (!reply) return leave(env, e, &frame, e->ns->err.code, NULL, NULL);
  fbe_status rc = fbe_reply_prepare(request, reply, &err);
  if (rc == FBE_OK) rc = fbe_sender_send(e->sender, reply, &err);
  return leave(env, e, &frame, rc, &err, NULL);
}

/* feed(bytes, cb): received bytes, to the client, the server's receiver or the proxy.
 * A reset asked for by a callback meanwhile stops the feed after that message and drops
 * the rest of the bytes (lib/client.js: reset() during a feed). */
static napi_value feed_cb(napi_env env, napi_callback_info info) {
  PEER_CALL(2, 1);
  const uint8_t *data;
  size_t size;
  fbe_error err;
  if (argc < 2 || arg_bytes(env, argv[0], &data, &size)) return leave(env, e, &frame, FBE_OK, NULL, NULL);
  if (e->feeding && !e->client) { /* a receiver is not re-entrant (a client's core refuses by itself) */
    err.code = FBE_ERR_ARGUMENT;
    err.offset = FBE_NO_OFFSET;
    err.path[0] = 0;
    strcpy(err.message, "feed called from one of its own callbacks");
    return leave(env, e, &frame, FBE_ERR_ARGUMENT, &err, NULL);
  }
  int stop_before = e->stop;
  e->stop = 0;
  e->feeding++;
  fbe_status rc = e->client ? fbe_client_feed(e->client, data, size, &err) : fbe_receiver_feed(e->receiver, data, size, &err);
  e->feeding--;
  if (e->stop && (e->client || e->receiver)) { /* stopped by a reset: what was not read is dropped, no error */
    fbe_receiver_reset(e->client ? fbe_client_receiver(e->client) : e->receiver);
    if (rc == FBE_ERR_IO) rc = FBE_OK;
  }
  e->stop = stop_before;
  return leave(env, e, &frame, rc, &err, NULL);
}

/* watchdog(now: bigint, cb) -> how many requests timed out */
static napi_value watchdog_cb(napi_env env, napi_callback_info info) {
  PEER_CALL(2, 1);
  uint64_t now = 0;
  if (arg_u64(env, argv[0], &now)) return leave(env, e, &frame, FBE_OK, NULL, NULL);
  size_t ended = e->client ? fbe_client_watchdog(e->client, now) : 0;
  return leave(env, e, &frame, FBE_OK, NULL, js_num(env, (double)ended));
}

/* Ends a client's pending requests (fbe_client_reset) and drops a partial frame; during
 * a feed, that feed stops after the current message. */
static void peer_reset(peer *e) {
  if (e->client) fbe_client_reset(e->client);
  else if (!e->feeding) fbe_receiver_reset(e->receiver);
  if (e->feeding) e->stop = 1; /* (inside a feed: feed_cb drops the rest) */
}

/* reset(cb) */
static napi_value reset_cb(napi_env env, napi_callback_info info) {
  PEER_CALL(1, 0);
  peer_reset(e);
  return leave(env, e, &frame, FBE_OK, NULL, NULL);
}

/* close(cb): ends the pending requests as reset does, then the native state is freed
 * (now, or when the last running call returns); every later call is refused. */
static napi_value close_cb(napi_env env, napi_callback_info info) {
  ARGS(1, peer, e);
  if (e->closed) return NULL;
  call frame = {NULL, NULL, NULL};
  if (!enter(env, e, &frame, argc > 0 ? argv[0] : NULL)) return NULL;
  peer_reset(e);
  e->closed = 1;
  return leave(env, e, &frame, FBE_OK, NULL, NULL);
}

/* nextDeadline() -> bigint, or null when no pending request has a timeout */
static napi_value next_deadline_cb(napi_env env, napi_callback_info info) {
  ARGS(0, peer, e);
  uint64_t next = e->client && !e->closed ? fbe_client_next_deadline(e->client) : UINT64_MAX;
  napi_value v;
  if (next == UINT64_MAX) return js_null(env);
  CHECK(napi_create_bigint_uint64(env, next, &v));
  return v;
}

/* counts() -> [pending requests, bytes of a partial frame, received, skipped, bytes sent] */
static napi_value counts_cb(napi_env env, napi_callback_info info) {
  ARGS(0, peer, e);
  if (e->closed) return js_null(env);
  fbe_receiver *r = e->client ? fbe_client_receiver(e->client) : e->receiver;
  fbe_sender *s = e->client ? fbe_client_sender(e->client) : e->sender;
  napi_value arr, items[5] = {js_num(env, e->client ? (double)fbe_client_pending(e->client) : 0),
                              js_num(env, (double)fbe_receiver_pending(r)), js_num(env, (double)fbe_receiver_received(r)),
                              js_num(env, (double)fbe_receiver_skipped(r)), js_num(env, s ? (double)fbe_sender_bytes(s) : 0)};
  return (arr = array_of(env, items, 5)) ? arr : napi_failure(env, "counts");
}

/* log(on): the core's send and receive log hooks on (lib/ gets CB_LOG) or off. */
static napi_value log_cb(napi_env env, napi_callback_info info) {
  ARGS(1, peer, e);
  bool on = false;
  if (argc >= 1) napi_get_value_bool(env, argv[0], &on);
  if (e->closed || e->kind == PEER_PROXY) return NULL;
  fbe_sender *s = e->client ? fbe_client_sender(e->client) : e->sender;
  fbe_receiver *r = e->client ? fbe_client_receiver(e->client) : e->receiver;
  fbe_sender_set_log(s, on ? on_send_log : NULL, e);
  fbe_receiver_set_log(r, on ? on_receive_log : NULL, e);
  return NULL;
}

/* ------------------------------------------------------------ making peers */

/* client(package | null, final, limits | undefined, maxPending),
 * server(package | null, final, limits | undefined),
 * proxy(package | null, final, limits | undefined, verify)
 * -> the native object; null for an unknown package; undefined when the limits are
 * refused (lastError says why). */
static napi_value peer_new(napi_env env, napi_callback_info info, int kind) {
  static const method client_methods[] = {{"request", request_cb}, {"send", send_cb},   {"feed", feed_cb},
                                          {"watchdog", watchdog_cb}, {"reset", reset_cb}, {"close", close_cb},
                                          {"nextDeadline", next_deadline_cb}, {"counts", counts_cb}, {"log", log_cb}};
  static const method server_methods[] = {{"send", send_cb},   {"reply", reply_cb},   {"feed", feed_cb},
                                          {"reset", reset_cb}, {"close", close_cb},   {"counts", counts_cb},
                                          {"log", log_cb}};
  static const method proxy_methods[] = {{"feed", feed_cb}, {"reset", reset_cb}, {"close", close_cb},
                                         {"counts", counts_cb}};
  ARGS(4, nschema, ns);
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  napi_valuetype type = napi_undefined;
  char *pkg;
  if (argc < 3) return throw_type(env, "peer(package, final, limits, ...)");
  napi_typeof(env, argv[2], &type);
  if (type != napi_undefined && arg_limits(env, argv[2], &storage, &limits, &ns->err)) return js_undefined(env);
  double extra = 0;
  bool verify = false;
  if (argc >= 4 && kind == PEER_CLIENT) napi_get_value_double(env, argv[3], &extra);
  if (argc >= 4 && kind == PEER_PROXY) napi_get_value_bool(env, argv[3], &verify);
  if (arg_package(env, argv[0], &pkg)) return NULL;
  fbe_model model = arg_model(env, argv[1]);
  peer *e = fbei_mem_calloc(1, sizeof *e);
  int made = 0, known = 1;
  if (e && (e->arena = fbe_arena_new())) {
    e->ns = ns;
    e->kind = kind;
    if (kind == PEER_CLIENT) {
      fbe_error err;
      fbe_client_options o = {model, limits, extra > 0 ? (size_t)extra : 0, sink, e, on_done, on_message, e};
      e->client = fbe_client_new(ns->schema, pkg, &o, &err);
      made = e->client != NULL;
      known = made || err.code != FBE_ERR_NOT_FOUND;
    } else if (kind == PEER_SERVER) {
      e->sender = fbe_sender_new(ns->schema, pkg, model, sink, e);
      e->receiver = fbe_receiver_new(ns->schema, pkg, model, limits, on_message, e);
      made = e->sender && e->receiver;
    } else {
      e->receiver = fbe_proxy_new(ns->schema, pkg, model, limits, verify, on_frame, e);
      made = e->receiver != NULL;
    }
  }
  if (!made && e && kind != PEER_CLIENT) { /* the sender and receiver say only NULL: was it the package? */
    known = !pkg;
    for (size_t k = 0; k < fbe_schema_package_count(ns->schema) && !known; k++)
      known = strcmp(fbe_package_name(fbe_schema_package_at(ns->schema, k)), pkg) == 0;
  }
  fbei_mem_free(pkg);
  if (!made) {
    if (e) {
      fbe_client_free(e->client);
      fbe_sender_free(e->sender);
      fbe_receiver_free(e->receiver);
      fbe_arena_free(e->arena);
      fbei_mem_free(e);
    }
    if (!known) return js_null(env);
    return napi_throw_error(env, NULL, "out of memory"), NULL;
  }
  return kind == PEER_CLIENT   ? native_object(env, ns, e, peer_finalize, client_methods, 9)
         : kind == PEER_SERVER ? native_object(env, ns, e, peer_finalize, server_methods, 7)
                               : native_object(env, ns, e, peer_finalize, proxy_methods, 4);
}

napi_value client_new_cb(napi_env env, napi_callback_info info) { return peer_new(env, info, PEER_CLIENT); }
napi_value server_new_cb(napi_env env, napi_callback_info info) { return peer_new(env, info, PEER_SERVER); }
napi_value proxy_new_cb(napi_env env, napi_callback_info info) { return peer_new(env, info, PEER_PROXY); }

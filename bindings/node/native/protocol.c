/* The core's sender and receiver as native objects of a schema: a sender hands each
 * frame out like an encode result; a receiver writes each message onto the tape and
 * calls lib/'s deliver(typeIndex). */
#include "binding.h"
#include "fbe/internal/memory.h"

typedef struct endpoint {
  nschema *ns;
  fbe_sender *sender;     /* one of the two */
  fbe_receiver *receiver;
  napi_env env;
  napi_value frame;       /* during send: what the sink handed out (hand_out) */
  napi_value deliver;     /* during feed: lib/'s function(typeIndex) (not kept: no cycle) */
  napi_value log;         /* during send and feed: lib/'s function(text) for the log hook, or NULL */
  int feeding;
} endpoint;

/* The core's log hook (fbe_sender_set_log, fbe_receiver_set_log): the text form to the
 * call's log function. An exception it throws stays pending: the call then throws it. */
static void endpoint_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  endpoint *e = ctx;
  napi_value self, arg, result;
  bool pending = false;
  if (!e->log || napi_is_exception_pending(e->env, &pending) != napi_ok || pending) return;
  if (napi_get_undefined(e->env, &self) == napi_ok && napi_create_string_utf8(e->env, text, size, &arg) == napi_ok)
    napi_call_function(e->env, self, e->log, 1, &arg, &result);
}

/* An optional log function argument (anything else: no log). */
static napi_value arg_log(napi_env env, size_t argc, napi_value *argv, size_t k) {
  napi_valuetype type = napi_undefined;
  if (argc > k) napi_typeof(env, argv[k], &type);
  return type == napi_function ? argv[k] : NULL;
}

static void endpoint_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  endpoint *e = data;
  fbe_sender_free(e->sender);
  fbe_receiver_free(e->receiver);
  ns_release(e->ns, env);
  fbei_mem_free(e);
}

static int sender_sink(void *ctx, const uint8_t *data, size_t size) {
  endpoint *e = ctx;
  e->frame = hand_out(e->env, e->ns, data, size);
  return e->frame || e->ns->regs[REG_OUT] == 1 ? 0 : -1;
}

/* send(typeIndex[, log]) -> Buffer | undefined: the frame of the value on the tape,
 * handed out like an encode result (REG_STATUS says whether it failed); log(text) gets
 * the log line when the hook is on (setLog). */
static napi_value send_cb(napi_env env, napi_callback_info info) {
  ARGS(2, endpoint, e);
  const fbe_struct *st = arg_struct(env, e->ns, argc, 1, argv, "send(typeIndex)");
  fbe_msg *m = st ? msg_from_tape(e->ns, st) : NULL;
  if (!m) return NULL;
  e->env = env;
  e->frame = NULL;
  e->log = arg_log(env, argc, argv, 1);
  fbe_status rc = fbe_sender_send(e->sender, m, &e->ns->err);
  e->log = NULL;
  set_status(e->ns, rc);
  return rc == FBE_OK ? e->frame : NULL;
}

static napi_value bytes_cb(napi_env env, napi_callback_info info) {
  ARGS(0, endpoint, e);
  return js_num(env, (double)fbe_sender_bytes(e->sender));
}

/* Writes the message onto the tape and calls deliver(typeIndex). deliver returns true
 * after it grew the tapes (the message is written again), anything else when done. */
static int receiver_handler(void *ctx, const fbe_msg *msg) {
  endpoint *e = ctx;
  napi_env env = e->env;
  napi_value self, arg, result;
  if (napi_get_undefined(env, &self) != napi_ok ||
      napi_create_int32(env, (int32_t)fbe_struct_index(fbe_msg_type(msg)), &arg) != napi_ok)
    return 1;
  for (int attempt = 0; attempt < 8; attempt++) {
    bool again = false;
    msg_to_tape(e->ns, msg);
    if (napi_call_function(env, self, e->deliver, 1, &arg, &result) != napi_ok) return 1;
    if (napi_get_value_bool(env, result, &again) != napi_ok || !again) return 0;
  }
  return 1;
}

/* feed(bytes, deliver[, log]): REG_STATUS = 0 or the error (lastError); an exception
 * thrown by deliver propagates. */
static napi_value feed_cb(napi_env env, napi_callback_info info) {
  ARGS(3, endpoint, e);
  const uint8_t *data;
  size_t size;
  napi_valuetype type = napi_undefined;
  if (!tapes_ready(env, e->ns)) return NULL;
  if (argc >= 2) napi_typeof(env, argv[1], &type);
  if (type != napi_function) return throw_type(env, "feed(bytes, deliver)");
  if (arg_bytes(env, argv[0], &data, &size)) return NULL;
  if (e->feeding) return napi_throw_error(env, NULL, "Receiver.feed called from its own message handler"), NULL;
  e->env = env;
  e->deliver = argv[1];
  e->log = arg_log(env, argc, argv, 2);
  e->feeding = 1;
  fbe_status s = fbe_receiver_feed(e->receiver, data, size, &e->ns->err);
  e->feeding = 0;
  e->log = NULL;
  set_status(e->ns, s);
  return NULL;
}

static napi_value reset_cb(napi_env env, napi_callback_info info) {
  ARGS(0, endpoint, e);
  if (!e->feeding) fbe_receiver_reset(e->receiver);
  return NULL;
}

/* setLog(on): the core's log hook on (each send or feed passes its log function) or off. */
static napi_value set_log_cb(napi_env env, napi_callback_info info) {
  ARGS(1, endpoint, e);
  bool on = false;
  if (argc >= 1) napi_get_value_bool(env, argv[0], &on);
  if (e->sender) fbe_sender_set_log(e->sender, on ? endpoint_log : NULL, e);
  else fbe_receiver_set_log(e->receiver, on ? endpoint_log : NULL, e);
  return NULL;
}

/* counts() -> [pending, received, skipped] */
static napi_value counts_cb(napi_env env, napi_callback_info info) {
  ARGS(0, endpoint, e);
  napi_value arr, items[3] = {js_num(env, (double)fbe_receiver_pending(e->receiver)),
                              js_num(env, (double)fbe_receiver_received(e->receiver)),
                              js_num(env, (double)fbe_receiver_skipped(e->receiver))};
  return (arr = array_of(env, items, 3)) ? arr : napi_failure(env, "counts");
}

/* sender(package | null, final) -> {send, bytes, setLog}; receiver(package | null,
 * final[, limits]) -> {feed, reset, counts, setLog}. null for an unknown package; undefined when the
 * limits are refused (lastError says why). */
static napi_value endpoint_new(napi_env env, napi_callback_info info, int receiving) {
  static const method sender_methods[] = {{"send", send_cb}, {"bytes", bytes_cb}, {"setLog", set_log_cb}};
  static const method receiver_methods[] = {{"feed", feed_cb}, {"reset", reset_cb}, {"counts", counts_cb},
                                            {"setLog", set_log_cb}};
  ARGS(3, nschema, ns);
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  char *pkg;
  if (argc < 2) return throw_type(env, receiving ? "receiver(package, final)" : "sender(package, final)");
  if (receiving && argc >= 3 && arg_limits(env, argv[2], &storage, &limits, &ns->err)) return js_undefined(env);
  if (arg_package(env, argv[0], &pkg)) return NULL;
  endpoint *e = fbei_mem_calloc(1, sizeof *e);
  if (e) {
    e->ns = ns;
    fbe_model model = arg_model(env, argv[1]);
    if (receiving) e->receiver = fbe_receiver_new(ns->schema, pkg, model, limits, receiver_handler, e);
    else e->sender = fbe_sender_new(ns->schema, pkg, model, sender_sink, e);
  }
  fbei_mem_free(pkg);
  if (!e) return napi_throw_error(env, NULL, "out of memory"), NULL;
  if (e->sender || e->receiver)
    return receiving ? native_object(env, ns, e, endpoint_finalize, receiver_methods, 4)
                     : native_object(env, ns, e, endpoint_finalize, sender_methods, 3);
  fbei_mem_free(e);
  return js_null(env);
}

napi_value sender_new_cb(napi_env env, napi_callback_info info) { return endpoint_new(env, info, 0); }
napi_value receiver_new_cb(napi_env env, napi_callback_info info) { return endpoint_new(env, info, 1); }

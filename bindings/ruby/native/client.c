/* The client engine (FBE::Native::ClientEngine) over the core's fbe_client (fbe/client.h):
 * FBE::Client (lib/fbe/client.rb) wraps it with futures, a lock, an IO and a watchdog
 * thread. The engine decides nothing: which message answers which request, rejects,
 * timeouts, resets, duplicate ids and the cap are the core's.
 *
 * What the core reports during a call (a request ending, a notification, a log line) is
 * converted to Ruby values at once (the core's message lives only during its callback)
 * and appended, in order, to the events Array the caller passed:
 *   [:end, token, :sent|:responded|:rejected|:timeout|:reset, response-or-reject, error]
 *   [:notify, message]
 *   [:log, :send|:receive, text]
 * The Ruby side runs user code (the futures' callbacks, the notification handler, the
 * log hooks) from that list after the call, outside its lock. Only the sink (the Ruby
 * side's outlet) is called from inside the core, under rb_protect: its exception makes
 * the send fail (FBE_ERR_IO: the request is not registered) and is raised after it.
 *
 * Lifetime: the engine counts the calls in flight (a sink may call the client again);
 * close is refused while there are any, and ends the pending requests (reset) before it
 * frees the core's client, so no future is left waiting. The GC frees a client nobody
 * references (fbe_client_free: pending requests dropped), never one a call uses: every
 * call holds the engine on its stack. */
#include "binding.h"

static ID id_call, id_reject;
static VALUE sym_end, sym_notify, sym_log, sym_send, sym_receive;
static VALUE sym_ends[5]; /* by fbe_request_end */

typedef struct client_engine {
  fbe_client *client; /* NULL once closed */
  VALUE core;         /* the schema's tables (bind.c) */
  VALUE sink;         /* #call(String): where the bytes go */
  VALUE events;       /* the Array of the call in progress, or nil */
  int ordered;        /* sets as Arrays, maps as Arrays of pairs */
  int busy;           /* calls in flight */
  int state;          /* rb_protect's tag of an exception to raise after the core call */
} client_engine;

static void client_mark(void *p) {
  client_engine *e = p;
  rb_gc_mark(e->core);
  rb_gc_mark(e->sink);
  rb_gc_mark(e->events);
}

static void client_free(void *p) {
  fbe_client_free(((client_engine *)p)->client);
  xfree(p);
}

static const rb_data_type_t client_type = {
    .wrap_struct_name = "FBE::Native::ClientEngine",
    .function = {.dmark = client_mark, .dfree = client_free},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

static VALUE client_alloc(VALUE klass) {
  client_engine *e;
  VALUE obj = TypedData_Make_Struct(klass, client_engine, &client_type, e);
  e->core = e->sink = e->events = Qnil;
  return obj;
}

static client_engine *client_of(VALUE self) {
  client_engine *e = rb_check_typeddata(self, &client_type);
  if (!e->client) rf_raisef(FBE_ERR_ARGUMENT, "the client is closed");
  return e;
}

/* ------------------------------------------------------------------ the core's callbacks */

static void push(client_engine *e, VALUE event) {
  if (!NIL_P(e->events)) rb_ary_push(e->events, event);
}

/* A received message as a new instance of its struct class. */
static VALUE value_of(client_engine *e, const fbe_msg *msg) {
  rf_core *c = rf_core_of(e->core);
  rf_check_open(c);
  return rf_get_struct(&c->structs[fbe_struct_index(fbe_msg_type(msg))], fbei_msg_data(msg), e->ordered);
}

typedef struct done_arg {
  client_engine *e;
  uint64_t token;
  fbe_request_end end;
  const fbe_msg *msg;
  const fbe_error *err;
  VALUE failure; /* the exception converting them raised */
} done_arg;

static VALUE done_body(VALUE arg) {
  done_arg *d = (done_arg *)arg;
  VALUE value = d->msg ? value_of(d->e, d->msg) : Qnil, error = Qnil;
  if (d->err) { /* the core's error, as its class (RejectedError, TimeoutError, ResetError) */
    error = rf_error_new(d->err);
    if (d->end == FBE_REQUEST_REJECTED) rb_ivar_set(error, id_reject, value);
  }
  push(d->e, rb_ary_new_from_args(5, sym_end, ULL2NUM(d->token), sym_ends[d->end], value, error));
  return Qnil;
}

/* The request ends with the exception its conversion raised: it ends, whatever happens. */
static VALUE done_failed(VALUE arg) {
  done_arg *d = (done_arg *)arg;
  push(d->e, rb_ary_new_from_args(5, sym_end, ULL2NUM(d->token), sym_ends[d->end], Qnil, d->failure));
  return Qnil;
}

static void done_fn(void *ctx, uint64_t token, fbe_request_end end, const fbe_msg *msg, const fbe_error *err) {
  client_engine *e = ctx;
  done_arg d = {e, token, end, msg, err, Qnil};
  int state = 0;
  rb_protect(done_body, (VALUE)&d, &state);
  if (state) {
    d.failure = rb_errinfo();
    rb_set_errinfo(Qnil);
    rb_protect(done_failed, (VALUE)&d, &state);
    if (state && !e->state) e->state = state; /* (out of memory) raised after the call */
  }
}

typedef struct notify_arg {
  client_engine *e;
  const fbe_msg *msg;
} notify_arg;

static VALUE notify_body(VALUE arg) {
  notify_arg *n = (notify_arg *)arg;
  push(n->e, rb_assoc_new(sym_notify, value_of(n->e, n->msg)));
  return Qnil;
}

/* A notification: converted, or the feed stops (non-zero) and the exception is raised. */
static int notify_fn(void *ctx, const fbe_msg *msg) {
  client_engine *e = ctx;
  notify_arg n = {e, msg};
  if (e->state) return 1;
  rb_protect(notify_body, (VALUE)&n, &e->state);
  return e->state != 0;
}

typedef struct log_arg {
  client_engine *e;
  VALUE way;
  const char *text;
  size_t size;
} log_arg;

static VALUE log_body(VALUE arg) {
  log_arg *l = (log_arg *)arg;
  push(l->e, rb_ary_new_from_args(3, sym_log, l->way, rb_utf8_str_new(l->text, (long)l->size)));
  return Qnil;
}

static void log_line(void *ctx, VALUE way, const char *text, size_t size) {
  client_engine *e = ctx;
  log_arg l = {e, way, text, size};
  if (!e->state) rb_protect(log_body, (VALUE)&l, &e->state);
}
static void log_send(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  log_line(ctx, sym_send, text, size);
}
static void log_receive(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  log_line(ctx, sym_receive, text, size);
}

static VALUE call_sink(VALUE arg) {
  VALUE *a = (VALUE *)arg;
  return rb_funcall(a[0], id_call, 1, a[1]);
}

/* The bytes of one frame to the Ruby sink; its exception refuses them (FBE_ERR_IO). */
static int sink_fn(void *ctx, const uint8_t *data, size_t size) {
  client_engine *e = ctx;
  if (e->state) return 1;
  VALUE a[2] = {e->sink, rb_str_new((const char *)data, (long)size)};
  rb_protect(call_sink, (VALUE)a, &e->state);
  return e->state != 0;
}

/* ------------------------------------------------------------------ calls */

typedef struct client_op client_op;
struct client_op {
  client_engine *e;
  rf_core *c;
  VALUE prev_events; /* of the call this one runs inside (a sink calling the client), restored after */
  int prev_state;
  fbei_scratch *scratch;
  VALUE arg;         /* the message, or the bytes fed */
  uint64_t timeout, now, token;
  VALUE (*body)(client_op *);
};

static VALUE op_run(VALUE arg) {
  client_op *o = (client_op *)arg;
  return o->body(o);
}

static VALUE op_done(VALUE arg) {
  client_op *o = (client_op *)arg;
  if (o->scratch) rf_scratch_put(o->scratch);
  o->e->events = o->prev_events;
  o->e->state = o->prev_state;
  o->e->busy--;
  o->c->busy--;
  return Qnil;
}

/* Runs body with events as the call's list; the engine and the schema count it in flight. */
static VALUE client_call(VALUE self, VALUE events, client_op *o, VALUE (*body)(client_op *), int needs_schema) {
  o->e = client_of(self);
  Check_Type(events, T_ARRAY);
  o->c = rf_core_of(o->e->core);
  if (needs_schema) rf_check_open(o->c);
  o->body = body;
  o->prev_events = o->e->events;
  o->prev_state = o->e->state;
  o->e->events = events;
  o->e->state = 0;
  o->e->busy++;
  o->c->busy++;
  return rb_ensure(op_run, (VALUE)o, op_done, (VALUE)o);
}

/* After a core call: the exception of a callback first (the sink's), then the core's error. */
static void check(client_op *o, fbe_status st, const fbe_error *err) {
  if (o->e->state) {
    int state = o->e->state;
    o->e->state = 0;
    rb_jump_tag(state);
  }
  if (st) rf_raise(err);
}

/* The message arg as the core's, in the call's scratch arena. */
static fbe_msg *message_of(client_op *o, rf_walk *w) {
  o->scratch = rf_scratch_get();
  w->arena = o->scratch->arena;
  return rf_build_msg(w, rf_struct_in_core(o->c, o->arg), o->arg);
}

static uint64_t u64_of(VALUE v, const char *what) {
  if (FIXNUM_P(v) && FIX2LONG(v) >= 0) return (uint64_t)FIX2LONG(v);
  if (!RB_INTEGER_TYPE_P(v)) rb_raise(rb_eTypeError, "%s must be an Integer, not %s", what, rb_obj_classname(v));
  if (RTEST(rb_funcall(v, rb_intern("negative?"), 0)))
    rf_raisef(FBE_ERR_RANGE, "%s must not be negative", what);
  return NUM2ULL(v); /* RangeError past 2^64 - 1 */
}

static VALUE request_body(client_op *o) {
  rf_walk w = {0};
  fbe_msg *m = message_of(o, &w);
  fbe_status st = fbe_client_request(o->e->client, m, o->timeout, o->now, o->token, &w.err);
  check(o, st, &w.err);
  return Qnil;
}

/* request(events, message, timeout_ns, now_ns, token) -> nil: fbe_client_request. Raises
 * the core's refusal (TypeMismatchError: not a request; ArgumentError: no id or a pending
 * one equal; LimitError: past max_pending) or the sink's exception; either way the request
 * is not pending. */
static VALUE client_request(VALUE self, VALUE events, VALUE msg, VALUE timeout, VALUE now, VALUE token) {
  client_op o = {.arg = msg};
  o.timeout = u64_of(timeout, "timeout");
  o.now = u64_of(now, "now");
  o.token = u64_of(token, "token");
  return client_call(self, events, &o, request_body, 1);
}

static VALUE send_body(client_op *o) {
  rf_walk w = {0};
  fbe_msg *m = message_of(o, &w);
  uint64_t before = fbe_sender_bytes(fbe_client_sender(o->e->client));
  fbe_status st = fbe_client_send(o->e->client, m, &w.err);
  check(o, st, &w.err);
  return ULL2NUM(fbe_sender_bytes(fbe_client_sender(o->e->client)) - before);
}

/* send_message(events, message) -> Integer: any message of the protocol, as it is. */
static VALUE client_send(VALUE self, VALUE events, VALUE msg) {
  client_op o = {.arg = msg};
  return client_call(self, events, &o, send_body, 1);
}

static VALUE feed_body(client_op *o) {
  fbe_error err;
  fbe_status st = fbe_client_feed(o->e->client, (const uint8_t *)RSTRING_PTR(o->arg), (size_t)RSTRING_LEN(o->arg), &err);
  check(o, st, &err);
  return Qnil;
}

/* feed(events, bytes) -> nil: fbe_client_feed. A bad frame raises the core's error (the
 * events of the frames before it are in the list); the pending requests stay. */
static VALUE client_feed(VALUE self, VALUE events, VALUE data) {
  if (!RB_TYPE_P(data, T_STRING)) rf_raisef(FBE_ERR_TYPE, "expected a String (bytes), got %s", rb_obj_classname(data));
  client_op o = {.arg = rb_str_new_frozen(data)}; /* no callback can change these bytes */
  return client_call(self, events, &o, feed_body, 1);
}

static VALUE watchdog_body(client_op *o) {
  size_t n = fbe_client_watchdog(o->e->client, o->now);
  check(o, FBE_OK, NULL);
  return SIZET2NUM(n);
}

/* watchdog(events, now) -> Integer: the requests that timed out at now. */
static VALUE client_watchdog(VALUE self, VALUE events, VALUE now) {
  client_op o = {.now = u64_of(now, "now")};
  return client_call(self, events, &o, watchdog_body, 0);
}

static VALUE reset_body(client_op *o) {
  fbe_client_reset(o->e->client);
  check(o, FBE_OK, NULL);
  return Qnil;
}

/* reset(events) -> nil: every pending request ends (ResetError), a partial frame is dropped. */
static VALUE client_reset(VALUE self, VALUE events) {
  client_op o = {0};
  return client_call(self, events, &o, reset_body, 0);
}

/* close(events) -> nil: refused while a call runs (a sink closing its own client);
 * otherwise the pending requests end as at reset, then the core's client is freed. */
static VALUE client_close(VALUE self, VALUE events) {
  client_engine *e = rb_check_typeddata(self, &client_type);
  if (!e->client) return Qnil;
  if (e->busy)
    rf_raisef(FBE_ERR_ARGUMENT, "the client is in use by %d call%s (close it once they have returned)", e->busy,
              e->busy == 1 ? "" : "s");
  client_reset(self, events);
  fbe_client_free(e->client);
  e->client = NULL;
  return Qnil;
}

static VALUE client_closed_p(VALUE self) {
  return ((client_engine *)rb_check_typeddata(self, &client_type))->client ? Qfalse : Qtrue;
}

/* The time of the next timeout (the clock's nanoseconds), or nil when none is pending. */
static VALUE client_next_deadline(VALUE self) {
  uint64_t t = fbe_client_next_deadline(client_of(self)->client);
  return t == UINT64_MAX ? Qnil : ULL2NUM(t);
}

static VALUE client_pending(VALUE self) { return SIZET2NUM(fbe_client_pending(client_of(self)->client)); }
static VALUE client_bytes_sent(VALUE self) {
  return ULL2NUM(fbe_sender_bytes(fbe_client_sender(client_of(self)->client)));
}
static VALUE client_received(VALUE self) {
  return ULL2NUM(fbe_receiver_received(fbe_client_receiver(client_of(self)->client)));
}

/* log(send, receive): [:log, ...] events of every message sent (received) from now on. */
static VALUE client_log(VALUE self, VALUE on_send, VALUE on_receive) {
  client_engine *e = client_of(self);
  fbe_sender_set_log(fbe_client_sender(e->client), RTEST(on_send) ? log_send : NULL, e);
  fbe_receiver_set_log(fbe_client_receiver(e->client), RTEST(on_receive) ? log_receive : NULL, e);
  return Qnil;
}

/* ClientEngine.new(core, sink, package, final, max_pending, limits, ordered) */
static VALUE client_init(VALUE self, VALUE core, VALUE sink, VALUE package, VALUE final, VALUE max_pending,
                         VALUE limits, VALUE ordered) {
  client_engine *e = rb_check_typeddata(self, &client_type);
  if (e->client) rb_raise(rb_eRuntimeError, "the client engine is made already");
  rf_core *c = rf_core_of(core);
  rf_check_open(c);
  if (!rb_respond_to(sink, id_call)) rb_raise(rb_eTypeError, "the sink must respond to #call");
  const char *pkg = NIL_P(package) ? NULL : StringValueCStr(package);
  fbe_limits lim;
  rf_limits_get(limits, &lim);
  uint64_t cap = u64_of(max_pending, "max_pending");
  if (cap > SIZE_MAX) rf_raisef(FBE_ERR_RANGE, "max_pending is too large");
  e->core = core;
  e->sink = sink;
  e->ordered = RTEST(ordered);
  fbe_client_options o = {RTEST(final) ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, &lim, (size_t)cap, sink_fn, e, done_fn,
                          notify_fn, e};
  fbe_error err;
  if (!(e->client = fbe_client_new(c->schema, pkg, &o, &err))) rf_raise(&err);
  return self;
}

/* FBE.reply_kind(request_class, reply_class) -> :response, :reject or nil (fbe_reply_kind). */
static VALUE native_reply_kind(VALUE self, VALUE request, VALUE reply) {
  rf_struct *a = rf_info_of(request), *b = rf_info_of(reply);
  const fbe_struct *st = a->core == b->core ? b->st : fbe_schema_find_struct(a->core->schema, b->st->full_name);
  int kind = st ? fbe_reply_kind(a->st, st, NULL) : 0;
  return kind == 1 ? ID2SYM(rb_intern("response")) : kind == 2 ? ID2SYM(rb_intern("reject")) : Qnil;
}

void rf_init_client(VALUE native) {
  id_call = rb_intern("call");
  id_reject = rb_intern("@reject");
  static const char *const ends[5] = {"sent", "responded", "rejected", "timeout", "reset"};
  for (int i = 0; i < 5; i++) sym_ends[i] = ID2SYM(rb_intern(ends[i]));
  sym_end = ID2SYM(rb_intern("end"));
  sym_notify = ID2SYM(rb_intern("notify"));
  sym_log = ID2SYM(rb_intern("log"));
  sym_send = ID2SYM(rb_intern("send"));
  sym_receive = ID2SYM(rb_intern("receive"));
  VALUE cc = rb_define_class_under(native, "ClientEngine", rb_cObject);
  rb_define_alloc_func(cc, client_alloc);
  rb_define_method(cc, "initialize", client_init, 7);
  rb_define_method(cc, "request", client_request, 5);
  rb_define_method(cc, "send_message", client_send, 2);
  rb_define_method(cc, "feed", client_feed, 2);
  rb_define_method(cc, "watchdog", client_watchdog, 2);
  rb_define_method(cc, "reset", client_reset, 1);
  rb_define_method(cc, "close", client_close, 1);
  rb_define_method(cc, "closed?", client_closed_p, 0);
  rb_define_method(cc, "next_deadline", client_next_deadline, 0);
  rb_define_method(cc, "pending", client_pending, 0);
  rb_define_method(cc, "bytes_sent", client_bytes_sent, 0);
  rb_define_method(cc, "received", client_received, 0);
  rb_define_method(cc, "log", client_log, 2);
  rb_define_module_function(native, "reply_kind", native_reply_kind, 2);
}

/* Sender, receiver and proxy engines over the core's protocol (fbe/protocol.h); FBE::Sender,
 * FBE::Receiver, FBE::Server and FBE::Proxy (lib/fbe/protocol.rb, lib/fbe/server.rb) wrap
 * them with the IO and block conveniences. Ruby code called from inside the core (the
 * sink, the handler, the log hook) runs under rb_protect: its exception stops the core
 * call cleanly and is re-raised after it. */
#include "binding.h"

static ID id_call;

/* Both engines: the core's engine, the schema, the Ruby callback. */
typedef struct engine {
  void *core_engine;    /* fbe_sender / fbe_receiver; NULL once closed */
  VALUE core, callback; /* sender: the sink, #call(String); receiver: #call(message) or nil */
  VALUE collected;      /* receiver, proxy: the messages (frames) of a feed without a handler */
  VALUE log;            /* #call(text): the log hook (fbe_sender_set_log, fbe_receiver_set_log), or nil */
  int ordered, busy, state; /* state: rb_protect's tag of the callback's exception */
} engine;

static void engine_mark(void *p) {
  engine *e = p;
  rb_gc_mark(e->core);
  rb_gc_mark(e->callback);
  rb_gc_mark(e->collected);
  rb_gc_mark(e->log);
}
static void sender_free(void *p) {
  fbe_sender_free(((engine *)p)->core_engine);
  xfree(p);
}
static void receiver_free(void *p) {
  fbe_receiver_free(((engine *)p)->core_engine);
  xfree(p);
}
static const rb_data_type_t sender_type = {
    .wrap_struct_name = "FBE::Native::SenderEngine",
    .function = {.dmark = engine_mark, .dfree = sender_free},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};
static const rb_data_type_t receiver_type = {
    .wrap_struct_name = "FBE::Native::ReceiverEngine",
    .function = {.dmark = engine_mark, .dfree = receiver_free},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};
static const rb_data_type_t proxy_type = { /* a receiver in proxy mode (fbe_proxy_new) */
    .wrap_struct_name = "FBE::Native::ProxyEngine",
    .function = {.dmark = engine_mark, .dfree = receiver_free},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

static VALUE engine_alloc(VALUE klass, const rb_data_type_t *type) {
  engine *e;
  VALUE obj = TypedData_Make_Struct(klass, engine, type, e);
  e->core = e->callback = e->collected = e->log = Qnil;
  return obj;
}
static VALUE sender_alloc(VALUE klass) { return engine_alloc(klass, &sender_type); }
static VALUE receiver_alloc(VALUE klass) { return engine_alloc(klass, &receiver_type); }
static VALUE proxy_alloc(VALUE klass) { return engine_alloc(klass, &proxy_type); }

static const char *engine_name(const rb_data_type_t *type) {
  return type == &sender_type ? "sender" : type == &proxy_type ? "proxy" : "receiver";
}

/* The engine of obj, open (else FBE::ArgumentError); when busy is the text of the
 * RuntimeError, not in a call of its own. */
static engine *engine_of(VALUE obj, const rb_data_type_t *type, const char *busy) {
  engine *e = rb_check_typeddata(obj, type);
  if (!e->core_engine) rf_raisef(FBE_ERR_ARGUMENT, "the %s is closed", engine_name(type));
  if (busy && e->busy) rb_raise(rb_eRuntimeError, "%s", busy);
  return e;
}

/* The schema and the package (nil: the root) of a new engine; e keeps the rest. */
static rf_core *engine_init(engine *e, VALUE core, VALUE callback, VALUE package, const char **pkg) {
  rf_core *c = rf_core_of(core);
  rf_check_open(c);
  *pkg = NIL_P(package) ? NULL : StringValueCStr(package);
  e->core = core;
  e->callback = callback;
  return c;
}

/* The core makes no engine for a package the schema does not have. */
static void check_made(const engine *e, const char *pkg) {
  if (!e->core_engine) rf_raisef(FBE_ERR_NOT_FOUND, "no package '%.80s' in the schema", pkg ? pkg : "(root)");
}

static VALUE engine_close(VALUE self, const rb_data_type_t *type, const char *busy) {
  engine *e = rb_check_typeddata(self, type);
  if (e->busy) rb_raise(rb_eRuntimeError, "%s", busy);
  if (type == &sender_type) fbe_sender_free(e->core_engine);
  else fbe_receiver_free(e->core_engine);
  e->core_engine = NULL;
  return Qnil;
}

/* ------------------------------------------------------------------ log hooks */

static VALUE call_sink(VALUE arg) {
  VALUE *a = (VALUE *)arg;
  return rb_funcall(a[0], id_call, 1, a[1]);
}

/* The core's log hook: the message's text form to the Ruby hook, once per message (a
 * sender's before its sink, a receiver's before its handler). An exception stops the
 * call: the sink (handler) sees e->state and refuses, and it is raised after the call. */
static void log_fn(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  engine *e = ctx;
  (void)msg;
  if (e->state || NIL_P(e->log)) return;
  VALUE a[2] = {e->log, rb_utf8_str_new(text, (long)size)};
  rb_protect(call_sink, (VALUE)a, &e->state);
}

/* log = callable or nil: the hook of every message sent (received) from now on. */
static VALUE engine_set_log(VALUE self, VALUE hook, const rb_data_type_t *type) {
  engine *e = engine_of(self, type, "the log hook cannot change during a call");
  if (!NIL_P(hook) && !rb_respond_to(hook, id_call)) rb_raise(rb_eTypeError, "a log hook must respond to #call");
  e->log = hook;
  if (type == &sender_type) fbe_sender_set_log(e->core_engine, NIL_P(hook) ? NULL : log_fn, e);
  else fbe_receiver_set_log(e->core_engine, NIL_P(hook) ? NULL : log_fn, e);
  return hook;
}
static VALUE sender_set_log(VALUE self, VALUE hook) { return engine_set_log(self, hook, &sender_type); }
static VALUE receiver_set_log(VALUE self, VALUE hook) { return engine_set_log(self, hook, &receiver_type); }

/* ------------------------------------------------------------------ sender */

static int sink_fn(void *ctx, const uint8_t *data, size_t size) {
  engine *e = ctx;
  if (e->state) return 1; /* the log hook raised: nothing leaves */
  VALUE a[2] = {e->callback, rb_str_new((const char *)data, (long)size)};
  rb_protect(call_sink, (VALUE)a, &e->state);
  return e->state != 0;
}

/* SenderEngine.new(core, sink, package, final) */
static VALUE sender_init(VALUE self, VALUE core, VALUE sink, VALUE package, VALUE final) {
  engine *e = rb_check_typeddata(self, &sender_type);
  const char *pkg;
  rf_core *c = engine_init(e, core, sink, package, &pkg);
  e->core_engine = fbe_sender_new(c->schema, pkg, RTEST(final) ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, sink_fn, e);
  check_made(e, pkg);
  return self;
}

/* The struct of obj's class in core (by name when the class comes from another load). */
rf_struct *rf_struct_in_core(rf_core *core, VALUE obj) {
  rf_struct *si = SPECIAL_CONST_P(obj) ? NULL : rf_info_try(rb_obj_class(obj));
  const fbe_struct *st = !si || si->core == core ? (si ? si->st : NULL)
                                                 : fbe_schema_find_struct(core->schema, si->st->full_name);
  if (!st) rf_raisef(FBE_ERR_TYPE, "expected a message of the schema, got %.80s", rb_obj_classname(obj));
  return &core->structs[fbe_struct_index(st)];
}

typedef struct send_op {
  engine *e;
  rf_core *c;
  rf_struct *si, *request_si; /* request_si: a reply's request (reply), else NULL */
  VALUE msg, request;
  fbei_scratch *scratch;
} send_op;

static VALUE send_body(VALUE arg) {
  send_op *o = (send_op *)arg;
  rf_walk w = {.arena = o->scratch->arena};
  fbe_msg *m = rf_build_msg(&w, o->si, o->msg);
  if (o->request_si) { /* the core's rule: the reply must answer the request; its id becomes the request's */
    fbe_msg *request = rf_build_msg(&w, o->request_si, o->request);
    if (fbe_reply_prepare(request, m, &w.err)) rf_raise(&w.err);
  }
  uint64_t before = fbe_sender_bytes(o->e->core_engine);
  o->e->state = 0;
  fbe_status st = fbe_sender_send(o->e->core_engine, m, &w.err);
  if (o->e->state) rb_jump_tag(o->e->state);
  if (st) rf_raise(&w.err);
  return ULL2NUM(fbe_sender_bytes(o->e->core_engine) - before);
}

static VALUE send_done(VALUE arg) {
  send_op *o = (send_op *)arg;
  rf_scratch_put(o->scratch);
  o->e->busy = 0;
  o->c->busy--;
  return Qnil;
}

/* The send (reply) of msg (as an answer to request, when not Qundef). */
static VALUE sender_call(VALUE self, VALUE msg, VALUE request) {
  send_op o = {engine_of(self, &sender_type, "Sender#send_message called again while sending (not re-entrant)")};
  rf_check_open(o.c = rf_core_of(o.e->core));
  o.si = rf_struct_in_core(o.c, msg);
  o.msg = msg;
  if (request != Qundef) {
    o.request_si = rf_struct_in_core(o.c, request);
    o.request = request;
  }
  o.scratch = rf_scratch_get();
  o.e->busy = 1;
  o.c->busy++;
  return rb_ensure(send_body, (VALUE)&o, send_done, (VALUE)&o);
}

/* send_message(msg) -> Integer: encodes one message, hands its frame to the sink. */
static VALUE sender_send(VALUE self, VALUE msg) { return sender_call(self, msg, Qundef); }

/* reply(request, reply) -> Integer: sends reply as the answer to request (a message of a
 * [request] type): fbe_reply_prepare checks that reply's type is the request's response or
 * one of its rejects (FBE::TypeMismatchError otherwise) and sets its id to the request's
 * in what is sent (the Ruby object is not changed). */
static VALUE sender_reply(VALUE self, VALUE request, VALUE reply) { return sender_call(self, reply, request); }

static VALUE sender_bytes(VALUE self) {
  return ULL2NUM(fbe_sender_bytes(engine_of(self, &sender_type, NULL)->core_engine));
}

static VALUE sender_close(VALUE self) { return engine_close(self, &sender_type, "Sender#close called while sending"); }

/* ------------------------------------------------------------------ receiver */

typedef struct deliver {
  engine *e;
  const fbe_msg *msg;
} deliver;

static VALUE deliver_body(VALUE arg) {
  deliver *d = (deliver *)arg;
  rf_core *c = rf_core_of(d->e->core);
  rf_check_open(c); /* the handler may have closed it */
  VALUE obj = rf_get_struct(&c->structs[fbe_struct_index(fbe_msg_type(d->msg))], fbei_msg_data(d->msg), d->e->ordered);
  if (NIL_P(d->e->callback)) rb_ary_push(d->e->collected, obj);
  else rb_funcall(d->e->callback, id_call, 1, obj);
  return Qnil;
}

static int handler_fn(void *ctx, const fbe_msg *msg) {
  engine *e = ctx;
  if (e->state) return 1; /* the log hook raised */
  deliver d = {e, msg};
  rb_protect(deliver_body, (VALUE)&d, &e->state);
  return e->state != 0;
}

/* ReceiverEngine.new(core, handler, package, final, ordered, limits); limits (nil, an
 * FBE::Limits or a Hash) apply to every frame */
static VALUE receiver_init(VALUE self, VALUE core, VALUE handler, VALUE package, VALUE final, VALUE ordered,
                           VALUE limits) {
  engine *e = rb_check_typeddata(self, &receiver_type);
  const char *pkg;
  rf_core *c = engine_init(e, core, handler, package, &pkg);
  fbe_limits lim;
  rf_limits_get(limits, &lim);
  e->ordered = RTEST(ordered);
  e->core_engine = fbe_receiver_new(c->schema, pkg, RTEST(final) ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, &lim,
                                    handler_fn, e);
  check_made(e, pkg);
  return self;
}

/* ------------------------------------------------------------------ proxy */

typedef struct deliver_frame {
  engine *e;
  uint32_t type_id;
  const fbe_struct *type;
  const uint8_t *frame;
  size_t size;
} deliver_frame;

/* [type_id, the struct class or nil, the frame (a binary String, its size field included)]
 * to the handler (#call(type_id, klass, frame)) or into the collected ones. */
static VALUE deliver_frame_body(VALUE arg) {
  deliver_frame *d = (deliver_frame *)arg;
  rf_core *c = rf_core_of(d->e->core);
  rf_check_open(c);
  VALUE args[3] = {UINT2NUM(d->type_id), d->type ? c->structs[fbe_struct_index(d->type)].klass : Qnil,
                   rb_str_new((const char *)d->frame, (long)d->size)};
  if (NIL_P(d->e->callback)) rb_ary_push(d->e->collected, rb_ary_new_from_values(3, args));
  else rb_funcallv(d->e->callback, id_call, 3, args);
  return Qnil;
}

static int frame_fn(void *ctx, uint32_t type_id, const fbe_struct *type, const uint8_t *frame, size_t size) {
  engine *e = ctx;
  deliver_frame d = {e, type_id, type, frame, size};
  rb_protect(deliver_frame_body, (VALUE)&d, &e->state);
  return e->state != 0;
}

/* ProxyEngine.new(core, handler, package, final, verify, limits): frames handed over
 * undecoded (fbe_proxy_new); verify: a frame of a known type is also verified. */
static VALUE proxy_init(VALUE self, VALUE core, VALUE handler, VALUE package, VALUE final, VALUE verify,
                        VALUE limits) {
  engine *e = rb_check_typeddata(self, &proxy_type);
  const char *pkg;
  rf_core *c = engine_init(e, core, handler, package, &pkg);
  fbe_limits lim;
  rf_limits_get(limits, &lim);
  e->core_engine = fbe_proxy_new(c->schema, pkg, RTEST(final) ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, &lim,
                                 RTEST(verify), frame_fn, e);
  check_made(e, pkg);
  return self;
}

/* ------------------------------------------------------------------ feeding (receiver, proxy) */

typedef struct feed_op {
  engine *e;
  rf_core *c;
  VALUE data;
} feed_op;

static VALUE feed_body(VALUE arg) {
  feed_op *o = (feed_op *)arg;
  engine *e = o->e;
  fbe_error err;
  e->state = 0;
  fbe_status st = fbe_receiver_feed(e->core_engine, (const uint8_t *)RSTRING_PTR(o->data), (size_t)RSTRING_LEN(o->data),
                                    &err);
  /* The handler raised: its exception goes on; the bytes after that message stay
   * buffered and the next feed goes on with them (fbe_handler_fn). */
  if (e->state) rb_jump_tag(e->state);
  if (st) { /* with the messages that came before the bad frame */
    VALUE exc = rf_error_new(&err);
    rb_ivar_set(exc, rb_intern("@received"), NIL_P(e->collected) ? rb_ary_new() : e->collected);
    rb_exc_raise(exc);
  }
  return e->collected;
}

static VALUE feed_done(VALUE arg) {
  feed_op *o = (feed_op *)arg;
  o->e->busy = 0;
  o->e->collected = Qnil;
  o->c->busy--;
  return Qnil;
}

static const rb_data_type_t *receiving_type(VALUE self) {
  return rb_typeddata_is_kind_of(self, &proxy_type) ? &proxy_type : &receiver_type;
}

/* feed(data) -> Array of messages (frames) without a handler, or nil */
static VALUE receiver_feed(VALUE self, VALUE data) {
  feed_op o = {engine_of(self, receiving_type(self), "Receiver#feed called again while feeding (not re-entrant)")};
  if (!RB_TYPE_P(data, T_STRING)) rf_raisef(FBE_ERR_TYPE, "expected a String (bytes), got %s", rb_obj_classname(data));
  rf_check_open(o.c = rf_core_of(o.e->core));
  o.data = rb_str_new_frozen(data); /* the handler cannot change these bytes */
  o.e->collected = NIL_P(o.e->callback) ? rb_ary_new() : Qnil;
  o.e->busy = 1;
  o.c->busy++;
  return rb_ensure(feed_body, (VALUE)&o, feed_done, (VALUE)&o);
}

static fbe_receiver *receiver_of(VALUE self, const char *busy) {
  return engine_of(self, receiving_type(self), busy)->core_engine;
}

static VALUE receiver_reset(VALUE self) {
  fbe_receiver_reset(receiver_of(self, "Receiver#reset called while feeding"));
  return Qnil;
}

static VALUE receiver_pending(VALUE self) { return SIZET2NUM(fbe_receiver_pending(receiver_of(self, NULL))); }
static VALUE receiver_received(VALUE self) { return ULL2NUM(fbe_receiver_received(receiver_of(self, NULL))); }
static VALUE receiver_skipped(VALUE self) { return ULL2NUM(fbe_receiver_skipped(receiver_of(self, NULL))); }
static VALUE receiver_close(VALUE self) {
  return engine_close(self, receiving_type(self), "Receiver#close called while feeding");
}

void rf_init_protocol(VALUE native) {
  id_call = rb_intern("call");
  VALUE cs = rb_define_class_under(native, "SenderEngine", rb_cObject);
  rb_define_alloc_func(cs, sender_alloc);
  rb_define_method(cs, "initialize", sender_init, 4);
  rb_define_method(cs, "send_message", sender_send, 1);
  rb_define_method(cs, "reply", sender_reply, 2);
  rb_define_method(cs, "log=", sender_set_log, 1);
  rb_define_method(cs, "bytes_sent", sender_bytes, 0);
  rb_define_method(cs, "close", sender_close, 0);
  VALUE cr = rb_define_class_under(native, "ReceiverEngine", rb_cObject);
  rb_define_alloc_func(cr, receiver_alloc);
  rb_define_method(cr, "initialize", receiver_init, 6);
  rb_define_method(cr, "feed", receiver_feed, 1);
  rb_define_method(cr, "log=", receiver_set_log, 1);
  rb_define_method(cr, "reset", receiver_reset, 0);
  rb_define_method(cr, "pending", receiver_pending, 0);
  rb_define_method(cr, "received", receiver_received, 0);
  rb_define_method(cr, "skipped", receiver_skipped, 0);
  rb_define_method(cr, "close", receiver_close, 0);
  VALUE cp = rb_define_class_under(native, "ProxyEngine", rb_cObject);
  rb_define_alloc_func(cp, proxy_alloc);
  rb_define_method(cp, "initialize", proxy_init, 6);
  rb_define_method(cp, "feed", receiver_feed, 1);
  rb_define_method(cp, "reset", receiver_reset, 0);
  rb_define_method(cp, "pending", receiver_pending, 0);
  rb_define_method(cp, "received", receiver_received, 0);
  rb_define_method(cp, "skipped", receiver_skipped, 0);
  rb_define_method(cp, "close", receiver_close, 0);
}

/* Sender and receiver engines over the core's protocol (fbe/protocol.h); FBE::Sender and
 * FBE::Receiver (lib/fbe/protocol.rb) wrap them with the IO and block conveniences.
 * Ruby code called from inside the core (the sink, the handler) runs under rb_protect:
 * its exception stops the core call cleanly and is re-raised after it. */
#include "binding.h"

static ID id_call;

/* Both engines: the core's engine, the schema, the Ruby callback. */
typedef struct engine {
  void *core_engine;    /* fbe_sender / fbe_receiver; NULL once closed */
  VALUE core, callback; /* sender: the sink, #call(String); receiver: #call(message) or nil */
  VALUE collected;      /* receiver: the messages of a feed without a handler */
  int ordered, busy, state; /* state: rb_protect's tag of the callback's exception */
} engine;

static void engine_mark(void *p) {
  engine *e = p;
  rb_gc_mark(e->core);
  rb_gc_mark(e->callback);
  rb_gc_mark(e->collected);
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

static VALUE engine_alloc(VALUE klass, const rb_data_type_t *type) {
  engine *e;
  VALUE obj = TypedData_Make_Struct(klass, engine, type, e);
  e->core = e->callback = e->collected = Qnil;
  return obj;
}
static VALUE sender_alloc(VALUE klass) { return engine_alloc(klass, &sender_type); }
static VALUE receiver_alloc(VALUE klass) { return engine_alloc(klass, &receiver_type); }

/* The engine of obj, open (else FBE::ArgumentError); when busy is the text of the
 * RuntimeError, not in a call of its own. */
static engine *engine_of(VALUE obj, const rb_data_type_t *type, const char *busy) {
  engine *e = rb_check_typeddata(obj, type);
  if (!e->core_engine) rf_raisef(FBE_ERR_ARGUMENT, "the %s is closed", type == &sender_type ? "sender" : "receiver");
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

/* ------------------------------------------------------------------ sender */

static VALUE call_sink(VALUE arg) {
  VALUE *a = (VALUE *)arg;
  return rb_funcall(a[0], id_call, 1, a[1]);
}

static int sink_fn(void *ctx, const uint8_t *data, size_t size) {
  engine *e = ctx;
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
static rf_struct *struct_in_core(rf_core *core, VALUE obj) {
  rf_struct *si = SPECIAL_CONST_P(obj) ? NULL : rf_info_try(rb_obj_class(obj));
  const fbe_struct *st = !si || si->core == core ? (si ? si->st : NULL)
                                                 : fbe_schema_find_struct(core->schema, si->st->full_name);
  if (!st) rf_raisef(FBE_ERR_TYPE, "expected a message of the schema, got %.80s", rb_obj_classname(obj));
  return &core->structs[fbe_struct_index(st)];
}

typedef struct send_op {
  engine *e;
  rf_core *c;
  rf_struct *si;
  VALUE msg;
  fbei_scratch *scratch;
} send_op;

static VALUE send_body(VALUE arg) {
  send_op *o = (send_op *)arg;
  rf_walk w = {.arena = o->scratch->arena};
  fbe_msg *m = rf_build_msg(&w, o->si, o->msg);
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

/* send_message(msg) -> Integer: encodes one message, hands its frame to the sink. */
static VALUE sender_send(VALUE self, VALUE msg) {
  send_op o = {engine_of(self, &sender_type, "Sender#send_message called again while sending (not re-entrant)")};
  rf_check_open(o.c = rf_core_of(o.e->core));
  o.si = struct_in_core(o.c, msg);
  o.msg = msg;
  o.scratch = rf_scratch_get();
  o.e->busy = 1;
  o.c->busy++;
  return rb_ensure(send_body, (VALUE)&o, send_done, (VALUE)&o);
}

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

/* feed(data) -> Array of messages (no handler) or nil */
static VALUE receiver_feed(VALUE self, VALUE data) {
  feed_op o = {engine_of(self, &receiver_type, "Receiver#feed called again while feeding (not re-entrant)")};
  if (!RB_TYPE_P(data, T_STRING)) rf_raisef(FBE_ERR_TYPE, "expected a String (bytes), got %s", rb_obj_classname(data));
  rf_check_open(o.c = rf_core_of(o.e->core));
  o.data = rb_str_new_frozen(data); /* the handler cannot change these bytes */
  o.e->collected = NIL_P(o.e->callback) ? rb_ary_new() : Qnil;
  o.e->busy = 1;
  o.c->busy++;
  return rb_ensure(feed_body, (VALUE)&o, feed_done, (VALUE)&o);
}

static fbe_receiver *receiver_of(VALUE self, const char *busy) {
  return engine_of(self, &receiver_type, busy)->core_engine;
}

static VALUE receiver_reset(VALUE self) {
  fbe_receiver_reset(receiver_of(self, "Receiver#reset called while feeding"));
  return Qnil;
}

static VALUE receiver_pending(VALUE self) { return SIZET2NUM(fbe_receiver_pending(receiver_of(self, NULL))); }
static VALUE receiver_received(VALUE self) { return ULL2NUM(fbe_receiver_received(receiver_of(self, NULL))); }
static VALUE receiver_skipped(VALUE self) { return ULL2NUM(fbe_receiver_skipped(receiver_of(self, NULL))); }
static VALUE receiver_close(VALUE self) {
  return engine_close(self, &receiver_type, "Receiver#close called while feeding");
}

void rf_init_protocol(VALUE native) {
  id_call = rb_intern("call");
  VALUE cs = rb_define_class_under(native, "SenderEngine", rb_cObject);
  rb_define_alloc_func(cs, sender_alloc);
  rb_define_method(cs, "initialize", sender_init, 4);
  rb_define_method(cs, "send_message", sender_send, 1);
  rb_define_method(cs, "bytes_sent", sender_bytes, 0);
  rb_define_method(cs, "close", sender_close, 0);
  VALUE cr = rb_define_class_under(native, "ReceiverEngine", rb_cObject);
  rb_define_alloc_func(cr, receiver_alloc);
  rb_define_method(cr, "initialize", receiver_init, 6);
  rb_define_method(cr, "feed", receiver_feed, 1);
  rb_define_method(cr, "reset", receiver_reset, 0);
  rb_define_method(cr, "pending", receiver_pending, 0);
  rb_define_method(cr, "received", receiver_received, 0);
  rb_define_method(cr, "skipped", receiver_skipped, 0);
  rb_define_method(cr, "close", receiver_close, 0);
}

/* Sender and receiver engines over the core's protocol (fbe/protocol.h). FBE::Sender
 * and FBE::Receiver (lib/fbe/protocol.rb) wrap them with the IO and block
 * conveniences. Ruby code called from inside the core (the sink, the handler) runs
 * under rb_protect: its exception stops the core call cleanly and is re-raised after. */
#include <string.h>
#include "rbfbe.h"

static rf_core *core_arg(VALUE core) { return rb_check_typeddata(core, &rf_core_type); }

static void check_open(rf_core *c) {
  if (!c->schema) rf_raise(FBE_ERR_ARGUMENT, "the schema is closed", "", FBE_NO_OFFSET);
}

NORETURN(static void no_package(const char *package));
static void no_package(const char *package) {
  char msg[160];
  snprintf(msg, sizeof msg, "no package '%.80s' in the schema", package ? package : "(root)");
  rf_raise(FBE_ERR_NOT_FOUND, msg, "", FBE_NO_OFFSET);
}

/* ------------------------------------------------------------------ sender */

typedef struct rf_sender {
  fbe_sender *snd;
  VALUE core, sink; /* sink: anything with #call(String) */
  int busy, state;  /* state: rb_protect's tag of the sink's exception */
} rf_sender;

static void sender_mark(void *p) {
  rf_sender *s = p;
  rb_gc_mark(s->core);
  rb_gc_mark(s->sink);
}
static void sender_free(void *p) {
  rf_sender *s = p;
  fbe_sender_free(s->snd);
  xfree(s);
}
static const rb_data_type_t sender_type = {
    .wrap_struct_name = "FBE::Native::SenderEngine",
    .function = {.dmark = sender_mark, .dfree = sender_free},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

static VALUE sender_alloc(VALUE klass) {
  rf_sender *s;
  VALUE obj = TypedData_Make_Struct(klass, rf_sender, &sender_type, s);
  s->core = s->sink = Qnil;
  return obj;
}

static rf_sender *sender_of(VALUE obj) {
  rf_sender *s = rb_check_typeddata(obj, &sender_type);
  if (!s->snd) rf_raise(FBE_ERR_ARGUMENT, "the sender is closed", "", FBE_NO_OFFSET);
  return s;
}

static VALUE call_sink(VALUE arg) {
  VALUE *a = (VALUE *)arg;
  return rb_funcall(a[0], rb_intern("call"), 1, a[1]);
}

static int sink_fn(void *ctx, const uint8_t *data, size_t size) {
  rf_sender *s = ctx;
  VALUE a[2] = {s->sink, rb_str_new((const char *)data, (long)size)};
  rb_protect(call_sink, (VALUE)a, &s->state);
  return s->state != 0;
}

/* SenderEngine.new(core, sink, package, final) */
static VALUE sender_init(VALUE self, VALUE core, VALUE sink, VALUE package, VALUE final) {
  rf_sender *s = rb_check_typeddata(self, &sender_type);
  rf_core *c = core_arg(core);
  check_open(c);
  const char *pkg = NIL_P(package) ? NULL : StringValueCStr(package);
  s->core = core;
  s->sink = sink;
  s->snd = fbe_sender_new(c->schema, pkg, RTEST(final) ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, sink_fn, s);
  if (!s->snd) no_package(pkg);
  return self;
}

/* The struct of obj's class in core (by name when the class comes from another load). */
static rf_struct *struct_in_core(rf_core *core, VALUE obj) {
  rf_struct *si = SPECIAL_CONST_P(obj) ? NULL : rf_info_try(rb_obj_class(obj));
  if (si && si->core == core) return si;
  if (si) {
    const fbe_struct *st = fbe_schema_find_struct(core->schema, si->st->full_name);
    rf_struct *mine = st ? rf_core_find(core, st) : NULL;
    if (mine) return mine;
  }
  char msg[200];
  snprintf(msg, sizeof msg, "expected a message of the schema, got %.80s", rb_obj_classname(obj));
  rf_raise(FBE_ERR_TYPE, msg, "", FBE_NO_OFFSET);
}

typedef struct send_op {
  rf_sender *s;
  rf_struct *si;
  VALUE msg;
  rf_scratch *scratch;
  rf_walk w;
} send_op;

static VALUE send_body(VALUE arg) {
  send_op *o = (send_op *)arg;
  fbe_msg *m = rf_build_msg(&o->w, o->si, o->msg);
  fbe_error err;
  uint64_t before = fbe_sender_bytes(o->s->snd);
  o->s->state = 0;
  fbe_status st = fbe_sender_send(o->s->snd, m, &err);
  if (o->s->state) rb_jump_tag(o->s->state);
  if (st) rf_raise_fbe(&err);
  return ULL2NUM(fbe_sender_bytes(o->s->snd) - before);
}

static VALUE send_done(VALUE arg) {
  send_op *o = (send_op *)arg;
  rf_scratch_put(o->scratch);
  o->s->busy = 0;
  o->si->core->busy--;
  return Qnil;
}

/* send_message(msg) -> Integer: encodes one message, hands its frame to the sink. */
static VALUE sender_send(VALUE self, VALUE msg) {
  send_op o;
  o.s = sender_of(self);
  if (o.s->busy) rb_raise(rb_eRuntimeError, "Sender#send_message called again while sending (not re-entrant)");
  rf_core *c = core_arg(o.s->core);
  check_open(c);
  o.si = struct_in_core(c, msg);
  o.msg = msg;
  o.scratch = rf_scratch_get();
  o.w.arena = o.scratch->arena;
  o.w.depth = o.w.npath = 0;
  o.w.ordered = 0;
  o.s->busy = 1;
  c->busy++;
  return rb_ensure(send_body, (VALUE)&o, send_done, (VALUE)&o);
}

static VALUE sender_bytes(VALUE self) { return ULL2NUM(fbe_sender_bytes(sender_of(self)->snd)); }

static VALUE sender_close(VALUE self) {
  rf_sender *s = rb_check_typeddata(self, &sender_type);
  if (s->busy) rb_raise(rb_eRuntimeError, "Sender#close called while sending");
  fbe_sender_free(s->snd);
  s->snd = NULL;
  return Qnil;
}

/* ------------------------------------------------------------------ receiver */

typedef struct rf_receiver {
  fbe_receiver *rcv;
  VALUE core, handler; /* handler: #call(message) or nil (then feed returns them) */
  VALUE collected;     /* during feed without a handler */
  int ordered, busy, state;
} rf_receiver;

static void receiver_mark(void *p) {
  rf_receiver *r = p;
  rb_gc_mark(r->core);
  rb_gc_mark(r->handler);
  rb_gc_mark(r->collected);
}
static void receiver_free(void *p) {
  rf_receiver *r = p;
  fbe_receiver_free(r->rcv);
  xfree(r);
}
static const rb_data_type_t receiver_type = {
    .wrap_struct_name = "FBE::Native::ReceiverEngine",
    .function = {.dmark = receiver_mark, .dfree = receiver_free},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

static VALUE receiver_alloc(VALUE klass) {
  rf_receiver *r;
  VALUE obj = TypedData_Make_Struct(klass, rf_receiver, &receiver_type, r);
  r->core = r->handler = r->collected = Qnil;
  return obj;
}

static rf_receiver *receiver_of(VALUE obj) {
  rf_receiver *r = rb_check_typeddata(obj, &receiver_type);
  if (!r->rcv) rf_raise(FBE_ERR_ARGUMENT, "the receiver is closed", "", FBE_NO_OFFSET);
  return r;
}

typedef struct deliver {
  rf_receiver *r;
  const fbe_msg *msg;
} deliver;

static VALUE deliver_body(VALUE arg) {
  deliver *d = (deliver *)arg;
  rf_receiver *r = d->r;
  rf_core *c = core_arg(r->core);
  check_open(c);
  rf_struct *si = rf_core_find(c, fbe_msg_type(d->msg));
  if (!si) rb_raise(rb_eRuntimeError, "fbe: no class for message %s", fbe_msg_type(d->msg)->full_name);
  rf_walk w;
  w.arena = NULL;
  w.depth = w.npath = 0;
  w.ordered = r->ordered;
  VALUE obj = rf_get_struct(&w, si, fbe_msg_data((fbe_msg *)d->msg));
  if (NIL_P(r->handler)) rb_ary_push(r->collected, obj);
  else rb_funcall(r->handler, rb_intern("call"), 1, obj);
  return Qnil;
}

static int handler_fn(void *ctx, const fbe_msg *msg) {
  rf_receiver *r = ctx;
  deliver d = {r, msg};
  rb_protect(deliver_body, (VALUE)&d, &r->state);
  return r->state != 0;
}

/* ReceiverEngine.new(core, handler, package, final, ordered, limits); limits: FBE::Limits, a
 * Hash or nil (rf_limits_get), applied to every frame */
static VALUE receiver_init(VALUE self, VALUE core, VALUE handler, VALUE package, VALUE final, VALUE ordered,
                           VALUE limits) {
  rf_receiver *r = rb_check_typeddata(self, &receiver_type);
  rf_core *c = core_arg(core);
  check_open(c);
  fbe_limits lim;
  rf_limits_get(limits, &lim);
  const char *pkg = NIL_P(package) ? NULL : StringValueCStr(package);
  r->core = core;
  r->handler = handler;
  r->ordered = RTEST(ordered);
  r->rcv = fbe_receiver_new(c->schema, pkg, RTEST(final) ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, &lim,
                            handler_fn, r);
  if (!r->rcv) no_package(pkg);
  return self;
}

typedef struct feed_op {
  rf_receiver *r;
  VALUE data;
} feed_op;

static VALUE feed_body(VALUE arg) {
  feed_op *o = (feed_op *)arg;
  rf_receiver *r = o->r;
  fbe_error err;
  r->state = 0;
  fbe_status st = fbe_receiver_feed(r->rcv, (const uint8_t *)RSTRING_PTR(o->data), (size_t)RSTRING_LEN(o->data), &err);
  /* The handler raised: its exception goes on; the bytes after that message stay
   * buffered and the next feed goes on with them (fbe_handler_fn). */
  if (r->state) rb_jump_tag(r->state);
  VALUE got = r->collected;
  if (st) { /* with the messages that came before the bad frame */
    VALUE exc = rf_error_new(err.code, err.message, err.path, err.offset);
    rb_ivar_set(exc, rb_intern("@received"), NIL_P(got) ? rb_ary_new() : got);
    rb_exc_raise(exc);
  }
  return NIL_P(got) ? Qnil : got;
}

static VALUE feed_done(VALUE arg) {
  feed_op *o = (feed_op *)arg;
  o->r->busy = 0;
  o->r->collected = Qnil;
  core_arg(o->r->core)->busy--;
  return Qnil;
}

/* feed(data) -> Array of messages (no handler) or nil */
static VALUE receiver_feed(VALUE self, VALUE data) {
  rf_receiver *r = receiver_of(self);
  if (r->busy) rb_raise(rb_eRuntimeError, "Receiver#feed called again while feeding (not re-entrant)");
  if (!RB_TYPE_P(data, T_STRING)) {
    char msg[160];
    snprintf(msg, sizeof msg, "expected a String (bytes), got %s", rb_obj_classname(data));
    rf_raise(FBE_ERR_TYPE, msg, "", FBE_NO_OFFSET);
  }
  rf_core *c = core_arg(r->core);
  check_open(c);
  feed_op o = {r, rb_str_new_frozen(data)}; /* the handler cannot change these bytes */
  r->collected = NIL_P(r->handler) ? rb_ary_new() : Qnil;
  r->busy = 1;
  c->busy++;
  VALUE out = rb_ensure(feed_body, (VALUE)&o, feed_done, (VALUE)&o);
  RB_GC_GUARD(o.data);
  return out;
}

static VALUE receiver_reset(VALUE self) {
  rf_receiver *r = receiver_of(self);
  if (r->busy) rb_raise(rb_eRuntimeError, "Receiver#reset called while feeding");
  fbe_receiver_reset(r->rcv);
  return Qnil;
}

static VALUE receiver_pending(VALUE self) { return SIZET2NUM(fbe_receiver_pending(receiver_of(self)->rcv)); }
static VALUE receiver_received(VALUE self) { return ULL2NUM(fbe_receiver_received(receiver_of(self)->rcv)); }
static VALUE receiver_skipped(VALUE self) { return ULL2NUM(fbe_receiver_skipped(receiver_of(self)->rcv)); }

static VALUE receiver_close(VALUE self) {
  rf_receiver *r = rb_check_typeddata(self, &receiver_type);
  if (r->busy) rb_raise(rb_eRuntimeError, "Receiver#close called while feeding");
  fbe_receiver_free(r->rcv);
  r->rcv = NULL;
  return Qnil;
}

void rf_init_protocol(VALUE native) {
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

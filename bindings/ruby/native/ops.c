/* FBE::Native's per-message entry points: encode, decode, verify, JSON, equality,
 * construction. Each is one C call with positional arguments (lib/fbe/message.rb adds
 * the keyword-argument methods); the walk runs under rb_ensure, so the scratch is
 * reset and the core released even when an error is raised mid-way. */
#include <string.h>
#include <ruby/thread.h>
#include "rbfbe.h"

/* Above this many bytes of work, encode/decode/verify release the GVL around the pure-C
 * part (other threads run meanwhile); below it the release costs more than it gives.
 * The C part then touches only the scratch arena and a frozen copy of the input. */
#define RF_NOGIL_BYTES (64 * 1024)

typedef struct core_call {
  int op; /* 0 encode, 1 decode, 2 verify */
  int trusted; /* decode: fbe_decode_trusted instead of the verifying fbe_decode */
  const fbe_limits *limits; /* the user's (decode, verify) */
  const fbe_msg *msg;
  const fbe_struct *st;
  fbe_model model;
  const uint8_t *data;
  size_t size, model_size;
  fbe_arena *arena;
  fbe_buffer *out;
  fbe_msg *decoded;
  fbe_error err;
  fbe_status status;
} core_call;

static void *core_call_run(void *arg) {
  core_call *c = arg;
  if (c->op == 0) c->status = fbe_encode(c->msg, c->model, c->out, &c->err);
  else if (c->op == 1)
    c->status = (c->trusted ? fbe_decode_trusted : fbe_decode)(c->st, c->model, c->data, c->size, c->arena,
                                                               c->limits, &c->decoded, NULL, &c->err);
  else c->status = fbe_verify(c->st, c->model, c->data, c->size, c->limits, &c->model_size, &c->err);
  return NULL;
}

static void core_call_do(core_call *c, size_t work) {
  if (work >= RF_NOGIL_BYTES) rb_thread_call_without_gvl(core_call_run, c, NULL, NULL);
  else core_call_run(c);
}

/* The input as the C part may read it with the GVL released: a frozen (shared) copy,
 * which nothing can change or free while it is referenced. */
static VALUE stable_input(VALUE data) {
  return RSTRING_LEN(data) >= RF_NOGIL_BYTES ? rb_str_new_frozen(data) : data;
}

typedef struct op {
  rf_struct *si;
  VALUE a, b;
  int final, pretty, trusted;
  fbe_limits limits;
  rf_scratch *s;
  rf_walk w;
} op;

static VALUE op_done(VALUE arg) {
  op *o = (op *)arg;
  rf_scratch_put(o->s);
  o->si->core->busy--;
  return Qnil;
}

static VALUE run(op *o, VALUE (*body)(VALUE)) {
  o->s = rf_scratch_get();
  o->w.arena = o->s->arena;
  o->w.depth = 0;
  o->w.npath = 0;
  o->si->core->busy++;
  return rb_ensure(body, (VALUE)o, op_done, (VALUE)o);
}

static fbe_model model_of(int final) { return final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD; }

static void check_data(VALUE data, const char *what) {
  if (!RB_TYPE_P(data, T_STRING)) {
    char msg[160];
    snprintf(msg, sizeof msg, "expected a String (%s), got %s", what, rb_obj_classname(data));
    rf_raise(FBE_ERR_TYPE, msg, "", FBE_NO_OFFSET);
  }
}

/* ---- encode */

static VALUE encode_body(VALUE arg) {
  op *o = (op *)arg;
  core_call c = {.op = 0, .msg = rf_build_msg(&o->w, o->si, o->a), .model = model_of(o->final), .out = &o->s->buf};
  core_call_do(&c, fbe_arena_reserved(o->s->arena));
  if (c.status) rf_raise_fbe(&c.err);
  return rb_str_new((const char *)o->s->buf.data, (long)o->s->buf.size);
}

/* Native.encode(klass, value, final) -> String (ASCII-8BIT) */
static VALUE native_encode(VALUE self, VALUE klass, VALUE value, VALUE final) {
  (void)self;
  op o;
  o.si = rf_info_of(klass);
  o.a = value;
  o.final = RTEST(final);
  return run(&o, encode_body);
}

/* Native.encode_self(obj, final): obj's own class */
static VALUE native_encode_self(VALUE self, VALUE obj, VALUE final) {
  return native_encode(self, rb_obj_class(obj), obj, final);
}

/* ---- decode */

static VALUE decode_body(VALUE arg) {
  op *o = (op *)arg;
  core_call c = {.op = 1, .trusted = o->trusted, .limits = &o->limits, .st = o->si->st, .model = model_of(o->final),
                 .data = (const uint8_t *)RSTRING_PTR(o->a), .size = (size_t)RSTRING_LEN(o->a), .arena = o->s->arena};
  core_call_do(&c, c.size);
  if (c.status) rf_raise_fbe(&c.err);
  return rf_get_struct(&o->w, o->si, fbe_msg_data(c.decoded));
}

/* Native.decode(klass, data, final, ordered, trusted, limits) -> instance of klass; verified
 * by the core first unless trusted; limits: FBE::Limits, a Hash or nil (rf_limits_get) */
static VALUE native_decode(VALUE self, VALUE klass, VALUE data, VALUE final, VALUE ordered, VALUE trusted,
                           VALUE limits) {
  (void)self;
  op o;
  o.si = rf_info_of(klass);
  check_data(data, "bytes");
  rf_limits_get(limits, &o.limits);
  o.a = stable_input(data);
  o.final = RTEST(final);
  o.trusted = RTEST(trusted);
  o.w.ordered = RTEST(ordered);
  VALUE out = run(&o, decode_body);
  RB_GC_GUARD(o.a);
  return out;
}

/* ---- verify: pure C, nothing to clean up */

static size_t verify_size(VALUE klass, VALUE data, VALUE final, VALUE limits, fbe_error *err) {
  rf_struct *si = rf_info_of(klass);
  check_data(data, "bytes");
  fbe_limits lim;
  rf_limits_get(limits, &lim);
  VALUE input = stable_input(data);
  core_call c = {.op = 2, .limits = &lim, .st = si->st, .model = model_of(RTEST(final)), .data = (const uint8_t *)RSTRING_PTR(input),
                 .size = (size_t)RSTRING_LEN(input)};
  si->core->busy++; /* a call in flight (without the GVL above RF_NOGIL_BYTES): close is refused */
  core_call_do(&c, c.size);
  si->core->busy--;
  RB_GC_GUARD(input);
  if (c.status) {
    *err = c.err;
    return 0;
  }
  return c.model_size;
}

/* Native.verify(klass, data, final, limits) -> true/false */
static VALUE native_verify(VALUE self, VALUE klass, VALUE data, VALUE final, VALUE limits) {
  (void)self;
  fbe_error err;
  return verify_size(klass, data, final, limits, &err) ? Qtrue : Qfalse;
}

/* Native.model_size(klass, data, final, limits) -> Integer; raises the reason when invalid */
static VALUE native_model_size(VALUE self, VALUE klass, VALUE data, VALUE final, VALUE limits) {
  (void)self;
  fbe_error err;
  size_t n = verify_size(klass, data, final, limits, &err);
  if (!n) rf_raise_fbe(&err);
  return SIZET2NUM(n);
}

/* ---- JSON */

static VALUE to_json_body(VALUE arg) {
  op *o = (op *)arg;
  fbe_msg *m = rf_build_msg(&o->w, o->si, o->a);
  fbe_error err;
  if (fbe_msg_to_json(m, o->pretty, &o->s->buf, &err)) rf_raise_fbe(&err);
  return rb_utf8_str_new((const char *)o->s->buf.data, (long)o->s->buf.size);
}

/* Native.to_json(klass, value, pretty) -> String (UTF-8) */
static VALUE native_to_json(VALUE self, VALUE klass, VALUE value, VALUE pretty) {
  (void)self;
  op o;
  o.si = rf_info_of(klass);
  o.a = value;
  o.pretty = RTEST(pretty);
  return run(&o, to_json_body);
}

static VALUE from_json_body(VALUE arg) {
  op *o = (op *)arg;
  fbe_msg *m = NULL;
  fbe_error err;
  if (fbe_msg_from_json_limited(o->si->st, RSTRING_PTR(o->a), (size_t)RSTRING_LEN(o->a), o->s->arena, &o->limits,
                                &m, &err))
    rf_raise_fbe(&err);
  return rf_get_struct(&o->w, o->si, fbe_msg_data(m));
}

/* Native.from_json(klass, text, ordered, limits) -> instance of klass */
static VALUE native_from_json(VALUE self, VALUE klass, VALUE text, VALUE ordered, VALUE limits) {
  (void)self;
  op o;
  o.si = rf_info_of(klass);
  check_data(text, "JSON text");
  rf_limits_get(limits, &o.limits);
  o.a = rb_str_new_frozen(text); /* stable bytes while Ruby objects are made */
  o.w.ordered = RTEST(ordered);
  VALUE out = run(&o, from_json_body);
  RB_GC_GUARD(o.a);
  return out;
}

/* ---- equality */

static VALUE equal_body(VALUE arg) {
  op *o = (op *)arg;
  fbe_msg *a = rf_build_msg(&o->w, o->si, o->a);
  fbe_msg *b = rf_build_msg(&o->w, o->si, o->b);
  return fbe_msg_equal(a, b) ? Qtrue : Qfalse;
}

/* Native.equal(klass, a, b) -> the core's deep equality (floats by bit pattern,
 * decimals by value, collections in order) */
static VALUE native_equal(VALUE self, VALUE klass, VALUE a, VALUE b) {
  (void)self;
  op o;
  o.si = rf_info_of(klass);
  o.a = a;
  o.b = b;
  return run(&o, equal_body);
}

/* ---- construction */

/* Native.init_struct(obj, args, kwargs): fields from positional args (schema order)
 * and keywords; the schema default for the rest. */
static VALUE native_init_struct(VALUE self, VALUE obj, VALUE args, VALUE kw) {
  (void)self;
  rf_struct *si = rf_info_of(rb_obj_class(obj));
  Check_Type(args, T_ARRAY);
  long nargs = RARRAY_LEN(args), used = 0;
  if (!NIL_P(kw)) Check_Type(kw, T_HASH);
  if (nargs > (long)si->nfields)
    rb_raise(rb_eArgError, "%s.new takes at most %u positional arguments (%ld given)", si->st->name,
             si->nfields, nargs);
  for (uint32_t i = 0; i < si->nfields; i++) {
    const rf_field *f = &si->fields[i];
    VALUE v = NIL_P(kw) ? Qundef : rb_hash_lookup2(kw, f->sym, Qundef);
    if (v != Qundef) used++;
    if ((long)i < nargs) {
      if (v != Qundef) rb_raise(rb_eArgError, "%s.new got two values for %s", si->st->name, f->f->name);
      v = RARRAY_AREF(args, i);
    }
    if (v == Qundef) v = rf_field_default(f);
    RSTRUCT_SET(obj, (long)i, v);
  }
  VALUE key;
  if (!NIL_P(kw) && used != (long)RHASH_SIZE(kw) && (key = rf_unknown_key(si, kw, 0)) != Qundef) {
    char msg[200];
    VALUE s = rb_inspect(key);
    snprintf(msg, sizeof msg, "%s has no field %.80s", si->st->full_name, RSTRING_PTR(s));
    rf_raise(RF_ERR_UNKNOWN_FIELD, msg, "", FBE_NO_OFFSET);
  }
  return obj;
}

void rf_init_ops(VALUE native) {
  rb_define_module_function(native, "encode", native_encode, 3);
  rb_define_module_function(native, "encode_self", native_encode_self, 2);
  rb_define_module_function(native, "decode", native_decode, 6);
  rb_define_module_function(native, "verify", native_verify, 4);
  rb_define_module_function(native, "model_size", native_model_size, 4);
  rb_define_module_function(native, "to_json", native_to_json, 3);
  rb_define_module_function(native, "from_json", native_from_json, 4);
  rb_define_module_function(native, "equal", native_equal, 3);
  rb_define_module_function(native, "init_struct", native_init_struct, 3);
}

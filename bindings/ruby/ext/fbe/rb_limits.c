/* FBE::Limits: the limits against hostile input (codec.h, fbe_limits) as one frozen
 * value. Every keyword goes to the core's fbe_limits_set, which alone decides the
 * names, the ranges and the error texts; decode, verify, from_json and the receiver
 * take one (or a Hash of the same keywords) as limits: (rf_limits_get). */
#include "rbfbe.h"

static size_t limits_memsize(const void *p) {
  (void)p;
  return sizeof(fbe_limits);
}

static const rb_data_type_t limits_type = {
    .wrap_struct_name = "FBE::Limits",
    .function = {.dfree = RUBY_TYPED_DEFAULT_FREE, .dsize = limits_memsize},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

static VALUE limits_alloc(VALUE klass) {
  fbe_limits *l;
  VALUE obj = TypedData_Make_Struct(klass, fbe_limits, &limits_type, l);
  *l = (fbe_limits){0, 0, 0}; /* every member 0: its default */
  return obj;
}

/* A value as the int64 the core takes: Integers beyond it clamped (so the core refuses
 * them or takes them as "very large"), anything but an Integer a TypeError. */
static int64_t limit_value(VALUE name, VALUE v) {
  if (!RB_INTEGER_TYPE_P(v))
    rb_raise(rb_eTypeError, "FBE::Limits: %" PRIsVALUE " must be an Integer, not %s", name, rb_obj_classname(v));
  if (FIXNUM_P(v)) return (int64_t)FIX2LONG(v);
  if (RTEST(rb_funcall(v, rb_intern(">"), 1, LL2NUM(INT64_MAX)))) return INT64_MAX;
  if (RTEST(rb_funcall(v, rb_intern("<"), 1, LL2NUM(INT64_MIN)))) return INT64_MIN;
  return (int64_t)NUM2LL(v);
}

typedef struct apply_state {
  fbe_limits limits;
} apply_state;

static int apply_one(VALUE key, VALUE value, VALUE arg) {
  apply_state *st = (apply_state *)arg;
  VALUE name = SYMBOL_P(key) ? rb_sym2str(key) : key;
  if (!RB_TYPE_P(name, T_STRING))
    rb_raise(rb_eTypeError, "FBE::Limits: a limit's name is a Symbol or String, not %s", rb_obj_classname(key));
  int64_t v = limit_value(name, value);
  fbe_error err;
  if (fbe_limits_set(&st->limits, StringValueCStr(name), v, &err)) rf_raise_fbe(&err);
  return ST_CONTINUE;
}

/* The limits a Hash of keywords makes: each pair given to the core, in order. */
static fbe_limits limits_from_hash(VALUE hash) {
  apply_state st = {{0, 0, 0}};
  rb_hash_foreach(hash, apply_one, (VALUE)&st);
  return st.limits;
}

/* FBE::Limits.new(max_depth: 0, max_model_size: 0, max_memory: 0) -> frozen */
static VALUE limits_init(int argc, VALUE *argv, VALUE self) {
  VALUE opts = Qnil;
  rb_scan_args(argc, argv, "0:", &opts);
  rb_check_frozen(self);
  fbe_limits *l = rb_check_typeddata(self, &limits_type);
  if (!NIL_P(opts)) *l = limits_from_hash(opts);
  rb_obj_freeze(self);
  return self;
}

static VALUE limits_init_copy(VALUE self, VALUE other) {
  rb_check_frozen(self);
  *(fbe_limits *)rb_check_typeddata(self, &limits_type) = *(fbe_limits *)rb_check_typeddata(other, &limits_type);
  rb_obj_freeze(self);
  return self;
}

static const fbe_limits *limits_of(VALUE self) { return rb_check_typeddata(self, &limits_type); }

static VALUE limits_max_depth(VALUE self) { return UINT2NUM(limits_of(self)->max_depth); }
static VALUE limits_max_model_size(VALUE self) { return ULL2NUM(limits_of(self)->max_model_size); }
static VALUE limits_max_memory(VALUE self) { return ULL2NUM(limits_of(self)->max_memory); }

static VALUE limits_to_h(VALUE self) {
  VALUE h = rb_hash_new();
  rb_hash_aset(h, ID2SYM(rb_intern("max_depth")), limits_max_depth(self));
  rb_hash_aset(h, ID2SYM(rb_intern("max_model_size")), limits_max_model_size(self));
  rb_hash_aset(h, ID2SYM(rb_intern("max_memory")), limits_max_memory(self));
  return h;
}

static VALUE limits_inspect(VALUE self) {
  const fbe_limits *l = limits_of(self);
  return rb_sprintf("#<FBE::Limits max_depth=%u, max_model_size=%llu, max_memory=%llu>", l->max_depth,
                    (unsigned long long)l->max_model_size, (unsigned long long)l->max_memory);
}

static VALUE limits_eq(VALUE self, VALUE other) {
  if (!rb_typeddata_is_kind_of(other, &limits_type)) return Qfalse;
  const fbe_limits *a = limits_of(self), *b = limits_of(other);
  return a->max_depth == b->max_depth && a->max_model_size == b->max_model_size && a->max_memory == b->max_memory
             ? Qtrue
             : Qfalse;
}

static VALUE limits_hash(VALUE self) { return rb_hash(rb_ary_new_from_args(2, rb_obj_class(self), limits_to_h(self))); }

void rf_limits_get(VALUE v, fbe_limits *out) {
  if (NIL_P(v)) *out = (fbe_limits){0, 0, 0};
  else if (rb_typeddata_is_kind_of(v, &limits_type)) *out = *limits_of(v);
  else if (RB_TYPE_P(v, T_HASH)) *out = limits_from_hash(v);
  else rb_raise(rb_eTypeError, "limits: must be an FBE::Limits, a Hash or nil, not %s", rb_obj_classname(v));
}

void rf_init_limits(VALUE fbe) {
  VALUE cLimits = rb_define_class_under(fbe, "Limits", rb_cObject);
  rb_define_alloc_func(cLimits, limits_alloc);
  rb_define_method(cLimits, "initialize", limits_init, -1);
  rb_define_method(cLimits, "initialize_copy", limits_init_copy, 1);
  rb_define_method(cLimits, "max_depth", limits_max_depth, 0);
  rb_define_method(cLimits, "max_model_size", limits_max_model_size, 0);
  rb_define_method(cLimits, "max_memory", limits_max_memory, 0);
  rb_define_method(cLimits, "to_h", limits_to_h, 0);
  rb_define_method(cLimits, "inspect", limits_inspect, 0);
  rb_define_alias(cLimits, "to_s", "inspect");
  rb_define_method(cLimits, "==", limits_eq, 1);
  rb_define_alias(cLimits, "eql?", "==");
  rb_define_method(cLimits, "hash", limits_hash, 0);
}

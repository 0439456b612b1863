/* FBE::Native's per-message entry points (encode, decode, verify, JSON, the text form,
 * equality, key hash and order, construction) and FBE::Limits. Each entry point is one C call with positional
 * arguments (lib/fbe/message.rb adds the keyword methods); its walk runs under
 * rb_ensure, so the scratch goes back and the schema's busy count down even when an
 * error is raised mid-way. */
#include <string.h>
#include <ruby/thread.h>
#include "binding.h"

/* ------------------------------------------------------------------ FBE::Limits */

/* A frozen fbe_limits; every keyword goes to the core's fbe_limits_set, which alone
 * decides the names, the ranges and the error texts. (lib/fbe/limits.rb: to_h, ==,
 * hash, inspect.) */
static const rb_data_type_t limits_type = {
    .wrap_struct_name = "FBE::Limits",
    .function = {.dfree = RUBY_TYPED_DEFAULT_FREE},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

static fbe_limits *limits_of(VALUE self) { return rb_check_typeddata(self, &limits_type); }

static VALUE limits_alloc(VALUE klass) {
  fbe_limits *l;
  return TypedData_Make_Struct(klass, fbe_limits, &limits_type, l); /* zeroed: every limit its default */
}

static int apply_limit(VALUE key, VALUE value, VALUE arg) {
  VALUE name = SYMBOL_P(key) ? rb_sym2str(key) : key;
  if (!RB_TYPE_P(name, T_STRING))
    rb_raise(rb_eTypeError, "FBE::Limits: a limit's name is a Symbol or String, not %s", rb_obj_classname(key));
  if (!RB_INTEGER_TYPE_P(value))
    rb_raise(rb_eTypeError, "FBE::Limits: %" PRIsVALUE " must be an Integer, not %s", name, rb_obj_classname(value));
  int64_t v = FIXNUM_P(value) ? (int64_t)FIX2LONG(value) /* beyond int64: clamped, for the core to judge */
              : RTEST(rb_funcall(value, '>', 1, LL2NUM(INT64_MAX))) ? INT64_MAX
              : RTEST(rb_funcall(value, '<', 1, LL2NUM(INT64_MIN))) ? INT64_MIN : (int64_t)NUM2LL(value);
  fbe_error err;
  if (fbe_limits_set((fbe_limits *)arg, StringValueCStr(name), v, &err)) rf_raise(&err);
  return ST_CONTINUE;
}

void rf_limits_get(VALUE v, fbe_limits *out) {
  memset(out, 0, sizeof *out);
  if (RB_TYPE_P(v, T_HASH)) rb_hash_foreach(v, apply_limit, (VALUE)out); /* each pair to the core, in order */
  else if (rb_typeddata_is_kind_of(v, &limits_type)) *out = *limits_of(v);
  else if (!NIL_P(v))
    rb_raise(rb_eTypeError, "limits: must be an FBE::Limits, a Hash or nil, not %s", rb_obj_classname(v));
}

/* FBE::Limits.new(max_depth: 0, max_model_size: 0, max_memory: 0) -> frozen */
static VALUE limits_init(int argc, VALUE *argv, VALUE self) {
  VALUE opts = Qnil;
  rb_scan_args(argc, argv, "0:", &opts);
  rb_check_frozen(self);
  rf_limits_get(opts, limits_of(self));
  return rb_obj_freeze(self);
}

static VALUE limits_init_copy(VALUE self, VALUE other) {
  rb_check_frozen(self);
  *limits_of(self) = *limits_of(other);
  return rb_obj_freeze(self);
}

static VALUE limits_max_depth(VALUE self) { return UINT2NUM(limits_of(self)->max_depth); }
static VALUE limits_max_model_size(VALUE self) { return ULL2NUM(limits_of(self)->max_model_size); }
static VALUE limits_max_memory(VALUE self) { return ULL2NUM(limits_of(self)->max_memory); }

/* ------------------------------------------------------------------ the calls */

typedef enum op_kind {
  OP_ENCODE, OP_DECODE, OP_VERIFY, OP_TO_JSON, OP_FROM_JSON, OP_EQUAL, OP_KEY_HASH, OP_KEY_COMPARE, OP_TEXT, OP_FROM_H
} op_kind;

typedef struct op {
  op_kind kind;
  rf_struct *si;
  VALUE a, b;          /* the value(s), or the input (input_of) */
  int final, flag;     /* flag: decode's trusted, to_json's pretty, from_json's ignore_unknown */
  int ordered;
  fbe_limits limits;
  fbei_scratch *s;
  rf_walk w;           /* w.err: the core's error too */
  const uint8_t *data; /* decode, verify: the input's bytes */
  size_t size;
  fbe_msg *msg;        /* what encode writes, what decode and from_json read */
  size_t model_size;   /* verify */
  fbe_status status;
} op;

/* The core's part of encode, decode and verify. With FBE_RELEASE_LOCK_BYTES of work or
 * more it runs without the GVL (other threads run meanwhile), touching only the
 * scratch and a frozen input. */
static void *core_part(void *arg) {
  op *o = arg;
  fbe_model model = o->final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  if (o->kind == OP_ENCODE) o->status = fbe_encode(o->msg, model, &o->s->buf, &o->w.err);
  else if (o->kind == OP_VERIFY)
    o->status = fbe_verify(o->si->st, model, o->data, o->size, &o->limits, &o->model_size, &o->w.err);
  else o->status = (o->flag ? fbe_decode_trusted : fbe_decode)(o->si->st, model, o->data, o->size, o->s->arena,
                                                               &o->limits, &o->msg, NULL, &o->w.err);
  return NULL;
}

static void core_call(op *o) {
  if (o->kind != OP_ENCODE) {
    o->data = (const uint8_t *)RSTRING_PTR(o->a);
    o->size = (size_t)RSTRING_LEN(o->a);
  }
  if ((o->kind == OP_ENCODE ? fbe_arena_reserved(o->s->arena) : o->size) >= FBE_RELEASE_LOCK_BYTES)
    rb_thread_call_without_gvl(core_part, o, NULL, NULL);
  else core_part(o);
}

/* The bytes an op reads: a String, frozen (shared) when the GVL may be released or Ruby
 * objects are made meanwhile (or a view keeps them), so nothing can change or free them. */
VALUE rf_input_of(VALUE data, const char *what, int always) {
  if (!RB_TYPE_P(data, T_STRING))
    rf_raisef(FBE_ERR_TYPE, "expected a String (%s), got %s", what, rb_obj_classname(data));
  return always || RSTRING_LEN(data) >= (long)FBE_RELEASE_LOCK_BYTES ? rb_str_new_frozen(data) : data;
}

static VALUE op_body(VALUE arg) {
  op *o = (op *)arg;
  switch (o->kind) {
    case OP_ENCODE:
      o->msg = rf_build_msg(&o->w, o->si, o->a);
      core_call(o);
      break;
    case OP_TO_JSON:
      o->status = fbe_msg_to_json(rf_build_msg(&o->w, o->si, o->a), o->flag, &o->s->buf, &o->w.err);
      break;
    case OP_EQUAL: {
      fbe_msg *a = rf_build_msg(&o->w, o->si, o->a);
      return fbe_msg_equal(a, rf_build_msg(&o->w, o->si, o->b)) ? Qtrue : Qfalse;
    }
    case OP_KEY_HASH: /* a Fixnum: the 64-bit hash's top 62 bits */
      return LONG2FIX((long)(fbe_msg_key_hash(rf_build_msg(&o->w, o->si, o->a)) >> 2));
    case OP_KEY_COMPARE: {
      fbe_msg *a = rf_build_msg(&o->w, o->si, o->a);
      return INT2FIX(fbe_msg_key_compare(a, rf_build_msg(&o->w, o->si, o->b)));
    }
    case OP_TEXT: { /* never raises for a bad value: it prints as Name(<invalid: MESSAGE>) */
      fbe_msg *m;
      if (!rf_fill_msg(&o->w, o->si, o->a, &m) && !fbe_msg_to_text(m, &o->s->buf, &o->w.err))
        return rb_utf8_str_new((const char *)o->s->buf.data, (long)o->s->buf.size);
      char text[sizeof o->w.err.message + sizeof o->w.err.path + 64];
      fbe_error_format(&o->w.err, text, sizeof text);
      VALUE out = rb_utf8_str_new_cstr(o->si->st->name);
      rb_str_cat_cstr(out, "(<invalid: ");
      rb_str_cat_cstr(out, text);
      return rb_str_cat_cstr(out, ">)");
    }
    case OP_FROM_H:
      o->msg = rf_build_msg(&o->w, o->si, o->a);
      break;
    case OP_FROM_JSON: {
      fbe_json_options opts = {.ignore_unknown = o->flag, .limits = &o->limits};
      o->status = fbe_msg_from_json_opts(o->si->st, RSTRING_PTR(o->a), (size_t)RSTRING_LEN(o->a), o->s->arena, &opts,
                                         &o->msg, &o->w.err);
      break;
    }
    default: core_call(o); /* decode */
  }
  if (o->status) rf_raise(&o->w.err);
  if (o->kind == OP_ENCODE) return rb_str_new((const char *)o->s->buf.data, (long)o->s->buf.size);
  if (o->kind == OP_TO_JSON) return rb_utf8_str_new((const char *)o->s->buf.data, (long)o->s->buf.size);
  return rf_get_struct(o->si, fbei_msg_data(o->msg), o->ordered);
}

static VALUE op_done(VALUE arg) {
  op *o = (op *)arg;
  rf_scratch_put(o->s);
  o->si->core->busy--;
  return Qnil;
}

static VALUE run(op *o) {
  o->s = rf_scratch_get();
  o->w.arena = o->s->arena;
  o->si->core->busy++;
  return rb_ensure(op_body, (VALUE)o, op_done, (VALUE)o);
}

/* Native.encode(klass, value, final) -> String (ASCII-8BIT) */
static VALUE native_encode(VALUE self, VALUE klass, VALUE value, VALUE final) {
  op o = {.kind = OP_ENCODE, .si = rf_info_of(klass), .a = value, .final = RTEST(final)};
  return run(&o);
}

/* Native.encode_self(obj, final): obj's own class */
static VALUE native_encode_self(VALUE self, VALUE obj, VALUE final) {
  return native_encode(self, rb_obj_class(obj), obj, final);
}

/* Native.decode(klass, data, final, ordered, trusted, limits) -> instance of klass,
 * verified by the core first unless trusted */
static VALUE native_decode(VALUE self, VALUE klass, VALUE data, VALUE final, VALUE ordered, VALUE trusted,
                           VALUE limits) {
  op o = {.kind = OP_DECODE, .si = rf_info_of(klass), .final = RTEST(final), .flag = RTEST(trusted),
          .ordered = RTEST(ordered)};
  o.a = rf_input_of(data, "bytes", 0);
  rf_limits_get(limits, &o.limits);
  return run(&o);
}

/* verify: pure C, nothing to clean up; the model's size, or 0 with o->w.err set */
static size_t verify_size(VALUE klass, VALUE data, VALUE final, VALUE limits, op *o) {
  *o = (op){.kind = OP_VERIFY, .si = rf_info_of(klass), .final = RTEST(final)};
  o->a = rf_input_of(data, "bytes", 0);
  rf_limits_get(limits, &o->limits);
  o->si->core->busy++; /* in flight (maybe without the GVL): close is refused */
  core_call(o);
  o->si->core->busy--;
  return o->status ? 0 : o->model_size;
}

/* Native.verify(klass, data, final, limits) -> true/false */
static VALUE native_verify(VALUE self, VALUE klass, VALUE data, VALUE final, VALUE limits) {
  op o;
  return verify_size(klass, data, final, limits, &o) ? Qtrue : Qfalse;
}

/* Native.model_size(klass, data, final, limits) -> Integer; raises the reason when invalid */
static VALUE native_model_size(VALUE self, VALUE klass, VALUE data, VALUE final, VALUE limits) {
  op o;
  size_t n = verify_size(klass, data, final, limits, &o);
  if (!n) rf_raise(&o.w.err);
  return SIZET2NUM(n);
}

/* Native.to_json(klass, value, pretty) -> String (UTF-8) */
static VALUE native_to_json(VALUE self, VALUE klass, VALUE value, VALUE pretty) {
  op o = {.kind = OP_TO_JSON, .si = rf_info_of(klass), .a = value, .flag = RTEST(pretty)};
  return run(&o);
}

/* Native.from_json(klass, text, ordered, limits, ignore_unknown) -> instance of klass;
 * members the struct does not have are an error (FBE::UnknownFieldError) unless
 * ignore_unknown */
static VALUE native_from_json(VALUE self, VALUE klass, VALUE text, VALUE ordered, VALUE limits, VALUE ignore_unknown) {
  op o = {.kind = OP_FROM_JSON, .si = rf_info_of(klass), .ordered = RTEST(ordered), .flag = RTEST(ignore_unknown)};
  o.a = rf_input_of(text, "JSON text", 1);
  rf_limits_get(limits, &o.limits);
  return run(&o);
}

/* Native.equal(klass, a, b) -> the core's deep equality (floats by bit pattern, decimals
 * by value, collections in order) */
static VALUE native_equal(VALUE self, VALUE klass, VALUE a, VALUE b) {
  op o = {.kind = OP_EQUAL, .si = rf_info_of(klass), .a = a, .b = b};
  return run(&o);
}

/* Native.key_hash(klass, value) -> Integer: the hash of the [key] fields (0 for a struct
 * without any), consistent with equal */
static VALUE native_key_hash(VALUE self, VALUE klass, VALUE value) {
  op o = {.kind = OP_KEY_HASH, .si = rf_info_of(klass), .a = value};
  return run(&o);
}

/* Native.key_compare(klass, a, b) -> -1, 0 or 1: the order of the [key] fields */
static VALUE native_key_compare(VALUE self, VALUE klass, VALUE a, VALUE b) {
  op o = {.kind = OP_KEY_COMPARE, .si = rf_info_of(klass), .a = a, .b = b};
  return run(&o);
}

/* Native.text(value) -> the core's text form of a struct value (docs/TEXT.md), or
 * "Name(<invalid: MESSAGE>)" when the value does not convert */
static VALUE native_text(VALUE self, VALUE value) {
  op o = {.kind = OP_TEXT, .si = rf_info_of(rb_obj_class(value)), .a = value};
  return run(&o);
}

/* Native.from_h(klass, value) -> a new instance of klass from a Hash of fields (or
 * anything encode takes), checked and converted by the walk: nested Hashes become
 * instances, enum names Integers, Times nanoseconds */
static VALUE native_from_h(VALUE self, VALUE klass, VALUE value) {
  op o = {.kind = OP_FROM_H, .si = rf_info_of(klass), .a = value};
  return run(&o);
}

/* Native.enum_text(module, value) -> the text form of one enum or flags value
 * (fbe_text_write_enum: "sell", "initialized|calculated|good", "64") */
static VALUE native_enum_text(VALUE self, VALUE module, VALUE value) {
  rf_enum *en = rf_enum_of(module);
  rf_walk w = {0};
  uint64_t v = 0;
  const fbe_type t = {.kind = en->e->is_flags ? FBE_KIND_FLAGS : FBE_KIND_ENUM, .wire = en->e->base, .enm = en->e};
  if (rf_put_int(&w, value, &t, (uint8_t *)&v)) rf_raise(&w.err);
  v = fbei_scalar_load(en->e->base, &v); /* the pattern at the base's width, sign-extended */
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_status st = fbe_text_write_enum(en->e, v, &out, &w.err);
  VALUE text = st ? Qnil : rb_utf8_str_new((const char *)out.data, (long)out.size);
  fbe_buffer_free(&out);
  if (st) rf_raise(&w.err);
  return text;
}

/* Native.enum_parse(module, text) -> Integer: a member's name, for flags names and
 * numbers joined by '|' (fbe_enum_parse); FBE::ArgumentError otherwise */
static VALUE native_enum_parse(VALUE self, VALUE module, VALUE text) {
  rf_enum *en = rf_enum_of(module);
  VALUE s = SYMBOL_P(text) ? rb_sym2str(text) : StringValue(text);
  uint64_t v;
  fbe_error err;
  if (fbe_enum_parse(en->e, RSTRING_PTR(s), (size_t)RSTRING_LEN(s), &v, &err)) rf_raise(&err);
  RB_GC_GUARD(s);
  return en->is_signed ? LL2NUM((int64_t)v) : ULL2NUM(v);
}

/* Native.unknown_field(klass, name) -> the FBE::UnknownFieldError for a name klass's
 * struct does not have (the nearest field name suggested) */
static VALUE native_unknown_field(VALUE self, VALUE klass, VALUE name) {
  fbe_error err;
  rf_unknown_field(&err, rf_info_of(klass), name);
  return rf_error_new(&err);
}

/* Native.init_struct(obj, args, kwargs): fields from positional args (schema order) and
 * keywords; the schema default for the rest. */
static VALUE native_init_struct(VALUE self, VALUE obj, VALUE args, VALUE kw) {
  rf_struct *si = rf_info_of(rb_obj_class(obj));
  Check_Type(args, T_ARRAY);
  if (!NIL_P(kw)) Check_Type(kw, T_HASH);
  long nargs = RARRAY_LEN(args), used = 0;
  if (nargs > (long)si->st->nfields)
    rb_raise(rb_eArgError, "%s.new takes at most %u positional arguments (%ld given)", si->st->name, si->st->nfields,
             nargs);
  for (uint32_t i = 0; i < si->st->nfields; i++) {
    const rf_field *f = &si->fields[i];
    VALUE v = NIL_P(kw) ? Qundef : rb_hash_lookup2(kw, f->sym, Qundef);
    if (v != Qundef) used++;
    if ((long)i < nargs) {
      if (v != Qundef) rb_raise(rb_eArgError, "%s.new got two values for %s", si->st->name, f->f->name);
      v = RARRAY_AREF(args, i);
    }
    RSTRUCT_SET(obj, (long)i, v == Qundef ? rf_field_default(f) : v);
  }
  VALUE key;
  if (!NIL_P(kw) && used != (long)RHASH_SIZE(kw) && (key = rf_unknown_key(si, kw, 0)) != Qundef) {
    fbe_error err;
    rf_unknown_field(&err, si, key);
    rf_raise(&err);
  }
  return obj;
}

void rf_init_ops(VALUE native, VALUE fbe) {
  rb_define_module_function(native, "encode", native_encode, 3);
  rb_define_module_function(native, "encode_self", native_encode_self, 2);
  rb_define_module_function(native, "decode", native_decode, 6);
  rb_define_module_function(native, "verify", native_verify, 4);
  rb_define_module_function(native, "model_size", native_model_size, 4);
  rb_define_module_function(native, "to_json", native_to_json, 3);
  rb_define_module_function(native, "from_json", native_from_json, 5);
  rb_define_module_function(native, "equal", native_equal, 3);
  rb_define_module_function(native, "key_hash", native_key_hash, 2);
  rb_define_module_function(native, "key_compare", native_key_compare, 3);
  rb_define_module_function(native, "text", native_text, 1);
  rb_define_module_function(native, "from_h", native_from_h, 2);
  rb_define_module_function(native, "unknown_field", native_unknown_field, 2);
  rb_define_module_function(native, "enum_text", native_enum_text, 2);
  rb_define_module_function(native, "enum_parse", native_enum_parse, 2);
  rb_define_module_function(native, "init_struct", native_init_struct, 3);
  VALUE limits = rb_define_class_under(fbe, "Limits", rb_cObject);
  rb_define_alloc_func(limits, limits_alloc);
  rb_define_method(limits, "initialize", limits_init, -1);
  rb_define_method(limits, "initialize_copy", limits_init_copy, 1);
  rb_define_method(limits, "max_depth", limits_max_depth, 0);
  rb_define_method(limits, "max_model_size", limits_max_model_size, 0);
  rb_define_method(limits, "max_memory", limits_max_memory, 0);
}

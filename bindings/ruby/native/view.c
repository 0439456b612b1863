/* Views (fbe/view.h) as Ruby objects: FBE::View (every struct's View class, with a reader
 * per field), FBE::ListView (arrays, vectors, lists, sets) and FBE::MapView (maps,
 * hashes). A view object is the core's cursor (fbe_view, a plain struct) and the two
 * objects it needs alive:
 * - the bytes: a frozen String, the one given when it is frozen, else a frozen
 *   copy-on-write snapshot of it (rb_str_new_frozen: no copy unless the caller changes
 *   the String later, which then changes nothing a view reads). rb_gc_mark (not
 *   _movable) pins it, so GC.compact never moves an embedded String's bytes under the
 *   cursor;
 * - the schema's tables (rf_core): a view of a closed schema raises, as its classes do.
 * A value is made on access: Integers, Floats, BigDecimals, Strings (copied), nil, a new
 * view for a struct or a collection. Text, JSON, equality and to_value are the core's
 * (fbe_view_to_text, fbe_view_to_json, fbe_view_equal(_ref), fbe_view_value), so a view
 * prints, compares and materializes exactly as the decoded value. */
#include <ruby/thread.h>
#include "binding.h"

static VALUE cListView, cMapView;

typedef struct rf_view {
  fbe_view v;
  const rf_struct *si; /* a struct view */
  const rf_type *type; /* a list or map view: the collection's type */
  rf_core *core;
  VALUE bytes, core_obj;
  fbe_limits limits;   /* the open's, for to_value, the text and the JSON */
} rf_view;

static void view_mark(void *p) {
  rf_view *rv = p;
  rb_gc_mark(rv->bytes); /* pinned: v.data points into it */
  rb_gc_mark(rv->core_obj);
}

static size_t view_size(const void *p) { return sizeof(rf_view); }

static const rb_data_type_t view_type = {
    .wrap_struct_name = "FBE::View",
    .function = {.dmark = view_mark, .dfree = RUBY_TYPED_DEFAULT_FREE, .dsize = view_size},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY | RUBY_TYPED_WB_PROTECTED};

static int is_view(VALUE obj) { return rb_typeddata_is_kind_of(obj, &view_type); }

/* The view of self, its schema still open. */
static const rf_view *open_view(VALUE self) {
  const rf_view *rv = rb_check_typeddata(self, &view_type);
  if (!rv->core->schema) rf_raisef(FBE_ERR_ARGUMENT, "the schema of this view is closed");
  return rv;
}

static ID id_view_class;

/* A struct's View class (Account::View): the Ruby side makes it the first time one is
 * needed (klass.view_class), so a schema of 10^5 structs makes only those it views. */
static VALUE view_class(rf_struct *si) {
  if (NIL_P(si->view_klass)) si->view_klass = rb_funcall(si->klass, id_view_class, 0);
  return si->view_klass;
}

static VALUE new_view(VALUE klass, const rf_view *from, fbe_view v, const rf_struct *si, const rf_type *t) {
  rf_view *rv;
  VALUE obj = TypedData_Make_Struct(klass, rf_view, &view_type, rv);
  rv->v = v;
  rv->si = si;
  rv->type = t;
  rv->core = from->core;
  rv->limits = from->limits;
  RB_OBJ_WRITE(obj, &rv->bytes, from->bytes);
  RB_OBJ_WRITE(obj, &rv->core_obj, from->core_obj);
  return obj;
}

/* A read that finds no value: never on the verified, frozen bytes a view holds. */
NORETURN(static void no_value(void));
static void no_value(void) {
  fbe_error err;
  fbe_view none = {0};
  fbe_view_fault(NULL, none, &err);
  rf_raise(&err);
}

#define CHECK(call) \
  do {              \
    if (call) no_value(); \
  } while (0)

/* The Ruby value of v, a value of type t, as decode gives it (decode.c), but for structs
 * and collections, which are views. */
static VALUE value_of(const rf_view *from, fbe_view v, const rf_type *t) {
  if (!fbe_view_ok(v)) no_value();
  int64_t i;
  uint64_t u;
  double d;
  int b;
  const uint8_t *p;
  size_t n;
  switch (t->t->kind) {
    case FBE_KIND_BOOL:
      CHECK(fbe_view_get_bool(v, &b));
      return b ? Qtrue : Qfalse;
    case FBE_KIND_INT8: case FBE_KIND_INT16: case FBE_KIND_INT32: case FBE_KIND_INT64:
      CHECK(fbe_view_get_int(v, &i));
      return LL2NUM(i);
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS:
      if (t->en->is_signed) {
        CHECK(fbe_view_get_int(v, &i));
        return LL2NUM(i);
      }
      CHECK(fbe_view_get_uint(v, &u));
      return ULL2NUM(u);
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE:
      CHECK(fbe_view_get_double(v, &d));
      return DBL2NUM(d);
    case FBE_KIND_DECIMAL: {
      fbe_decimal x;
      CHECK(fbe_view_get_decimal(v, &x));
      return rf_get_decimal(x.bytes);
    }
    case FBE_KIND_UUID: {
      fbe_uuid x;
      CHECK(fbe_view_get_uuid(v, &x));
      return rf_get_uuid(x.bytes);
    }
    case FBE_KIND_STRING:
      CHECK(fbe_view_get_bytes(v, &p, &n));
      return rb_utf8_str_new((const char *)p, (long)n);
    case FBE_KIND_BYTES:
      CHECK(fbe_view_get_bytes(v, &p, &n));
      return rb_str_new((const char *)p, (long)n);
    case FBE_KIND_STRUCT: return new_view(view_class(t->st), from, v, t->st, NULL);
    case FBE_KIND_OPTIONAL: return fbe_view_is_null(v) ? Qnil : value_of(from, fbe_view_deref(v), t->elem);
    case FBE_KIND_MAP: case FBE_KIND_HASH: return new_view(cMapView, from, v, NULL, t);
    case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
      return new_view(cListView, from, v, NULL, t);
    default: /* byte, char, wchar, the unsigned integers, timestamp */
      CHECK(fbe_view_get_uint(v, &u));
      return ULL2NUM(u);
  }
}

/* The calls that materialize, print or compare (below). */
typedef enum view_op { VOP_VALUE, VOP_TEXT, VOP_JSON, VOP_EQUAL } view_op;
static VALUE call(view_op op, VALUE self, VALUE other, int flag);

/* ------------------------------------------------------------------ opening */

typedef struct view_open {
  const rf_struct *si;
  fbe_model model;
  const uint8_t *data;
  size_t size;
  rf_view *root;
  fbe_error err;
  fbe_status status;
} view_open;

static void *open_part(void *arg) {
  view_open *o = arg;
  o->status = fbe_view_open(o->si->st, o->model, o->data, o->size, &o->root->limits, &o->root->v, &o->err);
  return NULL;
}

/* Native.view(klass, data, final, limits) -> klass's View over data, verified first: bytes
 * verify rejects raise what decode raises for them. */
/* model: nil (standard), or a Symbol or String the core reads (fbe_model_parse). */
static fbe_model model_of(VALUE model) {
  fbe_model out = FBE_MODEL_STANDARD;
  if (NIL_P(model)) return out;
  VALUE name = SYMBOL_P(model) ? rb_sym2str(model) : RB_TYPE_P(model, T_STRING) ? model : Qnil;
  fbe_error err;
  if (fbe_model_parse(NIL_P(name) ? NULL : RSTRING_PTR(name), NIL_P(name) ? 0 : (size_t)RSTRING_LEN(name), &out, &err))
    rf_raise(&err);
  return out;
}

static VALUE native_view(VALUE self, VALUE klass, VALUE data, VALUE model, VALUE limits) {
  rf_struct *si = rf_info_of(klass);
  fbe_model m = model_of(model);
  rf_view root = {.si = si, .core = si->core, .core_obj = si->core->self};
  root.bytes = rf_input_of(data, "bytes", 1);
  rf_limits_get(limits, &root.limits);
  view_open o = {si, m, (const uint8_t *)RSTRING_PTR(root.bytes),
                 (size_t)RSTRING_LEN(root.bytes), &root, {0}, FBE_OK};
  si->core->busy++; /* in flight (maybe without the GVL): close is refused */
  if (o.size >= FBE_RELEASE_LOCK_BYTES) rb_thread_call_without_gvl(open_part, &o, NULL, NULL);
  else open_part(&o);
  si->core->busy--;
  if (o.status) rf_raise(&o.err);
  VALUE view = new_view(view_class(si), &root, root.v, si, NULL);
  RB_GC_GUARD(root.bytes);
  return view;
}

/* Native.define_view_readers(view_klass, [names]): a reader per field name (the names
 * lib/fbe/schema.rb does not reserve); each finds its field by the name it was called by. */
static VALUE view_reader(VALUE self);

static VALUE native_define_view_readers(VALUE self, VALUE klass, VALUE names) {
  Check_Type(names, T_ARRAY);
  for (long i = 0; i < RARRAY_LEN(names); i++)
    rb_define_method_id(klass, rb_sym2id(RARRAY_AREF(names, i)), view_reader, 0);
  return Qnil;
}

/* ------------------------------------------------------------------ FBE::View */

static VALUE field_at(const rf_view *rv, long i) {
  return value_of(rv, fbe_view_field(rv->v, (size_t)i), rv->si->fields[i].type);
}

static VALUE view_reader(VALUE self) {
  const rf_view *rv = open_view(self);
  long i = rv->si ? rf_field_by_id(rv->si, rb_frame_this_func()) : -1;
  if (i < 0) rb_raise(rb_eNotImpError, "fbe: %s is not a field reader of this view", rb_id2name(rb_frame_this_func()));
  return field_at(rv, i);
}

/* view[:name], view["name"]: every field whatever its name (also a reserved one, which
 * has no reader); view[i]: field i. An unknown name raises FBE::UnknownFieldError. */
static VALUE view_aref(VALUE self, VALUE key) {
  const rf_view *rv = open_view(self);
  if (RB_INTEGER_TYPE_P(key)) {
    long k = NUM2LONG(key), n = (long)rv->si->st->nfields;
    if (k < -n || k >= n)
      rb_raise(rb_eIndexError, "offset %ld too %s for view of %ld fields", k, k < 0 ? "small" : "large", n);
    return field_at(rv, k < 0 ? k + n : k);
  }
  VALUE name = key;
  ID id = SYMBOL_P(key) || RB_TYPE_P(key, T_STRING) ? rb_check_id(&name) : 0;
  long i = id ? rf_field_by_id(rv->si, id) : -1;
  if (i < 0) {
    fbe_error err;
    rf_unknown_field(&err, rv->si, key);
    rf_raise(&err);
  }
  return field_at(rv, i);
}

/* ------------------------------------------------------------------ FBE::ListView */

/* Element reads of a collection take the view anew for each element: making the one
 * before may have run Ruby code (a BigDecimal, a block, a key's ==) that closed the
 * schema, and a closed schema is refused, never read. */

static long list_count(VALUE self) { return (long)fbe_view_count(open_view(self)->v); }

static VALUE list_size(VALUE self) { return LONG2NUM(list_count(self)); }

static VALUE list_element(VALUE self, long i) {
  const rf_view *rv = open_view(self);
  return value_of(rv, fbe_view_at(rv->v, (size_t)i), rv->type->elem);
}

/* list[i]: element i (negative: from the end), nil outside */
static VALUE list_aref(VALUE self, VALUE index) {
  long i = NUM2LONG(index), n = list_count(self);
  if (i < 0) i += n;
  return i < 0 || i >= n ? Qnil : list_element(self, i);
}

static VALUE list_enum_size(VALUE self, VALUE args, VALUE eobj) { return list_size(self); }

/* Whether the values of t are the same read from a view as decoded: no struct or
 * collection (which a view gives as views) anywhere in them. */
static int plain_values(const rf_type *t) {
  switch (t->t->kind) {
    case FBE_KIND_STRUCT: case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
    case FBE_KIND_MAP: case FBE_KIND_HASH: return 0;
    case FBE_KIND_OPTIONAL: return plain_values(t->elem);
    default: return 1;
  }
}

/* The elements as an Array. An array, vector or list of plain values is decoded whole
 * by the core (fbe_view_value: one linear pass, as decode), for the same values as read
 * one by one; a set is read one by one (its entries as written, where decode keeps one
 * per value), and so are elements that are views. */
static VALUE list_to_a(VALUE self) {
  const rf_view *rv = open_view(self);
  if (rv->type->t->kind != FBE_KIND_SET && plain_values(rv->type->elem)) return call(VOP_VALUE, self, Qnil, 1);
  long n = list_count(self);
  VALUE out = rb_ary_new_capa(n);
  for (long i = 0; i < n; i++) rb_ary_push(out, list_element(self, i));
  return out;
}

/* Each element once: plain values from to_a, views read when their turn comes (final
 * model, elements of variable size: element i is found by walking the ones before it,
 * fbe/view.h, so such a pass is quadratic there). */
static VALUE list_each(VALUE self) {
  RETURN_SIZED_ENUMERATOR(self, 0, 0, list_enum_size);
  const rf_view *rv = open_view(self);
  if (rv->type->t->kind != FBE_KIND_SET && plain_values(rv->type->elem)) {
    VALUE all = list_to_a(self);
    for (long i = 0; i < RARRAY_LEN(all); i++) rb_yield(RARRAY_AREF(all, i));
    return self;
  }
  long n = list_count(self);
  for (long i = 0; i < n; i++) rb_yield(list_element(self, i));
  return self;
}

/* ------------------------------------------------------------------ FBE::MapView */

static VALUE map_key(VALUE self, long i) {
  const rf_view *rv = open_view(self);
  return value_of(rv, fbe_view_key_at(rv->v, (size_t)i), rv->type->key);
}

static VALUE map_value(VALUE self, long i) {
  const rf_view *rv = open_view(self);
  return value_of(rv, fbe_view_value_at(rv->v, (size_t)i), rv->type->elem);
}

static VALUE map_pair(VALUE self, long i) {
  VALUE k = map_key(self, i);
  return rb_assoc_new(k, map_value(self, i));
}

static VALUE map_each(VALUE self) {
  RETURN_SIZED_ENUMERATOR(self, 0, 0, list_enum_size);
  long n = list_count(self);
  for (long i = 0; i < n; i++) rb_yield(map_pair(self, i));
  return self;
}

/* The entries as [key, value] pairs, keys or values, in wire order. */
static VALUE map_list(VALUE self, VALUE (*part)(VALUE, long)) {
  long n = list_count(self);
  VALUE out = rb_ary_new_capa(n);
  for (long i = 0; i < n; i++) rb_ary_push(out, part(self, i));
  return out;
}

static VALUE map_to_a(VALUE self) { return map_list(self, map_pair); }
static VALUE map_keys(VALUE self) { return map_list(self, map_key); }
static VALUE map_values(VALUE self) { return map_list(self, map_value); }

/* The entry whose key == key: the last such one, as decode keeps it; -1 if none. A linear
 * search (a view builds no index). */
static long map_find(VALUE self, VALUE key) {
  for (long i = list_count(self) - 1; i >= 0; i--)
    if (rb_equal(map_key(self, i), key)) return i;
  return -1;
}

static VALUE map_aref(VALUE self, VALUE key) {
  long i = map_find(self, key);
  return i < 0 ? Qnil : map_value(self, i);
}

static VALUE map_has_key(VALUE self, VALUE key) { return map_find(self, key) < 0 ? Qfalse : Qtrue; }

/* ------------------------------------------------------------------ as a value */

/* The calls that materialize (to_value), print or compare: the core's functions over a
 * scratch arena, which goes back (and the schema's busy count down) whatever is raised. */
typedef struct view_call {
  view_op op;
  const rf_view *rv;
  VALUE other; /* VOP_EQUAL: the value compared */
  int flag;    /* VOP_VALUE: ordered; VOP_JSON: pretty */
  fbei_scratch *s;
} view_call;

/* other as a value of the view's type in the scratch arena, or 0 when it is not one.
 * A struct view takes an instance of its struct class only (as Message#== does) and
 * raises when it does not convert (a field set to a wrong value); a collection view takes
 * what encode takes for its type, and anything else is unequal. */
static int other_ref(view_call *c, fbe_ref *out) {
  const rf_view *rv = c->rv;
  rf_walk w = {c->s->arena, 0, {0}};
  if (rv->si) {
    if (SPECIAL_CONST_P(c->other) || rb_obj_class(c->other) != rv->si->klass) return 0;
    *out = fbe_msg_ref(rf_build_msg(&w, rv->si, c->other));
    return 1;
  }
  const fbe_type *t = rv->type->t;
  uint8_t *slot = fbe_arena_alloc(c->s->arena, t->mem_size);
  if (!slot) rb_memerror();
  if (rf_put_value(&w, rv->type, c->other, slot)) return 0;
  *out = (fbe_ref){t, slot, c->s->arena};
  return 1;
}

static VALUE call_body(VALUE arg) {
  view_call *c = (view_call *)arg;
  const rf_view *rv = c->rv;
  fbe_error err;
  fbe_status st = FBE_OK;
  switch (c->op) {
    case VOP_EQUAL: {
      if (is_view(c->other)) return fbe_view_equal(rv->v, open_view(c->other)->v) ? Qtrue : Qfalse;
      fbe_ref r;
      return other_ref(c, &r) && fbe_view_equal_ref(rv->v, r) ? Qtrue : Qfalse;
    }
    case VOP_VALUE: {
      fbe_ref r;
      if ((st = fbe_view_value(rv->v, c->s->arena, &rv->limits, &r, &err))) break;
      return rv->si ? rf_get_struct(rv->si, r.slot, c->flag) : rf_get_value(rv->type, r.slot, c->flag);
    }
    case VOP_TEXT:
      if ((st = fbe_view_to_text(rv->v, &rv->limits, &c->s->buf, &err))) break;
      return rb_utf8_str_new((const char *)c->s->buf.data, (long)c->s->buf.size);
    case VOP_JSON: {
      fbe_json_options opts = {.pretty = c->flag, .limits = &rv->limits};
      if ((st = fbe_view_to_json(rv->v, &opts, &c->s->buf, &err))) break;
      return rb_utf8_str_new((const char *)c->s->buf.data, (long)c->s->buf.size);
    }
  }
  rf_raise(&err);
  return Qnil;
}

static VALUE call_done(VALUE arg) {
  view_call *c = (view_call *)arg;
  rf_scratch_put(c->s);
  c->rv->core->busy--;
  return Qnil;
}

static VALUE call(view_op op, VALUE self, VALUE other, int flag) {
  view_call c = {op, open_view(self), other, flag, NULL};
  c.s = rf_scratch_get();
  c.rv->core->busy++;
  return rb_ensure(call_body, (VALUE)&c, call_done, (VALUE)&c);
}

/* Native.view_to_value(view, ordered): the decoded value (what decode gives for the bytes;
 * ordered as decode's ordered:) */
static VALUE native_view_to_value(VALUE self, VALUE view, VALUE ordered) {
  return call(VOP_VALUE, view, Qnil, RTEST(ordered));
}
/* Native.view_text(view): the text form (docs/TEXT.md), the decoded value's */
static VALUE native_view_text(VALUE self, VALUE view) { return call(VOP_TEXT, view, Qnil, 0); }
/* Native.view_to_json(view, pretty): the decoded value's JSON */
static VALUE native_view_to_json(VALUE self, VALUE view, VALUE pretty) {
  return call(VOP_JSON, view, Qnil, RTEST(pretty));
}
/* Native.view_equal(view, other): the core's deep equality with another view or a value */
static VALUE native_view_equal(VALUE self, VALUE view, VALUE other) { return call(VOP_EQUAL, view, other, 0); }

void rf_init_view(VALUE native, VALUE fbe) {
  id_view_class = rb_intern("view_class");
  VALUE view = rb_define_class_under(fbe, "View", rb_cObject);
  cListView = rb_define_class_under(fbe, "ListView", rb_cObject);
  cMapView = rb_define_class_under(fbe, "MapView", rb_cObject);
  VALUE classes[3] = {view, cListView, cMapView};
  for (int i = 0; i < 3; i++) rb_undef_alloc_func(classes[i]); /* made by view() and by reading only */
  rb_define_method(view, "[]", view_aref, 1);
  rb_define_method(cListView, "size", list_size, 0);
  rb_define_method(cListView, "length", list_size, 0);
  rb_define_method(cListView, "[]", list_aref, 1);
  rb_define_method(cListView, "each", list_each, 0);
  rb_define_method(cListView, "to_a", list_to_a, 0);
  rb_define_method(cMapView, "size", list_size, 0);
  rb_define_method(cMapView, "length", list_size, 0);
  rb_define_method(cMapView, "each", map_each, 0);
  rb_define_method(cMapView, "each_pair", map_each, 0);
  rb_define_method(cMapView, "to_a", map_to_a, 0);
  rb_define_method(cMapView, "keys", map_keys, 0);
  rb_define_method(cMapView, "values", map_values, 0);
  rb_define_method(cMapView, "[]", map_aref, 1);
  rb_define_method(cMapView, "key?", map_has_key, 1);
  rb_define_method(cMapView, "include?", map_has_key, 1);
  rb_define_module_function(native, "view", native_view, 4);
  rb_define_module_function(native, "define_view_readers", native_define_view_readers, 2);
  rb_define_module_function(native, "view_to_value", native_view_to_value, 2);
  rb_define_module_function(native, "view_text", native_view_text, 1);
  rb_define_module_function(native, "view_to_json", native_view_to_json, 2);
  rb_define_module_function(native, "view_equal", native_view_equal, 2);
}

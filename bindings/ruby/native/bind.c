/* The per-schema tables: a loaded schema bound to the Ruby classes and modules
 * lib/fbe/schema.rb made, once at load, in arrays indexed by the core's dense
 * fbe_struct_index / fbe_enum_index. Immutable after bind; close releases the schema. */
#include <stdlib.h>
#include <string.h>
#include "binding.h"

static ID id_info;

static void core_mark(void *p) {
  rf_core *c = p;
  for (size_t i = 0; i < c->nstructs; i++) {
    rf_struct *si = &c->structs[i];
    rb_gc_mark(si->klass);
    rb_gc_mark(si->view_klass);
    for (uint32_t j = 0; si->fields && j < si->st->nfields; j++) {
      rb_gc_mark(si->fields[j].sym);
      rb_gc_mark(si->fields[j].str);
      rb_gc_mark(si->fields[j].shared);
    }
  }
  for (size_t i = 0; i < c->nenums; i++) rb_gc_mark(c->enums[i].module);
}

static void core_free(void *p) {
  rf_core *c = p;
  if (c->mem) fbe_arena_free(c->mem);
  if (c->schema) fbe_schema_release(c->schema);
  xfree(c);
}

static size_t core_size(const void *p) {
  const rf_core *c = p;
  return sizeof *c + (c->mem ? fbe_arena_reserved(c->mem) : 0);
}

static const rb_data_type_t core_type = {
    .wrap_struct_name = "FBE::Native::Core",
    .function = {.dmark = core_mark, .dfree = core_free, .dsize = core_size},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

rf_core *rf_core_of(VALUE obj) { return rb_check_typeddata(obj, &core_type); }

void rf_check_open(const rf_core *core) {
  if (!core->schema) rf_raisef(FBE_ERR_ARGUMENT, "the schema is closed");
}

/* Each bound class holds its struct, each enum or flags module its enum, in a hidden
 * instance variable (a small object that keeps the core alive). */
typedef struct rf_info {
  VALUE core;
  rf_struct *si;
  rf_enum *en;
} rf_info;

static void info_mark(void *p) { rb_gc_mark(((rf_info *)p)->core); }
static const rb_data_type_t info_type = {
    .wrap_struct_name = "FBE::Native::Info",
    .function = {.dmark = info_mark, .dfree = RUBY_TYPED_DEFAULT_FREE},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

rf_struct *rf_info_try(VALUE klass) {
  for (VALUE k = klass; RB_TYPE_P(k, T_CLASS) && k != rb_cStruct && k != rb_cObject; k = rb_class_superclass(k)) {
    VALUE info = rb_attr_get(k, id_info);
    if (NIL_P(info) || !rb_typeddata_is_kind_of(info, &info_type)) continue;
    rf_struct *si = ((rf_info *)RTYPEDDATA_DATA(info))->si;
    if (!si) return NULL;
    if (!si->core->schema) rf_raisef(FBE_ERR_ARGUMENT, "the schema of this class is closed");
    return si;
  }
  return NULL;
}

rf_struct *rf_info_of(VALUE klass) {
  rf_struct *si = RB_TYPE_P(klass, T_CLASS) ? rf_info_try(klass) : NULL;
  if (!si) rf_raisef(FBE_ERR_TYPE, "expected a struct class of a loaded schema, got %.120s",
                     RSTRING_PTR(rb_inspect(klass)));
  return si;
}

rf_enum *rf_enum_of(VALUE module) {
  VALUE info = RB_TYPE_P(module, T_MODULE) ? rb_attr_get(module, id_info) : Qnil;
  rf_info *i = !NIL_P(info) && rb_typeddata_is_kind_of(info, &info_type) ? RTYPEDDATA_DATA(info) : NULL;
  if (!i || !i->en) rf_raisef(FBE_ERR_TYPE, "expected an enum or flags module of a loaded schema");
  if (!rf_core_of(i->core)->schema) rf_raisef(FBE_ERR_ARGUMENT, "the schema of this enum is closed");
  return i->en;
}

static void set_info(VALUE holder, VALUE core, rf_struct *si, rf_enum *en) {
  rf_info *info;
  VALUE iv = TypedData_Make_Struct(rb_cObject, rf_info, &info_type, info);
  *info = (rf_info){core, si, en};
  rb_ivar_set(holder, id_info, iv);
}

static void *table(rf_core *c, size_t n, size_t size) {
  void *p = fbe_arena_alloc(c->mem, n * size + 1);
  if (!p) rb_memerror();
  return memset(p, 0, n * size + 1);
}

static const rf_type *make_type(rf_core *c, const fbe_type *t) {
  rf_type *rt = table(c, 1, sizeof *rt);
  rt->t = t;
  if (t->kind == FBE_KIND_STRUCT) rt->st = &c->structs[fbe_struct_index(t->st)];
  if ((t->kind == FBE_KIND_ENUM || t->kind == FBE_KIND_FLAGS) && !(rt->en = &c->enums[fbe_enum_index(t->enm)])->e)
    rb_raise(rb_eArgError, "fbe: no module bound for %s", t->enm->full_name);
  if (t->elem) rt->elem = make_type(c, t->elem);
  if (t->key) rt->key = make_type(c, t->key);
  return rt;
}

/* A view's field reader, a C method, learns only the name (ID) it was called by: the
 * fields sorted by ID find it in log2(nfields) steps. */
static int by_id(const void *a, const void *b) {
  ID x = ((const rf_field_id *)a)->id, y = ((const rf_field_id *)b)->id;
  return x < y ? -1 : x > y;
}

long rf_field_by_id(const rf_struct *si, ID id) {
  const rf_field_id *lo = si->ids, *hi = si->ids + si->st->nfields; /* a binary search of [lo, hi) */
  while (lo < hi) {
    const rf_field_id *mid = lo + (hi - lo) / 2;
    if (mid->id == id) return mid->index;
    if (mid->id < id) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* list[i] is [name, value, more...]: the name as a C string, *value the value. */
static const char *pair_at(VALUE list, long i, VALUE *value) {
  VALUE pair = rb_ary_entry(list, i), name = rb_ary_entry(pair, 0);
  *value = rb_ary_entry(pair, 1);
  return StringValueCStr(name);
}

/* Native.bind(swig_schema, [[full_name, klass], ...], [[full_name, module], ...]) -> core.
 * Every struct and enum of the schema must be in the lists; classes with fields must be
 * Struct subclasses with the fields in schema order. (The modules are the Ruby side's; a
 * struct's FBE::View subclass is asked of it, klass.view_class, the first time a view
 * needs it: view.c.) */
static VALUE native_bind(VALUE self, VALUE swig, VALUE structs, VALUE enums) {
  Check_Type(structs, T_ARRAY);
  Check_Type(enums, T_ARRAY);
  fbe_schema *schema = rbfbe_schema_from_swig(swig);
  rf_core *c;
  VALUE obj = TypedData_Make_Struct(rb_cObject, rf_core, &core_type, c);
  c->self = obj;
  c->schema = fbe_schema_retain(schema);
  if (!(c->mem = fbe_arena_new())) rb_memerror();
  c->nstructs = fbe_schema_struct_count(schema);
  c->nenums = fbe_schema_enum_count(schema);
  c->structs = table(c, c->nstructs, sizeof(rf_struct));
  c->enums = table(c, c->nenums, sizeof(rf_enum));
  for (long i = 0; i < RARRAY_LEN(enums); i++) {
    VALUE mod;
    const char *name = pair_at(enums, i, &mod);
    const fbe_enum *e = fbe_schema_find_enum(schema, name);
    if (!e) rb_raise(rb_eArgError, "no enum %s in the schema", name);
    Check_Type(mod, T_MODULE);
    rf_enum *en = &c->enums[fbe_enum_index(e)];
    *en = (rf_enum){e, mod, fbei_kind_is_signed(e->base)};
    set_info(mod, obj, NULL, en);
  }
  for (long i = 0; i < RARRAY_LEN(structs); i++) {
    VALUE klass;
    const char *name = pair_at(structs, i, &klass);
    const fbe_struct *st = fbe_schema_find_struct(schema, name);
    if (!st) rb_raise(rb_eArgError, "no struct %s in the schema", name);
    Check_Type(klass, T_CLASS);
    int is_rstruct = RTEST(rb_class_inherited_p(klass, rb_cStruct));
    if (st->nfields && !is_rstruct) rb_raise(rb_eTypeError, "class for %s must be a Struct", st->full_name);
    c->structs[fbe_struct_index(st)] = (rf_struct){st, klass, Qnil, c, is_rstruct, NULL, NULL};
  }
  for (size_t i = 0; i < c->nstructs; i++) {
    rf_struct *si = &c->structs[i];
    if (!si->klass) rb_raise(rb_eArgError, "fbe: no class bound for %s", fbe_schema_struct_at(schema, i)->full_name);
    rf_field *fields = si->fields = table(c, si->st->nfields, sizeof(rf_field)); /* zero: marks as false */
    si->ids = table(c, si->st->nfields, sizeof(rf_field_id));
    for (uint32_t j = 0; j < si->st->nfields; j++) {
      const fbe_field *f = &si->st->fields[j];
      si->ids[j] = (rf_field_id){rb_intern(f->name), j};
      fields[j] = (rf_field){f, make_type(c, f->type), ID2SYM(rb_intern(f->name)),
                             rb_obj_freeze(rb_utf8_str_new_cstr(f->name)), fbe_field_default_class(f), Qnil,
                             (const uint8_t *)si->st->defaults + f->mem_offset};
    }
    qsort(si->ids, si->st->nfields, sizeof(rf_field_id), by_id);
  }
  for (size_t i = 0; i < c->nstructs; i++) { /* the shared defaults, once every table is there */
    rf_struct *si = &c->structs[i];
    for (uint32_t j = 0; j < si->st->nfields; j++) {
      rf_field *f = &si->fields[j];
      if (f->def == FBE_DEFAULT_SHARED) f->shared = rb_obj_freeze(rf_get_value(f->type, f->image, 0));
    }
    set_info(si->klass, obj, si, NULL);
  }
  return obj;
}

/* Native.close(core): releases the schema now; later calls through its classes raise. */
static VALUE native_close(VALUE self, VALUE obj) {
  rf_core *c = rf_core_of(obj);
  if (c->busy) /* a call in flight: another thread's (without the GVL), or the caller's own callback */
    rf_raisef(FBE_ERR_ARGUMENT, "the schema is in use by %d call%s (close it once they have returned)", c->busy,
              c->busy == 1 ? "" : "s");
  if (c->schema) fbe_schema_release(c->schema);
  c->schema = NULL;
  return Qnil;
}

static VALUE native_closed_p(VALUE self, VALUE obj) {
  return rf_core_of(obj)->schema ? Qfalse : Qtrue;
}

void rf_init_bind(VALUE native) {
  id_info = rb_intern("__fbe_info__");
  rb_define_module_function(native, "bind", native_bind, 3);
  rb_define_module_function(native, "close", native_close, 1);
  rb_define_module_function(native, "closed?", native_closed_p, 1);
}

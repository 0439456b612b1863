/* FBE::Native, shared parts: errors, the scratch, the per-schema core object and
 * binding a loaded schema to the Ruby classes and modules lib/fbe/schema.rb made. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "rbfbe.h"

VALUE rf_cBigDecimal, rf_cSet, rf_mNative;
ID rf_id_BigDecimal, rf_id_to_s, rf_id_hash_ivar;
static ID id_info;
static VALUE error_classes = Qnil; /* Array indexed by code */

/* ------------------------------------------------------------------ errors */

VALUE rf_error_new(int code, const char *message, const char *path, size_t offset) {
  if (code < 0 || code >= RF_NCLASSES) code = FBE_ERR_ARGUMENT;
  VALUE cls = NIL_P(error_classes) ? Qnil : rb_ary_entry(error_classes, code);
  if (NIL_P(cls)) cls = NIL_P(error_classes) ? Qnil : rb_ary_entry(error_classes, 0);
  if (NIL_P(cls)) rb_raise(rb_eArgError, "%s", message); /* lib/fbe not loaded */
  int attr_code = code == RF_ERR_UNKNOWN_FIELD ? FBE_ERR_NOT_FOUND : code;
  VALUE args[4] = {rb_utf8_str_new_cstr(message), INT2FIX(attr_code),
                   rb_utf8_str_new_cstr(path ? path : ""),
                   offset == FBE_NO_OFFSET ? Qnil : SIZET2NUM(offset)};
  return rb_class_new_instance(4, args, cls);
}

void rf_raise(int code, const char *message, const char *path, size_t offset) {
  rb_exc_raise(rf_error_new(code, message, path, offset));
}

void rf_raise_fbe(const fbe_error *e) { rf_raise(e->code, e->message, e->path, e->offset); }

static void format_path(const rf_walk *w, char *out, size_t size) {
  size_t n = 0;
  out[0] = 0;
  uint32_t depth = w->npath < RF_MAX_PATH ? w->npath : RF_MAX_PATH;
  for (uint32_t i = 0; i < depth && n + 1 < size; i++) {
    const rf_frame *f = &w->path[i];
    int k;
    if (f->name && f->name[0] == '[') k = snprintf(out + n, size - n, "%s", f->name);
    else if (f->name) k = snprintf(out + n, size - n, "%s%s", n ? "." : "", f->name);
    else k = snprintf(out + n, size - n, "[%ld]", f->index);
    if (k < 0) break;
    n += (size_t)k;
  }
  if (n >= size) out[size - 1] = 0;
}

void rf_walk_raise(rf_walk *w, int code, const char *fmt, ...) {
  char message[256], path[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  format_path(w, path, sizeof path);
  rf_raise(code, message, path, FBE_NO_OFFSET);
}

/* Native.set_error_classes([cls for code 0..], unknown_field_cls) */
static VALUE native_set_error_classes(VALUE self, VALUE classes) {
  (void)self;
  Check_Type(classes, T_ARRAY);
  if (NIL_P(error_classes)) {
    error_classes = rb_ary_new();
    rb_gc_register_mark_object(error_classes);
  }
  rb_ary_replace(error_classes, classes);
  return Qnil;
}

/* ------------------------------------------------------------------ scratch */

static rf_scratch *shared_scratch; /* the GVL serialises its users; busy catches nesting */

static rf_scratch *scratch_new(void) {
  rf_scratch *s = fbe_mem_calloc(1, sizeof *s);
  if (!s) return NULL;
  if (!(s->arena = fbe_arena_new())) {
    fbe_mem_free(s);
    return NULL;
  }
  return s;
}

rf_scratch *rf_scratch_get(void) {
  rf_scratch *s = shared_scratch;
  if (s && !s->busy) {
    s->busy = 1;
    return s;
  }
  if (!(s = scratch_new())) rb_memerror();
  if (!shared_scratch) shared_scratch = s;
  else s->temp = 1; /* a call nested in another (a callback, another thread) */
  s->busy = 1;
  return s;
}

void rf_scratch_put(rf_scratch *s) {
  if (s->temp) {
    fbe_arena_free(s->arena);
    fbe_buffer_free(&s->buf);
    fbe_mem_free(s);
    return;
  }
  fbe_arena_reset(s->arena);
  if (s->buf.capacity > (1u << 20)) fbe_buffer_free(&s->buf);
  else fbe_buffer_reset(&s->buf);
  s->busy = 0;
}

/* ------------------------------------------------------------------ core object */

static void core_mark(void *p) {
  rf_core *c = p;
  for (uint32_t i = 0; i < c->nstructs; i++) {
    rf_struct *si = &c->structs[i];
    rb_gc_mark(si->klass);
    for (uint32_t j = 0; j < si->nfields; j++) {
      rb_gc_mark(si->fields[j].sym);
      rb_gc_mark(si->fields[j].str);
      rb_gc_mark(si->fields[j].def_value);
    }
  }
  for (uint32_t i = 0; i < c->nenums; i++) {
    rb_gc_mark(c->enums[i].mod);
    rb_gc_mark(c->enums[i].by_name);
  }
}

static void core_free(void *p) {
  rf_core *c = p;
  for (uint32_t i = 0; i < c->nstructs; i++) fbe_mem_free(c->structs[i].fields);
  fbe_mem_free(c->structs);
  fbe_mem_free(c->enums);
  fbe_mem_free(c->map);
  if (c->mem) fbe_arena_free(c->mem);
  if (c->schema) fbe_schema_release(c->schema);
  xfree(c); /* TypedData_Make_Struct's, from Ruby's allocator */
}

static size_t core_size(const void *p) {
  const rf_core *c = p;
  return sizeof *c + c->nstructs * sizeof(rf_struct) + c->nenums * sizeof(rf_enum);
}

const rb_data_type_t rf_core_type = {
    .wrap_struct_name = "FBE::Native::Core",
    .function = {.dmark = core_mark, .dfree = core_free, .dsize = core_size},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

/* The class info: a small object in a hidden instance variable of each class. */
typedef struct rf_info {
  VALUE core;
  rf_struct *si;
} rf_info;

static void info_mark(void *p) { rb_gc_mark(((rf_info *)p)->core); }
static const rb_data_type_t info_type = {
    .wrap_struct_name = "FBE::Native::Info",
    .function = {.dmark = info_mark, .dfree = RUBY_TYPED_DEFAULT_FREE},
    .flags = RUBY_TYPED_FREE_IMMEDIATELY};

rf_struct *rf_info_try(VALUE klass) {
  for (VALUE k = klass; RB_TYPE_P(k, T_CLASS); k = rb_class_superclass(k)) {
    VALUE info = rb_attr_get(k, id_info);
    if (!NIL_P(info) && rb_typeddata_is_kind_of(info, &info_type)) {
      rf_struct *si = ((rf_info *)RTYPEDDATA_DATA(info))->si;
      if (!si->core->schema) rf_raise(FBE_ERR_ARGUMENT, "the schema of this class is closed", "", FBE_NO_OFFSET);
      return si;
    }
    if (k == rb_cStruct || k == rb_cObject) break;
  }
  return NULL;
}

rf_struct *rf_info_of(VALUE klass) {
  rf_struct *si = RB_TYPE_P(klass, T_CLASS) ? rf_info_try(klass) : NULL;
  if (!si) {
    char msg[200];
    VALUE s = rb_inspect(klass);
    snprintf(msg, sizeof msg, "expected a struct class of a loaded schema, got %.120s", RSTRING_PTR(s));
    rf_raise(FBE_ERR_TYPE, msg, "", FBE_NO_OFFSET);
  }
  return si;
}

static size_t ptr_hash(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= (uintptr_t)0x9E3779B97F4A7C15ull;
  return (size_t)(x ^ (x >> 29));
}

rf_struct *rf_core_find(const rf_core *core, const fbe_struct *st) {
  if (!core->map) return NULL;
  for (size_t i = ptr_hash(st) & core->map_mask;; i = (i + 1) & core->map_mask) {
    rf_struct *si = core->map[i];
    if (!si) return NULL;
    if (si->st == st) return si;
  }
}

/* ------------------------------------------------------------------ bind */

static const rf_type *make_type(rf_core *core, const fbe_type *t) {
  rf_type *rt = fbe_arena_alloc(core->mem, sizeof *rt);
  if (!rt) rb_memerror();
  memset(rt, 0, sizeof *rt);
  rt->t = t;
  rt->kind = t->kind;
  rt->wire = t->wire;
  if (t->kind == FBE_KIND_STRUCT) {
    if (!(rt->st = rf_core_find(core, t->st))) rb_raise(rb_eRuntimeError, "fbe: no class bound for %s", t->st->full_name);
  } else if (t->kind == FBE_KIND_ENUM || t->kind == FBE_KIND_FLAGS) {
    for (uint32_t i = 0; i < core->nenums; i++)
      if (core->enums[i].e == t->enm) rt->en = &core->enums[i];
    if (!rt->en) rb_raise(rb_eRuntimeError, "fbe: no module bound for %s", t->enm->full_name);
  }
  if (t->elem) rt->elem = make_type(core, t->elem);
  if (t->key) rt->key = make_type(core, t->key);
  return rt;
}

static int immutable_kind(fbe_kind k) {
  return k <= FBE_KIND_TIMESTAMP || k == FBE_KIND_ENUM || k == FBE_KIND_FLAGS ||
         k == FBE_KIND_UUID || k == FBE_KIND_STRING || k == FBE_KIND_BYTES; /* strings: dup'ed */
}

static void bind_defaults(rf_struct *si) {
  for (uint32_t i = 0; i < si->nfields; i++) {
    rf_field *rf = &si->fields[i];
    const fbe_field *f = rf->f;
    const fbe_type *t = f->type;
    if (f->def.kind == FBE_DEF_UTC || f->def.kind == FBE_DEF_UUID1 || f->def.kind == FBE_DEF_UUID4) {
      rf->def_kind = RF_DEF_DYNAMIC;
      continue;
    }
    int immutable = immutable_kind(t->kind);
    if (t->kind == FBE_KIND_OPTIONAL) {
      const void *inner = *(const void *const *)rf->image;
      immutable = !inner || immutable_kind(t->elem->kind);
    }
    if (!immutable) {
      rf->def_kind = RF_DEF_FRESH;
      continue;
    }
    rf_walk w;
    memset(&w, 0, sizeof w);
    rf->def_kind = RF_DEF_CONST;
    rf->def_value = rb_obj_freeze(rf_get_value(&w, rf->type, rf->image));
  }
}

static VALUE enum_name_table(const fbe_enum *e, int is_signed) {
  VALUE h = rb_hash_new();
  for (uint32_t i = 0; i < e->nvalues; i++) {
    uint64_t v = e->values[i].value;
    rb_hash_aset(h, ID2SYM(rb_intern(e->values[i].name)), is_signed ? LL2NUM((int64_t)v) : ULL2NUM(v));
  }
  return rb_obj_freeze(h);
}

/* Native.bind(swig_schema, [[full_name, klass], ...], [[full_name, module], ...]) -> core
 * Every struct of the schema must be in the list; classes without fields may be plain
 * classes, the others must be Struct subclasses with the fields in schema order. */
static VALUE native_bind(VALUE self, VALUE swig, VALUE structs, VALUE enums) {
  (void)self;
  Check_Type(structs, T_ARRAY);
  Check_Type(enums, T_ARRAY);
  fbe_schema *schema = rbfbe_schema_from_swig(swig);
  rf_core *core;
  VALUE obj = TypedData_Make_Struct(rb_cObject, rf_core, &rf_core_type, core);
  core->self = obj;
  core->schema = fbe_schema_retain(schema);
  core->mem = fbe_arena_new();
  long ns = RARRAY_LEN(structs), ne = RARRAY_LEN(enums);
  core->structs = fbe_mem_calloc((size_t)ns + 1, sizeof(rf_struct));
  core->enums = fbe_mem_calloc((size_t)ne + 1, sizeof(rf_enum));
  size_t cap = 16;
  while (cap < 2 * (size_t)ns + 2) cap *= 2;
  core->map = fbe_mem_calloc(cap, sizeof(rf_struct *));
  core->map_mask = cap - 1;
  if (!core->mem || !core->structs || !core->enums || !core->map) rb_memerror();
  for (long i = 0; i < ne; i++) {
    VALUE pair = rb_ary_entry(enums, i);
    VALUE name = rb_ary_entry(pair, 0), mod = rb_ary_entry(pair, 1);
    const fbe_enum *e = fbe_schema_find_enum(schema, StringValueCStr(name));
    if (!e) rb_raise(rb_eArgError, "no enum %s in the schema", StringValueCStr(name));
    rf_enum *en = &core->enums[core->nenums++];
    en->e = e;
    en->mod = mod;
    en->by_name = Qnil;
    en->is_signed = fbe_kind_is_signed(e->base);
    en->by_name = enum_name_table(e, en->is_signed);
  }
  for (long i = 0; i < ns; i++) {
    VALUE pair = rb_ary_entry(structs, i);
    VALUE name = rb_ary_entry(pair, 0), klass = rb_ary_entry(pair, 1);
    const fbe_struct *st = fbe_schema_find_struct(schema, StringValueCStr(name));
    if (!st) rb_raise(rb_eArgError, "no struct %s in the schema", StringValueCStr(name));
    Check_Type(klass, T_CLASS);
    int is_rstruct = RTEST(rb_class_inherited_p(klass, rb_cStruct));
    if (st->nfields && !is_rstruct) rb_raise(rb_eTypeError, "class for %s must be a Struct", st->full_name);
    rf_struct *si = &core->structs[core->nstructs++];
    si->st = st;
    si->core = core;
    si->klass = klass;
    si->is_rstruct = is_rstruct;
    size_t h = ptr_hash(st) & core->map_mask;
    while (core->map[h]) h = (h + 1) & core->map_mask;
    core->map[h] = si;
  }
  for (uint32_t i = 0; i < core->nstructs; i++) {
    rf_struct *si = &core->structs[i];
    const fbe_struct *st = si->st;
    si->fields = fbe_mem_calloc(st->nfields ? st->nfields : 1, sizeof(rf_field));
    if (!si->fields) rb_memerror();
    for (uint32_t j = 0; j < st->nfields; j++) {
      rf_field *rf = &si->fields[j];
      rf->sym = rf->str = rf->def_value = Qnil;
    }
    si->nfields = st->nfields;
    for (uint32_t j = 0; j < st->nfields; j++) {
      rf_field *rf = &si->fields[j];
      rf->f = &st->fields[j];
      rf->image = (const uint8_t *)st->defaults + rf->f->mem_offset;
      rf->sym = ID2SYM(rb_intern(rf->f->name));
      rf->str = rb_obj_freeze(rb_utf8_str_new_cstr(rf->f->name));
      rf->type = make_type(core, rf->f->type);
    }
    si->self_type = make_type(core, st->self_type);
  }
  for (uint32_t i = 0; i < core->nstructs; i++) bind_defaults(&core->structs[i]);
  for (uint32_t i = 0; i < core->nstructs; i++) {
    rf_info *info;
    VALUE iv = TypedData_Make_Struct(rb_cObject, rf_info, &info_type, info);
    info->core = obj;
    info->si = &core->structs[i];
    rb_ivar_set(core->structs[i].klass, id_info, iv);
  }
  return obj;
}

static rf_core *core_of(VALUE obj) { return rb_check_typeddata(obj, &rf_core_type); }

/* Native.close(core): releases the schema now; later calls through its classes raise. */
static VALUE native_close(VALUE self, VALUE obj) {
  (void)self;
  rf_core *c = core_of(obj);
  if (c->busy) { /* a call in flight: another thread's (without the GVL), or the caller's own callback */
    char msg[120];
    snprintf(msg, sizeof msg, "the schema is in use by %d call%s (close it once they have returned)", c->busy,
             c->busy == 1 ? "" : "s");
    rf_raise(FBE_ERR_ARGUMENT, msg, "", FBE_NO_OFFSET);
  }
  if (c->schema) fbe_schema_release(c->schema);
  c->schema = NULL;
  return Qnil;
}

static VALUE native_closed_p(VALUE self, VALUE obj) {
  (void)self;
  return core_of(obj)->schema ? Qfalse : Qtrue;
}

void rf_init_core(VALUE native) {
  rf_id_BigDecimal = rb_intern("BigDecimal");
  rf_id_to_s = rb_intern("to_s");
  rf_id_hash_ivar = rb_intern("@hash");
  id_info = rb_intern("__fbe_info__");
  rb_define_module_function(native, "set_error_classes", native_set_error_classes, 1);
  rb_define_module_function(native, "bind", native_bind, 3);
  rb_define_module_function(native, "close", native_close, 1);
  rb_define_module_function(native, "closed?", native_closed_p, 1);
}

/* The core's in-memory value -> Ruby objects, walked by the struct's field table, and
 * the defaults of new instances. Struct instances are allocated without #initialize
 * and their members set directly; enums and flags are Integers (so values the schema
 * does not name survive). The values come from the core's decode, JSON reader or
 * default images, which hold only valid UTF-8: nothing here can fail. */
#include <string.h>
#include "binding.h"

static VALUE get_list(const rf_type *elem, const uint8_t *data, uint32_t n, int ordered) {
  VALUE ary = rb_ary_new_capa(n);
  for (uint32_t i = 0; i < n; i++) rb_ary_push(ary, rf_get_value(elem, data + (size_t)i * elem->t->mem_size, ordered));
  return ary;
}

static VALUE get_map(const rf_type *t, const fbei_vec *vec, int ordered) {
  VALUE out = ordered ? rb_ary_new_capa(vec->count) : rb_hash_new();
  const uint8_t *pair = vec->data;
  for (uint32_t i = 0; i < vec->count; i++, pair += t->t->pair_stride) {
    VALUE k = rf_get_value(t->key, pair, ordered), v = rf_get_value(t->elem, pair + t->t->pair_value_offset, ordered);
    if (ordered) rb_ary_push(out, rb_assoc_new(k, v));
    else rb_hash_aset(out, k, v);
  }
  return out;
}

VALUE rf_get_value(const rf_type *t, const uint8_t *slot, int ordered) {
  const fbei_vec *vec = (const fbei_vec *)(const void *)slot;
  switch (t->t->kind) {
    case FBE_KIND_BOOL: return *slot ? Qtrue : Qfalse;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: return INT2FIX(*slot);
    case FBE_KIND_INT8: return INT2FIX(*(const int8_t *)slot);
    case FBE_KIND_INT16: return INT2FIX(*(const int16_t *)(const void *)slot);
    case FBE_KIND_UINT16: return INT2FIX(*(const uint16_t *)(const void *)slot);
    case FBE_KIND_INT32: return INT2FIX(*(const int32_t *)(const void *)slot);
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR: return UINT2NUM(*(const uint32_t *)(const void *)slot);
    case FBE_KIND_INT64: return LL2NUM(*(const int64_t *)(const void *)slot);
    case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP: return ULL2NUM(*(const uint64_t *)(const void *)slot);
    case FBE_KIND_FLOAT: {
      float f;
      memcpy(&f, slot, 4);
      return DBL2NUM((double)f);
    }
    case FBE_KIND_DOUBLE: {
      double d;
      memcpy(&d, slot, 8);
      return DBL2NUM(d);
    }
    case FBE_KIND_DECIMAL: return rf_get_decimal(slot);
    case FBE_KIND_UUID: return rf_get_uuid(slot);
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const fbei_str *s = (const fbei_str *)(const void *)slot;
      const char *p = s->size ? (const char *)s->data : "";
      return t->t->kind == FBE_KIND_STRING ? rb_utf8_str_new(p, (long)s->size) : rb_str_new(p, (long)s->size);
    }
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: {
      uint64_t x = fbei_scalar_load(t->t->wire, slot);
      return t->en->is_signed ? LL2NUM((int64_t)x) : ULL2NUM(x);
    }
    case FBE_KIND_STRUCT: return rf_get_struct(t->st, slot, ordered);
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)(const void *)slot;
      return inner ? rf_get_value(t->elem, inner, ordered) : Qnil;
    }
    case FBE_KIND_ARRAY: return get_list(t->elem, slot, t->t->array_size, ordered);
    case FBE_KIND_SET: {
      VALUE ary = get_list(t->elem, vec->data, vec->count, ordered);
      return ordered ? ary : rb_class_new_instance(1, &ary, rf_cSet);
    }
    case FBE_KIND_MAP: case FBE_KIND_HASH: return get_map(t, vec, ordered);
    default: return get_list(t->elem, vec->data, vec->count, ordered); /* vector, list */
  }
}

VALUE rf_get_struct(const rf_struct *si, const uint8_t *slot, int ordered) {
  if (!si->is_rstruct) return rb_obj_alloc(si->klass);
  VALUE obj = rb_struct_alloc_noinit(si->klass);
  for (uint32_t i = 0; i < si->st->nfields; i++) {
    const rf_field *f = &si->fields[i];
    RSTRUCT_SET(obj, (long)i, rf_get_value(f->type, slot + f->f->mem_offset, ordered));
  }
  return obj;
}

/* ------------------------------------------------------------------ defaults */

static VALUE new_default(const rf_struct *si) {
  if (!si->is_rstruct) return rb_obj_alloc(si->klass);
  VALUE obj = rb_struct_alloc_noinit(si->klass);
  for (uint32_t i = 0; i < si->st->nfields; i++) RSTRUCT_SET(obj, (long)i, rf_field_default(&si->fields[i]));
  return obj;
}

/* A new mutable value (FBE_DEFAULT_FRESH) from the default image. */
static VALUE fresh(const rf_type *t, const uint8_t *image) {
  switch (t->t->kind) {
    case FBE_KIND_STRUCT: return new_default(t->st);
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: return rb_ary_new();
    case FBE_KIND_SET: return rb_class_new_instance(0, NULL, rf_cSet);
    case FBE_KIND_MAP: case FBE_KIND_HASH: return rb_hash_new();
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)(const void *)image;
      return inner ? fresh(t->elem, inner) : Qnil;
    }
    case FBE_KIND_ARRAY: {
      VALUE ary = rb_ary_new_capa(t->t->array_size);
      for (uint32_t i = 0; i < t->t->array_size; i++)
        rb_ary_push(ary, fresh(t->elem, image + (size_t)i * t->elem->t->mem_size));
      return ary;
    }
    default: return rf_get_value(t, image, 0);
  }
}

VALUE rf_field_default(const rf_field *f) {
  if (f->def == FBE_DEFAULT_FRESH) return fresh(f->type, f->image);
  if (f->def == FBE_DEFAULT_SHARED) return RB_TYPE_P(f->shared, T_STRING) ? rb_str_dup(f->shared) : f->shared;
  if (f->f->def.kind == FBE_DEF_UTC) return ULL2NUM(fbei_now_ns()); /* DYNAMIC */
  fbe_uuid u;
  if (f->f->def.kind == FBE_DEF_UUID1) fbei_uuid_v1(u.bytes);
  else fbei_uuid_v4(u.bytes);
  return rf_get_uuid(u.bytes);
}

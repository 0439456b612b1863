/* The core's in-memory value -> Ruby objects, walked by the struct's field table.
 * Struct instances are allocated without #initialize and their members set directly;
 * enums and flags are Integers (so values the schema does not name survive). Also the
 * defaults of new instances. */
#include <string.h>
#include "rbfbe.h"

/* BigDecimal keeps no scale (1.50 == 1.5 is stored as 0.15e1) and -0 with scale 0 reads
 * as 0, so a decoded decimal whose wire form is not the shortest one (trailing zeros,
 * a zero with a scale or a sign) remembers its scale and sign in a WeakMap keyed by the
 * BigDecimal object (an Integer: scale | negative << 8): decode -> encode then gives the
 * same bytes. */
VALUE rf_decimal_scales = Qnil;
int rf_decimal_scales_used;

static int needs_exact_bytes(const uint8_t b[16]) {
  uint32_t scale = b[14], rem = 0;
  int negative = (b[15] & 0x80) != 0;
  for (int i = 11; i >= 0; i--) rem = (rem * 256 + b[i]) % 10; /* coefficient mod 10 */
  int zero = 1;
  for (int i = 0; i < 12; i++) zero &= b[i] == 0;
  return (scale > 0 && rem == 0) || (zero && negative);
}

VALUE rf_decimal_from_bytes(const uint8_t b[16]) {
  fbe_decimal d;
  memcpy(d.bytes, b, 16);
  char text[64];
  fbe_decimal_format(&d, text, sizeof text);
  VALUE v = rb_funcall(rb_mKernel, rf_id_BigDecimal, 1, rb_str_new_cstr(text));
  if (needs_exact_bytes(b)) {
    if (NIL_P(rf_decimal_scales)) {
      rf_decimal_scales = rb_class_new_instance(0, NULL, rb_path2class("ObjectSpace::WeakMap"));
      rb_gc_register_mark_object(rf_decimal_scales);
    }
    rb_funcall(rf_decimal_scales, rb_intern("[]="), 2, v, INT2FIX(b[14] | ((b[15] & 0x80) << 1)));
    rf_decimal_scales_used = 1;
  }
  return v;
}

static VALUE get_uuid(const uint8_t b[16]) {
  fbe_uuid u;
  char text[37];
  memcpy(u.bytes, b, 16);
  fbe_uuid_format(&u, text);
  return rb_usascii_str_new(text, 36);
}

static VALUE get_string(rf_walk *w, const fbe_str *s) {
  VALUE v = rb_utf8_str_new(s->size ? (const char *)s->data : "", (long)s->size);
  if (rb_enc_str_coderange(v) == ENC_CODERANGE_BROKEN)
    rf_walk_raise(w, FBE_ERR_MALFORMED, "string is not valid UTF-8");
  return v;
}

static VALUE get_list(rf_walk *w, const rf_type *elem, const uint8_t *data, uint32_t n) {
  VALUE ary = rb_ary_new_capa(n);
  uint32_t size = elem->t->mem_size;
  for (uint32_t i = 0; i < n; i++) {
    rf_push_index(w, i);
    rb_ary_push(ary, rf_get_value(w, elem, data + (size_t)i * size));
    rf_pop(w);
  }
  return ary;
}

static VALUE get_set(rf_walk *w, const rf_type *t, const fbe_vec *vec) {
  VALUE ary = get_list(w, t->elem, vec->data, vec->count);
  if (w->ordered) return ary;
  return rb_class_new_instance(1, &ary, rf_cSet);
}

static VALUE get_map(rf_walk *w, const rf_type *t, const fbe_vec *vec) {
  VALUE out = w->ordered ? rb_ary_new_capa(vec->count) : rb_hash_new();
  const uint8_t *pair = vec->data;
  for (uint32_t i = 0; i < vec->count; i++, pair += t->t->pair_stride) {
    rf_push_index(w, i);
    rf_push_name(w, "[key]");
    VALUE k = rf_get_value(w, t->key, pair);
    rf_pop(w);
    VALUE v = rf_get_value(w, t->elem, pair + t->t->pair_value_offset);
    rf_pop(w);
    if (w->ordered) rb_ary_push(out, rb_assoc_new(k, v));
    else rb_hash_aset(out, k, v);
  }
  return out;
}

VALUE rf_get_value(rf_walk *w, const rf_type *t, const uint8_t *slot) {
  switch (t->kind) {
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
    case FBE_KIND_DECIMAL: return rf_decimal_from_bytes(slot);
    case FBE_KIND_UUID: return get_uuid(slot);
    case FBE_KIND_STRING: return get_string(w, (const fbe_str *)(const void *)slot);
    case FBE_KIND_BYTES: {
      const fbe_str *s = (const fbe_str *)(const void *)slot;
      return rb_str_new(s->size ? (const char *)s->data : "", (long)s->size);
    }
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: {
      uint64_t x = fbe_scalar_load(t->wire, slot);
      return t->en->is_signed ? LL2NUM((int64_t)x) : ULL2NUM(x);
    }
    case FBE_KIND_STRUCT: return rf_get_struct(w, t->st, slot);
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)(const void *)slot;
      return inner ? rf_get_value(w, t->elem, inner) : Qnil;
    }
    case FBE_KIND_ARRAY: return get_list(w, t->elem, slot, t->t->array_size);
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: {
      const fbe_vec *vec = (const fbe_vec *)(const void *)slot;
      return get_list(w, t->elem, vec->data, vec->count);
    }
    case FBE_KIND_SET: return get_set(w, t, (const fbe_vec *)(const void *)slot);
    case FBE_KIND_MAP: case FBE_KIND_HASH: return get_map(w, t, (const fbe_vec *)(const void *)slot);
    default: rf_walk_raise(w, FBE_ERR_TYPE, "unsupported type %s", fbe_kind_name(t->kind));
  }
}

VALUE rf_get_struct(rf_walk *w, const rf_struct *si, const uint8_t *slot) {
  if (!si->is_rstruct) return rb_obj_alloc(si->klass);
  VALUE obj = rb_struct_alloc_noinit(si->klass);
  for (uint32_t i = 0; i < si->nfields; i++) {
    const rf_field *f = &si->fields[i];
    rf_push_name(w, f->f->name);
    RSTRUCT_SET(obj, (long)i, rf_get_value(w, f->type, slot + f->f->mem_offset));
    rf_pop(w);
  }
  return obj;
}

/* ------------------------------------------------------------------ defaults */

static VALUE new_default(const rf_struct *si);

static VALUE fresh(const rf_type *t, const uint8_t *image) {
  switch (t->kind) {
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
    default: {
      rf_walk w;
      memset(&w, 0, sizeof w);
      return rf_get_value(&w, t, image);
    }
  }
}

VALUE rf_field_default(const rf_field *f) {
  switch (f->def_kind) {
    case RF_DEF_CONST:
      return RB_TYPE_P(f->def_value, T_STRING) ? rb_str_dup(f->def_value) : f->def_value;
    case RF_DEF_DYNAMIC: {
      uint8_t b[16];
      if (f->f->def.kind == FBE_DEF_UTC) return ULL2NUM(fbe_now_ns());
      if (f->f->def.kind == FBE_DEF_UUID1) fbe_uuid_v1(b);
      else fbe_uuid_v4(b);
      fbe_uuid u;
      char text[37];
      memcpy(u.bytes, b, 16);
      fbe_uuid_format(&u, text);
      return rb_usascii_str_new(text, 36);
    }
    default: return fresh(f->type, f->image);
  }
}

static VALUE new_default(const rf_struct *si) {
  if (!si->is_rstruct) return rb_obj_alloc(si->klass);
  VALUE obj = rb_struct_alloc_noinit(si->klass);
  for (uint32_t i = 0; i < si->nfields; i++) RSTRUCT_SET(obj, (long)i, rf_field_default(&si->fields[i]));
  return obj;
}

/* Ruby scalars <-> the core's scalar slots: integers (the core's range rule), chars,
 * timestamps, floats, decimals, uuids, strings and bytes. The puts write the slot and
 * return FBE_OK, or the status with w->err set in the core's words (the caller puts the
 * path in front). Strings are copied into the arena: a value never points into a Ruby
 * object, which GC compaction or a callback could move. */
#include <math.h>
#include <string.h>
#include "binding.h"
#include "fbe/internal/kinds.h"

VALUE rf_cBigDecimal, rf_cSet;
static VALUE decimal_scales = Qnil; /* WeakMap BigDecimal -> its scale and sign (rf_get_decimal) */
static ID id_BigDecimal, id_to_s, id_aref, id_aset, id_split, id_zero_p, id_ord;

static const char *class_name(VALUE v) {
  if (NIL_P(v)) return "nil";
  if (v == Qtrue) return "true";
  if (v == Qfalse) return "false";
  rf_struct *si = SPECIAL_CONST_P(v) ? NULL : rf_info_try(rb_obj_class(v));
  return si ? si->st->full_name : rb_obj_classname(v); /* "proto.Order", not the anonymous class */
}

fbe_status rf_type_error(rf_walk *w, const char *want, VALUE v) {
  return fbei_error_set(&w->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "expected %s, got %s", want, class_name(v));
}

/* "value V does not fit KIND" (fbei_error_range); name: a named type's (an enum) or
 * "a double exactly", in the same words. */
static fbe_status range_error(rf_walk *w, VALUE v, fbe_kind kind, const char *name) {
  VALUE s = rb_inspect(v);
  if (!name) return fbei_error_range(&w->err, RSTRING_PTR(s), kind);
  return fbei_error_set(&w->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "value %.60s%s does not fit %s", RSTRING_PTR(s),
                       RSTRING_LEN(s) > 60 ? "..." : "", name);
}

fbe_status rf_put_int(rf_walk *w, VALUE v, fbe_kind wire, fbe_kind kind, const char *name, uint8_t *slot) {
  uint64_t mag = 0;
  bool neg;
  if (FIXNUM_P(v)) {
    long x = FIX2LONG(v);
    neg = x < 0;
    mag = neg ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
  } else if (RB_TYPE_P(v, T_BIGNUM)) {
    int sign = rb_integer_pack(v, &mag, 1, sizeof mag, 0, INTEGER_PACK_LSWORD_FIRST | INTEGER_PACK_NATIVE_BYTE_ORDER);
    if (sign == 2 || sign == -2) return range_error(w, v, kind, name); /* beyond 64 bits */
    neg = sign < 0;
  } else {
    return rf_type_error(w, "Integer", v);
  }
  if (!fbei_int_fits(wire, neg, mag)) return range_error(w, v, kind, name);
  fbei_scalar_store(wire, slot, fbei_int_pattern(neg, mag));
  return FBE_OK;
}

/* char and wchar also take a one-character String. */
static fbe_status put_char(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  if (!RB_TYPE_P(v, T_STRING)) return rf_put_int(w, v, t->wire, t->kind, NULL, slot);
  if (rb_enc_str_coderange(v) == ENC_CODERANGE_BROKEN)
    return fbei_error_set(&w->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "String is not valid %s", rb_enc_name(rb_enc_get(v)));
  if (rb_str_strlen(v) != 1)
    return fbei_error_set(&w->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "expected one character for %s, got a String of %ld",
                         fbe_kind_name(t->kind), rb_str_strlen(v));
  uint64_t ch = NUM2ULL(rb_funcall(v, id_ord, 0));
  if (!fbei_int_fits(t->wire, false, ch)) return range_error(w, v, t->kind, NULL);
  fbei_scalar_store(t->wire, slot, ch);
  return FBE_OK;
}

/* A timestamp: Integer nanoseconds since the epoch, or a Time. */
static fbe_status put_timestamp(rf_walk *w, VALUE v, uint8_t *slot) {
  if (!rb_obj_is_kind_of(v, rb_cTime)) return rf_put_int(w, v, FBE_KIND_TIMESTAMP, FBE_KIND_TIMESTAMP, NULL, slot);
  struct timespec ts = rb_time_timespec(v);
  if (ts.tv_sec < 0) return range_error(w, v, FBE_KIND_TIMESTAMP, NULL);
  fbei_scalar_store(FBE_KIND_TIMESTAMP, slot, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
  return FBE_OK;
}

/* A Float, or an Integer a double holds exactly. */
static fbe_status put_float(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  double d;
  if (RB_FLOAT_TYPE_P(v)) {
    d = RFLOAT_VALUE(v);
  } else if (FIXNUM_P(v)) {
    long x = FIX2LONG(v);
    d = (double)x;
    if ((x > (1L << 53) || x < -(1L << 53)) && (d >= 9223372036854775808.0 || (long)d != x))
      return range_error(w, v, t->kind, "a double exactly");
  } else if (RB_TYPE_P(v, T_BIGNUM)) {
    d = rb_big2dbl(v);
    if (isinf(d) || !rb_equal(rb_dbl2big(d), v)) return range_error(w, v, t->kind, "a double exactly");
  } else {
    return rf_type_error(w, "Float", v);
  }
  if (t->wire == FBE_KIND_DOUBLE) {
    memcpy(slot, &d, 8);
    return FBE_OK;
  }
  float f = (float)d;
  if (isinf(f) && !isinf(d)) return range_error(w, v, FBE_KIND_FLOAT, NULL);
  memcpy(slot, &f, 4);
  return FBE_OK;
}

/* BigDecimal keeps no scale (1.50 is 0.15e1) and -0 with scale 0 reads as 0, so a
 * decoded decimal whose wire form is not the shortest one (trailing zeros, a zero with
 * a scale or a sign) remembers its scale and sign in decimal_scales (scale | negative
 * << 8): decode -> encode gives the same bytes. */
static int needs_scale(const uint8_t b[16]) {
  uint32_t rem = 0, zero = 1;
  for (int i = 11; i >= 0; i--) rem = (rem * 256 + b[i]) % 10; /* the coefficient mod 10 */
  for (int i = 0; i < 12; i++) zero &= b[i] == 0;
  return (b[14] > 0 && rem == 0) || (zero && (b[15] & 0x80));
}

VALUE rf_get_decimal(const uint8_t b[16]) {
  fbe_decimal d;
  char text[64];
  memcpy(d.bytes, b, 16);
  fbe_decimal_format(&d, text, sizeof text);
  VALUE v = rb_funcall(rb_mKernel, id_BigDecimal, 1, rb_str_new_cstr(text));
  if (!needs_scale(b)) return v;
  if (NIL_P(decimal_scales))
    rb_gc_register_mark_object(decimal_scales = rb_class_new_instance(0, NULL, rb_path2class("ObjectSpace::WeakMap")));
  rb_funcall(decimal_scales, id_aset, 2, v, INT2FIX(b[14] | ((b[15] & 0x80) << 1)));
  return v;
}

/* The text fbe_decimal_parse reads for a BigDecimal: digits, zeros, "E-scale" when it
 * remembers a scale (the parser keeps that scale). */
static VALUE decimal_text(VALUE v) {
  VALUE exact = NIL_P(decimal_scales) ? Qnil : rb_funcall(decimal_scales, id_aref, 1, v);
  if (!FIXNUM_P(exact)) return RTEST(rb_funcall(v, id_zero_p, 0)) ? rb_str_new_cstr("0")
                                                                   : rb_funcall(v, id_to_s, 1, rb_str_new_cstr("E"));
  long scale = FIX2LONG(exact) & 0xff, negative = FIX2LONG(exact) >> 8;
  VALUE parts = rb_funcall(v, id_split, 0); /* [sign, "digits", 10, exponent] */
  VALUE digits = rb_ary_entry(parts, 1), text = rb_str_new_cstr(negative ? "-" : "");
  rb_str_append(text, digits);
  for (long i = NUM2LONG(rb_ary_entry(parts, 3)) - RSTRING_LEN(digits) + scale; i > 0; i--) rb_str_cat(text, "0", 1);
  rb_str_catf(text, "E-%ld", scale);
  return text;
}

static fbe_status put_decimal(rf_walk *w, VALUE v, uint8_t *slot) {
  VALUE text;
  if (RB_INTEGER_TYPE_P(v)) text = rb_funcall(v, id_to_s, 0);
  else if (RTEST(rb_obj_is_kind_of(v, rf_cBigDecimal))) text = decimal_text(v);
  else return rf_type_error(w, "BigDecimal or Integer", v);
  fbe_decimal d;
  fbe_status st = fbe_decimal_parse(RSTRING_PTR(text), (size_t)RSTRING_LEN(text), &d);
  if (st == FBE_ERR_RANGE) return fbei_error_decimal_range(&w->err, RSTRING_PTR(text));
  if (st) return fbei_error_set(&w->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "decimal %.60s is not a finite number",
                               RSTRING_PTR(text));
  memcpy(slot, d.bytes, 16);
  RB_GC_GUARD(text);
  return FBE_OK;
}

static fbe_status put_uuid(rf_walk *w, VALUE v, uint8_t *slot) {
  if (!RB_TYPE_P(v, T_STRING)) return rf_type_error(w, "String (a uuid)", v);
  fbe_uuid u;
  if (fbe_uuid_parse(RSTRING_PTR(v), (size_t)RSTRING_LEN(v), &u))
    return fbei_error_set(&w->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "'%.*s' is not a uuid (8-4-4-4-12 hex digits)",
                         (int)(RSTRING_LEN(v) < 60 ? RSTRING_LEN(v) : 60), RSTRING_PTR(v));
  memcpy(slot, u.bytes, 16);
  return FBE_OK;
}

VALUE rf_get_uuid(const uint8_t b[16]) {
  fbe_uuid u;
  char text[37];
  memcpy(u.bytes, b, 16);
  fbe_uuid_format(&u, text);
  return rb_usascii_str_new(text, 36);
}

/* A String's bytes into the arena; a string's as UTF-8 (converted from another
 * encoding), checked by the core's rule and words (the same in every binding). */
static fbe_status put_string(rf_walk *w, VALUE v, int is_bytes, fbei_str *s) {
  if (!RB_TYPE_P(v, T_STRING)) return rf_type_error(w, is_bytes ? "String (bytes)" : "String", v);
  int idx = ENCODING_GET(v);
  if (!is_bytes && idx != rb_utf8_encindex() && idx != rb_usascii_encindex()) {
    if (idx == rb_ascii8bit_encindex()) { /* binary bytes: fine when they are UTF-8 */
      v = rb_enc_associate_index(rb_str_dup(v), rb_utf8_encindex());
    } else if (ENCODING_GET(v = rb_str_conv_enc(v, rb_enc_from_index(idx), rb_utf8_encoding())) != rb_utf8_encindex()) {
      return fbei_error_set(&w->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "String in %s has no UTF-8 form",
                           rb_enc_name(rb_enc_from_index(idx)));
    }
  }
  long n = RSTRING_LEN(v);
  if (!is_bytes && fbe_utf8_check(RSTRING_PTR(v), (size_t)n, &w->err)) {
    w->err.offset = FBE_NO_OFFSET; /* an offset in the Ruby string, not in any input */
    return w->err.code;
  }
  if ((unsigned long)n > UINT32_MAX)
    return fbei_error_set(&w->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "%ld bytes do not fit FBE's 32-bit size", n);
  s->size = (uint32_t)n;
  s->data = NULL;
  if (n) {
    uint8_t *p = fbe_arena_alloc(w->arena, (size_t)n);
    if (!p) rb_memerror();
    s->data = memcpy(p, RSTRING_PTR(v), (size_t)n);
  }
  RB_GC_GUARD(v);
  return FBE_OK;
}

fbe_status rf_put_scalar(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  switch (t->kind) {
    case FBE_KIND_BOOL:
      if (v != Qtrue && v != Qfalse) return rf_type_error(w, "true or false", v);
      *slot = v == Qtrue;
      return FBE_OK;
    case FBE_KIND_CHAR: case FBE_KIND_WCHAR: return put_char(w, v, t, slot);
    case FBE_KIND_TIMESTAMP: return put_timestamp(w, v, slot);
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: return put_float(w, v, t, slot);
    case FBE_KIND_DECIMAL: return put_decimal(w, v, slot);
    case FBE_KIND_UUID: return put_uuid(w, v, slot);
    case FBE_KIND_STRING: return put_string(w, v, 0, (fbei_str *)(void *)slot);
    case FBE_KIND_BYTES: return put_string(w, v, 1, (fbei_str *)(void *)slot);
    default: return rf_put_int(w, v, t->wire, t->kind, NULL, slot); /* byte and the integer kinds */
  }
}

void rf_init_convert(void) {
  rb_require("bigdecimal");
  rb_require("set");
  rb_gc_register_mark_object(rf_cBigDecimal = rb_const_get(rb_cObject, rb_intern("BigDecimal")));
  rb_gc_register_mark_object(rf_cSet = rb_const_get(rb_cObject, rb_intern("Set")));
  id_BigDecimal = rb_intern("BigDecimal");
  id_to_s = rb_intern("to_s");
  id_aref = rb_intern("[]");
  id_aset = rb_intern("[]=");
  id_split = rb_intern("split");
  id_zero_p = rb_intern("zero?");
  id_ord = rb_intern("ord");
}

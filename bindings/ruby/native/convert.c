/* Ruby scalars <-> the core's scalar slots, by the input table (docs/INPUT.md):
 * integers, chars, timestamps, floats, decimals, uuids, strings and bytes. The puts
 * write the slot and return FBE_OK, or the status with w->err set by the core's input
 * vocabulary (fbe/internal/input.h; the caller puts the path in front): this file only
 * says what kind of Ruby value it was given (rf_got). Strings are copied into the
 * arena: a value never points into a Ruby object, which GC compaction or a callback
 * could move. */
#include <math.h>
#include <string.h>
#include "binding.h"
#include "fbe/internal/kinds.h"

VALUE rf_cBigDecimal, rf_cSet;
static VALUE decimal_scales = Qnil; /* WeakMap BigDecimal -> its scale and sign (rf_get_decimal) */
static ID id_BigDecimal, id_to_s, id_aref, id_aset, id_split, id_zero_p, id_ord;
static int enc_binary, enc_utf8, enc_ascii; /* the encoding indexes, asked once (every string checks them) */

fbei_got rf_got(VALUE v, const char **name) {
  *name = NULL;
  if (NIL_P(v)) return FBEI_GOT_NULL;
  if (v == Qtrue || v == Qfalse) return FBEI_GOT_BOOL;
  if (RB_INTEGER_TYPE_P(v)) return FBEI_GOT_INTEGER;
  if (RB_FLOAT_TYPE_P(v)) return FBEI_GOT_FLOAT;
  if (RB_TYPE_P(v, T_STRING)) return ENCODING_GET(v) == enc_binary ? FBEI_GOT_BYTES : FBEI_GOT_STRING;
  if (RB_TYPE_P(v, T_ARRAY)) return FBEI_GOT_LIST;
  if (RB_TYPE_P(v, T_HASH)) return FBEI_GOT_MAP;
  if (!SPECIAL_CONST_P(v)) {
    if (RTEST(rb_obj_is_kind_of(v, rf_cSet))) return FBEI_GOT_SET;
    if (RTEST(rb_obj_is_kind_of(v, rb_cTime))) return FBEI_GOT_TIME;
    if (RTEST(rb_obj_is_kind_of(v, rf_cBigDecimal))) return FBEI_GOT_DECIMAL;
    rf_struct *si = rf_info_try(rb_obj_class(v));
    if (si) {
      *name = si->st->full_name; /* "proto.Order", not the anonymous class */
      return FBEI_GOT_STRUCT;
    }
  }
  *name = rb_obj_classname(v);
  return FBEI_GOT_OTHER;
}

fbe_status rf_type_error(rf_walk *w, const fbe_type *want, VALUE v) {
  const char *name;
  fbei_got got = rf_got(v, &name);
  return fbei_error_type(&w->err, want, got, name);
}

/* "value V does not fit KIND": enums and flags by their base kind. */
static fbe_status range_error(rf_walk *w, VALUE v, const fbe_type *t) {
  VALUE s = rb_obj_as_string(v);
  fbe_kind kind = t->kind == FBE_KIND_ENUM || t->kind == FBE_KIND_FLAGS ? t->wire : t->kind;
  fbe_status st = fbei_error_range(&w->err, StringValueCStr(s), kind);
  RB_GC_GUARD(s);
  return st;
}

fbe_status rf_put_int(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  uint64_t mag = 0;
  bool neg;
  if (FIXNUM_P(v)) {
    long x = FIX2LONG(v);
    neg = x < 0;
    mag = neg ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
  } else if (RB_TYPE_P(v, T_BIGNUM)) {
    int sign = rb_integer_pack(v, &mag, 1, sizeof mag, 0, INTEGER_PACK_LSWORD_FIRST | INTEGER_PACK_NATIVE_BYTE_ORDER);
    if (sign == 2 || sign == -2) return range_error(w, v, t); /* beyond 64 bits */
    neg = sign < 0;
  } else {
    return rf_type_error(w, t, v);
  }
  if (!fbei_int_fits(t->wire, neg, mag)) return range_error(w, v, t);
  fbei_scalar_store(t->wire, slot, fbei_int_pattern(neg, mag));
  return FBE_OK;
}

/* v (a String) as UTF-8: converted from another encoding, checked by the core's rule
 * and words (fbe_utf8_check: FBE_ERR_ARGUMENT); binary Strings holding UTF-8 are fine. */
static fbe_status utf8_of(rf_walk *w, VALUE v, VALUE *out) {
  int idx = ENCODING_GET(v);
  if (idx == enc_binary) {
    v = rb_enc_associate_index(rb_str_dup(v), enc_utf8);
  } else if (idx != enc_utf8 && idx != enc_ascii) {
    VALUE conv = rb_str_conv_enc(v, rb_enc_from_index(idx), rb_utf8_encoding());
    if (ENCODING_GET(conv) == enc_utf8) v = conv; /* else not convertible: the check says why */
  }
  *out = v;
  if (!fbe_utf8_check(RSTRING_PTR(v), (size_t)RSTRING_LEN(v), &w->err)) return FBE_OK;
  w->err.offset = FBE_NO_OFFSET; /* an offset in the Ruby string, not in any input */
  return w->err.code;
}

/* char and wchar also take a one-character String. */
static fbe_status put_char(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  if (!RB_TYPE_P(v, T_STRING)) return rf_put_int(w, v, t, slot);
  VALUE s;
  fbe_status st = utf8_of(w, v, &s);
  if (st) return st;
  if (rb_str_strlen(s) != 1) return fbei_error_bad_text(&w->err, t->kind, RSTRING_PTR(s), (size_t)RSTRING_LEN(s));
  return rf_put_int(w, rb_funcall(s, id_ord, 0), t, slot);
}

/* A timestamp: Integer nanoseconds since the epoch, or a Time. */
static fbe_status put_timestamp(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  if (SPECIAL_CONST_P(v) || !RTEST(rb_obj_is_kind_of(v, rb_cTime))) return rf_put_int(w, v, t, slot);
  struct timespec ts = rb_time_timespec(v);
  uint64_t sec = (uint64_t)ts.tv_sec, ns = (uint64_t)ts.tv_nsec;
  if (ts.tv_sec < 0 || sec > (UINT64_MAX - ns) / 1000000000u) { /* before 1970, or beyond 2^64 ns */
    VALUE total = rb_funcall(rb_funcall(LL2NUM((long long)ts.tv_sec), '*', 1, INT2FIX(1000000000)), '+', 1,
                             LONG2NUM(ts.tv_nsec));
    return range_error(w, total, t);
  }
  fbei_scalar_store(FBE_KIND_TIMESTAMP, slot, sec * 1000000000u + ns);
  return FBE_OK;
}

/* A Float, or an Integer (the nearest double). */
static fbe_status put_float(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  double d;
  if (RB_FLOAT_TYPE_P(v)) {
    d = RFLOAT_VALUE(v);
  } else if (FIXNUM_P(v)) {
    d = (double)FIX2LONG(v);
  } else if (RB_TYPE_P(v, T_BIGNUM)) {
    /* rb_big2dbl warns beyond the doubles: at most 1024 bits get there */
    if (rb_absint_numwords(v, 1, NULL) > 1024 || isinf(d = rb_big2dbl(v))) return range_error(w, v, t);
  } else {
    return rf_type_error(w, t, v);
  }
  if (t->wire == FBE_KIND_DOUBLE) {
    memcpy(slot, &d, 8);
    return FBE_OK;
  }
  float f = (float)d;
  if (isinf(f) && !isinf(d)) return range_error(w, v, t);
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
 * remembers a scale (the parser keeps that scale). NaN and the infinities give their
 * own words, which the parser refuses. */
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

/* A decimal: a BigDecimal, an Integer or its text; never a Float (not exact). */
static fbe_status put_decimal(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  VALUE text;
  if (RB_INTEGER_TYPE_P(v)) text = rb_funcall(v, id_to_s, 0);
  else if (RB_TYPE_P(v, T_STRING)) text = v;
  else if (!SPECIAL_CONST_P(v) && RTEST(rb_obj_is_kind_of(v, rf_cBigDecimal))) text = decimal_text(v);
  else return rf_type_error(w, t, v);
  fbe_decimal d;
  const char *p = RSTRING_PTR(text);
  size_t n = (size_t)RSTRING_LEN(text);
  fbe_status st = fbe_decimal_parse(p, n, &d);
  if (st == FBE_ERR_RANGE) st = fbei_error_decimal_range(&w->err, StringValueCStr(text));
  else if (st) st = fbei_error_bad_text(&w->err, FBE_KIND_DECIMAL, p, n);
  else memcpy(slot, d.bytes, 16);
  RB_GC_GUARD(text);
  return st;
}

/* A uuid: its text, in any case (Ruby's standard library has no uuid type). */
static fbe_status put_uuid(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot) {
  if (!RB_TYPE_P(v, T_STRING)) return rf_type_error(w, t, v);
  fbe_uuid u;
  if (fbe_uuid_parse(RSTRING_PTR(v), (size_t)RSTRING_LEN(v), &u))
    return fbei_error_bad_text(&w->err, FBE_KIND_UUID, RSTRING_PTR(v), (size_t)RSTRING_LEN(v));
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

/* A String's bytes into the arena; a string's as UTF-8 (utf8_of). */
static fbe_status put_string(rf_walk *w, VALUE v, const fbe_type *t, fbei_str *s) {
  if (!RB_TYPE_P(v, T_STRING)) return rf_type_error(w, t, v);
  if (t->kind == FBE_KIND_STRING) {
    fbe_status st = utf8_of(w, v, &v);
    if (st) return st;
  }
  long n = RSTRING_LEN(v);
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
      if (v != Qtrue && v != Qfalse) return rf_type_error(w, t, v);
      *slot = v == Qtrue;
      return FBE_OK;
    case FBE_KIND_CHAR: case FBE_KIND_WCHAR: return put_char(w, v, t, slot);
    case FBE_KIND_TIMESTAMP: return put_timestamp(w, v, t, slot);
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: return put_float(w, v, t, slot);
    case FBE_KIND_DECIMAL: return put_decimal(w, v, t, slot);
    case FBE_KIND_UUID: return put_uuid(w, v, t, slot);
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return put_string(w, v, t, (fbei_str *)(void *)slot);
    default: return rf_put_int(w, v, t, slot); /* byte and the integer kinds */
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
  enc_binary = rb_ascii8bit_encindex();
  enc_utf8 = rb_utf8_encindex();
  enc_ascii = rb_usascii_encindex();
}

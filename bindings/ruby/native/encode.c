/* Ruby objects -> the core's in-memory value (value.h), walked once per message by the
 * struct's field table. Every function writes a complete value of its type into `slot`
 * or raises an FBE::Error naming the path. Strings are copied into the arena, so the
 * value never points into a Ruby object (GC compaction and callbacks cannot move it). */
#include <math.h>
#include <string.h>
#include "rbfbe.h"

static void put_value(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot);

static const char *class_name(VALUE v) {
  if (NIL_P(v)) return "nil";
  if (v == Qtrue) return "true";
  if (v == Qfalse) return "false";
  rf_struct *si = SPECIAL_CONST_P(v) ? NULL : rf_info_try(rb_obj_class(v));
  return si ? si->st->full_name : rb_obj_classname(v); /* "proto.Order", not the anonymous path */
}

NORETURN(static void type_error(rf_walk *w, const char *want, VALUE v));
static void type_error(rf_walk *w, const char *want, VALUE v) {
  rf_walk_raise(w, FBE_ERR_TYPE, "expected %s, got %s", want, class_name(v));
}

NORETURN(static void range_error(rf_walk *w, VALUE v, const char *what));
static void range_error(rf_walk *w, VALUE v, const char *what) {
  VALUE s = rb_inspect(v);
  rf_walk_raise(w, FBE_ERR_RANGE, "value %.60s%s does not fit %s", RSTRING_PTR(s),
                RSTRING_LEN(s) > 60 ? "..." : "", what);
}

static void *walk_alloc(rf_walk *w, size_t n) {
  void *p = fbe_arena_alloc(w->arena, n ? n : 1);
  if (!p) rb_memerror();
  return p;
}

static void enter(rf_walk *w) {
  if (++w->depth > FBE_DEFAULT_MAX_DEPTH)
    rf_walk_raise(w, FBE_ERR_LIMIT, "value nested deeper than %u levels", FBE_DEFAULT_MAX_DEPTH);
}

/* An Integer of kind `wire`, range-checked; returns the 64-bit pattern. */
static uint64_t get_int(rf_walk *w, VALUE v, fbe_kind wire, const char *label) {
  unsigned bits = fbe_kind_bits(wire);
  int is_signed = fbe_kind_is_signed(wire);
  if (FIXNUM_P(v)) {
    long x = FIX2LONG(v);
    if (is_signed) {
      if (bits < 64 && (x < -(1L << (bits - 1)) || x >= (1L << (bits - 1)))) range_error(w, v, label);
    } else if (x < 0 || (bits < 64 && ((unsigned long)x >> bits))) {
      range_error(w, v, label);
    }
    return (uint64_t)x;
  }
  if (!RB_TYPE_P(v, T_BIGNUM)) type_error(w, "Integer", v);
  uint64_t mag = 0;
  int sign = rb_integer_pack(v, &mag, 1, sizeof mag, 0, INTEGER_PACK_LSWORD_FIRST | INTEGER_PACK_NATIVE_BYTE_ORDER);
  if (sign == 2 || sign == -2 || bits < 64) range_error(w, v, label); /* bignums exceed 62 bits */
  if (is_signed) {
    if (sign > 0 ? mag > (uint64_t)INT64_MAX : mag > (uint64_t)INT64_MAX + 1) range_error(w, v, label);
    return sign < 0 ? (uint64_t)0 - mag : mag;
  }
  if (sign < 0) range_error(w, v, label);
  return mag;
}

/* char / wchar also take a one-character String. */
static uint64_t get_char(rf_walk *w, const rf_type *t, VALUE v) {
  if (RB_TYPE_P(v, T_STRING)) {
    if (rb_enc_str_coderange(v) == ENC_CODERANGE_BROKEN)
      rf_walk_raise(w, FBE_ERR_TYPE, "String is not valid %s", rb_enc_name(rb_enc_get(v)));
    if (rb_str_strlen(v) != 1)
      rf_walk_raise(w, FBE_ERR_TYPE, "expected one character for %s, got a String of %ld",
                    fbe_kind_name(t->kind), rb_str_strlen(v));
    VALUE cp = rb_funcall(v, rb_intern("ord"), 0);
    uint64_t ch = NUM2ULL(cp);
    if (t->wire == FBE_KIND_CHAR && ch > 0xFF) range_error(w, v, "char");
    return ch;
  }
  return get_int(w, v, t->wire, fbe_kind_name(t->kind));
}

/* A timestamp: Integer nanoseconds since the epoch, or a Time. */
static uint64_t get_timestamp(rf_walk *w, VALUE v) {
  if (rb_obj_is_kind_of(v, rb_cTime)) {
    struct timespec ts = rb_time_timespec(v);
    if (ts.tv_sec < 0) range_error(w, v, "timestamp");
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  }
  return get_int(w, v, FBE_KIND_UINT64, "timestamp");
}

static void put_float(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) {
  double d;
  if (RB_FLOAT_TYPE_P(v)) {
    d = RFLOAT_VALUE(v);
  } else if (FIXNUM_P(v)) {
    long x = FIX2LONG(v);
    d = (double)x;
    if ((x > (1L << 53) || x < -(1L << 53)) && (d >= 9223372036854775808.0 || (long)d != x))
      range_error(w, v, "a double exactly");
  } else if (RB_TYPE_P(v, T_BIGNUM)) {
    d = rb_big2dbl(v);
    if (isinf(d) || !rb_equal(rb_dbl2big(d), v)) range_error(w, v, "a double exactly");
  } else {
    type_error(w, "Float", v);
  }
  if (t->wire == FBE_KIND_FLOAT) {
    float f = (float)d;
    if (isinf(f) && !isinf(d)) range_error(w, v, "float");
    memcpy(slot, &f, 4);
  } else {
    memcpy(slot, &d, 8);
  }
}

static void put_decimal(rf_walk *w, VALUE v, uint8_t *slot) {
  VALUE text;
  if (FIXNUM_P(v) || RB_TYPE_P(v, T_BIGNUM)) {
    text = rb_funcall(v, rf_id_to_s, 0);
  } else if (RTEST(rb_obj_is_kind_of(v, rf_cBigDecimal))) {
    VALUE exact = rf_decimal_scales_used ? rb_funcall(rf_decimal_scales, rb_intern("[]"), 1, v) : Qnil;
    if (FIXNUM_P(exact)) { /* decoded with more scale than it needs, or a signed zero */
      long scale = FIX2LONG(exact) & 0xff, negative = FIX2LONG(exact) >> 8;
      VALUE parts = rb_funcall(v, rb_intern("split"), 0); /* [sign, "digits", 10, exponent] */
      VALUE digits = rb_ary_entry(parts, 1);
      long zeros = NUM2LONG(rb_ary_entry(parts, 3)) - RSTRING_LEN(digits) + scale;
      text = rb_str_new_cstr(negative ? "-" : "");
      rb_str_append(text, digits); /* digits + zeros, "E-scale": the parser keeps that scale */
      for (long i = 0; i < zeros; i++) rb_str_cat(text, "0", 1);
      rb_str_catf(text, "E-%ld", scale);
    } else if (RTEST(rb_funcall(v, rb_intern("zero?"), 0))) {
      text = rb_str_new_cstr("0");
    } else {
      text = rb_funcall(v, rf_id_to_s, 1, rb_str_new_cstr("E"));
    }
  } else {
    type_error(w, "BigDecimal or Integer", v);
  }
  fbe_decimal d;
  fbe_status st = fbe_decimal_parse(RSTRING_PTR(text), (size_t)RSTRING_LEN(text), &d);
  if (st == FBE_ERR_RANGE)
    rf_walk_raise(w, FBE_ERR_RANGE, "decimal %.60s does not fit FBE's decimal (96-bit coefficient, scale 0..28)",
                  RSTRING_PTR(text));
  if (st) rf_walk_raise(w, FBE_ERR_RANGE, "decimal %.60s is not a finite number", RSTRING_PTR(text));
  memcpy(slot, d.bytes, 16);
  RB_GC_GUARD(text);
}

static void put_uuid(rf_walk *w, VALUE v, uint8_t *slot) {
  if (!RB_TYPE_P(v, T_STRING)) type_error(w, "String (a uuid)", v);
  fbe_uuid u;
  if (fbe_uuid_parse(RSTRING_PTR(v), (size_t)RSTRING_LEN(v), &u))
    rf_walk_raise(w, FBE_ERR_ARGUMENT, "'%.*s' is not a uuid (8-4-4-4-12 hex digits)",
                  (int)(RSTRING_LEN(v) < 60 ? RSTRING_LEN(v) : 60), RSTRING_PTR(v));
  memcpy(slot, u.bytes, 16);
}

static void put_blob(rf_walk *w, const void *data, long n, fbe_str *s) {
  if ((unsigned long)n > UINT32_MAX)
    rf_walk_raise(w, FBE_ERR_RANGE, "%ld bytes do not fit FBE's 32-bit size", n);
  s->size = (uint32_t)n;
  s->data = NULL;
  if (n) {
    uint8_t *p = walk_alloc(w, (size_t)n);
    memcpy(p, data, (size_t)n);
    s->data = p;
  }
}

static void put_string(rf_walk *w, VALUE v, fbe_str *s) {
  if (!RB_TYPE_P(v, T_STRING)) type_error(w, "String", v);
  int idx = ENCODING_GET(v);
  if (idx != rb_utf8_encindex() && idx != rb_usascii_encindex()) {
    if (idx == rb_ascii8bit_encindex()) { /* binary bytes: fine when they are UTF-8 */
      v = rb_enc_associate_index(rb_str_dup(v), rb_utf8_encindex());
    } else {
      v = rb_str_conv_enc(v, rb_enc_from_index(idx), rb_utf8_encoding());
      if (ENCODING_GET(v) != rb_utf8_encindex())
        rf_walk_raise(w, FBE_ERR_TYPE, "String in %s has no UTF-8 form", rb_enc_name(rb_enc_from_index(idx)));
    }
  }
  /* The core's check and words, the same in every binding. */
  fbe_error e;
  if (fbe_utf8_check(RSTRING_PTR(v), (size_t)RSTRING_LEN(v), &e) != FBE_OK)
    rf_walk_raise(w, e.code, "%s", e.message);
  put_blob(w, RSTRING_PTR(v), RSTRING_LEN(v), s);
  RB_GC_GUARD(v);
}

static void put_enum(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) {
  if (SYMBOL_P(v) || RB_TYPE_P(v, T_STRING)) {
    VALUE sym = SYMBOL_P(v) ? v : rb_str_intern(v);
    VALUE x = rb_hash_lookup2(t->en->by_name, sym, Qundef);
    if (x == Qundef) {
      VALUE s = rb_sym2str(sym);
      rf_walk_raise(w, FBE_ERR_NOT_FOUND, "%s has no value named %.80s", t->en->e->full_name, RSTRING_PTR(s));
    }
    v = x;
  } else if (!FIXNUM_P(v) && !RB_TYPE_P(v, T_BIGNUM)) {
    char want[200];
    snprintf(want, sizeof want, "Integer or Symbol (%s)", t->en->e->full_name);
    type_error(w, want, v);
  }
  fbe_scalar_store(t->wire, slot, get_int(w, v, t->wire, t->en->e->full_name));
}

static void put_items(rf_walk *w, const rf_type *elem, VALUE ary, uint8_t *data, long n) {
  uint32_t size = elem->t->mem_size;
  for (long i = 0; i < n; i++) {
    if (i >= RARRAY_LEN(ary)) rf_walk_raise(w, FBE_ERR_ARGUMENT, "Array changed size during encoding");
    rf_push_index(w, i);
    put_value(w, elem, RARRAY_AREF(ary, i), data + (size_t)i * size);
    rf_pop(w);
  }
}

/* The elements of a Set (its backing Hash's keys) or an Array, as an Array. */
static VALUE as_array(rf_walk *w, const rf_type *t, VALUE v) {
  if (RB_TYPE_P(v, T_ARRAY)) return v;
  if (t->kind == FBE_KIND_SET && RTEST(rb_obj_is_kind_of(v, rf_cSet))) {
    VALUE h = rb_attr_get(v, rf_id_hash_ivar);
    return RB_TYPE_P(h, T_HASH) ? rb_funcall(h, rb_intern("keys"), 0) : rb_funcall(v, rb_intern("to_a"), 0);
  }
  type_error(w, t->kind == FBE_KIND_SET ? "Set or Array" : "Array", v);
}

static void put_array(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) {
  VALUE ary = as_array(w, t, v);
  long n = RARRAY_LEN(ary);
  if (n != (long)t->t->array_size)
    rf_walk_raise(w, FBE_ERR_RANGE, "array of %u items, got %ld", t->t->array_size, n);
  put_items(w, t->elem, ary, slot, n);
  RB_GC_GUARD(ary);
}

static void put_vector(rf_walk *w, const rf_type *t, VALUE v, fbe_vec *vec) {
  vec->data = NULL;
  vec->count = vec->cap = 0;
  VALUE ary = as_array(w, t, v);
  long n = RARRAY_LEN(ary);
  if ((unsigned long)n > UINT32_MAX) rf_walk_raise(w, FBE_ERR_RANGE, "%ld items do not fit a collection", n);
  if (!n) return;
  uint8_t *data = walk_alloc(w, (size_t)n * t->elem->t->mem_size);
  vec->data = data;
  vec->count = vec->cap = (uint32_t)n;
  put_items(w, t->elem, ary, data, n);
  RB_GC_GUARD(ary);
}

typedef struct map_fill {
  rf_walk *w;
  const rf_type *t;
  uint8_t *data;
  fbe_vec *vec;
  long n;
} map_fill;

static void put_pair(rf_walk *w, const rf_type *t, VALUE k, VALUE v, uint8_t *pair, long i) {
  rf_push_index(w, i);
  rf_push_name(w, "[key]");
  put_value(w, t->key, k, pair);
  rf_pop(w);
  put_value(w, t->elem, v, pair + t->t->pair_value_offset);
  rf_pop(w);
}

static int map_each(VALUE k, VALUE v, VALUE arg) {
  map_fill *m = (map_fill *)arg;
  long i = (long)m->vec->count;
  if (i >= m->n) rf_walk_raise(m->w, FBE_ERR_ARGUMENT, "Hash changed size during encoding");
  put_pair(m->w, m->t, k, v, m->data + (size_t)i * m->t->t->pair_stride, i);
  m->vec->count = m->vec->cap = (uint32_t)(i + 1);
  return ST_CONTINUE;
}

static void put_map(rf_walk *w, const rf_type *t, VALUE v, fbe_vec *vec) {
  vec->data = NULL;
  vec->count = vec->cap = 0;
  uint32_t stride = t->t->pair_stride;
  if (RB_TYPE_P(v, T_HASH)) {
    long n = (long)RHASH_SIZE(v);
    if (!n) return;
    map_fill m = {w, t, walk_alloc(w, (size_t)n * stride), vec, n};
    vec->data = m.data;
    rb_hash_foreach(v, map_each, (VALUE)&m);
    return;
  }
  /* The ordered form: an Array of [key, value] pairs, in wire order. */
  if (!RB_TYPE_P(v, T_ARRAY)) type_error(w, "Hash or an Array of [key, value]", v);
  long n = RARRAY_LEN(v);
  if (!n) return;
  uint8_t *data = walk_alloc(w, (size_t)n * stride);
  vec->data = data;
  for (long i = 0; i < n && i < RARRAY_LEN(v); i++) {
    VALUE item = RARRAY_AREF(v, i);
    if (!RB_TYPE_P(item, T_ARRAY) || RARRAY_LEN(item) != 2) {
      rf_push_index(w, i);
      type_error(w, "a [key, value] pair", item);
    }
    put_pair(w, t, RARRAY_AREF(item, 0), RARRAY_AREF(item, 1), data + (size_t)i * stride, i);
    vec->count = vec->cap = (uint32_t)(i + 1);
  }
}

static void put_value(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) {
  switch (t->kind) {
    case FBE_KIND_BOOL:
      if (v == Qtrue) *slot = 1;
      else if (v == Qfalse) *slot = 0;
      else type_error(w, "true or false", v);
      return;
    case FBE_KIND_CHAR: case FBE_KIND_WCHAR:
      fbe_scalar_store(t->wire, slot, get_char(w, t, v));
      return;
    case FBE_KIND_TIMESTAMP:
      fbe_scalar_store(t->wire, slot, get_timestamp(w, v));
      return;
    case FBE_KIND_BYTE: case FBE_KIND_INT8: case FBE_KIND_UINT8: case FBE_KIND_INT16:
    case FBE_KIND_UINT16: case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_INT64:
    case FBE_KIND_UINT64:
      fbe_scalar_store(t->wire, slot, get_int(w, v, t->wire, fbe_kind_name(t->kind)));
      return;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: put_float(w, t, v, slot); return;
    case FBE_KIND_DECIMAL: put_decimal(w, v, slot); return;
    case FBE_KIND_UUID: put_uuid(w, v, slot); return;
    case FBE_KIND_STRING: put_string(w, v, (fbe_str *)(void *)slot); return;
    case FBE_KIND_BYTES:
      if (!RB_TYPE_P(v, T_STRING)) type_error(w, "String (bytes)", v);
      put_blob(w, RSTRING_PTR(v), RSTRING_LEN(v), (fbe_str *)(void *)slot);
      return;
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: put_enum(w, t, v, slot); return;
    case FBE_KIND_STRUCT: rf_put_struct(w, t->st, v, slot); return;
    case FBE_KIND_OPTIONAL: {
      if (NIL_P(v)) {
        *(void **)slot = NULL;
        return;
      }
      enter(w);
      void *inner = walk_alloc(w, t->elem->t->mem_size);
      put_value(w, t->elem, v, inner);
      *(void **)slot = inner;
      w->depth--;
      return;
    }
    case FBE_KIND_ARRAY: put_array(w, t, v, slot); return;
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
      enter(w);
      put_vector(w, t, v, (fbe_vec *)(void *)slot);
      w->depth--;
      return;
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      enter(w);
      put_map(w, t, v, (fbe_vec *)(void *)slot);
      w->depth--;
      return;
    default:
      rf_walk_raise(w, FBE_ERR_TYPE, "unsupported type %s", fbe_kind_name(t->kind));
  }
}

/* A field that was not given: its schema default, from the struct's default image. */
static void put_default(rf_walk *w, const rf_struct *si, uint32_t i, uint8_t *slot) {
  const fbe_field *f = si->fields[i].f;
  memcpy(slot + f->mem_offset, (const uint8_t *)si->st->defaults + f->mem_offset, f->type->mem_size);
  if (si->st->dynamic_defaults && fbe_struct_apply_dynamic_defaults(si->st, slot, i, i + 1, w->arena))
    rb_memerror();
}

typedef struct unknown_key {
  const rf_struct *si;
  int string_keys;
  VALUE key;
} unknown_key;

static int find_unknown(VALUE k, VALUE v, VALUE arg) {
  (void)v;
  unknown_key *u = (unknown_key *)arg;
  for (uint32_t i = 0; i < u->si->nfields; i++)
    if (rb_equal(k, u->si->fields[i].sym) || (u->string_keys && rb_equal(k, u->si->fields[i].str)))
      return ST_CONTINUE;
  u->key = k;
  return ST_STOP;
}

VALUE rf_unknown_key(const rf_struct *si, VALUE hash, int string_keys) {
  unknown_key u = {si, string_keys, Qundef};
  rb_hash_foreach(hash, find_unknown, (VALUE)&u);
  return u.key;
}

static void put_from_hash(rf_walk *w, const rf_struct *si, VALUE h, uint8_t *slot) {
  long found = 0;
  for (uint32_t i = 0; i < si->nfields; i++) {
    const rf_field *f = &si->fields[i];
    VALUE v = rb_hash_lookup2(h, f->sym, Qundef);
    if (v == Qundef) v = rb_hash_lookup2(h, f->str, Qundef);
    if (v == Qundef) {
      put_default(w, si, i, slot);
      continue;
    }
    found++;
    rf_push_name(w, f->f->name);
    put_value(w, f->type, v, slot + f->f->mem_offset);
    rf_pop(w);
  }
  if (found != (long)RHASH_SIZE(h)) {
    VALUE key = rf_unknown_key(si, h, 1);
    if (key != Qundef) {
      VALUE s = rb_inspect(key);
      rf_walk_raise(w, RF_ERR_UNKNOWN_FIELD, "%s has no field %.80s", si->st->full_name, RSTRING_PTR(s));
    }
    rf_walk_raise(w, FBE_ERR_ARGUMENT, "Hash has the same field twice (a Symbol and a String key)");
  }
}

long rf_field_index(const rf_struct *si, const char *name) {
  for (uint32_t i = 0; i < si->nfields; i++)
    if (strcmp(si->fields[i].f->name, name) == 0) return (long)i;
  return -1;
}

void rf_put_struct(rf_walk *w, const rf_struct *si, VALUE obj, uint8_t *slot) {
  VALUE klass = rb_obj_class(obj);
  if (klass == si->klass || (!SPECIAL_CONST_P(obj) && RTEST(rb_obj_is_kind_of(obj, si->klass)))) {
    /* The fast path: the Struct's members by index. */
    for (uint32_t i = 0; i < si->nfields; i++) {
      const rf_field *f = &si->fields[i];
      rf_push_name(w, f->f->name);
      put_value(w, f->type, RSTRUCT_GET(obj, (long)i), slot + f->f->mem_offset);
      rf_pop(w);
    }
    return;
  }
  if (RB_TYPE_P(obj, T_HASH)) {
    put_from_hash(w, si, obj, slot);
    return;
  }
  /* An instance of the same struct from another load of the schema: its members, by
   * field name (never by accessor, which a field may not have: README "Names"); a
   * field the other load does not have takes its default. */
  rf_struct *other = SPECIAL_CONST_P(obj) ? NULL : rf_info_try(klass);
  if (other && strcmp(other->st->full_name, si->st->full_name) == 0) {
    for (uint32_t i = 0; i < si->nfields; i++) {
      const rf_field *f = &si->fields[i];
      long j = other->is_rstruct ? rf_field_index(other, f->f->name) : -1;
      if (j < 0) {
        put_default(w, si, i, slot);
        continue;
      }
      rf_push_name(w, f->f->name);
      put_value(w, f->type, RSTRUCT_GET(obj, j), slot + f->f->mem_offset);
      rf_pop(w);
    }
    return;
  }
  char want[200];
  snprintf(want, sizeof want, "%s or Hash", si->st->full_name);
  type_error(w, want, obj);
}

fbe_msg *rf_build_msg(rf_walk *w, const rf_struct *si, VALUE obj) {
  fbe_msg *m = walk_alloc(w, sizeof(fbe_msg) + si->st->mem_size);
  m->type = si->st;
  m->arena = w->arena;
  rf_put_struct(w, si, obj, fbe_msg_data(m));
  return m;
}

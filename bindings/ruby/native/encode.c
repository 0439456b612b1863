/* Ruby objects -> the core's in-memory value (value.h), walked once per message by the
 * struct's field table. Every put_* writes a complete value of its type into `slot`, or
 * returns the status with w->err set, its path built on the way out. */
#include <limits.h>
#include <string.h>
#include "binding.h"
#include "fbe/internal/duplicates.h"
#include "fbe/internal/kinds.h"

static fbe_status put_value(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot);
static fbe_status put_struct(rf_walk *w, const rf_struct *si, VALUE obj, uint8_t *slot);

static void *walk_alloc(rf_walk *w, size_t n) {
  void *p = fbe_arena_alloc(w->arena, n ? n : 1);
  if (!p) rb_memerror();
  return p;
}

/* One level deeper (an optional or a collection), bounded like the core's walks. */
static fbe_status enter(rf_walk *w) {
  if (++w->depth <= FBE_DEFAULT_MAX_DEPTH) return FBE_OK;
  return fbei_error_set(&w->err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "value nested deeper than %u levels",
                       FBE_DEFAULT_MAX_DEPTH);
}

/* The elements a collection can store without put_value's dispatch: for an integer-like
 * element type (integers, char, wchar, timestamp, enums and flags by their wire kind) the
 * Fixnums in its range, for double every Float. The element type is looked at once per
 * collection, not once per element; any other element (a Bignum, a name, a Time, a wrong
 * value) takes put_value, which converts it or says why not, so the result is the same. */
typedef struct fast_items {
  enum { FAST_NONE, FAST_INT, FAST_DOUBLE } kind;
  fbe_kind wire;
  long lo, hi; /* FAST_INT: the Fixnums that fit */
} fast_items;

static fast_items fast_items_of(const rf_type *elem) {
  fast_items f = {FAST_NONE, elem->t->wire, 0, 0};
  if (f.wire >= FBE_KIND_COUNT_ || fbei_kind_size(f.wire) != elem->t->mem_size) return f;
  if (f.wire == FBE_KIND_DOUBLE) {
    f.kind = FAST_DOUBLE;
  } else if (fbei_kinds[f.wire].bits >= 8) { /* integers, char, wchar, timestamp */
    uint64_t max = fbei_int_limit(f.wire, true);
    f.kind = FAST_INT;
    f.lo = fbei_kind_is_signed(f.wire) ? (long)(int64_t)fbei_int_limit(f.wire, false) : 0;
    f.hi = max > (uint64_t)LONG_MAX ? LONG_MAX : (long)max;
  }
  return f;
}

static int put_fast(const fast_items *f, VALUE v, uint8_t *slot) {
  if (f->kind == FAST_INT && FIXNUM_P(v)) {
    long x = FIX2LONG(v);
    if (x < f->lo || x > f->hi) return 0;
    fbei_scalar_store(f->wire, slot, (uint64_t)x);
    return 1;
  }
  if (f->kind == FAST_DOUBLE && RB_FLOAT_TYPE_P(v)) {
    double d = RFLOAT_VALUE(v);
    memcpy(slot, &d, 8);
    return 1;
  }
  return 0;
}

static fbe_status put_items(rf_walk *w, const rf_type *elem, VALUE ary, uint8_t *data, long n) {
  fast_items fast = fast_items_of(elem);
  for (long i = 0; i < n; i++) {
    if (i >= RARRAY_LEN(ary))
      return fbei_error_set(&w->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "Array changed size during encoding");
    VALUE v = RARRAY_AREF(ary, i);
    uint8_t *slot = data + (size_t)i * elem->t->mem_size;
    if (fast.kind != FAST_NONE && put_fast(&fast, v, slot)) continue;
    fbe_status st = put_value(w, elem, v, slot);
    if (st) {
      fbei_error_prepend_index(&w->err, (size_t)i);
      return st;
    }
  }
  return FBE_OK;
}

/* The items of an Array, or of a Set (its backing Hash's keys) for a set; Qundef else. */
static VALUE as_array(const rf_type *t, VALUE v) {
  if (RB_TYPE_P(v, T_ARRAY)) return v;
  if (t->t->kind != FBE_KIND_SET || !RTEST(rb_obj_is_kind_of(v, rf_cSet))) return Qundef;
  VALUE h = rb_attr_get(v, rb_intern("@hash"));
  return RB_TYPE_P(h, T_HASH) ? rb_funcall(h, rb_intern("keys"), 0) : rb_funcall(v, rb_intern("to_a"), 0);
}

static fbe_status put_vector(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) {
  VALUE ary = as_array(t, v);
  if (ary == Qundef) return rf_type_error(w, t->t, v);
  long n = RARRAY_LEN(ary);
  fbe_status st;
  if (t->t->kind == FBE_KIND_ARRAY) {
    if (n != (long)t->t->array_size) return fbei_error_array_length(&w->err, t->t, (size_t)n);
    st = put_items(w, t->elem, ary, slot, n);
  } else {
    fbei_vec *vec = (fbei_vec *)(void *)slot;
    *vec = (fbei_vec){NULL, 0, 0};
    if ((unsigned long)n > UINT32_MAX)
      return fbei_error_set(&w->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "%ld items do not fit a collection", n);
    if (!n) return FBE_OK;
    *vec = (fbei_vec){walk_alloc(w, (size_t)n * t->elem->t->mem_size), (uint32_t)n, (uint32_t)n};
    st = put_items(w, t->elem, ary, vec->data, n);
  }
  RB_GC_GUARD(ary);
  return st;
}

static fbe_status put_pair(rf_walk *w, const rf_type *t, VALUE k, VALUE v, fbei_vec *vec, long i) {
  uint8_t *pair = (uint8_t *)vec->data + (size_t)i * t->t->pair_stride;
  fbe_status st = put_value(w, t->key, k, pair);
  if (st) fbei_error_prepend_key(&w->err);
  else st = put_value(w, t->elem, v, pair + t->t->pair_value_offset);
  if (st) fbei_error_prepend_index(&w->err, (size_t)i);
  vec->count = vec->cap = (uint32_t)(i + 1);
  return st;
}

typedef struct map_fill {
  rf_walk *w;
  const rf_type *t;
  fbei_vec *vec;
  long n;
  fbe_status st;
} map_fill;

static int map_each(VALUE k, VALUE v, VALUE arg) {
  map_fill *m = (map_fill *)arg;
  if ((long)m->vec->count >= m->n)
    m->st = fbei_error_set(&m->w->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "Hash changed size during encoding");
  else m->st = put_pair(m->w, m->t, k, v, m->vec, (long)m->vec->count);
  return m->st ? ST_STOP : ST_CONTINUE;
}

/* A Hash, or the ordered form: an Array of [key, value] pairs, in wire order. */
static fbe_status put_map(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) {
  fbei_vec *vec = (fbei_vec *)(void *)slot;
  *vec = (fbei_vec){NULL, 0, 0};
  int is_hash = RB_TYPE_P(v, T_HASH);
  if (!is_hash && !RB_TYPE_P(v, T_ARRAY)) return rf_type_error(w, t->t, v);
  long n = is_hash ? (long)RHASH_SIZE(v) : RARRAY_LEN(v);
  if (!n) return FBE_OK;
  vec->data = walk_alloc(w, (size_t)n * t->t->pair_stride);
  if (is_hash) {
    map_fill m = {w, t, vec, n, FBE_OK};
    rb_hash_foreach(v, map_each, (VALUE)&m);
    return m.st;
  }
  for (long i = 0; i < n && i < RARRAY_LEN(v); i++) {
    VALUE item = RARRAY_AREF(v, i);
    if (!RB_TYPE_P(item, T_ARRAY) || RARRAY_LEN(item) != 2) { /* the ordered form: [key, value] pairs */
      fbe_status st = rf_type_error(w, t->t, item);
      fbei_error_prepend_index(&w->err, (size_t)i);
      return st;
    }
    if (put_pair(w, t, RARRAY_AREF(item, 0), RARRAY_AREF(item, 1), vec, i)) return w->err.code;
  }
  return FBE_OK;
}

/* An enum or flags value: an Integer, or its text (a Symbol or String: a member's name;
 * for flags names and numbers joined by '|'), read by the core (fbe_enum_parse). */
static fbe_status put_enum(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) {
  if (SYMBOL_P(v) || RB_TYPE_P(v, T_STRING)) {
    VALUE text = SYMBOL_P(v) ? rb_sym2str(v) : v;
    uint64_t x;
    if (fbe_enum_parse(t->en->e, RSTRING_PTR(text), (size_t)RSTRING_LEN(text), &x, &w->err)) return w->err.code;
    fbei_scalar_store(t->t->wire, slot, x);
    RB_GC_GUARD(text);
    return FBE_OK;
  }
  return rf_put_int(w, v, t->t, slot);
}

static fbe_status put_value(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) {
  fbe_status st;
  switch (t->t->kind) {
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return put_enum(w, t, v, slot);
    case FBE_KIND_STRUCT: return put_struct(w, t->st, v, slot);
    case FBE_KIND_OPTIONAL:
      *(void **)slot = NULL;
      if (NIL_P(v)) return FBE_OK;
      if ((st = enter(w))) return st;
      *(void **)slot = walk_alloc(w, t->elem->t->mem_size);
      st = put_value(w, t->elem, v, *(void **)slot);
      /* a wrong kind here names the optional ("int32 or null"), not only its inner type */
      if (st == FBE_ERR_TYPE && !w->err.path[0]) st = rf_type_error(w, t->t, v);
      break;
    case FBE_KIND_ARRAY: return put_vector(w, t, v, slot);
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      if ((st = enter(w))) return st;
      st = t->t->wire == FBE_KIND_MAP ? put_map(w, t, v, slot) : put_vector(w, t, v, slot);
      /* a set element or map key given twice is kept once, as every reader keeps it */
      if (!st && fbei_keys_dedup(t->t, slot)) rb_memerror();
      break;
    case FBE_KIND_BYTE: case FBE_KIND_INT8: case FBE_KIND_UINT8: case FBE_KIND_INT16: case FBE_KIND_UINT16:
    case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_INT64: case FBE_KIND_UINT64: /* the most: no detour */
      return rf_put_int(w, v, t->t, slot);
    default: return rf_put_scalar(w, v, t->t, slot);
  }
  w->depth--;
  return st;
}

fbe_status rf_put_value(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot) { return put_value(w, t, v, slot); }

/* A field that was not given: its schema default, from the struct's default image. */
static void put_default(rf_walk *w, const rf_struct *si, uint32_t i, uint8_t *slot) {
  const fbe_field *f = si->fields[i].f;
  memcpy(slot + f->mem_offset, si->fields[i].image, f->type->mem_size);
  if (si->st->dynamic_defaults && fbei_struct_apply_dynamic_defaults(si->st, slot, i, i + 1, w->arena))
    rb_memerror();
}

/* Field i of si from v; the field's name in front of the path of an error. */
static fbe_status put_field(rf_walk *w, const rf_struct *si, uint32_t i, VALUE v, uint8_t *slot) {
  const rf_field *f = &si->fields[i];
  fbe_status st = put_value(w, f->type, v, slot + f->f->mem_offset);
  if (st) fbei_error_prepend_field(&w->err, f->f->name);
  return st;
}

typedef struct unknown_key {
  const rf_struct *si;
  int string_keys;
  VALUE key;
} unknown_key;

static int find_unknown(VALUE k, VALUE v, VALUE arg) {
  unknown_key *u = (unknown_key *)arg;
  for (uint32_t i = 0; i < u->si->st->nfields; i++)
    if (rb_equal(k, u->si->fields[i].sym) || (u->string_keys && rb_equal(k, u->si->fields[i].str))) return ST_CONTINUE;
  u->key = k;
  return ST_STOP;
}

VALUE rf_unknown_key(const rf_struct *si, VALUE hash, int string_keys) {
  unknown_key u = {si, string_keys, Qundef};
  rb_hash_foreach(hash, find_unknown, (VALUE)&u);
  return u.key;
}

fbe_status rf_unknown_field(fbe_error *err, const rf_struct *si, VALUE key) {
  VALUE name = SYMBOL_P(key) ? rb_sym2str(key) : RB_TYPE_P(key, T_STRING) ? key : rb_inspect(key);
  fbe_status st = fbei_error_unknown_field(err, si->st, RSTRING_PTR(name), (size_t)RSTRING_LEN(name));
  RB_GC_GUARD(name);
  return st;
}

static fbe_status put_from_hash(rf_walk *w, const rf_struct *si, VALUE h, uint8_t *slot) {
  long found = 0;
  for (uint32_t i = 0; i < si->st->nfields; i++) {
    VALUE v = rb_hash_lookup2(h, si->fields[i].sym, Qundef);
    if (v == Qundef) v = rb_hash_lookup2(h, si->fields[i].str, Qundef);
    if (v == Qundef) {
      put_default(w, si, i, slot);
      continue;
    }
    found++;
    if (put_field(w, si, i, v, slot)) return w->err.code;
  }
  if (found == (long)RHASH_SIZE(h)) return FBE_OK;
  VALUE key = rf_unknown_key(si, h, 1);
  if (key == Qundef)
    return fbei_error_set(&w->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                         "Hash has the same field twice (a Symbol and a String key)");
  return rf_unknown_field(&w->err, si, key);
}

/* Whether st is the struct called name or derives from it (in any load of the schema). */
static int derives(const fbe_struct *st, const char *name) {
  for (; st; st = fbe_struct_base(st))
    if (strcmp(st->full_name, name) == 0) return 1;
  return 0;
}

static fbe_status put_struct(rf_walk *w, const rf_struct *si, VALUE obj, uint8_t *slot) {
  VALUE klass = rb_obj_class(obj);
  if (klass == si->klass || (!SPECIAL_CONST_P(obj) && RTEST(rb_obj_is_kind_of(obj, si->klass)))) {
    for (uint32_t i = 0; i < si->st->nfields; i++) /* the fast path: the Struct's members by index */
      if (put_field(w, si, i, RSTRUCT_GET(obj, (long)i), slot)) return w->err.code;
    return FBE_OK;
  }
  if (RB_TYPE_P(obj, T_HASH)) return put_from_hash(w, si, obj, slot);
  /* An instance of the same struct from another load of the schema, or of a struct
   * derived from it: its members by field name (never by accessor, which a field may not
   * have: README "Names"); a field the other struct does not have takes its default. */
  rf_struct *other = SPECIAL_CONST_P(obj) ? NULL : rf_info_try(klass);
  if (other && derives(other->st, si->st->full_name)) {
    for (uint32_t i = 0; i < si->st->nfields; i++) {
      const fbe_field *of = other->is_rstruct ? fbe_struct_field(other->st, si->fields[i].f->name) : NULL;
      if (!of) put_default(w, si, i, slot);
      else if (put_field(w, si, i, RSTRUCT_GET(obj, (long)fbe_field_index(of)), slot)) return w->err.code;
    }
    return FBE_OK;
  }
  const char *name;
  fbei_got got = rf_got(obj, &name);
  return fbei_error_type_struct(&w->err, si->st, got, name);
}

fbe_status rf_fill_msg(rf_walk *w, const rf_struct *si, VALUE obj, fbe_msg **out) {
  fbe_msg *m = *out = fbei_msg_shell(w->arena, si->st);
  if (!m) rb_memerror();
  return put_struct(w, si, obj, fbei_msg_data(m));
}

fbe_msg *rf_build_msg(rf_walk *w, const rf_struct *si, VALUE obj) {
  fbe_msg *m;
  if (rf_fill_msg(w, si, obj, &m)) rf_raise(&w->err);
  return m;
}

/* Dynamic messages: creation with defaults, navigation and typed access. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "fbe/internal/value.h"
#include "fbe/internal/error.h"
#include "fbe/internal/input.h"
#include "fbe/internal/kinds.h"
#include "fbe/internal/utf8.h"

/* ---------------------------------------------------------------- defaults */

static void dynamic_store(fbei_default_kind kind, uint8_t *slot) {
  if (kind == FBE_DEF_UTC) {
    uint64_t now = fbei_now_ns();
    memcpy(slot, &now, 8);
  } else if (kind == FBE_DEF_UUID1) {
    fbei_uuid_v1(slot);
  } else {
    fbei_uuid_v4(slot);
  }
}

int fbei_field_dynamic_default(const fbe_field *f, void *slot, fbe_arena *arena) {
  if (f->type->kind == FBE_KIND_OPTIONAL) {
    uint8_t *value = fbe_arena_alloc(arena, f->type->elem->mem_size);
    if (!value) return -1;
    dynamic_store(f->def.kind, value);
    memcpy(slot, &value, sizeof value);
  } else {
    dynamic_store(f->def.kind, slot);
  }
  return 0;
}

int fbei_struct_apply_dynamic_defaults(const fbe_struct *st, void *slot, uint32_t from,
                                      uint32_t to, fbe_arena *arena) {
  uint8_t *base = slot;
  for (uint32_t i = from; i < to; i++) {
    const fbe_field *f = &st->fields[i];
    const fbe_type *t = f->type;
    fbei_default_kind k = f->def.kind;
    if (k == FBE_DEF_UTC || k == FBE_DEF_UUID1 || k == FBE_DEF_UUID4) {
      if (fbei_field_dynamic_default(f, base + f->mem_offset, arena)) return -1;
    } else if (t->kind == FBE_KIND_STRUCT && t->st->dynamic_defaults) {
      if (fbei_struct_apply_dynamic_defaults(t->st, base + f->mem_offset, 0, t->st->nfields, arena)) return -1;
    } else if (t->kind == FBE_KIND_ARRAY && t->elem->kind == FBE_KIND_STRUCT &&
               t->elem->st->dynamic_defaults) {
      for (uint32_t j = 0; j < t->array_size; j++)
        if (fbei_struct_apply_dynamic_defaults(t->elem->st,
                                              base + f->mem_offset + j * t->elem->mem_size, 0,
                                              t->elem->st->nfields, arena))
          return -1;
    }
  }
  return 0;
}

int fbei_struct_init(const fbe_struct *st, void *slot, fbe_arena *arena) {
  memcpy(slot, st->defaults, st->mem_size);
  return st->dynamic_defaults ? fbei_struct_apply_dynamic_defaults(st, slot, 0, st->nfields, arena)
                              : 0;
}

int fbe_value_init(const fbe_type *t, void *slot, fbe_arena *arena) {
  if (t->kind == FBE_KIND_STRUCT) return fbei_struct_init(t->st, slot, arena);
  if (t->kind == FBE_KIND_ARRAY) {
    for (uint32_t i = 0; i < t->array_size; i++)
      if (fbe_value_init(t->elem, (uint8_t *)slot + i * t->elem->mem_size, arena)) return -1;
    return 0;
  }
  memset(slot, 0, t->mem_size);
  return 0;
}

/* ---------------------------------------------------------------- storage */

void *fbei_vec_grow(fbei_vec *v, fbe_arena *arena, uint32_t elem_size, uint32_t count) {
  uint64_t need = (uint64_t)v->count + count;
  if (need > UINT32_MAX || need * elem_size > SIZE_MAX / 2) return NULL;
  if (need > v->cap) {
    uint64_t cap = v->cap ? (uint64_t)v->cap * 2 : 4;
    if (cap < need) cap = need;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    void *data = fbe_arena_alloc(arena, (size_t)(cap * elem_size));
    if (!data) return NULL;
    if (v->count) memcpy(data, v->data, (size_t)v->count * elem_size);
    v->data = data;
    v->cap = (uint32_t)cap;
  }
  uint8_t *first = (uint8_t *)v->data + (size_t)v->count * elem_size;
  memset(first, 0, (size_t)count * elem_size);
  v->count = (uint32_t)need;
  return first;
}

int fbei_str_assign(fbei_str *s, fbe_arena *arena, const void *data, size_t size) {
  if (size > UINT32_MAX) return -1;
  uint8_t *copy = NULL;
  if (size) {
    copy = fbe_arena_alloc(arena, size);
    if (!copy) return -1;
    memcpy(copy, data, size);
  }
  s->data = copy;
  s->size = (uint32_t)size;
  return 0;
}

/* ---------------------------------------------------------------- messages */

fbe_msg *fbe_msg_new(fbe_arena *arena, const fbe_struct *type) {
  if (!arena || !type) return NULL;
  fbe_msg *m = fbe_arena_alloc(arena, sizeof(fbe_msg) + type->mem_size);
  if (!m) return NULL;
  m->type = type;
  m->arena = arena;
  if (fbei_struct_init(type, fbei_msg_data(m), arena)) return NULL;
  return m;
}

const fbe_struct *fbe_msg_type(const fbe_msg *msg) { return msg->type; }
fbe_arena *fbe_msg_arena(const fbe_msg *msg) { return msg->arena; }

fbe_ref fbe_msg_ref(fbe_msg *msg) {
  fbe_ref r = {msg->type->self_type, fbei_msg_data(msg), msg->arena};
  return r;
}

/* ---------------------------------------------------------------- navigation */

static const fbe_ref null_ref = {NULL, NULL, NULL};

fbe_kind fbe_ref_kind(fbe_ref r) { return r.type ? r.type->kind : FBE_KIND_COUNT_; }

fbe_ref fbe_ref_field_at(fbe_ref r, size_t index) {
  if (!r.slot || r.type->kind != FBE_KIND_STRUCT || index >= r.type->st->nfields) return null_ref;
  const fbe_field *f = &r.type->st->fields[index];
  fbe_ref out = {f->type, (uint8_t *)r.slot + f->mem_offset, r.arena};
  return out;
}

fbe_ref fbe_ref_field(fbe_ref r, const char *name) {
  if (!r.slot || r.type->kind != FBE_KIND_STRUCT || !name) return null_ref;
  const fbe_field *f = fbe_struct_field(r.type->st, name);
  return f ? fbe_ref_field_at(r, f->index) : null_ref;
}

static int is_sequence(const fbe_type *t) {
  return t->wire == FBE_KIND_VECTOR || t->wire == FBE_KIND_MAP;
}

size_t fbe_ref_count(fbe_ref r) {
  if (!r.slot) return 0;
  if (r.type->kind == FBE_KIND_ARRAY) return r.type->array_size;
  if (is_sequence(r.type)) return ((const fbei_vec *)r.slot)->count;
  return 0;
}

fbe_ref fbe_ref_at(fbe_ref r, size_t i) {
  if (!r.slot || i >= fbe_ref_count(r) || r.type->wire == FBE_KIND_MAP) return null_ref;
  const fbe_type *e = r.type->elem;
  uint8_t *data = r.type->kind == FBE_KIND_ARRAY ? r.slot : ((fbei_vec *)r.slot)->data;
  fbe_ref out = {e, data + i * e->mem_size, r.arena};
  return out;
}

static uint8_t *pair_at(fbe_ref r, size_t i) {
  if (!r.slot || r.type->wire != FBE_KIND_MAP || i >= ((fbei_vec *)r.slot)->count) return NULL;
  return (uint8_t *)((fbei_vec *)r.slot)->data + i * r.type->pair_stride;
}

fbe_ref fbe_ref_key_at(fbe_ref r, size_t i) {
  uint8_t *p = pair_at(r, i);
  if (!p) return null_ref;
  fbe_ref out = {r.type->key, p, r.arena};
  return out;
}

fbe_ref fbe_ref_value_at(fbe_ref r, size_t i) {
  uint8_t *p = pair_at(r, i);
  if (!p) return null_ref;
  fbe_ref out = {r.type->elem, p + r.type->pair_value_offset, r.arena};
  return out;
}

/* ---------------------------------------------------------------- optionals */

int fbe_ref_is_null(fbe_ref r) {
  if (!r.slot || r.type->kind != FBE_KIND_OPTIONAL) return 0;
  return *(void **)r.slot == NULL;
}

/* ---------------------------------------------------------------- setter errors */

/* A setter given a ref of the wrong kind (or no value): FBE_ERR_TYPE
 * "fbe_ref_set_int: the value is a string, not an integer kind". */
static fbe_status wrong_kind(fbe_error *err, const char *setter, fbe_ref r, const char *takes) {
  if (!r.slot)
    return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET,
                          "%s: no value (a ref that navigation did not find)", setter);
  char words[128];
  fbei_type_words(r.type, words, sizeof words);
  const char *article = r.type->kind == FBE_KIND_BYTES ? "" : strchr("aeio", words[0]) ? "an " : "a ";
  return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "%s: the value is %s%s, not %s", setter, article,
                        words, takes);
}

/* fbe_ref_field with the reason when there is no such field: what a binding over the
 * public API (C++) raises for a name its user got wrong, in the JSON reader's words. */
fbe_status fbe_ref_field_find(fbe_ref r, const char *name, size_t length, fbe_ref *out, fbe_error *err) {
  *out = null_ref;
  if (!r.slot || r.type->kind != FBE_KIND_STRUCT) return wrong_kind(err, "fbe_ref_field_find", r, "a struct");
  const fbe_struct *st = r.type->st;
  for (uint32_t i = 0; name && i < st->nfields; i++) {
    const char *f = st->fields[i].name;
    if (strlen(f) == length && !memcmp(f, name, length)) {
      *out = fbe_ref_field_at(r, i);
      return FBE_OK;
    }
  }
  return fbei_error_unknown_field(err, st, name, length);
}

static fbe_status out_of_memory(fbe_error *err) {
  return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
}

fbe_status fbe_ref_set_null(fbe_ref r, fbe_error *err) {
  if (!r.slot || r.type->kind != FBE_KIND_OPTIONAL) return wrong_kind(err, "fbe_ref_set_null", r, "an optional");
  *(void **)r.slot = NULL;
  return FBE_OK;
}

fbe_ref fbe_ref_deref(fbe_ref r) {
  if (!r.slot || r.type->kind != FBE_KIND_OPTIONAL || !*(void **)r.slot) return null_ref;
  fbe_ref out = {r.type->elem, *(void **)r.slot, r.arena};
  return out;
}

fbe_ref fbe_ref_emplace(fbe_ref r) {
  if (!r.slot || r.type->kind != FBE_KIND_OPTIONAL) return null_ref;
  void *value = *(void **)r.slot;
  if (!value) {
    value = fbe_arena_alloc(r.arena, r.type->elem->mem_size);
    if (!value || fbe_value_init(r.type->elem, value, r.arena)) return null_ref;
  } else {
    /* The current value may be schema-owned (a declared default): copy on write. */
    void *copy = fbe_arena_alloc(r.arena, r.type->elem->mem_size);
    if (!copy) return null_ref;
    memcpy(copy, value, r.type->elem->mem_size);
    value = copy;
  }
  *(void **)r.slot = value;
  fbe_ref out = {r.type->elem, value, r.arena};
  return out;
}

/* ---------------------------------------------------------------- collections */

fbe_ref fbe_ref_append(fbe_ref r) {
  if (!r.slot || r.type->wire != FBE_KIND_VECTOR) return null_ref;
  const fbe_type *e = r.type->elem;
  void *slot = fbei_vec_grow(r.slot, r.arena, e->mem_size, 1);
  if (!slot || fbe_value_init(e, slot, r.arena)) return null_ref;
  fbe_ref out = {e, slot, r.arena};
  return out;
}

fbe_ref fbe_ref_map_append(fbe_ref r, fbe_ref *value) {
  if (!r.slot || r.type->wire != FBE_KIND_MAP) return null_ref;
  uint8_t *pair = fbei_vec_grow(r.slot, r.arena, r.type->pair_stride, 1);
  if (!pair || fbe_value_init(r.type->key, pair, r.arena) ||
      fbe_value_init(r.type->elem, pair + r.type->pair_value_offset, r.arena))
    return null_ref;
  if (value) {
    fbe_ref v = {r.type->elem, pair + r.type->pair_value_offset, r.arena};
    *value = v;
  }
  fbe_ref k = {r.type->key, pair, r.arena};
  return k;
}

fbe_status fbe_ref_clear(fbe_ref r, fbe_error *err) {
  if (!r.slot || !is_sequence(r.type))
    return wrong_kind(err, "fbe_ref_clear", r, "a vector, list, set, map or hash");
  ((fbei_vec *)r.slot)->count = 0;
  return FBE_OK;
}

/* ---------------------------------------------------------------- scalars */

static int is_integer_like(fbe_kind w) { return w <= FBE_KIND_UINT64 || w == FBE_KIND_TIMESTAMP; }


fbe_status fbe_ref_get_int(fbe_ref r, int64_t *out) {
  if (!r.slot || !is_integer_like(r.type->wire)) return FBE_ERR_TYPE;
  uint64_t v = fbei_scalar_load(r.type->wire, r.slot);
  if (!fbei_kind_is_signed(r.type->wire) && v > (uint64_t)INT64_MAX) return FBE_ERR_RANGE;
  *out = (int64_t)v;
  return FBE_OK;
}

fbe_status fbe_ref_get_uint(fbe_ref r, uint64_t *out) {
  if (!r.slot || !is_integer_like(r.type->wire)) return FBE_ERR_TYPE;
  uint64_t v = fbei_scalar_load(r.type->wire, r.slot);
  if (fbei_kind_is_signed(r.type->wire) && (int64_t)v < 0) return FBE_ERR_RANGE;
  *out = v;
  return FBE_OK;
}

#define INTEGER_KINDS "an integer kind (integers, bool, char, wchar, enums, flags, timestamp)"

/* Stores the integer -mag (negative) or mag in an integer-like slot, or refuses it with
 * the vocabulary's range words ("value 300 does not fit uint8"). */
static fbe_status set_integer(fbe_ref r, int negative, uint64_t mag, fbe_error *err) {
  fbe_kind w = r.type->wire;
  if (!fbei_int_fits(w == FBE_KIND_BOOL ? FBE_KIND_UINT8 : w, negative, mag) || (w == FBE_KIND_BOOL && mag > 1))
    return fbei_error_int_range(err, negative, mag, w);
  fbei_scalar_store(w, r.slot, fbei_int_pattern(negative, mag));
  return FBE_OK;
}

fbe_status fbe_ref_set_int(fbe_ref r, int64_t v, fbe_error *err) {
  if (!r.slot || !is_integer_like(r.type->wire)) return wrong_kind(err, "fbe_ref_set_int", r, INTEGER_KINDS);
  return set_integer(r, v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, err);
}

fbe_status fbe_ref_set_uint(fbe_ref r, uint64_t v, fbe_error *err) {
  if (!r.slot || !is_integer_like(r.type->wire)) return wrong_kind(err, "fbe_ref_set_uint", r, INTEGER_KINDS);
  return set_integer(r, 0, v, err);
}

fbe_status fbe_ref_get_bool(fbe_ref r, int *out) {
  if (!r.slot || r.type->wire != FBE_KIND_BOOL) return FBE_ERR_TYPE;
  *out = *(const uint8_t *)r.slot != 0;
  return FBE_OK;
}

fbe_status fbe_ref_set_bool(fbe_ref r, int v, fbe_error *err) {
  if (!r.slot || r.type->wire != FBE_KIND_BOOL) return wrong_kind(err, "fbe_ref_set_bool", r, "a bool");
  *(uint8_t *)r.slot = v != 0;
  return FBE_OK;
}

fbe_status fbe_ref_get_double(fbe_ref r, double *out) {
  if (!r.slot) return FBE_ERR_TYPE;
  if (r.type->wire == FBE_KIND_FLOAT) {
    float f;
    memcpy(&f, r.slot, 4);
    *out = f;
  } else if (r.type->wire == FBE_KIND_DOUBLE) {
    memcpy(out, r.slot, 8);
  } else {
    return FBE_ERR_TYPE;
  }
  return FBE_OK;
}

fbe_status fbe_ref_set_double(fbe_ref r, double v, fbe_error *err) {
  if (!r.slot) return wrong_kind(err, "fbe_ref_set_double", r, "a float or double");
  if (r.type->wire == FBE_KIND_FLOAT) {
    float f = (float)v;
    if (isinf(f) && !isinf(v)) { /* a finite double past float's range does not fit */
      char text[40];
      snprintf(text, sizeof text, "%.17g", v);
      return fbei_error_range(err, text, FBE_KIND_FLOAT);
    }
    memcpy(r.slot, &f, 4);
  } else if (r.type->wire == FBE_KIND_DOUBLE) {
    memcpy(r.slot, &v, 8);
  } else {
    return wrong_kind(err, "fbe_ref_set_double", r, "a float or double");
  }
  return FBE_OK;
}

static int is_blob(const fbe_type *t) {
  return t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES;
}

fbe_status fbe_ref_get_bytes(fbe_ref r, const uint8_t **data, size_t *size) {
  if (!r.slot || !is_blob(r.type)) return FBE_ERR_TYPE;
  const fbei_str *s = r.slot;
  *data = s->data ? s->data : (const uint8_t *)"";
  *size = s->size;
  return FBE_OK;
}

fbe_status fbe_ref_set_bytes(fbe_ref r, const void *data, size_t size, fbe_error *err) {
  if (!r.slot || !is_blob(r.type)) return wrong_kind(err, "fbe_ref_set_bytes", r, "a string or bytes");
  if (size > UINT32_MAX)
    return fbei_error_set(err, FBE_ERR_RANGE, FBE_NO_OFFSET, "fbe_ref_set_bytes: %zu bytes, more than 4 GiB - 1",
                          size);
  if (r.type->wire == FBE_KIND_STRING && fbe_utf8_check(data, size, err)) return FBE_ERR_ARGUMENT;
  return fbei_str_assign(r.slot, r.arena, data, size) ? out_of_memory(err) : FBE_OK;
}

fbe_status fbe_ref_set_string(fbe_ref r, const char *s, fbe_error *err) {
  if (!r.slot || !is_blob(r.type)) return wrong_kind(err, "fbe_ref_set_string", r, "a string or bytes");
  return fbe_ref_set_bytes(r, s, s ? strlen(s) : 0, err);
}

fbe_status fbe_ref_get_decimal(fbe_ref r, fbe_decimal *out) {
  if (!r.slot || r.type->wire != FBE_KIND_DECIMAL) return FBE_ERR_TYPE;
  memcpy(out->bytes, r.slot, 16);
  return FBE_OK;
}

fbe_status fbe_ref_set_decimal(fbe_ref r, const fbe_decimal *v, fbe_error *err) {
  if (!r.slot || r.type->wire != FBE_KIND_DECIMAL) return wrong_kind(err, "fbe_ref_set_decimal", r, "a decimal");
  if (v->bytes[14] > 28)
    return fbei_error_set(err, FBE_ERR_RANGE, FBE_NO_OFFSET, "fbe_ref_set_decimal: scale %u is above 28",
                          (unsigned)v->bytes[14]);
  if (fbei_decimal_bad(v->bytes)) /* FORMAT.md 3.2 */
    return fbei_error_set(err, FBE_ERR_RANGE, FBE_NO_OFFSET, "fbe_ref_set_decimal: reserved bits are set");
  memcpy(r.slot, v->bytes, 16);
  return FBE_OK;
}

fbe_status fbe_ref_get_uuid(fbe_ref r, fbe_uuid *out) {
  if (!r.slot || r.type->wire != FBE_KIND_UUID) return FBE_ERR_TYPE;
  memcpy(out->bytes, r.slot, 16);
  return FBE_OK;
}

fbe_status fbe_ref_set_uuid(fbe_ref r, const fbe_uuid *v, fbe_error *err) {
  if (!r.slot || r.type->wire != FBE_KIND_UUID) return wrong_kind(err, "fbe_ref_set_uuid", r, "a uuid");
  memcpy(r.slot, v->bytes, 16);
  return FBE_OK;
}

fbe_msg *fbei_msg_shell(fbe_arena *arena, const fbe_struct *type) {
  fbe_msg *m = fbe_arena_alloc(arena, sizeof(fbe_msg) + type->mem_size);
  if (!m) return NULL;
  m->type = type;
  m->arena = arena;
  return m;
}

/* ---------------------------------------------------------------- char text */

fbe_status fbe_char_parse(fbe_kind kind, const char *text, size_t length, uint32_t *out, fbe_error *err) {
  if (kind != FBE_KIND_CHAR && kind != FBE_KIND_WCHAR)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_char_parse: %s is not char or wchar",
                          fbe_kind_name(kind));
  const uint8_t *u = (const uint8_t *)text;
  size_t len = text && length ? fbei_utf8_sequence(u, length) : 0;
  if (!len || len != length) return fbei_error_bad_text(err, kind, text ? text : "", text ? length : 0);
  uint32_t cp = len == 1 ? u[0]
                : len == 2 ? (uint32_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f)
                : len == 3 ? (uint32_t)(u[0] & 0x0f) << 12 | (uint32_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f)
                           : (uint32_t)(u[0] & 0x07) << 18 | (uint32_t)(u[1] & 0x3f) << 12 |
                                 (uint32_t)(u[2] & 0x3f) << 6 | (u[3] & 0x3f);
  if (!fbei_int_fits(kind, 0, cp)) return fbei_error_int_range(err, 0, cp, kind);
  *out = cp;
  return FBE_OK;
}

/* Views (fbe/view.h): reading a verified model in place. Byte-level reads go through
 * the field-model readers of fbe/field.h (a scalar's slot: one compare with the model's
 * end); values that come from the schema's defaults instead of the bytes, and every
 * scalar conversion but the plain integer and float loads, go through fbe_ref
 * (message.c), so a view reads exactly what fbe_decode would. */
#include <string.h>
#include "fbe/view.h"
#include "fbe/field.h"
#include "fbe/internal/cost.h"
#include "fbe/internal/decimal.h"
#include "fbe/internal/error.h"
#include "fbe/internal/kinds.h"
#include "fbe/internal/utf8.h"
#include "fbe/internal/value.h"

/* Views are made whole, never a copy with some members changed: a copy patched member by
 * member, then copied on as a whole (passed by value), stalls the CPU's store forwarding. */
static const fbe_view no_value = {NULL, NULL, 0, 0, 0, NULL, FBE_MODEL_STANDARD, 0};

static fbe_reader reader(fbe_view v) {
  fbe_reader r = {v.data, v.end};
  return r;
}

static fbe_ref image_ref(fbe_view v) {
  fbe_ref r = {v.type, (void *)(uintptr_t)v.image, NULL};
  return r;
}

/* A value held in memory (a schema default, or a part of one). */
static fbe_view from_image(fbe_view parent, fbe_ref r) {
  if (!r.slot) return no_value;
  fbe_view v = {r.type, parent.data, parent.end, 0, 0, r.slot, parent.model, parent.lazy}; /* made whole (the top) */
  return v;
}

/* Scalars (bool .. uuid on the wire): one fixed-size slot in both models. */
static int is_scalar(const fbe_type *t) { return t->wire < FBE_KIND_STRING; }

/* A lazy view's bound on a final-model count (elements can be 0 bytes there: an empty
 * struct): a collection whose own charge is over the default budget of the model is
 * refused, as verify refuses it, before anything walks its elements. */
static int lazy_count_over(const fbe_type *t, uint32_t n, uint64_t end) {
  return fbei_cost_sequence(t, n) > fbe_limits_memory_default(end);
}

/* A lazy view's check of a vector's or map's header as it is reached (its pointer and
 * count, as verify checks them), so that a collection verify refuses is no value rather
 * than an empty one: 1 when v is such a collection and verify would refuse it. */
static int lazy_sequence_refused(fbe_view v);
static inline int lazy_bad_sequence(fbe_view v) {
  return v.lazy && (v.type->wire == FBE_KIND_VECTOR || v.type->wire == FBE_KIND_MAP) && lazy_sequence_refused(v);
}
static int lazy_sequence_refused(fbe_view v) {
  const fbe_type *t = v.type;
  const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
  fbe_reader r = reader(v);
  uint32_t n;
  uint64_t at = v.at;
  if (v.model == FBE_MODEL_FINAL)
    return fbe_fin_read_count(&r, &at, (uint64_t)t->elem->final_min + (k ? k->final_min : 0), &n) ||
           lazy_count_over(t, n, v.end);
  if (at > v.end || 4 > v.end - at) return 1;
  if (fbe_load32(v.data + at) == 0) return 0; /* reads as empty */
  return fbe_std_read_sequence(&r, at, v.base, (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0), &at, &n) != 0;
}

/* ------------------------------------------------------------ standard model */

/* The value of type t whose slot is at `slot` (pointers relative to base). A struct is
 * resolved to its body at once; a null struct pointer (verify refuses one, decode
 * reads it as the default struct) reads as the struct's defaults, but in a lazy view,
 * which refuses what verify refuses, as it does a body of another type. */
static fbe_view std_value(fbe_view parent, const fbe_type *t, uint64_t slot, uint64_t base) {
  fbe_view v = parent;
  v.type = t;
  v.image = NULL;
  if (slot > v.end || t->wire_size > v.end - slot) return no_value;
  if (t->wire == FBE_KIND_STRUCT) {
    fbe_reader r = reader(v);
    uint32_t size = 0;
    if (fbe_load32(v.data + slot) == 0) {
      if (v.lazy) return no_value;
      fbe_ref d = {t, (void *)(uintptr_t)t->st->defaults, NULL};
      return from_image(parent, d);
    }
    if (fbe_std_read_struct(&r, slot, base, &v.at, &size)) return no_value;
    if (v.lazy && fbe_load32(v.data + v.at + 4) != t->st->type_id) return no_value;
    v.base = size;
    return v;
  }
  fbe_view s = {t, v.data, v.end, slot, base, NULL, v.model, v.lazy}; /* made whole (the top) */
  return lazy_bad_sequence(s) ? no_value : s;
}

/* Field i of a struct body: absent from a short body (an older writer) or null (a
 * string, bytes or optional pointer of 0) reads as the field's default (FORMAT.md
 * 5.10), as decode.c's std_short_body and field_default do. */
static fbe_view std_field(fbe_view v, size_t i) {
  const fbe_struct *st = v.type->st;
  const fbe_field *f = &st->fields[i];
  const fbe_type *t = f->type;
  uint64_t size = v.base, slot = v.at + f->wire_offset;
  if ((i < st->ninherited && st->base_body_size > size) || f->wire_offset + t->wire_size > size)
    goto dflt;
  if (is_scalar(t)) { /* the common case: inside the body (just checked), which is inside the model */
    fbe_view r = {t, v.data, v.end, slot, v.at, NULL, v.model, v.lazy};
    return r;
  }
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      if (fbe_load32(v.data + slot) == 0) goto dflt;
      break;
    case FBE_KIND_STRUCT: /* (lazy: std_value refuses pointer 0, as verify does) */
      if (!v.lazy && fbe_load32(v.data + slot) == 0) goto dflt;
      break;
    case FBE_KIND_OPTIONAL:
      if (v.data[slot] == 0) goto dflt;
      if (fbe_load32(v.data + slot + 1) == 0) {
        if (v.lazy) return no_value; /* present with pointer 0: verify refuses it */
        goto dflt;
      }
      break;
    default: break;
  }
  return std_value(v, t, slot, v.at);
dflt: {
    fbe_ref d = {t, (void *)(uintptr_t)((const uint8_t *)st->defaults + f->mem_offset), NULL};
    return from_image(v, d);
  }
}

/* ------------------------------------------------------------ final model */

/* The final-model size of a value that is always the same size, 0 otherwise. */
static uint64_t fin_fixed(const fbe_type *t) {
  if (is_scalar(t)) return t->wire_size;
  if (t->wire == FBE_KIND_ARRAY) return (uint64_t)t->array_size * fin_fixed(t->elem);
  return 0;
}

/* Moves *pos past the value of type t: reads only counts, lengths and flags (lazy: the
 * view's, whose counts were not verified). */
static int fin_skip(const fbe_reader *r, const fbe_type *t, uint64_t *pos, int lazy) {
  uint64_t fixed = fin_fixed(t);
  if (fixed) {
    if (fbe_fin_need(r, *pos, fixed)) return -1;
    *pos += fixed;
    return 0;
  }
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const uint8_t *data;
      uint32_t n;
      return fbe_fin_read_blob(r, pos, &data, &n);
    }
    case FBE_KIND_STRUCT:
      for (uint32_t i = 0; i < t->st->nfields; i++)
        if (fin_skip(r, t->st->fields[i].type, pos, lazy)) return -1;
      return 0;
    case FBE_KIND_OPTIONAL: {
      int present = fbe_fin_read_flag(r, pos);
      return present < 0 ? -1 : present ? fin_skip(r, t->elem, pos, lazy) : 0;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++)
        if (fin_skip(r, t->elem, pos, lazy)) return -1;
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint32_t n;
      if (fbe_fin_read_count(r, pos, (uint64_t)t->elem->final_min + (k ? k->final_min : 0), &n) ||
          (lazy && lazy_count_over(t, n, r->end)))
        return -1;
      uint64_t each = fin_fixed(t->elem);
      if (each && (!k || fin_fixed(k))) { /* fixed-size entries: the count was checked against the model */
        *pos += (uint64_t)n * (each + (k ? fin_fixed(k) : 0));
        return 0;
      }
      for (uint32_t i = 0; i < n; i++)
        if ((k && fin_skip(r, k, pos, lazy)) || fin_skip(r, t->elem, pos, lazy)) return -1;
      return 0;
    }
    default: return 0; /* every scalar is fixed */
  }
}

static fbe_view fin_value(fbe_view parent, const fbe_type *t, uint64_t pos) {
  fbe_view v = {t, parent.data, parent.end, pos, 0, NULL, parent.model, parent.lazy};
  return lazy_bad_sequence(v) ? no_value : v;
}

/* *out = fin_value(*c, t, pos), set in place. */
static void fin_item_at(fbe_view *out, const fbe_view *c, const fbe_type *t, uint64_t pos) {
  fbe_view v = {t, c->data, c->end, pos, 0, NULL, c->model, c->lazy};
  *out = lazy_bad_sequence(v) ? no_value : v;
}

/* The position of element i (entry i: its key) of a vector or map view, after a walk
 * over the ones before it. */
static int fin_item(fbe_view v, size_t i, uint64_t *pos) {
  fbe_reader r = reader(v);
  const fbe_type *t = v.type, *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
  uint32_t n;
  *pos = v.at;
  if (fbe_fin_read_count(&r, pos, (uint64_t)t->elem->final_min + (k ? k->final_min : 0), &n) ||
      i >= n)
    return -1;
  uint64_t fixed = fin_fixed(t->elem) && (!k || fin_fixed(k)) ? fin_fixed(t->elem) + (k ? fin_fixed(k) : 0) : 0;
  if (fixed) {
    *pos += fixed * i; /* inside the model: the count was checked against it */
    return 0;
  }
  for (size_t j = 0; j < i; j++)
    if ((k && fin_skip(&r, k, pos, v.lazy)) || fin_skip(&r, t->elem, pos, v.lazy)) return -1;
  return 0;
}

/* ------------------------------------------------------------ entry and navigation */

fbe_status fbe_view_open(const fbe_struct *type, fbe_model model, const void *data, size_t size,
                         const fbe_limits *limits, fbe_view *out, fbe_error *err) {
  fbe_error local;
  if (!err) err = &local;
  if (out) *out = no_value;
  if (!type || !out || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "missing type, output or data");
  size_t model_size = 0;
  fbe_status rc = fbe_verify(type, model, data, size, limits, &model_size, err);
  if (rc) return rc;
  fbe_view v = {type->self_type, data, model_size, 0, 0, NULL, model, 0};
  /* the root: standard, a struct pointer at 4 (base 0); final, fields from 8 */
  *out = model == FBE_MODEL_FINAL ? fin_value(v, type->self_type, 8) : std_value(v, type->self_type, 4, 0);
  if (!fbe_view_ok(*out)) return fbei_error_set(err, FBE_ERR_MALFORMED, 4, "the root struct is not in the model");
  return FBE_OK;
}

/* fbe_view_open_lazy's refusal: verify says why (it refuses these bytes at the header
 * or the root). Out of line: the open itself keeps no error on its stack. */
static fbe_status lazy_refused(const fbe_struct *type, fbe_model model, const void *data, size_t size,
                               const fbe_limits *limits, fbe_view *out, fbe_error *err) {
  fbe_error local;
  if (!err) err = &local;
  if (out) *out = no_value;
  if (!type || !out || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "missing type, output or data");
  fbe_status rc = fbe_verify(type, model, data, size, limits, NULL, err);
  return rc ? rc : fbei_error_set(err, FBE_ERR_MALFORMED, 4, "the root struct is not in the model");
}

fbe_status fbe_view_open_lazy(const fbe_struct *type, fbe_model model, const void *data, size_t size,
                              const fbe_limits *limits, fbe_view *out, fbe_error *err) {
  /* verify's first checks: the header (the model's size within the buffer and the
   * limit; the final model's type id), then the root struct (std_value: its pointer,
   * size and type id) */
  const uint8_t *p = data;
  int final = model == FBE_MODEL_FINAL;
  uint64_t total = size >= 4 ? fbe_load32(p) : 0, least = final ? 8 : 16;
  if (type && out && p && size >= least && total >= least && total <= size && total <= fbei_limits_size(limits) &&
      (!final || fbe_load32(p + 4) == type->type_id)) {
    fbe_view v = {type->self_type, p, total, 8, 0, NULL, model, 1}; /* final: the fields from 8 */
    if (!final) v = std_value(v, type->self_type, 4, 0);            /* standard: the root pointer at 4 */
    if (fbe_view_ok(v)) {
      *out = v;
      return FBE_OK;
    }
  }
  return lazy_refused(type, model, data, size, limits, out, err);
}

fbe_status fbe_view_rebind(fbe_view *v, const void *data, size_t size, fbe_error *err) {
  if (!v || !v->type) return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "the view has no value");
  if (!data || size < v->end)
    return fbei_error_set(err, FBE_ERR_MALFORMED, FBE_NO_OFFSET,
                          "the bytes under the view changed after it was opened (%zu bytes, the model has %llu)",
                          data ? size : (size_t)0, (unsigned long long)v->end);
  v->data = data;
  return FBE_OK;
}

fbe_status fbe_view_fault(const fbe_struct *root, fbe_view v, fbe_error *err) {
  if (root && v.data) {
    fbe_status rc = fbe_verify(root, v.model, v.data, (size_t)v.end, NULL, NULL, err);
    if (rc) return rc;
  }
  return fbei_error_set(err, FBE_ERR_MALFORMED, FBE_NO_OFFSET, "the bytes under the view changed after it was opened");
}

fbe_kind fbe_view_kind(fbe_view v) { return v.type ? v.type->kind : FBE_KIND_COUNT_; }

fbe_view fbe_view_field(fbe_view v, size_t index) {
  if (!v.type || v.type->kind != FBE_KIND_STRUCT || index >= v.type->st->nfields) return no_value;
  if (v.image) return from_image(v, fbe_ref_field_at(image_ref(v), index));
  if (v.model == FBE_MODEL_STANDARD) return std_field(v, index);
  fbe_reader r = reader(v);
  uint64_t pos = v.at;
  for (size_t i = 0; i < index; i++)
    if (fin_skip(&r, v.type->st->fields[i].type, &pos, v.lazy)) return no_value;
  return fin_value(v, v.type->st->fields[index].type, pos);
}

fbe_view fbe_view_field_named(fbe_view v, const char *name) {
  if (!v.type || v.type->kind != FBE_KIND_STRUCT || !name) return no_value;
  const fbe_field *f = fbe_struct_field(v.type->st, name);
  return f ? fbe_view_field(v, f->index) : no_value;
}

size_t fbe_view_count(fbe_view v) {
  if (!v.type) return 0;
  if (v.image) return fbe_ref_count(image_ref(v));
  const fbe_type *t = v.type;
  fbe_reader r = reader(v);
  uint32_t n = 0;
  if (t->wire == FBE_KIND_ARRAY) return t->array_size;
  if (t->wire != FBE_KIND_VECTOR && t->wire != FBE_KIND_MAP) return 0;
  const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
  if (v.model == FBE_MODEL_STANDARD) {
    uint64_t items;
    uint64_t stride = (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0);
    return fbe_std_read_sequence(&r, v.at, v.base, stride, &items, &n) ? 0 : n;
  }
  uint64_t pos = v.at;
  return fbe_fin_read_count(&r, &pos, (uint64_t)t->elem->final_min + (k ? k->final_min : 0), &n) ? 0 : n;
}

/* Element i of an array or vector (part 0), or key (1) / value (2) of map entry i. */
static fbe_view item(fbe_view v, size_t i, int part) {
  const fbe_type *t = v.type;
  if (!t) return no_value;
  int map = t->wire == FBE_KIND_MAP;
  if (part ? !map : t->wire != FBE_KIND_ARRAY && t->wire != FBE_KIND_VECTOR) return no_value;
  if (v.image) {
    fbe_ref r = image_ref(v);
    return from_image(v, part == 0 ? fbe_ref_at(r, i) : part == 1 ? fbe_ref_key_at(r, i) : fbe_ref_value_at(r, i));
  }
  const fbe_type *k = map ? t->key : NULL, *e = part == 1 ? k : t->elem;
  if (t->wire == FBE_KIND_ARRAY) {
    if (i >= t->array_size) return no_value;
    if (v.model == FBE_MODEL_STANDARD) return std_value(v, e, v.at + i * e->wire_size, v.base);
    fbe_reader r = reader(v);
    uint64_t pos = v.at, fixed = fin_fixed(e);
    if (fixed) return fin_value(v, e, pos + fixed * i); /* inside: verify read the whole array */
    for (size_t j = 0; j < i; j++)
      if (fin_skip(&r, e, &pos, v.lazy)) return no_value;
    return fin_value(v, e, pos);
  }
  if (v.model == FBE_MODEL_STANDARD) {
    fbe_reader r = reader(v);
    uint64_t items;
    uint32_t n;
    uint64_t stride = (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0);
    if (fbe_std_read_sequence(&r, v.at, v.base, stride, &items, &n) || i >= n) return no_value;
    return std_value(v, e, items + i * stride + (part == 2 ? k->wire_size : 0), v.base);
  }
  uint64_t pos;
  if (fin_item(v, i, &pos)) return no_value;
  if (part == 2) {
    fbe_reader r = reader(v);
    if (fin_skip(&r, k, &pos, v.lazy)) return no_value;
  }
  return fin_value(v, e, pos);
}

fbe_view fbe_view_at(fbe_view v, size_t index) { return item(v, index, 0); }
fbe_view fbe_view_key_at(fbe_view v, size_t index) { return item(v, index, 1); }
fbe_view fbe_view_value_at(fbe_view v, size_t index) { return item(v, index, 2); }

/* Standard model: the slot of the first element (entry) and their stride. */
static int std_items(fbe_view v, uint64_t *items, uint64_t *stride) {
  const fbe_type *t = v.type, *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
  fbe_reader r = reader(v);
  uint32_t n;
  *stride = (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0);
  if (t->wire == FBE_KIND_ARRAY) {
    *items = v.at;
    return 0;
  }
  return fbe_std_read_sequence(&r, v.at, v.base, *stride, items, &n);
}

fbe_view_iter fbe_view_iterate(fbe_view v) {
  fbe_view_iter it = {v, 0, fbe_view_count(v), v.at, 0}; /* a final-model array's elements start at once */
  if (!it.count || v.image) return it;
  if (v.model == FBE_MODEL_STANDARD ? std_items(v, &it.pos, &it.stride)
                                    : v.type->wire != FBE_KIND_ARRAY && fin_item(v, 0, &it.pos))
    it.count = 0;
  return it;
}

/* *out = std_value(*c, t, slot, c->base), set in place: only a struct needs resolving;
 * the others are the slot, checked against the model's end. */
static void std_item(fbe_view *out, const fbe_view *c, const fbe_type *t, uint64_t slot) {
  if (t->wire == FBE_KIND_STRUCT) {
    *out = std_value(*c, t, slot, c->base);
  } else if (slot > c->end || t->wire_size > c->end - slot) {
    *out = no_value;
  } else {
    fbe_view v = {t, c->data, c->end, slot, c->base, NULL, c->model, c->lazy}; /* made whole (the top) */
    *out = lazy_bad_sequence(v) ? no_value : v;
  }
}

/* Standard model: element i's slot is element i-1's plus the stride. Final model:
 * element i sits where element i-1 ended, so each step skips one value (fin_skip reads
 * only its lengths). Images index directly. */
int fbe_view_next(fbe_view_iter *it, fbe_view *item_or_key, fbe_view *value) {
  if (!it || it->index >= it->count) return 0;
  fbe_view v = it->of;
  const fbe_type *t = v.type;
  int map = t->wire == FBE_KIND_MAP;
  size_t i = it->index++;
  if (!v.image && v.model == FBE_MODEL_STANDARD) {
    uint64_t slot = it->pos;
    it->pos += it->stride;
    if (map) {
      if (item_or_key) std_item(item_or_key, &it->of, t->key, slot);
      if (value) std_item(value, &it->of, t->elem, slot + t->key->wire_size);
    } else if (item_or_key) {
      std_item(item_or_key, &it->of, t->elem, slot);
    }
    return 1;
  }
  if (v.image) {
    if (map) {
      if (item_or_key) *item_or_key = fbe_view_key_at(v, i);
      if (value) *value = fbe_view_value_at(v, i);
    } else if (item_or_key) {
      *item_or_key = fbe_view_at(v, i);
    }
    return 1;
  }
  fbe_reader r = reader(v);
  if (map) {
    if (item_or_key) fin_item_at(item_or_key, &it->of, t->key, it->pos);
    if (fin_skip(&r, t->key, &it->pos, v.lazy)) goto outside;
    if (value) fin_item_at(value, &it->of, t->elem, it->pos);
  } else if (item_or_key) {
    fin_item_at(item_or_key, &it->of, t->elem, it->pos);
  }
  if (fin_skip(&r, t->elem, &it->pos, v.lazy)) goto outside;
  return 1;
outside: /* only bytes changed after the open get here */
  it->count = it->index;
  if (item_or_key) *item_or_key = no_value;
  if (value) *value = no_value;
  return 1;
}

/* ------------------------------------------------------------ optionals */

/* 1 present (*value set), 0 null, -1 not an optional or outside the model. */
static int optional(fbe_view v, fbe_view *value) {
  if (!v.type || v.type->kind != FBE_KIND_OPTIONAL) return -1;
  if (v.image) {
    fbe_ref r = fbe_ref_deref(image_ref(v));
    *value = from_image(v, r);
    return r.slot != NULL;
  }
  fbe_reader r = reader(v);
  const fbe_type *e = v.type->elem;
  if (v.model == FBE_MODEL_STANDARD) {
    uint64_t at;
    if (v.lazy && v.at < v.end && v.end - v.at >= 5 && v.data[v.at] && !fbe_load32(v.data + v.at + 1))
      return -1; /* present with pointer 0: verify refuses it */
    int present = fbe_std_read_optional(&r, v.at, v.base, e->wire_size, &at);
    if (present == 1) *value = std_value(v, e, at, at); /* the value's pointers are relative to its slot */
    return present;
  }
  uint64_t pos = v.at;
  int present = fbe_fin_read_flag(&r, &pos);
  if (present == 1) *value = fin_value(v, e, pos);
  return present;
}

int fbe_view_is_null(fbe_view v) {
  fbe_view value;
  return optional(v, &value) == 0;
}

fbe_view fbe_view_deref(fbe_view v) {
  fbe_view value = no_value;
  return optional(v, &value) == 1 ? value : no_value;
}

/* ------------------------------------------------------------ scalars and blobs */

/* A cursor on the scalar of v in fbe_ref's layout: read from the bytes into *slot (the
 * wire's little-endian of its width, in host order), or v's image. slot NULL when v is
 * not a scalar. */
typedef union scalar_slot { uint64_t u64; uint32_t u32; uint16_t u16; uint8_t bytes[16]; } scalar_slot;

static fbe_ref scalar_ref(fbe_view v, scalar_slot *slot) {
  fbe_ref r = {v.type, NULL, NULL};
  if (!v.type || !is_scalar(v.type)) return r;
  if (v.image) return image_ref(v);
  if (v.at > v.end || v.type->wire_size > v.end - v.at) return r;
  const uint8_t *p = v.data + v.at;
  switch (v.type->wire_size) {
    case 1: slot->bytes[0] = v.type->wire == FBE_KIND_BOOL ? (uint8_t)fbe_load_bool(p) : *p; break;
    case 2: slot->u16 = fbe_load16(p); break;
    case 4: slot->u32 = fbe_load32(p); break;
    case 8: slot->u64 = fbe_load64(p); break;
    default: fbe_load16bytes(p, slot->bytes); break; /* decimal, uuid */
  }
  r.slot = slot;
  return r;
}

/* The fast path of the getters: an integer-like scalar (not bool) in the bytes, as
 * fbei_scalar_load gives it (sign-extended for signed kinds); 0 when v is something
 * else (an image, another kind, outside the model), which the fbe_ref path handles. */
static int wire_int(fbe_view v, uint64_t *bits) {
  const fbe_type *t = v.type;
  if (!t || v.image || t->wire == FBE_KIND_BOOL || (t->wire > FBE_KIND_UINT64 && t->wire != FBE_KIND_TIMESTAMP) ||
      v.at > v.end || t->wire_size > v.end - v.at)
    return 0;
  const uint8_t *p = v.data + v.at;
  switch (t->wire) {
    case FBE_KIND_INT8: *bits = (uint64_t)(int64_t)(int8_t)*p; break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: *bits = *p; break;
    case FBE_KIND_INT16: *bits = (uint64_t)(int64_t)(int16_t)fbe_load16(p); break;
    case FBE_KIND_UINT16: *bits = fbe_load16(p); break;
    case FBE_KIND_INT32: *bits = (uint64_t)(int64_t)(int32_t)fbe_load32(p); break;
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR: *bits = fbe_load32(p); break;
    default: *bits = fbe_load64(p); break; /* int64, uint64, timestamp */
  }
  return 1;
}

fbe_status fbe_view_get_int(fbe_view v, int64_t *out) {
  uint64_t x;
  if (wire_int(v, &x) && (x <= (uint64_t)INT64_MAX || fbei_kind_is_signed(v.type->wire))) {
    *out = (int64_t)x; /* an unsigned above INT64_MAX: the range error below */
    return FBE_OK;
  }
  scalar_slot s;
  return fbe_ref_get_int(scalar_ref(v, &s), out);
}

fbe_status fbe_view_get_uint(fbe_view v, uint64_t *out) {
  uint64_t x;
  if (wire_int(v, &x) && (int64_t)x >= 0) { /* a negative of a signed kind: the range error below */
    *out = x;
    return FBE_OK;
  }
  scalar_slot s;
  return fbe_ref_get_uint(scalar_ref(v, &s), out);
}

fbe_status fbe_view_get_double(fbe_view v, double *out) {
  const fbe_type *t = v.type;
  if (t && !v.image && (t->wire == FBE_KIND_DOUBLE || t->wire == FBE_KIND_FLOAT) && v.at <= v.end &&
      t->wire_size <= v.end - v.at) {
    *out = t->wire == FBE_KIND_DOUBLE ? fbe_load_double(v.data + v.at) : (double)fbe_load_float(v.data + v.at);
    return FBE_OK;
  }
  scalar_slot s;
  return fbe_ref_get_double(scalar_ref(v, &s), out);
}

fbe_status fbe_view_get_bool(fbe_view v, int *out) {
  scalar_slot s;
  return fbe_ref_get_bool(scalar_ref(v, &s), out);
}

fbe_status fbe_view_get_decimal(fbe_view v, fbe_decimal *out) {
  scalar_slot s;
  fbe_ref r = scalar_ref(v, &s);
  if (v.lazy && r.slot && !v.image && v.type->wire == FBE_KIND_DECIMAL && fbei_decimal_bad(v.data + v.at))
    return FBE_ERR_MALFORMED; /* verify refuses it */
  return fbe_ref_get_decimal(r, out);
}

fbe_status fbe_view_get_uuid(fbe_view v, fbe_uuid *out) {
  scalar_slot s;
  return fbe_ref_get_uuid(scalar_ref(v, &s), out);
}

fbe_status fbe_view_get_scalars(fbe_view v, const uint8_t **data, size_t *count, size_t *size) {
  const fbe_type *t = v.type;
  if (!t || (t->wire != FBE_KIND_ARRAY && t->wire != FBE_KIND_VECTOR) || !is_scalar(t->elem) || !data || !count ||
      !size)
    return FBE_ERR_TYPE;
  uint64_t w = t->elem->wire_size, at = v.at;
  uint32_t n = 0;
  if (v.image) { /* a schema default: in memory, not on the wire; an empty one is fine */
    if (fbe_ref_count(image_ref(v))) return FBE_ERR_TYPE;
    at = 0;
  } else if (t->wire == FBE_KIND_ARRAY) {
    n = t->array_size;
    if (at > v.end || (uint64_t)n * w > v.end - at) return FBE_ERR_TYPE;
  } else {
    fbe_reader r = reader(v);
    if (v.model == FBE_MODEL_STANDARD ? fbe_std_read_sequence(&r, v.at, v.base, w, &at, &n)
                                      : fbe_fin_read_count(&r, &at, w, &n)) /* both check n * w */
      return FBE_ERR_TYPE;
  }
  *data = n ? v.data + at : (const uint8_t *)"";
  *count = n;
  *size = (size_t)w;
  return FBE_OK;
}

/* Null (pointer 0) reads as empty here: a field's null was turned into its default by
 * std_field already. */
fbe_status fbe_view_get_bytes(fbe_view v, const uint8_t **data, size_t *size) {
  if (!v.type || (v.type->wire != FBE_KIND_STRING && v.type->wire != FBE_KIND_BYTES)) return FBE_ERR_TYPE;
  if (v.image) return fbe_ref_get_bytes(image_ref(v), data, size);
  fbe_reader r = reader(v);
  const uint8_t *p = NULL;
  uint32_t n = 0;
  if (v.model == FBE_MODEL_STANDARD) {
    if (v.at > v.end || 4 > v.end - v.at || fbe_std_read_blob(&r, v.at, v.base, &p, &n)) return FBE_ERR_TYPE;
  } else {
    uint64_t pos = v.at;
    if (fbe_fin_read_blob(&r, &pos, &p, &n)) return FBE_ERR_TYPE;
  }
  if (v.lazy && v.type->wire == FBE_KIND_STRING && !fbei_utf8_valid(p, n))
    return FBE_ERR_MALFORMED; /* verify refuses it */
  *data = p ? p : (const uint8_t *)"";
  *size = n;
  return FBE_OK;
}

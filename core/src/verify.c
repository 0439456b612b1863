/* Verification of both wire models without materialising values (FORMAT.md 5.11, 6.5),
 * with the stricter checks the spec recommends: every block lies inside the model,
 * collection element areas and optional value slots fit, nesting is bounded, and the
 * work is bounded by the model size (pointers shared by many slots cannot blow up). */
#include <stdio.h>
#include <string.h>
#include "fbe/codec.h"
#include "endian.h"
#include "error_internal.h"
#include "value.h"

typedef struct verifier {
  const uint8_t *p;
  uint64_t end;      /* the model occupies [0, end) */
  uint32_t depth, max_depth;
  uint64_t budget;   /* values left to visit */
  fbe_error *err;
} verifier;

/* Values a well-formed model of n bytes can hold at most, with room to spare. */
static uint64_t work_budget(uint64_t n) { return 16 * n + 4096; }

static int fail(verifier *v, uint64_t offset, const char *fmt, unsigned long long a) {
  char msg[160];
  snprintf(msg, sizeof msg, fmt, a);
  fbe_error_set(v->err, FBE_ERR_MALFORMED, (size_t)offset, "%s", msg);
  return -1;
}

static int enter(verifier *v, uint64_t offset) {
  if (++v->depth > v->max_depth) {
    fbe_error_set(v->err, FBE_ERR_LIMIT, (size_t)offset, "nesting deeper than %u levels",
                  v->max_depth);
    return -1;
  }
  if (v->budget == 0) return fail(v, offset, "too many values share the same bytes%.0llu", 0);
  v->budget--;
  return 0;
}

/* Follows the pointer stored at `slot` relative to `base`: the target must hold `need`
 * bytes inside the model and lie after the slot (writers allocate blocks after it). */
static int follow(verifier *v, uint64_t slot, uint64_t base, uint64_t need, uint64_t *out) {
  uint32_t ptr = fbe_load32(v->p + slot);
  uint64_t at = base + ptr;
  if (at <= slot || at > v->end || need > v->end - at)
    return fail(v, slot, "pointer %llu leads outside the model", ptr);
  *out = at;
  return 0;
}

/* ------------------------------------------------------------ standard model */

static int std_struct(verifier *v, uint64_t slot, uint64_t base, const fbe_struct *st);

static int std_value(verifier *v, const fbe_type *t, uint64_t slot, uint64_t base) {
  uint64_t at;
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      if (fbe_load32(v->p + slot) == 0) return 0; /* reads as the default */
      if (follow(v, slot, base, 4, &at)) return -1;
      if (fbe_load32(v->p + at) > v->end - at - 4)
        return fail(v, at, "size %llu runs past the end of the model", fbe_load32(v->p + at));
      return 0;
    case FBE_KIND_STRUCT:
      return std_struct(v, slot, base, t->st);
    case FBE_KIND_OPTIONAL: {
      if (v->p[slot] == 0) return 0;
      if (fbe_load32(v->p + slot + 1) == 0)
        return fail(v, slot, "optional marked present has no value%.0llu", 0);
      if (follow(v, slot + 1, base, t->elem->wire_size, &at) || enter(v, at)) return -1;
      int rc = std_value(v, t->elem, at, at);
      v->depth--;
      return rc;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++) {
        if (std_value(v, t->elem, slot + (uint64_t)i * t->elem->wire_size, base)) {
          fbe_error_prepend_index(v->err, i);
          return -1;
        }
      }
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      if (fbe_load32(v->p + slot) == 0) return 0; /* reads as empty */
      if (follow(v, slot, base, 4, &at) || enter(v, at)) return -1;
      uint32_t n = fbe_load32(v->p + at);
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint64_t stride = (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0);
      if (stride * n > v->end - at - 4)
        return fail(v, at, "%llu elements do not fit in the model", n);
      if (n > v->budget) return fail(v, at, "%llu elements exceed the work limit", n);
      v->budget -= n;
      for (uint32_t i = 0; i < n; i++) {
        uint64_t item = at + 4 + i * stride;
        if ((k && std_value(v, k, item, base)) ||
            std_value(v, t->elem, item + (k ? k->wire_size : 0), base)) {
          fbe_error_prepend_index(v->err, i);
          return -1;
        }
      }
      v->depth--;
      return 0;
    }
    default:
      return 0; /* scalars: any bit pattern is valid */
  }
}

static int std_fields(verifier *v, const fbe_struct *st, uint64_t b, uint32_t size) {
  uint32_t first = st->base_body_size <= size ? 0 : st->ninherited; /* inherited: all or none */
  for (uint32_t i = first; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    if (f->wire_offset + f->type->wire_size > size) break; /* written by an older schema */
    if (std_value(v, f->type, b + f->wire_offset, b)) {
      fbe_error_prepend_field(v->err, f->name);
      return -1;
    }
  }
  return 0;
}

static int std_struct(verifier *v, uint64_t slot, uint64_t base, const fbe_struct *st) {
  uint64_t b;
  if (fbe_load32(v->p + slot) == 0) return fail(v, slot, "struct pointer is 0%.0llu", 0);
  if (follow(v, slot, base, 8, &b) || enter(v, b)) return -1;
  uint32_t size = fbe_load32(v->p + b), type_id = fbe_load32(v->p + b + 4);
  if (size < 8) return fail(v, b, "struct size %llu is smaller than its 8-byte header", size);
  if (size > v->end - b) return fail(v, b, "struct size %llu runs past the end of the model", size);
  if (type_id != st->type_id) {
    char msg[160];
    snprintf(msg, sizeof msg, "type id %u where %s (%u) was expected", type_id, st->full_name,
             st->type_id);
    fbe_error_set(v->err, FBE_ERR_MALFORMED, (size_t)(b + 4), "%s", msg);
    return -1;
  }
  int rc = std_fields(v, st, b, size);
  v->depth--;
  return rc;
}

static int verify_standard(verifier *v, const fbe_struct *st, size_t size, size_t *model_size) {
  if (size < 16) return fail(v, 0, "%llu bytes are too few for a standard model (16 at least)", size);
  uint32_t total = fbe_load32(v->p);
  if (total < 16) return fail(v, 0, "model size %llu is smaller than 16", total);
  if (total > size) return fail(v, 0, "model size %llu runs past the end of the buffer", total);
  v->end = total;
  v->budget = work_budget(total);
  if (std_struct(v, 4, 0, st)) return -1;
  if (model_size) *model_size = total;
  return 0;
}

/* ------------------------------------------------------------ final model */

/* Verifies one value at *pos, advancing it. */
static int fin_value(verifier *v, const fbe_type *t, uint64_t *pos);

static int fin_need(verifier *v, uint64_t pos, uint64_t n) {
  if (n > v->end - pos) return fail(v, pos, "%llu bytes needed past the end of the model", n);
  return 0;
}

static int fin_struct(verifier *v, const fbe_struct *st, uint64_t *pos) {
  if (enter(v, *pos)) return -1;
  for (uint32_t i = 0; i < st->nfields; i++) {
    if (fin_value(v, st->fields[i].type, pos)) {
      fbe_error_prepend_field(v->err, st->fields[i].name);
      return -1;
    }
  }
  v->depth--;
  return 0;
}

static int fin_value(verifier *v, const fbe_type *t, uint64_t *pos) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      if (fin_need(v, *pos, 4)) return -1;
      uint32_t n = fbe_load32(v->p + *pos);
      if (n > v->end - *pos - 4) return fail(v, *pos, "size %llu runs past the end of the model", n);
      *pos += 4 + (uint64_t)n;
      return 0;
    }
    case FBE_KIND_STRUCT: return fin_struct(v, t->st, pos);
    case FBE_KIND_OPTIONAL: {
      if (fin_need(v, *pos, 1)) return -1;
      return v->p[(*pos)++] ? fin_value(v, t->elem, pos) : 0;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++) {
        if (fin_value(v, t->elem, pos)) {
          fbe_error_prepend_index(v->err, i);
          return -1;
        }
      }
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      if (fin_need(v, *pos, 4) || enter(v, *pos)) return -1;
      uint32_t n = fbe_load32(v->p + *pos);
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint64_t least = (uint64_t)t->elem->final_min + (k ? k->final_min : 0);
      if (least * n > v->end - *pos - 4)
        return fail(v, *pos, "%llu elements do not fit in the model", n);
      if (n > v->budget) return fail(v, *pos, "%llu elements exceed the work limit", n);
      v->budget -= n;
      *pos += 4;
      for (uint32_t i = 0; i < n; i++) {
        if ((k && fin_value(v, k, pos)) || fin_value(v, t->elem, pos)) {
          fbe_error_prepend_index(v->err, i);
          return -1;
        }
      }
      v->depth--;
      return 0;
    }
    default:
      if (fin_need(v, *pos, t->wire_size)) return -1;
      *pos += t->wire_size;
      return 0;
  }
}

static int verify_final(verifier *v, const fbe_struct *st, size_t size, size_t *model_size) {
  if (size < 8) return fail(v, 0, "%llu bytes are too few for a final model (8 at least)", size);
  uint32_t total = fbe_load32(v->p), type_id = fbe_load32(v->p + 4);
  if (total < 8) return fail(v, 0, "model size %llu is smaller than its 8-byte header", total);
  if (total > size) return fail(v, 0, "model size %llu runs past the end of the buffer", total);
  if (type_id != st->type_id) {
    fbe_error_set(v->err, FBE_ERR_MALFORMED, 4, "type id %u where %s (%u) was expected", type_id,
                  st->full_name, st->type_id);
    return -1;
  }
  v->end = total;
  v->budget = work_budget(total);
  uint64_t pos = 8;
  if (fin_struct(v, st, &pos)) return -1;
  if (pos != total)
    return fail(v, pos, "fields end here but the model size says %llu", total);
  if (model_size) *model_size = total;
  return 0;
}

fbe_status fbe_verify(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                      const fbe_limits *limits, size_t *model_size, fbe_error *err) {
  if (!type || (!data && size))
    return fbe_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no type or data");
  fbe_error local;
  if (!err) err = &local;
  fbe_limits def = fbe_limits_default();
  if (!limits) limits = &def;
  if (size > limits->max_model_size)
    return fbe_error_set(err, FBE_ERR_LIMIT, 0, "buffer of %zu bytes exceeds the model size limit",
                         size);
  verifier v = {data, 0, 0, limits->max_depth, 0, err};
  int rc = model == FBE_MODEL_FINAL ? verify_final(&v, type, size, model_size)
                                    : verify_standard(&v, type, size, model_size);
  return rc ? err->code : FBE_OK;
}

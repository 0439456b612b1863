/* Python objects -> the core's in-memory value (value.h), walked once per message by
 * the struct's field table: structs, optionals and collections here, scalars in
 * convert.c, by the input table of docs/INPUT.md. Every function writes a complete
 * value of its type into `slot` or fails with c->err set or a Python exception pending
 * (binding.h). `want` is the type a refusal names: the slot's own, or the optional
 * around it ("int32 or null"). */
#include <string.h>
#include "binding.h"
#include "fbe/internal/duplicates.h"
#include "fbe/internal/input.h"

static int put_value(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint8_t *slot);

void pf_enc_init(pf_enc *c, fbei_scratch *s) {
  c->s = s;
  c->depth = 0;
  c->bytes = 0;
  c->err.code = FBE_OK; /* no error yet: fbe_error_prepend_* do nothing */
  c->err.offset = FBE_NO_OFFSET;
  c->err.path[0] = c->err.message[0] = '\0';
}

static int type_error(pf_enc *c, const fbe_type *want, PyObject *v) { return pf_type_error(&c->err, want, NULL, v); }

static int nomem(pf_enc *c) { return pf_fail(c, FBE_ERR_NOMEM, "out of memory"); }

#if PY_VERSION_HEX < 0x030B0000
#include "longintrepr.h" /* 3.11 on: included by Python.h */
#endif

/* The value of an int (not a subclass) of one internal digit, most of them: read in
 * place, as PyLong_AsLongLongAndOverflow reads it first. 0 when it has more digits. */
static inline int small_int(PyObject *v, long long *out) {
#if PY_VERSION_HEX >= 0x030C0000
  if (!PyUnstable_Long_IsCompact((PyLongObject *)v)) return 0;
  *out = (long long)PyUnstable_Long_CompactValue((PyLongObject *)v);
#else
  Py_ssize_t size = Py_SIZE(v);
  if (size < -1 || size > 1) return 0;
  *out = (long long)size * (long long)((PyLongObject *)v)->ob_digit[0];
#endif
  return 1;
}

/* The common case without the general walk (whose per-kind calls and checks cost more
 * than the store): v has the exact builtin type of t's kind (t->fast, chosen at bind)
 * and needs no conversion, so no user code runs (but in a struct's own fields) and
 * nothing is refused. 1 when stored, 0 when the general walk must decide, -1 on
 * failure (a struct's). */
static inline int put_fast(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint8_t *slot) {
  switch (t->fast) {
    case PF_FAST_INT: case PF_FAST_ENUM: {
      if (t->fast == PF_FAST_INT ? !PyLong_CheckExact(v) : (PyObject *)Py_TYPE(v) != t->en->cls) return 0;
      int overflow = 0;
      long long x;
      if (!small_int(v, &x)) x = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (overflow || x < t->min || (x > 0 && (uint64_t)x > t->max)) return 0; /* a range error, or a uint64 */
      fbei_scalar_store(t->wire, slot, (uint64_t)x);
      return 1;
    }
    case PF_FAST_BOOL:
      if (v != Py_True && v != Py_False) return 0;
      *slot = v == Py_True;
      return 1;
    case PF_FAST_DOUBLE: {
      if (!PyFloat_CheckExact(v)) return 0;
      double d = PyFloat_AS_DOUBLE(v);
      memcpy(slot, &d, 8);
      return 1;
    }
    case PF_FAST_STRING: {
      if (!PyUnicode_CheckExact(v) || !PyUnicode_IS_COMPACT_ASCII(v) || PyUnicode_GET_LENGTH(v) > UINT32_MAX) return 0;
      Py_ssize_t n = PyUnicode_GET_LENGTH(v);
      if (n && pf_keep(c->s, v)) return nomem(c); /* kept: a later value may run user code */
      fbei_str *str = (fbei_str *)(void *)slot;
      str->data = PyUnicode_DATA(v);
      str->size = (uint32_t)n;
      c->bytes += (size_t)n;
      return 1;
    }
    case PF_FAST_STRUCT: {
      if (Py_TYPE(v) != t->st->cls) return 0;
      Py_INCREF(v); /* its fields may run user code, which may drop it from its container */
      int rc = pf_put_struct(c, t->st, want, v, slot);
      Py_DECREF(v);
      return rc ? -1 : 1;
    }
    default: return 0;
  }
}

/* n element slots of `size` bytes in the arena (NULL when n is 0), or -1 with the error. */
static int alloc_items(pf_enc *c, Py_ssize_t n, size_t size, uint8_t **out) {
  if ((size_t)n > UINT32_MAX) return pf_fail(c, FBE_ERR_RANGE, "%zd items do not fit FBE's 32-bit count", n);
  *out = n ? fbe_arena_alloc(c->s->arena, (size_t)n * size) : NULL;
  return n && !*out ? nomem(c) : 0;
}

/* A list or tuple (a set too, for a set), as a new reference to a sequence for
 * PySequence_Fast_* access. */
static PyObject *as_sequence(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v) {
  if (PyList_Check(v) || PyTuple_Check(v)) {
    Py_INCREF(v);
    return v;
  }
  if (t->kind == FBE_KIND_SET && PyAnySet_Check(v)) return PySequence_Fast(v, "a set");
  type_error(c, want, v);
  return NULL;
}

static int put_items(pf_enc *c, const pf_type *elem, PyObject *seq, uint8_t *data, Py_ssize_t n) {
  for (Py_ssize_t i = 0; i < n; i++) {
    if (i >= PySequence_Fast_GET_SIZE(seq)) /* changed under us by a callback */
      return pf_fail(c, FBE_ERR_ARGUMENT, "sequence changed size during encoding");
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    uint8_t *slot = data + (size_t)i * elem->t->mem_size;
    int rc = put_fast(c, elem, elem->t, item, slot); /* inline: most elements */
    if (!rc) {
      Py_INCREF(item);
      rc = put_value(c, elem, elem->t, item, slot);
      Py_DECREF(item);
    }
    if (rc < 0) {
      fbei_error_prepend_index(&c->err, (size_t)i);
      return -1;
    }
  }
  return 0;
}

/* An array (fixed size, inline) or a vector, list or set (an fbei_vec). */
static int put_sequence(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint8_t *slot) {
  fbei_vec *vec = t->kind == FBE_KIND_ARRAY ? NULL : (fbei_vec *)(void *)slot;
  if (vec) memset(vec, 0, sizeof *vec);
  PyObject *seq = as_sequence(c, t, want, v);
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  uint8_t *data = slot;
  int rc;
  if (!vec && n != (Py_ssize_t)t->t->array_size) {
    rc = fbei_error_array_length(&c->err, t->t, (size_t)n) ? -1 : 0;
  } else if (!vec || !(rc = alloc_items(c, n, t->elem->t->mem_size, &data))) {
    if (vec) {
      vec->data = data;
      vec->count = vec->cap = (uint32_t)n;
    }
    rc = put_items(c, t->elem, seq, data, n);
  }
  Py_DECREF(seq);
  return rc;
}

static int put_pair(pf_enc *c, const pf_type *t, PyObject *k, PyObject *v, uint8_t *pair, size_t i) {
  Py_INCREF(k);
  Py_INCREF(v);
  int rc = put_value(c, t->key, t->key->t, k, pair);
  if (rc) fbei_error_prepend_key(&c->err);
  else rc = put_value(c, t->elem, t->elem->t, v, pair + t->t->pair_value_offset);
  if (rc) fbei_error_prepend_index(&c->err, i);
  Py_DECREF(k);
  Py_DECREF(v);
  return rc;
}

/* A dict, or the ordered form: a list or tuple of (key, value) pairs, in wire order. */
static int put_map(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, fbei_vec *vec) {
  memset(vec, 0, sizeof *vec);
  int is_dict = PyDict_Check(v);
  if (!is_dict && !PyList_Check(v) && !PyTuple_Check(v)) return type_error(c, want, v);
  Py_ssize_t n = is_dict ? PyDict_GET_SIZE(v) : PySequence_Fast_GET_SIZE(v), pos = 0;
  uint8_t *data;
  if (alloc_items(c, n, t->t->pair_stride, &data)) return -1;
  vec->data = data;
  Py_INCREF(v);
  int rc = 0;
  for (Py_ssize_t i = 0; i < n && !rc; i++) {
    PyObject *key, *value, *item = NULL;
    if (is_dict ? !PyDict_Next(v, &pos, &key, &value) : i >= PySequence_Fast_GET_SIZE(v)) {
      rc = pf_fail(c, FBE_ERR_ARGUMENT, "%s changed size during encoding", is_dict ? "dict" : "sequence");
      break;
    }
    if (!is_dict) {
      item = PySequence_Fast_GET_ITEM(v, i);
      if (!(PyTuple_Check(item) || PyList_Check(item)) || PySequence_Fast_GET_SIZE(item) != 2) {
        rc = type_error(c, want, v); /* not the ordered form of a map */
        break;
      }
      Py_INCREF(item);
      key = PySequence_Fast_GET_ITEM(item, 0);
      value = PySequence_Fast_GET_ITEM(item, 1);
    }
    rc = put_pair(c, t, key, value, data + (size_t)i * t->t->pair_stride, (size_t)i);
    Py_XDECREF(item);
    if (!rc) vec->count = vec->cap = (uint32_t)(i + 1);
  }
  if (!rc && is_dict && PyDict_GET_SIZE(v) != n)
    rc = pf_fail(c, FBE_ERR_ARGUMENT, "dict changed size during encoding");
  Py_DECREF(v);
  return rc;
}

static int put_value(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint8_t *slot) {
  int rc = put_fast(c, t, want, v, slot);
  if (rc) return rc < 0 ? -1 : 0;
  if (t->scalar) return pf_put_scalar(c, t, want, v, slot);
  switch (t->kind) {
    case FBE_KIND_STRUCT: return pf_put_struct(c, t->st, want, v, slot); /* not a level: the core's rule */
    case FBE_KIND_ARRAY: return put_sequence(c, t, want, v, slot);
    case FBE_KIND_OPTIONAL: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      if (t->kind == FBE_KIND_OPTIONAL && v == Py_None) {
        *(void **)slot = NULL;
        return 0;
      }
      /* Optionals and collections count one level each, as the core's encode and
       * decode count them (FBE_DEFAULT_MAX_DEPTH): what decodes encodes again. */
      if (++c->depth > FBE_DEFAULT_MAX_DEPTH)
        return pf_fail(c, FBE_ERR_LIMIT, "value nested deeper than %u levels", FBE_DEFAULT_MAX_DEPTH);
      if (t->kind == FBE_KIND_OPTIONAL) {
        void *inner = fbe_arena_alloc(c->s->arena, t->elem->t->mem_size);
        if (!inner) return nomem(c);
        rc = put_value(c, t->elem, want, v, inner); /* a refusal names "T or null" */
        *(void **)slot = inner;
      } else if (t->kind == FBE_KIND_MAP || t->kind == FBE_KIND_HASH) {
        rc = put_map(c, t, want, v, (fbei_vec *)(void *)slot);
      } else {
        rc = put_sequence(c, t, want, v, slot);
      }
      /* a set element or map key given twice is kept once, as every reader keeps it */
      if (!rc && t->kind != FBE_KIND_OPTIONAL && fbei_keys_dedup(t->t, slot)) rc = nomem(c);
      c->depth--;
      return rc;
    default: return pf_fail(c, FBE_ERR_TYPE, "unsupported type %s", fbe_kind_name(t->kind));
  }
}

/* A field that was not given: its schema default, from the struct's default image. */
static int put_default(pf_enc *c, const pf_struct *si, uint32_t i, uint8_t *slot) {
  const fbe_field *f = si->fields[i].f;
  memcpy(slot + f->mem_offset, si->fields[i].image, f->type->mem_size);
  if (si->st->dynamic_defaults && fbei_struct_apply_dynamic_defaults(si->st, slot, i, i + 1, c->s->arena))
    return nomem(c);
  return 0;
}

/* Field i of si (f) into slot from v, a borrowed reference or NULL (not given: the default). */
static int put_field(pf_enc *c, const pf_struct *si, uint32_t i, PyObject *v, uint8_t *slot) {
  const pf_field *f = &si->fields[i];
  if (!v) return put_default(c, si, i, slot);
  Py_INCREF(v);
  int rc = put_value(c, f->type, f->type->t, v, slot + f->f->mem_offset);
  Py_DECREF(v);
  if (rc) fbei_error_prepend_field(&c->err, f->f->name);
  return rc;
}

/* A dict of field values: every key must name a field. */
static int put_dict(pf_enc *c, const pf_struct *si, PyObject *obj, uint8_t *slot) {
  Py_ssize_t found = 0;
  for (uint32_t i = 0; i < si->nfields; i++) {
    PyObject *v = PyDict_GetItemWithError(obj, si->fields[i].name);
    found += v != NULL;
    if ((!v && PyErr_Occurred()) || put_field(c, si, i, v, slot)) return -1;
  }
  if (found == PyDict_GET_SIZE(obj)) return 0;
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(obj, &pos, &key, &value))
    if (!pf_field_named(si, key)) {
      pf_unknown_field(&c->err, si, key);
      return -1;
    }
  return pf_fail(c, FBE_ERR_ARGUMENT, "dict changed during encoding");
}

/* si's struct in the class tp of another load of the schema (tp's own, or one it
 * derives from: protoex.Balance for proto.Balance), or NULL. */
static const pf_struct *same_struct(const pf_struct *si, PyTypeObject *tp) {
  for (const pf_struct *other; tp && (other = pf_info_of(tp)) && other->cls; tp = other->cls->tp_base)
    if (strcmp(other->st->full_name, si->st->full_name) == 0) return other;
  return NULL;
}

int pf_put_struct(pf_enc *c, const pf_struct *si, const fbe_type *want, PyObject *obj, uint8_t *slot) {
  PyTypeObject *tp = Py_TYPE(obj);
  if (tp == si->cls || PyType_IsSubtype(tp, si->cls)) { /* the slots, at the offsets bound at load */
    for (uint32_t i = 0; i < si->nfields; i++) {
      const pf_field *f = &si->fields[i];
      PyObject *v = *(PyObject **)((char *)obj + f->offset);
      int fast = v ? put_fast(c, f->type, f->type->t, v, slot + f->f->mem_offset) : 0; /* inline: most fields */
      if (fast < 0) fbei_error_prepend_field(&c->err, f->f->name);
      if (fast < 0 || (!fast && put_field(c, si, i, v, slot))) return -1;
    }
    return 0;
  }
  if (PyDict_Check(obj)) return put_dict(c, si, obj, slot);
  /* An instance of the same struct from another load of the schema: its slots, by
   * field name (a field the other load does not have takes its default). Its class is
   * held: a value's __index__ may reassign obj.__class__ meanwhile. */
  const pf_struct *other = same_struct(si, tp);
  if (!other) return pf_type_error(&c->err, want, si->st, obj);
  Py_INCREF(tp);
  int rc = 0;
  for (uint32_t i = 0; i < si->nfields && !rc; i++) {
    const pf_field *of = pf_field_named(other, si->fields[i].name);
    rc = put_field(c, si, i, of ? *(PyObject **)((char *)obj + of->offset) : NULL, slot);
  }
  Py_DECREF(tp);
  return rc;
}

fbe_msg *pf_build_msg(pf_enc *c, const pf_struct *si, PyObject *obj) {
  fbe_msg *m = pf_try_msg(c, si, obj);
  if (!m && c->err.code) pf_raise(&c->err);
  return m;
}

fbe_msg *pf_try_msg(pf_enc *c, const pf_struct *si, PyObject *obj) {
  fbe_msg *m = fbei_msg_shell(c->s->arena, si->st);
  if (!m) {
    PyErr_NoMemory();
    return NULL;
  }
  return pf_put_struct(c, si, NULL, obj, fbei_msg_data(m)) ? NULL : m;
}

/* For the key functions (fbe_msg_key_hash/compare read the [key] fields alone): the
 * [key] fields from obj, the rest the default image as it stands. */
fbe_msg *pf_try_key_msg(pf_enc *c, const pf_struct *si, PyObject *obj) {
  fbe_msg *m = fbei_msg_shell(c->s->arena, si->st);
  if (!m) {
    PyErr_NoMemory();
    return NULL;
  }
  uint8_t *slot = fbei_msg_data(m);
  memcpy(slot, si->st->defaults, si->st->mem_size);
  PyTypeObject *tp = Py_TYPE(obj);
  const pf_struct *from = tp == si->cls || PyType_IsSubtype(tp, si->cls) ? si : same_struct(si, tp);
  if (!from) {
    pf_type_error(&c->err, NULL, si->st, obj);
    return NULL;
  }
  Py_INCREF(tp);
  int rc = 0;
  for (uint32_t k = 0; k < si->nkeys && !rc; k++) {
    uint32_t i = si->keys[k];
    const pf_field *of = from == si ? &si->fields[i] : pf_field_named(from, si->fields[i].name);
    rc = put_field(c, si, i, of ? *(PyObject **)((char *)obj + of->offset) : NULL, slot);
  }
  Py_DECREF(tp);
  return rc ? NULL : m;
}

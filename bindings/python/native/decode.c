/* The core's in-memory value -> Python objects, walked by the struct's field table:
 * structs, optionals and collections here, scalars in convert.c. Instances are made
 * with tp_alloc and their slots stored directly (no __init__, no setattr). Also the
 * defaults __init__ and fbe default() fill fields with. */
#include <string.h>
#include "binding.h"

/* A value of t: a scalar straight from convert.c (one call per element of a list). */
static inline PyObject *get(pf_dec *c, const pf_type *t, const uint8_t *slot) {
  return t->scalar ? pf_get_scalar(c, t, slot) : pf_get_value(c, t, slot);
}

static PyObject *get_list(pf_dec *c, const pf_type *elem, const uint8_t *data, uint32_t n) {
  PyObject *list = PyList_New(n);
  for (uint32_t i = 0; list && i < n; i++) {
    PyObject *v = get(c, elem, data + (size_t)i * elem->t->mem_size);
    if (!v) {
      fbei_error_prepend_index(&c->err, i);
      Py_CLEAR(list);
    } else {
      PyList_SET_ITEM(list, i, v);
    }
  }
  return list;
}

/* A set element or map key Python cannot hash. */
static void unhashable(pf_dec *c, const char *what) {
  if (!PyErr_ExceptionMatches(PyExc_TypeError)) return;
  PyErr_Clear();
  pf_fail(c, FBE_ERR_TYPE, "a %s element is not hashable in Python; decode with ordered=True to get a list", what);
}

static PyObject *get_set(pf_dec *c, const pf_type *t, const fbei_vec *vec) {
  if (c->ordered) return get_list(c, t->elem, vec->data, vec->count);
  PyObject *set = PySet_New(NULL);
  for (uint32_t i = 0; set && i < vec->count; i++) {
    PyObject *v = get(c, t->elem, (const uint8_t *)vec->data + (size_t)i * t->elem->t->mem_size);
    int rc = v ? PySet_Add(set, v) : -1;
    if (rc && v) unhashable(c, "set");
    Py_XDECREF(v);
    if (rc) {
      fbei_error_prepend_index(&c->err, i);
      Py_CLEAR(set);
    }
  }
  return set;
}

static PyObject *get_map(pf_dec *c, const pf_type *t, const fbei_vec *vec) {
  PyObject *out = c->ordered ? PyList_New(vec->count) : PyDict_New();
  const uint8_t *pair = vec->data;
  for (uint32_t i = 0; out && i < vec->count; i++, pair += t->t->pair_stride) {
    PyObject *k = get(c, t->key, pair), *v = NULL;
    if (!k) fbei_error_prepend_key(&c->err);
    else v = get(c, t->elem, pair + t->t->pair_value_offset);
    int rc = v ? 0 : -1;
    if (v && c->ordered) {
      PyObject *item = PyTuple_Pack(2, k, v);
      if (item) PyList_SET_ITEM(out, i, item);
      else rc = -1;
    } else if (v && (rc = PyDict_SetItem(out, k, v))) {
      unhashable(c, "map key");
    }
    Py_XDECREF(k);
    Py_XDECREF(v);
    if (rc) {
      fbei_error_prepend_index(&c->err, i);
      Py_CLEAR(out);
    }
  }
  return out;
}

PyObject *pf_get_value(pf_dec *c, const pf_type *t, const uint8_t *slot) {
  const fbei_vec *vec = (const fbei_vec *)(const void *)slot;
  switch (t->kind) {
    case FBE_KIND_STRUCT: return pf_get_struct(c, t->st, t->st->cls, slot);
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)(const void *)slot;
      if (!inner) Py_RETURN_NONE;
      return get(c, t->elem, inner);
    }
    case FBE_KIND_ARRAY: return get_list(c, t->elem, slot, t->t->array_size);
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: return get_list(c, t->elem, vec->data, vec->count);
    case FBE_KIND_SET: return get_set(c, t, vec);
    case FBE_KIND_MAP: case FBE_KIND_HASH: return get_map(c, t, vec);
    default: return pf_get_scalar(c, t, slot);
  }
}

static PyObject *freed(void) {
  PyErr_SetString(PyExc_RuntimeError, "fbe: the schema of this class was freed");
  return NULL;
}

PyObject *pf_get_struct(pf_dec *c, const pf_struct *si, PyTypeObject *cls, const uint8_t *slot) {
  PyObject *obj = cls ? cls->tp_alloc(cls, 0) : freed();
  for (uint32_t i = 0; obj && i < si->nfields; i++) {
    const pf_field *f = &si->fields[i];
    PyObject *v = get(c, f->type, slot + f->f->mem_offset);
    if (!v) {
      fbei_error_prepend_field(&c->err, f->f->name);
      Py_CLEAR(obj);
    } else {
      *(PyObject **)((char *)obj + f->offset) = v;
    }
  }
  return obj;
}

PyObject *pf_message_object(const pf_struct *si, PyTypeObject *cls, const fbe_msg *m, int ordered) {
  pf_dec c = {.ordered = ordered};
  PyObject *out = pf_get_struct(&c, si, cls, fbei_msg_data(m));
  if (!out && c.err.code) pf_raise(&c.err);
  return out;
}

/* ------------------------------------------------------------------ defaults */

/* A default other than the one shared value of the field: the core writes it into a
 * scratch slot (utc and uuids evaluated) and it is decoded, a new host value each time. */
PyObject *pf_field_default(const pf_struct *si, uint32_t i) {
  const pf_field *f = &si->fields[i];
  if (f->def_class == FBE_DEFAULT_SHARED) {
    Py_INCREF(f->def_value);
    return f->def_value;
  }
  fbei_scratch *s = pf_take();
  uint8_t *slot = s ? fbe_arena_alloc(s->arena, si->st->mem_size) : NULL;
  PyObject *v = NULL;
  pf_dec c = {0};
  if (slot) memcpy(slot + f->f->mem_offset, f->image, f->f->type->mem_size);
  if (slot && !(si->st->dynamic_defaults && fbei_struct_apply_dynamic_defaults(si->st, slot, i, i + 1, s->arena)))
    v = get(&c, f->type, slot + f->f->mem_offset);
  else if (s)
    PyErr_NoMemory();
  if (!v && c.err.code) pf_raise(&c.err);
  if (s) pf_give(s);
  return v;
}

PyObject *pf_new_default(const pf_struct *si, PyTypeObject *cls) {
  fbei_scratch *s = pf_take();
  fbe_msg *m = s ? fbe_msg_new(s->arena, si->st) : NULL;
  PyObject *obj = m ? pf_message_object(si, cls, m, 0) : NULL;
  if (s && !m) PyErr_NoMemory();
  if (s) pf_give(s);
  return obj;
}

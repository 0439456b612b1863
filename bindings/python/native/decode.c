/* The core's in-memory value -> Python objects, walked by the struct's field table.
 * Instances are made with tp_alloc and their slots stored directly (no __init__, no
 * setattr); enum members come from a table built at load time. Also: defaults for
 * __init__, and the uuid/decimal conversions both directions share. */
#include <string.h>
#include "pyfbe.h"

/* ------------------------------------------------------------------ uuid, decimal */

PyObject *pf_uuid_from_bytes(const uint8_t b[16]) {
#if PY_VERSION_HEX >= 0x030D0000
  PyObject *i = PyLong_FromUnsignedNativeBytes(b, 16, Py_ASNATIVEBYTES_BIG_ENDIAN);
#else
  PyObject *i = _PyLong_FromByteArray(b, 16, 0 /* big endian */, 0 /* unsigned */);
#endif
  if (!i) return NULL;
  PyTypeObject *tp = (PyTypeObject *)pf_uuid_type;
  if (pf_uuid_int_offset > 0 && pf_uuid_safe_offset > 0) {
    /* What unpickling does: the slots of an instance made without __init__. */
    PyObject *u = tp->tp_alloc(tp, 0);
    if (!u) {
      Py_DECREF(i);
      return NULL;
    }
    *(PyObject **)((char *)u + pf_uuid_int_offset) = i;
    Py_INCREF(pf_uuid_safe_unknown);
    *(PyObject **)((char *)u + pf_uuid_safe_offset) = pf_uuid_safe_unknown;
    return u;
  }
  PyObject *args = PyTuple_New(0), *kw = Py_BuildValue("{sN}", "int", i);
  PyObject *u = args && kw ? PyObject_Call(pf_uuid_type, args, kw) : NULL;
  Py_XDECREF(args);
  Py_XDECREF(kw);
  return u;
}

int pf_uuid_to_bytes(PyObject *u, uint8_t b[16]) {
  PyObject *i = PyObject_GetAttrString(u, "int");
  if (!i) return -1;
  if (!PyLong_Check(i)) {
    Py_DECREF(i);
    PyErr_SetString(PyExc_TypeError, "uuid.UUID.int is not an int");
    return -1;
  }
#if PY_VERSION_HEX >= 0x030D0000
  Py_ssize_t n = PyLong_AsNativeBytes(i, b, 16,
                                      Py_ASNATIVEBYTES_BIG_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                          Py_ASNATIVEBYTES_REJECT_NEGATIVE);
  int rc = n < 0 ? -1 : (n > 16 ? (PyErr_SetString(PyExc_OverflowError, "uuid int over 128 bits"), -1) : 0);
#else
  int rc = _PyLong_AsByteArray((PyLongObject *)i, b, 16, 0 /* big endian */, 0 /* unsigned */);
#endif
  Py_DECREF(i);
  return rc;
}

PyObject *pf_decimal_from_bytes(const uint8_t b[16]) {
  fbe_decimal d;
  memcpy(d.bytes, b, 16);
  char text[64];
  fbe_decimal_format(&d, text, sizeof text);
  PyObject *s = PyUnicode_FromString(text);
  if (!s) return NULL;
  PyObject *v = PyObject_CallOneArg(pf_decimal_type, s);
  Py_DECREF(s);
  return v;
}

/* ------------------------------------------------------------------ enums */

PyObject *pf_enum_member(pf_enum *en, uint64_t pattern) {
  if (en->table) {
    uint64_t idx = pattern - (uint64_t)en->lo;
    if (idx < en->n && en->table[idx]) {
      PyObject *m = en->table[idx];
      Py_INCREF(m);
      return m;
    }
  }
  PyObject *key = en->is_signed ? PyLong_FromLongLong((long long)pattern)
                                : PyLong_FromUnsignedLongLong(pattern);
  if (!key || !en->by_value || !en->cls) return key;
  PyObject *m = PyDict_GetItemWithError(en->by_value, key);
  if (m) {
    Py_INCREF(m);
    Py_DECREF(key);
    return m;
  }
  if (PyErr_Occurred()) {
    Py_DECREF(key);
    return NULL;
  }
  /* A value no member has is still a value of the type (the wire allows it): an
   * unnamed instance of the class, made as int.__new__(cls, value) makes it. */
  PyObject *args = PyTuple_Pack(1, key);
  Py_DECREF(key);
  if (!args) return NULL;
  m = PyLong_Type.tp_new((PyTypeObject *)en->cls, args, NULL);
  Py_DECREF(args);
  return m;
}

/* ------------------------------------------------------------------ values */

static PyObject *get_string(pf_dec *c, const fbe_str *s) {
  PyObject *v = PyUnicode_DecodeUTF8(s->size ? (const char *)s->data : "", (Py_ssize_t)s->size, NULL);
  if (!v && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
    PyErr_Clear();
    pf_err_set(&c->err, FBE_ERR_MALFORMED, "string is not valid UTF-8");
  }
  return v;
}

static PyObject *get_list(pf_dec *c, const pf_type *elem, const uint8_t *data, uint32_t n) {
  PyObject *list = PyList_New(n);
  if (!list) return NULL;
  uint32_t size = elem->t->mem_size;
  for (uint32_t i = 0; i < n; i++) {
    PyObject *v = pf_get_value(c, elem, data + (size_t)i * size);
    if (!v) {
      pf_err_prepend_index(&c->err, i);
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, v);
  }
  return list;
}

static int unhashable(pf_dec *c, const char *what) {
  if (!PyErr_ExceptionMatches(PyExc_TypeError)) return -1;
  PyErr_Clear();
  pf_err_set(&c->err, FBE_ERR_TYPE,
             "a %s element is not hashable in Python; decode with ordered=True to get a list", what);
  return -1;
}

static PyObject *get_set(pf_dec *c, const pf_type *t, const fbe_vec *vec) {
  if (c->ordered) return get_list(c, t->elem, vec->data, vec->count);
  PyObject *set = PySet_New(NULL);
  if (!set) return NULL;
  uint32_t size = t->elem->t->mem_size;
  for (uint32_t i = 0; i < vec->count; i++) {
    PyObject *v = pf_get_value(c, t->elem, (const uint8_t *)vec->data + (size_t)i * size);
    int rc = v ? PySet_Add(set, v) : -1;
    if (rc && v) unhashable(c, "set");
    Py_XDECREF(v);
    if (rc) {
      pf_err_prepend_index(&c->err, i);
      Py_DECREF(set);
      return NULL;
    }
  }
  return set;
}

static PyObject *get_map(pf_dec *c, const pf_type *t, const fbe_vec *vec) {
  PyObject *out = c->ordered ? PyList_New(vec->count) : PyDict_New();
  if (!out) return NULL;
  const uint8_t *pair = vec->data;
  for (uint32_t i = 0; i < vec->count; i++, pair += t->t->pair_stride) {
    PyObject *k = pf_get_value(c, t->key, pair);
    if (!k) {
      pf_err_prepend_key(&c->err);
      pf_err_prepend_index(&c->err, i);
      Py_DECREF(out);
      return NULL;
    }
    PyObject *v = pf_get_value(c, t->elem, pair + t->t->pair_value_offset);
    if (!v) {
      pf_err_prepend_index(&c->err, i);
      Py_DECREF(k);
      Py_DECREF(out);
      return NULL;
    }
    int rc = 0;
    if (c->ordered) {
      PyObject *item = PyTuple_Pack(2, k, v);
      if (item) PyList_SET_ITEM(out, i, item);
      else rc = -1;
    } else if ((rc = PyDict_SetItem(out, k, v))) {
      unhashable(c, "map key");
    }
    Py_DECREF(k);
    Py_DECREF(v);
    if (rc) {
      pf_err_prepend_index(&c->err, i);
      Py_DECREF(out);
      return NULL;
    }
  }
  return out;
}

PyObject *pf_get_value(pf_dec *c, const pf_type *t, const uint8_t *slot) {
  switch (t->kind) {
    case FBE_KIND_BOOL: return PyBool_FromLong(*slot != 0);
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: return PyLong_FromLong(*slot);
    case FBE_KIND_INT8: return PyLong_FromLong(*(const int8_t *)slot);
    case FBE_KIND_INT16: return PyLong_FromLong(*(const int16_t *)(const void *)slot);
    case FBE_KIND_UINT16: return PyLong_FromLong(*(const uint16_t *)(const void *)slot);
    case FBE_KIND_INT32: return PyLong_FromLong(*(const int32_t *)(const void *)slot);
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR:
      return PyLong_FromUnsignedLong(*(const uint32_t *)(const void *)slot);
    case FBE_KIND_INT64: return PyLong_FromLongLong(*(const int64_t *)(const void *)slot);
    case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      return PyLong_FromUnsignedLongLong(*(const uint64_t *)(const void *)slot);
    case FBE_KIND_FLOAT: {
      float f;
      memcpy(&f, slot, 4);
      return PyFloat_FromDouble(f);
    }
    case FBE_KIND_DOUBLE: {
      double d;
      memcpy(&d, slot, 8);
      return PyFloat_FromDouble(d);
    }
    case FBE_KIND_DECIMAL: return pf_decimal_from_bytes(slot);
    case FBE_KIND_UUID: return pf_uuid_from_bytes(slot);
    case FBE_KIND_STRING: return get_string(c, (const fbe_str *)(const void *)slot);
    case FBE_KIND_BYTES: {
      const fbe_str *s = (const fbe_str *)(const void *)slot;
      return PyBytes_FromStringAndSize(s->size ? (const char *)s->data : "", (Py_ssize_t)s->size);
    }
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return pf_enum_member(t->en, fbe_scalar_load(t->wire, slot));
    case FBE_KIND_STRUCT: return pf_get_struct(c, t->st, t->st->cls, slot);
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)(const void *)slot;
      if (!inner) Py_RETURN_NONE;
      return pf_get_value(c, t->elem, inner);
    }
    case FBE_KIND_ARRAY: return get_list(c, t->elem, slot, t->t->array_size);
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: {
      const fbe_vec *vec = (const fbe_vec *)(const void *)slot;
      return get_list(c, t->elem, vec->data, vec->count);
    }
    case FBE_KIND_SET: return get_set(c, t, (const fbe_vec *)(const void *)slot);
    case FBE_KIND_MAP: case FBE_KIND_HASH: return get_map(c, t, (const fbe_vec *)(const void *)slot);
    default:
      pf_err_set(&c->err, FBE_ERR_TYPE, "unsupported type %s", fbe_kind_name(t->kind));
      return NULL;
  }
}

PyObject *pf_get_struct(pf_dec *c, const pf_struct *si, PyTypeObject *cls, const uint8_t *slot) {
  if (!cls) {
    PyErr_SetString(PyExc_RuntimeError, "fbe: the schema of this class was freed");
    return NULL;
  }
  PyObject *obj = cls->tp_alloc(cls, 0);
  if (!obj) return NULL;
  for (uint32_t i = 0; i < si->nfields; i++) {
    const pf_field *f = &si->fields[i];
    PyObject *v = pf_get_value(c, f->type, slot + f->f->mem_offset);
    if (!v) {
      pf_err_prepend_field(&c->err, f->f->name);
      Py_DECREF(obj);
      return NULL;
    }
    *(PyObject **)((char *)obj + f->offset) = v;
  }
  return obj;
}

/* ------------------------------------------------------------------ defaults */

static PyObject *fresh(const pf_type *t, const uint8_t *image) {
  switch (t->kind) {
    case FBE_KIND_STRUCT: return pf_new_default(t->st, t->st->cls);
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: return PyList_New(0);
    case FBE_KIND_SET: return PySet_New(NULL);
    case FBE_KIND_MAP: case FBE_KIND_HASH: return PyDict_New();
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)(const void *)image;
      if (!inner) Py_RETURN_NONE;
      return fresh(t->elem, inner);
    }
    case FBE_KIND_ARRAY: {
      PyObject *list = PyList_New(t->t->array_size);
      if (!list) return NULL;
      for (uint32_t i = 0; i < t->t->array_size; i++) {
        PyObject *v = fresh(t->elem, image + (size_t)i * t->elem->t->mem_size);
        if (!v) {
          Py_DECREF(list);
          return NULL;
        }
        PyList_SET_ITEM(list, i, v);
      }
      return list;
    }
    default: {
      pf_dec c;
      memset(&c, 0, sizeof c);
      PyObject *v = pf_get_value(&c, t, image);
      if (!v && c.err.code) pf_raise_err(&c.err);
      return v;
    }
  }
}

PyObject *pf_field_default(const pf_field *f) {
  switch (f->def_kind) {
    case PF_DEF_CONST:
      Py_INCREF(f->def_value);
      return f->def_value;
    case PF_DEF_DYNAMIC: {
      uint8_t b[16];
      if (f->f->def.kind == FBE_DEF_UTC) return PyLong_FromUnsignedLongLong(fbe_now_ns());
      if (f->f->def.kind == FBE_DEF_UUID1) fbe_uuid_v1(b);
      else fbe_uuid_v4(b);
      return pf_uuid_from_bytes(b);
    }
    default: return fresh(f->type, f->image);
  }
}

PyObject *pf_new_default(const pf_struct *si, PyTypeObject *cls) {
  if (!cls) {
    PyErr_SetString(PyExc_RuntimeError, "fbe: the schema of this class was freed");
    return NULL;
  }
  PyObject *obj = cls->tp_alloc(cls, 0);
  if (!obj) return NULL;
  for (uint32_t i = 0; i < si->nfields; i++) {
    const pf_field *f = &si->fields[i];
    PyObject *v = pf_field_default(f);
    if (!v) {
      Py_DECREF(obj);
      return NULL;
    }
    *(PyObject **)((char *)obj + f->offset) = v;
  }
  return obj;
}

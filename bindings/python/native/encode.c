/* Python objects -> the core's in-memory value (value.h), walked once per message by
 * the struct's field table. Every function writes a complete value of its type into
 * `slot` or fails with c->err set (our error) or a Python exception pending.
 *
 * Strings and bytes are not copied: the fbe_str points into the str/bytes object,
 * which the scratch keeps alive (pf_keep) until the encoder is done with it. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "pyfbe.h"

static int put_value(pf_enc *c, const pf_type *t, PyObject *v, uint8_t *slot);

static const char *kind_label(const pf_type *t) {
  switch (t->kind) {
    case FBE_KIND_STRUCT: return t->st->st->full_name;
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return t->en->e->full_name;
    default: return fbe_kind_name(t->kind);
  }
}

static int type_error(pf_enc *c, const char *want, PyObject *v) {
  pf_err_set(&c->err, FBE_ERR_TYPE, "expected %s, got %.80s", want, Py_TYPE(v)->tp_name);
  return -1;
}

/* "value 300 does not fit uint8" */
static int range_error(pf_enc *c, PyObject *v, const char *what) {
  PyObject *r = PyObject_Repr(v);
  const char *text = r ? PyUnicode_AsUTF8(r) : NULL;
  if (!text) PyErr_Clear();
  pf_err_set(&c->err, FBE_ERR_RANGE, "value %.60s%s does not fit %s", text ? text : "?",
             text && strlen(text) > 60 ? "..." : "", what);
  Py_XDECREF(r);
  return -1;
}

static int size_error(pf_enc *c, size_t n, const char *what) {
  pf_err_set(&c->err, FBE_ERR_RANGE, "%zu items/bytes do not fit %s (at most 2^32-1)", n, what);
  return -1;
}

static int nomem(pf_enc *c) {
  pf_err_set(&c->err, FBE_ERR_NOMEM, "out of memory");
  return -1;
}

/* Optionals and collections count one level each, as the core's encode and decode count
 * them (FBE_DEFAULT_MAX_DEPTH): what decodes encodes again. */
static int too_deep(pf_enc *c) {
  pf_err_set(&c->err, FBE_ERR_LIMIT, "value nested deeper than %u levels", FBE_DEFAULT_MAX_DEPTH);
  return -1;
}


/* An integer of kind `wire` (range-checked) from a Python int, or anything with
 * __index__ that is not a float. */
static int get_int(pf_enc *c, PyObject *v, fbe_kind wire, const char *label, uint64_t *out) {
  PyObject *num = v;
  if (!PyLong_Check(v)) {
    PyNumberMethods *nb = Py_TYPE(v)->tp_as_number;
    if (!nb || !nb->nb_index || PyFloat_Check(v)) return type_error(c, "int", v);
    if (!(num = PyNumber_Index(v))) return -1;
  }
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(num, &overflow);
  int rc = 0;
  if (x == -1 && PyErr_Occurred()) {
    rc = -1;
    goto done;
  }
  unsigned bits = fbe_kind_bits(wire);
  if (fbe_kind_is_signed(wire)) {
    if (overflow || (bits < 64 && (x < -(1LL << (bits - 1)) || x >= (1LL << (bits - 1))))) {
      rc = range_error(c, num, label);
      goto done;
    }
    *out = (uint64_t)x;
  } else if (overflow > 0) {
    unsigned long long u = bits == 64 ? PyLong_AsUnsignedLongLong(num) : (unsigned long long)-1;
    if (bits < 64 || (u == (unsigned long long)-1 && PyErr_Occurred())) {
      PyErr_Clear();
      rc = range_error(c, num, label);
      goto done;
    }
    *out = u;
  } else {
    if (overflow < 0 || x < 0 || (bits < 64 && ((unsigned long long)x >> bits))) {
      rc = range_error(c, num, label);
      goto done;
    }
    *out = (uint64_t)x;
  }
done:
  if (num != v) Py_DECREF(num);
  return rc;
}

/* char / wchar also take a one-character str (and char a one-byte bytes). */
static int get_char(pf_enc *c, const pf_type *t, PyObject *v, uint64_t *out) {
  if (PyUnicode_Check(v)) {
    if (PyUnicode_GET_LENGTH(v) != 1) {
      pf_err_set(&c->err, FBE_ERR_TYPE, "expected one character for %s, got a str of %zd",
                 fbe_kind_name(t->kind), PyUnicode_GET_LENGTH(v));
      return -1;
    }
    Py_UCS4 ch = PyUnicode_READ_CHAR(v, 0);
    if (t->wire == FBE_KIND_CHAR && ch > 0xFF) return range_error(c, v, "char");
    *out = ch;
    return 0;
  }
  if (PyBytes_Check(v) && t->wire == FBE_KIND_CHAR) {
    if (PyBytes_GET_SIZE(v) != 1) return range_error(c, v, "char");
    *out = (uint8_t)PyBytes_AS_STRING(v)[0];
    return 0;
  }
  return get_int(c, v, t->wire, fbe_kind_name(t->kind), out);
}

static int put_bool(pf_enc *c, PyObject *v, uint8_t *slot) {
  if (v == Py_True) *slot = 1;
  else if (v == Py_False) *slot = 0;
  else if (PyLong_Check(v)) {
    uint64_t x;
    if (get_int(c, v, FBE_KIND_UINT8, "bool", &x)) return -1;
    if (x > 1) return range_error(c, v, "bool");
    *slot = (uint8_t)x;
  } else {
    return type_error(c, "bool", v);
  }
  return 0;
}

static int put_float(pf_enc *c, const pf_type *t, PyObject *v, uint8_t *slot) {
  double d;
  if (PyFloat_Check(v)) {
    d = PyFloat_AS_DOUBLE(v);
  } else if (PyLong_Check(v)) {
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (!overflow && x >= -(1LL << 53) && x <= (1LL << 53)) {
      d = (double)x; /* exact */
    } else {
      /* Larger ints only when the double holds them exactly. */
      d = PyLong_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return range_error(c, v, fbe_kind_name(t->kind));
      }
      PyObject *back = PyLong_FromDouble(d);
      int same = back ? PyObject_RichCompareBool(back, v, Py_EQ) : -1;
      Py_XDECREF(back);
      if (same < 0) return -1;
      if (!same) return range_error(c, v, "a double exactly");
    }
  } else {
    return type_error(c, "float", v);
  }
  if (t->wire == FBE_KIND_FLOAT) {
    float f = (float)d;
    if (isinf(f) && !isinf(d)) return range_error(c, v, "float");
    memcpy(slot, &f, 4);
  } else {
    memcpy(slot, &d, 8);
  }
  return 0;
}

static int put_decimal(pf_enc *c, PyObject *v, uint8_t *slot) {
  if (!PyObject_TypeCheck(v, (PyTypeObject *)pf_decimal_type) && !(PyLong_Check(v) && !PyBool_Check(v)))
    return type_error(c, "decimal.Decimal or int", v);
  PyObject *s = PyObject_Str(v);
  if (!s) return -1;
  Py_ssize_t n;
  const char *text = PyUnicode_AsUTF8AndSize(s, &n);
  if (!text) {
    Py_DECREF(s);
    return -1;
  }
  fbe_decimal d;
  fbe_status st = fbe_decimal_parse(text, (size_t)n, &d);
  if (st == FBE_ERR_RANGE) {
    pf_err_set(&c->err, FBE_ERR_RANGE,
               "decimal %.60s does not fit FBE's decimal (96-bit coefficient, scale 0..28)", text);
  } else if (st) {
    pf_err_set(&c->err, FBE_ERR_RANGE, "decimal %.60s is not a finite number", text);
  } else {
    memcpy(slot, d.bytes, 16);
  }
  Py_DECREF(s);
  return st ? -1 : 0;
}

static int put_uuid(pf_enc *c, PyObject *v, uint8_t *slot) {
  if (PyObject_TypeCheck(v, (PyTypeObject *)pf_uuid_type)) return pf_uuid_to_bytes(v, slot);
  if (PyUnicode_Check(v)) {
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(v, &n);
    if (!text) return -1;
    fbe_uuid u;
    if (fbe_uuid_parse(text, (size_t)n, &u)) {
      pf_err_set(&c->err, FBE_ERR_ARGUMENT, "'%.60s' is not a uuid (8-4-4-4-12 hex digits)", text);
      return -1;
    }
    memcpy(slot, u.bytes, 16);
    return 0;
  }
  return type_error(c, "uuid.UUID or str", v);
}

/* A str with a lone surrogate has no UTF-8 form: its code units as they stand
 * ("surrogatepass", ED A0 80 for U+D800) go to the core's check, which refuses them with
 * the words every binding uses. */
static int not_utf8(pf_enc *c, PyObject *v) {
  PyObject *raw = PyUnicode_AsEncodedString(v, "utf-8", "surrogatepass");
  fbe_error e;
  if (raw && fbe_utf8_check(PyBytes_AS_STRING(raw), (size_t)PyBytes_GET_SIZE(raw), &e) != FBE_OK) {
    pf_err_set(&c->err, e.code, "%s", e.message);
  } else {
    PyErr_Clear();
    pf_err_set(&c->err, FBE_ERR_ARGUMENT, "string is not valid UTF-8");
  }
  Py_XDECREF(raw);
  return -1;
}

static int put_string(pf_enc *c, PyObject *v, fbe_str *s) {
  if (!PyUnicode_Check(v)) return type_error(c, "str", v);
  Py_ssize_t n;
  const char *p = PyUnicode_AsUTF8AndSize(v, &n); /* UTF-8 by construction, or NULL */
  if (!p) {
    PyErr_Clear();
    return not_utf8(c, v);
  }
  if ((size_t)n > UINT32_MAX) return size_error(c, (size_t)n, "a string");
  if (n && pf_keep(c->s, v)) return nomem(c);
  s->data = (const uint8_t *)p;
  s->size = (uint32_t)n;
  c->bytes += (size_t)n;
  return 0;
}

static int put_bytes(pf_enc *c, PyObject *v, fbe_str *s) {
  if (PyBytes_Check(v)) {
    Py_ssize_t n = PyBytes_GET_SIZE(v);
    if ((size_t)n > UINT32_MAX) return size_error(c, (size_t)n, "bytes");
    if (n && pf_keep(c->s, v)) return nomem(c);
    s->data = (const uint8_t *)PyBytes_AS_STRING(v);
    s->size = (uint32_t)n;
    c->bytes += (size_t)n;
    return 0;
  }
  if (PyUnicode_Check(v) || !PyObject_CheckBuffer(v)) return type_error(c, "bytes", v);
  Py_buffer view;
  if (PyObject_GetBuffer(v, &view, PyBUF_SIMPLE) < 0) {
    PyErr_Clear();
    return type_error(c, "bytes (a contiguous buffer)", v);
  }
  int rc = 0;
  if ((size_t)view.len > UINT32_MAX) rc = size_error(c, (size_t)view.len, "bytes");
  else if (fbe_str_assign(s, c->arena, view.buf, (size_t)view.len)) rc = nomem(c);
  c->bytes += (size_t)view.len;
  PyBuffer_Release(&view);
  return rc;
}

/* A member of the same schema enum from another load of the schema. */
static int same_enum(const pf_enum *en, PyObject *v) {
  PyObject *name = PyObject_GetAttrString((PyObject *)Py_TYPE(v), "__fbe_name__");
  int same = name && PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, en->e->full_name) == 0;
  Py_XDECREF(name);
  PyErr_Clear();
  return same;
}

static int put_enum(pf_enc *c, const pf_type *t, PyObject *v, uint8_t *slot) {
  const pf_enum *en = t->en;
  if ((PyObject *)Py_TYPE(v) != en->cls && !PyLong_CheckExact(v)) {
    PyNumberMethods *nb = Py_TYPE(v)->tp_as_number;
    if (!PyLong_Check(v) && (!nb || !nb->nb_index || PyFloat_Check(v))) {
      char want[160];
      snprintf(want, sizeof want, "%s or int", en->e->full_name);
      return type_error(c, want, v);
    }
    /* A member of another enum (ours, of the same metaclass, or the standard library's). */
    int is_enum = Py_IS_TYPE((PyObject *)Py_TYPE(v), Py_TYPE(en->cls)) ||
                  PyObject_TypeCheck(v, (PyTypeObject *)pf_enum_type);
    if (is_enum && !same_enum(en, v)) {
      pf_err_set(&c->err, FBE_ERR_TYPE, "expected %s, got a member of %.80s", en->e->full_name,
                 Py_TYPE(v)->tp_name);
      return -1;
    }
  }
  uint64_t x;
  if (get_int(c, v, t->wire, en->e->full_name, &x)) return -1;
  fbe_scalar_store(t->wire, slot, x);
  return 0;
}

/* list/tuple (or any iterable but str/bytes/dict) as a new reference to a sequence
 * for PySequence_Fast_* access. */
static PyObject *as_sequence(pf_enc *c, const pf_type *t, PyObject *v) {
  if (PyList_Check(v) || PyTuple_Check(v)) {
    Py_INCREF(v);
    return v;
  }
  if (PyUnicode_Check(v) || PyBytes_Check(v) || PyByteArray_Check(v) || PyDict_Check(v) ||
      (t->kind != FBE_KIND_SET && PyAnySet_Check(v)) || !Py_TYPE(v)->tp_iter) {
    type_error(c, t->kind == FBE_KIND_SET ? "set, list or tuple" : "list or tuple", v);
    return NULL;
  }
  return PySequence_Fast(v, "expected an iterable");
}

static int put_items(pf_enc *c, const pf_type *elem, PyObject *seq, uint8_t *data, Py_ssize_t n) {
  uint32_t size = elem->t->mem_size;
  for (Py_ssize_t i = 0; i < n; i++) {
    if (i >= PySequence_Fast_GET_SIZE(seq)) { /* changed under us by a callback */
      pf_err_set(&c->err, FBE_ERR_ARGUMENT, "sequence changed size during encoding");
      return -1;
    }
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    Py_INCREF(item);
    int rc = put_value(c, elem, item, data + (size_t)i * size);
    Py_DECREF(item);
    if (rc) {
      pf_err_prepend_index(&c->err, (size_t)i);
      return -1;
    }
  }
  return 0;
}

static int put_array(pf_enc *c, const pf_type *t, PyObject *v, uint8_t *slot) {
  PyObject *seq = as_sequence(c, t, v);
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int rc;
  if (n != (Py_ssize_t)t->t->array_size) {
    pf_err_set(&c->err, FBE_ERR_RANGE, "array of %u items, got %zd", t->t->array_size, n);
    rc = -1;
  } else {
    rc = put_items(c, t->elem, seq, slot, n);
  }
  Py_DECREF(seq);
  return rc;
}

static int put_vector(pf_enc *c, const pf_type *t, PyObject *v, fbe_vec *vec) {
  vec->data = NULL;
  vec->count = vec->cap = 0;
  PyObject *seq = as_sequence(c, t, v);
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int rc = 0;
  if ((size_t)n > UINT32_MAX) {
    rc = size_error(c, (size_t)n, "a collection");
  } else if (n) {
    uint32_t size = t->elem->t->mem_size;
    uint8_t *data = fbe_arena_alloc(c->arena, (size_t)n * size);
    if (!data) rc = nomem(c);
    else {
      vec->data = data;
      vec->count = vec->cap = (uint32_t)n;
      rc = put_items(c, t->elem, seq, data, n);
    }
  }
  Py_DECREF(seq);
  return rc;
}

static int put_pair(pf_enc *c, const pf_type *t, PyObject *k, PyObject *v, uint8_t *pair, size_t i) {
  Py_INCREF(k);
  Py_INCREF(v);
  int rc = put_value(c, t->key, k, pair);
  if (rc) {
    pf_err_prepend_key(&c->err);
    pf_err_prepend_index(&c->err, i);
  } else if ((rc = put_value(c, t->elem, v, pair + t->t->pair_value_offset))) {
    pf_err_prepend_index(&c->err, i);
  }
  Py_DECREF(k);
  Py_DECREF(v);
  return rc;
}

static int put_map(pf_enc *c, const pf_type *t, PyObject *v, fbe_vec *vec) {
  vec->data = NULL;
  vec->count = vec->cap = 0;
  uint32_t stride = t->t->pair_stride;
  if (PyDict_Check(v)) {
    Py_ssize_t n = PyDict_GET_SIZE(v);
    if ((size_t)n > UINT32_MAX) return size_error(c, (size_t)n, "a map");
    if (!n) return 0;
    uint8_t *data = fbe_arena_alloc(c->arena, (size_t)n * stride);
    if (!data) return nomem(c);
    vec->data = data;
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    while (PyDict_Next(v, &pos, &key, &value)) {
      if (i >= n) {
        pf_err_set(&c->err, FBE_ERR_ARGUMENT, "dict changed size during encoding");
        return -1;
      }
      if (put_pair(c, t, key, value, data + (size_t)i * stride, (size_t)i)) return -1;
      vec->count = vec->cap = (uint32_t)++i;
    }
    return 0;
  }
  /* The ordered form: a sequence of (key, value) pairs, in wire order. */
  if (!PyList_Check(v) && !PyTuple_Check(v)) return type_error(c, "dict or a list of (key, value)", v);
  PyObject *seq = v;
  Py_INCREF(seq);
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int rc = 0;
  uint8_t *data = n ? fbe_arena_alloc(c->arena, (size_t)n * stride) : NULL;
  if ((size_t)n > UINT32_MAX) rc = size_error(c, (size_t)n, "a map");
  else if (n && !data) rc = nomem(c);
  vec->data = data;
  for (Py_ssize_t i = 0; i < n && !rc; i++) {
    if (i >= PySequence_Fast_GET_SIZE(seq)) {
      pf_err_set(&c->err, FBE_ERR_ARGUMENT, "sequence changed size during encoding");
      rc = -1;
      break;
    }
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    if (!(PyTuple_Check(item) || PyList_Check(item)) || PySequence_Fast_GET_SIZE(item) != 2) {
      type_error(c, "a (key, value) pair", item);
      pf_err_prepend_index(&c->err, (size_t)i);
      rc = -1;
      break;
    }
    Py_INCREF(item);
    rc = put_pair(c, t, PySequence_Fast_GET_ITEM(item, 0), PySequence_Fast_GET_ITEM(item, 1),
                  data + (size_t)i * stride, (size_t)i);
    Py_DECREF(item);
    if (!rc) vec->count = vec->cap = (uint32_t)(i + 1);
  }
  Py_DECREF(seq);
  return rc;
}

static int put_value(pf_enc *c, const pf_type *t, PyObject *v, uint8_t *slot) {
  uint64_t x;
  switch (t->kind) {
    case FBE_KIND_BOOL: return put_bool(c, v, slot);
    case FBE_KIND_CHAR: case FBE_KIND_WCHAR:
      if (get_char(c, t, v, &x)) return -1;
      fbe_scalar_store(t->wire, slot, x);
      return 0;
    case FBE_KIND_BYTE: case FBE_KIND_INT8: case FBE_KIND_UINT8: case FBE_KIND_INT16:
    case FBE_KIND_UINT16: case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_INT64:
    case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      if (get_int(c, v, t->wire, fbe_kind_name(t->kind), &x)) return -1;
      fbe_scalar_store(t->wire, slot, x);
      return 0;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: return put_float(c, t, v, slot);
    case FBE_KIND_DECIMAL: return put_decimal(c, v, slot);
    case FBE_KIND_UUID: return put_uuid(c, v, slot);
    case FBE_KIND_STRING: return put_string(c, v, (fbe_str *)(void *)slot);
    case FBE_KIND_BYTES: return put_bytes(c, v, (fbe_str *)(void *)slot);
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return put_enum(c, t, v, slot);
    case FBE_KIND_STRUCT: return pf_put_struct(c, t->st, v, slot); /* not a level: the core's rule */
    case FBE_KIND_OPTIONAL: {
      if (v == Py_None) {
        *(void **)slot = NULL;
        return 0;
      }
      if (++c->depth > FBE_DEFAULT_MAX_DEPTH) return too_deep(c);
      void *inner = fbe_arena_alloc(c->arena, t->elem->t->mem_size);
      if (!inner) return nomem(c);
      if (put_value(c, t->elem, v, inner)) return -1;
      *(void **)slot = inner;
      c->depth--;
      return 0;
    }
    case FBE_KIND_ARRAY: return put_array(c, t, v, slot);
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET: {
      if (++c->depth > FBE_DEFAULT_MAX_DEPTH) return too_deep(c);
      int rc = put_vector(c, t, v, (fbe_vec *)(void *)slot);
      c->depth--;
      return rc;
    }
    case FBE_KIND_MAP: case FBE_KIND_HASH: {
      if (++c->depth > FBE_DEFAULT_MAX_DEPTH) return too_deep(c);
      int rc = put_map(c, t, v, (fbe_vec *)(void *)slot);
      c->depth--;
      return rc;
    }
    default:
      pf_err_set(&c->err, FBE_ERR_TYPE, "unsupported type %s", kind_label(t));
      return -1;
  }
}

/* A field that was not given: its schema default, from the struct's default image. */
static int put_default(pf_enc *c, const pf_struct *si, uint32_t i, uint8_t *slot) {
  const fbe_field *f = si->fields[i].f;
  memcpy(slot + f->mem_offset, (const uint8_t *)si->st->defaults + f->mem_offset, f->type->mem_size);
  if (si->st->dynamic_defaults &&
      fbe_struct_apply_dynamic_defaults(si->st, slot, i, i + 1, c->arena))
    return nomem(c);
  return 0;
}

static int unknown_field(pf_enc *c, const pf_struct *si, PyObject *dict) {
  char msg[256];
  if (pf_unknown_field(si, dict, msg, sizeof msg))
    pf_err_set(&c->err, PF_ERR_UNKNOWN_FIELD, "%s", msg);
  else
    pf_err_set(&c->err, FBE_ERR_ARGUMENT, "dict changed during encoding");
  return -1;
}

int pf_put_struct(pf_enc *c, const pf_struct *si, PyObject *obj, uint8_t *slot) {
  PyTypeObject *tp = Py_TYPE(obj);
  if (tp == si->cls || PyType_IsSubtype(tp, si->cls)) {
    /* The fast path: the instance's slots, at the offsets recorded at load. */
    for (uint32_t i = 0; i < si->nfields; i++) {
      const pf_field *f = &si->fields[i];
      PyObject *v = *(PyObject **)((char *)obj + f->offset);
      if (!v) {
        if (put_default(c, si, i, slot)) return -1;
        continue;
      }
      Py_INCREF(v);
      int rc = put_value(c, f->type, v, slot + f->f->mem_offset);
      Py_DECREF(v);
      if (rc) {
        pf_err_prepend_field(&c->err, f->f->name);
        return -1;
      }
    }
    return 0;
  }
  if (PyDict_Check(obj)) {
    Py_ssize_t found = 0;
    for (uint32_t i = 0; i < si->nfields; i++) {
      const pf_field *f = &si->fields[i];
      PyObject *v = PyDict_GetItemWithError(obj, f->name);
      if (!v) {
        if (PyErr_Occurred() || put_default(c, si, i, slot)) return -1;
        continue;
      }
      found++;
      Py_INCREF(v);
      int rc = put_value(c, f->type, v, slot + f->f->mem_offset);
      Py_DECREF(v);
      if (rc) {
        pf_err_prepend_field(&c->err, f->f->name);
        return -1;
      }
    }
    if (found != PyDict_GET_SIZE(obj)) return unknown_field(c, si, obj);
    return 0;
  }
  /* An instance of the same struct from another load of the schema: its slots, by
   * field name (a field the other load does not have takes its default). Its class is
   * held: a value's __index__ may reassign obj.__class__ meanwhile. */
  pf_struct *other = pf_info_of(tp);
  if (other && strcmp(other->st->full_name, si->st->full_name) == 0) {
    Py_INCREF(tp);
    int rc = 0;
    for (uint32_t i = 0; i < si->nfields && !rc; i++) {
      const pf_field *f = &si->fields[i];
      const pf_field *of = pf_field_named(other, f->name);
      PyObject *v = of ? *(PyObject **)((char *)obj + of->offset) : NULL;
      if (!v) {
        rc = put_default(c, si, i, slot);
        continue;
      }
      Py_INCREF(v);
      rc = put_value(c, f->type, v, slot + f->f->mem_offset);
      Py_DECREF(v);
      if (rc) pf_err_prepend_field(&c->err, f->f->name);
    }
    Py_DECREF(tp);
    return rc;
  }
  char want[200];
  snprintf(want, sizeof want, "%s or dict", si->st->full_name);
  return type_error(c, want, obj);
}

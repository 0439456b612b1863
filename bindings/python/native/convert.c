/* Python scalars <-> the core's scalar slots: bools, integers (and chars, timestamps,
 * enum members), floats, decimals, uuids, strings and bytes. The words of a value that
 * does not fit are the core's (fbei_error_range, fbei_error_decimal_range).
 *
 * Strings and bytes are not copied: the fbei_str points into the str/bytes object,
 * which the scratch keeps alive (pf_keep) until the encoder is done with it. */
#include <math.h>
#include <string.h>
#include "binding.h"

/* ------------------------------------------------------------------ Python -> value */

static int type_error(pf_enc *c, const char *want, PyObject *v) {
  return pf_fail(c, FBE_ERR_TYPE, "expected %s, got %.80s", want, Py_TYPE(v)->tp_name);
}

/* "value 300 does not fit uint8"; label: what else it does not fit (an enum's name). */
static int range_error(pf_enc *c, PyObject *v, fbe_kind kind, const char *label) {
  PyObject *r = PyObject_Repr(v);
  const char *text = r ? PyUnicode_AsUTF8(r) : NULL;
  if (!text) PyErr_Clear();
  if (label) fbei_error_set(&c->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "value %.60s does not fit %s", text ? text : "?", label);
  else fbei_error_range(&c->err, text ? text : "?", kind);
  Py_XDECREF(r);
  return -1;
}

/* An integer in t's range (the core's, cached in t) from a Python int, or anything with
 * __index__ that is not a float. */
static int get_int(pf_enc *c, PyObject *v, const pf_type *t, const char *label, uint64_t *out) {
  PyObject *num = v;
  if (!PyLong_Check(v)) {
    PyNumberMethods *nb = Py_TYPE(v)->tp_as_number;
    if (!nb || !nb->nb_index || PyFloat_Check(v)) return type_error(c, "int", v);
    if (!(num = PyNumber_Index(v))) return -1;
  }
  int overflow, rc = 0;
  long long x = PyLong_AsLongLongAndOverflow(num, &overflow);
  if (x == -1 && !overflow && PyErr_Occurred()) {
    rc = -1;
  } else if (!overflow && x >= t->min && (x < 0 || (uint64_t)x <= t->max)) {
    *out = (uint64_t)x;
  } else if (overflow > 0 && t->max == UINT64_MAX) { /* beyond int64: a uint64 may take it */
    *out = PyLong_AsUnsignedLongLong(num);
    if (*out == UINT64_MAX && PyErr_Occurred()) {
      PyErr_Clear();
      rc = range_error(c, num, t->kind, label);
    }
  } else {
    rc = range_error(c, num, t->kind, label);
  }
  if (num != v) Py_DECREF(num);
  return rc;
}

/* char / wchar also take a one-character str (and char a one-byte bytes). */
static int get_char(pf_enc *c, const pf_type *t, PyObject *v, uint64_t *out) {
  if (PyUnicode_Check(v)) {
    if (PyUnicode_GET_LENGTH(v) != 1)
      return pf_fail(c, FBE_ERR_TYPE, "expected one character for %s, got a str of %zd", fbe_kind_name(t->kind),
                     PyUnicode_GET_LENGTH(v));
    *out = PyUnicode_READ_CHAR(v, 0);
    return t->wire == FBE_KIND_CHAR && *out > 0xFF ? range_error(c, v, FBE_KIND_CHAR, NULL) : 0;
  }
  if (PyBytes_Check(v) && t->wire == FBE_KIND_CHAR) {
    if (PyBytes_GET_SIZE(v) != 1) return range_error(c, v, FBE_KIND_CHAR, NULL);
    *out = (uint8_t)PyBytes_AS_STRING(v)[0];
    return 0;
  }
  return get_int(c, v, t, NULL, out);
}

static int put_bool(pf_enc *c, PyObject *v, uint8_t *slot) {
  if (v == Py_True || v == Py_False) {
    *slot = v == Py_True;
    return 0;
  }
  if (!PyLong_Check(v)) return type_error(c, "bool", v);
  int overflow;
  long x = PyLong_AsLongAndOverflow(v, &overflow);
  if (overflow || x < 0 || x > 1) return range_error(c, v, FBE_KIND_BOOL, NULL);
  *slot = (uint8_t)x;
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
    } else { /* larger ints only when the double holds them exactly */
      d = PyLong_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return range_error(c, v, t->kind, NULL);
      }
      PyObject *back = PyLong_FromDouble(d);
      int same = back ? PyObject_RichCompareBool(back, v, Py_EQ) : -1;
      Py_XDECREF(back);
      if (same <= 0) return same < 0 ? -1 : range_error(c, v, t->kind, "a double exactly");
    }
  } else {
    return type_error(c, "float", v);
  }
  if (t->wire == FBE_KIND_FLOAT) {
    float f = (float)d;
    if (isinf(f) && !isinf(d)) return range_error(c, v, FBE_KIND_FLOAT, NULL);
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
  Py_ssize_t n;
  const char *text = s ? PyUnicode_AsUTF8AndSize(s, &n) : NULL;
  int rc = -1;
  fbe_decimal d;
  if (text) {
    fbe_status st = fbe_decimal_parse(text, (size_t)n, &d);
    if (st == FBE_ERR_RANGE) fbei_error_decimal_range(&c->err, text);
    else if (st) pf_fail(c, FBE_ERR_RANGE, "decimal %.60s is not a finite number", text);
    else rc = 0;
  }
  if (!rc) memcpy(slot, d.bytes, 16);
  Py_XDECREF(s);
  return rc;
}

/* uuid.UUID's int as 16 big-endian bytes. */
static int uuid_bytes(pf_enc *c, PyObject *u, uint8_t *b) {
  PyObject *i = PyObject_GetAttrString(u, "int");
  if (!i) return -1;
  int rc;
  if (!PyLong_Check(i)) {
    rc = type_error(c, "an int as uuid.UUID.int", i);
  } else {
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(i, b, 16, Py_ASNATIVEBYTES_BIG_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                                      Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    rc = n < 0 ? -1 : n > 16 ? range_error(c, i, FBE_KIND_UUID, NULL) : 0;
#else
    rc = _PyLong_AsByteArray((PyLongObject *)i, b, 16, 0 /* big endian */, 0 /* unsigned */);
#endif
  }
  Py_DECREF(i);
  return rc;
}

static int put_uuid(pf_enc *c, PyObject *v, uint8_t *slot) {
  if (PyObject_TypeCheck(v, (PyTypeObject *)pf_uuid_type)) return uuid_bytes(c, v, slot);
  if (!PyUnicode_Check(v)) return type_error(c, "uuid.UUID or str", v);
  Py_ssize_t n;
  const char *text = PyUnicode_AsUTF8AndSize(v, &n);
  fbe_uuid u;
  if (!text) return -1;
  if (fbe_uuid_parse(text, (size_t)n, &u))
    return pf_fail(c, FBE_ERR_ARGUMENT, "'%.60s' is not a uuid (8-4-4-4-12 hex digits)", text);
  memcpy(slot, u.bytes, 16);
  return 0;
}

/* A str with a lone surrogate has no UTF-8 form: its code units as they stand
 * ("surrogatepass", ED A0 80 for U+D800) go to the core's check, which refuses them with
 * the words every binding uses. */
static int not_utf8(pf_enc *c, PyObject *v) {
  PyObject *raw = PyUnicode_AsEncodedString(v, "utf-8", "surrogatepass");
  if (!raw || fbe_utf8_check(PyBytes_AS_STRING(raw), (size_t)PyBytes_GET_SIZE(raw), &c->err) == FBE_OK) {
    PyErr_Clear();
    pf_fail(c, FBE_ERR_ARGUMENT, "string is not valid UTF-8");
  }
  c->err.offset = FBE_NO_OFFSET;
  Py_XDECREF(raw);
  return -1;
}

/* Points s at n bytes of p inside the object v, which the scratch keeps alive. */
static int borrow(pf_enc *c, PyObject *v, const char *p, Py_ssize_t n, fbei_str *s) {
  if ((size_t)n > UINT32_MAX) return pf_fail(c, FBE_ERR_RANGE, "%zd bytes do not fit FBE's 32-bit size", n);
  if (n && pf_keep(c->s, v)) return pf_fail(c, FBE_ERR_NOMEM, "out of memory");
  s->data = (const uint8_t *)p;
  s->size = (uint32_t)n;
  c->bytes += (size_t)n;
  return 0;
}

static int put_string(pf_enc *c, PyObject *v, fbei_str *s) {
  if (!PyUnicode_Check(v)) return type_error(c, "str", v);
  Py_ssize_t n;
  const char *p = PyUnicode_AsUTF8AndSize(v, &n); /* UTF-8 by construction, or NULL */
  if (!p) {
    PyErr_Clear();
    return not_utf8(c, v);
  }
  return borrow(c, v, p, n, s);
}

static int put_bytes(pf_enc *c, PyObject *v, fbei_str *s) {
  if (PyBytes_Check(v)) return borrow(c, v, PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v), s);
  Py_buffer view; /* a bytearray or memoryview may change: copied */
  if (PyUnicode_Check(v) || !PyObject_CheckBuffer(v)) return type_error(c, "bytes", v);
  if (PyObject_GetBuffer(v, &view, PyBUF_SIMPLE) < 0) {
    PyErr_Clear();
    return type_error(c, "bytes (a contiguous buffer)", v);
  }
  int rc = 0;
  if ((size_t)view.len > UINT32_MAX) rc = pf_fail(c, FBE_ERR_RANGE, "%zd bytes do not fit FBE's 32-bit size", view.len);
  else if (fbei_str_assign(s, c->s->arena, view.buf, (size_t)view.len)) rc = pf_fail(c, FBE_ERR_NOMEM, "out of memory");
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
    if (!PyLong_Check(v) && (!nb || !nb->nb_index || PyFloat_Check(v)))
      return pf_fail(c, FBE_ERR_TYPE, "expected %s or int, got %.80s", en->e->full_name, Py_TYPE(v)->tp_name);
    /* A member of another enum (ours, of the same metaclass, or the standard library's). */
    int is_enum = Py_IS_TYPE((PyObject *)Py_TYPE(v), Py_TYPE(en->cls)) ||
                  PyObject_TypeCheck(v, (PyTypeObject *)pf_enum_type);
    if (is_enum && !same_enum(en, v))
      return pf_fail(c, FBE_ERR_TYPE, "expected %s, got a member of %.80s", en->e->full_name, Py_TYPE(v)->tp_name);
  }
  uint64_t x;
  if (get_int(c, v, t, en->e->full_name, &x)) return -1;
  fbei_scalar_store(t->wire, slot, x);
  return 0;
}

int pf_put_scalar(pf_enc *c, const pf_type *t, PyObject *v, uint8_t *slot) {
  uint64_t x;
  switch (t->kind) {
    case FBE_KIND_BOOL: return put_bool(c, v, slot);
    case FBE_KIND_CHAR: case FBE_KIND_WCHAR:
      if (get_char(c, t, v, &x)) return -1;
      fbei_scalar_store(t->wire, slot, x);
      return 0;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: return put_float(c, t, v, slot);
    case FBE_KIND_DECIMAL: return put_decimal(c, v, slot);
    case FBE_KIND_UUID: return put_uuid(c, v, slot);
    case FBE_KIND_STRING: return put_string(c, v, (fbei_str *)(void *)slot);
    case FBE_KIND_BYTES: return put_bytes(c, v, (fbei_str *)(void *)slot);
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return put_enum(c, t, v, slot);
    default: /* byte, the integers, timestamp */
      if (get_int(c, v, t, NULL, &x)) return -1;
      fbei_scalar_store(t->wire, slot, x);
      return 0;
  }
}

/* ------------------------------------------------------------------ value -> Python */

static PyObject *uuid_from_bytes(const uint8_t b[16]) {
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

static PyObject *decimal_from_bytes(const uint8_t b[16]) {
  fbe_decimal d;
  char text[64];
  memcpy(d.bytes, b, 16);
  fbe_decimal_format(&d, text, sizeof text);
  PyObject *s = PyUnicode_FromString(text);
  PyObject *v = s ? PyObject_CallOneArg(pf_decimal_type, s) : NULL;
  Py_XDECREF(s);
  return v;
}

static PyObject *enum_member(pf_enum *en, uint64_t pattern) {
  uint64_t idx = pattern - (uint64_t)en->lo;
  if (en->table && idx < en->n && en->table[idx]) {
    Py_INCREF(en->table[idx]);
    return en->table[idx];
  }
  PyObject *key = en->is_signed ? PyLong_FromLongLong((long long)pattern) : PyLong_FromUnsignedLongLong(pattern);
  if (!key || !en->by_value || !en->cls) return key;
  PyObject *m = PyDict_GetItemWithError(en->by_value, key);
  if (m || PyErr_Occurred()) {
    Py_XINCREF(m);
    Py_DECREF(key);
    return m;
  }
  /* A value no member has is still a value of the type (the wire allows it): an
   * unnamed instance of the class, made as int.__new__(cls, value) makes it. */
  PyObject *args = PyTuple_Pack(1, key);
  Py_DECREF(key);
  m = args ? PyLong_Type.tp_new((PyTypeObject *)en->cls, args, NULL) : NULL;
  Py_XDECREF(args);
  return m;
}

PyObject *pf_get_scalar(pf_dec *c, const pf_type *t, const uint8_t *slot) {
  const fbei_str *s = (const fbei_str *)(const void *)slot;
  switch (t->kind) {
    case FBE_KIND_BOOL: return PyBool_FromLong(*slot != 0);
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: return PyLong_FromLong(*slot);
    case FBE_KIND_INT8: return PyLong_FromLong(*(const int8_t *)slot);
    case FBE_KIND_INT16: return PyLong_FromLong(*(const int16_t *)(const void *)slot);
    case FBE_KIND_UINT16: return PyLong_FromLong(*(const uint16_t *)(const void *)slot);
    case FBE_KIND_INT32: return PyLong_FromLong(*(const int32_t *)(const void *)slot);
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR: return PyLong_FromUnsignedLong(*(const uint32_t *)(const void *)slot);
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
    case FBE_KIND_DECIMAL: return decimal_from_bytes(slot);
    case FBE_KIND_UUID: return uuid_from_bytes(slot);
    case FBE_KIND_STRING: {
      PyObject *v = PyUnicode_DecodeUTF8(s->size ? (const char *)s->data : "", (Py_ssize_t)s->size, NULL);
      if (!v && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        PyErr_Clear();
        pf_fail(c, FBE_ERR_MALFORMED, "string is not valid UTF-8");
      }
      return v;
    }
    case FBE_KIND_BYTES: return PyBytes_FromStringAndSize(s->size ? (const char *)s->data : "", (Py_ssize_t)s->size);
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return enum_member(t->en, fbei_scalar_load(t->wire, slot));
    default:
      pf_fail(c, FBE_ERR_TYPE, "unsupported type %s", fbe_kind_name(t->kind));
      return NULL;
  }
}

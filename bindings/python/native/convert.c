/* Python scalars <-> the core's scalar slots: bools, integers (and chars, timestamps,
 * enum members), floats, decimals, uuids, strings and bytes, by the input table of
 * docs/INPUT.md. What a refused value is called (pf_got) is the one decision made here:
 * every message, and its status, is the core's (fbe/internal/input.h).
 *
 * Strings and bytes are not copied: the fbei_str points into the str/bytes object,
 * which the scratch keeps alive (pf_keep) until the encoder is done with it. */
#include <math.h>
#include <string.h>
#include "binding.h"
#include "fbe/internal/input.h"
#include "datetime.h"

int pf_convert_init(void) {
  PyDateTime_IMPORT; /* this file's own pointer to the datetime C API */
  return PyDateTimeAPI ? 0 : -1;
}

/* ------------------------------------------------------------------ what a value is */

/* A class's name without its module ("Decimal", not "decimal.Decimal"). */
static const char *short_name(PyTypeObject *tp) {
  const char *dot = strrchr(tp->tp_name, '.');
  return dot ? dot + 1 : tp->tp_name;
}

/* The words of a host value (fbei_got); *name gets the struct's or enum's full name or
 * the class name, valid while v lives (enum names: an attribute of v's class, interned). */
static fbei_got pf_got(PyObject *v, const char **name) {
  *name = NULL;
  if (v == Py_None) return FBEI_GOT_NULL;
  if (PyBool_Check(v)) return FBEI_GOT_BOOL;
  PyTypeObject *tp = Py_TYPE(v);
  if (PyLong_Check(v) || PyObject_TypeCheck(v, (PyTypeObject *)pf_enum_type)) {
    /* an fbe.Enum member (an int of a class with __fbe_name__), a member of the
     * standard library's enums, or an integer */
    PyObject *full = PyLong_Check(v) ? _PyType_Lookup(tp, pf_str_fbe_name) : NULL;
    if (full && PyUnicode_Check(full) && (*name = PyUnicode_AsUTF8(full))) return FBEI_GOT_ENUM;
    PyErr_Clear();
    if (!PyObject_TypeCheck(v, (PyTypeObject *)pf_enum_type)) return FBEI_GOT_INTEGER;
    *name = short_name(tp);
    return FBEI_GOT_ENUM;
  }
  if (PyFloat_Check(v)) return FBEI_GOT_FLOAT;
  if (PyUnicode_Check(v)) return FBEI_GOT_STRING;
  if (PyBytes_Check(v) || PyByteArray_Check(v) || PyMemoryView_Check(v)) return FBEI_GOT_BYTES;
  if (PyList_Check(v) || PyTuple_Check(v)) return FBEI_GOT_LIST;
  if (PyAnySet_Check(v)) return FBEI_GOT_SET;
  if (PyDict_Check(v)) return FBEI_GOT_MAP;
  if (PyDateTime_Check(v)) return FBEI_GOT_TIME;
  if (PyObject_TypeCheck(v, (PyTypeObject *)pf_uuid_type)) return FBEI_GOT_UUID;
  if (PyObject_TypeCheck(v, (PyTypeObject *)pf_decimal_type)) return FBEI_GOT_DECIMAL;
  const pf_struct *si = pf_info_of(tp);
  if (si) {
    *name = si->st->full_name;
    return FBEI_GOT_STRUCT;
  }
  *name = short_name(tp);
  return FBEI_GOT_OTHER;
}

int pf_type_error(fbe_error *err, const fbe_type *want, const fbe_struct *want_st, PyObject *v) {
  const char *name;
  fbei_got got = pf_got(v, &name);
  if (want) fbei_error_type(err, want, got, name);
  else fbei_error_type_struct(err, want_st, got, name);
  return -1;
}

/* "expected W, got G" for a value of want (what the field is: t->t, or the optional
 * around it, so that the message names "int32 or null"). */
static int type_error(pf_enc *c, const fbe_type *want, PyObject *v) { return pf_type_error(&c->err, want, NULL, v); }

/* "value 300 does not fit uint8": the int's own decimal text (not a subclass's repr). */
static int range_error(pf_enc *c, PyObject *v, fbe_kind kind) {
  PyObject *r = PyLong_Check(v) ? PyLong_Type.tp_repr(v) : PyObject_Str(v);
  const char *text = r ? PyUnicode_AsUTF8(r) : NULL;
  if (!text) PyErr_Clear();
  fbei_error_range(&c->err, text ? text : "?", kind);
  Py_XDECREF(r);
  return -1;
}

/* The kind a range error names: an enum's base, else the field's own kind. */
static fbe_kind range_kind(const pf_type *t) {
  return t->kind == FBE_KIND_ENUM || t->kind == FBE_KIND_FLAGS ? t->wire : t->kind;
}

/* A float32 as a double and back, bit for bit: the hardware conversions quiet a
 * signaling NaN, and a NaN's payload is a value of its own (TEXT.md rule 5). */
static double widen(float f) {
  if (!isnan(f)) return f;
  uint32_t b;
  memcpy(&b, &f, 4);
  uint64_t w = (uint64_t)(b >> 31) << 63 | (uint64_t)0x7ff << 52 | (uint64_t)(b & 0x7fffff) << 29;
  double d;
  memcpy(&d, &w, 8);
  return d;
}

static float narrow(double d) {
  if (!isnan(d)) return (float)d;
  uint64_t b;
  memcpy(&b, &d, 8);
  uint32_t m = (uint32_t)(b >> 29) & 0x7fffff;
  uint32_t n = (uint32_t)(b >> 63) << 31 | 0x7f800000u | (m ? m : 0x400000u); /* no payload left: quiet */
  float f;
  memcpy(&f, &n, 4);
  return f;
}

/* ------------------------------------------------------------------ Python -> value */

/* An integer in t's range (the core's, cached in t) from a Python int (not a bool), or
 * anything with __index__ that is not a float. */
static int get_int(pf_enc *c, PyObject *v, const pf_type *t, const fbe_type *want, uint64_t *out) {
  PyObject *num = v;
  if (PyBool_Check(v)) return type_error(c, want, v);
  if (!PyLong_Check(v)) {
    PyNumberMethods *nb = Py_TYPE(v)->tp_as_number;
    if (!nb || !nb->nb_index || PyFloat_Check(v)) return type_error(c, want, v);
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
      rc = range_error(c, num, range_kind(t));
    }
  } else {
    rc = range_error(c, num, range_kind(t));
  }
  if (num != v) Py_DECREF(num);
  return rc;
}

/* char / wchar: an integer code, or a one-character str (a char's below 256). */
static int get_char(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint64_t *out) {
  if (!PyUnicode_Check(v)) return get_int(c, v, t, want, out);
  if (PyUnicode_GET_LENGTH(v) != 1) {
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(v, &n);
    if (!text) { /* a lone surrogate: quoted as its code units */
      PyErr_Clear();
      text = "?";
      n = 1;
    }
    fbei_error_bad_text(&c->err, t->kind, text, (size_t)n);
    return -1;
  }
  *out = PyUnicode_READ_CHAR(v, 0);
  if (t->wire == FBE_KIND_CHAR && *out > 0xFF) {
    char text[16];
    snprintf(text, sizeof text, "%u", (unsigned)*out);
    fbei_error_range(&c->err, text, FBE_KIND_CHAR);
    return -1;
  }
  return 0;
}

static int put_bool(pf_enc *c, const fbe_type *want, PyObject *v, uint8_t *slot) {
  if (v != Py_True && v != Py_False) return type_error(c, want, v);
  *slot = v == Py_True;
  return 0;
}

/* A float or an int (rounded to the nearest double, as a JSON number is). */
static int put_float(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint8_t *slot) {
  double d;
  if (PyFloat_Check(v)) {
    d = PyFloat_AS_DOUBLE(v);
  } else if (PyLong_Check(v) && !PyBool_Check(v)) {
    d = PyLong_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
      PyErr_Clear();
      return range_error(c, v, t->kind);
    }
  } else {
    return type_error(c, want, v);
  }
  if (t->wire == FBE_KIND_FLOAT) {
    float f = narrow(d);
    if (isinf(f) && !isinf(d)) return range_error(c, v, FBE_KIND_FLOAT);
    memcpy(slot, &f, 4);
  } else {
    memcpy(slot, &d, 8);
  }
  return 0;
}

/* A decimal.Decimal, an int or a decimal's text; never a binary float. */
static int put_decimal(pf_enc *c, const fbe_type *want, PyObject *v, uint8_t *slot) {
  int is_text = PyUnicode_Check(v);
  if (!is_text && !PyObject_TypeCheck(v, (PyTypeObject *)pf_decimal_type) && !(PyLong_Check(v) && !PyBool_Check(v)))
    return type_error(c, want, v);
  PyObject *s = is_text ? (Py_INCREF(v), v) : PyLong_Check(v) ? PyLong_Type.tp_repr(v) : PyObject_Str(v);
  Py_ssize_t n;
  const char *text = s ? PyUnicode_AsUTF8AndSize(s, &n) : NULL;
  int rc = -1;
  fbe_decimal d;
  if (!text && is_text) { /* a lone surrogate: no decimal either */
    PyErr_Clear();
    fbei_error_bad_text(&c->err, FBE_KIND_DECIMAL, "?", 1);
  } else if (text) {
    fbe_status st = fbe_decimal_parse(text, (size_t)n, &d);
    if (st == FBE_ERR_RANGE) fbei_error_decimal_range(&c->err, text);
    else if (st) fbei_error_bad_text(&c->err, FBE_KIND_DECIMAL, text, (size_t)n); /* also NaN, Infinity */
    else rc = 0;
  }
  if (!rc) memcpy(slot, d.bytes, 16);
  Py_XDECREF(s);
  return rc;
}

/* Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (long long)doe - 719468;
}

/* A datetime as nanoseconds since the epoch, exactly: an aware one at its UTC offset,
 * a naive one read as UTC (README "Type mapping"). */
static int put_time(pf_enc *c, PyObject *v, uint8_t *slot) {
  PyObject *off = PyObject_CallMethod(v, "utcoffset", NULL);
  if (!off) return -1;
  long long off_us = 0;
  if (PyDelta_Check(off))
    off_us = ((long long)PyDateTime_DELTA_GET_DAYS(off) * 86400 + PyDateTime_DELTA_GET_SECONDS(off)) * 1000000 +
             PyDateTime_DELTA_GET_MICROSECONDS(off);
  Py_DECREF(off);
  long long days = days_from_civil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v), PyDateTime_GET_DAY(v));
  long long secs = days * 86400 + PyDateTime_DATE_GET_HOUR(v) * 3600 + PyDateTime_DATE_GET_MINUTE(v) * 60 +
                   PyDateTime_DATE_GET_SECOND(v);
  long long us = secs * 1000000 + PyDateTime_DATE_GET_MICROSECOND(v) - off_us; /* |us| < 2^58 for years 1..9999 */
  if (us < 0 || (uint64_t)us > UINT64_MAX / 1000) return range_error(c, v, FBE_KIND_TIMESTAMP);
  uint64_t ns = (uint64_t)us * 1000;
  memcpy(slot, &ns, 8);
  return 0;
}

/* uuid.UUID's int as 16 big-endian bytes. */
static int uuid_bytes(pf_enc *c, const fbe_type *want, PyObject *u, uint8_t *b) {
  PyObject *i = PyObject_GetAttrString(u, "int");
  if (!i) return -1;
  int rc;
  if (!PyLong_Check(i)) { /* a subclass that broke its int */
    rc = type_error(c, want, i);
  } else {
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(i, b, 16, Py_ASNATIVEBYTES_BIG_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                                      Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    rc = n < 0 ? -1 : n > 16 ? range_error(c, i, FBE_KIND_UUID) : 0;
#else
    rc = _PyLong_AsByteArray((PyLongObject *)i, b, 16, 0 /* big endian */, 0 /* unsigned */);
#endif
  }
  Py_DECREF(i);
  return rc;
}

static int put_uuid(pf_enc *c, const fbe_type *want, PyObject *v, uint8_t *slot) {
  if (PyObject_TypeCheck(v, (PyTypeObject *)pf_uuid_type)) return uuid_bytes(c, want, v, slot);
  if (!PyUnicode_Check(v)) return type_error(c, want, v);
  Py_ssize_t n;
  const char *text = PyUnicode_AsUTF8AndSize(v, &n);
  fbe_uuid u;
  if (!text) {
    PyErr_Clear();
    text = "?";
    n = 1;
  }
  if (fbe_uuid_parse(text, (size_t)n, &u)) {
    fbei_error_bad_text(&c->err, FBE_KIND_UUID, text, (size_t)n);
    return -1;
  }
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
    fbei_error_bad_text(&c->err, FBE_KIND_STRING, "?", 1);
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

static int put_string(pf_enc *c, const fbe_type *want, PyObject *v, fbei_str *s) {
  if (!PyUnicode_Check(v)) return type_error(c, want, v);
  Py_ssize_t n;
  const char *p = PyUnicode_AsUTF8AndSize(v, &n); /* UTF-8 by construction, or NULL */
  if (!p) {
    PyErr_Clear();
    return not_utf8(c, v);
  }
  return borrow(c, v, p, n, s);
}

static int put_bytes(pf_enc *c, const fbe_type *want, PyObject *v, fbei_str *s) {
  if (PyBytes_Check(v)) return borrow(c, v, PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v), s);
  Py_buffer view; /* a bytearray or memoryview may change: copied */
  if (PyUnicode_Check(v) || !PyObject_CheckBuffer(v)) return type_error(c, want, v);
  if (PyObject_GetBuffer(v, &view, PyBUF_SIMPLE) < 0) { /* not contiguous */
    PyErr_Clear();
    return type_error(c, want, v);
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
  PyObject *name = _PyType_Lookup(Py_TYPE(v), pf_str_fbe_name);
  return name && PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, en->e->full_name) == 0;
}

/* A member of this enum (or of the same enum of another load), an integer, or a name
 * ("sell"; flags: "a|b|64", fbe_enum_parse). */
static int put_enum(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint8_t *slot) {
  const pf_enum *en = t->en;
  uint64_t x;
  if (PyUnicode_Check(v)) {
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(v, &n);
    if (!text) {
      PyErr_Clear();
      text = "?";
      n = 1;
    }
    if (fbe_enum_parse(en->e, text, (size_t)n, &x, &c->err)) return -1;
  } else {
    if ((PyObject *)Py_TYPE(v) != en->cls && !PyLong_CheckExact(v)) {
      const char *name;
      fbei_got got = pf_got(v, &name); /* a member of another enum: refused */
      if (got == FBEI_GOT_ENUM && !same_enum(en, v)) return type_error(c, want, v);
    }
    if (get_int(c, v, t, want, &x)) return -1;
  }
  fbei_scalar_store(t->wire, slot, x);
  return 0;
}

int pf_put_scalar(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint8_t *slot) {
  uint64_t x;
  switch (t->kind) {
    case FBE_KIND_BOOL: return put_bool(c, want, v, slot);
    case FBE_KIND_CHAR: case FBE_KIND_WCHAR:
      if (get_char(c, t, want, v, &x)) return -1;
      fbei_scalar_store(t->wire, slot, x);
      return 0;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: return put_float(c, t, want, v, slot);
    case FBE_KIND_DECIMAL: return put_decimal(c, want, v, slot);
    case FBE_KIND_UUID: return put_uuid(c, want, v, slot);
    case FBE_KIND_STRING: return put_string(c, want, v, (fbei_str *)(void *)slot);
    case FBE_KIND_BYTES: return put_bytes(c, want, v, (fbei_str *)(void *)slot);
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return put_enum(c, t, want, v, slot);
    default: /* byte, the integers, timestamp (also a datetime) */
      if (t->kind == FBE_KIND_TIMESTAMP && PyDateTime_Check(v)) return put_time(c, v, slot);
      if (get_int(c, v, t, want, &x)) return -1;
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
      return PyFloat_FromDouble(widen(f));
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

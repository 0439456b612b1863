/* Raising the fbe exceptions. fbe/_errors.py makes one class per status code from the
 * core's table (fbe_status_class / fbe_status_parent) and hands them over here; every
 * exception's str() is the core's fbe_error_format text, for the ones raised here and,
 * through error_text, for the ones Python code raises: the format lives in the core. */
#include <stdarg.h>
#include <string.h>
#include "binding.h"
#include "fbe/internal/input.h"

static PyObject *classes[FBE_STATUS_COUNT]; /* index: fbe_status */

/* The core's texts are UTF-8, but a value's text cut at a byte count may end inside a
 * character. */
static PyObject *text_object(const char *s) { return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace"); }

PyObject *pf_exception(const fbe_error *e) {
  fbe_status code = (unsigned)e->code < FBE_STATUS_COUNT ? e->code : FBE_ERR_ARGUMENT;
  PyObject *cls = classes[code];
  char text[sizeof e->message + sizeof e->path + 48];
  fbe_error_format(e, text, sizeof text);
  if (!cls) /* fbe/_errors.py not loaded: the package always loads it first */
    return PyObject_CallFunction(PyExc_ValueError, "s", text);
  /* The instance as Error.__init__ leaves it: args (text,) and the record's attributes. */
  PyObject *args = Py_BuildValue("(N)", text_object(text));
  PyObject *exc = args ? ((PyTypeObject *)cls)->tp_new((PyTypeObject *)cls, args, NULL) : NULL;
  /* (a class with an OSError base, TimeoutError, leaves args to its __init__) */
  if (exc && PyObject_SetAttrString(exc, "args", args) < 0) Py_CLEAR(exc);
  PyObject *offset = e->offset == FBE_NO_OFFSET ? (Py_INCREF(Py_None), Py_None) : PyLong_FromSize_t(e->offset);
  PyObject *attrs = Py_BuildValue("{sNsisssNsN}", "message", text_object(e->message), "code", (int)code,
                                  "status", fbe_status_name(code), "path", text_object(e->path), "offset", offset);
  PyObject *dict = exc && attrs ? PyObject_GenericGetDict(exc, NULL) : NULL;
  if (!dict || PyDict_Update(dict, attrs) != 0) Py_CLEAR(exc);
  Py_XDECREF(dict);
  Py_XDECREF(attrs);
  Py_XDECREF(args);
  return exc;
}

void pf_raise(const fbe_error *e) {
  PyObject *exc = pf_exception(e);
  if (exc) PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
  Py_XDECREF(exc);
}

int pf_error(fbe_error *e, fbe_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbei_error_vset(e, code, FBE_NO_OFFSET, fmt, ap);
  va_end(ap);
  return -1;
}

void pf_raisef(fbe_status code, const char *fmt, ...) {
  fbe_error e;
  va_list ap;
  va_start(ap, fmt);
  fbei_error_vset(&e, code, FBE_NO_OFFSET, fmt, ap);
  va_end(ap);
  pf_raise(&e);
}

void pf_unknown_field(fbe_error *e, const pf_struct *si, PyObject *name) {
  fbe_error raised;
  PyObject *text = PyUnicode_Check(name) ? (Py_INCREF(name), name) : PyObject_Str(name);
  Py_ssize_t n = 0;
  const char *s = text ? PyUnicode_AsUTF8AndSize(text, &n) : NULL;
  PyErr_Clear();
  fbei_error_unknown_field(e ? e : &raised, si->st, s ? s : "?", s ? (size_t)n : 1);
  Py_XDECREF(text);
  if (!e) pf_raise(&raised);
}

int pf_exc(PyObject *type, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyErr_FormatV(type, fmt, ap);
  va_end(ap);
  return -1;
}

/* set_error_classes((Error, OutOfMemoryError, ...)): the class of each status code,
 * from fbe/_errors.py. */
PyObject *pf_set_error_classes(PyObject *self, PyObject *seq) {
  (void)self;
  if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != FBE_STATUS_COUNT)
    return PyErr_Format(PyExc_TypeError, "set_error_classes takes a tuple of %d classes", FBE_STATUS_COUNT);
  for (int i = 0; i < FBE_STATUS_COUNT; i++) {
    PyObject *cls = PyTuple_GET_ITEM(seq, i);
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_Exception))
      return PyErr_Format(PyExc_TypeError, "set_error_classes: item %d is not an exception class", i);
    Py_INCREF(cls);
    Py_XSETREF(classes[i], cls);
  }
  Py_RETURN_NONE;
}

/* error_text(message, path, offset) -> str: fbe_error_format's text of an error Python
 * code raises (Error.__init__): the message, then what the core writes after one. */
PyObject *pf_error_text(PyObject *self, PyObject *args) {
  (void)self;
  const char *message, *path;
  Py_ssize_t n;
  PyObject *offset;
  if (!PyArg_ParseTuple(args, "s#sO", &message, &n, &path, &offset)) return NULL;
  size_t at = offset == Py_None ? FBE_NO_OFFSET : PyLong_AsSize_t(offset);
  if (at == (size_t)-1 && PyErr_Occurred()) return NULL;
  char where[sizeof ((fbe_error *)0)->path + 48];
  fbe_error_format_where(path, at, where, sizeof where);
  PyObject *head = PyUnicode_DecodeUTF8(message, n, "replace"), *tail = head ? text_object(where) : NULL;
  PyObject *out = tail ? PyUnicode_Concat(head, tail) : NULL;
  Py_XDECREF(head);
  Py_XDECREF(tail);
  return out;
}

/* type_not_found(core, name, what) -> the NotFoundError (FBE_ERR_NOT_FOUND) of a name
 * the schema has no type of, for Python code to raise, in the core's words
 * (fbei_error_unknown_type; what: "type", "struct" or "enum"):
 * "no type 'Acount' in package proto (did you mean 'Account'?)". */
PyObject *pf_type_not_found(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *core;
  const char *name, *what;
  Py_ssize_t n;
  if (!PyArg_ParseTuple(args, "O!s#s", &pf_core_type, &core, &name, &n, &what)) return NULL;
  fbe_error err;
  fbei_error_unknown_type(&err, ((pf_core *)core)->schema, what, name, (size_t)n);
  return pf_exception(&err);
}

/* fbe.Limits: the limits against hostile input (codec.h, fbe_limits) as one immutable
 * value. The constructor hands every keyword to the core's fbe_limits_set, which alone
 * decides the names, the ranges and the error texts; decode, verify, from_json and the
 * receiver take one as limits= (pf_limits_from). */
#include <string.h>
#include "pyfbe.h"

typedef struct pf_limits {
  PyObject_HEAD
  fbe_limits limits;
} pf_limits;

/* A keyword's value as the int64 the core takes: ints beyond it clamped (so the core
 * refuses them or takes them as "very large"), anything but an int a TypeError. */
static int limit_value(PyObject *name, PyObject *v, int64_t *out) {
  if (!PyLong_Check(v) || PyBool_Check(v)) {
    PyErr_Format(PyExc_TypeError, "fbe.Limits(): %U must be an int, not %.80s", name, Py_TYPE(v)->tp_name);
    return -1;
  }
  int overflow;
  long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (x == -1 && PyErr_Occurred()) return -1;
  *out = overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : (int64_t)x;
  return 0;
}

static PyObject *limits_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
  if (PyTuple_GET_SIZE(args)) {
    PyErr_SetString(PyExc_TypeError,
                    "fbe.Limits() takes keyword arguments only (max_depth=, max_model_size=, max_memory=)");
    return NULL;
  }
  fbe_limits l = {0, 0, 0}; /* every member 0: its default */
  PyObject *name, *value;
  Py_ssize_t pos = 0;
  while (kw && PyDict_Next(kw, &pos, &name, &value)) {
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(name, &n);
    int64_t v;
    if (!text || limit_value(name, value, &v)) return NULL;
    if ((size_t)n != strlen(text)) { /* a NUL inside: no limit's name */
      pf_raise(FBE_ERR_ARGUMENT, "a limit's name contains a NUL character", "", FBE_NO_OFFSET);
      return NULL;
    }
    fbe_error err;
    if (fbe_limits_set(&l, text, v, &err)) {
      pf_raise_fbe(&err);
      return NULL;
    }
  }
  pf_limits *self = (pf_limits *)tp->tp_alloc(tp, 0);
  if (self) self->limits = l;
  return (PyObject *)self;
}

static PyObject *limits_member(PyObject *self, void *which) {
  const fbe_limits *l = &((pf_limits *)self)->limits;
  switch ((intptr_t)which) {
  case 0: return PyLong_FromUnsignedLong(l->max_depth);
  case 1: return PyLong_FromUnsignedLongLong(l->max_model_size);
  default: return PyLong_FromUnsignedLongLong(l->max_memory);
  }
}

static PyObject *limits_repr(PyObject *self) {
  const fbe_limits *l = &((pf_limits *)self)->limits;
  char text[160];
  snprintf(text, sizeof text, "fbe.Limits(max_depth=%u, max_model_size=%llu, max_memory=%llu)", l->max_depth,
           (unsigned long long)l->max_model_size, (unsigned long long)l->max_memory);
  return PyUnicode_FromString(text);
}

static int same(const fbe_limits *a, const fbe_limits *b) {
  return a->max_depth == b->max_depth && a->max_model_size == b->max_model_size && a->max_memory == b->max_memory;
}

static PyObject *limits_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &pf_limits_type)) Py_RETURN_NOTIMPLEMENTED;
  int eq = same(&((pf_limits *)a)->limits, &((pf_limits *)b)->limits);
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t limits_hash(PyObject *self) {
  const fbe_limits *l = &((pf_limits *)self)->limits;
  PyObject *t = Py_BuildValue("(IKK)", l->max_depth, (unsigned long long)l->max_model_size,
                              (unsigned long long)l->max_memory);
  if (!t) return -1;
  Py_hash_t h = PyObject_Hash(t);
  Py_DECREF(t);
  return h;
}

static PyGetSetDef limits_getset[] = {
    {"max_depth", limits_member, NULL, "nesting through optionals and collections (0: the default, 256)",
     (void *)0},
    {"max_model_size", limits_member, NULL, "largest model, frame or JSON text in bytes (0: the default, 1 GiB)",
     (void *)1},
    {"max_memory", limits_member, NULL,
     "bytes one operation may cost (0: the default, 16 x the input + 1 MiB)", (void *)2},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pf_limits_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe.Limits",
    .tp_doc = "Limits(*, max_depth=0, max_model_size=0, max_memory=0)\n--\n\n"
              "The limits against hostile input of decode, verify, validate, from_json and the\n"
              "Receiver (0: the default).\n"
              "The core checks each value: out of range raises fbe.RangeError.",
    .tp_basicsize = sizeof(pf_limits),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = limits_new,
    .tp_repr = limits_repr,
    .tp_richcompare = limits_richcompare,
    .tp_hash = limits_hash,
    .tp_getset = limits_getset,
};

int pf_limits_from(PyObject *obj, fbe_limits *out) {
  if (!obj || obj == Py_None) {
    fbe_limits none = {0, 0, 0};
    *out = none;
    return 0;
  }
  if (!PyObject_TypeCheck(obj, &pf_limits_type)) {
    PyErr_Format(PyExc_TypeError, "limits must be an fbe.Limits or None, not %.80s", Py_TYPE(obj)->tp_name);
    return -1;
  }
  *out = ((pf_limits *)obj)->limits;
  return 0;
}

int pf_limits_init(PyObject *module) {
  if (PyType_Ready(&pf_limits_type) < 0) return -1;
  Py_INCREF(&pf_limits_type);
  return PyModule_AddObject(module, "Limits", (PyObject *)&pf_limits_type);
}

/* fbe._core, hand-written part: init and registration (init_walk adds the walk's types
 * and functions to the SWIG module), the scratch pool of the calls, and fbe.Struct, the
 * base class of every generated struct class (__init__, ==, hash, value[name]). */
#include "binding.h"

PyObject *pf_decimal_type, *pf_uuid_type, *pf_enum_type, *pf_uuid_safe_unknown;
Py_ssize_t pf_uuid_int_offset = -1, pf_uuid_safe_offset = -1;

/* ------------------------------------------------------------------ scratch */

static fbei_scratch_pool pool; /* the core's: any thread takes any idle scratch */

/* Every call takes and gives back its scratch holding the GIL, so the pool needs no
 * atomic operations (a free-threaded build has no GIL: the atomic pool). */
#ifdef Py_GIL_DISABLED
#define POOL_GET fbei_scratch_get
#define POOL_PUT fbei_scratch_put
#else
#define POOL_GET fbei_scratch_get_locked
#define POOL_PUT fbei_scratch_put_locked
#endif

fbei_scratch *pf_take(void) {
  fbei_scratch *s = POOL_GET(&pool);
  if (!s) PyErr_NoMemory();
  return s;
}

int pf_keep(fbei_scratch *s, PyObject *o) {
  if (fbei_scratch_keep(s, o)) return -1;
  Py_INCREF(o);
  return 0;
}

void pf_give(fbei_scratch *s) {
  for (size_t i = 0; i < s->nkeep; i++) Py_DECREF((PyObject *)s->keep[i]);
  s->nkeep = 0;
  POOL_PUT(&pool, s);
}

/* The pool's idle scratches are freed when the module is (SWIG's module definition has
 * no m_free of its own: init_walk gives it this one), and at exit, as CPython may keep
 * an extension module alive to the end. Either is safe: only idle ones are freed. */
static void drain(void) { fbei_scratch_pool_drain(&pool); }
static void module_free(void *module) {
  (void)module;
  drain();
}

/* ------------------------------------------------------------------ fbe.Struct */

static int init_fields(PyObject *self, pf_struct *si, PyObject *args, PyObject *kwargs) {
  Py_ssize_t nargs = PyTuple_GET_SIZE(args), used = 0;
  if (nargs > (Py_ssize_t)si->nfields)
    return pf_exc(PyExc_TypeError, "%s() takes at most %u positional arguments (%zd given)", si->st->name,
                  si->nfields, nargs);
  for (uint32_t i = 0; i < si->nfields; i++) {
    const pf_field *f = &si->fields[i];
    PyObject *v = kwargs ? PyDict_GetItemWithError(kwargs, f->name) : NULL;
    if (!v && PyErr_Occurred()) return -1;
    used += v != NULL;
    if ((Py_ssize_t)i < nargs && v)
      return pf_exc(PyExc_TypeError, "%s() got multiple values for argument '%s'", si->st->name, f->f->name);
    if ((Py_ssize_t)i < nargs) v = PyTuple_GET_ITEM(args, i);
    if (v) Py_INCREF(v);
    else if (!(v = pf_field_default(si, i))) return -1;
    Py_XSETREF(*(PyObject **)((char *)self + f->offset), v);
  }
  if (kwargs && used != PyDict_GET_SIZE(kwargs)) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value))
      if (!pf_field_named(si, key)) {
        pf_unknown_field(NULL, si, key);
        return -1;
      }
  }
  return 0;
}

static int st_init(PyObject *self, PyObject *args, PyObject *kwargs) {
  PyObject *owner = (PyObject *)Py_TYPE(self); /* a replaced field's __del__ may run user code */
  Py_INCREF(owner);
  pf_struct *si = pf_info_of((PyTypeObject *)owner);
  int rc = -1;
  if (!si) PyErr_SetString(PyExc_TypeError, "fbe.Struct is abstract: use a class of a loaded schema");
  else rc = init_fields(self, si, args, kwargs);
  Py_DECREF(owner);
  return rc;
}

/* The fields equality and hashing look at: the [key] fields, or all when none. */
static uint32_t compared(const pf_struct *si, uint32_t k) { return si->nkeys ? si->keys[k] : k; }
static uint32_t ncompared(const pf_struct *si) { return si->nkeys ? si->nkeys : si->nfields; }

/* Field by field; a value's __eq__ is user code: the class is held (see ops.c). */
static PyObject *st_richcompare(PyObject *a, PyObject *b, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  pf_struct *si = pf_info_of(Py_TYPE(a));
  if (!si || pf_info_of(Py_TYPE(b)) != si) Py_RETURN_NOTIMPLEMENTED;
  PyObject *owner = (PyObject *)Py_TYPE(a);
  Py_INCREF(owner);
  int equal = 1;
  for (uint32_t k = 0; k < ncompared(si) && equal > 0; k++) {
    Py_ssize_t at = si->fields[compared(si, k)].offset;
    PyObject *va = *(PyObject **)((char *)a + at), *vb = *(PyObject **)((char *)b + at);
    if (va == vb) continue;
    if (!va || !vb) {
      equal = 0;
      break;
    }
    Py_INCREF(va);
    Py_INCREF(vb);
    equal = PyObject_RichCompareBool(va, vb, Py_EQ);
    Py_DECREF(va);
    Py_DECREF(vb);
  }
  Py_DECREF(owner);
  return equal < 0 ? NULL : PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

/* The hash of the tuple of the compared fields. A value a program builds can nest any
 * depth (N? next chains), and a tuple's hash has no recursion guard of its own: this one
 * makes hash() of a too-deep value raise RecursionError instead of overflowing the C
 * stack. (== needs none: PyObject_RichCompare guards each level.) */
static Py_hash_t st_hash(PyObject *self) {
  pf_struct *si = pf_info_of(Py_TYPE(self));
  if (!si) return PyBaseObject_Type.tp_hash(self);
  if (Py_EnterRecursiveCall(" while hashing an fbe struct")) return -1;
  PyObject *t = PyTuple_New(ncompared(si));
  for (uint32_t k = 0; t && k < ncompared(si); k++) {
    PyObject *v = *(PyObject **)((char *)self + si->fields[compared(si, k)].offset);
    v = v ? v : Py_None;
    Py_INCREF(v);
    PyTuple_SET_ITEM(t, k, v);
  }
  Py_hash_t h = t ? PyObject_Hash(t) : -1;
  Py_XDECREF(t);
  Py_LeaveRecursiveCall();
  return h;
}

/* value[name]: every field by its schema name, also one no attribute can name
 * (README "Names"). An unknown name raises fbe.UnknownFieldError (a KeyError), a field
 * deleted from the value KeyError. */
static PyObject **field_slot(PyObject *self, PyObject *name) {
  pf_struct *si = pf_info_of(Py_TYPE(self));
  if (!si) return (PyObject **)PyErr_Format(PyExc_TypeError, "fbe.Struct is abstract: use a class of a loaded schema");
  if (!PyUnicode_Check(name))
    return (PyObject **)PyErr_Format(PyExc_TypeError, "a field name is a str, not %.80s", Py_TYPE(name)->tp_name);
  const pf_field *f = pf_field_named(si, name);
  if (!f) pf_unknown_field(NULL, si, name);
  return f ? (PyObject **)((char *)self + f->offset) : NULL;
}

static PyObject *st_getitem(PyObject *self, PyObject *name) {
  PyObject **slot = field_slot(self, name);
  if (slot && !*slot) PyErr_SetObject(PyExc_KeyError, name);
  if (!slot || !*slot) return NULL;
  Py_INCREF(*slot);
  return *slot;
}

static int st_setitem(PyObject *self, PyObject *name, PyObject *value) {
  PyObject *owner = (PyObject *)Py_TYPE(self); /* the old value's __del__ may run user code */
  Py_INCREF(owner);
  PyObject **slot = field_slot(self, name);
  int rc = -1;
  if (slot && !value && !*slot) {
    PyErr_SetObject(PyExc_KeyError, name);
  } else if (slot) {
    Py_XINCREF(value);
    Py_XSETREF(*slot, value);
    rc = 0;
  }
  Py_DECREF(owner);
  return rc;
}

static PyMappingMethods struct_mapping = {
    .mp_subscript = st_getitem,
    .mp_ass_subscript = st_setitem,
};

PyTypeObject pf_struct_base_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe.Struct",
    .tp_doc = "Base class of every struct class a schema defines.",
    .tp_basicsize = sizeof(PyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = PyType_GenericNew,
    .tp_init = st_init,
    .tp_richcompare = st_richcompare,
    .tp_hash = st_hash,
    .tp_as_mapping = &struct_mapping,
    .tp_methods = pf_struct_methods,
};

/* ------------------------------------------------------------------ init */

/* module.attr, a new reference (NULL with the error set). */
static PyObject *imported(const char *module, const char *attr) {
  PyObject *m = PyImport_ImportModule(module);
  PyObject *v = m ? PyObject_GetAttrString(m, attr) : NULL;
  Py_XDECREF(m);
  return v;
}

static int module_init(PyObject *m) {
  PyObject *safe = imported("uuid", "SafeUUID");
  pf_uuid_safe_unknown = safe ? PyObject_GetAttrString(safe, "unknown") : NULL;
  Py_XDECREF(safe);
  if (!pf_uuid_safe_unknown || !(pf_decimal_type = imported("decimal", "Decimal")) ||
      !(pf_uuid_type = imported("uuid", "UUID")) || !(pf_enum_type = imported("enum", "Enum")))
    return -1;
  if (PyType_Check(pf_uuid_type) && ((PyTypeObject *)pf_uuid_type)->tp_dictoffset == 0) {
    pf_uuid_int_offset = pf_member_offset(PyDict_GetItemString(((PyTypeObject *)pf_uuid_type)->tp_dict, "int"));
    pf_uuid_safe_offset = pf_member_offset(PyDict_GetItemString(((PyTypeObject *)pf_uuid_type)->tp_dict, "is_safe"));
  }
  pf_meta_type.tp_base = &PyType_Type;
  static const struct {
    const char *name;
    PyTypeObject *type;
  } types[] = {{"StructMeta", &pf_meta_type},       {"Struct", &pf_struct_base_type},
               {"SchemaCore", &pf_core_type},       {"Limits", &pf_limits_type},
               {"SenderEngine", &pf_sender_type}, {"ReceiverEngine", &pf_receiver_type}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    if (PyType_Ready(types[i].type) < 0) return -1;
    Py_INCREF(types[i].type);
    if (PyModule_AddObject(m, types[i].name, (PyObject *)types[i].type) < 0) return -1;
  }
  PyModuleDef *def = PyModule_GetDef(m);
  if (def) def->m_free = module_free;
  (void)Py_AtExit(drain);
  if (PyModule_AddFunctions(m, pf_module_methods) < 0) return -1;
  return PyModule_AddIntConstant(m, "NOGIL_BYTES", (long)FBE_RELEASE_LOCK_BYTES);
}

/* init_walk(module): once, from fbe/__init__.py. */
PyObject *pyfbe_init_walk(PyObject *self, PyObject *args) {
  (void)self;
  static int done;
  PyObject *m;
  if (!PyArg_ParseTuple(args, "O!", &PyModule_Type, &m)) return NULL;
  if (!done) {
    if (module_init(m) < 0) return NULL;
    done = 1;
  }
  Py_RETURN_NONE;
}

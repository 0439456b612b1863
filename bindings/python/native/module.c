/* fbe._core, hand-written part: init and registration (init_walk adds the walk's types
 * and functions to the SWIG module), the scratch pool of the calls, and fbe.Struct, the
 * base class of every generated struct class (__init__, ==, hash, <, repr, value[name]). */
#include <string.h>
#include "binding.h"

PyObject *pf_decimal_type, *pf_uuid_type, *pf_enum_type, *pf_uuid_safe_unknown, *pf_str_fbe_name;
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

/* ---- the core's identity of a value (README "Equality, hashing and order"):
 * == is fbe_msg_equal of the two values converted as encode converts them; hash and
 * order are fbe_msg_key_hash / fbe_msg_key_compare of the [key] fields. The classes
 * are held while user code may run (a value's __index__, __iter__, __del__). */

/* Both values of one struct (the same class, a subclass, or the class of another load
 * of the schema), or NULL. */
static pf_struct *common_struct(PyObject *a, PyObject *b) {
  pf_struct *si = pf_info_of(Py_TYPE(a)), *sb = pf_info_of(Py_TYPE(b));
  if (!si || !sb || !si->cls) return NULL;
  return si == sb || strcmp(si->st->full_name, sb->st->full_name) == 0 ? si : NULL;
}

static PyObject *st_richcompare(PyObject *a, PyObject *b, int op) {
  pf_struct *si = common_struct(a, b);
  int equality = op == Py_EQ || op == Py_NE;
  if (!si || (!equality && !si->nkeys)) Py_RETURN_NOTIMPLEMENTED; /* keyless: not ordered (TypeError) */
  if (equality && a == b) return PyBool_FromLong(op == Py_EQ);
  PyObject *ta = (PyObject *)Py_TYPE(a), *tb = (PyObject *)Py_TYPE(b);
  Py_INCREF(ta);
  Py_INCREF(tb);
  fbei_scratch *s = pf_take();
  PyObject *out = NULL;
  if (s) {
    pf_enc c;
    pf_enc_init(&c, s);
    fbe_msg *(*build)(pf_enc *, const pf_struct *, PyObject *) = equality ? pf_try_msg : pf_try_key_msg;
    fbe_msg *ma = build(&c, si, a), *mb = ma ? build(&c, si, b) : NULL;
    if (mb && equality) {
      out = PyBool_FromLong(fbe_msg_equal(ma, mb) == (op == Py_EQ));
    } else if (mb) {
      int r = fbe_msg_key_compare(ma, mb);
      int yes = op == Py_LT ? r < 0 : op == Py_LE ? r <= 0 : op == Py_GT ? r > 0 : r >= 0;
      out = PyBool_FromLong(yes);
    } else if (c.err.code) {
      pf_raise(&c.err);
    }
    pf_give(s);
  }
  Py_DECREF(ta);
  Py_DECREF(tb);
  return out;
}

/* A struct without [key] fields has no hash (its class sets __hash__ = None too). */
static Py_hash_t st_hash(PyObject *self) {
  pf_struct *si = pf_info_of(Py_TYPE(self));
  if (!si || !si->cls) return PyBaseObject_Type.tp_hash(self);
  if (!si->nkeys) return PyObject_HashNotImplemented(self);
  PyObject *owner = (PyObject *)Py_TYPE(self);
  Py_INCREF(owner);
  fbei_scratch *s = pf_take();
  Py_hash_t h = -1;
  if (s) {
    pf_enc c;
    pf_enc_init(&c, s);
    fbe_msg *m = pf_try_key_msg(&c, si, self);
    if (m) {
      uint64_t k = fbe_msg_key_hash(m);
      h = (Py_hash_t)(sizeof(Py_hash_t) < 8 ? k ^ (k >> 32) : k);
      if (h == -1) h = -2; /* -1 is CPython's error value */
    } else if (c.err.code) {
      pf_raise(&c.err);
    }
    pf_give(s);
  }
  Py_DECREF(owner);
  return h;
}

/* repr() and str(): the core's text form (docs/TEXT.md) of the value converted as
 * encode converts it. A value encode refuses prints Name(<invalid: the error's text>):
 * printing never raises for a bad field value. */
static PyObject *invalid_text(const pf_struct *si, const fbe_error *err) {
  char text[sizeof err->message + sizeof err->path + 48];
  fbe_error_format(err, text, sizeof text);
  PyObject *t = PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace");
  PyObject *out = t ? PyUnicode_FromFormat("%s(<invalid: %U>)", si->st->name, t) : NULL;
  Py_XDECREF(t);
  return out;
}

static PyObject *st_repr(PyObject *self) {
  PyObject *owner = (PyObject *)Py_TYPE(self);
  pf_struct *si = pf_info_of((PyTypeObject *)owner);
  if (!si || !si->cls) return PyBaseObject_Type.tp_repr(self);
  Py_INCREF(owner);
  fbei_scratch *s = pf_take();
  PyObject *out = NULL;
  if (s) {
    pf_enc c;
    pf_enc_init(&c, s);
    fbe_error err;
    fbe_msg *m = pf_try_msg(&c, si, self);
    if (m && fbe_msg_to_text(m, &s->buf, &err) == FBE_OK)
      out = PyUnicode_DecodeUTF8((const char *)s->buf.data, (Py_ssize_t)s->buf.size, "replace");
    else if (m || c.err.code)
      out = invalid_text(si, m ? &err : &c.err);
    pf_give(s);
  }
  Py_DECREF(owner);
  return out;
}

/* v.name = x for a name that is no field: fbe.UnknownFieldError with the nearest field
 * suggested (still an AttributeError), as the constructor says it. */
static int st_setattro(PyObject *self, PyObject *name, PyObject *value) {
  int rc = PyObject_GenericSetAttr(self, name, value);
  if (rc < 0 && PyUnicode_Check(name) && PyErr_ExceptionMatches(PyExc_AttributeError)) {
    pf_struct *si = pf_info_of(Py_TYPE(self));
    if (si && !pf_field_named(si, name)) {
      PyErr_Clear();
      pf_unknown_field(NULL, si, name);
    }
  }
  return rc;
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
    .tp_repr = st_repr,
    .tp_setattro = st_setattro,
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
      !(pf_uuid_type = imported("uuid", "UUID")) || !(pf_enum_type = imported("enum", "Enum")) ||
      !(pf_str_fbe_name = PyUnicode_InternFromString("__fbe_name__")) || pf_convert_init() < 0 ||
      pf_view_init(m) < 0)
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
               {"SenderEngine", &pf_sender_type}, {"ReceiverEngine", &pf_receiver_type},
               {"ProxyEngine", &pf_proxy_type},   {"ClientEngine", &pf_client_type},
               {"View", &pf_view_type}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    if (PyType_Ready(types[i].type) < 0) return -1;
    Py_INCREF(types[i].type);
    if (PyModule_AddObject(m, types[i].name, (PyObject *)types[i].type) < 0) return -1;
  }
  PyModuleDef *def = PyModule_GetDef(m);
  if (def) def->m_free = module_free;
  (void)Py_AtExit(drain);
  if (PyModule_AddFunctions(m, pf_module_methods) < 0 || PyModule_AddFunctions(m, pf_protocol_methods) < 0)
    return -1;
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

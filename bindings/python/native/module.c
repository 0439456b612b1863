/* fbe._core, hand-written part: errors, per-thread scratch, the struct metaclass and
 * base class, binding a loaded schema to its Python classes, and the per-message
 * entry points (encode, decode, verify, JSON). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "pyfbe.h"
#include "fbe/internal/error.h"
#include "structmember.h"

#if PY_VERSION_HEX < 0x030C0000
#define PF_T_OBJECT_EX T_OBJECT_EX
#else
#define PF_T_OBJECT_EX Py_T_OBJECT_EX
#endif

/* Above this many bytes of work, encode/decode/verify release the GIL around the pure-C
 * part. Below it the release costs more than it gives. */
#define PF_NOGIL_BYTES (64 * 1024)

PyObject *pf_decimal_type, *pf_uuid_type, *pf_enum_type, *pf_uuid_safe_unknown;
Py_ssize_t pf_uuid_int_offset = -1, pf_uuid_safe_offset = -1;

/* ------------------------------------------------------------------ errors */

#define PF_NCLASSES 17
static PyObject *error_classes[PF_NCLASSES]; /* index: fbe_status, or PF_ERR_UNKNOWN_FIELD */

void pf_err_set(pf_err *e, int code, const char *fmt, ...) {
  e->code = (fbe_status)code;
  e->path[0] = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  va_end(ap);
}

void pf_err_prepend_field(pf_err *e, const char *name) {
  if (e->code) fbe_error_prepend_field(e, name);
}

void pf_err_prepend_index(pf_err *e, size_t index) {
  if (e->code) fbe_error_prepend_index(e, index);
}

void pf_err_prepend_key(pf_err *e) {
  if (e->code) fbe_error_prepend_field(e, "[key]");
}

void pf_raise(int code, const char *message, const char *path, size_t offset) {
  if (code < 0 || code >= PF_NCLASSES) code = FBE_ERR_ARGUMENT;
  PyObject *cls = error_classes[code] ? error_classes[code] : error_classes[0];
  int attr_code = code == PF_ERR_UNKNOWN_FIELD ? FBE_ERR_NOT_FOUND : code;
  if (!cls) { /* fbe/_errors.py not loaded: the package always loads it first */
    PyErr_Format(PyExc_ValueError, "%s", message);
    return;
  }
  PyObject *exc;
  if (offset == FBE_NO_OFFSET)
    exc = PyObject_CallFunction(cls, "sisO", message, attr_code, path ? path : "", Py_None);
  else
    exc = PyObject_CallFunction(cls, "sisn", message, attr_code, path ? path : "",
                                (Py_ssize_t)offset);
  if (!exc) return;
  PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
}

void pf_raise_err(const pf_err *e) { pf_raise(e->code, e->message, e->path, e->offset); }

void pf_raise_fbe(const fbe_error *e) { pf_raise(e->code, e->message, e->path, e->offset); }

/* set_error_classes({code: class, ..., 16: UnknownFieldError}), from fbe/_errors.py */
PyObject *pyfbe_set_error_classes(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *map;
  if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &map)) return NULL;
  for (int i = 0; i < PF_NCLASSES; i++) {
    PyObject *key = PyLong_FromLong(i);
    if (!key) return NULL;
    PyObject *cls = PyDict_GetItemWithError(map, key);
    Py_DECREF(key);
    if (!cls && PyErr_Occurred()) return NULL;
    Py_XINCREF(cls);
    Py_XSETREF(error_classes[i], cls);
  }
  Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ scratch */

#if defined(_WIN32)
static __declspec(thread) pf_scratch *tls_scratch;
#else
#include <pthread.h>
static _Thread_local pf_scratch *tls_scratch;
static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
#endif

static void scratch_free(pf_scratch *s) {
  if (!s) return;
  fbe_arena_free(s->arena);
  fbe_buffer_free(&s->buf);
  PyMem_RawFree(s->keep);
  PyMem_RawFree(s);
}

#if !defined(_WIN32)
static void scratch_destructor(void *p) { scratch_free(p); } /* thread exit */
static void scratch_key_init(void) { (void)pthread_key_create(&scratch_key, scratch_destructor); }
#endif

static pf_scratch *scratch_new(void) {
  pf_scratch *s = PyMem_RawCalloc(1, sizeof *s);
  if (!s) return NULL;
  if (!(s->arena = fbe_arena_new())) {
    PyMem_RawFree(s);
    return NULL;
  }
  return s;
}

pf_scratch *pf_scratch_get(void) {
  pf_scratch *s = tls_scratch;
  if (s && !s->busy) {
    s->busy = 1;
    return s;
  }
  if (!(s = scratch_new())) return NULL;
  if (!tls_scratch) { /* the thread's own, kept for its next calls */
#if !defined(_WIN32)
    pthread_once(&scratch_once, scratch_key_init);
    pthread_setspecific(scratch_key, s);
#endif
    tls_scratch = s;
  } else {
    s->temp = 1; /* a nested call while the thread's scratch is in use */
  }
  s->busy = 1;
  return s;
}

int pf_keep(pf_scratch *s, PyObject *o) {
  if (s->nkeep == s->keep_cap) {
    size_t cap = s->keep_cap ? s->keep_cap * 2 : 32;
    PyObject **more = PyMem_RawRealloc(s->keep, cap * sizeof *more);
    if (!more) return -1;
    s->keep = more;
    s->keep_cap = cap;
  }
  Py_INCREF(o);
  s->keep[s->nkeep++] = o;
  return 0;
}

void pf_scratch_put(pf_scratch *s) {
  for (size_t i = 0; i < s->nkeep; i++) Py_DECREF(s->keep[i]);
  s->nkeep = 0;
  if (s->temp) {
    scratch_free(s);
    return;
  }
  fbe_arena_reset(s->arena); /* keeps one 4 KiB block */
  if (s->buf.capacity > (1u << 20)) fbe_buffer_free(&s->buf);
  else fbe_buffer_reset(&s->buf);
  if (s->keep_cap > 4096) {
    PyMem_RawFree(s->keep);
    s->keep = NULL;
    s->keep_cap = 0;
  }
  s->busy = 0;
}

/* ------------------------------------------------------------------ core */

static int core_traverse(PyObject *self, visitproc visit, void *arg) {
  pf_core *c = (pf_core *)self;
  for (uint32_t i = 0; i < c->nstructs; i++) Py_VISIT(c->structs[i].cls);
  for (uint32_t i = 0; i < c->nenums; i++) {
    Py_VISIT(c->enums[i].cls);
    Py_VISIT(c->enums[i].by_value);
  }
  for (uint32_t i = 0; i < c->nstructs; i++)
    for (uint32_t j = 0; j < c->structs[i].nfields; j++) Py_VISIT(c->structs[i].fields[j].def_value);
  return 0;
}

static int core_clear(PyObject *self) {
  pf_core *c = (pf_core *)self;
  /* Drops the references that can form cycles; the tables stay (classes still alive
   * hold the core and read them) until the core is freed. */
  for (uint32_t i = 0; i < c->nstructs; i++) {
    for (uint32_t j = 0; j < c->structs[i].nfields; j++) Py_CLEAR(c->structs[i].fields[j].def_value);
    PyTypeObject *cls = c->structs[i].cls;
    c->structs[i].cls = NULL;
    Py_XDECREF(cls);
  }
  for (uint32_t i = 0; i < c->nenums; i++) {
    PyMem_Free(c->enums[i].table); /* borrowed members of by_value */
    c->enums[i].table = NULL;
    Py_CLEAR(c->enums[i].by_value);
    Py_CLEAR(c->enums[i].cls);
  }
  return 0;
}

static void core_dealloc(PyObject *self) {
  pf_core *c = (pf_core *)self;
  PyObject_GC_UnTrack(self);
  core_clear(self);
  for (uint32_t i = 0; i < c->nstructs; i++) {
    pf_struct *si = &c->structs[i];
    for (uint32_t j = 0; j < si->nfields; j++) Py_XDECREF(si->fields[j].name);
    PyMem_Free(si->fields);
    PyMem_Free(si->keys);
  }
  PyMem_Free(c->structs);
  PyMem_Free(c->enums);
  PyMem_Free(c->map);
  fbe_arena_free(c->mem);
  if (c->schema) fbe_schema_release(c->schema);
  PyObject_GC_Del(self);
}

PyTypeObject pf_core_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.SchemaCore",
    .tp_doc = "The compiled tables of one loaded schema as the object walk uses them.",
    .tp_basicsize = sizeof(pf_core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = core_traverse,
    .tp_clear = core_clear,
    .tp_dealloc = core_dealloc,
};

static size_t ptr_hash(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= (uintptr_t)0x9E3779B97F4A7C15ull;
  return (size_t)(x ^ (x >> 29));
}

pf_struct *pf_core_find(const pf_core *core, const fbe_struct *st) {
  if (!core->map) return NULL;
  for (size_t i = ptr_hash(st) & core->map_mask;; i = (i + 1) & core->map_mask) {
    pf_struct *si = core->map[i];
    if (!si) return NULL;
    if (si->st == st) return si;
  }
}

static pf_enum *core_find_enum(const pf_core *core, const fbe_enum *e) {
  for (uint32_t i = 0; i < core->nenums; i++)
    if (core->enums[i].e == e) return &core->enums[i];
  return NULL;
}

/* ------------------------------------------------------------------ metaclass */

pf_struct *pf_info_of(PyTypeObject *tp) {
  for (; tp; tp = tp->tp_base) {
    if (Py_IS_TYPE(tp, &pf_meta_type) || PyType_IsSubtype(Py_TYPE(tp), &pf_meta_type)) {
      pf_meta *m = (pf_meta *)tp;
      if (m->info) return m->info;
    }
  }
  return NULL;
}

static int meta_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(((pf_meta *)self)->core);
  return PyType_Type.tp_traverse(self, visit, arg);
}

static int meta_clear(PyObject *self) { return PyType_Type.tp_clear(self); }

static void meta_dealloc(PyObject *self) {
  pf_meta *m = (pf_meta *)self;
  m->info = NULL;
  PyObject *core = m->core;
  m->core = NULL;
  PyType_Type.tp_dealloc(self);
  Py_XDECREF(core);
}

PyTypeObject pf_meta_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.StructMeta",
    .tp_doc = "Metaclass of the classes a schema defines: carries the walk's tables.",
    .tp_basicsize = sizeof(pf_meta),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_traverse = meta_traverse,
    .tp_clear = meta_clear,
    .tp_dealloc = meta_dealloc,
};

/* ------------------------------------------------------------------ bind */

static int is_immutable_kind(fbe_kind k) {
  return k <= FBE_KIND_BYTES || k == FBE_KIND_ENUM || k == FBE_KIND_FLAGS;
}

static const pf_type *make_type(pf_core *core, const fbe_type *t) {
  pf_type *pt = fbe_arena_alloc(core->mem, sizeof *pt);
  if (!pt) {
    PyErr_NoMemory();
    return NULL;
  }
  memset(pt, 0, sizeof *pt);
  pt->t = t;
  pt->kind = t->kind;
  pt->wire = t->wire;
  if (t->kind == FBE_KIND_STRUCT) {
    if (!(pt->st = pf_core_find(core, t->st))) {
      PyErr_Format(PyExc_RuntimeError, "fbe: no class bound for struct %s", t->st->full_name);
      return NULL;
    }
  } else if (t->kind == FBE_KIND_ENUM || t->kind == FBE_KIND_FLAGS) {
    if (!(pt->en = core_find_enum(core, t->enm))) {
      PyErr_Format(PyExc_RuntimeError, "fbe: no class bound for enum %s", t->enm->full_name);
      return NULL;
    }
  }
  if (t->elem && !(pt->elem = make_type(core, t->elem))) return NULL;
  if (t->key && !(pt->key = make_type(core, t->key))) return NULL;
  return pt;
}

static int bind_enum(pf_enum *en, const fbe_enum *e, PyObject *cls) {
  en->e = e;
  Py_INCREF(cls);
  en->cls = cls;
  en->is_signed = e->base == FBE_KIND_INT8 || e->base == FBE_KIND_INT16 ||
                  e->base == FBE_KIND_INT32 || e->base == FBE_KIND_INT64;
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyLong_Type)) {
    PyErr_Format(PyExc_TypeError, "class for %s must be an fbe.Enum (an int subclass)", e->full_name);
    return -1;
  }
  if (!(en->by_value = PyDict_New())) return -1;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (uint32_t i = 0; i < e->nvalues; i++) {
    uint64_t v = e->values[i].value;
    PyObject *key = en->is_signed ? PyLong_FromLongLong((long long)v) : PyLong_FromUnsignedLongLong(v);
    if (!key) return -1;
    PyObject *member = PyObject_CallOneArg(cls, key); /* EnumType.__call__: the member */
    if (!member || PyDict_SetItem(en->by_value, key, member)) {
      Py_DECREF(key);
      Py_XDECREF(member);
      return -1;
    }
    Py_DECREF(key);
    Py_DECREF(member);
    if (en->is_signed || v <= (uint64_t)INT64_MAX) {
      int64_t s = (int64_t)v;
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
  }
  /* A direct table when the named values span a small range (most enums). */
  if (e->nvalues && lo <= hi && (uint64_t)hi - (uint64_t)lo < 1024) {
    en->lo = lo;
    en->n = (uint32_t)((uint64_t)hi - (uint64_t)lo + 1);
    en->table = PyMem_Calloc(en->n, sizeof(PyObject *));
    if (!en->table) {
      PyErr_NoMemory();
      return -1;
    }
    PyObject *key, *member;
    Py_ssize_t pos = 0;
    while (PyDict_Next(en->by_value, &pos, &key, &member)) {
      int overflow;
      long long v = PyLong_AsLongLongAndOverflow(key, &overflow);
      if (!overflow && v >= lo && v <= hi) en->table[(uint64_t)v - (uint64_t)lo] = member;
    }
  }
  return 0;
}

/* The slot of each field: the __slots__ member descriptor named by the class's
 * __fbe_slots__ (the field's own name, or a made-up one for a field no attribute can
 * name: fbe/_schema.py removes those descriptors once bound). */
static PyObject *slot_name_of(PyTypeObject *cls, uint32_t i) {
  PyObject *slots = PyDict_GetItemString(cls->tp_dict, "__fbe_slots__");
  if (!slots || !PyTuple_Check(slots) || (Py_ssize_t)i >= PyTuple_GET_SIZE(slots)) {
    PyErr_Format(PyExc_TypeError, "fbe: class %s has no __fbe_slots__ for its fields", cls->tp_name);
    return NULL;
  }
  return PyTuple_GET_ITEM(slots, i);
}

static int bind_struct(pf_core *core, pf_struct *si) {
  const fbe_struct *st = si->st;
  PyTypeObject *cls = si->cls;
  si->fields = PyMem_Calloc(st->nfields ? st->nfields : 1, sizeof(pf_field));
  si->keys = PyMem_Calloc(st->nfields ? st->nfields : 1, sizeof(uint32_t));
  if (!si->fields || !si->keys) {
    PyErr_NoMemory();
    return -1;
  }
  si->nfields = st->nfields;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    pf_field *pf = &si->fields[i];
    pf->f = f;
    pf->image = (const uint8_t *)st->defaults + f->mem_offset;
    if (!(pf->name = PyUnicode_InternFromString(f->name))) return -1;
    if (!(pf->type = make_type(core, f->type))) return -1;
    if (f->is_key) si->keys[si->nkeys++] = i;
    /* The slot: the __slots__ member descriptor of this field (own or inherited). */
    PyObject *slot = slot_name_of(cls, i);
    if (!slot) return -1;
    PyObject *descr = _PyType_Lookup(cls, slot);
    if (!descr || !Py_IS_TYPE(descr, &PyMemberDescr_Type) ||
        ((PyMemberDescrObject *)descr)->d_member->type != PF_T_OBJECT_EX) {
      PyErr_Format(PyExc_TypeError, "fbe: class %s has no __slots__ member for field '%s'",
                   cls->tp_name, f->name);
      return -1;
    }
    pf->offset = ((PyMemberDescrObject *)descr)->d_member->offset;
  }
  if (!(si->self_type = make_type(core, st->self_type))) return -1;
  return 0;
}

/* How __init__ fills each field that is not given (needs every struct bound). */
static int bind_defaults(pf_struct *si) {
  const fbe_struct *st = si->st;
  for (uint32_t i = 0; i < si->nfields; i++) {
    pf_field *pf = &si->fields[i];
    const fbe_field *f = pf->f;
    const fbe_type *t = f->type;
    if (f->def.kind == FBE_DEF_UTC || f->def.kind == FBE_DEF_UUID1 || f->def.kind == FBE_DEF_UUID4) {
      pf->def_kind = PF_DEF_DYNAMIC;
      continue;
    }
    const uint8_t *image = (const uint8_t *)st->defaults + f->mem_offset;
    int immutable = is_immutable_kind(t->kind);
    if (t->kind == FBE_KIND_OPTIONAL) {
      const void *inner = *(const void *const *)image;
      immutable = !inner || is_immutable_kind(t->elem->kind);
    }
    if (!immutable) {
      pf->def_kind = PF_DEF_FRESH;
      continue;
    }
    pf_dec c;
    memset(&c, 0, sizeof c);
    pf->def_kind = PF_DEF_CONST;
    if (!(pf->def_value = pf_get_value(&c, pf->type, image))) {
      if (c.err.code) pf_raise_err(&c.err);
      return -1;
    }
  }
  return 0;
}

/* bind(swig_schema, [(full_name, cls), ...], [(full_name, enum_cls), ...]) -> SchemaCore
 * Records, for every struct class, the slot offset of each field; for every enum its
 * value -> member table. Every struct of the schema must be in the list. */
PyObject *pyfbe_bind(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *swig, *structs, *enums;
  if (!PyArg_ParseTuple(args, "OO!O!", &swig, &PyList_Type, &structs, &PyList_Type, &enums))
    return NULL;
  fbe_schema *schema = pyfbe_schema_from_swig(swig);
  if (!schema) return NULL;
  pf_core *core = PyObject_GC_New(pf_core, &pf_core_type);
  if (!core) return NULL;
  core->schema = fbe_schema_retain(schema);
  core->mem = fbe_arena_new();
  core->nstructs = core->nenums = 0;
  core->structs = NULL;
  core->enums = NULL;
  core->map = NULL;
  core->map_mask = 0;
  Py_ssize_t ns = PyList_GET_SIZE(structs), ne = PyList_GET_SIZE(enums);
  core->structs = PyMem_Calloc((size_t)ns + 1, sizeof(pf_struct));
  core->enums = PyMem_Calloc((size_t)ne + 1, sizeof(pf_enum));
  size_t cap = 16;
  while (cap < 2 * (size_t)ns + 2) cap *= 2;
  core->map = PyMem_Calloc(cap, sizeof(pf_struct *));
  core->map_mask = cap - 1;
  PyObject_GC_Track(core);
  if (!core->mem || !core->structs || !core->enums || !core->map) {
    PyErr_NoMemory();
    goto fail;
  }
  for (Py_ssize_t i = 0; i < ne; i++) {
    const char *name;
    PyObject *cls;
    if (!PyArg_ParseTuple(PyList_GET_ITEM(enums, i), "sO", &name, &cls)) goto fail;
    const fbe_enum *e = fbe_schema_find_enum(schema, name);
    if (!e) {
      PyErr_Format(PyExc_KeyError, "no enum %s in the schema", name);
      goto fail;
    }
    core->nenums++;
    if (bind_enum(&core->enums[i], e, cls)) goto fail;
  }
  for (Py_ssize_t i = 0; i < ns; i++) {
    const char *name;
    PyObject *cls;
    if (!PyArg_ParseTuple(PyList_GET_ITEM(structs, i), "sO", &name, &cls)) goto fail;
    const fbe_struct *st = fbe_schema_find_struct(schema, name);
    if (!st) {
      PyErr_Format(PyExc_KeyError, "no struct %s in the schema", name);
      goto fail;
    }
    if (!PyType_Check(cls) || !PyType_IsSubtype(Py_TYPE(cls), &pf_meta_type) ||
        !PyType_IsSubtype((PyTypeObject *)cls, &pf_struct_base_type)) {
      PyErr_Format(PyExc_TypeError, "class for %s must be made by fbe._core.StructMeta from Struct",
                   name);
      goto fail;
    }
    pf_struct *si = &core->structs[core->nstructs++];
    si->st = st;
    si->core = core;
    Py_INCREF(cls);
    si->cls = (PyTypeObject *)cls;
    size_t h = ptr_hash(st) & core->map_mask;
    while (core->map[h]) h = (h + 1) & core->map_mask;
    core->map[h] = si;
  }
  for (uint32_t i = 0; i < core->nstructs; i++)
    if (bind_struct(core, &core->structs[i])) goto fail;
  for (uint32_t i = 0; i < core->nstructs; i++)
    if (bind_defaults(&core->structs[i])) goto fail;
  for (uint32_t i = 0; i < core->nstructs; i++) {
    pf_meta *m = (pf_meta *)core->structs[i].cls;
    m->info = &core->structs[i];
    Py_INCREF(core);
    Py_XSETREF(m->core, (PyObject *)core);
  }
  return (PyObject *)core;
fail:
  Py_DECREF(core);
  return NULL;
}

/* ------------------------------------------------------------------ argument helpers */

static pf_struct *info_or_raise(PyObject *cls) {
  pf_struct *si = PyType_Check(cls) ? pf_info_of((PyTypeObject *)cls) : NULL;
  if (!si) PyErr_Format(PyExc_TypeError, "expected a struct class of a loaded schema, got %R", cls);
  else if (!si->cls) PyErr_SetString(PyExc_RuntimeError, "fbe: the schema of this class was freed");
  return si && si->cls ? si : NULL;
}

/* Parses (positional..., keyword...) of a fastcall: `names` lists the keywords, the
 * first `npos` may also come positionally; out[] gets borrowed objects or NULL. */
static int parse_args(const char *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      const char *const *names, int nnames, int npos, int nrequired, PyObject **out) {
  for (int i = 0; i < nnames; i++) out[i] = NULL;
  if (nargs > npos) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", fn, npos,
                 nargs);
    return -1;
  }
  for (Py_ssize_t i = 0; i < nargs; i++) out[i] = args[i];
  if (kwnames) {
    Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nk; k++) {
      PyObject *key = PyTuple_GET_ITEM(kwnames, k);
      int found = 0;
      for (int i = 0; i < nnames; i++) {
        if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
          if (out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fn, names[i]);
            return -1;
          }
          out[i] = args[nargs + k];
          found = 1;
          break;
        }
      }
      if (!found) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fn, key);
        return -1;
      }
    }
  }
  for (int i = 0; i < nrequired; i++) {
    if (!out[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fn, names[i]);
      return -1;
    }
  }
  return 0;
}

static int flag(PyObject *o, int *out) {
  if (!o) return 0;
  int v = PyObject_IsTrue(o);
  if (v < 0) return -1;
  *out = v;
  return 0;
}

/* A read-only view of bytes-like data. view->obj is NULL when nothing to release. */
static int get_data(PyObject *data, Py_buffer *view) {
  if (PyBytes_CheckExact(data)) {
    view->obj = NULL;
    view->buf = PyBytes_AS_STRING(data);
    view->len = PyBytes_GET_SIZE(data);
    return 0;
  }
  if (PyUnicode_Check(data) || PyObject_GetBuffer(data, view, PyBUF_SIMPLE) < 0) {
    PyErr_Clear();
    char msg[160];
    snprintf(msg, sizeof msg, "expected bytes, bytearray or memoryview, got %.80s",
             Py_TYPE(data)->tp_name);
    pf_raise(FBE_ERR_TYPE, msg, "", FBE_NO_OFFSET);
    return -1;
  }
  return 0;
}

static void put_data(Py_buffer *view) {
  if (view->obj) PyBuffer_Release(view);
}

/* ------------------------------------------------------------------ operations */

fbe_msg *pf_build_msg(pf_enc *c, const pf_struct *si, PyObject *obj) {
  fbe_msg *m = fbe_arena_alloc(c->arena, sizeof(fbe_msg) + si->st->mem_size);
  if (!m) {
    PyErr_NoMemory();
    return NULL;
  }
  m->type = si->st;
  m->arena = c->arena;
  if (pf_put_struct(c, si, obj, fbe_msg_data(m))) {
    if (c->err.code) pf_raise_err(&c->err);
    return NULL;
  }
  return m;
}

static void enc_init(pf_enc *c, pf_scratch *s) {
  c->s = s;
  c->arena = s->arena;
  c->depth = 0;
  c->bytes = 0;
  c->err.code = 0;
  c->err.offset = FBE_NO_OFFSET;
  c->err.path[0] = 0;
}

static PyObject *encode_impl(const pf_struct *si, PyObject *value, int final) {
  pf_scratch *s = pf_scratch_get();
  if (!s) return PyErr_NoMemory();
  pf_enc c;
  enc_init(&c, s);
  PyObject *out = NULL;
  fbe_msg *m = pf_build_msg(&c, si, value);
  if (m) {
    fbe_error err;
    fbe_status st;
    fbe_model model = final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    if (c.bytes + fbe_arena_reserved(s->arena) >= PF_NOGIL_BYTES) {
      /* The value points only into objects kept alive by the scratch. */
      Py_BEGIN_ALLOW_THREADS
      st = fbe_encode(m, model, &s->buf, &err);
      Py_END_ALLOW_THREADS
    } else {
      st = fbe_encode(m, model, &s->buf, &err);
    }
    if (st) pf_raise_fbe(&err);
    else out = PyBytes_FromStringAndSize((const char *)s->buf.data, (Py_ssize_t)s->buf.size);
  }
  pf_scratch_put(s);
  return out;
}

/* The Python object for a decoded message (a new reference), or NULL with the error
 * raised. */
static PyObject *message_object(const pf_struct *si, PyTypeObject *cls, fbe_msg *m, int ordered) {
  pf_dec c;
  c.ordered = ordered;
  c.err.code = 0;
  c.err.offset = FBE_NO_OFFSET;
  PyObject *out = pf_get_struct(&c, si, cls, fbe_msg_data(m));
  if (!out && c.err.code) pf_raise_err(&c.err);
  return out;
}

/* decode: the core's verifying fbe_decode, or fbe_decode_trusted when asked (the core
 * decides what each refuses; this only passes the flag and the user's limits). */
static PyObject *decode_impl(const pf_struct *si, PyTypeObject *cls, PyObject *data, int final,
                             int ordered, int trusted, const fbe_limits *limits) {
  Py_buffer view;
  if (get_data(data, &view)) return NULL;
  pf_scratch *s = pf_scratch_get();
  if (!s) {
    put_data(&view);
    return PyErr_NoMemory();
  }
  fbe_msg *m = NULL;
  fbe_error err;
  fbe_status st;
  fbe_model model = final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  fbe_status (*decode)(const fbe_struct *, fbe_model, const uint8_t *, size_t, fbe_arena *,
                       const fbe_limits *, fbe_msg **, size_t *, fbe_error *) =
      trusted ? fbe_decode_trusted : fbe_decode;
  if (view.len >= PF_NOGIL_BYTES) {
    Py_BEGIN_ALLOW_THREADS
    st = decode(si->st, model, view.buf, (size_t)view.len, s->arena, limits, &m, NULL, &err);
    Py_END_ALLOW_THREADS
  } else {
    st = decode(si->st, model, view.buf, (size_t)view.len, s->arena, limits, &m, NULL, &err);
  }
  PyObject *out = NULL;
  if (st) {
    pf_raise_fbe(&err);
  } else {
    out = message_object(si, cls, m, ordered);
  }
  pf_scratch_put(s);
  put_data(&view);
  return out;
}

/* verify: returns the model size, 0 with *err filled when invalid, -1 on a Python error. */
static Py_ssize_t verify_impl(const pf_struct *si, PyObject *data, int final, const fbe_limits *limits,
                              fbe_error *err) {
  Py_buffer view;
  if (get_data(data, &view)) return -1;
  size_t size = 0;
  fbe_status st;
  fbe_model model = final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  if (view.len >= PF_NOGIL_BYTES) {
    Py_BEGIN_ALLOW_THREADS
    st = fbe_verify(si->st, model, view.buf, (size_t)view.len, limits, &size, err);
    Py_END_ALLOW_THREADS
  } else {
    st = fbe_verify(si->st, model, view.buf, (size_t)view.len, limits, &size, err);
  }
  put_data(&view);
  return st ? 0 : (Py_ssize_t)size;
}

/* validate: the model size as an int, or NULL with verify's reason raised (fbe.Error
 * with its path and offset). */
static PyObject *validate_impl(const pf_struct *si, PyObject *data, int final, const fbe_limits *limits) {
  fbe_error err;
  Py_ssize_t n = verify_impl(si, data, final, limits, &err);
  if (n < 0) return NULL;
  if (n == 0) {
    pf_raise_fbe(&err);
    return NULL;
  }
  return PyLong_FromSsize_t(n);
}

static PyObject *to_json_impl(const pf_struct *si, PyObject *value, int pretty) {
  pf_scratch *s = pf_scratch_get();
  if (!s) return PyErr_NoMemory();
  pf_enc c;
  enc_init(&c, s);
  PyObject *out = NULL;
  fbe_msg *m = pf_build_msg(&c, si, value);
  if (m) {
    fbe_error err;
    if (fbe_msg_to_json(m, pretty, &s->buf, &err)) pf_raise_fbe(&err);
    else out = PyUnicode_DecodeUTF8((const char *)s->buf.data, (Py_ssize_t)s->buf.size, "strict");
  }
  pf_scratch_put(s);
  return out;
}

static PyObject *from_json_impl(const pf_struct *si, PyTypeObject *cls, PyObject *text, int ordered,
                                const fbe_limits *limits) {
  const char *p;
  Py_ssize_t n;
  Py_buffer view;
  view.obj = NULL;
  if (PyUnicode_Check(text)) {
    if (!(p = PyUnicode_AsUTF8AndSize(text, &n))) return NULL;
  } else {
    if (get_data(text, &view)) return NULL;
    p = view.buf;
    n = view.len;
  }
  pf_scratch *s = pf_scratch_get();
  if (!s) {
    put_data(&view);
    return PyErr_NoMemory();
  }
  fbe_msg *m = NULL;
  fbe_error err;
  PyObject *out = NULL;
  if (fbe_msg_from_json_limited(si->st, p, (size_t)n, s->arena, limits, &m, &err)) {
    pf_raise_fbe(&err);
  } else {
    out = message_object(si, cls, m, ordered);
  }
  pf_scratch_put(s);
  put_data(&view);
  return out;
}

static PyObject *equal_impl(const pf_struct *si, PyObject *a, PyObject *b) {
  pf_scratch *s = pf_scratch_get();
  if (!s) return PyErr_NoMemory();
  pf_enc c;
  enc_init(&c, s);
  PyObject *out = NULL;
  fbe_msg *ma = pf_build_msg(&c, si, a);
  fbe_msg *mb = ma ? pf_build_msg(&c, si, b) : NULL;
  if (mb) out = PyBool_FromLong(fbe_msg_equal(ma, mb));
  pf_scratch_put(s);
  return out;
}

/* ---- module-level functions: f(cls, value_or_data, ...) ---- */

static PyObject *mod_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)self;
  static const char *const names[] = {"cls", "value", "final"};
  PyObject *a[3];
  int final = 0;
  if (parse_args("encode", args, nargs, kw, names, 3, 3, 2, a) || flag(a[2], &final)) return NULL;
  pf_struct *si = info_or_raise(a[0]);
  return si ? encode_impl(si, a[1], final) : NULL;
}

static PyObject *mod_decode(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)self;
  static const char *const names[] = {"cls", "data", "final", "ordered", "trusted", "limits"};
  PyObject *a[6];
  int final = 0, ordered = 0, trusted = 0;
  fbe_limits limits;
  if (parse_args("decode", args, nargs, kw, names, 6, 4, 2, a) || flag(a[2], &final) ||
      flag(a[3], &ordered) || flag(a[4], &trusted) || pf_limits_from(a[5], &limits))
    return NULL;
  pf_struct *si = info_or_raise(a[0]);
  return si ? decode_impl(si, (PyTypeObject *)a[0], a[1], final, ordered, trusted, &limits) : NULL;
}

static PyObject *mod_verify(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)self;
  static const char *const names[] = {"cls", "data", "final", "limits"};
  PyObject *a[4];
  int final = 0;
  fbe_limits limits;
  if (parse_args("verify", args, nargs, kw, names, 4, 3, 2, a) || flag(a[2], &final) ||
      pf_limits_from(a[3], &limits))
    return NULL;
  pf_struct *si = info_or_raise(a[0]);
  if (!si) return NULL;
  fbe_error err;
  Py_ssize_t n = verify_impl(si, a[1], final, &limits, &err);
  if (n < 0) return NULL;
  return PyBool_FromLong(n > 0);
}

/* model_size(cls, data, final=False) -> int: verify, raising the reason when invalid. */
static PyObject *mod_model_size(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)self;
  static const char *const names[] = {"cls", "data", "final", "limits"};
  PyObject *a[4];
  int final = 0;
  fbe_limits limits;
  if (parse_args("model_size", args, nargs, kw, names, 4, 3, 2, a) || flag(a[2], &final) ||
      pf_limits_from(a[3], &limits))
    return NULL;
  pf_struct *si = info_or_raise(a[0]);
  return si ? validate_impl(si, a[1], final, &limits) : NULL;
}

static PyObject *mod_to_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)self;
  static const char *const names[] = {"cls", "value", "pretty"};
  PyObject *a[3];
  int pretty = 0;
  if (parse_args("to_json", args, nargs, kw, names, 3, 3, 2, a) || flag(a[2], &pretty)) return NULL;
  pf_struct *si = info_or_raise(a[0]);
  return si ? to_json_impl(si, a[1], pretty) : NULL;
}

static PyObject *mod_from_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)self;
  static const char *const names[] = {"cls", "text", "ordered", "limits"};
  PyObject *a[4];
  int ordered = 0;
  fbe_limits limits;
  if (parse_args("from_json", args, nargs, kw, names, 4, 3, 2, a) || flag(a[2], &ordered) ||
      pf_limits_from(a[3], &limits))
    return NULL;
  pf_struct *si = info_or_raise(a[0]);
  return si ? from_json_impl(si, (PyTypeObject *)a[0], a[1], ordered, &limits) : NULL;
}

/* equal(cls, a, b) -> bool: the core's deep equality (floats by bit pattern, decimals by
 * value, collections in order) of two values of cls (instances or dicts). */
static PyObject *mod_equal(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  (void)self;
  static const char *const names[] = {"cls", "a", "b"};
  PyObject *a[3];
  if (parse_args("equal", args, nargs, kw, names, 3, 3, 3, a)) return NULL;
  pf_struct *si = info_or_raise(a[0]);
  return si ? equal_impl(si, a[1], a[2]) : NULL;
}

/* default(cls) -> a new instance with every field at its schema default. */
static PyObject *mod_default(PyObject *self, PyObject *cls) {
  (void)self;
  pf_struct *si = info_or_raise(cls);
  return si ? pf_new_default(si, (PyTypeObject *)cls) : NULL;
}

static PyMethodDef module_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))mod_encode, METH_FASTCALL | METH_KEYWORDS,
     "encode(cls, value, final=False) -> bytes"},
    {"decode", (PyCFunction)(void (*)(void))mod_decode, METH_FASTCALL | METH_KEYWORDS,
     "decode(cls, data, final=False, ordered=False, *, trusted=False, limits=None) -> instance of cls"},
    {"verify", (PyCFunction)(void (*)(void))mod_verify, METH_FASTCALL | METH_KEYWORDS,
     "verify(cls, data, final=False, *, limits=None) -> bool"},
    {"model_size", (PyCFunction)(void (*)(void))mod_model_size, METH_FASTCALL | METH_KEYWORDS,
     "model_size(cls, data, final=False, *, limits=None) -> int; raises fbe.Error when invalid"},
    {"to_json", (PyCFunction)(void (*)(void))mod_to_json, METH_FASTCALL | METH_KEYWORDS,
     "to_json(cls, value, pretty=False) -> str"},
    {"from_json", (PyCFunction)(void (*)(void))mod_from_json, METH_FASTCALL | METH_KEYWORDS,
     "from_json(cls, text, ordered=False, *, limits=None) -> instance of cls"},
    {"equal", (PyCFunction)(void (*)(void))mod_equal, METH_FASTCALL | METH_KEYWORDS,
     "equal(cls, a, b) -> bool (deep, floats by bit pattern)"},
    {"default", mod_default, METH_O, "default(cls) -> instance with the schema defaults"},
    {NULL, NULL, 0, NULL}};

/* ------------------------------------------------------------------ Struct base */

/* A struct method reads the tables of self's class (pf_struct, owned by the class's
 * schema core) while user code may run (a value's __iter__, __index__, __eq__, __del__),
 * and user code can reassign self.__class__ to a layout-compatible class of another load
 * of the schema, dropping the last reference to the first one: the method holds the
 * class (and so its core) until it returns. A new reference. */
static PyObject *hold_class(PyObject *self) {
  PyObject *cls = (PyObject *)Py_TYPE(self);
  Py_INCREF(cls);
  return cls;
}

static PyObject *st_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  static const char *const names[] = {"final"};
  PyObject *a[1];
  int final = 0;
  if (parse_args("encode", args, nargs, kw, names, 1, 1, 0, a) || flag(a[0], &final)) return NULL;
  PyObject *owner = hold_class(self);
  pf_struct *si = info_or_raise(owner);
  PyObject *out = si ? encode_impl(si, self, final) : NULL;
  Py_DECREF(owner);
  return out;
}

static PyObject *st_to_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  static const char *const names[] = {"pretty"};
  PyObject *a[1];
  int pretty = 0;
  if (parse_args("to_json", args, nargs, kw, names, 1, 1, 0, a) || flag(a[0], &pretty)) return NULL;
  PyObject *owner = hold_class(self);
  pf_struct *si = info_or_raise(owner);
  PyObject *out = si ? to_json_impl(si, self, pretty) : NULL;
  Py_DECREF(owner);
  return out;
}

static PyObject *st_decode(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  static const char *const names[] = {"data", "final", "ordered", "trusted", "limits"};
  PyObject *a[5];
  int final = 0, ordered = 0, trusted = 0;
  fbe_limits limits;
  if (parse_args("decode", args, nargs, kw, names, 5, 3, 1, a) || flag(a[1], &final) ||
      flag(a[2], &ordered) || flag(a[3], &trusted) || pf_limits_from(a[4], &limits))
    return NULL;
  pf_struct *si = info_or_raise(cls);
  return si ? decode_impl(si, (PyTypeObject *)cls, a[0], final, ordered, trusted, &limits) : NULL;
}

static PyObject *st_verify(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  static const char *const names[] = {"data", "final", "limits"};
  PyObject *a[3];
  int final = 0;
  fbe_limits limits;
  if (parse_args("verify", args, nargs, kw, names, 3, 2, 1, a) || flag(a[1], &final) ||
      pf_limits_from(a[2], &limits))
    return NULL;
  pf_struct *si = info_or_raise(cls);
  if (!si) return NULL;
  fbe_error err;
  Py_ssize_t n = verify_impl(si, a[0], final, &limits, &err);
  if (n < 0) return NULL;
  return PyBool_FromLong(n > 0);
}

/* validate(data, final=False) -> int: the model size; raises the reason (fbe.Error with
 * path and offset) when data is not a valid model. */
static PyObject *st_validate(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  static const char *const names[] = {"data", "final", "limits"};
  PyObject *a[3];
  int final = 0;
  fbe_limits limits;
  if (parse_args("validate", args, nargs, kw, names, 3, 2, 1, a) || flag(a[1], &final) ||
      pf_limits_from(a[2], &limits))
    return NULL;
  pf_struct *si = info_or_raise(cls);
  return si ? validate_impl(si, a[0], final, &limits) : NULL;
}

static PyObject *st_from_json(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  static const char *const names[] = {"text", "ordered", "limits"};
  PyObject *a[3];
  int ordered = 0;
  fbe_limits limits;
  if (parse_args("from_json", args, nargs, kw, names, 3, 2, 1, a) || flag(a[1], &ordered) ||
      pf_limits_from(a[2], &limits))
    return NULL;
  pf_struct *si = info_or_raise(cls);
  return si ? from_json_impl(si, (PyTypeObject *)cls, a[0], ordered, &limits) : NULL;
}

static int init_fields(PyObject *self, pf_struct *si, PyObject *args, PyObject *kwargs) {
  Py_ssize_t nargs = PyTuple_GET_SIZE(args);
  if (nargs > (Py_ssize_t)si->nfields) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most %u positional arguments (%zd given)",
                 si->st->name, si->nfields, nargs);
    return -1;
  }
  Py_ssize_t used = 0;
  for (uint32_t i = 0; i < si->nfields; i++) {
    const pf_field *f = &si->fields[i];
    PyObject *v = NULL;
    if (kwargs) {
      v = PyDict_GetItemWithError(kwargs, f->name);
      if (!v && PyErr_Occurred()) return -1;
      if (v) used++;
    }
    if ((Py_ssize_t)i < nargs) {
      if (v) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", si->st->name,
                     f->f->name);
        return -1;
      }
      v = PyTuple_GET_ITEM(args, i);
    }
    if (v) Py_INCREF(v);
    else if (!(v = pf_field_default(f))) return -1;
    PyObject **slot = (PyObject **)((char *)self + f->offset);
    Py_XSETREF(*slot, v);
  }
  char msg[256];
  if (kwargs && used != PyDict_GET_SIZE(kwargs) && pf_unknown_field(si, kwargs, msg, sizeof msg)) {
    pf_raise(PF_ERR_UNKNOWN_FIELD, msg, "", FBE_NO_OFFSET);
    return -1;
  }
  return 0;
}

static int st_init(PyObject *self, PyObject *args, PyObject *kwargs) {
  PyObject *owner = hold_class(self); /* a replaced field's __del__ may run user code */
  pf_struct *si = pf_info_of((PyTypeObject *)owner);
  int rc = -1;
  if (!si) PyErr_SetString(PyExc_TypeError, "fbe.Struct is abstract: use a class of a loaded schema");
  else rc = init_fields(self, si, args, kwargs);
  Py_DECREF(owner);
  return rc;
}

const pf_field *pf_field_named(const pf_struct *si, PyObject *name) {
  if (!PyUnicode_Check(name)) return NULL;
  for (uint32_t i = 0; i < si->nfields; i++) /* interned: mostly the same object */
    if (si->fields[i].name == name) return &si->fields[i];
  for (uint32_t i = 0; i < si->nfields; i++)
    if (PyUnicode_Compare(name, si->fields[i].name) == 0) return &si->fields[i];
  PyErr_Clear(); /* a str that cannot compare */
  return NULL;
}

int pf_unknown_field(const pf_struct *si, PyObject *dict, char *msg, size_t msg_size) {
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(dict, &pos, &key, &value)) {
    int known = pf_field_named(si, key) != NULL;
    if (!known) {
      PyObject *r = PyObject_Repr(key);
      const char *text = r ? PyUnicode_AsUTF8(r) : NULL;
      snprintf(msg, msg_size, "%s has no field %.80s", si->st->full_name, text ? text : "?");
      Py_XDECREF(r);
      PyErr_Clear();
      return 1;
    }
  }
  return 0;
}

/* The fields equality and hashing look at: the [key] fields, or all when none. */
static void compared_fields(const pf_struct *si, const uint32_t **idx, uint32_t *n, int *all) {
  if (si->nkeys) {
    *idx = si->keys;
    *n = si->nkeys;
    *all = 0;
  } else {
    *idx = NULL;
    *n = si->nfields;
    *all = 1;
  }
}

static PyObject *compare_fields(const pf_struct *si, PyObject *a, PyObject *b, int op) {
  const uint32_t *idx;
  uint32_t n;
  int all, equal = 1;
  compared_fields(si, &idx, &n, &all);
  for (uint32_t k = 0; k < n && equal; k++) {
    const pf_field *f = &si->fields[all ? k : idx[k]];
    PyObject *va = *(PyObject **)((char *)a + f->offset), *vb = *(PyObject **)((char *)b + f->offset);
    if (va == vb) continue;
    if (!va || !vb) {
      equal = 0;
      break;
    }
    Py_INCREF(va);
    Py_INCREF(vb);
    int r = PyObject_RichCompareBool(va, vb, Py_EQ);
    Py_DECREF(va);
    Py_DECREF(vb);
    if (r < 0) return NULL;
    equal = r;
  }
  return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

/* Field by field; a value's __eq__ is user code (see hold_class). */
static PyObject *st_richcompare(PyObject *a, PyObject *b, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  pf_struct *si = pf_info_of(Py_TYPE(a));
  if (!si || pf_info_of(Py_TYPE(b)) != si) Py_RETURN_NOTIMPLEMENTED;
  PyObject *owner = hold_class(a);
  PyObject *out = compare_fields(si, a, b, op);
  Py_DECREF(owner);
  return out;
}

/* The hash of the tuple of the compared fields. A value a program builds can nest any
 * depth (N? next chains), and a tuple's hash has no recursion guard of its own: this one
 * makes hash() of a too-deep value raise RecursionError instead of overflowing the C
 * stack. (== needs none: PyObject_RichCompare guards each level.) */
static Py_hash_t st_hash(PyObject *self) {
  pf_struct *si = pf_info_of(Py_TYPE(self));
  if (!si) return PyBaseObject_Type.tp_hash(self);
  const uint32_t *idx;
  uint32_t n;
  int all;
  compared_fields(si, &idx, &n, &all);
  if (Py_EnterRecursiveCall(" while hashing an fbe struct")) return -1;
  PyObject *t = PyTuple_New(n);
  if (!t) {
    Py_LeaveRecursiveCall();
    return -1;
  }
  for (uint32_t k = 0; k < n; k++) {
    const pf_field *f = &si->fields[all ? k : idx[k]];
    PyObject *v = *(PyObject **)((char *)self + f->offset);
    if (!v) v = Py_None;
    Py_INCREF(v);
    PyTuple_SET_ITEM(t, k, v);
  }
  Py_hash_t h = PyObject_Hash(t);
  Py_DECREF(t);
  Py_LeaveRecursiveCall();
  return h;
}

/* value[name]: every field by its schema name, also one no attribute can name
 * (README "Names"). An unknown name raises fbe.UnknownFieldError (a KeyError), a field
 * deleted from the value KeyError. */
static const pf_field *field_or_raise(PyObject *self, PyObject *name) {
  pf_struct *si = pf_info_of(Py_TYPE(self));
  if (!si) {
    PyErr_SetString(PyExc_TypeError, "fbe.Struct is abstract: use a class of a loaded schema");
    return NULL;
  }
  if (!PyUnicode_Check(name)) {
    PyErr_Format(PyExc_TypeError, "a field name is a str, not %.80s", Py_TYPE(name)->tp_name);
    return NULL;
  }
  const pf_field *f = pf_field_named(si, name);
  if (!f) {
    char msg[256];
    PyObject *r = PyObject_Repr(name);
    const char *text = r ? PyUnicode_AsUTF8(r) : NULL;
    snprintf(msg, sizeof msg, "%s has no field %.80s", si->st->full_name, text ? text : "?");
    Py_XDECREF(r);
    PyErr_Clear();
    pf_raise(PF_ERR_UNKNOWN_FIELD, msg, "", FBE_NO_OFFSET);
  }
  return f;
}

static PyObject *st_getitem(PyObject *self, PyObject *name) {
  const pf_field *f = field_or_raise(self, name);
  if (!f) return NULL;
  PyObject *v = *(PyObject **)((char *)self + f->offset);
  if (!v) {
    PyErr_SetObject(PyExc_KeyError, name);
    return NULL;
  }
  Py_INCREF(v);
  return v;
}

static int st_setitem(PyObject *self, PyObject *name, PyObject *value) {
  PyObject *owner = hold_class(self); /* the old value's __del__ may run user code */
  const pf_field *f = field_or_raise(self, name);
  int rc = -1;
  if (f) {
    PyObject **slot = (PyObject **)((char *)self + f->offset);
    if (!value && !*slot) {
      PyErr_SetObject(PyExc_KeyError, name);
    } else {
      Py_XINCREF(value);
      Py_XSETREF(*slot, value);
      rc = 0;
    }
  }
  Py_DECREF(owner);
  return rc;
}

static PyMappingMethods struct_mapping = {
    .mp_subscript = st_getitem,
    .mp_ass_subscript = st_setitem,
};

static PyMethodDef struct_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))st_encode, METH_FASTCALL | METH_KEYWORDS,
     "encode(final=False) -> bytes: the standard (versioned) model, or the final one"},
    {"to_json", (PyCFunction)(void (*)(void))st_to_json, METH_FASTCALL | METH_KEYWORDS,
     "to_json(pretty=False) -> str, with the reference's JSON conventions"},
    {"decode", (PyCFunction)(void (*)(void))st_decode, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "decode(data, final=False, ordered=False, *, trusted=False, limits=None) -> instance (data: bytes,\n"
     "bytearray, memoryview); verified first, raising verify's reason; trusted=True skips the verify;\n"
     "limits: an fbe.Limits (None: the defaults)"},
    {"verify", (PyCFunction)(void (*)(void))st_verify, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "verify(data, final=False, *, limits=None) -> bool: True when data starts with a valid model"},
    {"validate", (PyCFunction)(void (*)(void))st_validate, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "validate(data, final=False, *, limits=None) -> int: the model size; raises fbe.Error (the reason,\n"
     "path and offset) when data is not a valid model"},
    {"from_json", (PyCFunction)(void (*)(void))st_from_json,
     METH_FASTCALL | METH_KEYWORDS | METH_CLASS, "from_json(text, ordered=False, *, limits=None) -> instance"},
    {NULL, NULL, 0, NULL}};

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
    .tp_methods = struct_methods,
};

/* ------------------------------------------------------------------ init */

static Py_ssize_t slot_offset(PyObject *cls, const char *name) {
  PyObject *d = PyObject_GetAttrString(cls, "__dict__");
  if (!d) {
    PyErr_Clear();
    return -1;
  }
  PyObject *descr = PyMapping_GetItemString(d, name);
  Py_DECREF(d);
  Py_ssize_t off = -1;
  if (descr && Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
      ((PyMemberDescrObject *)descr)->d_member->type == PF_T_OBJECT_EX)
    off = ((PyMemberDescrObject *)descr)->d_member->offset;
  Py_XDECREF(descr);
  PyErr_Clear();
  return off;
}

static int module_init(PyObject *m) {
  PyObject *decimal = PyImport_ImportModule("decimal");
  PyObject *uuid = PyImport_ImportModule("uuid");
  PyObject *enm = PyImport_ImportModule("enum");
  if (!decimal || !uuid || !enm) goto fail;
  if (!(pf_decimal_type = PyObject_GetAttrString(decimal, "Decimal"))) goto fail;
  if (!(pf_uuid_type = PyObject_GetAttrString(uuid, "UUID"))) goto fail;
  if (!(pf_enum_type = PyObject_GetAttrString(enm, "Enum"))) goto fail;
  PyObject *safe = PyObject_GetAttrString(uuid, "SafeUUID");
  if (!safe) goto fail;
  pf_uuid_safe_unknown = PyObject_GetAttrString(safe, "unknown");
  Py_DECREF(safe);
  if (!pf_uuid_safe_unknown) goto fail;
  if (PyType_Check(pf_uuid_type) && ((PyTypeObject *)pf_uuid_type)->tp_dictoffset == 0) {
    pf_uuid_int_offset = slot_offset(pf_uuid_type, "int");
    pf_uuid_safe_offset = slot_offset(pf_uuid_type, "is_safe");
  }
  Py_CLEAR(decimal);
  Py_CLEAR(uuid);
  Py_CLEAR(enm);

  pf_meta_type.tp_base = &PyType_Type;
  if (PyType_Ready(&pf_meta_type) < 0 || PyType_Ready(&pf_struct_base_type) < 0 ||
      PyType_Ready(&pf_core_type) < 0)
    return -1;
  Py_INCREF(&pf_meta_type);
  if (PyModule_AddObject(m, "StructMeta", (PyObject *)&pf_meta_type) < 0) return -1;
  Py_INCREF(&pf_struct_base_type);
  if (PyModule_AddObject(m, "Struct", (PyObject *)&pf_struct_base_type) < 0) return -1;
  Py_INCREF(&pf_core_type);
  if (PyModule_AddObject(m, "SchemaCore", (PyObject *)&pf_core_type) < 0) return -1;
  if (PyModule_AddFunctions(m, module_methods) < 0) return -1;
  if (PyModule_AddIntConstant(m, "UNKNOWN_FIELD", PF_ERR_UNKNOWN_FIELD) < 0) return -1;
  if (PyModule_AddIntConstant(m, "NOGIL_BYTES", PF_NOGIL_BYTES) < 0) return -1;
  if (pf_limits_init(m) < 0) return -1;
  return pf_protocol_init(m);
fail:
  Py_XDECREF(decimal);
  Py_XDECREF(uuid);
  Py_XDECREF(enm);
  return -1;
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

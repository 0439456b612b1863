/* The per-schema tables, built once at load: bind() records, for every struct class,
 * the slot offset of each field and how __init__ fills it; for every enum its value ->
 * member table. They live in a SchemaCore, in arrays indexed by the core's dense
 * fbe_struct_index / fbe_enum_index; each generated class (made by StructMeta) points
 * at its entry and holds the core. */
#include <string.h>
#include "binding.h"
#include "fbe/internal/kinds.h"
#include "structmember.h"

#if PY_VERSION_HEX < 0x030C0000
#define PF_T_OBJECT_EX T_OBJECT_EX
#else
#define PF_T_OBJECT_EX Py_T_OBJECT_EX
#endif

/* ------------------------------------------------------------------ SchemaCore */

static int core_traverse(PyObject *self, visitproc visit, void *arg) {
  pf_core *c = (pf_core *)self;
  for (size_t i = 0; i < c->nstructs; i++) {
    Py_VISIT(c->structs[i].cls);
    for (uint32_t j = 0; j < c->structs[i].nfields; j++) Py_VISIT(c->structs[i].fields[j].def_value);
  }
  for (size_t i = 0; i < c->nenums; i++) {
    Py_VISIT(c->enums[i].cls);
    Py_VISIT(c->enums[i].by_value);
  }
  return 0;
}

static int core_clear(PyObject *self) {
  pf_core *c = (pf_core *)self;
  /* Drops the references that can form cycles; the tables stay (classes still alive
   * hold the core and read them) until the core is freed. */
  for (size_t i = 0; i < c->nstructs; i++) {
    for (uint32_t j = 0; j < c->structs[i].nfields; j++) Py_CLEAR(c->structs[i].fields[j].def_value);
    PyTypeObject *cls = c->structs[i].cls;
    c->structs[i].cls = NULL;
    Py_XDECREF(cls);
  }
  for (size_t i = 0; i < c->nenums; i++) {
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
  for (size_t i = 0; i < c->nstructs; i++) {
    pf_struct *si = &c->structs[i];
    for (uint32_t j = 0; j < si->nfields; j++) Py_XDECREF(si->fields[j].name);
    PyMem_Free(si->fields);
    PyMem_Free(si->keys);
    Py_XDECREF(si->view_attrs);
  }
  PyMem_Free(c->structs);
  PyMem_Free(c->enums);
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

/* ------------------------------------------------------------------ StructMeta */

pf_struct *pf_info_of(PyTypeObject *tp) {
  for (; tp; tp = tp->tp_base) {
    if (Py_IS_TYPE(tp, &pf_meta_type) || PyType_IsSubtype(Py_TYPE(tp), &pf_meta_type)) {
      pf_meta *m = (pf_meta *)tp;
      if (m->info) return m->info;
    }
  }
  return NULL;
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

static pf_fast_op fast_op(const fbe_type *t) {
  switch (t->kind) {
    case FBE_KIND_BYTE: case FBE_KIND_INT8: case FBE_KIND_UINT8: case FBE_KIND_INT16: case FBE_KIND_UINT16:
    case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_INT64: case FBE_KIND_UINT64:
    case FBE_KIND_TIMESTAMP:
      return PF_FAST_INT;
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return PF_FAST_ENUM;
    case FBE_KIND_BOOL: return PF_FAST_BOOL;
    case FBE_KIND_DOUBLE: return PF_FAST_DOUBLE;
    case FBE_KIND_STRING: return PF_FAST_STRING;
    case FBE_KIND_STRUCT: return PF_FAST_STRUCT;
    default: return PF_FAST_NONE;
  }
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
  pt->scalar = t->kind != FBE_KIND_STRUCT && !t->elem;
  pt->min = (int64_t)fbei_int_limit(t->wire, false);
  pt->max = fbei_int_limit(t->wire, true);
  pt->fast = fast_op(t);
  if (t->kind == FBE_KIND_STRUCT) pt->st = &core->structs[fbe_struct_index(t->st)];
  if (t->kind == FBE_KIND_ENUM || t->kind == FBE_KIND_FLAGS) pt->en = &core->enums[fbe_enum_index(t->enm)];
  if (t->elem && !(pt->elem = make_type(core, t->elem))) return NULL;
  if (t->key && !(pt->key = make_type(core, t->key))) return NULL;
  return pt;
}

static int bind_enum(pf_core *core, pf_enum *en, PyObject *cls) {
  const fbe_enum *e = en->e;
  en->is_signed = fbei_kind_is_signed(e->base);
  if (en->cls || !PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyLong_Type))
    return pf_exc(PyExc_TypeError, "class for %s must be one fbe.Enum (an int subclass)", e->full_name);
  Py_INCREF(cls);
  en->cls = cls;
  /* where enum_text finds the type (ops.c): the class's str and repr are the core's text */
  PyObject *index = PyLong_FromSsize_t(en - core->enums);
  int set = index ? PyObject_SetAttrString(cls, "__fbe_core__", (PyObject *)core) : -1;
  if (!set) set = PyObject_SetAttrString(cls, "__fbe_index__", index);
  Py_XDECREF(index);
  if (set || !(en->by_value = PyDict_New())) return -1;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (uint32_t i = 0; i < e->nvalues; i++) {
    uint64_t v = e->values[i].value;
    PyObject *key = en->is_signed ? PyLong_FromLongLong((long long)v) : PyLong_FromUnsignedLongLong(v);
    PyObject *member = key ? PyObject_CallOneArg(cls, key) : NULL; /* EnumType.__call__: the member */
    int rc = member ? PyDict_SetItem(en->by_value, key, member) : -1;
    Py_XDECREF(key);
    Py_XDECREF(member);
    if (rc) return -1;
    if (en->is_signed || v <= (uint64_t)INT64_MAX) {
      if ((int64_t)v < lo) lo = (int64_t)v;
      if ((int64_t)v > hi) hi = (int64_t)v;
    }
  }
  /* A direct table when the named values span a small range (most enums). */
  if (e->nvalues && lo <= hi && (uint64_t)hi - (uint64_t)lo < 1024) {
    en->lo = lo;
    en->n = (uint32_t)((uint64_t)hi - (uint64_t)lo + 1);
    if (!(en->table = PyMem_Calloc(en->n, sizeof(PyObject *)))) {
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

Py_ssize_t pf_member_offset(PyObject *descr) {
  if (!descr || !Py_IS_TYPE(descr, &PyMemberDescr_Type) ||
      ((PyMemberDescrObject *)descr)->d_member->type != PF_T_OBJECT_EX)
    return -1;
  return ((PyMemberDescrObject *)descr)->d_member->offset;
}

/* The slot of field i: the __slots__ member named by the class's __fbe_slots__ (the
 * field's own name, or a made-up one for a field no attribute can name: fbe/_schema.py
 * removes those descriptors once bound). */
static Py_ssize_t slot_offset(PyTypeObject *cls, uint32_t i, const char *field) {
  PyObject *slots = PyDict_GetItemString(cls->tp_dict, "__fbe_slots__");
  Py_ssize_t at = slots && PyTuple_Check(slots) && (Py_ssize_t)i < PyTuple_GET_SIZE(slots)
                      ? pf_member_offset(_PyType_Lookup(cls, PyTuple_GET_ITEM(slots, i))) : -1;
  return at >= 0 ? at : pf_exc(PyExc_TypeError, "fbe: class %s has no __slots__ member for field '%s'", cls->tp_name,
                                field);
}

static int bind_struct(pf_core *core, pf_struct *si) {
  const fbe_struct *st = si->st;
  si->fields = PyMem_Calloc(st->nfields ? st->nfields : 1, sizeof(pf_field));
  si->keys = PyMem_Calloc(st->nfields ? st->nfields : 1, sizeof(uint32_t));
  if (!si->fields || !si->keys) {
    PyErr_NoMemory();
    return -1;
  }
  si->nfields = st->nfields;
  if (!(si->view_attrs = PyDict_New())) return -1;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    pf_field *pf = &si->fields[i];
    pf->f = f;
    pf->image = (const uint8_t *)st->defaults + f->mem_offset;
    pf->def_class = fbe_field_default_class(f);
    if (!(pf->name = PyUnicode_InternFromString(f->name)) || !(pf->type = make_type(core, f->type)) ||
        (pf->offset = slot_offset(si->cls, i, f->name)) < 0)
      return -1;
    if (f->is_key) si->keys[si->nkeys++] = i;
    /* a view's attributes are a value's: the fields whose slot has their own name */
    PyObject *slots = PyDict_GetItemString(si->cls->tp_dict, "__fbe_slots__");
    PyObject *slot = slots && PyTuple_Check(slots) && (Py_ssize_t)i < PyTuple_GET_SIZE(slots)
                         ? PyTuple_GET_ITEM(slots, i) : NULL;
    if (slot && PyUnicode_Check(slot) && PyUnicode_Compare(slot, pf->name) == 0) {
      PyObject *index = PyLong_FromUnsignedLong(i);
      int rc = index ? PyDict_SetItem(si->view_attrs, pf->name, index) : -1;
      Py_XDECREF(index);
      if (rc) return -1;
    }
  }
  return 0;
}

/* The one shared default of each FBE_DEFAULT_SHARED field (needs every struct bound). */
static int bind_defaults(pf_struct *si) {
  for (uint32_t i = 0; i < si->nfields; i++) {
    pf_field *pf = &si->fields[i];
    if (pf->def_class != FBE_DEFAULT_SHARED) continue;
    pf_dec c = {0};
    if (!(pf->def_value = pf_get_value(&c, pf->type, pf->image))) {
      if (c.err.code) pf_raise(&c.err);
      return -1;
    }
  }
  return 0;
}

/* One (full_name, cls) pair of bind()'s lists: its index in the schema, or -1. */
static Py_ssize_t bound_index(fbe_schema *schema, PyObject *pair, int is_struct, PyObject **cls) {
  const char *name;
  if (!PyArg_ParseTuple(pair, "sO", &name, cls)) return -1;
  const fbe_struct *st = is_struct ? fbe_schema_find_struct(schema, name) : NULL;
  const fbe_enum *e = is_struct ? NULL : fbe_schema_find_enum(schema, name);
  if (!st && !e) return pf_exc(PyExc_KeyError, "no %s %s in the schema", is_struct ? "struct" : "enum", name);
  if (is_struct && (!PyType_Check(*cls) || !PyType_IsSubtype(Py_TYPE(*cls), &pf_meta_type) ||
                    !PyType_IsSubtype((PyTypeObject *)*cls, &pf_struct_base_type)))
    return pf_exc(PyExc_TypeError, "class for %s must be made by fbe._core.StructMeta from Struct", name);
  return (Py_ssize_t)(st ? fbe_struct_index(st) : fbe_enum_index(e));
}

/* bind(swig_schema, [(full_name, cls), ...], [(full_name, enum_cls), ...]) -> SchemaCore.
 * Every struct and enum of the schema must be in the lists. */
PyObject *pyfbe_bind(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *swig, *structs, *enums, *cls;
  if (!PyArg_ParseTuple(args, "OO!O!", &swig, &PyList_Type, &structs, &PyList_Type, &enums)) return NULL;
  fbe_schema *schema = pyfbe_schema_from_swig(swig);
  if (!schema) return NULL;
  pf_core *core = PyObject_GC_New(pf_core, &pf_core_type);
  if (!core) return NULL;
  core->schema = fbe_schema_retain(schema);
  core->mem = fbe_arena_new();
  core->nstructs = fbe_schema_struct_count(schema);
  core->nenums = fbe_schema_enum_count(schema);
  core->structs = PyMem_Calloc(core->nstructs + 1, sizeof(pf_struct));
  core->enums = PyMem_Calloc(core->nenums + 1, sizeof(pf_enum));
  PyObject_GC_Track(core);
  if (!core->mem || !core->structs || !core->enums) {
    if (!core->structs) core->nstructs = 0;
    if (!core->enums) core->nenums = 0;
    PyErr_NoMemory();
    goto fail;
  }
  for (size_t i = 0; i < core->nenums; i++) core->enums[i].e = fbe_schema_enum_at(schema, i);
  for (size_t i = 0; i < core->nstructs; i++) {
    core->structs[i].st = fbe_schema_struct_at(schema, i);
    core->structs[i].core = core;
  }
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(enums); i++) {
    Py_ssize_t at = bound_index(schema, PyList_GET_ITEM(enums, i), 0, &cls);
    if (at < 0 || bind_enum(core, &core->enums[at], cls)) goto fail;
  }
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(structs); i++) {
    Py_ssize_t at = bound_index(schema, PyList_GET_ITEM(structs, i), 1, &cls);
    if (at < 0) goto fail;
    Py_INCREF(cls);
    Py_XSETREF(core->structs[at].cls, (PyTypeObject *)cls);
  }
  const char *missing = NULL;
  for (size_t i = 0; i < core->nenums; i++)
    if (!core->enums[i].cls) missing = core->enums[i].e->full_name;
  for (size_t i = 0; i < core->nstructs; i++)
    if (!core->structs[i].cls) missing = core->structs[i].st->full_name;
  if (missing) {
    PyErr_Format(PyExc_RuntimeError, "fbe: no class bound for %s", missing);
    goto fail;
  }
  for (size_t i = 0; i < core->nstructs; i++)
    if (bind_struct(core, &core->structs[i])) goto fail;
  for (size_t i = 0; i < core->nstructs; i++)
    if (bind_defaults(&core->structs[i])) goto fail;
  for (size_t i = 0; i < core->nstructs; i++) {
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

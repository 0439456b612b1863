/* fbe.View: a struct read in place from its verified bytes (the core's fbe_view,
 * fbe/view.h), with Python objects made only when a field is read. view() verifies the
 * bytes once; each attribute then reads its field from the buffer:
 *   scalars, strings, bytes  the Python object decode would give (convert.c makes it)
 *   a struct                 another fbe.View (nothing read until its fields are)
 *   an optional              None, or its value as above
 *   an array, vector, list   an fbe.ViewList: a read-only sequence whose elements are
 *                            read as fields are (len, index, slice, iteration, ==)
 *   a set, map, hash         the host container decode gives (set or dict; lists with
 *                            ordered=True), made by the core's decoder from the bytes
 *                            of that field alone (fbe_view_value)
 * Text, JSON, equality and to_value() are the core's (fbe_view_to_text/_to_json/
 * _equal/_to_msg), so a view prints, compares and materializes as the decoded value.
 *
 * Lifetime: a view holds its struct's class (whose metaclass holds the schema's tables)
 * and the bytes: a bytes object itself, anything else through a Py_buffer held by a
 * pf_view_data (a bytearray then cannot be resized; changed in place, every read still
 * stays inside the buffer: the core checks each access against the model's bounds). */
#include <string.h>
#include "binding.h"

/* The exported buffer of a bytes-like object other than bytes, for the views over it. */
typedef struct pf_view_data {
  PyObject_HEAD
  Py_buffer buf;
} pf_view_data;

/* An fbe.View (a struct: si its struct) or an fbe.ViewList (a sequence: seq its type,
 * si the struct it is a field of). */
typedef struct pf_view {
  PyObject_HEAD
  fbe_view v;
  const fbe_struct *root; /* the struct the bytes were opened as (fbe_view_fault) */
  const pf_struct *si; /* NULL once cleared (a garbage cycle) */
  const pf_type *seq;  /* ViewList: the array, vector or list type */
  PyObject *cls;       /* the struct's class (strong) */
  PyObject *owner;     /* the bytes object or a pf_view_data (strong) */
  fbe_limits limits;   /* of the materializing reads (collections, to_value, text, JSON) */
  int ordered;         /* decode's ordered=: sets as lists, maps as lists of pairs */
} pf_view;

static void data_dealloc(PyObject *self) {
  PyObject_GC_UnTrack(self);
  PyBuffer_Release(&((pf_view_data *)self)->buf);
  PyObject_GC_Del(self);
}

static int data_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(((pf_view_data *)self)->buf.obj);
  return 0;
}

static PyTypeObject pf_view_data_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.ViewData",
    .tp_doc = "The buffer an fbe.View reads (held while any view over it lives).",
    .tp_basicsize = sizeof(pf_view_data),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = data_traverse,
    .tp_dealloc = data_dealloc,
};

/* ------------------------------------------------------------------ making views */

static PyTypeObject pf_view_list_type;

static PyObject *new_view(const pf_view *parent, const pf_struct *si, PyObject *cls, fbe_view v) {
  pf_view *out = PyObject_GC_New(pf_view, &pf_view_type);
  if (!out) return NULL;
  out->v = v;
  out->root = parent->root;
  out->si = si;
  out->seq = NULL;
  Py_INCREF(cls);
  out->cls = cls;
  Py_INCREF(parent->owner);
  out->owner = parent->owner;
  out->limits = parent->limits;
  out->ordered = parent->ordered;
  PyObject_GC_Track(out);
  return (PyObject *)out;
}

PyObject *pf_view_open(const pf_struct *si, PyObject *cls, PyObject *data, int final, int ordered,
                       const fbe_limits *limits) {
  pf_view root = {.root = si->st, .si = si, .limits = *limits, .ordered = ordered};
  const void *p;
  size_t n;
  if (PyBytes_CheckExact(data)) { /* immutable: held as it is */
    Py_INCREF(data);
    root.owner = data;
    p = PyBytes_AS_STRING(data);
    n = (size_t)PyBytes_GET_SIZE(data);
  } else {
    pf_view_data *d = PyObject_GC_New(pf_view_data, &pf_view_data_type);
    if (!d) return NULL;
    if (pf_get_data(data, &d->buf)) { /* decode's refusal of what is no bytes-like object */
      d->buf.obj = NULL;
      PyObject_GC_Del(d);
      return NULL;
    }
    PyObject_GC_Track(d);
    root.owner = (PyObject *)d;
    p = d->buf.buf;
    n = (size_t)d->buf.len;
  }
  fbe_error err;
  fbe_status st;
  fbe_view v;
  if (n >= FBE_RELEASE_LOCK_BYTES) { /* verify reads only the buffer, which root.owner holds */
    Py_BEGIN_ALLOW_THREADS
    st = fbe_view_open(si->st, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, p, n, limits, &v, &err);
    Py_END_ALLOW_THREADS
  } else {
    st = fbe_view_open(si->st, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, p, n, limits, &v, &err);
  }
  PyObject *out = NULL;
  if (st) pf_raise(&err);
  else out = new_view(&root, si, cls, v);
  Py_DECREF(root.owner);
  return out;
}

/* ------------------------------------------------------------------ reading */

/* The converter state of a read: no error yet (set only its code: a designated
 * initializer would clear the whole message buffer on every attribute read). */
static inline pf_dec dec_of(const pf_view *v) {
  pf_dec c;
  c.ordered = v->ordered;
  c.err.code = FBE_OK;
  return c;
}

/* An access that finds no value: possible only when the bytes changed after view().
 * The core's error: what verify says of the bytes now. */
static int changed(const pf_view *self, pf_dec *c) {
  fbe_view_fault(self->root, self->v, &c->err);
  return -1;
}

static PyObject *read_value(const pf_view *self, pf_dec *c, const pf_type *t, fbe_view v);

/* A scalar, string or bytes of t, read into a slot of fbe_ref's layout and made into
 * its Python object by convert.c, as decode makes it. */
static PyObject *read_scalar(const pf_view *self, pf_dec *c, const pf_type *t, fbe_view v) {
  union {
    uint64_t u;
    double d;
    fbe_decimal dec;
    fbe_uuid uuid;
    fbei_str s;
  } slot;
  fbe_status st;
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      const uint8_t *data;
      size_t size;
      st = fbe_view_get_bytes(v, &data, &size);
      slot.s.data = data;
      slot.s.size = (uint32_t)size; /* a verified model's sizes are 32-bit */
      break;
    }
    case FBE_KIND_DOUBLE: st = fbe_view_get_double(v, &slot.d); break;
    case FBE_KIND_DECIMAL: st = fbe_view_get_decimal(v, &slot.dec); break;
    case FBE_KIND_UUID: st = fbe_view_get_uuid(v, &slot.uuid); break;
    default: { /* bool, the integers, char, wchar, timestamp, an enum's or flags' base */
      int64_t i = 0;
      uint64_t u = 0;
      st = fbei_kind_is_signed(t->wire) ? fbe_view_get_int(v, &i) : fbe_view_get_uint(v, &u);
      fbei_scalar_store(t->wire, &slot, fbei_kind_is_signed(t->wire) ? (uint64_t)i : u);
      break;
    }
  }
  if (st) return changed(self, c), NULL;
  return pf_get_scalar(c, t, (const uint8_t *)&slot);
}

/* The value of v decoded by the core into the scratch's arena, then made into Python
 * objects: collections, and float32 (whose NaN payload a double would not keep). */
static PyObject *read_decoded(const pf_view *self, pf_dec *c, const pf_type *t, fbe_view v) {
  fbei_scratch *s = pf_take();
  if (!s) return NULL;
  fbe_ref r;
  PyObject *out = NULL;
  if (fbe_view_value(v, s->arena, &self->limits, &r, &c->err) == FBE_OK) out = pf_get_value(c, t, r.slot);
  pf_give(s);
  return out;
}

/* A sequence view over v, of the parent's struct and bytes. */
static PyObject *new_list(const pf_view *parent, const pf_type *t, fbe_view v) {
  pf_view *out = PyObject_GC_New(pf_view, &pf_view_list_type);
  if (!out) return NULL;
  out->v = v;
  out->root = parent->root;
  out->si = parent->si;
  out->seq = t;
  Py_INCREF(parent->cls);
  out->cls = parent->cls;
  Py_INCREF(parent->owner);
  out->owner = parent->owner;
  out->limits = parent->limits;
  out->ordered = parent->ordered;
  PyObject_GC_Track(out);
  return (PyObject *)out;
}

static PyObject *read_value(const pf_view *self, pf_dec *c, const pf_type *t, fbe_view v) {
  if (!fbe_view_ok(v)) return changed(self, c), NULL;
  switch (t->kind) {
    case FBE_KIND_STRUCT: return new_view(self, t->st, (PyObject *)t->st->cls, v);
    case FBE_KIND_OPTIONAL:
      if (fbe_view_is_null(v)) Py_RETURN_NONE;
      return read_value(self, c, t->elem, fbe_view_deref(v));
    case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_LIST: return new_list(self, t, v);
    case FBE_KIND_FLOAT: case FBE_KIND_SET: case FBE_KIND_MAP: case FBE_KIND_HASH:
      return read_decoded(self, c, t, v);
    default: return read_scalar(self, c, t, v);
  }
}

/* The class of a struct view: NULL with RuntimeError once the view was cleared. */
static int live(const pf_view *self) {
  if (self->si && self->si->cls) return 1;
  PyErr_SetString(PyExc_RuntimeError, "fbe: the schema of this view was freed");
  return 0;
}

/* Field i of the struct view, a new reference. */
static PyObject *field_value(pf_view *self, uint32_t i) {
  if (!live(self)) return NULL;
  const pf_field *f = &self->si->fields[i];
  pf_dec c = dec_of(self);
  PyObject *out = read_value(self, &c, f->type, fbe_view_field(self->v, i));
  if (!out && c.err.code) pf_raise(&c.err); /* the core's error, its path from the root */
  return out;
}

/* v.name: a field, when the name is an attribute name (README "Names"); fields come
 * before the methods, as a value's slots do. */
static PyObject *view_getattro(PyObject *self, PyObject *name) {
  const pf_view *v = (const pf_view *)self;
  PyObject *index = v->si && PyUnicode_CheckExact(name) ? PyDict_GetItemWithError(v->si->view_attrs, name) : NULL;
  if (index) return field_value((pf_view *)self, (uint32_t)PyLong_AsSsize_t(index));
  return PyErr_Occurred() ? NULL : PyObject_GenericGetAttr(self, name);
}

static int view_setattro(PyObject *self, PyObject *name, PyObject *value) {
  (void)self;
  (void)value;
  return pf_exc(PyExc_AttributeError, "fbe.View is read-only (field '%U'): to_value() gives a value to change",
                name);
}

/* v[name]: every field by its schema name, also one no attribute can name. */
static PyObject *view_getitem(PyObject *self, PyObject *name) {
  pf_view *v = (pf_view *)self;
  if (!live(v)) return NULL;
  if (!PyUnicode_Check(name))
    return PyErr_Format(PyExc_TypeError, "a field name is a str, not %.80s", Py_TYPE(name)->tp_name);
  const pf_field *f = pf_field_named(v->si, name);
  if (!f) {
    pf_unknown_field(NULL, v->si, name);
    return NULL;
  }
  return field_value(v, (uint32_t)(f - v->si->fields));
}

/* ------------------------------------------------------------------ as a value */

/* to_value(): the decoded value, as decode(bytes) of the same class gives it. */
static PyObject *view_to_value(PyObject *self, PyObject *unused) {
  (void)unused;
  pf_view *v = (pf_view *)self;
  if (!live(v)) return NULL;
  fbei_scratch *s = pf_take();
  if (!s) return NULL;
  fbe_msg *m;
  fbe_error err;
  PyObject *out = NULL;
  if (fbe_view_to_msg(v->v, s->arena, &v->limits, &m, &err)) pf_raise(&err);
  else out = pf_message_object(v->si, (PyTypeObject *)v->cls, m, v->ordered);
  pf_give(s);
  return out;
}

/* The core's text (str, repr) or JSON of the viewed value. */
static PyObject *written(pf_view *v, int json, int pretty) {
  if (!live(v)) return NULL;
  fbei_scratch *s = pf_take();
  if (!s) return NULL;
  fbe_error err;
  fbe_json_options opts = {.pretty = pretty, .limits = &v->limits};
  fbe_status st = json ? fbe_view_to_json(v->v, &opts, &s->buf, &err) : fbe_view_to_text(v->v, &v->limits, &s->buf, &err);
  PyObject *out = NULL;
  if (st) pf_raise(&err);
  else out = PyUnicode_DecodeUTF8((const char *)s->buf.data, (Py_ssize_t)s->buf.size, json ? "strict" : "replace");
  pf_give(s);
  return out;
}

static PyObject *view_repr(PyObject *self) { return written((pf_view *)self, 0, 0); }

static PyObject *view_to_json(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kw) {
  static const char *const names[] = {"pretty"};
  PyObject *pretty = nargs > 0 ? args[0] : NULL;
  if (nargs > 1) return PyErr_Format(PyExc_TypeError, "to_json() takes at most 1 argument (%zd given)", nargs);
  for (Py_ssize_t k = 0; kw && k < PyTuple_GET_SIZE(kw); k++) {
    if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kw, k), names[0]) != 0 || pretty)
      return PyErr_Format(PyExc_TypeError, "to_json() got an unexpected keyword argument '%U'",
                          PyTuple_GET_ITEM(kw, k));
    pretty = args[nargs + k];
  }
  int on = pretty ? PyObject_IsTrue(pretty) : 0;
  return on < 0 ? NULL : written((pf_view *)self, 1, on);
}

/* ==: the core's deep equality against a view or a value of the same struct (a view
 * never equals anything else, and is not ordered). */
static PyObject *view_richcompare(PyObject *a, PyObject *b, int op) {
  pf_view *v = (pf_view *)a;
  if ((op != Py_EQ && op != Py_NE) || !v->si) Py_RETURN_NOTIMPLEMENTED;
  const pf_struct *sb = NULL;
  int b_is_view = PyObject_TypeCheck(b, &pf_view_type);
  if (b_is_view) sb = ((pf_view *)b)->si;
  else if (PyObject_TypeCheck(b, &pf_struct_base_type)) sb = pf_info_of(Py_TYPE(b));
  if (!sb || !sb->cls || (sb != v->si && strcmp(sb->st->full_name, v->si->st->full_name) != 0))
    Py_RETURN_NOTIMPLEMENTED;
  if (b_is_view && sb == v->si) return PyBool_FromLong(fbe_view_equal(v->v, ((pf_view *)b)->v) == (op == Py_EQ));
  /* a value (or a view of another load of the schema, as its value) converted as encode
   * converts it; the value and its class are held while user code may run */
  PyObject *value = b_is_view ? view_to_value(b, NULL) : (Py_INCREF(b), b);
  if (!value) return NULL;
  PyObject *tb = (PyObject *)Py_TYPE(value);
  Py_INCREF(tb);
  fbei_scratch *s = pf_take();
  fbe_msg *m = NULL;
  if (s) {
    pf_enc c;
    pf_enc_init(&c, s);
    m = pf_try_msg(&c, v->si, value);
    if (!m && c.err.code) pf_raise(&c.err);
  }
  int same = m ? fbe_view_equal_ref(v->v, fbe_msg_ref(m)) : -1;
  if (s) pf_give(s);
  Py_DECREF(tb);
  Py_DECREF(value);
  return same < 0 ? NULL : PyBool_FromLong(same == (op == Py_EQ));
}

/* __fbe_type__: the struct's class (Account for a view of an Account). */
static PyObject *view_type_of(PyObject *self, void *closure) {
  (void)closure;
  pf_view *v = (pf_view *)self;
  if (!live(v)) return NULL;
  Py_INCREF(v->cls);
  return v->cls;
}

/* dir(): the attribute fields beside the methods. */
static PyObject *view_dir(PyObject *self, PyObject *unused) {
  (void)unused;
  pf_view *v = (pf_view *)self;
  PyObject *out = PyObject_Dir((PyObject *)Py_TYPE(self));
  if (out && v->si) {
    PyObject *name, *index;
    Py_ssize_t pos = 0;
    while (out && PyDict_Next(v->si->view_attrs, &pos, &name, &index))
      if (PyList_Append(out, name)) Py_CLEAR(out);
  }
  if (out && PyList_Sort(out)) Py_CLEAR(out);
  return out;
}

/* ------------------------------------------------------------------ fbe.ViewList */

static Py_ssize_t list_len(PyObject *self) {
  pf_view *v = (pf_view *)self;
  return live(v) ? (Py_ssize_t)fbe_view_count(v->v) : -1;
}

/* Element i (0 <= i < len), a new reference. */
static PyObject *list_item_at(pf_view *v, Py_ssize_t i) {
  pf_dec c = dec_of(v);
  PyObject *out = read_value(v, &c, v->seq->elem, fbe_view_at(v->v, (size_t)i));
  if (!out && c.err.code) pf_raise(&c.err); /* the core's error, its path from the root */
  return out;
}

static PyObject *list_item(PyObject *self, Py_ssize_t i) {
  pf_view *v = (pf_view *)self;
  if (!live(v)) return NULL;
  Py_ssize_t n = (Py_ssize_t)fbe_view_count(v->v);
  if (i < 0 || i >= n) { /* sq_item gets i + len for a negative index */
    PyErr_SetString(PyExc_IndexError, "fbe.ViewList index out of range");
    return NULL;
  }
  return list_item_at(v, i);
}

/* Every element as a list: a sequence of scalars, strings or bytes decoded at once by
 * the core (its elements are the ones list_item_at gives, made faster); others one by
 * one (structs as views), stepping with the core's iterator (O(1) a step in the final
 * model too, where indexing walks the elements before). */
static PyObject *list_elements(pf_view *v) {
  if (!live(v)) return NULL;
  pf_dec c = dec_of(v);
  if (v->seq->elem->scalar) {
    PyObject *out = read_decoded(v, &c, v->seq, v->v);
    if (!out && c.err.code) pf_raise(&c.err);
    return out;
  }
  fbe_view_iter it = fbe_view_iterate(v->v);
  PyObject *out = PyList_New(0);
  fbe_view e;
  for (size_t i = 0; out && fbe_view_next(&it, &e, NULL); i++) {
    PyObject *item = read_value(v, &c, v->seq->elem, e);
    if (!item && c.err.code) pf_raise(&c.err);
    if (!item || PyList_Append(out, item)) Py_CLEAR(out);
    Py_XDECREF(item);
  }
  return out;
}

static PyObject *list_iter(PyObject *self) {
  PyObject *items = list_elements((pf_view *)self);
  PyObject *out = items ? PyObject_GetIter(items) : NULL;
  Py_XDECREF(items);
  return out;
}

/* v[i] (negative from the end) and v[a:b:c] (a list). */
static PyObject *list_subscript(PyObject *self, PyObject *key) {
  if (PyIndex_Check(key)) {
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0) {
      Py_ssize_t n = list_len(self);
      if (n < 0) return NULL;
      i += n;
    }
    return list_item(self, i);
  }
  if (!PySlice_Check(key))
    return PyErr_Format(PyExc_TypeError, "fbe.ViewList indices must be integers or slices, not %.80s",
                        Py_TYPE(key)->tp_name);
  PyObject *items = list_elements((pf_view *)self);
  PyObject *out = items ? PyObject_GetItem(items, key) : NULL;
  Py_XDECREF(items);
  return out;
}

static int list_contains(PyObject *self, PyObject *x) {
  PyObject *items = list_elements((pf_view *)self);
  int out = items ? PySequence_Contains(items, x) : -1;
  Py_XDECREF(items);
  return out;
}

/* == against another sequence view or a list or tuple: element by element (so a view
 * element equals a value element by the core's equality). */
static PyObject *list_richcompare(PyObject *a, PyObject *b, int op) {
  int b_list = PyObject_TypeCheck(b, &pf_view_list_type);
  if ((op != Py_EQ && op != Py_NE) || !(b_list || PyList_Check(b) || PyTuple_Check(b))) Py_RETURN_NOTIMPLEMENTED;
  PyObject *x = list_elements((pf_view *)a), *y = NULL;
  if (x) y = b_list ? list_elements((pf_view *)b) : PySequence_List(b);
  PyObject *out = y ? PyObject_RichCompare(x, y, op) : NULL;
  Py_XDECREF(x);
  Py_XDECREF(y);
  return out;
}

static PyObject *list_repr(PyObject *self) {
  PyObject *items = list_elements((pf_view *)self);
  PyObject *out = items ? PyObject_Repr(items) : NULL;
  Py_XDECREF(items);
  return out;
}

static PyObject *list_to_list(PyObject *self, PyObject *unused) {
  (void)unused;
  return list_elements((pf_view *)self);
}

static PySequenceMethods list_sequence = {
    .sq_length = list_len,
    .sq_item = list_item,
    .sq_contains = list_contains,
};

static PyMappingMethods list_mapping = {.mp_length = list_len, .mp_subscript = list_subscript};

static PyMethodDef list_methods[] = {
    {"to_list", list_to_list, METH_NOARGS, "to_list() -> list: every element (structs as views)"},
    {NULL, NULL, 0, NULL}};

/* ------------------------------------------------------------------ the types */

static int view_traverse(PyObject *self, visitproc visit, void *arg) {
  pf_view *v = (pf_view *)self;
  Py_VISIT(v->cls);
  Py_VISIT(v->owner);
  return 0;
}

static int view_clear(PyObject *self) {
  pf_view *v = (pf_view *)self;
  v->si = NULL; /* nothing reads the bytes or the tables after this */
  v->v.type = NULL;
  Py_CLEAR(v->cls);
  Py_CLEAR(v->owner);
  return 0;
}

static void view_dealloc(PyObject *self) {
  PyObject_GC_UnTrack(self);
  view_clear(self);
  PyObject_GC_Del(self);
}

static PyMappingMethods view_mapping = {.mp_subscript = view_getitem};

static PyMethodDef view_methods[] = {
    {"to_value", view_to_value, METH_NOARGS,
     "to_value() -> the decoded value: the same as Cls.decode(data) of the viewed bytes"},
    {"to_json", (PyCFunction)(void (*)(void))view_to_json, METH_FASTCALL | METH_KEYWORDS,
     "to_json(pretty=False) -> str: the decoded value's JSON (the core's)"},
    {"__dir__", view_dir, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef view_getset[] = {
    {"__fbe_type__", view_type_of, NULL, "the struct class of the viewed value", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pf_view_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe.View",
    .tp_doc = "A struct read in place from verified bytes (Cls.view(data)): each attribute reads its\n"
              "field on access; str(), ==, to_json() and to_value() are the decoded value's.",
    .tp_basicsize = sizeof(pf_view),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = view_traverse,
    .tp_clear = view_clear,
    .tp_dealloc = view_dealloc,
    .tp_repr = view_repr,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = view_getattro,
    .tp_setattro = view_setattro,
    .tp_richcompare = view_richcompare,
    .tp_as_mapping = &view_mapping,
    .tp_methods = view_methods,
    .tp_getset = view_getset,
};

#ifdef Py_TPFLAGS_SEQUENCE /* 3.10: a sequence to match statements */
#define PF_TPFLAGS_SEQUENCE Py_TPFLAGS_SEQUENCE
#else
#define PF_TPFLAGS_SEQUENCE 0
#endif

static PyTypeObject pf_view_list_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe.ViewList",
    .tp_doc = "An array, vector or list field of an fbe.View: a read-only sequence whose elements are\n"
              "read from the bytes on access (structs as fbe.View).",
    .tp_basicsize = sizeof(pf_view),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | PF_TPFLAGS_SEQUENCE,
    .tp_traverse = view_traverse,
    .tp_clear = view_clear,
    .tp_dealloc = view_dealloc,
    .tp_repr = list_repr,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_richcompare = list_richcompare,
    .tp_iter = list_iter,
    .tp_as_sequence = &list_sequence,
    .tp_as_mapping = &list_mapping,
    .tp_methods = list_methods,
};

int pf_view_init(PyObject *module) {
  if (PyType_Ready(&pf_view_data_type) < 0 || PyType_Ready(&pf_view_list_type) < 0) return -1;
  Py_INCREF(&pf_view_list_type);
  return PyModule_AddObject(module, "ViewList", (PyObject *)&pf_view_list_type);
}

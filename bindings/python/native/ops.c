/* The entry points: encode, decode, verify, validate (model_size), to_json, from_json,
 * equal, default, from_dict and asdict, each once as a module function f(cls, ...) (fbe.Schema's methods
 * use them) and once as a method of the struct classes (fbe.Struct); and fbe.Limits,
 * the limits= argument of the readers. Each crosses into the core once per message,
 * without the GIL around the pure-C part of big work (FBE_RELEASE_LOCK_BYTES). */
#include <stddef.h>
#include <string.h>
#include "binding.h"
#include "structmember.h"

/* Runs stmt without the GIL when the work is big enough to pay for releasing it (the
 * value then points only into objects the scratch keeps alive). */
#define PF_RUN(big, stmt) \
  do { if (big) { Py_BEGIN_ALLOW_THREADS stmt; Py_END_ALLOW_THREADS } else { stmt; } } while (0)
#define MODEL(final) ((final) ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD)

/* ------------------------------------------------------------------ arguments */

/* Parses (positional..., keyword...) of a fastcall: `names` lists the parameters, the
 * first npos may come positionally, the first nreq are required; out[] gets borrowed
 * objects or NULL. */
static int parse_args(const char *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      const char *const *names, int nnames, int npos, int nreq, PyObject **out) {
  for (int i = 0; i < nnames; i++) out[i] = i < nargs ? args[i] : NULL;
  if (nargs > npos)
    return pf_exc(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", fn, npos, nargs);
  for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); k++) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, k);
    int i = 0;
    while (i < nnames && PyUnicode_CompareWithASCIIString(key, names[i]) != 0) i++;
    if (i == nnames) return pf_exc(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fn, key);
    if (out[i]) return pf_exc(PyExc_TypeError, "%s() got multiple values for argument '%s'", fn, names[i]);
    out[i] = args[nargs + k];
  }
  for (int i = 0; i < nreq; i++)
    if (!out[i]) return pf_exc(PyExc_TypeError, "%s() missing required argument '%s'", fn, names[i]);
  return 0;
}

static int flag(PyObject *o, int *out) {
  int v = o ? PyObject_IsTrue(o) : 0;
  *out = v > 0;
  return v < 0 ? -1 : 0;
}

static pf_struct *info_or_raise(PyObject *cls) {
  pf_struct *si = PyType_Check(cls) ? pf_info_of((PyTypeObject *)cls) : NULL;
  if (!si) PyErr_Format(PyExc_TypeError, "expected a struct class of a loaded schema, got %R", cls);
  else if (!si->cls) PyErr_SetString(PyExc_RuntimeError, "fbe: the schema of this class was freed");
  return si && si->cls ? si : NULL;
}

int pf_get_data(PyObject *data, Py_buffer *view) {
  view->obj = NULL;
  if (PyBytes_CheckExact(data)) {
    view->buf = PyBytes_AS_STRING(data);
    view->len = PyBytes_GET_SIZE(data);
    return 0;
  }
  if (!PyUnicode_Check(data) && PyObject_GetBuffer(data, view, PyBUF_SIMPLE) == 0) return 0;
  PyErr_Clear();
  view->obj = NULL;
  pf_raisef(FBE_ERR_TYPE, "expected bytes, bytearray or memoryview, got %.80s", Py_TYPE(data)->tp_name);
  return -1;
}

/* ------------------------------------------------------------------ operations */
/* Each op_run(cls, a): a[0] the value (or data, text), a[1...] the options in the
 * order of op_names[2...]. */

/* encode and to_json: the value as a message, written by the core into the scratch's
 * buffer (opt: final, or pretty). */
static PyObject *write_run(PyObject *cls, PyObject *const *a, int json) {
  int opt;
  pf_struct *si = flag(a[1], &opt) ? NULL : info_or_raise(cls);
  fbei_scratch *s = si ? pf_take() : NULL;
  if (!s) return NULL;
  pf_enc c;
  pf_enc_init(&c, s);
  PyObject *out = NULL;
  fbe_msg *m = pf_build_msg(&c, si, a[0]);
  fbe_error err;
  fbe_status st = FBE_OK;
  if (m && json) st = fbe_msg_to_json(m, opt, &s->buf, &err);
  else if (m) PF_RUN(c.bytes + fbe_arena_reserved(s->arena) >= FBE_RELEASE_LOCK_BYTES,
                     st = fbe_encode(m, MODEL(opt), &s->buf, &err));
  if (m && st) pf_raise(&err);
  else if (m && json) out = PyUnicode_DecodeUTF8((const char *)s->buf.data, (Py_ssize_t)s->buf.size, "strict");
  else if (m) out = PyBytes_FromStringAndSize((const char *)s->buf.data, (Py_ssize_t)s->buf.size);
  pf_give(s);
  return out;
}

static PyObject *encode_run(PyObject *cls, PyObject *const *a) { return write_run(cls, a, 0); }
static PyObject *to_json_run(PyObject *cls, PyObject *const *a) { return write_run(cls, a, 1); }

/* decode and from_json: the message the core reads from data (fbe_decode verifies it,
 * fbe_decode_trusted when asked does not: the core decides what each refuses) as an
 * instance of cls. */
static PyObject *read_run(PyObject *cls, PyObject *data, int json, int final, int ordered, int trusted,
                          int ignore_unknown, PyObject *limits_arg) {
  fbe_limits limits;
  Py_buffer view = {.obj = NULL};
  pf_struct *si = pf_limits_from(limits_arg, &limits) ? NULL : info_or_raise(cls);
  if (!si) return NULL;
  if (json && PyUnicode_Check(data)) {
    if (!(view.buf = (void *)PyUnicode_AsUTF8AndSize(data, &view.len))) return NULL;
  } else if (pf_get_data(data, &view)) {
    return NULL;
  }
  fbei_scratch *s = pf_take();
  fbe_msg *m = NULL;
  fbe_error err;
  fbe_status st = FBE_ERR_NOMEM;
  fbe_json_options opts = {.ignore_unknown = ignore_unknown, .limits = &limits};
  if (s && json)
    st = fbe_msg_from_json_opts(si->st, view.buf, (size_t)view.len, s->arena, &opts, &m, &err);
  else if (s)
    PF_RUN((size_t)view.len >= FBE_RELEASE_LOCK_BYTES,
           st = (trusted ? fbe_decode_trusted : fbe_decode)(si->st, MODEL(final), view.buf, (size_t)view.len,
                                                            s->arena, &limits, &m, NULL, &err));
  PyObject *out = NULL;
  if (s && st) pf_raise(&err);
  else if (s) out = pf_message_object(si, (PyTypeObject *)cls, m, ordered);
  if (s) pf_give(s);
  PyBuffer_Release(&view); /* nothing to release for bytes (obj NULL) */
  return out;
}

static PyObject *decode_run(PyObject *cls, PyObject *const *a) {
  int final, ordered, trusted;
  if (flag(a[1], &final) || flag(a[2], &ordered) || flag(a[3], &trusted)) return NULL;
  return read_run(cls, a[0], 0, final, ordered, trusted, 0, a[4]);
}

static PyObject *from_json_run(PyObject *cls, PyObject *const *a) {
  int ordered, ignore_unknown;
  if (flag(a[1], &ordered) || flag(a[3], &ignore_unknown)) return NULL;
  return read_run(cls, a[0], 1, 0, ordered, 0, ignore_unknown, a[2]);
}

/* view: the bytes opened in place (view.c); model "standard" or "final". */
static PyObject *view_run(PyObject *cls, PyObject *const *a) {
  int ordered;
  fbe_limits limits;
  if (flag(a[2], &ordered) || pf_limits_from(a[3], &limits)) return NULL;
  fbe_model model = FBE_MODEL_STANDARD;
  if (a[1]) { /* the core's rule and words (fbe_model_parse) */
    Py_ssize_t n = 0;
    const char *name = PyUnicode_Check(a[1]) ? PyUnicode_AsUTF8AndSize(a[1], &n) : NULL;
    fbe_error err;
    if (PyErr_Occurred()) return NULL;
    if (fbe_model_parse(name, (size_t)n, &model, &err)) return pf_raise(&err), NULL;
  }
  pf_struct *si = info_or_raise(cls);
  return si ? pf_view_open(si, cls, a[0], model == FBE_MODEL_FINAL, ordered, &limits) : NULL;
}

/* from_dict: a dict of field values (nested dicts for structs) read by the input table
 * into the core's value and back as an instance of cls, with every field of its host
 * type (a uuid's text becomes a uuid.UUID, ...): what encode then decode gives. */
static PyObject *from_dict_run(PyObject *cls, PyObject *const *a) {
  int ordered;
  pf_struct *si = flag(a[1], &ordered) ? NULL : info_or_raise(cls);
  if (si && !PyDict_Check(a[0])) {
    fbe_error err;
    pf_type_error(&err, NULL, si->st, a[0]);
    pf_raise(&err);
    return NULL;
  }
  fbei_scratch *s = si ? pf_take() : NULL;
  if (!s) return NULL;
  pf_enc c;
  pf_enc_init(&c, s);
  fbe_msg *m = pf_build_msg(&c, si, a[0]);
  PyObject *out = m ? pf_message_object(si, (PyTypeObject *)cls, m, ordered) : NULL;
  pf_give(s);
  return out;
}

/* verify: the model size, 0 with *err filled when invalid, -1 on a Python error. */
static Py_ssize_t verify_size(PyObject *cls, PyObject *const *a, fbe_error *err) {
  int final;
  fbe_limits limits;
  Py_buffer view;
  if (flag(a[1], &final) || pf_limits_from(a[2], &limits)) return -1;
  pf_struct *si = info_or_raise(cls);
  if (!si || pf_get_data(a[0], &view)) return -1;
  size_t size = 0;
  fbe_status st;
  PF_RUN((size_t)view.len >= FBE_RELEASE_LOCK_BYTES,
         st = fbe_verify(si->st, MODEL(final), view.buf, (size_t)view.len, &limits, &size, err));
  PyBuffer_Release(&view);
  return st ? 0 : (Py_ssize_t)size;
}

static PyObject *verify_run(PyObject *cls, PyObject *const *a) {
  fbe_error err;
  Py_ssize_t n = verify_size(cls, a, &err);
  return n < 0 ? NULL : PyBool_FromLong(n > 0);
}

/* validate: the model size, or verify's reason raised (with its path and offset). */
static PyObject *validate_run(PyObject *cls, PyObject *const *a) {
  fbe_error err;
  Py_ssize_t n = verify_size(cls, a, &err);
  if (n == 0) pf_raise(&err);
  return n <= 0 ? NULL : PyLong_FromSsize_t(n);
}

/* equal: the core's deep equality (floats by bit pattern, decimals by value,
 * collections in order) of two values of cls (instances or dicts). */
static PyObject *equal_run(PyObject *cls, PyObject *const *a) {
  pf_struct *si = info_or_raise(cls);
  fbei_scratch *s = si ? pf_take() : NULL;
  if (!s) return NULL;
  pf_enc c;
  pf_enc_init(&c, s);
  fbe_msg *ma = pf_build_msg(&c, si, a[0]);
  fbe_msg *mb = ma ? pf_build_msg(&c, si, a[1]) : NULL;
  PyObject *out = mb ? PyBool_FromLong(fbe_msg_equal(ma, mb)) : NULL;
  pf_give(s);
  return out;
}

/* ------------------------------------------------------------------ plain data */

/* asdict: a struct value as a dict of its fields by schema name (a deleted field left
 * out), deep: structs become dicts inside lists, tuples, dict values and optionals;
 * dict keys and set elements stay as they are (a dict is no key); the rest is shared. */
static PyObject *plain(PyObject *v);

static PyObject *plain_struct(const pf_struct *si, PyObject *v) {
  PyObject *d = PyDict_New();
  for (uint32_t i = 0; d && i < si->nfields; i++) {
    PyObject *f = *(PyObject **)((char *)v + si->fields[i].offset);
    if (!f) continue;
    Py_INCREF(f);
    PyObject *p = plain(f);
    Py_DECREF(f);
    if (!p || PyDict_SetItem(d, si->fields[i].name, p)) Py_CLEAR(d);
    Py_XDECREF(p);
  }
  return d;
}

static PyObject *plain_items(PyObject *v) { /* a list or a tuple, from a snapshot */
  PyObject *items = PySequence_List(v);
  for (Py_ssize_t i = 0; items && i < PyList_GET_SIZE(items); i++) {
    PyObject *p = plain(PyList_GET_ITEM(items, i));
    if (p) PyList_SetItem(items, i, p);
    else Py_CLEAR(items);
  }
  if (items && PyTuple_Check(v)) Py_SETREF(items, PyList_AsTuple(items));
  return items;
}

static PyObject *plain_dict(PyObject *v) {
  PyObject *copy = PyDict_Copy(v), *out = copy ? PyDict_New() : NULL, *key, *value;
  Py_ssize_t pos = 0;
  while (out && PyDict_Next(copy, &pos, &key, &value)) {
    PyObject *p = plain(value);
    if (!p || PyDict_SetItem(out, key, p)) Py_CLEAR(out);
    Py_XDECREF(p);
  }
  Py_XDECREF(copy);
  return out;
}

static PyObject *plain(PyObject *v) {
  if (Py_EnterRecursiveCall(" in fbe.asdict")) return NULL;
  PyObject *out, *owner = (PyObject *)Py_TYPE(v);
  pf_struct *si = PyObject_TypeCheck(v, &pf_struct_base_type) ? pf_info_of(Py_TYPE(v)) : NULL;
  Py_INCREF(owner); /* the tables of its class are read while dict keys hash (user code) */
  if (si) out = plain_struct(si, v);
  else if (PyList_Check(v) || PyTuple_Check(v)) out = plain_items(v);
  else if (PyDict_Check(v)) out = plain_dict(v);
  else if (PyFrozenSet_Check(v)) out = PyFrozenSet_New(v);
  else if (PyAnySet_Check(v)) out = PySet_New(v);
  else out = (Py_INCREF(v), v);
  Py_DECREF(owner);
  Py_LeaveRecursiveCall();
  return out;
}

static PyObject *asdict_of(PyObject *value) {
  if (!PyObject_TypeCheck(value, &pf_struct_base_type) || !pf_info_of(Py_TYPE(value))) {
    fbe_error err;
    pf_type_error(&err, NULL, NULL, value); /* "expected a struct, got ..." */
    pf_raise(&err);
    return NULL;
  }
  return plain(value);
}

static PyObject *mod_asdict(PyObject *self, PyObject *value) {
  (void)self;
  return asdict_of(value);
}

static PyObject *st_to_dict(PyObject *self, PyObject *unused) {
  (void)unused;
  return asdict_of(self);
}

/* enum_text(member): the core's text of an enum or flags value (fbe_text_write_enum),
 * for the enum classes' str and repr; the class carries its SchemaCore and index. */
static PyObject *mod_enum_text(PyObject *self, PyObject *member) {
  (void)self;
  PyObject *core = PyLong_Check(member) ? PyObject_GetAttrString((PyObject *)Py_TYPE(member), "__fbe_core__") : NULL;
  PyObject *index = core ? PyObject_GetAttrString((PyObject *)Py_TYPE(member), "__fbe_index__") : NULL;
  Py_ssize_t at = index ? PyLong_AsSsize_t(index) : -1;
  PyObject *out = NULL;
  if (!core || !PyObject_TypeCheck(core, &pf_core_type) || at < 0 || (size_t)at >= ((pf_core *)core)->nenums) {
    if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_AttributeError)) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "enum_text: %R is not a value of a loaded schema's enum", member);
    }
  } else {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(member, &overflow);
    uint64_t pattern = overflow > 0 ? PyLong_AsUnsignedLongLong(member) : (uint64_t)v;
    fbei_scratch *s = PyErr_Occurred() ? NULL : pf_take();
    fbe_error err;
    if (s && fbe_text_write_enum(((pf_core *)core)->enums[at].e, pattern, &s->buf, &err)) pf_raise(&err);
    else if (s) out = PyUnicode_DecodeUTF8((const char *)s->buf.data, (Py_ssize_t)s->buf.size, "replace");
    if (s) pf_give(s);
  }
  Py_XDECREF(index);
  Py_XDECREF(core);
  return out;
}

/* default(cls) -> a new instance with every field at its schema default. */
static PyObject *mod_default(PyObject *self, PyObject *cls) {
  (void)self;
  pf_struct *si = info_or_raise(cls);
  return si ? pf_new_default(si, (PyTypeObject *)cls) : NULL;
}

/* ------------------------------------------------------------------ the two faces */

static const char *const encode_names[] = {"cls", "value", "final"};
static const char *const to_json_names[] = {"cls", "value", "pretty"};
static const char *const decode_names[] = {"cls", "data", "final", "ordered", "trusted", "limits"};
static const char *const verify_names[] = {"cls", "data", "final", "limits"};
static const char *const from_json_names[] = {"cls", "text", "ordered", "limits", "ignore_unknown"};
static const char *const from_dict_names[] = {"cls", "data", "ordered"};
static const char *const equal_names[] = {"cls", "a", "b"};
static const char *const view_names[] = {"cls", "data", "model", "ordered", "limits"};

#define FASTCALL_ARGS PyObject *const *args, Py_ssize_t nargs, PyObject *kw
/* mod_NAME(cls, ...): the module function. */
#define MODULE_FN(name, run, names, n, npos, nreq)                                                \
  static PyObject *mod_##name(PyObject *self, FASTCALL_ARGS) {                                   \
    PyObject *a[n];                                                                               \
    (void)self;                                                                                   \
    return parse_args(#name, args, nargs, kw, names, n, npos, nreq, a) ? NULL : run(a[0], a + 1); \
  }
/* st_NAME(...): the class method (cls bound). */
#define CLASS_FN(name, run, names, n, npos, nreq)                                                 \
  static PyObject *st_##name(PyObject *cls, FASTCALL_ARGS) {                                     \
    PyObject *a[n];                                                                               \
    return parse_args(#name, args, nargs, kw, names + 1, n - 1, npos - 1, nreq - 1, a + 1)        \
               ? NULL : run(cls, a + 1);                                                          \
  }
/* st_NAME(...): the method of an instance, self the value. It reads the tables of
 * self's class (owned by the class's schema core) while user code may run (a value's
 * __iter__, __index__, __eq__, __del__), and user code can reassign self.__class__ to a
 * layout-compatible class of another load of the schema, dropping the last reference to
 * the first one: the method holds the class (and so its core) until it returns. */
#define INSTANCE_FN(name, run, names, n)                                                          \
  static PyObject *st_##name(PyObject *self, FASTCALL_ARGS) {                                    \
    PyObject *a[n], *owner = (PyObject *)Py_TYPE(self);                                          \
    if (parse_args(#name, args, nargs, kw, names + 2, n - 2, n - 2, 0, a + 2)) return NULL;       \
    a[1] = self;                                                                                  \
    Py_INCREF(owner);                                                                             \
    PyObject *out = run(owner, a + 1);                                                            \
    Py_DECREF(owner);                                                                             \
    return out;                                                                                   \
  }

MODULE_FN(encode, encode_run, encode_names, 3, 3, 2)
INSTANCE_FN(encode, encode_run, encode_names, 3)
MODULE_FN(to_json, to_json_run, to_json_names, 3, 3, 2)
INSTANCE_FN(to_json, to_json_run, to_json_names, 3)
MODULE_FN(decode, decode_run, decode_names, 6, 4, 2)
CLASS_FN(decode, decode_run, decode_names, 6, 4, 2)
MODULE_FN(verify, verify_run, verify_names, 4, 3, 2)
CLASS_FN(verify, verify_run, verify_names, 4, 3, 2)
MODULE_FN(model_size, validate_run, verify_names, 4, 3, 2)
CLASS_FN(validate, validate_run, verify_names, 4, 3, 2)
MODULE_FN(from_json, from_json_run, from_json_names, 5, 3, 2)
CLASS_FN(from_json, from_json_run, from_json_names, 5, 3, 2)
MODULE_FN(from_dict, from_dict_run, from_dict_names, 3, 3, 2)
CLASS_FN(from_dict, from_dict_run, from_dict_names, 3, 3, 2)
MODULE_FN(equal, equal_run, equal_names, 3, 3, 3)
MODULE_FN(view, view_run, view_names, 5, 3, 2)
CLASS_FN(view, view_run, view_names, 5, 3, 2)

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS
PyMethodDef pf_module_methods[] = {
    {"encode", FASTCALL(mod_encode), "encode(cls, value, final=False) -> bytes"},
    {"decode", FASTCALL(mod_decode), "decode(cls, data, final=False, ordered=False, *, trusted=False, limits=None)"},
    {"verify", FASTCALL(mod_verify), "verify(cls, data, final=False, *, limits=None) -> bool"},
    {"model_size", FASTCALL(mod_model_size), "model_size(cls, data, final=False, *, limits=None) -> int; raises "
                                           "fbe.Error when invalid"},
    {"to_json", FASTCALL(mod_to_json), "to_json(cls, value, pretty=False) -> str"},
    {"from_json", FASTCALL(mod_from_json),
     "from_json(cls, text, ordered=False, *, limits=None, ignore_unknown=False) -> instance"},
    {"from_dict", FASTCALL(mod_from_dict), "from_dict(cls, data, ordered=False) -> instance"},
    {"asdict", mod_asdict, METH_O, "asdict(value) -> dict: the fields, nested structs as dicts"},
    {"enum_text", mod_enum_text, METH_O, "enum_text(member) -> str: the core's text of an enum or flags value"},
    {"equal", FASTCALL(mod_equal), "equal(cls, a, b) -> bool (deep, floats by bit pattern)"},
    {"view", FASTCALL(mod_view), "view(cls, data, model=\"standard\", *, ordered=False, limits=None) -> fbe.View"},
    {"default", mod_default, METH_O, "default(cls) -> instance with the schema defaults"},
    {"bind", pyfbe_bind, METH_VARARGS, "bind(swig_schema, [(name, cls)], [(name, enum_cls)]) -> SchemaCore"},
    {"set_error_classes", pf_set_error_classes, METH_O, "set_error_classes((cls per status code, ...))"},
    {"error_text", pf_error_text, METH_VARARGS, "error_text(message, path, offset) -> the core's error text"},
    {"type_not_found", pf_type_not_found, METH_VARARGS,
     "type_not_found(core, name, what) -> the core's NotFoundError of a type name ('type', 'struct', 'enum')"},
    {NULL, NULL, 0, NULL}};

PyMethodDef pf_struct_methods[] = {
    {"encode", FASTCALL(st_encode), "encode(final=False) -> bytes: the standard (versioned) model, or the final one"},
    {"to_json", FASTCALL(st_to_json), "to_json(pretty=False) -> str, with the reference's JSON conventions"},
    {"decode", FASTCALL(st_decode) | METH_CLASS,
     "decode(data, final=False, ordered=False, *, trusted=False, limits=None) -> instance (data: bytes,\n"
     "bytearray, memoryview); verified first, raising verify's reason; trusted=True skips the verify;\n"
     "limits: an fbe.Limits (None: the defaults)"},
    {"verify", FASTCALL(st_verify) | METH_CLASS,
     "verify(data, final=False, *, limits=None) -> bool: True when data starts with a valid model"},
    {"validate", FASTCALL(st_validate) | METH_CLASS,
     "validate(data, final=False, *, limits=None) -> int: the model size; raises fbe.Error (the reason,\n"
     "path and offset) when data is not a valid model"},
    {"from_json", FASTCALL(st_from_json) | METH_CLASS,
     "from_json(text, ordered=False, *, limits=None, ignore_unknown=False) -> instance: members the\n"
     "struct does not have raise fbe.UnknownFieldError unless ignore_unknown=True"},
    {"from_dict", FASTCALL(st_from_dict) | METH_CLASS,
     "from_dict(data, ordered=False) -> instance: a dict of fields (nested dicts for structs), checked\n"
     "by the input table and converted as encode and decode convert it"},
    {"view", FASTCALL(st_view) | METH_CLASS,
     "view(data, model=\"standard\", *, ordered=False, limits=None) -> fbe.View: data verified once\n"
     "(raising what decode raises), then each field read from it on access; the view holds data"},
    {"to_dict", (PyCFunction)(void (*)(void))st_to_dict, METH_NOARGS,
     "to_dict() -> dict: the fields by schema name, nested structs as dicts (fbe.asdict)"},
    {NULL, NULL, 0, NULL}};

/* ------------------------------------------------------------------ fbe.Limits */

/* The limits against hostile input (codec.h, fbe_limits) as one immutable value. The
 * constructor hands every keyword to the core's fbe_limits_set, which alone decides the
 * names, the ranges and the error texts. */
typedef struct pf_limits {
  PyObject_HEAD
  fbe_limits limits;
} pf_limits;

static PyObject *limits_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
  if (PyTuple_GET_SIZE(args))
    return PyErr_Format(PyExc_TypeError,
                        "fbe.Limits() takes keyword arguments only (max_depth=, max_model_size=, max_memory=)");
  fbe_limits l = {0, 0, 0}; /* every member 0: its default */
  PyObject *name, *value;
  Py_ssize_t pos = 0, n;
  while (kw && PyDict_Next(kw, &pos, &name, &value)) {
    const char *text = PyUnicode_AsUTF8AndSize(name, &n);
    if (!text) return NULL;
    if (!PyLong_Check(value) || PyBool_Check(value))
      return PyErr_Format(PyExc_TypeError, "fbe.Limits(): %U must be an int, not %.80s", name,
                          Py_TYPE(value)->tp_name);
    /* ints beyond int64 clamped: the core refuses them or takes them as "very large" */
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) return NULL;
    fbe_error err;
    if ((size_t)n != strlen(text)) { /* a NUL inside: no limit's name */
      pf_raisef(FBE_ERR_ARGUMENT, "a limit's name contains a NUL character");
      return NULL;
    }
    if (fbe_limits_set(&l, text, overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : (int64_t)v, &err)) {
      pf_raise(&err);
      return NULL;
    }
  }
  pf_limits *self = (pf_limits *)tp->tp_alloc(tp, 0);
  if (self) self->limits = l;
  return (PyObject *)self;
}

static PyMemberDef limits_members[] = {
    {"max_depth", T_UINT, offsetof(pf_limits, limits.max_depth), READONLY,
     "nesting through optionals and collections (0: the default, 256)"},
    {"max_model_size", T_ULONGLONG, offsetof(pf_limits, limits.max_model_size), READONLY,
     "largest model, frame or JSON text in bytes (0: the default, 1 GiB)"},
    {"max_memory", T_ULONGLONG, offsetof(pf_limits, limits.max_memory), READONLY,
     "bytes one operation may cost (0: the default, 16 x the input + 1 MiB)"},
    {NULL, 0, 0, 0, NULL}};

/* fbe.Limits is a Python subclass of this type (fbe/_schema.py adds repr, == and
 * hash, and refuses further subclasses): the value and its checks are here. */
PyTypeObject pf_limits_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.Limits",
    .tp_doc = "Limits(*, max_depth=0, max_model_size=0, max_memory=0)\n--\n\n"
              "The limits against hostile input of decode, verify, validate, from_json and the\n"
              "Receiver (0: the default).\n"
              "The core checks each value: out of range raises fbe.RangeError.",
    .tp_basicsize = sizeof(pf_limits),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = limits_new,
    .tp_members = limits_members,
};

int pf_limits_from(PyObject *obj, fbe_limits *out) {
  static const fbe_limits defaults = {0, 0, 0};
  if (!obj || obj == Py_None) {
    *out = defaults;
    return 0;
  }
  if (!PyObject_TypeCheck(obj, &pf_limits_type))
    return pf_exc(PyExc_TypeError, "limits must be an fbe.Limits or None, not %.80s", Py_TYPE(obj)->tp_name);
  *out = ((pf_limits *)obj)->limits;
  return 0;
}

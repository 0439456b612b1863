/* Sender and receiver engines over the core's protocol (fbe/protocol.h). The Python
 * classes fbe.Sender / fbe.Receiver (fbe/_protocol.py) wrap them with the sink and
 * source conveniences (callables, file-like objects). Both have one shape: the core's
 * engine, the SchemaCore, the Python callable the engine calls, and a busy flag that
 * refuses a call from inside that callable. */
#include "binding.h"

typedef struct pf_engine {
  PyObject_HEAD
  void *engine;        /* fbe_sender * or fbe_receiver * */
  PyObject *core;      /* the SchemaCore */
  PyObject *callback;  /* the sink (bytes), or the handler (NULL: feed() returns the messages) */
  PyObject *collected; /* during feed() without a handler */
  int ordered, busy;
} pf_engine;

static pf_engine *engine_new(PyTypeObject *tp, PyObject *core, PyObject *callback) {
  if (!Py_IS_TYPE(core, &pf_core_type)) return (pf_engine *)PyErr_Format(PyExc_TypeError, "expected a SchemaCore");
  pf_engine *e = (pf_engine *)tp->tp_alloc(tp, 0);
  if (e) {
    Py_INCREF(core);
    e->core = core;
    Py_XINCREF(callback);
    e->callback = callback;
  }
  return e;
}

/* e once its core engine is made, or the error of the package that names none. */
static PyObject *engine_made(pf_engine *e, const char *package) {
  if (e->engine) return (PyObject *)e;
  pf_raisef(FBE_ERR_NOT_FOUND, "no package '%.80s' in the schema", package ? package : "(root)");
  Py_DECREF(e);
  return NULL;
}

static int engine_traverse(PyObject *o, visitproc visit, void *arg) {
  Py_VISIT(((pf_engine *)o)->core);
  Py_VISIT(((pf_engine *)o)->callback);
  Py_VISIT(((pf_engine *)o)->collected);
  return 0;
}

static int engine_clear(PyObject *o) {
  Py_CLEAR(((pf_engine *)o)->callback);
  Py_CLEAR(((pf_engine *)o)->collected);
  return 0;
}

static void engine_dealloc(PyObject *o) {
  pf_engine *e = (pf_engine *)o;
  PyObject_GC_UnTrack(o);
  if (Py_IS_TYPE(o, &pf_sender_type)) fbe_sender_free(e->engine);
  else fbe_receiver_free(e->engine);
  engine_clear(o);
  Py_CLEAR(e->core);
  Py_TYPE(o)->tp_free(o);
}

static PyObject *engine_count(PyObject *o, void *which) {
  void *e = ((pf_engine *)o)->engine;
  switch ((intptr_t)which) {
    case 0: return PyLong_FromUnsignedLongLong(fbe_sender_bytes(e));
    case 1: return PyLong_FromSize_t(fbe_receiver_pending(e));
    case 2: return PyLong_FromUnsignedLongLong(fbe_receiver_received(e));
    default: return PyLong_FromUnsignedLongLong(fbe_receiver_skipped(e));
  }
}

static PyObject *refused(const char *what) {
  return PyErr_Format(PyExc_RuntimeError, "%s (not re-entrant)", what);
}

/* ------------------------------------------------------------------ sender */

static int sink_call(void *ctx, const uint8_t *data, size_t size) {
  PyObject *b = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)size);
  PyObject *r = b ? PyObject_CallOneArg(((pf_engine *)ctx)->callback, b) : NULL;
  Py_XDECREF(b);
  Py_XDECREF(r);
  return r ? 0 : 1; /* the exception stays pending: send() raises it */
}

static PyObject *sender_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
  static char *names[] = {"core", "sink", "package", "final", NULL};
  PyObject *core, *sink;
  const char *package = NULL;
  int final = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|zp", names, &core, &sink, &package, &final)) return NULL;
  if (!PyCallable_Check(sink)) return PyErr_Format(PyExc_TypeError, "sink must be callable");
  pf_engine *e = engine_new(tp, core, sink);
  if (!e) return NULL;
  e->engine = fbe_sender_new(((pf_core *)core)->schema, package, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                             sink_call, e);
  return engine_made(e, package);
}

/* The struct of `obj`'s class in `core` (by name when the class comes from another
 * load of the schema). NULL with an exception set when none. */
static pf_struct *struct_in_core(pf_core *core, PyObject *obj) {
  pf_struct *si = pf_info_of(Py_TYPE(obj));
  const fbe_struct *st = si && si->core != core ? fbe_schema_find_struct(core->schema, si->st->full_name) : NULL;
  if (st) si = &core->structs[fbe_struct_index(st)];
  if (si && si->core == core) return si;
  pf_raisef(FBE_ERR_TYPE, "expected a message of the schema, got %.80s", Py_TYPE(obj)->tp_name);
  return NULL;
}

/* send(message) -> int: encodes one message and hands its frame to the sink; returns
 * the frame's size. */
static PyObject *sender_send(PyObject *o, PyObject *msg) {
  pf_engine *e = (pf_engine *)o;
  if (e->busy) return refused("Sender.send called again while sending");
  if (!e->callback) return PyErr_Format(PyExc_RuntimeError, "sender is closed");
  pf_struct *si = struct_in_core((pf_core *)e->core, msg);
  fbei_scratch *s = si ? pf_take() : NULL;
  if (!s) return NULL;
  pf_enc c;
  pf_enc_init(&c, s);
  PyObject *out = NULL;
  fbe_msg *m = pf_build_msg(&c, si, msg);
  if (m) {
    fbe_error err;
    uint64_t before = fbe_sender_bytes(e->engine);
    e->busy = 1;
    fbe_status st = fbe_sender_send(e->engine, m, &err);
    e->busy = 0;
    if (st == FBE_OK) out = PyLong_FromUnsignedLongLong(fbe_sender_bytes(e->engine) - before);
    else if (!PyErr_Occurred()) pf_raise(&err);
  }
  pf_give(s);
  return out;
}

static PyMethodDef sender_methods[] = {
    {"send", sender_send, METH_O, "send(message) -> int: the size of the frame written"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef sender_getset[] = {
    {"bytes_sent", engine_count, NULL, "bytes handed to the sink so far", (void *)0},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pf_sender_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.SenderEngine",
    .tp_doc = "SenderEngine(core, sink, package=None, final=False)",
    .tp_basicsize = sizeof(pf_engine),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = sender_new,
    .tp_traverse = engine_traverse,
    .tp_clear = engine_clear,
    .tp_dealloc = engine_dealloc,
    .tp_methods = sender_methods,
    .tp_getset = sender_getset,
};

/* ------------------------------------------------------------------ receiver */

static int handler_call(void *ctx, const fbe_msg *msg) {
  pf_engine *e = ctx;
  pf_struct *si = &((pf_core *)e->core)->structs[fbe_struct_index(fbe_msg_type(msg))];
  PyObject *obj = pf_message_object(si, si->cls, msg, e->ordered), *res = NULL;
  int rc = !obj;
  if (obj && e->callback) rc = !(res = PyObject_CallOneArg(e->callback, obj));
  else if (obj) rc = PyList_Append(e->collected, obj) != 0;
  Py_XDECREF(res);
  Py_XDECREF(obj);
  return rc;
}

static PyObject *receiver_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
  static char *names[] = {"core", "handler", "package", "final", "ordered", "limits", NULL};
  PyObject *core, *handler = Py_None, *limits_obj = Py_None;
  const char *package = NULL;
  int final = 0, ordered = 0;
  fbe_limits limits;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Ozpp$O", names, &core, &handler, &package, &final, &ordered,
                                   &limits_obj) ||
      pf_limits_from(limits_obj, &limits))
    return NULL;
  if (handler != Py_None && !PyCallable_Check(handler))
    return PyErr_Format(PyExc_TypeError, "handler must be callable or None");
  pf_engine *e = engine_new(tp, core, handler == Py_None ? NULL : handler);
  if (!e) return NULL;
  e->ordered = ordered;
  e->engine = fbe_receiver_new(((pf_core *)core)->schema, package, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                               &limits, handler_call, e);
  return engine_made(e, package);
}

/* feed(data) -> list | None: takes the next bytes of the stream (any chunk size). With
 * a handler, calls it per message and returns None; without, returns the messages. */
static PyObject *receiver_feed(PyObject *o, PyObject *data) {
  pf_engine *e = (pf_engine *)o;
  Py_buffer view;
  if (e->busy) return refused("Receiver.feed called again while feeding");
  if (pf_get_data(data, &view)) return NULL;
  if (!e->callback && !(e->collected = PyList_New(0))) {
    PyBuffer_Release(&view);
    return NULL;
  }
  fbe_error err;
  e->busy = 1;
  fbe_status st = fbe_receiver_feed(e->engine, view.buf, (size_t)view.len, &err);
  e->busy = 0;
  PyBuffer_Release(&view);
  PyObject *got = e->collected;
  e->collected = NULL;
  if (st == FBE_OK) {
    if (got) return got;
    Py_RETURN_NONE;
  }
  if (!PyErr_Occurred()) pf_raise(&err);
  if (got) { /* what arrived before the failure */
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value && PyObject_SetAttrString(value, "received", got)) PyErr_Clear();
    PyErr_Restore(type, value, tb);
    Py_DECREF(got);
  }
  return NULL;
}

static PyObject *receiver_reset(PyObject *o, PyObject *unused) {
  (void)unused;
  if (((pf_engine *)o)->busy) return refused("Receiver.reset called while feeding");
  fbe_receiver_reset(((pf_engine *)o)->engine);
  Py_RETURN_NONE;
}

static PyMethodDef receiver_methods[] = {
    {"feed", receiver_feed, METH_O, "feed(data) -> list of messages (no handler) or None"},
    {"reset", receiver_reset, METH_NOARGS, "drops a partial frame"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef receiver_getset[] = {
    {"pending", engine_count, NULL, "bytes of an incomplete frame held for the next feed", (void *)1},
    {"received", engine_count, NULL, "messages delivered so far", (void *)2},
    {"skipped", engine_count, NULL, "frames skipped: type id unknown to the protocol", (void *)3},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pf_receiver_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.ReceiverEngine",
    .tp_doc = "ReceiverEngine(core, handler=None, package=None, final=False, ordered=False, *, limits=None)",
    .tp_basicsize = sizeof(pf_engine),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = receiver_new,
    .tp_traverse = engine_traverse,
    .tp_clear = engine_clear,
    .tp_dealloc = engine_dealloc,
    .tp_methods = receiver_methods,
    .tp_getset = receiver_getset,
};

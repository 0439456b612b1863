/* Sender and receiver engines over the core's protocol (fbe/protocol.h). The Python
 * classes fbe.Sender / fbe.Receiver (fbe/_protocol.py) wrap them with the sink and
 * source conveniences (callables, file-like objects). */
#include <string.h>
#include "pyfbe.h"

/* The struct of `obj`'s class in `core` (by name when the class comes from another
 * load of the schema). NULL with an exception set when none. */
static pf_struct *struct_in_core(pf_core *core, PyObject *obj) {
  pf_struct *si = pf_info_of(Py_TYPE(obj));
  if (si && si->core == core) return si;
  if (si) {
    const fbe_struct *st = fbe_schema_find_struct(core->schema, si->st->full_name);
    pf_struct *mine = st ? pf_core_find(core, st) : NULL;
    if (mine) return mine;
  }
  char msg[200];
  snprintf(msg, sizeof msg, "expected a message of the schema, got %.80s", Py_TYPE(obj)->tp_name);
  pf_raise(FBE_ERR_TYPE, msg, "", FBE_NO_OFFSET);
  return NULL;
}

static pf_core *core_arg(PyObject *o) {
  if (!Py_IS_TYPE(o, &pf_core_type)) {
    PyErr_SetString(PyExc_TypeError, "expected a SchemaCore");
    return NULL;
  }
  return (pf_core *)o;
}

/* ------------------------------------------------------------------ sender */

typedef struct pf_sender {
  PyObject_HEAD
  fbe_sender *snd;
  PyObject *core;
  PyObject *sink; /* callable taking bytes */
  int busy;
} pf_sender;

static int sink_call(void *ctx, const uint8_t *data, size_t size) {
  pf_sender *s = ctx;
  PyObject *b = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)size);
  if (!b) return 1;
  PyObject *r = PyObject_CallOneArg(s->sink, b);
  Py_DECREF(b);
  if (!r) return 1; /* the exception stays pending: send() raises it */
  Py_DECREF(r);
  return 0;
}

static PyObject *sender_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
  static char *names[] = {"core", "sink", "package", "final", NULL};
  PyObject *core_obj, *sink;
  const char *package = NULL;
  int final = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|zp", names, &core_obj, &sink, &package, &final))
    return NULL;
  pf_core *core = core_arg(core_obj);
  if (!core) return NULL;
  if (!PyCallable_Check(sink)) {
    PyErr_SetString(PyExc_TypeError, "sink must be callable");
    return NULL;
  }
  pf_sender *self = (pf_sender *)tp->tp_alloc(tp, 0);
  if (!self) return NULL;
  Py_INCREF(core_obj);
  self->core = core_obj;
  Py_INCREF(sink);
  self->sink = sink;
  self->snd = fbe_sender_new(core->schema, package, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                             sink_call, self);
  if (!self->snd) {
    char msg[160];
    snprintf(msg, sizeof msg, "no package '%.80s' in the schema", package ? package : "(root)");
    pf_raise(FBE_ERR_NOT_FOUND, msg, "", FBE_NO_OFFSET);
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

static int sender_traverse(PyObject *o, visitproc visit, void *arg) {
  pf_sender *s = (pf_sender *)o;
  Py_VISIT(s->core);
  Py_VISIT(s->sink);
  return 0;
}

static int sender_clear(PyObject *o) {
  pf_sender *s = (pf_sender *)o;
  Py_CLEAR(s->sink);
  return 0;
}

static void sender_dealloc(PyObject *o) {
  pf_sender *s = (pf_sender *)o;
  PyObject_GC_UnTrack(o);
  fbe_sender_free(s->snd);
  Py_CLEAR(s->sink);
  Py_CLEAR(s->core);
  Py_TYPE(o)->tp_free(o);
}

/* send(message) -> int: encodes one message and hands its frame to the sink; returns
 * the frame's size. */
static PyObject *sender_send(PyObject *o, PyObject *msg_obj) {
  pf_sender *s = (pf_sender *)o;
  if (s->busy) {
    PyErr_SetString(PyExc_RuntimeError, "Sender.send called again while sending (not re-entrant)");
    return NULL;
  }
  if (!s->sink) {
    PyErr_SetString(PyExc_RuntimeError, "sender is closed");
    return NULL;
  }
  pf_struct *si = struct_in_core((pf_core *)s->core, msg_obj);
  if (!si) return NULL;
  pf_scratch *scratch = pf_scratch_get();
  if (!scratch) return PyErr_NoMemory();
  pf_enc c;
  memset(&c, 0, sizeof c);
  c.s = scratch;
  c.arena = scratch->arena;
  c.err.offset = FBE_NO_OFFSET;
  PyObject *out = NULL;
  fbe_msg *m = pf_build_msg(&c, si, msg_obj);
  if (m) {
    fbe_error err;
    uint64_t before = fbe_sender_bytes(s->snd);
    s->busy = 1;
    fbe_status st = fbe_sender_send(s->snd, m, &err);
    s->busy = 0;
    if (st == FBE_OK) out = PyLong_FromUnsignedLongLong(fbe_sender_bytes(s->snd) - before);
    else if (!PyErr_Occurred()) pf_raise_fbe(&err);
  }
  pf_scratch_put(scratch);
  return out;
}

static PyObject *sender_bytes(PyObject *o, void *closure) {
  (void)closure;
  return PyLong_FromUnsignedLongLong(fbe_sender_bytes(((pf_sender *)o)->snd));
}

static PyMethodDef sender_methods[] = {
    {"send", sender_send, METH_O, "send(message) -> int: the size of the frame written"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef sender_getset[] = {
    {"bytes_sent", sender_bytes, NULL, "bytes handed to the sink so far", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pf_sender_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.SenderEngine",
    .tp_doc = "SenderEngine(core, sink, package=None, final=False)",
    .tp_basicsize = sizeof(pf_sender),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = sender_new,
    .tp_traverse = sender_traverse,
    .tp_clear = sender_clear,
    .tp_dealloc = sender_dealloc,
    .tp_methods = sender_methods,
    .tp_getset = sender_getset,
};

/* ------------------------------------------------------------------ receiver */

typedef struct pf_receiver {
  PyObject_HEAD
  fbe_receiver *rcv;
  PyObject *core;
  PyObject *handler;   /* callable or NULL: then feed() returns the messages */
  PyObject *collected; /* during feed() without a handler */
  int ordered, busy;
} pf_receiver;

static int handler_call(void *ctx, const fbe_msg *msg) {
  pf_receiver *r = ctx;
  pf_struct *si = pf_core_find((pf_core *)r->core, fbe_msg_type(msg));
  if (!si) {
    PyErr_Format(PyExc_RuntimeError, "fbe: no class for message %s", fbe_msg_type(msg)->full_name);
    return 1;
  }
  pf_dec c;
  memset(&c, 0, sizeof c);
  c.ordered = r->ordered;
  c.err.offset = FBE_NO_OFFSET;
  PyObject *obj = pf_get_struct(&c, si, si->cls, fbe_msg_data((fbe_msg *)msg));
  if (!obj) {
    if (c.err.code) pf_raise_err(&c.err);
    return 1;
  }
  int rc = 0;
  if (r->handler) {
    PyObject *res = PyObject_CallOneArg(r->handler, obj);
    if (res) Py_DECREF(res);
    else rc = 1;
  } else if (PyList_Append(r->collected, obj)) {
    rc = 1;
  }
  Py_DECREF(obj);
  return rc;
}

static PyObject *receiver_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
  static char *names[] = {"core", "handler", "package", "final", "ordered", "limits", NULL};
  PyObject *core_obj, *handler = Py_None, *limits_obj = Py_None;
  const char *package = NULL;
  int final = 0, ordered = 0;
  fbe_limits limits;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Ozpp$O", names, &core_obj, &handler, &package, &final,
                                   &ordered, &limits_obj) ||
      pf_limits_from(limits_obj, &limits))
    return NULL;
  pf_core *core = core_arg(core_obj);
  if (!core) return NULL;
  if (handler != Py_None && !PyCallable_Check(handler)) {
    PyErr_SetString(PyExc_TypeError, "handler must be callable or None");
    return NULL;
  }
  pf_receiver *self = (pf_receiver *)tp->tp_alloc(tp, 0);
  if (!self) return NULL;
  Py_INCREF(core_obj);
  self->core = core_obj;
  if (handler != Py_None) {
    Py_INCREF(handler);
    self->handler = handler;
  }
  self->ordered = ordered;
  self->rcv = fbe_receiver_new(core->schema, package, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                               &limits, handler_call, self);
  if (!self->rcv) {
    char msg[160];
    snprintf(msg, sizeof msg, "no package '%.80s' in the schema", package ? package : "(root)");
    pf_raise(FBE_ERR_NOT_FOUND, msg, "", FBE_NO_OFFSET);
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

static int receiver_traverse(PyObject *o, visitproc visit, void *arg) {
  pf_receiver *r = (pf_receiver *)o;
  Py_VISIT(r->core);
  Py_VISIT(r->handler);
  Py_VISIT(r->collected);
  return 0;
}

static int receiver_clear(PyObject *o) {
  pf_receiver *r = (pf_receiver *)o;
  Py_CLEAR(r->handler);
  Py_CLEAR(r->collected);
  return 0;
}

static void receiver_dealloc(PyObject *o) {
  pf_receiver *r = (pf_receiver *)o;
  PyObject_GC_UnTrack(o);
  fbe_receiver_free(r->rcv);
  Py_CLEAR(r->handler);
  Py_CLEAR(r->collected);
  Py_CLEAR(r->core);
  Py_TYPE(o)->tp_free(o);
}

/* feed(data) -> list | None: takes the next bytes of the stream (any chunk size). With
 * a handler, calls it per message and returns None; without, returns the messages. */
static PyObject *receiver_feed(PyObject *o, PyObject *data) {
  pf_receiver *r = (pf_receiver *)o;
  if (r->busy) {
    PyErr_SetString(PyExc_RuntimeError, "Receiver.feed called again while feeding (not re-entrant)");
    return NULL;
  }
  Py_buffer view;
  if (PyUnicode_Check(data) || PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
    PyErr_Clear();
    char msg[160];
    snprintf(msg, sizeof msg, "expected bytes, bytearray or memoryview, got %.80s",
             Py_TYPE(data)->tp_name);
    pf_raise(FBE_ERR_TYPE, msg, "", FBE_NO_OFFSET);
    return NULL;
  }
  if (!r->handler && !(r->collected = PyList_New(0))) {
    PyBuffer_Release(&view);
    return NULL;
  }
  fbe_error err;
  r->busy = 1;
  fbe_status st = fbe_receiver_feed(r->rcv, view.buf, (size_t)view.len, &err);
  r->busy = 0;
  PyBuffer_Release(&view);
  PyObject *got = r->collected;
  r->collected = NULL;
  if (st == FBE_OK) {
    if (got) return got;
    Py_RETURN_NONE;
  }
  if (!PyErr_Occurred()) pf_raise_fbe(&err);
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
  pf_receiver *r = (pf_receiver *)o;
  if (r->busy) {
    PyErr_SetString(PyExc_RuntimeError, "Receiver.reset called while feeding");
    return NULL;
  }
  fbe_receiver_reset(r->rcv);
  Py_RETURN_NONE;
}

static PyObject *receiver_pending(PyObject *o, void *c) {
  (void)c;
  return PyLong_FromSize_t(fbe_receiver_pending(((pf_receiver *)o)->rcv));
}
static PyObject *receiver_received(PyObject *o, void *c) {
  (void)c;
  return PyLong_FromUnsignedLongLong(fbe_receiver_received(((pf_receiver *)o)->rcv));
}
static PyObject *receiver_skipped(PyObject *o, void *c) {
  (void)c;
  return PyLong_FromUnsignedLongLong(fbe_receiver_skipped(((pf_receiver *)o)->rcv));
}

static PyMethodDef receiver_methods[] = {
    {"feed", receiver_feed, METH_O, "feed(data) -> list of messages (no handler) or None"},
    {"reset", receiver_reset, METH_NOARGS, "drops a partial frame"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef receiver_getset[] = {
    {"pending", receiver_pending, NULL, "bytes of an incomplete frame held for the next feed", NULL},
    {"received", receiver_received, NULL, "messages delivered so far", NULL},
    {"skipped", receiver_skipped, NULL, "frames skipped: type id unknown to the protocol", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pf_receiver_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.ReceiverEngine",
    .tp_doc = "ReceiverEngine(core, handler=None, package=None, final=False, ordered=False, *, limits=None)",
    .tp_basicsize = sizeof(pf_receiver),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = receiver_new,
    .tp_traverse = receiver_traverse,
    .tp_clear = receiver_clear,
    .tp_dealloc = receiver_dealloc,
    .tp_methods = receiver_methods,
    .tp_getset = receiver_getset,
};

int pf_protocol_init(PyObject *m) {
  if (PyType_Ready(&pf_sender_type) < 0 || PyType_Ready(&pf_receiver_type) < 0) return -1;
  Py_INCREF(&pf_sender_type);
  if (PyModule_AddObject(m, "SenderEngine", (PyObject *)&pf_sender_type) < 0) return -1;
  Py_INCREF(&pf_receiver_type);
  if (PyModule_AddObject(m, "ReceiverEngine", (PyObject *)&pf_receiver_type) < 0) return -1;
  return 0;
}

/* Sender, receiver and proxy engines over the core's protocol (fbe/protocol.h). The
 * Python classes fbe.Sender / fbe.Receiver / fbe.Proxy (fbe/_protocol.py) and the
 * server (fbe/_client.py) wrap them with the sink and source conveniences (callables,
 * file-like objects, streams). All have one shape: the core's engine, the SchemaCore,
 * the Python callable the engine calls, an optional log hook (the core's text form of
 * every message, FORMAT.md 9.5), and a busy flag that refuses a call from inside those
 * callables. A log hook cannot stop the core: its exception goes to
 * sys.unraisablehook (the message was sent or received all the same). */
#include "binding.h"

typedef struct pf_engine {
  PyObject_HEAD
  void *engine;        /* fbe_sender * or fbe_receiver * */
  PyObject *core;      /* the SchemaCore */
  PyObject *callback;  /* the sink (bytes), or the handler (NULL: feed() returns the messages) */
  PyObject *collected; /* during feed() without a handler */
  PyObject *log;       /* log(direction, text), or NULL */
  int ordered, busy;
} pf_engine;

static PyObject *str_send, *str_receive;

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
  Py_VISIT(((pf_engine *)o)->log);
  return 0;
}

static int engine_clear(PyObject *o) {
  Py_CLEAR(((pf_engine *)o)->callback);
  Py_CLEAR(((pf_engine *)o)->collected);
  Py_CLEAR(((pf_engine *)o)->log);
  return 0;
}

/* ------------------------------------------------------------------ log hooks */

/* log(direction, text) with the core's text form; its exception goes to sys.unraisablehook. */
static void log_call(pf_engine *e, PyObject *direction, const char *text, size_t size) {
  PyObject *fn = e->log;
  if (!fn) return;
  PyObject *saved_type, *saved_value, *saved_tb;
  PyErr_Fetch(&saved_type, &saved_value, &saved_tb);
  PyObject *s = PyUnicode_DecodeUTF8(text, (Py_ssize_t)size, "replace"), *r = NULL;
  Py_INCREF(fn);
  if (s) {
    PyObject *args[] = {direction, s};
    r = PyObject_Vectorcall(fn, args, 2, NULL);
  }
  if (PyErr_Occurred()) PyErr_WriteUnraisable(fn);
  Py_DECREF(fn);
  Py_XDECREF(s);
  Py_XDECREF(r);
  PyErr_Restore(saved_type, saved_value, saved_tb);
}

static void send_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  log_call(ctx, str_send, text, size);
}

static void receive_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  log_call(ctx, str_receive, text, size);
}

/* set_log(fn): fn(direction, text) per message sent ("send") or received ("receive"),
 * the core's text form; None: off. */
static PyObject *engine_set_log(PyObject *o, PyObject *fn) {
  pf_engine *e = (pf_engine *)o;
  if (fn != Py_None && !PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "log must be callable or None");
  if (!str_send && (!(str_send = PyUnicode_InternFromString("send")) ||
                    !(str_receive = PyUnicode_InternFromString("receive"))))
    return NULL;
  Py_XINCREF(fn == Py_None ? NULL : fn);
  Py_XSETREF(e->log, fn == Py_None ? NULL : fn);
  if (Py_IS_TYPE(o, &pf_sender_type)) fbe_sender_set_log(e->engine, e->log ? send_log : NULL, e);
  else fbe_receiver_set_log(e->engine, e->log ? receive_log : NULL, e);
  Py_RETURN_NONE;
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

/* Sends a built message through the engine (busy meanwhile: the sink may call back);
 * the size of the frame, or NULL with the core's error (or the sink's) raised. */
static PyObject *engine_send(pf_engine *e, fbe_msg *m) {
  fbe_error err;
  uint64_t before = fbe_sender_bytes(e->engine);
  e->busy = 1;
  fbe_status st = fbe_sender_send(e->engine, m, &err);
  e->busy = 0;
  if (st == FBE_OK) return PyLong_FromUnsignedLongLong(fbe_sender_bytes(e->engine) - before);
  if (!PyErr_Occurred()) pf_raise(&err);
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
  if (m) out = engine_send(e, m);
  pf_give(s);
  return out;
}

/* reply(request, reply) -> int: makes reply an answer to request (the core's
 * fbe_reply_prepare: reply's type must be request's response or one of its rejects,
 * and its id becomes the request's, on the Python object too), then sends it; the size
 * of the frame. */
static PyObject *sender_reply(PyObject *o, PyObject *const *args, Py_ssize_t nargs) {
  pf_engine *e = (pf_engine *)o;
  if (nargs != 2) return PyErr_Format(PyExc_TypeError, "reply(request, reply) takes 2 arguments");
  if (e->busy) return refused("Sender.reply called again while sending");
  if (!e->callback) return PyErr_Format(PyExc_RuntimeError, "sender is closed");
  pf_core *core = (pf_core *)e->core;
  pf_struct *qi = struct_in_core(core, args[0]), *ri = qi ? struct_in_core(core, args[1]) : NULL;
  fbei_scratch *s = ri ? pf_take() : NULL;
  if (!s) return NULL;
  pf_enc c;
  pf_enc_init(&c, s);
  PyObject *out = NULL;
  fbe_msg *request = pf_build_msg(&c, qi, args[0]), *reply = request ? pf_build_msg(&c, ri, args[1]) : NULL;
  fbe_error err;
  if (reply && fbe_reply_prepare(request, reply, &err)) {
    pf_raise(&err);
  } else if (reply) { /* the id the core set, onto the Python reply */
    const fbe_field *f = fbe_struct_field(ri->st, "id");
    const pf_field *pf = &ri->fields[fbe_field_index(f)];
    pf_dec d = {0};
    PyObject *id = pf_get_value(&d, pf->type, (const uint8_t *)fbei_msg_data(reply) + f->mem_offset);
    if (!id && d.err.code) pf_raise(&d.err);
    int rc = id ? PyObject_SetItem(args[1], pf->name, id) : -1;
    Py_XDECREF(id);
    if (rc == 0) out = engine_send(e, reply);
  }
  pf_give(s);
  return out;
}

/* reply_kind(request_cls, reply_cls) -> int: the core's fbe_reply_kind (1: the
 * request's response, 2: one of its rejects, 0: neither). */
static PyObject *mod_reply_kind(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2) return PyErr_Format(PyExc_TypeError, "reply_kind(request_cls, reply_cls) takes 2 arguments");
  pf_struct *qi = PyType_Check(args[0]) ? pf_info_of((PyTypeObject *)args[0]) : NULL;
  pf_struct *ri = PyType_Check(args[1]) ? pf_info_of((PyTypeObject *)args[1]) : NULL;
  if (!qi || !ri) return PyErr_Format(PyExc_TypeError, "reply_kind takes two struct classes of a loaded schema");
  const fbe_struct *rst = ri->st;
  if (ri->core != qi->core) rst = fbe_schema_find_struct(qi->core->schema, ri->st->full_name);
  return PyLong_FromLong(rst ? fbe_reply_kind(qi->st, rst, NULL) : 0);
}

PyMethodDef pf_protocol_methods[] = {
    {"reply_kind", (PyCFunction)(void (*)(void))mod_reply_kind, METH_FASTCALL,
     "reply_kind(request_cls, reply_cls) -> int: 1 response, 2 reject, 0 neither (the core's fbe_reply_kind)"},
    {NULL, NULL, 0, NULL}};

static PyMethodDef sender_methods[] = {
    {"send", sender_send, METH_O, "send(message) -> int: the size of the frame written"},
    {"reply", (PyCFunction)(void (*)(void))sender_reply, METH_FASTCALL,
     "reply(request, reply) -> int: reply made the request's answer by the core, then sent"},
    {"set_log", engine_set_log, METH_O, "set_log(fn): fn(\"send\", text) per message sent; None: off"},
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

/* A proxy's frame: handler(type_id, cls or None, frame bytes), or a tuple of them
 * collected. */
static int frame_call(void *ctx, uint32_t type_id, const fbe_struct *type, const uint8_t *frame, size_t size) {
  pf_engine *e = ctx;
  PyObject *cls = type ? (PyObject *)((pf_core *)e->core)->structs[fbe_struct_index(type)].cls : Py_None;
  if (!cls) cls = Py_None;
  PyObject *tuple = Py_BuildValue("(kOy#)", (unsigned long)type_id, cls, (const char *)frame, (Py_ssize_t)size);
  int rc = !tuple;
  if (tuple && e->callback) {
    PyObject *fn = e->callback, *res;
    Py_INCREF(fn);
    res = PyObject_Call(fn, tuple, NULL);
    Py_DECREF(fn);
    rc = !res;
    Py_XDECREF(res);
  } else if (tuple) {
    rc = PyList_Append(e->collected, tuple) != 0;
  }
  Py_XDECREF(tuple);
  return rc;
}

static int handler_call(void *ctx, const fbe_msg *msg) {
  pf_engine *e = ctx;
  pf_struct *si = &((pf_core *)e->core)->structs[fbe_struct_index(fbe_msg_type(msg))];
  PyObject *obj = pf_message_object(si, si->cls, msg, e->ordered), *res = NULL;
  int rc = !obj;
  if (obj && e->callback) {
    PyObject *fn = e->callback; /* (held: the handler may replace itself) */
    Py_INCREF(fn);
    rc = !(res = PyObject_CallOneArg(fn, obj));
    Py_DECREF(fn);
  }
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
    {"set_log", engine_set_log, METH_O, "set_log(fn): fn(\"receive\", text) per message received; None: off"},
    {NULL, NULL, 0, NULL}};

static PyMethodDef proxy_methods[] = {
    {"feed", receiver_feed, METH_O, "feed(data) -> list of (type_id, cls, frame) (no handler) or None"},
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

/* ------------------------------------------------------------------ proxy */

static PyObject *proxy_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
  static char *names[] = {"core", "handler", "package", "final", "verify", "limits", NULL};
  PyObject *core, *handler = Py_None, *limits_obj = Py_None;
  const char *package = NULL;
  int final = 0, verify = 0;
  fbe_limits limits;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Ozpp$O", names, &core, &handler, &package, &final, &verify,
                                   &limits_obj) ||
      pf_limits_from(limits_obj, &limits))
    return NULL;
  if (handler != Py_None && !PyCallable_Check(handler))
    return PyErr_Format(PyExc_TypeError, "handler must be callable or None");
  pf_engine *e = engine_new(tp, core, handler == Py_None ? NULL : handler);
  if (!e) return NULL;
  e->engine = fbe_proxy_new(((pf_core *)core)->schema, package, final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                            &limits, verify, frame_call, e);
  return engine_made(e, package);
}

PyTypeObject pf_proxy_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.ProxyEngine",
    .tp_doc = "ProxyEngine(core, handler=None, package=None, final=False, verify=False, *, limits=None)",
    .tp_basicsize = sizeof(pf_engine),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = proxy_new,
    .tp_traverse = engine_traverse,
    .tp_clear = engine_clear,
    .tp_dealloc = engine_dealloc,
    .tp_methods = proxy_methods,
    .tp_getset = receiver_getset,
};

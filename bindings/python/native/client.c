/* The client engine over the core's fbe_client (fbe/client.h; docs/CLIENT.md), under
 * fbe.Client and fbe.AsyncClient (fbe/_client.py). Everything a request is (matched by
 * its id, rejected, timed out, reset, refused) is the core's: this file converts
 * messages and errors, calls the Python callables the core's callbacks stand for, and
 * keeps the native state alive and consistent under whatever those callables do.
 *
 * The Python callables: sink(bytes) takes what the client sends; done(token, end, msg,
 * error) hears how each request ended (end: the core's fbe_request_end; msg the
 * response or the reject as a Python object, or None; error the fbe exception, or
 * None); notify(msg) gets every other message received; log(direction, text) the
 * text form of every message sent ("send") and received ("receive").
 *
 * What runs while a callable runs (from inside it, on the same thread):
 *   request, send         allowed, except from the sink or the send log (the sender
 *                         is in the middle of a frame)
 *   feed                  allowed from the sink (a response may come back inside the
 *                         send); from inside a feed the core refuses it
 *   watchdog              allowed
 *   reset                 refused inside a feed (the receiver is in the middle of it)
 *   close                 deferred: done when the outermost running call returns
 * A call from another thread while one runs is refused (fbe.Client holds a lock).
 * Exceptions of done and log (which cannot stop the core) go to sys.unraisablehook;
 * those of the sink and notify stop the send or the feed and are raised by it, as a
 * Sender's and a Receiver's. */
#include "binding.h"
#include "pythread.h"

typedef struct pf_client {
  PyObject_HEAD
  fbe_client *client;   /* NULL once closed */
  PyObject *core;       /* the SchemaCore */
  PyObject *sink, *done, *notify, *log;
  int ordered;
  int calls;            /* native calls running, nested ones included */
  int sending;          /* inside the sink or the send log */
  int feeding;
  int close_pending;    /* close() asked while a call ran */
  unsigned long thread; /* the thread of the running calls */
} pf_client;

static PyObject *str_send, *str_receive;

/* ------------------------------------------------------------------ calls */

static PyObject *refused(const char *what) { return PyErr_Format(PyExc_RuntimeError, "%s", what); }

/* Starts a call; -1 with the error raised when the client cannot take one. */
static int enter(pf_client *c, int sends) {
  if (!c->client || c->close_pending) {
    refused(c->client ? "the client is closing" : "the client is closed");
    return -1;
  }
  unsigned long me = PyThread_get_thread_ident();
  if (c->calls && c->thread != me) {
    refused("the client is in a call on another thread (fbe.Client serializes its calls with a lock)");
    return -1;
  }
  if (sends && c->sending) {
    refused("the client is sending: its sink and send log cannot send (not re-entrant)");
    return -1;
  }
  c->calls++;
  c->thread = me;
  return 0;
}

static void free_client(pf_client *c);

/* Ends a call (and closes when close() was asked meanwhile). Returns result. */
static PyObject *leave(pf_client *c, PyObject *result) {
  if (c->calls == 1 && c->close_pending && c->client) {
    fbe_client_reset(c->client); /* (new requests from its callbacks are refused: closing) */
    free_client(c);
  }
  c->calls--;
  return result;
}

/* The pending exception of a callable that cannot stop the core (done, log): reported
 * to sys.unraisablehook, as Python reports the errors of callbacks nobody returns to. */
static void report(void) { PyErr_WriteUnraisable(NULL); }

/* fn(args...) with fn held for the call (the callable may replace itself). */
static PyObject *call(PyObject *fn, PyObject *const *args, size_t n) {
  Py_INCREF(fn);
  PyObject *r = PyObject_Vectorcall(fn, args, n, NULL);
  Py_DECREF(fn);
  return r;
}

/* The Python object of a received message, or NULL with the error raised. */
static PyObject *message(pf_client *c, const fbe_msg *msg) {
  pf_struct *si = &((pf_core *)c->core)->structs[fbe_struct_index(fbe_msg_type(msg))];
  return pf_message_object(si, si->cls, msg, c->ordered);
}

/* ------------------------------------------------------------------ the core's callbacks */

static int on_sink(void *ctx, const uint8_t *data, size_t size) {
  pf_client *c = ctx;
  if (PyErr_Occurred() || !c->sink) return 1;
  PyObject *b = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)size), *r = NULL;
  if (b) {
    c->sending++;
    r = call(c->sink, &b, 1);
    c->sending--;
  }
  Py_XDECREF(b);
  Py_XDECREF(r);
  return r ? 0 : 1; /* the exception stays pending: the call raises it */
}

static void on_done(void *ctx, uint64_t token, fbe_request_end end, const fbe_msg *msg, const fbe_error *err) {
  pf_client *c = ctx;
  if (!c->done) return;
  PyObject *saved_type, *saved_value, *saved_tb; /* (a sink's pending error waits) */
  PyErr_Fetch(&saved_type, &saved_value, &saved_tb);
  PyObject *m = msg ? message(c, msg) : (Py_INCREF(Py_None), Py_None);
  PyObject *e = NULL;
  int how = (int)end;
  if (!m) { /* the message could not be made: the request ends with why */
    PyObject *type, *tb;
    PyErr_Fetch(&type, &e, &tb);
    PyErr_NormalizeException(&type, &e, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    Py_INCREF(Py_None);
    m = Py_None;
    how = FBE_REQUEST_RESET + 1; /* "failed" (fbe/_client.py FAILED): no status of the core */
  } else if (err) {
    e = pf_exception(err);
  } else {
    Py_INCREF(Py_None);
    e = Py_None;
  }
  PyObject *t = PyLong_FromUnsignedLongLong(token), *k = PyLong_FromLong(how);
  if (t && k && e) {
    PyObject *args[] = {t, k, m, e};
    PyObject *r = call(c->done, args, 4);
    Py_XDECREF(r);
  }
  if (PyErr_Occurred()) report();
  Py_XDECREF(t);
  Py_XDECREF(k);
  Py_XDECREF(m);
  Py_XDECREF(e);
  PyErr_Restore(saved_type, saved_value, saved_tb);
}

static int on_notify(void *ctx, const fbe_msg *msg) {
  pf_client *c = ctx;
  if (!c->notify) return 0;
  PyObject *m = message(c, msg), *r = NULL;
  if (m) r = call(c->notify, &m, 1);
  Py_XDECREF(m);
  Py_XDECREF(r);
  return r ? 0 : 1; /* stops the feed, which raises it */
}

static void on_log(pf_client *c, PyObject *direction, const char *text, size_t size) {
  if (!c->log) return;
  PyObject *saved_type, *saved_value, *saved_tb;
  PyErr_Fetch(&saved_type, &saved_value, &saved_tb);
  PyObject *s = PyUnicode_DecodeUTF8(text, (Py_ssize_t)size, "replace"), *r = NULL;
  if (s) {
    PyObject *args[] = {direction, s};
    r = call(c->log, args, 2);
  }
  Py_XDECREF(s);
  Py_XDECREF(r);
  if (PyErr_Occurred()) report();
  PyErr_Restore(saved_type, saved_value, saved_tb);
}

static void on_send_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  pf_client *c = ctx;
  c->sending++;
  on_log(c, str_send, text, size);
  c->sending--;
}

static void on_receive_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  (void)msg;
  on_log(ctx, str_receive, text, size);
}

/* ------------------------------------------------------------------ the type */

static PyObject *client_new(PyTypeObject *tp, PyObject *args, PyObject *kw) {
  static char *names[] = {"core", "sink", "done", "notify", "package", "final", "max_pending", "limits", "ordered",
                          NULL};
  PyObject *core, *sink, *done, *notify = Py_None, *limits_obj = Py_None;
  const char *package = NULL;
  int final = 0, ordered = 0;
  Py_ssize_t max_pending = 0;
  fbe_limits limits;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!OO|Ozp$nOp", names, &pf_core_type, &core, &sink, &done, &notify,
                                   &package, &final, &max_pending, &limits_obj, &ordered) ||
      pf_limits_from(limits_obj, &limits))
    return NULL;
  if (!PyCallable_Check(sink) || !PyCallable_Check(done) || (notify != Py_None && !PyCallable_Check(notify)))
    return PyErr_Format(PyExc_TypeError, "sink and done must be callable, notify callable or None");
  if (max_pending < 0) {
    pf_raisef(FBE_ERR_RANGE, "max_pending must be 0 (the default, %u) or more, not %zd", FBE_DEFAULT_MAX_PENDING,
              max_pending);
    return NULL;
  }
  if (!str_send && (!(str_send = PyUnicode_InternFromString("send")) ||
                    !(str_receive = PyUnicode_InternFromString("receive"))))
    return NULL;
  pf_client *c = (pf_client *)tp->tp_alloc(tp, 0);
  if (!c) return NULL;
  Py_INCREF(core);
  c->core = core;
  Py_INCREF(sink);
  c->sink = sink;
  Py_INCREF(done);
  c->done = done;
  if (notify != Py_None) {
    Py_INCREF(notify);
    c->notify = notify;
  }
  c->ordered = ordered;
  fbe_client_options o = {final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, &limits, (size_t)max_pending, on_sink, c,
                          on_done, on_notify, c};
  fbe_error err;
  if (!(c->client = fbe_client_new(((pf_core *)core)->schema, package, &o, &err))) {
    pf_raise(&err);
    Py_DECREF(c);
    return NULL;
  }
  return (PyObject *)c;
}

static void free_client(pf_client *c) {
  fbe_client_free(c->client); /* (pending requests dropped without callbacks) */
  c->client = NULL;
  c->close_pending = 0;
}

static int client_traverse(PyObject *o, visitproc visit, void *arg) {
  pf_client *c = (pf_client *)o;
  Py_VISIT(c->core);
  Py_VISIT(c->sink);
  Py_VISIT(c->done);
  Py_VISIT(c->notify);
  Py_VISIT(c->log);
  return 0;
}

/* (The core's pointer to the client stays valid: the callbacks then find no callable
 * and do nothing, which only a cycle being collected can see.) */
static int client_clear(PyObject *o) {
  pf_client *c = (pf_client *)o;
  Py_CLEAR(c->sink);
  Py_CLEAR(c->done);
  Py_CLEAR(c->notify);
  Py_CLEAR(c->log);
  return 0;
}

static void client_dealloc(PyObject *o) {
  pf_client *c = (pf_client *)o;
  PyObject_GC_UnTrack(o);
  if (c->client) free_client(c);
  client_clear(o);
  Py_CLEAR(c->core);
  Py_TYPE(o)->tp_free(o);
}

/* The message of obj, in the scratch's arena; NULL with the error raised. */
static fbe_msg *build(pf_client *c, PyObject *obj, fbei_scratch **s) {
  pf_core *core = (pf_core *)c->core;
  pf_struct *si = pf_info_of(Py_TYPE(obj));
  const fbe_struct *st = si && si->core != core ? fbe_schema_find_struct(core->schema, si->st->full_name) : NULL;
  if (st) si = &core->structs[fbe_struct_index(st)];
  if (!si || si->core != core) {
    pf_raisef(FBE_ERR_TYPE, "expected a message of the schema, got %.80s", Py_TYPE(obj)->tp_name);
    return NULL;
  }
  if (!(*s = pf_take())) return NULL;
  pf_enc e;
  pf_enc_init(&e, *s);
  fbe_msg *m = pf_build_msg(&e, si, obj);
  if (!m) {
    pf_give(*s);
    *s = NULL;
  }
  return m;
}

static int u64_of(PyObject *o, const char *what, uint64_t *out) {
  *out = PyLong_AsUnsignedLongLong(o);
  if (*out == (uint64_t)-1 && PyErr_Occurred()) {
    if (PyErr_ExceptionMatches(PyExc_OverflowError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      pf_raisef(FBE_ERR_RANGE, "%s must be an int from 0 to 2**64 - 1", what);
    }
    return -1;
  }
  return 0;
}

/* request(message, timeout_ns, now, token): fbe_client_request. */
static PyObject *client_request(PyObject *o, PyObject *const *args, Py_ssize_t nargs) {
  pf_client *c = (pf_client *)o;
  uint64_t timeout, now, token;
  if (nargs != 4) return PyErr_Format(PyExc_TypeError, "request(message, timeout_ns, now, token)");
  if (u64_of(args[1], "timeout", &timeout) || u64_of(args[2], "now", &now) || u64_of(args[3], "token", &token) ||
      enter(c, 1))
    return NULL;
  fbei_scratch *s = NULL;
  fbe_msg *m = build(c, args[0], &s);
  PyObject *out = NULL;
  if (m) {
    fbe_error err;
    fbe_status st = fbe_client_request(c->client, m, timeout, now, token, &err);
    if (st == FBE_OK) out = (Py_INCREF(Py_None), Py_None);
    else if (!PyErr_Occurred()) pf_raise(&err);
    pf_give(s);
  }
  return leave(c, out);
}

/* send(message) -> int: fbe_client_send; the size of the frame. */
static PyObject *client_send(PyObject *o, PyObject *msg) {
  pf_client *c = (pf_client *)o;
  if (enter(c, 1)) return NULL;
  fbei_scratch *s = NULL;
  fbe_msg *m = build(c, msg, &s);
  PyObject *out = NULL;
  if (m) {
    fbe_error err;
    uint64_t before = fbe_sender_bytes(fbe_client_sender(c->client));
    fbe_status st = fbe_client_send(c->client, m, &err);
    if (st == FBE_OK) out = PyLong_FromUnsignedLongLong(fbe_sender_bytes(fbe_client_sender(c->client)) - before);
    else if (!PyErr_Occurred()) pf_raise(&err);
    pf_give(s);
  }
  return leave(c, out);
}

/* feed(data): fbe_client_feed. A bad frame raises the core's error; the requests and
 * notifications before it were delivered. */
static PyObject *client_feed(PyObject *o, PyObject *data) {
  pf_client *c = (pf_client *)o;
  Py_buffer view;
  if (pf_get_data(data, &view)) return NULL;
  if (enter(c, 0)) {
    PyBuffer_Release(&view);
    return NULL;
  }
  fbe_error err;
  c->feeding++;
  fbe_status st = fbe_client_feed(c->client, view.buf, (size_t)view.len, &err);
  c->feeding--;
  PyBuffer_Release(&view);
  PyObject *out = NULL;
  if (st == FBE_OK) out = (Py_INCREF(Py_None), Py_None);
  else if (!PyErr_Occurred()) pf_raise(&err);
  return leave(c, out);
}

/* watchdog(now) -> int: fbe_client_watchdog, how many requests timed out. */
static PyObject *client_watchdog(PyObject *o, PyObject *now_obj) {
  pf_client *c = (pf_client *)o;
  uint64_t now;
  if (u64_of(now_obj, "now", &now) || enter(c, 0)) return NULL;
  size_t n = fbe_client_watchdog(c->client, now);
  return leave(c, PyLong_FromSize_t(n));
}

/* reset(): fbe_client_reset. */
static PyObject *client_reset(PyObject *o, PyObject *unused) {
  (void)unused;
  pf_client *c = (pf_client *)o;
  if (c->client && c->feeding) return refused("the client is feeding: reset() from its callbacks is refused (not re-entrant)");
  if (enter(c, 0)) return NULL;
  fbe_client_reset(c->client);
  return leave(c, (Py_INCREF(Py_None), Py_None));
}

/* close() -> bool: every pending request reset (fbe_client_reset), then the client
 * freed; when a call is running (close from one of its callbacks), that happens when
 * the outermost one returns, and close() returns False. Closing again does nothing. */
static PyObject *client_close(PyObject *o, PyObject *unused) {
  (void)unused;
  pf_client *c = (pf_client *)o;
  if (!c->client) Py_RETURN_TRUE;
  c->close_pending = 1;
  if (c->calls) Py_RETURN_FALSE;
  c->calls++;
  c->thread = PyThread_get_thread_ident();
  return leave(c, (Py_INCREF(Py_True), Py_True)); /* resets and frees */
}

/* set_log(fn): fn(direction, text) for every message sent ("send") and received
 * ("receive"), the core's text form; None: off. */
static PyObject *client_set_log(PyObject *o, PyObject *fn) {
  pf_client *c = (pf_client *)o;
  if (fn != Py_None && !PyCallable_Check(fn)) return PyErr_Format(PyExc_TypeError, "log must be callable or None");
  if (!c->client) return refused("the client is closed");
  Py_XINCREF(fn == Py_None ? NULL : fn);
  Py_XSETREF(c->log, fn == Py_None ? NULL : fn);
  fbe_sender_set_log(fbe_client_sender(c->client), c->log ? on_send_log : NULL, c);
  fbe_receiver_set_log(fbe_client_receiver(c->client), c->log ? on_receive_log : NULL, c);
  Py_RETURN_NONE;
}

static PyObject *client_get(PyObject *o, void *which) {
  pf_client *c = (pf_client *)o;
  switch ((intptr_t)which) {
    case 0: return PyBool_FromLong(!c->client);
    case 1: return PyLong_FromSize_t(fbe_client_pending(c->client));
    case 2: {
      uint64_t next = c->client ? fbe_client_next_deadline(c->client) : UINT64_MAX;
      if (next == UINT64_MAX) Py_RETURN_NONE;
      return PyLong_FromUnsignedLongLong(next);
    }
    case 3: return PyLong_FromUnsignedLongLong(fbe_sender_bytes(fbe_client_sender(c->client)));
    case 4: return PyLong_FromUnsignedLongLong(fbe_receiver_received(fbe_client_receiver(c->client)));
    case 5: return PyLong_FromUnsignedLongLong(fbe_receiver_skipped(fbe_client_receiver(c->client)));
    default: return PyBool_FromLong(c->calls > 0);
  }
}

static PyMethodDef client_methods[] = {
    {"request", (PyCFunction)(void (*)(void))client_request, METH_FASTCALL,
     "request(message, timeout_ns, now, token): the core's fbe_client_request"},
    {"send", client_send, METH_O, "send(message) -> int: the size of the frame sent"},
    {"feed", client_feed, METH_O, "feed(data): received bytes, in chunks of any size"},
    {"watchdog", client_watchdog, METH_O, "watchdog(now) -> int: requests timed out"},
    {"reset", client_reset, METH_NOARGS, "reset(): every pending request ends as reset"},
    {"close", client_close, METH_NOARGS, "close() -> bool: reset, then freed (False: when the running call returns)"},
    {"set_log", client_set_log, METH_O, "set_log(fn): fn(direction, text) per message sent and received"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef client_getset[] = {
    {"closed", client_get, NULL, "whether the client is closed", (void *)0},
    {"pending", client_get, NULL, "requests waiting for their end", (void *)1},
    {"next_deadline", client_get, NULL, "when the watchdog ends the next request (ns), or None", (void *)2},
    {"bytes_sent", client_get, NULL, "bytes handed to the sink so far", (void *)3},
    {"received", client_get, NULL, "messages received so far", (void *)4},
    {"skipped", client_get, NULL, "frames skipped: type id unknown to the protocol", (void *)5},
    {"busy", client_get, NULL, "whether a call is running", (void *)6},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pf_client_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "fbe._core.ClientEngine",
    .tp_doc = "ClientEngine(core, sink, done, notify=None, package=None, final=False, *, max_pending=0, "
              "limits=None, ordered=False)",
    .tp_basicsize = sizeof(pf_client),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = client_new,
    .tp_traverse = client_traverse,
    .tp_clear = client_clear,
    .tp_dealloc = client_dealloc,
    .tp_methods = client_methods,
    .tp_getset = client_getset,
};

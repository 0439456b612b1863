/* Request/response (docs/CLIENT.md) for org.libfbe.Client, Server and Proxy: one native
 * "peer" each, a client (the core's fbe_client), a server (a receiver of requests and a
 * sender of replies made with fbe_reply_prepare) or a proxy (fbe_proxy_new). Nothing of
 * the rules lives here: matching, rejects, timeouts, ids, the cap and what may answer
 * what are the core's; this file carries messages, bytes and events between the core
 * and Java.
 *
 * Every call that may make the core call back gets the Java objects to call: `self`
 * (the org.libfbe.Peer: written(frame) for the bytes to send, received(struct, tape,
 * slots) for a client's notification or a server's request, logged(sent, text) for a
 * log line, frame(typeId, struct, bytes) for a proxy's frame) and, for a client, `ends`
 * (its org.libfbe.Ends: ended(token, end, struct, tape, slots, error) once per request).
 * They are kept in the peer for that call only (saved and restored around nested calls:
 * a callback may call the same peer again). Those Java methods catch what user code
 * throws (Java keeps it and throws it when the call returns), so no exception unwinds
 * through the core; one that JNI itself raises (no memory for an array) is taken, the
 * core's run goes on, and it is thrown when the call returns. Each callback runs in a
 * local frame of its own (a reset may end 65,536 requests in one call).
 *
 * Java holds the peer's lock around every call here and frees it only when none runs
 * (org.libfbe.Peer). */
#include <string.h>
#include "binding.h"
#include "fbe/internal/schema_model.h" /* a request's annotations (requestInfo) */

enum { PEER_CLIENT = 0, PEER_SERVER = 1, PEER_PROXY = 2 };

typedef struct jf_peer {
  int kind;
  fbe_client *client;     /* PEER_CLIENT */
  fbe_sender *sender;     /* PEER_SERVER */
  fbe_receiver *receiver; /* PEER_SERVER: the requests; PEER_PROXY: the frames */
  /* the running call's */
  JNIEnv *env;
  jobject self, ends;
  const jf_core *core;    /* the schema's tables, for the messages handed to Java (NULL: none) */
  jthrowable raised;      /* an exception JNI raised meanwhile (a global ref), thrown when the call returns */
  fbe_error failed;       /* a received message that could not go to Java (failed.code != 0) */
  int feeding;            /* a server's or proxy's feed is running (a receiver is not re-entrant) */
  int stop;               /* a reset during a server's or proxy's feed: it stops after that message */
} jf_peer;

typedef struct call_state {
  JNIEnv *env;
  jobject self, ends;
  const jf_core *core;
  jthrowable raised;
  fbe_error failed;
} call_state;

static jf_peer *peer_of(JNIEnv *env, jlong h) {
  jf_peer *p = (jf_peer *)(intptr_t)h;
  if (!p) jf_throw_status(env, FBE_ERR_ARGUMENT, "the peer is closed");
  return p;
}

static call_state call_enter(jf_peer *p, JNIEnv *env, jobject self, jobject ends, jlong core) {
  call_state outer = {p->env, p->self, p->ends, p->core, p->raised, p->failed};
  p->env = env;
  p->self = self;
  p->ends = ends;
  p->core = (const jf_core *)(intptr_t)core;
  p->raised = NULL;
  p->failed.code = FBE_OK;
  return outer;
}

/* The call's end: the exception JNI raised during it thrown, else the error of a message
 * that could not go to Java, else the core's error when rc is one (unless Java has an
 * exception pending already). The outer call's state back. */
static void call_leave(jf_peer *p, call_state outer, fbe_status rc, const fbe_error *err) {
  JNIEnv *env = p->env;
  if (p->raised) {
    if (!(*env)->ExceptionCheck(env)) (*env)->Throw(env, p->raised);
    (*env)->DeleteGlobalRef(env, p->raised);
  } else if (p->failed.code) {
    jf_throw(env, &p->failed);
  } else if (rc != FBE_OK && !(*env)->ExceptionCheck(env)) {
    jf_throw(env, err);
  }
  p->env = outer.env;
  p->self = outer.self;
  p->ends = outer.ends;
  p->core = outer.core;
  p->raised = outer.raised;
  p->failed = outer.failed;
}

/* Before calling Java from a callback: an exception JNI raised is taken (kept for the
 * call's end, beyond the callback's local frame), so the next JNI call is legal. */
static void take_raised(jf_peer *p) {
  JNIEnv *env = p->env;
  if (!(*env)->ExceptionCheck(env)) return;
  jthrowable t = (*env)->ExceptionOccurred(env);
  (*env)->ExceptionClear(env);
  if (!p->raised) p->raised = (*env)->NewGlobalRef(env, t); /* (NULL when even that fails: then it is lost) */
  (*env)->DeleteLocalRef(env, t);
}

/* A callback's local frame: what it makes is freed when it ends. 0 when there is no room
 * (the exception taken): the callback then does nothing but fail. */
static int frame_push(jf_peer *p) {
  if ((*p->env)->PushLocalFrame(p->env, 16) == 0) return 1;
  take_raised(p);
  return 0;
}

static void frame_pop(jf_peer *p) {
  take_raised(p); /* (an exception pending is taken before the frame goes) */
  (*p->env)->PopLocalFrame(p->env, NULL);
}

/* After calling Java: 1 when it (or JNI) raised an exception, taken. */
static int raised_now(jf_peer *p) {
  if (!(*p->env)->ExceptionCheck(p->env)) return 0;
  take_raised(p);
  return 1;
}

/* A message for Java: its tape array (NULL when it could not be made: *why says why,
 * the exception JNI raised taken). */
static jbyteArray tape_of(jf_peer *p, const fbe_msg *msg, jint *si, jint *slots, fbe_error *why) {
  JNIEnv *env = p->env;
  jbyteArray tape = p->core ? jf_msg_tape(env, p->core, msg, si, slots) : NULL;
  if (tape) return tape;
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env); /* (its text is in why) */
  fbei_error_set(why, p->core ? FBE_ERR_NOMEM : FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                 p->core ? "a received %s could not be made into a Java message (out of memory, or larger than an array)"
                         : "a received %s came with no schema tables",
                 fbe_struct_full_name(fbe_msg_type(msg)));
  return NULL;
}

/* ------------------------------------------------------------ the core's callbacks */

static int sink(void *ctx, const uint8_t *data, size_t size) {
  jf_peer *p = ctx;
  JNIEnv *env = p->env;
  if (!p->self) return -1; /* (a call with no Java peer sends nothing) */
  take_raised(p);
  if (!frame_push(p)) return -1;
  jbyteArray frame = jf_bytes(env, data, size);
  jboolean ok = frame ? (*env)->CallBooleanMethod(env, p->self, jf.Peer_written, frame) : JNI_FALSE;
  int failed = raised_now(p) || !ok;
  frame_pop(p);
  return failed ? -1 : 0;
}

static void on_done(void *ctx, uint64_t token, fbe_request_end end, const fbe_msg *msg, const fbe_error *err) {
  jf_peer *p = ctx;
  JNIEnv *env = p->env;
  if (!p->ends) return; /* (cannot happen: every client call passes its Ends) */
  take_raised(p);
  int framed = frame_push(p); /* (without a frame it goes on all the same: the request must end) */
  jint si = -1, slots = 0;
  jbyteArray tape = NULL;
  fbe_error why;
  if (msg && !(tape = tape_of(p, msg, &si, &slots, &why))) {
    si = -1;
    err = &why; /* the request ended, but its answer cannot be handed over: it fails with why */
  }
  jthrowable error = err ? jf_exception(env, err) : NULL;
  if (err && !error) take_raised(p);
  (*env)->CallVoidMethod(env, p->ends, jf.Ends_ended, (jlong)token, (jint)end, si, tape, slots, error);
  if (framed) {
    frame_pop(p);
  } else {
    raised_now(p);
    (*env)->DeleteLocalRef(env, tape);
    (*env)->DeleteLocalRef(env, error);
  }
}

/* A client's notification, a server's request. Non-zero stops the feed: Java's handler
 * threw (Java throws it when the call returns), the message could not go to Java, or a
 * reset of a server was asked meanwhile. */
static int on_message(void *ctx, const fbe_msg *msg) {
  jf_peer *p = ctx;
  JNIEnv *env = p->env;
  if (!p->self) return 1;
  take_raised(p);
  if (!frame_push(p)) return 1;
  jint si, slots;
  fbe_error why;
  jbyteArray tape = tape_of(p, msg, &si, &slots, &why);
  if (!tape && !p->failed.code) p->failed = why;
  jboolean go = tape ? (*env)->CallBooleanMethod(env, p->self, jf.Peer_received, si, tape, slots) : JNI_FALSE;
  int stop = raised_now(p) || !go || p->stop;
  frame_pop(p);
  return stop ? 1 : 0;
}

static int on_frame(void *ctx, uint32_t type_id, const fbe_struct *type, const uint8_t *data, size_t size) {
  jf_peer *p = ctx;
  JNIEnv *env = p->env;
  if (!p->self) return 1;
  take_raised(p);
  if (!frame_push(p)) return 1;
  jint si = type ? (jint)fbe_struct_index(type) : -1;
  jbyteArray frame = jf_bytes(env, data, size);
  jboolean go = frame ? (*env)->CallBooleanMethod(env, p->self, jf.Peer_frame, (jint)type_id, si, frame) : JNI_FALSE;
  int stop = raised_now(p) || !go || p->stop;
  frame_pop(p);
  return stop ? 1 : 0;
}

static void on_log(jf_peer *p, jboolean sent, const char *text, size_t size) {
  JNIEnv *env = p->env;
  if (!p->self) return;
  take_raised(p);
  if (!frame_push(p)) return;
  jbyteArray t = jf_bytes(env, text, size);
  if (t) (*env)->CallVoidMethod(env, p->self, jf.Peer_logged, sent, t);
  frame_pop(p);
}

static void on_send_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  on_log(ctx, JNI_TRUE, text, size);
}

static void on_receive_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  on_log(ctx, JNI_FALSE, text, size);
}

/* ------------------------------------------------------------ making and freeing */

static void peer_free(jf_peer *p) {
  if (!p) return;
  fbe_client_free(p->client);
  fbe_sender_free(p->sender);
  fbe_receiver_free(p->receiver);
  fbei_mem_free(p);
}

/* Walk.peerNew: a client, server or proxy of package pkg (null: the schema's root) of the
 * schema, in model (0 standard, 1 final), with the limits (all 0: the defaults) for
 * every frame received; maxPending: a client's cap (0: the core's default); verify: a
 * proxy's. NOT_FOUND for an unknown package. */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_peerNew(JNIEnv *env, jclass cls, jlong core, jint kind,
                                                              jstring pkg, jint model, jlong max_depth,
                                                              jlong max_model_size, jlong max_memory,
                                                              jlong max_pending, jboolean verify) {
  const jf_core *c = (const jf_core *)(intptr_t)core;
  if (!c) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "the schema is closed");
    return 0;
  }
  if (max_pending < 0) {
    jf_throw_status(env, FBE_ERR_RANGE, "max_pending must be 0 (the default) or more");
    return 0;
  }
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  if (failed) return 0;
  const char *name = pkg ? (*env)->GetStringUTFChars(env, pkg, NULL) : NULL;
  if (pkg && !name) return 0;
  int known = !name;
  for (size_t k = 0; k < fbe_schema_package_count(c->schema) && !known; k++)
    known = strcmp(fbe_package_name(fbe_schema_package_at(c->schema, k)), name) == 0;
  fbe_error err;
  fbei_error_set(&err, known ? FBE_ERR_NOMEM : FBE_ERR_NOT_FOUND, FBE_NO_OFFSET,
                 known ? "out of memory" : "no package '%s' in the schema", name ? name : "");
  fbe_model m = model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  jf_peer *p = known ? fbei_mem_calloc(1, sizeof *p) : NULL;
  int made = 0;
  if (p) {
    p->kind = kind;
    if (kind == PEER_CLIENT) {
      fbe_client_options o = {m, limits, (size_t)max_pending, sink, p, on_done, on_message, p};
      made = (p->client = fbe_client_new(c->schema, name, &o, &err)) != NULL;
    } else if (kind == PEER_SERVER) {
      p->sender = fbe_sender_new(c->schema, name, m, sink, p);
      p->receiver = fbe_receiver_new(c->schema, name, m, limits, on_message, p);
      made = p->sender && p->receiver;
    } else {
      p->receiver = fbe_proxy_new(c->schema, name, m, limits, verify, on_frame, p);
      made = p->receiver != NULL;
    }
  }
  if (name) (*env)->ReleaseStringUTFChars(env, pkg, name);
  if (!made) {
    peer_free(p);
    jf_throw(env, &err);
    return 0;
  }
  return (jlong)(intptr_t)p;
}

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_peerFree(JNIEnv *env, jclass cls, jlong h) {
  peer_free((jf_peer *)(intptr_t)h);
}

/* Walk.peerLog: the core's send and receive log hooks on (Peer.logged) or off. */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_peerLog(JNIEnv *env, jclass cls, jlong h, jboolean on) {
  jf_peer *p = peer_of(env, h);
  if (!p || p->kind == PEER_PROXY) return;
  fbe_sender *s = p->client ? fbe_client_sender(p->client) : p->sender;
  fbe_receiver *r = p->client ? fbe_client_receiver(p->client) : p->receiver;
  fbe_sender_set_log(s, on ? on_send_log : NULL, p);
  fbe_receiver_set_log(r, on ? on_receive_log : NULL, p);
}

/* ------------------------------------------------------------ calls */

/* The messages on Java's tape (count of them, of the struct indexes si[]) read into a
 * scratch's arena; NULL with an exception thrown. */
static fbei_scratch *read_tape(JNIEnv *env, jlong core, const jint *si, int count, jlong tape, jlong caps,
                               fbe_msg **out) {
  const jf_core *c = jf_core_of(env, core, si[0]);
  for (int k = 1; c && k < count; k++) c = jf_core_of(env, core, si[k]);
  fbei_tape tp;
  if (!c || jf_tape_at(env, tape, caps, &tp)) return NULL;
  fbei_scratch *s = jf_scratch(env);
  if (!s) return NULL;
  uint32_t n = 0, pos = 0;
  fbe_error err;
  for (int k = 0; k < count; k++) {
    out[k] = fbei_tape_read(c->progs, &tp, fbe_schema_struct_at(c->schema, (size_t)si[k]), &n, &pos, s->arena, &err);
    if (!out[k]) {
      fbei_scratch_put(&jf_pool, s);
      jf_throw(env, &err);
      return NULL;
    }
  }
  return s;
}

/* Walk.clientRequest: the message on the tape (struct si) through fbe_client_request. */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_clientRequest(JNIEnv *env, jclass cls, jlong h, jlong core,
    jobject self, jobject ends, jint si, jlong tape, jlong caps, jlong timeout, jlong now, jlong token) {
  jf_peer *p = peer_of(env, h);
  fbe_msg *m;
  fbei_scratch *s = p && p->client ? read_tape(env, core, &si, 1, tape, caps, &m) : NULL;
  if (!s) {
    if (p && !p->client) jf_throw_status(env, FBE_ERR_ARGUMENT, "not a client");
    return;
  }
  call_state outer = call_enter(p, env, self, ends, core);
  fbe_error err;
  fbe_status rc = fbe_client_request(p->client, m, (uint64_t)timeout, (uint64_t)now, (uint64_t)token, &err);
  call_leave(p, outer, rc, &err);
  fbei_scratch_put(&jf_pool, s);
}

/* Walk.peerSend: the message on the tape sent as it is (a client's fbe_client_send, a
 * server's sender). */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_peerSend(JNIEnv *env, jclass cls, jlong h, jlong core,
                                                              jobject self, jobject ends, jint si, jlong tape,
                                                              jlong caps) {
  jf_peer *p = peer_of(env, h);
  fbe_msg *m;
  fbei_scratch *s = p && p->kind != PEER_PROXY ? read_tape(env, core, &si, 1, tape, caps, &m) : NULL;
  if (!s) {
    if (p && p->kind == PEER_PROXY) jf_throw_status(env, FBE_ERR_ARGUMENT, "a proxy sends nothing");
    return;
  }
  call_state outer = call_enter(p, env, self, ends, core);
  fbe_error err;
  fbe_status rc = p->client ? fbe_client_send(p->client, m, &err) : fbe_sender_send(p->sender, m, &err);
  call_leave(p, outer, rc, &err);
  fbei_scratch_put(&jf_pool, s);
}

/* Walk.serverReply: a server's answer: the request (struct requestSi) then the reply
 * (replySi) on the tape; fbe_reply_prepare gives the reply the request's id (and refuses
 * a reply that is not the request's response or one of its rejects), the sender sends it. */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_serverReply(JNIEnv *env, jclass cls, jlong h, jlong core,
                                                                 jobject self, jint request_si, jint reply_si,
                                                                 jlong tape, jlong caps) {
  jf_peer *p = peer_of(env, h);
  jint si[2] = {request_si, reply_si};
  fbe_msg *m[2];
  fbei_scratch *s = p && p->sender ? read_tape(env, core, si, 2, tape, caps, m) : NULL;
  if (!s) {
    if (p && !p->sender) jf_throw_status(env, FBE_ERR_ARGUMENT, "not a server");
    return;
  }
  call_state outer = call_enter(p, env, self, NULL, core);
  fbe_error err;
  fbe_status rc = fbe_reply_prepare(m[0], m[1], &err);
  if (rc == FBE_OK) rc = fbe_sender_send(p->sender, m[1], &err);
  call_leave(p, outer, rc, &err);
  fbei_scratch_put(&jf_pool, s);
}

/* Walk.peerFeed: received bytes to the client, the server's receiver or the proxy. A
 * reset of a server or proxy from one of its callbacks stops the feed after that message
 * and drops what was not read, as the core's client does for itself. */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_peerFeed(JNIEnv *env, jclass cls, jlong h, jlong core,
                                                              jobject self, jobject ends, jbyteArray data,
                                                              jint off, jint len) {
  jf_peer *p = peer_of(env, h);
  if (!p || jf_check_range(env, data, off, len)) return;
  if (p->feeding) { /* (a client's core refuses a nested feed itself, in its words) */
    jf_throw_status(env, FBE_ERR_ARGUMENT, p->kind == PEER_SERVER ? "a server cannot be fed from its own handler"
                                                                  : "a proxy cannot be fed from its own handler");
    return;
  }
  /* The callbacks call into Java, so the bytes are copied out of the array first. */
  uint8_t stack[4096];
  uint8_t *bytes = len <= (jint)sizeof stack ? stack : fbei_mem_alloc((size_t)len);
  if (!bytes) {
    jf_throw_status(env, FBE_ERR_NOMEM, "out of memory");
    return;
  }
  (*env)->GetByteArrayRegion(env, data, off, len, (jbyte *)bytes);
  call_state outer = call_enter(p, env, self, ends, core);
  fbe_error err;
  fbe_status rc;
  if (p->client) {
    rc = fbe_client_feed(p->client, bytes, (size_t)len, &err);
  } else {
    p->feeding = 1;
    p->stop = 0;
    rc = fbe_receiver_feed(p->receiver, bytes, (size_t)len, &err);
    p->feeding = 0;
    if (p->stop) { /* stopped by a reset: what was not read is dropped, no error */
      p->stop = 0;
      fbe_receiver_reset(p->receiver);
      if (rc == FBE_ERR_IO) rc = FBE_OK;
    }
  }
  call_leave(p, outer, rc, &err);
  if (bytes != stack) fbei_mem_free(bytes);
}

/* Walk.clientWatchdog: fbe_client_watchdog at now; how many requests timed out. */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_clientWatchdog(JNIEnv *env, jclass cls, jlong h,
                                                                     jobject self, jobject ends, jlong now) {
  jf_peer *p = peer_of(env, h);
  if (!p || !p->client) return 0;
  call_state outer = call_enter(p, env, self, ends, 0);
  size_t n = fbe_client_watchdog(p->client, (uint64_t)now);
  call_leave(p, outer, FBE_OK, NULL);
  return (jlong)n;
}

/* Walk.peerReset: a client's fbe_client_reset (its pending requests end), a server's or
 * proxy's partial frame dropped; from one of their callbacks, the feed stops after that
 * message (the core's rule for a client, kept here for the others). self may be null (the
 * Cleaner's reset of a dropped client: nothing is written then). */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_peerReset(JNIEnv *env, jclass cls, jlong h, jobject self,
                                                               jobject ends) {
  jf_peer *p = peer_of(env, h);
  if (!p) return;
  call_state outer = call_enter(p, env, self, ends, 0);
  if (p->client) fbe_client_reset(p->client);
  else if (p->feeding) p->stop = 1;
  else fbe_receiver_reset(p->receiver);
  call_leave(p, outer, FBE_OK, NULL);
}

/* Walk.clientNextDeadline: fbe_client_next_deadline (UINT64_MAX, -1 in Java: none). */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_clientNextDeadline(JNIEnv *env, jclass cls, jlong h) {
  jf_peer *p = peer_of(env, h);
  return p && p->client ? (jlong)fbe_client_next_deadline(p->client) : -1;
}

/* Walk.peerCount: 0 pending requests, 1 bytes of a partial frame, 2 messages (a proxy:
 * frames of known types) received, 3 frames of unknown types skipped, 4 bytes sent. */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_peerCount(JNIEnv *env, jclass cls, jlong h, jint what) {
  jf_peer *p = peer_of(env, h);
  if (!p) return 0;
  fbe_receiver *r = p->client ? fbe_client_receiver(p->client) : p->receiver;
  fbe_sender *s = p->client ? fbe_client_sender(p->client) : p->sender;
  switch (what) {
    case 0: return p->client ? (jlong)fbe_client_pending(p->client) : 0;
    case 1: return (jlong)fbe_receiver_pending(r);
    case 2: return (jlong)fbe_receiver_received(r);
    case 3: return (jlong)fbe_receiver_skipped(r);
    default: return s ? (jlong)fbe_sender_bytes(s) : 0;
  }
}

/* Walk.requestInfo: what the schema says of struct si as a request (SCHEMA.md 6.6):
 * {1 when it is a [request] else 0, its [response(...)]'s struct index or -1, then its
 * [reject(...)]s' indexes}. (No public call lists a request's annotations.) */
JNIEXPORT jintArray JNICALL Java_org_libfbe_internal_Walk_requestInfo(JNIEnv *env, jclass cls, jlong core,
                                                                     jint si) {
  const jf_core *c = jf_core_of(env, core, si);
  if (!c) return NULL;
  const fbe_struct *st = fbe_schema_struct_at(c->schema, (size_t)si);
  jint n = 2 + (jint)st->nrejects;
  jint stack[64];
  jint *info = n <= 64 ? stack : fbei_mem_alloc((size_t)n * sizeof *info);
  if (!info) {
    jf_throw_status(env, FBE_ERR_NOMEM, "out of memory");
    return NULL;
  }
  info[0] = st->is_request ? 1 : 0;
  info[1] = st->response ? (jint)fbe_struct_index(st->response) : -1;
  for (uint32_t k = 0; k < st->nrejects; k++) info[2 + k] = (jint)fbe_struct_index(st->rejects[k]);
  jintArray out = (*env)->NewIntArray(env, n);
  if (out) (*env)->SetIntArrayRegion(env, out, 0, n, info);
  if (info != stack) fbei_mem_free(info);
  return out;
}

/* Sender and receiver engines for org.libfbe.Sender / Receiver: the core's protocol
 * (fbe_sender / fbe_receiver) with a sink that collects a frame for Java, and a
 * handler that writes each received message onto a tape of its own and calls
 * Receiver.deliver(struct index, tape, slots) on the Java object that is feeding (one
 * native call per chunk; the handler's Java code may itself encode or decode). */
#include "binding.h"

typedef struct jf_sender {
  fbe_sender *sender;
  fbe_buffer frame; /* the bytes of the message being sent */
  fbe_buffer log;   /* its text form, when the log hook is on (Sender.setLog) */
  int logged;       /* the log hook got the message being sent */
} jf_sender;

typedef struct jf_receiver {
  fbe_receiver *receiver;
  JNIEnv *env;      /* valid during a feed only */
  const jf_core *core;
  jobject self;     /* the Receiver being fed */
  int busy;         /* inside fbe_receiver_feed (which is not re-entrant) */
} jf_receiver;

static int sink(void *ctx, const uint8_t *data, size_t size) {
  return fbe_buffer_append(&((jf_sender *)ctx)->frame, data, size) ? 1 : 0;
}

/* The sender's log hook: the text kept for Java (Walk.senderLogged), which calls its
 * hook after the native send, before the sink takes the frame (the core's order). */
static void sender_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  jf_sender *s = ctx;
  fbe_buffer_reset(&s->log);
  s->logged = fbe_buffer_append(&s->log, text, size) == 0;
}

/* The receiver's log hook: Receiver.logged(text), once a message is decoded, before its
 * handler (Java catches what the hook throws). */
static void receiver_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  jf_receiver *r = ctx;
  JNIEnv *env = r->env;
  if ((*env)->ExceptionCheck(env)) return;
  jbyteArray t = jf_bytes(env, text, size);
  if (t) (*env)->CallVoidMethod(env, r->self, jf.Receiver_logged, t);
  (*env)->ExceptionCheck(env); /* (Java catches what the hook throws; an error of JNI's stays pending) */
  (*env)->DeleteLocalRef(env, t);
}

/* The message's tape in C memory (grown until it fits), then copied to a new array for
 * Java (one byte[]: the slots, 8 bytes each, then the bytes): a callback runs Java code,
 * so no array may be held across it. NULL with an exception pending. */
jbyteArray jf_msg_tape(JNIEnv *env, const jf_core *core, const fbe_msg *msg, jint *si, jint *slots) {
  size_t index = fbe_struct_index(fbe_msg_type(msg));
  if (index >= core->nstructs || fbe_schema_struct_at(core->schema, index) != fbe_msg_type(msg)) {
    jf_throw_status(env, FBE_ERR_NOT_FOUND, "received a struct that is not in this schema");
    return NULL;
  }
  fbei_tape_slot num_stack[256];
  uint8_t bytes_stack[1024];
  fbei_tape tp = {num_stack, 256, bytes_stack, sizeof bytes_stack};
  uint64_t need_n, need_p;
  fbei_tape_slot *num_heap = NULL;
  uint8_t *bytes_heap = NULL;
  if (fbei_tape_write(core->progs, &tp, msg, 0, 0, &need_n, &need_p)) {
    if (need_n > INT32_MAX || need_p > INT32_MAX ||
        !(num_heap = fbei_mem_alloc(need_n * sizeof *num_heap + 8)) ||
        !(bytes_heap = fbei_mem_alloc(need_p + 1))) {
      fbei_mem_free(num_heap);
      jf_throw_status(env, FBE_ERR_NOMEM, "out of memory");
      return NULL;
    }
    tp = (fbei_tape){num_heap, (uint32_t)need_n, bytes_heap, (uint32_t)need_p};
    fbei_tape_write(core->progs, &tp, msg, 0, 0, &need_n, &need_p);
  }
  jbyteArray tape = need_n * 8 + need_p > INT32_MAX - 8 ? NULL : (*env)->NewByteArray(env, (jsize)(need_n * 8 + need_p));
  if (!tape && !(*env)->ExceptionCheck(env)) jf_throw_status(env, FBE_ERR_LIMIT, "the value is larger than a Java array");
  if (tape) {
    (*env)->SetByteArrayRegion(env, tape, 0, (jsize)(need_n * 8), (const jbyte *)(const void *)tp.num);
    (*env)->SetByteArrayRegion(env, tape, (jsize)(need_n * 8), (jsize)need_p, (const jbyte *)tp.bytes);
  }
  fbei_mem_free(num_heap);
  fbei_mem_free(bytes_heap);
  *si = (jint)index;
  *slots = (jint)need_n;
  return tape;
}

/* Each received message handed to Receiver.deliver(struct index, tape, slots). */
static int handler(void *ctx, const fbe_msg *msg) {
  jf_receiver *r = ctx;
  JNIEnv *env = r->env;
  if ((*env)->ExceptionCheck(env)) return 1; /* (JNI failed in the log hook: that exception stops the feed) */
  jint si, slots;
  jbyteArray tape = jf_msg_tape(env, r->core, msg, &si, &slots);
  if (tape) (*env)->CallVoidMethod(env, r->self, jf.Receiver_deliver, si, tape, slots);
  int stop = (*env)->ExceptionCheck(env); /* the handler's exception stops the feed */
  (*env)->DeleteLocalRef(env, tape);
  return stop;
}

/* The engine's owner (jf_sender or jf_receiver), zeroed; NULL with an exception thrown. */
static void *owner_new(JNIEnv *env, const jf_core *c, size_t size) {
  void *owner = c ? fbei_mem_calloc(1, size) : NULL;
  if (!owner) jf_throw_status(env, c ? FBE_ERR_NOMEM : FBE_ERR_ARGUMENT, c ? "out of memory" : "the schema is closed");
  return owner;
}

/* fbe_receiver_new (with limits) or fbe_sender_new for package pkg (null: the root
 * package) of the schema; NULL with an exception thrown. */
static void *engine_new(JNIEnv *env, const jf_core *c, jstring pkg, jint model, int receiver,
                        const fbe_limits *limits, void *owner) {
  const char *name = pkg ? (*env)->GetStringUTFChars(env, pkg, NULL) : NULL;
  if (pkg && !name) return NULL;
  fbe_model m = model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  void *engine = receiver ? (void *)fbe_receiver_new(c->schema, name, m, limits, handler, owner)
                          : (void *)fbe_sender_new(c->schema, name, m, sink, owner);
  if (name) (*env)->ReleaseStringUTFChars(env, pkg, name);
  if (!engine) jf_throw_status(env, FBE_ERR_NOT_FOUND, "no such package in the schema");
  return engine;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_senderNew(JNIEnv *env, jclass cls, jlong core,
                                                              jstring pkg, jint model) {
  const jf_core *c = (const jf_core *)(intptr_t)core;
  jf_sender *s = owner_new(env, c, sizeof *s);
  if (s && !(s->sender = engine_new(env, c, pkg, model, 0, NULL, s))) {
    fbei_mem_free(s);
    return 0;
  }
  return (jlong)(intptr_t)s;
}

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_senderFree(JNIEnv *env, jclass cls, jlong h) {
  jf_sender *s = (jf_sender *)(intptr_t)h;
  if (!s) return;
  fbe_sender_free(s->sender);
  fbe_buffer_free(&s->frame);
  fbe_buffer_free(&s->log);
  fbei_mem_free(s);
}

static int op_send(void *ctx, fbei_tape *tp, fbe_msg *m, fbe_msg *unused, fbei_scratch *s, fbe_error *err) {
  jf_sender *snd = ctx;
  fbe_buffer_reset(&snd->frame);
  snd->logged = 0;
  return fbe_sender_send(snd->sender, m, err) ? -1 : 0;
}

JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_senderSend(JNIEnv *env, jclass cls, jlong h,
    jlong core, jint si, jlong tape, jlong caps) {
  jf_sender *snd = (jf_sender *)(intptr_t)h;
  if (!snd) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "the sender is closed");
    return NULL;
  }
  if (jf_with_tape(env, core, si, tape, caps, 1, op_send, snd)) return NULL;
  return jf_bytes(env, snd->frame.data, snd->frame.size);
}

/* Walk.senderLog: the sender's log hook on or off. */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_senderLog(JNIEnv *env, jclass cls, jlong h, jboolean on) {
  jf_sender *s = (jf_sender *)(intptr_t)h;
  if (s) fbe_sender_set_log(s->sender, on ? sender_log : NULL, s);
}

/* Walk.senderLogged: the text form the log hook got for the last send (UTF-8), or null. */
JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_senderLogged(JNIEnv *env, jclass cls, jlong h) {
  jf_sender *s = (jf_sender *)(intptr_t)h;
  return s && s->logged ? jf_bytes(env, s->log.data, s->log.size) : NULL;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_senderBytes(JNIEnv *env, jclass cls, jlong h) {
  jf_sender *s = (jf_sender *)(intptr_t)h;
  return s ? (jlong)fbe_sender_bytes(s->sender) : 0;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_receiverNew(JNIEnv *env, jclass cls, jlong core,
                                                                jstring pkg, jint model, jlong max_depth,
                                                                jlong max_model_size, jlong max_memory) {
  const jf_core *c = (const jf_core *)(intptr_t)core;
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  jf_receiver *r = failed ? NULL : owner_new(env, c, sizeof *r);
  if (r && !(r->receiver = engine_new(env, c, pkg, model, 1, limits, r))) {
    fbei_mem_free(r);
    return 0;
  }
  return (jlong)(intptr_t)r;
}

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_receiverFree(JNIEnv *env, jclass cls, jlong h) {
  jf_receiver *r = (jf_receiver *)(intptr_t)h;
  if (!r) return;
  fbe_receiver_free(r->receiver);
  fbei_mem_free(r);
}

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_receiverFeed(JNIEnv *env, jclass cls, jlong h,
    jlong core, jobject self, jbyteArray data, jint off, jint len) {
  jf_receiver *r = (jf_receiver *)(intptr_t)h;
  const jf_core *c = (const jf_core *)(intptr_t)core;
  if (!r || !c) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "the receiver or its schema is closed");
    return;
  }
  if (jf_check_range(env, data, off, len)) return;
  if (r->busy) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "a receiver cannot be fed from its own handler");
    return;
  }
  /* The handler calls into Java, so the bytes are copied out of the array first. */
  uint8_t stack[4096];
  uint8_t *bytes = len <= (jint)sizeof stack ? stack : fbei_mem_alloc((size_t)len);
  if (!bytes) {
    jf_throw_status(env, FBE_ERR_NOMEM, "out of memory");
    return;
  }
  (*env)->GetByteArrayRegion(env, data, off, len, (jbyte *)bytes);
  r->env = env;
  r->core = c;
  r->self = self;
  r->busy = 1;
  fbe_error err;
  fbe_status st = fbe_receiver_feed(r->receiver, bytes, (size_t)len, &err);
  r->busy = 0;
  r->self = NULL;
  if (bytes != stack) fbei_mem_free(bytes);
  if (st && !(*env)->ExceptionCheck(env)) jf_throw(env, &err);
}

/* Walk.receiverLog: the receiver's log hook (Receiver.logged, during its feeds) on or off. */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_receiverLog(JNIEnv *env, jclass cls, jlong h, jboolean on) {
  jf_receiver *r = (jf_receiver *)(intptr_t)h;
  if (r) fbe_receiver_set_log(r->receiver, on ? receiver_log : NULL, r);
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_receiverState(JNIEnv *env, jclass cls, jlong h,
                                                                  jint what) {
  jf_receiver *r = (jf_receiver *)(intptr_t)h;
  if (!r) return 0;
  switch (what) {
    case 0: return (jlong)fbe_receiver_pending(r->receiver);
    case 1: return (jlong)fbe_receiver_received(r->receiver);
    case 2: return (jlong)fbe_receiver_skipped(r->receiver);
    case 3:
      if (r->busy) jf_throw_status(env, FBE_ERR_ARGUMENT, "a receiver cannot be reset from its own handler");
      else fbe_receiver_reset(r->receiver);
  }
  return 0;
}

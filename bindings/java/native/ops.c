/* The JNI entry points of org.libfbe.internal.Walk: the cached IDs, errors, the
 * per-thread scratch, the schema tables, and one native call per operation (new
 * message with defaults, encode, decode, verify, JSON, equality), each exchanging the
 * message with Java as a tape (jfbe.h, jni_tape.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jfbe.h"
#include "fbe/internal/error.h"

jf_ids jf;

/* ------------------------------------------------------------------ errors */

void jf_err_set(jf_err *e, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  va_end(ap);
  e->code = code;
  e->offset = FBE_NO_OFFSET;
  e->path[0] = 0;
}

void jf_err_prepend_field(jf_err *e, const char *name) {
  if (e->code) fbe_error_prepend_field(e, name);
}

void jf_err_prepend_index(jf_err *e, size_t index) {
  if (e->code) fbe_error_prepend_index(e, index);
}

void jf_err_prepend_key(jf_err *e) {
  if (e->code) fbe_error_prepend_field(e, "[key]");
}

void jf_err_from_fbe(jf_err *e, const fbe_error *err) {
  *e = *err;
  if (!e->code) e->code = FBE_ERR_ARGUMENT;
}

jstring jf_string_from_utf8(JNIEnv *env, const uint8_t *s, size_t n) {
  if (!n) return (*env)->NewStringUTF(env, "");
  jchar stack[256];
  stack[0] = 0; /* (never read unset; silences -Wmaybe-uninitialized) */
  jchar *buf = n <= 256 ? stack : fbe_mem_alloc(n * sizeof(jchar));
  if (!buf) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    uint32_t c = s[i];
    size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    uint32_t cp;
    if (len == 0 || i + len > n) { /* not UTF-8 (the decoders check; be safe anyway) */
      cp = 0xFFFD;
      len = 1;
    } else if (len == 1) {
      cp = c;
    } else {
      cp = c & (0x7F >> len);
      for (size_t k = 1; k < len; k++) cp = cp << 6 | (s[i + k] & 0x3F);
    }
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      buf[o++] = (jchar)(0xD800 | cp >> 10);
      buf[o++] = (jchar)(0xDC00 | (cp & 0x3FF));
    } else {
      buf[o++] = (jchar)cp;
    }
  }
  jstring out = (*env)->NewString(env, buf, (jsize)o);
  if (buf != stack) fbe_mem_free(buf);
  return out;
}

void jf_throw(JNIEnv *env, const jf_err *e) {
  if ((*env)->ExceptionCheck(env)) return;
  if (!e->code) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "operation failed");
    return;
  }
  jstring msg = jf_string_from_utf8(env, (const uint8_t *)e->message, strlen(e->message));
  jstring path = jf_string_from_utf8(env, (const uint8_t *)e->path, strlen(e->path));
  if (!msg || !path) return;
  jlong offset = e->offset == FBE_NO_OFFSET ? -1 : (jlong)e->offset;
  jthrowable ex = (*env)->NewObject(env, jf.FbeException, jf.FbeException_new, (jint)e->code, msg, path, offset);
  if (ex) (*env)->Throw(env, ex);
}

void jf_throw_fbe(JNIEnv *env, const fbe_error *err) {
  jf_err e;
  jf_err_from_fbe(&e, err);
  jf_throw(env, &e);
}

void jf_throw_code(JNIEnv *env, int code, const char *message) {
  jf_err e;
  jf_err_set(&e, code, "%s", message);
  jf_throw(env, &e);
}

/* ------------------------------------------------------------------ limits */

const fbe_limits *jf_limits(JNIEnv *env, jlong max_depth, jlong max_model_size, jlong max_memory,
                            fbe_limits *storage, int *failed) {
  *failed = 0;
  if (!max_depth && !max_model_size && !max_memory) return NULL;
  *storage = fbe_limits_default();
  fbe_error err;
  if (fbe_limits_set(storage, "max_depth", max_depth, &err) ||
      fbe_limits_set(storage, "max_model_size", max_model_size, &err) ||
      fbe_limits_set(storage, "max_memory", max_memory, &err)) {
    jf_throw_fbe(env, &err);
    *failed = 1;
    return NULL;
  }
  return storage;
}

/* Walk.limitsSet: limits[3] = {max_depth, max_model_size, max_memory}; the member `name`
 * set to value by the core's rule, or its error thrown (limits unchanged). */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_limitsSet(JNIEnv *env, jclass cls, jlongArray limits,
                                                             jstring name, jlong value) {
  (void)cls;
  if (!limits || !name || (*env)->GetArrayLength(env, limits) != 3) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "limitsSet(long[3], name, value)");
    return;
  }
  jlong v[3];
  (*env)->GetLongArrayRegion(env, limits, 0, 3, v);
  fbe_limits l = {(uint32_t)v[0], (uint64_t)v[1], (uint64_t)v[2]};
  const char *n = (*env)->GetStringUTFChars(env, name, NULL);
  if (!n) return;
  fbe_error err;
  fbe_status st = fbe_limits_set(&l, n, value, &err);
  (*env)->ReleaseStringUTFChars(env, name, n);
  if (st) {
    jf_throw_fbe(env, &err);
    return;
  }
  v[0] = (jlong)l.max_depth;
  v[1] = (jlong)l.max_model_size;
  v[2] = (jlong)l.max_memory;
  (*env)->SetLongArrayRegion(env, limits, 0, 3, v);
}

/* ------------------------------------------------------------------ scratch */

static _Thread_local jf_scratch *tls_scratch;

static void scratch_free(jf_scratch *s) {
  if (!s) return;
  fbe_arena_free(s->arena);
  fbe_buffer_free(&s->buf);
  fbe_mem_free(s);
}

jf_scratch *jf_scratch_get(void) {
  jf_scratch *s = tls_scratch;
  if (s && !s->busy) {
    s->busy = 1;
    return s;
  }
  if (!(s = fbe_mem_calloc(1, sizeof *s)) || !(s->arena = fbe_arena_new())) {
    fbe_mem_free(s);
    return NULL;
  }
  /* The thread's own is kept for its next calls (and freed with the thread's last
   * use: JVM threads are long-lived; a 4 KiB block each). */
  if (!tls_scratch) tls_scratch = s;
  else s->temp = 1;
  s->busy = 1;
  return s;
}

void jf_scratch_put(jf_scratch *s) {
  if (s->temp) {
    scratch_free(s);
    return;
  }
  s->busy = 0;
  fbe_arena_reset(s->arena);
  fbe_buffer_reset(&s->buf);
  if (s->buf.capacity > (1u << 20)) fbe_buffer_free(&s->buf); /* don't keep huge buffers */
}

/* ------------------------------------------------------------------ tables */

static int entry_cmp(const void *a, const void *b) {
  const jf_entry *x = a, *y = b;
  return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

static int find(const jf_entry *map, uint32_t n, const void *ptr) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (map[mid].ptr == ptr) return (int)map[mid].index;
    if (map[mid].ptr < ptr) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

int jf_struct_index(const jf_core *core, const fbe_struct *st) {
  return find(core->struct_map, core->nstructs, st);
}

static void core_free(jf_core *c) {
  if (!c) return;
  fbe_mem_free(c->structs);
  fbe_mem_free(c->struct_map);
  fbe_mem_free(c->progs);
  fbe_schema_release(c->schema);
  fbe_mem_free(c);
}

/* ------------------------------------------------------------------ init */

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_init(JNIEnv *env, jclass walk) {
  (void)walk;
  if (jf.FbeException) return;
  jclass ex = (*env)->FindClass(env, "org/libfbe/FbeException");
  jclass receiver = ex ? (*env)->FindClass(env, "org/libfbe/Receiver") : NULL;
  if (!receiver) return;
  jf.FbeException_new = (*env)->GetMethodID(env, ex, "<init>", "(ILjava/lang/String;Ljava/lang/String;J)V");
  jf.Receiver_deliver = (*env)->GetMethodID(env, receiver, "deliver", "(I[J[B)V");
  if (!jf.FbeException_new || !jf.Receiver_deliver) return;
  jf.FbeException = (*env)->NewGlobalRef(env, ex);
}

/* The tables of a schema, in the order the Java side lists its structs: packages in
 * dependency order, declaration order inside each. */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_bind(JNIEnv *env, jclass cls, jlong schema_ptr) {
  (void)cls;
  fbe_schema *schema = (fbe_schema *)(intptr_t)schema_ptr;
  jf_core *c = schema ? fbe_mem_calloc(1, sizeof *c) : NULL;
  if (!c) {
    jf_throw_code(env, schema ? FBE_ERR_NOMEM : FBE_ERR_ARGUMENT, schema ? "out of memory" : "no schema");
    return 0;
  }
  c->schema = fbe_schema_retain(schema);
  for (uint32_t p = 0; p < schema->npackages; p++) c->nstructs += schema->packages[p]->nstructs;
  c->structs = fbe_mem_calloc(c->nstructs + 1, sizeof *c->structs);
  c->struct_map = fbe_mem_calloc(c->nstructs + 1, sizeof *c->struct_map);
  if (!c->structs || !c->struct_map) {
    core_free(c);
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return 0;
  }
  uint32_t ns = 0;
  for (uint32_t p = 0; p < schema->npackages; p++) {
    const fbe_package *pkg = schema->packages[p];
    for (uint32_t i = 0; i < pkg->nstructs; i++, ns++) {
      c->structs[ns] = pkg->structs[i];
      c->struct_map[ns] = (jf_entry){pkg->structs[i], ns};
    }
  }
  qsort(c->struct_map, c->nstructs, sizeof *c->struct_map, entry_cmp);
  if (jf_progs_compile(c)) {
    core_free(c);
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return 0;
  }
  return (jlong)(intptr_t)c;
}

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_unbind(JNIEnv *env, jclass cls, jlong core) {
  (void)env;
  (void)cls;
  core_free((jf_core *)(intptr_t)core);
}

/* ------------------------------------------------------------------ the tape */

/* Java's tape arrays, held (critical: no JNI call until tape_close). 0, or -1 with an
 * exception thrown. */
static int tape_open(JNIEnv *env, jlongArray num, jbyteArray bytes, jf_tape *tp) {
  if (!num || !bytes) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "no tape");
    return -1;
  }
  tp->num_cap = (uint32_t)(*env)->GetArrayLength(env, num);
  tp->bytes_cap = (uint32_t)(*env)->GetArrayLength(env, bytes);
  tp->num = (*env)->GetPrimitiveArrayCritical(env, num, NULL);
  if (!tp->num) return -1;
  tp->bytes = (*env)->GetPrimitiveArrayCritical(env, bytes, NULL);
  if (!tp->bytes) {
    (*env)->ReleasePrimitiveArrayCritical(env, num, tp->num, JNI_ABORT);
    return -1;
  }
  return 0;
}

/* mode: JNI_ABORT when only read, 0 when written. */
static void tape_close(JNIEnv *env, jlongArray num, jbyteArray bytes, jf_tape *tp, jint mode) {
  (*env)->ReleasePrimitiveArrayCritical(env, bytes, tp->bytes, mode);
  (*env)->ReleasePrimitiveArrayCritical(env, num, tp->num, mode);
}

/* Writes m onto Java's tape: 0, or (slots << 32 | bytes) it needs when it is too small
 * (Java grows the tape and calls again). */
static jlong tape_put(JNIEnv *env, const jf_core *c, const fbe_msg *m, jlongArray num, jbyteArray bytes) {
  jf_tape tp;
  uint64_t need_n, need_p;
  if (tape_open(env, num, bytes, &tp)) return 0;
  int rc = jf_tape_write(c, &tp, m, &need_n, &need_p);
  tape_close(env, num, bytes, &tp, 0);
  if (!rc) return 0;
  if (need_n > INT32_MAX - 8 || need_p > INT32_MAX - 8) {
    jf_throw_code(env, FBE_ERR_LIMIT, "the value is larger than a Java array");
    return 0;
  }
  return (jlong)(need_n << 32 | need_p);
}

/* ------------------------------------------------------------------ operations */

/* Checks the handle and index the Java side passes; NULL with an exception thrown. */
static const jf_core *core_of(JNIEnv *env, jlong core, jint si) {
  const jf_core *c = (const jf_core *)(intptr_t)core;
  if (!c) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "the schema is closed");
    return NULL;
  }
  if (si < 0 || (uint32_t)si >= c->nstructs) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "struct index out of range");
    return NULL;
  }
  return c;
}

static fbe_model model_of(jint model) { return model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD; }

/* data[off, off+len) of a Java byte[], checked. 0, or -1 with an exception thrown. */
static int check_range(JNIEnv *env, jbyteArray data, jint off, jint len) {
  if (!data) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "data is null");
    return -1;
  }
  jsize n = (*env)->GetArrayLength(env, data);
  if (off < 0 || len < 0 || off > n || len > n - off) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "offset/length out of the array's bounds");
    return -1;
  }
  return 0;
}

static jf_scratch *scratch(JNIEnv *env) {
  jf_scratch *s = jf_scratch_get();
  if (!s) jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
  return s;
}

int jf_with_tape(JNIEnv *env, const jf_core *c, jint si, jlongArray num, jbyteArray bytes, int count,
                 jf_tape_op op, void *ctx, jf_scratch *s) {
  jf_tape tp;
  jf_err e;
  fbe_error err;
  if (tape_open(env, num, bytes, &tp)) return -1;
  uint32_t n = 0, p = 0;
  fbe_msg *a = jf_tape_read(c, &tp, (uint32_t)si, s->arena, &n, &p, &e);
  fbe_msg *b = a && count > 1 ? jf_tape_read(c, &tp, (uint32_t)si, s->arena, &n, &p, &e) : NULL;
  int rc = -1, fbe_failed = 0;
  if (a && (count < 2 || b)) {
    rc = op(ctx, &tp, a, b, s, &err);
    fbe_failed = rc != 0;
  }
  tape_close(env, num, bytes, &tp, 0);
  if (fbe_failed) jf_throw_fbe(env, &err);
  else if (rc) jf_throw(env, &e);
  return rc;
}

/* in: the model; out: the size, or -1 - size when it does not fit the byte tape. */
typedef struct encode_ctx {
  jint model, size;
} encode_ctx;

/* The bytes go back on the byte tape (the value read from it is no longer needed):
 * Java copies them out, cheaper than a new array made through JNI. */
static int op_encode(void *ctx, jf_tape *tp, fbe_msg *a, fbe_msg *b, jf_scratch *s, fbe_error *err) {
  (void)b;
  encode_ctx *e = ctx;
  if (fbe_encode(a, model_of(e->model), &s->buf, err)) return -1;
  if (s->buf.size > INT32_MAX - 8) {
    fbe_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "the model is larger than a Java array");
    return -1;
  }
  e->size = (jint)s->buf.size;
  if (s->buf.size <= tp->bytes_cap) memcpy(tp->bytes, s->buf.data, s->buf.size);
  else e->size = -1 - e->size;
  return 0;
}

static int op_json(void *ctx, jf_tape *tp, fbe_msg *a, fbe_msg *b, jf_scratch *s, fbe_error *err) {
  (void)tp;
  (void)b;
  return fbe_msg_to_json(a, *(jboolean *)ctx ? 1 : 0, &s->buf, err) ? -1 : 0;
}

static int op_equal(void *ctx, jf_tape *tp, fbe_msg *a, fbe_msg *b, jf_scratch *s, fbe_error *err) {
  (void)tp;
  (void)s;
  (void)err;
  *(int *)ctx = fbe_msg_equal(a, b);
  return 0;
}

JNIEXPORT jint JNICALL Java_org_libfbe_internal_Walk_encode(JNIEnv *env, jclass cls, jlong core,
    jint si, jlongArray num, jbyteArray bytes, jint model) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  jf_scratch *s = c ? scratch(env) : NULL;
  if (!s) return 0;
  encode_ctx e = {model, 0};
  jf_with_tape(env, c, si, num, bytes, 1, op_encode, &e, s);
  jf_scratch_put(s);
  return e.size;
}

JNIEXPORT jstring JNICALL Java_org_libfbe_internal_Walk_toJson(JNIEnv *env, jclass cls, jlong core,
    jint si, jlongArray num, jbyteArray bytes, jboolean pretty) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  jf_scratch *s = c ? scratch(env) : NULL;
  if (!s) return NULL;
  jstring out = NULL;
  if (!jf_with_tape(env, c, si, num, bytes, 1, op_json, &pretty, s))
    out = jf_string_from_utf8(env, s->buf.data, s->buf.size);
  jf_scratch_put(s);
  return out;
}

/* Deep equality by the core's rules (floats by bit pattern, decimals by value): both
 * messages, one after the other on the tape, are built and compared. */
JNIEXPORT jboolean JNICALL Java_org_libfbe_internal_Walk_equal(JNIEnv *env, jclass cls, jlong core,
    jint si, jlongArray num, jbyteArray bytes) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  jf_scratch *s = c ? scratch(env) : NULL;
  if (!s) return JNI_FALSE;
  int same = 0;
  jf_with_tape(env, c, si, num, bytes, 2, op_equal, &same, s);
  jf_scratch_put(s);
  return same ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_defaults(JNIEnv *env, jclass cls, jlong core,
    jint si, jlongArray num, jbyteArray bytes) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  jf_scratch *s = c ? scratch(env) : NULL;
  if (!s) return 0;
  jlong out = 0;
  fbe_msg *m = fbe_msg_new(s->arena, c->structs[si]);
  if (!m) jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
  else out = tape_put(env, c, m, num, bytes);
  jf_scratch_put(s);
  return out;
}

/* Walk.decode: the core's verifying fbe_decode, or fbe_decode_trusted when asked (the
 * core decides what each refuses; this only passes the flag). */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_decode(JNIEnv *env, jclass cls, jlong core,
    jint si, jbyteArray data, jint off, jint len, jint model, jboolean trusted, jlong max_depth,
    jlong max_model_size, jlong max_memory, jlongArray num, jbyteArray bytes) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c || check_range(env, data, off, len)) return 0;
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  if (failed) return 0;
  jf_scratch *s = scratch(env);
  if (!s) return 0;
  jlong out = 0;
  fbe_msg *m = NULL;
  fbe_error err;
  /* The decoder copies what it keeps into the arena: the array is released at once. */
  uint8_t *in = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
  if (in) {
    fbe_status st = (trusted ? fbe_decode_trusted : fbe_decode)(c->structs[si], model_of(model), in + off,
                                                                (size_t)len, s->arena, limits, &m, NULL, &err);
    (*env)->ReleasePrimitiveArrayCritical(env, data, in, JNI_ABORT);
    if (st) jf_throw_fbe(env, &err);
    else out = tape_put(env, c, m, num, bytes);
  }
  jf_scratch_put(s);
  return out;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_verify(JNIEnv *env, jclass cls, jlong core,
    jint si, jbyteArray data, jint off, jint len, jint model, jlong max_depth, jlong max_model_size,
    jlong max_memory) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c || check_range(env, data, off, len)) return -1;
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  if (failed) return -1;
  size_t size = 0;
  fbe_error err;
  uint8_t *in = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
  if (!in) return -1;
  fbe_status st = fbe_verify(c->structs[si], model_of(model), in + off, (size_t)len, limits, &size, &err);
  (*env)->ReleasePrimitiveArrayCritical(env, data, in, JNI_ABORT);
  if (st) {
    jf_throw_fbe(env, &err);
    return -1;
  }
  return (jlong)size;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_fromJson(JNIEnv *env, jclass cls, jlong core,
    jint si, jbyteArray utf8, jlong max_depth, jlong max_model_size, jlong max_memory, jlongArray num,
    jbyteArray bytes) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c || check_range(env, utf8, 0, utf8 ? (*env)->GetArrayLength(env, utf8) : 0)) return 0;
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  if (failed) return 0;
  jf_scratch *s = scratch(env);
  if (!s) return 0;
  jlong out = 0;
  jsize n = (*env)->GetArrayLength(env, utf8);
  char *text = fbe_arena_alloc(s->arena, (size_t)n + 1);
  if (!text) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
  } else {
    (*env)->GetByteArrayRegion(env, utf8, 0, n, (jbyte *)text);
    text[n] = 0;
    fbe_msg *m = NULL;
    fbe_error err;
    if (fbe_msg_from_json_limited(c->structs[si], text, (size_t)n, s->arena, limits, &m, &err))
      jf_throw_fbe(env, &err);
    else out = tape_put(env, c, m, num, bytes);
  }
  jf_scratch_put(s);
  return out;
}

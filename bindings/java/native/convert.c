/* Java arrays and values in and out: byte[]s, ranges, limits, and the tape itself
 * (org.libfbe.Tape's one block of direct memory, slots and contents, reached by its
 * address: no pin, no copy). */
#include <string.h>
#include "binding.h"

jbyteArray jf_bytes(JNIEnv *env, const void *data, size_t n) {
  if (n > INT32_MAX - 8) {
    jf_throw_status(env, FBE_ERR_LIMIT, "the value is larger than a Java array");
    return NULL;
  }
  jbyteArray a = (*env)->NewByteArray(env, (jsize)n);
  if (a && n) (*env)->SetByteArrayRegion(env, a, 0, (jsize)n, (const jbyte *)data);
  return a;
}

int jf_check_range(JNIEnv *env, jbyteArray data, jint off, jint len) {
  jsize n = data ? (*env)->GetArrayLength(env, data) : 0;
  if (data && off >= 0 && len >= 0 && off <= n && len <= n - off) return 0;
  jf_throw_status(env, FBE_ERR_ARGUMENT, data ? "offset/length out of the array's bounds" : "data is null");
  return -1;
}

const fbe_limits *jf_limits(JNIEnv *env, jlong max_depth, jlong max_model_size, jlong max_memory,
                            fbe_limits *storage, int *failed) {
  *failed = 0;
  if (!max_depth && !max_model_size && !max_memory) return NULL;
  *storage = fbe_limits_default();
  fbe_error err;
  if (!fbe_limits_set(storage, "max_depth", max_depth, &err) &&
      !fbe_limits_set(storage, "max_model_size", max_model_size, &err) &&
      !fbe_limits_set(storage, "max_memory", max_memory, &err))
    return storage;
  jf_throw(env, &err);
  *failed = 1;
  return NULL;
}

/* Java's tape: ONE block of direct memory (org.libfbe.Tape's), the slots in its first
 * 8 x slots bytes and the byte tape after them (caps = slots << 32 | bytes, from Java,
 * which sizes the block to match). Nothing to pin or release. */
int jf_tape_at(JNIEnv *env, jlong tape, jlong caps, fbei_tape *tp) {
  uint8_t *p = (uint8_t *)(intptr_t)tape;
  if (!p || caps < 0) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "no tape");
    return -1;
  }
  if ((uintptr_t)p % sizeof(fbei_tape_slot)) { /* direct buffers start 8-aligned: never here */
    jf_throw_status(env, FBE_ERR_ARGUMENT, "internal error: the tape is not 8-aligned");
    return -1;
  }
  tp->num_cap = (uint32_t)((uint64_t)caps >> 32);
  tp->bytes_cap = (uint32_t)caps;
  tp->num = (fbei_tape_slot *)(void *)p;
  tp->bytes = p + (size_t)tp->num_cap * sizeof(fbei_tape_slot);
  return 0;
}

fbei_scratch *jf_scratch(JNIEnv *env) {
  fbei_scratch *s = fbei_scratch_get(&jf_pool);
  if (!s) jf_throw_status(env, FBE_ERR_NOMEM, "out of memory");
  return s;
}

int jf_with_tape(JNIEnv *env, jlong core, jint si, jlong tape, jlong caps, int count, jf_tape_op op,
                 void *ctx) {
  const jf_core *c = jf_core_of(env, core, si);
  fbei_tape tp;
  if (!c || jf_tape_at(env, tape, caps, &tp)) return -1;
  fbei_scratch *s = jf_scratch(env);
  if (!s) return -1;
  const fbe_struct *st = fbe_schema_struct_at(c->schema, (size_t)si);
  uint32_t n = 0, p = 0;
  fbe_error err;
  fbe_msg *a = fbei_tape_read(c->progs, &tp, st, &n, &p, s->arena, &err);
  fbe_msg *b = a && count > 1 ? fbei_tape_read(c->progs, &tp, st, &n, &p, s->arena, &err) : NULL;
  int rc = a && (count < 2 || b) ? op(ctx, &tp, a, b, s, &err) : -1;
  fbei_scratch_put(&jf_pool, s);
  if (rc && !(*env)->ExceptionCheck(env)) jf_throw(env, &err);
  return rc;
}

jlong jf_make_onto_tape(JNIEnv *env, jlong core, jint si, jlong tape, jlong caps, jf_make_op make,
                        void *ctx) {
  const jf_core *c = jf_core_of(env, core, si);
  fbei_tape tp;
  if (!c || jf_tape_at(env, tape, caps, &tp)) return 0;
  fbei_scratch *s = jf_scratch(env);
  if (!s) return 0;
  fbe_msg *m = NULL;
  fbe_error err;
  uint64_t need_n = 0, need_p = 0;
  int rc = 0;
  fbe_status st = make(ctx, &tp, fbe_schema_struct_at(c->schema, (size_t)si), s->arena, &m, &err);
  if (!st) rc = fbei_tape_write(c->progs, &tp, m, 0, 0, &need_n, &need_p); /* (over an input on it: used up) */
  if (st) {
    m = NULL;
    if (!(*env)->ExceptionCheck(env)) jf_throw(env, &err);
  }
  fbei_scratch_put(&jf_pool, s);
  if (!m) return 0; /* (thrown) */
  if (need_n > INT32_MAX - 8 || need_p > INT32_MAX - 8) {
    jf_throw_status(env, FBE_ERR_LIMIT, "the value is larger than a Java array");
    return 0;
  }
  jlong used = (jlong)(need_n << 32 | need_p);
  return rc ? -1 - used : used;
}

/* ---- scalars from their text, judged by the core (docs/INPUT.md): a uuid, a decimal,
 * an enum or flags value given as a Java String; and an enum value's text. Bad text
 * throws the core's error (ARGUMENT, RANGE for a decimal beyond FBE's). */

/* A Java byte[] (UTF-8) copied into buf; its length, or -1 with an exception thrown
 * when it does not fit (the texts here are short: a longer one is bad text anyway). */
static jint text_in(JNIEnv *env, jbyteArray text, char *buf, jint cap) {
  jint n = text ? (*env)->GetArrayLength(env, text) : -1;
  if (n < 0) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "no text");
    return -1;
  }
  if (n >= cap) n = cap - 1; /* cut: the core quotes what it refuses, shortened anyway */
  (*env)->GetByteArrayRegion(env, text, 0, n, (jbyte *)buf);
  buf[n] = 0;
  return n;
}

/* Walk.uuidParse: {most, least} significant 64 bits of the uuid text. */
JNIEXPORT jlongArray JNICALL Java_org_libfbe_internal_Walk_uuidParse(JNIEnv *env, jclass cls, jbyteArray text) {
  char buf[128];
  jint n = text_in(env, text, buf, sizeof buf);
  if (n < 0) return NULL;
  fbe_uuid u;
  fbe_error err;
  if (fbe_uuid_parse(buf, (size_t)n, &u) != FBE_OK) {
    fbei_error_bad_text(&err, FBE_KIND_UUID, buf, (size_t)n);
    jf_throw(env, &err);
    return NULL;
  }
  jlong halves[2] = {0, 0};
  for (int i = 0; i < 8; i++) {
    halves[0] = (jlong)((uint64_t)halves[0] << 8 | u.bytes[i]);
    halves[1] = (jlong)((uint64_t)halves[1] << 8 | u.bytes[8 + i]);
  }
  jlongArray out = (*env)->NewLongArray(env, 2);
  if (out) (*env)->SetLongArrayRegion(env, out, 0, 2, halves);
  return out;
}

/* Walk.decimalParse: the decimal text as the core reads it, written back in the core's
 * form (fbe_decimal_format: the scale kept), for Java's BigDecimal. */
JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_decimalParse(JNIEnv *env, jclass cls, jbyteArray text) {
  jint n = text ? (*env)->GetArrayLength(env, text) : -1;
  if (n < 0) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "no text");
    return NULL;
  }
  jbyte *s = (*env)->GetByteArrayElements(env, text, NULL);
  if (!s) return NULL;
  fbe_decimal d;
  fbe_status st = fbe_decimal_parse((const char *)s, (size_t)n, &d);
  if (st != FBE_OK) {
    char shown[128]; /* the range message quotes a terminated text: its start */
    size_t k = (size_t)n < sizeof shown - 1 ? (size_t)n : sizeof shown - 1;
    memcpy(shown, s, k);
    shown[k] = 0;
    fbe_error err;
    if (st == FBE_ERR_RANGE) fbei_error_decimal_range(&err, shown);
    else fbei_error_bad_text(&err, FBE_KIND_DECIMAL, (const char *)s, (size_t)n);
    (*env)->ReleaseByteArrayElements(env, text, s, JNI_ABORT);
    jf_throw(env, &err);
    return NULL;
  }
  (*env)->ReleaseByteArrayElements(env, text, s, JNI_ABORT);
  char out[64];
  fbe_decimal_format(&d, out, sizeof out);
  return jf_bytes(env, out, strlen(out));
}

/* Walk.enumParse: the value of an enum's member name, or of flags' "a|b|64" (fbe_enum_parse). */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_enumParse(JNIEnv *env, jclass cls, jlong core, jint ei,
                                                                jbyteArray text) {
  const fbe_enum *e = jf_enum_of(env, core, ei);
  jint n = text ? (*env)->GetArrayLength(env, text) : -1;
  if (!e || n < 0) {
    if (e) jf_throw_status(env, FBE_ERR_ARGUMENT, "no text");
    return 0;
  }
  jbyte *s = (*env)->GetByteArrayElements(env, text, NULL);
  if (!s) return 0;
  uint64_t v = 0;
  fbe_error err;
  fbe_status st = fbe_enum_parse(e, (const char *)s, (size_t)n, &v, &err);
  (*env)->ReleaseByteArrayElements(env, text, s, JNI_ABORT);
  if (st != FBE_OK) jf_throw(env, &err);
  return (jlong)v;
}

/* Walk.enumText: one enum or flags value in the text form (fbe_text_write_enum). */
JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_enumText(JNIEnv *env, jclass cls, jlong core, jint ei,
                                                                    jlong value) {
  const fbe_enum *e = jf_enum_of(env, core, ei);
  if (!e) return NULL;
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_error err;
  jbyteArray text = NULL;
  if (fbe_text_write_enum(e, (uint64_t)value, &out, &err) != FBE_OK) jf_throw(env, &err);
  else text = jf_bytes(env, out.data, out.size);
  fbe_buffer_free(&out);
  return text;
}

/* Java arrays and values in and out: byte[]s, ranges, limits, and the tape itself
 * (org.libfbe.Tape's long[] of slots and byte[] of contents), held as critical sections
 * (no copy) while C reads or writes it. */
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

/* Java's tape arrays, held: no JNI call until tape_close. 0, or -1 with an exception. */
static int tape_open(JNIEnv *env, jlongArray num, jbyteArray bytes, fbei_tape *tp) {
  if (!num || !bytes) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "no tape");
    return -1;
  }
  tp->num_cap = (uint32_t)(*env)->GetArrayLength(env, num);
  tp->bytes_cap = (uint32_t)(*env)->GetArrayLength(env, bytes);
  if (!(tp->num = (*env)->GetPrimitiveArrayCritical(env, num, NULL))) return -1;
  if ((tp->bytes = (*env)->GetPrimitiveArrayCritical(env, bytes, NULL))) return 0;
  (*env)->ReleasePrimitiveArrayCritical(env, num, tp->num, JNI_ABORT);
  return -1;
}

static void tape_close(JNIEnv *env, jlongArray num, jbyteArray bytes, fbei_tape *tp) {
  (*env)->ReleasePrimitiveArrayCritical(env, bytes, tp->bytes, 0);
  (*env)->ReleasePrimitiveArrayCritical(env, num, tp->num, 0);
}

static fbei_scratch *scratch(JNIEnv *env) {
  fbei_scratch *s = fbei_scratch_get(&jf_pool);
  if (!s) jf_throw_status(env, FBE_ERR_NOMEM, "out of memory");
  return s;
}

int jf_with_tape(JNIEnv *env, jlong core, jint si, jlongArray num, jbyteArray bytes, int count, jf_tape_op op,
                 void *ctx) {
  const jf_core *c = jf_core_of(env, core, si);
  fbei_scratch *s = c ? scratch(env) : NULL;
  fbei_tape tp;
  if (!s || tape_open(env, num, bytes, &tp)) {
    fbei_scratch_put(&jf_pool, s);
    return -1;
  }
  const fbe_struct *st = fbe_schema_struct_at(c->schema, (size_t)si);
  uint32_t n = 0, p = 0;
  fbe_error err;
  fbe_msg *a = fbei_tape_read(c->progs, &tp, st, &n, &p, s->arena, &err);
  fbe_msg *b = a && count > 1 ? fbei_tape_read(c->progs, &tp, st, &n, &p, s->arena, &err) : NULL;
  int rc = a && (count < 2 || b) ? op(ctx, &tp, a, b, s, &err) : -1;
  tape_close(env, num, bytes, &tp);
  fbei_scratch_put(&jf_pool, s);
  if (rc) jf_throw(env, &err);
  return rc;
}

jlong jf_make_onto_tape(JNIEnv *env, jlong core, jint si, jlongArray num, jbyteArray bytes, jf_make_op make,
                        void *ctx) {
  const jf_core *c = jf_core_of(env, core, si);
  fbei_scratch *s = c ? scratch(env) : NULL;
  if (!s) return 0;
  fbe_msg *m = NULL;
  fbe_error err;
  fbei_tape tp;
  uint64_t need_n = 0, need_p = 0;
  int rc = 0;
  if (make(ctx, fbe_schema_struct_at(c->schema, (size_t)si), s->arena, &m, &err)) {
    jf_throw(env, &err);
  } else if (!tape_open(env, num, bytes, &tp)) {
    rc = fbei_tape_write(c->progs, &tp, m, 0, 0, &need_n, &need_p);
    tape_close(env, num, bytes, &tp);
  }
  fbei_scratch_put(&jf_pool, s);
  if (!rc) return 0;
  if (need_n > INT32_MAX - 8 || need_p > INT32_MAX - 8) {
    jf_throw_status(env, FBE_ERR_LIMIT, "the value is larger than a Java array");
    return 0;
  }
  return (jlong)(need_n << 32 | need_p);
}

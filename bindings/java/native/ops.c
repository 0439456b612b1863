/* The per-message entry points of org.libfbe.internal.Walk, one native call each:
 * encode, JSON out, the text form, equality and the key hash and order read the
 * message(s) from Java's tape; defaults, decode and JSON in write the message onto it
 * (convert.c); verify and the limits take none. */
#include <string.h>
#include "binding.h"
#include "fbe/internal/input.h"

static fbe_model model_of(jint model) { return model & 1 ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD; }

/* Walk.encode's model | ENCODE_GENERAL: the general way only (the tests compare the two). */
enum { ENCODE_GENERAL = 2 };

/* What op_write writes: the model's bytes, the JSON text, or the text form (text.h). */
enum { WRITE_MODEL, WRITE_JSON, WRITE_TEXT };

/* in: what to write, the model (encode) or pretty (JSON), and where on the byte tape the
 * output goes (`at`: past the tape's own bytes, which the message read from it points
 * into); out: the size of the bytes written there (Java copies them out, cheaper than a
 * new array made through JNI), or -1 - size when they do not fit. */
typedef struct write_ctx {
  int what;
  jint how, size;
  uint32_t at;
} write_ctx;

static int op_write(void *ctx, fbei_tape *tp, fbe_msg *a, fbe_msg *b, fbei_scratch *s, fbe_error *err) {
  write_ctx *w = ctx;
  fbe_status st = w->what == WRITE_JSON   ? fbe_msg_to_json(a, w->how ? 1 : 0, &s->buf, err)
                  : w->what == WRITE_TEXT ? fbe_msg_to_text(a, &s->buf, err)
                                          : fbe_encode(a, model_of(w->how), &s->buf, err);
  if (st) return -1;
  if (s->buf.size > INT32_MAX - 8) {
    fbei_error_set(err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "the output is larger than a Java array");
    return -1;
  }
  w->size = (jint)s->buf.size;
  if (w->at <= tp->bytes_cap && s->buf.size <= tp->bytes_cap - w->at) memcpy(tp->bytes + w->at, s->buf.data, s->buf.size);
  else w->size = -1 - w->size;
  return 0;
}

/* Deep equality by the core's rules (floats by bit pattern, decimals by value). */
static int op_equal(void *ctx, fbei_tape *tp, fbe_msg *a, fbe_msg *b, fbei_scratch *s, fbe_error *err) {
  *(int *)ctx = fbe_msg_equal(a, b);
  return 0;
}

/* The [key] fields' hash and order (fbe_msg_key_hash, fbe_msg_key_compare). */
static int op_key_hash(void *ctx, fbei_tape *tp, fbe_msg *a, fbe_msg *b, fbei_scratch *s, fbe_error *err) {
  *(uint64_t *)ctx = fbe_msg_key_hash(a);
  return 0;
}

static int op_key_compare(void *ctx, fbei_tape *tp, fbe_msg *a, fbe_msg *b, fbei_scratch *s, fbe_error *err) {
  if (!fbe_struct_has_keys(fbe_msg_type(a))) return fbei_error_unordered(err, fbe_msg_type(a)), -1;
  *(int *)ctx = fbe_msg_key_compare(a, b);
  return 0;
}

/* Walk.encode: the message on the tape (used: its slots << 32 | bytes) encoded; the bytes
 * go after the tape's own (at byte `used & 0xFFFFFFFF` of the byte tape). */
JNIEXPORT jint JNICALL Java_org_libfbe_internal_Walk_encode(JNIEnv *env, jclass cls, jlong core, jint si,
                                                            jlong tape, jlong caps, jlong used, jint model) {
  const jf_core *c = jf_core_of(env, core, si);
  fbei_tape tp;
  if (!c || jf_tape_at(env, tape, caps, &tp)) return 0;
  uint32_t n = (uint32_t)((uint64_t)used >> 32), p = (uint32_t)used;
  if (!(model & ENCODE_GENERAL) && n <= tp.num_cap && p <= tp.bytes_cap) {
    /* straight from the tape to the bytes; what that walk leaves (fbe/internal/tape.h)
     * goes the general way below, which gives the bytes or the error */
    fbei_tape own = {tp.num, n, tp.bytes, p};
    int64_t size = fbei_tape_encode(c->progs, &own, fbe_schema_struct_at(c->schema, (size_t)si), model_of(model),
                                    tp.bytes + p, tp.bytes_cap - p);
    if (size >= 0) return (jint)size;
  }
  write_ctx w = {WRITE_MODEL, model, 0, (uint32_t)used};
  jf_with_tape(env, core, si, tape, caps, 1, op_write, &w);
  return w.size;
}

JNIEXPORT jint JNICALL Java_org_libfbe_internal_Walk_toJson(JNIEnv *env, jclass cls, jlong core, jint si,
                                                            jlong tape, jlong caps, jlong used, jboolean pretty) {
  write_ctx w = {WRITE_JSON, pretty, 0, (uint32_t)used};
  jf_with_tape(env, core, si, tape, caps, 1, op_write, &w);
  return w.size;
}

JNIEXPORT jint JNICALL Java_org_libfbe_internal_Walk_toText(JNIEnv *env, jclass cls, jlong core, jint si,
                                                            jlong tape, jlong caps, jlong used) {
  write_ctx w = {WRITE_TEXT, 0, 0, (uint32_t)used};
  jf_with_tape(env, core, si, tape, caps, 1, op_write, &w);
  return w.size;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_keyHash(JNIEnv *env, jclass cls, jlong core, jint si,
                                                              jlong tape, jlong caps) {
  uint64_t h = 0;
  jf_with_tape(env, core, si, tape, caps, 1, op_key_hash, &h);
  return (jlong)h;
}

JNIEXPORT jint JNICALL Java_org_libfbe_internal_Walk_keyCompare(JNIEnv *env, jclass cls, jlong core, jint si,
                                                                jlong tape, jlong caps) {
  int order = 0;
  jf_with_tape(env, core, si, tape, caps, 2, op_key_compare, &order);
  return order;
}

JNIEXPORT jboolean JNICALL Java_org_libfbe_internal_Walk_equal(JNIEnv *env, jclass cls, jlong core, jint si,
                                                               jlong tape, jlong caps) {
  int same = 0;
  jf_with_tape(env, core, si, tape, caps, 2, op_equal, &same);
  return same ? JNI_TRUE : JNI_FALSE;
}

static fbe_status make_defaults(void *ctx, const fbei_tape *tp, const fbe_struct *st, fbe_arena *arena, fbe_msg **out,
                                fbe_error *err) {
  *out = fbe_msg_new(arena, st);
  return *out ? FBE_OK : fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_defaults(JNIEnv *env, jclass cls, jlong core, jint si,
                                                               jlong tape, jlong caps) {
  return jf_make_onto_tape(env, core, si, tape, caps, make_defaults, NULL);
}

/* What decode and fromJson read: a Java byte[] range (or, in_tape, the len bytes Java put
 * at the start of the tape's byte part) and the call's limits. */
typedef struct input_ctx {
  JNIEnv *env;
  jbyteArray data;
  jint off, len, model;
  jboolean in_tape;        /* decode: the input is on the tape (Java copied it there) */
  jboolean trusted;        /* decode: skip the verify */
  jboolean ignore_unknown; /* fromJson: skip the members the struct does not have */
  const fbe_limits *limits;
} input_ctx;

/* The core's verifying fbe_decode, or fbe_decode_trusted when asked (the core decides
 * what each refuses; this only passes the flag). It copies what it keeps into the
 * arena, so the input is used up before the tape is written over it. A small input
 * comes on the tape (Java copies it there: no VM transition at all); a larger one is
 * read in place in a critical section. */
static fbe_status make_decoded(void *ctx, const fbei_tape *tp, const fbe_struct *st, fbe_arena *arena, fbe_msg **out,
                               fbe_error *err) {
  input_ctx *in = ctx;
  if (in->in_tape && (uint32_t)in->len > tp->bytes_cap)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "internal error: the input is not on the tape");
  uint8_t *data = in->in_tape ? tp->bytes : (*in->env)->GetPrimitiveArrayCritical(in->env, in->data, NULL);
  if (!data) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory"); /* (and pending) */
  const uint8_t *model = in->in_tape ? data : data + in->off;
  fbe_status rc = (in->trusted ? fbe_decode_trusted : fbe_decode)(st, model_of(in->model), model, (size_t)in->len,
                                                                 arena, in->limits, out, NULL, err);
  if (!in->in_tape) (*in->env)->ReleasePrimitiveArrayCritical(in->env, in->data, data, JNI_ABORT);
  return rc;
}

static fbe_status make_from_json(void *ctx, const fbei_tape *tp, const fbe_struct *st, fbe_arena *arena, fbe_msg **out,
                                 fbe_error *err) {
  input_ctx *in = ctx;
  char *text = fbe_arena_alloc(arena, (size_t)in->len + 1);
  uint8_t *utf8 = text ? (*in->env)->GetPrimitiveArrayCritical(in->env, in->data, NULL) : NULL; /* (nested) */
  if (!utf8) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  memcpy(text, utf8, (size_t)in->len);
  (*in->env)->ReleasePrimitiveArrayCritical(in->env, in->data, utf8, JNI_ABORT);
  text[in->len] = 0;
  fbe_json_options opts = {0};
  opts.ignore_unknown = in->ignore_unknown ? 1 : 0;
  opts.limits = in->limits;
  return fbe_msg_from_json_opts(st, text, (size_t)in->len, arena, &opts, out, err);
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_decode(JNIEnv *env, jclass cls, jlong core, jint si,
    jbyteArray data, jint off, jint len, jboolean in_tape, jint model, jboolean trusted, jlong max_depth,
    jlong max_model_size, jlong max_memory, jlong tape, jlong caps) {
  fbe_limits storage;
  int failed;
  input_ctx in = {env, data, off, len, model, in_tape, trusted, JNI_FALSE, NULL};
  if (!in_tape && jf_check_range(env, data, off, len)) return 0; /* (on the tape: Java's copy took it) */
  in.limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  return failed ? 0 : jf_make_onto_tape(env, core, si, tape, caps, make_decoded, &in);
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_fromJson(JNIEnv *env, jclass cls, jlong core, jint si,
    jbyteArray utf8, jboolean ignore_unknown, jlong max_depth, jlong max_model_size, jlong max_memory, jlong tape,
    jlong caps) {
  fbe_limits storage;
  int failed;
  input_ctx in = {env, utf8, 0, utf8 ? (*env)->GetArrayLength(env, utf8) : 0, 0, JNI_FALSE, JNI_FALSE, ignore_unknown, NULL};
  if (jf_check_range(env, utf8, 0, in.len)) return 0;
  in.limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  return failed ? 0 : jf_make_onto_tape(env, core, si, tape, caps, make_from_json, &in);
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_verify(JNIEnv *env, jclass cls, jlong core, jint si,
    jbyteArray data, jint off, jint len, jint model, jlong max_depth, jlong max_model_size, jlong max_memory) {
  const jf_core *c = jf_core_of(env, core, si);
  if (!c || jf_check_range(env, data, off, len)) return -1;
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  uint8_t *in = failed ? NULL : (*env)->GetPrimitiveArrayCritical(env, data, NULL);
  if (!in) return -1;
  size_t size = 0;
  fbe_error err;
  fbe_status st = fbe_verify(fbe_schema_struct_at(c->schema, (size_t)si), model_of(model), in + off, (size_t)len,
                             limits, &size, &err);
  (*env)->ReleasePrimitiveArrayCritical(env, data, in, JNI_ABORT);
  if (!st) return (jlong)size;
  jf_throw(env, &err);
  return -1;
}

/* Walk.limitsSet: limits[3] = {max_depth, max_model_size, max_memory}; the member `name`
 * set to value by the core's rule, or its error thrown (limits unchanged). */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_limitsSet(JNIEnv *env, jclass cls, jlongArray limits,
                                                               jstring name, jlong value) {
  if (!limits || !name || (*env)->GetArrayLength(env, limits) != 3) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "limitsSet(long[3], name, value)");
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
    jf_throw(env, &err);
    return;
  }
  v[0] = (jlong)l.max_depth;
  v[1] = (jlong)l.max_model_size;
  v[2] = (jlong)l.max_memory;
  (*env)->SetLongArrayRegion(env, limits, 0, 3, v);
}

/* Walk.address: where a direct ByteBuffer's memory starts (org.libfbe.Tape's, asked once
 * per buffer; the calls then take that address). 0 when it is not a direct buffer. */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_address(JNIEnv *env, jclass cls, jobject buffer) {
  return buffer ? (jlong)(intptr_t)(*env)->GetDirectBufferAddress(env, buffer) : 0;
}

/* Walk.verifyAt: verify of the len bytes Java put at the start of the tape's byte part
 * (no pin): the model size, or -1 with verify's exception thrown. */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_verifyAt(JNIEnv *env, jclass cls, jlong core, jint si,
    jlong tape, jlong caps, jint len, jint model, jlong max_depth, jlong max_model_size, jlong max_memory) {
  const jf_core *c = jf_core_of(env, core, si);
  fbei_tape tp;
  if (!c || jf_tape_at(env, tape, caps, &tp)) return -1;
  if (len < 0 || (uint32_t)len > tp.bytes_cap) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "internal error: the input is not on the tape");
    return -1;
  }
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  if (failed) return -1;
  size_t size = 0;
  fbe_error err;
  if (!fbe_verify(fbe_schema_struct_at(c->schema, (size_t)si), model_of(model), tp.bytes, (size_t)len, limits, &size,
                  &err))
    return (jlong)size;
  jf_throw(env, &err);
  return -1;
}

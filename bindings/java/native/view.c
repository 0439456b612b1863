/* org.libfbe.View's entry points: a view (fbe/view.h) over the bytes, read in place. The
 * View holds its own copy of the bytes in a Java byte[] (made once at the open, so the
 * caller's array may change) and a cursor (the fbe_view members that change from value
 * to value: type, at, base, image) as plain longs; each call pins the copy for its
 * duration (a critical section: no copy, no JNI call inside) and rebuilds the fbe_view.
 * No native state per view, so nothing to free: the GC owns it all. The cursors' types
 * point into the core's schema, which Schema keeps alive while any of its views can be
 * reachable (Walk.schemaRetain below). */
#include <string.h>
#include "binding.h"

/* Pins the view's bytes (NULL with an exception pending when the JVM cannot). */
static uint8_t *pin(JNIEnv *env, jbyteArray data) { return (*env)->GetPrimitiveArrayCritical(env, data, NULL); }
static void unpin(JNIEnv *env, jbyteArray data, uint8_t *p) {
  (*env)->ReleasePrimitiveArrayCritical(env, data, p, JNI_ABORT);
}

/* The cursor Java passes, back into an fbe_view over the pinned bytes p. */
static fbe_view cursor(const uint8_t *p, jlong end, jint model, jlong type, jlong at, jlong base, jlong image) {
  fbe_view v = {(const fbe_type *)(intptr_t)type, p, (uint64_t)end, (uint64_t)at, (uint64_t)base,
                (const void *)(intptr_t)image, model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, 0};
  return v;
}

#define CURSOR jbyteArray data, jlong end, jint model, jlong type, jlong at, jlong base, jlong image
#define CURSOR_AT(p) cursor(p, end, model, type, at, base, image)

/* The cursor members into Java's long[4] (outside the critical section). */
static void put_cursor(JNIEnv *env, jlongArray out, fbe_view v) {
  jlong c[4] = {(jlong)(intptr_t)v.type, (jlong)v.at, (jlong)v.base, (jlong)(intptr_t)v.image};
  (*env)->SetLongArrayRegion(env, out, 0, 4, c);
}

/* Walk.schemaRetain / schemaRelease: the reference to the core's schema that Schema takes
 * at its first view and drops when it is unreachable (its views keep it reachable). */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_schemaRetain(JNIEnv *env, jclass cls, jlong core) {
  const jf_core *c = jf_core_of(env, core, 0);
  return c ? (jlong)(intptr_t)fbe_schema_retain(c->schema) : 0;
}

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_schemaRelease(JNIEnv *env, jclass cls, jlong schema) {
  fbe_schema_release((fbe_schema *)(intptr_t)schema);
}

/* Walk.viewOpen: checks data[off, off+len) (the one check of the range, the core's words
 * as decode's), copies it into a new byte[] (the View's own: the caller's array may
 * change afterwards) and verifies the copy as a model of struct si, with decode's verify,
 * limits and error. Returns the copy; the root's cursor in out[0..4), the model's size
 * (the views' end) in out[4]; NULL with the exception thrown. */
JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_viewOpen(JNIEnv *env, jclass cls, jlong core, jint si,
    jbyteArray data, jint off, jint len, jint model, jlong max_depth, jlong max_model_size, jlong max_memory,
    jlongArray out) {
  const jf_core *c = jf_core_of(env, core, si);
  if (!c || jf_check_range(env, data, off, len)) return NULL;
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  jbyteArray copy = failed ? NULL : (*env)->NewByteArray(env, len);
  uint8_t *p = copy ? pin(env, copy) : NULL;
  uint8_t *from = p ? pin(env, data) : NULL; /* (nested critical sections are allowed) */
  if (!from) {
    if (p) unpin(env, copy, p);
    return NULL;
  }
  memcpy(p, from + off, (size_t)len);
  unpin(env, data, from);
  fbe_view root;
  fbe_error err;
  fbe_status st = fbe_view_open(fbe_schema_struct_at(c->schema, (size_t)si), model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD,
                                p, (size_t)len, limits, &root, &err);
  (*env)->ReleasePrimitiveArrayCritical(env, copy, p, 0); /* keep what was copied in */
  if (st) {
    jf_throw(env, &err);
    return NULL;
  }
  jlong c5[5] = {(jlong)(intptr_t)root.type, (jlong)root.at, (jlong)root.base, (jlong)(intptr_t)root.image,
                 (jlong)root.end};
  (*env)->SetLongArrayRegion(env, out, 0, 5, c5);
  return copy;
}

/* How viewChild moves from a value to one inside it. */
enum { CHILD_FIELD, CHILD_AT, CHILD_KEY, CHILD_VALUE, CHILD_DEREF };

static fbe_view child(fbe_view v, jint how, jint index) {
  size_t i = (size_t)index;
  switch (how) {
    case CHILD_FIELD: return fbe_view_field(v, i);
    case CHILD_AT: return fbe_view_at(v, i);
    case CHILD_KEY: return fbe_view_key_at(v, i);
    case CHILD_VALUE: return fbe_view_value_at(v, i);
    default: return fbe_view_deref(v);
  }
}

/* Walk.viewChild: the value inside (how: field, element, map key, map value, an
 * optional's value) into out[4], through an optional: 1, 2 for a null optional, 0 when
 * there is none (Java says why: it knows the types and counts). */
JNIEXPORT jint JNICALL Java_org_libfbe_internal_Walk_viewChild(JNIEnv *env, jclass cls, CURSOR, jint how,
                                                               jint index, jlongArray out) {
  uint8_t *p = index < 0 ? NULL : pin(env, data);
  if (!p) return 0;
  fbe_view c = child(CURSOR_AT(p), how, index);
  int got = 1;
  if (fbe_view_kind(c) == FBE_KIND_OPTIONAL) {
    if (fbe_view_is_null(c)) got = 2;
    else c = fbe_view_deref(c);
  }
  if (got == 1 && !fbe_view_ok(c)) got = 0;
  unpin(env, data, p);
  if (got == 1) put_cursor(env, out, c);
  return got;
}

/* Item `index` (>= 0) of a view: a struct's field, a map's value i, any other
 * collection's element i; index < 0: the view itself. */
static fbe_view item(fbe_view v, jint index) {
  if (index < 0) return v;
  switch (fbe_view_kind(v)) {
    case FBE_KIND_STRUCT: return fbe_view_field(v, (size_t)index);
    case FBE_KIND_MAP: case FBE_KIND_HASH: return fbe_view_value_at(v, (size_t)index);
    default: return fbe_view_at(v, (size_t)index);
  }
}

/* Walk.viewCount: elements of a collection, entries of a map (of item `index`, see
 * item()); -1 for a null optional. */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_viewCount(JNIEnv *env, jclass cls, CURSOR, jint index) {
  uint8_t *p = pin(env, data);
  if (!p) return 0;
  fbe_view v = item(CURSOR_AT(p), index);
  jlong n = -1;
  if (fbe_view_kind(v) != FBE_KIND_OPTIONAL || !fbe_view_is_null(v))
    n = (jlong)fbe_view_count(fbe_view_kind(v) == FBE_KIND_OPTIONAL ? fbe_view_deref(v) : v);
  unpin(env, data, p);
  return n;
}

/* The scalar a getter reads: item `index` (see item()), through an optional. FBE_OK, or
 * the status and words to throw (after the critical section). */
typedef struct failure {
  fbe_status code;
  const char *what;
} failure;

static int scalar(fbe_view *v, jint index, failure *f) {
  *v = item(*v, index);
  if (index >= 0 && !fbe_view_ok(*v)) {
    f->code = FBE_ERR_NOT_FOUND, f->what = "index out of range";
    return 0;
  }
  if (fbe_view_kind(*v) == FBE_KIND_OPTIONAL) {
    if (fbe_view_is_null(*v)) {
      f->code = FBE_ERR_NOT_FOUND, f->what = "the optional holds no value";
      return 0;
    }
    *v = fbe_view_deref(*v);
  }
  if (fbe_view_ok(*v)) return 1;
  f->code = FBE_ERR_TYPE, f->what = "no value here";
  return 0;
}

static void fail(failure *f, fbe_status st, const char *what) {
  f->code = st;
  f->what = st == FBE_ERR_RANGE ? "the value does not fit" : what;
}

/* Walk.viewLong: an integer, bool, char, wchar, enum, flags or timestamp as its 64 bits
 * (unsigned ones zero-extended, uint64 as its pattern). */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_viewLong(JNIEnv *env, jclass cls, CURSOR, jint index) {
  uint8_t *p = pin(env, data);
  if (!p) return 0;
  fbe_view v = CURSOR_AT(p);
  failure f = {FBE_OK, NULL};
  int64_t x = 0;
  if (scalar(&v, index, &f)) {
    fbe_status st = fbe_view_get_int(v, &x);
    if (st == FBE_ERR_RANGE) { /* a uint64 above INT64_MAX: its bits */
      uint64_t u = 0;
      st = fbe_view_get_uint(v, &u);
      x = (int64_t)u;
    }
    if (st) fail(&f, st, "not an integer");
  }
  unpin(env, data, p);
  if (f.code) jf_throw_status(env, f.code, f.what);
  return (jlong)x;
}

/* Walk.viewDouble: a float or double. */
JNIEXPORT jdouble JNICALL Java_org_libfbe_internal_Walk_viewDouble(JNIEnv *env, jclass cls, CURSOR, jint index) {
  uint8_t *p = pin(env, data);
  if (!p) return 0;
  fbe_view v = CURSOR_AT(p);
  failure f = {FBE_OK, NULL};
  double x = 0;
  if (scalar(&v, index, &f)) {
    fbe_status st = fbe_view_get_double(v, &x);
    if (st) fail(&f, st, "not a float or double");
  }
  unpin(env, data, p);
  if (f.code) jf_throw_status(env, f.code, f.what);
  return x;
}

/* Walk.viewLongs / viewDoubles: every element of a collection of scalars (item `index`,
 * see item(); an array, vector, list or set, through an optional) read by the core's
 * getters as viewLong / viewDouble read one, into a new long[] / double[]: ONE native
 * call for the lot. An element that is not such a scalar (or a null optional) throws
 * with its index in the path. */
static jarray bulk(JNIEnv *env, CURSOR, jint index, int doubles) {
  uint8_t *p = pin(env, data);
  if (!p) return NULL;
  fbe_view v = CURSOR_AT(p);
  failure f = {FBE_OK, NULL};
  enum { ON_STACK = 128 };
  int64_t small[ON_STACK], *got = small; /* a double's bits when doubles */
  size_t n = 0, i = 0, bad = SIZE_MAX; /* bad: the element that failed */
  if (scalar(&v, index, &f)) {
    fbe_kind k = fbe_view_kind(v);
    const fbe_type *e = v.type->elem; /* the elements' type, through an optional; enums as their base */
    fbe_kind w = e && e->kind == FBE_KIND_OPTIONAL ? e->elem->wire : e ? e->wire : FBE_KIND_COUNT_;
    int fits = doubles ? w == FBE_KIND_FLOAT || w == FBE_KIND_DOUBLE : w <= FBE_KIND_UINT64 || w == FBE_KIND_TIMESTAMP;
    if (k != FBE_KIND_ARRAY && k != FBE_KIND_VECTOR && k != FBE_KIND_LIST && k != FBE_KIND_SET)
      fail(&f, FBE_ERR_TYPE, "not an array, vector, list or set");
    else if (!fits)
      fail(&f, FBE_ERR_TYPE, doubles ? "not a collection of floats or doubles" : "not a collection of integers");
    else if ((n = fbe_view_count(v)) > INT32_MAX - 8)
      fail(&f, FBE_ERR_LIMIT, "the value is larger than a Java array");
    else if (n > ON_STACK && !(got = fbei_mem_alloc(n * sizeof *got)))
      fail(&f, FBE_ERR_NOMEM, "out of memory");
    for (; !f.code && i < n; i++) {
      fbe_view e = fbe_view_at(v, i);
      if (fbe_view_kind(e) == FBE_KIND_OPTIONAL) {
        if (fbe_view_is_null(e)) {
          fail(&f, FBE_ERR_NOT_FOUND, "the optional holds no value");
          bad = i;
          break;
        }
        e = fbe_view_deref(e);
      }
      fbe_status st;
      if (doubles) {
        double d = 0;
        st = fbe_view_get_double(e, &d);
        memcpy(&got[i], &d, sizeof d);
      } else if ((st = fbe_view_get_int(e, &got[i])) == FBE_ERR_RANGE) { /* a uint64 above INT64_MAX: its bits */
        uint64_t u = 0;
        st = fbe_view_get_uint(e, &u);
        got[i] = (int64_t)u;
      }
      if (st) {
        fail(&f, st, doubles ? "not a float or double" : "not an integer");
        bad = i;
        break;
      }
    }
  }
  unpin(env, data, p);
  jarray out = NULL;
  if (f.code) {
    fbe_error err;
    fbei_error_set(&err, f.code, FBE_NO_OFFSET, "%s", f.what);
    if (bad != SIZE_MAX) fbei_error_prepend_index(&err, bad);
    jf_throw(env, &err);
  } else if (doubles) {
    if ((out = (*env)->NewDoubleArray(env, (jsize)n)) && n)
      (*env)->SetDoubleArrayRegion(env, out, 0, (jsize)n, (const jdouble *)(const void *)got);
  } else if ((out = (*env)->NewLongArray(env, (jsize)n)) && n) {
    (*env)->SetLongArrayRegion(env, out, 0, (jsize)n, (const jlong *)got);
  }
  if (got != small) fbei_mem_free(got);
  return out;
}

JNIEXPORT jlongArray JNICALL Java_org_libfbe_internal_Walk_viewLongs(JNIEnv *env, jclass cls, CURSOR, jint index) {
  return bulk(env, data, end, model, type, at, base, image, index, 0);
}

JNIEXPORT jdoubleArray JNICALL Java_org_libfbe_internal_Walk_viewDoubles(JNIEnv *env, jclass cls, CURSOR, jint index) {
  return bulk(env, data, end, model, type, at, base, image, index, 1);
}

/* Walk.viewSpan: where a string's or bytes' contents are in the View's copy, as
 * (offset << 32 | length), for Java to read them there; -1 when they are not in it (a
 * schema default: read them with viewBytes). */
JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_viewSpan(JNIEnv *env, jclass cls, CURSOR, jint index) {
  uint8_t *p = pin(env, data);
  if (!p) return 0;
  fbe_view v = CURSOR_AT(p);
  failure f = {FBE_OK, NULL};
  const uint8_t *s = NULL;
  size_t n = 0;
  jlong span = -1;
  if (scalar(&v, index, &f)) {
    if (fbe_view_get_bytes(v, &s, &n)) fail(&f, FBE_ERR_TYPE, "not a string or bytes");
    else if (s >= p && s <= p + end && n <= (size_t)(p + end - s)) span = (jlong)((uint64_t)(s - p) << 32 | n);
  }
  unpin(env, data, p);
  if (f.code) jf_throw_status(env, f.code, f.what);
  return span;
}

/* Walk.viewBytes: a string's UTF-8, bytes' contents, a decimal's text (fbe_decimal_format,
 * for Java's BigDecimal) or a uuid's 16 bytes: a new byte[] (made after the critical
 * section, from a copy). */
JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_viewBytes(JNIEnv *env, jclass cls, CURSOR, jint index) {
  uint8_t *p = pin(env, data);
  if (!p) return NULL;
  fbe_view v = CURSOR_AT(p);
  failure f = {FBE_OK, NULL};
  char small[64];
  uint8_t *copy = NULL;
  size_t n = 0;
  if (scalar(&v, index, &f)) {
    fbe_kind k = fbe_view_kind(v);
    fbe_decimal d;
    fbe_uuid u;
    const uint8_t *s = NULL;
    if (k == FBE_KIND_DECIMAL && !fbe_view_get_decimal(v, &d)) {
      fbe_decimal_format(&d, small, sizeof small);
      n = strlen(small);
    } else if (k == FBE_KIND_UUID && !fbe_view_get_uuid(v, &u)) {
      memcpy(small, u.bytes, n = sizeof u.bytes);
    } else if (!fbe_view_get_bytes(v, &s, &n)) {
      if (n > sizeof small && !(copy = fbei_mem_alloc(n))) fail(&f, FBE_ERR_NOMEM, "out of memory");
      else if (n) memcpy(copy ? copy : (uint8_t *)small, s, n);
    } else {
      fail(&f, FBE_ERR_TYPE, "not a string, bytes, decimal or uuid");
    }
  }
  unpin(env, data, p);
  jbyteArray out = NULL;
  if (f.code) jf_throw_status(env, f.code, f.what);
  else out = jf_bytes(env, copy ? copy : (uint8_t *)small, n);
  fbei_mem_free(copy);
  return out;
}

/* Walk.viewWrite: the viewed value's text form (what 0) or JSON (1: compact, 2: pretty),
 * written by the core exactly as for the decoded value; UTF-8. */
JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_viewWrite(JNIEnv *env, jclass cls, CURSOR, jint what,
    jlong max_depth, jlong max_model_size, jlong max_memory) {
  fbe_limits storage;
  int failed;
  const fbe_limits *limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  fbei_scratch *s = failed ? NULL : fbei_scratch_get(&jf_pool);
  if (!s) {
    if (!failed) jf_throw_status(env, FBE_ERR_NOMEM, "out of memory");
    return NULL;
  }
  uint8_t *p = pin(env, data);
  jbyteArray out = NULL;
  if (p) {
    fbe_error err;
    fbe_json_options opts = {0};
    opts.pretty = what == 2;
    opts.limits = limits;
    fbe_status st = what ? fbe_view_to_json(CURSOR_AT(p), &opts, &s->buf, &err)
                         : fbe_view_to_text(CURSOR_AT(p), limits, &s->buf, &err);
    unpin(env, data, p);
    if (st) jf_throw(env, &err);
    else out = jf_bytes(env, s->buf.data, s->buf.size);
  }
  fbei_scratch_put(&jf_pool, s);
  return out;
}

/* Walk.viewEqual: the core's deep equality of two views. */
JNIEXPORT jboolean JNICALL Java_org_libfbe_internal_Walk_viewEqual(JNIEnv *env, jclass cls, CURSOR, jbyteArray data2,
    jlong end2, jint model2, jlong type2, jlong at2, jlong base2, jlong image2) {
  uint8_t *p = pin(env, data);
  uint8_t *q = p ? pin(env, data2) : NULL; /* (nested critical sections are allowed) */
  int same = q && fbe_view_equal(CURSOR_AT(p), cursor(q, end2, model2, type2, at2, base2, image2));
  if (q) unpin(env, data2, q);
  if (p) unpin(env, data, p);
  return same ? JNI_TRUE : JNI_FALSE;
}

/* What the tape operations below need of the view: its copy, pinned inside them. */
typedef struct view_ctx {
  JNIEnv *env;
  jbyteArray data;
  fbe_view v; /* v.data set once pinned */
  const fbe_limits *limits;
  int same;
} view_ctx;

/* Walk.viewEqualMessage: the core's equality of a struct view and the message on Java's tape. */
static int op_equal_view(void *ctx, fbei_tape *tp, fbe_msg *a, fbe_msg *b, fbei_scratch *s, fbe_error *err) {
  view_ctx *c = ctx;
  uint8_t *p = pin(c->env, c->data);
  if (!p) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory"), -1;
  c->v.data = p;
  c->same = fbe_view_equal_ref(c->v, fbe_msg_ref(a));
  unpin(c->env, c->data, p);
  return 0;
}

JNIEXPORT jboolean JNICALL Java_org_libfbe_internal_Walk_viewEqualMessage(JNIEnv *env, jclass cls, CURSOR,
    jlong core, jint si, jlong tape, jlong caps) {
  view_ctx c = {env, data, CURSOR_AT(NULL), NULL, 0};
  jf_with_tape(env, core, si, tape, caps, 1, op_equal_view, &c);
  return c.same ? JNI_TRUE : JNI_FALSE;
}

/* Walk.viewToMessage: a struct view materialized by the core (fbe_view_to_msg: what
 * fbe_decode gives, within the open's limits) onto Java's tape, as decode writes it. */
static fbe_status make_from_view(void *ctx, const fbei_tape *tp, const fbe_struct *st, fbe_arena *arena, fbe_msg **out,
                                 fbe_error *err) {
  view_ctx *c = ctx;
  uint8_t *p = pin(c->env, c->data);
  if (!p) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  c->v.data = p;
  fbe_status rc = fbe_view_to_msg(c->v, arena, c->limits, out, err); /* copies what it keeps */
  unpin(c->env, c->data, p);
  return rc;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_viewToMessage(JNIEnv *env, jclass cls, CURSOR, jlong core,
    jint si, jlong max_depth, jlong max_model_size, jlong max_memory, jlong tape, jlong caps) {
  fbe_limits storage;
  int failed;
  view_ctx c = {env, data, CURSOR_AT(NULL), NULL, 0};
  c.limits = jf_limits(env, max_depth, max_model_size, max_memory, &storage, &failed);
  return failed ? 0 : jf_make_onto_tape(env, core, si, tape, caps, make_from_view, &c);
}

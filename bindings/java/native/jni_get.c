/* The core's in-memory value (value.h) -> Java objects, one walk per message:
 * boxes through the valueOf caches, String from UTF-8 (by hand: JNI's modified UTF-8
 * differs), BigDecimal from the decimal's text, UUID from its two longs, EnumValue
 * through Walk.enumValue (which keeps values the schema does not name), and the
 * collections as one Object[] handed to Walk.list/set/map. */
#include <stdlib.h>
#include <string.h>
#include "jfbe.h"

/* *shared is set when the result is a cached global reference (not to be deleted). */
static jobject get_value(jf_ctx *x, jf_err *err, const fbe_type *t, const uint8_t *slot, uint32_t depth,
                         int *shared);

jstring jf_string_from_utf8(JNIEnv *env, const uint8_t *s, size_t n) {
  if (!n) return (*env)->NewStringUTF(env, "");
  jchar stack[256];
  stack[0] = 0; /* (never read unset; silences -Wmaybe-uninitialized) */
  jchar *buf = n <= 256 ? stack : malloc(n * sizeof(jchar));
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
  if (buf != stack) free(buf);
  return out;
}

static int decimal_is_zero(const fbe_decimal *d) {
  for (int i = 0; i < 12; i++) /* the 96-bit magnitude (FORMAT.md 3.2) */
    if (d->bytes[i]) return 0;
  return 1;
}

static uint64_t get_be64(const uint8_t *p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x = x << 8 | p[i];
  return x;
}

/* A new box without a Java call: allocated, then its value field set (a constructor
 * or valueOf call from C costs several times more). */
static jobject alloc_box(JNIEnv *env, jclass cls) { return (*env)->AllocObject(env, cls); }

static jobject box(JNIEnv *env, const fbe_type *t, const uint8_t *slot, int *shared) {
  uint64_t x = fbe_scalar_load(t->wire, slot);
  jobject o;
  /* Small values come from the cache of boxes made at init (no JNI call at all). */
  int64_t sx = fbe_kind_is_signed(t->wire) ? (int64_t)x : (x > INT64_MAX ? INT64_MAX : (int64_t)x);
  if (sx >= JF_SMALL_LO && sx < JF_SMALL_HI) {
    jobject *cache = NULL;
    switch (t->kind) {
      case FBE_KIND_BOOL: cache = NULL; break;
      case FBE_KIND_INT8: cache = jf.small_byte; break;
      case FBE_KIND_INT16: case FBE_KIND_BYTE: case FBE_KIND_UINT8: cache = jf.small_short; break;
      case FBE_KIND_INT32: case FBE_KIND_UINT16: case FBE_KIND_WCHAR: cache = jf.small_int; break;
      case FBE_KIND_CHAR: cache = sx >= 0 ? jf.small_char : NULL; break;
      default: cache = jf.small_long; break;
    }
    if (cache && cache[sx - JF_SMALL_LO]) {
      *shared = 1;
      return cache[sx - JF_SMALL_LO];
    }
  }
  switch (t->kind) {
    case FBE_KIND_BOOL: *shared = 1; return x ? jf.TRUE : jf.FALSE;
    case FBE_KIND_INT8:
      if ((o = alloc_box(env, jf.Byte))) (*env)->SetByteField(env, o, jf.Byte_value, (jbyte)x);
      return o;
    case FBE_KIND_INT16: case FBE_KIND_BYTE: case FBE_KIND_UINT8:
      if ((o = alloc_box(env, jf.Short))) (*env)->SetShortField(env, o, jf.Short_value, (jshort)x);
      return o;
    case FBE_KIND_INT32: case FBE_KIND_UINT16: case FBE_KIND_WCHAR:
      if ((o = alloc_box(env, jf.Integer))) (*env)->SetIntField(env, o, jf.Integer_value, (jint)x);
      return o;
    case FBE_KIND_CHAR:
      if ((o = alloc_box(env, jf.Character))) (*env)->SetCharField(env, o, jf.Character_value, (jchar)x);
      return o;
    default: /* uint32, int64, uint64, timestamp */
      if ((o = alloc_box(env, jf.Long))) (*env)->SetLongField(env, o, jf.Long_value, (jlong)x);
      return o;
  }
}

/* Elements of an array / vector, a set, or a map's keys and values, into one Object[]. */
static jobject get_collection(jf_ctx *x, jf_err *err, const fbe_type *t, const uint8_t *slot,
                              uint32_t depth) {
  JNIEnv *env = x->env;
  int is_map = t->wire == FBE_KIND_MAP;
  const uint8_t *data;
  uint32_t n;
  if (t->kind == FBE_KIND_ARRAY) {
    data = slot;
    n = t->array_size;
  } else {
    const fbe_vec *v = (const fbe_vec *)(const void *)slot;
    data = v->data;
    n = v->count;
  }
  jobjectArray arr = (*env)->NewObjectArray(env, (jsize)(is_map ? 2 * (size_t)n : n), jf.Object, NULL);
  if (!arr) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    if (is_map) {
      const uint8_t *pair = data + (size_t)i * t->pair_stride;
      int shared;
      jobject k = get_value(x, err, t->key, pair, depth, &shared);
      if (!k && (err->code || (*env)->ExceptionCheck(env))) goto fail;
      (*env)->SetObjectArrayElement(env, arr, (jsize)(2 * i), k);
      if (!shared) (*env)->DeleteLocalRef(env, k);
      jobject v = get_value(x, err, t->elem, pair + t->pair_value_offset, depth, &shared);
      if (!v && (err->code || (*env)->ExceptionCheck(env))) goto fail;
      (*env)->SetObjectArrayElement(env, arr, (jsize)(2 * i + 1), v);
      if (!shared) (*env)->DeleteLocalRef(env, v);
    } else {
      int shared;
      jobject v = get_value(x, err, t->elem, data + (size_t)i * t->elem->mem_size, depth, &shared);
      if (!v && (err->code || (*env)->ExceptionCheck(env))) goto fail;
      (*env)->SetObjectArrayElement(env, arr, (jsize)i, v);
      if (!shared) (*env)->DeleteLocalRef(env, v);
    }
  }
  jmethodID make = is_map ? jf.Walk_map : t->kind == FBE_KIND_SET ? jf.Walk_set : jf.Walk_list;
  jobject out = jf_checked(env, (*env)->CallStaticObjectMethod(env, jf.Walk, make, arr));
  (*env)->DeleteLocalRef(env, arr);
  return out;
fail:
  (*env)->DeleteLocalRef(env, arr);
  return NULL;
}

jobject jf_get_struct(jf_ctx *x, jf_err *err, const fbe_struct *st, const uint8_t *slot) {
  int shared;
  return get_value(x, err, st->self_type, slot, 0, &shared); /* a message: never shared */
}

static jobject get_message(jf_ctx *x, jf_err *err, const fbe_struct *st, const uint8_t *slot,
                           uint32_t depth) {
  JNIEnv *env = x->env;
  int idx = jf_struct_index(x->core, st);
  if (idx < 0) {
    jf_err_set(err, FBE_ERR_NOT_FOUND, "struct %s is not in this schema", st->full_name);
    return NULL;
  }
  jobjectArray values = (*env)->NewObjectArray(env, (jsize)st->nfields, jf.Object, NULL);
  if (!values) return NULL;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    int shared;
    jobject v = get_value(x, err, f->type, slot + f->mem_offset, depth, &shared);
    if (!v && (err->code || (*env)->ExceptionCheck(env))) {
      (*env)->DeleteLocalRef(env, values);
      return NULL;
    }
    (*env)->SetObjectArrayElement(env, values, (jsize)i, v);
    if (!shared) (*env)->DeleteLocalRef(env, v);
  }
  jobject type = (*env)->GetObjectArrayElement(env, x->structs, idx);
  jobject out = (*env)->AllocObject(env, jf.Message); /* no constructor call: see box() */
  if (out) {
    (*env)->SetObjectField(env, out, jf.Message_type, type);
    (*env)->SetObjectField(env, out, jf.Message_values, values);
  }
  (*env)->DeleteLocalRef(env, type);
  (*env)->DeleteLocalRef(env, values);
  return out;
}

static jobject get_value(jf_ctx *x, jf_err *err, const fbe_type *t, const uint8_t *slot, uint32_t depth,
                         int *shared) {
  JNIEnv *env = x->env;
  *shared = 0;
  if (depth > FBE_DEFAULT_MAX_DEPTH + 8) { /* values come from our own decoder: never */
    jf_err_set(err, FBE_ERR_LIMIT, "value nested too deep");
    return NULL;
  }
  switch (t->kind) {
    case FBE_KIND_FLOAT: {
      float f;
      memcpy(&f, slot, 4);
      jobject o = alloc_box(env, jf.Float);
      if (o) (*env)->SetFloatField(env, o, jf.Float_value, (jfloat)f);
      return o;
    }
    case FBE_KIND_DOUBLE: {
      double d;
      memcpy(&d, slot, 8);
      jobject o = alloc_box(env, jf.Double);
      if (o) (*env)->SetDoubleField(env, o, jf.Double_value, (jdouble)d);
      return o;
    }
    case FBE_KIND_DECIMAL: {
      char text[64];
      fbe_decimal d;
      memcpy(d.bytes, slot, 16);
      fbe_decimal_format(&d, text, sizeof text);
      jstring s = (*env)->NewStringUTF(env, text);
      if (!s) return NULL;
      /* Negative zero keeps its sign through Walk.decimal (a NegativeZero). */
      jobject out = text[0] == '-' && decimal_is_zero(&d)
                        ? (*env)->CallStaticObjectMethod(env, jf.Walk, jf.Walk_decimal, s)
                        : (*env)->NewObject(env, jf.BigDecimal, jf.BigDecimal_new, s);
      out = jf_checked(env, out);
      (*env)->DeleteLocalRef(env, s);
      return out;
    }
    case FBE_KIND_UUID:
      return jf_checked(env, (*env)->NewObject(env, jf.UUID, jf.UUID_new, (jlong)get_be64(slot), (jlong)get_be64(slot + 8)));
    case FBE_KIND_STRING: {
      const fbe_str *s = (const fbe_str *)(const void *)slot;
      return jf_string_from_utf8(env, s->data, s->size);
    }
    case FBE_KIND_BYTES: {
      const fbe_str *s = (const fbe_str *)(const void *)slot;
      jbyteArray out = (*env)->NewByteArray(env, (jsize)s->size);
      if (out && s->size) (*env)->SetByteArrayRegion(env, out, 0, (jsize)s->size, (const jbyte *)s->data);
      return out;
    }
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: {
      int idx = jf_enum_index(x->core, t->enm);
      if (idx < 0) {
        jf_err_set(err, FBE_ERR_NOT_FOUND, "enum %s is not in this schema", t->enm->full_name);
        return NULL;
      }
      jlong v = (jlong)fbe_scalar_load(t->wire, slot);
      /* The named values, cached at bind (EnumValues do not keep the schema alive). */
      const jf_enum_cache *ec = &x->core->enum_cache[idx];
      if (v >= ec->lo && (uint64_t)(v - ec->lo) < ec->n && ec->values[v - ec->lo]) {
        *shared = 1;
        return ec->values[v - ec->lo];
      }
      jobject type = (*env)->GetObjectArrayElement(env, x->enums, idx);
      if (!type) return NULL;
      /* The named values of a small range are in EnumType.dense; others ask Java. */
      jobject out = NULL;
      jlong lo = (*env)->GetLongField(env, type, jf.EnumType_denseLo);
      jobjectArray dense = (*env)->GetObjectField(env, type, jf.EnumType_dense);
      if (dense && v >= lo && v - lo < (*env)->GetArrayLength(env, dense))
        out = (*env)->GetObjectArrayElement(env, dense, (jsize)(v - lo));
      (*env)->DeleteLocalRef(env, dense);
      if (!out) out = jf_checked(env, (*env)->CallStaticObjectMethod(env, jf.Walk, jf.Walk_enumValue, type, v));
      (*env)->DeleteLocalRef(env, type);
      return out;
    }
    case FBE_KIND_STRUCT: return get_message(x, err, t->st, slot, depth + 1);
    case FBE_KIND_OPTIONAL: {
      const uint8_t *inner = *(const uint8_t *const *)(const void *)slot;
      return inner ? get_value(x, err, t->elem, inner, depth + 1, shared) : NULL;
    }
    case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      return get_collection(x, err, t, slot, depth + 1);
    default:
      return box(env, t, slot, shared);
  }
}

/* Java objects -> the core's in-memory value (value.h), one walk per message. Every
 * function writes a complete value of its type into `slot` or fails with c->err set
 * (or a Java exception pending). Values are re-checked here even though Message.set
 * checks them: a List returned by a getter can be changed by the caller, and a wrong
 * object must give an FbeException with its path, never a crash.
 *
 * Local references are deleted as soon as a value is written, so collections of any
 * size stay within the JVM's local reference frame. */
#include <math.h>
#include <string.h>
#include "jfbe.h"

static int put_value(jf_enc *c, const fbe_type *t, jobject v, uint8_t *slot);

static const char *type_label(const fbe_type *t) {
  switch (t->kind) {
    case FBE_KIND_STRUCT: return t->st->full_name;
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return t->enm->full_name;
    default: return fbe_kind_name(t->kind);
  }
}

static int type_error(jf_enc *c, const fbe_type *t, jobject v) {
  JNIEnv *env = c->x->env;
  if (!v) {
    jf_err_set(&c->err, FBE_ERR_TYPE, "expected %s, got null", type_label(t));
    return -1;
  }
  jclass cls = (*env)->GetObjectClass(env, v);
  jclass clsclass = (*env)->GetObjectClass(env, cls);
  jmethodID getName = (*env)->GetMethodID(env, clsclass, "getName", "()Ljava/lang/String;");
  jstring name = getName ? (*env)->CallObjectMethod(env, cls, getName) : NULL;
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    name = NULL;
  }
  const char *text = name ? (*env)->GetStringUTFChars(env, name, NULL) : NULL;
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  jf_err_set(&c->err, FBE_ERR_TYPE, "expected %s, got %.80s", type_label(t), text ? text : "?");
  if (text) (*env)->ReleaseStringUTFChars(env, name, text);
  return -1;
}

static int nomem(jf_enc *c) {
  jf_err_set(&c->err, FBE_ERR_NOMEM, "out of memory");
  return -1;
}

static int is(jf_enc *c, jobject v, jclass cls) { return (*c->x->env)->IsInstanceOf(c->x->env, v, cls); }

/* Any Java integer box (Byte, Short, Integer, Long; Character for char/wchar) as a
 * 64-bit pattern, range-checked against the wire kind. uint64 takes a Long's bits. */
static int get_int(jf_enc *c, const fbe_type *t, jobject v, uint64_t *out) {
  JNIEnv *env = c->x->env;
  int64_t x;
  int is_long = 0;
  if (!v) return type_error(c, t, v);
  if (is(c, v, jf.Integer)) x = (*env)->GetIntField(env, v, jf.Integer_value);
  else if (is(c, v, jf.Long)) x = (*env)->GetLongField(env, v, jf.Long_value), is_long = 1;
  else if (is(c, v, jf.Short)) x = (*env)->GetShortField(env, v, jf.Short_value);
  else if (is(c, v, jf.Byte)) x = (*env)->GetByteField(env, v, jf.Byte_value);
  else if ((t->wire == FBE_KIND_CHAR || t->wire == FBE_KIND_WCHAR) && is(c, v, jf.Character))
    x = (*env)->GetCharField(env, v, jf.Character_value);
  else return type_error(c, t, v);
  fbe_kind w = t->wire;
  unsigned bits = fbe_kind_bits(w);
  if (w == FBE_KIND_WCHAR && !is_long) {
    *out = (uint32_t)x; /* an Integer holds wchar's 32 bits */
    return 0;
  }
  if (bits == 64) {
    if (w == FBE_KIND_UINT64 && !is_long && x < 0) goto range;
    *out = (uint64_t)x;
    return 0;
  }
  if (fbe_kind_is_signed(w) ? (x < -(INT64_C(1) << (bits - 1)) || x >= (INT64_C(1) << (bits - 1)))
                            : (x < 0 || (uint64_t)x >> bits))
    goto range;
  *out = (uint64_t)x;
  return 0;
range:
  jf_err_set(&c->err, FBE_ERR_RANGE, "value %lld does not fit %s", (long long)x, type_label(t));
  return -1;
}

static int put_float(jf_enc *c, const fbe_type *t, jobject v, uint8_t *slot) {
  JNIEnv *env = c->x->env;
  double d;
  if (!v) return type_error(c, t, v);
  if (is(c, v, jf.Double)) d = (*env)->GetDoubleField(env, v, jf.Double_value);
  else if (is(c, v, jf.Float)) d = (*env)->GetFloatField(env, v, jf.Float_value);
  else if (is(c, v, jf.Integer)) d = (*env)->GetIntField(env, v, jf.Integer_value);
  else return type_error(c, t, v);
  if (t->wire == FBE_KIND_FLOAT) {
    float f = (float)d;
    if (isinf(f) && !isinf(d)) {
      jf_err_set(&c->err, FBE_ERR_RANGE, "value %g does not fit float", d);
      return -1;
    }
    memcpy(slot, &f, 4);
  } else {
    memcpy(slot, &d, 8);
  }
  return 0;
}

static int put_decimal(jf_enc *c, const fbe_type *t, jobject v, uint8_t *slot) {
  JNIEnv *env = c->x->env;
  if (!v || !is(c, v, jf.BigDecimal)) return type_error(c, t, v);
  jstring s = jf_checked(env, (*env)->CallObjectMethod(env, v, jf.BigDecimal_toString));
  if (!s) return -1;
  const char *text = (*env)->GetStringUTFChars(env, s, NULL);
  if (!text) return -1;
  fbe_decimal d;
  fbe_status st = fbe_decimal_parse(text, strlen(text), &d);
  if (st)
    jf_err_set(&c->err, FBE_ERR_RANGE,
               "decimal %.60s does not fit FBE's decimal (96-bit coefficient, scale 0..28)", text);
  else
    memcpy(slot, d.bytes, 16);
  (*env)->ReleaseStringUTFChars(env, s, text);
  (*env)->DeleteLocalRef(env, s);
  return st ? -1 : 0;
}

static void put_be64(uint8_t *p, uint64_t x) {
  for (int i = 7; i >= 0; i--, x >>= 8) p[i] = (uint8_t)x;
}

static int put_uuid(jf_enc *c, const fbe_type *t, jobject v, uint8_t *slot) {
  JNIEnv *env = c->x->env;
  if (!v || !is(c, v, jf.UUID)) return type_error(c, t, v);
  put_be64(slot, (uint64_t)(*env)->GetLongField(env, v, jf.UUID_msb));
  put_be64(slot + 8, (uint64_t)(*env)->GetLongField(env, v, jf.UUID_lsb));
  return 0;
}

/* A String as UTF-8 in the arena; an unpaired surrogate is an error (it has no UTF-8). */
static int put_string(jf_enc *c, const fbe_type *t, jobject v, fbe_str *out) {
  JNIEnv *env = c->x->env;
  if (!v || !is(c, v, jf.String)) return type_error(c, t, v);
  jsize n = (*env)->GetStringLength(env, v);
  out->data = NULL;
  out->size = 0;
  if (!n) return 0;
  uint8_t *dst = fbe_arena_alloc(c->arena, (size_t)n * 3);
  if (!dst) return nomem(c);
  const jchar *src = (*env)->GetStringCritical(env, v, NULL);
  if (!src) return nomem(c);
  size_t o = 0;
  int bad = 0;
  for (jsize i = 0; i < n; i++) {
    uint32_t ch = src[i];
    if (ch < 0x80) {
      dst[o++] = (uint8_t)ch;
    } else if (ch < 0x800) {
      dst[o++] = (uint8_t)(0xC0 | ch >> 6);
      dst[o++] = (uint8_t)(0x80 | (ch & 0x3F));
    } else if (ch >= 0xD800 && ch <= 0xDFFF) {
      if (ch > 0xDBFF || i + 1 >= n || src[i + 1] < 0xDC00 || src[i + 1] > 0xDFFF) {
        bad = 1;
        break;
      }
      ch = 0x10000 + ((ch - 0xD800) << 10) + (src[++i] - 0xDC00u);
      dst[o++] = (uint8_t)(0xF0 | ch >> 18);
      dst[o++] = (uint8_t)(0x80 | ((ch >> 12) & 0x3F));
      dst[o++] = (uint8_t)(0x80 | ((ch >> 6) & 0x3F));
      dst[o++] = (uint8_t)(0x80 | (ch & 0x3F));
    } else {
      dst[o++] = (uint8_t)(0xE0 | ch >> 12);
      dst[o++] = (uint8_t)(0x80 | ((ch >> 6) & 0x3F));
      dst[o++] = (uint8_t)(0x80 | (ch & 0x3F));
    }
  }
  (*env)->ReleaseStringCritical(env, v, src);
  if (bad) {
    jf_err_set(&c->err, FBE_ERR_TYPE, "string is not encodable as UTF-8 (unpaired surrogate)");
    return -1;
  }
  out->data = dst;
  out->size = (uint32_t)o;
  return 0;
}

static int put_bytes(jf_enc *c, const fbe_type *t, jobject v, fbe_str *out) {
  JNIEnv *env = c->x->env;
  if (!v || !is(c, v, jf.bytes)) return type_error(c, t, v);
  jsize n = (*env)->GetArrayLength(env, v);
  out->data = NULL;
  out->size = 0;
  if (!n) return 0;
  uint8_t *dst = fbe_arena_alloc(c->arena, (size_t)n);
  if (!dst) return nomem(c);
  (*env)->GetByteArrayRegion(env, v, 0, n, (jbyte *)dst);
  out->data = dst;
  out->size = (uint32_t)n;
  return 0;
}

/* An EnumValue of this very enum type (unnamed values included). */
static int put_enum(jf_enc *c, const fbe_type *t, jobject v, uint8_t *slot) {
  JNIEnv *env = c->x->env;
  if (!v || !is(c, v, jf.EnumValue)) return type_error(c, t, v);
  int idx = jf_enum_index(c->x->core, t->enm);
  jobject have = (*env)->GetObjectField(env, v, jf.EnumValue_type);
  /* The EnumType, a weak reference kept by the core (no local ref needed). */
  int same = idx >= 0 && have && (*env)->IsSameObject(env, c->x->core->enum_types[idx], have);
  (*env)->DeleteLocalRef(env, have);
  if (!same) {
    jf_err_set(&c->err, FBE_ERR_TYPE, "expected a value of %s, got one of another enum type",
               t->enm->full_name);
    return -1;
  }
  uint64_t x = (uint64_t)(*env)->GetLongField(env, v, jf.EnumValue_value);
  fbe_scalar_store(t->wire, slot, x);
  return 0;
}

/* A Java collection's elements as an array (one call, then plain array reads). */
static jobjectArray to_array(jf_enc *c, const fbe_type *t, jobject v, jclass want) {
  JNIEnv *env = c->x->env;
  if (!v || !is(c, v, want)) {
    type_error(c, t, v);
    return NULL;
  }
  if (want == jf.Map) return jf_checked(env, (*env)->CallStaticObjectMethod(env, jf.Walk, jf.Walk_flatten, v));
  return jf_checked(env, (*env)->CallObjectMethod(env, v, jf.Collection_toArray));
}

static int put_items(jf_enc *c, const fbe_type *elem, jobjectArray arr, uint8_t *data, jsize n) {
  JNIEnv *env = c->x->env;
  for (jsize i = 0; i < n; i++) {
    jobject item = (*env)->GetObjectArrayElement(env, arr, i);
    int rc = put_value(c, elem, item, data + (size_t)i * elem->mem_size);
    (*env)->DeleteLocalRef(env, item);
    if (rc) {
      jf_err_prepend_index(&c->err, (size_t)i);
      return -1;
    }
  }
  return 0;
}

static int put_sequence(jf_enc *c, const fbe_type *t, jobject v, uint8_t *slot) {
  JNIEnv *env = c->x->env;
  jobjectArray arr = to_array(c, t, v, t->kind == FBE_KIND_ARRAY ? jf.List : jf.Collection);
  if (!arr) return -1;
  jsize n = (*env)->GetArrayLength(env, arr);
  int rc = 0;
  if (t->kind == FBE_KIND_ARRAY) {
    if ((uint32_t)n != t->array_size) {
      jf_err_set(&c->err, FBE_ERR_RANGE, "array of %u items, got %d", t->array_size, (int)n);
      rc = -1;
    } else {
      rc = put_items(c, t->elem, arr, slot, n);
    }
  } else {
    fbe_vec *vec = (fbe_vec *)(void *)slot;
    vec->data = NULL;
    vec->count = vec->cap = 0;
    if (n) {
      uint8_t *data = fbe_arena_alloc(c->arena, (size_t)n * t->elem->mem_size);
      if (!data) rc = nomem(c);
      else {
        vec->data = data;
        vec->count = vec->cap = (uint32_t)n;
        rc = put_items(c, t->elem, arr, data, n);
      }
    }
  }
  (*env)->DeleteLocalRef(env, arr);
  return rc;
}

static int put_map(jf_enc *c, const fbe_type *t, jobject v, fbe_vec *vec) {
  JNIEnv *env = c->x->env;
  vec->data = NULL;
  vec->count = vec->cap = 0;
  jobjectArray arr = to_array(c, t, v, jf.Map); /* key0, value0, key1, value1, ... */
  if (!arr) return -1;
  jsize n = (*env)->GetArrayLength(env, arr) / 2;
  int rc = 0;
  uint8_t *data = n ? fbe_arena_alloc(c->arena, (size_t)n * t->pair_stride) : NULL;
  if (n && !data) rc = nomem(c);
  vec->data = data;
  for (jsize i = 0; i < n && !rc; i++) {
    uint8_t *pair = data + (size_t)i * t->pair_stride;
    jobject k = (*env)->GetObjectArrayElement(env, arr, 2 * i);
    if ((rc = put_value(c, t->key, k, pair))) {
      jf_err_prepend_key(&c->err);
      jf_err_prepend_index(&c->err, (size_t)i);
    }
    (*env)->DeleteLocalRef(env, k);
    if (rc) break;
    jobject val = (*env)->GetObjectArrayElement(env, arr, 2 * i + 1);
    if ((rc = put_value(c, t->elem, val, pair + t->pair_value_offset)))
      jf_err_prepend_index(&c->err, (size_t)i);
    (*env)->DeleteLocalRef(env, val);
    if (!rc) vec->count = vec->cap = (uint32_t)(i + 1);
  }
  (*env)->DeleteLocalRef(env, arr);
  return rc;
}

static int put_struct(jf_enc *c, const fbe_type *t, const fbe_struct *st, jobject obj, uint8_t *slot) {
  JNIEnv *env = c->x->env;
  if (!obj || !is(c, obj, jf.Message)) return type_error(c, t, obj);
  int idx = jf_struct_index(c->x->core, st);
  jobject have = (*env)->GetObjectField(env, obj, jf.Message_type);
  /* The struct's StructType, a weak reference kept by the core (no local ref needed). */
  int same = idx >= 0 && have && (*env)->IsSameObject(env, c->x->core->struct_types[idx], have);
  (*env)->DeleteLocalRef(env, have);
  if (!same) {
    jf_err_set(&c->err, FBE_ERR_TYPE, "expected a %s message, got another type", st->full_name);
    return -1;
  }
  /* One local frame for the fields (cheaper than deleting each reference). */
  if ((*env)->PushLocalFrame(env, (jint)st->nfields + 4)) return -1;
  jobjectArray values = (*env)->GetObjectField(env, obj, jf.Message_values);
  if (!values || (uint32_t)(*env)->GetArrayLength(env, values) != st->nfields) {
    (*env)->PopLocalFrame(env, NULL);
    jf_err_set(&c->err, FBE_ERR_ARGUMENT, "message of %s has a broken field table", st->full_name);
    return -1;
  }
  int rc = 0;
  for (uint32_t i = 0; i < st->nfields && !rc; i++) {
    const fbe_field *f = &st->fields[i];
    jobject v = (*env)->GetObjectArrayElement(env, values, (jsize)i);
    if ((rc = put_value(c, f->type, v, slot + f->mem_offset)))
      jf_err_prepend_field(&c->err, f->name);
  }
  (*env)->PopLocalFrame(env, NULL);
  return rc;
}

static int deeper(jf_enc *c) {
  if (++c->depth <= FBE_DEFAULT_MAX_DEPTH) return 0;
  jf_err_set(&c->err, FBE_ERR_LIMIT, "value nested deeper than %u levels", FBE_DEFAULT_MAX_DEPTH);
  return -1;
}

static int put_value(jf_enc *c, const fbe_type *t, jobject v, uint8_t *slot) {
  JNIEnv *env = c->x->env;
  uint64_t x = 0;
  int rc;
  switch (t->kind) {
    case FBE_KIND_BOOL:
      if (!v || !is(c, v, jf.Boolean)) return type_error(c, t, v);
      *slot = (*env)->GetBooleanField(env, v, jf.Boolean_value) ? 1 : 0;
      return 0;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_WCHAR: case FBE_KIND_INT8:
    case FBE_KIND_UINT8: case FBE_KIND_INT16: case FBE_KIND_UINT16: case FBE_KIND_INT32:
    case FBE_KIND_UINT32: case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      if (get_int(c, t, v, &x)) return -1;
      fbe_scalar_store(t->wire, slot, x);
      return 0;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: return put_float(c, t, v, slot);
    case FBE_KIND_DECIMAL: return put_decimal(c, t, v, slot);
    case FBE_KIND_UUID: return put_uuid(c, t, v, slot);
    case FBE_KIND_STRING: return put_string(c, t, v, (fbe_str *)(void *)slot);
    case FBE_KIND_BYTES: return put_bytes(c, t, v, (fbe_str *)(void *)slot);
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: return put_enum(c, t, v, slot);
    case FBE_KIND_STRUCT:
      if (deeper(c)) return -1;
      rc = put_struct(c, t, t->st, v, slot);
      c->depth--;
      return rc;
    case FBE_KIND_OPTIONAL: {
      if (!v) {
        *(void **)slot = NULL;
        return 0;
      }
      if (deeper(c)) return -1;
      void *inner = fbe_arena_alloc(c->arena, t->elem->mem_size);
      if (!inner) return nomem(c);
      rc = put_value(c, t->elem, v, inner);
      *(void **)slot = rc ? NULL : inner;
      c->depth--;
      return rc;
    }
    case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
      if (deeper(c)) return -1;
      rc = put_sequence(c, t, v, slot);
      c->depth--;
      return rc;
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      if (deeper(c)) return -1;
      rc = put_map(c, t, v, (fbe_vec *)(void *)slot);
      c->depth--;
      return rc;
    default:
      jf_err_set(&c->err, FBE_ERR_TYPE, "unsupported type %s", type_label(t));
      return -1;
  }
}

fbe_msg *jf_build_msg(jf_enc *c, uint32_t si, jobject obj) {
  const fbe_struct *st = c->x->core->structs[si];
  fbe_msg *m = fbe_arena_alloc(c->arena, sizeof(fbe_msg) + st->mem_size);
  if (!m) {
    nomem(c);
    return NULL;
  }
  m->type = st;
  m->arena = c->arena;
  memset(fbe_msg_data(m), 0, st->mem_size);
  return put_struct(c, st->self_type, st, obj, fbe_msg_data(m)) ? NULL : m;
}

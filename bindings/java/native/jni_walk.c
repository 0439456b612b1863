/* The JNI entry points of org.libfbe.internal.Walk: the cached IDs, errors, the
 * per-thread scratch, the schema tables, and one native call per operation (new
 * message with defaults, encode, decode, verify, JSON). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jfbe.h"

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

static void prepend(jf_err *e, const char *part) {
  size_t plen = strlen(part), old = strlen(e->path);
  size_t sep = (old && e->path[0] != '[') ? 1 : 0;
  if (plen + sep + old >= sizeof e->path) return; /* too deep: keep the inner part */
  memmove(e->path + plen + sep, e->path, old + 1);
  memcpy(e->path, part, plen);
  if (sep) e->path[plen] = '.';
}

void jf_err_prepend_field(jf_err *e, const char *name) {
  if (e->code) prepend(e, name);
}

void jf_err_prepend_index(jf_err *e, size_t index) {
  if (!e->code) return;
  char part[32];
  snprintf(part, sizeof part, "[%zu]", index);
  prepend(e, part);
}

void jf_err_prepend_key(jf_err *e) {
  if (e->code) prepend(e, "[key]");
}

void jf_err_from_fbe(jf_err *e, const fbe_error *err) {
  e->code = err->code ? (int)err->code : FBE_ERR_ARGUMENT;
  e->offset = err->offset;
  snprintf(e->message, sizeof e->message, "%s", err->message);
  snprintf(e->path, sizeof e->path, "%s", err->path);
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

/* ------------------------------------------------------------------ scratch */

static _Thread_local jf_scratch *tls_scratch;

static void scratch_free(jf_scratch *s) {
  if (!s) return;
  fbe_arena_free(s->arena);
  fbe_buffer_free(&s->buf);
  free(s);
}

jf_scratch *jf_scratch_get(void) {
  jf_scratch *s = tls_scratch;
  if (s && !s->busy) {
    s->busy = 1;
    return s;
  }
  if (!(s = calloc(1, sizeof *s)) || !(s->arena = fbe_arena_new())) {
    free(s);
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

int jf_enum_index(const jf_core *core, const fbe_enum *e) {
  return find(core->enum_map, core->nenums, e);
}

static void core_free(JNIEnv *env, jf_core *c) {
  if (!c) return;
  for (uint32_t i = 0; c->enum_cache && i < c->nenums; i++) {
    for (uint32_t k = 0; k < c->enum_cache[i].n; k++)
      if (c->enum_cache[i].values[k]) (*env)->DeleteGlobalRef(env, c->enum_cache[i].values[k]);
    free(c->enum_cache[i].values);
  }
  free(c->enum_cache);
  for (uint32_t i = 0; c->struct_types && i < c->nstructs; i++)
    if (c->struct_types[i]) (*env)->DeleteWeakGlobalRef(env, c->struct_types[i]);
  free(c->struct_types);
  for (uint32_t i = 0; c->enum_types && i < c->nenums; i++)
    if (c->enum_types[i]) (*env)->DeleteWeakGlobalRef(env, c->enum_types[i]);
  free(c->enum_types);
  free(c->structs);
  free(c->enums);
  free(c->struct_map);
  free(c->enum_map);
  fbe_schema_release(c->schema);
  free(c);
}

/* ------------------------------------------------------------------ init */

#define CLASS(var, name)                                                   \
  do {                                                                     \
    jclass l_ = (*env)->FindClass(env, name);                              \
    if (!l_ || !(jf.var = (*env)->NewGlobalRef(env, l_))) return;         \
    (*env)->DeleteLocalRef(env, l_);                                       \
  } while (0)
#define FIELD(var, cls, name, sig) \
  if (!(jf.var = (*env)->GetFieldID(env, jf.cls, name, sig))) return
#define METHOD(var, cls, name, sig) \
  if (!(jf.var = (*env)->GetMethodID(env, jf.cls, name, sig))) return
#define STATIC(var, cls, name, sig) \
  if (!(jf.var = (*env)->GetStaticMethodID(env, jf.cls, name, sig))) return

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_init(JNIEnv *env, jclass walk) {
  if (jf.Walk) return;
  CLASS(Object, "java/lang/Object");
  CLASS(Boolean, "java/lang/Boolean");
  CLASS(Byte, "java/lang/Byte");
  CLASS(Short, "java/lang/Short");
  CLASS(Integer, "java/lang/Integer");
  CLASS(Long, "java/lang/Long");
  CLASS(Float, "java/lang/Float");
  CLASS(Double, "java/lang/Double");
  CLASS(Character, "java/lang/Character");
  CLASS(String, "java/lang/String");
  CLASS(bytes, "[B");
  CLASS(BigDecimal, "java/math/BigDecimal");
  CLASS(UUID, "java/util/UUID");
  CLASS(Collection, "java/util/Collection");
  CLASS(List, "java/util/List");
  CLASS(Map, "java/util/Map");
  CLASS(Message, "org/libfbe/Message");
  CLASS(EnumValue, "org/libfbe/EnumValue");
  CLASS(EnumType, "org/libfbe/EnumType");
  CLASS(FbeException, "org/libfbe/FbeException");
  /* The box classes' value fields are read directly: cheaper than a method call. */
  FIELD(Boolean_value, Boolean, "value", "Z");
  FIELD(Byte_value, Byte, "value", "B");
  FIELD(Short_value, Short, "value", "S");
  FIELD(Integer_value, Integer, "value", "I");
  FIELD(Long_value, Long, "value", "J");
  FIELD(Float_value, Float, "value", "F");
  FIELD(Double_value, Double, "value", "D");
  FIELD(Character_value, Character, "value", "C");
  FIELD(UUID_msb, UUID, "mostSigBits", "J");
  FIELD(UUID_lsb, UUID, "leastSigBits", "J");
  FIELD(Message_type, Message, "type", "Lorg/libfbe/StructType;");
  FIELD(Message_values, Message, "values", "[Ljava/lang/Object;");
  FIELD(EnumValue_type, EnumValue, "type", "Lorg/libfbe/EnumType;");
  FIELD(EnumValue_value, EnumValue, "value", "J");
  FIELD(EnumType_dense, EnumType, "dense", "[Lorg/libfbe/EnumValue;");
  FIELD(EnumType_denseLo, EnumType, "denseLo", "J");
  jfieldID t_ = (*env)->GetStaticFieldID(env, jf.Boolean, "TRUE", "Ljava/lang/Boolean;");
  jfieldID f_ = (*env)->GetStaticFieldID(env, jf.Boolean, "FALSE", "Ljava/lang/Boolean;");
  if (!t_ || !f_) return;
  jobject t = (*env)->GetStaticObjectField(env, jf.Boolean, t_);
  jobject f = (*env)->GetStaticObjectField(env, jf.Boolean, f_);
  if (!t || !f || !(jf.TRUE = (*env)->NewGlobalRef(env, t)) || !(jf.FALSE = (*env)->NewGlobalRef(env, f))) return;
  STATIC(Boolean_valueOf, Boolean, "valueOf", "(Z)Ljava/lang/Boolean;");
  STATIC(Byte_valueOf, Byte, "valueOf", "(B)Ljava/lang/Byte;");
  STATIC(Short_valueOf, Short, "valueOf", "(S)Ljava/lang/Short;");
  STATIC(Integer_valueOf, Integer, "valueOf", "(I)Ljava/lang/Integer;");
  STATIC(Long_valueOf, Long, "valueOf", "(J)Ljava/lang/Long;");
  STATIC(Float_valueOf, Float, "valueOf", "(F)Ljava/lang/Float;");
  STATIC(Double_valueOf, Double, "valueOf", "(D)Ljava/lang/Double;");
  STATIC(Character_valueOf, Character, "valueOf", "(C)Ljava/lang/Character;");
  METHOD(BigDecimal_toString, BigDecimal, "toString", "()Ljava/lang/String;");
  METHOD(BigDecimal_new, BigDecimal, "<init>", "(Ljava/lang/String;)V");
  METHOD(UUID_new, UUID, "<init>", "(JJ)V");
  METHOD(Collection_toArray, Collection, "toArray", "()[Ljava/lang/Object;");
  METHOD(Message_new, Message, "<init>", "(Lorg/libfbe/StructType;[Ljava/lang/Object;)V");
  METHOD(FbeException_new, FbeException, "<init>", "(ILjava/lang/String;Ljava/lang/String;J)V");
  jclass receiver = (*env)->FindClass(env, "org/libfbe/Receiver");
  if (!receiver) return;
  if (!(jf.Receiver_deliver = (*env)->GetMethodID(env, receiver, "deliver", "(Lorg/libfbe/Message;)V"))) return;
  (*env)->DeleteLocalRef(env, receiver);
  jclass w = (*env)->NewGlobalRef(env, walk);
  if (!w) return;
  jf.Walk = w;
  STATIC(Walk_list, Walk, "list", "([Ljava/lang/Object;)Ljava/util/List;");
  STATIC(Walk_set, Walk, "set", "([Ljava/lang/Object;)Ljava/util/Set;");
  STATIC(Walk_map, Walk, "map", "([Ljava/lang/Object;)Ljava/util/Map;");
  STATIC(Walk_flatten, Walk, "flatten", "(Ljava/util/Map;)[Ljava/lang/Object;");
  STATIC(Walk_decimal, Walk, "decimal", "(Ljava/lang/String;)Ljava/math/BigDecimal;");
  STATIC(Walk_enumValue, Walk, "enumValue", "(Lorg/libfbe/EnumType;J)Lorg/libfbe/EnumValue;");
  for (int v = JF_SMALL_LO; v < JF_SMALL_HI; v++) {
    jobject *dst[5] = {jf.small_byte, jf.small_short, jf.small_int, jf.small_long, jf.small_char};
    for (int k = 0; k < 5; k++) {
      jobject o = NULL;
      switch (k) {
        case 0: if (v < 128) o = (*env)->CallStaticObjectMethod(env, jf.Byte, jf.Byte_valueOf, (jbyte)v); break;
        case 1: o = (*env)->CallStaticObjectMethod(env, jf.Short, jf.Short_valueOf, (jshort)v); break;
        case 2: o = (*env)->CallStaticObjectMethod(env, jf.Integer, jf.Integer_valueOf, (jint)v); break;
        case 3: o = (*env)->CallStaticObjectMethod(env, jf.Long, jf.Long_valueOf, (jlong)v); break;
        default:
          if (v >= 0 && v < 256) o = (*env)->CallStaticObjectMethod(env, jf.Character, jf.Character_valueOf, (jchar)v);
      }
      if ((*env)->ExceptionCheck(env)) return;
      dst[k][v - JF_SMALL_LO] = o ? (*env)->NewGlobalRef(env, o) : NULL;
      (*env)->DeleteLocalRef(env, o);
    }
  }
}

/* The tables of a schema, in the order the Java side lists its structs and enums:
 * packages in dependency order, declaration order inside each. */
/* The named values of each enum (EnumType.dense), as global references. */
static int cache_enums(JNIEnv *env, jf_core *c, jobjectArray enums) {
  if (!enums || (uint32_t)(*env)->GetArrayLength(env, enums) != c->nenums) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "enum table does not match the schema");
    return -1;
  }
  if (!(c->enum_cache = calloc(c->nenums + 1, sizeof *c->enum_cache))) return -1;
  if (!(c->enum_types = calloc(c->nenums + 1, sizeof *c->enum_types))) return -1;
  for (uint32_t i = 0; i < c->nenums; i++) {
    jobject type = (*env)->GetObjectArrayElement(env, enums, (jsize)i);
    c->enum_types[i] = type ? (*env)->NewWeakGlobalRef(env, type) : NULL;
    jobjectArray dense = type ? (*env)->GetObjectField(env, type, jf.EnumType_dense) : NULL;
    if (dense) {
      jf_enum_cache *ec = &c->enum_cache[i];
      jsize n = (*env)->GetArrayLength(env, dense);
      if (!(ec->values = calloc((size_t)n + 1, sizeof *ec->values))) return -1;
      ec->lo = (*env)->GetLongField(env, type, jf.EnumType_denseLo);
      ec->n = (uint32_t)n;
      for (jsize k = 0; k < n; k++) {
        jobject v = (*env)->GetObjectArrayElement(env, dense, k);
        ec->values[k] = v ? (*env)->NewGlobalRef(env, v) : NULL;
        (*env)->DeleteLocalRef(env, v);
      }
    }
    (*env)->DeleteLocalRef(env, dense);
    (*env)->DeleteLocalRef(env, type);
  }
  return 0;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_bind(JNIEnv *env, jclass cls, jlong schema_ptr,
                                                         jobjectArray enums) {
  (void)cls;
  fbe_schema *schema = (fbe_schema *)(intptr_t)schema_ptr;
  jf_core *c = schema ? calloc(1, sizeof *c) : NULL;
  if (!c) {
    jf_throw_code(env, schema ? FBE_ERR_NOMEM : FBE_ERR_ARGUMENT, schema ? "out of memory" : "no schema");
    return 0;
  }
  c->schema = fbe_schema_retain(schema);
  for (uint32_t p = 0; p < schema->npackages; p++) {
    c->nstructs += schema->packages[p]->nstructs;
    c->nenums += schema->packages[p]->nenums;
  }
  c->structs = calloc(c->nstructs + 1, sizeof *c->structs);
  c->enums = calloc(c->nenums + 1, sizeof *c->enums);
  c->struct_map = calloc(c->nstructs + 1, sizeof *c->struct_map);
  c->enum_map = calloc(c->nenums + 1, sizeof *c->enum_map);
  if (!c->structs || !c->enums || !c->struct_map || !c->enum_map) {
    core_free(env, c);
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return 0;
  }
  uint32_t ns = 0, ne = 0;
  for (uint32_t p = 0; p < schema->npackages; p++) {
    const fbe_package *pkg = schema->packages[p];
    for (uint32_t i = 0; i < pkg->nstructs; i++, ns++) {
      c->structs[ns] = pkg->structs[i];
      c->struct_map[ns] = (jf_entry){pkg->structs[i], ns};
    }
    for (uint32_t i = 0; i < pkg->nenums; i++, ne++) {
      c->enums[ne] = pkg->enums[i];
      c->enum_map[ne] = (jf_entry){pkg->enums[i], ne};
    }
  }
  qsort(c->struct_map, c->nstructs, sizeof *c->struct_map, entry_cmp);
  qsort(c->enum_map, c->nenums, sizeof *c->enum_map, entry_cmp);
  if (cache_enums(env, c, enums)) {
    core_free(env, c);
    if (!(*env)->ExceptionCheck(env)) jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return 0;
  }
  return (jlong)(intptr_t)c;
}

/* The StructType objects, once made (they point at the Schema, which points here). */
JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_attach(JNIEnv *env, jclass cls, jlong core,
                                                          jobjectArray structs) {
  (void)cls;
  jf_core *c = (jf_core *)(intptr_t)core;
  if (!c || !structs || (uint32_t)(*env)->GetArrayLength(env, structs) != c->nstructs || c->struct_types) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "struct table does not match the schema");
    return;
  }
  if (!(c->struct_types = calloc(c->nstructs + 1, sizeof *c->struct_types))) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return;
  }
  for (uint32_t i = 0; i < c->nstructs; i++) {
    jobject t = (*env)->GetObjectArrayElement(env, structs, (jsize)i);
    c->struct_types[i] = t ? (*env)->NewWeakGlobalRef(env, t) : NULL;
    (*env)->DeleteLocalRef(env, t);
  }
}

JNIEXPORT void JNICALL Java_org_libfbe_internal_Walk_unbind(JNIEnv *env, jclass cls, jlong core) {
  (void)cls;
  core_free(env, (jf_core *)(intptr_t)core);
}

/* ------------------------------------------------------------------ operations */

/* Checks the handle and index the Java side passes; NULL with an exception thrown. */
static const jf_core *core_of(JNIEnv *env, jlong core, jint si) {
  const jf_core *c = (const jf_core *)(intptr_t)core;
  if (!c) {
    jf_throw_code(env, FBE_ERR_ARGUMENT, "the schema is closed");
    return NULL;
  }
  if (si < 0 || (uint32_t)si >= c->nstructs || !c->struct_types) {
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

static jobject message_of(jf_ctx *x, const fbe_msg *m) {
  jf_err err;
  err.code = 0;
  jobject out = jf_get_struct(x, &err, fbe_msg_type(m), fbe_msg_data(m));
  if (!out) jf_throw(x->env, &err);
  return out;
}

JNIEXPORT jobject JNICALL Java_org_libfbe_internal_Walk_defaults(JNIEnv *env, jclass cls, jlong core,
    jobjectArray structs, jobjectArray enums, jint si) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c) return NULL;
  jf_scratch *s = jf_scratch_get();
  if (!s) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return NULL;
  }
  jf_ctx x = {env, c, structs, enums};
  jobject out = NULL;
  fbe_msg *m = fbe_msg_new(s->arena, c->structs[si]);
  if (!m) jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
  else out = message_of(&x, m);
  jf_scratch_put(s);
  return out;
}

/* Builds the value of msg in s; NULL with an exception thrown. */
static fbe_msg *build(jf_ctx *x, jf_scratch *s, jint si, jobject msg) {
  jf_enc e;
  e.x = x;
  e.arena = s->arena;
  e.depth = 0;
  e.err.code = 0;
  fbe_msg *m = jf_build_msg(&e, (uint32_t)si, msg);
  if (!m) jf_throw(x->env, &e.err);
  return m;
}

JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_encode(JNIEnv *env, jclass cls, jlong core,
    jobjectArray structs, jobjectArray enums, jint si, jobject msg, jint model) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c) return NULL;
  jf_scratch *s = jf_scratch_get();
  if (!s) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return NULL;
  }
  jf_ctx x = {env, c, structs, enums};
  jbyteArray out = NULL;
  fbe_msg *m = build(&x, s, si, msg);
  if (m) {
    fbe_error err;
    if (fbe_encode(m, model_of(model), &s->buf, &err)) {
      jf_throw_fbe(env, &err);
    } else if (s->buf.size > INT32_MAX) {
      jf_throw_code(env, FBE_ERR_LIMIT, "the model is larger than a Java array");
    } else if ((out = (*env)->NewByteArray(env, (jsize)s->buf.size))) {
      (*env)->SetByteArrayRegion(env, out, 0, (jsize)s->buf.size, (const jbyte *)s->buf.data);
    }
  }
  jf_scratch_put(s);
  return out;
}

JNIEXPORT jobject JNICALL Java_org_libfbe_internal_Walk_decode(JNIEnv *env, jclass cls, jlong core,
    jobjectArray structs, jobjectArray enums, jint si, jbyteArray data, jint off, jint len, jint model) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c || check_range(env, data, off, len)) return NULL;
  jf_scratch *s = jf_scratch_get();
  if (!s) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return NULL;
  }
  jf_ctx x = {env, c, structs, enums};
  jobject out = NULL;
  fbe_msg *m = NULL;
  fbe_error err;
  /* The decoder copies what it keeps into the arena, so the array is released before
   * any Java object is made. */
  uint8_t *bytes = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
  if (bytes) {
    fbe_status st = fbe_decode(c->structs[si], model_of(model), bytes + off, (size_t)len, s->arena,
                               NULL, &m, NULL, &err);
    (*env)->ReleasePrimitiveArrayCritical(env, data, bytes, JNI_ABORT);
    if (st) jf_throw_fbe(env, &err);
    else out = message_of(&x, m);
  }
  jf_scratch_put(s);
  return out;
}

JNIEXPORT jlong JNICALL Java_org_libfbe_internal_Walk_verify(JNIEnv *env, jclass cls, jlong core,
    jint si, jbyteArray data, jint off, jint len, jint model) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c || check_range(env, data, off, len)) return -1;
  size_t size = 0;
  fbe_error err;
  uint8_t *bytes = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
  if (!bytes) return -1;
  fbe_status st = fbe_verify(c->structs[si], model_of(model), bytes + off, (size_t)len, NULL, &size, &err);
  (*env)->ReleasePrimitiveArrayCritical(env, data, bytes, JNI_ABORT);
  if (st) {
    jf_throw_fbe(env, &err);
    return -1;
  }
  return (jlong)size;
}

JNIEXPORT jstring JNICALL Java_org_libfbe_internal_Walk_toJson(JNIEnv *env, jclass cls, jlong core,
    jobjectArray structs, jobjectArray enums, jint si, jobject msg, jboolean pretty) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c) return NULL;
  jf_scratch *s = jf_scratch_get();
  if (!s) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return NULL;
  }
  jf_ctx x = {env, c, structs, enums};
  jstring out = NULL;
  fbe_msg *m = build(&x, s, si, msg);
  if (m) {
    fbe_error err;
    if (fbe_msg_to_json(m, pretty ? 1 : 0, &s->buf, &err)) jf_throw_fbe(env, &err);
    else out = jf_string_from_utf8(env, s->buf.data, s->buf.size);
  }
  jf_scratch_put(s);
  return out;
}

JNIEXPORT jobject JNICALL Java_org_libfbe_internal_Walk_fromJson(JNIEnv *env, jclass cls, jlong core,
    jobjectArray structs, jobjectArray enums, jint si, jbyteArray utf8) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c || check_range(env, utf8, 0, utf8 ? (*env)->GetArrayLength(env, utf8) : 0)) return NULL;
  jf_scratch *s = jf_scratch_get();
  if (!s) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return NULL;
  }
  jf_ctx x = {env, c, structs, enums};
  jobject out = NULL;
  jsize n = (*env)->GetArrayLength(env, utf8);
  char *text = fbe_arena_alloc(s->arena, (size_t)n + 1);
  if (!text) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
  } else {
    (*env)->GetByteArrayRegion(env, utf8, 0, n, (jbyte *)text);
    text[n] = 0;
    fbe_msg *m = NULL;
    fbe_error err;
    if (fbe_msg_from_json(c->structs[si], text, (size_t)n, s->arena, &m, &err)) jf_throw_fbe(env, &err);
    else out = message_of(&x, m);
  }
  jf_scratch_put(s);
  return out;
}

/* Deep equality by the core's rules (floats by bit pattern, decimals by value): both
 * messages are built and compared with fbe_msg_equal. */
JNIEXPORT jboolean JNICALL Java_org_libfbe_internal_Walk_equal(JNIEnv *env, jclass cls, jlong core,
    jobjectArray structs, jobjectArray enums, jint si, jobject a, jobject b) {
  (void)cls;
  const jf_core *c = core_of(env, core, si);
  if (!c) return JNI_FALSE;
  jf_scratch *s = jf_scratch_get();
  if (!s) {
    jf_throw_code(env, FBE_ERR_NOMEM, "out of memory");
    return JNI_FALSE;
  }
  jf_ctx x = {env, c, structs, enums};
  jboolean out = JNI_FALSE;
  fbe_msg *ma = build(&x, s, si, a);
  fbe_msg *mb = ma ? build(&x, s, si, b) : NULL;
  if (ma && mb) out = fbe_msg_equal(ma, mb) ? JNI_TRUE : JNI_FALSE;
  jf_scratch_put(s);
  return out;
}

/* The hand-written half of libfbejni: the object walk between Java objects and the
 * core's in-memory values (value.h), guided by the compiled tables of schema_model.h.
 * SWIG (swig/java.i) wraps the coarse surface; org.libfbe.internal.Walk declares the
 * per-message entry points implemented here (jni_walk.c, jni_protocol.c).
 *
 * Every entry point is ONE JNI call per message: it receives the schema's tables (the
 * jf_core handle plus the Java StructType[] and EnumType[] arrays, so no global
 * reference keeps a Schema alive) and walks the object graph with field and method IDs
 * cached once (jf_ids, filled by Walk.init). */
#ifndef JFBE_H
#define JFBE_H

#include <jni.h>
#include <stdint.h>
#include "fbe/fbe.h"
#include "schema_model.h"
#include "value.h"

/* One per loaded schema: the struct and enum order of the Java arrays, and sorted
 * pointer -> index tables to find a nested struct's or enum's Java object. */
typedef struct jf_entry {
  const void *ptr;
  uint32_t index;
} jf_entry;

/* An enum's named values by number - lo (global references, NULL where unnamed). */
typedef struct jf_enum_cache {
  int64_t lo;
  uint32_t n;
  jobject *values;
} jf_enum_cache;

typedef struct jf_core {
  fbe_schema *schema; /* retained */
  uint32_t nstructs, nenums;
  const fbe_struct **structs;
  const fbe_enum **enums;
  jf_entry *struct_map, *enum_map; /* sorted by ptr */
  jf_enum_cache *enum_cache;         /* per enum, in enum order */
  jweak *struct_types;               /* the StructType of each struct (weak: no cycle) */
  jweak *enum_types;                 /* the EnumType of each enum */
} jf_core;

/* The tables of one call. */
typedef struct jf_ctx {
  JNIEnv *env;
  const jf_core *core;
  jobjectArray structs; /* org.libfbe.StructType[] in core order */
  jobjectArray enums;   /* org.libfbe.EnumType[] */
} jf_ctx;

int jf_struct_index(const jf_core *core, const fbe_struct *st);
int jf_enum_index(const jf_core *core, const fbe_enum *e);

#define JF_SMALL_LO (-128)
#define JF_SMALL_HI 1024

/* Classes, fields and methods, cached once (global refs live as long as the library). */
typedef struct jf_ids {
  jclass Object, Boolean, Byte, Short, Integer, Long, Float, Double, Character, String,
      bytes, EnumType, BigDecimal, UUID, Collection, List, Map, Message, EnumValue, Walk, FbeException;
  jfieldID Boolean_value, Byte_value, Short_value, Integer_value, Long_value, Float_value,
      Double_value, Character_value, UUID_msb, UUID_lsb, Message_type, Message_values,
      EnumValue_type, EnumValue_value, EnumType_dense, EnumType_denseLo;
  jobject TRUE, FALSE; /* Boolean.TRUE, Boolean.FALSE */
  /* Boxes of JF_SMALL_LO .. JF_SMALL_HI-1 (global references), made once. */
  jobject small_byte[JF_SMALL_HI - JF_SMALL_LO], small_short[JF_SMALL_HI - JF_SMALL_LO],
      small_int[JF_SMALL_HI - JF_SMALL_LO], small_long[JF_SMALL_HI - JF_SMALL_LO],
      small_char[JF_SMALL_HI - JF_SMALL_LO];
  jmethodID Boolean_valueOf, Byte_valueOf, Short_valueOf, Integer_valueOf, Long_valueOf,
      Float_valueOf, Double_valueOf, Character_valueOf, BigDecimal_toString, BigDecimal_new,
      UUID_new, Collection_toArray, Message_new, Walk_list, Walk_set, Walk_map, Walk_flatten,
      Walk_enumValue, Walk_decimal, FbeException_new, Receiver_deliver;
} jf_ids;

extern jf_ids jf;

/* An error of our own, with the path built while unwinding. code 0 with a Java
 * exception pending means "propagate that one". */
typedef struct jf_err {
  int code;
  size_t offset;
  char message[256];
  char path[160];
} jf_err;

void jf_err_set(jf_err *e, int code, const char *fmt, ...);
void jf_err_prepend_field(jf_err *e, const char *name);
void jf_err_prepend_index(jf_err *e, size_t index);
void jf_err_prepend_key(jf_err *e);
void jf_err_from_fbe(jf_err *e, const fbe_error *err);
/* Throws org.libfbe.FbeException (unless a Java exception is already pending). */
void jf_throw(JNIEnv *env, const jf_err *e);
void jf_throw_fbe(JNIEnv *env, const fbe_error *err);
void jf_throw_code(JNIEnv *env, int code, const char *message);

/* Per-thread scratch: an arena and an output buffer reused by the calls of a thread;
 * a nested call (from a receiver's handler) gets a temporary one. */
typedef struct jf_scratch {
  fbe_arena *arena;
  fbe_buffer buf;
  int busy, temp;
} jf_scratch;

jf_scratch *jf_scratch_get(void);
void jf_scratch_put(jf_scratch *s);

/* Java -> value (jni_put.c): writes a complete value of st into slot. */
typedef struct jf_enc {
  jf_ctx *x;
  fbe_arena *arena;
  uint32_t depth;
  jf_err err;
} jf_enc;

/* A new message of struct index `si` holding the Java Message obj, in arena; NULL with
 * e->err set (or a Java exception pending). */
fbe_msg *jf_build_msg(jf_enc *c, uint32_t si, jobject obj);

/* value -> Java (jni_get.c). NULL with err set or a Java exception pending. */
jobject jf_get_struct(jf_ctx *x, jf_err *err, const fbe_struct *st, const uint8_t *slot);

/* A Java call's result, NULL when it threw (checked at once, as JNI requires). */
static inline jobject jf_checked(JNIEnv *env, jobject result) {
  if ((*env)->ExceptionCheck(env)) {
    if (result) (*env)->DeleteLocalRef(env, result);
    return NULL;
  }
  return result;
}

/* UTF-16 <-> UTF-8 for strings (JNI's own "modified UTF-8" differs for NUL and
 * characters outside the BMP). */
jstring jf_string_from_utf8(JNIEnv *env, const uint8_t *s, size_t n);

#endif

/* org.libfbe.FbeException from the core's error record: its status (org.libfbe.Status,
 * generated from the core's table, gen/), its parts, and its text as the core writes it
 * (fbe_error_format), the same in every language. Strings cross as UTF-8 byte[]s
 * (JNI's "modified UTF-8" differs for NUL and characters outside the BMP). */
#include <string.h>
#include "binding.h"

jthrowable jf_exception(JNIEnv *env, const fbe_error *err) {
  if ((*env)->ExceptionCheck(env)) return NULL;
  fbe_error fallback;
  if (!err->code) {
    fbei_error_set(&fallback, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "operation failed");
    err = &fallback;
  }
  char text[sizeof err->message + sizeof err->path + 40];
  fbe_error_format(err, text, sizeof text);
  jbyteArray t = jf_bytes(env, text, strlen(text));
  jbyteArray m = t ? jf_bytes(env, err->message, strlen(err->message)) : NULL;
  jbyteArray p = m ? jf_bytes(env, err->path, strlen(err->path)) : NULL;
  if (!p) return NULL;
  jlong offset = err->offset == FBE_NO_OFFSET ? -1 : (jlong)err->offset;
  return (*env)->NewObject(env, jf.FbeException, jf.FbeException_new, (jint)err->code, t, m, p, offset);
}

void jf_throw(JNIEnv *env, const fbe_error *err) {
  jthrowable ex = jf_exception(env, err);
  if (ex) (*env)->Throw(env, ex);
}

void jf_throw_status(JNIEnv *env, fbe_status code, const char *message) {
  fbe_error err;
  fbei_error_set(&err, code, FBE_NO_OFFSET, "%s", message);
  jf_throw(env, &err);
}

/* Walk.errorWhere: what the core's text puts after the message of an error Java raised
 * itself (FbeException keeps the message whole), so the format lives only in the core. */
JNIEXPORT jbyteArray JNICALL Java_org_libfbe_internal_Walk_errorWhere(JNIEnv *env, jclass cls, jbyteArray path,
                                                                     jlong offset) {
  char p[sizeof ((fbe_error *)0)->path], where[sizeof p + 48];
  size_t n = path ? (size_t)(*env)->GetArrayLength(env, path) : 0;
  if (n >= sizeof p) { /* the record's size: cut as the core cuts, at a character boundary */
    (*env)->GetByteArrayRegion(env, path, 0, (jsize)sizeof p, (jbyte *)p);
    for (n = sizeof p - 1; n && (p[n] & 0xC0) == 0x80; n--) {}
  } else if (n) {
    (*env)->GetByteArrayRegion(env, path, 0, (jsize)n, (jbyte *)p);
  }
  p[n] = 0;
  fbe_error_format_where(p, offset < 0 ? FBE_NO_OFFSET : (size_t)offset, where, sizeof where);
  return jf_bytes(env, where, strlen(where));
}

/* ---- docs/INPUT.md: the words of a refused host value, written by the core
 * (fbe/internal/input.h). Java says what it was given (org.libfbe.Got, fbei_got) and
 * what was wanted; each call returns the FbeException for Java to throw (with the path
 * Java adds as it unwinds). Names and texts cross as UTF-8 byte[]s (NULL: none). */

/* A Java byte[] as a NUL-terminated C string in buf (cut to fit), or NULL for NULL. */
static const char *utf8_of(JNIEnv *env, jbyteArray a, char *buf, size_t cap, size_t *length) {
  *length = 0;
  if (!a) return NULL;
  size_t n = (size_t)(*env)->GetArrayLength(env, a);
  if (n >= cap) n = cap - 1;
  (*env)->GetByteArrayRegion(env, a, 0, (jsize)n, (jbyte *)buf);
  buf[n] = 0;
  *length = n;
  return buf;
}

/* fbei_error_type: "expected W, got G"; type is the core's fbe_type of the field (org.libfbe.FieldType). */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_typeError(JNIEnv *env, jclass cls, jlong type, jint got,
                                                                     jbyteArray name) {
  char buf[256];
  size_t n;
  const char *s = utf8_of(env, name, buf, sizeof buf, &n);
  fbe_error err;
  fbei_error_type(&err, (const fbe_type *)(intptr_t)type, (fbei_got)got, s);
  return jf_exception(env, &err);
}

/* fbei_error_type_struct: a whole message of struct si wanted (compareTo's other side). */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_structTypeError(JNIEnv *env, jclass cls, jlong core,
                                                                           jint si, jint got, jbyteArray name) {
  const jf_core *c = jf_core_of(env, core, si);
  if (!c) return NULL;
  char buf[256];
  size_t n;
  const char *s = utf8_of(env, name, buf, sizeof buf, &n);
  fbe_error err;
  fbei_error_type_struct(&err, fbe_schema_struct_at(c->schema, (size_t)si), (fbei_got)got, s);
  return jf_exception(env, &err);
}

/* fbei_error_unknown_field: a name struct si does not have, with the nearest one suggested. */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_unknownField(JNIEnv *env, jclass cls, jlong core, jint si,
                                                                        jbyteArray name) {
  const jf_core *c = jf_core_of(env, core, si);
  if (!c) return NULL;
  char buf[512];
  size_t n;
  const char *s = utf8_of(env, name, buf, sizeof buf, &n);
  fbe_error err;
  fbei_error_unknown_field(&err, fbe_schema_struct_at(c->schema, (size_t)si), s ? s : "", n);
  return jf_exception(env, &err);
}

/* fbei_error_unknown_type: a name the schema has no type of (what: "type", "struct" or
 * "enum"), with the nearest one suggested. */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_typeNotFound(JNIEnv *env, jclass cls, jlong core,
                                                                        jbyteArray name, jstring what) {
  const jf_core *c = (const jf_core *)(intptr_t)core;
  if (!c) return jf_throw_status(env, FBE_ERR_ARGUMENT, "the schema is closed"), NULL;
  char buf[512], w[16] = "type";
  size_t n;
  const char *s = utf8_of(env, name, buf, sizeof buf, &n);
  jsize wn = what ? (*env)->GetStringUTFLength(env, what) : 0;
  if (wn > 0 && (size_t)wn < sizeof w) {
    (*env)->GetStringUTFRegion(env, what, 0, (*env)->GetStringLength(env, what), w);
    w[wn] = 0;
  }
  fbe_error err;
  fbei_error_unknown_type(&err, c->schema, w, s ? s : "", n);
  return jf_exception(env, &err);
}

/* fbei_error_bad_text: text of the right kind that is not a value of kind (uuid, char, ...). */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_badText(JNIEnv *env, jclass cls, jint kind,
                                                                   jbyteArray text) {
  char buf[512];
  size_t n;
  const char *s = utf8_of(env, text, buf, sizeof buf, &n);
  fbe_error err;
  fbei_error_bad_text(&err, (fbe_kind)kind, s ? s : "", n);
  return jf_exception(env, &err);
}

/* fbei_error_array_length: a list of `got` items for the fixed array `type`. */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_arrayLength(JNIEnv *env, jclass cls, jlong type,
                                                                       jint got) {
  fbe_error err;
  fbei_error_array_length(&err, (const fbe_type *)(intptr_t)type, (size_t)got);
  return jf_exception(env, &err);
}

/* fbei_error_int_range: a Java integer (its sign and magnitude) that does not fit kind. */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_intRange(JNIEnv *env, jclass cls, jint kind,
                                                                    jboolean negative, jlong magnitude) {
  fbe_error err;
  fbei_error_int_range(&err, negative ? 1 : 0, (uint64_t)magnitude, (fbe_kind)kind);
  return jf_exception(env, &err);
}

/* fbei_error_range with the number's decimal text (a BigInteger beyond 64 bits). */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_numberRange(JNIEnv *env, jclass cls, jint kind,
                                                                       jbyteArray text) {
  char buf[256];
  size_t n;
  const char *s = utf8_of(env, text, buf, sizeof buf, &n);
  fbe_error err;
  fbei_error_range(&err, s ? s : "", (fbe_kind)kind);
  return jf_exception(env, &err);
}

/* fbei_error_range for a double beyond kind (a float field): the number as the core prints it. */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_doubleRange(JNIEnv *env, jclass cls, jint kind,
                                                                       jdouble value) {
  char text[FBE_DOUBLE_TEXT_MAX];
  fbei_double_format(value, text);
  fbe_error err;
  fbei_error_range(&err, text, (fbe_kind)kind);
  return jf_exception(env, &err);
}

/* The core's depth error (fbei_tape_too_deep), for Java's flattening that counts the same levels. */
JNIEXPORT jthrowable JNICALL Java_org_libfbe_internal_Walk_tooDeep(JNIEnv *env, jclass cls) {
  fbe_error err;
  fbei_tape_too_deep(&err);
  return jf_exception(env, &err);
}

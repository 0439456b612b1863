/* org.libfbe.FbeException from the core's error record: its status (org.libfbe.Status,
 * generated from the core's table, gen/), its parts, and its text as the core writes it
 * (fbe_error_format), the same in every language. Strings cross as UTF-8 byte[]s
 * (JNI's "modified UTF-8" differs for NUL and characters outside the BMP). */
#include <string.h>
#include "binding.h"

void jf_throw(JNIEnv *env, const fbe_error *err) {
  if ((*env)->ExceptionCheck(env)) return;
  if (!err->code) {
    jf_throw_status(env, FBE_ERR_ARGUMENT, "operation failed");
    return;
  }
  char text[sizeof err->message + sizeof err->path + 40];
  fbe_error_format(err, text, sizeof text);
  jbyteArray t = jf_bytes(env, text, strlen(text));
  jbyteArray m = t ? jf_bytes(env, err->message, strlen(err->message)) : NULL;
  jbyteArray p = m ? jf_bytes(env, err->path, strlen(err->path)) : NULL;
  if (!p) return;
  jlong offset = err->offset == FBE_NO_OFFSET ? -1 : (jlong)err->offset;
  jthrowable ex = (*env)->NewObject(env, jf.FbeException, jf.FbeException_new, (jint)err->code, t, m, p, offset);
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

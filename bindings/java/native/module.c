/* Load and unload of libfbejni: the class and methods C calls back, cached once, and
 * the scratch pool, drained when the library's class loader goes. */
#include "binding.h"

jf_ids jf;
fbei_scratch_pool jf_pool; /* zero: an empty pool */

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
  JNIEnv *env;
  if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
  /* FindClass from JNI_OnLoad looks in the class loader that loads the library. */
  jclass ex = (*env)->FindClass(env, "org/libfbe/FbeException");
  jclass receiver = ex ? (*env)->FindClass(env, "org/libfbe/Receiver") : NULL;
  jclass peer = receiver ? (*env)->FindClass(env, "org/libfbe/Peer") : NULL;
  jclass ends = peer ? (*env)->FindClass(env, "org/libfbe/Ends") : NULL;
  if (!ends) return JNI_ERR;
  jf.FbeException_new = (*env)->GetMethodID(env, ex, "<init>", "(I[B[B[BJ)V");
  jf.Receiver_deliver = (*env)->GetMethodID(env, receiver, "deliver", "(I[BI)V");
  jf.Receiver_logged = (*env)->GetMethodID(env, receiver, "logged", "([B)V");
  jf.Peer_written = (*env)->GetMethodID(env, peer, "written", "([B)Z");
  jf.Peer_received = (*env)->GetMethodID(env, peer, "received", "(I[BI)Z");
  jf.Peer_logged = (*env)->GetMethodID(env, peer, "logged", "(Z[B)V");
  jf.Peer_frame = (*env)->GetMethodID(env, peer, "frame", "(II[B)Z");
  jf.Ends_ended = (*env)->GetMethodID(env, ends, "ended", "(JII[BILorg/libfbe/FbeException;)V");
  if (!jf.FbeException_new || !jf.Receiver_deliver || !jf.Receiver_logged || !jf.Peer_written || !jf.Peer_received || !jf.Peer_logged ||
      !jf.Peer_frame || !jf.Ends_ended || !(jf.FbeException = (*env)->NewGlobalRef(env, ex)))
    return JNI_ERR;
  return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved) {
  JNIEnv *env;
  if (jf.FbeException && (*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) == JNI_OK)
    (*env)->DeleteGlobalRef(env, jf.FbeException);
  jf.FbeException = NULL;
  fbei_scratch_pool_drain(&jf_pool);
}

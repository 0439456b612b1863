/* The hand-written half of libfbejni: org.libfbe.internal.Walk's entry points, a thin
 * skin over the core's binding kit (the tape, the scratch pool, the error record).
 * SWIG (swig/java.i) wraps the coarse surface.
 *
 * Every entry point is ONE JNI call per message: Java and C exchange the message as a
 * tape of primitive slots (fbe/internal/tape.h, FBE_TAPE_INT64), never as Java objects.
 * A JNI call costs 10-20 ns, a slot read or write in JIT-compiled Java or in C about one. */
#ifndef FBE_JAVA_BINDING_H
#define FBE_JAVA_BINDING_H

#include <jni.h>
#include <stdint.h>
#include "fbe/fbe.h"
#include "fbe/internal/error.h"
#include "fbe/internal/float_text.h"
#include "fbe/internal/input.h"
#include "fbe/internal/memory.h" /* the skin's own blocks are counted with the core's */
#include "fbe/internal/scratch.h"
#include "fbe/internal/tape.h"
#include "fbe/internal/value.h"

/* module.c: what C calls back, cached at load (global refs live as long as the
 * library), and the scratch pool every call takes its arena and buffer from. */
typedef struct jf_ids {
  jclass FbeException;
  jmethodID FbeException_new, Receiver_deliver, Receiver_logged;
  /* rpc.c's callbacks: org.libfbe.Peer (Client, Server, Proxy) and a client's Ends */
  jmethodID Peer_written, Peer_received, Peer_logged, Peer_frame, Ends_ended;
} jf_ids;
extern jf_ids jf;
extern fbei_scratch_pool jf_pool;

/* errors.c: org.libfbe.FbeException of err, made (NULL when a Java exception is
 * pending or one could not be made) or thrown. */
jthrowable jf_exception(JNIEnv *env, const fbe_error *err);
void jf_throw(JNIEnv *env, const fbe_error *err);
void jf_throw_status(JNIEnv *env, fbe_status code, const char *message);

/* bind.c: one per loaded schema: its structs by the core's dense index (the order of
 * the Java StructType[]) and the tape programs for Java's slots. */
typedef struct jf_core {
  fbe_schema *schema; /* retained */
  uint32_t nstructs, nenums;
  fbei_tape_programs *progs;
} jf_core;

/* The handle and struct index Java passes, checked: NULL with an exception thrown. */
const jf_core *jf_core_of(JNIEnv *env, jlong core, jint si);
/* The same for an enum's dense index (fbe_enum_index): its fbe_enum, or NULL. */
const fbe_enum *jf_enum_of(JNIEnv *env, jlong core, jint ei);

/* convert.c: Java arrays and values in and out. A new byte[] of data[0..n), or NULL
 * with an exception pending: */
jbyteArray jf_bytes(JNIEnv *env, const void *data, size_t n);
/* data[off, off+len) of a Java byte[], checked: 0, or -1 with an exception thrown. */
int jf_check_range(JNIEnv *env, jbyteArray data, jint off, jint len);
/* The three members of org.libfbe.Limits: NULL when all are 0 (the defaults), else
 * *storage, each member set by the core's fbe_limits_set. *failed = 1 (and an
 * exception thrown) when the core refuses one. */
const fbe_limits *jf_limits(JNIEnv *env, jlong max_depth, jlong max_model_size, jlong max_memory,
                            fbe_limits *storage, int *failed);

/* What an operation does with the message(s) read from Java's tape, inside the critical
 * section (no JNI call; it may write its result onto the tape): 0, or -1 with err set. */
typedef int (*jf_tape_op)(void *ctx, fbei_tape *tp, fbe_msg *a, fbe_msg *b, fbei_scratch *s, fbe_error *err);

/* Java's tape is ONE block of direct memory (org.libfbe.Tape's direct ByteBuffer, its
 * address passed as a jlong: no pin, no JNI call to reach it), its slots in the first
 * 8 x slots bytes and the byte tape after them; caps = (slots << 32 | bytes), which Java
 * passes. The block belongs to the calling thread's Tape, which Java keeps reachable
 * for the length of the call.
 *
 * Reads `count` messages (1, or 2 one after the other) of struct si from Java's tape
 * into a scratch's arena and runs op on them. 0, or -1 with an exception thrown. */
int jf_with_tape(JNIEnv *env, jlong core, jint si, jlong tape, jlong caps, int count, jf_tape_op op,
                 void *ctx);

/* The tape at address `tape` with capacities caps, as the core reads it: 0, or -1 with
 * an exception thrown (no tape, or one not 8-aligned). */
int jf_tape_at(JNIEnv *env, jlong tape, jlong caps, fbei_tape *tp);

/* A scratch of the pool (jf_pool), or NULL with an exception thrown. */
fbei_scratch *jf_scratch(JNIEnv *env);

/* Makes a message of struct si in a scratch's arena (make: 0, or a status with err set)
 * and writes it onto Java's tape: (slots << 32 | bytes) written, or -1 - (slots << 32 |
 * bytes) the tape needs when it is too small (Java grows it and calls again); 0 with
 * an exception thrown on failure. make gets the tape (tp: what is on it, e.g. an input
 * Java put there) and may pin a Java array (Get/ReleasePrimitiveArrayCritical). */
typedef fbe_status (*jf_make_op)(void *ctx, const fbei_tape *tp, const fbe_struct *st, fbe_arena *arena, fbe_msg **out,
                                 fbe_error *err);
jlong jf_make_onto_tape(JNIEnv *env, jlong core, jint si, jlong tape, jlong caps, jf_make_op make,
                        void *ctx);

/* protocol.c: a message received (of core's schema) as Java's tape form, one new byte[]:
 * its slots (8 bytes each) then its bytes; *si its struct index, *slots how many. NULL
 * with an exception pending (NOT_FOUND for a struct of another schema, NOMEM, LIMIT). */
jbyteArray jf_msg_tape(JNIEnv *env, const jf_core *core, const fbe_msg *msg, jint *si, jint *slots);

#endif

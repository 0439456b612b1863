/* The hand-written half of libfbejni: the tape between Java and the core's in-memory
 * values (value.h), guided by the compiled tables of schema_model.h.
 * SWIG (swig/java.i) wraps the coarse surface; org.libfbe.internal.Walk declares the
 * per-message entry points implemented here (jni_walk.c, jni_protocol.c).
 *
 * Every entry point is ONE JNI call per message: Java and C exchange the message as a
 * tape of primitive slots (below), never as Java objects. */
#ifndef JFBE_H
#define JFBE_H

#include <jni.h>
#include <stdint.h>
#include "fbe/fbe.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/value.h"
#include "fbe/internal/memory.h" /* the walk's own blocks are counted with the core's */

/* One per loaded schema: its structs in the order of the Java StructType[] (packages
 * in dependency order, declaration order inside each), and a sorted pointer -> index
 * table to name a received message's type to Java. */
typedef struct jf_entry {
  const void *ptr;
  uint32_t index;
} jf_entry;

typedef struct jf_prog jf_prog;

typedef struct jf_core {
  fbe_schema *schema; /* retained */
  uint32_t nstructs;
  const fbe_struct **structs;
  jf_entry *struct_map; /* sorted by ptr */
  jf_prog *progs;       /* each struct's tape program (jni_tape.c), in struct order */
} jf_core;

int jf_struct_index(const jf_core *core, const fbe_struct *st);

/* Classes and methods, cached once (global refs live as long as the library). */
typedef struct jf_ids {
  jclass FbeException;
  jmethodID FbeException_new, Receiver_deliver;
} jf_ids;

extern jf_ids jf;

/* An error of our own, with the path built while unwinding. code 0 with a Java
 * exception pending means "propagate that one". */
/* The core's error record; its path is built with the core's fbe_error_prepend_*
 * (error_internal.h) while unwinding. */
typedef fbe_error jf_err;

void jf_err_set(jf_err *e, int code, const char *fmt, ...);
void jf_err_prepend_field(jf_err *e, const char *name);
void jf_err_prepend_index(jf_err *e, size_t index);
void jf_err_prepend_key(jf_err *e);
void jf_err_from_fbe(jf_err *e, const fbe_error *err);
/* Throws org.libfbe.FbeException (unless a Java exception is already pending). */
void jf_throw(JNIEnv *env, const jf_err *e);
void jf_throw_fbe(JNIEnv *env, const fbe_error *err);
void jf_throw_code(JNIEnv *env, int code, const char *message);

/* The limits of a call, from the three members of org.libfbe.Limits (made by the core's
 * fbe_limits_set): NULL when all are 0 (the defaults), else *storage, each member set
 * through fbe_limits_set again (so what an internal caller passes is what the core
 * allows). NULL with *failed = 1 and an exception thrown when the core refuses one. */
const fbe_limits *jf_limits(JNIEnv *env, jlong max_depth, jlong max_model_size, jlong max_memory,
                            fbe_limits *storage, int *failed);

/* Per-thread scratch: an arena and an output buffer reused by the calls of a thread;
 * a nested call (from a receiver's handler) gets a temporary one. */
typedef struct jf_scratch {
  fbe_arena *arena;
  fbe_buffer buf;
  int busy, temp;
} jf_scratch;

jf_scratch *jf_scratch_get(void);
void jf_scratch_put(jf_scratch *s);

/* The tape: how a value crosses between Java and C in one call. org.libfbe.Tape lays a
 * message out depth-first in schema field order, inherited fields first, on a long[]
 * of slots and a byte[] of contents; C reads it while it holds both arrays (critical
 * sections, no copy) and writes it the same way for Java to build Messages from:
 *
 *   bool, integers, char, wchar, timestamp, enum/flags   slot: the value (signed kinds
 *                                     sign-extended, unsigned zero-extended, uint64 its bits)
 *   float / double                    slot: Float.floatToRawIntBits / doubleToRawLongBits
 *   string, bytes, decimal            slot: byte length; the bytes (UTF-8; decimal as text)
 *   uuid                              two slots: the most and least significant 64 bits
 *   struct                            its fields, no header
 *   T?                                slot 0 (null) or 1, then the T
 *   T[N]                              the N elements
 *   vector, list, set                 slot: count, then the elements
 *   map, hash                         slot: count, then key, value, key, value, ...
 *
 * One JNI call per operation whatever the message holds: a JNI call costs 10-20 ns, a
 * slot read or write in JIT-compiled Java or in C about one. */
typedef struct jf_tape {
  int64_t *num;
  uint32_t num_cap;
  uint8_t *bytes;
  uint32_t bytes_cap;
} jf_tape;

/* Compiles the tape program of every struct (its fields with nested structs spliced
 * in, as one flat list of steps) into core->progs. 0, or -1 when out of memory. */
int jf_progs_compile(jf_core *core);

/* A message of struct si from the tape at slot *n, byte *p (advanced past it), in
 * arena; strings point into the tape. NULL with err set (the value's path in it). */
fbe_msg *jf_tape_read(const jf_core *core, const jf_tape *tp, uint32_t si, fbe_arena *arena,
                      uint32_t *n, uint32_t *p, jf_err *err);

/* Writes m onto the tape from position 0. 0, or -1 when the tape is too small; either
 * way *need_n and *need_p say how many slots and bytes the value takes. */
int jf_tape_write(const jf_core *core, jf_tape *tp, const fbe_msg *m, uint64_t *need_n, uint64_t *need_p);

/* What an operation does with the message(s) read from Java's tape, inside the critical
 * section (no JNI call; it may write its result onto the tape): 0, or -1 with err set. */
typedef int (*jf_tape_op)(void *ctx, jf_tape *tp, fbe_msg *a, fbe_msg *b, jf_scratch *s, fbe_error *err);

/* Reads `count` messages (1, or 2 one after the other) of struct si from Java's tape
 * into s->arena and runs op on them. 0, or -1 with an exception thrown. */
int jf_with_tape(JNIEnv *env, const jf_core *c, jint si, jlongArray num, jbyteArray bytes, int count,
                 jf_tape_op op, void *ctx, jf_scratch *s);

/* UTF-8 -> a Java String, for JSON and error text (JNI's own "modified UTF-8" differs
 * for NUL and characters outside the BMP). */
jstring jf_string_from_utf8(JNIEnv *env, const uint8_t *s, size_t n);

#endif

/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* The bindings' scratch: an arena for the values a call builds, a buffer for the bytes
 * it writes and a list of host objects the values borrow from, reused from call to
 * call instead of allocated each time (base/scratch.c).
 *
 * A pool keeps a few idle scratches; a call takes one and gives it back. It is
 * lock-free and not per-thread: any thread takes any idle scratch, a nested call just
 * takes another, and nothing is tied to a thread's life, so nothing leaks when a
 * thread ends (one JVM thread after another, each once). A binding declares one pool
 * in static storage (zero is an empty pool) and drains it when its module unloads. */
#ifndef FBE_INTERNAL_SCRATCH_H
#define FBE_INTERNAL_SCRATCH_H

#include <stdatomic.h>
#include <stddef.h>
#include "fbe/arena.h"
#include "fbe/buffer.h"

/* A binding releases the GIL (Python) or the GVL (Ruby) around core work on inputs of
 * at least this many bytes: below it, the release costs more than it lets others do. */
#define FBE_RELEASE_LOCK_BYTES ((size_t)64 * 1024)

typedef struct fbei_scratch {
  fbe_arena *arena;  /* reset when given back (keeps one block) */
  fbe_buffer buf;    /* reset when given back; freed when it grew past 1 MiB */
  void **keep;       /* host objects the call's values borrow from: the binding holds a
                        reference to each and drops them before fbei_scratch_put */
  size_t nkeep, keep_cap;
} fbei_scratch;

#define FBE_SCRATCH_POOL_SIZE 8
typedef struct fbei_scratch_pool {
  _Atomic(fbei_scratch *) idle[FBE_SCRATCH_POOL_SIZE];
} fbei_scratch_pool;

/* An idle scratch of the pool, or a new one; NULL when out of memory. */
fbei_scratch *fbei_scratch_get(fbei_scratch_pool *pool);

/* Appends a host object to s->keep. 0, or -1 when out of memory. */
int fbei_scratch_keep(fbei_scratch *s, void *host_object);

/* Resets s (s->keep must be empty: the binding dropped its references and set nkeep
 * to 0) and gives it back to the pool, or frees it when the pool is full. */
void fbei_scratch_put(fbei_scratch_pool *pool, fbei_scratch *s);

/* The same for hosts that call into the pool only while holding one lock that every
 * such call holds (Python's GIL, Ruby's GVL): no atomic read-modify-write, which costs
 * about as much as a small message's decode. Never mix them with fbei_scratch_get/put
 * on one pool; a free-threaded host uses fbei_scratch_get/put. */
fbei_scratch *fbei_scratch_get_locked(fbei_scratch_pool *pool);
void fbei_scratch_put_locked(fbei_scratch_pool *pool, fbei_scratch *s);

/* Frees every idle scratch (at module unload; scratches still taken are not the
 * pool's until given back). */
void fbei_scratch_pool_drain(fbei_scratch_pool *pool);

#endif

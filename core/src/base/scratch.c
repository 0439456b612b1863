/* The bindings' scratch pool (fbe/internal/scratch.h). */
#include "fbe/internal/scratch.h"
#include "fbe/internal/memory.h"

static void scratch_free(fbei_scratch *s) {
  if (!s) return;
  fbe_arena_free(s->arena);
  fbe_buffer_free(&s->buf);
  fbei_mem_free(s->keep);
  fbei_mem_free(s);
}

static fbei_scratch *scratch_new(void) {
  fbei_scratch *s = fbei_mem_calloc(1, sizeof *s);
  if (!s || !(s->arena = fbe_arena_new())) {
    fbei_mem_free(s);
    return NULL;
  }
  return s;
}

fbei_scratch *fbei_scratch_get(fbei_scratch_pool *pool) {
  for (int i = 0; i < FBE_SCRATCH_POOL_SIZE; i++) {
    /* Taking a slot's scratch is one exchange: no two callers get the same one. */
    fbei_scratch *s = atomic_exchange(&pool->idle[i], NULL);
    if (s) return s;
  }
  return scratch_new();
}

fbei_scratch *fbei_scratch_get_locked(fbei_scratch_pool *pool) {
  for (int i = 0; i < FBE_SCRATCH_POOL_SIZE; i++) {
    /* The caller's lock orders these: relaxed loads and stores are plain moves. */
    fbei_scratch *s = atomic_load_explicit(&pool->idle[i], memory_order_relaxed);
    if (s) {
      atomic_store_explicit(&pool->idle[i], NULL, memory_order_relaxed);
      return s;
    }
  }
  return scratch_new();
}

int fbei_scratch_keep(fbei_scratch *s, void *host_object) {
  if (s->nkeep == s->keep_cap) {
    size_t cap = s->keep_cap ? s->keep_cap * 2 : 32;
    void **more = fbei_mem_realloc(s->keep, cap * sizeof *more);
    if (!more) return -1;
    s->keep = more;
    s->keep_cap = cap;
  }
  s->keep[s->nkeep++] = host_object;
  return 0;
}

/* Ready for the next call: emptied, and not holding on to much. */
static void scratch_reset(fbei_scratch *s) {
  fbe_arena_reset(s->arena); /* keeps one block */
  if (s->buf.capacity > ((size_t)1 << 20)) fbe_buffer_free(&s->buf); /* no huge buffers kept */
  else fbe_buffer_reset(&s->buf);
  s->nkeep = 0;
  if (s->keep_cap > 4096) {
    fbei_mem_free(s->keep);
    s->keep = NULL;
    s->keep_cap = 0;
  }
}

void fbei_scratch_put(fbei_scratch_pool *pool, fbei_scratch *s) {
  if (!s) return;
  scratch_reset(s);
  for (int i = 0; i < FBE_SCRATCH_POOL_SIZE; i++) {
    fbei_scratch *empty = NULL;
    if (atomic_compare_exchange_strong(&pool->idle[i], &empty, s)) return;
  }
  scratch_free(s); /* the pool is full: more calls ran at once than it keeps */
}

void fbei_scratch_put_locked(fbei_scratch_pool *pool, fbei_scratch *s) {
  if (!s) return;
  scratch_reset(s);
  for (int i = 0; i < FBE_SCRATCH_POOL_SIZE; i++) {
    if (!atomic_load_explicit(&pool->idle[i], memory_order_relaxed)) {
      atomic_store_explicit(&pool->idle[i], s, memory_order_relaxed);
      return;
    }
  }
  scratch_free(s);
}

void fbei_scratch_pool_drain(fbei_scratch_pool *pool) {
  for (int i = 0; i < FBE_SCRATCH_POOL_SIZE; i++) scratch_free(atomic_exchange(&pool->idle[i], NULL));
}

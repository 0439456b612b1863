/* Counted allocation (memory_internal.h): each block carries its size in a header so
 * that free and realloc can keep fbe_memory_in_use() exact. The header is as large as
 * the strictest alignment (max_align_t), so the pointer handed out keeps malloc's. */
#include <stdint.h>
#include <stdlib.h>
#include "fbe/internal/memory.h"

typedef union header {
  max_align_t align;
  size_t size; /* bytes asked for, without the header */
} header;

/* The count, over all threads. Relaxed: it orders nothing, it only has to add up. */
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
static atomic_size_t in_use;
static void count_add(size_t n) { atomic_fetch_add_explicit(&in_use, n, memory_order_relaxed); }
static void count_sub(size_t n) { atomic_fetch_sub_explicit(&in_use, n, memory_order_relaxed); }
static size_t count_get(void) { return atomic_load_explicit(&in_use, memory_order_relaxed); }
#elif defined(__GNUC__)
static size_t in_use;
static void count_add(size_t n) { __atomic_fetch_add(&in_use, n, __ATOMIC_RELAXED); }
static void count_sub(size_t n) { __atomic_fetch_sub(&in_use, n, __ATOMIC_RELAXED); }
static size_t count_get(void) { return __atomic_load_n(&in_use, __ATOMIC_RELAXED); }
#elif defined(_MSC_VER)
#include <intrin.h>
#if defined(_WIN64)
static volatile __int64 in_use;
static void count_add(size_t n) { _InterlockedExchangeAdd64(&in_use, (__int64)n); }
static void count_sub(size_t n) { _InterlockedExchangeAdd64(&in_use, -(__int64)n); }
#else
static volatile long in_use;
static void count_add(size_t n) { _InterlockedExchangeAdd(&in_use, (long)n); }
static void count_sub(size_t n) { _InterlockedExchangeAdd(&in_use, -(long)n); }
#endif
static size_t count_get(void) { return (size_t)in_use; }
#else
#error "libfbe needs C11 atomics, GCC/Clang __atomic builtins or MSVC interlocked functions"
#endif

size_t fbe_memory_in_use(void) { return count_get(); }

static void *counted(header *h, size_t size) {
  if (!h) return NULL;
  h->size = size;
  count_add(size);
  return h + 1;
}

void *fbei_mem_alloc(size_t size) {
  if (size > SIZE_MAX - sizeof(header)) return NULL;
  return counted(malloc(sizeof(header) + size), size);
}

void *fbei_mem_calloc(size_t count, size_t size) {
  if (size && count > (SIZE_MAX - sizeof(header)) / size) return NULL;
  size_t n = count * size;
  return counted(calloc(1, sizeof(header) + n), n);
}

void *fbei_mem_realloc(void *ptr, size_t size) {
  if (!ptr) return fbei_mem_alloc(size);
  if (size > SIZE_MAX - sizeof(header)) return NULL;
  header *old = (header *)ptr - 1;
  size_t was = old->size;
  header *h = realloc(old, sizeof(header) + size);
  if (!h) return NULL; /* the old block is still there, still counted */
  count_sub(was);
  return counted(h, size);
}

void fbei_mem_free(void *ptr) {
  if (!ptr) return;
  header *h = (header *)ptr - 1;
  count_sub(h->size);
  free(h);
}

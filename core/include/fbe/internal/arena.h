/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: the arena's layout, so hot paths can inline the bump allocation. */
#ifndef FBE_ARENA_INTERNAL_H
#define FBE_ARENA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/arena.h"

typedef struct fbei_arena_block {
  struct fbei_arena_block *next;
  size_t size; /* usable bytes after the header */
} fbei_arena_block;

struct fbe_arena {
  fbei_arena_block *head; /* current block (newest) */
  uint8_t *ptr;          /* next free byte in head */
  uint8_t *end;          /* end of head */
  size_t reserved;       /* total bytes malloc'd for blocks */
};

/* Under AddressSanitizer the arena poisons what no allocation owns (arena.c), so an
 * overflow from one arena allocation into the next is reported like a heap overflow. */
#if defined(__SANITIZE_ADDRESS__)
#define FBE_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FBE_ARENA_ASAN 1
#endif
#endif

/* Same contract as fbe_arena_alloc; the common case stays inline. */
static inline void *fbei_arena_alloc_inline(fbe_arena *a, size_t size) {
#ifdef FBE_ARENA_ASAN
  return fbe_arena_alloc(a, size);
#endif
  size = (size + 7u) & ~(size_t)7u;
  if (size && (size_t)(a->end - a->ptr) >= size) {
    void *p = a->ptr;
    a->ptr += size;
    return p;
  }
  return fbe_arena_alloc(a, size);
}

#endif

/* Bump allocator in a chain of blocks; the first block survives fbe_arena_reset. */
#include <stdlib.h>
#include <stdint.h>
#include "fbe/internal/arena.h"
#include "fbe/internal/memory.h"

typedef fbei_arena_block block;

#ifdef FBE_ARENA_ASAN
#include <sanitizer/asan_interface.h>
/* Poisoned bytes after every allocation: an overflow into the next one is caught. */
#define REDZONE 8u
#else
#define REDZONE 0u
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

#define HEADER_SIZE ((sizeof(block) + 15u) & ~(size_t)15u)
#define FIRST_BLOCK 4096u

static uint8_t *block_data(block *b) { return (uint8_t *)b + HEADER_SIZE; }

fbe_arena *fbe_arena_new(void) {
  fbe_arena *a = fbei_mem_calloc(1, sizeof *a);
  return a;
}

void fbe_arena_free(fbe_arena *a) {
  if (!a) return;
  block *b = a->head;
  while (b) {
    block *next = b->next;
    ASAN_UNPOISON_MEMORY_REGION(block_data(b), b->size);
    fbei_mem_free(b);
    b = next;
  }
  fbei_mem_free(a);
}

void fbe_arena_reset(fbe_arena *a) {
  if (!a || !a->head) return;
  /* Keep the oldest block (the last in the chain): it is the one every reset reuses. */
  block *b = a->head;
  while (b->next) {
    block *next = b->next;
    a->reserved -= HEADER_SIZE + b->size;
    ASAN_UNPOISON_MEMORY_REGION(block_data(b), b->size);
    fbei_mem_free(b);
    b = next;
  }
  a->head = b;
  a->ptr = block_data(b);
  a->end = a->ptr + b->size;
  ASAN_POISON_MEMORY_REGION(a->ptr, b->size);
}

size_t fbe_arena_reserved(const fbe_arena *a) { return a ? a->reserved : 0; }

/* size: what the caller asked for (only that is usable); need: size rounded up, red zone included. */
static void *arena_alloc_slow(fbe_arena *a, size_t size, size_t need) {
  size_t want = a->head ? a->head->size * 2 : FIRST_BLOCK;
  if (want < need) want = need;
  if (want > SIZE_MAX - HEADER_SIZE) return NULL;
  block *b = fbei_mem_alloc(HEADER_SIZE + want);
  if (!b) return NULL;
  b->size = want;
  b->next = a->head;
  a->head = b;
  a->reserved += HEADER_SIZE + want;
  a->ptr = block_data(b) + need;
  a->end = block_data(b) + want;
  ASAN_POISON_MEMORY_REGION(block_data(b), want);
  ASAN_UNPOISON_MEMORY_REGION(block_data(b), size);
  return block_data(b);
}

void *fbe_arena_alloc(fbe_arena *a, size_t size) {
  if (size > SIZE_MAX - 8u - REDZONE) return NULL;
  size_t need = ((size + 7u) & ~(size_t)7u) + REDZONE;
  if (need == 0) need = 8;
  if ((size_t)(a->end - a->ptr) >= need) {
    void *p = a->ptr;
    a->ptr += need;
    ASAN_UNPOISON_MEMORY_REGION(p, size);
    return p;
  }
  return arena_alloc_slow(a, size, need);
}

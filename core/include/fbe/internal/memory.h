/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* The core's one door to the system allocator: malloc/calloc/realloc/free that keep
 * the count fbe_memory_in_use() reports. Every allocation of core/src, and of the
 * bindings' own C (swig/fbe.i, the walks, the Node addon), goes through these, and each
 * block is freed with fbei_mem_free (never free(): the pointer is not the start of the
 * system's block). */
#ifndef FBE_MEMORY_INTERNAL_H
#define FBE_MEMORY_INTERNAL_H

#include <stddef.h>
#include "fbe/memory.h"

void *fbei_mem_alloc(size_t size);
void *fbei_mem_calloc(size_t count, size_t size);
/* As realloc: NULL ptr allocates; on failure NULL and ptr is untouched. */
void *fbei_mem_realloc(void *ptr, size_t size);
void fbei_mem_free(void *ptr);

#endif

/* Bump allocator: everything one decode (or one message tree) needs, freed at once. */
#ifndef FBE_ARENA_H
#define FBE_ARENA_H

#include <stddef.h>
#include "fbe/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fbe_arena fbe_arena;

/* New empty arena. Returns NULL when out of memory. Free with fbe_arena_free. */
FBE_API fbe_arena *fbe_arena_new(void);

/* Frees the arena and every message and value allocated in it. NULL is a no-op. */
FBE_API void fbe_arena_free(fbe_arena *arena);

/* Forgets every allocation but keeps the first block for reuse: the cheap way to
 * decode many messages in a loop. Pointers into the arena become invalid. */
FBE_API void fbe_arena_reset(fbe_arena *arena);

/* Bytes currently reserved from the system by the arena. */
FBE_API size_t fbe_arena_reserved(const fbe_arena *arena);

/* Allocates size bytes aligned to 8, owned by the arena. NULL when out of memory. */
FBE_API void *fbe_arena_alloc(fbe_arena *arena, size_t size);

#ifdef __cplusplus
}
#endif
#endif

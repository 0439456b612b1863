/* How much memory the library holds: an exact count, for leak tests and monitoring. */
#ifndef FBE_MEMORY_H
#define FBE_MEMORY_H

#include <stddef.h>
#include "fbe/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes the library currently holds from the system allocator, over all threads:
 * every arena block, buffer, schema, diagnostic, compat report, sender, receiver and
 * value decoded with the default allocator (NULL fbe_allocator), and the native side
 * of the language bindings; the sizes asked for, without the allocator's overhead.
 * It returns exactly to an earlier value once everything allocated since is freed,
 * so a test can assert "no leak" without looking at the process's resident size.
 * Kept with relaxed atomics (no lock, no measurable cost); read while other threads
 * allocate, it is a snapshot. */
FBE_API size_t fbe_memory_in_use(void);

#ifdef __cplusplus
}
#endif
#endif

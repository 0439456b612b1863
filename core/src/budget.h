/* Internal: what reading a model of n bytes may cost, against hostile counts and bodies
 * shared by many pointers. One definition for the dynamic codec (decode.c, verify.c)
 * and for generated code (generated.c), so that both accept and refuse the same bytes. */
#ifndef FBE_BUDGET_H
#define FBE_BUDGET_H

#include <stdint.h>

/* Values a verifier visits at most: a well-formed model holds far fewer. */
static inline uint64_t fbe_work_budget(uint64_t n) { return 16 * n + 4096; }

/* Bytes a decoder allocates at most. */
static inline uint64_t fbe_memory_budget(uint64_t n) { return 16 * n + 65536; }

#endif

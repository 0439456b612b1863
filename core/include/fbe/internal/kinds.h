/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Facts about type kinds (base/kinds.c): the integer kinds' widths and ranges. */
#ifndef FBE_INTERNAL_KINDS_H
#define FBE_INTERNAL_KINDS_H

#include <stdbool.h>
#include <stdint.h>
#include "fbe/schema.h"

bool fbe_is_integer_kind(fbe_kind kind);          /* byte, int8 ... uint64 */
bool fbe_int_fits(fbe_kind kind, bool neg, uint64_t mag);
uint64_t fbe_int_pattern(bool neg, uint64_t mag); /* two's complement 64-bit pattern */
uint64_t fbe_int_limit(fbe_kind kind, bool max);  /* pattern of the kind's min or max */

#endif

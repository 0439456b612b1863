/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: little-endian loads and stores at any alignment, and fbe_copy_small. They
 * are the public field models' scalar primitives (fbe/field.h): one definition. */
#ifndef FBE_ENDIAN_H
#define FBE_ENDIAN_H

#include "fbe/field.h"

#endif

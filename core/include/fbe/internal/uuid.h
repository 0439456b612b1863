/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* The clock and the uuid sources for dynamic defaults (base/clock.c, base/uuid.c). */
#ifndef FBE_INTERNAL_UUID_H
#define FBE_INTERNAL_UUID_H

#include <stdint.h>

uint64_t fbei_now_ns(void);
void fbei_uuid_v1(uint8_t out[16]);
void fbei_uuid_v4(uint8_t out[16]);

#endif

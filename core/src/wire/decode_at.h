/* The decoder's entry for one value inside a verified model (decode.c), for views. */
#ifndef FBE_WIRE_DECODE_AT_H
#define FBE_WIRE_DECODE_AT_H

#include "fbe/codec.h"

/* Decodes the value of type t at a view's position (fbe_view's at/base: a struct at its
 * body (standard) or first field (final), anything else at its slot) of the verified
 * model data[0, end) into out (t->mem_size bytes, fbe_ref's layout; what it points at
 * is allocated in arena). Sets and maps keep one entry per key, as fbe_decode does. */
fbe_status fbei_decode_at(const fbe_type *t, fbe_model model, const uint8_t *data, uint64_t end,
                          uint64_t at, uint64_t base, fbe_arena *arena, const fbe_limits *limits,
                          void *out, fbe_error *err);

#endif

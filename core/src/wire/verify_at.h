/* The verifier's entry for one value inside a model (verify.c), for lazy views. */
#ifndef FBE_WIRE_VERIFY_AT_H
#define FBE_WIRE_VERIFY_AT_H

#include "fbe/codec.h"

/* Verifies the value of type t at a view's position (fbe_view's at/base: a struct at
 * its body (standard; its header was checked when the view was made) or first field
 * (final), anything else at its slot) of the model data[0, end), as fbe_verify checks
 * that value inside a whole model: same rules, same errors (the path from the value
 * down), the memory budget and depth of limits (NULL: the defaults) counted from the
 * value. */
fbe_status fbei_verify_at(const fbe_type *t, fbe_model model, const uint8_t *data, uint64_t end,
                          uint64_t at, uint64_t base, const fbe_limits *limits, fbe_error *err);

#endif

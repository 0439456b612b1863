/* Internal: the names of an enum or flags value, one rule for every writer (docs/TEXT.md:
 * the text form and the JSON writer's enum_names option both show values by it). */
#ifndef FBE_ENUM_NAMES_H
#define FBE_ENUM_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/internal/schema_model.h"

/* One part of a value's name text: a declared value (name != NULL) or a number
 * (name == NULL). index counts the parts from 0: a writer puts '|' before every part
 * after the first. */
typedef fbe_status (*fbei_enum_part_fn)(void *ctx, size_t index, const fbei_enum_value *name,
                                        uint64_t number);

/* Calls part for each part of `pattern` (a 64-bit pattern, sign-extended for signed
 * bases) and returns the first failing status (FBE_OK when none failed):
 * - an enum: the first declared value with this number, else the number itself (the
 *   pattern: signed when the base is);
 * - flags: every declared non-zero value whose bits are all set, in declaration order,
 *   then the bits no named part covers as one unsigned number (the base's width); for 0
 *   a declared zero value, else the number 0.
 * So a value with no name at all is exactly one number part. */
fbe_status fbei_enum_parts(const fbe_enum *e, uint64_t pattern, fbei_enum_part_fn part, void *ctx);

#endif

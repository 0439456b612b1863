/* Internal: the identity of set elements and map/hash keys (keys.c), and the rule that
 * collapses duplicates when a collection is read (last one wins, first one's place). */
#ifndef FBE_KEYS_H
#define FBE_KEYS_H

#include <stdint.h>
#include "fbe/internal/value.h"

/* A hash consistent with fbei_key_equal. */
uint64_t fbei_key_hash(const fbe_type *t, const uint8_t *slot);

/* Mixes decimal d (16 wire bytes) into h: equal values (1.5, 1.50) give equal hashes
 * (generated code's key hash uses it too, fbe_gen_hash_decimal). */
uint64_t fbei_key_decimal_hash(uint64_t h, const uint8_t *d);

/* 1 when the two slots are the same key: structs by their [key] fields (none: always
 * equal), everything else as fbe_ref_equal. */
int fbei_key_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b);

/* Removes the duplicates of a set (t->kind FBE_KIND_SET) or map/hash collection slot
 * in place; other kinds are left alone. FBE_ERR_NOMEM when the scratch table (4 bytes
 * per 2 entries, freed before returning) cannot be allocated. */
fbe_status fbei_keys_dedup(const fbe_type *t, void *collection);

#endif

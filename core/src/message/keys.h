/* Internal: the identity of set elements and map/hash keys (keys.c), and the rule that
 * collapses duplicates when a collection is read (last one wins, first one's place). */
#ifndef FBE_KEYS_H
#define FBE_KEYS_H

#include <stdint.h>
#include "fbe/internal/value.h"
#include "fbe/internal/duplicates.h"

/* A hash consistent with fbei_key_equal. */
uint64_t fbei_key_hash(const fbe_type *t, const uint8_t *slot);

/* Mixes decimal d (16 wire bytes) into h: equal values (1.5, 1.50) give equal hashes
 * (generated code's key hash uses it too, fbe_gen_hash_decimal). */
uint64_t fbei_key_decimal_hash(uint64_t h, const uint8_t *d);

/* 1 when the two slots are the same key: structs by their [key] fields (none: always
 * equal), everything else as fbe_ref_equal. */
int fbei_key_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b);

/* The order of two slots of type t (order.c), -1, 0 or 1: 0 exactly when equal.c
 * calls them equal, or keys.c when keys is set (t a struct compared by its [key]
 * fields, and so are its key fields that are structs). */
int fbei_value_slot_compare(const fbe_type *t, const uint8_t *a, const uint8_t *b, int keys);

/* fbei_keys_dedup: fbe/internal/duplicates.h. */

#endif

/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: the one rule for duplicates in sets and maps (keys.c). Every reader applies
 * it (decode, JSON) and so does every host path that builds a collection (the bindings'
 * encode walks, the tape): a set element or map key given twice is kept once, the last
 * one winning, in the first one's place (docs/INPUT.md, row "set"). */
#ifndef FBE_INTERNAL_DUPLICATES_H
#define FBE_INTERNAL_DUPLICATES_H

#include "fbe/error.h"
#include "fbe/schema.h"

/* Removes the duplicates of a set (t->kind FBE_KIND_SET) or map/hash collection slot
 * in place; other kinds are left alone. FBE_ERR_NOMEM when the scratch table (4 bytes
 * per 2 entries, freed before returning) cannot be allocated. */
fbe_status fbei_keys_dedup(const fbe_type *t, void *collection);

#endif

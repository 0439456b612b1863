/* Internal: the message types of a package's protocol (FORMAT.md 9.4) and the lookup
 * by type id the receiver dispatches with: its own messages, then those of its imports
 * (recursively, in import order); the first in that order wins an id. Built once in
 * O(M log M); a lookup is O(log M). */
#ifndef FBE_PROTOCOL_INDEX_H
#define FBE_PROTOCOL_INDEX_H

#include <stddef.h>
#include "fbe/internal/schema_model.h"

typedef struct fbei_protocol_index {
  const fbe_package *pkg;
  size_t count;
  const fbe_struct **messages; /* lookup order */
  const fbe_struct **by_id;    /* the same, sorted by type id (ties: lookup order) */
} fbei_protocol_index;

/* The protocol of `package` (NULL: the root) of schema. 0, or -1 when there is no such
 * package or memory ran out (nothing to free then). */
int fbei_protocol_index_init(fbei_protocol_index *p, const fbe_schema *schema, const char *package);
void fbei_protocol_index_free(fbei_protocol_index *p);

/* The message a receiver takes id for, or NULL. */
const fbe_struct *fbei_protocol_index_find(const fbei_protocol_index *p, uint32_t type_id);

/* Whether st is one of the protocol's messages. */
int fbei_protocol_index_has(const fbei_protocol_index *p, const fbe_struct *st);

#endif

/* Internal: an open-addressing hash table of item indexes, for lookups that must stay
 * linear in the number of items (compat, protocols). The items live in the caller's
 * arrays; the table holds index + 1 per slot and asks the caller whether an item
 * matches a key. */
#ifndef FBE_INDEX_TABLE_H
#define FBE_INDEX_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct fbei_index_table {
  uint32_t *slots; /* index + 1; 0 = empty */
  size_t mask;     /* capacity - 1 (a power of two, at least twice the items) */
  size_t count;
} fbei_index_table;

/* Whether item `index` has key `key`. */
typedef int (*fbei_index_match_fn)(const void *items, uint32_t index, const void *key);

/* Room for up to `capacity` items. 0, or -1 when out of memory. */
int fbei_index_table_init(fbei_index_table *t, size_t capacity);
void fbei_index_table_free(fbei_index_table *t);

/* The first item added with this hash that matches key, or -1. */
int64_t fbei_index_table_find(const fbei_index_table *t, uint64_t hash, fbei_index_match_fn match,
                             const void *items, const void *key);

/* Adds item `index` under hash (after any item with the same key: find returns the
 * first one added). Room was reserved by init. */
void fbei_index_table_add(fbei_index_table *t, uint64_t hash, uint32_t index);

/* FNV-1a of a string, and a mix of two words. */
uint64_t fbei_hash_string(const char *s);
uint64_t fbei_hash_words(uint64_t a, uint64_t b);

#endif

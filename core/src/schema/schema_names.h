/* Internal: name tables sorted for binary search and duplicate detection. */
#ifndef FBE_SCHEMA_NAMES_H
#define FBE_SCHEMA_NAMES_H

#include <stdint.h>

typedef struct fbe_name_entry {
  const char *name;
  uint32_t index; /* what the name stands for, in the caller's numbering */
} fbe_name_entry;

/* Sorts by name (strcmp), equal names by index. */
void fbe_names_sort(fbe_name_entry *entries, uint32_t count);

/* The first entry (lowest index) named `name` in a sorted table, or NULL. */
const fbe_name_entry *fbe_names_find(const fbe_name_entry *entries, uint32_t count,
                                     const char *name);

#endif

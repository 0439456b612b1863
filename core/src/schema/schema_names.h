/* Internal: name tables sorted for binary search and duplicate detection. */
#ifndef FBE_SCHEMA_NAMES_H
#define FBE_SCHEMA_NAMES_H

#include <stdint.h>

typedef struct fbei_name_entry {
  const char *name;
  uint32_t index; /* what the name stands for, in the caller's numbering */
} fbei_name_entry;

/* Sorts by name (strcmp), equal names by index. */
void fbei_names_sort(fbei_name_entry *entries, uint32_t count);

/* The first entry (lowest index) named `name` in a sorted table, or NULL. */
const fbei_name_entry *fbei_names_find(const fbei_name_entry *entries, uint32_t count,
                                     const char *name);

#endif

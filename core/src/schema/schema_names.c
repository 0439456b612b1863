/* Sorted name tables. */
#include <stdlib.h>
#include <string.h>
#include "schema/schema_names.h"

static int compare_entries(const void *a, const void *b) {
  const fbei_name_entry *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  if (c) return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

void fbei_names_sort(fbei_name_entry *entries, uint32_t count) {
  if (count > 1) qsort(entries, count, sizeof *entries, compare_entries);
}

const fbei_name_entry *fbei_names_find(const fbei_name_entry *entries, uint32_t count,
                                     const char *name) {
  uint32_t lo = 0, hi = count; /* lower bound: first entry whose name is >= name */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (strcmp(entries[mid].name, name) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < count && strcmp(entries[lo].name, name) == 0 ? &entries[lo] : NULL;
}

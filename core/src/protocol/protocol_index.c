/* A package's protocol, collected once and sorted by type id (protocol_index.h). */
#include "protocol/protocol_index.h"
#include <stdlib.h>
#include <string.h>
#include "fbe/internal/memory.h"

/* Packages are collected once each (an import reached twice adds nothing), so every
 * message is listed once without comparing it to the others. */
typedef struct collecting {
  fbei_protocol_index *p;
  size_t cap;
  const fbe_package **visited;
  size_t nvisited, visited_cap;
} collecting;

/* Grows *arr (elements of size bytes) to hold one more; 0, or -1 when out of memory. */
static int reserve(void **arr, size_t count, size_t *cap, size_t size) {
  if (count < *cap) return 0;
  size_t bigger = *cap ? *cap * 2 : 8;
  void *grown = fbei_mem_realloc(*arr, bigger * size);
  if (!grown) return -1;
  *arr = grown;
  *cap = bigger;
  return 0;
}

static int collect(collecting *k, const fbe_package *pkg, int depth) {
  if (depth > 64) return 0; /* imports cannot cycle (the loader rejects it); stay safe anyway */
  for (size_t i = 0; i < k->nvisited; i++)
    if (k->visited[i] == pkg) return 0;
  void *visited = k->visited;
  if (reserve(&visited, k->nvisited, &k->visited_cap, sizeof *k->visited)) return -1;
  k->visited = visited;
  k->visited[k->nvisited++] = pkg;
  fbei_protocol_index *p = k->p;
  for (uint32_t i = 0; i < pkg->nstructs; i++) {
    if (!pkg->structs[i]->is_message) continue;
    void *messages = p->messages;
    if (reserve(&messages, p->count, &k->cap, sizeof *p->messages)) return -1;
    p->messages = messages;
    p->messages[p->count++] = pkg->structs[i];
  }
  for (uint32_t i = 0; i < pkg->nimports; i++)
    if (collect(k, pkg->imports[i], depth + 1)) return -1;
  return 0;
}

static const fbe_package *find_package(const fbe_schema *schema, const char *name) {
  if (!name) return schema->root;
  for (uint32_t i = 0; i < schema->npackages; i++)
    if (!strcmp(schema->packages[i]->name, name)) return schema->packages[i];
  return NULL;
}

/* Sorting entries: the id, then the position in lookup order. */
typedef struct entry {
  uint32_t id;
  size_t order;
  const fbe_struct *st;
} entry;

static int compare_entries(const void *a, const void *b) {
  const entry *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

int fbei_protocol_index_init(fbei_protocol_index *p, const fbe_schema *schema, const char *package) {
  memset(p, 0, sizeof *p);
  if (!schema || !(p->pkg = find_package(schema, package))) return -1;
  collecting k = {p, 0, NULL, 0, 0};
  int rc = collect(&k, p->pkg, 0);
  fbei_mem_free(k.visited);
  entry *entries = rc ? NULL : fbei_mem_alloc((p->count + 1) * sizeof *entries);
  p->by_id = entries ? fbei_mem_alloc((p->count + 1) * sizeof *p->by_id) : NULL;
  if (!p->by_id) {
    fbei_mem_free(entries);
    fbei_protocol_index_free(p);
    return -1;
  }
  for (size_t i = 0; i < p->count; i++) entries[i] = (entry){p->messages[i]->type_id, i, p->messages[i]};
  if (p->count > 1) qsort(entries, p->count, sizeof *entries, compare_entries);
  for (size_t i = 0; i < p->count; i++) p->by_id[i] = entries[i].st;
  fbei_mem_free(entries);
  return 0;
}

void fbei_protocol_index_free(fbei_protocol_index *p) {
  fbei_mem_free(p->messages);
  fbei_mem_free(p->by_id);
  p->messages = p->by_id = NULL;
  p->count = 0;
}

/* Position of the first message with id >= type_id in by_id. */
static size_t lower_bound(const fbei_protocol_index *p, uint32_t type_id) {
  size_t lo = 0, hi = p->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->by_id[mid]->type_id < type_id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const fbe_struct *fbei_protocol_index_find(const fbei_protocol_index *p, uint32_t type_id) {
  size_t i = lower_bound(p, type_id);
  return i < p->count && p->by_id[i]->type_id == type_id ? p->by_id[i] : NULL;
}

int fbei_protocol_index_has(const fbei_protocol_index *p, const fbe_struct *st) {
  for (size_t i = lower_bound(p, st->type_id); i < p->count && p->by_id[i]->type_id == st->type_id; i++)
    if (p->by_id[i] == st) return 1;
  return 0;
}

/* Schemas by package name, for the session of a conformance run or a testee. */
#include <stdlib.h>
#include <string.h>
#include "package_cache.h"

fbe_schema *package_cache_get(package_cache *cache, const char *package,
                              const fbe_load_options *options, fbe_diagnostics *diags) {
  if (diags) {
    diags->count = 0;
    diags->items = NULL;
  }
  for (size_t i = 0; i < cache->count; i++)
    if (!strcmp(cache->items[i].package, package)) return cache->items[i].schema;
  if (cache->count == cache->capacity) {
    size_t bigger = cache->capacity ? cache->capacity * 2 : 16;
    struct cached_package *items = realloc(cache->items, bigger * sizeof *items);
    if (!items) return NULL;
    cache->items = items;
    cache->capacity = bigger;
  }
  size_t len = strlen(package) + 1;
  char *name = malloc(len);
  if (!name) return NULL;
  memcpy(name, package, len);
  fbe_schema *schema = fbe_schema_load_package(package, options, diags);
  if (!schema) {
    free(name);
    return NULL;
  }
  cache->items[cache->count].package = name;
  cache->items[cache->count++].schema = schema;
  return schema;
}

void package_cache_clear(package_cache *cache) {
  for (size_t i = 0; i < cache->count; i++) {
    fbe_schema_release(cache->items[i].schema);
    free(cache->items[i].package);
  }
  free(cache->items);
  cache->items = NULL;
  cache->count = cache->capacity = 0;
}

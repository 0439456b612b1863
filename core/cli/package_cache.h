/* The schemas of the packages a session has used, loaded once each by package name
 * (the CLI's conformance runner and testee). Any number of packages, names of any length. */
#ifndef FBE_CLI_PACKAGE_CACHE_H
#define FBE_CLI_PACKAGE_CACHE_H

#include <stddef.h>
#include "fbe/fbe.h"

typedef struct package_cache {
  struct cached_package {
    char *package;
    fbe_schema *schema;
  } *items;
  size_t count, capacity;
} package_cache;

/* The schema of package (loaded from PACKAGE.fbe on the include directories the first
 * time; later calls give the same schema, borrowed). NULL when it cannot be loaded:
 * diags (may be NULL) then holds the loader's diagnostics, an empty list when out of
 * memory; the caller frees them. */
fbe_schema *package_cache_get(package_cache *cache, const char *package,
                              const fbe_load_options *options, fbe_diagnostics *diags);

/* Releases every schema; the cache is empty and reusable. */
void package_cache_clear(package_cache *cache);

#endif

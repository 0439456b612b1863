/* A schema loader that keeps its include directories and its last diagnostics
 * (fbe/loader.h). */
#include <string.h>
#include "fbe/loader.h"
#include "fbe/internal/memory.h"

struct fbe_loader {
  char **dirs;
  size_t ndirs;
  fbe_diagnostics diags;
  char text[1024]; /* the last diagnostic fbe_loader_diagnostic_text formatted */
};

fbe_loader *fbe_loader_new(void) { return fbei_mem_calloc(1, sizeof(fbe_loader)); }

void fbe_loader_free(fbe_loader *loader) {
  if (!loader) return;
  for (size_t i = 0; i < loader->ndirs; i++) fbei_mem_free(loader->dirs[i]);
  fbei_mem_free(loader->dirs);
  fbe_diagnostics_free(&loader->diags);
  fbei_mem_free(loader);
}

int fbe_loader_add_include(fbe_loader *loader, const char *dir) {
  char **more = fbei_mem_realloc(loader->dirs, (loader->ndirs + 1) * sizeof *more);
  if (!more) return -1;
  loader->dirs = more;
  size_t n = strlen(dir);
  char *copy = fbei_mem_alloc(n + 1);
  if (!copy) return -1;
  memcpy(copy, dir, n + 1);
  loader->dirs[loader->ndirs++] = copy;
  return 0;
}

static fbe_load_options options_of(fbe_loader *loader) {
  fbe_diagnostics_free(&loader->diags);
  fbe_load_options o = {(const char *const *)loader->dirs, loader->ndirs};
  return o;
}

fbe_schema *fbe_loader_load_file(fbe_loader *loader, const char *path) {
  fbe_load_options o = options_of(loader);
  return fbe_schema_load_file(path, &o, &loader->diags);
}

fbe_schema *fbe_loader_load_string(fbe_loader *loader, const char *text, size_t length,
                                   const char *name) {
  fbe_load_options o = options_of(loader);
  return fbe_schema_load_string(text, length, name, &o, &loader->diags);
}

fbe_schema *fbe_loader_load_package(fbe_loader *loader, const char *package) {
  fbe_load_options o = options_of(loader);
  return fbe_schema_load_package(package, &o, &loader->diags);
}

size_t fbe_loader_diagnostic_count(const fbe_loader *loader) { return loader->diags.count; }

const fbe_diagnostic *fbe_loader_diagnostic_at(const fbe_loader *loader, size_t index) {
  return index < loader->diags.count ? &loader->diags.items[index] : NULL;
}

const char *fbe_loader_diagnostic_text(fbe_loader *loader, size_t index) {
  if (index >= loader->diags.count) return "";
  fbe_diagnostic_format(&loader->diags.items[index], loader->text, sizeof loader->text);
  return loader->text;
}

int fbe_loader_diagnostic_is_error(const fbe_loader *loader, size_t index) {
  return index < loader->diags.count && loader->diags.items[index].severity == FBE_SEVERITY_ERROR;
}

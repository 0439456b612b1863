/* A schema loader: the import search path in, the diagnostics out, for callers that
 * keep them between loads (the bindings: one Loader object per language). */
#ifndef FBE_LOADER_H
#define FBE_LOADER_H

#include <stddef.h>
#include "fbe/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fbe_loader fbe_loader;

/* A new loader with no include directory; NULL when out of memory. Free with
 * fbe_loader_free. */
FBE_API fbe_loader *fbe_loader_new(void);
FBE_API void fbe_loader_free(fbe_loader *loader);

/* Adds a directory `import` looks in, after the importing file's own (copied).
 * 0, or -1 when out of memory. */
FBE_API int fbe_loader_add_include(fbe_loader *loader, const char *dir);

/* Load like fbe_schema_load_file/_string/_package with the loader's directories. Each
 * load replaces the loader's diagnostics. A new schema (fbe_schema_release it), or
 * NULL when it has errors: the diagnostics say which. */
FBE_API fbe_schema *fbe_loader_load_file(fbe_loader *loader, const char *path);
FBE_API fbe_schema *fbe_loader_load_string(fbe_loader *loader, const char *text, size_t length,
                                           const char *name);
FBE_API fbe_schema *fbe_loader_load_package(fbe_loader *loader, const char *package);

/* The last load's diagnostics, errors and warnings in the order found. */
FBE_API size_t fbe_loader_diagnostic_count(const fbe_loader *loader);
FBE_API const fbe_diagnostic *fbe_loader_diagnostic_at(const fbe_loader *loader, size_t index);
/* "file:line:col: message" ("file:line:col: warning: message"), valid until the next
 * call on the loader; "" past the end. */
FBE_API const char *fbe_loader_diagnostic_text(fbe_loader *loader, size_t index);
FBE_API int fbe_loader_diagnostic_is_error(const fbe_loader *loader, size_t index);

#ifdef __cplusplus
}
#endif

#endif

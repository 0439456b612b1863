/* swig/fbe.i: the language-neutral SWIG interface of libfbe, shared by the Python,
 * Ruby and Java bindings. Each language has its own LANG.i that names the module,
 * adds what is particular to it and %includes this file.
 *
 * The surface is coarse on purpose (DESIGN.md, "SWIG in practice"): schema loading and
 * release, lookups, and the introspection a binding needs to build its native classes
 * and enums once, at load time; plus the status table the exception classes are made
 * from. Encoding and decoding are NOT here: a per-field SWIG call costs more than the
 * work, so each binding walks its own objects in hand-written C against the core's
 * compiled tables, crossing into C once per message.
 *
 * Ownership: a schema returned by a Loader is owned by the target-language object
 * (its destructor releases it). Every package/struct/field/type/enum handle is
 * borrowed from its schema: keep the schema object alive while you use them. */

%{
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fbe/fbe.h"
#include "fbe/internal/schema_model.h" /* the package list: the public API names only the root */
#include "fbe/internal/memory.h" /* loaders are counted with the core's memory */

/* A schema loader: include directories in, diagnostics out. */
typedef struct fbe_loader {
  char **dirs;
  size_t ndirs;
  fbe_diagnostics diags;
  char text[1024]; /* the last diagnostic formatted by fbe_loader_diagnostic */
} fbe_loader;

static fbe_loader *fbe_loader_create(void) { return fbe_mem_calloc(1, sizeof(fbe_loader)); }

static void fbe_loader_destroy(fbe_loader *l) {
  if (!l) return;
  for (size_t i = 0; i < l->ndirs; i++) fbe_mem_free(l->dirs[i]);
  fbe_mem_free(l->dirs);
  fbe_diagnostics_free(&l->diags);
  fbe_mem_free(l);
}

static int fbe_loader_add(fbe_loader *l, const char *dir) {
  char **more = fbe_mem_realloc(l->dirs, (l->ndirs + 1) * sizeof *more);
  if (!more) return -1;
  l->dirs = more;
  size_t n = strlen(dir);
  char *copy = fbe_mem_alloc(n + 1);
  if (!copy) return -1;
  memcpy(copy, dir, n + 1);
  l->dirs[l->ndirs++] = copy;
  return 0;
}

static fbe_load_options fbe_loader_options(const fbe_loader *l) {
  fbe_load_options o = {(const char *const *)l->dirs, l->ndirs};
  return o;
}

size_t fbe_swig_package_count(const fbe_schema *s) { return s ? s->npackages : 0; }
const fbe_package *fbe_swig_package_at(const fbe_schema *s, size_t i) {
  return s && i < s->npackages ? s->packages[i] : NULL;
}
size_t fbe_swig_struct_inherited(const fbe_struct *st) { return st ? st->ninherited : 0; }
int fbe_swig_struct_has_keys(const fbe_struct *st) {
  for (uint32_t i = 0; st && i < st->nfields; i++)
    if (st->fields[i].is_key) return 1;
  return 0;
}
%}

#define FBE_API
%include <stdint.i>
%include <exception.i>

/* Handles must not be NULL (the C functions do not check): a NULL (None, nil, null)
 * raises the language's invalid-argument error instead of crashing. */
%typemap(check) const fbe_schema *, const fbe_package *, const fbe_struct *, const fbe_field *,
                const fbe_type *, const fbe_enum * {
  if (!$1) SWIG_exception(SWIG_ValueError, "NULL libfbe handle");
}

/* ---- status codes (the exception classes are generated from this table) ---- */
%ignore fbe_error;
%ignore fbe_error_format;
%include "fbe/error.h"
%include "fbe/version.h"

/* ---- memory: the bytes the core holds, exact (the bindings' leak tests read it) ---- */
%rename(memory_in_use) fbe_memory_in_use;
%include "fbe/memory.h"

/* ---- loading: a Loader collects include directories and diagnostics ---- */
%nodefaultctor fbe_schema;
typedef struct fbe_schema {} fbe_schema;
%extend fbe_schema {
  ~fbe_schema() { fbe_schema_release($self); }
}

typedef struct fbe_loader {} fbe_loader;
%newobject fbe_loader::load_file;
%newobject fbe_loader::load_string;
%newobject fbe_loader::load_package;
%extend fbe_loader {
  fbe_loader() { return fbe_loader_create(); }
  ~fbe_loader() { fbe_loader_destroy($self); }
  /* Adds a directory `import` looks in (after the importing file's own). 0, -1 on OOM. */
  int add_include(const char *dir) { return fbe_loader_add($self, dir); }
  /* Each load replaces the previous diagnostics. NULL when the schema has errors. */
  fbe_schema *load_file(const char *path) {
    fbe_load_options o = fbe_loader_options($self);
    fbe_diagnostics_free(&$self->diags);
    return fbe_schema_load_file(path, &o, &$self->diags);
  }
  fbe_schema *load_string(const char *text, const char *name) {
    fbe_load_options o = fbe_loader_options($self);
    fbe_diagnostics_free(&$self->diags);
    return fbe_schema_load_string(text, strlen(text), name, &o, &$self->diags);
  }
  fbe_schema *load_package(const char *package) {
    fbe_load_options o = fbe_loader_options($self);
    fbe_diagnostics_free(&$self->diags);
    return fbe_schema_load_package(package, &o, &$self->diags);
  }
  size_t diagnostic_count() { return $self->diags.count; }
  /* "file:line:col: message" ("...: warning: message" for warnings). */
  const char *diagnostic(size_t i) {
    if (i >= $self->diags.count) return "";
    fbe_diagnostic_format(&$self->diags.items[i], $self->text, sizeof $self->text);
    return $self->text;
  }
  int diagnostic_is_error(size_t i) {
    return i < $self->diags.count && $self->diags.items[i].severity == FBE_SEVERITY_ERROR;
  }
}

/* ---- introspection (handles are borrowed from the schema) ---- */
%ignore fbe_schema_load_file;
%ignore fbe_schema_load_string;
%ignore fbe_schema_load_package;
%ignore fbe_schema_retain;
%ignore fbe_schema_release;
%ignore fbe_diagnostic;
%ignore fbe_diagnostics;
%ignore fbe_diagnostics_free;
%ignore fbe_diagnostic_format;
%ignore fbe_load_options;
%include "fbe/schema.h"

/* Every package of a schema, imports before importers, the root last. */
size_t fbe_swig_package_count(const fbe_schema *s);
const fbe_package *fbe_swig_package_at(const fbe_schema *s, size_t i);
/* How many of a struct's (flattened) fields come from its bases. */
size_t fbe_swig_struct_inherited(const fbe_struct *st);
/* 1 when some field of the struct (inherited ones included) is a [key]. */
int fbe_swig_struct_has_keys(const fbe_struct *st);

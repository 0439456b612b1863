/* swig/fbe.i: the language-neutral SWIG interface of libfbe, shared by the Python,
 * Ruby and Java bindings. Each language has its own LANG.i that names the module,
 * adds what is particular to it and %includes this file.
 *
 * The surface is coarse on purpose (docs/BINDINGS.md): schema loading and
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

/* The core's loader (fbe/loader.h), as an object: include directories in, diagnostics
 * out. Each load replaces the previous diagnostics; NULL when the schema has errors. */
typedef struct fbe_loader {} fbe_loader;
/* SWIG names an %extend method's C function TYPE_METHOD, which would be the core's own
 * fbe_loader_* functions: the methods are spelled with a leading "m_" and renamed. */
%rename(add_include) fbe_loader::m_add_include;
%rename(load_file) fbe_loader::m_load_file;
%rename(load_string) fbe_loader::m_load_string;
%rename(load_package) fbe_loader::m_load_package;
%rename(diagnostic_count) fbe_loader::m_diagnostic_count;
%rename(diagnostic) fbe_loader::m_diagnostic;
%rename(diagnostic_is_error) fbe_loader::m_diagnostic_is_error;
%newobject fbe_loader::m_load_file;
%newobject fbe_loader::m_load_string;
%newobject fbe_loader::m_load_package;
%extend fbe_loader {
  fbe_loader() { return fbe_loader_new(); }
  ~fbe_loader() { fbe_loader_free($self); }
  int m_add_include(const char *dir) { return fbe_loader_add_include($self, dir); }
  fbe_schema *m_load_file(const char *path) { return fbe_loader_load_file($self, path); }
  fbe_schema *m_load_string(const char *text, const char *name) {
    return fbe_loader_load_string($self, text, strlen(text), name);
  }
  fbe_schema *m_load_package(const char *package) { return fbe_loader_load_package($self, package); }
  size_t m_diagnostic_count() { return fbe_loader_diagnostic_count($self); }
  const char *m_diagnostic(size_t i) { return fbe_loader_diagnostic_text($self, i); }
  int m_diagnostic_is_error(size_t i) { return fbe_loader_diagnostic_is_error($self, i); }
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

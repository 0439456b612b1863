/* Loading .fbe schemas at run time and looking at what they define. */
#ifndef FBE_SCHEMA_H
#define FBE_SCHEMA_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A loaded schema: one root package plus every package it imports, resolved and
 * compiled into layout tables. Immutable and reference-counted: share it freely
 * between threads. Every fbe_struct/fbe_field/fbe_type pointer obtained from it
 * is borrowed and valid while the schema is alive. */
typedef struct fbe_schema fbe_schema;
typedef struct fbe_package fbe_package;
typedef struct fbe_struct fbe_struct;
typedef struct fbe_field fbe_field;
typedef struct fbe_type fbe_type;
typedef struct fbe_enum fbe_enum;

/* Every type form of the schema language. */
typedef enum fbe_kind {
  FBE_KIND_BOOL, FBE_KIND_BYTE, FBE_KIND_CHAR, FBE_KIND_WCHAR,
  FBE_KIND_INT8, FBE_KIND_UINT8, FBE_KIND_INT16, FBE_KIND_UINT16,
  FBE_KIND_INT32, FBE_KIND_UINT32, FBE_KIND_INT64, FBE_KIND_UINT64,
  FBE_KIND_FLOAT, FBE_KIND_DOUBLE, FBE_KIND_DECIMAL, FBE_KIND_TIMESTAMP,
  FBE_KIND_UUID, FBE_KIND_STRING, FBE_KIND_BYTES,
  FBE_KIND_ENUM, FBE_KIND_FLAGS, FBE_KIND_STRUCT,
  FBE_KIND_OPTIONAL, FBE_KIND_ARRAY, FBE_KIND_VECTOR, FBE_KIND_LIST,
  FBE_KIND_SET, FBE_KIND_MAP, FBE_KIND_HASH,
  FBE_KIND_COUNT_
} fbe_kind;

typedef enum fbe_severity { FBE_SEVERITY_ERROR, FBE_SEVERITY_WARNING } fbe_severity;

/* One problem found in a schema, with its source position (1-based). */
typedef struct fbe_diagnostic {
  fbe_severity severity;
  const char *file;    /* path or the name given to fbe_schema_load_string */
  uint32_t line, col;
  const char *message;
} fbe_diagnostic;

/* Everything a load reported. Owned by the caller: free with fbe_diagnostics_free. */
typedef struct fbe_diagnostics {
  size_t count;
  fbe_diagnostic *items;
} fbe_diagnostics;

FBE_API void fbe_diagnostics_free(fbe_diagnostics *diags);

/* Writes "file:line:col: message" (warnings: "file:line:col: warning: message"). */
FBE_API void fbe_diagnostic_format(const fbe_diagnostic *d, char *out, size_t out_size);

/* Limits of a schema load, so that no schema text can make the loader take more than
 * a few hundred MB or a second. A schema past one of them fails to load with an error
 * at the struct (or file) that crossed it.
 * - Schema files (the root and every import) are regular files of at most
 *   FBE_SCHEMA_MAX_FILE_SIZE bytes: a device, FIFO or directory is refused at once
 *   ("Cannot read file: not a regular file ..."), a larger file too ("too large: N
 *   bytes, the limit is M").
 * - Every struct carries its flattened field list (inherited fields first), so a chain
 *   of k structs holds k(k+1)/2 field records: a struct may have at most
 *   FBE_SCHEMA_MAX_STRUCT_FIELDS fields including inherited ones, and all structs of
 *   a load together at most FBE_SCHEMA_MAX_FIELDS (each counting its inherited ones).
 * - The final-model program of a struct has a step for each field of the plain structs
 *   it holds inline: all structs of a load together may have at most
 *   FBE_SCHEMA_MAX_STEPS such steps.
 * - A schema file declares at most FBE_SCHEMA_MAX_DECLARATIONS enums, flags, structs and
 *   messages (about 1.2 KB each at load: 0.6 GB at the cap).
 * A field record or a step takes about 150 bytes: a load at both caps, about 150 MB. */
#define FBE_SCHEMA_MAX_FILE_SIZE ((uint64_t)64 << 20)
#define FBE_SCHEMA_MAX_STRUCT_FIELDS 65536u
#define FBE_SCHEMA_MAX_FIELDS (1u << 19)
#define FBE_SCHEMA_MAX_STEPS (1u << 19)
#define FBE_SCHEMA_MAX_DECLARATIONS (1u << 19)

/* Where `import NAME` looks for NAME.fbe after the importing file's directory, and
 * where fbe_schema_load_file looks for a relative path that does not exist as given. */
typedef struct fbe_load_options {
  const char *const *include_dirs;
  size_t include_count;
} fbe_load_options;

/* Loads a schema file and its imports. Returns a new schema (refcount 1, release with
 * fbe_schema_release) or NULL on error. When diags is not NULL it receives every
 * error and warning (the caller frees it), also on success. options may be NULL.
 * A relative path that does not exist as given (from the working directory) is looked
 * up on options' include directories in order, as an import would be: with
 * include_dirs = {"schemas"}, "proto.fbe" loads schemas/proto.fbe. When no place has
 * it, the error names the directories searched. */
FBE_API fbe_schema *fbe_schema_load_file(const char *path, const fbe_load_options *options,
                                         fbe_diagnostics *diags);

/* Same from text in memory; name is used in diagnostics and its directory for imports. */
FBE_API fbe_schema *fbe_schema_load_string(const char *text, size_t length, const char *name,
                                           const fbe_load_options *options,
                                           fbe_diagnostics *diags);

/* Loads package `package` by finding PACKAGE.fbe on the include directories. */
FBE_API fbe_schema *fbe_schema_load_package(const char *package, const fbe_load_options *options,
                                            fbe_diagnostics *diags);

FBE_API fbe_schema *fbe_schema_retain(fbe_schema *schema);
FBE_API void fbe_schema_release(fbe_schema *schema);

/* The root package (the file that was loaded). Borrowed. */
FBE_API const fbe_package *fbe_schema_root(const fbe_schema *schema);

/* Finds a struct or message by "Name" (root package) or "package.Name". Borrowed; NULL if none. */
FBE_API const fbe_struct *fbe_schema_find_struct(const fbe_schema *schema, const char *name);

/* Finds an enum or flags type the same way. Borrowed; NULL if none. */
FBE_API const fbe_enum *fbe_schema_find_enum(const fbe_schema *schema, const char *name);

/* Package introspection. */
/* Every package of the schema, imports before importers, the root last. */
FBE_API size_t fbe_schema_package_count(const fbe_schema *schema);
FBE_API const fbe_package *fbe_schema_package_at(const fbe_schema *schema, size_t index);

/* Every struct (every enum and flags) of every package, in package order: a dense
 * schema-wide index 0..count-1, the same as fbe_struct_index (fbe_enum_index). A binding
 * keeps its per-type tables in an array indexed by it. */
FBE_API size_t fbe_schema_struct_count(const fbe_schema *schema);
FBE_API const fbe_struct *fbe_schema_struct_at(const fbe_schema *schema, size_t index);
FBE_API size_t fbe_schema_enum_count(const fbe_schema *schema);
FBE_API const fbe_enum *fbe_schema_enum_at(const fbe_schema *schema, size_t index);

FBE_API const char *fbe_package_name(const fbe_package *pkg);
FBE_API const char *fbe_package_domain(const fbe_package *pkg); /* "com.example", or NULL */
/* The package's `version MAJOR.MINOR`: 0 and 0 when it declares none. */
FBE_API uint32_t fbe_package_version_major(const fbe_package *pkg);
FBE_API uint32_t fbe_package_version_minor(const fbe_package *pkg);
FBE_API size_t fbe_package_struct_count(const fbe_package *pkg);
FBE_API const fbe_struct *fbe_package_struct_at(const fbe_package *pkg, size_t index);
FBE_API size_t fbe_package_enum_count(const fbe_package *pkg);
FBE_API const fbe_enum *fbe_package_enum_at(const fbe_package *pkg, size_t index);

/* Struct introspection. Fields are flattened: inherited fields first. */
FBE_API const char *fbe_struct_name(const fbe_struct *st);      /* "Account" */
FBE_API const char *fbe_struct_full_name(const fbe_struct *st); /* "proto.Account" */
FBE_API uint32_t fbe_struct_type_id(const fbe_struct *st);
FBE_API int fbe_struct_is_message(const fbe_struct *st);
FBE_API const fbe_struct *fbe_struct_base(const fbe_struct *st);
FBE_API size_t fbe_struct_index(const fbe_struct *st);          /* fbe_schema_struct_at */
FBE_API size_t fbe_struct_inherited_count(const fbe_struct *st); /* fields from bases: the first ones */
FBE_API int fbe_struct_has_keys(const fbe_struct *st);          /* some field is a [key] */
FBE_API size_t fbe_struct_field_count(const fbe_struct *st);
FBE_API const fbe_field *fbe_struct_field_at(const fbe_struct *st, size_t index);
/* Field by name, or NULL. Binary search over a name index built at load time. */
FBE_API const fbe_field *fbe_struct_field(const fbe_struct *st, const char *name);

FBE_API const char *fbe_field_name(const fbe_field *f);
FBE_API size_t fbe_field_index(const fbe_field *f);
FBE_API const fbe_type *fbe_field_type(const fbe_field *f);
FBE_API int fbe_field_is_key(const fbe_field *f);

/* How a new value gets this field's default, for a binding that builds host objects:
 * SHARED - one immutable host value serves every instance (numbers, strings, enums...);
 * FRESH  - a new host value per instance (collections, structs, bytes holders...);
 * DYNAMIC - computed per instance (utc, uuid1, uuid4 defaults: fbe_value_init does it). */
typedef enum fbe_default_class {
  FBE_DEFAULT_SHARED,
  FBE_DEFAULT_FRESH,
  FBE_DEFAULT_DYNAMIC
} fbe_default_class;
FBE_API fbe_default_class fbe_field_default_class(const fbe_field *f);

/* Type introspection. */
FBE_API fbe_kind fbe_type_kind(const fbe_type *t);
/* Element of optional/array/vector/list/set, value of map/hash; NULL otherwise. */
FBE_API const fbe_type *fbe_type_element(const fbe_type *t);
FBE_API const fbe_type *fbe_type_key(const fbe_type *t);       /* map/hash key */
FBE_API const fbe_struct *fbe_type_struct(const fbe_type *t);  /* FBE_KIND_STRUCT */
FBE_API const fbe_enum *fbe_type_enum(const fbe_type *t);      /* ENUM / FLAGS */
FBE_API uint32_t fbe_type_array_size(const fbe_type *t);       /* ARRAY */
FBE_API const char *fbe_kind_name(fbe_kind kind);              /* "int32", "vector", ... */

/* Enum / flags introspection. Values are stored as 64-bit patterns (sign-extended
 * for signed bases). */
FBE_API const char *fbe_enum_name(const fbe_enum *e);
FBE_API const char *fbe_enum_full_name(const fbe_enum *e);
FBE_API size_t fbe_enum_index(const fbe_enum *e);               /* fbe_schema_enum_at */
FBE_API int fbe_enum_is_flags(const fbe_enum *e);
FBE_API fbe_kind fbe_enum_base(const fbe_enum *e);
FBE_API size_t fbe_enum_value_count(const fbe_enum *e);
FBE_API const char *fbe_enum_value_name(const fbe_enum *e, size_t index);
FBE_API uint64_t fbe_enum_value_at(const fbe_enum *e, size_t index);
/* The value of the member called name (length bytes, need not be terminated): 1 and
 * *out set when e declares it, 0 otherwise. */
FBE_API int fbe_enum_find(const fbe_enum *e, const char *name, size_t length, uint64_t *out);
/* A value from its text (docs/INPUT.md): for an enum a member name; for flags names
 * joined by '|' (spaces around them allowed), each a member or a decimal number, OR-ed
 * ("initialized|calculated", "good|64"). Anything else: FBE_ERR_ARGUMENT
 * "'sideways' is not a value of proto.OrderSide" (with the nearest name suggested). */
FBE_API fbe_status fbe_enum_parse(const fbe_enum *e, const char *text, size_t length, uint64_t *out,
                                  fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

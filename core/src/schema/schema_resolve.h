/* Internal: the state shared by the steps of a schema load (SCHEMA.md 11):
 * loading files and imports (schema_load.c), declaring and resolving names and
 * types (schema_resolve.c), enum and flags values (schema_enums.c), struct ids,
 * inheritance and field lists (schema_structs.c) and defaults (schema_defaults.c). */
#ifndef FBE_SCHEMA_RESOLVE_H
#define FBE_SCHEMA_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include "schema/schema_ast.h"
#include "schema/schema_ctx.h"
#include "fbe/internal/schema_model.h"
#include "schema/schema_names.h"
#include "fbe/internal/kinds.h"

/* Resolution state of one struct. */
typedef struct fbei_struct_draft {
  const fbei_ast_struct *ast;
  fbe_struct *st;
  uint32_t decl_index;       /* position among the package's structs */
  fbe_field *own;            /* own fields, T~ expanded (work arena) */
  uint32_t nown, own_cap;
  bool id_from_base;         /* (base), or (0) with a base: takes the base's type id */
  bool id_invalid;           /* its numbering was reported as an error */
  bool flattened;
  uint32_t nesting;          /* levels of plain (inline) structs, itself included */
} fbei_struct_draft;

/* One package (= one file) of the load. */
typedef struct fbei_pkg_draft {
  const char *name;          /* declared package name, NULL when the header is broken */
  const char *path;          /* file path or load name */
  const char *dir;           /* where its imports are looked up first ("" = current dir) */
  uint32_t file_id;
  fbei_ast_file *ast;
  bool loading;              /* on the import stack (cycle detection) */
  struct fbei_pkg_draft **imports; /* parallel to ast->imports; NULL where loading failed */
  fbei_name_entry *import_names; /* the imported package names, sorted (index: import) */
  bool *import_repeated;     /* parallel to ast->imports: names an earlier import again */
  fbe_package *pkg;
  fbe_enum *enums;           /* parallel to ast->enums */
  fbe_type **enum_types;     /* the ENUM/FLAGS type node of each enum */
  fbei_name_entry **value_names; /* per enum: its value names, sorted (index: value) */
  fbei_struct_draft *structs;      /* parallel to ast->structs */
  fbe_struct *struct_nodes;  /* the fbe_struct of each, contiguous */
  fbei_name_entry *symbols;   /* package-level names; index < nenums: enum, else struct */
  uint32_t nsymbols;
} fbei_pkg_draft;

typedef struct fbei_load {
  fbei_load_ctx *ctx;
  const fbe_load_options *options;
  fbe_schema *schema;
  fbe_arena *arena;          /* the schema's arena: everything the model keeps */
  fbei_pkg_draft **all;            /* every package, in the order loading started */
  uint32_t nall, all_cap;
  fbei_pkg_draft **order;          /* dependency order: imports first */
  uint32_t norder, order_cap;
  fbei_pkg_draft **stack;          /* packages whose imports are being loaded */
  uint32_t depth, stack_cap;
  fbe_type *prims[FBE_KIND_COUNT_];
  uint64_t nflat_fields;     /* flattened fields of every struct so far (FBE_SCHEMA_MAX_FIELDS) */
  bool fields_over;          /* that cap was crossed (reported once) */
} fbei_load;

/* What a type name refers to. */
typedef struct fbei_symbol {
  fbei_pkg_draft *pkg;
  fbe_enum *enm;             /* exactly one of enm / st is set */
  fbei_struct_draft *st;
  uint32_t enum_index;
} fbei_symbol;

/* ---- schema_load.c ---- */
typedef enum fbei_root_kind { FBE_ROOT_FILE, FBE_ROOT_TEXT, FBE_ROOT_PACKAGE } fbei_root_kind;
typedef struct fbei_root_request {
  fbei_root_kind kind;
  const char *path;          /* FILE */
  const char *text;          /* TEXT */
  size_t length;
  const char *name;          /* TEXT: name for diagnostics and imports; PACKAGE: package */
} fbei_root_request;
/* Reads and parses the root and, recursively, its imports; fills load->order. */
void fbei_load_files(fbei_load *load, const fbei_root_request *req);

/* ---- schema_resolve.c ---- */
/* Reports an error / a warning at pos in package p's file. */
void fbei_draft_error(fbei_load *load, fbei_pkg_draft *p, fbei_ast_pos pos, const char *fmt, ...)
    FBE_PRINTF(4, 5);
void fbei_draft_warning(fbei_load *load, fbei_pkg_draft *p, fbei_ast_pos pos, const char *fmt, ...)
    FBE_PRINTF(4, 5);
/* Declares every package, then resolves them in dependency order. */
void fbei_resolve_packages(fbei_load *load);
/* Looks up `Name`, `pkg.Name` or `ownpkg.Name` from package p; reports unknown names. */
bool fbei_resolve_type_name(fbei_load *load, fbei_pkg_draft *p, const fbei_ast_name *name, fbei_symbol *out);
const fbe_type *fbei_prim_type(fbei_load *load, fbe_kind kind);
/* A new type node in the schema's arena (its wire kind derived from kind). */
fbe_type *fbei_type_new(fbei_load *load, fbe_kind kind, const fbe_type *elem, const fbe_type *key);
/* The resolution state of st, when st belongs to p; NULL otherwise. */
fbei_struct_draft *fbei_struct_draft_of(fbei_pkg_draft *p, const fbe_struct *st);
/* The resolution state of st, whatever its package. */
fbei_struct_draft *fbei_struct_draft_find(fbei_load *load, const fbe_struct *st);

/* Integer range helpers: values are sign + magnitude. */
/* Warns that the reference compiler reads a hexadecimal number there as 0. */
void fbei_warn_hex(fbei_load *load, fbei_pkg_draft *p, const fbei_ast_int *number);

/* ---- schema_enums.c ---- */
void fbei_resolve_enum_values(fbei_load *load, fbei_pkg_draft *p);

/* ---- schema_structs.c ---- */
void fbei_check_inheritance(fbei_load *load, fbei_pkg_draft *p);
void fbei_assign_type_ids(fbei_load *load, fbei_pkg_draft *p);
void fbei_flatten_fields(fbei_load *load, fbei_pkg_draft *p);
void fbei_check_containment(fbei_load *load, fbei_pkg_draft *p);
void fbei_check_message_ids(fbei_load *load, fbei_pkg_draft *p);

/* ---- schema_defaults.c ---- */
/* Type-checks and evaluates the default of field af (already resolved to type). */
void fbei_resolve_default(fbei_load *load, fbei_pkg_draft *p, const fbei_ast_field *af,
                         const fbe_type *type, fbei_default *out);

#endif

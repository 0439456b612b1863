/* Schema compatibility: every difference between two versions of a package and what
 * it does to readers of the other version (FORMAT.md 8, protocol 9.3-9.4), judged for
 * old readers (OLD schema, NEW data) and new readers (NEW schema, OLD data) apart, and
 * for the final model. The check to run before shipping a new schema; `fbe compat`.
 *
 * Rules (directions, what "breaks" means, matching by name, every kind of change and
 * its effect, the report's order): docs/COMPAT.md. */
#ifndef FBE_COMPAT_H
#define FBE_COMPAT_H

#include <stddef.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Effect on the standard model: a bit mask of the directions that break. */
typedef enum fbe_compat_effect {
  FBE_COMPAT_SAFE = 0,
  FBE_COMPAT_BREAKS_OLD_READERS = 1,
  FBE_COMPAT_BREAKS_NEW_READERS = 2,
  FBE_COMPAT_BREAKS_BOTH = 3 /* = BREAKS_OLD_READERS | BREAKS_NEW_READERS */
} fbe_compat_effect;

/* Effect on the final model, which is not versioned (FORMAT.md 8.5): COMPATIBLE only
 * when the final bytes of every value and their meaning are unchanged. */
typedef enum fbe_compat_final {
  FBE_COMPAT_FINAL_COMPATIBLE = 0,
  FBE_COMPAT_FINAL_INCOMPATIBLE = 1
} fbe_compat_final;

/* The kinds of change, each with its text; their effects: docs/COMPAT.md, section 4.
 * "Warning": safe on the wire, but readers may see different values. */
#define FBE_COMPAT_KIND_LIST(X)                                          \
  X(FBE_COMPAT_PACKAGE_RENAMED, "package renamed")                       \
  X(FBE_COMPAT_PACKAGE_OFFSET_CHANGED, "package offset changed")         \
  X(FBE_COMPAT_ENUM_ADDED, "type added")                                 \
  X(FBE_COMPAT_ENUM_REMOVED, "type removed")                             \
  X(FBE_COMPAT_ENUM_KIND_CHANGED, "enum/flags kind changed")             \
  X(FBE_COMPAT_ENUM_BASE_CHANGED, "underlying type changed")             \
  X(FBE_COMPAT_ENUM_VALUE_ADDED, "value added")                          \
  X(FBE_COMPAT_ENUM_VALUE_REMOVED, "value removed")                      \
  X(FBE_COMPAT_ENUM_VALUE_RENUMBERED, "value renumbered")                \
  X(FBE_COMPAT_ENUM_VALUE_RENAMED, "value renamed")                      \
  X(FBE_COMPAT_STRUCT_ADDED, "struct added")                             \
  X(FBE_COMPAT_STRUCT_REMOVED, "struct removed")                         \
  X(FBE_COMPAT_MESSAGE_ADDED, "message added")                           \
  X(FBE_COMPAT_MESSAGE_REMOVED, "message removed")                       \
  X(FBE_COMPAT_STRUCT_MADE_MESSAGE, "struct became a message")           \
  X(FBE_COMPAT_MESSAGE_MADE_STRUCT, "message became a struct")           \
  X(FBE_COMPAT_STRUCT_ID_CHANGED, "type id changed")                     \
  X(FBE_COMPAT_MESSAGE_ID_CHANGED, "message id changed")                 \
  X(FBE_COMPAT_BASE_CHANGED, "base changed")                             \
  X(FBE_COMPAT_FIELD_APPENDED, "field appended")                         \
  X(FBE_COMPAT_FIELD_INSERTED, "field inserted")                         \
  X(FBE_COMPAT_BASE_FIELD_INSERTED, "field added to a base")             \
  X(FBE_COMPAT_FIELD_REMOVED, "field removed")                           \
  X(FBE_COMPAT_FIELD_RENAMED, "field renamed")                           \
  X(FBE_COMPAT_FIELD_REORDERED, "field reordered")                       \
  X(FBE_COMPAT_FIELD_SHIFTED, "field moved")                             \
  X(FBE_COMPAT_FIELD_RETYPED, "field type changed")                      \
  X(FBE_COMPAT_FIELD_COLLECTION_CHANGED, "collection kind changed")      \
  X(FBE_COMPAT_FIELD_ENUM_REPLACED, "enum type replaced")                \
  X(FBE_COMPAT_FIELD_TYPE_NEUTRAL, "type changed, same bytes")           \
  X(FBE_COMPAT_FIELD_DEFAULT_CHANGED, "default changed")                 \
  X(FBE_COMPAT_FIELD_KEY_CHANGED, "[key] changed")

typedef enum fbe_compat_kind {
#define FBE_COMPAT_KIND_ENUM_(name, text) name,
  FBE_COMPAT_KIND_LIST(FBE_COMPAT_KIND_ENUM_)
#undef FBE_COMPAT_KIND_ENUM_
  FBE_COMPAT_KIND_COUNT_
} fbe_compat_kind;

/* One change. Every string is owned by the report (never NULL; "" when absent). */
typedef struct fbe_compat_change {
  fbe_compat_kind kind;
  const char *path;       /* "Order.tp", "OrderSide.tell", "Balance", "package" */
  const char *old_text;   /* the old side, e.g. "id 1", "sell = 1"; "" for an addition */
  const char *new_text;   /* the new side, e.g. "double tp = 10.0 at offset 34" */
  const char *note;       /* the effect in words, for a person */
  fbe_compat_effect standard;
  fbe_compat_final final;
  int warning;            /* safe on the wire, but readers may see different values */
} fbe_compat_change;

/* The result of a comparison. Owned by the caller: free with fbe_compat_report_free. */
typedef struct fbe_compat_report {
  size_t count;
  fbe_compat_change *changes;   /* stable order: package; enums, then structs, each in
                                   old declaration order, then additions; a type met
                                   only through a field right after that field */
  fbe_compat_effect standard;   /* OR of every change's standard effect */
  fbe_compat_final final;       /* INCOMPATIBLE when any change is */
  size_t breaking;              /* changes whose standard effect is not SAFE */
  size_t warnings;              /* changes with warning set */
} fbe_compat_report;

/* Compares the root package of old_schema with the root package of new_schema and
 * fills *report (overwritten; free it even after an error, which leaves it empty).
 * The schemas are only read, and may be released once this returns.
 * FBE_ERR_ARGUMENT for NULL arguments, FBE_ERR_NOMEM. err may be NULL. */
FBE_API fbe_status fbe_compat_compare(const fbe_schema *old_schema, const fbe_schema *new_schema,
                                      fbe_compat_report *report, fbe_error *err);

/* Frees what the report owns and empties it. NULL is a no-op. */
FBE_API void fbe_compat_report_free(fbe_compat_report *report);

/* Static texts: "field appended"; "safe", "breaks old readers", "breaks new readers",
 * "breaks old and new readers"; "compatible", "incompatible". */
FBE_API const char *fbe_compat_kind_text(fbe_compat_kind kind);
/* Static names: "FBE_COMPAT_FIELD_APPENDED" (for tests and bindings). */
FBE_API const char *fbe_compat_kind_name(fbe_compat_kind kind);
FBE_API const char *fbe_compat_effect_text(fbe_compat_effect effect);
FBE_API const char *fbe_compat_final_text(fbe_compat_final final);

/* Writes one line (always NUL-terminated, truncated to out_size):
 * "Order.tp: field appended: double tp = 10.0 at offset 34 (old readers skip it)
 *  — standard: safe, final: incompatible". */
FBE_API void fbe_compat_change_format(const fbe_compat_change *change, char *out,
                                      size_t out_size);

#ifdef __cplusplus
}
#endif
#endif

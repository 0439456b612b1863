/* Status codes and the error record every fallible call fills in. */
#ifndef FBE_ERROR_H
#define FBE_ERROR_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One table of status codes: (name, value, text, exception class, parent status). Every
 * binding makes its exception classes from it: class names as written (each language
 * adds its own root, FBE::Error, fbe.Error...), each class a subclass of its parent's
 * (FBE_OK: the root). A status a binding does not know still gets a class. */
#define FBE_STATUS_LIST(X)                                                            \
  X(FBE_OK, 0, "ok", "Error", FBE_OK)                                                 \
  X(FBE_ERR_NOMEM, 1, "out of memory", "OutOfMemoryError", FBE_OK)                    \
  X(FBE_ERR_ARGUMENT, 2, "invalid argument", "ArgumentError", FBE_OK)                 \
  X(FBE_ERR_SCHEMA, 3, "schema error", "SchemaError", FBE_OK)                         \
  X(FBE_ERR_NOT_FOUND, 4, "not found", "NotFoundError", FBE_OK)                       \
  X(FBE_ERR_TYPE, 5, "type mismatch", "TypeMismatchError", FBE_OK)                    \
  X(FBE_ERR_RANGE, 6, "value out of range", "RangeError", FBE_OK)                     \
  X(FBE_ERR_MALFORMED, 7, "malformed data", "MalformedError", FBE_OK)                 \
  X(FBE_ERR_JSON, 8, "invalid JSON", "JSONError", FBE_OK)                             \
  X(FBE_ERR_LIMIT, 9, "resource limit exceeded", "LimitError", FBE_OK)                \
  X(FBE_ERR_IO, 10, "input/output error", "StreamError", FBE_OK)                      \
  X(FBE_ERR_UNKNOWN_FIELD, 11, "unknown field", "UnknownFieldError", FBE_ERR_NOT_FOUND) \
  X(FBE_ERR_REJECTED, 12, "request rejected", "RejectedError", FBE_OK)                \
  X(FBE_ERR_TIMEOUT, 13, "request timed out", "TimeoutError", FBE_OK)                 \
  X(FBE_ERR_RESET, 14, "client reset", "ResetError", FBE_OK)

typedef enum fbe_status {
#define FBE_STATUS_ENUM_(name, value, text, cls, parent) name = value,
  FBE_STATUS_LIST(FBE_STATUS_ENUM_)
#undef FBE_STATUS_ENUM_
} fbe_status;

/* Sentinel for "no byte offset applies". */
#define FBE_NO_OFFSET ((size_t)-1)

/* Filled in by a failing call. Fixed size, needs no allocation and no free. */
typedef struct fbe_error {
  fbe_status code;
  size_t offset;      /* byte offset in the input buffer/text, or FBE_NO_OFFSET */
  char path[160];     /* value path like "orders[2].symbol", "" for the root */
  char message[256];  /* what was wrong, for a person */
} fbe_error;

/* Static text of a status code ("malformed data"). */
FBE_API const char *fbe_status_text(fbe_status code);

/* Static name of a status code ("FBE_ERR_MALFORMED"); "FBE_ERR_UNKNOWN" past the table. */
FBE_API const char *fbe_status_name(fbe_status code);
/* The exception class a binding makes for it ("MalformedError"), and the status whose
 * class it derives from (FBE_OK: the binding's root class). */
FBE_API const char *fbe_status_class(fbe_status code);
FBE_API fbe_status fbe_status_parent(fbe_status code);
/* How many status codes there are: they are 0 .. FBE_STATUS_COUNT - 1. */
#define FBE_STATUS_COUNT 15

/* The one text of an error in every language: "message at 'path' (offset N)", the
 * path and the offset only when set (always NUL-terminated). Bindings show it as is. */
FBE_API void fbe_error_format(const fbe_error *err, char *out, size_t out_size);
/* The part of that text after the message: " at 'path'" and " (offset N)" when set ("":
 * neither; path may be NULL). For host code that shows an error of its own message, of
 * any length, in the core's words. */
FBE_API void fbe_error_format_where(const char *path, size_t offset, char *out, size_t out_size);

#ifdef __cplusplus
}
#endif
#endif

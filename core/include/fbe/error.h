/* Status codes and the error record every fallible call fills in. */
#ifndef FBE_ERROR_H
#define FBE_ERROR_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One table of status codes; bindings generate their exception classes from it. */
#define FBE_STATUS_LIST(X)                                              \
  X(FBE_OK, 0, "ok")                                                    \
  X(FBE_ERR_NOMEM, 1, "out of memory")                                  \
  X(FBE_ERR_ARGUMENT, 2, "invalid argument")                            \
  X(FBE_ERR_SCHEMA, 3, "schema error")                                  \
  X(FBE_ERR_NOT_FOUND, 4, "not found")                                  \
  X(FBE_ERR_TYPE, 5, "type mismatch")                                   \
  X(FBE_ERR_RANGE, 6, "value out of range")                             \
  X(FBE_ERR_MALFORMED, 7, "malformed data")                             \
  X(FBE_ERR_JSON, 8, "invalid JSON")                                    \
  X(FBE_ERR_LIMIT, 9, "resource limit exceeded")                        \
  X(FBE_ERR_IO, 10, "input/output error")

typedef enum fbe_status {
#define FBE_STATUS_ENUM_(name, value, text) name = value,
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

/* Static name of a status code ("FBE_ERR_MALFORMED"). */
FBE_API const char *fbe_status_name(fbe_status code);

/* Formats "message at path 'p' (offset N)" into out (always NUL-terminated). */
FBE_API void fbe_error_format(const fbe_error *err, char *out, size_t out_size);

#ifdef __cplusplus
}
#endif
#endif

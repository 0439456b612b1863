/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: filling fbe_error records. */
#ifndef FBE_ERROR_INTERNAL_H
#define FBE_ERROR_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include "fbe/error.h"
#include "fbe/schema.h"

#if defined(__MINGW32__) && !defined(__clang__)
/* MinGW: `printf` would mean msvcrt's (no %zu); the core uses mingw-w64's C99 printf
 * (__USE_MINGW_ANSI_STDIO, CMakeLists.txt), whose checks are gnu_printf's. */
#define FBE_PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#elif defined(__GNUC__)
#define FBE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FBE_PRINTF(a, b)
#endif

/* Sets code, offset and message (printf-style) and clears the path; returns code.
 * err may be NULL. */
fbe_status fbei_error_vset(fbe_error *err, fbe_status code, size_t offset, const char *fmt, va_list ap);
fbe_status fbei_error_set(fbe_error *err, fbe_status code, size_t offset, const char *fmt, ...)
    FBE_PRINTF(4, 5);

/* Prepends one path component to err->path: ".name" for a field (no dot at the
 * start), "[i]" for an element, "[key]" for a map key. Used while unwinding out of
 * nested values (the core's walks and the bindings' converters); no-ops when err is
 * NULL or holds no error. A path longer than err->path keeps its inner parts and is
 * marked as cut: "..." in front ("...[3].symbol"), after which nothing more is put
 * in front of it. */
void fbei_error_prepend_field(fbe_error *err, const char *name);
void fbei_error_prepend_index(fbe_error *err, size_t index);
void fbei_error_prepend_key(fbe_error *err);

/* The converters' own errors, one wording in every language:
 * "value 300 does not fit uint8" and "decimal 1e99 does not fit FBE's decimal (...)".
 * value_text: the host value as the host prints it. Return FBE_ERR_RANGE. */
fbe_status fbei_error_range(fbe_error *err, const char *value_text, fbe_kind kind);
fbe_status fbei_error_decimal_range(fbe_error *err, const char *value_text);

#endif

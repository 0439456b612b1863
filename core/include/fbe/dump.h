/* Annotated hex dump of a model: every byte range with its offset, its field path
 * and its meaning or decoded value, for finding out why two systems disagree about a
 * message. */
#ifndef FBE_DUMP_H
#define FBE_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/buffer.h"
#include "fbe/codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes a text dump of the model of `type` at the start of data[0..size) through
 * `write`, one line per byte range in offset order: offset, length, bytes, then
 * "PATH: meaning" or "PATH = value", after a title line ("# proto.Account, standard
 * model, 252 bytes of input"). Lines are made as they are written, never held whole.
 * The walk is fbe_verify's, with its checks, limits and reasons: bytes that stop
 * making sense end the dump with a "!!" line naming verify's offset and reason. The
 * dump keeps at most fbe_limits_memory(limits, size) bytes of records.
 *
 * `write` receives whole lines, n bytes at text (not NUL-terminated), and returns 0
 * to go on, anything else to stop (then FBE_ERR_IO).
 *
 * Returns FBE_OK for a valid model; FBE_ERR_MALFORMED or FBE_ERR_LIMIT when the dump
 * ends with a "!!" line (the dump is complete all the same, and err describes the
 * same problem); FBE_ERR_NOMEM (nothing was written), FBE_ERR_IO or FBE_ERR_ARGUMENT.
 * limits NULL: fbe_limits_default(); err may be NULL.
 *
 * Rules (the line format, shared blocks, overlaps, unreferenced bytes, errors,
 * memory): docs/DUMP.md. */
typedef int (*fbe_dump_write_fn)(void *ctx, const char *text, size_t n);

FBE_API fbe_status fbe_dump_to(const fbe_struct *type, fbe_model model, const uint8_t *data,
                               size_t size, const fbe_limits *limits, fbe_dump_write_fn write,
                               void *ctx, fbe_error *err);

/* fbe_dump_to appending the dump to `out` (owned by the caller): the same text and
 * statuses, but FBE_ERR_NOMEM leaves out as it was (no half dumps). */
FBE_API fbe_status fbe_dump(const fbe_struct *type, fbe_model model, const uint8_t *data,
                            size_t size, const fbe_limits *limits, fbe_buffer *out,
                            fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

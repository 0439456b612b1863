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
 * `write`, line by line in offset order. The walk keeps small records, not text; each
 * line's text is made as it is written, so the dump is never held whole (`fbe dump`
 * streams it to its output).
 *
 * Format (UTF-8 text, one line per byte range, '\n' line ends, stable across
 * releases so that dumps can be diffed and parsed):
 *
 *   # proto.Account, standard model, 252 bytes of input
 *   0x0014    4  1e 00 00 00              name: pointer 30 -> 0x0026 (base 0x0008)
 *   0x0026    4  04 00 00 00              name: length 4
 *   0x002a    4  54 65 73 74              name = "Test"
 *
 * The first line ("# ...") names the type, the model and the input size. Then the
 * columns, separated by two spaces: offset (0x + at least 4 hex digits, as many as
 * the input size needs), length in bytes (decimal, right-aligned), the bytes (8 per
 * line, padded to 23 characters; bytes 8..15 of a longer range go on one indented
 * continuation line, which ends with "... (N more bytes)" when there are more), then
 * "PATH: meaning" (headers, pointers, lengths, counts, flags) or "PATH = value"
 * (decoded values). PATH is the value path ("orders[1].symbol", "f1[0].key"; cut to
 * its last 120 characters after "..."); the root struct's own lines use its full
 * name, the model header "model". Lines are in offset order (ties in walk order).
 *
 * A block that several pointers lead to (a struct body, string or bytes data, a
 * collection, an optional's value slot: legal, though no writer produces it) is
 * listed once, under the first pointer the walk follows to it; every later pointer
 * to it gets its pointer line only, which names that first pointer:
 *   0x0070    4  70 00 00 00              orders[1]: pointer 112 -> 0x0078 (base 0x0008, shared with orders[0])
 * ("... (base 0x0049: the value slot, shared with asset)" for a pointer in an
 * optional's value slot). The same bytes read another way (as another type, or a
 * collection whose elements hold pointers reached from another base) are listed
 * again: a range starting inside an earlier one ends with "(overlaps an earlier
 * range)". Every byte of the input is on a line, and on exactly one unless ranges
 * overlap: bytes no range covers get lines of their own whose text starts with
 * "(unreferenced" (inside the model, after its end, or not reached before an error).
 * Sharing adds one line per further pointer, however large the shared block: the
 * models writers produce have at most one line per byte, and any model at most one
 * per byte and pointer for each way its bytes are read.
 *
 * The walk is the one fbe_verify does (FORMAT.md 5.11, 6.5), with the same checks,
 * limits, memory charges (codec.h: each pointer to a shared block is charged what
 * walking it costs) and reasons. When the bytes stop making sense the dump shows
 * every range found so far and ends with one line ("at 'PATH'" when a value is at
 * fault)
 *   !! offset 0x0068: 2147483647 elements do not fit in the model at 'orders'
 * naming the same offset and reason fbe_verify reports (when verify's walk fails
 * inside a shared block, which the dump does not walk again, the line is verify's
 * error itself), with two exceptions. When the model size runs past the end of the
 * data (a truncated message), the dump walks the bytes that are there and reports
 * the first value that is cut off ("... past the end of the buffer"), or the model
 * size itself (offset 0) when everything it reached was complete. In the final
 * model, where fbe_verify checks runs of fixed-size fields only once it reaches the
 * end of the model, the dump names the first field that does not fit. Valid or
 * invalid is fbe_verify's answer with the same limits (but for the dump's own memory
 * below), and every line describes bytes that are present.
 *
 * Memory: the dump keeps a 24-byte record per line (one for all the elements of an
 * array or vector of fixed-size scalars), 24 bytes per struct body, array or
 * collection on a line's path and 40 per block a pointer leads to (and 8 to 16 in
 * its index), in arrays that grow by half; texts are made as they are written. It
 * holds at most fbe_limits_memory(limits, size) bytes (by default 16 per byte of
 * input + 1 MiB; the models writers produce need up to about 11): a dump that needs
 * more (many 1-byte values with a line each, such as optional bytes) stops with
 * FBE_ERR_LIMIT "dumping needs more than the memory budget of N bytes (max_memory)"
 * on its "!!" line, after the lines found so far.
 *
 * `write` receives whole lines (a range's line with its continuation line, the
 * title, the "!!" line), n bytes at text, not NUL-terminated; it returns 0 to go on,
 * anything else to stop the dump (then FBE_ERR_IO, "the writer of the dump failed").
 *
 * Returns FBE_OK for a valid model; FBE_ERR_MALFORMED or FBE_ERR_LIMIT when the dump
 * ends with a "!!" line (the dump is complete all the same, and err describes the
 * same problem); FBE_ERR_NOMEM (nothing was written), FBE_ERR_IO or FBE_ERR_ARGUMENT.
 * Work is linear in the memory budget. limits NULL: fbe_limits_default(); err may be
 * NULL. */
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

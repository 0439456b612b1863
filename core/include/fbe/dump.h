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

/* Appends to `out` a text dump of the model of `type` at the start of data[0..size).
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
 * name, the model header "model". Lines are in offset order (ties in walk order); a
 * range starting inside an earlier one (blocks shared by several pointers: legal,
 * but no writer produces it) ends with "(overlaps an earlier range)". Every byte of
 * the input is on a line, and on exactly one unless ranges overlap: bytes no range
 * covers get lines of their own whose text starts with "(unreferenced" (inside the
 * model, after its end, or not reached before an error).
 *
 * The walk is the one fbe_verify does (FORMAT.md 5.11, 6.5), with the same checks,
 * limits and reasons. When the bytes stop making sense the dump shows every range
 * found so far and ends with one line ("at 'PATH'" when a value is at fault)
 *   !! offset 0x0068: 2147483647 elements do not fit in the model at 'orders'
 * naming the same offset and reason fbe_verify reports, with two exceptions. When
 * the model size runs past the end of the data (a truncated message), the dump
 * walks the bytes that are there and reports the first value that is cut off
 * ("... past the end of the buffer"), or the model size itself (offset 0) when
 * everything it reached was complete. In the final model, where fbe_verify checks
 * runs of fixed-size fields only once it reaches the end of the model, the dump
 * names the first field that does not fit. Valid or invalid is fbe_verify's answer
 * (but for the range limit below), and every line describes bytes that are present.
 *
 * Returns FBE_OK for a valid model; FBE_ERR_MALFORMED or FBE_ERR_LIMIT when the dump
 * ends with a "!!" line (the dump is complete all the same, and err describes the
 * same problem); FBE_ERR_NOMEM (out is left as it was) or FBE_ERR_ARGUMENT. Work and
 * memory are bounded by the input size and limits (NULL: fbe_limits_default()); a
 * dump that would list more ranges than the input has bytes, plus 1024 (blocks
 * shared by many pointers), stops with FBE_ERR_LIMIT. out is owned by the caller;
 * err may be NULL. */
FBE_API fbe_status fbe_dump(const fbe_struct *type, fbe_model model, const uint8_t *data,
                            size_t size, const fbe_limits *limits, fbe_buffer *out,
                            fbe_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* The tape: how values cross between JavaScript and C in one call.
 *
 * JavaScript and C share ArrayBuffers per schema (allocated by lib/, registered with
 * setTapes): a numeric tape of 8-byte slots (viewed as Float64Array, BigInt64Array and
 * BigUint64Array), a byte tape (string and bytes contents), a small Int32Array of
 * registers and an output pool for encoded bytes. A value is laid out depth-first in
 * field order, exactly as the compiled schema tables walk it, so neither side ever
 * looks up a field by name:
 *
 *   bool                         slot 0 / 1
 *   byte, char, wchar, intN/uintN up to 32 bits, float, double, enum/flags on such a base
 *                                slot: the number (a double)
 *   int64, uint64, timestamp, enum/flags on a 64-bit base
 *                                slot: the 64-bit pattern (BigInt64Array/BigUint64Array)
 *   string, bytes, decimal, uuid slot: byte length; the bytes on the byte tape. C -> JS
 *                                writes a string's length negated (-len) when it is not
 *                                plain ASCII, so JavaScript picks its fast path
 *                                (decimal and uuid are text: "123.45", 8-4-4-4-12)
 *   struct                       its fields, in order (inherited first), no header
 *   T?                           slot 0 (null) or 1 followed by the T
 *   T[N]                         the N elements
 *   vector, list, set            slot: count, then the elements
 *   map, hash                    slot: count, then key, value, key, value, ...
 *
 * JavaScript -> C (encode, toJson, send): lib/ generates one flattening function per
 * struct that writes this layout and type-checks every value; C range-checks numbers
 * while it builds the in-memory value (value.h) in an arena, pointing strings straight
 * into the byte tape (no copy). C -> JavaScript (decode, fromJson, receive): C walks
 * the decoded value and writes the layout; a generated builder per struct reads it.
 *
 * C walks a struct with its tape program: the fields flattened (inline nested structs
 * spliced in, like the core's final-model program) into a flat list of dense steps, so
 * the common scalar fields cost one switch each and no recursion. */
#ifndef FBE_NODE_TAPE_H
#define FBE_NODE_TAPE_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/fbe.h"

/* Registers (Int32Array shared with lib/codegen.js, same indexes there). */
enum {
  REG_N0 = 0,      /* JS -> C: numeric tape position where the value starts */
  REG_P0 = 1,      /* JS -> C: byte tape position where the value starts */
  REG_STATUS = 2,  /* C -> JS: 0 ok, an fbe_status (details: lastError), REG_NEED_SPACE */
  REG_NEED_N = 3,  /* C -> JS with REG_NEED_SPACE: numeric slots the value needs from N0 */
  REG_NEED_P = 4,  /* C -> JS with REG_NEED_SPACE: bytes the value needs from P0 */
  REG_FLAGS = 5,   /* JS -> C: FLAG_TRUSTED */
  REG_SIZE = 6,    /* C -> JS: model size of the last decode/verify/encode */
  REG_OUT = 7,     /* JS -> C: offset in the output pool for the next encode; C -> JS: 1
                      when the bytes went there, 0 when a Buffer was returned instead */
  REG_COUNT = 8
};
#define REG_NEED_SPACE (-1)
/* Encoded results up to this size go into the output pool (lib/ keeps that much room). */
#define POOL_RESULT_MAX 4096
#define FLAG_TRUSTED 1 /* decode without verifying (fbe_decode_trusted) */

typedef struct fbe_tape_progs fbe_tape_progs;

typedef struct fbe_tape {
  double *num;     /* numeric slots */
  uint32_t num_cap;
  uint8_t *bytes;
  uint32_t bytes_cap;
  int32_t *regs;   /* REG_COUNT registers */
  uint8_t *out;    /* output pool */
  uint32_t out_cap;
  const fbe_tape_progs *progs;
} fbe_tape;

/* Compiles the tape programs of every struct of a schema. NULL when out of memory.
 * Free with fbe_tape_progs_free. */
fbe_tape_progs *fbe_tape_compile(const fbe_schema *schema);
void fbe_tape_progs_free(fbe_tape_progs *progs);

/* Builds a value of struct st into slot (st->mem_size bytes, zeroed) from the tape,
 * starting at REG_N0/REG_P0. Strings and bytes point into the byte tape: use the value
 * before the tape changes. Numbers out of their field's range (or not integral for an
 * integer field) fail with FBE_ERR_RANGE and the value path in err. */
fbe_status fbe_tape_read_struct(const fbe_tape *tp, const fbe_struct *st, void *slot,
                                fbe_arena *arena, fbe_error *err);

/* The error of a value nested deeper than FBE_DEFAULT_MAX_DEPTH optionals and
 * collections (the core's encode rule): what the reader fails with, and what lib/'s
 * flattening functions throw when they count the same levels first (addon.c
 * depthError), before the JavaScript stack can overflow. */
fbe_status fbe_tape_too_deep(fbe_error *err);

/* Writes a value of struct st onto the tape from REG_N0/REG_P0. Returns 0, or -1 when
 * the tape is too small: then regs[REG_NEED_N] and regs[REG_NEED_P] hold what the
 * value needs (grow and call again). */
int fbe_tape_write_struct(fbe_tape *tp, const fbe_struct *st, const void *slot);

#endif

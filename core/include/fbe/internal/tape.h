/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* The tape: how a whole value crosses between a host language and C in one call (Java
 * through JNI, JavaScript through Node-API). The host shares two regions with C (two
 * arrays, or two parts of one): slots of 8 bytes and a byte tape. A value is laid out
 * depth-first in schema field order, exactly as the compiled tables walk it, so neither
 * side looks a field up by name:
 *
 *   bool, byte, char, wchar, int8 .. uint32, enum/flags on such a base
 *                                slot: the number (0 / 1 for a bool)
 *   float                        slot: the number (DOUBLE), its raw bits (INT64)
 *   int64, uint64, timestamp, double, enum/flags on a 64-bit base
 *                                slot: the value's own 8 bytes (the 64-bit pattern, a
 *                                double's bits: the same in both formats)
 *   string, bytes, decimal       slot: the byte length; the bytes on the byte tape
 *                                (UTF-8; a decimal as text, "123.45")
 *   uuid                         INT64: two slots, the most and least significant 64
 *                                bits; DOUBLE: as text on the byte tape (8-4-4-4-12)
 *   struct                       its fields in order (inherited first), no header
 *   T?                           slot 0 (null) or 1, then the T
 *   T[N]                         the N elements
 *   vector, list, set            slot: the count, then the elements
 *   map, hash                    slot: the count, then key, value, key, value, ...
 *
 * The slot format says what "the number" in a slot is:
 *   FBE_TAPE_INT64 (Java: the first part of one byte[], the bytes after it): an int64,
 *     signed kinds sign-extended and unsigned ones zero-extended. The host range-checks each value as it writes it; C stores
 *     the bits.
 *   FBE_TAPE_DOUBLE (JavaScript, Float64Array and BigInt64Array views of one
 *     ArrayBuffer): a double. C checks that it fits its field (whole and in range;
 *     FBE_ERR_RANGE with the value's path). C writes a string's length negated (-len)
 *     when the string is not plain ASCII, so the host takes its ASCII fast path
 *     without looking; either sign reads.
 *
 * C walks a struct with its tape program: the fields, inline nested structs spliced
 * in, as one flat list of steps compiled once per schema for one format, so a scalar
 * field costs one switch and no recursion. Every tape position is checked: a tape that
 * disagrees with the schema is an error, never a read past its end. */
#ifndef FBE_INTERNAL_TAPE_H
#define FBE_INTERNAL_TAPE_H

#include <stdint.h>
#include "fbe/fbe.h"

typedef enum fbei_tape_format {
  FBE_TAPE_INT64,
  FBE_TAPE_DOUBLE
} fbei_tape_format;

typedef union fbei_tape_slot {
  int64_t i; /* FBE_TAPE_INT64 numbers, counts and lengths */
  double d;  /* FBE_TAPE_DOUBLE numbers, counts and lengths */
} fbei_tape_slot;

/* The host's arrays (borrowed for the call). */
typedef struct fbei_tape {
  fbei_tape_slot *num;
  uint32_t num_cap;
  uint8_t *bytes;
  uint32_t bytes_cap;
} fbei_tape;

typedef struct fbei_tape_programs fbei_tape_programs;

/* The tape programs of every struct of schema, for tapes of the given format. NULL
 * when out of memory. The schema must outlive them. */
fbei_tape_programs *fbei_tape_compile(const fbe_schema *schema, fbei_tape_format format);
void fbei_tape_programs_free(fbei_tape_programs *progs);

/* A message of struct st (of the compiled schema) read from the tape at slot *n, byte
 * *p (both advanced past it), in arena. Strings and bytes point into the byte tape: use
 * the message before the tape changes. NULL with err set (the value's path in it). */
fbe_msg *fbei_tape_read(const fbei_tape_programs *progs, const fbei_tape *tp, const fbe_struct *st,
                       uint32_t *n, uint32_t *p, fbe_arena *arena, fbe_error *err);

/* Writes m onto the tape from slot n, byte p. 0, or -1 when the tape is too small;
 * either way *need_n and *need_p say how many slots and bytes from n and p the value
 * takes (grow the tape and write again). A message of another schema writes nothing. */
int fbei_tape_write(const fbei_tape_programs *progs, fbei_tape *tp, const fbe_msg *m, uint32_t n,
                   uint32_t p, uint64_t *need_n, uint64_t *need_p);

/* Writes the value r (of any type of the compiled schema: a struct, a collection, an
 * optional, a scalar) onto the tape as it lies inside a message (the layout above), as
 * fbei_tape_write does: a part of a message, or a value of its own (fbe_view_value). A
 * ref with no value writes nothing. */
int fbei_tape_write_ref(const fbei_tape_programs *progs, fbei_tape *tp, fbe_ref r, uint32_t n,
                       uint32_t p, uint64_t *need_n, uint64_t *need_p);

/* 1 when st is a struct of the schema progs were compiled for and they are of the given
 * slot format, else 0. */
int fbei_tape_programs_check(const fbei_tape_programs *progs, const fbe_struct *st, fbei_tape_format format);

/* 1 when a message of st can hold a set, map or hash (or st is not of the compiled
 * schema): fbei_tape_encode leaves such messages to the general way at once. */
int fbei_tape_keyed(const fbei_tape_programs *progs, const fbe_struct *st);

/* The message of struct st on the tape (from slot 0 and byte 0, as fbei_tape_read reads
 * it) written straight as the model's bytes into out[0, cap), without building the
 * value (core/src/bind/tape_encode.c): exactly the bytes fbe_encode writes for the
 * value fbei_tape_read builds. Returns their size; or -1 when it leaves this message to
 * the general way (read, then fbe_encode), which then gives the bytes or the error: a
 * set, map or hash (the reader collapses duplicate keys), a string that is not UTF-8,
 * a bad decimal, a value nested too deep, a tape that disagrees with the schema, more
 * than cap bytes, or a tape of the FBE_TAPE_DOUBLE format. out is written either way. */
int64_t fbei_tape_encode(const fbei_tape_programs *progs, const fbei_tape *tp, const fbe_struct *st,
                        fbe_model model, uint8_t *out, size_t cap);

/* The error of a value nested deeper than FBE_DEFAULT_MAX_DEPTH optionals and
 * collections (the core's encode rule): what the reader fails with, and what a host
 * that counts the same levels while it flattens throws first (before its own stack can
 * overflow). Returns FBE_ERR_LIMIT. */
fbe_status fbei_tape_too_deep(fbe_error *err);

#endif

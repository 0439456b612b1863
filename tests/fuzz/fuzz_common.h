/* Shared pieces of the fuzz targets (tests/fuzz/fuzz_*.c): the test schemas, and the
 * invariants every target asserts on top of "no crash". A broken invariant calls
 * abort() after printing what broke, so libFuzzer (or the replay driver) reports it.
 *
 * The invariants (see fuzz_check_bytes and fuzz_check_message):
 *  - bytes that pass fbe_verify always decode, with the same limits (no exception:
 *    verify charges the memory budget exactly what decode charges, cost.h);
 *  - bytes that fail fbe_verify fail fbe_decode with verify's very error (status,
 *    reason, offset, path); the decoder without verify (fbe_decode_trusted) gives them
 *    an error or a value;
 *  - whatever decodes re-encodes, in both models, to bytes that pass verify, decode
 *    to an equal message (fbe_msg_equal) and re-encode to the same bytes; except that
 *    in the standard model a null optional field with a non-null declared default
 *    reads back as that default (FORMAT.md 5.10), after which the trip is exact;
 *  - the JSON of a message reads back to an equal message, unless fbe_msg_to_json
 *    fails for a reason json_writer.c documents (NaN/infinity, decimal scale > 28, a
 *    bool/float/double/bytes map key, nesting > 256) or a string holds bytes that are
 *    not UTF-8 (written as U+FFFD); from the first read back on, the round trip
 *    (message -> JSON -> message) is exact either way;
 *  - errors are well formed: a code a caller can expect, an offset inside the input;
 *  - one cost function: verify's charge == decode's >= fbei_msg_cost of the value (equal but for
 *    the duplicate keys a reader drops, keys.c), within
 *    the budget (fbe_limits_memory); the arena holds no more than the charge allows
 *    (memory used <= budget); verify walks at most charge / FBE_VALUE_CHARGE values
 *    (its work is linear in the budget); reading JSON stays in its budget too. */
#ifndef FBE_FUZZ_COMMON_H
#define FBE_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/fbe.h"

#ifndef FBE_SCHEMAS_DIR
#error "FBE_SCHEMAS_DIR must be defined by the build"
#endif

/* libFuzzer's entry point, also called by the replay driver (fuzz_replay.c). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if defined(__GNUC__)
#define FUZZ_NORETURN __attribute__((noreturn))
#define FUZZ_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FUZZ_NORETURN
#define FUZZ_PRINTF(a, b)
#endif

/* Prints "fuzz invariant broken at FILE:LINE: COND: message" and aborts. */
FUZZ_NORETURN void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    FUZZ_PRINTF(4, 5);

#define FUZZ_CHECK(cond, ...) \
  do {                        \
    if (!(cond)) fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
  } while (0)

/* ---- the test schemas (schemas/test.fbe, proto.fbe, protoex.fbe, enums.fbe) ---- */

/* Loads a schema of FBE_SCHEMAS_DIR once per process (aborts when it does not load).
 * package: "test", "proto", "protoex" or "enums". Borrowed, never released. */
fbe_schema *fuzz_schema(const char *package);

/* The structs the first input byte chooses from: a fixed table of full names, so that
 * a committed seed keeps meaning the same struct (make_corpus.py reads the table). */
size_t fuzz_struct_count(void);
const fbe_struct *fuzz_struct_at(size_t index);

/* Load options whose include directory is FBE_SCHEMAS_DIR (imports of fuzzed schemas). */
const fbe_load_options *fuzz_load_options(void);

/* ---- invariants ---- */

/* Where a message came from: decoders bound nesting exactly as the encoder does, JSON
 * does not (an optional adds a level for the encoder but no JSON container), so only a
 * message read from JSON may be too deep to encode (FBE_ERR_LIMIT, documented). */
typedef enum fuzz_origin { FUZZ_FROM_WIRE, FUZZ_FROM_JSON, FUZZ_FROM_DEFAULTS } fuzz_origin;

/* Checks every invariant of a message (encode, verify, decode, equal, JSON). */
void fuzz_check_message(const fbe_msg *msg, fuzz_origin origin);

/* Verifies and decodes data as a model of `type`, checks the error contracts and, when a
 * message decodes, fuzz_check_message. limits may be NULL. */
void fuzz_check_bytes(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                      const fbe_limits *limits);

/* Checks an error a call returned: code in `allowed` (a bit mask of 1u << code), a
 * non-empty message, and an offset inside [0, size] or FBE_NO_OFFSET. */
void fuzz_check_error(const char *call, fbe_status rc, const fbe_error *err, unsigned allowed,
                      size_t size);

#define FUZZ_CODE(c) (1u << (c))

/* Whether a struct is small enough to make messages of (fuzzed schemas may declare
 * arrays of millions of elements: legitimate, but each message would cost megabytes). */
int fuzz_struct_is_small(const fbe_struct *st);

#endif

/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Why bytes are refused: one table of reasons for verify, decode, dump and the support
 * of generated code (wire/faults.c), so that each names a fault in the same words -
 * dump says what verify says by construction.
 *
 * X(id, status, format). A format's conversions are %llu for numbers and %s for text,
 * nothing else (tests/test_faults.c checks it); callers pass unsigned long long and
 * const char * in the order of the format. "%s" after "the end of the" is "model" or
 * "buffer" (dump walks a cut buffer too). */
#ifndef FBE_INTERNAL_FAULTS_H
#define FBE_INTERNAL_FAULTS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "fbe/error.h"

#define FBE_FAULT_LIST(X)                                                                      \
  X(FBE_FAULT_FEW_BYTES_STANDARD, FBE_ERR_MALFORMED,                                           \
    "%llu bytes are too few for a standard model (16 at least)")                               \
  X(FBE_FAULT_FEW_BYTES_FINAL, FBE_ERR_MALFORMED,                                              \
    "%llu bytes are too few for a final model (8 at least)")                                   \
  X(FBE_FAULT_MODEL_SMALL_STANDARD, FBE_ERR_MALFORMED, "model size %llu is smaller than 16")   \
  X(FBE_FAULT_MODEL_SMALL_FINAL, FBE_ERR_MALFORMED,                                            \
    "model size %llu is smaller than its 8-byte header")                                       \
  X(FBE_FAULT_MODEL_PAST_BUFFER, FBE_ERR_MALFORMED,                                            \
    "model size %llu runs past the end of the buffer")                                         \
  X(FBE_FAULT_MODEL_LIMIT, FBE_ERR_LIMIT,                                                      \
    "model size %llu exceeds the limit of %llu bytes (max_model_size)")                        \
  X(FBE_FAULT_ROOT_OUTSIDE, FBE_ERR_MALFORMED, "root struct outside the model")                \
  X(FBE_FAULT_TYPE_ID, FBE_ERR_MALFORMED, "type id %llu where %s (%llu) was expected")         \
  X(FBE_FAULT_FIELDS_END, FBE_ERR_MALFORMED, "fields end here but the model size says %llu")   \
  X(FBE_FAULT_STRUCT_POINTER_0, FBE_ERR_MALFORMED, "struct pointer is 0")                      \
  X(FBE_FAULT_STRUCT_SMALL, FBE_ERR_MALFORMED,                                                 \
    "struct size %llu is smaller than its 8-byte header")                                      \
  X(FBE_FAULT_STRUCT_PAST_END, FBE_ERR_MALFORMED, "struct size %llu runs past the end of the %s") \
  X(FBE_FAULT_SIZE_PAST_END, FBE_ERR_MALFORMED, "size %llu runs past the end of the %s")       \
  X(FBE_FAULT_ELEMENTS, FBE_ERR_MALFORMED, "%llu elements do not fit in the %s")               \
  X(FBE_FAULT_BYTES_PAST_END, FBE_ERR_MALFORMED, "%llu bytes needed past the end of the %s")   \
  X(FBE_FAULT_OPTIONAL_EMPTY, FBE_ERR_MALFORMED, "optional marked present has no value")       \
  X(FBE_FAULT_POINTER_BACK, FBE_ERR_MALFORMED,                                                 \
    "pointer %llu points back to offset %llu, before its slot at %llu")                        \
  X(FBE_FAULT_POINTER_OUTSIDE, FBE_ERR_MALFORMED, "pointer %llu leads outside the %s")         \
  X(FBE_FAULT_TOO_DEEP, FBE_ERR_LIMIT, "nesting deeper than %llu levels (max_depth)")          \
  X(FBE_FAULT_OVER_BUDGET, FBE_ERR_LIMIT,                                                      \
    "decoding needs more than the memory budget of %llu bytes (max_memory)")                   \
  X(FBE_FAULT_DUMP_BUDGET, FBE_ERR_LIMIT,                                                      \
    "dumping needs more than the memory budget of %llu bytes (max_memory)")                    \
  /* generated code checks a few things at once, and says so */                                \
  X(FBE_FAULT_GEN_STRUCT, FBE_ERR_MALFORMED,                                                   \
    "struct size is below 8 or runs past the end of the model")                                \
  X(FBE_FAULT_GEN_POINTER, FBE_ERR_MALFORMED, "pointer leads outside the model")               \
  X(FBE_FAULT_GEN_COLLECTION, FBE_ERR_MALFORMED,                                               \
    "collection pointer or elements outside the model")                                        \
  X(FBE_FAULT_GEN_ELEMENTS, FBE_ERR_MALFORMED, "collection elements do not fit in the model")  \
  X(FBE_FAULT_GEN_BLOB, FBE_ERR_MALFORMED, "string or bytes outside the model")                \
  X(FBE_FAULT_GEN_SHORT, FBE_ERR_MALFORMED, "bytes needed past the end of the model")         \
  X(FBE_FAULT_GEN_OPEN, FBE_ERR_MALFORMED,                                                     \
    "%llu bytes do not start with a %s model (size field too small or past the end)")

typedef enum fbei_fault {
#define FBE_FAULT_ENUM_(id, status, format) id,
  FBE_FAULT_LIST(FBE_FAULT_ENUM_)
#undef FBE_FAULT_ENUM_
  FBE_FAULT_COUNT_
} fbei_fault;

/* The status and the format of a fault. */
fbe_status fbei_fault_status(fbei_fault fault);
const char *fbei_fault_format(fbei_fault fault);

/* Sets err to the fault at offset, the arguments filling its format (see above); clears
 * the path. Returns the fault's status. err may be NULL. */
fbe_status fbei_fault_set(fbe_error *err, fbei_fault fault, size_t offset, ...);
fbe_status fbei_fault_vset(fbe_error *err, fbei_fault fault, size_t offset, va_list ap);

/* The fault of a pointer refused by fbe_std_target (target = the pointer's base +
 * pointer), at its slot: FBE_FAULT_POINTER_BACK when it does not lead forward (writers
 * put a value after its pointer), else FBE_FAULT_POINTER_OUTSIDE of the model. */
fbe_status fbei_fault_bad_pointer(fbe_error *err, uint64_t slot, uint32_t pointer, uint64_t target);

#endif

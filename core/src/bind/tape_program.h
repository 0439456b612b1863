/* The tape programs (private to core/src/bind/: tape.c compiles and walks them,
 * tape_encode.c walks them too). A struct's program is a flat list of steps, compiled
 * once per schema for one slot format, so a scalar field costs one switch. */
#ifndef FBE_BIND_TAPE_PROGRAM_H
#define FBE_BIND_TAPE_PROGRAM_H

#include <stdint.h>
#include "fbe/internal/schema_model.h"
#include "fbe/internal/tape.h"

/* One step: a scalar at a fixed offset from the struct's start, or (OP_VALUE) an
 * optional, array or collection for the generic walk. The codes that differ by slot
 * format are told apart when the program is compiled, so a step costs one switch
 * whatever the format. */
typedef enum tape_code {
  /* one slot each */
  OP_BITS64, /* both formats: int64, uint64, timestamp, double: the slot's 8 bytes are the value's */
  OP_BOOL, OP_I8, OP_U8, OP_I16, OP_U16, OP_I32, OP_U32, /* INT64: the bits widened; a float's too */
  OP_NUM_BOOL, OP_NUM_I8, OP_NUM_U8, OP_NUM_I16, OP_NUM_U16, OP_NUM_I32, OP_NUM_U32, OP_NUM_F32,
                                                         /* DOUBLE: the number, checked here */
  /* a length and bytes, or more slots */
  OP_STR, OP_BYTES, OP_DEC, /* both formats */
  OP_UUID_SLOTS,            /* INT64 */
  OP_UUID_TEXT,             /* DOUBLE */
  OP_VALUE,
  OP_NESTED                 /* a standard program's nested struct field (its own body) */
} tape_code;

typedef struct tape_op {
  uint8_t code;     /* tape_code */
  uint32_t offset;  /* from the start of the struct value */
  const fbe_type *type;
  const char *name; /* "wallet.currency" for a spliced nested field */
  uint32_t wire;    /* standard program: the field's offset in the struct's body */
} tape_op;

typedef struct tape_prog {
  const fbe_struct *st;
  uint32_t nops;
  const tape_op *ops;  /* the fields, nested structs spliced in: the tape's order, and the
                          final model's */
  uint32_t nsops;
  const tape_op *sops; /* the struct's own fields (nested ones OP_NESTED), with their
                          standard-model offsets: fbei_tape_encode's standard model */
  uint8_t keyed; /* 0 unknown, 1 no, 2 yes: a set, map or hash is reachable (fbei_tape_encode leaves those) */
} tape_prog;

struct fbei_tape_programs {
  fbei_tape_format format;
  uint32_t count;
  tape_prog *progs; /* indexed by fbe_struct_index */
};

/* The step code of a value of t in the format. */
static inline tape_code fbei_tape_code_of(const fbe_type *t, fbei_tape_format format) {
  int num = format == FBE_TAPE_DOUBLE;
  switch (t->wire) {
    case FBE_KIND_BOOL: return num ? OP_NUM_BOOL : OP_BOOL;
    case FBE_KIND_INT8: return num ? OP_NUM_I8 : OP_I8;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: return num ? OP_NUM_U8 : OP_U8;
    case FBE_KIND_INT16: return num ? OP_NUM_I16 : OP_I16;
    case FBE_KIND_UINT16: return num ? OP_NUM_U16 : OP_U16;
    case FBE_KIND_INT32: return num ? OP_NUM_I32 : OP_I32;
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR: return num ? OP_NUM_U32 : OP_U32;
    case FBE_KIND_FLOAT: return num ? OP_NUM_F32 : OP_U32;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP: case FBE_KIND_DOUBLE:
      return OP_BITS64;
    case FBE_KIND_STRING: return OP_STR;
    case FBE_KIND_BYTES: return OP_BYTES;
    case FBE_KIND_DECIMAL: return OP_DEC;
    case FBE_KIND_UUID: return num ? OP_UUID_TEXT : OP_UUID_SLOTS;
    default: return OP_VALUE;
  }
}

/* Every struct a walk meets belongs to the compiled schema (the entry points check the
 * outermost one): its program is at its dense index. */
static inline const tape_prog *fbei_tape_prog_of(const fbei_tape_programs *pp, const fbe_struct *st) {
  return &pp->progs[st->index];
}

#endif

/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: the resolved schema data model. The loader (schema_*.c) fills the
 * declarative part; layout.c fills the "layout" members; codecs read only these. */
#ifndef FBE_SCHEMA_MODEL_H
#define FBE_SCHEMA_MODEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "fbe/schema.h"
#include "fbe/arena.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/kinds.h"

/* A default value, already type-checked against its field type by the loader. */
typedef enum fbei_default_kind {
  FBE_DEF_NONE,    /* implicit default (SCHEMA.md 7.4) */
  FBE_DEF_NULL,    /* "= null" on an optional */
  FBE_DEF_BOOL,    /* u = 0/1 */
  FBE_DEF_INT,     /* integers, char, wchar, enum, flags, timestamp: u = 64-bit pattern
                      (sign-extended for signed kinds) */
  FBE_DEF_FLOAT,   /* float/double: d (float fields: rounded to binary32 by layout) */
  FBE_DEF_DECIMAL, /* bytes = the 16 wire bytes */
  FBE_DEF_STRING,  /* str/len, UTF-8, owned by the schema */
  FBE_DEF_UUID,    /* bytes = 16 canonical bytes (uuid0 gives all zero) */
  FBE_DEF_UTC,     /* current time, evaluated when a value is materialised */
  FBE_DEF_UUID1,   /* new time-based uuid, idem */
  FBE_DEF_UUID4    /* new random uuid, idem */
} fbei_default_kind;

typedef struct fbei_default {
  fbei_default_kind kind;
  uint64_t u;
  double d;
  uint8_t bytes[16];
  const char *str;
  uint32_t len;
} fbei_default;

struct fbe_type {
  fbe_kind kind;
  /* Codec kind: ENUM/FLAGS -> their base integer kind, LIST/SET -> VECTOR,
   * HASH -> MAP, anything else = kind. The hot paths switch on this. */
  fbe_kind wire;
  uint32_t array_size;       /* ARRAY */
  const fbe_type *elem;      /* OPTIONAL inner; ARRAY/VECTOR/LIST/SET element; MAP/HASH value */
  const fbe_type *key;       /* MAP/HASH key */
  const fbe_enum *enm;       /* ENUM/FLAGS */
  const fbe_struct *st;      /* STRUCT */
  /* layout */
  uint32_t wire_size;        /* standard-model inline size (FORMAT.md 2) */
  uint32_t mem_size;         /* in-memory slot size (multiple of mem_align) */
  uint32_t mem_align;        /* 1, 2, 4 or 8 */
  uint32_t pair_value_offset;/* MAP/HASH: value offset inside an in-memory pair */
  uint32_t pair_stride;      /* MAP/HASH: in-memory pair size */
  uint32_t final_min;        /* smallest final-model encoding (bounds hostile counts) */
  bool copyable;             /* memory bytes == wire bytes (fixed-size scalars on a
                                little-endian host, and arrays of them) */
  uint64_t cost;             /* budget charge of a value in a paid slot (cost.h):
                                FBE_VALUE_CHARGE per value of its inline part */
  uint64_t item_cost;        /* OPTIONAL: the charge of a present value (its slot and
                                cost); VECTOR/MAP: the cost of one element (pair) */
  uint32_t item_size;        /* VECTOR/MAP: the bytes of one element (pair) in memory */
};

/* The codecs' program for one struct: its fields grouped into steps. Runs of adjacent
 * copyable scalars become one copy (a single load/store pair for 1, 2, 4 and 8 bytes);
 * the rest is one step per field. Built by layout.c; walked by encode.c, decode.c and
 * verify.c. */
typedef enum fbei_op_code {
  FBE_OP_COPY1,    /* copies: `size` bytes, identical in memory and on the wire */
  FBE_OP_COPY2,
  FBE_OP_COPY4,
  FBE_OP_COPY8,
  FBE_OP_COPYN,    /* any other size */
  FBE_OP_BOOL,     /* one bool (normalised to 0/1) */
  FBE_OP_BLOB,     /* string or bytes */
  FBE_OP_STRUCT,   /* nested struct (never in a final-model program: those are flat) */
  FBE_OP_OPTIONAL, /* T? */
  FBE_OP_SEQUENCE, /* vector, list, set, map, hash */
  FBE_OP_VALUE,    /* anything else (arrays): the generic per-type path; codecs without
                      their own optional/sequence steps take those this way too */
  FBE_OP_END       /* after the last step of ops and final_ops (not counted in nops,
                      nfinal_ops): a walk may stop on it instead of counting */
} fbei_op_code;

#define FBE_OP_IS_FIXED(code) ((code) <= FBE_OP_BOOL) /* copies and bools */

/* The copy cases of a codec's step switch: dst and src are byte pointers, op the step.
 * Copies are the bulk of the steps, so each size is its own case (one dispatch). */
#define FBE_OP_COPY_CASES(dst, src, op)                            \
  case FBE_OP_COPY1: *(dst) = *(src); break;                        \
  case FBE_OP_COPY2: memcpy((dst), (src), 2); break;                \
  case FBE_OP_COPY4: memcpy((dst), (src), 4); break;                \
  case FBE_OP_COPY8: memcpy((dst), (src), 8); break;                \
  case FBE_OP_COPYN: fbe_copy_small((dst), (src), (op)->size); break;

/* What verify.c does at a step of ptr_ops or final_checks, chosen by layout.c so that the
 * verifier's walk dispatches once per step instead of looking through field, type and
 * kind at every one. */
typedef enum fbei_check_code {
  FBE_CHECK_TEXT,             /* string: pointer or length, budget, UTF-8 */
  FBE_CHECK_BYTES,            /* bytes: pointer or length, budget */
  FBE_CHECK_STRUCT,           /* nested struct (standard model only) */
  FBE_CHECK_OPTIONAL_STRUCT,  /* Struct? */
  FBE_CHECK_STRUCTS,          /* vector, list or set of structs */
  FBE_CHECK_BLOBS_STRUCT,     /* the same three of a struct whose steps in this model are */
  FBE_CHECK_OPTIONAL_BLOBS,   /* all strings and bytes (fbe_struct.blobs_only, */
  FBE_CHECK_BLOBS_STRUCTS,    /* final_blobs_only): checked with no frame of the walk */
  FBE_CHECK_VALUE,            /* anything else: the generic per-type path */
  FBE_CHECK_END               /* after the last of ptr_ops and of final_checks (not
                                 counted) */
} fbei_check_code;

typedef struct fbei_op {
  fbei_op_code code;
  uint32_t size;             /* bytes of a copy (or of the field) */
  uint32_t mem_offset;       /* of the first field, from the start of the struct value */
  uint32_t wire_offset;      /* of the first field in the standard body (standard program) */
  const fbe_field *field;    /* the (first) field: its type */
  const char *path;          /* its name for error paths ("wallet.currency" when flattened) */
  uint32_t room;             /* final program: fixed bytes from this step through the fixed
                                steps right after it, checked once here (0: covered by an
                                earlier step); a string adds its data size */
  fbei_check_code check;     /* ptr_ops, final_checks: what verify does here */
  uint32_t after;            /* final_checks: fixed bytes after this step that no string
                                step's room covers (the verifier advances over them) */
  const fbe_type *type;      /* the field's type (ptr_ops, final_checks) */
  const fbe_struct *st;      /* CHECK_STRUCT: the struct; CHECK_OPTIONAL_STRUCT and
                                CHECK_STRUCTS: the element struct */
} fbei_op;

typedef struct fbei_enum_value {
  const char *name;
  uint64_t value;            /* 64-bit pattern, sign-extended for signed bases */
  uint32_t line, col;
  bool hidden, deprecated;
} fbei_enum_value;

struct fbe_enum {
  const char *name;          /* "State" */
  const char *full_name;     /* "proto.State" */
  const fbe_package *pkg;
  uint32_t index;            /* dense, schema-wide: fbe_schema_enum_at(schema, index) */
  bool is_flags;
  fbe_kind base;             /* integer/char/wchar kind, FBE_KIND_INT32 by default */
  uint32_t nvalues;
  fbei_enum_value *values;    /* declaration order */
  uint32_t line, col;
  bool hidden, deprecated;
};

struct fbe_field {
  const char *name;
  uint32_t index;            /* position in the owning struct's flattened list */
  const fbe_type *type;
  fbei_default def;
  const fbe_struct *declared_in; /* struct that declares it (a base for inherited fields) */
  bool is_key, is_id, hidden, deprecated;
  uint32_t line, col;
  /* layout */
  uint32_t wire_offset;      /* offset of the slot from the standard body start (>= 8) */
  uint32_t mem_offset;       /* offset of the slot inside the in-memory struct */
  uint64_t default_cost;     /* what its default adds to type->cost (cost.h): default
                                strings, present default optionals */
};

struct fbe_struct {
  const char *name;          /* "Account" */
  const char *full_name;     /* "proto.Account" */
  const fbe_package *pkg;
  uint32_t index;            /* dense, schema-wide: fbe_schema_struct_at(schema, index) */
  uint32_t type_id;
  bool is_message;
  bool has_keys;             /* some field (inherited ones included) is a [key] */
  const fbe_struct *base;    /* NULL when none */
  uint32_t nfields;
  fbe_field *fields;         /* flattened: inherited fields first (root-most base first) */
  uint32_t ninherited;       /* how many of fields[] come from bases */
  uint32_t line, col;
  bool hidden, deprecated;
  /* request/response/reject annotations (recorded only) */
  bool is_request;
  const fbe_struct *response;
  uint32_t nrejects;
  const fbe_struct **rejects;
  bool reject_global;        /* the first reject carried '*' */
  /* layout */
  uint32_t body_size;        /* standard body size S = 8 + sum of inline sizes */
  uint64_t head_key;         /* (type_id << 32) + body_size: verify.c's test of a header */
  uint32_t base_body_size;   /* 8 + inline sizes of the inherited fields */
  uint32_t mem_size;         /* in-memory size (multiple of 8) */
  uint32_t final_min;        /* final-model size of the fields (fixed part) */
  void *defaults;            /* in-memory image of a default value (mem_size bytes) */
  bool dynamic_defaults;     /* some field (or nested inline struct) defaults to utc/uuid1/uuid4 */
  uint64_t cost;             /* FBE_VALUE_CHARGE x (1 + the values of its fields, inline
                                nested structs and arrays included) (cost.h) */
  uint64_t default_cost;     /* what a default value adds: the fields' default_cost */
  uint64_t root_cost;        /* fbei_cost_root: a message of it (header, slot, values) */
  const fbe_type *self_type; /* a STRUCT type node naming this struct */
  uint32_t *name_index;      /* field indexes sorted by name, for fbe_struct_field */
  uint8_t layout_state;      /* layout.c bookkeeping: 0 todo, 1 in progress, 2 done */
  uint32_t nops;
  fbei_op *ops;               /* the codec program over all fields */
  uint32_t nptr_ops;
  fbei_op *ptr_ops;           /* the steps of ops that hold pointers (what verify checks) */
  bool blobs_only;           /* every step of ptr_ops is a string or bytes: verify checks
                                such a nested body in one loop, with no frame of its walk
                                (the steps holding it are FBE_CHECK_BLOBS_*) */
  uint32_t nfinal_ops;
  fbei_op *final_ops;         /* final-model program: nested plain structs spliced in, since
                                the final model writes them inline with no header */
  uint32_t nfinal_checks;
  fbei_op *final_checks;      /* the steps of final_ops that read bytes (strings, optionals,
                                collections...): what the final verifier visits; the
                                fixed runs between them are their `after` */
  uint32_t final_lead;       /* fixed bytes before the first of final_checks (all of them
                                when there is none) */
  bool final_blobs_only;     /* every step of final_checks is a string or bytes (as
                                blobs_only, for the final model) */
};

struct fbe_package {
  const char *name;
  const char *domain;        /* NULL when absent */
  const char *file;          /* path or load name */
  uint32_t offset;
  uint32_t version_major, version_minor;
  uint32_t nimports;
  const fbe_package **imports;  /* import order */
  uint32_t nenums;
  fbe_enum **enums;          /* enums and flags, declaration order */
  uint32_t nstructs;
  fbe_struct **structs;      /* structs and messages, declaration order */
  /* The same two, sorted by name, for fbe_schema_find_enum/_struct: a binding looks
   * every struct up by name, which a linear search made quadratic. */
  fbe_enum **enums_by_name;
  fbe_struct **structs_by_name;
};

struct fbe_schema {
  atomic_int refcount;
  fbe_arena *arena;          /* owns every package, struct, field, type and string */
  const fbe_package *root;
  uint32_t npackages;
  const fbe_package **packages; /* dependency order: imports before importers; root last */
  uint32_t nstructs, nenums;
  const fbe_struct **structs; /* every package's, in package order: index = fbe_struct.index */
  const fbe_enum **enums;     /* the same for enums and flags */
};

/* layout.c: computes every layout member of every package of the schema.
 * Called by the loader once resolution succeeded. Returns 0, -1 when out of memory, or
 * -2 when a type is too large (a size over 16 MiB, or default images over 64 MiB),
 * or -3 when the final-model steps of all structs pass FBE_SCHEMA_MAX_STEPS; then
 * *too_large is the struct being laid out (-3: the one that crossed the cap). */
int fbei_layout_compute(fbe_schema *schema, const fbe_struct **too_large);

#endif

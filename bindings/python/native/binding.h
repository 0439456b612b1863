/* The hand-written half of the fbe._core extension: the object walk between Python
 * objects and the core's in-memory values, guided by the compiled tables of
 * schema_model.h and value.h. SWIG (swig/python.i) wraps the coarse surface; these
 * files give it the per-message entry points, the struct metaclass and base class and
 * the protocol engines.
 *
 * Shapes:
 *   pf_core    one per loaded schema (a Python object): owns every table below and a
 *              reference to the fbe_schema; immutable after bind, so shared by threads.
 *   pf_struct  one per schema struct: its Python class and, per field, the offset of
 *              the instance slot (__slots__ member), the interned name, the default.
 *   pf_type    mirrors an fbe_type node, with the Python class of structs and enums.
 *   pf_enum    an fbe.Enum / fbe.Flags class (fbe/_enum.py) and a value -> member table. */
#ifndef PYFBE_H
#define PYFBE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include "fbe/fbe.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/value.h"

typedef struct pf_struct pf_struct;
typedef struct pf_core pf_core;

typedef struct pf_enum {
  const fbe_enum *e;
  PyObject *cls;      /* the fbe.Enum / fbe.Flags subclass (strong) */
  PyObject *by_value; /* dict int -> member (strong) */
  PyObject **table;   /* members of values lo .. lo+n-1 (borrowed from by_value), or NULL */
  int64_t lo;
  uint32_t n;
  int is_signed;
} pf_enum;

typedef struct pf_type {
  const fbe_type *t;
  fbe_kind kind, wire;
  const struct pf_type *elem, *key;
  pf_struct *st;      /* STRUCT */
  pf_enum *en;        /* ENUM, FLAGS */
} pf_type;

enum { PF_DEF_CONST, PF_DEF_FRESH, PF_DEF_DYNAMIC };

typedef struct pf_field {
  const fbe_field *f;
  const pf_type *type;
  Py_ssize_t offset;  /* of the PyObject * slot inside an instance */
  PyObject *name;     /* interned field name */
  int def_kind;       /* PF_DEF_*: how __init__ fills a field not given */
  PyObject *def_value;/* PF_DEF_CONST: the shared immutable default (strong) */
  const uint8_t *image;/* the field's slot in the struct's default image */
} pf_field;

struct pf_struct {
  const fbe_struct *st;
  PyTypeObject *cls;  /* strong, through the core */
  pf_core *core;
  uint32_t nfields, nkeys;
  pf_field *fields;
  uint32_t *keys;     /* indexes of [key] fields */
  const pf_type *self_type;
};

struct pf_core {
  PyObject_HEAD
  fbe_schema *schema; /* retained */
  fbe_arena *mem;     /* pf_type nodes */
  uint32_t nstructs, nenums;
  pf_struct *structs;
  pf_enum *enums;
  size_t map_mask;    /* open-addressing map fbe_struct* -> pf_struct* */
  pf_struct **map;
};

/* The metaclass of generated struct classes: a type object with the walk's table. */
typedef struct pf_meta {
  PyHeapTypeObject ht;
  pf_struct *info;    /* borrowed from core */
  PyObject *core;     /* strong */
} pf_meta;

extern PyTypeObject pf_meta_type;
extern PyTypeObject pf_struct_base_type;
extern PyTypeObject pf_core_type;
extern PyTypeObject pf_sender_type;
extern PyTypeObject pf_receiver_type;

/* Error class index of fbe.UnknownFieldError (its code attribute is FBE_ERR_NOT_FOUND);
 * the other classes are indexed by fbe_status. */
#define PF_ERR_UNKNOWN_FIELD 16

/* An error of our own, with the path built while unwinding. */
/* The core's error record: code 0 = none (then a Python exception may be pending), or a
 * fbe_status, or PF_ERR_UNKNOWN_FIELD; its path is built with the core's
 * fbe_error_prepend_* (error_internal.h) while unwinding. */
typedef fbe_error pf_err;

void pf_err_set(pf_err *e, int code, const char *fmt, ...);
void pf_err_prepend_field(pf_err *e, const char *name);
void pf_err_prepend_index(pf_err *e, size_t index);
void pf_err_prepend_key(pf_err *e);
/* 1 when dict has a key that names no field of si, with "T has no field 'k'" in msg;
 * 0 when every key is a field. */
int pf_unknown_field(const pf_struct *si, PyObject *dict, char *msg, size_t msg_size);
/* Raises the fbe exception for code (fbe.Error subclasses, see fbe/_errors.py). */
void pf_raise(int code, const char *message, const char *path, size_t offset);
void pf_raise_err(const pf_err *e);
void pf_raise_fbe(const fbe_error *e);

/* Per-thread scratch: an arena and an output buffer reused by every call of a thread
 * (a nested call, e.g. from a callback, gets a fresh one). */
typedef struct pf_scratch {
  fbe_arena *arena;
  fbe_buffer buf;
  PyObject **keep;    /* objects whose memory the value points into (strong) */
  size_t nkeep, keep_cap;
  int busy, temp;
} pf_scratch;

pf_scratch *pf_scratch_get(void);
void pf_scratch_put(pf_scratch *s);
int pf_keep(pf_scratch *s, PyObject *o);

/* Struct info of a class (its own or the nearest generated base's); NULL if none. */
pf_struct *pf_info_of(PyTypeObject *tp);
/* The field of si named name (a str), or NULL. */
const pf_field *pf_field_named(const pf_struct *si, PyObject *name);
pf_struct *pf_core_find(const pf_core *core, const fbe_struct *st);

/* Python -> value. Writes a complete value of the struct into `slot` (mem_size bytes). */
typedef struct pf_enc {
  pf_scratch *s;
  fbe_arena *arena;
  uint32_t depth;
  size_t bytes;       /* of strings/bytes the value points at (for the GIL decision) */
  pf_err err;
} pf_enc;

int pf_put_struct(pf_enc *c, const pf_struct *si, PyObject *obj, uint8_t *slot);
/* A new message of si's struct in c->arena holding obj. NULL on error. */
fbe_msg *pf_build_msg(pf_enc *c, const pf_struct *si, PyObject *obj);

/* value -> Python. ordered: sets become lists and maps lists of (key, value) tuples,
 * keeping the wire order and duplicates. */
typedef struct pf_dec {
  int ordered;
  pf_err err;
} pf_dec;

PyObject *pf_get_struct(pf_dec *c, const pf_struct *si, PyTypeObject *cls, const uint8_t *slot);
PyObject *pf_get_value(pf_dec *c, const pf_type *t, const uint8_t *slot);

/* A new instance of si's class with every field at its schema default. */
PyObject *pf_new_default(const pf_struct *si, PyTypeObject *cls);
/* The default of one field, a new reference. */
PyObject *pf_field_default(const pf_field *f);

/* Cached Python objects (set at module init). */
extern PyObject *pf_decimal_type, *pf_uuid_type, *pf_enum_type, *pf_uuid_safe_unknown;
extern Py_ssize_t pf_uuid_int_offset, pf_uuid_safe_offset;

/* Shared helpers. */
PyObject *pf_uuid_from_bytes(const uint8_t b[16]);
int pf_uuid_to_bytes(PyObject *u, uint8_t b[16]);
PyObject *pf_decimal_from_bytes(const uint8_t b[16]);
PyObject *pf_enum_member(pf_enum *en, uint64_t pattern);

int pf_protocol_init(PyObject *module);

/* fbe.Limits (limits.c). pf_limits_from: the limits of a limits= argument (NULL or None:
 * every member 0, the defaults) into *out; -1 with a TypeError for anything else. */
extern PyTypeObject pf_limits_type;
int pf_limits_from(PyObject *obj, fbe_limits *out);
int pf_limits_init(PyObject *module);

/* Entry points called from the SWIG module (swig/python.i). */
PyObject *pyfbe_init_walk(PyObject *self, PyObject *args);
PyObject *pyfbe_bind(PyObject *self, PyObject *args);
PyObject *pyfbe_set_error_classes(PyObject *self, PyObject *args);
fbe_schema *pyfbe_schema_from_swig(PyObject *obj);

#endif

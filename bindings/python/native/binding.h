/* The hand-written half of the fbe._core extension: the object walk between Python
 * objects and the core's in-memory values, guided by the compiled tables of
 * schema_model.h and value.h. SWIG (swig/python.i) wraps the coarse surface; these
 * files give it the per-message entry points, the struct metaclass and base class and
 * the protocol engines. Everything shared by every binding (the scratch pool, the
 * dense type indexes, the default classes, the error texts) comes from the core.
 *
 *   errors.c   exception classes (made from the status table in fbe/_errors.py), raising
 *   bind.c     per-schema tables: SchemaCore, StructMeta, bind()
 *   convert.c  Python scalar <-> core scalar (ints, floats, decimals, uuids, times,
 *              strings), and what a refused value is called (the core writes the words)
 *   encode.c   Python object -> core value      decode.c  core value -> Python object
 *   ops.c      entry points (encode, decode, verify, JSON, equal, default) and fbe.Limits
 *   protocol.c sender, receiver and proxy engines, log hooks, replies (fbe_reply_prepare)
 *   client.c   the client engine over fbe_client (fbe.Client, fbe.AsyncClient)
 *   view.c     fbe.View: a struct read in place from verified bytes (fbe/view.h)
 *   module.c   fbe.Struct (==, hash, order and repr by the core), the scratch pool, init
 *
 * Shapes:
 *   pf_core    one per loaded schema (a Python object): owns every table below and a
 *              reference to the fbe_schema; immutable after bind, so shared by threads.
 *              Its structs and enums are arrays indexed by fbe_struct_index/fbe_enum_index.
 *   pf_struct  one per schema struct: its Python class and, per field, the offset of
 *              the instance slot (__slots__ member), the interned name, the default.
 *   pf_type    mirrors an fbe_type node, with the tables of structs and enums.
 *   pf_enum    an fbe.Enum / fbe.Flags class (fbe/_enum.py) and a value -> member table. */
#ifndef PF_BINDING_H
#define PF_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include "fbe/fbe.h"
#include "fbe/internal/error.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/scratch.h"
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

/* How encode stores a value when it has the exact builtin type of its type's kind
 * (chosen at bind, encode.c's put_fast); anything else takes the general walk. */
typedef enum pf_fast_op {
  PF_FAST_NONE,
  PF_FAST_INT,    /* an int (not a subclass) in the wire kind's range: byte, integers, timestamp */
  PF_FAST_ENUM,   /* a member of the field's own enum or flags class */
  PF_FAST_BOOL,   /* True or False */
  PF_FAST_DOUBLE, /* a float (not a subclass) */
  PF_FAST_STRING, /* a str (not a subclass) of ASCII characters: its bytes are its UTF-8 */
  PF_FAST_STRUCT  /* an instance of the field's struct class itself */
} pf_fast_op;

typedef struct pf_type {
  const fbe_type *t;
  fbe_kind kind, wire;
  int scalar;         /* no struct, no element: convert.c's (pf_put_scalar, pf_get_scalar) */
  pf_fast_op fast;
  int64_t min;        /* the core's range of an integer-like wire kind (fbei_int_limit) */
  uint64_t max;
  const struct pf_type *elem, *key;
  pf_struct *st;      /* STRUCT */
  pf_enum *en;        /* ENUM, FLAGS */
} pf_type;

typedef struct pf_field {
  const fbe_field *f;
  const pf_type *type;
  Py_ssize_t offset;  /* of the PyObject * slot inside an instance */
  PyObject *name;     /* interned field name */
  fbe_default_class def_class; /* how __init__ fills a field not given (the core decides) */
  PyObject *def_value;/* FBE_DEFAULT_SHARED: the one immutable default (strong) */
  const uint8_t *image;/* the field's slot in the struct's default image */
} pf_field;

struct pf_struct {
  const fbe_struct *st;
  PyTypeObject *cls;  /* strong, through the core; NULL once the core is cleared */
  pf_core *core;
  uint32_t nfields, nkeys;
  pf_field *fields;
  uint32_t *keys;     /* indexes of [key] fields */
  PyObject *view_attrs; /* dict: attribute field name -> field index, for fbe.View (strong) */
};

struct pf_core {
  PyObject_HEAD
  fbe_schema *schema; /* retained */
  fbe_arena *mem;     /* pf_type nodes */
  size_t nstructs, nenums;
  pf_struct *structs; /* [fbe_struct_index(st)] */
  pf_enum *enums;     /* [fbe_enum_index(e)] */
};

/* The metaclass of generated struct classes: a type object with the walk's table. */
typedef struct pf_meta {
  PyHeapTypeObject ht;
  pf_struct *info;    /* borrowed from core */
  PyObject *core;     /* strong */
} pf_meta;

extern PyTypeObject pf_meta_type, pf_struct_base_type, pf_core_type, pf_limits_type,
    pf_sender_type, pf_receiver_type, pf_proxy_type, pf_client_type, pf_view_type;
extern PyMethodDef pf_module_methods[], pf_struct_methods[], pf_protocol_methods[];

/* ---- errors.c. A converter's failure: -1 with its fbe_error filled (code != 0), or
 * -1 with a Python exception pending (code 0); the entry point raises the former. */
int pf_error(fbe_error *e, fbe_status code, const char *fmt, ...) FBE_PRINTF(3, 4); /* -1 */
#define pf_fail(c, ...) pf_error(&(c)->err, __VA_ARGS__)
/* The fbe exception of e->code (a new reference; NULL: a Python error is pending), and
 * raising it; str() is fbe_error_format's text. */
PyObject *pf_exception(const fbe_error *e);
void pf_raise(const fbe_error *e);
void pf_raisef(fbe_status code, const char *fmt, ...) FBE_PRINTF(2, 3);
/* FBE_ERR_UNKNOWN_FIELD into e (NULL: raised), the core's words with the nearest
 * field suggested: "unknown field 'nmae' of proto.Account (did you mean 'name'?)". */
void pf_unknown_field(fbe_error *e, const pf_struct *si, PyObject *name);
/* Sets a Python exception (PyErr_Format's); -1. */
int pf_exc(PyObject *type, const char *fmt, ...);
PyObject *pf_set_error_classes(PyObject *self, PyObject *classes);
PyObject *pf_error_text(PyObject *self, PyObject *args);
PyObject *pf_type_not_found(PyObject *self, PyObject *args);

/* ---- bind.c */
/* Struct info of a class (its own or the nearest generated base's); NULL if none. */
pf_struct *pf_info_of(PyTypeObject *tp);
/* The field of si named name (a str), or NULL. */
const pf_field *pf_field_named(const pf_struct *si, PyObject *name);
/* The offset of the object slot a __slots__ member descriptor reads, or -1. */
Py_ssize_t pf_member_offset(PyObject *descr);
PyObject *pyfbe_bind(PyObject *self, PyObject *args);
fbe_schema *pyfbe_schema_from_swig(PyObject *obj); /* swig/python.i */

/* ---- module.c: the scratch of a call, from the core's pool. pf_take raises
 * MemoryError when it returns NULL; pf_give drops the kept objects first. */
fbei_scratch *pf_take(void);
void pf_give(fbei_scratch *s);
int pf_keep(fbei_scratch *s, PyObject *o); /* a new reference held until pf_give */
PyObject *pyfbe_init_walk(PyObject *self, PyObject *args);
/* Cached Python objects (set at module init). */
extern PyObject *pf_decimal_type, *pf_uuid_type, *pf_enum_type, *pf_uuid_safe_unknown, *pf_str_fbe_name;
extern Py_ssize_t pf_uuid_int_offset, pf_uuid_safe_offset;

/* ---- convert.c and encode.c: Python -> value */
typedef struct pf_enc {
  fbei_scratch *s;
  uint32_t depth;
  size_t bytes;       /* of strings/bytes the value points at (for the GIL decision) */
  fbe_error err;
} pf_enc;

void pf_enc_init(pf_enc *c, fbei_scratch *s);
/* The datetime C API for convert.c (module init); -1 with the error set. */
int pf_convert_init(void);
/* The core's "expected W, got G" (FBE_ERR_TYPE) into err for the host value v: W is
 * want (a field's type, the optional around it), or the struct want_st when want is
 * NULL (a top-level value). -1. */
int pf_type_error(fbe_error *err, const fbe_type *want, const fbe_struct *want_st, PyObject *v);
/* A bool, number, char, decimal, uuid, string, bytes or enum value into slot; want:
 * the type a refusal names. */
int pf_put_scalar(pf_enc *c, const pf_type *t, const fbe_type *want, PyObject *v, uint8_t *slot);
/* A complete value of si's struct into slot (mem_size bytes); want as above (NULL at
 * the top). */
int pf_put_struct(pf_enc *c, const pf_struct *si, const fbe_type *want, PyObject *obj, uint8_t *slot);
/* A new message of si's struct in the scratch's arena holding obj. pf_build_msg: NULL
 * with the error raised; pf_try_msg: NULL with c->err filled (code != 0) or a Python
 * exception pending. pf_try_key_msg fills the [key] fields alone (the rest hold the
 * default image), for fbe_msg_key_hash / fbe_msg_key_compare. */
fbe_msg *pf_build_msg(pf_enc *c, const pf_struct *si, PyObject *obj);
fbe_msg *pf_try_msg(pf_enc *c, const pf_struct *si, PyObject *obj);
fbe_msg *pf_try_key_msg(pf_enc *c, const pf_struct *si, PyObject *obj);

/* ---- convert.c and decode.c: value -> Python. ordered: sets become lists and maps
 * lists of (key, value) tuples, keeping the wire order and duplicates. */
typedef struct pf_dec {
  int ordered;
  fbe_error err;
} pf_dec;

PyObject *pf_get_scalar(pf_dec *c, const pf_type *t, const uint8_t *slot);
PyObject *pf_get_value(pf_dec *c, const pf_type *t, const uint8_t *slot);
PyObject *pf_get_struct(pf_dec *c, const pf_struct *si, PyTypeObject *cls, const uint8_t *slot);
/* The Python object of a decoded message, or NULL with the error raised. */
PyObject *pf_message_object(const pf_struct *si, PyTypeObject *cls, const fbe_msg *m, int ordered);
/* A new instance of si's class with every field at its schema default. */
PyObject *pf_new_default(const pf_struct *si, PyTypeObject *cls);
/* The default of field i of si, a new reference. */
PyObject *pf_field_default(const pf_struct *si, uint32_t i);

/* ---- ops.c */
/* A read-only view of bytes-like data (not str), released with PyBuffer_Release (which
 * does nothing for bytes: view->obj NULL).
 * -1 with fbe.TypeMismatchError raised. */
int pf_get_data(PyObject *data, Py_buffer *view);
/* The limits of a limits= argument (NULL or None: every member 0, the defaults); -1
 * with a TypeError for anything else. */
int pf_limits_from(PyObject *obj, fbe_limits *out);

/* ---- view.c */
/* A new fbe.View of si's struct (class cls) over data (bytes-like), opened by the core
 * (verified, with limits); NULL with verify's error (or decode's TypeMismatchError for
 * what is no bytes-like object) raised. */
PyObject *pf_view_open(const pf_struct *si, PyObject *cls, PyObject *data, int final, int ordered,
                       const fbe_limits *limits);
int pf_view_init(PyObject *module); /* module init (adds fbe.ViewList); -1 with the error set */

#endif

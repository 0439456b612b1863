/* The hand-written half of the fbe Ruby extension: the object walk between Ruby
 * objects and the core's in-memory values (value.h), guided by the compiled tables of
 * schema_model.h. SWIG (swig/ruby.i) wraps the coarse surface (loading, introspection,
 * status table); these files add FBE::Native, one C call per message.
 *
 * Shapes:
 *   rf_core    one per loaded schema (a TypedData object): the tables below, the
 *              retained fbe_schema; immutable after bind.
 *   rf_struct  one per schema struct: its Ruby class and, per field, the interned
 *              symbol and the default.
 *   rf_type    mirrors an fbe_type node, with the rf_struct / rf_enum it names.
 *
 * Errors raise (longjmp): every entry point runs its walk under rb_ensure, so the
 * scratch arena is reset whatever happens; the walk records the value path as it
 * descends, so an error names where it happened. */
#ifndef RBFBE_H
#define RBFBE_H

#include <ruby.h>
#include <ruby/encoding.h>
#include <stdint.h>
#include "fbe/fbe.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/value.h"
#include "fbe/internal/memory.h" /* the walk's own blocks are counted with the core's */

typedef struct rf_struct rf_struct;
typedef struct rf_core rf_core;

typedef struct rf_enum {
  const fbe_enum *e;
  VALUE mod;        /* the module of constants */
  VALUE by_name;    /* Hash: Symbol name -> Integer (encode accepts names) */
  int is_signed;
} rf_enum;

typedef struct rf_type {
  const fbe_type *t;
  fbe_kind kind, wire;
  const struct rf_type *elem, *key;
  rf_struct *st;    /* STRUCT */
  rf_enum *en;      /* ENUM, FLAGS */
} rf_type;

enum { RF_DEF_CONST, RF_DEF_FRESH, RF_DEF_DYNAMIC };

typedef struct rf_field {
  const fbe_field *f;
  const rf_type *type;
  VALUE sym;        /* :name (Hash key, keyword) */
  VALUE str;        /* "name" (a Hash with String keys works too) */
  int def_kind;     /* RF_DEF_*: how new instances get a field not given */
  VALUE def_value;  /* RF_DEF_CONST: a frozen shared default */
  const uint8_t *image; /* the field's slot in the struct's default image */
} rf_field;

struct rf_struct {
  const fbe_struct *st;
  VALUE klass;
  rf_core *core;
  int is_rstruct;   /* a Struct subclass (fields by index); else a class without fields */
  uint32_t nfields;
  rf_field *fields;
  const rf_type *self_type;
};

struct rf_core {
  fbe_schema *schema; /* retained; NULL once closed */
  fbe_arena *mem;     /* rf_type nodes */
  uint32_t nstructs, nenums;
  rf_struct *structs;
  rf_enum *enums;
  size_t map_mask;    /* open addressing fbe_struct* -> rf_struct* */
  rf_struct **map;
  int busy;           /* calls in progress (close waits for none) */
  VALUE self;
};

extern const rb_data_type_t rf_core_type;
rf_struct *rf_core_find(const rf_core *core, const fbe_struct *st);
/* The struct info of a class (or its nearest generated ancestor); raises when none. */
rf_struct *rf_info_of(VALUE klass);
rf_struct *rf_info_try(VALUE klass);

/* Error classes, indexed by fbe_status; RF_ERR_UNKNOWN_FIELD is FBE::UnknownFieldError. */
#define RF_ERR_UNKNOWN_FIELD 16
#define RF_NCLASSES 17
VALUE rf_error_new(int code, const char *message, const char *path, size_t offset);
NORETURN(void rf_raise(int code, const char *message, const char *path, size_t offset));
NORETURN(void rf_raise_fbe(const fbe_error *e));

/* Per-call scratch: an arena and an output buffer (a nested call gets a fresh one). */
typedef struct rf_scratch {
  fbe_arena *arena;
  fbe_buffer buf;
  int busy, temp;
} rf_scratch;

rf_scratch *rf_scratch_get(void);
void rf_scratch_put(rf_scratch *s);

/* A walk in progress: the path recorded while descending. */
#define RF_MAX_PATH 64
typedef struct rf_frame {
  const char *name; /* field name, "[key]", or NULL for an index */
  long index;
} rf_frame;

typedef struct rf_walk {
  fbe_arena *arena;
  uint32_t depth;   /* optionals and collections, bounded like the core's */
  int ordered;      /* decode: sets as Arrays, maps as Arrays of [key, value] */
  uint32_t npath;
  rf_frame path[RF_MAX_PATH];
} rf_walk;

static inline void rf_push_name(rf_walk *w, const char *name) {
  if (w->npath < RF_MAX_PATH) w->path[w->npath] = (rf_frame){name, -1};
  w->npath++;
}
static inline void rf_push_index(rf_walk *w, long i) {
  if (w->npath < RF_MAX_PATH) w->path[w->npath] = (rf_frame){NULL, i};
  w->npath++;
}
static inline void rf_pop(rf_walk *w) { w->npath--; }

NORETURN(void rf_walk_raise(rf_walk *w, int code, const char *fmt, ...));
/* The first key of hash that names no field of si (Symbols; Strings too when
 * string_keys), or Qundef when every key names one. */
VALUE rf_unknown_key(const rf_struct *si, VALUE hash, int string_keys);

/* The index of si's field named name, or -1. */
long rf_field_index(const rf_struct *si, const char *name);
/* Ruby -> value: a complete value of si's struct written into slot. */
void rf_put_struct(rf_walk *w, const rf_struct *si, VALUE obj, uint8_t *slot);
/* A new message of si's struct in w->arena holding obj. */
fbe_msg *rf_build_msg(rf_walk *w, const rf_struct *si, VALUE obj);

/* value -> Ruby. */
VALUE rf_get_struct(rf_walk *w, const rf_struct *si, const uint8_t *slot);
VALUE rf_get_value(rf_walk *w, const rf_type *t, const uint8_t *slot);
/* The default of one field for a new instance. */
VALUE rf_field_default(const rf_field *f);

/* Cached Ruby objects and IDs (set at init). */
extern VALUE rf_cBigDecimal, rf_cSet, rf_mNative;
extern ID rf_id_BigDecimal, rf_id_to_s, rf_id_hash_ivar;
VALUE rf_decimal_from_bytes(const uint8_t b[16]);
extern VALUE rf_decimal_scales; /* WeakMap BigDecimal -> its 16 wire bytes */
extern int rf_decimal_scales_used;

/* FBE::Limits (rb_limits.c). rf_limits_get: the limits of a limits: argument (nil:
 * every member 0, the defaults; an FBE::Limits; a Hash of its keywords, given to the
 * core) into *out; raises TypeError for anything else, the core's error for a bad limit. */
void rf_limits_get(VALUE v, fbe_limits *out);
void rf_init_limits(VALUE fbe);

void rf_init_core(VALUE native);
void rf_init_ops(VALUE native);
void rf_init_protocol(VALUE native);
void rbfbe_init(VALUE swig_module);
fbe_schema *rbfbe_schema_from_swig(VALUE obj);

#endif

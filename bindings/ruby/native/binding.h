/* The Ruby binding's C (FBE::Native): the walk between Ruby objects and the core's
 * in-memory values (value.h), guided by the tables bind.c makes once per loaded schema.
 * SWIG (swig/ruby.i) wraps the coarse surface as FBE::Core.
 *
 * Errors: the encode walk returns a status with w->err filled in, each level putting its
 * part in front of the path on the way out (fbe_error_prepend_*); the entry point raises
 * it (errors.c). Ruby code called on the way may raise too (longjmp), so every entry
 * point runs under rb_ensure and gives its scratch back whatever happens. */
#ifndef RBFBE_BINDING_H
#define RBFBE_BINDING_H

#include <ruby.h>
#include <ruby/encoding.h>
#include "fbe/fbe.h"
#include "fbe/internal/error.h"
#include "fbe/internal/input.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/scratch.h"
#include "fbe/internal/value.h"

typedef struct rf_core rf_core;
typedef struct rf_struct rf_struct;

typedef struct rf_enum {
  const fbe_enum *e;
  VALUE module; /* the enum's module (lib/fbe/schema.rb) */
  int is_signed;
} rf_enum;

/* An fbe_type node with the class or enum it names. */
typedef struct rf_type {
  const fbe_type *t;
  const struct rf_type *elem, *key;
  rf_struct *st; /* STRUCT */
  rf_enum *en;   /* ENUM, FLAGS */
} rf_type;

typedef struct rf_field {
  const fbe_field *f;
  const rf_type *type;
  VALUE sym, str;        /* :name and "name", the Hash keys encode takes */
  fbe_default_class def; /* how a new instance gets it (fbe_field_default_class) */
  VALUE shared;          /* FBE_DEFAULT_SHARED: the frozen default */
  const uint8_t *image;  /* the field's slot in the struct's default image */
} rf_field;

struct rf_struct {
  const fbe_struct *st;
  VALUE klass;
  VALUE view_klass; /* its FBE::View subclass once one was needed, else nil (view.c) */
  rf_core *core;
  int is_rstruct; /* a Struct subclass; else a class without fields */
  rf_field *fields;
  struct rf_field_id *ids; /* nfields, sorted by id: the view readers and View#[] (rf_field_by_id) */
};

typedef struct rf_field_id {
  ID id; /* the field name's */
  uint32_t index;
} rf_field_id;

/* One per loaded schema: its tables by fbe_struct_index and fbe_enum_index. */
struct rf_core {
  VALUE self;         /* the object holding this core, which views keep alive */
  fbe_schema *schema; /* retained; NULL once closed */
  fbe_arena *mem;     /* every table */
  size_t nstructs, nenums;
  rf_struct *structs;
  rf_enum *enums;
  int busy; /* calls in progress: close refuses while there are any */
};

/* The state of one encode walk. */
typedef struct rf_walk {
  fbe_arena *arena;
  uint32_t depth; /* optionals and collections, bounded like the core's */
  fbe_error err;
} rf_walk;

/* errors.c: the core's error raised as its FBE::Error subclass. */
VALUE rf_error_new(const fbe_error *err);
NORETURN(void rf_raise(const fbe_error *err));
NORETURN(void rf_raisef(fbe_status code, const char *fmt, ...) FBE_PRINTF(2, 3));

/* bind.c */
rf_core *rf_core_of(VALUE obj); /* raises TypeError */
void rf_check_open(const rf_core *core);
rf_struct *rf_info_try(VALUE klass); /* the struct of a class or its nearest bound ancestor */
rf_struct *rf_info_of(VALUE klass);  /* ... or raises TypeMismatchError */
rf_enum *rf_enum_of(VALUE module);   /* the enum of an enum or flags module, or raises TypeMismatchError */
long rf_field_by_id(const rf_struct *si, ID id); /* the field named id, or -1 */

/* convert.c: Ruby scalars -> slots (a status; w->err without a path) and back, by
 * docs/INPUT.md. rf_got: what a Ruby value is in the core's words (*name: a struct's
 * full name or the Ruby class name); rf_type_error: "expected W, got G" for it. */
extern VALUE rf_cBigDecimal, rf_cSet;
fbei_got rf_got(VALUE v, const char **name);
fbe_status rf_type_error(rf_walk *w, const fbe_type *want, VALUE v);
fbe_status rf_put_int(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot); /* integers, enums, codes */
fbe_status rf_put_scalar(rf_walk *w, VALUE v, const fbe_type *t, uint8_t *slot); /* bool .. bytes */
VALUE rf_get_decimal(const uint8_t b[16]);
VALUE rf_get_uuid(const uint8_t b[16]);

/* encode.c: a message of si's struct in w->arena holding obj: rf_fill_msg returns the
 * status (w->err set), rf_build_msg raises it. */
fbe_status rf_fill_msg(rf_walk *w, const rf_struct *si, VALUE obj, fbe_msg **out);
fbe_status rf_put_value(rf_walk *w, const rf_type *t, VALUE v, uint8_t *slot); /* one value of t */
fbe_msg *rf_build_msg(rf_walk *w, const rf_struct *si, VALUE obj);
/* The first key of hash naming no field of si (Strings too when string_keys), or Qundef;
 * the core's error for such a key (FBE_ERR_UNKNOWN_FIELD, the nearest name suggested). */
VALUE rf_unknown_key(const rf_struct *si, VALUE hash, int string_keys);
fbe_status rf_unknown_field(fbe_error *err, const rf_struct *si, VALUE key);

/* decode.c: values -> Ruby (ordered: sets as Arrays, maps as Arrays of [key, value]). */
VALUE rf_get_value(const rf_type *t, const uint8_t *slot, int ordered);
VALUE rf_get_struct(const rf_struct *si, const uint8_t *slot, int ordered);
VALUE rf_field_default(const rf_field *f); /* for a new instance */

/* module.c: the scratch pool (raises NoMemoryError). */
fbei_scratch *rf_scratch_get(void);
void rf_scratch_put(fbei_scratch *s);

/* ops.c: a limits: argument (nil, an FBE::Limits, a Hash of its keywords) into *out;
 * the String an op reads (raises TypeMismatchError for anything else), frozen when
 * `always` or large. */
void rf_limits_get(VALUE v, fbe_limits *out);
VALUE rf_input_of(VALUE data, const char *what, int always);

void rf_init_convert(void);
void rf_init_errors(VALUE native);
void rf_init_bind(VALUE native);
void rf_init_ops(VALUE native, VALUE fbe);
void rf_init_protocol(VALUE native);
void rf_init_client(VALUE native);

/* protocol.c: the struct of a message's class in core (by name when the class comes from
 * another load of the schema), or raises TypeMismatchError. */
rf_struct *rf_struct_in_core(rf_core *core, VALUE obj);
void rf_init_view(VALUE native, VALUE fbe);
void rbfbe_init(VALUE swig_module);           /* from SWIG's Init_core (swig/ruby.i) */
fbe_schema *rbfbe_schema_from_swig(VALUE obj); /* swig/ruby.i */

#endif

/* The C side of the Go binding: one function per Go operation, each one cgo call per
 * message. Values cross on the core's tape (fbe/internal/tape.h, FBE_TAPE_INT64): Go
 * passes its []int64 slots and []byte bytes (no Go pointers in them, so cgo lets C use
 * them for the call) and C reads a message from them or writes one onto them. */
#ifndef FBEGO_GLUE_H
#define FBEGO_GLUE_H

#include <stdint.h>
#include <stddef.h>
#include "fbe/fbe.h"
#include "fbe/internal/tape.h"

/* A loaded schema and its tape programs (compiled once, shared by every call). */
typedef struct fbego_schema {
  fbe_schema *schema;
  fbei_tape_programs *progs;
  fbe_limits limits; /* of every verify, decode, JSON read, view and receiver of the schema */
} fbego_schema;

/* Sets one of the schema's limits by the core's rule (fbe_limits_set: its names,
 * ranges and error texts); before the schema is shared. */
int fbego_set_limit(fbego_schema *s, const char *name, int64_t value, fbe_error *err);

/* The tape Go lends for one call crosses as num/bytes and their lengths (what Go
 * wrote: num_len, bytes_len) or capacities (what C may write: num_cap, bytes_cap), as
 * plain arguments: cgo lets C use Go memory that holds no Go pointers, for the call. */

enum { FBEGO_LOAD_PACKAGE, FBEGO_LOAD_FILE, FBEGO_LOAD_STRING };
enum { FBEGO_WRITE_MODEL, FBEGO_WRITE_JSON, FBEGO_WRITE_TEXT };
enum { FBEGO_MAKE_DEFAULTS, FBEGO_MAKE_DECODE, FBEGO_MAKE_DECODE_TRUSTED, FBEGO_MAKE_JSON, FBEGO_MAKE_JSON_LAX };

fbego_schema *fbego_load(int how, const char *what, size_t what_len, const char *name, char **dirs, size_t ndirs,
                         fbe_error *err);
void fbego_free(fbego_schema *s);

/* The message of struct si read from the tape, written as the model's bytes, its JSON or
 * its text form into out[0, cap). Returns the size (a size above cap: nothing written,
 * call again with that much room) or -1 with err. */
int64_t fbego_write(const fbego_schema *s, size_t si, int what, int arg, int64_t *num, uint32_t num_len, uint8_t *bytes, uint32_t bytes_len, uint8_t *out,
                    size_t cap, fbe_error *err);

/* Deep equality (fbe_msg_equal) of the two messages on the tape: 1, 0, or -1 with err. */
int fbego_equal(const fbego_schema *s, size_t si, int64_t *num, uint32_t num_len, uint8_t *bytes, uint32_t bytes_len, fbe_error *err);

/* A message made (defaults, decoded, read from JSON in[0, len)) and written onto the
 * tape. 0: written (*need_n, *need_p: the slots and bytes it took); 1: the tape is too
 * small (*need_n, *need_p: what it needs; call again); -1: err. */
int fbego_make(const fbego_schema *s, size_t si, int how, int model, const uint8_t *in, size_t len,
               const fbe_limits *limits, int64_t *num, uint32_t num_cap, uint8_t *bytes, uint32_t bytes_cap, uint64_t *need_n, uint64_t *need_p, fbe_error *err);

/* fbe_verify: 0 and the model's size, or -1 with err. */
int fbego_verify(const fbego_schema *s, size_t si, int model, const uint8_t *in, size_t len,
                 const fbe_limits *limits, uint64_t *size, fbe_error *err);

/* A view over a copy of in[0, len) (the view owns it): NULL with err when verify refuses. */
typedef struct fbego_view {
  fbe_view view;
  const fbego_schema *schema;
  uint8_t *data;
} fbego_view;
fbego_view *fbego_view_open(const fbego_schema *s, size_t si, int model, const uint8_t *in, size_t len,
                            fbe_error *err);
void fbego_view_free(fbego_view *v);
/* The view's JSON or text (what: FBEGO_WRITE_JSON / _TEXT) into out, as fbego_write. */
int64_t fbego_view_write(const fbego_view *v, int what, uint8_t *out, size_t cap, fbe_error *err);
/* The whole value (field NULL) or one field onto the tape, as fbego_make. *kind: the
 * field's kind index among the struct's fields (-1: no such field, err set). */
int fbego_view_tape(const fbego_view *v, const char *field, size_t field_len, int64_t *num, uint32_t num_cap, uint8_t *bytes, uint32_t bytes_cap, uint64_t *need_n,
                    uint64_t *need_p, fbe_error *err);

/* The core's words for a host value the binding refuses (fbe/internal/input.h). */
void fbego_error_range(fbe_error *err, const char *text, int kind);
void fbego_error_type(fbe_error *err, const fbe_type *want, int got, const char *name);
void fbego_error_type_struct(fbe_error *err, const fbe_struct *want, int got, const char *name);
void fbego_error_unknown_field(fbe_error *err, const fbe_struct *st, const char *name, size_t len);
void fbego_error_unknown_type(fbe_error *err, const fbe_schema *schema, const char *name, size_t len);
void fbego_error_bad_text(fbe_error *err, int kind, const char *text, size_t len);
void fbego_error_prepend_field(fbe_error *err, const char *name);
void fbego_error_prepend_index(fbe_error *err, size_t index);
void fbego_error_prepend_key(fbe_error *err);
void fbego_error_too_deep(fbe_error *err);
/* The one text of an error (fbe_error_format). */
void fbego_error_text(const fbe_error *err, char *out, size_t cap);

/* Text to value by the core's parsers: 0, or -1 with err. */
int fbego_uuid_parse(const char *text, size_t len, uint8_t out[16], fbe_error *err);
int fbego_decimal_check(const char *text, size_t len, fbe_error *err);
int fbego_enum_parse(const fbe_enum *e, const char *text, size_t len, uint64_t *out, fbe_error *err);
/* The text form of an enum value (fbe_text_write_enum) into out; its length. */
size_t fbego_enum_text(const fbe_enum *e, uint64_t value, char *out, size_t cap);



void fbego_error_array_length(fbe_error *err, const fbe_type *array, size_t got);
void fbego_error_int_range(fbe_error *err, int negative, uint64_t magnitude, int kind);
#endif

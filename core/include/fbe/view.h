/* Views: reading a message in place, from its verified bytes, without decoding it and
 * without allocating. The verbs are fbe_ref's (fbe/message.h) with "view" for "ref":
 * a view is a cursor on one value (the root struct, a field, an element, a map key or
 * value), a plain struct to copy freely, valid while the bytes are.
 *
 * Safety: fbe_view_open runs fbe_verify on the bytes first and refuses what it
 * refuses (same status and error). Every access afterwards still checks what it reads
 * against the model before using it (the field-model readers of fbe/field.h for each
 * pointer, size and count; a scalar's slot: one compare with the model's end), so no
 * access reads outside [data, data + size) even if the bytes changed after the open;
 * on verified bytes those checks never fail (an access that fails them gives "no
 * value": fbe_view_ok false, FBE_ERR_TYPE).
 *
 * Values read as fbe_decode gives them: fields an older writer did not have (the
 * standard model's short bodies), null strings, bytes and optionals of a struct field
 * read as the field's schema default (served from the schema's defaults, in memory),
 * null elements as empty / null. Two differences, both of decode's making: a field
 * missing from the bytes whose default is dynamic (utc, uuid1, uuid4) reads as zero
 * (decode computes a new value), and a set or map reads its entries as written (decode
 * keeps one per key).
 *
 * Cost. Standard model: every access is O(1) (offsets and pointers). Final model:
 * values are inline and variable-size, and a view caches nothing, so field i of a
 * struct walks fields 0..i-1 and element i of a collection walks elements 0..i-1
 * (fixed-size elements: O(1)); the walk reads only counts and lengths, never the data.
 * Reading every element of a variable-size collection by index is quadratic there:
 * step through it with fbe_view_iterate / fbe_view_next instead (O(1) a step), and read
 * a collection of fixed-size scalars in one call with fbe_view_get_scalars. */
#ifndef FBE_VIEW_H
#define FBE_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/schema.h"
#include "fbe/message.h"
#include "fbe/codec.h"
#include "fbe/buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One value of a verified model. Read it through the functions below only. */
typedef struct fbe_view {
  const fbe_type *type; /* the value's type; NULL: no value */
  const uint8_t *data;  /* the model: data[0, end) */
  uint64_t end;
  uint64_t at;          /* standard: the value's slot (a struct: its body); final: its first byte */
  uint64_t base;        /* standard: what the slot's pointer is relative to (a struct: its
                           body size) */
  const void *image;    /* not NULL: a schema default in memory (fbe_ref's layout) */
  fbe_model model;
  uint32_t lazy;        /* 1: opened by fbe_view_open_lazy (each read checks its value) */
} fbe_view;

/* Verifies data[0..size) as a model of `type` (fbe_verify, with limits; NULL allowed)
 * and sets *out to the view of its root struct. On failure *out has no value and err
 * (NULL allowed) holds verify's error. */
FBE_API fbe_status fbe_view_open(const fbe_struct *type, fbe_model model, const void *data,
                                 size_t size, const fbe_limits *limits, fbe_view *out,
                                 fbe_error *err);

/* Opens a view without verifying the bytes first, for reading a few fields of a large
 * model (Cap'n Proto's way, where fbe_view_open is FlatBuffers'): only the model's
 * header and the root struct's are checked here (O(1)), with verify's words when they
 * are refused. Every read then checks what it reads against what verify requires of
 * that value: bounds, a struct's header (size, type id, a pointer of 0), an optional's
 * pointer, a string's UTF-8 (fbe_view_get_bytes), a decimal (fbe_view_get_decimal);
 * a read that fails gives no value (or FBE_ERR_MALFORMED from a getter), and
 * fbe_view_fault says why in verify's words. What is never read is never checked, nor
 * are the whole-model rules (depth, memory budget, the final model's exact end), so a
 * model that reads fine here may still be refused by fbe_verify. Materializing a lazy
 * view (fbe_view_copy, _to_msg, _value, _to_text, _to_json, _equal) verifies the
 * viewed value's bytes first, within limits (NULL: the defaults), as decode would. */
FBE_API fbe_status fbe_view_open_lazy(const fbe_struct *type, fbe_model model, const void *data,
                                      size_t size, const fbe_limits *limits, fbe_view *out,
                                      fbe_error *err);

/* Points *v (and so every view taken from it afterwards) at the same model at another
 * address: for a host whose buffer may move between calls (a garbage collector). size is
 * what the buffer holds now; less than the model (the buffer shrank or was detached)
 * gives FBE_ERR_MALFORMED and leaves *v as it was. The bytes must be the ones opened
 * (reads stay inside [data, data + model size) whatever they are). */
FBE_API fbe_status fbe_view_rebind(fbe_view *v, const void *data, size_t size, fbe_error *err);

/* The error for an access that found no value where the verified bytes had one: the
 * bytes changed after the open. With the root struct they were opened as (NULL
 * allowed), what fbe_verify says of them now (status, path, offset); else, or if they
 * still verify, FBE_ERR_MALFORMED "the bytes under the view changed after it was
 * opened". The bindings raise this, so every language says the same. */
FBE_API fbe_status fbe_view_fault(const fbe_struct *root, fbe_view v, fbe_error *err);

/* ---- navigation: a bad name/index or a wrong kind gives a view with no value ---- */
static inline int fbe_view_ok(fbe_view v) { return v.type != NULL; }
FBE_API fbe_kind fbe_view_kind(fbe_view v);                        /* FBE_KIND_COUNT_: no value */
FBE_API fbe_view fbe_view_field(fbe_view v, size_t index);         /* struct field by index */
FBE_API fbe_view fbe_view_field_named(fbe_view v, const char *name); /* struct field by name */
FBE_API size_t fbe_view_count(fbe_view v); /* elements of array/vector/list/set, entries of map/hash */
FBE_API fbe_view fbe_view_at(fbe_view v, size_t index);            /* element i */
FBE_API fbe_view fbe_view_key_at(fbe_view v, size_t index);        /* map entry i: key */
FBE_API fbe_view fbe_view_value_at(fbe_view v, size_t index);      /* map entry i: value */

/* Every element (entry) in order, each step O(1) in both models, where fbe_view_at
 * walks the elements before i in the final model:
 *   fbe_view_iter it = fbe_view_iterate(list); fbe_view e;
 *   while (fbe_view_next(&it, &e, NULL)) ...        (a map: &key, &value)
 * fbe_view_next gives 0 after the last one; either output may be NULL. */
typedef struct fbe_view_iter {
  fbe_view of;
  size_t index, count;
  uint64_t pos;    /* where the next element starts (standard: its slot) */
  uint64_t stride; /* standard: from one element's (entry's) slot to the next's */
} fbe_view_iter;
FBE_API fbe_view_iter fbe_view_iterate(fbe_view v);
FBE_API int fbe_view_next(fbe_view_iter *it, fbe_view *item_or_key, fbe_view *value);

/* Every element of an array, vector, list or set of fixed-size scalars (bool .. uuid,
 * enums, flags) in one call, borrowed in place: *count elements of *size bytes each from
 * *data, as on the wire (little-endian; read element i with fbe_load16 / fbe_load32 /
 * fbe_load64 / fbe_load_double ... of fbe/field.h at *data + i * *size), where
 * fbe_view_iterate makes a view of each. The span was checked against the model: it
 * stays inside it even if the bytes changed after the open. FBE_ERR_TYPE for another
 * kind, or a non-empty schema default (an array field an older writer did not have:
 * in memory, not on the wire; read it with fbe_view_at). */
FBE_API fbe_status fbe_view_get_scalars(fbe_view v, const uint8_t **data, size_t *count, size_t *size);

/* ---- optionals ---- */
FBE_API int fbe_view_is_null(fbe_view v);      /* an optional that holds no value */
FBE_API fbe_view fbe_view_deref(fbe_view v);   /* its value; no value when null */

/* ---- scalars: as fbe_ref_get_*, FBE_ERR_TYPE for a kind the getter cannot represent
 * exactly (FBE_ERR_RANGE for an unsigned above INT64_MAX in _int, a negative in _uint).
 * Integers, bool, char, wchar, enums, flags and timestamps go through int/uint. ---- */
FBE_API fbe_status fbe_view_get_int(fbe_view v, int64_t *out);
FBE_API fbe_status fbe_view_get_uint(fbe_view v, uint64_t *out);
FBE_API fbe_status fbe_view_get_double(fbe_view v, double *out); /* float, double */
FBE_API fbe_status fbe_view_get_bool(fbe_view v, int *out);
FBE_API fbe_status fbe_view_get_decimal(fbe_view v, fbe_decimal *out);
FBE_API fbe_status fbe_view_get_uuid(fbe_view v, fbe_uuid *out);

/* string / bytes: *data is borrowed from the buffer (or the schema, for a default) and
 * not NUL-terminated; a string is UTF-8 (verified). */
FBE_API fbe_status fbe_view_get_bytes(fbe_view v, const uint8_t **data, size_t *size);

/* ---- a view as a value: exactly the value fbe_decode gives for those bytes (a set or
 * map keeps one entry per key, dynamic defaults computed), made by the decoder from the
 * view's bytes (wire/view_value.c). limits as fbe_decode's (NULL: the defaults). ---- */

struct fbe_json_options; /* fbe/json.h */

/* Materializes the viewed value over `out`, a ref of the view's type (a message's root,
 * a field, an element) whose arena takes what it points at. out changes only on success. */
FBE_API fbe_status fbe_view_copy(fbe_view v, fbe_ref out, const fbe_limits *limits, fbe_error *err);
/* A struct view as a new message in arena. */
FBE_API fbe_status fbe_view_to_msg(fbe_view v, fbe_arena *arena, const fbe_limits *limits,
                                   fbe_msg **out, fbe_error *err);
/* Any view as a new value in arena: *out is a ref of the view's type. */
FBE_API fbe_status fbe_view_value(fbe_view v, fbe_arena *arena, const fbe_limits *limits,
                                  fbe_ref *out, fbe_error *err);
/* The text form (fbe/text.h) and the JSON (fbe/json.h) of the viewed value, appended to
 * out: the same as the decoded value's. */
FBE_API fbe_status fbe_view_to_text(fbe_view v, const fbe_limits *limits, fbe_buffer *out,
                                    fbe_error *err);
FBE_API fbe_status fbe_view_to_json(fbe_view v, const struct fbe_json_options *opts,
                                    fbe_buffer *out, fbe_error *err);
/* Deep equality of the values, as fbe_ref_equal (floats by bit pattern, decimals by
 * value); a view with no value equals nothing. */
FBE_API int fbe_view_equal(fbe_view a, fbe_view b);
FBE_API int fbe_view_equal_ref(fbe_view v, fbe_ref r);

#ifdef __cplusplus
}
#endif
#endif

/* Dynamic messages: one value of a schema struct, with every field reachable by
 * name or index, including nested structs, optionals and collections.
 *
 * Memory: a message and everything in it (strings, collection storage, nested
 * optionals) live in the fbe_arena it was created in and are freed together by
 * fbe_arena_free / fbe_arena_reset. The message keeps no reference to its schema:
 * keep the schema alive while you use the message. */
#ifndef FBE_MESSAGE_H
#define FBE_MESSAGE_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"
#include "fbe/error.h"
#include "fbe/arena.h"
#include "fbe/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fbe_msg fbe_msg;

/* A cursor on one value inside a message: a field, an element, a map key or value.
 * Plain struct, copy it freely; valid while the arena lives and the container it
 * points into is not resized. */
typedef struct fbe_ref {
  const fbe_type *type;
  void *slot;
  fbe_arena *arena;
} fbe_ref;

/* 16-byte .NET-style decimal, wire layout (FORMAT.md 3.2). */
typedef struct fbe_decimal { uint8_t bytes[16]; } fbe_decimal;
/* 16 bytes in canonical (big-endian) order. */
typedef struct fbe_uuid { uint8_t bytes[16]; } fbe_uuid;

/* New message of struct `type` with every field at its schema default (utc, uuid1,
 * uuid4 evaluated now). Allocated in arena; NULL when out of memory. */
FBE_API fbe_msg *fbe_msg_new(fbe_arena *arena, const fbe_struct *type);

FBE_API const fbe_struct *fbe_msg_type(const fbe_msg *msg);
FBE_API fbe_arena *fbe_msg_arena(const fbe_msg *msg);

/* Cursor on the whole message (a value of kind FBE_KIND_STRUCT). */
FBE_API fbe_ref fbe_msg_ref(fbe_msg *msg);

/* Deep equality of two values of the same type: floats by bit pattern, decimals by
 * numeric value. 1 when equal, 0 otherwise. */
FBE_API int fbe_msg_equal(const fbe_msg *a, const fbe_msg *b);
FBE_API int fbe_ref_equal(fbe_ref a, fbe_ref b);

/* The [key] fields of a struct (the reference's identity of a struct in sets, map keys
 * and sorted containers): a hash consistent with fbe_msg_equal (equal values, equal
 * hashes) and a total order, -1, 0 or 1, comparing the [key] fields in schema order
 * (inherited first), 0 exactly when they are equal. Per kind (docs/C.md "Keys"): bool
 * false first; integers, enums, flags, char, wchar, timestamps by number (signed where
 * the kind or base is); float and double by IEEE totalOrder (-0.0 before 0.0, NaN after
 * infinity: distinct bits differ, as in fbe_msg_equal); decimals by value (1.5 = 1.50);
 * uuids, strings and bytes bytewise, a prefix first; optionals null first; arrays,
 * collections and maps element (entry: key, value) by element, a prefix first; a key
 * field that is a struct by its own [key] fields, structs inside collections by every
 * field. Messages of different structs order by full name; NULL first.
 * A struct without [key] fields: every value has hash 0 and compares 0. */
FBE_API uint64_t fbe_msg_key_hash(const fbe_msg *msg);
FBE_API int fbe_msg_key_compare(const fbe_msg *a, const fbe_msg *b);

/* A deep copy of msg in arena (strings, bytes and collections copied: the copy does
 * not depend on msg's arena). FBE_ERR_NOMEM leaves *out NULL. */
FBE_API fbe_status fbe_msg_copy(const fbe_msg *msg, fbe_arena *arena, fbe_msg **out, fbe_error *err);

/* ---- navigation: every call returns a ref with slot == NULL on a bad name/index
 * or wrong kind; fbe_ref_ok tells. ---- */
static inline int fbe_ref_ok(fbe_ref r) { return r.slot != NULL; }
FBE_API fbe_kind fbe_ref_kind(fbe_ref r);
FBE_API fbe_ref fbe_ref_field(fbe_ref r, const char *name);       /* struct field by name */
FBE_API fbe_ref fbe_ref_field_at(fbe_ref r, size_t index);        /* struct field by index */
/* fbe_ref_field by a name of `length` bytes that says why it found nothing:
 * FBE_ERR_TYPE when r is not a struct ("fbe_ref_field_find: the value is an int32, not
 * a struct"), FBE_ERR_UNKNOWN_FIELD "unknown field 'symbl' of proto.Order (did you mean
 * 'symbol'?)" (the JSON reader's words). *out has no value on failure. */
FBE_API fbe_status fbe_ref_field_find(fbe_ref r, const char *name, size_t length, fbe_ref *out,
                                      fbe_error *err);
FBE_API size_t fbe_ref_count(fbe_ref r);  /* elements of array/vector/list/set, entries of map/hash */
FBE_API fbe_ref fbe_ref_at(fbe_ref r, size_t index);              /* element i */
FBE_API fbe_ref fbe_ref_key_at(fbe_ref r, size_t index);          /* map entry i: key */
FBE_API fbe_ref fbe_ref_value_at(fbe_ref r, size_t index);        /* map entry i: value */

/* ---- optionals ---- */
FBE_API int fbe_ref_is_null(fbe_ref r);             /* optional holds no value */
FBE_API fbe_status fbe_ref_set_null(fbe_ref r, fbe_error *err);
/* Cursor on the optional's value; makes it present (default value of the element
 * type) when it was null. slot == NULL when out of memory or not an optional. */
FBE_API fbe_ref fbe_ref_emplace(fbe_ref r);
/* Cursor on the optional's value, slot == NULL when null. */
FBE_API fbe_ref fbe_ref_deref(fbe_ref r);

/* ---- collections ---- */
/* Appends a default element to vector/list/set, returns a cursor on it. */
FBE_API fbe_ref fbe_ref_append(fbe_ref r);
/* Appends a map/hash entry with default key and value; *value receives the value cursor. */
FBE_API fbe_ref fbe_ref_map_append(fbe_ref r, fbe_ref *value);
FBE_API fbe_status fbe_ref_clear(fbe_ref r, fbe_error *err);  /* empties vector/list/set/map/hash */

/* ---- scalar access. Getters fail with FBE_ERR_TYPE on a kind they cannot
 * represent exactly; setters fail with FBE_ERR_RANGE when the value does not fit.
 * Integers, bool, char, wchar, enums, flags and timestamps go through int/uint.
 * Every setter (and fbe_ref_set_null, fbe_ref_clear) fills err (NULL allowed) when it
 * fails, with the status it returns:
 *   FBE_ERR_TYPE   "fbe_ref_set_int: the value is a string, not an integer kind" (the
 *                  ref's type in docs/INPUT.md's words; "no value" for a ref that
 *                  navigation did not find: fbe_ref_ok false);
 *   FBE_ERR_RANGE  "value 300 does not fit uint8" (enums and flags: their base kind),
 *                  "fbe_ref_set_decimal: scale 29 is above 28", ...;
 *   FBE_ERR_ARGUMENT a string that is not UTF-8 (fbe_utf8_check's words and offset);
 *   FBE_ERR_NOMEM  "out of memory". ---- */
FBE_API fbe_status fbe_ref_get_int(fbe_ref r, int64_t *out);
FBE_API fbe_status fbe_ref_get_uint(fbe_ref r, uint64_t *out);
FBE_API fbe_status fbe_ref_get_double(fbe_ref r, double *out);  /* float, double */
FBE_API fbe_status fbe_ref_set_int(fbe_ref r, int64_t v, fbe_error *err);
FBE_API fbe_status fbe_ref_set_uint(fbe_ref r, uint64_t v, fbe_error *err);
FBE_API fbe_status fbe_ref_set_double(fbe_ref r, double v, fbe_error *err);
FBE_API fbe_status fbe_ref_get_bool(fbe_ref r, int *out);
FBE_API fbe_status fbe_ref_set_bool(fbe_ref r, int v, fbe_error *err);

/* string / bytes: *data is borrowed from the arena (not NUL-terminated). */
FBE_API fbe_status fbe_ref_get_bytes(fbe_ref r, const uint8_t **data, size_t *size);
/* Copies data into the arena. A string must pass fbe_utf8_check (FBE_ERR_ARGUMENT). */
FBE_API fbe_status fbe_ref_set_bytes(fbe_ref r, const void *data, size_t size, fbe_error *err);
FBE_API fbe_status fbe_ref_set_string(fbe_ref r, const char *nul_terminated, fbe_error *err);

/* The string rule, the same everywhere: a string is well-formed UTF-8 (FORMAT.md 3.4):
 * no overlong form, no UTF-16 surrogate (U+D800-DFFF), nothing above U+10FFFF, no
 * truncated sequence or stray continuation byte. FBE_OK, or FBE_ERR_ARGUMENT with err
 * (may be NULL) saying what is wrong and err->offset the offset of the bad byte in
 * data. Verify and decode (trusted too) refuse such a string with FBE_ERR_MALFORMED,
 * the JSON reader with FBE_ERR_JSON, the setters with FBE_ERR_ARGUMENT; a binding
 * gives this the bytes of a host string it cannot vouch for (a lone surrogate as its
 * 3-byte form: ED A0 80 for U+D800), so every binding refuses the same strings with
 * the same text and none replaces anything with U+FFFD. */
FBE_API fbe_status fbe_utf8_check(const void *data, size_t size, fbe_error *err);

FBE_API fbe_status fbe_ref_get_decimal(fbe_ref r, fbe_decimal *out);
/* FBE_ERR_RANGE for a scale above 28 or reserved bits set (FORMAT.md 3.2). */
FBE_API fbe_status fbe_ref_set_decimal(fbe_ref r, const fbe_decimal *v, fbe_error *err);
FBE_API fbe_status fbe_ref_get_uuid(fbe_ref r, fbe_uuid *out);
FBE_API fbe_status fbe_ref_set_uuid(fbe_ref r, const fbe_uuid *v, fbe_error *err);

/* Decimal text <-> value. Parsing keeps the scale the text carries ("1.000" -> scale 3)
 * and accepts exponents; FBE_ERR_RANGE beyond 96 bits / scale 28. Formatting follows
 * Python's str(Decimal) ("123.5", "1E-7"). out_size >= 48 is always enough. */
FBE_API fbe_status fbe_decimal_parse(const char *text, size_t length, fbe_decimal *out);
FBE_API void fbe_decimal_format(const fbe_decimal *v, char *out, size_t out_size);
/* A char or wchar from its text (kind FBE_KIND_CHAR or FBE_KIND_WCHAR): exactly one
 * UTF-8 character, its code point in *out; FBE_ERR_ARGUMENT "'ab' is not one
 * character" otherwise, FBE_ERR_RANGE "value 256 does not fit char" past the kind. */
FBE_API fbe_status fbe_char_parse(fbe_kind kind, const char *text, size_t length, uint32_t *out,
                                  fbe_error *err);
/* UUID text (8-4-4-4-12, any case) <-> value; formatting writes 36 chars + NUL. */
FBE_API fbe_status fbe_uuid_parse(const char *text, size_t length, fbe_uuid *out);
FBE_API void fbe_uuid_format(const fbe_uuid *v, char out[37]);

#ifdef __cplusplus
}
#endif
#endif

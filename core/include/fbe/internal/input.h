/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* The input rules every binding shares (docs/INPUT.md): the words of a mistake, decided
 * once here so that the same mistake reads the same in every language. A binding only
 * says what kind of host value it was given (fbei_got); the core writes the message and
 * picks the status. Every function fills err (NULL allowed) and returns its status. */
#ifndef FBE_INTERNAL_INPUT_H
#define FBE_INTERNAL_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/error.h"
#include "fbe/schema.h"

/* What a host value is, in words shared by every language (the "got" of a type error). */
typedef enum fbei_got {
  FBEI_GOT_NULL,    /* None, nil, null, undefined */
  FBEI_GOT_BOOL,    /* True, true */
  FBEI_GOT_INTEGER, /* int, Integer, bigint, an integral JS number, long */
  FBEI_GOT_FLOAT,   /* a binary floating-point number: float, Float, a JS number with a fraction, Double */
  FBEI_GOT_STRING,  /* str, String (text) */
  FBEI_GOT_BYTES,   /* bytes, bytearray, memoryview, Uint8Array, Buffer, byte[] */
  FBEI_GOT_LIST,    /* list, tuple, Array, java.util.List */
  FBEI_GOT_SET,     /* set, frozenset, Set, java.util.Set */
  FBEI_GOT_MAP,     /* dict, Hash, Map, a plain JS object, java.util.Map */
  FBEI_GOT_STRUCT,  /* a struct value: name = its full name ("proto.Order") */
  FBEI_GOT_ENUM,    /* an enum or flags member: name = its type's full name */
  FBEI_GOT_TIME,    /* datetime, Time, Date, Instant */
  FBEI_GOT_UUID,    /* uuid.UUID, java.util.UUID */
  FBEI_GOT_DECIMAL, /* decimal.Decimal, BigDecimal */
  FBEI_GOT_OTHER    /* anything else: name = the host's class name */
} fbei_got;

/* "expected W, got G" (FBE_ERR_TYPE). W names the wanted type: the kind for scalars
 * ("int32", "string", "timestamp"), the full name for enums, flags and structs
 * ("proto.OrderSide"), "array[3] of int32", "vector of proto.Order", "map of string to
 * int32", "int32 or null" for an optional. G: "null", "a boolean", "an integer",
 * "a float", "a string", "bytes", "a list", "a set", "a map", "a struct proto.Order",
 * "an enum proto.OrderType", "a time", "a uuid", "a decimal", "a <name>". name: for
 * STRUCT, ENUM and OTHER (NULL otherwise). A hint follows where one rule explains the
 * refusal: a float for a decimal ("binary floats are not exact: pass a decimal or its
 * text"), a float for a timestamp ("pass integer nanoseconds or a time"), a float or
 * integer number where only a JS bigint is exact ("pass a bigint or a Date"; the binding
 * uses fbei_error_timestamp_number for that). */
fbe_status fbei_error_type(fbe_error *err, const fbe_type *want, fbei_got got, const char *name);
/* The same for a whole struct wanted where no fbe_type exists (a top-level argument). */
fbe_status fbei_error_type_struct(fbe_error *err, const fbe_struct *want, fbei_got got,
                                  const char *name);
/* A plain JS number given for a timestamp (ambiguous: milliseconds or nanoseconds?):
 * FBE_ERR_TYPE "expected timestamp, got a number (ambiguous: pass a bigint of
 * nanoseconds or a Date)". */
fbe_status fbei_error_timestamp_number(fbe_error *err);

/* W of fbei_error_type written into out (always terminated; truncated if small). */
void fbei_type_words(const fbe_type *t, char *out, size_t out_size);

/* A field name that st does not have: FBE_ERR_UNKNOWN_FIELD "unknown field 'symbl' of
 * proto.Order (did you mean 'symbol'?)": the suggestion is the field whose name is
 * nearest (edit distance at most a third of the longer name, ties: schema order), left
 * out when none is near. name need not be terminated. */
fbe_status fbei_error_unknown_field(fbe_error *err, const fbe_struct *st, const char *name, size_t length);

/* A type name the schema does not have: FBE_ERR_NOT_FOUND "no struct 'Acount' in
 * package proto (did you mean 'Account'?)". what: "type" (structs, enums and flags),
 * "struct" or "enum" (written "enum or flags"). The suggestion follows the rule of
 * fbei_error_unknown_field over the names a lookup accepts (full names, and the root
 * package's types by their short names). */
fbe_status fbei_error_unknown_type(fbe_error *err, const fbe_schema *schema, const char *what,
                                   const char *name, size_t length);

/* A struct without [key] fields asked for its order (`<`, compareTo, compare): FBE_ERR_TYPE
 * "proto.Balance has no [key] fields: its values have no order". */
fbe_status fbei_error_unordered(fbe_error *err, const fbe_struct *st);

/* Text that is not a valid value of its kind: FBE_ERR_ARGUMENT.
 * "'xyz' is not a uuid (8-4-4-4-12 hexadecimal digits)", "'abc' is not a decimal number",
 * "'ab' is not one character" (char, wchar given a string of another length),
 * "'%%%' is not Base64". text need not be terminated; long texts are cut with "...". */
fbe_status fbei_error_bad_text(fbe_error *err, fbe_kind kind, const char *text, size_t length);

/* A struct value of the wrong length for a fixed array: FBE_ERR_RANGE
 * "expected 3 elements for array[3] of int32, got 2". */
fbe_status fbei_error_array_length(fbe_error *err, const fbe_type *array, size_t got);

/* A number that does not fit its field: FBE_ERR_RANGE "value 300 does not fit uint8"
 * (fbei_error_range in fbe/internal/error.h: the same text) and, for values given as
 * a host's own integers, the same words from the 64-bit value itself. */
fbe_status fbei_error_int_range(fbe_error *err, int negative, uint64_t magnitude, fbe_kind kind);

#endif

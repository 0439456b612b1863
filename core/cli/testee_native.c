/* The C testee's native path: a message filled through the setter API from a JSON
 * value, as a C program fills one from its own data. C has no host objects, so each
 * JSON value stands for the C value of its kind, handed to the setter of the field:
 * true/false an int (fbe_ref_set_bool), an integer an int64_t/uint64_t (set_int,
 * set_uint), a number with a fraction or an exponent a double (set_double), a string a
 * char * (set_string), an object a struct filled member by member (fbe_ref_field), a
 * list the elements of an array or collection (fbe_ref_at, fbe_ref_append), a map its
 * entries (fbe_ref_map_append; keys from their text, struct keys as [key, value]
 * pairs). Where the API takes a parsed value, text goes through the core's parser, as a
 * C program would call it: decimals (fbe_decimal_parse), uuids (fbe_uuid_parse), enum
 * and flags names (fbe_enum_parse), Base64 for bytes, one character for a char. What a
 * field cannot take is refused in the core's words (fbe/internal/input.h) with its path,
 * so the answers line up with the other testees' (docs/INPUT.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testee_native.h"
#include "fbe/internal/base64.h"
#include "fbe/internal/error.h"
#include "fbe/internal/float_text.h"
#include "fbe/internal/input.h"
#include "fbe/internal/kinds.h"
#include "fbe/internal/utf8.h"

typedef enum json_kind { J_NULL, J_BOOL, J_INTEGER, J_FLOAT, J_STRING, J_LIST, J_MAP, J_OTHER } json_kind;

static const fbei_got GOT[] = {FBEI_GOT_NULL,   FBEI_GOT_BOOL, FBEI_GOT_INTEGER, FBEI_GOT_FLOAT,
                               FBEI_GOT_STRING, FBEI_GOT_LIST, FBEI_GOT_MAP,     FBEI_GOT_OTHER};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* JSON number syntax; *integral: no fraction and no exponent. */
static int is_number(span v, int *integral) {
  size_t i = v.len && v.at[0] == '-';
  size_t digits = i;
  while (i < v.len && is_digit(v.at[i])) i++;
  if (i == digits || (v.at[digits] == '0' && i > digits + 1)) return 0;
  *integral = 1;
  if (i < v.len && v.at[i] == '.') {
    size_t frac = ++i;
    while (i < v.len && is_digit(v.at[i])) i++;
    if (i == frac) return 0;
    *integral = 0;
  }
  if (i < v.len && (v.at[i] == 'e' || v.at[i] == 'E')) {
    i++;
    if (i < v.len && (v.at[i] == '+' || v.at[i] == '-')) i++;
    size_t exp = i;
    while (i < v.len && is_digit(v.at[i])) i++;
    if (i == exp) return 0;
    *integral = 0;
  }
  return i == v.len;
}

static json_kind kind_of(span v) {
  int integral;
  if (!v.len) return J_OTHER;
  switch (v.at[0]) {
    case 'n': return v.len == 4 && !memcmp(v.at, "null", 4) ? J_NULL : J_OTHER;
    case 't': return v.len == 4 && !memcmp(v.at, "true", 4) ? J_BOOL : J_OTHER;
    case 'f': return v.len == 5 && !memcmp(v.at, "false", 5) ? J_BOOL : J_OTHER;
    case '"': return J_STRING;
    case '[': return J_LIST;
    case '{': return J_MAP;
    default: return is_number(v, &integral) ? (integral ? J_INTEGER : J_FLOAT) : J_OTHER;
  }
}

/* "expected W, got G": words is the field's type as the message names it (an
 * optional's, for the value inside it: "int32 or null"). */
static fbe_status wrong_kind(fbe_error *err, const fbe_type *words, span v) {
  return fbei_error_type(err, words, GOT[kind_of(v)], kind_of(v) == J_OTHER ? "JSON token" : NULL);
}

static fbe_status no_memory(fbe_error *err) {
  return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
}

/* The number's text as a C string (cut when long), for the range messages. */
static const char *number_text(span v, char *out, size_t size) {
  size_t n = v.len < size - 4 ? v.len : size - 4;
  snprintf(out, size, "%.*s%s", (int)n, v.at, n < v.len ? "..." : "");
  return out;
}

/* An integer into a field of an integer-like kind (range: the kind, an enum's base). */
static fbe_status set_integer(fbe_ref r, fbe_kind range, span v, fbe_error *err) {
  char text[48];
  int negative = v.at[0] == '-';
  uint64_t mag = 0;
  for (size_t i = (size_t)negative; i < v.len; i++) {
    uint64_t digit = (uint64_t)(v.at[i] - '0');
    if (mag > (UINT64_MAX - digit) / 10) return fbei_error_range(err, number_text(v, text, sizeof text), range);
    mag = mag * 10 + digit;
  }
  if (!fbei_int_fits(range, negative, mag)) return fbei_error_int_range(err, negative, mag, range);
  fbe_status s = fbei_kind_is_signed(range) ? fbe_ref_set_int(r, (int64_t)fbei_int_pattern(negative, mag), NULL)
                                            : fbe_ref_set_uint(r, mag, NULL);
  return s ? fbei_error_int_range(err, negative, mag, range) : FBE_OK;
}

/* A number into a float or double: the C double the text reads as (beyond double: an
 * infinity, as strtod gives), refused only when a float cannot hold it. */
static fbe_status set_number(fbe_ref r, fbe_kind kind, span v, fbe_error *err) {
  double d;
  char text[48];
  if (fbei_number_parse(v.at, v.len, 0, &d)) d = v.at[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  if (kind == FBE_KIND_FLOAT && isfinite(d) && isinf((float)d))
    return fbei_error_range(err, number_text(v, text, sizeof text), FBE_KIND_FLOAT);
  return fbe_ref_set_double(r, d, NULL);
}

static fbe_status set_decimal_text(fbe_ref r, const char *s, size_t n, fbe_error *err) {
  fbe_decimal d;
  char text[64];
  fbe_status st = fbe_decimal_parse(s, n, &d);
  if (st == FBE_ERR_RANGE) {
    snprintf(text, sizeof text, "%.*s", (int)(n < 48 ? n : 48), s);
    return fbei_error_decimal_range(err, text);
  }
  if (st) return fbei_error_bad_text(err, FBE_KIND_DECIMAL, s, n);
  return fbe_ref_set_decimal(r, &d, NULL);
}

/* One character: its code point, refused when the text holds another number of them. */
static fbe_status set_char(fbe_ref r, fbe_kind kind, const char *s, size_t n, fbe_error *err) {
  const uint8_t *u = (const uint8_t *)s;
  size_t len = n ? fbei_utf8_sequence(u, n) : 0;
  if (!len || len != n) return fbei_error_bad_text(err, kind, s, n);
  uint32_t cp = len == 1 ? u[0]
                : len == 2 ? (uint32_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f)
                : len == 3 ? (uint32_t)(u[0] & 0x0f) << 12 | (uint32_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f)
                           : (uint32_t)(u[0] & 0x07) << 18 | (uint32_t)(u[1] & 0x3f) << 12 |
                                 (uint32_t)(u[2] & 0x3f) << 6 | (u[3] & 0x3f);
  if (!fbei_int_fits(kind, 0, cp)) return fbei_error_int_range(err, 0, cp, kind);
  return fbe_ref_set_uint(r, cp, NULL);
}

static fbe_status set_bytes_base64(fbe_ref r, const fbe_type *words, const char *s, size_t n, fbe_error *err) {
  uint8_t *data = malloc(n / 4 * 3 + 3);
  size_t bad;
  if (!data) return no_memory(err);
  ptrdiff_t len = fbei_base64_decode(s, n, data, &bad);
  /* not Base64: the string itself, which a bytes field does not take */
  fbe_status st = len < 0 ? fbei_error_type(err, words, FBEI_GOT_STRING, NULL)
                          : fbe_ref_set_bytes(r, data, (size_t)len, NULL);
  free(data);
  return st;
}

/* A string value into a field of any kind that takes text. */
static fbe_status set_text(fbe_ref r, const fbe_type *words, span v, fbe_error *err) {
  size_t n;
  char *s = json_string_decode(v, &n);
  if (!s) return no_memory(err);
  const fbe_type *t = r.type;
  fbe_kind kind = fbe_type_kind(t);
  fbe_status st;
  uint64_t bits;
  fbe_uuid u;
  switch (kind) {
    case FBE_KIND_STRING:
      st = fbe_utf8_check(s, n, err);
      if (!st && fbe_ref_set_bytes(r, s, n, NULL)) st = no_memory(err);
      break;
    case FBE_KIND_BYTES: st = set_bytes_base64(r, words, s, n, err); break;
    case FBE_KIND_DECIMAL: st = set_decimal_text(r, s, n, err); break;
    case FBE_KIND_UUID:
      st = fbe_uuid_parse(s, n, &u) ? fbei_error_bad_text(err, FBE_KIND_UUID, s, n) : fbe_ref_set_uuid(r, &u, NULL);
      break;
    case FBE_KIND_CHAR: case FBE_KIND_WCHAR: st = set_char(r, kind, s, n, err); break;
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS:
      st = fbe_enum_parse(fbe_type_enum(t), s, n, &bits, err);
      if (!st) st = fbei_kind_is_signed(fbe_enum_base(fbe_type_enum(t))) ? fbe_ref_set_int(r, (int64_t)bits, NULL)
                                                                        : fbe_ref_set_uint(r, bits, NULL);
      break;
    default: st = fbei_error_type(err, words, FBEI_GOT_STRING, NULL); break;
  }
  free(s);
  return st;
}

static fbe_status build(fbe_ref r, const fbe_type *words, span v, fbe_error *err);

static fbe_status build_struct(fbe_ref r, span v, fbe_error *err) {
  json_iter it;
  span name, value;
  int more;
  if (json_members_init(&it, v)) return wrong_kind(err, r.type, v);
  while ((more = json_members_next(&it, &name, &value)) == 1) {
    size_t n;
    char *text = json_string_decode(name, &n);
    if (!text) return no_memory(err);
    fbe_ref f = strlen(text) == n ? fbe_ref_field(r, text) : (fbe_ref){NULL, NULL, NULL};
    fbe_status st = fbe_ref_ok(f) ? build(f, f.type, value, err)
                                  : fbei_error_unknown_field(err, fbe_type_struct(r.type), text, n);
    if (st && fbe_ref_ok(f)) fbei_error_prepend_field(err, text);
    free(text);
    if (st) return st;
  }
  return more ? fbei_error_set(err, FBE_ERR_JSON, FBE_NO_OFFSET, "malformed JSON object") : FBE_OK;
}

static fbe_status build_elements(fbe_ref r, span v, fbe_error *err) {
  json_iter it;
  span item;
  int more;
  size_t count = 0;
  fbe_kind kind = fbe_type_kind(r.type);
  if (kind == FBE_KIND_ARRAY) { /* the length first: a fixed array takes exactly N */
    json_iter_init(&it, v);
    while ((more = json_iter_next(&it, &item)) == 1) count++;
    if (count != fbe_type_array_size(r.type)) return fbei_error_array_length(err, r.type, count);
  } else if (fbe_ref_clear(r, NULL)) {
    return wrong_kind(err, r.type, v);
  }
  json_iter_init(&it, v);
  for (size_t i = 0; (more = json_iter_next(&it, &item)) == 1; i++) {
    fbe_ref e = kind == FBE_KIND_ARRAY ? fbe_ref_at(r, i) : fbe_ref_append(r);
    if (!fbe_ref_ok(e)) return no_memory(err);
    fbe_status st = build(e, e.type, item, err);
    if (st) {
      fbei_error_prepend_index(err, i);
      return st;
    }
  }
  return more ? fbei_error_set(err, FBE_ERR_JSON, FBE_NO_OFFSET, "malformed JSON array") : FBE_OK;
}

/* A map entry's key from the text of a JSON object's member name: a number where the
 * key type is a number (the text of an integer or a number), true/false for a bool
 * key, else the string. */
static fbe_status build_key_text(fbe_ref key, span name, fbe_error *err) {
  size_t n;
  char *text = json_string_decode(name, &n);
  if (!text) return no_memory(err);
  fbe_kind kind = fbe_type_kind(key.type);
  span bare = {text, n};
  json_kind j = kind_of(bare);
  int numeric = kind != FBE_KIND_BOOL && kind <= FBE_KIND_TIMESTAMP && kind != FBE_KIND_DECIMAL &&
                kind != FBE_KIND_UUID;
  int as_text = !((j == J_INTEGER && (numeric || kind == FBE_KIND_ENUM || kind == FBE_KIND_FLAGS)) ||
                  (j == J_FLOAT && (kind == FBE_KIND_FLOAT || kind == FBE_KIND_DOUBLE)) ||
                  (j == J_BOOL && kind == FBE_KIND_BOOL));
  fbe_status st = build(key, key.type, as_text ? name : bare, err);
  free(text);
  return st;
}

static fbe_status build_map(fbe_ref r, span v, fbe_error *err) {
  json_iter it;
  span name, item, pair[2];
  int more;
  fbe_ref value;
  fbe_ref_clear(r, NULL);
  if (kind_of(v) == J_MAP) {
    json_members_init(&it, v);
    for (size_t i = 0; (more = json_members_next(&it, &name, &item)) == 1; i++) {
      fbe_ref key = fbe_ref_map_append(r, &value);
      if (!fbe_ref_ok(key)) return no_memory(err);
      fbe_status st = build_key_text(key, name, err);
      if (st) fbei_error_prepend_key(err);
      if (!st) st = build(value, value.type, item, err);
      if (st) {
        fbei_error_prepend_index(err, i);
        return st;
      }
    }
    return more ? fbei_error_set(err, FBE_ERR_JSON, FBE_NO_OFFSET, "malformed JSON object") : FBE_OK;
  }
  /* [[key, value], ...]: every element a pair, else the list is no map */
  json_iter_init(&it, v);
  while ((more = json_iter_next(&it, &item)) == 1) {
    json_iter in;
    size_t n = 0;
    if (json_iter_init(&in, item)) return wrong_kind(err, r.type, v);
    while (n < 3 && json_iter_next(&in, &pair[n < 2 ? n : 1]) == 1) n++;
    if (n != 2) return wrong_kind(err, r.type, v);
  }
  json_iter_init(&it, v);
  for (size_t i = 0; json_iter_next(&it, &item) == 1; i++) {
    json_iter in;
    json_iter_init(&in, item);
    json_iter_next(&in, &pair[0]);
    json_iter_next(&in, &pair[1]);
    fbe_ref key = fbe_ref_map_append(r, &value);
    if (!fbe_ref_ok(key)) return no_memory(err);
    fbe_status st = build(key, key.type, pair[0], err);
    if (st) fbei_error_prepend_key(err);
    if (!st) st = build(value, value.type, pair[1], err);
    if (st) {
      fbei_error_prepend_index(err, i);
      return st;
    }
  }
  return FBE_OK;
}

static fbe_status build(fbe_ref r, const fbe_type *words, span v, fbe_error *err) {
  fbe_kind kind = fbe_type_kind(r.type);
  json_kind j = kind_of(v);
  if (kind == FBE_KIND_OPTIONAL) {
    if (j == J_NULL) return fbe_ref_set_null(r, NULL);
    fbe_ref inner = fbe_ref_emplace(r);
    return fbe_ref_ok(inner) ? build(inner, words, v, err) : no_memory(err);
  }
  switch (j) {
    case J_BOOL:
      return kind == FBE_KIND_BOOL ? fbe_ref_set_bool(r, v.at[0] == 't', NULL) : wrong_kind(err, words, v);
    case J_INTEGER:
      if (kind == FBE_KIND_FLOAT || kind == FBE_KIND_DOUBLE) return set_number(r, kind, v, err);
      if (kind == FBE_KIND_DECIMAL) return set_decimal_text(r, v.at, v.len, err);
      if (kind == FBE_KIND_ENUM || kind == FBE_KIND_FLAGS)
        return set_integer(r, fbe_enum_base(fbe_type_enum(r.type)), v, err);
      if (kind != FBE_KIND_BOOL && kind <= FBE_KIND_UINT64) return set_integer(r, kind, v, err);
      if (kind == FBE_KIND_TIMESTAMP) return set_integer(r, kind, v, err);
      return wrong_kind(err, words, v);
    case J_FLOAT:
      if (kind == FBE_KIND_FLOAT || kind == FBE_KIND_DOUBLE) return set_number(r, kind, v, err);
      return wrong_kind(err, words, v); /* a decimal too: a double is not exact */
    case J_STRING: return set_text(r, words, v, err);
    case J_MAP:
      if (kind == FBE_KIND_STRUCT) return build_struct(r, v, err);
      if (kind == FBE_KIND_MAP || kind == FBE_KIND_HASH) return build_map(r, v, err);
      return wrong_kind(err, words, v);
    case J_LIST:
      if (kind == FBE_KIND_ARRAY || kind == FBE_KIND_VECTOR || kind == FBE_KIND_LIST || kind == FBE_KIND_SET)
        return build_elements(r, v, err);
      if (kind == FBE_KIND_MAP || kind == FBE_KIND_HASH) return build_map(r, v, err);
      return wrong_kind(err, words, v);
    default: return wrong_kind(err, words, v);
  }
}

fbe_status testee_native_build(const fbe_struct *type, span json, fbe_arena *arena, fbe_msg **out,
                               fbe_error *err) {
  *out = NULL;
  fbe_msg *msg = fbe_msg_new(arena, type);
  if (!msg) return no_memory(err);
  if (kind_of(json) != J_MAP) return fbei_error_type_struct(err, type, GOT[kind_of(json)], NULL);
  fbe_ref r = fbe_msg_ref(msg);
  fbe_status st = build_struct(r, json, err);
  if (!st) *out = msg;
  return st;
}

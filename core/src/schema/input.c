/* The input vocabulary (fbe/internal/input.h, docs/INPUT.md): the words of every
 * refused host value, and enum and flags values from their text (fbe_enum_parse). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "fbe/internal/error.h"
#include "fbe/internal/input.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/utf8.h"

/* How much of a given text a message quotes, and how long a name may be to get a
 * suggestion (no field name is near a longer one: the distance rule allows a third). */
#define QUOTE_MAX 48
#define NEAR_MAX 128

/* ---------------------------------------------------------------- words */

/* A given text as a message quotes it (without the quotes): at most QUOTE_MAX bytes, cut
 * at a character and followed by "..." when longer; control characters and bytes that
 * are not UTF-8 as \xNN, so the message stays one line of valid text. */
static void quote(char *out, size_t cap, const char *text, size_t length) {
  size_t n = 0, i = 0;
  const uint8_t *s = (const uint8_t *)text;
  out[0] = '\0';
  while (i < length && i < QUOTE_MAX) {
    size_t len = fbei_utf8_sequence(s + i, length - i);
    char piece[8];
    size_t plen;
    if (len == 0 || (len == 1 && (s[i] < 0x20 || s[i] == 0x7f))) {
      plen = (size_t)snprintf(piece, sizeof piece, "\\x%02x", s[i]);
      len = 1;
    } else {
      memcpy(piece, s + i, len);
      plen = len;
    }
    if (n + plen + 4 > cap) break;
    memcpy(out + n, piece, plen);
    n += plen;
    i += len;
  }
  if (i < length && n + 4 <= cap) {
    memcpy(out + n, "...", 3);
    n += 3;
  }
  out[n] = '\0';
}

static void append(char *out, size_t cap, size_t *n, const char *text) {
  if (*n >= cap) return;
  int w = snprintf(out + *n, cap - *n, "%s", text);
  if (w > 0) *n += (size_t)w < cap - *n ? (size_t)w : cap - *n - 1;
}

static void type_words(const fbe_type *t, char *out, size_t cap, size_t *n) {
  char part[48];
  switch (t->kind) {
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS:
      append(out, cap, n, t->enm->full_name);
      return;
    case FBE_KIND_STRUCT:
      append(out, cap, n, t->st->full_name);
      return;
    case FBE_KIND_OPTIONAL:
      type_words(t->elem, out, cap, n);
      append(out, cap, n, " or null");
      return;
    case FBE_KIND_ARRAY:
      snprintf(part, sizeof part, "array[%" PRIu32 "] of ", t->array_size);
      append(out, cap, n, part);
      type_words(t->elem, out, cap, n);
      return;
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
      append(out, cap, n, fbe_kind_name(t->kind));
      append(out, cap, n, " of ");
      type_words(t->elem, out, cap, n);
      return;
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      append(out, cap, n, fbe_kind_name(t->kind));
      append(out, cap, n, " of ");
      type_words(t->key, out, cap, n);
      append(out, cap, n, " to ");
      type_words(t->elem, out, cap, n);
      return;
    default:
      append(out, cap, n, fbe_kind_name(t->kind));
      return;
  }
}

void fbei_type_words(const fbe_type *t, char *out, size_t out_size) {
  if (!out || !out_size) return;
  out[0] = '\0';
  size_t n = 0;
  if (t) type_words(t, out, out_size, &n);
}

static void got_words(fbei_got got, const char *name, char *out, size_t cap) {
  static const char *const words[] = {
      [FBEI_GOT_NULL] = "null",       [FBEI_GOT_BOOL] = "a boolean", [FBEI_GOT_INTEGER] = "an integer",
      [FBEI_GOT_FLOAT] = "a float",   [FBEI_GOT_STRING] = "a string", [FBEI_GOT_BYTES] = "bytes",
      [FBEI_GOT_LIST] = "a list",     [FBEI_GOT_SET] = "a set",       [FBEI_GOT_MAP] = "a map",
      [FBEI_GOT_TIME] = "a time",     [FBEI_GOT_UUID] = "a uuid",     [FBEI_GOT_DECIMAL] = "a decimal",
  };
  const char *named = got == FBEI_GOT_STRUCT ? "a struct" : got == FBEI_GOT_ENUM ? "an enum" : "a";
  if (got == FBEI_GOT_STRUCT || got == FBEI_GOT_ENUM || got == FBEI_GOT_OTHER) {
    if (name && name[0]) {
      char q[QUOTE_MAX * 4 + 4];
      quote(q, sizeof q, name, strlen(name));
      snprintf(out, cap, "%s %s", named, q);
    } else {
      snprintf(out, cap, "%s", got == FBEI_GOT_OTHER ? "a value" : named);
    }
    return;
  }
  snprintf(out, cap, "%s", (unsigned)got < sizeof words / sizeof *words && words[got] ? words[got] : "a value");
}

/* The one rule that explains a refusal, when there is one: the wanted type's own kind
 * (through an optional) meets a float. */
static const char *hint(const fbe_type *want, fbei_got got) {
  while (want && want->kind == FBE_KIND_OPTIONAL) want = want->elem;
  if (!want || got != FBEI_GOT_FLOAT) return "";
  if (want->kind == FBE_KIND_DECIMAL) return " (binary floats are not exact: pass a decimal or its text)";
  if (want->kind == FBE_KIND_TIMESTAMP) return " (pass integer nanoseconds or a time)";
  return "";
}

fbe_status fbei_error_type(fbe_error *err, const fbe_type *want, fbei_got got, const char *name) {
  char w[128], g[QUOTE_MAX * 4 + 16];
  fbei_type_words(want, w, sizeof w);
  got_words(got, name, g, sizeof g);
  return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "expected %s, got %s%s", w, g, hint(want, got));
}

fbe_status fbei_error_type_struct(fbe_error *err, const fbe_struct *want, fbei_got got, const char *name) {
  char g[QUOTE_MAX * 4 + 16];
  got_words(got, name, g, sizeof g);
  return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "expected %s, got %s",
                        want ? want->full_name : "a struct", g);
}

fbe_status fbei_error_timestamp_number(fbe_error *err) {
  return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET,
                        "expected timestamp, got a number (ambiguous: pass a bigint of nanoseconds or a Date)");
}

/* ---------------------------------------------------------------- nearest names */

/* Levenshtein distance of a[0..an) and b[0..bn), both at most NEAR_MAX bytes. */
static size_t distance(const char *a, size_t an, const char *b, size_t bn) {
  size_t row[NEAR_MAX + 1];
  for (size_t j = 0; j <= bn; j++) row[j] = j;
  for (size_t i = 1; i <= an; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= bn; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[bn];
}

/* Whether candidate is near name (distance at most a third of the longer one) and
 * nearer than *best so far; updates *best. */
static bool nearer(const char *name, size_t length, const char *candidate, size_t *best) {
  size_t cn = strlen(candidate);
  if (length > NEAR_MAX || cn > NEAR_MAX) return false;
  size_t longer = length > cn ? length : cn;
  size_t d = distance(name, length, candidate, cn);
  if (d == 0 || d > longer / 3 || d >= *best) return false;
  *best = d;
  return true;
}

/* " (did you mean 'x'?)" or "" into out. */
static void suggestion(const char *near, char *out, size_t cap) {
  if (near) snprintf(out, cap, " (did you mean '%s'?)", near);
  else out[0] = '\0';
}

fbe_status fbei_error_unknown_field(fbe_error *err, const fbe_struct *st, const char *name, size_t length) {
  const char *near = NULL;
  size_t best = SIZE_MAX;
  for (uint32_t i = 0; st && i < st->nfields; i++)
    if (nearer(name, length, st->fields[i].name, &best)) near = st->fields[i].name;
  char q[QUOTE_MAX * 4 + 4], hint_text[NEAR_MAX + 24];
  quote(q, sizeof q, name ? name : "", name ? length : 0);
  suggestion(near, hint_text, sizeof hint_text);
  return fbei_error_set(err, FBE_ERR_UNKNOWN_FIELD, FBE_NO_OFFSET, "unknown field '%s' of %s%s", q,
                        st ? st->full_name : "a struct", hint_text);
}

/* A name is near a struct or enum when it is near its full name or, for the root
 * package's own types, its short name: the names a lookup accepts. */
static void nearer_type(const char *name, size_t length, const char *full, const char *root,
                        size_t *best, const char **near) {
  size_t rn = strlen(root);
  const char *shown = !strncmp(full, root, rn) && full[rn] == '.' ? full + rn + 1 : full;
  if (nearer(name, length, shown, best)) *near = shown;
  else if (shown != full && nearer(name, length, full, best)) *near = full;
}

fbe_status fbei_error_unknown_type(fbe_error *err, const fbe_schema *schema, const char *what,
                                   const char *name, size_t length) {
  const char *root = schema ? fbe_package_name(fbe_schema_root(schema)) : "";
  bool structs = strcmp(what, "enum") != 0, enums = strcmp(what, "struct") != 0;
  const char *near = NULL;
  size_t best = SIZE_MAX;
  for (size_t i = 0; schema && structs && i < fbe_schema_struct_count(schema); i++)
    nearer_type(name, length, fbe_struct_full_name(fbe_schema_struct_at(schema, i)), root, &best, &near);
  for (size_t i = 0; schema && enums && i < fbe_schema_enum_count(schema); i++)
    nearer_type(name, length, fbe_enum_full_name(fbe_schema_enum_at(schema, i)), root, &best, &near);
  char q[QUOTE_MAX * 4 + 4], hint_text[NEAR_MAX + 24];
  quote(q, sizeof q, name ? name : "", name ? length : 0);
  suggestion(near, hint_text, sizeof hint_text);
  return fbei_error_set(err, FBE_ERR_NOT_FOUND, FBE_NO_OFFSET, "no %s '%s' in package %s%s",
                        !strcmp(what, "enum") ? "enum or flags" : what, q, root, hint_text);
}

fbe_status fbei_error_unordered(fbe_error *err, const fbe_struct *st) {
  return fbei_error_set(err, FBE_ERR_TYPE, FBE_NO_OFFSET, "%s has no [key] fields: its values have no order",
                        st ? st->full_name : "a struct");
}

/* ---------------------------------------------------------------- texts and numbers */

fbe_status fbei_error_bad_text(fbe_error *err, fbe_kind kind, const char *text, size_t length) {
  char q[QUOTE_MAX * 4 + 4];
  quote(q, sizeof q, text ? text : "", text ? length : 0);
  switch (kind) {
    case FBE_KIND_UUID:
      return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                            "'%s' is not a uuid (8-4-4-4-12 hexadecimal digits)", q);
    case FBE_KIND_DECIMAL:
      return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "'%s' is not a decimal number", q);
    case FBE_KIND_CHAR: case FBE_KIND_WCHAR:
      return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "'%s' is not one character", q);
    case FBE_KIND_BYTES:
      return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "'%s' is not Base64", q);
    case FBE_KIND_STRING:
      return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "'%s' is not UTF-8 text", q);
    default: {
      const char *name = fbe_kind_name(kind);
      return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "'%s' is not %s %s", q,
                            strchr("aeio", name[0]) ? "an" : "a", name); /* "a uint64" */
    }
  }
}

fbe_status fbei_error_array_length(fbe_error *err, const fbe_type *array, size_t got) {
  char w[128];
  fbei_type_words(array, w, sizeof w);
  return fbei_error_set(err, FBE_ERR_RANGE, FBE_NO_OFFSET, "expected %" PRIu32 " element%s for %s, got %zu",
                        array ? array->array_size : 0, array && array->array_size == 1 ? "" : "s", w, got);
}

fbe_status fbei_error_int_range(fbe_error *err, int negative, uint64_t magnitude, fbe_kind kind) {
  char text[24];
  snprintf(text, sizeof text, "%s%" PRIu64, negative && magnitude ? "-" : "", magnitude);
  return fbei_error_range(err, text, kind);
}

/* ---------------------------------------------------------------- enum and flags text */

static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* A decimal number part of a flags text, at the base's width (unsigned bits). */
static bool parse_number(const fbe_enum *e, const char *s, size_t n, uint64_t *out) {
  if (n == 0 || n > 20) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  unsigned bits = fbei_kind_bits(e->base);
  if (bits < 64 && v >> bits) return false;
  *out = v;
  return true;
}

static fbe_status not_a_value(fbe_error *err, const fbe_enum *e, const char *s, size_t n) {
  const char *near = NULL;
  size_t best = SIZE_MAX;
  for (uint32_t i = 0; i < e->nvalues; i++)
    if (nearer(s, n, e->values[i].name, &best)) near = e->values[i].name;
  char q[QUOTE_MAX * 4 + 4], hint_text[NEAR_MAX + 24];
  quote(q, sizeof q, s, n);
  suggestion(near, hint_text, sizeof hint_text);
  return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "'%s' is not a value of %s%s", q,
                        e->full_name, hint_text);
}

/* The pattern at the base's width, sign-extended as the schema keeps values. */
static uint64_t extend(fbe_kind base, uint64_t v) {
  unsigned bits = fbei_kind_bits(base);
  if (bits >= 64) return v;
  v &= ((uint64_t)1 << bits) - 1;
  if (fbei_kind_is_signed(base) && (v >> (bits - 1)) & 1) v |= UINT64_MAX << bits;
  return v;
}

fbe_status fbe_enum_parse(const fbe_enum *e, const char *text, size_t length, uint64_t *out, fbe_error *err) {
  if (!e || !out || (!text && length))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_enum_parse: no type, text or output");
  if (!text) text = "";
  if (!e->is_flags) {
    if (!fbe_enum_find(e, text, length, out)) return not_a_value(err, e, text, length);
    return FBE_OK;
  }
  uint64_t v = 0;
  size_t i = 0;
  for (;;) {
    size_t start = i;
    while (i < length && text[i] != '|') i++;
    size_t a = start, b = i;
    while (a < b && is_space(text[a])) a++;
    while (b > a && is_space(text[b - 1])) b--;
    uint64_t part;
    if (!fbe_enum_find(e, text + a, b - a, &part) && !parse_number(e, text + a, b - a, &part))
      return not_a_value(err, e, text + a, b - a);
    v |= part;
    if (i == length) break;
    i++; /* the '|' */
  }
  *out = extend(e->base, v);
  return FBE_OK;
}

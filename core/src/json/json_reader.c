/* JSON reader: a recursive-descent parser directed by the schema type, writing straight
 * into the value (no document tree). Everything it allocates lives in the value's arena.
 *
 * Error codes: FBE_ERR_JSON for text that is not JSON; FBE_ERR_ARGUMENT for a string
 * whose content is not a value of the field (bad Base64, uuid or decimal text, an enum
 * or flags name the type does not declare, a bad map key: docs/INPUT.md's words);
 * FBE_ERR_UNKNOWN_FIELD for a member the struct does not have (unless ignore_unknown);
 * FBE_ERR_TYPE for a JSON value of the wrong kind (a string for an int32, null for a
 * non-optional, a fraction for an integer); FBE_ERR_RANGE for a number too large for its field or an
 * array of the wrong length; FBE_ERR_LIMIT beyond 832 nested containers, beyond
 * limits->max_depth levels of optionals and collections (the core's depth rule), for a
 * text over limits->max_model_size bytes, or when what it builds costs more than the
 * memory budget (cost.h: every allocation and FBE_VALUE_CHARGE per value, defaults
 * included; default FBE_DEFAULT_MEMORY_FACTOR x the text length + FLOOR). The error's
 * offset is the byte offset in the text, its path the value path ("orders[1].symbol").
 * On error the value may have been partly updated.
 *
 * Both forms the writer's options give are read always: enums and flags as numbers or
 * names ("sell", "initialized|calculated|64", fbe_enum_parse), and the integers of
 * 64-bit wire kinds (int64, uint64, timestamp, enums and flags on them) as numbers or
 * strings of their digits ("1543145597933000000").
 *
 * Strings: escapes are decoded (surrogate pairs joined, \u0000 kept); a lone surrogate
 * escape and raw bytes that are not UTF-8 are errors (FBE_ERR_JSON): a string is UTF-8
 * (fbe_utf8_check's rule) and nothing is replaced with U+FFFD. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "message/keys.h"
#include "fbe/json.h"
#include "fbe/internal/value.h"
#include "fbe/internal/cost.h"
#include "fbe/internal/error.h"
#include "fbe/internal/memory.h"
#include "fbe/internal/base64.h"
#include "fbe/internal/float_text.h"
#include "json/json_common.h"
#include "fbe/internal/utf8.h"
#include "fbe/internal/input.h"

typedef struct reader {
  const char *start, *p, *end;
  fbe_arena *arena;
  fbe_error *err;
  unsigned depth;     /* open JSON containers */
  fbe_buffer scratch; /* decoded text that does not outlive one value (keys, Base64...) */
  uint32_t levels, max_levels; /* optionals and collections (limits->max_depth) */
  uint64_t budget, limit;      /* the memory budget: left, whole (cost.h) */
  int ignore_unknown;          /* skip members a struct does not have */
} reader;

#define TRY(call)                 \
  do {                            \
    fbe_status s_ = (call);       \
    if (s_ != FBE_OK) return s_;  \
  } while (0)

static fbe_status read_value(reader *r, const fbe_type *t, void *slot);
static fbe_status skip_value(reader *r);

/* ---------------------------------------------------------------- errors */

static fbe_status fail(reader *r, fbe_status code, const char *at, const char *fmt, ...)
    FBE_PRINTF(4, 5);

static fbe_status fail(reader *r, fbe_status code, const char *at, const char *fmt, ...) {
  char msg[sizeof r->err->message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return fbei_error_set(r->err, code, (size_t)(at - r->start), "%s", msg);
}

/* How many characters of an offending text a message quotes. */
static int shown(size_t n) { return n > 40 ? 40 : (int)n; }

/* An error of the input vocabulary (fbe/internal/input.h) at text offset `at`. */
static fbe_status at_offset(reader *r, fbe_status code, const char *at) {
  if (r->err) r->err->offset = (size_t)(at - r->start);
  return code;
}

/* Text that is not a value of its kind (FBE_ERR_ARGUMENT: "'xyz' is not a uuid ..."). */
static fbe_status bad_text(reader *r, fbe_kind kind, const char *s, size_t n, const char *at) {
  return at_offset(r, fbei_error_bad_text(r->err, kind, s, n), at);
}

static fbe_status no_memory(reader *r) {
  return fail(r, FBE_ERR_NOMEM, r->p, "out of memory while reading JSON");
}

/* Takes `bytes` from the memory budget: an allocation, or the values of a new value. */
static fbe_status charge(reader *r, uint64_t bytes) {
  if (bytes <= r->budget) {
    r->budget -= bytes;
    return FBE_OK;
  }
  return fail(r, FBE_ERR_LIMIT, r->p,
              "reading JSON needs more than the memory budget of %llu bytes (max_memory)",
              (unsigned long long)r->limit);
}

/* Collections grow in the heap while they are read (a doubling buffer, charged while it
 * lives) and move to the arena, exactly sized, once closed (close_items): so the arena
 * keeps no outgrown copies, and what it holds is what the value costs (cost.h). */

/* A new zeroed item of `size` bytes at the end of v (NULL: err set); `values`: the
 * charge for its values and defaults. */
static void *grow_item(reader *r, fbei_vec *v, uint32_t size, uint64_t values) {
  if (charge(r, values)) return NULL;
  if (v->count == v->cap) {
    uint64_t cap = v->cap ? (uint64_t)v->cap * 2 : 4;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    if (v->count == cap || charge(r, (cap - v->cap) * size)) {
      if (v->count == cap) fail(r, FBE_ERR_RANGE, r->p, "more than %u elements", (unsigned)UINT32_MAX);
      return NULL;
    }
    void *data = fbei_mem_realloc(v->data, (size_t)(cap * size));
    if (!data) {
      no_memory(r);
      return NULL;
    }
    v->data = data;
    v->cap = (uint32_t)cap;
  }
  uint8_t *item = (uint8_t *)v->data + (size_t)v->count++ * size;
  memset(item, 0, size);
  return item;
}

/* Moves the items of v (heap) to out (arena), exactly sized; frees the heap buffer. */
static fbe_status close_items(reader *r, fbei_vec *v, uint32_t size, fbei_vec *out) {
  r->budget += (uint64_t)v->cap * size; /* the heap buffer goes */
  fbei_vec moved = {NULL, v->count, v->count};
  fbe_status s = charge(r, fbei_cost_bytes((uint64_t)v->count * size));
  if (!s && v->count && !(moved.data = fbe_arena_alloc(r->arena, (size_t)v->count * size)))
    s = no_memory(r);
  if (!s) {
    if (v->count) memcpy(moved.data, v->data, (size_t)v->count * size);
    *out = moved;
  }
  fbei_mem_free(v->data);
  v->data = NULL;
  return s;
}

/* Optionals and collections count one level each, as in decode. */
static fbe_status enter_level(reader *r) {
  if (++r->levels <= r->max_levels) return FBE_OK;
  return fail(r, FBE_ERR_LIMIT, r->p, "nesting deeper than %u levels (max_depth)", r->max_levels);
}

/* "unexpected end of JSON text" / "unexpected character 'x'", then what was wanted. */
static fbe_status syntax_error(reader *r, const char *expected) {
  if (r->p >= r->end)
    return fail(r, FBE_ERR_JSON, r->end, "unexpected end of JSON text, expected %s", expected);
  unsigned char c = (unsigned char)*r->p;
  if (c >= 0x20 && c < 0x7f)
    return fail(r, FBE_ERR_JSON, r->p, "unexpected character '%c', expected %s", c, expected);
  return fail(r, FBE_ERR_JSON, r->p, "unexpected byte 0x%02x, expected %s", c, expected);
}

/* What kind of JSON value starts at r->p, for messages. */
static const char *found_name(const reader *r) {
  switch (r->p < r->end ? *r->p : 0) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't': case 'f': return "a boolean";
    case 'n': return "null";
    default: return "a number";
  }
}

/* "an int32", "a uuid", "a struct proto.Order", "an enum proto.OrderSide". */
static void describe_type(const fbe_type *t, char *out, size_t size) {
  const char *name = fbe_kind_name(t->kind);
  const char *detail = t->kind == FBE_KIND_STRUCT ? t->st->full_name
                       : t->enm                   ? t->enm->full_name
                                                  : NULL;
  const char *article = strchr("aeio", name[0]) ? "an" : "a";
  snprintf(out, size, "%s %s%s%s", article, name, detail ? " " : "", detail ? detail : "");
}

/* Whether a JSON value can start at r->p (true/false/null spelled out in full). */
static int starts_value(const reader *r) {
  if (r->p >= r->end) return 0;
  const char *word = *r->p == 't' ? "true" : *r->p == 'f' ? "false" : *r->p == 'n' ? "null" : NULL;
  if (word) return (size_t)(r->end - r->p) >= strlen(word) && !memcmp(r->p, word, strlen(word));
  return *r->p && strchr("{[\"-0123456789", *r->p) != NULL;
}

/* "expected a string for a uuid field, found a number" at the current value. */
static fbe_status type_error(reader *r, const fbe_type *t, const char *expected) {
  char type[128];
  describe_type(t, type, sizeof type);
  if (!starts_value(r)) return syntax_error(r, "a value");
  return fail(r, FBE_ERR_TYPE, r->p, "expected %s for %s field, found %s", expected, type,
              found_name(r));
}

/* ---------------------------------------------------------------- lexing */

static void skip_ws(reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

/* Consumes c (after whitespace) or fails with "expected <what>". */
static fbe_status expect(reader *r, char c, const char *what) {
  skip_ws(r);
  if (r->p < r->end && *r->p == c) {
    r->p++;
    return FBE_OK;
  }
  return syntax_error(r, what);
}

/* Consumes the literal word (true, false, null) if it is next. */
static int take_literal(reader *r, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) return 0;
  r->p += n;
  return 1;
}

static fbe_status enter(reader *r) {
  if (r->depth >= FBE_JSON_MAX_DEPTH)
    return fail(r, FBE_ERR_LIMIT, r->p, "JSON nests deeper than %d levels", FBE_JSON_MAX_DEPTH);
  r->depth++;
  r->p++; /* the '{' or '[' */
  return FBE_OK;
}

/* After an element of a container: 1 when another follows (',' consumed), 0 at the
 * closing character (consumed). */
static fbe_status next_element(reader *r, char closing, int *more) {
  skip_ws(r);
  if (r->p < r->end && *r->p == ',') {
    r->p++;
    *more = 1;
    return FBE_OK;
  }
  if (r->p < r->end && *r->p == closing) {
    r->p++;
    r->depth--;
    *more = 0;
    return FBE_OK;
  }
  return syntax_error(r, closing == '}' ? "',' or '}'" : "',' or ']'");
}

/* Right after '{' or '[': consumes the closing character of an empty container. */
static int empty_container(reader *r, char closing) {
  skip_ws(r);
  if (r->p < r->end && *r->p == closing) {
    r->p++;
    r->depth--;
    return 1;
  }
  return 0;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Scans a JSON number at s. Returns 1 with *stop after it, or 0 with *stop at the byte
 * that breaks the syntax. *integral: neither fraction nor exponent. */
static int scan_number(const char *s, const char *end, const char **stop, int *integral) {
  const char *p = s;
  int ok = 0;
  *integral = 1;
  if (p < end && *p == '-') p++;
  if (p == end || !is_digit(*p)) goto done;
  if (*p == '0') p++;
  else
    while (p < end && is_digit(*p)) p++;
  if (p < end && *p == '.') {
    *integral = 0;
    if (++p == end || !is_digit(*p)) goto done;
    while (p < end && is_digit(*p)) p++;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    *integral = 0;
    if (++p < end && (*p == '+' || *p == '-')) p++;
    if (p == end || !is_digit(*p)) goto done;
    while (p < end && is_digit(*p)) p++;
  }
  ok = 1;
done:
  *stop = p;
  return ok;
}

/* The whole of s[0..n) is one JSON number. */
static int is_number_text(const char *s, size_t n, int *integral) {
  const char *stop;
  return scan_number(s, s + n, &stop, integral) && stop == s + n;
}

/* Consumes the number at r->p. */
static fbe_status take_number(reader *r, const char **text, size_t *len, int *integral) {
  const char *stop;
  if (!scan_number(r->p, r->end, &stop, integral)) {
    r->p = stop;
    return syntax_error(r, "a number");
  }
  *text = r->p;
  *len = (size_t)(stop - r->p);
  r->p = stop;
  return FBE_OK;
}

static int hex4(const char *p, uint32_t *out) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
    else return 0;
  }
  *out = v;
  return 1;
}

/* Decodes the JSON string at r->p (the opening quote) into memory from the arena
 * (to_arena) or into the scratch buffer (NUL-terminated). The decoded text is never
 * longer than the raw text, which bounds the allocation. */
static fbe_status read_string(reader *r, int to_arena, uint8_t **out, size_t *out_len) {
  const char *q = r->p + 1; /* find the closing quote first */
  while (q < r->end && *q != '"') q += *q == '\\' && r->end - q > 1 ? 2 : 1;
  if (q >= r->end) {
    r->p = r->end;
    return syntax_error(r, "'\"' to close the string");
  }
  size_t raw_len = (size_t)(q - r->p - 1);
  uint8_t *dst;
  if (to_arena) {
    static const uint8_t empty[1] = {0};
    TRY(charge(r, fbei_cost_bytes(raw_len)));
    dst = raw_len ? fbe_arena_alloc(r->arena, raw_len) : (uint8_t *)empty;
  } else {
    r->scratch.size = 0;
    dst = fbe_buffer_reserve(&r->scratch, raw_len + 1) ? NULL : r->scratch.data;
  }
  if (!dst) return no_memory(r);

  size_t n = 0;
  const char *p = r->p + 1;
  while (p < q) {
    unsigned char c = (unsigned char)*p;
    if (c == '\\') {
      static const char escapes[] = "\"\\/bfnrt", decoded[] = "\"\\/\b\f\n\r\t";
      const char *esc = p++;
      char e = *p++;
      const char *simple = e ? strchr(escapes, e) : NULL;
      if (simple) {
        dst[n++] = (uint8_t)decoded[simple - escapes];
        continue;
      }
      uint32_t cp;
      if (e != 'u' || q - p < 4 || !hex4(p, &cp)) {
        r->p = esc;
        return fail(r, FBE_ERR_JSON, esc, "invalid escape sequence in string");
      }
      p += 4;
      if (cp >= 0xd800 && cp <= 0xdfff) { /* a high surrogate wants a low one next */
        uint32_t lo;
        if (cp <= 0xdbff && q - p >= 6 && p[0] == '\\' && p[1] == 'u' && hex4(p + 2, &lo) &&
            lo >= 0xdc00 && lo <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          p += 6;
        } else {
          r->p = esc;
          return fail(r, FBE_ERR_JSON, esc,
                      "string is not valid UTF-8: a UTF-16 surrogate (U+%04X) without its pair",
                      (unsigned)cp);
        }
      }
      n += fbei_utf8_encode(cp, dst + n);
    } else if (c < 0x20) {
      return fail(r, FBE_ERR_JSON, p, "control character 0x%02x must be escaped in a string", c);
    } else if (c < 0x80) {
      dst[n++] = c;
      p++;
    } else {
      size_t len = fbei_utf8_sequence((const uint8_t *)p, (size_t)(q - p));
      if (!len) { /* the core's words for it; "byte N of M" counts the string's raw text */
        const uint8_t *raw = (const uint8_t *)r->p + 1;
        return fbei_utf8_error(r->err, FBE_ERR_JSON, (size_t)(r->p + 1 - r->start), raw, raw_len,
                              (size_t)((const uint8_t *)p - raw));
      }
      memcpy(dst + n, p, len);
      n += len;
      p += len;
    }
  }
  if (!to_arena) dst[n] = 0;
  r->p = q + 1;
  *out = dst;
  *out_len = n;
  return FBE_OK;
}

/* ---------------------------------------------------------------- scalars from text */

/* An integer in JSON syntax into an integer slot. Negative numbers are accepted for
 * unsigned kinds down to the signed minimum and kept modulo 2^bits (Java writes its
 * unsigned values signed). */
static fbe_status integer_from_text(reader *r, const fbe_type *t, void *slot, const char *s,
                                    size_t n, const char *at) {
  int negative = n && s[0] == '-';
  uint64_t mag = 0;
  int overflow = 0;
  for (size_t i = negative; i < n; i++) {
    uint64_t digit = (uint64_t)(s[i] - '0');
    if (mag > (UINT64_MAX - digit) / 10) overflow = 1;
    else mag = mag * 10 + digit;
  }
  unsigned bits = fbei_kind_bits(t->wire);
  uint64_t negative_limit = (uint64_t)1 << (bits - 1);                /* |signed min| */
  uint64_t positive_limit = fbei_kind_is_signed(t->wire) ? negative_limit - 1
                            : bits == 64                      ? UINT64_MAX
                                                              : ((uint64_t)1 << bits) - 1;
  if (overflow || mag > (negative ? negative_limit : positive_limit)) {
    char type[128];
    describe_type(t, type, sizeof type);
    return fail(r, FBE_ERR_RANGE, at, "%.*s is out of range for %s field", shown(n),
                s, type);
  }
  fbei_scalar_store(t->wire, slot, negative ? 0 - mag : mag);
  return FBE_OK;
}

static fbe_status real_from_text(reader *r, const fbe_type *t, void *slot, const char *s,
                                 size_t n, const char *at) {
  double v;
  int is_float = t->wire == FBE_KIND_FLOAT;
  if (fbei_number_parse(s, n, is_float, &v))
    return fail(r, FBE_ERR_RANGE, at, "%.*s is too large for a %s field", shown(n), s,
                is_float ? "float" : "double");
  if (is_float) {
    float f = (float)v; /* exact: v already is the nearest float */
    memcpy(slot, &f, sizeof f);
  } else {
    memcpy(slot, &v, sizeof v);
  }
  return FBE_OK;
}

static fbe_status decimal_from_text(reader *r, void *slot, const char *s, size_t n,
                                    const char *at) {
  fbe_decimal d;
  fbe_status st = fbe_decimal_parse(s, n, &d);
  if (st == FBE_ERR_RANGE)
    return fail(r, FBE_ERR_RANGE, at,
                "decimal %.*s does not fit (at most 96 bits of digits and 28 after the point)",
                shown(n), s);
  if (st) return bad_text(r, FBE_KIND_DECIMAL, s, n, at);
  memcpy(slot, &d, sizeof d);
  return FBE_OK;
}

static fbe_status uuid_from_text(reader *r, void *slot, const char *s, size_t n, const char *at) {
  fbe_uuid u;
  if (fbe_uuid_parse(s, n, &u)) return bad_text(r, FBE_KIND_UUID, s, n, at);
  memcpy(slot, &u, sizeof u);
  return FBE_OK;
}

static fbe_status bytes_from_text(reader *r, fbei_str *slot, const char *s, size_t n,
                                  const char *at) {
  TRY(charge(r, n ? fbei_cost_bytes(n / 4 * 3 + 1) : 0));
  uint8_t *data = n ? fbe_arena_alloc(r->arena, n / 4 * 3 + 1) : NULL;
  if (n && !data) return no_memory(r);
  size_t bad;
  ptrdiff_t len = fbei_base64_decode(s, n, data, &bad);
  if (len < 0) {
    bad_text(r, FBE_KIND_BYTES, s, n, at);
    if (r->err) /* where in the text it stops being Base64 */
      snprintf(r->err->message + strlen(r->err->message), sizeof r->err->message - strlen(r->err->message),
               " (at character %zu)", bad);
    return FBE_ERR_ARGUMENT;
  }
  if ((size_t)len > UINT32_MAX) return fail(r, FBE_ERR_RANGE, at, "bytes longer than 4 GiB");
  slot->data = len ? data : NULL;
  slot->size = (uint32_t)len;
  return FBE_OK;
}

/* An enum or flags value from a string: a name (fbe_enum_parse), or the digits of a
 * number on a 64-bit base (int64_strings) or in a map key. */
static fbe_status enum_from_text(reader *r, const fbe_type *t, void *slot, const char *s, size_t n,
                                 const char *at, int digits) {
  int integral;
  if (digits && is_number_text(s, n, &integral) && integral) return integer_from_text(r, t, slot, s, n, at);
  uint64_t v;
  if (fbe_enum_parse(t->enm, s, n, &v, r->err)) return at_offset(r, FBE_ERR_ARGUMENT, at);
  fbei_scalar_store(t->wire, slot, v);
  return FBE_OK;
}

/* A scalar from the text of a string (a JSON string value or a map key). */
static fbe_status scalar_from_text(reader *r, const fbe_type *t, void *slot, const char *s,
                                   size_t n, const char *at) {
  int integral;
  switch (t->wire) {
    case FBE_KIND_DECIMAL: return decimal_from_text(r, slot, s, n, at);
    case FBE_KIND_UUID: return uuid_from_text(r, slot, s, n, at);
    case FBE_KIND_BYTES: return bytes_from_text(r, slot, s, n, at);
    case FBE_KIND_BOOL:
      if (n == 4 && !memcmp(s, "true", 4)) *(uint8_t *)slot = 1;
      else if (n == 5 && !memcmp(s, "false", 5)) *(uint8_t *)slot = 0;
      else return bad_text(r, t->kind, s, n, at);
      return FBE_OK;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE:
      if (!is_number_text(s, n, &integral)) return bad_text(r, t->kind, s, n, at);
      return real_from_text(r, t, slot, s, n, at);
    default:
      if (t->enm) return enum_from_text(r, t, slot, s, n, at, 1);
      if (!is_number_text(s, n, &integral) || !integral) return bad_text(r, t->kind, s, n, at);
      return integer_from_text(r, t, slot, s, n, at);
  }
}

/* A JSON string where an integer kind is wanted: an enum's or flags' name, or the
 * digits of a 64-bit integer (the writer's int64_strings form). */
static fbe_status read_integer_text(reader *r, const fbe_type *t, void *slot) {
  const char *at = r->p;
  uint8_t *s = NULL;
  size_t n = 0;
  int integral;
  TRY(read_string(r, 0, &s, &n));
  if (t->enm) return enum_from_text(r, t, slot, (const char *)s, n, at, fbei_kind_bits(t->wire) == 64);
  if (!is_number_text((const char *)s, n, &integral) || !integral)
    return bad_text(r, t->kind, (const char *)s, n, at);
  return integer_from_text(r, t, slot, (const char *)s, n, at);
}

/* ---------------------------------------------------------------- values */

static fbe_status read_number_value(reader *r, const fbe_type *t, void *slot) {
  const char *at = r->p, *s = NULL;
  size_t n = 0;
  int integral = 1;
  TRY(take_number(r, &s, &n, &integral));
  if (t->wire == FBE_KIND_FLOAT || t->wire == FBE_KIND_DOUBLE)
    return real_from_text(r, t, slot, s, n, at);
  if (t->wire == FBE_KIND_DECIMAL) return decimal_from_text(r, slot, s, n, at);
  if (!integral) {
    char type[128];
    describe_type(t, type, sizeof type);
    return fail(r, FBE_ERR_TYPE, at, "expected an integer for %s field, found %.*s", type,
                shown(n), s);
  }
  return integer_from_text(r, t, slot, s, n, at);
}

/* A JSON string into a string/bytes/uuid/decimal slot. */
static fbe_status read_text_value(reader *r, const fbe_type *t, void *slot) {
  const char *at = r->p;
  uint8_t *s = NULL;
  size_t n = 0;
  if (t->wire == FBE_KIND_STRING) {
    TRY(read_string(r, 1, &s, &n));
    if (n > UINT32_MAX) return fail(r, FBE_ERR_RANGE, at, "string longer than 4 GiB");
    fbei_str *str = slot;
    str->data = n ? s : NULL;
    str->size = (uint32_t)n;
    return FBE_OK;
  }
  TRY(read_string(r, 0, &s, &n));
  return scalar_from_text(r, t, slot, (const char *)s, n, at);
}

static fbe_status read_struct(reader *r, const fbe_struct *st, uint8_t *slot) {
  TRY(enter(r));
  if (empty_container(r, '}')) return FBE_OK;
  int more = 1;
  while (more) {
    skip_ws(r);
    if (r->p >= r->end || *r->p != '"') return syntax_error(r, "a member name");
    const char *member = r->p;
    uint8_t *name = NULL;
    size_t name_len = 0;
    TRY(read_string(r, 0, &name, &name_len));
    TRY(expect(r, ':', "':'"));
    /* A name with an embedded NUL can match no field. */
    const fbe_field *f = memchr(name, 0, name_len) ? NULL : fbe_struct_field(st, (char *)name);
    skip_ws(r);
    if (f) {
      fbe_status s = read_value(r, f->type, slot + f->mem_offset);
      if (s) {
        fbei_error_prepend_field(r->err, f->name);
        return s;
      }
    } else if (r->ignore_unknown) {
      TRY(skip_value(r)); /* a member of a newer schema */
    } else {
      return at_offset(r, fbei_error_unknown_field(r->err, st, (const char *)name, name_len), member);
    }
    TRY(next_element(r, '}', &more));
  }
  return FBE_OK;
}

static fbe_status read_array(reader *r, const fbe_type *t, uint8_t *slot) {
  const char *at = r->p;
  const fbe_type *elem = t->elem;
  TRY(enter(r));
  uint32_t count = 0;
  int more = !empty_container(r, ']');
  while (more) {
    skip_ws(r);
    if (count == t->array_size)
      return fail(r, FBE_ERR_RANGE, at, "too many elements for an array of %u", t->array_size);
    fbe_status s = read_value(r, elem, slot + (size_t)count * elem->mem_size);
    if (s) {
      fbei_error_prepend_index(r->err, count);
      return s;
    }
    count++;
    TRY(next_element(r, ']', &more));
  }
  if (count != t->array_size)
    return fail(r, FBE_ERR_RANGE, at, "expected %u elements for an array of %u, found %u",
                t->array_size, t->array_size, count);
  return FBE_OK;
}

/* Vector, list, set: a new storage replaces the old one (which may be shared). */
static fbe_status read_elements(reader *r, const fbe_type *elem, fbei_vec *v) {
  int more = !empty_container(r, ']');
  uint64_t each = elem->cost + fbei_cost_image(elem);
  while (more) {
    skip_ws(r);
    uint32_t index = v->count;
    void *e = grow_item(r, v, elem->mem_size, each);
    if (!e) return r->err->code;
    if (fbe_value_init(elem, e, r->arena)) return no_memory(r);
    fbe_status s = read_value(r, elem, e);
    if (s) {
      fbei_error_prepend_index(r->err, index);
      return s;
    }
    TRY(next_element(r, ']', &more));
  }
  return FBE_OK;
}

static fbe_status read_vector(reader *r, const fbe_type *t, fbei_vec *slot) {
  fbei_vec v = {NULL, 0, 0};
  TRY(enter(r));
  TRY(enter_level(r));
  fbe_status s = read_elements(r, t->elem, &v);
  if (!s && t->kind == FBE_KIND_SET && fbei_keys_dedup(t, &v)) s = no_memory(r); /* keys.c */
  if (!s) s = close_items(r, &v, t->elem->mem_size, slot);
  fbei_mem_free(v.data);
  r->levels--;
  return s;
}

/* Appends a map entry with default key and value (NULL: err set). */
static uint8_t *new_pair(reader *r, const fbe_type *t, fbei_vec *v) {
  uint64_t values = t->key->cost + fbei_cost_image(t->key) + t->elem->cost + fbei_cost_image(t->elem);
  uint8_t *pair = grow_item(r, v, t->pair_stride, values);
  if (!pair) return NULL;
  if (fbe_value_init(t->key, pair, r->arena) ||
      fbe_value_init(t->elem, pair + t->pair_value_offset, r->arena)) {
    no_memory(r);
    return NULL;
  }
  return pair;
}

/* Map/hash from {"key": value, ...}; keys converted from their text, JSON order kept
 * (read_map collapses duplicates). */
static fbe_status read_map_object(reader *r, const fbe_type *t, fbei_vec *v) {
  int more = !empty_container(r, '}');
  while (more) {
    skip_ws(r);
    if (r->p >= r->end || *r->p != '"') return syntax_error(r, "a map key string");
    uint32_t index = v->count;
    uint8_t *pair = new_pair(r, t, v);
    if (!pair) return r->err->code;
    fbe_status s;
    if (t->key->wire == FBE_KIND_STRING) {
      s = read_text_value(r, t->key, pair);
    } else {
      const char *at = r->p;
      uint8_t *key = NULL;
      size_t n = 0;
      s = read_string(r, 0, &key, &n);
      if (!s) s = scalar_from_text(r, t->key, pair, (const char *)key, n, at);
    }
    if (!s) s = expect(r, ':', "':'");
    if (!s) {
      skip_ws(r);
      s = read_value(r, t->elem, pair + t->pair_value_offset);
    }
    if (s) {
      fbei_error_prepend_index(r->err, index);
      return s;
    }
    TRY(next_element(r, '}', &more));
  }
  return FBE_OK;
}

/* Map whose key is a struct, from [[key, value], ...]. */
static fbe_status read_map_pairs(reader *r, const fbe_type *t, fbei_vec *v) {
  int more = !empty_container(r, ']');
  while (more) {
    skip_ws(r);
    uint32_t index = v->count;
    uint8_t *pair = new_pair(r, t, v);
    if (!pair) return r->err->code;
    fbe_status s = FBE_OK;
    if (r->p >= r->end || *r->p != '[') s = syntax_error(r, "a [key, value] pair");
    if (!s) s = enter(r);
    if (!s) {
      skip_ws(r);
      s = read_value(r, t->key, pair);
    }
    if (!s) s = expect(r, ',', "',' between key and value");
    if (!s) {
      skip_ws(r);
      s = read_value(r, t->elem, pair + t->pair_value_offset);
    }
    if (!s) s = expect(r, ']', "']' to close the [key, value] pair");
    if (s) {
      fbei_error_prepend_index(r->err, index);
      return s;
    }
    r->depth--; /* the pair's ']' */
    TRY(next_element(r, ']', &more));
  }
  return FBE_OK;
}

static fbe_status read_map(reader *r, const fbe_type *t, fbei_vec *slot) {
  fbei_vec v = {NULL, 0, 0};
  TRY(enter(r));
  TRY(enter_level(r));
  fbe_status s = t->key->kind == FBE_KIND_STRUCT ? read_map_pairs(r, t, &v) : read_map_object(r, t, &v);
  if (!s && fbei_keys_dedup(t, &v)) s = no_memory(r); /* one entry per key, the last value (keys.c) */
  if (!s) s = close_items(r, &v, t->pair_stride, slot);
  fbei_mem_free(v.data);
  r->levels--;
  return s;
}

/* An optional: null, or a value in a new slot (the old one may be shared), starting
 * from the current value so that a partial object keeps the members it omits. */
static fbe_status read_optional(reader *r, const fbe_type *t, void *slot) {
  void *value = NULL;
  if (!take_literal(r, "null")) {
    const void *old;
    memcpy(&old, slot, sizeof old);
    TRY(enter_level(r));
    TRY(charge(r, fbei_cost_optional(t) + (old ? 0 : fbei_cost_image(t->elem))));
    value = fbe_arena_alloc(r->arena, t->elem->mem_size);
    if (!value) return no_memory(r);
    if (old) memcpy(value, old, t->elem->mem_size);
    else if (fbe_value_init(t->elem, value, r->arena)) return no_memory(r);
    TRY(read_value(r, t->elem, value));
    r->levels--;
  }
  memcpy(slot, &value, sizeof value);
  return FBE_OK;
}

/* Checks and skips any JSON value at r->p (an unknown member's). */
static fbe_status skip_value(reader *r) {
  if (r->p >= r->end) return syntax_error(r, "a value");
  char c = *r->p;
  uint8_t *s;
  size_t n;
  const char *ignored;
  int integral;
  if (c == '{') {
    TRY(enter(r));
    int more = !empty_container(r, '}');
    while (more) {
      skip_ws(r);
      if (r->p >= r->end || *r->p != '"') return syntax_error(r, "a member name");
      TRY(read_string(r, 0, &s, &n));
      TRY(expect(r, ':', "':'"));
      skip_ws(r);
      TRY(skip_value(r));
      TRY(next_element(r, '}', &more));
    }
    return FBE_OK;
  }
  if (c == '[') {
    TRY(enter(r));
    int more = !empty_container(r, ']');
    while (more) {
      skip_ws(r);
      TRY(skip_value(r));
      TRY(next_element(r, ']', &more));
    }
    return FBE_OK;
  }
  if (c == '"') return read_string(r, 0, &s, &n);
  if (take_literal(r, "true") || take_literal(r, "false") || take_literal(r, "null"))
    return FBE_OK;
  if (c != '-' && !is_digit(c)) return syntax_error(r, "a value");
  return take_number(r, &ignored, &n, &integral);
}

/* Reads the value at r->p (whitespace already skipped) into slot of type t. */
static fbe_status read_value(reader *r, const fbe_type *t, void *slot) {
  if (r->p >= r->end) return syntax_error(r, "a value");
  char c = *r->p;
  if (t->wire == FBE_KIND_OPTIONAL) return read_optional(r, t, slot);
  switch (t->wire) {
    case FBE_KIND_BOOL:
      if (take_literal(r, "true")) *(uint8_t *)slot = 1;
      else if (take_literal(r, "false")) *(uint8_t *)slot = 0;
      else return type_error(r, t, "true or false");
      return FBE_OK;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE:
      if (c != '-' && !is_digit(c)) return type_error(r, t, "a number");
      return read_number_value(r, t, slot);
    case FBE_KIND_DECIMAL:
      if (c == '"') return read_text_value(r, t, slot);
      if (c != '-' && !is_digit(c)) return type_error(r, t, "a string");
      return read_number_value(r, t, slot);
    case FBE_KIND_STRING: case FBE_KIND_UUID: case FBE_KIND_BYTES:
      if (c != '"')
        return type_error(r, t, t->wire == FBE_KIND_BYTES ? "a Base64 string" : "a string");
      return read_text_value(r, t, slot);
    case FBE_KIND_STRUCT:
      if (c != '{') return type_error(r, t, "an object");
      return read_struct(r, t->st, slot);
    case FBE_KIND_ARRAY:
      if (c != '[') return type_error(r, t, "an array");
      return read_array(r, t, slot);
    case FBE_KIND_VECTOR:
      if (c != '[') return type_error(r, t, "an array");
      return read_vector(r, t, slot);
    case FBE_KIND_MAP:
      if (t->key->kind == FBE_KIND_STRUCT) {
        if (c != '[') return type_error(r, t, "an array of [key, value] pairs");
      } else if (c != '{') {
        return type_error(r, t, "an object");
      }
      return read_map(r, t, slot);
    default:
      if (!fbei_json_is_integer_kind(t->wire))
        return fail(r, FBE_ERR_TYPE, r->p, "cannot read a value of kind %s",
                    fbe_kind_name(t->kind));
      if (c == '"' && (t->enm || fbei_kind_bits(t->wire) == 64)) return read_integer_text(r, t, slot);
      if (c != '-' && !is_digit(c)) return type_error(r, t, t->enm ? "an integer or a name" : "an integer");
      return read_number_value(r, t, slot);
  }
}

/* root: what the caller already took for the value read into (fbe_msg_from_json's new
 * message), charged first. */
static fbe_status json_read(fbe_ref value, const char *text, size_t length, const fbe_json_options *opts,
                            uint64_t root, fbe_error *err) {
  static const fbe_json_options defaults = {0, 0, 0, 0, NULL};
  if (!opts) opts = &defaults;
  const fbe_limits *limits = opts->limits;
  if (!value.type || !value.slot || !value.arena || (!text && length))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                         "fbe_json_read: no value, arena or text");
  if (!text) text = "";
  if (length > fbei_limits_size(limits))
    return fbei_error_set(err, FBE_ERR_LIMIT, 0,
                         "JSON text of %zu bytes exceeds the limit of %llu bytes (max_model_size)",
                         length, (unsigned long long)fbei_limits_size(limits));
  uint64_t limit = fbe_limits_memory(limits, length);
  reader r = {text, text, text + length, value.arena, err, 0, {NULL, 0, 0},
              0, fbei_limits_depth(limits), limit, limit, opts->ignore_unknown};
  if (charge(&r, root)) return err->code;
  skip_ws(&r);
  fbe_status s = read_value(&r, value.type, value.slot);
  if (!s) {
    skip_ws(&r);
    if (r.p < r.end) s = fail(&r, FBE_ERR_JSON, r.p, "unexpected text after the JSON value");
  }
  fbe_buffer_free(&r.scratch);
  return s;
}

fbe_status fbe_json_read_opts(fbe_ref value, const char *text, size_t length, const fbe_json_options *opts,
                              fbe_error *err) {
  return json_read(value, text, length, opts, 0, err);
}

fbe_status fbe_json_read_limited(fbe_ref value, const char *text, size_t length,
                                 const fbe_limits *limits, fbe_error *err) {
  fbe_json_options opts = {0, 0, 0, 0, limits};
  return json_read(value, text, length, &opts, 0, err);
}

fbe_status fbe_json_read(fbe_ref value, const char *text, size_t length, fbe_error *err) {
  return json_read(value, text, length, NULL, 0, err);
}

fbe_status fbe_msg_from_json_opts(const fbe_struct *type, const char *text, size_t length, fbe_arena *arena,
                                  const fbe_json_options *opts, fbe_msg **out, fbe_error *err) {
  if (!out) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_msg_from_json: no out");
  *out = NULL;
  if (!type || !arena)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                         "fbe_msg_from_json: no type or arena");
  fbe_msg *msg = fbe_msg_new(arena, type);
  if (!msg) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  fbe_status s = json_read(fbe_msg_ref(msg), text, length, opts,
                           fbei_cost_root(type) + type->default_cost, err);
  if (!s) *out = msg;
  return s;
}

fbe_status fbe_msg_from_json_limited(const fbe_struct *type, const char *text, size_t length,
                                     fbe_arena *arena, const fbe_limits *limits, fbe_msg **out,
                                     fbe_error *err) {
  fbe_json_options opts = {0, 0, 0, 0, limits};
  return fbe_msg_from_json_opts(type, text, length, arena, &opts, out, err);
}

fbe_status fbe_msg_from_json(const fbe_struct *type, const char *text, size_t length,
                             fbe_arena *arena, fbe_msg **out, fbe_error *err) {
  return fbe_msg_from_json_opts(type, text, length, arena, NULL, out, err);
}

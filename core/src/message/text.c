/* The text form of a value (text.h; the rules, numbered, in docs/TEXT.md). A walk of
 * the value with its schema type, like the JSON writer's, with the JSON writer's output
 * budget and depth rule. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fbe/text.h"
#include "fbe/internal/base64.h"
#include "fbe/internal/cost.h"
#include "fbe/internal/decimal.h"
#include "fbe/internal/error.h"
#include "fbe/internal/float_text.h"
#include "fbe/internal/utf8.h"
#include "fbe/internal/value.h"
#include "schema/enum_names.h"

/* Deepest nesting of brackets the walk recurses through (structs, collections, map
 * entries): the JSON writer's bound (FBE_JSON_MAX_DEPTH), which a value within the
 * depth rule does not reach (one level opens at most 3), so it only keeps plain structs
 * nested through many levels from exhausting the stack. */
#define TEXT_MAX_NESTING (3 * 256 + 64)

typedef struct writer {
  fbe_buffer *out;
  fbe_error *err;
  fbei_out_budget budget;
  uint32_t levels, max_levels; /* optionals and collections (the core's depth rule) */
  unsigned nesting;            /* open brackets */
} writer;

static fbe_status write_value(writer *w, const fbe_type *t, const void *slot);

#define TRY(call)                 \
  do {                            \
    fbe_status s_ = (call);       \
    if (s_ != FBE_OK) return s_;  \
  } while (0)

static fbe_status no_memory(writer *w) {
  return fbei_error_set(w->err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory while writing text");
}

/* Whether n more bytes fit the output budget (FBE_ERR_LIMIT when not). */
static inline fbe_status room(writer *w, size_t n) {
  if (fbei_out_fits(&w->budget, w->out->size, n)) return FBE_OK;
  return fbei_error_set(w->err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "text larger than %llu bytes (max_memory)",
                        (unsigned long long)w->budget.max);
}

static fbe_status put(writer *w, const void *data, size_t n) {
  TRY(room(w, n));
  return fbe_buffer_append(w->out, data, n) ? no_memory(w) : FBE_OK;
}

static fbe_status put_str(writer *w, const char *s) { return put(w, s, strlen(s)); }

static fbe_status put_unsigned(writer *w, uint64_t v) {
  char buf[24];
  return put(w, buf, (size_t)snprintf(buf, sizeof buf, "%" PRIu64, v));
}

/* A 64-bit pattern as the number of its kind: signed kinds sign-extended. */
static fbe_status put_integer(writer *w, fbe_kind kind, uint64_t pattern) {
  if (!fbei_kind_is_signed(kind)) return put_unsigned(w, pattern);
  char buf[24];
  return put(w, buf, (size_t)snprintf(buf, sizeof buf, "%" PRId64, (int64_t)pattern));
}

/* Brackets: open_bracket before a struct, collection or map entry, close_bracket after. */
static fbe_status open_bracket(writer *w, const char *bracket) {
  if (w->nesting >= TEXT_MAX_NESTING)
    return fbei_error_set(w->err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "value nests deeper than %d brackets",
                         TEXT_MAX_NESTING);
  w->nesting++;
  return put_str(w, bracket);
}

static fbe_status close_bracket(writer *w, char bracket) {
  w->nesting--;
  return put(w, &bracket, 1);
}

/* Optionals and collections count one level each, as in decode and the JSON writer. */
static fbe_status enter_level(writer *w) {
  if (++w->levels <= w->max_levels) return FBE_OK;
  return fbei_error_set(w->err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "nesting deeper than %u levels (max_depth)",
                       w->max_levels);
}

/* ---------------------------------------------------------------- characters */

static int is_control(uint32_t cp) { return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f); }

/* The escape of a character inside quotes, or 0 when it prints as itself (TEXT.md 4):
 * the quote, '\\', \n, \r, \t; other control characters, surrogates and numbers above
 * U+10FFFF as \u + 4 hex digits (\U + 8 above U+FFFF). */
static size_t escape(uint32_t cp, char quote, char out[12]) {
  out[0] = '\\';
  switch (cp) {
    case '\n': out[1] = 'n'; return 2;
    case '\r': out[1] = 'r'; return 2;
    case '\t': out[1] = 't'; return 2;
    case '\\': out[1] = '\\'; return 2;
    default: break;
  }
  if (cp == (uint32_t)quote) {
    out[1] = quote;
    return 2;
  }
  if (is_control(cp) || (cp >= 0xd800 && cp <= 0xdfff))
    return (size_t)snprintf(out, 12, "\\u%04" PRIx32, cp);
  if (cp > 0x10ffff) return (size_t)snprintf(out, 12, "\\U%08" PRIx32, cp);
  return 0;
}

/* char (a byte, read as U+0000-U+00FF) and wchar (a 32-bit number): 'a', '\n', 'é'. */
static fbe_status write_char(writer *w, uint32_t cp) {
  char buf[16];
  size_t n = 1;
  buf[0] = '\'';
  size_t esc = escape(cp, '\'', buf + 1);
  n += esc ? esc : fbei_utf8_encode(cp, (uint8_t *)buf + 1);
  buf[n++] = '\'';
  return put(w, buf, n);
}

/* A string: quoted, escaped, its UTF-8 kept; a string that is not UTF-8 (only a value
 * built by hand can hold one) is refused, as the JSON writer refuses it. */
static fbe_status write_string(writer *w, const fbei_str *str) {
  const uint8_t *s = str->data;
  size_t n = str->size, run = 0, i = 0;
  if (!n) return put(w, "\"\"", 2); /* s may be NULL */
  TRY(put(w, "\"", 1));
  while (i < n) {
    uint8_t c = s[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      i++;
      continue;
    }
    size_t len = fbei_utf8_sequence(s + i, n - i);
    if (!len) return fbei_utf8_error(w->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, s, n, i);
    /* what may need an escape is one byte, or two (U+0080-U+009F) */
    uint32_t cp = len == 1 ? c : len == 2 ? (uint32_t)(c & 0x1f) << 6 | (s[i + 1] & 0x3f) : 0;
    char esc[12];
    size_t esc_len = len <= 2 ? escape(cp, '"', esc) : 0;
    if (esc_len) {
      TRY(put(w, s + run, i - run));
      TRY(put(w, esc, esc_len));
      run = i + len;
    }
    i += len;
  }
  TRY(put(w, s + run, n - run));
  return put(w, "\"", 1);
}

/* ---------------------------------------------------------------- scalars */

/* The JSON writer's shortest round-trip form; nan (-nan with the sign bit) for the quiet
 * NaN without payload, nan(0xBITS) for any other NaN; inf, -inf. */
static fbe_status write_double(writer *w, double v, uint64_t bits, int hex_digits, uint64_t quiet) {
  char buf[FBE_DOUBLE_TEXT_MAX + 8];
  if (isnan(v)) {
    uint64_t sign_bit = (uint64_t)1 << (hex_digits * 4 - 1);
    if (bits == quiet) return put_str(w, "nan");
    if (bits == (quiet | sign_bit)) return put_str(w, "-nan");
    return put(w, buf, (size_t)snprintf(buf, sizeof buf, "nan(0x%0*" PRIx64 ")", hex_digits, bits));
  }
  if (isinf(v)) return put_str(w, v < 0 ? "-inf" : "inf");
  return put(w, buf, fbei_double_format(v, buf));
}

static fbe_status write_decimal(writer *w, const void *slot) {
  fbe_decimal d;
  memcpy(&d, slot, sizeof d);
  if (d.bytes[14] > 28) /* only a value built by hand: the JSON writer refuses it too */
    return fbei_error_set(w->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "decimal scale %d is above 28", d.bytes[14]);
  if (fbei_decimal_bad(d.bytes))
    return fbei_error_set(w->err, FBE_ERR_RANGE, FBE_NO_OFFSET, "decimal has reserved bits set");
  char buf[64];
  fbe_decimal_format(&d, buf, sizeof buf);
  return put_str(w, buf);
}

static fbe_status write_uuid(writer *w, const void *slot) {
  fbe_uuid u;
  memcpy(&u, slot, sizeof u);
  char buf[40];
  buf[0] = '"';
  fbe_uuid_format(&u, buf + 1);
  buf[37] = '"';
  return put(w, buf, 38);
}

/* bytes[N]"BASE64" */
static fbe_status write_bytes(writer *w, const fbei_str *b) {
  size_t len = fbei_base64_encoded_size(b->size);
  if (len > SIZE_MAX - 2) return no_memory(w);
  char head[24];
  TRY(put(w, head, (size_t)snprintf(head, sizeof head, "bytes[%" PRIu32 "]\"", b->size)));
  TRY(room(w, len + 1));
  if (fbe_buffer_reserve(w->out, len + 1)) return no_memory(w);
  uint8_t *p = w->out->data + w->out->size;
  if (b->size) fbei_base64_encode(b->data, b->size, (char *)p);
  p[len] = '"';
  w->out->size += len + 1;
  return FBE_OK;
}

/* ---------------------------------------------------------------- enums and flags */

static fbe_status write_name(writer *w, const fbei_enum_value *v) {
  return put_str(w, v->hidden ? "***" : v->name);
}

/* One part of an enum's or flags' name text (enum_names.h: the rule is shared with
 * the JSON writer's enum_names). */
typedef struct enum_ctx {
  writer *w;
  const fbe_enum *e;
} enum_ctx;

static fbe_status write_enum_part(void *ctx, size_t index, const fbei_enum_value *name, uint64_t number) {
  enum_ctx *c = ctx;
  if (index) TRY(put(c->w, "|", 1));
  if (name) return write_name(c->w, name);
  return c->e->is_flags ? put_unsigned(c->w, number) : put_integer(c->w, c->e->base, number);
}

/* An enum: the first declared value with this number, else the number. Flags: every
 * declared non-zero value whose bits are all set, then |N for the bits left. */
static fbe_status write_enum(writer *w, const fbe_enum *e, uint64_t pattern) {
  enum_ctx c = {w, e};
  return fbei_enum_parts(e, pattern, write_enum_part, &c);
}

/* ---------------------------------------------------------------- composites */

static fbe_status write_struct(writer *w, const fbe_struct *st, const uint8_t *slot) {
  TRY(put_str(w, st->name));
  TRY(open_bracket(w, "("));
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    if (i) TRY(put(w, ",", 1));
    TRY(put_str(w, f->name));
    TRY(put(w, "=", 1));
    fbe_status s = f->hidden ? put_str(w, "***") : write_value(w, f->type, slot + f->mem_offset);
    if (s) {
      fbei_error_prepend_field(w->err, f->name);
      return s;
    }
  }
  return close_bracket(w, ')');
}

/* [N] then count slots of elem inside the brackets: [a,b] or {a,b}. */
static fbe_status write_elements(writer *w, const fbe_type *elem, const uint8_t *data, size_t count,
                                 const char *brackets) {
  TRY(put_str(w, "["));
  TRY(put_unsigned(w, count));
  TRY(put_str(w, "]"));
  char opening[2] = {brackets[0], 0};
  TRY(open_bracket(w, opening));
  for (size_t i = 0; i < count; i++) {
    if (i) TRY(put(w, ",", 1));
    fbe_status s = write_value(w, elem, data + i * elem->mem_size);
    if (s) {
      fbei_error_prepend_index(w->err, i);
      return s;
    }
  }
  return close_bracket(w, brackets[1]);
}

/* [N]<{k->v},...> in the stored (wire) order. */
static fbe_status write_map(writer *w, const fbe_type *t, const fbei_vec *v) {
  const uint8_t *data = v->data;
  TRY(put_str(w, "["));
  TRY(put_unsigned(w, v->count));
  TRY(put_str(w, "]"));
  TRY(open_bracket(w, "<"));
  for (uint32_t i = 0; i < v->count; i++) {
    const uint8_t *pair = data + (size_t)i * t->pair_stride;
    fbe_status s = i ? put(w, ",", 1) : FBE_OK;
    if (!s) s = open_bracket(w, "{");
    if (!s) s = write_value(w, t->key, pair);
    if (!s) s = put(w, "->", 2);
    if (!s) s = write_value(w, t->elem, pair + t->pair_value_offset);
    if (!s) s = close_bracket(w, '}');
    if (s) {
      fbei_error_prepend_index(w->err, i);
      return s;
    }
  }
  return close_bracket(w, '>');
}

static fbe_status write_value(writer *w, const fbe_type *t, const void *slot) {
  switch (t->kind) {
    case FBE_KIND_BOOL: return put_str(w, *(const uint8_t *)slot ? "true" : "false");
    case FBE_KIND_CHAR: return write_char(w, *(const uint8_t *)slot);
    case FBE_KIND_WCHAR: return write_char(w, (uint32_t)fbei_scalar_load(FBE_KIND_WCHAR, slot));
    case FBE_KIND_FLOAT: {
      float f;
      uint32_t bits;
      memcpy(&f, slot, sizeof f);
      memcpy(&bits, slot, sizeof bits);
      return write_double(w, (double)f, bits, 8, 0x7fc00000u);
    }
    case FBE_KIND_DOUBLE: {
      double d;
      uint64_t bits;
      memcpy(&d, slot, sizeof d);
      memcpy(&bits, slot, sizeof bits);
      return write_double(w, d, bits, 16, 0x7ff8000000000000u);
    }
    case FBE_KIND_DECIMAL: return write_decimal(w, slot);
    case FBE_KIND_UUID: return write_uuid(w, slot);
    case FBE_KIND_STRING: return write_string(w, slot);
    case FBE_KIND_BYTES: return write_bytes(w, slot);
    case FBE_KIND_ENUM:
    case FBE_KIND_FLAGS: {
      if (t->enm->hidden) return put_str(w, "***");
      uint64_t pattern = fbei_scalar_load(t->wire, slot);
      return write_enum(w, t->enm, pattern);
    }
    case FBE_KIND_STRUCT:
      return t->st->hidden ? put_str(w, "***") : write_struct(w, t->st, slot);
    case FBE_KIND_OPTIONAL: {
      const void *value;
      memcpy(&value, slot, sizeof value);
      if (!value) return put_str(w, "null");
      TRY(enter_level(w));
      TRY(write_value(w, t->elem, value));
      w->levels--;
      return FBE_OK;
    }
    case FBE_KIND_ARRAY: return write_elements(w, t->elem, slot, t->array_size, "[]");
    case FBE_KIND_VECTOR:
    case FBE_KIND_LIST:
    case FBE_KIND_SET: {
      const fbei_vec *v = slot;
      TRY(enter_level(w));
      TRY(write_elements(w, t->elem, v->data, v->count, t->kind == FBE_KIND_SET ? "{}" : "[]"));
      w->levels--;
      return FBE_OK;
    }
    case FBE_KIND_MAP:
    case FBE_KIND_HASH:
      TRY(enter_level(w));
      TRY(write_map(w, t, slot));
      w->levels--;
      return FBE_OK;
    default: /* integers and timestamps */
      return put_integer(w, t->wire, fbei_scalar_load(t->wire, slot));
  }
}

/* ---------------------------------------------------------------- entry points */

fbe_status fbe_text_write(fbe_ref value, const fbe_limits *limits, fbe_buffer *out, fbe_error *err) {
  if (!value.type || !value.slot || !out)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_text_write: no value or no buffer");
  writer w = {out, err, fbei_out_budget_of(limits, out->size, value.type, value.slot), 0,
              fbei_limits_depth(limits), 0};
  fbe_status s = write_value(&w, value.type, value.slot);
  if (s) out->size = w.budget.start; /* no half-written text */
  return s;
}

fbe_status fbe_msg_to_text_limited(const fbe_msg *msg, const fbe_limits *limits, fbe_buffer *out,
                                   fbe_error *err) {
  if (!msg) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_msg_to_text: no message");
  fbe_ref r = {msg->type->self_type, fbei_msg_data(msg), msg->arena};
  return fbe_text_write(r, limits, out, err);
}

fbe_status fbe_msg_to_text(const fbe_msg *msg, fbe_buffer *out, fbe_error *err) {
  return fbe_msg_to_text_limited(msg, NULL, out, err);
}

fbe_status fbe_text_write_enum(const fbe_enum *type, uint64_t value, fbe_buffer *out, fbe_error *err) {
  if (!type || !out)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_text_write_enum: no type or no buffer");
  /* bounded by the declaration's names: no budget */
  writer w = {out, err, {out->size, UINT64_MAX, 0, NULL, NULL}, 0, 0, 0};
  uint64_t slot = 0; /* the value at the base's width, sign-extended as the schema keeps it */
  fbei_scalar_store(type->base, &slot, value);
  uint64_t pattern = fbei_scalar_load(type->base, &slot);
  fbe_status s = type->hidden ? put_str(&w, "***") : write_enum(&w, type, pattern);
  if (s) out->size = w.budget.start;
  return s;
}

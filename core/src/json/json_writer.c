/* JSON writer: walks a value with its schema type and appends the reference's JSON
 * form (FORMAT.md 10). Choices where the reference says nothing:
 *  - strings are written as UTF-8; a string that is not (fbe_utf8_check's rule; only a
 *    value built by hand can hold one: decode and the setters refuse them) is refused
 *    with FBE_ERR_ARGUMENT, never replaced with U+FFFD;
 *  - maps whose key is a struct are written as [[key, value], ...] pairs; keys of
 *    type bool, float, double or bytes cannot be written (FBE_ERR_TYPE);
 *  - NaN and infinities cannot be written (FBE_ERR_RANGE), nor decimals whose scale
 *    is above 28;
 *  - nesting deeper than limits->max_depth levels (optionals and collections, the
 *    core's rule) or 832 JSON containers is refused (FBE_ERR_LIMIT), as the reader
 *    refuses it;
 *  - the text is bounded (json.h: limits->max_memory, by default 32 x the value's cost
 *    + 1 MiB, FBE_ERR_LIMIT beyond): the default is only worked out (a walk of the
 *    value, cost.c) once the text passes the floor.
 * The options (fbe_json_options): enum_names writes enums and flags by the text form's
 * rule (schema/enum_names.h), as a string, or as the number when no name applies;
 * int64_strings writes the integers of 64-bit wire kinds (int64, uint64, timestamp,
 * enums and flags on them when written as numbers) as strings of their digits. */
#include <math.h>
#include <string.h>
#include "fbe/json.h"
#include "fbe/internal/value.h"
#include "fbe/internal/cost.h"
#include "fbe/internal/error.h"
#include "fbe/internal/base64.h"
#include "fbe/internal/float_text.h"
#include "json/json_common.h"
#include "fbe/internal/utf8.h"
#include "schema/enum_names.h"

typedef struct writer {
  fbe_buffer *out;
  int pretty, enum_names, int64_strings;
  unsigned depth; /* open JSON containers */
  fbe_error *err;
  fbei_out_budget budget;
  uint32_t levels, max_levels; /* optionals and collections (the core's depth rule) */
} writer;

static fbe_status write_value(writer *w, const fbe_type *t, const void *slot);

#define TRY(call)                 \
  do {                            \
    fbe_status s_ = (call);       \
    if (s_ != FBE_OK) return s_;  \
  } while (0)

static fbe_status no_memory(writer *w) {
  return fbei_error_set(w->err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory while writing JSON");
}

/* Whether n more bytes of text fit the output budget (FBE_ERR_LIMIT when not). */
static inline fbe_status room(writer *w, size_t n) {
  if (fbei_out_fits(&w->budget, w->out->size, n)) return FBE_OK;
  return fbei_error_set(w->err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "JSON output larger than %llu bytes (max_memory)",
                        (unsigned long long)w->budget.max);
}

static fbe_status put(writer *w, const void *data, size_t n) {
  TRY(room(w, n));
  return fbe_buffer_append(w->out, data, n) ? no_memory(w) : FBE_OK;
}

static fbe_status put_str(writer *w, const char *s) { return put(w, s, strlen(s)); }

static fbe_status newline(writer *w) {
  if (!w->pretty) return FBE_OK;
  TRY(room(w, 1 + 2 * (size_t)w->depth));
  if (fbe_buffer_reserve(w->out, 1 + 2 * (size_t)w->depth)) return no_memory(w);
  uint8_t *p = w->out->data + w->out->size;
  *p++ = '\n';
  memset(p, ' ', 2 * (size_t)w->depth);
  w->out->size += 1 + 2 * (size_t)w->depth;
  return FBE_OK;
}

/* Containers: open_container, item() before every element, close_container. */
static fbe_status open_container(writer *w, char c) {
  if (w->depth >= FBE_JSON_MAX_DEPTH)
    return fbei_error_set(w->err, FBE_ERR_LIMIT, FBE_NO_OFFSET,
                         "value nests deeper than %d JSON levels", FBE_JSON_MAX_DEPTH);
  w->depth++;
  return put(w, &c, 1);
}

static fbe_status item(writer *w, size_t index) {
  if (index) TRY(put(w, ",", 1));
  return newline(w);
}

static fbe_status close_container(writer *w, char c, size_t count) {
  w->depth--;
  if (count) TRY(newline(w));
  return put(w, &c, 1);
}

static fbe_status member_separator(writer *w) {
  return w->pretty ? put(w, ": ", 2) : put(w, ":", 1);
}

/* ---------------------------------------------------------------- scalars */

/* A 64-bit pattern of an integer wire kind: its digits, quoted for a 64-bit kind when
 * int64_strings asks (JSON readers that round to a double keep them exact). */
static fbe_status write_pattern(writer *w, fbe_kind wire, uint64_t pattern) {
  char buf[FBE_INTEGER_TEXT_MAX + 2];
  int quoted = w->int64_strings && fbei_kind_bits(wire) == 64;
  size_t n = quoted;
  buf[0] = '"';
  n += fbei_json_format_integer(wire, pattern, buf + n);
  if (quoted) buf[n++] = '"';
  return put(w, buf, n);
}

static fbe_status write_integer(writer *w, fbe_kind wire, const void *slot) {
  return write_pattern(w, wire, fbei_scalar_load(wire, slot));
}

/* enum_names: one part of an enum's or flags' names (enum_names.h); a value with no
 * name at all is one number part, written as the number. */
typedef struct names_ctx {
  writer *w;
  const fbe_type *t;
  int quoted, key; /* key: a map key, whose caller writes a lone number as a key */
} names_ctx;

static fbe_status write_name_part(void *ctx, size_t index, const fbei_enum_value *name, uint64_t number) {
  names_ctx *c = ctx;
  if (!name && index == 0) return c->key ? FBE_OK : write_pattern(c->w, c->t->wire, number);
  if (index == 0) {
    TRY(put(c->w, "\"", 1));
    c->quoted = 1;
  } else {
    TRY(put(c->w, "|", 1));
  }
  if (name) return put_str(c->w, name->name);
  char buf[FBE_INTEGER_TEXT_MAX];
  return put(c->w, buf, fbei_json_format_integer(FBE_KIND_UINT64, number, buf)); /* leftover bits */
}

static fbe_status write_names(writer *w, const fbe_type *t, const void *slot) {
  names_ctx c = {w, t, 0, 0};
  TRY(fbei_enum_parts(t->enm, fbei_scalar_load(t->wire, slot), write_name_part, &c));
  return c.quoted ? put(w, "\"", 1) : FBE_OK;
}

static fbe_status write_double(writer *w, double v) {
  if (!isfinite(v))
    return fbei_error_set(w->err, FBE_ERR_RANGE, FBE_NO_OFFSET,
                         "%s has no JSON form", isnan(v) ? "NaN" : "infinity");
  char buf[FBE_DOUBLE_TEXT_MAX];
  return put(w, buf, fbei_double_format(v, buf));
}

static fbe_status write_decimal(writer *w, const void *slot) {
  fbe_decimal d;
  memcpy(&d, slot, sizeof d);
  if (d.bytes[14] > 28)
    return fbei_error_set(w->err, FBE_ERR_RANGE, FBE_NO_OFFSET,
                         "decimal scale %d is above 28", d.bytes[14]);
  char buf[FBE_DECIMAL_TEXT_MAX + 2];
  buf[0] = '"';
  fbe_decimal_format(&d, buf + 1, FBE_DECIMAL_TEXT_MAX);
  size_t n = strlen(buf);
  buf[n++] = '"';
  return put(w, buf, n);
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

/* A JSON string: escapes what JSON requires, keeps valid UTF-8, refuses the rest. */
static fbe_status write_string(writer *w, const uint8_t *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  if (!n) return put(w, "\"\"", 2); /* s may be NULL */
  TRY(put(w, "\"", 1));
  size_t run = 0; /* start of the bytes not yet copied */
  size_t i = 0;
  while (i < n) {
    uint8_t c = s[i];
    size_t len = 1;
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0x80 && (len = fbei_utf8_sequence(s + i, n - i)) != 0) {
      i += len;
      continue;
    }
    TRY(put(w, s + run, i - run));
    char esc[8] = {'\\', 0};
    size_t esc_len = 2;
    switch (c) {
      case '"': esc[1] = '"'; break;
      case '\\': esc[1] = '\\'; break;
      case '\b': esc[1] = 'b'; break;
      case '\f': esc[1] = 'f'; break;
      case '\n': esc[1] = 'n'; break;
      case '\r': esc[1] = 'r'; break;
      case '\t': esc[1] = 't'; break;
      default:
        if (c < 0x20) {
          memcpy(esc + 1, "u00", 3);
          esc[4] = hex[c >> 4];
          esc[5] = hex[c & 15];
        } else {
          return fbei_utf8_error(w->err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, s, n, i);
        }
        esc_len = 6;
    }
    TRY(put(w, esc, esc_len));
    i++;
    run = i;
  }
  TRY(put(w, s + run, n - run));
  return put(w, "\"", 1);
}

static fbe_status write_bytes(writer *w, const fbei_str *b) {
  size_t len = fbei_base64_encoded_size(b->size);
  if (len > SIZE_MAX - 2) return no_memory(w);
  TRY(room(w, len + 2));
  if (fbe_buffer_reserve(w->out, len + 2)) return no_memory(w);
  uint8_t *p = w->out->data + w->out->size;
  p[0] = '"';
  if (b->size) fbei_base64_encode(b->data, b->size, (char *)p + 1);
  p[len + 1] = '"';
  w->out->size += len + 2;
  return FBE_OK;
}

/* ---------------------------------------------------------------- composites */

static fbe_status write_struct(writer *w, const fbe_struct *st, const uint8_t *slot) {
  TRY(open_container(w, '{'));
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    TRY(item(w, i));
    TRY(write_string(w, (const uint8_t *)f->name, strlen(f->name)));
    TRY(member_separator(w));
    fbe_status s = write_value(w, f->type, slot + f->mem_offset);
    if (s) {
      fbei_error_prepend_field(w->err, f->name);
      return s;
    }
  }
  return close_container(w, '}', st->nfields);
}

/* Elements of an array/vector/list/set: count slots of elem, back to back. */
static fbe_status write_elements(writer *w, const fbe_type *elem, const uint8_t *data,
                                 size_t count) {
  TRY(open_container(w, '['));
  for (size_t i = 0; i < count; i++) {
    TRY(item(w, i));
    fbe_status s = write_value(w, elem, data + i * elem->mem_size);
    if (s) {
      fbei_error_prepend_index(w->err, i);
      return s;
    }
  }
  return close_container(w, ']', count);
}

/* A map key as a JSON string (FORMAT.md 10: digits, string, uuid or decimal text). */
static fbe_status write_key(writer *w, const fbe_type *key, const void *slot) {
  switch (key->wire) {
    case FBE_KIND_STRING: {
      const fbei_str *s = slot;
      return write_string(w, s->data, s->size);
    }
    case FBE_KIND_UUID: return write_uuid(w, slot);
    case FBE_KIND_DECIMAL: return write_decimal(w, slot);
    default:
      if (w->enum_names && key->enm) {
        names_ctx c = {w, key, 0, 1};
        TRY(fbei_enum_parts(key->enm, fbei_scalar_load(key->wire, slot), write_name_part, &c));
        if (c.quoted) return put(w, "\"", 1);
        /* no name: the digits, as without the option */
      }
      if (fbei_json_is_integer_kind(key->wire)) {
        char buf[FBE_INTEGER_TEXT_MAX + 2];
        buf[0] = '"';
        uint64_t pattern = fbei_scalar_load(key->wire, slot);
        size_t n = 1 + fbei_json_format_integer(key->wire, pattern, buf + 1);
        buf[n++] = '"';
        return put(w, buf, n);
      }
      return fbei_error_set(w->err, FBE_ERR_TYPE, FBE_NO_OFFSET,
                           "map keys of type %s have no JSON form", fbe_kind_name(key->kind));
  }
}

static fbe_status write_map(writer *w, const fbe_type *t, const fbei_vec *v) {
  const uint8_t *data = v->data;
  int pairs = t->key->kind == FBE_KIND_STRUCT; /* [[key, value], ...] */
  TRY(open_container(w, pairs ? '[' : '{'));
  for (uint32_t i = 0; i < v->count; i++) {
    const uint8_t *pair = data + (size_t)i * t->pair_stride;
    fbe_status s = item(w, i);
    if (!s && pairs) {
      s = open_container(w, '[');
      if (!s) s = item(w, 0);
      if (!s) s = write_value(w, t->key, pair);
      if (!s) s = item(w, 1);
      if (!s) s = write_value(w, t->elem, pair + t->pair_value_offset);
      if (!s) s = close_container(w, ']', 2);
    } else if (!s) {
      s = write_key(w, t->key, pair);
      if (!s) s = member_separator(w);
      if (!s) s = write_value(w, t->elem, pair + t->pair_value_offset);
    }
    if (s) {
      fbei_error_prepend_index(w->err, i);
      return s;
    }
  }
  return close_container(w, pairs ? ']' : '}', v->count);
}

/* Optionals and collections count one level each, as in decode: the writer takes what
 * the reader and the decoder take (limits->max_depth). */
static fbe_status enter_level(writer *w) {
  if (++w->levels <= w->max_levels) return FBE_OK;
  return fbei_error_set(w->err, FBE_ERR_LIMIT, FBE_NO_OFFSET, "nesting deeper than %u levels (max_depth)",
                       w->max_levels);
}

static fbe_status write_value(writer *w, const fbe_type *t, const void *slot) {
  switch (t->wire) {
    case FBE_KIND_BOOL: return put_str(w, *(const uint8_t *)slot ? "true" : "false");
    case FBE_KIND_FLOAT: {
      float f;
      memcpy(&f, slot, sizeof f);
      return write_double(w, (double)f);
    }
    case FBE_KIND_DOUBLE: {
      double d;
      memcpy(&d, slot, sizeof d);
      return write_double(w, d);
    }
    case FBE_KIND_DECIMAL: return write_decimal(w, slot);
    case FBE_KIND_UUID: return write_uuid(w, slot);
    case FBE_KIND_STRING: {
      const fbei_str *s = slot;
      return write_string(w, s->data, s->size);
    }
    case FBE_KIND_BYTES: return write_bytes(w, slot);
    case FBE_KIND_STRUCT: return write_struct(w, t->st, slot);
    case FBE_KIND_OPTIONAL: {
      const void *value;
      memcpy(&value, slot, sizeof value);
      if (!value) return put_str(w, "null");
      TRY(enter_level(w));
      TRY(write_value(w, t->elem, value));
      w->levels--;
      return FBE_OK;
    }
    case FBE_KIND_ARRAY: return write_elements(w, t->elem, slot, t->array_size);
    case FBE_KIND_VECTOR: {
      const fbei_vec *v = slot;
      TRY(enter_level(w));
      TRY(write_elements(w, t->elem, v->data, v->count));
      w->levels--;
      return FBE_OK;
    }
    case FBE_KIND_MAP:
      TRY(enter_level(w));
      TRY(write_map(w, t, slot));
      w->levels--;
      return FBE_OK;
    default:
      if (w->enum_names && t->enm) return write_names(w, t, slot);
      if (fbei_json_is_integer_kind(t->wire)) return write_integer(w, t->wire, slot);
      return fbei_error_set(w->err, FBE_ERR_TYPE, FBE_NO_OFFSET, "cannot write a value of kind %s",
                           fbe_kind_name(t->kind));
  }
}

fbe_status fbe_json_write_opts(fbe_ref value, const fbe_json_options *opts, fbe_buffer *out, fbe_error *err) {
  if (!value.type || !value.slot || !out)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                         "fbe_json_write: no value or no buffer");
  static const fbe_json_options defaults = {0, 0, 0, 0, NULL};
  if (!opts) opts = &defaults;
  writer w = {out, opts->pretty, opts->enum_names, opts->int64_strings, 0, err,
              fbei_out_budget_of(opts->limits, out->size, value.type, value.slot), 0,
              fbei_limits_depth(opts->limits)};
  fbe_status s = write_value(&w, value.type, value.slot);
  if (s) out->size = w.budget.start; /* no half-written JSON */
  return s;
}

fbe_status fbe_json_write_limited(fbe_ref value, int pretty, const fbe_limits *limits,
                                  fbe_buffer *out, fbe_error *err) {
  fbe_json_options opts = {pretty, 0, 0, 0, limits};
  return fbe_json_write_opts(value, &opts, out, err);
}

fbe_status fbe_json_write(fbe_ref value, int pretty, fbe_buffer *out, fbe_error *err) {
  return fbe_json_write_limited(value, pretty, NULL, out, err);
}

fbe_status fbe_msg_to_json_opts(const fbe_msg *msg, const fbe_json_options *opts, fbe_buffer *out,
                                fbe_error *err) {
  if (!msg)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_msg_to_json: no message");
  fbe_ref r = {msg->type->self_type, fbei_msg_data(msg), msg->arena};
  return fbe_json_write_opts(r, opts, out, err);
}

fbe_status fbe_msg_to_json_limited(const fbe_msg *msg, int pretty, const fbe_limits *limits,
                                   fbe_buffer *out, fbe_error *err) {
  fbe_json_options opts = {pretty, 0, 0, 0, limits};
  return fbe_msg_to_json_opts(msg, &opts, out, err);
}

fbe_status fbe_msg_to_json(const fbe_msg *msg, int pretty, fbe_buffer *out, fbe_error *err) {
  return fbe_msg_to_json_limited(msg, pretty, NULL, out, err);
}

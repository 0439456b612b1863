/* Annotated hex dump (fbe/dump.h). The walk mirrors verify.c step by step (same
 * checks in the same order, same depth and work limits, same reasons and offsets),
 * but instead of only answering valid/invalid it records one range per field slot,
 * header, length, count and data block. The ranges are then sorted by offset and
 * printed with the uncovered bytes in between, so the text is in offset order even
 * though the walk is depth-first. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fbe/dump.h"
#include "endian.h"
#include "error_internal.h"
#include "float_text.h"
#include "schema_model.h"
#include "utf8.h"
#include "value.h"

/* One byte range and its text (label + meaning), kept in dumper.text. */
typedef struct range {
  uint64_t off, len;
  size_t text, text_len;
} range;

typedef struct dumper {
  const uint8_t *p;
  uint64_t size;        /* bytes of input */
  uint64_t end;         /* the walk stays inside [0, end) */
  const char *where;    /* "model", or "buffer" when the model size runs past the input */
  uint32_t depth, max_depth;
  uint64_t budget;      /* values left to visit (as in verify.c) */
  uint64_t max_ranges;  /* a valid model has at most one range per byte */
  const char *root;     /* label of the root struct's own lines */
  fbe_buffer ranges;    /* range[] */
  fbe_buffer text;      /* the ranges' texts, back to back */
  fbe_buffer path;      /* path of the value being walked, NUL-terminated */
  int offset_width;     /* hex digits of offsets */
  fbe_error *err;
} dumper;

#define STRING_SHOWN 48u /* bytes of a string or bytes value quoted before "..." */
#define PATH_SHOWN 120u  /* characters of a path before it is cut at the front */

/* ------------------------------------------------------------ errors */

static int nomem(dumper *d) {
  fbe_error_set(d->err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory while dumping");
  return -1;
}

/* Records the reason the walk stops, with the path of the value being walked. */
FBE_PRINTF(4, 5)
static int stop(dumper *d, fbe_status code, uint64_t offset, const char *fmt, ...) {
  if (d->err) {
    d->err->code = code;
    d->err->offset = (size_t)offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err->message, sizeof d->err->message, fmt, ap);
    va_end(ap);
    snprintf(d->err->path, sizeof d->err->path, "%s",
             d->path.data ? (const char *)d->path.data : "");
  }
  return -1;
}

#define FAIL(d, offset, ...) stop((d), FBE_ERR_MALFORMED, (offset), __VA_ARGS__)

static int too_deep(dumper *d, uint64_t offset) {
  return stop(d, FBE_ERR_LIMIT, offset, "nesting deeper than %u levels", d->max_depth);
}

static int over_budget(dumper *d, uint64_t offset) {
  return FAIL(d, offset, "more values than a %s of %llu bytes can hold", d->where,
              (unsigned long long)d->end);
}

/* Optionals and collections count as one nesting level and `values` visits. */
static int enter(dumper *d, uint64_t offset, uint64_t values) {
  if (++d->depth > d->max_depth) return too_deep(d, offset);
  if (values > d->budget) return over_budget(d, offset);
  d->budget -= values;
  return 0;
}

/* ------------------------------------------------------------ paths */

static const char *path_text(const dumper *d) {
  return d->path.size ? (const char *)d->path.data : "";
}

static int path_add(dumper *d, const char *part, size_t n) {
  if (fbe_buffer_reserve(&d->path, n + 1)) return nomem(d);
  memcpy(d->path.data + d->path.size, part, n);
  d->path.size += n;
  d->path.data[d->path.size] = '\0';
  return 0;
}

/* Appends ".name" (no dot at the start) and returns the old length in *mark. */
static int push_field(dumper *d, const char *name, size_t *mark) {
  *mark = d->path.size;
  return (d->path.size && path_add(d, ".", 1)) || path_add(d, name, strlen(name)) ? -1 : 0;
}

static int push_index(dumper *d, uint64_t i, size_t *mark) {
  char part[32];
  int n = snprintf(part, sizeof part, "[%llu]", (unsigned long long)i);
  *mark = d->path.size;
  return path_add(d, part, (size_t)n);
}

static void pop(dumper *d, size_t mark) {
  d->path.size = mark;
  if (d->path.data) d->path.data[mark] = '\0';
}

/* ------------------------------------------------------------ ranges */

FBE_PRINTF(3, 0)
static int text_vadd(dumper *d, size_t room, const char *fmt, va_list ap) {
  if (fbe_buffer_reserve(&d->text, room)) return nomem(d);
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf((char *)d->text.data + d->text.size, room, fmt, again);
  va_end(again);
  if (n < 0) n = 0;
  if ((size_t)n >= room) { /* rare: texts are short; size it exactly and redo */
    if (fbe_buffer_reserve(&d->text, (size_t)n + 1)) return nomem(d);
    vsnprintf((char *)d->text.data + d->text.size, (size_t)n + 1, fmt, ap);
  }
  d->text.size += (size_t)n;
  return 0;
}

FBE_PRINTF(2, 3)
static int text_add(dumper *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = text_vadd(d, 256, fmt, ap);
  va_end(ap);
  return rc;
}

/* Records [off, off+len) with the text "<label><sep><fmt...>". The label is the
 * current path (its last PATH_SHOWN characters), or the root struct's name when the
 * path is empty; sep NULL means no label. Empty ranges are not recorded. */
FBE_PRINTF(5, 6)
static int add(dumper *d, uint64_t off, uint64_t len, const char *sep, const char *fmt, ...) {
  if (!len) return 0;
  if (d->ranges.size / sizeof(range) >= d->max_ranges)
    return stop(d, FBE_ERR_LIMIT, off,
                "more byte ranges than a %s of %llu bytes holds (blocks shared by many pointers)",
                d->where, (unsigned long long)d->end);
  range r = {off, len, d->text.size, 0};
  if (sep) {
    const char *label = d->path.size ? path_text(d) : d->root;
    size_t n = strlen(label);
    if (n > PATH_SHOWN) {
      if (text_add(d, "...")) return -1;
      label += n - PATH_SHOWN;
    }
    if (text_add(d, "%s%s", label, sep)) return -1;
  }
  va_list ap;
  va_start(ap, fmt);
  int rc = text_vadd(d, 256, fmt, ap);
  va_end(ap);
  if (rc) return -1;
  r.text_len = d->text.size - r.text;
  return fbe_buffer_append(&d->ranges, &r, sizeof r) ? nomem(d) : 0;
}

#define NOTE(d, off, len, ...) add((d), (off), (len), ": ", __VA_ARGS__)
#define VALUE(d, off, len, ...) add((d), (off), (len), " = ", __VA_ARGS__)

/* "-> 0x0026 (base 0x0008)" parts of pointer lines. */
#define HEX(d, v) (d)->offset_width, (unsigned long long)(v)

/* ------------------------------------------------------------ values */

/* The integer in a slot of kind k: zero-extended; *bits receives its width. */
static uint64_t load_int(fbe_kind k, const uint8_t *s, unsigned *bits) {
  switch (k) {
    case FBE_KIND_INT16: case FBE_KIND_UINT16: *bits = 16; return fbe_load16(s);
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32:
      *bits = 32;
      return fbe_load32(s);
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      *bits = 64;
      return fbe_load64(s);
    default: *bits = 8; return s[0];
  }
}

static uint64_t mask_of(unsigned bits) {
  return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

/* Decimal text of the integer u of a `bits`-wide kind. */
static void int_text(uint64_t u, unsigned bits, int sign, char *out, size_t n) {
  if (sign && bits < 64 && (u >> (bits - 1)) & 1) u |= ~mask_of(bits); /* sign-extend */
  if (sign) snprintf(out, n, "%lld", (long long)u);
  else snprintf(out, n, "%llu", (unsigned long long)u);
}

/* Appends text to out[0..cap) at *len, cutting with "..." when full. */
static void cat(char *out, size_t cap, size_t *len, const char *text) {
  size_t n = strlen(text);
  if (*len + n + 4 > cap) {
    if (*len + 4 <= cap) memcpy(out + *len, "...", 4), *len += 3;
    return;
  }
  memcpy(out + *len, text, n + 1);
  *len += n;
}

/* " (name)" of an enum value, " (undeclared)" when no member has it. */
static void enum_names(const fbe_enum *e, uint64_t v, uint64_t mask, char *out, size_t cap) {
  for (uint32_t i = 0; i < e->nvalues; i++) {
    if ((e->values[i].value & mask) == v) {
      snprintf(out, cap, " (%s)", e->values[i].name);
      return;
    }
  }
  snprintf(out, cap, " (undeclared)");
}

/* " (a|b|0x40)" of a flags value: the member equal to it, else the single-bit members
 * it contains, then multi-bit members adding bits, then the bits left as hex. */
static void flags_names(const fbe_enum *e, uint64_t v, uint64_t mask, char *out, size_t cap) {
  size_t len = 0;
  out[0] = '\0';
  for (uint32_t i = 0; i < e->nvalues; i++) {
    if ((e->values[i].value & mask) == v) {
      snprintf(out, cap, " (%s)", e->values[i].name);
      return;
    }
  }
  if (!v) return;
  uint64_t covered = 0;
  cat(out, cap, &len, " (");
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = 0; i < e->nvalues; i++) {
      uint64_t m = e->values[i].value & mask;
      int single = m && !(m & (m - 1));
      if (!m || single != !pass || (m & v) != m || !(m & ~covered)) continue;
      if (covered) cat(out, cap, &len, "|");
      cat(out, cap, &len, e->values[i].name);
      covered |= m;
    }
  }
  if (v & ~covered) {
    char rest[24];
    snprintf(rest, sizeof rest, "%s0x%llx", covered ? "|" : "", (unsigned long long)(v & ~covered));
    cat(out, cap, &len, rest);
  }
  cat(out, cap, &len, ")");
}

/* Days since 1970-01-01 to a civil date (proleptic Gregorian; H. Hinnant's algorithm). */
static void civil_date(uint64_t days, unsigned long long *y, unsigned *m, unsigned *dd) {
  uint64_t z = days + 719468, era = z / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  *dd = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = (unsigned long long)yoe + era * 400 + (*m <= 2);
}

/* `"text"` with escapes, at most STRING_SHOWN bytes of s, then `... (N bytes)`. */
static void quote(const uint8_t *s, uint32_t n, char *out, size_t cap) {
  size_t len = 0;
  uint32_t shown = n < STRING_SHOWN ? n : STRING_SHOWN;
  out[len++] = '"';
  for (uint32_t i = 0; i < shown;) {
    char esc[16];
    size_t seq = fbe_utf8_sequence(s + i, shown - i);
    uint8_t c = s[i];
    if (seq > 1) {
      /* only 2-byte sequences can be C1 controls; longer ones pass as they are */
      uint32_t cp = seq == 2 ? (uint32_t)(c & 0x1f) << 6 | (s[i + 1] & 0x3f) : 0xa0;
      if (cp < 0xa0) snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp); /* C1 controls */
      else memcpy(esc, s + i, seq), esc[seq] = '\0';
    } else if (c == '"' || c == '\\') {
      snprintf(esc, sizeof esc, "\\%c", c);
    } else if (c == '\n') {
      snprintf(esc, sizeof esc, "\\n");
    } else if (c == '\t') {
      snprintf(esc, sizeof esc, "\\t");
    } else if (c == '\r') {
      snprintf(esc, sizeof esc, "\\r");
    } else if (c < 0x20 || c == 0x7f || !seq) {
      snprintf(esc, sizeof esc, "\\x%02x", c); /* controls and bytes that are not UTF-8 */
    } else {
      esc[0] = (char)c, esc[1] = '\0';
    }
    size_t k = strlen(esc);
    if (len + k + 1 >= cap) break;
    memcpy(out + len, esc, k);
    len += k;
    i += seq ? (uint32_t)seq : 1;
  }
  snprintf(out + len, cap - len, n > shown ? "\"... (%u bytes)" : "\"", (unsigned)n);
}

/* Hex of at most 16 bytes of a `bytes` value. */
static void hex_value(const uint8_t *s, uint32_t n, char *out, size_t cap) {
  size_t len = (size_t)snprintf(out, cap, "bytes");
  for (uint32_t i = 0; i < n && i < 16 && len + 4 < cap; i++)
    len += (size_t)snprintf(out + len, cap - len, " %02x", s[i]);
  if (n > 16) snprintf(out + len, cap - len, " ... (%u bytes)", (unsigned)n);
}

/* Text of the scalar of type t (wire kind, enum or flags) whose bytes are at s. */
static void scalar_text(const fbe_type *t, const uint8_t *s, char *out, size_t cap) {
  char names[256];
  unsigned bits = 0;
  uint64_t u;
  switch (t->wire) {
    case FBE_KIND_BOOL:
      if (s[0] > 1) snprintf(out, cap, "true (byte %u)", (unsigned)s[0]);
      else snprintf(out, cap, "%s", s[0] ? "true" : "false");
      return;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: {
      double v;
      if (t->wire == FBE_KIND_FLOAT) {
        float f;
        uint32_t w = fbe_load32(s);
        memcpy(&f, &w, 4);
        v = f;
      } else {
        uint64_t w = fbe_load64(s);
        memcpy(&v, &w, 8);
      }
      if (isnan(v)) snprintf(out, cap, "nan");
      else if (isinf(v)) snprintf(out, cap, "%sinf", v < 0 ? "-" : "");
      else {
        char num[FBE_DOUBLE_TEXT_MAX];
        fbe_double_format(v, num);
        snprintf(out, cap, "%s", num);
      }
      return;
    }
    case FBE_KIND_DECIMAL: {
      fbe_decimal dec;
      char num[64];
      memcpy(dec.bytes, s, 16);
      fbe_decimal_format(&dec, num, sizeof num);
      int reserved = s[12] || s[13] || (s[15] & 0x7f);
      char scale[24] = "";
      if (s[14] > 28) snprintf(scale, sizeof scale, " (scale %u > 28)", (unsigned)s[14]);
      snprintf(out, cap, "%s%s%s", num, reserved ? " (reserved bits set)" : "", scale);
      return;
    }
    case FBE_KIND_UUID: {
      fbe_uuid id;
      char text[37];
      memcpy(id.bytes, s, 16);
      fbe_uuid_format(&id, text);
      snprintf(out, cap, "%s", text);
      return;
    }
    case FBE_KIND_TIMESTAMP: {
      u = fbe_load64(s);
      uint64_t secs = u / 1000000000u, day = secs / 86400, sod = secs % 86400;
      unsigned long long y;
      unsigned m, dd;
      civil_date(day, &y, &m, &dd);
      snprintf(out, cap, "%llu (%04llu-%02u-%02uT%02u:%02u:%02u.%09uZ)", (unsigned long long)u,
               y, m, dd, (unsigned)(sod / 3600), (unsigned)(sod / 60 % 60), (unsigned)(sod % 60),
               (unsigned)(u % 1000000000u));
      return;
    }
    default:
      break;
  }
  u = load_int(t->wire, s, &bits);
  if (t->kind == FBE_KIND_FLAGS && t->enm) {
    flags_names(t->enm, u, mask_of(bits), names, sizeof names);
    snprintf(out, cap, "0x%0*llx%s", (int)(bits / 4), (unsigned long long)u, names);
    return;
  }
  char num[32];
  int_text(u, bits, fbe_kind_is_signed(t->wire), num, sizeof num);
  if (t->kind == FBE_KIND_ENUM && t->enm) {
    enum_names(t->enm, u, mask_of(bits), names, sizeof names);
    snprintf(out, cap, "%s%s", num, names);
  } else if (t->wire == FBE_KIND_CHAR) {
    if (u >= 0x20 && u < 0x7f)
      snprintf(out, cap, "'%s%c' (%s)", u == '\'' || u == '\\' ? "\\" : "", (char)u, num);
    else
      snprintf(out, cap, "%s", num);
  } else if (t->wire == FBE_KIND_WCHAR) {
    unsigned long long cp = u;
    if (cp > 0x10ffff) {
      snprintf(out, cap, "0x%08llx (not a code point)", cp);
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      snprintf(out, cap, "U+%04llX (surrogate)", cp);
    } else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) { /* controls: the number only */
      snprintf(out, cap, "U+%04llX", cp);
    } else {
      uint8_t utf8[5];
      utf8[fbe_utf8_encode((uint32_t)cp, utf8)] = '\0';
      snprintf(out, cap, "U+%04llX '%s%s'", cp, cp == '\'' || cp == '\\' ? "\\" : "",
               (const char *)utf8);
    }
  } else {
    snprintf(out, cap, "%s", num);
  }
}

/* Stops where verify does, with its words: e is verify's error for the value. */
static int stop_as_verify(dumper *d, const fbe_error *e) {
  return stop(d, e->code, e->offset, "%s", e->message);
}

static int scalar(dumper *d, const fbe_type *t, uint64_t at) {
  char text[320];
  scalar_text(t, d->p + at, text, sizeof text);
  if (VALUE(d, at, t->wire_size, "%s", text)) return -1;
  fbe_error e;
  if (t->wire == FBE_KIND_DECIMAL && fbe_decimal_bad(d->p + at))
    return fbe_decimal_error(&e, (size_t)at, d->p + at), stop_as_verify(d, &e);
  return 0;
}

/* The data of a string or bytes value: n bytes at `at`, already bounds-checked. A
 * string that is not UTF-8 ends the walk, as in verify. */
static int blob_data(dumper *d, fbe_kind wire, uint64_t at, uint32_t n) {
  char text[STRING_SHOWN * 6 + 64];
  if (wire == FBE_KIND_STRING) quote(d->p + at, n, text, sizeof text);
  else hex_value(d->p + at, n, text, sizeof text);
  if (VALUE(d, at, n, "%s", text)) return -1;
  size_t ok = wire == FBE_KIND_STRING ? fbe_utf8_valid_prefix(d->p + at, n) : n;
  fbe_error e;
  if (ok != n)
    return fbe_utf8_error(&e, FBE_ERR_MALFORMED, (size_t)at, d->p + at, n, ok), stop_as_verify(d, &e);
  return 0;
}

/* ------------------------------------------------------------ standard model */

/* Resolves the pointer at `slot` (relative to `base`) as verify.c does: the target must
 * hold `need` bytes inside [0, end) and lie after the slot. */
static int follow(dumper *d, uint64_t slot, uint64_t base, uint64_t need, uint64_t *out) {
  uint32_t ptr = fbe_load32(d->p + slot);
  uint64_t at = base + ptr;
  if (at <= slot || at > d->end || need > d->end - at) {
    if (!strcmp(d->where, "buffer")) /* truncated input: the walk of what is there */
      return FAIL(d, slot, "pointer %u leads outside the %s", ptr, d->where);
    fbe_error e; /* verify's words (error_internal.h) */
    fbe_error_bad_pointer(&e, slot, ptr, at);
    return stop(d, e.code, e.offset, "%s", e.message);
  }
  *out = at;
  return 0;
}

/* "pointer 30 -> 0x0026 (base 0x0008)", the line of a pointer slot. */
static int pointer_line(dumper *d, uint64_t slot, uint64_t base, const char *what) {
  uint32_t ptr = fbe_load32(d->p + slot);
  /* only a pointer stored in an optional's value slot is relative to itself */
  return NOTE(d, slot, 4, "pointer %u -> %s0x%0*llx (base 0x%0*llx%s)", ptr, what,
              HEX(d, base + ptr), HEX(d, base), base == slot ? ": the value slot" : "");
}

static int std_value(dumper *d, const fbe_type *t, uint64_t slot, uint64_t base);

/* The u32 length in front of string or bytes data (both models). */
static int length_line(dumper *d, uint64_t at, uint32_t n, fbe_kind wire) {
  const char *empty = wire == FBE_KIND_STRING ? " (\"\")" : " (empty)";
  return NOTE(d, at, 4, "length %u%s", n, n ? "" : empty);
}

static int std_blob(dumper *d, fbe_kind wire, uint64_t slot, uint64_t base) {
  uint64_t at = 0;
  if (fbe_load32(d->p + slot) == 0) return NOTE(d, slot, 4, "pointer 0 (no data: the default)");
  if (pointer_line(d, slot, base, "") || follow(d, slot, base, 4, &at)) return -1;
  uint32_t n = fbe_load32(d->p + at);
  if (length_line(d, at, n, wire)) return -1;
  if (n > d->end - at - 4) return FAIL(d, at, "size %u runs past the end of the %s", n, d->where);
  return blob_data(d, wire, at + 4, n);
}

/* The fields of a body of `size` bytes at b that fit (the inherited part only as a
 * whole, FORMAT.md 5.10), then whatever the body holds beyond them. */
static int std_fields(dumper *d, const fbe_struct *st, uint64_t b, uint32_t size) {
  uint32_t known = 8;
  const fbe_field *missing = NULL;
  for (uint32_t i = st->base_body_size <= size ? 0 : st->ninherited; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    if (f->wire_offset + f->type->wire_size > size) {
      missing = f;
      break;
    }
    size_t mark;
    if (push_field(d, f->name, &mark) || std_value(d, f->type, b + f->wire_offset, b)) return -1;
    pop(d, mark);
    known = f->wire_offset + f->type->wire_size;
  }
  if (st->base_body_size > size && st->ninherited) missing = &st->fields[0];
  if (known >= size) return 0;
  if (missing)
    return NOTE(d, b + known, size - known, "%u bytes not read: too few for field '%s'",
                size - known, missing->name);
  return NOTE(d, b + known, size - known, "%u bytes after the last known field (newer writer)",
              size - known);
}

static int std_struct(dumper *d, uint64_t slot, uint64_t base, const fbe_struct *st, int root) {
  uint64_t b = 0;
  uint32_t ptr = fbe_load32(d->p + slot);
  if (root) {
    if (add(d, slot, 4, NULL, "model: root pointer %u -> 0x%0*llx (base 0x%0*llx)", ptr,
            HEX(d, base + ptr), HEX(d, base)))
      return -1;
  } else if (ptr == 0 ? NOTE(d, slot, 4, "pointer 0") : pointer_line(d, slot, base, "")) {
    return -1;
  }
  if (ptr == 0) return FAIL(d, slot, "struct pointer is 0");
  if (follow(d, slot, base, 8, &b)) return -1;
  if (d->budget == 0) return over_budget(d, b); /* shared bodies must not multiply the work */
  d->budget--;
  uint32_t size = fbe_load32(d->p + b), type_id = fbe_load32(d->p + b + 4);
  const char *age = size < st->body_size ? ", older writer" : ", newer writer";
  int rc = size == st->body_size
               ? (root ? NOTE(d, b, 4, "body size %u", size)
                       : NOTE(d, b, 4, "body size %u (%s)", size, st->full_name))
               : NOTE(d, b, 4, "body size %u (%s: %u in the schema%s)", size, st->full_name,
                      st->body_size, age);
  if (rc || NOTE(d, b + 4, 4, "type id %u", type_id)) return -1;
  if (size < 8) return FAIL(d, b, "struct size %u is smaller than its 8-byte header", size);
  if (size > d->end - b)
    return FAIL(d, b, "struct size %u runs past the end of the %s", size, d->where);
  if (type_id != st->type_id)
    return FAIL(d, b + 4, "type id %u where %s (%u) was expected", type_id, st->full_name,
                st->type_id);
  return std_fields(d, st, b, size);
}

static int std_value(dumper *d, const fbe_type *t, uint64_t slot, uint64_t base) {
  uint64_t at = 0;
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return std_blob(d, t->wire, slot, base);
    case FBE_KIND_STRUCT: return std_struct(d, slot, base, t->st, 0);
    case FBE_KIND_OPTIONAL: {
      uint8_t flag = d->p[slot];
      uint32_t ptr = fbe_load32(d->p + slot + 1);
      if (flag == 0)
        return NOTE(d, slot, 1, "null (flag 0)") ||
               NOTE(d, slot + 1, 4, "pointer %u (%s: null)", ptr, ptr ? "ignored" : "unused");
      if (flag == 1 ? NOTE(d, slot, 1, "has value (flag 1)")
                    : NOTE(d, slot, 1, "has value (flag %u, not 1)", (unsigned)flag))
        return -1;
      if (ptr == 0) {
        if (NOTE(d, slot + 1, 4, "pointer 0")) return -1;
        return FAIL(d, slot, "optional marked present has no value");
      }
      if (pointer_line(d, slot + 1, base, "value slot ") ||
          follow(d, slot + 1, base, t->elem->wire_size, &at) || enter(d, at, 1))
        return -1;
      /* the base moves to the value slot (FORMAT.md 5.5) */
      if (t->elem->wire == FBE_KIND_STRUCT ? std_struct(d, at, at, t->elem->st, 0)
                                           : std_value(d, t->elem, at, at))
        return -1;
      d->depth--;
      return 0;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++) {
        size_t mark;
        if (push_index(d, i, &mark) ||
            std_value(d, t->elem, slot + (uint64_t)i * t->elem->wire_size, base))
          return -1;
        pop(d, mark);
      }
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      if (fbe_load32(d->p + slot) == 0) return NOTE(d, slot, 4, "pointer 0 (empty)");
      if (pointer_line(d, slot, base, "") || follow(d, slot, base, 4, &at)) return -1;
      uint32_t n = fbe_load32(d->p + at);
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint64_t stride = (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0);
      if (NOTE(d, at, 4, "count %u", n)) return -1;
      if (stride * n > d->end - at - 4)
        return FAIL(d, at, "%u elements do not fit in the %s", n, d->where);
      if (enter(d, at, n)) return -1;
      for (uint32_t i = 0; i < n; i++) {
        uint64_t item = at + 4 + i * stride;
        size_t mark, inner;
        if (push_index(d, i, &mark)) return -1;
        if (k) {
          if (push_field(d, "key", &inner) || std_value(d, k, item, base)) return -1;
          pop(d, inner);
          if (push_field(d, "value", &inner) || std_value(d, t->elem, item + k->wire_size, base))
            return -1;
        } else if (std_value(d, t->elem, item, base)) {
          return -1;
        }
        pop(d, mark);
      }
      d->depth--;
      return 0;
    }
    default:
      return scalar(d, t, slot);
  }
}

/* The model size line (when 4 bytes are there); `least` is the smallest model. */
static int size_line(dumper *d, uint32_t total, uint64_t least) {
  if (d->size < 4) return 0;
  if (d->size >= least && total > d->size)
    return add(d, 0, 4, NULL, "model: size %u (only %llu bytes are here)", total,
               (unsigned long long)d->size);
  return add(d, 0, 4, NULL, "model: size %u", total);
}

/* Returns 0 when the model is valid; *model_end receives where the model ends (0:
 * unknown, the header is unusable). */
static int dump_standard(dumper *d, const fbe_struct *st, uint64_t *model_end) {
  uint64_t size = d->size;
  uint32_t total = size >= 4 ? fbe_load32(d->p) : 0;
  if (size_line(d, total, 16)) return -1;
  if (size < 16)
    return FAIL(d, 0, "%llu bytes are too few for a standard model (16 at least)",
                (unsigned long long)size);
  if (total < 16) return FAIL(d, 0, "model size %u is smaller than 16", total);
  if (total > size) d->where = "buffer"; /* truncated: walk what is there */
  d->end = total < size ? total : size;
  *model_end = d->end;
  d->budget = 16 * d->end + 4096;
  if (std_struct(d, 4, 0, st, 1)) return -1;
  if (total > size) return FAIL(d, 0, "model size %u runs past the end of the buffer", total);
  return 0;
}

/* ------------------------------------------------------------ final model */

static int fin_short(dumper *d, uint64_t pos, uint64_t n) {
  return FAIL(d, pos, "%llu bytes needed past the end of the %s", (unsigned long long)n, d->where);
}

static int fin_value(dumper *d, const fbe_type *t, uint64_t *pos);

static int fin_fields(dumper *d, const fbe_struct *st, uint64_t *pos) {
  for (uint32_t i = 0; i < st->nfields; i++) {
    size_t mark;
    if (push_field(d, st->fields[i].name, &mark) || fin_value(d, st->fields[i].type, pos))
      return -1;
    pop(d, mark);
  }
  return 0;
}

static int fin_value(dumper *d, const fbe_type *t, uint64_t *pos) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      if (4 > d->end - *pos) return fin_short(d, *pos, 4);
      uint32_t n = fbe_load32(d->p + *pos);
      if (length_line(d, *pos, n, t->wire)) return -1;
      if (n > d->end - *pos - 4)
        return FAIL(d, *pos, "size %u runs past the end of the %s", n, d->where);
      *pos += 4;
      if (blob_data(d, t->wire, *pos, n)) return -1;
      *pos += n;
      return 0;
    }
    case FBE_KIND_STRUCT: return fin_fields(d, t->st, pos);
    case FBE_KIND_OPTIONAL: {
      if (*pos >= d->end) return fin_short(d, *pos, 1);
      uint8_t flag = d->p[*pos];
      int rc = flag == 0   ? NOTE(d, *pos, 1, "null (flag 0)")
               : flag == 1 ? NOTE(d, *pos, 1, "has value (flag 1)")
                           : NOTE(d, *pos, 1, "has value (flag %u, not 1)", (unsigned)flag);
      if (rc) return -1;
      (*pos)++;
      if (!flag) return 0;
      if (enter(d, *pos, 1) || fin_value(d, t->elem, pos)) return -1;
      d->depth--;
      return 0;
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++) {
        size_t mark;
        if (push_index(d, i, &mark) || fin_value(d, t->elem, pos)) return -1;
        pop(d, mark);
      }
      return 0;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      if (4 > d->end - *pos) return fin_short(d, *pos, 4);
      uint32_t n = fbe_load32(d->p + *pos);
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint64_t least = (uint64_t)t->elem->final_min + (k ? k->final_min : 0);
      if (NOTE(d, *pos, 4, "count %u", n)) return -1;
      if (least * n > d->end - *pos - 4)
        return FAIL(d, *pos, "%u elements do not fit in the %s", n, d->where);
      if (enter(d, *pos, n)) return -1;
      *pos += 4;
      for (uint32_t i = 0; i < n; i++) {
        size_t mark, inner;
        if (push_index(d, i, &mark)) return -1;
        if (k) {
          if (push_field(d, "key", &inner) || fin_value(d, k, pos)) return -1;
          pop(d, inner);
          if (push_field(d, "value", &inner) || fin_value(d, t->elem, pos)) return -1;
        } else if (fin_value(d, t->elem, pos)) {
          return -1;
        }
        pop(d, mark);
      }
      d->depth--;
      return 0;
    }
    default:
      if (t->wire_size > d->end - *pos) return fin_short(d, *pos, t->wire_size);
      if (scalar(d, t, *pos)) return -1;
      *pos += t->wire_size;
      return 0;
  }
}

static int dump_final(dumper *d, const fbe_struct *st, uint64_t *model_end) {
  uint64_t size = d->size;
  uint32_t total = size >= 4 ? fbe_load32(d->p) : 0;
  if (size_line(d, total, 8)) return -1;
  if (size < 8)
    return FAIL(d, 0, "%llu bytes are too few for a final model (8 at least)",
                (unsigned long long)size);
  uint32_t type_id = fbe_load32(d->p + 4);
  if (add(d, 4, 4, NULL, "model: type id %u (%s)", type_id, st->full_name)) return -1;
  if (total < 8) return FAIL(d, 0, "model size %u is smaller than its 8-byte header", total);
  if (total > size) d->where = "buffer"; /* truncated: walk what is there */
  if (type_id != st->type_id)
    return FAIL(d, 4, "type id %u where %s (%u) was expected", type_id, st->full_name, st->type_id);
  d->end = total < size ? total : size;
  *model_end = d->end;
  d->budget = 16 * d->end + 4096;
  uint64_t pos = 8;
  if (fin_fields(d, st, &pos)) return -1;
  if (total > size) return FAIL(d, 0, "model size %u runs past the end of the buffer", total);
  if (pos != total) return FAIL(d, pos, "fields end here but the model size says %u", total);
  return 0;
}

/* ------------------------------------------------------------ printing */

static int by_offset(const void *a, const void *b) {
  const range *x = a, *y = b;
  if (x->off != y->off) return x->off < y->off ? -1 : 1;
  return x->text < y->text ? -1 : x->text > y->text; /* walk order */
}

typedef struct printer {
  fbe_buffer *out;
  const uint8_t *p;
  int ow, lw; /* widths of the offset and length columns */
  int failed;
} printer;

static void put(printer *pr, const char *s, size_t n) {
  if (!pr->failed && fbe_buffer_append(pr->out, s, n)) pr->failed = 1;
}

FBE_PRINTF(2, 3)
static void putf(printer *pr, const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n > 0) put(pr, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* Up to 8 bytes from `at` as "xx xx ...", padded to 23 characters when pad is set. */
static void hex8(printer *pr, uint64_t at, uint64_t n, int pad) {
  char h[24];
  size_t k = 0;
  for (uint64_t i = 0; i < n && i < 8; i++)
    k += (size_t)snprintf(h + k, sizeof h - k, i ? " %02x" : "%02x", pr->p[at + i]);
  while (pad && k < 23) h[k++] = ' ';
  put(pr, h, k);
}

static void line(printer *pr, uint64_t off, uint64_t len, const char *text, size_t text_len,
                 const char *suffix) {
  putf(pr, "0x%0*llx  %*llu  ", pr->ow, (unsigned long long)off, pr->lw, (unsigned long long)len);
  hex8(pr, off, len, 1);
  put(pr, "  ", 2);
  put(pr, text, text_len);
  put(pr, suffix, strlen(suffix));
  put(pr, "\n", 1);
  if (len <= 8) return;
  putf(pr, "%*s", pr->ow + pr->lw + 6, ""); /* continuation: bytes 8..15 */
  hex8(pr, off + 8, len - 8, len > 16);
  if (len > 16) putf(pr, "  ... (%llu more bytes)", (unsigned long long)(len - 16));
  put(pr, "\n", 1);
}

/* Bytes [from, to) that no range covers, split at the model's end. */
static void gap(printer *pr, uint64_t from, uint64_t to, uint64_t model_end, int failed) {
  while (from < to) {
    int after = model_end && from >= model_end;
    uint64_t stop_at = !after && model_end && model_end < to ? model_end : to;
    const char *why = after    ? "(unreferenced: after the end of the model)"
                      : failed ? "(unreferenced: not reached before the error)"
                               : "(unreferenced)";
    line(pr, from, stop_at - from, why, strlen(why), "");
    from = stop_at;
  }
}

static int digits(uint64_t v, unsigned radix) {
  int n = 1;
  while (v >= radix) v /= radix, n++;
  return n;
}

fbe_status fbe_dump(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                    const fbe_limits *limits, fbe_buffer *out, fbe_error *err) {
  fbe_error local;
  if (!err) err = &local;
  if (!type || !out || (!data && size))
    return fbe_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no type, data or output buffer");
  uint64_t max_size = limits ? limits->max_model_size : FBE_DEFAULT_MAX_MODEL_SIZE;
  dumper d;
  memset(&d, 0, sizeof d);
  d.p = data;
  d.size = size;
  d.where = "model";
  d.max_depth = limits ? limits->max_depth : FBE_DEFAULT_MAX_DEPTH;
  d.max_ranges = (uint64_t)size + 1024;
  d.root = type->full_name;
  d.offset_width = digits(size, 16) > 4 ? digits(size, 16) : 4;
  d.err = err;
  err->code = FBE_OK;

  uint64_t model_end = 0;
  int rc;
  if (size >= 4 && fbe_load32(data) > max_size) {
    rc = add(&d, 0, 4, NULL, "model: size %u", fbe_load32(data)) ||
         stop(&d, FBE_ERR_LIMIT, 0, "model size %u exceeds the limit of %llu bytes",
              fbe_load32(data), (unsigned long long)max_size);
  } else {
    rc = model == FBE_MODEL_FINAL ? dump_final(&d, type, &model_end)
                                  : dump_standard(&d, type, &model_end);
  }
  fbe_status status = rc ? err->code : FBE_OK;

  size_t kept = out->size;
  printer pr = {out, data, d.offset_width, digits(size, 10) > 3 ? digits(size, 10) : 3, 0};
  if (status != FBE_ERR_NOMEM) {
    size_t n = d.ranges.size / sizeof(range);
    range *r = (range *)(void *)d.ranges.data;
    if (n) qsort(r, n, sizeof *r, by_offset);
    putf(&pr, "# %s, %s model, %llu bytes of input\n", type->full_name,
         model == FBE_MODEL_FINAL ? "final" : "standard", (unsigned long long)size);
    uint64_t covered = 0;
    for (size_t i = 0; i < n; i++) {
      if (r[i].off > covered) gap(&pr, covered, r[i].off, model_end, rc != 0);
      line(&pr, r[i].off, r[i].len, (const char *)d.text.data + r[i].text, r[i].text_len,
           r[i].off < covered ? "  (overlaps an earlier range)" : "");
      if (r[i].off + r[i].len > covered) covered = r[i].off + r[i].len;
    }
    if (covered < size) gap(&pr, covered, size, model_end, rc != 0);
    if (rc) {
      putf(&pr, "!! offset 0x%0*llx: %s", d.offset_width, (unsigned long long)err->offset,
           err->message);
      if (err->path[0]) putf(&pr, " at '%s'", err->path);
      put(&pr, "\n", 1);
    }
  }
  if (pr.failed) {
    nomem(&d);
    status = FBE_ERR_NOMEM;
  }
  if (status == FBE_ERR_NOMEM) out->size = kept; /* no half dumps */
  fbe_buffer_free(&d.ranges);
  fbe_buffer_free(&d.text);
  fbe_buffer_free(&d.path);
  return status;
}

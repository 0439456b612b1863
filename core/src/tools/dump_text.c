/* The texts of decoded values on `fbe dump` lines (fbe/dump.h): scalars, enums and
 * flags by name, timestamps as dates, strings quoted with escapes, bytes in hex. */
#include "tools/dump_text.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fbe/internal/endian.h"
#include "fbe/internal/float_text.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/utf8.h"
#include "fbe/internal/value.h"

#define STRING_SHOWN FBE_DUMP_STRING_SHOWN

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

void fbei_dump_quote(const uint8_t *s, uint32_t n, char *out, size_t cap) {
  size_t len = 0;
  uint32_t shown = n < STRING_SHOWN ? n : STRING_SHOWN;
  out[len++] = '"';
  for (uint32_t i = 0; i < shown;) {
    char esc[16];
    size_t seq = fbei_utf8_sequence(s + i, shown - i);
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

void fbei_dump_hex(const uint8_t *s, uint32_t n, char *out, size_t cap) {
  size_t len = (size_t)snprintf(out, cap, "bytes");
  for (uint32_t i = 0; i < n && i < 16 && len + 4 < cap; i++)
    len += (size_t)snprintf(out + len, cap - len, " %02x", s[i]);
  if (n > 16) snprintf(out + len, cap - len, " ... (%u bytes)", (unsigned)n);
}

void fbei_dump_scalar(const fbe_type *t, const uint8_t *s, char *out, size_t cap) {
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
        fbei_double_format(v, num);
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
  int_text(u, bits, fbei_kind_is_signed(t->wire), num, sizeof num);
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
      utf8[fbei_utf8_encode((uint32_t)cp, utf8)] = '\0';
      snprintf(out, cap, "U+%04llX '%s%s'", cp, cp == '\'' || cp == '\\' ? "\\" : "",
               (const char *)utf8);
    }
  } else {
    snprintf(out, cap, "%s", num);
  }
}

/* A small JSON scanner for conformance records: it only finds member spans; the
 * values themselves are read by the library's schema-directed JSON reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record.h"
#include "fbe/internal/utf8.h"

static const char *skip_blank(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

/* p at the opening quote; returns the position after the closing quote. */
static const char *skip_string(const char *p, const char *end) {
  for (p++; p < end; p++) {
    if (*p == '\\') {
      p++;
    } else if (*p == '"') {
      return p + 1;
    }
  }
  return NULL;
}

const char *json_skip_value(const char *p, const char *end, int depth) {
  p = skip_blank(p, end);
  if (p >= end || depth > 512) return NULL;
  if (*p == '"') return skip_string(p, end);
  if (*p == '{' || *p == '[') {
    char close = *p == '{' ? '}' : ']';
    p = skip_blank(p + 1, end);
    if (p < end && *p == close) return p + 1;
    for (;;) {
      if (close == '}') {
        p = skip_blank(p, end);
        if (p >= end || *p != '"' || !(p = skip_string(p, end))) return NULL;
        p = skip_blank(p, end);
        if (p >= end || *p != ':') return NULL;
        p++;
      }
      if (!(p = json_skip_value(p, end, depth + 1))) return NULL;
      p = skip_blank(p, end);
      if (p < end && *p == ',') {
        p++;
        continue;
      }
      return p < end && *p == close ? p + 1 : NULL;
    }
  }
  const char *start = p;
  while (p < end && (strchr("+-.eE", *p) || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z'))) p++;
  return p > start ? p : NULL;
}

static int hex4(const char *p, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v << 4 | (unsigned)d;
  }
  *out = v;
  return 0;
}

char *json_string_decode(span s, size_t *len) {
  if (s.len < 2 || s.at[0] != '"' || s.at[s.len - 1] != '"') return NULL;
  const char *p = s.at + 1, *end = s.at + s.len - 1;
  char *out = malloc(s.len); /* the decoded text is never longer than the escaped one */
  if (!out) return NULL;
  size_t n = 0;
  while (p < end) {
    char c = *p++;
    if (c != '\\') {
      out[n++] = c;
      continue;
    }
    if (p >= end) break;
    c = *p++;
    unsigned cp, low;
    switch (c) {
      case '"': case '\\': case '/': out[n++] = c; break;
      case 'b': out[n++] = '\b'; break;
      case 'f': out[n++] = '\f'; break;
      case 'n': out[n++] = '\n'; break;
      case 'r': out[n++] = '\r'; break;
      case 't': out[n++] = '\t'; break;
      case 'u':
        if (end - p < 4 || hex4(p, &cp)) goto bad;
        p += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u' &&
            !hex4(p + 2, &low) && low >= 0xDC00 && low < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          p += 6;
        }
        n += fbei_utf8_encode(cp, (uint8_t *)out + n); /* at most 4 bytes for the 6 or 12 read */
        break;
      default: goto bad;
    }
  }
  if (p != end) goto bad;
  out[n] = 0;
  if (len) *len = n;
  return out;
bad:
  free(out);
  return NULL;
}

/* A string member, decoded; "" for a value that is not a string. NULL when out of memory. */
static char *string_member(const char *value, const char *value_end) {
  char *text = json_string_decode((span){value, (size_t)(value_end - value)}, NULL);
  if (!text && (text = malloc(1))) text[0] = 0;
  return text;
}

static int set_member(char **slot, const char *value, const char *value_end) {
  free(*slot);
  return (*slot = string_member(value, value_end)) ? 0 : -1;
}

#define RECORD_STRINGS(r)                                                                    \
  {&(r)->id, &(r)->schema, &(r)->type, &(r)->format, &(r)->writer_schema, &(r)->writer_type, \
   &(r)->reader_schema, &(r)->reader_type}

void record_free(record *r) {
  char **all[] = RECORD_STRINGS(r);
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    free(*all[i]);
    *all[i] = NULL;
  }
}

/* Members that were absent become "". */
static int fill_absent(record *r) {
  char **all[] = RECORD_STRINGS(r);
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (!*all[i] && !(*all[i] = calloc(1, 1))) return -1;
  return 0;
}

int record_parse(const char *line, size_t len, record *r, char *error, size_t error_size) {
  const char *p = line, *end = line + len;
  memset(r, 0, sizeof *r);
  r->size = -1;
  r->verify = -1;
  p = skip_blank(p, end);
  if (p >= end || *p != '{') {
    snprintf(error, error_size, "a record must be a JSON object");
    (void)fill_absent(r);
    return -1;
  }
  p = skip_blank(p + 1, end);
  while (p < end && *p != '}') {
    const char *key = p, *key_end = *p == '"' ? skip_string(p, end) : NULL;
    if (!key_end) break;
    p = skip_blank(key_end, end);
    if (p >= end || *p != ':') break;
    const char *value = skip_blank(p + 1, end), *value_end = json_skip_value(value, end, 0);
    if (!value_end) break;
    size_t klen = (size_t)(key_end - key) - 2;
    const char *k = key + 1;
#define KEY(name) (klen == strlen(name) && !memcmp(k, name, klen))
    int rc = 0;
    if (KEY("id")) rc = set_member(&r->id, value, value_end);
    else if (KEY("schema")) rc = set_member(&r->schema, value, value_end);
    else if (KEY("type")) rc = set_member(&r->type, value, value_end);
    else if (KEY("format")) rc = set_member(&r->format, value, value_end);
    else if (KEY("json")) r->json = (span){value, (size_t)(value_end - value)};
    else if (KEY("hex") && *value == '"') r->hex = (span){value + 1, (size_t)(value_end - value) - 2};
    else if (KEY("size")) r->size = strtoll(value, NULL, 10);
    else if (KEY("verify")) r->verify = *value == 't';
    else if (KEY("decode_only")) r->decode_only = *value == 't';
    else if (KEY("_meta")) r->meta = 1;
    else if (KEY("writer_schema")) rc = set_member(&r->writer_schema, value, value_end);
    else if (KEY("writer_type")) rc = set_member(&r->writer_type, value, value_end);
    else if (KEY("reader_schema")) rc = set_member(&r->reader_schema, value, value_end);
    else if (KEY("reader_type")) rc = set_member(&r->reader_type, value, value_end);
#undef KEY
    if (rc) {
      snprintf(error, error_size, "out of memory");
      (void)fill_absent(r);
      return -1;
    }
    p = skip_blank(value_end, end);
    if (p < end && *p == ',') p = skip_blank(p + 1, end);
  }
  if (p >= end || *p != '}') {
    snprintf(error, error_size, "malformed JSON near byte %zu", (size_t)(p - line));
    (void)fill_absent(r);
    return -1;
  }
  if (fill_absent(r)) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  return 0;
}

int json_iter_init(json_iter *it, span array) {
  it->p = skip_blank(array.at, array.at + array.len);
  it->end = array.at + array.len;
  it->count = 0;
  if (it->p >= it->end || *it->p != '[') return -1;
  it->p++;
  return 0;
}

int json_iter_next(json_iter *it, span *item) {
  const char *p = skip_blank(it->p, it->end);
  if (p < it->end && *p == ']') return 0;
  if (it->count > 0) {
    if (p >= it->end || *p != ',') return -1;
    p = skip_blank(p + 1, it->end);
  }
  const char *stop = json_skip_value(p, it->end, 0);
  if (!stop) return -1;
  item->at = p;
  item->len = (size_t)(stop - p);
  it->p = stop;
  it->count++;
  return 1;
}

int json_members_init(json_iter *it, span object) {
  it->p = skip_blank(object.at, object.at + object.len);
  it->end = object.at + object.len;
  it->count = 0;
  if (it->p >= it->end || *it->p != '{') return -1;
  it->p++;
  return 0;
}

int json_members_next(json_iter *it, span *name, span *value) {
  const char *p = skip_blank(it->p, it->end);
  if (p < it->end && *p == '}') return 0;
  if (it->count > 0) {
    if (p >= it->end || *p != ',') return -1;
    p = skip_blank(p + 1, it->end);
  }
  const char *name_end = p < it->end && *p == '"' ? skip_string(p, it->end) : NULL;
  if (!name_end) return -1;
  const char *colon = skip_blank(name_end, it->end);
  if (colon >= it->end || *colon != ':') return -1;
  const char *at = skip_blank(colon + 1, it->end), *stop = json_skip_value(at, it->end, 0);
  if (!stop) return -1;
  *name = (span){p, (size_t)(name_end - p)};
  *value = (span){at, (size_t)(stop - at)};
  it->p = stop;
  it->count++;
  return 1;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

uint8_t *hex_decode(span hex, size_t *size) {
  if (hex.len % 2) return NULL;
  uint8_t *out = malloc(hex.len / 2 + 1);
  if (!out) return NULL;
  for (size_t i = 0; i < hex.len / 2; i++) {
    int hi = hex_digit(hex.at[2 * i]), lo = hex_digit(hex.at[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(out);
      return NULL;
    }
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  *size = hex.len / 2;
  return out;
}

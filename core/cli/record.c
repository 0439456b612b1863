/* A small JSON scanner for conformance records: it only finds member spans; the
 * values themselves are read by the library's schema-directed JSON reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record.h"

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

/* Copies a JSON string (p at the opening quote) into out; simple escapes only. */
static int copy_string(const char *p, const char *stop, char *out, size_t size) {
  size_t n = 0;
  for (p++; p < stop - 1 && n + 1 < size; p++) {
    char c = *p;
    if (c == '\\' && p + 1 < stop - 1) {
      c = *++p;
      if (c == 'n') c = '\n';
      else if (c == 't') c = '\t';
    }
    out[n++] = c;
  }
  out[n] = 0;
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
    if (KEY("id")) copy_string(value, value_end, r->id, sizeof r->id);
    else if (KEY("schema")) copy_string(value, value_end, r->schema, sizeof r->schema);
    else if (KEY("type")) copy_string(value, value_end, r->type, sizeof r->type);
    else if (KEY("format")) copy_string(value, value_end, r->format, sizeof r->format);
    else if (KEY("json")) r->json = (span){value, (size_t)(value_end - value)};
    else if (KEY("hex") && *value == '"') r->hex = (span){value + 1, (size_t)(value_end - value) - 2};
    else if (KEY("size")) r->size = strtoll(value, NULL, 10);
    else if (KEY("verify")) r->verify = *value == 't';
    else if (KEY("decode_only")) r->decode_only = *value == 't';
    else if (KEY("writer_schema")) copy_string(value, value_end, r->writer_schema, sizeof r->writer_schema);
    else if (KEY("writer_type")) copy_string(value, value_end, r->writer_type, sizeof r->writer_type);
    else if (KEY("reader_schema")) copy_string(value, value_end, r->reader_schema, sizeof r->reader_schema);
    else if (KEY("reader_type")) copy_string(value, value_end, r->reader_type, sizeof r->reader_type);
#undef KEY
    p = skip_blank(value_end, end);
    if (p < end && *p == ',') p = skip_blank(p + 1, end);
  }
  if (p >= end || *p != '}') {
    snprintf(error, error_size, "malformed JSON near byte %zu", (size_t)(p - line));
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

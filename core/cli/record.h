/* One line of a conformance file (docs/TESTEE.md), split into members. */
#ifndef FBE_CLI_RECORD_H
#define FBE_CLI_RECORD_H

#include <stddef.h>
#include <stdint.h>

typedef struct span {
  const char *at;
  size_t len;
} span;

/* The string members are malloc'd and NUL-terminated, "" when absent (names have no
 * length limit: the schema language has none); record_free releases them. */
typedef struct record {
  char *id, *schema, *type, *format;
  char *writer_schema, *writer_type, *reader_schema, *reader_type; /* versioning */
  span json;       /* raw JSON text of "json", len 0 when absent */
  span hex;        /* the hex digits (inside the quotes) */
  int64_t size;    /* -1 when absent */
  int verify;      /* -1 absent, 0 false, 1 true */
  int decode_only; /* 1 when "decode_only": true */
  int meta;        /* 1 when the line has a "_meta" member (a header, not a record) */
} record;

/* Parses one JSON object line. Returns 0, or -1 with a message in error; either way
 * the string members are set (unless out of memory) and record_free releases them. */
int record_parse(const char *line, size_t len, record *r, char *error, size_t error_size);
void record_free(record *r);

/* The text of a JSON string value (s spans it, quotes included), every escape decoded
 * (\uXXXX and surrogate pairs to UTF-8): malloc'd, NUL-terminated, its length in *len
 * (may be NULL). NULL when s is not a well-formed JSON string or out of memory. */
char *json_string_decode(span s, size_t *len);

/* Walks the elements of a JSON array: init with the array's span, then next() gives
 * each element's span: 1, 0 at the end, -1 on malformed JSON. */
typedef struct json_iter {
  const char *p, *end;
  int count;
} json_iter;
int json_iter_init(json_iter *it, span array);
int json_iter_next(json_iter *it, span *item);

/* Walks the members of a JSON object the same way: next() gives each member's name
 * (the JSON string, quotes included: json_string_decode it) and value spans. */
int json_members_init(json_iter *it, span object);
int json_members_next(json_iter *it, span *name, span *value);

/* Returns the end of the JSON value starting at p (after leading blanks), or NULL. */
const char *json_skip_value(const char *p, const char *end, int depth);

/* Decodes hex digits into a malloc'd buffer. NULL on bad hex. */
uint8_t *hex_decode(span hex, size_t *size);

#endif

/* One line of a conformance file (shared/conformance/README.md), split into members. */
#ifndef FBE_CLI_RECORD_H
#define FBE_CLI_RECORD_H

#include <stddef.h>
#include <stdint.h>

typedef struct span {
  const char *at;
  size_t len;
} span;

typedef struct record {
  char id[160], schema[64], type[96], format[32];
  char writer_schema[64], writer_type[96], reader_schema[64], reader_type[96]; /* versioning */
  span json;       /* raw JSON text of "json", len 0 when absent */
  span hex;        /* the hex digits (inside the quotes) */
  int64_t size;    /* -1 when absent */
  int verify;      /* -1 absent, 0 false, 1 true */
  int decode_only; /* 1 when "decode_only": true */
} record;

/* Parses one JSON object line. Returns 0, or -1 with a message in error. */
int record_parse(const char *line, size_t len, record *r, char *error, size_t error_size);

/* Walks the elements of a JSON array: init with the array's span, then next() gives
 * each element's span: 1, 0 at the end, -1 on malformed JSON. */
typedef struct json_iter {
  const char *p, *end;
  int count;
} json_iter;
int json_iter_init(json_iter *it, span array);
int json_iter_next(json_iter *it, span *item);

/* Returns the end of the JSON value starting at p (after leading blanks), or NULL. */
const char *json_skip_value(const char *p, const char *end, int depth);

/* Decodes hex digits into a malloc'd buffer. NULL on bad hex. */
uint8_t *hex_decode(span hex, size_t *size);

#endif

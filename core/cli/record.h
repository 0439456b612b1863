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
  span json;       /* raw JSON text of "json", len 0 when absent */
  span hex;        /* the hex digits (inside the quotes) */
  int64_t size;    /* -1 when absent */
  int verify;      /* -1 absent, 0 false, 1 true */
  int decode_only; /* 1 when "decode_only": true */
} record;

/* Parses one JSON object line. Returns 0, or -1 with a message in error. */
int record_parse(const char *line, size_t len, record *r, char *error, size_t error_size);

/* Returns the end of the JSON value starting at p (after leading blanks), or NULL. */
const char *json_skip_value(const char *p, const char *end, int depth);

/* Decodes hex digits into a malloc'd buffer. NULL on bad hex. */
uint8_t *hex_decode(span hex, size_t *size);

#endif

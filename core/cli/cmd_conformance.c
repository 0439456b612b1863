/* fbe conformance: runs every record of conformance files (shared/conformance/README.md):
 * decode and compare, encode and compare bytes exactly, verify; malformed records must
 * be rejected by verify and must decode to an error or a value, never crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "record.h"

typedef struct cached_schema {
  char package[64];
  fbe_schema *schema;
} cached_schema;

typedef struct runner {
  cli_options o;
  cached_schema cache[32];
  size_t cached;
  fbe_arena *arena;
  fbe_buffer buf, json_a, json_b;
  unsigned passed, failed, skipped;
} runner;

static fbe_schema *schema_for(runner *rn, const char *package) {
  for (size_t i = 0; i < rn->cached; i++)
    if (!strcmp(rn->cache[i].package, package)) return rn->cache[i].schema;
  if (rn->cached == sizeof rn->cache / sizeof rn->cache[0]) return NULL;
  fbe_load_options lo = {rn->o.includes, rn->o.include_count};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = fbe_schema_load_package(package, &lo, &diags);
  for (size_t i = 0; !schema && i < diags.count; i++) {
    char line[1024];
    fbe_diagnostic_format(&diags.items[i], line, sizeof line);
    fprintf(stderr, "%s\n", line);
  }
  fbe_diagnostics_free(&diags);
  if (schema) {
    snprintf(rn->cache[rn->cached].package, sizeof rn->cache[0].package, "%s", package);
    rn->cache[rn->cached++].schema = schema;
  }
  return schema;
}

/* Explains where two JSON texts of the same message part ways. */
static void describe_value_difference(runner *rn, const fbe_msg *got, const fbe_msg *want,
                                      char *out, size_t size) {
  fbe_buffer_reset(&rn->json_a);
  fbe_buffer_reset(&rn->json_b);
  if (fbe_msg_to_json(got, 0, &rn->json_a, NULL) || fbe_msg_to_json(want, 0, &rn->json_b, NULL)) {
    snprintf(out, size, "decoded value differs (and has no JSON form)");
    return;
  }
  size_t i = 0, n = rn->json_a.size < rn->json_b.size ? rn->json_a.size : rn->json_b.size;
  while (i < n && rn->json_a.data[i] == rn->json_b.data[i]) i++;
  size_t from = i > 30 ? i - 30 : 0;
  int ga = (int)((rn->json_a.size - from) < 60 ? rn->json_a.size - from : 60);
  int wb = (int)((rn->json_b.size - from) < 60 ? rn->json_b.size - from : 60);
  snprintf(out, size, "decoded value differs at JSON offset %zu: got ...%.*s... want ...%.*s...", i, ga,
           (const char *)rn->json_a.data + from, wb, (const char *)rn->json_b.data + from);
}

/* Runs one standard/final record; returns 0 when it passed, 1 when skipped, -1 failed
 * (with the reason in why). */
static int run_model_record(runner *rn, const record *r, char *why, size_t why_size) {
  fbe_model model = !strcmp(r->format, "final") ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  if (r->verify == 1 && !r->json.len) return 1; /* malformed bytes the reference accepts */
  fbe_schema *schema = schema_for(rn, r->schema);
  if (!schema) {
    snprintf(why, why_size, "cannot load schema of package '%s'", r->schema);
    return -1;
  }
  const fbe_struct *type = fbe_schema_find_struct(schema, r->type);
  if (!type) {
    snprintf(why, why_size, "no type '%s' in package '%s'", r->type, r->schema);
    return -1;
  }
  size_t size = 0;
  uint8_t *bytes = hex_decode(r->hex, &size);
  if (!bytes) {
    snprintf(why, why_size, "bad hex");
    return -1;
  }
  int rc = -1;
  fbe_error err;
  char text[400];
  size_t model_size = 0;
  fbe_msg *got = NULL, *want = NULL;
  fbe_status verified = fbe_verify(type, model, bytes, size, NULL, &model_size, &err);
  if (r->verify == 0) {
    /* Must be rejected; decoding must end in an error or a value, never a crash. */
    if (verified == FBE_OK) snprintf(why, why_size, "verify accepted malformed bytes");
    else rc = 0;
    (void)fbe_decode(type, model, bytes, size, rn->arena, NULL, &got, NULL, &err);
    goto done;
  }
  if (verified != FBE_OK) {
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "verify rejected valid bytes: %s", text);
    goto done;
  }
  if (r->size >= 0 && model_size != (size_t)r->size) {
    snprintf(why, why_size, "model size %zu, expected %lld", model_size, (long long)r->size);
    goto done;
  }
  if (fbe_decode(type, model, bytes, size, rn->arena, NULL, &got, NULL, &err)) {
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "decode failed: %s", text);
    goto done;
  }
  if (fbe_msg_from_json(type, r->json.at, r->json.len, rn->arena, &want, &err)) {
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "cannot read the record's JSON: %s", text);
    goto done;
  }
  if (!fbe_msg_equal(got, want)) {
    describe_value_difference(rn, got, want, why, why_size);
    goto done;
  }
  if (!r->decode_only) {
    fbe_buffer_reset(&rn->buf);
    if (fbe_encode(want, model, &rn->buf, &err)) {
      fbe_error_format(&err, text, sizeof text);
      snprintf(why, why_size, "encode failed: %s", text);
      goto done;
    }
    size_t n = rn->buf.size < size ? rn->buf.size : size, i = 0;
    while (i < n && rn->buf.data[i] == bytes[i]) i++;
    if (i < n) {
      snprintf(why, why_size, "encoded bytes differ at offset %zu: got %02x, want %02x", i,
               rn->buf.data[i], bytes[i]);
      goto done;
    }
    if (rn->buf.size != size) {
      snprintf(why, why_size, "encoded %zu bytes, want %zu (first %zu equal)", rn->buf.size, size, n);
      goto done;
    }
  }
  rc = 0;
done:
  free(bytes);
  return rc;
}

static void run_line(runner *rn, const char *file, size_t line_no, const char *line, size_t len) {
  record r;
  char why[600];
  if (record_parse(line, len, &r, why, sizeof why)) {
    printf("FAIL %s:%zu: %s\n", file, line_no, why);
    rn->failed++;
    return;
  }
  int rc;
  if (!strcmp(r.format, "standard") || !strcmp(r.format, "final")) {
    fbe_arena_reset(rn->arena);
    rc = run_model_record(rn, &r, why, sizeof why);
  } else if (!strcmp(r.format, "stream-standard") || !strcmp(r.format, "stream-final") ||
             !strcmp(r.format, "standard-versioning")) {
    rc = 1; /* the protocol and versioning records come with the protocol work */
  } else {
    snprintf(why, sizeof why, "unknown format '%s'", r.format);
    rc = -1;
  }
  if (rc == 0) rn->passed++;
  else if (rc == 1) rn->skipped++;
  else {
    rn->failed++;
    printf("FAIL %s: %s\n", r.id[0] ? r.id : "(no id)", why);
  }
}

static int run_file(runner *rn, const char *path) {
  size_t size;
  uint8_t *data = cli_read_file(path, &size);
  if (!data) return -1;
  const char *p = (const char *)data, *end = p + size;
  size_t line_no = 0;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    line_no++;
    const char *q = p;
    while (q < stop && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
    if (q < stop) run_line(rn, path, line_no, p, (size_t)(stop - p));
    p = nl ? nl + 1 : end;
  }
  free(data);
  return 0;
}

int cmd_conformance(int argc, char **argv) {
  runner *rn = calloc(1, sizeof *rn);
  if (!rn) return 1;
  int rc = 2;
  if (cli_parse(argc, argv, &rn->o) || rn->o.positional_count == 0) {
    fprintf(stderr, "usage: fbe conformance [-I DIR]... FILE.jsonl...\n");
    goto out;
  }
  rn->arena = fbe_arena_new();
  if (!rn->arena) goto out;
  rc = 0;
  for (size_t i = 0; i < rn->o.positional_count; i++)
    if (run_file(rn, rn->o.positional[i])) rc = 1;
  printf("%u passed, %u failed, %u skipped\n", rn->passed, rn->failed, rn->skipped);
  if (rn->failed) rc = 1;
out:
  for (size_t i = 0; i < rn->cached; i++) fbe_schema_release(rn->cache[i].schema);
  fbe_buffer_free(&rn->buf);
  fbe_buffer_free(&rn->json_a);
  fbe_buffer_free(&rn->json_b);
  fbe_arena_free(rn->arena);
  free(rn);
  return rc;
}

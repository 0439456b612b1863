/* fbe conformance: runs every record of conformance files (docs/TESTEE.md):
 * decode and compare, encode and compare bytes exactly, verify; malformed records must
 * be rejected by verify and must decode to an error or a value, never crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "package_cache.h"
#include "record.h"
#include "stream_item.h"

typedef struct runner {
  cli_options o;
  package_cache cache;
  fbe_arena *arena;
  fbe_buffer buf, json_a, json_b;
  unsigned passed, failed, skipped;
} runner;

static fbe_schema *schema_for(runner *rn, const char *package) {
  fbe_load_options lo = {rn->o.includes, rn->o.include_count};
  fbe_diagnostics diags;
  fbe_schema *schema = package_cache_get(&rn->cache, package, &lo, &diags);
  for (size_t i = 0; !schema && i < diags.count; i++) {
    char line[1024];
    fbe_diagnostic_format(&diags.items[i], line, sizeof line);
    fprintf(stderr, "%s\n", line);
  }
  fbe_diagnostics_free(&diags);
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

/* Decodes bytes (verified by the caller, or a versioning record's sibling type: the
 * trusted decode) and compares the value with the record's JSON; *want receives the
 * value read from the JSON. 0 when equal, -1 with the reason in why. */
static int decode_matches(runner *rn, const fbe_struct *type, fbe_model model, const uint8_t *bytes,
                          size_t size, span json, fbe_msg **want, char *why, size_t why_size) {
  fbe_error err;
  char text[400];
  fbe_msg *got = NULL;
  if (fbe_decode_trusted(type, model, bytes, size, rn->arena, NULL, &got, NULL, &err)) {
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "decode failed: %s", text);
    return -1;
  }
  if (fbe_msg_from_json(type, json.at, json.len, rn->arena, want, &err)) {
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "cannot read the record's JSON: %s", text);
    return -1;
  }
  if (!fbe_msg_equal(got, *want)) {
    describe_value_difference(rn, got, *want, why, why_size);
    return -1;
  }
  return 0;
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
    /* Must be rejected; the decoder itself (without the verify that would refuse them
     * first) must end in an error or a value, never a crash. */
    if (verified == FBE_OK) snprintf(why, why_size, "verify accepted malformed bytes");
    else rc = 0;
    (void)fbe_decode_trusted(type, model, bytes, size, rn->arena, NULL, &got, NULL, &err);
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
  if (decode_matches(rn, type, model, bytes, size, r->json, &want, why, why_size)) goto done;
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

/* ---- streams: send the messages, compare the bytes; feed the bytes whole and in
 * chunks, compare the messages ---- */

typedef struct expectation {
  fbe_msg **want;
  size_t count, next;
  char why[300];
} expectation;

static int check_message(void *ctx, const fbe_msg *msg) {
  expectation *x = ctx;
  if (x->why[0]) return 1;
  if (x->next >= x->count) {
    snprintf(x->why, sizeof x->why, "received more than the %zu messages sent", x->count);
    return 1;
  }
  const fbe_msg *want = x->want[x->next];
  if (fbe_msg_type(msg) != fbe_msg_type(want)) {
    snprintf(x->why, sizeof x->why, "message %zu is a %s, want %s", x->next,
             fbe_struct_full_name(fbe_msg_type(msg)), fbe_struct_full_name(fbe_msg_type(want)));
    return 1;
  }
  if (!fbe_msg_equal(msg, want)) {
    snprintf(x->why, sizeof x->why, "message %zu (%s) differs", x->next,
             fbe_struct_full_name(fbe_msg_type(want)));
    return 1;
  }
  x->next++;
  return 0;
}

/* Feeds bytes in chunks: chunk 0 = whole; seed 0 = every chunk `chunk` bytes; else
 * sizes from 1 to `chunk` drawn from a generator seeded by `seed` (the same record
 * always gets the same chunks). */
static int receive(fbe_schema *schema, const char *package, fbe_model model, const uint8_t *bytes,
                   size_t size, expectation *x, size_t chunk, uint64_t seed, char *why,
                   size_t why_size) {
  x->next = 0;
  x->why[0] = 0;
  fbe_receiver *rcv = fbe_receiver_new(schema, package, model, NULL, check_message, x);
  if (!rcv) {
    snprintf(why, why_size, "cannot create a receiver");
    return -1;
  }
  fbe_error err;
  fbe_status rc = FBE_OK;
  for (size_t at = 0; at < size && rc == FBE_OK;) {
    size_t n = size - at;
    if (chunk) {
      size_t want = chunk;
      if (seed) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        want = 1 + (size_t)(seed % chunk);
      }
      if (want < n) n = want;
    }
    rc = fbe_receiver_feed(rcv, bytes + at, n, &err);
    at += n;
  }
  int failed = 1;
  const char *how = seed ? "random chunks of up to" : "chunks of";
  if (x->why[0]) snprintf(why, why_size, "%s %zu: %s", how, chunk, x->why);
  else if (rc) {
    char text[400];
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "%s %zu: receiver error: %s", how, chunk, text);
  } else if (x->next != x->count || fbe_receiver_pending(rcv)) {
    snprintf(why, why_size, "%s %zu: %zu of %zu messages received, %zu bytes left", how, chunk,
             x->next, x->count, fbe_receiver_pending(rcv));
  } else {
    failed = 0;
  }
  fbe_receiver_free(rcv);
  return failed ? -1 : 0;
}

static int append_sink(void *ctx, const uint8_t *data, size_t size) {
  return fbe_buffer_append(ctx, data, size);
}

static int run_stream_record(runner *rn, const record *r, char *why, size_t why_size) {
  fbe_model model = !strcmp(r->format, "stream-final") ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  fbe_schema *schema = schema_for(rn, r->schema);
  if (!schema) {
    snprintf(why, why_size, "cannot load schema of package '%s'", r->schema);
    return -1;
  }
  expectation x = {NULL, 0, 0, {0}};
  size_t cap = 0, size = 0;
  uint8_t *bytes = hex_decode(r->hex, &size);
  int rc = -1;
  json_iter it;
  span item;
  int more;
  if (!bytes || json_iter_init(&it, r->json)) {
    snprintf(why, why_size, "bad hex or no message list");
    goto done;
  }
  while ((more = json_iter_next(&it, &item)) == 1) {
    if (x.count == cap) {
      cap = cap ? cap * 2 : 8;
      fbe_msg **bigger = realloc(x.want, cap * sizeof *bigger);
      if (!bigger) goto done;
      x.want = bigger;
    }
    if (stream_item_build(schema, item, rn->arena, &x.want[x.count], why, why_size)) goto done;
    x.count++;
  }
  if (more < 0) {
    snprintf(why, why_size, "malformed message list");
    goto done;
  }
  /* send: the concatenated frames must be the record's bytes */
  fbe_buffer_reset(&rn->buf);
  fbe_sender *snd = fbe_sender_new(schema, r->schema, model, append_sink, &rn->buf);
  fbe_error err;
  for (size_t i = 0; snd && i < x.count; i++) {
    if (fbe_sender_send(snd, x.want[i], &err)) {
      char text[400];
      fbe_error_format(&err, text, sizeof text);
      snprintf(why, why_size, "send of message %zu failed: %s", i, text);
      fbe_sender_free(snd);
      goto done;
    }
  }
  fbe_sender_free(snd);
  size_t n = rn->buf.size < size ? rn->buf.size : size, i = 0;
  while (i < n && rn->buf.data[i] == bytes[i]) i++;
  if (i < n || rn->buf.size != size) {
    snprintf(why, why_size, "sent bytes differ at offset %zu (sent %zu bytes, want %zu)", i,
             rn->buf.size, size);
    goto done;
  }
  /* receive whole, in chunks of every size from 1 to 64 bytes, and in random chunks */
  uint64_t seed = 0x9e3779b97f4a7c15u;
  for (const char *c = r->id; *c; c++) seed = (seed ^ (uint8_t)*c) * 0x100000001b3u;
  for (size_t chunk = 0; chunk <= 64; chunk++)
    if (receive(schema, r->schema, model, bytes, size, &x, chunk, 0, why, why_size)) goto done;
  if (receive(schema, r->schema, model, bytes, size, &x, 64, seed | 1, why, why_size)) goto done;
  rc = 0;
done:
  free(x.want);
  free(bytes);
  return rc;
}

/* ---- versioning: bytes of one schema version read with another ---- */

static int run_versioning_record(runner *rn, const record *r, char *why, size_t why_size) {
  fbe_schema *schema = schema_for(rn, r->reader_schema);
  if (!schema) {
    snprintf(why, why_size, "cannot load schema of package '%s'", r->reader_schema);
    return -1;
  }
  /* a name without a package is looked up in the root package: the reader's */
  const fbe_struct *type = fbe_schema_find_struct(schema, r->reader_type);
  if (!type) {
    snprintf(why, why_size, "no type %s.%s", r->reader_schema, r->reader_type);
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
  fbe_msg *want = NULL;
  int verified = fbe_verify(type, FBE_MODEL_STANDARD, bytes, size, NULL, NULL, &err) == FBE_OK;
  if (r->verify >= 0 && verified != r->verify) {
    fbe_error_format(&err, text, sizeof text);
    snprintf(why, why_size, "verify says %s, want %s%s%s", verified ? "valid" : "invalid",
             r->verify ? "valid" : "invalid", verified ? "" : ": ", verified ? "" : text);
    goto done;
  }
  if (!r->json.len) {
    rc = 0;
    goto done;
  }
  if (decode_matches(rn, type, FBE_MODEL_STANDARD, bytes, size, r->json, &want, why, why_size))
    goto done;
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
    record_free(&r);
    return;
  }
  int rc;
  if (r.meta) { /* a header line (generator, seed, ...), as the runner skips it */
    rc = 1;
  } else if (!strcmp(r.format, "standard") || !strcmp(r.format, "final")) {
    fbe_arena_reset(rn->arena);
    rc = run_model_record(rn, &r, why, sizeof why);
  } else if (!strcmp(r.format, "stream-standard") || !strcmp(r.format, "stream-final")) {
    fbe_arena_reset(rn->arena);
    rc = run_stream_record(rn, &r, why, sizeof why);
  } else if (!strcmp(r.format, "standard-versioning")) {
    fbe_arena_reset(rn->arena);
    rc = run_versioning_record(rn, &r, why, sizeof why);
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
  record_free(&r);
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
  cli_free_file(data);
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
  package_cache_clear(&rn->cache);
  fbe_buffer_free(&rn->buf);
  fbe_buffer_free(&rn->json_a);
  fbe_buffer_free(&rn->json_b);
  fbe_arena_free(rn->arena);
  free(rn);
  return rc;
}

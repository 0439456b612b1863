/* fbe testee: the C testee of the cross-language conformance runner
 * (tests/conformance/README.md). One JSON request per stdin line, one JSON response
 * per stdout line; requests: load, encode, decode, verify, stream-encode, stream-decode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "record.h"
#include "stream_item.h"

#define TESTEE_MAX_INCLUDES 32

typedef struct testee {
  char *includes[TESTEE_MAX_INCLUDES];
  size_t include_count;
  struct {
    char package[64];
    fbe_schema *schema;
  } cache[32];
  size_t cached;
  fbe_arena *arena;
  fbe_buffer out, tmp;
} testee;

/* ---- a minimal reader of the request object's members ---- */

static const char *blank(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

/* Finds member `name` of the top-level object; its value span or {NULL,0}. */
static span member(const char *line, size_t len, const char *name) {
  const char *p = blank(line, line + len), *end = line + len;
  span none = {NULL, 0};
  if (p >= end || *p != '{') return none;
  p = blank(p + 1, end);
  while (p < end && *p == '"') {
    const char *key = p + 1, *key_end = json_skip_value(p, end, 0);
    if (!key_end) return none;
    p = blank(key_end, end);
    if (p >= end || *p != ':') return none;
    const char *value = blank(p + 1, end), *value_end = json_skip_value(value, end, 0);
    if (!value_end) return none;
    size_t klen = (size_t)(key_end - key) - 1;
    if (klen == strlen(name) && !memcmp(key, name, klen)) return (span){value, (size_t)(value_end - value)};
    p = blank(value_end, end);
    if (p < end && *p == ',') p = blank(p + 1, end);
  }
  return none;
}

/* Copies a JSON string member into out (simple escapes). 0, or -1 when absent. */
static int member_string(const char *line, size_t len, const char *name, char *out, size_t size) {
  span s = member(line, len, name);
  if (!s.at || s.len < 2 || s.at[0] != '"') return -1;
  size_t n = 0;
  for (size_t i = 1; i + 1 < s.len && n + 1 < size; i++) {
    char c = s.at[i];
    if (c == '\\' && i + 2 < s.len) {
      c = s.at[++i];
      if (c == 'n') c = '\n';
      else if (c == 't') c = '\t';
    }
    out[n++] = c;
  }
  out[n] = 0;
  return 0;
}

/* ---- responses ---- */

static void put_escaped(fbe_buffer *b, const char *s) {
  fbe_buffer_append(b, "\"", 1);
  for (; *s; s++) {
    char esc[8];
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      esc[0] = '\\';
      esc[1] = (char)c;
      fbe_buffer_append(b, esc, 2);
    } else if (c < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      fbe_buffer_append(b, esc, 6);
    } else {
      fbe_buffer_append(b, s, 1);
    }
  }
  fbe_buffer_append(b, "\"", 1);
}

static void put(fbe_buffer *b, const char *s) { fbe_buffer_append(b, s, strlen(s)); }

static void put_hex(fbe_buffer *b, const uint8_t *data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  fbe_buffer_append(b, "\"", 1);
  for (size_t i = 0; i < size; i++) {
    char two[2] = {digits[data[i] >> 4], digits[data[i] & 15]};
    fbe_buffer_append(b, two, 2);
  }
  fbe_buffer_append(b, "\"", 1);
}

static void fail(testee *t, const char *why) {
  fbe_buffer_reset(&t->out);
  put(&t->out, "{\"ok\":false,\"error\":");
  put_escaped(&t->out, why);
  put(&t->out, "}");
}

static void fail_err(testee *t, const char *what, const fbe_error *err) {
  char text[512], why[600];
  fbe_error_format(err, text, sizeof text);
  snprintf(why, sizeof why, "%s: %s", what, text);
  fail(t, why);
}

/* Reads one line of any length into *line (grown as needed). Its length, or -1 at EOF. */
static long read_line(char **line, size_t *cap) {
  size_t n = 0;
  int c;
  while ((c = getchar()) != EOF) {
    if (n + 2 > *cap) {
      size_t bigger = *cap ? *cap * 2 : 4096;
      char *p = realloc(*line, bigger);
      if (!p) return -1;
      *line = p;
      *cap = bigger;
    }
    (*line)[n++] = (char)c;
    if (c == '\n') break;
  }
  if (c == EOF && n == 0) return -1;
  return (long)n;
}

/* ---- requests ---- */

static fbe_schema *schema_for(testee *t, const char *package, char *why, size_t why_size) {
  for (size_t i = 0; i < t->cached; i++)
    if (!strcmp(t->cache[i].package, package)) return t->cache[i].schema;
  if (t->cached == sizeof t->cache / sizeof t->cache[0]) {
    snprintf(why, why_size, "too many packages");
    return NULL;
  }
  fbe_load_options lo = {(const char *const *)t->includes, t->include_count};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = fbe_schema_load_package(package, &lo, &diags);
  snprintf(why, why_size, "cannot load package '%s'", package);
  if (!schema && diags.count) fbe_diagnostic_format(&diags.items[0], why, why_size);
  fbe_diagnostics_free(&diags);
  if (schema) {
    snprintf(t->cache[t->cached].package, sizeof t->cache[0].package, "%s", package);
    t->cache[t->cached++].schema = schema;
  }
  return schema;
}

static void drop_schemas(testee *t) {
  for (size_t i = 0; i < t->cached; i++) fbe_schema_release(t->cache[i].schema);
  t->cached = 0;
}

static void do_load(testee *t, const char *line, size_t len) {
  drop_schemas(t);
  for (size_t i = 0; i < t->include_count; i++) free(t->includes[i]);
  t->include_count = 0;
  json_iter it;
  span item;
  char dir[1024], why[600];
  span inc = member(line, len, "include");
  if (inc.at && json_iter_init(&it, inc) == 0) {
    while (json_iter_next(&it, &item) == 1 && t->include_count < TESTEE_MAX_INCLUDES) {
      if (item.len < 2) continue;
      snprintf(dir, sizeof dir, "%.*s", (int)(item.len - 2), item.at + 1);
      size_t dlen = strlen(dir) + 1;
      char *copy = malloc(dlen);
      if (!copy) continue;
      memcpy(copy, dir, dlen);
      t->includes[t->include_count++] = copy;
    }
  }
  span files = member(line, len, "files");
  if (files.at && json_iter_init(&it, files) == 0) {
    fbe_load_options lo = {(const char *const *)t->includes, t->include_count};
    while (json_iter_next(&it, &item) == 1) {
      if (item.len < 2) continue;
      snprintf(dir, sizeof dir, "%.*s", (int)(item.len - 2), item.at + 1);
      fbe_diagnostics diags = {0, NULL};
      fbe_schema *s = fbe_schema_load_file(dir, &lo, &diags);
      snprintf(why, sizeof why, "cannot load %s", dir);
      if (!s && diags.count) fbe_diagnostic_format(&diags.items[0], why, sizeof why);
      fbe_diagnostics_free(&diags);
      if (!s) {
        fail(t, why);
        return;
      }
      fbe_schema_release(s);
    }
  }
  fbe_buffer_reset(&t->out);
  put(&t->out, "{\"ok\":true}");
}

static fbe_model model_of(const char *line, size_t len) {
  char model[32] = "standard";
  member_string(line, len, "model", model, sizeof model);
  return !strcmp(model, "final") ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
}

/* The decode request: verified unless it says "trusted": true. */
static cli_decode_fn decode_of(const char *line, size_t len) {
  span trusted = member(line, len, "trusted");
  return trusted.len == 4 && !memcmp(trusted.at, "true", 4) ? fbe_decode_trusted : fbe_decode;
}

/* The schema and type named by the request; NULL after writing the failure. */
static const fbe_struct *type_of(testee *t, const char *line, size_t len, fbe_schema **schema_out) {
  char package[64], type[96], why[600], name[200];
  if (member_string(line, len, "package", package, sizeof package) ||
      member_string(line, len, "type", type, sizeof type)) {
    fail(t, "request needs \"package\" and \"type\"");
    return NULL;
  }
  fbe_schema *schema = schema_for(t, package, why, sizeof why);
  if (!schema) {
    fail(t, why);
    return NULL;
  }
  snprintf(name, sizeof name, "%s.%s", package, type);
  const fbe_struct *st = fbe_schema_find_struct(schema, name);
  if (!st) {
    snprintf(why, sizeof why, "no type %s", name);
    fail(t, why);
  }
  if (schema_out) *schema_out = schema;
  return st;
}

static uint8_t *hex_of(testee *t, const char *line, size_t len, size_t *size) {
  span hex = member(line, len, "hex");
  uint8_t *bytes = NULL;
  if (hex.at && hex.len >= 2 && hex.at[0] == '"') bytes = hex_decode((span){hex.at + 1, hex.len - 2}, size);
  if (!bytes) fail(t, "request needs \"hex\" (an even number of hex digits)");
  return bytes;
}

static void do_encode(testee *t, const char *line, size_t len) {
  const fbe_struct *type = type_of(t, line, len, NULL);
  if (!type) return;
  span json = member(line, len, "json");
  if (!json.at) return fail(t, "request needs \"json\"");
  fbe_msg *msg;
  fbe_error err;
  if (fbe_msg_from_json(type, json.at, json.len, t->arena, &msg, &err)) return fail_err(t, "bad JSON value", &err);
  fbe_buffer_reset(&t->tmp);
  if (fbe_encode(msg, model_of(line, len), &t->tmp, &err)) return fail_err(t, "encode failed", &err);
  fbe_buffer_reset(&t->out);
  put(&t->out, "{\"ok\":true,\"hex\":");
  put_hex(&t->out, t->tmp.data, t->tmp.size);
  put(&t->out, "}");
}

static void do_decode(testee *t, const char *line, size_t len) {
  const fbe_struct *type = type_of(t, line, len, NULL);
  if (!type) return;
  size_t size = 0;
  uint8_t *bytes = hex_of(t, line, len, &size);
  if (!bytes) return;
  fbe_msg *msg;
  fbe_error err;
  if (decode_of(line, len)(type, model_of(line, len), bytes, size, t->arena, NULL, &msg, NULL, &err)) {
    free(bytes);
    return fail_err(t, "decode failed", &err);
  }
  free(bytes);
  fbe_buffer_reset(&t->out);
  put(&t->out, "{\"ok\":true,\"json\":");
  if (fbe_msg_to_json(msg, 0, &t->out, &err)) return fail_err(t, "cannot write JSON", &err);
  put(&t->out, "}");
}

static void do_verify(testee *t, const char *line, size_t len) {
  const fbe_struct *type = type_of(t, line, len, NULL);
  if (!type) return;
  size_t size = 0, model_size = 0;
  uint8_t *bytes = hex_of(t, line, len, &size);
  if (!bytes) return;
  fbe_error err;
  fbe_status rc = fbe_verify(type, model_of(line, len), bytes, size, NULL, &model_size, &err);
  free(bytes);
  fbe_buffer_reset(&t->out);
  if (rc == FBE_OK) {
    char text[64];
    snprintf(text, sizeof text, "{\"ok\":true,\"valid\":true,\"size\":%zu}", model_size);
    put(&t->out, text);
  } else {
    char text[512];
    fbe_error_format(&err, text, sizeof text);
    put(&t->out, "{\"ok\":true,\"valid\":false,\"reason\":");
    put_escaped(&t->out, text);
    put(&t->out, "}");
  }
}

static int append_sink(void *ctx, const uint8_t *data, size_t size) { return fbe_buffer_append(ctx, data, size); }

static void do_stream_encode(testee *t, const char *line, size_t len) {
  char package[64], why[600];
  if (member_string(line, len, "package", package, sizeof package)) return fail(t, "request needs \"package\"");
  fbe_schema *schema = schema_for(t, package, why, sizeof why);
  if (!schema) return fail(t, why);
  json_iter it;
  span item;
  span messages = member(line, len, "messages");
  if (!messages.at || json_iter_init(&it, messages)) return fail(t, "request needs \"messages\"");
  fbe_buffer_reset(&t->tmp);
  fbe_sender *snd = fbe_sender_new(schema, package, model_of(line, len), append_sink, &t->tmp);
  if (!snd) return fail(t, "cannot create a sender");
  int more;
  while ((more = json_iter_next(&it, &item)) == 1) {
    fbe_msg *msg;
    fbe_error err;
    if (stream_item_build(schema, item, t->arena, &msg, why, sizeof why)) {
      fbe_sender_free(snd);
      return fail(t, why);
    }
    if (fbe_sender_send(snd, msg, &err)) {
      fbe_sender_free(snd);
      return fail_err(t, "send failed", &err);
    }
  }
  fbe_sender_free(snd);
  if (more < 0) return fail(t, "malformed \"messages\"");
  fbe_buffer_reset(&t->out);
  put(&t->out, "{\"ok\":true,\"hex\":");
  put_hex(&t->out, t->tmp.data, t->tmp.size);
  put(&t->out, "}");
}

typedef struct collector {
  fbe_buffer *out;
  size_t count;
} collector;

static int collect(void *ctx, const fbe_msg *msg) {
  collector *c = ctx;
  fbe_error err;
  if (c->count++ && fbe_buffer_append(c->out, ",", 1)) return 1;
  return stream_item_write(msg, c->out, &err) ? 1 : 0;
}

/* A JSON member holding a non-negative integer (below 2^32): 0 and *out, 1 when
 * absent, -1 when malformed. */
static int member_size(span s, size_t *out) {
  if (!s.at) return 1;
  if (!s.len || s.len > 10) return -1;
  unsigned long long v = 0;
  for (size_t i = 0; i < s.len; i++) {
    if (s.at[i] < '0' || s.at[i] > '9') return -1;
    v = v * 10 + (unsigned)(s.at[i] - '0');
  }
  if (v > 0xFFFFFFFFull) return -1;
  *out = (size_t)v;
  return 0;
}

/* Feeds bytes to the receiver in the pieces the request asks for (tests/conformance/
 * README.md): the sizes in "chunks" first, then the rest in pieces of "chunk_size", or
 * as one last piece. A request with neither feeds the bytes whole. 0 when fed, 1 on a
 * stream error (in err), -1 on a bad "chunks" or "chunk_size" (the failure written). */
static int feed_pieces(testee *t, fbe_receiver *rcv, const char *line, size_t len, const uint8_t *bytes,
                       size_t size, fbe_error *err) {
  size_t pos = 0, step = 0, n = 0;
  int fed = 0, has_step = member_size(member(line, len, "chunk_size"), &step);
  if (has_step < 0 || (has_step == 0 && step == 0)) {
    fail(t, "\"chunk_size\" must be a positive integer");
    return -1;
  }
  span chunks = member(line, len, "chunks");
  if (chunks.at) {
    json_iter it;
    span item;
    int more = -1;
    if (json_iter_init(&it, chunks) == 0) {
      while ((more = json_iter_next(&it, &item)) == 1) {
        if (member_size(item, &n)) break;
        if (n > size - pos) n = size - pos;
        if (fbe_receiver_feed(rcv, bytes + pos, n, err)) return 1;
        pos += n;
        fed = 1;
      }
    }
    if (more != 0) {
      fail(t, "\"chunks\" must be an array of non-negative integers");
      return -1;
    }
  }
  if (has_step == 0) {
    for (; pos < size; pos += n) {
      n = step < size - pos ? step : size - pos;
      if (fbe_receiver_feed(rcv, bytes + pos, n, err)) return 1;
    }
  } else if (pos < size || !fed) {
    if (fbe_receiver_feed(rcv, bytes + pos, size - pos, err)) return 1;
  }
  return 0;
}

static void do_stream_decode(testee *t, const char *line, size_t len) {
  char package[64], why[600];
  if (member_string(line, len, "package", package, sizeof package)) return fail(t, "request needs \"package\"");
  fbe_schema *schema = schema_for(t, package, why, sizeof why);
  if (!schema) return fail(t, why);
  size_t size = 0;
  uint8_t *bytes = hex_of(t, line, len, &size);
  if (!bytes) return;
  fbe_buffer_reset(&t->tmp);
  collector c = {&t->tmp, 0};
  fbe_receiver *rcv = fbe_receiver_new(schema, package, model_of(line, len), NULL, collect, &c);
  if (!rcv) {
    free(bytes);
    return fail(t, "cannot create a receiver");
  }
  fbe_error err;
  int rc = feed_pieces(t, rcv, line, len, bytes, size, &err);
  size_t pending = fbe_receiver_pending(rcv);
  fbe_receiver_free(rcv);
  free(bytes);
  if (rc < 0) return;
  if (rc) return fail_err(t, "bad stream", &err);
  fbe_buffer_reset(&t->out);
  put(&t->out, "{\"ok\":true,\"messages\":[");
  fbe_buffer_append(&t->out, t->tmp.data, t->tmp.size);
  char tail[64];
  snprintf(tail, sizeof tail, "],\"pending\":%zu}", pending);
  put(&t->out, tail);
}

/* ---- describe: the structs of a package and their field types (used by the vector
 * generator, tests/conformance/gen/; optional for other testees) ---- */

static void put_type(fbe_buffer *b, const fbe_type *t) {
  fbe_kind kind = fbe_type_kind(t);
  put(b, "{\"kind\":");
  put_escaped(b, fbe_kind_name(kind));
  if (kind == FBE_KIND_STRUCT) {
    put(b, ",\"struct\":");
    put_escaped(b, fbe_struct_full_name(fbe_type_struct(t)));
  } else if (kind == FBE_KIND_ENUM || kind == FBE_KIND_FLAGS) {
    const fbe_enum *e = fbe_type_enum(t);
    char text[64];
    put(b, ",\"enum\":");
    put_escaped(b, fbe_enum_full_name(e));
    put(b, ",\"base\":");
    put_escaped(b, fbe_kind_name(fbe_enum_base(e)));
    put(b, ",\"values\":[");
    for (size_t i = 0; i < fbe_enum_value_count(e); i++) {
      snprintf(text, sizeof text, "%s%llu", i ? "," : "", (unsigned long long)fbe_enum_value_at(e, i));
      put(b, text);
    }
    put(b, "]");
  } else if (kind == FBE_KIND_ARRAY) {
    char text[32];
    snprintf(text, sizeof text, ",\"size\":%u", (unsigned)fbe_type_array_size(t));
    put(b, text);
  }
  if (fbe_type_key(t)) {
    put(b, ",\"key\":");
    put_type(b, fbe_type_key(t));
  }
  if (fbe_type_element(t)) {
    put(b, ",\"elem\":");
    put_type(b, fbe_type_element(t));
  }
  put(b, "}");
}

static void do_describe(testee *t, const char *line, size_t len) {
  char package[64], why[600];
  if (member_string(line, len, "package", package, sizeof package)) return fail(t, "request needs \"package\"");
  fbe_schema *schema = schema_for(t, package, why, sizeof why);
  if (!schema) return fail(t, why);
  const fbe_package *pkg = fbe_schema_root(schema);
  fbe_buffer_reset(&t->out);
  put(&t->out, "{\"ok\":true,\"structs\":[");
  for (size_t i = 0; i < fbe_package_struct_count(pkg); i++) {
    const fbe_struct *st = fbe_package_struct_at(pkg, i);
    put(&t->out, i ? ",{\"name\":" : "{\"name\":");
    put_escaped(&t->out, fbe_struct_full_name(st));
    if (fbe_struct_base(st)) {
      put(&t->out, ",\"base\":");
      put_escaped(&t->out, fbe_struct_full_name(fbe_struct_base(st)));
    }
    put(&t->out, fbe_struct_is_message(st) ? ",\"message\":true,\"fields\":[" : ",\"fields\":[");
    for (size_t j = 0; j < fbe_struct_field_count(st); j++) {
      const fbe_field *f = fbe_struct_field_at(st, j);
      put(&t->out, j ? ",{\"name\":" : "{\"name\":");
      put_escaped(&t->out, fbe_field_name(f));
      put(&t->out, ",\"type\":");
      put_type(&t->out, fbe_field_type(f));
      put(&t->out, "}");
    }
    put(&t->out, "]}");
  }
  put(&t->out, "]}");
}

int cmd_testee(int argc, char **argv) {
  (void)argv;
  if (argc != 0) {
    fprintf(stderr, "usage: fbe testee   (JSON requests on stdin, see tests/conformance/README.md)\n");
    return 2;
  }
  testee *t = calloc(1, sizeof *t);
  if (!t || !(t->arena = fbe_arena_new())) return 1;
  char *line = NULL;
  size_t cap = 0;
  long n;
  while ((n = read_line(&line, &cap)) >= 0) {
    size_t len = (size_t)n;
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
    if (!len) continue;
    char op[32] = "";
    fbe_arena_reset(t->arena);
    member_string(line, len, "op", op, sizeof op);
    if (!strcmp(op, "load")) do_load(t, line, len);
    else if (!strcmp(op, "encode")) do_encode(t, line, len);
    else if (!strcmp(op, "decode")) do_decode(t, line, len);
    else if (!strcmp(op, "verify")) do_verify(t, line, len);
    else if (!strcmp(op, "stream-encode")) do_stream_encode(t, line, len);
    else if (!strcmp(op, "stream-decode")) do_stream_decode(t, line, len);
    else if (!strcmp(op, "describe")) do_describe(t, line, len);
    else if (!strcmp(op, "quit")) break;
    else fail(t, "unknown op");
    fwrite(t->out.data, 1, t->out.size, stdout);
    fputc('\n', stdout);
    fflush(stdout);
  }
  free(line);
  drop_schemas(t);
  for (size_t i = 0; i < t->include_count; i++) free(t->includes[i]);
  fbe_buffer_free(&t->out);
  fbe_buffer_free(&t->tmp);
  fbe_arena_free(t->arena);
  free(t);
  return 0;
}

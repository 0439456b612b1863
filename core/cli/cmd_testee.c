/* fbe testee: the C testee of the cross-language conformance runner
 * (tests/conformance/README.md). One JSON request per stdin line, one JSON response
 * per stdout line; requests: load, encode (with "native": true through the setter API,
 * testee_native.c), decode and text (with "view": true from a view of the bytes),
 * verify, stream-encode, stream-decode, describe, and the conversations' sessions
 * (testee_conversation.c). An
 * error of the core answers its status name and its text ({"ok":false,"status":
 * "FBE_ERR_TYPE","error":"..."}). Names and schema texts have no length limit, a
 * session any number of packages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "package_cache.h"
#include "record.h"
#include "stream_item.h"
#include "testee_native.h"
#include "testee_packages.h"
#include "testee.h"


/* ---- a minimal reader of the request object's members ---- */

static const char *blank(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

/* Finds member `name` of the top-level object; its value span or {NULL,0}. */
span tj_member(const char *line, size_t len, const char *name) {
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

/* A JSON string member, decoded (malloc'd); NULL when absent, not a string or out of memory. */
char *tj_member_text(const char *line, size_t len, const char *name) {
  span s = tj_member(line, len, name);
  return s.at ? json_string_decode(s, NULL) : NULL;
}

/* Whether member `name` is the JSON string `value`. */
int tj_member_is(const char *line, size_t len, const char *name, const char *value) {
  char *text = tj_member_text(line, len, name);
  int same = text && !strcmp(text, value);
  free(text);
  return same;
}

/* ---- responses ---- */

/* s[0..n) as a JSON string (its bytes kept: UTF-8 stays UTF-8). */
void tj_put_escaped_n(fbe_buffer *b, const char *s, size_t n) {
  fbe_buffer_append(b, "\"", 1);
  for (const char *end = s + n; s < end; s++) {
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

void tj_put_escaped(fbe_buffer *b, const char *s) { tj_put_escaped_n(b, s, strlen(s)); }

void tj_put(fbe_buffer *b, const char *s) { fbe_buffer_append(b, s, strlen(s)); }

void tj_put_hex(fbe_buffer *b, const uint8_t *data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  fbe_buffer_append(b, "\"", 1);
  for (size_t i = 0; i < size; i++) {
    char two[2] = {digits[data[i] >> 4], digits[data[i] & 15]};
    fbe_buffer_append(b, two, 2);
  }
  fbe_buffer_append(b, "\"", 1);
}

/* An error response; status: the core's status name, NULL for a bad request (no fbe
 * error: the runner's mistake, not the value's). */
void tj_fail_status(testee *t, const char *status, const char *why) {
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":false,");
  if (status) {
    tj_put(&t->out, "\"status\":");
    tj_put_escaped(&t->out, status);
    tj_put(&t->out, ",");
  }
  tj_put(&t->out, "\"error\":");
  tj_put_escaped(&t->out, why);
  tj_put(&t->out, "}");
}

void tj_fail(testee *t, const char *why) { tj_fail_status(t, NULL, why); }

/* The core's error as every binding shows it: its status name and fbe_error_format's text. */
void tj_fail_err(testee *t, const fbe_error *err) {
  char text[512];
  fbe_error_format(err, text, sizeof text);
  tj_fail_status(t, fbe_status_name(err->code), text);
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

fbe_schema *tj_schema_for(testee *t, const char *package, char *why, size_t why_size) {
  fbe_load_options lo = {(const char *const *)t->includes, t->include_count};
  fbe_diagnostics diags;
  fbe_schema *schema = package_cache_get(&t->cache, package, &lo, &diags);
  snprintf(why, why_size, "cannot load package '%s'", package);
  if (!schema && diags.count) fbe_diagnostic_format(&diags.items[0], why, why_size);
  fbe_diagnostics_free(&diags);
  return schema;
}

static void forget_load(testee *t) {
  testee_sessions_close(t); /* (they hold the schemas of the load) */
  package_cache_clear(&t->cache);
  for (size_t i = 0; i < t->include_count; i++) free(t->includes[i]);
  free(t->includes);
  t->includes = NULL;
  t->include_count = 0;
  testee_packages_remove(&t->packages);
}

static int add_include(testee *t, char *dir) {
  char **more = realloc(t->includes, (t->include_count + 1) * sizeof *more);
  if (!more) {
    free(dir);
    return -1;
  }
  t->includes = more;
  t->includes[t->include_count++] = dir;
  return 0;
}

/* load: "packages" (name -> schema text) are written to a fresh directory that is
 * searched first, then the "include" directories; "files" are loaded to check them. */
static void do_load(testee *t, const char *line, size_t len) {
  forget_load(t);
  json_iter it;
  span item;
  char why[600];
  span packages = tj_member(line, len, "packages");
  if (packages.at) {
    if (testee_packages_write(&t->packages, packages, why, sizeof why)) return tj_fail(t, why);
    char *dir = malloc(strlen(t->packages.dir) + 1);
    if (!dir || add_include(t, strcpy(dir, t->packages.dir))) return tj_fail(t, "out of memory");
  }
  span inc = tj_member(line, len, "include");
  if (inc.at) {
    int more = -1;
    if (json_iter_init(&it, inc) == 0) {
      while ((more = json_iter_next(&it, &item)) == 1) {
        char *dir = json_string_decode(item, NULL);
        if (!dir) break;
        if (add_include(t, dir)) return tj_fail(t, "out of memory");
      }
    }
    if (more != 0) return tj_fail(t, "\"include\" must be an array of directory names");
  }
  span files = tj_member(line, len, "files");
  if (files.at && json_iter_init(&it, files) == 0) {
    fbe_load_options lo = {(const char *const *)t->includes, t->include_count};
    while (json_iter_next(&it, &item) == 1) {
      char *path = json_string_decode(item, NULL);
      if (!path) return tj_fail(t, "\"files\" must be an array of file names");
      fbe_diagnostics diags = {0, NULL};
      fbe_schema *s = fbe_schema_load_file(path, &lo, &diags);
      snprintf(why, sizeof why, "cannot load %s", path);
      free(path);
      if (!s && diags.count) fbe_diagnostic_format(&diags.items[0], why, sizeof why);
      fbe_diagnostics_free(&diags);
      if (!s) return tj_fail(t, why);
      fbe_schema_release(s);
    }
  }
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":true}");
}

fbe_model tj_model_of(const char *line, size_t len) {
  return tj_member_is(line, len, "model", "final") ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
}

/* The decode request: verified unless it says "trusted": true. */
static cli_decode_fn decode_of(const char *line, size_t len) {
  span trusted = tj_member(line, len, "trusted");
  return trusted.len == 4 && !memcmp(trusted.at, "true", 4) ? fbe_decode_trusted : fbe_decode;
}

/* The schema and type named by the request; NULL after writing the failure. */
static const fbe_struct *type_of(testee *t, const char *line, size_t len) {
  char *package = tj_member_text(line, len, "package"), *type = tj_member_text(line, len, "type");
  char *name = package && type ? malloc(strlen(package) + strlen(type) + 2) : NULL;
  const fbe_struct *st = NULL;
  char why[600];
  if (!package || !type) {
    tj_fail(t, "request needs \"package\" and \"type\"");
  } else if (!name) {
    tj_fail(t, "out of memory");
  } else {
    fbe_schema *schema = tj_schema_for(t, package, why, sizeof why);
    sprintf(name, "%s.%s", package, type);
    if (!schema) {
      tj_fail(t, why);
    } else if (!(st = fbe_schema_find_struct(schema, name))) {
      snprintf(why, sizeof why, "no type %s", name);
      tj_fail(t, why);
    }
  }
  free(package);
  free(type);
  free(name);
  return st;
}

/* The schema of the request's "package" (*package: its name, malloc'd); NULL after
 * writing the failure. */
fbe_schema *tj_package_of(testee *t, const char *line, size_t len, char **package) {
  char why[600];
  if (!(*package = tj_member_text(line, len, "package"))) {
    tj_fail(t, "request needs \"package\"");
    return NULL;
  }
  fbe_schema *schema = tj_schema_for(t, *package, why, sizeof why);
  if (!schema) tj_fail(t, why);
  return schema;
}

uint8_t *tj_hex_of(testee *t, const char *line, size_t len, size_t *size) {
  span hex = tj_member(line, len, "hex");
  uint8_t *bytes = NULL;
  if (hex.at && hex.len >= 2 && hex.at[0] == '"') bytes = hex_decode((span){hex.at + 1, hex.len - 2}, size);
  if (!bytes) tj_fail(t, "request needs \"hex\" (an even number of hex digits)");
  return bytes;
}

static void do_encode(testee *t, const char *line, size_t len) {
  const fbe_struct *type = type_of(t, line, len);
  if (!type) return;
  span json = tj_member(line, len, "json");
  if (!json.at) return tj_fail(t, "request needs \"json\"");
  fbe_msg *msg;
  fbe_error err;
  span native = tj_member(line, len, "native");
  fbe_status s = native.len == 4 && !memcmp(native.at, "true", 4)
                     ? testee_native_build(type, json, t->arena, &msg, &err)
                     : fbe_msg_from_json(type, json.at, json.len, t->arena, &msg, &err);
  if (s) return tj_fail_err(t, &err);
  fbe_buffer_reset(&t->tmp);
  if (fbe_encode(msg, tj_model_of(line, len), &t->tmp, &err)) return tj_fail_err(t, &err);
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":true,\"hex\":");
  tj_put_hex(&t->out, t->tmp.data, t->tmp.size);
  tj_put(&t->out, "}");
}

/* The message of a decode or text request; NULL after writing the failure. */
static fbe_msg *decoded(testee *t, const char *line, size_t len) {
  const fbe_struct *type = type_of(t, line, len);
  if (!type) return NULL;
  size_t size = 0;
  uint8_t *bytes = tj_hex_of(t, line, len, &size);
  if (!bytes) return NULL;
  fbe_msg *msg = NULL;
  fbe_error err;
  fbe_status s = decode_of(line, len)(type, tj_model_of(line, len), bytes, size, t->arena, NULL, &msg, NULL, &err);
  free(bytes);
  if (s) tj_fail_err(t, &err);
  return s ? NULL : msg;
}

/* "view": true on a decode or text request: the answer comes from a view of the bytes
 * (fbe/view.h), its JSON or text, which must be the decoded value's. A view verifies:
 * "trusted" does not skip that here (tests/conformance/README.md, --view). */
static int wants_view(const char *line, size_t len) {
  span view = tj_member(line, len, "view");
  return view.len == 4 && !memcmp(view.at, "true", 4);
}

static void view_answer(testee *t, const char *line, size_t len, int text) {
  const fbe_struct *type = type_of(t, line, len);
  if (!type) return;
  size_t size = 0;
  uint8_t *bytes = tj_hex_of(t, line, len, &size);
  if (!bytes) return;
  fbe_view view;
  fbe_error err;
  fbe_buffer_reset(&t->tmp);
  fbe_status s = fbe_view_open(type, tj_model_of(line, len), bytes, size, NULL, &view, &err);
  if (s == FBE_OK) s = text ? fbe_view_to_text(view, NULL, &t->tmp, &err) : fbe_view_to_json(view, NULL, &t->tmp, &err);
  free(bytes);
  if (s) return tj_fail_err(t, &err);
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, text ? "{\"ok\":true,\"text\":" : "{\"ok\":true,\"json\":");
  if (text) tj_put_escaped_n(&t->out, (const char *)t->tmp.data, t->tmp.size);
  else fbe_buffer_append(&t->out, t->tmp.data, t->tmp.size);
  tj_put(&t->out, "}");
}

static void do_decode(testee *t, const char *line, size_t len) {
  if (wants_view(line, len)) return view_answer(t, line, len, 0);
  fbe_msg *msg = decoded(t, line, len);
  if (!msg) return;
  fbe_error err;
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":true,\"json\":");
  if (fbe_msg_to_json(msg, 0, &t->out, &err)) return tj_fail_err(t, &err);
  tj_put(&t->out, "}");
}

/* text: decode as decode does, answer the text form (docs/TEXT.md) as a JSON string. */
static void do_text(testee *t, const char *line, size_t len) {
  if (wants_view(line, len)) return view_answer(t, line, len, 1);
  fbe_msg *msg = decoded(t, line, len);
  if (!msg) return;
  fbe_error err;
  fbe_buffer_reset(&t->tmp);
  if (fbe_msg_to_text(msg, &t->tmp, &err)) return tj_fail_err(t, &err);
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":true,\"text\":");
  tj_put_escaped_n(&t->out, (const char *)t->tmp.data, t->tmp.size);
  tj_put(&t->out, "}");
}

static void do_verify(testee *t, const char *line, size_t len) {
  const fbe_struct *type = type_of(t, line, len);
  if (!type) return;
  size_t size = 0, model_size = 0;
  uint8_t *bytes = tj_hex_of(t, line, len, &size);
  if (!bytes) return;
  fbe_error err;
  fbe_status rc = fbe_verify(type, tj_model_of(line, len), bytes, size, NULL, &model_size, &err);
  free(bytes);
  fbe_buffer_reset(&t->out);
  if (rc == FBE_OK) {
    char text[64];
    snprintf(text, sizeof text, "{\"ok\":true,\"valid\":true,\"size\":%zu}", model_size);
    tj_put(&t->out, text);
  } else {
    char text[512];
    fbe_error_format(&err, text, sizeof text);
    tj_put(&t->out, "{\"ok\":true,\"valid\":false,\"reason\":");
    tj_put_escaped(&t->out, text);
    tj_put(&t->out, "}");
  }
}

static int append_sink(void *ctx, const uint8_t *data, size_t size) { return fbe_buffer_append(ctx, data, size); }

/* Sends the request's messages with the protocol of package into t->tmp. 0, or -1
 * after writing the failure. */
static int send_messages(testee *t, const char *line, size_t len, fbe_schema *schema, const char *package) {
  char why[600];
  json_iter it;
  span item;
  span messages = tj_member(line, len, "messages");
  if (!messages.at || json_iter_init(&it, messages)) {
    tj_fail(t, "request needs \"messages\"");
    return -1;
  }
  fbe_buffer_reset(&t->tmp);
  fbe_sender *snd = fbe_sender_new(schema, package, tj_model_of(line, len), append_sink, &t->tmp);
  if (!snd) {
    tj_fail(t, "cannot create a sender");
    return -1;
  }
  int more;
  while ((more = json_iter_next(&it, &item)) == 1) {
    fbe_msg *msg;
    fbe_error err;
    if (stream_item_build(schema, item, t->arena, &msg, why, sizeof why)) {
      fbe_sender_free(snd);
      tj_fail(t, why);
      return -1;
    }
    if (fbe_sender_send(snd, msg, &err)) {
      fbe_sender_free(snd);
      tj_fail_err(t, &err);
      return -1;
    }
  }
  fbe_sender_free(snd);
  if (more < 0) {
    tj_fail(t, "malformed \"messages\"");
    return -1;
  }
  return 0;
}

static void do_stream_encode(testee *t, const char *line, size_t len) {
  char *package;
  fbe_schema *schema = tj_package_of(t, line, len, &package);
  int rc = schema ? send_messages(t, line, len, schema, package) : -1;
  free(package);
  if (rc) return;
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":true,\"hex\":");
  tj_put_hex(&t->out, t->tmp.data, t->tmp.size);
  tj_put(&t->out, "}");
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
  int fed = 0, has_step = member_size(tj_member(line, len, "chunk_size"), &step);
  if (has_step < 0 || (has_step == 0 && step == 0)) {
    tj_fail(t, "\"chunk_size\" must be a positive integer");
    return -1;
  }
  span chunks = tj_member(line, len, "chunks");
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
      tj_fail(t, "\"chunks\" must be an array of non-negative integers");
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
  char *package;
  fbe_schema *schema = tj_package_of(t, line, len, &package);
  size_t size = 0;
  uint8_t *bytes = schema ? tj_hex_of(t, line, len, &size) : NULL;
  if (!bytes) {
    free(package);
    return;
  }
  fbe_buffer_reset(&t->tmp);
  collector c = {&t->tmp, 0};
  fbe_receiver *rcv = fbe_receiver_new(schema, package, tj_model_of(line, len), NULL, collect, &c);
  free(package);
  if (!rcv) {
    free(bytes);
    return tj_fail(t, "cannot create a receiver");
  }
  fbe_error err;
  int rc = feed_pieces(t, rcv, line, len, bytes, size, &err);
  size_t pending = fbe_receiver_pending(rcv);
  fbe_receiver_free(rcv);
  free(bytes);
  if (rc < 0) return;
  if (rc) return tj_fail_err(t, &err);
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":true,\"messages\":[");
  fbe_buffer_append(&t->out, t->tmp.data, t->tmp.size);
  char tail[64];
  snprintf(tail, sizeof tail, "],\"pending\":%zu}", pending);
  tj_put(&t->out, tail);
}

/* ---- describe: the structs of a package and their field types (used by the vector
 * generator, tests/conformance/gen/; optional for other testees) ---- */

static void put_type(fbe_buffer *b, const fbe_type *t) {
  fbe_kind kind = fbe_type_kind(t);
  tj_put(b, "{\"kind\":");
  tj_put_escaped(b, fbe_kind_name(kind));
  if (kind == FBE_KIND_STRUCT) {
    tj_put(b, ",\"struct\":");
    tj_put_escaped(b, fbe_struct_full_name(fbe_type_struct(t)));
  } else if (kind == FBE_KIND_ENUM || kind == FBE_KIND_FLAGS) {
    const fbe_enum *e = fbe_type_enum(t);
    char text[64];
    tj_put(b, ",\"enum\":");
    tj_put_escaped(b, fbe_enum_full_name(e));
    tj_put(b, ",\"base\":");
    tj_put_escaped(b, fbe_kind_name(fbe_enum_base(e)));
    tj_put(b, ",\"values\":[");
    for (size_t i = 0; i < fbe_enum_value_count(e); i++) {
      snprintf(text, sizeof text, "%s%llu", i ? "," : "", (unsigned long long)fbe_enum_value_at(e, i));
      tj_put(b, text);
    }
    tj_put(b, "]");
  } else if (kind == FBE_KIND_ARRAY) {
    char text[32];
    snprintf(text, sizeof text, ",\"size\":%u", (unsigned)fbe_type_array_size(t));
    tj_put(b, text);
  }
  if (fbe_type_key(t)) {
    tj_put(b, ",\"key\":");
    put_type(b, fbe_type_key(t));
  }
  if (fbe_type_element(t)) {
    tj_put(b, ",\"elem\":");
    put_type(b, fbe_type_element(t));
  }
  tj_put(b, "}");
}

static void do_describe(testee *t, const char *line, size_t len) {
  char *package;
  fbe_schema *schema = tj_package_of(t, line, len, &package);
  free(package);
  if (!schema) return;
  const fbe_package *pkg = fbe_schema_root(schema);
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":true,\"structs\":[");
  for (size_t i = 0; i < fbe_package_struct_count(pkg); i++) {
    const fbe_struct *st = fbe_package_struct_at(pkg, i);
    tj_put(&t->out, i ? ",{\"name\":" : "{\"name\":");
    tj_put_escaped(&t->out, fbe_struct_full_name(st));
    if (fbe_struct_base(st)) {
      tj_put(&t->out, ",\"base\":");
      tj_put_escaped(&t->out, fbe_struct_full_name(fbe_struct_base(st)));
    }
    tj_put(&t->out, fbe_struct_is_message(st) ? ",\"message\":true,\"fields\":[" : ",\"fields\":[");
    for (size_t j = 0; j < fbe_struct_field_count(st); j++) {
      const fbe_field *f = fbe_struct_field_at(st, j);
      tj_put(&t->out, j ? ",{\"name\":" : "{\"name\":");
      tj_put_escaped(&t->out, fbe_field_name(f));
      tj_put(&t->out, ",\"type\":");
      put_type(&t->out, fbe_field_type(f));
      tj_put(&t->out, "}");
    }
    tj_put(&t->out, "]}");
  }
  tj_put(&t->out, "]}");
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
    fbe_arena_reset(t->arena);
    char *op = tj_member_text(line, len, "op");
    const char *o = op ? op : "";
    int quit = !strcmp(o, "quit");
    if (!strcmp(o, "load")) do_load(t, line, len);
    else if (!strcmp(o, "encode")) do_encode(t, line, len);
    else if (!strcmp(o, "decode")) do_decode(t, line, len);
    else if (!strcmp(o, "text")) do_text(t, line, len);
    else if (!strcmp(o, "verify")) do_verify(t, line, len);
    else if (!strcmp(o, "stream-encode")) do_stream_encode(t, line, len);
    else if (!strcmp(o, "stream-decode")) do_stream_decode(t, line, len);
    else if (!strcmp(o, "describe")) do_describe(t, line, len);
    else if (!quit && !testee_conversation(t, o, line, len)) tj_fail(t, "unknown op");
    free(op);
    if (quit) break;
    fwrite(t->out.data, 1, t->out.size, stdout);
    fputc('\n', stdout);
    fflush(stdout);
  }
  free(line);
  forget_load(t);
  fbe_buffer_free(&t->out);
  fbe_buffer_free(&t->tmp);
  fbe_arena_free(t->arena);
  free(t);
  return 0;
}

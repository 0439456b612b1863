/* The C testee's conversations (docs/TESTEE.md, "Conversations"): sessions that are a
 * client (fbe_client), a server (a receiver of requests and a sender of replies made
 * with fbe_reply_prepare) or a proxy (fbe_proxy_new) of a package. What a session sends
 * and what its callbacks see is gathered, then written into the answer of the request
 * that caused it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testee.h"

enum { CLIENT, SERVER, PROXY };

struct testee_session {
  char *name;
  int kind;
  fbe_schema *schema;
  char *package;
  fbe_client *client;     /* CLIENT */
  fbe_sender *sender;     /* SERVER */
  fbe_receiver *receiver; /* SERVER: the requests; PROXY: the frames */
  fbe_buffer wire;        /* bytes sent since the last answer */
  fbe_buffer ended, notified, items, log; /* JSON array elements since the last answer, each after a ',' */
  fbe_arena *kept;        /* SERVER: the requests received, kept for reply */
  fbe_msg **requests;
  size_t nrequests, cap;
  testee_session *next;
};

static int to_wire(void *ctx, const uint8_t *data, size_t size) {
  testee_session *s = ctx;
  return fbe_buffer_append(&s->wire, data, size);
}

/* {"type":"pkg.Name","json":VALUE} of msg into b, after a comma. */
static void put_message(fbe_buffer *b, const fbe_msg *msg) {
  fbe_buffer_append(b, ",{\"type\":", 9);
  tj_put_escaped(b, fbe_struct_full_name(fbe_msg_type(msg)));
  tj_put(b, ",\"json\":");
  if (fbe_msg_to_json(msg, 0, b, NULL)) tj_put(b, "null");
  tj_put(b, "}");
}

static const char *const END_NAMES[] = {"sent", "responded", "rejected", "timeout", "reset"};

static void on_done(void *ctx, uint64_t token, fbe_request_end end, const fbe_msg *msg, const fbe_error *err) {
  testee_session *s = ctx;
  char head[64];
  snprintf(head, sizeof head, ",{\"token\":%llu,\"end\":\"%s\"", (unsigned long long)token, END_NAMES[end]);
  tj_put(&s->ended, head);
  if (msg) {
    tj_put(&s->ended, ",\"type\":");
    tj_put_escaped(&s->ended, fbe_struct_full_name(fbe_msg_type(msg)));
    tj_put(&s->ended, ",\"json\":");
    if (fbe_msg_to_json(msg, 0, &s->ended, NULL)) tj_put(&s->ended, "null");
  }
  if (err) {
    tj_put(&s->ended, ",\"status\":");
    tj_put_escaped(&s->ended, fbe_status_name(err->code));
    tj_put(&s->ended, ",\"error\":");
    char text[512];
    fbe_error_format(err, text, sizeof text);
    tj_put_escaped(&s->ended, text);
  }
  tj_put(&s->ended, "}");
}

static int on_notify(void *ctx, const fbe_msg *msg) {
  put_message(&((testee_session *)ctx)->notified, msg);
  return 0;
}

static int on_request(void *ctx, const fbe_msg *msg) {
  testee_session *s = ctx;
  if (s->nrequests == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    fbe_msg **more = realloc(s->requests, cap * sizeof *more);
    if (!more) return 1;
    s->requests = more;
    s->cap = cap;
  }
  fbe_msg *copy = NULL;
  if (fbe_msg_copy(msg, s->kept, &copy, NULL)) return 1;
  s->requests[s->nrequests++] = copy;
  put_message(&s->items, msg);
  return 0;
}

static int on_frame(void *ctx, uint32_t type_id, const fbe_struct *type, const uint8_t *frame, size_t size) {
  testee_session *s = ctx;
  char head[64];
  snprintf(head, sizeof head, ",{\"type_id\":%lu,\"known\":%s,\"hex\":", (unsigned long)type_id, type ? "true" : "false");
  tj_put(&s->items, head);
  tj_put_hex(&s->items, frame, size);
  tj_put(&s->items, "}");
  return 0;
}

static void on_log(void *ctx, const fbe_msg *msg, const char *text, size_t size, const char *way) {
  testee_session *s = ctx;
  (void)msg;
  fbe_buffer line;
  fbe_buffer_init(&line);
  tj_put(&line, way);
  fbe_buffer_append(&line, text, size);
  tj_put(&s->log, ",");
  tj_put_escaped_n(&s->log, (const char *)line.data, line.size);
  fbe_buffer_free(&line);
}
static void on_send_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  on_log(ctx, msg, text, size, "send ");
}
static void on_receive_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  on_log(ctx, msg, text, size, "receive ");
}

/* ---- sessions */

static void session_free(testee_session *s) {
  fbe_client_free(s->client);
  fbe_sender_free(s->sender);
  fbe_receiver_free(s->receiver);
  fbe_arena_free(s->kept);
  free(s->requests);
  fbe_buffer_free(&s->wire);
  fbe_buffer_free(&s->ended);
  fbe_buffer_free(&s->notified);
  fbe_buffer_free(&s->items);
  fbe_buffer_free(&s->log);
  fbe_schema_release(s->schema);
  free(s->package);
  free(s->name);
  free(s);
}

void testee_sessions_close(testee *t) {
  while (t->sessions) {
    testee_session *s = t->sessions;
    t->sessions = s->next;
    session_free(s);
  }
}

/* The session named by the request, or NULL after writing the failure. */
static testee_session *session_of(testee *t, const char *line, size_t len) {
  char *name = tj_member_text(line, len, "session");
  testee_session *s = t->sessions;
  while (s && name && strcmp(s->name, name)) s = s->next;
  if (!name) tj_fail(t, "request needs \"session\"");
  else if (!s) tj_fail(t, "no such session");
  free(name);
  return s;
}

static int member_true(const char *line, size_t len, const char *name) {
  span v = tj_member(line, len, name);
  return v.len == 4 && !memcmp(v.at, "true", 4);
}

static int member_u64(const char *line, size_t len, const char *name, uint64_t *out) {
  span v = tj_member(line, len, name);
  *out = 0;
  if (!v.at) return 0;
  char text[32];
  if (v.len == 0 || v.len >= sizeof text) return -1;
  memcpy(text, v.at, v.len);
  text[v.len] = 0;
  char *end;
  *out = strtoull(text, &end, 10);
  return *end || text[0] == '-' ? -1 : 0;
}

/* Opens a session of `kind` (the request's "session", "package", "model"). */
static void open_session(testee *t, const char *line, size_t len, int kind) {
  testee_session *s = calloc(1, sizeof *s);
  char *name = tj_member_text(line, len, "session");
  if (!s || !name) {
    free(s);
    free(name);
    return tj_fail(t, s ? "request needs \"session\"" : "out of memory");
  }
  for (testee_session *o = t->sessions; o; o = o->next)
    if (!strcmp(o->name, name)) {
      free(s);
      free(name);
      return tj_fail(t, "a session of that name is open");
    }
  s->name = name;
  s->kind = kind;
  fbe_schema *schema = tj_package_of(t, line, len, &s->package);
  if (!schema) return session_free(s); /* (failure written) */
  s->schema = fbe_schema_retain(schema);
  fbe_model model = tj_model_of(line, len);
  fbe_error err;
  int log = member_true(line, len, "log");
  if (kind == CLIENT) {
    uint64_t max_pending = 0;
    if (member_u64(line, len, "max_pending", &max_pending)) {
      session_free(s);
      return tj_fail(t, "\"max_pending\" must be a non-negative integer");
    }
    fbe_client_options o = {model, NULL, (size_t)max_pending, to_wire, s, on_done, on_notify, s};
    if (!(s->client = fbe_client_new(s->schema, s->package, &o, &err))) {
      session_free(s);
      return tj_fail_err(t, &err);
    }
    if (log) {
      fbe_sender_set_log(fbe_client_sender(s->client), on_send_log, s);
      fbe_receiver_set_log(fbe_client_receiver(s->client), on_receive_log, s);
    }
  } else if (kind == SERVER) {
    s->sender = fbe_sender_new(s->schema, s->package, model, to_wire, s);
    s->receiver = fbe_receiver_new(s->schema, s->package, model, NULL, on_request, s);
    s->kept = fbe_arena_new();
    if (log && s->sender && s->receiver) {
      fbe_sender_set_log(s->sender, on_send_log, s);
      fbe_receiver_set_log(s->receiver, on_receive_log, s);
    }
  } else {
    s->receiver = fbe_proxy_new(s->schema, s->package, model, NULL, member_true(line, len, "verify"), on_frame, s);
  }
  if (kind != CLIENT && (!s->receiver || (kind == SERVER && (!s->sender || !s->kept)))) {
    session_free(s);
    return tj_fail(t, "out of memory");
  }
  s->next = t->sessions;
  t->sessions = s;
  fbe_buffer_reset(&t->out);
  tj_put(&t->out, "{\"ok\":true}");
}

/* The message of the request's "type" (P's own "Name", or "pkg.Name") and "json", in
 * the request's arena; NULL after writing the failure. */
static fbe_msg *message_of(testee *t, testee_session *s, const char *line, size_t len) {
  char *type = tj_member_text(line, len, "type");
  span json = tj_member(line, len, "json");
  if (!type || !json.at) {
    free(type);
    tj_fail(t, "request needs \"type\" and \"json\"");
    return NULL;
  }
  const fbe_struct *st = strchr(type, '.') ? fbe_schema_find_struct(s->schema, type) : NULL;
  if (!st) {
    char *full = malloc(strlen(s->package) + strlen(type) + 2);
    if (full) {
      sprintf(full, "%s.%s", s->package, type);
      st = fbe_schema_find_struct(s->schema, full);
    }
    free(full);
  }
  free(type);
  if (!st) {
    tj_fail(t, "no such type");
    return NULL;
  }
  fbe_msg *msg = NULL;
  fbe_error err;
  if (fbe_msg_from_json(st, json.at, json.len, t->arena, &msg, &err)) {
    tj_fail_err(t, &err);
    return NULL;
  }
  return msg;
}

/* Appends `"name":[...]` of the gathered elements (each after a comma) and empties them. */
static void put_list(fbe_buffer *out, const char *name, fbe_buffer *items) {
  tj_put(out, ",\"");
  tj_put(out, name);
  tj_put(out, "\":[");
  if (items->size) fbe_buffer_append(out, items->data + 1, items->size - 1);
  tj_put(out, "]");
  fbe_buffer_reset(items);
}

/* The answer: ok (or the error err), what was sent (hex), the lists the op reports, the log. */
static void answer(testee *t, testee_session *s, const fbe_error *err, int hex, const char *lists) {
  fbe_buffer *o = &t->out;
  if (err) {
    tj_fail_err(t, err);
    o->size--; /* reopen the object after the error's members */
  } else {
    fbe_buffer_reset(o);
    tj_put(o, "{\"ok\":true");
  }
  if (hex) {
    tj_put(o, ",\"hex\":");
    tj_put_hex(o, s->wire.data, s->wire.size);
  }
  fbe_buffer_reset(&s->wire);
  if (strchr(lists, 'e')) put_list(o, "ended", &s->ended);
  if (strchr(lists, 'n')) put_list(o, "notified", &s->notified);
  if (strchr(lists, 'r')) put_list(o, "requests", &s->items);
  if (strchr(lists, 'f')) put_list(o, "frames", &s->items);
  if (s->log.size) put_list(o, "log", &s->log);
  tj_put(o, "}");
}

/* Feeds the request's "hex" to a receiver (or the client) in pieces of "chunk_size". */
static fbe_status feed(testee *t, testee_session *s, const char *line, size_t len, fbe_error *err, int *bad) {
  size_t size = 0;
  uint8_t *bytes = tj_hex_of(t, line, len, &size);
  uint64_t chunk = 0;
  *bad = !bytes;
  if (!bytes) return FBE_OK;
  if (member_u64(line, len, "chunk_size", &chunk)) {
    free(bytes);
    *bad = 1;
    tj_fail(t, "\"chunk_size\" must be a positive integer");
    return FBE_OK;
  }
  if (!chunk || chunk > size) chunk = size ? size : 1;
  fbe_status rc = FBE_OK;
  for (size_t at = 0; rc == FBE_OK && (at < size || (!size && !at)); at += chunk) {
    size_t n = size - at < chunk ? size - at : (size_t)chunk;
    rc = s->client ? fbe_client_feed(s->client, bytes + at, n, err) : fbe_receiver_feed(s->receiver, bytes + at, n, err);
    if (!size) break;
  }
  free(bytes);
  return rc;
}

int testee_conversation(testee *t, const char *op, const char *line, size_t len) {
  if (!strcmp(op, "client")) return open_session(t, line, len, CLIENT), 1;
  if (!strcmp(op, "server")) return open_session(t, line, len, SERVER), 1;
  if (!strcmp(op, "proxy")) return open_session(t, line, len, PROXY), 1;
  static const char *const ops[] = {"request", "feed", "watchdog", "reset", "serve", "reply", "send", "close"};
  size_t k = 0;
  while (k < sizeof ops / sizeof *ops && strcmp(op, ops[k])) k++;
  if (k == sizeof ops / sizeof *ops) return 0;
  testee_session *s = session_of(t, line, len);
  if (!s) return 1;
  fbe_error err;
  uint64_t now = 0, timeout = 0, token = 0;
  int client = s->kind == CLIENT, server = s->kind == SERVER, bad = 0;
  if (!strcmp(op, "close")) {
    testee_session **p = &t->sessions;
    while (*p != s) p = &(*p)->next;
    *p = s->next;
    session_free(s);
    fbe_buffer_reset(&t->out);
    tj_put(&t->out, "{\"ok\":true}");
  } else if (!strcmp(op, "request")) {
    if (!client) return tj_fail(t, "not a client session"), 1;
    if (member_u64(line, len, "now", &now) || member_u64(line, len, "timeout", &timeout) ||
        member_u64(line, len, "token", &token))
      return tj_fail(t, "\"now\", \"timeout\" and \"token\" must be non-negative integers"), 1;
    fbe_msg *msg = message_of(t, s, line, len);
    if (!msg) return 1;
    fbe_status rc = fbe_client_request(s->client, msg, timeout, now, token, &err);
    answer(t, s, rc ? &err : NULL, 1, "e");
  } else if (!strcmp(op, "feed")) {
    if (server) return tj_fail(t, "a server session is fed by \"serve\""), 1;
    fbe_status rc = feed(t, s, line, len, &err, &bad);
    if (!bad) answer(t, s, rc ? &err : NULL, 0, client ? "en" : "f");
  } else if (!strcmp(op, "watchdog") || !strcmp(op, "reset")) {
    if (!client) return tj_fail(t, "not a client session"), 1;
    if (op[0] == 'w') {
      if (member_u64(line, len, "now", &now)) return tj_fail(t, "\"now\" must be a non-negative integer"), 1;
      fbe_client_watchdog(s->client, now);
    } else {
      fbe_client_reset(s->client);
    }
    answer(t, s, NULL, 0, "e");
  } else if (!strcmp(op, "serve")) {
    if (!server) return tj_fail(t, "not a server session"), 1;
    fbe_status rc = feed(t, s, line, len, &err, &bad);
    if (!bad) answer(t, s, rc ? &err : NULL, 0, "r");
  } else if (!strcmp(op, "reply")) {
    uint64_t i = 0;
    if (!server) return tj_fail(t, "not a server session"), 1;
    if (member_u64(line, len, "request", &i) || i >= s->nrequests) return tj_fail(t, "no such request"), 1;
    fbe_msg *reply = message_of(t, s, line, len);
    if (!reply) return 1;
    fbe_status rc = fbe_reply_prepare(s->requests[i], reply, &err);
    if (!rc) rc = fbe_sender_send(s->sender, reply, &err);
    answer(t, s, rc ? &err : NULL, 1, "");
  } else { /* send */
    if (!client && !server) return tj_fail(t, "a proxy sends nothing"), 1;
    fbe_msg *msg = message_of(t, s, line, len);
    if (!msg) return 1;
    fbe_status rc = client ? fbe_client_send(s->client, msg, &err) : fbe_sender_send(s->sender, msg, &err);
    answer(t, s, rc ? &err : NULL, 1, client ? "e" : "");
  }
  return 1;
}

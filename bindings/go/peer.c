/* The protocol's peers for the Go binding (peer.h): the core's sender, receiver,
 * client and proxy, their callbacks gathering what they see for Go to read. */
#include <stdlib.h>
#include <string.h>
#include "peer.h"
#include "fbe/internal/error.h"

static fbe_model model_of(int model) { return model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD; }

static void clear(fbego_peer *peer) {
  fbe_buffer_reset(&peer->out);
  fbe_buffer_reset(&peer->log);
  fbe_buffer_reset(&peer->frames);
  peer->nevents = 0;
  peer->num_len = peer->bytes_len = 0;
  peer->failed = 0;
}

static int sink(void *ctx, const uint8_t *data, size_t size) {
  fbego_peer *peer = ctx;
  if (fbe_buffer_append(&peer->out, data, size)) return peer->failed = 1, -1;
  return 0;
}

static void log_line(fbego_peer *peer, const char *dir, const char *text, size_t size) {
  size_t n = strlen(dir) + 1 + size;
  uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
  if (fbe_buffer_append(&peer->log, len, 4) || fbe_buffer_append(&peer->log, dir, strlen(dir)) ||
      fbe_buffer_append(&peer->log, " ", 1) || fbe_buffer_append(&peer->log, text, size))
    peer->failed = 1;
}

static void on_send_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) { log_line(ctx, "send", text, size); }
static void on_receive_log(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  log_line(ctx, "receive", text, size);
}

static fbego_event *event(fbego_peer *peer, int kind) {
  if (peer->nevents == peer->events_cap) {
    size_t cap = peer->events_cap ? peer->events_cap * 2 : 16;
    fbego_event *e = realloc(peer->events, cap * sizeof *e);
    if (!e) return peer->failed = 1, NULL;
    peer->events = e;
    peer->events_cap = cap;
  }
  fbego_event *e = &peer->events[peer->nevents++];
  memset(e, 0, sizeof *e);
  e->kind = kind;
  e->si = -1;
  return e;
}

/* msg onto the peer's tape; where it starts goes into e. */
static void keep(fbego_peer *peer, fbego_event *e, const fbe_msg *msg) {
  if (!e || !msg) return;
  for (;;) {
    fbei_tape tp = {(fbei_tape_slot *)(void *)peer->num, peer->num_cap, peer->bytes, peer->bytes_cap};
    uint64_t need_n = 0, need_p = 0;
    if (!fbei_tape_write(peer->s->progs, &tp, msg, peer->num_len, peer->bytes_len, &need_n, &need_p)) {
      e->si = (int64_t)fbe_struct_index(fbe_msg_type(msg));
      e->n = peer->num_len;
      e->p = peer->bytes_len;
      peer->num_len += (uint32_t)need_n;
      peer->bytes_len += (uint32_t)need_p;
      return;
    }
    uint64_t n = (uint64_t)peer->num_len + need_n, p = (uint64_t)peer->bytes_len + need_p;
    if (n > UINT32_MAX / 2 || p > UINT32_MAX / 2) {
      peer->failed = 1;
      return;
    }
    if (n > peer->num_cap) {
      int64_t *num = realloc(peer->num, (size_t)(n * 2) * sizeof *num);
      if (!num) return (void)(peer->failed = 1);
      peer->num = num;
      peer->num_cap = (uint32_t)(n * 2);
    }
    if (p > peer->bytes_cap) {
      uint8_t *bytes = realloc(peer->bytes, (size_t)(p * 2));
      if (!bytes) return (void)(peer->failed = 1);
      peer->bytes = bytes;
      peer->bytes_cap = (uint32_t)(p * 2);
    }
  }
}

static int on_message(void *ctx, const fbe_msg *msg) {
  fbego_peer *peer = ctx;
  keep(peer, event(peer, FBEGO_EV_MESSAGE), msg);
  return peer->failed ? -1 : 0;
}

static void on_done(void *ctx, uint64_t token, fbe_request_end end, const fbe_msg *msg, const fbe_error *err) {
  fbego_peer *peer = ctx;
  fbego_event *e = event(peer, FBEGO_EV_END);
  if (!e) return;
  e->end = (int)end;
  e->token = token;
  if (err) {
    e->has_err = 1;
    e->err = *err;
  }
  keep(peer, e, msg);
}

static int on_frame(void *ctx, uint32_t type_id, const fbe_struct *type, const uint8_t *frame, size_t size) {
  fbego_peer *peer = ctx;
  fbego_event *e = event(peer, FBEGO_EV_FRAME);
  if (!e) return -1;
  e->type_id = type_id;
  e->known = type != NULL;
  e->si = type ? (int64_t)fbe_struct_index(type) : -1;
  e->at = peer->frames.size;
  e->size = size;
  if (fbe_buffer_append(&peer->frames, frame, size)) return peer->failed = 1, -1;
  return 0;
}

fbego_peer *fbego_peer_new(int role, const fbego_schema *s, const char *package, int model, size_t max_pending,
                           int verify, int log, fbe_error *err) {
  fbego_peer *peer = calloc(1, sizeof *peer);
  if (!peer) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory"), NULL;
  peer->s = s;
  peer->role = role;
  fbe_buffer_init(&peer->out);
  fbe_buffer_init(&peer->log);
  fbe_buffer_init(&peer->frames);
  fbe_model m = model_of(model);
  const char *pkg = package && *package ? package : NULL;
  int made = 1;
  if (role == FBEGO_SENDER || role == FBEGO_SERVER) made = (peer->sender = fbe_sender_new(s->schema, pkg, m, sink, peer)) != NULL;
  if (made && (role == FBEGO_RECEIVER || role == FBEGO_SERVER))
    made = (peer->receiver = fbe_receiver_new(s->schema, pkg, m, &s->limits, on_message, peer)) != NULL;
  if (role == FBEGO_PROXY) made = (peer->receiver = fbe_proxy_new(s->schema, pkg, m, &s->limits, verify, on_frame, peer)) != NULL;
  if (role == FBEGO_CLIENT) {
    fbe_client_options o;
    memset(&o, 0, sizeof o);
    o.model = m;
    o.limits = &s->limits;
    o.max_pending = max_pending;
    o.sink = sink;
    o.sink_ctx = peer;
    o.done = on_done;
    o.notify = on_message;
    o.ctx = peer;
    peer->client = fbe_client_new(s->schema, pkg, &o, err);
    if (!peer->client) {
      fbego_peer_free(peer);
      return NULL;
    }
    peer->sender = fbe_client_sender(peer->client);
    peer->receiver = fbe_client_receiver(peer->client);
  }
  if (!made) {
    /* the core's constructors say only NULL: an unknown package is the likely reason */
    fbei_error_set(err, FBE_ERR_NOT_FOUND, FBE_NO_OFFSET, "no package '%s' in the schema", pkg ? pkg : "");
    fbego_peer_free(peer);
    return NULL;
  }
  if (log) {
    if (peer->sender) fbe_sender_set_log(peer->sender, on_send_log, peer);
    if (peer->receiver && role != FBEGO_PROXY) fbe_receiver_set_log(peer->receiver, on_receive_log, peer);
  }
  return peer;
}

void fbego_peer_free(fbego_peer *peer) {
  if (!peer) return;
  if (peer->client) fbe_client_free(peer->client);
  else {
    fbe_sender_free(peer->sender);
    fbe_receiver_free(peer->receiver);
  }
  fbe_buffer_free(&peer->out);
  fbe_buffer_free(&peer->log);
  fbe_buffer_free(&peer->frames);
  free(peer->events);
  free(peer->num);
  free(peer->bytes);
  free(peer);
}

static int finish(fbego_peer *peer, fbe_status st, fbe_error *err) {
  if (!st && peer->failed) st = fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory");
  return st ? -1 : 0;
}

/* Reads `count` messages (structs sis[i]) from Go's tape into the peer's scratch arena. */
static fbe_msg *read_msg(fbego_peer *peer, fbe_arena *arena, size_t si, fbei_tape *tp, uint32_t *n, uint32_t *p,
                         fbe_error *err) {
  return fbei_tape_read(peer->s->progs, tp, fbe_schema_struct_at(peer->s->schema, si), n, p, arena, err);
}

int fbego_peer_send(fbego_peer *peer, size_t si, int64_t *num, uint32_t num_len, uint8_t *bytes, uint32_t bytes_len,
                    fbe_error *err) {
  clear(peer);
  if (!peer->sender) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "this peer sends nothing"), -1;
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory"), -1;
  fbei_tape tp = {(fbei_tape_slot *)(void *)num, num_len, bytes, bytes_len};
  uint32_t n = 0, p = 0;
  fbe_msg *m = read_msg(peer, arena, si, &tp, &n, &p, err);
  fbe_status st = !m ? FBE_ERR_ARGUMENT : peer->client ? fbe_client_send(peer->client, m, err)
                                                       : fbe_sender_send(peer->sender, m, err);
  fbe_arena_free(arena);
  return finish(peer, st, err);
}

int fbego_peer_request(fbego_peer *peer, size_t si, int64_t *num, uint32_t num_len, uint8_t *bytes,
                       uint32_t bytes_len, uint64_t timeout, uint64_t now, uint64_t token, fbe_error *err) {
  clear(peer);
  if (!peer->client) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "not a client"), -1;
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory"), -1;
  fbei_tape tp = {(fbei_tape_slot *)(void *)num, num_len, bytes, bytes_len};
  uint32_t n = 0, p = 0;
  fbe_msg *m = read_msg(peer, arena, si, &tp, &n, &p, err);
  fbe_status st = m ? fbe_client_request(peer->client, m, timeout, now, token, err) : FBE_ERR_ARGUMENT;
  fbe_arena_free(arena);
  return finish(peer, st, err);
}

int fbego_peer_reply(fbego_peer *peer, size_t req_si, size_t si, int64_t *num, uint32_t num_len, uint8_t *bytes,
                     uint32_t bytes_len, fbe_error *err) {
  clear(peer);
  if (!peer->sender) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "this peer sends nothing"), -1;
  fbe_arena *arena = fbe_arena_new();
  if (!arena) return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory"), -1;
  fbei_tape tp = {(fbei_tape_slot *)(void *)num, num_len, bytes, bytes_len};
  uint32_t n = 0, p = 0;
  fbe_msg *req = read_msg(peer, arena, req_si, &tp, &n, &p, err);
  fbe_msg *reply = req ? read_msg(peer, arena, si, &tp, &n, &p, err) : NULL;
  fbe_status st = !reply ? FBE_ERR_ARGUMENT : fbe_reply_prepare(req, reply, err);
  if (reply && !st) st = fbe_sender_send(peer->sender, reply, err);
  fbe_arena_free(arena);
  return finish(peer, st, err);
}

int fbego_peer_feed(fbego_peer *peer, const uint8_t *data, size_t size, fbe_error *err) {
  clear(peer);
  fbe_status st = peer->client     ? fbe_client_feed(peer->client, data, size, err)
                  : peer->receiver ? fbe_receiver_feed(peer->receiver, data, size, err)
                                   : fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "this peer receives nothing");
  return finish(peer, st, err);
}

size_t fbego_peer_watchdog(fbego_peer *peer, uint64_t now) {
  clear(peer);
  return peer->client ? fbe_client_watchdog(peer->client, now) : 0;
}

void fbego_peer_reset(fbego_peer *peer) {
  clear(peer);
  if (peer->client) fbe_client_reset(peer->client);
  else if (peer->receiver) fbe_receiver_reset(peer->receiver);
}

size_t fbego_peer_pending(const fbego_peer *peer) {
  return peer->client ? fbe_client_pending(peer->client) : peer->receiver ? fbe_receiver_pending(peer->receiver) : 0;
}

uint64_t fbego_peer_next_deadline(const fbego_peer *peer) {
  return peer->client ? fbe_client_next_deadline(peer->client) : UINT64_MAX;
}

/* Unit tests of the client (fbe/client.h), proxies and protocol logging (fbe/protocol.h)
 * over schemas/exchange.fbe and schemas/gateway.fbe: a request ends exactly once, as its
 * response, a reject (its own, or a global one of an imported package), a timeout of
 * the caller's clock, or a reset; what answers no pending request is a notification;
 * duplicate ids, the cap, a refused send and hostile frames are errors that leave the
 * table as it was; a proxy forwards a stream byte for byte; the log hooks get the text
 * form. The "server" is a receiver whose handler answers with fbe_reply_prepare. */
#include "fbe_test.h"

/* ---- a client's world: what it sent, and how its requests ended */

#define MAX_ENDS 64

typedef struct ending {
  uint64_t token;
  fbe_request_end how;
  char type[64];    /* the message's type, "" when none */
  char error[256];  /* err's message, "" when none */
  fbe_status code;
} ending;

typedef struct world {
  fbe_buffer wire; /* the client's bytes, in order */
  int refuse;      /* the sink refuses */
  ending ends[MAX_ENDS];
  size_t nends;
  char notified[MAX_ENDS][64];
  size_t nnotified;
  fbe_client *client;
  int request_on_end; /* a done callback makes one more request (token 99) */
  fbe_msg *again;
} world;

static int sink(void *ctx, const uint8_t *data, size_t size) {
  world *w = ctx;
  return w->refuse || fbe_buffer_append(&w->wire, data, size);
}

static void done(void *ctx, uint64_t token, fbe_request_end how, const fbe_msg *msg, const fbe_error *err) {
  world *w = ctx;
  assert_true(w->nends < MAX_ENDS);
  ending *e = &w->ends[w->nends++];
  memset(e, 0, sizeof *e);
  e->token = token;
  e->how = how;
  if (msg) snprintf(e->type, sizeof e->type, "%s", fbe_struct_full_name(fbe_msg_type(msg)));
  if (err) {
    snprintf(e->error, sizeof e->error, "%s", err->message);
    e->code = err->code;
  }
  if (w->request_on_end) {
    w->request_on_end = 0;
    assert_int_equal(fbe_client_request(w->client, w->again, 0, 0, 99, NULL), FBE_OK);
    /* and the feed that called this may not feed again */
    fbe_error ferr;
    assert_int_equal(fbe_client_feed(w->client, (const uint8_t *)"", 0, &ferr), FBE_ERR_ARGUMENT);
  }
}

static int notify(void *ctx, const fbe_msg *msg) {
  world *w = ctx;
  assert_true(w->nnotified < MAX_ENDS);
  snprintf(w->notified[w->nnotified++], 64, "%s", fbe_struct_full_name(fbe_msg_type(msg)));
  return 0;
}

static fbe_client *new_client(fbe_schema *s, const char *package, world *w, size_t max_pending) {
  memset(w, 0, sizeof *w);
  fbe_buffer_init(&w->wire);
  fbe_client_options o = {FBE_MODEL_STANDARD, NULL, max_pending, sink, w, done, notify, w};
  fbe_error err;
  fbe_client *c = fbe_client_new(s, package, &o, &err);
  if (!c) fail_msg("fbe_client_new: %s", err.message);
  w->client = c;
  return c;
}

static void free_client(world *w) {
  fbe_client_free(w->client);
  fbe_buffer_free(&w->wire);
}

/* A message of type `name` with id = the uuid 00..0N (n: 1..255) and its other fields at
 * their defaults, in arena. */
static fbe_msg *with_id(fbe_schema *s, fbe_arena *arena, const char *name, unsigned n) {
  fbe_msg *m = fbe_msg_new(arena, t_struct(s, name));
  assert_non_null(m);
  char text[40];
  snprintf(text, sizeof text, "00000000-0000-0000-0000-0000000000%02x", n);
  t_set_uuid(fbe_msg_ref(m), "id", text);
  return m;
}

/* The bytes of messages as a standard-model stream. */
static void frame(fbe_buffer *out, const fbe_msg *m) {
  fbe_buffer b = t_encode(m, FBE_MODEL_STANDARD);
  assert_int_equal(fbe_buffer_append(out, b.data, b.size), 0);
  fbe_buffer_free(&b);
}

/* Feeds a stream to the client one byte at a time (frames split anywhere). */
static void feed_bytes(fbe_client *c, const fbe_buffer *stream) {
  fbe_error err;
  for (size_t i = 0; i < stream->size; i++)
    if (fbe_client_feed(c, stream->data + i, 1, &err) != FBE_OK) fail_msg("feed: %s", err.message);
}

static void test_responses_rejects_and_notifications(void **state) {
  (void)state;
  fbe_schema *s = t_load("exchange.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  fbe_client *c = new_client(s, NULL, &w, 0);
  fbe_error err;
  /* three requests, answered out of order */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 1), 0, 100, 1, &err), FBE_OK);
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 2), 0, 100, 2, &err), FBE_OK);
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "CancelOrder", 3), 0, 100, 3, &err), FBE_OK);
  assert_int_equal(fbe_client_pending(c), 3);
  assert_int_equal(w.nends, 0);
  /* what went out is the three requests, framed */
  assert_int_equal(fbe_sender_bytes(fbe_client_sender(c)), w.wire.size);

  fbe_buffer in;
  fbe_buffer_init(&in);
  fbe_msg *reject = with_id(s, arena, "Reject", 2);
  t_set_str(fbe_msg_ref(reject), "reason", "no money");
  frame(&in, with_id(s, arena, "UnknownOrder", 3));  /* a reject CancelOrder lists */
  frame(&in, reject);                                 /* the global reject of NewOrder */
  frame(&in, with_id(s, arena, "OrderAccepted", 1)); /* the response */
  frame(&in, with_id(s, arena, "OrderAccepted", 9)); /* no request has id 9: a notification */
  frame(&in, with_id(s, arena, "OrderCancelled", 1)); /* id 1 is done: a notification */
  fbe_msg *trade = fbe_msg_new(arena, t_struct(s, "Trade"));
  frame(&in, trade);                                  /* no id at all */
  feed_bytes(c, &in);
  assert_int_equal(fbe_client_pending(c), 0);
  assert_int_equal(w.nends, 3);
  assert_int_equal(w.ends[0].token, 3);
  assert_int_equal(w.ends[0].how, FBE_REQUEST_REJECTED);
  assert_string_equal(w.ends[0].type, "exchange.UnknownOrder");
  assert_int_equal(w.ends[0].code, FBE_ERR_REJECTED);
  assert_string_equal(w.ends[0].error, "UnknownOrder(id=\"00000000-0000-0000-0000-000000000003\",order=0)");
  assert_int_equal(w.ends[1].token, 2);
  assert_int_equal(w.ends[1].how, FBE_REQUEST_REJECTED);
  assert_string_equal(w.ends[1].error, "Reject(id=\"00000000-0000-0000-0000-000000000002\",reason=\"no money\")");
  assert_int_equal(w.ends[2].token, 1);
  assert_int_equal(w.ends[2].how, FBE_REQUEST_RESPONDED);
  assert_string_equal(w.ends[2].type, "exchange.OrderAccepted");
  assert_int_equal(w.ends[2].code, FBE_OK);
  assert_int_equal(w.nnotified, 3);
  assert_string_equal(w.notified[0], "exchange.OrderAccepted");
  assert_string_equal(w.notified[1], "exchange.OrderCancelled");
  assert_string_equal(w.notified[2], "exchange.Trade");
  /* a type CancelOrder does not list does not reject it: Reject is not NewOrder's only */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "CancelOrder", 4), 0, 0, 4, &err), FBE_OK);
  fbe_buffer_reset(&in);
  frame(&in, with_id(s, arena, "OrderAccepted", 4)); /* another request's response type */
  feed_bytes(c, &in);
  assert_int_equal(w.nends, 3);
  assert_int_equal(w.nnotified, 4);
  fbe_buffer_reset(&in);
  frame(&in, with_id(s, arena, "Reject", 4)); /* listed (not global) by CancelOrder */
  feed_bytes(c, &in);
  assert_int_equal(w.nends, 4);
  assert_int_equal(w.ends[3].how, FBE_REQUEST_REJECTED);
  fbe_buffer_free(&in);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

static void test_global_reject_through_an_import(void **state) {
  (void)state;
  fbe_schema *s = t_load("gateway.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  fbe_client *c = new_client(s, "gateway", &w, 0);
  fbe_error err;
  /* the gateway client takes its own requests and the exchange's */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "gateway.QuoteRequest", 1), 0, 0, 1, &err), FBE_OK);
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "exchange.NewOrder", 2), 0, 0, 2, &err), FBE_OK);
  fbe_buffer in;
  fbe_buffer_init(&in);
  frame(&in, with_id(s, arena, "exchange.Reject", 1)); /* exchange's global reject refuses a gateway quote */
  frame(&in, with_id(s, arena, "exchange.OrderAccepted", 2));
  feed_bytes(c, &in);
  assert_int_equal(w.nends, 2);
  assert_int_equal(w.ends[0].token, 1);
  assert_int_equal(w.ends[0].how, FBE_REQUEST_REJECTED);
  assert_string_equal(w.ends[0].type, "exchange.Reject");
  assert_int_equal(w.ends[1].token, 2);
  assert_int_equal(w.ends[1].how, FBE_REQUEST_RESPONDED);
  /* an exchange client does not know the gateway's messages: they are skipped */
  world e;
  fbe_client *ec = new_client(s, "exchange", &e, 0);
  assert_int_equal(fbe_client_request(ec, with_id(s, arena, "gateway.QuoteRequest", 1), 0, 0, 1, &err),
                   FBE_ERR_TYPE);
  free_client(&e);
  fbe_buffer_free(&in);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

static void test_timeouts_and_reset(void **state) {
  (void)state;
  fbe_schema *s = t_load("exchange.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  fbe_client *c = new_client(s, NULL, &w, 0);
  fbe_error err;
  assert_int_equal(fbe_client_next_deadline(c), UINT64_MAX);
  /* the first request's time is its own, 0 included */
  world z;
  fbe_client *zc = new_client(s, NULL, &z, 0);
  assert_int_equal(fbe_client_request(zc, with_id(s, arena, "NewOrder", 1), 5, 0, 1, &err), FBE_OK);
  assert_int_equal(fbe_client_next_deadline(zc), 5);
  /* a timeout past the end of the clock never falls due (it saturates, no wrap) */
  assert_int_equal(fbe_client_request(zc, with_id(s, arena, "NewOrder", 2), UINT64_MAX - 3, 10, 2, &err), FBE_OK);
  assert_int_equal(fbe_client_watchdog(zc, UINT64_MAX - 1), 1); /* (only the first) */
  assert_int_equal(fbe_client_pending(zc), 1);
  free_client(&z);
  /* at the same time: started 1000, 1001, 1002 (strictly increasing) */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 1), 50, 1000, 1, &err), FBE_OK);
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 2), 0, 1000, 2, &err), FBE_OK);
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 3), 10, 1000, 3, &err), FBE_OK);
  assert_int_equal(fbe_client_next_deadline(c), 1012);
  assert_int_equal(fbe_client_watchdog(c, 1011), 0);
  assert_int_equal(fbe_client_watchdog(c, 1012), 1); /* start + timeout <= now */
  assert_int_equal(w.ends[0].token, 3);
  assert_int_equal(w.ends[0].how, FBE_REQUEST_TIMED_OUT);
  assert_int_equal(w.ends[0].code, FBE_ERR_TIMEOUT);
  assert_string_equal(w.ends[0].error, "Timeout!");
  assert_int_equal(fbe_client_next_deadline(c), 1050);
  assert_int_equal(fbe_client_watchdog(c, UINT64_MAX), 1);
  assert_int_equal(w.ends[1].token, 1);
  /* a time that goes back still starts after the last one */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 4), 5, 7, 4, &err), FBE_OK);
  assert_int_equal(fbe_client_next_deadline(c), 1003 + 5);
  /* reset: every pending request, oldest first, and a partial frame dropped */
  fbe_buffer in;
  fbe_buffer_init(&in);
  frame(&in, with_id(s, arena, "OrderAccepted", 2));
  assert_int_equal(fbe_client_feed(c, in.data, in.size - 1, &err), FBE_OK);
  assert_true(fbe_receiver_pending(fbe_client_receiver(c)) > 0);
  fbe_client_reset(c);
  assert_int_equal(fbe_receiver_pending(fbe_client_receiver(c)), 0);
  assert_int_equal(w.nends, 4);
  assert_int_equal(w.ends[2].token, 2);
  assert_int_equal(w.ends[2].how, FBE_REQUEST_RESET);
  assert_int_equal(w.ends[2].code, FBE_ERR_RESET);
  assert_string_equal(w.ends[2].error, "Reset client!");
  assert_int_equal(w.ends[3].token, 4);
  assert_int_equal(fbe_client_pending(c), 0);
  /* the stream starts again after the reset */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 2), 0, 0, 5, &err), FBE_OK);
  assert_int_equal(fbe_client_feed(c, in.data, in.size, &err), FBE_OK);
  assert_int_equal(w.ends[4].token, 5);
  assert_int_equal(w.ends[4].how, FBE_REQUEST_RESPONDED);
  fbe_buffer_free(&in);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

static void test_refusals_leave_the_table_as_it_was(void **state) {
  (void)state;
  fbe_schema *s = t_load("exchange.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  fbe_client *c = new_client(s, NULL, &w, 2);
  fbe_error err;
  /* not a request; not a message of the protocol */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "OrderAccepted", 1), 0, 0, 1, &err), FBE_ERR_TYPE);
  assert_string_equal(err.message, "exchange.OrderAccepted is not a request (no [request] in the schema)");
  /* a request without a response ends when it is sent */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "Heartbeat", 1), 0, 0, 7, &err), FBE_OK);
  assert_int_equal(w.nends, 1);
  assert_int_equal(w.ends[0].how, FBE_REQUEST_SENT);
  assert_int_equal(fbe_client_pending(c), 0);
  /* duplicate ids, then the cap */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 1), 0, 0, 1, &err), FBE_OK);
  size_t sent = w.wire.size;
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "CancelOrder", 1), 0, 0, 2, &err), FBE_ERR_ARGUMENT);
  assert_string_equal(err.message, "a request with id \"00000000-0000-0000-0000-000000000001\" is already pending");
  assert_int_equal(w.wire.size, sent); /* nothing sent */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 2), 0, 0, 2, &err), FBE_OK);
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 3), 0, 0, 3, &err), FBE_ERR_LIMIT);
  assert_string_equal(err.message, "2 requests are pending, the limit (max_pending)");
  assert_int_equal(fbe_client_pending(c), 2);
  /* a refused send registers nothing */
  fbe_client_reset(c);
  w.refuse = 1;
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 5), 0, 0, 5, &err), FBE_ERR_IO);
  assert_int_equal(fbe_client_pending(c), 0);
  w.refuse = 0;
  /* hostile bytes: an error, the receiver reset, pending requests kept */
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 6), 0, 0, 6, &err), FBE_OK);
  static const uint8_t junk[] = {0x20, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8,
                                 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
  assert_int_equal(fbe_client_feed(c, junk, sizeof junk, &err), FBE_ERR_MALFORMED);
  assert_int_equal(fbe_client_pending(c), 1);
  fbe_buffer in;
  fbe_buffer_init(&in);
  frame(&in, with_id(s, arena, "OrderAccepted", 6));
  feed_bytes(c, &in); /* the stream goes on after the bad frame */
  assert_int_equal(fbe_client_pending(c), 0);
  assert_int_equal(w.ends[w.nends - 1].how, FBE_REQUEST_RESPONDED);
  fbe_buffer_free(&in);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

static void test_callbacks_may_request_but_not_feed(void **state) {
  (void)state;
  fbe_schema *s = t_load("exchange.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  fbe_client *c = new_client(s, NULL, &w, 0);
  fbe_error err;
  /* many requests: the table grows past its first size and finds every one again */
  for (unsigned i = 1; i <= 40; i++)
    assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", i), 0, 0, i, &err), FBE_OK);
  w.request_on_end = 1;
  w.again = with_id(s, arena, "NewOrder", 200);
  fbe_buffer in;
  fbe_buffer_init(&in);
  for (unsigned i = 40; i >= 1; i--) frame(&in, with_id(s, arena, "OrderAccepted", i));
  assert_int_equal(fbe_client_feed(c, in.data, in.size, &err), FBE_OK);
  assert_int_equal(w.nends, 40);
  for (unsigned i = 0; i < 40; i++) assert_int_equal(w.ends[i].token, 40 - i);
  assert_int_equal(fbe_client_pending(c), 1); /* the one the first callback made */
  fbe_buffer_free(&in);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

/* ---- a server: a receiver that answers every request with fbe_reply_prepare */

typedef struct server {
  fbe_schema *schema;
  fbe_sender *sender;
  fbe_arena *arena;
} server;

static int serve(void *ctx, const fbe_msg *request) {
  server *sv = ctx;
  const char *name = fbe_struct_full_name(fbe_msg_type(request));
  fbe_msg *reply = fbe_msg_new(sv->arena, t_struct(sv->schema, !strcmp(name, "exchange.NewOrder") ? "OrderAccepted"
                                                                                              : "UnknownOrder"));
  fbe_error err;
  if (fbe_reply_prepare(request, reply, &err) || fbe_sender_send(sv->sender, reply, &err))
    fail_msg("reply: %s", err.message);
  return 0;
}

static int into_buffer(void *ctx, const uint8_t *data, size_t size) { return fbe_buffer_append(ctx, data, size); }

static void test_server_replies_carry_the_request_id(void **state) {
  (void)state;
  fbe_schema *s = t_load("exchange.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  fbe_client *c = new_client(s, NULL, &w, 0);
  fbe_buffer back;
  fbe_buffer_init(&back);
  server sv = {s, fbe_sender_new(s, NULL, FBE_MODEL_STANDARD, into_buffer, &back), fbe_arena_new()};
  fbe_receiver *r = fbe_receiver_new(s, NULL, FBE_MODEL_STANDARD, NULL, serve, &sv);
  fbe_error err;
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 1), 0, 0, 1, &err), FBE_OK);
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "CancelOrder", 2), 0, 0, 2, &err), FBE_OK);
  assert_int_equal(fbe_receiver_feed(r, w.wire.data, w.wire.size, &err), FBE_OK);
  assert_int_equal(fbe_client_feed(c, back.data, back.size, &err), FBE_OK);
  assert_int_equal(w.nends, 2);
  assert_int_equal(w.ends[0].how, FBE_REQUEST_RESPONDED);
  assert_int_equal(w.ends[1].how, FBE_REQUEST_REJECTED);
  /* what may answer what */
  assert_int_equal(fbe_reply_kind(t_struct(s, "NewOrder"), t_struct(s, "OrderAccepted"), NULL), 1);
  assert_int_equal(fbe_reply_kind(t_struct(s, "NewOrder"), t_struct(s, "Reject"), NULL), 2);
  assert_int_equal(fbe_reply_kind(t_struct(s, "NewOrder"), t_struct(s, "OrderCancelled"), &err), 0);
  assert_string_equal(err.message, "exchange.OrderCancelled is not the response or a reject of request exchange.NewOrder");
  assert_int_equal(fbe_reply_prepare(with_id(s, arena, "NewOrder", 3), fbe_msg_new(arena, t_struct(s, "Trade")), &err),
                   FBE_ERR_TYPE);
  fbe_receiver_free(r);
  fbe_sender_free(sv.sender);
  fbe_arena_free(sv.arena);
  fbe_buffer_free(&back);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

/* ---- proxies and logging */

typedef struct relay {
  fbe_buffer out;
  uint32_t types[16];
  int known[16];
  size_t n;
} relay;

static int forward(void *ctx, uint32_t type_id, const fbe_struct *type, const uint8_t *frame_bytes, size_t size) {
  relay *r = ctx;
  if (r->n < 16) {
    r->types[r->n] = type_id;
    r->known[r->n++] = type != NULL;
  }
  return fbe_buffer_append(&r->out, frame_bytes, size);
}

static void test_proxy_forwards_byte_for_byte(void **state) {
  (void)state;
  fbe_schema *s = t_load("gateway.fbe");
  fbe_arena *arena = fbe_arena_new();
  for (int model = 0; model < 2; model++) {
    fbe_buffer stream;
    fbe_buffer_init(&stream);
    static const char *types[] = {"exchange.NewOrder", "gateway.Quote", "exchange.Trade", "gateway.QuoteRequest"};
    for (size_t i = 0; i < 4; i++) {
      fbe_buffer b = t_encode(fbe_msg_new(arena, t_struct(s, types[i])), (fbe_model)model);
      fbe_buffer_append(&stream, b.data, b.size);
      fbe_buffer_free(&b);
    }
    /* an exchange proxy does not know the gateway's two types: it forwards them anyway */
    relay r = {{0}, {0}, {0}, 0};
    fbe_receiver *p = fbe_proxy_new(s, "exchange", (fbe_model)model, NULL, 1, forward, &r);
    assert_non_null(p);
    fbe_error err;
    for (size_t i = 0; i < stream.size; i += 7)
      assert_int_equal(fbe_receiver_feed(p, stream.data + i, stream.size - i < 7 ? stream.size - i : 7, &err), FBE_OK);
    assert_int_equal(r.out.size, stream.size);
    assert_memory_equal(r.out.data, stream.data, stream.size);
    assert_int_equal(r.n, 4);
    assert_true(r.known[0] && !r.known[1] && r.known[2] && !r.known[3]);
    assert_int_equal(r.types[0], fbe_struct_type_id(t_struct(s, "exchange.NewOrder")));
    assert_int_equal(fbe_receiver_received(p), 2);
    assert_int_equal(fbe_receiver_skipped(p), 2);
    /* verifying: a bad frame of a known type is refused with verify's error */
    fbe_buffer bad = t_encode(fbe_msg_new(arena, t_struct(s, "exchange.Trade")), (fbe_model)model);
    bad.data[bad.size - 1] = 0xff;
    bad.data[model == FBE_MODEL_FINAL ? 16 : 24] = 0x7f; /* the symbol's size or pointer */
    fbe_status rc = fbe_receiver_feed(p, bad.data, bad.size, &err);
    assert_int_equal(rc, FBE_ERR_MALFORMED);
    assert_int_equal(fbe_verify(t_struct(s, "exchange.Trade"), (fbe_model)model, bad.data, bad.size, NULL, NULL, NULL),
                     FBE_ERR_MALFORMED);
    fbe_receiver_free(p);
    /* not verifying: handed over as it is */
    fbe_buffer_free(&r.out);
    r.n = 0;
    p = fbe_proxy_new(s, "exchange", (fbe_model)model, NULL, 0, forward, &r);
    assert_int_equal(fbe_receiver_feed(p, bad.data, bad.size, &err), FBE_OK);
    assert_int_equal(r.n, 1);
    fbe_receiver_free(p);
    fbe_buffer_free(&r.out);
    fbe_buffer_free(&bad);
    fbe_buffer_free(&stream);
  }
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

typedef struct logbook {
  char lines[8][256];
  size_t n;
} logbook;

static void log_line(void *ctx, const fbe_msg *msg, const char *text, size_t size) {
  logbook *b = ctx;
  assert_non_null(msg);
  if (b->n < 8) snprintf(b->lines[b->n++], 256, "%.*s", (int)size, text);
}

static void test_log_hooks_get_the_text_form(void **state) {
  (void)state;
  fbe_schema *s = t_load("exchange.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  fbe_client *c = new_client(s, NULL, &w, 0);
  logbook sent = {{{0}}, 0}, received = {{{0}}, 0};
  fbe_sender_set_log(fbe_client_sender(c), log_line, &sent);
  fbe_receiver_set_log(fbe_client_receiver(c), log_line, &received);
  fbe_msg *order = with_id(s, arena, "NewOrder", 1);
  t_set_str(fbe_msg_ref(order), "symbol", "EURUSD");
  fbe_error err;
  assert_int_equal(fbe_client_request(c, order, 0, 0, 1, &err), FBE_OK);
  fbe_buffer in;
  fbe_buffer_init(&in);
  frame(&in, with_id(s, arena, "OrderAccepted", 1));
  feed_bytes(c, &in);
  assert_int_equal(sent.n, 1);
  assert_string_equal(sent.lines[0],
                      "NewOrder(id=\"00000000-0000-0000-0000-000000000001\",symbol=\"EURUSD\",side=buy,price=0.0,quantity=0.0)");
  assert_int_equal(received.n, 1);
  assert_string_equal(received.lines[0], "OrderAccepted(id=\"00000000-0000-0000-0000-000000000001\",order=0)");
  /* a hook set to NULL is off */
  fbe_sender_set_log(fbe_client_sender(c), NULL, NULL);
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 2), 0, 0, 2, &err), FBE_OK);
  assert_int_equal(sent.n, 1);
  fbe_buffer_free(&in);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

/* Ids of other types: strings of any length (copied past 16 bytes), integers; ids of
 * two types never match each other; a request without an id, or with a struct for one,
 * is refused. */
static void test_ids_of_other_types(void **state) {
  (void)state;
  fbe_schema *s = t_load_text("package ids\n"
                              "[request] [response(Done)] message ByName { string [id]; }\n"
                              "[request] [response(Done)] message ByNumber { int64 [id]; }\n"
                              "message Done { string [id]; }\n"
                              "[request] [response(Done)] message NoId { int32 x; }\n"
                              "struct Key { int32 k; }\n"
                              "[request] [response(Done)] message StructId { Key id; }\n",
                              "ids.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  fbe_client *c = new_client(s, NULL, &w, 0);
  fbe_error err;
  char name[64];
  for (unsigned i = 0; i < 30; i++) {
    fbe_msg *m = fbe_msg_new(arena, t_struct(s, "ByName"));
    snprintf(name, sizeof name, "a request named with a long string, number %u", i);
    t_set_str(fbe_msg_ref(m), "id", name);
    assert_int_equal(fbe_client_request(c, m, 0, 0, i, &err), FBE_OK);
  }
  fbe_msg *n = fbe_msg_new(arena, t_struct(s, "ByNumber"));
  t_set_int(fbe_msg_ref(n), "id", 7);
  assert_int_equal(fbe_client_request(c, n, 0, 0, 100, &err), FBE_OK);
  fbe_buffer in;
  fbe_buffer_init(&in);
  fbe_msg *d = fbe_msg_new(arena, t_struct(s, "Done"));
  t_set_str(fbe_msg_ref(d), "id", "7"); /* a string "7" is not the int64 7 */
  frame(&in, d);
  for (unsigned i = 30; i-- > 0;) {
    snprintf(name, sizeof name, "a request named with a long string, number %u", i);
    d = fbe_msg_new(arena, t_struct(s, "Done"));
    t_set_str(fbe_msg_ref(d), "id", name);
    frame(&in, d);
  }
  assert_int_equal(fbe_client_feed(c, in.data, in.size, &err), FBE_OK);
  assert_int_equal(w.nends, 30);
  assert_int_equal(w.nnotified, 1);
  assert_int_equal(fbe_client_pending(c), 1);
  assert_int_equal(fbe_client_request(c, fbe_msg_new(arena, t_struct(s, "NoId")), 0, 0, 1, &err), FBE_ERR_ARGUMENT);
  assert_string_equal(err.message, "request ids.NoId has no field 'id' to match its response with");
  assert_int_equal(fbe_client_request(c, fbe_msg_new(arena, t_struct(s, "StructId")), 0, 0, 1, &err), FBE_ERR_ARGUMENT);
  assert_string_equal(err.message, "the id of request ids.StructId must be a scalar, a string or bytes");
  fbe_buffer_free(&in);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

/* A reset from a callback of the feed: the feed stops after that message and drops the
 * rest of its bytes (the stream starts again after a reset). */
static world *resetting;
static int reset_on_notify(void *ctx, const fbe_msg *msg) {
  notify(ctx, msg);
  fbe_client_reset(resetting->client);
  return 0;
}

static void test_reset_from_a_callback_of_the_feed(void **state) {
  (void)state;
  fbe_schema *s = t_load("exchange.fbe");
  fbe_arena *arena = fbe_arena_new();
  world w;
  memset(&w, 0, sizeof w);
  fbe_buffer_init(&w.wire);
  resetting = &w;
  fbe_client_options o = {FBE_MODEL_STANDARD, NULL, 0, sink, &w, done, reset_on_notify, &w};
  fbe_client *c = w.client = fbe_client_new(s, NULL, &o, NULL);
  fbe_error err;
  assert_int_equal(fbe_client_request(c, with_id(s, arena, "NewOrder", 1), 0, 0, 1, &err), FBE_OK);
  fbe_buffer in;
  fbe_buffer_init(&in);
  frame(&in, fbe_msg_new(arena, t_struct(s, "Trade")));  /* notified: the callback resets */
  frame(&in, with_id(s, arena, "OrderAccepted", 1));    /* dropped with the rest of the feed */
  frame(&in, fbe_msg_new(arena, t_struct(s, "Trade")));
  assert_int_equal(fbe_client_feed(c, in.data, in.size - 3, &err), FBE_OK);
  assert_int_equal(w.nnotified, 1);
  assert_int_equal(w.nends, 1);
  assert_int_equal(w.ends[0].how, FBE_REQUEST_RESET);
  assert_int_equal(fbe_receiver_pending(fbe_client_receiver(c)), 0);
  fbe_buffer_free(&in);
  free_client(&w);
  fbe_arena_free(arena);
  fbe_schema_release(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_responses_rejects_and_notifications),
      cmocka_unit_test(test_global_reject_through_an_import),
      cmocka_unit_test(test_timeouts_and_reset),
      cmocka_unit_test(test_refusals_leave_the_table_as_it_was),
      cmocka_unit_test(test_callbacks_may_request_but_not_feed),
      cmocka_unit_test(test_server_replies_carry_the_request_id),
      cmocka_unit_test(test_proxy_forwards_byte_for_byte),
      cmocka_unit_test(test_log_hooks_get_the_text_form),
      cmocka_unit_test(test_ids_of_other_types),
      cmocka_unit_test(test_reset_from_a_callback_of_the_feed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

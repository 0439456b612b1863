/* Unit tests of the sender/receiver protocol (core/include/fbe/protocol.h, FORMAT.md 9):
 * the stream of FORMAT.md 11.5 byte for byte, reassembly from chunks of every size,
 * a corrupted frame in the middle of a stream, unknown types, imported protocols,
 * a handler that stops, and frames over the size limit. (The conformance runner also
 * plays every stream record whole and in chunks of 1..64 bytes.) */
#include "fbe_test.h"

typedef struct fixture {
  fbe_schema *proto, *protoex;
  fbe_arena *arena;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  assert_non_null(f);
  f->proto = t_load("proto.fbe");
  f->protoex = t_load("protoex.fbe");
  f->arena = fbe_arena_new();
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->proto);
  fbe_schema_release(f->protoex);
  fbe_arena_free(f->arena);
  free(f);
  return 0;
}

static fbe_msg *from_json(fbe_arena *arena, const fbe_schema *s, const char *type, const char *json) {
  fbe_msg *m = NULL;
  fbe_error err;
  if (fbe_msg_from_json(t_struct(s, type), json, strlen(json), arena, &m, &err))
    fail_msg("%s: %s", type, err.message);
  return m;
}

#define ORDER_JSON \
  "{\"body\":{\"id\":1,\"symbol\":\"EURUSD\",\"side\":0,\"type\":0,\"price\":1.23456,\"volume\":1000.0}}"
#define BALANCE_JSON "{\"body\":{\"currency\":\"USD\",\"amount\":1000.0}}"

/* FORMAT.md 11.5: OrderMessage then BalanceMessage, standard (111 bytes) and final (63). */
#define STREAM_STD                                                                          \
  "40 00 00 00 08 00 00 00 0c 00 00 00 01 00 00 00 0c 00 00 00 22 00 00 00 01 00 00 00 01 " \
  "00 00 00 22 00 00 00 00 00 38 32 8f fc c1 c0 f3 3f 00 00 00 00 00 40 8f 40 06 00 00 00 " \
  "45 55 52 55 53 44 2f 00 00 00 08 00 00 00 0c 00 00 00 02 00 00 00 0c 00 00 00 14 00 00 " \
  "00 02 00 00 00 14 00 00 00 00 00 00 00 00 40 8f 40 03 00 00 00 55 53 44"
#define STREAM_FIN                                                                          \
  "28 00 00 00 01 00 00 00 01 00 00 00 06 00 00 00 45 55 52 55 53 44 00 00 38 32 8f fc c1 " \
  "c0 f3 3f 00 00 00 00 00 40 8f 40 17 00 00 00 02 00 00 00 03 00 00 00 55 53 44 00 00 00 " \
  "00 00 40 8f 40"

static int to_buffer(void *ctx, const uint8_t *data, size_t size) {
  return fbe_buffer_append(ctx, data, size);
}

/* What a receiver delivered: types and JSON texts, in order. */
typedef struct inbox {
  int count;
  const fbe_struct *types[16];
  char json[16][512];
  int stop_after; /* ask the receiver to stop after this many (0: never) */
} inbox;

static int collect(void *ctx, const fbe_msg *msg) {
  inbox *in = ctx;
  assert_true(in->count < 16);
  in->types[in->count] = fbe_msg_type(msg);
  fbe_buffer b;
  fbe_buffer_init(&b);
  assert_int_equal(fbe_msg_to_json(msg, 0, &b, NULL), FBE_OK);
  assert_true(b.size < sizeof in->json[0]);
  memcpy(in->json[in->count], b.data, b.size);
  in->json[in->count][b.size] = 0;
  fbe_buffer_free(&b);
  in->count++;
  return in->stop_after && in->count == in->stop_after;
}

/* Feeds data in chunks of `chunk` bytes (0: whole); returns the first error. */
static fbe_status feed(fbe_receiver *r, const uint8_t *data, size_t n, size_t chunk, fbe_error *err) {
  fbe_status rc = FBE_OK;
  for (size_t at = 0; at < n && rc == FBE_OK;) {
    size_t take = chunk && chunk < n - at ? chunk : n - at;
    rc = fbe_receiver_feed(r, data + at, take, err);
    at += take;
  }
  return rc;
}

/* 9.2 / 11.5: a sender writes each message as a self-contained model, back to back. */
static void test_sender_bytes(void **state) {
  fixture *f = *state;
  for (int model = 0; model < 2; model++) {
    fbe_buffer out;
    fbe_buffer_init(&out);
    fbe_sender *s = fbe_sender_new(f->proto, "proto", (fbe_model)model, to_buffer, &out);
    assert_non_null(s);
    fbe_error err;
    assert_int_equal(fbe_sender_send(s, from_json(f->arena, f->proto, "OrderMessage", ORDER_JSON), &err), FBE_OK);
    assert_int_equal(fbe_sender_send(s, from_json(f->arena, f->proto, "BalanceMessage", BALANCE_JSON), &err), FBE_OK);
    t_assert_bytes(out.data, out.size, model ? STREAM_FIN : STREAM_STD);
    assert_int_equal(fbe_sender_bytes(s), model ? 63 : 111);
    /* only message types travel (9.1) */
    assert_int_equal(fbe_sender_send(s, t_new(f->arena, t_struct(f->proto, "Order")), &err), FBE_ERR_TYPE);
    fbe_sender_free(s);
    fbe_buffer_free(&out);
  }
}

/* 9.3: any chunking delivers the same messages in order. */
static void test_receiver_chunks(void **state) {
  fixture *f = *state;
  for (int model = 0; model < 2; model++) {
    size_t n;
    uint8_t *bytes = t_hex(model ? STREAM_FIN : STREAM_STD, &n);
    for (size_t chunk = 0; chunk <= 64; chunk++) {
      inbox in = {0};
      fbe_receiver *r = fbe_receiver_new(f->proto, NULL, (fbe_model)model, NULL, collect, &in);
      assert_non_null(r);
      fbe_error err;
      assert_int_equal(feed(r, bytes, n, chunk, &err), FBE_OK);
      assert_int_equal(in.count, 2);
      assert_ptr_equal(in.types[0], t_struct(f->proto, "OrderMessage"));
      assert_ptr_equal(in.types[1], t_struct(f->proto, "BalanceMessage"));
      assert_string_equal(in.json[0], ORDER_JSON);
      assert_string_equal(in.json[1], BALANCE_JSON);
      assert_int_equal(fbe_receiver_pending(r), 0);
      assert_int_equal(fbe_receiver_received(r), 2);
      fbe_receiver_free(r);
    }
    free(bytes);
  }
}

/* 9.3 step 3 (this project: report and reset): a corrupted second frame of three gives
 * an error naming its stream offset, after the first message was delivered; the
 * receiver then takes a fresh stream. */
static void test_corrupt_frame(void **state) {
  fixture *f = *state;
  for (int model = 0; model < 2; model++) {
    fbe_buffer out;
    fbe_buffer_init(&out);
    fbe_sender *s = fbe_sender_new(f->proto, NULL, (fbe_model)model, to_buffer, &out);
    fbe_msg *order = from_json(f->arena, f->proto, "OrderMessage", ORDER_JSON);
    fbe_msg *balance = from_json(f->arena, f->proto, "BalanceMessage", BALANCE_JSON);
    assert_int_equal(fbe_sender_send(s, order, NULL), FBE_OK);
    size_t second = out.size;
    assert_int_equal(fbe_sender_send(s, balance, NULL), FBE_OK);
    size_t third = out.size;
    assert_int_equal(fbe_sender_send(s, order, NULL), FBE_OK);
    /* the currency string's length inside the second frame: 0xffffffff */
    size_t at = second + (model ? 8 : 0x28);
    assert_int_equal(t_get32(out.data, at), 3);
    t_put32(out.data, at, 0xffffffffu);
    for (size_t chunk = 0; chunk <= 64; chunk++) {
      inbox in = {0};
      fbe_receiver *r = fbe_receiver_new(f->proto, NULL, (fbe_model)model, NULL, collect, &in);
      fbe_error err;
      fbe_status rc = feed(r, out.data, out.size, chunk, &err);
      assert_int_equal(rc, FBE_ERR_MALFORMED);
      assert_int_equal(in.count, 1); /* the message before the bad frame */
      assert_string_equal(in.json[0], ORDER_JSON);
      assert_true(err.offset >= second && err.offset < third);
      /* after the error the receiver is reset: a clean stream goes through */
      inbox again = {0};
      fbe_receiver_free(r);
      r = fbe_receiver_new(f->proto, NULL, (fbe_model)model, NULL, collect, &again);
      assert_int_equal(feed(r, out.data, second, chunk, &err), FBE_OK);
      assert_int_equal(again.count, 1);
      fbe_receiver_free(r);
    }
    /* a frame size under the model's minimum is an error at that frame */
    inbox in = {0};
    fbe_receiver *r = fbe_receiver_new(f->proto, NULL, (fbe_model)model, NULL, collect, &in);
    t_put32(out.data, at, 3);
    t_put32(out.data, second, 5);
    fbe_error err;
    assert_int_equal(feed(r, out.data, out.size, 0, &err), FBE_ERR_MALFORMED);
    assert_int_equal(err.offset, second);
    assert_int_equal(in.count, 1);
    assert_int_equal(fbe_receiver_pending(r), 0);
    /* reset drops a partial frame */
    assert_int_equal(fbe_receiver_feed(r, out.data, 10, &err), FBE_OK);
    assert_int_equal(fbe_receiver_pending(r), 10);
    fbe_receiver_reset(r);
    assert_int_equal(fbe_receiver_pending(r), 0);
    fbe_receiver_free(r);
    fbe_sender_free(s);
    fbe_buffer_free(&out);
  }
}

/* 9.3 step 4 / 9.4: a proto receiver skips protoex's OrderMessage (id 11) and goes on;
 * a protoex receiver takes proto's messages too (through its import). */
static void test_unknown_and_imported(void **state) {
  fixture *f = *state;
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_sender *s = fbe_sender_new(f->protoex, NULL, FBE_MODEL_STANDARD, to_buffer, &out);
  const char *ex_order =
      "{\"body\":{\"id\":7,\"symbol\":\"X\",\"side\":2,\"type\":3,\"price\":1.5,\"volume\":2.0,\"tp\":3.0,\"sl\":1.0}}";
  assert_int_equal(fbe_sender_send(s, from_json(f->arena, f->protoex, "protoex.OrderMessage", ex_order), NULL), FBE_OK);
  assert_int_equal(fbe_sender_send(s, from_json(f->arena, f->protoex, "proto.BalanceMessage", BALANCE_JSON), NULL), FBE_OK);
  fbe_sender_free(s);

  inbox in = {0};
  fbe_receiver *r = fbe_receiver_new(f->proto, NULL, FBE_MODEL_STANDARD, NULL, collect, &in);
  assert_int_equal(fbe_receiver_feed(r, out.data, out.size, NULL), FBE_OK);
  assert_int_equal(in.count, 1);
  assert_string_equal(in.json[0], BALANCE_JSON);
  assert_int_equal(fbe_receiver_skipped(r), 1);
  fbe_receiver_free(r);

  inbox both = {0};
  r = fbe_receiver_new(f->protoex, NULL, FBE_MODEL_STANDARD, NULL, collect, &both);
  assert_int_equal(fbe_receiver_feed(r, out.data, out.size, NULL), FBE_OK);
  assert_int_equal(both.count, 2);
  assert_ptr_equal(both.types[0], t_struct(f->protoex, "protoex.OrderMessage"));
  assert_ptr_equal(both.types[1], t_struct(f->protoex, "proto.BalanceMessage"));
  assert_string_equal(both.json[0], ex_order);
  fbe_receiver_free(r);

  assert_ptr_equal(fbe_protocol_find(f->protoex, NULL, 11), t_struct(f->protoex, "protoex.OrderMessage"));
  assert_ptr_equal(fbe_protocol_find(f->protoex, NULL, 2), t_struct(f->protoex, "proto.BalanceMessage"));
  assert_null(fbe_protocol_find(f->proto, NULL, 11));
  assert_null(fbe_sender_new(f->proto, "nosuchpackage", FBE_MODEL_STANDARD, to_buffer, &out));
  fbe_buffer_free(&out);
}

/* A handler that stops: the feed returns FBE_ERR_IO and keeps the rest for later. */
static void test_handler_stops(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *bytes = t_hex(STREAM_STD, &n);
  inbox in = {0};
  in.stop_after = 1;
  fbe_receiver *r = fbe_receiver_new(f->proto, NULL, FBE_MODEL_STANDARD, NULL, collect, &in);
  fbe_error err;
  assert_int_equal(fbe_receiver_feed(r, bytes, n, &err), FBE_ERR_IO);
  assert_int_equal(in.count, 1);
  assert_int_equal(fbe_receiver_pending(r), n - 64);
  in.stop_after = 0;
  /* the next feed, even of no bytes, delivers the kept frame */
  assert_int_equal(fbe_receiver_feed(r, NULL, 0, &err), FBE_OK);
  assert_int_equal(in.count, 2);
  assert_string_equal(in.json[1], BALANCE_JSON);
  assert_int_equal(fbe_receiver_pending(r), 0);
  assert_int_equal(fbe_receiver_feed(r, bytes, 16, &err), FBE_OK); /* a new frame's start */
  assert_int_equal(fbe_receiver_pending(r), 16);
  assert_int_equal(in.count, 2);
  fbe_receiver_free(r);
  free(bytes);
}

/* Frames over limits.max_model_size are refused before any byte of them is buffered. */
static void test_frame_limit(void **state) {
  fixture *f = *state;
  fbe_limits small = fbe_limits_default();
  small.max_model_size = 50;
  size_t n;
  uint8_t *bytes = t_hex(STREAM_STD, &n);
  inbox in = {0};
  fbe_receiver *r = fbe_receiver_new(f->proto, NULL, FBE_MODEL_STANDARD, &small, collect, &in);
  fbe_error err;
  assert_int_equal(fbe_receiver_feed(r, bytes, 4, &err), FBE_ERR_LIMIT); /* a 64-byte frame */
  assert_int_equal(err.offset, 0);
  assert_int_equal(fbe_receiver_pending(r), 0);
  /* a claimed 4 GiB frame fails at once too */
  uint8_t huge[4] = {0xff, 0xff, 0xff, 0xff};
  assert_int_equal(fbe_receiver_feed(r, huge, 4, &err), FBE_ERR_LIMIT);
  fbe_receiver_free(r);
  free(bytes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sender_bytes),         cmocka_unit_test(test_receiver_chunks),
      cmocka_unit_test(test_corrupt_frame),        cmocka_unit_test(test_unknown_and_imported),
      cmocka_unit_test(test_handler_stops),        cmocka_unit_test(test_frame_limit),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

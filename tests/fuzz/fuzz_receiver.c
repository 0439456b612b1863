/* Fuzz target: the stream receiver (FORMAT.md 9) fed a fuzzed stream in fuzzed chunk
 * sizes, with a handler that may stop the feed after messages.
 *
 * Input: byte 0 = configuration (bits 0-1: package proto, protoex, test (whose protocol
 * is proto's, imported), proto; bit 2: final model; bits 3-4: the handler stops after
 * every message, every other one, or never); byte 1 = k, the number of chunk-size bytes
 * (k % 16) that follow; then the stream. Chunk sizes are used in turn, cyclically; a
 * chunk of 0 bytes is a feed of nothing (allowed, and the way to go on after a stop).
 *
 * Invariants: the reference run feeds the whole stream at once and never stops. The
 * chunked run must deliver the same messages (compared by their encoding), reach the
 * same first error (code and stream offset) with the same counts, and otherwise leave
 * the same number of bytes pending. Every delivered message passes every invariant of
 * fuzz_common.h (it passed verify and decode inside the receiver). */
#include <string.h>
#include "fuzz_common.h"

typedef struct delivery {
  fbe_buffer bytes; /* every delivered message: its standard model, back to back */
  size_t count;
  unsigned stop_every; /* the handler stops after every Nth message (0: never) */
  int check;           /* run fuzz_check_message on each (the reference run does) */
} delivery;

static int on_message(void *ctx, const fbe_msg *msg) {
  delivery *l = ctx;
  if (l->check) fuzz_check_message(msg, FUZZ_FROM_WIRE);
  fbe_error err;
  /* The protocols' messages have no utc/uuid defaults: their encoding is deterministic. */
  fbe_status rc = fbe_encode(msg, FBE_MODEL_STANDARD, &l->bytes, &err);
  FUZZ_CHECK(rc == FBE_OK, "delivered message does not encode: %s", err.message);
  l->count++;
  return l->stop_every && l->count % l->stop_every == 0;
}

typedef struct outcome {
  fbe_status rc; /* the first error other than a stop, or FBE_OK */
  size_t offset;
  uint64_t received, skipped;
  size_t pending;
} outcome;

/* Feeds stream[0..n) in chunks (nchunks == 0: in one piece) until the first error. */
static void play(fbe_receiver *r, const uint8_t *stream, size_t n, const uint8_t *chunks,
                 size_t nchunks, outcome *out) {
  fbe_error err;
  fbe_status rc = FBE_OK;
  size_t at = 0, next = 0;
  do {
    size_t take = nchunks ? chunks[next++ % nchunks] : n - at;
    if (take > n - at) take = n - at;
    rc = fbe_receiver_feed(r, take ? stream + at : NULL, take, &err);
    at += take;
    /* A stop keeps the rest of the chunk; feeds of nothing deliver it one message at a time. */
    for (size_t stops = 0; rc == FBE_ERR_IO; stops++) {
      FUZZ_CHECK(stops <= n, "the receiver stops more often than the stream has frames");
      rc = fbe_receiver_feed(r, NULL, 0, &err);
    }
    if (rc) {
      fuzz_check_error("fbe_receiver_feed", rc, &err,
                       FUZZ_CODE(FBE_ERR_MALFORMED) | FUZZ_CODE(FBE_ERR_LIMIT), n);
      FUZZ_CHECK(fbe_receiver_pending(r) == 0, "a bad frame left %zu bytes pending",
                 fbe_receiver_pending(r));
    }
  } while (!rc && at < n);
  out->rc = rc;
  out->offset = rc ? err.offset : 0;
  out->received = fbe_receiver_received(r);
  out->skipped = fbe_receiver_skipped(r);
  out->pending = fbe_receiver_pending(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const packages[] = {"proto", "protoex", "test", "proto"};
  static const unsigned stops[] = {0, 1, 2, 0};
  if (size < 2) return 0;
  uint8_t config = data[0];
  size_t nchunks = data[1] % 16;
  if (size < 2 + nchunks) return 0;
  const uint8_t *chunks = data + 2;
  const uint8_t *stream = chunks + nchunks;
  size_t n = size - 2 - nchunks;
  int all_zero = 1;
  for (size_t i = 0; i < nchunks; i++) all_zero &= chunks[i] == 0;
  if (all_zero) nchunks = 0; /* feeds of nothing alone would never end */

  fbe_schema *schema = fuzz_schema(packages[config & 3]);
  fbe_model model = config & 4 ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  delivery whole = {{NULL, 0, 0}, 0, 0, 1};
  delivery chunked = {{NULL, 0, 0}, 0, stops[(config >> 3) & 3], 0};
  outcome a, b;
  fbe_receiver *r = fbe_receiver_new(schema, NULL, model, NULL, on_message, &whole);
  FUZZ_CHECK(r != NULL, "fbe_receiver_new failed");
  play(r, stream, n, NULL, 0, &a);
  fbe_receiver_free(r);
  r = fbe_receiver_new(schema, NULL, model, NULL, on_message, &chunked);
  FUZZ_CHECK(r != NULL, "fbe_receiver_new failed");
  play(r, stream, n, chunks, nchunks, &b);
  fbe_receiver_free(r);

  FUZZ_CHECK(a.rc == b.rc && a.offset == b.offset,
             "whole: %s at %zu; in chunks (stop every %u): %s at %zu", fbe_status_name(a.rc),
             a.offset, chunked.stop_every, fbe_status_name(b.rc), b.offset);
  FUZZ_CHECK(a.received == b.received && a.skipped == b.skipped,
             "whole: %llu received, %llu skipped; in chunks (stop every %u): %llu, %llu",
             (unsigned long long)a.received, (unsigned long long)a.skipped, chunked.stop_every,
             (unsigned long long)b.received, (unsigned long long)b.skipped);
  FUZZ_CHECK(whole.count == a.received && chunked.count == b.received,
             "the handler saw %zu/%zu messages, the receiver counts %llu/%llu", whole.count,
             chunked.count, (unsigned long long)a.received, (unsigned long long)b.received);
  int same = whole.bytes.size == chunked.bytes.size &&
             (!whole.bytes.size || !memcmp(whole.bytes.data, chunked.bytes.data, whole.bytes.size));
  FUZZ_CHECK(same, "whole and chunked feeds delivered different messages");
  FUZZ_CHECK(a.rc || a.pending == b.pending, "whole: %zu bytes pending; in chunks: %zu", a.pending,
             b.pending);
  fbe_buffer_free(&whole.bytes);
  fbe_buffer_free(&chunked.bytes);
  return 0;
}

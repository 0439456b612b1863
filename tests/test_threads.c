/* Thread safety (schema.h: "Immutable and reference-counted: share it freely between
 * threads"): one loaded schema shared by 4 threads that at the same time build messages
 * from JSON, encode both models, verify, decode, write JSON, send and receive protocol
 * streams, each with its own arena and buffers, and retain/release the schema. The main
 * thread drops its own reference while the workers run, so the last release (which frees
 * the schema) happens in a worker. ci/test.sh runs this under ThreadSanitizer too.
 *
 * Workers record failures instead of asserting (cmocka is not thread-safe); the main
 * thread checks them after the join, and that fbe_memory_in_use() is back where it was:
 * the count, kept from every thread, adds up exactly. */
#include "fbe_test.h"

#if !defined(_WIN32) || defined(__MINGW32__) /* MinGW: winpthreads */
#include <pthread.h>

#define WORKERS 4
#define ROUNDS 200

#define ACCOUNT_JSON                                                                       \
  "{\"id\":1,\"name\":\"Test\",\"state\":6,\"wallet\":{\"currency\":\"USD\",\"amount\":" \
  "1000.0},\"asset\":{\"currency\":\"EUR\",\"amount\":100.0},\"orders\":[{\"id\":1,"      \
  "\"symbol\":\"EURUSD\",\"side\":0,\"type\":0,\"price\":1.23456,\"volume\":1000.0},"     \
  "{\"id\":2,\"symbol\":\"EURUSD\",\"side\":1,\"type\":1,\"price\":1.0,\"volume\":100.0}," \
  "{\"id\":3,\"symbol\":\"EURUSD\",\"side\":0,\"type\":2,\"price\":1.5,\"volume\":10.0}]}"

/* Computed once before the threads start; read-only afterwards. */
typedef struct expected {
  fbe_buffer model[2]; /* standard, final */
  fbe_buffer json;
} expected;

typedef struct gate {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int ready; /* workers holding their own reference */
  int go;    /* the main thread dropped its reference: start */
} gate;

typedef struct worker {
  pthread_t thread;
  int id;
  fbe_schema *schema; /* borrowed until the worker retains it */
  const expected *want;
  gate *gate;
  int failures;
  char why[256];
} worker;

static void failed(worker *w, const char *what) {
  if (!w->failures++) snprintf(w->why, sizeof w->why, "worker %d: %s", w->id, what);
}

static int equal_bytes(const fbe_buffer *a, const fbe_buffer *b) {
  return a->size == b->size && !memcmp(a->data, b->data, a->size);
}

static int sink(void *ctx, const uint8_t *data, size_t size) {
  return fbe_buffer_append(ctx, data, size);
}

typedef struct inbox {
  const fbe_msg *want; /* the AccountMessage sent */
  int count, mismatches;
} inbox;

static int on_message(void *ctx, const fbe_msg *msg) {
  inbox *in = ctx;
  in->count++;
  in->mismatches += !fbe_msg_equal(msg, in->want);
  return 0;
}

/* One round of everything a thread can do with the shared schema. */
static void round_trip(worker *w, fbe_schema *schema, fbe_arena *arena) {
  const fbe_struct *account = fbe_schema_find_struct(schema, "Account");
  const fbe_struct *message = fbe_schema_find_struct(schema, "AccountMessage");
  if (!account || !message) {
    failed(w, "types not found");
    return;
  }
  fbe_msg *msg = NULL;
  if (fbe_msg_from_json(account, ACCOUNT_JSON, strlen(ACCOUNT_JSON), arena, &msg, NULL)) {
    failed(w, "fbe_msg_from_json");
    return;
  }
  for (int m = 0; m < 2; m++) {
    fbe_buffer bytes;
    fbe_buffer_init(&bytes);
    fbe_msg *back = NULL;
    if (fbe_encode(msg, (fbe_model)m, &bytes, NULL) || !equal_bytes(&bytes, &w->want->model[m]))
      failed(w, "encode differs");
    else if (fbe_verify(account, (fbe_model)m, bytes.data, bytes.size, NULL, NULL, NULL))
      failed(w, "verify");
    else if (fbe_decode(account, (fbe_model)m, bytes.data, bytes.size, arena, NULL, &back, NULL,
                        NULL) ||
             !fbe_msg_equal(back, msg))
      failed(w, "decode");
    fbe_buffer_free(&bytes);
  }
  fbe_buffer json;
  fbe_buffer_init(&json);
  if (fbe_msg_to_json(msg, 0, &json, NULL) || !equal_bytes(&json, &w->want->json))
    failed(w, "JSON differs");
  fbe_buffer_free(&json);

  /* A protocol stream: three AccountMessages sent, received in chunks of odd sizes. */
  fbe_msg *wrapped = fbe_msg_new(arena, message);
  if (!wrapped) {
    failed(w, "fbe_msg_new");
    return;
  }
  fbe_ref body = fbe_ref_field(fbe_msg_ref(wrapped), "body");
  if (fbe_json_read(body, ACCOUNT_JSON, strlen(ACCOUNT_JSON), NULL)) {
    failed(w, "json_read");
    return;
  }
  fbe_model model = (fbe_model)(w->id & 1);
  fbe_buffer stream;
  fbe_buffer_init(&stream);
  fbe_sender *s = fbe_sender_new(schema, NULL, model, sink, &stream);
  inbox in = {wrapped, 0, 0};
  fbe_receiver *r = fbe_receiver_new(schema, NULL, model, NULL, on_message, &in);
  if (!s || !r) {
    failed(w, "sender/receiver");
  } else {
    for (int i = 0; i < 3; i++)
      if (fbe_sender_send(s, wrapped, NULL)) failed(w, "send");
    size_t chunk = 1 + 7 * (size_t)w->id;
    for (size_t at = 0; at < stream.size; at += chunk) {
      size_t take = stream.size - at < chunk ? stream.size - at : chunk;
      if (fbe_receiver_feed(r, stream.data + at, take, NULL)) failed(w, "feed");
    }
    if (in.count != 3 || in.mismatches) failed(w, "received other messages");
  }
  fbe_sender_free(s);
  fbe_receiver_free(r);
  fbe_buffer_free(&stream);
}

static void *work(void *arg) {
  worker *w = arg;
  fbe_schema *schema = fbe_schema_retain(w->schema); /* our own reference */
  pthread_mutex_lock(&w->gate->lock);
  w->gate->ready++;
  pthread_cond_broadcast(&w->gate->changed);
  while (!w->gate->go) pthread_cond_wait(&w->gate->changed, &w->gate->lock);
  pthread_mutex_unlock(&w->gate->lock);

  fbe_arena *arena = fbe_arena_new();
  if (!arena) {
    failed(w, "out of memory");
  } else {
    for (int i = 0; i < ROUNDS && !w->failures; i++) {
      fbe_schema *extra = fbe_schema_retain(schema); /* counts change under contention */
      round_trip(w, extra, arena);
      fbe_schema_release(extra);
      fbe_arena_reset(arena);
    }
  }
  fbe_arena_free(arena);
  fbe_schema_release(schema); /* the last worker to get here frees the schema */
  return NULL;
}

static void test_shared_schema(void **state) {
  (void)state;
  size_t base = fbe_memory_in_use(); /* counted from 5 threads at once: must add up */
  fbe_schema *schema = t_load("proto.fbe");
  const fbe_struct *account = t_struct(schema, "Account");
  expected want;
  fbe_arena *arena = fbe_arena_new();
  fbe_msg *msg = NULL;
  size_t json_size = strlen(ACCOUNT_JSON);
  assert_int_equal(fbe_msg_from_json(account, ACCOUNT_JSON, json_size, arena, &msg, NULL), FBE_OK);
  for (int m = 0; m < 2; m++) {
    fbe_buffer_init(&want.model[m]);
    assert_int_equal(fbe_encode(msg, (fbe_model)m, &want.model[m], NULL), FBE_OK);
  }
  assert_int_equal(want.model[0].size, 252);
  assert_int_equal(want.model[1].size, 152);
  fbe_buffer_init(&want.json);
  assert_int_equal(fbe_msg_to_json(msg, 0, &want.json, NULL), FBE_OK);
  fbe_arena_free(arena);

  gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
  worker workers[WORKERS];
  for (int i = 0; i < WORKERS; i++) {
    workers[i] = (worker){0};
    workers[i].id = i;
    workers[i].schema = schema;
    workers[i].want = &want;
    workers[i].gate = &g;
    assert_int_equal(pthread_create(&workers[i].thread, NULL, work, &workers[i]), 0);
  }
  /* Once every worker holds a reference, drop ours: the schema lives on in theirs. */
  pthread_mutex_lock(&g.lock);
  while (g.ready < WORKERS) pthread_cond_wait(&g.changed, &g.lock);
  fbe_schema_release(schema);
  g.go = 1;
  pthread_cond_broadcast(&g.changed);
  pthread_mutex_unlock(&g.lock);

  int failures = 0;
  for (int i = 0; i < WORKERS; i++) {
    assert_int_equal(pthread_join(workers[i].thread, NULL), 0);
    if (workers[i].failures) print_message("%s\n", workers[i].why);
    failures += workers[i].failures;
  }
  for (int m = 0; m < 2; m++) fbe_buffer_free(&want.model[m]);
  fbe_buffer_free(&want.json);
  assert_int_equal(failures, 0);
  assert_int_equal(fbe_memory_in_use(), base);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_shared_schema)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* no pthreads: nothing to run */
static void test_shared_schema(void **state) {
  (void)state;
  skip();
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_shared_schema)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif

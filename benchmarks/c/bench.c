/* libfbe C benchmark: proto.Account (the reference README's value, three orders)
 * encoded, decoded and verified in both models, next to a memcpy of the same byte
 * count as a floor: through the dynamic core ("impl":"libfbe") and through the code
 * `fbe gen c` generates ("impl":"libfbe-gen", when built with FBE_BENCH_GEN), on the
 * same value and the same bytes. The core's "decode" is the default fbe_decode, which
 * verifies first; "decode_trusted" (fbe_decode_trusted, no verify) is measured beside
 * it, so decode - decode_trusted is what verification adds.
 *
 *   fbe_bench [--quick] [--json] [--runs N] [--min-time SECONDS] [-I SCHEMAS_DIR]
 *
 * Each figure is the median over the rounds (default 7) of the mean time per
 * operation, each run lasting at least --min-time (default 0.2 s). --quick is 3 runs
 * of 0.05 s, for CI. --json prints one JSON object per line instead of a table, with
 * "rounds" (every round's figure, in round order) and "harness":"fbe_bench" (its rounds
 * are not fbe_peers': benchmarks/tools/render.py pairs rounds of one harness only). */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fbe/fbe.h"
#if FBE_BENCH_GEN
#include "proto.h"
#endif

#ifndef FBE_SCHEMAS_DIR
#define FBE_SCHEMAS_DIR "schemas"
#endif

#define MAX_RUNS 100

static const char ACCOUNT_JSON[] =
    "{\"id\":1,\"name\":\"Test\",\"state\":6,"
    "\"wallet\":{\"currency\":\"USD\",\"amount\":1000.0},"
    "\"asset\":{\"currency\":\"EUR\",\"amount\":100.0},"
    "\"orders\":["
    "{\"id\":1,\"symbol\":\"EURUSD\",\"side\":0,\"type\":0,\"price\":1.23456,\"volume\":1000.0},"
    "{\"id\":2,\"symbol\":\"EURUSD\",\"side\":1,\"type\":1,\"price\":1.0,\"volume\":100.0},"
    "{\"id\":3,\"symbol\":\"EURUSD\",\"side\":0,\"type\":2,\"price\":1.5,\"volume\":10.0}]}";

/* Every result is folded into this, so the compiler cannot drop the work. */
static volatile uint64_t g_sink;

/* What one timed operation works on. */
typedef struct bench_ctx {
  const fbe_struct *type;
  const fbe_msg *msg;   /* the value to encode */
  fbe_model model;
  fbe_limits limits;
  const uint8_t *bytes; /* the encoded model (decode, verify, memcpy source) */
  size_t size;
  fbe_buffer out;       /* encode target, reset before every encode */
  fbe_arena *arena;     /* decode target, reset before every decode */
  uint8_t *copy;        /* memcpy target */
#if FBE_BENCH_GEN
  proto_Account gen;        /* the value as a generated struct */
  proto_Account gen_out;    /* decode target (its memory: arena, reset per decode) */
  fbe_allocator gen_alloc;  /* draws from arena */
#endif
} bench_ctx;

typedef uint64_t (*bench_fn)(bench_ctx *ctx, uint64_t iterations);

static void die(const char *what, const fbe_error *err) {
  char text[512] = "";
  if (err) fbe_error_format(err, text, sizeof text);
  fprintf(stderr, "fbe_bench: %s%s%s\n", what, err ? ": " : "", text);
  exit(1);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t op_encode(bench_ctx *c, uint64_t n) {
  uint64_t acc = 0;
  fbe_error err;
  for (uint64_t i = 0; i < n; i++) {
    fbe_buffer_reset(&c->out);
    if (fbe_encode(c->msg, c->model, &c->out, &err) != FBE_OK) die("encode failed", &err);
    acc += c->out.size + c->out.data[c->out.size - 1];
  }
  return acc;
}

typedef fbe_status (*decode_fn)(const fbe_struct *, fbe_model, const uint8_t *, size_t, fbe_arena *,
                                 const fbe_limits *, fbe_msg **, size_t *, fbe_error *);

static inline uint64_t decode_loop(bench_ctx *c, uint64_t n, decode_fn decode) {
  uint64_t acc = 0;
  fbe_error err;
  for (uint64_t i = 0; i < n; i++) {
    fbe_msg *msg = NULL;
    size_t model_size = 0;
    fbe_arena_reset(c->arena);
    if (decode(c->type, c->model, c->bytes, c->size, c->arena, &c->limits, &msg, &model_size, &err) != FBE_OK)
      die("decode failed", &err);
    acc += model_size + (uint64_t)(uintptr_t)msg;
  }
  return acc;
}

static uint64_t op_decode(bench_ctx *c, uint64_t n) { return decode_loop(c, n, fbe_decode); }

static uint64_t op_decode_trusted(bench_ctx *c, uint64_t n) { return decode_loop(c, n, fbe_decode_trusted); }

static uint64_t op_verify(bench_ctx *c, uint64_t n) {
  uint64_t acc = 0;
  fbe_error err;
  for (uint64_t i = 0; i < n; i++) {
    size_t model_size = 0;
    if (fbe_verify(c->type, c->model, c->bytes, c->size, &c->limits, &model_size, &err) != FBE_OK)
      die("verify failed", &err);
    acc += model_size;
  }
  return acc;
}

#if FBE_BENCH_GEN
static uint64_t op_gen_encode(bench_ctx *c, uint64_t n) {
  uint64_t acc = 0;
  fbe_error err;
  for (uint64_t i = 0; i < n; i++) {
    fbe_buffer_reset(&c->out);
    if (proto_Account_encode(&c->gen, c->model, &c->out, &err) != FBE_OK) die("generated encode failed", &err);
    acc += c->out.size + c->out.data[c->out.size - 1];
  }
  return acc;
}

typedef fbe_status (*gen_decode_fn)(proto_Account *, fbe_model, const uint8_t *, size_t, const fbe_allocator *,
                                    size_t *, fbe_error *);

static uint64_t gen_decode_loop(bench_ctx *c, uint64_t n, gen_decode_fn decode) {
  uint64_t acc = 0;
  fbe_error err;
  for (uint64_t i = 0; i < n; i++) {
    size_t model_size = 0;
    fbe_arena_reset(c->arena);
    if (decode(&c->gen_out, c->model, c->bytes, c->size, &c->gen_alloc, &model_size, &err) != FBE_OK)
      die("generated decode failed", &err);
    acc += model_size + c->gen_out.orders.count;
  }
  return acc;
}

/* proto_Account_decode verifies first (as fbe_decode does); decode_trusted does not */
static uint64_t op_gen_decode(bench_ctx *c, uint64_t n) { return gen_decode_loop(c, n, proto_Account_decode); }
static uint64_t op_gen_decode_trusted(bench_ctx *c, uint64_t n) {
  return gen_decode_loop(c, n, proto_Account_decode_trusted);
}

static uint64_t op_gen_verify(bench_ctx *c, uint64_t n) {
  uint64_t acc = 0;
  fbe_error err;
  for (uint64_t i = 0; i < n; i++) {
    size_t model_size = 0;
    if (proto_Account_verify(c->model, c->bytes, c->size, &model_size, &err) != FBE_OK)
      die("generated verify failed", &err);
    acc += model_size;
  }
  return acc;
}
#endif

/* The floor: copying the same bytes. The barrier tells the compiler the copy is
 * read, so neither the copy nor the loop can be optimised away. */
#if defined(__GNUC__) || defined(__clang__)
#define COPY(dst, src, n)                                  \
  do {                                                     \
    memcpy((dst), (src), (n));                             \
    __asm__ __volatile__("" : : "r"(dst) : "memory");      \
  } while (0)
#else
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;
#define COPY(dst, src, n) ((void)copy_fn((dst), (src), (n)))
#endif

static uint64_t op_memcpy(bench_ctx *c, uint64_t n) {
  uint64_t acc = 0;
  for (uint64_t i = 0; i < n; i++) {
    COPY(c->copy, c->bytes, c->size);
    acc += c->copy[c->size - 1];
  }
  return acc;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct result {
  double median_ns;
  double spread_pct;
} result;

/* A batch of about 1 ms, so the clock is read rarely. */
static uint64_t calibrate(bench_fn fn, bench_ctx *ctx) {
  uint64_t batch = 1;
  for (;;) {
    double t0 = now_ns();
    g_sink += fn(ctx, batch);
    if (now_ns() - t0 >= 1e6 || batch >= (UINT64_C(1) << 40)) return batch;
    batch *= 2;
  }
}

/* One run: whole batches for at least min_time seconds; returns ns per operation. */
static double run_once(bench_fn fn, bench_ctx *ctx, uint64_t batch, double min_time) {
  uint64_t iterations = 0;
  double t0 = now_ns(), elapsed;
  do {
    g_sink += fn(ctx, batch);
    iterations += batch;
    elapsed = now_ns() - t0;
  } while (elapsed < min_time * 1e9);
  return elapsed / (double)iterations;
}

static result summarize(double *per_op, int runs) {
  qsort(per_op, (size_t)runs, sizeof per_op[0], cmp_double);
  result res;
  res.median_ns = runs % 2 ? per_op[runs / 2] : (per_op[runs / 2 - 1] + per_op[runs / 2]) / 2;
  res.spread_pct = (per_op[runs - 1] - per_op[0]) / res.median_ns * 100.0;
  return res;
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: fbe_bench [--quick] [--json] [--runs N] [--min-time SECONDS] [-I SCHEMAS_DIR]\n"
          "  --quick       3 runs of at least 0.05 s each (for CI)\n"
          "  --json        one JSON object per line instead of a table\n"
          "  --runs N      rounds (default 7): each runs every figure once; a figure is the median\n"
          "  --min-time S  least duration of one run in seconds (default 0.2)\n"
          "  -I DIR        directory holding proto.fbe (default %s)\n",
          FBE_SCHEMAS_DIR);
}

int main(int argc, char **argv) {
  int runs = 7, json = 0;
  double min_time = 0.2;
  const char *schemas_dir = FBE_SCHEMAS_DIR;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--quick")) {
      runs = 3;
      min_time = 0.05;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--runs") && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (!strcmp(a, "--min-time") && i + 1 < argc) {
      min_time = atof(argv[++i]);
    } else if (!strcmp(a, "-I") && i + 1 < argc) {
      schemas_dir = argv[++i];
    } else if (!strncmp(a, "-I", 2) && a[2]) {
      schemas_dir = a + 2;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (runs < 1 || runs > MAX_RUNS || !(min_time > 0)) {
    fprintf(stderr, "fbe_bench: --runs must be 1..%d and --min-time positive\n", MAX_RUNS);
    return 2;
  }

  /* Schema and the value to encode. */
  const char *dirs[1] = {schemas_dir};
  fbe_load_options options = {dirs, 1};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = fbe_schema_load_package("proto", &options, &diags);
  if (!schema) {
    for (size_t i = 0; i < diags.count; i++) {
      char line[512];
      fbe_diagnostic_format(&diags.items[i], line, sizeof line);
      fprintf(stderr, "%s\n", line);
    }
    fprintf(stderr, "fbe_bench: cannot load package proto from %s\n", schemas_dir);
    return 1;
  }
  fbe_diagnostics_free(&diags);
  const fbe_struct *type = fbe_schema_find_struct(schema, "Account");
  if (!type) die("proto.Account not found", NULL);

  fbe_arena *value_arena = fbe_arena_new();
  if (!value_arena) die("out of memory", NULL);
  fbe_msg *account = NULL;
  fbe_error err;
  if (fbe_msg_from_json(type, ACCOUNT_JSON, sizeof ACCOUNT_JSON - 1, value_arena, &account,
                        &err) != FBE_OK)
    die("cannot build the Account from JSON", &err);

  static const struct {
    const char *impl;
    const char *name;
    bench_fn fn;
  } ops[] = {{"libfbe", "encode", op_encode},      {"libfbe", "decode", op_decode},
             {"libfbe", "decode_trusted", op_decode_trusted},
             {"libfbe", "verify", op_verify},      {"libfbe", "memcpy", op_memcpy},
#if FBE_BENCH_GEN
             {"libfbe-gen", "encode", op_gen_encode}, {"libfbe-gen", "decode", op_gen_decode},
             {"libfbe-gen", "decode_trusted", op_gen_decode_trusted}, {"libfbe-gen", "verify", op_gen_verify},
#endif
  };
  static const struct {
    const char *name;
    fbe_model model;
  } models[] = {{"standard", FBE_MODEL_STANDARD}, {"final", FBE_MODEL_FINAL}};

  if (!json) {
    printf("libfbe %s C benchmark: proto.Account (3 orders), median of %d interleaved rounds of >= %.2f s each\n",
           fbe_version(), runs, min_time);
    printf("%-10s %-9s %-14s %6s %10s %8s %10s\n", "impl", "model", "op", "bytes", "ns/op", "spread", "MB/s");
  }

  /* Set up both models, then measure in rounds: every round runs every figure once,
   * so a slow spell of a shared machine lands on all figures alike instead of
   * skewing one; each figure is the median over the rounds. */
  enum { NMODELS = 2, NOPS = sizeof ops / sizeof ops[0] };
  bench_ctx ctx[NMODELS];
  fbe_buffer encoded[NMODELS];
  uint64_t batch[NMODELS][NOPS];
  static double per_op[NMODELS][NOPS][MAX_RUNS];
  for (size_t m = 0; m < NMODELS; m++) {
    bench_ctx *c = &ctx[m];
    memset(c, 0, sizeof *c);
    c->type = type;
    c->msg = account;
    c->model = models[m].model;
    c->limits = fbe_limits_default();
    fbe_buffer_init(&c->out);

    /* The bytes every other operation reads; checked once before timing. */
    fbe_buffer_init(&encoded[m]);
    if (fbe_encode(account, c->model, &encoded[m], &err) != FBE_OK) die("encode failed", &err);
    c->bytes = encoded[m].data;
    c->size = encoded[m].size;
    c->arena = fbe_arena_new();
    c->copy = malloc(c->size);
    if (!c->arena || !c->copy) die("out of memory", NULL);
    fbe_msg *back = NULL;
    size_t verified = 0, decoded = 0;
    if (fbe_verify(type, c->model, c->bytes, c->size, &c->limits, &verified, &err) != FBE_OK)
      die("the encoded Account does not verify", &err);
    if (fbe_decode(type, c->model, c->bytes, c->size, c->arena, &c->limits, &back, &decoded,
                   &err) != FBE_OK)
      die("the encoded Account does not decode", &err);
    if (!fbe_msg_equal(account, back)) die("the decoded Account differs from the original", NULL);
    fbe_msg *trusted = NULL;
    if (fbe_decode_trusted(type, c->model, c->bytes, c->size, c->arena, &c->limits, &trusted, NULL, &err) !=
            FBE_OK ||
        !fbe_msg_equal(account, trusted))
      die("the trusted decode of the Account differs from the original", &err);
    if (verified != c->size || decoded != c->size)
      die("verify/decode report a model size other than the encoded size", NULL);
#if FBE_BENCH_GEN
    /* the generated struct holds the same value: its bytes must be the same */
    fbe_buffer check;
    fbe_buffer_init(&check);
    if (proto_Account_from_json(&c->gen, schema, ACCOUNT_JSON, sizeof ACCOUNT_JSON - 1, NULL, &err) != FBE_OK)
      die("cannot build the generated Account from JSON", &err);
    if (proto_Account_encode(&c->gen, c->model, &check, &err) != FBE_OK || check.size != c->size ||
        memcmp(check.data, c->bytes, c->size))
      die("the generated code encodes other bytes than the core", &err);
    fbe_buffer_free(&check);
    c->gen_alloc = fbe_allocator_arena(c->arena);
    if (proto_Account_decode(&c->gen_out, c->model, c->bytes, c->size, &c->gen_alloc, &decoded, &err) != FBE_OK ||
        decoded != c->size)
      die("the generated code cannot decode the core's bytes", &err);
#endif
    for (size_t o = 0; o < NOPS; o++) batch[m][o] = calibrate(ops[o].fn, c);
  }

  for (int r = 0; r < runs; r++)
    for (size_t m = 0; m < NMODELS; m++)
      for (size_t o = 0; o < NOPS; o++)
        per_op[m][o][r] = run_once(ops[o].fn, &ctx[m], batch[m][o], min_time);

  for (size_t m = 0; m < NMODELS; m++) {
    for (size_t o = 0; o < NOPS; o++) {
      double rounds[MAX_RUNS];
      memcpy(rounds, per_op[m][o], (size_t)runs * sizeof rounds[0]); /* in round order, before the sort */
      result res = summarize(per_op[m][o], runs);
      if (json) {
        printf("{\"lang\":\"c\",\"harness\":\"fbe_bench\",\"impl\":\"%s\",\"workload\":\"account\","
               "\"model\":\"%s\",\"op\":\"%s\",\"ns\":%.1f,\"spread_pct\":%.1f,\"size\":%zu,\"rounds\":[",
               ops[o].impl, models[m].name, ops[o].name, res.median_ns, res.spread_pct, ctx[m].size);
        for (int r = 0; r < runs; r++) printf("%s%.2f", r ? "," : "", rounds[r]);
        printf("]}\n");
      } else {
        printf("%-10s %-9s %-14s %6zu %10.1f %7.1f%% %10.1f\n", ops[o].impl, models[m].name, ops[o].name,
               ctx[m].size, res.median_ns, res.spread_pct, (double)ctx[m].size / res.median_ns * 1e3);
      }
    }
#if FBE_BENCH_GEN
    proto_Account_free(&ctx[m].gen, NULL);
#endif
    free(ctx[m].copy);
    fbe_arena_free(ctx[m].arena);
    fbe_buffer_free(&ctx[m].out);
    fbe_buffer_free(&encoded[m]);
  }

  fbe_arena_free(value_arena);
  fbe_schema_release(schema);
  return 0;
}

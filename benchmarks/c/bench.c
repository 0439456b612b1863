/* libfbe C benchmark: proto.Account (the reference README's value, three orders)
 * encoded, decoded and verified in both models, next to a memcpy of the same byte
 * count as a floor.
 *
 *   fbe_bench [--quick] [--json] [--runs N] [--min-time SECONDS] [-I SCHEMAS_DIR]
 *
 * Each figure is the median over the runs (default 5) of the mean time per
 * operation, each run lasting at least --min-time (default 0.2 s). --quick is 3 runs
 * of 0.05 s, for CI. --json prints one JSON object per line instead of a table. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fbe/fbe.h"

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

static uint64_t op_decode(bench_ctx *c, uint64_t n) {
  uint64_t acc = 0;
  fbe_error err;
  for (uint64_t i = 0; i < n; i++) {
    fbe_msg *msg = NULL;
    size_t model_size = 0;
    fbe_arena_reset(c->arena);
    if (fbe_decode(c->type, c->model, c->bytes, c->size, c->arena, &c->limits, &msg, &model_size,
                   &err) != FBE_OK)
      die("decode failed", &err);
    acc += model_size + (uint64_t)(uintptr_t)msg;
  }
  return acc;
}

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

/* Finds a batch that takes about 1 ms, then runs `runs` times, each for at least
 * min_time seconds in whole batches. */
static result measure(bench_fn fn, bench_ctx *ctx, int runs, double min_time) {
  uint64_t batch = 1;
  for (;;) {
    double t0 = now_ns();
    g_sink += fn(ctx, batch);
    if (now_ns() - t0 >= 1e6 || batch >= (UINT64_C(1) << 40)) break;
    batch *= 2;
  }
  double per_op[MAX_RUNS];
  for (int r = 0; r < runs; r++) {
    uint64_t iterations = 0;
    double t0 = now_ns(), elapsed;
    do {
      g_sink += fn(ctx, batch);
      iterations += batch;
      elapsed = now_ns() - t0;
    } while (elapsed < min_time * 1e9);
    per_op[r] = elapsed / (double)iterations;
  }
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
          "  --runs N      runs per figure (default 5; the figure is their median)\n"
          "  --min-time S  least duration of one run in seconds (default 0.2)\n"
          "  -I DIR        directory holding proto.fbe (default %s)\n",
          FBE_SCHEMAS_DIR);
}

int main(int argc, char **argv) {
  int runs = 5, json = 0;
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
    const char *name;
    bench_fn fn;
  } ops[] = {{"encode", op_encode}, {"decode", op_decode}, {"verify", op_verify},
             {"memcpy", op_memcpy}};
  static const struct {
    const char *name;
    fbe_model model;
  } models[] = {{"standard", FBE_MODEL_STANDARD}, {"final", FBE_MODEL_FINAL}};

  if (!json) {
    printf("libfbe %s C benchmark: proto.Account (3 orders), median of %d runs of >= %.2f s\n",
           fbe_version(), runs, min_time);
    printf("%-9s %-7s %6s %10s %8s %10s\n", "model", "op", "bytes", "ns/op", "spread", "MB/s");
  }

  for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
    bench_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.type = type;
    ctx.msg = account;
    ctx.model = models[m].model;
    ctx.limits = fbe_limits_default();
    fbe_buffer_init(&ctx.out);

    /* The bytes every other operation reads; checked once before timing. */
    fbe_buffer encoded;
    fbe_buffer_init(&encoded);
    if (fbe_encode(account, ctx.model, &encoded, &err) != FBE_OK) die("encode failed", &err);
    ctx.bytes = encoded.data;
    ctx.size = encoded.size;
    ctx.arena = fbe_arena_new();
    ctx.copy = malloc(ctx.size);
    if (!ctx.arena || !ctx.copy) die("out of memory", NULL);
    fbe_msg *back = NULL;
    size_t verified = 0, decoded = 0;
    if (fbe_verify(type, ctx.model, ctx.bytes, ctx.size, &ctx.limits, &verified, &err) != FBE_OK)
      die("the encoded Account does not verify", &err);
    if (fbe_decode(type, ctx.model, ctx.bytes, ctx.size, ctx.arena, &ctx.limits, &back, &decoded,
                   &err) != FBE_OK)
      die("the encoded Account does not decode", &err);
    if (!fbe_msg_equal(account, back)) die("the decoded Account differs from the original", NULL);
    if (verified != ctx.size || decoded != ctx.size)
      die("verify/decode report a model size other than the encoded size", NULL);

    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
      result r = measure(ops[o].fn, &ctx, runs, min_time);
      if (json) {
        printf("{\"lang\":\"c\",\"impl\":\"libfbe\",\"workload\":\"account\",\"model\":\"%s\","
               "\"op\":\"%s\",\"ns\":%.1f,\"spread_pct\":%.1f,\"size\":%zu}\n",
               models[m].name, ops[o].name, r.median_ns, r.spread_pct, ctx.size);
      } else {
        printf("%-9s %-7s %6zu %10.1f %7.1f%% %10.1f\n", models[m].name, ops[o].name, ctx.size,
               r.median_ns, r.spread_pct, (double)ctx.size / r.median_ns * 1e3);
      }
      fflush(stdout);
    }

    free(ctx.copy);
    fbe_arena_free(ctx.arena);
    fbe_buffer_free(&ctx.out);
    fbe_buffer_free(&encoded);
  }

  fbe_arena_free(value_arena);
  fbe_schema_release(schema);
  return 0;
}

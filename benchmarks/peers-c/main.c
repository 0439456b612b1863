/* The C peers benchmark: libfbe's dynamic core next to protobuf-c, msgpack-c, Avro C
 * (generic values) and the C++ references FlatBuffers, Cap'n Proto and protobuf C++,
 * on the workloads account, small and large, in one process.
 *
 *   fbe_peers [--quick|--smoke] [--json] [--runs N] [--min-time S] [-I SCHEMAS] [-D DATA]
 *
 * Every peer round-trips the data before anything is timed (a difference stops the
 * run). Method as benchmarks/c/bench.c: batches of about 1 ms, runs of at least
 * --min-time (default 0.2 s) interleaved in rounds (default 7; every figure once per
 * round, so a slow spell of a shared machine hits all alike); a figure is the median
 * over the rounds, spread_pct = (max - min) / median. --quick: 3 rounds of 0.05 s;
 * --smoke: one round of a few operations, to prove every peer works. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

#ifndef PEERS_SCHEMAS_DIR
#define PEERS_SCHEMAS_DIR "schemas"
#endif
#ifndef PEERS_DATA_DIR
#define PEERS_DATA_DIR "benchmarks/data"
#endif

enum { MAX_CASES = 64, MAX_RUNS = 100 };

static b_case g_cases[MAX_CASES];
static size_t g_ncases;
static volatile uint64_t g_sink; /* every result folds into this, so no work is dropped */

void b_add_with_trusted(const char *impl, const char *workload, const char *model, size_t size, void *ctx,
                        b_op encode, b_op decode, b_op decode_trusted) {
  if (g_ncases == MAX_CASES) b_die(impl, workload, "too many cases");
  b_case c = {impl, workload, model, size, ctx, encode, decode, decode_trusted};
  g_cases[g_ncases++] = c;
}

void b_add(const char *impl, const char *workload, const char *model, size_t size, void *ctx, b_op encode,
           b_op decode) {
  b_add_with_trusted(impl, workload, model, size, ctx, encode, decode, NULL);
}

/* The case's operation o: encode, decode, decode_trusted (NULL when it has none). */
static b_op op_of(const b_case *c, int o) { return o == 0 ? c->encode : o == 1 ? c->decode : c->decode_trusted; }

void b_die(const char *impl, const char *workload, const char *what) {
  fprintf(stderr, "fbe_peers: %s %s: %s\n", impl, workload, what);
  exit(1);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t repeat(b_op op, void *ctx, uint64_t n) {
  uint64_t acc = 0;
  for (uint64_t i = 0; i < n; i++) acc += op(ctx);
  return acc;
}

static uint64_t calibrate(b_op op, void *ctx) {
  for (uint64_t batch = 1;; batch *= 2) {
    double t0 = now_ns();
    g_sink += repeat(op, ctx, batch);
    if (now_ns() - t0 >= 1e6 || batch >= (UINT64_C(1) << 40)) return batch;
  }
}

static double run_once(b_op op, void *ctx, uint64_t batch, double min_time) {
  uint64_t iterations = 0;
  double t0 = now_ns(), elapsed;
  do {
    g_sink += repeat(op, ctx, batch);
    iterations += batch;
    elapsed = now_ns() - t0;
  } while (elapsed < min_time * 1e9);
  return elapsed / (double)iterations;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void summarize(double *xs, int n, double *median, double *spread) {
  qsort(xs, (size_t)n, sizeof xs[0], cmp_double);
  *median = n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
  *spread = (xs[n - 1] - xs[0]) / *median * 100.0;
}

int main(int argc, char **argv) {
  int runs = 7, json = 0, smoke = 0;
  double min_time = 0.2;
  const char *schemas = PEERS_SCHEMAS_DIR, *data = PEERS_DATA_DIR;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--quick")) runs = 3, min_time = 0.05;
    else if (!strcmp(a, "--smoke")) smoke = 1, runs = 1;
    else if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    else if (!strcmp(a, "--min-time") && i + 1 < argc) min_time = atof(argv[++i]);
    else if (!strcmp(a, "-I") && i + 1 < argc) schemas = argv[++i];
    else if (!strcmp(a, "-D") && i + 1 < argc) data = argv[++i];
    else {
      fprintf(stderr, "usage: fbe_peers [--quick|--smoke] [--json] [--runs N] [--min-time S] [-I SCHEMAS_DIR] "
                      "[-D DATA_DIR]\n");
      return strcmp(a, "--help") ? 2 : 0;
    }
  }
  if (runs < 1 || runs > MAX_RUNS || !(min_time > 0)) {
    fprintf(stderr, "fbe_peers: --runs must be 1..%d and --min-time positive\n", MAX_RUNS);
    return 2;
  }

  static b_data d;
  b_load_data(schemas, data, &d);
  peer_libfbe(schemas, data);
  peer_protobuf_c(&d);
  peer_msgpack(&d);
  peer_avro(&d);
  peer_flatbuffers(&d);
  peer_capnp(&d);
  peer_protobuf_cpp(&d);

  enum { NOPS = 3 };
  static const char *op_names[NOPS] = {"encode", "decode", "decode_trusted"};
  static uint64_t batch[MAX_CASES][NOPS];
  static double per_op[MAX_CASES][NOPS][MAX_RUNS];
  for (size_t c = 0; c < g_ncases; c++)
    for (int o = 0; o < NOPS; o++)
      if (op_of(&g_cases[c], o)) batch[c][o] = smoke ? 3 : calibrate(op_of(&g_cases[c], o), g_cases[c].ctx);
  for (int r = 0; r < runs; r++)
    for (size_t c = 0; c < g_ncases; c++)
      for (int o = 0; o < NOPS; o++)
        if (op_of(&g_cases[c], o))
          per_op[c][o][r] = run_once(op_of(&g_cases[c], o), g_cases[c].ctx, batch[c][o], smoke ? 1e-9 : min_time);

  if (!json) printf("%-16s %-9s %-9s %-14s %7s %11s %8s\n", "impl", "workload", "model", "op", "bytes", "ns/op",
                    "spread");
  for (size_t c = 0; c < g_ncases; c++)
    for (int o = 0; o < NOPS; o++) {
      if (!op_of(&g_cases[c], o)) continue;
      double median, spread;
      summarize(per_op[c][o], runs, &median, &spread);
      const b_case *k = &g_cases[c];
      if (json)
        printf("{\"lang\":\"c\",\"impl\":\"%s\",\"workload\":\"%s\",\"model\":\"%s\",\"op\":\"%s\",\"ns\":%.1f,"
               "\"spread_pct\":%.1f,\"size\":%zu}\n",
               k->impl, k->workload, k->model, op_names[o], median, spread, k->size);
      else
        printf("%-16s %-9s %-9s %-14s %7zu %11.1f %7.1f%%\n", k->impl, k->workload, k->model, op_names[o], k->size,
               median, spread);
    }
  return 0;
}

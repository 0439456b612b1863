/* The C peers benchmark: libfbe (its dynamic core "libfbe", its views "libfbe-view" and
 * its generated C "libfbe-gen") next to protobuf-c, msgpack-c, Avro C (generic values)
 * and the C++ references FlatBuffers, Cap'n Proto and protobuf C++, on the workloads
 * account, small and large, in one process; ops encode, decode (verified),
 * decode_trusted (libfbe's, without the verify) and decode_all (decode, then read every
 * field once; harness.h).
 *
 *   fbe_peers [--quick|--smoke] [--json] [--runs N] [--min-time S] [--workload W] [--op OP] [-I SCHEMAS] [-D DATA]
 *
 * Every peer round-trips the data before anything is timed, and every decode_all must
 * read the data's values (a difference stops the run). Method as benchmarks/c/bench.c:
 * batches of about 1 ms; in a round (default 7), cell by cell, the implementations of a
 * cell take turns batch by batch until each has run for at least --min-time (default
 * 0.2 s), so the figures a ratio compares sample the same moments of the machine; every
 * other round backwards, so a drift across cells cancels out; a
 * figure is the median over the rounds, spread_pct = (max - min) / median, and "rounds"
 * in the JSON lists every round's figure. --quick: 3 rounds of 0.05 s; --smoke: one
 * round of a few operations, to prove every peer works.
 *
 * --instructions N: no timing; under callgrind (benchmarks/peers-c/instructions.sh),
 * every op of every case once to warm it, then N times between a zeroing of the counters
 * and a dump named "impl workload model op N": instructions per operation with no
 * machine noise, for the cells whose times the noise hides. */
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

enum { MAX_CASES = 64, MAX_RUNS = 100, MAX_CELL = 16 /* implementations of one workload and op */ };

static const char *const WORKLOADS[] = {"account", "small", "large"};

static b_case g_cases[MAX_CASES];
static size_t g_ncases;
static volatile uint64_t g_sink; /* every result folds into this, so no work is dropped */

void b_add(const char *impl, const char *workload, const char *model, size_t size, void *ctx, b_op encode,
           b_op decode, b_op decode_trusted, b_op decode_all) {
  if (g_ncases == MAX_CASES) b_die(impl, workload, "too many cases");
  b_case c = {impl, workload, model, size, ctx, {encode, decode, decode_trusted, decode_all}};
  g_cases[g_ncases++] = c;
}

void b_die(const char *impl, const char *workload, const char *what) {
  fprintf(stderr, "fbe_peers: %s %s: %s\n", impl, workload, what);
  exit(1);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PEERS_CALLGRIND 1
#endif
#endif

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

/* One round of one cell: its implementations take turns a batch (about 1 ms) at a time
 * until each has run for at least min_time, so every figure of the cell samples the same
 * moments of the machine (this VM switches between speed levels about 2x apart every
 * few hundred ms: figures measured one after the other would each catch another level,
 * and their ratio with them). Every other pass goes backwards. Writes ns per op. */
static void run_cell(const b_op *ops, void *const *ctxs, const uint64_t *batch, size_t n, double min_time,
                     double *ns_per_op) {
  double elapsed[MAX_CELL] = {0};
  uint64_t iterations[MAX_CELL] = {0};
  for (int pass = 0, done = 0; !done; pass++) {
    done = 1;
    for (size_t j = 0; j < n; j++) {
      size_t i = pass % 2 == 0 ? j : n - 1 - j;
      if (elapsed[i] >= min_time * 1e9) continue;
      double t0 = now_ns();
      g_sink += repeat(ops[i], ctxs[i], batch[i]);
      elapsed[i] += now_ns() - t0;
      iterations[i] += batch[i];
      done &= elapsed[i] >= min_time * 1e9;
    }
  }
  for (size_t i = 0; i < n; i++) ns_per_op[i] = elapsed[i] / (double)iterations[i];
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

typedef struct sched_entry {
  size_t c; /* the case */
  int o;    /* its op */
} sched_entry;

/* --instructions: each op once (warm caches and lazy setup), then n times between a
 * zeroing and a dump of callgrind's counters, the dump named after the cell. */
static int count_instructions(const sched_entry *sched, size_t nsched, uint64_t n, const char *const *op_names) {
#ifdef PEERS_CALLGRIND
  if (!RUNNING_ON_VALGRIND) {
    fprintf(stderr, "fbe_peers: --instructions runs under callgrind (benchmarks/peers-c/instructions.sh)\n");
    return 2;
  }
  for (size_t i = 0; i < nsched; i++) {
    const b_case *k = &g_cases[sched[i].c];
    b_op op = k->op[sched[i].o];
    char name[160];
    snprintf(name, sizeof name, "%s %s %s %s %llu", k->impl, k->workload, k->model, op_names[sched[i].o],
             (unsigned long long)n);
    g_sink += op(k->ctx);
    CALLGRIND_ZERO_STATS;
    g_sink += repeat(op, k->ctx, n);
    CALLGRIND_DUMP_STATS_AT(name);
  }
  return 0;
#else
  (void)sched, (void)nsched, (void)n, (void)op_names;
  fprintf(stderr, "fbe_peers: built without <valgrind/callgrind.h>: no --instructions\n");
  return 2;
#endif
}

int main(int argc, char **argv) {
  int runs = 7, json = 0, smoke = 0;
  long instructions = 0;
  double min_time = 0.2;
  const char *schemas = PEERS_SCHEMAS_DIR, *data = PEERS_DATA_DIR, *only_workload = NULL, *only_op = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--quick")) runs = 3, min_time = 0.05;
    else if (!strcmp(a, "--smoke")) smoke = 1, runs = 1;
    else if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
    else if (!strcmp(a, "--min-time") && i + 1 < argc) min_time = atof(argv[++i]);
    else if (!strcmp(a, "--instructions") && i + 1 < argc) instructions = atol(argv[++i]);
    else if (!strcmp(a, "-I") && i + 1 < argc) schemas = argv[++i];
    else if (!strcmp(a, "-D") && i + 1 < argc) data = argv[++i];
    else if (!strcmp(a, "--workload") && i + 1 < argc) only_workload = argv[++i];
    else if (!strcmp(a, "--op") && i + 1 < argc) only_op = argv[++i];
    else {
      fprintf(stderr, "usage: fbe_peers [--quick|--smoke] [--json] [--runs N] [--min-time S] [--instructions N] "
                      "[--workload W] [--op OP] [-I SCHEMAS_DIR] [-D DATA_DIR]\n");
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
#if PEERS_GEN
  peer_libfbe_gen(schemas, data, &d);
#endif
  peer_protobuf_c(&d);
  peer_msgpack(&d);
  peer_avro(&d);
  peer_flatbuffers(&d);
  peer_capnp(&d);
  peer_protobuf_cpp(&d);

  static const char *op_names[B_NOPS] = {"encode", "decode", "decode_trusted", "decode_all"};
  for (size_t c = 0; c < g_ncases; c++) /* every decode_all read every field, and right */
    if (g_cases[c].op[B_DECODE_ALL] &&
        g_cases[c].op[B_DECODE_ALL](g_cases[c].ctx) != b_fold_data(&d, g_cases[c].workload))
      b_die(g_cases[c].impl, g_cases[c].workload, "decode_all read other values than the data's");

  /* The schedule of one round: cell by cell (workload, then op), every implementation
   * of a cell back to back, so the figures a ratio compares are measured moments apart. */
  static sched_entry sched[MAX_CASES * B_NOPS];
  size_t nsched = 0;
  for (size_t w = 0; w < sizeof WORKLOADS / sizeof WORKLOADS[0]; w++)
    for (int o = 0; o < B_NOPS; o++) {
      if ((only_workload && strcmp(only_workload, WORKLOADS[w])) || (only_op && strcmp(only_op, op_names[o])))
        continue; /* --workload, --op: that cell alone */
      for (size_t c = 0; c < g_ncases; c++)
        if (g_cases[c].op[o] && !strcmp(g_cases[c].workload, WORKLOADS[w])) sched[nsched].c = c, sched[nsched++].o = o;
    }

  if (instructions > 0) return count_instructions(sched, nsched, (uint64_t)instructions, op_names);

  static uint64_t batch[MAX_CASES][B_NOPS];
  static double per_op[MAX_CASES][B_NOPS][MAX_RUNS];
  for (size_t i = 0; i < nsched; i++) {
    const b_case *k = &g_cases[sched[i].c];
    batch[sched[i].c][sched[i].o] = smoke ? 3 : calibrate(k->op[sched[i].o], k->ctx);
  }
  /* The cells: runs of the schedule with the same workload and op. Each round runs them
   * in order (every other round backwards), each cell interleaved batch by batch. */
  size_t cell_start[MAX_CASES * B_NOPS + 1], ncells = 0;
  for (size_t i = 0; i < nsched; i++)
    if (i == 0 || sched[i].o != sched[i - 1].o ||
        strcmp(g_cases[sched[i].c].workload, g_cases[sched[i - 1].c].workload))
      cell_start[ncells++] = i;
  cell_start[ncells] = nsched;
  for (int r = 0; r < runs; r++)
    for (size_t j = 0; j < ncells; j++) {
      size_t cell = r % 2 == 0 ? j : ncells - 1 - j, first = cell_start[cell], n = cell_start[cell + 1] - first;
      b_op ops[MAX_CELL];
      void *ctxs[MAX_CELL];
      uint64_t batches[MAX_CELL];
      double ns[MAX_CELL];
      if (n > MAX_CELL) b_die("fbe_peers", g_cases[sched[first].c].workload, "too many implementations in a cell");
      for (size_t i = 0; i < n; i++) {
        const sched_entry *e = &sched[first + i];
        ops[i] = g_cases[e->c].op[e->o], ctxs[i] = g_cases[e->c].ctx, batches[i] = batch[e->c][e->o];
      }
      run_cell(ops, ctxs, batches, n, smoke ? 1e-9 : min_time, ns);
      for (size_t i = 0; i < n; i++) per_op[sched[first + i].c][sched[first + i].o][r] = ns[i];
    }

  if (!json) printf("%-16s %-9s %-9s %-14s %7s %11s %8s\n", "impl", "workload", "model", "op", "bytes", "ns/op",
                    "spread");
  for (size_t i = 0; i < nsched; i++) {
    const b_case *k = &g_cases[sched[i].c];
    int o = sched[i].o;
    double median, spread, *xs = per_op[sched[i].c][o], sorted[MAX_RUNS];
    memcpy(sorted, xs, (size_t)runs * sizeof xs[0]);
    summarize(sorted, runs, &median, &spread);
    if (json) {
      printf("{\"lang\":\"c\",\"impl\":\"%s\",\"workload\":\"%s\",\"model\":\"%s\",\"op\":\"%s\",\"ns\":%.1f,"
             "\"spread_pct\":%.1f,\"size\":%zu,\"rounds\":[",
             k->impl, k->workload, k->model, op_names[o], median, spread, k->size);
      for (int r = 0; r < runs; r++) printf("%s%.2f", r ? "," : "", xs[r]);
      printf("]}\n");
    } else {
      printf("%-16s %-9s %-9s %-14s %7zu %11.1f %7.1f%%\n", k->impl, k->workload, k->model, op_names[o], k->size,
             median, spread);
    }
  }
  return 0;
}

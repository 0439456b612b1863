/* The peers benchmark (benchmarks/peers-c): what every peer shares — the workload data
 * as plain C structs, loaded once from benchmarks/data/<workload>.json through libfbe; the
 * equality checks the round trips use; and the case table the runner times. */
#ifndef PEERS_HARNESS_H
#define PEERS_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the workloads (schemas/proto.fbe, schemas/bench/small.fbe, schemas/bench/large.fbe) */

typedef struct b_order {
  int32_t id;
  const char *symbol;
  int32_t side, type;
  double price, volume;
} b_order;

typedef struct b_balance {
  const char *currency;
  double amount;
} b_balance;

enum { B_MAX_ORDERS = 16 };

typedef struct b_account {
  int32_t id;
  const char *name;
  int32_t state;
  b_balance wallet;
  int has_asset;
  b_balance asset;
  size_t n_orders;
  b_order orders[B_MAX_ORDERS];
} b_account;

typedef struct b_small {
  const char *name;
  int spouse;
  int32_t siblings;
  double money;
  int64_t birthday; /* ns since the epoch */
} b_small;

enum { B_MAX_IDS = 4096, B_MAX_NAMES = 1024 };

typedef struct b_large {
  size_t n_ids;
  int64_t ids[B_MAX_IDS];
  size_t n_names;
  const char *names[B_MAX_NAMES];
} b_large;

typedef struct b_data {
  b_account account;
  b_small small;
  b_large *large; /* big: on the heap */
} b_data;

int b_account_equal(const b_account *a, const b_account *b);
int b_small_equal(const b_small *a, const b_small *b);
int b_large_equal(const b_large *a, const b_large *b);

/* ---- reading every field: decode_all folds every field of the decoded value, once,
 * in schema order, into one number (collections: the count, then each element; an
 * optional: whether it is set, then its fields; a string: its length, first and last
 * byte, read where the library keeps it), so the runner can check that an
 * implementation read them all and right: its fold equals b_fold_data's. */

static inline uint64_t b_fold(uint64_t h, uint64_t v) { return ((h << 5) | (h >> 59)) + v; }
static inline uint64_t b_fold_double(uint64_t h, double d) {
  union {
    double d;
    uint64_t u;
  } x;
  x.d = d;
  return b_fold(h, x.u);
}
static inline uint64_t b_fold_str(uint64_t h, const void *p, size_t n) {
  const unsigned char *s = (const unsigned char *)p;
  return b_fold(h, n ? ((uint64_t)n << 16) ^ ((uint64_t)s[0] << 8) ^ s[n - 1] : 0);
}
#define B_FOLD_SEED UINT64_C(0x9e3779b97f4a7c15)

/* The fold of the data itself, as every decode_all of `workload` must give it. */
uint64_t b_fold_data(const b_data *d, const char *workload);

/* ---- the cases */

typedef uint64_t (*b_op)(void *ctx); /* one operation; returns something to fold into a sink */

/* The operations a case can have (NULL: not measured). decode: bytes to a value the
 * program can use, verified; decode_trusted: libfbe's decode without the verify;
 * decode_all: decode, then read every field once (returns the fold above). */
enum { B_ENCODE, B_DECODE, B_DECODE_TRUSTED, B_DECODE_ALL, B_NOPS };

typedef struct b_case {
  const char *impl, *workload, *model;
  size_t size; /* encoded bytes */
  void *ctx;
  b_op op[B_NOPS];
} b_case;

/* Appends a case (any op NULL when not measured); the runner checks its decode_all
 * against b_fold_data, then times every op in interleaved rounds. */
void b_add(const char *impl, const char *workload, const char *model, size_t size, void *ctx, b_op encode,
           b_op decode, b_op decode_trusted, b_op decode_all);

/* The whole file at path, NUL-terminated (malloc; the run stops when it cannot be read). */
char *b_read_file(const char *path, size_t *size);

/* Stops the run with a message: a failed round trip or a library error. */
void b_die(const char *impl, const char *workload, const char *what);

/* Every peer: builds its encoder's input from the data, encodes once, decodes and
 * compares with the data (b_die on any difference), then adds its cases. */
void peer_libfbe(const char *schemas_dir, const char *data_dir);
void peer_libfbe_gen(const char *schemas_dir, const char *data_dir, const b_data *d);
void peer_protobuf_c(const b_data *d);
void peer_msgpack(const b_data *d);
void peer_avro(const b_data *d);
void peer_flatbuffers(const b_data *d);
void peer_capnp(const b_data *d);
void peer_protobuf_cpp(const b_data *d);

/* The data, loaded through libfbe (fbe_data.c). */
void b_load_data(const char *schemas_dir, const char *data_dir, b_data *out);

#ifdef __cplusplus
}
#endif
#endif

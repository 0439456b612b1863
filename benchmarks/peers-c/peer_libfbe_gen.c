/* libfbe's generated C code ("libfbe-gen": `fbe gen c` of the three workloads' schemas,
 * fbe_generate_c in CMakeLists.txt): plain C structs, strings and bytes as pointer +
 * length into the buffer's copy. The value built once from the data file (from_json),
 * encoded into a reused buffer; decode (verifying) and decode_trusted into a struct
 * whose memory is a reused arena; decode_all decodes and reads every field of the
 * struct, in both wire models. "libfbe-gen-view" reads the bytes in place through the
 * generated views (pkg_S_open_view verifies, then pkg_S_view_<field>): its decode opens
 * and reads one field (account: id, small: name, large: the count of ids), as
 * libfbe-view's and FlatBuffers' do; decode_all opens and reads every field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbe/fbe.h"
#include "harness.h"
#include "large.h"
#include "proto.h"
#include "small.h"

/* One workload's generated functions, behind void pointers so one ctx serves all three. */
typedef struct gen_fns {
  size_t size; /* sizeof the struct */
  fbe_status (*from_json)(void *v, const fbe_schema *schema, const char *text, size_t length,
                          const fbe_allocator *a, fbe_error *err);
  fbe_status (*encode)(const void *v, fbe_model model, fbe_buffer *out, fbe_error *err);
  fbe_status (*decode)(void *v, fbe_model model, const uint8_t *data, size_t size, const fbe_allocator *a,
                       size_t *model_size, fbe_error *err);
  fbe_status (*decode_trusted)(void *v, fbe_model model, const uint8_t *data, size_t size, const fbe_allocator *a,
                               size_t *model_size, fbe_error *err);
  uint64_t (*fold)(const void *v); /* reads every field */
  /* opens a generated view of the bytes and reads the first field (all: every field) */
  uint64_t (*view)(fbe_model model, const uint8_t *data, size_t size, int all);
} gen_fns;

#define GEN_FNS(T)                                                                                                  \
  static fbe_status T##_from_json_(void *v, const fbe_schema *s, const char *t, size_t n, const fbe_allocator *a,    \
                                   fbe_error *e) {                                                                  \
    return T##_from_json(v, s, t, n, a, e);                                                                         \
  }                                                                                                                 \
  static fbe_status T##_encode_(const void *v, fbe_model m, fbe_buffer *o, fbe_error *e) {                          \
    return T##_encode(v, m, o, e);                                                                                  \
  }                                                                                                                 \
  static fbe_status T##_decode_(void *v, fbe_model m, const uint8_t *d, size_t n, const fbe_allocator *a, size_t *u, \
                                fbe_error *e) {                                                                     \
    return T##_decode(v, m, d, n, a, u, e);                                                                         \
  }                                                                                                                 \
  static fbe_status T##_decode_trusted_(void *v, fbe_model m, const uint8_t *d, size_t n, const fbe_allocator *a,   \
                                        size_t *u, fbe_error *e) {                                                  \
    return T##_decode_trusted(v, m, d, n, a, u, e);                                                                 \
  }

GEN_FNS(proto_Account)
GEN_FNS(small_Small)
GEN_FNS(large_Large)

static uint64_t fold_blob(uint64_t h, fbe_blob b) { return b_fold_str(h, b.data, b.size); }

static uint64_t fold_balance(uint64_t h, const proto_Balance *b) {
  return b_fold_double(fold_blob(h, b->currency), b->amount);
}

static uint64_t fold_account(const void *p) {
  const proto_Account *a = p;
  uint64_t h = b_fold(B_FOLD_SEED, (uint64_t)(int64_t)a->id);
  h = fold_blob(h, a->name);
  h = b_fold(h, (uint64_t)a->state);
  h = fold_balance(h, &a->wallet);
  h = b_fold(h, a->asset != NULL);
  if (a->asset) h = fold_balance(h, a->asset);
  h = b_fold(h, a->orders.count);
  for (uint32_t i = 0; i < a->orders.count; i++) {
    const proto_Order *o = &a->orders.data[i];
    h = b_fold(h, (uint64_t)(int64_t)o->id);
    h = fold_blob(h, o->symbol);
    h = b_fold(h, (uint64_t)o->side);
    h = b_fold(h, (uint64_t)o->type);
    h = b_fold_double(h, o->price);
    h = b_fold_double(h, o->volume);
  }
  return h;
}

static uint64_t fold_small(const void *p) {
  const small_Small *s = p;
  uint64_t h = fold_blob(B_FOLD_SEED, s->name);
  h = b_fold(h, s->spouse ? 1 : 0);
  h = b_fold(h, (uint64_t)(int64_t)s->siblings);
  h = b_fold_double(h, s->money);
  return b_fold(h, s->birthday);
}

static uint64_t fold_large(const void *p) {
  const large_Large *l = p;
  uint64_t h = b_fold(B_FOLD_SEED, l->ids.count);
  for (uint32_t i = 0; i < l->ids.count; i++) h = b_fold(h, (uint64_t)l->ids.data[i]);
  h = b_fold(h, l->names.count);
  for (uint32_t i = 0; i < l->names.count; i++) h = fold_blob(h, l->names.data[i]);
  return h;
}

/* ---- the generated views: one field, and every field in place */

static uint64_t fold_balance_view(uint64_t h, proto_Balance_view b) {
  return b_fold_double(fold_blob(h, proto_Balance_view_currency(b)), proto_Balance_view_amount(b));
}

static uint64_t view_account(fbe_model m, const uint8_t *d, size_t n, int all) {
  proto_Account_view a;
  if (proto_Account_open_view(&a, m, d, n, NULL, NULL) != FBE_OK) b_die("libfbe-gen-view", "account", "open failed");
  uint64_t h = b_fold(B_FOLD_SEED, (uint64_t)(int64_t)proto_Account_view_id(a));
  if (!all) return h;
  h = fold_blob(h, proto_Account_view_name(a));
  h = b_fold(h, (uint64_t)proto_Account_view_state(a));
  h = fold_balance_view(h, proto_Account_view_wallet(a));
  proto_opt_proto_Balance_view asset = proto_Account_view_asset(a);
  int has = proto_opt_proto_Balance_view_has(asset);
  h = b_fold(h, (uint64_t)has);
  if (has) h = fold_balance_view(h, proto_opt_proto_Balance_view_get(asset));
  proto_vec_proto_Order_view orders = proto_Account_view_orders(a);
  uint32_t count = proto_vec_proto_Order_view_count(orders);
  h = b_fold(h, count);
  for (uint32_t i = 0; i < count; i++) {
    proto_Order_view o = proto_vec_proto_Order_view_at(orders, i);
    h = b_fold(h, (uint64_t)(int64_t)proto_Order_view_id(o));
    h = fold_blob(h, proto_Order_view_symbol(o));
    h = b_fold(h, (uint64_t)proto_Order_view_side(o));
    h = b_fold(h, (uint64_t)proto_Order_view_type(o));
    h = b_fold_double(h, proto_Order_view_price(o));
    h = b_fold_double(h, proto_Order_view_volume(o));
  }
  return h;
}

static uint64_t view_small(fbe_model m, const uint8_t *d, size_t n, int all) {
  small_Small_view s;
  if (small_Small_open_view(&s, m, d, n, NULL, NULL) != FBE_OK) b_die("libfbe-gen-view", "small", "open failed");
  uint64_t h = fold_blob(B_FOLD_SEED, small_Small_view_name(s));
  if (!all) return h;
  h = b_fold(h, small_Small_view_spouse(s) ? 1 : 0);
  h = b_fold(h, (uint64_t)(int64_t)small_Small_view_siblings(s));
  h = b_fold_double(h, small_Small_view_money(s));
  return b_fold(h, small_Small_view_birthday(s));
}

static uint64_t view_large(fbe_model m, const uint8_t *d, size_t n, int all) {
  large_Large_view l;
  if (large_Large_open_view(&l, m, d, n, NULL, NULL) != FBE_OK) b_die("libfbe-gen-view", "large", "open failed");
  large_vec_int64_view ids = large_Large_view_ids(l);
  uint32_t count = large_vec_int64_view_count(ids);
  uint64_t h = b_fold(B_FOLD_SEED, count);
  if (!all) return h;
  const uint8_t *p = large_vec_int64_view_data(ids); /* the 1,000 int64 in place */
  for (uint32_t i = 0; i < count; i++) h = b_fold(h, fbe_load64(p + (size_t)i * 8));
  large_vec_string_view names = large_Large_view_names(l);
  count = large_vec_string_view_count(names);
  h = b_fold(h, count);
  for (uint32_t i = 0; i < count; i++) h = fold_blob(h, large_vec_string_view_at(names, i));
  return h;
}

#define FNS(T, fold, view) {sizeof(T), T##_from_json_, T##_encode_, T##_decode_, T##_decode_trusted_, fold, view}
static const gen_fns ACCOUNT = FNS(proto_Account, fold_account, view_account);
static const gen_fns SMALL = FNS(small_Small, fold_small, view_small);
static const gen_fns LARGE = FNS(large_Large, fold_large, view_large);

typedef struct ctx {
  const gen_fns *fns;
  fbe_model model;
  void *value;      /* the value to encode */
  void *out_value;  /* decode target; its memory comes from arena */
  fbe_buffer out;   /* encode target */
  fbe_buffer bytes; /* the encoded value decode reads */
  fbe_arena *arena;
  fbe_allocator alloc; /* draws from arena */
} ctx;

static void die_err(const char *workload, const char *what, const fbe_error *err) {
  char text[512];
  fbe_error_format(err, text, sizeof text);
  fprintf(stderr, "fbe_peers: libfbe-gen %s: %s: %s\n", workload, what, text);
  exit(1);
}

static uint64_t encode(void *p) {
  ctx *c = p;
  fbe_error err;
  fbe_buffer_reset(&c->out);
  if (c->fns->encode(c->value, c->model, &c->out, &err) != FBE_OK) die_err("", "encode", &err);
  return c->out.size;
}

static uint64_t decode_with(ctx *c, int trusted) {
  fbe_error err;
  size_t used = 0;
  fbe_arena_reset(c->arena);
  if ((trusted ? c->fns->decode_trusted : c->fns->decode)(c->out_value, c->model, c->bytes.data, c->bytes.size,
                                                          &c->alloc, &used, &err) != FBE_OK)
    die_err("", "decode", &err);
  return used;
}

static uint64_t decode(void *p) { return decode_with(p, 0); }
static uint64_t decode_trusted(void *p) { return decode_with(p, 1); }

static uint64_t decode_all(void *p) {
  ctx *c = p;
  decode_with(c, 0);
  return c->fns->fold(c->out_value);
}

static uint64_t view_decode(void *p) {
  ctx *c = p;
  return c->fns->view(c->model, c->bytes.data, c->bytes.size, 0);
}

static uint64_t view_decode_all(void *p) {
  ctx *c = p;
  return c->fns->view(c->model, c->bytes.data, c->bytes.size, 1);
}

static void add(const char *schemas_dir, const char *data_dir, const char *workload, const char *package,
                const gen_fns *fns, const b_data *d) {
  const char *dirs[1] = {schemas_dir};
  fbe_load_options options = {dirs, 1};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = fbe_schema_load_package(package, &options, &diags); /* for from_json */
  if (!schema) b_die("libfbe-gen", workload, "cannot load the schema");
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.json", data_dir, workload);
  size_t size;
  char *text = b_read_file(path, &size);
  void *value = calloc(1, fns->size);
  fbe_error err;
  if (!value || fns->from_json(value, schema, text, size, NULL, &err) != FBE_OK)
    die_err(workload, "cannot read the data", &err);
  free(text);

  static const struct {
    const char *name;
    fbe_model model;
  } models[] = {{"standard", FBE_MODEL_STANDARD}, {"final", FBE_MODEL_FINAL}};
  for (size_t m = 0; m < 2; m++) {
    ctx *c = calloc(1, sizeof *c);
    if (!c || !(c->out_value = calloc(1, fns->size)) || !(c->arena = fbe_arena_new()))
      b_die("libfbe-gen", workload, "out of memory");
    c->fns = fns;
    c->model = models[m].model;
    c->value = value;
    c->alloc = fbe_allocator_arena(c->arena);
    fbe_buffer_init(&c->out);
    fbe_buffer_init(&c->bytes);
    if (fns->encode(value, c->model, &c->bytes, &err) != FBE_OK) die_err(workload, "encode", &err);
    if (decode_all(c) != b_fold_data(d, workload)) b_die("libfbe-gen", workload, "round trip differs");
    b_add("libfbe-gen", workload, models[m].name, c->bytes.size, c, encode, decode, decode_trusted, decode_all);
    if (view_decode_all(c) != b_fold_data(d, workload)) b_die("libfbe-gen-view", workload, "round trip differs");
    b_add("libfbe-gen-view", workload, models[m].name, c->bytes.size, c, NULL, view_decode, NULL, view_decode_all);
  }
}

void peer_libfbe_gen(const char *schemas_dir, const char *data_dir, const b_data *d) {
  char bench_dir[4096];
  snprintf(bench_dir, sizeof bench_dir, "%s/bench", schemas_dir);
  add(schemas_dir, data_dir, "account", "proto", &ACCOUNT, d);
  add(bench_dir, data_dir, "small", "small", &SMALL, d);
  add(bench_dir, data_dir, "large", "large", &LARGE, d);
}

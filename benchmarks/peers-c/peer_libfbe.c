/* libfbe's dynamic core: the schema loaded at run time, the value a dynamic message
 * (fbe_msg, built from the same data file), encoded into a reused buffer and decoded
 * into a reused arena, in both wire models. "decode" is the default fbe_decode, which
 * verifies first; "decode_trusted" (fbe_decode_trusted, no verify) is beside it;
 * "decode_all" decodes and reads every field of the message (fbe_ref_*).
 * "libfbe-view" reads the bytes in place (fbe/view.h): its "decode" opens a view
 * (fbe_view_open verifies) and reads one field (account: id, small: name, large: the
 * count of ids), its "decode_all" opens one and reads every field (large's ids in
 * place with fbe_view_get_scalars, as a user reading 1,000 int64 would).
 * "libfbe-view-lazy" is the same through fbe_view_open_lazy: no verify at the open
 * (the header only), each read checked as it is made (Cap'n Proto's way: a string read
 * is checked to be UTF-8 then). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbe/fbe.h"
#include "harness.h"

#define V fbe_ref
#define FIELD fbe_ref_field_at
#define FOR_EACH(e, c) \
  for (size_t i_##e = 0, n_##e = fbe_ref_count(c); i_##e < n_##e && (e = fbe_ref_at(c, i_##e), 1); i_##e++)
#define FOLD_INT64S(h, e, c) FOR_EACH(e, c) h = FOLD(int)(h, e)
#include "libfbe_fold.h"
#undef FOLD_INT64S
#undef FOR_EACH
#undef FIELD
#undef V
#define V fbe_view
#define FIELD fbe_view_field
#define FOR_EACH(e, c) for (fbe_view_iter it_##e = fbe_view_iterate(c); fbe_view_next(&it_##e, &e, NULL);)
/* the int64 elements in place: one call, then a load each */
#define FOLD_INT64S(h, e, c)                                                 \
  do {                                                                       \
    const uint8_t *p_;                                                       \
    size_t n_ = 0, w_;                                                       \
    (void)e;                                                                 \
    if (fbe_view_get_scalars(c, &p_, &n_, &w_) == FBE_OK && w_ == 8)         \
      for (size_t i_ = 0; i_ < n_; i_++) h = b_fold(h, fbe_load64(p_ + 8 * i_)); \
  } while (0)
#include "libfbe_fold.h"
#undef FOLD_INT64S
#undef FOR_EACH
#undef FIELD
#undef V

typedef struct ctx {
  const fbe_struct *type;
  fbe_msg *msg;
  fbe_model model;
  fbe_limits limits;
  fbe_buffer out;   /* encode target */
  fbe_buffer bytes; /* the encoded value decode reads */
  fbe_arena *arena; /* decode target */
  uint64_t (*fold_ref)(fbe_ref);   /* reads every field of a decoded value */
  uint64_t (*fold_view)(fbe_view); /* the same, in place */
  uint64_t (*one_field)(fbe_view); /* reads the first field, in place */
} ctx;

static void die_err(const char *what, const fbe_error *err) {
  char text[512];
  fbe_error_format(err, text, sizeof text);
  b_die("libfbe", what, text);
}

static uint64_t encode(void *p) {
  ctx *c = p;
  fbe_error err;
  fbe_buffer_reset(&c->out);
  if (fbe_encode(c->msg, c->model, &c->out, &err) != FBE_OK) b_die("libfbe", "", "encode failed");
  return c->out.size;
}

static uint64_t decode(void *p) {
  ctx *c = p;
  fbe_error err;
  fbe_msg *msg = NULL;
  size_t used = 0;
  fbe_arena_reset(c->arena);
  if (fbe_decode(c->type, c->model, c->bytes.data, c->bytes.size, c->arena, &c->limits, &msg, &used, &err) !=
      FBE_OK)
    die_err("decode failed", &err);
  return used + (uint64_t)(uintptr_t)msg;
}

static uint64_t decode_trusted(void *p) {
  ctx *c = p;
  fbe_error err;
  fbe_msg *msg = NULL;
  size_t used = 0;
  fbe_arena_reset(c->arena);
  if (fbe_decode_trusted(c->type, c->model, c->bytes.data, c->bytes.size, c->arena, &c->limits, &msg, &used,
                         &err) != FBE_OK)
    b_die("libfbe", "", "trusted decode failed");
  return used + (uint64_t)(uintptr_t)msg;
}

static uint64_t decode_all(void *p) {
  ctx *c = p;
  fbe_error err;
  fbe_msg *msg = NULL;
  size_t used = 0;
  fbe_arena_reset(c->arena);
  if (fbe_decode(c->type, c->model, c->bytes.data, c->bytes.size, c->arena, &c->limits, &msg, &used, &err) != FBE_OK)
    die_err("decode failed", &err);
  return c->fold_ref(fbe_msg_ref(msg));
}

static fbe_view open_view(ctx *c, int lazy) {
  fbe_error err;
  fbe_view v;
  if ((lazy ? fbe_view_open_lazy : fbe_view_open)(c->type, c->model, c->bytes.data, c->bytes.size, &c->limits, &v,
                                                  &err) != FBE_OK)
    b_die("libfbe-view", "", "open failed");
  return v;
}

static uint64_t view_decode(void *p) {
  ctx *c = p;
  return c->one_field(open_view(c, 0));
}

static uint64_t view_decode_all(void *p) {
  ctx *c = p;
  return c->fold_view(open_view(c, 0));
}

static uint64_t lazy_decode(void *p) {
  ctx *c = p;
  return c->one_field(open_view(c, 1));
}

static uint64_t lazy_decode_all(void *p) {
  ctx *c = p;
  return c->fold_view(open_view(c, 1));
}

/* The first field of each workload, in place. */
static uint64_t account_id(fbe_view v) {
  int64_t id = 0;
  fbe_view_get_int(fbe_view_field(v, 0), &id);
  return (uint64_t)id;
}

static uint64_t small_name(fbe_view v) {
  const uint8_t *p = NULL;
  size_t n = 0;
  if (fbe_view_get_bytes(fbe_view_field(v, 0), &p, &n) != FBE_OK) b_die("libfbe-view", "small", "no name");
  return b_fold_str(0, p, n);
}

static uint64_t large_ids(fbe_view v) { return fbe_view_count(fbe_view_field(v, 0)); }

static void add(const char *schemas_dir, const char *data_dir, const char *workload, const char *package,
                const char *type_name) {
  const char *dirs[1] = {schemas_dir};
  fbe_load_options options = {dirs, 1};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = fbe_schema_load_package(package, &options, &diags);
  if (!schema) b_die("libfbe", workload, "cannot load the schema");
  const fbe_struct *type = fbe_schema_find_struct(schema, type_name);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.json", data_dir, workload);
  size_t size;
  char *text = b_read_file(path, &size);
  fbe_msg *value = NULL;
  fbe_error err;
  if (!type || fbe_msg_from_json(type, text, size, fbe_arena_new(), &value, &err) != FBE_OK)
    b_die("libfbe", workload, "cannot read the data");
  free(text);

  static const struct {
    const char *name;
    fbe_model model;
  } models[] = {{"standard", FBE_MODEL_STANDARD}, {"final", FBE_MODEL_FINAL}};
  for (size_t m = 0; m < 2; m++) {
    ctx *c = calloc(1, sizeof *c);
    if (!c) b_die("libfbe", workload, "out of memory");
    c->type = type;
    c->msg = value;
    c->model = models[m].model;
    c->limits = fbe_limits_default();
    char kind = workload[0]; /* a, s, l */
    c->fold_ref = kind == 'a' ? fbe_ref_fold_account : kind == 's' ? fbe_ref_fold_small : fbe_ref_fold_large;
    c->fold_view = kind == 'a' ? fbe_view_fold_account : kind == 's' ? fbe_view_fold_small : fbe_view_fold_large;
    c->one_field = kind == 'a' ? account_id : kind == 's' ? small_name : large_ids;
    c->arena = fbe_arena_new();
    fbe_buffer_init(&c->out);
    fbe_buffer_init(&c->bytes);
    if (fbe_encode(value, c->model, &c->bytes, &err) != FBE_OK) b_die("libfbe", workload, "encode failed");
    decode(c);
    for (int trusted = 0; trusted < 2; trusted++) {
      fbe_msg *back = NULL;
      size_t used = 0;
      if ((trusted ? fbe_decode_trusted : fbe_decode)(type, c->model, c->bytes.data, c->bytes.size, c->arena,
                                                      &c->limits, &back, &used, &err) != FBE_OK ||
          !fbe_msg_equal(value, back) || used != c->bytes.size)
        b_die("libfbe", workload, trusted ? "trusted round trip differs" : "round trip differs");
    }
    b_add("libfbe", workload, models[m].name, c->bytes.size, c, encode, decode, decode_trusted, decode_all);
    b_add("libfbe-view", workload, models[m].name, c->bytes.size, c, NULL, view_decode, NULL, view_decode_all);
    b_add("libfbe-view-lazy", workload, models[m].name, c->bytes.size, c, NULL, lazy_decode, NULL, lazy_decode_all);
  }
}

void peer_libfbe(const char *schemas_dir, const char *data_dir) {
  char bench_dir[4096];
  snprintf(bench_dir, sizeof bench_dir, "%s/bench", schemas_dir);
  add(schemas_dir, data_dir, "account", "proto", "Account");
  add(bench_dir, data_dir, "small", "small", "Small");
  add(bench_dir, data_dir, "large", "large", "Large");
}

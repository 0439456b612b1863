/* libfbe's dynamic core: the schema loaded at run time, the value a dynamic message
 * (fbe_msg, built from the same data file), encoded into a reused buffer and decoded
 * into a reused arena, in both wire models. "decode" is the default fbe_decode, which
 * verifies first; "decode_trusted" (fbe_decode_trusted, no verify) is beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbe/fbe.h"
#include "harness.h"

typedef struct ctx {
  const fbe_struct *type;
  fbe_msg *msg;
  fbe_model model;
  fbe_limits limits;
  fbe_buffer out;   /* encode target */
  fbe_buffer bytes; /* the encoded value decode reads */
  fbe_arena *arena; /* decode target */
} ctx;

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
    b_die("libfbe", "", "decode failed");
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

static char *read_text(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) b_die("libfbe", path, "cannot open");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) b_die("libfbe", path, "cannot read");
  fclose(f);
  *size = (size_t)n;
  return text;
}

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
  char *text = read_text(path, &size);
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
    b_add_with_trusted("libfbe", workload, models[m].name, c->bytes.size, c, encode, decode, decode_trusted);
  }
}

void peer_libfbe(const char *schemas_dir, const char *data_dir) {
  char bench_dir[4096];
  snprintf(bench_dir, sizeof bench_dir, "%s/bench", schemas_dir);
  add(schemas_dir, data_dir, "account", "proto", "Account");
  add(bench_dir, data_dir, "small", "small", "Small");
  add(bench_dir, data_dir, "large", "large", "Large");
}

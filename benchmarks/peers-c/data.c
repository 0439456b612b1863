/* The workload data as plain C structs: benchmarks/data/<workload>.json read with
 * libfbe's JSON reader against the workload's schema, then copied field by field, so
 * every peer starts from the same values. Also the equality the round trips use. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbe/fbe.h"
#include "harness.h"

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "peers: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(1);
}

char *b_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) fail("cannot open", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) fail("cannot read", path);
  fclose(f);
  text[n] = 0;
  *size = (size_t)n;
  return text;
}

static fbe_ref field(fbe_ref r, const char *name) {
  fbe_ref f = fbe_ref_field(r, name);
  if (!f.type) fail("no such field", name);
  return f;
}

static int64_t get_int(fbe_ref r, const char *name) {
  int64_t v;
  if (fbe_ref_get_int(field(r, name), &v) != FBE_OK) fail("not an integer", name);
  return v;
}

static double get_double(fbe_ref r, const char *name) {
  double v;
  if (fbe_ref_get_double(field(r, name), &v) != FBE_OK) fail("not a double", name);
  return v;
}

static const char *string_of(fbe_ref r) {
  const uint8_t *p;
  size_t n;
  if (fbe_ref_get_bytes(r, &p, &n) != FBE_OK) fail("not a string", NULL);
  return strndup((const char *)p, n);
}

/* Loads package `package` and reads data_dir/<workload>.json as its struct `type`. */
static fbe_ref load(const char *schemas_dir, const char *package, const char *type,
                    const char *data_dir, const char *workload) {
  const char *dirs[1] = {schemas_dir};
  fbe_load_options options = {dirs, 1};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = fbe_schema_load_package(package, &options, &diags);
  if (!schema) fail("cannot load the schema package", package);
  const fbe_struct *st = fbe_schema_find_struct(schema, type);
  if (!st) fail("no such struct", type);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.json", data_dir, workload);
  size_t size;
  char *text = b_read_file(path, &size);
  fbe_msg *msg = NULL;
  fbe_error err;
  if (fbe_msg_from_json(st, text, size, fbe_arena_new(), &msg, &err) != FBE_OK) fail("bad data", path);
  free(text);
  return fbe_msg_ref(msg); /* schema and arena live as long as the process */
}

static b_balance balance_of(fbe_ref r) {
  b_balance b = {string_of(field(r, "currency")), get_double(r, "amount")};
  return b;
}

void b_load_data(const char *schemas_dir, const char *data_dir, b_data *out) {
  char bench_dir[4096];
  snprintf(bench_dir, sizeof bench_dir, "%s/bench", schemas_dir);

  fbe_ref a = load(schemas_dir, "proto", "Account", data_dir, "account");
  b_account *acc = &out->account;
  acc->id = (int32_t)get_int(a, "id");
  acc->name = string_of(field(a, "name"));
  acc->state = (int32_t)get_int(a, "state");
  acc->wallet = balance_of(field(a, "wallet"));
  fbe_ref asset = field(a, "asset");
  acc->has_asset = !fbe_ref_is_null(asset);
  if (acc->has_asset) acc->asset = balance_of(fbe_ref_deref(asset));
  fbe_ref orders = field(a, "orders");
  acc->n_orders = fbe_ref_count(orders);
  if (acc->n_orders > B_MAX_ORDERS) fail("too many orders", NULL);
  for (size_t i = 0; i < acc->n_orders; i++) {
    fbe_ref o = fbe_ref_at(orders, i);
    b_order bo = {(int32_t)get_int(o, "id"), string_of(field(o, "symbol")), (int32_t)get_int(o, "side"),
                  (int32_t)get_int(o, "type"), get_double(o, "price"), get_double(o, "volume")};
    acc->orders[i] = bo;
  }

  fbe_ref s = load(bench_dir, "small", "Small", data_dir, "small");
  int spouse = 0;
  if (fbe_ref_get_bool(field(s, "spouse"), &spouse) != FBE_OK) fail("not a bool", "spouse");
  out->small.name = string_of(field(s, "name"));
  out->small.spouse = spouse;
  out->small.siblings = (int32_t)get_int(s, "siblings");
  out->small.money = get_double(s, "money");
  out->small.birthday = get_int(s, "birthday");

  fbe_ref l = load(bench_dir, "large", "Large", data_dir, "large");
  b_large *large = calloc(1, sizeof *large);
  if (!large) fail("out of memory", NULL);
  fbe_ref ids = field(l, "ids"), names = field(l, "names");
  large->n_ids = fbe_ref_count(ids);
  large->n_names = fbe_ref_count(names);
  if (large->n_ids > B_MAX_IDS || large->n_names > B_MAX_NAMES) fail("large: too many elements", NULL);
  for (size_t i = 0; i < large->n_ids; i++)
    if (fbe_ref_get_int(fbe_ref_at(ids, i), &large->ids[i]) != FBE_OK) fail("not an integer", "ids");
  for (size_t i = 0; i < large->n_names; i++) large->names[i] = string_of(fbe_ref_at(names, i));
  out->large = large;
}

/* ---- equality */

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static int balance_equal(const b_balance *a, const b_balance *b) {
  return str_eq(a->currency, b->currency) && a->amount == b->amount;
}

int b_account_equal(const b_account *a, const b_account *b) {
  if (a->id != b->id || !str_eq(a->name, b->name) || a->state != b->state ||
      !balance_equal(&a->wallet, &b->wallet) || a->has_asset != b->has_asset ||
      (a->has_asset && !balance_equal(&a->asset, &b->asset)) || a->n_orders != b->n_orders)
    return 0;
  for (size_t i = 0; i < a->n_orders; i++) {
    const b_order *x = &a->orders[i], *y = &b->orders[i];
    if (x->id != y->id || !str_eq(x->symbol, y->symbol) || x->side != y->side || x->type != y->type ||
        x->price != y->price || x->volume != y->volume)
      return 0;
  }
  return 1;
}

int b_small_equal(const b_small *a, const b_small *b) {
  return str_eq(a->name, b->name) && !a->spouse == !b->spouse && a->siblings == b->siblings &&
         a->money == b->money && a->birthday == b->birthday;
}

int b_large_equal(const b_large *a, const b_large *b) {
  if (a->n_ids != b->n_ids || a->n_names != b->n_names) return 0;
  for (size_t i = 0; i < a->n_ids; i++)
    if (a->ids[i] != b->ids[i]) return 0;
  for (size_t i = 0; i < a->n_names; i++)
    if (!str_eq(a->names[i], b->names[i])) return 0;
  return 1;
}

/* ---- the fold every decode_all must give (harness.h) */

static uint64_t fold_balance(uint64_t h, const b_balance *b) {
  h = b_fold_str(h, b->currency, strlen(b->currency));
  return b_fold_double(h, b->amount);
}

uint64_t b_fold_data(const b_data *d, const char *workload) {
  uint64_t h = B_FOLD_SEED;
  if (!strcmp(workload, "account")) {
    const b_account *a = &d->account;
    h = b_fold(h, (uint64_t)(int64_t)a->id);
    h = b_fold_str(h, a->name, strlen(a->name));
    h = b_fold(h, (uint64_t)(int64_t)a->state);
    h = fold_balance(h, &a->wallet);
    h = b_fold(h, (uint64_t)a->has_asset);
    if (a->has_asset) h = fold_balance(h, &a->asset);
    h = b_fold(h, a->n_orders);
    for (size_t i = 0; i < a->n_orders; i++) {
      const b_order *o = &a->orders[i];
      h = b_fold(h, (uint64_t)(int64_t)o->id);
      h = b_fold_str(h, o->symbol, strlen(o->symbol));
      h = b_fold(h, (uint64_t)(int64_t)o->side);
      h = b_fold(h, (uint64_t)(int64_t)o->type);
      h = b_fold_double(h, o->price);
      h = b_fold_double(h, o->volume);
    }
  } else if (!strcmp(workload, "small")) {
    const b_small *s = &d->small;
    h = b_fold_str(h, s->name, strlen(s->name));
    h = b_fold(h, (uint64_t)(s->spouse != 0));
    h = b_fold(h, (uint64_t)(int64_t)s->siblings);
    h = b_fold_double(h, s->money);
    h = b_fold(h, (uint64_t)s->birthday);
  } else {
    const b_large *l = d->large;
    h = b_fold(h, l->n_ids);
    for (size_t i = 0; i < l->n_ids; i++) h = b_fold(h, (uint64_t)l->ids[i]);
    h = b_fold(h, l->n_names);
    for (size_t i = 0; i < l->n_names; i++) h = b_fold_str(h, l->names[i], strlen(l->names[i]));
  }
  return h;
}

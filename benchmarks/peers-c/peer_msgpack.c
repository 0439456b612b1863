/* msgpack-c: each value packed as a map keyed by field name (the form the Python and
 * Node peers write, and what schema-less users send) into a reused sbuffer; decode is
 * msgpack_unpack into a reused zone, giving the object tree; decode_all then reads
 * every field, looking each one up by name in its map (what a reader of this form does). */
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "harness.h"

typedef struct ctx {
  const b_data *d;
  void (*pack)(msgpack_packer *pk, const b_data *d);
  msgpack_sbuffer out;
  msgpack_packer pk;
  msgpack_zone zone;
  char *bytes;
  size_t size;
  uint64_t (*fold)(const msgpack_object *o); /* reads every field */
} ctx;

static uint64_t encode(void *p) {
  ctx *c = p;
  msgpack_sbuffer_clear(&c->out);
  c->pack(&c->pk, c->d);
  return c->out.size;
}

static uint64_t decode(void *p) {
  ctx *c = p;
  size_t off = 0;
  msgpack_object obj;
  msgpack_zone_clear(&c->zone);
  if (msgpack_unpack(c->bytes, c->size, &off, &c->zone, &obj) != MSGPACK_UNPACK_SUCCESS)
    b_die("msgpack-c", "", "unpack failed");
  return off + obj.type;
}

static void str(msgpack_packer *pk, const char *s) {
  size_t n = strlen(s);
  msgpack_pack_str(pk, n);
  msgpack_pack_str_body(pk, s, n);
}

static void pack_balance(msgpack_packer *pk, const b_balance *b) {
  msgpack_pack_map(pk, 2);
  str(pk, "currency"), str(pk, b->currency);
  str(pk, "amount"), msgpack_pack_double(pk, b->amount);
}

static void pack_account(msgpack_packer *pk, const b_data *d) {
  const b_account *a = &d->account;
  msgpack_pack_map(pk, 6);
  str(pk, "id"), msgpack_pack_int32(pk, a->id);
  str(pk, "name"), str(pk, a->name);
  str(pk, "state"), msgpack_pack_int32(pk, a->state);
  str(pk, "wallet"), pack_balance(pk, &a->wallet);
  str(pk, "asset");
  if (a->has_asset)
    pack_balance(pk, &a->asset);
  else
    msgpack_pack_nil(pk);
  str(pk, "orders"), msgpack_pack_array(pk, a->n_orders);
  for (size_t i = 0; i < a->n_orders; i++) {
    const b_order *o = &a->orders[i];
    msgpack_pack_map(pk, 6);
    str(pk, "id"), msgpack_pack_int32(pk, o->id);
    str(pk, "symbol"), str(pk, o->symbol);
    str(pk, "side"), msgpack_pack_int32(pk, o->side);
    str(pk, "type"), msgpack_pack_int32(pk, o->type);
    str(pk, "price"), msgpack_pack_double(pk, o->price);
    str(pk, "volume"), msgpack_pack_double(pk, o->volume);
  }
}

static void pack_small(msgpack_packer *pk, const b_data *d) {
  const b_small *s = &d->small;
  msgpack_pack_map(pk, 5);
  str(pk, "name"), str(pk, s->name);
  str(pk, "spouse"), s->spouse ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
  str(pk, "siblings"), msgpack_pack_int32(pk, s->siblings);
  str(pk, "money"), msgpack_pack_double(pk, s->money);
  str(pk, "birthday"), msgpack_pack_int64(pk, s->birthday);
}

static void pack_large(msgpack_packer *pk, const b_data *d) {
  const b_large *l = d->large;
  msgpack_pack_map(pk, 2);
  str(pk, "ids"), msgpack_pack_array(pk, l->n_ids);
  for (size_t i = 0; i < l->n_ids; i++) msgpack_pack_int64(pk, l->ids[i]);
  str(pk, "names"), msgpack_pack_array(pk, l->n_names);
  for (size_t i = 0; i < l->n_names; i++) str(pk, l->names[i]);
}

/* ---- back to plain values, for the round-trip check */

static const msgpack_object *get(const msgpack_object *map, const char *key) {
  if (map->type != MSGPACK_OBJECT_MAP) return NULL;
  for (uint32_t i = 0; i < map->via.map.size; i++) {
    const msgpack_object_kv *kv = &map->via.map.ptr[i];
    if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == strlen(key) &&
        !memcmp(kv->key.via.str.ptr, key, kv->key.via.str.size))
      return &kv->val;
  }
  return NULL;
}

static int64_t int_of(const msgpack_object *o) {
  if (!o) return INT64_MIN;
  if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) return (int64_t)o->via.u64;
  return o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER ? o->via.i64 : INT64_MIN;
}

static double double_of(const msgpack_object *o) {
  return o && o->type == MSGPACK_OBJECT_FLOAT64 ? o->via.f64 : -1.0 / 3.0;
}

static const char *string_of(const msgpack_object *o) {
  return o && o->type == MSGPACK_OBJECT_STR ? strndup(o->via.str.ptr, o->via.str.size) : NULL;
}

static b_balance balance_of(const msgpack_object *o) {
  b_balance b = {string_of(o ? get(o, "currency") : NULL), double_of(o ? get(o, "amount") : NULL)};
  return b;
}

static int check(const char *workload, const msgpack_object *o, const b_data *d) {
  if (!strcmp(workload, "account")) {
    static b_account a;
    a.id = (int32_t)int_of(get(o, "id"));
    a.name = string_of(get(o, "name"));
    a.state = (int32_t)int_of(get(o, "state"));
    a.wallet = balance_of(get(o, "wallet"));
    const msgpack_object *asset = get(o, "asset"), *orders = get(o, "orders");
    a.has_asset = asset && asset->type != MSGPACK_OBJECT_NIL;
    if (a.has_asset) a.asset = balance_of(asset);
    if (!orders || orders->type != MSGPACK_OBJECT_ARRAY || orders->via.array.size > B_MAX_ORDERS) return 0;
    a.n_orders = orders->via.array.size;
    for (size_t i = 0; i < a.n_orders; i++) {
      const msgpack_object *x = &orders->via.array.ptr[i];
      b_order bo = {(int32_t)int_of(get(x, "id")), string_of(get(x, "symbol")), (int32_t)int_of(get(x, "side")),
                    (int32_t)int_of(get(x, "type")), double_of(get(x, "price")), double_of(get(x, "volume"))};
      a.orders[i] = bo;
    }
    return b_account_equal(&a, &d->account);
  }
  if (!strcmp(workload, "small")) {
    const msgpack_object *spouse = get(o, "spouse");
    b_small s = {string_of(get(o, "name")), spouse && spouse->type == MSGPACK_OBJECT_BOOLEAN && spouse->via.boolean,
                 (int32_t)int_of(get(o, "siblings")), double_of(get(o, "money")), int_of(get(o, "birthday"))};
    return b_small_equal(&s, &d->small);
  }
  static b_large l;
  const msgpack_object *ids = get(o, "ids"), *names = get(o, "names");
  if (!ids || !names || ids->type != MSGPACK_OBJECT_ARRAY || names->type != MSGPACK_OBJECT_ARRAY ||
      ids->via.array.size > B_MAX_IDS || names->via.array.size > B_MAX_NAMES)
    return 0;
  l.n_ids = ids->via.array.size;
  for (size_t i = 0; i < l.n_ids; i++) l.ids[i] = int_of(&ids->via.array.ptr[i]);
  l.n_names = names->via.array.size;
  for (size_t i = 0; i < l.n_names; i++) l.names[i] = string_of(&names->via.array.ptr[i]);
  return b_large_equal(&l, d->large);
}

static uint64_t fold_int(uint64_t h, const msgpack_object *o) { return b_fold(h, (uint64_t)int_of(o)); }
static uint64_t fold_double(uint64_t h, const msgpack_object *o) { return b_fold_double(h, double_of(o)); }
static uint64_t fold_str(uint64_t h, const msgpack_object *o) {
  return o && o->type == MSGPACK_OBJECT_STR ? b_fold_str(h, o->via.str.ptr, o->via.str.size) : b_fold(h, 0);
}
static size_t count_of(const msgpack_object *o) {
  return o && o->type == MSGPACK_OBJECT_ARRAY ? o->via.array.size : 0;
}

static uint64_t fold_balance(uint64_t h, const msgpack_object *b) {
  h = fold_str(h, get(b, "currency"));
  return fold_double(h, get(b, "amount"));
}

static uint64_t fold_account(const msgpack_object *o) {
  uint64_t h = B_FOLD_SEED;
  h = fold_int(h, get(o, "id"));
  h = fold_str(h, get(o, "name"));
  h = fold_int(h, get(o, "state"));
  h = fold_balance(h, get(o, "wallet"));
  const msgpack_object *asset = get(o, "asset"), *orders = get(o, "orders");
  int has = asset && asset->type != MSGPACK_OBJECT_NIL;
  h = b_fold(h, (uint64_t)has);
  if (has) h = fold_balance(h, asset);
  size_t n = count_of(orders);
  h = b_fold(h, n);
  for (size_t i = 0; i < n; i++) {
    const msgpack_object *x = &orders->via.array.ptr[i];
    h = fold_int(h, get(x, "id"));
    h = fold_str(h, get(x, "symbol"));
    h = fold_int(h, get(x, "side"));
    h = fold_int(h, get(x, "type"));
    h = fold_double(h, get(x, "price"));
    h = fold_double(h, get(x, "volume"));
  }
  return h;
}

static uint64_t fold_small(const msgpack_object *o) {
  uint64_t h = B_FOLD_SEED;
  const msgpack_object *spouse = get(o, "spouse");
  h = fold_str(h, get(o, "name"));
  h = b_fold(h, spouse && spouse->type == MSGPACK_OBJECT_BOOLEAN && spouse->via.boolean);
  h = fold_int(h, get(o, "siblings"));
  h = fold_double(h, get(o, "money"));
  return fold_int(h, get(o, "birthday"));
}

static uint64_t fold_large(const msgpack_object *o) {
  const msgpack_object *ids = get(o, "ids"), *names = get(o, "names");
  size_t n = count_of(ids);
  uint64_t h = b_fold(B_FOLD_SEED, n);
  for (size_t i = 0; i < n; i++) h = fold_int(h, &ids->via.array.ptr[i]);
  n = count_of(names);
  h = b_fold(h, n);
  for (size_t i = 0; i < n; i++) h = fold_str(h, &names->via.array.ptr[i]);
  return h;
}

static uint64_t decode_all(void *p) {
  ctx *c = p;
  size_t off = 0;
  msgpack_object obj;
  msgpack_zone_clear(&c->zone);
  if (msgpack_unpack(c->bytes, c->size, &off, &c->zone, &obj) != MSGPACK_UNPACK_SUCCESS)
    b_die("msgpack-c", "", "unpack failed");
  return c->fold(&obj);
}

static void add(const char *workload, void (*pack)(msgpack_packer *, const b_data *), const b_data *d) {
  ctx *c = calloc(1, sizeof *c);
  c->d = d;
  c->pack = pack;
  c->fold = workload[0] == 'a' ? fold_account : workload[0] == 's' ? fold_small : fold_large;
  msgpack_sbuffer_init(&c->out);
  msgpack_packer_init(&c->pk, &c->out, msgpack_sbuffer_write);
  msgpack_zone_init(&c->zone, 4096);
  encode(c);
  c->size = c->out.size;
  c->bytes = malloc(c->size);
  memcpy(c->bytes, c->out.data, c->size);
  size_t off = 0;
  msgpack_object obj;
  if (msgpack_unpack(c->bytes, c->size, &off, &c->zone, &obj) != MSGPACK_UNPACK_SUCCESS || off != c->size ||
      !check(workload, &obj, d))
    b_die("msgpack-c", workload, "round trip differs");
  b_add("msgpack-c", workload, "map", c->size, c, encode, decode, NULL, decode_all);
}

void peer_msgpack(const b_data *d) {
  add("account", pack_account, d);
  add("small", pack_small, d);
  add("large", pack_large, d);
}

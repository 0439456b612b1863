/* protobuf-c: the generated C structs (benchmarks/schemas/bench.proto, protoc-c), packed into a
 * reused buffer; decode is protobuf_c_message_unpack plus free_unpacked (the
 * library's allocator), the pair every protobuf-c user calls; decode_all reads every
 * field of the unpacked structs between the two (strings: NUL-terminated, strlen). */
#include <stdlib.h>
#include <string.h>

#include "bench.pb-c.h"
#include "harness.h"

typedef struct ctx {
  const ProtobufCMessageDescriptor *desc;
  const ProtobufCMessage *msg;
  uint8_t *out; /* encode target, sized once */
  uint8_t *bytes;
  size_t size;
  uint64_t (*fold)(const ProtobufCMessage *m); /* reads every field */
} ctx;

static uint64_t encode(void *p) {
  ctx *c = p;
  size_t n = protobuf_c_message_get_packed_size(c->msg);
  return protobuf_c_message_pack(c->msg, c->out) + n;
}

static uint64_t decode(void *p) {
  ctx *c = p;
  ProtobufCMessage *m = protobuf_c_message_unpack(c->desc, NULL, c->size, c->bytes);
  if (!m) b_die("protobuf-c", "", "unpack failed");
  uint64_t r = (uint64_t)(uintptr_t)m;
  protobuf_c_message_free_unpacked(m, NULL);
  return r;
}

static uint64_t decode_all(void *p) {
  ctx *c = p;
  ProtobufCMessage *m = protobuf_c_message_unpack(c->desc, NULL, c->size, c->bytes);
  if (!m) b_die("protobuf-c", "", "unpack failed");
  uint64_t r = c->fold(m);
  protobuf_c_message_free_unpacked(m, NULL);
  return r;
}

static uint64_t fold_str(uint64_t h, const char *s) { return b_fold_str(h, s, strlen(s)); }

static uint64_t fold_balance(uint64_t h, const Fbebench__Balance *b) {
  h = fold_str(h, b->currency);
  return b_fold_double(h, b->amount);
}

static uint64_t fold_account(const ProtobufCMessage *p) {
  const Fbebench__Account *m = (const Fbebench__Account *)p;
  uint64_t h = B_FOLD_SEED;
  h = b_fold(h, (uint64_t)(int64_t)m->id);
  h = fold_str(h, m->name);
  h = b_fold(h, (uint64_t)(int64_t)m->state);
  h = fold_balance(h, m->wallet);
  h = b_fold(h, m->asset != NULL);
  if (m->asset) h = fold_balance(h, m->asset);
  h = b_fold(h, m->n_orders);
  for (size_t i = 0; i < m->n_orders; i++) {
    const Fbebench__Order *o = m->orders[i];
    h = b_fold(h, (uint64_t)(int64_t)o->id);
    h = fold_str(h, o->symbol);
    h = b_fold(h, (uint64_t)(int64_t)o->side);
    h = b_fold(h, (uint64_t)(int64_t)o->type);
    h = b_fold_double(h, o->price);
    h = b_fold_double(h, o->volume);
  }
  return h;
}

static uint64_t fold_small(const ProtobufCMessage *p) {
  const Fbebench__Small *m = (const Fbebench__Small *)p;
  uint64_t h = B_FOLD_SEED;
  h = fold_str(h, m->name);
  h = b_fold(h, m->spouse != 0);
  h = b_fold(h, (uint64_t)(int64_t)m->siblings);
  h = b_fold_double(h, m->money);
  return b_fold(h, (uint64_t)m->birthday);
}

static uint64_t fold_large(const ProtobufCMessage *p) {
  const Fbebench__Large *m = (const Fbebench__Large *)p;
  uint64_t h = b_fold(B_FOLD_SEED, m->n_ids);
  for (size_t i = 0; i < m->n_ids; i++) h = b_fold(h, (uint64_t)m->ids[i]);
  h = b_fold(h, m->n_names);
  for (size_t i = 0; i < m->n_names; i++) h = fold_str(h, m->names[i]);
  return h;
}

/* Packs msg, unpacks it, hands the copy to check, adds the case. */
static void add(const char *workload, const ProtobufCMessage *msg,
                int (*check)(const ProtobufCMessage *back, const b_data *d), const b_data *d) {
  ctx *c = calloc(1, sizeof *c);
  c->desc = msg->descriptor;
  c->msg = msg;
  c->fold = workload[0] == 'a' ? fold_account : workload[0] == 's' ? fold_small : fold_large;
  c->size = protobuf_c_message_get_packed_size(msg);
  c->out = malloc(c->size);
  c->bytes = malloc(c->size);
  if (protobuf_c_message_pack(msg, c->bytes) != c->size) b_die("protobuf-c", workload, "pack failed");
  ProtobufCMessage *back = protobuf_c_message_unpack(c->desc, NULL, c->size, c->bytes);
  if (!back || !check(back, d)) b_die("protobuf-c", workload, "round trip differs");
  protobuf_c_message_free_unpacked(back, NULL);
  b_add("protobuf-c", workload, "message", c->size, c, encode, decode, NULL, decode_all);
}

static Fbebench__Balance *balance(const b_balance *b) {
  Fbebench__Balance *m = malloc(sizeof *m);
  fbebench__balance__init(m);
  m->currency = (char *)b->currency;
  m->amount = b->amount;
  return m;
}

static b_balance plain_balance(const Fbebench__Balance *m) {
  b_balance b = {m->currency, m->amount};
  return b;
}

static int check_account(const ProtobufCMessage *p, const b_data *d) {
  const Fbebench__Account *m = (const Fbebench__Account *)p;
  b_account a;
  memset(&a, 0, sizeof a);
  a.id = m->id;
  a.name = m->name;
  a.state = m->state;
  if (!m->wallet || m->n_orders > B_MAX_ORDERS) return 0;
  a.wallet = plain_balance(m->wallet);
  a.has_asset = m->asset != NULL;
  if (m->asset) a.asset = plain_balance(m->asset);
  a.n_orders = m->n_orders;
  for (size_t i = 0; i < m->n_orders; i++) {
    const Fbebench__Order *o = m->orders[i];
    b_order bo = {o->id, o->symbol, o->side, o->type, o->price, o->volume};
    a.orders[i] = bo;
  }
  return b_account_equal(&a, &d->account);
}

static int check_small(const ProtobufCMessage *p, const b_data *d) {
  const Fbebench__Small *m = (const Fbebench__Small *)p;
  b_small s = {m->name, m->spouse, m->siblings, m->money, m->birthday};
  return b_small_equal(&s, &d->small);
}

static int check_large(const ProtobufCMessage *p, const b_data *d) {
  const Fbebench__Large *m = (const Fbebench__Large *)p;
  static b_large l;
  if (m->n_ids > B_MAX_IDS || m->n_names > B_MAX_NAMES) return 0;
  l.n_ids = m->n_ids;
  memcpy(l.ids, m->ids, m->n_ids * sizeof m->ids[0]);
  l.n_names = m->n_names;
  for (size_t i = 0; i < m->n_names; i++) l.names[i] = m->names[i];
  return b_large_equal(&l, d->large);
}

void peer_protobuf_c(const b_data *d) {
  const b_account *a = &d->account;
  Fbebench__Account *acc = malloc(sizeof *acc);
  fbebench__account__init(acc);
  acc->id = a->id;
  acc->name = (char *)a->name;
  acc->state = a->state;
  acc->wallet = balance(&a->wallet);
  acc->asset = a->has_asset ? balance(&a->asset) : NULL;
  acc->n_orders = a->n_orders;
  acc->orders = malloc(a->n_orders * sizeof *acc->orders);
  for (size_t i = 0; i < a->n_orders; i++) {
    Fbebench__Order *o = malloc(sizeof *o);
    fbebench__order__init(o);
    o->id = a->orders[i].id;
    o->symbol = (char *)a->orders[i].symbol;
    o->side = a->orders[i].side;
    o->type = a->orders[i].type;
    o->price = a->orders[i].price;
    o->volume = a->orders[i].volume;
    acc->orders[i] = o;
  }
  add("account", &acc->base, check_account, d);

  Fbebench__Small *s = malloc(sizeof *s);
  fbebench__small__init(s);
  s->name = (char *)d->small.name;
  s->spouse = d->small.spouse;
  s->siblings = d->small.siblings;
  s->money = d->small.money;
  s->birthday = d->small.birthday;
  add("small", &s->base, check_small, d);

  Fbebench__Large *l = malloc(sizeof *l);
  fbebench__large__init(l);
  l->n_ids = d->large->n_ids;
  l->ids = (int64_t *)d->large->ids;
  l->n_names = d->large->n_names;
  l->names = (char **)d->large->names;
  add("large", &l->base, check_large, d);
}

/* Apache Avro C, generic values: the schema parsed at run time (the closest peer to
 * libfbe's dynamic messages), the value an avro_value_t built once, written with
 * avro_value_write into a reused memory writer; decode is avro_value_read into a
 * reused generic value; decode_all then reads every field of it (by index, the
 * schema's order). Enums and flags as int; the optional asset a union with null. */
#include <stdlib.h>
#include <string.h>

#include <avro.h>

#include "harness.h"

#define BALANCE "{\"type\":\"record\",\"name\":\"Balance\",\"fields\":[" \
  "{\"name\":\"currency\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"double\"}]}"
#define ORDER "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[" \
  "{\"name\":\"id\",\"type\":\"int\"},{\"name\":\"symbol\",\"type\":\"string\"}," \
  "{\"name\":\"side\",\"type\":\"int\"},{\"name\":\"type\",\"type\":\"int\"}," \
  "{\"name\":\"price\",\"type\":\"double\"},{\"name\":\"volume\",\"type\":\"double\"}]}"
static const char ACCOUNT[] = "{\"type\":\"record\",\"name\":\"Account\",\"fields\":["
  "{\"name\":\"id\",\"type\":\"int\"},{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"state\",\"type\":\"int\"},"
  "{\"name\":\"wallet\",\"type\":" BALANCE "},{\"name\":\"asset\",\"type\":[\"null\",\"Balance\"]},"
  "{\"name\":\"orders\",\"type\":{\"type\":\"array\",\"items\":" ORDER "}}]}";
static const char SMALL[] = "{\"type\":\"record\",\"name\":\"Small\",\"fields\":["
  "{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"spouse\",\"type\":\"boolean\"},"
  "{\"name\":\"siblings\",\"type\":\"int\"},{\"name\":\"money\",\"type\":\"double\"},"
  "{\"name\":\"birthday\",\"type\":\"long\"}]}";
static const char LARGE[] = "{\"type\":\"record\",\"name\":\"Large\",\"fields\":["
  "{\"name\":\"ids\",\"type\":{\"type\":\"array\",\"items\":\"long\"}},"
  "{\"name\":\"names\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}";

typedef struct ctx {
  avro_value_t value, back;
  avro_writer_t writer;
  avro_reader_t reader;
  char *out, *bytes;
  size_t size;
  uint64_t (*fold)(avro_value_t *v); /* reads every field */
} ctx;

static uint64_t encode(void *p) {
  ctx *c = p;
  avro_writer_reset(c->writer);
  if (avro_value_write(c->writer, &c->value)) b_die("avro-c", "", avro_strerror());
  return (uint64_t)avro_writer_tell(c->writer);
}

static uint64_t decode(void *p) {
  ctx *c = p;
  avro_reader_memory_set_source(c->reader, c->bytes, (int64_t)c->size);
  avro_value_reset(&c->back);
  if (avro_value_read(c->reader, &c->back)) b_die("avro-c", "", avro_strerror());
  return c->size;
}

/* ---- field access by index (the schema's order) */

static avro_value_t at(avro_value_t *rec, size_t i) {
  avro_value_t f;
  if (avro_value_get_by_index(rec, i, &f, NULL)) b_die("avro-c", "", avro_strerror());
  return f;
}

static void set_str(avro_value_t *rec, size_t i, const char *s) {
  avro_value_t f = at(rec, i);
  avro_value_set_string(&f, s);
}
static void set_int(avro_value_t *rec, size_t i, int32_t v) {
  avro_value_t f = at(rec, i);
  avro_value_set_int(&f, v);
}
static void set_double(avro_value_t *rec, size_t i, double v) {
  avro_value_t f = at(rec, i);
  avro_value_set_double(&f, v);
}

static const char *get_str(avro_value_t *v) {
  const char *s = NULL;
  size_t n = 0;
  avro_value_get_string(v, &s, &n);
  return s;
}
static const char *str_at(avro_value_t *rec, size_t i) {
  avro_value_t f = at(rec, i);
  return get_str(&f);
}
static int32_t int_at(avro_value_t *rec, size_t i) {
  avro_value_t f = at(rec, i);
  int32_t v = -1;
  avro_value_get_int(&f, &v);
  return v;
}
static double double_at(avro_value_t *rec, size_t i) {
  avro_value_t f = at(rec, i);
  double v = -1.0 / 3.0;
  avro_value_get_double(&f, &v);
  return v;
}

static void set_balance(avro_value_t *rec, const b_balance *b) {
  set_str(rec, 0, b->currency);
  set_double(rec, 1, b->amount);
}

static b_balance balance_of(avro_value_t *rec) {
  b_balance b = {str_at(rec, 0), double_at(rec, 1)};
  return b;
}

static void fill(const char *workload, avro_value_t *v, const b_data *d) {
  if (!strcmp(workload, "account")) {
    const b_account *a = &d->account;
    avro_value_t f, branch, item;
    set_int(v, 0, a->id);
    set_str(v, 1, a->name);
    set_int(v, 2, a->state);
    f = at(v, 3);
    set_balance(&f, &a->wallet);
    f = at(v, 4);
    avro_value_set_branch(&f, a->has_asset, &branch);
    if (a->has_asset) set_balance(&branch, &a->asset);
    else avro_value_set_null(&branch);
    f = at(v, 5);
    for (size_t i = 0; i < a->n_orders; i++) {
      const b_order *o = &a->orders[i];
      avro_value_append(&f, &item, NULL);
      set_int(&item, 0, o->id);
      set_str(&item, 1, o->symbol);
      set_int(&item, 2, o->side);
      set_int(&item, 3, o->type);
      set_double(&item, 4, o->price);
      set_double(&item, 5, o->volume);
    }
  } else if (!strcmp(workload, "small")) {
    avro_value_t f;
    set_str(v, 0, d->small.name);
    f = at(v, 1);
    avro_value_set_boolean(&f, d->small.spouse);
    set_int(v, 2, d->small.siblings);
    set_double(v, 3, d->small.money);
    f = at(v, 4);
    avro_value_set_long(&f, d->small.birthday);
  } else {
    avro_value_t ids = at(v, 0), names = at(v, 1), item;
    for (size_t i = 0; i < d->large->n_ids; i++) {
      avro_value_append(&ids, &item, NULL);
      avro_value_set_long(&item, d->large->ids[i]);
    }
    for (size_t i = 0; i < d->large->n_names; i++) {
      avro_value_append(&names, &item, NULL);
      avro_value_set_string(&item, d->large->names[i]);
    }
  }
}

static int check(const char *workload, avro_value_t *v, const b_data *d) {
  if (!strcmp(workload, "account")) {
    static b_account a;
    avro_value_t f, branch, item;
    int disc = -1;
    size_t n = 0;
    a.id = int_at(v, 0);
    a.name = str_at(v, 1);
    a.state = int_at(v, 2);
    f = at(v, 3);
    a.wallet = balance_of(&f);
    f = at(v, 4);
    avro_value_get_discriminant(&f, &disc);
    avro_value_get_current_branch(&f, &branch);
    a.has_asset = disc == 1;
    if (a.has_asset) a.asset = balance_of(&branch);
    f = at(v, 5);
    avro_value_get_size(&f, &n);
    if (n > B_MAX_ORDERS) return 0;
    a.n_orders = n;
    for (size_t i = 0; i < n; i++) {
      avro_value_get_by_index(&f, i, &item, NULL);
      b_order o = {int_at(&item, 0), str_at(&item, 1), int_at(&item, 2), int_at(&item, 3),
                   double_at(&item, 4), double_at(&item, 5)};
      a.orders[i] = o;
    }
    return b_account_equal(&a, &d->account);
  }
  if (!strcmp(workload, "small")) {
    avro_value_t f = at(v, 1), g = at(v, 4);
    int spouse = -1;
    int64_t birthday = -1;
    avro_value_get_boolean(&f, &spouse);
    avro_value_get_long(&g, &birthday);
    b_small s = {str_at(v, 0), spouse, int_at(v, 2), double_at(v, 3), birthday};
    return b_small_equal(&s, &d->small);
  }
  static b_large l;
  avro_value_t ids = at(v, 0), names = at(v, 1), item;
  avro_value_get_size(&ids, &l.n_ids);
  avro_value_get_size(&names, &l.n_names);
  if (l.n_ids > B_MAX_IDS || l.n_names > B_MAX_NAMES) return 0;
  for (size_t i = 0; i < l.n_ids; i++) {
    avro_value_get_by_index(&ids, i, &item, NULL);
    avro_value_get_long(&item, &l.ids[i]);
  }
  for (size_t i = 0; i < l.n_names; i++) {
    avro_value_get_by_index(&names, i, &item, NULL);
    l.names[i] = get_str(&item);
  }
  return b_large_equal(&l, d->large);
}

static uint64_t fold_str(uint64_t h, avro_value_t *v) {
  const char *s = NULL;
  size_t n = 0; /* with the NUL */
  avro_value_get_string(v, &s, &n);
  return b_fold_str(h, s, n ? n - 1 : 0);
}
static uint64_t fold_str_at(uint64_t h, avro_value_t *rec, size_t i) {
  avro_value_t f = at(rec, i);
  return fold_str(h, &f);
}
static uint64_t fold_balance(uint64_t h, avro_value_t *rec) {
  return b_fold_double(fold_str_at(h, rec, 0), double_at(rec, 1));
}

static uint64_t fold_account(avro_value_t *v) {
  uint64_t h = B_FOLD_SEED;
  avro_value_t f, branch, item;
  int disc = -1;
  size_t n = 0;
  h = b_fold(h, (uint64_t)(int64_t)int_at(v, 0));
  h = fold_str_at(h, v, 1);
  h = b_fold(h, (uint64_t)(int64_t)int_at(v, 2));
  f = at(v, 3);
  h = fold_balance(h, &f);
  f = at(v, 4);
  avro_value_get_discriminant(&f, &disc);
  h = b_fold(h, disc == 1);
  if (disc == 1) {
    avro_value_get_current_branch(&f, &branch);
    h = fold_balance(h, &branch);
  }
  f = at(v, 5);
  avro_value_get_size(&f, &n);
  h = b_fold(h, n);
  for (size_t i = 0; i < n; i++) {
    avro_value_get_by_index(&f, i, &item, NULL);
    h = b_fold(h, (uint64_t)(int64_t)int_at(&item, 0));
    h = fold_str_at(h, &item, 1);
    h = b_fold(h, (uint64_t)(int64_t)int_at(&item, 2));
    h = b_fold(h, (uint64_t)(int64_t)int_at(&item, 3));
    h = b_fold_double(h, double_at(&item, 4));
    h = b_fold_double(h, double_at(&item, 5));
  }
  return h;
}

static uint64_t fold_small(avro_value_t *v) {
  uint64_t h = B_FOLD_SEED;
  avro_value_t f = at(v, 1), g = at(v, 4);
  int spouse = 0;
  int64_t birthday = 0;
  h = fold_str_at(h, v, 0);
  avro_value_get_boolean(&f, &spouse);
  h = b_fold(h, spouse != 0);
  h = b_fold(h, (uint64_t)(int64_t)int_at(v, 2));
  h = b_fold_double(h, double_at(v, 3));
  avro_value_get_long(&g, &birthday);
  return b_fold(h, (uint64_t)birthday);
}

static uint64_t fold_large(avro_value_t *v) {
  avro_value_t ids = at(v, 0), names = at(v, 1), item;
  size_t n = 0;
  avro_value_get_size(&ids, &n);
  uint64_t h = b_fold(B_FOLD_SEED, n);
  for (size_t i = 0; i < n; i++) {
    int64_t x = 0;
    avro_value_get_by_index(&ids, i, &item, NULL);
    avro_value_get_long(&item, &x);
    h = b_fold(h, (uint64_t)x);
  }
  avro_value_get_size(&names, &n);
  h = b_fold(h, n);
  for (size_t i = 0; i < n; i++) {
    avro_value_get_by_index(&names, i, &item, NULL);
    h = fold_str(h, &item);
  }
  return h;
}

static uint64_t decode_all(void *p) {
  ctx *c = p;
  decode(c);
  return c->fold(&c->back);
}

static void add(const char *workload, const char *schema_json, const b_data *d) {
  avro_schema_t schema;
  if (avro_schema_from_json_length(schema_json, strlen(schema_json), &schema))
    b_die("avro-c", workload, avro_strerror());
  avro_value_iface_t *iface = avro_generic_class_from_schema(schema);
  ctx *c = calloc(1, sizeof *c);
  if (!iface || avro_generic_value_new(iface, &c->value) || avro_generic_value_new(iface, &c->back))
    b_die("avro-c", workload, avro_strerror());
  c->fold = workload[0] == 'a' ? fold_account : workload[0] == 's' ? fold_small : fold_large;
  fill(workload, &c->value, d);
  if (avro_value_sizeof(&c->value, &c->size)) b_die("avro-c", workload, avro_strerror());
  c->out = malloc(c->size);
  c->bytes = malloc(c->size);
  c->writer = avro_writer_memory(c->out, (int64_t)c->size);
  c->reader = avro_reader_memory(c->bytes, (int64_t)c->size);
  if (encode(c) != c->size) b_die("avro-c", workload, "encoded size differs from avro_value_sizeof");
  memcpy(c->bytes, c->out, c->size);
  decode(c);
  if (!check(workload, &c->back, d) || !avro_value_equal(&c->value, &c->back))
    b_die("avro-c", workload, "round trip differs");
  b_add("avro-c", workload, "generic", c->size, c, encode, decode, NULL, decode_all);
}

void peer_avro(const b_data *d) {
  add("account", ACCOUNT, d);
  add("small", SMALL, d);
  add("large", LARGE, d);
}

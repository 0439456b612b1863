/* The read-every-field folds (harness.h) of the three workloads over libfbe's two read
 * APIs, which share their verbs: peer_libfbe.c includes this file twice, once with
 * V = fbe_ref (a decoded message) and once with V = fbe_view (the bytes, in place).
 * Fields by index, in the schema's order (proto.Account: id, name, state, wallet,
 * asset, orders; Balance: currency, amount; Order: id, symbol, side, type, price,
 * volume; small.Small: name, spouse, siblings, money, birthday; large.Large: ids,
 * names), every element in order with FOR_EACH(item, collection) (the includer's: by
 * index for fbe_ref, fbe_view_iterate for fbe_view, O(1) a step in both models), a
 * collection of int64 with FOLD_INT64S(h, item, collection) (a view: the elements in
 * place, fbe_view_get_scalars); the runner checks each fold against the data's. */
#define FN_(v, name) v##_##name
#define FN(v, name) FN_(v, name)
#define FOLD(name) FN(FN(V, fold), name)

static uint64_t FOLD(int)(uint64_t h, V v) {
  int64_t x = 0;
  FN(V, get_int)(v, &x);
  return b_fold(h, (uint64_t)x);
}

static uint64_t FOLD(double)(uint64_t h, V v) {
  double x = 0;
  FN(V, get_double)(v, &x);
  return b_fold_double(h, x);
}

static uint64_t FOLD(str)(uint64_t h, V v) {
  const uint8_t *p = NULL;
  size_t n = 0;
  FN(V, get_bytes)(v, &p, &n);
  return b_fold_str(h, p, n);
}

static uint64_t FOLD(balance)(uint64_t h, V b) {
  h = FOLD(str)(h, FIELD(b, 0));
  return FOLD(double)(h, FIELD(b, 1));
}

static uint64_t FOLD(account)(V a) {
  uint64_t h = B_FOLD_SEED;
  h = FOLD(int)(h, FIELD(a, 0));
  h = FOLD(str)(h, FIELD(a, 1));
  h = FOLD(int)(h, FIELD(a, 2));
  h = FOLD(balance)(h, FIELD(a, 3));
  V asset = FIELD(a, 4);
  int has = !FN(V, is_null)(asset);
  h = b_fold(h, (uint64_t)has);
  if (has) h = FOLD(balance)(h, FN(V, deref)(asset));
  V orders = FIELD(a, 5);
  h = b_fold(h, FN(V, count)(orders));
  V o;
  FOR_EACH(o, orders) {
    h = FOLD(int)(h, FIELD(o, 0));
    h = FOLD(str)(h, FIELD(o, 1));
    h = FOLD(int)(h, FIELD(o, 2));
    h = FOLD(int)(h, FIELD(o, 3));
    h = FOLD(double)(h, FIELD(o, 4));
    h = FOLD(double)(h, FIELD(o, 5));
  }
  return h;
}

static uint64_t FOLD(small)(V s) {
  uint64_t h = B_FOLD_SEED;
  int spouse = 0;
  h = FOLD(str)(h, FIELD(s, 0));
  FN(V, get_bool)(FIELD(s, 1), &spouse);
  h = b_fold(h, (uint64_t)(spouse != 0));
  h = FOLD(int)(h, FIELD(s, 2));
  h = FOLD(double)(h, FIELD(s, 3));
  return FOLD(int)(h, FIELD(s, 4));
}

static uint64_t FOLD(large)(V l) {
  uint64_t h = B_FOLD_SEED;
  V ids = FIELD(l, 0), names = FIELD(l, 1), e;
  h = b_fold(h, FN(V, count)(ids));
  FOLD_INT64S(h, e, ids);
  h = b_fold(h, FN(V, count)(names));
  FOR_EACH(e, names) h = FOLD(str)(h, e);
  return h;
}

#undef FOLD
#undef FN
#undef FN_

// protobuf C++ (reference): the generated classes (benchmarks/schemas/bench.proto, protoc), the
// message built once from the data, serialized into a reused buffer; decode is
// ParseFromArray into a reused message (the library's intended reuse pattern);
// decode_all parses and reads every field through the generated accessors.
#include <cstring>
#include <vector>

#include "bench.pb.h"
#include "harness.h"

namespace {

struct Ctx {
  const char *workload;
  google::protobuf::Message *msg, *back;
  std::vector<uint8_t> out, bytes;
};

uint64_t encode(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  size_t n = c.msg->ByteSizeLong();
  if (!c.msg->SerializeToArray(c.out.data(), static_cast<int>(n))) b_die("protobuf", c.workload, "serialize failed");
  return n;
}

uint64_t decode(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  if (!c.back->ParseFromArray(c.bytes.data(), static_cast<int>(c.bytes.size())))
    b_die("protobuf", c.workload, "parse failed");
  return c.bytes.size();
}

uint64_t fold_str(uint64_t h, const std::string &s) { return b_fold_str(h, s.data(), s.size()); }
uint64_t i64(int64_t v) { return static_cast<uint64_t>(v); }

uint64_t fold_balance(uint64_t h, const fbebench::Balance &b) {
  return b_fold_double(fold_str(h, b.currency()), b.amount());
}

uint64_t fold(const Ctx &c) {
  uint64_t h = B_FOLD_SEED;
  if (c.workload[0] == 'a') {
    auto &m = static_cast<const fbebench::Account &>(*c.back);
    h = b_fold(h, i64(m.id()));
    h = fold_str(h, m.name());
    h = b_fold(h, i64(m.state()));
    h = fold_balance(h, m.wallet());
    h = b_fold(h, m.has_asset());
    if (m.has_asset()) h = fold_balance(h, m.asset());
    h = b_fold(h, static_cast<uint64_t>(m.orders_size()));
    for (auto &o : m.orders()) {
      h = b_fold(h, i64(o.id()));
      h = fold_str(h, o.symbol());
      h = b_fold(h, i64(o.side()));
      h = b_fold(h, i64(o.type()));
      h = b_fold_double(h, o.price());
      h = b_fold_double(h, o.volume());
    }
  } else if (c.workload[0] == 's') {
    auto &m = static_cast<const fbebench::Small &>(*c.back);
    h = fold_str(h, m.name());
    h = b_fold(h, m.spouse() ? 1 : 0);
    h = b_fold(h, i64(m.siblings()));
    h = b_fold_double(h, m.money());
    h = b_fold(h, i64(m.birthday()));
  } else {
    auto &m = static_cast<const fbebench::Large &>(*c.back);
    h = b_fold(h, static_cast<uint64_t>(m.ids_size()));
    for (auto id : m.ids()) h = b_fold(h, i64(id));
    h = b_fold(h, static_cast<uint64_t>(m.names_size()));
    for (auto &n : m.names()) h = fold_str(h, n);
  }
  return h;
}

uint64_t decode_all(void *p) {
  decode(p);
  return fold(*static_cast<Ctx *>(p));
}

void set_balance(fbebench::Balance *m, const b_balance &b) {
  m->set_currency(b.currency);
  m->set_amount(b.amount);
}

b_balance plain(const fbebench::Balance &m) { return b_balance{m.currency().c_str(), m.amount()}; }

bool same(const char *workload, const google::protobuf::Message &msg, const b_data *d) {
  if (!strcmp(workload, "account")) {
    auto &m = static_cast<const fbebench::Account &>(msg);
    static b_account a;
    a.id = m.id();
    a.name = m.name().c_str();
    a.state = m.state();
    a.wallet = plain(m.wallet());
    a.has_asset = m.has_asset();
    if (a.has_asset) a.asset = plain(m.asset());
    if (m.orders_size() > B_MAX_ORDERS) return false;
    a.n_orders = static_cast<size_t>(m.orders_size());
    for (int i = 0; i < m.orders_size(); i++) {
      auto &o = m.orders(i);
      a.orders[i] = b_order{o.id(), o.symbol().c_str(), o.side(), o.type(), o.price(), o.volume()};
    }
    return b_account_equal(&a, &d->account);
  }
  if (!strcmp(workload, "small")) {
    auto &m = static_cast<const fbebench::Small &>(msg);
    b_small s{m.name().c_str(), m.spouse(), m.siblings(), m.money(), m.birthday()};
    return b_small_equal(&s, &d->small);
  }
  auto &m = static_cast<const fbebench::Large &>(msg);
  static b_large l;
  if (m.ids_size() > B_MAX_IDS || m.names_size() > B_MAX_NAMES) return false;
  l.n_ids = static_cast<size_t>(m.ids_size());
  l.n_names = static_cast<size_t>(m.names_size());
  for (int i = 0; i < m.ids_size(); i++) l.ids[i] = m.ids(i);
  for (int i = 0; i < m.names_size(); i++) l.names[i] = m.names(i).c_str();
  return b_large_equal(&l, d->large);
}

void add(const char *workload, google::protobuf::Message *msg, const b_data *d) {
  Ctx *c = new Ctx{workload, msg, msg->New(), {}, {}};
  c->out.resize(msg->ByteSizeLong());
  c->bytes.resize(encode(c));
  memcpy(c->bytes.data(), c->out.data(), c->bytes.size());
  decode(c);
  if (!same(workload, *c->back, d)) b_die("protobuf", workload, "round trip differs");
  b_add("protobuf-c++", workload, "message", c->bytes.size(), c, encode, decode, nullptr, decode_all);
}

}  // namespace

extern "C" void peer_protobuf_cpp(const b_data *d) {
  auto *acc = new fbebench::Account;
  const b_account &a = d->account;
  acc->set_id(a.id);
  acc->set_name(a.name);
  acc->set_state(a.state);
  set_balance(acc->mutable_wallet(), a.wallet);
  if (a.has_asset) set_balance(acc->mutable_asset(), a.asset);
  for (size_t i = 0; i < a.n_orders; i++) {
    const b_order &o = a.orders[i];
    auto *x = acc->add_orders();
    x->set_id(o.id);
    x->set_symbol(o.symbol);
    x->set_side(o.side);
    x->set_type(o.type);
    x->set_price(o.price);
    x->set_volume(o.volume);
  }
  add("account", acc, d);

  auto *s = new fbebench::Small;
  s->set_name(d->small.name);
  s->set_spouse(d->small.spouse != 0);
  s->set_siblings(d->small.siblings);
  s->set_money(d->small.money);
  s->set_birthday(d->small.birthday);
  add("small", s, d);

  auto *l = new fbebench::Large;
  for (size_t i = 0; i < d->large->n_ids; i++) l->add_ids(d->large->ids[i]);
  for (size_t i = 0; i < d->large->n_names; i++) l->add_names(d->large->names[i]);
  add("large", l, d);
}

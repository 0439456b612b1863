// FlatBuffers (C++ reference): encode builds the buffer from the data with a reused
// FlatBufferBuilder; decode verifies the buffer and reads every field out (strings as
// pointers into the buffer), since the format itself is read in place.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench_generated.h"
#include "harness.h"

namespace {

using namespace fbebench;

struct Ctx {
  const b_data *d;
  const char *workload;
  flatbuffers::FlatBufferBuilder fbb{1024};
  std::vector<uint8_t> bytes;
  b_account account;
  b_small small;
  b_large *large = static_cast<b_large *>(calloc(1, sizeof(b_large)));
};

flatbuffers::Offset<Balance> balance(flatbuffers::FlatBufferBuilder &fbb, const b_balance &b) {
  return CreateBalance(fbb, fbb.CreateString(b.currency), b.amount);
}

void build(Ctx &c) {
  auto &fbb = c.fbb;
  const b_data *d = c.d;
  fbb.Clear();
  if (!strcmp(c.workload, "account")) {
    const b_account &a = d->account;
    flatbuffers::Offset<Order> orders[B_MAX_ORDERS];
    for (size_t i = 0; i < a.n_orders; i++) {
      const b_order &o = a.orders[i];
      orders[i] = CreateOrder(fbb, o.id, fbb.CreateString(o.symbol), o.side, o.type, o.price, o.volume);
    }
    auto ov = fbb.CreateVector(orders, a.n_orders);
    auto name = fbb.CreateString(a.name);
    auto wallet = balance(fbb, a.wallet);
    auto asset = a.has_asset ? balance(fbb, a.asset) : flatbuffers::Offset<Balance>();
    fbb.Finish(CreateAccount(fbb, a.id, name, a.state, wallet, asset, ov));
  } else if (!strcmp(c.workload, "small")) {
    const b_small &s = d->small;
    fbb.Finish(CreateSmall(fbb, fbb.CreateString(s.name), s.spouse != 0, s.siblings, s.money, s.birthday));
  } else {
    const b_large &l = *d->large;
    flatbuffers::Offset<flatbuffers::String> names[B_MAX_NAMES];
    for (size_t i = 0; i < l.n_names; i++) names[i] = fbb.CreateString(l.names[i]);
    auto nv = fbb.CreateVector(names, l.n_names);
    auto iv = fbb.CreateVector(l.ids, l.n_ids);
    fbb.Finish(CreateLarge(fbb, iv, nv));
  }
}

b_balance plain(const Balance *b) {
  return b_balance{b && b->currency() ? b->currency()->c_str() : nullptr, b ? b->amount() : -1.0};
}

// Verifies and reads every field into the context's plain value; false when invalid.
bool read(Ctx &c) {
  flatbuffers::Verifier v(c.bytes.data(), c.bytes.size());
  if (!strcmp(c.workload, "account")) {
    if (!v.VerifyBuffer<Account>(nullptr)) return false;
    auto m = flatbuffers::GetRoot<Account>(c.bytes.data());
    b_account &a = c.account;
    a.id = m->id();
    a.name = m->name() ? m->name()->c_str() : nullptr;
    a.state = m->state();
    a.wallet = plain(m->wallet());
    a.has_asset = m->asset() != nullptr;
    if (a.has_asset) a.asset = plain(m->asset());
    auto orders = m->orders();
    a.n_orders = orders ? orders->size() : 0;
    if (a.n_orders > B_MAX_ORDERS) return false;
    for (size_t i = 0; i < a.n_orders; i++) {
      auto o = orders->Get(static_cast<flatbuffers::uoffset_t>(i));
      a.orders[i] = b_order{o->id(), o->symbol() ? o->symbol()->c_str() : nullptr, o->side(), o->type(),
                            o->price(), o->volume()};
    }
  } else if (!strcmp(c.workload, "small")) {
    if (!v.VerifyBuffer<Small>(nullptr)) return false;
    auto m = flatbuffers::GetRoot<Small>(c.bytes.data());
    c.small = b_small{m->name() ? m->name()->c_str() : nullptr, m->spouse(), m->siblings(), m->money(),
                      m->birthday()};
  } else {
    if (!v.VerifyBuffer<Large>(nullptr)) return false;
    auto m = flatbuffers::GetRoot<Large>(c.bytes.data());
    b_large &l = *c.large;
    l.n_ids = m->ids() ? m->ids()->size() : 0;
    l.n_names = m->names() ? m->names()->size() : 0;
    if (l.n_ids > B_MAX_IDS || l.n_names > B_MAX_NAMES) return false;
    if (l.n_ids) memcpy(l.ids, m->ids()->data(), l.n_ids * sizeof l.ids[0]);
    for (size_t i = 0; i < l.n_names; i++)
      l.names[i] = m->names()->Get(static_cast<flatbuffers::uoffset_t>(i))->c_str();
  }
  return true;
}

uint64_t encode(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  build(c);
  return c.fbb.GetSize();
}

uint64_t decode(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  if (!read(c)) b_die("flatbuffers", c.workload, "verify failed");
  return c.account.n_orders + c.large->n_ids;
}

void add(const char *workload, const b_data *d) {
  Ctx *c = new Ctx;
  c->d = d;
  c->workload = workload;
  build(*c);
  c->bytes.assign(c->fbb.GetBufferPointer(), c->fbb.GetBufferPointer() + c->fbb.GetSize());
  bool same = read(*c) && (!strcmp(workload, "account")  ? b_account_equal(&c->account, &d->account)
                           : !strcmp(workload, "small") ? b_small_equal(&c->small, &d->small)
                                                         : b_large_equal(c->large, d->large));
  if (!same) b_die("flatbuffers", workload, "round trip differs");
  b_add("flatbuffers-c++", workload, "table", c->bytes.size(), c, encode, decode);
}

}  // namespace

extern "C" void peer_flatbuffers(const b_data *d) {
  add("account", d);
  add("small", d);
  add("large", d);
}

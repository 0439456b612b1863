// FlatBuffers (C++ reference): encode builds the buffer from the data with a reused
// FlatBufferBuilder; the format is read in place, so decode verifies the buffer and
// reads one field (account: id, small: name, large: the count of ids), as libfbe-view's
// decode does, and decode_all verifies it and reads every field (strings as pointers
// into the buffer).
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
  char kind;  // the workload's first letter: a, s, l
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

bool verify(const Ctx &c) {
  flatbuffers::Verifier v(c.bytes.data(), c.bytes.size());
  return c.kind == 'a' ? v.VerifyBuffer<Account>(nullptr)
         : c.kind == 's' ? v.VerifyBuffer<Small>(nullptr)
                         : v.VerifyBuffer<Large>(nullptr);
}

uint64_t fold_str(uint64_t h, const flatbuffers::String *s) {
  return s ? b_fold_str(h, s->data(), s->size()) : b_fold(h, 0);
}

uint64_t fold_balance(uint64_t h, const Balance *b) {
  h = fold_str(h, b->currency());
  return b_fold_double(h, b->amount());
}

// Every field, read once (harness.h's fold).
uint64_t fold(const Ctx &c) {
  uint64_t h = B_FOLD_SEED;
  const uint8_t *buf = c.bytes.data();
  if (c.kind == 'a') {
    auto m = flatbuffers::GetRoot<Account>(buf);
    h = b_fold(h, static_cast<uint64_t>(static_cast<int64_t>(m->id())));
    h = fold_str(h, m->name());
    h = b_fold(h, static_cast<uint64_t>(static_cast<int64_t>(m->state())));
    h = fold_balance(h, m->wallet());
    auto asset = m->asset();
    h = b_fold(h, asset != nullptr);
    if (asset) h = fold_balance(h, asset);
    auto orders = m->orders();
    h = b_fold(h, orders->size());
    for (auto o : *orders) {
      h = b_fold(h, static_cast<uint64_t>(static_cast<int64_t>(o->id())));
      h = fold_str(h, o->symbol());
      h = b_fold(h, static_cast<uint64_t>(static_cast<int64_t>(o->side())));
      h = b_fold(h, static_cast<uint64_t>(static_cast<int64_t>(o->type())));
      h = b_fold_double(h, o->price());
      h = b_fold_double(h, o->volume());
    }
  } else if (c.kind == 's') {
    auto m = flatbuffers::GetRoot<Small>(buf);
    h = fold_str(h, m->name());
    h = b_fold(h, m->spouse() ? 1 : 0);
    h = b_fold(h, static_cast<uint64_t>(static_cast<int64_t>(m->siblings())));
    h = b_fold_double(h, m->money());
    h = b_fold(h, static_cast<uint64_t>(m->birthday()));
  } else {
    auto m = flatbuffers::GetRoot<Large>(buf);
    auto ids = m->ids();
    h = b_fold(h, ids->size());
    for (auto id : *ids) h = b_fold(h, static_cast<uint64_t>(id));
    auto names = m->names();
    h = b_fold(h, names->size());
    for (auto n : *names) h = fold_str(h, n);
  }
  return h;
}

// The first field only.
uint64_t first(const Ctx &c) {
  const uint8_t *buf = c.bytes.data();
  if (c.kind == 'a') return static_cast<uint64_t>(flatbuffers::GetRoot<Account>(buf)->id());
  if (c.kind == 's') return fold_str(0, flatbuffers::GetRoot<Small>(buf)->name());
  return flatbuffers::GetRoot<Large>(buf)->ids()->size();
}

uint64_t encode(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  build(c);
  return c.fbb.GetSize();
}

uint64_t decode(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  if (!verify(c)) b_die("flatbuffers", c.workload, "verify failed");
  return first(c);
}

uint64_t decode_all(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  if (!verify(c)) b_die("flatbuffers", c.workload, "verify failed");
  return fold(c);
}

void add(const char *workload, const b_data *d) {
  Ctx *c = new Ctx;
  c->d = d;
  c->workload = workload;
  c->kind = workload[0];
  build(*c);
  c->bytes.assign(c->fbb.GetBufferPointer(), c->fbb.GetBufferPointer() + c->fbb.GetSize());
  bool same = read(*c) && (!strcmp(workload, "account")  ? b_account_equal(&c->account, &d->account)
                           : !strcmp(workload, "small") ? b_small_equal(&c->small, &d->small)
                                                         : b_large_equal(c->large, d->large));
  if (!same) b_die("flatbuffers", workload, "round trip differs");
  b_add("flatbuffers-c++", workload, "table", c->bytes.size(), c, encode, decode, nullptr, decode_all);
}

}  // namespace

extern "C" void peer_flatbuffers(const b_data *d) {
  add("account", d);
  add("small", d);
  add("large", d);
}

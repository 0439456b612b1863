// Cap'n Proto (C++ reference): encode builds a message from the data in a
// MallocMessageBuilder and writes it (segment table and all) into a reused buffer;
// the format is read in place: decode opens the bytes with FlatArrayMessageReader
// (every access bounds-checked) and reads one field (account: id, small: name, large:
// the count of ids), as libfbe-view's decode does; decode_all opens them and reads
// every field (strings as pointers into the buffer).
#include <cstdlib>
#include <cstring>

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include "bench.capnp.h"
#include "harness.h"

namespace {

using namespace fbebench;

struct Ctx {
  const b_data *d;
  const char *workload;
  char kind;  // the workload's first letter: a, s, l
  kj::Array<capnp::word> out, bytes;
  size_t size = 0;
  b_account account;
  b_small small;
  b_large *large = static_cast<b_large *>(calloc(1, sizeof(b_large)));
};

void set_balance(Balance::Builder b, const b_balance &v) {
  b.setCurrency(v.currency);
  b.setAmount(v.amount);
}

void build(const Ctx &c, capnp::MessageBuilder &mb) {
  const b_data *d = c.d;
  if (!strcmp(c.workload, "account")) {
    const b_account &a = d->account;
    auto m = mb.initRoot<Account>();
    m.setId(a.id);
    m.setName(a.name);
    m.setState(a.state);
    set_balance(m.initWallet(), a.wallet);
    if (a.has_asset) set_balance(m.initAsset(), a.asset);
    auto orders = m.initOrders(static_cast<unsigned>(a.n_orders));
    for (unsigned i = 0; i < a.n_orders; i++) {
      const b_order &o = a.orders[i];
      auto x = orders[i];
      x.setId(o.id);
      x.setSymbol(o.symbol);
      x.setSide(o.side);
      x.setType(o.type);
      x.setPrice(o.price);
      x.setVolume(o.volume);
    }
  } else if (!strcmp(c.workload, "small")) {
    auto m = mb.initRoot<Small>();
    m.setName(d->small.name);
    m.setSpouse(d->small.spouse != 0);
    m.setSiblings(d->small.siblings);
    m.setMoney(d->small.money);
    m.setBirthday(d->small.birthday);
  } else {
    const b_large &l = *d->large;
    auto m = mb.initRoot<Large>();
    auto ids = m.initIds(static_cast<unsigned>(l.n_ids));
    for (unsigned i = 0; i < l.n_ids; i++) ids.set(i, l.ids[i]);
    auto names = m.initNames(static_cast<unsigned>(l.n_names));
    for (unsigned i = 0; i < l.n_names; i++) names.set(i, l.names[i]);
  }
}

// Writes the message into c.out; returns its size in bytes.
size_t write(Ctx &c) {
  capnp::MallocMessageBuilder mb;
  build(c, mb);
  kj::ArrayOutputStream os(c.out.asBytes());
  capnp::writeMessage(os, mb);
  return os.getArray().size();
}

b_balance plain(Balance::Reader b) { return b_balance{b.getCurrency().cStr(), b.getAmount()}; }

void read(Ctx &c) {
  capnp::FlatArrayMessageReader reader(c.bytes.slice(0, c.size / sizeof(capnp::word)));
  if (!strcmp(c.workload, "account")) {
    auto m = reader.getRoot<Account>();
    b_account &a = c.account;
    a.id = m.getId();
    a.name = m.getName().cStr();
    a.state = m.getState();
    a.wallet = plain(m.getWallet());
    a.has_asset = m.hasAsset();
    if (a.has_asset) a.asset = plain(m.getAsset());
    auto orders = m.getOrders();
    a.n_orders = orders.size() <= B_MAX_ORDERS ? orders.size() : 0;
    for (unsigned i = 0; i < a.n_orders; i++) {
      auto o = orders[i];
      a.orders[i] = b_order{o.getId(), o.getSymbol().cStr(), o.getSide(), o.getType(), o.getPrice(), o.getVolume()};
    }
  } else if (!strcmp(c.workload, "small")) {
    auto m = reader.getRoot<Small>();
    c.small = b_small{m.getName().cStr(), m.getSpouse(), m.getSiblings(), m.getMoney(), m.getBirthday()};
  } else {
    auto m = reader.getRoot<Large>();
    b_large &l = *c.large;
    auto ids = m.getIds();
    auto names = m.getNames();
    l.n_ids = ids.size() <= B_MAX_IDS ? ids.size() : 0;
    l.n_names = names.size() <= B_MAX_NAMES ? names.size() : 0;
    for (unsigned i = 0; i < l.n_ids; i++) l.ids[i] = ids[i];
    for (unsigned i = 0; i < l.n_names; i++) l.names[i] = names[i].cStr();
  }
}

uint64_t encode(void *p) { return write(*static_cast<Ctx *>(p)); }

uint64_t fold_str(uint64_t h, capnp::Text::Reader s) { return b_fold_str(h, s.begin(), s.size()); }

uint64_t fold_balance(uint64_t h, Balance::Reader b) {
  h = fold_str(h, b.getCurrency());
  return b_fold_double(h, b.getAmount());
}

uint64_t i64(int64_t v) { return static_cast<uint64_t>(v); }

uint64_t decode(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  capnp::FlatArrayMessageReader reader(c.bytes.slice(0, c.size / sizeof(capnp::word)));
  if (c.kind == 'a') return i64(reader.getRoot<Account>().getId());
  if (c.kind == 's') return fold_str(0, reader.getRoot<Small>().getName());
  return reader.getRoot<Large>().getIds().size();
}

uint64_t decode_all(void *p) {
  Ctx &c = *static_cast<Ctx *>(p);
  capnp::FlatArrayMessageReader reader(c.bytes.slice(0, c.size / sizeof(capnp::word)));
  uint64_t h = B_FOLD_SEED;
  if (c.kind == 'a') {
    auto m = reader.getRoot<Account>();
    h = b_fold(h, i64(m.getId()));
    h = fold_str(h, m.getName());
    h = b_fold(h, i64(m.getState()));
    h = fold_balance(h, m.getWallet());
    bool has = m.hasAsset();
    h = b_fold(h, has);
    if (has) h = fold_balance(h, m.getAsset());
    auto orders = m.getOrders();
    h = b_fold(h, orders.size());
    for (auto o : orders) {
      h = b_fold(h, i64(o.getId()));
      h = fold_str(h, o.getSymbol());
      h = b_fold(h, i64(o.getSide()));
      h = b_fold(h, i64(o.getType()));
      h = b_fold_double(h, o.getPrice());
      h = b_fold_double(h, o.getVolume());
    }
  } else if (c.kind == 's') {
    auto m = reader.getRoot<Small>();
    h = fold_str(h, m.getName());
    h = b_fold(h, m.getSpouse() ? 1 : 0);
    h = b_fold(h, i64(m.getSiblings()));
    h = b_fold_double(h, m.getMoney());
    h = b_fold(h, i64(m.getBirthday()));
  } else {
    auto m = reader.getRoot<Large>();
    auto ids = m.getIds();
    h = b_fold(h, ids.size());
    for (auto id : ids) h = b_fold(h, i64(id));
    auto names = m.getNames();
    h = b_fold(h, names.size());
    for (auto n : names) h = fold_str(h, n);
  }
  return h;
}

void add(const char *workload, const b_data *d) {
  Ctx *c = new Ctx;
  c->d = d;
  c->workload = workload;
  c->kind = workload[0];
  {
    capnp::MallocMessageBuilder mb;
    build(*c, mb);
    size_t words = capnp::computeSerializedSizeInWords(mb);
    c->out = kj::heapArray<capnp::word>(words);
    c->bytes = kj::heapArray<capnp::word>(words);
  }
  c->size = write(*c);
  memcpy(c->bytes.begin(), c->out.begin(), c->size);
  bool same;
  try {
    read(*c);
    same = !strcmp(workload, "account") ? b_account_equal(&c->account, &d->account)
           : !strcmp(workload, "small") ? b_small_equal(&c->small, &d->small)
                                        : b_large_equal(c->large, d->large);
  } catch (const kj::Exception &) {
    same = false;
  }
  if (!same) b_die("capnproto", workload, "round trip differs");
  b_add("capnproto-c++", workload, "message", c->size, c, encode, decode, nullptr, decode_all);
}

}  // namespace

extern "C" void peer_capnp(const b_data *d) {
  add("account", d);
  add("small", d);
  add("large", d);
}

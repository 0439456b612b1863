// The C++ API (fbe.hpp) against the C API it wraps, operation by operation, both models,
// on the three workloads of benchmarks/README.md: account (proto.Account, the reference
// README's value with three orders), small (one record of five scalars and a string),
// large (1,000 int64 ids and 100 strings); values from benchmarks/data/*.json:
//   encode      reset a reused buffer, encode into it    fbe_encode       | m.encode(buffer&)
//   decode      verified decode reusing one arena         fbe_decode       | type.decode_into(m, bytes)
//   decode_new  verified decode into a value of its own   arena new+free   | type.decode(bytes)
//   verify                                                fbe_verify       | type.verify(bytes)
//   view        open a view and read fields in place     fbe_view_*       | type.open_view(bytes)[...]
//               (account: id, name, every order's price; small: name, siblings, money;
//               large: the sum of the ids and of the names' lengths)
// Two modes (REPO: the repository root, for schemas/ and benchmarks/data/):
//   fbe_cpp_bench WORKLOAD OP API N REPO   runs OP (e.g. encode_final) of API (c, cpp) N
//                                          times: benchmarks/cpp/instructions.sh counts it
//                                          under callgrind (Ir(N) - Ir(0)) / N
//   fbe_cpp_bench time REPO [--quick]      ns/op of every OP of both APIs on every
//                                          workload, in interleaved rounds (a slow spell
//                                          of a shared machine hits both alike), the
//                                          median of 7
// The operation and API are chosen before the loop, so the harness is not counted.
#include <fbe/fbe.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <iterator>
#include <string>
#include <vector>

namespace {

volatile std::uint64_t sink;

enum class workload { account, small, large };

std::string read_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct fixture {
  workload w;
  fbe::schema schema;
  fbe::struct_type type;
  fbe::message value;
  fbe::model model;
  std::vector<std::uint8_t> bytes;
  fixture(const std::string &repo, workload wl, fbe::model m)
      : w(wl),
        schema(load(repo, wl)),
        type(*schema.find(wl == workload::account ? "Account" : wl == workload::small ? "Small" : "Large")),
        value(type.from_json(read_text(repo + "/benchmarks/data/" + name(wl) + ".json"))),
        model(m),
        bytes(value.encode(m)) {}
  static const char *name(workload wl) {
    return wl == workload::account ? "account" : wl == workload::small ? "small" : "large";
  }
  static fbe::schema load(const std::string &repo, workload wl) {
    if (wl == workload::account) return fbe::schema::load_package("proto", {repo + "/schemas"});
    return fbe::schema::load_file(repo + "/schemas/bench/" + name(wl) + ".fbe", {repo + "/schemas"});
  }
};

// ---- the C API
void c_encode(fixture &f, long n) {
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_error err;
  for (long i = 0; i < n; i++) {
    fbe_buffer_reset(&out);
    if (fbe_encode(f.value.raw(), static_cast<fbe_model>(f.model), &out, &err)) std::abort();
    sink += out.size;
  }
  fbe_buffer_free(&out);
}
void c_decode(fixture &f, long n) {
  fbe_arena *work = fbe_arena_new();
  fbe_msg *back = nullptr;
  std::size_t size = 0;
  fbe_error err;
  for (long i = 0; i < n; i++) {
    fbe_arena_reset(work);
    if (fbe_decode(f.type.raw(), static_cast<fbe_model>(f.model), f.bytes.data(), f.bytes.size(), work, nullptr, &back,
                   &size, &err))
      std::abort();
    sink += size;
  }
  fbe_arena_free(work);
}
void c_decode_new(fixture &f, long n) {
  fbe_msg *back = nullptr;
  std::size_t size = 0;
  fbe_error err;
  for (long i = 0; i < n; i++) {
    fbe_arena *arena = fbe_arena_new();
    if (!arena || fbe_decode(f.type.raw(), static_cast<fbe_model>(f.model), f.bytes.data(), f.bytes.size(), arena,
                             nullptr, &back, &size, &err))
      std::abort();
    sink += size;
    fbe_arena_free(arena);
  }
}
void c_verify(fixture &f, long n) {
  std::size_t size = 0;
  fbe_error err;
  for (long i = 0; i < n; i++) {
    if (fbe_verify(f.type.raw(), static_cast<fbe_model>(f.model), f.bytes.data(), f.bytes.size(), nullptr, &size, &err))
      std::abort();
    sink += size;
  }
}
std::uint64_t c_view_account(fbe_view v) {
  std::int64_t id = 0;
  const std::uint8_t *name = nullptr;
  std::size_t name_size = 0;
  if (fbe_view_get_int(fbe_view_field_named(v, "id"), &id) ||
      fbe_view_get_bytes(fbe_view_field_named(v, "name"), &name, &name_size))
    std::abort();
  // every element with fbe_view_iterate / fbe_view_next (O(1) a step), as range-for does
  fbe_view_iter it = fbe_view_iterate(fbe_view_field_named(v, "orders"));
  fbe_view order;
  double total = 0;
  while (fbe_view_next(&it, &order, nullptr)) {
    double price = 0;
    if (fbe_view_get_double(fbe_view_field_named(order, "price"), &price)) std::abort();
    total += price;
  }
  return static_cast<std::uint64_t>(id) + name_size + static_cast<std::uint64_t>(total);
}
std::uint64_t c_view_small(fbe_view v) {
  const std::uint8_t *name = nullptr;
  std::size_t name_size = 0;
  std::int64_t siblings = 0;
  double money = 0;
  if (fbe_view_get_bytes(fbe_view_field_named(v, "name"), &name, &name_size) ||
      fbe_view_get_int(fbe_view_field_named(v, "siblings"), &siblings) ||
      fbe_view_get_double(fbe_view_field_named(v, "money"), &money))
    std::abort();
  return name_size + static_cast<std::uint64_t>(siblings) + static_cast<std::uint64_t>(money);
}
std::uint64_t c_view_large(fbe_view v) {
  std::uint64_t total = 0;
  fbe_view item;
  fbe_view_iter ids = fbe_view_iterate(fbe_view_field_named(v, "ids"));
  while (fbe_view_next(&ids, &item, nullptr)) {
    std::int64_t id = 0;
    if (fbe_view_get_int(item, &id)) std::abort();
    total += static_cast<std::uint64_t>(id);
  }
  fbe_view_iter names = fbe_view_iterate(fbe_view_field_named(v, "names"));
  while (fbe_view_next(&names, &item, nullptr)) {
    const std::uint8_t *name = nullptr;
    std::size_t size = 0;
    if (fbe_view_get_bytes(item, &name, &size)) std::abort();
    total += size;
  }
  return total;
}
void c_view(fixture &f, long n) {
  fbe_error err;
  std::uint64_t (*read)(fbe_view) =
      f.w == workload::account ? c_view_account : f.w == workload::small ? c_view_small : c_view_large;
  for (long i = 0; i < n; i++) {
    fbe_view v;
    if (fbe_view_open(f.type.raw(), static_cast<fbe_model>(f.model), f.bytes.data(), f.bytes.size(), nullptr, &v, &err))
      std::abort();
    sink += read(v);
  }
}

// ---- the C++ API
void cpp_encode(fixture &f, long n) {
  fbe::buffer out;
  for (long i = 0; i < n; i++) {
    out.clear();
    f.value.encode(out, f.model);
    sink += out.size();
  }
}
void cpp_decode(fixture &f, long n) {
  fbe::message back = f.type.make();
  for (long i = 0; i < n; i++) {
    f.type.decode_into(back, f.bytes, f.model);
    sink += 1;
  }
}
void cpp_decode_new(fixture &f, long n) {
  for (long i = 0; i < n; i++) {
    fbe::message back = f.type.decode(f.bytes, f.model);
    sink += 1;
  }
}
void cpp_verify(fixture &f, long n) {
  for (long i = 0; i < n; i++) sink += f.type.verify(f.bytes, f.model);
}
std::uint64_t cpp_view_account(const fbe::view &v) {
  auto id = v["id"].get<std::int64_t>();
  auto name = v["name"].get<std::string_view>();
  double total = 0;
  for (fbe::view_ref order : v["orders"]) total += order["price"].get<double>();
  return static_cast<std::uint64_t>(id) + name.size() + static_cast<std::uint64_t>(total);
}
std::uint64_t cpp_view_small(const fbe::view &v) {
  return v["name"].get<std::string_view>().size() + static_cast<std::uint64_t>(v["siblings"].get<std::int64_t>()) +
         static_cast<std::uint64_t>(v["money"].get<double>());
}
std::uint64_t cpp_view_large(const fbe::view &v) {
  std::uint64_t total = 0;
  for (fbe::view_ref id : v["ids"]) total += static_cast<std::uint64_t>(id.get<std::int64_t>());
  for (fbe::view_ref name : v["names"]) total += name.get<std::string_view>().size();
  return total;
}
void cpp_view(fixture &f, long n) {
  std::uint64_t (*read)(const fbe::view &) =
      f.w == workload::account ? cpp_view_account : f.w == workload::small ? cpp_view_small : cpp_view_large;
  for (long i = 0; i < n; i++) sink += read(f.type.open_view(f.bytes, f.model));
}

struct operation {
  const char *name;
  void (*c)(fixture &, long);
  void (*cpp)(fixture &, long);
};
const operation OPERATIONS[] = {
    {"encode", c_encode, cpp_encode},          {"decode", c_decode, cpp_decode},
    {"decode_new", c_decode_new, cpp_decode_new}, {"verify", c_verify, cpp_verify},
    {"view", c_view, cpp_view},
};

double ns_per_op(void (*run)(fixture &, long), fixture &f, double min_seconds) {
  using clock = std::chrono::steady_clock;
  long n = 1000;
  for (;;) {
    auto t0 = clock::now();
    run(f, n);
    double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (s >= min_seconds) return s * 1e9 / static_cast<double>(n);
    n = s > 0 ? static_cast<long>(static_cast<double>(n) * std::min(10.0, 1.2 * min_seconds / s)) + 1 : n * 10;
  }
}

int time_all(const std::string &repo, bool quick) {
  const int rounds = quick ? 3 : 7;
  const double min_seconds = quick ? 0.05 : 0.2;
  std::printf("%-8s %-8s %-11s %10s %10s %7s\n", "workload", "model", "op", "C ns", "C++ ns", "ratio");
  for (workload w : {workload::account, workload::small, workload::large}) {
    for (fbe::model m : {fbe::model::standard, fbe::model::final_}) {
      fixture f(repo, w, m);
      for (const operation &op : OPERATIONS) {
        std::vector<double> c, cpp;
        for (int r = 0; r < rounds; r++) {  // interleaved: C, C++, C, C++, ...
          c.push_back(ns_per_op(op.c, f, min_seconds));
          cpp.push_back(ns_per_op(op.cpp, f, min_seconds));
        }
        std::sort(c.begin(), c.end());
        std::sort(cpp.begin(), cpp.end());
        double mc = c[c.size() / 2], mcpp = cpp[cpp.size() / 2];
        std::printf("%-8s %-8s %-11s %10.1f %10.1f %7.3f\n", fixture::name(w),
                    m == fbe::model::standard ? "standard" : "final", op.name, mc, mcpp, mcpp / mc);
      }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  try {
    if (argc >= 3 && std::strcmp(argv[1], "time") == 0)
      return time_all(argv[2], std::strcmp(argv[argc - 1], "--quick") == 0);
    if (argc != 6) {
      std::fprintf(stderr, "usage: fbe_cpp_bench WORKLOAD OP API N REPO | fbe_cpp_bench time REPO [--quick]\n");
      return 2;
    }
    std::string w_name = argv[1], op_name = argv[2];
    workload w = w_name == "account" ? workload::account : w_name == "small" ? workload::small : workload::large;
    if (w_name != fixture::name(w)) {
      std::fprintf(stderr, "fbe_cpp_bench: no workload %s\n", argv[1]);
      return 2;
    }
    fbe::model m = fbe::model::standard;
    if (op_name.size() > 6 && op_name.compare(op_name.size() - 6, 6, "_final") == 0) {
      m = fbe::model::final_;
      op_name.resize(op_name.size() - 6);
    } else if (op_name.size() > 9 && op_name.compare(op_name.size() - 9, 9, "_standard") == 0) {
      op_name.resize(op_name.size() - 9);
    }
    fixture f(argv[5], w, m);
    for (const operation &op : OPERATIONS) {
      if (op_name == op.name) {
        (std::strcmp(argv[3], "c") == 0 ? op.c : op.cpp)(f, std::atol(argv[4]));
        return 0;
      }
    }
    std::fprintf(stderr, "fbe_cpp_bench: no operation %s\n", argv[2]);
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "fbe_cpp_bench: %s\n", e.what());
    return 1;
  }
}

// The C++ API (fbe.hpp) against the C API it wraps, on proto.Account (the reference
// README's value with three orders), operation by operation, both models:
//   encode      reset a reused buffer, encode into it    fbe_encode       | m.encode(buffer&)
//   decode      verified decode reusing one arena         fbe_decode       | type.decode_into(m, bytes)
//   decode_new  verified decode into a value of its own   arena new+free   | type.decode(bytes)
//   verify                                                fbe_verify       | type.verify(bytes)
//   view        open a view, read id, name and every      fbe_view_*       | type.open_view(bytes)[...]
//               order's price
// Two modes:
//   fbe_cpp_bench OP API N [SCHEMAS_DIR]   runs OP (e.g. encode_final) of API (c, cpp) N
//                                          times: benchmarks/cpp/instructions.sh counts it
//                                          under callgrind (Ir(N) - Ir(0)) / N
//   fbe_cpp_bench time [SCHEMAS_DIR] [--quick]   ns/op of every OP of both APIs, in
//                                          interleaved rounds (a slow spell of a shared
//                                          machine hits both alike), the median of 7
// The operation and API are chosen before the loop, so the harness is not counted.
#include <fbe/fbe.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char ACCOUNT_JSON[] =
    R"({"id":1,"name":"Test","state":6,"wallet":{"currency":"USD","amount":1000.0},)"
    R"("asset":{"currency":"EUR","amount":100.0},"orders":[)"
    R"({"id":1,"symbol":"EURUSD","side":0,"type":0,"price":1.23456,"volume":1000.0},)"
    R"({"id":2,"symbol":"EURUSD","side":1,"type":1,"price":1.0,"volume":100.0},)"
    R"({"id":3,"symbol":"EURUSD","side":0,"type":2,"price":1.5,"volume":10.0}]})";

volatile std::uint64_t sink;

struct fixture {
  fbe::schema schema;
  fbe::struct_type type;
  fbe::message value;
  fbe::model model;
  std::vector<std::uint8_t> bytes;
  fixture(const char *dir, fbe::model m)
      : schema(fbe::schema::load_package("proto", {dir})),
        type(*schema.find("Account")),
        value(type.from_json(ACCOUNT_JSON)),
        model(m),
        bytes(value.encode(m)) {}
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
void c_view(fixture &f, long n) {
  fbe_error err;
  for (long i = 0; i < n; i++) {
    fbe_view v;
    if (fbe_view_open(f.type.raw(), static_cast<fbe_model>(f.model), f.bytes.data(), f.bytes.size(), nullptr, &v, &err))
      std::abort();
    std::int64_t id = 0;
    const std::uint8_t *name = nullptr;
    std::size_t name_size = 0;
    if (fbe_view_get_int(fbe_view_field_named(v, "id"), &id) ||
        fbe_view_get_bytes(fbe_view_field_named(v, "name"), &name, &name_size))
      std::abort();
    fbe_view orders = fbe_view_field_named(v, "orders");
    double total = 0;
    for (std::size_t k = 0, count = fbe_view_count(orders); k < count; k++) {
      double price = 0;
      if (fbe_view_get_double(fbe_view_field_named(fbe_view_at(orders, k), "price"), &price)) std::abort();
      total += price;
    }
    sink += static_cast<std::uint64_t>(id) + name_size + static_cast<std::uint64_t>(total);
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
void cpp_view(fixture &f, long n) {
  for (long i = 0; i < n; i++) {
    fbe::view v = f.type.open_view(f.bytes, f.model);
    auto id = v["id"].get<std::int64_t>();
    auto name = v["name"].get<std::string_view>();
    double total = 0;
    for (fbe::view_ref order : v["orders"]) total += order["price"].get<double>();
    sink += static_cast<std::uint64_t>(id) + name.size() + static_cast<std::uint64_t>(total);
  }
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

int time_all(const char *dir, bool quick) {
  const int rounds = quick ? 3 : 7;
  const double min_seconds = quick ? 0.05 : 0.2;
  std::printf("%-8s %-11s %8s %8s %7s\n", "model", "op", "C ns", "C++ ns", "ratio");
  for (fbe::model m : {fbe::model::standard, fbe::model::final_}) {
    fixture f(dir, m);
    for (const operation &op : OPERATIONS) {
      std::vector<double> c, cpp;
      for (int r = 0; r < rounds; r++) {  // interleaved: C, C++, C, C++, ...
        c.push_back(ns_per_op(op.c, f, min_seconds));
        cpp.push_back(ns_per_op(op.cpp, f, min_seconds));
      }
      std::sort(c.begin(), c.end());
      std::sort(cpp.begin(), cpp.end());
      double mc = c[c.size() / 2], mcpp = cpp[cpp.size() / 2];
      std::printf("%-8s %-11s %8.1f %8.1f %7.3f\n", m == fbe::model::standard ? "standard" : "final", op.name, mc, mcpp,
                  mcpp / mc);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  try {
    if (argc >= 2 && std::strcmp(argv[1], "time") == 0) {
      const char *dir = argc > 2 && argv[2][0] != '-' ? argv[2] : "schemas";
      bool quick = std::strcmp(argv[argc - 1], "--quick") == 0;
      return time_all(dir, quick);
    }
    if (argc < 4) {
      std::fprintf(stderr, "usage: fbe_cpp_bench OP API N [SCHEMAS_DIR] | fbe_cpp_bench time [SCHEMAS_DIR] [--quick]\n");
      return 2;
    }
    std::string op_name = argv[1];
    fbe::model m = fbe::model::standard;
    if (op_name.size() > 6 && op_name.compare(op_name.size() - 6, 6, "_final") == 0) {
      m = fbe::model::final_;
      op_name.resize(op_name.size() - 6);
    } else if (op_name.size() > 9 && op_name.compare(op_name.size() - 9, 9, "_standard") == 0) {
      op_name.resize(op_name.size() - 9);
    }
    fixture f(argc > 4 ? argv[4] : "schemas", m);
    for (const operation &op : OPERATIONS) {
      if (op_name == op.name) {
        (std::strcmp(argv[2], "c") == 0 ? op.c : op.cpp)(f, std::atol(argv[3]));
        return 0;
      }
    }
    std::fprintf(stderr, "fbe_cpp_bench: no operation %s\n", argv[1]);
    return 2;
  } catch (const fbe::error &e) {
    std::fprintf(stderr, "fbe_cpp_bench: %s\n", e.what());
    return 1;
  }
}

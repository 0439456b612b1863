#!/usr/bin/env bash
# Instructions per operation of the C++ API (fbe.hpp) beside the C API it wraps, on
# the three workloads (account, small, large), counted with callgrind as
# benchmarks/c/instructions.sh counts the C core: (Ir(N) - Ir(0)) / N for each operation
# of benchmarks/cpp/bench.cpp, both models, both APIs, from one binary (the same
# compiler and flags for both).
#   benchmarks/cpp/instructions.sh      prints a markdown table: workload, model,
#                                       operation, C, C++, C++ - C
# Builds fbe_static (CMake Release) in build/instructions-cpp ($FBE_INSTRUCTIONS_BUILD)
# and bench.cpp with -O2 against it. Counts are load-independent.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${FBE_INSTRUCTIONS_BUILD:-$repo/build/instructions-cpp}
n=2000
ops="encode decode decode_new verify view"
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed" >&2; exit 1; }

cmake -S "$repo" -B "$out" -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_TESTS=OFF -DFBE_BUILD_CLI=OFF \
  -DFBE_BUILD_BENCH=OFF >/dev/null
cmake --build "$out" --target fbe_static -j2 >/dev/null
${CXX:-c++} -std=c++17 -O2 -DFBE_STATIC -I"$repo/core/include" -I"$repo/bindings/cpp/include" \
  "$repo/benchmarks/cpp/bench.cpp" "$out/libfbe.a" -lm -o "$out/fbe_cpp_bench"

count() { # WORKLOAD OP API N -> instructions
  local log ir
  log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$out/fbe_cpp_bench" "$1" "$2" "$3" "$4" "$repo" 2>&1) ||
    { printf 'instructions.sh: %s %s %s %s failed:\n%s\n' "$1" "$2" "$3" "$4" "$log" >&2; return 1; }
  ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$log")
  [ -n "$ir" ] || { printf 'instructions.sh: no count from callgrind:\n%s\n' "$log" >&2; return 1; }
  echo "$ir"
}
per_op() { # WORKLOAD OP API -> instructions of one operation
  local many none
  many=$(count "$1" "$2" "$3" $n)
  none=$(count "$1" "$2" "$3" 0)
  echo $(( (many - none) / n ))
}

echo "compiler: $(${CXX:-c++} --version | sed -n 1p); libfbe.a: CMake Release; bench.cpp: -std=c++17 -O2; n: $n"
echo
echo "| workload | model | operation | C API | C++ API | C++ − C |"
echo "| --- | --- | --- | ---: | ---: | ---: |"
for workload in account small large; do
  for model in standard final; do
    for op in $ops; do
      c=$(per_op "$workload" "${op}_$model" c)
      cpp=$(per_op "$workload" "${op}_$model" cpp)
      printf '| %s | %s | %s | %d | %d | %+d |\n' "$workload" "$model" "$op" "$c" "$cpp" $((cpp - c))
    done
  done
done

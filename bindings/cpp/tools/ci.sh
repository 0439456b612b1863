#!/usr/bin/env bash
# The "cpp" stage of ci/test.sh: builds and tests the C++ API (bindings/cpp, fbe.hpp).
#   1. gcc, Release, -Werror: the core, fbe-cpp-testee and the GoogleTest unit tests;
#      ctest -L cpp (API, errors, protocol, a million cycles with fbe_memory_in_use back
#      where it was, lifetimes; the testee beside the C one through the shared runner over
#      every conformance file, the generated batch, the regressions, the behaviour records
#      and the conversations, with text, native and view checks)
#   2. clang with ASan+UBSan, -Werror: the unit tests again, and the testee through the
#      runner (vectors, malformed, versioning, behaviour, conversations)
#   3. cmake --install into a temporary prefix; a consumer CMake project outside the
#      repository (tools/consumer: find_package(fbe REQUIRED), fbe::cpp) builds the
#      Account field by field and must write the conformance vector's bytes
#   4. the installed fbe-cpp-testee, beside the installed fbe, through the runner from a
#      folder outside the repository (copies of the schemas and conformance files)
#   5. the benchmark (benchmarks/cpp, fbe_cpp_bench) once: every operation of both APIs
#      on every workload a few times, so that it builds and runs (figures:
#      benchmarks/cpp/instructions.sh and `fbe_cpp_bench time`, benchmarks/results/cpp.md)
# Prints each step with its duration; exits non-zero when any step failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
repo=$PWD
jobs=${FBE_JOBS:-2}
gcc_tree=$repo/build/cpp # also the tree ci/testees.sh takes the testee from
asan_tree=$repo/build/cpp-asan-clang
cpp_targets=(fbe fbe_shared fbe_static fbe-cpp-testee cpp_test_api cpp_test_protocol cpp_test_memory cpp_test_span fbe_cpp_bench)

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
step_t0=0
step() {
  step_t0=$(now_us)
  printf -- '-- cpp: %s\n' "$1"
}
done_step() {
  local us=$(($(now_us) - step_t0))
  printf -- '-- cpp: ... %d.%d s\n' $((us / 1000000)) $((us % 1000000 / 100000))
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fbe-cpp.XXXXXX") # outside the repository
trap 'rm -rf "$tmp"' EXIT

echo "cpp: $(c++ --version | sed -n 1p); $(clang++ --version | sed -n 1p)"

step "cc/c++ (gcc) Release -Werror: build, ctest -L cpp"
cmake -S . -B "$gcc_tree" -DCMAKE_BUILD_TYPE=Release \
  -DFBE_BUILD_CPP=ON -DFBE_BUILD_TESTS=ON -DFBE_BUILD_CLI=ON -DFBE_BUILD_BENCH=ON -DFBE_WERROR=ON >/dev/null
cmake --build "$gcc_tree" -j"$jobs" --target "${cpp_targets[@]}" >/dev/null
(cd "$gcc_tree" && ctest -L cpp --output-on-failure -j"$jobs")
done_step

step "clang ASan+UBSan -Werror: the unit tests, the testee through the runner"
cmake -S . -B "$asan_tree" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DFBE_SANITIZE=address,undefined -DFBE_BUILD_CPP=ON -DFBE_BUILD_TESTS=ON -DFBE_BUILD_CLI=ON \
  -DFBE_WERROR=ON >/dev/null
cmake --build "$asan_tree" -j"$jobs" --target cpp_test_api cpp_test_protocol cpp_test_memory cpp_test_span fbe-cpp-testee >/dev/null
(cd "$asan_tree" && ctest -R '^cpp_test_' --output-on-failure -j"$jobs")
# and its testee beside the C tool's through the runner: a sanitizer report ends the
# process, so it fails the checks
python3 tests/conformance/runner --text --native --view \
  --testee "c=$gcc_tree/bin/fbe testee" --testee "cpp=$asan_tree/bin/fbe-cpp-testee" \
  --behaviour tests/conformance/behaviour.jsonl --conversations tests/conformance/conversations.jsonl \
  tests/conformance/vectors.jsonl tests/conformance/malformed.jsonl tests/conformance/malformed-extra.jsonl \
  tests/conformance/versioning.jsonl | tail -n 1
done_step

step "install, and a consumer project outside the repository: find_package(fbe), fbe::cpp"
prefix=$tmp/prefix
cmake --install "$gcc_tree" --prefix "$prefix" >/dev/null
ls "$prefix/include/fbe/fbe.hpp" "$prefix/bin/fbe-cpp-testee" >/dev/null
cp -r bindings/cpp/tools/consumer "$tmp/consumer"
cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/consumer/build" >/dev/null
hex=$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line) if line.strip() else {}
    if r.get("id") == "pub-proto-Account-readme-standard": print(r["hex"])' tests/conformance/vectors.jsonl)
"$tmp/consumer/build/account" "$repo/schemas" "$hex"
done_step

step "the installed fbe-cpp-testee through the runner (outside the repository)"
cp -r schemas "$tmp/schemas"
cp tests/conformance/vectors.jsonl tests/conformance/malformed.jsonl tests/conformance/malformed-extra.jsonl \
  tests/conformance/versioning.jsonl tests/conformance/behaviour.jsonl tests/conformance/conversations.jsonl "$tmp/"
(cd "$tmp" && python3 "$repo/tests/conformance/runner" --text --native --view \
  --testee "c=$prefix/bin/fbe testee" --testee "cpp=$prefix/bin/fbe-cpp-testee" \
  --behaviour behaviour.jsonl --conversations conversations.jsonl \
  -I schemas vectors.jsonl malformed.jsonl malformed-extra.jsonl versioning.jsonl | tail -n 3)
done_step

step "benchmark smoke: fbe_cpp_bench, every operation of both APIs on every workload"
for workload in account small large; do
  for op in encode decode decode_new verify view; do
    for model in standard final; do
      for api in c cpp; do "$gcc_tree/bin/fbe_cpp_bench" "$workload" "${op}_$model" "$api" 10 "$repo"; done
    done
  done
done
echo "cpp: fbe_cpp_bench ran 60 operations"
done_step

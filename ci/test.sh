#!/usr/bin/env bash
# The test command. Installs the dependencies (ci/setup.sh), then, stage by stage:
# builds libfbe, the fbe tool, the unit tests and the benchmark in Release (gcc) and runs
# ctest (which also replays the fuzz corpora and tests/regressions/); runs the tool on
# every conformance file under valgrind (0 errors, 0 leaks); does the build and ctest
# again with clang and AddressSanitizer + UndefinedBehaviorSanitizer (any report fails
# the test), and with gcc and both sanitizers at -O2 (where gcc's flow warnings differ);
# runs tests/test_threads.c under ThreadSanitizer (clang); builds the
# libFuzzer targets and runs each on 100 000 inputs, fixed seed (ci/fuzz.sh); counts the instructions of the C hot paths under callgrind and fails on a rise
# over 5% above the committed baseline (benchmarks/c/instructions.sh --check); the bindings' stages; the hostile suite over the tool and every binding
# (tests/hostile/); every code example of the docs (tests/docs/); the cross
# builds under qemu (ci/cross.sh); the packages
# (ci/dist.sh); the conformance matrix and the differential batch of random schemas. Prints each
# stage's duration and a summary; exits non-zero when anything failed. Works from any
# directory. Every C tree is built with -DFBE_WERROR=ON (warnings are errors here, not in
# a user's build), the bindings' CMake builds too (their tools/ci.sh).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=$(nproc 2>/dev/null || echo 2)

# ---- timing and bookkeeping -------------------------------------------------

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
seconds_since() {
  local us=$(($(now_us) - $1))
  printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000))
}

run_t0=$(now_us)
stage_name=""
stage_t0=0
summary=()
failed_stages=0
tests_passed=0
tests_failed=0

stage_begin() {
  stage_name=$1
  stage_t0=$(now_us)
  printf '\n== stage: %s\n' "$stage_name"
}

stage_end() { # ok | FAILED
  local took
  took=$(seconds_since "$stage_t0")
  printf '== stage: %s ... %s s (%s)\n' "$stage_name" "$took" "$1"
  summary+=("$(printf '%-26s %7s s  %s' "$stage_name" "$took" "$1")")
  [[ $1 == ok ]] || failed_stages=$((failed_stages + 1))
  stage_name=""
}

finish() {
  local rc=$?
  [[ -z $stage_name ]] || stage_end FAILED # a step of a build stage failed
  printf '\n== summary\n'
  printf '  %s\n' "${summary[@]}"
  printf '  %-26s %7s s\n' "total" "$(seconds_since "$run_t0")"
  if ((failed_stages > 0)); then
    printf '  %d stage(s) FAILED\n' "$failed_stages"
    ((rc != 0)) || rc=1
  fi
  if ((tests_passed + tests_failed > 0)); then
    printf 'ctest: %d passed, %d failed\n' "$tests_passed" "$tests_failed"
  fi
  exit "$rc"
}
trap finish EXIT

# ---- stages -----------------------------------------------------------------

# Configures and builds one tree, warnings as errors: build_tree DIR CMAKE_ARGS...
build_tree() {
  local dir=$1
  shift
  cmake -S . -B "$dir" -DFBE_WERROR=ON -DFBE_BUILD_TESTS=ON -DFBE_BUILD_CLI=ON -DFBE_BUILD_BENCH=ON "$@"
  cmake --build "$dir" -j"$jobs"
}

# Runs ctest in DIR and adds its counts to the totals; fails when a test failed.
run_ctest() {
  local dir=$1 log
  log=$(mktemp)
  local rc=0
  (cd "$dir" && ctest -V --no-tests=error -j"$jobs") 2>&1 | tee "$log" || rc=$?
  local line total failed
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)
  rm -f "$log"
  if [[ $line =~ ([0-9]+)\ tests?\ failed\ out\ of\ ([0-9]+) ]]; then
    failed=${BASH_REMATCH[1]}
    total=${BASH_REMATCH[2]}
    tests_passed=$((tests_passed + total - failed))
    tests_failed=$((tests_failed + failed))
  elif ((rc != 0)); then
    tests_failed=$((tests_failed + 1)) # ctest itself failed (no tests, or crashed)
  fi
  return "$rc"
}

echo "libfbe tests: $(cmake --version | head -n 1), $(${CC:-cc} --version | head -n 1), $jobs jobs"

stage_begin "setup"
bash ci/setup.sh
stage_end ok

stage_begin "build (Release)"
build_tree build/release -DCMAKE_BUILD_TYPE=Release
stage_end ok

stage_begin "test (Release)"
if run_ctest build/release; then stage_end ok; else stage_end FAILED; fi

# The tool on every conformance file under valgrind: memory errors and definite or
# indirect leaks fail (--errors-for-leak-kinds makes leaks count as errors).
stage_begin "valgrind (conformance)"
if valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
     build/release/bin/fbe conformance -I schemas tests/conformance/vectors.jsonl \
     tests/conformance/malformed.jsonl tests/conformance/malformed-extra.jsonl \
     tests/conformance/versioning.jsonl; then
  stage_end ok
else
  stage_end FAILED
fi

# The sanitized tree is built with clang, the Release tree with gcc: both compilers
# build and pass everything, with one build per configuration. (A tree name of its own:
# changing the compiler of an existing tree makes CMake drop the other -D settings.)
stage_begin "build (ASan+UBSan, clang)"
build_tree build/asan-clang -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
  -DFBE_SANITIZE=address,undefined
stage_end ok

stage_begin "test (ASan+UBSan, clang)"
if run_ctest build/asan-clang; then stage_end ok; else stage_end FAILED; fi

# gcc with the sanitizers at -O2: its warnings there (format-overflow, null pointers
# along instrumented paths) differ from the Release tree's and from clang's; the ctest
# run is short (~10 s). -g1: line tables only, enough for a report's file:line, and a
# quarter less build time than -g.
stage_begin "build+test (ASan+UBSan, gcc)"
build_tree build/asan-gcc -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DFBE_SANITIZE=address,undefined
if run_ctest build/asan-gcc; then stage_end ok; else stage_end FAILED; fi

# ThreadSanitizer needs every object instrumented: a tree of its own, clang, and only
# the test that shares a schema between threads.
stage_begin "build (TSan)"
cmake -S . -B build/tsan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DFBE_SANITIZE=thread -DFBE_BUILD_TESTS=ON -DFBE_BUILD_CLI=OFF -DFBE_WERROR=ON
cmake --build build/tsan -j"$jobs" --target test_threads
stage_end ok

stage_begin "test (TSan)"
if TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build/tsan/bin/test_threads; then
  stage_end ok
else
  stage_end FAILED
fi

# libFuzzer: replays the corpora and regressions, then every target for 100 000 inputs
# from a fixed seed and the committed corpus, two at a time: the same inputs on every
# run, whatever the machine's speed (the long, exploring runs: ci/fuzz.sh 600).
stage_begin "fuzz (6 targets x 100000 inputs, seed 1)"
if FBE_FUZZ_BUILD=build/fuzz FBE_FUZZ_RUNS=100000 bash ci/fuzz.sh; then stage_end ok; else stage_end FAILED; fi

# Instructions per operation of the C core's hot paths (Account encode, decode, trusted
# decode, verify, both models) under callgrind, which has no noise: a rise over 5% above
# the committed benchmarks/c/instructions-baseline.tsv fails (benchmarks/README.md,
# "Instructions per operation"; --write-baseline refreshes it). 10-20 s, most of it the build.
stage_begin "instructions (C, callgrind)"
if bash benchmarks/c/instructions.sh --check; then stage_end ok; else stage_end FAILED; fi

# The Python package (bindings/python/tools/ci.sh): a venv under build/python, pip
# install ./bindings/python, pytest (with the testee through the shared conformance
# runner), the sdist installed into a second venv outside the repository and its testee
# run there through the runner (vectors, behaviour records, conversations).
stage_begin "python"
if bash bindings/python/tools/ci.sh; then stage_end ok; else stage_end FAILED; fi

# The JavaScript package (bindings/node/tools/ci.sh): npm ci in bindings/node (builds the
# addon), the node:test suites (with testee.js through the shared conformance runner),
# the tsc type test, the npm pack tarball installed into an empty folder outside the
# repository and its testee run there through the runner.
stage_begin "node"
if bash bindings/node/tools/ci.sh; then stage_end ok; else stage_end FAILED; fi

# The same package built to WebAssembly (bindings/node/tools/wasm.sh): the public
# conformance records in headless Chromium and in Node over wasm, size and speed.
stage_begin "wasm (Chromium)"
if bash bindings/node/tools/wasm.sh; then stage_end ok; else stage_end FAILED; fi

# The Ruby gem (bindings/ruby/tools/ci.sh): gem build (core + SWIG output copied into
# ext/fbe), gem install into build/ruby/gems, the minitest suites against the installed
# gem (with fbe-testee through the shared conformance runner), the gem installed outside
# the repository with no SWIG and its testee run there through the runner.
stage_begin "ruby"
if bash bindings/ruby/tools/ci.sh; then stage_end ok; else stage_end FAILED; fi

# The Java binding (bindings/java/tools/ci.sh): mvn -f bindings/java install (CMake builds
# libfbejni from the core + SWIG (swig/java.i) + the JNI walk into the jar; JUnit 5:
# API, errors, memory, the testee through the shared conformance runner), the surefire
# report counts, the runnable jar's testee through the runner from a directory outside
# the repository (vectors, behaviour records, conversations).
stage_begin "java"
if bash bindings/java/tools/ci.sh; then stage_end ok; else stage_end FAILED; fi

# The Go module (bindings/go/tools/ci.sh): the core vendored into the module, status.go
# against the core's status table, gofmt, go vet, go test (API, errors, views, peers,
# memory; the testee through the shared conformance runner), the module required with a
# `replace` by a consumer module outside the repository and its testee run there
# through the runner (vectors, behaviour records, conversations).
stage_begin "go"
if bash bindings/go/tools/ci.sh; then stage_end ok; else stage_end FAILED; fi
# The C++ API (bindings/cpp/tools/ci.sh): fbe.hpp's GoogleTest unit tests under gcc
# -Werror and again under clang ASan+UBSan, the C++ testee beside the C one through the
# shared runner (every conformance file, regressions, behaviour, conversations), the
# install with a find_package(fbe) consumer outside the repository, and the installed
# testee through the runner from there.
stage_begin "cpp"
if bash bindings/cpp/tools/ci.sh; then stage_end ok; else stage_end FAILED; fi

# The Rust binding (bindings/rust/tools/ci.sh): cargo build of the workspace (fbe-sys
# compiles the core with cc; fbe is the safe crate), clippy -D warnings, cargo test (the
# testee through the shared runner over every conformance file, errors, views, memory),
# then a consumer crate outside the repository (cargo new + cargo add --path) checking
# the Account bytes, and the testee built from there through the runner.
stage_begin "rust"
if bash bindings/rust/tools/ci.sh; then stage_end ok; else stage_end FAILED; fi

# The hostile suite (tests/hostile/README.md) over the tool and the bindings the stages
# above built (Python, Node, Ruby, Java, Go, Rust, C++; drivers built by run.py): every
# attack of issue 17 (JSON and bytes past the budget, shared bodies, defaults, empty
# structs, frames, hostile schemas and files, dump, deep values) as its own process,
# under ulimit -v where the runtime allows it; each must end with a typed error naming
# its limit (or succeed) within its bound on peak RSS and time. The
# table and figures: build/hostile/results.json. (The CLI part also runs in each tree's
# ctest, label hostile, the ASan trees included.)
stage_begin "hostile (CLI + bindings)"
if python3 tests/hostile/run.py; then stage_end ok; else stage_end FAILED; fi

# Every benchmark harness once with tiny iteration counts (ci/bench.sh --smoke): proves
# each one runs and that every peer round-trips its data (C peers, Python, Node, Ruby, Rust,
# Java). The real comparison is ci/bench.sh [--quick] (benchmarks/README.md).
stage_begin "bench (smoke)"
if bash ci/bench.sh --smoke; then stage_end ok; else stage_end FAILED; fi

# Every code example of the documentation (README.md, bindings/*/README.md, core/GEN_C.md,
# benchmarks/README.md, tests/conformance/README.md, docs/*.md) run against the packages
# and benchmark harnesses the stages above built (benchmarks/README.md runs the Node
# harness, whose peers the bench stage installs) (tests/docs/README.md), after the runner's own test and the
# check that every cited document is in the tree (tests/docs/check_citations.py). Seconds.
stage_begin "docs (README examples)"
if python3 tests/docs/check_citations.py && python3 tests/docs/test_run_examples.py && python3 tests/docs/run_examples.py; then
  stage_end ok
else
  stage_end FAILED
fi

# Other architectures (ci/cross.sh): the core, the tool and the C tests cross-compiled
# for s390x (big-endian, 64-bit), i386 (32-bit) and aarch64, their ctest suites
# (conformance files included) run under qemu-user; and for 64-bit Windows (mingw-w64),
# run under wine (a test program through the DLL included).
stage_begin "cross (s390x, i386, aarch64, windows)"
if bash ci/cross.sh; then stage_end ok; else stage_end FAILED; fi

# The artifacts users install (ci/dist.sh): C tarball and .deb, Python sdist and wheel,
# the npm tarball with its prebuilt addon, the gem; each installed in isolation runs
# its conformance entry point.
stage_begin "dist"
if bash ci/dist.sh; then stage_end ok; else stage_end FAILED; fi

# The cross-language conformance matrix (ci/conformance.sh, tests/conformance/README.md):
# the extra vectors generated with a fixed seed (twice: the files must be identical) and
# encoded by the C core; every built testee (c, python, node, ruby, java, go, rust, cpp) runs the public vectors,
# the malformed buffers (malformed-extra.jsonl: strings that are not UTF-8 and bad decimals,
# checked to be what gen/malformed_extra.py writes), the versioning records, the generated vectors and every shrunk
# regression of the differential run (tests/regressions/differential/*/); X encodes,
# Y decodes, for every pair; every testee's text of every decoded record must be the C
# testee's (and TEXT.md's, lossless: check_text_lossless.py), and every bad input of
# behaviour.jsonl (checked to be what gen/behaviour.py writes) refused with its status
# through the JSON and the native path. Then the random schema generator's self-test (300 sets, each
# must load; every construct generated), the differential batch (50 random schema sets x
# 20 values through every testee, fixed seed, ci/differential.sh --batch), both with the
# known failures of tests/conformance/known-failures/differential.txt, and the runner's
# own test: broken testees (wrong bytes, wrong values, a crash, a hang) must be caught.
stage_begin "conformance (matrix)"
mkdir -p build/conformance
regressions=()
for dir in tests/regressions/differential/*/; do
  [[ -f $dir/record.jsonl ]] && regressions+=("$dir")
done
if python3 tests/conformance/gen/generate.py -o build/conformance/generated.jsonl &&
   python3 tests/conformance/gen/generate.py -o build/conformance/generated-again.jsonl &&
   cmp build/conformance/generated.jsonl build/conformance/generated-again.jsonl &&
   python3 tests/conformance/gen/malformed_extra.py --check &&
   python3 tests/conformance/gen/behaviour.py --check &&
   python3 tests/conformance/check_text_lossless.py build/release/bin/fbe tests/conformance/vectors.jsonl \
     tests/conformance/versioning.jsonl build/conformance/generated.jsonl "${regressions[@]}" &&
   bash ci/conformance.sh --known-failures tests/conformance/known-failures/differential.txt \
     tests/conformance/vectors.jsonl tests/conformance/malformed.jsonl tests/conformance/malformed-extra.jsonl \
     tests/conformance/versioning.jsonl build/conformance/generated.jsonl "${regressions[@]}" &&
   python3 tests/conformance/gen/random_schema.py --self-test --fbe build/release/bin/fbe &&
   bash ci/differential.sh --batch --no-build &&
   python3 tests/conformance/selftest/test_runner.py build/release/bin/fbe; then
  stage_end ok
else
  stage_end FAILED
fi

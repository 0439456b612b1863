#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/, clang, ASan+UBSan) and runs each for
# SECONDS (default 20), two at a time, then prints libFuzzer's final status line
# ("#runs DONE cov: ... ft: ... corp: ...") of each. Before fuzzing it replays the
# committed corpora and tests/regressions/ (the fuzz_replay_TARGET ctests of the fuzz
# tree); a failing replay fails the script but does not stop the fuzzing.
#
#   ci/fuzz.sh [SECONDS] [TARGET...]     e.g. ci/fuzz.sh 600   (the long runs)
#   FBE_FUZZ_RUNS=N ci/fuzz.sh [TARGET...]  N inputs per target instead (the test command)
#
# With FBE_FUZZ_RUNS the run is the same every time: libFuzzer's -runs=N and a fixed
# -seed (FBE_FUZZ_SEED, default 1), starting from the committed corpus alone (a fresh
# working corpus, deleted afterwards), so its result does not depend on the machine's
# speed or load, nor on what earlier runs found. Without it, each target runs for a time
# and keeps growing its working corpus (exploration: the long runs).
#
# Environment: FBE_FUZZ_BUILD (build tree, default build/fuzz), FBE_FUZZ_JOBS (targets
# at once, default 2). Each target grows a working corpus in $FBE_FUZZ_BUILD/corpus/
# (kept between runs; the committed seeds stay untouched); a crash, leak, timeout or
# broken invariant leaves its input in $FBE_FUZZ_BUILD/artifacts/ and fails the script:
# minimise it (fuzz_TARGET -minimize_crash=1 -runs=10000 FILE), add it to
# tests/regressions/ as TARGET-description.bin, fix the bug.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=${FBE_FUZZ_RUNS:-}
seed=${FBE_FUZZ_SEED:-1}
if [[ -n $runs ]]; then
  seconds=""
else
  seconds=${1:-20}
  shift || true
fi
targets=("$@")
((${#targets[@]})) || targets=(schema decode_standard decode_final schema_bytes json receiver)
build=${FBE_FUZZ_BUILD:-build/fuzz}
parallel=${FBE_FUZZ_JOBS:-2}
cores=$(nproc 2>/dev/null || echo 2)

bash ci/setup.sh
CC=clang cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DFBE_BUILD_FUZZ=ON -DFBE_BUILD_CLI=OFF -DFBE_BUILD_TESTS=OFF -DFBE_WERROR=ON >/dev/null
build_targets=()
for t in "${targets[@]}"; do build_targets+=(--target "fuzz_$t" --target "fuzz_replay_$t"); done
cmake --build "$build" -j"$cores" "${build_targets[@]}"

echo "== replaying tests/fuzz/corpus and tests/regressions"
replay_failed=0
replay_tests=$(IFS='|'; echo "^fuzz_replay_(${targets[*]})\$")
(cd "$build" && ctest -R "$replay_tests" --output-on-failure -j"$cores") || replay_failed=1

mkdir -p "$build/corpus" "$build/artifacts" "$build/logs"

# Runs one target; its log goes to $build/logs/TARGET.log.
fuzz_one() {
  local t=$1 dict=() budget corpus=$build/corpus/$t
  case $t in
    schema | schema_bytes) dict=(-dict=tests/fuzz/schema.dict) ;;
    json) dict=(-dict=tests/fuzz/json.dict) ;;
  esac
  if [[ -n $runs ]]; then
    budget=(-runs="$runs" -seed="$seed")
    corpus=$build/corpus-fixed/$t
    rm -rf "$corpus"
  else
    budget=(-max_total_time="$seconds")
  fi
  mkdir -p "$corpus"
  # -rss_limit_mb also caps single allocations; -timeout catches hangs; the first
  # corpus directory is the working one (new inputs go there), the seeds are read only.
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/bin/fuzz_$t" "${budget[@]}" -print_final_stats=1 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$build/artifacts/$t-" "${dict[@]}" \
    "$corpus" "tests/fuzz/corpus/$t" >"$build/logs/$t.log" 2>&1
  local rc=$?
  [[ -z $runs ]] || rm -rf "$corpus"
  return "$rc"
}

# The final status line of a log ("#N DONE cov: ..."), else its last status line.
final_line() {
  grep -E '^#[0-9]+[[:space:]]+DONE' "$1" | tail -n 1 ||
    grep -E '^#[0-9]+' "$1" | tail -n 1 || echo "(no status line)"
}

if [[ -n $runs ]]; then
  echo "== fuzzing ${#targets[@]} target(s), $runs inputs each (seed $seed), $parallel at a time"
else
  echo "== fuzzing ${#targets[@]} target(s) for ${seconds} s each, $parallel at a time"
fi
declare -A pid_of
failed=()
running=0
for t in "${targets[@]}"; do
  if ((running >= parallel)); then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  pid_of[$t]=$!
  running=$((running + 1))
done

for t in "${targets[@]}"; do
  rc=0
  wait "${pid_of[$t]}" || rc=$?
  line=$(final_line "$build/logs/$t.log")
  if ((rc == 0)); then
    printf 'fuzz_%-16s ok      %s\n' "$t" "$line"
  else
    printf 'fuzz_%-16s FAILED  %s\n' "$t" "$line"
    failed+=("$t")
  fi
done

for t in "${failed[@]}"; do
  printf '\n== fuzz_%s failed (exit code above); the end of %s:\n' "$t" "$build/logs/$t.log"
  tail -n 40 "$build/logs/$t.log"
  ls "$build/artifacts/$t-"* 2>/dev/null | sed 's/^/  artifact: /' || true
done
if ((replay_failed)); then
  echo "== the corpus/regression replay failed (its output is above)"
fi
((${#failed[@]} == 0 && !replay_failed))

#!/usr/bin/env bash
# Instructions per operation of the C core, counted with callgrind (no timer, no
# machine noise):
#   benchmarks/c/instructions.sh [BASE_REV]     this tree, and BASE_REV beside it
#   benchmarks/c/instructions.sh --check        this tree against the committed baseline
#   benchmarks/c/instructions.sh --write-baseline   counts this tree into the baseline
# Builds benchmarks/c/instructions.c against each tree's fbe_static (Release) in
# build/instructions/{this,base} ($FBE_INSTRUCTIONS_BUILD to put it elsewhere), runs
# each operation 0 and N times under callgrind and prints (Ir(N) - Ir(0)) / N per
# operation: the call as a caller pays it (fbe_encode plus resetting the reused buffer,
# fbe_decode plus resetting the arena, fbe_verify) and a few instructions of loop; the
# operation is chosen before the loop, so nothing of the harness is counted (the same
# measure as the reference figures of issue 21). --check fails (exit 1) when an
# operation costs more than 5% over benchmarks/c/instructions-baseline.tsv; the counts
# depend on the compiler, so the baseline records it, and a different one is named
# loudly and compared anyway.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mode=compare base_rev=""
case ${1:-} in
  --check) mode=check ;;
  --write-baseline) mode=write ;;
  -*) echo "usage: instructions.sh [BASE_REV | --check | --write-baseline]" >&2; exit 2 ;;
  *) base_rev=${1:-} ;;
esac
baseline=$repo/benchmarks/c/instructions-baseline.tsv
out=${FBE_INSTRUCTIONS_BUILD:-$repo/build/instructions}
n=2000
max_rise=1.05
ops="encode_standard decode_standard decode_trusted_standard verify_standard
     encode_final decode_final decode_trusted_final verify_final"
mkdir -p "$out"
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed" >&2; exit 1; }
compiler=$(${CC:-cc} --version | head -n 1)

build() { # SOURCE_TREE BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_TESTS=OFF -DFBE_BUILD_CLI=OFF \
    -DFBE_BUILD_BENCH=OFF >/dev/null
  cmake --build "$2" --target fbe_static -j2 >/dev/null
  ${CC:-cc} -std=c11 -O2 -DFBE_STATIC -I"$1/core/include" "$repo/benchmarks/c/instructions.c" \
    "$2/libfbe.a" -lm -o "$2/fbe_instructions"
}

count() { # BINARY OP N -> instructions
  local log ir
  log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" "$repo/schemas" 2>&1) ||
    { printf 'instructions.sh: %s %s %s failed:\n%s\n' "$1" "$2" "$3" "$log" >&2; return 1; }
  ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$log")
  [ -n "$ir" ] || { printf 'instructions.sh: no count from callgrind:\n%s\n' "$log" >&2; return 1; }
  echo "$ir"
}

per_op() { # BINARY OP -> instructions of one operation
  local many none
  many=$(count "$1" "$2" $n)
  none=$(count "$1" "$2" 0)
  echo $(( (many - none) / n ))
}

build "$repo" "$out/this"
flags="libfbe.a: CMake Release ($(sed -n 's/^CMAKE_C_FLAGS_RELEASE:STRING=//p' "$out/this/CMakeCache.txt")); instructions.c: -std=c11 -O2"

if [ "$mode" = write ]; then
  {
    echo "# Instructions per operation of the C core on proto.Account, counted by"
    echo "# benchmarks/c/instructions.sh --write-baseline; --check fails on a rise over 5%."
    echo "# compiler: $compiler"
    echo "# flags: $flags"
    echo "# tree: $(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "# n: $n"
    for op in $ops; do printf '%s\t%s\n' "$op" "$(per_op "$out/this/fbe_instructions" "$op")"; done
  } >"$baseline.tmp"
  mv "$baseline.tmp" "$baseline"
  cat "$baseline"
  exit 0
fi

if [ "$mode" = check ]; then
  [ -f "$baseline" ] || { echo "instructions.sh: no $baseline (--write-baseline)" >&2; exit 1; }
  base_compiler=$(sed -n 's/^# compiler: //p' "$baseline")
  base_flags=$(sed -n 's/^# flags: //p' "$baseline")
  if [ "$base_compiler" != "$compiler" ] || [ "$base_flags" != "$flags" ]; then
    echo "!! WARNING: the baseline was counted with another compiler or other flags:"
    echo "!!   baseline: $base_compiler; $base_flags"
    echo "!!   now:      $compiler; $flags"
    echo "!! Compared anyway: a rise may be the compiler's; if so, refresh the baseline."
  fi
  printf '%-26s %10s %10s %8s  %s\n' operation baseline now ratio verdict
  failed=0 fell=0
  for op in $ops; do
    base=$(awk -F'\t' -v op="$op" '$1 == op { print $2 }' "$baseline")
    now=$(per_op "$out/this/fbe_instructions" "$op")
    if [ -z "$base" ]; then
      printf '%-26s %10s %10d %8s  %s\n' "$op" - "$now" - "NOT IN BASELINE"
      failed=1
      continue
    fi
    ratio=$(awk -v a="$now" -v b="$base" 'BEGIN { printf "%.3f", a / b }')
    verdict=ok
    if awk -v a="$now" -v b="$base" -v m="$max_rise" 'BEGIN { exit !(a > b * m) }'; then
      verdict="ROSE over 5%"; failed=1
    elif [ "$now" -lt "$base" ]; then
      verdict=fell; fell=1
    fi
    printf '%-26s %10d %10d %8s  %s\n' "$op" "$base" "$now" "$ratio" "$verdict"
  done
  if [ $failed = 1 ]; then
    echo "instructions.sh --check: FAILED, an operation costs more than 5% over benchmarks/c/instructions-baseline.tsv"
    echo "(if the rise is intended, refresh it: benchmarks/c/instructions.sh --write-baseline)"
    exit 1
  fi
  [ $fell = 0 ] || echo "Some operations got cheaper: benchmarks/c/instructions.sh --write-baseline locks the gain in."
  echo "instructions.sh --check: ok (no operation more than 5% over the baseline)"
  exit 0
fi

if [ -n "$base_rev" ]; then
  rm -rf "$out/base-src"
  git -C "$repo" worktree add -f --detach "$out/base-src" "$base_rev" >/dev/null 2>&1
  trap 'git -C "$repo" worktree remove --force "$out/base-src" >/dev/null 2>&1 || true' EXIT
  build "$out/base-src" "$out/base"
fi

printf '%-26s %10s' "operation" "this"
[ -n "$base_rev" ] && printf ' %10s %8s' "$base_rev" "ratio"
echo
for op in $ops; do
  this=$(per_op "$out/this/fbe_instructions" "$op")
  printf '%-26s %10d' "$op" "$this"
  if [ -n "$base_rev" ]; then
    base=$(per_op "$out/base/fbe_instructions" "$op")
    printf ' %10d %8s' "$base" "$(awk -v a="$this" -v b="$base" 'BEGIN { printf "%.3f", a / b }')"
  fi
  echo
done

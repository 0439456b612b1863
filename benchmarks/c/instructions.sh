#!/usr/bin/env bash
# Instructions per operation of the C core, counted with callgrind (no timer, no
# machine noise), for this tree and, given a revision, for that revision beside it:
#   benchmarks/c/instructions.sh [BASE_REV]
# Builds benchmarks/c/instructions.c against each tree's fbe_static (Release) in
# build/instructions/{this,base}, runs each operation 0 and N times under callgrind
# and prints (Ir(N) - Ir(0)) / N per operation, and the ratio this/base.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
base_rev=${1:-}
out=$repo/build/instructions
n=2000
mkdir -p "$out"
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed" >&2; exit 1; }

build() { # SOURCE_TREE BUILD_DIR
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_TESTS=OFF -DFBE_BUILD_CLI=OFF \
    -DFBE_BUILD_BENCH=OFF >/dev/null
  cmake --build "$2" --target fbe_static -j2 >/dev/null
  cc -std=c11 -O2 -DFBE_STATIC -I"$1/core/include" "$repo/benchmarks/c/instructions.c" \
    "$2/libfbe.a" -lm -o "$2/fbe_instructions"
}

count() { # BINARY OP N -> instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" "$repo/schemas" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

build "$repo" "$out/this"
if [ -n "$base_rev" ]; then
  rm -rf "$out/base-src"
  git -C "$repo" worktree add -f --detach "$out/base-src" "$base_rev" >/dev/null 2>&1
  trap 'git -C "$repo" worktree remove --force "$out/base-src" >/dev/null 2>&1 || true' EXIT
  build "$out/base-src" "$out/base"
fi

printf '%-26s %10s' "operation" "this"
[ -n "$base_rev" ] && printf ' %10s %8s' "$base_rev" "ratio"
echo
for op in encode_standard decode_standard decode_trusted_standard verify_standard \
          encode_final decode_final decode_trusted_final verify_final; do
  this=$(( ($(count "$out/this/fbe_instructions" $op $n) - $(count "$out/this/fbe_instructions" $op 0)) / n ))
  printf '%-26s %10d' "$op" "$this"
  if [ -n "$base_rev" ]; then
    base=$(( ($(count "$out/base/fbe_instructions" $op $n) - $(count "$out/base/fbe_instructions" $op 0)) / n ))
    printf ' %10d %8s' "$base" "$(awk -v a="$this" -v b="$base" 'BEGIN { printf "%.3f", a / b }')"
  fi
  echo
done

#!/usr/bin/env bash
# benchmarks/rust/run.sh [--smoke] [CRITERION ARGS...]: the Rust benchmarks
# (benches/serializers.rs, criterion: libfbe's messages and views in both models beside
# prost, bincode, rmp-serde and flatbuffers on account, small and large), then
# render.py writes benchmarks/results/rust.md (the tables) and rust.jsonl (every figure)
# from criterion's estimates (FBE_BENCH_OUT=DIR: elsewhere). About two minutes once
# built (0.2 s warm-up and 0.6 s of 20 samples a figure); --smoke runs every benchmark
# once (the round trips checked) and writes nothing. Needs flatc (Debian's
# flatbuffers-compiler, ci/setup.sh) and crates.io for the crates.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$repo/build/rust-bench}
out=${FBE_BENCH_OUT:-$repo/benchmarks/results}
cd "$here"

if [[ ${1:-} == --smoke ]]; then
  shift
  cargo bench -j2 --quiet --bench serializers -- --test "$@"
  exit
fi
rm -rf "$CARGO_TARGET_DIR/criterion"
sizes=$CARGO_TARGET_DIR/criterion/sizes.jsonl # beside criterion's figures (render.py reads both)
mkdir -p "$CARGO_TARGET_DIR/criterion"
FBE_BENCH_SIZES=$sizes cargo bench -j2 --quiet --bench serializers -- "$@"
mkdir -p "$out"
python3 "$here/render.py" --criterion "$CARGO_TARGET_DIR/criterion" --sizes "$sizes" --out "$out"

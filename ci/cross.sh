#!/usr/bin/env bash
# Other architectures under emulation: cross-compiles the core, the fbe tool and the C
# tests with Debian's cross compilers (cmake/toolchains/TRIPLE.cmake) and runs the ctest
# suite under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR), the conformance test over every
# conformance file included. The wire format is little-endian everywhere, so these
# catch any dependence on the host's byte order, alignment, size_t width or float
# evaluation method:
#   s390x-linux-gnu  big-endian, 64-bit (FLT_EVAL_METHOD 1)
#   i686-linux-gnu   little-endian, 32-bit: 32-bit size_t and pointers, x87 (FLT_EVAL_METHOD 2)
# Not run here (they need host tools or are meaningless under qemu): install_consumer
# (label package: compiles and runs a consumer against the installed tree) and
# decode_count_limit (an address-space ulimit on the tool, which qemu's own mappings
# would exceed). The fuzz corpora are replayed (fuzz_replay_*); libFuzzer itself and the
# benchmark are not built.
#   ci/cross.sh [TRIPLE...]     (default: s390x-linux-gnu i686-linux-gnu)
# Needs ci/setup.sh's cross packages. Exits non-zero when a build or a test failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
triples=("$@")
((${#triples[@]})) || triples=(s390x-linux-gnu i686-linux-gnu)
jobs=2 # the machine is shared; qemu is CPU-bound

failed=0
for triple in "${triples[@]}"; do
  toolchain=cmake/toolchains/$triple.cmake
  [[ -f $toolchain ]] || { echo "cross: no toolchain file $toolchain" >&2; exit 2; }
  dir=build/cross-$triple
  t0=$EPOCHSECONDS
  echo "-- cross $triple: build ($dir)"
  log=$(mktemp)
  if ! { cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$PWD/$toolchain" -DCMAKE_BUILD_TYPE=Release \
           -DFBE_BUILD_TESTS=ON -DFBE_BUILD_CLI=ON -DFBE_BUILD_BENCH=OFF -DFBE_BUILD_FUZZ=OFF \
           -DFBE_WERROR=ON &&
         cmake --build "$dir" -j"$jobs"; } >"$log" 2>&1; then
    cat "$log"
    rm -f "$log"
    echo "-- cross $triple: build FAILED"
    failed=$((failed + 1))
    continue
  fi
  rm -f "$log"
  echo "-- cross $triple: ctest under $(sed -nE 's/.*EMULATOR (qemu-[a-z0-9_]+).*/\1/p' "$toolchain")"
  if (cd "$dir" && ctest -j"$jobs" --no-tests=error --output-on-failure \
        -LE package -E '^decode_count_limit$'); then
    echo "-- cross $triple: ok ($((EPOCHSECONDS - t0)) s)"
  else
    echo "-- cross $triple: FAILED ($((EPOCHSECONDS - t0)) s)"
    failed=$((failed + 1))
  fi
done
exit $((failed > 0))

#!/usr/bin/env bash
# Other architectures under emulation: cross-compiles the core, the fbe tool and the C
# tests with Debian's cross compilers (cmake/toolchains/TRIPLE.cmake) and runs the ctest
# suite under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR), the conformance test over every
# conformance file included. The wire format is little-endian everywhere, so these
# catch any dependence on the host's byte order, alignment, size_t width or float
# evaluation method:
#   s390x-linux-gnu  big-endian, 64-bit (FLT_EVAL_METHOD 1)
#   i686-linux-gnu   little-endian, 32-bit: 32-bit size_t and pointers, x87 (FLT_EVAL_METHOD 2)
#   aarch64-linux-gnu  linux-arm64, the ARM servers' platform (the dist artifacts' second
#                    Linux architecture, ci/dist_cross.sh)
#   x86_64-w64-mingw32  64-bit Windows (mingw-w64, run under wine): LLP64 (32-bit long),
#                    msvcrt with mingw-w64's C99 printf, Windows paths and file APIs, the
#                    DLL (fbe/export.h's dllexport/dllimport: ctest consumer_shared)
# Not run here (they need host tools or are meaningless under an emulator): install_consumer
# (label package: compiles and runs a consumer against the installed tree) and
# decode_count_limit (an address-space ulimit on the tool, which qemu's own mappings
# would exceed). The fuzz corpora are replayed (fuzz_replay_*); libFuzzer itself and the
# benchmark are not built; nor are the tests that only run host tools (Python over the
# docs and the behaviour file: the same on every target). On Windows the shell tests
# (cli_*.sh), the fuzz replays and decode_count_limit are not registered (they need a
# POSIX target); cmocka comes from tests/cmocka_shim (Debian has none for mingw).
# Wine gets a prefix of its own (build/wine, made once: the first start takes ~20 s) and
# one wineserver kept alive (-p) for the build's `fbe gen c` runs and the whole ctest.
#   ci/cross.sh [TRIPLE...]     (default: s390x-linux-gnu i686-linux-gnu
#                                aarch64-linux-gnu x86_64-w64-mingw32, then
#                                ci/macos_syntax.sh)
# Needs ci/setup.sh's cross packages. Prints each target's build+ctest seconds. Exits
# non-zero when a build or a test failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
triples=("$@")
((${#triples[@]})) || triples=(s390x-linux-gnu i686-linux-gnu aarch64-linux-gnu x86_64-w64-mingw32)
jobs=2 # the machine is shared; qemu is CPU-bound
# Host tooling that every tree registers and that says nothing about the target.
host_only='^(decode_count_limit|docs_citations|docs_input_table|conformance_behaviour_file)$'

# Wine for the Windows target: a prefix of our own, no Mono/Gecko install prompts, no
# debug chatter, one wineserver for everything (stopped on exit).
wine_started=0
start_wine() {
  ((wine_started)) && return 0
  export WINEPREFIX=$PWD/build/wine WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml='
  mkdir -p "$WINEPREFIX"
  wineserver -p 2>/dev/null || true # (fails when one already runs for this prefix)
  wine_started=1
  wine wineboot --init >/dev/null 2>&1 || true # a fresh prefix: its registry and system32
}
trap '((wine_started == 0)) || wineserver -k 2>/dev/null || true' EXIT

failed=0
for triple in "${triples[@]}"; do
  toolchain=cmake/toolchains/$triple.cmake
  [[ -f $toolchain ]] || { echo "cross: no toolchain file $toolchain" >&2; exit 2; }
  dir=build/cross-$triple
  t0=$EPOCHSECONDS
  [[ $triple != *-mingw32 ]] || start_wine
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
  echo "-- cross $triple: built in $((EPOCHSECONDS - t0)) s; ctest under $(sed -nE 's/^set\(CMAKE_CROSSCOMPILING_EMULATOR ([^)]+)\)/\1/p' "$toolchain")"
  if (cd "$dir" && ctest -j"$jobs" --no-tests=error --output-on-failure \
        -LE package -E "$host_only"); then
    echo "-- cross $triple: ok ($((EPOCHSECONDS - t0)) s)"
  else
    echo "-- cross $triple: FAILED ($((EPOCHSECONDS - t0)) s)"
    failed=$((failed + 1))
  fi
done
# With the default list, macOS too, as far as it goes without a Mac: a syntax-only
# compile of the core and the CLI for arm64-apple-macos11 (ci/macos_syntax.sh).
(($#)) || bash ci/macos_syntax.sh || failed=$((failed + 1))
exit $((failed > 0))

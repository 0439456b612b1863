#!/usr/bin/env bash
# macOS without a Mac or its SDK: every core and CLI source through Debian's clang with
# -target arm64-apple-macos11 -fsyntax-only, warnings as errors. The compiler is in
# Darwin mode (__APPLE__, __MACH__, Mach-O, clang's Darwin predefines, long double =
# double), so the core's own macOS paths are checked (export.h's visibility, uuid.c's
# arc4random_buf, the CLI's POSIX calls), but the declarations come from a stand-in libc:
# glibc's aarch64 headers (libc6-dev-arm64-cross), since Apple's are not
# redistributable. _DEFAULT_SOURCE mirrors Darwin's default (BSD functions visible); -U
# __nonnull undoes clang's Darwin nullability macro, which glibc's headers use as an
# attribute. What this cannot check (a wrong prototype in Apple's libc, the link, the
# .dylib, running anything) is listed in docs/BUILDING.md, "Platforms".
#   ci/macos_syntax.sh        exits non-zero on any error
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
flags=(-target arm64-apple-macos11 -fsyntax-only -std=c11 -Wall -Wextra -Werror
       -D_DEFAULT_SOURCE -U__nonnull -isystem /usr/aarch64-linux-gnu/include
       -Icore/include -Icore/src -Icore/cli)
mapfile -t core < <(sed -e 's/#.*//' -e '/^\s*$/d' core/sources.txt | sed 's|^|core/src/|')
failed=0
for src in "${core[@]}"; do
  clang "${flags[@]}" -DFBE_BUILDING "$src" || { echo "macos: $src" >&2; failed=$((failed + 1)); }
done
for src in core/cli/*.c; do
  clang "${flags[@]}" -DFBE_STATIC "$src" || { echo "macos: $src" >&2; failed=$((failed + 1)); }
done
echo "macos (arm64-apple-macos11, syntax only): $((${#core[@]} + $(ls core/cli/*.c | wc -l))) sources, $failed failed"
exit $((failed > 0))

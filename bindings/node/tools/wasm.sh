#!/usr/bin/env bash
# The WebAssembly build's CI stage (ci/test.sh "wasm (Chromium)"), from any directory;
# after the "node" stage (its npm ci installed the dev dependencies: emnapi, esbuild,
# playwright-core, memfs-browser; run here when node_modules is missing):
#   1. scripts/build-wasm.js --bundle: wasm/fbe.wasm (clang wasm32-wasi + emnapi, the
#      addon's own sources) and dist/fbe.browser.mjs (esbuild);
#   2. the public conformance records (vectors, malformed, malformed-extra, versioning)
#      through the shared runner with the browser bundle in headless Chromium as the
#      testee (tests/browser/bridge.js): fails unless every record passes;
#   3. the same records with Node's testee.js over the WebAssembly build (FBE_WASM=1);
#   4. the same records with testee.js under Bun and under Deno (tests/runtimes: both
#      pinned, from npm), over the WebAssembly build (FBE_WASM=1);
#   5. the size and speed beside the addon (tools/wasm-bench.js: a few seconds).
# The whole node:test suite over the WebAssembly build (FBE_WASM=1 npm test) is not
# run here (minutes: its million-cycle memory test); README.md, "WebAssembly", has its count.
# Prints each step with its duration; exits non-zero when any step failed.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
pkg=$repo/bindings/node
vectors=("$repo"/tests/conformance/{vectors,malformed,malformed-extra,versioning}.jsonl)
failed=0

now_ms() { local t=$EPOCHREALTIME; t=${t/[.,]/}; echo $((t / 1000)); }
step() { # step NAME COMMAND...
  local name=$1 t0 rc
  shift
  printf -- '-- wasm: %s\n' "$name"
  t0=$(now_ms)
  "$@"
  rc=$?
  printf -- '-- wasm: %s ... %d.%d s (%s)\n' "$name" $((($(now_ms) - t0) / 1000)) \
    $((($(now_ms) - t0) % 1000 / 100)) "$( ((rc == 0)) && echo ok || echo FAILED)"
  ((rc == 0)) || failed=$((failed + 1))
  return "$rc"
}

build() {
  if [[ ! -d $pkg/node_modules/emnapi ]]; then
    (cd "$pkg" && npm ci --no-audit --no-fund --loglevel=error) || return 1
  fi
  (cd "$pkg" && node scripts/build-wasm.js --bundle) || return 1
  [[ -s $pkg/wasm/fbe.wasm && -s $pkg/dist/fbe.browser.mjs ]]
}

runner() { # runner TESTEE
  python3 "$repo/tests/conformance/runner" --describe-testee none --testee "$1" \
    -I "$repo/schemas" "${vectors[@]}" | tail -n 1
  return "${PIPESTATUS[0]}"
}

step "build: wasm/fbe.wasm, dist/fbe.browser.mjs" build || { echo "wasm: the build failed"; exit 1; }
step "conformance records in headless Chromium" runner "browser=node $repo/tests/browser/bridge.js"
step "conformance records, Node over wasm (FBE_WASM=1)" runner "node-wasm=env FBE_WASM=1 node $pkg/testee.js"
runtimes() { # Bun and Deno from tests/runtimes (npm ci once), each over the wasm build
  local bin=$repo/tests/runtimes/node_modules/.bin
  if [[ ! -x $bin/bun || ! -x $bin/deno ]]; then
    (cd "$repo/tests/runtimes" && npm ci --no-audit --no-fund --loglevel=error) || return 1
  fi
  echo "bun $("$bin/bun" --version), $("$bin/deno" --version | head -n 1)"
  runner "bun-wasm=env FBE_WASM=1 $bin/bun $pkg/testee.js" &&
    runner "deno-wasm=env FBE_WASM=1 $bin/deno run -A --unstable-detect-cjs $pkg/testee.js"
}
step "conformance records, Bun and Deno over wasm" runtimes
step "size and speed beside the addon" node "$pkg/tools/wasm-bench.js"
exit $((failed > 0))

#!/usr/bin/env bash
# The JavaScript binding's CI stage (ci/test.sh "node"), from any directory:
#   1. npm ci in bindings/node: the dev dependencies (TypeScript) and the addon build
#      (the package's install script: node-gyp against the local Node headers);
#   2. the node:test suites (bindings/node/test), their summary (among them the testee,
#      testee.js, through the shared runner tests/conformance/runner);
#   3. the type test: tsc --noEmit over test/types/example.ts;
#   4. npm pack, the tarball installed into an empty folder outside the repository,
#      and its testee run there through the shared runner (the vectors, the bad
#      inputs of behaviour.jsonl and the conversations' scripts);
# (The benchmark runs in ci/bench.sh: the test command's "bench (smoke)" stage runs it once.)
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
  printf -- '-- node: %s\n' "$name"
  t0=$(now_ms)
  "$@"
  rc=$?
  printf -- '-- node: %s ... %d.%d s (%s)\n' "$name" $((($(now_ms) - t0) / 1000)) \
    $((($(now_ms) - t0) % 1000 / 100)) "$( ((rc == 0)) && echo ok || echo FAILED)"
  ((rc == 0)) || failed=$((failed + 1))
  return "$rc"
}

install() {
  echo "node $(node --version), npm $(npm --version)"
  (cd "$pkg" && npm ci --no-audit --no-fund --loglevel=error)
}

unit_tests() {
  local log rc
  log=$(mktemp)
  (cd "$pkg" && node --expose-gc --test --test-reporter=tap test/) >"$log" 2>&1
  rc=$?
  if ((rc != 0)); then
    cat "$log" # every test with its diagnostics
  else
    grep -E '^# .*: core [0-9]+ -> [0-9]+ bytes' "$log" || true # the memory test's counts
  fi
  grep -E '^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ' "$log"
  rm -f "$log"
  return "$rc"
}

types() {
  (cd "$pkg" && node_modules/.bin/tsc -p test/types && echo "tsc --noEmit: test/types/example.ts checks")
}

packed() {
  local tmp rc
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/fbe-node-pack.XXXXXX")
  (
    set -e
    cd "$pkg"
    tarball=$(npm pack --pack-destination "$tmp" --loglevel=error | tail -n 1)
    echo "packed $tarball ($(du -k "$tmp/$tarball" | cut -f1) KiB, $(tar tzf "$tmp/$tarball" | wc -l) files)"
    cd "$tmp"
    npm init -y >/dev/null
    npm install --no-audit --no-fund --loglevel=error "./$tarball"
    echo "installed into $tmp (outside the repository); its testee through the runner:"
    python3 "$repo/tests/conformance/runner" --describe-testee none \
      --testee "node=node $tmp/node_modules/fbe/testee.js" --behaviour "$repo/tests/conformance/behaviour.jsonl" \
      --conversations "$repo/tests/conformance/conversations.jsonl" -I "$repo/schemas" "${vectors[@]}"
  )
  rc=$?
  rm -rf "$tmp"
  return "$rc"
}

step "npm ci (dev dependencies, addon build)" install || { echo "node: the build failed"; exit 1; }
step "node --test bindings/node/test" unit_tests
step "type test (tsc --noEmit)" types
step "npm pack, install outside the repository" packed
exit $((failed > 0))

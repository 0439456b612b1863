#!/usr/bin/env bash
# ci/conformance.sh [FILE.jsonl...]: the cross-language conformance matrix
# (tests/conformance/README.md). Builds whatever is needed — the fbe tool
# (build/release), the Python package into build/python/venv, the Node addon — registers
# every testee that is built (c, python, node, ruby, java; more from FBE_EXTRA_TESTEES, lines of
# NAME=COMMAND), and runs tests/conformance/runner over the given vectors files
# (default: tests/conformance/vectors.jsonl). Prints the matrix; exits non-zero when a
# check failed or the C testee could not be built. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)

files=("$@")
((${#files[@]})) || files=(tests/conformance/vectors.jsonl)

testees=()

# c: the fbe tool
if [[ ! -f build/release/CMakeCache.txt ]]; then
  cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_CLI=ON >/dev/null
fi
cmake --build build/release -j"$jobs" --target fbe >/dev/null
testees+=(--testee "c=$repo/build/release/bin/fbe testee")

# python: the package installed (from this tree) into build/python/venv
py=build/python/venv/bin/python
if [[ ! -x $py ]] && command -v python3 >/dev/null; then
  python3 -m venv build/python/venv >/dev/null 2>&1 || true
fi
if [[ -x $py ]] && $py -m pip install -q ./bindings/python >/dev/null 2>&1; then
  testees+=(--testee "python=$repo/$py -m fbe.testee")
else
  echo "conformance: the Python package could not be built; no python testee" >&2
fi

# node: the addon built by npm ci (the package's install script)
if command -v node >/dev/null; then
  if [[ ! -f bindings/node/build/Release/fbe.node ]] && command -v npm >/dev/null; then
    (cd bindings/node && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1) || true
  fi
  if [[ -f bindings/node/build/Release/fbe.node ]]; then
    testees+=(--testee "node=node $repo/bindings/node/testee.js")
  else
    echo "conformance: the Node addon could not be built; no node testee" >&2
  fi
fi

# ruby: the gem built (bindings/ruby/tools/build_gem.sh) and installed into build/ruby/gems
if command -v ruby >/dev/null && command -v gem >/dev/null && command -v swig >/dev/null &&
   gem_file=$(bash bindings/ruby/tools/build_gem.sh "$repo/build/ruby" 2>/dev/null) &&
   rm -rf build/ruby/gems &&
   GEM_HOME=$repo/build/ruby/gems MAKEFLAGS=-j"$jobs" gem install --local --no-document "$gem_file" >/dev/null 2>&1; then
  testees+=(--testee "ruby=ruby -I $(ls -d "$repo"/build/ruby/gems/gems/fbe-*/lib | tail -1) $repo/bindings/ruby/bin/fbe-testee")
else
  echo "conformance: the Ruby gem could not be built; no ruby testee" >&2
fi

# java: the runnable jar built by mvn (bindings/java)
if command -v mvn >/dev/null && command -v java >/dev/null &&
   mvn -B -q -ntp -f bindings/java package -DskipTests >/dev/null 2>&1; then
  testees+=(--testee "java=java -jar $(ls "$repo"/bindings/java/target/fbe-*.jar | grep -v -E 'sources|javadoc' | head -1) testee")
else
  echo "conformance: the Java jar could not be built; no java testee" >&2
fi

# outside implementations
while IFS= read -r spec; do
  [[ -n $spec ]] && testees+=(--testee "$spec")
done <<<"${FBE_EXTRA_TESTEES:-}"

exec python3 tests/conformance/runner "${testees[@]}" "${files[@]}"

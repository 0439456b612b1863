#!/usr/bin/env bash
# ci/conformance.sh [--testees c,python,...] [--known-failures FILE] [FILE.jsonl...]:
# the cross-language conformance matrix (tests/conformance/README.md). Builds what the
# named testees need (default: all of c, python, node, ruby, java) — the fbe tool
# (build/release; always, as it also gives the runner the field types by `describe`),
# the Python package into build/python/venv, the Node addon, the gem, the jar —
# registers every named testee that is built plus those of FBE_EXTRA_TESTEES (lines of
# NAME=COMMAND), and runs tests/conformance/runner over the given vectors files
# (default: tests/conformance/vectors.jsonl). Prints the matrix; exits non-zero when a
# check failed, a listed known failure now passes (the runner's status 3), the C tool
# could not be built or a testee named by --testees could not (without --testees, one
# that cannot be built is left out with a warning).
# Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)

all=c,python,node,ruby,java
wanted=$all
named=0 # 1: --testees given, so a testee that cannot be built fails the run
runner_options=()
files=()
while (($#)); do
  case $1 in
    --testees) wanted=${2:?--testees wants a list like c,python}; named=1; shift 2 ;;
    --testees=*) wanted=${1#*=}; named=1; shift ;;
    --known-failures) runner_options+=(--known-failures "${2:?--known-failures wants a file}"); shift 2 ;;
    --known-failures=*) runner_options+=(--known-failures "${1#*=}"); shift ;;
    -*) echo "conformance: unknown option $1 (want --testees LIST, --known-failures FILE)" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
((${#files[@]})) || files=(tests/conformance/vectors.jsonl)

extra_names=()
while IFS= read -r spec; do
  [[ -n $spec ]] && extra_names+=("${spec%%=*}")
done <<<"${FBE_EXTRA_TESTEES:-}"
IFS=, read -r -a names <<<"$wanted"
for name in "${names[@]}"; do
  if [[ ,$all, != *,$name,* && " ${extra_names[*]-} " != *" $name "* ]]; then
    echo "conformance: unknown testee '$name' (ours: $all; FBE_EXTRA_TESTEES: ${extra_names[*]-none})" >&2
    exit 2
  fi
done
wants() { [[ ,$wanted, == *,$1,* ]]; }

testees=()
missing=0
not_built() {
  echo "conformance: $1; no $2 testee" >&2
  missing=$named
}

# c: the fbe tool (also the describer of field types when c is not among the testees)
if [[ ! -f build/release/CMakeCache.txt ]]; then
  cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_CLI=ON -DFBE_WERROR=ON >/dev/null
fi
cmake --build build/release -j"$jobs" --target fbe >/dev/null
c_testee="c=$repo/build/release/bin/fbe testee"
if wants c; then
  testees+=(--testee "$c_testee")
else
  runner_options+=(--describe-testee "$c_testee")
fi

# python: the package installed (from this tree) into build/python/venv
if wants python; then
  py=build/python/venv/bin/python
  if [[ ! -x $py ]] && command -v python3 >/dev/null; then
    python3 -m venv build/python/venv >/dev/null 2>&1 || true
  fi
  if [[ -x $py ]] && $py -m pip install -q ./bindings/python >/dev/null 2>&1; then
    testees+=(--testee "python=$repo/$py -m fbe.testee")
  else
    not_built "the Python package could not be built" python
  fi
fi

# node: the addon built by npm ci (the package's install script)
if wants node; then
  if command -v node >/dev/null && [[ ! -f bindings/node/build/Release/fbe.node ]] && command -v npm >/dev/null; then
    (cd bindings/node && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1) || true
  fi
  if command -v node >/dev/null && [[ -f bindings/node/build/Release/fbe.node ]]; then
    testees+=(--testee "node=node $repo/bindings/node/testee.js")
  else
    not_built "the Node addon could not be built" node
  fi
fi

# ruby: the gem built (bindings/ruby/tools/build_gem.sh) and installed into build/ruby/gems
if wants ruby; then
  if command -v ruby >/dev/null && command -v gem >/dev/null && command -v swig >/dev/null &&
     gem_file=$(bash bindings/ruby/tools/build_gem.sh "$repo/build/ruby" 2>/dev/null) &&
     rm -rf build/ruby/gems &&
     GEM_HOME=$repo/build/ruby/gems MAKEFLAGS=-j"$jobs" gem install --local --no-document "$gem_file" >/dev/null 2>&1; then
    testees+=(--testee "ruby=ruby -I $(ls -d "$repo"/build/ruby/gems/gems/fbe-*/lib | tail -1) $repo/bindings/ruby/bin/fbe-testee")
  else
    not_built "the Ruby gem could not be built" ruby
  fi
fi

# java: the runnable jar built by mvn (bindings/java)
if wants java; then
  if command -v mvn >/dev/null && command -v java >/dev/null &&
     mvn -B -q -ntp -f bindings/java package -DskipTests -Dfbe.werror=ON >/dev/null 2>&1; then
    testees+=(--testee "java=java -jar $(ls "$repo"/bindings/java/target/fbe-*.jar | grep -v -E 'sources|javadoc' | head -1) testee")
  else
    not_built "the Java jar could not be built" java
  fi
fi

# outside implementations
while IFS= read -r spec; do
  [[ -n $spec ]] && testees+=(--testee "$spec")
done <<<"${FBE_EXTRA_TESTEES:-}"

status=0
python3 tests/conformance/runner "${runner_options[@]}" "${testees[@]}" "${files[@]}" || status=$?
if ((missing && !status)); then
  echo "conformance: a named testee could not be built (above)" >&2
  status=1
fi
exit "$status"

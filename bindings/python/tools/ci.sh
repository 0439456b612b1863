#!/usr/bin/env bash
# The "python" stage of ci/test.sh: builds and tests the fbe Python package.
#   1. a venv under build/python/, with pytest, mypy and build
#   2. pip install ./bindings/python (compiles the core, SWIG from PyPI)
#   3. pytest bindings/python/tests (conformance vectors, API, errors, memory, mypy; and
#      the testee, python -m fbe.testee, through the shared runner tests/conformance/runner)
#   4. the sdist: built, installed into a second venv from a directory outside the
#      repository, and its testee run there through the shared runner (copies of the
#      conformance files, the behaviour file and the conversations; the text op too)
# (The benchmark runs in ci/bench.sh: the test command's "bench (smoke)" stage runs it once.)
# Prints each step with its duration; exits non-zero when any step failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
repo=$PWD
out=$repo/build/python
python=${PYTHON:-python3}

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
step_t0=0
step() {
  step_t0=$(now_us)
  printf -- '-- python: %s\n' "$1"
}
done_step() {
  local us=$(($(now_us) - step_t0))
  printf -- '-- python: ... %d.%d s\n' $((us / 1000000)) $((us % 1000000 / 100000))
}

echo "python: $($python --version 2>&1) at $(command -v "$python")"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

step "venv and test dependencies (build/python/venv)"
rm -rf "$out/venv" "$out/venv-sdist" "$out/dist"
mkdir -p "$out"
$python -m venv "$out/venv"
py=$out/venv/bin/python
$py -m pip install -q pytest mypy build
done_step

step "pip install ./bindings/python (warnings are errors in the walk and the core)"
$py -m pip install -q --config-settings=cmake.define.FBE_WERROR=ON ./bindings/python
done_step

step "pytest bindings/python/tests"
(cd "$out" && $py -m pytest -q -p no:cacheprovider "$repo/bindings/python/tests")
done_step

step "sdist: build, install outside the repository, run"
$py -m build -q --sdist --outdir "$out/dist" bindings/python >/dev/null
sdist=$(ls "$out"/dist/fbe-*.tar.gz)
echo "sdist: $(basename "$sdist") ($(tar tzf "$sdist" | wc -l) files, $(du -k "$sdist" | cut -f1) KiB)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$sdist" "$tmp/"
cp -r schemas "$tmp/schemas"
cp tests/conformance/*.jsonl "$tmp/"
$python -m venv "$tmp/venv"
(cd "$tmp" && "$tmp/venv/bin/python" -m pip install -q "./$(basename "$sdist")" &&
  "$tmp/venv/bin/python" -c 'import fbe, sys; assert "/venv/" in fbe.__file__, fbe.__file__' &&
  $python "$repo/tests/conformance/runner" --describe-testee none --testee "python=$tmp/venv/bin/python -m fbe.testee" \
    --text --behaviour behaviour.jsonl --conversations conversations.jsonl -I schemas vectors.jsonl malformed.jsonl \
    malformed-extra.jsonl versioning.jsonl)
done_step

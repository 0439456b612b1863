#!/usr/bin/env bash
# The "java" stage of ci/test.sh: builds and tests the fbe Java binding.
#   1. mvn -f bindings/java install: CMake builds libfbejni (core + SWIG + the JNI walk)
#      into the jar, then the JUnit 5 tests run (API, errors, memory, limits; the testee
#      through the shared runner tests/conformance/runner)
#   2. the surefire reports: more than zero tests, none skipped, none failed
#   3. the runnable jar, copied with the schemas and the conformance files to a temporary
#      directory outside the repository: its testee (java -jar fbe.jar testee) through
#      the shared runner over the files (with the text of every decoded record, every
#      decode and text again through a view, and the bad inputs of behaviour.jsonl
#      through the JSON and the native path), and the conversations (clients, servers
#      and proxies: docs/TESTEE.md)
# (The benchmark, benchmarks/java, runs in ci/bench.sh: the test command's "bench (smoke)"
# stage builds and runs it once.)
# Prints each step with its duration; exits non-zero when any step failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
repo=$PWD
out=$repo/build/java
mkdir -p "$out"
jar=$repo/bindings/java/target/fbe-0.1.0.jar

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
step_t0=0
step() {
  step_t0=$(now_us)
  printf -- '-- java: %s\n' "$1"
}
done_step() {
  local us=$(($(now_us) - step_t0))
  printf -- '-- java: ... %d.%d s\n' $((us / 1000000)) $((us % 1000000 / 100000))
}

echo "java: $(java -version 2>&1 | head -1); $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"

step "mvn -f bindings/java install (libfbejni with -Werror, jar, JUnit 5 tests)"
if ! mvn -B -ntp -f bindings/java install -Dfbe.werror=ON >"$out/mvn-install.log" 2>&1; then
  grep -E 'ERROR|FAIL|Tests run' "$out/mvn-install.log" | head -60 || true
  echo "java: mvn install failed (log: $out/mvn-install.log)"
  exit 1
fi
grep -E '^\[(INFO|WARNING)\] Tests run:|memory:' "$out/mvn-install.log" | sed 's/^\[[A-Z]*\] //' || true
done_step

step "surefire reports"
python3 - "$repo/bindings/java/target/surefire-reports" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
tests = skipped = failed = 0
files = glob.glob(sys.argv[1] + "/TEST-*.xml")
for f in files:
    s = ET.parse(f).getroot()
    tests += int(s.get("tests")); skipped += int(s.get("skipped"))
    failed += int(s.get("failures")) + int(s.get("errors"))
print(f"java: {tests} tests in {len(files)} classes, {failed} failed, {skipped} skipped")
sys.exit(0 if tests > 0 and skipped == 0 and failed == 0 else 1)
PY
done_step

step "java -jar fbe.jar testee through the runner (outside the repository)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$jar" "$tmp/fbe.jar"
cp -r schemas "$tmp/schemas"
cp tests/conformance/vectors.jsonl tests/conformance/malformed.jsonl tests/conformance/malformed-extra.jsonl \
  tests/conformance/versioning.jsonl tests/conformance/conversations.jsonl "$tmp/"
(cd "$tmp" && python3 "$repo/tests/conformance/runner" --describe-testee none --text --view --testee "java=java -jar $tmp/fbe.jar testee" \
  --behaviour "$repo/tests/conformance/behaviour.jsonl" --conversations conversations.jsonl \
  -I schemas vectors.jsonl malformed.jsonl malformed-extra.jsonl versioning.jsonl)
done_step

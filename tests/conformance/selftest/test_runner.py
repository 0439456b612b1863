#!/usr/bin/env python3
"""The runner's self-test: deliberately broken testees (wrong bytes, wrong values, a
crash, a hang) must each be caught with a clear failure line while the run completes.

  python3 tests/conformance/selftest/test_runner.py FBE_BINARY

FBE_BINARY is the fbe tool (its `fbe testee` is the good testee the broken ones wrap).
Exit status 0 when every case behaves, 1 otherwise.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(os.path.dirname(HERE), "runner")
VECTORS = os.path.join(os.path.dirname(HERE), "vectors.jsonl")
BROKEN = os.path.join(HERE, "broken_testee.py")


def run(fbe, mode, records):
    good = "%s testee" % shlex.quote(fbe)
    bad = "%s %s %s %s" % (shlex.quote(sys.executable), shlex.quote(BROKEN), mode, good)
    proc = subprocess.run([sys.executable, RUNNER, "--timeout", "2", "--testee", "c=" + good,
                           "--testee", "broken=" + bad, records],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    return proc.returncode, proc.stdout


CASES = {
    # mode: a failure line that must appear
    "wrong-bytes": r"^FAIL \S+ \[broken -> (c|broken)\] broken's bytes differ at offset \d+",
    "wrong-values": r"^FAIL \S+ \[(c -> broken|broken)\] (value differs|decoded value differs) at \$\.",
    "crash": r"^FAIL \S+ \[broken -> (c|broken)\] encode: crashed \(exit status 3\)",
    "hang": r"^FAIL \S+ \[(broken|c -> broken)\] decode: hang: no response within 2 s",
}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    fbe = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        records = os.path.join(tmp, "few.jsonl")
        with open(VECTORS, encoding="utf-8") as src, open(records, "w", encoding="utf-8") as dst:
            lines = [l for l in src if l.strip()]
            dst.writelines(lines[:4] + [l for l in lines if '"format":"stream-' in l][:1])
        failures = 0
        rc, out = run(fbe, "none", records)  # the proxy itself, unbroken: all green
        if rc != 0 or not re.search(r"^\d+ passed, 0 failed$", out, re.M):
            print("selftest FAIL: the unbroken proxy testee does not pass:\n" + out)
            failures += 1
        for mode, pattern in CASES.items():
            rc, out = run(fbe, mode, records)
            closing = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
            problems = []
            if rc != 1:
                problems.append("exit status %d, want 1" % rc)
            if not closing or closing.group(2) == "0":
                problems.append("no closing line with failures")
            if not re.search(pattern, out, re.M):
                problems.append("no failure line matching %r" % pattern)
            if not re.search(r"^c {2,}\d+/0 ", out, re.M):
                problems.append("the good testee's own row is not all green")
            if problems:
                failures += 1
                print("selftest FAIL %s: %s\n%s" % (mode, "; ".join(problems), out))
            else:
                line = re.search(pattern + ".*", out, re.M).group(0)
                print("selftest ok   %-13s caught: %s (%s)" % (mode, line, closing.group(0)))
    print("runner selftest: %d of %d cases failed" % (failures, len(CASES) + 1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The runner's self-test: deliberately broken testees (broken_testee.py: wrong bytes,
wrong values, a crash, a hang, a decoder that crashes on malformed bytes when trusted
(not verified first), an integer off by one at 2^64-1, -0.0 for 0.0 and back,
maps in another order, a non-UTF-8 line, a receiver that works only when fed whole) must
each be caught with a clear failure line while the run completes; a decimal with another
scale ("0.50" for "0.5") must pass; _meta lines and unknown formats are skipped;
known-failure lists tolerate what they list and fail the run when a listed one passes;
a regression directory (its own schema and records, between two files of the test
schemas) is run with its schema, a map repeating a key as the wire may compared alike;
behaviour records (--behaviour) pass with the good testee and fail, side by side, for a
testee that answers another status, no status, ignores "native": true or does not know
it; the text check (--text) passes with the good testee and fails for a testee whose text
differs or that does not know the text request; the view check (--view) passes with the
good testee and fails for one whose answers through a view differ.

  python3 tests/conformance/selftest/test_runner.py FBE_BINARY

FBE_BINARY is the fbe tool (its `fbe testee` is the good testee the broken ones wrap).
Exit status 0 when every case behaves, 1 otherwise.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(os.path.dirname(HERE), "runner")
VECTORS = os.path.join(os.path.dirname(HERE), "vectors.jsonl")
MALFORMED = os.path.join(os.path.dirname(HERE), "malformed.jsonl")
BEHAVIOUR = os.path.join(os.path.dirname(HERE), "behaviour.jsonl")
# the behaviour records of the selftest: every status, both paths, one record whose native
# path wants another status than its JSON path (native_status), one decode
BEHAVIOUR_RECORDS = ["bool-StructSimple-bool-f1-integer-1", "int-StructSimple-int8-f9-max-plus-one",
                     "char-StructSimple-char-f5-two-characters", "uuid-StructSimple-uuid-f36-text-letters",
                     "struct-Order-unknown-member-a-near-name", "decode-Order-standard-truncated-to-3-bytes"]
NATIVE_STATUS_RECORD = "char-StructSimple-char-f5-two-characters"
BROKEN = os.path.join(HERE, "broken_testee.py")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

# the records of the cases beyond the first four: each holds what its cases break
RICH = {
    "pub-test-StructSimple-default-standard": ["18446744073709551615", '"f25": 0.0'],
    "pub-test-StructSimple-filled-standard": ['"0.5"', '"-987654.321"'],
    "pub-test-StructMap-filled-standard": ['"f1": {"10": 48, "20": 65}'],
}
MAP_RECORD = "pub-test-StructMap-filled-standard"
MALFORMED_RECORD = "pub-mal-001"  # the malformed record of the "malformed" records (after the base ones)
# no public vector holds -0.0: this record is StructSimple's default with -0.0 in the
# float f25 and the double f27, its bytes encoded by the C core
NEGATIVE_ZERO = ("pub-test-StructSimple-default-standard", "selftest-StructSimple-negative-zero-standard",
                 {"f25": -0.0, "f27": -0.0})

KNOWN_TOLERATED = """\
# the selftest's list: the broken testee's values are off by one
* broken decodes every value with its first number bumped
pub-proto-Order-readme-standard c->broken the same, as a cell
"""
KNOWN_NOW_PASSING = """\
pub-proto-Order-readme-standard c listed, but c passes it
not-in-this-run-* c never run, so not reported
"""

# name: (broken mode, records, runner options, exit status, a line that must appear, check of every FAIL line)
CASES = {
    "none": ("none", "rich", [], 0, r"^\d+ passed, 0 failed$", None),
    "wrong-bytes": ("wrong-bytes", "base", [], 1,
                    r"^FAIL \S+ \[broken -> (c|broken)\] broken's bytes differ at offset \d+", None),
    "wrong-values": ("wrong-values", "base", [], 1,
                     r"^FAIL \S+ \[(c -> broken|broken)\] (value differs|decoded value differs): \$\.", None),
    "crash": ("crash", "base", [], 1,
              r"^FAIL \S+ \[broken -> (c|broken)\] encode: crashed \(exit status 3\)", None),
    "hang": ("hang", "base", ["--timeout", "2"], 1,
             r"^FAIL \S+ \[(broken|c -> broken)\] decode: hang: no response within 2 s", None),
    "trusted-crash": ("trusted-crash", "malformed", [], 1,
                      r"^FAIL %s \[broken\] trusted decode of malformed bytes: crashed \(exit status 4\)$" % MALFORMED_RECORD,
                      r"^FAIL %s \[broken\] trusted decode" % MALFORMED_RECORD),  # nothing else fails
    "int-off-by-one": ("int-off-by-one", "rich", [], 1,
                       r"^(FAIL \S+ \[(broken|c -> broken)\] decoded value differs: |    )"
                       r"\$\.f24: got 18446744073709551614, want 18446744073709551615$", None),
    "int-off-by-one untyped": ("int-off-by-one", "rich", ["--describe-testee", "none"], 1,
                               r"\$\.f24: got 18446744073709551614, want 18446744073709551615$", None),
    "negative-zero": ("negative-zero", "rich", [], 1,
                      r"\$\.f25: got -0\.0, want 0\.0 \(float32 bits 80000000, want 00000000\)$", None),
    "positive-zero": ("positive-zero", "rich", [], 1,
                      r"\$\.f27: got 0\.0, want -0\.0 \(double bits 0{16}, want 80{15}\)$", None),
    "map-order": ("map-order", "rich", [], 1,
                  r"^(FAIL %s \[broken\] decoded value differs( \(\d+ differences\))?: |    )\$\.f1: members in another "
                  r"order \(the wire order is significant\): got keys \[\"20\",\"10\"\], want \[\"10\",\"20\"\]"
                  % MAP_RECORD, r"^FAIL %s " % MAP_RECORD),  # reversed structs pass: by member
    "decimal-scale": ("decimal-scale", "rich", [], 0, r"^\d+ passed, 0 failed$", None),
    "decimal-scale untyped": ("decimal-scale", "rich", ["--describe-testee", "none"], 1,
                              r'\$\.f30: got "0\.50", want "0\.5"$', None),  # so the typed pass is no accident
    "non-utf8": ("non-utf8", "rich", ["--timeout", "60"], 1,
                 r"^FAIL \S+ \[broken\] decode: malformed response: not valid UTF-8 \(byte e9 at offset 22\)",
                 r"not valid UTF-8"),  # one failure, not a hang; the restart keeps the rest green
    "whole-only": ("whole-only", "rich", [], 1,
                   r"^FAIL \S+ \[broken\] stream-decode in chunks of 1: messages differ", r"\[broken\] stream-decode in"),
    "meta and unknown formats": ("none", "meta", [], 0,
                                 r"^skipped: 3 \(_meta 1, unknown format 'x-future' 2\)$", None),
    "known failures tolerated": ("wrong-values", "base", ["--known-failures", "tolerated"], 0,
                                 r"^KNOWN pub-proto-Order-readme-standard \[c -> broken\] value differs", None),
    "regression directory": ("none", "dir-between", [], 0, r"^\d+ passed, 0 failed$", None),
    "regression directory, broken": ("wrong-values", "dir-between", [], 1,
                                     r"^FAIL selftest-reg-0 \[(broken|c -> broken)\] (decoded )?value differs", None),
    "known failure now passing": ("none", "base", ["--known-failures", "now-passing"], 3,
                                  r"^NOW PASSES pub-proto-Order-readme-standard c \(\S+:1: listed, but c passes it\): "
                                  r"now passes, remove from list$", None),
    "behaviour": ("none", "no-records", ["--behaviour", "behaviour"], 0, r"^\d+ passed, 0 failed$", None),
    "behaviour, wrong status": ("wrong-status", "no-records", ["--behaviour", "behaviour"], 1,
                                r"^FAIL \S+:json \[broken\] json: FBE_ERR_\w+, want FBE_ERR_\w+: .* at 'f\d+' \(offset \d+\)$",
                                r"^FAIL \S+ \[broken\] (json|native|decode): FBE_ERR_\w+, want FBE_ERR_\w+: "),
    "behaviour, side by side": ("wrong-status", "no-records", ["--behaviour", "behaviour"], 1,
                                r"^    broken +FAIL +FBE_ERR_RANGE +expected bool, got an integer at 'f1'$", None),
    "behaviour, no status": ("no-status", "no-records", ["--behaviour", "behaviour"], 1,
                             r"^FAIL \S+ \[broken\] decode: no status, want FBE_ERR_MALFORMED: ", None),
    "behaviour, native ignored": ("native-as-json", "no-records", ["--behaviour", "behaviour"], 1,
                                  r"^FAIL %s:native \[broken\] native: FBE_ERR_TYPE, want FBE_ERR_ARGUMENT: "
                                  % NATIVE_STATUS_RECORD, r"^FAIL %s:native \[broken\]" % NATIVE_STATUS_RECORD),
    "behaviour, no native": ("no-native", "no-records", ["--behaviour", "behaviour"], 1,
                             r"^FAIL \S+:native \[broken\] native: no status, want FBE_ERR_\w+: unknown op$",
                             r":native \[broken\] native: no status"),
    "text": ("none", "rich", ["--text"], 0, r"^broken +\d+/0 *$", None),
    "wrong text": ("wrong-text", "rich", ["--text"], 1,
                   r"^FAIL \S+:text \[broken\] text differs from c's at character \d+", r":text \[broken\] text"),
    "no text": ("no-text", "rich", ["--text"], 1, r"^FAIL \S+:text \[broken\] text: error: unknown op$",
                r":text \[broken\] text: error: unknown op$"),
    "view": ("none", "rich", ["--view", "--text"], 0, r"^broken +\d+/0 *$", None),
    "wrong view": ("wrong-view", "rich", ["--view", "--text"], 1,
                   r"^FAIL \S+:text:view \[broken\] view: the answer ", r":view \[(\w+ -> )?broken\] view: the answer "),
}


def derived_record(fbe, base, rid, changes):
    """The base record with some values changed, its bytes and size from the C core."""
    rec = dict(json.loads(base), id=rid)
    rec["json"] = dict(rec["json"], **changes)
    request = {"package": rec["schema"], "type": rec["type"], "model": rec["format"]}
    lines = [{"op": "load", "include": [os.path.join(REPO, "schemas")]},
             dict(request, op="encode", json=rec["json"])]
    out = subprocess.run([fbe, "testee"], input="".join(json.dumps(l) + "\n" for l in lines), text=True,
                         stdout=subprocess.PIPE, check=True).stdout.splitlines()
    answer = json.loads(out[1])
    if not answer.get("ok"):
        sys.exit("selftest: cannot encode %s: %s" % (rid, answer))
    rec["hex"], rec["size"] = answer["hex"], len(answer["hex"]) // 2
    return json.dumps(rec) + "\n"


# a regression directory: a schema of its own (a map and a set, in wire order)
REGRESSION_SCHEMA = "package selfreg\nstruct Pair { int32{string} m; int16! s; }\n"
REGRESSION_VALUE = '{"m":{"k":1,"j":3},"s":[6,5]}'


def regression_dir(fbe, tmp):
    d = os.path.join(tmp, "regression")
    os.makedirs(d)
    with open(os.path.join(d, "selfreg.fbe"), "w", encoding="utf-8") as f:
        f.write(REGRESSION_SCHEMA)
    lines = '{"op":"load","include":[%s]}\n{"op":"encode","package":"selfreg","type":"Pair","json":%s}\n' % (
        json.dumps(d), REGRESSION_VALUE)
    out = subprocess.run([fbe, "testee"], input=lines, text=True, stdout=subprocess.PIPE, check=True).stdout
    answer = json.loads(out.splitlines()[1])
    if not answer.get("ok"):
        sys.exit("selftest: cannot encode the regression record: %s" % answer)
    with open(os.path.join(d, "record.jsonl"), "w", encoding="utf-8") as f:
        f.write('{"_meta":{"note":"a regression of the selftest"}}\n')
        f.write('{"id":"selftest-reg-0","schema":"selfreg","type":"Pair","format":"standard","json":%s,"hex":"%s",'
                '"size":%d}\n' % (REGRESSION_VALUE, answer["hex"], len(answer["hex"]) // 2))
    return d


def write_records(fbe, tmp):
    with open(VECTORS, encoding="utf-8") as src:
        lines = [l for l in src if l.strip()]
    by_id = {json.loads(l)["id"]: l for l in lines}
    stream = [l for l in lines if '"format":"stream-' in l][:1]
    base = lines[:4] + stream
    rich = base[:]
    for rid, needles in RICH.items():  # the cases would prove nothing without these values
        text = json.dumps(json.loads(by_id[rid])["json"])
        for needle in needles:
            if needle not in text:
                sys.exit("selftest: %s lacks %s; pick another record" % (rid, needle))
        rich.append(by_id[rid])
    rich.append(derived_record(fbe, by_id[NEGATIVE_ZERO[0]], *NEGATIVE_ZERO[1:]))
    with open(MALFORMED, encoding="utf-8") as src:
        malformed = base + [l for l in src if json.loads(l)["id"] == MALFORMED_RECORD]
    if len(malformed) != len(base) + 1:
        sys.exit("selftest: no %s in %s" % (MALFORMED_RECORD, MALFORMED))
    meta = ['{"_meta":{"generator":"selftest","note":"a header line, skipped"}}\n'] + base + [
        '{"id":"future-%d","format":"x-future","hex":"00"}\n' % i for i in range(2)]
    paths = {}
    for name, content in (("base", base), ("rich", rich), ("malformed", malformed), ("meta", meta),
                          ("tolerated", KNOWN_TOLERATED), ("now-passing", KNOWN_NOW_PASSING)):
        paths[name] = os.path.join(tmp, name)
        with open(paths[name], "w", encoding="utf-8") as f:
            f.writelines(content)
    paths["dir-between"] = [paths["base"], regression_dir(fbe, tmp), paths["meta"]]
    paths["no-records"] = []
    with open(BEHAVIOUR, encoding="utf-8") as src:
        behaviour = {json.loads(l).get("id"): l for l in src if l.strip()}
    missing = [rid for rid in BEHAVIOUR_RECORDS if rid not in behaviour]
    if missing:
        sys.exit("selftest: no %s in %s" % (", ".join(missing), BEHAVIOUR))
    paths["behaviour"] = os.path.join(tmp, "behaviour")
    with open(paths["behaviour"], "w", encoding="utf-8") as f:
        f.writelines(behaviour[rid] for rid in BEHAVIOUR_RECORDS)
    return paths


def run(fbe, mode, records, options, state):
    good = "%s testee" % shlex.quote(fbe)
    bad = "%s %s %s %s" % (shlex.quote(sys.executable), shlex.quote(BROKEN), mode, good)
    records = records if isinstance(records, list) else [records]
    proc = subprocess.run([sys.executable, RUNNER] + options + ["--testee", "c=" + good, "--testee", "broken=" + bad]
                          + records,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900,
                          env=dict(os.environ, BROKEN_STATE=state))
    return proc.returncode, proc.stdout


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    fbe = os.path.abspath(sys.argv[1])
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_records(fbe, tmp)
        for name, (mode, records, options, status, pattern, every_fail) in CASES.items():
            options = [paths.get(o, o) for o in options]
            state = tempfile.mkdtemp(dir=tmp)
            rc, out = run(fbe, mode, paths[records], options, state)
            closing = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
            fails = re.findall(r"^FAIL .*", out, re.M)
            problems = []
            if rc != status:
                problems.append("exit status %d, want %d" % (rc, status))
            if not closing or (closing.group(2) == "0") != (status != 1):
                problems.append("no closing line with %s" % ("failures" if status == 1 else "0 failed"))
            if not re.search(pattern, out, re.M):
                problems.append("no line matching %r" % pattern)
            if not re.search(r"^c {2,}\d+/0 ", out, re.M):
                problems.append("the good testee's own row is not all green")
            if every_fail and [f for f in fails if not re.search(every_fail, f)]:
                problems.append("a failure line not matching %r" % every_fail)
            if mode == "non-utf8" and len(fails) != 1:
                problems.append("%d failures, want the one malformed answer only" % len(fails))
            if problems:
                failures += 1
                print("selftest FAIL %s: %s\n%s" % (name, "; ".join(problems), out))
            else:
                line = re.search(pattern + ".*", out, re.M).group(0)
                print("selftest ok   %-26s %s (%s)" % (name, line.strip(), closing.group(0)))
    print("runner selftest: %d of %d cases failed" % (failures, len(CASES)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

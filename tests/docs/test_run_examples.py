#!/usr/bin/env python3
"""The test of tests/docs/run_examples.py: small markdown files, each with one rule to
keep, and the verdict the runner must give (its exit status and the block's line).

    python3 tests/docs/test_run_examples.py

Uses sh and c blocks only (C needs build/release/libfbe.a), so it runs anywhere the
test command's Release build has run.
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(HERE, "run_examples.py")

F = "```"
CASES = [
    # (name, markdown, exit status, text every expected line must contain, in order)
    ("a clean block runs",
     f"{F}sh\necho hello\n{F}\n", 0, ["sh ran", "1 ran, 0 skipped, 0 failed"]),
    ("a failing block fails the run, with its output",
     f"{F}sh\necho to-stderr >&2\nexit 3\n{F}\n", 1, ["sh FAILED (exit status 3)", "| to-stderr"]),
    ("a failing command inside a block fails it (bash -e, pipefail)",
     f"{F}bash\nfalse | cat\necho not-reached\n{F}\n", 1, ["bash FAILED (exit status 1)"]),
    ("skip needs a reason",
     f"<!-- example: skip -->\n{F}sh\ntrue\n{F}\n", 1, ["sh FAILED ('skip' needs a reason)"]),
    ("skip with a reason skips",
     f"<!-- example: skip the test command itself -->\n{F}sh\nexit 1\n{F}\n", 0,
     ["sh skipped (the test command itself)", "0 ran, 1 skipped, 0 failed"]),
    ("an unknown marker fails",
     f"<!-- example: skipp typo -->\n{F}sh\ntrue\n{F}\n", 1, ["unknown marker 'skipp'"]),
    ("a marker must be right before its fence",
     f"<!-- example: skip reason -->\n\n{F}sh\ntrue\n{F}\n", 1,
     ["marker FAILED (an example marker must be a line of its own right before a fence",
      "sh ran", "1 ran, 0 skipped, 1 failed"]),
    ("an unknown language fails (a typo must not hide a block)",
     f"{F}pyhton\nprint(1)\n{F}\n", 1, ["pyhton FAILED (unknown language 'pyhton'"]),
    ("untagged and cmake blocks are not code",
     f"{F}\nexit 1\n{F}\n\n{F}cmake\nfind_package(nothing)\n{F}\n", 0,
     ["untagged not code", "cmake not code"]),
    ("an output block is checked against the block before it",
     f"{F}sh\nprintf 'a\\nb  \\nc\\n'\n{F}\n<!-- example: output -->\n{F}\nb\nc\n{F}\n", 0,
     ["sh ran", "untagged checked"]),
    ("an output block that is not in the output fails",
     f"{F}sh\necho a\n{F}\n<!-- example: output -->\n{F}\nb\n{F}\n", 1,
     ["untagged FAILED (not in the output", "| a"]),
    ("continues appends to the block before, across prose",
     f"{F}sh\nx=41\n{F}\nprose\n<!-- example: continues -->\n{F}sh\necho $((x + 1))\n{F}\n"
     f"<!-- example: output -->\n{F}\n42\n{F}\n", 0, ["sh ran", "sh ran (with", "checked"]),
    ("continues without a block before fails",
     f"<!-- example: continues -->\n{F}sh\ntrue\n{F}\n", 1, ["no sh block comes before it"]),
    ("expect-fail passes on failure",
     f"<!-- example: expect-fail -->\n{F}sh\nexit 2\n{F}\n", 0, ["failed as expected, exit status 2"]),
    ("expect-fail fails on success",
     f"<!-- example: expect-fail -->\n{F}sh\ntrue\n{F}\n", 1, ["expected to fail, but exited 0"]),
    ("a saved file is used by a later block",
     f"<!-- example: file hello.sh -->\n{F}sh\necho saved-and-run\n{F}\n{F}sh\nbash hello.sh\n{F}\n"
     f"<!-- example: output -->\n{F}\nsaved-and-run\n{F}\n", 0,
     ["sh saved (as hello.sh, used by", "sh ran", "checked"]),
    ("a saved file no later block uses fails",
     f"<!-- example: file unused.c -->\n{F}c\nint x;\n{F}\n", 1, ["no later block that runs names it"]),
    ("blocks run from a copy of the root: repository paths resolve, writes stay out",
     f"{F}sh\ntest -f schemas/proto.fbe && test -x build/release/bin/fbe\n"
     f"echo x > docs-test-written.txt\nfbe version\n{F}\n", 0, ["sh ran"]),
    ("a block that does not exit in time fails",
     f"{F}sh\nsleep 30\n{F}\n", 1, ["sh FAILED (did not exit)", "no exit within 1 s"]),
    ("a C fragment is wrapped in main() and compiled with -Werror",
     f"{F}c\nprintf(\"%s\\n\", fbe_version());\n{F}\n", 0, ["c ran"]),
    ("a C warning fails the block",
     f"{F}c\nint unused;\n{F}\n", 1, ["c FAILED", "unused"]),
    ("a console block runs its $ lines and checks the rest",
     f"{F}console\n$ echo one\none\n{F}\n\n{F}console\n$ echo one\ntwo\n{F}\n", 1,
     ["console ran", "console FAILED (the console output differs)"]),
]


def main():
    failures = 0
    with tempfile.TemporaryDirectory(prefix="fbe-docs-test-") as tmp:
        for i, (name, markdown, want_status, want_lines) in enumerate(CASES):
            path = os.path.join(tmp, f"case{i}.md")
            with open(path, "w", encoding="utf-8") as f:
                f.write(markdown)
            p = subprocess.run([sys.executable, RUNNER, "--timeout", "1", path],
                               capture_output=True, text=True)
            out = p.stdout + p.stderr
            problems = []
            if p.returncode != want_status:
                problems.append(f"exit status {p.returncode}, want {want_status}")
            at = 0
            for want in want_lines:
                found = out.find(want, at)
                if found < 0:
                    problems.append(f"no {want!r} (in order)")
                else:
                    at = found + len(want)
            if os.path.exists(os.path.join(REPO, "docs-test-written.txt")):
                problems.append("a block wrote into the repository")
                os.remove(os.path.join(REPO, "docs-test-written.txt"))
            print(f"{'ok  ' if not problems else 'FAIL'} {name}")
            if problems:
                failures += 1
                for problem in problems:
                    print(f"     {problem}")
                print("     runner output:\n" + "\n".join("     | " + l for l in out.splitlines()))
    print(f"{len(CASES) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

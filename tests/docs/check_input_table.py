#!/usr/bin/env python3
"""Checks that every binding tests every row of the input table (docs/INPUT.md).

    python3 tests/docs/check_input_table.py

Reads the row ids of docs/INPUT.md's table (`bool`, `int`, ...) and, for each binding's
test directory, the test files whose name contains "input" (test_input.py,
input.test.js, test_input.rb, InputTableTest.java): every id must appear in them as a
quoted string ("decimal" or 'decimal'), the name of that row's case in the binding's
one parameterised input test. Fails naming each binding and the ids it misses, or a
binding without such a file.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUT_MD = os.path.join(ROOT, "docs", "INPUT.md")
TEST_DIRS = {
    "python": "bindings/python/tests",
    "node": "bindings/node/test",
    "ruby": "bindings/ruby/test",
    "java": "bindings/java/src/test",
}


def row_ids():
    with open(INPUT_MD, encoding="utf-8") as f:
        return re.findall(r"^\| `([a-z]+)` \|", f.read(), re.M)


def input_files(directory):
    for dirpath, _, names in os.walk(os.path.join(ROOT, directory)):
        for name in sorted(names):
            if "input" in name.lower():
                yield os.path.join(dirpath, name)


def main():
    ids = row_ids()
    if not ids:
        sys.exit("check_input_table: no rows found in docs/INPUT.md (want lines like | `bool` | ...)")
    problems = []
    for binding, directory in TEST_DIRS.items():
        files = list(input_files(directory))
        if not files:
            problems.append("%s: no test file whose name contains 'input' in %s" % (binding, directory))
            continue
        text = ""
        for path in files:
            with open(path, encoding="utf-8") as f:
                text += f.read()
        missing = [i for i in ids if not re.search(r"""(["'])%s\1""" % re.escape(i), text)]
        if missing:
            problems.append("%s: %s %s no case for the row%s %s" % (
                binding, ", ".join(os.path.relpath(p, ROOT) for p in files), "has" if len(files) == 1 else "have",
                "s" if len(missing) > 1 else "", ", ".join(missing)))
    for line in problems:
        print("check_input_table: " + line)
    print("check_input_table: %d rows (%s), %d bindings, %d problems" % (len(ids), " ".join(ids), len(TEST_DIRS),
                                                                       len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

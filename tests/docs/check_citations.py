#!/usr/bin/env python3
"""Checks that every document the tree cites is in the tree.

    python3 tests/docs/check_citations.py

Reads every tracked source, script and markdown file for citations of a markdown
document ("FORMAT.md 5.10", "docs/TESTEE.md", "SCHEMA.md section 6.5") and fails when
the document is not in the repository, or when a cited section number of
FORMAT.md or SCHEMA.md has no heading of that number in docs/. Paths outside the tree
("../shared/...") are refused: a clone alone must be enough.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CITE = re.compile(r"((?:[\w.-]+/)*[\w-]+\.md)(?:,? (?:section |sections |§)?(\d+(?:\.\d+)*))?")
SECTIONED = {"FORMAT.md", "SCHEMA.md"}
PLACEHOLDERS = {"FILE.md", "OUT.md"}  # usage lines: "run_examples.py [FILE.md...]"
SUFFIXES = (".c", ".h", ".i", ".py", ".js", ".ts", ".rb", ".java", ".sh", ".md", ".cmake",
            ".txt", ".gyp", ".toml", ".json")


def headings(name):
    numbers = set()
    with open(os.path.join(ROOT, "docs", name)) as f:
        for line in f:
            m = re.match(r"#+\s+(\d+(?:\.\d+)*)\.?\s", line)
            if m:
                numbers.add(m.group(1))
    return numbers


def main():
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others", "--exclude-standard"], capture_output=True, text=True,
                           check=True).stdout.split()
    present = {os.path.basename(p) for p in files} | {p for p in files}
    sections = {name: headings(name) for name in SECTIONED}
    problems, count = [], 0
    for path in files:
        if not path.endswith(SUFFIXES) or path.startswith("tests/conformance/vectors") or \
                path == "tests/docs/check_citations.py":
            continue
        full = os.path.join(ROOT, path)
        if not os.path.isfile(full) or os.path.getsize(full) > 2_000_000:
            continue
        text = open(full, errors="replace").read()
        for lineno, line in enumerate(text.splitlines(), 1):
            if "../shared/" in line or "/work/shared" in line:
                problems.append("%s:%d: cites a path outside the repository" % (path, lineno))
            for m in CITE.finditer(line):
                doc, section = m.group(1), m.group(2)
                name = os.path.basename(doc)
                if name in PLACEHOLDERS or not name[0].isupper():
                    continue  # a placeholder, or code like args.md (documents are NAME.md)
                count += 1
                if doc not in present and name not in present:
                    problems.append("%s:%d: cites %s, which is not in the repository" % (path, lineno, doc))
                elif section and name in SECTIONED and section not in sections[name]:
                    # "FORMAT.md 5" cites a chapter; "5.10" a section: both are headings
                    problems.append("%s:%d: cites %s %s, which docs/%s has no heading for" %
                                    (path, lineno, name, section, name))
    for p in problems:
        print("check_citations: " + p)
    print("check_citations: %d citations in %d files: %s" %
          (count, len(files), "ok" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

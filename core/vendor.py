#!/usr/bin/env python3
"""Copies the core a package compiles into DEST/core, the same way for every package.

    python3 core/vendor.py DEST

Copies core/sources.txt (the one source list), core/sources.cmake, every source the
list names, every header of core/src/ and core/include/ (the public and the internal
layer), keeping the tree. The Python sdist (bindings/python/_build/backend.py), the npm
tarball (bindings/node/scripts/prepack.js) and the gem (bindings/ruby/tools/build_gem.sh)
vendor with it; the jar and the CMake build read core/ in place.
"""
import os
import shutil
import sys

CORE = os.path.dirname(os.path.abspath(__file__))


def sources():
    with open(os.path.join(CORE, "sources.txt")) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def headers():
    for top in ("src", "include"):
        for folder, _, files in os.walk(os.path.join(CORE, top)):
            for name in files:
                if name.endswith(".h"):
                    yield os.path.relpath(os.path.join(folder, name), CORE)


def vendor(dest):
    out = os.path.join(dest, "core")
    if os.path.exists(out):
        shutil.rmtree(out)
    files = ["sources.txt", "sources.cmake"] + [os.path.join("src", s) for s in sources()]
    for rel in files + sorted(headers()):
        target = os.path.join(out, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(CORE, rel), target)
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(vendor(sys.argv[1]))

#!/usr/bin/env python3
"""module_zip.py VERSION OUT.zip: the module zip of libfbe.org/fbe at vVERSION, as a Go
module proxy serves it (https://go.dev/ref/mod#zip-files): every file of bindings/go
under the prefix libfbe.org/fbe@vVERSION/, the core vendored by tools/vendor.sh included
(gitignored in the tree, needed by `go build` of a user who has no checkout). Run
tools/vendor.sh first; ci/dist.sh does both."""
import os
import sys
import zipfile

MODULE = "libfbe.org/fbe"
here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
version, out = sys.argv[1], sys.argv[2]
if not os.path.isfile(os.path.join(here, "core", "sources.txt")):
    sys.exit("module_zip.py: the core is not vendored: run bindings/go/tools/vendor.sh")
prefix = f"{MODULE}@v{version}/"
files = []
for root, dirs, names in os.walk(here):
    dirs[:] = sorted(d for d in dirs if not d.startswith("."))
    for name in sorted(names):
        path = os.path.join(root, name)
        if os.path.islink(path) or not os.path.isfile(path):
            continue  # a module zip holds regular files only
        files.append(os.path.relpath(path, here))
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for rel in files:
        info = zipfile.ZipInfo(prefix + rel.replace(os.sep, "/"), date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(os.path.join(here, rel), "rb") as f:
            z.writestr(info, f.read())
print(out)

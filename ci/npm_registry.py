#!/usr/bin/env python3
"""A read-only npm registry for a folder of package tarballs, on the loopback only.

    python3 npm_registry.py FOLDER [--upstream URL] [--port N] [--seconds S]

FOLDER holds tarballs as `npm pack` makes them (NAME-VERSION.tgz, any number, any
names). GET /NAME answers the package document (the "packument") npm asks for when it
installs NAME by name: every version found in the tarballs' package.json, dist-tags
latest = the highest, each with its tarball URL on this server and its sha512
integrity and sha1 shasum; GET /NAME/-/FILE.tgz answers the tarball. Any other name
(the package's own dependencies) is redirected to --upstream, the registry npm uses
otherwise (`npm config get registry`), as a registry proxy's uplink would; without
--upstream it is not found. Nothing is written, nothing is published. It listens on 127.0.0.1 only, prints
"listening on http://127.0.0.1:PORT/" once it does, and exits by itself after
--seconds (default 300), so a script that dies cannot leave it running.
Standard library only: `npm install --registry http://127.0.0.1:PORT/ NAME`.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import http.server
import json
import os
import sys
import tarfile
import threading
import urllib.parse


def version_key(v: str) -> tuple:
    core, _, pre = v.partition("-")
    nums = tuple(int(x) if x.isdigit() else 0 for x in core.split("."))
    return nums + ((1,) if not pre else (0, pre))  # a release sorts after its pre-releases


def scan(folder: str) -> dict[str, dict[str, tuple[dict, str]]]:
    """name -> version -> (package.json, tarball path)"""
    pkgs: dict[str, dict[str, tuple[dict, str]]] = {}
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".tgz"):
            continue
        path = os.path.join(folder, f)
        with tarfile.open(path, "r:gz") as tar:
            member = tar.extractfile("package/package.json")
            meta = json.load(member) if member else None
        if meta and "name" in meta and "version" in meta:
            pkgs.setdefault(meta["name"], {})[meta["version"]] = (meta, path)
    return pkgs


def packument(name: str, versions: dict[str, tuple[dict, str]], base: str) -> dict:
    out: dict = {"name": name, "versions": {}}
    for v, (meta, path) in versions.items():
        data = open(path, "rb").read()
        doc = dict(meta)
        doc["_id"] = f"{name}@{v}"
        doc["dist"] = {
            "tarball": f"{base}{urllib.parse.quote(name, safe='@')}/-/{os.path.basename(path)}",
            "shasum": hashlib.sha1(data).hexdigest(),
            "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
        }
        out["versions"][v] = doc
    out["dist-tags"] = {"latest": max(versions, key=version_key)}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--upstream", default="", help="registry URL for the names not in FOLDER")
    ap.add_argument("--port", type=int, default=0, help="0: any free port (printed)")
    ap.add_argument("--seconds", type=float, default=300, help="exit after this long")
    args = ap.parse_args()
    folder = os.path.abspath(args.folder)

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):  # quiet: the caller prints what matters
            pass

        def send(self, code: int, body: bytes, ctype: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_GET(self) -> None:
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).lstrip("/")
            pkgs = scan(folder)
            if "/-/" in path:  # NAME/-/FILE.tgz
                name, _, file = path.partition("/-/")
                for _meta, p in pkgs.get(name, {}).values():
                    if os.path.basename(p) == file:
                        self.send(200, open(p, "rb").read(), "application/octet-stream")
                        return
            elif path in pkgs:
                host = f"http://127.0.0.1:{self.server.server_address[1]}/"
                body = json.dumps(packument(path, pkgs[path], host)).encode()
                self.send(200, body, "application/json")
                return
            if args.upstream:  # not ours: the upstream registry answers it
                self.send_response(302)
                self.send_header("Location", args.upstream.rstrip("/") + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send(404, b'{"error":"not found"}', "application/json")

        do_HEAD = do_GET

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    threading.Timer(args.seconds, server.shutdown).start()
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())

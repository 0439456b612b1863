#!/usr/bin/env python3
"""Request/response round trips between every pair of languages (benchmarks/rpc/README.md):
for each server language Y and client language X, Y serves schemas/exchange.fbe on a
loopback TCP port and X sends N NewOrder requests, WINDOW in flight, checking that every
one ended as the server's rule says (accepted with order = q, or rejected when q is a
multiple of 10). Prints a table of requests per second (rows: client, columns: server)
and, with --json FILE, one JSON object per pair:
    {"client": X, "server": Y, "requests": N, "window": W, "seconds": S, "rate": N/S, "ok": true}

    run.py [--requests N] [--window W] [--languages c,python,...] [--json FILE] [--md FILE]

A pair whose client does not end every request correctly, or that does not finish in
--timeout seconds, fails the run (exit status 1)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def commands(build):
    """How each language runs rpc.* (None: not built here)."""
    gems = os.path.join(REPO, "build", "ruby", "gems", "gems")
    ruby_lib = next((os.path.join(gems, d, "lib") for d in sorted(os.listdir(gems)) if d.startswith("fbe-")),
                    None) if os.path.isdir(gems) else None
    jar = os.path.join(REPO, "bindings", "java", "target", "fbe-0.1.0.jar")
    python = os.path.join(REPO, "build", "python", "venv", "bin", "python")
    rust = os.path.join(REPO, "build", "rust", "release", "examples", "rpc")
    return {
        "c": [os.path.join(build, "rpc")] if os.path.exists(os.path.join(build, "rpc")) else None,
        "python": [python, os.path.join(HERE, "rpc.py")] if os.path.exists(python) else None,
        "node": ["node", os.path.join(HERE, "rpc.js")]
        if os.path.exists(os.path.join(REPO, "bindings", "node", "build", "Release", "fbe.node")) else None,
        "ruby": ["ruby", "-I", ruby_lib, os.path.join(HERE, "rpc.rb")] if ruby_lib else None,
        "java": ["java", "-cp", jar, os.path.join(HERE, "Rpc.java")] if os.path.exists(jar) else None,
        # go: benchmarks/go/rpc built into the build folder (ci/bench.sh)
        "go": [os.path.join(build, "rpc-go")] if os.path.exists(os.path.join(build, "rpc-go")) else None,
        # the fbe crate's example rpc (cargo test in bindings/rust/tools/ci.sh builds it)
        "rust": [rust] if os.path.exists(rust) else None,
    }


def pair(server, client, n, window, timeout):
    """One round trip run: the client's JSON result, or raises RuntimeError."""
    with tempfile.TemporaryDirectory(prefix="fbe-rpc-") as tmp:
        port_file = os.path.join(tmp, "port")
        env = dict(os.environ, FBE_SCHEMAS=os.path.join(REPO, "schemas"))
        srv = subprocess.Popen(server + ["server", port_file], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while not (os.path.exists(port_file) and open(port_file).read().endswith("\n")):
                if srv.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start: %s" % srv.stderr.read()[-500:])
                time.sleep(0.02)
            port = open(port_file).read().strip()
            out = subprocess.run(client + ["client", port, str(n), str(window)], env=env, capture_output=True,
                                 text=True, timeout=timeout)
            if out.returncode:
                raise RuntimeError("the client failed (%d): %s" % (out.returncode, (out.stderr or out.stdout)[-500:]))
            result = json.loads(out.stdout.strip().splitlines()[-1])
            if not result.get("ok") or result.get("requests") != n:
                raise RuntimeError("not every request ended right: %s" % out.stdout.strip())
            return result
        finally:
            try:
                srv.wait(timeout=10)
            except subprocess.TimeoutExpired:
                srv.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=100000)
    ap.add_argument("--window", type=int, default=100)
    ap.add_argument("--languages", default="c,python,node,ruby,java,go,rust")
    ap.add_argument("--build", default=os.path.join(REPO, "build", "bench", "rpc"),
                    help="where the C program rpc is (built by ci/bench.sh)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", help="write the results as JSON lines here")
    ap.add_argument("--md", help="write the table here")
    args = ap.parse_args()
    runs = commands(args.build)
    wanted = [lang for lang in args.languages.split(",") if lang]
    missing = [lang for lang in wanted if not runs.get(lang)]
    for lang in missing:
        print("skipped: %s (not built)" % lang, file=sys.stderr)
    langs = [lang for lang in wanted if runs.get(lang)]
    results, failed = [], 0
    for server in langs:
        for client in langs:
            try:
                r = pair(runs[server], runs[client], args.requests, args.window, args.timeout)
                r.update(client=client, server=server, window=args.window, rate=round(r["requests"] / r["seconds"]))
                results.append(r)
                print("%-7s -> %-7s %8d requests/s" % (client, server, r["rate"]), file=sys.stderr)
            except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
                failed += 1
                print("FAIL %s -> %s: %s" % (client, server, e), file=sys.stderr)
    rate = {(r["client"], r["server"]): r["rate"] for r in results}
    lines = ["| client \\ server | " + " | ".join(langs) + " |", "|---|" + "---:|" * len(langs)]
    for c in langs:
        lines.append("| %s | " % c + " | ".join("{:,}".format(rate[(c, s)]) if (c, s) in rate else "failed"
                                                for s in langs) + " |")
    table = "\n".join(lines)
    print(table)
    if args.json:
        with open(args.json, "w") as f:
            for r in results:
                f.write(json.dumps(r, sort_keys=True) + "\n")
    if args.md:
        with open(args.md, "w") as f:
            f.write("# Request/response round trips, requests per second\n\n")
            f.write("- %d NewOrder requests per pair, %d in flight, over loopback TCP "
                    "(benchmarks/rpc/run.py); rows: the client's language, columns: the server's\n\n"
                    % (args.requests, args.window))
            f.write(table + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

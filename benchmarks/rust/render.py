#!/usr/bin/env python3
"""Writes rust.md and rust.jsonl from a criterion run of benches/serializers.rs.

    python3 render.py --criterion DIR --sizes FILE --out DIR

Reads every DIR/**/new/benchmark.json (its id: WORKLOAD/OP/IMPL/MODEL) with the
estimates.json beside it: ns is criterion's median of the samples' time per operation,
low/high its 95% confidence interval. Sizes come from the bench's FBE_BENCH_SIZES lines.
"""
import argparse
import datetime
import glob
import json
import os
import platform
import subprocess

OPS = ["encode", "decode", "decode_trusted", "decode_all"]
WORKLOADS = ["account", "small", "large"]
LIBFBE = ("libfbe", "libfbe-view")


def figures(criterion):
    rows = []
    for bench in glob.glob(os.path.join(criterion, "**", "new", "benchmark.json"), recursive=True):
        with open(bench) as f:
            meta = json.load(f)
        with open(os.path.join(os.path.dirname(bench), "estimates.json")) as f:
            est = json.load(f)["median"]
        op, impl, model = meta["function_id"].split("/")
        rows.append({"lang": "rust", "harness": "criterion", "impl": impl, "workload": meta["group_id"],
                     "model": model or None, "op": op, "ns": round(est["point_estimate"], 2),
                     "low": round(est["confidence_interval"]["lower_bound"], 2),
                     "high": round(est["confidence_interval"]["upper_bound"], 2)})
    return rows


def fmt(ns):
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def cpu():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def load():
    try:
        with open("/proc/loadavg") as f:
            return " / ".join(f.read().split()[:3]) + " (1 / 5 / 15 min)"
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--criterion", required=True)
    ap.add_argument("--sizes", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rows = figures(args.criterion)
    if not rows:
        raise SystemExit("render: no criterion figures under " + args.criterion)
    sizes = {}
    with open(args.sizes) as f:
        for line in f:
            s = json.loads(line)
            sizes[(s["workload"], s["impl"], s["model"] or None)] = s["size"]
    for r in rows:
        r["size"] = sizes.get((r["workload"], r["impl"], r["model"]))
    order = {w: i for i, w in enumerate(WORKLOADS)}
    rows.sort(key=lambda r: (order.get(r["workload"], 9), OPS.index(r["op"]), r["impl"], r["model"] or ""))
    with open(os.path.join(args.out, "rust.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")

    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    by = {(r["workload"], r["op"], r["impl"], r["model"]): r for r in rows}
    label = lambda impl, model: f"{impl} ({model})" if model else impl
    md = ["# libfbe Rust benchmark results", "",
          f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
          f"- CPU: {cpu()} ({os.cpu_count()} logical cores); {rustc}",
          f"- load average when the run ended: {load()} on {os.cpu_count()} cores (above the core count:",
          "  other jobs shared the machine, and every figure is slower and noisier than on an idle one)",
          "- command: `benchmarks/rust/run.sh` (criterion 0.5: 0.2 s warm-up, 20 samples in 0.6 s a figure)",
          "- figures: criterion's median ns per operation; bytes is the encoded size; ratio is libfbe's",
          "  best form over the best peer (below 1: libfbe is ahead). decode is verified where the format",
          "  verifies (libfbe, flatbuffers; prost, bincode and rmp-serde check as they parse); libfbe-view's",
          "  and flatbuffers' decode verify and read one field; decode_all reads every field into the",
          "  workload's plain Rust struct (benchmarks/README.md).", "",
          "## libfbe's best form against the best peer", "",
          "| workload | op | libfbe's best | ns/op | best peer | ns/op | ratio |", "|---|---|---|---:|---|---:|---:|"]
    for w in WORKLOADS:
        for op in ["encode", "decode", "decode_all"]:
            cell = [r for r in rows if r["workload"] == w and r["op"] == op]
            ours = [r for r in cell if r["impl"] in LIBFBE]
            peers = [r for r in cell if r["impl"] not in LIBFBE]
            if not ours or not peers:
                continue
            a = min(ours, key=lambda r: r["ns"])
            b = min(peers, key=lambda r: r["ns"])
            md.append(f"| {w} | {op} | {label(a['impl'], a['model'])} | {fmt(a['ns'])} | {b['impl']} | {fmt(b['ns'])} | {a['ns'] / b['ns']:.2f} |")
    for w in WORKLOADS:
        md += ["", f"## {w}", "", "| implementation | bytes | encode | decode | trusted decode | decode_all |",
               "|---|---:|---:|---:|---:|---:|"]
        impls = sorted({(r["impl"], r["model"]) for r in rows if r["workload"] == w},
                       key=lambda k: (k[0] not in LIBFBE, k[0], k[1] or ""))
        for impl, model in impls:
            cells = []
            for op in OPS:
                r = by.get((w, op, impl, model))
                cells.append(fmt(r["ns"]) if r else "–")
            size = sizes.get((w, impl, model))
            md.append(f"| {label(impl, model)} | {size if size is not None else '–'} | " + " | ".join(cells) + " |")
    with open(os.path.join(args.out, "rust.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print(f"render: {len(rows)} figures -> {args.out}/rust.md, rust.jsonl")


if __name__ == "__main__":
    main()

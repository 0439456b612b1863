#!/usr/bin/env python3
"""render.py GO.TXT [NOTE]: the Markdown tables of a `go test -bench -benchmem -count N` run of
benchmarks/go (run.sh): per benchmark the median over the counts of ns/op, B/size, B/op
and allocs/op, and the ratio of its ns/op to the best peer's (the serializer suite: the
fastest implementation that is not libfbe; the workloads: encoding/json's encode, or its
decode for every reading op). NOTE, when given, is said of the run (a loaded machine)."""
import re
import statistics
import sys

LINE = re.compile(r"^Benchmark(\S+?)-\d+\s+\d+\s+(.*)$")
runs, header = {}, []
for line in open(sys.argv[1], encoding="utf-8"):
    m = LINE.match(line)
    if m:
        metrics = dict((unit, float(v)) for v, unit in re.findall(r"([\d.]+) (\S+)", m.group(2)))
        runs.setdefault(m.group(1), []).append(metrics)
    elif line.startswith(("goos:", "goarch:", "cpu:")):
        header.append(line.strip())
med = {name: {u: statistics.median(r[u] for r in rs if u in r) for u in rs[0]} for name, rs in runs.items()}
counts = {len(rs) for rs in runs.values()}


def num(x):
    return f"{x:,.1f}" if x < 100 and x != int(x) else f"{x:,.0f}"


def row(name, m, best):
    ratio = f"{m['ns/op'] / best:.2f}" if best else ""
    return f"| {name} | {num(m['ns/op'])} | {num(m.get('B/size', 0))} | {num(m['B/op'])} | {num(m['allocs/op'])} | {ratio} |"


out = ["# Go benchmarks (benchmarks/go)", "",
       f"`bash benchmarks/go/run.sh`: `go test -bench . -benchmem`, the median of {'/'.join(map(str, sorted(counts)))} "
       "counts per figure. " + "; ".join(header) + "." + (" " + sys.argv[2] if len(sys.argv) > 2 else ""), ""]
out += ["## The serializer suite's shape", "",
        "Struct `{Str string, Bool bool, Int32 int32, Float64 float64, Time time.Time}` with random values; one op "
        "marshals, unmarshals into a new struct and compares every field (as "
        "github.com/alecthomas/go_serialization_benchmarks does). libfbe fills one reused `*fbe.Value` from the struct, "
        "encodes it (one cgo call), decodes it verified (one cgo call) and reads the fields back; libfbe-view reads them "
        "through a view (a cgo call per field). Ratio: to the fastest peer.", "",
        "| implementation | ns/op | B/size | B/op | allocs/op | ratio |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
suite = {n.split("/", 1)[1]: m for n, m in med.items() if n.startswith("Suite/")}
peers = [m["ns/op"] for n, m in suite.items() if not n.startswith("libfbe")]
best = min(peers) if peers else 0
for n, m in sorted(suite.items(), key=lambda kv: kv[1]["ns/op"]):
    out.append(row(n, m, best))
out += ["", "For reference, that suite's published 'fastest safe' figures (another machine): mus 102.9 ns/op, "
        "bebop 108.8, benc 111.1, protobuf_mus 163.7, vtprotobuf 192.5, protobuf 531.7, json 2,779, gob 17,050.", ""]
out += ["## The workloads of benchmarks/README.md", "",
        "libfbe's value made once from `benchmarks/data/*.json`; decode is verified; view opens a view (which verifies) "
        "and reads one field (account `id`, small `name`, large `ids`); view_all materializes it (`ToValue`). The peer: "
        "encoding/json with typed structs. Ratio: to json's encode (encode) or decode (every other op).", "",
        "| workload / op / implementation | ns/op | B/size | B/op | allocs/op | ratio to json |",
        "| --- | ---: | ---: | ---: | ---: | ---: |"]
for n, m in med.items():
    if not n.startswith("Workloads/"):
        continue
    _, workload, op, impl = n.split("/")
    peer = med.get(f"Workloads/{workload}/{'encode' if op == 'encode' else 'decode'}/json")
    out.append(row(f"{workload} / {op} / {impl}", m, peer["ns/op"] if peer else 0))
print("\n".join(out))

#!/usr/bin/env python3
"""Renders benchmark JSON lines (ci/bench.sh's latest.jsonl) as a Markdown report and a
chart.

    python3 render.py RESULTS.jsonl --md OUT.md [--png OUT.png] [--command TEXT]

Each input line: {"lang","impl","workload","model","op","ns","spread_pct","size"}.
The report has one table per language and workload: a row per implementation (and
model), encode and decode ns/op with their spread, encoded bytes, and each time as a
multiple of libfbe's (standard model) in the same language: above 1 means slower than
libfbe. libfbe's decode is its default, verifying one; where a harness also measured
its decode without the verify (op "decode_trusted"), a "trusted decode" column shows it
beside. When one key (lang, impl, workload, model, op) appears twice the later line
wins, so a harness run after another can refine its figures. The chart (matplotlib)
is a grouped bar chart, log scale, one panel per language.
"""
import argparse
import datetime
import json
import math
import platform
from collections import OrderedDict
from typing import Dict, List, Optional, Tuple

WORKLOADS = ("account", "small", "large")
OPS = ("encode", "decode")  # the compared figures (the chart, the × columns)
TRUSTED = "decode_trusted"  # libfbe's decode without the verify: a column beside decode
LANGS = ("c", "python", "node", "ruby", "java")  # the order of the sections; others follow


def read(path: str) -> "OrderedDict[Tuple[str, str, str, str, str], dict]":
    rows: "OrderedDict[Tuple[str, str, str, str, str], dict]" = OrderedDict()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            for key in ("lang", "impl", "workload", "model", "op", "ns", "spread_pct", "size"):
                if key not in r:
                    raise SystemExit(f"render: {path}:{n}: no {key!r}")
            rows[(r["lang"], r["impl"], r["workload"], r["model"], r["op"])] = r
    return rows


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def ordered(values: List[str], first: Tuple[str, ...]) -> List[str]:
    return [v for v in first if v in values] + sorted(v for v in values if v not in first)


def label(impl: str, model: str, models_of_impl: int) -> str:
    return f"{impl} ({model})" if models_of_impl > 1 else impl


class Table:
    """The figures of one language: (impl, model) rows, per workload and op."""

    def __init__(self, rows: List[dict]):
        self.cells: Dict[Tuple[str, str, str, str], dict] = {}
        self.impls: "OrderedDict[Tuple[str, str], None]" = OrderedDict()
        for r in rows:
            if r["op"] not in OPS + (TRUSTED,):
                continue  # verify, memcpy: in the JSON lines only
            self.cells[(r["impl"], r["model"], r["workload"], r["op"])] = r
            self.impls[(r["impl"], r["model"])] = None
        # libfbe first (standard, then final, then generated code), then the peers in order of arrival
        keys = list(self.impls)
        fbe = sorted((k for k in keys if k[0].startswith("libfbe")),
                     key=lambda k: (k[0] != "libfbe", k[0], k[1] != "standard", k[1]))
        self.rows = fbe + [k for k in keys if not k[0].startswith("libfbe")]
        self.models = {impl: sum(1 for k in self.rows if k[0] == impl) for impl, _ in self.rows}
        self.workloads = ordered(sorted({w for (_, _, w, _) in self.cells}), WORKLOADS)

    def ref(self, workload: str, op: str) -> Optional[float]:
        for model in ("standard", "final"):
            r = self.cells.get(("libfbe", model, workload, op))
            if r:
                return r["ns"]
        return None

    def name(self, key: Tuple[str, str]) -> str:
        return label(key[0], key[1], self.models[key[0]])


def fmt_ns(ns: float) -> str:
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def markdown(by_lang: Dict[str, Table], header: List[str]) -> str:
    out = header[:]
    for lang, t in by_lang.items():
        out += ["", f"## {lang}"]
        for w in t.workloads:
            trusted = any(k[2] == w and k[3] == TRUSTED for k in t.cells)
            out += ["", f"### {lang} · {w}", ""]
            out.append("| implementation | bytes | encode ns/op | ± % | decode ns/op | ± % |"
                       + (" trusted decode ns/op | ± % |" if trusted else "")
                       + " encode × libfbe | decode × libfbe |")
            out.append("|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if trusted else "") + "---:|---:|")
            for key in t.rows:
                enc = t.cells.get(key + (w, "encode"))
                dec = t.cells.get(key + (w, "decode"))
                first = enc or dec
                if first is None:
                    continue
                cols = [t.name(key), str(first["size"])]
                for r in (enc, dec) + ((t.cells.get(key + (w, TRUSTED)),) if trusted else ()):
                    cols += [fmt_ns(r["ns"]), f"{r['spread_pct']:.0f}"] if r else ["–", ""]
                for op, r in (("encode", enc), ("decode", dec)):
                    ref = t.ref(w, op)
                    cols.append(f"{r['ns'] / ref:.2f}" if r and ref else "–")
                out.append("| " + " | ".join(cols) + " |")
    return "\n".join(out) + "\n"


def chart(by_lang: Dict[str, Table], path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    langs = list(by_lang)
    cols = 2 if len(langs) > 1 else 1
    nrows = math.ceil(len(langs) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(8 * cols, 4.6 * nrows), squeeze=False)
    for ax in axes.flat[len(langs):]:
        ax.axis("off")
    for ax, lang in zip(axes.flat, langs):
        t = by_lang[lang]
        groups = [(w, op) for w in t.workloads for op in OPS]
        width = 0.85 / max(1, len(t.rows))
        cmap = plt.get_cmap("tab10" if len(t.rows) <= 10 else "tab20")
        for i, key in enumerate(t.rows):
            xs, ys = [], []
            for g, (w, op) in enumerate(groups):
                r = t.cells.get(key + (w, op))
                if r:
                    xs.append(g - 0.425 + width * (i + 0.5))
                    ys.append(r["ns"])
            ax.bar(xs, ys, width, label=t.name(key), color=cmap(i))
        ax.set_yscale("log")
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels([f"{w}\n{op}" for w, op in groups], fontsize=8)
        ax.set_ylabel("ns per operation (log scale, lower is better)")
        ax.set_title(lang)
        ax.grid(axis="y", which="major", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("--md", required=True)
    ap.add_argument("--png")
    ap.add_argument("--command", default="ci/bench.sh")
    args = ap.parse_args()
    rows = read(args.results)
    langs = ordered(sorted({k[0] for k in rows}), LANGS)
    by_lang = {lang: Table([r for k, r in rows.items() if k[0] == lang]) for lang in langs}
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpu = cpu_model()
    header = ["# libfbe benchmark results", "",
              f"- date: {when}", f"- CPU: {cpu} ({_cores()} logical cores)", f"- command: `{args.command}`",
              f"- figures: median ns per operation over the runs; ± is the spread (max - min) / median;",
              "  × libfbe is the time as a multiple of libfbe's (standard model) in the same language and",
              "  workload: above 1 is slower than libfbe. bytes is the encoded size."]
    with open(args.md, "w") as f:
        f.write(markdown(by_lang, header))
    if args.png:
        chart(by_lang, args.png, f"libfbe vs peers, ns/op (log) — {cpu}, {when}, {args.command}")


def _cores() -> int:
    import os

    return os.cpu_count() or 1


if __name__ == "__main__":
    main()

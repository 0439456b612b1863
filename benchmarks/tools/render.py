#!/usr/bin/env python3
"""Renders benchmark JSON lines (ci/bench.sh's latest.jsonl) as a Markdown report and a
chart.

    python3 render.py RESULTS.jsonl --md OUT.md [--png OUT.png] [--command TEXT]

(--md -: to standard output; any harness's --json lines render alone, with their ratios.)

Each input line: {"lang","impl","workload","model","op","ns","spread_pct","size"}, and
from the harnesses that measure in interleaved rounds "rounds" (ns per operation in
each round, in round order) and, where one language has two harnesses, "harness".

The report opens with the cells: per language x workload x op (encode, decode,
decode_all), libfbe's best form (the fastest of libfbe, libfbe-view, libfbe-view-lazy,
libfbe-gen and libfbe-gen-view, named) against the best peer (the fastest other implementation), and their ratio: the
form's time over the peer's in the same round, median over the rounds and its spread
(max - min) / median. Noise that slows a whole round moves both and so leaves the
ratio; where the two figures were not measured in the same rounds (another harness, no
"rounds"), the ratio is of the medians, marked "m". A ratio above 1 means libfbe is
behind; those cells are listed after the table. Then one table per language and
workload: a row per implementation (and model), every op's ns/op with its spread,
encoded bytes, and encode and decode as a multiple of libfbe's (standard model) in the
same language. When one key (lang, impl, workload, model, op) appears twice the later
line wins, so a harness run after another can refine its figures. The chart
(matplotlib) is a grouped bar chart, log scale, one panel per language.
"""
import argparse
import datetime
import json
import math
import platform
import sys
from collections import OrderedDict
from typing import Dict, List, Optional, Tuple

WORKLOADS = ("account", "small", "large")
OPS = ("encode", "decode", "decode_all")  # the compared figures (the cells, the chart)
TRUSTED = "decode_trusted"  # libfbe's decode without the verify: a column beside decode
COLUMNS = ("encode", "decode", TRUSTED, "decode_all")  # the ops of the per-language tables
LABELS = {"encode": "encode", "decode": "decode", TRUSTED: "trusted decode", "decode_all": "decode + read all"}
LANGS = ("c", "python", "node", "ruby", "java")  # the order of the sections; others follow
FORMS = ("libfbe", "libfbe-view", "libfbe-view-lazy", "libfbe-gen", "libfbe-gen-view")  # libfbe's forms, in the order of the rows

Key = Tuple[str, str]  # (impl, model)


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


def median(xs: List[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


class Cell:
    """One language x workload x op: libfbe's best form against the best peer."""

    def __init__(self, form: dict, peer: dict):
        self.form, self.peer = form, peer
        a: List[float] = form.get("rounds") or []
        b: List[float] = peer.get("rounds") or []
        same = (a and len(a) == len(b) and form.get("harness", form["lang"]) == peer.get("harness", peer["lang"])
                and all(x > 0 for x in b))
        self.spread: Optional[float]
        if same:
            ratios = [x / y for x, y in zip(a, b)]
            self.ratio = median(ratios)
            self.spread = (max(ratios) - min(ratios)) / self.ratio * 100.0
            self.rounds = len(ratios)
        else:  # not measured in the same rounds: the medians' ratio, and no spread of its own
            self.ratio = form["ns"] / peer["ns"]
            self.spread = None
            self.rounds = 0


class Table:
    """The figures of one language: (impl, model) rows, per workload and op."""

    def __init__(self, rows: List[dict]):
        self.cells: Dict[Tuple[str, str, str, str], dict] = {}
        self.impls: "OrderedDict[Key, None]" = OrderedDict()
        for r in rows:
            if r["op"] not in COLUMNS:
                continue  # verify, memcpy: in the JSON lines only
            self.cells[(r["impl"], r["model"], r["workload"], r["op"])] = r
            self.impls[(r["impl"], r["model"])] = None
        # libfbe's forms first (dynamic, view, generated; standard, then final), then the peers in order of arrival
        keys = list(self.impls)
        fbe = sorted((k for k in keys if is_form(k[0])),
                     key=lambda k: (form_order(k[0]), k[1] != "standard", k[1]))
        self.rows = fbe + [k for k in keys if not is_form(k[0])]
        self.models = {impl: sum(1 for k in self.rows if k[0] == impl) for impl, _ in self.rows}
        self.workloads = ordered(sorted({w for (_, _, w, _) in self.cells}), WORKLOADS)

    def ref(self, workload: str, op: str) -> Optional[float]:
        for model in ("standard", "final"):
            r = self.cells.get(("libfbe", model, workload, op))
            if r:
                return r["ns"]
        return None

    def name(self, key: Key) -> str:
        return f"{key[0]} ({key[1]})" if self.models[key[0]] > 1 else key[0]

    def best(self, workload: str, op: str, forms: bool) -> Optional[dict]:
        rs = [r for (impl, _, w, o), r in self.cells.items() if w == workload and o == op and is_form(impl) == forms]
        return min(rs, key=lambda r: r["ns"]) if rs else None

    def cell(self, workload: str, op: str) -> Optional[Cell]:
        form, peer = self.best(workload, op, True), self.best(workload, op, False)
        return Cell(form, peer) if form and peer else None


def is_form(impl: str) -> bool:
    return impl in FORMS


def form_order(impl: str) -> int:
    return FORMS.index(impl) if impl in FORMS else len(FORMS)


def fmt_ns(ns: float) -> str:
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def who(r: dict, t: Table) -> str:
    return t.name((r["impl"], r["model"]))


def summary(by_lang: Dict[str, Table]) -> List[str]:
    out = ["", "## libfbe's best form against the best peer", "",
           "| language | workload | op | libfbe's best | ns/op | best peer | ns/op | ratio | ± % |",
           "|---|---|---|---|---:|---|---:|---:|---:|"]
    behind = []
    for lang, t in by_lang.items():
        for w in t.workloads:
            for op in OPS:
                c = t.cell(w, op)
                if c is None:
                    continue
                ratio = f"{c.ratio:.2f}" + ("" if c.rounds else " m")
                spread = f"{c.spread:.0f}" if c.spread is not None and c.rounds > 1 else ""
                out.append(f"| {lang} | {w} | {op} | {who(c.form, t)} | {fmt_ns(c.form['ns'])} | {who(c.peer, t)} | "
                           f"{fmt_ns(c.peer['ns'])} | {ratio} | {spread} |")
                if c.ratio > 1:
                    behind.append(f"- {lang} · {w} · {op}: {who(c.form, t)} {fmt_ns(c.form['ns'])} ns against "
                                  f"{who(c.peer, t)} {fmt_ns(c.peer['ns'])} ns, {c.ratio:.2f}×"
                                  + (f" (± {c.spread:.0f}%)" if c.spread is not None else " (medians)"))
    out += ["", "ratio: libfbe's time over the peer's, round by round (median over the rounds; ± its spread);",
            "m: the two were not measured in the same rounds, the ratio of their medians. Above 1: libfbe is behind.",
            "On a busy machine the ratio per round and the ratio of the medians can differ; the first is the one",
            "a slow spell moves least.",
            "", "### Where libfbe is behind", ""]
    out += behind or ["- nowhere: libfbe's best form is ahead of the best peer in every cell."]
    return out + [""]


def markdown(by_lang: Dict[str, Table], header: List[str]) -> str:
    out = header[:] + summary(by_lang)
    for lang, t in by_lang.items():
        out += ["", f"## {lang}"]
        for w in t.workloads:
            cols = [op for op in COLUMNS if any(k[2] == w and k[3] == op for k in t.cells)]
            out += ["", f"### {lang} · {w}", ""]
            out.append("| implementation | bytes | " + " | ".join(f"{LABELS[op]} ns/op | ± %" for op in cols)
                       + " | encode × libfbe | decode × libfbe |")
            out.append("|---|---:|" + "---:|---:|" * len(cols) + "---:|---:|")
            for key in t.rows:
                rs = [t.cells.get(key + (w, op)) for op in cols]
                first = next((r for r in rs if r), None)
                if first is None:
                    continue
                line = [t.name(key), str(first["size"])]
                for r in rs:
                    line += [fmt_ns(r["ns"]), f"{r['spread_pct']:.0f}"] if r else ["–", ""]
                for op in ("encode", "decode"):
                    r, ref = t.cells.get(key + (w, op)), t.ref(w, op)
                    line.append(f"{r['ns'] / ref:.2f}" if r and ref else "–")
                out.append("| " + " | ".join(line) + " |")
    return "\n".join(out) + "\n"


def chart(by_lang: Dict[str, Table], path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    langs = list(by_lang)
    cols = 2 if len(langs) > 1 else 1
    nrows = math.ceil(len(langs) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(9 * cols, 4.8 * nrows), squeeze=False)
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
        ax.set_xticklabels([f"{w}\n{op.replace('_', ' ')}" for w, op in groups], fontsize=7)
        ax.set_ylabel("ns per operation (log scale, lower is better)")
        ax.set_title(lang)
        ax.grid(axis="y", which="major", alpha=0.3)
        ax.legend(fontsize=6, ncol=2)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results")
    ap.add_argument("--md", required=True, help="the Markdown report; - for standard output")
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
              "- figures: median ns per operation over the rounds; ± is the spread (max - min) / median;",
              "  × libfbe is the time as a multiple of libfbe's (standard model) in the same language and",
              "  workload: above 1 is slower than libfbe. bytes is the encoded size. decode is verified;",
              "  libfbe-view's decode opens a view (verifying) and reads one field, decode_all is decode",
              "  plus reading every field once (benchmarks/README.md)."]
    text = markdown(by_lang, header)
    if args.md == "-":
        sys.stdout.write(text)
    else:
        with open(args.md, "w") as f:
            f.write(text)
    if args.png:
        chart(by_lang, args.png, f"libfbe vs peers, ns/op (log) — {cpu}, {when}, {args.command}")


def _cores() -> int:
    import os

    return os.cpu_count() or 1


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks the core's structure: layers, no circle, no upward arrow, headers in their place.

    python3 tests/structure/check_layers.py [--graph] OBJECT...

OBJECT: the core's object files (ctest passes those of fbe_static). An arrow is a call:
file A calls file B when A's object uses a symbol B's object defines (nm). The layers
and their order are core/sources.txt's sections, bottom first. Checked:
  1. no circle among the core's files;
  2. no arrow from a file to a file of a higher layer;
  3. a header in core/src/LAYER/ is included only from that layer or a higher one, and
     only from inside core/ (the bindings, swig/, tests/ and benchmarks/ use the public
     headers and the named internal layer, core/include/fbe/internal/);
  4. every internal header says so on its first line.
--graph prints the layer picture (which layer calls which) for docs/ARCHITECTURE.md.
"""
import collections, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "core", "src")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layers():
    order, layer_of = [], {}
    for line in open(os.path.join(ROOT, "core", "sources.txt")):
        line = line.strip()
        if line and not line.startswith("#"):
            layer = line.split("/")[0]
            if layer not in order:
                order.append(layer)
            layer_of[os.path.splitext(os.path.basename(line))[0]] = layer
    return order, layer_of


def call_graph(objects):
    defined, used = {}, collections.defaultdict(set)
    for obj in objects:
        name = os.path.basename(obj).split(".")[0]
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        for row in out.splitlines():
            parts = row.split()
            if len(parts) == 3 and parts[1] in "TDBRCV":
                defined[parts[2]] = name
            elif len(parts) == 2 and parts[0] == "U":
                used[name].add(parts[1])
    edges = collections.defaultdict(set)
    for name, symbols in used.items():
        for s in symbols:
            if s in defined and defined[s] != name:
                edges[name].add(defined[s])
    return edges


def circles(edges):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def tracked_sources():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "*.c", "*.h", "*.i", "*.cc", "*.cpp"],
                         capture_output=True, text=True, check=True).stdout.split()
    return [p for p in out if os.path.isfile(os.path.join(ROOT, p))]


def main(argv):
    graph = "--graph" in argv
    objects = [a for arg in argv if arg != "--graph" for a in arg.split(";") if a]
    order, layer_of = layers()
    rank = {layer: i for i, layer in enumerate(order)}
    problems = []

    edges = call_graph(objects)
    if len(edges) < 10:
        problems.append("only %d files with calls: are these the core's objects?" % len(edges))
    for comp in circles(edges):
        problems.append("circle among " + ", ".join(comp))
    calls = collections.defaultdict(set)
    for a, targets in sorted(edges.items()):
        for b in sorted(targets):
            la, lb = layer_of.get(a), layer_of.get(b)
            if la is None or lb is None:
                problems.append("%s -> %s: a file missing from core/sources.txt" % (a, b))
            elif rank[lb] > rank[la]:
                problems.append("upward arrow: %s (%s) calls %s (%s)" % (a, la, b, lb))
            elif la != lb:
                calls[la].add(lb)

    core_headers = {}
    for layer in order:
        for f in os.listdir(os.path.join(SRC, layer)):
            if f.endswith(".h"):
                core_headers[layer + "/" + f] = layer
    for path in tracked_sources():
        text = open(os.path.join(ROOT, path), errors="replace").read()
        inside = path.startswith("core/src/")
        own = path.split("/")[2] if inside else None
        for inc in INCLUDE.findall(text):
            if inc in core_headers:
                if not inside:
                    problems.append("%s includes core/src/%s (use fbe/ or fbe/internal/)" % (path, inc))
                elif rank[core_headers[inc]] > rank[own]:
                    problems.append("%s (%s) includes %s, a higher layer" % (path, own, inc))
            elif not inside and os.path.basename(inc) in {os.path.basename(h) for h in core_headers} \
                    and not os.path.exists(os.path.join(ROOT, os.path.dirname(path), inc)):
                problems.append("%s includes %s, a core/src header by its bare name" % (path, inc))
    internal = os.path.join(ROOT, "core", "include", "fbe", "internal")
    for f in sorted(os.listdir(internal)):
        first = open(os.path.join(internal, f)).readline()
        if not first.startswith("/* Internal (never installed)"):
            problems.append("core/include/fbe/internal/%s: the first line must say who may include it" % f)

    if graph:
        for layer in order:
            print("%-9s calls %s" % (layer, ", ".join(sorted(calls[layer], key=rank.get)) or "-"))
    for p in problems:
        print("check_layers: " + p)
    print("check_layers: %d files, %d arrows, %d layers: %s" %
          (len(layer_of), sum(len(t) for t in edges.values()), len(order),
           "ok" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

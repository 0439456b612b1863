#!/usr/bin/env bash
# benchmarks/peers-c/instructions.sh [--write]: instructions per operation of every C
# peer, every cell (workload x op), counted under callgrind: no machine noise, so a
# difference the timed run's spread hides (benchmarks/results/latest.md) shows here.
# Builds libfbe (build/release) and fbe_peers (build/bench/peers-c) as ci/bench.sh does,
# runs `fbe_peers --instructions N` once under callgrind (each op N times between a
# zeroing and a dump of the counters) and prints a table: per cell, each implementation
# (model) and libfbe's best form against the best peer. --write: the table also goes to
# benchmarks/results/instructions-peers.md. About a minute.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
write=0
case ${1:-} in
  --write) write=1 ;;
  "") ;;
  *) echo "usage: benchmarks/peers-c/instructions.sh [--write]" >&2; exit 2 ;;
esac
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed" >&2; exit 1; }
jobs=$(nproc 2>/dev/null || echo 2)
tree=build/release work=build/bench n=200

cmake -S . -B "$tree" -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_BENCH=ON -DFBE_WERROR=ON >/dev/null
cmake --build "$tree" -j"$jobs" --target fbe_shared fbe_static fbe >/dev/null
cmake --install "$tree" --prefix "$work/prefix" >/dev/null
cmake -S benchmarks/peers-c -B "$work/peers-c" -DCMAKE_PREFIX_PATH="$repo/$work/prefix" >/dev/null
cmake --build "$work/peers-c" -j"$jobs" >/dev/null

dumps=$(mktemp -d)
trap 'rm -rf "$dumps"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$dumps/cg.%p" "$work/peers-c/fbe_peers" \
  --instructions "$n" -I schemas -D benchmarks/data >"$dumps/log" 2>&1 ||
  { cat "$dumps/log" >&2; exit 1; }

table=$(python3 - "$dumps" "$n" "$(git describe --always --dirty 2>/dev/null || echo unknown)" <<'EOF'
import glob, re, sys
dumps, n, tree = sys.argv[1], int(sys.argv[2]), sys.argv[3]
cells = {}  # (workload, op) -> [(impl, model, instructions per op)]
for path in glob.glob(f'{dumps}/cg.*.*'):
    text = open(path).read()
    name = re.search(r'^desc: Trigger: Client Request: (.*)$', text, re.M)
    total = re.search(r'^totals: (\d+)', text, re.M)
    if not name or not total:
        continue
    impl, workload, model, op, count = name.group(1).split()
    cells.setdefault((workload, op), []).append((impl, model, int(total.group(1)) / int(count)))
print(f'# C peers: instructions per operation (callgrind)\n')
print(f'- command: `benchmarks/peers-c/instructions.sh`; tree {tree}; each op {n} times after one warm-up;')
print('  the count includes the harness\'s call of the op (a few instructions)')
print('- libfbe\'s best form (libfbe, libfbe-view or libfbe-gen, either model) against the best peer;')
print('  ratio above 1: libfbe is behind\n')
print('| workload | op | libfbe\'s best | instructions | best peer | instructions | ratio |')
print('|---|---|---|---:|---|---:|---:|')
order = {'account': 0, 'small': 1, 'large': 2}
ops = {'encode': 0, 'decode': 1, 'decode_trusted': 2, 'decode_all': 3}
detail = []
for (workload, op) in sorted(cells, key=lambda k: (order.get(k[0], 9), ops.get(k[1], 9))):
    rows = sorted(cells[(workload, op)], key=lambda r: r[2])
    ours = [r for r in rows if r[0].startswith('libfbe')]
    peers = [r for r in rows if not r[0].startswith('libfbe')]
    detail.append((workload, op, rows))
    if not ours or not peers:
        continue
    a, b = ours[0], peers[0]
    print(f'| {workload} | {op} | {a[0]} ({a[1]}) | {a[2]:,.0f} | {b[0]} ({b[1]}) | {b[2]:,.0f} | {a[2] / b[2]:.2f} |')
print('\n## Every implementation\n')
print('| workload | op | implementation (model) | instructions |')
print('|---|---|---|---:|')
for workload, op, rows in detail:
    for impl, model, ir in rows:
        print(f'| {workload} | {op} | {impl} ({model}) | {ir:,.0f} |')
EOF
)
echo "$table"
if ((write)); then
  printf '%s\n' "$table" >benchmarks/results/instructions-peers.md
  echo "instructions.sh: wrote benchmarks/results/instructions-peers.md"
fi

#!/usr/bin/env bash
# benchmarks/go/run.sh [--count N] [--benchtime T]: the Go benchmarks (testing.B) of
# libfbe's Go binding and its peers, about 2 minutes with the defaults (-count 5,
# -benchtime 200ms). Writes benchmarks/results/go.txt (the raw `go test -bench` output)
# and benchmarks/results/go.md (the tables: the median of the counts of ns/op, B/size,
# B/op and allocs/op, and the ratio to the best peer). The peers (mus-go,
# google.golang.org/protobuf) come from the Go module proxy (go.sum pins them); the
# binding by a `replace` to bindings/go, whose core tools/vendor.sh vendors first.
# --note TEXT is written under the tables' title (say so when the machine was loaded).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
count=5
benchtime=200ms
out=../results
note=()
while (($#)); do
  case $1 in
    --count) count=$2; shift 2 ;;
    --benchtime) benchtime=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --note) note=("$2"); shift 2 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bash ../../bindings/go/tools/vendor.sh
mkdir -p "$out"
go test -run '^$' -bench . -benchmem -count "$count" -benchtime "$benchtime" -p 1 . | tee "$out/go.txt.tmp"
grep -E '^(PASS|ok)' "$out/go.txt.tmp" >/dev/null || { echo "run.sh: the benchmarks failed" >&2; exit 1; }
mv "$out/go.txt.tmp" "$out/go.txt"
python3 render.py "$out/go.txt" "${note[@]}" >"$out/go.md"
echo "wrote $out/go.txt and $out/go.md"

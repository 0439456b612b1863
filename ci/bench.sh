#!/usr/bin/env bash
# ci/bench.sh [--quick|--smoke]: libfbe against the field, every language in one run
# (benchmarks/README.md). Builds what it needs, runs each language's benchmark with
# --json, collects the lines into benchmarks/results/latest.jsonl and renders
# benchmarks/results/latest.md (tables) and latest.png (chart, matplotlib from PyPI in
# the venv build/bench/venv).
#
#   (no option)  full: 7 rounds of >= 0.2 s per figure           (about 11 min on 2 cores)
#   --quick      3 rounds of >= 0.05 s                            (about 3 min)
#   --smoke      every harness once with a few operations, to prove that it runs and
#                that every peer round-trips the data (< 60 s on a built tree); results
#                go to build/bench/smoke/ instead, the committed ones stay as they are.
#
# Harnesses: C (benchmarks/c fbe_bench, benchmarks/peers-c fbe_peers), Python, Node,
# and Ruby, Java, Go and Rust when their benchmarks exist (otherwise reported as skipped). Any
# harness that exists and fails (a build error, a failed round trip) fails the run,
# after the others have run. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)
((jobs <= 2)) || jobs=2

mode=full
case ${1:-} in
  "") ;;
  --quick) mode=quick ;;
  --smoke) mode=smoke ;;
  -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: ci/bench.sh [--quick|--smoke]" >&2; exit 2 ;;
esac
flag=()
[[ $mode == full ]] || flag=(--"$mode")

work=$repo/build/bench
# FBE_BENCH_OUT: another directory for the results (a trial run that leaves the committed ones)
if [[ $mode == smoke ]]; then out=$work/smoke; else out=${FBE_BENCH_OUT:-benchmarks/results}; fi
mkdir -p "$work" "$out"
out=$(cd "$out" && pwd) # absolute: the Go and Rust runners write it from their own directories
results=$out/latest.jsonl
: >"$results"
failed=()
skipped=()

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
since() { # seconds since a now_us value, one decimal
  local us=$(($(now_us) - $1))
  printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000))
}
t0=$(now_us)

# run NAME COMMAND...: runs one harness, appends its JSON lines to the results; a
# failure is recorded, and the log shown, without stopping the other harnesses.
run() {
  local name=$1 t log lines
  shift
  t=$(now_us)
  log=$work/$name.log
  printf '== %-8s ' "$name"
  if "$@" >"$work/$name.jsonl" 2>"$log"; then
    lines=$(grep -c '^{' "$work/$name.jsonl" || true)
    grep '^{' "$work/$name.jsonl" >>"$results" || true
    printf 'ok, %d figures, %s s\n' "$lines" "$(since "$t")"
    grep '^skipped:' "$log" | sed 's/^/   /' || true # a row the harness cannot measure yet (say why)
  else
    printf 'FAILED (%s s); its output:\n' "$(since "$t")"
    cat "$work/$name.jsonl" "$log" >&2
    failed+=("$name")
  fi
}

# step NAME COMMAND...: a build step of harness NAME; false (and NAME failed) when it fails.
step() {
  local name=$1 log=$work/$1-build.log
  shift
  if "$@" >>"$log" 2>&1; then return 0; fi
  echo "== $name    FAILED to build; the log ($log):" >&2
  tail -n 40 "$log" >&2
  failed+=("$name")
  return 1
}

skip() {
  echo "== $1    skipped: $2"
  skipped+=("$1")
}

# ---- the data: benchmarks/data must be what the generator writes (fixed seed)
python3 benchmarks/tools/gen_data.py -o "$work/data"
for f in account small large; do
  cmp -s "$work/data/$f.json" "benchmarks/data/$f.json" ||
    { echo "bench: benchmarks/data/$f.json differs from benchmarks/tools/gen_data.py's output" >&2; exit 1; }
done

# ---- the venv: the Python harness's peers, matplotlib for the chart, the fbe package
# (reinstalled when its sources are newer than the last install)
venv=$work/venv
py=$venv/bin/python
stamp=$work/venv/.fbe-installed
venv_ok=1
rm -f "$work"/*-build.log
if [[ ! -x $py ]]; then
  step python python3 -m venv "$venv" || venv_ok=0
fi
if ((venv_ok)) && { [[ ! -f $stamp ]] || [[ benchmarks/python/requirements.txt -nt $stamp ]]; }; then
  step python "$py" -m pip install -q matplotlib -r benchmarks/python/requirements.txt || venv_ok=0
fi
if ((venv_ok)) && { [[ ! -f $stamp ]] ||
    [[ -n $(find bindings/python core swig -newer "$stamp" -type f -print -quit) ]]; }; then
  if step python "$py" -m pip install -q ./bindings/python; then touch "$stamp"; else venv_ok=0; fi
fi

# ---- C: libfbe's own benchmark, then the peers against the installed libfbe
# (FBE_BENCH_BUILD: another Release tree to take libfbe from, e.g. one without the CLI;
# without the CLI fbe_peers has no libfbe-gen rows)
tree=${FBE_BENCH_BUILD:-build/release}
targets=(fbe_shared fbe_static fbe_bench)
if [[ ! -f $tree/CMakeCache.txt ]] || grep -q '^FBE_BUILD_CLI:BOOL=ON' "$tree/CMakeCache.txt"; then
  targets+=(fbe) # installed with the libraries
fi
if step c cmake -S . -B "$tree" -DCMAKE_BUILD_TYPE=Release -DFBE_BUILD_BENCH=ON -DFBE_WERROR=ON &&
   step c cmake --build "$tree" -j"$jobs" --target "${targets[@]}" &&
   step c cmake --install "$tree" --prefix "$work/prefix" &&
   step c cmake -S benchmarks/peers-c -B "$work/peers-c" -DCMAKE_PREFIX_PATH="$work/prefix" &&
   step c cmake --build "$work/peers-c" -j"$jobs"; then
  if [[ $mode == smoke ]]; then c_flags=(--runs 1 --min-time 0.001); else c_flags=("${flag[@]}"); fi
  run c-fbe "$tree/bin/fbe_bench" --json "${c_flags[@]}"
  run c-peers "$work/peers-c/fbe_peers" --json "${flag[@]}"
fi

# ---- Python
if ((venv_ok)); then
  run python "$py" benchmarks/python/bench.py --json --require-peers "${flag[@]}"
fi

# ---- Node: the addon (bindings/node, npm ci builds it) and the peers (benchmarks/node)
if ! command -v node >/dev/null; then
  skip node "no node on PATH"
else
  node_ok=1
  if [[ ! -f bindings/node/build/Release/fbe.node ]]; then
    (cd bindings/node && step node npm ci --no-audit --no-fund --loglevel=error) || node_ok=0
  fi
  if ((node_ok)) && [[ ! -d benchmarks/node/node_modules/msgpackr || ! -d benchmarks/node/node_modules/protobufjs ]]; then
    (cd benchmarks/node && step node npm ci --no-audit --no-fund --loglevel=error) || node_ok=0
  fi
  if ((node_ok)); then run node node benchmarks/node/bench.js --json "${flag[@]}"; else failed+=(node); fi
fi

# ---- Ruby: the fbe gem as bindings/ruby/tools/ci.sh installs it (GEM_HOME
# build/ruby/gems), or one in Ruby's own gem path
ruby_env=(env GEM_HOME="$repo/build/ruby/gems" GEM_PATH="$repo/build/ruby/gems:$(gem env gempath 2>/dev/null || true)")
if [[ ! -f benchmarks/ruby/bench.rb ]]; then
  skip ruby "no benchmarks/ruby/bench.rb"
elif ! command -v ruby >/dev/null; then
  skip ruby "no ruby on PATH"
elif ! "${ruby_env[@]}" ruby -e 'require "fbe"' >/dev/null 2>&1; then
  skip ruby "the fbe gem is not built (bindings/ruby/tools/build_gem.sh, then gem install into build/ruby/gems)"
else
  if [[ $mode == smoke ]]; then ruby_flags=(--runs 1 --min-time 0.001); else ruby_flags=("${flag[@]}"); fi
  run ruby "${ruby_env[@]}" ruby benchmarks/ruby/bench.rb --json --require-peers "${ruby_flags[@]}"
fi

# Java: the JMH module benchmarks/java against the fbe jar that `mvn -f bindings/java
# install` puts into the local Maven repository (installed here, tests skipped, when
# missing or older than its sources); its runner prints the JSON lines itself
jar=benchmarks/java/target/benchmarks.jar
m2=$(ls -t "$HOME"/.m2/repository/org/libfbe/fbe/*/fbe-*.jar 2>/dev/null | grep -v sources | head -n 1 || true)
if [[ ! -d benchmarks/java ]]; then
  skip java "no benchmarks/java"
elif ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
  skip java "no mvn or java on PATH"
else
  java_ok=1
  if [[ -z $m2 || -n $(find bindings/java/src bindings/java/pom.xml core swig -newer "$m2" -type f -print -quit) ]]; then
    step java mvn -B -ntp -q -f bindings/java install -DskipTests -Dfbe.werror=ON || java_ok=0
  fi
  if ((java_ok)) && [[ ! -f $jar || -n $(find benchmarks/java/src benchmarks/java/pom.xml \
      "$HOME"/.m2/repository/org/libfbe/fbe -newer "$jar" -type f -print -quit) ]]; then
    step java mvn -B -ntp -q -f benchmarks/java clean package || java_ok=0
  fi
  if ((java_ok)); then
    run java java -jar "$jar" "${flag[@]}" -I schemas
  fi
fi

# Go: benchmarks/go (testing.B; run.sh writes go.txt and go.md, not JSON lines: its
# figures are its own table). --smoke runs every benchmark once (-benchtime 1x), which
# proves that each one runs and that every peer round-trips the data.
if [[ ! -d benchmarks/go ]]; then
  skip go "no benchmarks/go"
elif ! command -v go >/dev/null; then
  skip go "no go on PATH"
elif [[ $mode == smoke ]]; then
  run go bash benchmarks/go/run.sh --count 1 --benchtime 1x --out "$work/go"
elif [[ $mode == quick ]]; then
  run go bash benchmarks/go/run.sh --count 1 --benchtime 100ms --out "$out"
else
  run go bash benchmarks/go/run.sh --out "$out"
fi

# ---- Rust: benchmarks/rust (criterion, its own crate) writes its own results, rust.md
# and rust.jsonl, beside latest.* (criterion's figures have no rounds to interleave);
# --smoke runs every benchmark once, each implementation's round trip checked first
if [[ ! -f benchmarks/rust/Cargo.toml ]]; then
  skip rust "no benchmarks/rust"
elif ! command -v cargo >/dev/null || ! command -v flatc >/dev/null; then
  skip rust "no cargo or flatc on PATH"
else
  # the fbe crate's example rpc, the Rust side of the request/response run below
  step rust env CARGO_TARGET_DIR="$repo/build/rust" cargo build --quiet --release -j"$jobs" \
    --manifest-path bindings/rust/Cargo.toml -p fbe --example rpc || true
  t=$(now_us)
  printf '== %-8s ' rust
  if [[ $mode == smoke ]]; then rust_run=(bash benchmarks/rust/run.sh --smoke); else rust_run=(env FBE_BENCH_OUT="$out" bash benchmarks/rust/run.sh); fi
  if "${rust_run[@]}" >"$work/rust.log" 2>&1; then
    printf 'ok, its own results (%s), %s s\n' "$([[ $mode == smoke ]] && echo none in smoke mode || echo "$out/rust.md")" "$(since "$t")"
  else
    printf 'FAILED (%s s); its output:\n' "$(since "$t")"
    tail -n 60 "$work/rust.log" >&2
    failed+=(rust)
  fi
fi

# ---- request/response round trips between every pair of languages (benchmarks/rpc):
# the C program against the installed libfbe, the others on the bindings built above;
# every request of every pair must end as the server's rule says
if [[ $mode == smoke ]]; then rpc_requests=1000; elif [[ $mode == quick ]]; then rpc_requests=20000; else rpc_requests=100000; fi
mkdir -p "$work/rpc"
if [[ -d benchmarks/go ]] && command -v go >/dev/null; then # the Go side, benchmarks/go/rpc
  step rpc bash -c 'bash bindings/go/tools/vendor.sh && cd benchmarks/go && go build -o "$1/rpc-go" ./rpc' _ "$work/rpc" || true
fi
if step rpc cc -std=c11 -O2 -DFBE_STATIC -I"$work/prefix/include" benchmarks/rpc/rpc.c \
     "$work/prefix/lib/libfbe.a" -lm -o "$work/rpc/rpc"; then
  t=$(now_us)
  printf '== %-8s ' rpc
  if python3 benchmarks/rpc/run.py --requests "$rpc_requests" --build "$work/rpc" --json "$out/rpc.jsonl" \
       --md "$out/rpc.md" >"$work/rpc.log" 2>&1; then
    printf 'ok, %s requests a pair, %s s\n' "$rpc_requests" "$(since "$t")"
    grep '^skipped:' "$work/rpc.log" | sed 's/^/   /' || true
  else
    printf 'FAILED (%s s); its output:\n' "$(since "$t")"
    cat "$work/rpc.log" >&2
    failed+=(rpc)
  fi
fi

# ---- the report
if ((venv_ok)) && [[ -s $results ]]; then
  command="ci/bench.sh${flag[*]:+ ${flag[*]}}"
  if "$py" benchmarks/tools/render.py "$results" --md "$out/latest.md" --png "$out/latest.png" \
       --command "$command"; then
    echo "bench: $(grep -c . "$results") figures -> $out/latest.jsonl, latest.md, latest.png"
  else
    failed+=(render)
  fi
fi

printf 'bench: %s mode, %s s' "$mode" "$(since "$t0")"
((${#skipped[@]} == 0)) || printf '; skipped: %s' "${skipped[*]}"
if ((${#failed[@]})); then
  printf '; FAILED: %s\n' "$(printf '%s\n' "${failed[@]}" | sort -u | tr '\n' ' ')"
  exit 1
fi
printf '\n'

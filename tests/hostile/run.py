#!/usr/bin/env python3
"""The hostile suite (tests/hostile/README.md): every attack of issue 17 run as its own
process in the CLI (bin/fbe) and in every binding (a driver per language under
drivers/), with the default limits; each must end with a typed error naming the limit
it hit (or succeed), within a bound on peak RSS and on time.

    run.py [--languages c,python,node,ruby,java,go,rust,cpp] [--fbe PATH] [--out DIR] [--sanitized]

--fbe: the tool (default build/release/bin/fbe). --out: where the inputs are generated
and results.json written (default build/hostile). --sanitized: the tool is built with
AddressSanitizer: no address-space limit (its shadow memory needs terabytes of it) and
no RSS bound (its shadow and quarantine are not the library's memory); verdicts and the
time bound still apply, the latter x3.

The bindings are used as the test command's stages built them (ci/testees.sh finds them
the same way): Python in build/python/venv, the gem in build/ruby/gems, the Node addon in
bindings/node, the jar in bindings/java/target, bindings/go (vendored again by its
tools/vendor.sh; the Go driver is built by go build), Rust's driver (an example of the fbe
crate) built with cargo in build/rust, the rust stage's target directory, and
build/release/libfbe.a for the C++ driver (compiled here over fbe.hpp, as ci/demo.sh
compiles its C++). A language asked for and not built fails the run. Exit status 0 when
every cell passed.
"""
import argparse
import json
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(REPO, "tests", "hostile")
MiB = 1 << 20
LANGUAGES = ["c", "python", "node", "ruby", "java", "go", "rust", "cpp"]

# ---- the bounds (README.md "Bounds") ------------------------------------------------
# The core's default budget of one operation (codec.h): 16 x the input + 1 MiB; JSON/text
# output at most 32 x the model + 1 MiB.
MEMORY_FACTOR, MEMORY_FLOOR, OUTPUT_FACTOR = 16, MiB, 32
HELD = 3      # copies of the input a process may hold (the bytes, its text, a copy for C)
CORE = 1.5    # the core's allocations against its charge (arena blocks, rounding)
OUT = 2       # an output buffer that grows by doubling
# What a binding's objects take per byte the core charged (FBE_VALUE_CHARGE stands for
# them), twice the worst ratio measured (near_budget_empties: 800,000 empty structs,
# 13.6 MB charged): Python 2.0, Ruby 2.6, Java 3.0, Node 3.4, Go 2.5 (its whole peak over
# its baseline: 42.7 MB, the core's tape and the collector's garbage in it); Rust 0.13 and
# C++ 0.15 (a message is the core's value in its arena: 2.1 MB over the baseline, the
# input and that arena).
HOST = {"c": 0, "python": 4, "ruby": 5, "java": 6, "node": 7, "go": 5, "rust": 0.26, "cpp": 0.3}
# Loading a schema: the caps (schema.h) bound the records; the loader's measured linear
# cost is under 100 bytes of memory per byte of schema text (500,000 one-field structs,
# 13.9 MB: 0.97 GB; two 10^5-struct schemas for fbe compat, 9.8 MB: 663 MB).
SCHEMA_FACTOR, SCHEMA_FLOOR = 100, 64 * MiB
# A binding makes a class per struct of a schema it loads: its cost per byte of schema
# text, twice what a 10^5-struct schema measured (4.2 MB of text, over the core's
# load): Python 57, Java 80, Ruby 136 bytes; Node gets Ruby's bound (it measured
# about 1,900: a compiled codec per struct, 55 KB each). Go: 14 (its heap after the load,
# 58 MB; its peak RSS is the core's, the loader's memory is freed before Go's types grow).
# Rust 0.15 (its types are the core's structs); C++ makes no class: 0.3 (its peak 1.4 MB
# over the tool's, which is the C++ runtime in its baseline), 1 for the bound.
HOST_LOAD = {"c": 0, "python": 120, "java": 160, "ruby": 280, "node": 280, "go": 28, "rust": 0.3, "cpp": 1}
# What a runtime's RSS varies by between runs and schemas, whatever the input: malloc
# arenas; the JVM's and V8's heaps fill with garbage before they collect (they run with
# a heap of at least 64 MiB: -Xmx, --max-old-space-size).
FIXED = {"c": 16 * MiB, "python": 16 * MiB, "ruby": 16 * MiB, "node": 64 * MiB, "java": 64 * MiB,
         "go": 16 * MiB, "rust": 16 * MiB, "cpp": 16 * MiB}
PROGRAM_LEVEL = 2048  # bytes per level of a value a driver builds (Chain objects)
VM_SLACK = 512 * MiB  # address space beyond the bound: libraries, stacks, malloc arenas
TIME_S = 10.0         # per attack; x3 under sanitizers
KILL_S = 60.0         # a process still running then is killed

# ---- the attacks ----------------------------------------------------------------------
MEM = ["(max_memory)"]
DEPTH = ["deeper than 256 levels"]


def attack(name, group, op, schema, type_name, input_name, final=False, expect="refused",
           patterns=MEM, status="FBE_ERR_LIMIT", cli=None, only=None, seconds=TIME_S, unread=False):
    """expect: "refused" (an error whose text holds one of patterns; in a binding with
    that status), "ok", "ok_or_refused", "survives" (ok, or any error the runtime raises:
    only a crash fails). cli: overrides of expect/patterns for the tool. only: the
    languages that have the operation (others: n/a). seconds: the time bound. unread:
    the input must be refused before it is read (its size counts for nothing)."""
    return {"name": name, "group": group, "op": op, "schema": schema, "type": type_name,
            "input": input_name, "final": final, "expect": expect, "patterns": patterns,
            "status": status, "cli": cli or {}, "only": only, "seconds": seconds, "unread": unread}


ATTACKS = [
    # (a) the JSON reader's budget
    attack("json_hashex_1mb", "a", "from_json", "test", "test.StructHashEx", "json_hashex.json"),
    attack("json_orders_10mb", "a", "from_json", "proto", "proto.Account", "json_orders.json"),
    attack("json_small_control", "a", "from_json", "test", "test.StructHashEx", "json_hashex_small.json", expect="ok"),
    # (b) decode's budget: shared bodies, defaults, empty structs
    attack("shared_orders_4mb", "b", "decode", "proto", "proto.Account", "shared_orders_4mb.bin"),
    attack("shared_orders_10mb", "b", "decode", "proto", "proto.Account", "shared_orders_10mb.bin"),
    attack("shared_orders_10mb_verify", "b", "verify", "proto", "proto.Account", "shared_orders_10mb.bin"),
    attack("fanout_4mb", "b", "decode", "hostile", "hostile.Top", "fanout_4mb.bin"),
    attack("fanout_4mb_verify", "b", "verify", "hostile", "hostile.Top", "fanout_4mb.bin"),
    attack("fanout_small_control", "b", "decode", "hostile", "hostile.Top", "fanout_small.bin", expect="ok"),
    attack("empties_final_2m_verify", "b", "verify", "hostile", "hostile.Empties", "empties_final_2m.bin", True,
           expect="ok_or_refused"),
    attack("empties_final_2m_decode", "b", "decode", "hostile", "hostile.Empties", "empties_final_2m.bin", True,
           expect="ok_or_refused"),
    attack("defaults_40kb", "b", "decode", "hostile", "hostile.ManyDefaults", "defaults_40kb.bin"),
    attack("defaults_small_control", "b", "decode", "hostile", "hostile.ManyDefaults", "defaults_small.bin",
           expect="ok"),
    attack("near_budget_orders", "b", "decode", "proto", "proto.Account", "near_orders.bin", expect="ok"),
    attack("near_budget_empties", "b", "decode", "hostile", "hostile.Empties", "near_empties_final.bin", True,
           expect="ok"),
    # (c) the receiver: frames claiming much, many frames, big frames
    attack("receiver_claim_300mb", "c", "receive", "proto", "proto", "stream_claim_300mb.bin", expect="ok",
           cli={"expect": "refused", "patterns": ["the stream ends inside a message"]}),
    attack("receiver_claim_2gib", "c", "receive", "proto", "proto", "stream_claim_2gib.bin",
           patterns=["(max_model_size)"]),
    attack("receiver_frames_10mb", "c", "receive", "proto", "proto", "stream_frames_10mb.bin", expect="ok"),
    attack("receiver_shared_4mb", "c", "receive", "proto", "proto", "stream_shared_4mb.bin"),
    attack("receiver_empties_final_2m", "c", "receive", "hostile", "hostile", "stream_empties_final_2m.bin", True,
           expect="ok_or_refused"),
    # (d) schemas and files
    attack("schema_deep_chain", "d", "load", None, None, "deep_chain.fbe",
           patterns=["past 524288 fields"], status="FBE_ERR_SCHEMA"),
    attack("schema_doubling", "d", "load", None, None, "doubling.fbe",
           patterns=["past 524288 final-model steps"], status="FBE_ERR_SCHEMA"),
    # the loader is the core's (one cell); the bindings' own cost of a big schema: 10^5
    # structs, 0.2 ms each at most (a lookup by name per struct made it quadratic)
    attack("schema_500k_structs", "d", "load", None, None, "many_structs.fbe", expect="ok", only=["c"]),
    attack("schema_1e5_structs", "d", "load", None, None, "compat_old.fbe", expect="ok", seconds=20.0),
    attack("schema_dev_zero", "d", "load", None, None, "/dev/zero",
           patterns=["not a regular file"], status="FBE_ERR_SCHEMA", unread=True),
    attack("schema_oversized", "d", "load", None, None, "oversized.fbe",
           patterns=["too large: 67108865 bytes"], status="FBE_ERR_SCHEMA", unread=True),
    attack("compat_1e5_structs", "d", "compat", None, None, "compat_old.fbe", expect="ok", only=["c"]),
    # (e) dump
    attack("dump_shared_4mb", "e", "dump", "proto", "proto.Account", "shared_orders_4mb.bin",
           expect="ok_or_refused", patterns=["(max_memory)", "output larger than"], only=["c"]),
    attack("dump_account_1000_shared", "e", "dump", "proto", "proto.Account", "account_1000_orders.bin",
           expect="ok", only=["c"]),
    # (f) depth: 256 levels are taken, 257 refused, in encode and decode; deep values a
    # program builds are refused or raise, never crash
    attack("depth256_decode", "f", "reencode", "hostile", "hostile.Chain", "chain_257.bin", expect="ok",
           cli={"op": "decode"}),
    attack("depth257_decode", "f", "decode", "hostile", "hostile.Chain", "chain_258.bin", patterns=DEPTH),
    attack("depth256_json", "f", "from_json", "hostile", "hostile.Chain", "chain_257.json", expect="ok"),
    attack("depth257_json", "f", "from_json", "hostile", "hostile.Chain", "chain_258.json", patterns=DEPTH),
    attack("depth256_encode", "f", "encode_chain", "hostile", "hostile.Chain", "257", expect="ok",
           only=LANGUAGES[1:]),
    attack("depth257_encode", "f", "encode_chain", "hostile", "hostile.Chain", "258", patterns=DEPTH,
           only=LANGUAGES[1:]),
    attack("deep60000_decode", "f", "decode", "hostile", "hostile.Chain", "chain_60000.bin", patterns=DEPTH),
    attack("deep60000_json", "f", "from_json", "hostile", "hostile.Chain", "chain_60000.json", patterns=DEPTH),
    attack("deep60000_encode", "f", "encode_chain", "hostile", "hostile.Chain", "60000", patterns=DEPTH,
           only=LANGUAGES[1:]),
    attack("deep60000_to_json", "f", "deep_json", "hostile", "hostile.Chain", "60000", patterns=DEPTH,
           only=LANGUAGES[1:]),
    attack("deep60000_hash", "f", "deep_hash", "hostile", "hostile.Chain", "60000", expect="survives",
           only=["python", "ruby", "java"]),  # Node has no hash of a value
    attack("deep60000_eq", "f", "deep_eq", "hostile", "hostile.Chain", "60000", expect="survives",
           only=LANGUAGES[1:]),
    attack("deep60000_repr", "f", "deep_repr", "hostile", "hostile.Chain", "60000", expect="survives",
           only=LANGUAGES[1:]),
]
BASELINE = attack("baseline", "-", "decode", "proto", "proto.Account", "trivial.bin", expect="ok")
# verify => decode (and decode verifies first): the two must agree in every language
SAME_VERDICT = [("shared_orders_10mb_verify", "shared_orders_10mb"), ("fanout_4mb_verify", "fanout_4mb"),
                ("empties_final_2m_verify", "empties_final_2m_decode")]


# ---- the runtimes -----------------------------------------------------------------------

def find_runtimes(args, inputs):
    """language -> argv prefix of its driver (None: not built); compiles the Java driver."""
    found = {"c": [args.fbe] if os.access(args.fbe, os.X_OK) else None}
    py = os.path.join(REPO, "build", "python", "venv", "bin", "python")
    found["python"] = [py, os.path.join(HERE, "drivers", "driver.py")] if os.access(py, os.X_OK) else None
    addon = os.path.join(REPO, "bindings", "node", "build", "Release", "fbe.node")
    found["node"] = ["node", "--max-old-space-size={heap_mb}", os.path.join(HERE, "drivers", "driver.js")] \
        if os.path.exists(addon) else None
    gems = os.path.join(REPO, "build", "ruby", "gems", "gems")
    libs = sorted(os.path.join(gems, d, "lib") for d in os.listdir(gems) if d.startswith("fbe-")) \
        if os.path.isdir(gems) else []
    found["ruby"] = ["ruby", "-I", libs[-1], os.path.join(HERE, "drivers", "driver.rb")] if libs else None
    target = os.path.join(REPO, "bindings", "java", "target")
    jars = sorted(os.path.join(target, f) for f in os.listdir(target)
                  if f.startswith("fbe-") and f.endswith(".jar") and "sources" not in f and "javadoc" not in f) \
        if os.path.isdir(target) else []
    found["java"] = None
    if jars and "java" in args.languages:
        classes = os.path.join(args.out, "java-classes")
        os.makedirs(classes, exist_ok=True)
        if subprocess.run(["javac", "-d", classes, "-cp", jars[0], os.path.join(HERE, "drivers", "Driver.java")]
                          ).returncode == 0:
            found["java"] = ["java", "-Xmx{heap_mb}m", "-cp", jars[0] + os.pathsep + classes, "Driver"]
    # Go: the driver is a module of its own (drivers/go) whose go.mod replaces
    # libfbe.org/fbe by bindings/go; vendor.sh copies the core into the binding (the test
    # command's go stage ran it; again is cheap)
    found["go"] = None
    gobinding = os.path.join(REPO, "bindings", "go")
    if "go" in args.languages and os.path.isfile(os.path.join(gobinding, "go.mod")):
        exe = os.path.join(args.out, "go-driver")
        env = dict(os.environ, GOFLAGS="-p=2")
        try:  # no go on PATH: not built
            if subprocess.run(["bash", os.path.join(gobinding, "tools", "vendor.sh")]).returncode == 0 and \
                    subprocess.run(["go", "build", "-o", exe, "."], cwd=os.path.join(HERE, "drivers", "go"),
                                   env=env).returncode == 0:
                found["go"] = [exe]
        except OSError as e:
            print("run.py: the Go driver: %s" % e, file=sys.stderr)
    # C++: the driver over fbe.hpp, compiled as ci/demo.sh compiles a user's program
    # against the libfbe.a the test command built (build/release)
    static = os.path.join(REPO, "build", "release", "libfbe.a")
    found["cpp"] = None
    if os.path.exists(static) and "cpp" in args.languages:
        exe = os.path.join(args.out, "cpp-driver")
        os.makedirs(args.out, exist_ok=True)
        if subprocess.run(["c++", "-std=c++17", "-O2", "-DFBE_STATIC", "-I" + os.path.join(REPO, "core", "include"),
                           "-I" + os.path.join(REPO, "bindings", "cpp", "include"),
                           os.path.join(HERE, "drivers", "driver.cpp"), static, "-lm", "-o", exe]).returncode == 0:
            found["cpp"] = [exe]
    found["rust"] = rust_driver() if "rust" in args.languages else None
    return found


def rust_driver():
    """The Rust driver, an example of the fbe crate, built in the target directory of the
    test command's rust stage (build/rust: its core is compiled there already); None
    when that stage has not run."""
    target = os.path.join(REPO, "build", "rust")
    if not os.path.isdir(os.path.join(target, "release")) or not shutil.which("cargo"):
        return None
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    if subprocess.run(["cargo", "build", "--release", "--quiet", "-j%s" % os.environ.get("FBE_JOBS", os.cpu_count() or 2), "--example", "hostile_driver"],
                      cwd=os.path.join(REPO, "bindings", "rust"), env=env).returncode != 0:
        return None
    return [os.path.join(target, "release", "examples", "hostile_driver")]


def schema_path(key, inputs):
    return {"proto": os.path.join(REPO, "schemas", "proto.fbe"), "test": os.path.join(REPO, "schemas", "test.fbe"),
            "hostile": os.path.join(inputs, "hostile.fbe"), None: "-"}[key]


def input_path(a, inputs):
    if a["op"] in ("encode_chain", "deep_json", "deep_hash", "deep_eq", "deep_repr"):
        return a["input"]  # a number of levels
    return a["input"] if a["input"].startswith("/") else os.path.join(inputs, a["input"])


def command(lang, a, runtime, inputs):
    """The argv of attack a in lang."""
    schema, inp = schema_path(a["schema"], inputs), input_path(a, inputs)
    if lang != "c":
        return runtime + [a["op"], schema, a["type"] or "-", inp] + (["final"] if a["final"] else [])
    final = ["--final"] if a["final"] else []
    op = a["cli"].get("op", a["op"])
    short = (a["type"] or "").split(".")[-1]
    if op in ("decode", "verify", "dump"):
        return runtime + [op, "-s", schema, "-t", short] + final + [inp]
    if op == "from_json":
        return runtime + ["encode", "-s", schema, "-t", short, inp]
    if op == "receive":
        return runtime + ["stream", "decode", "-I", os.path.dirname(schema), "-p", a["type"]] + final + [inp]
    if op == "load":
        return runtime + ["check", inp]
    if op == "compat":
        return runtime + ["compat", inp, os.path.join(inputs, "compat_new.fbe")]
    raise ValueError(op)


# ---- the bound of one attack ----------------------------------------------------------

def largest_frame(path):
    """The largest frame of a stream (as far as its bytes go)."""
    size, biggest = os.path.getsize(path), 0
    with open(path, "rb") as f:
        at = 0
        while at + 4 <= size:
            f.seek(at)
            frame = struct.unpack("<I", f.read(4))[0]
            biggest = max(biggest, min(frame, size - at))
            if frame < 8:
                break
            at += frame
    return biggest


def allowance(lang, a, inputs, succeeded):
    """Bytes attack a may take above the runtime's idle baseline (README.md "Bounds")."""
    return FIXED[lang] + needs(lang, a, inputs, succeeded)


def needs(lang, a, inputs, succeeded):
    """What the input and the budgets let attack a take."""
    inp = input_path(a, inputs)
    if a["op"] in ("encode_chain", "deep_json", "deep_hash", "deep_eq", "deep_repr"):
        return PROGRAM_LEVEL * int(inp) + MiB
    size = os.path.getsize(inp) if os.path.isfile(inp) and not a["unread"] else 0
    if a["op"] in ("load", "compat"):
        text = size + (os.path.getsize(os.path.join(inputs, "compat_new.fbe")) if a["op"] == "compat" else 0)
        return HELD * text + CORE * (SCHEMA_FACTOR * text + SCHEMA_FLOOR) + (HOST_LOAD[lang] * text if succeeded else 0)
    unit = largest_frame(inp) if a["op"] == "receive" else size
    budget = MEMORY_FACTOR * unit + MEMORY_FLOOR
    total = HELD * size + CORE * budget
    if lang == "c" and a["cli"].get("op", a["op"]) in ("decode", "dump", "receive"):
        total += OUT * (OUTPUT_FACTOR * size + MEMORY_FLOOR)  # the tool's JSON or dump text
    if succeeded and a["op"] in ("decode", "reencode", "from_json", "receive"):
        total += HOST[lang] * budget  # the objects the binding built
    return total


# ---- running one attack ---------------------------------------------------------------

def run_one(argv, address_limit, kill_s, out_dir):
    """Runs argv (forked, not vforked: a vforked child's ru_maxrss starts at this process's
    peak); returns (wait status, peak RSS bytes, seconds, stdout tail, stderr)."""
    def limit():
        if address_limit:
            resource.setrlimit(resource.RLIMIT_AS, (address_limit, address_limit))
    out_path, err_path = os.path.join(out_dir, "stdout"), os.path.join(out_dir, "stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, preexec_fn=limit)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > kill_s:
                os.kill(proc.pid, signal.SIGKILL)
            time.sleep(0.005)
        # The time judged is the smaller of the wall clock and the CPU time the process
        # used: on a loaded machine the wall clock runs on while the process waits for a
        # core, and a multi-threaded runtime (the JVM's compiler and collector) uses more
        # CPU than wall time; a runaway loop is long by both.
        seconds = min(time.monotonic() - t0, usage.ru_utime + usage.ru_stime)
        proc.returncode = status  # reaped here: keeps Popen from waiting again
    with open(out_path, "rb") as f:
        f.seek(max(0, os.path.getsize(out_path) - 4096))
        tail = f.read().decode("utf-8", "replace")
    with open(err_path, "rb") as f:
        stderr = f.read(8192).decode("utf-8", "replace")
    os.remove(out_path)
    os.remove(err_path)
    return status, usage.ru_maxrss * 1024, seconds, tail, stderr


SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def brief(text):
    """The first 300 characters of text on one line."""
    return " ".join(text.split())[:300]


def outcome(lang, a, status, tail, stderr):
    """The result as a driver line: {"result": "ok"|"error"|"crash"|"failed", ...}."""
    if os.WIFSIGNALED(status):
        return {"result": "crash", "message": "killed by signal %d; %s" % (os.WTERMSIG(status), brief(stderr))}
    report = next((r for r in SANITIZER_REPORTS if r in stderr), None)
    if report:
        at = stderr.index(report)
        return {"result": "crash", "message": "sanitizer report: " + brief(stderr[at:])}
    code = os.WEXITSTATUS(status)
    if lang == "c":
        if a["op"] == "compat":  # exit 1: the changes break readers (a report, not an error)
            last = tail.strip().splitlines()[-1] if tail.strip() else ""
            if code in (0, 1) and " changes, " in last:
                return {"result": "ok", "detail": last}
        if code == 0:
            return {"result": "ok", "detail": ""}
        # the reason is on stderr (dump ends its listing with a "!!" line instead)
        lines = (stderr.strip() or tail.strip()).splitlines()
        if code == 1 and lines:
            return {"result": "error", "type": "exit 1", "status": None, "message": lines[-1]}
        return {"result": "failed", "message": "exit %d: %s" % (code, brief(stderr))}
    lines = tail.strip().splitlines()
    try:
        line = json.loads(lines[-1])
    except (IndexError, ValueError):
        return {"result": "failed", "message": "exit %d, no result line; %s" % (code, brief(stderr))}
    if code != 0:
        return {"result": "failed", "message": "exit %d; %s" % (code, brief(stderr))}
    return line


def judge(lang, a, res, rss, seconds, bound, time_factor, sanitized):
    """The reasons the cell fails (empty: it passed)."""
    why = []
    expect = a["cli"].get("expect", a["expect"]) if lang == "c" else a["expect"]
    patterns = a["cli"].get("patterns", a["patterns"]) if lang == "c" else a["patterns"]
    if res["result"] in ("crash", "failed"):
        why.append(res["result"] + ": " + res["message"])
    elif res["result"] == "error" and expect != "survives":
        msg = res.get("message", "")
        if expect == "ok":
            why.append("expected success, got " + msg)
        elif not any(p in msg for p in patterns):
            why.append("the error does not name the limit %s: %s" % (" or ".join(patterns), msg))
        elif lang != "c" and res.get("status") != a["status"]:
            why.append("status %s, expected %s" % (res.get("status"), a["status"]))
    elif res["result"] == "ok" and expect == "refused":
        why.append("expected a refusal naming %s, but it succeeded" % " or ".join(patterns))
    if not sanitized and rss > bound:
        why.append("peak RSS %.1f MB over the bound of %.1f MB" % (rss / MiB, bound / MiB))
    if seconds > a["seconds"] * time_factor:
        why.append("%.1f s over the bound of %.0f s" % (seconds, a["seconds"] * time_factor))
    return why


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--languages", default=",".join(LANGUAGES))
    p.add_argument("--fbe", default=os.path.join(REPO, "build", "release", "bin", "fbe"))
    p.add_argument("--out", default=os.path.join(REPO, "build", "hostile"))
    p.add_argument("--sanitized", action="store_true")
    args = p.parse_args()
    args.languages = [lang.lower() for lang in args.languages.split(",") if lang]
    args.languages = ["cpp" if lang == "c++" else lang for lang in args.languages]  # C++ is cpp
    unknown = [lang for lang in args.languages if lang not in LANGUAGES]
    if unknown:
        sys.exit("run.py: unknown languages %s (ours: %s)" % (unknown, ",".join(LANGUAGES)))
    args.out = os.path.abspath(args.out)
    inputs = os.path.join(args.out, "inputs")
    t0 = time.monotonic()
    subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), inputs], check=True)
    runtimes = find_runtimes(args, inputs)
    missing = [lang for lang in args.languages if not runtimes.get(lang)]
    time_factor = 3 if args.sanitized else 1
    kill_s = KILL_S * time_factor
    work = os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    languages = [lang for lang in args.languages if lang not in missing]

    def cell(lang, a, baseline):
        heap = max(64 * MiB, needs(lang, a, inputs, True))
        argv = [w.format(heap_mb=int(heap // MiB)) for w in command(lang, a, runtimes[lang], inputs)]
        # ulimit -v where the runtime allows it (Node and the JVM reserve large ranges of
        # address space up front: their heap flags and the RSS bound stand for it; so does
        # Go's runtime, which has no hard heap limit: the RSS bound alone)
        limited = lang in ("c", "python", "ruby", "rust", "cpp") and not (lang == "c" and args.sanitized)
        address = int(baseline + heap + VM_SLACK) if limited and baseline else None
        status, rss, seconds, tail, stderr = run_one(argv, address, kill_s, work)
        res = outcome(lang, a, status, tail, stderr)
        return res, rss, seconds, address

    results = {"bounds": {"time_s": TIME_S * time_factor, "host_factor": HOST, "host_load_factor": HOST_LOAD, "held": HELD, "core": CORE, "out": OUT,
                          "fixed_mb": {lang: v // MiB for lang, v in FIXED.items()},
                          "schema_factor": SCHEMA_FACTOR, "sanitized": args.sanitized,
                          "address_limit_slack_mb": VM_SLACK // MiB,
                          "floor_note": "ru_maxrss of a forked child starts at the runner's own RSS "
                                        "(about 10 MB): smaller figures read as that"},
               "config": {"fbe": args.fbe, "languages": languages, "missing": missing},
               "baseline_mb": {}, "attacks": {}, "failures": []}
    failures = []
    for lang in missing:
        failures.append("%s: not built (run its stage of ci/test.sh first)" % lang)
    baselines = {}
    for lang in languages:
        res, rss, seconds, _ = cell(lang, BASELINE, 0)
        if res["result"] != "ok":
            failures.append("%s: the baseline run failed: %s" % (lang, res))
        baselines[lang] = rss
        results["baseline_mb"][lang] = round(rss / MiB, 1)

    for a in ATTACKS:
        row = results["attacks"].setdefault(a["name"], {"group": a["group"], "op": a["op"], "cells": {}})
        for lang in languages:
            if a["only"] and lang not in a["only"]:
                row["cells"][lang] = {"verdict": "n/a"}
                continue
            res, rss, seconds, address = cell(lang, a, baselines[lang])
            bound = baselines[lang] + allowance(lang, a, inputs, res["result"] == "ok")
            why = judge(lang, a, res, rss, seconds, bound, time_factor, args.sanitized)
            row["cells"][lang] = {"verdict": "FAIL" if why else "ok", "rss_mb": round(rss / MiB, 1),
                                  "time_bound_s": a["seconds"] * time_factor,
                                  "bound_mb": round(bound / MiB, 1), "seconds": round(seconds, 3),
                                  "address_limit_mb": address // MiB if address else None,
                                  "result": res["result"], "type": res.get("type"), "status": res.get("status"),
                                  "message": (res.get("message") or res.get("detail") or "")[:300], "why": why}
            failures += ["%s / %s: %s" % (a["name"], lang, w) for w in why]

    for verify_name, decode_name in SAME_VERDICT:
        for lang in languages:
            v = results["attacks"][verify_name]["cells"].get(lang, {})
            d = results["attacks"][decode_name]["cells"].get(lang, {})
            if v.get("result") in ("ok", "error") and d.get("result") in ("ok", "error") \
                    and (v["result"] == "ok") != (d["result"] == "ok"):
                failures.append("%s / %s: verify says %s, decode says %s (verify => decode broken)"
                                % (decode_name, lang, v["result"], d["result"]))

    results["failures"] = failures
    results["seconds"] = round(time.monotonic() - t0, 1)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")

    # the table: peak RSS (MB) / seconds / verdict
    width = 22
    print("hostile: peak RSS MB / seconds / verdict (bounds: README.md; %s)"
          % ("sanitized: no RSS bound, time x3" if args.sanitized else "ulimit -v for c, python, ruby, rust, cpp"))
    print("%-28s" % "baseline" + "".join(("%.1f" % results["baseline_mb"][lang]).ljust(width) for lang in languages))
    print("%-28s" % "attack" + "".join(lang.ljust(width) for lang in languages))
    for a in ATTACKS:
        line = "%-28s" % a["name"]
        for lang in languages:
            c = results["attacks"][a["name"]]["cells"][lang]
            text = "n/a" if c["verdict"] == "n/a" else "%.1f %.2fs %s" % (c["rss_mb"], c["seconds"], c["verdict"])
            line += text.ljust(width)
        print(line)
    for failure in failures:
        print("hostile: FAILED: " + failure)
    print("hostile: %d attacks x %d languages, %d failures, %.1f s; results in %s"
          % (len(ATTACKS), len(languages), len(failures), results["seconds"], os.path.join(args.out, "results.json")))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

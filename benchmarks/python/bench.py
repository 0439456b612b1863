#!/usr/bin/env python3
"""libfbe Python benchmark: the workloads account (the reference README's Account,
three orders), small and large (schemas/bench/), read from benchmarks/data/*.json,
encoded and decoded by the fbe package side by side in one run with msgpack and
protobuf (from PyPI; the message classes generated from benchmarks/schemas/bench.proto
by grpcio-tools' protoc at run time) and the standard json module, for the same data.

    python bench.py [--quick|--smoke] [--json] [--runs N] [--min-time SECONDS] [-I SCHEMAS_DIR]

Method (as benchmarks/c/bench.c): each operation runs in batches of about 2 ms; a run
repeats whole batches for at least --min-time (default 0.2 s); the runs are
interleaved in rounds (every figure once per round, so a slow spell of a shared
machine hits all figures alike) and each figure is the median over the rounds
(default 7) of the mean time per operation; spread_pct is (max - min) / median.
--quick is 3 rounds of 0.05 s, for CI; --smoke one round of a few operations, to prove
every peer round-trips its data. --json prints one JSON object per line:
{"lang":"python","impl":"libfbe|libfbe-view|msgpack|protobuf|json","workload":"account|small|large",
 "model":..., "op":"encode|decode|decode_trusted|decode_all|verify","ns":<median>,"spread_pct":...,
 "size":...,"rounds":[<ns per operation in each round>]}
(model: "standard" or "final" for libfbe, "dict" for msgpack and json, "message" for
protobuf). libfbe's decode is the default, verifying one; decode_trusted
(trusted=True, without the verify) is measured beside it. decode_all is decode plus
reading every field once into Python values (read_all below, the same for everyone).
libfbe-view is Cls.view(bytes, model=...): its decode opens the view (verifying) and
reads one field, its decode_all opens it and reads every field; it is skipped (with a
line "skipped: ..." on stderr) while the binding has no view.
"""
from __future__ import annotations

import argparse
import functools
import json
import operator
import os
import platform
import subprocess
import sys
import tempfile
import time
import types
from itertools import repeat
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMAS = os.path.normpath(os.path.join(HERE, "..", "..", "schemas"))
DATA = os.path.normpath(os.path.join(HERE, "..", "data"))
PROTO = os.path.normpath(os.path.join(HERE, "..", "schemas", "bench.proto"))

# workload -> (the .fbe file under the schemas directory, the struct)
WORKLOADS = {"account": ("proto.fbe", "Account"), "small": ("bench/small.fbe", "Small"),
             "large": ("bench/large.fbe", "Large")}


OPS = ("encode", "decode", "decode_trusted", "decode_all", "verify")  # the order within a round


# ---- reading every field once (decode_all), one function per workload; get is
# getattr for objects (libfbe's values and views, protobuf messages) and
# operator.getitem for dicts (msgpack, json). Returns the values, so setup can check them.
# Each implementation runs its own copy (fresh()), so the interpreter's inline caches in
# a reader see one implementation's objects, as in a program that reads one kind.
def read_account(a: Any, get: Callable[[Any, str], Any]) -> List[Any]:
    w = get(a, "wallet")
    out = [get(a, "id"), get(a, "name"), get(a, "state"), get(w, "currency"), get(w, "amount")]
    asset = get(a, "asset")
    out.append(asset is not None)
    if asset is not None:
        out += [get(asset, "currency"), get(asset, "amount")]
    for o in get(a, "orders"):
        out += [get(o, "id"), get(o, "symbol"), get(o, "side"), get(o, "type"), get(o, "price"), get(o, "volume")]
    return out


def read_small(s: Any, get: Callable[[Any, str], Any]) -> List[Any]:
    return [get(s, "name"), get(s, "spouse"), get(s, "siblings"), get(s, "money"), get(s, "birthday")]


def read_large(v: Any, get: Callable[[Any, str], Any]) -> List[Any]:
    return list(get(v, "ids")) + list(get(v, "names"))


def fresh(f: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of f with a code object (and so inline caches) of its own."""
    return types.FunctionType(f.__code__.replace(), f.__globals__, f.__name__)


READ_ALL = {"account": read_account, "small": read_small, "large": read_large}
# the field libfbe-view's decode reads: (workload -> read one field of a view)
READ_ONE = {"account": lambda v, get: get(v, "id"), "small": lambda v, get: get(v, "name"),
            "large": lambda v, get: len(get(v, "ids"))}


def decode_all(decode: Callable[[Any], Any], workload: str, get: Callable[[Any, str], Any]) -> Callable[[Any], Any]:
    """decode, then read every field (read_all, a copy of its own)."""
    read = fresh(READ_ALL[workload])

    def run(data: Any) -> Any:
        return read(decode(data), get)

    return run


def checked(run: Callable[[Any], Any], data: Any, expected: List[Any], what: str) -> Callable[[Any], Any]:
    if run(data) != expected:
        raise SystemExit(f"bench: {what}: decode_all reads other values than the data's")
    return run


def load_data() -> Dict[str, Dict[str, Any]]:
    out = {}
    for name in WORKLOADS:
        with open(os.path.join(DATA, name + ".json")) as f:
            out[name] = json.load(f)
    return out


# One loop per call shape, so no wrapper frame sits between the loop and the call.
def loop0(fn: Callable[[], Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        fn()


def loop1(fn: Callable[[Any], Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        fn(arg)


def loop_final0(fn: Callable[..., Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        fn(final=True)


def loop_final1(fn: Callable[..., Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        fn(arg, final=True)


def loop_trusted1(fn: Callable[..., Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        fn(arg, trusted=True)


def loop_final_trusted1(fn: Callable[..., Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        fn(arg, final=True, trusted=True)


class Case:
    def __init__(self, impl: str, workload: str, model: str, op: str, loop: Callable[[Any, Any, int], None],
                 fn: Any, arg: Any, size: int):
        self.impl, self.workload, self.model, self.op = impl, workload, model, op
        # a loop of its own (its inline caches see this case's call only)
        self.loop, self.fn, self.arg, self.size = fresh(loop), fn, arg, size
        self.batch = 1
        self.per_op: List[float] = []

    def calibrate(self) -> None:
        batch = 1
        while True:
            t0 = time.perf_counter_ns()
            self.loop(self.fn, self.arg, batch)
            if time.perf_counter_ns() - t0 >= 2_000_000 or batch >= 1 << 30:
                self.batch = batch
                return
            batch *= 2

    def run_once(self, min_time: float) -> None:
        iterations = 0
        t0 = time.perf_counter_ns()
        deadline = min_time * 1e9
        while True:
            self.loop(self.fn, self.arg, self.batch)
            iterations += self.batch
            elapsed = time.perf_counter_ns() - t0
            if elapsed >= deadline:
                break
        self.per_op.append(elapsed / iterations)

    def result(self) -> Tuple[float, float]:
        xs = sorted(self.per_op)
        n = len(xs)
        median = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
        return median, (xs[-1] - xs[0]) / median * 100.0

    def figure(self) -> Dict[str, Any]:
        median, spread = self.result()
        return {"lang": "python", "impl": self.impl, "workload": self.workload, "model": self.model, "op": self.op,
                "ns": round(median, 1), "spread_pct": round(spread, 1), "size": self.size,
                "rounds": [round(x, 2) for x in self.per_op]}


def libfbe_cases(schemas: str, workload: str, value: Dict[str, Any]) -> List[Case]:
    import fbe

    path, type_name = WORKLOADS[workload]
    schema = fbe.load(os.path.join(schemas, path), include=[schemas, os.path.dirname(os.path.join(schemas, path))])
    cls = schema[type_name]
    obj = schema.from_json(type_name, json.dumps(value))
    expected = READ_ALL[workload](value, operator.getitem)
    cases = []
    for model, final in (("standard", False), ("final", True)):
        data = obj.encode(final=final)
        back = cls.decode(data, final=final)
        if (json.loads(back.to_json()) != value or not cls.verify(data, final=final)
                or cls.decode(data, final=final, trusted=True) != back):
            raise SystemExit(f"bench: the libfbe {workload} does not round trip")
        if schema.encode(type_name, value, final=final) != data:
            raise SystemExit(f"bench: the {workload} as a dict encodes differently")
        dec = functools.partial(cls.decode, final=True) if final else cls.decode
        read_all = Case("libfbe", workload, model, "decode_all", loop1,
                        checked(decode_all(dec, workload, getattr), data, expected, f"libfbe {model}"), data,
                        len(data))
        if final:
            cases += [Case("libfbe", workload, model, "encode", loop_final0, obj.encode, None, len(data)),
                      Case("libfbe", workload, model, "decode", loop_final1, cls.decode, data, len(data)),
                      Case("libfbe", workload, model, "decode_trusted", loop_final_trusted1, cls.decode, data,
                           len(data)),
                      Case("libfbe", workload, model, "verify", loop_final1, cls.verify, data, len(data))]
        else:
            cases += [Case("libfbe", workload, model, "encode", loop0, obj.encode, None, len(data)),
                      Case("libfbe", workload, model, "decode", loop1, cls.decode, data, len(data)),
                      Case("libfbe", workload, model, "decode_trusted", loop_trusted1, cls.decode, data, len(data)),
                      Case("libfbe", workload, model, "verify", loop1, cls.verify, data, len(data))]
        cases += [read_all] + view_cases(cls, workload, model, data, value)
    return cases


# libfbe-view's decode loops: open the view (fn: Cls.view with the model) and read the
# one field of READ_ONE, inline, so no Python frame is added to what is measured.
def loop_view_account(fn: Callable[[Any], Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        fn(arg).id


def loop_view_small(fn: Callable[[Any], Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        fn(arg).name


def loop_view_large(fn: Callable[[Any], Any], arg: Any, n: int) -> None:
    for _ in repeat(None, n):
        len(fn(arg).ids)


VIEW_ONE_LOOPS = {"account": loop_view_account, "small": loop_view_small, "large": loop_view_large}

_skipped: set = set()


def view_cases(cls: Any, workload: str, model: str, data: bytes, value: Dict[str, Any]) -> List[Case]:
    """libfbe-view: decode = open the view (verifying) + read one field; decode_all =
    open + read every field. Skipped while the binding has no Cls.view."""
    if not hasattr(cls, "view"):
        if "view" not in _skipped:
            _skipped.add("view")
            print("skipped: libfbe-view (the fbe package has no view yet)", file=sys.stderr)
        return []
    one = READ_ONE[workload]
    # the standard model is view's default: called as is, nothing is added to what is measured
    view = cls.view if model == "standard" else functools.partial(cls.view, model=model)

    def open_one(b: bytes) -> Any:
        return one(view(b), getattr)

    if open_one(data) != one(value, operator.getitem):
        raise SystemExit(f"bench: libfbe-view {model}: decode reads another value than the data's")
    expected = READ_ALL[workload](value, operator.getitem)
    return [Case("libfbe-view", workload, model, "decode", VIEW_ONE_LOOPS[workload], view, data, len(data)),
            Case("libfbe-view", workload, model, "decode_all", loop1,
                 checked(decode_all(view, workload, getattr), data, expected, f"libfbe-view {model}"), data,
                 len(data))]


def msgpack_cases(workload: str, value: Dict[str, Any]) -> List[Case]:
    import msgpack  # type: ignore[import-not-found]

    packer = msgpack.Packer()
    data = packer.pack(value)
    if msgpack.unpackb(data) != value:
        raise SystemExit(f"bench: msgpack does not round trip {workload}")
    expected = READ_ALL[workload](value, operator.getitem)
    return [Case("msgpack", workload, "dict", "encode", loop1, packer.pack, value, len(data)),
            Case("msgpack", workload, "dict", "decode", loop1, msgpack.unpackb, data, len(data)),
            Case("msgpack", workload, "dict", "decode_all", loop1,
                 checked(decode_all(msgpack.unpackb, workload, operator.getitem), data, expected, "msgpack"), data,
                 len(data))]


_pb2: Any = None


def protobuf_module() -> Any:
    """bench_pb2, generated from benchmarks/schemas/bench.proto by grpcio-tools' protoc
    (whose protobuf version pip keeps in step with the runtime) into a temporary folder."""
    global _pb2
    if _pb2 is None:
        from grpc_tools import protoc  # type: ignore[import-not-found]  # noqa: F401 (ImportError: skipped)
        import importlib

        with tempfile.TemporaryDirectory(prefix="fbe-bench-pb2-") as out:
            subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-I", os.path.dirname(PROTO),
                            "--python_out=" + out, PROTO], check=True)
            sys.path.insert(0, out)
            try:
                _pb2 = importlib.import_module("bench_pb2")
            finally:
                sys.path.remove(out)
    return _pb2


def protobuf_cases(workload: str, value: Dict[str, Any]) -> List[Case]:
    from google.protobuf import json_format  # type: ignore[import-not-found]

    cls = getattr(protobuf_module(), WORKLOADS[workload][1])
    msg = json_format.ParseDict(value, cls())  # fails on a field the .proto lacks
    data = msg.SerializeToString()
    if cls.FromString(data) != msg:
        raise SystemExit(f"bench: protobuf does not round trip {workload}")
    expected = READ_ALL[workload](value, operator.getitem)
    return [Case("protobuf", workload, "message", "encode", loop0, msg.SerializeToString, None, len(data)),
            Case("protobuf", workload, "message", "decode", loop1, cls.FromString, data, len(data)),
            Case("protobuf", workload, "message", "decode_all", loop1,
                 checked(decode_all(cls.FromString, workload, getattr), data, expected, "protobuf"), data,
                 len(data))]


def json_cases(workload: str, value: Dict[str, Any]) -> List[Case]:
    encoder = json.JSONEncoder(separators=(",", ":"))
    text = encoder.encode(value)
    if json.loads(text) != value:
        raise SystemExit(f"bench: json does not round trip {workload}")
    expected = READ_ALL[workload](value, operator.getitem)
    return [Case("json", workload, "dict", "encode", loop1, encoder.encode, value, len(text)),
            Case("json", workload, "dict", "decode", loop1, json.loads, text, len(text)),
            Case("json", workload, "dict", "decode_all", loop1,
                 checked(decode_all(json.loads, workload, operator.getitem), text, expected, "json"), text,
                 len(text))]


def versions() -> str:
    out = [f"Python {platform.python_version()}"]
    for name in ("fbe", "msgpack", "google.protobuf"):
        try:
            mod = __import__(name, fromlist=["__version__"])
            out.append(f"{name.split('.')[-1]} {getattr(mod, '__version__', '?')}")
        except ImportError:
            pass
    return ", ".join(out)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="3 rounds of at least 0.05 s (for CI)")
    ap.add_argument("--smoke", action="store_true", help="one round of a few operations (proves the round trips)")
    ap.add_argument("--json", action="store_true", help="one JSON object per figure")
    ap.add_argument("--runs", type=int, default=None, help="rounds (default 7)")
    ap.add_argument("--min-time", type=float, default=None, help="seconds per run (default 0.2)")
    ap.add_argument("-I", dest="schemas", default=DEFAULT_SCHEMAS, help="the schemas directory")
    ap.add_argument("--require-peers", action="store_true", help="fail when msgpack or protobuf is missing")
    args = ap.parse_args(argv)
    runs = args.runs or (1 if args.smoke else 3 if args.quick else 7)
    min_time = args.min_time or (1e-9 if args.smoke else 0.05 if args.quick else 0.2)
    if not 1 <= runs <= 100 or min_time <= 0:
        ap.error("--runs must be 1..100 and --min-time positive")

    cases: List[Case] = []
    missing = set()
    for workload, value in load_data().items():
        cases += libfbe_cases(args.schemas, workload, value)
        for name, make in (("msgpack", msgpack_cases), ("protobuf", protobuf_cases), ("json", json_cases)):
            if name in missing:
                continue
            try:
                cases += make(workload, value)
            except ImportError as exc:
                if args.require_peers:
                    raise SystemExit(f"bench: {name} is not installed ({exc}); pip install -r requirements.txt")
                missing.add(name)
                print(f"bench: {name} not installed, skipped (pip install -r "
                      f"{os.path.join(HERE, 'requirements.txt')})", file=sys.stderr)

    # a round runs cell by cell (workload, then op), every implementation of a cell back
    # to back, so the figures a ratio compares are measured moments apart; every other
    # round runs the schedule backwards, so a slow drift within a cell cancels out
    names = list(WORKLOADS)
    schedule = sorted(cases, key=lambda c: (names.index(c.workload), OPS.index(c.op)))
    for case in schedule:
        if args.smoke:
            case.batch = 2
        else:
            case.calibrate()
    for r in range(runs):  # every other round backwards, so a drift within a cell cancels out
        for case in schedule if r % 2 == 0 else reversed(schedule):
            case.run_once(min_time)

    if not args.json:
        print(f"libfbe Python benchmark: account, small, large; median of {runs} interleaved rounds "
              f"of >= {min_time:.2f} s each ({versions()})")
        print(f"{'impl':<9} {'workload':<8} {'model':<9} {'op':<14} {'bytes':>6} {'ns/op':>10} {'spread':>8} "
              f"{'vs msgpack':>11}")
    peer = {(c.workload, c.op): c.result()[0] for c in cases if c.impl == "msgpack"}
    for case in cases:
        median, spread = case.result()
        if args.json:
            print(json.dumps(case.figure(), separators=(",", ":")))
        else:
            key = (case.workload, case.op)
            ratio = f"{peer[key] / median:.2f}x" if key in peer else ""
            print(f"{case.impl:<9} {case.workload:<8} {case.model:<9} {case.op:<14} {case.size:>6} {median:>10.1f} "
                  f"{spread:>7.1f}% {ratio:>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

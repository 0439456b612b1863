#!/usr/bin/env python3
"""libfbe Python benchmark: proto.Account (the reference README's value, three orders)
encoded and decoded by the fbe package, side by side in one run with msgpack and
protobuf (from PyPI; the protobuf message classes are built at run time from a
descriptor, no protoc) and the standard json module, for the same data.

    python bench.py [--quick] [--json] [--runs N] [--min-time SECONDS] [-I SCHEMAS_DIR]

Method (as benchmarks/c/bench.c): each operation runs in batches of about 2 ms; a run
repeats whole batches for at least --min-time (default 0.2 s); the runs are
interleaved in rounds (every figure once per round, so a slow spell of a shared
machine hits all figures alike) and each figure is the median over the rounds
(default 7) of the mean time per operation; spread_pct is (max - min) / median.
--quick is 3 rounds of 0.05 s, for CI. --json prints one JSON object per line:
{"lang":"python","impl":"libfbe|msgpack|protobuf|json","workload":"account",
 "model":..., "op":"encode|decode|verify","ns":<median>,"spread_pct":...,"size":...}
(model: "standard" or "final" for libfbe, "dict" for msgpack and json, "message" for
protobuf).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from itertools import repeat
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMAS = os.path.normpath(os.path.join(HERE, "..", "..", "schemas"))

ACCOUNT: Dict[str, Any] = {
    "id": 1, "name": "Test", "state": 6,
    "wallet": {"currency": "USD", "amount": 1000.0},
    "asset": {"currency": "EUR", "amount": 100.0},
    "orders": [
        {"id": 1, "symbol": "EURUSD", "side": 0, "type": 0, "price": 1.23456, "volume": 1000.0},
        {"id": 2, "symbol": "EURUSD", "side": 1, "type": 1, "price": 1.0, "volume": 100.0},
        {"id": 3, "symbol": "EURUSD", "side": 0, "type": 2, "price": 1.5, "volume": 10.0},
    ],
}


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


class Case:
    def __init__(self, impl: str, model: str, op: str, loop: Callable[[Any, Any, int], None],
                 fn: Any, arg: Any, size: int):
        self.impl, self.model, self.op = impl, model, op
        self.loop, self.fn, self.arg, self.size = loop, fn, arg, size
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


def libfbe_cases(schemas: str) -> List[Case]:
    import fbe

    schema = fbe.load(os.path.join(schemas, "proto.fbe"), include=[schemas])
    s = schema
    acc = s.Account(
        id=1, name="Test", state=s.State.good,
        wallet=s.Balance(currency="USD", amount=1000.0),
        asset=s.Balance(currency="EUR", amount=100.0),
        orders=[s.Order(id=1, symbol="EURUSD", side=s.OrderSide.buy, type=s.OrderType.market,
                        price=1.23456, volume=1000.0),
                s.Order(id=2, symbol="EURUSD", side=s.OrderSide.sell, type=s.OrderType.limit,
                        price=1.0, volume=100.0),
                s.Order(id=3, symbol="EURUSD", side=s.OrderSide.buy, type=s.OrderType.stop,
                        price=1.5, volume=10.0)])
    cases = []
    for model, final in (("standard", False), ("final", True)):
        data = acc.encode(final=final)
        back = s.Account.decode(data, final=final)
        if back.to_json() != acc.to_json() or not s.Account.verify(data, final=final):
            raise SystemExit("bench: the libfbe Account does not round trip")
        if schema.encode("Account", ACCOUNT, final=final) != data:
            raise SystemExit("bench: the Account as a dict encodes differently")
        if final:
            cases += [Case("libfbe", model, "encode", loop_final0, acc.encode, None, len(data)),
                      Case("libfbe", model, "decode", loop_final1, s.Account.decode, data, len(data)),
                      Case("libfbe", model, "verify", loop_final1, s.Account.verify, data, len(data))]
        else:
            cases += [Case("libfbe", model, "encode", loop0, acc.encode, None, len(data)),
                      Case("libfbe", model, "decode", loop1, s.Account.decode, data, len(data)),
                      Case("libfbe", model, "verify", loop1, s.Account.verify, data, len(data))]
    return cases


def msgpack_cases() -> List[Case]:
    import msgpack  # type: ignore[import-not-found]

    packer = msgpack.Packer()
    data = packer.pack(ACCOUNT)
    if msgpack.unpackb(data) != ACCOUNT:
        raise SystemExit("bench: msgpack does not round trip")
    return [Case("msgpack", "dict", "encode", loop1, packer.pack, ACCOUNT, len(data)),
            Case("msgpack", "dict", "decode", loop1, msgpack.unpackb, data, len(data))]


def protobuf_classes() -> Any:
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory  # type: ignore[import-not-found]

    F = descriptor_pb2.FieldDescriptorProto
    fdp = descriptor_pb2.FileDescriptorProto(name="fbe_bench_account.proto", package="fbebench",
                                             syntax="proto3")

    def message(name: str, fields: List[Tuple[str, int, int, Optional[str], bool]]) -> None:
        m = fdp.message_type.add(name=name)
        for fname, number, ftype, type_name, repeated in fields:
            f = m.field.add(name=fname, number=number, type=ftype,
                            label=F.LABEL_REPEATED if repeated else F.LABEL_OPTIONAL)
            if type_name:
                f.type_name = type_name

    message("Balance", [("currency", 1, F.TYPE_STRING, None, False), ("amount", 2, F.TYPE_DOUBLE, None, False)])
    message("Order", [("id", 1, F.TYPE_INT32, None, False), ("symbol", 2, F.TYPE_STRING, None, False),
                      ("side", 3, F.TYPE_INT32, None, False), ("type", 4, F.TYPE_INT32, None, False),
                      ("price", 5, F.TYPE_DOUBLE, None, False), ("volume", 6, F.TYPE_DOUBLE, None, False)])
    message("Account", [("id", 1, F.TYPE_INT32, None, False), ("name", 2, F.TYPE_STRING, None, False),
                        ("state", 3, F.TYPE_INT32, None, False),
                        ("wallet", 4, F.TYPE_MESSAGE, ".fbebench.Balance", False),
                        ("asset", 5, F.TYPE_MESSAGE, ".fbebench.Balance", False),
                        ("orders", 6, F.TYPE_MESSAGE, ".fbebench.Order", True)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("fbebench.Account"))


def protobuf_cases() -> List[Case]:
    Account = protobuf_classes()
    msg = Account(id=1, name="Test", state=6,
                  wallet={"currency": "USD", "amount": 1000.0}, asset={"currency": "EUR", "amount": 100.0},
                  orders=ACCOUNT["orders"])
    data = msg.SerializeToString()
    if Account.FromString(data) != msg:
        raise SystemExit("bench: protobuf does not round trip")
    return [Case("protobuf", "message", "encode", loop0, msg.SerializeToString, None, len(data)),
            Case("protobuf", "message", "decode", loop1, Account.FromString, data, len(data))]


def json_cases() -> List[Case]:
    encoder = json.JSONEncoder(separators=(",", ":"))
    text = encoder.encode(ACCOUNT)
    if json.loads(text) != ACCOUNT:
        raise SystemExit("bench: json does not round trip")
    return [Case("json", "dict", "encode", loop1, encoder.encode, ACCOUNT, len(text)),
            Case("json", "dict", "decode", loop1, json.loads, text, len(text))]


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
    ap.add_argument("--json", action="store_true", help="one JSON object per figure")
    ap.add_argument("--runs", type=int, default=None, help="rounds (default 7)")
    ap.add_argument("--min-time", type=float, default=None, help="seconds per run (default 0.2)")
    ap.add_argument("-I", dest="schemas", default=DEFAULT_SCHEMAS, help="the schemas directory")
    ap.add_argument("--require-peers", action="store_true", help="fail when msgpack or protobuf is missing")
    args = ap.parse_args(argv)
    runs = args.runs or (3 if args.quick else 7)
    min_time = args.min_time or (0.05 if args.quick else 0.2)
    if not 1 <= runs <= 100 or min_time <= 0:
        ap.error("--runs must be 1..100 and --min-time positive")

    cases = libfbe_cases(args.schemas)
    for name, make in (("msgpack", msgpack_cases), ("protobuf", protobuf_cases), ("json", json_cases)):
        try:
            cases += make()
        except ImportError as exc:
            if args.require_peers:
                raise SystemExit(f"bench: {name} is not installed ({exc}); pip install -r requirements.txt")
            print(f"bench: {name} not installed, skipped (pip install -r {os.path.join(HERE, 'requirements.txt')})",
                  file=sys.stderr)

    for case in cases:
        case.calibrate()
    for _ in range(runs):
        for case in cases:
            case.run_once(min_time)

    if not args.json:
        print(f"libfbe Python benchmark: proto.Account (3 orders), median of {runs} interleaved rounds "
              f"of >= {min_time:.2f} s each ({versions()})")
        print(f"{'impl':<9} {'model':<9} {'op':<7} {'bytes':>6} {'ns/op':>10} {'spread':>8} {'vs msgpack':>11}")
    peer = {c.op: c.result()[0] for c in cases if c.impl == "msgpack"}
    for case in cases:
        median, spread = case.result()
        if args.json:
            print(json.dumps({"lang": "python", "impl": case.impl, "workload": "account", "model": case.model,
                              "op": case.op, "ns": round(median, 1), "spread_pct": round(spread, 1),
                              "size": case.size}, separators=(",", ":")))
        else:
            ratio = f"{peer[case.op] / median:.2f}x" if case.op in peer else ""
            print(f"{case.impl:<9} {case.model:<9} {case.op:<7} {case.size:>6} {median:>10.1f} "
                  f"{spread:>7.1f}% {ratio:>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

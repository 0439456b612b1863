"""Memory: a million encode/decode cycles must not grow the process (RSS < 10 MB), and
no call may change the reference counts of its inputs (a leaked or stolen reference)."""
from __future__ import annotations

import enum
import gc
import io
import sys
from decimal import Decimal
from typing import Any, Callable, List

import pytest

import fbe
from fbe import _core

from conftest import readme_account


def rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096
    except OSError:  # not Linux: the peak is the best we have
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)


def test_million_cycles_rss(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    Account = proto.Account
    final_acc = acc.encode(final=True)

    def cycle(n: int) -> None:
        for _ in range(n):
            Account.decode(acc.encode())

    cycle(20000)  # warm up: allocator pools, the thread's scratch arena
    gc.collect()
    before = rss_bytes()
    cycle(1_000_000)  # the full million, standard model
    for _ in range(50000):  # plus the other paths
        Account.decode(final_acc, final=True).to_json()
        Account.from_json(acc.to_json())
        Account.verify(final_acc, final=True)
    gc.collect()
    grown = rss_bytes() - before
    assert grown < 10 * 1024 * 1024, f"RSS grew by {grown / 1e6:.1f} MB"


def test_error_paths_do_not_leak(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    acc = readme_account(proto)
    acc.orders[2].symbol = 5
    bad = b"\x10\x00\x00\x00" + b"\x00" * 4

    def errors(n: int) -> None:
        for _ in range(n):
            try:
                acc.encode()
            except fbe.TypeMismatchError:
                pass
            try:
                proto.Account.decode(bad)
            except fbe.MalformedError:
                pass
            try:
                proto.encode("Account", {"id": 1, "nope": 2})
            except fbe.UnknownFieldError:
                pass

    errors(5000)
    gc.collect()
    before = rss_bytes()
    errors(100000)
    gc.collect()
    assert rss_bytes() - before < 4 * 1024 * 1024


def refcounts(objs: List[Any]) -> List[int]:
    return [sys.getrefcount(o) for o in objs]


def owned(objs: List[Any]) -> List[Any]:
    """The objects whose counts tell: not the shared singletons (None, True, small ints,
    interned constants, enum members) that the whole interpreter keeps touching."""
    return [o for o in objs if o is not None and o is not True and o is not False
            and not isinstance(o, enum.Enum) and sys.getrefcount(o) < 10000]


def every_object(value: Any) -> List[Any]:
    """value and everything reachable from it through fields and containers."""
    out: List[Any] = []
    seen = set()

    def walk(v: Any) -> None:
        if id(v) in seen:
            return
        seen.add(id(v))
        out.append(v)
        if isinstance(v, fbe.Struct):
            for name in type(v).__fbe_fields__:
                walk(getattr(v, name))
        elif isinstance(v, (list, tuple, set, frozenset)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)

    walk(value)
    return out


def test_refcounts_unchanged(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    acc = readme_account(proto)
    data = acc.encode()
    text = acc.to_json()
    T = test_schema
    rich = T.StructSimple(id=1, f29=Decimal("1.5"), f31="héllo", f36="00112233-4455-6677-8899-aabbccddeeff")
    maps = T.StructHashEx(f1={T.StructSimple(id=2): T.StructNested()})
    plain = {"id": 1, "name": "x", "orders": [{"id": 1, "symbol": "A"}]}
    cases: List[Callable[[], Any]] = [
        lambda: acc.encode(),
        lambda: acc.encode(final=True),
        lambda: acc.to_json(),
        lambda: proto.Account.decode(data),
        lambda: proto.Account.decode(bytearray(data)),
        lambda: proto.Account.decode(memoryview(data), ordered=True),
        lambda: proto.Account.verify(data),
        lambda: proto.Account.from_json(text),
        lambda: proto.encode("Account", plain),
        lambda: _core.equal(proto.Account, acc, acc),
        lambda: rich.encode(),
        lambda: maps.encode(),
        lambda: T.StructHashEx.decode(maps.encode(), ordered=True),
    ]
    watched = owned(every_object(acc) + every_object(rich) + every_object(maps) + every_object(plain) +
                    [data, text, proto.Account, T.StructSimple])
    assert len(watched) > 50
    for case in cases:
        case()  # caches (utf-8 of str objects, composites of flags) fill on first use
    for case in cases:
        before = refcounts(watched)
        for _ in range(100):
            case()
        assert refcounts(watched) == before, case


def test_refcounts_on_errors(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    acc.orders[1].price = "wrong"
    plain = {"id": 1, "nope": object()}
    junk = b"\xff" * 40
    watched = owned(every_object(acc) + every_object(plain) + [junk])
    before = refcounts(watched)
    for _ in range(100):
        with pytest.raises(fbe.Error):
            acc.encode()
        with pytest.raises(fbe.Error):
            proto.encode("Account", plain)
        with pytest.raises(fbe.Error):
            proto.Account.decode(junk)
    assert refcounts(watched) == before


def test_protocol_refcounts(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    msg = proto.AccountMessage(body=acc)
    sink = io.BytesIO()
    sender = proto.sender(sink)
    watched = owned(every_object(msg))
    sender.send(msg)
    before = refcounts(watched)
    for _ in range(100):
        sender.send(msg)
    assert refcounts(watched) == before
    stream = sink.getvalue()
    r = proto.receiver()
    r.feed(stream)
    before_stream = sys.getrefcount(stream)
    for _ in range(10):
        assert len(r.feed(stream) or []) == 101
    assert sys.getrefcount(stream) == before_stream


def test_schema_unload(tmp_path: Any) -> None:
    """A dropped schema frees its classes, enums and C tables (the GC breaks the cycles
    between classes and their tables)."""
    import weakref

    from conftest import SCHEMAS

    def load_and_use() -> Any:
        s = fbe.load_package("test", include=[SCHEMAS])
        value = s.StructNested()
        s.StructNested.decode(value.encode())
        return weakref.ref(s.StructNested), weakref.ref(s.EnumSimple)

    refs = [load_and_use() for _ in range(700)]  # also warms up the allocator
    gc.collect()
    assert all(r() is None for pair in refs for r in pair)
    before = rss_bytes()
    for _ in range(2500):
        load_and_use()
    gc.collect()
    grown = rss_bytes() - before
    # a leak of one small block per enum and load would grow it by about 3 MB
    assert grown < 1.5 * 1024 * 1024, f"RSS grew by {grown / 1e6:.1f} MB over 2500 loads"

"""Memory, counted exactly (no resident-size guesses, which move with the allocator,
the kernel and the machine's load):

- the bytes the C core holds (fbe._core.memory_in_use(), an exact count kept by the
  core) must come back to exactly where they were after a million encode/decode cycles,
  after error paths and after thousands of schemas loaded and dropped;
- the interpreter's own count of allocated blocks (sys.getallocatedblocks(), after a
  full collection) must not grow with the number of cycles: a leak of one object per
  cycle would add a million, so a bound of 1000 has a thousandfold margin while the
  few blocks the interpreter's caches may still be filling stay far below it;
- no call may change the reference counts of its inputs (a leaked or stolen reference).
"""
from __future__ import annotations

import enum
import gc
import io
import sys
from decimal import Decimal
from typing import Any, Callable, List, Tuple

import pytest

import fbe
from fbe import _core

from conftest import readme_account

# Blocks the interpreter may allocate for itself over a run (caches, free lists): far
# below the number of cycles, so a leak of one object per cycle cannot hide under it.
BLOCK_SLACK = 1000


def settled() -> Tuple[int, int]:
    """(bytes the core holds, blocks the interpreter holds) after a full collection."""
    gc.collect()
    return _core.memory_in_use(), sys.getallocatedblocks()


def assert_no_growth(before: Tuple[int, int], after: Tuple[int, int], what: str) -> None:
    assert after[0] == before[0], f"{what}: the core holds {after[0] - before[0]:+} bytes"
    assert after[1] - before[1] < BLOCK_SLACK, f"{what}: {after[1] - before[1]:+} interpreter blocks"


def test_memory_in_use_counts_the_core() -> None:
    from conftest import SCHEMAS

    base = settled()[0]
    s = fbe.load_package("proto", include=[SCHEMAS])
    assert _core.memory_in_use() > base  # the schema and its tables are counted
    del s
    assert settled()[0] == base


def test_million_cycles_do_not_leak(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    Account = proto.Account
    final_acc = acc.encode(final=True)

    def cycle(n: int, others: int) -> None:
        for _ in range(n):
            Account.decode(acc.encode())
        for _ in range(others):  # plus the other paths
            Account.decode(final_acc, final=True).to_json()
            Account.from_json(acc.to_json())
            Account.verify(final_acc, final=True)

    cycle(20000, 1000)  # warm up: the thread's scratch arena and buffer reach their size
    before = settled()
    cycle(1_000_000, 50000)  # the full million, standard model
    assert_no_growth(before, settled(), "1e6 cycles")


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
            try:  # the core's words for a Python class ("a complex") and an enum's name
                proto.Order(id=1j, side="sideways").encode()
            except fbe.TypeMismatchError:
                pass
            try:
                proto.Order.from_dict({"side": "sideways"})
            except fbe.ArgumentError:
                pass
            try:
                hash(proto.Order(id="x"))
            except fbe.TypeMismatchError:
                pass
            assert repr(acc).startswith("Account(<invalid:")

    errors(5000)
    before = settled()
    errors(100000)
    assert_no_growth(before, settled(), "1e5 rounds of seven errors")


def test_new_operations_do_not_leak(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    """repr, ==, hash, <, asdict, from_dict and enum text: every reference dropped."""
    import datetime

    acc = readme_account(proto)
    other = readme_account(proto)
    T = test_schema
    hx = T.StructHashEx(f1={T.StructSimple(id=1): T.StructNested()}, f2={T.StructSimple(id=2): None})
    when = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)

    def run(n: int) -> None:
        for _ in range(n):
            assert repr(acc) == str(other) and acc == other and hash(acc) == hash(other) and not acc < other
            assert proto.Account.from_dict(fbe.asdict(acc)) == acc and acc.to_dict()["id"] == 1
            assert str(acc.state) == "initialized|calculated|good" and repr(acc.orders[1].side)
            assert T.StructHashEx.decode(hx.encode()) == hx
            assert T.StructSimple(f33=when, f29="1.5", f39="sell").encode()

    run(2000)
    before = settled()
    run(20000)
    assert_no_growth(before, settled(), "2e4 rounds of the issue 20 operations")


def refcounts(objs: List[Any]) -> List[int]:
    return [sys.getrefcount(o) for o in objs]


def interned(s: str) -> bool:
    """True when s is the interpreter's interned copy of its text. Interned strings
    (field names, identifier-like literals) are shared by the whole interpreter:
    CPython's type attribute cache, for one, holds references to attribute names and
    drops them when another lookup takes the slot, so their counts move with anything
    the interpreter does (this made the test fail now and then)."""
    return sys.intern("".join(list(s))) is s


def owned(objs: List[Any]) -> List[Any]:
    """The objects whose counts tell: not the shared singletons (None, True, small ints,
    interned strings, enum members) that the whole interpreter keeps touching."""
    return [o for o in objs if o is not None and o is not True and o is not False
            and not isinstance(o, enum.Enum) and not (isinstance(o, str) and interned(o))
            and sys.getrefcount(o) < 10000]


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


def test_schema_unload() -> None:
    """A dropped schema frees its classes, enums and C tables (the GC breaks the cycles
    between classes and their tables): the core's count comes back exactly."""
    import weakref

    from conftest import SCHEMAS

    def load_and_use() -> Any:
        s = fbe.load_package("test", include=[SCHEMAS])
        value = s.StructNested()
        s.StructNested.decode(value.encode())
        return weakref.ref(s.StructNested), weakref.ref(s.EnumSimple)

    refs = [load_and_use() for _ in range(200)]  # also warms up the interpreter's caches
    before = settled()
    assert all(r() is None for pair in refs for r in pair)
    for _ in range(2500):
        load_and_use()
    # one leaked class per load would be 2500 objects (each many blocks); an enum table
    # or a C table left behind would show in the core's count
    assert_no_growth(before, settled(), "2500 schemas loaded and dropped")

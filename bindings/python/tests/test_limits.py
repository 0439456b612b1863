"""fbe.Limits: the core's limits against hostile input (codec.h fbe_limits) reach decode
(verified and trusted), verify/validate, from_json and the Receiver. The core decides
everything: the names, ranges and error texts of a limit (fbe_limits_set) and the
errors of crossing one, raised as fbe.LimitError with the core's text, path and offset."""
from __future__ import annotations

import struct
from typing import Any, Callable, List

import pytest

import fbe

from conftest import readme_account

MiB = 1 << 20

CHAIN = """package chain
struct Chain { int32 v; Chain? next; }
message Deep { Chain c; }
struct E {}
message Many { E[] items; }
"""


@pytest.fixture(scope="module")
def chain() -> fbe.Schema:
    return fbe.loads(CHAIN, name="chain.fbe")


def default_budget(size: int) -> int:
    """The memory budget of max_memory=0 (codec.h): 16 x the input + 1 MiB."""
    return 16 * size + MiB


def shared_orders(n: int) -> bytes:
    """proto.Account, standard model, whose orders are n pointers to ONE Order body
    (tests/test_budget.c shared_orders): 4 bytes of input per Order decoded."""
    acct, wallet = 8, 38
    block = wallet + 20
    order = block + 4 + 4 * n
    b = bytearray(struct.pack("<II", 0, acct))
    b += struct.pack("<IIIIB", 30, 3, 1, 0, 0) + struct.pack("<I", wallet - acct) + bytes(5)
    b += struct.pack("<I", block - acct)
    b += struct.pack("<III", 20, 2, 0) + bytes(8)
    b += struct.pack("<I", n) + struct.pack("<I", order - acct) * n
    b += struct.pack("<IIII", 34, 1, 7, 0) + bytes(18)
    struct.pack_into("<I", b, 0, len(b))
    return bytes(b)


def many_frame(chain: fbe.Schema, count: int) -> bytes:
    """A final-model frame of chain.Many with `count` empty structs (no byte each)."""
    return struct.pack("<III", 12, chain.Many.__fbe_type_id__, count)


def limit_error(call: Callable[[], Any]) -> fbe.Error:
    with pytest.raises(fbe.LimitError) as info:
        call()
    return info.value


def smallest_budget(fits: Callable[[fbe.Limits], bool], high: int) -> int:
    """The smallest max_memory with which fits(limits) holds (it holds at high)."""
    low = 1
    while low < high:
        mid = (low + high) // 2
        if fits(fbe.Limits(max_memory=mid)):
            high = mid
        else:
            low = mid + 1
    return low


# ---- the value ------------------------------------------------------------------

def test_defaults_and_members() -> None:
    d = fbe.Limits()
    assert (d.max_depth, d.max_model_size, d.max_memory) == (0, 0, 0)
    assert repr(d) == "fbe.Limits(max_depth=0, max_model_size=0, max_memory=0)"
    l = fbe.Limits(max_depth=64, max_model_size=1 << 31, max_memory=1 << 40)
    assert (l.max_depth, l.max_model_size, l.max_memory) == (64, 1 << 31, 1 << 40)
    assert repr(l) == f"fbe.Limits(max_depth=64, max_model_size={1 << 31}, max_memory={1 << 40})"
    assert l == fbe.Limits(max_memory=1 << 40, max_depth=64, max_model_size=1 << 31)
    assert l != d and hash(l) == hash(fbe.Limits(max_depth=64, max_model_size=1 << 31, max_memory=1 << 40))
    assert fbe.Limits(max_depth=0) == d  # 0 is the default
    assert fbe.Limits(maxDepth=5) == fbe.Limits(max_depth=5)  # the core takes both spellings
    with pytest.raises(AttributeError):
        l.max_depth = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        type("Mine", (fbe.Limits,), {})  # immutable, not a base class


def test_out_of_range_refused_by_the_core() -> None:
    cases = [
        (dict(max_depth=257), fbe.RangeError, "max_depth must be 0 (the default) or 1..256, not 257"),
        (dict(max_depth=-1), fbe.RangeError, "max_depth must be 0 (the default) or 1..256, not -1"),
        (dict(max_model_size=1 << 32), fbe.RangeError,
         "max_model_size must be 0 (the default) or 1..4294967295, not 4294967296"),
        (dict(max_memory=-5), fbe.RangeError, "max_memory must be 0 (the default) or a byte count, not -5"),
        (dict(max_size=1), fbe.ArgumentError,
         "unknown limit 'max_size' (max_depth, max_model_size, max_memory)"),
        # ints beyond int64 are clamped before the core sees them
        (dict(max_depth=1 << 70), fbe.RangeError,
         "max_depth must be 0 (the default) or 1..256, not 9223372036854775807"),
        (dict(max_memory=-(1 << 70)), fbe.RangeError,
         "max_memory must be 0 (the default) or a byte count, not -9223372036854775808"),
    ]
    for kwargs, cls, text in cases:
        with pytest.raises(cls) as info:
            fbe.Limits(**kwargs)
        assert info.value.message == text and info.value.path == "" and info.value.offset is None, kwargs
    assert fbe.Limits(max_memory=1 << 70).max_memory == (1 << 63) - 1  # "very large"


def test_host_type_errors(chain: fbe.Schema) -> None:
    for bad in (1.0, "5", None, True, b"1"):
        with pytest.raises(TypeError, match="max_depth must be an int"):
            fbe.Limits(max_depth=bad)
    with pytest.raises(TypeError, match="keyword arguments only"):
        fbe.Limits(5)  # type: ignore[misc]
    with pytest.raises(TypeError, match="limits must be an fbe.Limits or None, not dict"):
        chain.Deep.decode(b"", limits={"max_depth": 1})  # type: ignore[arg-type]


# ---- each limit, lowered, refuses with the core's text -----------------------------

def test_max_depth(chain: fbe.Schema) -> None:
    value = chain.Deep(c=chain.Chain(v=1, next=chain.Chain(v=2, next=chain.Chain(v=3))))
    data, text = value.encode(), value.to_json()
    shallow, two = fbe.Limits(max_depth=1), fbe.Limits(max_depth=2)
    want = "nesting deeper than 1 levels (max_depth)"
    for call in (lambda: chain.Deep.decode(data, limits=shallow),
                 lambda: chain.Deep.decode(data, trusted=True, limits=shallow),
                 lambda: chain.Deep.validate(data, limits=shallow),
                 lambda: chain.decode("Deep", data, limits=shallow),
                 lambda: chain.validate("Deep", data, limits=shallow),
                 lambda: chain.Deep.from_json(text, limits=shallow),
                 lambda: chain.from_json("Deep", text, limits=shallow)):
        assert limit_error(call).message == want
    assert not chain.Deep.verify(data, limits=shallow) and not chain.verify("Deep", data, limits=shallow)
    assert chain.Deep.decode(data, limits=two) == value and chain.Deep.from_json(text, limits=two) == value
    assert chain.Deep.verify(data, limits=two)
    out = bytearray()
    fbe.Sender(chain, out.extend).send(value)
    e = limit_error(lambda: chain.receiver(limits=shallow).feed(bytes(out)))
    assert e.message == want and e.received == []  # type: ignore[attr-defined]
    assert fbe.Receiver(chain, limits=two).feed(bytes(out)) == [value]


def test_max_model_size(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    for final in (False, True):
        data = acc.encode(final=final)
        size = proto.Account.validate(data, final=final)
        small, exact = fbe.Limits(max_model_size=size - 1), fbe.Limits(max_model_size=size)
        want = f"model size {size} exceeds the limit of {size - 1} bytes (max_model_size)"
        for call in (lambda: proto.Account.decode(data, final, limits=small),
                     lambda: proto.Account.decode(data, final, trusted=True, limits=small),
                     lambda: proto.Account.validate(data, final, limits=small)):
            assert limit_error(call).message == want
        assert not proto.Account.verify(data, final, limits=small)
        assert proto.Account.decode(data, final, limits=exact) == acc
    text = acc.to_json()
    e = limit_error(lambda: proto.Account.from_json(text, limits=fbe.Limits(max_model_size=len(text) - 1)))
    assert e.message == f"JSON text of {len(text)} bytes exceeds the limit of {len(text) - 1} bytes (max_model_size)"
    assert proto.Account.from_json(text, limits=fbe.Limits(max_model_size=len(text))) == acc
    out = bytearray()
    fbe.Sender(proto, out.extend).send(proto.AccountMessage(body=acc))
    e = limit_error(lambda: fbe.Receiver(proto, limits=fbe.Limits(max_model_size=len(out) - 1)).feed(bytes(out)))
    assert e.message == f"frame size {len(out)} exceeds the limit of {len(out) - 1} bytes (max_model_size)"
    assert e.offset == 0


def test_max_memory_one_charge(proto: fbe.Schema) -> None:
    """verify, decode (both) and the receiver agree to the byte on what a value costs:
    the smallest budget verify takes is the one decode takes; one byte less refuses,
    naming itself (and verify's refusal is decode's, path and offset included)."""
    data = shared_orders(1000)
    need = smallest_budget(lambda l: proto.Account.verify(data, limits=l), 1 << 30)
    assert need > 1000 * 8  # every order is charged as often as it is pointed to
    enough, short = fbe.Limits(max_memory=need), fbe.Limits(max_memory=need - 1)
    assert len(proto.Account.decode(data, limits=enough).orders) == 1000
    assert len(proto.Account.decode(data, trusted=True, limits=enough).orders) == 1000
    want = f"decoding needs more than the memory budget of {need - 1} bytes (max_memory)"
    errors: List[fbe.Error] = [limit_error(lambda: proto.Account.decode(data, limits=short)),
                               limit_error(lambda: proto.Account.validate(data, limits=short)),
                               limit_error(lambda: proto.decode("Account", data, limits=short)),
                               limit_error(lambda: proto.Account.decode(data, trusted=True, limits=short))]
    for e in errors:
        assert (e.message, e.path, e.offset) == (want, errors[0].path, errors[0].offset)
    assert errors[0].path == "orders" and errors[0].offset is not None


def test_max_memory_json(proto: fbe.Schema) -> None:
    text = '{"orders":[' + ",".join(["{}"] * 1000) + "]}"
    assert len(proto.Account.from_json(text).orders) == 1000
    need = smallest_budget(lambda l: _json_fits(proto, text, l), 1 << 30)
    e = limit_error(lambda: proto.Account.from_json(text, limits=fbe.Limits(max_memory=need - 1)))
    assert e.message == f"reading JSON needs more than the memory budget of {need - 1} bytes (max_memory)"
    assert e.path == "orders"
    assert len(proto.from_json("Account", text.encode(), limits=fbe.Limits(max_memory=need)).orders) == 1000


def _json_fits(proto: fbe.Schema, text: str, limits: fbe.Limits) -> bool:
    try:
        proto.Account.from_json(text, limits=limits)
        return True
    except fbe.LimitError:
        return False


def test_max_memory_receiver(chain: fbe.Schema) -> None:
    frame = many_frame(chain, 1000)
    got = fbe.Receiver(chain, final=True).feed(frame)
    assert got is not None and len(got[0].items) == 1000
    tight = chain.receiver(final=True, limits=fbe.Limits(max_memory=4096))
    e = limit_error(lambda: tight.feed(frame))
    assert e.message == "decoding needs more than the memory budget of 4096 bytes (max_memory)"
    assert e.received == [] and tight.received == 0  # type: ignore[attr-defined]
    assert tight.feed(many_frame(chain, 10)) is not None and tight.received == 1  # it goes on


# ---- hostile input under the default limits ----------------------------------------

def test_hostile_shared_bodies_refused_by_default(proto: fbe.Schema) -> None:
    """10^6 pointers to one Order (4 MB): 10^6 Orders to build, over the default budget
    of 16 x the input + 1 MiB; refused at once with LimitError naming max_memory."""
    data = shared_orders(1000000)
    want = f"decoding needs more than the memory budget of {default_budget(len(data))} bytes (max_memory)"
    for call in (lambda: proto.Account.decode(data), lambda: proto.Account.validate(data),
                 lambda: proto.Account.decode(data, trusted=True)):
        e = limit_error(call)
        assert (e.message, e.path) == (want, "orders")
    assert not proto.Account.verify(data)
    # 10^5 of them (0.4 MB) are over the default budget as well, and decode with a raised one
    small = shared_orders(100000)
    assert limit_error(lambda: proto.Account.decode(small)).message.endswith("(max_memory)")
    acc = proto.Account.decode(small, limits=fbe.Limits(max_memory=1 << 30))
    assert len(acc.orders) == 100000 and acc.orders[-1].id == 7


def test_hostile_empty_structs_refused_by_default(chain: fbe.Schema) -> None:
    """12 bytes of the final model claiming 2 x 10^6 empty structs (no byte each):
    over the default budget, as a frame and as a model; 2 x 10^5 of them decode with a
    raised budget."""
    want = f"decoding needs more than the memory budget of {default_budget(12)} bytes (max_memory)"
    data = many_frame(chain, 2000000)  # a final-model frame is a final model
    r = fbe.Receiver(chain, final=True)
    e = limit_error(lambda: r.feed(data))
    assert (e.message, e.path, r.received) == (want, "items", 0)
    for call in (lambda: chain.Many.decode(data, final=True), lambda: chain.Many.validate(data, final=True)):
        assert (limit_error(call).message, limit_error(call).path) == (want, "items")
    data = many_frame(chain, 200000)
    assert limit_error(lambda: chain.Many.decode(data, final=True)).message.endswith("(max_memory)")
    assert len(chain.Many.decode(data, final=True, limits=fbe.Limits(max_memory=1 << 30)).items) == 200000

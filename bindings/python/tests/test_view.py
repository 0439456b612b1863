"""fbe.View: a struct read in place from verified bytes (README "Views").

Every conformance decode vector through a view gives decode's JSON, text, equality
and value, and every field read through the view is the decoded value's field; bytes
decode refuses, view refuses with the same error; the view holds its buffer; a
bytearray changed under a view is read without a crash (every access an fbe.Error or
a value)."""
from __future__ import annotations

import collections.abc
import gc
import math
import random
import struct
from typing import Any, Dict, List

import pytest

import fbe

from conftest import SCHEMAS, readme_account, records

VECTORS = [r for r in records("vectors.jsonl") if r["format"] in ("standard", "final")]
MALFORMED = [r for r in records("malformed.jsonl") if r.get("format", "standard") in ("standard", "final")]
VALUE_RULES = [r for r in records("malformed-extra.jsonl") if r.get("format", "standard") in ("standard", "final")]

_schemas: Dict[str, fbe.Schema] = {}


def schema(package: str) -> fbe.Schema:
    if package not in _schemas:
        _schemas[package] = fbe.load_package(package, include=[SCHEMAS])
    return _schemas[package]


def same(seen: Any, value: Any, path: str) -> None:
    """What a view read (seen) is the decoded value (value), deep, floats by bit pattern."""
    if isinstance(seen, fbe.View):
        assert seen.__fbe_type__ is type(value), path
        assert seen == value and value == seen, path
        for name in type(value).__fbe_fields__:
            same(seen[name], value[name], f"{path}.{name}")
    elif isinstance(seen, fbe.ViewList):
        assert isinstance(value, list), path
        assert len(seen) == len(value), path
        for i, item in enumerate(value):
            same(seen[i], item, f"{path}[{i}]")
        for i, item in enumerate(seen):  # iteration gives the same elements as indexing
            same(item, value[i], f"{path}[{i}] (iterated)")
        assert seen == value, path
    elif isinstance(value, float):
        assert type(seen) is float and struct.pack("<d", seen) == struct.pack("<d", value), path
    else:
        assert type(seen) is type(value) and seen == value, path


def model_of(rec: Dict[str, Any]) -> str:
    return str(rec["format"])


@pytest.mark.parametrize("rec", VECTORS, ids=[r["id"] for r in VECTORS])
def test_vector_through_view(rec: Dict[str, Any]) -> None:
    s = schema(rec["schema"])
    cls = s[f"{rec['schema']}.{rec['type']}"]
    data = bytes.fromhex(rec["hex"])
    final = rec["format"] == "final"
    value = s.decode(cls, data, final=final, ordered=True)
    view = s.view(cls, data, model_of(rec), ordered=True)
    assert view.to_json() == s.to_json(cls, value)
    assert view.to_json(pretty=True) == s.to_json(cls, value, pretty=True)
    assert str(view) == str(value) and repr(view) == repr(value)
    assert view == value and not view != value
    assert view == s.view(cls, bytearray(data), model_of(rec), ordered=True)
    back = view.to_value()
    assert type(back) is cls and back == value and back.to_json() == value.to_json()
    same(view, value, rec["type"])


@pytest.mark.parametrize("rec", MALFORMED + VALUE_RULES, ids=[r["id"] for r in MALFORMED + VALUE_RULES])
def test_bad_bytes_raise_what_decode_raises(rec: Dict[str, Any]) -> None:
    s = schema(rec["schema"])
    cls = s[f"{rec['schema']}.{rec['type']}"]
    data = bytes.fromhex(rec["hex"])
    final = rec.get("format", "standard") == "final"
    with pytest.raises(fbe.Error) as decoded:
        s.decode(cls, data, final=final)
    with pytest.raises(fbe.Error) as viewed:
        s.view(cls, data, "final" if final else "standard")
    assert type(viewed.value) is type(decoded.value)
    assert str(viewed.value) == str(decoded.value)
    assert (viewed.value.path, viewed.value.offset) == (decoded.value.path, decoded.value.offset)


# ---- access --------------------------------------------------------------------

@pytest.mark.parametrize("model", ["standard", "final"])
def test_account_fields(proto: fbe.Schema, model: str) -> None:
    acc = readme_account(proto)
    v = proto.Account.view(acc.encode(final=model == "final"), model)
    assert (v.id, v.name, v.state) == (1, "Test", proto.State.good)
    assert type(v.state) is proto.State
    assert isinstance(v.wallet, fbe.View) and v.wallet.currency == "USD" and v.wallet.amount == 1000.0
    assert v.asset is not None and v.asset.currency == "EUR"
    assert isinstance(v.orders, fbe.ViewList) and isinstance(v.orders, collections.abc.Sequence) and len(v.orders) == 3
    assert v.orders[1].price == 1.0 and v.orders[-1].type is proto.OrderType.stop
    assert v.orders[1] == acc.orders[1] and v.orders[1].to_value() == acc.orders[1]
    assert [o.id for o in v.orders] == [1, 2, 3]
    assert [o.id for o in v.orders[::-2]] == [3, 1]
    assert acc.orders[2] in v.orders and v.orders == acc.orders and v.orders != acc.orders[:2]
    assert v.orders.to_list() == acc.orders
    with pytest.raises(IndexError):
        v.orders[3]
    with pytest.raises(IndexError):
        v.orders[-4]
    assert v["name"] == "Test" and v.__fbe_type__ is proto.Account
    assert {"id", "name", "orders", "to_value", "to_json"} <= set(dir(v))


def test_optional_null_and_defaults(proto: fbe.Schema) -> None:
    v = proto.Account.view(proto.Account(id=5).encode())
    assert v.asset is None and v.name == "" and len(v.orders) == 0 and list(v.orders) == []
    assert v.wallet.currency == "" and v.state == proto.State.initialized | proto.State.bad
    assert v == proto.Account(id=5)


def test_nested_optionals_and_collections(test_schema: fbe.Schema) -> None:
    s = test_schema
    value = s.StructNested(f100=True, f145="opt", f1009=s.StructSimple(f1=True), f1011=None)
    v = s.StructNested.view(value.encode())
    assert v.f100 is True and v.f145 == "opt" and v.f102 is None
    assert isinstance(v.f1009, fbe.View) and v.f1009.f1 is True and v.f1011 is None
    assert isinstance(v.f1010, fbe.View) and v.f1010 == value.f1010
    vec = s.StructVector(f1=[1, 2], f2=[None, 3], f3=[b"a", b""], f9=[s.StructSimple(f2=True)])
    w = s.StructVector.view(vec.encode(final=True), "final")
    assert list(w.f1) == [1, 2] and list(w.f2) == [None, 3] and list(w.f3) == [b"a", b""]
    assert isinstance(w.f9[0], fbe.View) and w.f9[0].f2 is True and w.f9 == vec.f9
    m = s.StructMap(f1={1: 2, 3: 4}, f3={7: b"x"})
    mv = s.StructMap.view(m.encode())
    assert mv.f1 == {1: 2, 3: 4} and mv.f3 == {7: b"x"} and type(mv.f1) is dict
    assert s.StructMap.view(m.encode(), ordered=True).f1 == [(1, 2), (3, 4)]
    st = s.StructSet(f1={3, 1, 2})
    assert s.StructSet.view(st.encode()).f1 == {1, 2, 3}


def test_arguments(proto: fbe.Schema) -> None:
    data = readme_account(proto).encode()
    with pytest.raises(fbe.ArgumentError, match="model must be"):
        proto.Account.view(data, "finale")
    with pytest.raises(fbe.ArgumentError):
        proto.Account.view(data, model=1)
    with pytest.raises(fbe.TypeMismatchError):
        proto.Account.view("text")
    with pytest.raises(TypeError):
        proto.Account.view(data, "standard", True)  # ordered and limits are keywords
    with pytest.raises(fbe.LimitError):
        proto.Account.view(data, limits=fbe.Limits(max_model_size=16))
    assert proto.Account.view(memoryview(data)) == proto.Account.view(data)
    assert proto.view("Account", data).id == 1


def test_read_only_and_unhashable(proto: fbe.Schema) -> None:
    v = proto.Account.view(readme_account(proto).encode())
    with pytest.raises(AttributeError, match="read-only"):
        v.id = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(v)
    with pytest.raises(TypeError):
        hash(v.orders)
    with pytest.raises(fbe.UnknownFieldError):
        v["nmae"]
    with pytest.raises(AttributeError):
        v.nmae
    with pytest.raises(TypeError):
        v < v  # type: ignore[operator]


def test_not_equal_to_other_things(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    v = proto.Account.view(acc.encode())
    assert v != acc.orders[0] and v != "Account" and v != proto.Balance.view(acc.wallet.encode())
    other = acc.to_dict()
    other["id"] = 2
    assert v != proto.Account.from_dict(other)
    assert v == fbe.load(SCHEMAS / "proto.fbe", include=[SCHEMAS]).Account.view(acc.encode())  # another load


# ---- lifetime and changed bytes ------------------------------------------------

def test_view_keeps_its_buffer(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    data = bytearray(acc.encode())
    v = proto.Account.view(data)
    orders, wallet = v.orders, v.wallet
    with pytest.raises(BufferError):  # exported to the view: no resize
        data.extend(b"x")
    del data, v
    gc.collect()
    assert wallet.currency == "USD" and orders[2].volume == 10.0
    v = proto.Account.view(bytes(acc.encode()))
    del orders, wallet
    gc.collect()
    assert v == acc


def test_buffer_released_with_the_last_view(proto: fbe.Schema) -> None:
    data = bytearray(readme_account(proto).encode())
    v = proto.Account.view(data)
    w = v.wallet
    del v
    with pytest.raises(BufferError):
        data.extend(b"x")
    del w
    gc.collect()
    data.extend(b"x")  # no view holds it any more


def read_all(obj: Any, depth: int = 0) -> None:
    """Every read a user can make of a view; each gives a value or raises fbe.Error."""
    for op in (str, lambda o: o.to_json(), lambda o: o.to_value(), lambda o: o == o):
        try:
            op(obj)
        except fbe.Error:
            pass
    for name in obj.__fbe_type__.__fbe_fields__:
        try:
            x = obj[name]
        except fbe.Error:
            continue
        if isinstance(x, fbe.View) and depth < 4:
            read_all(x, depth + 1)
        elif isinstance(x, fbe.ViewList):
            try:
                for item in x:
                    if isinstance(item, fbe.View) and depth < 4:
                        read_all(item, depth + 1)
                len(x), x[-1] if len(x) else None, repr(x)
            except fbe.Error:
                pass


@pytest.mark.parametrize("model", ["standard", "final"])
def test_changed_bytearray_never_crashes(proto: fbe.Schema, test_schema: fbe.Schema, model: str) -> None:
    rnd = random.Random(21)
    values: List[Any] = [readme_account(proto),
                         test_schema.StructVector(f1=[1, 2], f3=[b"ab"], f9=[test_schema.StructSimple()]),
                         test_schema.StructNested(f1009=test_schema.StructSimple(), f145="x")]
    for value in values:
        cls = type(value)
        original = value.encode(final=model == "final")
        for trial in range(150):
            data = bytearray(original)
            v = cls.view(data, model)
            for _ in range(rnd.randint(1, 8)):  # after the open: the bytes are no longer verified
                data[rnd.randrange(len(data))] = rnd.choice([0, 0xFF, 0x7F, 0x80, rnd.randrange(256)])
            if trial % 10 == 0:
                data[:] = bytes([0xFF]) * len(data)
            read_all(v)


def test_changed_bytes_raise_what_decode_says_of_them(proto: fbe.Schema) -> None:
    # the core's fbe_view_fault: an access that finds no value raises verify's error on the
    # bytes as they are now, as decode of them would
    Account = proto.Account
    data = bytearray(readme_account(proto).encode(final=True))
    v = Account.view(data, "final")
    data[12:16] = b"\xff\xff\xff\xff"  # the final model: header 8, id 4, then the name's size
    with pytest.raises(fbe.Error) as viewed:
        v.name
    with pytest.raises(fbe.Error) as decoded:
        Account.decode(bytes(data), final=True)
    assert type(viewed.value) is type(decoded.value) and str(viewed.value) == str(decoded.value)


def test_float_nan_payload_kept(test_schema: fbe.Schema) -> None:
    s = test_schema
    value = s.StructSimple(f25=struct.unpack("<f", b"\x01\x00\x80\x7f")[0], f27=math.inf)
    data = value.encode()
    v, back = s.StructSimple.view(data), s.StructSimple.decode(data)
    assert struct.pack("<d", v.f25) == struct.pack("<d", back.f25) and v.f27 == math.inf
    assert v == back


# ---- the testee's "view": true (docs/TESTEE.md) --------------------------------

def test_testee_answers_from_a_view() -> None:
    from fbe.testee import Testee

    testee = Testee()
    assert testee.handle({"op": "load", "include": [str(SCHEMAS)]}) == {"ok": True}
    for rec in VECTORS:
        for op in ("decode", "text"):
            request = {"op": op, "package": rec["schema"], "type": rec["type"], "model": rec["format"],
                       "hex": rec["hex"]}
            assert testee.handle({**request, "view": True}) == testee.handle(request), (rec["id"], op)
    bad = MALFORMED[0]
    request = {"op": "decode", "package": bad["schema"], "type": bad["type"], "hex": bad["hex"],
               "model": bad.get("format", "standard")}
    with pytest.raises(fbe.Error) as viewed:
        testee.handle({**request, "view": True})
    with pytest.raises(fbe.Error) as decoded:
        testee.handle(request)
    assert str(viewed.value) == str(decoded.value)

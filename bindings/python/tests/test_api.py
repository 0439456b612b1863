"""The public API: loading, classes, construction with defaults, the type mapping,
equality, repr, pickling, JSON, plain dicts, Sender/Receiver, threads."""
from __future__ import annotations

import copy
import io
import pickle
import subprocess
import sys
import threading
import time
import uuid
from decimal import Decimal
from typing import Any, List

import pytest

import fbe
from fbe import _core

from conftest import SCHEMAS, readme_account

README_HEX = None


def test_load_forms(proto: fbe.Schema) -> None:
    assert proto.name == "proto" and proto.packages == ("proto",)
    text = (SCHEMAS / "proto.fbe").read_text()
    s2 = fbe.loads(text, name="proto.fbe")
    s3 = fbe.load_package("proto", include=str(SCHEMAS))
    for s in (proto, s2, s3):
        assert s.Account is s["Account"] is s["proto.Account"] is s.proto.Account
        assert readme_account(s).encode() == readme_account(proto).encode()
    assert "proto.Account" in proto and "Account" in proto and "Nope" not in proto
    assert set(proto) == set(proto.types())
    assert "proto.State" in proto.types() and len(proto) == len(proto.types())
    assert "Account" in dir(proto) and "proto" in repr(proto)


def test_load_finds_the_file_on_the_include_path(proto: fbe.Schema, monkeypatch: Any) -> None:
    # the README's first example, from the repository's root: the core looks a relative
    # path that does not exist as given up on the include directories
    monkeypatch.chdir(SCHEMAS.parent)
    schema = fbe.load("proto.fbe", include=["schemas"])
    assert schema.name == "proto"
    assert readme_account(schema).encode() == readme_account(proto).encode()
    assert fbe.load("protoex.fbe", include=["tests", "schemas"]).packages == ("proto", "protoex")
    with pytest.raises(fbe.SchemaError) as info:
        fbe.load("nope.fbe", include=["tests", "schemas"])
    assert "no such file as given or in the include directories tests, schemas" in str(info.value)


def test_imports_and_inheritance(protoex: fbe.Schema) -> None:
    assert protoex.packages == ("proto", "protoex")
    assert protoex.Balance is protoex["protoex.Balance"]
    assert protoex.proto.Balance is protoex["proto.Balance"]
    assert issubclass(protoex.Balance, protoex.proto.Balance)
    b = protoex.Balance(currency="USD", amount=1.5, locked=0.5)
    assert b.__fbe_fields__ == ("currency", "amount", "locked")
    assert isinstance(b, protoex.proto.Balance) and isinstance(b, fbe.Struct)
    assert protoex.Balance.decode(b.encode()).locked == 0.5


def test_class_metadata(proto: fbe.Schema) -> None:
    A = proto.Account
    assert A.__name__ == "Account" and A.__qualname__ == "Account"
    assert A.__fbe_name__ == "proto.Account" and A.__fbe_type_id__ == 3
    assert A.__fbe_fields__ == ("id", "name", "state", "wallet", "asset", "orders")
    assert A.__fbe_keys__ == ("id",)
    assert not A.__fbe_message__ and proto.AccountMessage.__fbe_message__
    assert isinstance(A, type) and issubclass(A, fbe.Struct)
    a = A()
    with pytest.raises(AttributeError):
        a.no_such_field = 1  # __slots__: no other attributes


def test_defaults(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    a = proto.Account()
    assert a.id == 0 and a.name == "" and a.asset is None and a.orders == []
    assert a.state == proto.State.initialized | proto.State.bad
    assert a.wallet == proto.Balance() and a.wallet.currency == ""
    assert proto.Account().orders is not a.orders  # mutable defaults are fresh
    assert proto.Account().wallet is not a.wallet
    t0 = time.time_ns()
    s = test_schema.StructSimple()
    t1 = time.time_ns()
    assert s.f1 is False and s.f2 is True and s.f4 == 255 and s.f6 == ord("!") and s.f8 == 0x444
    assert s.f10 == 127 and s.f12 == 255 and s.f14 == 32767 and s.f24 == 2**64 - 1
    assert s.f22 == 2**63 - 1 and s.f18 == 2**31 - 1
    assert s.f26 == pytest.approx(123.456, rel=1e-6) and isinstance(s.f26, float)
    assert s.f28 == -123.456e123
    assert s.f30 == Decimal("123456.123456") and isinstance(s.f29, Decimal)
    assert s.f32 == "Initial string!" and s.f31 == ""
    assert s.f33 == 0 and s.f34 == 0 and t0 <= s.f35 <= t1  # utc: now, same clock
    assert s.f36 == uuid.UUID(int=0) and s.f37.version == 1  # uuid1, new each time
    assert test_schema.StructSimple().f37 != s.f37
    assert s.f38 == uuid.UUID("123e4567-e89b-12d3-a456-426655440000")
    t0 = time.time_ns()
    o = test_schema.StructOptional()
    t1 = time.time_ns()
    assert o.f100 is None and o.f101 is True and o.f102 is None and o.f104 == 255
    assert o.f143 == Decimal("123456.123456") and o.f146 == "Initial string!"
    assert t0 <= o.f149 <= t1
    n = test_schema.StructNested()
    assert n.f1002 == test_schema.EnumTyped.ENUM_VALUE_2
    assert n.f1006 == test_schema.FlagsTyped.FLAG_VALUE_2 | test_schema.FlagsTyped.FLAG_VALUE_4 | \
        test_schema.FlagsTyped.FLAG_VALUE_6
    arr = test_schema.StructArray()
    assert arr.f1 == [0, 0] and arr.f2 == [None, None] and len(arr.f9) == 2
    assert arr.f9[0] is not arr.f9[1] and arr.f9[0].f2 is True
    assert test_schema.StructSet().f1 == set() and test_schema.StructMap().f1 == {}
    assert _core.default(proto.Account).state == a.state


def test_construction(proto: fbe.Schema) -> None:
    o = proto.Order(7, "EURUSD", proto.OrderSide.sell)
    assert (o.id, o.symbol, o.side, o.price) == (7, "EURUSD", proto.OrderSide.sell, 0.0)
    with pytest.raises(TypeError):
        proto.Order(1, id=2)
    with pytest.raises(TypeError):
        proto.Order(*range(7))
    with pytest.raises(fbe.UnknownFieldError) as info:
        proto.Order(idd=1)
    assert isinstance(info.value, TypeError) and isinstance(info.value, fbe.NotFoundError)
    assert str(info.value) == "unknown field 'idd' of proto.Order (did you mean 'id'?)"
    assert info.value.code == fbe._swig.FBE_ERR_UNKNOWN_FIELD
    with pytest.raises(TypeError):
        fbe.Struct()
    o.price = 2.5  # attributes are plain slots; values are checked when encoded
    assert proto.Order.decode(o.encode()).price == 2.5


def test_readme_account(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    data = acc.encode()
    final = acc.encode(final=True)
    assert isinstance(data, bytes) and len(data) == 252 and len(final) == 152
    for form in (data, bytearray(data), memoryview(data)):
        back = proto.Account.decode(form)
        assert back == acc and back.to_json() == acc.to_json()
    assert proto.Account.decode(final, final=True).to_json() == acc.to_json()
    assert proto.Account.verify(data) is True and proto.Account.verify(final, final=True) is True
    assert proto.Account.verify(final) is False and proto.Account.verify(data[:-1]) is False
    assert proto.verify("Account", data) and proto.decode("Account", data) == acc
    assert proto.encode(proto.Account, acc) == data
    assert repr(acc) == str(acc) == (
        'Account(id=1,name="Test",state=initialized|calculated|good,wallet=Balance(currency="USD",amount=1000.0),'
        'asset=Balance(currency="EUR",amount=100.0),orders=[3][Order(id=1,symbol="EURUSD",'
        'side=buy,type=market,price=1.23456,volume=1000.0),Order(id=2,symbol="EURUSD",side=sell,'
        'type=limit,price=1.0,volume=100.0),Order(id=3,symbol="EURUSD",side=buy,type=stop,'
        'price=1.5,volume=10.0)])')


def test_plain_dicts(proto: fbe.Schema) -> None:
    acc = readme_account(proto)
    value = {
        "id": 1, "name": "Test", "state": 6,
        "wallet": {"currency": "USD", "amount": 1000.0},
        "asset": {"currency": "EUR", "amount": 100.0},
        "orders": [
            {"id": 1, "symbol": "EURUSD", "side": 0, "type": 0, "price": 1.23456, "volume": 1000.0},
            {"id": 2, "symbol": "EURUSD", "side": 1, "type": 1, "price": 1.0, "volume": 100.0},
            proto.Order(id=3, symbol="EURUSD", side=proto.OrderSide.buy, type=proto.OrderType.stop,
                        price=1.5, volume=10.0),
        ],
    }
    assert proto.encode("Account", value) == acc.encode()
    assert proto.encode("Account", value, final=True) == acc.encode(final=True)
    assert proto.to_json("Account", value) == acc.to_json()
    # missing fields take the schema defaults
    assert proto.encode("Account", {}) == proto.Account().encode()
    # a tuple works where a list does
    value["orders"] = tuple(value["orders"])
    assert proto.encode("Account", value) == acc.encode()


def test_equality_and_hash(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    """== is the core's deep equality (fbe_msg_equal); hash and order are the [key]
    fields' (fbe_msg_key_hash, fbe_msg_key_compare); a struct without [key] fields has
    no hash and no order."""
    a, b = proto.Order(id=1, symbol="A"), proto.Order(id=1, symbol="B")
    assert a != b and hash(a) == hash(b)  # every field counts for ==; the [key] id for hash
    assert a == proto.Order(id=1, symbol="A") and a == proto.Order.decode(a.encode())
    assert a != proto.Order(id=2, symbol="A") and not (a != proto.Order(id=1, symbol="A"))
    assert a != proto.Balance() and (a == 1) is False and (a == {"id": 1, "symbol": "A"}) is False
    assert len({a, b, proto.Order(id=2)}) == 3 and len({a, proto.Order(id=1, symbol="A")}) == 1
    # the core's rules: floats by bit pattern, decimals by value, uuids and enums by value
    nan = float("nan")
    assert proto.Order(price=nan) == proto.Order(price=nan) and proto.Order(price=0.0) != proto.Order(price=-0.0)
    S = test_schema.StructSimple
    one = S(id=1)
    assert one == S(id=1, f35=one.f35, f37=one.f37) and one == S.decode(one.encode())
    assert S(id=1, f29=Decimal("1.5"), f35=0, f37=one.f37) == S(id=1, f29=Decimal("1.50"), f35=0, f37=one.f37)
    assert S(id=1, f36=str(one.f36), f35=one.f35, f37=one.f37) == one  # converted as encode converts
    assert proto.Account(state=6) == proto.Account(state=proto.State.good)
    # order: by the [key] fields, in schema order
    assert proto.Order(id=1) < proto.Order(id=2) <= proto.Order(id=2, symbol="Z") and proto.Order(id=3) > a
    assert sorted([proto.Order(id=3), a, proto.Order(id=-5)]) == [proto.Order(id=-5), a, proto.Order(id=3)]
    assert proto.Balance(currency="EUR") < proto.Balance(currency="USD")
    assert not (a < b) and not (b < a) and a <= b and b >= a  # equal keys, different values
    # no [key] fields: equal by value, no hash, no order
    e1, e2 = test_schema.StructEmpty(), test_schema.StructEmpty()
    assert e1 == e2 and test_schema.StructEmpty.__hash__ is None
    with pytest.raises(TypeError, match="unhashable"):
        hash(e1)
    with pytest.raises(TypeError):
        e1 < e2  # noqa: B015
    m1 = proto.OrderMessage(body=a)
    assert m1 == proto.OrderMessage(body=proto.Order(id=1, symbol="A")) and m1 != proto.OrderMessage(body=b)
    with pytest.raises(TypeError):
        hash(m1)
    # a value encode refuses: == raises its error (hash too, when a [key] field is bad)
    with pytest.raises(fbe.TypeMismatchError):
        proto.Order(symbol=5) == proto.Order()  # noqa: B015
    with pytest.raises(fbe.TypeMismatchError):
        hash(proto.Order(id="x"))
    assert hash(proto.Order(id=4, symbol=5)) == hash(proto.Order(id=4))  # only [key] fields are read
    bad = proto.Order(symbol=5)
    assert bad == bad  # the same object


def test_enums_and_flags(proto: fbe.Schema, test_schema: fbe.Schema, enums_schema: fbe.Schema) -> None:
    assert issubclass(proto.OrderSide, fbe.Enum) and issubclass(proto.State, fbe.Flags)
    assert issubclass(proto.OrderSide, int) and not issubclass(proto.OrderSide, fbe.Flags)
    assert proto.OrderSide.sell == 1 and proto.State.good == 6
    acc = proto.Account(state=proto.State.invalid | proto.State.broken)
    back = proto.Account.decode(acc.encode())
    assert back.state == 9 and isinstance(back.state, proto.State)
    # a flags value with bits the schema does not name: a value of the type, kept exactly
    acc.state = 0x40 | 2
    back = proto.Account.decode(acc.encode())
    assert back.state == 0x42 and type(back.state) is proto.State and back.state.name is None
    assert back.encode() == acc.encode()
    # an enum value the schema does not name: a value of the type, kept exactly
    o = proto.Order(side=7)
    back = proto.Order.decode(o.encode())
    assert back.side == 7 and type(back.side) is proto.OrderSide and back.encode() == o.encode()
    assert repr(back.side) == "<OrderSide: 7>" and repr(proto.OrderSide.sell) == "<OrderSide.sell: 1>"
    assert proto.Order.decode(proto.Order(side=proto.OrderSide.sell).encode()).side is proto.OrderSide.sell
    # every enum of enums.fbe, with its base type, round trips
    e = enums_schema.Enums()
    data = e.encode()
    assert enums_schema.Enums.decode(data).encode() == data
    assert test_schema.EnumTyped.ENUM_VALUE_1 == ord("1")
    assert len(list(test_schema.EnumEmpty)) == 0


def test_type_mapping(test_schema: fbe.Schema) -> None:
    T = test_schema
    s = T.StructSimple(id=5, f1=True, f5=ord("x"), f7="Ф", f9=-128, f21=-(2**63), f24=2**64 - 1,
                       f25=1.5, f27=-0.0, f29=Decimal("-1.5E-7"), f31="héllo\x00", f33=2**64 - 1,
                       f36=uuid.UUID("00112233-4455-6677-8899-aabbccddeeff"), f39=T.proto.OrderSide.sell)
    back = T.StructSimple.decode(s.encode())
    assert back.f7 == ord("Ф") and back.f5 == ord("x")
    assert back.f9 == -128 and back.f21 == -(2**63) and back.f24 == 2**64 - 1 and back.f33 == 2**64 - 1
    assert str(back.f27) == "-0.0" and back.f25 == 1.5
    assert back.f29 == Decimal("-1.5E-7") and back.f31 == "héllo\x00"
    assert back.f36 == uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")
    assert isinstance(back.f36, uuid.UUID) and back.f36.is_safe == uuid.SafeUUID.unknown
    assert back.f39 is T.proto.OrderSide.sell
    # uuid and char also accept text
    assert T.StructSimple.decode(T.StructSimple(f36=str(s.f36), f5="x").encode()).f36 == s.f36
    b = T.StructBytes(f1=b"\x00\xffabc", f2=bytearray(b"xy"), f3=memoryview(b"z"))
    back_b = T.StructBytes.decode(b.encode())
    assert back_b.f1 == b"\x00\xffabc" and back_b.f2 == b"xy" and back_b.f3 == b"z"
    assert type(back_b.f2) is bytes
    v = T.StructVector(f1=[1, 2], f2=[None, 3], f3=[b"a"], f5=[T.EnumSimple.ENUM_VALUE_1],
                       f9=[T.StructSimple(id=1)], f10=[None, T.StructSimple(id=2)])
    back_v = T.StructVector.decode(v.encode())
    assert back_v.f1 == [1, 2] and back_v.f2 == [None, 3] and back_v.f10[0] is None
    assert back_v.f10[1].id == 2 and back_v.f9[0].f2 is True
    st = T.StructSet(f1={1, 2, 3}, f2=[T.EnumSimple.ENUM_VALUE_1], f4={T.StructSimple(id=9)})
    back_s = T.StructSet.decode(st.encode())
    assert back_s.f1 == {1, 2, 3} and type(back_s.f1) is set and back_s.f4 == st.f4
    assert T.StructSet.decode(st.encode(), ordered=True).f2 == [T.EnumSimple.ENUM_VALUE_1]
    m = T.StructMap(f1={10: 1, -5: 2}, f2={1: None}, f9={3: T.StructSimple(id=3)})
    back_m = T.StructMap.decode(m.encode())
    assert back_m.f1 == {10: 1, -5: 2} and list(back_m.f1) == [10, -5] and back_m.f2 == {1: None}
    assert T.StructMap.decode(m.encode(), ordered=True).f1 == [(10, 1), (-5, 2)]
    h = T.StructHash(f1={"a": 1, "b": 2})
    assert T.StructHash.decode(h.encode()).f1 == {"a": 1, "b": 2}
    # struct-keyed maps: dicts keyed by key-struct instances (hashable on [key] fields)
    k1, k2 = T.StructSimple(id=1), T.StructSimple(id=2)
    hx = T.StructHashEx(f1={k1: T.StructNested(), k2: T.StructNested()}, f2={k1: None})
    back_h = T.StructHashEx.decode(hx.encode())
    assert set(back_h.f1) == {k1, k2} and back_h.f2 == {k1: None}
    assert T.StructHashEx.decode(hx.encode(), ordered=True).f2[0][0] == k1
    # keys equal in their [key] fields but not in value stay apart in a dict (== is deep)
    k1b = T.StructSimple(id=1, f1=True)
    assert hash(k1b) == hash(k1) and k1b != k1 and len({k1: 1, k1b: 2}) == 2
    # ... and the ordered form (list of pairs) encodes too, duplicates included; a reader
    # keeps one entry per key (the [key] fields), the last one, in the first one's place
    dup = T.StructHashEx(f2=[(k1, None), (T.StructSimple(id=1, f1=True), T.StructNested(id=5)), (k2, None)])
    assert len(dup.encode()) > len(T.StructHashEx(f2=[(k1, None), (k2, None)]).encode())
    back_dup = T.StructHashEx.decode(dup.encode(), ordered=True).f2
    assert [(k.id, k.f1, v and v.id) for k, v in back_dup] == [(1, True, 5), (2, False, None)]
    arr = T.StructArray(f1=[1, 2], f5=(T.EnumSimple.ENUM_VALUE_1, 0))
    assert T.StructArray.decode(arr.encode()).f1 == [1, 2]


def test_text_form(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    """str() and repr() of a struct are the core's text form (docs/TEXT.md), of the value
    as encode reads it: the same before and after a round trip, hidden fields as ***, and
    a value encode refuses printed as invalid instead of raising."""
    acc = readme_account(proto)
    for final in (False, True):
        assert repr(proto.Account.decode(acc.encode(final=final), final=final)) == repr(acc)
    o = proto.Order(id=1, symbol="a\"b\n", price=float("nan"), volume=1e300)
    assert str(o) == 'Order(id=1,symbol="a\\"b\\n",side=buy,type=market,price=nan,volume=1e+300)'
    assert repr(proto.Account(state=70, asset=None)).startswith(
        'Account(id=0,name="",state=initialized|calculated|good|64,wallet=Balance(currency="",amount=0.0),asset=null,')
    assert str(proto.Order(side=7)) == 'Order(id=0,symbol="",side=7,type=market,price=0.0,volume=0.0)'
    assert str(proto.Order(side="sell", id=-5)).startswith("Order(id=-5,symbol=\"\",side=sell,")  # as encode reads it
    s = test_schema.StructSimple(f5="x", f36="00112233-4455-6677-8899-AABBCCDDEEFF", f29="1.50", f33=5)
    text = repr(s)
    assert ",f5='x'," in text and ',f36="00112233-4455-6677-8899-aabbccddeeff",' in text
    assert ",f29=1.50," in text and ",f33=5," in text
    b = test_schema.StructBytes(f1=b"\x00\x01\x02\xff", f2=None)
    assert str(b).startswith('StructBytes(f1=bytes[4]"AAEC/w==",f2=null,')
    m = test_schema.StructMap(f1=[(2, 1), (1, 2)], f9={3: test_schema.StructSimple(id=3)})
    assert str(m).startswith("StructMap(f1=[2]<{2->1},{1->2}>,") and ",f9=[1]<{3->StructSimple(id=3," in str(m)
    # [hidden] (SCHEMA.md 6.5): *** wherever the value or its type is hidden
    h = fbe.loads("package h\nflags F { a = 1; [hidden] b = 2; c = 4; }\n[hidden] enum Secret { x; y; }\n"
                  "struct H { [hidden] string password; Secret priv; Secret? maybe; Secret[] many; F f; int32 visible; }\n")
    v = h.H(password="pw", many=[h.Secret.x, 1], f=7, visible=3)
    assert str(v) == "H(password=***,priv=***,maybe=null,many=[2][***,***],f=a|***|c,visible=3)"
    assert str(h.Secret.y) == "***" and repr(h.Secret.y) == "<Secret.***>" and repr(h.F(7)) == "<F.a|***|c>"
    # a value encode refuses: the refusal, in the core's words, in place of the fields
    assert repr(proto.Order(id="x")) == "Order(<invalid: expected int32, got a string at 'id'>)"
    bad = readme_account(proto)
    bad.orders[2].price = "1.5"
    assert str(bad) == "Account(<invalid: expected double, got a string at 'orders[2].price'>)"
    assert "<invalid: unknown field 'amnt' of proto.Balance" in repr(proto.Account(wallet={"amnt": 1}))
    # enum and flags members: str() is the text, repr() Python's shape around it
    S = proto.State
    assert (str(S.good), str(S(0)), str(S(64)), str(S(11))) == (
        "initialized|calculated|good", "unknown", "64", "invalid|initialized|broken|bad")
    assert repr(S.good) == "<State.initialized|calculated|good: 6>" and repr(S(64)) == "<State: 64>"
    assert (str(proto.OrderSide.sell), repr(proto.OrderSide(7)), f"{proto.OrderSide.sell}") == ("sell", "<OrderSide: 7>", "sell")
    assert f"{S.good:d}|{S.good:02x}" == "6|06" and "%d" % S.good == "6" and int(S.good) == 6
    assert str(test_schema.FlagsSimple(4)) == "FLAG_VALUE_3|FLAG_VALUE_4"  # aliases: every name


def test_plain_data_and_copies(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    """fbe.asdict / to_dict: deep dicts of the fields; Cls.from_dict: back, by the input
    table; copy.deepcopy: deep."""
    acc = readme_account(proto)
    d = fbe.asdict(acc)
    assert d == acc.to_dict() and list(d) == list(proto.Account.__fbe_fields__)
    assert d["wallet"] == {"currency": "USD", "amount": 1000.0} and type(d["orders"]) is list
    assert d["orders"][1] == {"id": 2, "symbol": "EURUSD", "side": proto.OrderSide.sell, "type": proto.OrderType.limit,
                              "price": 1.0, "volume": 100.0}
    assert d["state"] is acc.state and d["orders"] is not acc.orders  # scalars shared, containers new
    assert proto.Account.from_dict(d) == acc and proto.from_dict("Account", d) == acc
    assert proto.Account.from_dict({}) == proto.Account()
    # from_dict converts as encode and decode do: text to uuids, decimals, names to members
    T = test_schema
    got = T.StructSimple.from_dict({"f36": "00112233-4455-6677-8899-aabbccddeeff", "f29": "1.5", "f39": "sell",
                                    "f43": "initialized|calculated", "f42": {"currency": "EUR"}})
    assert got.f36 == uuid.UUID("00112233-4455-6677-8899-aabbccddeeff") and got.f29 == Decimal("1.5")
    assert got.f39 is T.proto.OrderSide.sell and got.f43 == T.proto.State.good and type(got.f42) is T.proto.Balance
    with pytest.raises(fbe.UnknownFieldError):
        proto.Account.from_dict({"nmae": "x"})
    with pytest.raises(fbe.TypeMismatchError, match="^expected proto.Account, got a list$"):
        proto.Account.from_dict([])  # type: ignore[arg-type]
    with pytest.raises(fbe.TypeMismatchError, match="^expected a struct, got an integer$"):
        fbe.asdict(7)
    # the deep shape: structs become dicts in lists and dict values, optionals included;
    # dict keys and set elements stay (a dict is no key)
    k = T.StructSimple(id=1)
    hx = T.StructHashEx(f1={k: T.StructNested(id=2)}, f2={k: None})
    dx = fbe.asdict(hx)
    assert list(dx["f1"]) == [k] and type(dx["f1"][k]) is dict and dx["f1"][k]["id"] == 2 and dx["f2"] == {k: None}
    st = T.StructSet(f4={k})
    assert fbe.asdict(st)["f4"] == {k} and fbe.asdict(st)["f4"] is not st.f4
    opt = fbe.asdict(T.StructOptional(f160=T.proto.Balance(currency="X")))
    assert opt["f160"] == {"currency": "X", "amount": 0.0} and opt["f100"] is None
    assert T.StructHashEx.from_dict(fbe.asdict(hx)) == hx
    # a deep copy shares nothing mutable
    deep = copy.deepcopy(acc)
    assert deep == acc and deep.orders is not acc.orders and deep.orders[0] is not acc.orders[0]
    assert deep.wallet is not acc.wallet
    deep.orders[0].symbol = "X"
    assert acc.orders[0].symbol == "EURUSD" and deep != acc


def test_json(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    acc = readme_account(proto)
    text = acc.to_json()
    assert text.startswith('{"id":1,"name":"Test","state":6,')
    assert proto.Account.from_json(text).to_json() == text
    assert proto.Account.from_json(text.encode()).to_json() == text
    assert "\n  " in acc.to_json(pretty=True)
    assert proto.from_json("Account", text) == acc and proto.to_json("Account", acc) == text
    s = test_schema.StructSimple(f29=Decimal("1.25"), f31="x")
    assert test_schema.StructSimple.from_json(s.to_json()).f29 == Decimal("1.25")


def test_pickle_and_copy(proto: fbe.Schema, test_schema: fbe.Schema, tmp_path: Any) -> None:
    acc = readme_account(proto)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(acc, protocol))
        # restored with the classes of the schema loaded last that defines them
        assert back.encode() == acc.encode() and type(back).__fbe_name__ == "proto.Account"
        assert back.orders[1].side == proto.OrderSide.sell and back.orders[1].side.name == "sell"
    deep, shallow = copy.deepcopy(acc), copy.copy(acc)
    assert type(deep) is type(shallow) is proto.Account and deep.encode() == acc.encode()
    assert deep.orders is not acc.orders and shallow.orders is acc.orders
    s = test_schema.StructSimple(id=3)
    assert pickle.loads(pickle.dumps(s)).encode() == s.encode()
    # a fresh interpreter loads the pickle after loading the same schema
    blob = tmp_path / "acc.pickle"
    blob.write_bytes(pickle.dumps(acc))
    code = (
        "import pickle, sys, fbe\n"
        f"s = fbe.load({str(SCHEMAS / 'proto.fbe')!r}, include=[{str(SCHEMAS)!r}])\n"
        f"a = pickle.loads(open({str(blob)!r}, 'rb').read())\n"
        "assert type(a) is s.Account, type(a)\n"
        "sys.stdout.write(a.encode().hex())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == acc.encode().hex()
    # without the schema: a clear error
    code2 = f"import pickle, fbe\npickle.loads(open({str(blob)!r}, 'rb').read())\n"
    bad = subprocess.run([sys.executable, "-c", code2], capture_output=True, text=True, check=False)
    assert bad.returncode != 0 and "load a schema that defines it first" in bad.stderr


def test_subclass(proto: fbe.Schema) -> None:
    class MyOrder(proto.Order):  # type: ignore[misc,name-defined]
        __slots__ = ()

        def total(self) -> float:
            return float(self.price * self.volume)

    o = MyOrder(id=1, price=2.0, volume=3.0)
    assert o.total() == 6.0 and o.encode() == proto.Order(id=1, price=2.0, volume=3.0).encode()
    back = MyOrder.decode(o.encode())
    assert type(back) is MyOrder and back.total() == 6.0


def test_sender_receiver(proto: fbe.Schema, protoex: fbe.Schema) -> None:
    acc = readme_account(proto)
    msgs = [proto.OrderMessage(body=acc.orders[0]), proto.AccountMessage(body=acc),
            proto.BalanceMessage(body=acc.wallet)]
    # callable sink
    chunks: List[bytes] = []
    sender = proto.sender(chunks.append)
    sizes = [sender.send(m) for m in msgs]
    assert [len(c) for c in chunks] == sizes and sender.bytes_sent == sum(sizes)
    stream = b"".join(chunks)
    # file-like sink and source, final model
    buf = io.BytesIO()
    fsender = fbe.Sender(proto, buf, final=True)
    for m in msgs:
        fsender.send(m)
    got = fbe.Receiver(proto, final=True).receive_from(io.BytesIO(buf.getvalue()), chunk_size=7)
    assert got is not None and [type(g) for g in got] == [type(m) for m in msgs]
    assert got[1].body.to_json() == acc.to_json()
    # handler, byte by byte
    handled: List[Any] = []
    r = proto.receiver(handled.append)
    for i in range(len(stream)):
        r.feed(stream[i:i + 1])
    assert [m.to_json() for m in handled] == [m.to_json() for m in msgs]
    assert r.received == 3 and r.pending == 0 and r.skipped == 0
    # a partial frame waits; reset drops it
    assert r.feed(stream[:10]) is None and r.pending == 10
    r.reset()
    assert r.pending == 0
    # iterable of chunks; a protoex receiver also receives proto messages
    got2 = protoex.receiver(package="protoex").receive_from([stream[:5], b"", stream[5:]])
    assert got2 is not None and len(got2) == 3
    assert type(got2[0]) is protoex["proto.OrderMessage"]
    # an instance from another load of the schema is sent by field
    other = fbe.load_package("proto", include=[SCHEMAS])
    out = bytearray()
    other.sender(out.extend).send(msgs[1])
    assert bytes(out) == chunks[1]
    # unknown type ids are skipped
    px = bytearray()
    protoex.sender(px.extend, package="protoex").send(protoex.OrderMessage(body=protoex.Order(id=4)))
    rp = proto.receiver()
    assert rp.feed(bytes(px) + stream) is not None and rp.skipped == 1 and rp.received == 3


def test_threads(proto: fbe.Schema) -> None:
    """One schema, many threads: each thread's values come back intact."""
    errors: List[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(2000):
                acc = readme_account(proto)
                acc.id = n * 100000 + i
                acc.name = f"t{n}-{i}"
                data = acc.encode(final=bool(i & 1))
                back = proto.Account.decode(data, final=bool(i & 1))
                assert back.id == acc.id and back.name == acc.name
                assert back.orders[2].price == 1.5
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_large_values_release_the_gil(test_schema: fbe.Schema) -> None:
    big = test_schema.StructBytes(f1=b"x" * (1 << 20), f2=b"y" * 1000)
    data = big.encode()
    assert len(data) > _core.NOGIL_BYTES
    back = test_schema.StructBytes.decode(data)
    assert back.f1 == big.f1 and test_schema.StructBytes.verify(data)
    v = test_schema.StructVector(f1=list(range(256)) * 400)
    assert test_schema.StructVector.decode(v.encode()).f1 == v.f1


def test_schema_warnings_and_version() -> None:
    assert fbe.core_version.count(".") == 2 and fbe.__version__
    s = fbe.loads("package p\nstruct A { int32 x; }\n")
    assert s.A(x=3).encode() and isinstance(s.warnings, list)

"""Schema names never break the binding (README "Names"): fields and enum members named
like the binding's API, Python's keywords, builtins, dunders and private names load,
encode, decode and go through JSON; every field is reachable by name; enum values no
member has are values of the type; flags over a signed base keep their bit pattern."""
from __future__ import annotations

import copy
import pickle
from typing import Any, Dict

import pytest

import fbe

API = ["encode", "decode", "verify", "validate", "to_json", "from_json", "to_dict", "from_dict", "toJsonString", "equals",
       "constructor", "keys", "name", "type", "mro", "_missing_", "_value_", "hash", "initialize", "send",
       "object_id", "id", "self", "None", "True", "def", "class", "import", "lambda", "_fbe_field_0"]
DUNDERS = ["__init__", "__class__", "__dict__", "__slots__", "__weakref__", "__module__", "__doc__",
           "__getitem__", "__hash__", "__eq__", "__repr__", "__reduce__", "__new__", "__fbe_fields__",
           "__fbe_name__", "__match_args__", "__x", "__"]
MEMBERS = ["mro", "_missing_", "_value_", "_name_", "__init__", "__slots__", "__class__", "__new__",
           "__members__", "__fbe_name__", "__fbe_members__", "name", "value", "real", "bit_length", "None",
           "True", "__x", "id", "_generate_next_value_", "encode", "from_json"]

SCHEMA = f"""package names

enum E : int16 {{ {' '.join(f'{m};' for m in MEMBERS)} }}
enum Empty {{ }}
flags K : int8 {{ a = 1; b = 2; mro = 4; __init__ = 8; name = 16; sign = -128; all = -1; }}
flags U : uint16 {{ x = 1; y = 2; }}

struct S {{
    [key] int32 key;
    {' '.join(f'int32 {n};' for n in API + DUNDERS)}
    E e; E? oe; Empty empty; K k; U u; K[] ks; int32<K> by_flag; K! flag_set;
}}

message M : S {{
    string __call__;
    string payload;
}}
"""

ALL_FIELDS = ["key"] + API + DUNDERS + ["e", "oe", "empty", "k", "u", "ks", "by_flag", "flag_set"]


@pytest.fixture(scope="module")
def names() -> fbe.Schema:
    return fbe.loads(SCHEMA, name="names.fbe")


def full_value(names: fbe.Schema) -> Dict[str, Any]:
    K = names.K
    fields: Dict[str, Any] = {n: i + 1 for i, n in enumerate(API + DUNDERS)}
    fields.update(key=7, e=names.E["__init__"], oe=names.E(12345), empty=names.Empty(5), k=K(-2),
                  u=~names.U.x, ks=[K.sign, K(-2), K(126), K(0)], by_flag={K(-2): 1, K(126): 2},
                  flag_set={K(-1), K(127)})
    return fields


def test_the_schema_loads_with_every_name(names: fbe.Schema) -> None:
    assert names.S.__fbe_fields__ == tuple(ALL_FIELDS)
    assert names.M.__fbe_fields__ == tuple(ALL_FIELDS) + ("__call__", "payload")
    assert [m for m in names.E.__members__] == MEMBERS
    assert issubclass(names.M, names.S) and names.S.__fbe_name__ == "names.S"


def test_every_field_by_name_keyword_and_asdict(names: fbe.Schema) -> None:
    fields = full_value(names)
    v = names.S(**fields)
    for name, want in fields.items():
        assert v[name] == want, name
    assert fbe.asdict(v) == {n: v[n] for n in ALL_FIELDS} and list(fbe.asdict(v)) == ALL_FIELDS
    # names that can be attributes are attributes, the API methods they shadow included
    assert v.encode == fields["encode"] and v.to_json == fields["to_json"] and v.mro == fields["mro"]
    assert getattr(v, "class") == fields["class"] and getattr(v, "None") == fields["None"]
    # names starting with "__" are not: the object stays a normal Python object
    assert type(v) is names.S and v.__class__ is names.S and isinstance(v, fbe.Struct)
    assert not hasattr(v, "__x") and not hasattr(v, "_fbe_field_1")
    assert v["__class__"] == fields["__class__"] and v["__init__"] == fields["__init__"]
    assert hash(v) == hash(names.S(key=7)) and v != names.S(key=7) and v == names.S(**fields)  # hash: [key] key
    # item assignment and deletion, by any name
    v["__init__"] = 99
    v["encode"] = 98
    assert v["__init__"] == 99 and v.encode == 98
    del v["__dict__"]
    with pytest.raises(KeyError):
        v["__dict__"]
    assert "__dict__" not in fbe.asdict(v)
    with pytest.raises(fbe.UnknownFieldError):
        v["nope"]
    with pytest.raises(fbe.UnknownFieldError):
        names.S(nope=1)
    with pytest.raises(TypeError):
        v[0]
    # positional patterns reach the fields up to the first one no attribute names
    assert names.S.__match_args__ == tuple(ALL_FIELDS[:ALL_FIELDS.index("__init__")])


def test_schema_operations_with_every_name(names: fbe.Schema) -> None:
    S, M = names.S, names.M
    fields = full_value(names)
    v = S(**fields)
    for final in (False, True):
        data = names.encode(S, v, final=final)
        assert data == names.encode("S", fields, final=final)  # a plain dict: the same bytes
        assert names.verify(S, data, final=final) and names.validate(S, data, final=final) == len(data)
        back = names.decode(S, data, final=final)
        assert fbe.asdict(back) == fields and type(back.k) is names.K and type(back.oe) is names.E
        assert names.encode(S, back, final=final) == data
        ordered = names.decode("S", data, final=final, ordered=True)
        assert names.encode(S, ordered, final=final) == data
    text = names.to_json(S, v)
    for name in ALL_FIELDS:
        assert f'"{name}":' in text
    assert names.from_json(S, text) == v and fbe.asdict(names.from_json(S, text)) == fields
    assert v.to_dict == fields["to_dict"] and names.from_dict(S, fbe.asdict(v)) == v  # the field hides the method
    assert names.to_json(S, names.from_json(S, text, ordered=True)) == text
    # a message, through the protocol
    msg = M(**fields, __call__="called", payload="p")
    out = bytearray()
    names.sender(out.extend).send(msg)
    [got] = names.receiver().feed(bytes(out))
    assert type(got) is M and got["__call__"] == "called" and fbe.asdict(got) == fbe.asdict(msg)
    assert names.to_json(type(got), got) == names.to_json(M, msg)


def test_copies_pickles_and_other_loads(names: fbe.Schema) -> None:
    v = names.S(**full_value(names))
    for other in (copy.copy(v), copy.deepcopy(v), pickle.loads(pickle.dumps(v))):
        assert fbe.asdict(other) == fbe.asdict(v)
    assert repr(v).startswith("S(key=7,encode=1,") and "__class__=" in repr(v)
    again = fbe.loads(SCHEMA, name="names.fbe")
    assert again.encode(again.S, v) == names.encode(names.S, v)  # by field, not by attribute
    with pytest.raises(fbe.TypeMismatchError):
        fbe.asdict(7)


def test_enum_members_by_any_name(names: fbe.Schema) -> None:
    E = names.E
    assert [m.name for m in E] == MEMBERS and len(E) == len(MEMBERS)
    for i, member in enumerate(MEMBERS):
        assert E[member] == i and E[member].name == member and E[member].value == i
        assert E(i) is E[member] and type(E[member]) is E and E[member] in E
    # attributes where Python allows: not dunders, not what every value has (name, value, ...)
    assert E.mro is E["mro"] and E._missing_ is E["_missing_"] and E._value_ is E["_value_"]
    assert getattr(E, "None") is E["None"] and E.id is E["id"] and E.encode is E["encode"]
    assert E.__init__ is not E["__init__"] and E.name is not E["name"] and E.real is not E["real"]
    assert E["real"].real == len("mro _missing_ _value_ _name_ __init__ __slots__ __class__ __new__ "
                                 "__members__ __fbe_name__ __fbe_members__ name value".split())
    assert E["bit_length"].bit_length() == 4 and E["name"].value == MEMBERS.index("name")
    assert repr(E["mro"]) == "<E.mro: 0>" and str(E["_value_"]) == "_value_" and f"{E['name']:03d}" == "011"
    with pytest.raises(fbe.NotFoundError):
        E["nope"]
    with pytest.raises(KeyError):
        E["Mro"]


def test_enum_values_no_member_has(names: fbe.Schema) -> None:
    E, Empty = names.E, names.Empty
    unknown = E(12345)
    assert type(unknown) is E and unknown == 12345 and unknown.name is None and unknown not in E
    assert repr(unknown) == "<E: 12345>" and unknown.value == 12345 and E(-32768) == -32768
    with pytest.raises(fbe.RangeError):
        E(32768)
    with pytest.raises(TypeError):
        E(1.0)
    assert list(Empty) == [] and len(Empty) == 0 and bool(Empty) and Empty(5).name is None
    assert Empty(0) == 0 and type(Empty(2**31 - 1)) is Empty
    v = names.S(oe=E(-5), empty=Empty(-7))
    back = names.decode(names.S, names.encode(names.S, v))
    assert back.oe == -5 and type(back.oe) is E and back.empty == -7 and type(back.empty) is Empty
    assert names.encode(names.S, back) == names.encode(names.S, v)
    restored = pickle.loads(pickle.dumps(E(77))), pickle.loads(pickle.dumps(E.mro))
    assert restored == (77, 0) and restored[0].name is None and restored[1].name == "mro"


def test_signed_flags_keep_their_bit_pattern(names: fbe.Schema) -> None:
    K, U = names.K, names.U
    assert K["all"] == -1 and K["sign"] == -128 and K.sign is K["sign"] and K.mro is K["mro"]
    # a composite's name: the single-bit members that make it up, if they do
    assert K(-122).name == "b|mro|sign" and K(-2).name is None and K(3).name == "a|b"
    assert (K.a | K.b) == 3 and type(K.a | K.b) is K
    assert (K.a | K.b).name == "a|b" and repr(K.a | K.b) == "<K.a|b: 3>"
    assert ~K.a == -2 and type(~K.a) is K and ~K["all"] == 0 and ~K(0) is K["all"]
    assert K.sign | K.a == -127 and K(-2) & K.sign is K.sign and K(-2) ^ K(-1) == 1
    assert 1 | K.b == 3 and type(1 | K.b) is K and type(K.a | 1000) is int  # beyond int8: an int
    assert ~U.x == 0xFFFE and type(~U.x) is U and (U.x | U.y).name == "x|y"
    # -2 is 0xfe on the wire, as the other languages write it
    v = names.S(k=K(-2))
    data = names.encode(names.S, v, final=True)
    assert names.decode(names.S, data, final=True).k == -2
    minus_two, zero = (names.encode(names.S, names.S(ks=[K(x)]), final=True) for x in (-2, 0))
    assert [(x, y) for x, y in zip(minus_two, zero) if x != y] == [(0xFE, 0)]
    assert names.to_json(names.S, v).count('"k":-2') == 1
    # map keys and set elements differing in the sign bit only stay apart
    m = names.S(by_flag={K(-2): 1, K(126): 2, K(-128): 3, K(0): 4}, flag_set={K(-1), K(127), K(-128), K(0)})
    for final in (False, True):
        back = names.decode(names.S, names.encode(names.S, m, final=final), final=final)
        assert back.by_flag == {-2: 1, 126: 2, -128: 3, 0: 4} and back.flag_set == {-1, 127, -128, 0}
        assert all(type(k) is K for k in back.by_flag) and all(type(k) is K for k in back.flag_set)

"""The input table of docs/INPUT.md, row by row: what each FBE type accepts from Python
and how it refuses the rest (the status, so the exception class, and the core's message
and path), through every way a value reaches the core: a constructor's keyword, an
assigned attribute, a plain dict, Cls.from_dict, and printing (repr shows the refusal
instead of raising). Every case is named by its row id ("bool", "int", ... "null"),
which tests/docs/check_input_table.py looks for."""
from __future__ import annotations

import datetime
import enum
import uuid
from decimal import Decimal
from typing import Any, Callable, List, NamedTuple, Optional

import pytest

import fbe

from conftest import SCHEMAS

ROWS = ("bool", "int", "char", "float", "decimal", "timestamp", "uuid", "string", "bytes", "enum",
        "flags", "optional", "array", "sequence", "set", "map", "struct", "null")

TYPE, RANGE, ARGUMENT, UNKNOWN = "FBE_ERR_TYPE", "FBE_ERR_RANGE", "FBE_ERR_ARGUMENT", "FBE_ERR_UNKNOWN_FIELD"
UTC = datetime.timezone.utc
TS = 1543145597933000000  # 2018-11-25 11:33:17.933 UTC
UID = uuid.UUID("123e4567-e89b-12d3-a456-426655440000")


class Color(enum.IntEnum):  # the standard library's enums are members of another enum
    red = 1


class Index:
    """An int by __index__ (as numpy's integers are)."""

    def __index__(self) -> int:
        return 5


class From:
    """A value made from the loaded schemas (t: test, p: protoex)."""

    def __init__(self, make: Callable[[Any, Any], Any]):
        self.make = make


class Refused(NamedTuple):
    row: str
    type: str       # a struct of test.fbe
    field: str
    value: Any
    status: str
    message: str
    path: Optional[str] = None  # default: the field


class Accepted(NamedTuple):
    row: str
    type: str
    field: str
    value: Any
    want: Any       # the field of the decoded value
    exact_type: Optional[type] = None


REFUSED: List[Refused] = [
    Refused("bool", "StructSimple", "f1", 1, TYPE, "expected bool, got an integer"),
    Refused("bool", "StructSimple", "f1", 0, TYPE, "expected bool, got an integer"),
    Refused("bool", "StructSimple", "f1", "true", TYPE, "expected bool, got a string"),
    Refused("bool", "StructSimple", "f1", 1.0, TYPE, "expected bool, got a float"),
    Refused("int", "StructSimple", "f17", 1.0, TYPE, "expected int32, got a float"),
    Refused("int", "StructSimple", "f17", True, TYPE, "expected int32, got a boolean"),
    Refused("int", "StructSimple", "f17", "5", TYPE, "expected int32, got a string"),
    Refused("int", "StructSimple", "f17", Decimal(5), TYPE, "expected int32, got a decimal"),
    Refused("int", "StructSimple", "f17", 1j, TYPE, "expected int32, got a complex"),
    Refused("int", "StructSimple", "f11", 300, RANGE, "value 300 does not fit uint8"),
    Refused("int", "StructSimple", "f19", -1, RANGE, "value -1 does not fit uint32"),
    Refused("int", "StructSimple", "f17", 2**31, RANGE, "value 2147483648 does not fit int32"),
    Refused("int", "StructSimple", "f21", -(2**63) - 1, RANGE, "value -9223372036854775809 does not fit int64"),
    Refused("int", "StructSimple", "f23", 2**64, RANGE, "value 18446744073709551616 does not fit uint64"),
    Refused("char", "StructSimple", "f5", "ab", ARGUMENT, "'ab' is not one character"),
    Refused("char", "StructSimple", "f5", "", ARGUMENT, "'' is not one character"),
    Refused("char", "StructSimple", "f7", "ab", ARGUMENT, "'ab' is not one character"),
    Refused("char", "StructSimple", "f5", "\u0444", RANGE, "value 1092 does not fit char"),
    Refused("char", "StructSimple", "f5", 256, RANGE, "value 256 does not fit char"),
    Refused("char", "StructSimple", "f7", -1, RANGE, "value -1 does not fit wchar"),
    Refused("char", "StructSimple", "f5", b"a", TYPE, "expected char, got bytes"),
    Refused("char", "StructSimple", "f5", 1.5, TYPE, "expected char, got a float"),
    Refused("float", "StructSimple", "f25", 1e39, RANGE, "value 1e+39 does not fit float"),
    Refused("float", "StructSimple", "f27", 10**400, RANGE, "value 1" + "0" * 59 + " does not fit double"),  # cut at 60
    Refused("float", "StructSimple", "f25", "1.5", TYPE, "expected float, got a string"),
    Refused("float", "StructSimple", "f27", True, TYPE, "expected double, got a boolean"),
    Refused("float", "StructSimple", "f27", Decimal("1.5"), TYPE, "expected double, got a decimal"),
    Refused("decimal", "StructSimple", "f29", 1.5, TYPE,
            "expected decimal, got a float (binary floats are not exact: pass a decimal or its text)"),
    Refused("decimal", "StructSimple", "f29", "abc", ARGUMENT, "'abc' is not a decimal number"),
    Refused("decimal", "StructSimple", "f29", "1,5", ARGUMENT, "'1,5' is not a decimal number"),
    Refused("decimal", "StructSimple", "f29", Decimal("NaN"), ARGUMENT, "'NaN' is not a decimal number"),
    Refused("decimal", "StructSimple", "f29", Decimal("1E+30"), RANGE,
            "decimal 1E+30 does not fit FBE's decimal (96-bit coefficient, scale 0..28)"),
    Refused("decimal", "StructSimple", "f29", "1E-29", RANGE,
            "decimal 1E-29 does not fit FBE's decimal (96-bit coefficient, scale 0..28)"),
    Refused("decimal", "StructSimple", "f29", True, TYPE, "expected decimal, got a boolean"),
    Refused("timestamp", "StructSimple", "f33", 1.5, TYPE,
            "expected timestamp, got a float (pass integer nanoseconds or a time)"),
    Refused("timestamp", "StructSimple", "f33", -1, RANGE, "value -1 does not fit timestamp"),
    Refused("timestamp", "StructSimple", "f33", 2**64, RANGE, "value 18446744073709551616 does not fit timestamp"),
    Refused("timestamp", "StructSimple", "f33", datetime.datetime(1969, 12, 31, 23, 59, 59), RANGE,
            "value 1969-12-31 23:59:59 does not fit timestamp"),
    Refused("timestamp", "StructSimple", "f33", datetime.datetime(1970, 1, 1, 0, 30, tzinfo=datetime.timezone(
        datetime.timedelta(hours=1))), RANGE, "value 1970-01-01 00:30:00+01:00 does not fit timestamp"),
    Refused("timestamp", "StructSimple", "f33", "2018-11-25T11:33:17Z", TYPE, "expected timestamp, got a string"),
    Refused("timestamp", "StructSimple", "f33", datetime.date(2018, 11, 25), TYPE, "expected timestamp, got a date"),
    Refused("uuid", "StructSimple", "f36", "xyz", ARGUMENT, "'xyz' is not a uuid (8-4-4-4-12 hexadecimal digits)"),
    Refused("uuid", "StructSimple", "f36", "{" + str(UID) + "}", ARGUMENT,
            "'{123e4567-e89b-12d3-a456-426655440000}' is not a uuid (8-4-4-4-12 hexadecimal digits)"),
    Refused("uuid", "StructSimple", "f36", 42, TYPE, "expected uuid, got an integer"),
    Refused("uuid", "StructSimple", "f36", UID.bytes, TYPE, "expected uuid, got bytes"),
    Refused("string", "StructSimple", "f31", b"x", TYPE, "expected string, got bytes"),
    Refused("string", "StructSimple", "f31", 5, TYPE, "expected string, got an integer"),
    Refused("string", "StructSimple", "f31", "a\ud800", ARGUMENT,
            "string is not valid UTF-8: a UTF-16 surrogate (U+D800) at byte 1 of 4"),
    Refused("bytes", "StructBytes", "f1", "ab", TYPE, "expected bytes, got a string"),
    Refused("bytes", "StructBytes", "f1", [1, 2], TYPE, "expected bytes, got a list"),
    Refused("bytes", "StructBytes", "f1", 5, TYPE, "expected bytes, got an integer"),
    Refused("enum", "StructSimple", "f39", From(lambda t, p: t.proto.OrderType.limit), TYPE,
            "expected proto.OrderSide, got an enum proto.OrderType"),
    Refused("enum", "StructSimple", "f39", Color.red, TYPE, "expected proto.OrderSide, got an enum Color"),
    Refused("enum", "StructSimple", "f39", "sideways", ARGUMENT, "'sideways' is not a value of proto.OrderSide"),
    Refused("enum", "StructSimple", "f39", "Sell", ARGUMENT,
            "'Sell' is not a value of proto.OrderSide (did you mean 'sell'?)"),
    Refused("enum", "StructSimple", "f39", "1", ARGUMENT, "'1' is not a value of proto.OrderSide"),
    Refused("enum", "StructSimple", "f39", 256, RANGE, "value 256 does not fit byte"),
    Refused("enum", "StructSimple", "f39", -1, RANGE, "value -1 does not fit byte"),
    Refused("enum", "StructSimple", "f39", 1.5, TYPE, "expected proto.OrderSide, got a float"),
    Refused("enum", "StructSimple", "f39", True, TYPE, "expected proto.OrderSide, got a boolean"),
    Refused("flags", "StructSimple", "f43", "wrong", ARGUMENT, "'wrong' is not a value of proto.State"),
    Refused("flags", "StructSimple", "f43", "initialized|wrong", ARGUMENT, "'wrong' is not a value of proto.State"),
    Refused("flags", "StructSimple", "f43", "", ARGUMENT, "'' is not a value of proto.State"),
    Refused("flags", "StructSimple", "f43", From(lambda t, p: t.proto.OrderSide.buy), TYPE,
            "expected proto.State, got an enum proto.OrderSide"),
    Refused("flags", "StructSimple", "f43", 256, RANGE, "value 256 does not fit byte"),
    Refused("flags", "StructSimple", "f43", ["good"], TYPE, "expected proto.State, got a list"),
    Refused("optional", "StructOptional", "f100", 1, TYPE, "expected bool or null, got an integer"),
    Refused("optional", "StructOptional", "f124", "x", TYPE, "expected int32 or null, got a string"),
    Refused("optional", "StructOptional", "f124", 2**31, RANGE, "value 2147483648 does not fit int32"),
    Refused("optional", "StructOptional", "f142", 1.5, TYPE,
            "expected decimal or null, got a float (binary floats are not exact: pass a decimal or its text)"),
    Refused("optional", "StructOptional", "f154", "sideways", ARGUMENT, "'sideways' is not a value of proto.OrderSide"),
    Refused("optional", "StructOptional", "f160", 5, TYPE, "expected proto.Balance or null, got an integer"),
    Refused("optional", "StructOptional", "f160", {"amout": 1.0}, UNKNOWN,
            "unknown field 'amout' of proto.Balance (did you mean 'amount'?)"),
    Refused("array", "StructArray", "f1", [1, 2, 3], RANGE, "expected 2 elements for array[2] of byte, got 3"),
    Refused("array", "StructArray", "f1", [], RANGE, "expected 2 elements for array[2] of byte, got 0"),
    Refused("array", "StructArray", "f1", b"ab", TYPE, "expected array[2] of byte, got bytes"),
    Refused("array", "StructArray", "f1", {1, 2}, TYPE, "expected array[2] of byte, got a set"),
    Refused("array", "StructArray", "f1", [1, 300], RANGE, "value 300 does not fit byte", "f1[1]"),
    Refused("array", "StructArray", "f9", [{}, 5], TYPE, "expected test.StructSimple, got an integer", "f9[1]"),
    Refused("sequence", "StructVector", "f1", {1: 2}, TYPE, "expected vector of byte, got a map"),
    Refused("sequence", "StructVector", "f1", "ab", TYPE, "expected vector of byte, got a string"),
    Refused("sequence", "StructVector", "f1", {1, 2}, TYPE, "expected vector of byte, got a set"),
    Refused("sequence", "StructVector", "f1", range(3), TYPE, "expected vector of byte, got a range"),
    Refused("sequence", "StructList", "f1", 5, TYPE, "expected list of byte, got an integer"),
    Refused("sequence", "StructVector", "f1", [1, "x"], TYPE, "expected byte, got a string", "f1[1]"),
    Refused("sequence", "StructVector", "f2", [None, 256], RANGE, "value 256 does not fit byte", "f2[1]"),
    Refused("sequence", "StructVector", "f9", [{"idd": 1}], UNKNOWN,
            "unknown field 'idd' of test.StructSimple (did you mean 'id'?)", "f9[0]"),
    Refused("set", "StructSet", "f1", {1: 2}, TYPE, "expected set of byte, got a map"),
    Refused("set", "StructSet", "f1", 5, TYPE, "expected set of byte, got an integer"),
    Refused("set", "StructSet", "f1", [256], RANGE, "value 256 does not fit byte", "f1[0]"),
    Refused("set", "StructSet", "f2", ["NOPE"], ARGUMENT, "'NOPE' is not a value of test.EnumSimple", "f2[0]"),
    Refused("map", "StructMap", "f1", [1, 2], TYPE, "expected map of int32 to byte, got a list"),
    Refused("map", "StructMap", "f1", 5, TYPE, "expected map of int32 to byte, got an integer"),
    Refused("map", "StructMap", "f1", {"k": 1}, TYPE, "expected int32, got a string", "f1[0][key]"),
    Refused("map", "StructMap", "f1", {1: 1, 2**31: 1}, RANGE, "value 2147483648 does not fit int32", "f1[1][key]"),
    Refused("map", "StructMap", "f1", {1: 300}, RANGE, "value 300 does not fit byte", "f1[0]"),
    Refused("map", "StructMap", "f1", {1: 1, 2: "x"}, TYPE, "expected byte, got a string", "f1[1]"),
    Refused("map", "StructHash", "f1", {5: 1}, TYPE, "expected string, got an integer", "f1[0][key]"),
    Refused("struct", "StructSimple", "f42", From(lambda t, p: t.proto.Order()), TYPE,
            "expected proto.Balance, got a struct proto.Order"),
    Refused("struct", "StructSimple", "f42", 5, TYPE, "expected proto.Balance, got an integer"),
    Refused("struct", "StructSimple", "f42", [], TYPE, "expected proto.Balance, got a list"),
    Refused("struct", "StructSimple", "f42", {"currncy": "x"}, UNKNOWN,
            "unknown field 'currncy' of proto.Balance (did you mean 'currency'?)"),
    Refused("struct", "StructSimple", "f42", {"zzzzzz": 1}, UNKNOWN, "unknown field 'zzzzzz' of proto.Balance"),
    Refused("struct", "StructSimple", "f42", {"amount": "x"}, TYPE, "expected double, got a string", "f42.amount"),
    Refused("struct", "StructSimple", "f44", {"orders": [{}, {"side": "sideways"}]}, ARGUMENT,
            "'sideways' is not a value of proto.OrderSide", "f44.orders[1].side"),
    Refused("null", "StructSimple", "f17", None, TYPE, "expected int32, got null"),
    Refused("null", "StructSimple", "f31", None, TYPE, "expected string, got null"),
    Refused("null", "StructSimple", "f39", None, TYPE, "expected proto.OrderSide, got null"),
    Refused("null", "StructSimple", "f42", None, TYPE, "expected proto.Balance, got null"),
    Refused("null", "StructVector", "f1", None, TYPE, "expected vector of byte, got null"),
    Refused("null", "StructVector", "f1", [None], TYPE, "expected byte, got null", "f1[0]"),
    Refused("null", "StructMap", "f1", {1: None}, TYPE, "expected byte, got null", "f1[0]"),
]

ACCEPTED: List[Accepted] = [
    Accepted("bool", "StructSimple", "f1", True, True),
    Accepted("bool", "StructSimple", "f2", False, False),
    Accepted("int", "StructSimple", "f17", -(2**31), -(2**31), int),
    Accepted("int", "StructSimple", "f23", 2**64 - 1, 2**64 - 1, int),
    Accepted("int", "StructSimple", "f21", -(2**63), -(2**63), int),
    Accepted("int", "StructSimple", "f17", Index(), 5, int),
    Accepted("int", "StructSimple", "f17", Color.red, 1, int),  # an IntEnum is an int
    Accepted("char", "StructSimple", "f5", "a", 97, int),
    Accepted("char", "StructSimple", "f5", "\u00e9", 233, int),
    Accepted("char", "StructSimple", "f5", 255, 255, int),
    Accepted("char", "StructSimple", "f7", "\u0444", 1092, int),
    Accepted("char", "StructSimple", "f7", "\U0001F600", 0x1F600, int),
    Accepted("float", "StructSimple", "f25", 1.5, 1.5, float),
    Accepted("float", "StructSimple", "f25", 3.4e38, 3.3999999521443642e38, float),  # the nearest float32
    Accepted("float", "StructSimple", "f27", 2, 2.0, float),
    Accepted("float", "StructSimple", "f27", 2**53 + 1, 2.0**53, float),
    Accepted("float", "StructSimple", "f27", float("inf"), float("inf"), float),
    Accepted("float", "StructSimple", "f25", float("-inf"), float("-inf"), float),
    Accepted("decimal", "StructSimple", "f29", Decimal("123.45"), Decimal("123.45"), Decimal),
    Accepted("decimal", "StructSimple", "f29", 5, Decimal(5), Decimal),
    Accepted("decimal", "StructSimple", "f29", "1E-7", Decimal("1E-7"), Decimal),
    Accepted("decimal", "StructSimple", "f29", "-123.4500", Decimal("-123.4500"), Decimal),
    Accepted("decimal", "StructSimple", "f29", "79228162514264337593543950335",
             Decimal("79228162514264337593543950335"), Decimal),
    Accepted("timestamp", "StructSimple", "f33", TS, TS, int),
    Accepted("timestamp", "StructSimple", "f33", datetime.datetime(2018, 11, 25, 11, 33, 17, 933000, tzinfo=UTC),
             TS, int),
    Accepted("timestamp", "StructSimple", "f33", datetime.datetime(2018, 11, 25, 11, 33, 17, 933000), TS, int),
    Accepted("timestamp", "StructSimple", "f33", datetime.datetime(
        2018, 11, 25, 12, 33, 17, 933000, tzinfo=datetime.timezone(datetime.timedelta(hours=1))), TS, int),
    Accepted("timestamp", "StructSimple", "f33", datetime.datetime(1970, 1, 1), 0, int),
    Accepted("timestamp", "StructSimple", "f33", datetime.datetime(2262, 1, 1, 0, 0, 0, 1),
             (datetime.date(2262, 1, 1) - datetime.date(1970, 1, 1)).days * 86400 * 10**9 + 1000, int),
    Accepted("timestamp", "StructSimple", "f33", 2**64 - 1, 2**64 - 1, int),
    Accepted("uuid", "StructSimple", "f36", UID, UID, uuid.UUID),
    Accepted("uuid", "StructSimple", "f36", str(UID).upper(), UID, uuid.UUID),
    Accepted("string", "StructSimple", "f31", "h\u00e9llo \U0001F600\x00", "h\u00e9llo \U0001F600\x00", str),
    Accepted("string", "StructSimple", "f31", "", "", str),
    Accepted("bytes", "StructBytes", "f1", b"a\x00b", b"a\x00b", bytes),
    Accepted("bytes", "StructBytes", "f1", bytearray(b"ab"), b"ab", bytes),
    Accepted("bytes", "StructBytes", "f1", memoryview(b"ab"), b"ab", bytes),
    Accepted("enum", "StructSimple", "f39", From(lambda t, p: t.proto.OrderSide.sell), 1),
    Accepted("enum", "StructSimple", "f39", 1, 1),
    Accepted("enum", "StructSimple", "f39", "sell", 1),
    Accepted("enum", "StructSimple", "f39", 7, 7),  # no member has it: still a value of the type
    Accepted("enum", "StructSimple", "f39", From(lambda t, p: p.proto.OrderSide.sell), 1),  # another load's
    Accepted("flags", "StructSimple", "f43", From(lambda t, p: t.proto.State.initialized | t.proto.State.calculated),
             6),
    Accepted("flags", "StructSimple", "f43", 6, 6),
    Accepted("flags", "StructSimple", "f43", "initialized|calculated", 6),
    Accepted("flags", "StructSimple", "f43", " initialized | calculated ", 6),
    Accepted("flags", "StructSimple", "f43", "good|64", 70),
    Accepted("flags", "StructSimple", "f43", "unknown", 0),
    Accepted("optional", "StructOptional", "f100", None, None),
    Accepted("optional", "StructOptional", "f100", True, True),
    Accepted("optional", "StructOptional", "f124", 5, 5),
    Accepted("optional", "StructOptional", "f154", "buy", 0),
    Accepted("array", "StructArray", "f1", [1, 2], [1, 2], list),
    Accepted("array", "StructArray", "f1", (1, 2), [1, 2], list),
    Accepted("sequence", "StructVector", "f1", [1, 2], [1, 2], list),
    Accepted("sequence", "StructList", "f1", (1, 2), [1, 2], list),
    Accepted("set", "StructSet", "f1", {1, 2, 3}, {1, 2, 3}, set),
    Accepted("set", "StructSet", "f1", [3, 1], {1, 3}, set),
    Accepted("set", "StructSet", "f1", frozenset({4}), {4}, set),
    Accepted("set", "StructSet", "f1", (4, 5), {4, 5}, set),
    Accepted("map", "StructMap", "f1", {1: 2, -5: 3}, {1: 2, -5: 3}, dict),
    Accepted("map", "StructMap", "f1", [(1, 2)], {1: 2}, dict),  # the ordered form
    Accepted("map", "StructHash", "f1", {"k": 17}, {"k": 17}, dict),
    Accepted("struct", "StructSimple", "f42", From(lambda t, p: t.proto.Balance(currency="USD", amount=1.5)),
             From(lambda t, p: t.proto.Balance(currency="USD", amount=1.5))),
    Accepted("struct", "StructSimple", "f42", {"currency": "USD", "amount": 1.5},
             From(lambda t, p: t.proto.Balance(currency="USD", amount=1.5))),
    Accepted("struct", "StructSimple", "f42", From(lambda t, p: p.proto.Balance(currency="EUR")),
             From(lambda t, p: t.proto.Balance(currency="EUR"))),  # the same struct of another load
    Accepted("struct", "StructSimple", "f42", From(lambda t, p: p.Balance(currency="EUR", locked=2.0)),
             From(lambda t, p: t.proto.Balance(currency="EUR"))),  # derived (protoex.Balance : proto.Balance)
    Accepted("null", "StructOptional", "f160", None, None),
]


@pytest.fixture(scope="module")
def schemas() -> Any:
    return (fbe.load_package("test", include=[SCHEMAS]), fbe.load_package("protoex", include=[SCHEMAS]))


def made(v: Any, schemas: Any) -> Any:
    return v.make(*schemas) if isinstance(v, From) else v


def test_every_row_has_cases() -> None:
    assert [row for row in ROWS if not any(c.row == row for c in REFUSED)] == []
    assert [row for row in ROWS if not any(c.row == row for c in ACCEPTED)] == []
    assert {c.row for c in REFUSED} | {c.row for c in ACCEPTED} == set(ROWS)


def refusals(schemas: Any, case: Refused) -> List[fbe.Error]:
    """The error of every way the value reaches the core."""
    t, _ = schemas
    cls = t[case.type]
    value = made(case.value, schemas)
    errors: List[fbe.Error] = []
    ways: List[Callable[[], Any]] = [
        lambda: cls(**{case.field: value}).encode(),
        lambda: cls(**{case.field: value}).encode(final=True),
        lambda: cls(**{case.field: value}).to_json(),
        lambda: t.encode(cls, {case.field: value}),
        lambda: cls.from_dict({case.field: value}),
        lambda: cls(**{case.field: value}) == cls(),
    ]
    assigned = cls()
    setattr(assigned, case.field, value)
    ways.append(assigned.encode)
    for way in ways:
        with pytest.raises(fbe.Error) as info:
            way()
        errors.append(info.value)
    # printing never raises: it shows the refusal
    assert repr(assigned) == str(assigned) == f"{case.type}(<invalid: {errors[0]}>)"
    return errors


@pytest.mark.parametrize("case", REFUSED, ids=[f"{c.row}-{c.type}.{c.field}-{i}" for i, c in enumerate(REFUSED)])
def test_refused(schemas: Any, case: Refused) -> None:
    cls = getattr(fbe, fbe._swig.fbe_status_class(getattr(fbe._swig, case.status)))
    for err in refusals(schemas, case):
        assert type(err) is cls and err.status == case.status, (case, err)
        assert err.message == case.message and err.path == (case.path or case.field), (case, err)
        assert err.offset is None and str(err) == f"{case.message} at '{case.path or case.field}'"


@pytest.mark.parametrize("case", ACCEPTED, ids=[f"{c.row}-{c.type}.{c.field}-{i}" for i, c in enumerate(ACCEPTED)])
def test_accepted(schemas: Any, case: Accepted) -> None:
    t, _ = schemas
    cls = t[case.type]
    value, want = made(case.value, schemas), made(case.want, schemas)
    v = cls(**{case.field: value})
    for final in (False, True):
        back = cls.decode(v.encode(final=final), final=final)
        assert back[case.field] == want and (case.exact_type is None or type(back[case.field]) is case.exact_type)
    assert t.decode(cls, t.encode(cls, {case.field: value}))[case.field] == want  # a plain dict
    assert cls.from_dict({case.field: value})[case.field] == want
    assert "<invalid" not in repr(v)


def test_unknown_names_at_once(schemas: Any) -> None:
    """A name the struct does not have is refused where it is written: the constructor,
    an attribute, an item; UnknownFieldError is also the builtin errors of each."""
    t, _ = schemas
    Order = t.proto.Order
    for way in (lambda: Order(symbl="x"), lambda: setattr(Order(), "symbl", "x"), lambda: Order()["symbl"],
                lambda: Order.from_dict({"symbl": "x"}), lambda: t.encode(Order, {"symbl": "x"})):
        with pytest.raises(fbe.UnknownFieldError) as info:
            way()
        assert str(info.value) == "unknown field 'symbl' of proto.Order (did you mean 'symbol'?)"
        assert isinstance(info.value, (TypeError, KeyError)) and info.value.status == UNKNOWN
    with pytest.raises(AttributeError):
        Order().symbl = 1
    with pytest.raises(TypeError):
        Order(symbl=1)


def test_json_input_unknown_members(schemas: Any) -> None:
    """JSON is strict by default; ignore_unknown=True skips members of a newer schema."""
    t, _ = schemas
    Order = t.proto.Order
    text = '{"id": 1, "symbl": "x", "symbol": "EURUSD"}'
    for read in (lambda **kw: Order.from_json(text, **kw), lambda **kw: t.from_json(Order, text, **kw)):
        with pytest.raises(fbe.UnknownFieldError, match="unknown field 'symbl' of proto.Order"):
            read()
        assert read(ignore_unknown=True) == Order(id=1, symbol="EURUSD")
    # the readers take enum and flags names and 64-bit integers as strings
    assert t.StructSimple.from_json('{"f39": "sell", "f43": "initialized|calculated", "f23": "18446744073709551615"}',
                                    ignore_unknown=False).f43 == 6

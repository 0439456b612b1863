"""Every error path raises an fbe.Error subclass (a ValueError) with the core's message,
the value path and the byte offset; never a crash, never a silent truncation."""
from __future__ import annotations

import pickle
import uuid
from decimal import Decimal
from typing import Any, List

import pytest

import fbe
from fbe import _core

from conftest import SCHEMAS, readme_account, records


def test_hierarchy() -> None:
    for cls in (fbe.OutOfMemoryError, fbe.ArgumentError, fbe.SchemaError, fbe.NotFoundError,
                fbe.TypeMismatchError, fbe.RangeError, fbe.MalformedError, fbe.JSONError,
                fbe.LimitError, fbe.StreamError, fbe.UnknownFieldError):
        assert issubclass(cls, fbe.Error) and issubclass(cls, ValueError), cls
    assert issubclass(fbe.TypeMismatchError, TypeError)
    assert issubclass(fbe.RangeError, OverflowError)
    assert issubclass(fbe.NotFoundError, KeyError) and issubclass(fbe.NotFoundError, AttributeError)
    assert issubclass(fbe.UnknownFieldError, fbe.NotFoundError) and issubclass(fbe.UnknownFieldError, TypeError)
    e = fbe.MalformedError("bad", 7, "orders[1]", 12)
    assert str(e) == "bad at 'orders[1]' (offset 12)" and e.status == "FBE_ERR_MALFORMED"
    assert str(fbe.Error("plain")) == "plain" and fbe.Error("plain").offset is None
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is fbe.MalformedError and str(back) == str(e)
    s = pickle.loads(pickle.dumps(fbe.SchemaError("x", diagnostics=["a:1:1: y"])))
    assert s.diagnostics == ["a:1:1: y"]


def test_classes_are_the_status_table() -> None:
    """One class per status code, named and parented by the core's table; each class's
    own code is its default; str() is the core's fbe_error_format text."""
    swig = fbe._swig
    assert swig.fbe_status_class(swig.FBE_OK) == "Error"
    for code in range(swig.FBE_STATUS_COUNT):
        cls = getattr(fbe, swig.fbe_status_class(code))
        assert cls.__module__ == "fbe" and cls.__name__ == swig.fbe_status_class(code)
        if code != swig.FBE_OK:
            assert cls.__bases__[0] is getattr(fbe, swig.fbe_status_class(swig.fbe_status_parent(code)))
        e = cls("m", path="a.b", offset=3)
        assert (e.code, e.status, e.message, e.path, e.offset) == (code, swig.fbe_status_name(code), "m", "a.b", 3)
        assert str(e) == "m at 'a.b' (offset 3)" and str(cls("m")) == "m" and str(cls("m", path="p")) == "m at 'p'"
    assert fbe.UnknownFieldError.__bases__[0] is fbe.NotFoundError
    # a message longer than the core's error record holds is kept whole
    long = "x" * 1000
    assert str(fbe.Error(long, path="p", offset=0)) == long + " at 'p' (offset 0)"
    assert str(fbe.NotFoundError("no such")) == "no such"  # not KeyError's repr


# ---- schemas ---------------------------------------------------------------------

def test_schema_errors(tmp_path: Any) -> None:
    with pytest.raises(fbe.SchemaError) as info:
        fbe.loads("package p\nstruct A { int32 x; nosuchtype y; }\n", name="bad.fbe")
    exc = info.value
    assert exc.diagnostics and exc.diagnostics[0].startswith("bad.fbe:2:")
    assert "bad.fbe:2:" in str(exc) and exc.code == fbe._swig.FBE_ERR_SCHEMA
    with pytest.raises(fbe.SchemaError):
        fbe.load(tmp_path / "missing.fbe")
    with pytest.raises(fbe.SchemaError):
        fbe.load_package("nosuchpackage", include=[SCHEMAS])
    with pytest.raises(fbe.SchemaError):
        fbe.loads("package p\nstruct A {\n")
    with pytest.raises(fbe.SchemaError):
        fbe.loads("package p\0")


def test_lookup_errors(proto: fbe.Schema) -> None:
    with pytest.raises(fbe.NotFoundError):
        proto["Nope"]
    with pytest.raises(KeyError):
        proto["proto.Nope"]
    with pytest.raises(AttributeError):
        proto.Nope
    assert not hasattr(proto, "Nope") and not hasattr(proto.proto, "Nope")
    with pytest.raises(fbe.NotFoundError):
        proto.encode("State", 1)  # an enum is not a struct
    with pytest.raises(fbe.NotFoundError):
        proto.sender(print, package="nope")
    with pytest.raises(fbe.NotFoundError):
        proto.receiver(package="nope")


def test_lookup_error_text(proto: fbe.Schema, protoex: fbe.Schema) -> None:
    # the core's words (fbei_error_unknown_type), the nearest name suggested
    for lookup in (lambda: proto["Acount"], lambda: proto.Acount, lambda: proto.proto.Acount):
        with pytest.raises(fbe.NotFoundError) as info:
            lookup()
        assert str(info.value) == "no type 'Acount' in package proto (did you mean 'Account'?)"
        assert info.value.code == fbe._swig.FBE_ERR_NOT_FOUND and isinstance(info.value, AttributeError)
    with pytest.raises(fbe.NotFoundError) as info:
        protoex.proto.Acount
    assert str(info.value) == "no type 'proto.Acount' in package protoex (did you mean 'proto.Account'?)"
    with pytest.raises(fbe.NotFoundError) as info:
        proto.encode("Acount", {})
    assert str(info.value) == "no struct 'Acount' in package proto (did you mean 'Account'?)"
    with pytest.raises(fbe.NotFoundError) as info:
        proto["Zzzzzzzzzz"]
    assert str(info.value) == "no type 'Zzzzzzzzzz' in package proto"


# ---- encode: wrong types, ranges, unknown fields -------------------------------------

@pytest.mark.parametrize("field,value,error", [
    ("id", "1", fbe.TypeMismatchError),
    ("id", 1.0, fbe.TypeMismatchError),
    ("id", None, fbe.TypeMismatchError),
    ("id", 2**31, fbe.RangeError),
    ("id", -(2**31) - 1, fbe.RangeError),
    ("id", 2**80, fbe.RangeError),
    ("name", b"bytes", fbe.TypeMismatchError),
    ("name", 5, fbe.TypeMismatchError),
    ("name", "\ud800", fbe.ArgumentError),
    ("state", "nosuch", fbe.ArgumentError),
    ("state", 1.0, fbe.TypeMismatchError),
    ("state", 256, fbe.RangeError),
    ("state", -1, fbe.RangeError),
    ("wallet", None, fbe.TypeMismatchError),
    ("wallet", 3, fbe.TypeMismatchError),
    ("asset", "x", fbe.TypeMismatchError),
    ("orders", "abc", fbe.TypeMismatchError),
    ("orders", {"a": 1}, fbe.TypeMismatchError),
    ("orders", 5, fbe.TypeMismatchError),
    ("orders", [None], fbe.TypeMismatchError),
])
def test_encode_field_errors(proto: fbe.Schema, field: str, value: Any, error: type) -> None:
    acc = readme_account(proto)
    setattr(acc, field, value)
    for final in (False, True):
        with pytest.raises(error) as info:
            acc.encode(final=final)
        assert info.value.path == (field + "[0]" if value == [None] else field)
        assert info.value.offset is None
    with pytest.raises(error):
        acc.to_json()


def test_error_paths(proto: fbe.Schema, test_schema: fbe.Schema) -> None:
    acc = readme_account(proto)
    acc.orders[1].symbol = 7
    with pytest.raises(fbe.TypeMismatchError) as info:
        acc.encode()
    assert info.value.path == "orders[1].symbol"
    assert str(info.value) == "expected string, got an integer at 'orders[1].symbol'"
    acc.orders[1].symbol = "ok"
    acc.orders[2].side = proto.State.good  # a member of another enum
    with pytest.raises(fbe.TypeMismatchError) as info:
        acc.encode()
    assert info.value.path == "orders[2].side"
    assert info.value.message == "expected proto.OrderSide, got an enum proto.State"
    m = test_schema.StructMap(f1={1: 300})
    with pytest.raises(fbe.RangeError) as info:
        m.encode()
    assert info.value.path == "f1[0]" and "300" in str(info.value)
    m = test_schema.StructMap(f1={"k": 1})
    with pytest.raises(fbe.TypeMismatchError) as info:
        m.encode()
    assert info.value.path == "f1[0][key]" and info.value.message == "expected int32, got a string"
    with pytest.raises(fbe.TypeMismatchError):
        test_schema.StructMap(f1=[(1, 2, 3)]).encode()
    with pytest.raises(fbe.TypeMismatchError):
        test_schema.StructMap(f1=5).encode()


def test_scalar_ranges(test_schema: fbe.Schema) -> None:
    S = test_schema.StructSimple
    cases = [("f3", 256), ("f3", -1), ("f9", 128), ("f9", -129), ("f11", 256), ("f13", 2**15),
             ("f15", 2**16), ("f17", 2**31), ("f19", 2**32), ("f19", -1), ("f21", 2**63),
             ("f23", 2**64), ("f23", -1), ("f33", -1), ("f33", 2**64), ("f5", 256), ("f5", "Ф"),
             ("f7", 2**32), ("f25", 1e39), ("f27", 10**400),
             ("f29", Decimal("1E+30")), ("f29", Decimal("1E-29")), ("f29", 2**100), ("f29", "1E+30")]
    for field, value in cases:
        with pytest.raises(fbe.RangeError, match="does not fit") as info:
            S(**{field: value}).encode()
        assert info.value.path == field, (field, value)
    for field, value in [("f1", 2), ("f1", 1), ("f1", "yes"), ("f29", 1.5), ("f29", "x"), ("f36", 5),
                         ("f5", "ab"), ("f25", "1.0"), ("f36", b"x" * 16), ("f31", None), ("f17", True),
                         ("f1", None), ("f41", {"nope": 1}), ("f29", Decimal("NaN"))]:
        with pytest.raises(fbe.Error) as info2:
            S(**{field: value}).encode()
        assert info2.value.path.startswith(field), (field, value)
    with pytest.raises(fbe.ArgumentError):
        S(f36="not-a-uuid").encode()
    # in range: the extremes encode and come back exactly
    ok = S(f3=255, f9=-128, f13=-(2**15), f19=2**32 - 1, f21=-(2**63), f23=2**64 - 1, f7=0x10FFFF,
           f25=3.4e38, f27=2**53 + 1, f29=Decimal("79228162514264337593543950335"), f1=True)
    back = S.decode(ok.encode())
    assert (back.f3, back.f9, back.f23, back.f7) == (255, -128, 2**64 - 1, 0x10FFFF)
    assert back.f29 == Decimal("79228162514264337593543950335") and back.f1 is True
    assert back.f27 == 2.0**53  # an int for a double: the nearest double, as JSON reads it
    # objects with __index__ are ints; a bool is not (docs/INPUT.md)
    class Index:
        def __index__(self) -> int:
            return 5
    assert S.decode(S(f17=Index()).encode()).f17 == 5
    assert S.decode(S(f29="1.5").encode()).f29 == Decimal("1.5")


def test_unknown_fields(proto: fbe.Schema) -> None:
    with pytest.raises(fbe.UnknownFieldError) as info:
        proto.encode("Account", {"id": 1, "nmae": "x"})
    assert "nmae" in str(info.value) and isinstance(info.value, KeyError)
    assert isinstance(info.value, fbe.NotFoundError) and info.value.code == fbe._swig.FBE_ERR_UNKNOWN_FIELD
    assert info.value.status == "FBE_ERR_UNKNOWN_FIELD"
    assert str(info.value) == "unknown field 'nmae' of proto.Account"  # 2 edits: too far for a hint
    with pytest.raises(fbe.UnknownFieldError, match=r"^unknown field 'nme' of proto.Account \(did you mean 'name'\?\)$"):
        proto.Account(nme="x")
    with pytest.raises(fbe.UnknownFieldError) as info:
        proto.encode("Account", {"wallet": {"currency": "x", "amt": 1.0}})
    assert info.value.path == "wallet"
    with pytest.raises(fbe.UnknownFieldError):
        proto.encode("Account", {1: 2})
    with pytest.raises(fbe.TypeMismatchError):
        proto.encode("Account", [1, 2])
    with pytest.raises(fbe.TypeMismatchError):
        proto.encode("Account", proto.Order())


def test_array_lengths(test_schema: fbe.Schema) -> None:
    with pytest.raises(fbe.RangeError) as info:
        test_schema.StructArray(f1=[1, 2, 3]).encode()
    assert info.value.path == "f1" and info.value.message == "expected 2 elements for array[2] of byte, got 3"
    with pytest.raises(fbe.TypeMismatchError):
        test_schema.StructArray(f1=b"ab").encode()


def test_lone_surrogate_refused_by_the_core(proto: fbe.Schema) -> None:
    """A str with a lone surrogate has no UTF-8 form: the core's check refuses it (the
    same status and text in every binding), nothing is replaced with U+FFFD."""
    for text, what in (("\ud800x!", "a UTF-16 surrogate (U+D800) at byte 0 of 5"),
                       ("ab\udfff", "a UTF-16 surrogate (U+DFFF) at byte 2 of 5")):
        acc = readme_account(proto)
        acc.name = text
        for final in (False, True):
            with pytest.raises(fbe.ArgumentError) as info:
                acc.encode(final=final)
            assert info.value.status == "FBE_ERR_ARGUMENT" and info.value.path == "name"
            assert info.value.message == "string is not valid UTF-8: " + what
    acc = readme_account(proto)
    acc.orders[1].symbol = "\udc00"
    with pytest.raises(fbe.ArgumentError) as info:
        acc.encode()
    assert info.value.path == "orders[1].symbol"
    acc.orders[1].symbol = "\U0001F600 \u00e9"  # a pair in Python is one code point: fine
    assert proto.Account.decode(acc.encode()).orders[1].symbol == "\U0001F600 \u00e9"


def chain_final(schema: fbe.Schema, levels: int) -> bytes:
    """Final-model bytes of `struct N { int32 v; N? next; }` nested `levels` optionals deep,
    one level added by hand beyond what encode writes (each level: v, then flag 1)."""
    node = schema.N(v=0)
    for _ in range(min(levels, 256)):
        node = schema.N(v=0, next=node)
    data = node.encode(final=True)
    for _ in range(levels - 256):
        body = data[8:]
        data = (len(data) + 5).to_bytes(4, "little") + data[4:8] + b"\0\0\0\0\1" + body
    return data


def test_depth_boundary_is_the_cores(proto: fbe.Schema) -> None:
    """256 levels of optionals encode and decode (both models), 257 are refused with
    LimitError by encode and by decode: the core's rule, with no lower cap here."""
    schema = fbe.loads("package deep\nstruct N { int32 v; N? next; }\n")
    node = schema.N(v=0)
    for _ in range(256):
        node = schema.N(v=0, next=node)
    for final in (False, True):
        data = node.encode(final=final)
        back = schema.N.decode(data, final=final)
        assert back == node
        assert schema.N.decode(data, final=final, trusted=True) == node
    assert chain_final(schema, 256) == node.encode(final=True)
    deeper = schema.N(v=0, next=node)
    for final in (False, True):
        with pytest.raises(fbe.LimitError) as info:
            deeper.encode(final=final)
        assert "nested deeper than 256 levels" in str(info.value)
    data = chain_final(schema, 257)
    assert not schema.N.verify(data, final=True)
    for trusted in (False, True):
        with pytest.raises(fbe.LimitError) as info:
            schema.N.decode(data, final=True, trusted=trusted)
        assert "nesting deeper than 256 levels" in str(info.value)


def test_depth_boundary_in_a_small_thread_stack() -> None:
    """256 levels through encode, decode and JSON (with the Python objects built) fit a
    512 KiB thread stack: the walks are bounded by the core's depth rule. In a process of
    its own, so that the thread's scratch memory is not counted by the memory tests."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import threading, fbe
        schema = fbe.loads("package deep\\nstruct N { int32 v; N? next; int32[] xs; }\\n")
        node = schema.N(v=0, xs=[1])
        for _ in range(255):
            node = schema.N(v=0, next=node)
        results = []
        def run():
            for final in (False, True):
                data = node.encode(final=final)
                results.append(schema.N.decode(data, final=final) == node)
                results.append(schema.N.from_json(node.to_json()) == node)
        threading.stack_size(512 * 1024)
        t = threading.Thread(target=run)
        t.start()
        t.join()
        print(results)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == str([True] * 4), proc.stdout + proc.stderr


def test_too_deep(proto: fbe.Schema) -> None:
    schema = fbe.loads("package r\nstruct Node { int32 v; Node? next; Node[] kids; }\n")
    node = schema.Node(v=1)
    node.next = node  # a cycle: must not recurse forever
    with pytest.raises(fbe.LimitError):
        node.encode()
    kids: List[Any] = []
    node2 = schema.Node(kids=kids)
    kids.append(node2)
    with pytest.raises(fbe.LimitError):
        node2.encode()
    chain = schema.Node(v=0)
    for i in range(100):
        chain = schema.Node(v=i, next=chain)
    assert schema.Node.decode(chain.encode()).next.next.v == 97


def test_unhashable_set_element() -> None:
    # a struct without [key] fields has no hash: a set of them decodes as a list only
    schema = fbe.loads("package h\nstruct K { int32[] v; }\nstruct S { K! items; }\n"
                       "struct L { [key] int32[] v; }\nstruct T { L! items; }\n")
    value = schema.S(items=[schema.K(v=[1]), schema.K(v=[2])])
    data = value.encode()
    with pytest.raises(fbe.TypeMismatchError, match="ordered=True"):
        schema.S.decode(data)
    # ... and the core's key identity makes keyless elements all alike: one is kept
    assert schema.S.decode(data, ordered=True).items == [schema.K(v=[2])]
    # a [key] field the host cannot hash (a list): the core hashes it
    keyed = schema.T(items=[schema.L(v=[1]), schema.L(v=[2])])
    assert schema.T.decode(keyed.encode()).items == {schema.L(v=[1]), schema.L(v=[2])}


# ---- decode: malformed bytes, wrong inputs --------------------------------------------

def test_decode_errors(proto: fbe.Schema) -> None:
    data = readme_account(proto).encode()
    with pytest.raises(fbe.MalformedError) as info:
        proto.Account.decode(data[:10])
    assert info.value.offset == 0 and "too few" in str(info.value)
    bad = bytearray(data)
    bad[0:4] = (len(data) + 1).to_bytes(4, "little")
    with pytest.raises(fbe.MalformedError) as info:
        proto.Account.decode(bad)
    assert "runs past the end" in info.value.message
    with pytest.raises(fbe.MalformedError):
        proto.Account.decode(b"")
    with pytest.raises(fbe.TypeMismatchError):
        proto.Account.decode("text")  # type: ignore[arg-type]
    with pytest.raises(fbe.TypeMismatchError):
        proto.Account.decode(12)  # type: ignore[arg-type]
    with pytest.raises(fbe.TypeMismatchError):
        proto.Account.verify(None)  # type: ignore[arg-type]
    with pytest.raises(fbe.MalformedError):
        proto.Account.decode(readme_account(proto).encode(final=True)[:40], final=True)
    with pytest.raises(fbe.MalformedError):  # the final model checks the root type id
        proto.Order.decode(readme_account(proto).encode(final=True), final=True)
    # every truncation and every single-byte corruption: decode refuses what verify
    # refuses, with its error; the trusted decode gives an error or a value, never a crash
    for n in range(len(data)):
        assert_decode_refused_as_verify(proto.Account, data[:n])
        try:
            proto.Account.decode(data[:n], trusted=True)
        except fbe.Error:
            pass
    for i in range(len(data)):
        for x in (0x00, 0xFF, 0x80):
            b = bytes(bytearray(data[:i]) + bytes([x]) + data[i + 1:])
            if not proto.Account.verify(b):
                assert_decode_refused_as_verify(proto.Account, b)
            for trusted in (False, True):
                try:
                    proto.Account.decode(b, trusted=trusted)
                except fbe.Error:
                    pass


def error_of(call: Any) -> fbe.Error:
    with pytest.raises(fbe.Error) as info:
        call()
    return info.value


def assert_decode_refused_as_verify(cls: Any, data: bytes, final: bool = False) -> fbe.Error:
    """verify rejects data, and decode raises verify's very error (class, code, message,
    path, offset): the one validate raises."""
    assert cls.verify(data, final=final) is False
    want = error_of(lambda: cls.validate(data, final=final))
    got = error_of(lambda: cls.decode(data, final=final))
    assert (type(got), got.code, got.message, got.path, got.offset) == \
        (type(want), want.code, want.message, want.path, want.offset)
    return got


def test_decode_verifies(proto: fbe.Schema, protoex: fbe.Schema) -> None:
    # another struct's bytes: the type id, in both models (the standard model's decode
    # alone would read the Account's body as an Order)
    for final in (False, True):
        data = readme_account(proto).encode(final=final)
        err = assert_decode_refused_as_verify(proto.Order, data, final)
        assert isinstance(err, fbe.MalformedError)
        assert err.message == "type id 3 where proto.Order (1) was expected"
        assert err.offset == (4 if final else 12) and err.path == ""
        if final:  # the final model's decoder checks the root type id itself
            with pytest.raises(fbe.MalformedError):
                proto.Order.decode(data, final=True, trusted=True)
        else:  # the trusted decode reads the Account's body as an Order
            assert isinstance(proto.Order.decode(data, trusted=True), proto.Order)
    # the public malformed records: decode fails with verify's reason
    schemas = {}
    for rec in records("malformed.jsonl"):
        if rec["schema"] not in schemas:
            schemas[rec["schema"]] = fbe.load_package(rec["schema"], include=[SCHEMAS])
        cls = schemas[rec["schema"]][f"{rec['schema']}.{rec['type']}"]
        assert_decode_refused_as_verify(cls, bytes.fromhex(rec["hex"]), rec["format"] == "final")
    # a sibling message type of another schema version (type ids differ): refused by
    # default, read with trusted=True
    sent = protoex["proto.OrderMessage"](body=protoex["proto.Order"](id=7, symbol="EURUSD"))
    data = sent.encode()
    reader = protoex["protoex.OrderMessage"]
    err = assert_decode_refused_as_verify(reader, data)
    assert "type id" in err.message and err.offset == 12
    got = reader.decode(data, trusted=True)
    assert (got.body.id, got.body.symbol, got.body.tp, got.body.sl) == (7, "EURUSD", 10.0, -10.0)
    assert protoex.decode("protoex.OrderMessage", data, trusted=True) == got
    with pytest.raises(fbe.MalformedError):
        protoex.decode("protoex.OrderMessage", data)


def test_validate(proto: fbe.Schema) -> None:
    data = readme_account(proto).encode()
    final = readme_account(proto).encode(final=True)
    assert proto.Account.validate(data) == len(data) == 252
    assert proto.Account.validate(final, final=True) == len(final)
    assert proto.Account.validate(data + b"next") == 252  # the model, not the buffer
    assert proto.validate("Account", data) == 252
    err = error_of(lambda: proto.Account.validate(data[:10]))
    assert isinstance(err, fbe.MalformedError) and err.offset == 0 and "too few" in err.message
    bad = bytearray(data)
    bad[0x68:0x6C] = (0x7FFFFFFF).to_bytes(4, "little")  # orders count
    err = error_of(lambda: proto.Account.validate(bytes(bad)))
    assert err.path == "orders" and err.offset == 104 and "do not fit" in err.message
    assert str(err) == f"{err.message} at 'orders' (offset 104)"
    with pytest.raises(fbe.TypeMismatchError):
        proto.Account.validate(None)  # type: ignore[arg-type]


def test_invalid_utf8(proto: fbe.Schema) -> None:
    data = bytearray(proto.Order(symbol="ABCDEF").encode())
    at = data.index(b"ABCDEF")
    data[at] = 0xFF
    with pytest.raises(fbe.MalformedError) as info:
        proto.Order.decode(bytes(data))
    assert info.value.path == "symbol" and "UTF-8" in str(info.value)


def test_json_errors(proto: fbe.Schema) -> None:
    with pytest.raises(fbe.JSONError):
        proto.Account.from_json("{not json")
    with pytest.raises(fbe.Error):
        proto.Account.from_json('{"id": "x"}')
    with pytest.raises(fbe.TypeMismatchError):
        proto.Account.from_json(5)  # type: ignore[arg-type]


def test_module_function_errors(proto: fbe.Schema) -> None:
    with pytest.raises(TypeError):
        _core.encode(int, {})
    with pytest.raises(TypeError):
        _core.encode(proto.Account)
    with pytest.raises(TypeError):
        _core.decode(proto.Account, b"", bogus=1)
    with pytest.raises(TypeError):
        proto.Account().encode(True, False)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        proto.Account.decode(b"", final=False, final2=True)  # type: ignore[call-arg]


# ---- protocol --------------------------------------------------------------------------

def test_sender_errors(proto: fbe.Schema) -> None:
    def refuse(data: bytes) -> None:
        raise OSError("disk full")

    sender = proto.sender(refuse)
    with pytest.raises(OSError, match="disk full"):
        sender.send(proto.OrderMessage())
    with pytest.raises(fbe.TypeMismatchError):
        proto.sender(print).send(proto.Order())  # not a message of the protocol
    with pytest.raises(fbe.TypeMismatchError):
        proto.sender(print).send("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        proto.sender(5)
    bad = proto.OrderMessage(body=proto.Order(id="x"))
    with pytest.raises(fbe.TypeMismatchError) as info:
        proto.sender(print).send(bad)
    assert info.value.path == "body.id"


def test_receiver_errors(proto: fbe.Schema) -> None:
    chunks: List[bytes] = []
    sender = proto.sender(chunks.append)
    for i in range(3):
        sender.send(proto.OrderMessage(body=proto.Order(id=i)))
    good = b"".join(chunks)
    # a handler that raises: the exception comes out, the rest of the stream stays queued
    seen: List[Any] = []

    def handler(msg: Any) -> None:
        seen.append(msg)
        if msg.body.id == 1:
            raise RuntimeError("stop here")

    r = proto.receiver(handler)
    with pytest.raises(RuntimeError, match="stop here"):
        r.feed(good)
    assert [m.body.id for m in seen] == [0, 1]
    r.feed(b"")
    assert [m.body.id for m in seen] == [0, 1, 2]
    # a corrupt frame: an fbe.Error with the stream offset and what came before it
    corrupt = bytearray(good)
    second = len(chunks[0])
    corrupt[second:second + 4] = (3).to_bytes(4, "little")  # a frame size under the minimum
    r2 = proto.receiver()
    with pytest.raises(fbe.Error) as info:
        r2.feed(bytes(corrupt))
    assert info.value.offset == second
    assert [m.body.id for m in info.value.received] == [0]  # type: ignore[attr-defined]
    assert r2.feed(good) is not None  # starts afresh
    with pytest.raises(fbe.TypeMismatchError):
        r2.feed("text")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        proto.receiver(5)  # type: ignore[arg-type]
    # re-entrant feed from the handler is refused, not corrupting
    holder: List[Any] = []

    def reenter(msg: Any) -> None:
        holder[0].feed(good)

    r3 = proto.receiver(reenter)
    holder.append(r3)
    with pytest.raises(RuntimeError, match="re-entrant"):
        r3.feed(good)


def test_random_values_never_crash(test_schema: fbe.Schema) -> None:
    """Random Python values in every field of every test struct: bytes that decode back,
    or an fbe.Error naming the field; never a crash or another exception."""
    import random

    rng = random.Random(1234)
    T = test_schema
    pool: List[Any] = [None, True, 0, -1, 255, 2**31, 2**64, -(2**63) - 1, 1.5, float("nan"),
                       float("inf"), "", "x", "Ф", "\ud800", b"", b"ab", bytearray(b"c"), [], [1, 2],
                       (None,), {}, {1: 2}, {"a": b"b"}, set(), {3}, frozenset({4}), Decimal("1.5"),
                       Decimal("NaN"), uuid.UUID(int=5), object(), T.StructSimple(), T.EnumSimple.ENUM_VALUE_1,
                       T.FlagsSimple.FLAG_VALUE_1, [T.StructSimple()], {1: T.StructSimple()}, [[1]],
                       [(1, 2)], [b"x", None], T.proto.Order(), {T.StructSimple(id=1): None}]
    classes = [T[name] for name in ("StructSimple", "StructOptional", "StructNested", "StructBytes",
                                    "StructArray", "StructVector", "StructList", "StructSet", "StructMap",
                                    "StructHash", "StructHashEx")]
    outcomes = {"ok": 0, "error": 0}
    for _ in range(3000):
        cls = rng.choice(classes)
        value = cls()
        for name in rng.sample(cls.__fbe_fields__, k=min(3, len(cls.__fbe_fields__))):
            setattr(value, name, rng.choice(pool))
        for final in (False, True):
            try:
                data = value.encode(final=final)
            except fbe.Error as exc:
                assert exc.path, exc
                outcomes["error"] += 1
                continue
            assert cls.verify(data, final=final)
            cls.decode(data, final=final, ordered=True)
            outcomes["ok"] += 1
    assert outcomes["ok"] > 0 and outcomes["error"] > 100

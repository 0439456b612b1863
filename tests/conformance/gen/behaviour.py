#!/usr/bin/env python3
"""Writes tests/conformance/behaviour.jsonl: the bad inputs of docs/INPUT.md, each with
the status every testee must answer (Python standard library only; no randomness).

  behaviour.py [-o OUT.jsonl] [--check] [--summary]

Every record is one mistake, written by hand below, by the row of the input table it
belongs to and the type kind it hits: wrong host kinds, numbers out of range, bad text
(uuids, decimals, characters, enum and flags names, Base64), unknown field names (near
and far), wrong struct shapes, mistakes deep inside collections, and bytes that are not
the model they are read as (truncated, the other model, a wrong type id, the malformed
buffers of malformed.jsonl and malformed-extra.jsonl). The record format is in
docs/TESTEE.md ("Behaviour records"); the runner sends them with --behaviour.

The two paths differ only where the JSON form says so (docs/JSON.md): a JSON number is
exact text, so it is a decimal's value there, while the native path hands the host a
binary float; JSON takes a negative number for an unsigned field modulo 2^bits (the Java
reference writes them signed) and 64-bit integers as strings; a JSON char is its code.
Such records carry `native_status`, or run on one path only.

--check compares the output with the committed file instead of writing it (exit 1 when
they differ): ctest `conformance_behaviour_file` runs it.
"""
import argparse
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(CONFORMANCE))
OUT = os.path.join(CONFORMANCE, "behaviour.jsonl")
INPUT_MD = os.path.join(REPO, "docs", "INPUT.md")

TYPE, RANGE, ARGUMENT, UNKNOWN = "FBE_ERR_TYPE", "FBE_ERR_RANGE", "FBE_ERR_ARGUMENT", "FBE_ERR_UNKNOWN_FIELD"
MALFORMED, LIMIT, JSON_ERROR = "FBE_ERR_MALFORMED", "FBE_ERR_LIMIT", "FBE_ERR_JSON"
BOTH, JSON_ONLY, NATIVE_ONLY = ["json", "native"], ["json"], ["native"]


class Raw(str):
    """A JSON number written as this text (1e2, 1e309: Python would write 100.0, Infinity)."""


RAW_MARK = "\0raw:"

# Every type kind (docs/TESTEE.md, describe): each has records.
KINDS = ("bool byte char wchar int8 uint8 int16 uint16 int32 uint32 int64 uint64 float double decimal timestamp "
         "uuid string bytes enum flags struct optional array vector list set map hash").split()

# Integer kinds of test.StructSimple: field, minimum, maximum.
INTEGERS = [
    ("byte", "f3", 0, 2**8 - 1), ("int8", "f9", -2**7, 2**7 - 1), ("uint8", "f11", 0, 2**8 - 1),
    ("int16", "f13", -2**15, 2**15 - 1), ("uint16", "f15", 0, 2**16 - 1),
    ("int32", "f17", -2**31, 2**31 - 1), ("uint32", "f19", 0, 2**32 - 1),
    ("int64", "f21", -2**63, 2**63 - 1), ("uint64", "f23", 0, 2**64 - 1),
]
# enums.Enums: an enum field on every base, and the base's limits.
ENUM_BASES = [
    ("byte0", "byte", 0, 2**8 - 1), ("char0", "char", 0, 2**8 - 1), ("wchar0", "wchar", 0, 2**32 - 1),
    ("int8b0", "int8", -2**7, 2**7 - 1), ("uint8b0", "uint8", 0, 2**8 - 1),
    ("int16b0", "int16", -2**15, 2**15 - 1), ("uint16b0", "uint16", 0, 2**16 - 1),
    ("int32b0", "int32", -2**31, 2**31 - 1), ("uint32b0", "uint32", 0, 2**32 - 1),
    ("int64b0", "int64", -2**63, 2**63 - 1), ("uint64b0", "uint64", 0, 2**64 - 1),
]


class Records:
    def __init__(self):
        self.items, self.ids = [], set()

    def add(self, rec):
        if rec["id"] in self.ids:
            sys.exit("behaviour: two records are named %s" % rec["id"])
        self.ids.add(rec["id"])
        self.items.append(rec)

    def bad(self, row, kind, schema, type_, value, status, what, paths=BOTH, native_status=None, note=None,
            model="standard"):
        """An encode record: `value` (the JSON of type_) must be refused with `status` on
        every path of `paths` (the native path: `native_status` when given)."""
        rec = {"id": "%s-%s-%s" % (row, type_, slug(what)), "schema": schema, "type": type_, "model": model,
               "op": "encode", "json": value, "paths": paths, "status": status}
        if native_status and native_status != status:
            if "native" not in paths or "json" not in paths:
                sys.exit("behaviour: %s: native_status wants both paths" % rec["id"])
            rec["native_status"] = native_status
        rec.update(row=row, kind=kind, note=note or what)
        self.add(rec)

    def bad_bytes(self, schema, type_, model, data, what, status=MALFORMED, base=None):
        """A decode record: `data` read as schema.type_ in `model` must be refused."""
        rec = {"id": "decode-%s-%s-%s" % (type_, model, slug(what)), "schema": schema, "type": type_,
               "model": model, "op": "decode", "hex": data.hex(), "status": status, "note": what}
        if base:
            rec["base"] = base
        self.add(rec)


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def load(name):
    with open(os.path.join(CONFORMANCE, name), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# ---- the rows of docs/INPUT.md ----

def scalars(r):
    """bool, int, char, float, decimal, timestamp, uuid, string, bytes (the scalar rows)."""
    s = "StructSimple"
    def simple(row, kind, field, value, status, what, **kw):
        r.bad(row, kind, "test", s, {field: value}, status, "%s %s %s" % (kind, field, what), **kw)

    # bool: the host boolean only
    for value, what in ((1, "integer 1"), (0, "integer 0"), ("true", "the string true"), (1.5, "a float"),
                        ([], "a list"), ({}, "a map")):
        simple("bool", "bool", "f1", value, TYPE, what)

    # int: every integer kind at both ends, and the wrong kinds
    for kind, field, lo, hi in INTEGERS:
        simple("int", kind, field, hi + 1, RANGE, "max plus one")
        if lo < 0:
            simple("int", kind, field, lo - 1, RANGE, "min minus one")
        else:
            # JSON reads a negative number for an unsigned field modulo 2^bits (JSON.md)
            simple("int", kind, field, -1, RANGE, "minus one", paths=NATIVE_ONLY,
                   note="-1 for an unsigned field: refused natively; JSON takes it modulo 2^bits (JSON.md)")
            simple("int", kind, field, -(hi + 1) // 2 - 1, RANGE, "below the signed minimum")
        simple("int", kind, field, 1.5, TYPE, "a float")
        simple("int", kind, field, True, TYPE, "a boolean")
        simple("int", kind, field, [1], TYPE, "a list")
        simple("int", kind, field, 1.0, TYPE, "the float 1.0", paths=JSON_ONLY,
               note="1.0 is not an integer in JSON; a JavaScript host cannot tell it from 1")
        simple("int", kind, field, Raw("1e2"), TYPE, "an exponent", paths=JSON_ONLY,
               note="1e2 is a JSON number with an exponent, not an integer")
        if kind.endswith("64"):
            simple("int", kind, field, "7", TYPE, "a string of digits", paths=NATIVE_ONLY,
                   note="JSON takes 64-bit integers as strings too (JSON.md); a host string is no integer")
        else:
            simple("int", kind, field, "7", TYPE, "a string of digits")

    # char: a one-character string or the code
    for kind, field, limit in (("char", "f5", 2**8), ("wchar", "f7", 2**32)):
        simple("char", kind, field, limit, RANGE, "a code beyond its range")
        simple("char", kind, field, -1, RANGE, "code minus one", paths=NATIVE_ONLY,
               note="JSON takes a negative code modulo 2^bits (JSON.md)")
        simple("char", kind, field, "ab", TYPE, "two characters", native_status=ARGUMENT,
               note="JSON writes a char as its code, so a string is the wrong kind; natively it is text of "
                    "the wrong length")
        simple("char", kind, field, "", TYPE, "the empty string", native_status=ARGUMENT)
        simple("char", kind, field, 1.5, TYPE, "a float")
        simple("char", kind, field, False, TYPE, "a boolean")
    simple("char", "char", "f5", "\u0444", TYPE, "a character above U+00FF", native_status=RANGE,
           note="one character whose code point does not fit a char")

    # float: numbers; beyond float32 is out of range
    for value, what in ((1e39, "beyond float32"), (-3.5e38, "below minus float32 max")):
        simple("float", "float", "f25", value, RANGE, what)
    simple("float", "double", "f27", Raw("1e309"), RANGE, "beyond double", paths=JSON_ONLY,
           note="a JSON number beyond double; a host parser reads it as infinity, which a double holds")
    for kind, field in (("float", "f25"), ("double", "f27")):
        simple("float", kind, field, "1.5", TYPE, "a string")
        simple("float", kind, field, True, TYPE, "a boolean")
        simple("float", kind, field, [1.5], TYPE, "a list")
    simple("float", "double", "f27", {}, TYPE, "a map")

    # decimal: exact values only
    for text, what in (("abc", "letters"), ("", "the empty string"), ("1.2.3", "two points"), ("1e", "no exponent digits"),
                       ("--1", "two signs"), ("1,5", "a comma"), ("0x10", "hexadecimal")):
        simple("decimal", "decimal", "f29", text, ARGUMENT, "text " + what)
    for text, what in (("79228162514264337593543950336", "2 to the 96"), ("1E+29", "1E+29"),
                       ("-79228162514264337593543950336", "minus 2 to the 96"), ("1E-29", "scale 29"),
                       ("0.00000000000000000000000000001", "29 decimal places")):
        simple("decimal", "decimal", "f29", text, RANGE, "text " + what)
    simple("decimal", "decimal", "f29", 1.5, TYPE, "a float", paths=NATIVE_ONLY,
           note="a JSON number is exact decimal text in JSON (JSON.md); natively it is a binary float")
    simple("decimal", "decimal", "f29", 1e30, RANGE, "a number beyond 96 bits", native_status=TYPE,
           note="JSON reads the number's text exactly (too large); natively it is a binary float")
    for value, what in ((True, "a boolean"), ([], "a list"), ({}, "a map")):
        simple("decimal", "decimal", "f29", value, TYPE, what)

    # timestamp: integer nanoseconds
    simple("timestamp", "timestamp", "f33", 1.5, TYPE, "a float")
    simple("timestamp", "timestamp", "f33", 2**64, RANGE, "beyond 2^64 ns")
    simple("timestamp", "timestamp", "f33", -1, RANGE, "before 1970", paths=NATIVE_ONLY,
           note="JSON takes a negative number modulo 2^64 (JSON.md)")
    simple("timestamp", "timestamp", "f33", "1543145597933000000", TYPE, "a string of digits", paths=NATIVE_ONLY,
           note="JSON takes 64-bit integers as strings (JSON.md); a host string is no timestamp")
    simple("timestamp", "timestamp", "f33", "2018-11-25T11:33:17Z", TYPE, "ISO text", paths=NATIVE_ONLY,
           note="a host string is no timestamp")
    for value, what in ((True, "a boolean"), ({}, "a map"), ([1], "a list")):
        simple("timestamp", "timestamp", "f33", value, TYPE, what)

    # uuid: the host uuid or its 8-4-4-4-12 text
    for text, what in (("xyz", "letters"), ("", "the empty string"),
                       ("123e4567-e89b-12d3-a456-42665544000", "one digit short"),
                       ("123e4567-e89b-12d3-a456-4266554400000", "one digit long"),
                       ("123e4567e89b12d3a456426655440000", "no hyphens"),
                       ("{123e4567-e89b-12d3-a456-426655440000}", "in braces"),
                       ("123e4567-e89b-12d3-a456-42665544000g", "a g"),
                       ("urn:uuid:123e4567-e89b-12d3-a456-426655440000", "a urn"),
                       ("123e4567-e89b-12d3-a456_426655440000", "an underscore")):
        simple("uuid", "uuid", "f36", text, ARGUMENT, "text " + what)
    for value, what in ((42, "an integer"), (True, "a boolean"), ([], "a list")):
        simple("uuid", "uuid", "f36", value, TYPE, what)

    # string: host text, valid UTF-8
    for value, what in ((42, "an integer"), (True, "a boolean"), (1.5, "a float"), ([], "a list"), ({}, "a map")):
        simple("string", "string", "f31", value, TYPE, what)
    for value, what in (("\ud800", "a lone high surrogate"), ("a\udc00b", "a lone low surrogate")):
        simple("string", "string", "f31", value, JSON_ERROR, what, native_status=ARGUMENT,
               note="a lone surrogate escape is no JSON string (JSON.md: FBE_ERR_JSON); natively the host string "
                    "is not UTF-8, which every binding refuses and none replaces")

    # bytes: host bytes (Base64 text in JSON)
    for value, what in ((42, "an integer"), (True, "a boolean"), ([1, 2], "a list"), ({}, "a map")):
        r.bad("bytes", "bytes", "test", "StructBytes", {"f1": value}, TYPE, "bytes f1 " + what)
    for text, what in (("%%%", "not Base64"), ("QUJ", "bad padding"), ("QU=D", "padding inside")):
        r.bad("bytes", "bytes", "test", "StructBytes", {"f1": text}, ARGUMENT, "bytes f1 " + what,
              paths=JSON_ONLY, note="bad Base64 in JSON; natively a string is no bytes (Ruby: its bytes)")


def enums(r):
    """enum and flags: members, integers, names."""
    def simple(row, kind, field, value, status, what, type_="StructSimple", schema="test", **kw):
        r.bad(row, kind, schema, type_, {field: value}, status, "%s %s" % (field, what), **kw)

    for text, what in (("sideways", "an undeclared name"), ("Sell", "the wrong case"), ("", "the empty name"),
                       ("buy|sell", "two names"), ("1", "a number as text"), (" buy", "a leading space")):
        simple("enum", "enum", "f39", text, ARGUMENT, what)
    simple("enum", "enum", "f40", "marketplace", ARGUMENT, "an undeclared name")
    simple("enum", "enum", "f40", "ENUM_VALUE_1", ARGUMENT, "a name of another enum")
    simple("enum", "enum", "f39", 256, RANGE, "beyond byte")
    simple("enum", "enum", "f39", -1, RANGE, "minus one", paths=NATIVE_ONLY,
           note="JSON takes a negative number modulo 2^bits (JSON.md)")
    for value, what in ((1.5, "a float"), (True, "a boolean"), ([0], "a list"), ({}, "a map")):
        simple("enum", "enum", "f39", value, TYPE, what)
    simple("enum", "enum", "f1000", "ENUM_VALUE_9", ARGUMENT, "an undeclared name", type_="StructNested")
    simple("enum", "enum", "f1002", "ENUM_VALUE_X", ARGUMENT, "an undeclared name", type_="StructNested")
    simple("enum", "enum", "f1002", 256, RANGE, "beyond char", type_="StructNested")
    for field, base, lo, hi in ENUM_BASES:
        simple("enum", "enum", field, hi + 1, RANGE, "beyond " + base, type_="Enums", schema="enums")
        if lo < 0:
            simple("enum", "enum", field, lo - 1, RANGE, "below " + base, type_="Enums", schema="enums")
    simple("enum", "enum", "int64b0", "ENUM_VALUE_6", ARGUMENT, "an undeclared name", type_="Enums",
           schema="enums")

    for text, what in (("wrong", "an undeclared name"), ("initialized|wrong", "one undeclared name of two"),
                       ("initialized||calculated", "an empty name between bars"), ("|", "a bar alone"),
                       ("", "the empty text"), ("0x2", "a hexadecimal number"), ("Good", "the wrong case"),
                       ("initialized,calculated", "names joined by a comma"), ("buy", "a name of another enum")):
        simple("flags", "flags", "f43", text, ARGUMENT, what)
    simple("flags", "flags", "f43", 256, RANGE, "beyond byte")
    simple("flags", "flags", "f43", -1, RANGE, "minus one", paths=NATIVE_ONLY,
           note="JSON takes a negative number modulo 2^bits (JSON.md)")
    for value, what in ((1.5, "a float"), (False, "a boolean"), (["good"], "a list of names")):
        simple("flags", "flags", "f43", value, TYPE, what)
    simple("flags", "flags", "f1004", "FLAG_VALUE_9", ARGUMENT, "an undeclared name", type_="StructNested")
    simple("flags", "flags", "f1004", 2**32, RANGE, "beyond 32 bits", type_="StructNested")
    simple("flags", "flags", "f1006", "FLAG_VALUE_1|FLAG_VALUE_99", ARGUMENT, "one undeclared name of two",
           type_="StructNested")
    simple("flags", "flags", "f1006", 2**64, RANGE, "beyond uint64", type_="StructNested")


def optionals(r):
    """optional: null or what T accepts; T's refusals, named `T or null` (kind: optional)."""
    cases = [
        ("bool", "f100", 1, TYPE, "an integer"), ("byte", "f103", 256, RANGE, "beyond byte"),
        ("char", "f106", 256, RANGE, "beyond char"), ("wchar", "f109", 1.5, TYPE, "a float"),
        ("int8", "f112", -129, RANGE, "below int8"), ("uint8", "f115", "x", TYPE, "a string"),
        ("int16", "f118", 32768, RANGE, "beyond int16"), ("uint16", "f121", True, TYPE, "a boolean"),
        ("int32", "f124", "x", TYPE, "a string"), ("uint32", "f127", 2**32, RANGE, "beyond uint32"),
        ("int64", "f130", 2**63, RANGE, "beyond int64"), ("uint64", "f133", 1.5, TYPE, "a float"),
        ("float", "f136", 1e39, RANGE, "beyond float32"), ("double", "f139", "x", TYPE, "a string"),
        ("decimal", "f142", "abc", ARGUMENT, "bad text"), ("string", "f145", 5, TYPE, "an integer"),
        ("timestamp", "f148", 1.5, TYPE, "a float"), ("uuid", "f151", "nope", ARGUMENT, "bad text"),
        ("enum", "f154", "sideways", ARGUMENT, "an undeclared name"), ("enum", "f156", 256, RANGE, "beyond byte"),
        ("struct", "f158", 5, TYPE, "an integer"), ("struct", "f160", [], TYPE, "a list"),
        ("flags", "f162", "wrong", ARGUMENT, "an undeclared name"), ("struct", "f164", "x", TYPE, "a string"),
    ]
    for kind, field, value, status, what in cases:
        r.bad("optional", "optional", "test", "StructOptional", {field: value}, status, "%s %s %s" % (kind, field, what))
    r.bad("optional", "optional", "test", "StructOptional", {"f142": 1.5}, TYPE, "decimal f142 a float",
          paths=NATIVE_ONLY, note="a JSON number is exact decimal text in JSON; natively a binary float")
    r.bad("optional", "optional", "test", "StructOptional", {"f158": {"symbl": "EURUSD"}}, UNKNOWN,
          "struct f158 an unknown member")
    r.bad("optional", "optional", "test", "StructNested", {"f1001": "NOPE"}, ARGUMENT, "enum f1001 an undeclared name")
    r.bad("optional", "optional", "test", "StructNested", {"f1005": "NOPE"}, ARGUMENT, "flags f1005 an undeclared name")
    r.bad("optional", "optional", "test", "StructNested", {"f1009": {"f1": 1}}, TYPE, "struct f1009 a bad member")
    r.bad("optional", "optional", "test", "StructBytes", {"f2": 5}, TYPE, "bytes f2 an integer")


def arrays(r):
    """array: exactly N elements."""
    cases = [
        ("f1", [1], RANGE, "one element of two"), ("f1", [1, 2, 3], RANGE, "three elements of two"),
        ("f1", [], RANGE, "no element of two"), ("f1", "ab", TYPE, "a string"), ("f1", {}, TYPE, "a map"),
        ("f1", 5, TYPE, "an integer"), ("f1", [1, 300], RANGE, "an element beyond byte"),
        ("f1", [1, "x"], TYPE, "a string element"), ("f2", [None], RANGE, "one null of two"),
        ("f2", [None, "x"], TYPE, "a string element"), ("f3", [5, "QUJD"], TYPE, "an integer for bytes"),
        ("f3", ["QUJD"], RANGE, "one bytes of two"), ("f4", [None, 5], TYPE, "an integer for bytes"),
        ("f5", ["ENUM_VALUE_9", 0], ARGUMENT, "an undeclared enum name"),
        ("f6", [None, "NOPE"], ARGUMENT, "an undeclared enum name in an optional"),
        ("f7", [0, "FLAG_BAD"], ARGUMENT, "an undeclared flags name"),
        ("f8", [1.5, None], TYPE, "a float for flags"), ("f9", [{}, 5], TYPE, "an integer for a struct"),
        ("f9", [{}, {"idd": 1}], UNKNOWN, "an unknown member in an element"),
        ("f9", [{}], RANGE, "one struct of two"), ("f9", [{}, {"f9": 128}], RANGE, "a member beyond int8"),
        ("f10", [None, {"f1": "x"}], TYPE, "a bad member in an optional element"),
    ]
    for field, value, status, what in cases:
        r.bad("array", "array", "test", "StructArray", {field: value}, status, "%s %s" % (field, what),
              model="final" if field in ("f3", "f9") else "standard")


def sequences(r):
    """sequence: vector and list, a host list."""
    cases = [
        ("f1", "x", TYPE, "a string"), ("f1", {}, TYPE, "a map"), ("f1", 5, TYPE, "an integer"),
        ("f1", True, TYPE, "a boolean"), ("f1", [256], RANGE, "an element beyond byte"),
        ("f1", [1, "x"], TYPE, "a string element"), ("f1", [None], TYPE, "a null element"),
        ("f2", [None, 256], RANGE, "an optional element beyond byte"), ("f3", [5], TYPE, "an integer for bytes"),
        ("f4", [None, True], TYPE, "a boolean for bytes"), ("f5", ["NOPE"], ARGUMENT, "an undeclared enum name"),
        ("f6", [1.5], TYPE, "a float for an enum"), ("f7", ["FLAG_VALUE_1|NOPE"], ARGUMENT, "an undeclared flags name"),
        ("f8", [2**32], RANGE, "flags beyond 32 bits"), ("f9", [{"idd": 1}], UNKNOWN, "an unknown member in an element"),
        ("f9", [[]], TYPE, "a list for a struct"), ("f10", [None, 5], TYPE, "an integer for a struct"),
    ]
    for type_, kind in (("StructVector", "vector"), ("StructList", "list")):
        for field, value, status, what in cases:
            r.bad("sequence", kind, "test", type_, {field: value}, status, "%s %s" % (field, what),
                  model="final" if kind == "list" else "standard")
    r.bad("sequence", "vector", "proto", "Account", {"orders": {}}, TYPE, "orders a map")
    r.bad("sequence", "vector", "proto", "Account", {"orders": [5]}, TYPE, "orders an integer element")
    r.bad("sequence", "vector", "proto", "Account", {"orders": [{"price": "x"}]}, TYPE, "orders a bad price")
    r.bad("sequence", "vector", "proto", "Account", {"orders": [{}, {}, {"side": "sideways"}]}, ARGUMENT,
          "orders an undeclared side in the third")


def sets(r):
    """set: a host set or list."""
    cases = [
        ("f1", {}, TYPE, "a map"), ("f1", "x", TYPE, "a string"), ("f1", 5, TYPE, "an integer"),
        ("f1", [256], RANGE, "an element beyond byte"), ("f1", [1, "x"], TYPE, "a string element"),
        ("f1", [None], TYPE, "a null element"), ("f2", ["NOPE"], ARGUMENT, "an undeclared enum name"),
        ("f2", [True], TYPE, "a boolean for an enum"), ("f3", [1.5], TYPE, "a float for flags"),
        ("f3", ["FLAG_VALUE_1|X"], ARGUMENT, "an undeclared flags name"),
        ("f4", [{"nope": 1}], UNKNOWN, "an unknown member in an element"), ("f4", [5], TYPE, "an integer for a struct"),
        ("f4", [{"id": "x"}], TYPE, "a string for a key member"),
    ]
    for field, value, status, what in cases:
        r.bad("set", "set", "test", "StructSet", {field: value}, status, "%s %s" % (field, what))


def maps(r):
    """map and hash: a host map; keys by the key type, paths m[i] and m[i][key]."""
    cases = [
        ("f1", [1, 2], TYPE, "a list"), ("f1", "x", TYPE, "a string"), ("f1", 5, TYPE, "an integer"),
        ("f1", True, TYPE, "a boolean"), ("f1", {"1": 256}, RANGE, "a value beyond byte"),
        ("f1", {"1": 1, "2": 300}, RANGE, "the second value beyond byte"), ("f1", {"1": "x"}, TYPE, "a string value"),
        ("f1", {"1": None}, TYPE, "a null value"), ("f2", {"1": 256}, RANGE, "an optional value beyond byte"),
        ("f2", {"1": "x"}, TYPE, "a string for an optional byte"), ("f3", {"1": 5}, TYPE, "an integer for bytes"),
        ("f4", {"1": True}, TYPE, "a boolean for bytes"), ("f5", {"1": "NOPE"}, ARGUMENT, "an undeclared enum name"),
        ("f6", {"1": 1.5}, TYPE, "a float for an enum"), ("f7", {"1": "NOPE"}, ARGUMENT, "an undeclared flags name"),
        ("f8", {"1": 2**32}, RANGE, "flags beyond 32 bits"), ("f9", {"1": {"bogus": 1}}, UNKNOWN, "an unknown member"),
        ("f9", {"1": 5}, TYPE, "an integer for a struct"), ("f9", {"1": {"f11": 256}}, RANGE, "a member beyond uint8"),
        ("f10", {"1": "x"}, TYPE, "a string for a struct"),
    ]
    for field, value, status, what in cases:
        r.bad("map", "map", "test", "StructMap", {field: value}, status, "%s %s" % (field, what))
        hashed = {("k" + k if k.isdigit() else k): v for k, v in value.items()} if isinstance(value, dict) else value
        r.bad("map", "hash", "test", "StructHash", {field: hashed}, status, "%s %s" % (field, what), model="final")
    # int32 keys: the key's text is the number (JSON); natively a host key of the wrong kind
    r.bad("map", "map", "test", "StructMap", {"f1": {"2147483648": 1}}, RANGE, "f1 a key beyond int32")
    r.bad("map", "map", "test", "StructMap", {"f1": {"1": 1, "-2147483649": 1}}, RANGE,
          "f1 the second key below int32")
    for key, what in (("abc", "letters"), ("1.5", "a fraction"), ("", "the empty key")):
        r.bad("map", "map", "test", "StructMap", {"f1": {key: 1}}, ARGUMENT, "f1 a key of " + what,
              native_status=TYPE, note="JSON map keys are text, here not an integer's; natively the key stays a "
                                       "string, the wrong kind for an int32 key")
    # struct keys: [[key, value], ...]
    r.bad("map", "hash", "test", "StructHashEx", {"f1": {"a": {}}}, TYPE, "f1 an object for struct keys",
          note="a map with struct keys is a list of pairs; an object has string keys")
    r.bad("map", "hash", "test", "StructHashEx", {"f1": [[{"bogus": 1}, {}]]}, UNKNOWN, "f1 an unknown member in a key")
    r.bad("map", "hash", "test", "StructHashEx", {"f1": [[{}, {"bogus": 1}]]}, UNKNOWN,
          "f1 an unknown member in a value")
    r.bad("map", "hash", "test", "StructHashEx", {"f1": [[{}, 5]]}, TYPE, "f1 an integer value")
    r.bad("map", "hash", "test", "StructHashEx", {"f1": [[5, {}]]}, TYPE, "f1 an integer key")
    r.bad("map", "hash", "test", "StructHashEx", {"f1": [[{"id": 1.5}, {}]]}, TYPE, "f1 a float in a key member")
    r.bad("map", "hash", "test", "StructHashEx", {"f2": [[{}, 5]]}, TYPE, "f2 an integer for an optional value")


def structs(r):
    """struct: an instance or a map of field names; unknown names, wrong shapes, nesting."""
    order = [("symbl", "a near name"), ("zzzzzz", "a far name"), ("Symbol", "the wrong case"),
             ("", "the empty name"), ("symbol ", "a trailing space"), ("__class__", "the Python __class__"),
             ("__init__", "the Python __init__"), ("constructor", "the JavaScript constructor"),
             ("__proto__", "the JavaScript __proto__"), ("toString", "the JavaScript toString"),
             ("hashCode", "the Java hashCode"), ("to_json", "the Ruby to_json"), ("class", "the word class"),
             ("fields", "the word fields")]
    for name, what in order:
        r.bad("struct", "struct", "proto", "Order", {"id": 1, name: 1}, UNKNOWN, "unknown member " + what)
    r.bad("struct", "struct", "proto", "Balance", {"curency": "USD"}, UNKNOWN, "unknown member a near name")
    r.bad("struct", "struct", "proto", "Balance", {"id": 1, "symbol": "EURUSD"}, UNKNOWN,
          "the members of another struct")
    r.bad("struct", "struct", "proto", "Account", {"wallet": {"curency": "USD"}}, UNKNOWN, "wallet an unknown member")
    r.bad("struct", "struct", "proto", "Account", {"orders": [{"id": 1}, {"symbl": "x"}]}, UNKNOWN,
          "orders an unknown member in the second")
    r.bad("struct", "struct", "protoex", "Account", {"wallet": {"locked": 1.0, "lockd": 1.0}}, UNKNOWN,
          "wallet an unknown member of a derived struct")
    r.bad("struct", "struct", "test", "StructSimple", {"f45": 1}, UNKNOWN, "unknown member past the last")
    r.bad("struct", "struct", "test", "StructSimple", {"F1": True}, UNKNOWN, "unknown member the wrong case")
    r.bad("struct", "struct", "test", "StructSimple", {"f41": {"symbl": "x"}}, UNKNOWN, "f41 an unknown member")
    r.bad("struct", "struct", "test", "StructSimple", {"f44": {"wallet": {"curency": "x"}}}, UNKNOWN,
          "f44 wallet an unknown member")
    r.bad("struct", "struct", "test", "StructNested", {"f1008": {"f41": {"sid": 1}}}, UNKNOWN,
          "f1008 f41 an unknown member")
    r.bad("struct", "struct", "test", "StructNested", {"f1010": {"f158": {"x": 1}}}, UNKNOWN,
          "f1010 f158 an unknown member")
    r.bad("struct", "struct", "test", "StructEmpty", {"x": 1}, UNKNOWN, "unknown member of a struct without fields")
    r.bad("struct", "struct", "enums", "Enums", {"byte6": 0}, UNKNOWN, "unknown member a near name")
    # wrong shapes where a struct is wanted
    for value, what in (([], "a list"), ("x", "a string"), (5, "an integer"), (True, "a boolean"), (1.5, "a float")):
        r.bad("struct", "struct", "test", "StructSimple", {"f41": value}, TYPE, "f41 " + what)
    r.bad("struct", "struct", "test", "StructSimple", {"f44": [1, 2]}, TYPE, "f44 a list")
    r.bad("struct", "struct", "proto", "Account", {"wallet": []}, TYPE, "wallet a list")
    r.bad("struct", "struct", "proto", "Account", {"asset": 5}, TYPE, "asset an integer")
    r.bad("struct", "struct", "test", "StructSimple", {"f42": {"currency": 5}}, TYPE, "f42 a bad member")
    r.bad("struct", "struct", "test", "StructNested", {"f1010": {"f1008": {}}}, UNKNOWN,
          "f1010 a member of the derived struct only")
    # the value itself is not an object (the JSON path only: the native path starts from the struct's members)
    for value, what in (([], "a list"), ("x", "a string"), (5, "an integer"), (None, "null")):
        r.bad("struct", "struct", "proto", "Order", value, TYPE, "the value " + what, paths=JSON_ONLY,
              note="the whole value is not an object")
    # bad members of the proto structs, by path
    for type_, value, status, what in (
            ("Order", {"price": "1.5"}, TYPE, "price a string"), ("Order", {"volume": True}, TYPE, "volume a boolean"),
            ("Order", {"id": 1.5}, TYPE, "id a float"), ("Order", {"id": "1"}, TYPE, "id a string"),
            ("Order", {"side": "sideways"}, ARGUMENT, "side an undeclared name"),
            ("Order", {"type": "marketplace"}, ARGUMENT, "type an undeclared name"),
            ("Order", {"symbol": 5}, TYPE, "symbol an integer"),
            ("Balance", {"currency": 5}, TYPE, "currency an integer"), ("Balance", {"amount": "x"}, TYPE, "amount a string"),
            ("Account", {"state": "wrong"}, ARGUMENT, "state an undeclared name"),
            ("Account", {"state": "good|wrong"}, ARGUMENT, "state one undeclared name of two"),
            ("Account", {"name": 5}, TYPE, "name an integer"), ("Account", {"id": 2**31}, RANGE, "id beyond int32"),
            ("Account", {"wallet": {"amount": "1"}}, TYPE, "wallet amount a string")):
        r.bad("struct", "struct", "proto", type_, value, status, what, model="final" if type_ == "Balance" else "standard")


def nulls(r):
    """null: the host null for a type that is not optional."""
    simple_fields = [("bool", "f1"), ("byte", "f3"), ("char", "f5"), ("wchar", "f7"), ("int8", "f9"),
                     ("uint8", "f11"), ("int16", "f13"), ("uint16", "f15"), ("int32", "f17"), ("uint32", "f19"),
                     ("int64", "f21"), ("uint64", "f23"), ("float", "f25"), ("double", "f27"), ("decimal", "f29"),
                     ("string", "f31"), ("timestamp", "f33"), ("uuid", "f36"), ("enum", "f39"), ("struct", "f41"),
                     ("flags", "f43")]
    for kind, field in simple_fields:
        r.bad("null", kind, "test", "StructSimple", {field: None}, TYPE, "%s %s" % (kind, field))
    for kind, type_, field in (("bytes", "StructBytes", "f1"), ("array", "StructArray", "f1"),
                               ("vector", "StructVector", "f1"), ("list", "StructList", "f1"),
                               ("set", "StructSet", "f1"), ("map", "StructMap", "f1"), ("hash", "StructHash", "f1"),
                               ("hash", "StructHashEx", "f1"), ("enum", "StructNested", "f1000"),
                               ("flags", "StructNested", "f1004")):
        r.bad("null", kind, "test", type_, {field: None}, TYPE, "%s %s %s" % (kind, type_, field))
    r.bad("null", "vector", "proto", "Account", {"orders": [None]}, TYPE, "vector orders an element")
    r.bad("null", "double", "proto", "Balance", {"amount": None}, TYPE, "double amount")


def decodes(r):
    """Bytes that are not the model they are read as."""
    vectors = {v["id"]: v for v in load("vectors.jsonl")}
    for base in ("pub-proto-Order-readme-%s", "pub-proto-Account-readme-%s", "pub-test-StructSimple-filled-%s"):
        std, fin = vectors[base % "standard"], vectors[base % "final"]
        for rec, model in ((std, "standard"), (fin, "final")):
            data, t = bytes.fromhex(rec["hex"]), rec["type"]
            for n, what in ((0, "no bytes"), (3, "3 bytes"), (len(data) // 2, "half"), (len(data) - 1, "one byte short")):
                r.bad_bytes(rec["schema"], t, model, data[:n], "truncated to " + what, base=rec["id"])
        r.bad_bytes(std["schema"], std["type"], "final", bytes.fromhex(std["hex"]), "standard bytes read as final",
                    base=std["id"])
        r.bad_bytes(fin["schema"], fin["type"], "standard", bytes.fromhex(fin["hex"]), "final bytes read as standard",
                    base=fin["id"])
        # the type id: the standard body's second u32 (after size and offset: FORMAT.md 4), the final model's second
        data = bytearray.fromhex(std["hex"])
        at = int.from_bytes(data[4:8], "little") + 4
        data[at:at + 4] = (int.from_bytes(data[at:at + 4], "little") + 1).to_bytes(4, "little")
        r.bad_bytes(std["schema"], std["type"], "standard", bytes(data), "type id plus one", base=std["id"])
        data = bytearray.fromhex(fin["hex"])
        data[4:8] = (int.from_bytes(data[4:8], "little") + 1).to_bytes(4, "little")
        r.bad_bytes(fin["schema"], fin["type"], "final", bytes(data), "type id plus one", base=fin["id"])
    # bytes of one type read as another (another type id)
    for reader in ("Balance", "Account"):
        for model in ("standard", "final"):
            rec = vectors["pub-proto-Order-readme-%s" % model]
            r.bad_bytes("proto", reader, model, bytes.fromhex(rec["hex"]), "an Order read as a " + reader,
                        base=rec["id"])
    # the public malformed buffers and the value rules' (strings that are not UTF-8, bad decimals)
    for name in ("malformed.jsonl", "malformed-extra.jsonl"):
        for rec in load(name):
            # a declared size beyond max_model_size is refused as a limit before it is compared with the
            # bytes (docs/HARDENING.md)
            status = LIMIT if "size field = 0xFFFFFFFF" in rec["mutation"] else MALFORMED
            r.bad_bytes(rec["schema"], rec["type"], rec["format"], bytes.fromhex(rec["hex"]),
                        "%s: %s" % (rec["id"], rec["mutation"]), status, base=rec["id"])


def input_rows():
    """The row ids of docs/INPUT.md's table, in order."""
    with open(INPUT_MD, encoding="utf-8") as f:
        return re.findall(r"^\| `([a-z]+)` \|", f.read(), re.M)


def records():
    r = Records()
    for part in (scalars, enums, optionals, arrays, sequences, sets, maps, structs, nulls, decodes):
        part(r)
    rows = input_rows()
    used = {rec["row"] for rec in r.items if "row" in rec}
    if used - set(rows) or set(rows) - used:
        sys.exit("behaviour: rows %s are not in docs/INPUT.md, rows %s have no record" % (
            sorted(used - set(rows)), sorted(set(rows) - used)))
    kinds = {rec["kind"] for rec in r.items if "kind" in rec}
    if kinds != set(KINDS):
        sys.exit("behaviour: kinds %s have no record, %s are no kind" % (sorted(set(KINDS) - kinds),
                                                                       sorted(kinds - set(KINDS))))
    return r.items


def summary(items):
    by = collections.Counter
    encode = [x for x in items if x["op"] == "encode"]
    parts = ["%d records: %d encode, %d decode" % (len(items), len(encode), len(items) - len(encode)),
             "rows: " + ", ".join("%s %d" % kv for kv in sorted(by(x["row"] for x in encode).items())),
             "kinds: " + ", ".join("%s %d" % kv for kv in sorted(by(x["kind"] for x in encode).items())),
             "statuses: " + ", ".join("%s %d" % kv for kv in sorted(by(x["status"] for x in items).items())),
             "paths: " + ", ".join("%s %d" % kv for kv in sorted(by("+".join(x["paths"]) for x in encode).items())),
             "native_status differs: %d" % sum("native_status" in x for x in encode)]
    return parts


def raw_numbers(value):
    """The value with every Raw number marked, for text() to write it as it is."""
    if isinstance(value, Raw):
        return RAW_MARK + value
    if isinstance(value, list):
        return [raw_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: raw_numbers(v) for k, v in value.items()}
    return value


def line(rec):
    text = json.dumps(dict(rec, json=raw_numbers(rec["json"])) if "json" in rec else rec, ensure_ascii=True,
                      separators=(",", ":"))
    return re.sub(r'"\\u0000raw:([-+.0-9eE]+)"', r"\1", text) + "\n"


def text(items):
    meta = {"_meta": {"generator": "tests/conformance/gen/behaviour.py", "format": "docs/TESTEE.md, Behaviour records",
                      "records": len(items)}}
    return "".join(line(x) for x in [meta] + items)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=OUT)
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    ap.add_argument("--summary", action="store_true", help="print the counts by row, kind, status and path")
    args = ap.parse_args()
    items = records()
    out = text(items)
    if args.summary:
        print("\n".join(summary(items)))
    if args.check:
        with open(args.output, encoding="utf-8") as f:
            if f.read() != out:
                sys.exit("behaviour: %s is not what tests/conformance/gen/behaviour.py writes: run it" % args.output)
        print("behaviour: %s is up to date (%d records)" % (os.path.relpath(args.output), len(items)))
        return 0
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(out)
    print("behaviour: wrote %d records to %s" % (len(items), os.path.relpath(args.output)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every conformance record through the Python binding.

vectors.jsonl: decode equals the JSON value (checked here field by field against the
JSON text with the conformance README's rules, independently of the core's JSON
reader), encode gives the bytes exactly (from the JSON value, from the decoded
objects and from plain dicts), verify passes; streams go through Sender/Receiver whole
and in chunks. malformed.jsonl: verify is False and decode raises fbe.Error or returns.
malformed-extra.jsonl: strings that are not UTF-8 and bad decimals, which verify and
decode (trusted too) refuse. versioning.jsonl: bytes of one schema version read with the
other. And this package's testee (python -m fbe.testee) through the shared conformance
runner (tests/conformance/runner) over those files and the regression directories."""
from __future__ import annotations

import base64
import json
import re
import shlex
import struct
import subprocess
import sys
import uuid
from decimal import Decimal
from typing import Any, Dict, List

import pytest

import fbe
from fbe import _core
from fbe import core as swig

from conftest import CONFORMANCE, REPO, SCHEMAS, records

VECTORS = records("vectors.jsonl")
MALFORMED = records("malformed.jsonl")
VALUE_RULES = records("malformed-extra.jsonl")  # strings that are not UTF-8, bad decimals
VERSIONING = records("versioning.jsonl")
MODEL = [r for r in VECTORS if r["format"] in ("standard", "final")]
STREAMS = [r for r in VECTORS if r["format"].startswith("stream-")]

_schemas: Dict[str, fbe.Schema] = {}


def schema(package: str) -> fbe.Schema:
    if package not in _schemas:
        _schemas[package] = fbe.load_package(package, include=[SCHEMAS])
    return _schemas[package]


def ids(recs: List[Dict[str, Any]]) -> List[str]:
    return [r["id"] for r in recs]


# ---- an independent check of decoded values against the JSON text ---------------

K = swig


def f32(x: float) -> bytes:
    return struct.pack("<f", x)


def f64(x: float) -> bytes:
    return struct.pack("<d", x)


def json_key(ktype: Any, text: str) -> Any:
    kind = K.fbe_type_kind(ktype)
    if kind == K.FBE_KIND_STRING:
        return text
    if kind in (K.FBE_KIND_FLOAT, K.FBE_KIND_DOUBLE):
        return float(text)
    if kind == K.FBE_KIND_DECIMAL:
        return Decimal(text)
    if kind == K.FBE_KIND_UUID:
        return uuid.UUID(text)
    if kind == K.FBE_KIND_BOOL:
        return text == "true"
    return int(text)


def check(t: Any, got: Any, want: Any, path: str, ordered: bool, pairs: bool) -> None:
    """Asserts that the decoded Python value `got` of schema type `t` is the JSON value
    `want` under the README's rules."""
    kind = K.fbe_type_kind(t)
    where = path or "<root>"
    if kind == K.FBE_KIND_BOOL:
        assert got is want, where
    elif kind in (K.FBE_KIND_ENUM, K.FBE_KIND_FLAGS):
        assert isinstance(got, int) and int(got) == want, where
    elif kind <= K.FBE_KIND_UINT64 or kind == K.FBE_KIND_TIMESTAMP:
        assert type(got) is int and got == want, where
    elif kind == K.FBE_KIND_FLOAT:
        assert type(got) is float and f32(got) == f32(want), where
    elif kind == K.FBE_KIND_DOUBLE:
        assert type(got) is float and f64(got) == f64(float(want)), where
    elif kind == K.FBE_KIND_DECIMAL:
        assert isinstance(got, Decimal) and got == Decimal(want), where
    elif kind == K.FBE_KIND_UUID:
        assert isinstance(got, uuid.UUID) and got == uuid.UUID(want), where
    elif kind == K.FBE_KIND_STRING:
        assert type(got) is str and got == want, where
    elif kind == K.FBE_KIND_BYTES:
        assert type(got) is bytes and got == base64.b64decode(want), where
    elif kind == K.FBE_KIND_OPTIONAL:
        if want is None:
            assert got is None, where
        else:
            check(K.fbe_type_element(t), got, want, path, ordered, pairs)
    elif kind == K.FBE_KIND_STRUCT:
        st = K.fbe_type_struct(t)
        assert isinstance(got, fbe.Struct) and type(got).__fbe_name__ == K.fbe_struct_full_name(st), where
        assert isinstance(want, dict), where
        names = [K.fbe_field_name(K.fbe_struct_field_at(st, i)) for i in range(K.fbe_struct_field_count(st))]
        assert list(want) == names, where
        for i, name in enumerate(names):
            f = K.fbe_struct_field_at(st, i)
            check(K.fbe_field_type(f), getattr(got, name), want[name], f"{path}.{name}".lstrip("."),
                  ordered, pairs)
    elif kind in (K.FBE_KIND_ARRAY, K.FBE_KIND_VECTOR, K.FBE_KIND_LIST):
        assert type(got) is list and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            check(K.fbe_type_element(t), g, w, f"{path}[{i}]", ordered, pairs)
    elif kind == K.FBE_KIND_SET:
        if ordered:
            assert type(got) is list and len(got) == len(want), where
            for i, (g, w) in enumerate(zip(got, want)):
                check(K.fbe_type_element(t), g, w, f"{path}[{i}]", ordered, pairs)
        else:
            assert type(got) is set and len(got) == len(want), where
    elif kind in (K.FBE_KIND_MAP, K.FBE_KIND_HASH):
        ktype, vtype = K.fbe_type_key(t), K.fbe_type_element(t)
        struct_keys = K.fbe_type_kind(ktype) == K.FBE_KIND_STRUCT
        want_items = [tuple(p) for p in want] if struct_keys and pairs else list(want.items())
        if ordered:
            assert type(got) is list, where
            got_items = got
        else:
            assert type(got) is dict, where
            got_items = list(got.items())
        assert len(got_items) == len(want_items), where
        for i, ((gk, gv), (wk, wv)) in enumerate(zip(got_items, want_items)):
            if struct_keys:
                check(ktype, gk, wk, f"{path}[{i}].key", ordered, pairs)
            else:
                exp = json_key(ktype, wk)
                assert gk == exp, f"{where}[{i}] key"
                if K.fbe_type_kind(ktype) not in (K.FBE_KIND_ENUM, K.FBE_KIND_FLAGS):
                    assert type(gk) is type(exp), f"{where}[{i}] key type"
            check(vtype, gv, wv, f"{path}[{i}]", ordered, pairs)
    else:
        raise AssertionError(f"unexpected kind {kind} at {where}")


def struct_type(s: fbe.Schema, name: str) -> Any:
    st = swig.fbe_schema_find_struct(s._swig, name)
    assert st is not None
    return st


def check_root(s: fbe.Schema, rec: Dict[str, Any], got: Any, ordered: bool) -> None:
    st = struct_type(s, rec["type"])
    pairs = rec.get("json_form") == "map-pairs"
    # the root struct: a STRUCT type node naming it is not public; walk its fields
    names = [swig.fbe_field_name(swig.fbe_struct_field_at(st, i)) for i in range(swig.fbe_struct_field_count(st))]
    assert list(rec["json"]) == names
    for i, name in enumerate(names):
        f = swig.fbe_struct_field_at(st, i)
        check(swig.fbe_field_type(f), getattr(got, name), rec["json"][name], name, ordered, pairs)


# ---- vectors ---------------------------------------------------------------------

@pytest.mark.parametrize("rec", MODEL, ids=ids(MODEL))
def test_vector(rec: Dict[str, Any]) -> None:
    s = schema(rec["schema"])
    cls = s[rec["type"]]
    final = rec["format"] == "final"
    data = bytes.fromhex(rec["hex"])
    text = json.dumps(rec["json"])

    # verify, and the model size
    assert cls.verify(data, final=final) is True
    assert _core.model_size(cls, data, final) == rec["size"]

    # decode: every field against the JSON text, in both forms
    got = cls.decode(data, final=final)
    check_root(s, rec, got, ordered=False)
    got_ordered = cls.decode(bytearray(data), final=final, ordered=True)
    check_root(s, rec, got_ordered, ordered=True)
    got_view = cls.decode(memoryview(data), final=final, ordered=True)
    assert _core.equal(cls, got_view, got_ordered)

    # ... and against the core's JSON reader
    want = cls.from_json(text, ordered=True)
    assert _core.equal(cls, got_ordered, want)
    assert got == cls.from_json(text)  # == on the [key] fields (or all fields)

    # encode: exactly the bytes, from the JSON value, the decoded objects, plain dicts
    if not rec.get("decode_only"):
        assert want.encode(final=final) == data
        assert got_ordered.encode(final=final) == data
        assert s.encode(rec["type"], got_ordered, final=final) == data

    # JSON round trip through the core's writer
    assert _core.equal(cls, cls.from_json(got_ordered.to_json(), ordered=True), want)


@pytest.mark.parametrize("rec", MODEL, ids=ids(MODEL))
def test_vector_plain_dicts(rec: Dict[str, Any]) -> None:
    """The same value given as plain dicts and lists (schema.encode("Type", {...}))."""
    s = schema(rec["schema"])
    cls = s[rec["type"]]
    final = rec["format"] == "final"
    got = cls.decode(bytes.fromhex(rec["hex"]), final=final, ordered=True)

    def plain(v: Any) -> Any:
        if isinstance(v, fbe.Struct):
            return {name: plain(getattr(v, name)) for name in type(v).__fbe_fields__}
        if isinstance(v, list):
            return [plain(x) for x in v]
        if isinstance(v, tuple):
            return tuple(plain(x) for x in v)
        return v

    value = plain(got)
    assert isinstance(value, dict)
    if not rec.get("decode_only"):
        assert s.encode(rec["type"], value, final=final) == bytes.fromhex(rec["hex"])


@pytest.mark.parametrize("rec", STREAMS, ids=ids(STREAMS))
def test_stream(rec: Dict[str, Any]) -> None:
    s = schema(rec["schema"])
    final = rec["format"] == "stream-final"
    data = bytes.fromhex(rec["hex"])
    want = [s[f"{i['schema']}.{i['type']}"].from_json(json.dumps(i["json"]), ordered=True)
            for i in rec["json"]]

    sent = bytearray()
    sender = fbe.Sender(s, sent.extend, package=rec["schema"], final=final)
    sizes = [sender.send(m) for m in want]
    assert bytes(sent) == data
    assert sum(sizes) == len(data) == sender.bytes_sent

    def same(got: List[Any]) -> None:
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert type(g) is type(w)
            assert _core.equal(type(w), g, w)

    # whole, and in chunks of every size from 1 to 64 bytes, without and with a handler
    for chunk in range(0, 65):
        r = fbe.Receiver(s, package=rec["schema"], final=final, ordered=True)
        got: List[Any] = []
        step = chunk or len(data)
        for at in range(0, len(data), step):
            got += r.feed(data[at:at + step]) or []
        same(got)
        assert r.pending == 0 and r.received == len(want)
    handled: List[Any] = []
    r = fbe.Receiver(s, handled.append, package=rec["schema"], final=final, ordered=True)
    for b in data:
        assert r.feed(bytes([b])) is None
    same(handled)


# ---- malformed and versioning -----------------------------------------------------

@pytest.mark.parametrize("rec", MALFORMED, ids=ids(MALFORMED))
def test_malformed(rec: Dict[str, Any]) -> None:
    s = schema(rec["schema"])
    cls = s[rec["type"]]
    final = rec["format"] == "final"
    data = bytes.fromhex(rec["hex"])
    assert rec["verify"] is False
    assert cls.verify(data, final=final) is False
    with pytest.raises(fbe.Error) as info:
        _core.model_size(cls, data, final)
    assert info.value.message
    with pytest.raises(fbe.Error) as refused:  # decode verifies: verify's reason
        cls.decode(data, final=final)
    assert str(refused.value) == str(info.value)
    try:  # the decoder alone: an error or a value, never a crash
        value = cls.decode(data, final=final, trusted=True)
    except fbe.Error as exc:
        assert isinstance(exc, ValueError) and exc.message
    else:
        assert isinstance(value, cls)


@pytest.mark.parametrize("rec", VALUE_RULES, ids=ids(VALUE_RULES))
def test_value_rules(rec: Dict[str, Any]) -> None:
    """Bytes that break the string or decimal rule: verify refuses them, and decode,
    trusted or not, refuses them with verify's error (no U+FFFD, no bad decimal)."""
    cls = schema(rec["schema"])[rec["type"]]
    final = rec["format"] == "final"
    data = bytes.fromhex(rec["hex"])
    assert rec["verify"] is False and cls.verify(data, final=final) is False
    with pytest.raises(fbe.MalformedError) as info:
        _core.model_size(cls, data, final)
    assert info.value.message.startswith(("string is not valid UTF-8: ", "decimal "))
    for trusted in (False, True):
        with pytest.raises(fbe.MalformedError) as refused:
            cls.decode(data, final=final, trusted=trusted)
        assert str(refused.value) == str(info.value)


@pytest.mark.parametrize("rec", VERSIONING, ids=ids(VERSIONING))
def test_versioning(rec: Dict[str, Any]) -> None:
    s = schema(rec["reader_schema"])
    cls = s[f"{rec['reader_schema']}.{rec['reader_type']}"]
    data = bytes.fromhex(rec["hex"])
    if "verify" in rec:
        assert cls.verify(data) is rec["verify"]
    if "json" in rec:
        # a sibling type whose type id differs does not verify: decode refuses it, the
        # trusted decode reads it (FORMAT.md 8)
        if rec.get("verify") is False:
            with pytest.raises(fbe.MalformedError, match="type id"):
                cls.decode(data, ordered=True)
        else:
            assert _core.equal(cls, cls.decode(data, ordered=True),
                               cls.from_json(json.dumps(rec["json"]), ordered=True))
        got = cls.decode(data, ordered=True, trusted=True)
        assert _core.equal(cls, got, cls.from_json(json.dumps(rec["json"]), ordered=True))


# ---- the shared runner over this package's testee ------------------------------------

RUNNER_FILES = [CONFORMANCE / n for n in ("vectors.jsonl", "malformed.jsonl", "malformed-extra.jsonl",
                                          "versioning.jsonl")] + sorted(
    d for d in (REPO / "tests" / "regressions" / "differential").iterdir() if (d / "record.jsonl").is_file())


BEHAVIOUR = CONFORMANCE / "behaviour.jsonl"


def record_lines() -> List[str]:
    """The non-blank lines of every file the runner is given (a directory: its *.jsonl)."""
    lines: List[str] = []
    for path in RUNNER_FILES + [BEHAVIOUR]:
        for f in sorted(path.glob("*.jsonl")) if path.is_dir() else [path]:
            lines += [line for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines


def test_testee_through_the_runner() -> None:
    """python -m fbe.testee through tests/conformance/runner, as ci/conformance.sh runs it,
    alone (untyped comparison: no C testee to describe the types; the matrix stage compares
    typed and holds the text to the C testee's): every record runs, every bad input of
    behaviour.jsonl is refused with its status through the JSON and the native path,
    the text op answers, nothing fails, only the _meta lines are skipped."""
    testee = f"{shlex.quote(sys.executable)} -m fbe.testee"
    out = subprocess.run([sys.executable, str(REPO / "tests" / "conformance" / "runner"), "--describe-testee", "none",
                          "--known-failures", str(CONFORMANCE / "known-failures" / "differential.txt"),
                          "--testee", f"python={testee}", "--text", "--behaviour", str(BEHAVIOUR),
                          *map(str, RUNNER_FILES)],
                         capture_output=True, text=True, check=False, timeout=600)
    report = out.stdout + out.stderr
    assert out.returncode == 0, report
    lines = record_lines()
    meta = sum(1 for line in lines if "_meta" in json.loads(line))
    assert f"\n{len(lines) - meta} records, 1 testees: python\n" in "\n" + out.stdout, report
    assert "\nskipped: %d%s\n" % (meta, f" (_meta {meta})" if meta else "") in out.stdout, report
    assert re.search(r"^python +[1-9]\d*/0 +[1-9]\d*/0 +[1-9]\d*/0 *$", out.stdout, re.M), report  # behaviour
    assert re.search(r"^text checks .*\npython +[1-9]\d*/0$", out.stdout, re.M), report
    closing = re.search(r"^(\d+) passed, 0 failed$", out.stdout, re.M)
    assert closing and int(closing.group(1)) > len(lines), report

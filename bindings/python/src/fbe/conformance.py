"""python -m fbe.conformance [-I DIR]... FILE.jsonl...

Runs conformance records (tests/conformance/, shared/conformance/README.md) through
the Python binding, as `fbe conformance` runs them through the C API: every
standard/final record is verified, decoded and compared with its JSON value, then
encoded back to the exact bytes; malformed records must be rejected by verify and must
decode to an fbe.Error or a value; streams are sent, then received whole, in chunks of
every size from 1 to 64 bytes and in random chunks; standard-versioning records are
read with the other schema version. Prints a FAIL line per failure and ends with
"N passed, N failed, N skipped". Exit status 0 when nothing failed, 1 otherwise, 2 on
bad usage.

Values are decoded with ordered=True (sets as lists, maps as lists of pairs), so wire
order and duplicates are compared too; equality is the core's (floats by bit pattern,
decimals by value). Every operation goes through fbe._core with the class as an
argument, so no field name of a schema can shadow it (README "Names").
"""
from __future__ import annotations

import json
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _core
from ._errors import Error
from ._protocol import Receiver, Sender
from ._schema import Schema, load_package

PASS, SKIP, FAIL = 0, 1, -1


class _Fail(Exception):
    pass


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Runner:
    def __init__(self, includes: Sequence[str], out: Any = None):
        self.includes = list(includes)
        self.out = out or sys.stdout
        self.cache: Dict[str, Optional[Schema]] = {}
        self.passed = self.failed = self.skipped = 0

    def schema_for(self, package: str) -> Schema:
        if package not in self.cache:
            try:
                self.cache[package] = load_package(package, include=self.includes)
            except Error as exc:
                for line in getattr(exc, "diagnostics", []):
                    print(line, file=sys.stderr)
                self.cache[package] = None
        schema = self.cache[package]
        if schema is None:
            raise _Fail(f"cannot load schema of package '{package}'")
        return schema

    @staticmethod
    def describe_difference(cls: Any, got: Any, want: Any) -> str:
        try:
            a, b = _core.to_json(cls, got), _core.to_json(cls, want)
        except Error:
            return "decoded value differs (and has no JSON form)"
        i = 0
        n = min(len(a), len(b))
        while i < n and a[i] == b[i]:
            i += 1
        start = max(i - 30, 0)
        return (f"decoded value differs at JSON offset {i}: got ...{a[start:start + 60]}... "
                f"want ...{b[start:start + 60]}...")

    @staticmethod
    def compare_bytes(got: bytes, want: bytes, what: str = "encoded") -> None:
        n = min(len(got), len(want))
        i = 0
        while i < n and got[i] == want[i]:
            i += 1
        if i < n:
            raise _Fail(f"{what} bytes differ at offset {i}: got {got[i]:02x}, want {want[i]:02x}")
        if len(got) != len(want):
            raise _Fail(f"{what} {len(got)} bytes, want {len(want)} (first {n} equal)")

    @staticmethod
    def hex_bytes(rec: Dict[str, Any]) -> bytes:
        try:
            return bytes.fromhex(rec.get("hex", ""))
        except (ValueError, TypeError):
            raise _Fail("bad hex") from None

    # ---- standard / final

    def run_model(self, rec: Dict[str, Any]) -> int:
        final = rec["format"] == "final"
        if rec.get("verify") is True and "json" not in rec:
            return SKIP  # malformed bytes the reference accepts
        schema = self.schema_for(rec.get("schema", ""))
        try:
            cls = schema[rec.get("type", "")]
        except Error:
            raise _Fail(f"no type '{rec.get('type')}' in package '{rec.get('schema')}'") from None
        data = self.hex_bytes(rec)
        if rec.get("verify") is False:
            # Must be rejected; the decoder itself (trusted: without the verify that
            # refuses them first) must end in an error or a value, never a crash.
            verified = _core.verify(cls, data, final)
            try:
                _core.decode(cls, data, final, trusted=True)
            except Error:
                pass
            if verified:
                raise _Fail("verify accepted malformed bytes")
            return PASS
        try:
            size = _core.model_size(cls, data, final)
        except Error as exc:
            raise _Fail(f"verify rejected valid bytes: {exc}") from None
        if "size" in rec and size != rec["size"]:
            raise _Fail(f"model size {size}, expected {rec['size']}")
        try:
            got = _core.decode(cls, data, final, True, trusted=True)  # verified above
        except Error as exc:
            raise _Fail(f"decode failed: {exc}") from None
        try:
            want = _core.from_json(cls, _json_text(rec.get("json")), True)
        except Error as exc:
            raise _Fail(f"cannot read the record's JSON: {exc}") from None
        if not _core.equal(cls, got, want):
            raise _Fail(self.describe_difference(cls, got, want))
        if not rec.get("decode_only"):
            try:
                encoded = _core.encode(cls, want, final)
            except Error as exc:
                raise _Fail(f"encode failed: {exc}") from None
            self.compare_bytes(encoded, data)
        return PASS

    # ---- streams

    def receive(self, schema: Schema, package: str, final: bool, data: bytes,
                want: List[Any], chunk: int, seed: int) -> None:
        state = {"next": 0, "why": ""}

        def check(msg: Any) -> None:
            i = state["next"]
            if i >= len(want):
                state["why"] = f"received more than the {len(want)} messages sent"
                raise _Fail(state["why"])
            w = want[i]
            if type(msg) is not type(w):
                state["why"] = f"message {i} is a {type(msg).__fbe_name__}, want {type(w).__fbe_name__}"
                raise _Fail(state["why"])
            if not _core.equal(type(w), msg, w):
                state["why"] = f"message {i} ({type(w).__fbe_name__}) differs"
                raise _Fail(state["why"])
            state["next"] = i + 1

        how = "random chunks of up to" if seed else "chunks of"
        receiver = Receiver(schema, check, package=package, final=final, ordered=True)
        at = 0
        error = ""
        while at < len(data):
            n = len(data) - at
            if chunk:
                take = chunk
                if seed:
                    seed ^= (seed << 13) & 0xFFFFFFFFFFFFFFFF
                    seed ^= seed >> 7
                    seed ^= (seed << 17) & 0xFFFFFFFFFFFFFFFF
                    take = 1 + seed % chunk
                n = min(n, take)
            try:
                receiver.feed(data[at:at + n])
            except _Fail:
                break
            except Error as exc:
                error = f"receiver error: {exc}"
                break
            at += n
        if state["why"]:
            raise _Fail(f"{how} {chunk}: {state['why']}")
        if error:
            raise _Fail(f"{how} {chunk}: {error}")
        if state["next"] != len(want) or receiver.pending:
            raise _Fail(f"{how} {chunk}: {state['next']} of {len(want)} messages received, "
                        f"{receiver.pending} bytes left")

    def run_stream(self, rec: Dict[str, Any]) -> int:
        final = rec["format"] == "stream-final"
        package = rec.get("schema", "")
        schema = self.schema_for(package)
        data = self.hex_bytes(rec)
        items = rec.get("json")
        if not isinstance(items, list):
            raise _Fail("bad hex or no message list")
        want = []
        for item in items:
            name = f"{item.get('schema')}.{item.get('type')}"
            try:
                cls = schema[name]
            except Error:
                raise _Fail(f"no type {name} in the schema") from None
            if "json" not in item:
                raise _Fail(f'{name}: no "json" value')
            try:
                want.append(_core.from_json(cls, _json_text(item["json"]), True))
            except Error as exc:
                raise _Fail(f"{name}: {exc}") from None
        sent = bytearray()
        sender = Sender(schema, sent.extend, package=package, final=final)
        for i, msg in enumerate(want):
            try:
                sender.send(msg)
            except Error as exc:
                raise _Fail(f"send of message {i} failed: {exc}") from None
        if bytes(sent) != data:
            n = min(len(sent), len(data))
            i = 0
            while i < n and sent[i] == data[i]:
                i += 1
            raise _Fail(f"sent bytes differ at offset {i} (sent {len(sent)} bytes, want {len(data)})")
        seed = 0x9E3779B97F4A7C15
        for c in rec.get("id", "").encode():
            seed = ((seed ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        for chunk in range(65):
            self.receive(schema, package, final, data, want, chunk, 0)
        self.receive(schema, package, final, data, want, 64, seed | 1)
        return PASS

    # ---- versioning

    def run_versioning(self, rec: Dict[str, Any]) -> int:
        package = rec.get("reader_schema", "")
        schema = self.schema_for(package)
        name = f"{package}.{rec.get('reader_type')}"
        try:
            cls = schema[name]
        except Error:
            raise _Fail(f"no type {name}") from None
        data = self.hex_bytes(rec)
        reason = ""
        try:
            _core.model_size(cls, data, False)
            verified = True
        except Error as exc:
            verified, reason = False, str(exc)
        if "verify" in rec and verified != rec["verify"]:
            raise _Fail(f"verify says {'valid' if verified else 'invalid'}, want "
                        f"{'valid' if rec['verify'] else 'invalid'}{': ' + reason if reason else ''}")
        if "json" not in rec:
            return PASS
        try:
            got = _core.decode(cls, data, False, True, trusted=True)  # verified above, or a sibling type
        except Error as exc:
            raise _Fail(f"decode failed: {exc}") from None
        try:
            want = _core.from_json(cls, _json_text(rec["json"]), True)
        except Error as exc:
            raise _Fail(f"cannot read the record's JSON: {exc}") from None
        if not _core.equal(cls, got, want):
            raise _Fail(self.describe_difference(cls, got, want))
        return PASS

    # ---- files

    def run_record(self, rec: Dict[str, Any]) -> Tuple[int, str]:
        fmt = rec.get("format")
        try:
            if fmt in ("standard", "final"):
                return self.run_model(rec), ""
            if fmt in ("stream-standard", "stream-final"):
                return self.run_stream(rec), ""
            if fmt == "standard-versioning":
                return self.run_versioning(rec), ""
            return FAIL, f"unknown format '{fmt}'"
        except _Fail as exc:
            return FAIL, str(exc)
        except Exception as exc:  # anything but an fbe.Error where one was due
            return FAIL, f"unexpected {type(exc).__name__}: {exc}"

    def run_line(self, path: str, line_no: int, line: str) -> None:
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict):
                raise ValueError("a record must be a JSON object")
        except ValueError as exc:
            print(f"FAIL {path}:{line_no}: {exc}", file=self.out)
            self.failed += 1
            return
        rc, why = self.run_record(rec)
        if rc == PASS:
            self.passed += 1
        elif rc == SKIP:
            self.skipped += 1
        else:
            self.failed += 1
            print(f"FAIL {rec.get('id') or '(no id)'}: {why}", file=self.out)

    def run_file(self, path: str) -> bool:
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except OSError as exc:
            print(f"{path}: {exc.strerror or exc}", file=sys.stderr)
            return False
        for i, line in enumerate(lines, 1):
            if line.strip():
                self.run_line(path, i, line)
        return True


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    includes: List[str] = []
    files: List[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-I" and i + 1 < len(args):
            includes.append(args[i + 1])
            i += 2
            continue
        if a.startswith("-I") and len(a) > 2:
            includes.append(a[2:])
        elif a.startswith("-") and a != "-":
            files = []
            break
        else:
            files.append(a)
        i += 1
    if not files:
        print("usage: python -m fbe.conformance [-I DIR]... FILE.jsonl...", file=sys.stderr)
        return 2
    runner = Runner(includes)
    rc = 0
    for path in files:
        if not runner.run_file(path):
            rc = 1
    print(f"{runner.passed} passed, {runner.failed} failed, {runner.skipped} skipped")
    sys.stdout.flush()
    return 1 if runner.failed else rc


if __name__ == "__main__":
    sys.exit(main())

"""python -m fbe.testee: the Python testee of the cross-language conformance runner.

Reads one JSON request per stdin line and writes one JSON response per stdout line
(the protocol of docs/TESTEE.md): load, encode (also "native": true), decode, text (both
also "view": true, answered from an fbe.View), verify, stream-encode, stream-decode. A thin loop over the public API of the fbe
package, through the paths no schema name can shadow (README "Names"): the operations
of the Schema object, taking the type and the value. An fbe error's response carries
its status name ("status": "FBE_ERR_TYPE").
"""
from __future__ import annotations

import atexit
import base64
import binascii
import json
import os
import re
import shutil
import sys
import tempfile
from decimal import Decimal, InvalidOperation
from typing import Any, Dict, List, Optional

import fbe
from fbe import _swig as K


class RawFloat(float):
    """A JSON number with a fraction or an exponent, with its text: the JSON path hands
    the binding the request's own text (1e309 stays 1e309, not Python's inf)."""

    text: str

    def __new__(cls, text: str) -> "RawFloat":
        self = float.__new__(cls, text)
        self.text = text
        return self


def request_json(v: Any) -> str:
    """A request's JSON value as text again, numbers as they came (strings ASCII-escaped:
    a lone surrogate stays the escape it was)."""
    if isinstance(v, RawFloat):
        return v.text
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + request_json(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(request_json(x) for x in v) + "]"
    return json.dumps(v)


def _int_text(text: str) -> Any:
    return int(text) if re.fullmatch(r"-?[0-9]+", text) else text


class Native:
    """The host value a user's program would build from a JSON value, by the field's
    type (the mapping every testee shares, docs/TESTEE.md "native"): structs through their
    constructors (every member a keyword, unknown ones included), decimals as Decimal,
    bytes from Base64, map keys from their text; what does not fit a type's mapping is
    handed over as the plain JSON value, so that the binding refuses it."""

    INTEGERS = {K.FBE_KIND_BYTE, K.FBE_KIND_INT8, K.FBE_KIND_UINT8, K.FBE_KIND_INT16, K.FBE_KIND_UINT16,
                K.FBE_KIND_INT32, K.FBE_KIND_UINT32, K.FBE_KIND_INT64, K.FBE_KIND_UINT64,
                K.FBE_KIND_CHAR, K.FBE_KIND_WCHAR, K.FBE_KIND_TIMESTAMP}
    SEQUENCES = {K.FBE_KIND_ARRAY, K.FBE_KIND_VECTOR, K.FBE_KIND_LIST, K.FBE_KIND_SET}

    def __init__(self, schema: fbe.Schema):
        self.schema = schema

    def struct(self, st: Any, v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        types = {K.fbe_field_name(f): K.fbe_field_type(f)
                 for f in (K.fbe_struct_field_at(st, i) for i in range(K.fbe_struct_field_count(st)))}
        kw = {name: self.value(types[name], x) if name in types else x for name, x in v.items()}
        return self.schema[K.fbe_struct_full_name(st)](**kw)

    def value(self, t: Any, v: Any) -> Any:
        kind = K.fbe_type_kind(t)
        if kind == K.FBE_KIND_STRUCT:
            return self.struct(K.fbe_type_struct(t), v)
        if kind == K.FBE_KIND_OPTIONAL:
            return None if v is None else self.value(K.fbe_type_element(t), v)
        if kind in self.SEQUENCES:  # a set as a list too: its elements may be unhashable
            return [self.value(K.fbe_type_element(t), x) for x in v] if isinstance(v, list) else v
        if kind in (K.FBE_KIND_MAP, K.FBE_KIND_HASH):
            key, elem = K.fbe_type_key(t), K.fbe_type_element(t)
            if isinstance(v, dict):
                return {self.key(key, k): self.value(elem, x) for k, x in v.items()}
            if isinstance(v, list) and all(isinstance(p, list) and len(p) == 2 for p in v) and \
                    K.fbe_type_kind(key) == K.FBE_KIND_STRUCT:  # map-pairs: struct keys, as
                # (key, value) pairs, since a keyless struct is no dict key (it is unhashable)
                return [(self.value(key, k), self.value(elem, x)) for k, x in v]
            return v
        if kind in (K.FBE_KIND_FLOAT, K.FBE_KIND_DOUBLE):
            return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
        if kind == K.FBE_KIND_DECIMAL:
            if isinstance(v, str):
                try:
                    return Decimal(v)
                except InvalidOperation:
                    return v
            return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v  # refused
        if kind == K.FBE_KIND_BYTES and isinstance(v, str):
            try:
                return base64.b64decode(v, validate=True)
            except (binascii.Error, ValueError):
                return v
        if isinstance(v, RawFloat):
            return float(v)
        return v  # bool, integers, char (its code), timestamp, uuid and string as they are

    def key(self, t: Any, text: str) -> Any:
        """A map key from its JSON text, by the key kind's mapping."""
        kind = K.fbe_type_kind(t)
        if kind in self.INTEGERS or kind in (K.FBE_KIND_ENUM, K.FBE_KIND_FLAGS):
            return _int_text(text)
        if kind == K.FBE_KIND_BOOL:
            return {"true": True, "false": False}.get(text, text)
        if kind in (K.FBE_KIND_FLOAT, K.FBE_KIND_DOUBLE):
            try:
                return float(text)
            except ValueError:
                return text
        if kind in (K.FBE_KIND_DECIMAL, K.FBE_KIND_BYTES):
            return self.value(t, text)
        return text


def pieces(data: bytes, request: Dict[str, Any]) -> List[bytes]:
    """The pieces a stream-decode request feeds (tests/conformance/README.md): the sizes
    in "chunks" first, then the rest in pieces of "chunk_size", or as one last piece."""
    chunks, step = request.get("chunks", []), request.get("chunk_size")
    if not isinstance(chunks, list) or not all(type(n) is int and n >= 0 for n in chunks):
        raise ValueError('"chunks" must be an array of non-negative integers')
    if step is not None and not (type(step) is int and step > 0):
        raise ValueError('"chunk_size" must be a positive integer')
    out, pos = [], 0
    for n in chunks:
        out.append(data[pos:pos + n])
        pos = min(pos + n, len(data))
    if step is not None:
        out.extend(data[at:at + step] for at in range(pos, len(data), step))
    elif pos < len(data) or not chunks:
        out.append(data[pos:])
    return out


class Packages:
    """The schema texts of a load ("packages": {name: text}) as NAME.fbe files in a fresh
    temporary directory, where the loader finds them and their imports by name."""

    def __init__(self) -> None:
        self.dir: Optional[str] = None
        atexit.register(self.remove)

    def write(self, packages: Dict[str, str]) -> str:
        self.remove()
        self.dir = tempfile.mkdtemp(prefix="fbe-testee-")
        for name, text in packages.items():
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise ValueError(f'"packages": {name!r} is not a package name')
            with open(os.path.join(self.dir, name + ".fbe"), "w", encoding="utf-8", newline="") as f:
                f.write(text)
        return self.dir

    def remove(self) -> None:
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None


class Testee:
    def __init__(self) -> None:
        self.include: List[str] = []
        self.schemas: Dict[str, fbe.Schema] = {}
        self.packages = Packages()

    def schema(self, package: str) -> fbe.Schema:
        if package not in self.schemas:
            self.schemas[package] = fbe.load_package(package, include=self.include)
        return self.schemas[package]

    def type(self, request: Dict[str, Any]) -> Any:
        """(the schema, the struct class) a request names."""
        package, name = request["package"], request["type"]
        schema = self.schema(package)
        return schema, schema[f"{package}.{name}"]

    @staticmethod
    def final(request: Dict[str, Any]) -> bool:
        return bool(request.get("model", "standard") == "final")

    def handle(self, request: Dict[str, Any]) -> Dict[str, Any]:
        op = request.get("op")
        if op == "load":  # "packages" (schema texts) are found first, then "include"
            self.schemas = {}
            self.packages.remove()
            texts = request.get("packages")
            self.include = ([self.packages.write(texts)] if texts is not None else []) + \
                list(request.get("include", []))
            for path in request.get("files", []):
                fbe.load(path, include=self.include)
            return {"ok": True}
        if op == "encode":  # "native": the value built by the constructors, not from_json
            schema, cls = self.type(request)
            if request.get("native") is True:
                st = K.fbe_schema_find_struct(schema._swig, cls.__fbe_name__)
                value = Native(schema).struct(st, request["json"])
            else:
                value = schema.from_json(cls, request_json(request["json"]), ordered=True)
            return {"ok": True, "hex": schema.encode(cls, value, final=self.final(request)).hex()}
        if op in ("decode", "text") and request.get("view") is True:  # answered from a view (always verified)
            schema, cls = self.type(request)
            view = schema.view(cls, bytes.fromhex(request["hex"]), request.get("model", "standard"))
            if op == "text":
                return {"ok": True, "text": str(view)}
            return {"ok": True, "json": json.loads(fbe.View.to_json(view))}
        if op in ("decode", "text"):  # verified unless the request says "trusted": true
            schema, cls = self.type(request)
            value = schema.decode(cls, bytes.fromhex(request["hex"]), final=self.final(request), ordered=True,
                                  trusted=request.get("trusted") is True)
            if op == "text":  # the binding's own printing: str() of the value
                return {"ok": True, "text": str(value)}
            return {"ok": True, "json": json.loads(schema.to_json(cls, value))}
        if op == "verify":
            schema, cls = self.type(request)
            try:
                size = schema.validate(cls, bytes.fromhex(request["hex"]), final=self.final(request))
            except fbe.Error as exc:
                return {"ok": True, "valid": False, "reason": str(exc)}
            return {"ok": True, "valid": True, "size": size}
        if op == "stream-encode":
            package = request["package"]
            schema = self.schema(package)
            out = bytearray()
            sender = schema.sender(out.extend, package=package, final=self.final(request))
            for item in request["messages"]:
                cls = schema[f"{item['schema']}.{item['type']}"]
                sender.send(schema.from_json(cls, request_json(item["json"]), ordered=True))
            return {"ok": True, "hex": bytes(out).hex()}
        if op == "stream-decode":
            package = request["package"]
            schema = self.schema(package)
            received: List[Any] = []
            receiver = schema.receiver(received.append, package=package,
                                                     final=self.final(request), ordered=True)
            for piece in pieces(bytes.fromhex(request["hex"]), request):
                receiver.feed(piece)
            messages = []
            for msg in received:
                cls = type(msg)
                pkg, _, name = cls.__fbe_name__.rpartition(".")
                messages.append({"schema": pkg, "type": name, "json": json.loads(schema.to_json(cls, msg))})
            return {"ok": True, "messages": messages, "pending": receiver.pending}
        return {"ok": False, "error": f"unknown op {op!r}"}


def main() -> int:
    testee = Testee()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line, parse_float=RawFloat)
            if request.get("op") == "quit":
                break
            response = testee.handle(request)
        except fbe.Error as exc:  # the core's status and text
            response = {"ok": False, "status": exc.status, "error": str(exc)}
        except Exception as exc:  # every failure is an error response, never a crash
            response = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(response, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

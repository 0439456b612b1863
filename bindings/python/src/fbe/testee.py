"""python -m fbe.testee: the Python testee of the cross-language conformance runner.

Reads one JSON request per stdin line and writes one JSON response per stdout line
(the protocol of tests/conformance/README.md): load, encode, decode, verify,
stream-encode, stream-decode. A thin loop over the public API of the fbe package,
through the paths no schema name can shadow (README "Names"): the operations of the
Schema object, taking the type and the value.
"""
from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import sys
import tempfile
from typing import Any, Dict, List, Optional

import fbe


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
        if op == "encode":
            schema, cls = self.type(request)
            value = schema.from_json(cls, json.dumps(request["json"], ensure_ascii=False), ordered=True)
            return {"ok": True, "hex": schema.encode(cls, value, final=self.final(request)).hex()}
        if op == "decode":  # verified unless the request says "trusted": true
            schema, cls = self.type(request)
            value = schema.decode(cls, bytes.fromhex(request["hex"]), final=self.final(request), ordered=True,
                                  trusted=request.get("trusted") is True)
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
                sender.send(schema.from_json(cls, json.dumps(item["json"], ensure_ascii=False), ordered=True))
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
            request = json.loads(line)
            if request.get("op") == "quit":
                break
            response = testee.handle(request)
        except Exception as exc:  # every failure is an error response, never a crash
            response = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(response, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

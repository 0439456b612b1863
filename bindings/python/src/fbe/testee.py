"""python -m fbe.testee: the Python testee of the cross-language conformance runner.

Reads one JSON request per stdin line and writes one JSON response per stdout line
(the protocol of docs/TESTEE.md): load, encode (also "native": true), decode, text (both
also "view": true, answered from an fbe.View), verify, stream-encode, stream-decode, and
the conversations' sessions (client, request, feed, watchdog, reset, server, serve,
reply, send, proxy, close: fbe.Client, fbe.Server, fbe.Proxy and their log hooks). A
thin loop over the public API of the fbe package, through the paths no schema name can
shadow (README "Names"): the operations of the Schema object, taking the type and the
value. An fbe error's response carries its status name ("status": "FBE_ERR_TYPE").
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


class Raw(str):
    """JSON text written into an answer as it is (the core's JSON of a message)."""


def answer_json(v: Any) -> str:
    """An answer as JSON text: members in order, Raw text as it is."""
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + answer_json(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(answer_json(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def message_json(schema: fbe.Schema, msg: Any) -> Dict[str, Any]:
    """MSG of docs/TESTEE.md: {"type": "pkg.Name", "json": VALUE}."""
    cls = type(msg)
    return {"type": cls.__fbe_name__, "json": Raw(schema.to_json(cls, msg))}


def u64(request: Dict[str, Any], name: str) -> int:
    v = request.get(name, 0)
    if type(v) is not int or v < 0:
        raise ValueError(f'"{name}" must be a non-negative integer')
    return v


class Session:
    """A conversation's client, server or proxy (docs/TESTEE.md "Conversations"): what it
    sends and what its callbacks see, gathered for the answer of the request that made
    it happen."""

    def __init__(self, schema: fbe.Schema, request: Dict[str, Any], kind: str):
        self.schema, self.kind = schema, kind
        self.package: str = request["package"]
        final = request.get("model", "standard") == "final"
        self.wire = bytearray()
        self.ended: List[Any] = []
        self.notified: List[Any] = []
        self.items: List[Any] = []
        self.log: List[str] = []
        self.requests: List[Any] = []
        log = self.on_log if request.get("log") is True else None
        self.client: Optional[fbe.Client] = None
        self.server: Optional[fbe.Server] = None
        self.proxy: Optional[fbe.Proxy] = None
        if kind == "client":
            self.client = fbe.Client(schema, self.wire.extend, self.package, final, notify=self.on_notify, log=log,
                                     max_pending=u64(request, "max_pending"), clock=lambda: 0)
        elif kind == "server":
            self.server = fbe.Server(schema, self.wire.extend, self.package, final, default=self.on_request, log=log)
        else:
            self.proxy = fbe.Proxy(schema, self.on_frame, self.package, final, verify=request.get("verify") is True)

    def on_log(self, direction: str, text: str) -> None:
        self.log.append(f"{direction} {text}")

    def on_notify(self, msg: Any) -> None:
        self.notified.append(message_json(self.schema, msg))

    def on_request(self, msg: Any) -> None:
        self.requests.append(msg)
        self.items.append(message_json(self.schema, msg))

    def on_frame(self, frame: fbe.Frame) -> None:
        self.items.append({"type_id": frame.type_id, "known": frame.type is not None, "hex": frame.data.hex()})

    def on_end(self, token: Any, future: Any) -> None:
        """END of docs/TESTEE.md, from how the request's future ended."""
        exc = future.exception()
        end: Dict[str, Any] = {"token": token}
        if exc is None:
            msg = future.result()
            if msg is None:
                end["end"] = "sent"
            else:
                end.update(end="responded", **message_json(self.schema, msg))
            self.ended.append(end)
            return
        if isinstance(exc, fbe.RejectedError):
            end.update(end="rejected", **message_json(self.schema, exc.reject))
        elif isinstance(exc, fbe.TimeoutError):
            end["end"] = "timeout"
        elif isinstance(exc, fbe.ResetError):
            end["end"] = "reset"
        else:
            end["end"] = "failed"
        end.update(status=getattr(exc, "status", type(exc).__name__), error=str(exc))
        self.ended.append(end)

    def message(self, request: Dict[str, Any]) -> Any:
        """The message of the request's "type" (P's own "Name", or "pkg.Name") and "json"."""
        name = request["type"]
        full = name if "." in name and name in self.schema else f"{self.package}.{name}"
        cls = self.schema[full]
        return self.schema.from_json(cls, request_json(request["json"]), ordered=True)

    def answer(self, error: Optional[fbe.Error] = None, hex: bool = False, lists: str = "") -> Dict[str, Any]:
        """ok (or the error), what was sent, the lists the op reports, the log."""
        out: Dict[str, Any] = {"ok": True} if error is None else \
            {"ok": False, "status": error.status, "error": str(error)}
        if hex:
            out["hex"] = self.wire.hex()
        self.wire.clear()
        for name, key in (("ended", "e"), ("notified", "n"), ("requests", "r"), ("frames", "f")):
            if key in lists:
                attr = "items" if name in ("requests", "frames") else name
                out[name] = getattr(self, attr)
                setattr(self, attr, [])
        if self.log:
            out["log"], self.log = self.log, []
        return out

    def feed(self, request: Dict[str, Any], lists: str) -> Dict[str, Any]:
        data = bytes.fromhex(request["hex"])
        step = request.get("chunk_size")
        if step is not None and not (type(step) is int and step > 0):
            raise ValueError('"chunk_size" must be a positive integer')
        step = step if step and step <= len(data) else max(len(data), 1)
        target: Any = self.client or self.server or self.proxy
        try:
            for at in range(0, max(len(data), 1), step):
                target.feed(data[at:at + step])
        except fbe.Error as exc:
            return self.answer(exc, lists=lists)
        return self.answer(lists=lists)

    def handle(self, op: str, request: Dict[str, Any]) -> Dict[str, Any]:
        client, server = self.client, self.server
        if op == "request":
            if client is None:
                raise ValueError("not a client session")
            timeout, now, token = u64(request, "timeout"), u64(request, "now"), request.get("token", 0)
            msg = self.message(request)
            try:
                future = client.request(msg, timeout_ns=timeout, now=now)
            except fbe.Error as exc:
                return self.answer(exc, hex=True, lists="e")
            future.add_done_callback(lambda f: self.on_end(token, f))
            return self.answer(hex=True, lists="e")
        if op == "feed":
            if server is not None:
                raise ValueError('a server session is fed by "serve"')
            return self.feed(request, "en" if client is not None else "f")
        if op in ("watchdog", "reset"):
            if client is None:
                raise ValueError("not a client session")
            if op == "watchdog":
                client.watchdog(u64(request, "now"))
            else:
                client.reset()
            return self.answer(lists="e")
        if op == "serve":
            if server is None:
                raise ValueError("not a server session")
            return self.feed(request, "r")
        if op == "reply":
            index = request.get("request")
            if server is None:
                raise ValueError("not a server session")
            if type(index) is not int or not 0 <= index < len(self.requests):
                raise ValueError("no such request")
            msg = self.message(request)
            try:
                server.reply(self.requests[index], msg)
            except fbe.Error as exc:
                return self.answer(exc, hex=True)
            return self.answer(hex=True)
        if op == "send":
            if client is None and server is None:
                raise ValueError("a proxy sends nothing")
            msg = self.message(request)
            try:
                (client or server).send(msg)  # type: ignore[union-attr]
            except fbe.Error as exc:
                return self.answer(exc, hex=True, lists="e" if client else "")
            return self.answer(hex=True, lists="e" if client else "")
        raise ValueError(f"unknown op {op!r}")

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


SESSION_OPS = ("request", "feed", "watchdog", "reset", "serve", "reply", "send", "close")


class Testee:
    def __init__(self) -> None:
        self.include: List[str] = []
        self.schemas: Dict[str, fbe.Schema] = {}
        self.packages = Packages()
        self.sessions: Dict[str, Session] = {}

    def close_sessions(self) -> None:
        for session in self.sessions.values():
            session.close()
        self.sessions = {}

    def conversation(self, op: str, request: Dict[str, Any]) -> Dict[str, Any]:
        name = request.get("session")
        if not isinstance(name, str):
            return {"ok": False, "error": 'request needs "session"'}
        if op in ("client", "server", "proxy"):
            if name in self.sessions:
                return {"ok": False, "error": "a session of that name is open"}
            self.sessions[name] = Session(self.schema(request["package"]), request, op)
            return {"ok": True}
        session = self.sessions.get(name)
        if session is None:
            return {"ok": False, "error": "no such session"}
        if op == "close":
            del self.sessions[name]
            session.close()
            return {"ok": True}
        return session.handle(op, request)

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
        if op in SESSION_OPS or op in ("client", "server", "proxy"):
            return self.conversation(op, request)
        if op == "load":  # "packages" (schema texts) are found first, then "include"
            self.close_sessions()
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
        sys.stdout.write(answer_json(response) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

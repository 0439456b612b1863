"""Sender, Receiver and Proxy: the FBE protocol (messages framed back to back on a byte
stream, dispatched by type id) over any callable, file-like object, socket or asyncio
stream; and the log hooks, the core's text form of every message sent or received."""
from __future__ import annotations

from typing import Any, AsyncIterator, Callable, Iterator, List, NamedTuple, Optional, Union

from . import _core
from ._errors import Error

BytesLike = Union[bytes, bytearray, memoryview]
#: A log hook: log(direction, text), direction "send" or "receive", text the core's text
#: form of the message (docs/TEXT.md), the same line in every libfbe binding.
LogHook = Callable[[str, str], Any]


def _chunks(source: Any, chunk_size: int) -> Iterator[Any]:
    """The chunks of a source until it ends: a socket (``recv``), a file-like object
    (``read1`` when it has it, so a pipe's bytes come as they arrive; else ``read``), a
    callable returning chunks, or an iterable of chunks; an empty chunk (or None from a
    callable) ends the first three."""
    recv = getattr(source, "recv", None)
    read = getattr(source, "read1", None) or getattr(source, "read", None) if recv is None else None
    if recv is not None or read is not None or callable(source):
        pull = recv or read or source
        while True:
            chunk = pull(chunk_size) if pull is not source else pull()
            if not chunk:
                return
            yield chunk
    else:
        for chunk in source:
            if chunk:
                yield chunk


async def _achunks(reader: Any, chunk_size: int) -> AsyncIterator[bytes]:
    """The chunks of an asyncio.StreamReader (any object with a coroutine ``read(n)``)
    until it ends."""
    while True:
        chunk = await reader.read(chunk_size)
        if not chunk:
            return
        yield chunk


def _writer(sink: Any) -> Callable[[bytes], Any]:
    write = getattr(sink, "write", None)
    if write is not None:
        def write_all(data: bytes) -> None:
            view = memoryview(data)
            while view:
                n = write(view)
                if n is None or n >= len(view):  # buffered streams write everything
                    return
                if n <= 0:
                    raise OSError("the sink accepted no bytes")
                view = view[n:]
        return write_all
    if callable(sink):
        return sink
    raise TypeError(f"sink must be callable or have a write() method, got {type(sink).__name__}")


class Sender:
    """Writes every message it is given as one frame to ``sink``: a callable taking
    bytes (``bytearray().extend``, ``socket.sendall``) or a file-like object with
    ``write``. ``package`` selects the protocol (default: the schema's root package;
    a package's protocol includes the messages of its imports). ``final=True`` uses
    the final (compact) model. ``log``: a hook called with ("send", text form) for every
    message, once encoded and before the sink takes it. Not thread-safe: one sender per
    thread or a lock."""

    def __init__(self, schema: Any, sink: Any, package: Optional[str] = None, final: bool = False, *,
                 log: Optional[LogHook] = None):
        self.schema = schema
        self._engine = _core.SenderEngine(schema._core, _writer(sink), package, final)
        if log is not None:
            self._engine.set_log(log)

    def send(self, message: Any) -> int:
        """Sends one message (an instance of a message type of the protocol); returns
        the size of its frame. Raises what the sink raised, or fbe.Error."""
        return self._engine.send(message)

    def reply(self, request: Any, reply: Any) -> int:
        """Sends ``reply`` as the answer to ``request`` (docs/CLIENT.md, the server's
        side): the core checks that reply's type is the request's response or one of its
        rejects (fbe.TypeMismatchError otherwise) and sets reply's ``id`` to the
        request's (on the object too), then it is sent as ``send`` sends it."""
        return self._engine.reply(request, reply)

    def set_log(self, log: Optional[LogHook]) -> None:
        """The log hook (None: off): log("send", text) per message sent."""
        self._engine.set_log(log)

    @property
    def bytes_sent(self) -> int:
        return self._engine.bytes_sent


class Receiver:
    """Reads frames from bytes fed to it in chunks of any size; every complete frame is
    verified, decoded and handed to ``handler`` (a callable taking the message) in
    stream order. Without a handler, ``feed`` returns the messages instead. Frames
    whose type id the protocol does not know are skipped (``skipped``). A corrupt
    frame raises fbe.Error (with ``received``: the messages before it, when there is
    no handler) and the receiver starts afresh with the next bytes. ``limits`` (an
    fbe.Limits) applies to every frame: max_model_size bounds a frame, max_memory what
    its message may cost. ``log``: a hook called with ("receive", text form) for every
    message, once decoded and before the handler. Not thread-safe."""

    def __init__(self, schema: Any, handler: Optional[Callable[[Any], Any]] = None,
                 package: Optional[str] = None, final: bool = False, ordered: bool = False, *,
                 limits: Any = None, log: Optional[LogHook] = None):
        self.schema = schema
        self._handler = handler
        self._engine = _core.ReceiverEngine(schema._core, handler, package, final, ordered, limits=limits)
        if log is not None:
            self._engine.set_log(log)

    def set_log(self, log: Optional[LogHook]) -> None:
        """The log hook (None: off): log("receive", text) per message received."""
        self._engine.set_log(log)

    def feed(self, data: BytesLike) -> Optional[List[Any]]:
        """Takes the next bytes of the stream. Returns the messages they completed
        (no handler) or None (handler called for each)."""
        return self._engine.feed(data)

    def receive_from(self, source: Any, chunk_size: int = 65536) -> Optional[List[Any]]:
        """Feeds everything from ``source`` until it ends: a socket (its ``recv(n)``, until
        b""), a file-like object or pipe (its ``read1(n)`` or ``read(n)``, until b""), a
        callable returning chunks (until b"" or None) or an iterable of chunks. Returns the
        messages when there is no handler."""
        out: Optional[List[Any]] = None if self._engine_has_handler() else []
        for chunk in _chunks(source, chunk_size):
            try:
                got = self._engine.feed(chunk)
            except Error as exc:
                if out is not None:
                    exc.received = out + list(getattr(exc, "received", []))  # type: ignore[attr-defined]
                raise
            if out is not None and got:
                out.extend(got)
        return out

    async def receive_async(self, reader: Any, chunk_size: int = 65536) -> AsyncIterator[Any]:
        """``async for message in receiver.receive_async(reader)``: the messages of an
        asyncio stream (an asyncio.StreamReader, or any object with a coroutine
        ``read(n)``), in order, until it ends. For a receiver without a handler."""
        if self._engine_has_handler():
            raise TypeError("receive_async is for a Receiver without a handler")
        async for chunk in _achunks(reader, chunk_size):
            for message in self._engine.feed(chunk):
                yield message

    def _engine_has_handler(self) -> bool:
        return self._handler is not None

    def reset(self) -> None:
        """Drops any partial frame: the next byte fed starts a new frame."""
        self._engine.reset()

    @property
    def pending(self) -> int:
        return self._engine.pending

    @property
    def received(self) -> int:
        return self._engine.received

    @property
    def skipped(self) -> int:
        return self._engine.skipped


class Frame(NamedTuple):
    """A frame a Proxy hands over undecoded: its type id, the message class when the
    package's protocol knows the id (else None), and the frame's bytes, size field
    included (forward them as they are)."""

    type_id: int
    type: Any
    data: bytes


class Proxy:
    """Hands every frame of a byte stream over undecoded (docs/CLIENT.md "Proxies"), for
    a router or gateway that forwards, filters or logs messages without decoding them:
    ``handler(frame)`` per frame in stream order (a Frame), or, without a handler,
    ``feed`` returns the frames. Frames of type ids the protocol does not know are
    handed over too (``type`` None), so a proxy forwards a stream byte for byte. Frames
    are reassembled and checked as a Receiver checks them (size, size limit, root
    pointer); with ``verify=True`` a frame of a known type is also verified, and a bad
    one raises the error a Receiver raises. Not thread-safe."""

    def __init__(self, schema: Any, handler: Optional[Callable[[Frame], Any]] = None,
                 package: Optional[str] = None, final: bool = False, verify: bool = False, *,
                 limits: Any = None):
        self.schema = schema
        self._handler = handler
        wrapped = None if handler is None else (lambda t, c, d: handler(Frame(t, c, d)))
        self._engine = _core.ProxyEngine(schema._core, wrapped, package, final, verify, limits=limits)

    def feed(self, data: BytesLike) -> Optional[List[Frame]]:
        """Takes the next bytes of the stream. Returns the frames they completed (no
        handler) or None (handler called for each)."""
        got = self._engine.feed(data)
        return None if got is None else [Frame(*f) for f in got]

    def receive_from(self, source: Any, chunk_size: int = 65536) -> Optional[List[Frame]]:
        """Feeds everything from ``source`` until it ends (what Receiver.receive_from
        takes). Returns the frames when there is no handler."""
        out: Optional[List[Frame]] = None if self._handler is not None else []
        for chunk in _chunks(source, chunk_size):
            got = self.feed(chunk)
            if out is not None and got:
                out.extend(got)
        return out

    async def receive_async(self, reader: Any, chunk_size: int = 65536) -> AsyncIterator[Frame]:
        """``async for frame in proxy.receive_async(reader)``: the frames of an asyncio
        stream until it ends. For a proxy without a handler."""
        if self._handler is not None:
            raise TypeError("receive_async is for a Proxy without a handler")
        async for chunk in _achunks(reader, chunk_size):
            for frame in self.feed(chunk) or ():
                yield frame

    def reset(self) -> None:
        """Drops any partial frame: the next byte fed starts a new frame."""
        self._engine.reset()

    @property
    def pending(self) -> int:
        return self._engine.pending

    @property
    def received(self) -> int:
        """Frames of known types handed over so far."""
        return self._engine.received

    @property
    def skipped(self) -> int:
        """Frames of type ids the protocol does not know handed over so far."""
        return self._engine.skipped

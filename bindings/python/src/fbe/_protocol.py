"""Sender and Receiver: the FBE protocol (messages framed back to back on a byte
stream, dispatched by type id) over any callable or file-like object."""
from __future__ import annotations

from typing import Any, Callable, Iterable, List, Optional, Union

from . import _core
from ._errors import Error

BytesLike = Union[bytes, bytearray, memoryview]


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
    the final (compact) model. Not thread-safe: one sender per thread or a lock."""

    def __init__(self, schema: Any, sink: Any, package: Optional[str] = None, final: bool = False):
        self.schema = schema
        self._engine = _core.SenderEngine(schema._core, _writer(sink), package, final)

    def send(self, message: Any) -> int:
        """Sends one message (an instance of a message type of the protocol); returns
        the size of its frame. Raises what the sink raised, or fbe.Error."""
        return self._engine.send(message)

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
    its message may cost. Not thread-safe."""

    def __init__(self, schema: Any, handler: Optional[Callable[[Any], Any]] = None,
                 package: Optional[str] = None, final: bool = False, ordered: bool = False, *,
                 limits: Any = None):
        self.schema = schema
        self._handler = handler
        self._engine = _core.ReceiverEngine(schema._core, handler, package, final, ordered, limits=limits)

    def feed(self, data: BytesLike) -> Optional[List[Any]]:
        """Takes the next bytes of the stream. Returns the messages they completed
        (no handler) or None (handler called for each)."""
        return self._engine.feed(data)

    def receive_from(self, source: Any, chunk_size: int = 65536) -> Optional[List[Any]]:
        """Feeds everything from ``source`` until it ends: a file-like object (its
        ``read(n)``, until b""), a callable returning chunks (until b"" or None) or an
        iterable of chunks. Returns the messages when there is no handler."""
        out: Optional[List[Any]] = None if self._engine_has_handler() else []
        chunks: Iterable[Any]
        read = getattr(source, "read", None)
        if read is not None:
            chunks = iter(lambda: read(chunk_size), b"")
        elif callable(source):
            chunks = iter(source, None)
        else:
            chunks = source
        for chunk in chunks:
            if not chunk:
                if read is not None or callable(source):
                    break
                continue
            try:
                got = self._engine.feed(chunk)
            except Error as exc:
                if out is not None:
                    exc.received = out + list(getattr(exc, "received", []))  # type: ignore[attr-defined]
                raise
            if out is not None and got:
                out.extend(got)
        return out

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

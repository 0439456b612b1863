"""Requests and responses (docs/CLIENT.md): the client over the core's fbe_client, with
``concurrent.futures.Future`` (fbe.Client) or asyncio (fbe.AsyncClient); the server's
side (fbe.Server, fbe.AsyncServer: a handler per request type, the reply's id set by
the core's fbe_reply_prepare); and the asyncio stream helpers (fbe.open_client,
fbe.start_server).

Nothing here decides what a request is or how it ends: matching by id, rejects (local
and global), timeouts, reset, duplicate ids and the cap are the core's (one native
fbe_client per client). This file turns each end into a future, drives the watchdog
(a timer thread, or the event loop), and carries bytes to and from streams.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import itertools
import queue
import threading
import time
from typing import Any, Awaitable, Callable, Dict, Optional, Set

from . import _core
from ._errors import RejectedError
from ._protocol import LogHook, Receiver, Sender, _achunks, _chunks, _writer

# How a request ended: the core's fbe_request_end, and one of this binding's own (a
# received message that could not be made into a Python object: the request fails with
# why, e.g. MemoryError).
SENT, RESPONDED, REJECTED, TIMED_OUT, RESET, FAILED = range(6)

Handler = Callable[[Any], Any]


def _timeout_ns(timeout: Optional[float], timeout_ns: Optional[int]) -> int:
    """The timeout in nanoseconds (0: none) from seconds or nanoseconds."""
    if timeout is not None and timeout_ns is not None:
        raise TypeError("give timeout (seconds) or timeout_ns, not both")
    if timeout_ns is not None:
        return int(timeout_ns)
    if timeout is None:
        return 0
    if timeout <= 0:
        raise ValueError(f"timeout must be positive (seconds), not {timeout!r}")
    return max(1, round(timeout * 1_000_000_000))


class _Ends:
    """The futures of one client's pending requests by token, and the native client's
    done callback that ends them. Holds no reference to the client, so dropping the
    client closes it (its pending requests end as reset)."""

    def __init__(self) -> None:
        self.futures: Dict[int, Any] = {}
        self._tokens = itertools.count(1)

    def add(self, future: Any) -> int:
        token = next(self._tokens)
        self.futures[token] = future
        return token

    def __call__(self, token: int, end: int, message: Any, error: Optional[BaseException]) -> None:
        future = self.futures.pop(token, None)
        if future is None:
            return
        if end == REJECTED and error is not None:
            error.reject = message  # type: ignore[attr-defined]
        if future.done():  # cancelled by its caller: the core ended it all the same
            return
        try:
            if error is None:
                future.set_result(message)  # None when sent (a request without [response])
            else:
                future.set_exception(error)
        except (concurrent.futures.InvalidStateError, asyncio.InvalidStateError):
            pass  # cancelled meanwhile (another thread)


class _ClientBase:
    """What both clients share: the native client and the calls that need no clock."""

    _engine: Any

    def __init__(self, schema: Any, sink: Any, package: Optional[str], final: bool, notify: Any,
                 log: Optional[LogHook], max_pending: int, limits: Any, ordered: bool):
        self.schema = schema
        self.package = package
        self._ends = _Ends()
        self._sink = sink
        self._engine = _core.ClientEngine(schema._core, _writer(sink), self._ends, notify, package, final,
                                          max_pending=max_pending, limits=limits, ordered=ordered)
        if log is not None:
            self._engine.set_log(log)

    @property
    def pending(self) -> int:
        """Requests waiting for their end."""
        return int(self._engine.pending)

    @property
    def next_deadline(self) -> Optional[int]:
        """When the next request times out, on the client's clock (ns), or None."""
        return self._engine.next_deadline  # type: ignore[no-any-return]

    @property
    def closed(self) -> bool:
        return bool(self._engine.closed)

    @property
    def bytes_sent(self) -> int:
        return int(self._engine.bytes_sent)

    @property
    def received(self) -> int:
        """Messages received so far (responses, rejects and notifications)."""
        return int(self._engine.received)


class Client(_ClientBase):
    """A client of the requests of ``package`` (default: the schema's root package) and
    of the packages it imports, writing to ``sink`` (a callable taking bytes, such as
    ``socket.sendall``, or a file-like object) and fed the bytes it receives.

    ``request(message, timeout=...)`` returns a ``concurrent.futures.Future``: its result
    is the response, or None for a request type without ``[response]`` (it ends when
    sent); it fails with fbe.RejectedError (``.reject``: the reject message),
    fbe.TimeoutError "Timeout!" or fbe.ResetError "Reset client!". Every other message
    received goes to ``notify(message)`` (none: dropped). ``log(direction, text)`` gets
    the text form of every message sent and received.

    Timeouts: with the default clock (``time.monotonic_ns``) a timer thread of the client
    calls the watchdog when the next request falls due (started by the first request
    with a timeout); with ``clock=`` given (a callable returning nanoseconds), the
    caller calls ``watchdog()`` and nothing runs on its own.

    Thread-safe: every call holds the client's lock (a ``threading.RLock``), so requests
    may come from any thread while another feeds. Callbacks (notify, log, the futures'
    done callbacks) run on the thread that made them happen, holding that lock: they may
    make requests and send, and must not block on another thread that uses the client.
    ``close()`` (or leaving a ``with`` block, or dropping the client) ends every pending
    request as reset; from inside a callback it takes effect when the running call
    returns."""

    def __init__(self, schema: Any, sink: Any, package: Optional[str] = None, final: bool = False, *,
                 notify: Optional[Handler] = None, log: Optional[LogHook] = None, max_pending: int = 0,
                 limits: Any = None, ordered: bool = False, clock: Optional[Callable[[], int]] = None):
        self._lock = threading.RLock()
        self._clock: Callable[[], int] = clock or time.monotonic_ns
        self._timer: Optional[_Timer] = None
        self._own_clock = clock is None
        super().__init__(schema, sink, package, final, notify, log, max_pending, limits, ordered)

    def request(self, message: Any, timeout: Optional[float] = None, *, timeout_ns: Optional[int] = None,
                now: Optional[int] = None) -> "concurrent.futures.Future[Any]":
        """Sends ``message`` (of a ``[request]`` type) and returns the future of its end.
        ``timeout`` in seconds (or ``timeout_ns``; none: no timeout); ``now`` the time
        on the client's clock (default: ``clock()``). A request the core refuses raises
        at once and sends nothing: not a request type (fbe.TypeMismatchError), a pending
        request with an equal id (fbe.ArgumentError), past ``max_pending``
        (fbe.LimitError), bytes the sink refused (what the sink raised)."""
        ns = _timeout_ns(timeout, timeout_ns)
        future: "concurrent.futures.Future[Any]" = concurrent.futures.Future()
        with self._lock:
            token = self._ends.add(future)
            try:
                self._engine.request(message, ns, self._clock() if now is None else now, token)
            except BaseException:
                self._ends.futures.pop(token, None)
                raise
            if ns and self._own_clock and not future.done():
                self._wake_timer()
        return future

    def send(self, message: Any) -> int:
        """Sends any message of the protocol as it is (a notification); the frame's size."""
        with self._lock:
            return int(self._engine.send(message))

    def feed(self, data: Any) -> None:
        """Takes received bytes, in chunks of any size: responses and rejects end their
        requests, everything else goes to notify. A frame that cannot be valid raises the
        core's error (the receiver starts afresh, pending requests stay); an exception of
        notify stops the feed and is raised (the bytes after it wait for the next feed)."""
        with self._lock:
            self._engine.feed(data)

    def receive_from(self, source: Any, chunk_size: int = 65536) -> None:
        """Feeds everything from ``source`` (a socket, a file-like object, a callable
        returning chunks or an iterable of chunks; see Receiver.receive_from) until it
        ends, then resets the client: no answer can come on a stream that ended. Run it
        on a thread of its own for a socket.

        The source is read on a helper thread that never takes the client's lock, so it
        is drained even while a request's sink waits for room (a ``sendall`` to a peer
        that waits for us to read its answers first: with the reading done under the
        lock, both sides would wait for ever)."""
        chunks: "queue.SimpleQueue[Any]" = queue.SimpleQueue()

        def pump() -> None:
            try:
                for chunk in _chunks(source, chunk_size):
                    chunks.put(chunk)
            except BaseException as exc:  # (a broken stream: raised by the feeding thread)
                chunks.put(_Failed(exc))
            chunks.put(None)
        threading.Thread(target=pump, name="fbe-client-reader", daemon=True).start()
        try:
            while True:
                item = chunks.get()
                if item is None:
                    return
                if isinstance(item, _Failed):
                    raise item.exc
                self.feed(item)
        finally:
            if not self.closed:
                self.reset()

    def watchdog(self, now: Optional[int] = None) -> int:
        """Ends every request past its timeout at ``now`` (default: ``clock()``) with
        fbe.TimeoutError, oldest first; how many."""
        with self._lock:
            return int(self._engine.watchdog(self._clock() if now is None else now))

    def reset(self) -> None:
        """Ends every pending request with fbe.ResetError, oldest first, and drops a
        partial frame received."""
        with self._lock:
            self._engine.reset()

    def set_log(self, log: Optional[LogHook]) -> None:
        """The log hook (None: off)."""
        with self._lock:
            self._engine.set_log(log)

    def close(self) -> None:
        """Ends every pending request with fbe.ResetError and frees the native client;
        later calls raise RuntimeError. Closing again does nothing."""
        with self._lock:
            self._engine.close()
            timer, self._timer = self._timer, None
            if timer is not None:
                timer.stop()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        engine = self.__dict__.get("_engine")
        if engine is not None and not engine.closed:
            try:
                self.close()
            except Exception:  # (interpreter shutdown)
                pass

    def _wake_timer(self) -> None:
        if self._timer is None:
            self._timer = _Timer(self._engine, self._lock, self._clock)
            self._timer.start()
        else:
            self._timer.wake()


class _Failed:
    def __init__(self, exc: BaseException):
        self.exc = exc


class _Timer(threading.Thread):
    """A sync client's watchdog: sleeps until the next deadline (woken by each new
    request with a timeout) and calls the client's watchdog then. Holds the native
    client, not the Client, so dropping the Client closes it and stops this."""

    def __init__(self, engine: Any, lock: Any, clock: Callable[[], int]):
        super().__init__(name="fbe-client-watchdog", daemon=True)
        self._engine = engine
        self._cond = threading.Condition(lock)
        self._clock = clock
        self._stopped = False

    def wake(self) -> None:
        with self._cond:
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()

    def run(self) -> None:
        with self._cond:
            while not self._stopped and not self._engine.closed:
                deadline = self._engine.next_deadline
                now = self._clock()
                if deadline is not None and deadline <= now:
                    self._engine.watchdog(now)
                    continue
                self._cond.wait(None if deadline is None else (deadline - now) / 1e9)


class AsyncClient(_ClientBase):
    """The client for asyncio: ``await client.request(message, timeout=...)`` gives the
    response (or None for a request type without ``[response]``) or raises
    fbe.RejectedError (``.reject``), fbe.TimeoutError, fbe.ResetError. ``request``
    sends at once and returns an ``asyncio.Future``, so many may be in flight
    (``asyncio.gather``). The event loop drives the watchdog: one timer at the next
    deadline (``loop.call_at``), no polling; the clock is the loop's (``loop.time()``).

    Notifications go to ``notify(message)`` (a coroutine function runs as a task), or,
    without one, to ``async for message in client``, which ends when the client closes.
    Bytes come from ``feed(data)``, or ``await client.receive_from(reader)`` for an
    asyncio stream; ``fbe.open_client`` connects and does that in a task.

    Use it from the event loop's thread only (no lock: the loop is the serializer).
    Cancelling a request's future does not withdraw the request: the core ends it as
    usual and the end is dropped. ``close()`` ends every pending request as reset."""

    def __init__(self, schema: Any, sink: Any, package: Optional[str] = None, final: bool = False, *,
                 notify: Optional[Handler] = None, log: Optional[LogHook] = None, max_pending: int = 0,
                 limits: Any = None, ordered: bool = False):
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._timer: Optional[asyncio.TimerHandle] = None
        self._timer_at: Optional[int] = None
        self._inbox = _Inbox(notify)
        self._reader_task: Optional["asyncio.Task[Any]"] = None
        super().__init__(schema, sink, package, final, self._inbox, log, max_pending, limits, ordered)

    # ---- the loop and its clock

    def _get_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._inbox.queue()
        return self._loop

    def _now(self) -> int:
        return int(self._get_loop().time() * 1e9)

    def _arm(self) -> None:
        """One timer at the next deadline (kept when one at or before it is set)."""
        deadline = self._engine.next_deadline if not self._engine.closed else None
        if deadline is None:
            return  # (a timer set stays: it finds nothing to end and sets none)
        if self._timer_at is not None and self._timer_at <= deadline:
            return
        if self._timer is not None:
            self._timer.cancel()
        loop = self._get_loop()
        self._timer_at = deadline
        self._timer = loop.call_at(deadline / 1e9, self._fire, deadline)

    def _fire(self, deadline: int) -> None:
        self._timer = self._timer_at = None
        if self._engine.closed:
            return
        # the loop may run a timer up to its clock resolution early: the deadline counts as reached
        self._engine.watchdog(max(self._now(), deadline))
        self._arm()

    # ---- requests

    def request(self, message: Any, timeout: Optional[float] = None, *,
                timeout_ns: Optional[int] = None) -> "asyncio.Future[Any]":
        """Sends ``message`` (of a ``[request]`` type) now and returns the future of its
        end, to await. ``timeout`` in seconds (or ``timeout_ns``). A request the core
        refuses raises at once, as fbe.Client.request."""
        ns = _timeout_ns(timeout, timeout_ns)
        loop = self._get_loop()
        future = loop.create_future()
        token = self._ends.add(future)
        try:
            self._engine.request(message, ns, self._now(), token)
        except BaseException:
            self._ends.futures.pop(token, None)
            raise
        if ns and not future.done():
            self._arm()
        return future

    def send(self, message: Any) -> int:
        """Sends any message of the protocol as it is (a notification); the frame's size."""
        return int(self._engine.send(message))

    def feed(self, data: Any) -> None:
        """Takes received bytes (see fbe.Client.feed)."""
        self._engine.feed(data)

    async def receive_from(self, reader: Any, chunk_size: int = 65536) -> None:
        """Feeds what an asyncio stream (``reader.read(n)``) gives until it ends, then
        resets the client (no answer can come on a stream that ended)."""
        try:
            async for chunk in _achunks(reader, chunk_size):
                self._engine.feed(chunk)
        finally:
            if not self._engine.closed:
                self._engine.reset()

    async def drain(self) -> None:
        """Waits until the sink's buffer is low (its ``drain()``, an asyncio
        StreamWriter's); nothing for a sink without one."""
        drain = getattr(self._sink, "drain", None)
        if drain is not None:
            await drain()

    def watchdog(self, now: Optional[int] = None) -> int:
        """Ends every request past its timeout at ``now`` (default: the loop's time, ns)
        with fbe.TimeoutError; how many. The loop calls it by itself when one is due."""
        return int(self._engine.watchdog(self._now() if now is None else now))

    def reset(self) -> None:
        """Ends every pending request with fbe.ResetError and drops a partial frame."""
        self._engine.reset()

    def set_log(self, log: Optional[LogHook]) -> None:
        self._engine.set_log(log)

    # ---- notifications

    def __aiter__(self) -> "AsyncClient":
        if self._inbox.handler is not None:
            raise TypeError("this client hands its notifications to its notify handler")
        return self

    async def __anext__(self) -> Any:
        return await self._inbox.next()

    # ---- closing

    def close(self) -> None:
        """Ends every pending request with fbe.ResetError, frees the native client, ends
        the iteration of notifications, and closes the stream of ``open_client``."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = self._timer_at = None
        self._engine.close()
        self._inbox.close()
        if self._reader_task is not None and not self._reader_task.done():
            self._reader_task.cancel()
        close = getattr(self._sink, "close", None)
        if self._reader_task is not None and close is not None:
            close()

    def __del__(self) -> None:
        engine = self.__dict__.get("_engine")
        if engine is not None and not engine.closed:
            try:
                engine.close()  # (the pending requests end as reset)
            except Exception:
                pass

    async def wait_closed(self) -> None:
        """Waits for the reading task and the stream of ``open_client`` to finish."""
        if self._reader_task is not None:
            try:
                await self._reader_task
            except (asyncio.CancelledError, Exception):
                pass
        wait = getattr(self._sink, "wait_closed", None)
        if self._reader_task is not None and wait is not None:
            try:
                await wait()
            except (ConnectionError, OSError):
                pass

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.close()
        await self.wait_closed()

    def _attach(self, reader: Any) -> None:
        loop = self._get_loop()

        async def read() -> None:
            try:
                await self.receive_from(reader)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a bad frame, a broken connection: the client is done
                loop.call_exception_handler({"message": "fbe.AsyncClient: reading the stream failed",
                                             "exception": exc})
                self.close()

        self._reader_task = loop.create_task(read())


_CLOSED = object()


class _Inbox:
    """An AsyncClient's notifications: to its handler (a coroutine's as a task), or
    queued for ``async for``. The native client's notify callback (no reference to the
    client)."""

    def __init__(self, handler: Optional[Handler]):
        self.handler = handler
        self._queue: Optional["asyncio.Queue[Any]"] = None
        self._tasks: Set["asyncio.Future[Any]"] = set()
        self._closed = False

    def queue(self) -> "asyncio.Queue[Any]":
        if self._queue is None:
            self._queue = asyncio.Queue()
            if self._closed:
                self._queue.put_nowait(_CLOSED)
        return self._queue

    def __call__(self, message: Any) -> None:
        if self.handler is None:
            self.queue().put_nowait(message)
            return
        got = self.handler(message)
        if inspect.isawaitable(got):
            task = asyncio.ensure_future(got)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def next(self) -> Any:
        queue = self.queue()
        message = await queue.get()
        if message is _CLOSED:
            queue.put_nowait(_CLOSED)  # (for any other iterator)
            raise StopAsyncIteration
        return message

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._queue is not None:
                self._queue.put_nowait(_CLOSED)


# ------------------------------------------------------------------ servers

def _type_name(schema: Any, type: Any) -> str:
    cls = schema[type] if isinstance(type, str) else type
    name = getattr(cls, "__fbe_name__", None)
    if not name:
        raise TypeError(f"expected a message class or its name, got {type!r}")
    return str(name)


class _ServerBase:
    def __init__(self, schema: Any, sink: Any, package: Optional[str], final: bool,
                 handlers: Optional[Dict[Any, Handler]], default: Optional[Handler], log: Optional[LogHook],
                 limits: Any, ordered: bool):
        self.schema = schema
        self.package = package
        self._sink = sink
        self._handlers: Dict[str, Handler] = {}
        self.default = default
        self._sender = Sender(schema, sink, package, final, log=log)
        self._receiver = Receiver(schema, self._dispatch, package, final, ordered, limits=limits, log=log)
        for type, fn in (handlers or {}).items():
            self._handlers[_type_name(schema, type)] = fn

    def handle(self, type: Any) -> Callable[[Handler], Handler]:
        """A decorator: ``@server.handle(schema.NewOrder)`` (or ``"NewOrder"``) makes the
        function the handler of that message type."""
        name = _type_name(self.schema, type)

        def register(fn: Handler) -> Handler:
            self._handlers[name] = fn
            return fn
        return register

    def _handler_of(self, message: Any) -> Optional[Handler]:
        return self._handlers.get(type(message).__fbe_name__, self.default)

    def _dispatch(self, message: Any) -> None:
        raise NotImplementedError

    @staticmethod
    def _reply_of(exc: BaseException) -> Any:
        if isinstance(exc, RejectedError) and exc.reject is not None:
            return exc.reject
        raise exc

    @property
    def received(self) -> int:
        return self._receiver.received

    @property
    def bytes_sent(self) -> int:
        return self._sender.bytes_sent


class Server(_ServerBase):
    """The server's side of requests (docs/CLIENT.md): each message received goes to the
    handler of its type (``handlers={schema.NewOrder: fn}``, ``@server.handle(...)``, else
    ``default``); what a handler returns is sent as the reply (the response, or a reject:
    the core's fbe_reply_kind decides which it is, and fbe_reply_prepare sets its ``id``
    to the request's), None sends nothing; a handler may also
    ``raise fbe.RejectedError(reject_message)``. Other exceptions stop the feed and are
    raised by it. ``reply(request, reply)`` answers later (from any thread); ``send``
    sends a notification.

    ``feed(data)`` returns the messages no handler took. Thread-safe: calls hold the
    server's lock (handlers run holding it)."""

    def __init__(self, schema: Any, sink: Any, package: Optional[str] = None, final: bool = False, *,
                 handlers: Optional[Dict[Any, Handler]] = None, default: Optional[Handler] = None,
                 log: Optional[LogHook] = None, limits: Any = None, ordered: bool = False):
        self._lock = threading.RLock()
        self._unhandled: list = []
        super().__init__(schema, sink, package, final, handlers, default, log, limits, ordered)

    def _dispatch(self, message: Any) -> None:
        fn = self._handler_of(message)
        if fn is None:
            self._unhandled.append(message)
            return
        try:
            reply = fn(message)
        except RejectedError as exc:
            reply = self._reply_of(exc)
        if reply is not None:
            self._sender.reply(message, reply)

    def feed(self, data: Any) -> list:
        """Takes received bytes in chunks of any size; the messages no handler took."""
        with self._lock:
            self._unhandled = []
            try:
                self._receiver.feed(data)
            finally:
                out, self._unhandled = self._unhandled, []
            return out

    def receive_from(self, source: Any, chunk_size: int = 65536) -> list:
        """Feeds everything from ``source`` (a socket, a file-like object, ...) until it
        ends; the messages no handler took."""
        out = []
        for chunk in _chunks(source, chunk_size):
            out.extend(self.feed(chunk))
        return out

    def reply(self, request: Any, reply: Any) -> int:
        """Sends ``reply`` as the answer to ``request`` (its id set to the request's by
        the core; fbe.TypeMismatchError when it is neither the request's response nor one
        of its rejects); the frame's size."""
        with self._lock:
            return self._sender.reply(request, reply)

    def send(self, message: Any) -> int:
        """Sends any message of the protocol (a notification); the frame's size."""
        with self._lock:
            return self._sender.send(message)


class AsyncServer(_ServerBase):
    """The server for asyncio: as fbe.Server, and a handler may be a coroutine function
    (run as a task; its reply is sent when it returns, so replies may go out of order,
    which the client matches by id). An exception of a coroutine handler other than a
    reject goes to the loop's exception handler, and nothing is replied. Messages no
    handler takes go to ``async for message in server``. ``await server.serve(reader)``
    reads an asyncio stream until it ends, then waits for the running handlers. Use it
    from the event loop's thread."""

    def __init__(self, schema: Any, sink: Any, package: Optional[str] = None, final: bool = False, *,
                 handlers: Optional[Dict[Any, Handler]] = None, default: Optional[Handler] = None,
                 log: Optional[LogHook] = None, limits: Any = None, ordered: bool = False):
        self._queue: Optional["asyncio.Queue[Any]"] = None
        self._tasks: Set["asyncio.Task[Any]"] = set()
        super().__init__(schema, sink, package, final, handlers, default, log, limits, ordered)

    def _get_queue(self) -> "asyncio.Queue[Any]":
        if self._queue is None:
            self._queue = asyncio.Queue()
        return self._queue

    def _dispatch(self, message: Any) -> None:
        fn = self._handler_of(message)
        if fn is None:
            self._get_queue().put_nowait(message)
            return
        try:
            reply = fn(message)
        except RejectedError as exc:
            reply = self._reply_of(exc)
        if inspect.isawaitable(reply):
            task = asyncio.ensure_future(self._finish(message, reply))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif reply is not None:
            self._sender.reply(message, reply)

    async def _finish(self, request: Any, pending: Awaitable[Any]) -> None:
        try:
            reply = await pending
        except RejectedError as exc:
            if exc.reject is None:
                self._report(request, exc)
                return
            reply = exc.reject
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._report(request, exc)
            return
        if reply is not None:
            try:
                self._sender.reply(request, reply)
            except Exception as exc:
                self._report(request, exc)

    @staticmethod
    def _report(request: Any, exc: BaseException) -> None:
        asyncio.get_running_loop().call_exception_handler(
            {"message": f"fbe.AsyncServer: the handler of {type(request).__fbe_name__} failed", "exception": exc})

    def feed(self, data: Any) -> None:
        """Takes received bytes in chunks of any size."""
        self._receiver.feed(data)

    async def serve(self, reader: Any, chunk_size: int = 65536) -> None:
        """Feeds what an asyncio stream gives until it ends, then waits for the handlers
        still running and ends the iteration of unhandled messages."""
        try:
            async for chunk in _achunks(reader, chunk_size):
                self._receiver.feed(chunk)
                drain = getattr(self._sink, "drain", None)
                if drain is not None:
                    await drain()
            if self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
        finally:
            self._get_queue().put_nowait(_CLOSED)

    def reply(self, request: Any, reply: Any) -> int:
        """Sends ``reply`` as the answer to ``request`` (see fbe.Server.reply)."""
        return self._sender.reply(request, reply)

    def send(self, message: Any) -> int:
        return self._sender.send(message)

    def __aiter__(self) -> "AsyncServer":
        return self

    async def __anext__(self) -> Any:
        queue = self._get_queue()
        message = await queue.get()
        if message is _CLOSED:
            queue.put_nowait(_CLOSED)
            raise StopAsyncIteration
        return message


# ------------------------------------------------------------------ asyncio streams

async def open_client(schema: Any, host: Optional[str] = None, port: Optional[int] = None, *,
                      path: Optional[str] = None, package: Optional[str] = None, final: bool = False,
                      notify: Optional[Handler] = None, log: Optional[LogHook] = None, max_pending: int = 0,
                      limits: Any = None, ordered: bool = False, **connection: Any) -> AsyncClient:
    """Connects (``asyncio.open_connection(host, port)``, or a Unix socket at ``path``)
    and returns an AsyncClient writing to the connection and reading it in a task; at
    the end of the stream its pending requests end as reset. ``async with`` it, or
    ``close()`` and ``await wait_closed()``. ``connection``: more arguments of
    open_connection (``ssl=``, ...)."""
    if path is not None:
        reader, writer = await asyncio.open_unix_connection(path, **connection)
    else:
        reader, writer = await asyncio.open_connection(host, port, **connection)
    client = AsyncClient(schema, writer, package, final, notify=notify, log=log, max_pending=max_pending,
                         limits=limits, ordered=ordered)
    client._attach(reader)
    return client


async def start_server(schema: Any, handlers: Optional[Dict[Any, Handler]] = None, host: Optional[str] = None,
                       port: Optional[int] = None, *, path: Optional[str] = None, package: Optional[str] = None,
                       final: bool = False, default: Optional[Handler] = None, log: Optional[LogHook] = None,
                       limits: Any = None, ordered: bool = False,
                       connected: Optional[Callable[[AsyncServer], Any]] = None,
                       **server: Any) -> asyncio.Server:
    """Starts serving (``asyncio.start_server(..., host, port)``, or a Unix socket at
    ``path``): one AsyncServer per connection with these handlers, reading it until it
    ends. ``connected(server)`` is called with each one first (to add handlers, or to
    iterate its unhandled messages in a task of its own). Returns the asyncio server."""
    async def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        srv = AsyncServer(schema, writer, package, final, handlers=handlers, default=default, log=log,
                          limits=limits, ordered=ordered)
        try:
            if connected is not None:
                got = connected(srv)
                if inspect.isawaitable(got):
                    await got
            await srv.serve(reader)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except (ConnectionError, OSError):
                pass

    if path is not None:
        return await asyncio.start_unix_server(on_connection, path, **server)
    return await asyncio.start_server(on_connection, host, port, **server)

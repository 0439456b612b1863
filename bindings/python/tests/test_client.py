"""Requests and responses (docs/CLIENT.md) through fbe.Client, fbe.AsyncClient,
fbe.Server, fbe.AsyncServer and fbe.Proxy: every rule is the core's, these tests hold
the binding to showing it (futures ending exactly once, with the right exception and
message), over in-memory buffers with a scripted clock, threads over a socket pair, and
asyncio streams over TCP. No test times anything: timeouts run on a scripted clock, or
on real short timeouts whose ends are waited for with bounds far beyond them."""
from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import pickle
import socket
import sys
import threading
import uuid
import weakref
from typing import Any, Dict, List, Tuple

import pytest

import fbe

from conftest import SCHEMAS

WAIT = 60  # seconds: a bound for what happens at once, so that no test can flake


def uid(n: int) -> uuid.UUID:
    return uuid.UUID(int=n)


@pytest.fixture(scope="module")
def ex() -> fbe.Schema:
    return fbe.load(SCHEMAS / "exchange.fbe", include=[SCHEMAS])


@pytest.fixture(scope="module")
def gw() -> fbe.Schema:
    return fbe.load_package("gateway", include=[SCHEMAS])


class Wire:
    """A client and a server joined by two buffers, the test carrying the bytes."""

    def __init__(self, schema: fbe.Schema, package: str = None, final: bool = False, **client: Any):
        self.to_server, self.to_client = bytearray(), bytearray()
        self.notified: List[Any] = []
        client.setdefault("clock", lambda: 0)
        self.client = fbe.Client(schema, self.to_server.extend, package, final, notify=self.notified.append,
                                 **client)
        self.server = fbe.Server(schema, self.to_client.extend, package, final)
        self.requests: List[Any] = []

    def serve(self) -> List[Any]:
        got = self.server.feed(bytes(self.to_server))
        self.to_server.clear()
        self.requests += got
        return got

    def deliver(self) -> None:
        data = bytes(self.to_client)
        self.to_client.clear()
        self.client.feed(data)


def order(ex: fbe.Schema, n: int, quantity: float = 10.0) -> Any:
    return ex.NewOrder(id=uid(n), symbol="EURUSD", side=ex.Side.buy, price=1.5, quantity=quantity)


# ---- the rules, on a scripted clock -------------------------------------------------

def test_out_of_order_responses_rejects_and_notifications(ex: fbe.Schema) -> None:
    w = Wire(ex)
    ends: List[Tuple[int, str]] = []
    futures = [w.client.request(order(ex, 1)), w.client.request(order(ex, 2)),
               w.client.request(ex.CancelOrder(id=uid(3), order=77))]
    for n, f in enumerate(futures, 1):
        f.add_done_callback(lambda f, n=n: ends.append((n, type(f.exception() or f.result()).__name__)))
    assert w.client.pending == 3 and not any(f.done() for f in futures)
    reqs = w.serve()
    assert [type(r).__name__ for r in reqs] == ["NewOrder", "NewOrder", "CancelOrder"]
    w.server.reply(reqs[2], ex.UnknownOrder(order=77))          # a local reject
    w.server.reply(reqs[1], ex.OrderAccepted(order=1002))
    w.server.send(ex.Trade(order=1002, symbol="GBPUSD", price=1.25, quantity=5.0))
    w.server.reply(reqs[0], ex.Reject(reason="market closed"))  # the global one
    for b in bytes(w.to_client):  # one byte at a time
        w.client.feed(bytes([b]))
    w.to_client.clear()
    assert ends == [(3, "RejectedError"), (2, "OrderAccepted"), (1, "RejectedError")]
    assert futures[1].result() == ex.OrderAccepted(id=uid(2), order=1002)
    e = futures[2].exception()
    assert isinstance(e, fbe.RejectedError) and e.status == "FBE_ERR_REJECTED"
    assert e.reject == ex.UnknownOrder(id=uid(3), order=77)
    assert str(e) == 'UnknownOrder(id="00000000-0000-0000-0000-000000000003",order=77)'
    assert futures[0].exception().reject.reason == "market closed"
    assert w.notified == [ex.Trade(order=1002, symbol="GBPUSD", price=1.25, quantity=5.0)]
    assert w.client.pending == 0 and w.client.received == 4


def test_global_reject_through_an_import(gw: fbe.Schema) -> None:
    w = Wire(gw, "gateway")
    quote = w.client.request(gw.QuoteRequest(id=uid(1), symbol="EURUSD"))
    new = w.client.request(gw.exchange.NewOrder(id=uid(2), symbol="EURUSD"))
    quote_req, new_req = w.serve()
    assert type(quote_req).__fbe_name__ == "gateway.QuoteRequest"
    w.server.reply(quote_req, gw.exchange.Reject(reason="no quotes today"))
    w.server.reply(new_req, gw.exchange.OrderAccepted(order=3))
    w.deliver()
    assert quote.exception().reject == gw.exchange.Reject(id=uid(1), reason="no quotes today")
    assert new.result().order == 3


def test_unknown_and_late_response_ids_are_notifications(ex: fbe.Schema) -> None:
    w = Wire(ex)
    f = w.client.request(order(ex, 1))
    (req,) = w.serve()
    w.server.reply(req, ex.OrderAccepted(order=1))
    w.server.reply(req, ex.OrderAccepted(order=2))                 # a duplicate
    w.server.send(ex.OrderAccepted(id=uid(99), order=3))          # nobody's
    w.server.send(ex.OrderCancelled(id=uid(1), order=4))          # not its response type
    w.deliver()
    assert f.result().order == 1
    assert [m.order for m in w.notified] == [2, 3, 4]


def test_refusals_raise_and_send_nothing(ex: fbe.Schema) -> None:
    w = Wire(ex, max_pending=2)
    with pytest.raises(fbe.TypeMismatchError, match="is not a request"):
        w.client.request(ex.OrderAccepted(id=uid(1)))
    hb = w.client.request(ex.Heartbeat(id=uid(9)))
    assert hb.done() and hb.result() is None and w.client.pending == 0  # no [response]: ends when sent
    sent = len(w.to_server)
    w.client.request(order(ex, 1))
    sent = len(w.to_server)
    with pytest.raises(fbe.ArgumentError, match="already pending"):
        w.client.request(ex.CancelOrder(id=uid(1), order=5))
    assert len(w.to_server) == sent
    w.client.request(order(ex, 2))
    with pytest.raises(fbe.LimitError):
        w.client.request(order(ex, 3))
    with pytest.raises(fbe.TypeMismatchError):
        w.client.request("not a message")
    assert w.client.pending == 2 and len(w.to_server) > sent
    # a refused reply: not the request's response or reject
    reqs = w.serve()
    with pytest.raises(fbe.TypeMismatchError):
        w.server.reply(reqs[1], ex.OrderCancelled(order=1))
    w.server.reply(reqs[1], ex.OrderAccepted(order=1))
    w.deliver()
    assert w.client.pending == 1
    w.client.request(order(ex, 3))  # room again


def test_a_sink_that_fails_registers_nothing(ex: fbe.Schema) -> None:
    def sink(data: bytes) -> None:
        raise OSError("the peer went away")
    client = fbe.Client(ex, sink, clock=lambda: 0)
    with pytest.raises(OSError, match="went away"):
        client.request(order(ex, 1))
    assert client.pending == 0
    client.close()


def test_timeouts_on_a_scripted_clock_and_reset(ex: fbe.Schema) -> None:
    w = Wire(ex)
    f1 = w.client.request(order(ex, 1), timeout_ns=500, now=1000)
    f2 = w.client.request(order(ex, 2), timeout_ns=100, now=1000)   # starts at 1001: strictly increasing
    f3 = w.client.request(order(ex, 3), now=1000)                   # no timeout
    f4 = w.client.request(order(ex, 4), timeout=10.0, now=1000)     # seconds
    assert w.client.next_deadline == 1101
    assert w.client.watchdog(1100) == 0 and not f2.done()
    assert w.client.watchdog(1101) == 1
    e = f2.exception()
    assert isinstance(e, fbe.TimeoutError) and isinstance(e, TimeoutError) and str(e) == "Timeout!"
    assert e.status == "FBE_ERR_TIMEOUT" and not f1.done()
    assert w.client.watchdog(2000) == 1 and isinstance(f1.exception(), fbe.TimeoutError)
    assert w.client.next_deadline == 1003 + 10_000_000_000
    # a late response is a notification
    reqs = w.serve()
    w.server.reply(reqs[0], ex.OrderAccepted(order=5))
    w.deliver()
    assert [m.order for m in w.notified] == [5]
    order_of: List[str] = []
    f3.add_done_callback(lambda f: order_of.append("3"))
    f4.add_done_callback(lambda f: order_of.append("4"))
    w.client.feed(bytes(w.to_client[:0]) + b"\x20\x00")  # a partial frame, dropped by reset
    w.client.reset()
    assert order_of == ["3", "4"]  # oldest first
    assert isinstance(f3.exception(), fbe.ResetError) and str(f4.exception()) == "Reset client!"
    assert w.client.pending == 0 and w.client.next_deadline is None
    w.client.close()


def test_hostile_frames_keep_the_pending_requests(ex: fbe.Schema) -> None:
    w = Wire(ex)
    f = w.client.request(order(ex, 1))
    with pytest.raises(fbe.MalformedError):
        w.client.feed(bytes.fromhex("03000000"))
    with pytest.raises(fbe.LimitError):
        w.client.feed(bytes.fromhex("ffffff7f"))
    (req,) = w.serve()
    w.server.reply(req, ex.OrderAccepted(order=1))
    w.deliver()
    assert f.result().order == 1


@pytest.mark.parametrize("final", [False, True])
def test_both_models(ex: fbe.Schema, final: bool) -> None:
    w = Wire(ex, final=final)
    f = w.client.request(order(ex, 1))
    (req,) = w.serve()
    assert req == order(ex, 1)
    w.server.reply(req, ex.OrderAccepted(order=7))
    w.deliver()
    assert f.result() == ex.OrderAccepted(id=uid(1), order=7)


# ---- the server's side --------------------------------------------------------------

def test_server_handlers_replies_and_rejects(ex: fbe.Schema) -> None:
    out, back = bytearray(), bytearray()
    server = fbe.Server(ex, back.extend)

    @server.handle(ex.NewOrder)
    def new_order(o: Any) -> Any:
        if o.quantity > 100:
            raise fbe.RejectedError(ex.Reject(reason="too large"))
        if o.quantity > 50:
            return ex.Reject(reason="returned")
        return ex.OrderAccepted(order=int(o.quantity))

    server.handle("CancelOrder")(lambda c: None)  # answered later
    client = fbe.Client(ex, out.extend, clock=lambda: 0)
    fs = [client.request(order(ex, n, q)) for n, q in ((1, 10), (2, 60), (3, 200))]
    cancel = client.request(ex.CancelOrder(id=uid(4), order=1))
    client.send(ex.Trade(order=1))
    unhandled = server.feed(bytes(out))
    assert unhandled == [ex.Trade(order=1)]
    reply = ex.OrderCancelled(order=1)
    assert server.reply(ex.CancelOrder(id=uid(4), order=1), reply) > 0
    assert reply.id == uid(4)  # the core set it, on the object too
    client.feed(bytes(back))
    assert fs[0].result() == ex.OrderAccepted(id=uid(1), order=10)
    assert fs[1].exception().reject.reason == "returned"
    assert fs[2].exception().reject == ex.Reject(id=uid(3), reason="too large")
    assert cancel.result() == ex.OrderCancelled(id=uid(4), order=1)
    assert fbe._core.reply_kind(ex.NewOrder, ex.OrderAccepted) == 1
    assert fbe._core.reply_kind(ex.NewOrder, ex.Reject) == 2
    assert fbe._core.reply_kind(ex.NewOrder, ex.UnknownOrder) == 0


def test_server_handler_errors_stop_the_feed(ex: fbe.Schema) -> None:
    out, back = bytearray(), bytearray()
    server = fbe.Server(ex, back.extend, handlers={ex.NewOrder: lambda o: 1 / 0})
    client = fbe.Client(ex, out.extend, clock=lambda: 0)
    client.request(order(ex, 1))
    with pytest.raises(ZeroDivisionError):
        server.feed(bytes(out))
    server2 = fbe.Server(ex, back.extend, handlers={ex.NewOrder: lambda o: ex.Trade()})
    with pytest.raises(fbe.TypeMismatchError):
        server2.feed(bytes(out))


def test_rejected_error_carries_its_reject(ex: fbe.Schema) -> None:
    e = fbe.RejectedError(ex.Reject(id=uid(1), reason="x"))
    assert e.reject.reason == "x" and str(e) == 'Reject(id="00000000-0000-0000-0000-000000000001",reason="x")'
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is fbe.RejectedError and back.reject == e.reject and str(back) == str(e)
    assert fbe.RejectedError("plain").reject is None
    for cls in (fbe.RejectedError, fbe.TimeoutError, fbe.ResetError):
        assert issubclass(cls, fbe.Error)
    assert issubclass(fbe.TimeoutError, TimeoutError)


# ---- proxies and logs ---------------------------------------------------------------

@pytest.mark.parametrize("final", [False, True])
def test_proxy_pipes_a_stream_byte_for_byte(ex: fbe.Schema, gw: fbe.Schema, final: bool) -> None:
    stream = bytearray()
    client = fbe.Client(ex, stream.extend, final=final, clock=lambda: 0)
    for n in range(1, 4):
        client.request(order(ex, n))
    client.request(ex.CancelOrder(id=uid(7), order=1))
    foreign = bytearray()  # a frame of a type id the exchange does not know
    fbe.Sender(gw, foreign.extend, "gateway", final=final).send(gw.Quote(symbol="EURUSD"))
    stream += foreign
    client.send(ex.Trade(order=1))
    forwarded = bytearray()
    frames: List[fbe.Frame] = []
    server = fbe.Server(ex, bytearray().extend, final=final)

    def forward(frame: fbe.Frame) -> None:
        frames.append(frame)
        forwarded.extend(frame.data)
        server.feed(frame.data)
    proxy = fbe.Proxy(ex, forward, final=final, verify=True)
    for at in range(0, len(stream), 5):
        proxy.feed(stream[at:at + 5])
    assert bytes(forwarded) == bytes(stream)
    assert [f.type.__name__ if f.type else None for f in frames] == \
        ["NewOrder", "NewOrder", "NewOrder", "CancelOrder", None, "Trade"]
    assert frames[4].type_id == gw.Quote.__fbe_type_id__
    assert proxy.received == 5 and proxy.skipped == 1 and server.received == 5
    # without a handler, feed returns the frames
    assert [f.type_id for f in fbe.Proxy(ex, final=final).feed(bytes(stream))] == [f.type_id for f in frames]


def test_proxy_verify(ex: fbe.Schema) -> None:
    good = bytearray()
    fbe.Sender(ex, good.extend).send(order(ex, 1))
    bad = bytearray(good)
    bad[-12:-4] = b"\xff" * 8  # the symbol's offset: out of the frame
    assert fbe.Proxy(ex).feed(bytes(bad))[0].data == bytes(bad)  # not verified: handed over
    with pytest.raises(fbe.MalformedError):
        fbe.Proxy(ex, verify=True).feed(bytes(bad))
    with pytest.raises(fbe.MalformedError):
        fbe.Proxy(ex).feed(bytes.fromhex("03000000"))


def test_log_hooks_print_the_text_form(ex: fbe.Schema) -> None:
    lines: List[str] = []
    out, back = bytearray(), bytearray()
    client = fbe.Client(ex, out.extend, clock=lambda: 0, log=lambda d, t: lines.append(f"client {d} {t}"))
    server = fbe.Server(ex, back.extend, handlers={ex.NewOrder: lambda o: ex.OrderAccepted(order=5)},
                        log=lambda d, t: lines.append(f"server {d} {t}"))
    client.request(ex.NewOrder(id=uid(1), symbol="EURUSD"))
    server.feed(bytes(out))
    client.feed(bytes(back))
    new = 'NewOrder(id="00000000-0000-0000-0000-000000000001",symbol="EURUSD",side=buy,price=0.0,quantity=0.0)'
    accepted = 'OrderAccepted(id="00000000-0000-0000-0000-000000000001",order=5)'
    assert lines == [f"client send {new}", f"server receive {new}", f"server send {accepted}",
                     f"client receive {accepted}"]
    # Sender and Receiver take the same hook; set_log(None) turns it off
    got: List[Tuple[str, str]] = []
    sender = fbe.Sender(ex, bytearray().extend, log=lambda d, t: got.append((d, t)))
    sender.send(ex.Trade(order=1))
    sender.set_log(None)
    sender.send(ex.Trade(order=2))
    receiver = fbe.Receiver(ex, log=lambda d, t: got.append((d, t)))
    receiver.feed(bytes(back))
    assert got == [("send", 'Trade(order=1,symbol="",price=0.0,quantity=0.0)'), ("receive", accepted)]


def test_a_failing_log_hook_is_reported_not_raised(ex: fbe.Schema, monkeypatch: Any) -> None:
    reported: List[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_value))

    def bad(direction: str, text: str) -> None:
        raise ValueError("log broke")
    out = bytearray()
    client = fbe.Client(ex, out.extend, clock=lambda: 0, log=bad)
    f = client.request(order(ex, 1))
    assert client.pending == 1 and out and not f.done()  # sent and pending all the same
    assert fbe.Sender(ex, bytearray().extend, log=bad).send(ex.Trade()) > 0
    assert [str(e) for e in reported] == ["log broke", "log broke"]


# ---- callbacks, threads and lifetimes -----------------------------------------------

def test_callbacks_may_request_and_close(ex: fbe.Schema) -> None:
    w = Wire(ex)
    chained: List[Any] = []
    first = w.client.request(order(ex, 1))
    first.add_done_callback(lambda f: chained.append(w.client.request(order(ex, 2))))
    (req,) = w.serve()
    w.server.reply(req, ex.OrderAccepted(order=1))
    w.deliver()
    assert first.result().order == 1 and w.client.pending == 1 and not chained[0].done()
    # close from a callback: done when the running call returns; the others end as reset
    third = w.client.request(order(ex, 3))
    chained[0].add_done_callback(lambda f: w.client.close())
    w.serve()
    w.server.reply(w.requests[-2], ex.OrderAccepted(order=2))
    w.deliver()
    assert chained[0].result().order == 2
    assert w.client.closed and isinstance(third.exception(), fbe.ResetError)
    with pytest.raises(RuntimeError, match="closed"):
        w.client.request(order(ex, 4))
    w.client.close()  # again: nothing


def test_reentrant_calls_are_refused(ex: fbe.Schema) -> None:
    errors: List[BaseException] = []
    holder: Dict[str, fbe.Client] = {}

    def notify(msg: Any) -> None:
        for call in (lambda: holder["c"].feed(b""), holder["c"].reset):
            try:
                call()
            except (RuntimeError, fbe.Error) as e:
                errors.append(e)

    def sink(data: bytes) -> None:
        try:
            holder["c"].send(ex.Trade())
        except RuntimeError as e:
            errors.append(e)
    holder["c"] = c = fbe.Client(ex, sink, notify=notify, clock=lambda: 0)
    c.request(order(ex, 1))
    back = bytearray()
    fbe.Sender(ex, back.extend).send(ex.Trade())
    c.feed(bytes(back))
    assert [type(e).__name__ for e in errors] == ["RuntimeError", "ArgumentError", "RuntimeError"]
    assert "fbe_client_feed called from one of its callbacks" in str(errors[1])
    assert c.pending == 1


def test_dropping_a_client_with_pending_requests(ex: fbe.Schema) -> None:
    out = bytearray()
    client = fbe.Client(ex, out.extend, notify=lambda m: None, clock=lambda: 0)
    fs = [client.request(order(ex, n)) for n in range(5)]
    ref = weakref.ref(client)
    del client
    gc.collect()
    assert ref() is None
    assert all(isinstance(f.exception(timeout=WAIT), fbe.ResetError) for f in fs)
    # the async one too
    async def main() -> List[Any]:
        c = fbe.AsyncClient(ex, bytearray().extend)
        futures = [c.request(order(ex, n)) for n in range(3)]
        del c
        gc.collect()
        return await asyncio.gather(*futures, return_exceptions=True)
    assert all(isinstance(e, fbe.ResetError) for e in asyncio.run(main()))


def test_timer_thread_times_out_on_real_time(ex: fbe.Schema) -> None:
    with fbe.Client(ex, bytearray().extend) as client:
        slow = client.request(order(ex, 1), timeout=0.02)
        never = client.request(order(ex, 2), timeout=3600)
        assert isinstance(slow.exception(timeout=WAIT), fbe.TimeoutError)
        assert not never.done()
    assert isinstance(never.exception(timeout=WAIT), fbe.ResetError)


def test_threads_over_a_socket_pair(ex: fbe.Schema) -> None:
    """Four threads request while a reader thread feeds the responses; a server thread
    answers over the other end. Every future ends with its own answer."""
    a, b = socket.socketpair()
    server = fbe.Server(ex, b.sendall, handlers={
        ex.NewOrder: lambda o: ex.OrderAccepted(order=int(o.quantity)) if o.quantity % 7 else
        ex.Reject(reason=f"no {int(o.quantity)}")})
    serving = threading.Thread(target=server.receive_from, args=(b,), daemon=True)
    serving.start()
    client = fbe.Client(ex, a.sendall)
    reading = threading.Thread(target=client.receive_from, args=(a,), daemon=True)
    reading.start()
    results: Dict[int, concurrent.futures.Future] = {}
    lock = threading.Lock()

    def requester(base: int) -> None:
        for n in range(base, base + 250):
            f = client.request(order(ex, n, float(n)), timeout=WAIT)
            with lock:
                results[n] = f
    threads = [threading.Thread(target=requester, args=(k * 250 + 1,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n, f in results.items():
        if n % 7:
            assert f.result(timeout=WAIT) == ex.OrderAccepted(id=uid(n), order=n)
        else:
            assert f.exception(timeout=WAIT).reject == ex.Reject(id=uid(n), reason=f"no {n}")
    assert len(results) == 1000 and client.pending == 0
    a.shutdown(socket.SHUT_WR)
    serving.join(WAIT)
    b.close()
    reading.join(WAIT)
    a.close()
    client.close()


# ---- asyncio ------------------------------------------------------------------------

def test_asyncio_streams_round_trip(ex: fbe.Schema) -> None:
    """A server (fbe.start_server) and a client (fbe.open_client) over TCP in one event
    loop: 1,000 requests in flight at once, answered by sync and async handlers, out of
    order; every future checked. Then notifications by `async for`, a timeout by the
    loop's watchdog, and closing with requests pending."""
    async def main() -> None:
        async def cancel(c: Any) -> Any:
            await asyncio.sleep(0.001 * (c.order % 3))  # answers out of order
            if c.order % 2:
                raise fbe.RejectedError(ex.UnknownOrder(order=c.order))
            return ex.OrderCancelled(order=c.order)

        def new_order(o: Any) -> Any:
            if o.symbol == "SILENT":
                return None  # never answered: its request times out
            return ex.OrderAccepted(order=int(o.quantity))

        def connected(srv: fbe.AsyncServer) -> None:
            srv.send(ex.Trade(order=1, symbol="HELLO"))
        server = await fbe.start_server(ex, {ex.NewOrder: new_order, ex.CancelOrder: cancel}, "127.0.0.1", 0,
                                        connected=connected)
        port = server.sockets[0].getsockname()[1]
        lines: List[str] = []
        async with await fbe.open_client(ex, "127.0.0.1", port, log=lambda d, t: lines.append(d)) as client:
            futures = {}
            for n in range(1, 1001):
                if n % 4:
                    futures[n] = client.request(order(ex, n, float(n)), timeout=WAIT)
                else:
                    futures[n] = client.request(ex.CancelOrder(id=uid(n), order=n), timeout=WAIT)
            await client.drain()
            got = await asyncio.gather(*futures.values(), return_exceptions=True)
            for (n, _), g in zip(futures.items(), got):
                if n % 4:
                    assert g == ex.OrderAccepted(id=uid(n), order=n), (n, g)
                elif n % 2:
                    assert isinstance(g, fbe.RejectedError) and g.reject == ex.UnknownOrder(id=uid(n), order=n)
                else:
                    assert g == ex.OrderCancelled(id=uid(n), order=n)
            async for note in client:
                assert note == ex.Trade(order=1, symbol="HELLO")
                break
            with pytest.raises(fbe.TimeoutError, match="Timeout!"):
                await client.request(ex.NewOrder(id=uid(5000), symbol="SILENT"), timeout=0.02)
            assert client.pending == 0 and client.next_deadline is None
            hb = await client.request(ex.Heartbeat(id=uid(6000)))
            assert hb is None
            pending = client.request(ex.NewOrder(id=uid(7000), symbol="SILENT"))
        with pytest.raises(fbe.ResetError):
            await pending
        assert lines.count("send") == 1003 and lines.count("receive") == 1001
        server.close()
        await server.wait_closed()
    asyncio.run(asyncio.wait_for(main(), WAIT * 5))


def test_asyncio_client_over_buffers_and_iteration(ex: fbe.Schema) -> None:
    async def main() -> None:
        out = bytearray()
        client = fbe.AsyncClient(ex, out.extend)
        f = client.request(order(ex, 1))
        back = bytearray()
        server = fbe.AsyncServer(ex, back.extend)
        server.feed(bytes(out))
        request = await server.__anext__()  # unhandled: iterated
        server.reply(request, ex.OrderAccepted(order=9))
        server.send(ex.Trade(order=2))
        client.feed(bytes(back))
        assert (await f).order == 9
        notes = []
        client.close()
        async for note in client:  # what came before the close, then the end
            notes.append(note)
        assert notes == [ex.Trade(order=2)]
    asyncio.run(main())


def test_receiver_and_proxy_async_iteration(ex: fbe.Schema) -> None:
    async def main() -> None:
        data = bytearray()
        sender = fbe.Sender(ex, data.extend)
        for n in range(10):
            sender.send(ex.Trade(order=n))
        reader = asyncio.StreamReader()
        reader.feed_data(bytes(data))
        reader.feed_eof()
        got = [m.order async for m in fbe.Receiver(ex).receive_async(reader, chunk_size=7)]
        assert got == list(range(10))
        reader = asyncio.StreamReader()
        reader.feed_data(bytes(data))
        reader.feed_eof()
        frames = [f async for f in fbe.Proxy(ex).receive_async(reader, chunk_size=3)]
        assert b"".join(f.data for f in frames) == bytes(data)
    asyncio.run(main())


# ---- the testee's conversations through the shared runner ---------------------------

REPO = SCHEMAS.parent
RUNNER = REPO / "tests" / "conformance" / "runner"
CONVERSATIONS = REPO / "tests" / "conformance" / "conversations.jsonl"
C_TESTEE = REPO / "build" / "release" / "bin" / "fbe"


def run_conversations(*testees: str) -> str:
    import subprocess
    args = [sys.executable, str(RUNNER)]
    for t in testees:
        args += ["--testee", t]
    out = subprocess.run(args + ["--conversations", str(CONVERSATIONS)], capture_output=True, text=True,
                         check=False, timeout=600)
    report = out.stdout + out.stderr
    assert out.returncode == 0, report
    return out.stdout


def test_conversations_through_the_runner() -> None:
    """python -m fbe.testee plays every conversation script as client, server and proxy
    (docs/TESTEE.md "Conversations"), each answer held to the scripts' expectations."""
    import re
    import shlex
    scripts = sum(1 for line in CONVERSATIONS.read_text(encoding="utf-8").splitlines() if line.strip())
    out = run_conversations(f"python={shlex.quote(sys.executable)} -m fbe.testee")
    assert re.search(r"^python +%d/0 *$" % scripts, out, re.M), out
    assert re.search(r"^%d passed, 0 failed$" % scripts, out, re.M), out


@pytest.mark.skipif(not C_TESTEE.is_file(), reason="the C testee is not built (build/release/bin/fbe)")
def test_conversations_with_the_c_testee() -> None:
    """Every pair: c x python, python x c, python x python, held to c x c's answers."""
    import re
    import shlex
    scripts = sum(1 for line in CONVERSATIONS.read_text(encoding="utf-8").splitlines() if line.strip())
    out = run_conversations(f"c={shlex.quote(str(C_TESTEE))} testee",
                            f"python={shlex.quote(sys.executable)} -m fbe.testee")
    assert re.search(r"^c +%d/0 +%d/0 *$" % (scripts, scripts), out, re.M), out
    assert re.search(r"^python +%d/0 +%d/0 *$" % (scripts, scripts), out, re.M), out
    assert re.search(r"^%d passed, 0 failed$" % (4 * scripts), out, re.M), out


def test_client_and_server_over_pipes(ex: fbe.Schema) -> None:
    """Two pipes, the server on a thread of its own: bytes read as they arrive (read1),
    not when a buffer is full."""
    import os
    r1, w1 = os.pipe()
    r2, w2 = os.pipe()
    with open(r1, "rb") as server_in, open(w2, "wb", buffering=0) as server_out, \
            open(w1, "wb", buffering=0) as client_out, open(r2, "rb") as client_in:
        server = fbe.Server(ex, server_out, handlers={ex.NewOrder: lambda o: ex.OrderAccepted(order=int(o.price))})
        serving = threading.Thread(target=server.receive_from, args=(server_in,), daemon=True)
        serving.start()
        client = fbe.Client(ex, client_out)
        reading = threading.Thread(target=client.receive_from, args=(client_in,), daemon=True)
        reading.start()
        for n in range(20):  # one at a time: each answer must come while the pipe stays open
            future = client.request(ex.NewOrder(id=uid(n), price=float(n)), timeout=WAIT)
            assert future.result(timeout=WAIT).order == n
        client_out.close()
        serving.join(WAIT)
        server_out.close()
        reading.join(WAIT)
        assert client.closed is False and client.pending == 0
        client.close()


def test_a_blocked_sink_does_not_stop_the_reading(ex: fbe.Schema) -> None:
    """Both directions full at once: one thread sends 20,000 requests (several times a
    socket's buffers) while the server answers each with a large reply. The requests'
    sendall waits for the server, which waits for the client to read its answers; the
    client reads them on a thread that does not take its lock, so all complete."""
    a, b = socket.socketpair()
    big = "x" * 2000
    server = fbe.Server(ex, b.sendall, handlers={ex.NewOrder: lambda o: ex.Reject(reason=big)})
    serving = threading.Thread(target=server.receive_from, args=(b,), daemon=True)
    serving.start()
    client = fbe.Client(ex, a.sendall)
    reading = threading.Thread(target=client.receive_from, args=(a,), daemon=True)
    reading.start()
    futures = [client.request(order(ex, n), timeout=WAIT) for n in range(20000)]
    assert all(f.exception(timeout=WAIT).reject.reason == big for f in futures)
    a.shutdown(socket.SHUT_WR)
    serving.join(WAIT)
    b.close()
    reading.join(WAIT)
    a.close()
    client.close()

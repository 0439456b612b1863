"""Values a program builds and objects it drops never crash the interpreter (issue 17):
a value nested far deeper than any wire format allows raises fbe.LimitError from ==,
encode and to_json, and repr prints it as invalid (hash reads the [key] fields alone); a struct's class (and with it
its schema) dropped by user code in the middle of a call; receivers, senders and
schemas dropped from their own callbacks; decode and encode without the GIL while
other threads drop every other reference. The bodies that crashed run in a
subprocess, so a crash is this test failing, not pytest dying."""
from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
from typing import Any, List

import fbe
from fbe import _core

from conftest import SCHEMAS

DEEP = 100_000


def run_isolated(code: str) -> str:
    """Runs code in a fresh interpreter; its output, which must end with "ok"."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"exit {proc.returncode}:\n{out}"
    assert proc.stdout.rstrip().endswith("ok"), out
    return proc.stdout


def test_deep_value_raises_instead_of_crashing() -> None:
    # hash() of a 60,000-deep chain once overflowed the C stack; every operation now goes
    # through the core's walk, which stops at its depth limit
    out = run_isolated(f"""
        import fbe, sys
        s = fbe.loads("package deep\\nstruct N {{ [key] int32 v; N? next; }}\\n"
                      "struct D {{ [key] D? next; }}\\n")
        def chain(cls, **kw):
            n = None
            for i in range({DEEP}):
                n = cls(next=n, **kw)
            return n
        a, b, d = chain(s.N, v=1), chain(s.N, v=1), chain(s.D)
        for name, op in [("hash", lambda: hash(a)), ("eq", lambda: a == b), ("repr", lambda: repr(a)),
                         ("hash-key", lambda: hash(d)), ("lt", lambda: d < d),
                         ("encode", a.encode), ("to_json", a.to_json)]:
            try:
                r = op()
                print(name, "returned", str(r)[:40])
            except fbe.LimitError as e:
                print(name, "LimitError", "deeper than 256" in str(e))
        del a, b, d  # deallocation is iterative (the trashcan), whatever the depth
        print("ok")
    """)
    assert "hash returned" in out  # the [key] field v only
    assert "eq LimitError True" in out
    assert "repr returned N(<invalid: value nested deeper than 256" in out
    assert "hash-key LimitError True" in out and "lt LimitError True" in out
    assert "encode LimitError True" in out
    assert "to_json LimitError True" in out


def test_hash_of_a_value_within_the_depth_limit() -> None:
    s = fbe.loads("package deep\nstruct N { [key] int32 v; [key] N? next; }\n")
    a = b = None
    for i in range(100):  # within the depth every binding encodes
        a, b = s.N(v=i, next=a), s.N(v=i, next=b)
    assert hash(a) == hash(b) and a == b and not a < b
    assert s.N.decode(a.encode()) == a


SWAP = """
    import fbe, gc
    TEXT = "package swap\\nstruct N { [key] int32 v; string[] names; string a; string b; }\\n"
    other = fbe.loads(TEXT)
    x = other.N(v=1)

    def drop_class():
        # x's class is the only reference to the schema it came from: reassigning
        # __class__ to the same struct of another load frees that schema now
        x.__class__ = other.N
        gc.collect()
        junk = [bytes(100) * 40 for _ in range(2000)]  # reuse the freed memory

    class Index:  # an int by __index__: the walk calls it in the middle of encode
        def __index__(self):
            drop_class()
            return 1

    class Dies:
        def __del__(self):
            drop_class()

    for i in range(30):
        x.__class__ = fbe.loads(TEXT).N
        gc.collect()
        x.v = Index()
        assert len(x.encode()) > 0
        x.__class__ = fbe.loads(TEXT).N
        gc.collect()
        assert x.to_json()
        y = other.N(v=1, a="s")
        x.__class__ = fbe.loads(TEXT).N
        x.a = "s"
        gc.collect()
        assert (x == y) is True
        x.__class__ = fbe.loads(TEXT).N
        gc.collect()
        assert repr(x).startswith("N(v=1,")
        x.__class__ = fbe.loads(TEXT).N
        gc.collect()
        assert hash(x) == hash(other.N(v=1)) and not (x < y)
        x.__class__ = fbe.loads(TEXT).N
        x.a = Dies()
        gc.collect()
        x.__init__(v=2)  # replacing field a runs Dies.__del__
        assert x.v == 2
    print("ok")
"""


def test_class_dropped_during_a_call() -> None:
    # encode, to_json, ==, hash, <, repr and __init__ read the class's tables after running user code;
    # each holds the class until it returns
    run_isolated(SWAP)


def test_receiver_handler_drops_every_reference(proto: fbe.Schema) -> None:
    frames = bytearray()
    sender = fbe.Sender(proto, frames.extend)
    for i in range(3):
        sender.send(proto.OrderMessage(body=proto.Order(id=i)))
    got: List[int] = []
    holder: List[Any] = []

    def handler(message: Any) -> None:
        got.append(message.body.id)
        holder.clear()  # the last references to the receiver and its schema
        gc.collect()

    schema = fbe.load(SCHEMAS / "proto.fbe", include=[SCHEMAS])
    holder.append(fbe.Receiver(schema, handler))
    del schema
    holder[0].feed(bytes(frames))
    assert got == [0, 1, 2]


def test_sender_sink_drops_every_reference() -> None:
    holder: List[Any] = []
    sent: List[int] = []

    def sink(data: bytes) -> None:
        sent.append(len(data))
        holder.clear()
        gc.collect()

    schema = fbe.loads("package p\nmessage M { int32 v; string s; }\n")
    holder.append(fbe.Sender(schema, sink))
    m = schema.M(v=1, s="x" * 100)
    del schema
    assert holder[0].send(m) == sent[0] > 0


def test_no_gil_calls_while_other_threads_drop_references() -> None:
    # decode, verify and encode of more than NOGIL_BYTES run without the GIL; meanwhile
    # another thread drops schemas, classes and values and collects garbage
    text = "package big\nmessage B { int32 id; string[] names; bytes blob; }\n"
    blob = bytes(2 * _core.NOGIL_BYTES)
    errors: List[BaseException] = []
    stop = threading.Event()

    def user() -> None:
        try:
            for _ in range(200):
                s = fbe.loads(text)
                value = s.B(id=7, names=["n%d" % i for i in range(100)], blob=blob)
                data = value.encode()
                del value
                cls = s.B
                del s
                assert cls.verify(data) and cls.validate(data) > 0
                assert cls.decode(data).id == 7
                assert len(cls.decode(data).encode()) == len(data)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            stop.set()

    def dropper() -> None:
        while not stop.is_set():
            fbe.loads(text)
            gc.collect()

    threads = [threading.Thread(target=user), threading.Thread(target=user), threading.Thread(target=dropper)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_clients_dropped_and_closed_from_their_own_callbacks() -> None:
    # the native client outlives every call that uses it: a handler that drops the last
    # reference to its client (and collects), closes it, or resets it mid-feed; a sink
    # that drops its client while a request is being sent; cycles through closures
    out = run_isolated(f"""
        import asyncio, gc, uuid, fbe
        s = fbe.load("{SCHEMAS}/exchange.fbe", include=["{SCHEMAS}"])
        def answers(n):
            back = bytearray()
            snd = fbe.Sender(s, back.extend)
            for i in range(n):
                snd.send(s.OrderAccepted(id=uuid.UUID(int=i), order=i))
                snd.send(s.Trade(order=i))
            return bytes(back)
        holder = {{}}
        def notify(m):
            holder.pop("c", None)
            gc.collect()
        c = fbe.Client(s, bytearray().extend, notify=notify, clock=lambda: 0)
        fs = [c.request(s.NewOrder(id=uuid.UUID(int=i))) for i in range(50)]
        holder["c"] = c
        feed = c.feed
        del c
        feed(answers(50))
        assert all(f.done() for f in fs), "every request ended"
        # closing from a done callback and from notify, with more frames in the chunk
        c = fbe.Client(s, bytearray().extend, notify=lambda m: c.close(), clock=lambda: 0)
        fs = [c.request(s.NewOrder(id=uuid.UUID(int=i))) for i in range(50)]
        fs[0].add_done_callback(lambda f: c.close())
        c.feed(answers(50))
        assert c.closed and all(f.done() for f in fs)  # (the chunk fed was read to its end)
        assert all(f.exception() is None for f in fs)
        c = fbe.Client(s, bytearray().extend, clock=lambda: 0)
        fs = [c.request(s.NewOrder(id=uuid.UUID(int=i))) for i in range(50)]
        fs[0].add_done_callback(lambda f: c.close())
        c.feed(answers(1))
        assert c.closed and sum(isinstance(f.exception(), fbe.ResetError) for f in fs) == 49
        # a sink that drops its client and collects while the request is in flight
        def sink(data):
            holder.pop("d", None)
            gc.collect()
        d = fbe.Client(s, sink, clock=lambda: 0)
        holder["d"] = d
        request = d.request
        del d
        f = request(s.NewOrder())
        del request
        gc.collect()
        assert isinstance(f.exception(timeout=10), fbe.ResetError)
        # asyncio: a client dropped with requests pending, and a timer armed
        async def main():
            c = fbe.AsyncClient(s, bytearray().extend)
            fs = [c.request(s.NewOrder(), timeout=3600) for _ in range(10)]
            c.close()
            got = await asyncio.gather(*fs, return_exceptions=True)
            assert all(isinstance(e, fbe.ResetError) for e in got)
            c2 = fbe.AsyncClient(s, bytearray().extend, notify=lambda m: c2.close())
            f = c2.request(s.NewOrder(id=uuid.UUID(int=0)), timeout=3600)
            c2.feed(answers(3))
            assert (await f).order == 0 and c2.closed
        asyncio.run(main())
        for i in range(3):
            gc.collect()
        print("ok")
    """)
    assert out.rstrip().endswith("ok")

"""Uses every public call of fbe, for `mypy --strict` (test_typing.py) and as a tour.
Run it with the repository's schemas directory as its argument."""
from __future__ import annotations

import asyncio
import concurrent.futures
import io
import sys
from typing import Any, Dict, List, Optional, Tuple, Type

import fbe


def main(schemas: str) -> int:
    schema: fbe.Schema = fbe.load(f"{schemas}/proto.fbe", include=[schemas])
    text_schema: fbe.Schema = fbe.loads(open(f"{schemas}/proto.fbe").read(), include=schemas, name="proto.fbe")
    by_package: fbe.Schema = fbe.load_package("proto", include=[schemas])
    name: str = schema.name
    packages = schema.packages
    warnings: List[str] = schema.warnings
    types = schema.types()
    assert "proto.Account" in schema and len(schema) == len(types) and list(schema)
    assert name == "proto" and packages == ("proto",) and isinstance(warnings, list)

    Account: Type[fbe.Struct] = schema.Account
    assert Account is schema["proto.Account"] is schema.proto.Account
    assert text_schema.Account.__fbe_name__ == by_package.Account.__fbe_name__
    package: fbe.Package = schema.proto
    assert package.name == "proto"
    acc = Account(id=1, name="Test", state=schema.State.good,
                  wallet=schema.Balance(currency="USD", amount=1000.0))
    fields = Account.__fbe_fields__
    keys = Account.__fbe_keys__
    assert fields[0] == "id" and keys == ("id",)
    assert Account.__fbe_type_id__ == 3 and not Account.__fbe_message__

    data: bytes = acc.encode()
    final: bytes = acc.encode(final=True)
    back = Account.decode(data)
    back_final = Account.decode(bytearray(final), final=True)
    ordered = Account.decode(memoryview(data), ordered=True)
    ok: bool = Account.verify(data) and Account.verify(final, final=True)
    trusted = Account.decode(data, trusted=True)
    model_size: int = Account.validate(data) + Account.validate(final, final=True)
    assert ok and trusted == acc and model_size == len(data) + len(final) and back == acc and back_final == acc and ordered == acc and hash(back) == hash(acc)
    view: fbe.View = Account.view(data)
    view_final = schema.view(Account, bytearray(final), "final", ordered=True, limits=fbe.Limits())
    assert view == acc and view_final == view and view.to_value() == acc and view.__fbe_type__ is Account
    orders: fbe.ViewList = view.orders
    view_text: str = str(view) + view.to_json() + view.to_json(pretty=True)
    assert view.wallet.currency == "USD" and len(orders) == 0 and orders[:] == [] and view_text
    text: str = back.to_json()
    pretty: str = back.to_json(pretty=True)
    again = Account.from_json(text)
    assert again == Account.from_json(pretty.encode(), ordered=True)
    print(repr(again), again.name)

    plain: bytes = schema.encode("Account", {"id": 1, "name": "Test"})
    plain_final: bytes = schema.encode(Account, {"id": 1, "name": "Test"}, final=True)
    value: Any = schema.decode("Account", plain)
    value2: Any = schema.decode(Account, plain_final, final=True, ordered=True)
    verified: bool = schema.verify("Account", plain) and schema.verify(Account, plain_final, final=True)
    plain_size: int = schema.validate("Account", plain) + schema.validate(Account, plain_final, final=True)
    value3: Any = schema.decode("Account", plain, trusted=True)
    assert plain_size == len(plain) + len(plain_final) and value3 == value
    json_text: str = schema.to_json("Account", {"id": 2}, pretty=False)
    from_text: Any = schema.from_json("Account", json_text, ordered=False)
    assert verified and value == value2 and from_text.id == 2
    newer: Any = schema.from_json("Account", '{"id": 3, "added": 1}', ignore_unknown=True)
    lenient = Account.from_json('{"id": 3, "added": 1}', ignore_unknown=True)
    assert newer == lenient and lenient.id == 3

    # fields by schema name, whatever the name (README "Names"); enums and flags
    by_name: Any = acc["name"]
    acc["name"] = by_name
    fields_of: Dict[str, Any] = fbe.asdict(acc)
    as_dict: Dict[str, Any] = acc.to_dict()
    rebuilt = Account.from_dict(as_dict)
    rebuilt2: Any = schema.from_dict("Account", fields_of, ordered=True)
    assert fields_of["name"] == "Test" and as_dict == fields_of and rebuilt == acc == rebuilt2
    first, second = schema.Order(id=1), schema.Order(id=2)
    assert first < second and second >= first and sorted([second, first])[0] is first
    State: Type[fbe.Flags] = schema.State
    good: fbe.Flags = State["good"]
    combined: fbe.Flags = (good | State(1)) & ~State(0)
    member_name: Optional[str] = combined.name
    member_value: int = good.value
    Side: Type[fbe.Enum] = schema.OrderSide
    sides: List[fbe.Enum] = list(Side)
    assert len(Side) == len(sides) and Side(7).name is None and member_value == 6 and member_name
    assert "buy" in Side.__members__ and 1 in Side and issubclass(fbe.EnumType, type)

    limits = fbe.Limits(max_depth=64, max_model_size=1 << 20, max_memory=1 << 24)
    depth: int = limits.max_depth + limits.max_model_size + limits.max_memory
    limited = Account.decode(data, limits=limits)
    limited_ok: bool = Account.verify(data, limits=limits) and schema.verify(Account, data, limits=None)
    limited_size: int = Account.validate(data, limits=limits) + schema.validate("Account", data, limits=limits)
    limited_json = Account.from_json(text, limits=limits)
    limited_plain: Any = schema.decode("Account", data, trusted=True, limits=limits)
    assert limited == limited_json == limited_plain and limited_ok and limited_size == 2 * len(data) and depth
    assert schema.from_json("Account", json_text, limits=fbe.Limits()).id == 2 and limits != fbe.Limits()
    try:
        fbe.Limits(max_depth=1000)
    except fbe.RangeError as exc:
        print(exc.message)

    sink = io.BytesIO()
    sender: fbe.Sender = schema.sender(sink, package="proto", final=False)
    size: int = sender.send(schema.AccountMessage(body=acc))
    sender2 = fbe.Sender(schema, bytearray().extend)
    sender2.send(schema.OrderMessage())
    assert size == sender.bytes_sent

    received: List[Any] = []
    receiver: fbe.Receiver = schema.receiver(received.append, package="proto", final=False, ordered=False)
    nothing: Optional[List[Any]] = receiver.feed(sink.getvalue())
    assert nothing is None and len(received) == 1
    collector = fbe.Receiver(schema, limits=fbe.Limits(max_memory=1 << 20))
    guarded: fbe.Receiver = schema.receiver(limits=limits)
    assert guarded.feed(sink.getvalue()) is not None
    got = collector.receive_from(io.BytesIO(sink.getvalue()), chunk_size=16)
    assert got is not None and len(got) == 1
    collector.reset()
    counts: int = collector.pending + collector.received + collector.skipped
    assert counts == 1

    requests_and_responses(schemas)
    asyncio.run(over_asyncio_streams(schemas))

    errors: List[Type[fbe.Error]] = [
        fbe.OutOfMemoryError, fbe.ArgumentError, fbe.SchemaError, fbe.NotFoundError,
        fbe.TypeMismatchError, fbe.RangeError, fbe.MalformedError, fbe.JSONError, fbe.LimitError,
        fbe.StreamError, fbe.UnknownFieldError, fbe.RejectedError, fbe.TimeoutError, fbe.ResetError,
    ]
    try:
        Account.decode(b"\x00")
    except fbe.MalformedError as exc:
        where: str = exc.path
        offset: Optional[int] = exc.offset
        code: int = exc.code
        status: str = exc.status
        message: str = exc.message
        print(where, offset, code, status, message, len(errors))
    try:
        fbe.loads("package broken\nstruct {")
    except fbe.SchemaError as exc:
        diagnostics: List[str] = exc.diagnostics
        print(diagnostics)
    print(fbe.__version__, fbe.core_version)
    return 0


def requests_and_responses(schemas: str) -> None:
    """fbe.Client, fbe.Server, fbe.Proxy, replies and log hooks (README "Requests and
    responses")."""
    ex: fbe.Schema = fbe.load(f"{schemas}/exchange.fbe", include=[schemas])
    to_server, to_client = bytearray(), bytearray()
    lines: List[Tuple[str, str]] = []
    notified: List[Any] = []
    client = fbe.Client(ex, to_server.extend, "exchange", False, notify=notified.append, max_pending=8,
                        limits=fbe.Limits(), ordered=False, clock=lambda: 0, log=lambda d, t: lines.append((d, t)))
    server = fbe.Server(ex, to_client.extend, "exchange", handlers={ex.NewOrder: lambda o: ex.OrderAccepted(order=1)},
                        default=None, log=None, limits=None, ordered=False)

    @server.handle(ex.CancelOrder)
    def cancel(request: Any) -> Any:
        raise fbe.RejectedError(ex.UnknownOrder(order=request.order))

    accepted: concurrent.futures.Future[Any] = client.request(ex.NewOrder(symbol="EURUSD"), timeout=5.0)
    refused = client.request(ex.CancelOrder(order=1), timeout_ns=5_000_000_000, now=0)
    unhandled: List[Any] = server.feed(bytes(to_server))
    timed = client.request(ex.NewOrder(), timeout_ns=10)
    server.send(ex.Trade(order=1))
    later: int = server.reply(ex.NewOrder(), ex.Reject(reason="late"))
    client.feed(bytes(to_client))
    ended: int = client.watchdog(10**12) + client.watchdog()
    client.send(ex.Trade(order=2))
    client.set_log(None)
    client.reset()
    deadline: Optional[int] = client.next_deadline
    counts: int = client.pending + client.bytes_sent + client.received
    assert accepted.result().order == 1 and later and counts and deadline is None and ended == 1 and not unhandled
    rejected = refused.exception()
    assert isinstance(rejected, fbe.RejectedError) and rejected.reject.order == 1
    assert isinstance(timed.exception(), fbe.TimeoutError) and len(notified) == 2 and lines
    with fbe.Client(ex, io.BytesIO()) as other:
        other.receive_from([b""])
    assert other.closed and client.schema is ex and client.package == "exchange"
    client.close()
    sender = fbe.Sender(ex, bytearray().extend, log=lambda d, t: None)
    sender.set_log(None)
    sent: int = sender.reply(ex.NewOrder(), ex.OrderAccepted(order=2)) + server.bytes_sent + server.received
    receiver = fbe.Receiver(ex, log=lambda d, t: None)
    receiver.set_log(None)
    frames: List[fbe.Frame] = []
    proxy = fbe.Proxy(ex, frames.append, "exchange", False, True, limits=fbe.Limits())
    proxy.feed(bytes(to_server))
    collected: Optional[List[fbe.Frame]] = fbe.Proxy(ex).receive_from(io.BytesIO(bytes(to_server)))
    proxy.reset()
    assert sent and collected and frames[0].type is ex.NewOrder and frames[0].type_id and frames[0].data
    assert proxy.pending + proxy.received + proxy.skipped == 4


async def over_asyncio_streams(schemas: str) -> None:
    ex: fbe.Schema = fbe.load(f"{schemas}/exchange.fbe", include=[schemas])

    async def new_order(order: Any) -> Any:
        return ex.OrderAccepted(order=7)

    def connected(srv: fbe.AsyncServer) -> None:
        srv.send(ex.Trade(order=1))
    server = await fbe.start_server(ex, {ex.NewOrder: new_order}, "127.0.0.1", 0, connected=connected)
    port: int = server.sockets[0].getsockname()[1]
    async with await fbe.open_client(ex, "127.0.0.1", port, max_pending=16) as client:
        future: asyncio.Future[Any] = client.request(ex.NewOrder(), timeout=30.0)
        await client.drain()
        response = await future
        async for trade in client:
            assert trade.order == 1
            break
        assert response.order == 7
    await client.wait_closed()
    server.close()
    await server.wait_closed()
    buffered = fbe.AsyncClient(ex, bytearray().extend, notify=lambda m: None)
    pending = buffered.request(ex.NewOrder())
    back = bytearray()
    plain = fbe.AsyncServer(ex, back.extend)
    buffered.reset()
    assert isinstance(pending.exception(), fbe.ResetError)
    plain.feed(b"")
    buffered.close()
    reader = asyncio.StreamReader()
    reader.feed_eof()
    await plain.serve(reader)
    async for message in plain:
        print(message)
    async for got in fbe.Receiver(ex).receive_async(reader):
        print(got)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

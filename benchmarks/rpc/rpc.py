#!/usr/bin/env python3
"""The request/response benchmark's Python side (benchmarks/rpc/README.md): an asyncio
server or client of schemas/exchange.fbe over a TCP loopback socket, on
fbe.start_server / fbe.open_client.

    rpc.py server PORT_FILE [CLIENTS]   listens on a free loopback port, writes it to
                                        PORT_FILE, serves CLIENTS connections (default 1)
                                        at once, then exits
    rpc.py client PORT N WINDOW         N NewOrder requests, WINDOW in flight; checks
                                        every one; prints {"requests":N,"seconds":S,"ok":true}

The server's rule, the same in every language: a NewOrder of quantity q is accepted
with order = q, unless q is a multiple of 10, which is rejected with reason "q"."""
import asyncio
import json
import os
import sys
import time

import fbe

SCHEMAS = os.environ.get("FBE_SCHEMAS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas"))
schema = fbe.load(os.path.join(SCHEMAS, "exchange.fbe"), include=[SCHEMAS])


def new_order(order):
    q = int(order.quantity)
    if q % 10 == 0:
        raise fbe.RejectedError(schema.Reject(reason=str(q)))
    return schema.OrderAccepted(order=q)


async def serve(port_file, clients):
    """One fbe.AsyncServer per connection, until `clients` connections have ended."""
    left = clients
    done = asyncio.Event()

    async def on_connection(reader, writer):
        nonlocal left
        server = fbe.AsyncServer(schema, writer, handlers={schema.NewOrder: new_order})
        try:
            await server.serve(reader)
        finally:
            writer.close()
            left -= 1
            if left == 0:
                done.set()

    srv = await asyncio.start_server(on_connection, "127.0.0.1", 0)
    with open(port_file, "w") as f:
        f.write("%d\n" % srv.sockets[0].getsockname()[1])
    await done.wait()
    srv.close()
    await srv.wait_closed()


async def run_client(port, n, window):
    wrong = 0
    async with await fbe.open_client(schema, "127.0.0.1", port) as client:
        started = time.perf_counter()
        pending = set()

        async def one(q):
            nonlocal wrong
            try:
                accepted = await client.request(schema.NewOrder(quantity=float(q)))
                wrong += q % 10 == 0 or accepted.order != q
            except fbe.RejectedError:
                wrong += q % 10 != 0

        for q in range(1, n + 1):
            pending.add(asyncio.ensure_future(one(q)))
            if len(pending) >= window:
                _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        await asyncio.gather(*pending)
        seconds = time.perf_counter() - started
    print(json.dumps({"requests": n, "seconds": round(seconds, 4), "ok": wrong == 0}))
    return 0 if wrong == 0 else 1


def main(argv):
    if len(argv) in (2, 3) and argv[0] == "server":
        asyncio.run(serve(argv[1], int(argv[2]) if len(argv) == 3 else 1))
        return 0
    if len(argv) == 4 and argv[0] == "client":
        return asyncio.run(run_client(int(argv[1]), int(argv[2]), int(argv[3])))
    print("usage: rpc.py server PORT_FILE [CLIENTS] | rpc.py client PORT N WINDOW", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

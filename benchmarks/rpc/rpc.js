#!/usr/bin/env node
'use strict';
// The request/response benchmark's Node side (benchmarks/rpc/README.md): a server or a
// client of schemas/exchange.fbe over a TCP loopback socket, on fbe.Server / fbe.Client.
//   node rpc.js server PORT_FILE        listens on a free loopback port, writes it to
//                                       PORT_FILE, serves until the client closes
//   node rpc.js client PORT N WINDOW    N NewOrder requests, WINDOW in flight; checks
//                                       every one; prints {"requests":N,"seconds":S,"ok":true}
// The server's rule, the same in every language: a NewOrder of quantity q is accepted
// with order = q, unless q is a multiple of 10, which is rejected with reason "q".
const fs = require('fs');
const net = require('net');
const path = require('path');
const fbe = require(path.join(__dirname, '..', '..', 'bindings', 'node'));

const schemas = process.env.FBE_SCHEMAS || path.join(__dirname, '..', '..', 'schemas');
const schema = fbe.load(path.join(schemas, 'exchange.fbe'), { include: [schemas] });
const { NewOrder, OrderAccepted, Reject } = schema;
const [role, a, b, c] = process.argv.slice(2);

if (role === 'server') {
  const tcp = net.createServer((socket) => {
    socket.setNoDelay(true);
    const server = new fbe.Server(schema, { stream: socket });
    server.handle(NewOrder, (order) => {
      const q = order.quantity;
      if (q % 10 === 0) return new Reject({ reason: String(q) });
      return new OrderAccepted({ order: BigInt(q) });
    });
    socket.on('close', () => { server.close(); tcp.close(); });
  });
  tcp.listen(0, '127.0.0.1', () => fs.writeFileSync(a, `${tcp.address().port}\n`));
} else if (role === 'client') {
  const n = Number(b), window = Number(c);
  const socket = net.connect(Number(a), '127.0.0.1');
  socket.setNoDelay(true);
  const client = new fbe.Client(schema, { stream: socket });
  let sent = 0, done = 0, wrong = 0;
  const t0 = process.hrtime.bigint();
  const next = () => {
    while (sent < n && sent - done < window) {
      const q = ++sent;
      client.request(new NewOrder({ quantity: q })).then(
        (r) => { if (q % 10 === 0 || r.order !== BigInt(q)) wrong++; },
        (e) => { if (q % 10 !== 0 || !(e instanceof fbe.RejectedError)) wrong++; },
      ).finally(() => {
        done++;
        if (done === n) {
          const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
          console.log(JSON.stringify({ requests: n, seconds: Number(seconds.toFixed(4)), ok: wrong === 0 }));
          client.close();
          socket.end();
          process.exitCode = wrong ? 1 : 0;
        } else {
          next();
        }
      });
    }
  };
  socket.on('connect', next);
} else {
  console.error('usage: node rpc.js server PORT_FILE | node rpc.js client PORT N WINDOW');
  process.exit(2);
}

'use strict';
// Request/response (issue 22, docs/CLIENT.md): fbe.Client over the core's fbe_client,
// fbe.Server, fbe.Proxy and the log hooks, over callbacks, in-process streams and real
// TCP sockets. No timing is asserted: timeouts run on a scripted clock (timers: false,
// watchdog(now)), and the few real timers only have to fire at all.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const net = require('net');
const path = require('path');
const { spawnSync } = require('child_process');
const { PassThrough } = require('stream');
const { fbe, schemas } = require('./helpers');

const exchange = () => fbe.load(path.join(schemas, 'exchange.fbe'), { include: [schemas] });
const gateway = () => fbe.load(path.join(schemas, 'gateway.fbe'), { include: [schemas] });
const uuid = (n) => `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A client and a server of `schema` whose frames wait in arrays until pumped. */
function wired(schema, clientOptions = {}, serverOptions = {}) {
  const toServer = [];
  const toClient = [];
  const client = new fbe.Client(schema, { write: (f) => toServer.push(f), timers: false, ...clientOptions });
  const server = new fbe.Server(schema, { write: (f) => toClient.push(f), ...serverOptions });
  const serve = () => server.feed(Buffer.concat(toServer.splice(0)));
  const answer = () => client.feed(Buffer.concat(toClient.splice(0)));
  return { client, server, toServer, toClient, serve, answer };
}

/** How each promise ended: ['ok', value] or ['error', error], in order of settling. */
function track(promises) {
  const order = [];
  promises.forEach((p, i) => p.then((v) => order.push([i, 'ok', v]), (e) => order.push([i, 'error', e])));
  return order;
}

test('responses, rejects and notifications; out-of-order answers end the right promises', async () => {
  const s = exchange();
  const { client, server, toServer, serve, answer } = wired(s);
  const seen = [];
  server.on('message', (m, type) => seen.push([type, m]));
  const notes = [];
  client.on('notify', (m, type) => notes.push(type));
  const p = [
    client.request(new s.NewOrder({ id: uuid(1), symbol: 'EURUSD', quantity: 10 })),
    client.request('NewOrder', { id: uuid(2), symbol: 'GBPUSD' }),
    client.request(s.CancelOrder, { id: uuid(3), order: 77n }),
    client.request(new s.Heartbeat({ id: uuid(4) })),
  ];
  assert.equal(client.pending, 3, 'the heartbeat has no [response]: it ended when sent');
  assert.equal(toServer.length, 4);
  serve();
  assert.deepEqual(seen.map(([t]) => t),
    ['exchange.NewOrder', 'exchange.NewOrder', 'exchange.CancelOrder', 'exchange.Heartbeat']);
  const order = track(p);
  server.reply(seen[2][1], new s.UnknownOrder({ order: 77n }));
  server.reply(seen[1][1], 'OrderAccepted', { order: 1002n });
  server.send('Trade', { order: 1002n, symbol: 'GBPUSD', price: 1.25, quantity: 5 });
  server.reply(seen[0][1], new s.Reject({ reason: 'market closed' }));
  answer();
  await settled();
  assert.equal(client.pending, 0);
  assert.deepEqual(order.map(([i, how]) => [i, how]), [[3, 'ok'], [2, 'error'], [1, 'ok'], [0, 'error']]);
  const byIndex = Object.fromEntries(order.map(([i, , v]) => [i, v]));
  assert.equal(byIndex[3], undefined);
  assert.ok(byIndex[1] instanceof s.OrderAccepted);
  assert.equal(byIndex[1].id, uuid(2), 'the reply got the request\'s id from the core');
  assert.equal(byIndex[1].order, 1002n);
  const rejected = byIndex[0];
  assert.ok(rejected instanceof fbe.RejectedError && rejected instanceof fbe.FbeError);
  assert.equal(rejected.code, 'FBE_ERR_REJECTED');
  assert.equal(rejected.message, `Reject(id="${uuid(1)}",reason="market closed")`, 'the reject\'s text form');
  assert.ok(rejected.reject instanceof s.Reject);
  assert.equal(rejected.reject.reason, 'market closed');
  assert.ok(byIndex[2].reject instanceof s.UnknownOrder, 'a local reject (CancelOrder\'s own)');
  assert.deepEqual(notes, ['exchange.Trade']);
});

test('a global reject of an imported package refuses the importer\'s requests too', async () => {
  const g = gateway();
  const { client, server, serve, answer } = wired(g);
  const got = [];
  server.on('message', (m) => got.push(m));
  const quote = client.request('QuoteRequest', { id: uuid(1), symbol: 'EURUSD' });
  const order = client.request('exchange.NewOrder', { id: uuid(2), symbol: 'EURUSD' });
  serve();
  server.reply(got[0], 'exchange.Reject', { reason: 'no quotes today' });
  server.reply(got[1], new g['exchange.OrderAccepted']({ order: 3n }));
  answer();
  await assert.rejects(quote, (e) => e instanceof fbe.RejectedError && e.reject.reason === 'no quotes today' &&
    e.message === `Reject(id="${uuid(1)}",reason="no quotes today")`);
  assert.equal((await order).order, 3n);
  assert.equal(g.QuoteRequest.isRequest, true);
  assert.equal(g.QuoteRequest.responseType, g.Quote);
  assert.deepEqual(g.QuoteRequest.rejectTypes, [g['exchange.Reject']]);
  assert.equal(g.Quote.isRequest, false);
  assert.equal(g.Quote.responseType, null);
});

test('timeouts on a scripted clock: TimeoutError "Timeout!", oldest first; late answers are notifications', async () => {
  const s = exchange();
  const { client, server, serve, answer } = wired(s);
  const got = [];
  server.on('message', (m) => got.push(m));
  const p = [
    client.request('NewOrder', { id: uuid(1) }, { timeout: 500n, now: 1000n }),
    client.request('NewOrder', { id: uuid(2) }, { timeout: 100n, now: 1000n }),
    client.request('NewOrder', { id: uuid(3) }, { now: 1000n }),
    client.request('NewOrder', { id: uuid(4) }, { timeout: 0.01, now: 1000n }), // 0.01 ms = 10,000 ns
  ];
  const order = track(p);
  assert.equal(client.nextDeadline, 1101n, 'the core made the second request\'s time 1001 (strictly increasing)');
  assert.equal(client.watchdog(1100n), 0);
  assert.equal(client.watchdog(1101n), 1);
  assert.equal(client.watchdog(2000n), 1);
  assert.equal(client.nextDeadline, 11003n);
  await settled();
  assert.deepEqual(order.map(([i, how, e]) => [i, how, e.name, e.message]),
    [[1, 'error', 'TimeoutError', 'Timeout!'], [0, 'error', 'TimeoutError', 'Timeout!']]);
  assert.ok(order[0][2] instanceof fbe.TimeoutError);
  const notes = [];
  client.on('notify', (m) => notes.push(m.id));
  serve();
  server.reply(got[1], 'OrderAccepted', { order: 5n });
  answer();
  assert.deepEqual(notes, [uuid(2)], 'a response nobody waits for is a notification');
  assert.equal(client.pending, 2);
  client.reset();
  await settled();
  assert.deepEqual(order.slice(2).map(([i, , e]) => [i, e.name, e.message]),
    [[2, 'ResetError', 'Reset client!'], [3, 'ResetError', 'Reset client!']]);
  assert.equal(client.nextDeadline, null);
});

test('refusals: not a request, a duplicate id, the cap; nothing is sent and the table is as it was', async () => {
  const s = exchange();
  const { client, toServer } = wired(s, { maxPending: 2 });
  await assert.rejects(client.request('OrderAccepted', { id: uuid(1) }),
    (e) => e instanceof fbe.TypeMismatchError && /is not a request/.test(e.message));
  const other = fbe.loadString('package other\n[request]\nmessage M { int32 id; }\n');
  await assert.rejects(client.request(new other.M()), (e) => e instanceof fbe.TypeMismatchError);
  assert.equal(await client.request('Heartbeat', { id: uuid(9) }), undefined);
  const first = client.request('NewOrder', { id: uuid(1) });
  await assert.rejects(client.request('CancelOrder', { id: uuid(1) }),
    (e) => e instanceof fbe.ArgumentError && e.message.includes('already pending'));
  const second = client.request('NewOrder', { id: uuid(2) });
  await assert.rejects(client.request('NewOrder', { id: uuid(3) }), (e) => e instanceof fbe.LimitError);
  assert.equal(client.pending, 2);
  assert.equal(toServer.length, 3, 'the heartbeat and two orders');
  await assert.rejects(client.request('NewOrder', { id: uuid(4) }, { timeout: -1 }), fbe.RangeError);
  await assert.rejects(client.request('NewOrder', { id: uuid(4) }, { timeout: '5s' }), fbe.TypeMismatchError);
  await assert.rejects(client.request('NoSuchType', {}), fbe.NotFoundError);
  await assert.rejects(client.request('NewOrder', { id: 'not a uuid' }), fbe.ArgumentError);
  assert.throws(() => new fbe.Client(s, {}), fbe.ArgumentError);
  assert.throws(() => new fbe.Client(s, { write: () => {}, package: 'nope' }), fbe.NotFoundError);
  assert.throws(() => new fbe.Client(s, { write: () => {}, maxPending: -1 }), fbe.ArgumentError);
  assert.throws(() => new fbe.Client(s, { write: () => {}, limits: { maxDepth: 1000 } }), fbe.RangeError);
  client.close();
  await assert.rejects(first, fbe.ResetError);
  await assert.rejects(second, fbe.ResetError);
});

test('a write that throws: the request is the core\'s FBE_ERR_IO, with the exception as its cause', async () => {
  const s = exchange();
  const boom = new Error('socket gone');
  let fail = true;
  const client = new fbe.Client(s, { write: () => { if (fail) throw boom; }, timers: false });
  await assert.rejects(client.request('NewOrder', { id: uuid(1) }, { now: 0n }), (e) => e instanceof fbe.StreamError &&
    e.code === 'FBE_ERR_IO' && e.cause === boom);
  assert.equal(client.pending, 0, 'not registered');
  assert.throws(() => client.send('Trade', {}), (e) => e instanceof fbe.StreamError && e.cause === boom);
  fail = false;
  const p = client.request('NewOrder', { id: uuid(1) }, { timeout: 1n, now: 0n });
  assert.equal(client.pending, 1, 'the same id again: the refused one left nothing behind');
  client.watchdog(5n);
  await assert.rejects(p, fbe.TimeoutError);
});

test('server handlers: sync, async, plain objects, thrown rejects; failures are \'error\' events', async () => {
  const s = exchange();
  const { client, server, serve, answer } = wired(s);
  const errors = [];
  server.on('error', (e, request) => errors.push([e, request]));
  server.handle(s.NewOrder, async (order) => {
    await settled();
    if (order.quantity > 100) throw new s.Reject({ reason: 'too large' });
    if (order.symbol === 'BAD') throw new Error('handler bug');
    if (order.symbol === 'WRONG') return new s.OrderCancelled({ order: 1n });
    return { order: BigInt(order.quantity) };
  });
  server.handle('CancelOrder', (cancel) => (cancel.order === 1n ? new s.OrderCancelled({ order: 1n })
    : new s.UnknownOrder({ order: cancel.order })));
  server.handle('Heartbeat', () => undefined);
  assert.throws(() => server.handle('Trade', () => {}), (e) => e instanceof fbe.TypeMismatchError &&
    e.message === 'exchange.Trade is not a request (no [request] in the schema)');
  const p = [
    client.request('NewOrder', { quantity: 40 }),
    client.request('NewOrder', { quantity: 400 }),
    client.request('NewOrder', { symbol: 'BAD' }, { timeout: 1n }),
    client.request('NewOrder', { symbol: 'WRONG' }, { timeout: 1n }),
    client.request('CancelOrder', { order: 1n }),
    client.request('CancelOrder', { order: 2n }),
    client.request('Heartbeat', {}),
  ];
  const order = track(p);
  serve();
  await settled();
  await settled();
  answer();
  await settled();
  const result = Object.fromEntries(order.map(([i, how, v]) => [i, [how, v]]));
  assert.equal(result[0][1].order, 40n);
  assert.ok(result[1][1] instanceof fbe.RejectedError && result[1][1].reject.reason === 'too large');
  assert.equal(result[4][1].order, 1n);
  assert.ok(result[5][1].reject instanceof s.UnknownOrder);
  assert.deepEqual(result[6], ['ok', undefined]);
  assert.equal(errors.length, 2);
  assert.equal(errors[0][0].message, 'handler bug');
  assert.equal(errors[0][1].symbol, 'BAD');
  assert.ok(errors[1][0] instanceof fbe.TypeMismatchError, 'the core refused the reply');
  assert.match(errors[1][0].message, /OrderCancelled is not the response or a reject of request exchange.NewOrder/);
  assert.equal(client.watchdog(process.hrtime.bigint() + 10n ** 12n), 2, 'nothing answered those two');
  await settled();
  assert.equal(client.pending, 0);
  assert.throws(() => server.reply({ id: uuid(1) }, 'OrderAccepted', {}), fbe.TypeMismatchError);
  assert.throws(() => server.reply(new s.Heartbeat(), {}), /has no \[response/);
});

test('a handler that throws a RejectedError forwards its reject (a gateway passing a refusal on)', async () => {
  const s = exchange();
  const upstream = wired(s);
  upstream.server.handle('NewOrder', () => new s.Reject({ reason: 'closed upstream' }));
  const front = wired(s, {}, {
    handlers: {
      NewOrder: async (order) => {
        const p = upstream.client.request(new s.NewOrder({ symbol: order.symbol })); // a new id upstream
        upstream.serve();
        upstream.answer();
        return p;
      },
    },
  });
  const p = front.client.request('NewOrder', { id: uuid(7), symbol: 'EURUSD' });
  front.serve();
  await settled();
  await settled();
  front.answer();
  await assert.rejects(p, (e) => e instanceof fbe.RejectedError && e.reject.reason === 'closed upstream' &&
    e.reject.id === uuid(7));
});

test('a client and a server over TCP loopback: 1,000 requests, every promise checked', async () => {
  const s = exchange();
  const servers = [];
  const tcp = net.createServer((socket) => {
    const server = new fbe.Server(s, { stream: socket });
    server.handle('NewOrder', async (order) => {
      if (order.quantity % 10 === 3) return new s.Reject({ reason: `refused ${order.quantity}` });
      if (order.quantity % 7 === 0) await settled(); // some answer later than others: out of order
      return new s.OrderAccepted({ order: BigInt(order.quantity) * 2n });
    });
    server.on('message', (m) => server.send('Trade', { order: 1n, symbol: m.constructor.typeName }));
    servers.push(server);
  });
  await new Promise((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const socket = net.connect(tcp.address().port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const client = new fbe.Client(s, { stream: socket, timeout: 60000 });
  const notes = [];
  client.on('notify', (m) => notes.push(m.symbol));
  const n = 1000;
  const results = await Promise.allSettled(Array.from({ length: n }, (_, i) =>
    client.request('NewOrder', { symbol: 'EURUSD', quantity: i })));
  for (let i = 0; i < n; i++) {
    const r = results[i];
    if (i % 10 === 3) {
      assert.equal(r.status, 'rejected', `request ${i}`);
      assert.ok(r.reason instanceof fbe.RejectedError);
      assert.equal(r.reason.reject.reason, `refused ${i}`);
    } else {
      assert.equal(r.status, 'fulfilled', `request ${i}`);
      assert.equal(r.value.order, BigInt(i) * 2n);
    }
  }
  assert.equal(client.pending, 0);
  client.send('Heartbeat', {}); // a notification the other way: the server answers with a Trade
  const note = await new Promise((resolve) => client.once('notify', resolve));
  assert.equal(note.symbol, 'Heartbeat');
  // the socket closes: the client resets (a request still pending fails) and 'end' comes
  const last = client.request('NewOrder', { symbol: 'never answered', quantity: 1 }, { timeout: 0 });
  servers[0].close();
  const ended = new Promise((resolve) => client.once('end', resolve));
  socket.destroy();
  await ended;
  await assert.rejects(last, fbe.ResetError);
  client.close();
  await new Promise((resolve) => tcp.close(resolve));
});

test('for await: notifications of a client, messages of a server, until the stream ends', async () => {
  const s = exchange();
  const down = new PassThrough();
  const client = new fbe.Client(s, { write: () => {}, timers: false });
  client.attach(down);
  const sender = new fbe.Sender(s, { write: down });
  const got = [];
  const loop = (async () => {
    for await (const msg of client) got.push(msg.order);
  })();
  for (let i = 0; i < 5; i++) sender.send('Trade', { order: BigInt(i) });
  await settled();
  down.end();
  await loop;
  assert.deepEqual(got, [0n, 1n, 2n, 3n, 4n]);
  // a server's unhandled messages; leaving the loop early removes its listeners
  const up = new PassThrough();
  const server = new fbe.Server(s, { write: () => {}, stream: up });
  const clientSender = new fbe.Sender(s, { write: up });
  const seen = [];
  const serverLoop = (async () => {
    for await (const msg of server) {
      seen.push(msg.constructor.typeName);
      if (seen.length === 2) break;
    }
  })();
  clientSender.send('Trade', {});
  clientSender.send('Heartbeat', {});
  clientSender.send('Trade', {});
  await serverLoop;
  assert.deepEqual(seen, ['Trade', 'Heartbeat']);
  assert.equal(server.listenerCount('message'), 0);
  // a receiver iterates too
  const r = new fbe.Receiver(s);
  const rs = new PassThrough();
  r.attach(rs);
  const rgot = [];
  const rloop = (async () => { for await (const m of r) rgot.push(m.constructor.typeName); })();
  clientSender.send('Trade', {}); // (into `up`: not this receiver)
  new fbe.Sender(s, { write: rs }).send('Heartbeat', {});
  rs.end();
  await rloop;
  assert.deepEqual(rgot, ['Heartbeat']);
});

test('a proxy forwards a stream byte for byte (known and unknown frames), both models; verify', async () => {
  const g = gateway();
  const e = exchange();
  for (const final of [false, true]) {
    const frames = [];
    const gw = new fbe.Sender(g, { final, write: (f) => frames.push(f) });
    gw.send('QuoteRequest', { symbol: 'EURUSD' });
    gw.send('exchange.NewOrder', { symbol: 'GBPUSD', quantity: 5 });
    gw.send('Quote', { symbol: 'EURUSD', bid: 1, ask: 2 });
    const stream = Buffer.concat(frames);
    // an exchange proxy: gateway's own types are unknown to it, forwarded all the same
    const source = new PassThrough();
    const sink = new PassThrough();
    const out = [];
    sink.on('data', (c) => out.push(c));
    const proxy = new fbe.Proxy(e, { final, stream: source });
    const seen = [];
    proxy.on('frame', (f) => {
      seen.push([f.typeId, f.typeName, f.type === null ? null : f.type.fullName]);
      sink.write(f.frame);
    });
    const ended = new Promise((resolve) => proxy.once('end', resolve));
    for (let at = 0; at < stream.length; at += 5) source.write(stream.subarray(at, at + 5));
    source.end();
    await ended;
    assert.deepEqual(Buffer.concat(out), stream, 'byte for byte');
    assert.deepEqual(seen, [[101, null, null], [2, 'exchange.NewOrder', 'exchange.NewOrder'], [102, null, null]]);
    assert.equal(proxy.received, 1);
    assert.equal(proxy.skipped, 2);
    // the frames read back on the far side
    const back = [];
    new fbe.Receiver(g, { final, onMessage: (m, t) => back.push(t) }).feed(Buffer.concat(out));
    assert.deepEqual(back, ['gateway.QuoteRequest', 'exchange.NewOrder', 'gateway.Quote']);
  }
  // verify: a frame of a known type whose body is bad is the receiver's error; without
  // verify it is handed over as it is
  const good = new fbe.Sender(e).send('NewOrder', { symbol: 'EURUSD' });
  const bad = Buffer.from(good);
  bad.writeUInt32LE(0xffff, bad.indexOf('EURUSD') - 4); // the symbol's size: past the frame
  const lax = new fbe.Proxy(e);
  assert.equal(lax.feed(bad), 1);
  const strict = new fbe.Proxy(e, { verify: true });
  assert.throws(() => strict.feed(bad), (err) => err instanceof fbe.FbeError && err.offset !== null);
  assert.throws(() => strict.feed(Buffer.from('03000000', 'hex')), fbe.MalformedError);
  assert.equal(strict.feed(good), 1, 'after a bad frame the proxy starts afresh');
});

test('log hooks: the core\'s text form of every message sent and received', async () => {
  const s = exchange();
  const lines = [];
  const { client, server, serve, answer } = wired(s, { log: (d, t) => lines.push(`client ${d} ${t}`) },
    { log: (d, t) => lines.push(`server ${d} ${t}`) });
  server.handle('NewOrder', () => ({ order: 42n }));
  const p = client.request('NewOrder', { id: uuid(1), symbol: 'EURUSD', side: s.Side.sell, price: 1.5, quantity: 2 });
  serve();
  answer();
  await p;
  const order = `NewOrder(id="${uuid(1)}",symbol="EURUSD",side=sell,price=1.5,quantity=2.0)`;
  assert.deepEqual(lines, [
    `client send ${order}`,
    `server receive ${order}`,
    `server send OrderAccepted(id="${uuid(1)}",order=42)`,
    `client receive OrderAccepted(id="${uuid(1)}",order=42)`,
  ]);
  client.setLog(null);
  server.setLog(null);
  lines.length = 0;
  client.send('Trade', {});
  serve();
  assert.deepEqual(lines, []);
  // Sender and Receiver
  const frames = [];
  const sender = new fbe.Sender(s, { write: (f) => frames.push(f), log: (d, t) => lines.push(`${d} ${t}`) });
  sender.send('Trade', { order: 1n, symbol: 'X' });
  new fbe.Receiver(s, { log: (d, t) => lines.push(`${d} ${t}`) }).feed(Buffer.concat(frames));
  assert.deepEqual(lines, ['send Trade(order=1,symbol="X",price=0.0,quantity=0.0)',
    'receive Trade(order=1,symbol="X",price=0.0,quantity=0.0)']);
  assert.throws(() => new fbe.Sender(s, { log: 'yes' }), fbe.ArgumentError);
});

test('re-entrancy: answers inside the request\'s own write, requests in listeners, bytes looped back', async () => {
  const s = exchange();
  let client = null;
  const server = new fbe.Server(s, { write: (f) => client.feed(f) }); // synchronous both ways
  server.handle('NewOrder', (o) => ({ order: BigInt(o.quantity) }));
  server.on('message', (m) => server.send('Trade', { order: m.order })); // cancels -> a trade back
  const inner = [];
  client = new fbe.Client(s, { write: (f) => server.feed(f), timers: false });
  client.on('notify', (m) => { // a request from inside a notification, inside the server's feed
    inner.push(client.request('NewOrder', { quantity: Number(m.order) + 1 }));
  });
  // the response comes back while the request is being written: the core registered it first
  assert.equal((await client.request('NewOrder', { quantity: 7 })).order, 7n);
  // the server's feed -> a trade -> the client's listener -> a request -> the server's feed
  // again: those bytes are taken when the server's first feed is done
  client.send('CancelOrder', { order: 41n });
  assert.equal(inner.length, 1);
  assert.equal((await inner[0]).order, 42n);
  assert.equal(client.pending, 0);
  // in-process streams looped back (PassThrough emits synchronously): the same, through attach
  const a = new PassThrough();
  const b = new PassThrough();
  const c2 = new fbe.Client(s, { write: a, timers: false });
  const s2 = new fbe.Server(s, { write: b });
  c2.attach(b);
  s2.attach(a);
  s2.handle('NewOrder', (o) => ({ order: BigInt(o.quantity) }));
  s2.on('message', (m) => s2.send('Trade', { order: m.order }));
  const more = [];
  c2.on('notify', (m) => more.push(c2.request('NewOrder', { quantity: Number(m.order) })));
  const errors = [];
  c2.on('error', (e) => errors.push(e));
  s2.on('error', (e) => errors.push(e));
  c2.send('CancelOrder', { order: 5n });
  c2.send('CancelOrder', { order: 6n });
  await settled();
  assert.deepEqual((await Promise.all(more)).map((r) => r.order), [5n, 6n]);
  assert.deepEqual(errors, []);
});

test('lifetimes: close while requests pend, close and reset inside a listener, GC of pending clients', async () => {
  const s = exchange();
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    // close while pending: every promise settles with ResetError; later calls throw
    const a = wired(s);
    const pending = [1, 2, 3].map((i) => a.client.request('NewOrder', { id: uuid(i) }, { timeout: 5 }));
    a.client.close();
    for (const p of pending) await assert.rejects(p, fbe.ResetError);
    assert.equal(a.client.closed, true);
    assert.throws(() => a.client.feed(Buffer.alloc(0)), /closed/);
    assert.throws(() => a.client.watchdog(), /closed/);
    await assert.rejects(a.client.request('NewOrder', {}), /closed/);
    a.client.close(); // again: nothing

    // reset from a notify listener in the middle of a chunk: the pending request fails now,
    // the rest of the chunk is dropped
    const b = wired(s);
    const got = [];
    b.server.on('message', (m) => got.push(m));
    const p1 = b.client.request('NewOrder', { id: uuid(1) });
    b.serve();
    b.server.send('Trade', { order: 1n });
    b.server.reply(got[0], 'OrderAccepted', {});
    b.server.send('Trade', { order: 2n });
    const notes = [];
    b.client.on('notify', (m) => { notes.push(m.order); if (m.order === 1n) b.client.reset(); });
    b.answer();
    await assert.rejects(p1, fbe.ResetError);
    assert.deepEqual(notes, [1n]);
    assert.equal(b.client.pendingBytes, 0);

    // close from a listener while the core is still feeding: freed when the feed returns
    const c = wired(s);
    c.server.send('Trade', { order: 1n });
    c.server.send('Trade', { order: 2n });
    const p2 = c.client.request('NewOrder', {});
    const seen = [];
    c.client.on('notify', (m) => { seen.push(m.order); c.client.close(); global.gc(); });
    c.answer();
    await assert.rejects(p2, fbe.ResetError);
    assert.deepEqual(seen, [1n]);

    // a listener that throws: the feed throws it, the bytes after stay for the next feed
    const d = wired(s);
    d.server.send('Trade', { order: 1n });
    d.server.send('Trade', { order: 2n });
    const orders = [];
    d.client.on('notify', (m) => { orders.push(m.order); if (m.order === 1n && orders.length === 1) throw new Error('listener'); });
    assert.throws(() => d.answer(), /listener/);
    d.client.feed(Buffer.alloc(0));
    assert.deepEqual(orders, [1n, 2n]);

    // clients dropped with requests pending (some with timers armed), collected: no crash
    for (let i = 0; i < 50; i++) {
      const e = new fbe.Client(exchange(), { write: () => {} });
      e.request('NewOrder', {}).catch(() => {});
      e.request('NewOrder', {}, { timeout: 3600000 }).catch(() => {});
    }
    for (let i = 0; i < 3; i++) {
      global.gc();
      await settled();
    }
    // a short real timeout ends by the timer (no bound on when); the timer is unref'd, so
    // something else keeps the event loop alive meanwhile (a socket would, in a program)
    const alive = setInterval(() => {}, 1000);
    try {
      const f = new fbe.Client(s, { write: () => {} });
      await assert.rejects(f.request('NewOrder', {}, { timeout: 5 }), fbe.TimeoutError);
      assert.equal(f.pending, 0);
    } finally {
      clearInterval(alive);
    }
    await settled();
  } finally {
    process.removeListener('unhandledRejection', onUnhandled);
  }
  assert.deepEqual(unhandled, []);
});

test('the watchdog\'s timer is unref\'d: a pending request never keeps the process alive', () => {
  const script = `
    const fbe = require(${JSON.stringify(path.resolve(__dirname, '..'))});
    const s = fbe.load(${JSON.stringify(path.join(schemas, 'exchange.fbe'))}, { include: [${JSON.stringify(schemas)}] });
    const client = new fbe.Client(s, { write: () => {}, timeout: 3600000 });
    client.request('NewOrder', {}).catch(() => {});
    process.on('exit', () => console.log('exited with', client.pending, 'pending'));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'exited with 1 pending');
});

test('answers and notifications bigger than the tapes arrive whole (the tapes grow mid-callback)', async () => {
  for (const final of [false, true]) {
    const s = exchange(); // (a schema of its own: its tapes have their first size)
    const { client, server, serve, answer } = wired(s, { final }, { final });
    const got = [];
    server.on('message', (m) => got.push(m));
    const big = 'x'.repeat(300000) + 'é';
    const p = client.request('CancelOrder', { order: 1n });
    const q = client.request('CancelOrder', { order: 2n });
    serve();
    server.send('Trade', { symbol: big });
    server.reply(got[0], 'UnknownOrder', { order: 1n });
    server.reply(got[1], 'OrderCancelled', { order: 2n });
    const notes = [];
    client.on('notify', (m) => notes.push(m.symbol));
    answer();
    assert.deepEqual(notes, [big]);
    await assert.rejects(p, (e) => e instanceof fbe.RejectedError && e.reject.order === 1n);
    assert.equal((await q).order, 2n);
    // a reject whose text form is long: the core's error text (its message is bounded),
    // the reject itself whole
    const r = client.request('NewOrder', { symbol: 'S' });
    serve();
    server.reply(got[2], new s.Reject({ reason: big }));
    answer();
    await assert.rejects(r, (e) => e instanceof fbe.RejectedError && e.reject.reason === big &&
      e.message.startsWith('Reject(id=') && e.message.length < 1000);
  }
});

'use strict';
// Sender/Receiver over callbacks and streams, both models, imported protocols.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { PassThrough } = require('stream');
const { fbe, schemas, proto, account } = require('./helpers');

test('sender -> receiver through a callback, byte by byte and whole, both models', () => {
  const s = proto();
  for (const final of [false, true]) {
    const frames = [];
    const sender = new fbe.Sender(s, { final, write: (f) => frames.push(f) });
    assert.equal(sender.package, 'proto');
    assert.equal(sender.final, final);
    const msgs = [
      new s.OrderMessage({ body: { id: 1, symbol: 'EURUSD', price: 1.5 } }),
      new s.BalanceMessage({ body: { currency: 'USD', amount: 10 } }),
      new s.AccountMessage({ body: account(s) }),
    ];
    for (const m of msgs) assert.deepEqual(sender.send(m), m.encode({ final }), 'a frame is the message model');
    sender.send('OrderMessage', { body: { id: 2 } });
    const stream = Buffer.concat(frames);
    assert.equal(sender.bytes, stream.length);
    for (const step of [stream.length, 1, 7]) {
      const got = [];
      const receiver = new fbe.Receiver(s, { final, onMessage: (m, type) => got.push([type, m]) });
      let delivered = 0;
      for (let at = 0; at < stream.length; at += step) delivered += receiver.feed(stream.subarray(at, at + step));
      assert.equal(delivered, 4);
      assert.equal(receiver.received, 4);
      assert.equal(receiver.pending, 0);
      assert.deepEqual(got.map(([t]) => t),
        ['proto.OrderMessage', 'proto.BalanceMessage', 'proto.AccountMessage', 'proto.OrderMessage']);
      assert.ok(got[2][1] instanceof s.AccountMessage);
      assert.deepEqual(got[2][1].body, account(s));
      assert.equal(got[3][1].body.id, 2);
    }
  }
});

test('streams: sender writes to a stream, receiver attached to one, events', async () => {
  const s = proto();
  const pipe = new PassThrough();
  const sender = new fbe.Sender(s, { write: pipe });
  const receiver = new fbe.Receiver(s);
  const got = [];
  receiver.on('message', (m, type) => got.push(type));
  receiver.attach(pipe);
  sender.send(new s.OrderMessage({ body: { id: 1 } }));
  sender.send(new s.BalanceMessage());
  pipe.end();
  await new Promise((resolve) => pipe.on('end', resolve));
  assert.deepEqual(got, ['proto.OrderMessage', 'proto.BalanceMessage']);
  // errors on an attached stream are emitted
  const bad = new PassThrough();
  const r2 = new fbe.Receiver(s).attach(bad);
  const errors = [];
  r2.on('error', (e) => errors.push(e));
  bad.write(Buffer.from([4, 0, 0, 0, 1, 0, 0, 0]));
  bad.end();
  await new Promise((resolve) => bad.on('end', resolve));
  assert.equal(errors.length, 1);
  assert.ok(errors[0] instanceof fbe.FbeError);
});

test('receiver as a Writable (pipe into it)', async () => {
  const s = proto();
  const frames = [];
  const sender = new fbe.Sender(s, { write: (f) => frames.push(f) });
  for (let i = 0; i < 100; i++) sender.send(new s.OrderMessage({ body: { id: i } }));
  const ids = [];
  const receiver = new fbe.Receiver(s, { onMessage: (m) => ids.push(m.body.id) });
  const source = new PassThrough();
  const done = new Promise((resolve, reject) => receiver.writable().on('finish', resolve).on('error', reject));
  const w = receiver.writable();
  source.pipe(w);
  const all = Buffer.concat(frames);
  for (let at = 0; at < all.length; at += 33) source.write(all.subarray(at, at + 33));
  source.end();
  await new Promise((resolve) => w.on('finish', resolve));
  void done;
  assert.equal(ids.length, 100);
  assert.equal(ids[99], 99);
});

test('an extended protocol receives its own and its imports\' messages; others are skipped', () => {
  const ex = fbe.loadPackage('protoex', { include: [schemas] });
  const frames = [];
  const sender = new fbe.Sender(ex, { write: (f) => frames.push(f) });
  sender.send(new ex.OrderMessage({ body: { id: 1, tp: 3 } }));
  sender.send(new ex['proto.OrderMessage']({ body: { id: 2 } }));
  const got = [];
  const receiver = new fbe.Receiver(ex, { onMessage: (m, t) => got.push(t) });
  receiver.feed(Buffer.concat(frames));
  assert.deepEqual(got, ['protoex.OrderMessage', 'proto.OrderMessage']);
  // a proto receiver does not know protoex messages: skipped
  const p = proto();
  const r2 = new fbe.Receiver(p);
  r2.feed(Buffer.concat(frames));
  assert.equal(r2.received, 1);
  assert.equal(r2.skipped, 1);
  // the imported package's own protocol
  const protoOnly = new fbe.Sender(ex, { package: 'proto' });
  assert.equal(protoOnly.package, 'proto');
  assert.throws(() => protoOnly.send(new ex.OrderMessage()), fbe.FbeError);
});

test('reset drops a partial frame', () => {
  const s = proto();
  const frame = new fbe.Sender(s).send(new s.OrderMessage({ body: { id: 5 } }));
  const got = [];
  const receiver = new fbe.Receiver(s, { onMessage: (m) => got.push(m.body.id) });
  receiver.feed(frame.subarray(0, 10));
  assert.equal(receiver.pending, 10);
  receiver.reset();
  assert.equal(receiver.pending, 0);
  receiver.feed(frame);
  assert.deepEqual(got, [5]);
});

test('a handler may encode, decode and send (the tape is free again)', () => {
  const s = proto();
  const replies = [];
  const replySender = new fbe.Sender(s, { write: (f) => replies.push(f) });
  const receiver = new fbe.Receiver(s, {
    onMessage: (m) => {
      const copy = s.AccountMessage.decode(new s.AccountMessage({ body: account(s) }).encode());
      replySender.send(new s.OrderMessage({ body: { id: m.body.id + copy.body.orders.length } }));
    },
  });
  const sender = new fbe.Sender(s);
  receiver.feed(Buffer.concat([1, 2].map((id) => sender.send(new s.OrderMessage({ body: { id } })))));
  const ids = [];
  new fbe.Receiver(s, { onMessage: (m) => ids.push(m.body.id) }).feed(Buffer.concat(replies));
  assert.deepEqual(ids, [4, 5]);
});

test('messages bigger than the tapes arrive whole (the receiver grows them)', () => {
  const s = proto();
  const big = new s.AccountMessage({
    body: {
      name: 'n'.repeat(200000) + 'é',
      orders: Array.from({ length: 20000 }, (_, i) => ({ id: i, symbol: `S${i % 7}` })),
    },
  });
  for (const final of [false, true]) {
    const sender = new fbe.Sender(s, { final });
    const frames = Buffer.concat([sender.send(big), sender.send(new s.OrderMessage({ body: { id: 1 } }))]);
    const got = [];
    // a schema of its own: its tapes have their first size (the sender grew the other's)
    const receiver = new fbe.Receiver(proto(), { final, onMessage: (m) => got.push(m) });
    for (let at = 0; at < frames.length; at += 65536) receiver.feed(frames.subarray(at, at + 65536));
    assert.equal(got.length, 2);
    assert.equal(got[0].body.name.length, 200001);
    assert.equal(got[0].body.orders.length, 20000);
    assert.equal(got[0].body.orders[19999].symbol, `S${19999 % 7}`);
    assert.equal(got[1].body.id, 1);
  }
});

'use strict';
// Lifetimes (issue 17): native state (a schema, its senders and receivers) outlives every
// call that uses it, whatever JavaScript does meanwhile: a receiver's handler dropping
// the last references to its receiver and schema and collecting garbage mid-feed; values
// nested far deeper than any wire format; workers terminated in the middle of their
// calls. (node --test runs each file in a process of its own: a crash fails this file.)
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { Worker } = require('worker_threads');
const { fbe } = require('./helpers');

const TEXT = 'package life\nmessage R { int32 id; R2[] items; }\nstruct R2 { int64 a; string b; double? c; }\n';

function frames(count) {
  const s = fbe.loadString(TEXT);
  const out = [];
  const sender = new fbe.Sender(s, { write: (f) => out.push(f) });
  for (let i = 0; i < count; i++) sender.send(new s.R({ id: i, items: [{ a: BigInt(i), b: 'b' + i, c: 0.5 }] }));
  return Buffer.concat(out);
}

test('a handler that drops its receiver and schema and collects garbage mid-feed', () => {
  const stream = frames(5);
  const got = [];
  const holder = {};
  holder.receiver = new fbe.Receiver(fbe.loadString(TEXT), {
    onMessage: (m) => {
      got.push(m.id);
      delete holder.receiver; // the last references to the receiver and its schema
      global.gc();
      for (let k = 0; k < 20; k++) fbe.loadString(TEXT).R.decode(new fbe.Sender(fbe.loadString(TEXT)).send(
        'R', { id: k })); // reuse freed memory, if anything was freed
      global.gc();
    },
  });
  assert.equal(holder.receiver.feed(stream), 5);
  assert.deepEqual(got, [0, 1, 2, 3, 4]);
});

test('a value nested 100,000 deep: encode and equals throw, toString shows the error, never a crash', () => {
  const s = fbe.loadString('package deep\nstruct N { int32 v; N? next; }\n');
  let a = null;
  let b = null;
  for (let i = 0; i < 100000; i++) {
    a = new s.N({ v: i, next: a });
    b = new s.N({ v: i, next: b });
  }
  assert.throws(() => a.encode(), (e) => e instanceof fbe.FbeError && e.status === fbe.codes.FBE_ERR_LIMIT);
  assert.throws(() => a.toJSON(), (e) => e instanceof fbe.FbeError || e instanceof RangeError);
  assert.throws(() => a.equals(b), (e) => e instanceof fbe.FbeError && e.status === fbe.codes.FBE_ERR_LIMIT);
  assert.match(String(a), /^N\(<invalid: value nested deeper than 256 levels at '(\.\.\.)?next(\.next)+'>\)$/);
});

// A worker that loads, encodes, decodes, sends and receives forever (until terminated),
// reporting after its first round.
const WORKER = `
const { parentPort } = require('worker_threads');
const fbe = require(${JSON.stringify(path.resolve(__dirname, '..'))});
const TEXT = ${JSON.stringify(TEXT)};
const items = [];
for (let i = 0; i < 2000; i++) items.push({ a: BigInt(i), b: 'b' + i, c: i % 2 ? 0.5 : null });
for (let round = 0; ; round++) {
  const s = fbe.loadString(TEXT);
  const m = new s.R({ id: 7, items });
  const bytes = m.encode();
  if (s.R.decode(bytes).id !== 7) throw new Error('decode gave another value');
  const out = [];
  new fbe.Sender(s, { write: (f) => out.push(f) }).send(m);
  const r = new fbe.Receiver(s, { onMessage: (x) => { s.R.verify(bytes); if (x.id !== 7) throw new Error('bad'); } });
  r.feed(Buffer.concat(out));
  if (round === 0) parentPort.postMessage('running');
}
`;

test('workers terminated while they load, encode, decode, send and receive', async () => {
  let seen = 0;
  for (let round = 0; round < 8; round++) {
    const workers = [0, 1].map(() => new Worker(WORKER, { eval: true }));
    // each terminated after it reported its first round of calls: mid-way through the next
    await Promise.all(workers.map((w) => new Promise((resolve, reject) => {
      w.once('message', () => {
        seen++;
        w.terminate().then(resolve, reject);
      });
      w.once('error', reject);
    })));
  }
  assert.equal(seen, 16);
});

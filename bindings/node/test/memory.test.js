'use strict';
// Memory, counted exactly (no resident-size guesses, which move with the allocator, the
// kernel and the machine's load):
//  - the bytes the C core and the addon hold (the addon's internal memoryInUse(), an
//    exact count kept by the core) come back to exactly where they were after a million
//    encode/decode cycles, and after a thousand schemas, senders and receivers dropped;
//  - V8's used heap after full collections does not grow with the number of cycles.
//    A leak of one object per cycle (16 bytes at the very least) would add 16 MB over a
//    million; the bound is 4 MB, a margin of four to one on the smallest possible leak,
//    while what V8 keeps for itself between full GCs (code of functions optimised late,
//    feedback vectors, its own caches) stays around or below 1 MB.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const v8 = require('v8');
const vm = require('vm');
const native = require('../lib/native');
const { fbe, proto, account } = require('./helpers');

const HEAP_SLACK = 4 << 20;

function gcFunction() {
  if (typeof global.gc === 'function') return global.gc;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
}

/** Full GCs, with turns of the event loop between them: Node-API finalizers (which free
 * the native side of schemas, senders and receivers) run after the GC, and what one of
 * them releases may only be collected by the next GC. Goes on until two rounds in a row
 * leave the core's count unchanged (at least 3 rounds, at most 20: a number of rounds,
 * never a time). */
async function settle(gc) {
  let last = native.memoryInUse();
  let unchanged = 0;
  for (let round = 0; round < 20 && (round < 3 || unchanged < 2); round++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    const now = native.memoryInUse();
    unchanged = now === last ? unchanged + 1 : 0;
    last = now;
  }
  return { core: native.memoryInUse(), heap: v8.getHeapStatistics().used_heap_size };
}

function assertNoGrowth(t, before, after, what) {
  const mb = (n) => (n / (1 << 20)).toFixed(2);
  t.diagnostic(`${what}: core ${before.core} -> ${after.core} bytes, ` +
    `V8 heap ${mb(before.heap)} -> ${mb(after.heap)} MB`);
  assert.equal(after.core - before.core, 0, `${what}: the core holds ${after.core - before.core} more bytes`);
  assert.ok(after.heap - before.heap < HEAP_SLACK, `${what}: V8 heap grew by ${mb(after.heap - before.heap)} MB`);
}

test('the addon counts the core\'s memory', async () => {
  const gc = gcFunction();
  const base = (await settle(gc)).core;
  let s = proto();
  assert.ok(native.memoryInUse() > base, 'a loaded schema is counted');
  s = null;
  assert.equal((await settle(gc)).core, base, 'a dropped schema is uncounted');
});

test('a million encode/decode cycles leave the core\'s memory and V8\'s heap where they were', async (t) => {
  const gc = gcFunction();
  const s = proto();
  const acc = account(s);
  const bytes = acc.encode();
  const final = acc.encode({ final: true });
  const sender = new fbe.Sender(s);
  let received = 0;
  const receiver = new fbe.Receiver(s, { onMessage: () => { received++; } });
  const work = (n) => {
    let check = 0;
    for (let i = 0; i < n; i++) {
      const out = (i & 1) ? acc.encode({ final: true }) : acc.encode();
      const back = (i & 1) ? s.Account.decode(final, { final: true }) : s.Account.decode(bytes);
      check += out.length + back.orders.length;
      if (i % 1000 === 0) {
        s.Account.fromJsonString(back.toJsonString());
        receiver.feed(sender.send(new s.AccountMessage({ body: back })));
        try {
          s.Account.decode(bytes.subarray(0, 50));
        } catch (e) { /* errors too */ }
      }
    }
    return check;
  };
  work(50000); // warm up: JIT, the schema's buffers, the receiver's reach their size
  const before = await settle(gc);
  assert.equal(work(1000000), 500000 * (252 + 152) + 3000000);
  assert.equal(received, 50 + 1000);
  const after = await settle(gc);
  // uses of the schema, sender and receiver, which keep them (and their memory) alive until here
  assert.ok(receiver.pending === 0 && sender.bytes > 0 && s.Account === s.Account);
  assertNoGrowth(t, before, after, '1e6 cycles');
});

test('schemas, senders and receivers are freed when unreachable', async (t) => {
  const gc = gcFunction();
  const round = () => {
    for (let i = 0; i < 200; i++) {
      const s = proto();
      const r = new fbe.Receiver(s, { onMessage: () => {} });
      r.feed(new fbe.Sender(s).send(new s.OrderMessage()));
      s.Account.decode(account(s).encode());
    }
  };
  round(); // warm up
  const before = await settle(gc);
  for (let k = 0; k < 5; k++) round();
  assertNoGrowth(t, before, await settle(gc), '1000 schemas, senders and receivers dropped');
});

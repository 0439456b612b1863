'use strict';
// A million encode/decode cycles (and some JSON and protocol work) must not grow the
// process: RSS after a full GC within 20 MB of where it started.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const v8 = require('v8');
const vm = require('vm');
const { fbe, proto, account } = require('./helpers');

function gcFunction() {
  if (typeof global.gc === 'function') return global.gc;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
}

/** Full GCs, with turns of the event loop between them: Node-API finalizers (which
 * free the native side of schemas, senders and receivers) run after the GC. */
async function settle(gc) {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().rss;
}

test('a million encode/decode cycles grow RSS by less than 20 MB', async (t) => {
  const gc = gcFunction();
  const s = proto();
  const acc = account(s);
  const bytes = acc.encode();
  const final = acc.encode({ final: true });
  const sender = new fbe.Sender(s);
  const receiver = new fbe.Receiver(s, { onMessage: () => {} });
  // warm up: JIT, pools, tapes reach their working size
  for (let i = 0; i < 50000; i++) {
    s.Account.decode(acc.encode());
    s.Account.decode(final, { final: true });
  }
  const before = await settle(gc);
  let check = 0;
  for (let i = 0; i < 1000000; i++) {
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
  const after = await settle(gc);
  assert.equal(check, 500000 * (252 + 152) + 3000000);
  const grown = (after - before) / (1 << 20);
  t.diagnostic(`RSS ${(before / (1 << 20)).toFixed(1)} MB -> ${(after / (1 << 20)).toFixed(1)} MB after 1e6 cycles`);
  assert.ok(grown < 20, `RSS grew by ${grown.toFixed(1)} MB`);
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
  round();
  const before = await settle(gc);
  for (let k = 0; k < 5; k++) {
    round();
    await settle(gc);
  }
  const after = await settle(gc);
  const grown = (after - before) / (1 << 20);
  t.diagnostic(`RSS ${(before / (1 << 20)).toFixed(1)} MB -> ${(after / (1 << 20)).toFixed(1)} MB over 1000 schemas`);
  assert.ok(grown < 20, `RSS grew by ${grown.toFixed(1)} MB over 1000 schemas`);
});

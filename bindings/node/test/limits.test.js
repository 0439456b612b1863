'use strict';
// Limits: { limits: { maxDepth, maxModelSize, maxMemory } } on decode (verified and
// trusted), verify/validate, fromJsonString and the Receiver. The binding passes each
// (name, value) to the core's fbe_limits_set, so names, ranges and texts are the core's;
// crossing a limit throws FBE_ERR_LIMIT with the core's text naming it.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { fbe, proto, account } = require('./helpers');

const { FbeError } = fbe;
const FLOOR = 1 << 20; // FBE_DEFAULT_MEMORY_FLOOR: the default budget is 16 x input + 1 MiB

/** Asserts fn throws an FbeError with that code and reason (exact string or RegExp). */
function throwsFbe(fn, code, reason) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof FbeError, `expected an FbeError, got ${err && err.stack}`);
  assert.equal(err.code, code, err.message);
  if (reason instanceof RegExp) assert.match(err.reason, reason);
  else assert.equal(err.reason, reason);
  return err;
}

/** proto.Account, standard model, whose orders are n pointers to ONE Order body
 * (tests/test_budget.c shared_orders): 4 (n + 24) bytes standing for n orders. */
function sharedOrders(n) {
  const acct = 8;
  const wallet = acct + 30;
  const block = wallet + 20;
  const order = block + 4 + 4 * n;
  const b = Buffer.alloc(order + 34);
  let at = 0;
  const u32 = (v) => { b.writeUInt32LE(v, at); at += 4; };
  u32(b.length); u32(8);
  u32(30); u32(3); u32(1); u32(0); at += 1; // Account: size, type id, id, name, state
  u32(wallet - acct); at += 5; u32(block - acct); // wallet, asset (null), orders
  u32(20); u32(2); u32(0); at += 8; // Balance
  u32(n);
  for (let i = 0; i < n; i++) u32(order - acct);
  u32(34); u32(1); u32(7); u32(0); // Order: size, type id, id, symbol (+ 18 zero bytes)
  return b;
}

/** A package of empty structs: M's final model holds n of them in 12 bytes. */
function emptiesSchema() {
  return fbe.loadString('package frames\nstruct E {}\nmessage M { E[] items; }\nstruct D { int32?[] a; }\n');
}
function empties(s, n) {
  const b = Buffer.from(new s.M({ items: [] }).encode({ final: true }));
  b.writeUInt32LE(n, 8);
  return b;
}

test('decode: each limit lowered refuses with the core text, verified and trusted', () => {
  const s = proto();
  const bytes = account(s).encode();
  for (const trusted of [false, true]) {
    const o = (limits) => ({ trusted, limits });
    throwsFbe(() => s.Account.decode(bytes, o({ maxMemory: 100 })), 'FBE_ERR_LIMIT',
      'decoding needs more than the memory budget of 100 bytes (max_memory)');
    throwsFbe(() => s.Account.decode(bytes, o({ maxModelSize: 10 })), 'FBE_ERR_LIMIT',
      `model size ${s.Account.validate(bytes)} exceeds the limit of 10 bytes (max_model_size)`);
    throwsFbe(() => s.decode('Account', bytes, o({ maxMemory: 100 })), 'FBE_ERR_LIMIT', /\(max_memory\)$/);
    // within them: the same value
    assert.deepEqual(s.Account.decode(bytes, o({ maxMemory: 1 << 20, maxModelSize: bytes.length, maxDepth: 1 })),
      s.Account.decode(bytes));
  }
  const e = emptiesSchema();
  const d = new e.D({ a: [1, null] });
  for (const final of [false, true]) {
    const err = throwsFbe(() => e.D.decode(d.encode({ final }), { final, limits: { maxDepth: 1 } }), 'FBE_ERR_LIMIT',
      'nesting deeper than 1 levels (max_depth)');
    assert.equal(err.path, 'a[0]');
    assert.notEqual(err.offset, null);
    assert.deepEqual(e.D.decode(d.encode({ final }), { final, limits: { maxDepth: 2 } }).a, [1, null]);
  }
  // the limits are the call's: the next call without them has the defaults
  assert.equal(s.Account.decode(bytes).orders.length, 3);
});

test('verify and validate: the limits bound them as they bound decode', () => {
  const s = proto();
  const bytes = account(s).encode();
  const size = s.Account.validate(bytes);
  assert.equal(s.Account.verify(bytes, { limits: { maxMemory: 100 } }), false);
  assert.equal(s.verify('Account', bytes, { limits: { maxModelSize: size - 1 } }), false);
  assert.equal(s.Account.verify(bytes, { limits: { maxModelSize: size } }), true);
  throwsFbe(() => s.Account.validate(bytes, { limits: { maxMemory: 100 } }), 'FBE_ERR_LIMIT',
    'decoding needs more than the memory budget of 100 bytes (max_memory)');
  throwsFbe(() => s.validate('Account', bytes, { limits: { maxModelSize: size - 1 } }), 'FBE_ERR_LIMIT',
    `model size ${size} exceeds the limit of ${size - 1} bytes (max_model_size)`);
  const e = emptiesSchema();
  const d = new e.D({ a: [1] }).encode({ final: true });
  throwsFbe(() => e.D.validate(d, { final: true, limits: { maxDepth: 1 } }), 'FBE_ERR_LIMIT',
    'nesting deeper than 1 levels (max_depth)');
  assert.equal(e.D.validate(d, { final: true, limits: { maxDepth: 2 } }), d.length);
  // a refused limit is an error, not a "no": verify throws it
  throwsFbe(() => s.Account.verify(bytes, { limits: { maxDepth: 1000 } }), 'FBE_ERR_RANGE',
    'max_depth must be 0 (the default) or 1..256, not 1000');
});

test('fromJsonString: the limits bound the JSON reader', () => {
  const s = proto();
  const text = account(s).toJsonString();
  throwsFbe(() => s.Account.fromJsonString(text, { limits: { maxMemory: 100 } }), 'FBE_ERR_LIMIT',
    'reading JSON needs more than the memory budget of 100 bytes (max_memory)');
  throwsFbe(() => s.fromJsonString('Account', text, { limits: { maxModelSize: 10 } }), 'FBE_ERR_LIMIT',
    `JSON text of ${Buffer.byteLength(text)} bytes exceeds the limit of 10 bytes (max_model_size)`);
  const e = emptiesSchema();
  const err = throwsFbe(() => e.D.fromJsonString('{"a":[1,null]}', { limits: { maxDepth: 1 } }), 'FBE_ERR_LIMIT',
    'nesting deeper than 1 levels (max_depth)');
  assert.equal(err.path, 'a[0]');
  assert.deepEqual(e.D.fromJsonString('{"a":[1,null]}', { limits: { maxDepth: 2 } }).a, [1, null]);
  assert.deepEqual(s.Account.fromJsonString(text, { limits: { maxMemory: 1 << 20 } }), account(s));
});

test('Receiver: the limits apply to every frame', () => {
  const s = proto();
  const frames = [];
  const sender = new fbe.Sender(s, { write: (f) => frames.push(f) });
  sender.send(new s.AccountMessage({ body: account(s) }));
  const frame = frames[0];
  const got = [];
  const small = new fbe.Receiver(s, { limits: { maxModelSize: 20 }, onMessage: (m) => got.push(m) });
  throwsFbe(() => small.feed(frame), 'FBE_ERR_LIMIT',
    `frame size ${frame.length} exceeds the limit of 20 bytes (max_model_size)`);
  const tight = new fbe.Receiver(s, { limits: { maxMemory: 100 }, onMessage: (m) => got.push(m) });
  throwsFbe(() => tight.feed(frame), 'FBE_ERR_LIMIT',
    'decoding needs more than the memory budget of 100 bytes (max_memory)');
  assert.equal(got.length, 0);
  const roomy = new fbe.Receiver(s, { limits: { maxModelSize: frame.length, maxMemory: 1 << 20 },
    onMessage: (m) => got.push(m) });
  assert.equal(roomy.feed(Buffer.concat([frame, frame])), 2);
  assert.deepEqual(got[1].body, account(s));
  // a frame of 2 x 10^6 empty structs: refused by the default budget
  const e = emptiesSchema();
  const r = new fbe.Receiver(e, { final: true, onMessage: (m) => got.push(m) });
  throwsFbe(() => r.feed(empties(e, 2000000)), 'FBE_ERR_LIMIT', /^decoding needs more than the memory budget of \d+ bytes \(max_memory\)$/);
  throwsFbe(() => new fbe.Receiver(s, { limits: { maxModelSize: 2 ** 32 } }), 'FBE_ERR_RANGE',
    'max_model_size must be 0 (the default) or 1..4294967295, not 4294967296');
});

test('the core decides names and ranges; the binding only converts host values', () => {
  const s = proto();
  const bytes = account(s).encode();
  const decode = (limits) => s.Account.decode(bytes, { limits });
  throwsFbe(() => decode({ maxDepth: 257 }), 'FBE_ERR_RANGE', 'max_depth must be 0 (the default) or 1..256, not 257');
  throwsFbe(() => decode({ maxDepth: -1 }), 'FBE_ERR_RANGE', 'max_depth must be 0 (the default) or 1..256, not -1');
  throwsFbe(() => decode({ maxMemory: -1 }), 'FBE_ERR_RANGE',
    'max_memory must be 0 (the default) or a byte count, not -1');
  throwsFbe(() => decode({ maxModelSize: 2 ** 32 }), 'FBE_ERR_RANGE',
    'max_model_size must be 0 (the default) or 1..4294967295, not 4294967296');
  throwsFbe(() => decode({ maxSize: 1 }), 'FBE_ERR_ARGUMENT',
    "unknown limit 'maxSize' (max_depth, max_model_size, max_memory)");
  throwsFbe(() => s.Account.fromJsonString('{}', { limits: { depth: 1 } }), 'FBE_ERR_ARGUMENT',
    "unknown limit 'depth' (max_depth, max_model_size, max_memory)");
  // beyond int64: clamped first, so the core refuses it, or takes it as very large
  throwsFbe(() => decode({ maxDepth: 10n ** 30n }), 'FBE_ERR_RANGE',
    'max_depth must be 0 (the default) or 1..256, not 9223372036854775807');
  throwsFbe(() => decode({ maxMemory: -(10n ** 30n) }), 'FBE_ERR_RANGE',
    'max_memory must be 0 (the default) or a byte count, not -9223372036854775808');
  throwsFbe(() => decode({ maxDepth: -1e300 }), 'FBE_ERR_RANGE',
    'max_depth must be 0 (the default) or 1..256, not -9223372036854775808');
  assert.equal(decode({ maxMemory: 10n ** 30n }).orders.length, 3);
  assert.equal(decode({ maxMemory: 1e300 }).orders.length, 3);
  // host types: integers only (number or bigint); undefined members are absent
  for (const bad of [1.5, '64', null, true, NaN, Infinity, {}]) {
    throwsFbe(() => decode({ maxDepth: bad }), 'FBE_ERR_TYPE', 'limits.maxDepth must be an integer (a number or a bigint)');
  }
  for (const bad of [5, 'x', true]) {
    throwsFbe(() => decode(bad), 'FBE_ERR_TYPE', 'limits must be an object ({ maxDepth, maxModelSize, maxMemory })');
  }
  // own properties, read once in JavaScript before the native call (getters included)
  let reads = 0;
  const counted = { get maxMemory() { reads++; return 100; } };
  throwsFbe(() => decode(counted), 'FBE_ERR_LIMIT', /\(max_memory\)$/);
  assert.equal(reads, 1);
  assert.equal(decode(Object.create({ maxMemory: 100 })).orders.length, 3);
  throwsFbe(() => decode(JSON.parse('{"__proto__": 1}')), 'FBE_ERR_ARGUMENT',
    "unknown limit '__proto__' (max_depth, max_model_size, max_memory)");
  assert.equal(decode({ maxDepth: undefined }).orders.length, 3);
  assert.equal(decode(undefined).orders.length, 3);
  assert.equal(decode(null).orders.length, 3);
  assert.equal(decode({}).orders.length, 3);
  // 0 is the default; the core's snake_case names work too
  assert.equal(decode({ maxDepth: 0, maxModelSize: 0, maxMemory: 0 }).orders.length, 3);
  throwsFbe(() => decode({ max_memory: 100 }), 'FBE_ERR_LIMIT', /\(max_memory\)$/);
  throwsFbe(() => decode({ maxDepth: 2n, maxMemory: 100n }), 'FBE_ERR_LIMIT', /\(max_memory\)$/);
});

test('hostile budget input: refused by default naming max_memory, decoded when raised', () => {
  const s = proto();
  // 10^6 pointers to one Order (4 MB): the defaults refuse it without walking it
  const shared = sharedOrders(1000000);
  const budget = 16 * shared.length + FLOOR;
  const want = `decoding needs more than the memory budget of ${budget} bytes (max_memory)`;
  throwsFbe(() => s.Account.decode(shared), 'FBE_ERR_LIMIT', want);
  throwsFbe(() => s.Account.decode(shared, { trusted: true }), 'FBE_ERR_LIMIT', want);
  throwsFbe(() => s.Account.validate(shared), 'FBE_ERR_LIMIT', want);
  assert.equal(s.Account.decode(sharedOrders(3)).orders.length, 3); // the shape itself is valid
  // 200000 empty structs in 12 bytes: over the default budget, within a raised one
  const e = emptiesSchema();
  const b = empties(e, 200000);
  throwsFbe(() => e.M.decode(b, { final: true }), 'FBE_ERR_LIMIT',
    `decoding needs more than the memory budget of ${16 * b.length + FLOOR} bytes (max_memory)`);
  assert.equal(e.M.decode(b, { final: true, limits: { maxMemory: 8 << 20 } }).items.length, 200000);
});

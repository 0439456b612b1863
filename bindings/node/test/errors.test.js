'use strict';
// Every error path: each throws an FbeError (a subclass of Error) with a status code,
// the value path and the byte offset where they apply; nothing crashes the process.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { fbe, schemas, conformance, proto, test: testSchema, account } = require('./helpers');

const { FbeError, codes } = fbe;

/** The error class of a status name: the one the core's table names for it. */
function classOf(code) {
  return Object.values(fbe).find((c) => typeof c === 'function' && c.prototype instanceof FbeError &&
    new c('x').code === code) || FbeError;
}

/** Asserts fn throws an FbeError with the given code (and path/offset when given). */
function throwsFbe(fn, code, pathOrRe, offset) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err, 'expected an error');
  assert.ok(err instanceof FbeError, `expected an FbeError, got ${err && err.stack}`);
  assert.ok(err instanceof Error);
  assert.equal(err.code, code, err.message);
  assert.ok(err instanceof classOf(code), `${err.name} is the class of ${code}`);
  assert.equal(err.name, err.constructor.name);
  assert.equal(err.status, codes[code]);
  if (typeof pathOrRe === 'string') assert.equal(err.path, pathOrRe, err.message);
  else if (pathOrRe) assert.match(err.message, pathOrRe);
  if (offset !== undefined) assert.equal(err.offset, offset, err.message);
  return err;
}

test('FbeError: fields, message format, codes from the core table', () => {
  assert.equal(codes.FBE_OK, 0);
  assert.equal(codes.FBE_ERR_MALFORMED, 7);
  assert.ok(Object.isFrozen(codes));
  const e = new FbeError('bad', { status: codes.FBE_ERR_RANGE, path: 'a.b', offset: 3 });
  assert.equal(e.message, "bad at 'a.b' (offset 3)");
  assert.equal(e.reason, 'bad');
  assert.equal(e.code, 'FBE_ERR_RANGE');
  assert.equal(new FbeError('x').offset, null);
  assert.ok(e.stack.includes('FbeError'));
  // one class per status, named and parented by the core's table (fbe_status_class/_parent)
  const m = new fbe.MalformedError('bad bytes', { offset: 9 });
  assert.ok(m instanceof FbeError && m instanceof Error);
  assert.deepEqual([m.name, m.code, m.status, m.message], ['MalformedError', 'FBE_ERR_MALFORMED', 7, 'bad bytes (offset 9)']);
  const u = new fbe.UnknownFieldError('no field', { path: 'a' });
  assert.ok(u instanceof fbe.NotFoundError && u instanceof FbeError);
  assert.deepEqual([u.code, u.status, u.message], ['FBE_ERR_UNKNOWN_FIELD', codes.FBE_ERR_UNKNOWN_FIELD, "no field at 'a'"]);
  assert.equal(Object.getPrototypeOf(fbe.NotFoundError), FbeError);
  for (const name of ['OutOfMemoryError', 'ArgumentError', 'SchemaError', 'TypeMismatchError', 'RangeError',
    'JSONError', 'LimitError', 'StreamError']) assert.equal(Object.getPrototypeOf(fbe[name]), FbeError, name);
  assert.ok(!(new fbe.RangeError('x') instanceof RangeError), "fbe's RangeError is not the builtin");
});

test('wrong JavaScript types, with the field path', () => {
  const s = testSchema();
  const { StructSimple: S } = s;
  const T = 'FBE_ERR_TYPE', R = 'FBE_ERR_RANGE', A = 'FBE_ERR_ARGUMENT', U = 'FBE_ERR_UNKNOWN_FIELD';
  const cases = [
    [{ f1: 1 }, 'f1', T], [{ f1: 'true' }, 'f1', T], [{ id: '1' }, 'id', T], [{ id: null }, 'id', T],
    [{ f3: {} }, 'f3', T], [{ f5: 'ab' }, 'f5', A], [{ f5: 5n ** 30n }, 'f5', R], [{ f21: 'x' }, 'f21', T],
    [{ f23: {} }, 'f23', T], [{ f25: 'x' }, 'f25', T], [{ f27: null }, 'f27', T], [{ f29: {} }, 'f29', T],
    [{ f29: 1.5 }, 'f29', T], [{ f29: 2 }, 'f29', T], [{ f31: 5 }, 'f31', T], [{ f31: null }, 'f31', T],
    [{ f33: 'now' }, 'f33', T], [{ f33: 5 }, 'f33', T], [{ f36: 5 }, 'f36', T],
    [{ f36: Buffer.alloc(16) }, 'f36', T], [{ f39: {} }, 'f39', T], [{ f39: true }, 'f39', T], [{ f41: 5 }, 'f41', T],
    [{ f41: { id: 'x' } }, 'f41.id', T], [{ f41: { idd: 1 } }, 'f41', U], [{ f41: new Map() }, 'f41', T],
    [{ f44: { orders: [{}, { symbol: 1 }] } }, 'f44.orders[1].symbol', T], [{ f44: { orders: 5 } }, 'f44.orders', T],
    [{ f44: { orders: [null] } }, 'f44.orders[0]', T], [{ f42: null }, 'f42', T], [{ nope: 1 }, '', U],
  ];
  for (const [init, where, code] of cases) {
    const err = (() => {
      try {
        s.encode('StructSimple', { ...init });
      } catch (e) {
        return e;
      }
      return null;
    })();
    const shown = JSON.stringify(init, (k, v) => (typeof v === 'bigint' ? `${v}n` : v));
    assert.ok(err instanceof FbeError, `${shown} did not throw`);
    assert.equal(err.code, code, `${shown}: ${err.message}`);
    assert.equal(err.path, where, err.message);
  }
  throwsFbe(() => new S({ f31: 5 }).encode(), 'FBE_ERR_TYPE', 'f31');
  throwsFbe(() => s.encode('StructSimple', 5), 'FBE_ERR_TYPE', '');
  throwsFbe(() => s.encode('StructSimple', null), 'FBE_ERR_TYPE', '');
  throwsFbe(() => new S(5), 'FBE_ERR_TYPE', '');
  const bytes = s.StructBytes;
  throwsFbe(() => new bytes({ f1: 'abc' }).encode(), 'FBE_ERR_TYPE', 'f1');
  throwsFbe(() => new bytes({ f1: [1, 2] }).encode(), 'FBE_ERR_TYPE', 'f1');
  throwsFbe(() => new bytes({ f2: 5 }).encode(), 'FBE_ERR_TYPE', 'f2');
  throwsFbe(() => new s.StructArray({ f1: [1] }).encode(), 'FBE_ERR_RANGE', 'f1');
  throwsFbe(() => new s.StructArray({ f1: [1, 'x'] }).encode(), 'FBE_ERR_TYPE', 'f1[1]');
  throwsFbe(() => new s.StructVector({ f1: new Set([1]) }).encode(), 'FBE_ERR_TYPE', 'f1');
  throwsFbe(() => new s.StructVector({ f2: [1, 'x'] }).encode(), 'FBE_ERR_TYPE', 'f2[1]');
  throwsFbe(() => new s.StructVector({ f9: [{}, { f41: { side: 'up' } }] }).encode(), 'FBE_ERR_ARGUMENT', 'f9[1].f41.side');
  throwsFbe(() => new s.StructSet({ f1: 5 }).encode(), 'FBE_ERR_TYPE', 'f1');
  throwsFbe(() => new s.StructSet({ f1: new Set([1, 'x']) }).encode(), 'FBE_ERR_TYPE', 'f1[1]');
  throwsFbe(() => new s.StructMap({ f1: 5 }).encode(), 'FBE_ERR_TYPE', 'f1');
  // a plain object's keys are the keys' text (as in JSON): digits for an int32 key
  assert.equal(s.StructMap.decode(new s.StructMap({ f1: { 1: 2 } }).encode()).f1.get(1), 2);
  throwsFbe(() => new s.StructMap({ f1: { a: 2 } }).encode(), 'FBE_ERR_TYPE', 'f1[0][key]');
  throwsFbe(() => s.encode('StructMap', { f1: { 2: 'x' } }), 'FBE_ERR_TYPE', 'f1[0]');
  throwsFbe(() => new s.StructMap({ f1: [[1, 2], [3]] }).encode(), 'FBE_ERR_TYPE', 'f1[1]');
  throwsFbe(() => new s.StructMap({ f1: new Map([[1, 'x']]) }).encode(), 'FBE_ERR_TYPE', 'f1[0]');
  throwsFbe(() => new s.StructHash({ f1: new Map([[1, 1]]) }).encode(), 'FBE_ERR_TYPE', 'f1[0][key]');
  throwsFbe(() => new s.StructHashEx({ f1: new Map([[5, null]]) }).encode(), 'FBE_ERR_TYPE', 'f1[0][key]');
});

test('numbers out of range for their field', () => {
  const s = testSchema();
  const T = 'FBE_ERR_TYPE', R = 'FBE_ERR_RANGE', A = 'FBE_ERR_ARGUMENT';
  const cases = [
    ['f3', 256, R], ['f3', -1, R], ['f5', 256, R], ['f7', -1, R], ['f7', 2 ** 32, R], ['f9', 128, R], ['f9', -129, R],
    ['f11', 256, R], ['f13', 32768, R], ['f15', 65536, R], ['f15', -1, R], ['f17', 2 ** 31, R],
    ['f17', -(2 ** 31) - 1, R], ['f19', 2 ** 32, R], ['f19', -1, R], ['f21', 2n ** 63n, R],
    ['f21', -(2n ** 63n) - 1n, R], ['f23', -1n, R], ['f23', 2n ** 64n, R], ['f21', 1.5, T],
    ['f25', 1e39, R], ['f25', -1e300, R], ['f29', '1e40', R], ['f29', 'abc', A], ['f29', Infinity, T], ['f33', -1n, R],
    ['f33', new Date(NaN), R], ['f33', new Date(-1), R], ['f36', 'not-a-uuid', A], ['f39', 256, R], ['f39', -1, R],
    ['f39', 'nope', A], ['f43', 'good|nope', A], ['f43', 256, R], ['f5', 'ф', R],
  ];
  for (const [field, value, code] of cases) {
    let err = null;
    try {
      s.encode('StructSimple', { [field]: value });
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof FbeError, `${field} = ${String(value)} did not throw`);
    assert.equal(err.code, code, `${field} = ${String(value)}: ${err.message}`);
    assert.equal(err.path, field, err.message);
  }
  // edges that fit
  const ok = { f3: 255, f9: -128, f13: -32768, f16: 65535, f17: -(2 ** 31), f19: 2 ** 32 - 1,
    f21: -(2n ** 63n), f23: 2n ** 64n - 1n, f25: 3.4028234663852886e38, f27: -0, f33: 2n ** 64n - 1n };
  const back = s.StructSimple.decode(s.encode('StructSimple', ok));
  for (const [k, v] of Object.entries(ok)) assert.ok(Object.is(back[k], v), k);
  throwsFbe(() => new s.StructNested({ f1006: 2n ** 64n }).encode(), 'FBE_ERR_RANGE', 'f1006');
  throwsFbe(() => new s.StructNested({ f1006: 'FLAG_VALUE_1|NOPE' }).encode(), 'FBE_ERR_ARGUMENT', 'f1006');
});

/** The error fn throws (an FbeError). */
function errorOf(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof FbeError, e && e.stack);
    return e;
  }
  assert.fail('expected an error');
}

/** verify rejects the bytes, and decode throws verify's very error (code, reason, path,
 * offset): the one validate throws. Returns it. */
function refusedAsVerify(T, bytes, options) {
  assert.equal(T.verify(bytes, options), false);
  const want = errorOf(() => T.validate(bytes, options));
  const got = errorOf(() => T.decode(bytes, options));
  assert.deepEqual([got.code, got.reason, got.path, got.offset, got.message],
    [want.code, want.reason, want.path, want.offset, want.message]);
  return got;
}

test('decode verifies: what verify rejects throws verify\'s error; trusted: true decodes without verifying', () => {
  const s = proto();
  // another struct's bytes, both models: the type id
  for (const final of [false, true]) {
    const bytes = account(s).encode({ final });
    const err = refusedAsVerify(s.Order, bytes, { final });
    assert.equal(err.code, 'FBE_ERR_MALFORMED');
    assert.equal(err.reason, 'type id 3 where proto.Order (1) was expected');
    assert.equal(err.offset, final ? 4 : 12);
    assert.equal(err.path, '');
    if (final) throwsFbe(() => s.Order.decode(bytes, { final, trusted: true }), 'FBE_ERR_MALFORMED'); // the final decoder checks it too
    else assert.ok(s.Order.decode(bytes, { trusted: true }) instanceof s.Order, 'the trusted decode reads it');
  }
  // a malformed model: the orders count past the model
  const bad = account(s).encode();
  bad.writeUInt32LE(0x7fffffff, 0x68);
  const err = refusedAsVerify(s.Account, bad);
  assert.equal(err.path, 'orders');
  assert.equal(err.offset, 104);
  assert.match(err.reason, /do not fit/);
  // a sibling message type of another schema version: refused, then read with trusted
  const ex = fbe.loadPackage('protoex', { include: [schemas] });
  const sent = new (ex.get('proto.OrderMessage'))({ body: { id: 7, symbol: 'EURUSD' } });
  const bytes = sent.encode();
  const Reader = ex.get('protoex.OrderMessage');
  assert.match(refusedAsVerify(Reader, bytes).reason, /type id 1 where protoex.OrderMessage/);
  const got = Reader.decode(bytes, { trusted: true });
  assert.deepEqual([got.body.id, got.body.symbol, got.body.tp, got.body.sl], [7, 'EURUSD', 10, -10]);
  assert.ok(ex.decode('protoex.OrderMessage', bytes, { trusted: true }).equals(got));
  assert.ok(ex.decode('protoex.OrderMessage', bytes, { verify: false }).equals(got), 'the older spelling');
  throwsFbe(() => ex.decode('protoex.OrderMessage', bytes), 'FBE_ERR_MALFORMED', /type id/);
});

test('malformed bytes: decode and verify report the offset, never crash', () => {
  const s = proto();
  const bytes = account(s).encode();
  throwsFbe(() => s.Account.decode(Buffer.alloc(0)), 'FBE_ERR_MALFORMED', '', 0);
  throwsFbe(() => s.Account.decode(bytes.subarray(0, 100)), 'FBE_ERR_MALFORMED', /offset/);
  const wrongType = Buffer.from(bytes);
  wrongType.writeUInt32LE(99, 12);
  throwsFbe(() => s.Account.validate(wrongType), 'FBE_ERR_MALFORMED', /type/);
  refusedAsVerify(s.Account, wrongType);
  assert.equal(s.Account.decode(wrongType, { trusted: true }).id, 1, 'the trusted decode does not check the root type id');
  throwsFbe(() => s.Account.decode(bytes, { final: true }), 'FBE_ERR_MALFORMED');
  // every truncation and every single-byte corruption of both models
  for (const final of [false, true]) {
    const good = account(s).encode({ final });
    for (let n = 0; n < good.length; n++) {
      const cut = good.subarray(0, n);
      refusedAsVerify(s.Account, cut, { final });
      try {
        s.Account.decode(cut, { final, trusted: true });
      } catch (e) {
        assert.ok(e instanceof FbeError);
      }
    }
    for (let i = 0; i < good.length; i++) {
      const bad = Buffer.from(good);
      bad[i] ^= 0xa5;
      if (!s.Account.verify(bad, { final })) refusedAsVerify(s.Account, bad, { final });
      for (const trusted of [false, true]) {
        try {
          s.Account.decode(bad, { final, trusted });
        } catch (e) {
          assert.ok(e instanceof FbeError, e.message);
        }
      }
    }
  }
  // random garbage
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  const t = testSchema();
  for (let i = 0; i < 2000; i++) {
    const buf = Buffer.alloc(rnd() % 300);
    for (let j = 0; j < buf.length; j++) buf[j] = rnd() & 0xff;
    if (buf.length >= 8) buf.writeUInt32LE(buf.length, 0);
    for (const T of [t.StructSimple, t.StructOptional, t.StructHashEx, t.StructMap]) {
      for (const final of [false, true]) {
        try {
          T.decode(buf, { final, trusted: true });
        } catch (e) {
          assert.ok(e instanceof FbeError, e.message);
        }
      }
    }
  }
  // the malformed conformance records: refused with verify's error; decoded without verify
  const lines = fs.readFileSync(path.join(conformance, 'malformed.jsonl'), 'utf8').split('\n').filter(Boolean);
  const schemasByPkg = {};
  for (const line of lines) {
    const r = JSON.parse(line);
    const schema = schemasByPkg[r.schema] || (schemasByPkg[r.schema] = fbe.loadPackage(r.schema, { include: [schemas] }));
    const b = Buffer.from(r.hex, 'hex');
    const final = r.format === 'final';
    assert.equal(schema.verify(r.type, b, { final }), false, r.id);
    const err = refusedAsVerify(schema.get(`${r.schema}.${r.type}`), b, { final });
    assert.ok(['FBE_ERR_MALFORMED', 'FBE_ERR_LIMIT'].includes(err.code), r.id);
    try {
      schema.decode(r.type, b, { final, trusted: true });
    } catch (e) {
      assert.ok(e instanceof FbeError);
      assert.equal(typeof e.offset === 'number' || e.offset === null, true);
    }
  }
});

test('bad inputs to decode/verify', () => {
  const s = proto();
  for (const bad of ['abc', 5, null, undefined, {}, [1, 2]]) {
    throwsFbe(() => s.Account.decode(bad), 'FBE_ERR_TYPE');
    throwsFbe(() => s.Account.verify(bad), 'FBE_ERR_TYPE');
  }
});

test('schemas that do not load, unknown names, bad options', () => {
  const e = throwsFbe(() => fbe.load(path.join(schemas, 'nope.fbe')), 'FBE_ERR_SCHEMA');
  assert.ok(e.diagnostics.length >= 1);
  const syntax = throwsFbe(() => fbe.loadString('package x\nstruct A { int33 a; }', { name: 'x.fbe' }), 'FBE_ERR_SCHEMA');
  assert.match(syntax.message, /^x\.fbe:2:\d+: /);
  throwsFbe(() => fbe.loadString('package x\nimport nothere\n'), 'FBE_ERR_SCHEMA', /nothere/);
  throwsFbe(() => fbe.loadPackage('nothere', { include: [schemas] }), 'FBE_ERR_SCHEMA');
  throwsFbe(() => fbe.load(5), 'FBE_ERR_ARGUMENT');
  throwsFbe(() => fbe.load('x.fbe', { include: 'schemas' }), 'FBE_ERR_ARGUMENT');
  throwsFbe(() => fbe.load('x.fbe', { include: [5] }), 'FBE_ERR_ARGUMENT');
  throwsFbe(() => fbe.loadString(null), 'FBE_ERR_ARGUMENT');
  throwsFbe(() => fbe.loadString('package x', { name: 5 }), 'FBE_ERR_ARGUMENT');
  const s = proto();
  throwsFbe(() => s.encode('Nope', {}), 'FBE_ERR_NOT_FOUND');
  throwsFbe(() => s.decode('State', Buffer.alloc(8)), 'FBE_ERR_NOT_FOUND');
  throwsFbe(() => s.struct('State'), 'FBE_ERR_NOT_FOUND');
  throwsFbe(() => s.enum('Account'), 'FBE_ERR_NOT_FOUND');
  throwsFbe(() => s.encode(proto().Account, {}), 'FBE_ERR_NOT_FOUND', /Account/);
});

test('JSON errors name the text offset and the path', () => {
  const s = proto();
  throwsFbe(() => s.Account.fromJsonString('{"id": "x"}'), 'FBE_ERR_TYPE', 'id', 7);
  throwsFbe(() => s.Account.fromJsonString('{"id": 1,'), 'FBE_ERR_JSON');
  throwsFbe(() => s.Account.fromJsonString('{"orders": [{"id": 99999999999}]}'), 'FBE_ERR_RANGE', 'orders[0].id');
  throwsFbe(() => s.Account.fromJsonString(5), 'FBE_ERR_TYPE');
  throwsFbe(() => new s.Account({ name: 5 }).toJsonString(), 'FBE_ERR_TYPE', 'name');
});

test('enum lookups', () => {
  const s = proto();
  throwsFbe(() => s.OrderSide.parse('up'), 'FBE_ERR_ARGUMENT');
  throwsFbe(() => s.State.parse('good|nope'), 'FBE_ERR_ARGUMENT');
});

test('protocol errors', () => {
  const s = proto();
  throwsFbe(() => new fbe.Sender({}), 'FBE_ERR_ARGUMENT');
  throwsFbe(() => new fbe.Sender(s, { package: 'nope' }), 'FBE_ERR_NOT_FOUND');
  throwsFbe(() => new fbe.Sender(s, { package: 5 }), 'FBE_ERR_ARGUMENT');
  throwsFbe(() => new fbe.Sender(s, { write: 5 }), 'FBE_ERR_ARGUMENT');
  throwsFbe(() => new fbe.Receiver(s, { package: 'nope' }), 'FBE_ERR_NOT_FOUND');
  throwsFbe(() => new fbe.Receiver(s, { onMessage: 5 }), 'FBE_ERR_ARGUMENT');
  const sender = new fbe.Sender(s);
  throwsFbe(() => sender.send(account(s)), 'FBE_ERR_TYPE', /not a message/);
  throwsFbe(() => sender.send({ body: {} }), 'FBE_ERR_TYPE');
  throwsFbe(() => sender.send(new (testSchema().OrderMessage)()), 'FBE_ERR_TYPE', /this schema/);
  throwsFbe(() => sender.send('OrderMessage', { body: { id: 'x' } }), 'FBE_ERR_TYPE', 'body.id');
  const receiver = new fbe.Receiver(s);
  throwsFbe(() => receiver.feed('abc'), 'FBE_ERR_TYPE');
  const frame = sender.send(new s.OrderMessage());
  const bad = Buffer.concat([frame, frame]);
  bad.writeUInt32LE(4, frame.length); // second frame: a size under the minimum
  let got = 0;
  receiver.on('message', () => got++);
  const e = throwsFbe(() => receiver.feed(bad), 'FBE_ERR_MALFORMED');
  assert.equal(e.offset, frame.length, 'the stream offset of the bad frame');
  assert.equal(got, 1, 'the message before it was delivered');
  assert.equal(receiver.pending, 0, 'the receiver starts afresh');
  receiver.feed(frame);
  assert.equal(got, 2);
});

test('a handler that throws stops the feed; the next feed goes on', () => {
  const s = proto();
  const sender = new fbe.Sender(s);
  const frames = Buffer.concat([1, 2, 3].map((id) => sender.send(new s.OrderMessage({ body: { id } }))));
  const seen = [];
  const receiver = new fbe.Receiver(s, {
    onMessage: (m) => {
      seen.push(m.body.id);
      if (m.body.id === 2) throw new Error('handler failed');
    },
  });
  assert.throws(() => receiver.feed(frames), /handler failed/);
  assert.deepEqual(seen, [1, 2]);
  assert.ok(receiver.pending > 0, 'the third frame waits');
  assert.equal(receiver.feed(Buffer.alloc(0)), 1);
  assert.deepEqual(seen, [1, 2, 3]);
  const nested = new fbe.Receiver(s, { onMessage: () => nested.feed(Buffer.alloc(0)) });
  assert.throws(() => nested.feed(frames), /own message handler/);
});

// The core's depth rule and its text (the addon's, as the tape reader fails with it).
const [MAX_DEPTH, , DEPTH_REASON] = require('../lib/native').depthRule();
const CYCLE_REASON = `${DEPTH_REASON} (a cycle: the value contains itself)`;

test('cyclic and too deeply nested values are errors, not crashes', () => {
  assert.equal(MAX_DEPTH, 256);
  assert.equal(DEPTH_REASON, 'value nested deeper than 256 levels');
  const s = fbe.loadString('package r\nstruct Node { int32 v; Node? next; Node[] kids; }');
  const a = { v: 1, next: null };
  a.next = a;
  const e = throwsFbe(() => s.encode('Node', a), 'FBE_ERR_LIMIT');
  assert.equal(e.reason, CYCLE_REASON);
  assert.ok(e.path.length < 1000, 'the path stays short');
  const b = { v: 1, kids: [] };
  b.kids.push(b);
  assert.equal(throwsFbe(() => s.encode('Node', b), 'FBE_ERR_LIMIT').reason, CYCLE_REASON);
  // the cycle closes further down, under values met once each
  const c = { v: 0, kids: [{ v: 1 }, { v: 2, next: { v: 3 } }] };
  c.kids[1].next.kids = [c.kids[1]];
  const ce = throwsFbe(() => s.toJsonString('Node', c), 'FBE_ERR_LIMIT');
  assert.equal(ce.reason, CYCLE_REASON);
  // (past the core's path room: the inner levels that fit, whole, marked as cut)
  assert.match(ce.path, /^\.\.\.(next\.)?(kids\[0\]\.next\.)+kids$/, 'the path goes round the cycle (its inner part kept)');
  let deep = { v: 0 };
  for (let i = 0; i < 300; i++) deep = { v: i, next: deep };
  assert.equal(throwsFbe(() => s.encode('Node', deep), 'FBE_ERR_LIMIT', /nested deeper than 256/).reason,
    DEPTH_REASON, 'a deep value is no cycle');
  // shared (not cyclic) values: 2^300 paths, refused at the first one past 256 levels
  let shared = { v: 0 };
  for (let i = 0; i < 300; i++) shared = { v: i, kids: [shared, shared] };
  assert.equal(throwsFbe(() => s.encode('Node', shared), 'FBE_ERR_LIMIT').reason, DEPTH_REASON);
  let ok = { v: 0 };
  for (let i = 0; i < 200; i++) ok = { v: i, kids: [ok] };
  assert.equal(s.Node.decode(s.encode('Node', ok)).kids[0].kids[0].v, 197);
});

test('a value 60,000 levels deep is refused with the core\'s depth text, before the stack overflows', () => {
  const s = fbe.loadString('package r\nmessage Chain { int32 v; Chain? next; }\nstruct Tree { Tree[] kids; }');
  let chain = new s.Chain({ v: 59999 });
  for (let i = 59998; i >= 0; i--) chain = new s.Chain({ v: i, next: chain });
  let tree = { kids: [] };
  for (let i = 0; i < 60000; i++) tree = { kids: [tree] };
  const calls = [
    () => chain.encode(), () => chain.encode({ final: true }), () => chain.toJsonString(),
    () => s.encode('Chain', chain), () => s.toJsonString('Chain', chain, { pretty: true }),
    () => new fbe.Sender(s).send(chain), () => s.encode('Tree', tree),
  ];
  for (const call of calls) {
    const e = throwsFbe(call, 'FBE_ERR_LIMIT');
    assert.equal(e.reason, DEPTH_REASON);
    assert.match(e.path, /^(\.\.\.)?(next\.next\.|(\[0\]\.)?kids\[0\]\.kids\[0\])/); // (a path cut short: '...')
  }
  // the count starts again with every call: 256 levels encode right after a refusal
  let fine = { v: 0 };
  for (let i = 0; i < 255; i++) fine = { v: 0, next: fine };
  assert.equal(s.Chain.decode(s.encode('Chain', fine)).next.next.v, 0);
});

test('an encode run while another flattens (a getter) counts its own levels', () => {
  const s = fbe.loadString('package r\nstruct N { int32 v; N? next; }');
  const chain = (levels, last) => {
    let node = last;
    for (let i = 0; i < levels; i++) node = { v: i, next: node };
    return node;
  };
  let inner = 0;
  const bottom = { get v() { inner = s.encode('N', chain(200, { v: 1 })).length; return 7; } };
  const outer = chain(200, bottom);
  const back = s.decode('N', s.encode('N', outer));
  let node = back;
  for (let i = 0; i < 200; i++) node = node.next;
  assert.equal(node.v, 7);
  assert.ok(inner > 0, 'the inner encode ran and succeeded');
  assert.equal(throwsFbe(() => s.encode('N', chain(257, { v: 0 })), 'FBE_ERR_LIMIT').reason, DEPTH_REASON);
});

test('a string with a lone surrogate is refused by the core, never written as U+FFFD', () => {
  const p = proto();
  for (const [name, what] of [['\ud800x!', 'a UTF-16 surrogate (U+D800) at byte 0 of 5'],
    ['ab\udfff', 'a UTF-16 surrogate (U+DFFF) at byte 2 of 5'],
    ['long '.repeat(20) + '\udc00', 'a UTF-16 surrogate (U+DC00) at byte 100 of 103']]) {
    for (const final of [false, true]) {
      const e = throwsFbe(() => p.encode('Account', { name }, { final }), 'FBE_ERR_ARGUMENT', 'name');
      assert.equal(e.reason, `string is not valid UTF-8: ${what}`);
    }
  }
  const e = throwsFbe(() => p.encode('Account', { orders: [{}, { symbol: '\udbff' }] }), 'FBE_ERR_ARGUMENT',
    'orders[1].symbol');
  assert.match(e.reason, /U\+DBFF/);
  // a pair is one character: fine; so is U+FFFD itself
  const ok = 'ok \ud83d\ude00 \ufffd';
  assert.equal(p.Account.decode(p.encode('Account', { name: ok })).name, ok);
  // JSON text: a raw lone surrogate and an escaped one are refused the same way
  throwsFbe(() => p.fromJsonString('Account', '{"name":"\ud800"}'), 'FBE_ERR_JSON', /U\+D800/);
  throwsFbe(() => p.fromJsonString('Account', '{"name":"\\ud800"}'), 'FBE_ERR_JSON', /U\+D800/);
  assert.equal(p.fromJsonString('Account', '{"name":"\ufffd"}').name, '\ufffd');
});

test('a list of strings: ASCII, non-ASCII, lone surrogates and non-strings as one string at a time gives', () => {
  // (encode writes an all-ASCII list in one go: its bytes must be the core's (from JSON),
  // its refusals and paths those of the one-by-one writer)
  const s = fbe.load(path.join(schemas, 'bench', 'large.fbe'));
  for (const final of [false, true]) {
    for (const names of [['a', 'bc', ''], ['EURUSD', '', 'abc'], ['ascii', 'héllo', 'ф😀'], ['', ''],
      ['x'.repeat(60000), 'yz'], ['x'.repeat(70000), 'y']]) {
      const bytes = s.encode('Large', { names }, { final });
      assert.deepEqual(s.Large.decode(bytes, { final }).names, names);
      assert.deepEqual(bytes, s.fromJsonString('Large', JSON.stringify({ names })).encode({ final }));
    }
    const e = throwsFbe(() => s.encode('Large', { names: ['ok', 'ab\udfff', 'c'] }, { final }),
      'FBE_ERR_ARGUMENT', 'names[1]');
    assert.equal(e.reason, 'string is not valid UTF-8: a UTF-16 surrogate (U+DFFF) at byte 2 of 5');
    const t = throwsFbe(() => s.encode('Large', { names: ['ok', 7, 'c'] }, { final }), 'FBE_ERR_TYPE', 'names[1]');
    assert.match(t.message, /expected string, got an integer/);
  }
});

/** Final-model bytes of `struct N { int32 v; N? next; }` nested `levels` optionals deep:
 * encoded up to 256, one level more added by hand (v, then flag 1). */
function chainFinal(s, levels) {
  let node = { v: 0 };
  for (let i = 0; i < Math.min(levels, 256); i++) node = { v: 0, next: node };
  let data = s.encode('N', node, { final: true });
  for (let i = 256; i < levels; i++) {
    const out = Buffer.alloc(data.length + 5);
    out.writeUInt32LE(data.length + 5, 0);
    data.copy(out, 4, 4, 8);
    out[12] = 1;
    data.copy(out, 13, 8);
    data = out;
  }
  return data;
}

test('the depth rule is the core\'s: 256 levels encode and decode, 257 are refused', () => {
  const s = fbe.loadString('package deep\nstruct N { int32 v; N? next; }\n', { name: 'deep.fbe' });
  let node = { v: 0 };
  for (let i = 0; i < 256; i++) node = { v: 0, next: node };
  for (const final of [false, true]) {
    const bytes = s.encode('N', node, { final });
    assert.ok(s.verify('N', bytes, { final }));
    let back = s.decode('N', bytes, { final });
    let levels = 0;
    while (back.next) { back = back.next; levels++; }
    assert.equal(levels, 256);
    assert.ok(s.decode('N', bytes, { final, trusted: true }));
    throwsFbe(() => s.encode('N', { v: 0, next: node }, { final }), 'FBE_ERR_LIMIT', /nested deeper than 256 levels/);
  }
  assert.deepEqual(chainFinal(s, 256), s.encode('N', node, { final: true }));
  const bad = chainFinal(s, 257);
  assert.equal(s.verify('N', bad, { final: true }), false);
  for (const trusted of [false, true])
    throwsFbe(() => s.decode('N', bad, { final: true, trusted }), 'FBE_ERR_LIMIT', /nesting deeper than 256 levels/);
});

test('256 levels fit a worker thread with a 512 KiB stack', async () => {
  const { Worker } = require('worker_threads');
  const code = `
    const { parentPort } = require('worker_threads');
    const fbe = require(${JSON.stringify(path.resolve(__dirname, '..'))});
    const s = fbe.loadString('package deep\\nstruct N { int32 v; N? next; int32[] xs; }\\n', { name: 'deep.fbe' });
    let node = { v: 0, xs: [1] };
    for (let i = 0; i < 255; i++) node = { v: 0, next: node };
    const out = [];
    for (const final of [false, true]) {
      const back = s.decode('N', s.encode('N', node, { final }), { final });
      out.push(s.encode('N', back, { final }).equals(s.encode('N', node, { final })));
      out.push(s.toJsonString('N', s.fromJsonString('N', s.toJsonString('N', node))) === s.toJsonString('N', node));
    }
    parentPort.postMessage(out);`;
  const worker = new Worker(code, { eval: true, resourceLimits: { stackSizeMb: 0.5 } });
  const result = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  assert.deepEqual(result, [true, true, true, true]);
});

'use strict';
// Random values of every struct of the test schemas, every field kind: encode in both
// models -> decode, JSON -> back, toObject -> fromObject, clone: equal values (the core's
// equality), the same text and the same bytes.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { fbe, schemas } = require('./helpers');

let seed = 0x2545f491;
function rnd(n) { // 0 <= rnd(n) < n
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
}
function pick(items) { return items[rnd(items.length)]; }
function bigRandom(bits) {
  let v = 0n;
  for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(rnd(65536));
  return BigInt.asUintN(bits, v);
}

const RANGES = {
  byte: [0, 255], char: [0, 255], wchar: [0, 0x10ffff], int8: [-128, 127], uint8: [0, 255],
  int16: [-32768, 32767], uint16: [0, 65535], int32: [-2147483648, 2147483647], uint32: [0, 4294967295],
};
function intIn([lo, hi]) {
  return pick([lo, hi, 0, lo + rnd(Math.min(hi - lo + 1, 2 ** 31))]);
}
function randomString() {
  const parts = ['', 'a', 'EURUSD', 'héllo', 'ф', '😀', '\u0000', '"\\', 'x'.repeat(70), 'é'.repeat(40)];
  let s = '';
  for (let i = rnd(4); i > 0; i--) s += pick(parts);
  return s;
}

function randomValue(schema, t, depth) {
  switch (t.kind) {
    case 'bool': return rnd(2) === 1;
    case 'int64': return BigInt.asIntN(64, bigRandom(64));
    case 'uint64': case 'timestamp': return bigRandom(64);
    case 'float': return Math.fround(pick([0, -0, 1.5, -123.456, 3.4e38, 1e-40]));
    case 'double': return pick([0, -0, 1.23456, -1e300, 5e-324, Number.MAX_VALUE, 1 / 3]);
    case 'decimal': return pick(['0', '-0.5', '123456.123456', '79228162514264337593543950335', '1E-7', '10.00']);
    case 'uuid': return pick(['00000000-0000-0000-0000-000000000000', '123e4567-e89b-12d3-a456-426655440000']);
    case 'string': return randomString();
    case 'bytes': return Buffer.from(Array.from({ length: rnd(6) }, () => rnd(256)));
    case 'enum': case 'flags': {
      const e = schema.get(t.enum);
      const named = e.entries().map(([, v]) => v);
      if (e.$info.big) return named.length && rnd(2) ? pick(named) : bigRandom(e.$info.base === 'int64' ? 63 : 64);
      const range = RANGES[e.$info.base];
      return named.length && rnd(2) ? pick(named) : intIn(range);
    }
    case 'struct': return randomStruct(schema, schema.get(t.struct), depth + 1);
    case 'optional': return rnd(3) === 0 || depth > 2 ? null : randomValue(schema, t.elem, depth + 1);
    case 'array': return Array.from({ length: t.size }, () => randomValue(schema, t.elem, depth + 1));
    case 'vector': case 'list': {
      const n = depth > 2 ? 0 : rnd(3);
      return Array.from({ length: n }, () => randomValue(schema, t.elem, depth + 1));
    }
    case 'set': {
      // Structs are set elements by their [key] fields (SCHEMA.md 6.5: random ones may
      // share a key, and a reader keeps one of them): one struct at most here.
      const n = depth > 2 ? 0 : t.elem.kind === 'struct' ? rnd(2) : rnd(3);
      const s = new Set();
      const seen = new Set();
      for (let i = 0; i < n; i++) {
        const v = randomValue(schema, t.elem, depth + 1);
        const key = typeof v === 'object' ? Symbol('struct') : v;
        if (!seen.has(key)) {
          seen.add(key);
          s.add(v);
        }
      }
      return s;
    }
    case 'map': case 'hash': { // struct keys: one at most, as for sets above
      const n = depth > 2 ? 0 : t.key.kind === 'struct' ? rnd(2) : rnd(3);
      const m = new Map();
      for (let i = 0; i < n; i++) {
        const k = randomValue(schema, t.key, depth + 1);
        if (!m.has(k)) m.set(k, randomValue(schema, t.elem, depth + 1));
      }
      return m;
    }
    default:
      if (RANGES[t.kind]) return intIn(RANGES[t.kind]);
      throw new Error(`no generator for ${t.kind}`);
  }
}

function randomStruct(schema, cls, depth) {
  const init = {};
  const defaults = new cls();
  for (const f of cls.fields) {
    if (!rnd(5)) continue;
    // the standard model reads a null optional whose default is not null as that
    // default (FORMAT.md 5.10): such fields get values
    const t = f.type.kind === 'optional' && defaults[f.name] !== null ? f.type.elem : f.type;
    init[f.name] = randomValue(schema, t, depth);
  }
  return new cls(init);
}

test('random values round-trip through both models and JSON', () => {
  let checked = 0;
  for (const pkg of ['test', 'protoex', 'enums']) {
    const schema = fbe.loadPackage(pkg, { include: [schemas] });
    for (const name of schema.names().filter((n) => n.includes('.'))) {
      const cls = schema.get(name);
      if (typeof cls !== 'function') continue;
      const equal = (a, b) => cls.prototype.equals.call(a, b);
      for (let i = 0; i < 25; i++) {
        const v = randomStruct(schema, cls, 0);
        for (const final of [false, true]) {
          const bytes = v.encode({ final });
          assert.equal(cls.validate(bytes, { final }), bytes.length, `${name} verifies`);
          const back = cls.decode(bytes, { final });
          assert.ok(equal(back, v), `${name} ${final ? 'final' : 'standard'}: ${back} != ${v}`);
          assert.equal(String(back), String(v), `${name}: the same text after a round trip`);
          assert.deepEqual(back.encode({ final }), bytes, `${name} re-encodes to the same bytes`);
        }
        const fromJson = cls.fromJsonString(v.toJsonString());
        assert.ok(equal(fromJson, v), `${name} JSON: ${fromJson} != ${v}`);
        assert.ok(equal(cls.fromObject(fbe.Struct.prototype.toObject.call(v)), v), `${name}: toObject -> fromObject`);
        assert.ok(equal(fbe.Struct.prototype.clone.call(v), v), `${name}: clone`);
        const plain = JSON.parse(JSON.stringify(v));
        assert.equal(typeof plain, 'object');
        checked++;
      }
    }
  }
  assert.ok(checked > 300);
});

test('decode reads the bytes it is given, small or large, any window of any buffer', () => {
  const schema = fbe.load(require('path').join(schemas, 'proto.fbe'), { include: [schemas] });
  const { Account, Order } = schema;
  for (const count of [1, 100]) { // about 100 bytes, and past 1 KiB
    const value = new Account({ id: 7, name: 'N', orders: Array.from({ length: count }, (_, i) => new Order({ id: i, symbol: 'S' })) });
    for (const final of [false, true]) {
      const bytes = value.encode({ final });
      assert.equal(bytes.length > 1024, count === 100);
      const framed = new Uint8Array(bytes.length + 9);
      framed.set(bytes, 5);
      for (const b of [bytes, framed.subarray(5, 5 + bytes.length), new Uint8Array(new SharedArrayBuffer(bytes.length)).fill(0).map((_, i) => bytes[i])]) {
        assert.ok(Account.decode(b, { final }).equals(value));
        assert.ok(Account.decode(b, { final, limits: { maxDepth: 8 } }).equals(value));
      }
      // a detached buffer holds no bytes: decode refuses it as it refuses empty bytes
      const ab = new ArrayBuffer(bytes.length);
      new Uint8Array(ab).set(bytes);
      const gone = new Uint8Array(ab);
      structuredClone(ab, { transfer: [ab] });
      let empty, detached;
      try { Account.decode(Buffer.alloc(0), { final }); } catch (e) { empty = e; }
      try { Account.decode(gone, { final }); } catch (e) { detached = e; }
      assert.ok(empty instanceof fbe.FbeError);
      assert.equal(detached && detached.message, empty.message);
    }
  }
});

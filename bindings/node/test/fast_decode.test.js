'use strict';
// The final model's verifying decode of a small input builds its value in JavaScript
// from the bytes the core verified (lib/codegen.js FDi/FRi), where the other decodes
// read the native decode's tape (RDi). Both must give the same: the same values (same
// classes, same numbers, bigints, strings, Buffers; the same bytes encoded again) and,
// for bytes the core refuses, the same error (class, status, message, path, offset).
// Every final-model record of the conformance files, each of its prefixes and each
// byte changed, and a schema of every kind the JavaScript reader takes, through a
// schema loaded with the fast path and one loaded without (setFastDecode).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { fbe, schemas, conformance } = require('./helpers');
const { setFastDecode } = require('../lib/codegen');

const FILES = ['vectors.jsonl', 'malformed.jsonl', 'malformed-extra.jsonl'];

/** A schema loaded with (fast) or without the JavaScript final reader, its codecs compiled. */
function compiled(load, fast) {
  setFastDecode(fast);
  try {
    const s = load();
    for (const name of s.typeNames ? s.typeNames() : Object.keys(s)) {
      const C = s[name];
      if (typeof C === 'function' && typeof C.decode === 'function') C.decode(new C().encode({ final: true }), { final: true });
    }
    return s;
  } finally {
    setFastDecode(true);
  }
}

/** Whether struct class C's decode has the JavaScript final reader (lib/codegen.js X[i].FR). */
function hasFast(C) {
  const sym = Object.getOwnPropertySymbols(C).find((x) => x.description === 'fbe.codec');
  const { gen, index } = C[sym];
  return typeof gen.codec(index).FR === 'function';
}

/** A decoded value in a form two schemas' values compare in: each struct instance as
 * its class name and its own properties in order; bigints, numbers (-0, NaN), strings,
 * Buffers, arrays, Sets and Maps as they are. */
function plain(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Buffer.isBuffer(v)) return v;
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Set) return new Set([...v].map(plain));
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [plain(k), plain(x)]));
  assert.ok(v instanceof fbe.Struct, `a ${Object.prototype.toString.call(v)}`);
  return { class: Object.getPrototypeOf(v).constructor.fullName, fields: Object.keys(v).map((k) => [k, plain(v[k])]) };
}

/** What a decode gave: its value, or its error's fields. */
function outcome(C, bytes, o) {
  try {
    const v = C.decode(bytes, o);
    return { value: plain(v), cls: Object.getPrototypeOf(v).constructor.name, bytes: Buffer.from(v.encode({ final: true })).toString('hex') };
  } catch (e) {
    assert.ok(e instanceof fbe.FbeError, `not an FbeError: ${e && e.stack}`);
    return { error: { cls: e.constructor.name, status: e.status, message: e.message, path: e.path, offset: e.offset } };
  }
}

function same(fast, slow, C1, C2, bytes, o, what) {
  const a = outcome(C1, bytes, o);
  const b = outcome(C2, bytes, o);
  assert.deepStrictEqual(a, b, what);
  return a;
}

const loaders = {
  proto: () => fbe.load(path.join(schemas, 'proto.fbe'), { include: [schemas] }),
  protoex: () => fbe.load(path.join(schemas, 'protoex.fbe'), { include: [schemas] }),
  test: () => fbe.load(path.join(schemas, 'test.fbe'), { include: [schemas] }),
  enums: () => fbe.load(path.join(schemas, 'enums.fbe'), { include: [schemas] }),
};

test('final decode: the JavaScript reader and the native one agree on every conformance record', () => {
  const pairs = {};
  for (const [name, load] of Object.entries(loaders)) pairs[name] = [compiled(load, true), compiled(load, false)];
  let records = 0;
  let valued = 0;
  let refused = 0;
  for (const file of FILES) {
    for (const line of fs.readFileSync(path.join(conformance, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line);
      if (r.format !== 'final' || !pairs[r.schema] || typeof r.hex !== 'string') continue;
      const [fast, slow] = pairs[r.schema];
      const C1 = fast[r.type];
      const C2 = slow[r.type];
      if (!C1 || !C2) continue;
      records++;
      const bytes = Buffer.from(r.hex, 'hex');
      const o = { final: true };
      const got = same(fast, slow, C1, C2, bytes, o, `${r.id}`);
      if (got.error) refused++; else valued++;
      // every prefix, and (for short ones) each byte changed: the core's errors either way
      for (let k = 0; k < bytes.length; k += Math.max(1, bytes.length >> 5)) {
        same(fast, slow, C1, C2, bytes.subarray(0, k), o, `${r.id} prefix ${k}`);
      }
      if (bytes.length <= 256) {
        for (let k = 0; k < bytes.length; k++) {
          const m = Buffer.from(bytes);
          m[k] ^= 0xff;
          same(fast, slow, C1, C2, m, o, `${r.id} byte ${k}`);
        }
      }
      // limits the core applies in its verify: depth and memory
      same(fast, slow, C1, C2, bytes, { final: true, limits: { maxDepth: 1 } }, `${r.id} maxDepth 1`);
      same(fast, slow, C1, C2, bytes, { final: true, limits: { maxMemory: 64 } }, `${r.id} maxMemory 64`);
      same(fast, slow, C1, C2, bytes, { final: true, limits: { maxDepth: 1000 } }, `${r.id} bad maxDepth`);
      same(fast, slow, C1, C2, bytes, { final: true, limits: { nope: 1 } }, `${r.id} unknown limit`);
    }
  }
  assert.ok(records > 50 && valued > 20 && refused > 10, `${records} records, ${valued} decoded, ${refused} refused`);
  assert.ok(hasFast(pairs.proto[0].Account) && !hasFast(pairs.proto[1].Account));
});

const KINDS = `package fastkinds
enum E8 : int8 { a = -128; b = 127; }
enum EU : uint32 { x = 4000000000; }
enum E64 : int64 { lo = -9223372036854775808; hi = 9223372036854775807; }
flags F16 : uint16 { one = 1; big = 0x8000; }
struct Inner { string s; int16 v; bytes? b; }
struct Kinds {
  bool t; byte by; char c; wchar w; int8 i8; uint8 u8; int16 i16; uint16 u16; int32 i32; uint32 u32;
  int64 i64; uint64 u64; float f; double d; timestamp ts; E8 e8; EU eu; E64 e64; F16 fl;
  string s; bytes bs; Inner inner; Inner? oi; int32? on; string? os; double[3] arr;
  Inner[] vi; string[] vs; int64() li; Inner?[] vo; bool[] vb;
}
struct WithSet { int32 a; int32! s; }
`;

test('final decode: every kind the JavaScript reader takes, edge values, against the native reader', () => {
  const load = () => fbe.loadString(KINDS, { name: 'fastkinds.fbe' });
  const fast = compiled(load, true);
  const slow = compiled(load, false);
  const strings = ['', 'a', 'abcdefghijklmno', 'abcdefghijklmnop', 'abcdefghijklmnopq', 'é', 'aaaaaaaaaaaaaaé',
    'aaaaaaaaaaaaaaaé', '日本語テキスト', '\u{1F600}x', 'x'.repeat(300), `${'é'.repeat(40)}z`];
  const values = [
    {},
    {
      t: true, by: 255, c: 200, w: 0x10ffff, i8: -128, u8: 255, i16: -32768, u16: 65535, i32: -2147483648, u32: 4294967295,
      i64: -(2n ** 63n), u64: 2n ** 64n - 1n, f: -0, d: NaN, ts: 2n ** 64n - 1n, e8: -128, eu: 4000000000,
      e64: -(2n ** 63n), fl: 0x8001, s: 'EURUSD', bs: Buffer.from([0, 1, 2, 255]),
      inner: { s: 'é', v: -1, b: Buffer.alloc(0) }, oi: { s: '', v: 7, b: null }, on: -5, os: '', arr: [Infinity, -Infinity, 5e-324],
      vi: [{ s: 'x', v: 1 }, { s: 'yé', v: 2, b: Buffer.from('zz') }], vs: strings, li: [0n, -1n, 2n ** 63n - 1n],
      vo: [null, { s: 'q' }, null], vb: [true, false, true],
    },
    { f: 3.4028234663852886e38, d: -0, i64: 2n ** 63n - 1n, u64: 0n, vs: [], s: 'x'.repeat(16), os: null, on: null },
  ];
  for (const s of strings) values.push({ s, vs: [s, s], inner: { s } });
  assert.ok(hasFast(fast.Kinds) && hasFast(fast.Inner) && !hasFast(slow.Kinds) && !hasFast(fast.WithSet));
  for (const [k, v] of values.entries()) {
    const bytes = new fast.Kinds(v).encode({ final: true });
    const a = same(fast, slow, fast.Kinds, slow.Kinds, bytes, { final: true }, `value ${k}`);
    assert.ok(!a.error, `value ${k}: ${JSON.stringify(a.error)}`);
    // the other forms of input take the same path
    for (const input of [new Uint8Array(bytes), bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
      new DataView(bytes.buffer, bytes.byteOffset, bytes.length), new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length)]) {
      assert.deepStrictEqual(outcome(fast.Kinds, input, { final: true }), a, `value ${k}: ${input.constructor.name}`);
    }
    // trailing bytes are ignored by both; a float NaN keeps its bits through both
    same(fast, slow, fast.Kinds, slow.Kinds, Buffer.concat([bytes, Buffer.from([1, 2, 3])]), { final: true }, `value ${k} + 3`);
  }
  // a float NaN with a payload: both readers give a NaN that encodes to the same bytes
  const nanBytes = Buffer.from(new fast.Kinds({}).encode({ final: true }));
  const at = nanBytes.length; // find the float: encode a marker and look for it
  const marked = Buffer.from(new fast.Kinds({ f: 1.5 }).encode({ final: true }));
  let fo = -1;
  for (let i = 0; i + 4 <= at; i++) if (marked.readFloatLE(i) === 1.5 && nanBytes.readUInt32LE(i) === 0) { fo = i; break; }
  assert.ok(fo >= 0);
  nanBytes.writeUInt32LE(0x7fa00001, fo);
  const nan = same(fast, slow, fast.Kinds, slow.Kinds, nanBytes, { final: true }, 'float NaN payload');
  assert.ok(!nan.error && Number.isNaN(new Map(nan.value.fields).get('f')));
  // a struct with a set keeps the native decode (duplicates are collapsed by the core)
  const w = new fast.WithSet({ a: 1, s: new Set([3, 1, 2]) }).encode({ final: true });
  same(fast, slow, fast.WithSet, slow.WithSet, w, { final: true }, 'set');
  // trusted decodes and the standard model keep the native decode, with the same values
  const one = new fast.Kinds(values[1]).encode({ final: true });
  assert.deepStrictEqual(fast.Kinds.decode(one, { final: true, trusted: true }), fast.Kinds.decode(one, { final: true }));
  const std = new fast.Kinds(values[1]).encode();
  assert.deepStrictEqual(fast.Kinds.decode(std), fast.Kinds.decode(one, { final: true }));
  // an input past the JavaScript path's size (4 KiB) takes the native decode
  const big = new fast.Kinds({ vs: Array.from({ length: 600 }, (_, i) => `s${i}é`) }).encode({ final: true });
  assert.ok(big.length > 4096);
  same(fast, slow, fast.Kinds, slow.Kinds, big, { final: true }, 'big');
});

test('final decode: a Uint8Array whose length lies is read at its real length', () => {
  const s = loaders.proto();
  const bytes = new s.Order({ id: 5, symbol: 'AB' }).encode({ final: true });
  class Liar extends Uint8Array {
    get length() { return 3; }
  }
  const liar = new Liar(bytes);
  assert.equal(s.Order.decode(liar, { final: true }).symbol, 'AB');
});

'use strict';
// Views (Account.view(bytes), lib/views.js over the core's fbe_view): every public
// conformance vector read through a view gives decode's JSON, text and value, field by
// field through the getters too; bad bytes throw what decode throws; the access forms
// (nested structs, optionals, collections, maps); bytes changed, shrunk or detached after
// the open never read outside them.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const util = require('util');
const { fbe, schemas, conformance, proto, account } = require('./helpers');

const loaded = new Map();
function schemaOf(name) {
  if (!loaded.has(name)) loaded.set(name, fbe.loadPackage(name, { include: [schemas] }));
  return loaded.get(name);
}
function records(file) {
  return fs.readFileSync(path.join(conformance, file), 'utf8').split('\n').filter((l) => l.trim())
    .map((l) => JSON.parse(l)).filter((r) => !('_meta' in r) && !String(r.format).startsWith('stream'));
}
const modelOf = (r) => ({ model: r.format === 'final' ? 'final' : 'standard' });
const finalOf = (r) => ({ final: r.format === 'final' });

// A value or a view as plain data, read through the getters (views) or the properties
// (values) by the class's fields: both must give the same.
function plain(x, cls) {
  if (x instanceof fbe.View || x instanceof fbe.Struct) {
    const c = cls || Object.getPrototypeOf(x.toValue ? fbe.View.prototype.toValue.call(x) : x).constructor;
    return Object.fromEntries(c.fields.map((f) => [f.name, plain(x[f.name])]));
  }
  if (x instanceof fbe.ListView) return [...x].map((e) => plain(e));
  if (x instanceof fbe.MapView) return [...x].map(([k, v]) => [plain(k), plain(v)]);
  if (x instanceof Set || Array.isArray(x)) return [...x].map((e) => plain(e));
  if (x instanceof Map) return [...x].map(([k, v]) => [plain(k), plain(v)]);
  if (Buffer.isBuffer(x)) return { bytes: x.toString('hex') };
  return x;
}

test('every public vector through a view: JSON, text, value and every field as decode gives them', () => {
  const rs = records('vectors.jsonl');
  assert.ok(rs.length > 90);
  for (const r of rs) {
    const schema = schemaOf(r.schema);
    const type = `${r.schema}.${r.type}`;
    const bytes = Buffer.from(r.hex, 'hex');
    const value = schema.decode(type, bytes, finalOf(r));
    const view = schema.view(type, bytes, modelOf(r));
    const at = `${r.id}`;
    assert.ok(view instanceof fbe.View, at);
    assert.equal(fbe.View.prototype.toJson.call(view), schema.toJsonString(type, value), at);
    assert.equal(fbe.View.prototype.toString.call(view), fbe.Struct.prototype.toString.call(value), at);
    assert.equal(util.inspect(view), util.inspect(value), at);
    const back = fbe.View.prototype.toValue.call(view);
    assert.ok(fbe.Struct.prototype.toString.call(back) === fbe.Struct.prototype.toString.call(value), at);
    assert.equal(schema.toJsonString(type, back), schema.toJsonString(type, value), at);
    assert.equal(fbe.View.prototype.equals.call(view, value), true, at);
    assert.equal(fbe.View.prototype.equals.call(view, schema.view(type, bytes, modelOf(r))), true, at);
    assert.deepEqual(plain(view, schema.get(type)), plain(value, schema.get(type)), at);
  }
});

test('bad bytes: view throws exactly what decode throws', () => {
  let refused = 0;
  for (const r of [...records('malformed.jsonl'), ...records('malformed-extra.jsonl')]) {
    const schema = schemaOf(r.schema);
    const type = `${r.schema}.${r.type}`;
    const bytes = Buffer.from(r.hex, 'hex');
    let decoded, viewed;
    try { schema.decode(type, bytes, finalOf(r)); } catch (e) { decoded = e; }
    try { schema.view(type, bytes, modelOf(r)); } catch (e) { viewed = e; }
    if (decoded === undefined) {
      assert.equal(viewed, undefined, r.id);
      continue;
    }
    refused++;
    assert.ok(viewed instanceof fbe.FbeError, `${r.id}: ${viewed}`);
    assert.equal(viewed.constructor, decoded.constructor, r.id);
    assert.equal(viewed.message, decoded.message, r.id);
    assert.equal(viewed.path, decoded.path, r.id);
    assert.equal(viewed.offset, decoded.offset, r.id);
  }
  assert.ok(refused > 60, `${refused} refused`);
});

test('access: nested structs, optionals, collections; both models', () => {
  const schema = proto();
  const { Account } = schema;
  const acc = account(schema);
  for (const model of ['standard', 'final']) {
    const bytes = acc.encode({ final: model === 'final' });
    const v = Account.view(bytes, { model });
    assert.equal(v.id, 1);
    assert.equal(v.name, 'Test');
    assert.equal(v.state, schema.State.good);
    assert.ok(v.wallet instanceof fbe.View);
    assert.equal(v.wallet.currency, 'USD');
    assert.equal(v.wallet.amount, 1000);
    assert.equal(v.asset.currency, 'EUR'); // an optional holding a struct: its view
    assert.ok(v.orders instanceof fbe.ListView);
    assert.equal(v.orders.length, 3);
    assert.equal(v.orders.at(1).price, 1.0);
    assert.equal(v.orders.at(-1).volume, 10);
    assert.equal(v.orders.at(3), undefined);
    assert.deepEqual([...v.orders].map((o) => o.id), [1, 2, 3]);
    assert.ok(v.orders.toValue().every((o, i) => o.equals(acc.orders[i])));
    assert.ok(v.orders.at(2).equals(acc.orders[2]));
    assert.ok(v.toValue() instanceof Account);
    assert.ok(v.equals(acc));
    assert.equal(v.equals(new Account()), false);
    assert.equal(v.equals({ id: 1 }), false); // plain data is no value
    assert.equal(String(v), String(acc));
    assert.equal(v.toJson({ pretty: true }), acc.toJsonString({ pretty: true }));
  }
  const none = Account.view(new Account({ asset: null }).encode());
  assert.equal(none.asset, null);
  assert.equal(none.orders.length, 0);
  assert.deepEqual(none.orders.toValue(), []);
});

test('access: maps, sets, optionals of scalars, bytes and 64-bit kinds read as decode reads them', () => {
  const schema = schemaOf('test');
  const rs = records('vectors.jsonl').filter((r) => r.schema === 'test');
  assert.ok(rs.length > 0);
  let maps = 0, sets = 0, optionals = 0;
  for (const r of rs) {
    const type = schema.get(`test.${r.type}`);
    const bytes = Buffer.from(r.hex, 'hex');
    const view = type.view(bytes, modelOf(r));
    const value = type.decode(bytes, finalOf(r));
    for (const f of type.fields) {
      const got = view[f.name];
      const want = value[f.name];
      if (f.type.kind === 'map' || f.type.kind === 'hash') {
        maps++;
        assert.ok(got instanceof fbe.MapView, f.name);
        assert.equal(got.size, want instanceof Map ? want.size : want.length);
        assert.deepEqual(plain(got.toValue()), plain(want), f.name);
        assert.deepEqual([...got.keys()].map((k) => plain(k)), [...got].map(([k]) => plain(k)));
      } else if (f.type.kind === 'set') {
        sets++;
        assert.deepEqual(plain(got.toValue()), plain(want), f.name);
      } else if (f.type.kind === 'optional') {
        optionals++;
        assert.equal(got === null, want === null, f.name);
      }
      assert.deepEqual(plain(got), plain(want), `${r.id} ${f.name}`);
    }
  }
  assert.ok(maps > 0 && sets > 0 && optionals > 0, `${maps} maps, ${sets} sets, ${optionals} optionals`);
});

test('bytes changed, shrunk or detached after the open are never read outside them', () => {
  const schema = proto();
  const { Account } = schema;
  const acc = account(schema);
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed; };
  const readAll = (v) => {
    try {
      return plain(v, Account);
    } catch (e) {
      if (!(e instanceof fbe.FbeError)) throw e;
      return e;
    }
  };
  for (const model of ['standard', 'final']) {
    const clean = acc.encode({ final: model === 'final' });
    let failures = 0;
    for (let round = 0; round < 300; round++) {
      const bytes = Buffer.from(clean);
      const v = Account.view(bytes, { model });
      for (let k = 0; k < 1 + (round % 8); k++) bytes[rand() % bytes.length] = rand() & 0xff;
      if (readAll(v) instanceof fbe.FbeError) failures++;
    }
    assert.ok(failures > 0, 'some changes are seen'); // (most change a length or a pointer)
    // detached: every read is an error, not a read of freed memory
    const ab = new ArrayBuffer(clean.length);
    new Uint8Array(ab).set(clean);
    const v = Account.view(new Uint8Array(ab), { model });
    assert.equal(v.name, 'Test');
    structuredClone(ab, { transfer: [ab] });
    // refused in the core's words (fbe_view_rebind): the bytes hold less than the model now
    assert.throws(() => v.name, (e) => e instanceof fbe.MalformedError &&
      e.message === `the bytes under the view changed after it was opened (0 bytes, the model has ${clean.length})`);
    assert.throws(() => v.orders.length === 3 && v.orders.at(0).id, fbe.FbeError);
    // a subclass that claims more bytes than it has is not believed (the intrinsic length)
    class Claims extends Uint8Array { get length() { return 1 << 30; } }
    const ab2 = new ArrayBuffer(clean.length);
    const claims = new Claims(ab2);
    claims.set(clean);
    const c = Account.view(claims, { model });
    assert.equal(c.name, 'Test');
    structuredClone(ab2, { transfer: [ab2] });
    assert.throws(() => c.name, fbe.MalformedError);
    // changed in place so that a read fails: the error is decode's of the bytes now
    const bytes = Buffer.from(clean);
    const w = Account.view(bytes, { model });
    bytes.fill(0xff, 8);
    let decoded;
    try { Account.decode(bytes, { final: model === 'final' }); } catch (e) { decoded = e; }
    assert.ok(decoded instanceof fbe.FbeError);
    assert.throws(() => plain(w, Account), (e) => e.constructor === decoded.constructor &&
      e.message === decoded.message && e.path === decoded.path && e.offset === decoded.offset);
  }
});

test('a view keeps its bytes alive; its constructor is not for users; names never hide the API', () => {
  const schema = proto();
  let v = schema.Account.view(account(schema).encode());
  if (global.gc) global.gc();
  assert.equal(v.orders.at(2).symbol, 'EURUSD');
  const View = Object.getPrototypeOf(v).constructor;
  assert.equal(View.name, 'AccountView');
  assert.throws(() => new View({}, new Uint8Array(8), 8, 0, 0, 0, 12345), TypeError);
  assert.throws(() => schema.Account.view(Buffer.alloc(3)), fbe.FbeError);
  assert.throws(() => schema.Account.view(account(schema).encode(), { model: 'compact' }), fbe.FbeError);
  assert.throws(() => schema.Account.view('bytes'), fbe.FbeError);

  const odd = fbe.loadString('package odd\nstruct S { int32 toValue; string toString; int32 equals; }');
  const s = new odd.S({ toValue: 5, toString: 'x', equals: 7 });
  v = odd.S.view(s.encode());
  assert.equal(v.toValue, 5); // the field hides the method, as on a value
  assert.equal(v.toString, 'x');
  assert.equal(v.equals, 7);
  assert.ok(fbe.View.prototype.equals.call(v, s));
  assert.equal(fbe.View.prototype.toString.call(v), 'S(toValue=5,toString="x",equals=7)');
  assert.ok(fbe.View.prototype.toValue.call(v) instanceof odd.S);
  v = odd.view('S', s.encode({ final: true }), { final: true });
  assert.equal(v.toString, 'x');
});

test('toValue of every collection is decode\'s: keys equal by value collapse as the core decides, wherever the collection is', () => {
  const schema = fbe.loadString('package dups\nstruct D { int32<decimal> m; double! fs; decimal! ds; }\n' +
    'struct O { D d; D? od; D[2] arr; D[] list; }');
  const d = new schema.D({ m: new Map([['1.0', 1], ['3.00', 2]]), fs: [1.5, 2.5], ds: new Set(['4', '3.00']) });
  const value = new schema.O({ d, od: d, arr: [d, d], list: [d] });
  // the bytes of 3.00 made 1.00 (.NET decimal: 96-bit magnitude, scale at 14) and of 2.5
  // made 1.5: every map and set now holds two keys equal by value (1.0 and 1.00 are one
  // decimal), that JavaScript would tell apart ('1.0', '1.00') or keep twice (an array)
  const dec = (mag, scale) => { const b = Buffer.alloc(16); b.writeUInt32LE(mag, 0); b[14] = scale; return b; };
  const dbl = (x) => { const b = Buffer.alloc(8); b.writeDoubleLE(x, 0); return b; };
  const patch = (bytes, from, to) => {
    let k = 0;
    for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1), k++) to.copy(bytes, at);
    return k;
  };
  for (const final of [false, true]) {
    const bytes = value.encode({ final });
    assert.equal(patch(bytes, dec(300, 2), dec(100, 2)), 10); // five maps' keys, five sets' elements
    assert.equal(patch(bytes, dbl(2.5), dbl(1.5)), 5);
    const decoded = schema.O.decode(bytes, { final });
    const v = schema.O.view(bytes, { model: final ? 'final' : 'standard' });
    assert.equal(v.d.m.size, 2); // the view reads the entries as written
    assert.deepEqual([...v.d.m.keys()], ['1.0', '1.00']);
    assert.deepEqual([...v.od.fs], [1.5, 1.5]);
    assert.equal(decoded.d.m.size, 1); // decode keeps one per key (the core's rule)
    for (const [got, want] of [[v.d, decoded.d], [v.od, decoded.od], [v.arr.at(1), decoded.arr[1]], [v.list.at(0), decoded.list[0]]]) {
      assert.deepEqual(got.m.toValue(), want.m);
      assert.deepEqual(got.fs.toValue(), want.fs);
      assert.deepEqual(got.ds.toValue(), want.ds);
      assert.ok(got.toValue().equals(want));
      assert.equal(String(got), String(want));
    }
    assert.deepEqual(v.arr.toValue().map(String), decoded.arr.map(String));
    assert.deepEqual(v.list.toValue().map(String), decoded.list.map(String));
    assert.equal(String(v.toValue()), String(decoded));
  }
});

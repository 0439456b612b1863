'use strict';
// The public API: loading, classes, defaults, type mapping, both models, verify, JSON,
// equality, string forms, enums and flags.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const util = require('util');
const { fbe, schemas, conformance, proto, test: testSchema, account } = require('./helpers');

const vectors = fs.readFileSync(path.join(conformance, 'vectors.jsonl'), 'utf8');
function vectorHex(id) {
  const line = vectors.split('\n').find((l) => l.includes(`"id":"${id}"`));
  return Buffer.from(/"hex":"([0-9a-f]*)"/.exec(line)[1], 'hex');
}

test('the README example', () => {
  const schema = fbe.load(path.join(schemas, 'proto.fbe'), { include: [schemas] });
  const { Account, Balance, State } = schema;
  const acc = new Account({ id: 1, name: 'Test', state: State.good, wallet: new Balance({ currency: 'USD', amount: 1000 }) });
  const bytes = acc.encode();
  assert.ok(Buffer.isBuffer(bytes));
  const back = Account.decode(bytes);
  assert.ok(back instanceof Account);
  assert.equal(Account.verify(bytes), true);
  assert.equal(back.toJsonString(),
    '{"id":1,"name":"Test","state":6,"wallet":{"currency":"USD","amount":1000.0},"asset":null,"orders":[]}');
  assert.ok(Account.fromJsonString(back.toJsonString()).equals(acc));
  const plain = { id: 1, name: 'Test', state: 6, wallet: { currency: 'USD', amount: 1000 } };
  assert.deepEqual(schema.encode('Account', plain), bytes);
  const final = acc.encode({ final: true });
  assert.ok(Account.decode(final, { final: true }).equals(acc));
  assert.ok(final.length < bytes.length);
});

test('the README Account encodes to the reference bytes in both models', () => {
  const schema = proto();
  const acc = account(schema);
  assert.deepEqual(acc.encode(), vectorHex('pub-proto-Account-readme-standard'));
  assert.deepEqual(acc.encode({ final: true }), vectorHex('pub-proto-Account-readme-final'));
  assert.equal(acc.encode().length, 252);
  assert.equal(acc.encode({ final: true }).length, 152);
  assert.deepEqual(schema.Account.decode(acc.encode()), acc);
});

test('decode accepts Buffer, Uint8Array, ArrayBuffer and views at an offset', () => {
  const { Account } = proto();
  const bytes = account(proto()).encode();
  const ab = new ArrayBuffer(bytes.length + 10);
  new Uint8Array(ab, 5).set(bytes);
  const inputs = [bytes, new Uint8Array(bytes), bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
    new Uint8Array(ab, 5, bytes.length), new DataView(ab, 5, bytes.length)];
  for (const input of inputs) {
    assert.equal(Account.decode(input).orders.length, 3);
    assert.equal(Account.verify(input), true);
  }
});

test('loading: file, string, package; names, packages, get/struct/enum', () => {
  const a = fbe.load(path.join(schemas, 'test.fbe'), { include: [schemas] });
  assert.equal(a.root, 'test');
  assert.deepEqual(a.packages.map((p) => p.name), ['proto', 'test']);
  assert.deepEqual(a.packages[1].imports, ['proto']);
  assert.equal(a.packages[1].version, '123.456');
  assert.equal(a.packages[1].domain, 'com.chronoxor');
  assert.equal(a.get('StructSimple'), a.StructSimple);
  assert.equal(a.get('test.StructSimple'), a.StructSimple);
  assert.equal(a.get('proto.Account'), a.Account, 'an imported name is reachable when unambiguous');
  assert.equal(a.has('Nope'), false);
  assert.equal(a.has('StructSimple'), true);
  assert.throws(() => a.get('StructSimpel'), fbe.NotFoundError);
  assert.throws(() => a.struct('EnumSimple'), fbe.NotFoundError);
  assert.equal(a.struct('Account'), a['proto.Account']);
  assert.equal(a.enum('EnumSimple'), a.EnumSimple);
  assert.ok(a.names().includes('test.FlagsTyped'));
  const b = fbe.loadPackage('proto', { include: [schemas] });
  assert.equal(b.root, 'proto');
  const text = fs.readFileSync(path.join(schemas, 'protoex.fbe'), 'utf8');
  const c = fbe.loadString(text, { include: [schemas], name: 'protoex.fbe' });
  assert.equal(c.root, 'protoex');
  assert.ok(c.Balance !== c['proto.Balance']);
  assert.equal(c.get('proto.Balance').fullName, 'proto.Balance');
  const d = fbe.loadString('package tiny\nstruct T { int32 a = 5; }');
  assert.equal(new d.T().a, 5);
  assert.deepEqual(d.warnings, []);
  assert.match(fbe.version, /^\d+\.\d+\.\d+$/);
});

test('struct classes: metadata, instanceof, inheritance, subclassing', () => {
  const s = fbe.loadPackage('protoex', { include: [schemas] });
  const { Balance, Account } = s;
  assert.equal(Balance.name, 'Balance');
  assert.equal(Balance.fullName, 'protoex.Balance');
  assert.equal(Balance.packageName, 'protoex');
  assert.equal(Account.typeId, 3);
  assert.equal(s.AccountMessage.typeId, 13);
  assert.equal(s.AccountMessage.isMessage, true);
  assert.equal(Account.isMessage, false);
  assert.deepEqual(Balance.fields.map((f) => f.name), ['currency', 'amount', 'locked']);
  assert.deepEqual(Account.fields.find((f) => f.name === 'orders').type,
    { kind: 'vector', elem: { kind: 'struct', struct: 'protoex.Order' } });
  assert.equal(Account.fields[0].key, true);
  const b = new Balance({ currency: 'USD', amount: 1, locked: 2 });
  assert.ok(b instanceof Balance);
  assert.ok(b instanceof s['proto.Balance'], 'protoex.Balance extends proto.Balance');
  assert.ok(b instanceof fbe.Struct);
  assert.equal(b.constructor, Balance);
  class Mine extends Balance {
    total() { return this.amount + this.locked; }
  }
  const m = new Mine({ amount: 3, locked: 4 });
  assert.ok(m instanceof Mine);
  assert.equal(m.total(), 7);
  assert.equal(m.currency, '');
  assert.deepEqual(Balance.decode(m.encode()), new Balance({ amount: 3, locked: 4 }));
});

test('defaults: the schema values, fresh containers per instance', () => {
  const s = testSchema();
  const t0 = BigInt(Date.now()) * 1000000n; // the clock's millisecond, floored, before
  const v = new s.StructSimple();
  const utc = v.f35;
  const t1 = (BigInt(Date.now()) + 1n) * 1000000n; // the end of its millisecond, after
  assert.equal(v.id, 0);
  assert.equal(v.f2, true);
  assert.equal(v.f4, 255);
  assert.equal(v.f6, 33);
  assert.equal(v.f8, 0x444);
  assert.equal(v.f10, 127);
  assert.equal(v.f18, 2147483647);
  assert.equal(v.f20, 4294967295);
  assert.equal(v.f22, 9223372036854775807n);
  assert.equal(v.f24, 18446744073709551615n);
  assert.equal(v.f26, Math.fround(123.456));
  assert.equal(v.f28, -123.456e+123);
  assert.equal(v.f29, '0');
  assert.equal(v.f30, '123456.123456');
  assert.equal(v.f32, 'Initial string!');
  assert.equal(v.f34, 0n);
  assert.equal(typeof utc, 'bigint');
  assert.ok(t0 <= utc && utc < t1, `utc ${utc} is now (in [${t0}, ${t1}), the same clock)`);
  assert.equal(v.f36, '00000000-0000-0000-0000-000000000000');
  assert.match(v.f37, /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'uuid1');
  assert.notEqual(new s.StructSimple().f37, v.f37);
  assert.equal(v.f38, '123e4567-e89b-12d3-a456-426655440000');
  assert.ok(v.f41 instanceof s.Order);
  assert.ok(v.f44 instanceof s.Account);
  assert.equal(v.f44.state, s.State.initialized | s.State.bad);
  const o = new s.StructOptional();
  assert.equal(o.f100, null);
  assert.equal(o.f101, true);
  assert.equal(o.f102, null);
  assert.equal(o.f104, 255);
  assert.equal(o.f131, 9223372036854775807n);
  assert.equal(o.f143, '123456.123456');
  assert.equal(o.f146, 'Initial string!');
  assert.equal(typeof o.f149, 'bigint');
  assert.equal(o.f158, null);
  const a = new s.Account();
  const b = new s.Account();
  a.orders.push(new s.Order());
  assert.equal(b.orders.length, 0, 'containers are not shared between instances');
  assert.notEqual(a.wallet, b.wallet);
  const n = new s.StructNested();
  assert.equal(n.f1006, 42n, 'FlagsTyped default (64-bit flags are bigint)');
  assert.equal(n.f1002, '1'.charCodeAt(0) + 1, 'EnumTyped.ENUM_VALUE_2');
});

test('type mapping: bigint, decimal, uuid, Buffer, arrays, Set, Map', () => {
  const s = testSchema();
  const v = new s.StructSimple({
    f21: -9223372036854775808n, f23: 18446744073709551615n, f29: '-79228162514264337593543950335',
    f30: '0.0000000000000000000000000001', f31: 'héllo wörld — 😀 \u0000 end', f33: 1543145597933000000n,
    f36: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', f7: 0x1f600,
  });
  for (const final of [false, true]) {
    const back = s.StructSimple.decode(v.encode({ final }), { final });
    assert.equal(back.f21, -9223372036854775808n);
    assert.equal(back.f23, 18446744073709551615n);
    assert.equal(back.f29, '-79228162514264337593543950335');
    assert.equal(back.f30, '1E-28');
    assert.equal(back.f31, 'héllo wörld — 😀 \u0000 end');
    assert.equal(back.f33, 1543145597933000000n);
    assert.equal(back.f36, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
    assert.equal(back.f7, 0x1f600);
  }
  const bytes = new s.StructBytes({ f1: Buffer.from('abc'), f2: new Uint8Array([1, 2]), f3: null });
  const bb = s.StructBytes.decode(bytes.encode());
  assert.ok(Buffer.isBuffer(bb.f1));
  assert.deepEqual(bb.f1, Buffer.from('abc'));
  assert.deepEqual(bb.f2, Buffer.from([1, 2]));
  assert.equal(bb.f3, null);
  const vec = new s.StructVector({ f1: [1, 2, 3], f2: [null, 4], f3: [Buffer.from('x')], f5: [s.EnumSimple.ENUM_VALUE_1],
    f9: [new s.StructSimple({ id: 5 })], f10: [null, { id: 6 }] });
  const vb = s.StructVector.decode(vec.encode());
  assert.deepEqual(vb.f1, [1, 2, 3]);
  assert.deepEqual(vb.f2, [null, 4]);
  assert.equal(vb.f9[0].id, 5);
  assert.equal(vb.f10[1].id, 6);
  assert.ok(vb.f10[1] instanceof s.StructSimple);
  const set = new s.StructSet({ f1: new Set([3, 1, 2]), f2: [1, 2] });
  const sb = s.StructSet.decode(set.encode());
  assert.ok(sb.f1 instanceof Set);
  assert.deepEqual([...sb.f1], [3, 1, 2], 'a set keeps its order');
  assert.deepEqual([...sb.f2], [1, 2], 'an array works as a set');
  const map = new s.StructMap({ f1: new Map([[10, 48], [-5, 3]]), f2: [[1, null], [2, 7]], f9: new Map([[1, { id: 9 }]]) });
  const mb = s.StructMap.decode(map.encode({ final: true }), { final: true });
  assert.ok(mb.f1 instanceof Map);
  assert.deepEqual([...mb.f1], [[10, 48], [-5, 3]]);
  assert.deepEqual([...mb.f2], [[1, null], [2, 7]]);
  assert.equal(mb.f9.get(1).id, 9);
  const hash = new s.StructHash({ f1: { a: 1, b: 2 }, f3: new Map([['k', Buffer.from('v')]]) });
  const hb = s.StructHash.decode(hash.encode());
  assert.deepEqual([...hb.f1], [['a', 1], ['b', 2]], 'a plain object works for string keys');
  assert.deepEqual(hb.f3.get('k'), Buffer.from('v'));
  const key = new s.StructSimple({ id: 1 });
  const ex = new s.StructHashEx({ f1: new Map([[key, new s.StructNested({ id: 2 })]]) });
  const eb = s.StructHashEx.decode(ex.encode());
  const [[k, val]] = [...eb.f1];
  assert.equal(k.id, 1);
  assert.equal(val.id, 2);
  const arr = new s.StructArray({ f1: [1, 2], f2: [null, 3], f5: [1, 2], f9: [{ id: 1 }, { id: 2 }] });
  const ab = s.StructArray.decode(arr.encode());
  assert.deepEqual(ab.f1, [1, 2]);
  assert.deepEqual(ab.f2, [null, 3]);
  assert.equal(ab.f9[1].id, 2);
});

test('inputs of other JavaScript types where they are unambiguous', () => {
  const s = testSchema();
  const v = new s.StructSimple({
    f5: '!', f7: 'ф', f21: 5, f23: 7, f29: '1.5', f30: 10n, f33: new Date(1000), f39: 'sell', f43: 'good',
  });
  const back = s.StructSimple.decode(v.encode());
  assert.equal(back.f5, 33);
  assert.equal(back.f7, 0x444);
  assert.equal(back.f21, 5n);
  assert.equal(back.f23, 7n);
  assert.equal(back.f29, '1.5');
  assert.equal(back.f30, '10');
  assert.equal(back.f33, 1000000000n);
  assert.equal(back.f39, s.OrderSide.sell);
  assert.equal(back.f43, s.State.good);
  assert.equal(s.StructSimple.decode(new s.StructSimple({ f17: 3n }).encode()).f17, 3);
});

test('verify, validate, decode (verified) and decode without verify (trusted)', () => {
  const { Account } = proto();
  const bytes = account(proto()).encode();
  assert.equal(Account.verify(bytes), true);
  assert.equal(Account.validate(bytes), 252);
  assert.equal(Account.verify(bytes, { final: true }), false);
  const broken = Buffer.from(bytes);
  broken.writeUInt32LE(0xffff, 8 + 4 * 6);
  assert.equal(Account.verify(broken), false);
  assert.throws(() => Account.validate(broken), fbe.FbeError);
  assert.throws(() => Account.decode(broken), fbe.FbeError);
  assert.equal(Account.decode(bytes, { trusted: true }).id, 1);
  const withTail = Buffer.concat([bytes, Buffer.from([1, 2, 3])]);
  assert.equal(Account.validate(withTail), 252, 'bytes after the model are not part of it');
  assert.equal(Account.decode(withTail).orders.length, 3);
});

test('JSON: toJsonString, fromJsonString, pretty, schema-level, the reference conventions', () => {
  const s = testSchema();
  const v = new s.StructSimple({ f21: -1n, f31: 'a"b', f33: 5n, f36: '123e4567-e89b-12d3-a456-426655440000' });
  const text = v.toJsonString();
  assert.match(text, /"f21":-1,/);
  assert.match(text, /"f24":18446744073709551615,/);
  assert.match(text, /"f31":"a\\"b"/);
  assert.match(text, /"f30":"123456.123456"/);
  const back = s.StructSimple.fromJsonString(text);
  assert.equal(back.f24, 18446744073709551615n);
  assert.ok(back.f35 === v.f35);
  assert.equal(s.fromJsonString('StructSimple', text).f31, 'a"b');
  assert.match(v.toJsonString({ pretty: true }), /^\{\n {2}"id": 0,\n/);
  assert.equal(s.toJsonString('proto.Balance', { currency: 'X' }), '{"currency":"X","amount":0.0}');
  const bytes = new s.StructBytes({ f1: Buffer.from('ABC') });
  assert.match(bytes.toJsonString(), /"f1":"QUJD"/);
});

test('JSON.stringify works (toJSON gives a plain JSON-safe object, not a string)', () => {
  const s = testSchema();
  const v = new s.StructSimple({ f22: 2n ** 62n });
  const plain = JSON.parse(JSON.stringify(v));
  assert.equal(plain.f22, String(2n ** 62n));
  assert.equal(plain.f32, 'Initial string!');
  assert.equal(typeof v.toJSON(), 'object');
  const m = new s.StructMap({ f1: new Map([[1, 2]]) });
  assert.deepEqual(JSON.parse(JSON.stringify(m)).f1, { 1: 2 });
  const set = new s.StructSet({ f1: new Set([4]) });
  assert.deepEqual(JSON.parse(JSON.stringify(set)).f1, [4]);
  const b = new s.StructBytes({ f1: Buffer.from('ABC') });
  assert.equal(JSON.parse(JSON.stringify(b)).f1, 'QUJD');
  const ex = new s.StructHashEx({ f1: new Map([[new s.StructSimple(), null]]) });
  assert.ok(Array.isArray(JSON.parse(JSON.stringify(ex)).f1));
});

test('equals is deep, by the core; compare and hashKey use the [key] fields', () => {
  const s = proto();
  const a = new s.Account({ id: 1, name: 'A' });
  assert.ok(a.equals(new s.Account({ id: 1, name: 'A' })));
  assert.ok(!a.equals(new s.Account({ id: 1, name: 'B' })), 'every field, not only the [key] ones');
  assert.ok(!a.equals(new s.Account({ id: 2, name: 'A' })));
  assert.ok(!a.equals(null));
  assert.ok(!a.equals(5));
  assert.ok(!a.equals({ id: 1, name: 'A' }), 'a plain object is not a value of the struct');
  assert.ok(!new s.Balance({ currency: 'USD', amount: 1 }).equals(new s.Balance({ currency: 'USD', amount: 2 })));
  assert.ok(new s.Balance({ amount: 0 }).equals(new s.Balance({ amount: 0 })));
  assert.ok(!new s.Balance({ amount: 0 }).equals(new s.Balance({ amount: -0 })), 'floats by bit pattern');
  assert.ok(new s.Balance({ amount: NaN }).equals(new s.Balance({ amount: NaN })));
  const t = testSchema();
  assert.ok(new t.StructVector({ f1: [1] }).equals(new t.StructVector({ f1: [1] })));
  assert.ok(!new t.StructVector({ f1: [1] }).equals(new t.StructVector({ f1: [2] })));
  const simple = new t.StructSimple({ f29: '1.5' }); // (its utc and uuid defaults differ per instance)
  assert.ok(simple.equals(new t.StructSimple({ ...simple, f29: '1.50' })), 'decimals by value');
  assert.ok(!simple.equals(new t.StructSimple({ ...simple, f29: '1.51' })));
  // order and hash: the [key] fields (Account: id)
  assert.equal(s.Account.compare(a, new s.Account({ id: 1, name: 'B' })), 0);
  assert.equal(s.Account.compare(a, new s.Account({ id: 2 })), -1);
  assert.equal(s.Account.compare(new s.Account({ id: 3 }), { id: 2 }), 1, 'plain objects are values too');
  assert.equal(a.hashKey(), new s.Account({ id: 1, name: 'B' }).hashKey());
  assert.equal(typeof a.hashKey(), 'bigint');
  const sorted = [3, 1, 2].map((id) => new s.Account({ id })).sort(s.Account.compare);
  assert.deepEqual(sorted.map((v) => v.id), [1, 2, 3]);
  const keyless = t.StructVector;
  assert.throws(() => keyless.compare(new keyless(), new keyless()), fbe.TypeMismatchError);
  assert.equal(new keyless({ f1: [1] }).hashKey(), 0n);
  assert.throws(() => s.Account.compare(a, new s.Order()), fbe.TypeMismatchError);
});

test('toString, util.inspect: the core text form', () => {
  const s = proto();
  const text = 'Account(id=1,name="Test",state=initialized|calculated|good,wallet=Balance(currency="USD",amount=1000.0),' +
    'asset=Balance(currency="EUR",amount=100.0),orders=[3][Order(id=1,symbol="EURUSD",side=buy,type=market,' +
    'price=1.23456,volume=1000.0),Order(id=2,symbol="EURUSD",side=sell,type=limit,price=1.0,volume=100.0),' +
    'Order(id=3,symbol="EURUSD",side=buy,type=stop,price=1.5,volume=10.0)])';
  assert.equal(String(account(s)), text);
  assert.equal(util.inspect(account(s)), text);
  assert.equal(`${s.Account.decode(account(s).encode())}`, text, 'the same after a round trip');
  const t = testSchema();
  assert.equal(String(new t.StructSet({ f1: new Set([1, 2]) })), 'StructSet(f1=[2]{1,2},f2=[0]{},f3=[0]{},f4=[0]{})');
  assert.match(String(new t.StructMap({ f1: new Map([[1, 2]]) })), /^StructMap\(f1=\[1\]<\{1->2\}>,/);
  assert.match(String(new t.StructHash({ f1: { a: 2 } })), /^StructHash\(f1=\[1\]<\{"a"->2\}>,/);
  assert.match(String(new t.StructList({ f1: [7] })), /^StructList\(f1=\[1\]\[7\],/);
  assert.match(String(new t.StructBytes({ f1: Buffer.from([0, 1, 2]) })), /^StructBytes\(f1=bytes\[3\]"AAEC",f2=null/);
  // a value that cannot be converted prints the core's error instead; never throws
  assert.equal(String(new s.Order({ id: 'x' })), "Order(<invalid: expected int32, got a string at 'id'>)");
  assert.equal(util.inspect(new s.Account({ orders: [{}, { price: 'x' }] })),
    "Account(<invalid: expected double, got a string at 'orders[1].price'>)");
  assert.equal(s.OrderSide.format(7), '7');
  assert.equal(s.State.format(64), '64');
  assert.equal(s.State.format(70), 'initialized|calculated|good|64');
  assert.equal(s.State.format(0), 'unknown');
});

test('enums and flags: frozen objects of numbers, names, bigint on 64-bit bases', () => {
  const s = testSchema();
  const { State, OrderSide, FlagsTyped, EnumTyped } = s;
  assert.ok(Object.isFrozen(State));
  assert.ok(State instanceof fbe.Enum);
  assert.equal(State.good, 6);
  assert.deepEqual(Object.keys(OrderSide), ['buy', 'sell']);
  assert.equal(OrderSide.nameOf(1), 'sell');
  assert.equal(OrderSide.nameOf(9), undefined);
  assert.equal(State.format(State.good), 'initialized|calculated|good');
  assert.equal(State.parse('initialized|calculated'), 6);
  assert.equal(State.parse('good|64'), 70);
  assert.throws(() => OrderSide.parse('sideways'), fbe.ArgumentError);
  assert.equal(State.has(State.good, State.calculated), true);
  assert.equal(State.has(State.good, State.broken), false);
  assert.equal(State.fullName, 'proto.State');
  assert.equal(State.isFlags, true);
  assert.equal(OrderSide.isFlags, false);
  assert.equal(typeof FlagsTyped.FLAG_VALUE_9, 'bigint');
  assert.equal(FlagsTyped.FLAG_VALUE_9, 42n);
  assert.equal(FlagsTyped.parse('FLAG_VALUE_1|FLAG_VALUE_7'), 65n);
  assert.equal(EnumTyped.ENUM_VALUE_1, 49);
  assert.deepEqual(OrderSide.entries(), [['buy', 0], ['sell', 1]]);
  assert.throws(() => { OrderSide.buy = 5; }, TypeError);
});

test('values the schema does not name survive decode -> encode', () => {
  const s = testSchema();
  const order = new s.Order({ id: 1, side: 7, type: 200 });
  const bytes = order.encode();
  const back = s.Order.decode(bytes);
  assert.equal(back.side, 7);
  assert.equal(back.type, 200);
  assert.deepEqual(back.encode(), bytes);
  const n = new s.StructNested({ f1006: (1n << 63n) | 1n, f1004: 0x80 });
  const nb = s.StructNested.decode(n.encode({ final: true }), { final: true });
  assert.equal(nb.f1006, (1n << 63n) | 1n);
  assert.equal(nb.f1004, 0x80);
});

test('clone is deep; decoded values are independent of each other', () => {
  const s = proto();
  const a = account(s);
  const c = a.clone();
  assert.notEqual(c, a);
  assert.notEqual(c.orders[0], a.orders[0]);
  assert.deepEqual(c, a);
  c.orders[0].symbol = 'X';
  assert.equal(a.orders[0].symbol, 'EURUSD');
  const bytes = a.encode();
  const d1 = s.Account.decode(bytes);
  const d2 = s.Account.decode(bytes);
  d1.orders.pop();
  assert.equal(d2.orders.length, 3);
  assert.deepEqual(bytes, a.encode(), 'encode returns a new Buffer each time');
  const e1 = a.encode();
  const e2 = a.encode();
  e1[0] = 0;
  assert.equal(e2[0], 252);
});

test('big values: long and non-ASCII strings, many elements, big bytes (the tapes grow)', () => {
  const s = testSchema();
  const long = 'x'.repeat(100000) + 'é'.repeat(50000) + '😀'.repeat(1000);
  const many = Array.from({ length: 50000 }, (_, i) => new s.Order({ id: i, symbol: `S${i}` }));
  const acc = new s.Account({ name: long, orders: many });
  for (const final of [false, true]) {
    const back = s.Account.decode(acc.encode({ final }), { final });
    assert.equal(back.name, long);
    assert.equal(back.orders.length, 50000);
    assert.equal(back.orders[49999].symbol, 'S49999');
  }
  const big = new s.StructBytes({ f1: Buffer.alloc(3 << 20, 7) });
  const bb = s.StructBytes.decode(big.encode());
  assert.equal(bb.f1.length, 3 << 20);
  assert.equal(bb.f1[12345], 7);
  const json = acc.toJsonString();
  assert.equal(s.Account.fromJsonString(json).orders.length, 50000);
  const small = new s.Order({ id: 1 });
  assert.equal(s.Order.decode(small.encode()).id, 1, 'small values still work after growth');
});

test('encode from a getter that encodes (re-entrant use of the tape)', () => {
  const s = proto();
  const inner = new s.Order({ id: 5, symbol: 'IN' });
  const outer = {
    id: 1,
    get name() { return s.Order.decode(inner.encode()).symbol + inner.encode().length; },
    wallet: { currency: 'USD' },
  };
  const back = s.Account.decode(s.encode('Account', outer));
  assert.equal(back.name, `IN${inner.encode().length}`);
  assert.equal(back.wallet.currency, 'USD');
});

test('two schemas at once do not interfere', () => {
  const a = proto();
  const b = fbe.loadPackage('protoex', { include: [schemas] });
  const x = a.Account.decode(account(a).encode());
  const y = b.Account.decode(new b.Account({ id: 9, orders: [{ id: 1, tp: 5 }] }).encode());
  assert.equal(x.orders.length, 3);
  assert.equal(y.orders[0].tp, 5);
  assert.equal(y.state, b.StateEx.initialized | b.StateEx.bad | b.StateEx.sad);
});

test('works in worker threads', async () => {
  const { Worker } = require('worker_threads');
  const code = `
    const { parentPort, workerData } = require('worker_threads');
    const fbe = require(workerData.pkg);
    const s = fbe.loadPackage('proto', { include: [workerData.schemas] });
    const a = new s.Account({ id: 42, orders: [{ id: 1 }] });
    parentPort.postMessage(s.Account.decode(a.encode()).id);`;
  const pkg = path.join(__dirname, '..');
  const results = await Promise.all([1, 2].map(() => new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { pkg, schemas } });
    w.once('message', resolve);
    w.once('error', reject);
  })));
  assert.deepEqual(results, [42, 42]);
});

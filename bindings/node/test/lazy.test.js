'use strict';
// Classes and codecs are made on first use (lib/codegen.js): loading a schema of 10^4
// structs makes none, introspection compiles nothing, and a struct used compiles with
// the structs it reaches, once. Counted (schema._fbe.gen.counts()), never timed.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { fbe } = require('./helpers');

const N = 10000;

function bigSchema() {
  const lines = ['package many'];
  for (let i = 0; i < N; i++) lines.push(`${i % 10 ? 'struct' : 'message'} S${i} { int32 a${i}; string s; }`);
  lines.push('struct T { S5 x; S6? y; S7[] z; S8<int32> m; }');
  lines.push('struct D : S9 { int32 d; }');
  lines.push('message U { T t; S5 again; }');
  return fbe.loadString(lines.join('\n'), { name: 'many.fbe' });
}

test('a schema of 10^4 structs loads with no class and no codec made', () => {
  const schema = bigSchema();
  const counts = () => schema._fbe.gen.counts();
  assert.deepEqual(counts(), { classes: 0, codecs: 0 });
  assert.equal(schema.names().length, 2 * (N + 3));
  assert.ok(Object.keys(schema).includes('S9999') && Object.keys(schema).includes('many.S9999'));
  assert.deepEqual(counts(), { classes: 0, codecs: 0 }, 'names and keys make nothing');

  // introspection: a class, no codec
  const S5 = schema.S5;
  assert.equal(S5, schema['many.S5']);
  assert.equal(S5, schema.get('S5'));
  assert.equal(S5, schema.struct('many.S5'));
  assert.deepEqual([S5.name, S5.typeName, S5.fullName, S5.packageName, S5.typeId, S5.isMessage],
    ['S5', 'S5', 'many.S5', 'many', 6, false]);
  assert.deepEqual(S5.fields.map((f) => [f.name, f.type.kind]), [['a5', 'int32'], ['s', 'string']]);
  assert.deepEqual(counts(), { classes: 1, codecs: 0 });

  // first use: its codec, once
  const v = new S5({ a5: 7 });
  assert.deepEqual(counts(), { classes: 1, codecs: 1 });
  assert.equal(S5.decode(v.encode()).a5, 7);
  assert.equal(S5.fromJsonString(v.toJsonString()).s, '');
  assert.deepEqual(counts(), { classes: 1, codecs: 1 });

  // T reaches S5 (compiled), S6, S7, S8: one group of four
  const t = schema.encode('T', { x: { a5: 1 }, y: { a6: 2 }, z: [{ a7: 3 }], m: new Map([[4, { a8: 5 }]]) });
  assert.deepEqual(counts(), { classes: 5, codecs: 5 });
  const back = schema.decode('T', t);
  assert.ok(back instanceof schema.T && back.x instanceof S5 && back.y instanceof schema.S6);
  assert.deepEqual([back.x.a5, back.y.a6, back.z[0].a7, back.m.get(4).a8], [1, 2, 3, 5]);
  assert.deepEqual(counts(), { classes: 5, codecs: 5 });

  // a derived class makes its base class; both encode
  const d = new schema.D({ a9: 1, d: 2 });
  assert.ok(d instanceof schema.S9);
  assert.deepEqual(schema.D.decode(d.encode({ final: true }), { final: true }), d);
  assert.deepEqual(counts(), { classes: 7, codecs: 6 });

  // verify needs no codec; the protocol compiles what it sends and receives
  assert.equal(schema.S20.verify(Buffer.alloc(4)), false);
  assert.deepEqual(counts(), { classes: 8, codecs: 6 });
  const got = [];
  const receiver = new fbe.Receiver(schema, { onMessage: (m, name) => got.push([name, m.a30]) });
  receiver.feed(new fbe.Sender(schema).send('S30', { a30: 9 }));
  assert.deepEqual(got, [['many.S30', 9]]);
  const u = new fbe.Sender(schema).send(new schema.U({ t: { x: { a5: 3 } } }));
  receiver.feed(u);
  assert.equal(got.length, 2);
  assert.deepEqual(counts(), { classes: 10, codecs: 8 });
});

test('a class made late is the same class everywhere', () => {
  const schema = bigSchema();
  const v = schema.decode('U', schema.encode('U', {}));
  assert.equal(Object.getPrototypeOf(v.t.x), schema.S5.prototype);
  assert.equal(Object.getPrototypeOf(v.again), schema.S5.prototype);
  assert.equal(schema._fbe.gen.counts().classes, 6); // U, T, S5..S8 and nothing else
  const { S42 } = schema;
  assert.equal(S42, schema.S42);
  assert.ok(new S42() instanceof fbe.Struct);
  assert.equal(String(new S42({ a42: 1 })), 'S42(a42=1,s="")');
});

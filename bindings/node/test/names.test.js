'use strict';
// Schema names never break the binding (README.md, "Names"): a schema whose types,
// fields and enum/flags members are named like every member of this API (the Schema's,
// the classes', the values', the enum objects'), like what every object inherits and
// like JavaScript's reserved words loads, and its values encode, decode and go through
// JSON by the schema's calls; fields and members are reachable by name.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const util = require('util');
const { fbe } = require('./helpers');

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Words the schema language keeps for itself (a schema cannot use them as names), so
// they cannot collide with the API: Schema#enum and Schema#struct are among them.
const FBE_KEYWORDS = new Set(['enum', 'struct', 'flags', 'message', 'true', 'false', 'null']);
const JS_RESERVED = ['class', 'function', 'new', 'delete', 'return', 'this', 'super', 'let', 'yield',
  'await', 'static', 'undefined', 'NaN', 'Infinity', 'typeof', 'instanceof', 'var', 'const', 'import',
  'export', 'default', 'in', 'of', 'do', 'if', 'else', 'for', 'while', 'switch', 'case', 'break',
  'continue', 'try', 'catch', 'finally', 'throw', 'debugger', 'with', 'void', 'package', 'interface',
  'private', 'protected', 'public', 'implements', 'arguments', 'eval', 'Object', 'Symbol', 'Buffer',
  'require', 'module', 'exports', 'globalThis', 'process', 'prototype', 'length', 'caller', 'callee'];

const names = (...objects) => objects.flatMap((o) => Object.getOwnPropertyNames(o));
const usable = (list) => [...new Set(list)].filter((n) => IDENT.test(n) && !FBE_KEYWORDS.has(n));

// Every name of the API, read from the API itself (a method added later is covered)
const probe = fbe.loadString('package probe\nenum E { a; }\nstruct S { int32 x; }');
const SCHEMA_API = usable([...names(fbe.Schema.prototype, Object.prototype), 'then', '_fbe']);
const API = usable([...SCHEMA_API, ...names(fbe.Struct.prototype, probe.S.prototype, probe.S),
  ...names(fbe.Enum.prototype, Object.getPrototypeOf(probe.E)), 'then', ...JS_RESERVED]);

// the enum `encode` and the flags `then`; a struct named like every other Schema name
const TYPE_NAMES = SCHEMA_API.filter((n) => !['encode', 'then', 'decode', 'get'].includes(n));
const FLAGS = [['format', 1], ['has', 2], ['parse', 4], ['__proto__', 8], ['constructor', 16],
  ['toString', 32], ['entries', -128]];
const TEXT = `package names
enum encode { ${API.join('; ')}; }
flags then : int8 { ${FLAGS.map(([n, v]) => `${n} = ${v}`).join('; ')}; }
struct get { int32 encode = 1; }
${TYPE_NAMES.map((n) => `struct ${n} { int32 ${n}; }`).join('\n')}
struct Plain { int32 x; }
message decode {
${API.map((n) => `  int32 ${n};`).join('\n')}
  encode e;
  then f;
  get g;
  double! floats;
}
`;

function load() { return fbe.loadString(TEXT, { name: 'names.fbe' }); }

// A value of `decode`: field j is j + 1, the enum the member `format`, the flags every member
const FIELDS = API.map((n, j) => [n, j + 1]);
const JSON_TEXT = `{${FIELDS.map(([n, v]) => `${JSON.stringify(n)}:${v}`).join(',')},` +
  `"e":${API.indexOf('format')},"f":${FLAGS.reduce((a, [, v]) => a | v, 0)},"g":{"encode":5},"floats":[-0.0,0.0,1.5]}`;

function assertFields(v) {
  for (const [n, x] of FIELDS) {
    assert.ok(Object.prototype.hasOwnProperty.call(v, n), `own ${n}`);
    assert.equal(v[n], x, n);
  }
  assert.equal(v.e, API.indexOf('format'));
  assert.equal(v.f, -65); // every member: 1|2|4|8|16|32|-128 on an int8 base
  assert.equal(v.g.encode, 5);
  assert.ok(Object.is(v.floats[0], -0) && Object.is(v.floats[1], 0) && v.floats[2] === 1.5);
}

test('a schema named like the API loads, and the schema calls stay the schema calls', async () => {
  const schema = load();
  for (const n of names(fbe.Schema.prototype)) {
    const d = Object.getOwnPropertyDescriptor(fbe.Schema.prototype, n);
    if (typeof d.value === 'function') assert.equal(schema[n], d.value, `schema.${n}`);
  }
  assert.equal(schema.root, 'names');
  assert.deepEqual(schema.packages.map((p) => p.name), ['names']);
  assert.equal(await schema, schema); // no `then`: a schema is no promise
  assert.equal(String(schema), '[object Object]');
  // a type named like a member of Schema or of every object is get(name) and 'pkg.Name'
  for (const n of [...TYPE_NAMES, 'encode', 'then', 'decode', 'get']) {
    assert.ok(schema.get(n), n);
    assert.equal(schema.get(`names.${n}`), schema.get(n), n);
    assert.equal(schema[`names.${n}`], schema.get(n), n);
    assert.ok(!Object.prototype.hasOwnProperty.call(schema, n) || n === '_fbe', `schema.${n} is not the type`);
  }
  assert.equal(schema.Plain, schema.get('Plain')); // other names stay properties
  assert.equal(schema.struct('decode').fullName, 'names.decode');
  assert.equal(schema.enum('encode').format, API.indexOf('format'));
  assert.ok(schema.names().includes('__proto__'));
  for (const n of TYPE_NAMES) {
    const cls = schema.struct(n);
    const bytes = schema.encode(n, { [n]: 3 });
    assert.equal(schema.decode(cls, bytes)[n], 3, n);
  }
});

test('values encode, decode and go through JSON by the schema calls', () => {
  const schema = load();
  const v = schema.fromJsonString('decode', JSON_TEXT);
  assertFields(v);
  const text = schema.toJsonString('decode', v);
  assert.deepEqual(schema.toJsonString('decode', schema.fromJsonString('decode', text)), text);
  for (const final of [false, true]) {
    const bytes = schema.encode('decode', v, { final });
    assert.equal(schema.verify('decode', bytes, { final }), true);
    assert.equal(schema.validate('decode', bytes, { final }), bytes.length);
    const back = schema.decode('decode', bytes, { final });
    assertFields(back);
    assert.equal(schema.toJsonString('decode', back), text);
    // a plain object (JSON.parse makes own __proto__, constructor, ... members) alike
    const plain = JSON.parse(JSON_TEXT);
    plain.floats = [-0, 0, 1.5];
    assert.deepEqual(schema.encode('decode', plain, { final }), bytes);
    assert.deepEqual(schema.encode('decode', new (schema.get('decode'))(plain), { final }), bytes);
  }
  // the protocol: a message type named `decode` with such fields
  const frames = [];
  const sender = new fbe.Sender(schema, { write: (f) => frames.push(f) });
  sender.send('decode', v);
  sender.send(v);
  const got = [];
  const receiver = new fbe.Receiver(schema, { onMessage: (m, type) => got.push([type, schema.toJsonString(type, m)]) });
  receiver.feed(Buffer.concat(frames));
  assert.deepEqual(got, [['names.decode', text], ['names.decode', text]]);
});

test('a field named like a method hides it on the value only', () => {
  const schema = load();
  const T = schema.get('decode');
  const v = schema.fromJsonString(T, JSON_TEXT);
  assert.equal(v.encode, API.indexOf('encode') + 1);
  assert.equal(v.toJsonString, API.indexOf('toJsonString') + 1);
  assert.equal(v.constructor, API.indexOf('constructor') + 1);
  assert.equal(Object.getPrototypeOf(v), T.prototype);
  // the methods through the class, and the class's own calls, are never hidden
  const bytes = T.prototype.encode.call(v);
  assert.deepEqual(bytes, schema.encode(T, v));
  assert.equal(T.prototype.toJsonString.call(v), schema.toJsonString(T, v));
  assertFields(T.decode(bytes));
  assert.equal(T.validate(bytes), bytes.length);
  assertFields(T.fromJsonString(JSON_TEXT));
  assert.deepEqual(T.fields.map((f) => f.name), [...API, 'e', 'f', 'g', 'floats']);
  const copy = fbe.Struct.prototype.clone.call(v);
  assertFields(copy);
  assert.ok(T.prototype.equals.call(copy, v));
  assert.ok(!T.prototype.equals.call(copy, schema.fromJsonString(T, '{}')));
  const shown = fbe.Struct.prototype.toString.call(v);
  assert.ok(shown.startsWith(`decode(${API[0]}=1,${API[1]}=2,`), shown);
  assert.match(shown, /,e=format,f=format\|has\|parse\|__proto__\|constructor\|toString\|entries,g=get\(encode=5\),/);
  assert.match(util.inspect(v), /__proto__/);
  const json = fbe.Struct.prototype.toJSON.call(v);
  assert.equal(Object.getOwnPropertyDescriptor(json, '__proto__').value, API.indexOf('__proto__') + 1);
});

test('enum and flags members by name, whatever the name', () => {
  const schema = load();
  const E = schema.enum('encode');
  const F = schema.enum('then');
  assert.deepEqual(Object.keys(E), API);
  API.forEach((n, i) => assert.equal(E[n], i, n));
  assert.ok(E instanceof fbe.Enum);
  assert.equal(fbe.Enum.prototype.nameOf.call(E, E.format), 'format');
  assert.equal(fbe.Enum.prototype.format.call(E, E.__proto__), '__proto__'); // eslint-disable-line no-proto
  assert.equal(fbe.Enum.prototype.parse.call(E, 'then'), E.then);
  assert.equal(fbe.Enum.prototype.format.call(E, 999), '999');
  assert.deepEqual(fbe.Enum.prototype.entries.call(F), FLAGS);
  assert.equal(F.entries, -128);
  assert.equal(fbe.Enum.prototype.parse.call(F, 'has|__proto__|entries'), 2 | 8 | -128);
  assert.ok(fbe.Enum.prototype.has.call(F, -118, F.entries));
  // by name in values; a flags value over a signed base keeps its bit pattern; a value
  // no member has is a value
  const T = schema.get('decode');
  for (const final of [false, true]) {
    const v = new T({ e: 'then', f: 'entries' });
    const back = schema.decode(T, schema.encode(T, v, { final }), { final });
    assert.equal(back.e, E.then);
    assert.equal(back.f, -128);
    const unknown = schema.decode(T, schema.encode(T, { e: 999, f: 64 }, { final }), { final });
    assert.equal(unknown.e, 999);
    assert.equal(unknown.f, 64);
  }
  assert.match(schema.toJsonString(T, { f: 'entries' }), /,"f":-128,/);
});

const FLOATS = `package floats
struct F { double! d; float! f; int32{double} m; double{float} h; }
`;

test('-0.0 in a set of floats and as a float map key round-trips (arrays, not Set/Map)', () => {
  const schema = fbe.loadString(FLOATS, { name: 'floats.fbe' });
  const { F } = schema;
  const same = (got, want) => got.length === want.length && got.every((x, i) => Object.is(x, want[i]));
  const value = { d: [-0, 0, 1.5, -1.5], f: [0, -0], m: [[-0, 1], [0, 2]], h: [[0, -0], [-0, 0.5]] };
  for (const final of [false, true]) {
    const back = schema.decode(F, schema.encode(F, value, { final }), { final });
    assert.ok(Array.isArray(back.d) && same(back.d, value.d), `d: ${util.inspect(back.d)}`);
    assert.ok(same(back.f, value.f), `f: ${util.inspect(back.f)}`);
    assert.ok(Array.isArray(back.m) && back.m.length === 2, util.inspect(back.m));
    assert.ok(same(back.m.map(([k]) => k), [-0, 0]) && same(back.m.map(([, x]) => x), [1, 2]));
    assert.ok(same(back.h.map(([k]) => k), [0, -0]) && same(back.h.map(([, x]) => x), [-0, 0.5]));
    // the core collapses duplicates on read (the last wins in the first one's place),
    // -0 and 0 stay apart
    const dup = schema.decode(F, schema.encode(F, { d: [1.5, -0, 1.5, 0, -0], m: [[-0, 1], [-0, 3]] }, { final }), { final });
    assert.ok(same(dup.d, [1.5, -0, 0]), util.inspect(dup.d));
    assert.deepEqual(dup.m, [[-0, 3]]);
    assert.ok(Object.is(dup.m[0][0], -0));
  }
  // JSON both ways
  const v = schema.fromJsonString(F, '{"d":[-0.0,0.0],"f":[-0.0]}');
  assert.ok(same(v.d, [-0, 0]) && same(v.f, [-0]));
  assert.match(schema.toJsonString(F, v), /^\{"d":\[-0(\.0)?,0(\.0)?\],"f":\[-0(\.0)?\]/);
  // from the constructor: Sets and Maps become arrays; the defaults are arrays
  const made = new F({ d: new Set([1.5, 2.5]), m: new Map([[0.5, 1]]) });
  assert.deepEqual(made.d, [1.5, 2.5]);
  assert.deepEqual(made.m, [[0.5, 1]]);
  const empty = new F();
  assert.ok(Array.isArray(empty.d) && Array.isArray(empty.f) && Array.isArray(empty.m) && Array.isArray(empty.h));
  // equality tells -0 from 0
  assert.ok(!new F({ d: [-0] }).equals(new F({ d: [0] })));
  assert.ok(new F({ d: [-0] }).equals(new F({ d: [-0] })));
});

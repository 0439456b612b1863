'use strict';
// Fields named like the members every object inherits (__proto__, constructor, toString,
// hasOwnProperty, valueOf, ...): an absent one takes its default, never the inherited
// member, in encode, decode, JSON and the constructor from a plain object.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { fbe } = require('./helpers');

const TEXT = `package members
struct Members {
  int32 __proto__ = 7;
  string constructor = "c";
  int32 toString;
  bool hasOwnProperty;
  double valueOf = 1.5;
  int32 isPrototypeOf;
}
struct Derived : Members { int32 toLocaleString = 3; }
struct Holder { Members m; int32{string} byName; }
`;

function load() { return fbe.loadString(TEXT, { name: 'members.fbe' }); }

const DEFAULTS = [['__proto__', 7], ['constructor', 'c'], ['toString', 0], ['hasOwnProperty', false],
  ['valueOf', 1.5], ['isPrototypeOf', 0]];

function assertDefaults(v, cls, extra = []) {
  assert.equal(Object.getPrototypeOf(v), cls.prototype);
  for (const [name, value] of [...DEFAULTS, ...extra]) {
    assert.ok(Object.prototype.hasOwnProperty.call(v, name), `own ${name}`);
    assert.deepEqual(v[name], value, name);
  }
}

test('the constructor from a plain object takes defaults for absent members', () => {
  const { Members, Derived } = load();
  assertDefaults(new Members({}), Members);
  assertDefaults(new Members(), Members);
  assertDefaults(new Derived({}), Derived, [['toLocaleString', 3]]);
  const given = new Members({ toString: 5, constructor: 'k' });
  assert.equal(given.toString, 5);
  assert.equal(given.constructor, 'k');
  assert.equal(given.valueOf, 1.5);
  // an own __proto__ (JSON.parse makes one) is a field value, not a prototype
  const parsed = new Members(JSON.parse('{"__proto__": 9}'));
  assert.equal(Object.getPrototypeOf(parsed), Members.prototype);
  assert.equal(parsed.__proto__, 9); // eslint-disable-line no-proto
});

test('encode of a plain object without the members is the encode of the defaults', () => {
  const schema = load();
  const { Members } = schema;
  for (const final of [false, true]) {
    const expected = new Members().encode({ final });
    assert.deepEqual(schema.encode('Members', {}, { final }), expected);
    assert.deepEqual(schema.encode('Derived', {}, { final }).length > 0, true);
    const back = Members.decode(expected, { final });
    assertDefaults(back, Members);
    assert.ok(back.equals(new Members()));
    assert.deepEqual(Members.decode(schema.encode('Members', { isPrototypeOf: -2 }, { final }), { final }).isPrototypeOf, -2);
  }
  const holder = schema.encode('Holder', { m: {}, byName: { __proto__: null, toString: 1 } });
  const h = schema.decode('Holder', holder);
  assertDefaults(h.m, Members);
  assert.deepEqual([...h.byName], [['toString', 1]]);
});

test('JSON both ways keeps the members as fields', () => {
  const schema = load();
  const { Members, Holder } = schema;
  const text = schema.toJsonString('Members', {});
  assert.equal(text, '{"__proto__":7,"constructor":"c","toString":0,"hasOwnProperty":false,"valueOf":1.5,"isPrototypeOf":0}');
  assertDefaults(Members.fromJsonString(text), Members);
  assertDefaults(Members.fromJsonString('{}'), Members);
  // JSON.stringify through toJSON: an own "__proto__" key, and map keys alike
  const plain = JSON.parse(JSON.stringify(new Holder({ byName: new Map([['__proto__', 4]]) })));
  assert.equal(Object.getOwnPropertyDescriptor(plain.m, '__proto__').value, 7);
  assert.equal(Object.getOwnPropertyDescriptor(plain.byName, '__proto__').value, 4);
});

'use strict';
// The input table (docs/INPUT.md), one case per row id: what each field kind accepts
// (encoded, decoded, the value it reads back as) and what it refuses, with the status,
// the core's message and the path, the same through every way a value comes in: a
// constructor (unknown names refused at once, values when encoded), a plain object to
// schema.encode, assignment to a field of an instance, and Cls.fromObject.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { fbe, schemas } = require('./helpers');

const schema = fbe.loadString(`package input
import proto
struct Row {
  bool b; int32 i; uint8 u8; int64 i64; uint64 u64; char c; wchar wc; float f; double d;
  decimal dec; timestamp ts; uuid id; string s; bytes by; proto.OrderSide side; proto.State state;
  int32? oi; int32[3] arr; int32[] vec; int32! set; string<int32> m; proto.Order order; proto.Order? maybe;
}`, { include: [schemas], name: 'input.fbe' });
const { Row } = schema;
const { OrderSide, State, Order, Balance } = schema;

const T = 'FBE_ERR_TYPE', R = 'FBE_ERR_RANGE', A = 'FBE_ERR_ARGUMENT', U = 'FBE_ERR_UNKNOWN_FIELD';

// [row id, field, accepted: [[given, read back as]...], refused: [[given, status, message, path]...]]
// (a path left out is the field itself)
const ROWS = [
  ['bool', 'b', [[true, true], [false, false]], [
    [1, T, 'expected bool, got an integer'], ['true', T, 'expected bool, got a string'],
  ]],
  ['int', 'i', [[5, 5], [-7n, -7], [2 ** 31 - 1, 2 ** 31 - 1]], [
    [1.5, T, 'expected int32, got a float'], [1.0 + Number.EPSILON * 4, T, 'expected int32, got a float'],
    ['1', T, 'expected int32, got a string'], [2 ** 31, R, 'value 2147483648 does not fit int32'],
    [2n ** 60n, R, 'value 1152921504606846976 does not fit int32'],
  ]],
  ['int', 'u8', [[255, 255]], [[300, R, 'value 300 does not fit uint8'], [-1, R, 'value -1 does not fit uint8']]],
  ['int', 'i64', [[-(2n ** 63n), -(2n ** 63n)], [2 ** 53, 2n ** 53n]], [
    [1.5, T, 'expected int64, got a float'], [2n ** 63n, R, 'value 9223372036854775808 does not fit int64'],
  ]],
  ['int', 'u64', [[2n ** 64n - 1n, 2n ** 64n - 1n]], [
    [2n ** 64n, R, 'value 18446744073709551616 does not fit uint64'], [-1n, R, 'value -1 does not fit uint64'],
  ]],
  ['char', 'c', [['a', 97], [97, 97], ['é', 233]], [
    ['ab', A, "'ab' is not one character"], ['', A, "'' is not one character"],
    ['ф', R, 'value 1092 does not fit char'], [256, R, 'value 256 does not fit char'],
    [true, T, 'expected char, got a boolean'],
  ]],
  ['char', 'wc', [['ф', 0x444], ['😀', 0x1f600]], [['ab', A, "'ab' is not one character"]]],
  ['float', 'f', [[1.5, 1.5], [3n, 3], [NaN, NaN], [-Infinity, -Infinity]], [
    [1e39, R, 'value 1e+39 does not fit float'], ['1.5', T, 'expected float, got a string'],
  ]],
  ['float', 'd', [[1e300, 1e300], [-0, -0]], [[null, T, 'expected double, got null']]],
  ['decimal', 'dec', [['123.45', '123.45'], ['1E-7', '1E-7'], [5n, '5'], ['-0.500', '-0.500']], [
    [1.5, T, 'expected decimal, got a float (binary floats are not exact: pass a decimal or its text)'],
    [2, T, 'expected decimal, got a float (binary floats are not exact: pass a decimal or its text)'],
    ['abc', A, "'abc' is not a decimal number"],
    ['1e40', R, "decimal 1e40 does not fit FBE's decimal (96-bit coefficient, scale 0..28)"],
  ]],
  ['timestamp', 'ts', [[5n, 5n], [new Date(1000), 1000000000n]], [
    [5, T, 'expected timestamp, got a number (ambiguous: pass a bigint of nanoseconds or a Date)'],
    [Date.now(), T, 'expected timestamp, got a number (ambiguous: pass a bigint of nanoseconds or a Date)'],
    [-1n, R, 'value -1 does not fit timestamp'], ['now', T, 'expected timestamp, got a string'],
  ]],
  ['uuid', 'id', [['123E4567-E89B-12D3-A456-426655440000', '123e4567-e89b-12d3-a456-426655440000']], [
    ['xyz', A, "'xyz' is not a uuid (8-4-4-4-12 hexadecimal digits)"], [5, T, 'expected uuid, got an integer'],
    [Buffer.alloc(16), T, 'expected uuid, got bytes'],
  ]],
  ['string', 's', [['héllo 😀', 'héllo 😀']], [
    [5, T, 'expected string, got an integer'], [Buffer.from('x'), T, 'expected string, got bytes'],
    ['a\ud800', A, /^string is not valid UTF-8/],
  ]],
  ['bytes', 'by', [[Buffer.from('ab'), Buffer.from('ab')], [new Uint8Array([1]), Buffer.from([1])],
    [new Uint8Array([7, 8]).buffer, Buffer.from([7, 8])]], [
    ['abc', T, 'expected bytes, got a string'], [[1, 2], T, 'expected bytes, got a list'],
  ]],
  ['enum', 'side', [[OrderSide.sell, 1], [7, 7], ['sell', 1]], [
    ['sideways', A, "'sideways' is not a value of proto.OrderSide"],
    ['selll', A, "'selll' is not a value of proto.OrderSide (did you mean 'sell'?)"],
    [256, R, /^value 256 does not fit /], [{}, T, 'expected proto.OrderSide, got a map'],
  ]],
  ['flags', 'state', [[State.good, 6], [70, 70], ['initialized|calculated', 6], ['good|64', 70]], [
    ['bad|x', A, "'x' is not a value of proto.State"],
    ['initialised', A, "'initialised' is not a value of proto.State (did you mean 'initialized'?)"],
    [true, T, 'expected proto.State, got a boolean'],
  ]],
  ['optional', 'oi', [[null, null], [undefined, null], [5, 5]], [
    ['x', T, 'expected int32 or null, got a string'],
  ]],
  ['optional', 'maybe', [[null, null]], [[5, T, 'expected proto.Order or null, got an integer']]],
  ['array', 'arr', [[[1, 2, 3], [1, 2, 3]]], [
    [[1, 2], R, 'expected 3 elements for array[3] of int32, got 2'],
    [5, T, 'expected array[3] of int32, got an integer'], [[1, 2, 'x'], T, 'expected int32, got a string', 'arr[2]'],
  ]],
  ['sequence', 'vec', [[[1, 2], [1, 2]], [[], []]], [
    [new Set([1]), T, 'expected vector of int32, got a set'], [{ 0: 1 }, T, 'expected vector of int32, got a map'],
    [[1, null], T, 'expected int32, got null', 'vec[1]'],
  ]],
  ['set', 'set', [[new Set([2, 1]), new Set([2, 1])], [[1, 2, 1], new Set([1, 2])]], [
    [5, T, 'expected set of int32, got an integer'], [[1, 'x'], T, 'expected int32, got a string', 'set[1]'],
  ]],
  ['map', 'm', [[new Map([[1, 'a']]), new Map([[1, 'a']])], [{ 2: 'b', '-3': 'c' }, new Map([[2, 'b'], [-3, 'c']])],
    [[[4, 'd']], new Map([[4, 'd']])]], [
    [5, T, 'expected map of int32 to string, got an integer'],
    [new Map([[1, 'a'], ['x', 'b']]), T, 'expected int32, got a string', 'm[1][key]'],
    [{ x: 'a' }, T, 'expected int32, got a string', 'm[0][key]'],
    [new Map([[1, 2]]), T, 'expected string, got an integer', 'm[0]'],
  ]],
  ['struct', 'order', [[new Order({ id: 1 }), new Order({ id: 1 })], [{ id: 2, symbol: 'X' }, new Order({ id: 2, symbol: 'X' })]], [
    [new Balance(), T, 'expected proto.Order, got a struct proto.Balance'],
    [{ symbl: 'x' }, U, "unknown field 'symbl' of proto.Order (did you mean 'symbol'?)"],
    [{ id: 'x' }, T, 'expected int32, got a string', 'order.id'],
    [5, T, 'expected proto.Order, got an integer'], [new Map(), T, 'expected proto.Order, got a map'],
    [[], T, 'expected proto.Order, got a list'],
  ]],
  ['null', 'i', [], [[null, T, 'expected int32, got null']]],
  ['null', 'order', [], [[null, T, 'expected proto.Order, got null']]],
  ['null', 's', [], [[null, T, 'expected string, got null']]],
];

/** The error fn throws: an FbeError. */
function errorOf(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof fbe.FbeError, e && e.stack);
    return e;
  }
  return assert.fail('not refused');
}

/** Every way a value of the field comes in: the error each gives. */
function refusals(field, value) {
  return {
    constructor: errorOf(() => new Row({ [field]: value }).encode()),
    'plain object': errorOf(() => schema.encode('Row', { [field]: value })),
    assignment: errorOf(() => {
      const row = new Row();
      row[field] = value;
      row.encode({ final: true });
    }),
    fromObject: errorOf(() => Row.fromObject({ [field]: value })),
  };
}

const shown = (v) => {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Map) return `Map(${JSON.stringify([...v], (k, x) => (typeof x === 'bigint' ? `${x}n` : x))})`;
  return String(v);
};

for (const [id, field, accepted, refused] of ROWS) {
  test(`input row "${id}": field ${field}`, () => {
    for (const [given, want] of accepted) {
      const row = new Row({ [field]: given });
      for (const final of [false, true]) {
        const back = Row.decode(row.encode({ final }), { final });
        const got = back[field];
        if (want instanceof Map || want instanceof Set) assert.deepEqual([...got], [...want], `${field} = ${shown(given)}`);
        else if (want instanceof Order) assert.ok(got.equals(want), `${field} = ${shown(given)}: ${got}`);
        else assert.deepEqual(got, want, `${field} = ${shown(given)}`);
      }
      assert.ok(Row.fromObject({ [field]: given }).equals(Row.decode(row.encode())), `fromObject ${field} = ${shown(given)}`);
    }
    for (const [given, status, message, path = field] of refused) {
      for (const [how, err] of Object.entries(refusals(field, given))) {
        const what = `${how}: ${field} = ${shown(given)}`;
        assert.equal(err.code, status, `${what}: ${err.message}`);
        if (message instanceof RegExp) assert.match(err.reason, message, what);
        else assert.equal(err.reason, message, what);
        assert.equal(err.path, path, what);
        assert.equal(err.message, `${err.reason} at '${path}'`, what);
        assert.ok(err instanceof fbe[{ [T]: 'TypeMismatchError', [R]: 'RangeError', [A]: 'ArgumentError', [U]: 'UnknownFieldError' }[status]]);
      }
    }
  });
}

test('input row "struct": unknown names refused at once, with the nearest name', () => {
  const cases = [
    [() => new Order({ symbl: 'x' }), "unknown field 'symbl' of proto.Order (did you mean 'symbol'?)", ''],
    [() => new Order({ zzz: 1 }), "unknown field 'zzz' of proto.Order", ''],
    [() => new Row({ order: { symbl: 'x' } }), "unknown field 'symbl' of proto.Order (did you mean 'symbol'?)", 'order'],
    [() => schema.get('proto.Account').fromObject({ orders: [{}, { prise: 1 }] }),
      "unknown field 'prise' of proto.Order (did you mean 'price'?)", 'orders[1]'],
    [() => new (schema.get('proto.Account'))({ orders: [{}, { prise: 1 }] }),
      "unknown field 'prise' of proto.Order (did you mean 'price'?)", 'orders[1]'],
  ];
  for (const [fn, message, path] of cases) {
    const err = errorOf(fn);
    assert.ok(err instanceof fbe.UnknownFieldError && err instanceof fbe.NotFoundError);
    assert.equal(err.code, U);
    assert.equal(err.reason, message);
    assert.equal(err.path, path);
  }
  // a field named like a member every object inherits is read as its own property only
  assert.equal(new Order(JSON.parse('{"id": 3}')).id, 3);
  assert.throws(() => new Order(JSON.parse('{"__proto__": 3}')), fbe.UnknownFieldError);
  // the instance of a derived struct is one of its base (protoex.Balance : proto.Balance)
  const ex = fbe.loadPackage('protoex', { include: [schemas] });
  const derived = new ex.Balance({ currency: 'EUR', amount: 2, locked: 1 });
  const base = ex.get('proto.Balance');
  assert.equal(base.decode(ex.encode('proto.Balance', derived)).currency, 'EUR');
});

test('input: JSON reads unknown members as an error, unless ignoreUnknown', () => {
  const text = '{"id":1,"symbl":"x"}';
  const err = errorOf(() => Order.fromJsonString(text));
  assert.equal(err.code, U);
  assert.match(err.reason, /^unknown field 'symbl' of proto\.Order/);
  assert.equal(Order.fromJsonString(text, { ignoreUnknown: true }).id, 1);
  assert.equal(schema.fromJsonString('proto.Order', text, { ignoreUnknown: true }).id, 1);
  assert.throws(() => schema.fromJsonString('proto.Order', text), fbe.UnknownFieldError);
});

test('input: a type name the schema does not have', () => {
  for (const fn of [() => schema.get('Rwo'), () => schema.struct('proto.Ordr'), () => schema.encode('Rwo', {}),
    () => schema.enum('proto.Stat')]) {
    const err = errorOf(fn);
    assert.ok(err instanceof fbe.NotFoundError);
    assert.equal(err.code, 'FBE_ERR_NOT_FOUND');
  }
  assert.equal(schema.has('Rwo'), false);
});

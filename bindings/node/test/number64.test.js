'use strict';
// A 64-bit integer field given a plain number (a safe integer) is written from the
// number's two 32-bit halves (lib/codegen.js wn64), not through a bigint: the bytes must
// be those of the same value given as a bigint, at every edge of the two halves, in
// fields, collections and optionals, both models; and what is not a safe integer still
// goes the general way (a bigint's range, a number past 2^53, a fraction, NaN).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { fbe } = require('./helpers');

const SCHEMA = `package n64
struct S { int64 i; uint64 u; int64[] vi; uint64? ou; int64? oi; }
`;

const EDGES = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 32 - 1, 2 ** 32, -(2 ** 32), 2 ** 32 + 1,
  -(2 ** 32) - 1, 2 ** 52, -(2 ** 52), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 123456789012345, -0];

test('a safe-integer number writes the bytes of its bigint, in every place a 64-bit integer is', () => {
  const s = fbe.loadString(SCHEMA, { name: 'n64.fbe' });
  for (const x of EDGES) {
    const big = BigInt(x);
    const unsigned = x >= 0 && !Object.is(x, -0) ? x : 7;
    const asNumbers = new s.S({ i: x, u: unsigned, vi: [x, 1, x], ou: unsigned, oi: x });
    const asBigints = new s.S({ i: big, u: BigInt(unsigned), vi: [big, 1n, big], ou: BigInt(unsigned), oi: big });
    for (const final of [false, true]) {
      assert.deepEqual(asNumbers.encode({ final }), asBigints.encode({ final }), `${x}, final ${final}`);
    }
    assert.equal(s.S.decode(asNumbers.encode()).i, big);
  }
});

test('what is not a safe integer keeps the general rule', () => {
  const s = fbe.loadString(SCHEMA, { name: 'n64.fbe' });
  // an integral number past 2^53 is the exact value it holds
  assert.equal(s.S.decode(new s.S({ i: 2 ** 60 }).encode()).i, 2n ** 60n);
  assert.equal(s.S.decode(new s.S({ u: 2 ** 63 }).encode()).u, 2n ** 63n);
  const refused = (v) => assert.throws(() => new s.S(v).encode(), fbe.FbeError, JSON.stringify(String(Object.values(v)[0])));
  refused({ i: 1.5 });
  refused({ i: NaN });
  refused({ i: Infinity });
  refused({ u: -1 });
  refused({ u: -(2 ** 60) });
  refused({ i: 2 ** 64 });
  refused({ vi: [1, 0.5] });
});

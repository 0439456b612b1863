#!/usr/bin/env node
'use strict';
// The Account workload (the reference README's value, three orders) in Node.js:
// libfbe (bindings/node) next to msgpackr (plain map form), protobufjs (message
// objects in and out) and JSON, encode and decode, in one run.
//
//   node bench.js [--quick] [--json] [--runs N] [--min-time SECONDS]
//
// Measured in interleaved rounds, as benchmarks/c/bench.c: every round runs every
// figure once for at least --min-time, so a slow spell of a shared machine hits all
// figures alike; each figure is the median over the rounds (default 7 rounds of
// 0.2 s; --quick: 3 of 0.05 s, for CI), spread = (slowest - fastest) / median.
// --json prints one JSON object per line:
//   {"lang":"node","impl":"libfbe","workload":"account","model":"standard","op":"encode",
//    "ns":410.2,"spread_pct":3.1,"size":252}
const path = require('path');
const assert = require('assert');

const repo = path.resolve(__dirname, '..', '..');
const fbe = require(path.join(repo, 'bindings', 'node'));

function peer(name) {
  try {
    return require(name);
  } catch (e) {
    console.error(`bench: ${name} is not installed; run \`npm ci\` in benchmarks/node (ci/setup.sh does)`);
    process.exit(1);
  }
  return null;
}
const msgpackr = peer('msgpackr');
const protobuf = peer('protobufjs');

// ---- options
const args = process.argv.slice(2);
let runs = 7;
let minTime = 0.2;
let json = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--quick') {
    runs = 3;
    minTime = 0.05;
  } else if (a === '--json') {
    json = true;
  } else if (a === '--runs' && i + 1 < args.length) {
    runs = Number(args[++i]);
  } else if (a === '--min-time' && i + 1 < args.length) {
    minTime = Number(args[++i]);
  } else {
    console.error('usage: node bench.js [--quick] [--json] [--runs N] [--min-time SECONDS]');
    process.exit(a === '-h' || a === '--help' ? 0 : 2);
  }
}
if (!(runs >= 1 && runs <= 100) || !(minTime > 0)) {
  console.error('bench: --runs must be 1..100 and --min-time positive');
  process.exit(2);
}

// ---- the value, in each library's own form
const plain = {
  id: 1,
  name: 'Test',
  state: 6,
  wallet: { currency: 'USD', amount: 1000.0 },
  asset: { currency: 'EUR', amount: 100.0 },
  orders: [
    { id: 1, symbol: 'EURUSD', side: 0, type: 0, price: 1.23456, volume: 1000.0 },
    { id: 2, symbol: 'EURUSD', side: 1, type: 1, price: 1.0, volume: 100.0 },
    { id: 3, symbol: 'EURUSD', side: 0, type: 2, price: 1.5, volume: 10.0 },
  ],
};

const schema = fbe.load(path.join(repo, 'schemas', 'proto.fbe'), { include: [path.join(repo, 'schemas')] });
const { Account } = schema;
const account = new Account(plain);

const packr = new msgpackr.Packr({ useRecords: false });

const root = protobuf.parse(`
  syntax = "proto3";
  message Balance { string currency = 1; double amount = 2; }
  message Order { int32 id = 1; string symbol = 2; int32 side = 3; int32 type = 4; double price = 5; double volume = 6; }
  message Account { int32 id = 1; string name = 2; int32 state = 3; Balance wallet = 4; Balance asset = 5; repeated Order orders = 6; }
`).root;
const PbAccount = root.lookupType('Account');
const pbMessage = PbAccount.fromObject(plain);

// ---- the figures: one encode and one decode per implementation
const fbeStandard = account.encode();
const fbeFinal = account.encode({ final: true });
const packed = packr.pack(plain);
const pbBytes = PbAccount.encode(pbMessage).finish();
const jsonText = JSON.stringify(plain);

// every decode gives the value back before anything is timed
assert.deepEqual(Account.decode(fbeStandard).toJSON(), plain);
assert.deepEqual(Account.decode(fbeFinal, { final: true }).toJSON(), plain);
assert.deepEqual(packr.unpack(packed), plain);
assert.deepEqual(PbAccount.toObject(PbAccount.decode(pbBytes), { defaults: true }), plain);
assert.deepEqual(JSON.parse(jsonText), plain);

let sink = 0;
const figures = [
  { impl: 'libfbe', model: 'standard', op: 'encode', size: fbeStandard.length, fn: () => account.encode().length },
  { impl: 'libfbe', model: 'standard', op: 'decode', size: fbeStandard.length, fn: () => Account.decode(fbeStandard).id },
  { impl: 'libfbe', model: 'final', op: 'encode', size: fbeFinal.length, fn: () => account.encode({ final: true }).length },
  { impl: 'libfbe', model: 'final', op: 'decode', size: fbeFinal.length,
    fn: () => Account.decode(fbeFinal, { final: true }).id },
  { impl: 'msgpackr', model: 'standard', op: 'encode', size: packed.length, fn: () => packr.pack(plain).length },
  { impl: 'msgpackr', model: 'standard', op: 'decode', size: packed.length, fn: () => packr.unpack(packed).id },
  { impl: 'protobufjs', model: 'standard', op: 'encode', size: pbBytes.length,
    fn: () => PbAccount.encode(pbMessage).finish().length },
  { impl: 'protobufjs', model: 'standard', op: 'decode', size: pbBytes.length, fn: () => PbAccount.decode(pbBytes).id },
  { impl: 'JSON', model: 'standard', op: 'encode', size: Buffer.byteLength(jsonText), fn: () => JSON.stringify(plain).length },
  { impl: 'JSON', model: 'standard', op: 'decode', size: Buffer.byteLength(jsonText), fn: () => JSON.parse(jsonText).id },
];

function now() {
  return Number(process.hrtime.bigint());
}

/** Iterations of about 1 ms, so the clock is read rarely (and the JIT warms up). */
function calibrate(fn) {
  let batch = 1;
  for (;;) {
    const t0 = now();
    for (let i = 0; i < batch; i++) sink += fn();
    if (now() - t0 >= 1e6 || batch >= 1 << 24) return batch;
    batch *= 2;
  }
}

/** One run: whole batches for at least minTime seconds; ns per operation. */
function runOnce(fn, batch) {
  let iterations = 0;
  const t0 = now();
  let elapsed;
  do {
    for (let i = 0; i < batch; i++) sink += fn();
    iterations += batch;
    elapsed = now() - t0;
  } while (elapsed < minTime * 1e9);
  return elapsed / iterations;
}

for (const f of figures) {
  calibrate(f.fn);
  f.batch = calibrate(f.fn);
  f.samples = [];
}
for (let r = 0; r < runs; r++) {
  for (const f of figures) f.samples.push(runOnce(f.fn, f.batch));
}

function summarize(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median, spread: ((s[s.length - 1] - s[0]) / median) * 100 };
}

if (json) {
  for (const f of figures) {
    const { median, spread } = summarize(f.samples);
    console.log(JSON.stringify({
      lang: 'node', impl: f.impl, workload: 'account', model: f.model, op: f.op,
      ns: Math.round(median * 10) / 10, spread_pct: Math.round(spread * 10) / 10, size: f.size,
    }));
  }
} else {
  console.log(`libfbe ${fbe.version} Node.js ${process.version} benchmark: proto.Account (3 orders), ` +
    `median of ${runs} interleaved rounds of >= ${minTime.toFixed(2)} s each`);
  console.log(`${'impl'.padEnd(11)} ${'model'.padEnd(9)} ${'op'.padEnd(7)} ${'bytes'.padStart(6)} ` +
    `${'ns/op'.padStart(9)} ${'spread'.padStart(8)}`);
  for (const f of figures) {
    const { median, spread } = summarize(f.samples);
    console.log(`${f.impl.padEnd(11)} ${f.model.padEnd(9)} ${f.op.padEnd(7)} ${String(f.size).padStart(6)} ` +
      `${median.toFixed(1).padStart(9)} ${`${spread.toFixed(1)}%`.padStart(8)}`);
  }
}
if (sink === -1) console.log(sink); // keeps the results alive

#!/usr/bin/env node
'use strict';
// The workloads account (the reference README's Account, three orders), small and
// large (schemas/bench/), read from benchmarks/data/*.json, in Node.js: libfbe
// (bindings/node) next to msgpackr (plain map form), protobufjs (message objects in
// and out, classes from benchmarks/schemas/bench.proto) and JSON, encode and decode,
// in one run. libfbe's decode is the default, verifying one; decode_trusted (without
// the verify, { trusted: true }) is measured beside it. decode_all is decode plus
// reading every field once into JavaScript values (readAll below, the same for
// everyone). libfbe-view is Cls.view(bytes, { model }): its decode opens the view
// (verifying) and reads one field, its decode_all opens it and reads every field; it is
// skipped (a line "skipped: ..." on stderr) while the binding has no view.
//
//   node bench.js [--quick|--smoke] [--json] [--runs N] [--min-time SECONDS]
//
// Measured in interleaved rounds, as benchmarks/c/bench.c: every round runs every
// figure once for at least --min-time, so a slow spell of a shared machine hits all
// figures alike; each figure is the median over the rounds (default 7 rounds of
// 0.2 s; --quick: 3 of 0.05 s, for CI; --smoke: one round of a few operations, to
// prove every peer round-trips its data), spread = (slowest - fastest) / median.
// --json prints one JSON object per line:
//   {"lang":"node","impl":"libfbe","workload":"account","model":"standard","op":"encode",
//    "ns":410.2,"spread_pct":3.1,"size":252,"rounds":[<ns per operation in each round>]}
const fs = require('fs');
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
let smoke = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--quick') {
    runs = 3;
    minTime = 0.05;
  } else if (a === '--smoke') {
    runs = 1;
    minTime = 1e-9;
    smoke = true;
  } else if (a === '--json') {
    json = true;
  } else if (a === '--runs' && i + 1 < args.length) {
    runs = Number(args[++i]);
  } else if (a === '--min-time' && i + 1 < args.length) {
    minTime = Number(args[++i]);
  } else {
    console.error('usage: node bench.js [--quick|--smoke] [--json] [--runs N] [--min-time SECONDS]');
    process.exit(a === '-h' || a === '--help' ? 0 : 2);
  }
}
if (!(runs >= 1 && runs <= 100) || !(minTime > 0)) {
  console.error('bench: --runs must be 1..100 and --min-time positive');
  process.exit(2);
}

// ---- the workloads: each value in each library's own form
const WORKLOADS = [
  { name: 'account', file: 'proto.fbe', type: 'Account' },
  { name: 'small', file: 'bench/small.fbe', type: 'Small' },
  { name: 'large', file: 'bench/large.fbe', type: 'Large' },
];
const pbRoot = protobuf.loadSync(path.join(repo, 'benchmarks', 'schemas', 'bench.proto'));
const packr = new msgpackr.Packr({ useRecords: false, int64AsType: 'bigint' });

// One form to compare values in: 64-bit integers (bigint, Long, or numbers past 32
// bits) as decimal strings, as libfbe's toJSON writes them.
function canon(value) {
  return JSON.parse(JSON.stringify(value, (k, x) => {
    if (typeof x === 'bigint' || (typeof x === 'number' && Number.isInteger(x) && Math.abs(x) >= 2 ** 31)) {
      return String(x);
    }
    return x;
  }));
}

// ---- reading every field once (decode_all), one function per workload, the same for
// every implementation (plain objects, protobufjs messages, libfbe values and views all
// read by property); returns the values, so setup can check them. Each implementation
// gets its own copy, compiled from this source (readers()), so the JIT's inline caches
// in a reader see one implementation's objects, as in a program that reads one kind.
const READERS = `({
  account(a) {
    const out = [a.id, a.name, a.state, a.wallet.currency, a.wallet.amount];
    const asset = a.asset;
    out.push(asset !== null && asset !== undefined);
    if (asset !== null && asset !== undefined) out.push(asset.currency, asset.amount);
    for (const o of a.orders) out.push(o.id, o.symbol, o.side, o.type, o.price, o.volume);
    return out;
  },
  small: (s) => [s.name, s.spouse, s.siblings, s.money, s.birthday],
  large(l) {
    const out = [];
    for (const id of l.ids) out.push(id);
    for (const n of l.names) out.push(n);
    return out;
  },
})`;
const readers = () => new Function(`return ${READERS};`)(); // eslint-disable-line no-new-func
// the one field libfbe-view's decode reads
const READ_ONE = { account: (v) => v.id, small: (v) => v.name, large: (v) => v.ids.length };
const OPS = ['encode', 'decode', 'decode_trusted', 'decode_all']; // the order within a round
const asText = (values) => values.map(String); // one form for numbers, bigints, Longs

let sink = 0;
let viewSkipped = false;
const figures = [];
const trusted = { trusted: true };
const trustedFinal = { final: true, trusted: true };
for (const w of WORKLOADS) {
  const text = fs.readFileSync(path.join(repo, 'benchmarks', 'data', `${w.name}.json`), 'utf8');
  const schema = fbe.load(path.join(repo, 'schemas', w.file),
    { include: [path.join(repo, 'schemas'), path.dirname(path.join(repo, 'schemas', w.file))] });
  const Cls = schema[w.type];
  const value = Cls.fromJsonString(text);
  const expected = value.toJSON();
  // The plain JS form: JSON numbers, except the timestamp past 2^53, a bigint as
  // libfbe gives it; JSON and protobufjs take 64-bit integers as decimal strings
  // (proto3's JSON mapping), as JSON.stringify cannot write a bigint.
  const plain = JSON.parse(text);
  if (w.name === 'small') plain.birthday = value.birthday;
  const jsonSafe = JSON.parse(JSON.stringify(plain, (k, x) => (typeof x === 'bigint' ? String(x) : x)));

  const fbeStandard = value.encode();
  const fbeFinal = value.encode({ final: true });
  const packed = packr.pack(plain);
  const Pb = pbRoot.lookupType(`fbebench.${w.type}`);
  const pbMessage = Pb.fromObject(jsonSafe);
  const pbBytes = Pb.encode(pbMessage).finish();
  const jsonText = JSON.stringify(jsonSafe);

  // every decode gives the value back before anything is timed
  assert.deepEqual(canon(new Cls(plain).toJSON()), canon(expected), `libfbe ${w.name}: plain form`);
  assert.deepEqual(Cls.decode(fbeStandard).toJSON(), expected, `libfbe ${w.name}: standard`);
  assert.deepEqual(Cls.decode(fbeFinal, { final: true }).toJSON(), expected, `libfbe ${w.name}: final`);
  assert.deepEqual(Cls.decode(fbeStandard, trusted).toJSON(), expected, `libfbe ${w.name}: standard, trusted`);
  assert.deepEqual(Cls.decode(fbeFinal, trustedFinal).toJSON(), expected, `libfbe ${w.name}: final, trusted`);
  assert.deepEqual(canon(packr.unpack(packed)), canon(expected), `msgpackr ${w.name}`);
  assert.deepEqual(canon(Pb.toObject(Pb.decode(pbBytes), { defaults: true, longs: String })), canon(expected),
    `protobufjs ${w.name}`);
  assert.deepEqual(canon(JSON.parse(jsonText)), canon(expected), `JSON ${w.name}`);

  const f = (impl, model, op, size, fn) => figures.push({ impl, workload: w.name, model, op, size, fn });
  const expectedAll = asText(readers()[w.name](plain));
  // decode_all: decode, then read every field; checked once against the data's fields
  const all = (impl, model, size, decode) => {
    const readAll = readers()[w.name];
    assert.deepEqual(asText(readAll(decode())), expectedAll, `${impl} ${model} ${w.name}: decode_all`);
    f(impl, model, 'decode_all', size, () => readAll(decode()).length);
  };
  f('libfbe', 'standard', 'encode', fbeStandard.length, () => value.encode().length);
  f('libfbe', 'standard', 'decode', fbeStandard.length, () => (Cls.decode(fbeStandard) ? 1 : 0));
  f('libfbe', 'standard', 'decode_trusted', fbeStandard.length, () => (Cls.decode(fbeStandard, trusted) ? 1 : 0));
  f('libfbe', 'final', 'encode', fbeFinal.length, () => value.encode({ final: true }).length);
  f('libfbe', 'final', 'decode', fbeFinal.length, () => (Cls.decode(fbeFinal, { final: true }) ? 1 : 0));
  f('libfbe', 'final', 'decode_trusted', fbeFinal.length, () => (Cls.decode(fbeFinal, trustedFinal) ? 1 : 0));
  all('libfbe', 'standard', fbeStandard.length, () => Cls.decode(fbeStandard));
  all('libfbe', 'final', fbeFinal.length, () => Cls.decode(fbeFinal, { final: true }));
  if (typeof Cls.view !== 'function') {
    if (!viewSkipped) console.error('skipped: libfbe-view (the fbe addon has no view yet)');
    viewSkipped = true;
  } else {
    const readOne = READ_ONE[w.name];
    for (const [model, bytes] of [['standard', fbeStandard], ['final', fbeFinal]]) {
      const o = { model };
      assert.equal(String(readOne(Cls.view(bytes, o))), String(readOne(plain)), `libfbe-view ${model} ${w.name}`);
      f('libfbe-view', model, 'decode', bytes.length, () => (readOne(Cls.view(bytes, o)) ? 1 : 0));
      all('libfbe-view', model, bytes.length, () => Cls.view(bytes, o));
    }
  }
  f('msgpackr', 'map', 'encode', packed.length, () => packr.pack(plain).length);
  f('msgpackr', 'map', 'decode', packed.length, () => (packr.unpack(packed) ? 1 : 0));
  all('msgpackr', 'map', packed.length, () => packr.unpack(packed));
  f('protobufjs', 'message', 'encode', pbBytes.length, () => Pb.encode(pbMessage).finish().length);
  f('protobufjs', 'message', 'decode', pbBytes.length, () => (Pb.decode(pbBytes) ? 1 : 0));
  all('protobufjs', 'message', pbBytes.length, () => Pb.decode(pbBytes));
  f('JSON', 'object', 'encode', Buffer.byteLength(jsonText), () => JSON.stringify(jsonSafe).length);
  f('JSON', 'object', 'decode', Buffer.byteLength(jsonText), () => (JSON.parse(jsonText) ? 1 : 0));
  all('JSON', 'object', Buffer.byteLength(jsonText), () => JSON.parse(jsonText));
}

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

// A round runs cell by cell (workload, then op), every implementation of a cell back to
// back, so the figures a ratio compares are measured moments apart.
const names = WORKLOADS.map((w) => w.name);
const schedule = [...figures].sort((a, b) => names.indexOf(a.workload) - names.indexOf(b.workload) ||
  OPS.indexOf(a.op) - OPS.indexOf(b.op));
for (const f of schedule) {
  if (!smoke) calibrate(f.fn);
  f.batch = smoke ? 2 : calibrate(f.fn);
  f.samples = [];
}
for (let r = 0; r < runs; r++) { // every other round backwards, so a drift within a cell cancels out
  for (const f of r % 2 === 0 ? schedule : [...schedule].reverse()) f.samples.push(runOnce(f.fn, f.batch));
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
      lang: 'node', impl: f.impl, workload: f.workload, model: f.model, op: f.op,
      ns: Math.round(median * 10) / 10, spread_pct: Math.round(spread * 10) / 10, size: f.size,
      rounds: f.samples.map((x) => Math.round(x * 100) / 100),
    }));
  }
} else {
  console.log(`libfbe ${fbe.version} Node.js ${process.version} benchmark: account, small, large; ` +
    `median of ${runs} interleaved rounds of >= ${minTime.toFixed(2)} s each`);
  console.log(`${'impl'.padEnd(11)} ${'workload'.padEnd(8)} ${'model'.padEnd(9)} ${'op'.padEnd(14)} ${'bytes'.padStart(6)} ` +
    `${'ns/op'.padStart(9)} ${'spread'.padStart(8)}`);
  for (const f of figures) {
    const { median, spread } = summarize(f.samples);
    console.log(`${f.impl.padEnd(11)} ${f.workload.padEnd(8)} ${f.model.padEnd(9)} ${f.op.padEnd(14)} ${String(f.size).padStart(6)} ` +
      `${median.toFixed(1).padStart(9)} ${`${spread.toFixed(1)}%`.padStart(8)}`);
  }
}
if (sink === -1) console.log(sink); // keeps the results alive

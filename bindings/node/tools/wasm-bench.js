#!/usr/bin/env node
'use strict';
// The WebAssembly build beside the native addon, in a few seconds: the benchmark's
// account workload (schemas/proto.fbe Account from benchmarks/data/account.json, as
// benchmarks/node/bench.js measures it) encoded and decoded in both models, ns per
// operation (the median of 5 rounds of 0.2 s), in one process per build (FBE_WASM=0 and
// FBE_WASM=1), and the size of wasm/fbe.wasm and of the addon. bindings/node/tools/wasm.sh
// runs it; README.md, "WebAssembly", has the figures.
//   node tools/wasm-bench.js           both builds, a table
//   node tools/wasm-bench.js --one     this process's build only (JSON lines)
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const pkg = path.resolve(__dirname, '..');
const repo = path.resolve(pkg, '..', '..');

function measure(fn) {
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    let n = 0;
    const t0 = process.hrtime.bigint();
    let t;
    do {
      for (let i = 0; i < 100; i++) fn();
      n += 100;
      t = process.hrtime.bigint() - t0;
    } while (t < 200000000n);
    rounds.push(Number(t) / n);
  }
  rounds.sort((a, b) => a - b);
  return rounds[2];
}

function one() {
  const fbe = require(pkg);
  const schemas = path.join(repo, 'schemas');
  const schema = fbe.load(path.join(schemas, 'proto.fbe'), { include: [schemas] });
  const json = fs.readFileSync(path.join(repo, 'benchmarks', 'data', 'account.json'), 'utf8');
  const value = schema.fromJsonString('proto.Account', json);
  for (const model of ['standard', 'final']) {
    const opts = { final: model === 'final' };
    const bytes = schema.encode('proto.Account', value, opts);
    const back = schema.decode('proto.Account', bytes, opts);
    if (schema.toJsonString('proto.Account', back) !== schema.toJsonString('proto.Account', value)) {
      throw new Error(`the ${model} round trip changed the value`);
    }
    const enc = measure(() => schema.encode('proto.Account', value, opts));
    const dec = measure(() => schema.decode('proto.Account', bytes, opts));
    console.log(JSON.stringify({ model, encode: enc, decode: dec, size: bytes.length }));
  }
}

function both() {
  const results = {};
  for (const [name, wasm] of [['native', '0'], ['wasm', '1']]) {
    const r = spawnSync(process.execPath, [__filename, '--one'], {
      env: { ...process.env, FBE_WASM: wasm }, encoding: 'utf8',
    });
    if (r.status !== 0) {
      process.stderr.write(r.stderr);
      throw new Error(`the ${name} run failed`);
    }
    results[name] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  }
  console.log('account (benchmarks/data/account.json), ns/op, median of 5 rounds of 0.2 s:');
  console.log('model     op      native      wasm   wasm/native');
  for (let i = 0; i < results.native.length; i++) {
    const a = results.native[i], b = results.wasm[i];
    for (const op of ['encode', 'decode']) {
      console.log(`${a.model.padEnd(9)} ${op.padEnd(6)} ${a[op].toFixed(0).padStart(7)} ${b[op].toFixed(0).padStart(9)}` +
        `   ${(b[op] / a[op]).toFixed(1).padStart(5)}x`);
    }
  }
  const size = (f) => (fs.existsSync(f) ? `${(fs.statSync(f).size / 1024).toFixed(0)} KiB` : 'absent');
  console.log(`wasm/fbe.wasm ${size(path.join(pkg, 'wasm', 'fbe.wasm'))}; ` +
    `dist/fbe.browser.mjs ${size(path.join(pkg, 'dist', 'fbe.browser.mjs'))}; ` +
    `build/Release/fbe.node ${size(path.join(pkg, 'build', 'Release', 'fbe.node'))}`);
}

if (process.argv.includes('--one')) one();
else both();

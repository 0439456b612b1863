'use strict';
// This package's testee (testee.js) through the shared conformance runner
// (tests/conformance/runner), as ci/conformance.sh runs it: the public vectors, the
// malformed records, the versioning records and the regression directories. Alone, so
// the comparison is untyped (no C testee to describe the types; the matrix stage of
// ci/test.sh compares typed): every record runs, nothing fails, only the _meta lines
// are skipped. And the bad inputs of behaviour.jsonl, each refused with its status
// through both encode paths (fromJsonString, and the classes: testee_native.js).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { repo, conformance } = require('./helpers');

const regressions = path.join(repo, 'tests', 'regressions', 'differential');
const files = ['vectors.jsonl', 'malformed.jsonl', 'malformed-extra.jsonl', 'versioning.jsonl']
  .map((f) => path.join(conformance, f))
  .concat(fs.readdirSync(regressions).sort().map((d) => path.join(regressions, d))
    .filter((d) => fs.existsSync(path.join(d, 'record.jsonl'))));

// The non-blank lines of every file the runner is given (a directory: its *.jsonl).
function recordLines() {
  return files.flatMap((p) => (fs.statSync(p).isDirectory()
    ? fs.readdirSync(p).filter((f) => f.endsWith('.jsonl')).sort().map((f) => path.join(p, f)) : [p]))
    .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()));
}

const shellQuoted = (s) => `'${s.replace(/'/g, "'\\''")}'`; // the runner runs a testee with the shell

test('testee.js through tests/conformance/runner', () => {
  const testee = `${shellQuoted(process.execPath)} ${shellQuoted(path.join(__dirname, '..', 'testee.js'))}`;
  const run = spawnSync('python3', [path.join(conformance, 'runner'), '--describe-testee', 'none',
    '--known-failures', path.join(conformance, 'known-failures', 'differential.txt'),
    '--testee', `node=${testee}`, ...files], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const report = `${run.stdout}${run.stderr}${run.error || ''}`;
  assert.equal(run.status, 0, report);
  const lines = recordLines();
  const meta = lines.filter((l) => '_meta' in JSON.parse(l)).length;
  assert.ok(`\n${run.stdout}`.includes(`\n${lines.length - meta} records, 1 testees: node\n`), report);
  assert.ok(run.stdout.includes(`\nskipped: ${meta}${meta ? ` (_meta ${meta})` : ''}\n`), report);
  const closing = /^(\d+) passed, 0 failed$/m.exec(run.stdout);
  assert.ok(closing && Number(closing[1]) > lines.length, report);
});

test('testee.js refuses every bad input of behaviour.jsonl with its status (JSON and native paths)', () => {
  const testee = `${shellQuoted(process.execPath)} ${shellQuoted(path.join(__dirname, '..', 'testee.js'))}`;
  const run = spawnSync('python3', [path.join(conformance, 'runner'), '--describe-testee', 'none',
    '--testee', `node=${testee}`, '--behaviour', path.join(conformance, 'behaviour.jsonl')],
  { encoding: 'utf8', maxBuffer: 64 << 20 });
  const report = `${run.stdout}${run.stderr}${run.error || ''}`;
  assert.equal(run.status, 0, report);
  const records = fs.readFileSync(path.join(conformance, 'behaviour.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).length;
  const closing = /^(\d+) passed, 0 failed$/m.exec(run.stdout);
  assert.ok(closing && Number(closing[1]) >= records, report);
});

test('testee.js plays the conversations (client, server and proxy sessions), with the C testee when built', () => {
  const testee = `${shellQuoted(process.execPath)} ${shellQuoted(path.join(__dirname, '..', 'testee.js'))}`;
  const scripts = path.join(conformance, 'conversations.jsonl');
  // the fbe tool of a Release build (the conformance stage's): then every cell is held to
  // c x c's answers, node as client, as server, or both; else to the scripts' expectations
  const fbeTool = path.join(conformance, '..', '..', 'build', 'release', 'bin', 'fbe');
  const withC = fs.existsSync(fbeTool) ? ['--testee', `c=${shellQuoted(fbeTool)} testee`] : [];
  const run = spawnSync('python3', [path.join(conformance, 'runner'), '--describe-testee', 'none', ...withC,
    '--testee', `node=${testee}`, '--conversations', scripts], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const report = `${run.stdout}${run.stderr}${run.error || ''}`;
  assert.equal(run.status, 0, report);
  const count = fs.readFileSync(scripts, 'utf8').split('\n').filter((l) => l.trim()).length;
  const closing = /^(\d+) passed, 0 failed$/m.exec(run.stdout);
  assert.ok(closing && Number(closing[1]) === count * (withC.length ? 4 : 1), report);
});

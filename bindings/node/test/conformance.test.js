'use strict';
// Every record of tests/conformance/*.jsonl through the JavaScript API: decode equals
// the JSON value, encode gives the bytes exactly, verify accepts them (rejects the
// malformed ones); streams through Sender and Receiver whole and in chunks; versioning
// records read with the other schema version. Same runner as conformance.js.
const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { Runner } = require('../lib/conformance');
const { conformance, schemas } = require('./helpers');

const files = ['vectors.jsonl', 'malformed.jsonl', 'versioning.jsonl'];

for (const file of files) {
  const full = path.join(conformance, file);
  describe(file, () => {
    const runner = new Runner([schemas], { log: () => {}, warn: () => {} });
    const lines = fs.readFileSync(full, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const id = /"id":"([^"]*)"/.exec(line);
      test(id ? id[1] : `line ${i + 1}`, () => {
        const r = runner.runLine(full, i + 1, line);
        assert.notEqual(r.result, 'fail', r.why);
        assert.equal(r.result, 'pass', 'no record of these files is skipped');
      });
    });
    test('every record ran', () => {
      assert.ok(runner.passed > 0);
      assert.equal(runner.failed, 0);
    });
  });
}

test('vectors cover both models and streams', () => {
  const text = fs.readFileSync(path.join(conformance, 'vectors.jsonl'), 'utf8');
  for (const format of ['standard', 'final', 'stream-standard', 'stream-final']) {
    assert.ok(text.includes(`"format":"${format}"`), format);
  }
});

test('conformance.js: closing line and exit codes like fbe conformance', () => {
  const script = path.join(__dirname, '..', 'conformance.js');
  const out = execFileSync(process.execPath, [script, '-I', schemas,
    ...files.map((f) => path.join(conformance, f))], { encoding: 'utf8' });
  assert.match(out.trim(), /^\d+ passed, 0 failed, 0 skipped$/);
  const usage = (() => {
    try {
      execFileSync(process.execPath, [script], { stdio: 'pipe' });
      return 0;
    } catch (e) {
      return e.status;
    }
  })();
  assert.equal(usage, 2);
});

test('conformance.js: a wrong record fails with FAIL and exit code 1', (t) => {
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'fbe-conf-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const line = fs.readFileSync(path.join(conformance, 'vectors.jsonl'), 'utf8').split('\n')[0];
  const bad = line.replace('"id":1,', '"id":2,');
  assert.notEqual(bad, line);
  const file = path.join(dir, 'bad.jsonl');
  fs.writeFileSync(file, `${line}\n${bad}\nnot json\n`);
  const script = path.join(__dirname, '..', 'conformance.js');
  let out = '';
  let status = 0;
  try {
    execFileSync(process.execPath, [script, `-I${schemas}`, file], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    out = e.stdout;
    status = e.status;
  }
  assert.equal(status, 1);
  assert.match(out, /FAIL pub-proto-Order-readme-standard: decoded value differs at JSON offset 6/);
  assert.match(out, /FAIL .*bad\.jsonl:3: malformed JSON/);
  assert.match(out, /1 passed, 2 failed, 0 skipped\n$/);
});

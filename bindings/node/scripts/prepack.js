'use strict';
// `npm pack` / `npm publish`: copies the libfbe core (core/vendor.py, the one way every
// package copies it) and the LICENSE into the package, so the tarball builds without the repository.
// postpack (--clean) removes the copies again: the repository keeps one core.
const fs = require('fs');
const path = require('path');

const pkg = path.resolve(__dirname, '..');
const repo = path.resolve(pkg, '..', '..');

const inRepo = fs.existsSync(path.join(repo, 'core', 'include', 'fbe', 'fbe.h'));
if (process.argv.includes('--clean')) {
  if (!inRepo) process.exit(0); // a packed copy's core/ is its only one
  fs.rmSync(path.join(pkg, 'core'), { recursive: true, force: true });
  fs.rmSync(path.join(pkg, 'LICENSE'), { force: true });
  process.exit(0);
}
if (!inRepo) {
  // packing an already packed copy (it carries core/): nothing to add
  if (fs.existsSync(path.join(pkg, 'core', 'include', 'fbe', 'fbe.h'))) process.exit(0);
  console.error(`fbe prepack: no core sources at ${path.join(repo, 'core')}`);
  process.exit(1);
}
const python = process.env.PYTHON || 'python3'; // node-gyp needs Python anyway
const run = require('child_process').spawnSync(python, [path.join(repo, 'core', 'vendor.py'), pkg],
  { stdio: ['ignore', 'ignore', 'inherit'] });
if (run.status !== 0) {
  console.error(`fbe prepack: ${python} core/vendor.py failed`);
  process.exit(1);
}
fs.cpSync(path.join(repo, 'LICENSE'), path.join(pkg, 'LICENSE'));

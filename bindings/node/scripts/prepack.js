'use strict';
// `npm pack` / `npm publish`: copies the libfbe core sources (core/include, core/src)
// and the LICENSE into the package, so the tarball builds without the repository.
// postpack (--clean) removes the copies again: the repository keeps one core.
const fs = require('fs');
const path = require('path');

const pkg = path.resolve(__dirname, '..');
const repo = path.resolve(pkg, '..', '..');
const copies = [
  [path.join(repo, 'core', 'include'), path.join(pkg, 'core', 'include')],
  [path.join(repo, 'core', 'src'), path.join(pkg, 'core', 'src')],
  [path.join(repo, 'LICENSE'), path.join(pkg, 'LICENSE')],
];

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
fs.rmSync(path.join(pkg, 'core'), { recursive: true, force: true });
for (const [from, to] of copies) fs.cpSync(from, to, { recursive: true });

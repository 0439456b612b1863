'use strict';
// Where the libfbe core sources are, for binding.gyp: the copy a packed tarball carries
// (./core, made by scripts/prepack.js), else the repository's core/ two levels up.
// Prints the directory, or with --sources the sources core/sources.txt lists (the one
// list every package builds from), as paths relative to the
// package directory (node-gyp resolves them from binding.gyp's folder).
const fs = require('fs');
const path = require('path');

const pkg = path.resolve(__dirname, '..');
const candidates = [path.join(pkg, 'core'), path.join(pkg, '..', '..', 'core')];
const core = candidates.find((dir) => fs.existsSync(path.join(dir, 'include', 'fbe', 'fbe.h')));
if (!core) {
  console.error('fbe: cannot find the libfbe core sources (core/include/fbe/fbe.h) in ' +
    candidates.join(' or '));
  process.exit(1);
}
const rel = (p) => path.relative(pkg, p).split(path.sep).join('/');
if (process.argv.includes('--sources')) {
  const files = fs.readFileSync(path.join(core, 'sources.txt'), 'utf8').split('\n')
    .map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  console.log(files.map((f) => rel(path.join(core, 'src', f))).join(' '));
} else {
  console.log(rel(core));
}

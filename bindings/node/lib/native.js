'use strict';
// Loads the compiled addon. There is no pure-JavaScript fallback: a missing or broken
// build fails here, loudly, with what to do about it.
const path = require('path');

const pkg = path.join(__dirname, '..');
const candidates = [
  path.join(pkg, 'build', 'Release', 'fbe.node'),
  path.join(pkg, 'build', 'Debug', 'fbe.node'),
];

function load() {
  const errors = [];
  // node-gyp-build: a source build (build/Release) if there is one, else the prebuilt
  // addon for this platform that the packed tarball carries (prebuilds/linux-x64/).
  let gypBuild = null;
  try {
    gypBuild = require('node-gyp-build');
  } catch (e) { /* not installed: only the source build below */ }
  if (gypBuild) {
    try {
      return gypBuild(pkg);
    } catch (e) {
      errors.push(`node-gyp-build: ${e && e.message}`);
    }
  }
  for (const file of candidates) {
    try {
      return require(file);
    } catch (e) {
      if (e && e.code === 'MODULE_NOT_FOUND') continue;
      errors.push(`${file}: ${e && e.message}`);
    }
  }
  const detail = errors.length ? `\n${errors.join('\n')}` : '';
  const err = new Error('fbe: the native addon is not built (build/Release/fbe.node); run ' +
    '`npm install` in the package directory (or `node scripts/build.js`), which compiles it ' +
    `with node-gyp${detail}`);
  err.code = 'FBE_ADDON_MISSING';
  throw err;
}

module.exports = load();

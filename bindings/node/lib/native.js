'use strict';
// Loads the compiled addon. There is no pure-JavaScript fallback: a missing or broken
// build fails here, loudly, with what to do about it.
const path = require('path');

const candidates = [
  path.join(__dirname, '..', 'build', 'Release', 'fbe.node'),
  path.join(__dirname, '..', 'build', 'Debug', 'fbe.node'),
];

function load() {
  const errors = [];
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

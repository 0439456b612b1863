'use strict';
// Loads the compiled addon, or else its WebAssembly build (wasm/fbe.wasm, the same C
// sources: lib/wasm.js) when the addon is missing or does not load here; FBE_WASM=1
// takes the WebAssembly build at once, FBE_WASM=0 never. When neither loads, this fails
// loudly, with what to do about it. (Browsers and Deno take browser/entry.mjs instead.)
const path = require('path');

const pkg = path.join(__dirname, '..');
const candidates = [
  path.join(pkg, 'build', 'Release', 'fbe.node'),
  path.join(pkg, 'build', 'Debug', 'fbe.node'),
];

function loadWasm() {
  const fs = require('fs');
  const file = path.join(pkg, 'wasm', 'fbe.wasm');
  const bytes = fs.readFileSync(file);
  return require('./wasm').instantiateSync(bytes, { fs, cwd: process.cwd() });
}

function load() {
  const mode = process.env.FBE_WASM;
  if (mode === '1') return loadWasm();
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
  if (mode !== '0') {
    try {
      return loadWasm();
    } catch (e) {
      errors.push(`wasm/fbe.wasm: ${e && e.message}`);
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

'use strict';
// `npm install` runs this: builds the addon (build/Release/fbe.node) with node-gyp,
// the copy bundled with npm, against the headers of the Node that runs the install.
// Nothing is downloaded at build time:
//   1. the running Node's own headers: <prefix>/include/node (node_api.h, common.gypi),
//      where <prefix> is two levels above process.execPath; passed as --nodedir;
//   2. else the `node-api-headers` npm package (an optional dependency: the Node-API
//      headers only), placed in build-nodedir/include/node with a minimal common.gypi.
// FBE_NODEDIR=<dir> forces a node directory; FBE_NODE_HEADERS=node-api-headers forces 2.
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const pkg = path.resolve(__dirname, '..');

// A packed tarball also carries the WebAssembly build (wasm/fbe.wasm, lib/wasm.js), which
// lib/native.js loads when the addon does not: so on a machine that cannot build the
// addon (no compiler, no headers) the install still succeeds, over WebAssembly.
const wasmBuild = path.join(pkg, 'wasm', 'fbe.wasm');
function failed(status) {
  if (fs.existsSync(wasmBuild) && !process.env.FBE_BUILD_FROM_SOURCE) {
    console.log('fbe: no native addon here; the package uses its WebAssembly build (wasm/fbe.wasm)');
    process.exit(0);
  }
  process.exit(status);
}

function hasHeaders(dir) {
  return fs.existsSync(path.join(dir, 'include', 'node', 'node_api.h')) &&
    fs.existsSync(path.join(dir, 'include', 'node', 'common.gypi'));
}

function fromNodeApiHeaders() {
  let headers;
  try {
    headers = path.dirname(require.resolve('node-api-headers/package.json', { paths: [pkg] }));
  } catch (e) {
    return null;
  }
  // outside build/: node-gyp rebuild empties build/ first
  const nodedir = path.join(pkg, 'build-nodedir');
  const include = path.join(nodedir, 'include', 'node');
  fs.mkdirSync(include, { recursive: true });
  for (const f of fs.readdirSync(path.join(headers, 'include'))) {
    fs.copyFileSync(path.join(headers, 'include', f), path.join(include, f));
  }
  // What node-gyp needs from a Node source tree besides the headers.
  fs.writeFileSync(path.join(include, 'common.gypi'), JSON.stringify({
    variables: { node_module_version: '' },
    target_defaults: {
      default_configuration: 'Release',
      configurations: { Debug: { cflags: ['-g', '-O0'] }, Release: { cflags: ['-O3'] } },
      cflags: ['-fPIC', '-pthread'],
    },
  }, null, 2));
  fs.writeFileSync(path.join(include, 'config.gypi'), JSON.stringify({ variables: {} }));
  fs.writeFileSync(path.join(include, 'node_version.h'),
    `#define NODE_MAJOR_VERSION ${process.versions.node.split('.')[0]}\n`);
  return nodedir;
}

function nodeDir() {
  if (process.env.FBE_NODEDIR) return process.env.FBE_NODEDIR;
  if (process.env.FBE_NODE_HEADERS !== 'node-api-headers') {
    const prefix = path.resolve(process.execPath, '..', '..');
    if (hasHeaders(prefix)) return prefix;
  }
  const synthesized = fromNodeApiHeaders();
  if (synthesized) return synthesized;
  console.error('fbe: no Node headers found: neither ' +
    path.resolve(process.execPath, '..', '..', 'include', 'node') +
    ' (install your distribution\'s Node development package, e.g. libnode-dev)' +
    ' nor the node-api-headers package');
  failed(1);
}

function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules',
      'node-gyp', 'bin', 'node-gyp.js'),
  ];
  try {
    candidates.push(require.resolve('node-gyp/bin/node-gyp.js', { paths: [pkg] }));
  } catch (e) { /* not installed locally */ }
  const found = candidates.find((p) => p && p.endsWith('.js') && fs.existsSync(p));
  if (!found) {
    console.error('fbe: node-gyp not found (it comes with npm; or set npm_config_node_gyp)');
    failed(1);
  }
  return found;
}

// A packed tarball may carry a prebuilt addon for this platform (ci/dist.sh puts it in
// prebuilds/<platform>-<arch>/, the layout node-gyp-build loads): when it loads, no
// compiler is needed. FBE_BUILD_FROM_SOURCE=1 builds anyway.
const prebuilt = path.join(pkg, 'prebuilds', `${process.platform}-${process.arch}`, 'fbe.napi.node');
if (!process.env.FBE_BUILD_FROM_SOURCE && fs.existsSync(prebuilt)) {
  try {
    require(prebuilt);
    console.log(`fbe: using the prebuilt addon ${path.relative(pkg, prebuilt)}`);
    process.exit(0);
  } catch (e) {
    console.log(`fbe: the prebuilt addon does not load here (${e.message}); building from source`);
  }
}

const nodedir = nodeDir();
const gyp = nodeGyp();
const args = [gyp, 'rebuild', `--nodedir=${nodedir}`, '--jobs=max'];
if (process.env.FBE_DEBUG_BUILD) args.push('--debug');
// The compiler's output is shown when the build fails (or with FBE_BUILD_VERBOSE=1).
const verbose = Boolean(process.env.FBE_BUILD_VERBOSE);
let gypVersion = '';
try {
  gypVersion = ` ${require(path.join(path.dirname(gyp), '..', 'package.json')).version}`;
} catch (e) { /* unknown */ }
console.log(`fbe: building the addon with node-gyp${gypVersion} (--nodedir=${nodedir})`);
const t0 = Date.now();
const r = spawnSync(process.execPath, args, {
  cwd: pkg, stdio: verbose ? 'inherit' : ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20,
});
if (r.error) {
  console.error(`fbe: cannot run node-gyp: ${r.error.message}`);
  failed(1);
}
if (r.status !== 0) {
  if (!verbose) process.stderr.write(`${r.stdout}${r.stderr}`);
  console.error('fbe: the addon build failed (output above)');
  failed(r.status === null ? 1 : r.status);
}
console.log(`fbe: built build/Release/fbe.node in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

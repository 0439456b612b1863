'use strict';
// Builds the WebAssembly module wasm/fbe.wasm: the SAME sources as the native addon
// (native/*.c and every core/src/*.c, binding.gyp's list) compiled with clang for
// wasm32-wasi and linked against emnapi's Node-API implementation (libemnapi.a of the
// `emnapi` dev dependency); the JavaScript side of Node-API is @emnapi/core and
// @emnapi/runtime at run time (lib/wasm.js). So there is no second copy of the binding:
// lib/*.js runs unchanged over either module.
//
// Tools (Debian): clang, lld (wasm-ld), wasi-libc, libclang-rt-14-dev-wasm32 (ci/setup.sh).
// Environment: FBE_WASM_CC (default clang), FBE_WASI_SYSROOT (default /usr, Debian's
// layout: /usr/include/wasm32-wasi, /usr/lib/wasm32-wasi). Nothing is downloaded.
//   node scripts/build-wasm.js           build wasm/fbe.wasm (objects in build-wasm/)
//   node scripts/build-wasm.js --bundle  also the browser bundle dist/fbe.browser.mjs
//                                        (esbuild; --bundle-only: the bundle alone)
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const pkg = path.resolve(__dirname, '..');
const cc = process.env.FBE_WASM_CC || 'clang';
const sysroot = process.env.FBE_WASI_SYSROOT || '/usr';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: pkg, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.error) throw new Error(`fbe: cannot run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`fbe: ${cmd} failed (status ${r.status})`);
}

function coreDir(flag) {
  const r = spawnSync(process.execPath, [path.join(__dirname, 'core-dir.js'), ...(flag ? [flag] : [])],
    { cwd: pkg, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fbe: scripts/core-dir.js failed: ${r.stderr}`);
  return r.stdout.trim();
}

// Runs the commands, `jobs` at a time (FBE_WASM_JOBS, default 2).
function runAll(cmds) {
  const { spawn } = require('child_process');
  const jobs = Math.max(1, Number(process.env.FBE_WASM_JOBS) || 2);
  return new Promise((resolve, reject) => {
    let next = 0, running = 0, failed = null;
    const start = () => {
      if (failed) return;
      if (next === cmds.length && running === 0) { resolve(); return; }
      while (running < jobs && next < cmds.length) {
        const [cmd, args] = cmds[next++];
        running++;
        const child = spawn(cmd, args, { cwd: pkg, stdio: ['ignore', 'inherit', 'inherit'] });
        child.on('error', (e) => { failed = new Error(`fbe: cannot run ${cmd}: ${e.message}`); reject(failed); });
        child.on('exit', (code) => {
          running--;
          if (code !== 0 && !failed) { failed = new Error(`fbe: ${cmd} failed (status ${code}): ${args.slice(-3).join(' ')}`); reject(failed); return; }
          start();
        });
      }
    };
    start();
  });
}

async function build() {
  const core = path.resolve(pkg, coreDir());
  const sources = coreDir('--sources').split(/\s+/).filter(Boolean).map((s) => path.resolve(pkg, s));
  const gyp = fs.readFileSync(path.join(pkg, 'binding.gyp'), 'utf8');
  const natives = [...gyp.matchAll(/"(native\/[a-z_]+\.c)"/g)].map((m) => path.join(pkg, m[1]));
  const emnapi = path.dirname(require.resolve('emnapi/package.json', { paths: [pkg] }));
  const objdir = path.join(pkg, 'build-wasm');
  fs.mkdirSync(objdir, { recursive: true });
  fs.mkdirSync(path.join(pkg, 'wasm'), { recursive: true });
  const cflags = [
    // -nostdlibinc: wasi-libc's headers and clang's own, never the host's /usr/include;
    // wasm-include/ first: its setjmp.h (wasi-libc has none).
    '--target=wasm32-wasi', '-nostdlibinc', `-I${path.join(pkg, 'wasm-include')}`,
    `-isystem${sysroot}/include/wasm32-wasi`, '-D_WASI_EMULATED_PROCESS_CLOCKS', '-std=c11', '-O3', '-fvisibility=hidden', '-DNAPI_VERSION=8', '-DFBE_STATIC',
    `-I${core}/include`, `-I${core}/src`, `-I${emnapi}/include/node`,
    '-Wno-unused-parameter', '-Wno-missing-field-initializers', '-Wno-sign-compare',
    '-Wno-sizeof-pointer-memaccess', // native/bind.c copies a pointer out of a slot on purpose
  ];
  const t0 = Date.now();
  const objects = [];
  const compiles = [];
  for (const src of [...sources, ...natives]) {
    const rel = path.relative(path.dirname(core), src).replace(/[\\/]/g, '_').replace(/^[._]+/, '');
    const obj = path.join(objdir, rel.replace(/\.c$/, '.o'));
    const stale = !fs.existsSync(obj) || fs.statSync(obj).mtimeMs < fs.statSync(src).mtimeMs;
    if (stale) compiles.push([cc, [...cflags, '-c', src, '-o', obj]]);
    objects.push(obj);
  }
  await runAll(compiles);
  const out = path.join(pkg, 'wasm', 'fbe.wasm');
  // A reactor (no main): the host calls _initialize, then napi_register_wasm_v1.
  run(cc, [
    '--target=wasm32-wasi', `--sysroot=${sysroot}`, `-L${sysroot}/lib/wasm32-wasi`, '-O3',
    '-mexec-model=reactor', ...objects, `-L${emnapi}/lib/wasm32-wasi`, '-lemnapi',
    '-lwasi-emulated-process-clocks',
    '-Wl,--export-dynamic', '-Wl,--export=malloc', '-Wl,--export=free', '-Wl,--export=chdir',
    '-Wl,--export=napi_register_wasm_v1', '-Wl,--export-if-defined=node_api_module_get_api_version_v1',
    '-Wl,--import-undefined', '-Wl,--export-table', '-Wl,--initial-memory=16777216', '-Wl,--strip-debug',
    '-Wl,-z,stack-size=1048576', '-o', out,
  ]);
  console.log(`fbe: built ${path.relative(pkg, out)} (${fs.statSync(out).size} bytes) in ` +
    `${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function bundle() {
  // lib/*.js for browsers (and Deno): ESM, the wasm loader in place of the addon's, the
  // few Node modules lib/ names replaced by the npm packages `buffer` and `events` and by
  // browser/shims.js (util.inspect.custom; streams and sockets are Node-only).
  const esbuild = require('esbuild');
  const shims = path.join(pkg, 'browser', 'shims.js');
  const t0 = Date.now();
  return esbuild.build({
    entryPoints: [path.join(pkg, 'browser', 'entry.mjs')],
    outfile: path.join(pkg, 'dist', 'fbe.browser.mjs'),
    bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: false,
    legalComments: 'inline', logLevel: 'warning',
    alias: { util: shims, stream: shims, buffer: 'buffer', events: 'events' },
    inject: [path.join(pkg, 'browser', 'globals.js')],
    external: ['node:fs'],
    plugins: [{
      name: 'fbe-native', // lib/native.js (the addon, or the wasm file) -> browser/native.js
      setup(b) {
        const native = path.join(pkg, 'lib', 'native');
        b.onResolve({ filter: /native(\.js)?$/ }, (a) =>
          (path.resolve(a.resolveDir, a.path).replace(/\.js$/, '') === native
            ? { path: path.join(pkg, 'browser', 'native.js') } : undefined));
      },
    }],
    supported: { 'top-level-await': true },
  }).then(() => {
    const size = fs.statSync(path.join(pkg, 'dist', 'fbe.browser.mjs')).size;
    console.log(`fbe: bundled dist/fbe.browser.mjs (${size} bytes) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });
}

(async () => {
  if (!process.argv.includes('--bundle-only')) await build();
  if (process.argv.includes('--bundle') || process.argv.includes('--bundle-only')) await bundle();
})().catch((e) => {
  console.error(e.message);
  process.exit(1);
});

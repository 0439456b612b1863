'use strict';
// The WebAssembly build of the addon (wasm/fbe.wasm, scripts/build-wasm.js): the same
// native/*.c and core sources, compiled for wasm32-wasi against emnapi's Node-API. Here
// it is instantiated with @emnapi/core (the Node-API calls), @emnapi/runtime (the handle
// and reference tables) and a WASI from @tybys/wasm-util (clock, random bytes, files):
// the result has exactly the addon's exports, so lib/*.js runs unchanged over it.
//
//   instantiateSync(bytes, { fs })       Node, Bun: lib/native.js's fallback
//   instantiate(bytesOrPromise, { fs })  browsers, Deno (browser/entry.mjs): no fs, so
//                                        load(path) fails there: use loadString
const { instantiateNapiModule, instantiateNapiModuleSync } = require('@emnapi/core');
const { getDefaultContext } = require('@emnapi/runtime');
const { WASI } = require('@tybys/wasm-util');
const { coherent } = require('./wasm-coherence');

function outOfMemory() {
  // wasm-include/setjmp.h: the core's longjmp out of a failed schema allocation.
  throw new RangeError('fbe: out of memory in the WebAssembly module while loading a schema; ' +
    'the module cannot be used further');
}

function options(host) {
  const fs = host && host.fs;
  const wasi = new WASI({
    version: 'preview1',
    // Node: the whole file system, paths as the addon takes them: absolute, or relative
    // to the working directory (set in the module by chdir below).
    ...(fs ? { fs, preopens: { '/': '/' } } : {}),
    env: {},
    returnOnExit: true,
  });
  return {
    wasi,
    context: getDefaultContext(),
    asyncWorkPoolSize: 0, // the binding makes no async work: no worker threads
    overwriteImports(imports) {
      imports.env = { ...imports.env, fbe_out_of_memory: outOfMemory };
      return imports;
    },
  };
}

// wasi-libc resolves a relative path against its own working directory ("/" at
// start): set it to the host's, so that load('schemas/x.fbe') reads what the addon reads.
function setCwd(instance, cwd) {
  if (!cwd) return;
  const { malloc, free, chdir, memory } = instance.exports;
  const bytes = new TextEncoder().encode(`${cwd}\0`);
  const p = malloc(bytes.length);
  if (!p) throw new RangeError('fbe: out of memory in the WebAssembly module');
  new Uint8Array(memory.buffer, p, bytes.length).set(bytes);
  const rc = chdir(p);
  free(p);
  if (rc !== 0) throw new Error(`fbe: the WebAssembly module cannot take ${cwd} as its working directory`);
}

function instantiateSync(bytes, host) {
  const r = instantiateNapiModuleSync(bytes, options(host));
  setCwd(r.instance, host && host.fs && host.cwd);
  const { memory, malloc, free } = r.instance.exports;
  return coherent(r.napiModule.exports, r.napiModule.emnapi, memory, malloc, free);
}

async function instantiate(source, host) {
  const r = await instantiateNapiModule(source, options(host));
  setCwd(r.instance, host && host.fs && host.cwd);
  const { memory, malloc, free } = r.instance.exports;
  return coherent(r.napiModule.exports, r.napiModule.emnapi, memory, malloc, free);
}

module.exports = { instantiateSync, instantiate };

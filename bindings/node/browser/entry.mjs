// The browser (and Deno) entry of the package: dist/fbe.browser.mjs, built from this by
// scripts/build-wasm.js --bundle. The same lib/*.js as under Node, over the WebAssembly
// build of the addon (wasm/fbe.wasm, fetched beside the bundle: ../wasm/fbe.wasm), so the
// same API as index.js and index.d.ts, plus `files`: the module's file system, in memory
// (memfs), where load(path), loadPackage and imports look: write the .fbe texts there
// first (files.mkdirSync(dir, { recursive: true }); files.writeFileSync(path, text)).
// Node-only: writable() (a stream to pipe a socket into; use feed). README.md,
// "WebAssembly (browsers, Deno, Bun)".
import { createFsFromVolume, Volume } from 'memfs-browser';
import { instantiate } from '../lib/wasm.js';
import slot from './slot.js';

const files = createFsFromVolume(new Volume());
files.mkdirSync('/tmp', { recursive: true });
const url = new URL('../wasm/fbe.wasm', import.meta.url);
const source = typeof fetch === 'function' && url.protocol !== 'file:'
  ? fetch(url)
  : import('node:fs').then((fs) => fs.promises.readFile(url)); // Deno, Bun, Node: a file URL
slot.binding = await instantiate(source, { fs: files, cwd: '/' });
const fbe = require('../index.js');

export default { ...fbe, files };
export { files };
export const {
  load, loadString, loadPackage, Schema, Struct, Enum, View, ListView, MapView, Sender,
  Receiver, Peer, Client, Server, Proxy, FbeError, codes, version,
} = fbe;

// The ESM entry for Node and Bun (package.json "exports" "import"): index.js, the
// CommonJS entry, as named exports; the same module instance as require('fbe').
// Browsers and Deno take dist/fbe.browser.mjs (the "browser" and "deno" conditions).
import fbe from './index.js';

export default fbe;
export const {
  load, loadString, loadPackage, Schema, Struct, Enum, View, ListView, MapView, Sender,
  Receiver, Peer, Client, Server, Proxy, FbeError, codes, version,
} = fbe;

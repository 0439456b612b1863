// lib/native.js in the browser bundle (scripts/build-wasm.js --bundle puts it in place):
// the WebAssembly module entry.mjs instantiated (there is no addon to try in a browser).
module.exports = require('./slot').binding;

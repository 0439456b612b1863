// The instantiated WebAssembly module, set by entry.mjs before lib/ is first required.
module.exports = { binding: null };

'use strict';
// The one thing the WebAssembly build cannot share with the addon: memory. The addon
// keeps the addresses of lib/'s ArrayBuffers (the tapes: setTape(k, buffer), see
// native/bind.c) and lib/ and C then read and write the same bytes without a call. A
// WebAssembly module sees only its own linear memory: emnapi gives C a copy of each
// buffer, made when C asks for its address. So, around every call into the module, this
// copies the tapes across: lib/'s bytes into the module's copies before the call, the
// copies back into lib/'s after it (and the other way round around a call back out into
// JavaScript: a handler the module calls may itself encode). Byte arguments need no
// help: emnapi copies them afresh each time C asks for their address.
//
// coherent(exports, syncMemory) -> the same exports, every function (and every function
// of an object a function returns, recursively) wrapped so.

function coherent(exports, syncMemory) {
  const tapes = new Set(); // arrays [buffer0..buffer4], one per native schema object
  const registry = new FinalizationRegistry((held) => tapes.delete(held));
  const ownTapes = new WeakMap(); // native schema object -> its array
  const wrapped = new WeakMap(); // function -> its wrapper
  const seen = new WeakSet(); // objects already wrapped

  function toWasm() {
    for (const t of tapes) for (const b of t) if (b) syncMemory(true, b);
  }
  function toJs() {
    for (const t of tapes) for (const b of t) if (b) syncMemory(false, b);
  }

  function wrapCallback(fn) {
    // JavaScript the module calls: it sees the module's tapes, and its own writes go back.
    return function callback(...args) {
      toJs();
      try {
        return fn.apply(this, args);
      } finally {
        toWasm();
      }
    };
  }

  function wrapObject(obj) {
    if (obj === null || typeof obj !== 'object' || seen.has(obj) ||
        ArrayBuffer.isView(obj) || obj instanceof ArrayBuffer) return obj;
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return obj;
    seen.add(obj);
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (typeof v === 'function') obj[key] = wrapFunction(v, obj, key);
      else if (v && typeof v === 'object') wrapObject(v);
    }
    return obj;
  }

  function wrapFunction(fn, owner, key) {
    if (wrapped.has(fn)) return wrapped.get(fn);
    const isSetTape = key === 'setTape';
    const w = function (...args) {
      for (let i = 0; i < args.length; i++) {
        if (typeof args[i] === 'function') args[i] = wrapCallback(args[i]);
      }
      toWasm();
      let r;
      try {
        r = fn.apply(this, args);
      } finally {
        toJs();
      }
      if (isSetTape) {
        let t = ownTapes.get(owner);
        if (!t) {
          t = [null, null, null, null, null];
          ownTapes.set(owner, t);
          tapes.add(t);
          registry.register(owner, t);
        }
        t[args[0]] = args[1];
        syncMemory(true, args[1]);
      }
      if (typeof r === 'function') return wrapFunction(r, null, '');
      return wrapObject(r);
    };
    for (const k of Object.keys(fn)) w[k] = fn[k]; // e.g. a method's `owner`
    wrapped.set(fn, w);
    return w;
  }

  return wrapObject(exports);
}

module.exports = { coherent };

'use strict';
// The one thing the WebAssembly build cannot share with the addon: memory. The addon
// keeps the addresses of lib/'s ArrayBuffers (a schema's tapes: setTape(k, buffer), see
// native/bind.c) and lib/ and C then read and write the same bytes without a call. A
// WebAssembly module sees only its own linear memory: emnapi gives C a copy of each
// buffer, made when C asks for its address. So, around every call into the module, this
// copies the schema's tapes across: lib/'s bytes into the module's copies before the
// call, the copies back into lib/'s after it (and the other way round around a call back
// out into JavaScript: a handler the module calls may itself encode). Byte arguments need
// no help: emnapi copies them afresh each time C asks for their address.
//
// coherent(exports, syncMemory) -> the same exports, every function (and every function
// of an object or array a function returns, recursively) wrapped so. A native schema
// object (the one with setTape) has its own tapes; what its functions return shares them.

function coherent(exports, syncMemory) {
  const wrapped = new WeakMap(); // function -> its wrapper
  const seen = new WeakSet(); // objects already wrapped

  const toWasm = (t) => { if (t) for (const b of t) if (b) syncMemory(true, b); };
  const toJs = (t) => { if (t) for (const b of t) if (b) syncMemory(false, b); };

  function wrapCallback(fn, t) {
    // JavaScript the module calls: it sees the module's tapes, and its writes go back.
    return function callback(...args) {
      toJs(t);
      try {
        return fn.apply(this, args);
      } finally {
        toWasm(t);
      }
    };
  }

  function wrapObject(obj, t) {
    if (obj === null || typeof obj !== 'object' || seen.has(obj) ||
        ArrayBuffer.isView(obj) || obj instanceof ArrayBuffer) return obj;
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return obj;
    seen.add(obj);
    if (typeof obj.setTape === 'function') t = [null, null, null, null, null]; // a schema
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (typeof v === 'function') obj[key] = wrapFunction(v, t, key === 'setTape');
      else if (v && typeof v === 'object') wrapObject(v, t);
    }
    return obj;
  }

  function wrapFunction(fn, t, isSetTape) {
    if (wrapped.has(fn)) return wrapped.get(fn);
    const w = function (...args) {
      if (t) {
        for (let i = 0; i < args.length; i++) {
          if (typeof args[i] === 'function') args[i] = wrapCallback(args[i], t);
        }
      }
      toWasm(t);
      let r;
      try {
        r = fn.apply(this, args);
      } finally {
        toJs(t);
      }
      if (isSetTape) {
        t[args[0]] = args[1];
        syncMemory(true, args[1]);
      }
      if (typeof r === 'function') return wrapFunction(r, t, false);
      return wrapObject(r, t);
    };
    for (const k of Object.keys(fn)) w[k] = fn[k]; // e.g. a method's `owner`
    wrapped.set(fn, w);
    return w;
  }

  return wrapObject(exports, null);
}

module.exports = { coherent };

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
// Views (native/view.c) keep the address of their bytes, taken at the open, and read
// them at each later call: so an opener's bytes are remembered by the address C put in
// the view registers (VR_DATA), and before each call the bytes of the view(s) in the
// registers (VR_DATA, and VR_B's) are copied in again, at their length now, so a view
// sees bytes changed in place as under the addon.
//
// The tapes are copied here, by the address emnapi gave their copy (cached per buffer:
// it does not move while the buffer lives), not with emnapi's syncMemory, which costs
// microseconds a call (a thrown exception to tell an ArrayBuffer from a shared one).
//
// Byte arguments (what decode, verify and feed read) are copied by this too, into a
// scratch block of the module's memory (one per depth of calls: a handler the module
// calls may decode too), and C gets a Uint8Array over that block: emnapi then takes
// its address as it is, where for bytes outside the module it would copy them itself
// after the same slow test. Openers keep their bytes (a view reads them later).
//
// coherent(exports, emnapi, memory, malloc, free) -> the same exports, every function
// (and every function of an object or array a function returns, recursively) wrapped so. A native schema
// object (the one with setTape) has its own tapes; what its functions return shares them.

const VR_DATA = 8, VR_B_DATA = 20; // native/binding.h: VR_DATA, VR_B + VR_DATA

const U8_TAG = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;

function coherent(exports, emnapi, memory, malloc, free) {
  const syncMemory = emnapi.syncMemory;
  const addresses = new WeakMap(); // a tape -> the address of its copy in the module
  let heap = new Uint8Array(memory.buffer);
  const mem = () => (heap.byteLength ? heap : (heap = new Uint8Array(memory.buffer))); // grown
  function address(tape) {
    let a = addresses.get(tape);
    if (a === undefined) {
      a = emnapi.getMemoryAddress(tape).address;
      addresses.set(tape, a);
    }
    return a;
  }
  function copyIn(tape) {
    const a = address(tape);
    if (a) mem().set(new Uint8Array(tape), a);
  }
  function copyOut(tape) {
    const a = address(tape);
    if (a) new Uint8Array(tape).set(mem().subarray(a, a + tape.byteLength));
  }
  const scratch = []; // by depth: {ptr, cap}
  let depth = 0;
  function inModule(bytes) {
    const n = bytes.byteLength;
    if (n === 0) return bytes; // empty or detached: as it is (C refuses both alike)
    let s = scratch[depth];
    if (!s) s = scratch[depth] = { ptr: 0, cap: 0 };
    if (s.cap < n) {
      if (s.ptr) free(s.ptr);
      const cap = Math.max(n, 256, s.cap * 2);
      s.ptr = malloc(cap);
      if (!s.ptr) throw new RangeError('fbe: out of memory in the WebAssembly module');
      s.cap = cap;
    }
    const view = new Uint8Array(memory.buffer, s.ptr, n);
    view.set(bytes);
    return view;
  }
  const wrapped = new WeakMap(); // function -> its wrapper
  const seen = new WeakSet(); // objects already wrapped

  function viewBytes(t, address) {
    const ref = address && t.viewed.get(address);
    const bytes = ref && ref.deref();
    if (!bytes) return;
    try {
      syncMemory(true, bytes);
    } catch (e) { /* detached: C finds it 0 bytes long and refuses */ }
  }
  function toWasm(t) {
    if (!t) return;
    for (let k = 0; k < 5; k++) if (t[k]) copyIn(t[k]);
    if (t[4] && t.viewed.size) {
      const vr = new Float64Array(t[4]);
      viewBytes(t, vr[VR_DATA]);
      viewBytes(t, vr[VR_B_DATA]);
    }
  }
  // after an opener: its bytes by the address C gave them
  function opened(t, args) {
    if (!t || !t[4]) return;
    const bytes = args.find((a) => ArrayBuffer.isView(a));
    const address = new Float64Array(t[4])[VR_DATA];
    if (!bytes || !address) return;
    if (t.viewed.size > 4096) for (const [a, ref] of t.viewed) if (!ref.deref()) t.viewed.delete(a);
    t.viewed.set(address, new WeakRef(bytes));
  }
  function toJs(t) {
    if (t) for (let k = 0; k < 5; k++) if (t[k]) copyOut(t[k]);
  }

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
    if (typeof obj.setTape === 'function') { // a schema: its tapes, the bytes of its views
      t = [null, null, null, null, null];
      t.viewed = new Map();
    }
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (typeof v === 'function') obj[key] = wrapFunction(v, t, key);
      else if (v && typeof v === 'object') wrapObject(v, t);
    }
    return obj;
  }

  function wrapFunction(fn, t, kind) { // kind: its key, or 'opener' (viewOpeners' result)
    if (wrapped.has(fn)) return wrapped.get(fn);
    const w = function (...args) {
      if (t) {
        for (let i = 0; i < args.length; i++) {
          const a = args[i];
          if (typeof a === 'function') args[i] = wrapCallback(a, t);
          else if (kind !== 'opener' && U8_TAG.call(a) === 'Uint8Array' && a.buffer !== memory.buffer) args[i] = inModule(a);
        }
      }
      toWasm(t);
      let r;
      depth++;
      try {
        r = fn.apply(this, args);
      } finally {
        depth--;
        toJs(t);
      }
      if (kind === 'setTape') {
        t[args[0]] = args[1];
        copyIn(args[1]);
      }
      if (kind === 'opener') opened(t, args);
      if (typeof r === 'function') return wrapFunction(r, t, '');
      if (kind === 'viewOpeners' && Array.isArray(r)) {
        for (let i = 0; i < r.length; i++) if (typeof r[i] === 'function') r[i] = wrapFunction(r[i], t, 'opener');
        seen.add(r);
        return r;
      }
      return wrapObject(r, t);
    };
    for (const k of Object.keys(fn)) w[k] = fn[k]; // e.g. a method's `owner`
    wrapped.set(fn, w);
    return w;
  }

  return wrapObject(exports, null);
}

module.exports = { coherent };

'use strict';
// The JavaScript that moves values on and off the tape (its layout: the core's
// fbe/internal/tape.h, format FBE_TAPE_DOUBLE), per struct, compiled the first time
// the struct is used:
//
//   WRi(v, d) flattens a struct value (class instance or plain object) at depth d onto
//            the tape, checking the JavaScript kind of every field (docs/INPUT.md: a
//            refusal in the core's words, lib/runtime.js); missing fields take the
//            schema defaults; past the core's depth rule it throws the core's error
//   CKi(v)   the check its callers make first (inline where they can): an instance
//            (v[ID] === i) as it is, anything else through PKi: a plain object's names
//            checked (NKi), other values by runtime.js structValue
//   RDi()    builds a struct value from the tape (C wrote it)
//   FRi()    builds it from a final model's bytes on the byte tape at q, verified by the
//            core first (FDi: a verifying final-model decode of up to FAST_MAX bytes, of a
//            struct whose fields are all of kinds FRi reads to RDi's values; the rest,
//            and trusted or standard-model decodes, go through the native decode)
//   Ki       the raw constructor RDi uses: every field in one call, one hidden class
//   MKi(o)   a new value from a plain object with defaults (what `new Ci(o)` returns;
//            unknown names refused at once)
//   ASi(v)   v as an instance where a struct goes (plain objects through MKi)
//   ENi_m, DEi_m  encode/decode entry points per struct and model (m: 0 standard,
//            1 final), each around exactly one native call; TJi, FJi the JSON ones
//
// Loading a schema compiles nothing (a schema of 10^5 structs used to take 55 KB and
// 0.25 ms per struct here). A struct's codec is compiled on first use together with
// every struct it reaches that has none yet (a "group"), as one source evaluated inside
// the schema's shared scope (SHARED): the tape views and positions (F, I64, U64, U8,
// UB, G; n, p) are closure variables every compiled function reaches
// directly, as when the whole schema was one function body. A struct of an earlier
// group is reached through constants bound when the group is compiled, so calls
// between structs stay direct.
//
// The classes (makeClass) are plain JavaScript made when first asked for; they compile
// nothing until a method needs the codec (introspection stays cheap).
const { Buffer } = require('buffer');
const native = require('./native');
const rt = require('./runtime');
const { INHERITED } = require('./values');
const views = require('./views');

const NUM_KINDS = new Set(['byte', 'char', 'wchar', 'int8', 'uint8', 'int16', 'uint16', 'int32',
  'uint32', 'float', 'double']);

// A class's struct: { gen, index } (a subclass of the class inherits it).
const CODEC = Symbol('fbe.codec');
// On a class's prototype, the struct index: what the generated code checks a value is an
// instance by (v[ID] === i: a property load, where instanceof of a class held in a
// variable costs a call). A derived struct's class has its own index, so its instances
// take the slow path (runtime.js structValue) where a base is wanted, and pass there.
const STRUCT_ID = Symbol('fbe.structIndex');
// What a struct class's constructor passes to the one it extends.
const SUBCLASS = Symbol('fbe.subclass');

// Whether small final-model decodes build their values from the verified bytes in
// JavaScript (FDi) rather than from the native decode's tape, for schemas loaded from
// now on: on, but for the tests, which compare the two (setFastDecode).
let FAST_DECODE = true;

const INITIAL_SLOTS = 2048;
// rascii's cases: fromCharCode of 1 .. RASCII_MAX bytes (a small decode's strings, names
// and symbols, are mostly this short)
const RASCII_MAX = 16;
const RASCII_CASES = Array.from({ length: RASCII_MAX }, (_, k) =>
  `    case ${k + 1}: return fcc(${Array.from({ length: k + 1 }, (__, j) => (j ? `U8[a + ${j}]` : 'U8[a]')).join(', ')});`)
  .join('\n');
// fascii's cases: the same, when every byte is ASCII (undefined otherwise)
const FASCII_CASES = Array.from({ length: RASCII_MAX }, (_, k) => {
  const c = Array.from({ length: k + 1 }, (__, j) => `c${j}`);
  const loads = c.map((v, j) => `${v} = U8[a${j ? ` + ${j}` : ''}]`).join(', ');
  return `    case ${k + 1}: { const ${loads}; return (${c.join(' | ')}) < 128 ? fcc(${c.join(', ')}) : undefined; }`;
}).join('\n');
const INITIAL_BYTES = 16384;

/** The tape class of a type: how one value of it is stored. */
function classify(t, enums) {
  const k = t.kind;
  if (k === 'bool') return 'bool';
  if (NUM_KINDS.has(k)) return 'num';
  if (k === 'int64') return 'i64';
  if (k === 'uint64') return 'u64';
  if (k === 'timestamp') return 'ts';
  if (k === 'enum' || k === 'flags') {
    const base = enums[t.enum].$info.base;
    return base === 'int64' ? 'ei64' : base === 'uint64' ? 'eu64' : 'enum';
  }
  return k; // string decimal uuid bytes struct optional array vector list set map hash
}

/** A JavaScript literal for a primitive default value. */
function literal(v) {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      if (Object.is(v, -0)) return '-0';
      if (Number.isNaN(v)) return 'NaN';
      if (v === Infinity) return 'Infinity';
      if (v === -Infinity) return '-Infinity';
      return String(v);
    case 'bigint': return `${v}n`;
    case 'string': return JSON.stringify(v);
    case 'boolean': return String(v);
    default: throw new Error(`fbe: no literal for ${typeof v}`);
  }
}

/** A property access expression for a field name. */
function prop(obj, name) {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && name !== '__proto__'
    ? `${obj}.${name}` : `${obj}[${JSON.stringify(name)}]`;
}

/** An expression reading field `name` of a value given by the user (undefined when
 * absent): a name every object inherits (values.js INHERITED) from own properties only. */
function fieldOf(obj, name) {
  return INHERITED.has(name) ? `OWN(${obj}, ${JSON.stringify(name)})` : prop(obj, name);
}

/** A statement storing a field on an object being built (never the __proto__ setter). */
function store(obj, name, value) {
  return name === '__proto__'
    ? `Object.defineProperty(${obj}, '__proto__', { value: ${value}, writable: true, enumerable: true, configurable: true });`
    : `${prop(obj, name)} = ${value};`;
}

/** The struct indexes a type refers to (its own, its elements', keys'). */
function structsOf(t, out) {
  if (t.kind === 'struct') out.push(t.struct);
  if (t.elem) structsOf(t.elem, out);
  if (t.key) structsOf(t.key, out);
  return out;
}

// ---- the shared scope of a schema: tapes, positions, string helpers, the protocol's
// two entry points, and compile(), which evaluates a group's source in this scope.
// The same text for every schema (V8 compiles it once).
const SHARED = `'use strict';
const { NAT, rt, Buffer, ENUMS, GEN, DESC, ID, VIEWS } = env;
const NATIVE = env.native;
const INT64_MIN = rt.INT64_MIN, INT64_MAX = rt.INT64_MAX, UINT64_MAX = rt.UINT64_MAX;
const EMPTY = Object.freeze({});
const hasOwn = Object.prototype.hasOwnProperty, OBJECT = Object.prototype;
function OWN(o, k) { return hasOwn.call(o, k) ? o[k] : undefined; }
const fcc = String.fromCharCode;
let F, I64, U64, U32, U8, UB, DV, G, NC = 0, PC = 0, n = 0, p = 0;
/* Where a final-model reader (FRi, below) is on the byte tape. */
let q = 0;
/* The compiled codecs, by struct index: {WR, PK, CK, RD, FR, MK, AS, EN0, EN1, DE0, DE1, TJ, FJ}. */
const X = [];

/* Evaluates a group's source here: its functions see this scope's variables as
 * closure variables one scope up (a direct eval in strict code, so nothing it declares
 * leaks out; compile keeps no variable of its own, so it adds no scope between). */
let SOURCE = '', CONSTS = null;
const compile = () => eval(SOURCE); // (an arrow: no arguments or this of its own to keep)
function compileGroup(source, consts) {
  SOURCE = source; CONSTS = consts;
  try { compile(); } finally { SOURCE = ''; CONSTS = null; }
}

function setTapes(nb, bb, gb) {
  F = new Float64Array(nb); I64 = new BigInt64Array(nb); U64 = new BigUint64Array(nb); U32 = new Uint32Array(nb);
  U8 = new Uint8Array(bb); UB = Buffer.from(bb); DV = new DataView(bb); G = new Int32Array(gb);
  NC = F.length; PC = U8.length;
  NAT.setTape(0, nb); NAT.setTape(1, bb); NAT.setTape(2, gb);
}
setTapes(new ArrayBuffer(${INITIAL_SLOTS * 8}), new ArrayBuffer(${INITIAL_BYTES}), new ArrayBuffer(64));

/* Grows the tapes to hold at least needN more slots / needP more bytes past n / p,
 * keeping what is already on them. */
function grow(needN, needP) {
  let nc = NC, pc = PC;
  while (nc < n + needN) nc *= 2;
  while (pc < p + needP) pc *= 2;
  if (nc > 0x10000000 || pc > 0x7fffffff) throw rt.fbeError('value too large for the tape', { status: rt.codes.FBE_ERR_LIMIT });
  const nb = new ArrayBuffer(nc * 8), bb = new ArrayBuffer(pc);
  new Float64Array(nb).set(F.subarray(0, n));
  new Uint8Array(bb).set(U8.subarray(0, p));
  setTapes(nb, bb, G.buffer);
}
function growN(k) { grow(k, 0); }

/* Tapes grown big for big values shrink again when 256 calls in a row used less than
 * a quarter of them, so one big message does not keep its memory (and a steady stream
 * of big ones does not make every call grow them again). */
const BIG_SLOTS = ${INITIAL_SLOTS * 64}, BIG_BYTES = ${INITIAL_BYTES * 256};
let calls = 0, peakN = 0, peakP = 0;
function relax(usedN, usedP) {
  if (usedN > peakN) peakN = usedN;
  if (usedP > peakP) peakP = usedP;
  if (++calls < 256 || n !== 0 || p !== 0) return;
  if (peakN < NC / 4 || peakP < PC / 4) {
    let nc = ${INITIAL_SLOTS}, pc = ${INITIAL_BYTES};
    while (nc < 2 * peakN) nc *= 2;
    while (pc < 2 * peakP) pc *= 2;
    if (nc < NC || pc < PC) setTapes(new ArrayBuffer(Math.min(nc, NC) * 8), new ArrayBuffer(Math.min(pc, PC)), G.buffer);
  }
  calls = peakN = peakP = 0;
}

/* After a native call that did not succeed: grows the tapes when C asked for room
 * (status -1, the caller then calls again), throws the error otherwise. */
function settle() {
  if (G[2] !== -1) throw nativeError();
  grow(G[3], G[4]);
}

/* Encoded results up to 4 KiB land in the output pool at op; each is a Buffer view of
 * its part of the pool (the way Node's Buffer.allocUnsafe pools small buffers). */
const POOL = 32768, POOL_RESULT_MAX = 4096;
let OUT, op = 0;
function newPool() { OUT = new ArrayBuffer(POOL); op = 0; NAT.setTape(3, OUT); }
newPool();
function take() {
  const L = G[6];
  const b = Buffer.from(OUT, op, L);
  op = (op + L + 7) & ~7;
  if (op > POOL - POOL_RESULT_MAX) newPool();
  return b;
}

function nativeError() {
  const [status, message, path, offset, text] = NAT.lastError();
  return rt.fbeError(message, { status, path, offset, text });
}

/* Flattens v with W, the writer of struct i (for toJson, toText and send). */
function flatten(W, i, v) {
  (X[i] || GEN.codec(i)).CK(v);
  const n0 = n, p0 = p;
  try { W(v, 0); } catch (e) { n = n0; p = p0; throw rt.outerError(e, DESC, i, v); }
  G[0] = n0; G[1] = p0; n = n0; p = p0;
}

/* The text form of v, a value of struct i (the core's, docs/TEXT.md); a value that
 * cannot be converted prints as Name(<invalid: the error>), never throws for it. */
function text(i, v) {
  try {
    flatten((X[i] || GEN.codec(i)).WR, i, v);
    const t = NAT.toText(i);
    if (t !== undefined) return t;
    throw nativeError();
  } catch (e) {
    if (!(e instanceof rt.FbeError)) throw e;
    return DESC.structs[i].name + '(<invalid: ' + e.message + '>)';
  }
}

/* Two values compared by the core (native pair: op 0 fbe_msg_equal, 1
 * fbe_msg_key_compare; 2 fbe_msg_key_hash of a alone): a of struct i, b of struct j,
 * flattened one after the other. */
function pair(op, i, a, j, b) {
  const ca = X[i] || GEN.codec(i), cb = op === 2 ? null : X[j] || GEN.codec(j);
  const Wa = ca.WR, Wb = cb && cb.WR;
  ca.CK(a);
  if (cb) cb.CK(b);
  const n0 = n, p0 = p;
  let at = a, k = i;
  try {
    Wa(a, 0);
    G[8] = n; G[9] = p;
    if (Wb) { at = b; k = j; Wb(b, 0); }
  } catch (e) { n = n0; p = p0; throw rt.outerError(e, DESC, k, at); }
  G[0] = n0; G[1] = p0; n = n0; p = p0;
  const r = NAT.pair(op, i, j);
  if (G[2] !== 0) throw nativeError();
  return r;
}

/* A new value of struct i from v (an instance or a plain object), checked by the core
 * and read back in its form (native copy): clone and fromObject. */
function copyOf(i, v) {
  const c = X[i] || GEN.codec(i);
  flatten(c.WR, i, v);
  NAT.copy(i);
  if (G[2] !== 0) { settle(); return copyOf(i, v); }
  const n0 = n, p0 = p;
  n = G[8]; p = G[9];
  try { return c.RD(); } finally { n = n0; p = p0; }
}

/* Strings: short ASCII ones byte by byte, the rest through Buffer's UTF-8 writer. A
 * string with a lone surrogate has no UTF-8 form (the writer would put U+FFFD in its
 * place): its code units go on the tape as they stand (ED A0 80 for U+D800), and the
 * core's check refuses them with the words every binding uses. */
/* A safe-integer number (|x| <= 2^53 - 1) into a 64-bit slot as its two's-complement
 * bits, in two 32-bit halves: the slot an int64 or uint64 bigint of the same value
 * writes, without making the bigint. */
function wn64(x) {
  const i = n++ * 2;
  U32[i + (LE ? 0 : 1)] = x >>> 0;
  U32[i + (LE ? 1 : 0)] = Math.floor(x / 4294967296) >>> 0;
}
function wstr(s) {
  const L = s.length;
  if (L < 64) {
    if (p + L * 3 > PC) grow(1, L * 3);
    let i = 0;
    for (; i < L; i++) { const c = s.charCodeAt(i); if (c > 127) break; U8[p + i] = c; }
    if (i === L) { F[n++] = L; p += L; return; }
  } else if (p + L * 3 > PC) {
    grow(1, Buffer.byteLength(s));
  }
  if (!rt.wellFormed(s)) { wunits(s); return; }
  const w = UB.utf8Write(s, p);
  F[n++] = w; p += w;
}
/* The L strings of array a (a list of them) in one UTF-8 write of their join, when
 * every one is a string and all are ASCII (then the bytes written are the code units:
 * each string's length is its byte length); else false with nothing written, and the
 * caller writes them one by one (wstr, and a refusal in its words). One call into C
 * for the lot instead of a loop of charCodeAt per string. */
function wstrs(a, L) {
  if (L < 2) return false;
  let total = 0;
  for (let i = 0; i < L; i++) { const s = a[i]; if (typeof s !== 'string') return false; total += s.length; }
  if (total > 65536) return false;
  if (p + total * 3 > PC) grow(L, total * 3);
  const j = a.join('');
  if (j.length !== total || UB.utf8Write(j, p) !== total) return false; /* (a changed array, or not ASCII) */
  let t = 0; /* (the lengths read again: an array whose elements changed meanwhile falls back) */
  for (let i = 0; i < L; i++) { const l = a[i].length; F[n + i] = l; t += l; }
  if (t !== total) return false;
  n += L; p += total;
  return true;
}
/* Each UTF-16 code unit of s as UTF-8 would write it, pairs joined, lone ones alone. */
function wunits(s) {
  if (p + s.length * 3 > PC) grow(1, s.length * 3);
  const o = rt.unitsUtf8(s, U8, p);
  F[n++] = o - p; p = o;
}
/* Decimal and uuid text: ASCII by contract (the core rejects anything else). */
function wascii(s) {
  const L = s.length;
  if (p + L * 3 > PC) grow(1, L * 3);
  const w = UB.utf8Write(s, p);
  F[n++] = w; p += w;
}
function wbytes(b) {
  const L = b.length;
  if (p + L > PC) grow(1, L);
  U8.set(b, p);
  F[n++] = L; p += L;
}
/* Short ASCII strings from their bytes without a call into C (a Buffer slice is one):
 * up to RASCII_MAX bytes, one String.fromCharCode of every byte. */
function rascii(a, L) {
  switch (L) {
    case 0: return '';
${RASCII_CASES}
    default: return UB.latin1Slice(a, a + L);
  }
}
function rstr() {
  const L = F[n++];
  const a = p;
  if (L >= 0) { p += L; return rascii(a, L); }
  p -= L;
  return UB.utf8Slice(a, p);
}
/* L strings in a row (a collection of them): when all are ASCII (no negated length),
 * their bytes are one latin1 string made with one call into C, each string a substring
 * of it; past 64 KiB of text one call each, so no kept string holds much more than it
 * is. */
function rstrs(L) {
  const r = new Array(L);
  let total = 0;
  for (let i = 0; i < L; i++) { const x = F[n + i]; if (x < 0) { total = -1; break; } total += x; }
  if (total < 0 || total > 65536 || L < 2) { for (let i = 0; i < L; i++) r[i] = rstr(); return r; }
  const s = UB.latin1Slice(p, p + total);
  let o = 0;
  for (let i = 0; i < L; i++) { const x = F[n++]; r[i] = x <= ${RASCII_MAX} ? rascii(p + o, x) : s.substring(o, o + x); o += x; }
  p += total;
  return r;
}
/* The final model's string at q (verified: a u32 length, then that many bytes of UTF-8):
 * a short ASCII one by rascii, any other through Buffer's UTF-8 reader. */
function fstr() {
  const L = DV.getUint32(q, true);
  const a = q + 4;
  q = a + L;
  if (L <= ${RASCII_MAX}) {
    const r = fascii(a, L);
    if (r !== undefined) return r;
  }
  return UB.utf8Slice(a, q);
}
/* Up to RASCII_MAX bytes at a as one String.fromCharCode when all are ASCII, else
 * undefined (they are UTF-8 then: fstr decodes them as such). */
function fascii(a, L) {
  switch (L) {
    case 0: return '';
${FASCII_CASES}
    default: return undefined;
  }
}
/* The final model's 64-bit integers at q: on a little-endian host through an aligned
 * scratch (a DataView's bigint getter is a call V8 does not inline), else DataView. */
const S8 = new Uint8Array(8), SU64 = new BigUint64Array(S8.buffer), SI64 = new BigInt64Array(S8.buffer);
const LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
function scratch8(a) {
  S8[0] = U8[a]; S8[1] = U8[a + 1]; S8[2] = U8[a + 2]; S8[3] = U8[a + 3];
  S8[4] = U8[a + 4]; S8[5] = U8[a + 5]; S8[6] = U8[a + 6]; S8[7] = U8[a + 7];
}
function fu64() {
  const a = q;
  q = a + 8;
  if (!LE) return DV.getBigUint64(a, true);
  scratch8(a);
  return SU64[0];
}
function fi64() {
  const a = q;
  q = a + 8;
  if (!LE) return DV.getBigInt64(a, true);
  scratch8(a);
  return SI64[0];
}
function fbytes() {
  const L = DV.getUint32(q, true);
  const b = Buffer.allocUnsafe(L);
  b.set(U8.subarray(q + 4, q + 4 + L));
  q += 4 + L;
  return b;
}
/* Input of a final-model decode that builds its value in JavaScript (FDi): copied onto
 * the byte tape at p, where the core verifies it (native vfy) and FRi reads it. Up to
 * FAST_MAX bytes; bigger inputs take the native decode (a copy would cost more than it
 * saves). */
const FAST_MAX = 4096;
function onTape(b, L) {
  if (p + L > PC) grow(0, L);
  if (L !== 0) U8.set(b, p); /* (a detached buffer has length 0: nothing to copy) */
  G[1] = p; G[10] = L;
}
function rbytes() {
  const L = F[n++];
  const b = Buffer.allocUnsafe(L);
  b.set(U8.subarray(p, p + L));
  p += L;
  return b;
}

/* Protocol: send flattens then one native call; receive's deliver builds the value.
 * log: the log hook's function(text), when it is on. */
function send(snat, i, v, log) {
  flatten((X[i] || GEN.codec(i)).WR, i, v);
  G[7] = op;
  const frame = log === undefined ? snat.send(i) : snat.send(i, log);
  if (G[2] !== 0) throw nativeError();
  return frame === undefined ? take() : frame;
}
function feed(rnat, b, onMessage, log) {
  G[0] = n; G[1] = p;
  const n0 = n, p0 = p;
  let delivered = 0;
  const deliver = (i) => {
    if (G[2] === -1) { grow(G[3], G[4]); return true; }
    const v = (X[i] || GEN.codec(i)).RD();
    n = n0; p = p0;
    delivered++;
    onMessage(v, i);
    G[0] = n0; G[1] = p0;
    return false;
  };
  if (log === undefined) rnat.feed(b, deliver);
  else rnat.feed(b, deliver, log);
  if (G[2] !== 0) throw nativeError();
  return delivered;
}

/* The peers' (lib/client.js, native/rpc.c) crossing: put/put2 flatten the value(s) a
 * native call reads (at G[0]/G[1], the second at G[8]/G[9]); mark() says where the
 * callbacks of a call find their messages (the caller's place, again after each
 * callback, whose code may have used the tape); got(i) reads such a message, or
 * undefined after growing the tapes when C asked for room (C then writes it again). */
const PEER = {
  put(i, v) { flatten((X[i] || GEN.codec(i)).WR, i, v); },
  put2(i, a, j, b) {
    const ca = X[i] || GEN.codec(i), cb = X[j] || GEN.codec(j);
    ca.CK(a);
    cb.CK(b);
    const n0 = n, p0 = p;
    let at = a, k = i;
    try {
      ca.WR(a, 0);
      G[8] = n; G[9] = p;
      at = b; k = j;
      cb.WR(b, 0);
    } catch (e) { n = n0; p = p0; throw rt.outerError(e, DESC, k, at); }
    G[0] = n0; G[1] = p0; n = n0; p = p0;
  },
  mark() { G[0] = n; G[1] = p; },
  got(i) {
    if (G[2] === -1) { grow(G[3], G[4]); return undefined; }
    const n0 = n, p0 = p;
    try { return (X[i] || GEN.codec(i)).RD(); } finally { n = n0; p = p0; }
  },
  status() { return G[2]; },
};

/* Views (lib/views.js, native/view.c): the view registers, the token only the compiled
 * classes pass to a view constructor (so no other code makes a view of its own numbers),
 * and the operations every view class shares. VL puts a view in the registers at o. */
const VR = new Float64Array(24);
NAT.setTape(4, VR.buffer);
const VTOKEN = Object.freeze({});
const OP = VIEWS.OP, ITEM = VIEWS.ITEM, KEY = VIEWS.KEY, VFINAL = VIEWS.isFinal;
/* The intrinsic length of a typed array (a subclass or a changed prototype cannot say
 * otherwise): C reads the view's bytes from its address up to this length (view.c). */
const U8LEN = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get;
function VL(o, t, e, m, a, s, g, d, b) {
  VR[o] = a; VR[o + 1] = s; VR[o + 2] = g; VR[o + 3] = e; VR[o + 4] = m; VR[o + 5] = t; VR[o + 8] = d; VR[o + 9] = U8LEN.call(b);
}
function vfail() { throw nativeError(); }
function vnew() { throw new TypeError('fbe: a view is made by Type.view(bytes), not by its constructor'); }
/* op (views.js OP_*) on the view (b: its bytes, d their address; t e m a s g: its type
 * and place); R reads a value of the view's type from the tape (decode's reader). */
function VS(op, R, x, b, t, e, m, a, s, g, d) {
  if (op === 3) return vequal(x, b, t, e, m, a, s, g, d);
  if (op === 0) { // the core makes the value (viewValue: decode's, one entry per key)
    for (;;) {
      VL(0, t, e, m, a, s, g, d, b);
      G[0] = n; G[1] = p;
      NAT.viewValue();
      if (G[2] === 0) break;
      settle();
    }
    const n0 = n, p0 = p;
    try { return R(); } finally { n = n0; p = p0; }
  }
  VL(0, t, e, m, a, s, g, d, b);
  const r = NAT.viewText(op === 2, x === true);
  if (r === undefined) throw nativeError();
  return r;
}
/* The view against x: another view of this schema, or a value of one of its structs
 * (flattened onto the tape); false for anything else. */
function vequal(x, b, t, e, m, a, s, g, d) {
  if (x instanceof VIEWS.View || x instanceof VIEWS.ListView || x instanceof VIEWS.MapView) {
    if (x[OP](4, GEN) !== GEN) return false; // (a view of another schema)
    VL(0, t, e, m, a, s, g, d, b);
    const r = NAT.viewEqual(true, 0);
    if (r === undefined) throw nativeError();
    return r === 1;
  }
  const j = GEN.indexOf(x);
  if (j < 0) return false;
  const c = X[j] || GEN.codec(j);
  c.CK(x);
  const n0 = n, p0 = p;
  try { c.WR(x, 0); } catch (err) { n = n0; p = p0; throw rt.outerError(err, DESC, j, x); }
  G[8] = n0; G[9] = p0; n = n0; p = p0;
  VL(0, t, e, m, a, s, g, d, b);
  const r = NAT.viewEqual(false, j);
  if (r === undefined) throw nativeError();
  return r === 1;
}

return { compileGroup, X, send, feed, nativeError, text, pair, copyOf, PEER };`

/**
 * The source of one group: the codecs of `group` (struct indexes), which reach only
 * each other and structs compiled before (in X).
 */
function groupSource(desc, enums, group, fastDecode) {
  const structs = desc.structs;
  const inGroup = new Set(group);
  const consts = []; // values the code refers to by index (Buffers of defaults)
  const constRef = (v) => {
    consts.push(v);
    return `CONST[${consts.length - 1}]`;
  };
  const helpers = new Map(); // signature -> {name, code}
  const usedEnums = new Set();
  const imported = new Set(); // structs of earlier groups this one calls
  let tmp = 0;
  const maxDepth = rt.MAX_DEPTH;
  const ref = (j) => {
    if (!inGroup.has(j)) imported.add(j);
    return j;
  };
  const enumRef = (k) => {
    usedEnums.add(k);
    return `E${k}`;
  };
  // the sites where a value can be refused (runtime.js site): one constant each
  const sites = new Map(); // "si,fi,steps" -> name
  const siteRef = (r) => {
    const key = `${r.si},${r.fi},${r.steps}`;
    if (!sites.has(key)) sites.set(key, `S${sites.size}`);
    return sites.get(key);
  };
  const down = (r, step) => ({ si: r.si, fi: r.fi, steps: r.steps + step });

  // ---- fixed slots a value writes outside collections (struct writers check theirs)
  function fixedSlots(t) {
    switch (t.kind) {
      case 'struct': return 0;
      case 'optional': return 1 + fixedSlots(t.elem);
      case 'array': return t.size * fixedSlots(t.elem);
      default: return 1;
    }
  }

  // ---- defaults
  function zero(t) {
    switch (classify(t, enums)) {
      case 'bool': return 'false';
      case 'num': case 'enum': return '0';
      case 'i64': case 'u64': case 'ts': case 'ei64': case 'eu64': return '0n';
      case 'string': return '""';
      case 'decimal': return '"0"';
      case 'uuid': return '"00000000-0000-0000-0000-000000000000"';
      case 'bytes': return 'Buffer.alloc(0)';
      case 'struct': return `MK${ref(t.struct)}()`;
      case 'optional': return 'null';
      case 'array': return t.size <= 16
        ? `[${new Array(t.size).fill(0).map(() => zero(t.elem)).join(', ')}]`
        : `Array.from({ length: ${t.size} }, () => ${zero(t.elem)})`;
      case 'vector': case 'list': return '[]';
      case 'set': return rt.floatKeyed(t.elem) ? '[]' : 'new Set()';
      default: return rt.floatKeyed(t.key) ? '[]' : 'new Map()';
    }
  }
  function fieldDefault(f) {
    if (f.dynamic === 'utc') return 'NATIVE.utcNow()';
    if (f.dynamic === 'uuid1') return 'NATIVE.uuid1()';
    if (f.dynamic === 'uuid4') return 'NATIVE.uuid4()';
    const t = f.type;
    if (f.default === undefined) return zero(t.kind === 'optional' ? t.elem : t);
    if (Buffer.isBuffer(f.default)) {
      return f.default.length ? `Buffer.from(${constRef(f.default)})` : 'Buffer.alloc(0)';
    }
    return literal(f.default);
  }

  // One level deeper (an optional holding a value, any collection but a fixed array):
  // past the core's depth the value is refused here, with the core's error. d is the
  // variable holding the depth of x; the statement declares the next one's, dk.
  const enter = (path, d, k) =>
    `if (${d} >= ${maxDepth}) throw rt.tooDeep(${path}); const d${k} = ${d} + 1;`;

  // ---- writers: statements that put the value in variable x, at depth d (the name of
  // a variable: WRi's parameter, or one enter declared), on the tape. r: where the type
  // is ({si, fi, steps}); at: the site whose type a refusal names (an optional's for the
  // value it holds: "int32 or null").
  function writer(t, x, path, d, r, at) {
    const c = classify(t, enums);
    switch (c) {
      case 'bool':
        return `if (${x} === true) F[n++] = 1; else if (${x} === false) F[n++] = 0; ` +
          `else throw rt.kindErr(${at}, ${path}, ${x});`;
      case 'num':
        return `F[n++] = typeof ${x} === 'number' ? ${x} : rt.num(${x}, '${t.kind}', ${path}, ${at});`;
      case 'enum':
        return `F[n++] = typeof ${x} === 'number' ? ${x} : rt.enumNum(${enumRef(t.enum)}, ${x}, ${path}, ${at});`;
      case 'i64':
        // (asIntN(64, x) === x: x within int64, one builtin where two bigint comparisons cost twice as much)
        // a safe-integer number: its bits in two halves (wn64), no bigint made
        return `if (typeof ${x} === 'bigint' && BigInt.asIntN(64, ${x}) === ${x}) I64[n++] = ${x}; ` +
          `else if (Number.isSafeInteger(${x})) wn64(${x}); else I64[n++] = rt.i64(${x}, ${path}, ${at});`;
      case 'u64':
        return `if (typeof ${x} === 'bigint' && BigInt.asUintN(64, ${x}) === ${x}) U64[n++] = ${x}; ` +
          `else if (Number.isSafeInteger(${x}) && ${x} >= 0) wn64(${x}); else U64[n++] = rt.u64(${x}, ${path}, ${at});`;
      case 'ts':
        return `U64[n++] = typeof ${x} === 'bigint' && BigInt.asUintN(64, ${x}) === ${x} ? ${x} : rt.timestamp(${x}, ${path}, ${at});`;
      case 'ei64':
        return `I64[n++] = rt.enumBig(${enumRef(t.enum)}, ${x}, ${path}, ${at});`;
      case 'eu64':
        return `U64[n++] = rt.enumBig(${enumRef(t.enum)}, ${x}, ${path}, ${at});`;
      case 'string':
        return `if (typeof ${x} === 'string') wstr(${x}); else throw rt.kindErr(${at}, ${path}, ${x});`;
      case 'decimal':
        return `wascii(typeof ${x} === 'string' ? ${x} : rt.decimal(${x}, ${path}, ${at}));`;
      case 'uuid':
        return `if (typeof ${x} === 'string') wascii(${x}); else throw rt.kindErr(${at}, ${path}, ${x});`;
      case 'bytes':
        return `wbytes(${x} instanceof Uint8Array ? ${x} : rt.bytes(${x}, ${path}, ${at}));`;
      case 'struct': {
        const j = ref(t.struct);
        // an instance as it is; anything else checked first (the struct row of INPUT.md)
        const check = `if (${x} == null || ${x}[ID] !== ${j}) PK${j}(${x}, ${at}, ${path});`;
        if (path === "''") return `${check} WR${j}(${x}, ${d});`;
        return `${check} try { WR${j}(${x}, ${d}); } catch (e) { throw rt.prefixPath(e, ${path}); }`;
      }
      case 'optional': {
        const k = tmp++;
        return `if (${x} === null || ${x} === undefined) F[n++] = 0; ` +
          `else { F[n++] = 1; ${enter(path, d, k)} ${writer(t.elem, x, path, `d${k}`, down(r, 'e'), at)} }`;
      }
      case 'array': {
        const k = tmp++;
        const e = down(r, 'e');
        return `if (!Array.isArray(${x})) throw rt.kindErr(${at}, ${path}, ${x}); ` +
          `if (${x}.length !== ${t.size}) throw rt.coreErr(NAT.inputError('length', ${r.si}, ${r.fi}, '${r.steps}', ${x}.length), ${path}); ` +
          `{ let i${k} = 0; try { for (; i${k} < ${t.size}; i${k}++) { const e${k} = ${x}[i${k}]; ` +
          `${writer(t.elem, `e${k}`, "''", d, e, siteRef(e))} } } catch (e) { throw rt.prefixPath(e, ${path}, i${k}); } }`;
      }
      case 'vector': case 'list': {
        const k = tmp++;
        const per = fixedSlots(t.elem);
        const e = down(r, 'e');
        return `if (!Array.isArray(${x})) throw rt.kindErr(${at}, ${path}, ${x}); ` +
          `{ ${enter(path, d, k)} const L${k} = ${x}.length; if (n + 1 + L${k} * ${per} > NC) growN(1 + L${k} * ${per}); ` +
          `F[n++] = L${k}; ${classify(t.elem, enums) === 'string' ? `if (!wstrs(${x}, L${k})) ` : ''}` +
          `{ let i${k} = 0; try { for (; i${k} < L${k}; i${k}++) { const e${k} = ${x}[i${k}]; ` +
          `${writer(t.elem, `e${k}`, "''", `d${k}`, e, siteRef(e))} } } catch (e) { throw rt.prefixPath(e, ${path}, i${k}); } } }`;
      }
      case 'set': {
        const k = tmp++;
        const per = fixedSlots(t.elem);
        const e = down(r, 'e');
        return `{ const s${k} = rt.setValues(${x}, ${path}, ${at}); ${enter(path, d, k)} ` +
          `const L${k} = Array.isArray(s${k}) ? s${k}.length : s${k}.size; ` +
          `if (n + 1 + L${k} * ${per} > NC) growN(1 + L${k} * ${per}); F[n++] = L${k}; let i${k} = 0; ` +
          `try { for (const e${k} of s${k}) { ${writer(t.elem, `e${k}`, "''", `d${k}`, e, siteRef(e))} i${k}++; } } ` +
          `catch (e) { throw rt.prefixPath(e, ${path}, i${k}); } }`;
      }
      default: { // map, hash
        const k = tmp++;
        const per = fixedSlots(t.key) + fixedSlots(t.elem);
        const kr = down(r, 'k'), vr = down(r, 'e');
        return `{ const m${k} = rt.entries(${x}, ${path}, ${at}, '${rt.keyText(t.key, enums)}'); ${enter(path, d, k)} ` +
          `const L${k} = m${k} instanceof Map ? m${k}.size : m${k}.length; ` +
          `if (n + 1 + L${k} * ${per} > NC) growN(1 + L${k} * ${per}); F[n++] = L${k}; let i${k} = 0; ` +
          `try { for (const [k${k}, v${k}] of m${k}) { ` +
          `try { ${writer(t.key, `k${k}`, "''", `d${k}`, kr, siteRef(kr))} } catch (e) { throw rt.prefixPath(e, '[key]'); } ` +
          `${writer(t.elem, `v${k}`, "''", `d${k}`, vr, siteRef(vr))} i${k}++; } } catch (e) { throw rt.prefixPath(e, ${path}, i${k}); } }`;
      }
    }
  }

  // ---- readers: an expression reading one value from the tape
  function helper(signature, makeCode) {
    let h = helpers.get(signature);
    if (!h) {
      h = { name: `H${helpers.size}`, code: '' };
      helpers.set(signature, h);
      h.code = makeCode(h.name);
    }
    return `${h.name}()`;
  }
  function reader(t) {
    switch (classify(t, enums)) {
      case 'bool': return 'F[n++] !== 0';
      case 'num': case 'enum': return 'F[n++]';
      case 'i64': case 'ei64': return 'I64[n++]';
      case 'u64': case 'ts': case 'eu64': return 'U64[n++]';
      case 'string': case 'decimal': case 'uuid': return 'rstr()';
      case 'bytes': return 'rbytes()';
      case 'struct': return `RD${ref(t.struct)}()`;
      case 'optional': return `(F[n++] !== 0 ? ${reader(t.elem)} : null)`;
      // (arrays made at their length and filled: a push per element costs 3x as much
      // for bigints; strings of a collection through rstrs)
      case 'array':
        if (classify(t.elem, enums) === 'string') return `rstrs(${t.size})`;
        return helper(`array:${t.size}:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}() { const a = new Array(${t.size}); for (let i = 0; i < ${t.size}; i++) a[i] = ${reader(t.elem)}; return a; }`);
      case 'vector': case 'list':
        if (classify(t.elem, enums) === 'string') return 'rstrs(F[n++])';
        return helper(`vector:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}() { const L = F[n++]; const a = new Array(L); for (let i = 0; i < L; i++) a[i] = ${reader(t.elem)}; return a; }`);
      case 'set': // the core has collapsed duplicates: every element is distinct
        if (rt.floatKeyed(t.elem)) return reader({ kind: 'vector', elem: t.elem });
        if (classify(t.elem, enums) === 'string') return 'new Set(rstrs(F[n++]))';
        return helper(`set:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}() { const L = F[n++]; const s = new Set(); for (let i = 0; i < L; i++) s.add(${reader(t.elem)}); return s; }`);
      default:
        if (rt.floatKeyed(t.key)) {
          return helper(`map-pairs:${JSON.stringify(t.key)}:${JSON.stringify(t.elem)}`, (name) =>
            `function ${name}() { const L = F[n++]; const a = new Array(L); for (let i = 0; i < L; i++) { const k = ${reader(t.key)}; a[i] = [k, ${reader(t.elem)}]; } return a; }`);
        }
        return helper(`map:${JSON.stringify(t.key)}:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}() { const L = F[n++]; const m = new Map(); for (let i = 0; i < L; i++) { const k = ${reader(t.key)}; m.set(k, ${reader(t.elem)}); } return m; }`);
    }
  }

  // ---- final-model readers straight from verified bytes on the byte tape (FRi, at q):
  // for structs whose every field is of a kind read here to the same value the native
  // decode gives (scalars, enums, flags, strings, bytes, structs of such, optionals,
  // arrays, vectors and lists of them); decimals, uuids (text made by C), sets, maps
  // and hashes (duplicate keys collapsed by the core) keep the native decode
  const fastMemo = new Map(); // struct index -> whether it has a final reader
  function fastStruct(j) {
    if (fastMemo.has(j)) return fastMemo.get(j);
    fastMemo.set(j, true); // (a struct reaching itself: decided by its other fields)
    const ok = structs[j].fields.every((f) => fastable(f.type));
    fastMemo.set(j, ok);
    return ok;
  }
  function fastable(t) {
    switch (classify(t, enums)) {
      case 'decimal': case 'uuid': case 'set': case 'map': case 'hash': return false;
      case 'struct': return fastStruct(t.struct);
      case 'optional': case 'array': case 'vector': case 'list': return fastable(t.elem);
      default: return true;
    }
  }
  const FIXED_GET = {
    byte: 'U8[q++]', char: 'U8[q++]', uint8: 'U8[q++]', int8: 'DV.getInt8(q++)',
    int16: 'DV.getInt16((q += 2) - 2, true)', uint16: 'DV.getUint16((q += 2) - 2, true)',
    int32: 'DV.getInt32((q += 4) - 4, true)', uint32: 'DV.getUint32((q += 4) - 4, true)',
    wchar: 'DV.getUint32((q += 4) - 4, true)', float: 'DV.getFloat32((q += 4) - 4, true)',
    double: 'DV.getFloat64((q += 8) - 8, true)', int64: 'fi64()', uint64: 'fu64()', timestamp: 'fu64()',
  };
  function freader(t) {
    const c = classify(t, enums);
    switch (c) {
      case 'bool': return '(U8[q++] !== 0)';
      case 'enum': case 'ei64': case 'eu64': return FIXED_GET[enums[t.enum].$info.base];
      case 'string': return 'fstr()';
      case 'bytes': return 'fbytes()';
      case 'struct': return `FR${ref(t.struct)}()`;
      case 'optional': return `(U8[q++] !== 0 ? ${freader(t.elem)} : null)`;
      case 'array':
        return helper(`farray:${t.size}:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}() { const a = new Array(${t.size}); for (let i = 0; i < ${t.size}; i++) a[i] = ${freader(t.elem)}; return a; }`);
      case 'vector': case 'list':
        return helper(`fvector:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}() { const L = DV.getUint32(q, true); q += 4; const a = new Array(L); ` +
          `for (let i = 0; i < L; i++) a[i] = ${freader(t.elem)}; return a; }`);
      default: return FIXED_GET[t.kind];
    }
  }

  // the name of a function returning reader(t)'s value (a view's toValue reads with it)
  function readerFn(t) {
    const call = helper(`read:${JSON.stringify(t)}`, (name) => `function ${name}() { return ${reader(t)}; }`);
    return call.slice(0, -2);
  }

  // ---- constructor coercion: plain objects become class instances where structs go,
  // sets become Sets and maps Maps (from arrays, pairs or plain objects), those of float
  // elements or keys Arrays (rt.floatKeyed); anything else is kept as given (encode
  // checks it)
  function needsCoercion(t) {
    if (t.kind === 'struct' || t.kind === 'set' || t.kind === 'map' || t.kind === 'hash') return true;
    return Boolean((t.elem && needsCoercion(t.elem)) || (t.key && needsCoercion(t.key)));
  }
  function coerce(t, x) {
    if (!needsCoercion(t)) return x;
    switch (t.kind) {
      case 'struct': return `AS${ref(t.struct)}(${x})`;
      case 'optional': return `(${x} === null ? null : ${coerce(t.elem, x)})`;
      case 'array': case 'vector': case 'list':
        return helper(`coerce-array:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}(a) { return Array.isArray(a) ? a.map((e, i) => { ` +
          `try { return ${coerce(t.elem, 'e')}; } catch (err) { throw rt.prefixPath(err, '', i); } }) : a; }`)
          .replace('()', `(${x})`);
      case 'set': {
        const elems = `Array.from(s, (e, i) => { try { return ${coerce(t.elem, 'e')}; } ` +
          'catch (err) { throw rt.prefixPath(err, \'\', i); } })';
        const make = rt.floatKeyed(t.elem) ? elems : `new Set(${elems})`;
        return helper(`coerce-set:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}(s) { return s instanceof Set || Array.isArray(s) ? ${make} : s; }`)
          .replace('()', `(${x})`);
      }
      default: {
        const pairs = rt.floatKeyed(t.key);
        return helper(`coerce-map:${JSON.stringify(t.key)}:${JSON.stringify(t.elem)}`, (name) =>
          `function ${name}(m) { ` +
          `if (rt.isPlain(m)) m = rt.objectEntries(m, '${rt.keyText(t.key, enums)}'); ` +
          `if (!(m instanceof Map) && !Array.isArray(m)) return m; const r = ${pairs ? '[]' : 'new Map()'}; let i = 0, k; ` +
          `for (const e of m) { if (!Array.isArray(e)) return m; ` +
          `try { k = ${coerce(t.key, 'e[0]')}; } catch (err) { throw rt.prefixPath(rt.prefixPath(err, '[key]'), '', i); } ` +
          `try { ${pairs ? 'r.push([k, ' : 'r.set(k, '}${coerce(t.elem, 'e[1]')}${pairs ? '])' : ')'}; } ` +
          `catch (err) { throw rt.prefixPath(err, '', i); } i++; } return r; }`)
          .replace('()', `(${x})`);
      }
    }
  }

  // ---- views (lib/views.js): a class per struct and per collection type; a getter
  // or element reads through one native call (viewGet) with the view in the registers
  const viewClasses = new Map(); // signature -> {name, code}
  const STATE = '#b; #e; #m; #a; #s; #g; #d;\n' +
    '  constructor(k, b, e, m, a, s, g, d) { super(); if (k !== VTOKEN) vnew(); ' +
    'this.#b = b; this.#e = e; this.#m = m; this.#a = a; this.#s = s; this.#g = g; this.#d = d; }';
  const load = (vt, op, index) => `VR[0] = this.#a; VR[1] = this.#s; VR[2] = this.#g; VR[3] = this.#e; ` +
    `VR[4] = this.#m; VR[5] = ${vt}; VR[6] = ${op}; VR[7] = ${index}; VR[8] = this.#d; VR[9] = U8LEN.call(this.#b);`;
  const opMethod = (vt, R) => `[OP](op, x) { if (op === 4) { if (x !== GEN) return undefined; ` +
    `VL(12, ${vt}, this.#e, this.#m, this.#a, this.#s, this.#g, this.#d, this.#b); return GEN; } ` +
    `return VS(op, ${R}, x, this.#b, ${vt}, this.#e, this.#m, this.#a, this.#s, this.#g, this.#d); }`;
  const isView = (t) => ['struct', 'array', 'vector', 'list', 'set', 'map', 'hash'].includes(t.kind);
  // the expression for what viewGet returned (r) for a value of type t at r0
  function viewResult(t, r0) {
    let u = t;
    let steps = r0.steps;
    while (u.kind === 'optional') { u = u.elem; steps += 'e'; }
    if (!isView(u)) return '(r !== undefined ? r : vfail())';
    const cls = u.kind === 'struct' ? `V${ref(u.struct)}` : viewClass(u, { si: r0.si, fi: r0.fi, steps });
    return `(r === true ? new ${cls}(VTOKEN, this.#b, this.#e, this.#m, VR[0], VR[1], VR[2], this.#d) : r === null ? null : vfail())`;
  }
  // the class of a collection type t (at site r: where viewType finds it)
  function viewClass(t, r) {
    const sig = JSON.stringify(t);
    let h = viewClasses.get(sig);
    if (h) return h.name;
    h = { name: `Q${viewClasses.size}`, code: '' };
    viewClasses.set(sig, h);
    const vt = `${h.name}T`;
    const head = `const ${vt} = NAT.viewType(${r.si}, ${r.fi}, '${r.steps}');\n`;
    const get = (op, elem, steps) => `${load(vt, op, 'i')} const r = NAT.viewGet(); return ${viewResult(elem, { si: r.si, fi: r.fi, steps })};`;
    const count = `${load(vt, 0, 0)} const c = NAT.viewCount(); return c !== undefined ? c : vfail();`;
    const index = (n) => `const L = this.${n}; i = Math.trunc(i) || 0; if (i < 0) i += L; if (i < 0 || i >= L) return undefined;`;
    // toValue: the core makes the value (decode's form exactly, a set or map one entry per
    // key) and decode's reader of the type reads it; a list of scalars or strings (its
    // elements as written) iterates over that value, in one call
    const R = readerFn(t);
    const whole = t.kind !== 'set' && !isView(t.elem.kind === 'optional' ? t.elem.elem : t.elem)
      ? '  [Symbol.iterator]() { return this.toValue()[Symbol.iterator](); }\n  toArray() { return this.toValue(); }\n' : '';
    if (t.kind === 'map' || t.kind === 'hash') {
      h.code = `${head}class ${h.name} extends VIEWS.MapView {\n  ${STATE}\n` +
        `  ${opMethod(vt, R)}\n` +
        `  get size() { ${count} }\n` +
        `  keyAt(i) { ${index('size')} return this[KEY](i); }\n` +
        `  valueAt(i) { ${index('size')} return this[ITEM](i); }\n` +
        `  [KEY](i) { ${get(3, t.key, `${r.steps}k`)} }\n` +
        `  [ITEM](i) { ${get(4, t.elem, `${r.steps}e`)} }\n}`;
    } else {
      h.code = `${head}class ${h.name} extends VIEWS.ListView {\n  ${STATE}\n` +
        `  ${opMethod(vt, R)}\n${whole}` +
        `  get length() { ${count} }\n` +
        `  at(i) { ${index('length')} return this[ITEM](i); }\n` +
        `  [ITEM](i) { ${get(2, t.elem, `${r.steps}e`)} }\n}`;
    }
    return h.name;
  }
  function structView(i) {
    const s = structs[i];
    const getters = s.fields.map((f, j) =>
      `  get [${JSON.stringify(f.name)}]() { ${load(`VT${i}`, 1, j)} const r = NAT.viewGet(); ` +
      `return ${viewResult(f.type, { si: i, fi: j, steps: '' })}; }`);
    return `const VT${i} = NAT.viewType(${i}, -1, ''), [VO${i}_0, VO${i}_1] = NAT.viewOpeners(${i});
class V${i} extends VIEWS.View {
  ${STATE}
  ${opMethod(`VT${i}`, `RD${i}`)}
${getters.join('\n')}
}
Object.defineProperty(V${i}, 'name', { value: ${JSON.stringify(`${s.name}View`)} });
function VW${i}(b, o) {
  if (!(b instanceof Uint8Array)) b = rt.input(b);
  const f = VFINAL(o), open = f ? VO${i}_1 : VO${i}_0;
  if ((o === undefined || o === null || o.limits === undefined ? open(b) : open(b, rt.limits(o.limits))) === undefined) {
    throw nativeError();
  }
  return new V${i}(VTOKEN, b, VR[3], VR[4], VR[0], VR[1], VR[2], VR[8]);
}`;
  }

  // ---- per struct
  const out = [];
  for (const i of group) {
    const s = structs[i];
    const fields = s.fields;
    const slots = fields.reduce((a, f) => a + fixedSlots(f.type), 0);
    // writer (its callers have checked v: CK, the struct case of writer)
    const w = [`function WR${i}(v, d) {`];
    if (slots) w.push(`  if (n + ${slots} > NC) growN(${slots});`);
    if (fields.length) w.push('  let x;');
    fields.forEach((f, j) => {
      const r = { si: i, fi: j, steps: '' };
      w.push(`  x = ${fieldOf('v', f.name)}; if (x === undefined) x = ${fieldDefault(f)};`);
      w.push(`  ${writer(f.type, 'x', JSON.stringify(f.name), 'd', r, siteRef(r))}`);
    });
    w.push('}');
    out.push(w.join('\n'));
    // raw constructor and reader
    const args = fields.map((f, j) => `a${j}`);
    const assign = fields.map((f, j) => store('this', f.name, `a${j}`));
    out.push(`function K${i}(${args.join(', ')}) { ${assign.join(' ')} }\nK${i}.prototype = C${i}.prototype;`);
    out.push(`function RD${i}() { return new K${i}(${fields.map((f) => reader(f.type)).join(', ')}); }`);
    const fast = fastDecode && fastStruct(i);
    if (fast) out.push(`function FR${i}() { return new K${i}(${fields.map((f) => freader(f.type)).join(', ')}); }`);
    // plain object -> instance: names the struct does not have are refused at once, the
    // values when encoded; a nested value's refusal names its field
    const mk = [`function MK${i}(o) {`,
      `  if (o === undefined || o === null) o = EMPTY;`,
      `  else if (o[ID] !== ${i}) PK${i}(o, T${i}.site, '');`];
    if (fields.length) mk.push(`  let v, ${args.join(', ')};`);
    fields.forEach((f, j) => {
      const value = `a${j} = (v = ${fieldOf('o', f.name)}) !== undefined ? ${coerce(f.type, 'v')} : ${fieldDefault(f)};`;
      mk.push(needsCoercion(f.type)
        ? `  try { ${value} } catch (e) { throw rt.prefixPath(e, ${JSON.stringify(f.name)}); }` : `  ${value}`);
    });
    mk.push(`  return new K${i}(${args.join(', ')});`, '}');
    out.push(mk.join('\n'));
    // the names of an object given for the struct: each a field (a switch for a few
    // fields, a Set for many); then PK, the check of a value that is not an instance
    const names = fields.map((f) => JSON.stringify(f.name));
    const cases = names.length ? `switch (k) { ${names.map((n) => `case ${n}:`).join(' ')} continue; default: } ` : '';
    out.push(fields.length <= 16
      ? `function NK${i}(o) { for (const k in o) { ${cases}if (hasOwn.call(o, k)) throw rt.unknownErr(T${i}.site, k); } }`
      : `const NS${i} = new Set([${names.join(', ')}]);\n` +
        `function NK${i}(o) { for (const k in o) if (!NS${i}.has(k) && hasOwn.call(o, k)) throw rt.unknownErr(T${i}.site, k); }`);
    out.push(`T${i}.names = NK${i};`);
    out.push(`function PK${i}(x, at, path) { ` +
      `if (typeof x === 'object' && x !== null) { const q = Object.getPrototypeOf(x); ` +
      `if (q === OBJECT || q === null) { try { NK${i}(x); } catch (e) { throw rt.prefixPath(e, path); } return; } } ` +
      `rt.structValue(x, at, path, T${i}); }`);
    out.push(`function CK${i}(v) { if (v == null || v[ID] !== ${i}) PK${i}(v, T${i}.site, ''); }`);
    out.push(`function AS${i}(v) { return v instanceof C${i} || v === null || typeof v !== 'object' || Array.isArray(v) ? v : MK${i}(v); }`);
    // entry points: one native call each
    for (const m of [0, 1]) {
      // a final-model decode of a few KiB that verifies: the core verifies the bytes on
      // the tape (its errors, paths and offsets are decode's: fbe_decode verifies first
      // and reports what verify reports), then FRi builds the value from them (FDi)
      const viaJs = fast && m === 1;
      if (viaJs) {
        out.push(`const NV${i} = NAT.codec(${i * 2 + 1})[2];
function FD${i}(b, L, limits) {
  const lim = limits === undefined ? undefined : rt.limits(limits); /* (user getters run before the copy) */
  onTape(b, L);
  if (lim === undefined) NV${i}(); else NV${i}(lim);
  if (G[2] !== 0) throw nativeError();
  q = p + 8;
  const r = FR${i}();
  if (NC > BIG_SLOTS || PC > BIG_BYTES) relax(0, G[10]);
  return r;
}`);
      }
      out.push(`const [NE${i}_${m}, ND${i}_${m}] = NAT.codec(${i * 2 + m});
function EN${i}_${m}(v) {
  if (v == null || v[ID] !== ${i}) PK${i}(v, T${i}.site, '');
  const n0 = n, p0 = p;
  try { WR${i}(v, 0); } catch (e) { n = n0; p = p0; throw rt.outerError(e, DESC, ${i}, v); }
  const un = n - n0, up = p - p0;
  G[0] = n0; G[1] = p0; G[7] = op; n = n0; p = p0;
  const b = NE${i}_${m}();
  if (NC > BIG_SLOTS || PC > BIG_BYTES) relax(un, up);
  if (G[2] !== 0) throw nativeError();
  return b === undefined ? take() : b;
}
function DE${i}_${m}(b, trusted, limits) {
  if (!(b instanceof Uint8Array)) b = rt.input(b);${viaJs ? `
  if (!trusted) { const L = U8LEN.call(b); if (L <= FAST_MAX) return FD${i}(b, L, limits); }` : ''}
  G[0] = n; G[1] = p; G[5] = trusted ? 1 : 0;
  if (limits === undefined) ND${i}_${m}(b); else ND${i}_${m}(b, rt.limits(limits));
  if (G[2] !== 0) { settle(); return DE${i}_${m}(b, trusted, limits); }
  const n0 = n, p0 = p;
  const r = RD${i}();
  const un = n - n0, up = p - p0;
  n = n0; p = p0;
  if (NC > BIG_SLOTS || PC > BIG_BYTES) relax(un, up);
  return r;
}`);
    }
    out.push(`function TJ${i}(v, pretty) { flatten(WR${i}, ${i}, v); const t = NAT.toJson(${i}, pretty); if (t === undefined) throw nativeError(); return t; }`);
    out.push(`function FJ${i}(text, limits, ignore) { if (typeof text !== 'string') throw rt.typeErr('', 'a JSON string', text); ` +
      `G[0] = n; G[1] = p; NAT.fromJson(${i}, rt.jsonText(text), rt.limits(limits), ignore === true); if (G[2] !== 0) { settle(); return FJ${i}(text, limits, ignore); } ` +
      `const n0 = n, p0 = p; const r = RD${i}(); n = n0; p = p0; return r; }`);
    out.push(structView(i));
    out.push(`X[${i}] = { WR: WR${i}, PK: PK${i}, CK: CK${i}, RD: RD${i}, FR: ${fast ? `FR${i}` : 'null'}, MK: MK${i}, AS: AS${i}, EN0: EN${i}_0, EN1: EN${i}_1, ` +
      `DE0: DE${i}_0, DE1: DE${i}_1, TJ: TJ${i}, FJ: FJ${i}, V: V${i}, VW: VW${i} };`);
  }

  const head = [];
  for (const k of usedEnums) head.push(`const E${k} = ENUMS[${k}];`);
  for (const j of group) head.push(`const C${j} = GEN.classOf(${j}), T${j} = GEN.shape(${j});`);
  for (const [key, name] of sites) {
    const [si, fi, steps] = key.split(',');
    head.push(`const ${name} = rt.site(NAT, ${si}, ${fi}, '${steps}');`);
  }
  for (const j of imported) { // compiled before (compileGroup put every other one in the group)
    head.push(`const WR${j} = X[${j}].WR, PK${j} = X[${j}].PK, RD${j} = X[${j}].RD, FR${j} = X[${j}].FR, MK${j} = X[${j}].MK, AS${j} = X[${j}].AS, V${j} = X[${j}].V, ` +
      `C${j} = GEN.classOf(${j}), T${j} = GEN.shape(${j});`);
  }
  const source = `const CONST = CONSTS;
${head.join('\n')}
${[...helpers.values()].map((h) => h.code).join('\n')}
${[...viewClasses.values()].map((h) => h.code).join('\n')}
${out.join('\n\n')}
`;
  return { source, consts };
}

// The schema's state and the functions that make its codecs and classes are module
// functions and a class's methods, never closures of one schema: V8 optimising a hot
// one in the background then holds no schema alive (the memory tests count exactly).

/** Compiles struct i and every struct it reaches that has no codec yet. */
function compileGroup(gen, i) {
  const { desc, shared } = gen;
  const X = shared.X;
  const group = [];
  const seen = new Set([i]);
  const todo = [i];
  while (todo.length) { // iterative: a chain of 10^5 structs is no deeper than one
    const j = todo.pop();
    group.push(j);
    for (const f of desc.structs[j].fields) {
      for (const k of structsOf(f.type, [])) {
        if (!X[k] && !seen.has(k)) {
          seen.add(k);
          todo.push(k);
        }
      }
    }
  }
  const { source, consts } = groupSource(desc, gen.enums, group, gen.fastDecode);
  try {
    shared.compileGroup(source, consts);
  } catch (e) {
    if (e instanceof SyntaxError) e.message = `fbe: generated code does not compile: ${e.message}`;
    throw e;
  }
  gen.compiled += group.length;
  return X[i];
}

/** A struct class: its methods reach the codec, compiled when one first needs it. */
function makeClass(gen, i, Base) {
  const { desc, nat } = gen;
  const s = desc.structs[i];
  const all = s.fields.map((f) => f.name);
  let x = null; // this struct's codec
  const C = class extends Base {
    constructor(init) {
      if (new.target === C) return (x || (x = gen.codec(i))).MK(init);
      // a subclass's instance: the class nearest to it (this one, when init is not
      // SUBCLASS) takes init, with every field; the classes above it do nothing
      super(SUBCLASS);
      if (init === SUBCLASS) return;
      const t = (x || (x = gen.codec(i))).MK(init);
      for (const name of all) {
        if (name === '__proto__') {
          Object.defineProperty(this, name, { value: t[name], writable: true, enumerable: true, configurable: true });
        } else {
          this[name] = t[name];
        }
      }
    }

    encode(o) {
      const c = x || (x = gen.codec(i));
      return o !== undefined && o !== null && o.final ? c.EN1(this) : c.EN0(this);
    }

    toJsonString(o) {
      return (x || (x = gen.codec(i))).TJ(this, o !== undefined && o !== null && o.pretty === true);
    }

    /** Deep equality by the core (fbe_msg_equal: every field; floats by bit pattern,
     * decimals by value): false for anything but a value of this schema's structs. */
    equals(o) {
      const j = gen.indexOf(o);
      return j >= 0 && gen.shared.pair(0, i, this, j, o) === 1;
    }

    /** The hash of the [key] fields (fbe_msg_key_hash), a bigint: equal values have equal
     * hashes; 0n for every value of a struct without [key] fields. */
    hashKey() {
      return gen.shared.pair(2, i, this, i, null);
    }

    /** -1, 0 or 1: a and b (instances or plain objects) ordered by their [key] fields
     * (fbe_msg_key_compare), as the reference sorts them; a struct without [key] fields
     * has no order (TypeMismatchError). */
    static compare(a, b) {
      return gen.shared.pair(1, i, a, i, b);
    }

    /** A new instance from plain data (an object of field names, nested objects for
     * structs, arrays, Sets, Maps; what toObject gives), every value checked now. */
    static fromObject(o) {
      return gen.shared.copyOf(i, o);
    }

    static decode(b, o) {
      const c = x || (x = gen.codec(i));
      if (o === undefined || o === null) return c.DE0(b, false);
      return o.final ? c.DE1(b, rt.trusted(o), o.limits) : c.DE0(b, rt.trusted(o), o.limits);
    }

    /** A view of the bytes (lib/views.js): its fields read in place on access, verified
     * first as decode verifies (the same errors); options { model: 'standard' | 'final',
     * limits }. */
    static view(b, o) {
      return (x || (x = gen.codec(i))).VW(b, o);
    }

    static verify(b, o) {
      const size = o === undefined || o === null ? nat.verify(i, false, rt.input(b))
        : nat.verify(i, Boolean(o.final), rt.input(b), rt.limits(o.limits));
      if (size === -2) throw gen.nativeError(); // the limits were refused
      return size >= 0;
    }

    static validate(b, o) {
      const size = o === undefined || o === null ? nat.verify(i, false, rt.input(b))
        : nat.verify(i, Boolean(o.final), rt.input(b), rt.limits(o.limits));
      if (size < 0) throw gen.nativeError();
      return size;
    }

    static fromJsonString(text, o) {
      const c = x || (x = gen.codec(i));
      return o === undefined || o === null ? c.FJ(text) : c.FJ(text, o.limits, o.ignoreUnknown);
    }
  };
  Object.defineProperty(C, 'name', { value: s.name });
  Object.defineProperty(C, CODEC, { value: { gen, index: i } });
  Object.defineProperty(C.prototype, STRUCT_ID, { value: i });
  return C;
}

/** The codecs and classes of a schema, each made when first needed. */
class Codegen {
  /**
   * @param nat the native schema object (native/bind.c)
   * @param desc its description
   * @param enums the enum objects, by description index (lib/enums.js)
   * @param owner, decorate decorate(owner, class, index) is called with each class made
   *        (lib/schema.js: the introspection properties)
   */
  constructor(nat, desc, enums, owner, decorate) {
    Object.assign(this, { nat, desc, enums, owner, decorate });
    this.classes = [];
    this.classCount = 0;
    this.compiled = 0;
    this.fastDecode = FAST_DECODE; // (every group of the schema alike: FRi call each other)
    try {
      this.shared = new Function('env', SHARED)({ // eslint-disable-line no-new-func
        NAT: nat, native, rt, Buffer, ENUMS: enums, GEN: this, DESC: desc, ID: STRUCT_ID, VIEWS: views,
      });
    } catch (e) {
      e.message = `fbe: generated code does not compile: ${e.message}`;
      throw e;
    }
  }

  /** The codec of struct i: {WR, PK, CK, RD, FR, MK, AS, EN0, EN1, DE0, DE1, TJ, FJ}. */
  codec(i) {
    return this.shared.X[i] || compileGroup(this, i);
  }

  /** The class of struct i (its bases first), made on first use. */
  classOf(i) {
    const { classes, desc } = this;
    if (classes[i]) return classes[i];
    const chain = [];
    for (let j = i; j >= 0 && !classes[j]; j = desc.structs[j].base) chain.push(j);
    for (let k = chain.length - 1; k >= 0; k--) {
      const j = chain[k];
      const base = desc.structs[j].base;
      classes[j] = makeClass(this, j, base >= 0 ? classes[base] : rt.Struct);
      this.decorate(this.owner, classes[j], j);
      this.classCount++;
    }
    return classes[i];
  }

  /** What the generated code checks an object given for struct i against (runtime.js
   * structValue): its site, the check of its names (NKi), its full name. */
  shape(i) {
    const shapes = this.shapes || (this.shapes = []);
    if (!shapes[i]) {
      const s = this.desc.structs[i];
      // names: the check of an object's names, set when the struct's codec is compiled
      shapes[i] = { site: rt.site(this.nat, i, -1, ''), names: null, fullName: s.fullName };
    }
    return shapes[i];
  }

  /** The struct index of a value of this schema's structs (an instance of one of its
   * classes or of a subclass), -1 for anything else. */
  indexOf(v) {
    if (v === null || typeof v !== 'object') return -1;
    const proto = Object.getPrototypeOf(v);
    const c = proto !== null ? proto.constructor : undefined; // (a field may be named `constructor`)
    const own = typeof c === 'function' ? c[CODEC] : undefined;
    return own !== undefined && own.gen === this ? own.index : -1;
  }

  send(snat, i, v, log) { return this.shared.send(snat, i, v, log); }

  feed(rnat, b, onMessage, log) { return this.shared.feed(rnat, b, onMessage, log); }

  /** The crossing of the client, server and proxy (lib/client.js). */
  get peer() { return this.shared.PEER; }

  nativeError() { return this.shared.nativeError(); }

  /** How many classes and codecs exist so far (the tests: loading makes none). */
  counts() {
    return { classes: this.classCount, codecs: this.compiled };
  }
}

/** Tests only: whether schemas loaded from now on take the JavaScript final-model
 * decode (FAST_DECODE). */
function setFastDecode(on) {
  FAST_DECODE = Boolean(on);
}

module.exports = { Codegen, setFastDecode };

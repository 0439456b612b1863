'use strict';
// What the generated code (lib/codegen.js) calls off its fast paths: conversions of
// values that are not already the expected JavaScript type, type errors with their
// path, and the base class of every struct class.
const native = require('./native');
const { FbeError, fbeError, codes, prefixPath } = require('./errors');

// The core's depth rule for a value being flattened, its number and its error (the
// addon's, which the tape reader fails with): the generated writers count optionals and
// collections up to MAX_DEPTH and throw tooDeep() past it.
const [MAX_DEPTH, DEPTH_STATUS, DEPTH_REASON] = native.depthRule();
const CYCLE = ' (a cycle: the value contains itself)';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** A short description of a JavaScript value for error messages. */
function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  switch (typeof v) {
    case 'string': return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`;
    case 'number': case 'boolean': return `${typeof v} ${v}`;
    case 'bigint': return `bigint ${v}n`;
    case 'function': return 'a function';
    case 'symbol': return 'a symbol';
    default: {
      if (Array.isArray(v)) return `an array of ${v.length}`;
      const proto = Object.getPrototypeOf(v); // not v.constructor: a field may be so named
      const ctor = proto && typeof proto.constructor === 'function' ? proto.constructor.name : undefined;
      return ctor && ctor !== 'Object' ? `a ${ctor}` : 'an object';
    }
  }
}

function typeErr(path, expected, got) {
  return fbeError(`expected ${expected}, got ${describe(got)}`, { status: codes.FBE_ERR_TYPE, path });
}

/** The error of a value nested deeper than MAX_DEPTH levels (at path, within its struct). */
function tooDeep(path) {
  return fbeError(DEPTH_REASON, { status: DEPTH_STATUS, path });
}

/** At the outermost call (encode, toJsonString, send of value v of struct index): a
 * value refused as too deep is told apart from one that contains itself; a JavaScript
 * stack overflow (structs nested by value deeper than the stack) becomes an FbeError. */
function outerError(err, desc, index, value) {
  if (err instanceof FbeError && err.reason === DEPTH_REASON &&
      require('./values').containsItself(desc, index, value, MAX_DEPTH)) { // (values.js needs this file)
    err.reason += CYCLE;
    err.message = FbeError.format(err.reason, err.path, err.offset);
  } else if (err instanceof RangeError && String(err.message).includes('call stack')) {
    return fbeError('value nested too deeply for the JavaScript stack', { status: codes.FBE_ERR_LIMIT });
  }
  return err;
}

function rangeErr(path, text) {
  return fbeError(text, { status: codes.FBE_ERR_RANGE, path });
}

/** Number for an integer/float field given something else: bigint, or a one-character
 * string for char/wchar. The core checks the range. */
function num(x, kind, path) {
  if (typeof x === 'bigint') {
    if (kind === 'float' || kind === 'double') return Number(x);
    if (x >= -(2n ** 53n) && x <= 2n ** 53n) return Number(x);
    throw rangeErr(path, native.rangeText(String(x), kind));
  }
  if (typeof x === 'string' && (kind === 'char' || kind === 'wchar')) {
    const cp = x.codePointAt(0);
    if (cp !== undefined && x.length === (cp > 0xffff ? 2 : 1)) {
      if (kind === 'char' && cp > 0xff) throw rangeErr(path, `'${x}' does not fit in a char (one byte)`);
      return cp;
    }
    throw typeErr(path, `a ${kind} (a number or one character)`, x);
  }
  throw typeErr(path, kind === 'char' || kind === 'wchar' ? `a ${kind} (a number or one character)` : 'a number', x);
}

function bigOf(x, path, what) {
  if (typeof x === 'bigint') return x;
  if (typeof x === 'number') {
    if (Number.isInteger(x)) return BigInt(x);
    throw rangeErr(path, `${x} is not a whole number (${what})`);
  }
  throw typeErr(path, `a bigint (${what})`, x);
}

function i64(x, path) {
  const v = bigOf(x, path, 'int64');
  if (v < INT64_MIN || v > INT64_MAX) throw rangeErr(path, native.rangeText(String(v), 'int64'));
  return v;
}

function u64(x, path, kind = 'uint64') {
  const v = bigOf(x, path, kind);
  if (v < 0n || v > UINT64_MAX) throw rangeErr(path, native.rangeText(String(v), kind));
  return v;
}

/** Timestamps: bigint nanoseconds since the epoch; a Date or a whole number also do. */
function timestamp(x, path) {
  if (x instanceof Date) {
    const ms = x.getTime();
    if (Number.isNaN(ms)) throw rangeErr(path, 'invalid Date');
    return u64(BigInt(ms) * 1000000n, path, 'timestamp');
  }
  return u64(x, path, 'timestamp');
}

/** Enum/flags value given by name: 'good', or 'initialized|calculated' for flags. */
function enumByName(e, x, path) {
  const info = e.$info;
  if (info.flags) {
    let v = info.big ? 0n : 0;
    for (const part of x.split('|')) {
      const name = part.trim();
      if (!Object.prototype.hasOwnProperty.call(e, name)) {
        throw rangeErr(path, `'${name}' is not a flag of ${info.fullName}`);
      }
      v = info.big ? v | e[name] : (v | e[name]) >>> 0;
    }
    if (!info.big && info.signed) v |= 0;
    return v;
  }
  if (!Object.prototype.hasOwnProperty.call(e, x)) {
    throw rangeErr(path, `'${x}' is not a value of ${info.fullName}`);
  }
  return e[x];
}

/** Enum/flags on a base up to 32 bits: the number, from a bigint or a member name. */
function enumNum(e, x, path) {
  if (typeof x === 'string') return enumByName(e, x, path);
  if (typeof x === 'bigint') return num(x, e.$info.base, path);
  throw typeErr(path, `a ${e.$info.fullName} value (a number or a name)`, x);
}

/** Enum/flags on a 64-bit base: the bigint, from a number or a member name. */
function enumBig(e, x, path) {
  if (typeof x === 'string') x = enumByName(e, x, path);
  return e.$info.base === 'int64' ? i64(x, path) : u64(x, path);
}

function decimal(x, path) {
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) throw rangeErr(path, `${x} is not a decimal number`);
    return String(x);
  }
  if (typeof x === 'bigint') return x.toString();
  if (x !== null && typeof x === 'object' && typeof x.toFixed === 'function') return String(x);
  throw typeErr(path, 'a decimal (a string, number or bigint)', x);
}

function uuid(x, path) {
  if (x instanceof Uint8Array && x.length === 16) {
    const h = Buffer.from(x.buffer, x.byteOffset, 16).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  throw typeErr(path, 'a uuid string', x);
}

/** Bytes of a Buffer/Uint8Array/ArrayBuffer/any ArrayBufferView as a Uint8Array. */
function bytes(x, path) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer)) {
    return new Uint8Array(x);
  }
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  throw typeErr(path, 'bytes (a Buffer, Uint8Array or ArrayBuffer)', x);
}

/** Input of decode/verify/feed. */
function input(x) {
  if (x instanceof Uint8Array) return x;
  return bytes(x, '');
}

/** Decode options: true when they ask to decode without verifying ({ trusted: true };
 * { verify: false } is the older spelling of the same). */
function trusted(o) {
  return o.trusted === true || o.verify === false;
}

/** options.limits as the addon reads it (native/convert.c arg_limits): [name, value, ...]
 * of the own enumerable properties that are not undefined (getters and proxies run
 * here, not inside the native call), whole numbers and bigints as bigints clamped to
 * int64 (so the core refuses them, or takes them as very large), other values as given
 * (the addon's TYPE error); anything but an object as given (the addon refuses it). */
function limits(x) {
  if (x === null || typeof x !== 'object') return x;
  const pairs = [];
  for (const [name, v] of Object.entries({ ...x })) {
    if (v === undefined) continue;
    const big = typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : null;
    pairs.push(name, big === null ? v : big > INT64_MAX ? INT64_MAX : big < INT64_MIN ? INT64_MIN : big);
  }
  return pairs;
}

/** An object literal or JSON.parse result, or one made by Object.create(null). */
function isPlain(x) {
  if (x === null || typeof x !== 'object') return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** Map/hash input: a Map, an array of [key, value] pairs, or (string keys) a plain object. */
function entries(x, path, stringKeys) {
  if (x instanceof Map) return x;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (!Array.isArray(x[i]) || x[i].length !== 2) {
        throw typeErr(`${path}[${i}]`, 'a [key, value] pair', x[i]);
      }
    }
    return x;
  }
  if (stringKeys && isPlain(x)) {
    return Object.entries(x);
  }
  throw typeErr(path, stringKeys ? 'a Map (or [key, value] pairs, or a plain object)' : 'a Map (or [key, value] pairs)', x);
}

/** Whether a set of elements of type t, or a map with keys of type t, is an Array (of
 * elements, of [key, value] pairs) rather than a Set or Map: float and double, since a
 * JavaScript Set or Map takes -0 as 0 (SameValueZero) and every NaN as one, where the
 * core keeps apart every bit pattern (core/src/keys.c). */
function floatKeyed(t) {
  return t.kind === 'float' || t.kind === 'double';
}

function setValues(x, path) {
  if (x instanceof Set || Array.isArray(x)) return x;
  throw typeErr(path, 'a Set (or an array)', x);
}

/** The base class of every generated struct class. */
/** Whether s has a UTF-8 form (no lone surrogate): Node 20's isWellFormed, or in a
 * unicode regex a pair is one code point, so \p{Cs} matches lone surrogates only. */
const LONE_SURROGATE = /\p{Cs}/u;
const wellFormed = String.prototype.isWellFormed
  ? (s) => s.isWellFormed()
  : (s) => !LONE_SURROGATE.test(s);

/** Writes each UTF-16 code unit of s as UTF-8 would write it, pairs joined and lone
 * surrogates alone (ED A0 80 for U+D800), into out from o; returns where it ends. The
 * form a string with no UTF-8 form crosses in, so that the core refuses it with the
 * words every binding uses. */
function unitsUtf8(s, out, o) {
  const L = s.length;
  for (let i = 0; i < L; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) { out[o++] = c; continue; }
    if (c < 0x800) { out[o++] = 0xc0 | (c >> 6); out[o++] = 0x80 | (c & 63); continue; }
    const d = c <= 0xdbff && c >= 0xd800 && i + 1 < L ? s.charCodeAt(i + 1) : 0;
    if (d >= 0xdc00 && d <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      i++;
      out[o++] = 0xf0 | (c >> 18); out[o++] = 0x80 | ((c >> 12) & 63);
    } else {
      out[o++] = 0xe0 | (c >> 12);
    }
    out[o++] = 0x80 | ((c >> 6) & 63); out[o++] = 0x80 | (c & 63);
  }
  return o;
}

/** A JSON text as the addon takes it: the string, or when it has a lone surrogate (which
 * Node-API would turn into U+FFFD, hiding it) the bytes of its code units. */
function jsonText(s) {
  if (wellFormed(s)) return s;
  const b = new Uint8Array(s.length * 3);
  return b.subarray(0, unitsUtf8(s, b, 0));
}

class Struct {}

module.exports = {
  FbeError, fbeError, codes, prefixPath, outerError, tooDeep, MAX_DEPTH, describe, typeErr, rangeErr, num, i64, u64, timestamp,
  enumNum, enumBig, enumByName, decimal, uuid, bytes, input, trusted, limits, entries, setValues, floatKeyed, Struct, isPlain, wellFormed, unitsUtf8, jsonText,
  INT64_MIN, INT64_MAX, UINT64_MAX,
};

'use strict';
// What the generated code (lib/codegen.js) calls off its fast paths: conversions of
// values that are not already the expected JavaScript type, type errors with their
// path, and the base class of every struct class.
const native = require('./native');
const { FbeError, fbeError, codes, prefixPath } = require('./errors');
const { parseText } = require('./enums');

// The core's depth rule for a value being flattened, its number and its error (the
// addon's, which the tape reader fails with): the generated writers count optionals and
// collections up to MAX_DEPTH and throw tooDeep() past it.
const [MAX_DEPTH, DEPTH_STATUS, DEPTH_REASON] = native.depthRule();
const CYCLE = ' (a cycle: the value contains itself)';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** A short description of a JavaScript value, for the errors of the API's own arguments
 * (a JSON text that is not a string, bytes to decode that are not bytes). */
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

/** An API argument of the wrong type (not a value of the schema: those are refused with
 * the core's words, below). */
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

// ---- the input table (docs/INPUT.md). JavaScript only says what kind of value it was
// given (got) and where; the core writes every message and picks every status
// (native inputError, fbe/internal/input.h), so the same mistake reads the same in
// every language. A site is where the generated code checks a value: the schema's
// native object, and the field type as struct index, field index and steps ('e' the
// element, 'k' a map's key; native/bind.c arg_field_type); fi -1: the struct itself.

/** A site (lib/codegen.js makes one per place that can refuse a value). */
function site(nat, si, fi, steps) {
  return { nat, si, fi, steps };
}

/** What a host value is, in the core's words (fbei_got): [word, name]. */
function got(v) {
  if (v === null || v === undefined) return ['null'];
  switch (typeof v) {
    case 'boolean': return ['bool'];
    case 'number': return [Number.isInteger(v) ? 'integer' : 'float'];
    case 'bigint': return ['integer'];
    case 'string': return ['string'];
    case 'function': return ['other', 'function'];
    case 'symbol': return ['other', 'symbol'];
    default: break;
  }
  if (v instanceof Struct) return ['struct', fullNameOf(v)];
  if (Array.isArray(v)) return ['list'];
  if (v instanceof Uint8Array || v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return ['bytes'];
  if (v instanceof Set) return ['set'];
  if (v instanceof Map || isPlain(v)) return ['map'];
  if (v instanceof Date) return ['time'];
  const proto = Object.getPrototypeOf(v);
  const ctor = proto && typeof proto.constructor === 'function' ? proto.constructor.name : '';
  return ['other', ctor || 'object'];
}

/** The full name of a struct value's type ("proto.Order"). */
function fullNameOf(v) {
  const cls = Object.getPrototypeOf(v).constructor; // (a field may be named `constructor`)
  return cls && typeof cls.fullName === 'string' ? cls.fullName : '';
}

/** The core's error for what inputError answers ([status, message]), at path. */
function coreErr(answer, path) {
  return fbeError(answer[1], { status: answer[0], path });
}

/** A value of the wrong kind at a site: "expected int32, got a string" (word: what to
 * call it instead of got(x)'s word). */
function kindErr(at, path, x, word) {
  const [w, name] = got(x);
  return coreErr(at.nat.inputError('type', at.si, at.fi, at.steps, word || w, name), path);
}

/** Text that is not a value of kind ("'ab' is not one character"). */
function textErr(at, path, kind, text) {
  return coreErr(at.nat.inputError('text', kind, text), path);
}

function rangeErr(path, text) {
  return fbeError(text, { status: codes.FBE_ERR_RANGE, path });
}

/** A name struct si does not have: "unknown field 'symbl' of proto.Order (did you mean
 * 'symbol'?)". */
function unknownErr(at, name) {
  return coreErr(at.nat.inputError('unknown', at.si, name), '');
}

/** Number for an integer/float field given something else: bigint, or a one-character
 * string for char/wchar (its code point). The core checks the range. */
function num(x, kind, path, at) {
  if (typeof x === 'bigint') {
    if (kind === 'float' || kind === 'double') return Number(x);
    if (x >= -(2n ** 53n) && x <= 2n ** 53n) return Number(x);
    throw rangeErr(path, native.rangeText(String(x), kind));
  }
  if (typeof x === 'string' && (kind === 'char' || kind === 'wchar')) {
    const cp = x.codePointAt(0);
    if (cp !== undefined && x.length === (cp > 0xffff ? 2 : 1)) return cp;
    throw textErr(at, path, kind, x);
  }
  throw kindErr(at, path, x);
}

/** A 64-bit kind's bigint from a bigint or a whole number, in range. */
function big(x, path, at, kind) {
  let v;
  if (typeof x === 'bigint') v = x;
  else if (typeof x === 'number' && Number.isInteger(x)) v = BigInt(x);
  else throw kindErr(at, path, x);
  if (kind === 'int64' ? v < INT64_MIN || v > INT64_MAX : v < 0n || v > UINT64_MAX) {
    throw rangeErr(path, native.rangeText(String(v), kind));
  }
  return v;
}

function i64(x, path, at) {
  return big(x, path, at, 'int64');
}

function u64(x, path, at) {
  return big(x, path, at, 'uint64');
}

/** Timestamps: bigint nanoseconds since the epoch, or a Date. A plain number is refused:
 * milliseconds or nanoseconds? (Date.now() would read as 1970.) */
function timestamp(x, path, at) {
  if (x instanceof Date) {
    const ms = x.getTime();
    if (Number.isNaN(ms)) throw rangeErr(path, native.rangeText('NaN', 'timestamp'));
    return big(BigInt(ms) * 1000000n, path, at, 'timestamp');
  }
  if (typeof x === 'number') throw coreErr(at.nat.inputError('timestamp'), path);
  if (typeof x !== 'bigint') throw kindErr(at, path, x);
  return big(x, path, at, 'timestamp');
}

/** Enum/flags on a base up to 32 bits: the number, from a bigint or a member name. */
function enumNum(e, x, path, at) {
  if (typeof x === 'string') return parseText(e.$info, x, path);
  if (typeof x === 'bigint') return num(x, e.$info.base, path, at);
  throw kindErr(at, path, x);
}

/** Enum/flags on a 64-bit base: the bigint, from a number or a member name. */
function enumBig(e, x, path, at) {
  if (typeof x === 'string') return parseText(e.$info, x, path);
  return big(x, path, at, e.$info.base);
}

/** A decimal's text: from a bigint, or an exact decimal object of a library (anything
 * with toFixed but a Number, whose String() is its text: decimal.js, big.js). Numbers
 * are binary floats, never exact: refused. */
function decimal(x, path, at) {
  if (typeof x === 'bigint') return x.toString();
  if (x !== null && typeof x === 'object' && typeof x.toFixed === 'function' && !(x instanceof Number)) return String(x);
  throw kindErr(at, path, x, typeof x === 'number' ? 'float' : undefined); // (2 is as binary as 2.5)
}

/** Bytes of a Buffer/Uint8Array/ArrayBuffer/any ArrayBufferView as a Uint8Array. */
function bytes(x, path, at) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer)) {
    return new Uint8Array(x);
  }
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  throw kindErr(at, path, x);
}

/** Where a struct goes, a value that is neither an instance of its class nor a plain
 * object (lib/codegen.js checks those itself, PKi): an instance of a struct of the same
 * name (another schema's, a subclass's) as it is; a Map, an array, a set, bytes, a Date,
 * another struct or no object at all is of the wrong kind; any other object is taken
 * for its named properties, every name a field (shape.names, NKi, throws for one that
 * is not). at: the site of the place (its type's words); shape: the struct's
 * (Codegen.shape). */
function structValue(x, at, path, shape) {
  if (x === null || typeof x !== 'object') throw kindErr(at, path, x);
  try {
    if (x instanceof Struct) {
      for (let c = Object.getPrototypeOf(x).constructor; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
        if (c.fullName === shape.fullName) return;
      }
      throw kindErr(shape.site, '', x);
    }
    if (Array.isArray(x) || x instanceof Map || x instanceof Set || x instanceof Date ||
        x instanceof ArrayBuffer || ArrayBuffer.isView(x)) {
      throw kindErr(shape.site, '', x);
    }
    shape.names(x);
  } catch (e) {
    throw prefixPath(e, path);
  }
}

/** Input of decode/verify/feed. */
function input(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer)) {
    return new Uint8Array(x);
  }
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  throw typeErr('', 'bytes (a Buffer, Uint8Array or ArrayBuffer)', x);
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

/** How a plain object's keys (text) become the keys of a map of key type t, as JSON
 * reads map keys (docs/JSON.md): integers, enums, flags, chars and timestamps from their
 * decimal digits (enums and flags also by name), strings, uuids and decimals as
 * themselves; a key type with no text form (bool, float, bytes, struct) keeps the text,
 * which its writer refuses. 'big': digits as a bigint. */
function keyText(t, enums) {
  const k = t.kind === 'enum' || t.kind === 'flags' ? enums[t.enum].$info.base : t.kind;
  if (k === 'int64' || k === 'uint64' || k === 'timestamp') return 'big';
  if (k === 'float' || k === 'double' || k === 'bool') return 'text';
  return /int|byte|char/.test(k) ? 'num' : 'text';
}

const DIGITS = /^-?[0-9]+$/;

/** A plain object's entries with the keys as keyText's rule reads them. */
function objectEntries(x, how) {
  const e = Object.entries(x);
  if (how === 'text') return e;
  for (const pair of e) {
    const k = pair[0];
    if (!DIGITS.test(k)) continue;
    const b = BigInt(k);
    pair[0] = how === 'big' || b < -(2n ** 53n) || b > 2n ** 53n ? b : Number(b);
  }
  return e;
}

/** Map/hash input: a Map, an array of [key, value] pairs, or a plain object. */
function entries(x, path, at, how) {
  if (x instanceof Map) return x;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (!Array.isArray(x[i]) || x[i].length !== 2) throw prefixPath(kindErr(at, '', x[i]), path, i);
    }
    return x;
  }
  if (isPlain(x)) return objectEntries(x, how);
  throw kindErr(at, path, x);
}

/** Whether a set of elements of type t, or a map with keys of type t, is an Array (of
 * elements, of [key, value] pairs) rather than a Set or Map: float and double, since a
 * JavaScript Set or Map takes -0 as 0 (SameValueZero) and every NaN as one, where the
 * core keeps apart every bit pattern (core/src/keys.c). */
function floatKeyed(t) {
  return t.kind === 'float' || t.kind === 'double';
}

function setValues(x, path, at) {
  if (x instanceof Set || Array.isArray(x)) return x;
  throw kindErr(at, path, x);
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
  FbeError, fbeError, codes, prefixPath, outerError, tooDeep, MAX_DEPTH, describe, typeErr, rangeErr, site, got,
  coreErr, kindErr, textErr, unknownErr, structValue, num, i64, u64, timestamp, enumNum, enumBig, decimal, bytes, input,
  trusted, limits, keyText, objectEntries, entries, setValues, floatKeyed, Struct, isPlain, wellFormed, unitsUtf8,
  jsonText, INT64_MIN, INT64_MAX, UINT64_MAX,
};

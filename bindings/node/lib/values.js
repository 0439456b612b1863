'use strict';
// Schema-directed walks over values that are not on a hot path: deep equality
// (equals() of structs without [key] fields), the
// reference's readable string form, toJSON()'s plain JSON-safe form, and the search for
// a cycle in a value encode refused as too deep.
const { Enum } = require('./enums');

/** Normalised decimal text -> {neg, digits, exp} with no leading/trailing zeros. */
function decimalParts(text) {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(String(text));
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) return null;
  let digits = (m[2] || '') + (m[3] || '');
  let exp = (m[4] ? parseInt(m[4], 10) : 0) - (m[3] || '').length;
  digits = digits.replace(/^0+/, '');
  if (digits === '') return { neg: false, digits: '', exp: 0 };
  const trimmed = digits.replace(/0+$/, '');
  exp += digits.length - trimmed.length;
  return { neg: m[1] === '-', digits: trimmed, exp };
}

/** Decimals compare by numeric value ("1.50" equals "1.5", "1E-7" equals "0.0000001"). */
function decimalEqual(a, b) {
  if (a === b) return true;
  const x = decimalParts(a);
  const y = decimalParts(b);
  return Boolean(x && y && x.neg === y.neg && x.digits === y.digits && x.exp === y.exp);
}

function bytesEqual(a, b) {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Equality of two values without schema information (equals() on [key] fields). */
function valueEqual(a, b) {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Uint8Array) return bytesEqual(a, b);
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => valueEqual(x, b[i]));
  }
  if (a instanceof Map || a instanceof Set) {
    if (a.constructor !== b.constructor || a.size !== b.size) return false;
    const x = [...a];
    const y = [...b];
    return x.every((e, i) => valueEqual(e, y[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => valueEqual(a[k], b[k]));
}

function sequence(v) {
  if (Array.isArray(v)) return v;
  if (v instanceof Set || v instanceof Map) return [...v];
  return null;
}

/** Typed deep equality: floats by bit pattern (so -0 differs from 0, NaN equals NaN),
 * decimals by value, sets and maps by content in order. */
function deepEqual(desc, t, a, b) {
  switch (t.kind) {
    case 'float': case 'double':
      return Object.is(a, b);
    case 'decimal':
      return decimalEqual(a, b);
    case 'bytes':
      return bytesEqual(a, b);
    case 'struct': {
      if (a === b) return true;
      if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
      for (const f of desc.structs[t.struct].fields) {
        if (!deepEqual(desc, f.type, own(a, f.name), own(b, f.name))) return false;
      }
      return true;
    }
    case 'optional':
      if (a === null || a === undefined || b === null || b === undefined) {
        return (a === null || a === undefined) && (b === null || b === undefined);
      }
      return deepEqual(desc, t.elem, a, b);
    case 'array': case 'vector': case 'list': case 'set': {
      const x = sequence(a);
      const y = sequence(b);
      return Boolean(x && y && x.length === y.length && x.every((e, i) => deepEqual(desc, t.elem, e, y[i])));
    }
    case 'map': case 'hash': {
      const x = sequence(a);
      const y = sequence(b);
      return Boolean(x && y && x.length === y.length && x.every((e, i) =>
        deepEqual(desc, t.key, e[0], y[i][0]) && deepEqual(desc, t.elem, e[1], y[i][1])));
    }
    default:
      return a === b;
  }
}

/** The reference's string form: Account(id=1,name="Test",state=initialized|calculated|good,...). */
function format(desc, enums, t, v) {
  if (v === undefined) return 'undefined';
  switch (t.kind) {
    case 'bool': return v ? 'true' : 'false';
    case 'char': case 'wchar': {
      const cp = typeof v === 'number' ? v : NaN;
      return cp >= 0x20 && cp !== 0x7f && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)
        ? `'${String.fromCodePoint(cp)}'` : String(v);
    }
    case 'string': case 'uuid': return `"${v}"`;
    case 'bytes': return `bytes[${v && v.length !== undefined ? v.length : 0}]`;
    case 'enum': case 'flags': return Enum.prototype.format.call(enums[t.enum], v); // a member may be named `format`
    case 'struct': {
      const s = desc.structs[t.struct];
      if (v === null || typeof v !== 'object') return String(v);
      return `${s.name}(${s.fields.map((f) => `${f.name}=${format(desc, enums, f.type, v[f.name])}`).join(',')})`;
    }
    case 'optional':
      return v === null ? 'null' : format(desc, enums, t.elem, v);
    case 'array': case 'vector': case 'list': case 'set': {
      const items = sequence(v) || [];
      const [open, close] = t.kind === 'list' ? ['<', '>'] : t.kind === 'set' ? ['{', '}'] : ['[', ']'];
      return `[${items.length}]${open}${items.map((e) => format(desc, enums, t.elem, e)).join(',')}${close}`;
    }
    case 'map': case 'hash': {
      const items = sequence(v) || [];
      const [open, close] = t.kind === 'map' ? ['<', '>'] : ['[', ']'];
      return `[${items.length}]${open}{${items.map(([k, e]) =>
        `${format(desc, enums, t.key, k)}->${format(desc, enums, t.elem, e)}`).join(',')}}${close}`;
    }
    default:
      return String(v);
  }
}

/** o's own property k (undefined when absent: never a member o inherits, like toString). */
function own(o, k) {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

// Names every object inherits (toString, constructor, __proto__, ...): a field so named
// is read from the value's own properties only, or a plain object without it would
// hand the inherited member over as the field's value.
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Field `name` of a value given by the user, read as encode reads it. */
function fieldValue(o, name) {
  return INHERITED.has(name) ? own(o, name) : o[name];
}

/** The elements of a collection value as encode takes them ([key, value] pairs for
 * maps), or none when it is not one (encode refuses it). */
function members(t, v) {
  if (t.kind === 'map' || t.kind === 'hash') {
    if (v instanceof Map || Array.isArray(v)) return v;
    return Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null
      ? Object.entries(v) : [];
  }
  return Array.isArray(v) || v instanceof Set ? v : [];
}

/**
 * Whether a value encode refused as nested too deeply contains itself: its walk in
 * encode's order (fields, then elements), with the objects on the current path, up to
 * maxDepth levels (optionals and collections, the core's rule). The first object met
 * again on its own path is a cycle; a walk past maxDepth without one is a value
 * genuinely that deep. The recursion is bounded by maxDepth, like encode's.
 */
function containsItself(desc, index, value, maxDepth) {
  const path = new Set();
  let depth = 0;
  // true: a cycle; null: deeper than maxDepth first; false: neither below v
  const walk = (t, v) => {
    if (v === null || typeof v !== 'object') return false;
    if (t.kind === 'optional') {
      if (path.has(v)) return true;
      if (++depth > maxDepth) return null;
      const r = walk(t.elem, v);
      depth--;
      return r;
    }
    const struct = t.kind === 'struct';
    if (!struct && !['array', 'vector', 'list', 'set', 'map', 'hash'].includes(t.kind)) return false;
    if (path.has(v)) return true;
    const level = !struct && t.kind !== 'array';
    if (level && ++depth > maxDepth) return null;
    path.add(v);
    let r = false;
    if (struct) {
      for (const f of desc.structs[t.struct].fields) if ((r = walk(f.type, fieldValue(v, f.name))) !== false) return r;
    } else if (t.key) {
      for (const e of members(t, v)) {
        if (!Array.isArray(e)) continue;
        if ((r = walk(t.key, e[0])) !== false || (r = walk(t.elem, e[1])) !== false) return r;
      }
    } else {
      for (const e of members(t, v)) if ((r = walk(t.elem, e)) !== false) return r;
    }
    path.delete(v);
    if (level) depth--;
    return false;
  };
  return walk({ kind: 'struct', struct: index }, value) === true;
}

/** o[k] = v as an own property, "__proto__" included (its setter would change o's prototype). */
function setOwn(o, k, v) {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/** A JSON-safe plain form for JSON.stringify (toJSON): 64-bit integers and timestamps
 * as decimal strings, bytes as Base64, sets as arrays, maps as objects (string keys) or
 * [key, value] pairs (struct keys). */
function toJSONValue(desc, enums, t, v) {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'int64': case 'uint64': case 'timestamp': return String(v);
    case 'enum': case 'flags': return typeof v === 'bigint' ? String(v) : v;
    case 'bytes': return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    case 'struct': {
      const o = {};
      for (const f of desc.structs[t.struct].fields) setOwn(o, f.name, toJSONValue(desc, enums, f.type, v[f.name]));
      return o;
    }
    case 'optional': return toJSONValue(desc, enums, t.elem, v);
    case 'array': case 'vector': case 'list': case 'set':
      return (sequence(v) || []).map((e) => toJSONValue(desc, enums, t.elem, e));
    case 'map': case 'hash': {
      const items = sequence(v) || [];
      if (t.key.kind === 'struct') {
        return items.map(([k, e]) => [toJSONValue(desc, enums, t.key, k), toJSONValue(desc, enums, t.elem, e)]);
      }
      const o = {};
      for (const [k, e] of items) setOwn(o, String(k), toJSONValue(desc, enums, t.elem, e));
      return o;
    }
    default: return v;
  }
}

module.exports = {
  deepEqual, valueEqual, decimalEqual, format, toJSONValue, containsItself, fieldValue, INHERITED,
};

'use strict';
// Schema-directed walks over values that are not on a hot path: toObject()'s plain
// data, toJSON()'s JSON-safe form, and the search for a cycle in a value encode refused
// as too deep. (The text form and equality are the core's: lib/codegen.js.)

function sequence(v) {
  if (Array.isArray(v)) return v;
  if (v instanceof Set || v instanceof Map) return [...v];
  return null;
}

/** The plain data of a value as the core gave it back (lib/codegen.js copyOf): structs
 * as plain objects, arrays, vectors, lists and sets as Arrays, maps as Maps (of float
 * keys: [key, value] pairs), bytes as a Buffer of their own; scalars as they are
 * (64-bit integers and timestamps bigint, decimals and uuids strings, enums numbers). */
function plain(desc, t, v) {
  switch (t.kind) {
    case 'struct': {
      const o = {};
      for (const f of desc.structs[t.struct].fields) setOwn(o, f.name, plain(desc, f.type, own(v, f.name)));
      return o;
    }
    case 'optional': return v === null ? null : plain(desc, t.elem, v);
    case 'array': case 'vector': case 'list': case 'set': return Array.from(v, (e) => plain(desc, t.elem, e));
    case 'map': case 'hash': {
      if (Array.isArray(v)) return v.map(([k, e]) => [plain(desc, t.key, k), plain(desc, t.elem, e)]);
      const m = new Map();
      for (const [k, e] of v) m.set(plain(desc, t.key, k), plain(desc, t.elem, e));
      return m;
    }
    case 'bytes': return Buffer.from(v);
    default: return v;
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

module.exports = { plain, toJSONValue, containsItself, fieldValue, INHERITED };

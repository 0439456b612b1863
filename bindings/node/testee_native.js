'use strict';
// The testee's "native" encode (docs/TESTEE.md, the same mapping in every language's
// testee): the value built from the request's JSON the way a program builds it, through
// the classes' constructors and JavaScript's own types, by the field types, so that the
// conformance runner checks what a user calls, not fromJsonString. Members a struct does
// not have go to its constructor as they are (it refuses them: UnknownFieldError), and a
// JSON value that does not fit its field's mapping goes as the plain JavaScript value of
// the JSON, to be refused as a program would see it refused.
//
// The JSON is read here, not with JSON.parse, so that every integer keeps its digits
// (64-bit kinds and timestamps become bigints from the text).

/** A JSON number, as its text. */
class JNumber {
  constructor(text) { this.text = text; }
}

/** A JSON object: its members in order, as [name, value] pairs. */
class JObject {
  constructor(members) { this.members = members; }
}

/** The JSON text as strings, booleans, null, arrays, JNumber and JObject. */
function parse(text) {
  let i = 0;
  const fail = () => { throw new SyntaxError(`bad JSON at ${i}`); };
  const blank = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
  const value = () => {
    blank();
    const c = text[i];
    if (c === '{') {
      const members = [];
      i++;
      blank();
      if (text[i] === '}') { i++; return new JObject(members); }
      for (;;) {
        blank();
        if (text[i] !== '"') fail();
        const name = string();
        blank();
        if (text[i++] !== ':') fail();
        members.push([name, value()]);
        blank();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] === '}') return new JObject(members);
        fail();
      }
    }
    if (c === '[') {
      const items = [];
      i++;
      blank();
      if (text[i] === ']') { i++; return items; }
      for (;;) {
        items.push(value());
        blank();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] === ']') return items;
        fail();
      }
    }
    if (c === '"') return string();
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (m) { i += m[0].length; return new JNumber(m[0]); }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    return fail();
  };
  const string = () => {
    const start = i++;
    for (; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '"') return JSON.parse(text.slice(start, ++i));
    }
    return fail();
  };
  const v = value();
  blank();
  if (i !== text.length) fail();
  return v;
}

const INTEGER = /^-?[0-9]+$/;
const SAFE = 2n ** 53n;

/** An integer's text as a number, or a bigint where a number would not hold it. */
function integer(text, big) {
  const b = BigInt(text);
  return big || b > SAFE || b < -SAFE ? b : Number(b);
}

/** own property name = v on o (an own "__proto__" too). */
function setOwn(o, name, v) {
  Object.defineProperty(o, name, { value: v, writable: true, enumerable: true, configurable: true });
}

/** The plain JavaScript value of a JSON value (objects as plain objects). */
function plain(j) {
  if (j instanceof JNumber) return INTEGER.test(j.text) ? integer(j.text, false) : Number(j.text);
  if (Array.isArray(j)) return j.map(plain);
  if (j instanceof JObject) {
    const o = {};
    for (const [k, v] of j.members) setOwn(o, k, plain(v));
    return o;
  }
  return j;
}

const INT_KINDS = new Set(['byte', 'char', 'wchar', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32']);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A JSON value as the JavaScript value of a field of type t (a field type as the
 * classes describe it: {kind, struct, enum, elem, key, size}). */
function convert(schema, t, j) {
  const k = t.kind;
  const whole = j instanceof JNumber && INTEGER.test(j.text);
  switch (k) {
    case 'struct': return j instanceof JObject ? build(schema, t.struct, j) : plain(j);
    case 'int64': case 'uint64': case 'timestamp': return whole ? BigInt(j.text) : plain(j);
    case 'float': case 'double': return j instanceof JNumber ? Number(j.text) : plain(j);
    case 'bytes': return typeof j === 'string' && BASE64.test(j) ? Buffer.from(j, 'base64') : plain(j);
    case 'enum': case 'flags': {
      const big = /64/.test(schema.get(t.enum).$info.base);
      return whole ? integer(j.text, big) : plain(j);
    }
    case 'optional': return j === null ? null : convert(schema, t.elem, j);
    case 'array': case 'vector': case 'list': case 'set':
      return Array.isArray(j) ? j.map((e) => convert(schema, t.elem, e)) : plain(j);
    case 'map': case 'hash':
      if (j instanceof JObject) return new Map(j.members.map(([key, v]) => [keyOf(schema, t.key, key), convert(schema, t.elem, v)]));
      if (Array.isArray(j) && j.every((p) => Array.isArray(p) && p.length === 2)) {
        return new Map(j.map(([key, v]) => [convert(schema, t.key, key), convert(schema, t.elem, v)]));
      }
      return plain(j);
    default: // bool, string, decimal, uuid: as the JSON has them; integers
      return INT_KINDS.has(k) && whole ? integer(j.text, false) : plain(j);
  }
}

/** A JSON object member's name as a key of type t: the key kind's mapping applied to the
 * text (digits parsed for numbers, enums and flags; text kinds keep it). */
function keyOf(schema, t, text) {
  if (['string', 'decimal', 'uuid', 'bytes'].includes(t.kind)) return convert(schema, t, text);
  if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return convert(schema, t, new JNumber(text));
  return convert(schema, t, text);
}

/** A struct instance from a JSON object: every member given to the class's constructor
 * by name, those of its fields converted by their types. */
function build(schema, typeName, j) {
  const cls = schema.get(typeName);
  const types = new Map(cls.fields.map((f) => [f.name, f.type]));
  const init = {};
  for (const [name, v] of j.members) {
    const t = types.get(name);
    setOwn(init, name, t === undefined ? plain(v) : convert(schema, t, v));
  }
  return new cls(init); // eslint-disable-line new-cap
}

/** The value of the request's JSON text for struct typeName, built natively; JSON that
 * is not an object goes to encode as its plain value (refused there). */
function buildValue(schema, typeName, text) {
  const j = parse(text);
  return j instanceof JObject ? build(schema, typeName, j) : plain(j);
}

module.exports = { build: buildValue };

'use strict';
// Enums and flags: frozen objects whose own enumerable properties are the members
// (numbers, or bigints on a 64-bit base), with lookups on their prototype. Fields hold
// plain numbers, so a value the schema does not name survives decode -> encode. The
// text of a value and the reading of a name are the core's (fbe_text_write_enum,
// fbe_enum_parse): the same in every binding.
const { fbeError } = require('./errors');

/** How many texts an enum remembers the value of (the names a program uses; a stream
 * of distinct texts must not grow memory without bound). */
const CACHE_MAX = 256;

/** The prototype of every enum/flags object: name lookups and the core's text form. */
class Enum {
  /** The member name of a value (the first declared one), or undefined. */
  nameOf(value) {
    return this.$info.byValue.get(value);
  }

  /** The text form (docs/TEXT.md): the member's name, or the number when none has it;
   * flags: the names of every member whose bits are set, joined by '|', then the bits
   * left over ('initialized|calculated|good', 'good|64', '64'). */
  format(value) {
    const info = this.$info;
    const t = info.nat.enumText(info.index, value);
    return t === undefined ? String(value) : t;
  }

  /** The value of a name ('good'), for flags of names or numbers joined by '|'
   * ('initialized|calculated', 'good|64'); ArgumentError when the enum has no such name. */
  parse(text) {
    return parseText(this.$info, String(text), '');
  }

  /** Flags: whether every bit of `flag` is set in `value`. */
  has(value, flag) {
    if (this.$info.big) return (BigInt(value) & BigInt(flag)) === BigInt(flag);
    return ((value & flag) >>> 0) === (flag >>> 0);
  }

  /** [name, value] pairs in declaration order. */
  entries() {
    return this.$info.values.map(([name, value]) => [name, value]);
  }
}

/** The value of a text (the core's fbe_enum_parse, remembered), or the core's error at
 * path. (A module function, not a closure of the schema: lib/codegen.js says why.) */
function parseText(info, text, path) {
  let v = info.cache.get(text);
  if (v !== undefined) return v;
  v = info.nat.enumParse(info.index, text);
  if (Array.isArray(v)) throw fbeError(v[1], { status: v[0], path });
  if (info.cache.size >= CACHE_MAX) info.cache.clear();
  info.cache.set(text, v);
  return v;
}

/** Builds the enum object of one description entry (index k of the native schema nat). */
function makeEnum(d, nat, k) {
  const big = d.base === 'int64' || d.base === 'uint64';
  const signed = d.base === 'int8' || d.base === 'int16' || d.base === 'int32' || d.base === 'int64';
  const byValue = new Map();
  for (const [name, value] of d.values) if (!byValue.has(value)) byValue.set(value, name);
  const info = Object.freeze({
    name: d.name, fullName: d.fullName, package: d.package, flags: d.flags, base: d.base,
    big, signed, values: d.values, byValue, nat, index: k,
    cache: new Map(), // text -> value, from the core's answers
  });
  const proto = Object.create(Enum.prototype, {
    $info: { value: info },
    name: { value: d.name },
    fullName: { value: d.fullName },
    isFlags: { value: d.flags },
    [Symbol.toStringTag]: { value: d.fullName },
  });
  const e = Object.create(proto);
  for (const [name, value] of d.values) {
    Object.defineProperty(e, name, { value, enumerable: true });
  }
  return Object.freeze(e);
}

module.exports = { Enum, makeEnum, parseText };

'use strict';
// Enums and flags: frozen objects whose own enumerable properties are the members
// (numbers, or bigints on a 64-bit base), with lookups on their prototype. Fields hold
// plain numbers, so a value the schema does not name survives decode -> encode.
const rt = require('./runtime');

/** The prototype of every enum/flags object: name lookups and the reference's text form. */
class Enum {
  /** The member name of a value (the first declared one), or undefined. */
  nameOf(value) {
    return this.$info.byValue.get(value);
  }

  /** The reference's text: the name (enum, '<unknown>' when none) or 'a|b|c' (flags). */
  format(value) {
    const info = this.$info;
    if (!info.flags) {
      const name = info.byValue.get(value);
      return name === undefined ? '<unknown>' : name;
    }
    const parts = [];
    for (const [name, bits] of info.values) {
      if (info.big) {
        const v = BigInt(value);
        if (bits !== 0n && (v & bits) === bits) parts.push(name);
      } else if (bits !== 0 && ((value & bits) >>> 0) === (bits >>> 0)) {
        parts.push(name);
      }
    }
    return parts.join('|');
  }

  /** The value of a name ('good'), or for flags of names joined by '|'. */
  parse(text) {
    return rt.enumByName(this, String(text), '');
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

/** Builds the enum object of one description entry. */
function makeEnum(d) {
  const big = d.base === 'int64' || d.base === 'uint64';
  const signed = d.base === 'int8' || d.base === 'int16' || d.base === 'int32' || d.base === 'int64';
  const byValue = new Map();
  for (const [name, value] of d.values) if (!byValue.has(value)) byValue.set(value, name);
  const info = Object.freeze({
    name: d.name, fullName: d.fullName, package: d.package, flags: d.flags, base: d.base,
    big, signed, values: d.values, byValue,
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

module.exports = { Enum, makeEnum };

'use strict';
// Schema: a loaded .fbe schema (and its imports) with a JavaScript class per struct,
// made when first asked for (lib/codegen.js), and a frozen object per enum/flags.
const util = require('util');
const native = require('./native');
const { fbeError, codes } = require('./errors');
const { makeEnum } = require('./enums');
const { Codegen } = require('./codegen');
const { Struct, trusted } = require('./runtime');
const values = require('./values');

const INFO = Symbol('fbe.struct');

function bool(v) {
  return v !== undefined && v !== null && Boolean(v);
}

class Schema {
  /** @private Use fbe.load / fbe.loadString / fbe.loadPackage. */
  constructor(nat) {
    const desc = nat.desc;
    const enums = desc.enums.map((d, k) => makeEnum(d, nat, k));
    // classes and codecs are made on first use (lib/codegen.js)
    const gen = new Codegen(nat, desc, enums, this, decorate);
    const byName = new Map();
    const priv = { nat, desc, enums, gen, byName };
    priv.packages = Object.freeze(desc.packages.map((p) =>
      Object.freeze({ ...p, imports: Object.freeze([...p.imports]) })));
    priv.warnings = Object.freeze([...nat.warnings]);
    Object.defineProperty(this, '_fbe', { value: priv });

    // names: "pkg.Name" always; "Name" for the root package, else when unambiguous
    const add = (fullName, pkg, name, entry) => {
      byName.set(fullName, entry);
      if (pkg === desc.root) byName.set(name, entry);
    };
    const structEntries = desc.structs.map((s, i) => ({ kind: 'struct', index: i }));
    const enumEntries = desc.enums.map((e, i) => ({ kind: 'enum', index: i, value: enums[i] }));
    desc.structs.forEach((s, i) => add(s.fullName, s.package, s.name, structEntries[i]));
    desc.enums.forEach((e, i) => add(e.fullName, e.package, e.name, enumEntries[i]));
    const counts = new Map();
    for (const x of [...desc.structs, ...desc.enums]) counts.set(x.name, (counts.get(x.name) || 0) + 1);
    desc.structs.forEach((s, i) => {
      if (!byName.has(s.name) && counts.get(s.name) === 1) byName.set(s.name, structEntries[i]);
    });
    desc.enums.forEach((e, i) => {
      if (!byName.has(e.name) && counts.get(e.name) === 1) byName.set(e.name, enumEntries[i]);
    });
    // a struct's class is made when first asked for: its names are getters
    for (const [name, entry] of byName) {
      if (RESERVED.has(name)) continue;
      if (entry.kind === 'enum') Object.defineProperty(this, name, { value: entry.value, enumerable: true });
      else Object.defineProperty(this, name, { get: classGetter(name), enumerable: true });
    }
  }

  /** The root package's name (the file that was loaded). */
  get root() {
    return this._fbe.desc.root;
  }

  /** Every package of the schema, imports first: {name, domain, version, imports}. */
  get packages() {
    return this._fbe.packages;
  }

  /** The warnings the schema loaded with, as "file:line:col: warning: message". */
  get warnings() {
    return this._fbe.warnings;
  }

  /** A struct class or enum object by "Name" or "package.Name"; NotFoundError when the
   * schema has none (has(name) asks first). */
  get(name) {
    const entry = this._fbe.byName.get(name);
    if (!entry) throw notFound(this, name, 'type');
    return entry.kind === 'struct' ? this._fbe.gen.classOf(entry.index) : entry.value;
  }

  /** Whether get(name) finds a type. */
  has(name) {
    return this._fbe.byName.has(name);
  }

  /** Every name get() knows. */
  names() {
    return [...this._fbe.byName.keys()];
  }

  /** The struct class of a name; throws FbeError when there is none. */
  struct(name) {
    return this._structClass(name);
  }

  /** The enum/flags object of a name; throws FbeError when there is none. */
  enum(name) {
    const entry = this._fbe.byName.get(name);
    if (!entry || entry.kind !== 'enum') throw notFound(this, name, 'enum');
    return entry.value;
  }

  _structIndex(type) {
    if (typeof type === 'function' && type[INFO] && type[INFO].schema === this) return type[INFO].index;
    const entry = typeof type === 'string' ? this._fbe.byName.get(type) : undefined;
    if (!entry || entry.kind !== 'struct') throw notFound(this, typeof type === 'function' ? type.name : type, 'struct');
    return entry.index;
  }

  _structClass(name) {
    return this._fbe.gen.classOf(this._structIndex(name));
  }

  /** Encodes a value (class instance or plain object) of a struct type. */
  encode(type, value, options) {
    const c = this._fbe.gen.codec(this._structIndex(type));
    return bool(options && options.final) ? c.EN1(value) : c.EN0(value);
  }

  /** Decodes bytes into an instance of the struct type, verified first by the core
   * (bytes verify rejects throw verify's FbeError) unless options.trusted === true,
   * within options.limits ({ maxDepth, maxModelSize, maxMemory }; the core's defaults). */
  decode(type, bytes, options) {
    const c = this._fbe.gen.codec(this._structIndex(type));
    return (bool(options && options.final) ? c.DE1 : c.DE0)(bytes, Boolean(options) && trusted(options),
      options ? options.limits : undefined);
  }

  /** A view of bytes of the struct type (lib/views.js): fields read in place on access,
   * verified first as decode verifies; options { model: 'standard' | 'final', limits }. */
  view(type, bytes, options) {
    return this._fbe.gen.codec(this._structIndex(type)).VW(bytes, options);
  }

  /** true when bytes start with a valid model of the type. */
  verify(type, bytes, options) {
    return this._structClass(type).verify(bytes, options);
  }

  /** The model size of valid bytes; throws FbeError naming the offset and path otherwise. */
  validate(type, bytes, options) {
    return this._structClass(type).validate(bytes, options);
  }

  toJsonString(type, value, options) {
    return this._fbe.gen.codec(this._structIndex(type)).TJ(value, Boolean(options && options.pretty));
  }

  /** A value from JSON; members the struct does not have are an UnknownFieldError
   * unless options.ignoreUnknown is true (JSON of a newer schema). */
  fromJsonString(type, text, options) {
    const c = this._fbe.gen.codec(this._structIndex(type));
    return options ? c.FJ(text, options.limits, options.ignoreUnknown) : c.FJ(text);
  }

  [util.inspect.custom]() {
    return `Schema(${this.root}: ${this.names().filter((n) => !n.includes('.')).join(', ')})`;
  }
}

/** A class's introspection properties, given when lib/codegen.js makes it. */
function decorate(schema, cls, i) {
  const desc = schema._fbe.desc;
  const s = desc.structs[i];
  Object.defineProperty(cls, INFO, { value: { schema, index: i, desc: s } });
  Object.defineProperties(cls, {
    typeName: { value: s.name },
    fullName: { value: s.fullName },
    packageName: { value: s.package },
    typeId: { value: s.typeId },
    isMessage: { value: s.message },
    isRequest: { value: s.request },
    // [response(...)] and [reject(...)] of a request: classes, made when asked for
    responseType: { get() { return s.response < 0 ? null : schema._fbe.gen.classOf(s.response); } },
    rejectTypes: { get() { return s.rejects.map((j) => schema._fbe.gen.classOf(j)); } },
    fields: {
      value: Object.freeze(s.fields.map((f) => Object.freeze({
        name: f.name, key: f.key, type: describeType(desc, f.type),
      }))),
    },
  });
}

/** The getter of a struct's name on a schema: it holds the name, never the schema (V8
 * keeps getters in hidden classes that outlive an object, so one holding its schema
 * could hold a dropped schema alive). */
function classGetter(name) {
  return function getClass() {
    return this.get(name);
  };
}

// Names a type never takes as a property of the schema, so no schema can shadow its API
// (README.md, "Names"): the Schema's own members (encode, get, _fbe, ...), those every
// object inherits (constructor, toString, __proto__, ...) and `then` (a schema must not
// look like a promise to `await`). Such a type is schema.get(name), or 'pkg.Name'.
const RESERVED = new Set([...Object.getOwnPropertyNames(Schema.prototype),
  ...Object.getOwnPropertyNames(Object.prototype), '_fbe', 'then']);

/** A field type as users see it: {kind, struct?: 'pkg.Name', enum?: 'pkg.Name', elem?, key?, size?}. */
function describeType(desc, t) {
  const o = { kind: t.kind };
  if (t.struct !== undefined) o.struct = desc.structs[t.struct].fullName;
  if (t.enum !== undefined) o.enum = desc.enums[t.enum].fullName;
  if (t.size !== undefined) o.size = t.size;
  if (t.key) o.key = describeType(desc, t.key);
  if (t.elem) o.elem = describeType(desc, t.elem);
  return Object.freeze(o);
}

// ---- what every struct instance has (class-independent, off the hot path)

function structInfo(v) {
  // the class through the prototype: a field may be named `constructor`
  const cls = v !== null && typeof v === 'object' ? Object.getPrototypeOf(v).constructor : undefined;
  const info = cls && cls[INFO];
  if (!info) throw new TypeError('not an fbe struct instance');
  return info;
}

/** The core's text form of a struct value (docs/TEXT.md): Account(id=1,name="Test",...);
 * a value that cannot be converted shows Account(<invalid: the error>). */
function text(v) {
  const { schema, index } = structInfo(v);
  return schema._fbe.gen.shared.text(index, v);
}

Object.defineProperties(Struct.prototype, {
  toString: {
    value: function toString() {
      return text(this);
    },
    writable: true, configurable: true,
  },
  [util.inspect.custom]: {
    value: function inspect() {
      return text(this);
    },
    writable: true, configurable: true,
  },
  toObject: {
    value: function toObject() {
      // the value as the core reads it (checked, sets without duplicates), then plain
      const { schema, index } = structInfo(this);
      const p = schema._fbe;
      return values.plain(p.desc, { kind: 'struct', struct: index }, p.gen.shared.copyOf(index, this));
    },
    writable: true, configurable: true,
  },
  toJSON: {
    value: function toJSON() {
      const { schema, index } = structInfo(this);
      const p = schema._fbe;
      return values.toJSONValue(p.desc, p.enums, { kind: 'struct', struct: index }, this);
    },
    writable: true, configurable: true,
  },
  clone: {
    value: function clone() {
      // one crossing: the value onto the tape, read into the core and written back
      const { schema, index } = structInfo(this);
      return schema._fbe.gen.shared.copyOf(index, this);
    },
    writable: true, configurable: true,
  },
});

/** The NotFoundError of a name the schema has no type (what: 'type', 'struct' or
 * 'enum') of, in the addon's words (native typeNotFound). */
function notFound(schema, name, what) {
  const [status, message] = schema._fbe.nat.typeNotFound(String(name), what);
  return fbeError(message, { status });
}

function includes(options) {
  const inc = options && options.include !== undefined ? options.include : [];
  if (!Array.isArray(inc) || inc.some((d) => typeof d !== 'string')) {
    throw fbeError('options.include must be an array of directory names',
      { status: codes.FBE_ERR_ARGUMENT });
  }
  return inc;
}

function fromNative(result) {
  if (result.errors) {
    const first = result.errors[0];
    throw fbeError(first !== undefined ? first : 'the schema does not load',
      { status: codes.FBE_ERR_SCHEMA, diagnostics: [...result.errors] });
  }
  return new Schema(result);
}

function checkString(v, what) {
  if (typeof v !== 'string') {
    throw fbeError(`${what} must be a string`, { status: codes.FBE_ERR_ARGUMENT });
  }
}

/** Loads a .fbe file and its imports (looked up next to it, then in options.include). */
function load(path, options) {
  checkString(path, 'the schema path');
  return fromNative(native.loadFile(path, includes(options)));
}

/** Loads a schema from text; options.name names it in diagnostics (its directory is
 * searched for imports). */
function loadString(text, options) {
  checkString(text, 'the schema text');
  const name = options && options.name !== undefined ? options.name : '<string>';
  checkString(name, 'options.name');
  return fromNative(native.loadString(text, name, includes(options)));
}

/** Loads package NAME from NAME.fbe on the include directories. */
function loadPackage(name, options) {
  checkString(name, 'the package name');
  return fromNative(native.loadPackage(name, includes(options)));
}

module.exports = { Schema, load, loadString, loadPackage, INFO };

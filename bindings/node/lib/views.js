'use strict';
// Views: read-only objects that read a message's fields from its verified bytes on
// access (the core's fbe_view, native/view.c), made by `Account.view(bytes, options)`.
// lib/codegen.js compiles one class per struct (a getter per field, on the prototype)
// and one per collection type; their state (the bytes, where the value is) is in private
// fields no other code can reach or forge. What every view has lives here, on the base
// classes, so a field of the same name hides it on the view (as on a value), while
// `fbe.View.prototype.toValue.call(v)` and the like always reach it.
const util = require('util');
const { fbeError } = require('./errors');
const native = require('./native');

// The one method a compiled class gives its base: v[OP](op, x) runs op on the view.
const OP = Symbol('fbe.viewOp');
const OP_VALUE = 0; // the decoded value (the core's, fbe_view_value, of a struct or a collection alike)
const OP_TEXT = 1; // the core's text form (fbe_view_to_text)
const OP_JSON = 2; // the core's JSON (fbe_view_to_json); x: pretty
const OP_EQUAL = 3; // deep equality by the core (fbe_view_equal, _equal_ref); x: the other
const OP_OTHER = 4; // internal: puts the view in the second view registers (OP_EQUAL)
// A compiled collection class's reads without the bounds check (i < length, known):
// v[ITEM](i) element or map value i, v[KEY](i) map key i.
const ITEM = Symbol('fbe.viewItem');
const KEY = Symbol('fbe.viewKey');

/** A view of a struct (every struct's view class extends it). */
class View {
  /** The value decode gives for the bytes: an instance of the struct's class. */
  toValue() { return this[OP](OP_VALUE); }

  /** Deep equality by the core, against a view or a value of this schema's structs. */
  equals(other) { return this[OP](OP_EQUAL, other); }

  /** The core's JSON of the value, as toJsonString gives for the decoded value. */
  toJson(options) { return this[OP](OP_JSON, Boolean(options && options.pretty === true)); }

  /** The core's text form (docs/TEXT.md), as String(value) gives for the decoded value. */
  toString() { return this[OP](OP_TEXT); }

  [util.inspect.custom]() { return this[OP](OP_TEXT); }
}

/** A view of an array, vector, list or set: `length`, `at(i)`, iteration, `toValue()`
 * (the Array, Set or array of pairs decode gives). A set's view reads its elements as
 * written; toValue() keeps one per element, as decode does. */
class ListView {
  *[Symbol.iterator]() {
    const n = this.length;
    for (let i = 0; i < n; i++) yield this[ITEM](i);
  }

  toArray() { return [...this]; }

  toValue() { return this[OP](OP_VALUE); }

  equals(other) { return this[OP](OP_EQUAL, other); }

  toJson(options) { return this[OP](OP_JSON, Boolean(options && options.pretty === true)); }

  toString() { return this[OP](OP_TEXT); }

  [util.inspect.custom]() { return this[OP](OP_TEXT); }
}

/** A view of a map or hash: `size`, `keyAt(i)`, `valueAt(i)`, `entries()` (and
 * iteration) of [key, value] in the order written, `keys()`, `values()`, `toValue()`
 * (the Map, or array of pairs, decode gives: one entry per key). */
class MapView {
  *entries() {
    const n = this.size;
    for (let i = 0; i < n; i++) yield [this[KEY](i), this[ITEM](i)];
  }

  [Symbol.iterator]() { return this.entries(); }

  *keys() {
    const n = this.size;
    for (let i = 0; i < n; i++) yield this[KEY](i);
  }

  *values() {
    const n = this.size;
    for (let i = 0; i < n; i++) yield this[ITEM](i);
  }

  toValue() { return this[OP](OP_VALUE); }

  equals(other) { return this[OP](OP_EQUAL, other); }

  toJson(options) { return this[OP](OP_JSON, Boolean(options && options.pretty === true)); }

  toString() { return this[OP](OP_TEXT); }

  [util.inspect.custom]() { return this[OP](OP_TEXT); }
}

/** The model of a view's options: { model: 'standard' | 'final' } (or { final: true }, as
 * decode takes it). The names are the core's (native modelParse: fbe_model_parse); a
 * name once read is remembered (there are two). */
const MODELS = new Map();
function isFinal(o) {
  if (o === undefined || o === null) return false;
  if (o.model === undefined) return o.final === true;
  let final = MODELS.get(o.model);
  if (final === undefined) {
    const [status, got] = native.modelParse(o.model);
    if (status) throw fbeError(got, { status });
    final = got === 1;
    MODELS.set(o.model, final);
  }
  return final;
}

module.exports = { View, ListView, MapView, OP, ITEM, KEY, OP_VALUE, OP_TEXT, OP_JSON, OP_EQUAL, OP_OTHER, isFinal };

'use strict';
// The error classes, made from the core's status table (FBE_STATUS_LIST in fbe/error.h,
// read through the addon): FbeError is the root (the table's class of FBE_OK), and each
// status has the class the table names (MalformedError, UnknownFieldError, ...), a
// subclass of its parent status's class. An error's message is the core's text
// (fbe_error_format, "reason at 'path' (offset N)"): made by the core for the errors it
// raises, through native.errorText for the ones lib/ raises.
const native = require('./native');

const codes = Object.create(null); // 'FBE_ERR_TYPE' -> 5
const names = [];                  // 5 -> 'FBE_ERR_TYPE'
const texts = [];                  // 5 -> 'type mismatch'
const rows = native.statuses();    // [code, name, text, class name, parent status]
for (const [code, name, text] of rows) {
  codes[name] = code;
  names[code] = name;
  texts[code] = text;
}
Object.freeze(codes);

const OWN_STATUS = Symbol('fbe.status'); // a class's own status, the default of its errors

class FbeError extends Error {
  /**
   * @param {string} reason what was wrong
   * @param {object} [info] {status, path, offset, diagnostics, text (the core's, when it
   *        made the error)}
   */
  constructor(reason, info = {}) {
    super(reason);
    const status = info.status === undefined ? new.target[OWN_STATUS] : info.status;
    Object.defineProperty(this, 'reason', { value: reason, writable: true, configurable: true });
    this.status = status;
    this.code = names[status] || 'FBE_ERR_UNKNOWN';
    this.path = info.path || '';
    this.offset = info.offset === undefined || info.offset === null || info.offset < 0 ? null : info.offset;
    if (info.diagnostics) this.diagnostics = info.diagnostics;
    this.message = info.text !== undefined ? info.text : FbeError.format(this.reason, this.path, this.offset);
  }

  /** "reason at 'path' (offset N)": the core's fbe_error_format. */
  static format(reason, path, offset) {
    return native.errorText(String(reason), path || '', offset === undefined ? null : offset);
  }
}
FbeError[OWN_STATUS] = codes.FBE_ERR_ARGUMENT;

const classes = [];                       // status -> class
const byName = Object.create(null);       // 'MalformedError' -> class
function classOf(code) {
  if (classes[code]) return classes[code];
  const [, , , name, parent] = rows[code];
  const Parent = parent === code ? null : classOf(parent);
  const cls = Parent ? { [name]: class extends Parent {} }[name] : FbeError; // FBE_OK's: the root
  if (Parent) {
    cls[OWN_STATUS] = code;
    byName[name] = cls;
  }
  Object.defineProperty(cls.prototype, 'name', { value: Parent ? name : 'FbeError', configurable: true });
  return (classes[code] = cls);
}
rows.forEach((row) => classOf(row[0]));
Object.freeze(byName);

/** An error of the class of info.status (FbeError for a status past the table). */
function fbeError(reason, info) {
  return new (classes[info.status] || FbeError)(reason, info);
}

/** Puts a level in front of an error's path (a field name, and/or an [index]), by the
 * core's rule: once a level does not fit, the path is marked as cut ("...[3].symbol")
 * and the core puts nothing more in front of it. */
function prefixPath(err, field, index) {
  if (!(err instanceof FbeError) || (!field && index === undefined)) return err;
  const path = native.prependPath(err.path, field || '', index);
  if (path !== err.path) {
    err.path = path;
    err.message = FbeError.format(err.reason, path, err.offset);
  }
  return err;
}

module.exports = { FbeError, codes, names, texts, classes: byName, fbeError, prefixPath };

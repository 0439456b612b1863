'use strict';
// FbeError: every failure of the binding (bad schema, wrong JavaScript type, number out
// of range, malformed bytes, JSON errors, protocol errors). The status codes come from
// the core's one table (FBE_STATUS_LIST in fbe/error.h), read through the addon.
const native = require('./native');

const codes = Object.create(null); // 'FBE_ERR_TYPE' -> 5
const names = [];                  // 5 -> 'FBE_ERR_TYPE'
const texts = [];                  // 5 -> 'type mismatch'
for (const [code, name, text] of native.statuses()) {
  codes[name] = code;
  names[code] = name;
  texts[code] = text;
}
Object.freeze(codes);

class FbeError extends Error {
  /**
   * @param {string} reason what was wrong
   * @param {object} [info] {status, path, offset, diagnostics}
   */
  constructor(reason, info = {}) {
    super(reason);
    const status = info.status === undefined ? codes.FBE_ERR_ARGUMENT : info.status;
    Object.defineProperty(this, 'reason', { value: reason, writable: true, configurable: true });
    this.status = status;
    this.code = names[status] || 'FBE_ERR_UNKNOWN';
    this.path = info.path || '';
    this.offset = info.offset === undefined || info.offset < 0 ? null : info.offset;
    if (info.diagnostics) this.diagnostics = info.diagnostics;
    this.message = FbeError.format(this.reason, this.path, this.offset);
  }

  /** "reason at 'path' (offset N)", like the core's fbe_error_format. */
  static format(reason, path, offset) {
    let text = reason;
    if (path) text += ` at '${path}'`;
    if (offset !== null && offset !== undefined) text += ` (offset ${offset})`;
    return text;
  }
}
Object.defineProperty(FbeError.prototype, 'name', { value: 'FbeError', configurable: true });

/** Puts a path segment in front of an error's path (a field name, or an [index]). */
function prefixPath(err, field, index) {
  if (!(err instanceof FbeError)) return err; // (called deep in the stack: do little)
  let seg = field || '';
  if (index !== undefined) seg += `[${index}]`;
  if (seg && err.path.length < 400) { // deeper: keep the inner part, as the core does
    const old = err.path;
    err.path = old ? seg + (old[0] === '[' ? '' : '.') + old : seg;
    err.message = FbeError.format(err.reason, err.path, err.offset);
  }
  return err;
}

module.exports = { FbeError, codes, names, texts, prefixPath };

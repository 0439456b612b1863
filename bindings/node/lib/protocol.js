'use strict';
// Sender/Receiver: the FBE protocol (FORMAT.md 9) over any byte stream or callback.
// A package's protocol is its `message` types plus those of the packages it imports.
const { EventEmitter } = require('events');
const { Writable } = require('stream');
const { fbeError, codes } = require('./errors');
const { Schema, INFO } = require('./schema');
const rt = require('./runtime');
const { iterate } = require('./iterate');

function checkSchema(schema) {
  if (!(schema instanceof Schema)) {
    throw fbeError('expected a Schema (from fbe.load)', { status: codes.FBE_ERR_ARGUMENT });
  }
}

function packageOf(schema, options) {
  const pkg = options && options.package !== undefined && options.package !== null ? options.package : null;
  if (pkg !== null && typeof pkg !== 'string') {
    throw fbeError('options.package must be a package name', { status: codes.FBE_ERR_ARGUMENT });
  }
  return pkg;
}

function unknownPackage(schema, pkg) {
  return fbeError(`no package '${pkg}' in the schema (root: ${schema.root})`,
    { status: codes.FBE_ERR_NOT_FOUND });
}

/** The struct index of a message instance of schema's classes (what send(message) and
 * request(message) take), or throws. */
function instanceIndex(schema, value, call) {
  const proto = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : null;
  const cls = proto !== null ? proto.constructor : undefined; // a field may be named `constructor`
  const info = cls && cls[INFO];
  if (!info || info.schema !== schema) {
    throw fbeError(`${call}(message): expected an instance of a message type of this schema ` +
      `(or call ${call}(typeName, value))`, { status: codes.FBE_ERR_TYPE });
  }
  return info.index;
}

/** options.write as a function of a frame: a function, or anything with write() (a
 * stream); null when not given. */
function writerOf(write) {
  if (write === undefined || write === null) return null;
  if (typeof write === 'function') return write;
  if (typeof write === 'object' && typeof write.write === 'function') return (frame) => write.write(frame);
  throw fbeError('options.write must be a function or have a write() method', { status: codes.FBE_ERR_ARGUMENT });
}

/** options.log: a function(direction, text), or null. */
function logOf(log) {
  if (log === undefined || log === null) return null;
  if (typeof log !== 'function') {
    throw fbeError('options.log must be a function(direction, text)', { status: codes.FBE_ERR_ARGUMENT });
  }
  return log;
}

/**
 * Writes messages as protocol frames. Each send() encodes one message (an instance of a
 * message type of the package's protocol, or a type name and a plain object) and hands
 * the frame to options.write: a function or anything with a write(Buffer) method (a
 * stream); send() also returns the frame. options.log(direction, text): the core's log
 * hook, called with 'send' and the message's text form before the frame leaves.
 */
class Sender {
  constructor(schema, options = {}) {
    checkSchema(schema);
    const pkg = packageOf(schema, options);
    const nat = schema._fbe.nat.sender(pkg, Boolean(options.final));
    if (!nat) throw unknownPackage(schema, pkg);
    const write = options.write;
    writerOf(write); // (checks it)
    Object.defineProperties(this, {
      schema: { value: schema, enumerable: true },
      package: { value: pkg === null ? schema.root : pkg, enumerable: true },
      final: { value: Boolean(options.final), enumerable: true },
      _nat: { value: nat },
      _write: { value: write || null },
      _log: { value: undefined, writable: true },
    });
    this.setLog(options.log);
  }

  /** The log hook: log(direction, text) with 'send' and each message's text form (the
   * core's, docs/TEXT.md); null: off. */
  setLog(log) {
    const fn = logOf(log);
    this._log = fn === null ? undefined : (text) => fn('send', text);
    this._nat.setLog(fn !== null);
    return this;
  }

  /** send(message) or send(typeName, value) -> the frame (a Buffer). */
  send(type, value) {
    let index;
    if (value === undefined && type !== null && typeof type === 'object') {
      value = type;
      index = instanceIndex(this.schema, value, 'send');
    } else {
      index = this.schema._structIndex(type);
    }
    const frame = this.schema._fbe.gen.send(this._nat, index, value, this._log);
    const w = this._write;
    if (typeof w === 'function') w(frame);
    else if (w) w.write(frame);
    return frame;
  }

  /** Bytes written so far. */
  get bytes() {
    return this._nat.bytes();
  }
}

/**
 * Reads protocol frames from bytes fed in chunks of any size and delivers each message
 * (verified and decoded) to options.onMessage(message, typeName) and to 'message'
 * listeners. Frames of types the protocol does not know are skipped. A corrupt frame
 * makes feed() throw an FbeError with the stream offset; the receiver then starts
 * afresh. An exception thrown by a handler propagates out of feed(); the bytes after
 * that message stay buffered for the next feed(). options.log(direction, text): the
 * core's log hook, called with 'receive' and each message's text form before it is
 * delivered. `for await (const message of receiver)` iterates the messages delivered
 * from then on, until an attached stream ends.
 */
class Receiver extends EventEmitter {
  constructor(schema, options = {}) {
    super();
    checkSchema(schema);
    const pkg = packageOf(schema, options);
    const nat = options.limits === undefined ? schema._fbe.nat.receiver(pkg, Boolean(options.final))
      : schema._fbe.nat.receiver(pkg, Boolean(options.final), rt.limits(options.limits));
    if (nat === undefined) throw schema._fbe.gen.nativeError(); // the limits were refused
    if (!nat) throw unknownPackage(schema, pkg);
    const onMessage = options.onMessage;
    if (onMessage !== undefined && onMessage !== null && typeof onMessage !== 'function') {
      throw fbeError('options.onMessage must be a function', { status: codes.FBE_ERR_ARGUMENT });
    }
    const structs = schema._fbe.desc.structs;
    Object.defineProperties(this, {
      schema: { value: schema, enumerable: true },
      package: { value: pkg === null ? schema.root : pkg, enumerable: true },
      final: { value: Boolean(options.final), enumerable: true },
      _nat: { value: nat },
      _deliver: {
        value: (msg, i) => {
          const name = structs[i].fullName;
          if (onMessage) onMessage(msg, name);
          if (this.listenerCount('message')) this.emit('message', msg, name);
        },
      },
      _log: { value: undefined, writable: true },
    });
    this.setLog(options.log);
  }

  /** The log hook: log(direction, text) with 'receive' and each message's text form (the
   * core's, docs/TEXT.md); null: off. */
  setLog(log) {
    const fn = logOf(log);
    this._log = fn === null ? undefined : (text) => fn('receive', text);
    this._nat.setLog(fn !== null);
    return this;
  }

  /** Takes the next bytes of the stream; returns how many messages it delivered. */
  feed(chunk) {
    return this.schema._fbe.gen.feed(this._nat, rt.input(chunk), this._deliver, this._log);
  }

  /** Drops a partial frame: the next byte fed starts a new frame. */
  reset() {
    this._nat.reset();
  }

  /** Bytes of an incomplete frame held for the next feed. */
  get pending() { return this._nat.counts()[0]; }

  /** Messages delivered so far. */
  get received() { return this._nat.counts()[1]; }

  /** Frames skipped because the protocol does not know their type. */
  get skipped() { return this._nat.counts()[2]; }

  /** Feeds every 'data' chunk of a readable stream; errors are emitted as 'error'; 'end'
   * is emitted when the stream ends or closes. */
  attach(readable) {
    attachReadable(this, readable, () => this.emit('end'));
    return this;
  }

  /** The messages delivered from now on, until an attached stream ends ('end'). */
  [Symbol.asyncIterator]() {
    return iterate(this, 'message');
  }

  /** A Writable stream that feeds this receiver (pipe a socket into it). */
  writable() {
    return new Writable({
      write: (chunk, encoding, done) => {
        try {
          this.feed(chunk);
          done();
        } catch (e) {
          done(e);
        }
      },
    });
  }
}

/** Feeds `peer` every 'data' chunk of `readable` (a feed error is emitted on the peer as
 * 'error'); ended() once when the stream ends or closes. The peer's _source is the
 * stream while it is attached (async iteration pauses it when messages pile up). */
function attachReadable(peer, readable, ended) {
  if (!readable || typeof readable.on !== 'function') {
    throw fbeError('attach(readable): expected a readable stream', { status: codes.FBE_ERR_ARGUMENT });
  }
  const onData = (chunk) => {
    try {
      peer.feed(chunk);
    } catch (e) {
      peer.emit('error', e);
    }
  };
  let done = false;
  const onEnd = () => {
    if (done) return;
    done = true;
    detach();
    ended();
  };
  const detach = () => {
    readable.removeListener('data', onData);
    readable.removeListener('end', onEnd);
    readable.removeListener('close', onEnd);
    if (peer._source && peer._source.readable === readable) peer._source = null;
  };
  peer._source = { readable, detach };
  readable.on('data', onData);
  readable.on('end', onEnd);
  readable.on('close', onEnd);
}

module.exports = { Sender, Receiver, checkSchema, packageOf, unknownPackage, instanceIndex, writerOf, logOf,
  attachReadable };

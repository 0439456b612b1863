'use strict';
// Request/response (docs/CLIENT.md) over native/rpc.c: the Client (the core's
// fbe_client), the Server (handlers answering requests; each reply given its request's
// id by the core's fbe_reply_prepare) and the Proxy (frames handed over undecoded). The
// rules (which message answers which request, rejects local and global, timeouts,
// duplicate ids, the cap, what may answer what) are the core's: this file turns its
// callbacks into promises, events and async iteration, and drives the client's
// watchdog from one timer.
const { EventEmitter } = require('events');
const { Writable } = require('stream');
const { fbeError, codes } = require('./errors');
const rt = require('./runtime');
const { iterate } = require('./iterate');
const { checkSchema, packageOf, unknownPackage, instanceIndex, writerOf, logOf, attachReadable } =
  require('./protocol');

// native/rpc.c's callbacks
const WRITE = 0, DONE = 1, MESSAGE = 2, LOG = 3, FRAME = 4;
// fbe_request_end: SENT and RESPONDED resolve, the others reject
const SENT = 0, RESPONDED = 1, REJECTED = 2;
const UINT64_MAX = (1n << 64n) - 1n;
const WAYS = ['send', 'receive'];

/** A time as the core takes it: bigint nanoseconds, from a bigint (nanoseconds) or a
 * number (milliseconds, fractions kept to the nanosecond). */
function nanos(t, what) {
  let ns;
  if (typeof t === 'bigint') ns = t;
  else if (typeof t === 'number' && Number.isFinite(t)) ns = BigInt(Math.round(t * 1e6));
  else {
    throw fbeError(`${what} must be a number of milliseconds or a bigint of nanoseconds`,
      { status: codes.FBE_ERR_TYPE });
  }
  if (ns < 0n || ns > UINT64_MAX) {
    throw fbeError(`${what} must be 0 .. 2^64-1 nanoseconds, not ${ns}`, { status: codes.FBE_ERR_RANGE });
  }
  return ns;
}

function closedError(what) {
  return fbeError(`${what}: the ${what.split('.')[0].toLowerCase()} is closed`, { status: codes.FBE_ERR_ARGUMENT });
}

/** The native peer of kind make (client, server, proxy) for the options' package. */
function makePeer(schema, options, make, extra) {
  checkSchema(schema);
  const pkg = packageOf(schema, options);
  const limits = options.limits === undefined ? undefined : rt.limits(options.limits);
  const nat = schema._fbe.nat[make](pkg, Boolean(options.final), limits, extra);
  if (nat === undefined) throw schema._fbe.gen.nativeError(); // the limits were refused
  if (!nat) throw unknownPackage(schema, pkg);
  return { nat, pkg };
}

/** What every peer shares: its schema, package, model, native object; feeding, streams,
 * the log hook, close and async iteration. Subclasses give _dispatch (native/rpc.c's
 * callbacks) and _iterated (the event `for await` iterates). */
class Peer extends EventEmitter {
  constructor(schema, options, make, extra) {
    if (new.target === Peer) {
      throw new TypeError('fbe.Peer is the base of Client, Server and Proxy: make one of those');
    }
    super();
    const { nat, pkg } = makePeer(schema, options, make, extra);
    const gen = schema._fbe.gen;
    Object.defineProperties(this, {
      schema: { value: schema, enumerable: true },
      package: { value: pkg === null ? schema.root : pkg, enumerable: true },
      final: { value: Boolean(options.final), enumerable: true },
      _nat: { value: nat },
      _gen: { value: gen },
      _peer: { value: gen.peer },
      _structs: { value: schema._fbe.desc.structs },
    });
    this._closed = false;
    this._source = null;
    this._log = null;
    this._feeding = false;
    this._queued = [];
    this._dispatch = this._dispatch.bind(this);
  }

  /** Whether close() was called. */
  get closed() { return this._closed; }

  /** One native call fn(...args): the core's error thrown when it failed. An exception a
   * callback threw comes out of it as it is, except where it made the core's call fail
   * (a write that threw: FBE_ERR_IO), whose error then carries it as its cause; a feed's
   * (`feeding`) listener that threw stopped the core's feed, and its exception is the
   * error. */
  _call(fn, args, feeding) {
    const peer = this._peer;
    peer.mark();
    let result, thrown, threw = false;
    try {
      result = fn.apply(this._nat, args);
    } catch (e) {
      thrown = e;
      threw = true;
    }
    if (peer.status() !== 0 && !(threw && feeding === true)) {
      const err = this._gen.nativeError();
      if (threw) err.cause = thrown;
      throw err;
    }
    if (threw) throw thrown;
    return result;
  }

  _check(what) {
    if (this._closed) throw closedError(`${this.constructor.name}.${what}`);
  }

  /** The message index and value of send(message) / send(type, value). */
  _message(call, type, value) {
    if (value === undefined && type !== null && typeof type === 'object') {
      return [instanceIndex(this.schema, type, call), type];
    }
    return [this.schema._structIndex(type), value];
  }

  /** A log line: log(direction, text); an exception it throws is thrown on its own, from
   * the event loop, so it never cuts a call of the core short. */
  _logLine(way, text) {
    const log = this._log;
    if (log === null) return;
    try {
      log(WAYS[way], text);
    } catch (e) {
      process.nextTick(() => { throw e; });
    }
  }

  /** The log hook: log(direction, text), direction 'send' or 'receive', text the
   * message's text form (the core's, docs/TEXT.md); null: off. */
  setLog(log) {
    const fn = logOf(log);
    this._check('setLog');
    this._log = fn;
    if (this._nat.log) this._nat.log(fn !== null);
    return this;
  }

  /** Takes the next received bytes (a Buffer, Uint8Array or ArrayBuffer), in chunks of
   * any size. A frame that cannot be valid throws the core's FbeError (its stream
   * offset); the frames before it were handled. An exception a listener throws comes out
   * of feed() as it is, and the bytes after that message wait for the next feed. Bytes
   * fed from a listener while this peer is feeding (a stream looped back within one
   * process) are taken when the current feed is done. */
  feed(chunk) {
    this._check('feed');
    const bytes = rt.input(chunk);
    if (this._feeding) {
      this._queued.push(Buffer.from(bytes)); // (a copy: the caller may reuse its buffer)
      return;
    }
    this._feeding = true;
    try {
      if (this._queued.length) this._queued.push(Buffer.from(bytes)); // (after those a failed feed left)
      else this._call(this._nat.feed, [bytes, this._dispatch], true);
      while (this._queued.length && !this._closed) this._call(this._nat.feed, [this._queued.shift(), this._dispatch], true);
    } finally {
      this._feeding = false;
      if (this._closed) this._queued.length = 0;
      this._fed();
    }
  }

  _fed() {}

  /** Feeds every 'data' chunk of a readable stream (a net.Socket...); a feed error is
   * emitted as 'error'. When the stream ends or closes, 'end' is emitted (a client is
   * reset first). */
  attach(readable) {
    this._check('attach');
    attachReadable(this, readable, () => this._ended());
    return this;
  }

  _ended() {
    this.emit('end');
  }

  /** A Writable stream that feeds this peer (pipe a socket into it). */
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

  /** Drops a partial frame (a client also ends every pending request, ResetError). */
  reset() {
    this._check('reset');
    try {
      this._call(this._nat.reset, [this._dispatch]);
    } finally {
      this._fed();
    }
  }

  /** Ends this peer: a client's pending requests fail with ResetError (as reset()), an
   * attached stream is let go, the native state is freed (once every call running on it
   * has returned), 'close' is emitted; every later call throws. Calling it again does
   * nothing. */
  close() {
    if (this._closed) return;
    this._closed = true;
    if (this._source) this._source.detach();
    try {
      this._call(this._nat.close, [this._dispatch]);
    } finally {
      this._fed();
      this.emit('close');
    }
  }

  /** Bytes of an incomplete frame held for the next feed. */
  get pendingBytes() { return this._counts()[1]; }
  /** Messages (a proxy: frames of known types) received. */
  get received() { return this._counts()[2]; }
  /** Frames of types the protocol does not know. */
  get skipped() { return this._counts()[3]; }

  _counts() {
    return this._nat.counts() || [0, 0, 0, 0, 0];
  }

  [Symbol.asyncIterator]() {
    return iterate(this, this._iterated);
  }
}

/**
 * A client of a package's protocol (docs/CLIENT.md): request() sends a [request] and
 * returns a promise of its response; a reject fails it with RejectedError (.reject: the
 * reject), a timeout with TimeoutError, reset() and close() with ResetError. Every other
 * message received is a notification: 'notify' (and 'message') events, and
 * `for await (const message of client)`. Timeouts run on options.clock (bigint
 * nanoseconds; default process.hrtime.bigint) from one unref'd timer at the earliest
 * deadline; with { timers: false } nothing runs by itself: call watchdog(now).
 */
class Client extends Peer {
  constructor(schema, options = {}) {
    if (options === null || typeof options !== 'object') {
      throw fbeError('new Client(schema, options): options must be an object', { status: codes.FBE_ERR_ARGUMENT });
    }
    const max = options.maxPending === undefined ? 0 : options.maxPending;
    if (!Number.isSafeInteger(max) || max < 0) {
      throw fbeError('options.maxPending must be a non-negative integer (0: the default, 65536)',
        { status: codes.FBE_ERR_ARGUMENT });
    }
    const write = writerOf(options.write !== undefined ? options.write : options.stream);
    if (write === null) {
      throw fbeError('new Client(schema, options): options.write (a function or a writable stream) or ' +
        'options.stream (a duplex stream) is required', { status: codes.FBE_ERR_ARGUMENT });
    }
    const clock = options.clock === undefined ? process.hrtime.bigint : options.clock;
    if (typeof clock !== 'function') {
      throw fbeError('options.clock must be a function returning the time (bigint nanoseconds)',
        { status: codes.FBE_ERR_ARGUMENT });
    }
    const timeout = options.timeout === undefined ? 0n : nanos(options.timeout, 'options.timeout');
    super(schema, options, 'client', max);
    this._write = write;
    this._clock = clock;
    this._timeout = timeout;
    this._timers = options.timers !== false;
    this._requests = new Map(); // token -> { resolve, reject }
    this._token = 0;
    this._timer = null;
    this._timerAt = 0n;
    this._onTimer = () => {
      this._timer = null;
      if (!this._closed) this.watchdog();
    };
    this._iterated = 'notify';
    if (options.log !== undefined) this.setLog(options.log);
    if (options.onNotify !== undefined) {
      if (typeof options.onNotify !== 'function') {
        throw fbeError('options.onNotify must be a function', { status: codes.FBE_ERR_ARGUMENT });
      }
      this.on('notify', options.onNotify);
    }
    if (options.stream !== undefined) this.attach(options.stream);
  }

  _dispatch(what, a, b, c, d, e) {
    const peer = this._peer;
    switch (what) {
      case WRITE:
        try {
          this._write(a);
        } finally {
          peer.mark();
        }
        return undefined;
      case DONE: { // a token, b how it ended, c the message's type (-1: none), d status, e text
        let msg;
        if (c >= 0 && (msg = peer.got(c)) === undefined) return true;
        const r = this._requests.get(a);
        if (r !== undefined) {
          this._requests.delete(a);
          if (b === SENT) r.resolve(undefined);
          else if (b === RESPONDED) r.resolve(msg);
          else {
            const err = fbeError(e, { status: d });
            if (b === REJECTED) err.reject = msg;
            r.reject(err);
          }
        }
        return false;
      }
      case MESSAGE: {
        const msg = peer.got(a);
        if (msg === undefined) return true;
        try {
          const name = this._structs[a].fullName;
          this.emit('notify', msg, name);
          this.emit('message', msg, name);
        } finally {
          peer.mark();
        }
        return false;
      }
      case LOG:
        try {
          this._logLine(a, b);
        } finally {
          peer.mark();
        }
        return undefined;
      default:
        return undefined;
    }
  }

  /**
   * request(message, { timeout, now }) or request(type, value, { timeout, now }): sends
   * a request; a promise of its response (undefined for a request type with no
   * [response]). timeout: milliseconds (a number) or nanoseconds (a bigint), 0 for none
   * (default: options.timeout of the client); now: the time it is made (default: the
   * clock's). A request the core refuses (not a request type, a pending request with an
   * equal id, past maxPending, its bytes not taken) is a rejected promise and nothing is
   * sent.
   */
  request(a, b, c) {
    let index, value, options;
    try {
      if (typeof a === 'string' || typeof a === 'function') {
        index = this.schema._structIndex(a);
        value = b;
        options = c;
      } else {
        index = instanceIndex(this.schema, a, 'request');
        value = a;
        options = b;
      }
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => this._request(index, value, options, resolve, reject));
  }

  _request(index, value, options, resolve, reject) {
    let timeout = this._timeout, now;
    try {
      this._check('request');
      if (options !== undefined && options !== null) {
        if (options.timeout !== undefined) timeout = nanos(options.timeout, 'timeout');
        if (options.now !== undefined) now = nanos(options.now, 'now');
      }
      if (now === undefined) now = this._now();
    } catch (err) {
      reject(err);
      return;
    }
    const token = ++this._token;
    this._requests.set(token, { resolve, reject });
    try {
      this._peer.put(index, value);
      this._call(this._nat.request, [index, timeout, now, token, this._dispatch]);
    } catch (err) {
      // refused by the core (nothing was sent), or a write that threw (the core's
      // FBE_ERR_IO: the request was not registered)
      if (this._requests.delete(token)) reject(err);
      return;
    }
    if (timeout !== 0n && this._requests.has(token)) this._arm(now + timeout);
  }

  /** send(message) or send(type, value): any message of the protocol, as it is (no
   * request is made). */
  send(type, value) {
    this._check('send');
    const [index, v] = this._message('send', type, value);
    this._peer.put(index, v);
    this._call(this._nat.send, [index, this._dispatch]);
  }

  /** Ends every pending request whose timeout has passed at `now` (default: the clock's
   * time) with TimeoutError "Timeout!", oldest first; how many. */
  watchdog(now) {
    this._check('watchdog');
    const t = now === undefined ? this._now() : nanos(now, 'now');
    let ended;
    try {
      ended = this._call(this._nat.watchdog, [t, this._dispatch]);
    } finally {
      this._rearm();
    }
    return ended;
  }

  /** Requests waiting for their response. */
  get pending() { return this._requests.size; }

  /** When the watchdog next ends a request (bigint nanoseconds of the clock), or null. */
  get nextDeadline() { return this._closed ? null : this._nat.nextDeadline(); }

  /** Bytes sent so far. */
  get bytes() { return this._counts()[4]; }

  _now() {
    return nanos(this._clock(), 'the clock\'s time');
  }

  _fed() { // requests may have ended: no timer when none is left
    if (this._requests.size === 0 || this._closed) this._clearTimer();
  }

  _ended() {
    if (!this._closed) this.reset();
    this.emit('end');
  }

  /** A request with a timeout ends at `deadline` at the latest: the timer runs by then. */
  _arm(deadline) {
    if (!this._timers || (this._timer !== null && this._timerAt <= deadline)) return;
    this._rearm();
  }

  /** The timer at the earliest deadline of the core's table, or none. */
  _rearm() {
    if (!this._timers || this._closed || this._requests.size === 0) {
      this._clearTimer();
      return;
    }
    const next = this._nat.nextDeadline();
    if (next === null) {
      this._clearTimer();
      return;
    }
    if (this._timer !== null && this._timerAt === next) return;
    this._clearTimer();
    const left = next - this._now();
    const ms = left <= 0n ? 0 : Math.min(Math.ceil(Number(left) / 1e6), 0x7fffffff);
    this._timerAt = next;
    this._timer = setTimeout(this._onTimer, ms);
    this._timer.unref();
  }

  _clearTimer() {
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
  }
}

/**
 * A server of a package's protocol: the messages it is fed go to the handler of their
 * type (handle(type, handler)) or, without one, to 'message' events (and
 * `for await (const message of server)`). A handler gets the request and returns (or
 * resolves to) its answer: a message of the request's response type or of one of its
 * rejects (a plain object: the response), given the request's id by the core; throwing
 * (or rejecting with) a message of a reject type, or a RejectedError, sends that reject.
 * Anything else a handler throws, and an answer the core refuses, is emitted as
 * 'error' (error, request); nothing is sent then.
 */
class Server extends Peer {
  constructor(schema, options = {}) {
    if (options === null || typeof options !== 'object') {
      throw fbeError('new Server(schema, options): options must be an object', { status: codes.FBE_ERR_ARGUMENT });
    }
    const write = writerOf(options.write !== undefined ? options.write : options.stream);
    if (write === null) {
      throw fbeError('new Server(schema, options): options.write (a function or a writable stream) or ' +
        'options.stream (a duplex stream) is required', { status: codes.FBE_ERR_ARGUMENT });
    }
    super(schema, options, 'server');
    this._write = write;
    this._handlers = new Map(); // request type index -> handler
    this._iterated = 'message';
    if (options.log !== undefined) this.setLog(options.log);
    const handlers = options.handlers;
    if (handlers !== undefined && handlers !== null) {
      const entries = handlers instanceof Map ? handlers.entries() : Object.entries(handlers);
      for (const [type, handler] of entries) this.handle(type, handler);
    }
    if (options.stream !== undefined) this.attach(options.stream);
  }

  /** The handler of requests of `type` (a class or a name): handler(request, server) ->
   * the answer, or a promise of it; undefined sends nothing. */
  handle(type, handler) {
    const index = this.schema._structIndex(type);
    const s = this._structs[index];
    if (!s.request) {
      throw fbeError(`${s.fullName} is not a request (no [request] in the schema)`, { status: codes.FBE_ERR_TYPE });
    }
    if (typeof handler !== 'function') {
      throw fbeError('handle(type, handler): handler must be a function', { status: codes.FBE_ERR_ARGUMENT });
    }
    this._handlers.set(index, handler);
    return this;
  }

  _dispatch(what, a, b) {
    const peer = this._peer;
    switch (what) {
      case WRITE:
        try {
          this._write(a);
        } finally {
          peer.mark();
        }
        return undefined;
      case MESSAGE: {
        const msg = peer.got(a);
        if (msg === undefined) return true;
        try {
          this._received(msg, a);
        } finally {
          peer.mark();
        }
        return false;
      }
      case LOG:
        try {
          this._logLine(a, b);
        } finally {
          peer.mark();
        }
        return undefined;
      default:
        return undefined;
    }
  }

  _received(msg, index) {
    const handler = this._handlers.get(index);
    if (handler === undefined) {
      this.emit('message', msg, this._structs[index].fullName);
      return;
    }
    let answer;
    try {
      answer = handler(msg, this);
    } catch (err) {
      this._answer(msg, err, true);
      return;
    }
    if (answer !== null && typeof answer === 'object' && typeof answer.then === 'function') {
      // (an 'error' nobody listens to is thrown as an uncaught exception, as from a
      // synchronous handler: never left as a rejected promise nobody handles)
      Promise.resolve(answer).then((r) => this._answer(msg, r, false), (err) => this._answer(msg, err, true))
        .catch((err) => process.nextTick(() => { throw err; }));
    } else {
      this._answer(msg, answer, false);
    }
  }

  /** A handler's answer (or what it threw) sent as the request's reply. */
  _answer(request, answer, thrown) {
    let reply = answer;
    if (thrown) {
      if (this._gen.indexOf(answer) >= 0) reply = answer;
      else if (answer instanceof Error && this._gen.indexOf(answer.reject) >= 0) reply = answer.reject;
      else {
        this.emit('error', answer, request);
        return;
      }
    }
    if (reply === undefined || reply === null || this._closed) return;
    try {
      this.reply(request, reply);
    } catch (err) {
      this.emit('error', err, request);
    }
  }

  /**
   * reply(request, answer) or reply(request, type, value): answers a request this server
   * received with a message of its response type or of one of its rejects (a plain
   * object: the response), given the request's id by the core (fbe_reply_prepare);
   * FbeError (FBE_ERR_TYPE) for any other type, and nothing is sent.
   */
  reply(request, type, value) {
    this._check('reply');
    const ri = this._gen.indexOf(request);
    if (ri < 0) {
      throw fbeError('reply(request, answer): expected a request this server received (an instance of a ' +
        'message type of its schema)', { status: codes.FBE_ERR_TYPE });
    }
    let pi, v;
    if (value !== undefined || typeof type === 'string' || typeof type === 'function') {
      pi = this.schema._structIndex(type);
      v = value;
    } else if ((pi = this._gen.indexOf(type)) >= 0) {
      v = type;
    } else {
      pi = this._structs[ri].response;
      if (pi < 0) {
        throw fbeError(`${this._structs[ri].fullName} has no [response(...)]: answer with a message ` +
          'of one of its reject types', { status: codes.FBE_ERR_TYPE });
      }
      v = type;
    }
    this._peer.put2(ri, request, pi, v);
    this._call(this._nat.reply, [ri, pi, this._dispatch]);
  }

  /** send(message) or send(type, value): any message of the protocol (a notification). */
  send(type, value) {
    this._check('send');
    const [index, v] = this._message('send', type, value);
    this._peer.put(index, v);
    this._call(this._nat.send, [index, this._dispatch]);
  }
}

/**
 * A proxy of a package's protocol: every frame it is fed is handed over undecoded, as
 * a ProxyFrame { typeId, type (the struct class, or null when the protocol does not know
 * the id), typeName (or null), frame (the bytes, size field included) }, to 'frame'
 * events, options.onFrame and `for await (const frame of proxy)`. Frames are checked as a
 * receiver checks them; with { verify: true } a frame of a known type is verified too.
 */
class Proxy extends Peer {
  constructor(schema, options = {}) {
    if (options === null || typeof options !== 'object') {
      throw fbeError('new Proxy(schema, options): options must be an object', { status: codes.FBE_ERR_ARGUMENT });
    }
    if (options.onFrame !== undefined && typeof options.onFrame !== 'function') {
      throw fbeError('options.onFrame must be a function', { status: codes.FBE_ERR_ARGUMENT });
    }
    super(schema, options, 'proxy', Boolean(options.verify));
    Object.defineProperty(this, 'verify', { value: Boolean(options.verify), enumerable: true });
    this._iterated = 'frame';
    this._frames = 0;
    if (options.onFrame !== undefined) this.on('frame', options.onFrame);
    if (options.stream !== undefined) this.attach(options.stream);
  }

  _dispatch(what, typeId, index, bytes) {
    if (what !== FRAME) return undefined;
    try {
      this._frames++;
      const known = index >= 0;
      this.emit('frame', {
        typeId,
        type: known ? this._gen.classOf(index) : null,
        typeName: known ? this._structs[index].fullName : null,
        frame: bytes,
      });
    } finally {
      this._peer.mark();
    }
    return undefined;
  }

  /** Takes the next bytes; returns how many frames it handed over. */
  feed(chunk) {
    const before = this._frames;
    super.feed(chunk);
    return this._frames - before;
  }
}

module.exports = { Peer, Client, Server, Proxy };

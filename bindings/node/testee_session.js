'use strict';
// The Node testee's conversations (docs/TESTEE.md, "Conversations"): sessions that are a
// fbe.Client, a fbe.Server or a fbe.Proxy of a package, driven through the public API
// only. The runner plays the wire (what a session writes is the answer's "hex") and the
// clock (the client has { timers: false }: its watchdog runs when the runner says, at
// the runner's `now`). Requests are promises: each ends through its then/catch, which
// the answer waits for (the event loop's next turn, after every promise reaction), so
// `ended` lists the requests in the order the core ended them. A request the core
// refused rejects with an error of another class than the three a request ends with
// (RejectedError, TimeoutError, ResetError): that is the answer's error.
//
// Numbers that may be 64-bit (now, timeout, token) are read from the request's text as
// bigints, and messages cross as the core's JSON text, so every digit is kept.

const ENDS = new Set(['FBE_ERR_REJECTED', 'FBE_ERR_TIMEOUT', 'FBE_ERR_RESET']);
const OPS = new Set(['client', 'server', 'proxy', 'request', 'feed', 'watchdog', 'reset', 'serve', 'reply', 'send',
  'close']);

/** The event loop's next turn: every promise reaction due before it has run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

class Sessions {
  /**
   * @param fbe the package
   * @param schemaFor (package) -> its fbe.Schema (the testee's cache, reset by load)
   * @param rawMember (line, name) -> the raw JSON text of a member of the request
   */
  constructor(fbe, schemaFor, rawMember) {
    Object.assign(this, { fbe, schemaFor, rawMember });
    this.open = new Map();
  }

  has(op) { return OPS.has(op); }

  closeAll() {
    for (const s of this.open.values()) s.peer.close();
    this.open.clear();
  }

  /** The answer (JSON text) to a session request. */
  async handle(req, line) {
    if (req.op === 'client' || req.op === 'server' || req.op === 'proxy') return this.start(req, line);
    if (typeof req.session !== 'string') return fail('request needs "session"');
    const s = this.open.get(req.session);
    if (!s) return fail('no such session');
    switch (req.op) {
      case 'close':
        s.peer.close();
        this.open.delete(req.session);
        return '{"ok":true}';
      case 'request': return this.request(s, req, line);
      case 'feed':
        if (s.kind === 'server') return fail('a server session is fed by "serve"');
        return this.feed(s, req, s.kind === 'client' ? ['ended', 'notified'] : ['frames']);
      case 'serve':
        if (s.kind !== 'server') return fail('not a server session');
        return this.feed(s, req, ['requests']);
      case 'watchdog': case 'reset': {
        if (s.kind !== 'client') return fail('not a client session');
        if (req.op === 'reset') s.peer.reset();
        else s.peer.watchdog(this.u64(line, 'now'));
        await settled();
        return answer(s, null, false, ['ended']);
      }
      case 'reply': {
        if (s.kind !== 'server') return fail('not a server session');
        const i = req.request;
        if (!Number.isSafeInteger(i) || i < 0 || i >= s.received.length) return fail('no such request');
        const [type, value] = this.message(s, req, line);
        let error = null;
        try {
          s.peer.reply(s.received[i], type, value);
        } catch (e) {
          error = fbeOnly(this.fbe, e);
        }
        return answer(s, error, true, []);
      }
      default: { // send
        if (s.kind === 'proxy') return fail('a proxy sends nothing');
        const [type, value] = this.message(s, req, line);
        let error = null;
        try {
          s.peer.send(type, value);
        } catch (e) {
          error = fbeOnly(this.fbe, e);
        }
        await settled();
        return answer(s, error, true, s.kind === 'client' ? ['ended'] : []);
      }
    }
  }

  /** Opens a client, server or proxy session of the request's package and model. */
  start(req, line) {
    if (typeof req.session !== 'string') return fail('request needs "session"');
    if (this.open.has(req.session)) return fail('a session of that name is open');
    const schema = this.schemaFor(req.package);
    const s = {
      kind: req.op, schema, package: req.package, wire: [], lists: { ended: [], notified: [], requests: [], frames: [] },
      log: [], received: [],
    };
    const final = req.model === 'final';
    const write = (frame) => s.wire.push(Buffer.from(frame));
    if (req.op === 'client') {
      let maxPending = 0;
      if (req.max_pending !== undefined) {
        maxPending = Number(this.u64(line, 'max_pending'));
      }
      s.peer = new this.fbe.Client(schema, { package: req.package, final, maxPending, write, timers: false });
      s.peer.on('notify', (msg) => s.lists.notified.push(messageJson(schema, msg)));
    } else if (req.op === 'server') {
      s.peer = new this.fbe.Server(schema, { package: req.package, final, write });
      s.peer.on('message', (msg) => {
        s.received.push(msg);
        s.lists.requests.push(messageJson(schema, msg));
      });
    } else {
      s.peer = new this.fbe.Proxy(schema, { package: req.package, final, verify: req.verify === true });
      s.peer.on('frame', (f) => s.lists.frames.push(
        `{"type_id":${f.typeId},"known":${f.type !== null},"hex":"${f.frame.toString('hex')}"}`));
    }
    if (req.log === true && req.op !== 'proxy') s.peer.setLog((way, text) => s.log.push(JSON.stringify(`${way} ${text}`)));
    this.open.set(req.session, s);
    return '{"ok":true}';
  }

  /** A request of the client: its promise's end goes to `ended` (or, refused, the answer). */
  async request(s, req, line) {
    if (s.kind !== 'client') return fail('not a client session');
    const now = this.u64(line, 'now');
    const timeout = this.u64(line, 'timeout');
    const token = this.u64(line, 'token');
    const [type, value] = this.message(s, req, line);
    let refused = null;
    s.peer.request(type, value, { timeout, now }).then(
      (response) => s.lists.ended.push(response === undefined ? `{"token":${token},"end":"sent"}`
        : `{"token":${token},"end":"responded",${typeJson(s.schema, response)}}`),
      (e) => {
        if (!(e instanceof this.fbe.FbeError) || !ENDS.has(e.code)) refused = e;
        else if (e.code === 'FBE_ERR_REJECTED') {
          s.lists.ended.push(`{"token":${token},"end":"rejected",${typeJson(s.schema, e.reject)},${errorJson(e)}}`);
        } else {
          s.lists.ended.push(`{"token":${token},"end":"${e.code === 'FBE_ERR_TIMEOUT' ? 'timeout' : 'reset'}",` +
            `${errorJson(e)}}`);
        }
      });
    await settled();
    return answer(s, refused === null ? null : fbeOnly(this.fbe, refused), true, ['ended']);
  }

  /** Received bytes to a client, server or proxy, in pieces of chunk_size. */
  async feed(s, req, lists) {
    const bytes = Buffer.from(typeof req.hex === 'string' ? req.hex : '', 'hex');
    const step = req.chunk_size === undefined || req.chunk_size === 0 ? bytes.length || 1 : req.chunk_size;
    if (!Number.isSafeInteger(step) || step <= 0) return fail('"chunk_size" must be a positive integer');
    let error = null;
    try {
      for (let at = 0; at < bytes.length || at === 0; at += step) {
        s.peer.feed(bytes.subarray(at, at + step));
        if (bytes.length === 0) break;
      }
    } catch (e) {
      error = fbeOnly(this.fbe, e);
    }
    await settled();
    return answer(s, error, false, lists);
  }

  /** [type, value] of the request's "type" (P's own "Name" or "pkg.Name") and "json". */
  message(s, req, line) {
    const name = typeof req.type === 'string' && req.type.includes('.') && s.schema.has(req.type) ? req.type
      : `${s.package}.${req.type}`;
    return [name, s.schema.fromJsonString(name, this.rawMember(line, 'json'))];
  }

  /** A non-negative integer member as a bigint (0 when absent), from the request's text. */
  u64(line, name) {
    const raw = this.rawMember(line, name);
    if (raw === undefined) return 0n;
    if (!/^[0-9]+$/.test(raw)) throw new Error(`"${name}" must be a non-negative integer`);
    return BigInt(raw);
  }
}

function fail(why) {
  return JSON.stringify({ ok: false, error: why });
}

/** Only the core's errors are answers; anything else is a bug of this testee. */
function fbeOnly(fbe, e) {
  if (e instanceof fbe.FbeError) return e;
  throw e;
}

function typeJson(schema, msg) {
  const type = Object.getPrototypeOf(msg).constructor.fullName; // (a field named constructor is the value's own)
  return `"type":${JSON.stringify(type)},"json":${schema.toJsonString(type, msg)}`;
}

function messageJson(schema, msg) {
  return `{${typeJson(schema, msg)}}`;
}

function errorJson(e) {
  return `"status":${JSON.stringify(e.code)},"error":${JSON.stringify(e.message)}`;
}

/** The answer: ok or the error, the bytes sent since the last answer (hex), the lists
 * the op reports, then the log lines, if any (docs/TESTEE.md). */
function answer(s, error, hex, lists) {
  let out = error === null ? '{"ok":true' : `{"ok":false,${errorJson(error)}`;
  if (hex) out += `,"hex":"${Buffer.concat(s.wire).toString('hex')}"`;
  s.wire.length = 0;
  for (const name of lists) {
    out += `,"${name}":[${s.lists[name].join(',')}]`;
    s.lists[name].length = 0;
  }
  if (s.log.length) {
    out += `,"log":[${s.log.join(',')}]`;
    s.log.length = 0;
  }
  return out + '}';
}

module.exports = { Sessions };

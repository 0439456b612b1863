'use strict';
// Conformance records (tests/conformance/, shared/conformance/README.md) run through the
// JavaScript API, with the behaviour and messages of `fbe conformance`
// (core/cli/cmd_conformance.c): standard/final records are verified, decoded and
// compared with the record's JSON, then encoded and compared byte for byte; malformed
// records must be rejected by verify and must decode to an error or a value; streams
// are sent with a Sender and received with a Receiver whole, in chunks of every size
// from 1 to 64 bytes and in random chunks; versioning records are read with the other
// schema version. The record's JSON is read by a bigint-aware parser (lib/jsontext.js)
// and turned into JavaScript values here, independently of the core's JSON reader.
const fs = require('fs');
const { loadPackage } = require('./schema');
const { Sender, Receiver } = require('./protocol');
const { parse, JsonNumber } = require('./jsontext');
const { deepEqual } = require('./values');
const { floatKeyed } = require('./runtime');

const MASK64 = (1n << 64n) - 1n;

// ---- JSON value -> JavaScript value, by schema type (index-based description types)

function fail(path, text) {
  const e = new Error(path ? `${text} at '${path}'` : text);
  e.conversion = true;
  return e;
}

function number(j, path) {
  if (!(j instanceof JsonNumber)) throw fail(path, `expected a number, got ${JSON.stringify(j)}`);
  return j;
}

function mapKey(p, t, key, path) {
  // map keys are JSON member names: numbers and other scalars as their text
  switch (t.kind) {
    case 'string': case 'decimal': case 'uuid': return key;
    case 'bool': return key === 'true';
    default: return convert(p, t, new JsonNumber(key), path);
  }
}

/** The JavaScript value of JSON `j` for a field of type t (p: schema internals). */
function convert(p, t, j, path = '') {
  switch (t.kind) {
    case 'bool':
      if (typeof j !== 'boolean') throw fail(path, 'expected true or false');
      return j;
    case 'byte': case 'char': case 'wchar': case 'int8': case 'uint8': case 'int16':
    case 'uint16': case 'int32': case 'uint32': case 'double':
      return number(j, path).toNumber();
    case 'float':
      return Math.fround(number(j, path).toNumber());
    case 'int64': case 'uint64': case 'timestamp':
      return number(j, path).toBigInt();
    case 'enum': case 'flags': {
      const base = p.enums[t.enum].$info.base;
      const v = number(j, path);
      return base === 'int64' || base === 'uint64' ? v.toBigInt() : v.toNumber();
    }
    case 'decimal':
      return j instanceof JsonNumber ? j.text : String(j);
    case 'uuid': case 'string':
      if (typeof j !== 'string') throw fail(path, 'expected a string');
      return j;
    case 'bytes':
      if (typeof j !== 'string') throw fail(path, 'expected Base64 text');
      return Buffer.from(j, 'base64');
    case 'struct': {
      if (!(j instanceof Map)) throw fail(path, 'expected an object');
      const s = p.desc.structs[t.struct];
      const init = Object.create(null); // a field may be named `__proto__`
      for (const f of s.fields) {
        if (j.has(f.name)) init[f.name] = convert(p, f.type, j.get(f.name), path ? `${path}.${f.name}` : f.name);
      }
      return new (p.gen.classOf(t.struct))(init);
    }
    case 'optional':
      return j === null ? null : convert(p, t.elem, j, path);
    case 'array': case 'vector': case 'list': case 'set': {
      if (!Array.isArray(j)) throw fail(path, 'expected an array');
      const items = j.map((e, i) => convert(p, t.elem, e, `${path}[${i}]`));
      return t.kind === 'set' && !floatKeyed(t.elem) ? new Set(items) : items;
    }
    default: { // map, hash: a Map, or [key, value] pairs for float keys (like decode)
      const pairs = [];
      if (Array.isArray(j)) { // "map-pairs": [[key, value], ...]
        j.forEach((pair, i) => {
          if (!Array.isArray(pair) || pair.length !== 2) throw fail(`${path}[${i}]`, 'expected a [key, value] pair');
          pairs.push([convert(p, t.key, pair[0], `${path}[${i}]`), convert(p, t.elem, pair[1], `${path}[${i}]`)]);
        });
      } else {
        if (!(j instanceof Map)) throw fail(path, 'expected an object');
        let i = 0;
        for (const [k, v] of j) {
          pairs.push([mapKey(p, t.key, k, `${path}[${i}]`), convert(p, t.elem, v, `${path}[${i}]`)]);
          i++;
        }
      }
      return floatKeyed(t.key) ? pairs : new Map(pairs);
    }
  }
}

function hexBytes(hex) {
  if (typeof hex !== 'string' || hex.length % 2 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  return Buffer.from(hex, 'hex');
}

/** A record's members (undefined when absent), like record_parse in core/cli/record.c. */
function recordOf(m) {
  const str = (k) => (typeof m.get(k) === 'string' ? m.get(k) : '');
  const size = m.get('size');
  return {
    id: str('id'), schema: str('schema'), type: str('type'), format: str('format'),
    json: m.has('json') ? m.get('json') : undefined,
    hex: typeof m.get('hex') === 'string' ? m.get('hex') : undefined,
    size: size instanceof JsonNumber ? Number(size.text) : undefined,
    verify: m.has('verify') ? m.get('verify') === true : undefined,
    decodeOnly: m.get('decode_only') === true,
    readerSchema: str('reader_schema'), readerType: str('reader_type'),
  };
}

class Runner {
  constructor(includes = [], options = {}) {
    this.includes = includes;
    this.schemas = new Map();
    this.passed = 0;
    this.failed = 0;
    this.skipped = 0;
    this.log = options.log || ((line) => process.stdout.write(`${line}\n`));
    this.warn = options.warn || ((line) => process.stderr.write(`${line}\n`));
  }

  schemaFor(pkg) {
    if (this.schemas.has(pkg)) return this.schemas.get(pkg);
    let schema = null;
    try {
      schema = loadPackage(pkg, { include: this.includes });
    } catch (e) {
      for (const d of e.diagnostics || [e.message]) this.warn(d);
    }
    if (schema) this.schemas.set(pkg, schema);
    return schema;
  }

  /** Runs one line; returns {result: 'pass'|'skip'|'fail', id, why}. */
  runLine(file, lineNo, line) {
    let m;
    try {
      m = parse(line);
    } catch (e) {
      return this.count({ result: 'fail', id: `${file}:${lineNo}`, why: `malformed JSON (${e.message})` });
    }
    if (!(m instanceof Map)) {
      return this.count({ result: 'fail', id: `${file}:${lineNo}`, why: 'a record must be a JSON object' });
    }
    const r = recordOf(m);
    let outcome;
    try {
      if (r.format === 'standard' || r.format === 'final') outcome = this.runModel(r);
      else if (r.format === 'stream-standard' || r.format === 'stream-final') outcome = this.runStream(r);
      else if (r.format === 'standard-versioning') outcome = this.runVersioning(r);
      else outcome = `unknown format '${r.format}'`;
    } catch (e) {
      outcome = `unexpected ${e && e.name}: ${e && e.message}`;
    }
    const result = outcome === true ? 'pass' : outcome === 'skip' ? 'skip' : 'fail';
    return this.count({ result, id: r.id || '(no id)', why: result === 'fail' ? outcome : '' });
  }

  count(res) {
    if (res.result === 'pass') this.passed++;
    else if (res.result === 'skip') this.skipped++;
    else {
      this.failed++;
      this.log(`FAIL ${res.id}: ${res.why}`);
    }
    return res;
  }

  /** The struct class of a name, or null. */
  typeOf(schema, name) {
    const cls = schema.get(name);
    return cls && typeof cls === 'function' ? cls : null;
  }

  /** Decodes (verified by the caller, or a versioning record's sibling type: trusted) and
   * compares with the JSON; returns {want} or a reason. */
  decodeMatches(schema, cls, final, bytes, json) {
    let got;
    let want;
    try {
      got = cls.decode(bytes, { final, trusted: true });
    } catch (e) {
      return `decode failed: ${e.message}`;
    }
    const p = schema._fbe;
    const t = { kind: 'struct', struct: schema._structIndex(cls) };
    try {
      want = convert(p, t, json);
    } catch (e) {
      return `cannot read the record's JSON: ${e.message}`;
    }
    if (!deepEqual(p.desc, t, got, want)) return describeDifference(schema, cls, got, want);
    return { want };
  }

  runModel(r) {
    const final = r.format === 'final';
    if (r.verify === true && r.json === undefined) return 'skip'; // malformed bytes the reference accepts
    const schema = this.schemaFor(r.schema);
    if (!schema) return `cannot load schema of package '${r.schema}'`;
    const cls = this.typeOf(schema, r.type);
    if (!cls) return `no type '${r.type}' in package '${r.schema}'`;
    const bytes = hexBytes(r.hex);
    if (!bytes) return 'bad hex';
    let size = -1;
    let verifyError = null;
    try {
      size = cls.validate(bytes, { final });
    } catch (e) {
      verifyError = e;
    }
    if (r.verify === false) {
      // must be rejected; the decoder itself (trusted: without the verify that refuses
      // them first) must end in an error or a value, never a crash
      try {
        cls.decode(bytes, { final, trusted: true });
      } catch (e) { /* an error is fine */ }
      return verifyError ? true : 'verify accepted malformed bytes';
    }
    if (verifyError) return `verify rejected valid bytes: ${verifyError.message}`;
    if (r.size !== undefined && size !== r.size) return `model size ${size}, expected ${r.size}`;
    const match = this.decodeMatches(schema, cls, final, bytes, r.json);
    if (typeof match === 'string') return match;
    if (!r.decodeOnly) {
      let out;
      try {
        out = schema.encode(cls, match.want, { final }); // never shadowed by a field
      } catch (e) {
        return `encode failed: ${e.message}`;
      }
      const n = Math.min(out.length, bytes.length);
      let i = 0;
      while (i < n && out[i] === bytes[i]) i++;
      const hex2 = (b) => b.toString(16).padStart(2, '0');
      if (i < n) return `encoded bytes differ at offset ${i}: got ${hex2(out[i])}, want ${hex2(bytes[i])}`;
      if (out.length !== bytes.length) return `encoded ${out.length} bytes, want ${bytes.length} (first ${n} equal)`;
    }
    return true;
  }

  runStream(r) {
    const final = r.format === 'stream-final';
    const schema = this.schemaFor(r.schema);
    if (!schema) return `cannot load schema of package '${r.schema}'`;
    const bytes = hexBytes(r.hex);
    if (!bytes || !Array.isArray(r.json)) return 'bad hex or no message list';
    const want = [];
    for (const item of r.json) {
      if (!(item instanceof Map)) return 'malformed message list';
      const name = `${item.get('schema')}.${item.get('type')}`;
      const cls = this.typeOf(schema, name);
      if (!cls) return `no type ${name} in the schema`;
      if (!item.has('json')) return `${name}: no "json" value`;
      try {
        want.push(convert(schema._fbe, { kind: 'struct', struct: schema._structIndex(cls) }, item.get('json')));
      } catch (e) {
        return `${name}: ${e.message}`;
      }
    }
    // send: the concatenated frames must be the record's bytes
    const frames = [];
    const sender = new Sender(schema, { package: r.schema, final, write: (f) => frames.push(f) });
    for (let i = 0; i < want.length; i++) {
      try {
        sender.send(want[i]);
      } catch (e) {
        return `send of message ${i} failed: ${e.message}`;
      }
    }
    const sent = Buffer.concat(frames);
    const n = Math.min(sent.length, bytes.length);
    let i = 0;
    while (i < n && sent[i] === bytes[i]) i++;
    if (i < n || sent.length !== bytes.length) {
      return `sent bytes differ at offset ${i} (sent ${sent.length} bytes, want ${bytes.length})`;
    }
    // receive whole, in chunks of every size from 1 to 64 bytes, and in random chunks
    let seed = 0x9e3779b97f4a7c15n;
    for (const c of Buffer.from(r.id, 'utf8')) seed = ((seed ^ BigInt(c)) * 0x100000001b3n) & MASK64;
    for (let chunk = 0; chunk <= 64; chunk++) {
      const why = receive(schema, r.schema, final, bytes, want, chunk, 0n);
      if (why) return why;
    }
    const why = receive(schema, r.schema, final, bytes, want, 64, seed | 1n);
    return why || true;
  }

  runVersioning(r) {
    const schema = this.schemaFor(r.readerSchema);
    if (!schema) return `cannot load schema of package '${r.readerSchema}'`;
    const name = `${r.readerSchema}.${r.readerType}`;
    const cls = this.typeOf(schema, name);
    if (!cls) return `no type ${name}`;
    const bytes = hexBytes(r.hex);
    if (!bytes) return 'bad hex';
    let verifyError = null;
    try {
      cls.validate(bytes);
    } catch (e) {
      verifyError = e;
    }
    const verified = !verifyError;
    if (r.verify !== undefined && verified !== r.verify) {
      return `verify says ${verified ? 'valid' : 'invalid'}, want ${r.verify ? 'valid' : 'invalid'}` +
        `${verified ? '' : `: ${verifyError.message}`}`;
    }
    if (r.json === undefined) return true;
    const match = this.decodeMatches(schema, cls, false, bytes, r.json);
    return typeof match === 'string' ? match : true;
  }

  /** Runs every line of a file; false when it cannot be read. */
  runFile(path) {
    let text;
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch (e) {
      this.warn(`fbe: cannot open '${path}'`);
      return false;
    }
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (line.trim()) this.runLine(path, i + 1, line);
    });
    return true;
  }

  summary() {
    return `${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`;
  }
}

/** Feeds bytes in chunks: chunk 0 = whole; seed 0 = every chunk `chunk` bytes; else
 * sizes from 1 to `chunk` drawn from xorshift64 seeded by `seed` (as the C runner). */
function receive(schema, pkg, final, bytes, want, chunk, seed) {
  let next = 0;
  let why = '';
  const stop = new Error('stop');
  const receiver = new Receiver(schema, {
    package: pkg,
    final,
    onMessage: (msg, typeName) => {
      if (next >= want.length) {
        why = `received more than the ${want.length} messages sent`;
        throw stop;
      }
      const w = want[next];
      const wantClass = Object.getPrototypeOf(w).constructor; // a field may be named `constructor`
      const wantName = wantClass.fullName;
      if (typeName !== wantName) {
        why = `message ${next} is a ${typeName}, want ${wantName}`;
        throw stop;
      }
      const t = { kind: 'struct', struct: schema._structIndex(wantClass) };
      if (!deepEqual(schema._fbe.desc, t, msg, w)) {
        why = `message ${next} (${wantName}) differs`;
        throw stop;
      }
      next++;
    },
  });
  let error = null;
  for (let at = 0; at < bytes.length && !error;) {
    let n = bytes.length - at;
    if (chunk) {
      let size = chunk;
      if (seed) {
        seed ^= (seed << 13n) & MASK64;
        seed ^= seed >> 7n;
        seed ^= (seed << 17n) & MASK64;
        size = 1 + Number(seed % BigInt(chunk));
      }
      if (size < n) n = size;
    }
    try {
      receiver.feed(bytes.subarray(at, at + n));
    } catch (e) {
      error = e;
    }
    at += n;
  }
  const how = seed ? 'random chunks of up to' : 'chunks of';
  if (why) return `${how} ${chunk}: ${why}`;
  if (error) return `${how} ${chunk}: receiver error: ${error.message}`;
  if (next !== want.length || receiver.pending) {
    return `${how} ${chunk}: ${next} of ${want.length} messages received, ${receiver.pending} bytes left`;
  }
  return '';
}

/** Where the JSON texts of two values part ways (as the C runner reports it). */
function describeDifference(schema, cls, got, want) {
  let a;
  let b;
  try {
    a = schema.toJsonString(cls, got);
    b = schema.toJsonString(cls, want);
  } catch (e) {
    return 'decoded value differs (and has no JSON form)';
  }
  let i = 0;
  const n = Math.min(a.length, b.length);
  while (i < n && a[i] === b[i]) i++;
  const from = Math.max(0, i - 30);
  return `decoded value differs at JSON offset ${i}: got ...${a.slice(from, from + 60)}... ` +
    `want ...${b.slice(from, from + 60)}...`;
}

/** The command line: conformance.js [-I DIR]... FILE.jsonl... -> exit code. */
function main(argv, io = {}) {
  const out = io.out || ((line) => process.stdout.write(`${line}\n`));
  const err = io.err || ((line) => process.stderr.write(`${line}\n`));
  const includes = [];
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-I') {
      if (i + 1 >= argv.length) {
        err(`fbe: option '${a}' needs a value`);
        files.length = 0;
        break;
      }
      includes.push(argv[++i]);
    } else if (a.startsWith('-I') && a.length > 2) {
      includes.push(a.slice(2));
    } else if (a[0] === '-' && a.length > 1) {
      err(`fbe: unknown option '${a}'`);
      files.length = 0;
      break;
    } else {
      files.push(a);
    }
  }
  if (!files.length) {
    err('usage: node conformance.js [-I DIR]... FILE.jsonl...');
    return 2;
  }
  const runner = new Runner(includes, { log: out, warn: err });
  let rc = 0;
  for (const f of files) if (!runner.runFile(f)) rc = 1;
  out(runner.summary());
  return runner.failed ? 1 : rc;
}

module.exports = { Runner, main, convert };

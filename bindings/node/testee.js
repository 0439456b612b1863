#!/usr/bin/env node
'use strict';
// The Node testee of the cross-language conformance runner: one JSON request per stdin
// line, one JSON response per stdout line (docs/TESTEE.md): load, encode (from JSON, or
// with "native": true through the classes' constructors), decode, text, verify,
// stream-encode, stream-decode ("view": true on decode and text: through a view), and the
// conversations' sessions (client, request, feed, watchdog, reset, server, serve, reply,
// send, proxy, close: testee_session.js). A thin loop over the public API of fbe, through the
// calls no schema name can shadow (README.md, "Names"): the Schema's
// encode/decode/validate/toJsonString/fromJsonString with the type's full name, never
// the methods of values and classes, which a field or type of the same name hides.
// An error response carries the core's status name ("status": "FBE_ERR_TYPE").
//
// JSON values are passed to and from the binding as text (never through JSON.parse),
// so 64-bit integers keep every digit.
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');
const fbe = require('./index.js');
const native = require('./testee_native.js');
const { Sessions } = require('./testee_session.js');

// The raw text of member `name` of the top-level object in `line`, or undefined.
function rawMember(line, name) {
  let i = line.indexOf('{') + 1;
  const skipBlank = () => { while (i < line.length && ' \t\r\n'.includes(line[i])) i++; };
  const skipString = () => { for (i++; i < line.length; i++) { if (line[i] === '\\') i++; else if (line[i] === '"') { i++; return; } } };
  const skipValue = () => {
    skipBlank();
    if (line[i] === '"') return skipString();
    if (line[i] === '{' || line[i] === '[') {
      let depth = 0;
      for (; i < line.length; i++) {
        const c = line[i];
        if (c === '"') { skipString(); i--; continue; }
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') { depth--; if (depth === 0) { i++; return; } }
      }
      return;
    }
    while (i < line.length && !',}] \t\r\n'.includes(line[i])) i++;
  };
  while (i < line.length) {
    skipBlank();
    if (line[i] !== '"') return undefined;
    const keyStart = i;
    skipString();
    const key = JSON.parse(line.slice(keyStart, i));
    skipBlank();
    i++; // ':'
    skipBlank();
    const start = i;
    skipValue();
    if (key === name) return line.slice(start, i);
    skipBlank();
    if (line[i] === ',') i++;
  }
  return undefined;
}

let include = [];
let schemas = new Map();
const sessions = new Sessions(fbe, (pkg) => schemaFor(pkg), rawMember);

// The schema texts of a load ("packages": {name: text}) as NAME.fbe files in a fresh
// temporary directory, where the loader finds them and their imports by name.
let packagesDir = null;
function removePackages() {
  if (packagesDir !== null) fs.rmSync(packagesDir, { recursive: true, force: true });
  packagesDir = null;
}
function writePackages(texts) {
  packagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fbe-testee-'));
  for (const [name, text] of Object.entries(texts)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`"packages": ${JSON.stringify(name)} is not a package name`);
    if (typeof text !== 'string') throw new Error(`"packages": the schema of ${name} must be a string`);
    fs.writeFileSync(path.join(packagesDir, `${name}.fbe`), text, 'utf8');
  }
  return packagesDir;
}
process.on('exit', removePackages);

function schemaFor(pkg) {
  if (!schemas.has(pkg)) schemas.set(pkg, fbe.loadPackage(pkg, { include }));
  return schemas.get(pkg);
}
const typeOf = (req) => `${req.package}.${req.type}`;
const finalOf = (req) => ({ final: req.model === 'final' });

function handle(line) {
  const req = JSON.parse(line);
  switch (req.op) {
    case 'load': // "packages" (schema texts) are found first, then "include"
      sessions.closeAll(); // (they hold the schemas of the load)
      schemas = new Map();
      removePackages();
      include = (req.packages !== undefined ? [writePackages(req.packages)] : []).concat(req.include || []);
      for (const file of req.files || []) fbe.load(file, { include });
      return '{"ok":true}';
    case 'encode': {
      // "native": true builds the value the way a program does, through the classes
      // (testee_native.js), not through fromJsonString
      const schema = schemaFor(req.package);
      const value = req.native === true ? native.build(schema, typeOf(req), rawMember(line, 'json'))
        : schema.fromJsonString(typeOf(req), rawMember(line, 'json'));
      return JSON.stringify({ ok: true, hex: schema.encode(typeOf(req), value, finalOf(req)).toString('hex') });
    }
    case 'decode': case 'text': {
      // verified unless the request says "trusted": true (a reader of another schema version
      // reads a sibling type whose root type id differs, FORMAT.md 8); text: the value as
      // the binding prints it (String(value), through the method no field can hide)
      // "view": true answers through a view of the bytes (fbe.View: its text and JSON are
      // the core's); a view always verifies (fbe_view_open), so a trusted request is
      // answered by the trusted decode
      const schema = schemaFor(req.package);
      const bytes = Buffer.from(req.hex, 'hex');
      if (req.view === true && req.trusted !== true) {
        const view = schema.view(typeOf(req), bytes, { model: req.model === 'final' ? 'final' : 'standard' });
        if (req.op === 'text') return JSON.stringify({ ok: true, text: fbe.View.prototype.toString.call(view) });
        return `{"ok":true,"json":${fbe.View.prototype.toJson.call(view)}}`;
      }
      const value = schema.decode(typeOf(req), bytes, { ...finalOf(req), trusted: req.trusted === true });
      if (req.op === 'text') return JSON.stringify({ ok: true, text: fbe.Struct.prototype.toString.call(value) });
      return `{"ok":true,"json":${schema.toJsonString(typeOf(req), value)}}`;
    }
    case 'verify': {
      try {
        const size = schemaFor(req.package).validate(typeOf(req), Buffer.from(req.hex, 'hex'), finalOf(req));
        return JSON.stringify({ ok: true, valid: true, size });
      } catch (e) {
        if (!(e instanceof fbe.FbeError)) throw e;
        return JSON.stringify({ ok: true, valid: false, reason: e.message });
      }
    }
    case 'stream-encode': {
      const schema = schemaFor(req.package);
      const frames = [];
      const sender = new fbe.Sender(schema, { package: req.package, final: req.model === 'final', write: (f) => frames.push(Buffer.from(f)) });
      const items = rawItems(rawMember(line, 'messages'));
      for (const item of items) {
        const type = `${JSON.parse(rawMember(item, 'schema'))}.${JSON.parse(rawMember(item, 'type'))}`;
        sender.send(type, schema.fromJsonString(type, rawMember(item, 'json')));
      }
      return JSON.stringify({ ok: true, hex: Buffer.concat(frames).toString('hex') });
    }
    case 'stream-decode': {
      const out = [];
      const schema = schemaFor(req.package);
      const receiver = new fbe.Receiver(schema, {
        package: req.package,
        final: req.model === 'final',
        onMessage: (msg, full) => {
          const dot = full.lastIndexOf('.');
          out.push(`{"schema":${JSON.stringify(full.slice(0, dot))},"type":${JSON.stringify(full.slice(dot + 1))},"json":${schema.toJsonString(full, msg)}}`);
        },
      });
      for (const piece of pieces(Buffer.from(req.hex, 'hex'), req)) receiver.feed(piece);
      return `{"ok":true,"messages":[${out.join(',')}],"pending":${receiver.pending}}`;
    }
    default:
      if (sessions.has(req.op)) return sessions.handle(req, line);
      return JSON.stringify({ ok: false, error: `unknown op ${JSON.stringify(req.op)}` });
  }
}

// The pieces a stream-decode request feeds (tests/conformance/README.md): the sizes in
// "chunks" first, then the rest in pieces of "chunk_size", or as one last piece.
function pieces(data, req) {
  const chunks = req.chunks === undefined ? [] : req.chunks;
  const step = req.chunk_size;
  if (!Array.isArray(chunks) || !chunks.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new Error('"chunks" must be an array of non-negative integers');
  }
  if (step !== undefined && !(Number.isSafeInteger(step) && step > 0)) throw new Error('"chunk_size" must be a positive integer');
  const out = [];
  let pos = 0;
  for (const n of chunks) {
    out.push(data.subarray(pos, pos + n));
    pos = Math.min(pos + n, data.length);
  }
  if (step !== undefined) {
    for (; pos < data.length; pos += step) out.push(data.subarray(pos, pos + step));
  } else if (pos < data.length || chunks.length === 0) {
    out.push(data.subarray(pos));
  }
  return out;
}

// The raw texts of the elements of a JSON array given as text.
function rawItems(text) {
  const items = [];
  let i = 1, depth = 0, start = 1, inString = false;
  for (; i < text.length - 1; i++) {
    const c = text[i];
    if (inString) { if (c === '\\') i++; else if (c === '"') inString = false; continue; }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) { items.push(text.slice(start, i).trim()); start = i + 1; }
  }
  const last = text.slice(start, text.length - 1).trim();
  if (last) items.push(last);
  return items;
}

// One request at a time, in order: a session's answer may wait for promises to settle.
const rl = readline.createInterface({ input: process.stdin, terminal: false });
let queue = Promise.resolve();
rl.on('line', (line) => {
  if (!line.trim()) return;
  queue = queue.then(async () => {
    let response;
    try {
      if (JSON.parse(line).op === 'quit') { rl.close(); return; }
      response = await handle(line);
    } catch (e) {
      // an fbe error: its status name and the core's text; anything else is a bug here
      response = e instanceof fbe.FbeError ? JSON.stringify({ ok: false, status: e.code, error: e.message })
        : JSON.stringify({ ok: false, error: `${e && e.name}: ${e && e.message}` });
    }
    process.stdout.write(response + '\n');
  });
});

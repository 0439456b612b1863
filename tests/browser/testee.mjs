// The conformance testee's record operations (docs/TESTEE.md) in a browser: the same
// answers as bindings/node/testee.js gives, through the browser bundle's API, for the
// requests of the public records: load, encode, decode, text, verify, stream-encode,
// stream-decode. Files: the bridge writes the schemas into the bundle's in-memory file
// system (fbe.files) at the paths the runner names, and a load's "packages" texts go to
// a fresh directory there. JSON values go to and from the binding as text.

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
    i++;
    skipBlank();
    const start = i;
    skipValue();
    if (key === name) return line.slice(start, i);
    skipBlank();
    if (line[i] === ',') i++;
  }
  return undefined;
}

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

function pieces(data, req) {
  const chunks = req.chunks === undefined ? [] : req.chunks;
  const step = req.chunk_size;
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

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
function unhex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
  return out;
}
function concat(frames) {
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) { out.set(f, at); at += f.length; }
  return out;
}

export class Testee {
  constructor(fbe) {
    this.fbe = fbe;
    this.include = [];
    this.schemas = new Map();
    this.loads = 0;
  }

  schemaFor(pkg) {
    if (!this.schemas.has(pkg)) this.schemas.set(pkg, this.fbe.loadPackage(pkg, { include: this.include }));
    return this.schemas.get(pkg);
  }

  // One request line -> one response line (errors as the Node testee answers them).
  handle(line) {
    try {
      return this.answer(line);
    } catch (e) {
      return e instanceof this.fbe.FbeError ? JSON.stringify({ ok: false, status: e.code, error: e.message })
        : JSON.stringify({ ok: false, error: `${e && e.name}: ${e && e.message}` });
    }
  }

  answer(line) {
    const { fbe } = this;
    const req = JSON.parse(line);
    const typeOf = () => `${req.package}.${req.type}`;
    const finalOf = () => ({ final: req.model === 'final' });
    switch (req.op) {
      case 'load': {
        this.schemas = new Map();
        const dirs = [];
        if (req.packages !== undefined) {
          const dir = `/tmp/packages-${++this.loads}`;
          fbe.files.mkdirSync(dir, { recursive: true });
          for (const [name, text] of Object.entries(req.packages)) fbe.files.writeFileSync(`${dir}/${name}.fbe`, text);
          dirs.push(dir);
        }
        this.include = dirs.concat(req.include || []);
        for (const file of req.files || []) fbe.load(file, { include: this.include });
        return '{"ok":true}';
      }
      case 'encode': {
        const schema = this.schemaFor(req.package);
        const value = schema.fromJsonString(typeOf(), rawMember(line, 'json'));
        return JSON.stringify({ ok: true, hex: hex(schema.encode(typeOf(), value, finalOf())) });
      }
      case 'decode': case 'text': {
        const schema = this.schemaFor(req.package);
        const bytes = unhex(req.hex);
        if (req.view === true && req.trusted !== true) {
          const view = schema.view(typeOf(), bytes, { model: req.model === 'final' ? 'final' : 'standard' });
          if (req.op === 'text') return JSON.stringify({ ok: true, text: fbe.View.prototype.toString.call(view) });
          return `{"ok":true,"json":${fbe.View.prototype.toJson.call(view)}}`;
        }
        const value = schema.decode(typeOf(), bytes, { ...finalOf(), trusted: req.trusted === true });
        if (req.op === 'text') return JSON.stringify({ ok: true, text: fbe.Struct.prototype.toString.call(value) });
        return `{"ok":true,"json":${schema.toJsonString(typeOf(), value)}}`;
      }
      case 'verify': {
        try {
          const size = this.schemaFor(req.package).validate(typeOf(), unhex(req.hex), finalOf());
          return JSON.stringify({ ok: true, valid: true, size });
        } catch (e) {
          if (!(e instanceof fbe.FbeError)) throw e;
          return JSON.stringify({ ok: true, valid: false, reason: e.message });
        }
      }
      case 'stream-encode': {
        const schema = this.schemaFor(req.package);
        const frames = [];
        const sender = new fbe.Sender(schema, { package: req.package, final: req.model === 'final', write: (f) => frames.push(Uint8Array.from(f)) });
        for (const item of rawItems(rawMember(line, 'messages'))) {
          const type = `${JSON.parse(rawMember(item, 'schema'))}.${JSON.parse(rawMember(item, 'type'))}`;
          sender.send(type, schema.fromJsonString(type, rawMember(item, 'json')));
        }
        return JSON.stringify({ ok: true, hex: hex(concat(frames)) });
      }
      case 'stream-decode': {
        const out = [];
        const schema = this.schemaFor(req.package);
        const receiver = new fbe.Receiver(schema, {
          package: req.package,
          final: req.model === 'final',
          onMessage: (msg, full) => {
            const dot = full.lastIndexOf('.');
            out.push(`{"schema":${JSON.stringify(full.slice(0, dot))},"type":${JSON.stringify(full.slice(dot + 1))},"json":${schema.toJsonString(full, msg)}}`);
          },
        });
        for (const piece of pieces(unhex(req.hex), req)) receiver.feed(piece);
        return `{"ok":true,"messages":[${out.join(',')}],"pending":${receiver.pending}}`;
      }
      default:
        return JSON.stringify({ ok: false, error: `unknown op ${JSON.stringify(req.op)}` });
    }
  }
}

'use strict';
// The Node driver of the hostile suite (tests/hostile/README.md): runs ONE operation with
// the default limits and prints one JSON line, {"result":"ok","detail":...} or
// {"result":"error","type":class,"status":the core's status or null,"message":...}.
//
//   node driver.js OP SCHEMA TYPE INPUT [final]      (the operations of driver.py)
//
// FBE_NODE_PACKAGE: the fbe package to require (default: bindings/node of this tree).
const fs = require('fs');
const path = require('path');
const fbe = require(process.env.FBE_NODE_PACKAGE || path.join(__dirname, '..', '..', '..', 'bindings', 'node'));

const CHUNK = 65536;

// levels bodies linked by `next`, built from the innermost out (no recursion).
function buildChain(cls, levels) {
  let value = new cls({ v: levels - 1 });
  for (let i = levels - 2; i >= 0; i--) value = new cls({ v: i, next: value });
  return value;
}

function run(op, schemaPath, typeName, input, final) {
  if (op === 'load') {
    fbe.load(input);
    return 'loaded';
  }
  const schema = fbe.load(schemaPath);
  const cls = op === 'receive' ? null : schema.struct(typeName);
  switch (op) {
    case 'encode_chain': return `${buildChain(cls, Number(input)).encode().length} bytes`;
    case 'deep_hash': return 'no hash in this binding';
    case 'deep_eq': return `equal ${buildChain(cls, Number(input)).equals(buildChain(cls, Number(input)))}`;
    case 'deep_repr': return `${String(buildChain(cls, Number(input))).length} characters`;
    case 'deep_json': return `${buildChain(cls, Number(input)).toJsonString().length} characters`;
    default: break;
  }
  const data = fs.readFileSync(input);
  switch (op) {
    case 'decode':
      cls.decode(data, { final });
      return 'decoded';
    case 'verify': return `model size ${cls.validate(data, { final })}`;
    case 'reencode': {
      const again = cls.decode(data, { final }).encode({ final });
      if (!again.equals(data)) throw new Error(`re-encoding gave other bytes (${again.length}, not ${data.length})`);
      return `same ${again.length} bytes`;
    }
    case 'from_json':
      cls.fromJsonString(data.toString('utf8'));
      return 'read';
    case 'receive': {
      let count = 0;
      const receiver = new fbe.Receiver(schema, { package: typeName, final, onMessage: () => { count++; } });
      for (let at = 0; at < data.length; at += CHUNK) receiver.feed(data.subarray(at, at + CHUNK));
      return `${count} messages, ${receiver.pending} bytes pending`;
    }
    default: throw new Error(`unknown op ${op}`);
  }
}

const [op, schemaPath, typeName, input, flag] = process.argv.slice(2);
let line;
try {
  line = { result: 'ok', detail: run(op, schemaPath, typeName, input, flag === 'final') };
} catch (e) {
  line = { result: 'error', type: e.constructor.name, status: e.code || null, message: e.message };
}
process.stdout.write(`${JSON.stringify(line)}\n`);

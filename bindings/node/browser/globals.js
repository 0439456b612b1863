// The Node globals lib/ names, in the browser bundle (scripts/build-wasm.js --bundle
// injects them where lib/ uses them): Buffer (lib/ hands decoded bytes out as Buffers,
// as under Node) from the npm package `buffer`, the same API; and of `process` what
// lib/client.js uses: nextTick (to rethrow from a handler) and hrtime.bigint (the
// client's default clock, here performance.now in nanoseconds).
// Of Node's Buffer, lib/codegen.js also calls the fast string methods Node's Buffer
// has on its prototype (latin1Slice, utf8Slice, utf8Write): here the package's general
// ones, which do the same.
import { Buffer } from 'buffer';

const B = Buffer.prototype;
if (!B.latin1Slice) B.latin1Slice = function latin1Slice(start, end) { return this.toString('latin1', start, end); };
if (!B.utf8Slice) B.utf8Slice = function utf8Slice(start, end) { return this.toString('utf8', start, end); };
if (!B.utf8Write) B.utf8Write = function utf8Write(text, offset, length) { return this.write(text, offset, length, 'utf8'); };

export { Buffer };

export const process = {
  env: {},
  nextTick(fn, ...args) { queueMicrotask(() => fn(...args)); },
  hrtime: { bigint() { return BigInt(Math.round(performance.now() * 1e6)); } },
};

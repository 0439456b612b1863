// What lib/ takes from Node's util and stream, in the browser bundle (scripts/build-wasm.js
// --bundle aliases both modules here). util: only inspect.custom, the symbol Node's
// util.inspect looks for (Symbol.for, so it is the same one). stream: the Writable that
// Receiver#writable() and Peer#writable() return, for piping a Node socket in; browsers
// have no such sockets: it throws, naming the Node-only part (feed() is the way there).
'use strict';

const inspect = { custom: Symbol.for('nodejs.util.inspect.custom') };

class Writable {
  constructor() {
    throw new Error('fbe: writable() (a Node stream to pipe a socket into) is Node-only; ' +
      'in a browser call feed(bytes) with what arrives (e.g. a WebSocket message)');
  }
}

module.exports = { inspect, Writable };

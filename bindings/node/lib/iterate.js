'use strict';
// `for await (const message of peer)`: the events `event` of an EventEmitter (a
// Receiver's 'message', a Client's 'notify', a Proxy's 'frame', ...) as an async
// iterator, from the moment it is made: values that arrive while nobody waits are
// queued (an attached stream, peer._source, is paused while HIGH of them wait and
// resumed when they are down to LOW), the iteration ends at the peer's 'end' (its stream
// ended) or 'close', and an 'error' the peer emits is thrown by the next step. Leaving
// the loop (break, return, throw) removes the listeners.

const HIGH = 1024;
const LOW = 256;

function iterate(peer, event) {
  const queue = [];
  const waiting = [];
  let finished = false;
  let failure = null;
  let paused = null;

  const pause = () => {
    const source = peer._source;
    if (paused === null && source && typeof source.readable.pause === 'function') {
      paused = source.readable;
      paused.pause();
    }
  };
  const resume = () => {
    if (paused !== null) {
      const r = paused;
      paused = null;
      if (typeof r.resume === 'function') r.resume();
    }
  };
  const onValue = (value) => {
    if (waiting.length) waiting.shift().resolve({ value, done: false });
    else {
      queue.push(value);
      if (queue.length >= HIGH) pause();
    }
  };
  const cleanup = () => {
    peer.removeListener(event, onValue);
    peer.removeListener('end', onEnd);
    peer.removeListener('close', onEnd);
    peer.removeListener('error', onError);
    resume();
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    cleanup();
    while (waiting.length) {
      const w = waiting.shift();
      if (failure !== null) {
        w.reject(failure);
        failure = null;
      } else {
        w.resolve({ value: undefined, done: true });
      }
    }
  };
  const onEnd = () => finish();
  const onError = (e) => {
    failure = e;
    finish();
  };
  peer.on(event, onValue);
  peer.on('end', onEnd);
  peer.on('close', onEnd);
  peer.on('error', onError);

  return {
    next() {
      if (queue.length) {
        const value = queue.shift();
        if (queue.length <= LOW) resume();
        return Promise.resolve({ value, done: false });
      }
      if (failure !== null) {
        const e = failure;
        failure = null;
        return Promise.reject(e);
      }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      queue.length = 0;
      failure = null;
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(e) {
      queue.length = 0;
      failure = null;
      finish();
      return Promise.reject(e);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

module.exports = { iterate };

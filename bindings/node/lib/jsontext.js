'use strict';
// A small JSON parser for conformance records, which need what JSON.parse loses:
// numbers keep their text (exact 64-bit integers, -0.0), and objects keep their member
// order whatever the keys look like ({"10":48,"-5":3} stays in that order). Objects
// become Maps, numbers JsonNumber, strings/booleans/null/arrays the usual.

class JsonNumber {
  constructor(text) {
    this.text = text;
  }

  /** Whether the text is an integer (no fraction, no exponent). */
  get integral() {
    return /^-?\d+$/.test(this.text);
  }

  toNumber() {
    return Number(this.text);
  }

  toBigInt() {
    return BigInt(this.text);
  }

  toString() {
    return this.text;
  }
}

class JsonSyntaxError extends Error {}
Object.defineProperty(JsonSyntaxError.prototype, 'name', { value: 'JsonSyntaxError' });

const MAX_DEPTH = 512;

function parse(text) {
  let i = 0;
  const fail = (what) => {
    throw new JsonSyntaxError(`${what} at JSON offset ${i}`);
  };
  const blank = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else return;
    }
  };
  const string = () => {
    i++; // opening quote
    let out = '';
    let start = i;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail('control character in a string');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(start, i);
      const e = text[i + 1];
      i += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16)); // surrogate pairs join by themselves
          i += 4;
          break;
        }
        default: fail('bad escape');
      }
      start = i;
    }
  };
  const value = (depth) => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    blank();
    const c = text[i];
    if (c === '{') {
      i++;
      const m = new Map();
      blank();
      if (text[i] === '}') {
        i++;
        return m;
      }
      for (;;) {
        blank();
        if (text[i] !== '"') fail('expected a member name');
        const key = string();
        blank();
        if (text[i] !== ':') fail("expected ':'");
        i++;
        m.set(key, value(depth + 1));
        blank();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return m;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const a = [];
      blank();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(depth + 1));
        blank();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return a;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m) {
      i += m[0].length;
      return new JsonNumber(m[0]);
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    return fail('unexpected character');
  };
  const v = value(0);
  blank();
  if (i !== text.length) fail('trailing characters');
  return v;
}

module.exports = { parse, JsonNumber, JsonSyntaxError };

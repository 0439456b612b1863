'use strict';
// fbe: Fast Binary Encoding for Node.js with .fbe schemas loaded at run time, over the
// libfbe C core (a Node-API addon). See README.md and index.d.ts.
const native = require('./lib/native');
const { FbeError, codes, classes } = require('./lib/errors');
const { Schema, load, loadString, loadPackage } = require('./lib/schema');
const { Sender, Receiver } = require('./lib/protocol');
const { Peer, Client, Server, Proxy } = require('./lib/client');
const { Struct } = require('./lib/runtime');
const { Enum } = require('./lib/enums');
const { View, ListView, MapView } = require('./lib/views');

module.exports = {
  load,
  loadString,
  loadPackage,
  Schema,
  Struct,
  Enum,
  View,
  ListView,
  MapView,
  Sender,
  Receiver,
  Peer,
  Client,
  Server,
  Proxy,
  FbeError,
  ...classes, // MalformedError, UnknownFieldError, ...: one per status, from the core's table
  codes,
  version: native.version(),
};

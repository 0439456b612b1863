#!/usr/bin/env node
'use strict';
// node conformance.js [-I DIR]... FILE.jsonl...
// Runs conformance records through the JavaScript binding with the behaviour of
// `fbe conformance`: a FAIL line per failure, then "N passed, N failed, N skipped";
// exit 0 when nothing failed, 1 otherwise, 2 on a usage error.
const { main } = require('./lib/conformance');

process.exitCode = main(process.argv.slice(2));

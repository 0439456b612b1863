// Package fbe is the Go binding of libfbe: Fast Binary Encoding (FBE) with schemas
// loaded at run time. Load a schema (Load, LoadFile, LoadString), take a struct type
// from it (Schema.Struct), build values (StructType.New, Value.Set) and encode, decode,
// verify, view, print and convert them to and from JSON. Every rule (the bytes, the
// checks, the texts, equality, errors) is the C core's, compiled into this package from
// the vendored sources (tools/vendor.sh); a value crosses into C in one call per message.
//
// Errors are *Error values with the core's status, message, path and offset; test for a
// status with errors.Is(err, fbe.ErrRange) or take the details with errors.As.
package fbe

//go:generate python3 tools/gen_status.py

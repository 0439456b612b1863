package fbe

// #include <stdlib.h>
// #include "glue.h"
import "C"

import "unsafe"

// Status is one of the core's status codes (FBE_STATUS_LIST in fbe/error.h).
type Status int

type statusRow struct {
	name, text, class string
	parent            Status
}

// Name is the status's name in the core's table ("FBE_ERR_RANGE").
func (s Status) Name() string {
	if s >= 0 && int(s) < len(statusTable) {
		return statusTable[s].name
	}
	return "FBE_ERR_UNKNOWN"
}

// Class is the error class the core's table gives the status ("RangeError").
func (s Status) Class() string {
	if s >= 0 && int(s) < len(statusTable) {
		return statusTable[s].class
	}
	return "Error"
}

// String is the status's text ("value out of range").
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusTable) {
		return statusTable[s].text
	}
	return "unknown status"
}

// Parent is the status whose class this one's derives from (StatusOK: the root).
func (s Status) Parent() Status {
	if s >= 0 && int(s) < len(statusTable) {
		return statusTable[s].parent
	}
	return StatusOK
}

// NoOffset is Error.Offset when no byte offset applies.
const NoOffset = -1

// Error is an error of the core: its status, message, the path of the value it is about
// ("orders[2].symbol", "" for the root) and the byte offset in the input (NoOffset when
// none applies). Error() is the core's one text of it (fbe_error_format).
type Error struct {
	Status  Status
	Message string
	Path    string
	Offset  int64
	// Reject is the reject message a request was answered with (StatusRejected).
	Reject *Value
	text   string
	// sentinel: one of the Err* values, which errors.Is compares by status
	sentinel bool
}

func (e *Error) Error() string {
	if e.sentinel || e.text == "" {
		return e.Message
	}
	return e.text
}

// Is makes errors.Is(err, fbe.ErrRange) true for an error of that status or of a status
// derived from it (ErrNotFound also matches an unknown field).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok || !t.sentinel {
		return false
	}
	for s := e.Status; ; s = s.Parent() {
		if s == t.Status {
			return true
		}
		if s == StatusOK {
			return false
		}
	}
}

// errorOf converts the core's error record (the call failed).
func errorOf(err *C.fbe_error) *Error {
	var buf [1024]C.char
	C.fbego_error_text(err, &buf[0], C.size_t(len(buf)))
	off := int64(NoOffset)
	if err.offset != ^C.size_t(0) {
		off = int64(err.offset)
	}
	return &Error{
		Status:  Status(err.code),
		Message: C.GoString(&err.message[0]),
		Path:    C.GoString(&err.path[0]),
		Offset:  off,
		text:    C.GoString(&buf[0]),
	}
}

// cstr is s as a C string the caller frees (C.free).
func cstr(s string) *C.char { return C.CString(s) }

func cfree(p *C.char) { C.free(unsafe.Pointer(p)) }

// coreStatus is the core's own row of a status (fbe_status_name, _text, _class,
// _parent): status_test.go holds the generated table to it.
func coreStatus(s Status) statusRow {
	c := C.fbe_status(s)
	return statusRow{name: C.GoString(C.fbe_status_name(c)), text: C.GoString(C.fbe_status_text(c)),
		class: C.GoString(C.fbe_status_class(c)), parent: Status(C.fbe_status_parent(c))}
}

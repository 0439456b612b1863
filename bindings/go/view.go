package fbe

// #include "glue.h"
import "C"

import (
	"runtime"
	"sync"
)

// View reads a value in place from verified bytes: opening it verifies once, then each
// read takes what it asks for (one call into C per read). It owns a copy of the bytes,
// so the caller may reuse its buffer; Close frees it at once (else the garbage
// collector does). A View is safe for concurrent reads.
type View struct {
	st *StructType
	mu sync.RWMutex // Close waits for reads in progress
	c  *C.fbego_view
}

// View opens a view of data as a model of the struct (verified, as Decode verifies).
func (st *StructType) View(data []byte, model Model) (*View, error) {
	t := getTape() // its callState holds the error (no allocation)
	defer putTape(t)
	c := C.fbego_view_open(st.schema.c, C.size_t(st.index), C.int(model), bytesPtr(data), C.size_t(len(data)), &t.cs.err)
	runtime.KeepAlive(data)
	if c == nil {
		return nil, errorOf(&t.cs.err)
	}
	v := &View{st: st, c: c}
	runtime.SetFinalizer(v, func(v *View) { C.fbego_view_free(v.c) })
	return v, nil
}

// Type is the viewed struct.
func (v *View) Type() *StructType { return v.st }

// Close frees the view's copy of the bytes; reads after it fail.
func (v *View) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.c != nil {
		C.fbego_view_free(v.c)
		v.c = nil
		runtime.SetFinalizer(v, nil)
	}
}

func (v *View) closed() error {
	return &Error{Status: StatusArgument, Message: "the view is closed", Offset: NoOffset}
}

// Get reads one field (a Go value of the type mapping, as Decode gives it).
func (v *View) Get(name string) (any, error) {
	f, ok := v.st.Field(name)
	if !ok {
		return nil, v.st.unknownField(name)
	}
	return v.read(name, func(r *reader) any { return r.value(f.Type) })
}

// ToValue materializes the whole value.
func (v *View) ToValue() (*Value, error) {
	x, err := v.read("", func(r *reader) any { return r.structValue(v.st) })
	if err != nil {
		return nil, err
	}
	return x.(*Value), nil
}

func (v *View) read(field string, build func(r *reader) any) (any, error) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if v.c == nil {
		return nil, v.closed()
	}
	var cname *C.char
	if field != "" {
		cname = cstr(field)
		defer cfree(cname)
	}
	x, err := fill(func(t *tape, nn, np *C.uint64_t, err *C.fbe_error) C.int {
		num, b := t.num[:cap(t.num)], t.bytes[:cap(t.bytes)]
		return C.fbego_view_tape(v.c, cname, C.size_t(len(field)), slotsPtr(num), C.uint32_t(len(num)), bytesPtr(b),
			C.uint32_t(len(b)), nn, np, err)
	}, build)
	runtime.KeepAlive(v)
	return x, err
}

func (v *View) out(what C.int) ([]byte, error) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if v.c == nil {
		return nil, v.closed()
	}
	out := make([]byte, 256)
	for {
		var err C.fbe_error
		size := C.fbego_view_write(v.c, what, bytesPtr(out), C.size_t(len(out)), &err)
		if size < 0 {
			return nil, errorOf(&err)
		}
		if int64(size) <= int64(len(out)) {
			return out[:size], nil
		}
		out = make([]byte, int64(size))
	}
}

// JSON is the viewed value's JSON form, read from the bytes.
func (v *View) JSON() ([]byte, error) { return v.out(C.FBEGO_WRITE_JSON) }

// Text is the viewed value's text form, read from the bytes.
func (v *View) Text() (string, error) {
	b, err := v.out(C.FBEGO_WRITE_TEXT)
	return string(b), err
}

// String is Text, or the error that prevents it.
func (v *View) String() string {
	s, err := v.Text()
	if err != nil {
		return "<" + v.st.FullName + " view: " + err.Error() + ">"
	}
	return s
}

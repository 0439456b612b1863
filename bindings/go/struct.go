package fbe

// #include "glue.h"
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Model is an FBE model: Standard (versioned: the struct behind an offset, fields
// behind offsets) or Final (compact: fields in place).
type Model int

const (
	Standard Model = 0
	Final    Model = 1
)

func (m Model) String() string {
	if m == Final {
		return "final"
	}
	return "standard"
}

// Fields are a struct's field values by name, for StructType.New (the struct's
// constructor): names the struct does not have are refused.
type Fields map[string]any

// StructType is a struct (or message) of a schema.
type StructType struct {
	Name     string // "Account"
	FullName string // "proto.Account"
	TypeID   uint32
	Base     *StructType // the struct it extends, or nil
	schema   *Schema
	c        *C.fbe_struct
	index    int
	message  bool
	fields   []*Field
	byName   map[string]int
	encSize  atomic.Int64 // the last encoded size: the first guess of the next one's
}

// Schema is the schema the struct belongs to.
func (st *StructType) Schema() *Schema { return st.schema }

// IsMessage is true for a `message` (a protocol's message type).
func (st *StructType) IsMessage() bool { return st.message }

// Fields lists the struct's fields, inherited ones first.
func (st *StructType) Fields() []*Field { return append([]*Field(nil), st.fields...) }

// Field finds a field by name.
func (st *StructType) Field(name string) (*Field, bool) {
	i, ok := st.byName[name]
	if !ok {
		return nil, false
	}
	return st.fields[i], true
}

func (st *StructType) unknownField(name string) *Error {
	var err C.fbe_error
	c := cstr(name)
	defer cfree(c)
	C.fbego_error_unknown_field(&err, st.c, c, C.size_t(len(name)))
	return errorOf(&err)
}

// New makes a value with the schema's defaults (utc, uuid1, uuid4 evaluated for this
// value), then the given fields set.
func (st *StructType) New(fields Fields) (*Value, error) {
	v, err := st.make(C.FBEGO_MAKE_DEFAULTS, Standard, nil)
	if err != nil {
		return nil, err
	}
	for name, x := range fields {
		if err := v.Set(name, x); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// MustNew is New for fields known to be right; it panics otherwise.
func (st *StructType) MustNew(fields Fields) *Value {
	v, err := st.New(fields)
	if err != nil {
		panic(err)
	}
	return v
}

// Decode reads a value from data, verified first (the core's fbe_decode).
func (st *StructType) Decode(data []byte, model Model) (*Value, error) {
	return st.make(C.FBEGO_MAKE_DECODE, model, data)
}

// DecodeTrusted reads a value from data without verifying it (fbe_decode_trusted): for
// bytes verified before; bad bytes give an error or a value, never a crash.
func (st *StructType) DecodeTrusted(data []byte, model Model) (*Value, error) {
	return st.make(C.FBEGO_MAKE_DECODE_TRUSTED, model, data)
}

// FromJSON reads a value from its JSON form (docs/JSON.md).
func (st *StructType) FromJSON(text []byte) (*Value, error) {
	return st.make(C.FBEGO_MAKE_JSON, Standard, text)
}

// Verify checks that data starts with a valid model of the struct: nil and the model's
// size, or the reason.
func (st *StructType) Verify(data []byte, model Model) (int, error) {
	var size C.uint64_t
	var err C.fbe_error
	rc := C.fbego_verify(st.schema.c, C.size_t(st.index), C.int(model), bytesPtr(data), C.size_t(len(data)), nil,
		&size, &err)
	runtime.KeepAlive(data)
	runtime.KeepAlive(st.schema)
	if rc != 0 {
		return 0, errorOf(&err)
	}
	return int(size), nil
}

// IsValid is Verify's yes or no.
func (st *StructType) IsValid(data []byte, model Model) bool {
	_, err := st.Verify(data, model)
	return err == nil
}

var tapes = sync.Pool{New: func() any { return &tape{num: make([]int64, 0, 256), bytes: make([]byte, 0, 1024)} }}

// callState is what a C call writes besides the tape: its error and the tape's sizes.
// It lives in the pooled tape: a local passed to C would escape to the heap, 432 bytes a
// call (cgo allows a pointer to this field: it holds no Go pointer).
type callState struct {
	err    C.fbe_error
	nn, np C.uint64_t
}

func getTape() *tape { t := tapes.Get().(*tape); t.reset(); return t }

func putTape(t *tape) {
	if cap(t.num) <= 1<<16 && cap(t.bytes) <= 1<<20 { // keep small tapes only
		tapes.Put(t)
	}
}

func bytesPtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

func slotsPtr(n []int64) *C.int64_t {
	if len(n) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&n[0]))
}

// grow gives t room for at least n slots and p bytes.
func (t *tape) grow(n, p uint64) {
	if uint64(cap(t.num)) < n {
		t.num = make([]int64, 0, n+n/2)
	}
	if uint64(cap(t.bytes)) < p {
		t.bytes = make([]byte, 0, p+p/2)
	}
}

// fill runs a C call that writes a value onto the tape, growing the tape until it
// fits, and reads the value back with read.
func fill(call func(t *tape, nn, np *C.uint64_t, err *C.fbe_error) C.int, read func(r *reader) any) (any, error) {
	t := getTape()
	defer putTape(t)
	cs := &t.cs
	for {
		switch call(t, &cs.nn, &cs.np, &cs.err) {
		case 0:
			r := reader{num: t.num[:cs.nn], bytes: t.bytes[:cs.np]}
			return read(&r), nil
		case 1:
			if uint64(cs.nn) > 1<<31 || uint64(cs.np) > 1<<40 {
				return nil, &Error{Status: StatusLimit, Message: "the value is too large for the tape", Offset: NoOffset}
			}
			t.grow(uint64(cs.nn), uint64(cs.np))
		default:
			return nil, errorOf(&cs.err)
		}
	}
}

func (st *StructType) make(how C.int, model Model, in []byte) (*Value, error) {
	v, err := fill(func(t *tape, nn, np *C.uint64_t, err *C.fbe_error) C.int {
		num, b := t.num[:cap(t.num)], t.bytes[:cap(t.bytes)]
		rc := C.fbego_make(st.schema.c, C.size_t(st.index), how, C.int(model), bytesPtr(in), C.size_t(len(in)), nil,
			slotsPtr(num), C.uint32_t(len(num)), bytesPtr(b), C.uint32_t(len(b)), nn, np, err)
		runtime.KeepAlive(in)
		runtime.KeepAlive(st.schema)
		return rc
	}, func(r *reader) any { return r.structValue(st) })
	if err != nil {
		return nil, err
	}
	return v.(*Value), nil
}

// flatten puts v (a value of st) on a tape.
func (st *StructType) flatten(t *tape, v *Value) error {
	if f := t.writeStruct(st, nil, v, 0); f != nil {
		return f.err()
	}
	return nil
}

// write runs fbego_write over the tape: the model's bytes, JSON or text of the value.
func (st *StructType) write(t *tape, what, arg C.int) ([]byte, error) {
	guess := st.encSize.Load()
	if guess < 64 {
		guess = 64
	}
	out := make([]byte, guess+guess/4)
	for {
		size := C.fbego_write(st.schema.c, C.size_t(st.index), what, arg, slotsPtr(t.num), C.uint32_t(len(t.num)),
			bytesPtr(t.bytes), C.uint32_t(len(t.bytes)), bytesPtr(out), C.size_t(len(out)), &t.cs.err)
		runtime.KeepAlive(st.schema)
		if size < 0 {
			return nil, errorOf(&t.cs.err)
		}
		if int64(size) <= int64(len(out)) {
			if what == C.FBEGO_WRITE_MODEL {
				st.encSize.Store(int64(size))
			}
			return out[:size:size], nil
		}
		out = make([]byte, int64(size))
	}
}

// Encode writes v (a value of this struct) with the model.
func (st *StructType) Encode(v *Value, model Model) ([]byte, error) {
	t := getTape()
	defer putTape(t)
	if err := st.flatten(t, v); err != nil {
		return nil, err
	}
	return st.write(t, C.FBEGO_WRITE_MODEL, C.int(model))
}

// ParseModel reads a model's name ("standard", "final") by the core's rule.
func ParseModel(name string) (Model, error) {
	c := cstr(name)
	defer cfree(c)
	var m C.fbe_model
	var err C.fbe_error
	if C.fbe_model_parse(c, C.size_t(len(name)), &m, &err) != 0 {
		return Standard, errorOf(&err)
	}
	if m == C.FBE_MODEL_FINAL {
		return Final, nil
	}
	return Standard, nil
}

// EncodeAny encodes x as a value of the struct: a *Value of it, or Fields (its
// constructor's arguments); anything else is refused with the core's type error.
func (st *StructType) EncodeAny(x any, model Model) ([]byte, error) {
	t := getTape()
	defer putTape(t)
	if f := t.writeStruct(st, nil, x, 0); f != nil {
		return nil, f.err()
	}
	return st.write(t, C.FBEGO_WRITE_MODEL, C.int(model))
}

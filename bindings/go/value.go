package fbe

// #include "glue.h"
import "C"

import (
	"fmt"
	"runtime"
)

// Value is a value of a struct type: its fields by name, each a Go value of the type
// mapping (README.md). A Value is plain Go data: nothing in it points into C.
type Value struct {
	t *StructType
	f []any
}

// Type is the value's struct type.
func (v *Value) Type() *StructType { return v.t }

// Get is a field's value (nil for a field the struct does not have, or a null optional).
func (v *Value) Get(name string) any {
	if i, ok := v.t.byName[name]; ok {
		return v.f[i]
	}
	return nil
}

// Lookup is a field's value, or the core's unknown-field error.
func (v *Value) Lookup(name string) (any, error) {
	if i, ok := v.t.byName[name]; ok {
		return v.f[i], nil
	}
	return nil, v.t.unknownField(name)
}

// Set sets a field. Any Go value of the field's mapping is taken; it is checked when the
// value is encoded, printed or compared (the core's rules, with the field's path).
func (v *Value) Set(name string, x any) error {
	i, ok := v.t.byName[name]
	if !ok {
		return v.t.unknownField(name)
	}
	v.f[i] = x
	return nil
}

// MustSet is Set for a field known to exist; it returns v for chaining.
func (v *Value) MustSet(name string, x any) *Value {
	if err := v.Set(name, x); err != nil {
		panic(err)
	}
	return v
}

// Int is an integer field (any width, enums and timestamps too) as an int64.
func (v *Value) Int(name string) int64 {
	switch x := v.Get(name).(type) {
	case EnumValue:
		return int64(x.Bits)
	default:
		neg, mag, ok := integer(x)
		if !ok {
			return 0
		}
		if neg {
			return -int64(mag)
		}
		return int64(mag)
	}
}

// Uint is an integer field as a uint64 (its 64-bit pattern).
func (v *Value) Uint(name string) uint64 { return uint64(v.Int(name)) }

// Float is a float or double field as a float64.
func (v *Value) Float(name string) float64 {
	switch x := v.Get(name).(type) {
	case float32:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// Bool is a bool field.
func (v *Value) Bool(name string) bool { b, _ := v.Get(name).(bool); return b }

// Str is a string (or decimal) field.
func (v *Value) Str(name string) string {
	switch x := v.Get(name).(type) {
	case string:
		return x
	case Decimal:
		return string(x)
	}
	return ""
}

// Bytes is a bytes field.
func (v *Value) Bytes(name string) []byte { b, _ := v.Get(name).([]byte); return b }

// Struct is a struct field.
func (v *Value) Struct(name string) *Value { s, _ := v.Get(name).(*Value); return s }

// Encode writes the value with the model.
func (v *Value) Encode(model Model) ([]byte, error) { return v.t.Encode(v, model) }

// JSON is the value's JSON form (docs/JSON.md).
func (v *Value) JSON() ([]byte, error) { return v.out(C.FBEGO_WRITE_JSON, 0) }

// MarshalJSON is the value's JSON form (encoding/json).
func (v *Value) MarshalJSON() ([]byte, error) { return v.JSON() }

// UnmarshalJSON reads the JSON form into v, which must have its type (made by New or
// Decode): encoding/json cannot tell the struct otherwise.
func (v *Value) UnmarshalJSON(text []byte) error {
	if v.t == nil {
		return &Error{Status: StatusArgument, Message: "UnmarshalJSON into a Value without a type (make it with StructType.New)", Offset: NoOffset}
	}
	w, err := v.t.FromJSON(text)
	if err != nil {
		return err
	}
	v.f = w.f
	return nil
}

// Text is the value's text form (docs/TEXT.md), or the error that prevents it.
func (v *Value) Text() (string, error) {
	b, err := v.out(C.FBEGO_WRITE_TEXT, 0)
	return string(b), err
}

// String is the text form ("Account(id=1,name=\"Test\",...)"); a value that is not
// valid shows the error instead.
func (v *Value) String() string {
	s, err := v.Text()
	if err != nil {
		return fmt.Sprintf("<%s: %v>", v.t.FullName, err)
	}
	return s
}

func (v *Value) out(what, arg C.int) ([]byte, error) {
	t := getTape()
	defer putTape(t)
	if err := v.t.flatten(t, v); err != nil {
		return nil, err
	}
	return v.t.write(t, what, arg)
}

// Equal is the core's equality: every field, floats by bit pattern, decimals by value.
// Values of different types, or a value that cannot be encoded, are not equal.
func (v *Value) Equal(w *Value) bool {
	if v == nil || w == nil || v.t != w.t {
		return v == w
	}
	t := getTape()
	defer putTape(t)
	if v.t.flatten(t, v) != nil || v.t.flatten(t, w) != nil {
		return false
	}
	var err C.fbe_error
	rc := C.fbego_equal(v.t.schema.c, C.size_t(v.t.index), slotsPtr(t.num), C.uint32_t(len(t.num)), bytesPtr(t.bytes),
		C.uint32_t(len(t.bytes)), &err)
	runtime.KeepAlive(v.t.schema)
	return rc == 1
}

// Copy is a deep copy of the value (through the core: what decode would give).
func (v *Value) Copy() (*Value, error) {
	b, err := v.Encode(Final)
	if err != nil {
		return nil, err
	}
	return v.t.Decode(b, Final)
}

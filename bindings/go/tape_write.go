package fbe

// #include "glue.h"
import "C"

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"
)

// tape is the two arrays a value crosses on (fbe/internal/tape.h, FBE_TAPE_INT64): the
// slots and the bytes, laid out depth-first in schema field order.
type tape struct {
	num   []int64
	bytes []byte
	cs    callState
}

func (t *tape) reset() { t.num, t.bytes = t.num[:0], t.bytes[:0] }

func (t *tape) slot(v int64) { t.num = append(t.num, v) }

func (t *tape) text(s string) {
	t.num = append(t.num, int64(len(s)))
	t.bytes = append(t.bytes, s...)
}

// fault is a host value the binding refuses, to become the core's error (its words,
// made in C) with the value's path: made only when something is wrong.
type fault struct {
	make func(err *C.fbe_error)
	path []func(err *C.fbe_error) // innermost first, as the walk unwinds
}

func (f *fault) field(name string) *fault {
	f.path = append(f.path, func(err *C.fbe_error) {
		c := cstr(name)
		defer cfree(c)
		C.fbego_error_prepend_field(err, c)
	})
	return f
}

func (f *fault) index(i int) *fault {
	f.path = append(f.path, func(err *C.fbe_error) { C.fbego_error_prepend_index(err, C.size_t(i)) })
	return f
}

func (f *fault) key() *fault {
	f.path = append(f.path, func(err *C.fbe_error) { C.fbego_error_prepend_key(err) })
	return f
}

func (f *fault) err() *Error {
	var e C.fbe_error
	f.make(&e)
	for _, p := range f.path {
		p(&e)
	}
	return errorOf(&e)
}

// The host value's kind in the core's words (fbei_got of fbe/internal/input.h).
const (
	gotNull = iota
	gotBool
	gotInteger
	gotFloat
	gotString
	gotBytes
	gotList
	gotSet
	gotMap
	gotStruct
	gotEnum
	gotTime
	gotUUID
	gotDecimal
	gotOther
)

func gotOf(x any) (int, string) {
	switch v := x.(type) {
	case nil:
		return gotNull, ""
	case bool:
		return gotBool, ""
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr, Timestamp, *big.Int:
		return gotInteger, ""
	case float32, float64:
		return gotFloat, ""
	case string:
		return gotString, ""
	case []byte:
		return gotBytes, ""
	case *Value:
		if v == nil {
			return gotNull, ""
		}
		return gotStruct, v.t.FullName
	case Fields, Map:
		return gotMap, ""
	case EnumValue:
		if v.Type == nil {
			return gotOther, "fbe.EnumValue"
		}
		return gotEnum, v.Type.FullName
	case time.Time:
		return gotTime, ""
	case UUID:
		return gotUUID, ""
	case Decimal:
		return gotDecimal, ""
	}
	switch reflect.ValueOf(x).Kind() {
	case reflect.Slice, reflect.Array:
		return gotList, ""
	case reflect.Map:
		return gotMap, ""
	case reflect.Pointer, reflect.Interface:
		if reflect.ValueOf(x).IsNil() {
			return gotNull, ""
		}
	}
	return gotOther, fmt.Sprintf("%T", x)
}

func typeFault(t *Type, x any) *fault {
	got, name := gotOf(x)
	return &fault{make: func(err *C.fbe_error) {
		c := cstr(name)
		defer cfree(c)
		C.fbego_error_type(err, t.c, C.int(got), c)
	}}
}

func structFault(st *StructType, x any) *fault {
	got, name := gotOf(x)
	return &fault{make: func(err *C.fbe_error) {
		c := cstr(name)
		defer cfree(c)
		C.fbego_error_type_struct(err, st.c, C.int(got), c)
	}}
}

func intRangeFault(neg bool, mag uint64, k Kind) *fault {
	return &fault{make: func(err *C.fbe_error) {
		n := C.int(0)
		if neg {
			n = 1
		}
		C.fbego_error_int_range(err, n, C.uint64_t(mag), C.int(k))
	}}
}

func rangeFault(text string, k Kind) *fault {
	return &fault{make: func(err *C.fbe_error) {
		c := cstr(text)
		defer cfree(c)
		C.fbego_error_range(err, c, C.int(k))
	}}
}

func badTextFault(k Kind, text string) *fault {
	return &fault{make: func(err *C.fbe_error) {
		c := cstr(text)
		defer cfree(c)
		C.fbego_error_bad_text(err, C.int(k), c, C.size_t(len(text)))
	}}
}

func errorFault(e *Error) *fault {
	return &fault{make: func(err *C.fbe_error) {
		err.code = C.fbe_status(e.Status)
		err.offset = ^C.size_t(0)
		if e.Offset >= 0 {
			err.offset = C.size_t(e.Offset)
		}
		copyC(err.message[:], e.Message)
		copyC(err.path[:], e.Path)
	}}
}

func copyC(dst []C.char, s string) {
	n := len(s)
	if n > len(dst)-1 {
		n = len(dst) - 1
	}
	for i := 0; i < n; i++ {
		dst[i] = C.char(s[i])
	}
	dst[n] = 0
}

// integer reads any Go integer as sign and magnitude.
func integer(x any) (neg bool, mag uint64, ok bool) {
	var i int64
	switch v := x.(type) {
	case int:
		i = int64(v)
	case int8:
		i = int64(v)
	case int16:
		i = int64(v)
	case int32:
		i = int64(v)
	case int64:
		i = v
	case uint:
		return false, uint64(v), true
	case uint8:
		return false, uint64(v), true
	case uint16:
		return false, uint64(v), true
	case uint32:
		return false, uint64(v), true
	case uint64:
		return false, v, true
	case uintptr:
		return false, uint64(v), true
	case Timestamp:
		return false, uint64(v), true
	default:
		return false, 0, false
	}
	if i < 0 {
		return true, uint64(-(i + 1)) + 1, true
	}
	return false, uint64(i), true
}

// intBounds: the range of an integer kind as (most negative magnitude, max), for the
// tape format's host-side check (fbe/internal/tape.h: FBE_TAPE_INT64).
func intBounds(k Kind) (minMag, max uint64) {
	switch k {
	case KindInt8:
		return 128, math.MaxInt8
	case KindInt16:
		return 1 << 15, math.MaxInt16
	case KindInt32:
		return 1 << 31, math.MaxInt32
	case KindInt64:
		return 1 << 63, math.MaxInt64
	case KindByte, KindUint8, KindChar:
		return 0, math.MaxUint8
	case KindUint16:
		return 0, math.MaxUint16
	case KindUint32, KindWchar:
		return 0, math.MaxUint32
	}
	return 0, math.MaxUint64
}

func (t *tape) putInt(k Kind, x any) *fault {
	neg, mag, ok := integer(x)
	if !ok {
		return nil
	}
	minMag, max := intBounds(k)
	if (neg && mag > minMag) || (!neg && mag > max) {
		return intRangeFault(neg, mag, k)
	}
	if neg {
		t.slot(int64(-mag))
	} else {
		t.slot(int64(mag))
	}
	return nil
}

// write puts the host value x of type ty on the tape.
func (t *tape) write(ty *Type, x any, depth int) *fault {
	if b, ok := x.(*big.Int); ok && b != nil { // an integer of any size
		switch {
		case b.IsInt64():
			x = b.Int64()
		case b.IsUint64():
			x = b.Uint64()
		default:
			return t.writeBig(ty, b)
		}
	}
	switch ty.Kind {
	case KindBool:
		b, ok := x.(bool)
		if !ok {
			return typeFault(ty, x)
		}
		if b {
			t.slot(1)
		} else {
			t.slot(0)
		}
		return nil
	case KindChar, KindWchar:
		if s, ok := x.(string); ok { // one character
			r, n := utf8.DecodeRuneInString(s)
			if n == 0 || n != len(s) || r == utf8.RuneError {
				return badTextFault(ty.Kind, s)
			}
			if ty.Kind == KindChar && r > 0xFF {
				return rangeFault(strconv.Itoa(int(r)), ty.Kind)
			}
			t.slot(int64(r))
			return nil
		}
		fallthrough
	case KindByte, KindInt8, KindUint8, KindInt16, KindUint16, KindInt32, KindUint32, KindInt64, KindUint64:
		if _, isTS := x.(Timestamp); isTS {
			return typeFault(ty, x)
		}
		if _, _, ok := integer(x); !ok {
			return typeFault(ty, x)
		}
		return t.putInt(ty.Kind, x)
	case KindFloat, KindDouble:
		var f float64
		switch v := x.(type) {
		case float64:
			f = v
		case float32:
			f = float64(v)
		default:
			neg, mag, ok := integer(x)
			if _, isTS := x.(Timestamp); !ok || isTS {
				return typeFault(ty, x)
			}
			f = float64(mag)
			if neg {
				f = -f
			}
		}
		if ty.Kind == KindFloat {
			f32 := float32(f)
			if math.IsInf(float64(f32), 0) && !math.IsInf(f, 0) {
				return rangeFault(strconv.FormatFloat(f, 'g', -1, 64), ty.Kind)
			}
			t.slot(int64(math.Float32bits(f32)))
		} else {
			t.slot(int64(math.Float64bits(f)))
		}
		return nil
	case KindDecimal:
		switch v := x.(type) {
		case Decimal:
			t.text(string(v))
		case string:
			t.text(v)
		default:
			neg, mag, ok := integer(x)
			if _, isTS := x.(Timestamp); !ok || isTS {
				return typeFault(ty, x)
			}
			s := strconv.FormatUint(mag, 10)
			if neg {
				s = "-" + s
			}
			t.text(s)
		}
		return nil
	case KindTimestamp:
		switch v := x.(type) {
		case Timestamp:
			t.slot(int64(v))
		case time.Time:
			if v.Before(time.Unix(0, 0)) || v.After(time.Unix(0, math.MaxInt64)) {
				return rangeFault(v.Format(time.RFC3339Nano), ty.Kind)
			}
			t.slot(v.UnixNano())
		default:
			if _, _, ok := integer(x); !ok {
				return typeFault(ty, x)
			}
			return t.putInt(KindUint64, x)
		}
		return nil
	case KindUUID:
		var u UUID
		switch v := x.(type) {
		case UUID:
			u = v
		case [16]byte:
			u = v
		case string:
			p, err := parseUUID(v)
			if err != nil {
				return errorFault(err.(*Error))
			}
			u = p
		default:
			return typeFault(ty, x)
		}
		var hi, lo uint64
		for i := 0; i < 8; i++ {
			hi = hi<<8 | uint64(u[i])
			lo = lo<<8 | uint64(u[8+i])
		}
		t.slot(int64(hi))
		t.slot(int64(lo))
		return nil
	case KindString:
		s, ok := x.(string)
		if !ok {
			return typeFault(ty, x)
		}
		t.text(s)
		return nil
	case KindBytes:
		b, ok := x.([]byte)
		if !ok {
			return typeFault(ty, x)
		}
		t.num = append(t.num, int64(len(b)))
		t.bytes = append(t.bytes, b...)
		return nil
	case KindEnum, KindFlags:
		switch v := x.(type) {
		case EnumValue:
			if v.Type != ty.Enum {
				return typeFault(ty, x)
			}
			t.slot(int64(v.Bits))
			return nil
		case string:
			e, err := ty.Enum.Parse(v)
			if err != nil {
				return errorFault(err.(*Error))
			}
			t.slot(int64(e.Bits))
			return nil
		}
		if _, isTS := x.(Timestamp); isTS {
			return typeFault(ty, x)
		}
		if _, _, ok := integer(x); !ok {
			return typeFault(ty, x)
		}
		return t.putInt(ty.Enum.Base, x)
	case KindStruct:
		return t.writeStruct(ty.Struct, ty, x, depth)
	case KindOptional:
		if isNil(x) {
			t.slot(0)
			return nil
		}
		if depth >= int(C.FBE_DEFAULT_MAX_DEPTH) {
			return tooDeep()
		}
		t.slot(1)
		return t.write(ty.Elem, x, depth+1)
	case KindArray, KindVector, KindList, KindSet:
		if depth >= int(C.FBE_DEFAULT_MAX_DEPTH) {
			return tooDeep()
		}
		return t.writeList(ty, x, depth+1)
	case KindMap, KindHash:
		if depth >= int(C.FBE_DEFAULT_MAX_DEPTH) {
			return tooDeep()
		}
		return t.writeMap(ty, x, depth+1)
	}
	return typeFault(ty, x)
}

// writeBig: an integer beyond 64 bits, which only a decimal or a float holds.
func (t *tape) writeBig(ty *Type, b *big.Int) *fault {
	switch ty.Kind {
	case KindDecimal:
		t.text(b.String())
		return nil
	case KindFloat, KindDouble:
		f, _ := new(big.Float).SetInt(b).Float64()
		return t.write(ty, f, 0)
	case KindByte, KindChar, KindWchar, KindInt8, KindUint8, KindInt16, KindUint16, KindInt32, KindUint32, KindInt64,
		KindUint64, KindTimestamp:
		return rangeFault(b.String(), ty.Kind)
	case KindEnum, KindFlags:
		return rangeFault(b.String(), ty.Enum.Base)
	}
	return typeFault(ty, b)
}

func tooDeep() *fault {
	return &fault{make: func(err *C.fbe_error) { C.fbego_error_too_deep(err) }}
}

func isNil(x any) bool {
	if x == nil {
		return true
	}
	switch reflect.ValueOf(x).Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		// a nil slice or map is an empty collection, not a null: only pointers are null
		return reflect.ValueOf(x).Kind() == reflect.Pointer && reflect.ValueOf(x).IsNil()
	}
	return false
}

func (t *tape) writeList(ty *Type, x any, depth int) *fault {
	if x == nil {
		return typeFault(ty, x)
	}
	if list, ok := x.([]any); ok {
		if ty.Kind == KindArray && len(list) != ty.Len {
			return arrayLengthFault(ty, len(list))
		}
		if ty.Kind != KindArray {
			t.slot(int64(len(list)))
		}
		for i, e := range list {
			if f := t.write(ty.Elem, e, depth); f != nil {
				return f.index(i)
			}
		}
		return nil
	}
	if _, isBytes := x.([]byte); isBytes && ty.Elem.Kind != KindByte && ty.Elem.Kind != KindUint8 {
		return typeFault(ty, x)
	}
	if done, f := t.typedList(ty, x); done { // what decode gives
		return f
	}
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return typeFault(ty, x)
	}
	n := rv.Len()
	if ty.Kind == KindArray && n != ty.Len {
		return arrayLengthFault(ty, n)
	}
	if ty.Kind != KindArray {
		t.slot(int64(n))
	}
	for i := 0; i < n; i++ {
		if f := t.write(ty.Elem, rv.Index(i).Interface(), depth); f != nil {
			return f.index(i)
		}
	}
	return nil
}

func arrayLengthFault(ty *Type, got int) *fault {
	return &fault{make: func(err *C.fbe_error) { C.fbego_error_array_length(err, ty.c, C.size_t(got)) }}
}

func (t *tape) writeMap(ty *Type, x any, depth int) *fault {
	var entries Map
	switch v := x.(type) {
	case Map:
		entries = v
	case []MapEntry:
		entries = v
	default:
		rv := reflect.ValueOf(x)
		if x == nil || rv.Kind() != reflect.Map {
			return typeFault(ty, x)
		}
		entries = make(Map, 0, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			entries = append(entries, MapEntry{it.Key().Interface(), it.Value().Interface()})
		}
		sortEntries(entries) // a Go map has no order: sorted keys make the bytes repeatable
	}
	t.slot(int64(len(entries)))
	for _, e := range entries {
		if f := t.write(ty.Key, e.Key, depth); f != nil {
			return f.key()
		}
		if f := t.write(ty.Elem, e.Value, depth); f != nil {
			return f.key()
		}
	}
	return nil
}

func sortEntries(m Map) {
	sort.SliceStable(m, func(i, j int) bool {
		a, b := m[i].Key, m[j].Key
		if an, am, ok := integer(a); ok {
			if bn, bm, ok := integer(b); ok {
				if an != bn {
					return an
				}
				if an {
					return am > bm
				}
				return am < bm
			}
		}
		return fmt.Sprint(a) < fmt.Sprint(b)
	})
}

// writeStruct puts a struct value on the tape: a *Value of the struct, or Fields (the
// struct's constructor arguments). ty: the field's type (nil for a message itself),
// whose words a wrong value's error uses.
func (t *tape) writeStruct(st *StructType, ty *Type, x any, depth int) *fault {
	switch v := x.(type) {
	case *Value:
		if v != nil && v.t == st {
			for i, f := range st.fields {
				if flt := t.write(f.Type, v.f[i], depth); flt != nil {
					return flt.field(f.Name)
				}
			}
			return nil
		}
	case Fields:
		val, err := st.New(v)
		if err != nil {
			return errorFault(err.(*Error))
		}
		return t.writeStruct(st, ty, val, depth)
	}
	if ty != nil {
		return typeFault(ty, x)
	}
	return structFault(st, x)
}

// typedList writes a slice of the element kind's own Go type (the ones decode gives:
// tape_read.go typedList) straight onto the tape, without a box per element: its length
// (for a collection that is not an array), then its elements. done is false for any
// other slice, which the general path writes element by element.
func (t *tape) typedList(ty *Type, x any) (done bool, f *fault) {
	k := ty.Elem.Kind
	var n int
	switch s := x.(type) {
	case []bool:
		n, done = len(s), k == KindBool
	case []int8:
		n, done = len(s), k == KindInt8
	case []int16:
		n, done = len(s), k == KindInt16
	case []uint16:
		n, done = len(s), k == KindUint16
	case []int32:
		n, done = len(s), k == KindInt32
	case []uint32:
		n, done = len(s), k == KindUint32
	case []int64:
		n, done = len(s), k == KindInt64
	case []uint64:
		n, done = len(s), k == KindUint64
	case []float32:
		n, done = len(s), k == KindFloat
	case []float64:
		n, done = len(s), k == KindDouble
	case []string:
		n, done = len(s), k == KindString
	}
	if !done {
		return false, nil
	}
	if ty.Kind == KindArray {
		if n != ty.Len {
			return true, arrayLengthFault(ty, n)
		}
	} else {
		t.slot(int64(n))
	}
	switch s := x.(type) {
	case []bool:
		for _, e := range s {
			if e {
				t.slot(1)
			} else {
				t.slot(0)
			}
		}
	case []int8:
		writeInts(t, s)
	case []int16:
		writeInts(t, s)
	case []uint16:
		writeInts(t, s)
	case []int32:
		writeInts(t, s)
	case []uint32:
		writeInts(t, s)
	case []int64:
		writeInts(t, s)
	case []uint64:
		writeInts(t, s)
	case []float32:
		for _, e := range s {
			t.slot(int64(math.Float32bits(e)))
		}
	case []float64:
		for _, e := range s {
			t.slot(int64(math.Float64bits(e)))
		}
	case []string:
		for _, e := range s {
			t.text(e)
		}
	}
	return true, nil
}

func writeInts[T int8 | int16 | uint16 | int32 | uint32 | int64 | uint64](t *tape, s []T) {
	for _, e := range s {
		t.slot(int64(e))
	}
}

package fbe

import "math"

// reader builds Go values from a tape C wrote (fbe/internal/tape.h, FBE_TAPE_INT64).
type reader struct {
	num   []int64
	bytes []byte
	n, p  int
}

func (r *reader) slot() int64 {
	v := r.num[r.n]
	r.n++
	return v
}

func (r *reader) raw() []byte {
	size := int(r.slot())
	if size < 0 { // (the DOUBLE format's non-ASCII mark; either sign reads)
		size = -size
	}
	b := r.bytes[r.p : r.p+size]
	r.p += size
	return b
}

func (r *reader) structValue(st *StructType) *Value {
	v := &Value{t: st, f: make([]any, len(st.fields))}
	for i, f := range st.fields {
		v.f[i] = r.value(f.Type)
	}
	return v
}

func (r *reader) value(ty *Type) any {
	switch ty.Kind {
	case KindBool:
		return r.slot() != 0
	case KindByte, KindUint8, KindChar:
		return uint8(r.slot())
	case KindWchar:
		return rune(r.slot())
	case KindInt8:
		return int8(r.slot())
	case KindInt16:
		return int16(r.slot())
	case KindUint16:
		return uint16(r.slot())
	case KindInt32:
		return int32(r.slot())
	case KindUint32:
		return uint32(r.slot())
	case KindInt64:
		return r.slot()
	case KindUint64:
		return uint64(r.slot())
	case KindFloat:
		return math.Float32frombits(uint32(r.slot()))
	case KindDouble:
		return math.Float64frombits(uint64(r.slot()))
	case KindDecimal:
		return Decimal(r.raw())
	case KindTimestamp:
		return Timestamp(r.slot())
	case KindUUID:
		var u UUID
		hi, lo := uint64(r.slot()), uint64(r.slot())
		for i := 7; i >= 0; i-- {
			u[i], u[8+i] = byte(hi), byte(lo)
			hi >>= 8
			lo >>= 8
		}
		return u
	case KindString:
		return string(r.raw())
	case KindBytes:
		return append([]byte{}, r.raw()...)
	case KindEnum, KindFlags:
		return EnumValue{Type: ty.Enum, Bits: uint64(r.slot())}
	case KindStruct:
		return r.structValue(ty.Struct)
	case KindOptional:
		if r.slot() == 0 {
			return nil
		}
		return r.value(ty.Elem)
	case KindArray, KindVector, KindList, KindSet:
		n := ty.Len
		if ty.Kind != KindArray {
			n = int(r.slot())
		}
		if typed := r.typedList(ty.Elem.Kind, n); typed != nil {
			return typed
		}
		list := make([]any, n)
		for i := range list {
			list[i] = r.value(ty.Elem)
		}
		return list
	case KindMap, KindHash:
		m := make(Map, int(r.slot()))
		for i := range m {
			m[i].Key = r.value(ty.Key)
			m[i].Value = r.value(ty.Elem)
		}
		return m
	}
	panic("fbe: a kind the tape does not have")
}

// typedList reads a collection of n plain scalars as the Go slice of their type
// ([]int64, []float64, []string, ...: README.md, type mapping), or nil for the other
// element kinds, which decode to []any.
func (r *reader) typedList(k Kind, n int) any {
	switch k {
	case KindBool:
		out := make([]bool, n)
		for i := range out {
			out[i] = r.slot() != 0
		}
		return out
	case KindInt8:
		return readInts[int8](r, n)
	case KindInt16:
		return readInts[int16](r, n)
	case KindUint16:
		return readInts[uint16](r, n)
	case KindInt32:
		return readInts[int32](r, n)
	case KindUint32:
		return readInts[uint32](r, n)
	case KindInt64:
		return readInts[int64](r, n)
	case KindUint64:
		return readInts[uint64](r, n)
	case KindFloat:
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(uint32(r.slot()))
		}
		return out
	case KindDouble:
		out := make([]float64, n)
		for i := range out {
			out[i] = math.Float64frombits(uint64(r.slot()))
		}
		return out
	case KindString:
		out := make([]string, n)
		for i := range out {
			out[i] = string(r.raw())
		}
		return out
	}
	return nil
}

func readInts[T int8 | int16 | uint16 | int32 | uint32 | int64 | uint64](r *reader, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = T(r.slot())
	}
	return out
}

package main

import (
	"encoding/base64"
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"

	"libfbe.org/fbe"
)

// The native path (docs/TESTEE.md "native"): the Go values a program would write for a
// JSON value, by the field's type: structs through StructType.New (fbe.Fields, every
// member, unknown ones included), decimals as fbe.Decimal, bytes from Base64, map keys
// from their text, maps as fbe.Map in the object's order; what does not fit a type's
// mapping is handed over as the plain Go value, so that the binding refuses it.

var integerText = regexp.MustCompile(`^-?[0-9]+$`)

// plain is a JSON value as plain Go data: integers as int64 / uint64 (*big.Int beyond),
// other numbers float64, objects map[string]any.
func plain(v any) any {
	switch x := v.(type) {
	case json.Number:
		return number(string(x))
	case *object:
		m := make(map[string]any, len(x.keys))
		for i, k := range x.keys {
			m[k] = plain(x.vals[i])
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

func number(text string) any {
	if integerText.MatchString(text) {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(text, 10, 64); err == nil {
			return u
		}
		b, _ := new(big.Int).SetString(text, 10)
		return b
	}
	f, _ := strconv.ParseFloat(text, 64) // beyond a double: an infinity, as a host's parser gives
	return f
}

func nativeStruct(st *fbe.StructType, v any) any {
	o, ok := v.(*object)
	if !ok {
		return plain(v)
	}
	fields := make(fbe.Fields, len(o.keys))
	for i, name := range o.keys {
		if f, ok := st.Field(name); ok {
			fields[name] = nativeValue(f.Type, o.vals[i])
		} else {
			fields[name] = plain(o.vals[i])
		}
	}
	return fields
}

func nativeValue(t *fbe.Type, v any) any {
	switch t.Kind {
	case fbe.KindStruct:
		return nativeStruct(t.Struct, v)
	case fbe.KindOptional:
		if v == nil {
			return nil
		}
		return nativeValue(t.Elem, v)
	case fbe.KindArray, fbe.KindVector, fbe.KindList, fbe.KindSet:
		list, ok := v.([]any)
		if !ok {
			return plain(v)
		}
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = nativeValue(t.Elem, e)
		}
		return out
	case fbe.KindMap, fbe.KindHash:
		switch x := v.(type) {
		case *object:
			m := make(fbe.Map, len(x.keys))
			for i, k := range x.keys {
				m[i] = fbe.MapEntry{Key: nativeKey(t.Key, k), Value: nativeValue(t.Elem, x.vals[i])}
			}
			return m
		case []any: // [[key, value], ...]
			m := make(fbe.Map, 0, len(x))
			for _, p := range x {
				pair, ok := p.([]any)
				if !ok || len(pair) != 2 {
					return plain(v)
				}
				m = append(m, fbe.MapEntry{Key: nativeValue(t.Key, pair[0]), Value: nativeValue(t.Elem, pair[1])})
			}
			return m
		}
		return plain(v)
	case fbe.KindFloat, fbe.KindDouble:
		if n, ok := v.(json.Number); ok {
			f, _ := strconv.ParseFloat(string(n), 64)
			return f
		}
	case fbe.KindDecimal:
		if s, ok := v.(string); ok {
			return fbe.Decimal(s)
		}
		if n, ok := v.(json.Number); ok { // a binary float (or an integer): the binding judges
			return number(string(n))
		}
	case fbe.KindBytes:
		if s, ok := v.(string); ok {
			if b, err := base64.StdEncoding.Strict().DecodeString(s); err == nil {
				return b
			}
		}
	}
	return plain(v)
}

// nativeKey is a map key from its JSON text, by the key kind's mapping.
func nativeKey(t *fbe.Type, text string) any {
	switch t.Kind {
	case fbe.KindByte, fbe.KindInt8, fbe.KindUint8, fbe.KindInt16, fbe.KindUint16, fbe.KindInt32, fbe.KindUint32,
		fbe.KindInt64, fbe.KindUint64, fbe.KindChar, fbe.KindWchar, fbe.KindTimestamp, fbe.KindEnum, fbe.KindFlags:
		if integerText.MatchString(text) {
			return number(text)
		}
	case fbe.KindBool:
		switch text {
		case "true":
			return true
		case "false":
			return false
		}
	case fbe.KindFloat, fbe.KindDouble:
		if f, err := strconv.ParseFloat(text, 64); err == nil {
			return f
		}
	case fbe.KindDecimal, fbe.KindBytes:
		return nativeValue(t, text)
	}
	return text
}

package fbe

// #include <stdlib.h>
// #include "glue.h"
import "C"

import (
	"runtime"
	"unsafe"
)

// Schema is a loaded schema: a package and every package it imports. It is immutable
// and safe for concurrent use; its native state is freed when it is no longer
// reachable (the values, views and types made from it keep it reachable).
type Schema struct {
	c       *C.fbego_schema
	structs []*StructType
	byName  map[string]*StructType
	enums   map[*C.fbe_enum]*EnumType
	root    string
}

// Options of a load: the directories where `import NAME` (and Load's package) look for
// NAME.fbe, and the limits against hostile input.
type Options struct {
	Include []string
	Limits  Limits
}

// Limits against hostile input (fbe_limits, docs/C.md): every verify, decode, JSON
// read, view and receiver of the schema runs under them. A zero member is the core's
// default; the core checks each value (its ranges and error texts) when the schema is
// loaded.
type Limits struct {
	MaxDepth     int64 // nesting through optionals and collections: 1..256
	MaxModelSize int64 // the largest model (and frame, JSON text) accepted, in bytes
	MaxMemory    int64 // bytes one operation may cost (0: a factor of the input's size)
}

// Load loads the package named pkg (PKG.fbe on the include directories).
func Load(pkg string, opts *Options) (*Schema, error) {
	return load(C.FBEGO_LOAD_PACKAGE, pkg, "", opts)
}

// LoadFile loads the schema file path and its imports.
func LoadFile(path string, opts *Options) (*Schema, error) {
	return load(C.FBEGO_LOAD_FILE, path, "", opts)
}

// LoadString loads a schema from its text; name is used in diagnostics, and its
// directory for imports.
func LoadString(text, name string, opts *Options) (*Schema, error) {
	return load(C.FBEGO_LOAD_STRING, text, name, opts)
}

func load(how C.int, what, name string, opts *Options) (*Schema, error) {
	var dirs []string
	if opts != nil {
		dirs = opts.Include
	}
	cdirs := (**C.char)(C.malloc(C.size_t(len(dirs)+1) * C.size_t(unsafe.Sizeof((*C.char)(nil)))))
	defer C.free(unsafe.Pointer(cdirs))
	list := unsafe.Slice(cdirs, len(dirs)+1)
	for i, d := range dirs {
		list[i] = cstr(d)
		defer cfree(list[i])
	}
	cwhat, cname := cstr(what), cstr(name)
	defer cfree(cwhat)
	defer cfree(cname)
	var err C.fbe_error
	c := C.fbego_load(how, cwhat, C.size_t(len(what)), cname, cdirs, C.size_t(len(dirs)), &err)
	if c == nil {
		return nil, errorOf(&err)
	}
	if opts != nil {
		for _, l := range []struct {
			name  string
			value int64
		}{{"max_depth", opts.Limits.MaxDepth}, {"max_model_size", opts.Limits.MaxModelSize},
			{"max_memory", opts.Limits.MaxMemory}} {
			cl := cstr(l.name)
			rc := C.fbego_set_limit(c, cl, C.int64_t(l.value), &err)
			cfree(cl)
			if rc != 0 {
				C.fbego_free(c)
				return nil, errorOf(&err)
			}
		}
	}
	s := &Schema{c: c, byName: map[string]*StructType{}, enums: map[*C.fbe_enum]*EnumType{}}
	runtime.SetFinalizer(s, func(s *Schema) { C.fbego_free(s.c) })
	s.root = C.GoString(C.fbe_package_name(C.fbe_schema_root(c.schema)))
	s.introspect()
	return s, nil
}

// Package is the name of the root package.
func (s *Schema) Package() string { return s.root }

// Structs lists every struct of every package, imports first.
func (s *Schema) Structs() []*StructType { return append([]*StructType(nil), s.structs...) }

// Struct finds a struct by "Name" (the root package's) or "package.Name".
func (s *Schema) Struct(name string) (*StructType, error) {
	if st, ok := s.byName[name]; ok {
		return st, nil
	}
	var err C.fbe_error
	cname := cstr(name)
	defer cfree(cname)
	C.fbego_error_unknown_type(&err, s.c.schema, cname, C.size_t(len(name)))
	return nil, errorOf(&err)
}

// MustStruct is Struct for names known to exist; it panics otherwise.
func (s *Schema) MustStruct(name string) *StructType {
	st, err := s.Struct(name)
	if err != nil {
		panic(err)
	}
	return st
}

// introspect builds the Go side's tables of every struct and type once per schema: the
// tape walks follow them instead of asking C field by field.
func (s *Schema) introspect() {
	n := int(C.fbe_schema_struct_count(s.c.schema))
	s.structs = make([]*StructType, n)
	for i := 0; i < n; i++ {
		cs := C.fbe_schema_struct_at(s.c.schema, C.size_t(i))
		st := &StructType{schema: s, c: cs, index: i,
			Name:     C.GoString(C.fbe_struct_name(cs)),
			FullName: C.GoString(C.fbe_struct_full_name(cs)),
			TypeID:   uint32(C.fbe_struct_type_id(cs)),
			message:  C.fbe_struct_is_message(cs) != 0,
		}
		s.structs[i] = st
		s.byName[st.FullName] = st
	}
	for _, st := range s.structs {
		if st.FullName == s.root+"."+st.Name { // short names: the root package's only
			s.byName[st.Name] = st
		}
	}
	for _, st := range s.structs {
		nf := int(C.fbe_struct_field_count(st.c))
		st.fields = make([]*Field, nf)
		st.byName = make(map[string]int, nf)
		for j := 0; j < nf; j++ {
			cf := C.fbe_struct_field_at(st.c, C.size_t(j))
			f := &Field{Name: C.GoString(C.fbe_field_name(cf)), Index: j, Key: C.fbe_field_is_key(cf) != 0,
				Type: s.typeOf(C.fbe_field_type(cf)), dynamic: C.fbe_field_default_class(cf) != C.FBE_DEFAULT_SHARED}
			st.fields[j] = f
			st.byName[f.Name] = j
		}
		if b := C.fbe_struct_base(st.c); b != nil {
			st.Base = s.structs[int(C.fbe_struct_index(b))]
		}
	}
}

func (s *Schema) typeOf(ct *C.fbe_type) *Type {
	t := &Type{Kind: Kind(C.fbe_type_kind(ct)), c: ct}
	switch t.Kind {
	case KindStruct:
		t.Struct = s.structs[int(C.fbe_struct_index(C.fbe_type_struct(ct)))]
	case KindEnum, KindFlags:
		t.Enum = s.enumOf(C.fbe_type_enum(ct))
	case KindArray:
		t.Len = int(C.fbe_type_array_size(ct))
		t.Elem = s.typeOf(C.fbe_type_element(ct))
	case KindOptional, KindVector, KindList, KindSet:
		t.Elem = s.typeOf(C.fbe_type_element(ct))
	case KindMap, KindHash:
		t.Key = s.typeOf(C.fbe_type_key(ct))
		t.Elem = s.typeOf(C.fbe_type_element(ct))
	}
	return t
}

func (s *Schema) enumOf(ce *C.fbe_enum) *EnumType {
	if e, ok := s.enums[ce]; ok {
		return e
	}
	e := &EnumType{schema: s, c: ce, Name: C.GoString(C.fbe_enum_name(ce)), FullName: C.GoString(C.fbe_enum_full_name(ce)),
		Flags: C.fbe_enum_is_flags(ce) != 0, Base: Kind(C.fbe_enum_base(ce)), byName: map[string]uint64{}}
	n := int(C.fbe_enum_value_count(ce))
	for i := 0; i < n; i++ {
		name := C.GoString(C.fbe_enum_value_name(ce, C.size_t(i)))
		v := uint64(C.fbe_enum_value_at(ce, C.size_t(i)))
		e.Members = append(e.Members, EnumMember{Name: name, Value: v})
		e.byName[name] = v
	}
	s.enums[ce] = e
	return e
}

// Kind is a type form of the schema language.
type Kind int

// The kinds, as the core numbers them (fbe_kind).
const (
	KindBool Kind = iota
	KindByte
	KindChar
	KindWchar
	KindInt8
	KindUint8
	KindInt16
	KindUint16
	KindInt32
	KindUint32
	KindInt64
	KindUint64
	KindFloat
	KindDouble
	KindDecimal
	KindTimestamp
	KindUUID
	KindString
	KindBytes
	KindEnum
	KindFlags
	KindStruct
	KindOptional
	KindArray
	KindVector
	KindList
	KindSet
	KindMap
	KindHash
)

// String is the kind's name in the schema language ("int32", "vector").
func (k Kind) String() string { return C.GoString(C.fbe_kind_name(C.fbe_kind(k))) }

// Type is a field's type: its kind and, by kind, the struct, enum, element, key and
// array length.
type Type struct {
	Kind   Kind
	Struct *StructType // KindStruct
	Enum   *EnumType   // KindEnum, KindFlags
	Elem   *Type       // optional, array, vector, list, set: the element; map, hash: the value
	Key    *Type       // map, hash
	Len    int         // array
	c      *C.fbe_type
}

// Field is one field of a struct (inherited fields first).
type Field struct {
	Name    string
	Index   int
	Type    *Type
	Key     bool // a [key] field
	dynamic bool // its default is made per value (utc, uuid1, uuid4) or is fresh
}

// EnumMember is one named value of an enum or flags type.
type EnumMember struct {
	Name  string
	Value uint64 // the 64-bit pattern (sign-extended for signed bases)
}

// EnumType is an enum or flags type.
type EnumType struct {
	Name, FullName string
	Flags          bool
	Base           Kind
	Members        []EnumMember
	byName         map[string]uint64
	schema         *Schema
	c              *C.fbe_enum
}

// Parse is the value of a member name, or of flags' "a|b|64" text, by the core's rule.
func (e *EnumType) Parse(text string) (EnumValue, error) {
	ctext := cstr(text)
	defer cfree(ctext)
	var out C.uint64_t
	var err C.fbe_error
	if C.fbego_enum_parse(e.c, ctext, C.size_t(len(text)), &out, &err) != 0 {
		return EnumValue{}, errorOf(&err)
	}
	return EnumValue{Type: e, Bits: uint64(out)}, nil
}

// Value is the enum value of the given bits.
func (e *EnumType) Value(bits uint64) EnumValue { return EnumValue{Type: e, Bits: bits} }

// EnumValue is a value of an enum or flags type: its 64-bit pattern (values no member
// has are kept as they are).
type EnumValue struct {
	Type *EnumType
	Bits uint64
}

// Int is the value as a signed number (the pattern sign-extended for signed bases).
func (v EnumValue) Int() int64 { return int64(v.Bits) }

// String is the value in the text form ("buy", "a|b", a number where no name fits).
func (v EnumValue) String() string {
	if v.Type == nil {
		return "<nil enum>"
	}
	var buf [512]C.char
	n := C.fbego_enum_text(v.Type.c, C.uint64_t(v.Bits), &buf[0], C.size_t(len(buf)))
	return C.GoStringN(&buf[0], C.int(n))
}

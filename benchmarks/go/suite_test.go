package benchmarks

// The data shape and the method of the widely used Go serializer benchmark suite
// (github.com/alecthomas/go_serialization_benchmarks): a struct of a string, a bool, an
// int32, a float64 and a time.Time with random values; one op marshals a value,
// unmarshals the bytes into a new struct and compares every field; reported as ns/op,
// B/size (bytes of the serialized form), B/op and allocs/op.

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/mus-format/mus-go/ord"
	"github.com/mus-format/mus-go/raw"
	"github.com/mus-format/mus-go/varint"
	"google.golang.org/protobuf/encoding/protowire"

	"libfbe.org/fbe"
)

// Small is the suite's struct.
type Small struct {
	Str     string
	Bool    bool
	Int32   int32
	Float64 float64
	Time    time.Time
}

func (a *Small) equal(b *Small) bool {
	return a.Str == b.Str && a.Bool == b.Bool && a.Int32 == b.Int32 && a.Float64 == b.Float64 && a.Time.Equal(b.Time)
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// smallValues are 1024 random values (fixed seed): 16-character strings, any int32, a
// float64 in [0, 1e6), a time with nanoseconds between 1970 and 2100 (UTC).
var smallValues = func() []Small {
	r := rand.New(rand.NewSource(1))
	out := make([]Small, 1024)
	for i := range out {
		s := make([]byte, 16)
		for j := range s {
			s[j] = letters[r.Intn(len(letters))]
		}
		out[i] = Small{Str: string(s), Bool: r.Intn(2) == 1, Int32: int32(r.Uint32()),
			Float64: r.Float64() * 1e6, Time: time.Unix(0, r.Int63n(130*365*24*int64(time.Hour))).UTC()}
	}
	return out
}()

// serializer is one implementation of the suite's op.
type serializer interface {
	marshal(v *Small) ([]byte, error)
	unmarshal(b []byte, v *Small) error
}

func runSuite(b *testing.B, s serializer) {
	b.ReportAllocs()
	var size int64
	for i := 0; i < b.N; i++ {
		in := &smallValues[i%len(smallValues)]
		data, err := s.marshal(in)
		if err != nil {
			b.Fatal(err)
		}
		size += int64(len(data))
		var out Small
		if err := s.unmarshal(data, &out); err != nil {
			b.Fatal(err)
		}
		if !in.equal(&out) {
			b.Fatalf("%+v came back as %+v", *in, out)
		}
	}
	b.ReportMetric(float64(size)/float64(b.N), "B/size")
}

func BenchmarkSuite(b *testing.B) {
	schema, err := fbe.Load("small", &fbe.Options{Include: []string{"../../schemas/bench"}})
	if err != nil {
		b.Fatal(err)
	}
	st := schema.MustStruct("Small")
	for _, c := range []struct {
		name string
		s    serializer
	}{
		{"libfbe-final", &libfbeSmall{st: st, v: st.MustNew(nil), model: fbe.Final}},
		{"libfbe-standard", &libfbeSmall{st: st, v: st.MustNew(nil), model: fbe.Standard}},
		{"libfbe-view", &libfbeSmall{st: st, v: st.MustNew(nil), model: fbe.Final, view: true}},
		{"mus", musSmall{}},
		{"protobuf-protowire", protowireSmall{}},
		{"json", jsonSmall{}},
		{"gob", gobSmall{}},
	} {
		b.Run(c.name, func(b *testing.B) { runSuite(b, c.s) })
	}
}

// libfbe: the Go struct into the schema's value (one reused *fbe.Value), encoded in one
// cgo call; decoded (verified) in one, or read through a view (one call per field).
type libfbeSmall struct {
	st    *fbe.StructType
	v     *fbe.Value
	model fbe.Model
	view  bool
}

func (l *libfbeSmall) marshal(v *Small) ([]byte, error) {
	l.v.MustSet("name", v.Str).MustSet("spouse", v.Bool).MustSet("siblings", v.Int32).
		MustSet("money", v.Float64).MustSet("birthday", v.Time)
	return l.v.Encode(l.model)
}

func (l *libfbeSmall) unmarshal(b []byte, v *Small) error {
	if l.view {
		view, err := l.st.View(b, l.model)
		if err != nil {
			return err
		}
		defer view.Close()
		name, _ := view.Get("name")
		spouse, _ := view.Get("spouse")
		siblings, _ := view.Get("siblings")
		money, _ := view.Get("money")
		birthday, err := view.Get("birthday")
		if err != nil {
			return err
		}
		*v = Small{Str: name.(string), Bool: spouse.(bool), Int32: siblings.(int32), Float64: money.(float64),
			Time: birthday.(fbe.Timestamp).Time()}
		return nil
	}
	w, err := l.st.Decode(b, l.model)
	if err != nil {
		return err
	}
	*v = Small{Str: w.Str("name"), Bool: w.Bool("spouse"), Int32: int32(w.Int("siblings")), Float64: w.Float("money"),
		Time: w.Get("birthday").(fbe.Timestamp).Time()}
	return nil
}

// mus (github.com/mus-format/mus-go): hand-written serializers of its primitives, as the
// suite's mus entry.
type musSmall struct{}

func (musSmall) marshal(v *Small) ([]byte, error) {
	n := ord.String.Size(v.Str) + ord.Bool.Size(v.Bool) + varint.Int32.Size(v.Int32) + raw.Float64.Size(v.Float64) +
		raw.TimeUnixNanoUTC.Size(v.Time)
	b := make([]byte, n)
	i := ord.String.Marshal(v.Str, b)
	i += ord.Bool.Marshal(v.Bool, b[i:])
	i += varint.Int32.Marshal(v.Int32, b[i:])
	i += raw.Float64.Marshal(v.Float64, b[i:])
	raw.TimeUnixNanoUTC.Marshal(v.Time, b[i:])
	return b, nil
}

func (musSmall) unmarshal(b []byte, v *Small) (err error) {
	var n, i int
	if v.Str, n, err = ord.String.Unmarshal(b); err != nil {
		return err
	}
	i += n
	if v.Bool, n, err = ord.Bool.Unmarshal(b[i:]); err != nil {
		return err
	}
	i += n
	if v.Int32, n, err = varint.Int32.Unmarshal(b[i:]); err != nil {
		return err
	}
	i += n
	if v.Float64, n, err = raw.Float64.Unmarshal(b[i:]); err != nil {
		return err
	}
	i += n
	v.Time, _, err = raw.TimeUnixNanoUTC.Unmarshal(b[i:])
	return err
}

// protobuf's wire format through google.golang.org/protobuf/encoding/protowire, written
// by hand (what generated code does for message Small { string str = 1; bool bool = 2;
// int32 int32 = 3; double float64 = 4; int64 time_ns = 5; }), no reflection.
type protowireSmall struct{}

func (protowireSmall) marshal(v *Small) ([]byte, error) {
	b := make([]byte, 0, 48)
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, v.Str)
	if v.Bool {
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(int64(v.Int32)))
	b = protowire.AppendTag(b, 4, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(v.Float64))
	b = protowire.AppendTag(b, 5, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(v.Time.UnixNano()))
	return b, nil
}

func (protowireSmall) unmarshal(b []byte, v *Small) error {
	*v = Small{}
	var ns int64
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		switch {
		case num == 1 && typ == protowire.BytesType:
			var s string
			s, n = protowire.ConsumeString(b)
			v.Str = s
		case num == 2 && typ == protowire.VarintType:
			var x uint64
			x, n = protowire.ConsumeVarint(b)
			v.Bool = x != 0
		case num == 3 && typ == protowire.VarintType:
			var x uint64
			x, n = protowire.ConsumeVarint(b)
			v.Int32 = int32(x)
		case num == 4 && typ == protowire.Fixed64Type:
			var x uint64
			x, n = protowire.ConsumeFixed64(b)
			v.Float64 = math.Float64frombits(x)
		case num == 5 && typ == protowire.VarintType:
			var x uint64
			x, n = protowire.ConsumeVarint(b)
			ns = int64(x)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
	}
	v.Time = time.Unix(0, ns).UTC()
	return nil
}

type jsonSmall struct{}

func (jsonSmall) marshal(v *Small) ([]byte, error)   { return json.Marshal(v) }
func (jsonSmall) unmarshal(b []byte, v *Small) error { return json.Unmarshal(b, v) }

// gob: a new encoder and decoder per op (each stream carries its type), as the suite does.
type gobSmall struct{}

func (gobSmall) marshal(v *Small) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(v)
	return buf.Bytes(), err
}

func (gobSmall) unmarshal(b []byte, v *Small) error {
	return gob.NewDecoder(bytes.NewReader(b)).Decode(v)
}

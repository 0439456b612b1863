package benchmarks

// The workloads of benchmarks/ (README.md): account, small and large from
// benchmarks/data/*.json, schemas from schemas/ and schemas/bench/. libfbe: encode (a
// value made once), decode (verified), decode_trusted, view (open, which verifies, and
// read one field: account id, small name, large the count of ids), view_all (open and
// read every field: ToValue); both models. The peer: encoding/json into typed structs.

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"libfbe.org/fbe"
)

type Balance struct {
	Currency string  `json:"currency"`
	Amount   float64 `json:"amount"`
}

type Order struct {
	ID     int32   `json:"id"`
	Symbol string  `json:"symbol"`
	Side   int32   `json:"side"`
	Type   int32   `json:"type"`
	Price  float64 `json:"price"`
	Volume float64 `json:"volume"`
}

type Account struct {
	ID     int32    `json:"id"`
	Name   string   `json:"name"`
	State  int32    `json:"state"`
	Wallet Balance  `json:"wallet"`
	Asset  *Balance `json:"asset"`
	Orders []Order  `json:"orders"`
}

type SmallRecord struct {
	Name     string  `json:"name"`
	Spouse   bool    `json:"spouse"`
	Siblings int32   `json:"siblings"`
	Money    float64 `json:"money"`
	Birthday uint64  `json:"birthday"`
}

type Large struct {
	IDs   []int64  `json:"ids"`
	Names []string `json:"names"`
}

type workload struct {
	name, pkg, typ, include, field string
	native                         func() any // a new value of the workload's Go struct
}

var workloads = []workload{
	{"account", "proto", "Account", "../../schemas", "id", func() any { return new(Account) }},
	{"small", "small", "Small", "../../schemas/bench", "name", func() any { return new(SmallRecord) }},
	{"large", "large", "Large", "../../schemas/bench", "ids", func() any { return new(Large) }},
}

func BenchmarkWorkloads(b *testing.B) {
	for _, w := range workloads {
		data, err := os.ReadFile("../data/" + w.name + ".json")
		if err != nil {
			b.Fatal(err)
		}
		schema, err := fbe.Load(w.pkg, &fbe.Options{Include: []string{w.include}})
		if err != nil {
			b.Fatal(err)
		}
		st := schema.MustStruct(w.typ)
		value, err := st.FromJSON(data)
		if err != nil {
			b.Fatal(err)
		}
		for _, model := range []fbe.Model{fbe.Final, fbe.Standard} {
			impl := "libfbe-" + model.String()
			bytes, err := value.Encode(model)
			if err != nil {
				b.Fatal(err)
			}
			back, err := st.Decode(bytes, model)
			if err != nil || !back.Equal(value) {
				b.Fatalf("%s %s: the round trip differs (%v)", w.name, impl, err)
			}
			size := float64(len(bytes))
			bench(b, w.name+"/encode/"+impl, size, func() error { _, err := value.Encode(model); return err })
			bench(b, w.name+"/decode/"+impl, size, func() error { _, err := st.Decode(bytes, model); return err })
			bench(b, w.name+"/decode_trusted/"+impl, size, func() error { _, err := st.DecodeTrusted(bytes, model); return err })
			bench(b, w.name+"/view/"+impl, size, func() error {
				view, err := st.View(bytes, model)
				if err != nil {
					return err
				}
				_, err = view.Get(w.field)
				view.Close()
				return err
			})
			bench(b, w.name+"/view_all/"+impl, size, func() error {
				view, err := st.View(bytes, model)
				if err != nil {
					return err
				}
				_, err = view.ToValue()
				view.Close()
				return err
			})
		}
		native := w.native()
		if err := json.Unmarshal(data, native); err != nil {
			b.Fatal(err)
		}
		text, err := json.Marshal(native)
		if err != nil {
			b.Fatal(err)
		}
		again := w.native()
		if err := json.Unmarshal(text, again); err != nil || !reflect.DeepEqual(native, again) {
			b.Fatalf("%s json: the round trip differs (%v)", w.name, err)
		}
		size := float64(len(text))
		bench(b, w.name+"/encode/json", size, func() error { _, err := json.Marshal(native); return err })
		bench(b, w.name+"/decode/json", size, func() error { return json.Unmarshal(text, w.native()) })
	}
}

func bench(b *testing.B, name string, size float64, op func() error) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := op(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(size, "B/size")
	})
}

package fbe_test

import (
	"errors"
	"reflect"
	"testing"

	"libfbe.org/fbe"
)

// Collections of plain scalars decode to the Go slice of their type and encode from it
// (without a box per element); other slices go the general way, element by element.
func TestTypedLists(t *testing.T) {
	s, err := fbe.LoadString(`package lists
struct Lists {
    int64[] ids;
    string[] names;
    double[3] point;
    bool[] switches;
    int32[] small;
    uint64[] big;
    float[] f;
}`, "lists.fbe", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := s.MustStruct("Lists")
	v := st.MustNew(fbe.Fields{"ids": []int64{1, -2, 1 << 40}, "names": []string{"a", "β"},
		"point": []float64{1.5, -2, 3}, "switches": []bool{true, false}, "small": []int32{-7},
		"big": []uint64{1 << 63}, "f": []float32{0.5}})
	for _, model := range []fbe.Model{fbe.Standard, fbe.Final} {
		b, err := v.Encode(model)
		if err != nil {
			t.Fatal(err)
		}
		w, err := st.Decode(b, model)
		if err != nil || !w.Equal(v) {
			t.Fatalf("%v: %v %v", model, w, err)
		}
		for _, name := range []string{"ids", "names", "point", "switches", "small", "big", "f"} {
			if !reflect.DeepEqual(w.Get(name), v.Get(name)) {
				t.Errorf("%s: %#v, want %#v", name, w.Get(name), v.Get(name))
			}
		}
		// the same values as []any and as another integer type encode the same bytes
		x := st.MustNew(fbe.Fields{"ids": []any{1, -2, int64(1) << 40}, "names": []any{"a", "β"},
			"point": []any{1.5, -2, 3}, "switches": []any{true, false}, "small": []int64{-7},
			"big": []any{uint64(1) << 63}, "f": []any{0.5}})
		if bx, err := x.Encode(model); err != nil || string(bx) != string(b) {
			t.Fatalf("%v: []any encodes otherwise (%v)", model, err)
		}
	}
	if _, err := st.MustNew(fbe.Fields{"point": []float64{1}}).Encode(fbe.Final); err == nil {
		t.Fatal("an array of the wrong length encodes")
	}
	_, err = st.MustNew(fbe.Fields{"small": []int64{1 << 40}}).Encode(fbe.Final)
	var fe *fbe.Error
	if !errors.Is(err, fbe.ErrRange) || !errors.As(err, &fe) || fe.Path != "small[0]" {
		t.Fatalf("an int64 past int32 in an int32 list: %v", err)
	}
}

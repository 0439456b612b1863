package fbe_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"libfbe.org/fbe"
)

var schemas = filepath.Join("..", "..", "schemas")

func loadProto(t testing.TB) *fbe.Schema {
	t.Helper()
	s, err := fbe.Load("proto", &fbe.Options{Include: []string{schemas}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The Order of docs/TESTEE.md's example, whose final-model bytes are printed there.
const orderJSON = `{"id":1,"symbol":"EURUSD","side":0,"type":0,"price":1.23456,"volume":1000.0}`
const orderFinalHex = "28000000010000000100000006000000455552555344000038328ffcc1c0f33f0000000000408f40"

func TestEncodeDecodeVerifyJSONText(t *testing.T) {
	s := loadProto(t)
	order := s.MustStruct("Order")
	v, err := order.FromJSON([]byte(orderJSON))
	if err != nil {
		t.Fatal(err)
	}
	b, err := v.Encode(fbe.Final)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(b); got != orderFinalHex[8:] && got != orderFinalHex {
		t.Fatalf("final bytes %s, want %s", got, orderFinalHex)
	}
	size, err := order.Verify(b, fbe.Final)
	if err != nil || size != len(b) {
		t.Fatalf("verify: %d %v", size, err)
	}
	w, err := order.Decode(b, fbe.Final)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Equal(w) {
		t.Fatalf("decoded %v, want %v", w, v)
	}
	if w.Int("id") != 1 || w.Str("symbol") != "EURUSD" || w.Float("price") != 1.23456 {
		t.Fatalf("fields of %v", w)
	}
	j, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	x, err := order.FromJSON(j)
	if err != nil || !x.Equal(v) {
		t.Fatalf("JSON round trip %s: %v", j, err)
	}
	if text := w.String(); !strings.HasPrefix(text, `Order(id=1,symbol="EURUSD",`) {
		t.Fatalf("text form %q", text)
	}
}

func TestStandardModelAndNew(t *testing.T) {
	s := loadProto(t)
	account := s.MustStruct("Account")
	balance := s.MustStruct("Balance")
	v := account.MustNew(fbe.Fields{"id": 7, "name": "Ann",
		"wallet": balance.MustNew(fbe.Fields{"currency": "USD", "amount": 10.5})})
	b, err := v.Encode(fbe.Standard)
	if err != nil {
		t.Fatal(err)
	}
	w, err := account.Decode(b, fbe.Standard)
	if err != nil || !w.Equal(v) {
		t.Fatalf("standard round trip: %v %v", w, err)
	}
	if w.Struct("wallet").Str("currency") != "USD" {
		t.Fatalf("nested wallet of %v", w)
	}
	if err := w.Set("name", "Bob"); err != nil || w.Str("name") != "Bob" || w.Equal(v) {
		t.Fatalf("Set: %v", err)
	}
}

func TestErrorsAreTyped(t *testing.T) {
	s := loadProto(t)
	order := s.MustStruct("Order")
	_, err := order.FromJSON([]byte(`{"id":"one"}`))
	var fe *fbe.Error
	if !errors.As(err, &fe) || fe.Status != fbe.StatusType || !errors.Is(err, fbe.ErrType) || errors.Is(err, fbe.ErrRange) {
		t.Fatalf("a string for an int32: %#v", err)
	}
	if fe.Path != "id" || !strings.Contains(err.Error(), "'id'") {
		t.Fatalf("path %q, text %q", fe.Path, err.Error())
	}
	_, err = order.New(fbe.Fields{"nope": 1})
	if !errors.Is(err, fbe.ErrUnknownField) {
		t.Fatalf("an unknown field: %v", err)
	}
	_, err = order.FromJSON([]byte(`{"id":4294967296}`))
	if !errors.Is(err, fbe.ErrRange) {
		t.Fatalf("an int32 out of range: %v", err)
	}
	b, _ := hex.DecodeString(orderFinalHex)
	if _, err = order.Decode(b[:10], fbe.Final); !errors.As(err, &fe) || fe.Status != fbe.StatusMalformed || fe.Offset < 0 {
		t.Fatalf("truncated bytes: %#v", err)
	}
	if order.IsValid(b[:10], fbe.Final) {
		t.Fatal("truncated bytes are valid")
	}
	if _, err = fbe.Load("no_such_package", &fbe.Options{Include: []string{schemas}}); !errors.As(err, &fe) {
		t.Fatalf("a missing package: %v", err)
	}
	if _, err = s.Struct("Nope"); !errors.Is(err, fbe.ErrNotFound) {
		t.Fatalf("an unknown struct: %v", err)
	}
}

func TestViewReadsInPlaceAndOwnsItsBytes(t *testing.T) {
	s := loadProto(t)
	order := s.MustStruct("Order")
	b, _ := hex.DecodeString(orderFinalHex)
	view, err := order.View(b, fbe.Final)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := order.View(b[:10], fbe.Final); !errors.Is(err, fbe.ErrMalformed) {
		t.Fatalf("a view of truncated bytes: %v", err)
	}
	for i := range b { // the view keeps its own copy
		b[i] = 0xff
	}
	runtime.GC()
	sym, err := view.Get("symbol")
	if err != nil || sym != "EURUSD" {
		t.Fatalf("view symbol %v %v", sym, err)
	}
	v, err := view.ToValue()
	if err != nil || v.Int("id") != 1 {
		t.Fatalf("ToValue %v %v", v, err)
	}
	if view.String() != v.String() {
		t.Fatalf("view text %q, value text %q", view.String(), v.String())
	}
	view.Close()
	if _, err := view.Get("id"); !errors.Is(err, fbe.ErrArgument) {
		t.Fatalf("a closed view: %v", err)
	}
}

func TestSenderReceiver(t *testing.T) {
	s := loadProto(t)
	var wire bytes.Buffer
	snd, err := s.NewSender(&wire, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer snd.Close()
	order := s.MustStruct("Order")
	msg := s.MustStruct("OrderMessage").MustNew(fbe.Fields{"body": order.MustNew(fbe.Fields{"id": 3, "symbol": "X"})})
	for i := 0; i < 3; i++ {
		if err := snd.Send(msg); err != nil {
			t.Fatal(err)
		}
	}
	var got []*fbe.Value
	rcv, err := s.NewReceiver(func(v *fbe.Value) { got = append(got, v) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	frames := wire.Bytes()
	if _, err := rcv.Write(frames[:5]); err != nil || rcv.Pending() != 5 {
		t.Fatalf("a piece: %v, pending %d", err, rcv.Pending())
	}
	if _, err := rcv.ReadFrom(bytes.NewReader(frames[5:])); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !got[2].Equal(msg) || rcv.Pending() != 0 {
		t.Fatalf("received %v", got)
	}
	if err := rcv.Feed([]byte{4, 0, 0, 0}); err == nil || !errors.As(err, new(*fbe.Error)) {
		t.Fatalf("a bad frame: %v", err)
	}
}

// MemoryInUse goes back to where it was after a million encode/decode cycles and after
// the garbage collector has freed every dropped view and peer.
func TestMemoryBackAfterAMillionCycles(t *testing.T) {
	s := loadProto(t)
	order := s.MustStruct("Order")
	v, _ := order.FromJSON([]byte(orderJSON))
	cycles := 1000000
	if testing.Short() {
		cycles = 10000
	}
	runtime.GC()
	before := fbe.MemoryInUse()
	for i := 0; i < cycles; i++ {
		b, err := v.Encode(fbe.Final)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := order.Decode(b, fbe.Final); err != nil {
			t.Fatal(err)
		}
		if i%1000 == 0 { // dropped without Close: the finalizers free them
			if _, err := order.View(b, fbe.Final); err != nil {
				t.Fatal(err)
			}
			if _, err := s.NewReceiver(nil, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for fbe.MemoryInUse() != before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if after := fbe.MemoryInUse(); after != before {
		t.Fatalf("memory in use %d after %d cycles, %d before", after, cycles, before)
	}
}

package fbe_test

import (
	"encoding/hex"
	"errors"
	"runtime"
	"sync"
	"testing"

	"libfbe.org/fbe"
)

// Close while other goroutines read: every read either answers or fails with the
// closed view's error, never reads freed memory (a use after free would show as a wrong
// value or a crash; tools/ci.sh also runs these under -race).
func TestViewCloseWhileReading(t *testing.T) {
	s := loadProto(t)
	order := s.MustStruct("Order")
	b, _ := hex.DecodeString(orderFinalHex)
	for round := 0; round < 50; round++ {
		view, err := order.View(b, fbe.Final)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 50; i++ {
					sym, err := view.Get("symbol")
					if err == nil && sym != "EURUSD" {
						t.Errorf("read %v", sym)
						return
					}
					if err != nil && !errors.Is(err, fbe.ErrArgument) {
						t.Errorf("read error %v", err)
						return
					}
				}
			}()
		}
		view.Close()
		wg.Wait()
	}
}

// Handles dropped while values made from them live: a value keeps its struct type and
// schema reachable, so the schema's native state outlives every use.
func TestValuesOutliveTheirSchemaHandle(t *testing.T) {
	var v *fbe.Value
	var st *fbe.StructType
	func() {
		s := loadProto(t)
		st = s.MustStruct("Order")
		v = st.MustNew(fbe.Fields{"id": 9, "symbol": "X"})
	}()
	for i := 0; i < 5; i++ {
		runtime.GC()
	}
	b, err := v.Encode(fbe.Final)
	if err != nil {
		t.Fatal(err)
	}
	w, err := st.Decode(b, fbe.Final)
	if err != nil || !w.Equal(v) || w.String() != v.String() {
		t.Fatalf("after GC: %v %v", w, err)
	}
}

// Peers closed while other goroutines send through them: each call answers or fails
// with the closed peer's error (the sender's own, or its writer's, the closed receiver,
// as an I/O error).
func TestPeerCloseWhileSending(t *testing.T) {
	s := loadProto(t)
	msg := s.MustStruct("OrderMessage").MustNew(fbe.Fields{"body": s.MustStruct("Order").MustNew(fbe.Fields{"id": 1})})
	for round := 0; round < 20; round++ {
		rcv, err := s.NewReceiver(func(*fbe.Value) {}, nil)
		if err != nil {
			t.Fatal(err)
		}
		snd, err := s.NewSender(rcv, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := 0; g < 3; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 30; i++ {
					if err := snd.Send(msg); err != nil && !errors.Is(err, fbe.ErrArgument) && !errors.Is(err, fbe.ErrIO) {
						t.Errorf("send: %v", err)
						return
					}
				}
			}()
		}
		rcv.Close()
		snd.Close()
		wg.Wait()
	}
}

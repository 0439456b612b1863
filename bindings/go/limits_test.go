package fbe_test

import (
	"errors"
	"strings"
	"testing"

	"libfbe.org/fbe"
)

// Limits are the core's: its ranges and texts when the schema is loaded, and every
// verify, decode, JSON read, view and receiver of the schema runs under them.
func TestLimits(t *testing.T) {
	_, err := fbe.Load("proto", &fbe.Options{Include: []string{schemas}, Limits: fbe.Limits{MaxDepth: 1000}})
	if !errors.Is(err, fbe.ErrRange) || !strings.Contains(err.Error(), "max_depth") {
		t.Fatalf("max_depth 1000: %v", err)
	}
	if _, err = fbe.Load("proto", &fbe.Options{Include: []string{schemas}, Limits: fbe.Limits{MaxMemory: -1}}); err == nil {
		t.Fatal("a negative max_memory loads")
	}

	big := loadProto(t)
	account := big.MustStruct("Account")
	v := account.MustNew(fbe.Fields{"id": 1, "name": strings.Repeat("n", 200)})
	b, err := v.Encode(fbe.Final)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := v.JSON()

	small, err := fbe.Load("proto", &fbe.Options{Include: []string{schemas}, Limits: fbe.Limits{MaxModelSize: 64}})
	if err != nil {
		t.Fatal(err)
	}
	st := small.MustStruct("Account")
	limited := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, fbe.ErrLimit) || !strings.Contains(err.Error(), "max_model_size") {
			t.Errorf("%s past max_model_size: %v", what, err)
		}
	}
	_, err = st.Decode(b, fbe.Final)
	limited("decode", err)
	_, err = st.Verify(b, fbe.Final)
	limited("verify", err)
	_, err = st.View(b, fbe.Final)
	limited("view", err)
	_, err = st.FromJSON(j)
	limited("JSON", err)

	var wire strings.Builder
	snd, _ := big.NewSender(&wire, nil)
	defer snd.Close()
	if err := snd.Send(big.MustStruct("AccountMessage").MustNew(fbe.Fields{"body": v})); err != nil {
		t.Fatal(err)
	}
	rcv, _ := small.NewReceiver(nil, nil)
	defer rcv.Close()
	limited("a frame", rcv.Feed([]byte(wire.String())))

	// the same bytes within the default limits
	if _, err := account.Decode(b, fbe.Final); err != nil {
		t.Fatal(err)
	}
}

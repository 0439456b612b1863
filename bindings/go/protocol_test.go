package fbe_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"libfbe.org/fbe"
)

func loadExchange(t testing.TB) *fbe.Schema {
	t.Helper()
	s, err := fbe.Load("exchange", &fbe.Options{Include: []string{schemas}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// wire writes to whatever it is pointed at (the peers are made one after the other).
type wire struct{ to io.Writer }

func (w *wire) Write(b []byte) (int, error) { return w.to.Write(b) }

// A client and a server wired to each other in memory: each one's writer is the other.
func TestClientServerRequestResponseReject(t *testing.T) {
	s := loadExchange(t)
	toServer := &wire{}
	client, err := s.NewClient(toServer, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := s.NewServer(client, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	toServer.to = server
	var next int64
	err = server.Handle("NewOrder", func(req *fbe.Value) (*fbe.Value, error) {
		if req.Str("symbol") == "" {
			return s.MustStruct("Reject").MustNew(fbe.Fields{"reason": "no symbol"}), nil
		}
		next++
		return s.MustStruct("OrderAccepted").MustNew(fbe.Fields{"order": next}), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	newOrder := s.MustStruct("NewOrder")
	reply, err := client.Request(context.Background(), newOrder.MustNew(fbe.Fields{"symbol": "EURUSD"}))
	if err != nil {
		t.Fatal(err)
	}
	if reply.Type().Name != "OrderAccepted" || reply.Int("order") != 1 {
		t.Fatalf("reply %v", reply)
	}
	_, err = client.Request(context.Background(), newOrder.MustNew(fbe.Fields{}))
	var fe *fbe.Error
	if !errors.Is(err, fbe.ErrRejected) || !errors.As(err, &fe) || fe.Reject == nil || fe.Reject.Str("reason") != "no symbol" {
		t.Fatalf("a rejected request: %v", err)
	}
	// not a request type: refused, nothing sent
	if _, err := client.Request(context.Background(), s.MustStruct("OrderAccepted").MustNew(nil)); err == nil {
		t.Fatal("a response sent as a request")
	}
	if client.Pending() != 0 {
		t.Fatalf("%d pending", client.Pending())
	}
}

// Timeouts and cancellation come from the context; the core's watchdog and reset end
// the requests.
func TestClientContextAndReset(t *testing.T) {
	s := loadExchange(t)
	client, err := s.NewClient(io.Discard, nil) // nobody answers
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	newOrder := s.MustStruct("NewOrder")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = client.Request(ctx, newOrder.MustNew(fbe.Fields{"symbol": "A"}))
	if !errors.Is(err, fbe.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("past the deadline: %v", err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	call, err := client.Start(newOrder.MustNew(fbe.Fields{"symbol": "B"}), 0)
	if err != nil {
		t.Fatal(err)
	}
	cancel2()
	if _, err := client.Request(ctx2, newOrder.MustNew(fbe.Fields{"symbol": "C"})); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled context: %v", err)
	}
	client.Reset()
	<-call.Done()
	if _, err := call.Result(); !errors.Is(err, fbe.ErrReset) {
		t.Fatalf("a reset request: %v", err)
	}
	if client.Pending() != 0 {
		t.Fatalf("%d pending after reset", client.Pending())
	}
}

// A proxy passes frames on without decoding them.
func TestProxyFrames(t *testing.T) {
	s := loadExchange(t)
	var frames []fbe.Frame
	px, err := s.NewProxy(func(f fbe.Frame) { frames = append(frames, f) }, &fbe.ProxyOptions{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer px.Close()
	snd, err := s.NewSender(px, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer snd.Close()
	if err := snd.Send(s.MustStruct("NewOrder").MustNew(fbe.Fields{"symbol": "X"})); err != nil {
		t.Fatal(err)
	}
	if len(frames) != 1 || frames[0].Type == nil || frames[0].Type.Name != "NewOrder" || len(frames[0].Data) < 8 {
		t.Fatalf("frames %v", frames)
	}
}

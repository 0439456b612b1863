package fbe

// #include "peer.h"
import "C"

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// ClientOptions are a Client's: the peer's options, the cap on requests waiting at once
// (0: the core's default), the handler of received messages that answer no pending
// request (notifications), and the clock (nanoseconds of a clock that does not go back;
// nil: a monotonic clock) the core's timeouts are measured on (docs/CLIENT.md).
type ClientOptions struct {
	PeerOptions
	MaxPending int
	Notify     func(*Value)
	Clock      func() uint64
	// Ended, when set, gets every request as it ends, in the order the core ends them
	// (after its Done is closed): for a program that handles ends as events.
	Ended func(*Call)
}

// Client sends requests of a protocol and matches the responses and rejects it is
// fed (docs/CLIENT.md): the core's fbe_client does the rules (ids, timeouts, resets).
// Feed it what the other side sends (Write, ReadFrom, Feed). Safe for concurrent use.
type Client struct {
	p      *peer
	w      *lockedWriter
	notify func(*Value)
	ended  func(*Call)
	clock  func() uint64
	token  atomic.Uint64
	mu     sync.Mutex
	calls  map[uint64]*Call
}

// Call is one request in flight: Done is closed when it ends, then Result says how.
type Call struct {
	// Token names the request among the client's.
	Token uint64
	done  chan struct{}
	reply *Value
	err   error
}

// Done is closed when the request has ended.
func (c *Call) Done() <-chan struct{} { return c.done }

// Result is the response (nil for a request type without one), or the error the
// request ended with: a *Error with StatusRejected (its Reject the reject message),
// StatusTimeout or StatusReset. Valid once Done is closed.
func (c *Call) Result() (*Value, error) { return c.reply, c.err }

// NewClient makes a client of the schema's protocol that writes its requests to w.
func (s *Schema) NewClient(w io.Writer, opts *ClientOptions) (*Client, error) {
	if opts == nil {
		opts = &ClientOptions{}
	}
	p, err := newPeer(s, C.FBEGO_CLIENT, &opts.PeerOptions, opts.MaxPending, false)
	if err != nil {
		return nil, err
	}
	c := &Client{p: p, w: &lockedWriter{w: w}, notify: opts.Notify, ended: opts.Ended, clock: opts.Clock, calls: map[uint64]*Call{}}
	if c.clock == nil {
		start := time.Now()
		c.clock = func() uint64 { return uint64(time.Since(start)) }
	}
	return c, nil
}

// Start sends the request v and returns at once; timeout (0: none) is measured on the
// client's clock by Watchdog. A refused request (not a request type, a duplicate id,
// the cap) is an error, and nothing is sent.
func (c *Client) Start(v *Value, timeout time.Duration) (*Call, error) {
	call := &Call{Token: c.token.Add(1), done: make(chan struct{})}
	c.mu.Lock()
	c.calls[call.Token] = call
	c.mu.Unlock()
	t := getTape()
	defer putTape(t)
	if err := c.p.message(t, v); err != nil {
		c.forget(call)
		return nil, err
	}
	now := c.clock()
	h, err := c.p.call(func(cp *C.fbego_peer, cerr *C.fbe_error) C.int {
		return C.fbego_peer_request(cp, C.size_t(v.t.index), slotsPtr(t.num), C.uint32_t(len(t.num)), bytesPtr(t.bytes),
			C.uint32_t(len(t.bytes)), C.uint64_t(timeout), C.uint64_t(now), C.uint64_t(call.Token), cerr)
	})
	if err != nil {
		c.forget(call)
		c.deliver(h)
		return nil, err
	}
	if werr := c.w.emit(h); werr != nil {
		c.deliver(h)
		return call, werr
	}
	c.deliver(h)
	return call, nil
}

func (c *Client) forget(call *Call) {
	c.mu.Lock()
	delete(c.calls, call.Token)
	c.mu.Unlock()
}

// Request sends v and waits for its end: the response, or the error. The context's
// deadline is the request's timeout; when the context is done first, Request returns
// its error (the request stays pending in the client until it ends).
func (c *Client) Request(ctx context.Context, v *Value) (*Value, error) {
	var timeout time.Duration
	if dl, ok := ctx.Deadline(); ok {
		if timeout = time.Until(dl); timeout <= 0 {
			return nil, ctx.Err()
		}
	}
	call, err := c.Start(v, timeout)
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		timer := time.AfterFunc(timeout, func() { c.Watchdog() })
		defer timer.Stop()
	}
	select {
	case <-call.Done():
		return call.Result()
	case <-ctx.Done():
		c.Watchdog()
		select {
		case <-call.Done():
			return call.Result()
		default:
			return nil, ctx.Err()
		}
	}
}

// Send sends any message of the protocol as it is (a notification).
func (c *Client) Send(v *Value) error {
	h, err := c.p.send(v)
	c.deliver(h)
	if err != nil {
		return err
	}
	return c.w.emit(h)
}

// Feed takes received bytes: responses and rejects end their requests, other messages
// go to Notify. A bad frame is an error (what came before it is delivered).
func (c *Client) Feed(data []byte) error {
	h, err := c.p.feed(data)
	c.deliver(h)
	return err
}

// Write is Feed, for io.Writer.
func (c *Client) Write(data []byte) (int, error) {
	if err := c.Feed(data); err != nil {
		return 0, err
	}
	return len(data), nil
}

// ReadFrom feeds the client everything r gives, until EOF.
func (c *Client) ReadFrom(r io.Reader) (int64, error) { return readAll(r, c.Feed) }

// Watchdog ends the requests past their timeout now (on the client's clock): how many.
func (c *Client) Watchdog() int { return c.WatchdogAt(c.clock()) }

// WatchdogAt ends the requests past their timeout at the time now: how many.
func (c *Client) WatchdogAt(now uint64) int {
	var n int
	h, _ := c.p.call(func(cp *C.fbego_peer, _ *C.fbe_error) C.int {
		n = int(C.fbego_peer_watchdog(cp, C.uint64_t(now)))
		return 0
	})
	c.deliver(h)
	return n
}

// Reset ends every pending request (StatusReset) and drops a partial frame.
func (c *Client) Reset() {
	h, _ := c.p.call(func(cp *C.fbego_peer, _ *C.fbe_error) C.int {
		C.fbego_peer_reset(cp)
		return 0
	})
	c.deliver(h)
}

// Pending is how many requests wait for their response.
func (c *Client) Pending() int { return c.p.pending() }

// Close frees the client; pending requests never end.
func (c *Client) Close() error { c.p.close(); return nil }

// deliver ends the calls and notifies, in the order the core reported them.
func (c *Client) deliver(h happened) {
	for _, e := range h.events {
		switch e.kind {
		case C.FBEGO_EV_MESSAGE:
			if c.notify != nil {
				c.notify(e.msg)
			}
		case C.FBEGO_EV_END:
			c.mu.Lock()
			call := c.calls[e.token]
			delete(c.calls, e.token)
			c.mu.Unlock()
			if call == nil {
				continue
			}
			switch e.end {
			case C.FBE_REQUEST_RESPONDED:
				call.reply = e.msg
			case C.FBE_REQUEST_SENT:
			default:
				if e.err != nil {
					if e.end == C.FBE_REQUEST_REJECTED {
						e.err.Reject = e.msg
					}
					call.err = e.err
				}
			}
			close(call.done)
			if c.ended != nil {
				c.ended(call)
			}
		}
	}
}

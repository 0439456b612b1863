package fbe

// #include "peer.h"
import "C"

import (
	"io"
	"sync"
)

// Sender writes messages of a protocol (FORMAT.md 9.2) to an io.Writer: each one a
// frame of the peer's model. Safe for concurrent use.
type Sender struct {
	p *peer
	w *lockedWriter
}

// NewSender makes a sender of the schema's protocol that writes to w.
func (s *Schema) NewSender(w io.Writer, opts *PeerOptions) (*Sender, error) {
	p, err := newPeer(s, C.FBEGO_SENDER, opts, 0, false)
	if err != nil {
		return nil, err
	}
	return &Sender{p: p, w: &lockedWriter{w: w}}, nil
}

// Send writes v, a message of the protocol.
func (s *Sender) Send(v *Value) error {
	h, err := s.p.send(v)
	if err != nil {
		return err
	}
	return s.w.emit(h)
}

// Close frees the sender's native state (the garbage collector does it otherwise).
func (s *Sender) Close() error { s.p.close(); return nil }

// Receiver reads messages of a protocol from the bytes it is given (in pieces of any
// size) and hands each one to its handler. It is an io.Writer (Write feeds it) and an
// io.ReaderFrom (ReadFrom feeds it all of a reader).
type Receiver struct {
	p       *peer
	handler func(*Value)
}

// NewReceiver makes a receiver of the schema's protocol; handler gets every message.
func (s *Schema) NewReceiver(handler func(*Value), opts *PeerOptions) (*Receiver, error) {
	p, err := newPeer(s, C.FBEGO_RECEIVER, opts, 0, false)
	if err != nil {
		return nil, err
	}
	return &Receiver{p: p, handler: handler}, nil
}

// Feed takes received bytes. A bad frame is an error; the messages before it have
// reached the handler, and the receiver starts again at the next bytes.
func (r *Receiver) Feed(data []byte) error {
	h, err := r.p.feed(data)
	for _, e := range h.events {
		if r.handler != nil && e.msg != nil {
			r.handler(e.msg)
		}
	}
	return err
}

// Write is Feed, for io.Writer.
func (r *Receiver) Write(data []byte) (int, error) {
	if err := r.Feed(data); err != nil {
		return 0, err
	}
	return len(data), nil
}

// ReadFrom feeds the receiver everything rd gives, until EOF.
func (r *Receiver) ReadFrom(rd io.Reader) (int64, error) { return readAll(rd, r.Feed) }

// Pending is how many bytes of an incomplete frame the receiver holds.
func (r *Receiver) Pending() int { return r.p.pending() }

// Close frees the receiver's native state.
func (r *Receiver) Close() error { r.p.close(); return nil }

// lockedWriter writes one call's frames at a time, in the order the calls sent them.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) emit(h happened) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return emit(l.w, h)
}

package fbe

// #include <stdlib.h>
// #include "peer.h"
import "C"

import (
	"encoding/binary"
	"io"
	"runtime"
	"sync"
	"unsafe"
)

// PeerOptions are what every peer of the protocol (Sender, Receiver, Client, Server,
// Proxy) takes: the package whose protocol it speaks ("" : the schema's root package;
// its imports' messages too, FORMAT.md 9.4), the model of its frames, and a log hook
// that gets "send " or "receive " and the message's text form, for every message.
type PeerOptions struct {
	Package string
	Model   Model
	Log     func(line string)
}

// peer is the C object of one peer and what its last call saw (peer.h). Calls are
// serialized: the core's peers are not for concurrent use.
type peer struct {
	mu     sync.Mutex
	c      *C.fbego_peer
	schema *Schema
	log    func(line string)
	closed bool
}

// happened is what one call's callbacks gathered, copied out of C memory.
type happened struct {
	out    []byte
	events []event
	log    []string
}

type event struct {
	kind   int
	end    int
	token  uint64
	msg    *Value
	typeID uint32
	known  bool
	frame  []byte
	err    *Error
	st     *StructType
}

func newPeer(s *Schema, role C.int, opts *PeerOptions, maxPending int, verify bool) (*peer, error) {
	if opts == nil {
		opts = &PeerOptions{}
	}
	pkg := cstr(opts.Package)
	defer cfree(pkg)
	logOn, verifyOn := C.int(0), C.int(0)
	if opts.Log != nil {
		logOn = 1
	}
	if verify {
		verifyOn = 1
	}
	var err C.fbe_error
	c := C.fbego_peer_new(role, s.c, pkg, C.int(opts.Model), C.size_t(maxPending), verifyOn, logOn, &err)
	if c == nil {
		return nil, errorOf(&err)
	}
	p := &peer{c: c, schema: s, log: opts.Log}
	runtime.SetFinalizer(p, func(p *peer) { C.fbego_peer_free(p.c) })
	return p, nil
}

func (p *peer) closedError() error {
	return &Error{Status: StatusArgument, Message: "the peer is closed", Offset: NoOffset}
}

// close frees the C object; calls after it fail.
func (p *peer) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		C.fbego_peer_free(p.c)
		runtime.SetFinalizer(p, nil)
	}
}

// collect copies what the last call gathered (called with mu held).
func (p *peer) collect() happened {
	c := p.c
	var h happened
	if c.out.size > 0 {
		h.out = C.GoBytes(unsafe.Pointer(c.out.data), C.int(c.out.size))
	}
	if c.log.size > 0 {
		raw := unsafe.Slice((*byte)(unsafe.Pointer(c.log.data)), int(c.log.size))
		for len(raw) >= 4 {
			n := int(binary.LittleEndian.Uint32(raw))
			h.log = append(h.log, string(raw[4:4+n]))
			raw = raw[4+n:]
		}
	}
	if c.nevents == 0 {
		return h
	}
	events := unsafe.Slice(c.events, int(c.nevents))
	var num []int64
	var bytes []byte
	if c.num_len > 0 {
		num = unsafe.Slice((*int64)(unsafe.Pointer(c.num)), int(c.num_len))
	}
	if c.bytes_len > 0 {
		bytes = unsafe.Slice((*byte)(unsafe.Pointer(c.bytes)), int(c.bytes_len))
	}
	for i := range events {
		e := &events[i]
		ev := event{kind: int(e.kind), end: int(e.end), token: uint64(e.token), typeID: uint32(e.type_id), known: e.known != 0}
		if e.si >= 0 {
			ev.st = p.schema.structs[int(e.si)]
		}
		if e.si >= 0 && e.kind != C.FBEGO_EV_FRAME {
			r := reader{num: num, bytes: bytes, n: int(e.n), p: int(e.p)}
			ev.msg = r.structValue(ev.st)
		}
		if e.kind == C.FBEGO_EV_FRAME {
			ev.frame = C.GoBytes(unsafe.Pointer(uintptr(unsafe.Pointer(c.frames.data))+uintptr(e.at)), C.int(e.size))
		}
		if e.has_err != 0 {
			ev.err = errorOf(&e.err)
		}
		h.events = append(h.events, ev)
	}
	return h
}

// call runs one C operation under the lock and copies out what it saw; the log hook runs
// after the lock is released.
func (p *peer) call(op func(c *C.fbego_peer, err *C.fbe_error) C.int) (happened, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return happened{}, p.closedError()
	}
	var cerr C.fbe_error
	rc := op(p.c, &cerr)
	h := p.collect()
	runtime.KeepAlive(p.schema)
	p.mu.Unlock()
	if p.log != nil {
		for _, line := range h.log {
			p.log(line)
		}
	}
	if rc != 0 {
		return h, errorOf(&cerr)
	}
	return h, nil
}

// message checks that v is a value of this peer's schema and puts it on t.
func (p *peer) message(t *tape, v *Value) error {
	if v == nil || v.t == nil || v.t.schema != p.schema {
		return &Error{Status: StatusArgument, Message: "not a value of this peer's schema", Offset: NoOffset}
	}
	return v.t.flatten(t, v)
}

func (p *peer) send(v *Value) (happened, error) {
	t := getTape()
	defer putTape(t)
	if err := p.message(t, v); err != nil {
		return happened{}, err
	}
	return p.call(func(c *C.fbego_peer, err *C.fbe_error) C.int {
		return C.fbego_peer_send(c, C.size_t(v.t.index), slotsPtr(t.num), C.uint32_t(len(t.num)), bytesPtr(t.bytes),
			C.uint32_t(len(t.bytes)), err)
	})
}

func (p *peer) feed(data []byte) (happened, error) {
	h, err := p.call(func(c *C.fbego_peer, err *C.fbe_error) C.int {
		return C.fbego_peer_feed(c, bytesPtr(data), C.size_t(len(data)), err)
	})
	runtime.KeepAlive(data)
	return h, err
}

func (p *peer) pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0
	}
	return int(C.fbego_peer_pending(p.c))
}

// emit writes what a call sent to w.
func emit(w io.Writer, h happened) error {
	if len(h.out) == 0 || w == nil {
		return nil
	}
	if _, err := w.Write(h.out); err != nil {
		return &Error{Status: StatusIO, Message: err.Error(), Offset: NoOffset}
	}
	return nil
}

// readAll feeds everything r gives to feed, until EOF.
func readAll(r io.Reader, feed func([]byte) error) (int64, error) {
	buf := make([]byte, 64<<10)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			total += int64(n)
			if ferr := feed(buf[:n]); ferr != nil {
				return total, ferr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

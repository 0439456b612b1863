package fbe

// #include "peer.h"
import "C"

import (
	"io"
	"runtime"
	"sync"
)

// ServerOptions are a Server's: the peer's options and the handler of requests no
// Handle names (nil: they are dropped).
type ServerOptions struct {
	PeerOptions
	Default func(req *Value)
}

// Server receives requests of a protocol and answers them: a handler per request type
// (Handle), replies given the request's id by the core's rule (fbe_reply_prepare).
// Feed it what clients send (Write, ReadFrom, Feed); replies go to its io.Writer.
type Server struct {
	p        *peer
	w        *lockedWriter
	mu       sync.RWMutex
	handlers map[*StructType]func(req *Value) (*Value, error)
	fallback func(req *Value)
}

// NewServer makes a server of the schema's protocol that writes its replies to w.
func (s *Schema) NewServer(w io.Writer, opts *ServerOptions) (*Server, error) {
	if opts == nil {
		opts = &ServerOptions{}
	}
	p, err := newPeer(s, C.FBEGO_SERVER, &opts.PeerOptions, 0, false)
	if err != nil {
		return nil, err
	}
	return &Server{p: p, w: &lockedWriter{w: w}, handlers: map[*StructType]func(*Value) (*Value, error){},
		fallback: opts.Default}, nil
}

// Handle answers requests of the named type ("Name" or "pkg.Name") with what h returns:
// a reply (its response or one of its rejects), nil for none.
func (srv *Server) Handle(typeName string, h func(req *Value) (*Value, error)) error {
	st, err := srv.p.schema.Struct(typeName)
	if err != nil {
		return err
	}
	srv.mu.Lock()
	srv.handlers[st] = h
	srv.mu.Unlock()
	return nil
}

// Feed takes received bytes and runs the handlers of the requests in them. A bad frame
// is an error (the requests before it are handled); so is a handler's error or a
// reply the core refuses (the first one).
func (srv *Server) Feed(data []byte) error {
	h, err := srv.p.feed(data)
	for _, e := range h.events {
		if e.msg == nil {
			continue
		}
		srv.mu.RLock()
		handler := srv.handlers[e.msg.t]
		srv.mu.RUnlock()
		if handler == nil {
			if srv.fallback != nil {
				srv.fallback(e.msg)
			}
			continue
		}
		reply, herr := handler(e.msg)
		if herr == nil && reply != nil {
			herr = srv.Reply(e.msg, reply)
		}
		if herr != nil && err == nil {
			err = herr
		}
	}
	return err
}

// Write is Feed, for io.Writer.
func (srv *Server) Write(data []byte) (int, error) {
	if err := srv.Feed(data); err != nil {
		return 0, err
	}
	return len(data), nil
}

// ReadFrom feeds the server everything r gives, until EOF.
func (srv *Server) ReadFrom(r io.Reader) (int64, error) { return readAll(r, srv.Feed) }

// Reply sends reply as the answer to req: its id set to the request's (an error when
// reply is not req's response or one of its rejects).
func (srv *Server) Reply(req, reply *Value) error {
	t := getTape()
	defer putTape(t)
	if err := srv.p.message(t, req); err != nil {
		return err
	}
	if err := srv.p.message(t, reply); err != nil {
		return err
	}
	h, err := srv.p.call(func(c *C.fbego_peer, cerr *C.fbe_error) C.int {
		return C.fbego_peer_reply(c, C.size_t(req.t.index), C.size_t(reply.t.index), slotsPtr(t.num),
			C.uint32_t(len(t.num)), bytesPtr(t.bytes), C.uint32_t(len(t.bytes)), cerr)
	})
	if err != nil {
		return err
	}
	return srv.w.emit(h)
}

// Send sends any message of the protocol as it is (a notification).
func (srv *Server) Send(v *Value) error {
	h, err := srv.p.send(v)
	if err != nil {
		return err
	}
	return srv.w.emit(h)
}

// Close frees the server's native state.
func (srv *Server) Close() error { srv.p.close(); return nil }

// Frame is one frame a Proxy passed on: its type id, its type when the protocol has it
// (nil otherwise), and its bytes as received (the size field included).
type Frame struct {
	TypeID uint32
	Type   *StructType
	Data   []byte
}

// ProxyOptions are a Proxy's: the peer's options, and Verify to refuse a bad frame of a
// known type.
type ProxyOptions struct {
	PeerOptions
	Verify bool
}

// Proxy splits received bytes into frames without decoding them (fbe_proxy_new).
type Proxy struct {
	p       *peer
	handler func(Frame)
}

// NewProxy makes a proxy of the schema's protocol; handler gets every frame.
func (s *Schema) NewProxy(handler func(Frame), opts *ProxyOptions) (*Proxy, error) {
	if opts == nil {
		opts = &ProxyOptions{}
	}
	p, err := newPeer(s, C.FBEGO_PROXY, &opts.PeerOptions, 0, opts.Verify)
	if err != nil {
		return nil, err
	}
	return &Proxy{p: p, handler: handler}, nil
}

// Feed takes received bytes; a bad frame (with Verify) is an error after the frames
// before it.
func (px *Proxy) Feed(data []byte) error {
	h, err := px.p.feed(data)
	for _, e := range h.events {
		if px.handler != nil {
			var st *StructType
			if e.known {
				st = e.st
			}
			px.handler(Frame{TypeID: e.typeID, Type: st, Data: e.frame})
		}
	}
	runtime.KeepAlive(px)
	return err
}

// Write is Feed, for io.Writer.
func (px *Proxy) Write(data []byte) (int, error) {
	if err := px.Feed(data); err != nil {
		return 0, err
	}
	return len(data), nil
}

// Close frees the proxy's native state.
func (px *Proxy) Close() error { px.p.close(); return nil }

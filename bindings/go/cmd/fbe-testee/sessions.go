package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"libfbe.org/fbe"
)

// The conversations (docs/TESTEE.md, "Conversations"): sessions that are an fbe.Client,
// an fbe.Server or an fbe.Proxy, driven through the public API only. The runner plays
// the wire (what a session writes is the answer's "hex") and the clock (the client's
// Clock reads the session's `now`, set from each request).

var sessionOps = map[string]bool{"client": true, "server": true, "proxy": true, "request": true, "feed": true,
	"watchdog": true, "reset": true, "serve": true, "reply": true, "send": true, "close": true}

func isSessionOp(op string) bool { return sessionOps[op] }

type session struct {
	kind    string
	schema  *fbe.Schema
	pkg     string
	wire    bytes.Buffer
	now     uint64
	client  *fbe.Client
	server  *fbe.Server
	proxy   *fbe.Proxy
	tokens  map[*fbe.Call]uint64 // the runner's name of each request
	ended   []*fbe.Call          // in the order they ended, since the last answer
	lists   map[string][]string  // notified, requests, frames: since the last answer
	log     []string
	held    []*fbe.Value // the requests a server received, numbered from 0
	failure error        // an item that could not be written (a bug of the testee)
}

type sessions struct{ open map[string]*session }

func newSessions() *sessions { return &sessions{open: map[string]*session{}} }

func (s *session) close() {
	switch {
	case s.client != nil:
		s.client.Close()
	case s.server != nil:
		s.server.Close()
	case s.proxy != nil:
		s.proxy.Close()
	}
}

func (t *testee) closeSessions() {
	for _, s := range t.sessions.open {
		s.close()
	}
	t.sessions.open = map[string]*session{}
}

func (s *session) push(list string, v *fbe.Value) {
	j, err := itemJSON(v, false)
	if err != nil && s.failure == nil {
		s.failure = err
	}
	s.lists[list] = append(s.lists[list], j)
}

func (t *testee) startSession(r *request) (string, error) {
	if r.Session == nil {
		return "", fmt.Errorf(`request needs "session"`)
	}
	if _, open := t.sessions.open[*r.Session]; open {
		return "", fmt.Errorf("a session of that name is open")
	}
	schema, err := t.schema(r.Package)
	if err != nil {
		return "", err
	}
	m, err := model(r)
	if err != nil {
		return "", err
	}
	s := &session{kind: r.Op, schema: schema, pkg: r.Package, tokens: map[*fbe.Call]uint64{}, lists: map[string][]string{}}
	peer := fbe.PeerOptions{Package: r.Package, Model: m}
	if r.Log && r.Op != "proxy" {
		peer.Log = func(line string) { s.log = append(s.log, line) }
	}
	switch r.Op {
	case "client":
		var maxPending int
		if r.MaxPending != nil {
			maxPending = int(*r.MaxPending)
		}
		s.client, err = schema.NewClient(&s.wire, &fbe.ClientOptions{PeerOptions: peer, MaxPending: maxPending,
			Notify: func(v *fbe.Value) { s.push("notified", v) },
			Clock:  func() uint64 { return s.now },
			Ended:  func(c *fbe.Call) { s.ended = append(s.ended, c) }})
	case "server":
		s.server, err = schema.NewServer(&s.wire, &fbe.ServerOptions{PeerOptions: peer,
			Default: func(v *fbe.Value) { s.held = append(s.held, v); s.push("requests", v) }})
	default:
		s.proxy, err = schema.NewProxy(func(f fbe.Frame) {
			s.lists["frames"] = append(s.lists["frames"],
				fmt.Sprintf(`{"type_id":%d,"known":%t,"hex":"%s"}`, f.TypeID, f.Type != nil, hex.EncodeToString(f.Data)))
		}, &fbe.ProxyOptions{PeerOptions: peer, Verify: r.Verify})
	}
	if err != nil {
		return "", err
	}
	t.sessions.open[*r.Session] = s
	return ok().done(), nil
}

// message is the value of the request's "type" (P's own "Name" or "pkg.Name") and "json".
func (s *session) message(r *request) (*fbe.Value, error) {
	name := s.pkg + "." + r.Type
	if strings.Contains(r.Type, ".") {
		if _, err := s.schema.Struct(r.Type); err == nil {
			name = r.Type
		}
	}
	st, err := s.schema.Struct(name)
	if err != nil {
		return nil, err
	}
	return st.FromJSON(r.JSON)
}

func (t *testee) conversation(r *request) (string, error) {
	switch r.Op {
	case "client", "server", "proxy":
		return t.startSession(r)
	}
	if r.Session == nil {
		return "", fmt.Errorf(`request needs "session"`)
	}
	s := t.sessions.open[*r.Session]
	if s == nil {
		return "", fmt.Errorf("no such session")
	}
	switch r.Op {
	case "close":
		s.close()
		delete(t.sessions.open, *r.Session)
		return ok().done(), nil
	case "request":
		if s.client == nil {
			return "", fmt.Errorf("not a client session")
		}
		v, err := s.message(r)
		if err != nil {
			return "", err
		}
		s.now = r.Now
		call, err := s.client.Start(v, time.Duration(r.Timeout))
		if call != nil {
			s.tokens[call] = r.Token
		}
		return s.answer(err, true, "ended")
	case "feed", "serve":
		if (r.Op == "serve") != (s.server != nil) {
			return "", fmt.Errorf("a %s session is not fed by %q", s.kind, r.Op)
		}
		data, err := hex.DecodeString(r.Hex)
		if err != nil {
			return "", err
		}
		step := len(data) // 0 or absent: whole
		if r.ChunkSize != nil && *r.ChunkSize != 0 {
			step = *r.ChunkSize
		}
		if step < 0 {
			return "", fmt.Errorf(`"chunk_size" must be a positive integer`)
		}
		var ferr error
		if len(data) == 0 {
			ferr = s.feed(data)
		}
		for at := 0; ferr == nil && at < len(data); at += step {
			end := at + step
			if end > len(data) {
				end = len(data)
			}
			ferr = s.feed(data[at:end])
		}
		switch s.kind {
		case "client":
			return s.answer(ferr, false, "ended", "notified")
		case "server":
			return s.answer(ferr, false, "requests")
		}
		return s.answer(ferr, false, "frames")
	case "watchdog", "reset":
		if s.client == nil {
			return "", fmt.Errorf("not a client session")
		}
		if r.Op == "reset" {
			s.client.Reset()
		} else {
			s.client.WatchdogAt(r.Now)
		}
		return s.answer(nil, false, "ended")
	case "reply":
		if s.server == nil {
			return "", fmt.Errorf("not a server session")
		}
		if r.Request == nil || *r.Request < 0 || *r.Request >= len(s.held) {
			return "", fmt.Errorf("no such request")
		}
		v, err := s.message(r)
		if err != nil {
			return "", err
		}
		return s.answer(s.server.Reply(s.held[*r.Request], v), true)
	default: // send
		v, err := s.message(r)
		if err != nil {
			return "", err
		}
		switch {
		case s.client != nil:
			return s.answer(s.client.Send(v), true, "ended")
		case s.server != nil:
			return s.answer(s.server.Send(v), true)
		}
		return "", fmt.Errorf("a proxy sends nothing")
	}
}

func (s *session) feed(data []byte) error {
	switch {
	case s.client != nil:
		return s.client.Feed(data)
	case s.server != nil:
		return s.server.Feed(data)
	}
	return s.proxy.Feed(data)
}

// endJSON is the END of a request that ended (docs/TESTEE.md).
func (s *session) endJSON(c *fbe.Call) (string, error) {
	token := s.tokens[c]
	delete(s.tokens, c)
	reply, err := c.Result()
	if err == nil {
		if reply == nil {
			return fmt.Sprintf(`{"token":%d,"end":"sent"}`, token), nil
		}
		item, jerr := itemJSON(reply, false)
		return fmt.Sprintf(`{"token":%d,"end":"responded",%s`, token, item[1:]), jerr
	}
	var fe *fbe.Error
	if !errors.As(err, &fe) {
		return "", err
	}
	status := fmt.Sprintf(`"status":%s,"error":%s`, quote(fe.Status.Name()), quote(fe.Error()))
	switch {
	case errors.Is(err, fbe.ErrRejected) && fe.Reject != nil:
		item, jerr := itemJSON(fe.Reject, false)
		return fmt.Sprintf(`{"token":%d,"end":"rejected",%s,%s}`, token, item[1:len(item)-1], status), jerr
	case errors.Is(err, fbe.ErrTimeout):
		return fmt.Sprintf(`{"token":%d,"end":"timeout",%s}`, token, status), nil
	}
	return fmt.Sprintf(`{"token":%d,"end":"reset",%s}`, token, status), nil
}

// answer is ok or the core's error, the bytes sent since the last answer (hex), the
// lists the op reports, then the log lines, if any.
func (s *session) answer(opErr error, withHex bool, lists ...string) (string, error) {
	var fe *fbe.Error
	if opErr != nil && !errors.As(opErr, &fe) {
		return "", opErr // not the library's error: a bug of the testee
	}
	var b strings.Builder
	if opErr == nil {
		b.WriteString(`{"ok":true`)
	} else {
		fmt.Fprintf(&b, `{"ok":false,"status":%s,"error":%s`, quote(fe.Status.Name()), quote(fe.Error()))
	}
	if withHex {
		fmt.Fprintf(&b, `,"hex":"%s"`, hex.EncodeToString(s.wire.Bytes()))
	}
	s.wire.Reset()
	for _, name := range lists {
		items := s.lists[name]
		if name == "ended" {
			items = nil
			for _, c := range s.ended {
				j, err := s.endJSON(c)
				if err != nil {
					return "", err
				}
				items = append(items, j)
			}
			s.ended = nil
		}
		fmt.Fprintf(&b, `,"%s":[%s]`, name, strings.Join(items, ","))
		delete(s.lists, name)
	}
	if len(s.log) > 0 {
		q := make([]string, len(s.log))
		for i, line := range s.log {
			q[i] = quote(line)
		}
		fmt.Fprintf(&b, `,"log":[%s]`, strings.Join(q, ","))
		s.log = nil
	}
	if s.failure != nil {
		err := s.failure
		s.failure = nil
		return "", err
	}
	return b.String() + "}", nil
}

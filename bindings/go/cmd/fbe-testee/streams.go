package main

import "fmt"

// Streams and conversations come with the binding's Sender, Receiver, Client, Server and
// Proxy (not yet in this binding): until then these requests are unknown ops.

type sessions struct{}

func newSessions() *sessions { return &sessions{} }

func (t *testee) closeSessions() {}

func isSessionOp(op string) bool { return false }

func (t *testee) conversation(r *request) (string, error) { return "", fmt.Errorf("unknown op %q", r.Op) }

func (t *testee) streamEncode(r *request) (string, error) { return "", fmt.Errorf("unknown op %q", r.Op) }

func (t *testee) streamDecode(r *request) (string, error) { return "", fmt.Errorf("unknown op %q", r.Op) }

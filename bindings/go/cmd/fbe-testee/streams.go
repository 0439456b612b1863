package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"libfbe.org/fbe"
)

// Streams (stream-encode, stream-decode) go through the binding's Sender and Receiver.

// itemJSON is one stream item or message: {"schema":PKG,"type":"Name","json":VALUE}
// when withSchema, else {"type":"pkg.Name","json":VALUE}.
func itemJSON(v *fbe.Value, withSchema bool) (string, error) {
	j, err := v.JSON()
	if err != nil {
		return "", err
	}
	st := v.Type()
	if withSchema {
		pkg := st.FullName[:len(st.FullName)-len(st.Name)-1]
		return fmt.Sprintf(`{"schema":%s,"type":%s,"json":%s}`, quote(pkg), quote(st.Name), j), nil
	}
	return fmt.Sprintf(`{"type":%s,"json":%s}`, quote(st.FullName), j), nil
}

func quote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

func (t *testee) streamEncode(r *request) (string, error) {
	s, err := t.schema(r.Package)
	if err != nil {
		return "", err
	}
	m, err := model(r)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	snd, err := s.NewSender(&out, &fbe.PeerOptions{Package: r.Package, Model: m})
	if err != nil {
		return "", err
	}
	defer snd.Close()
	for _, item := range r.Messages {
		st, err := s.Struct(item.Schema + "." + item.Type)
		if err != nil {
			return "", err
		}
		v, err := st.FromJSON(item.JSON)
		if err != nil {
			return "", err
		}
		if err := snd.Send(v); err != nil {
			return "", err
		}
	}
	return ok().str("hex", hex.EncodeToString(out.Bytes())).done(), nil
}

// pieces cuts data as stream-decode asks: the sizes of chunks, then the rest in pieces
// of chunkSize, or as one piece (docs/TESTEE.md).
func pieces(data []byte, chunks []int, chunkSize *int) ([][]byte, error) {
	if chunkSize != nil && *chunkSize <= 0 {
		return nil, fmt.Errorf(`"chunk_size" must be a positive integer`)
	}
	var out [][]byte
	pos := 0
	for _, n := range chunks {
		if n < 0 {
			return nil, fmt.Errorf(`"chunks" must be an array of non-negative integers`)
		}
		if n > len(data)-pos {
			n = len(data) - pos
		}
		out = append(out, data[pos:pos+n])
		pos += n
	}
	if chunkSize != nil {
		for pos < len(data) {
			n := *chunkSize
			if n > len(data)-pos {
				n = len(data) - pos
			}
			out = append(out, data[pos:pos+n])
			pos += n
		}
	} else if pos < len(data) || len(chunks) == 0 {
		out = append(out, data[pos:])
	}
	return out, nil
}

func (t *testee) streamDecode(r *request) (string, error) {
	s, err := t.schema(r.Package)
	if err != nil {
		return "", err
	}
	m, err := model(r)
	if err != nil {
		return "", err
	}
	data, err := hex.DecodeString(r.Hex)
	if err != nil {
		return "", err
	}
	parts, err := pieces(data, r.Chunks, r.ChunkSize)
	if err != nil {
		return "", err
	}
	var items []string
	var itemErr error
	rcv, err := s.NewReceiver(func(v *fbe.Value) {
		j, err := itemJSON(v, true)
		if err != nil && itemErr == nil {
			itemErr = err
		}
		items = append(items, j)
	}, &fbe.PeerOptions{Package: r.Package, Model: m})
	if err != nil {
		return "", err
	}
	defer rcv.Close()
	for _, p := range parts {
		if err := rcv.Feed(p); err != nil {
			return "", err
		}
	}
	if itemErr != nil {
		return "", itemErr
	}
	return ok().raw("messages", []byte("["+join(items)+"]")).num("pending", int64(rcv.Pending())).done(), nil
}

func join(items []string) string {
	var b bytes.Buffer
	for i, s := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s)
	}
	return b.String()
}

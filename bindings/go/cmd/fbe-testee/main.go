// Command fbe-testee is the Go testee of the cross-language conformance runner
// (docs/TESTEE.md): one JSON request per stdin line, one JSON response per stdout line,
// a thin loop over the public API of libfbe.org/fbe.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"libfbe.org/fbe"
)

// request is one line of the protocol; members a request does not have stay zero.
type request struct {
	Op        string            `json:"op"`
	Include   []string          `json:"include"`
	Packages  map[string]string `json:"packages"`
	Files     []string          `json:"files"`
	Package   string            `json:"package"`
	Type      string            `json:"type"`
	Model     *string           `json:"model"`
	JSON      json.RawMessage   `json:"json"`
	Hex       string            `json:"hex"`
	Native    bool              `json:"native"`
	Trusted   bool              `json:"trusted"`
	View      bool              `json:"view"`
	Messages  []streamMessage   `json:"messages"`
	Chunks    []int             `json:"chunks"`
	ChunkSize *int              `json:"chunk_size"`
	Session   *string           `json:"session"`
	// the conversations' members (docs/TESTEE.md, "Conversations")
	MaxPending *uint64 `json:"max_pending"`
	Log        bool    `json:"log"`
	Verify     bool    `json:"verify"`
	Request    *int    `json:"request"`
	Timeout    uint64  `json:"timeout"`
	Now        uint64  `json:"now"`
	Token      uint64  `json:"token"`
	raw        []byte
}

type streamMessage struct {
	Schema string          `json:"schema"`
	Type   string          `json:"type"`
	JSON   json.RawMessage `json:"json"`
}

// answer is a response under construction: members in order, raw JSON kept as is.
type answer struct {
	b strings.Builder
}

func ok() *answer {
	a := &answer{}
	a.b.WriteString(`{"ok":true`)
	return a
}

func (a *answer) str(name, v string) *answer {
	q, _ := json.Marshal(v)
	return a.raw(name, q)
}

func (a *answer) raw(name string, v []byte) *answer {
	q, _ := json.Marshal(name)
	a.b.WriteByte(',')
	a.b.Write(q)
	a.b.WriteByte(':')
	a.b.Write(v)
	return a
}

func (a *answer) num(name string, v int64) *answer {
	return a.raw(name, []byte(strconv.FormatInt(v, 10)))
}

func (a *answer) done() string { return a.b.String() + "}" }

// failure is the error response: the core's status and text, or (not the library's
// error) the text alone.
func failure(err error) string {
	var fe *fbe.Error
	q, _ := json.Marshal(err.Error())
	if errors.As(err, &fe) {
		return fmt.Sprintf(`{"ok":false,"status":"%s","error":%s}`, fe.Status.Name(), q)
	}
	return fmt.Sprintf(`{"ok":false,"error":%s}`, q)
}

var packageName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

type testee struct {
	include  []string
	schemas  map[string]*fbe.Schema
	tmp      string // the "packages" of the last load, as NAME.fbe files
	sessions *sessions
}

func (t *testee) removeTmp() {
	if t.tmp != "" {
		os.RemoveAll(t.tmp)
		t.tmp = ""
	}
}

func (t *testee) load(r *request) (string, error) {
	t.closeSessions()
	t.schemas = map[string]*fbe.Schema{}
	t.removeTmp()
	t.include = nil
	if r.Packages != nil {
		dir, err := os.MkdirTemp("", "fbe-testee-")
		if err != nil {
			return "", err
		}
		t.tmp = dir
		for name, text := range r.Packages {
			if !packageName.MatchString(name) {
				return "", fmt.Errorf(`"packages": %q is not a package name`, name)
			}
			if err := os.WriteFile(filepath.Join(dir, name+".fbe"), []byte(text), 0o644); err != nil {
				return "", err
			}
		}
		t.include = append(t.include, dir)
	}
	t.include = append(t.include, r.Include...)
	for _, f := range r.Files {
		if _, err := fbe.LoadFile(f, &fbe.Options{Include: t.include}); err != nil {
			return "", err
		}
	}
	return ok().done(), nil
}

func (t *testee) schema(pkg string) (*fbe.Schema, error) {
	if s, found := t.schemas[pkg]; found {
		return s, nil
	}
	if !packageName.MatchString(pkg) {
		return nil, fmt.Errorf("%q is not a package name", pkg)
	}
	s, err := fbe.Load(pkg, &fbe.Options{Include: t.include})
	if err != nil {
		return nil, err
	}
	t.schemas[pkg] = s
	return s, nil
}

func (t *testee) structOf(r *request) (*fbe.StructType, error) {
	s, err := t.schema(r.Package)
	if err != nil {
		return nil, err
	}
	return s.Struct(r.Package + "." + r.Type)
}

func model(r *request) (fbe.Model, error) {
	if r.Model == nil {
		return fbe.Standard, nil
	}
	return fbe.ParseModel(*r.Model)
}

func (t *testee) handle(r *request) (string, error) {
	switch r.Op {
	case "load":
		return t.load(r)
	case "encode":
		st, err := t.structOf(r)
		if err != nil {
			return "", err
		}
		m, err := model(r)
		if err != nil {
			return "", err
		}
		var v *fbe.Value
		if r.Native {
			doc, err := parseOrdered(r.JSON)
			if err != nil {
				return "", err
			}
			switch x := nativeStruct(st, doc).(type) {
			case fbe.Fields:
				v, err = st.New(x)
				if err != nil {
					return "", err
				}
				b, err := v.Encode(m)
				if err != nil {
					return "", err
				}
				return ok().str("hex", hex.EncodeToString(b)).done(), nil
			default: // not an object: what Encode says of it
				b, err := st.EncodeAny(x, m)
				if err != nil {
					return "", err
				}
				return ok().str("hex", hex.EncodeToString(b)).done(), nil
			}
		}
		v, err = st.FromJSON(r.JSON)
		if err != nil {
			return "", err
		}
		b, err := v.Encode(m)
		if err != nil {
			return "", err
		}
		return ok().str("hex", hex.EncodeToString(b)).done(), nil
	case "decode", "text":
		st, err := t.structOf(r)
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
		if r.View { // answered from a view (always verified)
			view, err := st.View(data, m)
			if err != nil {
				return "", err
			}
			defer view.Close()
			if r.Op == "text" {
				s, err := view.Text()
				if err != nil {
					return "", err
				}
				return ok().str("text", s).done(), nil
			}
			j, err := view.JSON()
			if err != nil {
				return "", err
			}
			return ok().raw("json", j).done(), nil
		}
		var v *fbe.Value
		if r.Trusted {
			v, err = st.DecodeTrusted(data, m)
		} else {
			v, err = st.Decode(data, m)
		}
		if err != nil {
			return "", err
		}
		if r.Op == "text" { // the binding's own printing: the value's text form
			s, err := v.Text()
			if err != nil {
				return "", err
			}
			return ok().str("text", s).done(), nil
		}
		j, err := v.JSON()
		if err != nil {
			return "", err
		}
		return ok().raw("json", j).done(), nil
	case "verify":
		st, err := t.structOf(r)
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
		size, verr := st.Verify(data, m)
		if verr != nil {
			return ok().raw("valid", []byte("false")).str("reason", verr.Error()).done(), nil
		}
		return ok().raw("valid", []byte("true")).num("size", int64(size)).done(), nil
	case "stream-encode":
		return t.streamEncode(r)
	case "stream-decode":
		return t.streamDecode(r)
	}
	if r.Session != nil || isSessionOp(r.Op) {
		return t.conversation(r)
	}
	return "", fmt.Errorf("unknown op %q", r.Op)
}

func main() {
	t := &testee{schemas: map[string]*fbe.Schema{}, sessions: newSessions()}
	defer t.removeTmp()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var r request
			var resp string
			if jerr := json.Unmarshal(line, &r); jerr != nil {
				resp = failure(jerr)
			} else if r.Op == "quit" {
				break
			} else {
				r.raw = line
				resp = t.safe(&r)
			}
			out.WriteString(resp)
			out.WriteByte('\n')
			out.Flush()
		}
		if err != nil {
			break
		}
	}
}

// safe answers every request: an error of any kind (a panic included) is an error
// response, never a crash.
func (t *testee) safe(r *request) (resp string) {
	defer func() {
		if p := recover(); p != nil {
			resp = failure(fmt.Errorf("panic: %v", p))
		}
	}()
	s, err := t.handle(r)
	if err != nil {
		return failure(err)
	}
	return s
}

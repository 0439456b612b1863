// The Go driver of the hostile suite (tests/hostile/README.md): runs ONE operation with
// the default limits and prints one JSON line, {"result":"ok","detail":...} or
// {"result":"error","type":class,"status":the core's status,"message":...}.
//
//	driver OP SCHEMA TYPE INPUT [final]      (the operations of driver.py)
//
// run.py builds it (go build, with a replace to bindings/go) into its output directory.
// Only the binding's *fbe.Error (and a re-encoding that differs) becomes an error line:
// a panic or a fatal runtime error (a stack overflow) is left to kill the process, as a
// crash is in the other drivers.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"

	"libfbe.org/fbe"
)

const chunk = 65536

// mismatch is a re-encoding that gave other bytes (driver.py's AssertionError).
type mismatch struct{ got, want int }

func (m mismatch) Error() string {
	return fmt.Sprintf("re-encoding gave other bytes (%d, not %d)", m.got, m.want)
}

// buildChain: levels bodies linked by `next`, built from the innermost out (no recursion).
func buildChain(st *fbe.StructType, levels int) (*fbe.Value, error) {
	value, err := st.New(fbe.Fields{"v": levels - 1})
	for i := levels - 2; i >= 0 && err == nil; i-- {
		value, err = st.New(fbe.Fields{"v": i, "next": value})
	}
	return value, err
}

func run(op, schemaPath, typeName, input string, model fbe.Model) (string, error) {
	if op == "load" {
		if _, err := fbe.LoadFile(input, nil); err != nil {
			return "", err
		}
		return "loaded", nil
	}
	schema, err := fbe.LoadFile(schemaPath, nil)
	if err != nil {
		return "", err
	}
	var st *fbe.StructType
	if op != "receive" {
		if st, err = schema.Struct(typeName); err != nil {
			return "", err
		}
	}
	switch op {
	case "encode_chain", "deep_hash", "deep_eq", "deep_repr", "deep_json":
		levels, err := strconv.Atoi(input)
		if err != nil {
			return "", err
		}
		value, err := buildChain(st, levels)
		if err != nil {
			return "", err
		}
		switch op {
		case "encode_chain":
			b, err := value.Encode(fbe.Standard)
			return fmt.Sprintf("%d bytes", len(b)), err
		case "deep_hash": // Go has no hash of a value
			return "no hash in this binding", nil
		case "deep_eq":
			other, err := buildChain(st, levels)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("equal %v", value.Equal(other)), nil
		case "deep_repr":
			return fmt.Sprintf("%d characters", len(value.String())), nil
		default:
			j, err := value.JSON()
			return fmt.Sprintf("%d characters", len(j)), err
		}
	}
	data, err := os.ReadFile(input)
	if err != nil {
		return "", err
	}
	switch op {
	case "decode":
		_, err = st.Decode(data, model)
		return "decoded", err
	case "verify":
		size, err := st.Verify(data, model)
		return fmt.Sprintf("model size %d", size), err
	case "reencode":
		v, err := st.Decode(data, model)
		if err != nil {
			return "", err
		}
		again, err := v.Encode(model)
		if err != nil {
			return "", err
		}
		if string(again) != string(data) {
			return "", mismatch{len(again), len(data)}
		}
		return fmt.Sprintf("same %d bytes", len(again)), nil
	case "from_json":
		_, err = st.FromJSON(data)
		return "read", err
	case "receive":
		count := 0
		receiver, err := schema.NewReceiver(func(*fbe.Value) { count++ },
			&fbe.PeerOptions{Package: typeName, Model: model})
		if err != nil {
			return "", err
		}
		defer receiver.Close()
		for at := 0; at < len(data); at += chunk {
			end := at + chunk
			if end > len(data) {
				end = len(data)
			}
			if err := receiver.Feed(data[at:end]); err != nil {
				return "", err
			}
		}
		return fmt.Sprintf("%d messages, %d bytes pending", count, receiver.Pending()), nil
	}
	fmt.Fprintln(os.Stderr, "unknown op "+op)
	os.Exit(2)
	return "", nil
}

func main() {
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: driver OP SCHEMA TYPE INPUT [final]")
		os.Exit(2)
	}
	model := fbe.Standard
	if len(os.Args) > 5 && os.Args[5] == "final" {
		model = fbe.Final
	}
	detail, err := run(os.Args[1], os.Args[2], os.Args[3], os.Args[4], model)
	var line map[string]any
	var fe *fbe.Error
	var mm mismatch
	switch {
	case err == nil:
		line = map[string]any{"result": "ok", "detail": detail}
	case errors.As(err, &fe):
		line = map[string]any{"result": "error", "type": fe.Status.Class(), "status": fe.Status.Name(),
			"message": fe.Error()}
	case errors.As(err, &mm):
		line = map[string]any{"result": "error", "type": "mismatch", "status": nil, "message": mm.Error()}
	default: // not the binding's error (a file that cannot be read): no result line
		fmt.Fprintln(os.Stderr, "driver:", err)
		os.Exit(2)
	}
	out, _ := json.Marshal(line)
	fmt.Println(string(out))
}

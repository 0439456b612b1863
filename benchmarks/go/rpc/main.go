// Command rpc is the request/response benchmark's Go side (benchmarks/rpc/README.md): a
// server or a client of schemas/exchange.fbe over a TCP loopback socket, on fbe.Server
// and fbe.Client.
//
//	rpc server PORT_FILE       listens on a free loopback port, writes it to PORT_FILE,
//	                           serves until the client closes
//	rpc client PORT N WINDOW   N NewOrder requests, WINDOW in flight; checks every one;
//	                           prints {"requests":N,"seconds":S,"ok":true}
//
// The server's rule, the same in every language: a NewOrder of quantity q is accepted
// with order = q, unless q is a multiple of 10, which is rejected with reason "q".
package main

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"libfbe.org/fbe"
)

func main() {
	schemas := os.Getenv("FBE_SCHEMAS")
	if schemas == "" {
		schemas = filepath.Join("..", "..", "schemas")
	}
	schema, err := fbe.LoadFile(filepath.Join(schemas, "exchange.fbe"), &fbe.Options{Include: []string{schemas}})
	if err != nil {
		fail(err)
	}
	switch {
	case len(os.Args) == 3 && os.Args[1] == "server":
		serve(schema, os.Args[2])
	case len(os.Args) == 5 && os.Args[1] == "client":
		n, _ := strconv.Atoi(os.Args[3])
		window, _ := strconv.Atoi(os.Args[4])
		os.Exit(request(schema, os.Args[2], n, window))
	default:
		fmt.Fprintln(os.Stderr, "usage: rpc server PORT_FILE | rpc client PORT N WINDOW")
		os.Exit(2)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "rpc:", err)
	os.Exit(1)
}

func serve(schema *fbe.Schema, portFile string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := os.WriteFile(portFile, []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
		fail(err)
	}
	conn, err := ln.Accept()
	if err != nil {
		fail(err)
	}
	conn.(*net.TCPConn).SetNoDelay(true)
	out := bufio.NewWriter(conn) // flushed after each piece read is served
	server, err := schema.NewServer(out, nil)
	if err != nil {
		fail(err)
	}
	accepted, reject := schema.MustStruct("OrderAccepted"), schema.MustStruct("Reject")
	server.Handle("NewOrder", func(req *fbe.Value) (*fbe.Value, error) {
		q := int64(req.Float("quantity")) // a double in the schema; the quantities are whole
		if q%10 == 0 {
			return reject.New(fbe.Fields{"reason": strconv.FormatInt(q, 10)})
		}
		return accepted.New(fbe.Fields{"order": q})
	})
	buf := make([]byte, 64<<10)
	for {
		n, err := conn.Read(buf)
		if n > 0 {
			if ferr := server.Feed(buf[:n]); ferr != nil {
				fail(ferr)
			}
			if ferr := out.Flush(); ferr != nil {
				fail(ferr)
			}
		}
		if err != nil { // the client closed: done
			return
		}
	}
}

func request(schema *fbe.Schema, port string, n, window int) int {
	conn, err := net.Dial("tcp", "127.0.0.1:"+port)
	if err != nil {
		fail(err)
	}
	conn.(*net.TCPConn).SetNoDelay(true)
	client, err := schema.NewClient(conn, nil)
	if err != nil {
		fail(err)
	}
	go client.ReadFrom(conn) // responses end their calls as they arrive
	newOrder := schema.MustStruct("NewOrder")
	wrong := 0
	t0 := time.Now()
	type flight struct {
		q    int64
		call *fbe.Call
	}
	inFlight := make([]flight, 0, window)
	for q := int64(1); q <= int64(n); q++ {
		call, err := client.Start(newOrder.MustNew(fbe.Fields{"quantity": q}), 0)
		if err != nil {
			fail(err)
		}
		inFlight = append(inFlight, flight{q, call})
		if len(inFlight) < window && q < int64(n) {
			continue
		}
		for _, f := range inFlight {
			<-f.call.Done()
			reply, err := f.call.Result()
			if f.q%10 == 0 {
				if !errors.Is(err, fbe.ErrRejected) {
					wrong++
				}
			} else if err != nil || reply.Int("order") != f.q {
				wrong++
			}
		}
		inFlight = inFlight[:0]
	}
	seconds := time.Since(t0).Seconds()
	fmt.Printf("{\"requests\":%d,\"seconds\":%.4f,\"ok\":%t}\n", n, seconds, wrong == 0)
	conn.Close()
	if wrong != 0 {
		return 1
	}
	return 0
}

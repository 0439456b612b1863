#!/usr/bin/env bash
# The "go" stage of ci/test.sh: builds and tests the Go binding (bindings/go, module
# libfbe.org/fbe).
#   1. tools/vendor.sh: the core vendored into the module (core/, zcore_*.c; gitignored)
#   2. status.go regenerated from the core's status table: it must not change
#   3. gofmt, go vet ./... and go test ./... (API, errors, views, streams,
#      client/server/proxy, memory after a million cycles; the testee through the shared
#      runner over every conformance file, the regression directories, the behaviour
#      records and the conversations); the lifetime and concurrency tests again under
#      the race detector
#   4. the module installed the way a user installs it: a consumer module in an empty
#      folder outside the repository that requires libfbe.org/fbe with a `replace` to
#      this directory (GOPROXY=off: nothing is downloaded), builds a program of its own
#      and the testee there, and runs that testee through the runner (vectors, behaviour
#      records, conversations)
# Prints each step with its duration; exits non-zero when any step failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
repo=$PWD
module=$repo/bindings/go

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
step_t0=0
step() {
  step_t0=$(now_us)
  printf -- '-- go: %s\n' "$1"
}
done_step() {
  local us=$(($(now_us) - step_t0))
  printf -- '-- go: ... %d.%d s\n' $((us / 1000000)) $((us % 1000000 / 100000))
}

echo "go: $(go version)"
# at most two build jobs (the machine is shared with other stages' builds)
export GOFLAGS="${GOFLAGS:-} -p=2"

step "tools/vendor.sh (the core into the module)"
bash "$module/tools/vendor.sh"
done_step

step "status.go against the core's status table"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$module/status.go" "$tmp/status.go.committed"
python3 "$module/tools/gen_status.py"
if ! cmp -s "$module/status.go" "$tmp/status.go.committed"; then
  diff "$tmp/status.go.committed" "$module/status.go" || true
  echo "go: status.go is not what tools/gen_status.py makes of FBE_STATUS_LIST: commit the regenerated file"
  exit 1
fi
done_step

step "gofmt, go vet ./..."
unformatted=$(cd "$module" && gofmt -l .)
if [[ -n $unformatted ]]; then
  echo "go: not gofmt'ed: $unformatted"
  exit 1
fi
(cd "$module" && go vet ./...)
done_step

step "go test ./..."
(cd "$module" && go test -count=1 ./...)
done_step

step "go test -race: the lifetime and concurrency tests (Close while reading and sending, peers)"
(cd "$module" && go test -race -count=1 -run 'Close|Outlive|Client|Proxy|SenderReceiver' .)
done_step

step "the module in a consumer module outside the repository (replace), its testee through the runner"
consumer=$tmp/consumer
mkdir -p "$consumer"
cat >"$consumer/go.mod" <<MOD
module example.com/consumer

go 1.21

require libfbe.org/fbe v0.0.0

replace libfbe.org/fbe => $module
MOD
cat >"$consumer/main.go" <<'GO'
// A program of a user of the module: an Account through JSON, bytes and back.
package main

import (
	"fmt"
	"os"

	"libfbe.org/fbe"
)

func main() {
	s, err := fbe.Load("proto", &fbe.Options{Include: []string{os.Args[1]}})
	if err != nil {
		panic(err)
	}
	account := s.MustStruct("Account")
	v, err := account.FromJSON([]byte(`{"id":1,"name":"Test","state":6,"wallet":{"currency":"USD","amount":1000.0},"asset":null,"orders":[]}`))
	if err != nil {
		panic(err)
	}
	b, err := v.Encode(fbe.Standard)
	if err != nil {
		panic(err)
	}
	w, err := account.Decode(b, fbe.Standard)
	if err != nil || !w.Equal(v) {
		panic(fmt.Sprint("round trip: ", err))
	}
	fmt.Println(w)
}
GO
cp -r schemas "$tmp/schemas"
cp tests/conformance/vectors.jsonl tests/conformance/malformed.jsonl tests/conformance/malformed-extra.jsonl \
  tests/conformance/versioning.jsonl tests/conformance/conversations.jsonl "$tmp/"
(cd "$consumer" && GOPROXY=off go build -o "$tmp/account" . &&
  GOPROXY=off go build -o "$tmp/fbe-testee" libfbe.org/fbe/cmd/fbe-testee)
"$tmp/account" "$tmp/schemas"
(cd "$tmp" && python3 "$repo/tests/conformance/runner" --describe-testee none --text --view --testee "go=$tmp/fbe-testee" \
  --behaviour "$repo/tests/conformance/behaviour.jsonl" --conversations conversations.jsonl \
  -I schemas vectors.jsonl malformed.jsonl malformed-extra.jsonl versioning.jsonl)
done_step

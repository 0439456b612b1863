#!/usr/bin/env bash
# The CLI's JSON options (docs/C.md section 3, docs/JSON.md):
#  1. `fbe encode` refuses a member the type does not have (UNKNOWN_FIELD, with the
#     nearest name), `--ignore-unknown` skips it; `fbe stream encode` the same.
#  2. `fbe decode --enum-names` writes enum and flags names, `--int64-strings` 64-bit
#     integers as strings; the default output is unchanged; what the options write
#     encodes back to the same bytes; with --text they are refused.
#  3. `fbe stream decode` takes the two writer options too.
#
#   cli_json_options.sh FBE SCHEMAS_DIR
#   (FBE_EMULATOR, when set, is the command that runs FBE: qemu-user in a cross build)
set -euo pipefail

fbe=$1 schemas=$2
run() { ${FBE_EMULATOR:-} "$fbe" "$@"; }

fail() {
  echo "cli_json_options: FAILED: $*" >&2
  exit 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect EXIT EXPECTED_STDERR ARGS... (stdin from $tmp/in)
expect() {
  local want=$1 expected=$2 code=0
  shift 2
  run "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" || code=$?
  [[ $code == "$want" ]] || fail "fbe $* exited $code, expected $want (stderr: $(cat "$tmp/err"))"
  [[ $(cat "$tmp/err") == "$expected" ]] || fail "fbe $*: stderr '$(cat "$tmp/err")', expected '$expected'"
}

proto=(-I "$schemas" -p proto)

# 1. unknown members
echo '{"id":7,"symbl":"x"}' >"$tmp/in"
expect 1 "fbe: invalid JSON input: unknown field 'symbl' of proto.Order (did you mean 'symbol'?) (offset 8)" \
  encode "${proto[@]}" -t Order
[[ ! -s $tmp/out ]] || fail "encode of an unknown member wrote output"
expect 0 "" encode "${proto[@]}" -t Order --ignore-unknown -o "$tmp/lax.bin"
echo '{"id":7}' >"$tmp/in"
expect 0 "" encode "${proto[@]}" -t Order -o "$tmp/plain.bin"
cmp -s "$tmp/lax.bin" "$tmp/plain.bin" || fail "--ignore-unknown: not the bytes without the member"
echo '{"orders":[{},{"id":1,"zz":[1,{"a":null}]}]}' >"$tmp/in"
expect 1 "fbe: invalid JSON input: unknown field 'zz' of proto.Order at 'orders[1]' (offset 22)" \
  encode "${proto[@]}" -t Account
expect 0 "" encode "${proto[@]}" -t Account --ignore-unknown -o "$tmp/acc-lax.bin"
echo '{"orders":[{},{"id":1,"zz":[1,}]}' >"$tmp/in" # skipped members must still be JSON
expect 1 "fbe: invalid JSON input: unexpected character '}', expected a value at 'orders[1]' (offset 30)" \
  encode "${proto[@]}" -t Account --ignore-unknown

# 2. decode's writer options
: >"$tmp/in"
run encode "${proto[@]}" -t Account "$(dirname "$schemas")/benchmarks/data/account.json" -o "$tmp/acc.bin"
expect 0 "" decode "${proto[@]}" -t Account "$tmp/acc.bin"
[[ $(cat "$tmp/out") == "$(cat "$(dirname "$schemas")/benchmarks/data/account.json")" ]] ||
  fail "decode's default output changed: $(cat "$tmp/out")"
expect 0 "" decode "${proto[@]}" -t Account --enum-names "$tmp/acc.bin"
named=$(cat "$tmp/out")
for part in '"state":"initialized|calculated|good"' '"side":"buy","type":"market"' '"side":"sell","type":"limit"' \
  '"type":"stop"'; do
  [[ $named == *"$part"* ]] || fail "--enum-names: no $part in $named"
done
cp "$tmp/out" "$tmp/in"
expect 0 "" encode "${proto[@]}" -t Account -o "$tmp/acc-named.bin"
cmp -s "$tmp/acc.bin" "$tmp/acc-named.bin" || fail "--enum-names output does not encode to the same bytes"

test_pkg=(-I "$schemas" -p test)
echo '{"f21":-5,"f24":18446744073709551615,"f33":1543145597933000000,"f3":200}' >"$tmp/in"
expect 0 "" encode "${test_pkg[@]}" -t StructSimple -o "$tmp/simple.bin"
: >"$tmp/in"
expect 0 "" decode "${test_pkg[@]}" -t StructSimple --int64-strings "$tmp/simple.bin"
strings=$(cat "$tmp/out")
for part in '"f3":200,' '"f21":"-5",' '"f22":"9223372036854775807",' '"f24":"18446744073709551615",' \
  '"f33":"1543145597933000000",'; do
  [[ $strings == *"$part"* ]] || fail "--int64-strings: no $part in $strings"
done
cp "$tmp/out" "$tmp/in"
expect 0 "" encode "${test_pkg[@]}" -t StructSimple -o "$tmp/simple-strings.bin"
cmp -s "$tmp/simple.bin" "$tmp/simple-strings.bin" || fail "--int64-strings output does not encode to the same bytes"
: >"$tmp/in"
expect 0 "" decode "${test_pkg[@]}" -t StructSimple --int64-strings --enum-names --pretty "$tmp/simple.bin"
[[ $(cat "$tmp/out") == *'"f21": "-5",'* ]] || fail "--pretty --int64-strings: $(cat "$tmp/out")"
expect 2 "fbe: --pretty, --enum-names and --int64-strings are for JSON output, not --text" \
  decode "${proto[@]}" -t Account --text --enum-names "$tmp/acc.bin"

# 3. streams
printf '%s\n' '{"schema":"proto","type":"OrderMessage","json":{"body":{"id":1,"side":1,"zz":1}}}' >"$tmp/items.jsonl"
: >"$tmp/in"
expect 1 "fbe: line 1: proto.OrderMessage: unknown field 'zz' of proto.Order at 'body' (offset 25)" \
  stream encode "${proto[@]}" "$tmp/items.jsonl" -o "$tmp/stream.bin"
expect 0 "" stream encode "${proto[@]}" --ignore-unknown "$tmp/items.jsonl" -o "$tmp/stream.bin"
expect 0 "" stream decode "${proto[@]}" --enum-names "$tmp/stream.bin"
[[ $(cat "$tmp/out") == '{"schema":"proto","type":"OrderMessage","json":{"body":{"id":1,"symbol":"","side":"sell","type":"market","price":0.0,"volume":0.0}}}' ]] ||
  fail "stream decode --enum-names: $(cat "$tmp/out")"
expect 0 "" stream decode "${proto[@]}" "$tmp/stream.bin"
[[ $(cat "$tmp/out") == *'"side":1,"type":0,'* ]] || fail "stream decode's default changed: $(cat "$tmp/out")"

echo "cli_json_options: ok"

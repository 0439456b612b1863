#!/usr/bin/env bash
# `fbe decode` verifies first: bytes `fbe verify` refuses are refused with verify's
# reason, and `--trusted` decodes them without verifying (codec.h fbe_decode and
# fbe_decode_trusted).
#
#  1. The reference README Account (record pub-proto-Account-readme-standard of
#     vectors.jsonl) read as proto.Order: decode exits 1 with verify's reason (the type
#     id at offset 12), printing nothing; --trusted decodes it (exit 0, a JSON object).
#  2. proto.OrderMessage read by protoex.OrderMessage, whose type id differs (record
#     ver-proto-OrderMessage-readme-read-by-protoex of versioning.jsonl): decode refuses
#     it with the type id; --trusted gives the record's JSON value.
#  3. `fbe --help` documents --trusted and --text.
#  4. `fbe decode --text` (docs/TEXT.md) of the README Account prints its text form,
#     verified first like the JSON; --pretty with --text is refused (exit 2); the
#     testee's "text" request answers the same text.
#
#   cli_decode_verifies.sh FBE SCHEMAS_DIR CONFORMANCE_DIR
#   (FBE_EMULATOR, when set, is the command that runs FBE: qemu-user in a cross build)
set -euo pipefail

fbe=$1 schemas=$2 conformance=$3

fail() {
  echo "cli_decode_verifies: FAILED: $*" >&2
  exit 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# record FILE ID: the record's line
record() {
  local line
  line=$(grep -F "\"id\":\"$2\"" "$1") || fail "record $2 not found in $1"
  printf '%s' "$line"
}

# to_bytes LINE OUT: the record's hex as bytes (printf's \x escapes, no xxd needed)
to_bytes() {
  local hex
  hex=$(sed -E 's/.*"hex":"([0-9a-f]+)".*/\1/' <<<"$1")
  printf "$(sed 's/../\\x&/g' <<<"$hex")" >"$2"
}

# run NAME ARGS...: runs fbe, stdout to $tmp/NAME.out, stderr to $tmp/NAME.err; sets rc
run() {
  local name=$1
  shift
  rc=0
  ${FBE_EMULATOR:-} "$fbe" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
}

# reason NAME PREFIX: the error text after "fbe: PREFIX: " in $tmp/NAME.err
reason() {
  local err
  err=$(cat "$tmp/$1.err")
  [[ $err == "fbe: $2: "* ]] || fail "$1: stderr is not 'fbe: $2: ...': $err"
  printf '%s' "${err#"fbe: $2: "}"
}

# 1. Account bytes as proto.Order
to_bytes "$(record "$conformance/vectors.jsonl" pub-proto-Account-readme-standard)" "$tmp/account.bin"
opts=(-s "$schemas/proto.fbe" -t Order "$tmp/account.bin")
run verify verify "${opts[@]}"
((rc == 1)) || fail "fbe verify of an Account as Order: exit $rc, expected 1"
want=$(reason verify invalid)
[[ $want == "type id 3 where proto.Order (1) was expected (offset 12)" ]] ||
  fail "fbe verify of an Account as Order: unexpected reason: $want"
run decode decode "${opts[@]}"
((rc == 1)) || fail "fbe decode of an Account as Order: exit $rc, expected 1"
got=$(reason decode "cannot decode")
[[ $got == "$want" ]] || fail "fbe decode of an Account as Order says '$got', verify says '$want'"
[[ ! -s $tmp/decode.out ]] || fail "fbe decode of an Account as Order wrote: $(head -c 200 "$tmp/decode.out")"
run trusted decode --trusted "${opts[@]}"
((rc == 0)) || fail "fbe decode --trusted of an Account as Order: exit $rc: $(cat "$tmp/trusted.err")"
[[ $(cat "$tmp/trusted.out") == '{"id":1,'* ]] ||
  fail "fbe decode --trusted of an Account as Order: unexpected output $(head -c 200 "$tmp/trusted.out")"

# 2. a sibling message type of another schema version
line=$(record "$conformance/versioning.jsonl" ver-proto-OrderMessage-readme-read-by-protoex)
to_bytes "$line" "$tmp/message.bin"
opts=(-I "$schemas" -p protoex -t OrderMessage "$tmp/message.bin")
run sibling decode "${opts[@]}"
((rc == 1)) || fail "fbe decode of proto.OrderMessage as protoex.OrderMessage: exit $rc, expected 1"
got=$(reason sibling "cannot decode")
[[ $got == "type id 1 where protoex.OrderMessage (11) was expected (offset 12)" ]] ||
  fail "fbe decode of proto.OrderMessage as protoex.OrderMessage: unexpected reason: $got"
run sibling_trusted decode --trusted "${opts[@]}"
((rc == 0)) || fail "fbe decode --trusted of the sibling type: exit $rc: $(cat "$tmp/sibling_trusted.err")"
want=$(sed -E 's/.*"json":(\{.*\}),"hex".*/\1/' <<<"$line")
got=$(cat "$tmp/sibling_trusted.out")
[[ $got == "$want" ]] || fail "fbe decode --trusted of the sibling type: got $got, want $want"

# 3. the usage text
${FBE_EMULATOR:-} "$fbe" --help | grep -- '--trusted' >/dev/null || fail "fbe --help does not mention --trusted"
${FBE_EMULATOR:-} "$fbe" --help | grep -- '--text' >/dev/null || fail "fbe --help does not mention --text"

# 4. the text form
account_text='Account(id=1,name="Test",state=initialized|calculated|good,'\
'wallet=Balance(currency="USD",amount=1000.0),asset=Balance(currency="EUR",amount=100.0),'\
'orders=[3][Order(id=1,symbol="EURUSD",side=buy,type=market,price=1.23456,volume=1000.0),'\
'Order(id=2,symbol="EURUSD",side=sell,type=limit,price=1.0,volume=100.0),'\
'Order(id=3,symbol="EURUSD",side=buy,type=stop,price=1.5,volume=10.0)])'
run text decode --text -s "$schemas/proto.fbe" -t Account "$tmp/account.bin"
((rc == 0)) || fail "fbe decode --text of the README Account: exit $rc: $(cat "$tmp/text.err")"
[[ $(cat "$tmp/text.out") == "$account_text" ]] || fail "fbe decode --text: got $(cat "$tmp/text.out")"
run text_order decode --text -s "$schemas/proto.fbe" -t Order "$tmp/account.bin"
((rc == 1)) || fail "fbe decode --text of an Account as Order: exit $rc, expected 1"
got=$(reason text_order "cannot decode")
[[ $got == "type id 3 where proto.Order (1) was expected (offset 12)" ]] ||
  fail "fbe decode --text of an Account as Order: unexpected reason: $got"
run both decode --text --pretty -s "$schemas/proto.fbe" -t Account "$tmp/account.bin"
((rc == 2)) || fail "fbe decode --text --pretty: exit $rc, expected 2"
hex=$(sed -E 's/.*"hex":"([0-9a-f]+)".*/\1/' <<<"$(record "$conformance/vectors.jsonl" pub-proto-Account-readme-standard)")
printf '{"op":"load","include":["%s"]}\n{"op":"text","package":"proto","type":"Account","hex":"%s"}\n' \
  "$schemas" "$hex" | ${FBE_EMULATOR:-} "$fbe" testee >"$tmp/testee.out"
want="{\"ok\":true,\"text\":\"${account_text//\"/\\\"}\"}"
[[ $(sed -n 2p "$tmp/testee.out") == "$want" ]] || fail "testee text: got $(sed -n 2p "$tmp/testee.out"), want $want"

echo "cli_decode_verifies: ok"

#!/usr/bin/env bash
# Resource limits: `fbe decode` of the reference README Account (252 bytes; record
# pub-proto-Account-readme-standard of tests/conformance/vectors.jsonl) with its orders
# count (at offset 0x68) patched from 3 to 2^31-1. The decoder checks a count against
# the bytes present before it allocates anything, so it must fail at once with exit
# code 1 and an error that says so ("do not fit") at the count itself ("offset 104"),
# inside a 200 MB address space. (That, not a time limit, is the proof it did not walk
# or allocate the elements: a time limit would fail on a loaded machine or an emulator.)
#
#   decode_count_limit.sh FBE SCHEMAS_DIR VECTORS_JSONL [--no-ulimit]
#
# --no-ulimit: for sanitizer builds, whose shadow memory needs terabytes of address
# space (the error checks still apply).
set -euo pipefail

fbe=$1 schemas=$2 vectors=$3
limit_kb=200000
[[ ${4:-} == --no-ulimit ]] && limit_kb=""

fail() {
  echo "decode_count_limit: FAILED: $*" >&2
  exit 1
}

hex=$(grep -F '"id":"pub-proto-Account-readme-standard"' "$vectors" |
  sed -E 's/.*"hex":"([0-9a-f]+)".*/\1/')
((${#hex} == 504)) || fail "record pub-proto-Account-readme-standard not found (or not 252 bytes)"
[[ ${hex:208:8} == 03000000 ]] || fail "the orders count at 0x68 is not 3: ${hex:208:8}"
patched=${hex:0:208}ffffff7f${hex:216}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# hex to bytes with printf's \x escapes (no xxd needed)
printf "$(sed 's/../\\x&/g' <<<"$patched")" >"$tmp/account.bin"
(($(wc -c <"$tmp/account.bin") == 252)) || fail "patched model is not 252 bytes"

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
t0=$(now_us)
rc=0
(
  [[ -z $limit_kb ]] || ulimit -v "$limit_kb"
  exec "$fbe" decode -s "$schemas/proto.fbe" -t Account "$tmp/account.bin"
) >"$tmp/out" 2>"$tmp/err" || rc=$?
us=$(($(now_us) - t0))
err=$(cat "$tmp/err")
printf 'decode_count_limit: exit %d after %d.%03d s%s: %s\n' "$rc" $((us / 1000000)) \
  $((us / 1000 % 1000)) "${limit_kb:+ (ulimit -v $limit_kb)}" "$err"

((rc == 1)) || fail "exit code $rc, expected 1"
[[ $err == *"offset 104"* ]] || fail "the error does not name offset 104"
[[ $err == *"2147483647 elements do not fit"* ]] || fail "the error is not the up-front count check"
[[ ! -s $tmp/out ]] || fail "wrote output: $(head -c 200 "$tmp/out")"
echo "decode_count_limit: ok"

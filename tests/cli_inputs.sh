#!/usr/bin/env bash
# The CLI reads regular files only, with a cap, and says why it refuses one (file_read.h):
#  1. `fbe check /dev/zero` fails at once: "not a regular file" (it used to fill memory).
#  2. A FIFO and a directory are refused the same way, without blocking on the FIFO.
#  3. Schema files past FBE_SCHEMA_MAX_FILE_SIZE (64 MiB; a sparse file) are "too large".
#  4. Inputs of encode/decode/verify/dump get the same reasons.
#  5. A 10,000-deep inheritance chain (5e7 flattened field records) is refused at the
#     struct that takes the schema past FBE_SCHEMA_MAX_FIELDS.
#
#   cli_inputs.sh FBE SCHEMAS_DIR
#   (FBE_EMULATOR, when set, is the command that runs FBE: qemu-user in a cross build)
set -euo pipefail

fbe=$1 schemas=$2
run() { ${FBE_EMULATOR:-} "$fbe" "$@"; }

fail() {
  echo "cli_inputs: FAILED: $*" >&2
  exit 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_refusal EXPECTED_STDERR ARGS...: exit 1 (within 20 s), exactly that message
expect_refusal() {
  local expected=$1 code=0
  shift
  timeout 20 ${FBE_EMULATOR:-} "$fbe" "$@" >"$tmp/out" 2>"$tmp/err" || code=$?
  [[ $code == 1 ]] || fail "fbe $* exited $code (stderr: $(cat "$tmp/err"))"
  [[ $(cat "$tmp/err") == "$expected" ]] || fail "fbe $*: stderr '$(cat "$tmp/err")', expected '$expected'"
  [[ ! -s $tmp/out ]] || fail "fbe $* printed to stdout"
}

not_regular="not a regular file (a device, FIFO or directory)"
expect_refusal "/dev/zero: Cannot read file: $not_regular" check /dev/zero
mkfifo "$tmp/fifo.fbe"
expect_refusal "$tmp/fifo.fbe: Cannot read file: $not_regular" check "$tmp/fifo.fbe"
mkdir "$tmp/dir.fbe"
expect_refusal "$tmp/dir.fbe: Cannot read file: $not_regular" check "$tmp/dir.fbe"
expect_refusal "$tmp/none.fbe: Cannot read file: no such file" check "$tmp/none.fbe"

truncate -s $((64 * 1024 * 1024 + 1)) "$tmp/big.fbe"
expect_refusal "$tmp/big.fbe: Cannot read file: too large: 67108865 bytes, the limit is 67108864" \
  check "$tmp/big.fbe"

for cmd in verify decode dump; do
  expect_refusal "fbe: cannot read '/dev/zero': $not_regular" $cmd -s "$schemas/proto.fbe" -t Order /dev/zero
  expect_refusal "fbe: cannot read '$tmp/fifo.fbe': $not_regular" $cmd -s "$schemas/proto.fbe" -t Order "$tmp/fifo.fbe"
done
expect_refusal "fbe: cannot read '$tmp/dir.fbe': $not_regular" encode -s "$schemas/proto.fbe" -t Order "$tmp/dir.fbe"
truncate -s $((1024 * 1024 * 1024 + 1)) "$tmp/big.bin"
expect_refusal "fbe: cannot read '$tmp/big.bin': too large: 1073741825 bytes, the limit is 1073741824" \
  verify -s "$schemas/proto.fbe" -t Order "$tmp/big.bin"

{
  echo "package chain"
  echo "struct S0 { int32 f0; }"
  for ((i = 1; i < 10000; i++)); do echo "struct S$i : S$((i - 1)) { int32 f$i; }"; done
} >"$tmp/chain.fbe"
expect_refusal "$tmp/chain.fbe:1025:8: Struct S1023 takes the schema past 524288 fields in all (each struct counts its inherited fields)" \
  check "$tmp/chain.fbe"

echo "cli_inputs: ok"

#!/usr/bin/env bash
# `fbe testee` and `fbe stream` have no limit on names or packages (the schema language
# has none):
#
#  1. A testee `load` with "packages" (schema texts): 40 packages (one session used to
#     hold 32 at most) whose names are 100 characters and more (package names used to be
#     cut at 63, type names at 95); a message of the last, which imports the first, is
#     encoded, decoded, described and sent and received as a stream.
#  2. The packages' directory is gone after the next load and after the testee exits;
#     a package name that is not an identifier is refused with the reason.
#  3. `fbe stream encode | fbe stream decode` of a message whose package and type names
#     are that long gives the message back.
#
#   cli_testee_packages.sh FBE
#   (FBE_EMULATOR, when set, is the command that runs FBE: qemu-user in a cross build)
set -euo pipefail

fbe=$1

fail() {
  echo "cli_testee_packages: FAILED: $*" >&2
  exit 1
}

run() { ${FBE_EMULATOR:-} "$fbe" "$@"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/scratch" "$tmp/schemas"

long=$(printf 'x%.0s' {1..100})
first="first_$long"
last="last_$long"
type="Message_${long}_$long" # 209 characters
packages=""
for i in $(seq 1 38); do
  packages+="\"p${i}_$long\":\"package p${i}_$long\\nstruct S$i { int32 x; }\\n\","
done
packages+="\"$first\":\"package $first\\nstruct Inner { string s = \\\"\\\\u00e9\\\"; }\\n\","
packages+="\"$last\":\"package $last offset 100\\nimport $first\\nmessage $type { $first.Inner inner; int64 n = 7; }\\n\""
full_type=$type
value='{"inner":{"s":"caf\u00e9"},"n":-5}'

requests() {
  echo "{\"op\":\"load\",\"packages\":{$packages}}"
  echo "{\"op\":\"encode\",\"package\":\"$last\",\"type\":\"$full_type\",\"json\":$value}"
  echo "{\"op\":\"describe\",\"package\":\"$last\"}"
  echo "{\"op\":\"encode\",\"package\":\"p38_$long\",\"type\":\"S38\",\"json\":{\"x\":1}}"
  echo "{\"op\":\"stream-encode\",\"package\":\"$last\",\"messages\":[{\"schema\":\"$last\",\"type\":\"$full_type\",\"json\":$value}]}"
}
answers=$(requests | TMPDIR="$tmp/scratch" run testee)
[[ $(grep -c '"ok":true' <<<"$answers") == 5 ]] || fail "a request failed: $answers"
hex=$(sed -n 2p <<<"$answers" | sed 's/.*"hex":"\([0-9a-f]*\)".*/\1/')
stream=$(sed -n 5p <<<"$answers" | sed 's/.*"hex":"\([0-9a-f]*\)".*/\1/')
grep -q "\"name\":\"$last.$full_type\"" <<<"$(sed -n 3p <<<"$answers")" || fail "describe lost the long names"
[[ -z $(ls -A "$tmp/scratch") ]] || fail "the packages' directory is left after the testee exits: $(ls -A "$tmp/scratch")"

# decode and receive in a second session (the same texts, loaded again)
answers=$({
  echo "{\"op\":\"load\",\"packages\":{$packages}}"
  echo "{\"op\":\"decode\",\"package\":\"$last\",\"type\":\"$full_type\",\"hex\":\"$hex\"}"
  echo "{\"op\":\"stream-decode\",\"package\":\"$last\",\"hex\":\"$stream\",\"chunk_size\":3}"
  echo '{"op":"load","packages":{"a b":"package x"}}'
  echo '{"op":"load","include":[]}'
} | TMPDIR="$tmp/scratch" run testee)
want_json='{"inner":{"s":"café"},"n":-5}'
[[ $(sed -n 2p <<<"$answers") == "{\"ok\":true,\"json\":$want_json}" ]] || fail "decode: $(sed -n 2p <<<"$answers")"
[[ $(sed -n 3p <<<"$answers") == "{\"ok\":true,\"messages\":[{\"schema\":\"$last\",\"type\":\"$full_type\",\"json\":$want_json}],\"pending\":0}" ]] ||
  fail "stream-decode: $(sed -n 3p <<<"$answers")"
[[ $(sed -n 4p <<<"$answers") == *"'a b' is not a package name"* ]] || fail "a bad package name: $(sed -n 4p <<<"$answers")"
[[ -z $(ls -A "$tmp/scratch") ]] || fail "the packages' directory is left: $(ls -A "$tmp/scratch")"

# fbe stream with the same names, from schema files
printf 'package %s\nstruct Inner { string s; }\n' "$first" >"$tmp/schemas/$first.fbe"
printf 'package %s offset 100\nimport %s\nmessage %s { %s.Inner inner; int64 n = 7; }\n' \
  "$last" "$first" "$type" "$first" >"$tmp/schemas/$last.fbe"
line="{\"schema\":\"$last\",\"type\":\"$full_type\",\"json\":$want_json}"
echo "$line" >"$tmp/in.jsonl"
run stream encode -I "$tmp/schemas" -p "$last" "$tmp/in.jsonl" -o "$tmp/stream.bin" || fail "fbe stream encode"
run stream decode -I "$tmp/schemas" -p "$last" "$tmp/stream.bin" -o "$tmp/out.jsonl" || fail "fbe stream decode"
[[ $(cat "$tmp/out.jsonl") == "$line" ]] || fail "fbe stream: got $(cat "$tmp/out.jsonl"), want $line"
echo "cli_testee_packages: ok"

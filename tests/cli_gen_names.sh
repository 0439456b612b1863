#!/usr/bin/env bash
# `fbe gen c` refuses schemas where two things would meet in one C name (core/GEN_C.md,
# Names), naming both, and writes nothing:
#  1. struct A + struct A_init (A's init function), 2. a struct named like the compound
#  type vec_int32, 3. packages a (struct b_C) and a_b (struct C), 4. fields NULL and NULL_,
#  5. struct A's view accessor of field x and a struct A_view_x; and accepts 6. fields
#  named like the view's functions (open, from, view).
#   cli_gen_names.sh FBE
set -euo pipefail
fbe=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "cli_gen_names: FAILED: $*" >&2
  exit 1
}
# refused SCHEMA EXPECTED_LINE
refused() {
  local code=0
  mkdir -p "$tmp/out"
  ${FBE_EMULATOR:-} "$fbe" gen c -I "$tmp" "$1" -o "$tmp/out" 2>"$tmp/err" || code=$?
  [[ $code == 1 ]] || fail "$1: exit $code"
  grep -qxF "$2" "$tmp/err" || fail "$1: stderr '$(cat "$tmp/err")', expected '$2'"
  [[ -z $(ls "$tmp/out") ]] || fail "$1: files written"
}
printf 'package a\nstruct A { int32 x; }\nstruct A_init { int32 y; }\n' >"$tmp/one.fbe"
refused "$tmp/one.fbe" "fbe: gen c: the C name a_A_init stands for both struct a.A and struct a.A_init; rename one of them"
printf 'package p\nstruct vec_int32 { int32 x; }\nstruct B { int32[] v; }\n' >"$tmp/two.fbe"
refused "$tmp/two.fbe" "fbe: gen c: the C name p_vec_int32 stands for both struct p.vec_int32 and the C type of int32[]; rename one of them"
printf 'package a\nstruct b_C { int32 x; }\n' >"$tmp/a.fbe"
printf 'package a_b\nimport a\nstruct C { int32 y; }\n' >"$tmp/three.fbe"
refused "$tmp/three.fbe" "fbe: gen c: the C name a_b_C stands for both struct a.b_C and struct a_b.C; rename one of them"
printf 'package q\nstruct S { int32 NULL; bool NULL_; }\n' >"$tmp/four.fbe"
refused "$tmp/four.fbe" "fbe: gen c: struct q.S: the C name NULL_ stands for both field NULL and field NULL_; rename one of them"
printf 'package a\nstruct A { int32 x; }\nstruct A_view_x { int32 y; }\n' >"$tmp/five.fbe"
refused "$tmp/five.fbe" "fbe: gen c: the C name a_A_view_x stands for both struct a.A_view_x and the view accessor of a.A.x; rename one of them"
printf 'package v\nstruct S { int32 open; int32 from; int32 view; }\n' >"$tmp/six.fbe"
${FBE_EMULATOR:-} "$fbe" gen c -I "$tmp" "$tmp/six.fbe" -o "$tmp/six" 2>"$tmp/err" || fail "six.fbe: $(cat "$tmp/err")"
[[ -f $tmp/six/v.h ]] || fail "six.fbe: no v.h"
echo "cli_gen_names: ok"

#!/usr/bin/env bash
# ci/conformance.sh [--testees c,python,...] [--known-failures FILE] [--no-behaviour] [--no-text] [--no-native]
# [--no-view] [--no-conversations]
# [FILE.jsonl...]: the cross-language conformance matrix (tests/conformance/README.md). Builds what the
# named testees need (default: all of c, python, node, ruby, java, cpp) — the fbe tool
# (build/release; always, as it also gives the runner the field types by `describe`),
# the Python package into build/python/venv, the Node addon, the gem, the jar —
# registers every named testee that is built plus those of FBE_EXTRA_TESTEES (lines of
# NAME=COMMAND) (ci/testees.sh), and runs tests/conformance/runner over the given vectors
# files and regression directories (default: tests/conformance/vectors.jsonl and every
# tests/regressions/differential/NAME/), with the text check (--text: every testee's text
# of every decoded record, the C testee's) and the behaviour records (--behaviour
# tests/conformance/behaviour.jsonl: every bad input refused with its status, through the
# JSON and the native path) and the native encode (--native: every record's value built
# through each language's own constructors gives the record's bytes) and the view check
# (--view: every decode and text request again with "view": true, answered from a view of
# the bytes, gets the same answer) and the conversations (--conversations
# tests/conformance/conversations.jsonl: a client in every testee X and a server in every
# testee Y play each script, every answer c x c's); --no-text, --no-behaviour, --no-native,
# --no-view, --no-conversations
# leave them out (an outside testee without the text request, the native path or views).
# Prints the matrix; exits non-zero when a
# check failed, a listed known failure now passes (the runner's status 3), the C tool
# could not be built or a testee named by --testees could not (without --testees, one
# that cannot be built is left out with a warning).
# Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=$(nproc 2>/dev/null || echo 2)

wanted=c,python,node,ruby,java,go,rust,cpp
named=0 # 1: --testees given, so a testee that cannot be built fails the run
runner_options=()
files=()
behaviour=(--behaviour tests/conformance/behaviour.jsonl)
text=(--text)
native=(--native)
view=(--view)
conversations=(--conversations tests/conformance/conversations.jsonl)
while (($#)); do
  case $1 in
    --testees) wanted=${2:?--testees wants a list like c,python}; named=1; shift 2 ;;
    --testees=*) wanted=${1#*=}; named=1; shift ;;
    --known-failures) runner_options+=(--known-failures "${2:?--known-failures wants a file}"); shift 2 ;;
    --known-failures=*) runner_options+=(--known-failures "${1#*=}"); shift ;;
    --no-behaviour) behaviour=(); shift ;;
    --no-text) text=(); shift ;;
    --no-native) native=(); shift ;;
    --no-view) view=(); shift ;;
    --no-conversations) conversations=(); shift ;;
    -*) echo "conformance: unknown option $1 (want --testees LIST, --known-failures FILE, --no-behaviour, --no-text, --no-native, --no-view, --no-conversations)" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
if ((${#files[@]} == 0)); then
  files=(tests/conformance/vectors.jsonl)
  for dir in tests/regressions/differential/*/; do
    [[ -f $dir/record.jsonl ]] && files+=("$dir")
  done
fi

. ci/testees.sh
runner_options+=("${describe_options[@]}" "${text[@]}" "${native[@]}" "${view[@]}" "${behaviour[@]}" "${conversations[@]}")

status=0
python3 tests/conformance/runner "${runner_options[@]}" "${testees[@]}" "${files[@]}" || status=$?
if ((missing && !status)); then
  echo "conformance: a named testee could not be built (above)" >&2
  status=1
fi
exit "$status"

#!/usr/bin/env bash
# ci/differential.sh [--minutes M | --batch] [--seed S] [--schemas N] [--values M]
#                    [--testees LIST] [--known-failures FILE] [--shrink] [ARGS...]:
# the differential run (tests/conformance/differential.py, tests/conformance/README.md):
# random schema sets and values through every testee, built as ci/conformance.sh
# builds them (ci/testees.sh; the C tool is the oracle that encodes the values).
#
#   --batch       the fixed batch of the test command: seed 1, 50 schema sets x 20
#                 values, the known failures of tests/conformance/known-failures/differential.txt,
#                 with the text, native and view checks (every testee prints every value as
#                 C does, builds it through its own constructors into the same bytes, and
#                 answers every decode and text request through a view the same way)
#   --minutes M   a long run: new sets until M minutes are up (seed: --seed, default
#                 the current time), each new failure class shrunk into
#                 tests/regressions/differential/ (--shrink)
#   --no-build    use the testees an earlier run built (ci/conformance.sh) as they are
#
# Other ARGS go to differential.py (--write-known-failures FILE, --duplicates P, ...).
# Prints the failure classes, schema sets per hour and the cells checked; exits with
# differential.py's status (0 passed, 1 failed, 3 a listed known failure now passes),
# or 1 when a testee named by --testees could not be built. Works from any directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=$(nproc 2>/dev/null || echo 2)

wanted=c,python,node,ruby,java,go,rust,cpp
named=0
options=()
seed=""
while (($#)); do
  case $1 in
    --batch) options+=(--schemas 50 --values 20 --known-failures tests/conformance/known-failures/differential.txt
                       --text --native --view)
             seed=${seed:-1}; shift ;;
    --minutes) options+=(--minutes "${2:?--minutes wants a number}" --shrink); seed=${seed:-$(date +%s)}; shift 2 ;;
    --seed) seed=${2:?--seed wants a number}; shift 2 ;;
    --testees) wanted=${2:?--testees wants a list like c,python}; named=1; shift 2 ;;
    --no-build) export FBE_NO_BUILD=1; shift ;;
    *) options+=("$1"); shift ;;
  esac
done

. ci/testees.sh

status=0
python3 tests/conformance/differential.py --oracle "$c_testee" --seed "${seed:-1}" "${testees[@]}" \
  "${options[@]}" || status=$?
if ((missing && !status)); then
  echo "differential: a named testee could not be built (above)" >&2
  status=1
fi
exit "$status"

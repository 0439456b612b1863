# cpp_testee_conformance: the runner over every conformance file (the generated one made
# first with the C core, fixed seed), the regression directories, the behaviour records
# and the conversations, with the c and cpp testees; text, native and view checks on.
file(MAKE_DIRECTORY "${GENERATED}")
execute_process(
  COMMAND "${PYTHON}" "${REPO}/tests/conformance/gen/generate.py" --fbe "${C_TESTEE}"
    -I "${REPO}/schemas" -o "${GENERATED}/generated.jsonl"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "generate.py failed: ${err}")
endif()
file(GLOB regressions LIST_DIRECTORIES true "${REPO}/tests/regressions/differential/*")
set(files
  "${REPO}/tests/conformance/vectors.jsonl" "${REPO}/tests/conformance/malformed.jsonl"
  "${REPO}/tests/conformance/malformed-extra.jsonl" "${REPO}/tests/conformance/versioning.jsonl"
  "${GENERATED}/generated.jsonl")
execute_process(
  COMMAND "${PYTHON}" "${REPO}/tests/conformance/runner"
    --testee "c=${C_TESTEE} testee" --testee "cpp=${CPP_TESTEE}"
    --text --native --view
    --behaviour "${REPO}/tests/conformance/behaviour.jsonl"
    --conversations "${REPO}/tests/conformance/conversations.jsonl"
    ${files} ${regressions}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "[0-9]+ passed, [0-9]+ failed" summary "${out}")
message("${summary}")
if(NOT rc EQUAL 0 OR NOT summary MATCHES " 0 failed")
  message(FATAL_ERROR "runner failed (${rc}):\n${out}\n${err}")
endif()

/* Fuzz target: the JSON reader (fbe_msg_from_json) on one struct of the test schemas;
 * what reads is checked with every invariant of fuzz_common.h (encode, verify, decode,
 * equal, and JSON written back reads back equal).
 * Input: byte 0 chooses the struct (index % fuzz_struct_count()), the rest is JSON. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const fbe_struct *type = fuzz_struct_at(data[0] % fuzz_struct_count());
  const char *text = (const char *)data + 1;
  size_t length = size - 1;
  fbe_arena *arena = fbe_arena_new();
  FUZZ_CHECK(arena != NULL, "out of memory");
  fbe_msg *msg = NULL;
  fbe_error err;
  fbe_status rc = fbe_msg_from_json(type, text, length, arena, &msg, &err);
  if (rc) {
    /* json_reader.c: not JSON, a value of the wrong kind, text that is not a value of its
     * field (docs/INPUT.md), a member the struct does not have, out of range, too deep */
    fuzz_check_error("fbe_msg_from_json", rc, &err,
                     FUZZ_CODE(FBE_ERR_JSON) | FUZZ_CODE(FBE_ERR_TYPE) | FUZZ_CODE(FBE_ERR_ARGUMENT) |
                         FUZZ_CODE(FBE_ERR_UNKNOWN_FIELD) | FUZZ_CODE(FBE_ERR_RANGE) |
                         FUZZ_CODE(FBE_ERR_LIMIT),
                     length);
    FUZZ_CHECK(msg == NULL, "failed read returned a message");
  } else {
    FUZZ_CHECK(msg != NULL && fbe_msg_type(msg) == type, "read returned no message");
    fuzz_check_message(msg, FUZZ_FROM_JSON);
  }
  /* Memory used <= budget (json.h): the arena holds what was charged, in blocks that at
   * most double (and a red zone of 8 per allocation under ASan). */
  uint64_t budget = fbe_limits_memory(NULL, length);
  FUZZ_CHECK(fbe_arena_reserved(arena) <= 4 * budget + 8192,
             "reading %zu bytes of JSON reserved %zu bytes (budget %llu)", length,
             fbe_arena_reserved(arena), (unsigned long long)budget);
  fbe_arena_free(arena);
  return 0;
}

/* Instructions per operation, for callgrind: runs ONE operation of the C benchmark's
 * value (proto.Account, the reference README's) N times, so that the instructions of
 * N runs minus those of 0 runs, over N, is the cost of one - with no timer and no
 * machine noise. benchmarks/c/instructions.sh runs it for two builds side by side.
 * The count is the operation's as a caller pays it: the call, plus resetting the reused
 * output buffer (encode) or arena (decode) and the loop's few instructions.
 *
 *   fbe_instructions OP N [SCHEMAS_DIR]
 *   OP: encode_standard decode_standard decode_trusted_standard verify_standard, and
 *       the same with _final */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fbe/fbe.h"

static const char ACCOUNT_JSON[] =
    "{\"id\":1,\"name\":\"Test\",\"state\":6,"
    "\"wallet\":{\"currency\":\"USD\",\"amount\":1000.0},"
    "\"asset\":{\"currency\":\"EUR\",\"amount\":100.0},"
    "\"orders\":["
    "{\"id\":1,\"symbol\":\"EURUSD\",\"side\":0,\"type\":0,\"price\":1.23456,\"volume\":1000.0},"
    "{\"id\":2,\"symbol\":\"EURUSD\",\"side\":1,\"type\":1,\"price\":1.0,\"volume\":100.0},"
    "{\"id\":3,\"symbol\":\"EURUSD\",\"side\":0,\"type\":2,\"price\":1.5,\"volume\":10.0}]}";

static volatile uint64_t sink;

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: fbe_instructions OP N [SCHEMAS_DIR]\n");
    return 2;
  }
  const char *op = argv[1];
  long n = atol(argv[2]);
  const char *dirs[] = {argc > 3 ? argv[3] : "schemas"};
  fbe_load_options options = {dirs, 1};
  fbe_schema *schema = fbe_schema_load_package("proto", &options, NULL);
  const fbe_struct *type = schema ? fbe_schema_find_struct(schema, "Account") : NULL;
  if (!type) return 1;
  fbe_model model = strstr(op, "_final") ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
  fbe_error err;
  fbe_arena *arena = fbe_arena_new(), *work = fbe_arena_new();
  fbe_msg *value = NULL;
  fbe_buffer bytes, out;
  fbe_buffer_init(&bytes);
  fbe_buffer_init(&out);
  if (fbe_msg_from_json(type, ACCOUNT_JSON, strlen(ACCOUNT_JSON), arena, &value, &err) ||
      fbe_encode(value, model, &bytes, &err))
    return 1;
  /* The operation is chosen once, before the loop: each loop body is the call and what a
   * caller does beside it (reset the reused buffer or arena), so the count per operation
   * is the call's own plus a few instructions of loop - nothing of this harness. */
  enum { ENCODE, DECODE, DECODE_TRUSTED, VERIFY } which;
  if (!strncmp(op, "encode", 6)) which = ENCODE;
  else if (!strncmp(op, "decode_trusted", 14)) which = DECODE_TRUSTED;
  else if (!strncmp(op, "decode", 6)) which = DECODE;
  else if (!strncmp(op, "verify", 6)) which = VERIFY;
  else return 2;
  fbe_msg *back = NULL;
  size_t size = 0;
  switch (which) {
    case ENCODE:
      for (long i = 0; i < n; i++) {
        fbe_buffer_reset(&out);
        if (fbe_encode(value, model, &out, &err)) return 1;
        sink += out.size;
      }
      break;
    case DECODE:
      for (long i = 0; i < n; i++) {
        fbe_arena_reset(work);
        if (fbe_decode(type, model, bytes.data, bytes.size, work, NULL, &back, &size, &err)) return 1;
        sink += size;
      }
      break;
    case DECODE_TRUSTED:
      for (long i = 0; i < n; i++) {
        fbe_arena_reset(work);
        if (fbe_decode_trusted(type, model, bytes.data, bytes.size, work, NULL, &back, &size, &err))
          return 1;
        sink += size;
      }
      break;
    case VERIFY:
      for (long i = 0; i < n; i++) {
        if (fbe_verify(type, model, bytes.data, bytes.size, NULL, &size, &err)) return 1;
        sink += size;
      }
      break;
  }
  fbe_buffer_free(&out);
  fbe_buffer_free(&bytes);
  fbe_arena_free(work);
  fbe_arena_free(arena);
  fbe_schema_release(schema);
  return 0;
}

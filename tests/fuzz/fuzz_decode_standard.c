/* Fuzz target: verify + decode (the verifying and the trusted one) of the standard model
 * (FORMAT.md 5) of one struct of the test schemas, then every invariant of
 * fuzz_common.h on what decodes.
 * Input: byte 0 chooses the struct (index % fuzz_struct_count()) and, by its quotient,
 * the limits: default, max_depth 2, max_model_size 64, or max_memory 4096 (so the
 * limit checks fire); the rest is the model. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  size_t n = fuzz_struct_count();
  static const fbe_limits variants[4] = {
      {FBE_DEFAULT_MAX_DEPTH, FBE_DEFAULT_MAX_MODEL_SIZE, 0},
      {2, FBE_DEFAULT_MAX_MODEL_SIZE, 0},
      {FBE_DEFAULT_MAX_DEPTH, 64, 0},
      {FBE_DEFAULT_MAX_DEPTH, FBE_DEFAULT_MAX_MODEL_SIZE, 4096},
  };
  const fbe_limits *limits = &variants[(data[0] / n) & 3];
  fuzz_check_bytes(fuzz_struct_at(data[0] % n), FBE_MODEL_STANDARD, data + 1, size - 1, limits);
  return 0;
}

/* Fuzz target: a fuzzed schema and fuzzed bytes together, so the codecs meet layouts
 * the test schemas never have (deep nesting, odd arrays, maps of anything).
 * Input: schema text, a NUL byte, a selector byte, then the model bytes. The selector
 * picks a struct of the root package (selector / 2 % count) and the model (bit 0:
 * final). The bytes go through fuzz_check_bytes: every invariant of fuzz_common.h. */
#include <string.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  if (!nul || nul + 1 == data + size) return 0;
  size_t text_size = (size_t)(nul - data);
  uint8_t selector = nul[1];
  const uint8_t *bytes = nul + 2;
  size_t nbytes = size - text_size - 2;
  fbe_schema *schema = fbe_schema_load_string((const char *)data, text_size,
                                              FBE_SCHEMAS_DIR "/fuzz.fbe", fuzz_load_options(),
                                              NULL);
  if (!schema) return 0;
  const fbe_package *root = fbe_schema_root(schema);
  size_t count = fbe_package_struct_count(root);
  if (count) {
    const fbe_struct *st = fbe_package_struct_at(root, (size_t)(selector / 2) % count);
    if (fuzz_struct_is_small(st))
      fuzz_check_bytes(st, selector & 1 ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, bytes, nbytes,
                       NULL);
  }
  fbe_schema_release(schema);
  return 0;
}

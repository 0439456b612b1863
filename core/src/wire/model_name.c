/* The two models by name (fbe/codec.h): the one rule every binding's model= follows. */
#include <string.h>
#include "fbe/codec.h"
#include "fbe/internal/error.h"

static int named(const char *name, size_t length, const char *word) {
  return length == strlen(word) && memcmp(name, word, length) == 0;
}

fbe_status fbe_model_parse(const char *name, size_t length, fbe_model *out, fbe_error *err) {
  if (name && named(name, length, "standard")) return *out = FBE_MODEL_STANDARD, FBE_OK;
  if (name && named(name, length, "final")) return *out = FBE_MODEL_FINAL, FBE_OK;
  if (!name) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "model must be \"standard\" or \"final\"");
  int shown = length > 40 ? 40 : (int)length;
  return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "model must be \"standard\" or \"final\", not \"%.*s%s\"",
                        shown, name, length > 40 ? "..." : "");
}

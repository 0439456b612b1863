/* Default resource limits against hostile input. */
#include "fbe/codec.h"

fbe_limits fbe_limits_default(void) {
  fbe_limits l = {FBE_DEFAULT_MAX_DEPTH, FBE_DEFAULT_MAX_MODEL_SIZE};
  return l;
}

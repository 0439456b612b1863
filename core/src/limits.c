/* Default resource limits against hostile input. */
#include "fbe/codec.h"

fbe_limits fbe_limits_default(void) {
  fbe_limits l = {256, (uint64_t)1 << 30};
  return l;
}

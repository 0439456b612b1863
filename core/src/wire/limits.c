/* Default resource limits against hostile input. */
#include "fbe/codec.h"
#include <string.h>
#include "fbe/internal/cost.h"
#include "fbe/internal/error.h"

fbe_limits fbe_limits_default(void) {
  fbe_limits l = {FBE_DEFAULT_MAX_DEPTH, FBE_DEFAULT_MAX_MODEL_SIZE, 0};
  return l;
}

uint64_t fbe_limits_memory(const fbe_limits *limits, uint64_t input_size) {
  return fbei_limits_budget(limits, input_size);
}


/* The members by name, with the largest value each takes. */
typedef struct limit_member {
  const char *name, *camel;
  uint64_t max;
} limit_member;

static const limit_member members[] = {
    {"max_depth", "maxDepth", FBE_DEFAULT_MAX_DEPTH},
    {"max_model_size", "maxModelSize", FBE_MAX_MODEL_SIZE_LIMIT},
    {"max_memory", "maxMemory", UINT64_MAX},
};

fbe_status fbe_limits_set(fbe_limits *limits, const char *name, int64_t value, fbe_error *err) {
  if (!limits || !name) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no limits or no name");
  size_t k = 0;
  while (k < 3 && strcmp(name, members[k].name) && strcmp(name, members[k].camel)) k++;
  if (k == 3)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET,
                         "unknown limit '%.64s' (max_depth, max_model_size, max_memory)", name);
  const limit_member *m = &members[k];
  if (value < 0 || (uint64_t)value > m->max) {
    if (m->max == UINT64_MAX)
      return fbei_error_set(err, FBE_ERR_RANGE, FBE_NO_OFFSET,
                           "%s must be 0 (the default) or a byte count, not %lld", m->name, (long long)value);
    return fbei_error_set(err, FBE_ERR_RANGE, FBE_NO_OFFSET, "%s must be 0 (the default) or 1..%llu, not %lld",
                         m->name, (unsigned long long)m->max, (long long)value);
  }
  if (k == 0) limits->max_depth = (uint32_t)value;
  else if (k == 1) limits->max_model_size = (uint64_t)value;
  else limits->max_memory = (uint64_t)value;
  return FBE_OK;
}

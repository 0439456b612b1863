/* The wall clock: nanoseconds since the Unix epoch, UTC (timestamp defaults, uuid v1). */
#include <time.h>
#include "fbe/internal/uuid.h"

uint64_t fbei_now_ns(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

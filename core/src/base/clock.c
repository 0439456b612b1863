/* The wall clock: nanoseconds since the Unix epoch, UTC (timestamp defaults, uuid v1). */
#include <time.h>
#include "fbe/internal/uuid.h"

#if defined(_WIN32) && !defined(TIME_UTC)
/* mingw-w64 over msvcrt has no C11 timespec_get (the UCRT has): the system time, in
 * 100 ns units since 1601-01-01. */
#include <windows.h>

uint64_t fbei_now_ns(void) {
  FILETIME ft;
  GetSystemTimePreciseAsFileTime(&ft);
  uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
  return (t - 116444736000000000u) * 100u; /* 1601 -> 1970: 11644473600 s */
}
#else
uint64_t fbei_now_ns(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

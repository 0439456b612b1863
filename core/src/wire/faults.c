/* The one table of reasons bytes are refused (fbe/internal/faults.h). */
#include <stdio.h>
#include "fbe/internal/faults.h"

static const struct {
  fbe_status status;
  const char *format;
} faults[FBE_FAULT_COUNT_] = {
#define FBE_FAULT_ROW_(id, status, format) {status, format},
    FBE_FAULT_LIST(FBE_FAULT_ROW_)
#undef FBE_FAULT_ROW_
};

fbe_status fbei_fault_status(fbei_fault fault) {
  return (unsigned)fault < FBE_FAULT_COUNT_ ? faults[fault].status : FBE_ERR_MALFORMED;
}

const char *fbei_fault_format(fbei_fault fault) {
  return (unsigned)fault < FBE_FAULT_COUNT_ ? faults[fault].format : "malformed data";
}

fbe_status fbei_fault_vset(fbe_error *err, fbei_fault fault, size_t offset, va_list ap) {
  fbe_status status = fbei_fault_status(fault);
  if (!err) return status;
  err->code = status;
  err->offset = offset;
  err->path[0] = '\0';
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral" /* the table's formats, checked by a test */
#endif
  vsnprintf(err->message, sizeof err->message, fbei_fault_format(fault), ap);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  return status;
}

fbe_status fbei_fault_set(fbe_error *err, fbei_fault fault, size_t offset, ...) {
  va_list ap;
  va_start(ap, offset);
  fbe_status status = fbei_fault_vset(err, fault, offset, ap);
  va_end(ap);
  return status;
}

fbe_status fbei_fault_bad_pointer(fbe_error *err, uint64_t slot, uint32_t pointer, uint64_t target) {
  if (target <= slot)
    return fbei_fault_set(err, FBE_FAULT_POINTER_BACK, (size_t)slot, (unsigned long long)pointer,
                         (unsigned long long)target, (unsigned long long)slot);
  return fbei_fault_set(err, FBE_FAULT_POINTER_OUTSIDE, (size_t)slot, (unsigned long long)pointer,
                       "model");
}

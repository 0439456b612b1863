/* Whole-file reads with a cap (file_read.h). */
#include "fbe/internal/file_read.h"
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include "fbe/internal/memory.h"

#if !defined(S_ISREG) && defined(S_IFMT) && defined(S_IFREG)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#endif

static fbei_file_result failed(fbei_file_status status, uint64_t size, int errno_value) {
  fbei_file_result r = {status, NULL, size, 0, errno_value};
  return r;
}

fbei_file_result fbei_file_read_stream(FILE *f, uint64_t max_size) {
  /* reads at most one byte past the cap: enough to know the input is too large */
  size_t limit = max_size < SIZE_MAX - 1 ? (size_t)max_size + 1 : SIZE_MAX - 1;
  size_t cap = limit < 4096 ? limit : 4096, n = 0;
  uint8_t *data = fbei_mem_alloc(cap + 1);
  if (!data) return failed(FBE_FILE_NOMEM, cap, 0);
  for (;;) {
    n += fread(data + n, 1, cap - n, f);
    if (n < cap || cap == limit) break;
    size_t grown_cap = cap > limit / 2 ? limit : cap * 2;
    uint8_t *grown = fbei_mem_realloc(data, grown_cap + 1);
    if (!grown) {
      fbei_mem_free(data);
      return failed(FBE_FILE_NOMEM, grown_cap, 0);
    }
    data = grown;
    cap = grown_cap;
  }
  if (ferror(f)) {
    int e = errno;
    fbei_mem_free(data);
    return failed(FBE_FILE_UNREADABLE, n, e);
  }
  if (n > max_size) {
    fbei_mem_free(data);
    fbei_file_result r = failed(FBE_FILE_TOO_LARGE, n, 0);
    r.at_least = 1;
    return r;
  }
  data[n] = 0; /* text readers may treat it as a C string */
  fbei_file_result r = {FBE_FILE_OK, data, n, 0, 0};
  return r;
}

fbei_file_result fbei_file_read(const char *path, uint64_t max_size) {
  struct stat info;
  /* stat before fopen: opening a FIFO would block, and a device never ends */
  if (stat(path, &info) != 0) {
    int e = errno;
    return failed(e == ENOENT || e == ENOTDIR ? FBE_FILE_MISSING : FBE_FILE_UNREADABLE, 0, e);
  }
  if (!S_ISREG(info.st_mode)) return failed(FBE_FILE_NOT_REGULAR, 0, 0);
  if (info.st_size > 0 && (uint64_t)info.st_size > max_size)
    return failed(FBE_FILE_TOO_LARGE, (uint64_t)info.st_size, 0);
  FILE *f = fopen(path, "rb");
  if (!f) {
    int e = errno;
    return failed(e == ENOENT || e == ENOTDIR ? FBE_FILE_MISSING : FBE_FILE_UNREADABLE, 0, e);
  }
  fbei_file_result r = fbei_file_read_stream(f, max_size); /* the cap holds if it grew */
  fclose(f);
  return r;
}

void fbei_file_describe(const fbei_file_result *r, uint64_t max_size, char *out, size_t out_size) {
  switch (r->status) {
    case FBE_FILE_OK: snprintf(out, out_size, "read"); break;
    case FBE_FILE_MISSING: snprintf(out, out_size, "no such file"); break;
    case FBE_FILE_UNREADABLE: snprintf(out, out_size, "%s", strerror(r->errno_value)); break;
    case FBE_FILE_NOT_REGULAR:
      snprintf(out, out_size, "not a regular file (a device, FIFO or directory)");
      break;
    case FBE_FILE_TOO_LARGE:
      if (r->at_least) /* a stream: read up to one byte past the cap */
        snprintf(out, out_size, "too large: more than %" PRIu64 " bytes, the limit is %" PRIu64,
                 max_size, max_size);
      else
        snprintf(out, out_size, "too large: %" PRIu64 " bytes, the limit is %" PRIu64, r->size,
                 max_size);
      break;
    case FBE_FILE_NOMEM:
      snprintf(out, out_size, "out of memory (reading %" PRIu64 " bytes)", r->size);
      break;
  }
}

/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: reading a whole regular file with a size cap, for the schema loader and the
 * CLI. A device (/dev/zero), FIFO or directory is refused before it is opened, and a file
 * is never read past its cap, so no input can make a reader allocate without bound. */
#ifndef FBE_FILE_READ_H
#define FBE_FILE_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum fbei_file_status {
  FBE_FILE_OK,
  FBE_FILE_MISSING,     /* no such file (ENOENT/ENOTDIR) */
  FBE_FILE_UNREADABLE,  /* cannot be opened or read: errno_value says why */
  FBE_FILE_NOT_REGULAR, /* a device, FIFO, socket or directory */
  FBE_FILE_TOO_LARGE,   /* size says how large */
  FBE_FILE_NOMEM
} fbei_file_status;

typedef struct fbei_file_result {
  fbei_file_status status;
  uint8_t *data;        /* FBE_FILE_OK: size bytes plus a NUL, free with fbei_mem_free */
  uint64_t size;        /* bytes read, or the size found when too large */
  int at_least;         /* too large, read from a stream: size is only a lower bound */
  int errno_value;
} fbei_file_result;

/* Reads the file at path (at most max_size bytes). */
fbei_file_result fbei_file_read(const char *path, uint64_t max_size);

/* Reads an open stream (stdin) to its end, at most max_size bytes. */
fbei_file_result fbei_file_read_stream(FILE *f, uint64_t max_size);

/* "not a regular file (a device, FIFO or directory)", "too large: N bytes, the limit is
 * M", "out of memory (N bytes)", "no such file" or the system's reason, into out. */
void fbei_file_describe(const fbei_file_result *r, uint64_t max_size, char *out, size_t out_size);

#endif

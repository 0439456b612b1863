/* Growable byte buffer that encoders append to. */
#ifndef FBE_BUFFER_H
#define FBE_BUFFER_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Plain struct: zero-initialise it (or call fbe_buffer_init), free with fbe_buffer_free. */
typedef struct fbe_buffer {
  uint8_t *data;   /* owned; NULL while empty; released by fbe_buffer_free, not free() */
  size_t size;     /* bytes in use */
  size_t capacity; /* bytes allocated */
} fbe_buffer;

FBE_API void fbe_buffer_init(fbe_buffer *buf);

/* Releases the memory and zeroes the struct. */
FBE_API void fbe_buffer_free(fbe_buffer *buf);

/* Sets size to 0 and keeps the memory for reuse. */
FBE_API void fbe_buffer_reset(fbe_buffer *buf);

/* Makes room for at least extra more bytes. 0 on success, -1 when out of memory. */
FBE_API int fbe_buffer_reserve(fbe_buffer *buf, size_t extra);

/* Appends n bytes. 0 on success, -1 when out of memory. */
FBE_API int fbe_buffer_append(fbe_buffer *buf, const void *data, size_t n);

#ifdef __cplusplus
}
#endif
#endif

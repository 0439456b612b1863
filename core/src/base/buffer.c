/* Growable byte buffer. */
#include <stdlib.h>
#include <string.h>
#include "fbe/buffer.h"
#include "fbe/internal/memory.h"

void fbe_buffer_init(fbe_buffer *buf) { memset(buf, 0, sizeof *buf); }

void fbe_buffer_free(fbe_buffer *buf) {
  fbei_mem_free(buf->data);
  memset(buf, 0, sizeof *buf);
}

void fbe_buffer_reset(fbe_buffer *buf) { buf->size = 0; }

int fbe_buffer_reserve(fbe_buffer *buf, size_t extra) {
  if (extra <= buf->capacity - buf->size) return 0;
  if (extra > SIZE_MAX / 2 - buf->size) return -1;
  size_t cap = buf->capacity ? buf->capacity : 256;
  while (cap < buf->size + extra) cap *= 2;
  uint8_t *p = fbei_mem_realloc(buf->data, cap);
  if (!p) return -1;
  buf->data = p;
  buf->capacity = cap;
  return 0;
}

int fbe_buffer_append(fbe_buffer *buf, const void *data, size_t n) {
  if (fbe_buffer_reserve(buf, n)) return -1;
  if (n) memcpy(buf->data + buf->size, data, n);
  buf->size += n;
  return 0;
}

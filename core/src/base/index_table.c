/* Open addressing with linear probing (index_table.h). */
#include "base/index_table.h"
#include "fbe/internal/memory.h"

int fbei_index_table_init(fbei_index_table *t, size_t capacity) {
  size_t size = 16;
  while (size < capacity * 2) {
    if (size > SIZE_MAX / 4 / sizeof *t->slots) return -1;
    size *= 2;
  }
  t->slots = fbei_mem_calloc(size, sizeof *t->slots);
  t->mask = size - 1;
  t->count = 0;
  return t->slots ? 0 : -1;
}

void fbei_index_table_free(fbei_index_table *t) {
  fbei_mem_free(t->slots);
  t->slots = NULL;
}

int64_t fbei_index_table_find(const fbei_index_table *t, uint64_t hash, fbei_index_match_fn match,
                             const void *items, const void *key) {
  for (size_t i = (size_t)hash & t->mask;; i = (i + 1) & t->mask) {
    uint32_t slot = t->slots[i];
    if (!slot) return -1;
    if (match(items, slot - 1, key)) return slot - 1;
  }
}

void fbei_index_table_add(fbei_index_table *t, uint64_t hash, uint32_t index) {
  size_t i = (size_t)hash & t->mask;
  while (t->slots[i]) i = (i + 1) & t->mask;
  t->slots[i] = index + 1;
  t->count++;
}

uint64_t fbei_hash_string(const char *s) {
  uint64_t h = 14695981039346656037u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h ^ (h >> 29);
}

uint64_t fbei_hash_words(uint64_t a, uint64_t b) {
  uint64_t h = a * 0x9E3779B97F4A7C15u ^ (b + 0x632BE59BD9B4E019u + (a << 6) + (a >> 2));
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9u;
  return h ^ (h >> 27);
}

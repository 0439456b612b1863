/* A deep copy of a message (fbe_msg_copy): the value's bytes copied at once, then every
 * pointer it holds (strings, bytes, optionals, collections) pointed at a copy in the
 * new arena. The walk keeps its own stack, as equal.c's does: no recursion on deep
 * values. */
#include <string.h>
#include "fbe/internal/error.h"
#include "fbe/internal/memory.h"
#include "fbe/internal/value.h"

/* One container whose children are being fixed up: its type, its slot in the copy
 * (already a byte copy of the original) and the next child. */
typedef struct frame {
  const fbe_type *t;
  uint8_t *slot;
  uint32_t next, count;
} frame;

static int is_container(const fbe_type *t) {
  return t->wire == FBE_KIND_STRUCT || t->wire == FBE_KIND_OPTIONAL || t->wire == FBE_KIND_ARRAY ||
         t->wire == FBE_KIND_VECTOR || t->wire == FBE_KIND_MAP;
}

static int is_blob(const fbe_type *t) { return t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES; }

/* Points a container slot's own pointer (an optional's value, a collection's storage)
 * at a copy in arena and says how many children it has; -1 when out of memory. */
static int64_t own(const fbe_type *t, uint8_t *slot, fbe_arena *arena) {
  switch (t->wire) {
    case FBE_KIND_STRUCT: return t->st->nfields;
    case FBE_KIND_ARRAY: return t->array_size;
    case FBE_KIND_OPTIONAL: {
      const void *value = *(void **)(void *)slot;
      if (!value) return 0;
      void *copy = fbe_arena_alloc(arena, t->elem->mem_size);
      if (!copy) return -1;
      memcpy(copy, value, t->elem->mem_size);
      *(void **)(void *)slot = copy;
      return 1;
    }
    default: { /* VECTOR, MAP */
      fbei_vec *v = (fbei_vec *)(void *)slot;
      uint32_t stride = t->wire == FBE_KIND_MAP ? t->pair_stride : t->elem->mem_size;
      v->cap = v->count;
      if (!v->count) {
        v->data = NULL;
        return 0;
      }
      void *copy = fbe_arena_alloc(arena, (size_t)v->count * stride);
      if (!copy) return -1;
      memcpy(copy, v->data, (size_t)v->count * stride);
      v->data = copy;
      return t->wire == FBE_KIND_MAP ? (int64_t)v->count * 2 : v->count;
    }
  }
}

static const fbe_type *child(const frame *f, uint32_t i, uint8_t **slot) {
  const fbe_type *t = f->t;
  switch (t->wire) {
    case FBE_KIND_STRUCT:
      *slot = f->slot + t->st->fields[i].mem_offset;
      return t->st->fields[i].type;
    case FBE_KIND_OPTIONAL:
      *slot = *(uint8_t **)(void *)f->slot;
      return t->elem;
    case FBE_KIND_ARRAY:
      *slot = f->slot + (size_t)i * t->elem->mem_size;
      return t->elem;
    case FBE_KIND_VECTOR:
      *slot = (uint8_t *)((fbei_vec *)(void *)f->slot)->data + (size_t)i * t->elem->mem_size;
      return t->elem;
    default: /* MAP */
      *slot = (uint8_t *)((fbei_vec *)(void *)f->slot)->data + (size_t)(i / 2) * t->pair_stride +
              (i % 2 ? t->pair_value_offset : 0);
      return i % 2 ? t->elem : t->key;
  }
}

/* Makes the byte copy at slot (of type t, a struct) own everything it points at. */
static int deepen(const fbe_type *t, uint8_t *slot, fbe_arena *arena) {
  frame local[64], *stack = local;
  size_t depth = 0, cap = sizeof local / sizeof local[0];
  int ok = 1;
  int64_t n = own(t, slot, arena);
  if (n < 0) return 0;
  stack[depth++] = (frame){t, slot, 0, (uint32_t)n};
  while (depth && ok) {
    frame *f = &stack[depth - 1];
    if (f->next == f->count) {
      depth--;
      continue;
    }
    uint8_t *cs;
    const fbe_type *ct = child(f, f->next++, &cs);
    if (is_blob(ct)) {
      fbei_str *s = (fbei_str *)(void *)cs;
      ok = fbei_str_assign(s, arena, s->data, s->size) == 0;
      continue;
    }
    if (!is_container(ct)) continue;
    int64_t cn = own(ct, cs, arena);
    if (cn < 0) {
      ok = 0;
      break;
    }
    if (cn == 0) continue;
    if (depth == cap) {
      frame *bigger = fbei_mem_alloc(sizeof(frame) * cap * 2);
      if (!bigger) {
        ok = 0;
        break;
      }
      memcpy(bigger, stack, sizeof(frame) * depth);
      if (stack != local) fbei_mem_free(stack);
      stack = bigger;
      cap *= 2;
    }
    stack[depth++] = (frame){ct, cs, 0, (uint32_t)cn};
  }
  if (stack != local) fbei_mem_free(stack);
  return ok;
}

fbe_status fbe_msg_copy(const fbe_msg *msg, fbe_arena *arena, fbe_msg **out, fbe_error *err) {
  if (out) *out = NULL;
  if (!msg || !arena || !out)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "fbe_msg_copy: no message, arena or output");
  fbe_msg *copy = fbei_msg_shell(arena, msg->type);
  if (copy) {
    memcpy(fbei_msg_data(copy), fbei_msg_data(msg), msg->type->mem_size);
    if (deepen(msg->type->self_type, fbei_msg_data(copy), arena)) {
      *out = copy;
      return FBE_OK;
    }
  }
  return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory while copying a %s",
                        msg->type->full_name);
}

int fbei_value_copy(const fbe_type *t, const void *from, void *to, fbe_arena *arena) {
  memcpy(to, from, t->mem_size);
  if (is_blob(t)) {
    fbei_str *s = to;
    return fbei_str_assign(s, arena, s->data, s->size) == 0;
  }
  return is_container(t) ? deepen(t, to, arena) : 1;
}

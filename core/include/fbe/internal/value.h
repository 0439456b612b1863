/* Internal (never installed): for core/, core/cli/, bindings/, swig/, tests/ and benchmarks/ of this tree only. */
/* Internal: how values live in memory. Every type has a fixed-size slot:
 *   bool, byte, char, int8, uint8        1 byte       int16, uint16       2 bytes
 *   wchar, int32, uint32, float          4 bytes      int64, uint64, double, timestamp 8
 *   enum / flags                         the slot of their base kind
 *   decimal, uuid                        16 bytes, wire layout (fbe_decimal / fbe_uuid)
 *   string, bytes                        fbei_str (data borrowed from the arena or schema)
 *   struct                               inline: the struct's fields at their mem_offset
 *   optional                             void*: NULL = absent, else a slot of the element type
 *   array T[N]                           N element slots back to back (stride elem->mem_size)
 *   vector, list, set                    fbei_vec of element slots
 *   map, hash                            fbei_vec of pairs (key at 0, value at pair_value_offset,
 *                                        stride pair_stride)
 * Values are immutable once shared: setters replace pointers, never write through them,
 * so default images may point at schema-owned strings and optional slots. */
#ifndef FBE_VALUE_H
#define FBE_VALUE_H

#include <stdint.h>
#include <stddef.h>
#include "fbe/internal/schema_model.h"
#include "fbe/internal/decimal.h"
#include "fbe/internal/uuid.h"
#include "fbe/message.h"

typedef struct fbei_str {
  const uint8_t *data;
  uint32_t size;
} fbei_str;

typedef struct fbei_vec {
  void *data;
  uint32_t count;
  uint32_t cap;
} fbei_vec;

/* A message header; the struct's in-memory value follows, 8-aligned. */
struct fbe_msg {
  const fbe_struct *type;
  fbe_arena *arena;
};

static inline void *fbei_msg_data(const fbe_msg *m) { return (void *)(m + 1); }

/* A message of `type` in `arena` whose slots are NOT initialised: for a binding's
 * converter that fills every field itself (fbe_msg_new writes the defaults first).
 * NULL when out of memory. */
fbe_msg *fbei_msg_shell(fbe_arena *arena, const fbe_struct *type);

/* Deep-copies the value of type t at `from` (fbe_ref's layout) over the slot `to`,
 * everything it points at allocated in arena (message/copy.c). 0 when out of memory. */
int fbei_value_copy(const fbe_type *t, const void *from, void *to, fbe_arena *arena);

/* Writes the default value of `type` into slot (mem_size bytes): struct default
 * images with utc/uuid defaults evaluated (optional ones allocated in arena), zero for
 * everything else (false, 0, empty, null). -1 when out of memory. */
int fbe_value_init(const fbe_type *type, void *slot, fbe_arena *arena);

/* Initialises a struct slot from its default image and evaluates dynamic defaults. */
int fbei_struct_init(const fbe_struct *st, void *slot, fbe_arena *arena);

/* Evaluates the utc/uuid1/uuid4 defaults of fields [from, to) of st (and of inline
 * nested structs) into the value at slot. -1 when out of memory. */
int fbei_struct_apply_dynamic_defaults(const fbe_struct *st, void *slot, uint32_t from,
                                      uint32_t to, fbe_arena *arena);

/* Evaluates one field's utc/uuid1/uuid4 default into its slot (optional fields get a
 * new slot in arena). -1 when out of memory. */
int fbei_field_dynamic_default(const fbe_field *f, void *slot, fbe_arena *arena);

/* Deep equality of two slots of type t (equal.c: floats by bits, decimals by value). */
int fbei_value_slot_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b);

/* Whether values of types a and b are alike (two fields declared `Order[]` have two
 * type nodes): the same kind, wire form, array size, struct, enum, element and key. */
int fbei_type_same(const fbe_type *a, const fbe_type *b);
/* Two decimals (16 wire bytes each) by numeric value: 1.5 equals 1.50, -0 equals 0. */
int fbei_decimal_value_equal(const uint8_t *a, const uint8_t *b);

/* Loads a scalar slot (bool, integer, char, wchar, enum/flags via their base kind,
 * timestamp) as a 64-bit pattern, sign-extended for signed kinds. */
static inline uint64_t fbei_scalar_load(fbe_kind wire, const void *slot) {
  switch (wire) {
    case FBE_KIND_BOOL: case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8:
      return *(const uint8_t *)slot;
    case FBE_KIND_INT8: return (uint64_t)(int64_t)*(const int8_t *)slot;
    case FBE_KIND_INT16: return (uint64_t)(int64_t)*(const int16_t *)slot;
    case FBE_KIND_UINT16: return *(const uint16_t *)slot;
    case FBE_KIND_INT32: return (uint64_t)(int64_t)*(const int32_t *)slot;
    case FBE_KIND_UINT32: case FBE_KIND_WCHAR: return *(const uint32_t *)slot;
    default: return *(const uint64_t *)slot; /* int64, uint64, timestamp */
  }
}

/* Stores the low bits of a 64-bit pattern into a scalar slot of the given kind. */
static inline void fbei_scalar_store(fbe_kind wire, void *slot, uint64_t v) {
  switch (wire) {
    case FBE_KIND_BOOL: *(uint8_t *)slot = v != 0; break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: case FBE_KIND_INT8:
      *(uint8_t *)slot = (uint8_t)v; break;
    case FBE_KIND_INT16: case FBE_KIND_UINT16: *(uint16_t *)slot = (uint16_t)v; break;
    case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_WCHAR:
      *(uint32_t *)slot = (uint32_t)v; break;
    default: *(uint64_t *)slot = v; break;
  }
}



/* Appends `count` ZERO-filled slots of `elem_size` bytes to a vector/map storage and
 * returns a pointer to the first new one (NULL on OOM or count overflow); the caller
 * initialises them (fbe_value_init for struct elements). Storage grows geometrically
 * inside the arena. */
void *fbei_vec_grow(fbei_vec *v, fbe_arena *arena, uint32_t elem_size, uint32_t count);

/* Copies size bytes into the arena and points s at them. -1 on OOM. */
int fbei_str_assign(fbei_str *s, fbe_arena *arena, const void *data, size_t size);



#endif

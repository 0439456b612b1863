/* Internal: the records of a dump. dump.c walks a model into them, dump_lines.c
 * turns them into text: lines (ranges), the containers on their paths (nodes), the
 * blocks pointers lead to (seen), kept small so that a dump holds no text. */
#ifndef FBE_DUMP_LINES_H
#define FBE_DUMP_LINES_H

#include <stddef.h>
#include <stdint.h>
#include "fbe/dump.h"
#include "base/index_table.h"
#include "fbe/internal/schema_model.h"

#define PATH_SHOWN 120u  /* characters of a path before it is cut at the front */
#define NO_NODE UINT32_MAX

/* What a line says about its bytes (the text is made when it is printed). */
typedef enum line_kind {
  K_MODEL_SIZE, K_MODEL_SIZE_SHORT, K_MODEL_TYPE_ID, K_ROOT_POINTER, /* no label */
  K_POINTER, K_POINTER_TO_SLOT, K_POINTER_IN_SLOT, /* | K_SHARED */
  K_POINTER_0, K_POINTER_0_EMPTY, K_POINTER_0_DEFAULT,
  K_BODY_SIZE, K_TYPE_ID, K_NULL_FLAG, K_NULL_POINTER, K_HAS_VALUE,
  K_COUNT, K_LENGTH, K_DATA, K_SCALAR, K_NOT_READ, K_AFTER_FIELDS,
  K_RUN /* elements arg.. of an array or vector of fixed-size scalars: a line each */
} line_kind;
#define K_SHARED 0x80 /* a pointer to a block read before through another pointer */

/* How a value is reached from its container: the container itself, field `arg` of
 * its struct, element `arg`, or the key or value of pair `arg` of its map. */
typedef enum step_kind { S_NONE, S_FIELD, S_INDEX, S_KEY, S_VALUE } step_kind;

/* One line of the dump (or a run of them, K_RUN): 24 bytes. */
typedef struct range {
  uint32_t off, len; /* the bytes (a model is at most 4 GiB) */
  uint32_t node;     /* the container of the value the line is about */
  uint32_t arg;      /* the value's step from it; K_NOT_READ: the field missing */
  uint32_t seq;      /* walk order, for lines at the same offset */
  uint8_t kind, step;
} range;

/* A container on some line's path (struct body, array, collection): 24 bytes. */
typedef struct node {
  const fbe_type *type; /* struct, array, vector or map */
  uint32_t parent;      /* its own container (the root node is its own parent) */
  uint32_t arg;         /* its step from there */
  uint32_t base;        /* what pointers inside it are relative to */
  uint8_t step;
} node;

/* The containers the walk is in; `id` is NO_NODE until a line needs the node. */
typedef struct frame {
  node n;
  uint32_t id;
} frame;

/* How a pointer's block is read: a struct body, string or bytes data, an optional's
 * value slot, a collection. */
typedef enum block_kind { B_BODY, B_STRING, B_BYTES, B_SLOT, B_SEQUENCE } block_kind;

/* A block read through a pointer, found again by where it is and how it is read
 * (`reader`: the body's fbe_struct, the value slot's or collection's fbe_type; `base`:
 * what the pointers of a collection's elements are relative to, 0 if they have none). */
typedef struct block_key {
  uint32_t off, base;
  const void *reader;
  uint8_t kind;
} block_key;

/* A block seen (its key, flat): 40 bytes. */
typedef struct seen {
  const void *reader;
  uint64_t charge;       /* what verify charges for walking it */
  uint32_t off, base;
  uint32_t node, arg;    /* the label of the first pointer to it */
  uint32_t height;       /* nesting levels it goes down (optionals, collections) */
  uint8_t kind, step;
} seen;

typedef struct dumper {
  const uint8_t *p;
  uint64_t size;        /* bytes of input */
  uint64_t end;         /* the walk stays inside [0, end) */
  const char *where;    /* "model", or "buffer" when the model size runs past the input */
  int cut;              /* it does: the walk is of what is there */
  const fbe_struct *type;
  fbe_model model;
  const fbe_limits *limits;
  uint32_t depth, max_depth, deepest;
  int64_t budget;       /* verify's memory budget left (cost.h) */
  uint64_t budget_limit;
  uint64_t held, room;  /* bytes of memory the dump holds, and the most it may hold */
  range *ranges;
  size_t nranges, cap_ranges;
  node *nodes;
  size_t nnodes, cap_nodes;
  frame *frames;
  size_t nframes, cap_frames, materialized; /* frames[0..materialized) have nodes */
  seen *seen;
  size_t nseen, cap_seen;
  size_t nruns;         /* K_RUN ranges: the printer keeps a cursor (8 bytes) for each */
  fbei_index_table seen_index;
  uint8_t step;         /* the value being walked: its step from frames[nframes - 1] */
  uint32_t arg;
  fbe_error *err;
} dumper;

/* The sizes fbe/dump.h promises (smaller with 32-bit pointers). */
_Static_assert(sizeof(range) <= 24 && sizeof(node) <= 24 && sizeof(seen) <= 40,
               "dump records larger than fbe/dump.h says");

/* A printer's cursor in a run: range i, its next element j. */
typedef struct cursor {
  uint32_t i, j;
} cursor;

/* A path built from its end: its last `cap` characters, and whether more were cut. */
typedef struct path_tail {
  char *buf;
  size_t cap, pos;
  int cut;
} path_tail;

void fbei_dump_tail_put(path_tail *t, const char *s, size_t n);

/* Puts the text of a step from a container of type `in` ("[2]", "[2].key", ".name",
 * "name" when the container is the root). */
void fbei_dump_step_put(path_tail *t, const fbe_type *in, uint8_t step, uint32_t arg, int in_root);

/* The type of the value a step from a container of type `in` leads to. */
const fbe_type *fbei_dump_step_type(const fbe_type *in, uint8_t step, uint32_t arg);

/* The block a pointer line's pointer (at slot, relative to base) leads to, as the
 * value of type t reads it: t itself for K_POINTER, its optional's value type else. */
block_key fbei_dump_key_of(const uint8_t *p, uint8_t kind, const fbe_type *t, uint64_t slot,
                          uint64_t base);

uint64_t fbei_dump_key_hash(uint32_t off, uint32_t base, uint8_t kind);

/* The entry of a block seen before, or -1. */
int64_t fbei_dump_seen_find(const dumper *d, const block_key *k);

/* Writes the dump of the walk's records in offset order (the ranges get sorted), the
 * uncovered bytes between them, and the "!!" line of d->err when `failed`; model_end
 * is where the model ends (0: unknown); `runs` has room for a cursor per K_RUN range.
 * Returns nonzero when the writer refused a line. */
int fbei_dump_print(dumper *d, uint64_t model_end, int failed, cursor *runs,
                   fbe_dump_write_fn write, void *ctx);

#endif

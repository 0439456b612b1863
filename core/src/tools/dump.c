/* Annotated hex dump (fbe/dump.h). The walk mirrors verify.c step by step (same
 * checks in the same order, same depth limit and memory charges, same reasons and
 * offsets), but instead of only answering valid/invalid it records one range per
 * field slot, header, length, count and data block. A block that several pointers
 * lead to is walked once: the later pointers charge what verify charges for walking
 * it again (kept with the block), and their lines say whose block it is.
 *
 * The records (dump_lines.h) are small: offset, length, kind of line, the container
 * whose path labels it; one for a whole run of scalar elements. dump_lines.c makes
 * their text only as it prints them, sorted by offset, straight to the writer. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "fbe/dump.h"
#include "fbe/internal/cost.h"
#include "tools/dump_lines.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/error.h"
#include "fbe/internal/faults.h"
#include "fbe/internal/memory.h"
#include "fbe/internal/utf8.h"
#include "fbe/internal/value.h"

/* ------------------------------------------------------------ errors */

static int nomem(dumper *d) {
  fbei_error_set(d->err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory while dumping");
  return -1;
}

/* The path of the value the walk is at, from the frames. */
static void walk_path(const dumper *d, path_tail *t) {
  uint8_t step = d->step;
  uint32_t arg = d->arg;
  for (size_t i = d->nframes; i-- > 0 && !t->cut;) {
    fbei_dump_step_put(t, d->frames[i].n.type, step, arg, i == 0);
    step = d->frames[i].n.step;
    arg = d->frames[i].n.arg;
  }
}

/* Records the reason the walk stops, with the path of the value being walked. */
static void set_path(dumper *d) {
  fbe_error *e = d->err;
  char buf[sizeof e->path - 4];
  path_tail t = {buf, sizeof buf, sizeof buf, 0};
  walk_path(d, &t);
  snprintf(e->path, sizeof e->path, "%s%.*s", t.cut ? "..." : "", (int)(t.cap - t.pos),
           buf + t.pos);
}

/* Numbers go to the fault table's formats as unsigned long long. */
#define U(x) ((unsigned long long)(x))

/* Records the reason the walk stops (the fault table: verify's words), with the path of
 * the value being walked. */
static int stop(dumper *d, fbei_fault fault, uint64_t offset, ...) {
  va_list ap;
  va_start(ap, offset);
  fbei_fault_vset(d->err, fault, (size_t)offset, ap);
  va_end(ap);
  set_path(d);
  return -1;
}

/* Stops where verify does, with its words: e is verify's error for the value. */
static int stop_as_verify(dumper *d, const fbe_error *e) {
  fbe_error *out = d->err;
  out->code = e->code;
  out->offset = e->offset;
  memcpy(out->message, e->message, sizeof out->message);
  set_path(d);
  return -1;
}

static int too_deep(dumper *d, uint64_t offset) {
  return stop(d, FBE_FAULT_TOO_DEEP, offset, U(d->max_depth));
}

static int over_budget(dumper *d, uint64_t offset) {
  return stop(d, FBE_FAULT_OVER_BUDGET, offset, U(d->budget_limit));
}

/* The dump's own records do not fit in the memory budget. */
static int out_of_room(dumper *d, uint64_t offset) {
  return stop(d, FBE_FAULT_DUMP_BUDGET, offset, U(d->room));
}

/* ------------------------------------------------------------ memory */

/* Room for one more of `count` elements of `elem` bytes in *items (capacity *cap),
 * growing within the memory budget: by half, or as far as the budget goes. */
static int grow(dumper *d, void *items_at, size_t *cap, size_t count, size_t elem, uint64_t at) {
  if (count < *cap) return 0;
  void *items;
  memcpy(&items, items_at, sizeof items); /* items_at is the address of a T * */
  uint64_t others = d->held - (uint64_t)*cap * elem;
  uint64_t want = *cap ? (uint64_t)*cap + *cap / 2 : 16, most = 0;
  if (d->room > others) most = (d->room - others) / elem;
  if (most > UINT32_MAX) most = UINT32_MAX; /* indexes are 32-bit */
  if (want > most) want = most;
  if (want <= count || want > SIZE_MAX / elem) return out_of_room(d, at);
  void *p = fbei_mem_realloc(items, (size_t)want * elem);
  if (!p) return nomem(d);
  memcpy(items_at, &p, sizeof p);
  *cap = (size_t)want;
  d->held = others + want * elem;
  return 0;
}

#define GROW(d, items, cap, count, at) \
  grow((d), &(items), &(cap), (count), sizeof *(items), (at))

/* ------------------------------------------------------------ containers and lines */

/* The node of the innermost container, made (with its parents') when first needed. */
static int container_node(dumper *d, uint64_t at, uint32_t *id) {
  for (; d->materialized < d->nframes; d->materialized++) {
    frame *f = &d->frames[d->materialized];
    if (GROW(d, d->nodes, d->cap_nodes, d->nnodes, at)) return -1;
    f->n.parent = d->materialized ? d->frames[d->materialized - 1].id : (uint32_t)d->nnodes;
    f->id = (uint32_t)d->nnodes;
    d->nodes[d->nnodes++] = f->n;
  }
  *id = d->nframes ? d->frames[d->nframes - 1].id : 0;
  return 0;
}

/* Enters a container of type t (pointers in it relative to base), reached by the
 * current step; the values in it are then walked with steps from it. */
static int open_container(dumper *d, const fbe_type *t, uint64_t base, uint64_t at) {
  if (GROW(d, d->frames, d->cap_frames, d->nframes, at)) return -1;
  frame *f = &d->frames[d->nframes++];
  f->n.type = t;
  f->n.parent = 0;
  f->n.arg = d->arg;
  f->n.base = (uint32_t)base;
  f->n.step = d->step;
  f->id = NO_NODE;
  d->step = S_NONE;
  d->arg = 0;
  return 0;
}

static void close_container(dumper *d) {
  frame *f = &d->frames[--d->nframes];
  d->step = f->n.step;
  d->arg = f->n.arg;
  if (d->materialized > d->nframes) d->materialized = d->nframes;
}

static void set_step(dumper *d, uint8_t step, uint32_t arg) {
  d->step = step;
  d->arg = arg;
}

/* Records the line [off, off+len) of the given kind about the value being walked
 * (arg replaces its step's argument when it is S_NONE). Empty ranges are not lines. */
static int add_arg(dumper *d, uint64_t off, uint64_t len, uint8_t kind, uint32_t arg) {
  if (!len) return 0;
  uint32_t id = 0;
  if (container_node(d, off, &id) || GROW(d, d->ranges, d->cap_ranges, d->nranges, off)) return -1;
  range *r = &d->ranges[d->nranges];
  r->off = (uint32_t)off;
  r->len = (uint32_t)len;
  r->node = id;
  r->arg = d->step == S_NONE ? arg : d->arg;
  r->seq = (uint32_t)d->nranges++;
  r->kind = kind;
  r->step = d->step;
  return 0;
}

static int add(dumper *d, uint64_t off, uint64_t len, uint8_t kind) {
  return add_arg(d, off, len, kind, 0);
}

/* Whether values of t are fixed-size scalars (numbers, bools, chars, enums, flags,
 * decimals, uuids, timestamps). */
static int plain(const fbe_type *t) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: case FBE_KIND_STRUCT: case FBE_KIND_OPTIONAL:
    case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_MAP:
      return 0;
    default: return 1;
  }
}

/* The first of n scalar elements of type t at `at` (of the array or vector being
 * walked, its container open), kept as one range: up to the first one that does not
 * fit in [0, end) or is a decimal verify refuses (the caller walks that one).
 * *done receives how many the run holds. */
static int scalar_run(dumper *d, const fbe_type *t, uint64_t at, uint32_t n, uint32_t *done) {
  uint64_t size = t->wire_size, room = at < d->end ? (d->end - at) / size : 0;
  uint32_t k = n < room ? n : (uint32_t)room;
  if (t->wire == FBE_KIND_DECIMAL) {
    for (uint32_t i = 0; i < k; i++) {
      if (fbei_decimal_bad(d->p + at + i * size)) {
        k = i;
        break;
      }
    }
  }
  *done = k;
  if (!k) return 0;
  if (d->held + sizeof(cursor) > d->room) return out_of_room(d, at);
  set_step(d, S_INDEX, 0);
  if (add(d, at, k * size, K_RUN)) return -1;
  d->held += sizeof(cursor);
  d->nruns++;
  return 0;
}

/* ------------------------------------------------------------ the memory budget */

/* Takes `bytes` (cost.h) from verify's budget, as verify does at the same point. */
static int charge(dumper *d, uint64_t at, uint64_t bytes) {
  if ((int64_t)bytes > d->budget) return over_budget(d, at);
  d->budget -= (int64_t)bytes;
  return 0;
}

/* Optionals and collections count as one nesting level and charge `bytes`. */
static int enter(dumper *d, uint64_t at, uint64_t bytes) {
  if (++d->depth > d->max_depth) return too_deep(d, at);
  if (d->depth > d->deepest) d->deepest = d->depth;
  return charge(d, at, bytes);
}

/* ------------------------------------------------------------ blocks seen */

/* Keeps a block read for the first time, with the label of the pointer line just
 * recorded; *entry receives its index. */
static int seen_add(dumper *d, const block_key *k, uint64_t at, uint32_t *entry) {
  if (GROW(d, d->seen, d->cap_seen, d->nseen, at)) return -1;
  size_t slots = d->seen_index.slots ? d->seen_index.mask + 1 : 0;
  if (2 * (d->nseen + 1) > slots) { /* the index keeps at least half its slots free */
    fbei_index_table bigger;
    if (fbei_index_table_init(&bigger, 2 * (d->nseen + 1))) return nomem(d);
    uint64_t bytes = (uint64_t)(bigger.mask + 1) * sizeof *bigger.slots;
    if (d->held + bytes > d->room) {
      fbei_index_table_free(&bigger);
      return out_of_room(d, at);
    }
    for (size_t i = 0; i < d->nseen; i++)
      fbei_index_table_add(&bigger, fbei_dump_key_hash(d->seen[i].off, d->seen[i].base,
                                                     d->seen[i].kind),
                          (uint32_t)i);
    fbei_index_table_free(&d->seen_index);
    d->seen_index = bigger;
    d->held = d->held - slots * sizeof *bigger.slots + bytes;
  }
  const range *line = &d->ranges[d->nranges - 1];
  seen *s = &d->seen[d->nseen];
  memset(s, 0, sizeof *s);
  s->reader = k->reader;
  s->off = k->off;
  s->base = k->base;
  s->kind = k->kind;
  s->node = line->node;
  s->step = line->step;
  s->arg = line->arg;
  fbei_index_table_add(&d->seen_index, fbei_dump_key_hash(k->off, k->base, k->kind),
                      (uint32_t)d->nseen);
  *entry = (uint32_t)d->nseen++;
  return 0;
}

/* The walk of a block seen for the first time: what it charges and how deep it goes
 * are kept with it for the pointers that lead to it again. */
typedef struct visit {
  uint32_t entry, depth, deepest;
  int64_t budget;
} visit;

static void visit_begin(dumper *d, uint32_t entry, visit *v) {
  v->entry = entry;
  v->depth = d->depth;
  v->deepest = d->deepest;
  v->budget = d->budget;
  d->deepest = d->depth;
}

static void visit_end(dumper *d, const visit *v) {
  seen *s = &d->seen[v->entry];
  s->charge = (uint64_t)(v->budget - d->budget);
  s->height = d->deepest - v->depth;
  if (v->deepest > d->deepest) d->deepest = v->deepest;
}

/* Another pointer to block `entry`: verify walks it again, charging as much and going
 * as deep from here. When that fails, it fails inside the block, where only verify's
 * walk can say (the dump walks each block once): its error is the dump's. */
static int revisit(dumper *d, uint32_t entry, uint64_t at) {
  const seen *s = &d->seen[entry];
  int deep = (uint64_t)d->depth + s->height > d->max_depth;
  if (deep || s->charge > (uint64_t)d->budget) {
    fbe_error e;
    if (!d->cut &&
        fbe_verify(d->type, d->model, d->p, (size_t)d->size, d->limits, NULL, &e) != FBE_OK) {
      *d->err = e;
      return -1;
    }
    return deep ? too_deep(d, at) : over_budget(d, at); /* a cut input: verify stops at once */
  }
  d->budget -= (int64_t)s->charge;
  if (d->depth + s->height > d->deepest) d->deepest = d->depth + s->height;
  return 0;
}

/* ------------------------------------------------------------ values */

static int scalar(dumper *d, const fbe_type *t, uint64_t at) {
  if (add(d, at, t->wire_size, K_SCALAR)) return -1;
  fbe_error e;
  if (t->wire == FBE_KIND_DECIMAL && fbei_decimal_bad(d->p + at))
    return fbei_decimal_error(&e, (size_t)at, d->p + at), stop_as_verify(d, &e);
  return 0;
}

/* A string that is not UTF-8 ends the walk, as in verify. */
static int check_text(dumper *d, fbe_kind wire, uint64_t at, uint32_t n) {
  if (wire != FBE_KIND_STRING) return 0;
  size_t ok = fbei_utf8_valid_prefix(d->p + at, n);
  fbe_error e;
  if (ok != n)
    return fbei_utf8_error(&e, FBE_ERR_MALFORMED, (size_t)at, d->p + at, n, ok),
           stop_as_verify(d, &e);
  return 0;
}

/* ------------------------------------------------------------ standard model */

/* A pointer refused as verify refuses it (fbe_std_target), with its words. */
static int bad_pointer(dumper *d, uint64_t slot, uint32_t ptr, uint64_t target) {
  if (d->cut) /* truncated input: the walk of what is there */
    return stop(d, FBE_FAULT_POINTER_OUTSIDE, slot, U(ptr), d->where);
  fbe_error e; /* verify's words */
  fbei_fault_bad_pointer(&e, slot, ptr, target);
  return stop_as_verify(d, &e);
}

/* The kind of the line of a pointer at slot relative to base: only a pointer stored
 * in an optional's value slot is relative to itself. */
static uint8_t pointer_kind(uint64_t slot, uint64_t base) {
  return base == slot ? K_POINTER_IN_SLOT : K_POINTER;
}

/* The line of the pointer at slot (relative to base) to a block of `need` bytes,
 * which must lie inside [0, end) after the slot, as verify checks. *at receives the
 * block; *shared its seen entry when another pointer led to it before (else -1, and
 * *entry the entry made for it). */
static int block_pointer(dumper *d, uint8_t kind, uint64_t slot, uint64_t base, uint64_t need,
                         uint64_t *at, int64_t *shared, uint32_t *entry) {
  uint32_t ptr = fbe_load32(d->p + slot);
  uint64_t target = base + ptr;
  if (target <= slot || target > d->end || need > d->end - target)
    return add(d, slot, 4, kind) ? -1 : bad_pointer(d, slot, ptr, target);
  const frame *f = &d->frames[d->nframes - 1];
  const fbe_type *t = fbei_dump_step_type(f->n.type, d->step, d->arg);
  block_key k = fbei_dump_key_of(d->p, kind, t, slot, base);
  *at = target;
  *shared = fbei_dump_seen_find(d, &k);
  if (*shared >= 0) return add(d, slot, 4, kind | K_SHARED);
  return add(d, slot, 4, kind) || seen_add(d, &k, slot, entry) ? -1 : 0;
}

static int std_value(dumper *d, const fbe_type *t, uint64_t slot, uint64_t base,
                     const fbe_field *f);

/* f: the struct field the value is (absent data takes its default), or NULL. */
static int std_blob(dumper *d, fbe_kind wire, uint64_t slot, uint64_t base, const fbe_field *f) {
  uint64_t at = 0;
  int64_t shared;
  uint32_t entry;
  if (fbe_load32(d->p + slot) == 0) {
    if (add(d, slot, 4, K_POINTER_0_DEFAULT)) return -1;
    return f ? charge(d, slot, f->default_cost) : 0;
  }
  if (block_pointer(d, pointer_kind(slot, base), slot, base, 4, &at, &shared, &entry)) return -1;
  uint32_t n = fbe_load32(d->p + at);
  if (shared >= 0) return charge(d, slot, fbei_cost_bytes(n));
  if (add(d, at, 4, K_LENGTH)) return -1;
  if (n > d->end - at - 4) return stop(d, FBE_FAULT_SIZE_PAST_END, at, U(n), d->where);
  return add(d, at + 4, n, K_DATA) || charge(d, slot, fbei_cost_bytes(n)) ||
                 check_text(d, wire, at + 4, n)
             ? -1
             : 0;
}

/* The fields of a body of `size` bytes at b that fit (the inherited part only as a
 * whole, FORMAT.md 5.10), then whatever the body holds beyond them; the fields it
 * lacks are charged their defaults, as verify does. */
static int std_fields(dumper *d, const fbe_struct *st, uint64_t b, uint32_t size) {
  uint32_t known = 8, first = st->base_body_size <= size ? 0 : st->ninherited, i = first;
  const fbe_field *missing = NULL;
  for (; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    if (f->wire_offset + f->type->wire_size > size) {
      missing = f;
      break;
    }
    set_step(d, S_FIELD, i);
    if (std_value(d, f->type, b + f->wire_offset, b, f)) return -1;
    known = f->wire_offset + f->type->wire_size;
  }
  set_step(d, S_NONE, 0);
  if (st->base_body_size > size && st->ninherited) missing = &st->fields[0];
  if (known < size &&
      add_arg(d, b + known, size - known, missing ? K_NOT_READ : K_AFTER_FIELDS,
              missing ? (uint32_t)(missing - st->fields) : 0))
    return -1;
  if (size >= st->body_size) return 0;
  return charge(d, b, fbei_cost_defaults(st, 0, first) + fbei_cost_defaults(st, i, st->nfields));
}

static int std_struct(dumper *d, uint64_t slot, uint64_t base, const fbe_struct *st, int root) {
  uint64_t b = 0;
  int64_t shared = -1;
  uint32_t entry = 0, ptr = fbe_load32(d->p + slot);
  if (root) {
    if (add(d, slot, 4, K_ROOT_POINTER)) return -1;
    if (ptr == 0) return stop(d, FBE_FAULT_STRUCT_POINTER_0, slot);
    b = base + ptr;
    if (b <= slot || b > d->end || 8 > d->end - b) return bad_pointer(d, slot, ptr, b);
  } else {
    if (ptr == 0) return add(d, slot, 4, K_POINTER_0) ? -1 : stop(d, FBE_FAULT_STRUCT_POINTER_0, slot);
    if (block_pointer(d, pointer_kind(slot, base), slot, base, 8, &b, &shared, &entry)) return -1;
    if (shared >= 0) return revisit(d, (uint32_t)shared, b);
  }
  visit v;
  visit_begin(d, entry, &v);
  if (open_container(d, st->self_type, b, b)) return -1;
  uint32_t size = fbe_load32(d->p + b), type_id = fbe_load32(d->p + b + 4);
  if (add(d, b, 4, K_BODY_SIZE) || add(d, b + 4, 4, K_TYPE_ID)) return -1;
  if (size < 8) return stop(d, FBE_FAULT_STRUCT_SMALL, b, U(size));
  if (size > d->end - b) return stop(d, FBE_FAULT_STRUCT_PAST_END, b, U(size), d->where);
  if (type_id != st->type_id)
    return stop(d, FBE_FAULT_TYPE_ID, b + 4, U(type_id), st->full_name, U(st->type_id));
  if (std_fields(d, st, b, size)) return -1;
  close_container(d);
  if (!root) visit_end(d, &v);
  return 0;
}

static int std_value(dumper *d, const fbe_type *t, uint64_t slot, uint64_t base,
                     const fbe_field *f) {
  uint64_t at = 0;
  int64_t shared = -1;
  uint32_t entry = 0;
  visit v;
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return std_blob(d, t->wire, slot, base, f);
    case FBE_KIND_STRUCT: return std_struct(d, slot, base, t->st, 0);
    case FBE_KIND_OPTIONAL: {
      uint8_t flag = d->p[slot];
      if (flag == 0) {
        if (add(d, slot, 1, K_NULL_FLAG) || add(d, slot + 1, 4, K_NULL_POINTER)) return -1;
        return f ? charge(d, slot, f->default_cost) : 0;
      }
      if (add(d, slot, 1, K_HAS_VALUE)) return -1;
      if (fbe_load32(d->p + slot + 1) == 0) {
        if (add(d, slot + 1, 4, K_POINTER_0)) return -1;
        return stop(d, FBE_FAULT_OPTIONAL_EMPTY, slot);
      }
      if (block_pointer(d, K_POINTER_TO_SLOT, slot + 1, base, t->elem->wire_size, &at, &shared,
                        &entry) ||
          enter(d, at, fbei_cost_optional(t)))
        return -1;
      if (shared >= 0) {
        if (revisit(d, (uint32_t)shared, at)) return -1;
      } else {
        /* the base moves to the value slot (FORMAT.md 5.5) */
        visit_begin(d, entry, &v);
        if (t->elem->wire == FBE_KIND_STRUCT ? std_struct(d, at, at, t->elem->st, 0)
                                             : std_value(d, t->elem, at, at, NULL))
          return -1;
        visit_end(d, &v);
      }
      d->depth--;
      return 0;
    }
    case FBE_KIND_ARRAY: {
      uint32_t i = 0;
      if (open_container(d, t, base, slot) ||
          (plain(t->elem) && scalar_run(d, t->elem, slot, t->array_size, &i)))
        return -1;
      for (; i < t->array_size; i++) {
        set_step(d, S_INDEX, i);
        if (std_value(d, t->elem, slot + (uint64_t)i * t->elem->wire_size, base, NULL)) return -1;
      }
      close_container(d);
      return 0;
    }
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      if (fbe_load32(d->p + slot) == 0) return add(d, slot, 4, K_POINTER_0_EMPTY);
      if (block_pointer(d, K_POINTER, slot, base, 4, &at, &shared, &entry)) return -1;
      uint32_t n = fbe_load32(d->p + at);
      if (shared >= 0) { /* its count was checked when it was first read */
        if (enter(d, at, fbei_cost_sequence(t, n)) || revisit(d, (uint32_t)shared, at)) return -1;
        d->depth--;
        return 0;
      }
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint64_t stride = (uint64_t)t->elem->wire_size + (k ? k->wire_size : 0);
      if (open_container(d, t, base, at) || add(d, at, 4, K_COUNT)) return -1;
      if (stride * n > d->end - at - 4)
        return stop(d, FBE_FAULT_ELEMENTS, at, U(n), d->where);
      if (enter(d, at, fbei_cost_sequence(t, n))) return -1;
      visit_begin(d, entry, &v);
      uint32_t i = 0;
      if (!k && plain(t->elem) && scalar_run(d, t->elem, at + 4, n, &i)) return -1;
      for (; i < n; i++) {
        uint64_t item = at + 4 + i * stride;
        if (k) {
          set_step(d, S_KEY, i);
          if (std_value(d, k, item, base, NULL)) return -1;
          set_step(d, S_VALUE, i);
          if (std_value(d, t->elem, item + k->wire_size, base, NULL)) return -1;
        } else {
          set_step(d, S_INDEX, i);
          if (std_value(d, t->elem, item, base, NULL)) return -1;
        }
      }
      visit_end(d, &v);
      d->depth--;
      close_container(d);
      return 0;
    }
    default:
      return scalar(d, t, slot);
  }
}

/* The model size line (when 4 bytes are there); `least` is the smallest model. */
static int size_line(dumper *d, uint32_t total, uint64_t least) {
  if (d->size < 4) return 0;
  return add(d, 0, 4, d->size >= least && total > d->size ? K_MODEL_SIZE_SHORT : K_MODEL_SIZE);
}

/* verify's budget for a model of `total` bytes, and the root value's share of it. */
static int start_budget(dumper *d, const fbe_struct *st, uint32_t total) {
  d->budget_limit = fbei_limits_budget(d->limits, total);
  d->budget = d->budget_limit > INT64_MAX ? INT64_MAX : (int64_t)d->budget_limit;
  return charge(d, 0, fbei_cost_root(st));
}

/* Returns 0 when the model is valid; *model_end receives where the model ends (0:
 * unknown, the header is unusable). */
static int dump_standard(dumper *d, const fbe_struct *st, uint64_t *model_end) {
  uint64_t size = d->size;
  uint32_t total = size >= 4 ? fbe_load32(d->p) : 0;
  if (size_line(d, total, 16)) return -1;
  if (size < 16)
    return stop(d, FBE_FAULT_FEW_BYTES_STANDARD, 0, U(size));
  if (total < 16) return stop(d, FBE_FAULT_MODEL_SMALL_STANDARD, 0, U(total));
  if (total > size) d->where = "buffer", d->cut = 1; /* truncated: walk what is there */
  d->end = total < size ? total : size;
  *model_end = d->end;
  if (start_budget(d, st, total) || std_struct(d, 4, 0, st, 1)) return -1;
  if (total > size) return stop(d, FBE_FAULT_MODEL_PAST_BUFFER, 0, U(total));
  return 0;
}

/* ------------------------------------------------------------ final model */

static int fin_short(dumper *d, uint64_t pos, uint64_t n) {
  return stop(d, FBE_FAULT_BYTES_PAST_END, pos, U(n), d->where);
}

static int fin_value(dumper *d, const fbe_type *t, uint64_t *pos);

static int fin_fields(dumper *d, const fbe_struct *st, uint64_t *pos) {
  for (uint32_t i = 0; i < st->nfields; i++) {
    set_step(d, S_FIELD, i);
    if (fin_value(d, st->fields[i].type, pos)) return -1;
  }
  set_step(d, S_NONE, 0);
  return 0;
}

static int fin_value(dumper *d, const fbe_type *t, uint64_t *pos) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: {
      if (4 > d->end - *pos) return fin_short(d, *pos, 4);
      uint32_t n = fbe_load32(d->p + *pos);
      if (add(d, *pos, 4, K_LENGTH)) return -1;
      if (n > d->end - *pos - 4)
        return stop(d, FBE_FAULT_SIZE_PAST_END, *pos, U(n), d->where);
      *pos += 4;
      if (add(d, *pos, n, K_DATA)) return -1;
      /* as in verify: no body is shared in the final model, so the strings' charge is
       * checked once, at the end (dump_final), and by the next enter() */
      d->budget -= (int64_t)fbei_cost_bytes(n);
      if (check_text(d, t->wire, *pos, n)) return -1;
      *pos += n;
      return 0;
    }
    case FBE_KIND_STRUCT:
      if (open_container(d, t, 0, *pos) || fin_fields(d, t->st, pos)) return -1;
      close_container(d);
      return 0;
    case FBE_KIND_OPTIONAL: {
      if (*pos >= d->end) return fin_short(d, *pos, 1);
      uint8_t flag = d->p[*pos];
      if (add(d, *pos, 1, flag ? K_HAS_VALUE : K_NULL_FLAG)) return -1;
      (*pos)++;
      if (!flag) return 0;
      if (enter(d, *pos, fbei_cost_optional(t)) || fin_value(d, t->elem, pos)) return -1;
      d->depth--;
      return 0;
    }
    case FBE_KIND_ARRAY: {
      uint32_t i = 0;
      if (open_container(d, t, 0, *pos) ||
          (plain(t->elem) && scalar_run(d, t->elem, *pos, t->array_size, &i)))
        return -1;
      *pos += (uint64_t)i * t->elem->wire_size;
      for (; i < t->array_size; i++) {
        set_step(d, S_INDEX, i);
        if (fin_value(d, t->elem, pos)) return -1;
      }
      close_container(d);
      return 0;
    }
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      if (4 > d->end - *pos) return fin_short(d, *pos, 4);
      uint32_t n = fbe_load32(d->p + *pos);
      const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
      uint64_t least = (uint64_t)t->elem->final_min + (k ? k->final_min : 0);
      if (open_container(d, t, 0, *pos) || add(d, *pos, 4, K_COUNT)) return -1;
      if (least * n > d->end - *pos - 4)
        return stop(d, FBE_FAULT_ELEMENTS, *pos, U(n), d->where);
      if (enter(d, *pos, fbei_cost_sequence(t, n))) return -1;
      *pos += 4;
      uint32_t i = 0;
      if (!k && plain(t->elem) && scalar_run(d, t->elem, *pos, n, &i)) return -1;
      *pos += (uint64_t)i * t->elem->wire_size;
      for (; i < n; i++) {
        if (k) {
          set_step(d, S_KEY, i);
          if (fin_value(d, k, pos)) return -1;
          set_step(d, S_VALUE, i);
          if (fin_value(d, t->elem, pos)) return -1;
        } else {
          set_step(d, S_INDEX, i);
          if (fin_value(d, t->elem, pos)) return -1;
        }
      }
      d->depth--;
      close_container(d);
      return 0;
    }
    default:
      if (t->wire_size > d->end - *pos) return fin_short(d, *pos, t->wire_size);
      if (scalar(d, t, *pos)) return -1;
      *pos += t->wire_size;
      return 0;
  }
}

static int dump_final(dumper *d, const fbe_struct *st, uint64_t *model_end) {
  uint64_t size = d->size;
  uint32_t total = size >= 4 ? fbe_load32(d->p) : 0;
  if (size_line(d, total, 8)) return -1;
  if (size < 8)
    return stop(d, FBE_FAULT_FEW_BYTES_FINAL, 0, U(size));
  uint32_t type_id = fbe_load32(d->p + 4);
  if (add(d, 4, 4, K_MODEL_TYPE_ID)) return -1;
  if (total < 8) return stop(d, FBE_FAULT_MODEL_SMALL_FINAL, 0, U(total));
  if (total > size) d->where = "buffer", d->cut = 1; /* truncated: walk what is there */
  if (type_id != st->type_id)
    return stop(d, FBE_FAULT_TYPE_ID, 4, U(type_id), st->full_name, U(st->type_id));
  d->end = total < size ? total : size;
  *model_end = d->end;
  uint64_t pos = 8;
  if (start_budget(d, st, total) || open_container(d, st->self_type, 0, 8) ||
      fin_fields(d, st, &pos))
    return -1;
  if (total > size) return stop(d, FBE_FAULT_MODEL_PAST_BUFFER, 0, U(total));
  if (pos != total) return stop(d, FBE_FAULT_FIELDS_END, pos, U(total));
  if (d->budget < 0) return over_budget(d, 8); /* the strings (fin_value) */
  return 0;
}

fbe_status fbe_dump_to(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                       const fbe_limits *limits, fbe_dump_write_fn write, void *ctx,
                       fbe_error *err) {
  fbe_error local;
  if (!err) err = &local;
  if (!type || !write || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no type, data or writer");
  uint64_t max_size = fbei_limits_size(limits);
  dumper d;
  memset(&d, 0, sizeof d);
  d.p = data;
  d.size = size;
  d.where = "model";
  d.type = type;
  d.model = model;
  d.limits = limits;
  d.max_depth = fbei_limits_depth(limits);
  d.room = fbe_limits_memory(limits, size);
  d.err = err;
  err->code = FBE_OK;
  err->path[0] = '\0';

  uint64_t model_end = 0;
  int rc;
  if (size >= 4 && fbe_load32(data) > max_size) {
    rc = add(&d, 0, 4, K_MODEL_SIZE) ||
         stop(&d, FBE_FAULT_MODEL_LIMIT, 0, U(fbe_load32(data)), U(max_size));
  } else {
    rc = model == FBE_MODEL_FINAL ? dump_final(&d, type, &model_end)
                                  : dump_standard(&d, type, &model_end);
  }
  fbe_status status = rc ? err->code : FBE_OK;
  cursor *runs = d.nruns ? fbei_mem_alloc(d.nruns * sizeof *runs) : NULL;
  if (d.nruns && !runs) status = FBE_ERR_NOMEM, nomem(&d);
  if (status != FBE_ERR_NOMEM && /* out of memory: nothing is written */
      fbei_dump_print(&d, model_end, rc != 0, runs, write, ctx))
    status = fbei_error_set(err, FBE_ERR_IO, FBE_NO_OFFSET, "the writer of the dump failed");
  fbei_mem_free(runs);
  fbei_mem_free(d.ranges);
  fbei_mem_free(d.nodes);
  fbei_mem_free(d.frames);
  fbei_mem_free(d.seen);
  fbei_index_table_free(&d.seen_index);
  return status;
}

/* fbe_dump's writer: appends to the buffer. */
typedef struct buffer_writer {
  fbe_buffer *out;
  int nomem;
} buffer_writer;

static int append(void *ctx, const char *text, size_t n) {
  buffer_writer *w = ctx;
  if (fbe_buffer_append(w->out, text, n)) w->nomem = 1;
  return w->nomem;
}

fbe_status fbe_dump(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                    const fbe_limits *limits, fbe_buffer *out, fbe_error *err) {
  if (!type || !out || (!data && size))
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no type, data or output buffer");
  size_t kept = out->size;
  buffer_writer w = {out, 0};
  fbe_status s = fbe_dump_to(type, model, data, size, limits, append, &w, err);
  if (w.nomem) s = fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory while dumping");
  if (s == FBE_ERR_NOMEM) out->size = kept; /* no half dumps */
  return s;
}

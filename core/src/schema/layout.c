/* Compiles a resolved schema into the flat tables the codecs walk: standard-model
 * inline sizes and slot offsets, in-memory slot sizes/offsets, and one default image
 * per struct (copied by every new value, so creating a message is a memcpy). */
#include <string.h>
#include "fbe/error.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/value.h"
#include "fbe/internal/cost.h"
#include "fbe/internal/endian.h"

static uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) & ~(a - 1); }

/* Sizes are 32-bit and must not wrap (int64[536870912] is 2^32 bytes); a value this
 * large in memory, in a standard body or in the final model is refused, and so is a
 * schema whose default images (one per struct, built here) add up to more. */
#define LAYOUT_MAX_SIZE ((uint64_t)1 << 24)
#define LAYOUT_MAX_IMAGES ((uint64_t)1 << 26)
#define LAYOUT_TOO_LARGE (-2)
#define LAYOUT_TOO_MANY_STEPS (-3)

/* One layout run: the schema arena and what the caps count so far. Both caps are
 * checked before the memory is taken, nested structs (laid out first) included. */
typedef struct layout_ctx {
  fbe_arena *arena;
  uint64_t images; /* bytes of default images (LAYOUT_MAX_IMAGES) */
  uint64_t steps;  /* final-model steps of every struct (FBE_SCHEMA_MAX_STEPS) */
  const fbe_struct *crossed; /* the struct that took steps past the cap */
} layout_ctx;

static int struct_layout(fbe_struct *st, layout_ctx *lx);

/* Sizes of a type node. Plain structs and arrays need their contents laid out first;
 * optionals and collections hold pointers, so their struct elements and collection
 * elements can wait (pass 2). */
static int type_sizes(fbe_type *t, layout_ctx *lx) {
  int rc;
  switch (t->kind) {
    case FBE_KIND_BOOL: case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_WCHAR:
    case FBE_KIND_INT8: case FBE_KIND_UINT8: case FBE_KIND_INT16: case FBE_KIND_UINT16:
    case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_INT64: case FBE_KIND_UINT64:
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: case FBE_KIND_TIMESTAMP:
    case FBE_KIND_DECIMAL: case FBE_KIND_UUID: /* fixed-size scalars: the kind table's size */
      t->wire_size = t->mem_size = fbei_kind_size(t->kind);
      t->mem_align = t->mem_size <= 8 ? t->mem_size : 1; /* decimal, uuid: byte arrays */
      break;
    case FBE_KIND_STRING: case FBE_KIND_BYTES:
      t->wire_size = 4; t->mem_size = sizeof(fbei_str); t->mem_align = _Alignof(fbei_str);
      t->final_min = 4;
      break;
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: {
      fbe_type base;
      memset(&base, 0, sizeof base);
      base.kind = t->wire;
      type_sizes(&base, lx);
      t->wire_size = base.wire_size; t->mem_size = base.mem_size; t->mem_align = base.mem_align;
      t->final_min = base.final_min;
      break;
    }
    case FBE_KIND_STRUCT:
      if ((rc = struct_layout((fbe_struct *)t->st, lx))) return rc;
      t->wire_size = 4; t->mem_size = t->st->mem_size; t->mem_align = 8;
      t->final_min = t->st->final_min;
      break;
    case FBE_KIND_OPTIONAL:
      /* Only a struct element may wait (it may contain this struct); any other element
       * is sized now: a constant default (field_image) is stored in an element slot. */
      if (t->elem->kind != FBE_KIND_STRUCT && (rc = type_sizes((fbe_type *)t->elem, lx)))
        return rc;
      if (t->elem->kind != FBE_KIND_STRUCT) /* a struct's: in pass 2 (type_full) */
        t->item_cost = fbei_cost_bytes(t->elem->mem_size) + t->elem->cost;
      t->wire_size = 5; t->mem_size = sizeof(void *); t->mem_align = _Alignof(void *);
      t->final_min = 1;
      break;
    case FBE_KIND_ARRAY: {
      fbe_type *e = (fbe_type *)t->elem;
      if ((rc = type_sizes(e, lx))) return rc;
      uint64_t n = t->array_size;
      if (e->wire_size * n > LAYOUT_MAX_SIZE || e->mem_size * n > LAYOUT_MAX_SIZE ||
          e->final_min * n > LAYOUT_MAX_SIZE)
        return LAYOUT_TOO_LARGE;
      t->wire_size = e->wire_size * t->array_size;
      t->mem_size = e->mem_size * t->array_size;
      t->mem_align = e->mem_align;
      t->final_min = e->final_min * t->array_size;
      break;
    }
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      t->wire_size = 4; t->mem_size = sizeof(fbei_vec); t->mem_align = _Alignof(fbei_vec);
      t->final_min = 4;
      break;
    default: return -1;
  }
  if (t->kind <= FBE_KIND_UUID) t->final_min = t->wire_size; /* fixed-size scalars */
  /* Decimals are not copied blindly: verify and decode check each one (scale, reserved bits). */
  t->copyable = !FBE_BIG_ENDIAN && t->wire_size == t->mem_size &&
                ((t->wire >= FBE_KIND_BYTE && t->wire <= FBE_KIND_UUID && t->wire != FBE_KIND_DECIMAL) ||
                 (t->kind == FBE_KIND_ARRAY && t->elem->copyable));
  /* budget charge (cost.h): one value, or all the values of an inline struct or array */
  t->cost = t->kind == FBE_KIND_STRUCT  ? t->st->cost
            : t->kind == FBE_KIND_ARRAY ? FBE_VALUE_CHARGE + (uint64_t)t->array_size * t->elem->cost
                                        : FBE_VALUE_CHARGE;
  return 0;
}

/* Pass 2: every node of a field's type tree, elements behind pointers included. */
static int type_full(fbe_type *t, layout_ctx *lx) {
  int rc;
  if ((rc = type_sizes(t, lx))) return rc;
  if (t->kind == FBE_KIND_STRUCT) return 0;
  if (t->key && (rc = type_full((fbe_type *)t->key, lx))) return rc;
  if (t->elem && (rc = type_full((fbe_type *)t->elem, lx))) return rc;
  if (t->key) {
    const fbe_type *k = t->key, *v = t->elem;
    uint32_t align = k->mem_align > v->mem_align ? k->mem_align : v->mem_align;
    t->pair_value_offset = align_up(k->mem_size, v->mem_align);
    t->pair_stride = align_up(t->pair_value_offset + v->mem_size, align);
  }
  /* the budget's charges of a present optional and of one element (cost.h) */
  if (t->kind == FBE_KIND_OPTIONAL) {
    t->item_cost = fbei_cost_bytes(t->elem->mem_size) + t->elem->cost;
  } else if (t->wire == FBE_KIND_VECTOR || t->wire == FBE_KIND_MAP) {
    t->item_size = t->key ? t->pair_stride : t->elem->mem_size;
    t->item_cost = t->elem->cost + (t->key ? t->key->cost : 0);
  }
  return 0;
}

/* Writes a static default (no utc/uuid evaluation) of a type into an image slot. */
static void image_init(const fbe_type *t, uint8_t *slot) {
  if (t->kind == FBE_KIND_STRUCT) {
    memcpy(slot, t->st->defaults, t->st->mem_size);
  } else if (t->kind == FBE_KIND_ARRAY) {
    for (uint32_t i = 0; i < t->array_size; i++) image_init(t->elem, slot + i * t->elem->mem_size);
  }
  /* everything else: zero, already there */
}

static int is_dynamic(fbei_default_kind k) {
  return k == FBE_DEF_UTC || k == FBE_DEF_UUID1 || k == FBE_DEF_UUID4;
}

/* Writes a declared constant default into slot (a slot of type t, not optional). */
static void constant_store(const fbe_type *t, const fbei_default *d, uint8_t *slot) {
  switch (d->kind) {
    case FBE_DEF_BOOL: case FBE_DEF_INT: fbei_scalar_store(t->wire, slot, d->u); break;
    case FBE_DEF_FLOAT:
      if (t->wire == FBE_KIND_FLOAT) {
        float f = (float)d->d;
        memcpy(slot, &f, 4);
      } else {
        memcpy(slot, &d->d, 8);
      }
      break;
    case FBE_DEF_DECIMAL: case FBE_DEF_UUID: memcpy(slot, d->bytes, 16); break;
    case FBE_DEF_STRING: {
      fbei_str s = {(const uint8_t *)d->str, d->len};
      memcpy(slot, &s, sizeof s);
      break;
    }
    default: break;
  }
}

/* What a field's default adds to its type's cost: what decoding one allocates or a
 * binding builds beyond the slot (a default string's bytes, a present optional). */
static uint64_t field_default_cost(const fbe_field *f) {
  const fbe_type *t = f->type;
  if (is_dynamic(f->def.kind)) /* utc/uuid: an optional one gets a value slot */
    return t->kind == FBE_KIND_OPTIONAL ? fbei_cost_bytes(t->elem->mem_size) + t->elem->cost : 0;
  if (t->kind == FBE_KIND_STRUCT || t->kind == FBE_KIND_ARRAY) return fbei_cost_image(t);
  if (f->def.kind == FBE_DEF_NONE || f->def.kind == FBE_DEF_NULL) return 0;
  uint64_t text = f->def.kind == FBE_DEF_STRING ? fbei_cost_bytes(f->def.len) : 0;
  if (t->kind == FBE_KIND_OPTIONAL) return fbei_cost_bytes(t->elem->mem_size) + t->elem->cost + text;
  return text;
}

static int field_image(const fbe_field *f, uint8_t *slot, fbe_arena *arena, bool *dynamic) {
  const fbe_type *t = f->type;
  if (is_dynamic(f->def.kind)) {
    *dynamic = true;
    return 0;
  }
  if (t->kind == FBE_KIND_STRUCT || t->kind == FBE_KIND_ARRAY) {
    image_init(t, slot);
    if (t->kind == FBE_KIND_STRUCT && t->st->dynamic_defaults) *dynamic = true;
    if (t->kind == FBE_KIND_ARRAY && t->elem->kind == FBE_KIND_STRUCT &&
        t->elem->st->dynamic_defaults)
      *dynamic = true;
    return 0;
  }
  if (f->def.kind == FBE_DEF_NONE || f->def.kind == FBE_DEF_NULL) return 0;
  if (t->kind == FBE_KIND_OPTIONAL) {
    /* Present by default: the value slot is schema-owned and never written through. */
    uint8_t *value = fbe_arena_alloc(arena, t->elem->mem_size);
    if (!value) return -1;
    memset(value, 0, t->elem->mem_size);
    constant_store(t->elem, &f->def, value);
    memcpy(slot, &value, sizeof value);
    return 0;
  }
  constant_store(t, &f->def, slot);
  return 0;
}

static fbei_op_code op_code(const fbe_type *t) {
  if (t->copyable) return FBE_OP_COPYN;
  switch (t->wire) {
    case FBE_KIND_BOOL: return FBE_OP_BOOL;
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return FBE_OP_BLOB;
    case FBE_KIND_STRUCT: return FBE_OP_STRUCT;
    case FBE_KIND_OPTIONAL: return FBE_OP_OPTIONAL;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: return FBE_OP_SEQUENCE;
    default: return FBE_OP_VALUE;
  }
}

static int is_copy(fbei_op_code c) { return c <= FBE_OP_COPYN; }

/* Appends a step; a copy joins the previous copy when both follow without a gap in
 * memory and on the wire (check_wire: the standard body; the final model has no gaps). */
static void emit(fbei_op *ops, uint32_t *n, fbei_op op, int check_wire) {
  fbei_op *last = *n ? &ops[*n - 1] : NULL;
  if (is_copy(op.code) && last && is_copy(last->code) &&
      last->mem_offset + last->size == op.mem_offset &&
      (!check_wire || last->wire_offset + last->size == op.wire_offset)) {
    last->size += op.size;
  } else {
    ops[(*n)++] = op;
  }
}

/* Picks the copy variant for each copy's final size. */
static void size_copies(fbei_op *ops, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (!is_copy(ops[i].code)) continue;
    switch (ops[i].size) {
      case 1: ops[i].code = FBE_OP_COPY1; break;
      case 2: ops[i].code = FBE_OP_COPY2; break;
      case 4: ops[i].code = FBE_OP_COPY4; break;
      case 8: ops[i].code = FBE_OP_COPY8; break;
      default: ops[i].code = FBE_OP_COPYN; break;
    }
  }
}

/* Picks verify's check of a step that reads bytes (fbei_check_code). */
static void set_check(fbei_op *op) {
  const fbe_type *t = op->field->type;
  op->type = t;
  op->st = NULL;
  switch (t->wire) {
    case FBE_KIND_STRING: op->check = FBE_CHECK_TEXT; return;
    case FBE_KIND_BYTES: op->check = FBE_CHECK_BYTES; return;
    case FBE_KIND_STRUCT: op->check = FBE_CHECK_STRUCT; op->st = t->st; return;
    case FBE_KIND_OPTIONAL:
      if (t->elem->wire != FBE_KIND_STRUCT) break;
      op->check = FBE_CHECK_OPTIONAL_STRUCT;
      op->st = t->elem->st;
      return;
    case FBE_KIND_VECTOR:
      if (t->elem->wire != FBE_KIND_STRUCT) break;
      op->check = FBE_CHECK_STRUCTS;
      op->st = t->elem->st;
      return;
    default: break;
  }
  op->check = FBE_CHECK_VALUE;
}

/* Longest path an error can show (fbe_error.path, error.c). */
#define PATH_MAX_LEN (sizeof(((fbe_error *)0)->path) - 1)

/* "outer.inner" in the schema arena, for error paths of flattened steps. A path longer
 * than an error can show becomes "..." and its end, shared by every outer level: so a
 * step costs at most PATH_MAX_LEN bytes however deep its field is nested. */
static const char *join_path(fbe_arena *arena, const char *outer, const char *inner) {
  size_t a = strlen(outer), b = strlen(inner);
  if (a + b + 1 <= PATH_MAX_LEN) {
    char *p = fbe_arena_alloc(arena, a + b + 2);
    if (!p) return NULL;
    memcpy(p, outer, a);
    p[a] = '.';
    memcpy(p + a + 1, inner, b + 1);
    return p;
  }
  if (strncmp(inner, "...", 3) == 0) return inner; /* already cut (no name starts so) */
  size_t keep = b < PATH_MAX_LEN - 3 ? b : PATH_MAX_LEN - 3;
  char *p = fbe_arena_alloc(arena, keep + 4);
  if (!p) return NULL;
  memcpy(p, "...", 3);
  memcpy(p + 3, inner + b - keep, keep + 1);
  return p;
}

/* Whether every step of a verify program is a string or bytes (fbe_struct.blobs_only). */
static bool blobs_only(const fbei_op *ops, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (ops[i].check != FBE_CHECK_TEXT && ops[i].check != FBE_CHECK_BYTES) return false;
  return true;
}

/* The steps of a verify program (up to its END) that hold a struct whose own steps in that
 * model are all strings and bytes get the FBE_CHECK_BLOBS_* checks. */
static void blobs_checks(fbei_op *op, bool final) {
  for (; op->check != FBE_CHECK_END; op++) {
    if (!op->st || !(final ? op->st->final_blobs_only : op->st->blobs_only)) continue;
    switch (op->check) {
      case FBE_CHECK_STRUCT: op->check = FBE_CHECK_BLOBS_STRUCT; break;
      case FBE_CHECK_OPTIONAL_STRUCT: op->check = FBE_CHECK_OPTIONAL_BLOBS; break;
      case FBE_CHECK_STRUCTS: op->check = FBE_CHECK_BLOBS_STRUCTS; break;
      default: break;
    }
  }
}

/* Builds the three programs of a struct (nested plain structs are built first). */
static int build_ops(fbe_struct *st, layout_ctx *lx) {
  fbe_arena *arena = lx->arena;
  uint64_t nflat = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_type *t = st->fields[i].type;
    nflat += t->kind == FBE_KIND_STRUCT ? t->st->nfinal_ops : 1;
  }
  if ((lx->steps += nflat) > FBE_SCHEMA_MAX_STEPS) {
    lx->crossed = st;
    return LAYOUT_TOO_MANY_STEPS;
  }
  st->ops = fbe_arena_alloc(arena, sizeof(fbei_op) * (st->nfields + 1));
  st->ptr_ops = fbe_arena_alloc(arena, sizeof(fbei_op) * (st->nfields + 1));
  st->final_ops = fbe_arena_alloc(arena, sizeof(fbei_op) * (nflat + 1));
  st->final_checks = fbe_arena_alloc(arena, sizeof(fbei_op) * (nflat + 1));
  if (!st->ops || !st->ptr_ops || !st->final_ops || !st->final_checks) return -1;
  st->nops = st->nptr_ops = st->nfinal_ops = st->nfinal_checks = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    fbei_op op = {op_code(f->type), f->type->wire_size, f->mem_offset, f->wire_offset, f, f->name, 0,
                  FBE_CHECK_VALUE, 0, NULL, NULL};
    emit(st->ops, &st->nops, op, 1);
    if (op.code != FBE_OP_STRUCT) {
      emit(st->final_ops, &st->nfinal_ops, op, 0);
      continue;
    }
    const fbe_struct *inner = f->type->st;
    for (uint32_t j = 0; j < inner->nfinal_ops; j++) {
      fbei_op sub = inner->final_ops[j];
      sub.mem_offset += f->mem_offset;
      sub.wire_offset = 0;
      if (!(sub.path = join_path(arena, f->name, sub.path))) return -1;
      emit(st->final_ops, &st->nfinal_ops, sub, 0);
    }
  }
  size_copies(st->ops, st->nops);
  size_copies(st->final_ops, st->nfinal_ops);
  st->ops[st->nops] = (fbei_op){.code = FBE_OP_END};
  st->final_ops[st->nfinal_ops] = (fbei_op){.code = FBE_OP_END};
  /* room: a run of fixed steps is checked by its first step, or by the string before it */
  fbei_op *owner = NULL;
  for (uint32_t i = 0; i < st->nfinal_ops; i++) {
    fbei_op *op = &st->final_ops[i];
    if (FBE_OP_IS_FIXED(op->code)) {
      op->room = owner ? 0 : op->size;
      if (owner) owner->room += op->size;
      else owner = op;
    } else if (op->code == FBE_OP_BLOB) {
      op->room = 4;
      owner = op;
    } else {
      op->room = 0;
      owner = NULL;
    }
  }
  /* verify's programs: the steps that read bytes, each with its check; a fixed run that
   * no string's room covers becomes the `after` of the step before it (or the lead) */
  uint32_t pending = 0;
  st->final_lead = 0;
  for (uint32_t i = 0; i <= st->nfinal_ops; i++) {
    fbei_op op = st->final_ops[i];
    if (i < st->nfinal_ops && FBE_OP_IS_FIXED(op.code)) {
      pending += op.room;
      continue;
    }
    if (st->nfinal_checks) st->final_checks[st->nfinal_checks - 1].after = pending;
    else st->final_lead = pending;
    pending = 0;
    if (i == st->nfinal_ops) break;
    op.after = 0;
    set_check(&op);
    st->final_checks[st->nfinal_checks++] = op;
  }
  st->final_checks[st->nfinal_checks] = (fbei_op){.code = FBE_OP_END, .check = FBE_CHECK_END};
  for (uint32_t i = 0; i < st->nops; i++) {
    if (FBE_OP_IS_FIXED(st->ops[i].code)) continue;
    fbei_op op = st->ops[i];
    set_check(&op);
    st->ptr_ops[st->nptr_ops++] = op;
  }
  st->blobs_only = blobs_only(st->ptr_ops, st->nptr_ops);
  st->final_blobs_only = blobs_only(st->final_checks, st->nfinal_checks);
  st->ptr_ops[st->nptr_ops] = (fbei_op){.code = FBE_OP_END, .check = FBE_CHECK_END};
  return 0;
}

static int struct_layout(fbe_struct *st, layout_ctx *lx) {
  fbe_arena *arena = lx->arena;
  if (st->layout_state == 2) return 0;
  if (st->layout_state == 1) return -1; /* plain self-containment: the loader rejects it */
  st->layout_state = 1;
  uint32_t wire = 8, mem = 0, final_min = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    fbe_field *f = &st->fields[i];
    int rc = type_sizes((fbe_type *)f->type, lx);
    if (rc) return rc;
    /* every size so far and the next are at most LAYOUT_MAX_SIZE: no wrap in 32 bits */
    if ((uint64_t)final_min + f->type->final_min > LAYOUT_MAX_SIZE ||
        (uint64_t)wire + f->type->wire_size > LAYOUT_MAX_SIZE ||
        (uint64_t)mem + f->type->mem_align + f->type->mem_size > LAYOUT_MAX_SIZE)
      return LAYOUT_TOO_LARGE;
    final_min += f->type->final_min;
    if (i == st->ninherited) st->base_body_size = wire;
    f->wire_offset = wire;
    wire += f->type->wire_size;
    mem = align_up(mem, f->type->mem_align);
    f->mem_offset = mem;
    mem += f->type->mem_size;
  }
  if (st->ninherited == st->nfields) st->base_body_size = wire;
  st->body_size = wire;
  st->head_key = ((uint64_t)st->type_id << 32) + wire;
  st->final_min = final_min;
  st->mem_size = align_up(mem ? mem : 8, 8);
  if ((lx->images += st->mem_size) > LAYOUT_MAX_IMAGES) return LAYOUT_TOO_LARGE;
  uint8_t *image = fbe_arena_alloc(arena, st->mem_size);
  if (!image) return -1;
  memset(image, 0, st->mem_size);
  bool dynamic = false;
  for (uint32_t i = 0; i < st->nfields; i++)
    if (field_image(&st->fields[i], image + st->fields[i].mem_offset, arena, &dynamic)) return -1;
  st->defaults = image;
  st->dynamic_defaults = dynamic;
  st->cost = FBE_VALUE_CHARGE;
  st->default_cost = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    fbe_field *f = &st->fields[i];
    f->default_cost = field_default_cost(f);
    st->cost += f->type->cost;
    st->default_cost += f->default_cost;
  }
  st->root_cost = fbei_cost_root(st);
  int rc = build_ops(st, lx);
  if (rc) return rc;
  st->layout_state = 2;
  return 0;
}

int fbei_layout_compute(fbe_schema *schema, const fbe_struct **too_large) {
  layout_ctx lx = {schema->arena, 0, 0, NULL};
  int rc;
  *too_large = NULL;
  for (uint32_t p = 0; p < schema->npackages; p++) {
    const fbe_package *pkg = schema->packages[p];
    for (uint32_t s = 0; s < pkg->nstructs; s++) {
      *too_large = pkg->structs[s];
      if ((rc = struct_layout(pkg->structs[s], &lx))) {
        if (lx.crossed) *too_large = lx.crossed;
        return rc;
      }
    }
  }
  for (uint32_t p = 0; p < schema->npackages; p++) {
    const fbe_package *pkg = schema->packages[p];
    for (uint32_t s = 0; s < pkg->nstructs; s++) {
      fbe_struct *st = pkg->structs[s];
      *too_large = st;
      if (st->self_type && (rc = type_full((fbe_type *)st->self_type, &lx))) return rc;
      for (uint32_t i = 0; i < st->nfields; i++)
        if ((rc = type_full((fbe_type *)st->fields[i].type, &lx))) return rc;
    }
  }
  for (uint32_t p = 0; p < schema->npackages; p++) { /* every struct's blobs_only is known now */
    const fbe_package *pkg = schema->packages[p];
    for (uint32_t s = 0; s < pkg->nstructs; s++) {
      blobs_checks(pkg->structs[s]->ptr_ops, false);
      blobs_checks(pkg->structs[s]->final_checks, true);
    }
  }
  *too_large = NULL;
  return 0;
}

/* Struct-level rules: inheritance (SCHEMA.md 6.1), type ids (6.2), flattened
 * field lists, plain self-containment (6.4) and message ids per protocol (FORMAT.md 9.4). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "schema/schema_resolve.h"

/* ---- inheritance ---- */

/* Walks each base chain once; a chain that comes back to itself is a cycle, which is
 * reported at its first struct and cut (base = NULL) so later steps terminate.
 * Bases from other packages end a walk: imports cannot import back. */
void fbei_check_inheritance(fbei_load *load, fbei_pkg_draft *p) {
  uint32_t n = p->ast->nstructs;
  uint32_t *walk = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *walk); /* 0 = unseen */
  for (uint32_t start = 0; start < n; start++) {
    fbei_struct_draft *s = &p->structs[start];
    while (s && !walk[s->decl_index]) {
      walk[s->decl_index] = start + 1;
      s = fbei_struct_draft_of(p, s->st->base);
    }
    if (!s || walk[s->decl_index] != start + 1) continue; /* reached a finished chain */
    size_t len = 1;
    fbei_struct_draft *t = s;
    do {
      len += strlen(t->st->name) + 4;
      t = fbei_struct_draft_of(p, t->st->base);
    } while (t != s);
    char *chain = fbei_ctx_alloc(load->ctx, load->ctx->work, len + strlen(s->st->name));
    t = s;
    do {
      strcat(chain, t->st->name);
      strcat(chain, " -> ");
      t = fbei_struct_draft_of(p, t->st->base);
    } while (t != s);
    strcat(chain, s->st->name);
    fbei_draft_error(load, p, s->ast->pos, "Inheritance cycle: %s", chain);
    s->st->base = NULL;
  }
}

/* ---- type ids ---- */

typedef struct id_entry {
  uint32_t id;
  uint32_t order; /* tie-break: keeps declaration order within one id */
  const void *item;
  uint32_t group; /* message ids: the import it comes from, or nimports for own messages */
} id_entry;

static int compare_ids(const void *a, const void *b) {
  const id_entry *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static void sort_ids(id_entry *entries, uint32_t n) {
  if (n > 1) qsort(entries, n, sizeof *entries, compare_ids);
}

static bool is_explicit(const fbei_struct_draft *s) {
  return s->ast->numbering == FBE_AST_NUM_EXPLICIT && !s->id_from_base;
}

/* "Duplicate struct type N" between explicit (N) structs; a warning for other
 * collisions between plain (non-message, non-(base)) structs. */
static void check_struct_ids(fbei_load *load, fbei_pkg_draft *p) {
  uint32_t n = p->ast->nstructs, count = 0;
  id_entry *entries = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *entries);
  for (uint32_t i = 0; i < n; i++) {
    const fbei_struct_draft *s = &p->structs[i];
    if (s->id_invalid) continue;
    if (is_explicit(s) || (!s->st->is_message && !s->id_from_base)) {
      entries[count++] = (id_entry){s->st->type_id, i, s, 0};
    }
  }
  sort_ids(entries, count);
  for (uint32_t i = 0, end; i < count; i = end) {
    const fbei_struct_draft *first_explicit = NULL, *first_plain = NULL;
    for (end = i; end < count && entries[end].id == entries[i].id; end++) {
      const fbei_struct_draft *s = entries[end].item;
      if (is_explicit(s) && first_explicit) {
        fbei_draft_error(load, p, s->ast->number.pos, "Duplicate struct type %" PRIu32, s->st->type_id);
        continue;
      }
      if (s->st->is_message) {
        /* counted only for the explicit check above */
      } else if (first_plain) {
        fbei_draft_warning(load, p, s->ast->pos,
                         "Struct %s has the same type id %" PRIu32 " as struct %s", s->st->name,
                         s->st->type_id, first_plain->st->name);
      } else {
        first_plain = s;
      }
      if (is_explicit(s)) first_explicit = s;
    }
  }
}

/* SCHEMA.md 6.2: one counter per file, in declaration order. */
void fbei_assign_type_ids(fbei_load *load, fbei_pkg_draft *p) {
  uint64_t counter = 0, offset = p->pkg->offset;
  for (uint32_t i = 0; i < p->ast->nstructs; i++) {
    fbei_struct_draft *s = &p->structs[i];
    const fbei_ast_struct *a = s->ast;
    const fbei_ast_int *number = &a->number;
    uint64_t id = 0;
    bool numbered = a->numbering == FBE_AST_NUM_PLUS || a->numbering == FBE_AST_NUM_EXPLICIT;
    if (numbered) {
      fbei_warn_hex(load, p, number);
      if (number->neg && number->mag) {
        fbei_draft_error(load, p, number->pos, "Struct type should not be negative!");
        s->id_invalid = true;
        continue;
      }
      if (number->mag > UINT32_MAX) {
        fbei_draft_error(load, p, number->pos, "Struct type id %s is out of range", number->text);
        s->id_invalid = true;
        continue;
      }
    }
    if (a->numbering == FBE_AST_NUM_AUTO ||
        (a->numbering == FBE_AST_NUM_PLUS && number->mag == 0)) { /* (+0) = no suffix */
      counter++;
      id = counter + offset;
    } else if (a->numbering == FBE_AST_NUM_PLUS) {
      counter = number->mag;
      id = counter + offset;
    } else if (a->numbering == FBE_AST_NUM_EXPLICIT) {
      id = number->mag;
      s->id_from_base = id == 0 && a->has_base;
    } else {
      s->id_from_base = true; /* (base) */
    }
    if (id > UINT32_MAX) {
      fbei_draft_error(load, p, numbered ? number->pos : a->pos,
                     "Struct type id %" PRIu64 " is out of range", id);
      s->id_invalid = true;
      continue;
    }
    s->st->type_id = (uint32_t)id;
  }
  /* (base) structs take their base's id; bases may be declared later or be (base) too. */
  for (uint32_t i = 0; i < p->ast->nstructs; i++) {
    fbei_struct_draft *s = &p->structs[i];
    if (!s->id_from_base) continue;
    const fbe_struct *base = s->st->base;
    fbei_struct_draft *in_package;
    while (base && (in_package = fbei_struct_draft_of(p, base)) && in_package->id_from_base) {
      base = base->base;
    }
    s->st->type_id = base ? base->type_id : 0;
  }
  check_struct_ids(load, p);
}

/* ---- flattened field lists ---- */

static int compare_fields_by_name(const void *a, const void *b) {
  const fbe_field *x = *(const fbe_field *const *)a, *y = *(const fbe_field *const *)b;
  int c = strcmp(x->name, y->name);
  if (c) return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* name_index (for fbe_struct_field) and the duplicate field name checks. */
static void index_field_names(fbei_load *load, fbei_pkg_draft *p, fbe_struct *st) {
  uint32_t n = st->nfields;
  const fbe_field **sorted = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *sorted);
  for (uint32_t i = 0; i < n; i++) sorted[i] = &st->fields[i];
  if (n > 1) qsort(sorted, n, sizeof *sorted, compare_fields_by_name);
  st->name_index = fbei_ctx_alloc(load->ctx, load->arena, (n + 1) * sizeof *st->name_index);
  for (uint32_t i = 0; i < n; i++) {
    st->name_index[i] = sorted[i]->index;
    if (i == 0 || strcmp(sorted[i]->name, sorted[i - 1]->name) != 0) continue;
    const fbe_field *earlier = sorted[i - 1], *later = sorted[i];
    if (later->index < st->ninherited) continue; /* reported with the base */
    if (earlier->is_id && later->is_id) continue; /* "must have only one [id] field" */
    fbei_ast_pos pos = {later->line, later->col};
    if (earlier->index < st->ninherited) {
      fbei_draft_error(load, p, pos, "Duplicate struct field name %s (inherited from %s)", later->name,
                     earlier->declared_in->full_name);
    } else {
      fbei_draft_error(load, p, pos, "Duplicate struct field name %s", later->name);
    }
  }
}

static void flatten_one(fbei_load *load, fbei_pkg_draft *p, fbei_struct_draft *s) {
  fbe_struct *st = s->st;
  const fbe_struct *base = st->base;
  uint32_t ninherited = base ? base->nfields : 0;
  st->nfields = ninherited + s->nown; /* within the caps: counted first */
  st->ninherited = ninherited;
  st->fields = fbei_ctx_alloc(load->ctx, load->arena, ((size_t)st->nfields + 1) * sizeof *st->fields);
  if (ninherited) memcpy(st->fields, base->fields, ninherited * sizeof *st->fields);
  if (s->nown) memcpy(st->fields + ninherited, s->own, s->nown * sizeof *st->fields);
  for (uint32_t i = 0; i < st->nfields; i++) st->fields[i].index = i;
  index_field_names(load, p, st);
  s->flattened = true;
}

/* A struct past a cap keeps no fields (the load fails; later steps still terminate). */
static void leave_unflattened(fbei_load *load, fbei_struct_draft *s) {
  fbe_struct *st = s->st;
  st->nfields = st->ninherited = 0;
  st->fields = fbei_ctx_alloc(load->ctx, load->arena, sizeof *st->fields);
  st->name_index = fbei_ctx_alloc(load->ctx, load->arena, sizeof *st->name_index);
  s->flattened = true;
}

/* Fields of the struct counting inherited ones, from the counts of its base. */
static uint64_t flat_count(fbei_pkg_draft *p, const fbei_struct_draft *s, const uint64_t *count) {
  const fbe_struct *base = s->st->base;
  const fbei_struct_draft *own_base = fbei_struct_draft_of(p, base);
  uint64_t inherited = own_base ? count[own_base->decl_index] : base ? base->nfields : 0;
  return inherited + s->nown;
}

/* Flattens the struct unless it crosses FBE_SCHEMA_MAX_STRUCT_FIELDS (reported once, at
 * the first struct of its chain that does). */
static void flatten_capped(fbei_load *load, fbei_pkg_draft *p, fbei_struct_draft *s, const uint64_t *count) {
  uint64_t n = count[s->decl_index];
  const fbei_struct_draft *own_base = fbei_struct_draft_of(p, s->st->base);
  if (n > FBE_SCHEMA_MAX_STRUCT_FIELDS) {
    if (!own_base || count[own_base->decl_index] <= FBE_SCHEMA_MAX_STRUCT_FIELDS)
      fbei_draft_error(load, p, s->ast->pos, "Struct %s has more than %u fields including inherited ones",
                     s->st->name, FBE_SCHEMA_MAX_STRUCT_FIELDS);
    leave_unflattened(load, s);
  } else if (load->fields_over) {
    leave_unflattened(load, s);
  } else {
    flatten_one(load, p, s);
  }
}

/* The first struct (in declaration order) that takes the load past FBE_SCHEMA_MAX_FIELDS,
 * or NULL; the package's structs within the per-struct cap are counted into the load. */
static fbei_struct_draft *count_load_fields(fbei_load *load, fbei_pkg_draft *p, const uint64_t *count) {
  fbei_struct_draft *crossing = NULL;
  for (uint32_t i = 0; i < p->ast->nstructs; i++) {
    if (count[i] > FBE_SCHEMA_MAX_STRUCT_FIELDS) continue;
    load->nflat_fields += count[i];
    if (!crossing && load->nflat_fields > FBE_SCHEMA_MAX_FIELDS) crossing = &p->structs[i];
  }
  return crossing;
}

/* Bases first. Chains are walked with an explicit stack: deep inheritance must not
 * exhaust the C stack. Bases from imported packages are already flattened. Every
 * struct's flattened size is counted before any list is built: a chain of k structs
 * holds k(k+1)/2 field records, so a package past the caps builds none of them. */
void fbei_flatten_fields(fbei_load *load, fbei_pkg_draft *p) {
  uint32_t n = p->ast->nstructs;
  fbei_struct_draft **chain = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *chain);
  uint64_t *count = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *count);
  bool *counted = fbei_ctx_alloc(load->ctx, load->ctx->work, n + 1);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t depth = 0;
    for (fbei_struct_draft *s = &p->structs[i]; s && !counted[s->decl_index];
         s = fbei_struct_draft_of(p, s->st->base)) {
      chain[depth++] = s;
      counted[s->decl_index] = true;
    }
    while (depth > 0) {
      fbei_struct_draft *s = chain[--depth];
      count[s->decl_index] = flat_count(p, s, count);
    }
  }
  fbei_struct_draft *crossing = count_load_fields(load, p, count);
  if (crossing && !load->fields_over) {
    fbei_draft_error(load, p, crossing->ast->pos,
                   "Struct %s takes the schema past %u fields in all (each struct counts its "
                   "inherited fields)", crossing->st->name, FBE_SCHEMA_MAX_FIELDS);
    load->fields_over = true;
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t depth = 0;
    for (fbei_struct_draft *s = &p->structs[i]; s && !s->flattened; s = fbei_struct_draft_of(p, s->st->base)) {
      chain[depth++] = s;
    }
    while (depth > 0) flatten_capped(load, p, chain[--depth], count);
  }
}

/* ---- plain self-containment and nesting ---- */

/* Deepest nesting of plain structs a schema may have. Layout and the codecs walk
 * plain structs recursively; this keeps hostile schemas from exhausting the stack. */
#define FBE_SCHEMA_MAX_NESTING 1000

/* The struct a field holds inline (plain, or in a fixed-size array), or NULL. */
static const fbe_struct *inline_struct(const fbe_type *t) {
  while (t && t->kind == FBE_KIND_ARRAY) t = t->elem;
  return t && t->kind == FBE_KIND_STRUCT ? t->st : NULL;
}

typedef struct dfs_frame {
  fbei_struct_draft *s;
  uint32_t next_field;
} dfs_frame;

static void report_containment(fbei_load *load, fbei_pkg_draft *p, const dfs_frame *stack, uint32_t from,
                               uint32_t depth) {
  size_t len = 1;
  for (uint32_t i = from; i < depth; i++) {
    const fbe_struct *st = stack[i].s->st;
    len += strlen(st->name) + strlen(st->fields[stack[i].next_field - 1].name) + 5;
  }
  char *chain = fbei_ctx_alloc(load->ctx, load->ctx->work, len);
  for (uint32_t i = from; i < depth; i++) {
    const fbe_struct *st = stack[i].s->st;
    if (i > from) strcat(chain, " -> ");
    strcat(chain, st->name);
    strcat(chain, ".");
    strcat(chain, st->fields[stack[i].next_field - 1].name);
  }
  const fbei_struct_draft *s = stack[from].s;
  fbei_draft_error(load, p, s->ast->pos, "Struct %s contains itself through %s", s->st->name, chain);
}

/* 1 + the deepest nesting among the plain structs st holds (all computed already:
 * imported ones earlier, own ones by the depth-first search below). */
static uint32_t nesting_of(fbei_load *load, const fbe_struct *st) {
  uint32_t deepest = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbei_struct_draft *inner = fbei_struct_draft_find(load, inline_struct(st->fields[i].type));
    if (inner && inner->nesting > deepest) deepest = inner->nesting;
  }
  return deepest + 1;
}

/* A struct holding itself through plain fields would have an infinite size.
 * Iterative depth-first search; a field leading back to a struct on the stack
 * closes a cycle. Cycles cannot cross packages (imports are acyclic). Structs are
 * finished in post-order, so their nesting depth is computed on the way. */
void fbei_check_containment(fbei_load *load, fbei_pkg_draft *p) {
  uint32_t errors_before = load->ctx->nerrors;
  uint32_t n = p->ast->nstructs;
  uint8_t *state = fbei_ctx_alloc(load->ctx, load->ctx->work, n + 1); /* 0 new, 1 on stack, 2 done */
  uint32_t *stack_pos = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *stack_pos);
  dfs_frame *stack = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *stack);
  for (uint32_t root = 0; root < n; root++) {
    if (state[root]) continue;
    uint32_t depth = 0;
    stack[depth++] = (dfs_frame){&p->structs[root], 0};
    state[root] = 1;
    stack_pos[root] = 0;
    while (depth > 0) {
      dfs_frame *top = &stack[depth - 1];
      const fbe_struct *st = top->s->st;
      if (top->next_field >= st->nfields) {
        state[top->s->decl_index] = 2;
        top->s->nesting = nesting_of(load, st);
        depth--;
        continue;
      }
      fbei_struct_draft *next = fbei_struct_draft_of(p, inline_struct(st->fields[top->next_field++].type));
      if (!next) continue;
      if (state[next->decl_index] == 1) {
        report_containment(load, p, stack, stack_pos[next->decl_index], depth);
      } else if (state[next->decl_index] == 0) {
        state[next->decl_index] = 1;
        stack_pos[next->decl_index] = depth;
        stack[depth++] = (dfs_frame){next, 0};
      }
    }
  }
  if (load->ctx->nerrors != errors_before) return; /* depths are meaningless around cycles */
  for (uint32_t i = 0; i < n; i++) {
    const fbei_struct_draft *s = &p->structs[i];
    if (s->nesting == FBE_SCHEMA_MAX_NESTING + 1) { /* where the limit is first crossed */
      fbei_draft_error(load, p, s->ast->pos, "Struct %s nests plain structs more than %d levels deep",
                     s->st->name, FBE_SCHEMA_MAX_NESTING);
    }
  }
}

/* ---- message ids of one protocol ---- */

/* Messages of the package and of its direct imports must have distinct ids
 * (FORMAT.md 9.4). Imports are listed before own messages so a clash is
 * reported at the later declaration: an own message, or an import statement. */
void fbei_check_message_ids(fbei_load *load, fbei_pkg_draft *p) {
  uint32_t count = 0, cap = 0, nimports = p->ast->nimports;
  id_entry *entries = NULL;
  for (uint32_t group = 0; group <= nimports; group++) {
    const fbe_package *pkg = p->pkg;
    if (group < nimports) { /* a repeated import adds nothing */
      pkg = p->imports[group] && !p->import_repeated[group] ? p->imports[group]->pkg : NULL;
    }
    for (uint32_t i = 0; pkg && i < pkg->nstructs; i++) {
      const fbei_struct_draft *own = fbei_struct_draft_of(p, pkg->structs[i]);
      if (!pkg->structs[i]->is_message || (own && own->id_invalid)) continue;
      uint32_t order = count;
      *FBEI_CTX_PUSH(load->ctx, entries, count, cap) =
          (id_entry){pkg->structs[i]->type_id, order, pkg->structs[i], group};
    }
  }
  sort_ids(entries, count);
  for (uint32_t i = 0, end; i < count; i = end) {
    const fbe_struct *first = entries[i].item;
    for (end = i + 1; end < count && entries[end].id == entries[i].id; end++) {
      const fbe_struct *later = entries[end].item;
      if (later->pkg == first->pkg && later->pkg != p->pkg) continue; /* the import's own problem */
      fbei_ast_pos pos = {later->line, later->col};
      if (entries[end].group < nimports) pos = p->ast->imports[entries[end].group].pos;
      fbei_draft_error(load, p, pos, "Message %s has the same type id %" PRIu32 " as message %s",
                     later->full_name, later->type_id, first->full_name);
    }
  }
}

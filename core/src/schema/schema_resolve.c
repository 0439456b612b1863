/* The resolve step: declares every package, then resolves its field types and runs the
 * checks of schema_structs.c, schema_enums.c and schema_defaults.c (SCHEMA.md 8, 11).
 * The helpers those steps share live in schema_scope.c, below them. */
#include <stdio.h>
#include <string.h>
#include "schema/schema_resolve.h"

/* ---- declarations ---- */

static bool parse_version(const char *text, uint32_t *major, uint32_t *minor) {
  uint32_t *part = major;
  *major = *minor = 0;
  bool seen_dot = false;
  for (const char *c = text; *c; c++) {
    if (*c == '.' && !seen_dot) {
      seen_dot = true;
      part = minor;
    } else if (*c >= '0' && *c <= '9') {
      if (*part > (UINT32_MAX - (uint32_t)(*c - '0')) / 10) return false;
      *part = *part * 10 + (uint32_t)(*c - '0');
    } else {
      return false;
    }
  }
  return seen_dot;
}

static void declare_header(fbei_load *load, fbei_pkg_draft *p) {
  const fbei_ast_file *ast = p->ast;
  fbe_package *pkg = p->pkg = fbei_ctx_alloc(load->ctx, load->arena, sizeof *pkg);
  pkg->name = fbei_ctx_strdup(load->ctx, load->arena, ast->package);
  pkg->domain = ast->has_domain ? fbei_ctx_strdup(load->ctx, load->arena, ast->domain.text) : NULL;
  pkg->file = fbei_ctx_strdup(load->ctx, load->arena, p->path);
  if (ast->has_offset) {
    const fbei_ast_int *offset = &ast->offset;
    if (offset->neg && offset->mag) {
      fbei_draft_error(load, p, offset->pos, "Package offset should not be negative!");
    } else if (offset->mag > UINT32_MAX) {
      fbei_draft_error(load, p, offset->pos, "Package offset %s is out of range", offset->text);
    } else {
      pkg->offset = (uint32_t)offset->mag;
    }
    fbei_warn_hex(load, p, offset);
  }
  if (ast->has_version && !parse_version(ast->version, &pkg->version_major, &pkg->version_minor)) {
    fbei_draft_error(load, p, ast->version_pos, "Invalid version %s (expected MAJOR.MINOR)",
                   ast->version);
  }
  uint32_t n = ast->nimports;
  p->import_names = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *p->import_names);
  p->import_repeated = fbei_ctx_alloc(load->ctx, load->ctx->work, n + 1);
  for (uint32_t i = 0; i < n; i++) p->import_names[i] = (fbei_name_entry){ast->imports[i].name, i};
  fbei_names_sort(p->import_names, n);
  for (uint32_t i = 1; i < n; i++) {
    if (strcmp(p->import_names[i].name, p->import_names[i - 1].name) != 0) continue;
    uint32_t repeated = p->import_names[i].index;
    p->import_repeated[repeated] = true;
    fbei_draft_error(load, p, ast->imports[repeated].pos, "Duplicate import package %s",
                   ast->imports[repeated].name);
  }
  pkg->imports = fbei_ctx_alloc(load->ctx, load->arena, (n + 1) * sizeof *pkg->imports);
  for (uint32_t i = 0; i < n; i++) {
    if (!p->import_repeated[i] && p->imports[i]) pkg->imports[pkg->nimports++] = p->imports[i]->pkg;
  }
}

static void declare_enums(fbei_load *load, fbei_pkg_draft *p) {
  const fbei_ast_file *ast = p->ast;
  uint32_t n = ast->nenums;
  p->enums = fbei_ctx_alloc(load->ctx, load->arena, (n + 1) * sizeof *p->enums);
  p->enum_types = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *p->enum_types);
  p->pkg->enums = fbei_ctx_alloc(load->ctx, load->arena, (n + 1) * sizeof *p->pkg->enums);
  p->pkg->nenums = n;
  for (uint32_t i = 0; i < n; i++) {
    const fbei_ast_enum *a = &ast->enums[i];
    fbe_enum *e = &p->enums[i];
    e->name = fbei_ctx_strdup(load->ctx, load->arena, a->name);
    e->full_name = fbei_ctx_printf(load->ctx, load->arena, "%s.%s", p->pkg->name, a->name);
    e->pkg = p->pkg;
    e->is_flags = a->is_flags;
    e->base = a->base;
    e->line = a->pos.line;
    e->col = a->pos.col;
    e->hidden = a->hidden;
    e->deprecated = a->deprecated;
    fbe_type *t = fbei_type_new(load, a->is_flags ? FBE_KIND_FLAGS : FBE_KIND_ENUM, NULL, NULL);
    t->wire = a->base;
    t->enm = e;
    p->enum_types[i] = t;
    p->pkg->enums[i] = e;
  }
}

static void declare_structs(fbei_load *load, fbei_pkg_draft *p) {
  const fbei_ast_file *ast = p->ast;
  uint32_t n = ast->nstructs;
  p->struct_nodes = fbei_ctx_alloc(load->ctx, load->arena, (n + 1) * sizeof *p->struct_nodes);
  p->structs = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *p->structs);
  p->pkg->structs = fbei_ctx_alloc(load->ctx, load->arena, (n + 1) * sizeof *p->pkg->structs);
  p->pkg->nstructs = n;
  for (uint32_t i = 0; i < n; i++) {
    const fbei_ast_struct *a = &ast->structs[i];
    fbe_struct *st = &p->struct_nodes[i];
    p->structs[i].ast = a;
    p->structs[i].st = st;
    p->structs[i].decl_index = i;
    st->name = fbei_ctx_strdup(load->ctx, load->arena, a->name);
    st->full_name = fbei_ctx_printf(load->ctx, load->arena, "%s.%s", p->pkg->name, a->name);
    st->pkg = p->pkg;
    st->is_message = a->is_message;
    st->line = a->pos.line;
    st->col = a->pos.col;
    st->hidden = a->hidden;
    st->deprecated = a->deprecated;
    st->is_request = a->is_request;
    st->reject_global = a->reject_global;
    fbe_type *self = fbei_type_new(load, FBE_KIND_STRUCT, NULL, NULL);
    self->st = st;
    st->self_type = self;
    p->pkg->structs[i] = st;
  }
}

static fbei_ast_pos symbol_pos(const fbei_pkg_draft *p, uint32_t index) {
  uint32_t nenums = p->ast->nenums;
  return index < nenums ? p->ast->enums[index].pos : p->ast->structs[index - nenums].pos;
}

static bool pos_before(fbei_ast_pos a, fbei_ast_pos b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

static void report_duplicate_symbol(fbei_load *load, fbei_pkg_draft *p, const fbei_name_entry *e) {
  fbei_ast_pos pos = symbol_pos(p, e->index);
  const char *kind = "struct";
  if (e->index < p->ast->nenums) kind = p->ast->enums[e->index].is_flags ? "flags" : "enum";
  fbei_draft_error(load, p, pos, "Duplicate %s name %s", kind, e->name);
}

/* Enums, flags and structs of one package share one namespace (SCHEMA.md 8). */
static void build_symbols(fbei_load *load, fbei_pkg_draft *p) {
  uint32_t nenums = p->ast->nenums, n = nenums + p->ast->nstructs;
  p->symbols = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *p->symbols);
  p->nsymbols = n;
  for (uint32_t i = 0; i < nenums; i++) {
    p->symbols[i].name = p->ast->enums[i].name;
    p->symbols[i].index = i;
  }
  for (uint32_t i = nenums; i < n; i++) {
    p->symbols[i].name = p->ast->structs[i - nenums].name;
    p->symbols[i].index = i;
  }
  fbei_names_sort(p->symbols, n);
  for (uint32_t i = 0, end; i < n; i = end) {
    uint32_t first = i;
    for (end = i + 1; end < n && strcmp(p->symbols[end].name, p->symbols[i].name) == 0; end++) {
      fbei_ast_pos here = symbol_pos(p, p->symbols[end].index);
      if (pos_before(here, symbol_pos(p, p->symbols[first].index))) first = end;
    }
    for (uint32_t k = i; k < end; k++) {
      if (k != first) report_duplicate_symbol(load, p, &p->symbols[k]);
    }
  }
}

static void declare_package(fbei_load *load, fbei_pkg_draft *p) {
  declare_header(load, p);
  declare_enums(load, p);
  declare_structs(load, p);
  build_symbols(load, p);
}

/* The reference C++ generator needs structs declared before use (SCHEMA.md 8). */
static void warn_if_forward(fbei_load *load, fbei_pkg_draft *p, const fbei_struct_draft *owner,
                            const fbei_struct_draft *target, fbei_ast_pos pos) {
  if (target->st->pkg == p->pkg && target->decl_index > owner->decl_index) {
    fbei_draft_warning(load, p, pos, "Struct %s is used before its declaration", target->st->name);
  }
}

static fbei_struct_draft *resolve_struct_ref(fbei_load *load, fbei_pkg_draft *p, const fbei_struct_draft *owner,
                                       const fbei_ast_name *name, bool warn_forward) {
  fbei_symbol sym;
  if (!fbei_resolve_type_name(load, p, name, &sym)) return NULL;
  if (!sym.st) {
    fbei_draft_error(load, p, name->pos, "%s is not a struct or message", name->text);
    return NULL;
  }
  if (warn_forward) warn_if_forward(load, p, owner, sym.st, name->pos);
  return sym.st;
}

static const fbe_type *resolve_simple_type(fbei_load *load, fbei_pkg_draft *p, const fbei_struct_draft *owner,
                                           const fbei_ast_simple *s) {
  if (!s->is_named) return fbei_prim_type(load, s->prim);
  fbei_symbol sym;
  if (!fbei_resolve_type_name(load, p, &s->name, &sym)) return NULL;
  if (sym.enm) return sym.pkg->enum_types[sym.enum_index];
  warn_if_forward(load, p, owner, sym.st, s->name.pos);
  return sym.st->st->self_type;
}

static bool check_array_size(fbei_load *load, fbei_pkg_draft *p, const fbei_ast_int *size) {
  if (size->neg || size->mag == 0) {
    fbei_draft_error(load, p, size->pos, "Array size should be greater than zero!");
    return false;
  }
  if (size->mag > UINT32_MAX) {
    fbei_draft_error(load, p, size->pos, "Array size %s is too large", size->text);
    return false;
  }
  fbei_warn_hex(load, p, size);
  return true;
}

static const fbe_type *resolve_field_type(fbei_load *load, fbei_pkg_draft *p, const fbei_struct_draft *owner,
                                          const fbei_ast_type *at) {
  bool keyed = at->form == FBE_AST_MAP || at->form == FBE_AST_HASH;
  const fbe_type *elem = resolve_simple_type(load, p, owner, &at->elem);
  const fbe_type *key = keyed ? resolve_simple_type(load, p, owner, &at->key) : NULL;
  bool size_ok = at->form != FBE_AST_ARRAY || check_array_size(load, p, &at->size);
  if (!elem || (keyed && !key) || !size_ok) return NULL;
  if (at->elem_optional) elem = fbei_type_new(load, FBE_KIND_OPTIONAL, elem, NULL);
  switch (at->form) {
    case FBE_AST_PLAIN: return elem;
    case FBE_AST_OPTIONAL:
    case FBE_AST_RESET: return fbei_type_new(load, FBE_KIND_OPTIONAL, elem, NULL);
    case FBE_AST_ARRAY: {
      fbe_type *t = fbei_type_new(load, FBE_KIND_ARRAY, elem, NULL);
      t->array_size = (uint32_t)at->size.mag;
      return t;
    }
    case FBE_AST_VECTOR: return fbei_type_new(load, FBE_KIND_VECTOR, elem, NULL);
    case FBE_AST_LIST: return fbei_type_new(load, FBE_KIND_LIST, elem, NULL);
    case FBE_AST_SET: return fbei_type_new(load, FBE_KIND_SET, elem, NULL);
    case FBE_AST_MAP: return fbei_type_new(load, FBE_KIND_MAP, elem, key);
    case FBE_AST_HASH: return fbei_type_new(load, FBE_KIND_HASH, elem, key);
  }
  return NULL;
}

/* Base, response and rejects of a struct. */
static void resolve_struct_header(fbei_load *load, fbei_pkg_draft *p, fbei_struct_draft *s) {
  const fbei_ast_struct *a = s->ast;
  fbe_struct *st = s->st;
  if (a->has_base) {
    fbei_struct_draft *base = resolve_struct_ref(load, p, s, &a->base, true);
    if (base) st->base = base->st;
  }
  if (a->has_response) {
    fbei_struct_draft *response = resolve_struct_ref(load, p, s, &a->response, false);
    if (response) st->response = response->st;
  }
  /* Resolved rejects by full name, sorted: the same struct twice is a duplicate however
   * it is written (Rej, pkg.Rej). */
  uint32_t n = a->nrejects, nresolved = 0;
  fbei_name_entry *resolved = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *resolved);
  const fbe_struct **found = fbei_ctx_alloc(load->ctx, load->ctx->work, (n + 1) * sizeof *found);
  for (uint32_t i = 0; i < n; i++) {
    fbei_struct_draft *reject = resolve_struct_ref(load, p, s, &a->rejects[i], false);
    if (!reject) continue;
    found[i] = reject->st;
    resolved[nresolved++] = (fbei_name_entry){reject->st->full_name, i};
  }
  fbei_names_sort(resolved, nresolved);
  for (uint32_t i = 1; i < nresolved; i++) {
    if (strcmp(resolved[i].name, resolved[i - 1].name) != 0) continue;
    const fbei_ast_name *repeated = &a->rejects[resolved[i].index];
    fbei_draft_error(load, p, repeated->pos, "Duplicate reject %s", repeated->text);
    found[resolved[i].index] = NULL;
  }
  st->rejects = fbei_ctx_alloc(load->ctx, load->arena, (n + 1) * sizeof *st->rejects);
  for (uint32_t i = 0; i < n; i++) {
    if (found[i]) st->rejects[st->nrejects++] = found[i];
  }
}

static fbe_field *add_own_field(fbei_load *load, fbei_struct_draft *s, const fbei_ast_field *af,
                                const char *name, const fbe_type *type) {
  fbe_field *f = FBEI_CTX_PUSH(load->ctx, s->own, s->nown, s->own_cap);
  f->name = name;
  f->type = type;
  f->declared_in = s->st;
  f->hidden = af->hidden;
  f->deprecated = af->deprecated;
  f->line = af->pos.line;
  f->col = af->pos.col;
  return f;
}

/* Own fields with types and defaults; `T~ x` becomes `T? x; bool xReset;` (SCHEMA.md 6.4). */
static void resolve_own_fields(fbei_load *load, fbei_pkg_draft *p, fbei_struct_draft *s) {
  uint32_t nids = 0;
  for (uint32_t i = 0; i < s->ast->nfields; i++) {
    const fbei_ast_field *af = &s->ast->fields[i];
    const fbe_type *type = resolve_field_type(load, p, s, &af->type);
    fbe_field *f = add_own_field(load, s, af, fbei_ctx_strdup(load->ctx, load->arena, af->name), type);
    f->is_key = af->key || af->id;
    f->is_id = af->id;
    if (type && af->has_default) fbei_resolve_default(load, p, af, type, &f->def);
    if (af->id && ++nids > 1) {
      fbei_draft_error(load, p, af->pos, "Struct %s must have only one [id] field!", s->st->name);
    }
    if (af->type.form == FBE_AST_RESET) {
      const char *reset = fbei_ctx_printf(load->ctx, load->arena, "%sReset", af->name);
      add_own_field(load, s, af, reset, fbei_prim_type(load, FBE_KIND_BOOL));
    }
  }
}

static void resolve_package(fbei_load *load, fbei_pkg_draft *p) {
  fbei_resolve_enum_values(load, p);
  for (uint32_t i = 0; i < p->ast->nstructs; i++) resolve_struct_header(load, p, &p->structs[i]);
  fbei_check_inheritance(load, p);
  fbei_assign_type_ids(load, p);
  for (uint32_t i = 0; i < p->ast->nstructs; i++) resolve_own_fields(load, p, &p->structs[i]);
  fbei_flatten_fields(load, p);
  fbei_check_containment(load, p);
  fbei_check_message_ids(load, p);
}

void fbei_resolve_packages(fbei_load *load) {
  /* Imports come first in load->order, so whatever a package uses from them
   * (values, type ids, flattened fields) is complete when it is resolved. */
  for (uint32_t i = 0; i < load->norder; i++) declare_package(load, load->order[i]);
  for (uint32_t i = 0; i < load->norder; i++) resolve_package(load, load->order[i]);
  fbe_schema *schema = load->schema;
  schema->npackages = load->norder;
  schema->packages = fbei_ctx_alloc(load->ctx, load->arena, (load->norder + 1) * sizeof *schema->packages);
  for (uint32_t i = 0; i < load->norder; i++) schema->packages[i] = load->order[i]->pkg;
  schema->root = load->norder ? schema->packages[load->norder - 1] : NULL;
}

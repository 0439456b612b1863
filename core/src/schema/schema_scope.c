/* What the resolve steps share: diagnostics at a position, the primitive type nodes,
 * the draft of a struct, and name lookup in a package's scope (SCHEMA.md 8). Below
 * schema_resolve.c and the steps it runs, so no step calls back into its caller. */
#include <stdio.h>
#include <string.h>
#include "schema/schema_resolve.h"

void fbe_spkg_error(fbe_sload *L, fbe_spkg *p, fbe_ast_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbe_sctx_vreport(L->ctx, FBE_SEVERITY_ERROR, p->file_id, pos.line, pos.col, fmt, ap);
  va_end(ap);
}

void fbe_spkg_warning(fbe_sload *L, fbe_spkg *p, fbe_ast_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbe_sctx_vreport(L->ctx, FBE_SEVERITY_WARNING, p->file_id, pos.line, pos.col, fmt, ap);
  va_end(ap);
}

void fbe_warn_hex(fbe_sload *L, fbe_spkg *p, const fbe_ast_int *number) {
  if (!number->hex) return;
  fbe_spkg_warning(L, p, number->pos,
                   "Hexadecimal number %s is read as 0 by the reference compiler", number->text);
}

/* ---- type nodes ---- */

fbe_type *fbe_type_new(fbe_sload *L, fbe_kind kind, const fbe_type *elem, const fbe_type *key) {
  fbe_type *t = fbe_sctx_alloc(L->ctx, L->arena, sizeof *t);
  t->kind = kind;
  t->wire = kind == FBE_KIND_LIST || kind == FBE_KIND_SET ? FBE_KIND_VECTOR
            : kind == FBE_KIND_HASH                      ? FBE_KIND_MAP
                                                         : kind;
  t->elem = elem;
  t->key = key;
  return t;
}

const fbe_type *fbe_prim_type(fbe_sload *L, fbe_kind kind) {
  if (!L->prims[kind]) L->prims[kind] = fbe_type_new(L, kind, NULL, NULL);
  return L->prims[kind];
}

fbe_sstruct *fbe_sstruct_of(fbe_spkg *p, const fbe_struct *st) {
  if (!st || st->pkg != p->pkg) return NULL;
  return &p->structs[st - p->struct_nodes];
}

fbe_sstruct *fbe_sstruct_find(fbe_sload *L, const fbe_struct *st) {
  for (uint32_t i = 0; st && i < L->norder; i++) {
    if (L->order[i]->pkg == st->pkg) return fbe_sstruct_of(L->order[i], st);
  }
  return NULL;
}

/* ---- name resolution ---- */

bool fbe_resolve_type_name(fbe_sload *L, fbe_spkg *p, const fbe_ast_name *name, fbe_sym *out) {
  fbe_spkg *scope = name->nparts <= 2 ? p : NULL;
  if (name->nparts == 2 && strcmp(name->parts[0], p->name) != 0) {
    const char *qualifier = name->parts[0];
    const fbe_name_entry *imported = fbe_names_find(p->import_names, p->ast->nimports, qualifier);
    scope = imported ? p->imports[imported->index] : NULL;
    if (!scope) {
      bool loaded = false;
      for (uint32_t i = 0; i < L->nall; i++) {
        loaded = loaded || (L->all[i]->name && strcmp(L->all[i]->name, qualifier) == 0);
      }
      fbe_spkg_error(L, p, name->pos,
                     loaded ? "Package %s is not imported" : "Unknown package %s", qualifier);
      return false;
    }
  }
  const fbe_name_entry *e =
      scope ? fbe_names_find(scope->symbols, scope->nsymbols, name->parts[name->nparts - 1]) : NULL;
  if (!e) {
    fbe_spkg_error(L, p, name->pos, "Unknown type %s", name->text);
    return false;
  }
  memset(out, 0, sizeof *out);
  out->pkg = scope;
  if (e->index < scope->ast->nenums) {
    out->enm = &scope->enums[e->index];
    out->enum_index = e->index;
  } else {
    out->st = &scope->structs[e->index - scope->ast->nenums];
  }
  return true;
}

/* What the resolve steps share: diagnostics at a position, the primitive type nodes,
 * the draft of a struct, and name lookup in a package's scope (SCHEMA.md 8). Below
 * schema_resolve.c and the steps it runs, so no step calls back into its caller. */
#include <stdio.h>
#include <string.h>
#include "schema/schema_resolve.h"

void fbei_draft_error(fbei_load *load, fbei_pkg_draft *p, fbei_ast_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbei_ctx_vreport(load->ctx, FBE_SEVERITY_ERROR, p->file_id, pos.line, pos.col, fmt, ap);
  va_end(ap);
}

void fbei_draft_warning(fbei_load *load, fbei_pkg_draft *p, fbei_ast_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbei_ctx_vreport(load->ctx, FBE_SEVERITY_WARNING, p->file_id, pos.line, pos.col, fmt, ap);
  va_end(ap);
}

void fbei_warn_hex(fbei_load *load, fbei_pkg_draft *p, const fbei_ast_int *number) {
  if (!number->hex) return;
  fbei_draft_warning(load, p, number->pos,
                   "Hexadecimal number %s is read as 0 by the reference compiler", number->text);
}

/* ---- type nodes ---- */

fbe_type *fbei_type_new(fbei_load *load, fbe_kind kind, const fbe_type *elem, const fbe_type *key) {
  fbe_type *t = fbei_ctx_alloc(load->ctx, load->arena, sizeof *t);
  t->kind = kind;
  t->wire = kind == FBE_KIND_LIST || kind == FBE_KIND_SET ? FBE_KIND_VECTOR
            : kind == FBE_KIND_HASH                      ? FBE_KIND_MAP
                                                         : kind;
  t->elem = elem;
  t->key = key;
  return t;
}

const fbe_type *fbei_prim_type(fbei_load *load, fbe_kind kind) {
  if (!load->prims[kind]) load->prims[kind] = fbei_type_new(load, kind, NULL, NULL);
  return load->prims[kind];
}

fbei_struct_draft *fbei_struct_draft_of(fbei_pkg_draft *p, const fbe_struct *st) {
  if (!st || st->pkg != p->pkg) return NULL;
  return &p->structs[st - p->struct_nodes];
}

fbei_struct_draft *fbei_struct_draft_find(fbei_load *load, const fbe_struct *st) {
  for (uint32_t i = 0; st && i < load->norder; i++) {
    if (load->order[i]->pkg == st->pkg) return fbei_struct_draft_of(load->order[i], st);
  }
  return NULL;
}

/* ---- name resolution ---- */

bool fbei_resolve_type_name(fbei_load *load, fbei_pkg_draft *p, const fbei_ast_name *name, fbei_symbol *out) {
  fbei_pkg_draft *scope = name->nparts <= 2 ? p : NULL;
  if (name->nparts == 2 && strcmp(name->parts[0], p->name) != 0) {
    const char *qualifier = name->parts[0];
    const fbei_name_entry *imported = fbei_names_find(p->import_names, p->ast->nimports, qualifier);
    scope = imported ? p->imports[imported->index] : NULL;
    if (!scope) {
      bool loaded = false;
      for (uint32_t i = 0; i < load->nall; i++) {
        loaded = loaded || (load->all[i]->name && strcmp(load->all[i]->name, qualifier) == 0);
      }
      fbei_draft_error(load, p, name->pos,
                     loaded ? "Package %s is not imported" : "Unknown package %s", qualifier);
      return false;
    }
  }
  const fbei_name_entry *e =
      scope ? fbei_names_find(scope->symbols, scope->nsymbols, name->parts[name->nparts - 1]) : NULL;
  if (!e) {
    fbei_draft_error(load, p, name->pos, "Unknown type %s", name->text);
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

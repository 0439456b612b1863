/* Reading schema files and their imports (SCHEMA.md 3.4): `import NAME` loads
 * NAME.fbe from the importing file's directory, then from the include
 * directories. The root file is read as given, or, when a relative path does not
 * exist, from the first include directory that has it. Each package is loaded once;
 * cycles and missing files are errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schema/schema_parser.h"
#include "schema/schema_resolve.h"
#include "fbe/internal/file_read.h"
#include "fbe/internal/memory.h"

/* Reads a file into the work arena; NULL when it cannot be read (*why says why). Regular
 * files of at most FBE_SCHEMA_MAX_FILE_SIZE bytes only: a device or FIFO never ends. */
static const char *read_into_work(fbe_sload *L, const char *path, size_t *length,
                                  fbe_file_result *why) {
  *why = fbe_file_read(path, FBE_SCHEMA_MAX_FILE_SIZE);
  if (why->status != FBE_FILE_OK) return NULL;
  *length = (size_t)why->size;
  char *text = fbe_arena_alloc(L->ctx->work, *length ? *length : 1);
  if (text) memcpy(text, why->data, *length);
  fbe_mem_free(why->data); /* before a possible out-of-memory jump */
  why->data = NULL;
  if (!text) fbe_sctx_out_of_memory(L->ctx);
  return text;
}

/* "path: Cannot read file: too large: ..." (or not regular, out of memory, ...). */
static void report_unreadable(fbe_sload *L, const char *path, const fbe_file_result *why) {
  char reason[160];
  fbe_file_describe(why, FBE_SCHEMA_MAX_FILE_SIZE, reason, sizeof reason);
  fbe_sctx_error(L->ctx, fbe_sctx_add_file(L->ctx, path), 0, 0, "Cannot read file: %s", reason);
}

static bool is_separator(char c) { return c == '/' || c == '\\'; }

static const char *directory_of(fbe_sload *L, const char *path) {
  size_t n = strlen(path);
  while (n > 0 && !is_separator(path[n - 1])) n--;
  while (n > 1 && is_separator(path[n - 1])) n--;
  return fbe_sctx_strndup(L->ctx, L->ctx->work, path, n);
}

/* dir/file (file alone when dir is empty). */
static const char *join_path(fbe_sload *L, const char *dir, const char *file) {
  if (!dir[0]) return file;
  bool has_separator = is_separator(dir[strlen(dir) - 1]);
  return fbe_sctx_printf(L->ctx, L->ctx->work, "%s%s%s", dir, has_separator ? "" : "/", file);
}

/* "/x", "\\x", "C:/x", "C:\\x": not looked up on the include directories. */
static bool is_absolute(const char *path) {
  if (is_separator(path[0])) return true;
  return ((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) &&
         path[1] == ':' && is_separator(path[2]);
}

static fbe_spkg *find_package(fbe_sload *L, const char *name) {
  for (uint32_t i = 0; i < L->nall; i++) {
    if (L->all[i]->name && strcmp(L->all[i]->name, name) == 0) return L->all[i];
  }
  return NULL;
}

static fbe_spkg *parse_package(fbe_sload *L, const char *path, const char *text, size_t len) {
  fbe_spkg *p = fbe_sctx_alloc(L->ctx, L->ctx->work, sizeof *p);
  p->path = fbe_sctx_strdup(L->ctx, L->ctx->work, path);
  p->dir = directory_of(L, path);
  p->file_id = fbe_sctx_add_file(L->ctx, path);
  p->ast = fbe_parse_file(L->ctx, p->file_id, text, len);
  p->name = p->ast->package;
  *FBE_SCTX_PUSH(L->ctx, L->all, L->nall, L->all_cap) = p;
  return p;
}

/* Opens NAME.fbe in dir, then in each include directory. NULL when not found. */
static fbe_spkg *open_package(fbe_sload *L, const char *dir, const char *name) {
  size_t ndirs = L->options ? L->options->include_count : 0;
  for (size_t i = 0; i <= ndirs; i++) {
    if (i == 0 && !dir) continue;
    const char *where = i == 0 ? dir : L->options->include_dirs[i - 1];
    if (!where) continue;
    const char *path =
        join_path(L, where, fbe_sctx_printf(L->ctx, L->ctx->work, "%s.fbe", name));
    size_t len;
    fbe_file_result why;
    const char *text = read_into_work(L, path, &len, &why);
    if (text) return parse_package(L, path, text, len);
    if (why.status != FBE_FILE_MISSING) { /* there, but not readable: say why, look no further */
      report_unreadable(L, path, &why);
      return NULL;
    }
  }
  return NULL;
}

/* The root file: path as given; when it is relative and does not exist, the first
 * include directory holding it (as an import is found). NULL, with the error reported,
 * when there is none. */
static fbe_spkg *open_root_file(fbe_sload *L, const char *path) {
  size_t len;
  fbe_file_result why;
  const char *text = read_into_work(L, path, &len, &why);
  if (text) return parse_package(L, path, text, len);
  bool missing = why.status == FBE_FILE_MISSING; /* unreadable files are not looked for */
  size_t ndirs = L->options ? L->options->include_count : 0;
  const char *searched = "";
  if (missing && !is_absolute(path)) {
    for (size_t i = 0; i < ndirs; i++) {
      const char *dir = L->options->include_dirs[i];
      if (!dir || !dir[0]) continue;
      const char *candidate = join_path(L, dir, path);
      fbe_file_result found;
      text = read_into_work(L, candidate, &len, &found);
      if (text) return parse_package(L, candidate, text, len);
      if (found.status != FBE_FILE_MISSING) {
        report_unreadable(L, candidate, &found);
        return NULL;
      }
      searched =
          fbe_sctx_printf(L->ctx, L->ctx->work, "%s%s%s", searched, searched[0] ? ", " : "", dir);
    }
  }
  if (searched[0])
    fbe_sctx_error(L->ctx, fbe_sctx_add_file(L->ctx, path), 0, 0,
                   "Cannot read file: no such file as given or in the include directories %s",
                   searched);
  else
    report_unreadable(L, path, &why);
  return NULL;
}

static void report_cycle(fbe_sload *L, fbe_spkg *p, const fbe_ast_import *imp, fbe_spkg *target) {
  uint32_t from = 0;
  while (L->stack[from] != target) from++;
  size_t len = strlen(target->name) + 1;
  for (uint32_t i = from; i < L->depth; i++) len += strlen(L->stack[i]->name) + 4;
  char *chain = fbe_sctx_alloc(L->ctx, L->ctx->work, len);
  for (uint32_t i = from; i < L->depth; i++) {
    strcat(chain, L->stack[i]->name);
    strcat(chain, " -> ");
  }
  strcat(chain, target->name);
  fbe_sctx_error(L->ctx, p->file_id, imp->pos.line, imp->pos.col, "Import cycle: %s", chain);
}

static void load_imports(fbe_sload *L, fbe_spkg *p) {
  const fbe_ast_file *ast = p->ast;
  p->loading = true;
  *FBE_SCTX_PUSH(L->ctx, L->stack, L->depth, L->stack_cap) = p;
  p->imports = fbe_sctx_alloc(L->ctx, L->ctx->work, (ast->nimports + 1) * sizeof *p->imports);
  for (uint32_t i = 0; i < ast->nimports; i++) {
    const fbe_ast_import *imp = &ast->imports[i];
    fbe_spkg *dep = find_package(L, imp->name);
    if (dep && dep->loading) {
      report_cycle(L, p, imp, dep);
      continue;
    }
    if (!dep) {
      dep = open_package(L, p->dir, imp->name);
      if (!dep) {
        fbe_sctx_error(L->ctx, p->file_id, imp->pos.line, imp->pos.col,
                       "Cannot find %s.fbe for import %s", imp->name, imp->name);
        continue;
      }
      if (!dep->name || strcmp(dep->name, imp->name) != 0) {
        if (dep->name) {
          fbe_sctx_error(L->ctx, p->file_id, imp->pos.line, imp->pos.col,
                         "Import %s: %s declares package %s", imp->name, dep->path, dep->name);
        }
        dep->name = NULL; /* never found by name again */
        continue;
      }
      load_imports(L, dep);
    }
    p->imports[i] = dep;
  }
  L->depth--;
  p->loading = false;
  *FBE_SCTX_PUSH(L->ctx, L->order, L->norder, L->order_cap) = p;
}

void fbe_load_files(fbe_sload *L, const fbe_root_request *req) {
  fbe_spkg *root = NULL;
  if (req->kind == FBE_ROOT_TEXT) {
    root = parse_package(L, req->name, req->text, req->length);
  } else if (req->kind == FBE_ROOT_FILE) {
    root = open_root_file(L, req->path);
    if (!root) return;
  } else {
    root = open_package(L, NULL, req->name);
    if (!root) {
      const char *file = fbe_sctx_printf(L->ctx, L->ctx->work, "%s.fbe", req->name);
      fbe_sctx_error(L->ctx, fbe_sctx_add_file(L->ctx, file), 0, 0,
                     "Cannot find package %s in the include directories", req->name);
      return;
    }
    if (root->name && strcmp(root->name, req->name) != 0) {
      fbe_sctx_error(L->ctx, root->file_id, root->ast->package_pos.line,
                     root->ast->package_pos.col, "File declares package %s, expected %s",
                     root->name, req->name);
      return;
    }
  }
  if (root->name) load_imports(L, root);
}

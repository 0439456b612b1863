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
static const char *read_into_work(fbei_load *load, const char *path, size_t *length,
                                  fbei_file_result *why) {
  *why = fbei_file_read(path, FBE_SCHEMA_MAX_FILE_SIZE);
  if (why->status != FBE_FILE_OK) return NULL;
  *length = (size_t)why->size;
  char *text = fbe_arena_alloc(load->ctx->work, *length ? *length : 1);
  if (text) memcpy(text, why->data, *length);
  fbei_mem_free(why->data); /* before a possible out-of-memory jump */
  why->data = NULL;
  if (!text) fbei_ctx_out_of_memory(load->ctx);
  return text;
}

/* "path: Cannot read file: too large: ..." (or not regular, out of memory, ...). */
static void report_unreadable(fbei_load *load, const char *path, const fbei_file_result *why) {
  char reason[160];
  fbei_file_describe(why, FBE_SCHEMA_MAX_FILE_SIZE, reason, sizeof reason);
  fbei_ctx_error(load->ctx, fbei_ctx_add_file(load->ctx, path), 0, 0, "Cannot read file: %s", reason);
}

static bool is_separator(char c) { return c == '/' || c == '\\'; }

static const char *directory_of(fbei_load *load, const char *path) {
  size_t n = strlen(path);
  while (n > 0 && !is_separator(path[n - 1])) n--;
  while (n > 1 && is_separator(path[n - 1])) n--;
  return fbei_ctx_strndup(load->ctx, load->ctx->work, path, n);
}

/* dir/file (file alone when dir is empty). */
static const char *join_path(fbei_load *load, const char *dir, const char *file) {
  if (!dir[0]) return file;
  bool has_separator = is_separator(dir[strlen(dir) - 1]);
  return fbei_ctx_printf(load->ctx, load->ctx->work, "%s%s%s", dir, has_separator ? "" : "/", file);
}

/* "/x", "\\x", "C:/x", "C:\\x": not looked up on the include directories. */
static bool is_absolute(const char *path) {
  if (is_separator(path[0])) return true;
  return ((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) &&
         path[1] == ':' && is_separator(path[2]);
}

static fbei_pkg_draft *find_package(fbei_load *load, const char *name) {
  for (uint32_t i = 0; i < load->nall; i++) {
    if (load->all[i]->name && strcmp(load->all[i]->name, name) == 0) return load->all[i];
  }
  return NULL;
}

static fbei_pkg_draft *parse_package(fbei_load *load, const char *path, const char *text, size_t len) {
  fbei_pkg_draft *p = fbei_ctx_alloc(load->ctx, load->ctx->work, sizeof *p);
  p->path = fbei_ctx_strdup(load->ctx, load->ctx->work, path);
  p->dir = directory_of(load, path);
  p->file_id = fbei_ctx_add_file(load->ctx, path);
  p->ast = fbei_parse_file(load->ctx, p->file_id, text, len);
  p->name = p->ast->package;
  *FBEI_CTX_PUSH(load->ctx, load->all, load->nall, load->all_cap) = p;
  return p;
}

/* Opens NAME.fbe in dir, then in each include directory. NULL when not found. */
static fbei_pkg_draft *open_package(fbei_load *load, const char *dir, const char *name) {
  size_t ndirs = load->options ? load->options->include_count : 0;
  for (size_t i = 0; i <= ndirs; i++) {
    if (i == 0 && !dir) continue;
    const char *where = i == 0 ? dir : load->options->include_dirs[i - 1];
    if (!where) continue;
    const char *path =
        join_path(load, where, fbei_ctx_printf(load->ctx, load->ctx->work, "%s.fbe", name));
    size_t len;
    fbei_file_result why;
    const char *text = read_into_work(load, path, &len, &why);
    if (text) return parse_package(load, path, text, len);
    if (why.status != FBE_FILE_MISSING) { /* there, but not readable: say why, look no further */
      report_unreadable(load, path, &why);
      return NULL;
    }
  }
  return NULL;
}

/* The root file: path as given; when it is relative and does not exist, the first
 * include directory holding it (as an import is found). NULL, with the error reported,
 * when there is none. */
static fbei_pkg_draft *open_root_file(fbei_load *load, const char *path) {
  size_t len;
  fbei_file_result why;
  const char *text = read_into_work(load, path, &len, &why);
  if (text) return parse_package(load, path, text, len);
  bool missing = why.status == FBE_FILE_MISSING; /* unreadable files are not looked for */
  size_t ndirs = load->options ? load->options->include_count : 0;
  const char *searched = "";
  if (missing && !is_absolute(path)) {
    for (size_t i = 0; i < ndirs; i++) {
      const char *dir = load->options->include_dirs[i];
      if (!dir || !dir[0]) continue;
      const char *candidate = join_path(load, dir, path);
      fbei_file_result found;
      text = read_into_work(load, candidate, &len, &found);
      if (text) return parse_package(load, candidate, text, len);
      if (found.status != FBE_FILE_MISSING) {
        report_unreadable(load, candidate, &found);
        return NULL;
      }
      searched =
          fbei_ctx_printf(load->ctx, load->ctx->work, "%s%s%s", searched, searched[0] ? ", " : "", dir);
    }
  }
  if (searched[0])
    fbei_ctx_error(load->ctx, fbei_ctx_add_file(load->ctx, path), 0, 0,
                   "Cannot read file: no such file as given or in the include directories %s",
                   searched);
  else
    report_unreadable(load, path, &why);
  return NULL;
}

static void report_cycle(fbei_load *load, fbei_pkg_draft *p, const fbei_ast_import *imp, fbei_pkg_draft *target) {
  uint32_t from = 0;
  while (load->stack[from] != target) from++;
  size_t len = strlen(target->name) + 1;
  for (uint32_t i = from; i < load->depth; i++) len += strlen(load->stack[i]->name) + 4;
  char *chain = fbei_ctx_alloc(load->ctx, load->ctx->work, len);
  for (uint32_t i = from; i < load->depth; i++) {
    strcat(chain, load->stack[i]->name);
    strcat(chain, " -> ");
  }
  strcat(chain, target->name);
  fbei_ctx_error(load->ctx, p->file_id, imp->pos.line, imp->pos.col, "Import cycle: %s", chain);
}

static void load_imports(fbei_load *load, fbei_pkg_draft *p) {
  const fbei_ast_file *ast = p->ast;
  p->loading = true;
  *FBEI_CTX_PUSH(load->ctx, load->stack, load->depth, load->stack_cap) = p;
  p->imports = fbei_ctx_alloc(load->ctx, load->ctx->work, (ast->nimports + 1) * sizeof *p->imports);
  for (uint32_t i = 0; i < ast->nimports; i++) {
    const fbei_ast_import *imp = &ast->imports[i];
    fbei_pkg_draft *dep = find_package(load, imp->name);
    if (dep && dep->loading) {
      report_cycle(load, p, imp, dep);
      continue;
    }
    if (!dep) {
      dep = open_package(load, p->dir, imp->name);
      if (!dep) {
        fbei_ctx_error(load->ctx, p->file_id, imp->pos.line, imp->pos.col,
                       "Cannot find %s.fbe for import %s", imp->name, imp->name);
        continue;
      }
      if (!dep->name || strcmp(dep->name, imp->name) != 0) {
        if (dep->name) {
          fbei_ctx_error(load->ctx, p->file_id, imp->pos.line, imp->pos.col,
                         "Import %s: %s declares package %s", imp->name, dep->path, dep->name);
        }
        dep->name = NULL; /* never found by name again */
        continue;
      }
      load_imports(load, dep);
    }
    p->imports[i] = dep;
  }
  load->depth--;
  p->loading = false;
  *FBEI_CTX_PUSH(load->ctx, load->order, load->norder, load->order_cap) = p;
}

void fbei_load_files(fbei_load *load, const fbei_root_request *req) {
  fbei_pkg_draft *root = NULL;
  if (req->kind == FBE_ROOT_TEXT) {
    root = parse_package(load, req->name, req->text, req->length);
  } else if (req->kind == FBE_ROOT_FILE) {
    root = open_root_file(load, req->path);
    if (!root) return;
  } else {
    root = open_package(load, NULL, req->name);
    if (!root) {
      const char *file = fbei_ctx_printf(load->ctx, load->ctx->work, "%s.fbe", req->name);
      fbei_ctx_error(load->ctx, fbei_ctx_add_file(load->ctx, file), 0, 0,
                     "Cannot find package %s in the include directories", req->name);
      return;
    }
    if (root->name && strcmp(root->name, req->name) != 0) {
      fbei_ctx_error(load->ctx, root->file_id, root->ast->package_pos.line,
                     root->ast->package_pos.col, "File declares package %s, expected %s",
                     root->name, req->name);
      return;
    }
  }
  if (root->name) load_imports(load, root);
}

/* Scratch memory with an out-of-memory escape, and diagnostics, for one schema load. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "schema/schema_ctx.h"

void fbe_sctx_out_of_memory(fbe_sctx *ctx) { longjmp(*ctx->oom, 1); }

void *fbe_sctx_alloc(fbe_sctx *ctx, fbe_arena *arena, size_t size) {
  void *p = fbe_arena_alloc(arena, size);
  if (!p) fbe_sctx_out_of_memory(ctx);
  memset(p, 0, size);
  return p;
}

char *fbe_sctx_strndup(fbe_sctx *ctx, fbe_arena *arena, const char *s, size_t n) {
  if (n == SIZE_MAX) fbe_sctx_out_of_memory(ctx);
  char *copy = fbe_sctx_alloc(ctx, arena, n + 1);
  if (n) memcpy(copy, s, n);
  return copy;
}

char *fbe_sctx_strdup(fbe_sctx *ctx, fbe_arena *arena, const char *s) {
  return fbe_sctx_strndup(ctx, arena, s, strlen(s));
}

static char *vprintf_in(fbe_sctx *ctx, fbe_arena *arena, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0) n = 0;
  char *out = fbe_sctx_alloc(ctx, arena, (size_t)n + 1);
  vsnprintf(out, (size_t)n + 1, fmt, again);
  va_end(again);
  return out;
}

char *fbe_sctx_printf(fbe_sctx *ctx, fbe_arena *arena, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *out = vprintf_in(ctx, arena, fmt, ap);
  va_end(ap);
  return out;
}

void *fbe_sctx_reserve(fbe_sctx *ctx, void *arr, uint32_t *cap, uint32_t count, size_t elem_size) {
  if (count < *cap) return arr;
  if (*cap > UINT32_MAX / 2) fbe_sctx_out_of_memory(ctx);
  /* from 1: most arrays (a struct's fields, a name's parts) hold a few elements, and a
   * schema has one per declaration (8 elements of a few hundred bytes each took
   * 5 KB per one-field struct: 2.6 GB for the 500,000 the field cap lets through) */
  uint32_t new_cap = *cap ? *cap * 2 : 1;
  if ((size_t)new_cap > SIZE_MAX / elem_size) fbe_sctx_out_of_memory(ctx);
  void *grown = fbe_sctx_alloc(ctx, ctx->work, (size_t)new_cap * elem_size);
  if (count) memcpy(grown, arr, (size_t)count * elem_size);
  *cap = new_cap;
  return grown;
}

uint32_t fbe_sctx_add_file(fbe_sctx *ctx, const char *name) {
  const char **slot = FBE_SCTX_PUSH(ctx, ctx->files, ctx->nfiles, ctx->files_cap);
  *slot = fbe_sctx_strdup(ctx, ctx->work, name);
  return ctx->nfiles - 1;
}

void fbe_sctx_vreport(fbe_sctx *ctx, fbe_severity severity, uint32_t file_id, uint32_t line,
                      uint32_t col, const char *fmt, va_list ap) {
  fbe_sdiag *d = FBE_SCTX_PUSH(ctx, ctx->diags, ctx->ndiags, ctx->diags_cap);
  d->severity = severity;
  d->file_id = file_id;
  d->line = line;
  d->col = col;
  d->seq = ctx->ndiags - 1;
  d->message = vprintf_in(ctx, ctx->work, fmt, ap);
  if (severity == FBE_SEVERITY_ERROR) ctx->nerrors++;
}

void fbe_sctx_error(fbe_sctx *ctx, uint32_t file_id, uint32_t line, uint32_t col,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbe_sctx_vreport(ctx, FBE_SEVERITY_ERROR, file_id, line, col, fmt, ap);
  va_end(ap);
}

void fbe_sctx_warning(fbe_sctx *ctx, uint32_t file_id, uint32_t line, uint32_t col,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbe_sctx_vreport(ctx, FBE_SEVERITY_WARNING, file_id, line, col, fmt, ap);
  va_end(ap);
}

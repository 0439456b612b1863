/* Scratch memory with an out-of-memory escape, and diagnostics, for one schema load. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "schema/schema_ctx.h"

void fbei_ctx_out_of_memory(fbei_load_ctx *ctx) { longjmp(*ctx->oom, 1); }

void *fbei_ctx_alloc(fbei_load_ctx *ctx, fbe_arena *arena, size_t size) {
  void *p = fbe_arena_alloc(arena, size);
  if (!p) fbei_ctx_out_of_memory(ctx);
  memset(p, 0, size);
  return p;
}

char *fbei_ctx_strndup(fbei_load_ctx *ctx, fbe_arena *arena, const char *s, size_t n) {
  if (n == SIZE_MAX) fbei_ctx_out_of_memory(ctx);
  char *copy = fbei_ctx_alloc(ctx, arena, n + 1);
  if (n) memcpy(copy, s, n);
  return copy;
}

char *fbei_ctx_strdup(fbei_load_ctx *ctx, fbe_arena *arena, const char *s) {
  return fbei_ctx_strndup(ctx, arena, s, strlen(s));
}

static char *vprintf_in(fbei_load_ctx *ctx, fbe_arena *arena, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0) n = 0;
  char *out = fbei_ctx_alloc(ctx, arena, (size_t)n + 1);
  vsnprintf(out, (size_t)n + 1, fmt, again);
  va_end(again);
  return out;
}

char *fbei_ctx_printf(fbei_load_ctx *ctx, fbe_arena *arena, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *out = vprintf_in(ctx, arena, fmt, ap);
  va_end(ap);
  return out;
}

void *fbei_ctx_reserve(fbei_load_ctx *ctx, void *arr, uint32_t *cap, uint32_t count, size_t elem_size) {
  if (count < *cap) return arr;
  if (*cap > UINT32_MAX / 2) fbei_ctx_out_of_memory(ctx);
  /* from 1: most arrays (a struct's fields, a name's parts) hold a few elements, and a
   * schema has one per declaration (8 elements of a few hundred bytes each took
   * 5 KB per one-field struct: 2.6 GB for the 500,000 the field cap lets through) */
  uint32_t new_cap = *cap ? *cap * 2 : 1;
  if ((size_t)new_cap > SIZE_MAX / elem_size) fbei_ctx_out_of_memory(ctx);
  void *grown = fbei_ctx_alloc(ctx, ctx->work, (size_t)new_cap * elem_size);
  if (count) memcpy(grown, arr, (size_t)count * elem_size);
  *cap = new_cap;
  return grown;
}

uint32_t fbei_ctx_add_file(fbei_load_ctx *ctx, const char *name) {
  const char **slot = FBEI_CTX_PUSH(ctx, ctx->files, ctx->nfiles, ctx->files_cap);
  *slot = fbei_ctx_strdup(ctx, ctx->work, name);
  return ctx->nfiles - 1;
}

void fbei_ctx_vreport(fbei_load_ctx *ctx, fbe_severity severity, uint32_t file_id, uint32_t line,
                      uint32_t col, const char *fmt, va_list ap) {
  fbei_diag *d = FBEI_CTX_PUSH(ctx, ctx->diags, ctx->ndiags, ctx->diags_cap);
  d->severity = severity;
  d->file_id = file_id;
  d->line = line;
  d->col = col;
  d->seq = ctx->ndiags - 1;
  d->message = vprintf_in(ctx, ctx->work, fmt, ap);
  if (severity == FBE_SEVERITY_ERROR) ctx->nerrors++;
}

void fbei_ctx_error(fbei_load_ctx *ctx, uint32_t file_id, uint32_t line, uint32_t col,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbei_ctx_vreport(ctx, FBE_SEVERITY_ERROR, file_id, line, col, fmt, ap);
  va_end(ap);
}

void fbei_ctx_warning(fbei_load_ctx *ctx, uint32_t file_id, uint32_t line, uint32_t col,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fbei_ctx_vreport(ctx, FBE_SEVERITY_WARNING, file_id, line, col, fmt, ap);
  va_end(ap);
}

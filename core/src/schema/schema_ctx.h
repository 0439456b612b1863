/* Internal: the working context of one schema load: scratch memory, the
 * out-of-memory escape and the list of diagnostics.
 *
 * Allocation failures do not return NULL: they longjmp to the jmp_buf the load
 * entry point set up (schema.c), which frees both arenas and reports
 * FBE_ERR_NOMEM. So everything allocated while a load runs must live in an
 * arena (never malloc), and no FILE or malloc'd buffer may be held across an
 * allocation. */
#ifndef FBE_SCHEMA_CTX_H
#define FBE_SCHEMA_CTX_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fbe/arena.h"
#include "fbe/schema.h"
#include "fbe/internal/error.h"

typedef struct fbei_diag {
  fbe_severity severity;
  uint32_t file_id;     /* index into fbei_load_ctx.files */
  uint32_t line, col;   /* 1-based; line 0 = the whole file */
  uint32_t seq;         /* report order, keeps the final sort stable */
  const char *message;  /* in the work arena */
} fbei_diag;

typedef struct fbei_load_ctx {
  fbe_arena *work;      /* scratch: tokens, AST, diagnostics; freed when the load ends */
  jmp_buf *oom;         /* where an allocation failure jumps to */
  fbei_diag *diags;
  uint32_t ndiags, diags_cap;
  uint32_t nerrors;     /* diagnostics with severity error */
  const char **files;   /* file names used in diagnostics */
  uint32_t nfiles, files_cap;
} fbei_load_ctx;

/* Zeroed memory from arena (the work arena or the schema's). Never returns NULL. */
void *fbei_ctx_alloc(fbei_load_ctx *ctx, fbe_arena *arena, size_t size);
/* NUL-terminated copy of s[0..n) in arena. */
char *fbei_ctx_strndup(fbei_load_ctx *ctx, fbe_arena *arena, const char *s, size_t n);
char *fbei_ctx_strdup(fbei_load_ctx *ctx, fbe_arena *arena, const char *s);
/* printf into a new string in arena. */
char *fbei_ctx_printf(fbei_load_ctx *ctx, fbe_arena *arena, const char *fmt, ...) FBE_PRINTF(3, 4);

/* Returns arr (or a bigger copy of it in the work arena) with room for at least
 * count + 1 elements of elem_size bytes; new room is zeroed. */
void *fbei_ctx_reserve(fbei_load_ctx *ctx, void *arr, uint32_t *cap, uint32_t count, size_t elem_size);

/* Appends a zeroed element to the growable work-arena array `arr` of `count`
 * elements and capacity `cap`; evaluates to a pointer to it. */
#define FBEI_CTX_PUSH(ctx, arr, count, cap)                                        \
  ((arr) = fbei_ctx_reserve((ctx), (arr), &(cap), (count), sizeof *(arr)),        \
   &(arr)[(count)++])

/* Registers a file name for diagnostics; returns its id. */
uint32_t fbei_ctx_add_file(fbei_load_ctx *ctx, const char *name);

void fbei_ctx_vreport(fbei_load_ctx *ctx, fbe_severity severity, uint32_t file_id, uint32_t line,
                      uint32_t col, const char *fmt, va_list ap) FBE_PRINTF(6, 0);
void fbei_ctx_error(fbei_load_ctx *ctx, uint32_t file_id, uint32_t line, uint32_t col,
                    const char *fmt, ...) FBE_PRINTF(5, 6);
void fbei_ctx_warning(fbei_load_ctx *ctx, uint32_t file_id, uint32_t line, uint32_t col,
                      const char *fmt, ...) FBE_PRINTF(5, 6);

/* Jumps to the out-of-memory handler. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void fbei_ctx_out_of_memory(fbei_load_ctx *ctx);

#endif

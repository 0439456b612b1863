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

typedef struct fbe_sdiag {
  fbe_severity severity;
  uint32_t file_id;     /* index into fbe_sctx.files */
  uint32_t line, col;   /* 1-based; line 0 = the whole file */
  uint32_t seq;         /* report order, keeps the final sort stable */
  const char *message;  /* in the work arena */
} fbe_sdiag;

typedef struct fbe_sctx {
  fbe_arena *work;      /* scratch: tokens, AST, diagnostics; freed when the load ends */
  jmp_buf *oom;         /* where an allocation failure jumps to */
  fbe_sdiag *diags;
  uint32_t ndiags, diags_cap;
  uint32_t nerrors;     /* diagnostics with severity error */
  const char **files;   /* file names used in diagnostics */
  uint32_t nfiles, files_cap;
} fbe_sctx;

/* Zeroed memory from arena (the work arena or the schema's). Never returns NULL. */
void *fbe_sctx_alloc(fbe_sctx *ctx, fbe_arena *arena, size_t size);
/* NUL-terminated copy of s[0..n) in arena. */
char *fbe_sctx_strndup(fbe_sctx *ctx, fbe_arena *arena, const char *s, size_t n);
char *fbe_sctx_strdup(fbe_sctx *ctx, fbe_arena *arena, const char *s);
/* printf into a new string in arena. */
char *fbe_sctx_printf(fbe_sctx *ctx, fbe_arena *arena, const char *fmt, ...) FBE_PRINTF(3, 4);

/* Returns arr (or a bigger copy of it in the work arena) with room for at least
 * count + 1 elements of elem_size bytes; new room is zeroed. */
void *fbe_sctx_reserve(fbe_sctx *ctx, void *arr, uint32_t *cap, uint32_t count, size_t elem_size);

/* Appends a zeroed element to the growable work-arena array `arr` of `count`
 * elements and capacity `cap`; evaluates to a pointer to it. */
#define FBE_SCTX_PUSH(ctx, arr, count, cap)                                        \
  ((arr) = fbe_sctx_reserve((ctx), (arr), &(cap), (count), sizeof *(arr)),        \
   &(arr)[(count)++])

/* Registers a file name for diagnostics; returns its id. */
uint32_t fbe_sctx_add_file(fbe_sctx *ctx, const char *name);

void fbe_sctx_vreport(fbe_sctx *ctx, fbe_severity severity, uint32_t file_id, uint32_t line,
                      uint32_t col, const char *fmt, va_list ap) FBE_PRINTF(6, 0);
void fbe_sctx_error(fbe_sctx *ctx, uint32_t file_id, uint32_t line, uint32_t col,
                    const char *fmt, ...) FBE_PRINTF(5, 6);
void fbe_sctx_warning(fbe_sctx *ctx, uint32_t file_id, uint32_t line, uint32_t col,
                      const char *fmt, ...) FBE_PRINTF(5, 6);

/* Jumps to the out-of-memory handler. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void fbe_sctx_out_of_memory(fbe_sctx *ctx);

#endif

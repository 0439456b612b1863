/* The public schema API (fbe/schema.h): loading, reference counting, lookups,
 * introspection and diagnostics. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schema/schema_resolve.h"
#include "fbe/internal/memory.h"

/* ---- diagnostics ---- */

static int compare_diags(const void *a, const void *b) {
  const fbei_diag *x = a, *y = b;
  if (x->file_id != y->file_id) return x->file_id < y->file_id ? -1 : 1;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One malloc per item holds both strings: file, then message (see fbe_diagnostics_free). */
static bool export_item(fbe_diagnostic *item, fbe_severity severity, const char *file,
                        uint32_t line, uint32_t col, const char *message) {
  size_t file_len = strlen(file), message_len = strlen(message);
  char *block = fbei_mem_alloc(file_len + message_len + 2);
  if (!block) return false;
  memcpy(block, file, file_len + 1);
  memcpy(block + file_len + 1, message, message_len + 1);
  item->severity = severity;
  item->file = block;
  item->line = line;
  item->col = col;
  item->message = block + file_len + 1;
  return true;
}

/* Copies the load's diagnostics (sorted by file, line, column) into caller memory;
 * adds an "Out of memory" error when the load ran out. */
static void export_diagnostics(fbei_load_ctx *ctx, bool out_of_memory, fbe_diagnostics *out) {
  out->count = 0;
  out->items = NULL;
  if (ctx->ndiags > 1) qsort(ctx->diags, ctx->ndiags, sizeof *ctx->diags, compare_diags);
  size_t capacity = (size_t)ctx->ndiags + 1;
  out->items = fbei_mem_calloc(capacity, sizeof *out->items);
  if (!out->items) return;
  for (uint32_t i = 0; i < ctx->ndiags; i++) {
    const fbei_diag *d = &ctx->diags[i];
    if (!d->message) continue; /* interrupted by an allocation failure */
    if (export_item(&out->items[out->count], d->severity, ctx->files[d->file_id], d->line, d->col,
                    d->message)) {
      out->count++;
    }
  }
  if (out_of_memory &&
      export_item(&out->items[out->count], FBE_SEVERITY_ERROR, "", 0, 0, "Out of memory")) {
    out->count++;
  }
  if (out->count == 0) { /* nothing to free when there is nothing to say */
    fbei_mem_free(out->items);
    out->items = NULL;
  }
}

void fbe_diagnostics_free(fbe_diagnostics *diags) {
  if (!diags) return;
  for (size_t i = 0; i < diags->count; i++) fbei_mem_free((void *)diags->items[i].file);
  fbei_mem_free(diags->items);
  diags->items = NULL;
  diags->count = 0;
}

void fbe_diagnostic_format(const fbe_diagnostic *d, char *out, size_t out_size) {
  if (!out || out_size == 0) return;
  if (!d) {
    out[0] = '\0';
    return;
  }
  const char *warning = d->severity == FBE_SEVERITY_WARNING ? "warning: " : "";
  if (!d->file || !d->file[0]) { /* about no file in particular (out of memory) */
    snprintf(out, out_size, "%s%s", warning, d->message);
  } else if (d->line == 0) { /* about the whole file */
    snprintf(out, out_size, "%s: %s%s", d->file, warning, d->message);
  } else {
    snprintf(out, out_size, "%s:%u:%u: %s%s", d->file, (unsigned)d->line, (unsigned)d->col,
             warning, d->message);
  }
}

/* ---- loading ---- */

/* The file of the struct layout refused. */
static uint32_t layout_file(const fbei_load *load, const fbe_struct *st) {
  uint32_t file_id = 0;
  for (uint32_t i = 0; i < load->norder; i++)
    if (load->order[i]->pkg == st->pkg) file_id = load->order[i]->file_id;
  return file_id;
}

static int struct_order(const void *a, const void *b) {
  return strcmp((*(fbe_struct *const *)a)->name, (*(fbe_struct *const *)b)->name);
}
static int enum_order(const void *a, const void *b) {
  return strcmp((*(fbe_enum *const *)a)->name, (*(fbe_enum *const *)b)->name);
}

/* The name indexes of every package (fbe_package.structs_by_name, enums_by_name). */
static void index_names(fbei_load *load) {
  for (uint32_t i = 0; i < load->norder; i++) {
    fbe_package *pkg = load->order[i]->pkg;
    pkg->structs_by_name = fbei_ctx_alloc(load->ctx, load->arena, (pkg->nstructs + 1) * sizeof *pkg->structs);
    if (pkg->nstructs) memcpy(pkg->structs_by_name, pkg->structs, pkg->nstructs * sizeof *pkg->structs);
    qsort(pkg->structs_by_name, pkg->nstructs, sizeof *pkg->structs, struct_order);
    pkg->enums_by_name = fbei_ctx_alloc(load->ctx, load->arena, (pkg->nenums + 1) * sizeof *pkg->enums);
    if (pkg->nenums) memcpy(pkg->enums_by_name, pkg->enums, pkg->nenums * sizeof *pkg->enums);
    qsort(pkg->enums_by_name, pkg->nenums, sizeof *pkg->enums, enum_order);
  }
}

/* The dense schema-wide indexes (fbe_struct.index, fbe_enum.index): a binding keeps its
 * per-struct tables in an array instead of a map keyed by pointer. */
static void index_schema(fbei_load *load) {
  fbe_schema *schema = load->schema;
  uint32_t nstructs = 0, nenums = 0;
  for (uint32_t i = 0; i < schema->npackages; i++) {
    nstructs += schema->packages[i]->nstructs;
    nenums += schema->packages[i]->nenums;
  }
  schema->structs = fbei_ctx_alloc(load->ctx, load->arena, (nstructs + 1) * sizeof *schema->structs);
  schema->enums = fbei_ctx_alloc(load->ctx, load->arena, (nenums + 1) * sizeof *schema->enums);
  for (uint32_t i = 0; i < schema->npackages; i++) {
    const fbe_package *pkg = schema->packages[i];
    for (uint32_t j = 0; j < pkg->nstructs; j++) {
      fbe_struct *st = pkg->structs[j];
      st->index = schema->nstructs;
      schema->structs[schema->nstructs++] = st;
      for (uint32_t k = 0; k < st->nfields; k++) st->has_keys = st->has_keys || st->fields[k].is_key;
    }
    for (uint32_t j = 0; j < pkg->nenums; j++) {
      pkg->enums[j]->index = schema->nenums;
      schema->enums[schema->nenums++] = pkg->enums[j];
    }
  }
}

/* Everything that can run out of memory; an allocation failure jumps back here.
 * Nothing local is modified after setjmp, so no volatile is needed. */
static bool run_load(fbei_load *load, const fbei_root_request *req) {
  jmp_buf out_of_memory;
  load->ctx->oom = &out_of_memory;
  if (setjmp(out_of_memory)) return false;
  fbei_load_files(load, req);
  if (load->ctx->nerrors == 0) fbei_resolve_packages(load);
  if (load->ctx->nerrors == 0) {
    const fbe_struct *big = NULL;
    int rc = fbei_layout_compute(load->schema, &big);
    if (rc == -2) {
      fbei_ctx_error(load->ctx, layout_file(load, big), big->line, big->col,
                     "Struct %s is too large (its sizes, or all default values together, "
                     "exceed the layout limits)", big->name);
    } else if (rc == -3) {
      fbei_ctx_error(load->ctx, layout_file(load, big), big->line, big->col,
                     "Struct %s takes the schema past %u final-model steps in all (a plain "
                     "struct held inline counts each of its fields)", big->name,
                     FBE_SCHEMA_MAX_STEPS);
    } else if (rc) {
      fbei_ctx_out_of_memory(load->ctx);
    }
  }
  if (load->ctx->nerrors == 0) {
    index_names(load);
    index_schema(load);
  }
  return true;
}

static fbe_schema *load_root(const fbei_root_request *req, const fbe_load_options *options,
                             fbe_diagnostics *diags) {
  if (diags) {
    diags->count = 0;
    diags->items = NULL;
  }
  fbei_load_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.work = fbe_arena_new();
  fbe_arena *arena = fbe_arena_new();
  fbe_schema *schema = arena ? fbe_arena_alloc(arena, sizeof *schema) : NULL;
  bool completed = false;
  if (ctx.work && schema) {
    memset(schema, 0, sizeof *schema);
    schema->arena = arena;
    atomic_init(&schema->refcount, 1);
    fbei_load load;
    memset(&load, 0, sizeof load);
    load.ctx = &ctx;
    load.options = options;
    load.schema = schema;
    load.arena = arena;
    completed = run_load(&load, req);
  }
  bool ok = completed && ctx.nerrors == 0;
  if (diags) {
    if (ctx.work) {
      export_diagnostics(&ctx, !completed, diags);
    } else {
      fbei_load_ctx empty;
      memset(&empty, 0, sizeof empty);
      export_diagnostics(&empty, true, diags);
    }
  }
  fbe_arena_free(ctx.work);
  if (!ok) {
    fbe_arena_free(arena);
    return NULL;
  }
  return schema;
}

fbe_schema *fbe_schema_load_file(const char *path, const fbe_load_options *options,
                                 fbe_diagnostics *diags) {
  fbei_root_request req = {FBE_ROOT_FILE, path ? path : "", NULL, 0, NULL};
  return load_root(&req, options, diags);
}

fbe_schema *fbe_schema_load_string(const char *text, size_t length, const char *name,
                                   const fbe_load_options *options, fbe_diagnostics *diags) {
  fbei_root_request req = {FBE_ROOT_TEXT, NULL, text ? text : "", text ? length : 0,
                          name ? name : "<string>"};
  return load_root(&req, options, diags);
}

fbe_schema *fbe_schema_load_package(const char *package, const fbe_load_options *options,
                                    fbe_diagnostics *diags) {
  fbei_root_request req = {FBE_ROOT_PACKAGE, NULL, NULL, 0, package ? package : ""};
  return load_root(&req, options, diags);
}

/* The reference count is shared between threads. */
_Static_assert(sizeof(atomic_int) == sizeof(int), "atomic_int must have the size of int");

static atomic_int *refcount_of(fbe_schema *schema) { return &schema->refcount; }

fbe_schema *fbe_schema_retain(fbe_schema *schema) {
  if (schema) atomic_fetch_add_explicit(refcount_of(schema), 1, memory_order_relaxed);
  return schema;
}

void fbe_schema_release(fbe_schema *schema) {
  if (!schema) return;
  if (atomic_fetch_sub_explicit(refcount_of(schema), 1, memory_order_acq_rel) == 1) {
    fbe_arena_free(schema->arena); /* the schema itself lives in its arena */
  }
}

/* ---- lookups ---- */

const fbe_package *fbe_schema_root(const fbe_schema *schema) {
  return schema ? schema->root : NULL;
}

/* Splits "pkg.Name" (or "Name": the root package) into its package and local name. */
static const fbe_package *package_of(const fbe_schema *schema, const char *name,
                                     const char **local) {
  if (!schema || !name) return NULL;
  const char *dot = strchr(name, '.');
  if (!dot) {
    *local = name;
    return schema->root;
  }
  *local = dot + 1;
  size_t len = (size_t)(dot - name);
  for (uint32_t i = 0; i < schema->npackages; i++) {
    const char *pkg = schema->packages[i]->name;
    if (strlen(pkg) == len && memcmp(pkg, name, len) == 0) return schema->packages[i];
  }
  return NULL;
}

static int struct_named(const void *key, const void *item) {
  return strcmp(key, (*(fbe_struct *const *)item)->name);
}
static int enum_named(const void *key, const void *item) {
  return strcmp(key, (*(fbe_enum *const *)item)->name);
}

const fbe_struct *fbe_schema_find_struct(const fbe_schema *schema, const char *name) {
  const char *local = NULL;
  const fbe_package *pkg = package_of(schema, name, &local);
  fbe_struct *const *found =
      pkg ? bsearch(local, pkg->structs_by_name, pkg->nstructs, sizeof *pkg->structs, struct_named) : NULL;
  return found ? *found : NULL;
}

const fbe_enum *fbe_schema_find_enum(const fbe_schema *schema, const char *name) {
  const char *local = NULL;
  const fbe_package *pkg = package_of(schema, name, &local);
  fbe_enum *const *found =
      pkg ? bsearch(local, pkg->enums_by_name, pkg->nenums, sizeof *pkg->enums, enum_named) : NULL;
  return found ? *found : NULL;
}

/* ---- introspection ---- */

const char *fbe_package_name(const fbe_package *pkg) { return pkg ? pkg->name : NULL; }
const char *fbe_package_domain(const fbe_package *pkg) { return pkg ? pkg->domain : NULL; }
uint32_t fbe_package_version_major(const fbe_package *pkg) { return pkg ? pkg->version_major : 0; }
uint32_t fbe_package_version_minor(const fbe_package *pkg) { return pkg ? pkg->version_minor : 0; }

size_t fbe_schema_package_count(const fbe_schema *schema) { return schema ? schema->npackages : 0; }
const fbe_package *fbe_schema_package_at(const fbe_schema *schema, size_t index) {
  return schema && index < schema->npackages ? schema->packages[index] : NULL;
}
size_t fbe_schema_struct_count(const fbe_schema *schema) { return schema ? schema->nstructs : 0; }
const fbe_struct *fbe_schema_struct_at(const fbe_schema *schema, size_t index) {
  return schema && index < schema->nstructs ? schema->structs[index] : NULL;
}
size_t fbe_schema_enum_count(const fbe_schema *schema) { return schema ? schema->nenums : 0; }
const fbe_enum *fbe_schema_enum_at(const fbe_schema *schema, size_t index) {
  return schema && index < schema->nenums ? schema->enums[index] : NULL;
}
size_t fbe_package_struct_count(const fbe_package *pkg) { return pkg ? pkg->nstructs : 0; }
const fbe_struct *fbe_package_struct_at(const fbe_package *pkg, size_t index) {
  return pkg && index < pkg->nstructs ? pkg->structs[index] : NULL;
}
size_t fbe_package_enum_count(const fbe_package *pkg) { return pkg ? pkg->nenums : 0; }
const fbe_enum *fbe_package_enum_at(const fbe_package *pkg, size_t index) {
  return pkg && index < pkg->nenums ? pkg->enums[index] : NULL;
}

const char *fbe_struct_name(const fbe_struct *st) { return st ? st->name : NULL; }
const char *fbe_struct_full_name(const fbe_struct *st) { return st ? st->full_name : NULL; }
uint32_t fbe_struct_type_id(const fbe_struct *st) { return st ? st->type_id : 0; }
int fbe_struct_is_message(const fbe_struct *st) { return st && st->is_message; }
const fbe_struct *fbe_struct_base(const fbe_struct *st) { return st ? st->base : NULL; }
size_t fbe_struct_index(const fbe_struct *st) { return st ? st->index : 0; }
size_t fbe_struct_inherited_count(const fbe_struct *st) { return st ? st->ninherited : 0; }
int fbe_struct_has_keys(const fbe_struct *st) { return st && st->has_keys; }
size_t fbe_struct_field_count(const fbe_struct *st) { return st ? st->nfields : 0; }
const fbe_field *fbe_struct_field_at(const fbe_struct *st, size_t index) {
  return st && index < st->nfields ? &st->fields[index] : NULL;
}

const fbe_field *fbe_struct_field(const fbe_struct *st, const char *name) {
  if (!st || !name) return NULL;
  size_t lo = 0, hi = st->nfields;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const fbe_field *f = &st->fields[st->name_index[mid]];
    int c = strcmp(f->name, name);
    if (c == 0) return f;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return NULL;
}

const char *fbe_field_name(const fbe_field *f) { return f ? f->name : NULL; }
size_t fbe_field_index(const fbe_field *f) { return f ? f->index : 0; }
const fbe_type *fbe_field_type(const fbe_field *f) { return f ? f->type : NULL; }
int fbe_field_is_key(const fbe_field *f) { return f && f->is_key; }

/* Host values of these kinds are immutable in every binding's language. */
static bool shared_kind(fbe_kind k) {
  return k <= FBE_KIND_BYTES || k == FBE_KIND_ENUM || k == FBE_KIND_FLAGS;
}

fbe_default_class fbe_field_default_class(const fbe_field *f) {
  if (!f) return FBE_DEFAULT_SHARED;
  fbei_default_kind d = f->def.kind;
  if (d == FBE_DEF_UTC || d == FBE_DEF_UUID1 || d == FBE_DEF_UUID4) return FBE_DEFAULT_DYNAMIC;
  const fbe_type *t = f->type;
  if (t->kind == FBE_KIND_OPTIONAL) {
    bool null = d == FBE_DEF_NONE || d == FBE_DEF_NULL; /* an optional's implicit default is null */
    return null || shared_kind(t->elem->kind) ? FBE_DEFAULT_SHARED : FBE_DEFAULT_FRESH;
  }
  return shared_kind(t->kind) ? FBE_DEFAULT_SHARED : FBE_DEFAULT_FRESH;
}

fbe_kind fbe_type_kind(const fbe_type *t) { return t ? t->kind : FBE_KIND_COUNT_; }
const fbe_type *fbe_type_element(const fbe_type *t) { return t ? t->elem : NULL; }
const fbe_type *fbe_type_key(const fbe_type *t) { return t ? t->key : NULL; }
const fbe_struct *fbe_type_struct(const fbe_type *t) { return t ? t->st : NULL; }
const fbe_enum *fbe_type_enum(const fbe_type *t) { return t ? t->enm : NULL; }
uint32_t fbe_type_array_size(const fbe_type *t) { return t ? t->array_size : 0; }

const char *fbe_enum_name(const fbe_enum *e) { return e ? e->name : NULL; }
const char *fbe_enum_full_name(const fbe_enum *e) { return e ? e->full_name : NULL; }
size_t fbe_enum_index(const fbe_enum *e) { return e ? e->index : 0; }
int fbe_enum_is_flags(const fbe_enum *e) { return e && e->is_flags; }
fbe_kind fbe_enum_base(const fbe_enum *e) { return e ? e->base : FBE_KIND_COUNT_; }
size_t fbe_enum_value_count(const fbe_enum *e) { return e ? e->nvalues : 0; }
const char *fbe_enum_value_name(const fbe_enum *e, size_t index) {
  return e && index < e->nvalues ? e->values[index].name : NULL;
}
uint64_t fbe_enum_value_at(const fbe_enum *e, size_t index) {
  return e && index < e->nvalues ? e->values[index].value : 0;
}

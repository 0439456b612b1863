/* Schema compatibility (FORMAT.md 8): compares the root packages of two loaded schemas
 * and judges every difference for old and new readers of the standard model and for
 * the final model. The rules and the meaning of the directions are in fbe/compat.h.
 *
 * Fields are judged by their standard-model slots (wire_offset, wire_size) rather than
 * by position in a list: a reader reads a field from its own offset when it fits in
 * the body size S of the data, and uses the default otherwise (5.10). So a field is
 * safe exactly when the other side writes the same thing at the same offset, or when
 * the slot lies beyond the other side's S and a default is what that reader expects. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fbe/compat.h"
#include "fbe/message.h"
#include "fbe/protocol.h"
#include "fbe/internal/error.h"
#include "fbe/internal/float_text.h"
#include "base/index_table.h"
#include "protocol/protocol_index.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/memory.h"

#define SAFE FBE_COMPAT_SAFE
#define OLD FBE_COMPAT_BREAKS_OLD_READERS
#define NEW FBE_COMPAT_BREAKS_NEW_READERS
#define BOTH FBE_COMPAT_BREAKS_BOTH
#define COMPAT FBE_COMPAT_FINAL_COMPATIBLE
#define INCOMPAT FBE_COMPAT_FINAL_INCOMPATIBLE

/* ------------------------------------------------------------------ texts */

/* A bounded text being built; output past the end is dropped (texts are for people). */
typedef struct text {
  char s[320];
  size_t n;
} text;

static void put(text *t, const char *fmt, ...) FBE_PRINTF(2, 3);
static void put(text *t, const char *fmt, ...) {
  if (t->n + 1 >= sizeof t->s) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
  va_end(ap);
  if (k > 0) t->n = (size_t)k >= sizeof t->s - t->n ? sizeof t->s - 1 : t->n + (size_t)k;
}

static void text_reset(text *t) {
  t->n = 0;
  t->s[0] = '\0';
}

/* Types and structs are named as the schema of that side would: short in its root
 * package, qualified when imported. */
static const char *struct_label(const fbe_struct *st, const fbe_package *root) {
  return st->pkg == root ? st->name : st->full_name;
}
static const char *enum_label(const fbe_enum *e, const fbe_package *root) {
  return e->pkg == root ? e->name : e->full_name;
}

static void put_type(text *t, const fbe_type *ty, const fbe_package *root) {
  switch (ty->kind) {
    case FBE_KIND_OPTIONAL: put_type(t, ty->elem, root); put(t, "?"); break;
    case FBE_KIND_ARRAY:
      put_type(t, ty->elem, root);
      put(t, "[%" PRIu32 "]", ty->array_size);
      break;
    case FBE_KIND_VECTOR: put_type(t, ty->elem, root); put(t, "[]"); break;
    case FBE_KIND_LIST: put_type(t, ty->elem, root); put(t, "()"); break;
    case FBE_KIND_SET: put_type(t, ty->elem, root); put(t, "!"); break;
    case FBE_KIND_MAP:
      put_type(t, ty->elem, root); put(t, "<"); put_type(t, ty->key, root); put(t, ">");
      break;
    case FBE_KIND_HASH:
      put_type(t, ty->elem, root); put(t, "{"); put_type(t, ty->key, root); put(t, "}");
      break;
    case FBE_KIND_STRUCT: put(t, "%s", struct_label(ty->st, root)); break;
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: put(t, "%s", enum_label(ty->enm, root)); break;
    default: put(t, "%s", fbe_kind_name(ty->kind)); break;
  }
}

/* An enum/flags number: flags in hex, enums in the signedness of their base. */
static void put_number(text *t, const fbe_enum *e, uint64_t v) {
  if (e->is_flags)
    put(t, "0x%" PRIx64, v);
  else if (fbei_kind_is_signed(e->base))
    put(t, "%" PRId64, (int64_t)v);
  else
    put(t, "%" PRIu64, v);
}

static void put_enum_value(text *t, const fbe_enum *e, const fbei_enum_value *v) {
  put(t, "%s = ", v->name);
  put_number(t, e, v->value);
}

static void put_enum_decl(text *t, const fbe_enum *e, const fbe_package *root) {
  put(t, "%s %s : %s", e->is_flags ? "flags" : "enum", enum_label(e, root), fbe_kind_name(e->base));
}

/* The default a reader substitutes (SCHEMA.md 7.4 for the implicit ones), so that
 * "= 0.0" and no default compare equal. */
static fbei_default effective_default(const fbe_field *f) {
  if (f->def.kind != FBE_DEF_NONE) return f->def;
  fbei_default d;
  memset(&d, 0, sizeof d);
  if (f->type->kind == FBE_KIND_OPTIONAL) {
    d.kind = FBE_DEF_NULL;
    return d;
  }
  switch (f->type->wire) {
    case FBE_KIND_BOOL: d.kind = FBE_DEF_BOOL; break;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: d.kind = FBE_DEF_FLOAT; break;
    case FBE_KIND_DECIMAL: d.kind = FBE_DEF_DECIMAL; break;
    case FBE_KIND_STRING: case FBE_KIND_BYTES: /* empty either way */
      d.kind = FBE_DEF_STRING;
      d.str = "";
      break;
    case FBE_KIND_UUID: d.kind = FBE_DEF_UUID; break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_WCHAR:
    case FBE_KIND_INT8: case FBE_KIND_UINT8: case FBE_KIND_INT16: case FBE_KIND_UINT16:
    case FBE_KIND_INT32: case FBE_KIND_UINT32: case FBE_KIND_INT64: case FBE_KIND_UINT64:
    case FBE_KIND_TIMESTAMP:
      d.kind = FBE_DEF_INT;
      break;
    default: break; /* structs, arrays, collections: no default can be written */
  }
  return d;
}

static int default_equal(const fbei_default *a, const fbei_default *b) {
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
    case FBE_DEF_BOOL: case FBE_DEF_INT: return a->u == b->u;
    case FBE_DEF_FLOAT: return !memcmp(&a->d, &b->d, sizeof a->d);
    case FBE_DEF_DECIMAL: case FBE_DEF_UUID: return !memcmp(a->bytes, b->bytes, 16);
    case FBE_DEF_STRING: return a->len == b->len && (!a->len || !memcmp(a->str, b->str, a->len));
    default: return 1; /* none, null, utc, uuid1, uuid4: no payload */
  }
}

static void put_default(text *t, const fbei_default *d, const fbe_type *type) {
  const fbe_type *ty = type->kind == FBE_KIND_OPTIONAL ? type->elem : type;
  switch (d->kind) {
    case FBE_DEF_NONE: put(t, "none"); break;
    case FBE_DEF_NULL: put(t, "null"); break;
    case FBE_DEF_BOOL: put(t, d->u ? "true" : "false"); break;
    case FBE_DEF_INT:
      if (ty->enm) {
        const fbe_enum *e = ty->enm;
        for (uint32_t i = 0; i < e->nvalues; i++)
          if (e->values[i].value == d->u) {
            put(t, "%s.%s (", e->name, e->values[i].name);
            put_number(t, e, d->u);
            put(t, ")");
            return;
          }
        put_number(t, e, d->u);
      } else if (fbei_kind_is_signed(ty->kind)) {
        put(t, "%" PRId64, (int64_t)d->u);
      } else {
        put(t, "%" PRIu64, d->u);
      }
      break;
    case FBE_DEF_FLOAT:
      if (isfinite(d->d)) {
        char num[FBE_DOUBLE_TEXT_MAX];
        fbei_double_format(d->d, num);
        put(t, "%s", num);
      } else {
        put(t, "%g", d->d);
      }
      break;
    case FBE_DEF_DECIMAL: {
      fbe_decimal v;
      char num[64];
      memcpy(v.bytes, d->bytes, 16);
      fbe_decimal_format(&v, num, sizeof num);
      put(t, "%s", num);
      break;
    }
    case FBE_DEF_STRING:
      put(t, "\"%.*s%s\"", (int)(d->len > 40 ? 40 : d->len), d->str, d->len > 40 ? "..." : "");
      break;
    case FBE_DEF_UUID: {
      fbe_uuid u;
      char s[37];
      memcpy(u.bytes, d->bytes, 16);
      fbe_uuid_format(&u, s);
      put(t, "%s", s);
      break;
    }
    case FBE_DEF_UTC: put(t, "utc"); break;
    case FBE_DEF_UUID1: put(t, "uuid1"); break;
    case FBE_DEF_UUID4: put(t, "uuid4"); break;
  }
}

/* "double tp = 10.0 at offset 34": the field as the reader of that side sees it. */
static void put_field(text *t, const fbe_field *f, const fbe_package *root) {
  put_type(t, f->type, root);
  put(t, " %s", f->name);
  if (f->def.kind != FBE_DEF_NONE) {
    put(t, " = ");
    put_default(t, &f->def, f->type);
  }
  put(t, " at offset %" PRIu32, f->wire_offset);
}

/* ------------------------------------------------------------------ the comparison */

typedef struct pair {
  const void *o, *n;
} pair;

/* The structs and enums of a root package by name. */
typedef struct names {
  fbei_index_table structs, enums;
} names;

typedef struct cmp {
  const fbe_schema *olds, *news;
  const fbe_package *oroot, *nroot;
  names onames, nnames;
  fbei_protocol_index oproto, nproto; /* what each side's receivers take */
  fbe_compat_report *rep;
  size_t cap;
  pair *done; /* struct and enum pairs already compared (each is compared once) */
  size_t ndone, done_cap;
  fbei_index_table done_index; /* of done */
  int oom;
} cmp;

static uint64_t pair_hash(const void *o, const void *n) {
  return fbei_hash_words((uint64_t)(uintptr_t)o, (uint64_t)(uintptr_t)n);
}

static int pair_match(const void *items, uint32_t index, const void *key) {
  const pair *p = (const pair *)items + index, *k = key;
  return p->o == k->o && p->n == k->n;
}

/* Records (o, n) as compared; returns 1 when it already was (or on out of memory). */
static int seen(cmp *c, const void *o, const void *n) {
  pair key = {o, n};
  uint64_t hash = pair_hash(o, n);
  if (c->done_index.slots && fbei_index_table_find(&c->done_index, hash, pair_match, c->done, &key) >= 0)
    return 1;
  if (c->ndone == c->done_cap) {
    size_t cap = c->done_cap ? c->done_cap * 2 : 32;
    pair *p = fbei_mem_realloc(c->done, cap * sizeof *p);
    fbei_index_table bigger;
    if (!p || fbei_index_table_init(&bigger, cap)) {
      if (p) c->done = p;
      c->oom = 1;
      return 1;
    }
    c->done = p;
    c->done_cap = cap;
    fbei_index_table_free(&c->done_index);
    c->done_index = bigger;
    for (size_t i = 0; i < c->ndone; i++)
      fbei_index_table_add(&c->done_index, pair_hash(c->done[i].o, c->done[i].n), (uint32_t)i);
  }
  c->done[c->ndone] = key;
  fbei_index_table_add(&c->done_index, hash, (uint32_t)c->ndone);
  c->ndone++;
  return 0;
}

/* Appends a change. One malloc holds its four strings (freed through `path`). */
static void emit(cmp *c, fbe_compat_kind kind, fbe_compat_effect standard, fbe_compat_final final,
                 int warning, const char *path, const char *old_text, const char *new_text,
                 const char *note) {
  if (c->oom) return;
  fbe_compat_report *r = c->rep;
  if (r->count == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 16;
    fbe_compat_change *p = fbei_mem_realloc(r->changes, cap * sizeof *p);
    if (!p) {
      c->oom = 1;
      return;
    }
    r->changes = p;
    c->cap = cap;
  }
  const char *src[4] = {path, old_text ? old_text : "", new_text ? new_text : "", note ? note : ""};
  size_t len[4], total = 0;
  for (int i = 0; i < 4; i++) total += (len[i] = strlen(src[i])) + 1;
  char *block = fbei_mem_alloc(total), *p = block;
  if (!block) {
    c->oom = 1;
    return;
  }
  const char *dst[4];
  for (int i = 0; i < 4; i++) {
    memcpy(p, src[i], len[i] + 1);
    dst[i] = p;
    p += len[i] + 1;
  }
  fbe_compat_change *ch = &r->changes[r->count++];
  ch->kind = kind;
  ch->path = dst[0];
  ch->old_text = dst[1];
  ch->new_text = dst[2];
  ch->note = dst[3];
  ch->standard = standard;
  ch->final = final;
  ch->warning = warning;
}

static int struct_named(const void *items, uint32_t index, const void *key) {
  return !strcmp(((const fbe_struct *const *)items)[index]->name, key);
}

static int enum_named(const void *items, uint32_t index, const void *key) {
  return !strcmp(((const fbe_enum *const *)items)[index]->name, key);
}

static int names_init(names *m, const fbe_package *p) {
  if (fbei_index_table_init(&m->structs, p->nstructs) || fbei_index_table_init(&m->enums, p->nenums))
    return -1;
  for (uint32_t i = 0; i < p->nstructs; i++)
    fbei_index_table_add(&m->structs, fbei_hash_string(p->structs[i]->name), i);
  for (uint32_t i = 0; i < p->nenums; i++)
    fbei_index_table_add(&m->enums, fbei_hash_string(p->enums[i]->name), i);
  return 0;
}

static void names_free(names *m) {
  fbei_index_table_free(&m->structs);
  fbei_index_table_free(&m->enums);
}

/* The struct / enum of the root package p (indexed by m) with this name, or NULL. */
static const fbe_struct *pkg_struct(const names *m, const fbe_package *p, const char *name) {
  int64_t i = fbei_index_table_find(&m->structs, fbei_hash_string(name), struct_named, p->structs, name);
  return i < 0 ? NULL : p->structs[i];
}

static const fbe_enum *pkg_enum(const names *m, const fbe_package *p, const char *name) {
  int64_t i = fbei_index_table_find(&m->enums, fbei_hash_string(name), enum_named, p->enums, name);
  return i < 0 ? NULL : p->enums[i];
}

/* Root pairs are compared in declaration order by the package walk; pairs met only
 * through a field are compared where they are met. */
static int is_root_pair(const cmp *c, const fbe_struct *o, const fbe_struct *n) {
  return o->pkg == c->oroot && n->pkg == c->nroot && !strcmp(o->name, n->name);
}

/* ------------------------------------------------------------------ enums */

/* The values of one side's enum by name and by number, so that comparing two enums is
 * linear in their values. */
typedef struct value_index {
  const fbe_enum *e;
  fbei_index_table by_name, by_number;
  fbei_index_table kept; /* values whose name means the same number in the other enum */
} value_index;

static int value_has_name(const void *items, uint32_t index, const void *key) {
  return !strcmp(((const fbei_enum_value *)items)[index].name, key);
}

static int value_has_number(const void *items, uint32_t index, const void *key) {
  return ((const fbei_enum_value *)items)[index].value == *(const uint64_t *)key;
}

static uint64_t number_hash(uint64_t v) { return fbei_hash_words(v, 0); }

static const fbei_enum_value *value_named(const value_index *x, const char *name) {
  int64_t i = fbei_index_table_find(&x->by_name, fbei_hash_string(name), value_has_name,
                                   x->e->values, name);
  return i < 0 ? NULL : &x->e->values[i];
}

/* The first value of e numbered v. */
static const fbei_enum_value *value_numbered(const value_index *x, uint64_t v) {
  int64_t i = fbei_index_table_find(&x->by_number, number_hash(v), value_has_number, x->e->values, &v);
  return i < 0 ? NULL : &x->e->values[i];
}

/* The first value of e numbered v whose name means v in the other enum too (an
 * unchanged name). */
static const fbei_enum_value *kept_value(const value_index *x, uint64_t v) {
  int64_t i = fbei_index_table_find(&x->kept, number_hash(v), value_has_number, x->e->values, &v);
  return i < 0 ? NULL : &x->e->values[i];
}

static int value_index_init(value_index *x, const fbe_enum *e) {
  memset(x, 0, sizeof *x);
  x->e = e;
  if (fbei_index_table_init(&x->by_name, e->nvalues) || fbei_index_table_init(&x->by_number, e->nvalues) ||
      fbei_index_table_init(&x->kept, e->nvalues))
    return -1;
  for (uint32_t i = 0; i < e->nvalues; i++) {
    fbei_index_table_add(&x->by_name, fbei_hash_string(e->values[i].name), i);
    fbei_index_table_add(&x->by_number, number_hash(e->values[i].value), i);
  }
  return 0;
}

static void value_index_kept(value_index *x, const value_index *other) {
  for (uint32_t i = 0; i < x->e->nvalues; i++) {
    const fbei_enum_value *w = value_named(other, x->e->values[i].name);
    if (w && w->value == x->e->values[i].value)
      fbei_index_table_add(&x->kept, number_hash(w->value), i);
  }
}

static void value_index_free(value_index *x) {
  fbei_index_table_free(&x->by_name);
  fbei_index_table_free(&x->by_number);
  fbei_index_table_free(&x->kept);
}

/* New values that may be old values renamed: those whose name the old enum lacks, per
 * number in declaration order; each is taken once, first declared first. */
typedef struct rename_pool {
  fbei_index_table heads; /* the first candidate of each number */
  uint32_t *next;        /* the next candidate with the same number, UINT32_MAX at the end */
  uint32_t *cursor;      /* at a head: its first candidate not yet taken */
} rename_pool;

static int rename_pool_init(rename_pool *r, const value_index *n, const value_index *o) {
  uint32_t count = n->e->nvalues;
  memset(r, 0, sizeof *r);
  r->next = fbei_mem_alloc(((size_t)count + 1) * 2 * sizeof *r->next);
  if (!r->next || fbei_index_table_init(&r->heads, count)) return -1;
  r->cursor = r->next + count + 1;
  uint32_t *tail = r->cursor; /* while building: at a head, its last candidate */
  const fbei_enum_value *values = n->e->values;
  for (uint32_t j = 0; j < count; j++) {
    r->next[j] = UINT32_MAX;
    if (value_named(o, values[j].name)) continue;
    uint64_t v = values[j].value;
    int64_t h = fbei_index_table_find(&r->heads, number_hash(v), value_has_number, values, &v);
    if (h < 0) {
      fbei_index_table_add(&r->heads, number_hash(v), j);
      tail[j] = j;
    } else {
      r->next[tail[h]] = j;
      tail[h] = j;
    }
  }
  for (uint32_t j = 0; j < count; j++) {
    uint64_t v = values[j].value;
    if (fbei_index_table_find(&r->heads, number_hash(v), value_has_number, values, &v) == j)
      r->cursor[j] = j;
  }
  return 0;
}

/* Takes the first candidate numbered v not taken yet, or returns -1. */
static int64_t rename_pool_take(rename_pool *r, const fbei_enum_value *values, uint64_t v) {
  int64_t h = fbei_index_table_find(&r->heads, number_hash(v), value_has_number, values, &v);
  if (h < 0 || r->cursor[h] == UINT32_MAX) return -1;
  uint32_t j = r->cursor[h];
  r->cursor[h] = r->next[j];
  return j;
}

static void rename_pool_free(rename_pool *r) {
  fbei_index_table_free(&r->heads);
  fbei_mem_free(r->next);
}

/* Integer classes with identical bytes on the wire and in JSON (FORMAT.md 2, 10). */
static fbe_kind wire_class(fbe_kind k) {
  switch (k) {
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: return FBE_KIND_UINT8;
    case FBE_KIND_WCHAR: return FBE_KIND_UINT32;
    case FBE_KIND_TIMESTAMP: return FBE_KIND_UINT64;
    case FBE_KIND_BYTES: return FBE_KIND_STRING;
    default: return k;
  }
}

static void compare_values(cmp *c, const char *label, const fbe_enum *o, const fbe_enum *n,
                           const value_index *ox, const value_index *nx, rename_pool *pool,
                           unsigned char *paired) {
  char path[256];
  text a, b, note;
  const char *what = n->is_flags ? "flags" : "enum";
  for (uint32_t i = 0; i < o->nvalues; i++) {
    const fbei_enum_value *ov = &o->values[i];
    const fbei_enum_value *nv = value_named(nx, ov->name);
    snprintf(path, sizeof path, "%s.%s", label, ov->name);
    text_reset(&a), text_reset(&b), text_reset(&note);
    put_enum_value(&a, o, ov);
    if (nv) {
      if (nv->value == ov->value) continue;
      put_enum_value(&b, n, nv);
      put(&note, "the same name is another number: each side misreads the other's %s", ov->name);
      emit(c, FBE_COMPAT_ENUM_VALUE_RENUMBERED, BOTH, INCOMPAT, 0, path, a.s, b.s, note.s);
      continue;
    }
    int64_t j = rename_pool_take(pool, n->values, ov->value);
    if (j >= 0) {
      paired[j] = 1;
      snprintf(path, sizeof path, "%s.%s", label, n->values[j].name); /* as renamed fields */
      put_enum_value(&b, n, &n->values[j]);
      emit(c, FBE_COMPAT_ENUM_VALUE_RENAMED, SAFE, COMPAT, 0, path, a.s, b.s,
           "same number: no effect on the wire or in JSON");
      continue;
    }
    const fbei_enum_value *kept = kept_value(nx, ov->value);
    const fbei_enum_value *other = value_numbered(nx, ov->value);
    if (kept) {
      put(&note, "the number is still declared as %s", kept->name);
      emit(c, FBE_COMPAT_ENUM_VALUE_REMOVED, SAFE, COMPAT, 0, path, a.s, "", note.s);
    } else if (other) {
      put(&note, "new readers take old %s for %s", ov->name, other->name);
      emit(c, FBE_COMPAT_ENUM_VALUE_REMOVED, NEW, INCOMPAT, 0, path, a.s, "", note.s);
    } else {
      put(&note, "new readers get this number from old data with no %s name for it, "
                 "and keep it as is", what);
      emit(c, FBE_COMPAT_ENUM_VALUE_REMOVED, SAFE, COMPAT, 1, path, a.s, "", note.s);
    }
  }
  for (uint32_t j = 0; j < n->nvalues; j++) {
    const fbei_enum_value *nv = &n->values[j];
    if (paired[j] || value_named(ox, nv->name)) continue;
    snprintf(path, sizeof path, "%s.%s", label, nv->name);
    text_reset(&b), text_reset(&note);
    put_enum_value(&b, n, nv);
    const fbei_enum_value *kept = kept_value(ox, nv->value);
    const fbei_enum_value *other = value_numbered(ox, nv->value);
    if (kept) {
      put(&note, "another name for %s, which old readers know", kept->name);
      emit(c, FBE_COMPAT_ENUM_VALUE_ADDED, SAFE, COMPAT, 0, path, "", b.s, note.s);
    } else if (other) {
      put(&note, "old readers take it for %s", other->name);
      emit(c, FBE_COMPAT_ENUM_VALUE_ADDED, OLD, INCOMPAT, 0, path, "", b.s, note.s);
    } else {
      emit(c, FBE_COMPAT_ENUM_VALUE_ADDED, SAFE, COMPAT, 0, path, "", b.s,
           "old readers get an unknown number and keep it as is");
    }
  }
}

static void compare_enum_values(cmp *c, const char *label, const fbe_enum *o, const fbe_enum *n) {
  unsigned char *paired = fbei_mem_calloc(n->nvalues + 1, 1); /* new values taken as renames */
  value_index ox, nx;
  rename_pool pool;
  memset(&pool, 0, sizeof pool);
  int failed = (paired == NULL) | value_index_init(&ox, o) | value_index_init(&nx, n);
  if (!failed) {
    value_index_kept(&ox, &nx);
    value_index_kept(&nx, &ox);
    failed = rename_pool_init(&pool, &nx, &ox);
  }
  if (failed) {
    c->oom = 1;
  } else {
    compare_values(c, label, o, n, &ox, &nx, &pool, paired);
  }
  rename_pool_free(&pool);
  value_index_free(&ox);
  value_index_free(&nx);
  fbei_mem_free(paired);
}

/* Compares two enum/flags types once; label names the new one in paths. */
static void compare_enums(cmp *c, const fbe_enum *o, const fbe_enum *n) {
  if (seen(c, o, n)) return;
  const char *label = enum_label(n, c->nroot);
  text a, b;
  text_reset(&a), text_reset(&b);
  put_enum_decl(&a, o, c->oroot);
  put_enum_decl(&b, n, c->nroot);
  if (o->is_flags != n->is_flags)
    emit(c, FBE_COMPAT_ENUM_KIND_CHANGED, SAFE, COMPAT, 1, label, a.s, b.s,
         "same bytes; combinations of values are read differently");
  if (o->base != n->base) {
    if (wire_class(o->base) == wire_class(n->base))
      emit(c, FBE_COMPAT_ENUM_BASE_CHANGED, SAFE, COMPAT, 0, label, a.s, b.s, "same bytes");
    else
      emit(c, FBE_COMPAT_ENUM_BASE_CHANGED, BOTH, INCOMPAT, 0, label, a.s, b.s,
           "values have another size or signedness on the wire");
  }
  compare_enum_values(c, label, o, n);
}

/* ------------------------------------------------------------------ field types */

/* What a wire-equal type change consists of, collected while walking both types. */
typedef struct tnotes {
  int collection;    /* vector/list/set or map/hash kinds differ */
  int set_changed;   /* a set on one side only: duplicates collapse there */
  int neutral;       /* other same-bytes change: byte <-> uint8, enum <-> integer, ... */
  size_t nenums, nstructs;
  const fbe_enum *eo[4], *en[4];   /* enum/flags pairs met (key and value of a map) */
  const fbe_struct *so[4], *sn[4]; /* same-named struct pairs met */
} tnotes;

static int is_seq(fbe_kind k) {
  return k == FBE_KIND_VECTOR || k == FBE_KIND_LIST || k == FBE_KIND_SET;
}
static int is_map(fbe_kind k) { return k == FBE_KIND_MAP || k == FBE_KIND_HASH; }
static int is_enumish(fbe_kind k) { return k == FBE_KIND_ENUM || k == FBE_KIND_FLAGS; }

/* 1 when both types put the same bytes on the wire (standard and final model) for the
 * same values. Structs are equal by name: their own changes are listed apart. */
static int same_wire(const fbe_type *a, const fbe_type *b, tnotes *tn) {
  fbe_kind ka = a->kind, kb = b->kind;
  if (ka == FBE_KIND_OPTIONAL || kb == FBE_KIND_OPTIONAL)
    return ka == kb && same_wire(a->elem, b->elem, tn);
  if (ka == FBE_KIND_ARRAY || kb == FBE_KIND_ARRAY)
    return ka == kb && a->array_size == b->array_size && same_wire(a->elem, b->elem, tn);
  if (is_seq(ka) || is_seq(kb)) {
    if (!is_seq(ka) || !is_seq(kb)) return 0;
    if (ka != kb) tn->collection = 1;
    if ((ka == FBE_KIND_SET) != (kb == FBE_KIND_SET)) tn->set_changed = 1;
    return same_wire(a->elem, b->elem, tn);
  }
  if (is_map(ka) || is_map(kb)) {
    if (!is_map(ka) || !is_map(kb)) return 0;
    if (ka != kb) tn->collection = 1;
    return same_wire(a->key, b->key, tn) && same_wire(a->elem, b->elem, tn);
  }
  if (ka == FBE_KIND_STRUCT || kb == FBE_KIND_STRUCT) {
    if (ka != kb || strcmp(a->st->name, b->st->name)) return 0;
    if (tn->nstructs < 4) {
      tn->so[tn->nstructs] = a->st;
      tn->sn[tn->nstructs++] = b->st;
    }
    return 1;
  }
  fbe_kind ca = wire_class(is_enumish(ka) ? a->enm->base : ka);
  fbe_kind cb = wire_class(is_enumish(kb) ? b->enm->base : kb);
  if (ca != cb) return 0;
  if (is_enumish(ka) && is_enumish(kb)) {
    if (tn->nenums < 4) {
      tn->eo[tn->nenums] = a->enm;
      tn->en[tn->nenums++] = b->enm;
    }
  } else if (ka != kb) {
    tn->neutral = 1;
  }
  return 1;
}

static void compare_structs(cmp *c, const fbe_struct *o, const fbe_struct *n);

/* The changes inside a wire-equal field type, and the types it refers to. */
static void type_notes(cmp *c, const char *path, const fbe_field *of, const fbe_field *nf,
                       const tnotes *tn) {
  text a, b, note;
  text_reset(&a), text_reset(&b);
  put_type(&a, of->type, c->oroot);
  put_type(&b, nf->type, c->nroot);
  if (tn->collection) /* set_changed implies collection */
    emit(c, FBE_COMPAT_FIELD_COLLECTION_CHANGED, SAFE, COMPAT, tn->set_changed, path, a.s, b.s,
         tn->set_changed ? "same bytes; on the set side duplicate elements collapse"
                         : "same bytes on the wire");
  if (tn->neutral)
    emit(c, FBE_COMPAT_FIELD_TYPE_NEUTRAL, SAFE, COMPAT, 1, path, a.s, b.s,
         "same bytes, but the values may be understood differently, and JSON may differ");
  for (size_t i = 0; i < tn->nenums; i++) {
    const fbe_enum *eo = tn->eo[i], *en = tn->en[i];
    if (strcmp(eo->name, en->name)) {
      text_reset(&a), text_reset(&b), text_reset(&note);
      put_enum_decl(&a, eo, c->oroot);
      put_enum_decl(&b, en, c->nroot);
      put(&note, "same size; the values are compared under %s", enum_label(en, c->nroot));
      emit(c, FBE_COMPAT_FIELD_ENUM_REPLACED, SAFE, COMPAT, 0, path, a.s, b.s, note.s);
    }
    compare_enums(c, eo, en);
  }
  for (size_t i = 0; i < tn->nstructs; i++)
    if (!is_root_pair(c, tn->so[i], tn->sn[i])) compare_structs(c, tn->so[i], tn->sn[i]);
}

/* Changes of a field that keeps its slot meaning: default and [key]. */
static void field_extras(cmp *c, const char *path, const fbe_field *of, const fbe_field *nf,
                         int same_type) {
  if (same_type) {
    fbei_default da = effective_default(of), db = effective_default(nf);
    if (!default_equal(&da, &db)) {
      text a, b;
      text_reset(&a), text_reset(&b);
      put_default(&a, &da, of->type);
      put_default(&b, &db, nf->type);
      emit(c, FBE_COMPAT_FIELD_DEFAULT_CHANGED, SAFE, COMPAT, 1, path, a.s, b.s,
           nf->type->kind == FBE_KIND_OPTIONAL
               ? "readers fill a missing field or a null value with their own default"
               : "readers fill a field missing from older data with their own default");
    }
  }
  if (of->is_key != nf->is_key)
    emit(c, FBE_COMPAT_FIELD_KEY_CHANGED, SAFE, COMPAT, 1, path, of->is_key ? "[key]" : "not a key",
         nf->is_key ? "[key]" : "not a key",
         "equality, order and set/map identity of the struct change; no wire effect");
}

/* ------------------------------------------------------------------ fields */

typedef struct fmap {
  int32_t *o2n, *n2o;   /* matched field index on the other side, -1 when none */
  unsigned char *renamed; /* per old field */
  unsigned char *reordered; /* per old field: its order among the common fields changed */
} fmap;

static void field_removed(cmp *c, const char *label, const fbe_struct *n, const fbe_field *f) {
  char path[256];
  text a;
  text_reset(&a);
  snprintf(path, sizeof path, "%s.%s", label, f->name);
  put_field(&a, f, c->oroot);
  int beyond = f->wire_offset + f->type->wire_size > n->body_size;
  emit(c, FBE_COMPAT_FIELD_REMOVED, OLD, INCOMPAT, 0, path, a.s, "",
       beyond ? "old readers get its default instead of a value"
              : "old readers read other new data in its slot");
}

/* Marks each common field pair (i, j) whose order changed relative to another common
 * field: some common k has k < i on one side only. With A = common old fields before i,
 * B = common fields before j in the new order and C = those before i and j on both,
 * the order is kept exactly when A = B = C. C comes from a Fenwick tree over the new
 * indexes of the old fields seen so far: O(F log F), not F^2. */
static int mark_reordered(fmap *m, const fbe_struct *o, const fbe_struct *n) {
  size_t nn = n->nfields;
  uint32_t *tree = fbei_mem_calloc(nn + 1, sizeof *tree);   /* 1-based */
  uint32_t *before = fbei_mem_alloc((nn + 1) * sizeof *before); /* common new fields before j */
  if (!tree || !before) {
    fbei_mem_free(tree);
    fbei_mem_free(before);
    return -1;
  }
  for (uint32_t j = 0, common = 0; j <= nn; j++) {
    before[j] = common;
    if (j < nn && m->n2o[j] >= 0) common++;
  }
  uint32_t seen_common = 0;
  for (uint32_t i = 0; i < o->nfields; i++) {
    int32_t j = m->o2n[i];
    if (j < 0) continue;
    uint32_t both = 0;
    for (uint32_t x = (uint32_t)j; x > 0; x -= x & (0u - x)) both += tree[x];
    m->reordered[i] = !(seen_common == both && before[j] == both);
    for (uint32_t x = (uint32_t)j + 1; x <= nn; x += x & (0u - x)) tree[x]++;
    seen_common++;
  }
  fbei_mem_free(tree);
  fbei_mem_free(before);
  return 0;
}

static void field_added(cmp *c, const char *label, const fbe_struct *o, const fbe_struct *n,
                        const fbe_field *g) {
  char path[256];
  text b, note;
  text_reset(&b), text_reset(&note);
  snprintf(path, sizeof path, "%s.%s", label, g->name);
  put_field(&b, g, c->nroot);
  if (g->wire_offset + g->type->wire_size > o->body_size) {
    emit(c, FBE_COMPAT_FIELD_APPENDED, SAFE, INCOMPAT, 0, path, "", b.s,
         "old readers skip it; new readers get its default from old data");
  } else if (g->declared_in != n) {
    put(&note, "added to %s: new readers read other old data in its slot, "
               "and the fields after it move", struct_label(g->declared_in, c->nroot));
    emit(c, FBE_COMPAT_BASE_FIELD_INSERTED, NEW, INCOMPAT, 0, path, "", b.s, note.s);
  } else {
    emit(c, FBE_COMPAT_FIELD_INSERTED, NEW, INCOMPAT, 0, path, "", b.s,
         "new readers read other old data in its slot");
  }
}

static void field_common(cmp *c, const char *label, const fmap *m, const fbe_field *f,
                         const fbe_field *g) {
  char path[256];
  text a, b;
  snprintf(path, sizeof path, "%s.%s", label, g->name);
  tnotes tn;
  memset(&tn, 0, sizeof tn);
  int eq = same_wire(f->type, g->type, &tn);
  if (m->renamed[f->index]) {
    text note;
    text_reset(&a), text_reset(&b), text_reset(&note);
    put_field(&a, f, c->oroot);
    put_field(&b, g, c->nroot);
    put(&note, "same slot and type: new readers read old %s values as %s; JSON uses the names",
        f->name, g->name);
    emit(c, FBE_COMPAT_FIELD_RENAMED, SAFE, COMPAT, 1, path, a.s, b.s, note.s);
  }
  if (!eq) {
    text_reset(&a), text_reset(&b);
    put_type(&a, f->type, c->oroot);
    put_type(&b, g->type, c->nroot);
    if (!strcmp(a.s, b.s) && is_enumish(f->type->kind) && is_enumish(g->type->kind)) {
      put(&a, " : %s", fbe_kind_name(f->type->enm->base)); /* same name, other base */
      put(&b, " : %s", fbe_kind_name(g->type->enm->base));
    }
    int opt = (f->type->kind == FBE_KIND_OPTIONAL) != (g->type->kind == FBE_KIND_OPTIONAL);
    emit(c, FBE_COMPAT_FIELD_RETYPED, BOTH, INCOMPAT, 0, path, a.s, b.s,
         opt ? "T and T? differ on the wire: each side misreads the other's slot"
             : "other bytes in the slot: each side misreads the other's");
  }
  if (f->wire_offset != g->wire_offset) {
    text_reset(&a), text_reset(&b);
    put(&a, "offset %" PRIu32, f->wire_offset);
    put(&b, "offset %" PRIu32, g->wire_offset);
    if (m->reordered[f->index])
      emit(c, FBE_COMPAT_FIELD_REORDERED, BOTH, INCOMPAT, 0, path, a.s, b.s,
           "its order among the fields changed: each side reads it from the wrong slot");
    else
      emit(c, FBE_COMPAT_FIELD_SHIFTED, BOTH, INCOMPAT, 0, path, a.s, b.s,
           "moved by a change before it: each side reads it from the wrong slot");
  }
  if (eq) type_notes(c, path, f, g, &tn);
  field_extras(c, path, f, g, eq);
}

/* The field of st whose slot starts at offset, or -1 (fields are in slot order). */
static int64_t field_at_offset(const fbe_struct *st, uint32_t offset) {
  uint32_t lo = 0, hi = st->nfields;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (st->fields[mid].wire_offset < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < st->nfields && st->fields[lo].wire_offset == offset ? (int64_t)lo : -1;
}

/* Matches fields by name, then an unmatched old field to an unmatched new one in the
 * same slot with the same bytes (a rename: the wire cannot tell it from one). */
static int match_fields(fmap *m, const fbe_struct *o, const fbe_struct *n) {
  size_t no = o->nfields, nn = n->nfields;
  m->o2n = fbei_mem_alloc((no + nn + 1) * sizeof *m->o2n);
  m->renamed = fbei_mem_calloc(2 * no + 1, 1);
  if (!m->o2n || !m->renamed) return -1;
  m->reordered = m->renamed + no;
  m->n2o = m->o2n + no;
  for (size_t i = 0; i < no + nn; i++) m->o2n[i] = -1;
  for (size_t i = 0; i < no; i++) {
    const fbe_field *g = fbe_struct_field(n, o->fields[i].name);
    if (!g) continue;
    m->o2n[i] = (int32_t)g->index;
    m->n2o[g->index] = (int32_t)i;
  }
  for (size_t i = 0; i < no; i++) {
    if (m->o2n[i] >= 0) continue;
    int64_t j = field_at_offset(n, o->fields[i].wire_offset); /* slots are distinct */
    tnotes scratch;
    memset(&scratch, 0, sizeof scratch);
    if (j < 0 || m->n2o[j] >= 0 || !same_wire(o->fields[i].type, n->fields[j].type, &scratch))
      continue;
    m->o2n[i] = (int32_t)j;
    m->n2o[j] = (int32_t)i;
    m->renamed[i] = 1;
  }
  return mark_reordered(m, o, n);
}

/* Walks the new fields in order, listing each removed old field where it stood. */
static void compare_fields(cmp *c, const char *label, const fbe_struct *o, const fbe_struct *n) {
  fmap m = {NULL, NULL, NULL, NULL};
  if (match_fields(&m, o, n)) {
    c->oom = 1;
  } else {
    uint32_t k = 0; /* next old field that may need a "removed" line */
    for (uint32_t j = 0; j < n->nfields; j++) {
      int32_t i = m.n2o[j];
      if (i < 0) {
        field_added(c, label, o, n, &n->fields[j]);
        continue;
      }
      for (; k < (uint32_t)i; k++)
        if (m.o2n[k] < 0) field_removed(c, label, n, &o->fields[k]);
      field_common(c, label, &m, &o->fields[i], &n->fields[j]);
    }
    for (; k < o->nfields; k++)
      if (m.o2n[k] < 0) field_removed(c, label, n, &o->fields[k]);
  }
  fbei_mem_free(m.o2n);
  fbei_mem_free(m.renamed);
}

/* ------------------------------------------------------------------ structs */

/* What the other side's receiver does with frames of id (FORMAT.md 9.3-9.4): SAFE when
 * it takes them as a message of that name, or skips them and `skip_ok` (a message that
 * side never knew); else the breaking bit. The words go to note. */
static fbe_compat_effect dispatch(text *note, const char *who, const fbei_protocol_index *rx_proto,
                                  uint32_t id, const char *name, fbe_compat_effect bit,
                                  int skip_ok) {
  const fbe_struct *rx = fbei_protocol_index_find(rx_proto, id);
  if (note->n) put(note, "; ");
  if (!rx) {
    put(note, "%s receivers skip id %" PRIu32, who, id);
    return skip_ok ? SAFE : bit;
  }
  if (strcmp(rx->name, name)) {
    put(note, "%s receivers take id %" PRIu32 " for %s", who, id, rx->full_name);
    return bit;
  }
  put(note, "%s receivers still take id %" PRIu32 " as %s", who, id, rx->full_name);
  return SAFE;
}

static void message_added(cmp *c, fbe_compat_kind kind, const char *label, const fbe_struct *n) {
  text b, note;
  text_reset(&b), text_reset(&note);
  put(&b, "message %s (id %" PRIu32 ")", label, n->type_id);
  fbe_compat_effect e = dispatch(&note, "old", &c->oproto, n->type_id, n->name, OLD, 1);
  const char *was = kind == FBE_COMPAT_MESSAGE_ADDED ? "" : "struct";
  emit(c, kind, e, e ? INCOMPAT : COMPAT, 0, label, was, b.s, note.s);
}

static void message_removed(cmp *c, fbe_compat_kind kind, const char *label,
                            const fbe_struct *o) {
  text a, note;
  text_reset(&a), text_reset(&note);
  put(&a, "message %s (id %" PRIu32 ")", struct_label(o, c->oroot), o->type_id);
  fbe_compat_effect e = dispatch(&note, "new", &c->nproto, o->type_id, o->name, NEW, 0);
  emit(c, kind, e, e ? INCOMPAT : COMPAT, 0, label, a.s,
       kind == FBE_COMPAT_MESSAGE_REMOVED ? "" : "struct", note.s);
}

static void message_id_changed(cmp *c, const char *label, const fbe_struct *o,
                               const fbe_struct *n) {
  text a, b, note;
  text_reset(&a), text_reset(&b), text_reset(&note);
  put(&a, "id %" PRIu32, o->type_id);
  put(&b, "id %" PRIu32, n->type_id);
  fbe_compat_effect e = dispatch(&note, "old", &c->oproto, n->type_id, n->name, OLD, 0);
  e |= dispatch(&note, "new", &c->nproto, o->type_id, o->name, NEW, 0);
  emit(c, FBE_COMPAT_MESSAGE_ID_CHANGED, e, e ? INCOMPAT : COMPAT, 0, label, a.s, b.s, note.s);
  /* New receivers that still take the old id (through an import) read it as that type:
   * compare it with the old message too. */
  const fbe_struct *rx = fbei_protocol_index_find(&c->nproto, o->type_id);
  if (rx && rx != n && !strcmp(rx->name, o->name)) compare_structs(c, o, rx);
}

static void struct_id_changed(cmp *c, const char *label, const fbe_struct *o,
                              const fbe_struct *n) {
  text a, b;
  text_reset(&a), text_reset(&b);
  put(&a, "id %" PRIu32, o->type_id);
  put(&b, "id %" PRIu32, n->type_id);
  emit(c, FBE_COMPAT_STRUCT_ID_CHANGED, BOTH, INCOMPAT, 0, label, a.s, b.s,
       "verify checks the type id of every body: each side rejects the other's data");
}

static void base_changed(cmp *c, const char *label, const fbe_struct *o, const fbe_struct *n) {
  const fbe_struct *ob = o->base, *nb = n->base;
  if (!ob && !nb) return;
  if (ob && nb && !strcmp(ob->name, nb->name)) return;
  text a, b, note;
  text_reset(&a), text_reset(&b), text_reset(&note);
  if (ob) put(&a, "base %s", struct_label(ob, c->oroot)); else put(&a, "no base");
  if (nb) put(&b, "base %s", struct_label(nb, c->nroot)); else put(&b, "no base");
  if (nb && nb->type_id == n->type_id)
    put(&note, "keeps its base's type id %" PRIu32 " by (base) numbering, so old readers "
               "read it as the base type; the flattened fields are compared below", n->type_id);
  else
    put(&note, "no effect by itself: the flattened fields and the type id are compared");
  emit(c, FBE_COMPAT_BASE_CHANGED, SAFE, COMPAT, 0, label, a.s, b.s, note.s);
}

/* Compares two structs once: protocol role and id, base, then the flattened fields. */
static void compare_structs(cmp *c, const fbe_struct *o, const fbe_struct *n) {
  if (seen(c, o, n)) return;
  const char *label = struct_label(n, c->nroot);
  if (o->is_message && n->is_message) {
    if (o->type_id != n->type_id) message_id_changed(c, label, o, n);
  } else {
    if (n->is_message) message_added(c, FBE_COMPAT_STRUCT_MADE_MESSAGE, label, n);
    if (o->is_message) message_removed(c, FBE_COMPAT_MESSAGE_MADE_STRUCT, label, o);
    if (o->type_id != n->type_id) struct_id_changed(c, label, o, n);
  }
  base_changed(c, label, o, n);
  compare_fields(c, label, o, n);
}

/* ------------------------------------------------------------------ packages */

static void compare_packages(cmp *c) {
  const fbe_package *op = c->oroot, *np = c->nroot;
  text a, b;
  if (strcmp(op->name, np->name))
    emit(c, FBE_COMPAT_PACKAGE_RENAMED, SAFE, COMPAT, 0, "package", op->name, np->name,
         "no wire effect; types are matched by name");
  if (op->offset != np->offset) {
    text_reset(&a), text_reset(&b);
    put(&a, "offset %" PRIu32, op->offset);
    put(&b, "offset %" PRIu32, np->offset);
    emit(c, FBE_COMPAT_PACKAGE_OFFSET_CHANGED, SAFE, COMPAT, 0, "package", a.s, b.s,
         "changes automatic type ids: the changed ids are listed per struct");
  }
  for (uint32_t i = 0; i < op->nenums; i++) {
    const fbe_enum *oe = op->enums[i], *ne = pkg_enum(&c->nnames, np, oe->name);
    if (ne) {
      compare_enums(c, oe, ne);
      continue;
    }
    text_reset(&a);
    put_enum_decl(&a, oe, op);
    emit(c, FBE_COMPAT_ENUM_REMOVED, SAFE, COMPAT, 0, oe->name, a.s, "",
         "no wire effect by itself: fields that used it are listed");
  }
  for (uint32_t i = 0; i < np->nenums; i++) {
    const fbe_enum *ne = np->enums[i];
    if (pkg_enum(&c->onames, op, ne->name)) continue;
    text_reset(&b);
    put_enum_decl(&b, ne, np);
    emit(c, FBE_COMPAT_ENUM_ADDED, SAFE, COMPAT, 0, ne->name, "", b.s, "no effect on old data");
  }
  for (uint32_t i = 0; i < op->nstructs; i++) {
    const fbe_struct *os = op->structs[i], *ns = pkg_struct(&c->nnames, np, os->name);
    if (ns) {
      compare_structs(c, os, ns);
    } else if (os->is_message) {
      message_removed(c, FBE_COMPAT_MESSAGE_REMOVED, os->name, os);
    } else {
      text_reset(&a);
      put(&a, "struct %s (id %" PRIu32 ")", os->name, os->type_id);
      emit(c, FBE_COMPAT_STRUCT_REMOVED, SAFE, COMPAT, 0, os->name, a.s, "",
           "no wire effect by itself: fields that used it are listed");
    }
  }
  for (uint32_t i = 0; i < np->nstructs; i++) {
    const fbe_struct *ns = np->structs[i];
    if (pkg_struct(&c->onames, op, ns->name)) continue;
    if (ns->is_message) {
      message_added(c, FBE_COMPAT_MESSAGE_ADDED, ns->name, ns);
    } else {
      text_reset(&b);
      put(&b, "struct %s (id %" PRIu32 ")", ns->name, ns->type_id);
      emit(c, FBE_COMPAT_STRUCT_ADDED, SAFE, COMPAT, 0, ns->name, "", b.s, "no effect on old data");
    }
  }
}

fbe_status fbe_compat_compare(const fbe_schema *old_schema, const fbe_schema *new_schema,
                              fbe_compat_report *report, fbe_error *err) {
  if (!report) return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "no report");
  memset(report, 0, sizeof *report);
  if (!old_schema || !new_schema)
    return fbei_error_set(err, FBE_ERR_ARGUMENT, FBE_NO_OFFSET, "a schema is missing");
  cmp c;
  memset(&c, 0, sizeof c);
  c.olds = old_schema;
  c.news = new_schema;
  c.oroot = old_schema->root;
  c.nroot = new_schema->root;
  c.rep = report;
  if (names_init(&c.onames, c.oroot) || names_init(&c.nnames, c.nroot) ||
      fbei_protocol_index_init(&c.oproto, old_schema, NULL) ||
      fbei_protocol_index_init(&c.nproto, new_schema, NULL))
    c.oom = 1;
  else
    compare_packages(&c);
  names_free(&c.onames);
  names_free(&c.nnames);
  fbei_protocol_index_free(&c.oproto);
  fbei_protocol_index_free(&c.nproto);
  fbei_index_table_free(&c.done_index);
  fbei_mem_free(c.done);
  if (c.oom) {
    fbe_compat_report_free(report);
    return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory comparing schemas");
  }
  unsigned standard = SAFE;
  for (size_t i = 0; i < report->count; i++) {
    const fbe_compat_change *ch = &report->changes[i];
    standard |= (unsigned)ch->standard;
    if (ch->final == INCOMPAT) report->final = INCOMPAT;
    if (ch->standard != SAFE) report->breaking++;
    if (ch->warning) report->warnings++;
  }
  report->standard = (fbe_compat_effect)standard;
  return FBE_OK;
}

void fbe_compat_report_free(fbe_compat_report *report) {
  if (!report) return;
  for (size_t i = 0; i < report->count; i++) fbei_mem_free((void *)report->changes[i].path);
  fbei_mem_free(report->changes);
  memset(report, 0, sizeof *report);
}

/* ------------------------------------------------------------------ names */

const char *fbe_compat_kind_text(fbe_compat_kind kind) {
  switch (kind) {
#define FBE_COMPAT_TEXT_(name, text) case name: return text;
    FBE_COMPAT_KIND_LIST(FBE_COMPAT_TEXT_)
#undef FBE_COMPAT_TEXT_
    default: return "unknown change";
  }
}

const char *fbe_compat_kind_name(fbe_compat_kind kind) {
  switch (kind) {
#define FBE_COMPAT_NAME_(name, text) case name: return #name;
    FBE_COMPAT_KIND_LIST(FBE_COMPAT_NAME_)
#undef FBE_COMPAT_NAME_
    default: return "FBE_COMPAT_UNKNOWN";
  }
}

const char *fbe_compat_effect_text(fbe_compat_effect effect) {
  switch (effect) {
    case FBE_COMPAT_SAFE: return "safe";
    case FBE_COMPAT_BREAKS_OLD_READERS: return "breaks old readers";
    case FBE_COMPAT_BREAKS_NEW_READERS: return "breaks new readers";
    case FBE_COMPAT_BREAKS_BOTH: return "breaks old and new readers";
  }
  return "unknown";
}

const char *fbe_compat_final_text(fbe_compat_final final) {
  return final == FBE_COMPAT_FINAL_COMPATIBLE ? "compatible" : "incompatible";
}

void fbe_compat_change_format(const fbe_compat_change *ch, char *out, size_t out_size) {
  if (!out || !out_size) return;
  if (!ch) {
    out[0] = '\0';
    return;
  }
  const char *o = ch->old_text, *n = ch->new_text, *note = ch->note;
  const char *arrow = *o && *n ? " \xE2\x86\x92 " : ""; /* U+2192 */
  /* U+2014 before the verdicts */
  snprintf(out, out_size, "%s: %s%s%s%s%s%s%s%s \xE2\x80\x94 standard: %s%s, final: %s",
           ch->path, fbe_compat_kind_text(ch->kind), *o || *n ? ": " : "", o, arrow, n,
           *note ? " (" : "", note, *note ? ")" : "", fbe_compat_effect_text(ch->standard),
           ch->warning ? " (warning)" : "", fbe_compat_final_text(ch->final));
}

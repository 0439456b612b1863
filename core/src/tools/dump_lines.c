/* The text of a dump's records (dump_lines.h, fbe/dump.h): paths, the keys of the
 * blocks pointers lead to, and the lines, written in offset order. */
#include "tools/dump_lines.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/dump_text.h"
#include "fbe/internal/endian.h"
#include "fbe/internal/error.h"
#include "fbe/internal/value.h"

/* ------------------------------------------------------------ paths */

void fbei_dump_tail_put(path_tail *t, const char *s, size_t n) {
  if (t->cut) return;
  if (n > t->pos) {
    memcpy(t->buf, s + n - t->pos, t->pos);
    t->pos = 0;
    t->cut = 1;
    return;
  }
  t->pos -= n;
  memcpy(t->buf + t->pos, s, n);
}

void fbei_dump_step_put(path_tail *t, const fbe_type *in, uint8_t step, uint32_t arg, int in_root) {
  char part[32];
  int n = 0;
  switch (step) {
    case S_FIELD: {
      const char *name = in->st->fields[arg].name;
      fbei_dump_tail_put(t, name, strlen(name));
      if (!in_root) fbei_dump_tail_put(t, ".", 1);
      return;
    }
    case S_INDEX: n = snprintf(part, sizeof part, "[%u]", (unsigned)arg); break;
    case S_KEY: n = snprintf(part, sizeof part, "[%u].key", (unsigned)arg); break;
    case S_VALUE: n = snprintf(part, sizeof part, "[%u].value", (unsigned)arg); break;
    default: return;
  }
  fbei_dump_tail_put(t, part, (size_t)n);
}

/* ------------------------------------------------------------ blocks */

/* Whether values of t hold pointers (whose targets depend on the base). */
static int holds_pointers(const fbe_type *t) {
  switch (t->wire) {
    case FBE_KIND_STRING: case FBE_KIND_BYTES: case FBE_KIND_STRUCT: case FBE_KIND_OPTIONAL:
    case FBE_KIND_VECTOR: case FBE_KIND_MAP:
      return 1;
    case FBE_KIND_ARRAY: return holds_pointers(t->elem);
    default: return 0;
  }
}

block_key fbei_dump_key_of(const uint8_t *p, uint8_t kind, const fbe_type *t, uint64_t slot,
                          uint64_t base) {
  block_key k = {(uint32_t)(base + fbe_load32(p + slot)), 0, t, B_SLOT};
  kind &= (uint8_t)~K_SHARED;
  if (kind != K_POINTER) t = t->elem;
  if (kind == K_POINTER_TO_SLOT) k.reader = t; /* the value slot, read as t */
  else if (t->wire == FBE_KIND_STRUCT) k.kind = B_BODY, k.reader = t->st;
  else if (t->wire == FBE_KIND_STRING) k.kind = B_STRING, k.reader = NULL;
  else if (t->wire == FBE_KIND_BYTES) k.kind = B_BYTES, k.reader = NULL;
  else {
    k.kind = B_SEQUENCE, k.reader = t;
    if (holds_pointers(t->elem) || (t->key && holds_pointers(t->key))) k.base = (uint32_t)base;
  }
  return k;
}


const fbe_type *fbei_dump_step_type(const fbe_type *in, uint8_t step, uint32_t arg) {
  switch (step) {
    case S_FIELD: return in->st->fields[arg].type;
    case S_INDEX: case S_VALUE: return in->elem;
    case S_KEY: return in->key;
    default: return in;
  }
}

uint64_t fbei_dump_key_hash(uint32_t off, uint32_t base, uint8_t kind) {
  return fbei_hash_words(fbei_hash_words(off, base), kind);
}

static int key_match(const void *items, uint32_t i, const void *key) {
  const seen *a = (const seen *)items + i;
  const block_key *b = key;
  if (a->off != b->off || a->base != b->base || a->kind != b->kind) return 0;
  if (a->kind == B_SLOT || a->kind == B_SEQUENCE) return fbei_type_same(a->reader, b->reader);
  return a->reader == b->reader;
}

int64_t fbei_dump_seen_find(const dumper *d, const block_key *k) {
  if (!d->seen_index.slots) return -1;
  uint64_t hash = fbei_dump_key_hash(k->off, k->base, k->kind);
  return fbei_index_table_find(&d->seen_index, hash, key_match, d->seen, k);
}

/* ------------------------------------------------------------ printing */

static int by_offset(const void *a, const void *b) {
  const range *x = a, *y = b;
  if (x->off != y->off) return x->off < y->off ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq; /* walk order */
}

#define TEXT_CAP 4096u /* characters of a line's text: only absurdly long names are cut */

typedef struct printer {
  const dumper *d;
  fbe_dump_write_fn write;
  void *ctx;
  int ow, lw; /* widths of the offset and length columns */
  int failed;
  size_t n;   /* characters in line */
  char line[TEXT_CAP + 256]; /* the text, then the line's end and its continuation line */
} printer;

static void put(printer *pr, const char *s, size_t n) {
  size_t room = sizeof pr->line - pr->n;
  if (n > room) n = room;
  memcpy(pr->line + pr->n, s, n);
  pr->n += n;
}

/* Ends the text part of a line (what follows it always fits). */
static void end_text(printer *pr) {
  if (pr->n > TEXT_CAP) pr->n = TEXT_CAP;
}

FBE_PRINTF(2, 3)
static void putf(printer *pr, const char *fmt, ...) {
  char text[TEXT_CAP];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (n > 0) put(pr, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

/* Hands the line(s) made so far to the writer. */
static void flush(printer *pr) {
  if (!pr->failed && pr->n && pr->write(pr->ctx, pr->line, pr->n)) pr->failed = 1;
  pr->n = 0;
}

/* The label of a line about step (step, arg) from container `id`: its path, cut to
 * its last PATH_SHOWN characters after "...", or the root struct's name when empty. */
static void put_label(printer *pr, uint32_t id, uint8_t step, uint32_t arg) {
  const dumper *d = pr->d;
  char buf[PATH_SHOWN];
  path_tail t = {buf, sizeof buf, sizeof buf, 0};
  for (;;) {
    const node *n = &d->nodes[id];
    fbei_dump_step_put(&t, n->type, step, arg, id == 0);
    if (id == 0 || t.cut) break;
    step = n->step;
    arg = n->arg;
    id = n->parent;
  }
  if (t.pos == t.cap && !t.cut) { /* the root struct's own line */
    t.pos = t.cap;
    fbei_dump_tail_put(&t, d->type->full_name, strlen(d->type->full_name));
  }
  if (t.cut) put(pr, "...", 3);
  put(pr, buf + t.pos, t.cap - t.pos);
}

#define HEX(pr, v) (pr)->ow, (unsigned long long)(v)

/* "pointer 30 -> 0x0026 (base 0x0008)" and its variants. */
static void pointer_text(printer *pr, const range *r, const fbe_type *t) {
  const dumper *d = pr->d;
  uint8_t kind = r->kind & (uint8_t)~K_SHARED;
  uint32_t ptr = fbe_load32(d->p + r->off);
  uint64_t base = kind == K_POINTER_IN_SLOT ? r->off : d->nodes[r->node].base;
  putf(pr, "pointer %u -> %s0x%0*llx (base 0x%0*llx%s", ptr,
       kind == K_POINTER_TO_SLOT ? "value slot " : "", HEX(pr, base + ptr), HEX(pr, base),
       kind == K_POINTER_IN_SLOT ? ": the value slot" : "");
  if (r->kind & K_SHARED) {
    block_key k = fbei_dump_key_of(d->p, kind, t, r->off, base);
    int64_t s = fbei_dump_seen_find(d, &k);
    put(pr, ", shared with ", 14);
    if (s >= 0) put_label(pr, d->seen[s].node, d->seen[s].step, d->seen[s].arg);
  }
  put(pr, ")", 1);
}

/* The text of a line: "PATH: meaning" or "PATH = value" (or "model: ..."). */
static void line_text(printer *pr, const range *r) {
  const dumper *d = pr->d;
  const uint8_t *s = d->p + r->off;
  const fbe_struct *root = d->type;
  char text[FBE_DUMP_TEXT_MAX];
  switch (r->kind) {
    case K_MODEL_SIZE: putf(pr, "model: size %u", fbe_load32(s)); return;
    case K_MODEL_SIZE_SHORT:
      putf(pr, "model: size %u (only %llu bytes are here)", fbe_load32(s),
           (unsigned long long)d->size);
      return;
    case K_MODEL_TYPE_ID:
      putf(pr, "model: type id %u (%s)", fbe_load32(s), root->full_name);
      return;
    case K_ROOT_POINTER:
      putf(pr, "model: root pointer %u -> 0x%0*llx (base 0x%0*llx)", fbe_load32(s),
           HEX(pr, fbe_load32(s)), HEX(pr, 0));
      return;
    default: break;
  }
  const fbe_type *in = d->nodes[r->node].type, *t = fbei_dump_step_type(in, r->step, r->arg);
  const fbe_type *value = t->wire == FBE_KIND_OPTIONAL ? t->elem : t; /* what it holds */
  put_label(pr, r->node, r->step, r->arg);
  if (r->kind == K_SCALAR || r->kind == K_DATA) {
    if (r->kind == K_SCALAR) fbei_dump_scalar(value, s, text, sizeof text);
    else if (value->wire == FBE_KIND_STRING) fbei_dump_quote(s, r->len, text, sizeof text);
    else fbei_dump_hex(s, r->len, text, sizeof text);
    putf(pr, " = %s", text);
    return;
  }
  put(pr, ": ", 2);
  const fbe_struct *st = in->st;
  uint32_t u = r->len >= 4 ? fbe_load32(s) : 0;
  switch (r->kind & (uint8_t)~K_SHARED) {
    case K_POINTER: case K_POINTER_TO_SLOT: case K_POINTER_IN_SLOT: pointer_text(pr, r, t); return;
    case K_POINTER_0: putf(pr, "pointer 0"); return;
    case K_POINTER_0_EMPTY: putf(pr, "pointer 0 (empty)"); return;
    case K_POINTER_0_DEFAULT: putf(pr, "pointer 0 (no data: the default)"); return;
    case K_BODY_SIZE:
      if (u != st->body_size)
        putf(pr, "body size %u (%s: %u in the schema, %s writer)", u, st->full_name, st->body_size,
             u < st->body_size ? "older" : "newer");
      else if (r->node == 0) putf(pr, "body size %u", u);
      else putf(pr, "body size %u (%s)", u, st->full_name);
      return;
    case K_TYPE_ID: putf(pr, "type id %u", u); return;
    case K_NULL_FLAG: putf(pr, "null (flag 0)"); return;
    case K_NULL_POINTER: putf(pr, "pointer %u (%s: null)", u, u ? "ignored" : "unused"); return;
    case K_HAS_VALUE:
      if (s[0] == 1) putf(pr, "has value (flag 1)");
      else putf(pr, "has value (flag %u, not 1)", (unsigned)s[0]);
      return;
    case K_COUNT: putf(pr, "count %u", u); return;
    case K_LENGTH:
      putf(pr, "length %u%s", u, u ? "" : value->wire == FBE_KIND_STRING ? " (\"\")" : " (empty)");
      return;
    case K_NOT_READ:
      putf(pr, "%u bytes not read: too few for field '%s'", (unsigned)r->len,
           st->fields[r->arg].name);
      return;
    case K_AFTER_FIELDS:
      putf(pr, "%u bytes after the last known field (newer writer)", (unsigned)r->len);
      return;
    default: return;
  }
}

/* Up to 8 bytes from `at` as "xx xx ...", padded to 23 characters when pad is set. */
static void hex8(printer *pr, uint64_t at, uint64_t n, int pad) {
  char h[24];
  size_t k = 0;
  for (uint64_t i = 0; i < n && i < 8; i++)
    k += (size_t)snprintf(h + k, sizeof h - k, i ? " %02x" : "%02x", pr->d->p[at + i]);
  while (pad && k < 23) h[k++] = ' ';
  put(pr, h, k);
}

/* One range: its line (text from r, or `text` when r is NULL) and its continuation. */
static void line(printer *pr, uint64_t off, uint64_t len, const range *r, const char *text,
                 int overlaps) {
  putf(pr, "0x%0*llx  %*llu  ", pr->ow, (unsigned long long)off, pr->lw, (unsigned long long)len);
  hex8(pr, off, len, 1);
  put(pr, "  ", 2);
  if (r) line_text(pr, r);
  else put(pr, text, strlen(text));
  end_text(pr);
  if (overlaps) put(pr, "  (overlaps an earlier range)", 29);
  put(pr, "\n", 1);
  if (len > 8) {
    putf(pr, "%*s", pr->ow + pr->lw + 6, ""); /* continuation: bytes 8..15 */
    hex8(pr, off + 8, len - 8, len > 16);
    if (len > 16) putf(pr, "  ... (%llu more bytes)", (unsigned long long)(len - 16));
    put(pr, "\n", 1);
  }
  flush(pr);
}

/* Bytes [from, to) that no range covers, split at the model's end. */
static void gap(printer *pr, uint64_t from, uint64_t to, uint64_t model_end, int failed) {
  while (from < to) {
    int after = model_end && from >= model_end;
    uint64_t stop_at = !after && model_end && model_end < to ? model_end : to;
    const char *why = after    ? "(unreferenced: after the end of the model)"
                      : failed ? "(unreferenced: not reached before the error)"
                               : "(unreferenced)";
    line(pr, from, stop_at - from, NULL, why, 0);
    from = stop_at;
  }
}

static int digits(uint64_t v, unsigned radix) {
  int n = 1;
  while (v >= radix) v /= radix, n++;
  return n;
}

/* The bytes of one element of run r. */
static uint64_t run_step(const dumper *d, const range *r) {
  return d->nodes[r->node].type->elem->wire_size;
}

/* Where cursor c's next line starts. */
static uint64_t cursor_at(const dumper *d, const cursor *c) {
  const range *r = &d->ranges[c->i];
  return r->off + (uint64_t)c->j * run_step(d, r);
}

/* Whether a line at (off, seq) comes before one at (off2, seq2): offset, then walk order. */
static int before(uint64_t off, uint32_t seq, uint64_t off2, uint32_t seq2) {
  return off != off2 ? off < off2 : seq < seq2;
}

static int cursor_before(const dumper *d, const cursor *a, const cursor *b) {
  return before(cursor_at(d, a), d->ranges[a->i].seq, cursor_at(d, b), d->ranges[b->i].seq);
}

/* The runs being printed: a min-heap of cursors, the next line first (several only
 * when ranges overlap). */
typedef struct run_heap {
  cursor *c;
  size_t n;
} run_heap;

static void heap_down(const dumper *d, run_heap *h, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    if (l < h->n && cursor_before(d, &h->c[l], &h->c[m])) m = l;
    if (l + 1 < h->n && cursor_before(d, &h->c[l + 1], &h->c[m])) m = l + 1;
    if (m == i) return;
    cursor t = h->c[i];
    h->c[i] = h->c[m];
    h->c[m] = t;
    i = m;
  }
}

static void heap_push(const dumper *d, run_heap *h, cursor c) {
  size_t i = h->n++;
  h->c[i] = c;
  while (i && cursor_before(d, &h->c[i], &h->c[(i - 1) / 2])) {
    cursor t = h->c[i];
    h->c[i] = h->c[(i - 1) / 2];
    h->c[(i - 1) / 2] = t;
    i = (i - 1) / 2;
  }
}

/* Prints one range after the bytes no range covers before it. */
static void emit(printer *pr, const range *r, uint64_t *covered, uint64_t model_end, int rc) {
  if (r->off > *covered) gap(pr, *covered, r->off, model_end, rc != 0);
  line(pr, r->off, r->len, r, NULL, r->off < *covered);
  if ((uint64_t)r->off + r->len > *covered) *covered = (uint64_t)r->off + r->len;
}

int fbei_dump_print(dumper *d, uint64_t model_end, int failed, cursor *runs,
                   fbe_dump_write_fn write, void *ctx) {
  printer pr_;
  printer *pr = &pr_;
  pr->d = d;
  pr->write = write;
  pr->ctx = ctx;
  pr->ow = digits(d->size, 16) > 4 ? digits(d->size, 16) : 4;
  pr->lw = digits(d->size, 10) > 3 ? digits(d->size, 10) : 3;
  pr->failed = 0;
  pr->n = 0;
  int rc = failed;
  fbe_model model = d->model;
  range *r = d->ranges;
  size_t n = d->nranges, next = 0;
  if (n) qsort(r, n, sizeof *r, by_offset);
  putf(pr, "# %s, %s model, %llu bytes of input", d->type->full_name,
       model == FBE_MODEL_FINAL ? "final" : "standard", (unsigned long long)d->size);
  end_text(pr);
  put(pr, "\n", 1);
  flush(pr);
  uint64_t covered = 0;
  run_heap h = {runs, 0};
  while ((next < n || h.n) && !pr->failed) {
    if (next < n && (!h.n || before(r[next].off, r[next].seq, cursor_at(d, &h.c[0]),
                                    r[h.c[0].i].seq))) {
      if (r[next].kind == K_RUN) heap_push(d, &h, (cursor){(uint32_t)next, 0});
      else emit(pr, &r[next], &covered, model_end, rc);
      next++;
      continue;
    }
    cursor *c = &h.c[0]; /* the next element of a run: a line of its own */
    range e = r[c->i];
    uint64_t step = run_step(d, &e);
    e.off = (uint32_t)cursor_at(d, c);
    e.len = (uint32_t)step;
    e.arg += c->j;
    e.kind = K_SCALAR;
    emit(pr, &e, &covered, model_end, rc);
    if ((uint64_t)++c->j * step >= r[c->i].len) h.c[0] = h.c[--h.n];
    heap_down(d, &h, 0);
  }
  if (covered < d->size && !pr->failed) gap(pr, covered, d->size, model_end, rc != 0);
  if (rc) {
    const fbe_error *err = d->err;
    putf(pr, "!! offset 0x%0*llx: %s", pr->ow, (unsigned long long)err->offset,
         err->message);
    if (err->path[0]) putf(pr, " at '%s'", err->path);
    end_text(pr);
    put(pr, "\n", 1);
    flush(pr);
  }
  return pr->failed;
}


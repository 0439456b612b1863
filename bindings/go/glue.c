/* The C side of the Go binding (glue.h): each function is one cgo call of a Go
 * operation, and uses the core only: the binding decides no rule here. */
#include <stdlib.h>
#include <string.h>
#include "glue.h"
#include "fbe/internal/error.h"
#include "fbe/internal/input.h"
#include "fbe/internal/scratch.h"

/* Scratch arenas and buffers reused across calls (any goroutine's thread takes one). */
static fbei_scratch_pool pool;

static fbe_model model_of(int model) { return model ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD; }

/* Go's slots and bytes as the core's tape: what Go wrote (a read) or the room C may
 * fill (a write). */
static fbei_tape tape_of(int64_t *num, uint32_t num_n, uint8_t *bytes, uint32_t bytes_n) {
  fbei_tape tp;
  tp.num = (fbei_tape_slot *)(void *)num;
  tp.num_cap = num_n;
  tp.bytes = bytes;
  tp.bytes_cap = bytes_n;
  return tp;
}

static fbe_status nomem(fbe_error *err) { return fbei_error_set(err, FBE_ERR_NOMEM, FBE_NO_OFFSET, "out of memory"); }

fbego_schema *fbego_load(int how, const char *what, size_t what_len, const char *name, char **dirs, size_t ndirs,
                         fbe_error *err) {
  fbe_load_options lo = {(const char *const *)dirs, ndirs};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *schema = how == FBEGO_LOAD_PACKAGE ? fbe_schema_load_package(what, &lo, &diags)
                       : how == FBEGO_LOAD_FILE  ? fbe_schema_load_file(what, &lo, &diags)
                                                 : fbe_schema_load_string(what, what_len, name, &lo, &diags);
  if (!schema) {
    char why[512] = "the schema did not load";
    for (size_t i = 0; i < diags.count; i++)
      if (diags.items[i].severity == FBE_SEVERITY_ERROR) {
        fbe_diagnostic_format(&diags.items[i], why, sizeof why);
        break;
      }
    fbe_diagnostics_free(&diags);
    fbei_error_set(err, how == FBEGO_LOAD_PACKAGE && !diags.count ? FBE_ERR_NOT_FOUND : FBE_ERR_SCHEMA,
                   FBE_NO_OFFSET, "%s", why);
    return NULL;
  }
  fbe_diagnostics_free(&diags);
  fbego_schema *s = malloc(sizeof *s);
  fbei_tape_programs *progs = s ? fbei_tape_compile(schema, FBE_TAPE_INT64) : NULL;
  if (!progs) {
    free(s);
    fbe_schema_release(schema);
    nomem(err);
    return NULL;
  }
  s->schema = schema;
  s->progs = progs;
  s->limits = fbe_limits_default();
  return s;
}

int fbego_set_limit(fbego_schema *s, const char *name, int64_t value, fbe_error *err) {
  return fbe_limits_set(&s->limits, name, value, err) ? -1 : 0;
}

void fbego_free(fbego_schema *s) {
  if (!s) return;
  fbei_tape_programs_free(s->progs);
  fbe_schema_release(s->schema);
  free(s);
}

/* buf's bytes into out when they fit; the size either way. */
static int64_t give(const fbe_buffer *buf, uint8_t *out, size_t cap) {
  if (buf->size <= cap && buf->size) memcpy(out, buf->data, buf->size);
  return (int64_t)buf->size;
}

int64_t fbego_write(const fbego_schema *s, size_t si, int what, int arg, int64_t *num, uint32_t num_len, uint8_t *bytes, uint32_t bytes_len, uint8_t *out,
                    size_t cap, fbe_error *err) {
  const fbe_struct *st = fbe_schema_struct_at(s->schema, si);
  fbei_tape tp = tape_of(num, num_len, bytes, bytes_len);
  if (what == FBEGO_WRITE_MODEL) { /* straight from the tape when it can (tape.h says when not) */
    int64_t size = fbei_tape_encode(s->progs, &tp, st, model_of(arg), out, cap);
    if (size >= 0) return size;
  }
  fbei_scratch *sc = fbei_scratch_get(&pool);
  if (!sc) return nomem(err), -1;
  uint32_t n = 0, p = 0;
  int64_t size = -1;
  fbe_msg *m = fbei_tape_read(s->progs, &tp, st, &n, &p, sc->arena, err);
  if (m) {
    fbe_status rc = what == FBEGO_WRITE_JSON   ? fbe_msg_to_json(m, arg, &sc->buf, err)
                    : what == FBEGO_WRITE_TEXT ? fbe_msg_to_text(m, &sc->buf, err)
                                               : fbe_encode(m, model_of(arg), &sc->buf, err);
    if (!rc) size = give(&sc->buf, out, cap);
  }
  fbei_scratch_put(&pool, sc);
  return size;
}

int fbego_equal(const fbego_schema *s, size_t si, int64_t *num, uint32_t num_len, uint8_t *bytes, uint32_t bytes_len, fbe_error *err) {
  const fbe_struct *st = fbe_schema_struct_at(s->schema, si);
  fbei_tape tp = tape_of(num, num_len, bytes, bytes_len);
  fbei_scratch *sc = fbei_scratch_get(&pool);
  if (!sc) return nomem(err), -1;
  uint32_t n = 0, p = 0;
  fbe_msg *a = fbei_tape_read(s->progs, &tp, st, &n, &p, sc->arena, err);
  fbe_msg *b = a ? fbei_tape_read(s->progs, &tp, st, &n, &p, sc->arena, err) : NULL;
  int same = b ? fbe_msg_equal(a, b) : -1;
  fbei_scratch_put(&pool, sc);
  return same;
}

/* m (or r) onto the tape: 0, or 1 when the tape is too small. */
static int onto(const fbego_schema *s, fbe_ref r, int64_t *num, uint32_t num_cap, uint8_t *bytes, uint32_t bytes_cap,
                uint64_t *need_n, uint64_t *need_p) {
  fbei_tape tp = tape_of(num, num_cap, bytes, bytes_cap);
  return fbei_tape_write_ref(s->progs, &tp, r, 0, 0, need_n, need_p) ? 1 : 0;
}

int fbego_make(const fbego_schema *s, size_t si, int how, int model, const uint8_t *in, size_t len,
               const fbe_limits *limits, int64_t *num, uint32_t num_cap, uint8_t *bytes, uint32_t bytes_cap, uint64_t *need_n, uint64_t *need_p, fbe_error *err) {
  if (!limits) limits = &s->limits;
  const fbe_struct *st = fbe_schema_struct_at(s->schema, si);
  fbei_scratch *sc = fbei_scratch_get(&pool);
  if (!sc) return nomem(err), -1;
  fbe_msg *m = NULL;
  fbe_status rc = FBE_OK;
  if (how == FBEGO_MAKE_DEFAULTS) {
    m = fbe_msg_new(sc->arena, st);
    if (!m) rc = nomem(err);
  } else if (how == FBEGO_MAKE_DECODE || how == FBEGO_MAKE_DECODE_TRUSTED) {
    rc = (how == FBEGO_MAKE_DECODE ? fbe_decode : fbe_decode_trusted)(st, model_of(model), in, len, sc->arena, limits,
                                                                     &m, NULL, err);
  } else {
    fbe_json_options opts;
    memset(&opts, 0, sizeof opts);
    opts.ignore_unknown = how == FBEGO_MAKE_JSON_LAX;
    opts.limits = limits;
    rc = fbe_msg_from_json_opts(st, (const char *)in, len, sc->arena, &opts, &m, err);
  }
  int out = rc ? -1 : onto(s, fbe_msg_ref(m), num, num_cap, bytes, bytes_cap, need_n, need_p);
  fbei_scratch_put(&pool, sc);
  return out;
}

int fbego_verify(const fbego_schema *s, size_t si, int model, const uint8_t *in, size_t len,
                 const fbe_limits *limits, uint64_t *size, fbe_error *err) {
  if (!limits) limits = &s->limits;
  size_t n = 0;
  if (fbe_verify(fbe_schema_struct_at(s->schema, si), model_of(model), in, len, limits, &n, err)) return -1;
  *size = n;
  return 0;
}

fbego_view *fbego_view_open(const fbego_schema *s, size_t si, int model, const uint8_t *in, size_t len,
                            fbe_error *err) {
  fbego_view *v = calloc(1, sizeof *v);
  uint8_t *copy = v ? malloc(len ? len : 1) : NULL;
  if (!copy) {
    free(v);
    nomem(err);
    return NULL;
  }
  if (len) memcpy(copy, in, len);
  if (fbe_view_open(fbe_schema_struct_at(s->schema, si), model_of(model), copy, len, &s->limits, &v->view, err)) {
    free(copy);
    free(v);
    return NULL;
  }
  v->schema = s;
  v->data = copy;
  return v;
}

void fbego_view_free(fbego_view *v) {
  if (!v) return;
  free(v->data);
  free(v);
}

int64_t fbego_view_write(const fbego_view *v, int what, uint8_t *out, size_t cap, fbe_error *err) {
  fbei_scratch *sc = fbei_scratch_get(&pool);
  if (!sc) return nomem(err), -1;
  fbe_status rc = what == FBEGO_WRITE_TEXT ? fbe_view_to_text(v->view, NULL, &sc->buf, err)
                                           : fbe_view_to_json(v->view, NULL, &sc->buf, err);
  int64_t size = rc ? -1 : give(&sc->buf, out, cap);
  fbei_scratch_put(&pool, sc);
  return size;
}

int fbego_view_tape(const fbego_view *v, const char *field, size_t field_len, int64_t *num, uint32_t num_cap, uint8_t *bytes, uint32_t bytes_cap, uint64_t *need_n,
                    uint64_t *need_p, fbe_error *err) {
  fbe_view at = v->view;
  if (field) {
    char name[256];
    if (field_len >= sizeof name) field_len = sizeof name - 1;
    memcpy(name, field, field_len);
    name[field_len] = 0;
    at = fbe_view_field_named(v->view, name);
    if (!at.type) {
      fbei_error_unknown_field(err, fbe_type_struct(v->view.type), field, field_len);
      return -1;
    }
  }
  fbei_scratch *sc = fbei_scratch_get(&pool);
  if (!sc) return nomem(err), -1;
  fbe_ref r;
  int out = fbe_view_value(at, sc->arena, NULL, &r, err) ? -1 : onto(v->schema, r, num, num_cap, bytes, bytes_cap, need_n, need_p);
  fbei_scratch_put(&pool, sc);
  return out;
}

void fbego_error_range(fbe_error *err, const char *text, int kind) { fbei_error_range(err, text, (fbe_kind)kind); }
void fbego_error_type(fbe_error *err, const fbe_type *want, int got, const char *name) {
  fbei_error_type(err, want, (fbei_got)got, name);
}
void fbego_error_type_struct(fbe_error *err, const fbe_struct *want, int got, const char *name) {
  fbei_error_type_struct(err, want, (fbei_got)got, name);
}
void fbego_error_unknown_field(fbe_error *err, const fbe_struct *st, const char *name, size_t len) {
  fbei_error_unknown_field(err, st, name, len);
}
void fbego_error_unknown_type(fbe_error *err, const fbe_schema *schema, const char *name, size_t len) {
  fbei_error_unknown_type(err, schema, "struct", name, len);
}
void fbego_error_bad_text(fbe_error *err, int kind, const char *text, size_t len) {
  fbei_error_bad_text(err, (fbe_kind)kind, text, len);
}
void fbego_error_prepend_field(fbe_error *err, const char *name) { fbei_error_prepend_field(err, name); }
void fbego_error_prepend_index(fbe_error *err, size_t index) { fbei_error_prepend_index(err, index); }
void fbego_error_prepend_key(fbe_error *err) { fbei_error_prepend_key(err); }
void fbego_error_too_deep(fbe_error *err) { fbei_tape_too_deep(err); }
void fbego_error_text(const fbe_error *err, char *out, size_t cap) { fbe_error_format(err, out, cap); }

int fbego_uuid_parse(const char *text, size_t len, uint8_t out[16], fbe_error *err) {
  fbe_uuid u;
  if (fbe_uuid_parse(text, len, &u)) return fbei_error_bad_text(err, FBE_KIND_UUID, text, len), -1;
  memcpy(out, u.bytes, 16);
  return 0;
}

int fbego_decimal_check(const char *text, size_t len, fbe_error *err) {
  fbe_decimal d;
  fbe_status st = fbe_decimal_parse(text, len, &d);
  if (!st) return 0;
  if (st == FBE_ERR_RANGE) {
    char shown[128];
    size_t k = len < sizeof shown - 1 ? len : sizeof shown - 1;
    memcpy(shown, text, k);
    shown[k] = 0;
    fbei_error_decimal_range(err, shown);
  } else {
    fbei_error_bad_text(err, FBE_KIND_DECIMAL, text, len);
  }
  return -1;
}

int fbego_enum_parse(const fbe_enum *e, const char *text, size_t len, uint64_t *out, fbe_error *err) {
  return fbe_enum_parse(e, text, len, out, err) ? -1 : 0;
}

size_t fbego_enum_text(const fbe_enum *e, uint64_t value, char *out, size_t cap) {
  fbe_buffer buf;
  fbe_buffer_init(&buf);
  fbe_error err;
  size_t n = 0;
  if (!fbe_text_write_enum(e, value, &buf, &err)) {
    n = buf.size < cap ? buf.size : cap;
    memcpy(out, buf.data, n);
  }
  fbe_buffer_free(&buf);
  return n;
}

void fbego_error_array_length(fbe_error *err, const fbe_type *array, size_t got) {
  fbei_error_array_length(err, array, got);
}
void fbego_error_int_range(fbe_error *err, int negative, uint64_t magnitude, int kind) {
  fbei_error_int_range(err, negative, magnitude, (fbe_kind)kind);
}

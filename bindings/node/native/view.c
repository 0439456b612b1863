/* Views (fbe/view.h) for lib/'s view classes (lib/codegen.js): a view lives in
 * JavaScript as the bytes it reads (a Uint8Array the view object holds, so the GC keeps
 * them) and a few numbers, never as native memory: no allocation and no finalizer per
 * view. A call takes the view through the view registers, a Float64Array lib/ shares
 * with C (setTape(4)): VR_AT, VR_BASE, VR_IMAGE, VR_END (fbe_view's fields), VR_MODEL
 * (the model, plus twice the index of the struct the bytes were opened as), VR_TYPE (an
 * index into the types lib/ registered with viewType), VR_OP, VR_INDEX, and the bytes:
 * VR_DATA their address, taken once at the open, VR_SIZE their length now (lib/ reads
 * it with the intrinsic typed-array getter before each call); a second view from VR_B
 * (equals). A composite result (struct, collection, optional's value) comes back the
 * same way, in VR_AT .. VR_IMAGE.
 * Why the address may be kept: the open takes it with napi_get_typedarray_info, which
 * moves a typed array's bytes out of the GC's heap for good, and an ArrayBuffer's memory
 * never moves while it lives (the view keeps it alive) and holds its bytes (its length is
 * 0 once detached; a resizable one grows and shrinks in place). So at every call the view
 * is re-pointed at the address with the length it has now (fbe_view_rebind, which
 * refuses bytes shrunk or detached since the open, in the core's words) and costs no
 * Node-API call to find the bytes; bytes changed in place are read within their length,
 * never outside (fbe/view.h: every read is checked), and a read they make fail is
 * reported as verify reports the bytes now. */
#include <string.h>

#include "binding.h"
#include "fbe/internal/error.h"
#include "fbe/internal/kinds.h"
#include "fbe/internal/memory.h"
#include "fbe/internal/value.h"

/* A view as a call received it: the view, and the bytes under it now. */
typedef struct viewed {
  fbe_view v;
  const fbe_struct *root; /* the struct the bytes were opened as */
  const uint8_t *data;
  size_t size;
} viewed;

/* The error of an access that found no value (the bytes changed in place after the
 * open): the core's fbe_view_fault, verify's error on the bytes now. */
static napi_value no_value(nschema *ns, const viewed *w) {
  fbe_view now = w->v;
  now.data = w->data;
  set_status(ns, fbe_view_fault(w->root, now, &ns->err));
  return NULL;
}

/* The view of VR at `at`, re-pointed at its bytes (0 with a failure set). */
static int view_in(napi_env env, nschema *ns, int at, viewed *w) {
  const double *r = ns->vregs ? ns->vregs + at : NULL;
  double t = r ? r[VR_TYPE] : -1, m = r ? r[VR_MODEL] : -1;
  if (!ns->vregs) return napi_throw_error(env, NULL, "fbe addon: setTape(4) was not called"), 0;
  /* C wrote these numbers (lib/ keeps them private), lib/ the length: checked all the same */
  if (!(t >= 0 && t < ns->nvtypes && m >= 0 && m < 2.0 * ns->nstructs && r[VR_END] >= 0 &&
        r[VR_END] < 9007199254740992.0 && r[VR_AT] >= 0 && r[VR_AT] <= r[VR_END] && r[VR_BASE] >= 0 &&
        r[VR_BASE] <= r[VR_END] && r[VR_DATA] > 0 && r[VR_SIZE] >= 0 && r[VR_SIZE] < 9007199254740992.0))
    return throw_type(env, "bad view"), 0;
  w->data = (const uint8_t *)(uintptr_t)r[VR_DATA];
  w->size = (size_t)r[VR_SIZE];
  const codec *c = &ns->codecs[(uint32_t)m]; /* 2 * struct index + model */
  fbe_view *v = &w->v;
  w->root = c->st;
  v->type = ns->vtypes[(uint32_t)t];
  v->model = c->model;
  v->image = (const void *)(uintptr_t)r[VR_IMAGE];
  v->end = v->image ? 0 : (uint64_t)r[VR_END];
  v->at = v->image ? 0 : (uint64_t)r[VR_AT];
  v->base = v->image ? 0 : (uint64_t)r[VR_BASE];
  /* the model at the bytes' address now; refused when they hold less of it */
  fbe_status s = fbe_view_rebind(v, w->data, w->size, &ns->err);
  if (s != FBE_OK) return set_status(ns, s), 0;
  return 1;
}

static int is_ascii(const uint8_t *p, size_t n) {
  uint8_t any = 0;
  for (size_t i = 0; i < n; i++) any |= p[i];
  return any < 0x80;
}

/* A scalar, string or bytes view as JavaScript reads it from decode (lib/codegen.js
 * reader): numbers, bigints for 64-bit kinds and timestamps, text for decimals and
 * uuids, a Buffer copy for bytes. NULL: no value. */
static napi_value scalar(napi_env env, nschema *ns, const viewed *w, fbe_view v) {
  napi_value out = NULL;
  int64_t i;
  uint64_t u;
  double d;
  int b;
  char text[64];
  const uint8_t *p;
  size_t n;
  const fbe_enum *e = v.type->enm;
  fbe_kind kind = e ? fbe_enum_base(e) : v.type->kind;
  fbe_status s = FBE_ERR_TYPE;
  switch (kind) {
    case FBE_KIND_BOOL:
      if ((s = fbe_view_get_bool(v, &b)) == FBE_OK) napi_get_boolean(env, b != 0, &out);
      break;
    case FBE_KIND_INT8: case FBE_KIND_INT16: case FBE_KIND_INT32: case FBE_KIND_INT64:
      if ((s = fbe_view_get_int(v, &i)) != FBE_OK) break;
      if (e) out = enum_value(env, e, (uint64_t)i);
      else if (kind == FBE_KIND_INT64) napi_create_bigint_int64(env, i, &out);
      else napi_create_int32(env, (int32_t)i, &out);
      break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_WCHAR: case FBE_KIND_UINT8: case FBE_KIND_UINT16:
    case FBE_KIND_UINT32: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      if ((s = fbe_view_get_uint(v, &u)) != FBE_OK) break;
      if (e) out = enum_value(env, e, u);
      else if (kind == FBE_KIND_UINT64 || kind == FBE_KIND_TIMESTAMP) napi_create_bigint_uint64(env, u, &out);
      else napi_create_uint32(env, (uint32_t)u, &out);
      break;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE:
      if ((s = fbe_view_get_double(v, &d)) == FBE_OK) napi_create_double(env, d, &out);
      break;
    case FBE_KIND_DECIMAL: {
      fbe_decimal x;
      if ((s = fbe_view_get_decimal(v, &x)) == FBE_OK) fbe_decimal_format(&x, text, sizeof text), out = js_str(env, text);
      break;
    }
    case FBE_KIND_UUID: {
      fbe_uuid x;
      if ((s = fbe_view_get_uuid(v, &x)) == FBE_OK) fbe_uuid_format(&x, text), out = js_str(env, text);
      break;
    }
    case FBE_KIND_STRING:
      if ((s = fbe_view_get_bytes(v, &p, &n)) != FBE_OK) break;
      if (is_ascii(p, n)) napi_create_string_latin1(env, (const char *)p, n, &out); /* no UTF-8 decoder */
      else napi_create_string_utf8(env, (const char *)p, n, &out);
      break;
    case FBE_KIND_BYTES:
      if ((s = fbe_view_get_bytes(v, &p, &n)) == FBE_OK)
        napi_create_buffer_copy(env, n, n ? p : (const uint8_t *)"", NULL, &out);
      break;
    default: break;
  }
  if (s != FBE_OK) return no_value(ns, w);
  return out ? out : napi_failure(env, "a view's value");
}

/* viewGet() -> the value VR_OP reads of the view in VR: VIEW_FIELD (field VR_INDEX),
 * VIEW_AT (element), VIEW_KEY / VIEW_VALUE (map entry), VIEW_SELF (the view itself).
 * An optional reads as null or its value. A scalar, string or bytes comes back as a
 * JavaScript value; anything else as true, its view in VR_AT .. VR_IMAGE (the type is
 * lib/'s to know: it registered it). undefined: no value (REG_STATUS, lastError). */
napi_value view_get_cb(napi_env env, napi_callback_info info) {
  ARGS(0, nschema, ns);
  viewed w;
  if (!view_in(env, ns, 0, &w)) return NULL;
  fbe_view v = w.v;
  double *r = ns->vregs, index = r[VR_INDEX];
  size_t i = index >= 0 && index < 4294967296.0 ? (size_t)index : SIZE_MAX;
  switch ((int)r[VR_OP]) {
    case VIEW_FIELD: v = fbe_view_field(v, i); break;
    case VIEW_AT: v = fbe_view_at(v, i); break;
    case VIEW_KEY: v = fbe_view_key_at(v, i); break;
    case VIEW_VALUE: v = fbe_view_value_at(v, i); break;
    default: break;
  }
  if (!v.type) return no_value(ns, &w);
  while (v.type->kind == FBE_KIND_OPTIONAL) {
    if (fbe_view_is_null(v)) return js_null(env);
    if (!(v = fbe_view_deref(v)).type) return no_value(ns, &w);
  }
  switch (v.type->wire) {
    case FBE_KIND_STRUCT: case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_MAP: break; /* a view */
    default: return scalar(env, ns, &w, v);
  }
  r[VR_AT] = (double)v.at;
  r[VR_BASE] = (double)v.base;
  r[VR_IMAGE] = (double)(uintptr_t)v.image;
  return js_bool(env, 1);
}

/* viewCount() -> the elements (entries) of the collection view in VR. */
napi_value view_count_cb(napi_env env, napi_callback_info info) {
  ARGS(0, nschema, ns);
  viewed w;
  if (!view_in(env, ns, 0, &w)) return NULL;
  return js_num(env, (double)fbe_view_count(w.v));
}

/* viewType(structIndex, fieldIndex, steps) -> the index of a type views are of: the
 * struct itself (fieldIndex -1) or the type of a field and steps (arg_field_type),
 * registered once per place by lib/ when it compiles the view classes. */
napi_value view_type_cb(napi_env env, napi_callback_info info) {
  ARGS(3, nschema, ns);
  const fbe_type *t;
  if (argc < 3) return throw_type(env, "viewType(structIndex, fieldIndex, steps)");
  if (arg_int(env, argv[1]) < 0) {
    const fbe_struct *st = arg_struct_index(env, ns, argv[0]);
    t = st ? st->self_type : NULL;
  } else {
    t = arg_field_type(env, ns, argv[0], argv[1], argv[2]);
  }
  if (!t) return NULL;
  while (t->kind == FBE_KIND_OPTIONAL) t = t->elem; /* views are of what an optional holds */
  if (ns->nvtypes == ns->vtypes_cap) {
    uint32_t cap = ns->vtypes_cap ? 2 * ns->vtypes_cap : 64;
    const fbe_type **grown = fbei_mem_realloc(ns->vtypes, cap * sizeof *grown);
    if (!grown) return napi_throw_error(env, NULL, "out of memory"), NULL;
    ns->vtypes = grown;
    ns->vtypes_cap = cap;
  }
  ns->vtypes[ns->nvtypes] = t;
  return js_num(env, ns->nvtypes++);
}

/* Opens a view of st over bytes (fbe_view_open, within the limits lib/ passes): true, the
 * root's view in VR (VR_END = the model size, VR_MODEL the model and the struct); undefined when the bytes are
 * refused (verify's error, in REG_STATUS and lastError, as decode's). */
static napi_value open_view(napi_env env, nschema *ns, const fbe_struct *st, fbe_model model, napi_value bytes,
                            napi_value limits_arg) {
  size_t size;
  fbe_limits storage;
  const fbe_limits *limits = NULL;
  if (!ns->vregs) return napi_throw_error(env, NULL, "fbe addon: setTape(4) was not called"), NULL;
  if (limits_arg && arg_limits(env, limits_arg, &storage, &limits, &ns->err)) return set_status(ns, ns->err.code), NULL;
  const uint8_t *data; /* borrowed: taken after the limits, with no JavaScript run between */
  if (arg_bytes(env, bytes, &data, &size)) return NULL;
  fbe_view v;
  fbe_status s = fbe_view_open(st, model, data, size, limits, &v, &ns->err);
  set_status(ns, s);
  if (s != FBE_OK) return NULL;
  double *r = ns->vregs;
  r[VR_AT] = (double)v.at;
  r[VR_BASE] = (double)v.base;
  r[VR_IMAGE] = (double)(uintptr_t)v.image;
  r[VR_END] = (double)v.end;
  r[VR_MODEL] = 2.0 * (double)fbe_struct_index(st) + (model == FBE_MODEL_FINAL); /* its codec's index */
  r[VR_DATA] = (double)(uintptr_t)data; /* kept by the view: see the top of this file */
  return js_bool(env, 1);
}

/* open(bytes[, limits]): the opener of one struct in one model (its codec, the callback
 * data, as dec()'s), made by viewOpeners. */
static napi_value opener_cb(napi_env env, napi_callback_info info) {
  ARGS(2, codec, c);
  if (argc < 1) return throw_type(env, "open(bytes[, limits])");
  return open_view(env, c->ns, c->st, c->model, argv[0], argc >= 2 ? argv[1] : NULL);
}

/* viewOpeners(typeIndex) -> [open standard, open final] of the struct (opener_cb). */
napi_value view_openers_cb(napi_env env, napi_callback_info info) {
  ARGS(1, nschema, ns);
  int32_t k = argc >= 1 ? arg_int(env, argv[0]) : -1;
  if (k < 0 || (uint32_t)k >= ns->nstructs) return throw_type(env, "bad type index");
  napi_value fns[2] = {make_fn(env, ns, "open", opener_cb, &ns->codecs[2 * k]), NULL};
  fns[1] = fns[0] ? make_fn(env, ns, "open", opener_cb, &ns->codecs[2 * k + 1]) : NULL;
  napi_value pair = fns[1] ? array_of(env, fns, 2) : NULL;
  return pair ? pair : napi_failure(env, "viewOpeners");
}

/* viewValue() -> the view in VR as a value (fbe_view_value: exactly the decoded
 * value, a set or map one entry per key) on the tape at REG_N0/REG_P0, read by lib/'s
 * decode reader of the view's type, as dec() puts a message there. */
napi_value view_value_cb(napi_env env, napi_callback_info info) {
  ARGS(0, nschema, ns);
  viewed w;
  fbe_ref r;
  if (!tapes_ready(env, ns) || !view_in(env, ns, 0, &w)) return NULL;
  fbe_arena_reset(ns->arena);
  fbe_status s = fbe_view_value(w.v, ns->arena, NULL, &r, &ns->err);
  if (s != FBE_OK) return set_status(ns, s), NULL;
  ref_to_tape(ns, r);
  return NULL;
}

/* viewText(json, pretty) -> the view in VR as the core's text form
 * (fbe_view_to_text) or JSON (fbe_view_to_json); undefined on failure. */
napi_value view_text_cb(napi_env env, napi_callback_info info) {
  ARGS(2, nschema, ns);
  viewed w;
  bool json = false, pretty = false;
  napi_value text;
  if (!view_in(env, ns, 0, &w)) return NULL;
  if (argc >= 1) napi_get_value_bool(env, argv[0], &json);
  if (argc >= 2) napi_get_value_bool(env, argv[1], &pretty);
  fbe_buffer_reset(&ns->out);
  fbe_json_options opts = {0};
  opts.pretty = pretty;
  fbe_status s = json ? fbe_view_to_json(w.v, &opts, &ns->out, &ns->err) : fbe_view_to_text(w.v, NULL, &ns->out, &ns->err);
  set_status(ns, s);
  if (s != FBE_OK) return NULL;
  CHECK(napi_create_string_utf8(env, ns->out.size ? (const char *)ns->out.data : "", ns->out.size, &text));
  if (ns->out.capacity > ((size_t)1 << 20)) fbe_buffer_free(&ns->out);
  return text;
}

/* viewEqual(other, structIndex) -> 1 or 0: the view in VR against another view (other
 * true: the view in VR from VR_B) or, when other is false, a value of
 * struct structIndex on the tape at REG_N1/REG_P1 (fbe_view_equal / _equal_ref: deep,
 * floats by bits, decimals by value). */
napi_value view_equal_cb(napi_env env, napi_callback_info info) {
  ARGS(2, nschema, ns);
  viewed a, b;
  bool other = false;
  if (argc < 2 || !view_in(env, ns, 0, &a)) return NULL;
  napi_get_value_bool(env, argv[0], &other);
  if (other) {
    if (!view_in(env, ns, VR_B, &b)) return NULL;
    return js_num(env, fbe_view_equal(a.v, b.v));
  }
  const fbe_struct *st = tapes_ready(env, ns) ? arg_struct_index(env, ns, argv[1]) : NULL;
  if (!st) return NULL;
  uint32_t n = ns->regs[REG_N1] < 0 ? UINT32_MAX : (uint32_t)ns->regs[REG_N1];
  uint32_t p = ns->regs[REG_P1] < 0 ? UINT32_MAX : (uint32_t)ns->regs[REG_P1];
  fbe_arena_reset(ns->arena);
  fbe_msg *m = fbei_tape_read(ns->progs, &ns->tape, st, &n, &p, ns->arena, &ns->err);
  if (!m) return set_status(ns, ns->err.code), NULL;
  set_status(ns, FBE_OK);
  return js_num(env, fbe_view_equal_ref(a.v, fbe_msg_ref(m)));
}

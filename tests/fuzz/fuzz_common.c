/* Shared pieces of the fuzz targets: see fuzz_common.h. */
#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbe/internal/schema_model.h" /* struct sizes and field defaults */
#include "fbe/internal/cost.h"         /* the memory budget's charges, to compare verify's and decode's */
#include "fbe/internal/utf8.h"         /* the JSON writer's own idea of well-formed UTF-8 */
#include "fbe/internal/value.h"        /* in-memory slots, for the standard model's equality */
#include "../view_walk.h"                /* reading a whole view, for lazy views */

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "fuzz invariant broken at %s:%d: %s: ", file, line, cond);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  abort();
}

/* ------------------------------------------------------------------ schemas */

static const char *const include_dirs[] = {FBE_SCHEMAS_DIR, FBE_FUZZ_SCHEMAS_DIR};
static const fbe_load_options load_options = {include_dirs, 2};

const fbe_load_options *fuzz_load_options(void) { return &load_options; }

fbe_schema *fuzz_schema(const char *package) {
  static const char *const names[] = {"test", "proto", "protoex", "enums", "budget"};
  static fbe_schema *loaded[5];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(names[i], package) != 0) continue;
    if (!loaded[i]) {
      fbe_diagnostics diags = {0, NULL};
      loaded[i] = fbe_schema_load_package(package, &load_options, &diags);
      for (size_t d = 0; !loaded[i] && d < diags.count; d++) {
        char line[512];
        fbe_diagnostic_format(&diags.items[d], line, sizeof line);
        fprintf(stderr, "  %s\n", line);
      }
      fbe_diagnostics_free(&diags);
      FUZZ_CHECK(loaded[i] != NULL, "schema %s/%s.fbe does not load", FBE_SCHEMAS_DIR, package);
    }
    return loaded[i];
  }
  FUZZ_CHECK(0, "no test schema %s", package);
}

/* Append only: the index of a name is part of every committed seed. */
static const char *const struct_names[] = {
    /* 0 */ "test.StructSimple",
    /* 1 */ "test.StructOptional",
    /* 2 */ "test.StructNested",
    /* 3 */ "test.StructBytes",
    /* 4 */ "test.StructArray",
    /* 5 */ "test.StructVector",
    /* 6 */ "test.StructList",
    /* 7 */ "test.StructSet",
    /* 8 */ "test.StructMap",
    /* 9 */ "test.StructHash",
    /* 10 */ "test.StructHashEx",
    /* 11 */ "test.StructEmpty",
    /* 12 */ "proto.Order",
    /* 13 */ "proto.Balance",
    /* 14 */ "proto.Account",
    /* 15 */ "proto.OrderMessage",
    /* 16 */ "proto.BalanceMessage",
    /* 17 */ "proto.AccountMessage",
    /* 18 */ "protoex.Order",
    /* 19 */ "protoex.Balance",
    /* 20 */ "protoex.Account",
    /* 21 */ "protoex.OrderMessage",
    /* 22 */ "protoex.BalanceMessage",
    /* 23 */ "protoex.AccountMessage",
    /* 24 */ "enums.Enums",
    /* 25 */ "budget.Empties",
    /* 26 */ "budget.Fanout",
};

#define NSTRUCTS (sizeof struct_names / sizeof struct_names[0])

size_t fuzz_struct_count(void) { return NSTRUCTS; }

const fbe_struct *fuzz_struct_at(size_t index) {
  static const fbe_struct *found[NSTRUCTS];
  FUZZ_CHECK(index < NSTRUCTS, "struct index %zu", index);
  if (!found[index]) {
    const char *name = struct_names[index];
    char package[16];
    size_t n = (size_t)(strchr(name, '.') - name);
    memcpy(package, name, n);
    package[n] = 0;
    found[index] = fbe_schema_find_struct(fuzz_schema(package), name);
    FUZZ_CHECK(found[index] != NULL, "no struct %s", name);
  }
  return found[index];
}

int fuzz_struct_is_small(const fbe_struct *st) {
  const uint32_t limit = 1u << 16;
  return st->mem_size <= limit && st->body_size <= limit && st->final_min <= limit;
}

/* ------------------------------------------------------------------ errors */

void fuzz_check_error(const char *call, fbe_status rc, const fbe_error *err, unsigned allowed,
                      size_t size) {
  FUZZ_CHECK(rc != FBE_OK, "%s: no error to check", call);
  FUZZ_CHECK((unsigned)rc < 32 && (allowed & FUZZ_CODE(rc)), "%s: unexpected %s: %s", call,
             fbe_status_name(rc), err->message);
  FUZZ_CHECK(err->code == rc, "%s returned %s but the error says %s", call, fbe_status_name(rc),
             fbe_status_name(err->code));
  FUZZ_CHECK(memchr(err->message, 0, sizeof err->message) && err->message[0],
             "%s: empty or unterminated error message", call);
  FUZZ_CHECK(memchr(err->path, 0, sizeof err->path), "%s: unterminated error path", call);
  FUZZ_CHECK(err->offset == FBE_NO_OFFSET || err->offset <= size,
             "%s: error offset %zu outside the %zu-byte input: %s", call, err->offset, size,
             err->message);
  char text[512];
  fbe_error_format(err, text, sizeof text);
  FUZZ_CHECK(text[0], "%s: fbe_error_format wrote nothing", call);
}

/* ------------------------------------------------------------------ JSON */

/* json_writer.c's documented refusals: NaN/infinity and decimal scale > 28 (RANGE), a
 * map key of type bool/float/double/bytes (TYPE), nesting deeper than 256 (LIMIT). */
static int json_refusal_documented(fbe_status rc, const fbe_error *err) {
  switch (rc) {
    case FBE_ERR_RANGE:
      return strstr(err->message, "has no JSON form") || strstr(err->message, "decimal scale");
    case FBE_ERR_TYPE: return strstr(err->message, "map keys of type") != NULL;
    case FBE_ERR_LIMIT: return strstr(err->message, "JSON levels") != NULL;
    default: return 0;
  }
}

static int kind_holds_strings(fbe_kind k) {
  return k == FBE_KIND_STRING || k >= FBE_KIND_STRUCT; /* struct, optional, collections */
}

/* Whether a value holds a string (or map key) that is not well-formed UTF-8: the JSON
 * writer replaces such bytes by U+FFFD, so the value cannot come back equal. */
static int has_bad_utf8(fbe_ref r) {
  switch (fbe_ref_kind(r)) {
    case FBE_KIND_STRING: {
      const uint8_t *s = NULL;
      size_t n = 0;
      FUZZ_CHECK(fbe_ref_get_bytes(r, &s, &n) == FBE_OK, "string without bytes");
      for (size_t i = 0; i < n;) {
        size_t len = fbei_utf8_sequence(s + i, n - i);
        if (!len) return 1;
        i += len;
      }
      return 0;
    }
    case FBE_KIND_STRUCT: {
      const fbe_struct *st = fbe_type_struct(r.type);
      for (size_t i = 0; i < fbe_struct_field_count(st); i++)
        if (has_bad_utf8(fbe_ref_field_at(r, i))) return 1;
      return 0;
    }
    case FBE_KIND_OPTIONAL: return !fbe_ref_is_null(r) && has_bad_utf8(fbe_ref_deref(r));
    case FBE_KIND_ARRAY: case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
      if (!kind_holds_strings(fbe_type_kind(fbe_type_element(r.type)))) return 0;
      for (size_t i = 0; i < fbe_ref_count(r); i++)
        if (has_bad_utf8(fbe_ref_at(r, i))) return 1;
      return 0;
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      for (size_t i = 0; i < fbe_ref_count(r); i++)
        if (has_bad_utf8(fbe_ref_key_at(r, i)) || has_bad_utf8(fbe_ref_value_at(r, i))) return 1;
      return 0;
    default: return 0;
  }
}

/* JSON text of a value costing `cost` -> new message, which must read back; checked by
 * the caller. The budget: JSON text can be shorter than the wire (2 bytes for a 0), so
 * the default (16 x the text) is not enough for every value that decodes; reading costs
 * the value's cost, plus raw string text (up to 6 bytes per byte: \u0000) and the
 * collections' growing buffers while they are read: 8 x the cost is enough. */
static fbe_msg *json_read_back(const fbe_struct *st, const fbe_buffer *json, fbe_arena *arena,
                               const char *what, uint64_t cost) {
  fbe_msg *back = NULL;
  fbe_error err;
  fbe_limits limits = {0, 0, 8 * cost + FBE_DEFAULT_MEMORY_FLOOR};
  fbe_status rc = fbe_msg_from_json_limited(st, (const char *)json->data, json->size, arena, &limits,
                                            &back, &err);
  FUZZ_CHECK(rc == FBE_OK, "%s JSON of %s does not read back: %s (offset %zu, path '%s'): %.*s",
             what, fbe_struct_full_name(st), err.message, err.offset, err.path,
             (int)(json->size > 400 ? 400 : json->size), (const char *)json->data);
  return back;
}

static int same_bytes(const fbe_buffer *a, const fbe_buffer *b) {
  return a->size == b->size && (!a->size || !memcmp(a->data, b->data, a->size));
}

static void check_json(const fbe_msg *msg) {
  const fbe_struct *st = fbe_msg_type(msg);
  uint64_t cost = fbei_msg_cost(msg);
  const char *name = fbe_struct_full_name(st);
  fbe_buffer json, json2, json3, pretty;
  fbe_buffer_init(&json);
  fbe_buffer_init(&json2);
  fbe_buffer_init(&json3);
  fbe_buffer_init(&pretty);
  fbe_error err;
  fbe_status rc = fbe_msg_to_json(msg, 0, &json, &err);
  if (rc) {
    FUZZ_CHECK(json_refusal_documented(rc, &err),
               "fbe_msg_to_json(%s): undocumented %s: %s at '%s'", name, fbe_status_name(rc),
               err.message, err.path);
    FUZZ_CHECK(json.size == 0, "fbe_msg_to_json left %zu bytes of a failed write", json.size);
    fbe_buffer_free(&json);
    return;
  }
  fbe_arena *arena = fbe_arena_new();
  FUZZ_CHECK(arena != NULL, "out of memory");
  fbe_msg *back = json_read_back(st, &json, arena, "compact", cost);
  int replaced = has_bad_utf8(fbe_msg_ref((fbe_msg *)msg));
  if (!replaced)
    FUZZ_CHECK(fbe_msg_equal(msg, back), "JSON of %s reads back as another message: %.*s", name,
               (int)(json.size > 400 ? 400 : json.size), (const char *)json.data);
  /* Bytes that are not UTF-8 came back as U+FFFD: from there on the round trip is exact. */
  rc = fbe_msg_to_json(back, 0, &json2, &err);
  FUZZ_CHECK(rc == FBE_OK, "JSON read back does not write: %s", err.message);
  FUZZ_CHECK(replaced || same_bytes(&json, &json2), "JSON of %s changes on a round trip", name);
  fbe_msg *back2 = json_read_back(st, &json2, arena, "second", cost);
  FUZZ_CHECK(fbe_msg_equal(back, back2), "second JSON round trip of %s changes it", name);
  rc = fbe_msg_to_json(back2, 0, &json3, &err);
  FUZZ_CHECK(rc == FBE_OK && same_bytes(&json2, &json3), "JSON of %s is not a fixed point:\n  %.*s",
             name, (int)(json2.size > 300 ? 300 : json2.size), (const char *)json2.data);
  /* The indented form reads back to the same message as the compact one. */
  rc = fbe_msg_to_json(msg, 1, &pretty, &err);
  FUZZ_CHECK(rc == FBE_OK, "pretty JSON fails where compact JSON works: %s", err.message);
  fbe_msg *back_pretty = json_read_back(st, &pretty, arena, "pretty", cost);
  FUZZ_CHECK(fbe_msg_equal(back, back_pretty), "pretty and compact JSON of %s differ", name);
  fbe_arena_free(arena);
  fbe_buffer_free(&json);
  fbe_buffer_free(&json2);
  fbe_buffer_free(&json3);
  fbe_buffer_free(&pretty);
}

/* ------------------------------------------------------------------ messages */

/* Equality after a standard-model round trip. FORMAT.md 5.10: a null optional *field*
 * reads back as the field's declared default when it has a non-null one (`bool? f101 =
 * true` written as null reads back true), so b may hold that default where a is null:
 * the declared constant, or any value for utc/uuid1/uuid4. Elsewhere exact. */
static int std_equal(const fbe_type *t, const uint8_t *a, const uint8_t *b) {
  switch (t->wire) {
    case FBE_KIND_STRUCT: {
      const fbe_struct *st = t->st;
      for (uint32_t i = 0; i < st->nfields; i++) {
        const fbe_field *f = &st->fields[i];
        const uint8_t *fa = a + f->mem_offset, *fb = b + f->mem_offset;
        if (f->type->wire == FBE_KIND_OPTIONAL) {
          const uint8_t *va = *(const uint8_t *const *)(const void *)fa;
          const uint8_t *vb = *(const uint8_t *const *)(const void *)fb;
          if (!va && vb) {
            const uint8_t *image = (const uint8_t *)st->defaults + f->mem_offset;
            const uint8_t *def = *(const uint8_t *const *)(const void *)image;
            if (f->def.kind >= FBE_DEF_UTC) continue; /* evaluated when read */
            if (f->def.kind == FBE_DEF_NONE || f->def.kind == FBE_DEF_NULL || !def ||
                !std_equal(f->type->elem, def, vb))
              return 0;
            continue;
          }
        }
        if (!std_equal(f->type, fa, fb)) return 0;
      }
      return 1;
    }
    case FBE_KIND_OPTIONAL: {
      const uint8_t *va = *(const uint8_t *const *)(const void *)a;
      const uint8_t *vb = *(const uint8_t *const *)(const void *)b;
      if (!va || !vb) return va == vb;
      return std_equal(t->elem, va, vb);
    }
    case FBE_KIND_ARRAY:
      for (uint32_t i = 0; i < t->array_size; i++) {
        size_t off = (size_t)i * t->elem->mem_size;
        if (!std_equal(t->elem, a + off, b + off)) return 0;
      }
      return 1;
    case FBE_KIND_VECTOR: case FBE_KIND_MAP: {
      const fbei_vec *va = (const fbei_vec *)(const void *)a, *vb = (const fbei_vec *)(const void *)b;
      if (va->count != vb->count) return 0;
      const uint8_t *pa = va->data, *pb = vb->data;
      for (uint32_t i = 0; i < va->count; i++) {
        if (t->wire == FBE_KIND_VECTOR) {
          size_t off = (size_t)i * t->elem->mem_size;
          if (!std_equal(t->elem, pa + off, pb + off)) return 0;
        } else {
          size_t off = (size_t)i * t->pair_stride;
          if (!std_equal(t->key, pa + off, pb + off) ||
              !std_equal(t->elem, pa + off + t->pair_value_offset, pb + off + t->pair_value_offset))
            return 0;
        }
      }
      return 1;
    }
    default: { /* leaves: the library's own equality (floats by bits, decimals by value) */
      fbe_ref ra = {t, (void *)a, NULL}, rb = {t, (void *)b, NULL};
      return fbe_ref_equal(ra, rb);
    }
  }
}

static const char *model_name(fbe_model model) {
  return model == FBE_MODEL_FINAL ? "final" : "standard";
}

void fuzz_check_message(const fbe_msg *msg, fuzz_origin origin) {
  const fbe_struct *st = fbe_msg_type(msg);
  const char *name = fbe_struct_full_name(st);
  FUZZ_CHECK(fbe_msg_equal(msg, msg), "%s is not equal to itself", name);
  for (int m = 0; m < 2; m++) {
    fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbe_buffer bytes, again;
    fbe_buffer_init(&bytes);
    fbe_buffer_init(&again);
    fbe_error err;
    fbe_status rc = fbe_encode(msg, model, &bytes, &err);
    if (rc) {
      /* Only a message read from JSON may nest deeper than any decoder accepts. */
      FUZZ_CHECK(origin == FUZZ_FROM_JSON && rc == FBE_ERR_LIMIT, "fbe_encode(%s, %s): %s: %s",
                 name, model_name(model), fbe_status_name(rc), err.message);
      fbe_buffer_free(&bytes);
      continue;
    }
    size_t verified = 0, decoded = 0;
    /* The default budget is for the bytes: an encoding can be far shorter than what its
     * value costs (empty structs take no byte in the final model), so the value's own
     * cost is allowed too (null optionals may read back as their defaults: twice). */
    fbe_limits fit = {0, 0, fbe_limits_memory(NULL, bytes.size) + 4 * fbei_msg_cost(msg)};
    rc = fbe_verify(st, model, bytes.data, bytes.size, &fit, &verified, &err);
    FUZZ_CHECK(rc == FBE_OK, "%s model of %s as encoded fails verify: %s (offset %zu, path '%s')",
               model_name(model), name, err.message, err.offset, err.path);
    FUZZ_CHECK(verified == bytes.size, "verify says %zu bytes, encode wrote %zu", verified,
               bytes.size);
    fbe_arena *arena = fbe_arena_new();
    FUZZ_CHECK(arena != NULL, "out of memory");
    fbe_msg *back = NULL;
    rc = fbe_decode(st, model, bytes.data, bytes.size, arena, &fit, &back, &decoded, &err);
    FUZZ_CHECK(rc == FBE_OK, "%s model of %s as encoded fails decode: %s (offset %zu, path '%s')",
               model_name(model), name, err.message, err.offset, err.path);
    FUZZ_CHECK(decoded == bytes.size, "decode says %zu bytes, encode wrote %zu", decoded,
               bytes.size);
    int exact = fbe_msg_equal(msg, back);
    FUZZ_CHECK(exact || (model == FBE_MODEL_STANDARD &&
                         std_equal(st->self_type, fbei_msg_data(msg), fbei_msg_data(back))),
               "%s model of %s decodes to another message", model_name(model), name);
    rc = fbe_encode(back, model, &again, &err);
    FUZZ_CHECK(rc == FBE_OK, "re-encoding the decoded %s fails: %s", name, err.message);
    FUZZ_CHECK(!exact || same_bytes(&again, &bytes),
               "%s model of %s: encode(decode(encode(m))) != encode(m)", model_name(model), name);
    if (!exact) { /* null optionals became their defaults: from here on it is exact */
      fbe_msg *back2 = NULL;
      rc = fbe_verify(st, model, again.data, again.size, &fit, NULL, &err);
      FUZZ_CHECK(rc == FBE_OK, "re-encoded %s fails verify: %s", name, err.message);
      rc = fbe_decode(st, model, again.data, again.size, arena, &fit, &back2, NULL, &err);
      FUZZ_CHECK(rc == FBE_OK && fbe_msg_equal(back, back2),
                 "second standard round trip of %s changes it", name);
    }
    fbe_arena_free(arena);
    fbe_buffer_free(&bytes);
    fbe_buffer_free(&again);
  }
  check_json(msg);
}

/* A lazy view (fbe_view_open_lazy) of the same bytes: refused at the open with verify's
 * very error; else, read whole, it finds no fault when verify accepts the bytes (and
 * materializes), and a fault when verify refuses them for a value (not a rule of the
 * whole model), materializing with verify's error then. */
static void fuzz_check_lazy_view(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                                 const fbe_limits *limits, fbe_status vrc, const fbe_error *verr, fbe_arena *arena) {
  const char *name = fbe_struct_full_name(type);
  fbe_view v;
  fbe_error lerr;
  fbe_status lrc = fbe_view_open_lazy(type, model, data, size, limits, &v, &lerr);
  if (lrc) {
    FUZZ_CHECK(lrc == vrc && lerr.offset == verr->offset && !strcmp(lerr.message, verr->message),
               "lazy open of %s: %s '%s', verify: %s '%s'", name, fbe_status_name(lrc), lerr.message,
               fbe_status_name(vrc), verr->message);
    return;
  }
  size_t bad = t_view_walk(v, 64);
  fbe_msg *m = NULL;
  fbe_status mrc = fbe_view_to_msg(v, arena, limits, &m, &lerr);
  if (vrc == FBE_OK) {
    FUZZ_CHECK(!bad && mrc == FBE_OK, "a lazy view of %s that verifies: %zu faults, materialized: %s", name, bad,
               fbe_status_name(mrc));
  } else if (!t_whole_model_rule(verr)) {
    FUZZ_CHECK(bad > 0, "a lazy view of %s read whole without a fault; verify: %s", name, verr->message);
    FUZZ_CHECK(mrc == vrc && !strcmp(lerr.message, verr->message) && lerr.offset == verr->offset,
               "a lazy view of %s materialized: %s '%s', verify: '%s'", name, fbe_status_name(mrc), lerr.message,
               verr->message);
  }
  fbe_arena_reset(arena);
}

void fuzz_check_bytes(const fbe_struct *type, fbe_model model, const uint8_t *data, size_t size,
                      const fbe_limits *limits) {
  const char *name = fbe_struct_full_name(type);
  const unsigned allowed = FUZZ_CODE(FBE_ERR_MALFORMED) | FUZZ_CODE(FBE_ERR_LIMIT);
  fbe_error verr, derr;
  size_t verified = 0, decoded = 0;
  fbei_cost_report vcost = {0, 0}, dcost = {0, 0};
  fbe_status vrc = fbei_verify_report(type, model, data, size, limits, &verified, &vcost, &verr);
  if (vrc) fuzz_check_error("fbe_verify", vrc, &verr, allowed, size);
  else FUZZ_CHECK(verified <= size, "verify says %zu bytes of %zu", verified, size);
  /* A model size over the limit is refused before anything else (codec.h). */
  uint32_t claimed = size >= 4 ? (uint32_t)data[0] | (uint32_t)data[1] << 8 |
                                     (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24
                               : 0;
  uint64_t max_size = fbei_limits_size(limits);
  int over = claimed > max_size;
  FUZZ_CHECK(!over || vrc == FBE_ERR_LIMIT, "verify of a %u-byte model (limit %llu): %s", claimed,
             (unsigned long long)max_size, fbe_status_name(vrc));

  /* Verify's work is bounded by its charge: every value it walks costs FBE_VALUE_CHARGE
   * at least, so its time is linear in the budget (and the budget in the input). */
  FUZZ_CHECK(vcost.visits * FBE_VALUE_CHARGE <= vcost.charged,
             "verify of %s walked %llu values for %llu bytes charged", name,
             (unsigned long long)vcost.visits, (unsigned long long)vcost.charged);
  FUZZ_CHECK(vrc || vcost.charged <= fbe_limits_memory(limits, verified),
             "verify of %s charged %llu bytes, over its budget", name, (unsigned long long)vcost.charged);

  fbe_arena *arena = fbe_arena_new();
  FUZZ_CHECK(arena != NULL, "out of memory");
  fuzz_check_lazy_view(type, model, data, size, limits, vrc, &verr, arena);
  /* The default decode gives verify's verdict, and verify's very error when it refuses. */
  fbe_msg *checked = NULL;
  fbe_error cerr;
  fbe_status crc = fbe_decode(type, model, data, size, arena, limits, &checked, NULL, &cerr);
  if (vrc)
    FUZZ_CHECK(crc == vrc && cerr.code == verr.code && cerr.offset == verr.offset &&
                   !strcmp(cerr.message, verr.message) && !strcmp(cerr.path, verr.path) && !checked,
               "fbe_decode of %s: %s '%s' (offset %zu, path '%s'), verify: %s '%s' (offset %zu, path '%s')",
               name, fbe_status_name(crc), cerr.message, cerr.offset, cerr.path, fbe_status_name(vrc),
               verr.message, verr.offset, verr.path);
  else
    FUZZ_CHECK(crc == FBE_OK, "%s model of %s passes verify but fails decode: %s",
               model_name(model), name, cerr.message);
  fbe_arena_reset(arena);
  /* The decoder itself (fbe_decode_trusted) on hostile bytes: an error or a value. */
  fbe_msg *msg = NULL;
  fbe_status drc = fbei_decode_trusted_report(type, model, data, size, arena, limits, &msg, &decoded,
                                             &dcost, &derr);
  FUZZ_CHECK(!over || drc == FBE_ERR_LIMIT, "decode of a %u-byte model (limit %llu): %s", claimed,
             (unsigned long long)max_size, fbe_status_name(drc));
  if (drc) {
    fuzz_check_error("fbe_decode_trusted", drc, &derr, allowed, size);
    FUZZ_CHECK(vrc != FBE_OK,
               "%s model of %s passes verify but fails decode: %s (offset %zu, path '%s')",
               model_name(model), name, derr.message, derr.offset, derr.path);
    FUZZ_CHECK(msg == NULL, "failed decode returned a message");
  } else {
    FUZZ_CHECK(msg != NULL && fbe_msg_type(msg) == type, "decode returned no message");
    FUZZ_CHECK(decoded <= size, "decode says %zu bytes of %zu", decoded, size);
    if (!vrc)
      FUZZ_CHECK(decoded == verified, "decode says %zu bytes, verify %zu", decoded, verified);
    /* One cost function (cost.h): verify charged what decode charged, to the byte, and
     * the decoded value costs that (less, when a set or map had duplicate keys: they were
     * charged, and a reader keeps one entry per key, keys.c); both within the budget. */
    uint64_t budget = fbe_limits_memory(limits, decoded);
    uint64_t cost = fbei_msg_cost(msg);
    FUZZ_CHECK(cost <= dcost.charged, "decoding %s charged %llu bytes, the value costs %llu", name,
               (unsigned long long)dcost.charged, (unsigned long long)cost);
    FUZZ_CHECK(vrc != FBE_OK || vcost.charged == dcost.charged,
               "verify of %s charged %llu bytes, decode %llu", name, (unsigned long long)vcost.charged,
               (unsigned long long)dcost.charged);
    FUZZ_CHECK(cost <= budget, "decoding %s cost %llu bytes, over the budget of %llu", name,
               (unsigned long long)cost, (unsigned long long)budget);
    /* Memory used <= budget: the arena holds what was charged (every allocation rounded to
     * 8, plus a red zone of 8 under ASan), in blocks that at most double. */
    uint64_t bound = 2 * (2 * dcost.charged) + 8192;
    FUZZ_CHECK(fbe_arena_reserved(arena) <= bound,
               "decoding %zu bytes of %s reserved %zu bytes (bound %llu)", decoded, name,
               fbe_arena_reserved(arena), (unsigned long long)bound);
    fuzz_check_message(msg, FUZZ_FROM_WIRE);
  }
  fbe_arena_free(arena);
}

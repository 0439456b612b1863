/* Shared helpers for the cmocka unit tests of the codec and the dynamic messages:
 * schema loading, hex dumps, byte comparison, path navigation, typed setters and
 * getters, and builders for the worked examples of FORMAT.md section 11.
 *
 * Header only, every function static inline (no unused-function warnings). Not a
 * test itself: the build compiles tests/test_*.c only. */
#ifndef FBE_TEST_H
#define FBE_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "fbe/fbe.h"

#ifndef FBE_SCHEMAS_DIR
#error "FBE_SCHEMAS_DIR must be defined by the build"
#endif

/* ------------------------------------------------------------------ schemas */

static inline void t_print_diags(const fbe_diagnostics *d) {
  for (size_t i = 0; i < d->count; i++) {
    char line[512];
    fbe_diagnostic_format(&d->items[i], line, sizeof line);
    print_message("  %s\n", line);
  }
}

/* Loads FBE_SCHEMAS_DIR/<file> (imports resolved in the same directory). */
static inline fbe_schema *t_load(const char *file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", FBE_SCHEMAS_DIR, file);
  const char *dirs[] = {FBE_SCHEMAS_DIR};
  fbe_load_options opts = {dirs, 1};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *s = fbe_schema_load_file(path, &opts, &diags);
  if (!s) {
    print_message("loading %s failed:\n", path);
    t_print_diags(&diags);
  }
  fbe_diagnostics_free(&diags);
  if (!s) fail_msg("schema %s did not load", path);
  return s;
}

/* Loads a schema from text (for small purpose-built schemas). */
static inline fbe_schema *t_load_text(const char *text, const char *name) {
  const char *dirs[] = {FBE_SCHEMAS_DIR};
  fbe_load_options opts = {dirs, 1};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *s = fbe_schema_load_string(text, strlen(text), name, &opts, &diags);
  if (!s) {
    print_message("loading schema text '%s' failed:\n", name);
    t_print_diags(&diags);
  }
  fbe_diagnostics_free(&diags);
  if (!s) fail_msg("schema text %s did not load", name);
  return s;
}

static inline const fbe_struct *t_struct(const fbe_schema *s, const char *name) {
  const fbe_struct *st = fbe_schema_find_struct(s, name);
  if (!st) fail_msg("struct %s not found", name);
  return st;
}

/* ------------------------------------------------------------------ hex */

/* Parses a hex dump: whitespace-separated two-digit bytes; tokens ending in ':'
 * (the "0010:" offsets of FORMAT.md dumps) are skipped. Returns a malloc'd buffer of
 * exactly *n bytes (at least 1 byte allocated), which the caller frees. */
static inline uint8_t *t_hex(const char *text, size_t *n) {
  size_t cap = strlen(text) / 2 + 1;
  uint8_t *out = malloc(cap);
  assert_non_null(out);
  size_t count = 0;
  const char *p = text;
  while (*p) {
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    if (!*p) break;
    const char *tok = p;
    while (*p && *p != ' ' && *p != '\n' && *p != '\t' && *p != '\r') p++;
    size_t len = (size_t)(p - tok);
    if (tok[len - 1] == ':') continue; /* offset column */
    if (len != 2) fail_msg("bad hex token '%.*s'", (int)len, tok);
    unsigned v;
    if (sscanf(tok, "%2x", &v) != 1) fail_msg("bad hex token '%.*s'", (int)len, tok);
    out[count++] = (uint8_t)v;
  }
  /* Shrink to the exact size so that AddressSanitizer catches any read past the end. */
  uint8_t *exact = malloc(count ? count : 1);
  assert_non_null(exact);
  memcpy(exact, out, count);
  free(out);
  *n = count;
  return exact;
}

/* A copy of data[0..n) in a fresh malloc'd block of exactly n bytes. */
static inline uint8_t *t_dup(const uint8_t *data, size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  assert_non_null(p);
  if (n) memcpy(p, data, n);
  return p;
}

/* The bytes of b as a fresh malloc'd block (free() it) with a NUL after them; frees b
 * (a buffer's memory belongs to the core: only fbe_buffer_free releases it). */
static inline char *t_buffer_take(fbe_buffer *b) {
  char *p = malloc(b->size + 1);
  assert_non_null(p);
  if (b->size) memcpy(p, b->data, b->size);
  p[b->size] = '\0';
  fbe_buffer_free(b);
  return p;
}

static inline void t_dump(const char *title, const uint8_t *p, size_t n) {
  print_message("%s (%zu bytes):\n", title, n);
  for (size_t i = 0; i < n; i += 16) {
    char line[80];
    int k = snprintf(line, sizeof line, "%04zx:", i);
    for (size_t j = i; j < n && j < i + 16; j++)
      k += snprintf(line + k, sizeof line - (size_t)k, " %02x", p[j]);
    print_message("%s\n", line);
  }
}

/* Asserts that got[0..n) equals exp[0..en), dumping both on a difference. */
static inline void t_assert_mem(const uint8_t *got, size_t n, const uint8_t *exp, size_t en) {
  size_t first = (size_t)-1;
  for (size_t i = 0; i < n && i < en; i++)
    if (got[i] != exp[i]) {
      first = i;
      break;
    }
  if (n != en || first != (size_t)-1) {
    t_dump("expected", exp, en);
    t_dump("got", got, n);
    if (n != en) fail_msg("size %zu, expected %zu", n, en);
    fail_msg("first difference at offset 0x%04zx", first);
  }
}

/* Asserts that got[0..n) is exactly the bytes of the hex dump `expected`. */
static inline void t_assert_bytes(const uint8_t *got, size_t n, const char *expected) {
  size_t en;
  uint8_t *exp = t_hex(expected, &en);
  size_t first = (size_t)-1;
  for (size_t i = 0; i < n && i < en; i++)
    if (got[i] != exp[i]) {
      first = i;
      break;
    }
  if (n != en || first != (size_t)-1) {
    t_dump("expected", exp, en);
    t_dump("got", got, n);
  }
  free(exp); /* once: GCC cannot tell that fail_msg does not return */
  if (n != en) fail_msg("size %zu, expected %zu", n, en);
  if (first != (size_t)-1) fail_msg("first difference at offset 0x%04zx", first);
}

/* Little-endian u32 access in a byte buffer (for patching hostile inputs). */
static inline void t_put32(uint8_t *p, size_t at, uint32_t v) {
  p[at] = (uint8_t)v;
  p[at + 1] = (uint8_t)(v >> 8);
  p[at + 2] = (uint8_t)(v >> 16);
  p[at + 3] = (uint8_t)(v >> 24);
}
static inline uint32_t t_get32(const uint8_t *p, size_t at) {
  return (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 |
         (uint32_t)p[at + 3] << 24;
}

/* ------------------------------------------------------------------ navigation */

/* Follows a path like "wallet.currency" or "orders[1].symbol" or "f9[0].f2" from r.
 * Every step must exist (optionals are not dereferenced: use t_emplace/t_deref). */
static inline fbe_ref t_path(fbe_ref r, const char *path) {
  const char *p = path;
  while (*p) {
    if (*p == '.') p++;
    if (*p == '[') {
      char *end;
      unsigned long i = strtoul(p + 1, &end, 10);
      if (*end != ']') fail_msg("bad path %s", path);
      r = fbe_ref_at(r, i);
      p = end + 1;
    } else {
      char name[64];
      size_t n = 0;
      while (*p && *p != '.' && *p != '[' && n + 1 < sizeof name) name[n++] = *p++;
      name[n] = '\0';
      r = fbe_ref_field(r, name);
    }
    if (!fbe_ref_ok(r)) fail_msg("path %s: no such value (at '%s')", path, p);
  }
  return r;
}

static inline fbe_ref t_emplace(fbe_ref r, const char *path) {
  fbe_ref v = fbe_ref_emplace(t_path(r, path));
  if (!fbe_ref_ok(v)) fail_msg("emplace %s failed", path);
  return v;
}

static inline fbe_ref t_deref(fbe_ref r, const char *path) {
  fbe_ref v = fbe_ref_deref(t_path(r, path));
  if (!fbe_ref_ok(v)) fail_msg("%s is null", path);
  return v;
}

static inline fbe_ref t_append(fbe_ref r, const char *path) {
  fbe_ref v = fbe_ref_append(*path ? t_path(r, path) : r);
  if (!fbe_ref_ok(v)) fail_msg("append to %s failed", path);
  return v;
}

/* ------------------------------------------------------------------ setters */

#define T_CHECK(call, what)                                                          \
  do {                                                                               \
    fbe_status st_ = (call);                                                         \
    if (st_ != FBE_OK) fail_msg("%s: %s failed: %s", what, #call, fbe_status_name(st_)); \
  } while (0)

static inline void t_set_int(fbe_ref r, const char *path, int64_t v) {
  T_CHECK(fbe_ref_set_int(*path ? t_path(r, path) : r, v, NULL), path);
}
static inline void t_set_uint(fbe_ref r, const char *path, uint64_t v) {
  T_CHECK(fbe_ref_set_uint(*path ? t_path(r, path) : r, v, NULL), path);
}
static inline void t_set_dbl(fbe_ref r, const char *path, double v) {
  T_CHECK(fbe_ref_set_double(*path ? t_path(r, path) : r, v, NULL), path);
}
static inline void t_set_bool(fbe_ref r, const char *path, int v) {
  T_CHECK(fbe_ref_set_bool(*path ? t_path(r, path) : r, v, NULL), path);
}
static inline void t_set_str(fbe_ref r, const char *path, const char *v) {
  T_CHECK(fbe_ref_set_string(*path ? t_path(r, path) : r, v, NULL), path);
}
static inline void t_set_bytes(fbe_ref r, const char *path, const void *v, size_t n) {
  T_CHECK(fbe_ref_set_bytes(*path ? t_path(r, path) : r, v, n, NULL), path);
}
static inline fbe_decimal t_dec(const char *text) {
  fbe_decimal d;
  T_CHECK(fbe_decimal_parse(text, strlen(text), &d), text);
  return d;
}
static inline void t_set_dec(fbe_ref r, const char *path, const char *text) {
  fbe_decimal d = t_dec(text);
  T_CHECK(fbe_ref_set_decimal(*path ? t_path(r, path) : r, &d, NULL), path);
}
static inline fbe_uuid t_uuid(const char *text) {
  fbe_uuid u;
  T_CHECK(fbe_uuid_parse(text, strlen(text), &u), text);
  return u;
}
static inline void t_set_uuid(fbe_ref r, const char *path, const char *text) {
  fbe_uuid u = t_uuid(text);
  T_CHECK(fbe_ref_set_uuid(*path ? t_path(r, path) : r, &u, NULL), path);
}

/* ------------------------------------------------------------------ getters */

static inline int64_t t_int(fbe_ref r, const char *path) {
  int64_t v = 0;
  T_CHECK(fbe_ref_get_int(*path ? t_path(r, path) : r, &v), path);
  return v;
}
static inline uint64_t t_uint(fbe_ref r, const char *path) {
  uint64_t v = 0;
  T_CHECK(fbe_ref_get_uint(*path ? t_path(r, path) : r, &v), path);
  return v;
}
static inline double t_dbl(fbe_ref r, const char *path) {
  double v = 0;
  T_CHECK(fbe_ref_get_double(*path ? t_path(r, path) : r, &v), path);
  return v;
}
static inline int t_bool(fbe_ref r, const char *path) {
  int v = 0;
  T_CHECK(fbe_ref_get_bool(*path ? t_path(r, path) : r, &v), path);
  return v;
}
/* Asserts that the string/bytes value at path is exactly `expected` (n bytes). */
static inline void t_assert_blob(fbe_ref r, const char *path, const void *expected, size_t n) {
  const uint8_t *data = NULL;
  size_t size = 0;
  T_CHECK(fbe_ref_get_bytes(*path ? t_path(r, path) : r, &data, &size), path);
  if (size != n || (n && memcmp(data, expected, n) != 0))
    fail_msg("%s: got \"%.*s\" (%zu bytes), expected \"%.*s\" (%zu bytes)", path, (int)size,
             (const char *)data, size, (int)n, (const char *)expected, n);
}
static inline void t_assert_str(fbe_ref r, const char *path, const char *expected) {
  t_assert_blob(r, path, expected, strlen(expected));
}
static inline void t_assert_null(fbe_ref r, const char *path) {
  fbe_ref o = t_path(r, path);
  if (fbe_ref_kind(o) != FBE_KIND_OPTIONAL) fail_msg("%s is not an optional", path);
  if (!fbe_ref_is_null(o)) fail_msg("%s: expected null", path);
}

/* Nanoseconds since the epoch, for bracketing "utc" defaults. */
#if defined(_WIN32) && !defined(TIME_UTC)
/* mingw-w64 over msvcrt has no timespec_get: the system time, 100 ns since 1601. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
static inline uint64_t t_now_ns(void) {
  FILETIME ft;
  GetSystemTimePreciseAsFileTime(&ft);
  uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
  return (t - 116444736000000000u) * 100u;
}
#else
static inline uint64_t t_now_ns(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* ------------------------------------------------------------------ codec shortcuts */

/* Encodes msg into a fresh buffer (caller frees with fbe_buffer_free). */
static inline fbe_buffer t_encode(const fbe_msg *msg, fbe_model model) {
  fbe_buffer b;
  fbe_buffer_init(&b);
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = fbe_encode(msg, model, &b, &err);
  if (s != FBE_OK) fail_msg("encode failed: %s %s", fbe_status_name(s), err.message);
  return b;
}

typedef fbe_status (*t_decode_fn)(const fbe_struct *, fbe_model, const uint8_t *, size_t, fbe_arena *,
                                  const fbe_limits *, fbe_msg **, size_t *, fbe_error *);

/* Decodes data[0..n) (copied to an exact-size block) with `decode` (fbe_decode or
 * fbe_decode_trusted) and asserts success and that the model occupies all n bytes. */
static inline fbe_msg *t_decode_with(t_decode_fn decode, const fbe_struct *st, fbe_model model,
                                     const uint8_t *data, size_t n, fbe_arena *arena) {
  uint8_t *copy = t_dup(data, n);
  fbe_msg *out = NULL;
  size_t model_size = 0;
  fbe_error err;
  memset(&err, 0, sizeof err);
  fbe_status s = decode(st, model, copy, n, arena, NULL, &out, &model_size, &err);
  free(copy);
  if (s != FBE_OK) {
    char text[512];
    fbe_error_format(&err, text, sizeof text);
    fail_msg("decode of %s failed: %s: %s", fbe_struct_full_name(st), fbe_status_name(s), text);
  }
  assert_non_null(out);
  assert_int_equal(model_size, n);
  return out;
}

/* The default, verifying decode. */
static inline fbe_msg *t_decode(const fbe_struct *st, fbe_model model, const uint8_t *data,
                                size_t n, fbe_arena *arena) {
  return t_decode_with(fbe_decode, st, model, data, n, arena);
}

/* The decode of bytes one trusts (no verify): what readers of FORMAT.md 5.10 read. */
static inline fbe_msg *t_decode_trusted(const fbe_struct *st, fbe_model model, const uint8_t *data,
                                        size_t n, fbe_arena *arena) {
  return t_decode_with(fbe_decode_trusted, st, model, data, n, arena);
}

/* Asserts that fbe_verify refuses data[0..n) and that fbe_decode refuses it with the
 * very same error (status, reason, path, offset), producing no message. */
static inline void t_assert_decode_refused_as_verify(const fbe_struct *st, fbe_model model,
                                                     const uint8_t *data, size_t n, fbe_arena *arena) {
  uint8_t *copy = t_dup(data, n);
  fbe_error verr, derr;
  memset(&verr, 0, sizeof verr);
  memset(&derr, 0, sizeof derr);
  fbe_msg *out = (fbe_msg *)(void *)&verr; /* must be set to NULL */
  size_t model_size = 12345;
  fbe_status vs = fbe_verify(st, model, copy, n, NULL, NULL, &verr);
  fbe_status ds = fbe_decode(st, model, copy, n, arena, NULL, &out, &model_size, &derr);
  free(copy);
  if (vs == FBE_OK) fail_msg("verify accepts the bytes given to t_assert_decode_refused_as_verify");
  assert_int_equal(ds, vs);
  assert_int_equal(derr.code, verr.code);
  assert_string_equal(derr.message, verr.message);
  assert_string_equal(derr.path, verr.path);
  assert_int_equal(derr.offset, verr.offset);
  assert_null(out);
  assert_int_equal(model_size, 12345); /* untouched on failure */
}

static inline fbe_msg *t_new(fbe_arena *arena, const fbe_struct *st) {
  fbe_msg *m = fbe_msg_new(arena, st);
  if (!m) fail_msg("fbe_msg_new(%s) failed", fbe_struct_full_name(st));
  return m;
}

/* ------------------------------------------------------------------ FORMAT.md 11 */

/* Appends proto.Order {id, symbol, side, type, price, volume} to an Order[] value. */
static inline void t_add_order(fbe_ref orders, int id, const char *symbol, int side, int type,
                               double price, double volume) {
  fbe_ref o = t_append(orders, "");
  t_set_int(o, "id", id);
  t_set_str(o, "symbol", symbol);
  t_set_int(o, "side", side);
  t_set_int(o, "type", type);
  t_set_dbl(o, "price", price);
  t_set_dbl(o, "volume", volume);
}

/* The proto.Account of FORMAT.md 11.1/11.2, built field by field. */
static inline fbe_msg *t_build_account(fbe_arena *a, const fbe_struct *account) {
  fbe_msg *m = t_new(a, account);
  fbe_ref r = fbe_msg_ref(m);
  t_set_int(r, "id", 1);
  t_set_str(r, "name", "Test");
  t_set_uint(r, "state", 0x06); /* good = initialized | calculated */
  t_set_str(r, "wallet.currency", "USD");
  t_set_dbl(r, "wallet.amount", 1000.0);
  fbe_ref asset = t_emplace(r, "asset");
  t_set_str(asset, "currency", "EUR");
  t_set_dbl(asset, "amount", 100.0);
  fbe_ref orders = t_path(r, "orders");
  t_add_order(orders, 1, "EURUSD", 0, 0, 1.23456, 1000.0); /* buy, market */
  t_add_order(orders, 2, "EURUSD", 1, 1, 1.0, 100.0);      /* sell, limit */
  t_add_order(orders, 3, "EURUSD", 0, 2, 1.5, 10.0);       /* buy, stop */
  return m;
}

/* test.StructBytes of 11.3: f1 = "ABC", f2 = "xy", f3 = null. */
static inline fbe_msg *t_build_bytes(fbe_arena *a, const fbe_struct *st) {
  fbe_msg *m = t_new(a, st);
  fbe_ref r = fbe_msg_ref(m);
  t_set_bytes(r, "f1", "ABC", 3);
  t_set_bytes(t_emplace(r, "f2"), "", "xy", 2);
  T_CHECK(fbe_ref_set_null(t_path(r, "f3"), NULL), "f3");
  return m;
}

/* test.StructVector (or StructList) of 11.3. */
static inline fbe_msg *t_build_vector(fbe_arena *a, const fbe_struct *st) {
  fbe_msg *m = t_new(a, st);
  fbe_ref r = fbe_msg_ref(m);
  t_set_uint(t_append(r, "f1"), "", 0x11);
  t_set_uint(t_append(r, "f1"), "", 0x22);
  t_set_uint(fbe_ref_emplace(t_append(r, "f2")), "", 0x33);
  t_append(r, "f2"); /* null */
  t_set_bytes(t_append(r, "f3"), "", "A", 1);
  t_append(r, "f4"); /* null */
  t_set_bytes(fbe_ref_emplace(t_append(r, "f4")), "", "B", 1);
  t_set_int(t_append(r, "f5"), "", 1);                   /* ENUM_VALUE_1 */
  t_set_int(fbe_ref_emplace(t_append(r, "f6")), "", 2);  /* ENUM_VALUE_2 */
  t_append(r, "f6");                                     /* null */
  t_set_int(t_append(r, "f7"), "", 1);                   /* FLAG_VALUE_1 */
  t_append(r, "f8");                                     /* null */
  return m;
}

/* test.StructMap of 11.3: f1 = {1: 0x11, 2: 0x22}, f2 = {3: null, 4: 0x44}, f3 = {5: "AB"}. */
static inline fbe_msg *t_build_map(fbe_arena *a, const fbe_struct *st) {
  fbe_msg *m = t_new(a, st);
  fbe_ref r = fbe_msg_ref(m), v, k;
  k = fbe_ref_map_append(t_path(r, "f1"), &v);
  t_set_int(k, "", 1);
  t_set_uint(v, "", 0x11);
  k = fbe_ref_map_append(t_path(r, "f1"), &v);
  t_set_int(k, "", 2);
  t_set_uint(v, "", 0x22);
  k = fbe_ref_map_append(t_path(r, "f2"), &v);
  t_set_int(k, "", 3);
  assert_true(fbe_ref_is_null(v));
  k = fbe_ref_map_append(t_path(r, "f2"), &v);
  t_set_int(k, "", 4);
  t_set_uint(fbe_ref_emplace(v), "", 0x44);
  k = fbe_ref_map_append(t_path(r, "f3"), &v);
  t_set_int(k, "", 5);
  t_set_bytes(v, "", "AB", 2);
  return m;
}

/* test.StructHash of 11.3: f1 = {"k": 0x11}, f3 = {"b": "Z"}. */
static inline fbe_msg *t_build_hash(fbe_arena *a, const fbe_struct *st) {
  fbe_msg *m = t_new(a, st);
  fbe_ref r = fbe_msg_ref(m), v, k;
  k = fbe_ref_map_append(t_path(r, "f1"), &v);
  t_set_str(k, "", "k");
  t_set_uint(v, "", 0x11);
  k = fbe_ref_map_append(t_path(r, "f3"), &v);
  t_set_str(k, "", "b");
  t_set_bytes(v, "", "Z", 1);
  return m;
}

/* protoex.Balance of 11.4: currency "USD", amount 1000.0, locked 12.5. */
static inline fbe_msg *t_build_balance_ex(fbe_arena *a, const fbe_struct *st) {
  fbe_msg *m = t_new(a, st);
  fbe_ref r = fbe_msg_ref(m);
  t_set_str(r, "currency", "USD");
  t_set_dbl(r, "amount", 1000.0);
  t_set_dbl(r, "locked", 12.5);
  return m;
}

/* test.StructSimple with a distinctive value in most scalar fields (the values whose
 * bytes FORMAT.md 3 lists), f31 = "", f32 = "ab", and fixed utc/uuid1 fields. */
static inline fbe_msg *t_build_simple(fbe_arena *arena, const fbe_struct *st) {
  fbe_msg *m = t_new(arena, st);
  fbe_ref r = fbe_msg_ref(m);
  t_set_int(r, "id", 0x01020304);
  t_set_bool(r, "f1", 1);
  t_set_uint(r, "f5", '!');
  t_set_uint(r, "f7", 0x0444);
  t_set_int(r, "f9", -1);
  t_set_int(r, "f13", -2);
  t_set_uint(r, "f15", 0x1234);
  t_set_int(r, "f17", -2);
  t_set_uint(r, "f19", 0xdeadbeefu);
  t_set_int(r, "f21", -2);
  t_set_uint(r, "f23", 0x0102030405060708u);
  t_set_dbl(r, "f25", 123.456); /* rounded to binary32 by the setter */
  t_set_dbl(r, "f27", -123.456e+123);
  t_set_dbl(r, "f28", 1000.0);
  t_set_dec(r, "f29", "123456.123456");
  t_set_str(r, "f31", "");
  t_set_str(r, "f32", "ab");
  t_set_uint(r, "f33", 1543145597933463000u);
  t_set_uint(r, "f35", 1);
  t_set_uuid(r, "f36", "123e4567-e89b-12d3-a456-426655440000");
  t_set_uuid(r, "f37", "00112233-4455-6677-8899-aabbccddeeff");
  t_set_uint(r, "f39", 1);
  t_set_uint(r, "f40", 2);
  t_set_uint(r, "f43", 0x0f);
  return m;
}

/* Hex of the worked examples, verbatim from FORMAT.md 11. */
#define T_ACCOUNT_STD                                       \
  "0000: fc 00 00 00 08 00 00 00 1e 00 00 00 03 00 00 00\n" \
  "0010: 01 00 00 00 1e 00 00 00 06 26 00 00 00 01 41 00\n" \
  "0020: 00 00 60 00 00 00 04 00 00 00 54 65 73 74 14 00\n" \
  "0030: 00 00 02 00 00 00 14 00 00 00 00 00 00 00 00 40\n" \
  "0040: 8f 40 03 00 00 00 55 53 44 04 00 00 00 14 00 00\n" \
  "0050: 00 02 00 00 00 14 00 00 00 00 00 00 00 00 00 59\n" \
  "0060: 40 03 00 00 00 45 55 52 03 00 00 00 70 00 00 00\n" \
  "0070: 9c 00 00 00 c8 00 00 00 22 00 00 00 01 00 00 00\n" \
  "0080: 01 00 00 00 22 00 00 00 00 00 38 32 8f fc c1 c0\n" \
  "0090: f3 3f 00 00 00 00 00 40 8f 40 06 00 00 00 45 55\n" \
  "00a0: 52 55 53 44 22 00 00 00 01 00 00 00 02 00 00 00\n" \
  "00b0: 22 00 00 00 01 01 00 00 00 00 00 00 f0 3f 00 00\n" \
  "00c0: 00 00 00 00 59 40 06 00 00 00 45 55 52 55 53 44\n" \
  "00d0: 22 00 00 00 01 00 00 00 03 00 00 00 22 00 00 00\n" \
  "00e0: 00 02 00 00 00 00 00 00 f8 3f 00 00 00 00 00 00\n" \
  "00f0: 24 40 06 00 00 00 45 55 52 55 53 44\n"

#define T_ACCOUNT_FIN                                       \
  "0000: 98 00 00 00 03 00 00 00 01 00 00 00 04 00 00 00\n" \
  "0010: 54 65 73 74 06 03 00 00 00 55 53 44 00 00 00 00\n" \
  "0020: 00 40 8f 40 01 03 00 00 00 45 55 52 00 00 00 00\n" \
  "0030: 00 00 59 40 03 00 00 00 01 00 00 00 06 00 00 00\n" \
  "0040: 45 55 52 55 53 44 00 00 38 32 8f fc c1 c0 f3 3f\n" \
  "0050: 00 00 00 00 00 40 8f 40 02 00 00 00 06 00 00 00\n" \
  "0060: 45 55 52 55 53 44 01 01 00 00 00 00 00 00 f0 3f\n" \
  "0070: 00 00 00 00 00 00 59 40 03 00 00 00 06 00 00 00\n" \
  "0080: 45 55 52 55 53 44 00 02 00 00 00 00 00 00 f8 3f\n" \
  "0090: 00 00 00 00 00 00 24 40\n"

/* Default proto.Account (11.3, standard). */
#define T_ACCOUNT_DEFAULT_STD                               \
  "0000: 46 00 00 00 08 00 00 00 1e 00 00 00 03 00 00 00\n" \
  "0010: 00 00 00 00 1e 00 00 00 0b 22 00 00 00 00 00 00\n" \
  "0020: 00 00 3a 00 00 00 00 00 00 00 14 00 00 00 02 00\n" \
  "0030: 00 00 14 00 00 00 00 00 00 00 00 00 00 00 00 00\n" \
  "0040: 00 00 00 00 00 00\n"

/* Default proto.Account, final: header(8) id(4) name(4) state(1) wallet(4+8)
 * asset flag(1) orders count(4) = 34 bytes (FORMAT.md 6.2). */
#define T_ACCOUNT_DEFAULT_FIN                               \
  "0000: 22 00 00 00 03 00 00 00 00 00 00 00 00 00 00 00\n" \
  "0010: 0b 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n" \
  "0020: 00 00\n"

#define T_EMPTY_STD "10 00 00 00 08 00 00 00 08 00 00 00 8f 00 00 00"
#define T_EMPTY_FIN "08 00 00 00 8f 00 00 00"

#define T_BYTES_STD                                         \
  "0000: 2f 00 00 00 08 00 00 00 16 00 00 00 78 00 00 00\n" \
  "0010: 16 00 00 00 01 1d 00 00 00 00 00 00 00 00 03 00\n" \
  "0020: 00 00 41 42 43 04 00 00 00 02 00 00 00 78 79\n"
#define T_BYTES_FIN \
  "17 00 00 00 78 00 00 00 03 00 00 00 41 42 43 01 02 00 00 00 78 79 00"

#define T_VECTOR_STD                                        \
  "0000: a4 00 00 00 08 00 00 00 30 00 00 00 82 00 00 00\n" \
  "0010: 30 00 00 00 36 00 00 00 45 00 00 00 52 00 00 00\n" \
  "0020: 69 00 00 00 71 00 00 00 83 00 00 00 8b 00 00 00\n" \
  "0030: 94 00 00 00 98 00 00 00 02 00 00 00 11 22 02 00\n" \
  "0040: 00 00 01 44 00 00 00 00 00 00 00 00 33 01 00 00\n" \
  "0050: 00 4d 00 00 00 01 00 00 00 41 02 00 00 00 00 00\n" \
  "0060: 00 00 00 01 60 00 00 00 04 00 00 00 01 00 00 00\n" \
  "0070: 42 01 00 00 00 01 00 00 00 02 00 00 00 01 7f 00\n" \
  "0080: 00 00 00 00 00 00 00 02 00 00 00 01 00 00 00 01\n" \
  "0090: 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00\n" \
  "00a0: 00 00 00 00\n"
#define T_VECTOR_FIN                                        \
  "0000: 50 00 00 00 82 00 00 00 02 00 00 00 11 22 02 00\n" \
  "0010: 00 00 01 33 00 01 00 00 00 01 00 00 00 41 02 00\n" \
  "0020: 00 00 00 01 01 00 00 00 42 01 00 00 00 01 00 00\n" \
  "0030: 00 02 00 00 00 01 02 00 00 00 00 01 00 00 00 01\n" \
  "0040: 00 00 00 01 00 00 00 00 00 00 00 00 00 00 00 00\n"

#define T_MAP_STD                                           \
  "0000: 8b 00 00 00 08 00 00 00 30 00 00 00 8c 00 00 00\n" \
  "0010: 30 00 00 00 3e 00 00 00 55 00 00 00 67 00 00 00\n" \
  "0020: 6b 00 00 00 6f 00 00 00 73 00 00 00 77 00 00 00\n" \
  "0030: 7b 00 00 00 7f 00 00 00 02 00 00 00 01 00 00 00\n" \
  "0040: 11 02 00 00 00 22 02 00 00 00 03 00 00 00 00 00\n" \
  "0050: 00 00 00 04 00 00 00 01 54 00 00 00 44 01 00 00\n" \
  "0060: 00 05 00 00 00 61 00 00 00 02 00 00 00 41 42 00\n" \
  "0070: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n" \
  "0080: 00 00 00 00 00 00 00 00 00 00 00\n"
#define T_MAP_FIN                                           \
  "0000: 4f 00 00 00 8c 00 00 00 02 00 00 00 01 00 00 00\n" \
  "0010: 11 02 00 00 00 22 02 00 00 00 03 00 00 00 00 04\n" \
  "0020: 00 00 00 01 44 01 00 00 00 05 00 00 00 02 00 00\n" \
  "0030: 00 41 42 00 00 00 00 00 00 00 00 00 00 00 00 00\n" \
  "0040: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n"

#define T_HASH_STD                                          \
  "0000: 7c 00 00 00 08 00 00 00 30 00 00 00 8d 00 00 00\n" \
  "0010: 30 00 00 00 3e 00 00 00 42 00 00 00 58 00 00 00\n" \
  "0020: 5c 00 00 00 60 00 00 00 64 00 00 00 68 00 00 00\n" \
  "0030: 6c 00 00 00 70 00 00 00 01 00 00 00 39 00 00 00\n" \
  "0040: 11 01 00 00 00 6b 00 00 00 00 01 00 00 00 4e 00\n" \
  "0050: 00 00 53 00 00 00 01 00 00 00 62 01 00 00 00 5a\n" \
  "0060: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n" \
  "0070: 00 00 00 00 00 00 00 00 00 00 00 00\n"
#define T_HASH_FIN                                          \
  "0000: 40 00 00 00 8d 00 00 00 01 00 00 00 01 00 00 00\n" \
  "0010: 6b 11 00 00 00 00 01 00 00 00 01 00 00 00 62 01\n" \
  "0020: 00 00 00 5a 00 00 00 00 00 00 00 00 00 00 00 00\n" \
  "0030: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n"

#define T_BALANCE_EX_STD                                    \
  "0000: 2b 00 00 00 08 00 00 00 1c 00 00 00 02 00 00 00\n" \
  "0010: 1c 00 00 00 00 00 00 00 00 40 8f 40 00 00 00 00\n" \
  "0020: 00 00 29 40 03 00 00 00 55 53 44\n"
#define T_BALANCE_EX_FIN                                                                   \
  "1f 00 00 00 02 00 00 00 03 00 00 00 55 53 44 00 00 00 00 00 40 8f 40 00 00 00 00 00 00 " \
  "29 40"

/* proto.Balance {"USD", 1000.0}: standard 35 bytes (body S=20 at 8, currency -> 0x1c),
 * final 23 bytes (message 2 of the stream in 11.5 without the message wrapper). */
#define T_BALANCE_STD                                       \
  "0000: 23 00 00 00 08 00 00 00 14 00 00 00 02 00 00 00\n" \
  "0010: 14 00 00 00 00 00 00 00 00 40 8f 40 03 00 00 00\n" \
  "0020: 55 53 44\n"
#define T_BALANCE_FIN \
  "17 00 00 00 02 00 00 00 03 00 00 00 55 53 44 00 00 00 00 00 40 8f 40"

/* The protocol stream of 11.5: OrderMessage then BalanceMessage. */
#define T_STREAM_STD                                        \
  "0000: 40 00 00 00 08 00 00 00 0c 00 00 00 01 00 00 00\n" \
  "0010: 0c 00 00 00 22 00 00 00 01 00 00 00 01 00 00 00\n" \
  "0020: 22 00 00 00 00 00 38 32 8f fc c1 c0 f3 3f 00 00\n" \
  "0030: 00 00 00 40 8f 40 06 00 00 00 45 55 52 55 53 44\n" \
  "0040: 2f 00 00 00 08 00 00 00 0c 00 00 00 02 00 00 00\n" \
  "0050: 0c 00 00 00 14 00 00 00 02 00 00 00 14 00 00 00\n" \
  "0060: 00 00 00 00 00 40 8f 40 03 00 00 00 55 53 44\n"
#define T_STREAM_FIN                                        \
  "0000: 28 00 00 00 01 00 00 00 01 00 00 00 06 00 00 00\n" \
  "0010: 45 55 52 55 53 44 00 00 38 32 8f fc c1 c0 f3 3f\n" \
  "0020: 00 00 00 00 00 40 8f 40 17 00 00 00 02 00 00 00\n" \
  "0030: 03 00 00 00 55 53 44 00 00 00 00 00 40 8f 40\n"

#endif

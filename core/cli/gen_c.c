/* `fbe gen c [-I DIR]... SCHEMA.fbe -o OUTDIR`: typed C code for every package of a
 * schema (core/GEN_C.md). For package P it writes P.h (types, enums, prototypes) and
 * P.c (codecs for both models, built on the field models of fbe/field.h).
 *
 * The generator walks the resolved schema model (core/src/schema_model.h), which
 * already holds the flattened fields, layouts, defaults and type ids. Every type gets
 * a C name (ctype) and, unless it is a scalar, string or struct, a mangled name
 * (vec_int32, opt_proto_Balance...) for its typedef and its static helpers. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#define make_dir(path) _mkdir(path)
#else
#define make_dir(path) mkdir(path, 0777)
#endif
#include "cli.h"
#include "fbe/internal/schema_model.h"
#include "fbe/internal/error.h"
#include "fbe/internal/cost.h"

#define NAME_MAX_LEN 512

/* ------------------------------------------------------------ names */

static const char *const C_KEYWORDS[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "bool", "true", "false",
    /* C11's reserved words (and C23's new keywords, so the code stays valid there) */
    "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
    "_Static_assert", "_Thread_local", "alignas", "alignof", "constexpr", "nullptr", "static_assert",
    "thread_local", "typeof", "typeof_unqual", NULL};

/* Object-like macros of the headers the generated code (or code including it) uses:
 * <stddef.h>, <stdint.h>, <stdbool.h>, <math.h>, <string.h>, <stdio.h>, <errno.h>, and
 * what GNU modes predefine. The reserved patterns are checked in is_macro_name. */
static const char *const C_MACROS[] = {
    "NULL", "errno", "EOF", "BUFSIZ", "FILENAME_MAX", "FOPEN_MAX", "L_tmpnam",
    "SEEK_CUR", "SEEK_END", "SEEK_SET", "TMP_MAX", "stdin", "stdout", "stderr", "NAN",
    "INFINITY", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "math_errhandling", "SIZE_MAX",
    "PTRDIFF_MIN", "PTRDIFF_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_MAX", "WCHAR_MIN", "WCHAR_MAX",
    "WINT_MIN", "WINT_MAX", "linux", "unix", "i386", NULL};

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

static int ends(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* Names C reserves for macros of the standard headers (C11 7.31): E + digit or capital
 * (<errno.h>), INT/UINT..._MAX/_MIN/_C (<stdint.h>), FP_/MATH_ + capital (<math.h>),
 * PRI/SCN + letter (<inttypes.h>), and _ + capital or _ (reserved everywhere). */
static int is_macro_name(const char *n) {
  for (int i = 0; C_MACROS[i]; i++)
    if (!strcmp(n, C_MACROS[i])) return 1;
  if (n[0] == 'E' && ((n[1] >= 'A' && n[1] <= 'Z') || (n[1] >= '0' && n[1] <= '9'))) return 1;
  if ((starts(n, "INT") || starts(n, "UINT")) && (ends(n, "_MAX") || ends(n, "_MIN") || ends(n, "_C")))
    return 1;
  if ((starts(n, "FP_") && n[3] >= 'A' && n[3] <= 'Z') || (starts(n, "MATH_") && n[5] >= 'A' && n[5] <= 'Z'))
    return 1;
  if ((starts(n, "PRI") || starts(n, "SCN")) && n[3] >= 'a' && n[3] <= 'z') return 1;
  return n[0] == '_' && ((n[1] >= 'A' && n[1] <= 'Z') || n[1] == '_');
}

/* A field name usable as a C member: a keyword or a reserved macro name gets a trailing
 * '_' (NULL -> NULL_); gen_check_names refuses a schema where that meets another field. */
static const char *ident(const char *name) {
  static char buf[8][NAME_MAX_LEN];
  static int next;
  int escape = is_macro_name(name);
  for (int i = 0; !escape && C_KEYWORDS[i]; i++) escape = !strcmp(name, C_KEYWORDS[i]);
  if (!escape) return name;
  char *b = buf[next++ % 8];
  snprintf(b, NAME_MAX_LEN, "%s_", name);
  return b;
}

/* "proto.Account" -> "proto_Account" (package names may hold dots). */
static void c_name(char *out, const char *full) {
  snprintf(out, NAME_MAX_LEN, "%s", full);
  for (char *p = out; *p; p++)
    if (*p == '.') *p = '_';
}

static const char *scalar_ctype(fbe_kind k) {
  switch (k) {
    case FBE_KIND_BOOL: return "bool";
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_UINT8: return "uint8_t";
    case FBE_KIND_INT8: return "int8_t";
    case FBE_KIND_INT16: return "int16_t";
    case FBE_KIND_UINT16: return "uint16_t";
    case FBE_KIND_INT32: return "int32_t";
    case FBE_KIND_WCHAR: case FBE_KIND_UINT32: return "uint32_t";
    case FBE_KIND_INT64: return "int64_t";
    case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP: return "uint64_t";
    case FBE_KIND_FLOAT: return "float";
    case FBE_KIND_DOUBLE: return "double";
    case FBE_KIND_DECIMAL: return "fbe_decimal";
    case FBE_KIND_UUID: return "fbe_uuid";
    case FBE_KIND_STRING: case FBE_KIND_BYTES: return "fbe_blob";
    default: return NULL;
  }
}

/* Types with a typedef and static helpers of their own. */
static int is_compound(const fbe_type *t) {
  return t->kind == FBE_KIND_OPTIONAL || t->kind == FBE_KIND_ARRAY || t->wire == FBE_KIND_VECTOR ||
         t->wire == FBE_KIND_MAP;
}

static int is_struct_optional(const fbe_type *t) {
  return t->kind == FBE_KIND_OPTIONAL && t->elem->kind == FBE_KIND_STRUCT;
}

/* Fixed-size scalars: one load/store in both models, nothing to check or free. */
static int is_fixed(const fbe_type *t) { return t->wire <= FBE_KIND_UUID; }

static void mangle(char *out, const fbe_type *t) {
  char a[NAME_MAX_LEN], b[NAME_MAX_LEN];
  switch (t->kind) {
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: c_name(out, t->enm->full_name); return;
    case FBE_KIND_STRUCT: c_name(out, t->st->full_name); return;
    case FBE_KIND_OPTIONAL: mangle(a, t->elem); snprintf(out, NAME_MAX_LEN, "opt_%s", a); return;
    case FBE_KIND_ARRAY:
      mangle(a, t->elem);
      snprintf(out, NAME_MAX_LEN, "arr%" PRIu32 "_%s", t->array_size, a);
      return;
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
      mangle(a, t->elem);
      snprintf(out, NAME_MAX_LEN, "vec_%s", a);
      return;
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      mangle(a, t->key);
      mangle(b, t->elem);
      snprintf(out, NAME_MAX_LEN, "map_%s_%s", a, b);
      return;
    default: snprintf(out, NAME_MAX_LEN, "%s", fbe_kind_name(t->kind)); return;
  }
}

/* The name of a compound type's static helpers: its mangled name, except that a set's
 * helpers are its own (set_int32), since reading a set collapses duplicates and reading
 * a vector of the same elements (the same C type, vec_int32) does not. */
static void helper_mangle(char *out, const fbe_type *t) {
  char a[NAME_MAX_LEN];
  if (t->kind != FBE_KIND_SET) {
    mangle(out, t);
    return;
  }
  mangle(a, t->elem);
  snprintf(out, NAME_MAX_LEN, "set_%s", a);
}

typedef struct gen {
  FILE *h, *c;
  const fbe_package *pkg;
  char prefix[NAME_MAX_LEN]; /* C name of the package */
  const fbe_type *done[4096]; /* compound types already given a typedef */
  size_t ndone;
  const fbe_struct *emitted[1024]; /* structs of this package already defined */
  size_t nemitted;
  const fbe_type *entries[4096]; /* maps whose entry struct is defined after the structs */
  size_t nentries;
  const fbe_type *hashed[4096]; /* compound types of key fields: they get a hash_ helper */
  size_t nhashed;
} gen;

/* The C type holding a value of t. */
static void ctype(const gen *g, char *out, const fbe_type *t) {
  char m[NAME_MAX_LEN];
  const char *s = scalar_ctype(t->kind);
  if (s) {
    snprintf(out, NAME_MAX_LEN, "%s", s);
  } else if (t->kind == FBE_KIND_ENUM || t->kind == FBE_KIND_FLAGS || t->kind == FBE_KIND_STRUCT) {
    mangle(out, t);
  } else if (is_struct_optional(t)) {
    mangle(m, t->elem);
    snprintf(out, NAME_MAX_LEN, "%s *", m);
  } else {
    mangle(m, t);
    snprintf(out, NAME_MAX_LEN, "%s_%s", g->prefix, m);
  }
}

/* ------------------------------------------------------------ literals */

static void int_literal(char *out, fbe_kind wire, uint64_t v) {
  if (fbei_kind_is_signed(wire)) {
    int64_t s = (int64_t)v;
    if (s == INT64_MIN) snprintf(out, 64, "(-INT64_C(9223372036854775807) - 1)");
    else if (wire == FBE_KIND_INT64) snprintf(out, 64, "INT64_C(%" PRId64 ")", s);
    else snprintf(out, 64, "%" PRId64, s);
  } else {
    snprintf(out, 64, wire == FBE_KIND_UINT64 || wire == FBE_KIND_TIMESTAMP ? "UINT64_C(%" PRIu64 ")"
                                                                            : "%" PRIu64 "u",
             v);
  }
}

static void double_literal(char *out, double d) {
  if (isnan(d)) snprintf(out, 64, "NAN");
  else if (isinf(d)) snprintf(out, 64, d > 0 ? "HUGE_VAL" : "-HUGE_VAL");
  else {
    snprintf(out, 64, "%.17g", d);
    if (!strpbrk(out, ".eEn")) strcat(out, ".0");
  }
}

/* A C string literal of n bytes (octal escapes for anything not plain ASCII). */
static void put_cstring(FILE *o, const uint8_t *s, size_t n) {
  fputc('"', o);
  for (size_t i = 0; i < n; i++) {
    if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\' && s[i] != '?') fputc(s[i], o);
    else fprintf(o, "\\%03o", s[i]);
  }
  fputc('"', o);
}

/* ------------------------------------------------------------ scalar loads and stores */

/* Statement storing scalar lvalue `lv` of type t at byte pointer expression `p`. */
static void store_scalar(FILE *o, const char *ind, const fbe_type *t, const char *p, const char *lv) {
  switch (t->wire) {
    case FBE_KIND_BOOL: fprintf(o, "%sfbe_store_bool(%s, %s);\n", ind, p, lv); break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      fprintf(o, "%s*(%s) = (uint8_t)%s;\n", ind, p, lv); break;
    case FBE_KIND_INT16: case FBE_KIND_UINT16:
      fprintf(o, "%sfbe_store16(%s, (uint16_t)%s);\n", ind, p, lv); break;
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32:
      fprintf(o, "%sfbe_store32(%s, (uint32_t)%s);\n", ind, p, lv); break;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      fprintf(o, "%sfbe_store64(%s, (uint64_t)%s);\n", ind, p, lv); break;
    case FBE_KIND_FLOAT: fprintf(o, "%sfbe_store_float(%s, %s);\n", ind, p, lv); break;
    case FBE_KIND_DOUBLE: fprintf(o, "%sfbe_store_double(%s, %s);\n", ind, p, lv); break;
    default: fprintf(o, "%sfbe_store16bytes(%s, %s.bytes);\n", ind, p, lv); break;
  }
}

static void load_scalar(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *p,
                        const char *lv) {
  char ct[NAME_MAX_LEN];
  ctype(g, ct, t);
  switch (t->wire) {
    case FBE_KIND_BOOL: fprintf(o, "%s%s = fbe_load_bool(%s) != 0;\n", ind, lv, p); break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      fprintf(o, "%s%s = (%s)*(%s);\n", ind, lv, ct, p); break;
    case FBE_KIND_INT16: case FBE_KIND_UINT16:
      fprintf(o, "%s%s = (%s)fbe_load16(%s);\n", ind, lv, ct, p); break;
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32:
      fprintf(o, "%s%s = (%s)fbe_load32(%s);\n", ind, lv, ct, p); break;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      fprintf(o, "%s%s = (%s)fbe_load64(%s);\n", ind, lv, ct, p); break;
    case FBE_KIND_FLOAT: fprintf(o, "%s%s = fbe_load_float(%s);\n", ind, lv, p); break;
    case FBE_KIND_DOUBLE: fprintf(o, "%s%s = fbe_load_double(%s);\n", ind, lv, p); break;
    default: fprintf(o, "%sfbe_load16bytes(%s, %s.bytes);\n", ind, p, lv); break;
  }
}

/* What a failing get/chk statement does: plain `return -1`, or inside a struct body
 * `return fbe_gen_in(g, "field", -1)` so that errors carry the field path. */
static char FAIL[NAME_MAX_LEN] = "return -1";

/* In a loop over elements `i`: a failure names the element's index. */
static void fail_at_index(int on) {
  snprintf(FAIL, sizeof FAIL, on ? "return fbe_gen_at(g, i, -1)" : "return -1");
}

/* ------------------------------------------------------------ per-type statements
 * Each emits the statements for one value of type t held in lvalue `lv`:
 *   put_std  writer w, slot and base positions (size_t expressions)
 *   get_std  reader g, slot/base (uint64_t); on failure `return -1`
 *   chk_std  idem, verification only
 *   put_fin  cursor c; on failure `return NULL`
 *   get_fin / chk_fin  position *pos; on failure `return -1`
 *   free     allocator a */

static void helper_name(const gen *g, char *out, const char *op, const fbe_type *t) {
  char m[NAME_MAX_LEN];
  if (t->kind == FBE_KIND_STRUCT) {
    c_name(m, t->st->full_name);
    snprintf(out, NAME_MAX_LEN, "%s_%s_", m, op);
  } else {
    helper_mangle(m, t);
    snprintf(out, NAME_MAX_LEN, "%s_%s", op, m);
  }
  (void)g;
}

static void put_std(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *slot,
                    const char *base, const char *lv) {
  char p[NAME_MAX_LEN], h[NAME_MAX_LEN];
  if (is_fixed(t)) {
    snprintf(p, sizeof p, "w->out->data + %s", slot);
    store_scalar(o, ind, t, p, lv);
  } else if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
    fprintf(o, "%sfbe_std_write_blob(w, %s, %s, %s.data, %s.size);\n", ind, slot, base, lv, lv);
  } else {
    helper_name(g, h, "put_std", t);
    fprintf(o, "%s%s(w, %s, %s, &%s);\n", ind, h, slot, base, lv);
  }
}

static void get_std(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *slot,
                    const char *base, const char *lv) {
  char p[NAME_MAX_LEN], h[NAME_MAX_LEN];
  if (is_fixed(t)) {
    if (t->wire == FBE_KIND_DECIMAL) fprintf(o, "%sif (fbe_gen_check_decimal(g, %s)) %s;\n", ind, slot, FAIL);
    snprintf(p, sizeof p, "g->r.data + %s", slot);
    load_scalar(g, o, ind, t, p, lv);
  } else if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
    fprintf(o, "%sif (fbe_gen_std_%s(g, %s, %s, &%s)) %s;\n", ind,
            t->wire == FBE_KIND_STRING ? "string" : "blob", slot, base, lv, FAIL);
  } else {
    helper_name(g, h, "get_std", t);
    fprintf(o, "%sif (%s(g, %s, %s, &%s)) %s;\n", ind, h, slot, base, lv, FAIL);
  }
}

/* Whether verification has anything to look at in a value of t. */
static int needs_check(const fbe_type *t) {
  if (t->wire == FBE_KIND_DECIMAL) return 1; /* scale and reserved bits */
  if (is_fixed(t)) return 0;
  if (t->kind == FBE_KIND_ARRAY) return needs_check(t->elem);
  return 1;
}

static void chk_std(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *slot,
                    const char *base) {
  char h[NAME_MAX_LEN];
  if (!needs_check(t)) return;
  if (t->wire == FBE_KIND_DECIMAL) {
    fprintf(o, "%sif (fbe_gen_check_decimal(g, %s)) %s;\n", ind, slot, FAIL);
  } else if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
    fprintf(o, "%sif (fbe_gen_std_check_%s(g, %s, %s)) %s;\n", ind,
            t->wire == FBE_KIND_STRING ? "string" : "blob", slot, base, FAIL);
  } else {
    helper_name(g, h, "chk_std", t);
    fprintf(o, "%sif (%s(g, %s, %s)) %s;\n", ind, h, slot, base, FAIL);
  }
}

static void put_fin(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *lv) {
  char h[NAME_MAX_LEN];
  if (is_fixed(t)) {
    fprintf(o, "%sif (!(c = fbe_fin_room(w, c, %" PRIu32 "))) return NULL;\n", ind, t->wire_size);
    store_scalar(o, ind, t, "c", lv);
    fprintf(o, "%sc += %" PRIu32 ";\n", ind, t->wire_size);
  } else if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
    fprintf(o, "%sif (!(c = fbe_fin_write_blob(w, c, %s.data, %s.size, 4))) return NULL;\n", ind, lv, lv);
  } else {
    helper_name(g, h, "put_fin", t);
    fprintf(o, "%sif (!(c = %s(w, c, &%s))) return NULL;\n", ind, h, lv);
  }
}

static void get_fin(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *lv) {
  char h[NAME_MAX_LEN];
  if (is_fixed(t)) {
    fprintf(o, "%sif (fbe_fin_need(&g->r, *pos, %" PRIu32 ")) return fbe_gen_short(g, *pos);\n", ind,
            t->wire_size);
    if (t->wire == FBE_KIND_DECIMAL) fprintf(o, "%sif (fbe_gen_check_decimal(g, *pos)) %s;\n", ind, FAIL);
    load_scalar(g, o, ind, t, "g->r.data + *pos", lv);
    fprintf(o, "%s*pos += %" PRIu32 ";\n", ind, t->wire_size);
  } else if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
    fprintf(o, "%sif (fbe_gen_fin_%s(g, pos, &%s)) %s;\n", ind,
            t->wire == FBE_KIND_STRING ? "string" : "blob", lv, FAIL);
  } else {
    helper_name(g, h, "get_fin", t);
    fprintf(o, "%sif (%s(g, pos, &%s)) %s;\n", ind, h, lv, FAIL);
  }
}

static void chk_fin(const gen *g, FILE *o, const char *ind, const fbe_type *t) {
  char h[NAME_MAX_LEN];
  if (is_fixed(t)) {
    fprintf(o, "%sif (fbe_fin_need(&g->r, *pos, %" PRIu32 ")) return fbe_gen_short(g, *pos);\n", ind,
            t->wire_size);
    if (t->wire == FBE_KIND_DECIMAL) fprintf(o, "%sif (fbe_gen_check_decimal(g, *pos)) %s;\n", ind, FAIL);
    fprintf(o, "%s*pos += %" PRIu32 ";\n", ind, t->wire_size);
  } else if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
    fprintf(o, "%sif (fbe_gen_fin_check_%s(g, pos)) %s;\n", ind,
            t->wire == FBE_KIND_STRING ? "string" : "blob", FAIL);
  } else {
    helper_name(g, h, "chk_fin", t);
    fprintf(o, "%sif (%s(g, pos)) %s;\n", ind, h, FAIL);
  }
}

/* Whether a value of t owns memory. */
static int needs_free(const fbe_type *t) {
  if (is_fixed(t)) return 0;
  if (t->kind == FBE_KIND_ARRAY || (t->kind == FBE_KIND_OPTIONAL && !is_struct_optional(t)))
    return needs_free(t->elem);
  return 1;
}

static void free_value(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *lv) {
  char h[NAME_MAX_LEN];
  if (!needs_free(t)) return;
  if (t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES) {
    fprintf(o, "%sfbe_gen_free(a, (void *)(uintptr_t)%s.data);\n", ind, lv);
  } else if (t->kind == FBE_KIND_STRUCT) {
    c_name(h, t->st->full_name);
    fprintf(o, "%s%s_free(&%s, a);\n", ind, h, lv);
  } else {
    helper_name(g, h, "free", t);
    fprintf(o, "%s%s(&%s, a);\n", ind, h, lv);
  }
}

/* ------------------------------------------------------------ compound typedefs and helpers */

static int seen(gen *g, const fbe_type *t) {
  char a[NAME_MAX_LEN], b[NAME_MAX_LEN];
  mangle(a, t);
  for (size_t i = 0; i < g->ndone; i++) {
    mangle(b, g->done[i]);
    if (!strcmp(a, b)) return 1;
  }
  return 0;
}

/* Emits the typedefs a field type needs (inner types first), once each. */
static void typedefs(gen *g, const fbe_type *t) {
  if (!is_compound(t)) return;
  if (t->key) typedefs(g, t->key);
  typedefs(g, t->elem);
  if (is_struct_optional(t) || seen(g, t)) return;
  if (g->ndone < sizeof g->done / sizeof g->done[0]) g->done[g->ndone++] = t;
  char ct[NAME_MAX_LEN], et[NAME_MAX_LEN];
  ctype(g, ct, t);
  ctype(g, et, t->elem);
  FILE *h = g->h;
  switch (t->kind) {
    case FBE_KIND_OPTIONAL:
      fprintf(h, "/* %s? : has is false when absent */\ntypedef struct %s {\n  bool has;\n  %s value;\n} %s;\n\n",
              fbe_kind_name(t->elem->kind), ct, et, ct);
      break;
    case FBE_KIND_ARRAY:
      fprintf(h, "/* array of %" PRIu32 " */\ntypedef struct %s {\n  %s items[%" PRIu32 "];\n} %s;\n\n",
              t->array_size, ct, et, t->array_size, ct);
      break;
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      /* the entry holds key and value inline, and they may be structs that hold this map
       * (directly or not): its body comes after the structs (map_entries) */
      fprintf(h, "/* %s: entries in wire order */\ntypedef struct %s_entry %s_entry;\n", fbe_kind_name(t->kind), ct, ct);
      fprintf(h, "typedef struct %s {\n  %s_entry *data;\n  uint32_t count;\n} %s;\n\n", ct, ct, ct);
      if (g->nentries < sizeof g->entries / sizeof g->entries[0]) g->entries[g->nentries++] = t;
      break;
    default:
      fprintf(h, "/* %s: data[0..count) */\ntypedef struct %s {\n  %s *data;\n  uint32_t count;\n} %s;\n\n",
              fbe_kind_name(t->kind), ct, et, ct);
      break;
  }
}

/* The entry structs of the package's maps, once every struct they may hold is complete. */
static void map_entries(const gen *g) {
  char ct[NAME_MAX_LEN], kt[NAME_MAX_LEN], et[NAME_MAX_LEN];
  for (size_t i = 0; i < g->nentries; i++) {
    const fbe_type *t = g->entries[i];
    ctype(g, ct, t);
    ctype(g, kt, t->key);
    ctype(g, et, t->elem);
    fprintf(g->h, "struct %s_entry {\n  %s key;\n  %s value;\n};\n\n", ct, kt, et);
  }
}

/* Collects every compound type used by the package's structs, inner types first, one
 * per helper name. */
static void collect(const fbe_type *t, const fbe_type **list, size_t *n, size_t cap) {
  if (!is_compound(t)) return;
  if (t->key) collect(t->key, list, n, cap);
  collect(t->elem, list, n, cap);
  char a[NAME_MAX_LEN], b[NAME_MAX_LEN];
  helper_mangle(a, t);
  for (size_t i = 0; i < *n; i++) {
    helper_mangle(b, list[i]);
    if (!strcmp(a, b)) return;
  }
  if (*n < cap) list[(*n)++] = t;
}

/* Whether a set or map: reading one collapses duplicate keys (fbe_gen_dedup). */
static int dedups(const fbe_type *t) { return t->kind == FBE_KIND_SET || t->wire == FBE_KIND_MAP; }

/* The type of a set's or map's keys. */
static const fbe_type *key_type(const fbe_type *t) { return t->wire == FBE_KIND_MAP ? t->key : t->elem; }

/* Whether the items of set/map t own memory (drop_ releases a replaced one). */
static int items_need_free(const fbe_type *t) {
  return needs_free(t->elem) || (t->wire == FBE_KIND_MAP && needs_free(t->key));
}

/* Whether compound t is in a key field: it gets a hash_ helper. */
static int is_hashed(const gen *g, const fbe_type *t) {
  char a[NAME_MAX_LEN], b[NAME_MAX_LEN];
  helper_mangle(a, t);
  for (size_t i = 0; i < g->nhashed; i++) {
    helper_mangle(b, g->hashed[i]);
    if (!strcmp(a, b)) return 1;
  }
  return 0;
}

static void helper_prototypes(const gen *g, const fbe_type *t) {
  char m[NAME_MAX_LEN], ct[NAME_MAX_LEN];
  FILE *c = g->c;
  helper_mangle(m, t);
  ctype(g, ct, t);
  fprintf(c, "static void put_std_%s(fbe_std_writer *w, size_t slot, size_t base, %s const *v);\n", m, ct);
  fprintf(c, "static int get_std_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base, %s *v);\n", m, ct);
  if (needs_check(t))
    fprintf(c, "static int chk_std_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base);\n", m);
  fprintf(c, "static uint8_t *put_fin_%s(fbe_fin_writer *w, uint8_t *c, %s const *v);\n", m, ct);
  fprintf(c, "static int get_fin_%s(fbe_gen_reader *g, uint64_t *pos, %s *v);\n", m, ct);
  fprintf(c, "static int chk_fin_%s(fbe_gen_reader *g, uint64_t *pos);\n", m);
  if (needs_free(t)) fprintf(c, "static void free_%s(%s *v, const fbe_allocator *a);\n", m, ct);
  fprintf(c, "static int equal_%s(%s const *a, %s const *b);\n", m, ct, ct);
  if (is_hashed(g, t)) fprintf(c, "static uint64_t hash_%s(%s const *v);\n", m, ct);
  if (dedups(t)) {
    fprintf(c, "static uint64_t key_hash_%s(const void *item);\n", m);
    fprintf(c, "static int key_equal_%s(const void *a, const void *b);\n", m);
    if (items_need_free(t)) fprintf(c, "static void drop_%s(void *item, const fbe_allocator *a);\n", m);
  }
}

static void optional_helpers(const gen *g, const fbe_type *t, const char *m, const char *ct) {
  FILE *c = g->c;
  const fbe_type *e = t->elem;
  int sp = is_struct_optional(t);
  char et[NAME_MAX_LEN], sn[NAME_MAX_LEN];
  ctype(g, et, e);
  if (sp) c_name(sn, e->st->full_name);
  const char *val = sp ? "(**v)" : "v->value";
  const char *present = sp ? "*v != NULL" : "v->has";

  fprintf(c, "static void put_std_%s(fbe_std_writer *w, size_t slot, size_t base, %s const *v) {\n", m, ct);
  fprintf(c, "  size_t s = fbe_std_write_optional(w, slot, base, %s, %" PRIu32 ");\n", present, e->wire_size);
  fprintf(c, "  if (!s) return;\n");
  put_std(g, c, "  ", e, "s", "s", val);
  fprintf(c, "}\n\n");

  fprintf(c, "static int get_std_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base, %s *v) {\n", m, ct);
  fprintf(c, "  uint64_t at = 0;\n");
  fprintf(c, "  int rc = fbe_std_read_optional(&g->r, slot, base, %" PRIu32 ", &at);\n", e->wire_size);
  fprintf(c, "  if (rc < 0) return fbe_gen_bad_pointer(g, slot + 1);\n");
  fprintf(c, "  if (rc == 0) return 0;\n");
  fprintf(c, "  if (fbe_gen_enter(g, at, %" PRIu64 "u)) return -1;\n", fbei_cost_optional(t));
  if (sp) {
    fprintf(c, "  void *value = NULL;\n");
    fprintf(c, "  if (fbe_gen_zalloc(g, at, sizeof(%s), &value)) return -1;\n", sn);
    fprintf(c, "  *v = value;\n");
  } else {
    fprintf(c, "  v->has = true;\n");
  }
  get_std(g, c, "  ", e, "at", "at", val);
  fprintf(c, "  g->depth--;\n  return 0;\n}\n\n");

  fprintf(c, "static int chk_std_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base) {\n", m);
  fprintf(c, "  uint64_t at = 0;\n");
  fprintf(c, "  if (g->r.data[slot] == 0) return 0;\n");
  fprintf(c, "  if (fbe_load32(g->r.data + slot + 1) == 0)\n");
  fprintf(c, "    return fbe_gen_fail(g, FBE_ERR_MALFORMED, slot, \"optional marked present has no value\");\n");
  fprintf(c, "  if (fbe_std_read_optional(&g->r, slot, base, %" PRIu32 ", &at) < 0) return fbe_gen_bad_pointer(g, slot + 1);\n",
          e->wire_size);
  fprintf(c, "  if (fbe_gen_enter(g, at, %" PRIu64 "u)) return -1;\n", fbei_cost_optional(t));
  chk_std(g, c, "  ", e, "at", "at");
  fprintf(c, "  g->depth--;\n  return 0;\n}\n\n");

  fprintf(c, "static uint8_t *put_fin_%s(fbe_fin_writer *w, uint8_t *c, %s const *v) {\n", m, ct);
  fprintf(c, "  if (!(c = fbe_fin_write_flag(w, c, %s))) return NULL;\n", present);
  fprintf(c, "  if (!(%s)) return c;\n", present);
  put_fin(g, c, "  ", e, val);
  fprintf(c, "  return c;\n}\n\n");

  fprintf(c, "static int get_fin_%s(fbe_gen_reader *g, uint64_t *pos, %s *v) {\n", m, ct);
  fprintf(c, "  int rc = fbe_fin_read_flag(&g->r, pos);\n");
  fprintf(c, "  if (rc < 0) return fbe_gen_short(g, *pos);\n");
  fprintf(c, "  if (rc == 0) return 0;\n");
  fprintf(c, "  if (fbe_gen_enter(g, *pos, %" PRIu64 "u)) return -1;\n", fbei_cost_optional(t));
  if (sp) fprintf(c, "  void *value = NULL;\n  if (fbe_gen_zalloc(g, *pos, sizeof(%s), &value)) return -1;\n  *v = value;\n", sn);
  else fprintf(c, "  v->has = true;\n");
  get_fin(g, c, "  ", e, val);
  fprintf(c, "  g->depth--;\n  return 0;\n}\n\n");

  fprintf(c, "static int chk_fin_%s(fbe_gen_reader *g, uint64_t *pos) {\n", m);
  fprintf(c, "  int rc = fbe_fin_read_flag(&g->r, pos);\n");
  fprintf(c, "  if (rc < 0) return fbe_gen_short(g, *pos);\n");
  fprintf(c, "  if (rc == 0) return 0;\n");
  fprintf(c, "  if (fbe_gen_enter(g, *pos, %" PRIu64 "u)) return -1;\n", fbei_cost_optional(t));
  chk_fin(g, c, "  ", e);
  fprintf(c, "  g->depth--;\n  return 0;\n}\n\n");

  if (needs_free(t)) {
    fprintf(c, "static void free_%s(%s *v, const fbe_allocator *a) {\n", m, ct);
    if (sp) {
      fprintf(c, "  if (!*v) return;\n");
      free_value(g, c, "  ", e, val);
      fprintf(c, "  fbe_gen_free(a, *v);\n");
    } else {
      fprintf(c, "  if (!v->has) return;\n");
      free_value(g, c, "  ", e, val);
    }
    fprintf(c, "}\n\n");
  }
}

static void array_helpers(const gen *g, const fbe_type *t, const char *m, const char *ct) {
  FILE *c = g->c;
  const fbe_type *e = t->elem;
  uint32_t n = t->array_size, es = e->wire_size;
  char slot[64];
  snprintf(slot, sizeof slot, "slot + i * %" PRIu32, es);

  fprintf(c, "static void put_std_%s(fbe_std_writer *w, size_t slot, size_t base, %s const *v) {\n", m, ct);
  if (is_fixed(e)) fprintf(c, "  (void)base;\n");
  fprintf(c, "  for (size_t i = 0; i < %" PRIu32 " && !w->failed; i++) {\n", n);
  put_std(g, c, "    ", e, slot, "base", "v->items[i]");
  fprintf(c, "  }\n}\n\n");

  if (!is_fixed(e)) {
    /* one element, so that a failure can name its index */
    fprintf(c, "static int get_std_item_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base, %s *v, size_t i) {\n", m, ct);
    fprintf(c, "  (void)base;\n");
    get_std(g, c, "  ", e, slot, "base", "v->items[i]");
    fprintf(c, "  return 0;\n}\n\n");
  }
  fprintf(c, "static int get_std_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base, %s *v) {\n", m, ct);
  if (is_fixed(e)) fprintf(c, "  (void)base;\n");
  fprintf(c, "  for (size_t i = 0; i < %" PRIu32 "; i++) {\n", n);
  fail_at_index(1);
  if (is_fixed(e)) get_std(g, c, "    ", e, slot, "base", "v->items[i]");
  else fprintf(c, "    if (get_std_item_%s(g, slot, base, v, i)) return fbe_gen_at(g, i, -1);\n", m);
  fail_at_index(0);
  fprintf(c, "  }\n  return 0;\n}\n\n");

  if (needs_check(t)) {
    fprintf(c, "static int chk_std_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base) {\n", m);
    if (is_fixed(e)) fprintf(c, "  (void)base;\n");
    fprintf(c, "  for (size_t i = 0; i < %" PRIu32 "; i++) {\n", n);
    fail_at_index(1);
    chk_std(g, c, "    ", e, slot, "base");
    fail_at_index(0);
    fprintf(c, "  }\n  return 0;\n}\n\n");
  }

  fprintf(c, "static uint8_t *put_fin_%s(fbe_fin_writer *w, uint8_t *c, %s const *v) {\n", m, ct);
  fprintf(c, "  for (size_t i = 0; i < %" PRIu32 "; i++) {\n", n);
  put_fin(g, c, "    ", e, "v->items[i]");
  fprintf(c, "  }\n  return c;\n}\n\n");

  fprintf(c, "static int get_fin_%s(fbe_gen_reader *g, uint64_t *pos, %s *v) {\n", m, ct);
  fprintf(c, "  for (size_t i = 0; i < %" PRIu32 "; i++) {\n", n);
  fail_at_index(1);
  get_fin(g, c, "    ", e, "v->items[i]");
  fail_at_index(0);
  fprintf(c, "  }\n  return 0;\n}\n\n");

  fprintf(c, "static int chk_fin_%s(fbe_gen_reader *g, uint64_t *pos) {\n", m);
  fprintf(c, "  for (size_t i = 0; i < %" PRIu32 "; i++) {\n", n);
  fail_at_index(1);
  chk_fin(g, c, "    ", e);
  fail_at_index(0);
  fprintf(c, "  }\n  return 0;\n}\n\n");

  if (needs_free(t)) {
    fprintf(c, "static void free_%s(%s *v, const fbe_allocator *a) {\n", m, ct);
    fprintf(c, "  for (size_t i = 0; i < %" PRIu32 "; i++) {\n", n);
    free_value(g, c, "    ", e, "v->items[i]");
    fprintf(c, "  }\n}\n\n");
  }
}

/* The end of a collection's get: a set or map keeps one entry per key (the core's rule). */
static void end_read(FILE *c, const fbe_type *t, const char *m, const char *offset) {
  if (!dedups(t)) {
    fprintf(c, "  return 0;\n}\n\n");
    return;
  }
  char drop[NAME_MAX_LEN + 8];
  snprintf(drop, sizeof drop, items_need_free(t) ? "drop_%s" : "NULL", m);
  fprintf(c, "  return fbe_gen_dedup(g, %s, v->data, &v->count, sizeof *v->data, key_hash_%s, key_equal_%s, %s);\n}\n\n",
          offset, m, m, drop);
}

/* vector, list, set (no key) and map, hash (key). */
static void sequence_helpers(const gen *g, const fbe_type *t, const char *m, const char *ct) {
  FILE *c = g->c;
  const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL, *e = t->elem;
  uint32_t stride = e->wire_size + (k ? k->wire_size : 0);
  uint32_t least = e->final_min + (k ? k->final_min : 0);
  const char *item = k ? "v->data[i].value" : "v->data[i]";
  char vslot[64];
  snprintf(vslot, sizeof vslot, k ? "at + %" PRIu32 : "at", k ? k->wire_size : 0);
  int fixed = !k && is_fixed(e);
  /* the core's charge for n items (cost.h: fbei_cost_sequence), the same in all four */
  char cost[96];
  snprintf(cost, sizeof cost, "fbe_gen_cost_items(n, %" PRIu32 "u, %" PRIu64 "u)", k ? t->pair_stride : e->mem_size,
           e->cost + (k ? k->cost : 0));

  fprintf(c, "static void put_std_%s(fbe_std_writer *w, size_t slot, size_t base, %s const *v) {\n", m, ct);
  fprintf(c, "  size_t d = fbe_std_write_sequence(w, slot, base, v->count, %" PRIu32 ");\n", stride);
  fprintf(c, "  if (!d) return;\n");
  if (fixed) fprintf(c, "  (void)base;\n");
  fprintf(c, "  for (uint32_t i = 0; i < v->count && !w->failed; i++) {\n");
  fprintf(c, "    size_t at = d + (size_t)i * %" PRIu32 ";\n", stride);
  if (k) put_std(g, c, "    ", k, "at", "base", "v->data[i].key");
  put_std(g, c, "    ", e, vslot, "base", item);
  fprintf(c, "  }\n}\n\n");

  if (!fixed) {
    /* one element, so that a failure can name its index */
    fprintf(c, "static int get_std_item_%s(fbe_gen_reader *g, uint64_t at, uint64_t base, %s *v, uint32_t i) {\n", m, ct);
    fprintf(c, "  (void)base;\n");
    if (k) get_std(g, c, "  ", k, "at", "base", "v->data[i].key");
    get_std(g, c, "  ", e, vslot, "base", item);
    fprintf(c, "  return 0;\n}\n\n");
  }

  fprintf(c, "static int get_std_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base, %s *v) {\n", m, ct);
  fprintf(c, "  uint64_t items = 0;\n  uint32_t n = 0;\n");
  fprintf(c, "  if (fbe_std_read_sequence(&g->r, slot, base, %" PRIu32 ", &items, &n)) return fbe_gen_bad_sequence(g, slot);\n", stride);
  fprintf(c, "  if (!n) return 0;\n");
  fprintf(c, "  if (fbe_gen_enter(g, items, %s)) return -1;\n", cost);
  fprintf(c, "  void *data = NULL;\n");
  fprintf(c, "  if (fbe_gen_zalloc(g, items, (size_t)n * sizeof *v->data, &data)) return -1;\n");
  fprintf(c, "  v->data = data;\n  v->count = n;\n");
  if (fixed) fprintf(c, "  (void)base;\n");
  fprintf(c, "  for (uint32_t i = 0; i < n; i++) {\n");
  fprintf(c, "    uint64_t at = items + (uint64_t)i * %" PRIu32 ";\n", stride);
  if (fixed) {
    fail_at_index(1);
    get_std(g, c, "    ", e, vslot, "base", item);
    fail_at_index(0);
  } else {
    fprintf(c, "    if (get_std_item_%s(g, at, base, v, i)) return fbe_gen_at(g, i, -1);\n", m);
  }
  fprintf(c, "  }\n  g->depth--;\n");
  end_read(c, t, m, "items");


  if (needs_check(e) || (k && needs_check(k))) {
    fprintf(c, "static int chk_std_item_%s(fbe_gen_reader *g, uint64_t at, uint64_t base) {\n", m);
    if (k) chk_std(g, c, "  ", k, "at", "base");
    chk_std(g, c, "  ", e, vslot, "base");
    fprintf(c, "  (void)at;\n  (void)base;\n  return 0;\n}\n\n");
  }

  fprintf(c, "static int chk_std_%s(fbe_gen_reader *g, uint64_t slot, uint64_t base) {\n", m);
  fprintf(c, "  uint64_t items = 0;\n  uint32_t n = 0;\n");
  fprintf(c, "  if (fbe_std_read_sequence(&g->r, slot, base, %" PRIu32 ", &items, &n)) return fbe_gen_bad_sequence(g, slot);\n", stride);
  fprintf(c, "  if (fbe_gen_enter(g, items, %s)) return -1;\n", cost);
  if (needs_check(e) || (k && needs_check(k))) {
    fprintf(c, "  for (uint32_t i = 0; i < n; i++) {\n");
    fprintf(c, "    uint64_t at = items + (uint64_t)i * %" PRIu32 ";\n", stride);
    fprintf(c, "    if (chk_std_item_%s(g, at, base)) return fbe_gen_at(g, i, -1);\n", m);
    fprintf(c, "  }\n");
  } else {
    fprintf(c, "  (void)base;\n");
  }
  fprintf(c, "  g->depth--;\n  return 0;\n}\n\n");

  fprintf(c, "static uint8_t *put_fin_%s(fbe_fin_writer *w, uint8_t *c, %s const *v) {\n", m, ct);
  fprintf(c, "  if (!(c = fbe_fin_write_count(w, c, v->count, 4))) return NULL;\n");
  fprintf(c, "  for (uint32_t i = 0; i < v->count; i++) {\n");
  if (k) put_fin(g, c, "    ", k, "v->data[i].key");
  put_fin(g, c, "    ", e, item);
  fprintf(c, "  }\n  return c;\n}\n\n");

  fprintf(c, "static int get_fin_item_%s(fbe_gen_reader *g, uint64_t *pos, %s *v, uint32_t i) {\n", m, ct);
  if (k) get_fin(g, c, "  ", k, "v->data[i].key");
  get_fin(g, c, "  ", e, item);
  fprintf(c, "  return 0;\n}\n\n");

  fprintf(c, "static int get_fin_%s(fbe_gen_reader *g, uint64_t *pos, %s *v) {\n", m, ct);
  fprintf(c, "  uint32_t n = 0;\n");
  fprintf(c, "  if (fbe_fin_read_count(&g->r, pos, %" PRIu32 ", &n)) return fbe_gen_bad_count(g, *pos);\n", least);
  fprintf(c, "  if (!n) return 0;\n");
  fprintf(c, "  if (fbe_gen_enter(g, *pos, %s)) return -1;\n", cost);
  fprintf(c, "  void *data = NULL;\n");
  fprintf(c, "  if (fbe_gen_zalloc(g, *pos, (size_t)n * sizeof *v->data, &data)) return -1;\n");
  fprintf(c, "  v->data = data;\n  v->count = n;\n");
  fprintf(c, "  for (uint32_t i = 0; i < n; i++) {\n");
  fprintf(c, "    if (get_fin_item_%s(g, pos, v, i)) return fbe_gen_at(g, i, -1);\n", m);
  fprintf(c, "  }\n  g->depth--;\n");
  end_read(c, t, m, "*pos");

  fprintf(c, "static int chk_fin_item_%s(fbe_gen_reader *g, uint64_t *pos) {\n", m);
  if (k) chk_fin(g, c, "  ", k);
  chk_fin(g, c, "  ", e);
  fprintf(c, "  return 0;\n}\n\n");

  fprintf(c, "static int chk_fin_%s(fbe_gen_reader *g, uint64_t *pos) {\n", m);
  fprintf(c, "  uint32_t n = 0;\n");
  fprintf(c, "  if (fbe_fin_read_count(&g->r, pos, %" PRIu32 ", &n)) return fbe_gen_bad_count(g, *pos);\n", least);
  fprintf(c, "  if (fbe_gen_enter(g, *pos, %s)) return -1;\n", cost);
  fprintf(c, "  for (uint32_t i = 0; i < n; i++) {\n");
  fprintf(c, "    if (chk_fin_item_%s(g, pos)) return fbe_gen_at(g, i, -1);\n", m);
  fprintf(c, "  }\n  g->depth--;\n  return 0;\n}\n\n");

  fprintf(c, "static void free_%s(%s *v, const fbe_allocator *a) {\n", m, ct);
  if (needs_free(e) || (k && needs_free(k))) {
    fprintf(c, "  for (uint32_t i = 0; i < v->count; i++) {\n");
    if (k) free_value(g, c, "    ", k, "v->data[i].key");
    free_value(g, c, "    ", e, item);
    fprintf(c, "  }\n");
  }
  fprintf(c, "  fbe_gen_free(a, v->data);\n}\n\n");
}

/* ------------------------------------------------------------ key identity
 * Expressions over lvalues of type t, as the core compares keys (keys.c) and values
 * (equal.c): floats and uuids by their bytes, decimals by value, strings and bytes by
 * their bytes; a struct as a key by its [key] fields (S_key_equal_, S_key_hash_), as a
 * value by all of them (S_equal_). */

static void put_hash(const gen *g, FILE *o, const fbe_type *t, const char *lv) {
  char h[NAME_MAX_LEN];
  if (t->kind == FBE_KIND_STRUCT) {
    c_name(h, t->st->full_name);
    fprintf(o, "%s_key_hash_(&%s)", h, lv);
    return;
  }
  if (is_compound(t)) {
    helper_name(g, h, "hash", t);
    fprintf(o, "%s(&%s)", h, lv);
    return;
  }
  switch (t->wire) {
    case FBE_KIND_BOOL: fprintf(o, "(uint64_t)(%s != 0)", lv); break;
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: case FBE_KIND_UUID:
      fprintf(o, "fbe_gen_hash_bytes(&%s, sizeof %s)", lv, lv); break;
    case FBE_KIND_DECIMAL: fprintf(o, "fbe_gen_hash_decimal(&%s)", lv); break;
    case FBE_KIND_STRING: case FBE_KIND_BYTES: fprintf(o, "fbe_gen_hash_blob(&%s)", lv); break;
    default: fprintf(o, "(uint64_t)%s", lv); break; /* integers, enums, flags, timestamps */
  }
}

/* key: a struct by its key fields (values inside a key's fields are compared whole). */
static void put_equal(const gen *g, FILE *o, const fbe_type *t, const char *a, const char *b, int key) {
  char h[NAME_MAX_LEN];
  if (t->kind == FBE_KIND_STRUCT) {
    c_name(h, t->st->full_name);
    fprintf(o, "%s_%s_(&%s, &%s)", h, key ? "key_equal" : "equal", a, b);
    return;
  }
  if (is_compound(t)) {
    helper_name(g, h, "equal", t);
    fprintf(o, "%s(&%s, &%s)", h, a, b);
    return;
  }
  switch (t->wire) {
    case FBE_KIND_FLOAT: case FBE_KIND_DOUBLE: fprintf(o, "memcmp(&%s, &%s, sizeof %s) == 0", a, b, a); break;
    case FBE_KIND_UUID: fprintf(o, "memcmp(%s.bytes, %s.bytes, 16) == 0", a, b); break;
    case FBE_KIND_DECIMAL: fprintf(o, "fbe_gen_decimal_equal(&%s, &%s)", a, b); break;
    case FBE_KIND_STRING: case FBE_KIND_BYTES: fprintf(o, "fbe_gen_blob_equal(&%s, &%s)", a, b); break;
    default: fprintf(o, "%s == %s", a, b); break; /* bool (C's is 0 or 1), integers, enums */
  }
}

/* equal_ (every compound: S_equal_ uses it), hash_ (those in key fields), and for a set
 * or map the functions fbe_gen_dedup takes: key_hash_, key_equal_ and drop_. */
static void identity_helpers(const gen *g, const fbe_type *t, const char *m, const char *ct) {
  FILE *c = g->c;
  const fbe_type *e = t->elem;
  int sp = is_struct_optional(t), map = t->wire == FBE_KIND_MAP, array = t->kind == FBE_KIND_ARRAY;
  fprintf(c, "static int equal_%s(%s const *a, %s const *b) {\n", m, ct, ct);
  if (t->kind == FBE_KIND_OPTIONAL) {
    fprintf(c, sp ? "  if (!*a || !*b) return *a == *b;\n  return " : "  if (a->has != b->has) return 0;\n  return !a->has || ");
    put_equal(g, c, e, sp ? "(**a)" : "a->value", sp ? "(**b)" : "b->value", 0);
    fprintf(c, ";\n}\n\n");
  } else {
    if (array) fprintf(c, "  for (size_t i = 0; i < %" PRIu32 "; i++)\n    if (!(", t->array_size);
    else fprintf(c, "  if (a->count != b->count) return 0;\n  for (uint32_t i = 0; i < a->count; i++)\n    if (!(");
    if (map) {
      put_equal(g, c, t->key, "a->data[i].key", "b->data[i].key", 0);
      fprintf(c, ") || !(");
      put_equal(g, c, e, "a->data[i].value", "b->data[i].value", 0);
    } else {
      put_equal(g, c, e, array ? "a->items[i]" : "a->data[i]", array ? "b->items[i]" : "b->data[i]", 0);
    }
    fprintf(c, ")) return 0;\n  return 1;\n}\n\n");
  }

  if (is_hashed(g, t)) { /* as keys.c's fbei_key_hash: a map by its count and keys */
    fprintf(c, "static uint64_t hash_%s(%s const *v) {\n  uint64_t h = FBE_GEN_HASH_SEED;\n", m, ct);
    if (t->kind == FBE_KIND_OPTIONAL) {
      fprintf(c, "  if (!%s) return fbe_gen_hash_mix(h, 1);\n  return fbe_gen_hash_mix(h, ", sp ? "*v" : "v->has");
      put_hash(g, c, e, sp ? "(**v)" : "v->value");
      fprintf(c, ");\n}\n\n");
    } else {
      if (array) fprintf(c, "  for (size_t i = 0; i < %" PRIu32 "; i++)\n", t->array_size);
      else fprintf(c, "  h = fbe_gen_hash_mix(h, v->count);\n  for (uint32_t i = 0; i < v->count; i++)\n");
      fprintf(c, "    h = fbe_gen_hash_mix(h, ");
      put_hash(g, c, map ? t->key : e, map ? "v->data[i].key" : array ? "v->items[i]" : "v->data[i]");
      fprintf(c, ");\n  return h;\n}\n\n");
    }
  }

  if (!dedups(t)) return;
  char item[NAME_MAX_LEN + 8];
  if (map) snprintf(item, sizeof item, "%s_entry", ct);
  else ctype(g, item, e);
  const char *kx = map ? "x->key" : "(*x)", *ky = map ? "y->key" : "(*y)";
  fprintf(c, "static uint64_t key_hash_%s(const void *item) {\n  const %s *x = item;\n", m, item);
  fprintf(c, "  return fbe_gen_hash_mix(FBE_GEN_HASH_SEED, ");
  put_hash(g, c, key_type(t), kx);
  fprintf(c, ");\n}\n\n");
  fprintf(c, "static int key_equal_%s(const void *a, const void *b) {\n  const %s *x = a, *y = b;\n  return ", m, item);
  put_equal(g, c, key_type(t), kx, ky, 1);
  fprintf(c, ";\n}\n\n");
  if (items_need_free(t)) {
    fprintf(c, "static void drop_%s(void *item, const fbe_allocator *a) {\n  %s *x = item;\n", m, item);
    if (map) free_value(g, c, "  ", t->key, "x->key");
    free_value(g, c, "  ", e, map ? "x->value" : "(*x)");
    fprintf(c, "}\n\n");
  }
}

static void compound_helpers(const gen *g, const fbe_type *t) {
  char m[NAME_MAX_LEN], ct[NAME_MAX_LEN];
  helper_mangle(m, t);
  ctype(g, ct, t);
  fprintf(g->c, "/* ---- %s */\n\n", m);
  if (t->kind == FBE_KIND_OPTIONAL) optional_helpers(g, t, m, ct);
  else if (t->kind == FBE_KIND_ARRAY) array_helpers(g, t, m, ct);
  else sequence_helpers(g, t, m, ct);
  identity_helpers(g, t, m, ct);
}

/* ------------------------------------------------------------ defaults */

/* Whether the implicit default of a value is more than zeroes: structs (their fields'
 * defaults), and arrays of them. */
static int needs_init(const fbe_type *t) {
  if (t->kind == FBE_KIND_STRUCT) return 1;
  return t->kind == FBE_KIND_ARRAY && needs_init(t->elem);
}

/* Emits the implicit default of a value (already zeroed) when needs_init(t). */
static void implicit_default(FILE *o, const char *ind, const fbe_type *t, const char *lv, int depth) {
  char n[NAME_MAX_LEN], inner[NAME_MAX_LEN], sub[NAME_MAX_LEN];
  if (t->kind == FBE_KIND_STRUCT) {
    c_name(n, t->st->full_name);
    fprintf(o, "%sif (%s_defaults_(&%s, a)) return -1;\n", ind, n, lv);
  } else if (needs_init(t)) {
    snprintf(inner, sizeof inner, "%s.items[i%d]", lv, depth);
    snprintf(sub, sizeof sub, "%s  ", ind);
    fprintf(o, "%sfor (size_t i%d = 0; i%d < %" PRIu32 "; i%d++) {\n", ind, depth, depth, t->array_size, depth);
    implicit_default(o, sub, t->elem, inner, depth + 1);
    fprintf(o, "%s}\n", ind);
  }
}

/* Emits the statements giving field f (lvalue lv, zeroed) its schema default. */
static void field_default(const gen *g, FILE *o, const fbe_field *f, const char *lv) {
  const fbe_type *t = f->type;
  const fbei_default *d = &f->def;
  char val[NAME_MAX_LEN], lit[64], ct[NAME_MAX_LEN];
  if (d->kind == FBE_DEF_NONE || d->kind == FBE_DEF_NULL) {
    implicit_default(o, "    ", t, lv, 0);
    return;
  }
  const fbe_type *vt = t;
  if (t->kind == FBE_KIND_OPTIONAL) {
    fprintf(o, "    %s.has = true;\n", lv);
    snprintf(val, sizeof val, "%s.value", lv);
    vt = t->elem;
  } else {
    snprintf(val, sizeof val, "%s", lv);
  }
  ctype(g, ct, vt);
  switch (d->kind) {
    case FBE_DEF_BOOL: fprintf(o, "    %s = %s;\n", val, d->u ? "true" : "false"); break;
    case FBE_DEF_INT:
      int_literal(lit, vt->wire, d->u);
      fprintf(o, "    %s = (%s)%s;\n", val, ct, lit);
      break;
    case FBE_DEF_FLOAT:
      double_literal(lit, d->d);
      fprintf(o, "    %s = (%s)%s;\n", val, ct, lit);
      break;
    case FBE_DEF_DECIMAL: case FBE_DEF_UUID:
      fprintf(o, "    memcpy(%s.bytes, ", val);
      put_cstring(o, d->bytes, 16);
      fprintf(o, ", 16);\n");
      break;
    case FBE_DEF_STRING:
      fprintf(o, "    if (fbe_gen_blob_set(&%s, a, ", val);
      put_cstring(o, (const uint8_t *)d->str, d->len);
      fprintf(o, ", %" PRIu32 ")) return -1;\n", d->len);
      break;
    case FBE_DEF_UTC: fprintf(o, "    %s = fbe_gen_now();\n", val); break;
    case FBE_DEF_UUID1: fprintf(o, "    fbe_gen_uuid1(&%s);\n", val); break;
    case FBE_DEF_UUID4: fprintf(o, "    fbe_gen_uuid4(&%s);\n", val); break;
    default: break;
  }
}

/* Whether a field's default is more than zero. */
static int has_default(const fbe_field *f) {
  return (f->def.kind != FBE_DEF_NONE && f->def.kind != FBE_DEF_NULL) || needs_init(f->type);
}

/* ------------------------------------------------------------ structs */

static int is_blob(const fbe_type *t) { return t->wire == FBE_KIND_STRING || t->wire == FBE_KIND_BYTES; }

/* Length of the run of fixed-size fields starting at index i. */
static uint32_t fixed_run(const fbe_struct *st, uint32_t i) {
  uint32_t n = 0;
  for (; i < st->nfields && is_fixed(st->fields[i].type); i++) n += st->fields[i].type->wire_size;
  return n;
}

static void struct_header(gen *g, const fbe_struct *st) {
  char n[NAME_MAX_LEN], ct[NAME_MAX_LEN];
  FILE *h = g->h;
  c_name(n, st->full_name);
  for (uint32_t i = 0; i < st->nfields; i++) typedefs(g, st->fields[i].type);
  fprintf(h, "/* %s %s, type id %" PRIu32 "%s%s. */\n", st->is_message ? "message" : "struct",
          st->full_name, st->type_id, st->base ? ", extends " : "", st->base ? st->base->full_name : "");
  fprintf(h, "#define %s_TYPE_ID %" PRIu32 "u\n", n, st->type_id);
  fprintf(h, "struct %s {\n", n);
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    ctype(g, ct, f->type);
    if (i == 0 && st->ninherited) fprintf(h, "  /* inherited from %s */\n", st->base->full_name);
    if (i == st->ninherited && st->ninherited) fprintf(h, "  /* own fields */\n");
    fprintf(h, "  %s%s%s;%s\n", ct, ct[strlen(ct) - 1] == '*' ? "" : " ", ident(f->name),
            is_struct_optional(f->type) ? " /* optional: NULL when absent */" : "");
  }
  if (!st->nfields) fprintf(h, "  uint8_t empty_; /* C has no empty structs */\n");
  fprintf(h, "};\n\n");
}

static void struct_prototypes(const gen *g, const fbe_struct *st) {
  char n[NAME_MAX_LEN];
  FILE *h = g->h;
  c_name(n, st->full_name);
  fprintf(h, "/* ---- %s */\n", st->full_name);
  fprintf(h, "/* Sets every field to its schema default (strings copied into a). */\n");
  fprintf(h, "fbe_status %s_init(%s *v, const fbe_allocator *a);\n", n, n);
  fprintf(h, "/* Releases what v owns (strings, collections, optional structs) to a. */\n");
  fprintf(h, "void %s_free(%s *v, const fbe_allocator *a);\n", n, n);
  fprintf(h, "/* Appends the model of v to out. */\n");
  fprintf(h, "fbe_status %s_encode(const %s *v, fbe_model model, fbe_buffer *out, fbe_error *err);\n", n, n);
  fprintf(h, "fbe_status %s_encode_standard(const %s *v, fbe_buffer *out, fbe_error *err);\n", n, n);
  fprintf(h, "fbe_status %s_encode_final(const %s *v, fbe_buffer *out, fbe_error *err);\n", n, n);
  fprintf(h, "/* Verifies, then decodes the model at data into v (overwritten, not freed first;\n"
             " * allocations from a). What verify refuses is refused with verify's error. On failure\n"
             " * v is left empty and err names the reason, the offset and the path. */\n");
  fprintf(h, "fbe_status %s_decode(%s *v, fbe_model model, const uint8_t *data, size_t size,\n"
             "                    const fbe_allocator *a, size_t *model_size, fbe_error *err);\n", n, n);
  fprintf(h, "/* Decodes without verifying, for bytes you trust or verified already (fbe_decode_trusted's\n"
             " * rules: every offset is still checked). */\n");
  fprintf(h, "fbe_status %s_decode_trusted(%s *v, fbe_model model, const uint8_t *data, size_t size,\n"
             "                            const fbe_allocator *a, size_t *model_size, fbe_error *err);\n", n, n);
  fprintf(h, "fbe_status %s_decode_trusted_standard(%s *v, const uint8_t *data, size_t size,\n"
             "                                     const fbe_allocator *a, size_t *model_size, fbe_error *err);\n", n, n);
  fprintf(h, "fbe_status %s_decode_trusted_final(%s *v, const uint8_t *data, size_t size,\n"
             "                                  const fbe_allocator *a, size_t *model_size, fbe_error *err);\n", n, n);
  fprintf(h, "/* Checks that data starts with a valid model (fbe_verify's rules) without decoding. */\n");
  fprintf(h, "fbe_status %s_verify(fbe_model model, const uint8_t *data, size_t size, size_t *model_size,\n"
             "                    fbe_error *err);\n", n);
  fprintf(h, "fbe_status %s_verify_standard(const uint8_t *data, size_t size, size_t *model_size, fbe_error *err);\n", n);
  fprintf(h, "fbe_status %s_verify_final(const uint8_t *data, size_t size, size_t *model_size, fbe_error *err);\n", n);
  fprintf(h, "/* JSON (FORMAT.md 10) through the core's dynamic message of the loaded schema. */\n");
  fprintf(h, "fbe_status %s_to_json(const %s *v, const fbe_schema *schema, int pretty, fbe_buffer *out,\n"
             "                     fbe_error *err);\n", n, n);
  fprintf(h, "fbe_status %s_from_json(%s *v, const fbe_schema *schema, const char *text, size_t length,\n"
             "                       const fbe_allocator *a, fbe_error *err);\n", n, n);
  fprintf(h, "/* Building blocks for the code of this and importing packages. */\n");
  fprintf(h, "int %s_defaults_(%s *v, const fbe_allocator *a);\n", n, n);
  fprintf(h, "void %s_put_std_(fbe_std_writer *w, size_t slot, size_t base, const %s *v);\n", n, n);
  fprintf(h, "int %s_get_std_(fbe_gen_reader *g, uint64_t slot, uint64_t base, %s *v);\n", n, n);
  fprintf(h, "int %s_chk_std_(fbe_gen_reader *g, uint64_t slot, uint64_t base);\n", n);
  fprintf(h, "uint8_t *%s_put_fin_(fbe_fin_writer *w, uint8_t *c, const %s *v);\n", n, n);
  fprintf(h, "int %s_get_fin_(fbe_gen_reader *g, uint64_t *pos, %s *v);\n", n, n);
  fprintf(h, "int %s_chk_fin_(fbe_gen_reader *g, uint64_t *pos);\n", n);
  fprintf(h, "/* Identity as a set element or map key (its [key] fields; none: all are one key),\n"
             " * and deep equality (floats by their bits, decimals by value). */\n");
  fprintf(h, "uint64_t %s_key_hash_(const %s *v);\n", n, n);
  fprintf(h, "int %s_key_equal_(const %s *a, const %s *b);\n", n, n, n);
  fprintf(h, "int %s_equal_(const %s *a, const %s *b);\n\n", n, n, n);
}

static void set_fail(const fbe_field *f) { snprintf(FAIL, sizeof FAIL, "return fbe_gen_in(g, \"%s\", -1)", f->name); }

/* The reads of every field of a standard body at b into v; in a short body (size)
 * each field is read only when present, else it takes its default. */
static void field_reads(const gen *g, const fbe_struct *st, int short_body) {
  char n[NAME_MAX_LEN], lv[NAME_MAX_LEN], slot[64];
  FILE *c = g->c;
  c_name(n, st->full_name);
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    const fbe_type *t = f->type;
    int dflt = has_default(f);
    const char *ind = short_body ? "    " : "  ";
    char ind2[16];
    snprintf(ind2, sizeof ind2, "%s  ", ind);
    snprintf(lv, sizeof lv, "v->%s", ident(f->name));
    snprintf(slot, sizeof slot, "b + %" PRIu32, f->wire_offset);
    if (short_body)
      fprintf(c, "  if (%s%" PRIu32 " <= size) {\n", i < st->ninherited ? "inherited && " : "",
              f->wire_offset + t->wire_size);
    set_fail(f);
    if (dflt && (is_blob(t) || t->kind == FBE_KIND_OPTIONAL)) {
      if (is_blob(t)) fprintf(c, "%sif (fbe_load32(g->r.data + %s) == 0) {\n", ind, slot);
      else fprintf(c, "%sif (g->r.data[%s] == 0 || fbe_load32(g->r.data + %s + 1) == 0) {\n", ind, slot, slot);
      if (f->default_cost)
        fprintf(c, "%s  if (fbe_gen_charge(g, %s, %" PRIu64 "u)) %s;\n", ind, slot, f->default_cost, FAIL);
      fprintf(c, "%s  if (%s_field_default(v, %" PRIu32 ", g->a)) return fbe_gen_oom(g, %s);\n", ind, n, i, slot);
      fprintf(c, "%s} else {\n", ind);
      get_std(g, c, ind2, t, slot, "b", lv);
      fprintf(c, "%s}\n", ind);
    } else {
      get_std(g, c, ind, t, slot, "b", lv);
    }
    snprintf(FAIL, sizeof FAIL, "return -1");
    if (!short_body) continue;
    if (f->default_cost)
      fprintf(c, "  } else if (fbe_gen_charge(g, b, %" PRIu64 "u)) {\n    return -1;\n", f->default_cost);
    if (dflt) {
      fprintf(c, "  } else if (%s_field_default(v, %" PRIu32 ", g->a)) {\n", n, i);
      fprintf(c, "    return fbe_gen_oom(g, b);\n");
    }
    fprintf(c, "  }\n");
  }
}

static void struct_source(gen *g, const fbe_struct *st) {
  char n[NAME_MAX_LEN], lv[NAME_MAX_LEN], slot[64], p[NAME_MAX_LEN];
  FILE *c = g->c;
  c_name(n, st->full_name);
  fprintf(c, "/* ================================================================ %s */\n\n", st->full_name);

  /* defaults */
  int any_default = 0;
  for (uint32_t i = 0; i < st->nfields; i++) any_default |= has_default(&st->fields[i]);
  if (any_default) {
    fprintf(c, "/* The schema default of field `index` of v (zeroed). -1 when out of memory. */\n");
    fprintf(c, "static int %s_field_default(%s *v, uint32_t index, const fbe_allocator *a) {\n", n, n);
    fprintf(c, "  switch (index) {\n");
    for (uint32_t i = 0; i < st->nfields; i++) {
      if (!has_default(&st->fields[i])) continue;
      fprintf(c, "  case %" PRIu32 ": /* %s */\n", i, st->fields[i].name);
      snprintf(lv, sizeof lv, "v->%s", ident(st->fields[i].name));
      field_default(g, c, &st->fields[i], lv);
      fprintf(c, "    break;\n");
    }
    fprintf(c, "  default: break;\n  }\n  (void)a;\n  return 0;\n}\n\n");
  }
  fprintf(c, "int %s_defaults_(%s *v, const fbe_allocator *a) {\n", n, n);
  for (uint32_t i = 0; i < st->nfields; i++)
    if (has_default(&st->fields[i]))
      fprintf(c, "  if (%s_field_default(v, %" PRIu32 ", a)) return -1;\n", n, i);
  fprintf(c, "  (void)v;\n  (void)a;\n  return 0;\n}\n\n");

  fprintf(c, "fbe_status %s_init(%s *v, const fbe_allocator *a) {\n", n, n);
  fprintf(c, "  memset(v, 0, sizeof *v);\n");
  fprintf(c, "  if (%s_defaults_(v, a)) {\n    %s_free(v, a);\n    memset(v, 0, sizeof *v);\n    return FBE_ERR_NOMEM;\n  }\n", n, n);
  fprintf(c, "  return FBE_OK;\n}\n\n");

  fprintf(c, "void %s_free(%s *v, const fbe_allocator *a) {\n", n, n);
  for (uint32_t i = 0; i < st->nfields; i++) {
    snprintf(lv, sizeof lv, "v->%s", ident(st->fields[i].name));
    free_value(g, c, "  ", st->fields[i].type, lv);
  }
  fprintf(c, "  (void)v;\n  (void)a;\n}\n\n");

  /* identity: key fields (inherited first) for sets and maps, every field for equal_ */
  fprintf(c, "uint64_t %s_key_hash_(const %s *v) {\n  uint64_t h = FBE_GEN_HASH_SEED;\n", n, n);
  for (uint32_t i = 0; i < st->nfields; i++) {
    if (!st->fields[i].is_key) continue;
    snprintf(lv, sizeof lv, "v->%s", ident(st->fields[i].name));
    fprintf(c, "  h = fbe_gen_hash_mix(h, ");
    put_hash(g, c, st->fields[i].type, lv);
    fprintf(c, ");\n");
  }
  fprintf(c, "  (void)v;\n  return h;\n}\n\n");
  for (int key = 1; key >= 0; key--) {
    fprintf(c, "int %s_%s_(const %s *a, const %s *b) {\n", n, key ? "key_equal" : "equal", n, n);
    for (uint32_t i = 0; i < st->nfields; i++) {
      if (key && !st->fields[i].is_key) continue;
      char la[NAME_MAX_LEN], lb[NAME_MAX_LEN];
      snprintf(la, sizeof la, "a->%s", ident(st->fields[i].name));
      snprintf(lb, sizeof lb, "b->%s", ident(st->fields[i].name));
      fprintf(c, "  if (!(");
      put_equal(g, c, st->fields[i].type, la, lb, key);
      fprintf(c, ")) return 0;\n");
    }
    fprintf(c, "  (void)a;\n  (void)b;\n  return 1;\n}\n\n");
  }

  /* standard model */
  fprintf(c, "void %s_put_std_(fbe_std_writer *w, size_t slot, size_t base, const %s *v) {\n", n, n);
  fprintf(c, "  size_t b = fbe_std_write_struct(w, slot, base, %" PRIu32 ", %s_TYPE_ID);\n", st->body_size, n);
  fprintf(c, "  if (!b) return;\n");
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    snprintf(lv, sizeof lv, "v->%s", ident(f->name));
    snprintf(slot, sizeof slot, "b + %" PRIu32, f->wire_offset);
    put_std(g, c, "  ", f->type, slot, "b", lv);
  }
  fprintf(c, "  (void)v;\n}\n\n");

  if (st->nfields) {
    fprintf(c, "/* A body written by an older schema: the fields it has are read, the others take\n"
               " * their defaults (FORMAT.md 5.10; the inherited part only as a whole). */\n");
    fprintf(c, "static int %s_get_short(fbe_gen_reader *g, uint64_t b, uint32_t size, %s *v) {\n", n, n);
    if (st->ninherited) fprintf(c, "  int inherited = size >= %" PRIu32 ";\n", st->base_body_size);
    field_reads(g, st, 1);
    fprintf(c, "  return 0;\n}\n\n");
  }
  fprintf(c, "int %s_get_std_(fbe_gen_reader *g, uint64_t slot, uint64_t base, %s *v) {\n", n, n);
  fprintf(c, "  uint64_t b = 0;\n");
  fprintf(c, "  if (fbe_load32(g->r.data + slot) == 0) /* reads as the default struct */\n");
  fprintf(c, "    return fbe_gen_charge(g, slot, %" PRIu64 "u) ? -1 : %s_defaults_(v, g->a) ? fbe_gen_oom(g, slot) : 0;\n",
          st->default_cost, n);
  fprintf(c, "  if (fbe_std_target(&g->r, slot, base, 8, &b)) return fbe_gen_bad_pointer(g, slot);\n");
  fprintf(c, "  uint32_t size = fbe_load32(g->r.data + b);\n");
  fprintf(c, "  if (size < 8 || size > g->r.end - b) return fbe_gen_bad_struct(g, b);\n");
  if (st->nfields) {
    fprintf(c, "  if (size < %" PRIu32 ") return %s_get_short(g, b, size, v);\n", st->body_size, n);
    field_reads(g, st, 0);
  }
  fprintf(c, "  (void)v;\n  return 0;\n}\n\n");

  /* the same reads from a resolved body (pkg_S_from_view); get_std_ keeps its own copy */
  fprintf(c, "int %s_get_body_(fbe_gen_reader *g, uint64_t b, uint32_t size, %s *v) {\n", n, n);
  if (st->nfields) {
    fprintf(c, "  if (size < %" PRIu32 ") return %s_get_short(g, b, size, v);\n", st->body_size, n);
    field_reads(g, st, 0);
  }
  fprintf(c, "  (void)g;\n  (void)b;\n  (void)size;\n  (void)v;\n  return 0;\n}\n\n");

  /* each check's body is FBE_GEN_INLINE so that the root's verify (and open_view) has
   * it inline: for a small struct the call was a seventh of a verified view's cost */
  fprintf(c, "static FBE_GEN_INLINE int %s_chk_std_body_(fbe_gen_reader *g, uint64_t slot, uint64_t base) {\n", n);
  fprintf(c, "  uint64_t b = 0;\n");
  fprintf(c, "  if (fbe_load32(g->r.data + slot) == 0) return fbe_gen_fail(g, FBE_ERR_MALFORMED, slot, \"struct pointer is 0\");\n");
  fprintf(c, "  if (fbe_std_target(&g->r, slot, base, 8, &b)) return fbe_gen_bad_pointer(g, slot);\n");
  fprintf(c, "  uint32_t size = fbe_load32(g->r.data + b);\n");
  fprintf(c, "  if (size < 8 || size > g->r.end - b) return fbe_gen_bad_struct(g, b);\n");
  fprintf(c, "  if (fbe_load32(g->r.data + b + 4) != %s_TYPE_ID)\n", n);
  fprintf(c, "    return fbe_gen_fail(g, FBE_ERR_MALFORMED, b + 4, \"type id is not %s's (%" PRIu32 ")\");\n",
          st->full_name, st->type_id);
  /* `full` and `inherited` only where a field to check uses them (-Wunused-variable) */
  int checks = 0, inherited_checks = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    checks |= needs_check(st->fields[i].type);
    if (i < st->ninherited) inherited_checks |= needs_check(st->fields[i].type);
  }
  if (checks) fprintf(c, "  int full = size >= %" PRIu32 ";\n", st->body_size);
  if (inherited_checks) fprintf(c, "  int inherited = full || size >= %" PRIu32 ";\n", st->base_body_size);
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    if (!needs_check(f->type)) continue;
    snprintf(slot, sizeof slot, "b + %" PRIu32, f->wire_offset);
    set_fail(f);
    fprintf(c, "  if (full || (%s%" PRIu32 " <= size)) {\n", i < st->ninherited ? "inherited && " : "",
            f->wire_offset + f->type->wire_size);
    if (f->default_cost && (is_blob(f->type) || f->type->kind == FBE_KIND_OPTIONAL)) {
      if (is_blob(f->type)) fprintf(c, "    if (fbe_load32(g->r.data + %s) == 0) {\n", slot);
      else fprintf(c, "    if (g->r.data[%s] == 0) {\n", slot);
      fprintf(c, "      if (fbe_gen_charge(g, %s, %" PRIu64 "u)) %s;\n    } else {\n", slot, f->default_cost, FAIL);
      chk_std(g, c, "      ", f->type, slot, "b");
      fprintf(c, "    }\n");
    } else {
      chk_std(g, c, "    ", f->type, slot, "b");
    }
    if (f->default_cost)
      fprintf(c, "  } else if (fbe_gen_charge(g, b, %" PRIu64 "u)) {\n    return -1;\n", f->default_cost);
    fprintf(c, "  }\n");
    snprintf(FAIL, sizeof FAIL, "return -1");
  }
  fprintf(c, "  return 0;\n}\n\n");

  /* final model: nested structs inline, runs of fixed-size fields checked once */
  fprintf(c, "uint8_t *%s_put_fin_(fbe_fin_writer *w, uint8_t *c, const %s *v) {\n", n, n);
  uint32_t covered = 0, at = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    snprintf(lv, sizeof lv, "v->%s", ident(f->name));
    if (is_fixed(f->type)) {
      if (!covered) {
        uint32_t run = fixed_run(st, i);
        fprintf(c, "  if (!(c = fbe_fin_room(w, c, %" PRIu32 "))) return NULL;\n", run);
        covered = run;
        at = 0;
      }
      snprintf(p, sizeof p, "c + %" PRIu32, at);
      store_scalar(c, "  ", f->type, p, lv);
      at += f->type->wire_size;
      covered -= f->type->wire_size;
      if (!covered) fprintf(c, "  c += %" PRIu32 ";\n", at);
    } else if (is_blob(f->type)) {
      uint32_t run = fixed_run(st, i + 1);
      fprintf(c, "  if (!(c = fbe_fin_write_blob(w, c, %s.data, %s.size, %" PRIu32 "))) return NULL;\n", lv, lv,
              4 + run);
      covered = run;
      at = 0;
    } else if (f->type->kind == FBE_KIND_STRUCT) {
      char sn[NAME_MAX_LEN];
      c_name(sn, f->type->st->full_name);
      fprintf(c, "  if (!(c = %s_put_fin_(w, c, &%s))) return NULL;\n", sn, lv);
    } else {
      put_fin(g, c, "  ", f->type, lv);
    }
  }
  fprintf(c, "  (void)w;\n  (void)v;\n  return c;\n}\n\n");

  fprintf(c, "int %s_get_fin_(fbe_gen_reader *g, uint64_t *pos, %s *v) {\n", n, n);
  covered = at = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    snprintf(lv, sizeof lv, "v->%s", ident(f->name));
    set_fail(f);
    if (is_fixed(f->type)) {
      if (!covered) {
        covered = fixed_run(st, i);
        at = 0;
        fprintf(c, "  if (fbe_fin_need(&g->r, *pos, %" PRIu32 ")) return fbe_gen_in(g, \"%s\", fbe_gen_short(g, *pos));\n",
                covered, f->name);
      }
      if (f->type->wire == FBE_KIND_DECIMAL)
        fprintf(c, "  if (fbe_gen_check_decimal(g, *pos + %" PRIu32 ")) %s;\n", at, FAIL);
      snprintf(p, sizeof p, "g->r.data + *pos + %" PRIu32, at);
      load_scalar(g, c, "  ", f->type, p, lv);
      at += f->type->wire_size;
      covered -= f->type->wire_size;
      if (!covered) fprintf(c, "  *pos += %" PRIu32 ";\n", at);
    } else if (f->type->kind == FBE_KIND_STRUCT) {
      char sn[NAME_MAX_LEN];
      c_name(sn, f->type->st->full_name);
      fprintf(c, "  if (%s_get_fin_(g, pos, &%s)) %s;\n", sn, lv, FAIL);
    } else {
      get_fin(g, c, "  ", f->type, lv);
    }
    snprintf(FAIL, sizeof FAIL, "return -1");
  }
  fprintf(c, "  (void)g;\n  (void)pos;\n  (void)v;\n  return 0;\n}\n\n");

  fprintf(c, "static FBE_GEN_INLINE int %s_chk_fin_body_(fbe_gen_reader *g, uint64_t *pos) {\n", n);
  covered = 0;
  for (uint32_t i = 0; i < st->nfields; i++) {
    const fbe_field *f = &st->fields[i];
    set_fail(f);
    if (is_fixed(f->type)) {
      if (!covered) {
        covered = fixed_run(st, i);
        fprintf(c, "  if (fbe_fin_need(&g->r, *pos, %" PRIu32 ")) return fbe_gen_in(g, \"%s\", fbe_gen_short(g, *pos));\n",
                covered, f->name);
        fprintf(c, "  *pos += %" PRIu32 ";\n", covered);
      }
      if (f->type->wire == FBE_KIND_DECIMAL) /* the run is behind *pos already */
        fprintf(c, "  if (fbe_gen_check_decimal(g, *pos - %" PRIu32 ")) %s;\n", covered, FAIL);
      covered -= f->type->wire_size;
    } else if (f->type->kind == FBE_KIND_STRUCT) {
      char sn[NAME_MAX_LEN];
      c_name(sn, f->type->st->full_name);
      fprintf(c, "  if (%s_chk_fin_(g, pos)) %s;\n", sn, FAIL);
    } else {
      chk_fin(g, c, "  ", f->type);
    }
    snprintf(FAIL, sizeof FAIL, "return -1");
  }
  fprintf(c, "  (void)g;\n  (void)pos;\n  return 0;\n}\n\n");
  fprintf(c, "int %s_chk_std_(fbe_gen_reader *g, uint64_t slot, uint64_t base) {\n"
             "  return %s_chk_std_body_(g, slot, base);\n}\n\n", n, n);
  fprintf(c, "int %s_chk_fin_(fbe_gen_reader *g, uint64_t *pos) {\n  return %s_chk_fin_body_(g, pos);\n}\n\n", n, n);

  /* public entry points */
  fprintf(c, "fbe_status %s_encode_standard(const %s *v, fbe_buffer *out, fbe_error *err) {\n", n, n);
  fprintf(c, "  size_t start = out->size;\n");
  fprintf(c, "  if (out->capacity - out->size < %" PRIu32 " && fbe_buffer_reserve(out, %" PRIu32 "))\n",
          st->body_size * 2 + 256, st->body_size * 2 + 256);
  fprintf(c, "    return fbe_gen_finish(out, start, FBE_WRITE_NOMEM, err);\n");
  fprintf(c, "  fbe_std_writer w = {out, start, 0};\n");
  fprintf(c, "  fbe_std_alloc(&w, 8); /* the model header: cannot fail after the reserve */\n");
  fprintf(c, "  %s_put_std_(&w, start + 4, start, v);\n", n);
  fprintf(c, "  return fbe_gen_finish(out, start, w.failed, err);\n}\n\n");

  fprintf(c, "fbe_status %s_encode_final(const %s *v, fbe_buffer *out, fbe_error *err) {\n", n, n);
  fprintf(c, "  size_t start = out->size;\n");
  fprintf(c, "  if (out->capacity - out->size < %" PRIu32 " && fbe_buffer_reserve(out, %" PRIu32 "))\n",
          st->final_min * 2 + 256, st->final_min * 2 + 256);
  fprintf(c, "    return fbe_gen_finish(out, start, FBE_WRITE_NOMEM, err);\n");
  fprintf(c, "  fbe_fin_writer w = {out, start, out->data + out->capacity, 0};\n");
  fprintf(c, "  uint8_t *c = out->data + start;\n");
  fprintf(c, "  fbe_store32(c + 4, %s_TYPE_ID);\n", n);
  fprintf(c, "  c = %s_put_fin_(&w, c + 8, v);\n", n);
  fprintf(c, "  if (c) out->size = (size_t)(c - out->data);\n");
  fprintf(c, "  return fbe_gen_finish(out, start, w.failed, err);\n}\n\n");

  fprintf(c, "fbe_status %s_encode(const %s *v, fbe_model model, fbe_buffer *out, fbe_error *err) {\n", n, n);
  fprintf(c, "  return model == FBE_MODEL_FINAL ? %s_encode_final(v, out, err) : %s_encode_standard(v, out, err);\n}\n\n", n, n);

  fprintf(c, "fbe_status %s_decode_trusted_standard(%s *v, const uint8_t *data, size_t size,\n"
             "                                     const fbe_allocator *a, size_t *model_size, fbe_error *err) {\n", n, n);
  fprintf(c, "  fbe_error local;\n  fbe_gen_reader g;\n  if (!err) err = &local;\n");
  fprintf(c, "  memset(v, 0, sizeof *v);\n");
  fprintf(c, "  fbe_status rc = fbe_gen_open(&g, FBE_MODEL_STANDARD, data, size, a, err);\n");
  fprintf(c, "  if (rc) return rc;\n");
  fprintf(c, "  if (fbe_load32(data + 4) == 0) {\n");
  fprintf(c, "    fbe_gen_fail(&g, FBE_ERR_MALFORMED, 4, \"root pointer is 0\");\n    return err->code;\n  }\n");
  fprintf(c, "  if (fbe_gen_charge(&g, 0, %" PRIu64 "u)) return err->code;\n", fbei_cost_root(st));
  fprintf(c, "  if (%s_get_std_(&g, 4, 0, v)) {\n    %s_free(v, a);\n    memset(v, 0, sizeof *v);\n    return err->code;\n  }\n", n, n);
  fprintf(c, "  if (model_size) *model_size = (size_t)g.r.end;\n  return FBE_OK;\n}\n\n");

  fprintf(c, "fbe_status %s_decode_trusted_final(%s *v, const uint8_t *data, size_t size,\n"
             "                                  const fbe_allocator *a, size_t *model_size, fbe_error *err) {\n", n, n);
  fprintf(c, "  fbe_error local;\n  fbe_gen_reader g;\n  if (!err) err = &local;\n");
  fprintf(c, "  memset(v, 0, sizeof *v);\n");
  fprintf(c, "  fbe_status rc = fbe_gen_open(&g, FBE_MODEL_FINAL, data, size, a, err);\n");
  fprintf(c, "  if (rc) return rc;\n");
  fprintf(c, "  if (fbe_load32(data + 4) != %s_TYPE_ID) {\n", n);
  fprintf(c, "    fbe_gen_fail(&g, FBE_ERR_MALFORMED, 4, \"type id is not %s's (%" PRIu32 ")\");\n    return err->code;\n  }\n",
          st->full_name, st->type_id);
  fprintf(c, "  uint64_t pos = 8;\n");
  fprintf(c, "  if (fbe_gen_charge(&g, 0, %" PRIu64 "u)) return err->code;\n", fbei_cost_root(st));
  fprintf(c, "  if (%s_get_fin_(&g, &pos, v)) {\n    %s_free(v, a);\n    memset(v, 0, sizeof *v);\n    return err->code;\n  }\n", n, n);
  fprintf(c, "  if (model_size) *model_size = (size_t)g.r.end;\n  return FBE_OK;\n}\n\n");

  fprintf(c, "fbe_status %s_decode_trusted(%s *v, fbe_model model, const uint8_t *data, size_t size,\n"
             "                            const fbe_allocator *a, size_t *model_size, fbe_error *err) {\n", n, n);
  fprintf(c, "  return model == FBE_MODEL_FINAL ? %s_decode_trusted_final(v, data, size, a, model_size, err)\n"
             "                                  : %s_decode_trusted_standard(v, data, size, a, model_size, err);\n}\n\n", n, n);

  fprintf(c, "fbe_status %s_decode(%s *v, fbe_model model, const uint8_t *data, size_t size,\n"
             "                    const fbe_allocator *a, size_t *model_size, fbe_error *err) {\n", n, n);
  fprintf(c, "  fbe_error local;\n  if (!err) err = &local;\n");
  fprintf(c, "  fbe_status rc = %s_verify(model, data, size, NULL, err);\n", n);
  fprintf(c, "  if (rc) {\n    memset(v, 0, sizeof *v);\n    return rc;\n  }\n");
  fprintf(c, "  return %s_decode_trusted(v, model, data, size, a, model_size, err);\n}\n\n", n);

  /* the verifies' bodies are inline, so that open_view has them with its view filled
   * from the verified root (its verify is most of what a small struct's view costs);
   * view NULL: only verify */
  fprintf(c, "static FBE_GEN_INLINE fbe_status %s_verify_standard_(const uint8_t *data, size_t size, size_t *model_size,\n"
             "                                            fbe_error *err, fbe_gen_view *view) {\n", n);
  fprintf(c, "  fbe_error local;\n  fbe_gen_reader g;\n  if (!err) err = &local;\n");
  fprintf(c, "  fbe_status rc = fbe_gen_open_verify(&g, FBE_MODEL_STANDARD, data, size, err);\n");
  fprintf(c, "  if (rc) return rc;\n");
  fprintf(c, "  if (fbe_gen_charge(&g, 0, %" PRIu64 "u) || %s_chk_std_body_(&g, 4, 0)) return err->code;\n",
          fbei_cost_root(st), n);
  fprintf(c, "  if (view) { /* the root pointer (base 0) and the body's size: verified */\n"
             "    uint64_t body = fbe_load32(data + 4);\n"
             "    fbe_gen_view root = {data, g.r.end, body, body, fbe_load32(data + body), FBE_MODEL_STANDARD};\n"
             "    *view = root;\n  }\n");
  fprintf(c, "  if (model_size) *model_size = (size_t)g.r.end;\n  return FBE_OK;\n}\n\n");

  fprintf(c, "static FBE_GEN_INLINE fbe_status %s_verify_final_(const uint8_t *data, size_t size, size_t *model_size,\n"
             "                                         fbe_error *err, fbe_gen_view *view) {\n", n);
  fprintf(c, "  fbe_error local;\n  fbe_gen_reader g;\n  if (!err) err = &local;\n");
  fprintf(c, "  fbe_status rc = fbe_gen_open_verify(&g, FBE_MODEL_FINAL, data, size, err);\n");
  fprintf(c, "  if (rc) return rc;\n");
  fprintf(c, "  if (fbe_load32(data + 4) != %s_TYPE_ID) {\n", n);
  fprintf(c, "    fbe_gen_fail(&g, FBE_ERR_MALFORMED, 4, \"type id is not %s's (%" PRIu32 ")\");\n    return err->code;\n  }\n",
          st->full_name, st->type_id);
  fprintf(c, "  uint64_t pos = 8;\n");
  fprintf(c, "  if (fbe_gen_charge(&g, 0, %" PRIu64 "u) || %s_chk_fin_body_(&g, &pos)) return err->code;\n",
          fbei_cost_root(st), n);
  fprintf(c, "  if (pos != g.r.end) {\n");
  fprintf(c, "    fbe_gen_fail(&g, FBE_ERR_MALFORMED, pos, \"fields end before the model size\");\n    return err->code;\n  }\n");
  fprintf(c, "  if (view) { /* the fields from 8 */\n"
             "    fbe_gen_view root = {data, g.r.end, 8, 0, 0, FBE_MODEL_FINAL};\n"
             "    *view = root;\n  }\n");
  fprintf(c, "  if (model_size) *model_size = (size_t)g.r.end;\n  return FBE_OK;\n}\n\n");

  fprintf(c, "fbe_status %s_verify_standard(const uint8_t *data, size_t size, size_t *model_size, fbe_error *err) {\n"
             "  return %s_verify_standard_(data, size, model_size, err, NULL);\n}\n\n", n, n);
  fprintf(c, "fbe_status %s_verify_final(const uint8_t *data, size_t size, size_t *model_size, fbe_error *err) {\n"
             "  return %s_verify_final_(data, size, model_size, err, NULL);\n}\n\n", n, n);
  fprintf(c, "fbe_status %s_verify(fbe_model model, const uint8_t *data, size_t size, size_t *model_size,\n"
             "                    fbe_error *err) {\n", n);
  fprintf(c, "  return model == FBE_MODEL_FINAL ? %s_verify_final(data, size, model_size, err)\n"
             "                                  : %s_verify_standard(data, size, model_size, err);\n}\n\n", n, n);

  fprintf(c, "fbe_status %s_to_json(const %s *v, const fbe_schema *schema, int pretty, fbe_buffer *out,\n"
             "                     fbe_error *err) {\n", n, n);
  fprintf(c, "  fbe_buffer model;\n  fbe_buffer_init(&model);\n");
  fprintf(c, "  fbe_status rc = %s_encode_final(v, &model, err);\n", n);
  fprintf(c, "  if (rc == FBE_OK) rc = fbe_gen_json_write(schema, \"%s\", model.data, model.size, pretty, out, err);\n",
          st->full_name);
  fprintf(c, "  fbe_buffer_free(&model);\n  return rc;\n}\n\n");

  fprintf(c, "fbe_status %s_from_json(%s *v, const fbe_schema *schema, const char *text, size_t length,\n"
             "                       const fbe_allocator *a, fbe_error *err) {\n", n, n);
  fprintf(c, "  fbe_buffer model;\n  fbe_buffer_init(&model);\n");
  fprintf(c, "  fbe_status rc = fbe_gen_json_read(schema, \"%s\", text, length, &model, err);\n", st->full_name);
  fprintf(c, "  if (rc == FBE_OK) rc = %s_decode_trusted_final(v, model.data, model.size, a, NULL, err);\n", n);
  fprintf(c, "  else memset(v, 0, sizeof *v);\n");
  fprintf(c, "  fbe_buffer_free(&model);\n  return rc;\n}\n\n");
}

/* ------------------------------------------------------------ views (core/GEN_C.md, "Views")
 * pkg_S_view reads a verified model in place, one accessor per field (pkg_S_view_<member>):
 * scalars as their C type, strings and bytes as an fbe_blob borrowed from the buffer,
 * structs as their view, optionals of a scalar, string or bytes as their value type
 * (pkg_opt_T, a blob borrowed), every other optional, array, collection and map as a view
 * of its own (pkg_<mangled>_view with _has/_get, _count/_at, _count/_key_at/_value_at).
 * Reads go through the field-model readers, so each is bounds-checked. In the expressions
 * below `x` is the `const fbe_gen_view *` read from; on the default paths (no bytes, a
 * short body, a null pointer) an accessor gives the field's schema default, as decode. */

#define EXPR_LEN 2048

/* An optional whose value is a scalar, string or bytes: read at once into pkg_opt_T. */
static int is_simple_optional(const fbe_type *t) {
  return t->kind == FBE_KIND_OPTIONAL && (is_fixed(t->elem) || is_blob(t->elem));
}

/* Whether a field's accessor is static inline in the header (scalars, strings, bytes and
 * structs: a few loads); the others call the package's static helpers. */
static int inline_accessor(const fbe_type *t) { return is_fixed(t) || is_blob(t) || t->kind == FBE_KIND_STRUCT; }

/* Whether t has a view type of its own (pkg_<m>_view). */
static int has_view(const fbe_type *t) { return is_compound(t) && !is_simple_optional(t); }

/* The type a view gives a value of t as. */
static void vtype(const gen *g, char *out, const fbe_type *t) {
  char m[NAME_MAX_LEN];
  if (t->kind == FBE_KIND_STRUCT) {
    c_name(m, t->st->full_name);
    snprintf(out, NAME_MAX_LEN, "%s_view", m);
  } else if (has_view(t)) {
    mangle(m, t);
    snprintf(out, NAME_MAX_LEN, "%s_%s_view", g->prefix, m);
  } else {
    ctype(g, out, t);
  }
}

/* The name of a view helper: S_<op>_ for a struct, <op>_<mangled> for a compound. */
static void view_helper(char *out, const char *op, const fbe_type *t) {
  char m[NAME_MAX_LEN];
  if (t->kind == FBE_KIND_STRUCT) {
    c_name(m, t->st->full_name);
    snprintf(out, NAME_MAX_LEN, "%s_%s_", m, op);
  } else {
    mangle(m, t);
    snprintf(out, NAME_MAX_LEN, "%s_%s", op, m);
  }
}

/* The value of fixed-size t at byte pointer expression p. */
static void load_expr(const gen *g, char *out, const fbe_type *t, const char *p) {
  char ct[NAME_MAX_LEN];
  ctype(g, ct, t);
  switch (t->wire) {
    case FBE_KIND_BOOL: snprintf(out, EXPR_LEN, "(fbe_load_bool(%s) != 0)", p); break;
    case FBE_KIND_BYTE: case FBE_KIND_CHAR: case FBE_KIND_INT8: case FBE_KIND_UINT8:
      snprintf(out, EXPR_LEN, "(%s)*(%s)", ct, p); break;
    case FBE_KIND_INT16: case FBE_KIND_UINT16: snprintf(out, EXPR_LEN, "(%s)fbe_load16(%s)", ct, p); break;
    case FBE_KIND_WCHAR: case FBE_KIND_INT32: case FBE_KIND_UINT32:
      snprintf(out, EXPR_LEN, "(%s)fbe_load32(%s)", ct, p); break;
    case FBE_KIND_INT64: case FBE_KIND_UINT64: case FBE_KIND_TIMESTAMP:
      snprintf(out, EXPR_LEN, "(%s)fbe_load64(%s)", ct, p); break;
    case FBE_KIND_FLOAT: snprintf(out, EXPR_LEN, "fbe_load_float(%s)", p); break;
    case FBE_KIND_DOUBLE: snprintf(out, EXPR_LEN, "fbe_load_double(%s)", p); break;
    case FBE_KIND_DECIMAL: snprintf(out, EXPR_LEN, "fbe_gen_load_decimal(%s)", p); break;
    default: snprintf(out, EXPR_LEN, "fbe_gen_load_uuid(%s)", p); break;
  }
}

/* The view of t at standard slot/base of view xv (with bytes: the caller checked). */
static void read_std_expr(const gen *g, char *out, const fbe_type *t, const char *xv, const char *slot,
                          const char *base) {
  char h[NAME_MAX_LEN], p[EXPR_LEN];
  if (is_fixed(t)) {
    snprintf(p, sizeof p, "%s->data + %s", xv, slot);
    load_expr(g, out, t, p);
  } else if (is_blob(t)) {
    snprintf(out, EXPR_LEN, "fbe_gen_view_std_blob(%s, %s, %s)", xv, slot, base);
  } else {
    view_helper(h, t->kind == FBE_KIND_STRUCT ? "std_view" : "view_std", t);
    snprintf(out, EXPR_LEN, "%s(%s, %s, %s)", h, xv, slot, base);
  }
}

/* The view of non-fixed t at final position pos (a variable) of view x. */
static void read_fin_expr(const gen *g, char *out, const fbe_type *t, const char *pos) {
  char h[NAME_MAX_LEN], vt[NAME_MAX_LEN];
  if (is_blob(t)) {
    snprintf(out, EXPR_LEN, "fbe_gen_view_fin_blob(x, %s)", pos);
  } else if (t->kind == FBE_KIND_STRUCT) {
    vtype(g, vt, t);
    snprintf(out, EXPR_LEN, "(%s){fbe_gen_view_make(x, %s, 0, 0)}", vt, pos);
  } else {
    view_helper(h, "view_fin", t);
    snprintf(out, EXPR_LEN, "%s(x, %s)", h, pos);
  }
}

/* `{ T z; ... return z; }` (after an `if`, at indent ind): the zero view of t (no bytes;
 * zero, empty, absent). */
static void put_zero_return(const gen *g, FILE *o, const char *ind, const fbe_type *t) {
  char vt[NAME_MAX_LEN];
  vtype(g, vt, t);
  fprintf(o, "{\n%s  %s z;\n%s  memset(&z, 0, sizeof z);\n%s  return z;\n%s}\n", ind, vt, ind, ind, ind);
}

/* Statements returning the value of t at final pos of x (fixed: checked here). */
static void return_fin(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *pos) {
  char e[EXPR_LEN], p[EXPR_LEN];
  if (is_fixed(t)) {
    fprintf(o, "%sif (fbe_gen_view_short(x, %s, %" PRIu32 ")) ", ind, pos, t->wire_size);
    put_zero_return(g, o, ind, t);
    snprintf(p, sizeof p, "x->data + %s", pos);
    load_expr(g, e, t, p);
  } else {
    read_fin_expr(g, e, t, pos);
  }
  fprintf(o, "%sreturn %s;\n", ind, e);
}

/* Statements moving *POS (pos: a uint64_t * expression) past a final value of t, with
 * `r` the reader; `return -1` past the end. */
static void put_skip(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *pos) {
  char h[NAME_MAX_LEN];
  (void)g;
  if (is_fixed(t)) {
    fprintf(o, "%sif (fbe_fin_need(r, *%s, %" PRIu32 ")) return -1;\n%s*%s += %" PRIu32 ";\n", ind, pos,
            t->wire_size, ind, pos, t->wire_size);
  } else if (is_blob(t)) {
    fprintf(o, "%sif (fbe_gen_fin_skip_blob(r, %s)) return -1;\n", ind, pos);
  } else {
    view_helper(h, "skip_fin", t);
    fprintf(o, "%sif (%s(r, %s)) return -1;\n", ind, h, pos);
  }
}

/* Statements returning 0 unless the view vexpr of t equals the value lvalue lv. */
static void put_equal_view(const gen *g, FILE *o, const char *ind, const fbe_type *t, const char *vexpr,
                           const char *lv) {
  char h[NAME_MAX_LEN], vt[NAME_MAX_LEN];
  if (t->kind == FBE_KIND_STRUCT || is_compound(t)) {
    view_helper(h, "equal_view", t);
    fprintf(o, "%sif (!%s(%s, &%s)) return 0;\n", ind, h, vexpr, lv);
    return;
  }
  vtype(g, vt, t);
  fprintf(o, "%s{\n%s  %s t_ = %s;\n%s  if (!(", ind, ind, vt, vexpr, ind);
  put_equal(g, o, t, "t_", lv, 0);
  fprintf(o, ")) return 0;\n%s}\n", ind);
}

/* Collects the compound types of the package's fields for their views, inner types
 * first, one per view type (a set shares its vector's view: both read as written). */
static void collect_views(const fbe_type *t, const fbe_type **list, size_t *n, size_t cap) {
  if (!is_compound(t)) return;
  if (t->key) collect_views(t->key, list, n, cap);
  collect_views(t->elem, list, n, cap);
  char a[NAME_MAX_LEN], b[NAME_MAX_LEN];
  mangle(a, t);
  for (size_t i = 0; i < *n; i++) {
    mangle(b, list[i]);
    if (!strcmp(a, b)) return;
  }
  if (*n < cap) list[(*n)++] = t;
}

/* Header: the view types (each wraps an fbe_gen_view), structs' and compounds'. */
static void view_typedefs(const gen *g, const fbe_type *const *types, size_t ntypes) {
  char n[NAME_MAX_LEN], vt[NAME_MAX_LEN];
  FILE *h = g->h;
  fprintf(h, "/* Views (core/GEN_C.md, \"Views\"): read the verified bytes in place. */\n");
  for (uint32_t s = 0; s < g->pkg->nstructs; s++) {
    c_name(n, g->pkg->structs[s]->full_name);
    fprintf(h, "typedef struct %s_view { fbe_gen_view v; } %s_view;\n", n, n);
  }
  for (size_t i = 0; i < ntypes; i++) {
    if (!has_view(types[i])) continue;
    vtype(g, vt, types[i]);
    fprintf(h, "typedef struct %s { fbe_gen_view v; } %s;\n", vt, vt);
  }
  fprintf(h, "\n");
}

/* Whether a collection's view has _data, its elements in place: a vector, list or set
 * (not an array: a view of its slot) of fixed-size scalars. */
static int has_scalar_data(const fbe_type *t) {
  return t->kind != FBE_KIND_OPTIONAL && t->kind != FBE_KIND_ARRAY && t->wire == FBE_KIND_VECTOR && is_fixed(t->elem);
}

/* Whether a collection's _count and _at are inline in the header: a vector, list or set
 * (not an array or map) whose elements read inline (scalars, strings, bytes, structs);
 * the standard model's element is then a few checked loads where the caller iterates. */
static int inline_at(const fbe_type *t) {
  return has_view(t) && t->kind != FBE_KIND_OPTIONAL && t->kind != FBE_KIND_ARRAY && t->wire != FBE_KIND_MAP &&
         inline_accessor(t->elem);
}

/* Header: inline_at's _count and _at, after the struct views' inline std_view_. */
static void compound_view_inline(const gen *g, const fbe_type *t) {
  char vt[NAME_MAX_LEN], et[NAME_MAX_LEN], e[EXPR_LEN], slot[EXPR_LEN];
  FILE *h = g->h;
  if (!inline_at(t)) return;
  vtype(g, vt, t);
  vtype(g, et, t->elem);
  fprintf(h, "static inline uint32_t %s_count(%s v) { return v.v.n; } /* elements as written */\n", vt, vt);
  fprintf(h, "static inline %s %s_at(%s v, uint32_t i) { /* zero past the end */\n", et, vt, vt);
  fprintf(h, "  const fbe_gen_view *x = &v.v;\n");
  /* the view's fields, not v: a copy of v for the call would be made at every call */
  fprintf(h, "  if (x->model == FBE_MODEL_FINAL || !x->data || i >= x->n)\n"
             "    return %s_at_(x->data, x->end, x->at, x->base, x->n, x->model, i);\n", vt);
  snprintf(slot, sizeof slot, "x->at + (uint64_t)i * %" PRIu32, t->elem->wire_size);
  read_std_expr(g, e, t->elem, "x", slot, "x->base");
  fprintf(h, "  return %s;\n}\n", e);
}

/* Header: the accessors of a compound's view. */
static void compound_view_prototypes(const gen *g, const fbe_type *t) {
  char vt[NAME_MAX_LEN], et[NAME_MAX_LEN], kt[NAME_MAX_LEN];
  FILE *h = g->h;
  if (!has_view(t)) return;
  vtype(g, vt, t);
  vtype(g, et, t->elem);
  if (t->kind == FBE_KIND_OPTIONAL) {
    fprintf(h, "bool %s_has(%s v);\n%s %s_get(%s v); /* zero when absent */\n", vt, vt, et, vt, vt);
  } else if (t->wire == FBE_KIND_MAP) {
    vtype(g, kt, t->key);
    fprintf(h, "uint32_t %s_count(%s v); /* entries as written */\n", vt, vt);
    fprintf(h, "%s %s_key_at(%s v, uint32_t i);\n%s %s_value_at(%s v, uint32_t i);\n", kt, vt, vt, et, vt, vt);
  } else {
    if (inline_at(t)) { /* _count and _at inline below (compound_view_inline); _at_ the rest of _at */
      fprintf(h, "%s %s_at_(const uint8_t *data, uint64_t end, uint64_t at, uint64_t base, uint32_t n, fbe_model model,\n"
                 "    uint32_t i); /* the final model, past the end, no bytes */\n", et, vt);
    } else {
      fprintf(h, "uint32_t %s_count(%s v);%s\n", vt, vt, t->kind == FBE_KIND_ARRAY ? "" : " /* elements as written */");
      fprintf(h, "%s %s_at(%s v, uint32_t i); /* zero past the end */\n", et, vt, vt);
    }
    if (has_scalar_data(t)) /* the span was checked against the model when the view was made */
      fprintf(h, "/* The %s_count elements in place, %" PRIu32 " bytes each as on the wire (little-endian:\n"
                 " * fbe/field.h's loads read element i at data + i * %" PRIu32 "); NULL when there are none. */\n"
                 "static inline const uint8_t *%s_data(%s v) { return v.v.data && v.v.n ? v.v.data + v.v.at : NULL; }\n",
              vt, t->elem->wire_size, t->elem->wire_size, vt, vt);
  }
}

/* Header: a struct's view functions and accessors. */
static void struct_view_prototypes(const gen *g, const fbe_struct *st) {
  char n[NAME_MAX_LEN], vt[NAME_MAX_LEN];
  FILE *h = g->h;
  c_name(n, st->full_name);
  fprintf(h, "/* ---- %s_view */\n", n);
  fprintf(h, "/* Verifies the model at data (as %s_verify, refusing what it refuses with its error)\n"
             " * and sets *view to its root; on failure *view has no bytes (reads as the defaults). */\n", n);
  fprintf(h, "fbe_status %s_open_view(%s_view *view, fbe_model model, const uint8_t *data, size_t size,\n"
             "                        size_t *model_size, fbe_error *err);\n", n, n);
  fprintf(h, "/* The viewed value, decoded (what %s_decode gives for those bytes) into v. */\n", n);
  fprintf(h, "fbe_status %s_from_view(%s *v, %s_view view, const fbe_allocator *a, fbe_error *err);\n", n, n, n);
  fprintf(h, "/* 1 when the view reads as value (deep, as %s_equal_; sets and maps as written). */\n", n);
  fprintf(h, "int %s_equal_view_(%s_view view, const %s *value);\n", n, n, n);
  /* inline: a struct field's or element's view is a few checked loads, not worth a call */
  fprintf(h, "static inline %s_view %s_std_view_(const fbe_gen_view *x, uint64_t slot, uint64_t base) {\n"
             "  %s_view v = {fbe_gen_view_std_struct(x, slot, base)};\n  return v;\n}\n", n, n, n);
  fprintf(h, "int %s_skip_fin_(const fbe_reader *r, uint64_t *pos);\n", n);
  fprintf(h, "int %s_get_body_(fbe_gen_reader *g, uint64_t b, uint32_t size, %s *v);\n", n, n);
  if (st->nfields)
    fprintf(h, "int %s_fin_field_(const uint8_t *data, uint64_t end, uint64_t at, uint32_t index, uint64_t need,\n"
               "                     uint64_t *pos);\n", n);
  fprintf(h, "/* The fields (those of a scalar, string, bytes or struct: inline, below). */\n");
  for (uint32_t i = 0; i < st->nfields; i++) {
    if (inline_accessor(st->fields[i].type)) continue;
    vtype(g, vt, st->fields[i].type);
    fprintf(h, "%s %s_view_%s(%s_view view);\n", vt, n, ident(st->fields[i].name), n);
  }
  fprintf(h, "\n");
}

/* Source: the static prototypes of a compound's view helpers. */
static void compound_view_static_prototypes(const gen *g, const fbe_type *t) {
  char m[NAME_MAX_LEN], vt[NAME_MAX_LEN], ct[NAME_MAX_LEN];
  FILE *c = g->c;
  mangle(m, t);
  vtype(g, vt, t);
  ctype(g, ct, t);
  fprintf(c, "static int skip_fin_%s(const fbe_reader *r, uint64_t *pos);\n", m);
  fprintf(c, "static %s view_std_%s(const fbe_gen_view *x, uint64_t slot, uint64_t base);\n", vt, m);
  fprintf(c, "static %s view_fin_%s(const fbe_gen_view *x, uint64_t pos);\n", vt, m);
  fprintf(c, "static int equal_view_%s(%s a, %s const *b);\n", m, vt, ct);
}

/* The fixed size of one element (map: entry) of collection t in the final model, 0
 * when elements vary. */
static uint32_t fin_fixed_item(const fbe_type *t) {
  const fbe_type *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
  if (!is_fixed(t->elem) || (k && !is_fixed(k))) return 0;
  return t->elem->wire_size + (k ? k->wire_size : 0);
}

static void compound_view_source(const gen *g, const fbe_type *t) {
  char m[NAME_MAX_LEN], vt[NAME_MAX_LEN], ct[NAME_MAX_LEN], e[EXPR_LEN], slot[EXPR_LEN];
  FILE *c = g->c;
  const fbe_type *el = t->elem, *k = t->wire == FBE_KIND_MAP ? t->key : NULL;
  int opt = t->kind == FBE_KIND_OPTIONAL, array = t->kind == FBE_KIND_ARRAY;
  uint32_t ks = k ? k->wire_size : 0, stride = el->wire_size + ks, fixed = opt ? 0 : fin_fixed_item(t);
  uint32_t least = el->final_min + (k ? k->final_min : 0);
  mangle(m, t);
  vtype(g, vt, t);
  ctype(g, ct, t);
  fprintf(c, "/* ---- view of %s */\n\n", m);

  /* skip */
  fprintf(c, "static int skip_fin_%s(const fbe_reader *r, uint64_t *pos) {\n", m);
  if (opt) {
    fprintf(c, "  int rc = fbe_fin_read_flag(r, pos);\n  if (rc <= 0) return rc;\n");
    put_skip(g, c, "  ", el, "pos");
  } else if (array && is_fixed(el)) {
    fprintf(c, "  if (fbe_fin_need(r, *pos, %" PRIu64 "u)) return -1;\n  *pos += %" PRIu64 "u;\n",
            (uint64_t)t->array_size * el->wire_size, (uint64_t)t->array_size * el->wire_size);
  } else if (array) {
    fprintf(c, "  for (uint32_t i = 0; i < %" PRIu32 "; i++) {\n", t->array_size);
    put_skip(g, c, "    ", el, "pos");
    fprintf(c, "  }\n");
  } else {
    fprintf(c, "  uint32_t n = 0;\n");
    fprintf(c, "  if (fbe_fin_read_count(r, pos, %" PRIu32 ", &n)) return -1;\n", least);
    if (fixed) {
      fprintf(c, "  *pos += (uint64_t)n * %" PRIu32 "; /* inside: the count was checked */\n", fixed);
    } else {
      fprintf(c, "  for (uint32_t i = 0; i < n; i++) {\n");
      if (k) put_skip(g, c, "    ", k, "pos");
      put_skip(g, c, "    ", el, "pos");
      fprintf(c, "  }\n");
    }
  }
  fprintf(c, "  return 0;\n}\n\n");

  /* the view of a value at a slot / a position */
  fprintf(c, "static %s view_std_%s(const fbe_gen_view *x, uint64_t slot, uint64_t base) {\n", vt, m);
  if (is_simple_optional(t)) {
    fprintf(c, "  %s v;\n  fbe_gen_view e = fbe_gen_view_std_optional(x, slot, base, %" PRIu32 ");\n", ct, el->wire_size);
    fprintf(c, "  memset(&v, 0, sizeof v);\n  if (!e.data) return v;\n  v.has = true;\n");
    read_std_expr(g, e, el, "(&e)", "e.at", "e.at");
    fprintf(c, "  v.value = %s;\n  return v;\n}\n\n", e);
  } else if (opt) {
    fprintf(c, "  %s v = {fbe_gen_view_std_optional(x, slot, base, %" PRIu32 ")};\n  return v;\n}\n\n", vt, el->wire_size);
  } else if (array) {
    fprintf(c, "  %s v = {fbe_gen_view_make(x, slot, base, %" PRIu32 ")};\n  return v;\n}\n\n", vt, t->array_size);
  } else {
    fprintf(c, "  %s v = {fbe_gen_view_std_sequence(x, slot, base, %" PRIu32 ")};\n  return v;\n}\n\n", vt, stride);
  }

  fprintf(c, "static %s view_fin_%s(const fbe_gen_view *x, uint64_t pos) {\n", vt, m);
  if (is_simple_optional(t)) {
    fprintf(c, "  %s v;\n  fbe_gen_view e = fbe_gen_view_fin_optional(x, pos);\n", ct);
    fprintf(c, "  memset(&v, 0, sizeof v);\n  if (!e.data) return v;\n  v.has = true;\n");
    if (is_fixed(el)) {
      load_expr(g, e, el, "e.data + e.at");
      fprintf(c, "  if (!fbe_gen_view_short(&e, e.at, %" PRIu32 ")) v.value = %s;\n", el->wire_size, e);
    } else {
      fprintf(c, "  v.value = fbe_gen_view_fin_blob(&e, e.at);\n");
    }
    fprintf(c, "  return v;\n}\n\n");
  } else if (opt) {
    fprintf(c, "  %s v = {fbe_gen_view_fin_optional(x, pos)};\n  return v;\n}\n\n", vt);
  } else if (array) {
    fprintf(c, "  %s v = {fbe_gen_view_make(x, pos, 0, %" PRIu32 ")};\n  return v;\n}\n\n", vt, t->array_size);
  } else {
    fprintf(c, "  %s v = {fbe_gen_view_fin_sequence(x, pos, %" PRIu32 ")};\n  return v;\n}\n\n", vt, least);
  }

  if (has_view(t)) {
    if (opt) {
      fprintf(c, "bool %s_has(%s v) { return v.v.data != NULL; }\n\n", vt, vt);
      char et[NAME_MAX_LEN];
      vtype(g, et, el);
      fprintf(c, "%s %s_get(%s v) {\n  const fbe_gen_view *x = &v.v;\n  if (!x->data) ", et, vt, vt);
      put_zero_return(g, c, "  ", el);
      fprintf(c, "  if (x->model == FBE_MODEL_FINAL) {\n");
      return_fin(g, c, "    ", el, "x->at");
      fprintf(c, "  }\n");
      read_std_expr(g, e, el, "x", "x->at", "x->at");
      fprintf(c, "  return %s;\n}\n\n", e);
    } else {
      /* the position of element (entry) i in the final model: a walk over the ones before */
      fprintf(c, "static int item_fin_%s(const fbe_gen_view *x, uint32_t i, int value, uint64_t *pos) {\n", m);
      fprintf(c, "  fbe_reader rd = fbe_gen_view_reader(x);\n  const fbe_reader *r = &rd;\n  uint64_t p = x->at;\n");
      fprintf(c, "  if (p > rd.end) return -1;\n");
      if (fixed) {
        fprintf(c, "  p += (uint64_t)i * %" PRIu32 " + (value ? %" PRIu32 "u : 0u);\n  (void)r;\n", fixed, ks);
      } else {
        fprintf(c, "  for (uint32_t j = 0; j < i; j++) {\n");
        if (k) put_skip(g, c, "    ", k, "&p");
        put_skip(g, c, "    ", el, "&p");
        fprintf(c, "  }\n");
        if (k) {
          fprintf(c, "  if (value) {\n");
          put_skip(g, c, "    ", k, "&p");
          fprintf(c, "  }\n");
        } else {
          fprintf(c, "  (void)value;\n");
        }
      }
      fprintf(c, "  *pos = p;\n  return 0;\n}\n\n");
      if (array) fprintf(c, "uint32_t %s_count(%s v) {\n  (void)v;\n  return %" PRIu32 ";\n}\n\n", vt, vt, t->array_size);
      else if (!inline_at(t)) fprintf(c, "uint32_t %s_count(%s v) { return v.v.n; }\n\n", vt, vt);
      for (int part = k ? 0 : 1; part < 2; part++) { /* map: key_at, value_at; else at */
        const fbe_type *it = part == 0 ? k : el;
        char itv[NAME_MAX_LEN];
        vtype(g, itv, it);
        if (!k && inline_at(t))
          fprintf(c, "%s %s_at_(const uint8_t *data, uint64_t end, uint64_t at, uint64_t base, uint32_t n, fbe_model model,\n"
                     "    uint32_t i) {\n  %s v = {{data, end, at, base, n, model}};\n", itv, vt, vt);
        else
          fprintf(c, "%s %s_%s(%s v, uint32_t i) {\n", itv, vt, !k ? "at" : part == 0 ? "key_at" : "value_at", vt);
        fprintf(c, "  const fbe_gen_view *x = &v.v;\n  uint64_t p = 0;\n");
        if (array) fprintf(c, "  if (!x->data || i >= %" PRIu32 "u) ", t->array_size);
        else fprintf(c, "  if (!x->data || i >= x->n) ");
        put_zero_return(g, c, "  ", it);
        fprintf(c, "  if (x->model == FBE_MODEL_FINAL) {\n    if (item_fin_%s(x, i, %d, &p)) ", m, k && part == 1);
        put_zero_return(g, c, "    ", it);
        return_fin(g, c, "    ", it, "p");
        fprintf(c, "  }\n");
        snprintf(slot, sizeof slot, "x->at + (uint64_t)i * %" PRIu32 "%s", array ? el->wire_size : stride,
                 k && part == 1 ? " + " : "");
        if (k && part == 1) snprintf(slot + strlen(slot), sizeof slot - strlen(slot), "%" PRIu32, ks);
        read_std_expr(g, e, it, "x", slot, "x->base");
        fprintf(c, "  (void)p;\n  return %s;\n}\n\n", e);
      }
    }
  }

  /* equality with a value */
  fprintf(c, "static int equal_view_%s(%s a, %s const *b) {\n", m, vt, ct);
  if (is_simple_optional(t)) {
    fprintf(c, "  return equal_%s(&a, b);\n}\n\n", m);
    return;
  }
  if (opt) {
    int sp = is_struct_optional(t);
    fprintf(c, "  int has = %s_has(a);\n  if (has != (%s)) return 0;\n  if (!has) return 1;\n", vt,
            sp ? "*b != NULL" : "b->has");
    snprintf(e, sizeof e, "%s_get(a)", vt);
    put_equal_view(g, c, "  ", el, e, sp ? "(**b)" : "b->value");
  } else if (array) {
    fprintf(c, "  for (uint32_t i = 0; i < %" PRIu32 "; i++) {\n", t->array_size);
    snprintf(e, sizeof e, "%s_at(a, i)", vt);
    put_equal_view(g, c, "    ", el, e, "b->items[i]");
    fprintf(c, "  }\n");
  } else {
    fprintf(c, "  if (%s_count(a) != b->count) return 0;\n  for (uint32_t i = 0; i < b->count; i++) {\n", vt);
    if (k) {
      snprintf(e, sizeof e, "%s_key_at(a, i)", vt);
      put_equal_view(g, c, "    ", k, e, "b->data[i].key");
      snprintf(e, sizeof e, "%s_value_at(a, i)", vt);
      put_equal_view(g, c, "    ", el, e, "b->data[i].value");
    } else if (has_scalar_data(t)) { /* through _data, which every such view test reads */
      char p[EXPR_LEN];
      snprintf(p, sizeof p, "%s_data(a) + (uint64_t)i * %" PRIu32, vt, el->wire_size);
      load_expr(g, e, el, p);
      put_equal_view(g, c, "    ", el, e, "b->data[i]");
    } else {
      snprintf(e, sizeof e, "%s_at(a, i)", vt);
      put_equal_view(g, c, "    ", el, e, "b->data[i]");
    }
    fprintf(c, "  }\n");
  }
  fprintf(c, "  return 1;\n}\n\n");
}

/* Statements setting lvalue lv (zeroed) of fixed-size or blob type t to default d. */
static void put_default_value(const gen *g, FILE *o, const fbe_type *t, const fbei_default *d, const char *lv) {
  char ct[NAME_MAX_LEN], lit[64];
  ctype(g, ct, t);
  switch (d->kind) {
    case FBE_DEF_BOOL: fprintf(o, "  %s = %s;\n", lv, d->u ? "true" : "false"); break;
    case FBE_DEF_INT:
      int_literal(lit, t->wire, d->u);
      fprintf(o, "  %s = (%s)%s;\n", lv, ct, lit);
      break;
    case FBE_DEF_FLOAT:
      double_literal(lit, d->d);
      fprintf(o, "  %s = (%s)%s;\n", lv, ct, lit);
      break;
    case FBE_DEF_DECIMAL: case FBE_DEF_UUID:
      fprintf(o, "  memcpy(%s.bytes, ", lv);
      put_cstring(o, d->bytes, 16);
      fprintf(o, ", 16);\n");
      break;
    case FBE_DEF_STRING:
      fprintf(o, "  %s.data = (const uint8_t *)", lv);
      put_cstring(o, (const uint8_t *)d->str, d->len);
      fprintf(o, ";\n  %s.size = %" PRIu32 ";\n", lv, d->len);
      break;
    default: break; /* utc, uuid1, uuid4: zero (decode computes a new value) */
  }
}

/* Statements returning field f's schema default as its view. */
static void return_field_default(const gen *g, FILE *o, const fbe_field *f) {
  char vt[NAME_MAX_LEN];
  const fbe_type *t = f->type;
  int literal = f->def.kind != FBE_DEF_NONE && f->def.kind != FBE_DEF_NULL;
  vtype(g, vt, t);
  fprintf(o, "  %s d;\n  memset(&d, 0, sizeof d);\n", vt);
  if (literal && is_simple_optional(t)) {
    fprintf(o, "  d.has = true;\n");
    put_default_value(g, o, t->elem, &f->def, "d.value");
  } else if (literal && (is_fixed(t) || is_blob(t))) {
    put_default_value(g, o, t, &f->def, "d");
  }
  fprintf(o, "  return d;\n");
}

/* The accessor of field i of st, into o (in_header: static inline, C++-clean). */
static void field_accessor(const gen *g, FILE *o, const fbe_struct *st, uint32_t i, int in_header) {
  char n[NAME_MAX_LEN], vt[NAME_MAX_LEN], e[EXPR_LEN], slot[64];
  const fbe_field *f = &st->fields[i];
  const fbe_type *t = f->type;
  c_name(n, st->full_name);
  vtype(g, vt, t);
  fprintf(o, "%s%s %s_view_%s(%s_view view) {\n  const fbe_gen_view *x = &view.v;\n", in_header ? "static inline " : "",
          vt, n, ident(f->name), n);
  /* final: after fields of fixed sizes only, the field is at a constant offset (no walk) */
  uint64_t prefix = 0;
  uint32_t j = 0;
  while (j < i && is_fixed(st->fields[j].type)) prefix += st->fields[j++].type->wire_size;
  fprintf(o, "  if (x->data) {\n    if (x->model == FBE_MODEL_FINAL) {\n");
  if (j == i && is_fixed(t))
    fprintf(o, "      uint64_t pos = x->at + %" PRIu64 "u;\n      if (pos <= x->end && %" PRIu32 "u <= x->end - pos) ",
            prefix, t->wire_size);
  else if (j == i)
    fprintf(o, "      uint64_t pos = x->at + %" PRIu64 "u;\n      if (pos <= x->end) ", prefix);
  else
    /* the walk takes the view's fields, not x: were x (the by-value view) to escape,
     * every accessor would copy the view to memory first, whichever model it reads */
    fprintf(o, "      uint64_t pos = 0;\n"
               "      if (!%s_fin_field_(x->data, x->end, x->at, %" PRIu32 ", %" PRIu32 ", &pos)) ", n, i,
            is_fixed(t) ? t->wire_size : 0);
  if (t->kind == FBE_KIND_STRUCT) {
    fprintf(o, "{\n        %s r;\n        r.v = fbe_gen_view_make(x, pos, 0, 0);\n        return r;\n      }\n", vt);
  } else {
    if (is_fixed(t)) load_expr(g, e, t, "x->data + pos");
    else read_fin_expr(g, e, t, "pos");
    fprintf(o, "return %s;\n", e);
  }
  /* standard: present in the body (an older writer's is shorter), and not null */
  fprintf(o, "    } else if (x->n >= %" PRIu32, i < st->ninherited ? st->base_body_size : f->wire_offset + t->wire_size);
  if (is_blob(t) || t->kind == FBE_KIND_STRUCT)
    fprintf(o, " && fbe_load32(x->data + x->at + %" PRIu32 ") != 0", f->wire_offset);
  else if (t->kind == FBE_KIND_OPTIONAL)
    fprintf(o, " && x->data[x->at + %" PRIu32 "] != 0 && fbe_load32(x->data + x->at + %" PRIu32 ") != 0",
            f->wire_offset, f->wire_offset + 1);
  fprintf(o, ") {\n");
  snprintf(slot, sizeof slot, "x->at + %" PRIu32, f->wire_offset);
  read_std_expr(g, e, t, "x", slot, "x->at");
  fprintf(o, "      return %s;\n    }\n  }\n", e);
  return_field_default(g, o, f);
  fprintf(o, "}\n\n");
}

/* Header: the inline accessors of st, after every prototype. */
static void struct_view_inline(const gen *g, const fbe_struct *st) {
  for (uint32_t i = 0; i < st->nfields; i++)
    if (inline_accessor(st->fields[i].type)) field_accessor(g, g->h, st, i, 1);
}

static void struct_view_source(const gen *g, const fbe_struct *st) {
  char n[NAME_MAX_LEN], e[EXPR_LEN], lv[NAME_MAX_LEN];
  FILE *c = g->c;
  c_name(n, st->full_name);
  fprintf(c, "/* ---- %s_view */\n\n", n);

  fprintf(c, "int %s_skip_fin_(const fbe_reader *r, uint64_t *pos) {\n", n);
  for (uint32_t i = 0; i < st->nfields; i++) put_skip(g, c, "  ", st->fields[i].type, "pos");
  fprintf(c, "  (void)r;\n  (void)pos;\n  return 0;\n}\n\n");

  if (st->nfields) {
    /* straight-line: runs of fixed-size fields add a constant, checked once before the
     * next variable-size field is read (p stays inside the model) */
    fprintf(c, "/* The final position of field `index` when `need` bytes are there: a walk over the\n"
               " * variable-size fields before it. */\n");
    fprintf(c, "int %s_fin_field_(const uint8_t *data, uint64_t end, uint64_t at, uint32_t index, uint64_t need,\n"
               "                     uint64_t *pos) {\n", n);
    fprintf(c, "  fbe_reader rd = {data, end};\n  const fbe_reader *r = &rd;\n  uint64_t p = at;\n");
    fprintf(c, "  if (p > rd.end) return -1;\n");
    uint64_t pending = 0;
    for (uint32_t i = 0; i < st->nfields; i++) {
      const fbe_type *t = st->fields[i].type;
      fprintf(c, "  if (index == %" PRIu32 "u) {\n    p += %" PRIu64 "u;\n    goto done;\n  }\n", i, pending);
      if (i + 1 == st->nfields) break;
      if (is_fixed(t)) {
        pending += t->wire_size;
        continue;
      }
      if (pending) {
        fprintf(c, "  if (fbe_fin_need(r, p, %" PRIu64 "u)) return -1;\n  p += %" PRIu64 "u;\n", pending, pending);
        pending = 0;
      }
      put_skip(g, c, "  ", t, "&p");
    }
    fprintf(c, "  return -1;\ndone:\n  (void)r;\n");
    fprintf(c, "  if (p > rd.end || need > rd.end - p) return -1;\n  *pos = p;\n  return 0;\n}\n\n");
  }

  for (uint32_t i = 0; i < st->nfields; i++)
    if (!inline_accessor(st->fields[i].type)) field_accessor(g, c, st, i, 0);

  fprintf(c, "int %s_equal_view_(%s_view view, const %s *value) {\n", n, n, n);
  for (uint32_t i = 0; i < st->nfields; i++) {
    snprintf(e, sizeof e, "%s_view_%s(view)", n, ident(st->fields[i].name));
    snprintf(lv, sizeof lv, "value->%s", ident(st->fields[i].name));
    put_equal_view(g, c, "  ", st->fields[i].type, e, lv);
  }
  fprintf(c, "  (void)view;\n  (void)value;\n  return 1;\n}\n\n");

  fprintf(c, "fbe_status %s_open_view(%s_view *view, fbe_model model, const uint8_t *data, size_t size,\n"
             "                        size_t *model_size, fbe_error *err) {\n", n, n);
  fprintf(c, "  fbe_status rc = model == FBE_MODEL_FINAL ? %s_verify_final_(data, size, model_size, err, &view->v)\n"
             "                                           : %s_verify_standard_(data, size, model_size, err, &view->v);\n",
          n, n);
  fprintf(c, "  if (rc) view->v = fbe_gen_view_none();\n  return rc;\n}\n\n");

  fprintf(c, "fbe_status %s_from_view(%s *v, %s_view view, const fbe_allocator *a, fbe_error *err) {\n", n, n, n);
  fprintf(c, "  fbe_error local;\n  fbe_gen_reader g;\n  if (!err) err = &local;\n");
  fprintf(c, "  if (!view.v.data) return %s_init(v, a); /* no bytes: the defaults */\n", n);
  fprintf(c, "  memset(v, 0, sizeof *v);\n  fbe_gen_view_reader_open(&g, &view.v, a, err);\n");
  fprintf(c, "  uint64_t pos = view.v.at;\n");
  fprintf(c, "  if (fbe_gen_charge(&g, 0, %" PRIu64 "u) ||\n", fbei_cost_root(st));
  fprintf(c, "      (view.v.model == FBE_MODEL_FINAL ? %s_get_fin_(&g, &pos, v) : %s_get_body_(&g, pos, view.v.n, v))) {\n", n, n);
  fprintf(c, "    %s_free(v, a);\n    memset(v, 0, sizeof *v);\n    return err->code;\n  }\n  return FBE_OK;\n}\n\n", n);
}

/* The type table: wrappers with void pointers, for generic code. */
static void type_table(const gen *g) {
  FILE *c = g->c, *h = g->h;
  char n[NAME_MAX_LEN];
  const fbe_package *pkg = g->pkg;
  if (!pkg->nstructs) return;
  fprintf(c, "/* ================================================================ type table */\n\n");
  for (uint32_t s = 0; s < pkg->nstructs; s++) {
    c_name(n, pkg->structs[s]->full_name);
    fprintf(c, "static fbe_status %s_init_any(void *v, const fbe_allocator *a) { return %s_init((%s *)v, a); }\n", n, n, n);
    fprintf(c, "static void %s_free_any(void *v, const fbe_allocator *a) { %s_free((%s *)v, a); }\n", n, n, n);
    fprintf(c, "static fbe_status %s_encode_any(const void *v, fbe_model m, fbe_buffer *out, fbe_error *err) {\n"
               "  return %s_encode((const %s *)v, m, out, err);\n}\n", n, n, n);
    fprintf(c, "static fbe_status %s_decode_any(void *v, fbe_model m, const uint8_t *d, size_t n, const fbe_allocator *a,\n"
               "                                 size_t *size, fbe_error *err) {\n"
               "  return %s_decode((%s *)v, m, d, n, a, size, err);\n}\n", n, n, n);
    fprintf(c, "static fbe_status %s_decode_trusted_any(void *v, fbe_model m, const uint8_t *d, size_t n,\n"
               "                                         const fbe_allocator *a, size_t *size, fbe_error *err) {\n"
               "  return %s_decode_trusted((%s *)v, m, d, n, a, size, err);\n}\n", n, n, n);
    fprintf(c, "static fbe_status %s_to_json_any(const void *v, const fbe_schema *s, int pretty, fbe_buffer *out,\n"
               "                                  fbe_error *err) {\n"
               "  return %s_to_json((const %s *)v, s, pretty, out, err);\n}\n", n, n, n);
    fprintf(c, "static fbe_status %s_from_json_any(void *v, const fbe_schema *s, const char *t, size_t n,\n"
               "                                    const fbe_allocator *a, fbe_error *err) {\n"
               "  return %s_from_json((%s *)v, s, t, n, a, err);\n}\n", n, n, n);
    fprintf(c, "static fbe_status %s_open_view_any(fbe_gen_view *view, fbe_model m, const uint8_t *d, size_t n,\n"
               "                                    size_t *size, fbe_error *err) {\n"
               "  %s_view v;\n  fbe_status rc = %s_open_view(&v, m, d, n, size, err);\n  *view = v.v;\n  return rc;\n}\n",
            n, n, n);
    fprintf(c, "static fbe_status %s_from_view_any(void *v, fbe_gen_view view, const fbe_allocator *a, fbe_error *err) {\n"
               "  %s_view typed = {view};\n  return %s_from_view((%s *)v, typed, a, err);\n}\n", n, n, n, n);
    fprintf(c, "static int %s_equal_view_any(fbe_gen_view view, const void *v) {\n"
               "  %s_view typed = {view};\n  return %s_equal_view_(typed, (const %s *)v);\n}\n\n", n, n, n, n);
  }
  fprintf(h, "/* Every struct of the package, for generic code (fbe/generated.h). */\n");
  fprintf(h, "extern const fbe_gen_type %s_types[%" PRIu32 "];\n#define %s_TYPE_COUNT %" PRIu32 "u\n\n",
          g->prefix, pkg->nstructs, g->prefix, pkg->nstructs);
  fprintf(c, "const fbe_gen_type %s_types[%" PRIu32 "] = {\n", g->prefix, pkg->nstructs);
  for (uint32_t s = 0; s < pkg->nstructs; s++) {
    c_name(n, pkg->structs[s]->full_name);
    fprintf(c, "    {\"%s\", sizeof(%s), %s_init_any, %s_free_any, %s_encode_any, %s_decode_any,\n"
               "     %s_decode_trusted_any, %s_verify, %s_to_json_any, %s_from_json_any,\n"
               "     %s_open_view_any, %s_from_view_any, %s_equal_view_any},\n",
            pkg->structs[s]->full_name, n, n, n, n, n, n, n, n, n, n, n, n);
  }
  fprintf(c, "};\n");
}

/* ------------------------------------------------------------ enums */

static void enum_decl(const gen *g, const fbe_enum *e) {
  char n[NAME_MAX_LEN], lit[64];
  FILE *h = g->h, *c = g->c;
  c_name(n, e->full_name);
  fprintf(h, "/* %s %s : %s */\n", e->is_flags ? "flags" : "enum", e->full_name, fbe_kind_name(e->base));
  fprintf(h, "typedef %s %s;\n", scalar_ctype(e->base), n);
  for (uint32_t i = 0; i < e->nvalues; i++) {
    int_literal(lit, e->base, e->values[i].value);
    fprintf(h, "#define %s_%s ((%s)%s)\n", n, e->values[i].name, n, lit);
  }
  fprintf(h, "/* Declared names and values, declaration order, ending with {NULL, 0}. */\n");
  fprintf(h, "extern const fbe_enum_entry %s_entries[%" PRIu32 "];\n", n, e->nvalues + 1);
  if (e->is_flags)
    fprintf(h, "/* The name of a single declared flag value, NULL otherwise (combine names yourself). */\n");
  else
    fprintf(h, "/* The name of a declared value, NULL otherwise (first declared name wins). */\n");
  fprintf(h, "const char *%s_name(%s value);\n\n", n, n);

  fprintf(c, "const fbe_enum_entry %s_entries[%" PRIu32 "] = {\n", n, e->nvalues + 1);
  for (uint32_t i = 0; i < e->nvalues; i++) {
    int_literal(lit, FBE_KIND_UINT64, e->values[i].value);
    fprintf(c, "    {\"%s\", %s},\n", e->values[i].name, lit);
  }
  fprintf(c, "    {NULL, 0}};\n\n");
  fprintf(c, "const char *%s_name(%s value) {\n", n, n);
  fprintf(c, "  for (const fbe_enum_entry *e = %s_entries; e->name; e++)\n", n);
  fprintf(c, "    if ((%s)e->value == value) return e->name;\n", n);
  fprintf(c, "  return NULL;\n}\n\n");
}

/* ------------------------------------------------------------ packages */

/* Structs of this package that must be complete before st (held inline). */
static void inline_deps(gen *g, const fbe_type *t, int under_pointer);
static void define_struct(gen *g, const fbe_struct *st);

static void inline_deps(gen *g, const fbe_type *t, int under_pointer) {
  switch (t->kind) {
    case FBE_KIND_STRUCT:
      if (!under_pointer && t->st->pkg == g->pkg) define_struct(g, t->st);
      break;
    case FBE_KIND_OPTIONAL: inline_deps(g, t->elem, t->elem->kind == FBE_KIND_STRUCT); break;
    case FBE_KIND_ARRAY: inline_deps(g, t->elem, under_pointer); break;
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET: inline_deps(g, t->elem, 1); break;
    case FBE_KIND_MAP: case FBE_KIND_HASH: /* entries (key and value inline) come after the structs */
      inline_deps(g, t->key, 1);
      inline_deps(g, t->elem, 1);
      break;
    default: break;
  }
}

static void define_struct(gen *g, const fbe_struct *st) {
  for (size_t i = 0; i < g->nemitted; i++)
    if (g->emitted[i] == st) return;
  if (g->nemitted == sizeof g->emitted / sizeof g->emitted[0]) return;
  g->emitted[g->nemitted++] = st; /* marked first: a cycle through pointers stops here */
  for (uint32_t i = 0; i < st->nfields; i++) inline_deps(g, st->fields[i].type, 0);
  struct_header(g, st);
}

/* ------------------------------------------------------------ name collisions
 * Every C name the generated files declare, with what it stands for. Two different
 * things with one C name (struct A's A_init and a struct A_init, a struct named like a
 * compound type vec_int32, packages a with b_C and a.b with C, fields NULL and NULL_)
 * would not compile: such a schema is refused, naming both. */

typedef struct name_use {
  char *name, *what;
} name_use;

typedef struct name_table {
  name_use *items;
  size_t n, cap;
  int oom;
} name_table;

static char *copy_text(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

FBE_PRINTF(3, 4)
static void use(name_table *t, const char *name, const char *fmt, ...) {
  if (t->oom) return;
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 256;
    name_use *grown = realloc(t->items, cap * sizeof *grown);
    if (!grown) {
      t->oom = 1;
      return;
    }
    t->items = grown;
    t->cap = cap;
  }
  char what[NAME_MAX_LEN * 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  name_use *u = &t->items[t->n];
  u->name = copy_text(name);
  u->what = copy_text(what);
  if (!u->name || !u->what) {
    free(u->name);
    free(u->what);
    t->oom = 1;
    return;
  }
  t->n++;
}

static int by_name(const void *a, const void *b) {
  const name_use *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : strcmp(x->what, y->what);
}

/* Sorts the table; prints every C name that stands for two things. Returns how many. */
static int report_clashes(name_table *t, const char *scope) {
  int clashes = 0;
  if (t->n > 1) qsort(t->items, t->n, sizeof *t->items, by_name);
  for (size_t i = 1; i < t->n; i++) {
    const name_use *a = &t->items[i - 1], *b = &t->items[i];
    if (strcmp(a->name, b->name) || !strcmp(a->what, b->what)) continue;
    fprintf(stderr, "fbe: gen c: %sthe C name %s stands for both %s and %s; rename one of them\n",
            scope, a->name, a->what, b->what);
    clashes++;
  }
  for (size_t i = 0; i < t->n; i++) free(t->items[i].name), free(t->items[i].what);
  free(t->items);
  memset(t, 0, sizeof *t);
  return clashes;
}

/* What a compound type is, in schema words (list/set share vector's C type, hash map's). */
static void describe_type(char *out, size_t cap, const fbe_type *t) {
  char a[NAME_MAX_LEN], b[NAME_MAX_LEN];
  switch (t->kind) {
    case FBE_KIND_ENUM: case FBE_KIND_FLAGS: snprintf(out, cap, "%s", t->enm->full_name); return;
    case FBE_KIND_STRUCT: snprintf(out, cap, "%s", t->st->full_name); return;
    case FBE_KIND_OPTIONAL: describe_type(a, sizeof a, t->elem); snprintf(out, cap, "%s?", a); return;
    case FBE_KIND_ARRAY:
      describe_type(a, sizeof a, t->elem);
      snprintf(out, cap, "%s[%" PRIu32 "]", a, t->array_size);
      return;
    case FBE_KIND_VECTOR: case FBE_KIND_LIST: case FBE_KIND_SET:
      describe_type(a, sizeof a, t->elem);
      snprintf(out, cap, "%s[]", a);
      return;
    case FBE_KIND_MAP: case FBE_KIND_HASH:
      describe_type(a, sizeof a, t->key);
      describe_type(b, sizeof b, t->elem);
      snprintf(out, cap, "%s<%s>", b, a);
      return;
    default: snprintf(out, cap, "%s", fbe_kind_name(t->kind)); return;
  }
}

/* The names a compound type of package `prefix` declares: its typedef (and a map's entry
 * struct) and its static helpers. */
static void use_compound(name_table *t, const char *prefix, const fbe_type *ty) {
  static const char *const helpers[] = {"put_std_", "get_std_", "chk_std_", "put_fin_", "get_fin_",
                                        "chk_fin_", "free_", "get_std_item_", "chk_std_item_",
                                        "get_fin_item_", "chk_fin_item_", "equal_", "hash_",
                                        "key_hash_", "key_equal_", "drop_"};
  if (!is_compound(ty)) return;
  if (ty->key) use_compound(t, prefix, ty->key);
  use_compound(t, prefix, ty->elem);
  char m[NAME_MAX_LEN], hm[NAME_MAX_LEN], d[NAME_MAX_LEN], n[NAME_MAX_LEN * 2];
  mangle(m, ty);
  helper_mangle(hm, ty);
  describe_type(d, sizeof d, ty);
  snprintf(n, sizeof n, "%s_%s", prefix, m);
  use(t, n, "the C type of %s", d);
  if (ty->wire == FBE_KIND_MAP) {
    snprintf(n, sizeof n, "%s_%s_entry", prefix, m);
    use(t, n, "the C type of %s", d);
  }
  for (size_t i = 0; i < sizeof helpers / sizeof *helpers; i++) {
    snprintf(n, sizeof n, "%s%s", helpers[i], hm);
    use(t, n, "a helper of %s", d); /* static: the same type in two packages is no clash */
  }
  static const char *const view_helpers[] = {"skip_fin_", "view_std_", "view_fin_", "equal_view_", "item_fin_"};
  for (size_t i = 0; i < sizeof view_helpers / sizeof *view_helpers; i++) {
    snprintf(n, sizeof n, "%s%s", view_helpers[i], m);
    use(t, n, "a helper of %s", d);
  }
  static const char *const view_names[] = {"_view", "_view_has", "_view_get", "_view_count", "_view_at", "_view_at_",
                                           "_view_key_at", "_view_value_at"};
  for (size_t i = 0; i < sizeof view_names / sizeof *view_names; i++) {
    snprintf(n, sizeof n, "%s_%s%s", prefix, m, view_names[i]);
    use(t, n, "the C type of %s", d);
  }
}

/* Every name declared per struct, enum and package (keep in step with struct_prototypes,
 * struct_source, enum_decl and type_table). */
static void use_package(name_table *t, const fbe_package *pkg) {
  static const char *const struct_names[] = {
      "", "_TYPE_ID", "_chk_fin_", "_chk_std_", "_chk_fin_body_", "_chk_std_body_", "_decode", "_decode_any", "_decode_trusted",
      "_decode_trusted_any", "_decode_trusted_final", "_decode_trusted_standard", "_defaults_",
      "_encode", "_encode_any", "_encode_final", "_encode_standard", "_equal_", "_field_default", "_free",
      "_free_any", "_from_json", "_from_json_any", "_get_fin_", "_get_short", "_get_std_", "_init",
      "_init_any", "_key_equal_", "_key_hash_", "_put_fin_", "_put_std_", "_to_json", "_to_json_any", "_verify",
      "_verify_final", "_verify_standard", "_verify_final_", "_verify_standard_", "_view", "_open_view", "_open_view_any", "_from_view",
      "_from_view_any", "_equal_view_", "_equal_view_any", "_std_view_", "_skip_fin_", "_get_body_",
      "_fin_field_"};
  char prefix[NAME_MAX_LEN], n[NAME_MAX_LEN * 2];
  c_name(prefix, pkg->name);
  use(t, prefix, "the files and header guard of package %s", pkg->name);
  snprintf(n, sizeof n, "%s_types", prefix);
  use(t, n, "the type table of package %s", pkg->name);
  snprintf(n, sizeof n, "%s_TYPE_COUNT", prefix);
  use(t, n, "the type count of package %s", pkg->name);
  for (uint32_t s = 0; s < pkg->nstructs; s++) {
    const fbe_struct *st = pkg->structs[s];
    char cn[NAME_MAX_LEN];
    c_name(cn, st->full_name);
    for (size_t i = 0; i < sizeof struct_names / sizeof *struct_names; i++) {
      snprintf(n, sizeof n, "%s%s", cn, struct_names[i]);
      use(t, n, "struct %s", st->full_name);
    }
    for (uint32_t i = 0; i < st->nfields; i++) {
      use_compound(t, prefix, st->fields[i].type);
      snprintf(n, sizeof n, "%s_view_%s", cn, ident(st->fields[i].name));
      use(t, n, "the view accessor of %s.%s", st->full_name, st->fields[i].name);
    }
  }
  for (uint32_t e = 0; e < pkg->nenums; e++) {
    const fbe_enum *en = pkg->enums[e];
    char cn[NAME_MAX_LEN];
    c_name(cn, en->full_name);
    use(t, cn, "enum %s", en->full_name);
    snprintf(n, sizeof n, "%s_entries", cn);
    use(t, n, "the name table of enum %s", en->full_name);
    snprintf(n, sizeof n, "%s_name", cn);
    use(t, n, "the name function of enum %s", en->full_name);
    for (uint32_t v = 0; v < en->nvalues; v++) {
      snprintf(n, sizeof n, "%s_%s", cn, en->values[v].name);
      use(t, n, "value %s.%s", en->full_name, en->values[v].name);
    }
  }
}

/* 0 when every package can be generated without two things meeting in one C name. */
static int gen_check_names(const fbe_schema *schema) {
  name_table t = {NULL, 0, 0, 0};
  int clashes = 0;
  for (uint32_t p = 0; p < schema->npackages; p++) {
    const fbe_package *pkg = schema->packages[p];
    use_package(&t, pkg);
    for (uint32_t s = 0; s < pkg->nstructs; s++) { /* members: per struct */
      const fbe_struct *st = pkg->structs[s];
      name_table m = {NULL, 0, 0, 0};
      for (uint32_t i = 0; i < st->nfields; i++)
        use(&m, ident(st->fields[i].name), "field %s", st->fields[i].name);
      char scope[NAME_MAX_LEN];
      snprintf(scope, sizeof scope, "struct %s: ", st->full_name);
      if (m.oom) t.oom = 1;
      clashes += report_clashes(&m, scope);
    }
  }
  if (t.oom) {
    report_clashes(&t, "");
    fprintf(stderr, "fbe: gen c: out of memory\n");
    return -1;
  }
  clashes += report_clashes(&t, "");
  return clashes ? -1 : 0;
}

static FILE *open_out(const char *dir, const char *name, const char *ext) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
  FILE *f = fopen(path, "w");
  if (!f) fprintf(stderr, "fbe: cannot write %s: %s\n", path, strerror(errno));
  return f;
}

static int gen_package(const fbe_package *pkg, const char *outdir) {
  static gen g; /* large tables: not on the stack */
  memset(&g, 0, sizeof g);
  g.pkg = pkg;
  c_name(g.prefix, pkg->name);
  g.h = open_out(outdir, g.prefix, "h");
  g.c = open_out(outdir, g.prefix, "c");
  if (!g.h || !g.c) {
    if (g.h) fclose(g.h);
    if (g.c) fclose(g.c);
    return -1;
  }
  FILE *h = g.h, *c = g.c;
  const char *file = strrchr(pkg->file, '/') ? strrchr(pkg->file, '/') + 1 : pkg->file; /* no build paths */
  fprintf(h, "/* Generated by `fbe gen c` from %s (package %s). Do not edit.\n"
             " * Structs are flattened: inherited fields come first. See core/GEN_C.md. */\n",
          file, pkg->name);
  fprintf(h, "#ifndef FBE_GENERATED_%s_H\n#define FBE_GENERATED_%s_H\n\n", g.prefix, g.prefix);
  fprintf(h, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n#include \"fbe/fbe.h\"\n");
  for (uint32_t i = 0; i < pkg->nimports; i++) {
    char in[NAME_MAX_LEN];
    c_name(in, pkg->imports[i]->name);
    fprintf(h, "#include \"%s.h\"\n", in);
  }
  fprintf(h, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");

  fprintf(c, "/* Generated by `fbe gen c` from %s (package %s). Do not edit. */\n", file, pkg->name);
  fprintf(c, "#include <math.h>\n#include <stdint.h>\n#include <string.h>\n#include \"%s.h\"\n\n", g.prefix);

  for (uint32_t i = 0; i < pkg->nenums; i++) enum_decl(&g, pkg->enums[i]);

  char n[NAME_MAX_LEN];
  for (uint32_t s = 0; s < pkg->nstructs; s++) {
    c_name(n, pkg->structs[s]->full_name);
    fprintf(h, "typedef struct %s %s;\n", n, n);
  }
  if (pkg->nstructs) fprintf(h, "\n");
  for (uint32_t s = 0; s < pkg->nstructs; s++) define_struct(&g, pkg->structs[s]);
  map_entries(&g);
  for (uint32_t s = 0; s < pkg->nstructs; s++) struct_prototypes(&g, pkg->structs[s]);
  static const fbe_type *vtypes[4096]; /* compound types with views, inner first */
  size_t nvtypes = 0;
  for (uint32_t s = 0; s < pkg->nstructs; s++)
    for (uint32_t i = 0; i < pkg->structs[s]->nfields; i++)
      collect_views(pkg->structs[s]->fields[i].type, vtypes, &nvtypes, sizeof vtypes / sizeof vtypes[0]);
  view_typedefs(&g, vtypes, nvtypes);
  for (size_t i = 0; i < nvtypes; i++) compound_view_prototypes(&g, vtypes[i]);
  if (nvtypes) fprintf(h, "\n");
  for (uint32_t s = 0; s < pkg->nstructs; s++) struct_view_prototypes(&g, pkg->structs[s]);
  for (size_t i = 0; i < nvtypes; i++) compound_view_inline(&g, vtypes[i]);
  for (uint32_t s = 0; s < pkg->nstructs; s++) struct_view_inline(&g, pkg->structs[s]);

  /* compound helpers: prototypes first (they call each other), then bodies */
  static const fbe_type *types[4096];
  size_t ntypes = 0;
  for (uint32_t s = 0; s < pkg->nstructs; s++)
    for (uint32_t i = 0; i < pkg->structs[s]->nfields; i++)
      collect(pkg->structs[s]->fields[i].type, types, &ntypes, sizeof types / sizeof types[0]);
  for (uint32_t s = 0; s < pkg->nstructs; s++) /* the compound types a key hashes */
    for (uint32_t i = 0; i < pkg->structs[s]->nfields; i++)
      if (pkg->structs[s]->fields[i].is_key)
        collect(pkg->structs[s]->fields[i].type, g.hashed, &g.nhashed, sizeof g.hashed / sizeof g.hashed[0]);
  for (size_t i = 0; i < ntypes; i++) helper_prototypes(&g, types[i]);
  if (ntypes) fprintf(c, "\n");
  for (size_t i = 0; i < ntypes; i++) compound_helpers(&g, types[i]);
  for (size_t i = 0; i < nvtypes; i++) compound_view_static_prototypes(&g, vtypes[i]);
  if (nvtypes) fprintf(c, "\n");
  for (size_t i = 0; i < nvtypes; i++) compound_view_source(&g, vtypes[i]);
  for (uint32_t s = 0; s < pkg->nstructs; s++) struct_source(&g, pkg->structs[s]);
  for (uint32_t s = 0; s < pkg->nstructs; s++) struct_view_source(&g, pkg->structs[s]);
  type_table(&g);

  fprintf(h, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
  int bad = ferror(h) || ferror(c);
  bad |= fclose(h) != 0;
  bad |= fclose(c) != 0;
  if (bad) fprintf(stderr, "fbe: cannot write the files of package %s\n", pkg->name);
  return bad ? -1 : 0;
}

int cmd_gen(int argc, char **argv) {
  if (argc < 1 || strcmp(argv[0], "c")) {
    fprintf(stderr, "usage: fbe gen c [-I DIR]... SCHEMA.fbe -o OUTDIR\n");
    return 2;
  }
  cli_options o;
  if (cli_parse(argc - 1, argv + 1, &o)) return 2;
  if (o.positional_count != 1 || !o.output) {
    fprintf(stderr, "usage: fbe gen c [-I DIR]... SCHEMA.fbe -o OUTDIR\n");
    return 2;
  }
  o.schema_file = o.positional[0];
  fbe_schema *schema = cli_load_schema(&o);
  if (!schema) return 1;
  if (gen_check_names(schema)) {
    fbe_schema_release(schema);
    return 1;
  }
  make_dir(o.output); /* may exist already; fopen reports real problems */
  int rc = 0;
  for (uint32_t p = 0; p < schema->npackages && !rc; p++)
    rc = gen_package(schema->packages[p], o.output);
  fbe_schema_release(schema);
  return rc ? 1 : 0;
}

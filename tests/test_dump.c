/* Unit tests of fbe_dump (core/include/fbe/dump.h), the annotated hex dump.
 *
 * Golden files. tests/golden/account.standard.dump and account.final.dump are the
 * dumps of the README Account (conformance records pub-proto-Account-readme-standard
 * and -final, the bytes of FORMAT.md 11.1 and 11.2). They were produced by this code
 * and then checked by hand, line by line, against the annotated tables of FORMAT.md
 * 11.1 (60 rows) and 11.2 (35 rows): for every row the dump has exactly one line with
 * the same offset, the same length and the same bytes, and its text says what the
 * row's meaning says (the same pointer value, target and base; the same size, type
 * id, length, count or value; the same field, with the full path where the spec
 * abbreviates "type id 1" or "side" inside orders[i]); no line is left over and no
 * byte is unreferenced. That check is also automated below: spec_std[] and
 * spec_fin[] copy offset, length, bytes and meaning of every row verbatim from the
 * spec tables and give the text column the dump must show for that row.
 *
 * Malformed input: the dump shows everything up to the problem and ends with a "!!"
 * line naming the offset and reason fbe_verify reports. Hostile input (every
 * truncation, random byte changes, deep nesting, shared blocks) must never crash
 * (run under AddressSanitizer: every buffer is an exact-size copy), must keep every
 * byte on exactly one line, and must agree with fbe_verify on valid/invalid.
 *
 * Shared blocks: a block several pointers lead to is listed once, the later pointers'
 * lines naming the first (test_shared_*), with verify's charges and errors; the
 * memory a dump holds (fbe_memory_in_use, sampled by the writer) is its small
 * records', within the budget; fbe_dump_to writes what fbe_dump returns.
 *
 * Set FBE_UPDATE_GOLDEN=1 to rewrite the golden files (then check them by hand
 * again). */
#include "fbe_test.h"
#include "fbe/dump.h"

#ifndef FBE_TESTS_DIR
#error "FBE_TESTS_DIR must be defined by the build"
#endif

typedef struct fixture {
  fbe_schema *test;    /* test.fbe (imports proto) */
  fbe_schema *protoex; /* protoex.fbe (imports proto) */
  fbe_schema *deep;    /* package deep: struct Node { Node? next; Node[] kids; } */
  const fbe_struct *account;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  assert_non_null(f);
  f->test = t_load("test.fbe");
  f->protoex = t_load("protoex.fbe");
  f->deep = t_load_text("package deep\n\nstruct Node\n{\n    Node? next;\n    Node[] kids;\n}\n",
                        "deep.fbe");
  f->account = t_struct(f->test, "proto.Account");
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fbe_schema_release(f->test);
  fbe_schema_release(f->protoex);
  fbe_schema_release(f->deep);
  free(f);
  return 0;
}

/* ------------------------------------------------------------------ helpers */

/* A dump of data[0..n) (from an exact-size copy), NUL-terminated, caller frees. */
typedef struct dump_result {
  char *text;
  size_t size;
  fbe_status status;
  fbe_error err;
} dump_result;

static dump_result dump(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                        const fbe_limits *limits) {
  dump_result r;
  memset(&r, 0, sizeof r);
  uint8_t *copy = t_dup(data, n);
  fbe_buffer out;
  fbe_buffer_init(&out);
  r.status = fbe_dump(st, model, copy, n, limits, &out, &r.err);
  free(copy);
  assert_int_not_equal(r.status, FBE_ERR_NOMEM);
  assert_int_not_equal(r.status, FBE_ERR_ARGUMENT);
  r.size = out.size;
  r.text = t_buffer_take(&out);
  return r;
}

static fbe_status verify(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                         const fbe_limits *limits, fbe_error *err) {
  uint8_t *copy = t_dup(data, n);
  memset(err, 0, sizeof *err);
  fbe_status s = fbe_verify(st, model, copy, n, limits, NULL, err);
  free(copy);
  return s;
}

/* Whole file, NUL-terminated (NULL when missing). */
static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *data = malloc(cap + 1);
  assert_non_null(data);
  size_t got;
  while ((got = fread(data + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      data = realloc(data, (cap *= 2) + 1);
      assert_non_null(data);
    }
  }
  fclose(f);
  data[len] = '\0';
  *n = len;
  return data;
}

/* The bytes of the conformance record `id` of tests/conformance/vectors.jsonl. */
static uint8_t *vector_bytes(const char *id, size_t *n) {
  size_t size;
  char *all = slurp(FBE_TESTS_DIR "/conformance/vectors.jsonl", &size);
  assert_non_null(all);
  char key[128];
  snprintf(key, sizeof key, "\"id\":\"%s\"", id);
  const char *rec = strstr(all, key);
  if (!rec) fail_msg("record %s not found", id);
  const char *hex = strstr(rec, "\"hex\":\"");
  assert_non_null(hex);
  hex += 7;
  size_t len = strcspn(hex, "\"");
  uint8_t *out = malloc(len / 2 ? len / 2 : 1);
  assert_non_null(out);
  for (size_t i = 0; i < len / 2; i++) {
    unsigned v;
    assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
    out[i] = (uint8_t)v;
  }
  *n = len / 2;
  free(all);
  return out;
}

/* One range line of a dump. */
typedef struct dline {
  uint64_t off, len;
  char hex[24];      /* the bytes column, trailing spaces removed */
  const char *text;  /* the text column (not NUL-terminated) */
  size_t text_len;
} dline;

typedef struct parsed {
  dline *lines;
  size_t n;
  const char *error; /* the "!!" line, NULL when none */
  size_t error_len;
  size_t unreferenced, overlaps;
} parsed;

static int text_is(const dline *l, const char *s) {
  return l->text_len == strlen(s) && !memcmp(l->text, s, l->text_len);
}

static int text_has(const dline *l, const char *s) {
  size_t k = strlen(s);
  for (size_t i = 0; i + k <= l->text_len; i++)
    if (!memcmp(l->text + i, s, k)) return 1;
  return 0;
}

/* Parses a dump of data[0..size) and checks the rules every dump keeps: a "# " title,
 * then range lines in offset order that together cover every byte exactly once
 * (overlaps marked), each showing the bytes that are really there, a continuation
 * line exactly when a range is longer than 8 bytes, and at most one "!!" line, last,
 * present exactly when the status is not FBE_OK. */
static parsed parse(const dump_result *r, const uint8_t *data, size_t size) {
  parsed p;
  memset(&p, 0, sizeof p);
  p.lines = calloc(r->size / 16 + 1, sizeof *p.lines);
  assert_non_null(p.lines);
  const char *s = r->text, *end = r->text + r->size;
  assert_true(r->size > 0 && end[-1] == '\n');
  assert_true(!strncmp(s, "# ", 2));
  s = strchr(s, '\n') + 1;
  uint64_t covered = 0;
  while (s < end) {
    const char *eol = strchr(s, '\n');
    assert_non_null(eol);
    if (p.error) fail_msg("a line after the !! line: %.*s", (int)(eol - s), s);
    if (!strncmp(s, "!! offset 0x", 12)) {
      p.error = s;
      p.error_len = (size_t)(eol - s);
    } else {
      unsigned long long off, len;
      int pos = 0;
      if (sscanf(s, "0x%llx %llu%n", &off, &len, &pos) != 2)
        fail_msg("not a dump line: %.*s", (int)(eol - s), s);
      assert_true(s[pos] == ' ' && s[pos + 1] == ' ' && eol - s >= pos + 27);
      dline *l = &p.lines[p.n++];
      l->off = off;
      l->len = len;
      memcpy(l->hex, s + pos + 2, 23);
      l->hex[23] = '\0';
      for (int k = 22; k >= 0 && l->hex[k] == ' '; k--) l->hex[k] = '\0';
      l->text = s + pos + 27;
      l->text_len = (size_t)(eol - l->text);
      /* every byte once: no hole, nothing past the input, overlaps said */
      assert_true(len > 0 && off + len <= size);
      if (off > covered)
        fail_msg("bytes 0x%llx..0x%llx are on no line", (unsigned long long)covered, off);
      if (off < covered) {
        assert_true(text_has(l, "(overlaps an earlier range)"));
        p.overlaps++;
      }
      if (off + len > covered) covered = off + len;
      if (!strncmp(l->text, "(unreferenced", 13)) p.unreferenced++;
      /* the bytes column shows the first 8 bytes of the range */
      char want[24];
      size_t k = 0;
      for (uint64_t i = 0; i < len && i < 8; i++)
        k += (size_t)snprintf(want + k, sizeof want - k, i ? " %02x" : "%02x", data[off + i]);
      if (strcmp(l->hex, want)) fail_msg("0x%llx: bytes column '%s', data '%s'", off, l->hex, want);
      if (len > 8) { /* one continuation line with bytes 8..15 */
        s = eol + 1;
        eol = strchr(s, '\n');
        assert_non_null(eol);
        assert_true(s[0] == ' ');
        const char *h = s;
        while (*h == ' ') h++;
        k = 0;
        for (uint64_t i = 8; i < len && i < 16; i++)
          k += (size_t)snprintf(want + k, sizeof want - k, i > 8 ? " %02x" : "%02x", data[off + i]);
        assert_true(!strncmp(h, want, k));
        if (len > 16) {
          char more[48];
          snprintf(more, sizeof more, "... (%llu more bytes)", len - 16);
          size_t k2 = strlen(more);
          assert_true((size_t)(eol - h) >= k2 && !strncmp(eol - k2, more, k2));
        }
      }
    }
    s = eol + 1;
  }
  if (covered != size)
    fail_msg("the dump covers %llu of %zu bytes", (unsigned long long)covered, size);
  assert_int_equal(p.error != NULL, r->status != FBE_OK);
  return p;
}

/* The "!!" line expected for err: "!! offset 0x0068: <message> at '<path>'". */
static void assert_error_line(const parsed *p, const char *expected) {
  assert_non_null(p->error);
  if (p->error_len != strlen(expected) || memcmp(p->error, expected, p->error_len))
    fail_msg("last line\n  %.*s\nexpected\n  %s", (int)p->error_len, p->error, expected);
}

/* Prints the first differing line of two texts. */
static void assert_same_text(const char *got, const char *want, const char *what) {
  if (!strcmp(got, want)) return;
  int line = 1;
  const char *g = got, *w = want;
  while (*g && *g == *w) {
    if (*g == '\n') line++;
    g++, w++;
  }
  const char *gl = g, *wl = w;
  while (gl > got && gl[-1] != '\n') gl--;
  while (wl > want && wl[-1] != '\n') wl--;
  print_message("%s differs at line %d:\n  got:  %.*s\n  want: %.*s\n", what, line,
                (int)strcspn(gl, "\n"), gl, (int)strcspn(wl, "\n"), wl);
  fail_msg("%s does not match", what);
}

/* The text of the line starting with prefix (that line must exist). */
static const char *find_line(const parsed *p, const char *prefix) {
  for (size_t i = 0; i < p->n; i++)
    if (p->lines[i].text_len >= strlen(prefix) && !memcmp(p->lines[i].text, prefix, strlen(prefix)))
      return p->lines[i].text;
  fail_msg("no line starts with '%s'", prefix);
  return NULL;
}

static void expect_line(const parsed *p, const char *text) {
  const char *l = find_line(p, text);
  if (strncmp(l, text, strlen(text)) || l[strlen(text)] != '\n')
    fail_msg("line '%.*s', expected '%s'", (int)strcspn(l, "\n"), l, text);
}

static uint64_t xorshift(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* ------------------------------------------------------------------ FORMAT.md 11.1 / 11.2 */

typedef struct spec_row {
  unsigned off, len;
  const char *bytes;   /* FORMAT.md, verbatim */
  const char *meaning; /* FORMAT.md, verbatim */
  const char *dump;    /* the text column of the dump line for this row */
} spec_row;

static const spec_row spec_std[] = {
  {0x0000, 4, "fc 00 00 00", "model size = 252", "model: size 252"},
  {0x0004, 4, "08 00 00 00", "root pointer 8 → `0x0008` (base `0x0000`)", "model: root pointer 8 -> 0x0008 (base 0x0000)"},
  {0x0008, 4, "1e 00 00 00", "Account body: size S = 30", "proto.Account: body size 30"},
  {0x000c, 4, "03 00 00 00", "Account body: type id = 3", "proto.Account: type id 3"},
  {0x0010, 4, "01 00 00 00", "`id` = 1", "id = 1"},
  {0x0014, 4, "1e 00 00 00", "`name`: pointer 30 → `0x0026` (base `0x0008`)", "name: pointer 30 -> 0x0026 (base 0x0008)"},
  {0x0018, 1, "06", "`state` = 0x06", "state = 0x06 (good)"},
  {0x0019, 4, "26 00 00 00", "`wallet`: pointer 38 → `0x002e` (base `0x0008`)", "wallet: pointer 38 -> 0x002e (base 0x0008)"},
  {0x001d, 1, "01", "`asset`: has-value = 1", "asset: has value (flag 1)"},
  {0x001e, 4, "41 00 00 00", "`asset`: pointer 65 → value slot `0x0049` (base `0x0008`)", "asset: pointer 65 -> value slot 0x0049 (base 0x0008)"},
  {0x0022, 4, "60 00 00 00", "`orders`: pointer 96 → `0x0068` (base `0x0008`)", "orders: pointer 96 -> 0x0068 (base 0x0008)"},
  {0x0026, 4, "04 00 00 00", "`name` block: length 4", "name: length 4"},
  {0x002a, 4, "54 65 73 74", "\"Test\"", "name = \"Test\""},
  {0x002e, 4, "14 00 00 00", "wallet body: size 20", "wallet: body size 20 (proto.Balance)"},
  {0x0032, 4, "02 00 00 00", "wallet body: type id 2", "wallet: type id 2"},
  {0x0036, 4, "14 00 00 00", "`wallet.currency`: pointer 20 → `0x0042` (base `0x002e`)", "wallet.currency: pointer 20 -> 0x0042 (base 0x002e)"},
  {0x003a, 8, "00 00 00 00 00 40 8f 40", "`wallet.amount` = 1000.0", "wallet.amount = 1000.0"},
  {0x0042, 4, "03 00 00 00", "currency block: length 3", "wallet.currency: length 3"},
  {0x0046, 3, "55 53 44", "\"USD\"", "wallet.currency = \"USD\""},
  {0x0049, 4, "04 00 00 00", "asset value slot: struct pointer 4 → `0x004d` (base = the slot, `0x0049`)", "asset: pointer 4 -> 0x004d (base 0x0049: the value slot)"},
  {0x004d, 4, "14 00 00 00", "asset body: size 20", "asset: body size 20 (proto.Balance)"},
  {0x0051, 4, "02 00 00 00", "asset body: type id 2", "asset: type id 2"},
  {0x0055, 4, "14 00 00 00", "`asset.currency`: pointer 20 → `0x0061` (base `0x004d`)", "asset.currency: pointer 20 -> 0x0061 (base 0x004d)"},
  {0x0059, 8, "00 00 00 00 00 00 59 40", "`asset.amount` = 100.0", "asset.amount = 100.0"},
  {0x0061, 4, "03 00 00 00", "currency block: length 3", "asset.currency: length 3"},
  {0x0065, 3, "45 55 52", "\"EUR\"", "asset.currency = \"EUR\""},
  {0x0068, 4, "03 00 00 00", "orders block: count 3", "orders: count 3"},
  {0x006c, 4, "70 00 00 00", "`orders[0]`: pointer 112 → `0x0078` (base `0x0008`)", "orders[0]: pointer 112 -> 0x0078 (base 0x0008)"},
  {0x0070, 4, "9c 00 00 00", "`orders[1]`: pointer 156 → `0x00a4` (base `0x0008`)", "orders[1]: pointer 156 -> 0x00a4 (base 0x0008)"},
  {0x0074, 4, "c8 00 00 00", "`orders[2]`: pointer 200 → `0x00d0` (base `0x0008`)", "orders[2]: pointer 200 -> 0x00d0 (base 0x0008)"},
  {0x0078, 4, "22 00 00 00", "orders[0] body: size 34", "orders[0]: body size 34 (proto.Order)"},
  {0x007c, 4, "01 00 00 00", "type id 1", "orders[0]: type id 1"},
  {0x0080, 4, "01 00 00 00", "`id` = 1", "orders[0].id = 1"},
  {0x0084, 4, "22 00 00 00", "`symbol`: pointer 34 → `0x009a` (base `0x0078`)", "orders[0].symbol: pointer 34 -> 0x009a (base 0x0078)"},
  {0x0088, 1, "00", "`side` = buy (0)", "orders[0].side = 0 (buy)"},
  {0x0089, 1, "00", "`type` = market (0)", "orders[0].type = 0 (market)"},
  {0x008a, 8, "38 32 8f fc c1 c0 f3 3f", "`price` = 1.23456", "orders[0].price = 1.23456"},
  {0x0092, 8, "00 00 00 00 00 40 8f 40", "`volume` = 1000.0", "orders[0].volume = 1000.0"},
  {0x009a, 4, "06 00 00 00", "symbol block: length 6", "orders[0].symbol: length 6"},
  {0x009e, 6, "45 55 52 55 53 44", "\"EURUSD\"", "orders[0].symbol = \"EURUSD\""},
  {0x00a4, 4, "22 00 00 00", "orders[1] body: size 34", "orders[1]: body size 34 (proto.Order)"},
  {0x00a8, 4, "01 00 00 00", "type id 1", "orders[1]: type id 1"},
  {0x00ac, 4, "02 00 00 00", "`id` = 2", "orders[1].id = 2"},
  {0x00b0, 4, "22 00 00 00", "`symbol`: pointer 34 → `0x00c6` (base `0x00a4`)", "orders[1].symbol: pointer 34 -> 0x00c6 (base 0x00a4)"},
  {0x00b4, 1, "01", "`side` = sell (1)", "orders[1].side = 1 (sell)"},
  {0x00b5, 1, "01", "`type` = limit (1)", "orders[1].type = 1 (limit)"},
  {0x00b6, 8, "00 00 00 00 00 00 f0 3f", "`price` = 1.0", "orders[1].price = 1.0"},
  {0x00be, 8, "00 00 00 00 00 00 59 40", "`volume` = 100.0", "orders[1].volume = 100.0"},
  {0x00c6, 4, "06 00 00 00", "symbol block: length 6", "orders[1].symbol: length 6"},
  {0x00ca, 6, "45 55 52 55 53 44", "\"EURUSD\"", "orders[1].symbol = \"EURUSD\""},
  {0x00d0, 4, "22 00 00 00", "orders[2] body: size 34", "orders[2]: body size 34 (proto.Order)"},
  {0x00d4, 4, "01 00 00 00", "type id 1", "orders[2]: type id 1"},
  {0x00d8, 4, "03 00 00 00", "`id` = 3", "orders[2].id = 3"},
  {0x00dc, 4, "22 00 00 00", "`symbol`: pointer 34 → `0x00f2` (base `0x00d0`)", "orders[2].symbol: pointer 34 -> 0x00f2 (base 0x00d0)"},
  {0x00e0, 1, "00", "`side` = buy (0)", "orders[2].side = 0 (buy)"},
  {0x00e1, 1, "02", "`type` = stop (2)", "orders[2].type = 2 (stop)"},
  {0x00e2, 8, "00 00 00 00 00 00 f8 3f", "`price` = 1.5", "orders[2].price = 1.5"},
  {0x00ea, 8, "00 00 00 00 00 00 24 40", "`volume` = 10.0", "orders[2].volume = 10.0"},
  {0x00f2, 4, "06 00 00 00", "symbol block: length 6", "orders[2].symbol: length 6"},
  {0x00f6, 6, "45 55 52 55 53 44", "\"EURUSD\" (ends at 252)", "orders[2].symbol = \"EURUSD\""},
};

static const spec_row spec_fin[] = {
  {0x0000, 4, "98 00 00 00", "struct size = 152 (header + fields)", "model: size 152"},
  {0x0004, 4, "03 00 00 00", "type id = 3", "model: type id 3 (proto.Account)"},
  {0x0008, 4, "01 00 00 00", "`id` = 1", "id = 1"},
  {0x000c, 4, "04 00 00 00", "`name` length 4", "name: length 4"},
  {0x0010, 4, "54 65 73 74", "\"Test\"", "name = \"Test\""},
  {0x0014, 1, "06", "`state`", "state = 0x06 (good)"},
  {0x0015, 4, "03 00 00 00", "`wallet.currency` length 3", "wallet.currency: length 3"},
  {0x0019, 3, "55 53 44", "\"USD\"", "wallet.currency = \"USD\""},
  {0x001c, 8, "00 00 00 00 00 40 8f 40", "`wallet.amount` = 1000.0", "wallet.amount = 1000.0"},
  {0x0024, 1, "01", "`asset` present", "asset: has value (flag 1)"},
  {0x0025, 4, "03 00 00 00", "`asset.currency` length 3", "asset.currency: length 3"},
  {0x0029, 3, "45 55 52", "\"EUR\"", "asset.currency = \"EUR\""},
  {0x002c, 8, "00 00 00 00 00 00 59 40", "`asset.amount` = 100.0", "asset.amount = 100.0"},
  {0x0034, 4, "03 00 00 00", "`orders` count 3", "orders: count 3"},
  {0x0038, 4, "01 00 00 00", "orders[0].id", "orders[0].id = 1"},
  {0x003c, 4, "06 00 00 00", "orders[0].symbol length", "orders[0].symbol: length 6"},
  {0x0040, 6, "45 55 52 55 53 44", "\"EURUSD\"", "orders[0].symbol = \"EURUSD\""},
  {0x0046, 1, "00", "side", "orders[0].side = 0 (buy)"},
  {0x0047, 1, "00", "type", "orders[0].type = 0 (market)"},
  {0x0048, 8, "38 32 8f fc c1 c0 f3 3f", "price 1.23456", "orders[0].price = 1.23456"},
  {0x0050, 8, "00 00 00 00 00 40 8f 40", "volume 1000.0", "orders[0].volume = 1000.0"},
  {0x0058, 4, "02 00 00 00", "orders[1].id", "orders[1].id = 2"},
  {0x005c, 4, "06 00 00 00", "symbol length", "orders[1].symbol: length 6"},
  {0x0060, 6, "45 55 52 55 53 44", "\"EURUSD\"", "orders[1].symbol = \"EURUSD\""},
  {0x0066, 1, "01", "side", "orders[1].side = 1 (sell)"},
  {0x0067, 1, "01", "type", "orders[1].type = 1 (limit)"},
  {0x0068, 8, "00 00 00 00 00 00 f0 3f", "price 1.0", "orders[1].price = 1.0"},
  {0x0070, 8, "00 00 00 00 00 00 59 40", "volume 100.0", "orders[1].volume = 100.0"},
  {0x0078, 4, "03 00 00 00", "orders[2].id", "orders[2].id = 3"},
  {0x007c, 4, "06 00 00 00", "symbol length", "orders[2].symbol: length 6"},
  {0x0080, 6, "45 55 52 55 53 44", "\"EURUSD\"", "orders[2].symbol = \"EURUSD\""},
  {0x0086, 1, "00", "side", "orders[2].side = 0 (buy)"},
  {0x0087, 1, "02", "type", "orders[2].type = 2 (stop)"},
  {0x0088, 8, "00 00 00 00 00 00 f8 3f", "price 1.5", "orders[2].price = 1.5"},
  {0x0090, 8, "00 00 00 00 00 00 24 40", "volume 10.0 (ends at 152)", "orders[2].volume = 10.0"},
};

/* The README Account bytes from the conformance file; also the hex of FORMAT.md. */
static uint8_t *account_bytes(fbe_model model, size_t *n) {
  uint8_t *data = vector_bytes(model == FBE_MODEL_FINAL ? "pub-proto-Account-readme-final"
                                                        : "pub-proto-Account-readme-standard", n);
  size_t spec_n;
  uint8_t *spec = t_hex(model == FBE_MODEL_FINAL ? T_ACCOUNT_FIN : T_ACCOUNT_STD, &spec_n);
  t_assert_mem(data, *n, spec, spec_n);
  free(spec);
  return data;
}

static void golden(void **state, fbe_model model, const char *file) {
  fixture *f = *state;
  size_t n;
  uint8_t *data = account_bytes(model, &n);
  dump_result r = dump(f->account, model, data, n, NULL);
  assert_int_equal(r.status, FBE_OK);
  char path[1024];
  snprintf(path, sizeof path, "%s/golden/%s", FBE_TESTS_DIR, file);
  if (getenv("FBE_UPDATE_GOLDEN")) {
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(r.text, 1, r.size, out), r.size);
    fclose(out);
    print_message("rewrote %s: check it by hand against FORMAT.md\n", path);
  }
  size_t want_n;
  char *want = slurp(path, &want_n);
  if (!want) fail_msg("missing golden file %s", path);
  assert_same_text(r.text, want, file);
  free(want);
  free(r.text);
  free(data);
}

static void test_golden_standard(void **state) {
  golden(state, FBE_MODEL_STANDARD, "account.standard.dump");
}

static void test_golden_final(void **state) {
  golden(state, FBE_MODEL_FINAL, "account.final.dump");
}

/* Every row of the spec table is one dump line with its offset, length, bytes and
 * meaning, and the dump has no other line. */
static void spec_table(void **state, fbe_model model, const spec_row *rows, size_t nrows,
                       size_t size) {
  fixture *f = *state;
  size_t n;
  uint8_t *data = account_bytes(model, &n);
  assert_int_equal(n, size);
  dump_result r = dump(f->account, model, data, n, NULL);
  assert_int_equal(r.status, FBE_OK);
  parsed p = parse(&r, data, n);
  assert_int_equal(p.unreferenced, 0);
  assert_int_equal(p.overlaps, 0);
  assert_int_equal(p.n, nrows);
  for (size_t i = 0; i < nrows; i++) {
    const dline *l = &p.lines[i];
    if (l->off != rows[i].off || l->len != rows[i].len || strcmp(l->hex, rows[i].bytes) ||
        !text_is(l, rows[i].dump))
      fail_msg("row 0x%04x %u '%s' (%s): dump line 0x%04llx %llu '%s' '%.*s'", rows[i].off,
               rows[i].len, rows[i].bytes, rows[i].meaning, (unsigned long long)l->off,
               (unsigned long long)l->len, l->hex, (int)l->text_len, l->text);
  }
  free(p.lines);
  free(r.text);
  free(data);
}

static void test_spec_table_standard(void **state) {
  spec_table(state, FBE_MODEL_STANDARD, spec_std, sizeof spec_std / sizeof *spec_std, 252);
}
static void test_spec_table_final(void **state) {
  spec_table(state, FBE_MODEL_FINAL, spec_fin, sizeof spec_fin / sizeof *spec_fin, 152);
}

/* ------------------------------------------------------------------ malformed input */

/* Dumps, checks the dump's rules, that it ends with `expected` and that fbe_verify
 * names the same offset. */
static void expect_error(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                         const char *expected, size_t offset, int same_as_verify) {
  dump_result r = dump(st, model, data, n, NULL);
  parsed p = parse(&r, data, n);
  assert_int_equal(r.status, FBE_ERR_MALFORMED);
  assert_int_equal(r.err.offset, offset);
  assert_error_line(&p, expected);
  fbe_error verr;
  assert_int_not_equal(verify(st, model, data, n, NULL, &verr), FBE_OK);
  if (same_as_verify) {
    assert_int_equal(verr.offset, offset);
    assert_string_equal(verr.message, r.err.message);
  }
  free(p.lines);
  free(r.text);
}

/* Text that is not UTF-8 and decimals with a scale above 28 or reserved bits: the dump
 * shows the value, then stops with verify's reason at the bad byte. */
static void test_malformed_values(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *data = account_bytes(FBE_MODEL_STANDARD, &n);
  data[0x2b] = 0xff; /* name "T\xffst" */
  expect_error(f->account, FBE_MODEL_STANDARD, data, n,
               "!! offset 0x002b: string is not valid UTF-8: the byte 0xff, which UTF-8 never uses "
               "at byte 1 of 4 at 'name'",
               0x2b, 1);
  free(data);
  data = account_bytes(FBE_MODEL_FINAL, &n);
  size_t at = 0;
  for (size_t i = 0; i + 4 <= n && !at; i++) /* "Test" in the final model */
    if (!memcmp(data + i, "Test", 4)) at = i;
  assert_int_not_equal(at, 0);
  data[at + 1] = 0xed, data[at + 2] = 0xa0, data[at + 3] = 0x80; /* "T" + U+D800's 3 bytes */
  char want[200];
  snprintf(want, sizeof want,
           "!! offset 0x%04zx: string is not valid UTF-8: a UTF-16 surrogate (U+D800) at byte 1 of 4 "
           "at 'name'", at + 1);
  expect_error(f->account, FBE_MODEL_FINAL, data, n, want, at + 1, 1);
  free(data);

  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  const fbe_struct *simple = t_struct(f->test, "test.StructSimple");
  fbe_msg *m = t_build_simple(arena, simple);
  for (int final = 0; final < 2; final++) {
    fbe_model model = final ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbe_buffer b = t_encode(m, model);
    /* f29 = 123456.123456: its 16 bytes (scale 6) */
    static const uint8_t dec[16] = {0x40, 0xf2, 0x8e, 0xbe, 0x1c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0};
    size_t d = 0;
    for (size_t i = 0; i + 16 <= b.size && !d; i++)
      if (!memcmp(b.data + i, dec, 16)) d = i;
    assert_int_not_equal(d, 0);
    b.data[d + 14] = 29;
    snprintf(want, sizeof want, "!! offset 0x%04zx: decimal scale 29 is above 28 at 'f29'", d + 14);
    expect_error(simple, model, b.data, b.size, want, d + 14, 1);
    b.data[d + 14] = 6;
    b.data[d + 15] = 0x81;
    snprintf(want, sizeof want,
             "!! offset 0x%04zx: decimal has reserved bits set (byte 15 is 0x81: bytes 12-13 must be 0, "
             "byte 15 holds only the sign bit 0x80) at 'f29'", d + 15);
    expect_error(simple, model, b.data, b.size, want, d + 15, 1);
    fbe_buffer_free(&b);
  }
  fbe_arena_free(arena);
}

static void test_malformed_count(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *data = account_bytes(FBE_MODEL_STANDARD, &n);
  t_put32(data, 0x68, 0x7fffffff);
  expect_error(f->account, FBE_MODEL_STANDARD, data, n,
               "!! offset 0x0068: 2147483647 elements do not fit in the model at 'orders'",
               0x68, 1);
  free(data);
  data = account_bytes(FBE_MODEL_FINAL, &n);
  t_put32(data, 0x34, 0x7fffffff);
  expect_error(f->account, FBE_MODEL_FINAL, data, n,
               "!! offset 0x0034: 2147483647 elements do not fit in the model at 'orders'",
               0x34, 1);
  free(data);
}

static void test_malformed_other(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *data = account_bytes(FBE_MODEL_STANDARD, &n);
  data[0x51] = 7; /* asset body: type id */
  expect_error(f->account, FBE_MODEL_STANDARD, data, n,
               "!! offset 0x0051: type id 7 where proto.Balance (2) was expected at 'asset'",
               0x51, 1);
  data[0x51] = 2;
  t_put32(data, 0xb0, 0x1000); /* orders[1].symbol pointer */
  expect_error(f->account, FBE_MODEL_STANDARD, data, n,
               "!! offset 0x00b0: pointer 4096 leads outside the model at 'orders[1].symbol'",
               0xb0, 1);
  t_put32(data, 0xb0, 0x22);
  t_put32(data, 0x1e, 0); /* asset present, pointer 0 */
  expect_error(f->account, FBE_MODEL_STANDARD, data, n,
               "!! offset 0x001d: optional marked present has no value at 'asset'", 0x1d, 1);
  t_put32(data, 0x1e, 0x41);
  t_put32(data, 0x19, 0); /* wallet pointer 0 */
  expect_error(f->account, FBE_MODEL_STANDARD, data, n,
               "!! offset 0x0019: struct pointer is 0 at 'wallet'", 0x19, 1);
  free(data);

  data = account_bytes(FBE_MODEL_FINAL, &n);
  t_put32(data, 0, 160); /* model size larger than the fields, buffer grown to match */
  uint8_t *longer = calloc(1, 160);
  assert_non_null(longer);
  memcpy(longer, data, n);
  expect_error(f->account, FBE_MODEL_FINAL, longer, 160,
               "!! offset 0x0098: fields end here but the model size says 160", 0x98, 1);
  free(longer);
  free(data);
}

/* Cut short: the dump shows what arrived and names the first value cut off. */
static void test_truncated(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *data = account_bytes(FBE_MODEL_STANDARD, &n);
  /* 100 bytes end inside asset.currency's block (0x61..0x68) */
  expect_error(f->account, FBE_MODEL_STANDARD, data, 100,
               "!! offset 0x0055: pointer 20 leads outside the buffer at 'asset.currency'",
               0x55, 0);
  /* the same bytes with a model size that matches them: what verify says too */
  t_put32(data, 0, 100);
  expect_error(f->account, FBE_MODEL_STANDARD, data, 100,
               "!! offset 0x0055: pointer 20 leads outside the model at 'asset.currency'", 0x55, 1);
  /* only the trailing byte missing: everything reached is there, the size is not */
  t_put32(data, 0, 252);
  expect_error(f->account, FBE_MODEL_STANDARD, data, 251,
               "!! offset 0x00f2: size 6 runs past the end of the buffer at 'orders[2].symbol'",
               0xf2, 0);
  free(data);

  data = account_bytes(FBE_MODEL_FINAL, &n);
  /* 100 bytes: 44 after the orders count, too few for 3 orders of at least 26 bytes */
  expect_error(f->account, FBE_MODEL_FINAL, data, 100,
               "!! offset 0x0034: 3 elements do not fit in the buffer at 'orders'", 0x34, 0);
  t_put32(data, 0x34, 1); /* one order, cut inside its volume (0x50..0x58) */
  expect_error(f->account, FBE_MODEL_FINAL, data, 0x56,
               "!! offset 0x0050: 8 bytes needed past the end of the buffer at 'orders[0].volume'",
               0x50, 0);
  free(data);

  /* every length, both models: never a crash, always a "!!" line inside what is there */
  for (int m = 0; m < 2; m++) {
    fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    data = account_bytes(model, &n);
    for (size_t len = 0; len < n; len++) {
      dump_result r = dump(f->account, model, data, len, NULL);
      parsed p = parse(&r, data, len);
      assert_int_not_equal(r.status, FBE_OK);
      assert_true(r.err.offset <= len);
      free(p.lines);
      free(r.text);
    }
    free(data);
  }
}

/* Changes 1..4 random bytes of data[0..n) (and now and then cuts it), `iterations`
 * times: the dump keeps its rules and agrees with fbe_verify on valid/invalid; in the
 * standard model it names verify's reason and offset (unless the model size runs past
 * the data). Counts in *compared / *equal how often the error offsets were compared
 * and were the same. */
static void flips(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                  int iterations, uint64_t *seed, size_t *compared, size_t *equal) {
  uint8_t *bad = malloc(n);
  assert_non_null(bad);
  for (int iter = 0; iter < iterations; iter++) {
    memcpy(bad, data, n);
    int count = 1 + (int)(xorshift(seed) % 4);
    for (int k = 0; k < count; k++) {
      uint64_t x = xorshift(seed);
      size_t at = (size_t)(x % n);
      /* small values and sign/high bits are what break pointers and counts */
      switch ((x >> 32) % 4) {
        case 0: bad[at] = (uint8_t)(x >> 40); break;
        case 1: bad[at] ^= (uint8_t)(1u << ((x >> 40) % 8)); break;
        case 2: bad[at] = 0; break;
        default: bad[at] = 0xff; break;
      }
    }
    size_t len = (xorshift(seed) % 8) ? n : (size_t)(xorshift(seed) % (n + 1));
    dump_result r = dump(st, model, bad, len, NULL);
    parsed p = parse(&r, bad, len);
    fbe_error verr;
    fbe_status vs = verify(st, model, bad, len, NULL, &verr);
    if (r.status == FBE_ERR_LIMIT && strstr(r.err.message, "dumping needs more")) {
      /* the dump's own memory: it stops where verify need not */
    } else if ((r.status == FBE_OK) != (vs == FBE_OK)) {
      print_message("%s", r.text);
      fail_msg("%s: dump says %s, verify says %s (%s)", fbe_struct_full_name(st),
               fbe_status_name(r.status), fbe_status_name(vs), verr.message);
    }
    int cut = len >= 4 && t_get32(bad, 0) > len;
    if (r.status != FBE_OK && vs != FBE_OK && !cut) {
      (*compared)++;
      *equal += r.err.offset == verr.offset;
      int same = r.err.offset == verr.offset && !strcmp(r.err.message, verr.message);
      if (model == FBE_MODEL_STANDARD && !same) {
        print_message("%s", r.text);
        fail_msg("%s: dump: %s (offset %zu), verify: %s (offset %zu)", fbe_struct_full_name(st),
                 r.err.message, r.err.offset, verr.message, verr.offset);
      }
    }
    free(p.lines);
    free(r.text);
  }
  free(bad);
}

/* Random byte changes (and cuts) of the README Account, both models. */
static void test_hostile_flips(void **state) {
  fixture *f = *state;
  uint64_t seed = 0x9e3779b97f4a7c15u;
  size_t compared = 0, equal = 0;
  for (int m = 0; m < 2; m++) {
    fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    size_t n;
    uint8_t *data = account_bytes(model, &n);
    flips(f->account, model, data, n, 20000, &seed, &compared, &equal);
    free(data);
  }
  /* final model: verify reports fixed-size runs at the model's end (see dump.h) */
  print_message("hostile flips: %zu error offsets compared with verify, %zu equal\n", compared,
                equal);
}

/* Nesting through optionals and vectors is bounded by limits->max_depth, as in verify. */
static void test_deep_nesting(void **state) {
  fixture *f = *state;
  const fbe_struct *node = t_struct(f->deep, "deep.Node");
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  fbe_msg *m = t_new(arena, node);
  fbe_ref r = fbe_msg_ref(m);
  for (int i = 0; i < 100; i++) r = (i % 2) ? t_emplace(r, "next") : t_append(r, "kids");
  fbe_limits small = {40, FBE_DEFAULT_MAX_MODEL_SIZE, 0};
  for (int mi = 0; mi < 2; mi++) {
    fbe_model model = mi ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbe_buffer b = t_encode(m, model);
    dump_result d = dump(node, model, b.data, b.size, NULL);
    parsed p = parse(&d, b.data, b.size);
    assert_int_equal(d.status, FBE_OK);
    assert_int_equal(p.unreferenced, 0);
    free(p.lines);
    free(d.text);
    d = dump(node, model, b.data, b.size, &small);
    p = parse(&d, b.data, b.size);
    assert_int_equal(d.status, FBE_ERR_LIMIT);
    fbe_error verr;
    assert_int_equal(verify(node, model, b.data, b.size, &small, &verr), FBE_ERR_LIMIT);
    assert_int_equal(d.err.offset, verr.offset);
    assert_string_equal(d.err.message, verr.message);
    assert_string_equal(d.err.message, "nesting deeper than 40 levels (max_depth)");
    free(p.lines);
    free(d.text);
    fbe_buffer_free(&b);
  }
  fbe_arena_free(arena);
}

/* ------------------------------------------------------------------ shared blocks */

/* A standard proto.Account (name "", wallet {"", 0}, no asset) whose k orders all
 * point at one Order body with the given symbol: legal, verify accepts it. */
static uint8_t *shared_orders(uint32_t k, const char *symbol, size_t *n) {
  uint32_t len = (uint32_t)strlen(symbol);
  uint32_t block = 0x42, body = block + 4 + 4 * k, total = body + 34 + 4 + len;
  uint8_t *p = calloc(1, total);
  assert_non_null(p);
  t_put32(p, 0, total);
  t_put32(p, 4, 8);
  t_put32(p, 0x08, 30); /* Account body */
  t_put32(p, 0x0c, 3);
  t_put32(p, 0x14, 0x26 - 8); /* name -> "" */
  p[0x18] = 0x0b;
  t_put32(p, 0x19, 0x2a - 8); /* wallet */
  t_put32(p, 0x22, block - 8); /* orders */
  t_put32(p, 0x2a, 20); /* wallet body */
  t_put32(p, 0x2e, 2);
  t_put32(p, 0x32, 0x3e - 0x2a); /* currency -> "" at 0x3e */
  t_put32(p, block, k);
  for (uint32_t i = 0; i < k; i++) t_put32(p, block + 4 + 4 * i, body - 8);
  t_put32(p, body, 34); /* the one Order body */
  t_put32(p, body + 4, 1);
  t_put32(p, body + 8, 7);    /* id */
  t_put32(p, body + 12, 34); /* symbol -> right after the body */
  t_put32(p, body + 34, len);
  memcpy(p + body + 38, symbol, len);
  *n = total;
  return p;
}

/* How many lines have `s` in their text. */
static size_t count_text(const parsed *p, const char *s) {
  size_t k = 0;
  for (size_t i = 0; i < p->n; i++) k += text_has(&p->lines[i], s);
  return k;
}

/* Orders that all point at one body: the body is listed once, under orders[0]; every
 * other pointer line says whose body it is. The 4 KB Account of 1000 such orders. */
static void test_shared_orders(void **state) {
  fixture *f = *state;
  const uint32_t counts[] = {3, 1000};
  for (size_t c = 0; c < 2; c++) {
    uint32_t k = counts[c], body = 0x42 + 4 + 4 * k;
    size_t n;
    fbe_error verr;
    uint8_t *p = shared_orders(k, "EURUSD", &n);
    assert_int_equal(verify(f->account, FBE_MODEL_STANDARD, p, n, NULL, &verr), FBE_OK);
    dump_result r = dump(f->account, FBE_MODEL_STANDARD, p, n, NULL);
    parsed ps = parse(&r, p, n);
    assert_int_equal(r.status, FBE_OK);
    assert_int_equal(ps.overlaps, 0);
    assert_int_equal(ps.unreferenced, 0);
    /* 17 lines before the orders, their count, k pointers, the body's 10 */
    assert_int_equal(ps.n, 17 + 1 + k + 10);
    char want[160];
    snprintf(want, sizeof want, "orders[0]: pointer %u -> 0x%04x (base 0x0008)", body - 8, body);
    expect_line(&ps, want);
    for (uint32_t i = 1; i < k; i++) {
      const dline *l = &ps.lines[18 + i];
      assert_int_equal(l->off, 0x46 + 4 * i);
      snprintf(want, sizeof want,
               "orders[%u]: pointer %u -> 0x%04x (base 0x0008, shared with orders[0])", i,
               body - 8, body);
      if (!text_is(l, want)) fail_msg("line '%.*s', expected '%s'", (int)l->text_len, l->text, want);
    }
    assert_int_equal(count_text(&ps, "shared with"), k - 1);
    assert_int_equal(count_text(&ps, "body size 34"), 1);
    expect_line(&ps, "orders[0]: body size 34 (proto.Order)");
    expect_line(&ps, "orders[0].id = 7");
    expect_line(&ps, "orders[0].symbol = \"EURUSD\"");
    assert_int_equal(count_text(&ps, "EURUSD"), 1);
    free(ps.lines);
    free(r.text);
    free(p);
  }
}

/* A writer that keeps nothing: counts lines and shared pointers, checks that every
 * piece is whole lines, and notes the most memory the library held while writing. */
typedef struct counter {
  size_t lines, shared, pieces, peak;
  int whole;
  char last[512]; /* the last piece */
} counter;

static int count_lines(void *ctx, const char *text, size_t n) {
  counter *c = ctx;
  size_t now = fbe_memory_in_use();
  if (now > c->peak) c->peak = now;
  c->pieces++;
  if (!n || text[n - 1] != '\n') c->whole = 0;
  for (size_t i = 0; i < n; i++) {
    if (text[i] == '\n') c->lines++;
    if (i + 12 <= n && !memcmp(text + i, "shared with ", 12)) c->shared++;
  }
  size_t keep = n < sizeof c->last - 1 ? n : sizeof c->last - 1;
  memcpy(c->last, text, keep);
  c->last[keep] = '\0';
  return 0;
}

static counter counted_dump(const fbe_struct *st, fbe_model model, const uint8_t *p, size_t n,
                            const fbe_limits *lim, fbe_status *status, fbe_error *err,
                            size_t *held) {
  counter c;
  memset(&c, 0, sizeof c);
  c.whole = 1;
  size_t base = fbe_memory_in_use();
  c.peak = base;
  *status = fbe_dump_to(st, model, p, n, lim, count_lines, &c, err);
  assert_int_equal(fbe_memory_in_use(), base); /* all given back */
  assert_true(c.whole);
  *held = c.peak - base;
  return c;
}

/* 10^6 pointers to one body. With the default budget verify refuses it at the orders'
 * count (every pointer is charged a whole Order), and so does the dump, after a
 * handful of lines. With a budget that takes the charges it is valid, and the dump
 * holds one 24-byte record per line, not the lines' texts (fbe_memory_in_use). */
static void test_shared_million(void **state) {
  fixture *f = *state;
  const uint32_t k = 1000000;
  size_t n;
  uint8_t *p = shared_orders(k, "EURUSD", &n);
  fbe_error verr, err;
  assert_int_equal(verify(f->account, FBE_MODEL_STANDARD, p, n, NULL, &verr), FBE_ERR_LIMIT);
  assert_non_null(strstr(verr.message, "(max_memory)"));
  assert_int_equal(verr.offset, 0x42);
  fbe_status s;
  size_t held;
  counter c = counted_dump(f->account, FBE_MODEL_STANDARD, p, n, NULL, &s, &err, &held);
  assert_int_equal(s, FBE_ERR_LIMIT);
  assert_int_equal(err.offset, verr.offset);
  assert_string_equal(err.message, verr.message);
  assert_string_equal(err.path, "orders");
  assert_true(c.lines < 32);
  const char *stop_line = "!! offset 0x000042: decoding needs more than the memory budget";
  assert_true(!strncmp(c.last, stop_line, strlen(stop_line)));

  fbe_limits big = {0, 0, (uint64_t)1 << 30};
  assert_int_equal(verify(f->account, FBE_MODEL_STANDARD, p, n, &big, &verr), FBE_OK);
  c = counted_dump(f->account, FBE_MODEL_STANDARD, p, n, &big, &s, &err, &held);
  assert_int_equal(s, FBE_OK);
  size_t ranges = 17 + 1 + k + 10;
  assert_int_equal(c.lines, 1 + ranges); /* the title, then one line per range */
  assert_int_equal(c.shared, k - 1);
  print_message("10^6 shared pointers: %zu lines, %zu bytes held (%.1f per line)\n", c.lines, held,
                (double)held / (double)ranges);
  assert_true(held <= 36 * ranges); /* 24 a line, and the array's room to grow by half */
  free(p);
}

/* A vector of fixed-size scalars is one record however long: 300000 bytes dump
 * within a few kilobytes. Elements with a record each count against the memory budget:
 * 200000 optional bytes in the final model (a flag and a byte each) are valid, and
 * verify's charge fits the default budget, but their 400000 lines of 24 bytes do not:
 * the dump stops with the lines it has, holding no more than the budget; with more
 * budget it is whole. */
static void test_dump_memory_limit(void **state) {
  fixture *f = *state;
  const fbe_struct *vec = t_struct(f->test, "test.StructVector");
  uint32_t k = 300000, total = 56 + 4 + k;
  uint8_t *p = calloc(1, total);
  assert_non_null(p);
  t_put32(p, 0, total);
  t_put32(p, 4, 8);
  t_put32(p, 8, 48); /* the body: ten collection pointers */
  t_put32(p, 12, fbe_struct_type_id(vec));
  t_put32(p, 16, 48); /* f1 -> the block right after the body */
  t_put32(p, 56, k);
  for (uint32_t i = 0; i < k; i++) p[60 + i] = (uint8_t)i;
  fbe_error verr, err;
  assert_int_equal(verify(vec, FBE_MODEL_STANDARD, p, total, NULL, &verr), FBE_OK);
  fbe_status s;
  size_t held;
  counter c = counted_dump(vec, FBE_MODEL_STANDARD, p, total, NULL, &s, &err, &held);
  assert_int_equal(s, FBE_OK);
  /* the title, the model's 2 lines, the body's 2 and its 10 pointers, the count, k values */
  assert_int_equal(c.lines, 1 + 2 + 2 + 10 + 1 + k);
  assert_true(held < 16384);
  assert_string_equal(c.last, "0x4941b       1  df                       f1[299999] = 223\n");
  free(p);

  k = 200000, total = 48 + 2 * k;
  p = calloc(1, total);
  assert_non_null(p);
  t_put32(p, 0, total);
  t_put32(p, 4, fbe_struct_type_id(vec));
  t_put32(p, 12, k); /* f2 (f1 has no elements) */
  for (uint32_t i = 0; i < k; i++) p[16 + 2 * i] = 1, p[17 + 2 * i] = (uint8_t)i;
  assert_int_equal(verify(vec, FBE_MODEL_FINAL, p, total, NULL, &verr), FBE_OK);
  c = counted_dump(vec, FBE_MODEL_FINAL, p, total, NULL, &s, &err, &held);
  assert_int_equal(s, FBE_ERR_LIMIT);
  uint64_t budget = fbe_limits_memory(NULL, total);
  char want[160];
  snprintf(want, sizeof want, "dumping needs more than the memory budget of %llu bytes (max_memory)",
           (unsigned long long)budget);
  assert_string_equal(err.message, want);
  assert_true(held <= budget);
  assert_true(c.lines > 100000 && c.lines < 1 + 2 * k); /* the lines it had room for */
  assert_non_null(strstr(c.last, want));
  assert_true(!strncmp(err.path, "f2[", 3));

  fbe_limits more = {0, 0, 64u << 20};
  c = counted_dump(vec, FBE_MODEL_FINAL, p, total, &more, &s, &err, &held);
  assert_int_equal(s, FBE_OK);
  /* the title, the model's 2 lines, 10 counts, a flag and a value per element */
  assert_int_equal(c.lines, 1 + 2 + 10 + 2 * k);
  free(p);
}

/* The elements of a run are lines in offset order with whatever else starts among
 * them: here f3's block (bytes[], count 0) inside f1's bytes. */
static void test_run_overlap(void **state) {
  fixture *f = *state;
  const fbe_struct *vec = t_struct(f->test, "test.StructVector");
  uint8_t p[68];
  memset(p, 0, sizeof p);
  t_put32(p, 0, sizeof p);
  t_put32(p, 4, 8);
  t_put32(p, 8, 48);
  t_put32(p, 12, fbe_struct_type_id(vec));
  t_put32(p, 16, 48);      /* f1 -> 56: 8 bytes at 60..68 */
  t_put32(p, 24, 62 - 8);  /* f3 -> 62: its count is f1[2..5] */
  t_put32(p, 56, 8);
  static const uint8_t bytes[8] = {1, 2, 0, 0, 0, 0, 7, 8};
  memcpy(p + 60, bytes, 8);
  fbe_error verr;
  assert_int_equal(verify(vec, FBE_MODEL_STANDARD, p, sizeof p, NULL, &verr), FBE_OK);
  dump_result r = dump(vec, FBE_MODEL_STANDARD, p, sizeof p, NULL);
  parsed ps = parse(&r, p, sizeof p);
  assert_int_equal(r.status, FBE_OK);
  static const struct {
    unsigned off;
    const char *text;
  } tail_lines[] = {
      {56, "f1: count 8"},
      {60, "f1[0] = 1"},
      {61, "f1[1] = 2"},
      {62, "f1[2] = 0"},
      {62, "f3: count 0  (overlaps an earlier range)"},
      {63, "f1[3] = 0  (overlaps an earlier range)"},
      {64, "f1[4] = 0  (overlaps an earlier range)"},
      {65, "f1[5] = 0  (overlaps an earlier range)"},
      {66, "f1[6] = 7"},
      {67, "f1[7] = 8"},
  };
  size_t nt = sizeof tail_lines / sizeof *tail_lines;
  assert_true(ps.n >= nt);
  for (size_t i = 0; i < nt; i++) {
    const dline *l = &ps.lines[ps.n - nt + i];
    if (l->off != tail_lines[i].off || !text_is(l, tail_lines[i].text))
      fail_msg("line 0x%llx '%.*s', expected 0x%x '%s'", (unsigned long long)l->off,
               (int)l->text_len, l->text, tail_lines[i].off, tail_lines[i].text);
  }
  assert_int_equal(ps.overlaps, 4);
  free(ps.lines);
  free(r.text);
}

/* A small schema with one block of each kind shared: a collection (a, b), the struct
 * body of its elements, a string (s, t) and an optional's value slot (o, p). */
static void test_shared_kinds(void **state) {
  (void)state;
  fbe_schema *schema = t_load_text("package share\n\nstruct Item(1)\n{\n    int32 v;\n}\n\n"
                                   "struct Holder(2)\n{\n    Item[] a;\n    Item[] b;\n    string s;\n"
                                   "    string t;\n    int32? o;\n    int32? p;\n}\n",
                                   "share.fbe");
  const fbe_struct *holder = t_struct(schema, "share.Holder");
  uint8_t p[76];
  memset(p, 0, sizeof p);
  t_put32(p, 0, sizeof p);
  t_put32(p, 4, 8);
  t_put32(p, 8, 34); /* Holder body, 8..42 */
  t_put32(p, 12, 2);
  t_put32(p, 16, 42 - 8); /* a -> block 42 */
  t_put32(p, 20, 42 - 8); /* b -> the same block */
  t_put32(p, 24, 66 - 8); /* s -> "hi" at 66 */
  t_put32(p, 28, 66 - 8); /* t -> the same */
  p[32] = 1;
  t_put32(p, 33, 72 - 8); /* o -> value slot 72 */
  p[37] = 1;
  t_put32(p, 38, 72 - 8); /* p -> the same */
  t_put32(p, 42, 2);      /* the block: 2 elements, both the Item at 54 */
  t_put32(p, 46, 54 - 8);
  t_put32(p, 50, 54 - 8);
  t_put32(p, 54, 12);
  t_put32(p, 58, 1);
  t_put32(p, 62, 7);
  t_put32(p, 66, 2);
  memcpy(p + 70, "hi", 2);
  t_put32(p, 72, 5);
  fbe_error verr;
  assert_int_equal(verify(holder, FBE_MODEL_STANDARD, p, sizeof p, NULL, &verr), FBE_OK);
  dump_result r = dump(holder, FBE_MODEL_STANDARD, p, sizeof p, NULL);
  parsed ps = parse(&r, p, sizeof p);
  assert_int_equal(r.status, FBE_OK);
  assert_int_equal(ps.overlaps, 0);
  assert_int_equal(ps.unreferenced, 0);
  static const char *const lines[] = {
      "model: size 76",
      "model: root pointer 8 -> 0x0008 (base 0x0000)",
      "share.Holder: body size 34",
      "share.Holder: type id 2",
      "a: pointer 34 -> 0x002a (base 0x0008)",
      "b: pointer 34 -> 0x002a (base 0x0008, shared with a)",
      "s: pointer 58 -> 0x0042 (base 0x0008)",
      "t: pointer 58 -> 0x0042 (base 0x0008, shared with s)",
      "o: has value (flag 1)",
      "o: pointer 64 -> value slot 0x0048 (base 0x0008)",
      "p: has value (flag 1)",
      "p: pointer 64 -> value slot 0x0048 (base 0x0008, shared with o)",
      "a: count 2",
      "a[0]: pointer 46 -> 0x0036 (base 0x0008)",
      "a[1]: pointer 46 -> 0x0036 (base 0x0008, shared with a[0])",
      "a[0]: body size 12 (share.Item)",
      "a[0]: type id 1",
      "a[0].v = 7",
      "s: length 2",
      "s = \"hi\"",
      "o = 5",
  };
  assert_int_equal(ps.n, sizeof lines / sizeof *lines);
  for (size_t i = 0; i < ps.n; i++)
    if (!text_is(&ps.lines[i], lines[i]))
      fail_msg("line %zu '%.*s', expected '%s'", i, (int)ps.lines[i].text_len, ps.lines[i].text,
               lines[i]);
  free(ps.lines);
  free(r.text);
  fbe_schema_release(schema);
}

/* deep.Node bodies laid out by hand (17 bytes: size, type id, next = flag + pointer,
 * kids = pointer), appended at *at; pointers must lead forward. */
static uint32_t node_body(uint8_t *p, uint32_t *at, uint32_t type_id) {
  uint32_t b = *at;
  t_put32(p, b, 17);
  t_put32(p, b + 4, type_id);
  *at += 17;
  return b;
}

/* from.next = a value slot appended at *at, holding a pointer to `to` (laid out later). */
static uint32_t node_next_slot(uint8_t *p, uint32_t *at, uint32_t from) {
  uint32_t slot = *at;
  p[from + 8] = 1;
  t_put32(p, from + 9, slot - from);
  *at += 4;
  return slot;
}

/* When verify's walk fails inside a block the dump does not walk again (nesting too
 * deep through the second pointer, the budget spent by the last pointer's charge),
 * the dump's "!!" line is verify's error, with verify's path. */
static void test_shared_limits(void **state) {
  fixture *f = *state;
  /* root.next -> A; A.next -> X; A.kids = [B]; B.next -> X; X.next -> X1 -> X2 -> X3.
   * X is first reached 2 levels deep (root.next, A.next), then 3 (root.next, A.kids,
   * B.next); below it 3 more. */
  const fbe_struct *node = t_struct(f->deep, "deep.Node");
  uint32_t id = fbe_struct_type_id(node), at = 8;
  uint8_t p[256];
  memset(p, 0, sizeof p);
  t_put32(p, 4, 8);
  uint32_t root = node_body(p, &at, id);
  uint32_t s_root = node_next_slot(p, &at, root);
  uint32_t a = node_body(p, &at, id);
  t_put32(p, s_root, a - s_root);
  uint32_t s_a = node_next_slot(p, &at, a);
  uint32_t kids = at;
  at += 8;
  t_put32(p, a + 13, kids - a);
  t_put32(p, kids, 1);
  uint32_t b = node_body(p, &at, id);
  t_put32(p, kids + 4, b - a);
  uint32_t s_b = node_next_slot(p, &at, b);
  uint32_t x = node_body(p, &at, id);
  t_put32(p, s_a, x - s_a);
  t_put32(p, s_b, x - s_b);
  uint32_t prev = x;
  for (int i = 0; i < 3; i++) {
    uint32_t slot = node_next_slot(p, &at, prev);
    uint32_t next = node_body(p, &at, id);
    t_put32(p, slot, next - slot);
    prev = next;
  }
  t_put32(p, 0, at);
  size_t n = at;

  fbe_limits deep_enough = {6, 0, 0}, shallow = {5, 0, 0};
  fbe_error verr;
  assert_int_equal(verify(node, FBE_MODEL_STANDARD, p, n, &deep_enough, &verr), FBE_OK);
  dump_result r = dump(node, FBE_MODEL_STANDARD, p, n, &deep_enough);
  parsed ps = parse(&r, p, n);
  assert_int_equal(r.status, FBE_OK);
  assert_int_equal(ps.overlaps, 0);
  assert_int_equal(count_text(&ps, "shared with"), 1);
  char want[200];
  snprintf(want, sizeof want,
           "next.kids[0].next: pointer %u -> 0x%04x (base 0x%04x: the value slot, shared with "
           "next.next)",
           x - s_b, x, s_b);
  expect_line(&ps, want);
  free(ps.lines);
  free(r.text);

  assert_int_equal(verify(node, FBE_MODEL_STANDARD, p, n, &shallow, &verr), FBE_ERR_LIMIT);
  r = dump(node, FBE_MODEL_STANDARD, p, n, &shallow);
  ps = parse(&r, p, n);
  assert_int_equal(r.status, FBE_ERR_LIMIT);
  assert_int_equal(r.err.offset, verr.offset);
  assert_string_equal(r.err.message, verr.message);
  assert_string_equal(r.err.path, verr.path);
  assert_string_equal(verr.path, "next.kids[0].next.next.next.next");
  snprintf(want, sizeof want, "!! offset 0x%04zx: nesting deeper than 5 levels (max_depth) at '%s'",
           verr.offset, verr.path);
  assert_error_line(&ps, want);
  free(ps.lines);
  free(r.text);

  /* 1000 orders sharing a body whose symbol costs 8 bytes a pointer: the smallest
   * budget verify takes, and one byte less (the last pointer's charge fails) */
  size_t an;
  uint8_t *acc = shared_orders(1000, "EURUSD", &an);
  uint64_t lo = 1, hi = 1u << 22; /* verify fails at lo, passes at hi */
  fbe_limits lim = {0, 0, hi};
  assert_int_equal(verify(f->account, FBE_MODEL_STANDARD, acc, an, &lim, &verr), FBE_OK);
  while (hi - lo > 1) {
    lim.max_memory = lo + (hi - lo) / 2;
    if (verify(f->account, FBE_MODEL_STANDARD, acc, an, &lim, &verr) == FBE_OK) hi = lim.max_memory;
    else lo = lim.max_memory;
  }
  lim.max_memory = hi;
  r = dump(f->account, FBE_MODEL_STANDARD, acc, an, &lim);
  assert_int_equal(r.status, FBE_OK);
  free(r.text);
  lim.max_memory = hi - 1;
  assert_int_equal(verify(f->account, FBE_MODEL_STANDARD, acc, an, &lim, &verr), FBE_ERR_LIMIT);
  assert_string_equal(verr.path, "orders[999].symbol");
  r = dump(f->account, FBE_MODEL_STANDARD, acc, an, &lim);
  ps = parse(&r, acc, an);
  assert_int_equal(r.status, FBE_ERR_LIMIT);
  assert_int_equal(r.err.offset, verr.offset);
  assert_string_equal(r.err.message, verr.message);
  assert_string_equal(r.err.path, verr.path);
  free(ps.lines);
  free(r.text);
  free(acc);
}

/* A writer that keeps the text, and can refuse from some piece on. */
typedef struct collector {
  fbe_buffer text;
  size_t pieces, refuse_from;
} collector;

static int collect(void *ctx, const char *text, size_t n) {
  collector *c = ctx;
  if (c->refuse_from && c->pieces + 1 >= c->refuse_from) return 1;
  c->pieces++;
  assert_true(n > 0 && text[n - 1] == '\n'); /* whole lines */
  assert_int_equal(fbe_buffer_append(&c->text, text, n), 0);
  return 0;
}

/* The streaming API writes what the buffer API returns, piece by piece. */
static void stream_same(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n,
                        const fbe_limits *limits) {
  dump_result r = dump(st, model, data, n, limits);
  collector c;
  memset(&c, 0, sizeof c);
  fbe_error err;
  fbe_status s = fbe_dump_to(st, model, data, n, limits, collect, &c, &err);
  assert_int_equal(s, r.status);
  assert_int_equal(c.text.size, r.size);
  assert_true(!memcmp(c.text.data, r.text, r.size));
  if (s != FBE_OK) {
    assert_int_equal(err.offset, r.err.offset);
    assert_string_equal(err.message, r.err.message);
    assert_string_equal(err.path, r.err.path);
  }
  assert_true(c.pieces >= 2); /* the title, then the lines one by one */
  fbe_buffer_free(&c.text);
  free(r.text);
}

static void test_stream(void **state) {
  fixture *f = *state;
  for (int m = 0; m < 2; m++) {
    fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    size_t n;
    uint8_t *data = account_bytes(model, &n);
    stream_same(f->account, model, data, n, NULL);
    stream_same(f->account, model, data, 100, NULL); /* cut short */
    t_put32(data, m ? 0x34 : 0x68, 0x7fffffff);     /* a count that does not fit */
    stream_same(f->account, model, data, n, NULL);
    free(data);
  }
  size_t n;
  uint8_t *p = shared_orders(1000, "EURUSD", &n);
  stream_same(f->account, FBE_MODEL_STANDARD, p, n, NULL);
  fbe_limits tiny = {0, 0, 4096}; /* too little for the dump's own lines */
  stream_same(f->account, FBE_MODEL_STANDARD, p, n, &tiny);

  /* a writer that refuses the 6th piece: the dump stops there */
  collector c;
  memset(&c, 0, sizeof c);
  c.refuse_from = 6;
  fbe_error err;
  assert_int_equal(fbe_dump_to(f->account, FBE_MODEL_STANDARD, p, n, NULL, collect, &c, &err),
                   FBE_ERR_IO);
  assert_int_equal(c.pieces, 5);
  assert_string_equal(err.message, "the writer of the dump failed");
  fbe_buffer_free(&c.text);
  assert_int_equal(fbe_dump_to(NULL, FBE_MODEL_STANDARD, p, n, NULL, collect, &c, &err),
                   FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_dump_to(f->account, FBE_MODEL_STANDARD, p, n, NULL, NULL, &c, &err),
                   FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_dump_to(f->account, FBE_MODEL_STANDARD, NULL, 1, NULL, collect, &c, &err),
                   FBE_ERR_ARGUMENT);
  free(p);
}

/* ------------------------------------------------------------------ FORMAT.md 11.3 / 11.4 */

/* A valid model: status OK, every byte on exactly one line, none unreferenced. */
static void full_coverage(const fbe_struct *st, fbe_model model, const uint8_t *data, size_t n) {
  dump_result r = dump(st, model, data, n, NULL);
  if (r.status != FBE_OK) print_message("%s", r.text);
  assert_int_equal(r.status, FBE_OK);
  parsed p = parse(&r, data, n);
  if (p.unreferenced || p.overlaps) print_message("%s", r.text);
  assert_int_equal(p.unreferenced, 0);
  assert_int_equal(p.overlaps, 0);
  free(p.lines);
  free(r.text);
}

static void coverage_hex(const fbe_struct *st, fbe_model model, const char *hex) {
  size_t n;
  uint8_t *data = t_hex(hex, &n);
  full_coverage(st, model, data, n);
  free(data);
}

static void test_smoke_examples(void **state) {
  fixture *f = *state;
  const struct {
    fbe_schema *schema;
    const char *type, *std, *fin;
  } ex[] = {
      {f->test, "test.StructEmpty", T_EMPTY_STD, T_EMPTY_FIN},
      {f->test, "proto.Account", T_ACCOUNT_DEFAULT_STD, T_ACCOUNT_DEFAULT_FIN},
      {f->test, "test.StructBytes", T_BYTES_STD, T_BYTES_FIN},
      {f->test, "test.StructVector", T_VECTOR_STD, T_VECTOR_FIN},
      {f->test, "test.StructMap", T_MAP_STD, T_MAP_FIN},
      {f->test, "test.StructHash", T_HASH_STD, T_HASH_FIN},
      {f->protoex, "protoex.Balance", T_BALANCE_EX_STD, T_BALANCE_EX_FIN},
      {f->test, "proto.Balance", T_BALANCE_STD, T_BALANCE_FIN},
  };
  for (size_t i = 0; i < sizeof ex / sizeof *ex; i++) {
    const fbe_struct *st = t_struct(ex[i].schema, ex[i].type);
    coverage_hex(st, FBE_MODEL_STANDARD, ex[i].std);
    coverage_hex(st, FBE_MODEL_FINAL, ex[i].fin);
  }
  /* StructList is StructVector with another type id */
  size_t n;
  uint8_t *list = t_hex(T_VECTOR_STD, &n);
  t_put32(list, 12, 131);
  full_coverage(t_struct(f->test, "test.StructList"), FBE_MODEL_STANDARD, list, n);
  free(list);
  /* the big structs, default values: every type of the schema language */
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  const char *big[] = {"test.StructSimple", "test.StructOptional", "test.StructNested",
                       "test.StructArray", "test.StructVector", "test.StructSet",
                       "test.StructHashEx", "enums.Enums"};
  fbe_schema *enums = t_load("enums.fbe");
  for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
    const fbe_struct *st = t_struct(strncmp(big[i], "enums.", 6) ? f->test : enums, big[i]);
    fbe_msg *m = t_new(arena, st);
    for (int mi = 0; mi < 2; mi++) {
      fbe_buffer b = t_encode(m, mi ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD);
      full_coverage(st, mi ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, b.data, b.size);
      fbe_buffer_free(&b);
    }
  }
  fbe_schema_release(enums);
  fbe_arena_free(arena);
}

/* Older and newer writers (FORMAT.md 8.2), and bytes after the model. */
static void test_versions_and_trailing(void **state) {
  fixture *f = *state;
  size_t n;
  uint8_t *ex = t_hex(T_BALANCE_EX_STD, &n);
  const fbe_struct *balance = t_struct(f->test, "proto.Balance");
  dump_result r = dump(balance, FBE_MODEL_STANDARD, ex, n, NULL);
  parsed p = parse(&r, ex, n);
  assert_int_equal(r.status, FBE_OK);
  assert_true(text_is(&p.lines[2],
                      "proto.Balance: body size 28 (proto.Balance: 20 in the schema, newer writer)"));
  assert_int_equal(p.lines[6].off, 0x1c);
  assert_true(
      text_is(&p.lines[6], "proto.Balance: 8 bytes after the last known field (newer writer)"));
  free(p.lines);
  free(r.text);
  free(ex);

  uint8_t *old = t_hex(T_BALANCE_STD, &n);
  r = dump(t_struct(f->protoex, "protoex.Balance"), FBE_MODEL_STANDARD, old, n, NULL);
  p = parse(&r, old, n);
  assert_int_equal(r.status, FBE_OK);
  assert_true(text_is(
      &p.lines[2], "protoex.Balance: body size 20 (protoex.Balance: 28 in the schema, older writer)"));
  assert_int_equal(p.unreferenced, 0);
  free(p.lines);
  free(r.text);

  uint8_t *more = calloc(1, n + 5);
  assert_non_null(more);
  memcpy(more, old, n);
  r = dump(balance, FBE_MODEL_STANDARD, more, n + 5, NULL);
  p = parse(&r, more, n + 5);
  assert_int_equal(r.status, FBE_OK);
  assert_int_equal(p.unreferenced, 1);
  assert_int_equal(p.lines[p.n - 1].off, n);
  assert_true(text_is(&p.lines[p.n - 1], "(unreferenced: after the end of the model)"));
  free(p.lines);
  free(r.text);
  free(more);
  free(old);
}

/* How values are written. */
static void test_values(void **state) {
  fixture *f = *state;
  const fbe_struct *simple = t_struct(f->test, "test.StructSimple");
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  fbe_msg *m = t_build_simple(arena, simple);
  char long_text[101];
  memset(long_text, 'x', 100);
  long_text[100] = '\0';
  long_text[1] = '\n';
  long_text[2] = '"';
  t_set_str(fbe_msg_ref(m), "f31", long_text);
  for (int mi = 0; mi < 2; mi++) {
    fbe_model model = mi ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
    fbe_buffer b = t_encode(m, model);
    dump_result r = dump(simple, model, b.data, b.size, NULL);
    assert_int_equal(r.status, FBE_OK);
    parsed p = parse(&r, b.data, b.size);
    assert_int_equal(p.unreferenced, 0);
    expect_line(&p, "id = 16909060");
    expect_line(&p, "f1 = true");
    expect_line(&p, "f4 = 255");
    expect_line(&p, "f5 = '!' (33)");
    expect_line(&p, "f7 = U+0444 '\xd1\x84'");
    expect_line(&p, "f9 = -1");
    expect_line(&p, "f13 = -2");
    expect_line(&p, "f19 = 3735928559");
    expect_line(&p, "f23 = 72623859790382856");
    expect_line(&p, "f24 = 18446744073709551615");
    expect_line(&p, "f25 = 123.45600128173828");
    expect_line(&p, "f27 = -1.23456e+125");
    expect_line(&p, "f28 = 1000.0");
    expect_line(&p, "f29 = 123456.123456");
    /* 48 bytes shown: x, newline, quote and 45 x */
    expect_line(&p, "f31 = \"x\\n\\\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"... "
                    "(100 bytes)");
    expect_line(&p, "f32 = \"ab\"");
    expect_line(&p, "f33 = 1543145597933463000 (2018-11-25T11:33:17.933463000Z)");
    expect_line(&p, "f35 = 1 (1970-01-01T00:00:00.000000001Z)");
    expect_line(&p, "f36 = 123e4567-e89b-12d3-a456-426655440000");
    expect_line(&p, "f39 = 1 (sell)");
    expect_line(&p, "f40 = 2 (stop)");
    expect_line(&p, "f43 = 0x0f (invalid|initialized|calculated|broken)");
    expect_line(&p, "f44.state = 0x0b (invalid|initialized|broken)");
    expect_line(&p, "f44.asset: null (flag 0)");
    expect_line(&p, "f44.orders: count 0");
    free(p.lines);
    free(r.text);
    fbe_buffer_free(&b);
  }
  fbe_arena_free(arena);

  /* odd bytes: a bool of 5, an undeclared enum value, flags with unknown bits,
   * control characters in text, an absent optional's stray pointer (text that is not
   * UTF-8 and bad decimals stop the walk: test_malformed_values) */
  size_t n;
  uint8_t *acc = account_bytes(FBE_MODEL_STANDARD, &n);
  acc[0x18] = 0x46;  /* state: initialized|calculated|0x40 */
  acc[0xb4] = 7;     /* orders[1].side */
  acc[0x2b] = 0x7f;  /* name "T\x7fst" */
  acc[0x2c] = 0x01;  /* name "T\x7f\x01t" */
  dump_result r = dump(f->account, FBE_MODEL_STANDARD, acc, n, NULL);
  parsed p = parse(&r, acc, n);
  assert_int_equal(r.status, FBE_OK);
  expect_line(&p, "state = 0x46 (initialized|calculated|0x40)");
  expect_line(&p, "orders[1].side = 7 (undeclared)");
  expect_line(&p, "name = \"T\\x7f\\x01t\"");
  free(p.lines);
  free(r.text);
  free(acc);

  size_t bn;
  uint8_t *bytes = t_hex(T_BYTES_STD, &bn);
  t_put32(bytes, 0x1a, 77); /* f3 absent, pointer not 0 */
  r = dump(t_struct(f->test, "test.StructBytes"), FBE_MODEL_STANDARD, bytes, bn, NULL);
  p = parse(&r, bytes, bn);
  assert_int_equal(r.status, FBE_OK);
  expect_line(&p, "f1 = bytes 41 42 43");
  expect_line(&p, "f2: has value (flag 1)");
  expect_line(&p, "f3: pointer 77 (ignored: null)");
  free(p.lines);
  free(r.text);
  bytes[0x14] = 2; /* f2's flag */
  r = dump(t_struct(f->test, "test.StructBytes"), FBE_MODEL_STANDARD, bytes, bn, NULL);
  p = parse(&r, bytes, bn);
  expect_line(&p, "f2: has value (flag 2, not 1)");
  free(p.lines);
  free(r.text);
  free(bytes);
}

/* The same random changes on every type of the schema language: the examples of
 * FORMAT.md 11.3 and 11.4 and the big test structs with values in them. */
static void test_hostile_examples(void **state) {
  fixture *f = *state;
  uint64_t seed = 0x2545f4914f6cdd1du;
  size_t compared = 0, equal = 0;
  const struct {
    int protoex;
    const char *type, *std, *fin;
  } ex[] = {
      {0, "test.StructBytes", T_BYTES_STD, T_BYTES_FIN},
      {0, "test.StructVector", T_VECTOR_STD, T_VECTOR_FIN},
      {0, "test.StructMap", T_MAP_STD, T_MAP_FIN},
      {0, "test.StructHash", T_HASH_STD, T_HASH_FIN},
      {1, "protoex.Balance", T_BALANCE_EX_STD, T_BALANCE_EX_FIN},
  };
  for (size_t i = 0; i < sizeof ex / sizeof *ex; i++) {
    const fbe_struct *st = t_struct(ex[i].protoex ? f->protoex : f->test, ex[i].type);
    for (int m = 0; m < 2; m++) {
      size_t n;
      uint8_t *data = t_hex(m ? ex[i].fin : ex[i].std, &n);
      flips(st, m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD, data, n, 2000, &seed, &compared, &equal);
      free(data);
    }
  }
  fbe_arena *arena = fbe_arena_new();
  assert_non_null(arena);
  const fbe_struct *simple = t_struct(f->test, "test.StructSimple");
  const fbe_struct *vector = t_struct(f->test, "test.StructVector");
  const fbe_struct *optional = t_struct(f->test, "test.StructOptional");
  const fbe_struct *nested = t_struct(f->test, "test.StructNested");
  const fbe_struct *array = t_struct(f->test, "test.StructArray");
  struct {
    const fbe_struct *st;
    fbe_msg *m;
  } msgs[] = {
      {simple, t_build_simple(arena, simple)},
      {vector, t_build_vector(arena, vector)},
      {optional, t_new(arena, optional)},
      {nested, t_new(arena, nested)},
      {array, t_new(arena, array)},
  };
  for (size_t i = 0; i < sizeof msgs / sizeof *msgs; i++) {
    for (int m = 0; m < 2; m++) {
      fbe_model model = m ? FBE_MODEL_FINAL : FBE_MODEL_STANDARD;
      fbe_buffer b = t_encode(msgs[i].m, model);
      flips(msgs[i].st, model, b.data, b.size, 300, &seed, &compared, &equal);
      fbe_buffer_free(&b);
    }
  }
  fbe_arena_free(arena);
  print_message("hostile examples: %zu error offsets compared with verify, %zu equal\n", compared,
                equal);
}

/* Argument errors, and a buffer too short for any header. */
static void test_arguments(void **state) {
  fixture *f = *state;
  fbe_buffer out;
  fbe_buffer_init(&out);
  fbe_error err;
  uint8_t byte = 0;
  const fbe_model std = FBE_MODEL_STANDARD;
  assert_int_equal(fbe_dump(NULL, std, &byte, 1, NULL, &out, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_dump(f->account, std, NULL, 1, NULL, &out, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(fbe_dump(f->account, std, &byte, 1, NULL, NULL, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(out.size, 0);
  assert_int_equal(fbe_dump(f->account, FBE_MODEL_FINAL, NULL, 0, NULL, &out, NULL),
                   FBE_ERR_MALFORMED);
  assert_int_equal(fbe_buffer_append(&out, "", 1), 0);
  assert_string_equal((const char *)out.data,
                      "# proto.Account, final model, 0 bytes of input\n"
                      "!! offset 0x0000: 0 bytes are too few for a final model (8 at least)\n");
  /* the dump is appended to what the buffer holds */
  fbe_buffer_reset(&out);
  assert_int_equal(fbe_buffer_append(&out, "keep", 4), 0);
  size_t n;
  uint8_t *data = account_bytes(FBE_MODEL_FINAL, &n);
  assert_int_equal(fbe_dump(f->account, FBE_MODEL_FINAL, data, n, NULL, &out, NULL), FBE_OK);
  assert_true(!memcmp(out.data, "keep# proto.Account, final model", 32));
  /* a model size over the limit */
  fbe_limits lim = {FBE_DEFAULT_MAX_DEPTH, 100, 0};
  fbe_buffer_reset(&out);
  assert_int_equal(fbe_dump(f->account, FBE_MODEL_FINAL, data, n, &lim, &out, &err), FBE_ERR_LIMIT);
  assert_int_equal(err.offset, 0);
  assert_string_equal(err.message, "model size 152 exceeds the limit of 100 bytes (max_model_size)");
  fbe_error verr;
  assert_int_equal(verify(f->account, FBE_MODEL_FINAL, data, n, &lim, &verr), FBE_ERR_LIMIT);
  assert_string_equal(err.message, verr.message);
  free(data);
  fbe_buffer_free(&out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_golden_standard),
      cmocka_unit_test(test_golden_final),
      cmocka_unit_test(test_spec_table_standard),
      cmocka_unit_test(test_spec_table_final),
      cmocka_unit_test(test_malformed_values),
      cmocka_unit_test(test_malformed_count),
      cmocka_unit_test(test_malformed_other),
      cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_hostile_flips),
      cmocka_unit_test(test_hostile_examples),
      cmocka_unit_test(test_deep_nesting),
      cmocka_unit_test(test_shared_orders),
      cmocka_unit_test(test_shared_million),
      cmocka_unit_test(test_dump_memory_limit),
      cmocka_unit_test(test_run_overlap),
      cmocka_unit_test(test_shared_kinds),
      cmocka_unit_test(test_shared_limits),
      cmocka_unit_test(test_stream),
      cmocka_unit_test(test_smoke_examples),
      cmocka_unit_test(test_versions_and_trailing),
      cmocka_unit_test(test_values),
      cmocka_unit_test(test_arguments),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

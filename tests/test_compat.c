/* Schema compatibility checker: one before/after fixture per rule of FORMAT.md 8
 * (tests/compat/NAME.old.fbe -> NAME.new.fbe, some also compared the other way round,
 * which turns an addition into a removal), proto -> protoex worked out by hand, and a
 * few verdicts checked against what the codec and the protocol really do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fbe/compat.h"
#include "fbe/fbe.h"

#ifndef FBE_SCHEMAS_DIR
#error "FBE_SCHEMAS_DIR must be defined by the build"
#endif
#ifndef FBE_TESTS_DIR
#error "FBE_TESTS_DIR must be defined by the build"
#endif

/* Short names for the expectation tables. */
#define SAFE FBE_COMPAT_SAFE
#define OLD FBE_COMPAT_BREAKS_OLD_READERS
#define NEW FBE_COMPAT_BREAKS_NEW_READERS
#define BOTH FBE_COMPAT_BREAKS_BOTH
#define COMPAT FBE_COMPAT_FINAL_COMPATIBLE
#define INCOMPAT FBE_COMPAT_FINAL_INCOMPATIBLE
#define K(x) FBE_COMPAT_##x

typedef struct expect {
  fbe_compat_kind kind;
  const char *path;
  fbe_compat_effect standard;
  fbe_compat_final final;
  int warning;
} expect;

static fbe_schema *load(const char *dir, const char *file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  const char *dirs[] = {FBE_SCHEMAS_DIR};
  fbe_load_options opts = {dirs, 1};
  fbe_diagnostics diags = {0, NULL};
  fbe_schema *s = fbe_schema_load_file(path, &opts, &diags);
  for (size_t i = 0; i < diags.count; i++) {
    char line[512];
    fbe_diagnostic_format(&diags.items[i], line, sizeof line);
    print_message("  %s\n", line);
  }
  fbe_diagnostics_free(&diags);
  if (!s) fail_msg("%s did not load", path);
  return s;
}

static void print_report(const fbe_compat_report *r) {
  for (size_t i = 0; i < r->count; i++) {
    char line[1024];
    fbe_compat_change_format(&r->changes[i], line, sizeof line);
    print_message("    %s [%s]\n", line, fbe_compat_kind_name(r->changes[i].kind));
  }
}

/* Compares two loaded schemas and asserts the exact list of changes and the summary. */
static void check_report(fbe_schema *olds, fbe_schema *news, const char *what, const expect *exp,
                         size_t n, fbe_compat_effect standard, fbe_compat_final final) {
  fbe_compat_report r;
  fbe_error err;
  assert_int_equal(fbe_compat_compare(olds, news, &r, &err), FBE_OK);
  fbe_schema_release(olds);
  fbe_schema_release(news);
  int ok = r.count == n && r.standard == standard && r.final == final;
  size_t breaking = 0, warnings = 0;
  for (size_t i = 0; i < n; i++) {
    if (exp[i].standard != SAFE) breaking++;
    if (exp[i].warning) warnings++;
    if (i >= r.count) continue;
    const fbe_compat_change *c = &r.changes[i];
    if (c->kind != exp[i].kind || strcmp(c->path, exp[i].path) || c->standard != exp[i].standard ||
        c->final != exp[i].final || c->warning != exp[i].warning) {
      print_message("%s: change %zu: expected %s at %s (%s, %s%s)\n", what, i,
                    fbe_compat_kind_name(exp[i].kind), exp[i].path,
                    fbe_compat_effect_text(exp[i].standard), fbe_compat_final_text(exp[i].final),
                    exp[i].warning ? ", warning" : "");
      ok = 0;
    }
    /* Every change explains itself. */
    assert_true(*c->path && *c->note && (*c->old_text || *c->new_text));
  }
  ok = ok && r.breaking == breaking && r.warnings == warnings;
  if (!ok) {
    print_message("%s: got %zu changes (standard: %s, final: %s):\n", what, r.count,
                  fbe_compat_effect_text(r.standard), fbe_compat_final_text(r.final));
    print_report(&r);
  }
  fbe_compat_report_free(&r);
  assert_int_equal(r.count, 0); /* emptied */
  if (!ok) fail_msg("%s: unexpected report", what);
}

/* tests/compat/NAME.old.fbe -> NAME.new.fbe, or the other way when reverse. */
static void check_pair(const char *name, int reverse, const expect *exp, size_t n,
                       fbe_compat_effect standard, fbe_compat_final final) {
  char old_file[256], new_file[256], what[300];
  snprintf(old_file, sizeof old_file, "%s.%s.fbe", name, reverse ? "new" : "old");
  snprintf(new_file, sizeof new_file, "%s.%s.fbe", name, reverse ? "old" : "new");
  snprintf(what, sizeof what, "%s%s", name, reverse ? " (reversed)" : "");
  check_report(load(FBE_TESTS_DIR "/compat", old_file), load(FBE_TESTS_DIR "/compat", new_file),
               what, exp, n, standard, final);
}

#define CHECK(name, reverse, standard, final, ...)                                   \
  do {                                                                               \
    static const expect exp_[] = {__VA_ARGS__};                                      \
    check_pair(name, reverse, exp_, sizeof exp_ / sizeof exp_[0], standard, final); \
  } while (0)

/* ------------------------------------------------------------------ fields */

static void test_field_appended(void **state) {
  (void)state;
  CHECK("field_appended", 0, SAFE, INCOMPAT, {K(FIELD_APPENDED), "Order.price", SAFE, INCOMPAT, 0});
}

/* Removing the last field is the mirror image: old readers silently get the default. */
static void test_field_removed_last(void **state) {
  (void)state;
  CHECK("field_appended", 1, OLD, INCOMPAT, {K(FIELD_REMOVED), "Order.price", OLD, INCOMPAT, 0});
}

static void test_field_removed_middle(void **state) {
  (void)state;
  CHECK("field_removed_middle", 0, BOTH, INCOMPAT,
        {K(FIELD_REMOVED), "Order.symbol", OLD, INCOMPAT, 0},
        {K(FIELD_SHIFTED), "Order.price", BOTH, INCOMPAT, 0});
}

static void test_field_inserted(void **state) {
  (void)state;
  CHECK("field_inserted", 0, BOTH, INCOMPAT,
        {K(FIELD_INSERTED), "Order.symbol", NEW, INCOMPAT, 0},
        {K(FIELD_SHIFTED), "Order.price", BOTH, INCOMPAT, 0});
}

static void test_field_reordered(void **state) {
  (void)state;
  CHECK("field_reordered", 0, BOTH, INCOMPAT,
        {K(FIELD_REORDERED), "Order.price", BOTH, INCOMPAT, 0},
        {K(FIELD_REORDERED), "Order.quantity", BOTH, INCOMPAT, 0});
}

/* int32 -> int64 and T -> T?; the wider quantity also moves price. */
static void test_field_retyped(void **state) {
  (void)state;
  CHECK("field_retyped", 0, BOTH, INCOMPAT,
        {K(FIELD_RETYPED), "Order.quantity", BOTH, INCOMPAT, 0},
        {K(FIELD_RETYPED), "Order.price", BOTH, INCOMPAT, 0},
        {K(FIELD_SHIFTED), "Order.price", BOTH, INCOMPAT, 0});
  CHECK("field_retyped", 1, BOTH, INCOMPAT,
        {K(FIELD_RETYPED), "Order.quantity", BOTH, INCOMPAT, 0},
        {K(FIELD_RETYPED), "Order.price", BOTH, INCOMPAT, 0},
        {K(FIELD_SHIFTED), "Order.price", BOTH, INCOMPAT, 0});
}

static void test_field_struct_type(void **state) {
  (void)state;
  CHECK("field_struct_type", 0, BOTH, INCOMPAT,
        {K(FIELD_RETYPED), "Order.price", BOTH, INCOMPAT, 0});
}

static void test_field_collection(void **state) {
  (void)state;
  CHECK("field_collection", 0, SAFE, COMPAT,
        {K(FIELD_COLLECTION_CHANGED), "Basket.items", SAFE, COMPAT, 0},
        {K(FIELD_COLLECTION_CHANGED), "Basket.names", SAFE, COMPAT, 0},
        {K(FIELD_COLLECTION_CHANGED), "Basket.codes", SAFE, COMPAT, 1});
}

static void test_field_renamed(void **state) {
  (void)state;
  CHECK("field_renamed", 0, SAFE, COMPAT, {K(FIELD_RENAMED), "Order.title", SAFE, COMPAT, 1});
}

/* volume: "= 0.0" and no default are the same default, so no change. */
static void test_field_default(void **state) {
  (void)state;
  CHECK("field_default", 0, SAFE, COMPAT,
        {K(FIELD_DEFAULT_CHANGED), "Order.price", SAFE, COMPAT, 1},
        {K(FIELD_DEFAULT_CHANGED), "Order.note", SAFE, COMPAT, 1});
}

static void test_field_type_neutral(void **state) {
  (void)state;
  CHECK("field_type_neutral", 0, SAFE, COMPAT,
        {K(ENUM_ADDED), "Kind", SAFE, COMPAT, 0},
        {K(FIELD_TYPE_NEUTRAL), "Item.small", SAFE, COMPAT, 1},
        {K(FIELD_TYPE_NEUTRAL), "Item.kind", SAFE, COMPAT, 1},
        {K(FIELD_TYPE_NEUTRAL), "Item.data", SAFE, COMPAT, 1});
}

static void test_field_key(void **state) {
  (void)state;
  CHECK("field_key", 0, SAFE, COMPAT,
        {K(FIELD_KEY_CHANGED), "Order.id", SAFE, COMPAT, 1},
        {K(FIELD_KEY_CHANGED), "Order.name", SAFE, COMPAT, 1});
}

/* ------------------------------------------------------------------ inheritance, ids */

static void test_base_field_added(void **state) {
  (void)state;
  CHECK("base_field_added", 0, BOTH, INCOMPAT,
        {K(FIELD_APPENDED), "Base.b", SAFE, INCOMPAT, 0},
        {K(BASE_FIELD_INSERTED), "Derived.b", NEW, INCOMPAT, 0},
        {K(FIELD_SHIFTED), "Derived.x", BOTH, INCOMPAT, 0});
}

static void test_base_keeps_id(void **state) {
  (void)state;
  CHECK("base_keeps_id", 0, SAFE, INCOMPAT,
        {K(BASE_CHANGED), "Balance", SAFE, COMPAT, 0},
        {K(FIELD_APPENDED), "Balance.locked", SAFE, INCOMPAT, 0},
        {K(STRUCT_ADDED), "BalanceBase", SAFE, COMPAT, 0});
}

static void test_base_new_id(void **state) {
  (void)state;
  CHECK("base_new_id", 0, BOTH, INCOMPAT,
        {K(STRUCT_ID_CHANGED), "Balance", BOTH, INCOMPAT, 0},
        {K(BASE_CHANGED), "Balance", SAFE, COMPAT, 0},
        {K(FIELD_APPENDED), "Balance.locked", SAFE, INCOMPAT, 0},
        {K(STRUCT_ADDED), "BalanceBase", SAFE, COMPAT, 0});
}

static void test_struct_id_changed(void **state) {
  (void)state;
  CHECK("struct_id_changed", 0, BOTH, INCOMPAT,
        {K(STRUCT_ID_CHANGED), "Order", BOTH, INCOMPAT, 0});
}

/* ------------------------------------------------------------------ protocol */

static void test_message_renumbered(void **state) {
  (void)state;
  CHECK("message_renumbered", 0, BOTH, INCOMPAT,
        {K(PACKAGE_OFFSET_CHANGED), "package", SAFE, COMPAT, 0},
        {K(MESSAGE_ID_CHANGED), "OrderMessage", BOTH, INCOMPAT, 0});
}

static void test_message_ids_swapped(void **state) {
  (void)state;
  CHECK("message_ids_swapped", 0, BOTH, INCOMPAT,
        {K(MESSAGE_ID_CHANGED), "BuyMessage", BOTH, INCOMPAT, 0},
        {K(MESSAGE_ID_CHANGED), "SellMessage", BOTH, INCOMPAT, 0});
}

static void test_message_added_removed(void **state) {
  (void)state;
  CHECK("message_added", 0, SAFE, COMPAT,
        {K(MESSAGE_ADDED), "CancelMessage", SAFE, COMPAT, 0});
  CHECK("message_added", 1, NEW, INCOMPAT,
        {K(MESSAGE_REMOVED), "CancelMessage", NEW, INCOMPAT, 0});
}

static void test_struct_made_message(void **state) {
  (void)state;
  CHECK("struct_made_message", 0, SAFE, COMPAT,
        {K(STRUCT_MADE_MESSAGE), "Ping", SAFE, COMPAT, 0});
  CHECK("struct_made_message", 1, NEW, INCOMPAT,
        {K(MESSAGE_MADE_STRUCT), "Ping", NEW, INCOMPAT, 0});
}

/* ------------------------------------------------------------------ enums and flags */

static void test_enum_value_added_removed(void **state) {
  (void)state;
  CHECK("enum_value_added", 0, SAFE, COMPAT, {K(ENUM_VALUE_ADDED), "Side.tell", SAFE, COMPAT, 0});
  CHECK("enum_value_added", 1, SAFE, COMPAT, {K(ENUM_VALUE_REMOVED), "Side.tell", SAFE, COMPAT, 1});
}

static void test_enum_value_inserted(void **state) {
  (void)state;
  CHECK("enum_value_inserted", 0, BOTH, INCOMPAT,
        {K(ENUM_VALUE_RENUMBERED), "Side.sell", BOTH, INCOMPAT, 0},
        {K(ENUM_VALUE_ADDED), "Side.hold", OLD, INCOMPAT, 0});
  /* Reversed: hold's number 1 is sell again, so new readers take old hold for sell. */
  CHECK("enum_value_inserted", 1, BOTH, INCOMPAT,
        {K(ENUM_VALUE_REMOVED), "Side.hold", NEW, INCOMPAT, 0},
        {K(ENUM_VALUE_RENUMBERED), "Side.sell", BOTH, INCOMPAT, 0});
}

static void test_enum_value_renamed(void **state) {
  (void)state;
  CHECK("enum_value_renamed", 0, SAFE, COMPAT,
        {K(ENUM_VALUE_RENAMED), "Side.offer", SAFE, COMPAT, 0});
}

static void test_enum_base_changed(void **state) {
  (void)state;
  CHECK("enum_base_changed", 0, BOTH, INCOMPAT,
        {K(ENUM_BASE_CHANGED), "Side", BOTH, INCOMPAT, 0},
        {K(FIELD_RETYPED), "Order.side", BOTH, INCOMPAT, 0});
  CHECK("enum_base_same_bytes", 0, SAFE, COMPAT,
        {K(ENUM_BASE_CHANGED), "Side", SAFE, COMPAT, 0});
}

static void test_flags_value_added(void **state) {
  (void)state;
  CHECK("flags_value_added", 0, SAFE, COMPAT,
        {K(ENUM_VALUE_ADDED), "Perm.exec", SAFE, COMPAT, 0},
        {K(ENUM_VALUE_ADDED), "Perm.all", SAFE, COMPAT, 0});
}

static void test_enum_replaced(void **state) {
  (void)state;
  CHECK("enum_replaced", 0, SAFE, COMPAT,
        {K(ENUM_REMOVED), "State", SAFE, COMPAT, 0},
        {K(ENUM_ADDED), "StateEx", SAFE, COMPAT, 0},
        {K(FIELD_ENUM_REPLACED), "Account.state", SAFE, COMPAT, 0},
        {K(ENUM_VALUE_ADDED), "StateEx.away", SAFE, COMPAT, 0});
}

/* ------------------------------------------------------------------ reference schemas */

static void test_identical(void **state) {
  (void)state;
  static const char *const files[] = {"proto.fbe", "protoex.fbe", "test.fbe", "enums.fbe"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    check_report(load(FBE_SCHEMAS_DIR, files[i]), load(FBE_SCHEMAS_DIR, files[i]), files[i], NULL,
                 0, SAFE, COMPAT);
}

/* proto -> protoex, by hand from FORMAT.md 8 and 9:
 * - OrderSide gains tell, OrderType gains stoplimit: appended values, safe (8.3);
 * - Account.state changes from State to StateEx: both flags : byte, StateEx keeps every
 *   State value and adds happy/sad bits, so the slot is unchanged and safe; its default
 *   State.initialized|State.bad (0x0b) becomes ...|StateEx.sad (0x2b): a warning;
 * - Order gains tp and sl at its end: appended, safe (8.1), final layout changes;
 * - Balance(base) : proto.Balance keeps id 2 and appends locked: safe (8.2, 11.4);
 * - Account(3) is otherwise the same: its nested Balance and Order bodies carry their own
 *   sizes, so their growth is safe in the standard model;
 * - the messages go from 1..3 to 11..13 (offset 10): a proto receiver skips 11..13, so
 *   old readers break; a protoex receiver still takes 1..3 as proto.*Message through
 *   `import proto` (9.4), so new readers do not. Hence exit 1 for `fbe compat`.
 * The final model is incompatible (appended fields, message ids). */
static void test_proto_to_protoex(void **state) {
  (void)state;
  static const expect exp[] = {
      {K(PACKAGE_RENAMED), "package", SAFE, COMPAT, 0},
      {K(PACKAGE_OFFSET_CHANGED), "package", SAFE, COMPAT, 0},
      {K(ENUM_VALUE_ADDED), "OrderSide.tell", SAFE, COMPAT, 0},
      {K(ENUM_VALUE_ADDED), "OrderType.stoplimit", SAFE, COMPAT, 0},
      {K(ENUM_REMOVED), "State", SAFE, COMPAT, 0},
      {K(ENUM_ADDED), "StateEx", SAFE, COMPAT, 0},
      {K(FIELD_APPENDED), "Order.tp", SAFE, INCOMPAT, 0},
      {K(FIELD_APPENDED), "Order.sl", SAFE, INCOMPAT, 0},
      {K(BASE_CHANGED), "Balance", SAFE, COMPAT, 0},
      {K(FIELD_APPENDED), "Balance.locked", SAFE, INCOMPAT, 0},
      {K(FIELD_ENUM_REPLACED), "Account.state", SAFE, COMPAT, 0},
      {K(ENUM_VALUE_ADDED), "StateEx.happy", SAFE, COMPAT, 0},
      {K(ENUM_VALUE_ADDED), "StateEx.sad", SAFE, COMPAT, 0},
      {K(FIELD_DEFAULT_CHANGED), "Account.state", SAFE, COMPAT, 1},
      {K(MESSAGE_ID_CHANGED), "OrderMessage", OLD, INCOMPAT, 0},
      {K(MESSAGE_ID_CHANGED), "BalanceMessage", OLD, INCOMPAT, 0},
      {K(MESSAGE_ID_CHANGED), "AccountMessage", OLD, INCOMPAT, 0},
  };
  fbe_schema *olds = load(FBE_SCHEMAS_DIR, "proto.fbe");
  fbe_schema *news = load(FBE_SCHEMAS_DIR, "protoex.fbe");

  /* The texts a person reads for the key lines. */
  fbe_compat_report r;
  assert_int_equal(fbe_compat_compare(olds, news, &r, NULL), FBE_OK);
  assert_int_equal(r.count, sizeof exp / sizeof exp[0]);
  assert_string_equal(r.changes[6].new_text, "double tp = 10.0 at offset 34");
  assert_string_equal(r.changes[9].new_text, "double locked = 0.0 at offset 20");
  assert_string_equal(r.changes[13].old_text, "0xb");
  assert_string_equal(r.changes[13].new_text, "0x2b");
  assert_string_equal(r.changes[14].old_text, "id 1");
  assert_string_equal(r.changes[14].new_text, "id 11");
  assert_string_equal(r.changes[14].note, "old receivers skip id 11; "
                                          "new receivers still take id 1 as proto.OrderMessage");
  char line[1024];
  fbe_compat_change_format(&r.changes[6], line, sizeof line);
  assert_string_equal(line, "Order.tp: field appended: double tp = 10.0 at offset 34 (old readers "
                            "skip it; new readers get its default from old data) \xE2\x80\x94 "
                            "standard: safe, final: incompatible");
  fbe_compat_report_free(&r);

  check_report(olds, news, "proto -> protoex", exp, sizeof exp / sizeof exp[0], OLD, INCOMPAT);
}

/* The other way round every addition is a removal, and a proto receiver (new side) skips
 * protoex ids while a protoex receiver (old side) still takes proto's. */
static void test_protoex_to_proto(void **state) {
  (void)state;
  static const expect exp[] = {
      {K(PACKAGE_RENAMED), "package", SAFE, COMPAT, 0},
      {K(PACKAGE_OFFSET_CHANGED), "package", SAFE, COMPAT, 0},
      {K(ENUM_VALUE_REMOVED), "OrderSide.tell", SAFE, COMPAT, 1},
      {K(ENUM_VALUE_REMOVED), "OrderType.stoplimit", SAFE, COMPAT, 1},
      {K(ENUM_REMOVED), "StateEx", SAFE, COMPAT, 0},
      {K(ENUM_ADDED), "State", SAFE, COMPAT, 0},
      {K(FIELD_REMOVED), "Order.tp", OLD, INCOMPAT, 0},
      {K(FIELD_REMOVED), "Order.sl", OLD, INCOMPAT, 0},
      {K(BASE_CHANGED), "Balance", SAFE, COMPAT, 0},
      {K(FIELD_REMOVED), "Balance.locked", OLD, INCOMPAT, 0},
      {K(FIELD_ENUM_REPLACED), "Account.state", SAFE, COMPAT, 0},
      {K(ENUM_VALUE_REMOVED), "State.happy", SAFE, COMPAT, 1},
      {K(ENUM_VALUE_REMOVED), "State.sad", SAFE, COMPAT, 1},
      {K(FIELD_DEFAULT_CHANGED), "Account.state", SAFE, COMPAT, 1},
      {K(MESSAGE_ID_CHANGED), "OrderMessage", NEW, INCOMPAT, 0},
      {K(MESSAGE_ID_CHANGED), "BalanceMessage", NEW, INCOMPAT, 0},
      {K(MESSAGE_ID_CHANGED), "AccountMessage", NEW, INCOMPAT, 0},
  };
  check_report(load(FBE_SCHEMAS_DIR, "protoex.fbe"), load(FBE_SCHEMAS_DIR, "proto.fbe"),
               "protoex -> proto", exp, sizeof exp / sizeof exp[0], BOTH, INCOMPAT);
}

/* ------------------------------------------------------------------ the verdicts hold */

/* Encodes msg and returns the model in buf (reset first). */
static void encode(const fbe_msg *msg, fbe_model model, fbe_buffer *buf) {
  fbe_buffer_reset(buf);
  assert_int_equal(fbe_encode(msg, model, buf, NULL), FBE_OK);
}

static fbe_status verify_as(const fbe_struct *type, fbe_model model, const fbe_buffer *buf) {
  return fbe_verify(type, model, buf->data, buf->size, NULL, NULL, NULL);
}

static fbe_status decode_as(const fbe_struct *type, const fbe_buffer *buf, fbe_arena *a,
                            fbe_msg **out) {
  return fbe_decode(type, FBE_MODEL_STANDARD, buf->data, buf->size, a, NULL, out, NULL, NULL);
}

static double get_double(fbe_msg *m, const char *field) {
  double v = -1.0;
  assert_int_equal(fbe_ref_get_double(fbe_ref_field(fbe_msg_ref(m), field), &v), FBE_OK);
  return v;
}

/* What the report calls safe, breaking and incompatible, seen through the codec and the
 * receiver's dispatch. */
static void test_verdicts_on_the_wire(void **state) {
  (void)state;
  fbe_arena *a = fbe_arena_new();
  fbe_buffer buf;
  fbe_buffer_init(&buf);
  fbe_msg *m, *back;
  assert_non_null(a);

  /* Balance.locked appended via (base): standard data crosses both ways (locked is
   * skipped by old readers, defaulted by new ones); final data does not verify. */
  fbe_schema *p = load(FBE_SCHEMAS_DIR, "proto.fbe"), *px = load(FBE_SCHEMAS_DIR, "protoex.fbe");
  const fbe_struct *bal = fbe_schema_find_struct(p, "Balance");
  const fbe_struct *balx = fbe_schema_find_struct(px, "Balance");
  m = fbe_msg_new(a, balx);
  assert_int_equal(fbe_ref_set_string(fbe_ref_field(fbe_msg_ref(m), "currency"), "USD", NULL), FBE_OK);
  assert_int_equal(fbe_ref_set_double(fbe_ref_field(fbe_msg_ref(m), "amount"), 1000.0, NULL), FBE_OK);
  assert_int_equal(fbe_ref_set_double(fbe_ref_field(fbe_msg_ref(m), "locked"), 12.5, NULL), FBE_OK);
  encode(m, FBE_MODEL_STANDARD, &buf);
  assert_int_equal(verify_as(bal, FBE_MODEL_STANDARD, &buf), FBE_OK);
  assert_int_equal(decode_as(bal, &buf, a, &back), FBE_OK);
  assert_true(get_double(back, "amount") == 1000.0);
  encode(m, FBE_MODEL_FINAL, &buf);
  assert_int_not_equal(verify_as(bal, FBE_MODEL_FINAL, &buf), FBE_OK);
  m = fbe_msg_new(a, bal);
  assert_int_equal(fbe_ref_set_double(fbe_ref_field(fbe_msg_ref(m), "amount"), 5.0, NULL), FBE_OK);
  encode(m, FBE_MODEL_STANDARD, &buf);
  assert_int_equal(verify_as(balx, FBE_MODEL_STANDARD, &buf), FBE_OK);
  assert_int_equal(decode_as(balx, &buf, a, &back), FBE_OK);
  assert_true(get_double(back, "amount") == 5.0 && get_double(back, "locked") == 0.0);

  /* Message ids 1..3 -> 11..13: a proto receiver does not know 11, a protoex receiver
   * still takes 1 as proto.OrderMessage (import). */
  assert_null(fbe_protocol_find(p, NULL, 11));
  const fbe_struct *rx = fbe_protocol_find(px, NULL, 1);
  assert_non_null(rx);
  assert_string_equal(fbe_struct_full_name(rx), "proto.OrderMessage");
  fbe_schema_release(p);
  fbe_schema_release(px);

  /* Type id changed: verify rejects the other side's data. */
  fbe_schema *o = load(FBE_TESTS_DIR "/compat", "struct_id_changed.old.fbe");
  fbe_schema *n = load(FBE_TESTS_DIR "/compat", "struct_id_changed.new.fbe");
  encode(fbe_msg_new(a, fbe_schema_find_struct(o, "Order")), FBE_MODEL_STANDARD, &buf);
  assert_int_not_equal(verify_as(fbe_schema_find_struct(n, "Order"), FBE_MODEL_STANDARD, &buf),
                       FBE_OK);
  fbe_schema_release(o);
  fbe_schema_release(n);

  /* Field inserted: a new reader of old data does not get the old price back. */
  o = load(FBE_TESTS_DIR "/compat", "field_inserted.old.fbe");
  n = load(FBE_TESTS_DIR "/compat", "field_inserted.new.fbe");
  m = fbe_msg_new(a, fbe_schema_find_struct(o, "Order"));
  assert_int_equal(fbe_ref_set_double(fbe_ref_field(fbe_msg_ref(m), "price"), 2.5, NULL), FBE_OK);
  encode(m, FBE_MODEL_STANDARD, &buf);
  fbe_status st = decode_as(fbe_schema_find_struct(n, "Order"), &buf, a, &back);
  assert_true(st != FBE_OK || get_double(back, "price") != 2.5);
  fbe_schema_release(o);
  fbe_schema_release(n);

  /* Field appended: old data read by the new schema gets the declared default 1.5. */
  o = load(FBE_TESTS_DIR "/compat", "field_appended.old.fbe");
  n = load(FBE_TESTS_DIR "/compat", "field_appended.new.fbe");
  encode(fbe_msg_new(a, fbe_schema_find_struct(o, "Order")), FBE_MODEL_STANDARD, &buf);
  assert_int_equal(decode_as(fbe_schema_find_struct(n, "Order"), &buf, a, &back), FBE_OK);
  assert_true(get_double(back, "price") == 1.5);
  fbe_schema_release(o);
  fbe_schema_release(n);

  fbe_buffer_free(&buf);
  fbe_arena_free(a);
}

/* ------------------------------------------------------------------ API edges */

static void test_api(void **state) {
  (void)state;
  fbe_compat_report r;
  fbe_error err;
  fbe_schema *s = load(FBE_SCHEMAS_DIR, "proto.fbe");
  assert_int_equal(fbe_compat_compare(NULL, s, &r, &err), FBE_ERR_ARGUMENT);
  assert_int_equal(r.count, 0);
  assert_null(r.changes);
  assert_int_equal(fbe_compat_compare(s, s, NULL, NULL), FBE_ERR_ARGUMENT);
  fbe_compat_report_free(&r);
  fbe_compat_report_free(NULL);
  fbe_schema_release(s);

  assert_string_equal(fbe_compat_kind_text(FBE_COMPAT_FIELD_APPENDED), "field appended");
  assert_string_equal(fbe_compat_kind_name(FBE_COMPAT_FIELD_KEY_CHANGED),
                      "FBE_COMPAT_FIELD_KEY_CHANGED");
  for (int k = 0; k < FBE_COMPAT_KIND_COUNT_; k++)
    assert_string_not_equal(fbe_compat_kind_text((fbe_compat_kind)k), "unknown change");
  assert_string_equal(fbe_compat_effect_text(FBE_COMPAT_BREAKS_BOTH), "breaks old and new readers");
  assert_string_equal(fbe_compat_final_text(FBE_COMPAT_FINAL_INCOMPATIBLE), "incompatible");
  char small[8];
  fbe_compat_change ch = {FBE_COMPAT_STRUCT_ADDED, "A.very.long.path", "", "struct X", "n",
                          SAFE, COMPAT, 0};
  fbe_compat_change_format(&ch, small, sizeof small);
  assert_string_equal(small, "A.very.");
  fbe_compat_change_format(NULL, small, sizeof small);
  assert_string_equal(small, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_field_appended),
      cmocka_unit_test(test_field_removed_last),
      cmocka_unit_test(test_field_removed_middle),
      cmocka_unit_test(test_field_inserted),
      cmocka_unit_test(test_field_reordered),
      cmocka_unit_test(test_field_retyped),
      cmocka_unit_test(test_field_struct_type),
      cmocka_unit_test(test_field_collection),
      cmocka_unit_test(test_field_renamed),
      cmocka_unit_test(test_field_default),
      cmocka_unit_test(test_field_type_neutral),
      cmocka_unit_test(test_field_key),
      cmocka_unit_test(test_base_field_added),
      cmocka_unit_test(test_base_keeps_id),
      cmocka_unit_test(test_base_new_id),
      cmocka_unit_test(test_struct_id_changed),
      cmocka_unit_test(test_message_renumbered),
      cmocka_unit_test(test_message_ids_swapped),
      cmocka_unit_test(test_message_added_removed),
      cmocka_unit_test(test_struct_made_message),
      cmocka_unit_test(test_enum_value_added_removed),
      cmocka_unit_test(test_enum_value_inserted),
      cmocka_unit_test(test_enum_value_renamed),
      cmocka_unit_test(test_enum_base_changed),
      cmocka_unit_test(test_flags_value_added),
      cmocka_unit_test(test_enum_replaced),
      cmocka_unit_test(test_identical),
      cmocka_unit_test(test_proto_to_protoex),
      cmocka_unit_test(test_protoex_to_proto),
      cmocka_unit_test(test_verdicts_on_the_wire),
      cmocka_unit_test(test_api),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

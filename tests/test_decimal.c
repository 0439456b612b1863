/* Decimal text, uuid text and generation, Base64: the scalar codecs JSON relies on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "fbe/message.h"
#include "fbe/internal/base64.h"
#include "fbe/internal/value.h"

static void hex_to_bytes(const char *hex, uint8_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    sscanf(hex + 3 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

static fbe_decimal parse_ok(const char *text) {
  fbe_decimal d;
  memset(&d, 0xee, sizeof d);
  assert_int_equal(fbe_decimal_parse(text, strlen(text), &d), FBE_OK);
  return d;
}

static void assert_format(const fbe_decimal *d, const char *expected) {
  char out[48];
  fbe_decimal_format(d, out, sizeof out);
  assert_string_equal(out, expected);
}

/* FORMAT.md 3.2 worked examples: text -> bytes and bytes -> the same text. */
static void test_decimal_spec_examples(void **state) {
  (void)state;
  static const struct { const char *text, *hex; } cases[] = {
    {"0", "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
    {"1", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
    {"-1", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80"},
    {"0.1", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00"},
    {"-0.000001", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 06 80"},
    {"1000", "e8 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
    {"1.000", "e8 03 00 00 00 00 00 00 00 00 00 00 00 00 03 00"},
    {"123456.123456", "40 f2 8e be 1c 00 00 00 00 00 00 00 00 00 06 00"},
    {"0.0000000000000000000000000001", "01 00 00 00 00 00 00 00 00 00 00 00 00 00 1c 00"},
    {"79228162514264337593543950335", "ff ff ff ff ff ff ff ff ff ff ff ff 00 00 00 00"},
    {"-0", "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t want[16];
    hex_to_bytes(cases[i].hex, want, 16);
    fbe_decimal d = parse_ok(cases[i].text);
    assert_memory_equal(d.bytes, want, 16);
    fbe_decimal from_bytes;
    memcpy(from_bytes.bytes, want, 16);
    /* 0.0000000000000000000000000001 prints in Python's scientific form */
    assert_format(&from_bytes, i == 8 ? "1E-28" : cases[i].text);
  }
}

static void assert_parse_bytes(const char *text, uint64_t magnitude, int scale, int negative) {
  fbe_decimal d = parse_ok(text);
  uint8_t want[16] = {0};
  for (int i = 0; i < 8; i++) want[i] = (uint8_t)(magnitude >> (8 * i));
  want[14] = (uint8_t)scale;
  want[15] = negative ? 0x80 : 0;
  assert_memory_equal(d.bytes, want, 16);
}

static void test_decimal_scale_and_exponent(void **state) {
  (void)state;
  assert_parse_bytes("1E+3", 1000, 0, 0); /* positive exponent: scale 0, full magnitude */
  assert_parse_bytes("1e3", 1000, 0, 0);
  assert_parse_bytes("1.5E+1", 15, 0, 0);
  assert_parse_bytes("1.25E+1", 125, 1, 0);
  assert_parse_bytes("1E-7", 1, 7, 0);
  assert_parse_bytes("-1.8E-13", 18, 14, 1);
  assert_parse_bytes("1.5E-10", 15, 11, 0);
  assert_parse_bytes("+5", 5, 0, 0);
  assert_parse_bytes(".5", 5, 1, 0);
  assert_parse_bytes("5.", 5, 0, 0);
  assert_parse_bytes("000123.4500", 1234500, 4, 0);
  assert_parse_bytes("0.000", 0, 3, 0);
  assert_parse_bytes("-0.000", 0, 3, 1);
  assert_parse_bytes("0E+5", 0, 0, 0);
  assert_parse_bytes("0E-99999999999999999999", 0, 28, 0); /* zero: scale clamps */
  assert_parse_bytes("1E+18", 1000000000000000000u, 0, 0);
  /* scale above 28 is reduced only by dropping trailing zeros (exact) */
  assert_parse_bytes("0.00000000000000000000000000010", 1, 28, 0);
  assert_parse_bytes("100E-30", 1, 28, 0);

  /* Python's str(Decimal) forms */
  fbe_decimal d = parse_ok("0.0000001");
  assert_format(&d, "1E-7");
  d = parse_ok("0.000001");
  assert_format(&d, "0.000001");
  d = parse_ok("-0.00000000000018");
  assert_format(&d, "-1.8E-13");
  d = parse_ok("1.5E-10");
  assert_format(&d, "1.5E-10");
  d = parse_ok("0E-7");
  assert_format(&d, "0E-7");
  d = parse_ok("-0.000");
  assert_format(&d, "-0.000");
  d = parse_ok("1E+3");
  assert_format(&d, "1000");
  d = parse_ok("-0.5");
  assert_format(&d, "-0.5");
  d = parse_ok("12.3400");
  assert_format(&d, "12.3400");
  d = parse_ok("7922816251426433759354395033.5");
  assert_format(&d, "7922816251426433759354395033.5");
}

static void test_decimal_errors(void **state) {
  (void)state;
  static const char *range[] = {
    "79228162514264337593543950336", /* 2^96 */
    "-79228162514264337593543950336",
    "792281625142643375935439503350E-1", /* scale 1 is kept, so the magnitude is too big */
    "1E+29", "1E-29", "0.00000000000000000000000000001", "1E+999999999999999",
    "123456789012345678901234567890",
  };
  static const char *bad[] = {"", "-", "+", ".", "-.", "e5", "1e", "1e+", "1.2.3", " 1", "1 ",
                              "abc", "1x", "inf", "NaN", "0x10", "--1", "1e5.5", "1,5"};
  fbe_decimal d;
  for (size_t i = 0; i < sizeof range / sizeof range[0]; i++)
    assert_int_equal(fbe_decimal_parse(range[i], strlen(range[i]), &d), FBE_ERR_RANGE);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    assert_int_equal(fbe_decimal_parse(bad[i], strlen(bad[i]), &d), FBE_ERR_ARGUMENT);
  /* the length bounds the text: nothing past it is read */
  assert_int_equal(fbe_decimal_parse("12345", 2, &d), FBE_OK);
  assert_format(&d, "12");
  assert_int_equal(fbe_decimal_parse(NULL, 0, &d), FBE_ERR_ARGUMENT);
}

static void test_decimal_format_small_buffer(void **state) {
  (void)state;
  fbe_decimal d = parse_ok("-123.45");
  char out[5];
  fbe_decimal_format(&d, out, sizeof out);
  assert_string_equal(out, "-123"); /* truncated, still terminated */
  /* a scale byte above 28 (invalid data) still formats without overflow */
  d = parse_ok("79228162514264337593543950335");
  d.bytes[14] = 255;
  char big[48];
  fbe_decimal_format(&d, big, sizeof big);
  assert_string_equal(big, "7.9228162514264337593543950335E-227");
}

/* ---------------------------------------------------------------- uuid */

static void test_uuid_text(void **state) {
  (void)state;
  const char *text = "123e4567-e89b-12d3-a456-426655440000";
  static const uint8_t want[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
                                   0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0x00, 0x00};
  fbe_uuid u;
  assert_int_equal(fbe_uuid_parse(text, 36, &u), FBE_OK);
  assert_memory_equal(u.bytes, want, 16);
  char out[37];
  fbe_uuid_format(&u, out);
  assert_string_equal(out, text);

  assert_int_equal(fbe_uuid_parse("E7854072-F0A5-11E8-8F69-AC220BCDD8E0", 36, &u), FBE_OK);
  fbe_uuid_format(&u, out);
  assert_string_equal(out, "e7854072-f0a5-11e8-8f69-ac220bcdd8e0");

  static const char *bad[] = {
    "", "123e4567e89b12d3a456426655440000", "123e4567-e89b-12d3-a456-42665544000",
    "123e4567-e89b-12d3-a456-4266554400000", "123e4567-e89b-12d3-a456_426655440000",
    "123e4567-e89b-12d3-a456-42665544000g", "{123e4567-e89b-12d3-a456-426655440000}",
    "123e456-7e89b-12d3-a456-426655440000",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    assert_int_equal(fbe_uuid_parse(bad[i], strlen(bad[i]), &u), FBE_ERR_ARGUMENT);
}

static void test_uuid_v4(void **state) {
  (void)state;
  uint8_t a[16], b[16];
  fbei_uuid_v4(a);
  fbei_uuid_v4(b);
  assert_int_equal(a[6] >> 4, 4);       /* version */
  assert_int_equal(a[8] & 0xc0, 0x80);  /* RFC 4122 variant */
  assert_int_equal(b[6] >> 4, 4);
  assert_memory_not_equal(a, b, 16);
}

static void test_uuid_v1(void **state) {
  (void)state;
  uint8_t a[16], b[16];
  uint64_t before = fbei_now_ns() / 100u + 0x01b21dd213814000u;
  fbei_uuid_v1(a);
  fbei_uuid_v1(b);
  uint64_t after = fbei_now_ns() / 100u + 0x01b21dd213814000u;
  assert_int_equal(a[6] >> 4, 1);       /* version */
  assert_int_equal(a[8] & 0xc0, 0x80);  /* variant */
  assert_int_equal(a[10] & 0x01, 0x01); /* multicast bit: random node */
  assert_memory_not_equal(a, b, 16);
  uint64_t t = (uint64_t)(a[6] & 0x0f) << 56 | (uint64_t)a[7] << 48 | (uint64_t)a[4] << 40 |
               (uint64_t)a[5] << 32 | (uint64_t)a[0] << 24 | (uint64_t)a[1] << 16 |
               (uint64_t)a[2] << 8 | a[3];
  assert_true(t >= before && t <= after); /* 100-ns intervals since 1582-10-15 */
}

/* ---------------------------------------------------------------- base64 */

static void assert_base64(const char *data, size_t n, const char *text) {
  char out[64];
  size_t len = fbei_base64_encoded_size(n);
  assert_int_equal(len, strlen(text));
  fbei_base64_encode((const uint8_t *)data, n, out);
  assert_memory_equal(out, text, len);
  uint8_t back[64];
  size_t bad = 0;
  assert_int_equal(fbei_base64_decode(text, len, back, &bad), (ptrdiff_t)n);
  if (n) assert_memory_equal(back, data, n);
}

static void test_base64(void **state) {
  (void)state;
  assert_base64("", 0, "");
  assert_base64("A", 1, "QQ==");
  assert_base64("AB", 2, "QUI=");
  assert_base64("ABC", 3, "QUJD");
  assert_base64("xy", 2, "eHk=");
  assert_base64("abc", 3, "YWJj");
  assert_base64("\xff\xfe\x00\x01", 4, "//4AAQ==");
  assert_base64("\xfb\xef\xbe", 3, "++++");

  static const struct { const char *text; size_t bad; } bad[] = {
    {"QQ=", 0}, {"Q", 0}, {"QUJDQ", 4}, {"QU!D", 2}, {"QQ==QUJD", 2}, {"Q===", 1},
    {"QQ=A", 2}, {"QUJD====", 4}, {"QU D", 2}, {"QUJ\n", 3},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t out[16];
    size_t at = 99;
    assert_int_equal(fbei_base64_decode(bad[i].text, strlen(bad[i].text), out, &at), -1);
    assert_int_equal(at, bad[i].bad);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_decimal_spec_examples),
    cmocka_unit_test(test_decimal_scale_and_exponent),
    cmocka_unit_test(test_decimal_errors),
    cmocka_unit_test(test_decimal_format_small_buffer),
    cmocka_unit_test(test_uuid_text),
    cmocka_unit_test(test_uuid_v4),
    cmocka_unit_test(test_uuid_v1),
    cmocka_unit_test(test_base64),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

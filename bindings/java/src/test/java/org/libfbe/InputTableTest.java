package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/INPUT.md, row by row (the row ids name the cases: tests/docs/check_input_table.py
 * looks for each): what set(), fromMap() and encode accept, and how they refuse the rest,
 * with the core's status, message and path. Every case runs through all three ways in
 * (the value set on a new message, given in a map, and put into the message by hand past
 * set() so that encode meets it), which must agree.
 */
class InputTableTest {
  static final String SCHEMA = String.join("\n",
      "package input",
      "enum Side : byte { buy; sell; }",
      "enum Other { a; b; }",
      "flags State : byte { unknown = 0x00; invalid = 0x01; initialized = 0x02; calculated = 0x04;",
      "  good = initialized | calculated; }",
      "struct Point { [key] int32 x; int32 y; string label; }",
      "struct Point3 : Point { int32 z; }",
      "struct Elsewhere { int32 v; }",
      "struct All {",
      "  bool b; int32 i32; uint8 u8; uint32 u32; uint64 u64; char c; wchar wc; float f; double d;",
      "  decimal dec; timestamp ts; uuid id; string s; bytes bin; Side side; State state;",
      "  int32? opt; int32[3] arr; int32[] vec; int32! set; int32<string> m; Point p; Point? op;",
      "}", "");

  static Schema schema;

  @BeforeAll
  static void load() {
    schema = Fbe.loadString(SCHEMA, "input.fbe", List.of());
  }

  @AfterAll
  static void close() {
    schema.close();
  }

  /** A case: the value given for a field, and what it becomes or how it is refused. */
  record Case(String field, Object given, Object want, Status status, String reason, String path, boolean atEncode) {
    @Override
    public String toString() {
      return field + " = " + show(given) + (status == null ? " accepted" : " refused: " + status + " " + reason);
    }
  }

  /** Accepted: the field then holds `want` (a Function of the schema for schema-made values). */
  static Case ok(String field, Object given, Object want) {
    return new Case(field, given, want, null, null, null, false);
  }

  /** Refused by set, fromMap and encode alike, at `path`. */
  static Case no(String field, Object given, Status status, String reason, String path) {
    return new Case(field, given, null, status, reason, path, false);
  }

  static Case no(String field, Object given, Status status, String reason) {
    return no(field, given, status, reason, field);
  }

  /** Stored by set (a host value the binding keeps as it is) and refused when encoded. */
  static Case atEncode(String field, Object given, Status status, String reason) {
    return new Case(field, given, null, status, reason, field, true);
  }

  static Function<Schema, Object> enumOf(String type, long value) {
    return s -> s.enumType(type).of(value);
  }

  static Arguments row(String id, Case c) {
    return Arguments.of(id, c);
  }

  static final UUID U = UUID.fromString("123e4567-e89b-12d3-a456-426655440000");
  static final String FLOATS = "binary floats are not exact: pass a decimal or its text";

  static Stream<Arguments> rows() {
    return Stream.of(
        row("bool", ok("b", true, true)),
        row("bool", no("b", 1, Status.TYPE, "expected bool, got an integer")),
        row("bool", no("b", "true", Status.TYPE, "expected bool, got a string")),
        row("int", ok("i32", 5, 5)),
        row("int", ok("i32", 5L, 5)),
        row("int", ok("i32", (short) -5, -5)),
        row("int", ok("i32", BigInteger.valueOf(7), 7)),
        row("int", ok("u32", 4_000_000_000L, 4_000_000_000L)),
        row("int", ok("u64", new BigInteger("18446744073709551615"), -1L)), // uint64 as a Long's 64 bits
        row("int", ok("u64", -1L, -1L)),
        row("int", no("i32", 1.0, Status.TYPE, "expected int32, got a float")),
        row("int", no("i32", "5", Status.TYPE, "expected int32, got a string")),
        row("int", no("u8", 300, Status.RANGE, "value 300 does not fit uint8")),
        row("int", no("u32", -1, Status.RANGE, "value -1 does not fit uint32")),
        row("int", no("u64", -1, Status.RANGE, "value -1 does not fit uint64")), // only a Long is a pattern
        row("int", no("u64", BigInteger.ONE.shiftLeft(64), Status.RANGE,
            "value 18446744073709551616 does not fit uint64")),
        row("char", ok("c", "a", 'a')),
        row("char", ok("c", 97, 'a')),
        row("char", ok("c", '\u00e9', '\u00e9')),
        row("char", ok("wc", "\uD83D\uDE00", 0x1F600)),
        row("char", no("c", "ab", Status.ARGUMENT, "'ab' is not one character")),
        row("char", no("c", "", Status.ARGUMENT, "'' is not one character")),
        row("char", no("c", 256, Status.RANGE, "value 256 does not fit char")),
        row("char", no("c", "\u0444", Status.RANGE, "value 1092 does not fit char")),
        row("char", no("wc", -1L, Status.RANGE, "value -1 does not fit wchar")),
        row("float", ok("f", 1.5, 1.5f)),
        row("float", ok("f", Double.NaN, Float.NaN)),
        row("float", ok("f", Double.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY)),
        row("float", ok("d", 2, 2.0)),
        row("float", ok("d", 1.5f, 1.5)),
        row("float", no("f", 1e300, Status.RANGE, "value 1e+300 does not fit float")),
        row("float", no("d", "1.5", Status.TYPE, "expected double, got a string")),
        row("decimal", ok("dec", new BigDecimal("123.45"), new BigDecimal("123.45"))),
        row("decimal", ok("dec", 7, new BigDecimal(7))),
        row("decimal", ok("dec", "-123.4500", new BigDecimal("-123.4500"))),
        row("decimal", ok("dec", "1E-7", new BigDecimal("1E-7"))),
        row("decimal", no("dec", 1.1, Status.TYPE, "expected decimal, got a float (" + FLOATS + ")")),
        row("decimal", no("dec", 1.5f, Status.TYPE, "expected decimal, got a float (" + FLOATS + ")")),
        row("decimal", no("dec", "abc", Status.ARGUMENT, "'abc' is not a decimal number")),
        row("decimal", no("dec", "79228162514264337593543950336", Status.RANGE,
            "decimal 79228162514264337593543950336 does not fit FBE's decimal (96-bit coefficient, scale 0..28)")),
        row("decimal", atEncode("dec", new BigDecimal("1E-40"), Status.RANGE,
            "decimal 1E-40 does not fit FBE's decimal (96-bit coefficient, scale 0..28)")),
        row("timestamp", ok("ts", 1543145597933000000L, 1543145597933000000L)),
        row("timestamp", ok("ts", 5, 5L)),
        row("timestamp", ok("ts", Instant.ofEpochSecond(1, 5), 1_000_000_005L)),
        row("timestamp", no("ts", 1.5, Status.TYPE,
            "expected timestamp, got a float (pass integer nanoseconds or a time)")),
        row("timestamp", no("ts", Instant.ofEpochSecond(-1), Status.RANGE, "value -1000000000 does not fit timestamp")),
        row("timestamp", no("ts", -1, Status.RANGE, "value -1 does not fit timestamp")),
        row("uuid", ok("id", U, U)),
        row("uuid", ok("id", "123E4567-E89B-12D3-A456-426655440000", U)),
        row("uuid", no("id", "xyz", Status.ARGUMENT, "'xyz' is not a uuid (8-4-4-4-12 hexadecimal digits)")),
        row("uuid", no("id", "1-2-3-4-5", Status.ARGUMENT, // java.util.UUID.fromString would take it
            "'1-2-3-4-5' is not a uuid (8-4-4-4-12 hexadecimal digits)")),
        row("uuid", no("id", 5, Status.TYPE, "expected uuid, got an integer")),
        row("string", ok("s", "h\u00e9llo \uD83D\uDE00", "h\u00e9llo \uD83D\uDE00")),
        row("string", no("s", new byte[] {1}, Status.TYPE, "expected string, got bytes")),
        row("string", no("s", 'x', Status.TYPE, "expected string, got a java.lang.Character")),
        row("string", atEncode("s", "\uD800", Status.ARGUMENT,
            "string is not valid UTF-8: a UTF-16 surrogate (U+D800) at byte 0 of 3")),
        row("bytes", ok("bin", new byte[] {0, 1, (byte) 255}, new byte[] {0, 1, (byte) 255})),
        row("bytes", no("bin", "abc", Status.TYPE, "expected bytes, got a string")),
        row("enum", ok("side", "sell", enumOf("Side", 1))),
        row("enum", ok("side", 1, enumOf("Side", 1))),
        row("enum", ok("side", 7, enumOf("Side", 7))), // a number the schema does not name
        row("enum", ok("side", enumOf("Side", 0), enumOf("Side", 0))),
        row("enum", no("side", enumOf("Other", 0), Status.TYPE, "expected input.Side, got an enum input.Other")),
        row("enum", no("side", "sideways", Status.ARGUMENT, "'sideways' is not a value of input.Side")),
        row("enum", no("side", 300, Status.RANGE, "value 300 does not fit byte")),
        row("enum", no("side", 1.0, Status.TYPE, "expected input.Side, got a float")),
        row("flags", ok("state", "initialized|calculated", enumOf("State", 6))),
        row("flags", ok("state", "good|64", enumOf("State", 70))),
        row("flags", ok("state", 6, enumOf("State", 6))),
        row("flags", ok("state", enumOf("State", 4), enumOf("State", 4))),
        row("flags", no("state", "bad", Status.ARGUMENT, "'bad' is not a value of input.State")),
        row("optional", ok("opt", null, null)),
        row("optional", ok("opt", 5, 5)),
        row("optional", no("opt", "x", Status.TYPE, "expected int32 or null, got a string")),
        row("optional", no("op", 5, Status.TYPE, "expected input.Point or null, got an integer")),
        row("array", ok("arr", List.of(1, 2, 3), List.of(1, 2, 3))),
        row("array", ok("arr", new Object[] {1, 2, 3}, List.of(1, 2, 3))),
        row("array", no("arr", List.of(1, 2), Status.RANGE, "expected 3 elements for array[3] of int32, got 2")),
        row("array", no("arr", 5, Status.TYPE, "expected array[3] of int32, got an integer")),
        row("sequence", ok("vec", List.of(1, 2), List.of(1, 2))),
        row("sequence", ok("vec", List.of(), List.of())),
        row("sequence", no("vec", Map.of(), Status.TYPE, "expected vector of int32, got a map")),
        row("sequence", no("vec", Set.of(1), Status.TYPE, "expected vector of int32, got a set")),
        row("sequence", no("vec", List.of(1, "x"), Status.TYPE, "expected int32, got a string", "vec[1]")),
        row("set", ok("set", List.of(3, 1), new LinkedHashSet<>(List.of(3, 1)))),
        row("set", ok("set", new LinkedHashSet<>(List.of(2, 5)), new LinkedHashSet<>(List.of(2, 5)))),
        row("set", ok("set", List.of(1, 2, 1), new LinkedHashSet<>(List.of(1, 2)))), // duplicates collapse
        row("set", no("set", "x", Status.TYPE, "expected set of int32, got a string")),
        row("map", ok("m", Map.of("k", 1), Map.of("k", 1))),
        row("map", no("m", 5, Status.TYPE, "expected map of string to int32, got an integer")),
        row("map", no("m", Map.of(1, 1), Status.TYPE, "expected string, got an integer", "m[0][key]")),
        row("map", no("m", Map.of("k", "v"), Status.TYPE, "expected int32, got a string", "m[0]")),
        row("struct", ok("p", Map.of("x", 1), (Function<Schema, Object>) s -> s.struct("Point").newMessage().set("x", 1))),
        row("struct", ok("p", (Function<Schema, Object>) s -> s.struct("Point").newMessage().set("y", 2),
            (Function<Schema, Object>) s -> s.struct("Point").newMessage().set("y", 2))),
        row("struct", no("p", (Function<Schema, Object>) s -> s.struct("Elsewhere").newMessage(), Status.TYPE,
            "expected input.Point, got a struct input.Elsewhere")),
        row("struct", no("p", Map.of("xx", 1), Status.UNKNOWN_FIELD, "unknown field 'xx' of input.Point")),
        row("struct", no("p", Map.of("labl", "a"), Status.UNKNOWN_FIELD,
            "unknown field 'labl' of input.Point (did you mean 'label'?)")),
        row("struct", no("p", Map.of("y", "1"), Status.TYPE, "expected int32, got a string", "p.y")),
        row("null", no("i32", null, Status.TYPE, "expected int32, got null")),
        row("null", no("s", null, Status.TYPE, "expected string, got null")),
        row("null", no("p", null, Status.TYPE, "expected input.Point, got null")),
        row("null", no("vec", null, Status.TYPE, "expected vector of int32, got null")));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("rows")
  void eachRowOfTheInputTable(String id, Case c) {
    StructType all = schema.struct("All");
    Object given = made(c.given);
    if (c.status == null) {
      Object want = made(c.want);
      Message set = all.newMessage().set(c.field, given);
      holds(want, set.get(c.field), "set");
      Message fromMap = all.fromMap(singleton(c.field, given));
      holds(want, fromMap.get(c.field), "fromMap");
      Message byHand = poked(all, c.field, given); // encode converts what set would
      holds(want, all.decode(byHand.encode()).get(c.field), "encode");
      assertEquals(set, all.decode(byHand.encode()), "encode");
      return;
    }
    if (c.atEncode) { // set keeps the host value; encode (and so toJson, toString) refuses it
      Message m = all.newMessage().set(c.field, given);
      refused(c, () -> m.encode());
      refused(c, () -> m.toJson());
      assertEquals("All(<invalid: " + c.reason + " at '" + c.path + "'>)", m.toString());
      return;
    }
    refused(c, () -> all.newMessage().set(c.field, given));
    refused(c, () -> all.fromMap(singleton(c.field, given)));
    refused(c, () -> poked(all, c.field, given).encode());
    Message m = poked(all, c.field, given); // printing never throws: the error is the text
    assertEquals("All(<invalid: " + c.reason + " at '" + c.path + "'>)", m.toString());
  }

  static void refused(Case c, org.junit.jupiter.api.function.Executable call) {
    FbeException e = assertThrows(FbeException.class, call, c.toString());
    assertEquals(c.status, e.status(), e.getMessage());
    assertEquals(c.reason, e.reason(), e.getMessage());
    assertEquals(c.path, e.path(), e.getMessage());
    assertEquals(c.reason + " at '" + c.path + "'", e.getMessage()); // the core's fbe_error_format
    assertTrue(e.status().is(c.status));
  }

  /** A message with `value` put into the field past set(), as a list returned by a getter can be changed. */
  static Message poked(StructType st, String field, Object value) {
    Message m = st.newMessage();
    m.values()[st.field(field).index()] = value;
    return m;
  }

  static Map<String, Object> singleton(String k, Object v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(k, v);
    return m;
  }

  @SuppressWarnings("unchecked")
  static Object made(Object v) {
    return v instanceof Function ? ((Function<Schema, Object>) v).apply(schema) : v;
  }

  /** Equal and of the same class; byte[] by content, sets and maps in their order too. */
  static void holds(Object want, Object got, String how) {
    String where = how + ": " + show(got);
    if (want == null || got == null) {
      assertEquals(want, got, where);
      return;
    }
    assertEquals(want.getClass() == NegativeZero.class ? BigDecimal.class : orderFree(want.getClass()),
        orderFree(got.getClass()), where);
    if (want instanceof byte[]) assertTrue(Arrays.equals((byte[]) want, (byte[]) got), where);
    else if (want instanceof Set || want instanceof Map)
      assertEquals(new ArrayList<>(items(want)), new ArrayList<>(items(got)), where);
    else if (want instanceof Float || want instanceof Double) assertEquals(want, got, where); // NaN == NaN
    else assertEquals(want, got, where);
  }

  private static Class<?> orderFree(Class<?> c) {
    if (Set.class.isAssignableFrom(c)) return Set.class;
    if (Map.class.isAssignableFrom(c)) return Map.class;
    if (List.class.isAssignableFrom(c)) return List.class;
    return c;
  }

  private static java.util.Collection<?> items(Object v) {
    return v instanceof Map ? ((Map<?, ?>) v).entrySet() : (Set<?>) v;
  }

  static String show(Object v) {
    if (v instanceof byte[]) return Arrays.toString((byte[]) v);
    if (v instanceof Object[]) return Arrays.toString((Object[]) v);
    if (v instanceof Function) return "(made from the schema)";
    return String.valueOf(v);
  }
}

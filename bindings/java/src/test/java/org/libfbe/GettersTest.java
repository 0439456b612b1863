package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The typed getters' fast paths (the value returned as it is when it holds the getter's
 * canonical class) against the general rule they skip (written out here as it was before
 * them): for every field of a struct with every kind, in a message of defaults, a decoded
 * one and one set by hand (a 64-bit flags value past int, nulls), every getter gives the
 * same value or throws the same error (status, text, path).
 */
class GettersTest {
  static Schema test;

  @BeforeAll
  static void load() {
    test = Fixtures.test();
  }

  @AfterAll
  static void close() {
    test.close();
  }

  // ---- the general rule, as Message had it before the fast paths

  static Object as(Message m, String field, Class<?> cls) {
    Object v = m.get(field);
    if (v == null || cls.isInstance(v)) return cls.cast(v);
    throw new FbeException(Status.TYPE, "field holds " + v.getClass().getSimpleName()
        + ", not " + cls.getSimpleName(), field, -1, List.of());
  }

  static Number number(Message m, String field) {
    Object v = m.get(field);
    if (v instanceof Number) return (Number) v;
    if (v instanceof Character) return (int) (Character) v;
    if (v instanceof EnumValue) return ((EnumValue) v).value();
    throw new FbeException(Status.TYPE, "field is not a number", field, -1, List.of());
  }

  static Object refInt(Message m, String field) {
    Number n = number(m, field);
    long x = n.longValue();
    if (n instanceof Double || n instanceof Float || n instanceof BigDecimal || x != (int) x)
      throw new FbeException(Status.RANGE, "value " + n + " is not an int", field, -1, List.of());
    return (int) x;
  }

  static Object refLong(Message m, String field) {
    Number n = number(m, field);
    if (n instanceof Double || n instanceof Float || n instanceof BigDecimal)
      throw new FbeException(Status.TYPE, "value " + n + " is not an integer", field, -1, List.of());
    return n.longValue();
  }

  /** What a call gives: its value (boxed; a byte[] as a list), or its error's status, text and path. */
  static Object outcome(BiFunction<Message, String, Object> call, Message m, String field) {
    try {
      Object v = call.apply(m, field);
      return v instanceof byte[] ? Arrays.toString((byte[]) v) : v;
    } catch (FbeException e) {
      return List.of("error", e.status(), e.getMessage(), String.valueOf(e.path()));
    } catch (RuntimeException e) {
      return List.of("exception", e.getClass().getName());
    }
  }

  static final Map<String, BiFunction<Message, String, Object>> FAST = Map.ofEntries(
      Map.entry("int", Message::getInt), Map.entry("long", Message::getLong),
      Map.entry("double", Message::getDouble), Map.entry("float", Message::getFloat),
      Map.entry("boolean", Message::getBoolean), Map.entry("char", Message::getChar),
      Map.entry("string", Message::getString), Map.entry("bytes", Message::getBytes),
      Map.entry("decimal", Message::getDecimal), Map.entry("uuid", Message::getUuid),
      Map.entry("enum", Message::getEnum), Map.entry("message", Message::getMessage),
      Map.entry("list", Message::getList), Map.entry("set", Message::getSet),
      Map.entry("map", Message::getMap));

  static final Map<String, BiFunction<Message, String, Object>> REF = Map.ofEntries(
      Map.entry("int", GettersTest::refInt), Map.entry("long", GettersTest::refLong),
      Map.entry("double", (m, f) -> number(m, f).doubleValue()),
      Map.entry("float", (m, f) -> (float) (Float) as(m, f, Float.class)),
      Map.entry("boolean", (m, f) -> (boolean) (Boolean) as(m, f, Boolean.class)),
      Map.entry("char", (m, f) -> (char) (Character) as(m, f, Character.class)),
      Map.entry("string", (m, f) -> as(m, f, String.class)),
      Map.entry("bytes", (m, f) -> as(m, f, byte[].class)),
      Map.entry("decimal", (m, f) -> as(m, f, BigDecimal.class)),
      Map.entry("uuid", (m, f) -> as(m, f, UUID.class)),
      Map.entry("enum", (m, f) -> as(m, f, EnumValue.class)),
      Map.entry("message", (m, f) -> as(m, f, Message.class)),
      Map.entry("list", (m, f) -> as(m, f, List.class)),
      Map.entry("set", (m, f) -> as(m, f, Set.class)),
      Map.entry("map", (m, f) -> as(m, f, Map.class)));

  static int compare(Message m) {
    int checked = 0;
    List<String> names = new ArrayList<>();
    for (Field f : m.type().fields()) names.add(f.name());
    names.add("no_such_field");
    for (String field : names) {
      // a name not the schema's own String object: the lookup by content, not identity
      String name = new String(field.toCharArray());
      for (String g : FAST.keySet()) {
        Object want = outcome(REF.get(g), m, name), got = outcome(FAST.get(g), m, name);
        assertEquals(want, got, g + " getter of " + field);
        checked++;
      }
    }
    return checked;
  }

  @Test
  void fastPathsGiveWhatTheGeneralRuleGives() {
    StructType st = test.struct("StructNested");
    Message defaults = st.newMessage();
    Message decoded = st.decode(defaults.encode(Model.FINAL), Model.FINAL);
    Message set = st.newMessage();
    EnumType flags = st.field("f1006").type().enumType();
    set.set("f1006", flags.of(1L << 40)); // past an int: getInt's RANGE
    set.set("f1007", flags.of(0x04)); // an optional's value, in range
    set.set("f17", -5);
    set.set("f21", 1L << 33); // a long past an int
    set.set("f9", (byte) -3);
    set.set("f100", null);
    int checked = compare(defaults) + compare(decoded) + compare(set);
    assertTrue(checked > 3 * 15 * 100, "checked " + checked);
    // the fast paths' own values, spot-checked
    assertEquals(1L << 40, set.getLong("f1006"));
    assertEquals(0x04, set.getInt("f1007"));
    assertEquals(-5L, set.getLong("f17"));
    assertEquals(-5.0, set.getDouble("f17"));
    assertEquals(1L << 33, set.getLong("f21"));
  }

  /**
   * Decoded collections: the element kinds that have a loop of their own (int64, uint64,
   * timestamp, uint32, int32, uint16, wchar, double, string, struct) and one that takes
   * the general way (int16), in vectors, lists and arrays: each element in its kind's
   * canonical class with its value, as set() gives it.
   */
  @Test
  void decodedCollectionsHoldCanonicalValues() {
    String text = "package colls\n"
        + "struct P { int32 x; string s; }\n"
        + "struct C { int64[] a; uint64[] b; timestamp[] c; uint32[] d; int32[] e; uint16[] f; wchar[] g;"
        + " double[] h; string[] i; P[] j; int16[] k; int64[3] l; string[2] m; int32() n; }\n";
    try (Schema sc = Fbe.loadString(text, "colls.fbe", List.of())) {
      StructType c = sc.struct("C"), p = sc.struct("P");
      Message m = c.newMessage();
      m.set("a", List.of(1L, -2L, Long.MIN_VALUE));
      m.set("b", List.of(-1L, 5L)); // uint64 max: its 64 bits
      m.set("c", List.of(1_700_000_000_000_000_000L));
      m.set("d", List.of(0xFFFFFFFFL, 0L));
      m.set("e", List.of(Integer.MIN_VALUE, 7));
      m.set("f", List.of(65535, 0));
      m.set("g", List.of(0x1F600, 65));
      m.set("h", List.of(-0.0, Double.NaN, 1.5));
      m.set("i", List.of("", "h\u00e9llo", "\uD83D\uDE00"));
      m.set("j", List.of(p.newMessage().set("x", 3).set("s", "a"), p.newMessage()));
      m.set("k", List.of((short) -3, (short) 4));
      m.set("l", List.of(9L, 8L, 7L));
      m.set("m", List.of("x", "y"));
      m.set("n", List.of(1, 2, 3));
      for (Model model : Model.values()) {
        Message d = c.decode(m.encode(model), model);
        for (Field f : c.fields()) {
          List<?> want = m.getList(f.name()), got = d.getList(f.name());
          assertEquals(want.size(), got.size(), f.name());
          for (int k = 0; k < want.size(); k++) {
            Object w = want.get(k), g = got.get(k);
            assertEquals(w.getClass(), g.getClass(), f.name() + "[" + k + "]");
            if (w instanceof Double) assertEquals(Double.doubleToRawLongBits((Double) w), Double.doubleToRawLongBits((Double) g));
            else assertEquals(w, g, f.name() + "[" + k + "]");
          }
        }
        assertEquals(m, d);
        assertEquals(m.toString(), d.toString());
        assertEquals(m.toMap().toString(), d.toMap().toString());
      }
    }
  }
}

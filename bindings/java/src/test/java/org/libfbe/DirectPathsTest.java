package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The direct paths against the general ones they skip, on every conformance record (the
 * public vectors and the regression directories) in both models:
 * <ul>
 *   <li>encode straight from the tape (the core's fbei_tape_encode) and the final model
 *       written in Java (FinalWriter) give the bytes of the general way (the tape read
 *       into the core's value, then fbe_encode), for a message as decode leaves it and
 *       for one made of Java values; and where the general way refuses a value, the
 *       direct ones refuse it with the same status, text and path;
 *   <li>a final model decoded by the core's verify and read in Java (FinalReader) gives
 *       the values of the core's decode (every field, deep, in the same classes, floats
 *       by their bits), and the same error (status, text, path, offset) for every
 *       prefix of the bytes and every byte changed.
 * </ul>
 */
class DirectPathsTest {
  static final Map<String, Schema> SCHEMAS = new HashMap<>();

  @AfterAll
  static void close() {
    for (Schema s : SCHEMAS.values()) s.close();
    SCHEMAS.clear();
  }

  /** A record's schema: a package of schemas/, or of its regression directory. */
  static Schema schema(String pkg, Path dir) {
    String key = dir + ":" + pkg;
    return SCHEMAS.computeIfAbsent(key, k -> Fbe.loadPackage(pkg, dir == null
        ? List.of(Fixtures.schemas()) : List.of(dir, Fixtures.schemas())));
  }

  /** {record, its directory (null: schemas/)} of the vectors and every regression directory. */
  static List<Object[]> records() throws IOException {
    List<Object[]> out = new ArrayList<>();
    for (Map<String, Object> r : Fixtures.records("vectors.jsonl"))
      if (!String.valueOf(r.get("format")).startsWith("stream")) out.add(new Object[] {r, null});
    List<Path> dirs;
    try (Stream<Path> s = Files.list(Fixtures.root().resolve("tests/regressions/differential"))) {
      dirs = s.filter(d -> Files.isRegularFile(d.resolve("record.jsonl"))).sorted().toList();
    }
    for (Path d : dirs)
      for (String line : Files.readAllLines(d.resolve("record.jsonl"))) {
        if (line.isBlank()) continue;
        @SuppressWarnings("unchecked")
        Map<String, Object> r = (Map<String, Object>) Json.parse(line);
        if (r.containsKey("hex") && r.containsKey("schema") && !String.valueOf(r.get("format")).startsWith("stream"))
          out.add(new Object[] {r, d});
      }
    return out;
  }

  /** What a call gives: its value, or its error's status, text and path. */
  static Object outcome(Supplier<Object> call) {
    try {
      Object v = call.get();
      return v instanceof byte[] ? HexFormat.of().formatHex((byte[]) v) : v;
    } catch (FbeException e) {
      return List.of("error", e.status(), e.getMessage(), String.valueOf(e.path()));
    }
  }

  /** encode's outcome: the general way (false), the direct ways (true: in Java for the final model, else in C). */
  static Object encodeWay(Message m, Model model, boolean direct) {
    return encodeWay(m, model, direct, true);
  }

  static Object encodeWay(Message m, Model model, boolean direct, boolean java) {
    boolean was = Message.directEncode, wasJava = Message.javaEncode;
    Message.directEncode = direct;
    Message.javaEncode = java;
    try {
      return outcome(() -> m.encode(model));
    } finally {
      Message.directEncode = was;
      Message.javaEncode = wasJava;
    }
  }

  /** The general way, the core's straight walk and (final model) the Java writer: the same outcome. */
  static void sameEncode(Message m, String what) {
    for (Model model : Model.values()) {
      Object general = encodeWay(m, model, false);
      assertEquals(general, encodeWay(m, model, true, false), what + " (" + model + ", the core's straight walk)");
      assertEquals(general, encodeWay(m, model, true, true), what + " (" + model + ", in Java)");
    }
  }

  /** A value, deep, with every class named (floats by their bits, bytes as hex). */
  static String deep(Object v) {
    StringBuilder b = new StringBuilder();
    deep(v, b);
    return b.toString();
  }

  static void deep(Object v, StringBuilder b) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Message) {
      Message m = (Message) v;
      b.append(m.type().fullName()).append('(');
      for (int i = 0, n = m.type().fields().size(); i < n; i++) {
        if (i > 0) b.append(',');
        deep(m.get(i), b);
      }
      b.append(')');
    } else if (v instanceof java.util.Collection) {
      b.append(v.getClass().getSimpleName()).append('[');
      for (Object x : (java.util.Collection<?>) v) {
        deep(x, b);
        b.append(',');
      }
      b.append(']');
    } else if (v instanceof Map) {
      b.append(v.getClass().getSimpleName()).append('{');
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        deep(e.getKey(), b);
        b.append('=');
        deep(e.getValue(), b);
        b.append(',');
      }
      b.append('}');
    } else if (v instanceof byte[]) {
      b.append("bytes:").append(HexFormat.of().formatHex((byte[]) v));
    } else if (v instanceof Double) {
      b.append("Double:").append(Long.toHexString(Double.doubleToRawLongBits((Double) v)));
    } else if (v instanceof Float) {
      b.append("Float:").append(Integer.toHexString(Float.floatToRawIntBits((Float) v)));
    } else if (v instanceof EnumValue) {
      b.append("EnumValue:").append(((EnumValue) v).type().fullName()).append(':').append(((EnumValue) v).value());
    } else {
      b.append(v.getClass().getSimpleName()).append(':').append(v);
    }
  }

  /** decode's outcome, the direct way (a final model verified, then read in Java) or the core's decode alone. */
  static Object decodeWay(StructType t, byte[] bytes, int len, Model model, boolean direct) {
    return decodeWay(t, bytes, len, model, direct, false);
  }

  /** ... with text: the text form too (the core's, from the message as each way left it). */
  static Object decodeWay(StructType t, byte[] bytes, int len, Model model, boolean direct, boolean text) {
    boolean was = StructType.directDecode;
    StructType.directDecode = direct;
    try {
      Message m = t.decode(bytes, 0, len, model);
      return text ? deep(m) + " / " + m : deep(m);
    } catch (FbeException e) {
      return List.of("error", e.status(), e.getMessage(), String.valueOf(e.path()), e.offset());
    } finally {
      StructType.directDecode = was;
    }
  }

  @Test
  void finalModelReadInJavaGivesTheCoresDecode() throws IOException {
    int values = 0, checked = 0, javaRead = 0;
    for (Object[] rd : records()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> r = (Map<String, Object>) rd[0];
      Schema s = schema((String) r.get("schema"), (Path) rd[1]);
      StructType t = s.struct((String) r.get("type"));
      Model model = "final".equals(r.get("format")) ? Model.FINAL : Model.STANDARD;
      byte[] bytes = HexFormat.of().parseHex((String) r.get("hex"));
      if (model == Model.STANDARD) { // the same value in the final model, as the core writes it
        try {
          bytes = t.decodeTrusted(bytes, model).encode(Model.FINAL);
        } catch (FbeException e) {
          continue;
        }
      }
      String id = (String) r.get("id");
      if (FinalReader.readable(t)) javaRead++;
      Object want = decodeWay(t, bytes, bytes.length, Model.FINAL, false, true);
      assertEquals(want, decodeWay(t, bytes, bytes.length, Model.FINAL, true, true), id);
      if (!(want instanceof List)) values++;
      // prefixes and changed bytes: each of the first 128 bytes (three changes each), then every 16th
      for (int k = 0; k < bytes.length; k += k < 128 ? 1 : 16, checked++)
        assertEquals(decodeWay(t, bytes, k, Model.FINAL, false), decodeWay(t, bytes, k, Model.FINAL, true), id + " prefix " + k);
      for (int k = 0; k < bytes.length; k += k < 128 ? 1 : 16) {
        byte was = bytes[k];
        for (int x : new int[] {was + 1, 0xFF, 0x80}) {
          bytes[k] = (byte) x;
          assertEquals(decodeWay(t, bytes, bytes.length, Model.FINAL, false),
              decodeWay(t, bytes, bytes.length, Model.FINAL, true), id + " byte " + k + " = " + x);
          checked++;
        }
        bytes[k] = was;
      }
    }
    assertTrue(values > 80 && javaRead > 50 && checked > 10_000, values + " values (" + javaRead + " read in Java), " + checked + " changed");
  }

  @Test
  void encodeStraightFromTheTapeGivesTheGeneralBytes() throws IOException {
    int checked = 0;
    for (Object[] rd : records()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> r = (Map<String, Object>) rd[0];
      Schema s = schema((String) r.get("schema"), (Path) rd[1]);
      StructType t = s.struct((String) r.get("type"));
      Model model = "final".equals(r.get("format")) ? Model.FINAL : Model.STANDARD;
      byte[] bytes = HexFormat.of().parseHex((String) r.get("hex"));
      String id = (String) r.get("id");
      Message saved = t.decodeTrusted(bytes, model); // as decode leaves it: its tape
      sameEncode(saved, id + ", as decoded");
      Message values = t.decodeTrusted(bytes, model);
      values.toMap(); // (made into Java values)
      sameEncode(values, id + ", as Java values");
      if (!Boolean.TRUE.equals(r.get("decode_only")) && !r.containsKey("json_form"))
        assertEquals(r.get("hex"), encodeWay(values, model, true), id + ": the record's bytes");
      checked++;
    }
    assertTrue(checked > 90, "checked " + checked);
  }

  @Test
  void encodeRefusesWhatTheGeneralWayRefuses() {
    Schema s = Fixtures.test();
    try {
      StructType simple = s.struct("StructSimple");
      // a lone surrogate goes on the tape as its 3 bytes: the core's UTF-8 rule refuses it
      for (String f : List.of("f31", "f32")) {
        Message m = simple.newMessage();
        m.set(f, "ok\uD800");
        sameEncode(m, f);
        Object got = encodeWay(m, Model.STANDARD, true);
        assertTrue(got instanceof List && ((List<?>) got).get(1) == Status.ARGUMENT, f + ": " + got);
      }
      // deeper than the core's 256 levels of optionals and collections
      try (Schema deep = Fbe.loadString("package deep\nstruct D { D? next; D[] more; }\n", "deep.fbe", List.of())) {
        StructType d = deep.struct("D");
        for (int depth : List.of(255, 256, 257, 300)) {
          Message m = d.newMessage();
          for (int i = 0; i < depth; i++) m = d.newMessage().set(i % 2 == 0 ? "next" : "more", i % 2 == 0 ? m : List.of(m));
          sameEncode(m, "depth " + depth);
        }
      }
    } finally {
      s.close();
    }
  }

  /**
   * A struct FinalReader reads reaches none it does not, through cycles too (A reaches
   * B's map through B?, so A, B and C are the core's decode; D and E are read in Java),
   * and decode and encode of each agree with the general ways on values made here.
   */
  @Test
  void whatIsReadInJavaIsDecidedThroughCycles() {
    String text = "package cyc\nstruct A { B? b; int32 x; }\nstruct B { A[] a; int32<int32> m; }\n"
        + "struct C { A a; }\nstruct D { D? d; E[] e; }\nstruct E { E? e; string s; }\n";
    try (Schema s = Fbe.loadString(text, "cyc.fbe", List.of())) {
      // asked first from the struct that reaches the map only through the cycle
      assertTrue(!FinalReader.readable(s.struct("C")));
      assertTrue(!FinalReader.readable(s.struct("A")) && !FinalReader.readable(s.struct("B")));
      assertTrue(FinalReader.readable(s.struct("D")) && FinalReader.readable(s.struct("E")));
      StructType a = s.struct("A"), b = s.struct("B"), c = s.struct("C"), d = s.struct("D"), e = s.struct("E");
      Message inner = a.newMessage().set("x", 7);
      Message mb = b.newMessage().set("a", List.of(inner)).set("m", Map.of(1, 2));
      Message ma = a.newMessage().set("b", mb).set("x", 3);
      Message md = d.newMessage().set("d", d.newMessage()).set("e", List.of(e.newMessage().set("s", "x").set("e", e.newMessage())));
      for (Message m : List.of(ma, mb, c.newMessage().set("a", ma), md)) {
        sameEncode(m, m.type().name());
        byte[] fin = m.encode(Model.FINAL);
        assertEquals(decodeWay(m.type(), fin, fin.length, Model.FINAL, false, true),
            decodeWay(m.type(), fin, fin.length, Model.FINAL, true, true), m.type().name());
      }
    }
  }

  @Test
  void encodeOfEveryKindMatches() {
    Schema s = Fixtures.test();
    try {
      for (StructType t : s.structs()) {
        Message m = t.newMessage();
        sameEncode(m, t.fullName() + " defaults");
        Message back = t.decode(m.encode(Model.FINAL), Model.FINAL);
        back.toMap();
        sameEncode(back, t.fullName() + " decoded");
      }
      byte[] big = new byte[70_000]; // larger than the room the first tape has
      big[5] = 7;
      Message m = s.struct("StructBytes").newMessage().set("f1", big);
      sameEncode(m, "70 KB of bytes");
      assertArrayEquals((byte[]) s.struct("StructBytes").decode(m.encode()).get("f1"), big);
    } finally {
      s.close();
    }
  }
}

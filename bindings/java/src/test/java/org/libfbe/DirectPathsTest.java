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
 *   <li>encode straight from the tape (the core's fbei_tape_encode) gives the bytes of
 *       the general way (the tape read into the core's value, then fbe_encode), for a
 *       message as decode leaves it and for one made of Java values; and where the
 *       general way refuses a value, the direct one refuses it with the same status,
 *       text and path.
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

  static Object encodeWay(Message m, Model model, boolean direct) {
    boolean was = Message.directEncode;
    Message.directEncode = direct;
    try {
      return outcome(() -> m.encode(model));
    } finally {
      Message.directEncode = was;
    }
  }

  static void sameEncode(Message m, String what) {
    for (Model model : Model.values())
      assertEquals(encodeWay(m, model, false), encodeWay(m, model, true), what + " (" + model + ")");
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

package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ApiTest {
  static Schema proto;
  static Schema test;

  // The reference's bytes of the README Account (vectors.jsonl, pub-proto-Account-readme-*).
  static String readmeHex(String format) throws Exception {
    for (Map<String, Object> r : Fixtures.records("vectors.jsonl")) {
      if (("pub-proto-Account-readme-" + format).equals(r.get("id"))) return (String) r.get("hex");
    }
    throw new AssertionError("no README Account vector");
  }

  @BeforeAll
  static void load() {
    proto = Fixtures.proto();
    test = Fixtures.test();
  }

  @AfterAll
  static void close() {
    proto.close();
    test.close();
  }

  // The testee (ConformanceTest) encodes from JSON: this is the decoded Message encoded
  // back, for every standard/final vector.
  @Test
  void everyVectorDecodesAndEncodesBack() throws Exception {
    Map<String, Schema> schemas = new java.util.HashMap<>();
    int checked = 0;
    try {
      for (Map<String, Object> r : Fixtures.records("vectors.jsonl")) {
        Model model = "final".equals(r.get("format")) ? Model.FINAL : "standard".equals(r.get("format")) ? Model.STANDARD : null;
        if (model == null || Boolean.TRUE.equals(r.get("decode_only"))) continue;
        StructType t = schemas.computeIfAbsent((String) r.get("schema"), p -> Fbe.loadPackage(p, List.of(Fixtures.schemas())))
            .struct((String) r.get("type"));
        byte[] data = HexFormat.of().parseHex((String) r.get("hex"));
        assertArrayEquals(data, t.decode(data, model).encode(model), (String) r.get("id"));
        checked++;
      }
    } finally {
      schemas.values().forEach(Schema::close);
    }
    assertTrue(checked > 0);
  }

  @Test
  void readmeExample() throws Exception {
    StructType account = proto.struct("Account");
    Message acc = account.newMessage()
        .set("id", 1).set("name", "Test")
        .set("wallet", proto.struct("Balance").newMessage().set("currency", "USD").set("amount", 1000.0));
    byte[] bytes = acc.encode();
    Message back = account.decode(bytes);
    assertEquals(1, back.getInt("id"));
    assertEquals("Test", back.getString("name"));
    assertEquals(1000.0, back.getMessage("wallet").getDouble("amount"));
    assertEquals(bytes.length, account.verify(bytes));
    assertEquals(acc, back);
    assertEquals(acc, account.fromJson(back.toJson()));
    Map<String, Object> asMap = back.toMap();
    assertArrayEquals(bytes, account.encode(asMap));
    assertEquals(acc, account.decode(ByteBuffer.wrap(bytes)));
  }

  @Test
  void readmeAccountBytesMatchTheReference() throws Exception {
    Message acc = Fixtures.account(proto);
    assertEquals(readmeHex("standard"), HexFormat.of().formatHex(acc.encode()));
    assertEquals(readmeHex("final"), HexFormat.of().formatHex(acc.encode(Model.FINAL)));
    Message back = proto.struct("Account").decode(acc.encode(Model.FINAL), Model.FINAL);
    assertEquals(acc, back);
    assertEquals(3, back.<Message>getList("orders").size());
    assertEquals("sell", back.<Message>getList("orders").get(1).getEnum("side").name());
  }

  @Test
  void defaultsAndTypedGetters() {
    long t0 = System.currentTimeMillis() * 1_000_000L; // the clock's millisecond, floored, before
    Message s = test.struct("StructSimple").newMessage();
    long utc = s.getLong("f35");
    long t1 = (System.currentTimeMillis() + 1) * 1_000_000L; // the end of its millisecond, after
    assertTrue(s.getBoolean("f2"));
    assertEquals((short) 255, s.get("f4"));
    assertEquals('!', s.getChar("f6"));
    assertEquals(0x0444, s.getInt("f8"));
    assertEquals((byte) 127, s.get("f10"));
    assertEquals(Integer.MAX_VALUE, s.getInt("f18"));
    assertEquals(0xFFFFFFFFL, s.getLong("f20"));
    assertEquals(Long.MAX_VALUE, s.getLong("f22"));
    assertEquals(-1L, s.getLong("f24")); // uint64 max: the 64 bits
    assertEquals("18446744073709551615", Long.toUnsignedString(s.getLong("f24")));
    assertEquals(123.456f, s.getFloat("f26"));
    assertEquals(-123.456e+123, s.getDouble("f28"));
    assertEquals(0, new BigDecimal("123456.123456").compareTo(s.getDecimal("f30")));
    assertEquals("Initial string!", s.getString("f32"));
    assertEquals(0L, s.getLong("f34"));
    assertTrue(t0 <= utc && utc < t1, "utc default " + utc + " is now, in [" + t0 + ", " + t1 + ")");
    assertEquals(UUID.fromString("123e4567-e89b-12d3-a456-426655440000"), s.getUuid("f38"));
    assertEquals(1, s.getUuid("f37").version());
    assertEquals("StructSimple", s.type().name());
    assertEquals("test.StructSimple", s.type().fullName());
    assertTrue(s.toString().startsWith("StructSimple(id=0,f1=false,f2=true,"));
  }

  @Test
  void typeMappingRoundTrips() {
    StructType t = test.struct("StructSimple");
    UUID u = UUID.randomUUID();
    Message m = t.newMessage()
        .set("f3", 200).set("f5", 'x').set("f7", 0x1F600).set("f9", -128).set("f11", 255)
        .set("f13", -32768).set("f15", 65535).set("f17", Integer.MIN_VALUE).set("f19", 4_000_000_000L)
        .set("f21", Long.MIN_VALUE).set("f23", new BigInteger("18446744073709551615"))
        .set("f25", 1.5f).set("f27", Math.PI).set("f29", new BigDecimal("-79228162514264337593543950335"))
        .set("f31", "héllo 中 😀").set("f33", Instant.ofEpochSecond(1, 123456789)).set("f36", u);
    for (Model model : Model.values()) {
      Message back = t.decode(m.encode(model), model);
      assertEquals(m, back, model.toString());
      assertEquals((short) 200, back.get("f3"));
      assertEquals('x', back.getChar("f5"));
      assertEquals(0x1F600, back.getInt("f7"));
      assertEquals(4_000_000_000L, back.getLong("f19"));
      assertEquals(-1L, back.getLong("f23"));
      assertEquals(1_123_456_789L, back.getLong("f33"));
      assertEquals("héllo 中 😀", back.getString("f31"));
      assertEquals(u, back.getUuid("f36"));
      assertEquals(new BigDecimal("-79228162514264337593543950335"), back.getDecimal("f29"));
    }
    // JSON keeps 64-bit integers exact
    Message j = t.fromJson(m.toJson());
    assertEquals(m, j);
    assertTrue(m.toJson().contains("\"f23\":18446744073709551615"));
    assertTrue(m.toJson(true).contains("\n"));
  }

  @Test
  void decimalNegativeZeroKeepsItsSign() {
    StructType t = test.struct("StructSimple");
    Message m = t.newMessage().set("f29", "-0.00");
    assertEquals("-0.00", m.getDecimal("f29").toString());
    byte[] bytes = m.encode();
    Message back = t.decode(bytes);
    assertTrue(back.getDecimal("f29") instanceof NegativeZero);
    assertEquals("-0.00", back.getDecimal("f29").toString());
    assertArrayEquals(bytes, back.encode());
    assertEquals(0, back.getDecimal("f29").compareTo(BigDecimal.ZERO));
    assertEquals(NegativeZero.of(2), back.getDecimal("f29"));
  }

  @Test
  void bytesOptionalsAndCollections() {
    Message b = test.struct("StructBytes").newMessage().set("f1", new byte[] {1, 2, 3});
    assertNull(b.get("f2"));
    Message back = b.type().decode(b.encode());
    assertArrayEquals(new byte[] {1, 2, 3}, back.getBytes("f1"));
    assertNull(back.get("f2"));
    b.set("f2", new byte[0]);
    assertArrayEquals(new byte[0], b.type().decode(b.encode()).getBytes("f2"));

    StructType vec = test.struct("StructVector");
    EnumType en = test.enumType("EnumSimple");
    Message v = vec.newMessage().set("f1", List.of(1, 2, 255)).set("f5", List.of(en.of("ENUM_VALUE_1"), en.of(77)))
        .set("f6", java.util.Arrays.asList(null, en.of(2)));
    Message vb = vec.decode(v.encode(Model.FINAL), Model.FINAL);
    assertEquals(List.of((short) 1, (short) 2, (short) 255), vb.getList("f1"));
    assertEquals(77, vb.<EnumValue>getList("f5").get(1).value());
    assertFalse(vb.<EnumValue>getList("f5").get(1).isNamed());
    assertNull(vb.getList("f6").get(0));

    Message set = test.struct("StructSet").newMessage().set("f1", Set.of(3, 1));
    Set<Short> got = set.type().decode(set.encode()).getSet("f1");
    assertEquals(Set.of((short) 1, (short) 3), got);

    Map<Integer, Object> m = new LinkedHashMap<>();
    m.put(10, test.struct("StructSimple").newMessage().set("id", 5));
    m.put(-3, test.struct("StructSimple").newMessage().set("id", 6));
    Message map = test.struct("StructMap").newMessage().set("f9", m);
    Map<Integer, Message> mb = map.type().decode(map.encode()).getMap("f9");
    assertEquals(List.of(10, -3), new ArrayList<>(mb.keySet()));
    assertEquals(6, mb.get(-3).getInt("id"));

    Message arr = test.struct("StructArray").newMessage();
    assertEquals(2, arr.getList("f1").size());
    arr.set("f3", List.of(new byte[] {9}, new byte[] {8, 7}));
    assertArrayEquals(new byte[] {8, 7}, arr.type().decode(arr.encode()).<byte[]>getList("f3").get(1));
  }

  @Test
  void enumsAndFlags() {
    EnumType side = proto.enumType("OrderSide");
    assertEquals(List.of("buy", "sell"), side.values().stream().map(EnumValue::name).toList());
    assertSame(side.of("sell"), side.of(1));
    assertEquals(Kind.BYTE, side.base());
    EnumType state = proto.enumType("State");
    assertTrue(state.isFlags());
    EnumValue good = state.of("good");
    assertEquals(6, good.value());
    assertTrue(good.has(state.of("initialized")));
    assertEquals(state.of(6), state.of("initialized|calculated"));
    EnumValue odd = state.of(0x30);
    assertNull(odd.name());
    assertEquals("48", odd.toString()); // the text form (the core's fbe_text_write_enum)
    assertEquals("invalid|broken|bad", state.of(0x09).toString());
    assertEquals("calculated|broken", state.of(0x0C).toString());
    assertEquals("initialized|calculated|good|64", state.of("good|64").toString());
    assertEquals("sell", side.of(1).toString());
    assertEquals("7", side.of(7).toString());
    FbeException bad = assertThrows(FbeException.class, () -> state.of("initialized|nope"));
    assertEquals(Status.ARGUMENT, bad.status());
    // an unnamed value survives decode -> encode
    Message acc = Fixtures.account(proto).set("state", 0x30);
    Message back = acc.type().decode(acc.encode());
    assertEquals(0x30, back.getEnum("state").value());
    assertArrayEquals(acc.encode(), back.encode());
    assertEquals(6, Fixtures.account(proto).getInt("state"));
  }

  @Test
  void introspection() {
    StructType acc = proto.struct("Account");
    assertSame(acc, proto.struct("proto.Account"));
    assertEquals(3, acc.typeId());
    assertFalse(acc.isMessage());
    assertTrue(proto.struct("AccountMessage").isMessage());
    assertEquals(List.of("id", "name", "state", "wallet", "asset", "orders"),
        acc.fields().stream().map(Field::name).toList());
    assertTrue(acc.field("id").isKey());
    assertEquals("proto.Order[]", acc.field("orders").type().toString());
    assertEquals(Kind.OPTIONAL, acc.field("asset").type().kind());
    assertSame(proto.struct("Balance"), acc.field("asset").type().element().struct());
    assertEquals("proto", proto.packageName());
    assertEquals(Kind.STRUCT, acc.field("wallet").type().kind());
    StructType opt = test.struct("StructOptional");
    assertSame(test.struct("StructSimple"), opt.base());
    assertEquals("id", opt.fields().get(0).name());
    assertEquals("map<int32, test.StructSimple>", test.struct("StructMap").field("f9").type().toString());
    assertFalse(proto.structs().isEmpty());
    assertFalse(test.structs().contains(proto.struct("Order"))); // another load: other objects
    assertTrue(Fbe.version().matches("\\d+\\.\\d+\\.\\d+.*"));
  }

  @Test
  void loadVariants() throws Exception {
    try (Schema s = Fbe.loadString("package tiny\nstruct Point { int32 x; int32 y = 7; }\n", "tiny.fbe", List.of())) {
      Message p = s.struct("Point").newMessage();
      assertEquals(7, p.getInt("y"));
      assertEquals("{\"x\":0,\"y\":7}", p.toJson());
      assertEquals("Point(x=0,y=7)", p.toString());
    }
    Path dir = Files.createTempDirectory("fbe-load");
    Files.writeString(dir.resolve("tiny.fbe"), "package tiny\nimport proto\nstruct Box { proto.Balance b; }\n");
    try (Schema s = Fbe.loadPackage("tiny", List.of(dir, Fixtures.schemas()))) {
      assertEquals("proto.Balance", s.struct("Box").field("b").type().toString());
      assertSame(s.struct("proto.Balance"), s.struct("Box").field("b").type().struct());
    }
  }

  @Test
  void equalityHashAndCopy() {
    Message a = Fixtures.account(proto), b = Fixtures.account(proto);
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertTrue(a.sameValue(b));
    Message c = a.copy();
    assertEquals(a, c);
    assertNotSame(a, c);
    c.set("name", "Other");
    assertNotEquals(a, c);
    assertFalse(a.sameValue(c));
    Set<Message> keys = new LinkedHashSet<>(List.of(a, b));
    assertEquals(1, keys.size());
  }

  @Test
  void senderAndReceiver() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Message order = Fixtures.account(proto).<Message>getList("orders").get(0);
    List<Message> sent = List.of(
        proto.struct("OrderMessage").newMessage().set("body", order),
        proto.struct("BalanceMessage").newMessage().set("body", Map.of("currency", "USD", "amount", 5.0)),
        proto.struct("AccountMessage").newMessage().set("body", Fixtures.account(proto)));
    for (Model model : Model.values()) {
      out.reset();
      try (Sender sender = proto.sender(out, null, model)) {
        for (Message m : sent) sender.send(m);
        assertEquals(out.size(), sender.bytesSent());
      }
      byte[] stream = out.toByteArray();
      List<Message> got = new ArrayList<>();
      try (Receiver r = proto.receiver(got::add, null, model)) {
        for (int i = 0; i < stream.length; i += 7) r.feed(stream, i, Math.min(7, stream.length - i));
        assertEquals(sent, got);
        assertEquals(3, r.received());
        assertEquals(0, r.pending());
        got.clear();
        assertEquals(stream.length, r.readFrom(new ByteArrayInputStream(stream)));
        assertEquals(sent, got);
        r.feed(stream, 0, 5);
        assertEquals(5, r.pending());
        r.reset();
        assertEquals(0, r.pending());
      }
    }
    List<byte[]> frames = new ArrayList<>();
    try (Sender s = proto.sender(frames::add, "proto", Model.STANDARD)) {
      assertTrue(s.send(sent.get(0)) > 0);
    }
    assertEquals(1, frames.size());
  }

  @Test
  void schemaCloseIsExplicitAndIdempotent() {
    Schema s = Fixtures.proto();
    Message m = Fixtures.account(s);
    StructType t = s.struct("Account");
    s.close();
    s.close();
    assertTrue(s.isClosed());
    FbeException e = assertThrows(FbeException.class, m::encode);
    assertEquals(Status.ARGUMENT, e.status());
    assertThrows(FbeException.class, t::newMessage);
  }

  /**
   * A decoded message stays on the tape C wrote until it is read (Message.state): it
   * encodes, prints and compares from that tape, and its first read or set makes the
   * values, which then are what encode sees (a set, or a change inside a list it gave).
   */
  @Test
  void aDecodedMessageReadsAndChangesLikeAnyOther() throws Exception {
    try (Schema s = Fixtures.proto()) {
      StructType account = s.struct("Account");
      Message a = Fixtures.account(s);
      byte[] bytes = a.encode();
      Message d = account.decode(bytes);
      assertArrayEquals(bytes, d.encode());
      assertEquals(a.toString(), d.toString());
      assertEquals(a, d);
      assertEquals("Test", d.getString("name"));
      d.set("name", "Other");
      assertEquals("Other", account.decode(d.encode()).getString("name"));
      Message e = account.decode(bytes);
      e.<Message>getList("orders").get(0).set("price", 2.0);
      assertEquals(2.0, account.decode(e.encode()).<Message>getList("orders").get(0).getDouble("price"));
      // threads that only read one decoded message at once each see all of it
      Message shared = account.decode(bytes);
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      for (int k = 0; k < 4; k++) {
        Thread t = new Thread(() -> {
          try {
            go.await();
            if (!"Test".equals(shared.getString("name")) || shared.<Message>getList("orders").size() != 3)
              throw new AssertionError("read a partial message");
          } catch (Throwable x) {
            failures.add(x);
          }
        });
        threads.add(t);
        t.start();
      }
      go.countDown();
      for (Thread t : threads) t.join();
      assertEquals(List.of(), failures);
    }
  }
}

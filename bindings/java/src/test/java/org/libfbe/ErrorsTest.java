package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.libfbe.internal.FbeCore;
import org.libfbe.internal.fbe_status;

/** Every error path: an FbeException with its status, path and offset; never a crash. */
class ErrorsTest {
  static Schema proto;
  static Schema test;

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

  static FbeException fails(Status status, String path, Executable e) {
    FbeException ex = assertThrows(FbeException.class, e);
    assertEquals(status, ex.status(), ex.getMessage());
    assertEquals(path, ex.path(), ex.getMessage());
    assertEquals(status.code(), ex.code());
    return ex;
  }

  @Test
  void setChecksTypes() {
    Message acc = proto.struct("Account").newMessage();
    FbeException unknown = fails(Status.UNKNOWN_FIELD, "", () -> acc.set("nope", 1));
    assertTrue(unknown.status().is(Status.NOT_FOUND)); // the core's parent of UnknownFieldError
    assertEquals("unknown field 'nope' of proto.Account", unknown.getMessage());
    assertEquals("unknown field 'nam' of proto.Account (did you mean 'name'?)",
        fails(Status.UNKNOWN_FIELD, "", () -> proto.struct("Account").fromMap(Map.of("nam", "x"))).getMessage());
    fails(Status.UNKNOWN_FIELD, "wallet", () -> acc.set("wallet", Map.of("nope", 1)));
    fails(Status.TYPE, "id", () -> acc.set("id", "1"));
    fails(Status.TYPE, "id", () -> acc.set("id", 1.0));
    fails(Status.TYPE, "id", () -> acc.set("id", null));
    fails(Status.RANGE, "id", () -> acc.set("id", 1L << 40));
    fails(Status.TYPE, "name", () -> acc.set("name", 5));
    fails(Status.TYPE, "wallet", () -> acc.set("wallet", proto.struct("Order").newMessage()));
    fails(Status.TYPE, "wallet", () -> acc.set("wallet", test.struct("StructSimple").newMessage()));
    fails(Status.ARGUMENT, "state", () -> acc.set("state", "nosuch"));
    fails(Status.RANGE, "state", () -> acc.set("state", 300));
    fails(Status.TYPE, "state", () -> acc.set("state", proto.enumType("OrderSide").of(0)));
    fails(Status.TYPE, "orders[1]", () -> acc.set("orders", List.of(proto.struct("Order").newMessage(), 5)));
    fails(Status.TYPE, "orders", () -> acc.set("orders", "x"));
    fails(Status.TYPE, "orders[0].symbol",
        () -> acc.set("orders", List.of(Map.of("id", 1, "symbol", 2))));
    fails(Status.TYPE, "wallet.amount", () -> acc.set("wallet", Map.of("amount", "x")));
    Message s = test.struct("StructSimple").newMessage();
    fails(Status.RANGE, "f3", () -> s.set("f3", 256));
    fails(Status.RANGE, "f3", () -> s.set("f3", -1));
    fails(Status.RANGE, "f9", () -> s.set("f9", 128));
    fails(Status.RANGE, "f19", () -> s.set("f19", -1));
    fails(Status.RANGE, "f23", () -> s.set("f23", -1));
    fails(Status.RANGE, "f23", () -> s.set("f23", BigInteger.ONE.shiftLeft(64)));
    fails(Status.RANGE, "f25", () -> s.set("f25", 1e300));
    fails(Status.ARGUMENT, "f29", () -> s.set("f29", "abc"));
    fails(Status.TYPE, "f29", () -> s.set("f29", 1.5));
    fails(Status.ARGUMENT, "f36", () -> s.set("f36", "not-a-uuid"));
    fails(Status.TYPE, "f1", () -> s.set("f1", 1));
    Message arr = test.struct("StructArray").newMessage();
    fails(Status.RANGE, "f1", () -> arr.set("f1", List.of(1, 2, 3)));
    Message map = test.struct("StructMap").newMessage();
    fails(Status.TYPE, "f1[0][key]", () -> map.set("f1", Map.of("k", 1)));
    fails(Status.RANGE, "f1[0]", () -> map.set("f1", Map.of(1, 1000)));
    // getters
    fails(Status.TYPE, "name", () -> acc.getInt("name"));
    fails(Status.TYPE, "id", () -> acc.getString("id"));
    fails(Status.UNKNOWN_FIELD, "", () -> acc.get("x"));
  }

  @Test
  void encodeRechecksWhatSetCannotSee() {
    // Lists returned by getters are plain Java lists: a bad item is caught by the walk.
    Message acc = Fixtures.account(proto);
    List<Object> orders = acc.getList("orders");
    orders.set(1, "not an order");
    fails(Status.TYPE, "orders[1]", acc::encode);
    orders.set(1, proto.struct("Balance").newMessage());
    fails(Status.TYPE, "orders[1]", acc::encode);
    orders.set(1, proto.struct("Order").newMessage());
    acc.<Message>getList("orders").get(2).values()[1] = 42; // bypassing set()
    fails(Status.TYPE, "orders[2].symbol", acc::encode);
    fails(Status.TYPE, "orders[2].symbol", acc::toJson);
    Message s = test.struct("StructSimple").newMessage();
    s.values()[s.type().field("f3").index()] = 1000;
    fails(Status.RANGE, "f3", s::encode);
    s.values()[s.type().field("f3").index()] = (short) 1;
    s.set("f31", "bad \uD800 surrogate");
    fails(Status.ARGUMENT, "f31", s::encode);
    s.set("f31", "");
    s.values()[s.type().field("f29").index()] = new BigDecimal("1e-40");
    fails(Status.RANGE, "f29", s::encode);
    s.values()[s.type().field("f29").index()] = BigDecimal.ONE;
    Message nested = test.struct("StructVector").newMessage();
    List<Object> bad = new ArrayList<>(Arrays.asList((Object) null));
    nested.values()[nested.type().field("f1").index()] = bad;
    fails(Status.TYPE, "f1[0]", nested::encode);
    assertTrue(s.encode().length > 0); // still usable
  }

  @Test
  void malformedBytes() {
    StructType acc = proto.struct("Account");
    byte[] good = Fixtures.account(proto).encode();
    FbeException e = fails(Status.MALFORMED, "", () -> acc.verify(Arrays.copyOf(good, 5)));
    assertTrue(e.offset() >= 0);
    assertFalse(acc.isValid(Arrays.copyOf(good, good.length - 1), Model.STANDARD));
    byte[] bad = good.clone();
    bad[4] = (byte) 0xff; // the header's offset field
    assertThrows(FbeException.class, () -> acc.verify(bad));
    FbeException d = assertThrows(FbeException.class, () -> acc.decode(Arrays.copyOf(good, 7)));
    assertEquals(Status.MALFORMED, d.status());
    assertTrue(d.getMessage().contains("offset"), d.getMessage());
    assertThrows(FbeException.class, () -> acc.decode(new byte[0], Model.FINAL));
    // random garbage never crashes
    java.util.Random r = new java.util.Random(7);
    for (int i = 0; i < 2000; i++) {
      byte[] junk = good.clone();
      for (int k = 0; k < 3; k++) junk[r.nextInt(junk.length)] = (byte) r.nextInt(256);
      Model model = i % 2 == 0 ? Model.STANDARD : Model.FINAL;
      if (!acc.isValid(junk, model)) refusedAsVerify(acc, junk, model);
      try {
        acc.decodeTrusted(junk, model); // the decoder alone: an error or a value
      } catch (FbeException ignored) {
        // an error is fine
      }
    }
    fails(Status.ARGUMENT, "", () -> acc.decode(good, 10, good.length, Model.STANDARD));
    fails(Status.ARGUMENT, "", () -> acc.decode(good, -1, 2, Model.STANDARD));
  }

  /** verify rejects the bytes, and decode throws verify's very exception (status, reason, path, offset). */
  static FbeException refusedAsVerify(StructType t, byte[] data, Model model) {
    assertFalse(t.isValid(data, model));
    FbeException want = assertThrows(FbeException.class, () -> t.verify(data, model));
    FbeException got = assertThrows(FbeException.class, () -> t.decode(data, model));
    assertEquals(List.of(want.status(), want.reason(), want.path(), want.offset(), want.getMessage()),
        List.of(got.status(), got.reason(), got.path(), got.offset(), got.getMessage()));
    return got;
  }

  @Test
  void decodeVerifies() throws java.io.IOException {
    StructType order = proto.struct("Order");
    for (Model model : Model.values()) { // another struct's bytes: the type id
      byte[] bytes = Fixtures.account(proto).encode(model);
      FbeException e = refusedAsVerify(order, bytes, model);
      assertEquals(Status.MALFORMED, e.status());
      assertEquals("type id 3 where proto.Order (1) was expected", e.reason());
      assertEquals("", e.path());
      assertEquals(model == Model.FINAL ? 4 : 12, e.offset());
      if (model == Model.FINAL) // the final model's decoder checks the root type id itself
        assertThrows(FbeException.class, () -> order.decodeTrusted(bytes, Model.FINAL));
      else // the trusted decode reads the Account's body as an Order
        assertEquals(order, order.decodeTrusted(bytes).type());
    }
    // a malformed model: the orders count past the model
    byte[] bad = Fixtures.account(proto).encode();
    java.nio.ByteBuffer.wrap(bad).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(0x68, 0x7fffffff);
    FbeException e = refusedAsVerify(proto.struct("Account"), bad, Model.STANDARD);
    assertEquals("orders", e.path());
    assertEquals(104, e.offset());
    assertTrue(e.reason().contains("do not fit"), e.reason());
    // the ByteBuffer forms verify too
    assertThrows(FbeException.class, () -> proto.struct("Account").decode(java.nio.ByteBuffer.wrap(bad)));
    // the public malformed records
    java.util.Map<String, Schema> schemas = new java.util.HashMap<>();
    try {
      for (Map<String, Object> rec : Fixtures.records("malformed.jsonl")) {
        String pkg = (String) rec.get("schema");
        Schema s = schemas.computeIfAbsent(pkg, p -> Fbe.loadPackage(p, List.of(Fixtures.schemas())));
        byte[] data = java.util.HexFormat.of().parseHex((String) rec.get("hex"));
        refusedAsVerify(s.struct((String) rec.get("type")), data,
            "final".equals(rec.get("format")) ? Model.FINAL : Model.STANDARD);
      }
      // a sibling message type of another schema version (type ids differ): refused, read trusted
      Schema ex = Fbe.loadPackage("protoex", List.of(Fixtures.schemas()));
      schemas.put("protoex", ex);
      Message sent = ex.struct("proto.OrderMessage").newMessage()
          .set("body", ex.struct("proto.Order").newMessage().set("id", 7).set("symbol", "EURUSD"));
      byte[] data = sent.encode();
      StructType reader = ex.struct("protoex.OrderMessage");
      assertTrue(refusedAsVerify(reader, data, Model.STANDARD).reason().startsWith("type id 1 where protoex.OrderMessage"));
      Message body = reader.decodeTrusted(data).getMessage("body");
      assertEquals(List.of(7, "EURUSD", 10.0, -10.0),
          List.of(body.getInt("id"), body.getString("symbol"), body.getDouble("tp"), body.getDouble("sl")));
      assertEquals(body, reader.decodeTrusted(java.nio.ByteBuffer.wrap(data)).getMessage("body"));
    } finally {
      schemas.values().forEach(Schema::close);
    }
  }

  @Test
  void invalidJson() {
    StructType acc = proto.struct("Account");
    FbeException e = fails(Status.JSON, "id", () -> acc.fromJson("{\"id\": "));
    assertTrue(e.offset() > 0);
    FbeException t = assertThrows(FbeException.class, () -> acc.fromJson("{\"id\": \"x\"}"));
    assertEquals("id", t.path());
    assertThrows(FbeException.class, () -> acc.fromJson("[]"));
  }

  @Test
  void lookupsAndLoading() {
    fails(Status.NOT_FOUND, "", () -> proto.struct("Nope"));
    fails(Status.NOT_FOUND, "", () -> proto.enumType("Nope"));
    // the core's words (fbei_error_unknown_type), the nearest name suggested
    assertEquals("no struct 'Acount' in package proto (did you mean 'Account'?)",
        fails(Status.NOT_FOUND, "", () -> proto.struct("Acount")).getMessage());
    assertEquals("no enum or flags 'Stat' in package proto (did you mean 'State'?)",
        fails(Status.NOT_FOUND, "", () -> proto.enumType("Stat")).getMessage());
    assertEquals("no struct 'Nope' in package proto", fails(Status.NOT_FOUND, "", () -> proto.struct("Nope")).getMessage());
    fails(Status.UNKNOWN_FIELD, "", () -> proto.struct("Account").field("x"));
    FbeException e = fails(Status.SCHEMA, "",
        () -> Fbe.loadString("package bad\nstruct A { nosuchtype x; }\n", "bad.fbe", List.of()));
    assertFalse(e.diagnostics().isEmpty());
    assertTrue(e.diagnostics().get(0).startsWith("bad.fbe:2:"), e.diagnostics().get(0));
    fails(Status.SCHEMA, "", () -> Fbe.loadPackage("nosuchpackage", List.of(Fixtures.schemas())));
    fails(Status.SCHEMA, "", () -> Fbe.load(Fixtures.schemas().resolve("missing.fbe")));
  }

  @Test
  void protocolErrors() {
    try (Sender s = proto.sender(b -> { }, null, Model.STANDARD)) {
      fails(Status.TYPE, "", () -> s.send(proto.struct("Account").newMessage()));
    }
    assertThrows(FbeException.class, () -> proto.sender(b -> { }, "nosuch", Model.STANDARD));
    List<Message> got = new ArrayList<>();
    try (Receiver r = proto.receiver(got::add)) {
      byte[] junk = new byte[64];
      Arrays.fill(junk, (byte) 0x7f);
      FbeException e = assertThrows(FbeException.class, () -> r.feed(junk));
      assertTrue(e.status() == Status.MALFORMED || e.status() == Status.LIMIT, e.getMessage());
      assertEquals(0, r.pending());
    }
    // The handler's exception propagates and stops the feed; the rest stays buffered.
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    Message om = proto.struct("OrderMessage").newMessage();
    try (Sender s = proto.sender(out)) {
      s.send(om);
      s.send(om);
    }
    int[] calls = {0};
    try (Receiver r = proto.receiver(m -> {
      if (calls[0]++ == 0) throw new IllegalStateException("stop");
    })) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.feed(out.toByteArray()));
      assertEquals("stop", e.getMessage());
      assertEquals(out.size() / 2, r.pending());
      r.feed(new byte[0]);
      assertEquals(2, calls[0]);
      assertEquals(0, r.pending());
    }
    // Re-entrance from the handler is refused, never a crash.
    Receiver[] self = {null};
    List<String> refused = new ArrayList<>();
    try (Schema own = Fixtures.proto()) {
      java.io.ByteArrayOutputStream frames = new java.io.ByteArrayOutputStream();
      try (Sender s2 = own.sender(frames)) {
        s2.send(own.struct("OrderMessage").newMessage());
      }
      self[0] = own.receiver(m -> {
        for (Runnable r : List.<Runnable>of(() -> self[0].feed(new byte[1]), self[0]::reset, self[0]::close, own::close)) {
          try {
            r.run();
          } catch (FbeException e) {
            assertEquals(Status.ARGUMENT, e.status());
            refused.add(e.getMessage());
          }
        }
      });
      self[0].feed(frames.toByteArray());
      self[0].close();
    }
    assertEquals(4, refused.size(), refused.toString());
    Receiver closed = proto.receiver(m -> { });
    closed.close();
    fails(Status.ARGUMENT, "", () -> closed.feed(new byte[1]));
  }

  /** getMessage() is the core's fbe_error_format text, whether C or Java raised the error. */
  @Test
  void exceptionText() {
    FbeException e = new FbeException(Status.TYPE, "expected int32, got java.lang.String", "orders[2].id", 17, List.of());
    assertEquals("expected int32, got java.lang.String at 'orders[2].id' (offset 17)", e.getMessage());
    assertEquals("expected int32, got java.lang.String", e.reason());
    assertSame(Status.TYPE, e.status());
    assertTrue(e instanceof RuntimeException);
    assertEquals("m at 'p'", new FbeException(Status.RANGE, "m", "p", -1, List.of()).getMessage());
    assertEquals("m (offset 0)", new FbeException(Status.RANGE, "m", "", 0, List.of()).getMessage());
    assertEquals("caf\u00e9 \uD83D\uDE00 at 'x'", new FbeException(Status.RANGE, "caf\u00e9 \uD83D\uDE00", "x", -1, List.of()).getMessage());
    // a message longer than the core's record (255 bytes) is kept whole, as in every binding
    assertEquals("\u00e9".repeat(200), new FbeException(Status.TYPE, "\u00e9".repeat(200)).getMessage());
    // C's text (fbe_error_format in C) is what the same parts give through Java's path
    StructType acc = proto.struct("Account");
    byte[] good = Fixtures.account(proto).encode();
    List<FbeException> fromC = List.of(
        assertThrows(FbeException.class, () -> acc.verify(Arrays.copyOf(good, 5))),
        assertThrows(FbeException.class, () -> acc.fromJson("{\"id\": \"x\"}")),
        assertThrows(FbeException.class, () -> acc.decode(good, 10, good.length, Model.STANDARD)));
    for (FbeException c : fromC) {
      assertEquals(new FbeException(c.status(), c.reason(), c.path(), c.offset(), List.of()).getMessage(), c.getMessage());
    }
    assertEquals("id", fromC.get(1).path());
    assertTrue(fromC.get(1).getMessage().contains(" at 'id'"), fromC.get(1).getMessage());
  }

  /** Status is the core's table (generated from FBE_STATUS_LIST at build time): every code, name, class and parent. */
  @Test
  void statusIsTheCoresTable() {
    Status[] all = Status.values();
    assertEquals(FbeCore.FBE_STATUS_COUNT, all.length);
    for (Status st : all) {
      fbe_status c = fbe_status.swigToEnum(st.code());
      assertEquals(st.ordinal(), st.code());
      assertSame(st, Status.of(st.code()));
      assertEquals("FBE_" + (st == Status.OK ? "OK" : "ERR_" + st.name()), FbeCore.fbe_status_name(c));
      assertEquals(FbeCore.fbe_status_class(c), st.className());
      assertEquals(FbeCore.fbe_status_text(c), st.text());
      assertEquals(FbeCore.fbe_status_parent(c).swigValue(), st == Status.OK ? 0 : st.parent().code());
    }
    assertEquals(11, Status.UNKNOWN_FIELD.code());
    assertSame(Status.NOT_FOUND, Status.UNKNOWN_FIELD.parent());
    assertFalse(Status.NOT_FOUND.is(Status.UNKNOWN_FIELD));
    assertNull(Status.OK.parent());
    assertThrows(IllegalArgumentException.class, () -> Status.of(all.length));
  }

  /** A lone surrogate has no UTF-8 form: the core's check refuses it, the same in every binding. */
  @Test
  void loneSurrogateIsRefusedByTheCore() {
    String[][] cases = {
      {"\uD800x!", "a UTF-16 surrogate (U+D800) at byte 0 of 5"},
      {"ab\uDFFF", "a UTF-16 surrogate (U+DFFF) at byte 2 of 5"},
      {"\uDC00\uD800", "a UTF-16 surrogate (U+DC00) at byte 0 of 6"},
    };
    for (String[] c : cases) {
      Message acc = proto.struct("Account").newMessage().set("name", c[0]);
      for (Model model : Model.values()) {
        FbeException e = fails(Status.ARGUMENT, "name", () -> acc.encode(model));
        assertEquals("string is not valid UTF-8: " + c[1], e.reason());
      }
      fails(Status.ARGUMENT, "name", acc::toJson);
    }
    String ok = "ok \uD83D\uDE00 \uFFFD"; // a pair, and U+FFFD itself
    Message acc = proto.struct("Account").newMessage().set("name", ok);
    assertEquals(ok, proto.struct("Account").decode(acc.encode()).get("name"));
  }

  /** Final-model bytes of N nested `levels` optionals deep: encoded up to 256, then by hand. */
  static byte[] chainFinal(StructType n, int levels) {
    Message node = n.newMessage().set("v", 0);
    for (int i = 0; i < Math.min(levels, 256); i++) node = n.newMessage().set("v", 0).set("next", node);
    byte[] data = node.encode(Model.FINAL);
    for (int i = 256; i < levels; i++) {
      byte[] out = new byte[data.length + 5];
      int size = out.length;
      out[0] = (byte) size;
      out[1] = (byte) (size >> 8);
      out[2] = (byte) (size >> 16);
      out[3] = (byte) (size >> 24);
      System.arraycopy(data, 4, out, 4, 4);
      out[12] = 1;
      System.arraycopy(data, 8, out, 13, data.length - 8);
      data = out;
    }
    return data;
  }

  /** The core's depth rule and no lower cap: 256 levels encode and decode, 257 are refused. */
  @Test
  void depthBoundaryIsTheCores() {
    try (Schema deep = Fbe.loadString("package deep\nstruct N { int32 v; N? next; }\n", "deep.fbe", List.of())) {
      StructType n = deep.struct("N");
      Message node = n.newMessage().set("v", 0);
      for (int i = 0; i < 256; i++) node = n.newMessage().set("v", 0).set("next", node);
      for (Model model : Model.values()) {
        byte[] data = node.encode(model);
        assertEquals(data.length, n.verify(data, model));
        assertEquals(node, n.decode(data, model));
        assertEquals(node, n.decodeTrusted(data, model));
        Message deeper = n.newMessage().set("v", 0).set("next", node);
        FbeException e = assertThrows(FbeException.class, () -> deeper.encode(model));
        assertEquals(Status.LIMIT, e.status());
        assertTrue(e.reason().contains("nested deeper than 256 levels"), e.reason());
      }
      assertTrue(Arrays.equals(node.encode(Model.FINAL), chainFinal(n, 256)));
      byte[] bad = chainFinal(n, 257);
      assertFalse(n.isValid(bad, Model.FINAL));
      for (Executable decode : new Executable[] {() -> n.decode(bad, Model.FINAL), () -> n.decodeTrusted(bad, Model.FINAL)}) {
        FbeException e = assertThrows(FbeException.class, decode);
        assertEquals(Status.LIMIT, e.status());
        assertTrue(e.reason().contains("nesting deeper than 256 levels"), e.reason());
      }
    }
  }

  /** 256 levels through encode, decode and JSON fit a thread with a 512 KiB stack. */
  @Test
  void depthBoundaryFitsASmallThreadStack() throws Exception {
    try (Schema deep = Fbe.loadString("package deep\nstruct N { int32 v; N? next; int32[] xs; }\n", "deep.fbe",
        List.of())) {
      StructType n = deep.struct("N");
      Message inner = n.newMessage().set("v", 0).set("xs", List.of(1));
      for (int i = 0; i < 255; i++) inner = n.newMessage().set("v", 0).set("next", inner);
      Message node = inner;
      List<Object> results = new ArrayList<>();
      Throwable[] failure = new Throwable[1];
      Thread t = new Thread(null, () -> {
        try {
          for (Model model : Model.values()) {
            results.add(n.decode(node.encode(model), model).equals(node));
            results.add(n.fromJson(node.toJson()).equals(node));
          }
        } catch (Throwable e) {
          failure[0] = e;
        }
      }, "small-stack", 512 * 1024);
      t.start();
      t.join();
      if (failure[0] != null) throw new AssertionError(failure[0]);
      assertEquals(List.of(true, true, true, true), results);
    }
  }
}

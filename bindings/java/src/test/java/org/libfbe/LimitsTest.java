package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Limits on decode (verified and trusted), verify/isValid, fromJson and receivers. Each
 * {@code Limits.with*} goes to the core's fbe_limits_set, so names, ranges and texts are
 * the core's; crossing a limit throws FbeException LIMIT with the core's text naming it.
 */
class LimitsTest {
  static final long FLOOR = 1 << 20; // FBE_DEFAULT_MEMORY_FLOOR: the default budget is 16 x input + 1 MiB
  static Schema proto;
  static Schema frames;

  @BeforeAll
  static void load() {
    proto = Fixtures.proto();
    frames = Fbe.loadString("package frames\nstruct E {}\nmessage M { E[] items; }\nstruct D { int32?[] a; }\n",
        "frames.fbe", List.of());
  }

  @AfterAll
  static void close() {
    proto.close();
    frames.close();
  }

  static FbeException fails(Status status, String reason, Executable e) {
    FbeException ex = assertThrows(FbeException.class, e);
    assertEquals(status, ex.status(), ex.getMessage());
    assertEquals(reason, ex.reason());
    return ex;
  }

  static String budget(long n) {
    return "decoding needs more than the memory budget of " + n + " bytes (max_memory)";
  }

  /**
   * proto.Account, standard model, whose orders are n pointers to ONE Order body
   * (tests/test_budget.c shared_orders): 4 (n + 24) bytes standing for n orders.
   */
  static byte[] sharedOrders(int n) {
    int acct = 8, wallet = acct + 30, block = wallet + 20, order = block + 4 + 4 * n;
    ByteBuffer b = ByteBuffer.allocate(order + 34).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(b.capacity()).putInt(8);
    b.putInt(30).putInt(3).putInt(1).putInt(0).put((byte) 0); // Account: size, type id, id, name, state
    b.putInt(wallet - acct).put(new byte[5]).putInt(block - acct); // wallet, asset (null), orders
    b.putInt(20).putInt(2).putInt(0).put(new byte[8]); // Balance
    b.putInt(n);
    for (int i = 0; i < n; i++) b.putInt(order - acct);
    b.putInt(34).putInt(1).putInt(7).putInt(0); // Order: size, type id, id, symbol (+ 18 zero bytes)
    return b.array();
  }

  /** frames.M, final model: n empty structs in 12 bytes. */
  static byte[] empties(int n) {
    byte[] b = frames.struct("M").newMessage().encode(Model.FINAL);
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(8, n);
    return b;
  }

  @Test
  void limitsAreImmutableValuesSetByTheCore() {
    Limits d = Limits.DEFAULT;
    assertEquals(0, d.maxDepth());
    assertEquals(0, d.maxModelSize());
    assertEquals(0, d.maxMemory());
    Limits l = d.withMaxDepth(64).withMaxMemory(1 << 20).withMaxModelSize(4096);
    assertEquals(64, l.maxDepth());
    assertEquals(4096, l.maxModelSize());
    assertEquals(1 << 20, l.maxMemory());
    assertEquals(0, d.maxDepth(), "DEFAULT is not changed");
    assertEquals("Limits(maxDepth=64, maxModelSize=4096, maxMemory=1048576)", l.toString());
    assertEquals(l, Limits.DEFAULT.with("maxDepth", 64).with("max_memory", 1 << 20).with("max_model_size", 4096));
    assertEquals(l.hashCode(), Limits.DEFAULT.withMaxModelSize(4096).withMaxDepth(64).withMaxMemory(1 << 20).hashCode());
    assertNotEquals(l, d);
    assertEquals(d, l.withMaxDepth(0).withMaxMemory(0).withMaxModelSize(0), "0 is the default");
    assertEquals(Long.MAX_VALUE, d.withMaxMemory(Long.MAX_VALUE).maxMemory());
  }

  @Test
  void outOfRangeIsRefusedAtConstructionWithTheCoreText() {
    fails(Status.RANGE, "max_depth must be 0 (the default) or 1..256, not 257",
        () -> Limits.DEFAULT.withMaxDepth(257));
    fails(Status.RANGE, "max_depth must be 0 (the default) or 1..256, not -1",
        () -> Limits.DEFAULT.withMaxDepth(-1));
    fails(Status.RANGE, "max_model_size must be 0 (the default) or 1..4294967295, not 4294967296",
        () -> Limits.DEFAULT.withMaxModelSize(1L << 32));
    fails(Status.RANGE, "max_memory must be 0 (the default) or a byte count, not -1",
        () -> Limits.DEFAULT.withMaxMemory(-1));
    fails(Status.RANGE, "max_depth must be 0 (the default) or 1..256, not " + Long.MIN_VALUE,
        () -> Limits.DEFAULT.withMaxDepth(Long.MIN_VALUE));
    fails(Status.ARGUMENT, "unknown limit 'max_size' (max_depth, max_model_size, max_memory)",
        () -> Limits.DEFAULT.with("max_size", 1));
    fails(Status.ARGUMENT, "the limit's name is null", () -> Limits.DEFAULT.with(null, 1));
    Limits l = Limits.DEFAULT.withMaxDepth(8);
    assertThrows(FbeException.class, () -> l.withMaxDepth(1000));
    assertEquals(8, l.maxDepth(), "a refused value leaves the limits as they were");
  }

  @Test
  void decodeRefusesEachLoweredLimitVerifiedAndTrusted() {
    StructType account = proto.struct("Account");
    byte[] bytes = Fixtures.account(proto).encode();
    long size = account.verify(bytes);
    Limits memory = Limits.DEFAULT.withMaxMemory(100);
    Limits modelSize = Limits.DEFAULT.withMaxModelSize(10);
    fails(Status.LIMIT, budget(100), () -> account.decode(bytes, memory));
    fails(Status.LIMIT, budget(100), () -> account.decodeTrusted(bytes, memory));
    fails(Status.LIMIT, budget(100), () -> account.decode(ByteBuffer.wrap(bytes), memory));
    fails(Status.LIMIT, budget(100), () -> account.decodeTrusted(ByteBuffer.wrap(bytes), Model.STANDARD, memory));
    fails(Status.LIMIT, budget(100), () -> account.decode(bytes, 0, bytes.length, Model.STANDARD, memory));
    String tooBig = "model size " + size + " exceeds the limit of 10 bytes (max_model_size)";
    fails(Status.LIMIT, tooBig, () -> account.decode(bytes, Model.STANDARD, modelSize));
    fails(Status.LIMIT, tooBig, () -> account.decodeTrusted(bytes, modelSize));
    byte[] fin = Fixtures.account(proto).encode(Model.FINAL);
    fails(Status.LIMIT, budget(100), () -> account.decode(fin, Model.FINAL, memory));
    // within them: the same message
    Limits roomy = Limits.DEFAULT.withMaxMemory(1 << 20).withMaxModelSize(size).withMaxDepth(1);
    assertEquals(account.decode(bytes), account.decode(bytes, roomy));
    assertEquals(account.decode(bytes), account.decodeTrusted(bytes, roomy));
    // depth: int32?[] nests two levels
    StructType d = frames.struct("D");
    Message two = d.newMessage().set("a", Arrays.asList(1, null));
    for (Model model : Model.values()) {
      byte[] b = two.encode(model);
      FbeException ex = fails(Status.LIMIT, "nesting deeper than 1 levels (max_depth)",
          () -> d.decode(b, model, Limits.DEFAULT.withMaxDepth(1)));
      assertEquals("a[0]", ex.path());
      assertTrue(ex.offset() > 0);
      assertEquals(two, d.decode(b, model, Limits.DEFAULT.withMaxDepth(2)));
    }
    // the limits are the call's: the next call without them has the defaults
    assertEquals(3, account.decode(bytes).getList("orders").size());
  }

  @Test
  void verifyAndIsValidTakeTheLimits() {
    StructType account = proto.struct("Account");
    byte[] bytes = Fixtures.account(proto).encode();
    long size = account.verify(bytes);
    fails(Status.LIMIT, budget(100), () -> account.verify(bytes, Limits.DEFAULT.withMaxMemory(100)));
    fails(Status.LIMIT, "model size " + size + " exceeds the limit of " + (size - 1) + " bytes (max_model_size)",
        () -> account.verify(bytes, Model.STANDARD, Limits.DEFAULT.withMaxModelSize(size - 1)));
    assertEquals(size, account.verify(bytes, Limits.DEFAULT.withMaxModelSize(size)));
    assertFalse(account.isValid(bytes, Limits.DEFAULT.withMaxMemory(100)));
    assertFalse(account.isValid(bytes, Model.STANDARD, Limits.DEFAULT.withMaxModelSize(size - 1)));
    assertTrue(account.isValid(bytes, Limits.DEFAULT.withMaxModelSize(size)));
    StructType d = frames.struct("D");
    byte[] b = d.newMessage().set("a", List.of(1)).encode(Model.FINAL);
    fails(Status.LIMIT, "nesting deeper than 1 levels (max_depth)",
        () -> d.verify(b, Model.FINAL, Limits.DEFAULT.withMaxDepth(1)));
    assertEquals(b.length, d.verify(b, Model.FINAL, Limits.DEFAULT.withMaxDepth(2)));
    // a missing argument is an error, not a "no"
    fails(Status.ARGUMENT, "limits is null (use Limits.DEFAULT)", () -> account.isValid(bytes, (Limits) null));
    fails(Status.ARGUMENT, "limits is null (use Limits.DEFAULT)", () -> account.decode(bytes, (Limits) null));
  }

  @Test
  void fromJsonTakesTheLimits() {
    StructType account = proto.struct("Account");
    String json = Fixtures.account(proto).toJson();
    fails(Status.LIMIT, "reading JSON needs more than the memory budget of 100 bytes (max_memory)",
        () -> account.fromJson(json, Limits.DEFAULT.withMaxMemory(100)));
    fails(Status.LIMIT, "JSON text of " + json.getBytes(StandardCharsets.UTF_8).length
        + " bytes exceeds the limit of 10 bytes (max_model_size)",
        () -> account.fromJson(json, Limits.DEFAULT.withMaxModelSize(10)));
    StructType d = frames.struct("D");
    FbeException ex = fails(Status.LIMIT, "nesting deeper than 1 levels (max_depth)",
        () -> d.fromJson("{\"a\":[1,null]}", Limits.DEFAULT.withMaxDepth(1)));
    assertEquals("a[0]", ex.path());
    assertEquals(Arrays.asList(1, null), d.fromJson("{\"a\":[1,null]}", Limits.DEFAULT.withMaxDepth(2)).getList("a"));
    assertEquals(Fixtures.account(proto), account.fromJson(json, Limits.DEFAULT.withMaxMemory(1 << 20)));
  }

  @Test
  void receiverAppliesTheLimitsToEveryFrame() {
    List<byte[]> sent = new ArrayList<>();
    byte[] frame;
    try (Sender sender = proto.sender(sent::add, null, Model.STANDARD)) {
      sender.send(proto.struct("AccountMessage").newMessage().set("body", Fixtures.account(proto)));
      frame = sent.get(0);
    }
    List<Message> got = new ArrayList<>();
    try (Receiver small = proto.receiver(got::add, Limits.DEFAULT.withMaxModelSize(20))) {
      fails(Status.LIMIT, "frame size " + frame.length + " exceeds the limit of 20 bytes (max_model_size)",
          () -> small.feed(frame));
    }
    try (Receiver tight = proto.receiver(got::add, null, Model.STANDARD, Limits.DEFAULT.withMaxMemory(100))) {
      fails(Status.LIMIT, budget(100), () -> tight.feed(frame));
    }
    assertEquals(0, got.size());
    byte[] two = new byte[2 * frame.length];
    System.arraycopy(frame, 0, two, 0, frame.length);
    System.arraycopy(frame, 0, two, frame.length, frame.length);
    try (Receiver roomy = proto.receiver(got::add, Limits.DEFAULT.withMaxModelSize(frame.length).withMaxMemory(1 << 20))) {
      roomy.feed(two);
      assertEquals(2, roomy.received());
    }
    assertEquals(Fixtures.account(proto), got.get(1).getMessage("body"));
    // a frame of 2 x 10^6 empty structs: refused by the default budget
    try (Receiver r = frames.receiver(got::add, null, Model.FINAL)) {
      FbeException ex = assertThrows(FbeException.class, () -> r.feed(empties(2000000)));
      assertEquals(Status.LIMIT, ex.status());
      assertTrue(ex.reason().endsWith("(max_memory)"), ex.reason());
    }
    fails(Status.ARGUMENT, "limits is null (use Limits.DEFAULT)", () -> proto.receiver(got::add, (Limits) null));
  }

  @Test
  void hostileBudgetInputIsRefusedByDefaultAndDecodedWhenRaised() {
    StructType account = proto.struct("Account");
    // 10^6 pointers to one Order (4 MB): the defaults refuse it without walking it
    byte[] shared = sharedOrders(1000000);
    String want = budget(16L * shared.length + FLOOR);
    fails(Status.LIMIT, want, () -> account.decode(shared));
    fails(Status.LIMIT, want, () -> account.decodeTrusted(shared));
    fails(Status.LIMIT, want, () -> account.verify(shared));
    assertEquals(3, account.decode(sharedOrders(3)).getList("orders").size()); // the shape itself is valid
    // 200000 empty structs in 12 bytes: over the default budget, within a raised one
    StructType m = frames.struct("M");
    byte[] b = empties(200000);
    fails(Status.LIMIT, budget(16L * b.length + FLOOR), () -> m.decode(b, Model.FINAL));
    assertEquals(200000, m.decode(b, Model.FINAL, Limits.DEFAULT.withMaxMemory(8 << 20)).getList("items").size());
  }
}

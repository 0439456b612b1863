package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What every language shares, decided by the core (issue 20): the text form of
 * toString() (docs/TEXT.md), deep equality and the [key] hash and order, plain maps out
 * and in, deep copies, and JSON that refuses unknown members unless asked not to.
 */
class SharedBehaviourTest {
  static Schema proto;

  @BeforeAll
  static void load() {
    proto = Fixtures.proto();
  }

  @AfterAll
  static void close() {
    proto.close();
  }

  /** docs/TEXT.md's example, as the core writes it. */
  static final String ACCOUNT_TEXT = "Account(id=1,name=\"Test\",state=initialized|calculated|good,"
      + "wallet=Balance(currency=\"USD\",amount=1000.0),asset=Balance(currency=\"EUR\",amount=100.0),"
      + "orders=[3][Order(id=1,symbol=\"EURUSD\",side=buy,type=market,price=1.23456,volume=1000.0),"
      + "Order(id=2,symbol=\"EURUSD\",side=sell,type=limit,price=1.0,volume=100.0),"
      + "Order(id=3,symbol=\"EURUSD\",side=buy,type=stop,price=1.5,volume=10.0)])";

  @Test
  void toStringIsTheCoresTextForm() {
    Message acc = Fixtures.account(proto);
    assertEquals(ACCOUNT_TEXT, acc.toString());
    for (Model model : Model.values()) // the same after a round trip, either model
      assertEquals(ACCOUNT_TEXT, acc.type().decode(acc.encode(model), model).toString());
    assertEquals("initialized|calculated|good", acc.getEnum("state").toString());
    try (Schema s = Fbe.loadString(String.join("\n", "package shown",
        "flags Bits : byte { a = 1; [hidden] b = 2; c = 4; }",
        "struct Holder { [hidden] string password; uuid id; decimal d; double x; char c; bytes raw; Bits bits;",
        "  int32<string> m; int32! set; int32 visible; }", ""), "shown.fbe", List.of())) {
      Message h = s.struct("Holder").newMessage().set("password", "secret")
          .set("id", "123e4567-e89b-12d3-a456-426655440000").set("d", "-123.4500").set("x", 1e300)
          .set("c", "'").set("raw", new byte[] {0, 1, 2, (byte) 255}).set("bits", 7)
          .set("m", Map.of("k", 17)).set("set", List.of(3, 1)).set("visible", 3);
      assertEquals("Holder(password=***,id=\"123e4567-e89b-12d3-a456-426655440000\",d=-123.4500,x=1e+300,"
          + "c='\\'',raw=bytes[4]\"AAEC/w==\",bits=a|***|c,m=[1]<{\"k\"->17}>,set=[2]{3,1},visible=3)", h.toString());
      assertEquals("a|***|c", h.getEnum("bits").toString());
    }
  }

  @Test
  void toStringNeverThrows() {
    Message order = proto.struct("Order").newMessage().set("id", 5);
    order.values()[order.type().field("symbol").index()] = 42; // past set(): what encode refuses
    assertEquals("Order(<invalid: expected string, got an integer at 'symbol'>)", order.toString());
    Schema closed = Fixtures.proto();
    Message m = closed.struct("Balance").newMessage();
    EnumValue side = closed.enumType("OrderSide").of(1);
    closed.close();
    assertEquals("Balance(<invalid: the schema is closed>)", m.toString());
    assertEquals("<invalid: the schema is closed>", side.toString());
  }

  @Test
  void equalsIsDeepHashAndOrderAreTheKeys() {
    StructType order = proto.struct("Order");
    Message a = order.newMessage().set("id", 1).set("symbol", "EURUSD");
    Message b = order.newMessage().set("id", 1).set("symbol", "GBPUSD");
    Message c = order.newMessage().set("id", 2).set("symbol", "EURUSD");
    assertNotEquals(a, b); // every field: not only the [key] id
    assertEquals(a, order.newMessage().set("id", 1).set("symbol", "EURUSD"));
    assertEquals(a.hashCode(), b.hashCode()); // the [key] fields only
    assertEquals(0, a.compareTo(b));
    assertTrue(a.compareTo(c) < 0 && c.compareTo(a) > 0);
    List<Message> sorted = new ArrayList<>(List.of(c, a));
    Collections.sort(sorted);
    assertEquals(List.of(a, c), sorted);
    assertEquals(2, new TreeSet<>(List.of(a, b, c)).size()); // a TreeSet keeps one per key
    assertEquals(3, new HashSet<>(List.of(a, b, c)).size()); // a HashSet one per value
    assertNotEquals(a, "Order(id=1)");
    assertNotEquals(a, proto.struct("Balance").newMessage());
    FbeException other = assertThrows(FbeException.class, () -> a.compareTo(proto.struct("Balance").newMessage()));
    assertEquals(Status.TYPE, other.status());
    assertEquals("expected proto.Order, got a struct proto.Balance", other.getMessage());
    // floats by bit pattern, decimals by value: the core's rules (fbe_msg_equal)
    Message x = order.newMessage().set("price", Double.NaN);
    assertEquals(x, order.newMessage().set("price", Double.NaN));
    assertNotEquals(order.newMessage().set("price", 0.0), order.newMessage().set("price", -0.0));
    try (Schema s = Fbe.loadString("package eq\nstruct Money { decimal amount; }\n", "eq.fbe", List.of())) {
      StructType money = s.struct("Money");
      Message m1 = money.newMessage().set("amount", new BigDecimal("1.5"));
      Message m2 = money.newMessage().set("amount", new BigDecimal("1.50"));
      assertEquals(m1, m2);
      assertNotEquals(m1.toString(), m2.toString()); // equal values may print their scale
      assertFalse(money.hasKeys());
      assertEquals(0, m1.hashCode()); // keyless: one hash for all
      FbeException keyless = assertThrows(FbeException.class, () -> m1.compareTo(m2));
      assertEquals(Status.TYPE, keyless.status());
      assertEquals("eq.Money has no [key] fields: its values have no order", keyless.getMessage());
    }
    // a message holding what encode refuses equals itself only
    Message bad = order.newMessage();
    bad.values()[0] = "x";
    assertEquals(bad, bad);
    assertNotEquals(bad, order.newMessage());
  }

  @Test
  void toMapAndFromMapAreDeep() {
    Message acc = Fixtures.account(proto);
    Map<String, Object> map = acc.toMap();
    assertTrue(map.get("wallet") instanceof Map);
    @SuppressWarnings("unchecked")
    List<Object> orders = (List<Object>) map.get("orders");
    assertTrue(orders.get(0) instanceof Map);
    assertEquals(proto.enumType("OrderSide").of("sell"), ((Map<?, ?>) orders.get(1)).get("side")); // enums as members
    assertEquals(acc, acc.type().fromMap(map));
    orders.remove(0); // a copy: the message keeps its orders
    assertEquals(3, acc.getList("orders").size());
    FbeException e = assertThrows(FbeException.class, () -> acc.type().fromMap(Map.of("symbl", 1)));
    assertEquals(Status.UNKNOWN_FIELD, e.status());
  }

  @Test
  void copyIsDeep() {
    Message acc = Fixtures.account(proto);
    Message copy = acc.copy();
    assertEquals(acc, copy);
    assertNotSame(acc.getList("orders"), copy.getList("orders"));
    copy.<Message>getList("orders").get(0).set("symbol", "CHANGED");
    copy.getMessage("wallet").set("amount", 1.0);
    assertEquals("EURUSD", acc.<Message>getList("orders").get(0).getString("symbol"));
    assertEquals(1000.0, acc.getMessage("wallet").getDouble("amount"));
    assertNotEquals(acc, copy);
  }

  @Test
  void jsonRefusesUnknownMembersUnlessAsked() {
    StructType order = proto.struct("Order");
    FbeException e = assertThrows(FbeException.class, () -> order.fromJson("{\"id\":1,\"symbl\":\"x\"}"));
    assertEquals(Status.UNKNOWN_FIELD, e.status());
    assertTrue(e.status().is(Status.NOT_FOUND));
    assertTrue(e.reason().startsWith("unknown field 'symbl' of proto.Order (did you mean 'symbol'?)"), e.reason());
    Message m = order.fromJson("{\"id\":1,\"symbl\":\"x\"}", true);
    assertEquals(order.newMessage().set("id", 1), m);
    assertEquals(m, order.fromJson("{\"id\":1,\"symbl\":\"x\"}", Limits.DEFAULT, true));
    Set<Status> strict = Set.of(assertThrows(FbeException.class,
        () -> order.fromJson("{\"symbl\":1}", Limits.DEFAULT, false)).status());
    assertEquals(Set.of(Status.UNKNOWN_FIELD), strict);
  }
}

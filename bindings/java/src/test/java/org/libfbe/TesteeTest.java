package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The testee's behaviour requests (docs/TESTEE.md): {@code text} answers toString(),
 * {@code "native": true} builds the message through newMessage() and set(), and an
 * error answer names the core's status; the conversations' sessions answer in the C
 * testee's member order. (ConformanceTest runs the whole testee through the runner; this
 * holds the answers to one request each.)
 */
class TesteeTest {
  @SuppressWarnings("unchecked")
  static Map<String, Object> request(String json) {
    return (Map<String, Object>) Json.parse(json);
  }

  static Testee loaded() {
    Testee t = new Testee();
    Map<String, Object> load = request("{\"op\":\"load\",\"include\":[" + Json.write(Fixtures.schemas().toString()) + "]}");
    assertEquals(true, t.answer(load).get("ok"));
    return t;
  }

  @Test
  void textIsToString() {
    Testee t = loaded();
    try (Schema proto = Fixtures.proto()) {
      Message acc = Fixtures.account(proto);
      String hex = HexFormat.of().formatHex(acc.encode(Model.FINAL));
      Map<String, Object> r = t.answer(request(
          "{\"op\":\"text\",\"package\":\"proto\",\"type\":\"Account\",\"model\":\"final\",\"hex\":\"" + hex + "\"}"));
      assertEquals(Map.of("ok", true, "text", SharedBehaviourTest.ACCOUNT_TEXT), r);
    }
  }

  @Test
  void nativeEncodeBuildsThroughSet() {
    Testee t = loaded();
    String account = "{\"id\":1,\"name\":\"Test\",\"state\":6,\"wallet\":{\"currency\":\"USD\",\"amount\":1000.0},"
        + "\"asset\":null,\"orders\":[{\"id\":1,\"symbol\":\"EURUSD\",\"side\":0,\"type\":0,\"price\":1.23456,"
        + "\"volume\":1000.0}]}";
    String head = "{\"op\":\"encode\",\"package\":\"proto\",\"type\":\"Account\",\"json\":" + account;
    Map<String, Object> viaJson = t.answer(request(head + "}"));
    Map<String, Object> viaNative = t.answer(request(head + ",\"native\":true}"));
    assertEquals(true, viaJson.get("ok"), viaJson.toString());
    assertEquals(viaJson, viaNative);
    // StructSimple's scalar kinds: decimal text, uuid text, uint64 past 2^63, char and wchar
    // codes (the defaults that change per message, utc and uuid1, pinned)
    String simple = "{\"op\":\"encode\",\"package\":\"test\",\"type\":\"StructSimple\",\"json\":{\"f23\":18446744073709551615,"
        + "\"f29\":\"-123.456\",\"f31\":\"x\",\"f36\":\"123e4567-e89b-12d3-a456-426655440000\",\"f33\":1543145597933000000,"
        + "\"f7\":128512,\"f5\":120,\"f35\":1543145597933000000,\"f37\":\"e7854072-f0a5-11e8-8f69-ac220bcdd8e0\"}";
    assertEquals(t.answer(request(simple + "}")), t.answer(request(simple + ",\"native\":true}")));
  }

  @Test
  void errorAnswersNameTheCoresStatus() {
    Testee t = loaded();
    String head = "{\"op\":\"encode\",\"package\":\"proto\",\"type\":\"Order\",\"json\":";
    for (String path : List.of("", ",\"native\":true")) {
      Map<String, Object> unknown = t.answer(request(head + "{\"symbl\":\"x\"}" + path + "}"));
      assertEquals(false, unknown.get("ok"));
      assertEquals("FBE_ERR_UNKNOWN_FIELD", unknown.get("status"), unknown.toString());
      Map<String, Object> type = t.answer(request(head + "{\"symbol\":5}" + path + "}"));
      assertEquals("FBE_ERR_TYPE", type.get("status"), type.toString());
      Map<String, Object> side = t.answer(request(head + "{\"side\":\"sideways\"}" + path + "}"));
      assertEquals("FBE_ERR_ARGUMENT", side.get("status"), side.toString());
    }
    Map<String, Object> decimal = t.answer(request(
        "{\"op\":\"encode\",\"package\":\"test\",\"type\":\"StructSimple\",\"native\":true,\"json\":{\"f29\":1.5}}"));
    assertEquals("FBE_ERR_TYPE", decimal.get("status"), decimal.toString()); // a JSON number is a host double here
    Map<String, Object> bug = t.answer(request("{\"op\":\"decode\",\"package\":\"proto\"}")); // not the library's error
    assertFalse((Boolean) bug.get("ok"));
    assertNull(bug.get("status"));
  }

  @Test
  void sessionAnswers() {
    Testee t = loaded();
    String c = "\"session\":\"c\"", ok = "{\"ok\":true}";
    assertEquals(ok, Json.write(t.answer(request("{\"op\":\"client\"," + c + ",\"package\":\"exchange\",\"max_pending\":1}"))));
    assertEquals("{\"ok\":false,\"error\":\"a session of that name is open\"}",
        Json.write(t.answer(request("{\"op\":\"server\"," + c + ",\"package\":\"exchange\"}"))));
    String order = ",\"type\":\"NewOrder\",\"json\":{\"id\":\"00000000-0000-0000-0000-000000000001\"}";
    Map<String, Object> first = t.answer(request("{\"op\":\"request\"," + c + order + ",\"token\":18446744073709551615}"));
    assertEquals(List.of("ok", "hex", "ended"), List.copyOf(first.keySet()));
    // refused (the cap of 1): the core's status and text, nothing sent
    assertEquals("{\"ok\":false,\"status\":\"FBE_ERR_LIMIT\",\"error\":\"1 requests are pending, the limit (max_pending)\","
        + "\"hex\":\"\",\"ended\":[]}", Json.write(t.answer(request("{\"op\":\"request\"," + c
        + order.replace("0001", "0002") + ",\"token\":2}"))));
    assertEquals("{\"ok\":true,\"ended\":[{\"token\":18446744073709551615,\"end\":\"reset\",\"status\":\"FBE_ERR_RESET\","
        + "\"error\":\"Reset client!\"}]}", Json.write(t.answer(request("{\"op\":\"reset\"," + c + "}"))));
    assertEquals("{\"ok\":false,\"error\":\"not a server session\"}",
        Json.write(t.answer(request("{\"op\":\"serve\"," + c + "}"))));
    assertEquals(ok, Json.write(t.answer(request("{\"op\":\"close\"," + c + "}"))));
    assertEquals("{\"ok\":false,\"error\":\"no such session\"}", Json.write(t.answer(request("{\"op\":\"close\"," + c + "}"))));
  }
}

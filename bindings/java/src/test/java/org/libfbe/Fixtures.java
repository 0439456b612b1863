package org.libfbe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Paths of the repository's schemas and conformance files, and the Account of the README. */
final class Fixtures {
  private Fixtures() {}

  static Path root() {
    return Path.of(System.getProperty("fbe.root", "../..")).toAbsolutePath().normalize();
  }

  static Path schemas() {
    return root().resolve("schemas");
  }

  static Path conformance(String file) {
    return root().resolve("tests/conformance").resolve(file);
  }

  /** The records of a conformance file (blank lines skipped), read by the testee's JSON reader. */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> records(String file) throws IOException {
    List<Map<String, Object>> out = new ArrayList<>();
    for (String line : Files.readAllLines(conformance(file), StandardCharsets.UTF_8)) {
      if (!line.isBlank()) out.add((Map<String, Object>) Json.parse(line));
    }
    return out;
  }

  static Schema proto() {
    return Fbe.load(schemas().resolve("proto.fbe"), List.of(schemas()));
  }

  static Schema test() {
    return Fbe.loadPackage("test", List.of(schemas()));
  }

  /** The reference README's Account: three orders. */
  static Message account(Schema s) {
    StructType order = s.struct("Order");
    return s.struct("Account").newMessage()
        .set("id", 1).set("name", "Test").set("state", s.enumType("State").of("good"))
        .set("wallet", s.struct("Balance").newMessage().set("currency", "USD").set("amount", 1000.0))
        .set("asset", s.struct("Balance").newMessage().set("currency", "EUR").set("amount", 100.0))
        .set("orders", List.of(
            order.newMessage().set("id", 1).set("symbol", "EURUSD").set("side", "buy").set("type", "market")
                .set("price", 1.23456).set("volume", 1000.0),
            order.newMessage().set("id", 2).set("symbol", "EURUSD").set("side", "sell").set("type", "limit")
                .set("price", 1.0).set("volume", 100.0),
            order.newMessage().set("id", 3).set("symbol", "EURUSD").set("side", "buy").set("type", "stop")
                .set("price", 1.5).set("volume", 10.0)));
  }
}

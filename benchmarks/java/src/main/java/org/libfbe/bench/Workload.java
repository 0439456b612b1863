package org.libfbe.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.libfbe.Fbe;
import org.libfbe.Message;
import org.libfbe.Model;
import org.libfbe.Schema;
import org.libfbe.StructType;
import org.libfbe.bench.pb.Account;
import org.libfbe.bench.pb.Balance;
import org.libfbe.bench.pb.Order;

/**
 * The Account workload (benchmarks/data/account.json: the reference README's Account,
 * three orders) in each implementation's form, built once and checked to round-trip.
 */
final class Workload {
  /** The same value as a plain Java object, for Jackson. */
  public static final class JBalance {
    public String currency;
    public double amount;

    public JBalance() {}

    JBalance(String currency, double amount) {
      this.currency = currency;
      this.amount = amount;
    }
  }

  public static final class JOrder {
    public int id;
    public String symbol;
    public int side;
    public int type;
    public double price;
    public double volume;

    public JOrder() {}

    JOrder(int id, String symbol, int side, int type, double price, double volume) {
      this.id = id;
      this.symbol = symbol;
      this.side = side;
      this.type = type;
      this.price = price;
      this.volume = volume;
    }
  }

  public static final class JAccount {
    public int id;
    public String name;
    public int state;
    public JBalance wallet;
    public JBalance asset;
    public List<JOrder> orders;
  }

  static final Object[][] ORDERS = {
    {1, "EURUSD", 0, 0, 1.23456, 1000.0}, {2, "EURUSD", 1, 1, 1.0, 100.0}, {3, "EURUSD", 0, 2, 1.5, 10.0}};

  final Schema schema;
  final StructType type;
  final Message message;
  final byte[] standard;
  final byte[] fin;
  final Account proto;
  final byte[] protoBytes;
  final ObjectMapper mapper = new ObjectMapper();
  final JAccount pojo;
  final byte[] json;

  Workload() {
    Path schemas = Path.of(System.getProperty("fbe.schemas", "schemas"));
    schema = Fbe.load(schemas.resolve("proto.fbe"), List.of(schemas));
    type = schema.struct("Account");
    StructType order = schema.struct("Order");
    StructType balance = schema.struct("Balance");
    Message[] orders = new Message[ORDERS.length];
    for (int i = 0; i < orders.length; i++) {
      Object[] o = ORDERS[i];
      orders[i] = order.newMessage().set("id", o[0]).set("symbol", o[1]).set("side", o[2]).set("type", o[3])
          .set("price", o[4]).set("volume", o[5]);
    }
    message = type.newMessage().set("id", 1).set("name", "Test").set("state", 6)
        .set("wallet", balance.newMessage().set("currency", "USD").set("amount", 1000.0))
        .set("asset", balance.newMessage().set("currency", "EUR").set("amount", 100.0))
        .set("orders", List.of(orders));
    standard = message.encode(Model.STANDARD);
    fin = message.encode(Model.FINAL);
    if (!type.decode(standard).equals(message) || !type.decode(fin, Model.FINAL).equals(message))
      throw new IllegalStateException("libfbe Account does not round trip");

    Account.Builder pb = Account.newBuilder().setId(1).setName("Test").setState(6)
        .setWallet(Balance.newBuilder().setCurrency("USD").setAmount(1000.0))
        .setAsset(Balance.newBuilder().setCurrency("EUR").setAmount(100.0));
    for (Object[] o : ORDERS)
      pb.addOrders(Order.newBuilder().setId((Integer) o[0]).setSymbol((String) o[1]).setSide((Integer) o[2])
          .setType((Integer) o[3]).setPrice((Double) o[4]).setVolume((Double) o[5]));
    proto = pb.build();
    protoBytes = proto.toByteArray();
    try {
      if (!Account.parseFrom(protoBytes).equals(proto)) throw new IllegalStateException("protobuf does not round trip");
      pojo = new JAccount();
      pojo.id = 1;
      pojo.name = "Test";
      pojo.state = 6;
      pojo.wallet = new JBalance("USD", 1000.0);
      pojo.asset = new JBalance("EUR", 100.0);
      pojo.orders = new java.util.ArrayList<>();
      for (Object[] o : ORDERS)
        pojo.orders.add(new JOrder((Integer) o[0], (String) o[1], (Integer) o[2], (Integer) o[3], (Double) o[4], (Double) o[5]));
      json = mapper.writeValueAsBytes(pojo);
      JAccount back = mapper.readValue(json, JAccount.class);
      if (back.orders.size() != 3 || !back.name.equals("Test")) throw new IllegalStateException("Jackson does not round trip");
      // The libfbe JSON and Jackson's agree on the value.
      if (!mapper.readTree(json).equals(mapper.readTree(message.toJson())))
        throw new IllegalStateException("the Jackson value differs from the libfbe one");
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}

package org.libfbe.bench;

import fbebench.Bench;
import java.util.List;
import org.libfbe.Message;
import org.libfbe.View;

/**
 * decode_all's second half: every field of a decoded value read once into Java values,
 * in the schema's order, folded into one long (as benchmarks/peers-c/harness.h: a string
 * is its length and first and last char) so the runner can check that each reader read
 * them all, and right: every fold must equal the fold of the Jackson POJO of the data.
 * One reader per workload for each form a value comes in (libfbe's Message and View,
 * protobuf's generated classes, Jackson's POJOs), each through that form's typed getters.
 */
final class Reads {
  private Reads() {}

  static final long SEED = 0x9e3779b97f4a7c15L;

  static long fold(long h, long v) {
    return Long.rotateLeft(h, 5) + v;
  }

  static long fold(long h, double v) {
    return fold(h, Double.doubleToRawLongBits(v));
  }

  static long fold(long h, String s) {
    int n = s.length();
    return fold(h, n == 0 ? 0 : ((long) n << 16) ^ ((long) s.charAt(0) << 8) ^ s.charAt(n - 1));
  }

  static long fold(long h, boolean b) {
    return fold(h, b ? 1 : 0);
  }

  // ---- libfbe, decoded (org.libfbe.Message)

  static long message(String workload, Message m) {
    switch (workload.charAt(0)) {
      case 'a': {
        long h = fold(SEED, m.getInt("id"));
        h = fold(h, m.getString("name"));
        h = fold(h, m.getInt("state"));
        h = balance(h, m.getMessage("wallet"));
        Message asset = m.getMessage("asset");
        h = fold(h, asset != null);
        if (asset != null) h = balance(h, asset);
        List<Message> orders = m.getList("orders");
        h = fold(h, orders.size());
        for (Message o : orders) {
          h = fold(h, o.getInt("id"));
          h = fold(h, o.getString("symbol"));
          h = fold(h, o.getInt("side"));
          h = fold(h, o.getInt("type"));
          h = fold(h, o.getDouble("price"));
          h = fold(h, o.getDouble("volume"));
        }
        return h;
      }
      case 's': {
        long h = fold(SEED, m.getString("name"));
        h = fold(h, m.getBoolean("spouse"));
        h = fold(h, m.getInt("siblings"));
        h = fold(h, m.getDouble("money"));
        return fold(h, m.getLong("birthday"));
      }
      default: {
        List<Long> ids = m.getList("ids");
        long h = fold(SEED, ids.size());
        for (long id : ids) h = fold(h, id);
        List<String> names = m.getList("names");
        h = fold(h, names.size());
        for (String s : names) h = fold(h, s);
        return h;
      }
    }
  }

  private static long balance(long h, Message b) {
    return fold(fold(h, b.getString("currency")), b.getDouble("amount"));
  }

  // ---- libfbe, in place (org.libfbe.View)

  static long view(String workload, View v) {
    switch (workload.charAt(0)) {
      case 'a': {
        long h = fold(SEED, v.getInt("id"));
        h = fold(h, v.getString("name"));
        h = fold(h, v.getInt("state"));
        h = balance(h, v.view("wallet"));
        View asset = v.view("asset");
        h = fold(h, asset != null);
        if (asset != null) h = balance(h, asset);
        View orders = v.view("orders");
        int n = orders.count();
        h = fold(h, n);
        for (int i = 0; i < n; i++) {
          View o = orders.at(i);
          h = fold(h, o.getInt("id"));
          h = fold(h, o.getString("symbol"));
          h = fold(h, o.getInt("side"));
          h = fold(h, o.getInt("type"));
          h = fold(h, o.getDouble("price"));
          h = fold(h, o.getDouble("volume"));
        }
        return h;
      }
      case 's': {
        long h = fold(SEED, v.getString("name"));
        h = fold(h, v.getBoolean("spouse"));
        h = fold(h, v.getInt("siblings"));
        h = fold(h, v.getDouble("money"));
        return fold(h, v.getLong("birthday"));
      }
      default: {
        long[] ids = v.longs("ids"); // every element in one call, the view's bulk read
        long h = fold(SEED, ids.length);
        for (long id : ids) h = fold(h, id);
        View names = v.view("names");
        int n = names.count();
        h = fold(h, n);
        for (int i = 0; i < n; i++) h = fold(h, names.getString(i));
        return h;
      }
    }
  }

  private static long balance(long h, View b) {
    return fold(fold(h, b.getString("currency")), b.getDouble("amount"));
  }

  /** The one field libfbe-view's decode reads (account: id, small: name, large: the count of ids). */
  static long first(String workload, View v) {
    switch (workload.charAt(0)) {
      case 'a': return v.getInt("id");
      case 's': return fold(0, v.getString("name"));
      default: return v.count("ids");
    }
  }

  // ---- protobuf-java

  static long proto(String workload, com.google.protobuf.Message p) {
    switch (workload.charAt(0)) {
      case 'a': {
        Bench.Account m = (Bench.Account) p;
        long h = fold(SEED, m.getId());
        h = fold(h, m.getName());
        h = fold(h, m.getState());
        h = balance(h, m.getWallet());
        h = fold(h, m.hasAsset());
        if (m.hasAsset()) h = balance(h, m.getAsset());
        h = fold(h, m.getOrdersCount());
        for (Bench.Order o : m.getOrdersList()) {
          h = fold(h, o.getId());
          h = fold(h, o.getSymbol());
          h = fold(h, o.getSide());
          h = fold(h, o.getType());
          h = fold(h, o.getPrice());
          h = fold(h, o.getVolume());
        }
        return h;
      }
      case 's': {
        Bench.Small m = (Bench.Small) p;
        long h = fold(SEED, m.getName());
        h = fold(h, m.getSpouse());
        h = fold(h, m.getSiblings());
        h = fold(h, m.getMoney());
        return fold(h, m.getBirthday());
      }
      default: {
        Bench.Large m = (Bench.Large) p;
        int n = m.getIdsCount();
        long h = fold(SEED, n);
        for (int i = 0; i < n; i++) h = fold(h, m.getIds(i));
        h = fold(h, m.getNamesCount());
        for (String s : m.getNamesList()) h = fold(h, s);
        return h;
      }
    }
  }

  private static long balance(long h, Bench.Balance b) {
    return fold(fold(h, b.getCurrency()), b.getAmount());
  }

  // ---- Jackson POJOs

  static long pojo(String workload, Object p) {
    switch (workload.charAt(0)) {
      case 'a': {
        Workload.JAccount a = (Workload.JAccount) p;
        long h = fold(SEED, a.id);
        h = fold(h, a.name);
        h = fold(h, a.state);
        h = balance(h, a.wallet);
        h = fold(h, a.asset != null);
        if (a.asset != null) h = balance(h, a.asset);
        h = fold(h, a.orders.size());
        for (Workload.JOrder o : a.orders) {
          h = fold(h, o.id);
          h = fold(h, o.symbol);
          h = fold(h, o.side);
          h = fold(h, o.type);
          h = fold(h, o.price);
          h = fold(h, o.volume);
        }
        return h;
      }
      case 's': {
        Workload.JSmall s = (Workload.JSmall) p;
        long h = fold(SEED, s.name);
        h = fold(h, s.spouse);
        h = fold(h, s.siblings);
        h = fold(h, s.money);
        return fold(h, s.birthday);
      }
      default: {
        Workload.JLarge l = (Workload.JLarge) p;
        long h = fold(SEED, l.ids.length);
        for (long id : l.ids) h = fold(h, id);
        h = fold(h, l.names.size());
        for (String s : l.names) h = fold(h, s);
        return h;
      }
    }
  }

  private static long balance(long h, Workload.JBalance b) {
    return fold(fold(h, b.currency), b.amount);
  }
}

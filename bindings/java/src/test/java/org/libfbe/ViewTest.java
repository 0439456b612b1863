package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Views (StructType.view): every public conformance vector read through a view gives
 * what decode gives (JSON, text, every field by name and by index, nested structs,
 * optionals, collections and maps item by item, the decoded value, equality), bad bytes
 * throw exactly what decode throws, and the Account of the README read field by field.
 */
class ViewTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final Map<String, Schema> SCHEMAS = new HashMap<>();

  private static Schema schema(String pkg) {
    return SCHEMAS.computeIfAbsent(pkg, p -> Fbe.loadPackage(p, List.of(Fixtures.schemas())));
  }

  private static StructType type(Map<String, Object> r, String schemaKey, String typeKey) {
    String pkg = (String) r.get(schemaKey);
    return schema(pkg).struct(pkg + "." + r.get(typeKey));
  }

  private static Model model(Map<String, Object> r) {
    return "final".equals(r.get("format")) ? Model.FINAL : Model.STANDARD;
  }

  @AfterAll
  static void close() {
    for (Schema s : SCHEMAS.values()) s.close();
  }

  @Test
  void everyVectorReadsAsDecodeGivesIt() throws Exception {
    int n = 0;
    for (Map<String, Object> r : Fixtures.records("vectors.jsonl")) {
      if (((String) r.get("format")).startsWith("stream")) continue; // protocol frames: no single message
      StructType t = type(r, "schema", "type");
      byte[] bytes = HEX.parseHex((String) r.get("hex"));
      Message m = t.decode(bytes, model(r));
      View v = t.view(bytes, model(r));
      String id = (String) r.get("id");
      assertEquals(m.toJson(), v.toJson(), id);
      assertEquals(m.toJson(true), v.toJson(true), id);
      assertEquals(m.toString(), v.toString(), id);
      assertTrue(v.equals(m), id);
      assertTrue(v.equals(t.view(bytes, model(r))), id);
      assertTrue(m.sameValue(v.toMessage()), id);
      assertEquals(m.hashCode(), v.hashCode(), id);
      same(m, v, id);
      n++;
    }
    assertTrue(n > 90, "vectors read: " + n);
  }

  /** The versioning records: a reader's view of a writer's bytes is the reader's decode. */
  @Test
  void versionedBytesReadAsDecodeGivesThem() throws Exception {
    int n = 0;
    for (Map<String, Object> r : Fixtures.records("versioning.jsonl")) {
      if (Boolean.FALSE.equals(r.get("verify"))) continue; // a sibling type: only the trusted decode reads it
      StructType t = type(r, "reader_schema", "reader_type");
      byte[] bytes = HEX.parseHex((String) r.get("hex"));
      Message m = t.decode(bytes, model(r));
      View v = t.view(bytes, model(r));
      String id = (String) r.get("id");
      assertEquals(m.toJson(), v.toJson(), id);
      assertEquals(m.toString(), v.toString(), id);
      assertTrue(v.equals(m), id);
      n++;
    }
    assertTrue(n > 0, "versioning records read: " + n);
  }

  /** Every malformed record: the view refuses exactly as decode does (status and text), or reads the same value. */
  @Test
  void badBytesThrowWhatDecodeThrows() throws Exception {
    int refused = 0;
    for (String file : List.of("malformed.jsonl", "malformed-extra.jsonl")) {
      for (Map<String, Object> r : Fixtures.records(file)) {
        StructType t = type(r, "schema", "type");
        byte[] bytes = HEX.parseHex((String) r.get("hex"));
        String id = (String) r.get("id");
        FbeException decodeError = null;
        Message m = null;
        try {
          m = t.decode(bytes, model(r));
        } catch (FbeException e) {
          decodeError = e;
        }
        if (decodeError == null) {
          assertEquals(m.toJson(), t.view(bytes, model(r)).toJson(), id);
          continue;
        }
        FbeException viewError = assertThrows(FbeException.class, () -> t.view(bytes, model(r)), id);
        assertEquals(decodeError.code(), viewError.code(), id);
        assertEquals(decodeError.getMessage(), viewError.getMessage(), id);
        refused++;
      }
    }
    assertTrue(refused > 40, "refused: " + refused);
  }

  @Test
  void limitsAreDecodes() {
    try (Schema s = Fixtures.proto()) {
      StructType account = s.struct("Account");
      byte[] bytes = Fixtures.account(s).encode();
      Limits tight = Limits.DEFAULT.withMaxModelSize(16);
      FbeException d = assertThrows(FbeException.class, () -> account.decode(bytes, tight));
      FbeException v = assertThrows(FbeException.class, () -> account.view(bytes, Model.STANDARD, tight));
      assertEquals(d.code(), v.code());
      assertEquals(d.getMessage(), v.getMessage());
    }
  }

  /** A view checked against the value decode gave for it, item by item, through every getter. */
  private static void same(Object decoded, View v, String path) {
    switch (v.kind()) {
      case STRUCT: {
        Message m = (Message) decoded;
        assertSame(m.type(), v.structType(), path);
        for (Field f : m.type().fields()) {
          String at = path + "." + f.name();
          Object d = m.get(f.index());
          item(d, v.get(f.name()), at);
          item(d, v.get(f.index()), at);
          if (f.type().kind() == Kind.OPTIONAL) assertEquals(d == null, v.isNull(f.name()), at);
          if (d == null) {
            assertNull(v.view(f.name()), at);
            continue;
          }
          typed(d, v, f, at);
        }
        return;
      }
      case ARRAY: case VECTOR: case LIST: {
        List<?> l = (List<?>) decoded;
        assertEquals(l.size(), v.count(), path);
        for (int i = 0; i < l.size(); i++) item(l.get(i), v.get(i), path + "[" + i + "]");
        bulk(v, path);
        return;
      }
      case SET: {
        Set<?> set = (Set<?>) decoded;
        assertTrue(v.count() >= set.size(), path); // as written: decode keeps one per key
        if (v.count() != set.size()) return;
        int i = 0;
        for (Object o : set) item(o, v.get(i), path + "[" + i++ + "]");
        return;
      }
      case MAP: case HASH: {
        Map<?, ?> map = (Map<?, ?>) decoded;
        assertTrue(v.count() >= map.size(), path);
        if (v.count() != map.size()) return;
        Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
        for (int i = 0; i < map.size(); i++) {
          Map.Entry<?, ?> e = it.next();
          item(e.getKey(), v.keyAt(i).value(), path + "[key " + i + "]");
          item(e.getValue(), v.get(i), path + "[" + i + "]");
          View value = v.valueAt(i);
          if (value != null) item(e.getValue(), value.value(), path + "[" + i + "]");
        }
        Map<?, ?> value = (Map<?, ?>) v.toValue(); // the decoded map itself (bytes compare by content)
        assertEquals(map.size(), value.size(), path);
        Iterator<? extends Map.Entry<?, ?>> vt = value.entrySet().iterator();
        for (Map.Entry<?, ?> e : map.entrySet()) {
          Map.Entry<?, ?> g = vt.next();
          item(e.getKey(), g.getKey(), path + "[key]");
          item(e.getValue(), g.getValue(), path + "[value]");
        }
        return;
      }
      default:
        item(decoded, v.value(), path);
    }
  }

  /**
   * The bulk getters of a collection (longs, doubles) against the one-element getters:
   * the same values, or, when an element does not read (a null optional), the same status
   * with the element's index in the path; TYPE for a collection of anything else.
   */
  private static void bulk(View v, String path) {
    FieldType e = v.fieldType().element();
    Kind k = e.kind() == Kind.OPTIONAL ? e.element().kind() : e.kind();
    int n = v.count();
    switch (k) {
      case BOOL: case BYTE: case CHAR: case WCHAR: case INT8: case UINT8: case INT16: case UINT16: case INT32:
      case UINT32: case INT64: case UINT64: case TIMESTAMP: case ENUM: case FLAGS: {
        long[] want = new long[n];
        for (int i = 0; i < n; i++) {
          try {
            want[i] = v.getLong(i);
          } catch (FbeException ex) {
            FbeException got = assertThrows(FbeException.class, v::longs, path);
            assertEquals(ex.status(), got.status(), path);
            assertEquals("[" + i + "]", got.path(), path);
            return;
          }
        }
        assertArrayEquals(want, v.longs(), path);
        assertEquals(Status.TYPE, assertThrows(FbeException.class, v::doubles, path).status(), path);
        return;
      }
      case FLOAT: case DOUBLE: {
        long[] want = new long[n];
        for (int i = 0; i < n; i++) {
          try {
            want[i] = Double.doubleToRawLongBits(v.getDouble(i));
          } catch (FbeException ex) {
            FbeException got = assertThrows(FbeException.class, v::doubles, path);
            assertEquals(ex.status(), got.status(), path);
            assertEquals("[" + i + "]", got.path(), path);
            return;
          }
        }
        double[] got = v.doubles();
        assertEquals(n, got.length, path);
        for (int i = 0; i < n; i++) assertEquals(want[i], Double.doubleToRawLongBits(got[i]), path + "[" + i + "]");
        return;
      }
      default:
        if (n > 0) assertEquals(Status.TYPE, assertThrows(FbeException.class, v::longs, path).status(), path);
    }
  }

  /** A collection of 1,000 ids in one call each way; the errors name the element. */
  @Test
  void bulkGettersReadACollectionInOneCall() {
    Path large = Fixtures.schemas().resolve("bench/large.fbe");
    try (Schema s = Fbe.load(large, List.of(Fixtures.schemas(), large.getParent()))) {
      StructType t = s.struct("Large");
      List<Long> ids = new ArrayList<>();
      for (long i = 0; i < 1000; i++) ids.add(i * i * i * 7919 - 500_000);
      ids.set(3, 1L << 40);
      Message m = t.newMessage().set("ids", ids).set("names", List.of("a", "b"));
      for (Model model : Model.values()) {
        byte[] bytes = m.encode(model);
        assertTrue(bytes.length > 4096); // decode reads it in place (a small input is copied onto the tape)
        assertEquals(ids, t.decode(bytes, model).get("ids"));
        View v = t.view(bytes, model);
        long[] got = v.longs("ids");
        assertEquals(1000, got.length);
        for (int i = 0; i < 1000; i++) assertEquals((long) ids.get(i), got[i]);
        assertArrayEquals(got, v.view("ids").longs());
        FbeException range = assertThrows(FbeException.class, () -> v.ints("ids"));
        assertEquals(Status.RANGE, range.status());
        assertEquals("ids[3]", range.path());
        assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> v.doubles("ids")).status());
        assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> v.longs("names")).status());
        assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> v.view("names").longs()).status());
        assertEquals(Status.TYPE, assertThrows(FbeException.class, v::longs).status()); // a struct
      }
      View small = t.view(t.newMessage().set("ids", List.of(-1L, 7L)).encode());
      assertArrayEquals(new int[] {-1, 7}, small.ints("ids"));
    }
  }

  /** The range of the caller's array is checked once, in C, with the same words for a view and a decode. */
  @Test
  void aRangeOutsideTheArrayIsRefused() {
    try (Schema s = Fixtures.proto()) {
      StructType account = s.struct("Account");
      byte[] bytes = Fixtures.account(s).encode();
      for (int[] r : new int[][] {{-1, 4}, {0, bytes.length + 1}, {bytes.length, 1}, {2, -1}, {bytes.length + 1, 0}}) {
        FbeException e = assertThrows(FbeException.class, () -> account.view(bytes, r[0], r[1], Model.STANDARD, Limits.DEFAULT));
        assertEquals(Status.ARGUMENT, e.status());
        assertEquals("offset/length out of the array's bounds", e.reason());
        FbeException d = assertThrows(FbeException.class, () -> account.decode(bytes, r[0], r[1], Model.STANDARD));
        assertEquals(Status.ARGUMENT, d.status());
        assertEquals("offset/length out of the array's bounds", d.reason());
      }
      FbeException e = assertThrows(FbeException.class, () -> account.view(null, 0, 0, Model.STANDARD, Limits.DEFAULT));
      assertEquals("data is null", e.reason());
      assertEquals("data is null", assertThrows(FbeException.class, () -> account.decode(null, 0, 0, Model.STANDARD)).reason());
      byte[] padded = new byte[bytes.length + 7];
      System.arraycopy(bytes, 0, padded, 3, bytes.length);
      assertEquals("Test", account.view(padded, 3, bytes.length, Model.STANDARD, Limits.DEFAULT).getString("name"));
      assertEquals("Test", account.decode(padded, 3, bytes.length, Model.STANDARD).getString("name"));
    }
  }

  /** One item: null for null, a view for a struct or collection, else decode's class and value. */
  private static void item(Object decoded, Object got, String path) {
    if (decoded == null) {
      assertNull(got, path);
    } else if (got instanceof View) {
      same(decoded, (View) got, path);
    } else if (decoded instanceof byte[]) {
      assertArrayEquals((byte[]) decoded, (byte[]) got, path);
    } else {
      assertEquals(decoded.getClass(), got.getClass(), path);
      if (decoded instanceof BigDecimal) assertEquals(decoded.toString(), got.toString(), path);
      else assertEquals(decoded, got, path);
    }
  }

  /** The typed getters of a present field against decode's value. */
  private static void typed(Object d, View v, Field f, String at) {
    String n = f.name();
    Kind k = f.type().kind() == Kind.OPTIONAL ? f.type().element().kind() : f.type().kind();
    switch (k) {
      case BOOL: assertEquals(d, v.getBoolean(n), at); break;
      case INT8: case INT16: case INT32: case BYTE: case UINT8: case UINT16:
        assertEquals(((Number) d).intValue(), v.getInt(n), at);
        assertEquals(((Number) d).longValue(), v.getLong(n), at);
        break;
      case CHAR: assertEquals(d, v.getChar(n), at); break;
      case UINT32: case INT64: case UINT64: case TIMESTAMP: assertEquals(d, v.getLong(n), at); break;
      case FLOAT: assertEquals(Float.floatToIntBits((Float) d), Float.floatToIntBits(v.getFloat(n)), at); break;
      case DOUBLE: assertEquals(Double.doubleToLongBits((Double) d), Double.doubleToLongBits(v.getDouble(n)), at); break;
      case DECIMAL: assertEquals(d.toString(), v.getDecimal(n).toString(), at); break;
      case UUID: assertEquals(d, v.getUuid(n), at); break;
      case STRING: assertEquals(d, v.getString(n), at); break;
      case BYTES: assertArrayEquals((byte[]) d, v.getBytes(n), at); break;
      case ENUM: case FLAGS: assertEquals(d, v.getEnum(n), at); break;
      case STRUCT:
        assertTrue(v.view(n).equals(d), at);
        assertTrue(((Message) d).sameValue(v.view(n).toMessage()), at);
        break;
      case ARRAY: case VECTOR: case LIST: case SET: case MAP: case HASH:
        assertEquals(((java.util.Collection<?>) (d instanceof Map ? ((Map<?, ?>) d).entrySet() : d)).size() <= v.count(n),
            true, at);
        assertEquals(v.view(n).count(), v.count(n), at);
        break;
      default:
        break;
    }
  }

  @Test
  void theAccountFieldByField() {
    try (Schema s = Fixtures.proto()) {
      StructType account = s.struct("Account");
      Message a = Fixtures.account(s);
      for (Model model : Model.values()) {
        View v = account.view(a.encode(model), model);
        assertEquals(1, v.getInt("id"));
        assertEquals("Test", v.getString("name"));
        assertEquals(s.enumType("State").of("good"), v.getEnum("state"));
        assertEquals("USD", v.view("wallet").getString("currency"));
        assertEquals(1000.0, v.view("wallet").getDouble("amount"));
        assertFalse(v.isNull("asset"));
        assertEquals("EUR", v.view("asset").getString("currency"));
        assertEquals(3, v.count("orders"));
        View orders = v.view("orders");
        assertEquals(Kind.VECTOR, orders.kind());
        assertEquals(1.0, orders.at(1).getDouble("price"));
        assertEquals("EURUSD", orders.at(2).getString("symbol"));
        assertEquals(s.enumType("OrderSide").of("sell"), orders.at(1).getEnum("side"));
        assertEquals(a.get("orders"), orders.toValue());
        assertTrue(v.equals(a));
        assertEquals(a.toString(), v.toString());
        assertTrue(a.sameValue((Message) v.toValue()));
        Message other = Fixtures.account(s).set("name", "Other");
        assertNotEquals(v, account.view(other.encode(model), model));
        assertFalse(v.equals(other));
        // by index: field 1 is "name"; an order's field 0 its id
        assertEquals("Test", v.getString(1));
        assertEquals(3, orders.at(2).getInt(0));
      }
    }
  }

  @Test
  void aNullOptionalReadsAsNull() {
    try (Schema s = Fixtures.proto()) {
      StructType account = s.struct("Account");
      Message a = Fixtures.account(s).set("asset", null);
      View v = account.view(a.encode());
      assertTrue(v.isNull("asset"));
      assertNull(v.view("asset"));
      assertNull(v.get("asset"));
      assertEquals(a.toJson(), v.toJson());
    }
  }

  @Test
  void wrongUseThrows() {
    try (Schema s = Fixtures.proto()) {
      View v = s.struct("Account").view(Fixtures.account(s).encode());
      assertEquals(Status.UNKNOWN_FIELD, assertThrows(FbeException.class, () -> v.getInt("nmae")).status());
      assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> v.getLong("name")).status());
      assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> v.getString("id")).status());
      assertEquals(Status.NOT_FOUND, assertThrows(FbeException.class, () -> v.view("orders").at(3)).status());
      assertEquals(Status.NOT_FOUND, assertThrows(FbeException.class, () -> v.getInt(99)).status());
      assertEquals(Status.NOT_FOUND, assertThrows(FbeException.class, () -> v.view("orders").getLong(3)).status());
      assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> v.view("orders").getString("x")).status());
      assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> v.count()).status());
      assertEquals(Status.TYPE, assertThrows(FbeException.class, () -> v.view("orders").toMessage()).status());
    }
  }

  /** The view reads its own copy: changing the array after the open changes nothing it reads. */
  @Test
  void changingTheArrayAfterTheOpenChangesNothing() {
    try (Schema s = Fixtures.proto()) {
      Message a = Fixtures.account(s);
      byte[] bytes = a.encode();
      View v = s.struct("Account").view(bytes);
      java.util.Arrays.fill(bytes, (byte) 0xFF);
      assertEquals("Test", v.getString("name"));
      assertEquals(a.toJson(), v.toJson());
      assertTrue(v.equals(a));
    }
  }

  /** A view reads on after its Schema is closed (it holds the core's schema); what needs the schema's tables throws. */
  @Test
  void aViewOutlivesItsSchemasClose() {
    Schema s = Fixtures.proto();
    Message a = Fixtures.account(s);
    String json = a.toJson();
    View v = s.struct("Account").view(a.encode());
    s.close();
    assertEquals("Test", v.getString("name"));
    assertEquals(json, v.toJson());
    assertEquals(3, v.view("orders").count());
    assertThrows(FbeException.class, v::toValue);
  }

  /** Views are immutable: many threads read one at once. */
  @Test
  void threadsShareAView() throws Exception {
    try (Schema s = Fixtures.proto()) {
      Message a = Fixtures.account(s);
      View v = s.struct("Account").view(a.encode());
      String text = a.toString();
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int k = 0; k < 4; k++) {
        Thread th = new Thread(() -> {
          try {
            for (int i = 0; i < 2000; i++) {
              if (!"EURUSD".equals(v.view("orders").at(i % 3).getString("symbol")) || !text.equals(v.toString()))
                throw new AssertionError("read a wrong value");
            }
          } catch (Throwable e) {
            failures.add(e);
          }
        });
        threads.add(th);
        th.start();
      }
      for (Thread th : threads) th.join();
      assertEquals(List.of(), failures);
    }
  }
}

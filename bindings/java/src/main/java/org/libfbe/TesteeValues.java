package org.libfbe;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The testee's {@code "native": true} encode (docs/TESTEE.md, ISSUE 20's mapping): the
 * JSON value turned into the host values a Java program would pass, by the field types,
 * and the message built through the public API ({@link StructType#newMessage()} and
 * {@link Message#set}), not fromJson, so the runner checks what users call. A JSON value
 * that does not fit its field's mapping is passed as its plain Java value (String,
 * Integer/Long/BigInteger, Double, Boolean, null, List, Map), for the binding to refuse.
 */
final class TesteeValues {
  private static final BigInteger TWO_63 = BigInteger.ONE.shiftLeft(63);
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
  private static final BigInteger TWO_32 = BigInteger.ONE.shiftLeft(32);

  private TesteeValues() {}

  /** A message of st from a JSON object: every member set by its name (unknown ones too: set refuses them). */
  static Message message(StructType st, Object json) {
    if (!(json instanceof Map)) throw new IllegalArgumentException("\"json\" must be an object for a native encode");
    Message m = st.newMessage();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) json).entrySet()) {
      String name = (String) e.getKey();
      Field f = st.byName.get(name);
      m.set(name, f == null ? plain(e.getValue()) : value(f.type(), e.getValue()));
    }
    return m;
  }

  /** The host value for a field of type t. */
  static Object value(FieldType t, Object json) {
    if (json == null) return null;
    switch (t.kind()) {
      case BYTE: case CHAR: case WCHAR: case INT8: case UINT8: case INT16: case UINT16:
      case INT32: case UINT32: case INT64: case UINT64: case TIMESTAMP:
        return integral(t.kind(), json);
      case FLOAT: case DOUBLE:
        return json instanceof Json.Num ? (Object) Double.parseDouble(json.toString()) : plain(json);
      case DECIMAL:
        if (json instanceof String) {
          try {
            BigDecimal exact = new BigDecimal((String) json);
            // a BigDecimal has no negative zero: "-0.00" goes as its text, which keeps the sign bit
            return exact.signum() == 0 && ((String) json).trim().startsWith("-") ? json : exact;
          } catch (NumberFormatException e) {
            return json;
          }
        }
        return json instanceof Json.Num ? (Object) Double.parseDouble(json.toString()) : plain(json);
      case BYTES:
        if (json instanceof String) {
          try {
            return Base64.getDecoder().decode((String) json);
          } catch (IllegalArgumentException e) {
            return json;
          }
        }
        return plain(json);
      case ENUM: case FLAGS:
        return json instanceof Json.Num ? integral(t.enumType().base(), json) : plain(json);
      case STRUCT:
        return json instanceof Map ? message(t.struct(), json) : plain(json);
      case OPTIONAL:
        return value(t.element(), json);
      case ARRAY: case VECTOR: case LIST: case SET: {
        if (!(json instanceof List)) return plain(json);
        List<Object> out = new ArrayList<>();
        for (Object o : (List<?>) json) out.add(value(t.element(), o));
        return out;
      }
      case MAP: case HASH:
        return map(t, json);
      default: // bool, string, uuid: the JSON value is the host's
        return plain(json);
    }
  }

  /** A map from a JSON object (keys converted from their text) or from pairs [[k, v], ...]. */
  private static Object map(FieldType t, Object json) {
    Map<Object, Object> out = new LinkedHashMap<>();
    if (json instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) json).entrySet())
        out.put(key(t.key(), (String) e.getKey()), value(t.element(), e.getValue()));
      return out;
    }
    if (!(json instanceof List)) return plain(json);
    for (Object pair : (List<?>) json) {
      if (!(pair instanceof List) || ((List<?>) pair).size() != 2) return plain(json);
      List<?> kv = (List<?>) pair;
      out.put(value(t.key(), kv.get(0)), value(t.element(), kv.get(1)));
    }
    return out;
  }

  /** A JSON object's key (text) as the key type's host value: numbers parsed, else the text. */
  private static Object key(FieldType t, String text) {
    Kind k = t.kind() == Kind.ENUM || t.kind() == Kind.FLAGS ? t.enumType().base() : t.kind();
    switch (k) {
      case FLOAT: case DOUBLE:
        try {
          return Double.parseDouble(text);
        } catch (NumberFormatException e) {
          return text;
        }
      case BOOL:
        return "true".equals(text) ? Boolean.TRUE : "false".equals(text) ? Boolean.FALSE : text;
      case STRING: case UUID: case DECIMAL: case BYTES:
        return value(t, text);
      default: // integer kinds, char, wchar, timestamp, enums
        return text.matches("-?[0-9]+") ? value(t, new Json.Num(text)) : text;
    }
  }

  /**
   * A JSON integer for integer kind k, in the class the binding's mapping uses: uint64 and
   * timestamp values up to 2^64-1 as a Long's 64-bit pattern, wchar up to 2^32-1 as an
   * Integer's 32 bits (what decode gives); other values as Integer, Long or BigInteger,
   * the smallest that holds them (so a negative uint64 is a BigInteger, refused).
   */
  private static Object integral(Kind k, Object json) {
    if (!(json instanceof Json.Num) || !json.toString().matches("-?[0-9]+")) return plain(json);
    BigInteger b = new BigInteger(json.toString());
    if ((k == Kind.UINT64 || k == Kind.TIMESTAMP) && b.signum() >= 0 && b.compareTo(TWO_64) < 0
        && b.compareTo(TWO_63) >= 0)
      return b.longValue();
    if (k == Kind.WCHAR && b.signum() >= 0 && b.compareTo(TWO_32) < 0) return (int) b.longValue();
    if (k == Kind.WCHAR && b.signum() < 0) return b.bitLength() <= 63 ? (Object) b.longValue() : b;
    return smallest(b);
  }

  private static Object smallest(BigInteger b) {
    if (b.bitLength() <= 31) return b.intValue();
    if (b.bitLength() <= 63) return b.longValue();
    return b;
  }

  /** The plain Java value of a JSON value. */
  static Object plain(Object json) {
    if (json instanceof Json.Num) {
      String text = json.toString();
      return text.matches("-?[0-9]+") ? smallest(new BigInteger(text)) : (Object) Double.parseDouble(text);
    }
    if (json instanceof List) {
      List<Object> out = new ArrayList<>();
      for (Object o : (List<?>) json) out.add(plain(o));
      return out;
    }
    if (json instanceof Map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) json).entrySet()) out.put(e.getKey(), plain(e.getValue()));
      return out;
    }
    return json; // String, Boolean, null
  }
}

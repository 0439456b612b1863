package org.libfbe;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The Java form of every schema type, and the check Message.set applies: a value is
 * accepted when it converts exactly to the field's type, and stored in its canonical
 * class (the one decode gives):
 *
 * <pre>
 * bool Boolean | int8 Byte | int16, byte, uint8 Short | int32, uint16 Integer |
 * int64, uint32 Long | uint64 Long (the 64 bits; values over 2^63-1 read negative:
 * use Long.toUnsignedString) | char Character | wchar Integer (code point) |
 * float Float | double Double | decimal BigDecimal | timestamp Long (ns since the epoch) |
 * uuid UUID | string String | bytes byte[] | enum, flags EnumValue | struct Message |
 * T? null or T | T[N] List (N items) | T[], list List | set Set | map, hash Map
 * </pre>
 */
final class Values {
  private Values() {}

  static FbeException typeError(FieldType t, Object v) {
    return new FbeException(Status.TYPE, "expected " + t + ", got "
        + (v == null ? "null" : v.getClass().getName()));
  }

  static FbeException rangeError(Object v, String what) {
    return new FbeException(Status.RANGE, "value " + v + " does not fit " + what);
  }

  private static int bits(Kind k) {
    switch (k) {
      case BOOL: return 1;
      case BYTE: case CHAR: case INT8: case UINT8: return 8;
      case INT16: case UINT16: return 16;
      case WCHAR: case INT32: case UINT32: return 32;
      default: return 64;
    }
  }

  private static boolean signed(Kind k) {
    return k == Kind.INT8 || k == Kind.INT16 || k == Kind.INT32 || k == Kind.INT64 || k == Kind.TIMESTAMP;
  }

  /** Range check of an integer pattern for kind k (uint64: any long is its bit pattern). */
  static void checkInteger(Kind k, long x, String what) {
    int b = bits(k);
    if (b == 64 || k == Kind.WCHAR && x >= Integer.MIN_VALUE && x <= 0xFFFFFFFFL) return;
    boolean ok = signed(k) ? x >= -(1L << (b - 1)) && x < (1L << (b - 1)) : x >= 0 && (x >>> b) == 0;
    if (!ok) throw rangeError(x, what);
  }

  /** An integral value as a long (BigInteger only for uint64 up to 2^64-1). */
  private static long integral(FieldType t, Object v) {
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)
      return ((Number) v).longValue();
    if (v instanceof Character && (t.kind() == Kind.CHAR || t.kind() == Kind.WCHAR)) return (Character) v;
    if (v instanceof BigInteger) {
      BigInteger b = (BigInteger) v;
      if (t.kind() == Kind.UINT64 && b.signum() >= 0 && b.bitLength() <= 64) return b.longValue();
      if (b.bitLength() <= 63) return b.longValue();
      throw rangeError(v, t.toString());
    }
    if (v instanceof Instant && t.kind() == Kind.TIMESTAMP) {
      Instant i = (Instant) v;
      try {
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
      } catch (ArithmeticException e) {
        throw rangeError(v, "timestamp (int64 nanoseconds)");
      }
    }
    throw typeError(t, v);
  }

  private static Object integer(FieldType t, Object v) {
    long x = integral(t, v);
    Kind k = t.kind();
    if (k == Kind.UINT64 && x < 0 && !(v instanceof Long) && !(v instanceof BigInteger)) throw rangeError(v, "uint64");
    checkInteger(k, x, k.schemaName());
    switch (k) {
      case INT8: return (byte) x;
      case INT16: case BYTE: case UINT8: return (short) x;
      case INT32: case UINT16: case WCHAR: return (int) x;
      case CHAR: return (char) x;
      default: return x;
    }
  }

  /** The canonical form of v for type t; throws FbeException (TYPE or RANGE). */
  static Object check(FieldType t, Object v) {
    if (v == null) {
      if (t.kind() == Kind.OPTIONAL) return null;
      throw typeError(t, null);
    }
    switch (t.kind()) {
      case BOOL:
        if (v instanceof Boolean) return v;
        throw typeError(t, v);
      case BYTE: case CHAR: case WCHAR: case INT8: case UINT8: case INT16: case UINT16:
      case INT32: case UINT32: case INT64: case UINT64: case TIMESTAMP:
        return integer(t, v);
      case FLOAT:
        if (v instanceof Float) return v;
        if (v instanceof Double || v instanceof Integer || v instanceof Short || v instanceof Byte) {
          double d = ((Number) v).doubleValue();
          float f = (float) d;
          if (Float.isInfinite(f) && !Double.isInfinite(d)) throw rangeError(v, "float");
          return f;
        }
        throw typeError(t, v);
      case DOUBLE:
        if (v instanceof Double) return v;
        if (v instanceof Float || v instanceof Integer || v instanceof Short || v instanceof Byte)
          return ((Number) v).doubleValue();
        if (v instanceof Long && Math.abs((Long) v) <= (1L << 53)) return ((Long) v).doubleValue();
        throw typeError(t, v);
      case DECIMAL:
        if (v instanceof BigDecimal) return v;
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)
          return BigDecimal.valueOf(((Number) v).longValue());
        if (v instanceof BigInteger) return new BigDecimal((BigInteger) v);
        if (v instanceof String) {
          try {
            return NegativeZero.parse((String) v);
          } catch (NumberFormatException e) {
            throw new FbeException(Status.TYPE, "'" + v + "' is not a decimal number");
          }
        }
        throw typeError(t, v);
      case UUID:
        if (v instanceof UUID) return v;
        if (v instanceof String) {
          try {
            return UUID.fromString((String) v);
          } catch (IllegalArgumentException e) {
            throw new FbeException(Status.TYPE, "'" + v + "' is not a uuid");
          }
        }
        throw typeError(t, v);
      case STRING:
        if (v instanceof String) return v;
        throw typeError(t, v);
      case BYTES:
        if (v instanceof byte[]) return v;
        throw typeError(t, v);
      case ENUM: case FLAGS:
        return enumValue(t, v);
      case STRUCT:
        if (v instanceof Message && ((Message) v).type == t.struct()) return v;
        if (v instanceof Map) {
          @SuppressWarnings("unchecked")
          Map<String, ?> m = (Map<String, ?>) v;
          return t.struct().fromMap(m);
        }
        throw typeError(t, v);
      case OPTIONAL:
        return check(t.element(), v);
      case ARRAY: case VECTOR: case LIST: {
        Collection<?> items = items(t, v);
        if (t.kind() == Kind.ARRAY && items.size() != t.arraySize())
          throw new FbeException(Status.RANGE, "array of " + t.arraySize() + " items, got " + items.size());
        List<Object> out = new ArrayList<>(items.size());
        int i = 0;
        for (Object item : items) out.add(under("[" + i++ + "]", () -> check(t.element(), item)));
        return out;
      }
      case SET: {
        Collection<?> items = items(t, v);
        Set<Object> out = new LinkedHashSet<>();
        int i = 0;
        for (Object item : items) out.add(under("[" + i++ + "]", () -> check(t.element(), item)));
        return out;
      }
      case MAP: case HASH: {
        if (!(v instanceof Map)) throw typeError(t, v);
        Map<Object, Object> out = new LinkedHashMap<>();
        int i = 0;
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          String at = "[" + i++ + "]";
          Object k = under(at + "[key]", () -> check(t.key(), e.getKey()));
          out.put(k, under(at, () -> check(t.element(), e.getValue())));
        }
        return out;
      }
      default:
        throw typeError(t, v);
    }
  }

  private static Collection<?> items(FieldType t, Object v) {
    if (v instanceof Collection) return (Collection<?>) v;
    if (v instanceof Object[]) return Arrays.asList((Object[]) v);
    throw typeError(t, v);
  }

  private static EnumValue enumValue(FieldType t, Object v) {
    EnumType e = t.enumType();
    if (v instanceof EnumValue) {
      if (((EnumValue) v).type == e) return (EnumValue) v;
      throw new FbeException(Status.TYPE, "expected a value of " + e.fullName() + ", got one of "
          + ((EnumValue) v).type.fullName());
    }
    if (v instanceof String) return e.of((String) v);
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)
      return e.of(((Number) v).longValue());
    throw typeError(t, v);
  }

  static <T> T under(String part, java.util.function.Supplier<T> f) {
    try {
      return f.get();
    } catch (FbeException e) {
      throw e.under(part);
    }
  }

  /** Plain Java form: messages as maps (recursively); other values as they are. */
  static Object plain(Object v) {
    if (v instanceof Message) return ((Message) v).toMap();
    if (v instanceof List) {
      List<Object> out = new ArrayList<>();
      for (Object o : (List<?>) v) out.add(plain(o));
      return out;
    }
    if (v instanceof Set) {
      Set<Object> out = new LinkedHashSet<>();
      for (Object o : (Set<?>) v) out.add(plain(o));
      return out;
    }
    if (v instanceof Map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) out.put(plain(e.getKey()), plain(e.getValue()));
      return out;
    }
    return v;
  }

  /** Deep equality: floats by value bits (Double.equals), decimals by value, bytes by content. */
  static boolean equal(Object a, Object b) {
    if (a == b) return true;
    if (a == null || b == null) return false;
    if (a instanceof BigDecimal && b instanceof BigDecimal) return ((BigDecimal) a).compareTo((BigDecimal) b) == 0;
    if (a instanceof byte[] && b instanceof byte[]) return Arrays.equals((byte[]) a, (byte[]) b);
    if (a instanceof List && b instanceof List) {
      List<?> x = (List<?>) a, y = (List<?>) b;
      if (x.size() != y.size()) return false;
      for (int i = 0; i < x.size(); i++) if (!equal(x.get(i), y.get(i))) return false;
      return true;
    }
    if (a instanceof Map && b instanceof Map) {
      Map<?, ?> x = (Map<?, ?>) a, y = (Map<?, ?>) b;
      if (x.size() != y.size()) return false;
      for (Map.Entry<?, ?> e : x.entrySet()) {
        if (!y.containsKey(e.getKey()) || !equal(e.getValue(), y.get(e.getKey()))) return false;
      }
      return true;
    }
    return a.equals(b);
  }

  static int hash(Object v) {
    if (v instanceof BigDecimal) return Double.hashCode(((BigDecimal) v).doubleValue());
    if (v instanceof byte[]) return Arrays.hashCode((byte[]) v);
    if (v instanceof List) {
      int h = 1;
      for (Object o : (List<?>) v) h = 31 * h + hash(o);
      return h;
    }
    return v == null ? 0 : v.hashCode();
  }

  /** The reference's text form of a value inside toString(). */
  static void text(StringBuilder b, Object v) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof String) {
      b.append('"').append(v).append('"');
    } else if (v instanceof byte[]) {
      b.append("bytes[").append(((byte[]) v).length).append(']');
    } else if (v instanceof Character) {
      b.append('\'').append(v).append('\'');
    } else if (v instanceof Collection) {
      b.append('[').append(((Collection<?>) v).size()).append("][");
      String sep = "";
      for (Object o : (Collection<?>) v) {
        b.append(sep);
        text(b, o);
        sep = ",";
      }
      b.append(']');
    } else if (v instanceof Map) {
      b.append('[').append(((Map<?, ?>) v).size()).append("]<{");
      String sep = "";
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        b.append(sep);
        text(b, e.getKey());
        b.append("->");
        text(b, e.getValue());
        sep = ",";
      }
      b.append("}>");
    } else {
      b.append(v);
    }
  }
}

package org.libfbe;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
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
import java.util.function.Supplier;
import org.libfbe.internal.Walk;

/**
 * The input table (docs/INPUT.md) for Java: what Message.set, fromMap and encode accept
 * for each schema type, converted to the field's canonical class (the one decode gives):
 *
 * <pre>
 * bool Boolean | int8 Byte | int16, byte, uint8 Short | int32, uint16 Integer |
 * int64, uint32 Long | uint64 Long (the 64 bits; values over 2^63-1 read negative:
 * use Long.toUnsignedString) | char Character | wchar Integer (code point) |
 * float Float | double Double | decimal BigDecimal | timestamp Long (ns since the epoch) |
 * uuid UUID | string String | bytes byte[] | enum, flags EnumValue | struct Message |
 * T? null or T | T[N] List (N items) | T[], list List | set Set | map, hash Map
 * </pre>
 *
 * What it refuses, the core words: Java only says what it was given ({@link #got}) and
 * which text or number was wrong, and the core (fbe/internal/input.h, through Walk)
 * writes the message and picks the status, the same in every language. Texts of a
 * kind (uuid, decimal, enum and flags names) are judged by the core too.
 */
final class Values {
  private Values() {}

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
  private static final BigInteger NS = BigInteger.valueOf(1_000_000_000L);

  static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------ the core's words

  /** What kind of host value v is, in the core's words (fbei_got). */
  static int got(Object v) {
    if (v == null) return Got.NULL;
    if (v instanceof Boolean) return Got.BOOL;
    if (isIntegral(v)) return Got.INTEGER;
    if (v instanceof Double || v instanceof Float) return Got.FLOAT;
    if (v instanceof String) return Got.STRING;
    if (v instanceof byte[]) return Got.BYTES;
    if (v instanceof Set) return Got.SET;
    if (v instanceof Collection || v instanceof Object[]) return Got.LIST;
    if (v instanceof Map) return Got.MAP;
    if (v instanceof Message) return Got.STRUCT;
    if (v instanceof EnumValue) return Got.ENUM;
    if (v instanceof Instant) return Got.TIME;
    if (v instanceof UUID) return Got.UUID;
    if (v instanceof BigDecimal) return Got.DECIMAL;
    return Got.OTHER;
  }

  /** The name the core's words take with {@link #got}: a struct's or enum's full name, a class's. */
  static String gotName(Object v) {
    if (v instanceof Message) return ((Message) v).type.fullName();
    if (v instanceof EnumValue) return ((EnumValue) v).type.fullName();
    return got(v) == Got.OTHER ? v.getClass().getName() : null;
  }

  /** TYPE: "expected W, got G" for a value of field type t (W: the type named, see check). */
  static FbeException typeError(FieldType t, Object v) {
    t.schema.enter(); // the core's fbe_type lives as long as the schema is open
    try {
      return Walk.typeError(t.ptr, got(v), utf8(gotName(v)));
    } finally {
      t.schema.exit();
    }
  }

  /** RANGE: "value -1 does not fit uint32" for an integer x (signed). */
  static FbeException intRange(Kind k, long x) {
    return Walk.intRange(k.ordinal(), x < 0, x < 0 ? -x : x); // -Long.MIN_VALUE: 2^63 unsigned
  }

  static FbeException bigRange(Kind k, BigInteger b) {
    return b.bitLength() <= 63 ? intRange(k, b.longValue()) : Walk.numberRange(k.ordinal(), utf8(b.toString()));
  }

  static <T> T under(String part, Supplier<T> f) {
    try {
      return f.get();
    } catch (FbeException e) {
      throw e.under(part);
    }
  }

  // ------------------------------------------------------------------ integers

  static boolean isIntegral(Object v) {
    return v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte
        || v instanceof BigInteger;
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
    return k == Kind.INT8 || k == Kind.INT16 || k == Kind.INT32 || k == Kind.INT64;
  }

  /** uint64 and timestamp: a Long is their 64-bit pattern (what decode gives). */
  private static boolean patterned(Kind k) {
    return k == Kind.UINT64 || k == Kind.TIMESTAMP;
  }

  /** x fits kind k (64-bit unsigned kinds: any pattern; the caller judged the sign). */
  static boolean fits(Kind k, long x) {
    int b = bits(k);
    if (b == 64) return signed(k) || patterned(k) || x >= 0;
    return signed(k) ? x >= -(1L << (b - 1)) && x < (1L << (b - 1)) : x >= 0 && (x >>> b) == 0;
  }

  /**
   * v as the long a field of integer kind k stores: the 64-bit pattern for uint64 and
   * timestamp (from a Long, or a BigInteger up to 2^64-1), an Integer's 32 bits for
   * wchar (decode's form of a code point), else the number. RANGE when it does not fit;
   * TYPE (naming `named`) when v is not an integer.
   */
  static long integral(Kind k, Object v, FieldType named) {
    long x;
    if (v instanceof Long) {
      x = (Long) v;
      if (patterned(k) || k == Kind.INT64) return x;
    } else if (v instanceof Integer) {
      x = k == Kind.WCHAR ? Integer.toUnsignedLong((Integer) v) : (Integer) v;
    } else if (v instanceof Short || v instanceof Byte) {
      x = ((Number) v).longValue();
    } else if (v instanceof Character && (k == Kind.CHAR || k == Kind.WCHAR)) {
      x = (Character) v;
    } else if (v instanceof BigInteger) {
      BigInteger b = (BigInteger) v;
      if (b.bitLength() <= 63) {
        x = b.longValue();
      } else if (patterned(k) && b.signum() > 0 && b.bitLength() == 64) {
        return b.longValue();
      } else {
        throw bigRange(k, b);
      }
    } else {
      throw typeError(named, v);
    }
    if ((x < 0 && patterned(k)) || !fits(k, x)) throw intRange(k, x);
    return x;
  }

  private static Object integer(FieldType t, Object v, FieldType named) {
    Kind k = t.kind();
    long x;
    if (k == Kind.TIMESTAMP && v instanceof Instant) {
      x = nanoseconds((Instant) v);
    } else if ((k == Kind.CHAR || k == Kind.WCHAR) && v instanceof String) {
      x = character(k, (String) v);
    } else {
      x = integral(k, v, named);
    }
    switch (k) {
      case INT8: return (byte) x;
      case INT16: case BYTE: case UINT8: return (short) x;
      case INT32: case UINT16: case WCHAR: return (int) x;
      case CHAR: return (char) x;
      default: return x;
    }
  }

  /** An Instant as timestamp nanoseconds (the 64-bit pattern): RANGE before 1970 or past 2^64 ns. */
  private static long nanoseconds(Instant i) {
    BigInteger ns = BigInteger.valueOf(i.getEpochSecond()).multiply(NS).add(BigInteger.valueOf(i.getNano()));
    if (ns.signum() < 0 || ns.compareTo(TWO_64) >= 0) throw bigRange(Kind.TIMESTAMP, ns);
    return ns.longValue();
  }

  /** A one-character String as its code: ARGUMENT for another length, RANGE past char's 255. */
  private static long character(Kind k, String s) {
    if (s.codePointCount(0, s.length()) != 1) throw Walk.badText(k.ordinal(), utf8(s));
    int cp = s.codePointAt(0);
    if (!fits(k, cp)) throw intRange(k, cp);
    return cp;
  }

  // ------------------------------------------------------------------ the table

  /** The canonical form of v for type t; throws FbeException (TYPE, RANGE, ARGUMENT, UNKNOWN_FIELD). */
  static Object check(FieldType t, Object v) {
    return check(t, v, t);
  }

  /**
   * The canonical form of v for type t. `named` is the type a TYPE error names: t itself,
   * or the optional around it ("int32 or null").
   */
  private static Object check(FieldType t, Object v, FieldType named) {
    if (v == null) {
      if (t.kind() == Kind.OPTIONAL) return null;
      throw typeError(named, null);
    }
    switch (t.kind()) {
      case BOOL:
        if (v instanceof Boolean) return v;
        throw typeError(named, v);
      case BYTE: case CHAR: case WCHAR: case INT8: case UINT8: case INT16: case UINT16:
      case INT32: case UINT32: case INT64: case UINT64: case TIMESTAMP:
        return integer(t, v, named);
      case FLOAT:
        if (v instanceof Float) return v;
        if (v instanceof Double) {
          double d = (Double) v;
          float f = (float) d;
          if (Float.isInfinite(f) && !Double.isInfinite(d)) throw Walk.doubleRange(Kind.FLOAT.ordinal(), d);
          return f;
        }
        if (v instanceof BigInteger) {
          float f = ((BigInteger) v).floatValue();
          if (Float.isInfinite(f)) throw bigRange(Kind.FLOAT, (BigInteger) v);
          return f;
        }
        if (isIntegral(v)) return ((Number) v).floatValue();
        throw typeError(named, v);
      case DOUBLE:
        if (v instanceof Double) return v;
        if (v instanceof Float) return ((Float) v).doubleValue();
        if (v instanceof BigInteger) {
          double d = ((BigInteger) v).doubleValue();
          if (Double.isInfinite(d)) throw bigRange(Kind.DOUBLE, (BigInteger) v);
          return d;
        }
        if (isIntegral(v)) return ((Number) v).doubleValue();
        throw typeError(named, v);
      case DECIMAL:
        if (v instanceof BigDecimal) return v; // its 96-bit range: the core's, at encode
        if (v instanceof BigInteger) return new BigDecimal((BigInteger) v);
        if (isIntegral(v)) return BigDecimal.valueOf(((Number) v).longValue());
        if (v instanceof String)
          return NegativeZero.parse(new String(Walk.decimalParse(utf8((String) v)), StandardCharsets.ISO_8859_1));
        throw typeError(named, v); // a Double or Float too: binary floats are not exact
      case UUID:
        if (v instanceof UUID) return v;
        if (v instanceof String) {
          long[] halves = Walk.uuidParse(utf8((String) v));
          return new UUID(halves[0], halves[1]);
        }
        throw typeError(named, v);
      case STRING:
        if (v instanceof String) return v; // not UTF-8 (a lone surrogate): the core's, at encode
        throw typeError(named, v);
      case BYTES:
        if (v instanceof byte[]) return v;
        throw typeError(named, v);
      case ENUM: case FLAGS:
        return enumValue(t, v, named);
      case STRUCT:
        if (v instanceof Message && ((Message) v).type.isA(t.struct())) return v;
        if (v instanceof Map) return t.struct().fromAnyMap((Map<?, ?>) v);
        throw typeError(named, v);
      case OPTIONAL:
        return check(t.element(), v, t);
      case ARRAY: case VECTOR: case LIST: {
        Collection<?> items = sequence(v, named);
        if (t.kind() == Kind.ARRAY && items.size() != t.arraySize()) throw Walk.arrayLength(t.ptr, items.size());
        List<Object> out = new ArrayList<>(items.size());
        int i = 0;
        for (Object item : items) out.add(under("[" + i++ + "]", () -> check(t.element(), item)));
        return out;
      }
      case SET: {
        Collection<?> items = v instanceof Set ? (Set<?>) v : sequence(v, named);
        // equal items collapse: the last one wins, in the first one's place (docs/INPUT.md)
        Map<Object, Object> seen = new LinkedHashMap<>();
        int i = 0;
        for (Object item : items) {
          Object c = under("[" + i++ + "]", () -> check(t.element(), item));
          seen.put(c, c);
        }
        return new LinkedHashSet<>(seen.values());
      }
      case MAP: case HASH: {
        if (!(v instanceof Map)) throw typeError(named, v);
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
        throw typeError(named, v);
    }
  }

  /** A list for a sequence or an array: a List, an Object[], any Collection but a Set. */
  private static Collection<?> sequence(Object v, FieldType named) {
    if (v instanceof Collection && !(v instanceof Set)) return (Collection<?>) v;
    if (v instanceof Object[]) return Arrays.asList((Object[]) v);
    throw typeError(named, v);
  }

  private static EnumValue enumValue(FieldType t, Object v, FieldType named) {
    EnumType e = t.enumType();
    if (v instanceof EnumValue && ((EnumValue) v).type == e) return (EnumValue) v;
    if (v instanceof String) return e.of((String) v);
    if (isIntegral(v)) return e.of(integral(e.base(), v, named));
    throw typeError(named, v); // a member of another enum: "got an enum proto.OrderType"
  }

  // ------------------------------------------------------------------ out

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
}

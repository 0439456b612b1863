package org.libfbe;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import java.util.UUID;
import org.libfbe.internal.Walk;

/**
 * How a message crosses between Java and C: flattened depth-first in schema field order
 * onto a long[] of slots and a byte[] of string/bytes contents (the core's tape,
 * core/include/fbe/internal/tape.h, in its FBE_TAPE_INT64 format), handed to C in ONE
 * native call. A JNI call costs 10-20 ns and a slot here about one, so Java does the
 * per-value work: {@link #putMessage} type-checks and range-checks each value as it
 * writes it (an error carries the value's path), and {@link #getMessage} builds
 * Messages from what C wrote. One tape per thread, reused; a nested use (a Map
 * converted to a Message while flattening, a receiver's handler) gets a fresh one.
 */
final class Tape {
  private static final ThreadLocal<Tape> LOCAL = ThreadLocal.withInitial(Tape::new);
  private static final int MAX_DEPTH = 256; // the core's FBE_DEFAULT_MAX_DEPTH, its rule: optionals and collections

  // Kind ordinals as constants: an int switch (a switch on the enum reads a table first).
  private static final int K_BOOL = 0, K_BYTE = 1, K_CHAR = 2, K_WCHAR = 3, K_INT8 = 4, K_UINT8 = 5,
      K_INT16 = 6, K_UINT16 = 7, K_INT32 = 8, K_UINT32 = 9, K_INT64 = 10, K_UINT64 = 11, K_FLOAT = 12,
      K_DOUBLE = 13, K_DECIMAL = 14, K_TIMESTAMP = 15, K_UUID = 16, K_STRING = 17, K_BYTES = 18,
      K_ENUM = 19, K_FLAGS = 20, K_STRUCT = 21, K_OPTIONAL = 22, K_ARRAY = 23, K_VECTOR = 24,
      K_LIST = 25, K_SET = 26, K_MAP = 27, K_HASH = 28;

  static {
    Kind[] all = Kind.values();
    if (all.length != K_HASH + 1 || all[K_TIMESTAMP] != Kind.TIMESTAMP || all[K_STRUCT] != Kind.STRUCT)
      throw new AssertionError("Kind and Tape disagree");
  }

  long[] num;
  byte[] bytes;
  private int n, p, depth;
  private boolean busy;

  private Tape() {
    this(new long[256], new byte[1024]);
  }

  /** A tape over arrays C wrote (a received message). */
  Tape(long[] num, byte[] bytes) {
    this.num = num;
    this.bytes = bytes;
  }

  static Tape acquire() {
    Tape t = LOCAL.get();
    if (t.busy) t = new Tape();
    t.busy = true;
    t.n = t.p = t.depth = 0;
    return t;
  }

  void release() {
    busy = false;
    if (num.length > (1 << 17)) num = new long[256]; // don't keep huge tapes
    if (bytes.length > (1 << 20)) bytes = new byte[1024];
  }

  /** C said the value needs (slots << 32 | bytes): bigger arrays (their content is redone). */
  void grow(long need) {
    int slots = (int) (need >>> 32), size = (int) need;
    if (slots > num.length) num = new long[Math.max(slots, Math.min(num.length * 2, Integer.MAX_VALUE - 8))];
    if (size > bytes.length) bytes = new byte[Math.max(size, Math.min(bytes.length * 2, Integer.MAX_VALUE - 8))];
  }

  /** Back to the start, for reading what C wrote. */
  void rewind() {
    n = p = 0;
  }

  // ------------------------------------------------------------------ Java -> tape

  void putMessage(Message m) {
    putStruct(m.type, m);
  }

  private void slot(long x) {
    if (n == num.length) num = Arrays.copyOf(num, grown(num.length, n + 1));
    num[n++] = x;
  }

  private void room(long more) {
    if (p + more > bytes.length) bytes = Arrays.copyOf(bytes, grown(bytes.length, p + more));
  }

  private static int grown(int have, long need) {
    if (need > Integer.MAX_VALUE - 8)
      throw new FbeException(Status.LIMIT, "the value is larger than a Java array");
    return (int) Math.max(need, Math.min((long) have * 2, Integer.MAX_VALUE - 8));
  }

  private void putStruct(StructType st, Message m) {
    FieldType[] types = st.types;
    Object[] values = m.values;
    if (values.length < types.length) // a derived struct's message has st's fields first, then its own
      throw new FbeException(Status.ARGUMENT, "message of " + st.fullName() + " has a broken field table");
    for (int i = 0; i < types.length; i++) {
      FieldType t = types[i];
      Object v = values[i];
      try {
        switch (t.code) { // the commonest canonical cases here, without a call
          case K_INT32:
            if (v instanceof Integer) {
              slot((Integer) v);
              continue;
            }
            break;
          case K_INT64: case K_UINT64: case K_TIMESTAMP:
            if (v instanceof Long) {
              slot((Long) v);
              continue;
            }
            break;
          case K_DOUBLE:
            if (v instanceof Double) {
              slot(Double.doubleToRawLongBits((Double) v));
              continue;
            }
            break;
          case K_STRING:
            if (v instanceof String) {
              putUtf8((String) v);
              continue;
            }
            break;
          case K_ENUM: case K_FLAGS:
            if (v instanceof EnumValue && ((EnumValue) v).type == t.enumType()) {
              slot(((EnumValue) v).value);
              continue;
            }
            break;
          default:
            break;
        }
        put(t, v, t);
      } catch (FbeException e) {
        throw e.under(st.names[i]);
      }
    }
  }

  private void deeper() {
    if (++depth > MAX_DEPTH) throw Walk.tooDeep(); // the core's error, before Java's stack runs out
  }

  /**
   * Writes v as a value of t. Canonical values (the classes decode gives) take the fast
   * path; anything else goes once through Values.check(convert, v) (convert: t, or the
   * optional around it; null: v was converted already), which converts what set() would
   * accept and throws the input table's errors for the rest.
   */
  private void put(FieldType t, Object v, FieldType convert) {
    switch (t.code) {
      case K_BOOL:
        if (v instanceof Boolean) {
          slot((Boolean) v ? 1 : 0);
          return;
        }
        break;
      case K_BYTE: case K_CHAR: case K_WCHAR: case K_INT8: case K_UINT8: case K_INT16: case K_UINT16:
      case K_INT32: case K_UINT32: case K_INT64: case K_UINT64: case K_TIMESTAMP: {
        long x;
        if (v instanceof Integer) x = t.code == K_WCHAR ? Integer.toUnsignedLong((Integer) v) : (Integer) v;
        else if (v instanceof Long) x = (Long) v;
        else if (v instanceof Short) x = (Short) v;
        else if (v instanceof Byte) x = (Byte) v;
        else if (v instanceof Character && (t.code == K_CHAR || t.code == K_WCHAR)) x = (Character) v;
        else break;
        // uint64 and timestamp: only a Long carries the 64-bit pattern; Values.check says RANGE
        if (x < t.min || x > t.max || (x < 0 && (t.code == K_UINT64 || t.code == K_TIMESTAMP) && !(v instanceof Long)))
          break;
        slot(x);
        return;
      }
      case K_FLOAT:
        if (v instanceof Float) {
          slot(Float.floatToRawIntBits((Float) v));
          return;
        }
        break;
      case K_DOUBLE:
        if (v instanceof Double) {
          slot(Double.doubleToRawLongBits((Double) v));
          return;
        }
        break;
      case K_DECIMAL:
        if (v instanceof BigDecimal) {
          putAscii(v.toString()); // C parses it and judges the 96-bit range
          return;
        }
        break;
      case K_UUID:
        if (v instanceof UUID) {
          slot(((UUID) v).getMostSignificantBits());
          slot(((UUID) v).getLeastSignificantBits());
          return;
        }
        break;
      case K_STRING:
        if (v instanceof String) {
          putUtf8((String) v);
          return;
        }
        break;
      case K_BYTES:
        if (v instanceof byte[]) {
          byte[] b = (byte[]) v;
          room(b.length);
          System.arraycopy(b, 0, bytes, p, b.length);
          p += b.length;
          slot(b.length);
          return;
        }
        break;
      case K_ENUM: case K_FLAGS:
        if (v instanceof EnumValue && ((EnumValue) v).type == t.enumType()) {
          slot(((EnumValue) v).value);
          return;
        }
        break;
      case K_STRUCT: // not a level: the core counts optionals and collections only
        if (v instanceof Message && (((Message) v).type == t.struct() || ((Message) v).type.isA(t.struct()))) {
          putStruct(t.struct(), (Message) v); // a derived struct's message: its base fields
          return;
        }
        break;
      case K_OPTIONAL:
        if (v == null) {
          slot(0);
          return;
        }
        deeper();
        slot(1);
        put(t.element(), v, t); // a value to convert: as the optional's ("int32 or null")
        depth--;
        return;
      case K_ARRAY: case K_VECTOR: case K_LIST: case K_SET: // a set takes a Set, the others a List
        if ((t.code == K_SET ? v instanceof Set : v instanceof List)
            && (t.code != K_ARRAY || ((Collection<?>) v).size() == t.arraySize())) {
          int level = t.code == K_ARRAY ? 0 : 1; // an array is not a level (the core's rule)
          if (level == 1) deeper();
          putItems(t, (Collection<?>) v);
          depth -= level;
          return;
        }
        break;
      case K_MAP: case K_HASH:
        if (v instanceof Map) {
          deeper();
          putMap(t, (Map<?, ?>) v);
          depth--;
          return;
        }
        break;
      default:
        break;
    }
    if (convert == null) throw Values.typeError(t, v);
    put(t, Values.check(convert, v), null); // throws the input table's error when v does not fit
  }

  private void putItems(FieldType t, Collection<?> items) {
    FieldType e = t.element();
    int size = items.size(), i = 0;
    if (t.code != K_ARRAY) slot(size);
    try {
      if (items instanceof List && items instanceof RandomAccess) {
        List<?> list = (List<?>) items;
        for (; i < size; i++) put(e, list.get(i), e);
      } else {
        for (Iterator<?> it = items.iterator(); it.hasNext(); i++) {
          if (i == size) throw new ConcurrentModificationException();
          put(e, it.next(), e);
        }
        if (i != size) throw new ConcurrentModificationException();
      }
    } catch (FbeException ex) {
      throw ex.under("[" + i + "]");
    }
  }

  private void putMap(FieldType t, Map<?, ?> map) {
    int size = map.size(), i = 0;
    slot(size);
    for (Map.Entry<?, ?> en : map.entrySet()) {
      if (i == size) throw new ConcurrentModificationException();
      try {
        put(t.key(), en.getKey(), t.key());
      } catch (FbeException ex) {
        throw ex.under("[key]").under("[" + i + "]");
      }
      try {
        put(t.element(), en.getValue(), t.element());
      } catch (FbeException ex) {
        throw ex.under("[" + i + "]");
      }
      i++;
    }
    if (i != size) throw new ConcurrentModificationException();
  }

  private void putAscii(String s) {
    int len = s.length();
    room(len);
    for (int i = 0; i < len; i++) bytes[p + i] = (byte) s.charAt(i);
    p += len;
    slot(len);
  }

  /**
   * UTF-8 by hand: the JDK's encoder replaces an unpaired surrogate with '?'. Here it goes
   * on the tape as its 3 bytes (ED A0 80 for U+D800), which the core's check refuses with
   * the words every binding uses.
   */
  private void putUtf8(String s) {
    room(3L * s.length());
    int o = utf8(s, bytes, p);
    slot(o - p);
    p = o;
  }

  /** s as UTF-8 the same way (a lone surrogate as its 3 bytes, for the core to refuse). */
  static byte[] utf8(String s) {
    byte[] b = new byte[3 * s.length()];
    return Arrays.copyOf(b, utf8(s, b, 0));
  }

  /** Writes s at b[o..] (room for 3 bytes a char); returns the end. */
  private static int utf8(String s, byte[] b, int o) {
    int len = s.length(), i = 0;
    for (; i < len; i++) { // ASCII, the common case
      char c = s.charAt(i);
      if (c >= 0x80) break;
      b[o++] = (byte) c;
    }
    for (; i < len; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        b[o++] = (byte) c;
      } else if (c < 0x800) {
        b[o++] = (byte) (0xC0 | c >> 6);
        b[o++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(i + 1));
        i++;
        b[o++] = (byte) (0xF0 | cp >> 18);
        b[o++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        b[o++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        b[o++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        b[o++] = (byte) (0xE0 | c >> 12);
        b[o++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[o++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return o;
  }

  // ------------------------------------------------------------------ tape -> Java

  /** A message of st from the tape C wrote (values already canonical: no checks). */
  Message getMessage(StructType st) {
    FieldType[] types = st.types;
    Object[] values = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      FieldType t = types[i];
      switch (t.code) { // the commonest cases here, without a call
        case K_INT32: values[i] = (int) num[n++]; break;
        case K_INT64: case K_UINT64: case K_TIMESTAMP: values[i] = num[n++]; break;
        case K_DOUBLE: values[i] = Double.longBitsToDouble(num[n++]); break;
        case K_STRING: values[i] = getString(); break;
        default: values[i] = get(t); break;
      }
    }
    return new Message(st, values);
  }

  private String getString() {
    int len = (int) num[n++];
    String s = new String(bytes, p, len, StandardCharsets.UTF_8);
    p += len;
    return s;
  }

  private Object get(FieldType t) {
    switch (t.code) {
      case K_BOOL: return num[n++] != 0;
      case K_INT8: return (byte) num[n++];
      case K_INT16: case K_BYTE: case K_UINT8: return (short) num[n++];
      case K_INT32: case K_UINT16: case K_WCHAR: return (int) num[n++];
      case K_CHAR: return (char) num[n++];
      case K_UINT32: case K_INT64: case K_UINT64: case K_TIMESTAMP: return num[n++];
      case K_FLOAT: return Float.intBitsToFloat((int) num[n++]);
      case K_DOUBLE: return Double.longBitsToDouble(num[n++]);
      case K_DECIMAL: {
        int len = (int) num[n++];
        String text = new String(bytes, p, len, StandardCharsets.ISO_8859_1);
        p += len;
        return NegativeZero.parse(text);
      }
      case K_UUID: {
        long msb = num[n++];
        return new UUID(msb, num[n++]);
      }
      case K_STRING: return getString();
      case K_BYTES: {
        int len = (int) num[n++];
        byte[] b = Arrays.copyOfRange(bytes, p, p + len);
        p += len;
        return b;
      }
      case K_ENUM: case K_FLAGS: {
        EnumType e = t.enumType();
        long x = num[n++];
        EnumValue[] dense = e.dense;
        long k = x - e.denseLo;
        if (dense != null && k >= 0 && k < dense.length && dense[(int) k] != null) return dense[(int) k];
        return e.of(x);
      }
      case K_STRUCT: return getMessage(t.struct());
      case K_OPTIONAL: return num[n++] != 0 ? get(t.element()) : null;
      case K_ARRAY: case K_VECTOR: case K_LIST: {
        int count = t.code == K_ARRAY ? t.arraySize() : (int) num[n++];
        List<Object> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) out.add(get(t.element()));
        return out;
      }
      case K_SET: {
        int count = (int) num[n++];
        Set<Object> out = new LinkedHashSet<>(Math.max(16, count * 4 / 3 + 1));
        for (int i = 0; i < count; i++) out.add(get(t.element()));
        return out;
      }
      case K_MAP: case K_HASH: {
        int count = (int) num[n++];
        Map<Object, Object> out = new LinkedHashMap<>(Math.max(16, count * 4 / 3 + 1));
        for (int i = 0; i < count; i++) {
          Object k = get(t.key());
          out.put(k, get(t.element()));
        }
        return out;
      }
      default:
        throw new FbeException(Status.ARGUMENT, "unsupported type " + t);
    }
  }
}

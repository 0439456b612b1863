package org.libfbe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A message's values read in Java straight from a final model the core has verified
 * (StructType.decode: the core's fbe_verify, with decode's limits and errors, then the
 * bytes kept as the message's state and read here on first use): the same
 * values, in the same classes, as the core's decode writes onto the tape and
 * {@link Tape#getMessage} reads (DirectPathsTest holds the two equal on every
 * conformance record). Nothing here judges the bytes: verify did, so every length,
 * count and flag is known to be in the model. Only for structs whose every field is of
 * a kind read here to the tape's value ({@link #readable}): decimals (their text is the
 * core's), sets, maps and hashes (the core's decode keeps one entry per key) keep the
 * core's decode.
 */
final class FinalReader {
  private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  // Kind ordinals (Tape's): an int switch.
  private static final int K_BOOL = 0, K_BYTE = 1, K_CHAR = 2, K_WCHAR = 3, K_INT8 = 4, K_UINT8 = 5,
      K_INT16 = 6, K_UINT16 = 7, K_INT32 = 8, K_UINT32 = 9, K_INT64 = 10, K_UINT64 = 11, K_FLOAT = 12,
      K_DOUBLE = 13, K_DECIMAL = 14, K_TIMESTAMP = 15, K_UUID = 16, K_STRING = 17, K_BYTES = 18,
      K_ENUM = 19, K_FLAGS = 20, K_STRUCT = 21, K_OPTIONAL = 22, K_ARRAY = 23, K_VECTOR = 24,
      K_LIST = 25, K_SET = 26, K_MAP = 27, K_HASH = 28;

  private final byte[] b;
  private int pos;

  private FinalReader(byte[] b, int pos) {
    this.b = b;
    this.pos = pos;
  }

  /** The root struct's values of a verified final model of st in bytes (its fields from byte 8). */
  static Object[] values(StructType st, byte[] bytes) {
    return new FinalReader(bytes, 8).struct(st);
  }

  /** Whether every message of st is read here (decided for the whole schema at the first ask). */
  static boolean readable(StructType st) {
    int r = st.finalReadable;
    if (r == 0) {
      decide(st.schema.structs);
      r = st.finalReadable;
    }
    return r == 2;
  }

  /**
   * Every struct's answer, in time linear in the schema: a struct is not read here when
   * a field holds a kind that is not (directly, or as an optional's, array's or
   * collection's element), or when it reaches such a struct through its fields (cycles
   * included): the structs that reach those are found backwards from them.
   */
  private static synchronized void decide(StructType[] all) {
    if (all.length == 0 || all[0].finalReadable != 0) return;
    int n = all.length;
    boolean[] not = new boolean[n];
    int[][] from = new int[n][]; // from[j]: the structs with a field reaching struct j
    int[] count = new int[n];
    List<int[]> edges = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (FieldType t : all[i].types) {
        while (t.code == K_OPTIONAL || t.code == K_ARRAY || t.code == K_VECTOR || t.code == K_LIST) t = t.element();
        if (t.code == K_DECIMAL || t.code == K_SET || t.code == K_MAP || t.code == K_HASH) not[i] = true;
        else if (t.code == K_STRUCT) {
          edges.add(new int[] {i, t.struct().index});
          count[t.struct().index]++;
        }
      }
    }
    for (int j = 0; j < n; j++) from[j] = new int[count[j]];
    for (int[] e : edges) from[e[1]][--count[e[1]]] = e[0];
    int[] queue = new int[n];
    int head = 0, tail = 0;
    for (int i = 0; i < n; i++) if (not[i]) queue[tail++] = i;
    while (head < tail) {
      int j = queue[head++];
      for (int i : from[j]) {
        if (!not[i]) {
          not[i] = true;
          queue[tail++] = i;
        }
      }
    }
    for (int i = 0; i < n; i++) all[i].finalReadable = not[i] ? 1 : 2;
  }

  private Object[] struct(StructType st) {
    FieldType[] types = st.types;
    Object[] v = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      FieldType t = types[i];
      switch (t.code) { // the commonest kinds here, without a call
        case K_INT32: v[i] = i32(); break;
        case K_INT64: case K_UINT64: case K_TIMESTAMP: v[i] = i64(); break;
        case K_DOUBLE: v[i] = Double.longBitsToDouble(i64()); break;
        case K_STRING: v[i] = string(); break;
        case K_BOOL: v[i] = b[pos++] != 0; break;
        case K_ENUM: case K_FLAGS: v[i] = enumValue(t.enumType()); break;
        case K_STRUCT: v[i] = new Message(t.struct(), struct(t.struct())); break;
        default: v[i] = value(t); break;
      }
    }
    return v;
  }

  private int i32() {
    int x = (int) I32.get(b, pos);
    pos += 4;
    return x;
  }

  private long i64() {
    long x = (long) I64.get(b, pos);
    pos += 8;
    return x;
  }

  private short i16() {
    short x = (short) I16.get(b, pos);
    pos += 2;
    return x;
  }

  private String string() {
    int len = i32();
    String s = new String(b, pos, len, StandardCharsets.UTF_8);
    pos += len;
    return s;
  }

  /** An enum's number as the tape carries it: its base read signed or unsigned (sign-extended or not). */
  private EnumValue enumValue(EnumType e) {
    long x;
    switch (e.base().ordinal()) {
      case K_INT8: x = b[pos++]; break;
      case K_BYTE: case K_CHAR: case K_UINT8: x = b[pos++] & 0xFF; break;
      case K_INT16: x = i16(); break;
      case K_UINT16: x = i16() & 0xFFFF; break;
      case K_INT32: x = i32(); break;
      case K_UINT32: case K_WCHAR: x = i32() & 0xFFFFFFFFL; break;
      default: x = i64(); break; // int64, uint64
    }
    EnumValue[] dense = e.dense;
    long k = x - e.denseLo;
    if (dense != null && k >= 0 && k < dense.length && dense[(int) k] != null) return dense[(int) k];
    return e.of(x);
  }

  /** One value of t, in the class Tape.get gives. */
  private Object value(FieldType t) {
    switch (t.code) {
      case K_BOOL: return b[pos++] != 0;
      case K_INT8: return b[pos++];
      case K_BYTE: case K_UINT8: return (short) (b[pos++] & 0xFF);
      case K_CHAR: return (char) (b[pos++] & 0xFF);
      case K_INT16: return i16();
      case K_UINT16: return i16() & 0xFFFF;
      case K_INT32: case K_WCHAR: return i32();
      case K_UINT32: return i32() & 0xFFFFFFFFL;
      case K_INT64: case K_UINT64: case K_TIMESTAMP: return i64();
      case K_FLOAT: return Float.intBitsToFloat(i32());
      case K_DOUBLE: return Double.longBitsToDouble(i64());
      case K_UUID: {
        long msb = (long) BE64.get(b, pos), lsb = (long) BE64.get(b, pos + 8);
        pos += 16;
        return new UUID(msb, lsb);
      }
      case K_STRING: return string();
      case K_BYTES: {
        int len = i32();
        byte[] out = Arrays.copyOfRange(b, pos, pos + len);
        pos += len;
        return out;
      }
      case K_ENUM: case K_FLAGS: return enumValue(t.enumType());
      case K_STRUCT: return new Message(t.struct(), struct(t.struct()));
      case K_OPTIONAL: return b[pos++] != 0 ? value(t.element()) : null;
      case K_ARRAY: return items(t.element(), t.arraySize());
      case K_VECTOR: case K_LIST: return items(t.element(), i32());
      default: // not readable(): never here
        throw new FbeException(Status.ARGUMENT, "internal error: a " + t + " read from a final model in Java");
    }
  }

  /** count elements of e, as Tape.getItems makes them. */
  private List<Object> items(FieldType e, int count) {
    switch (e.code) {
      case K_INT64: case K_UINT64: case K_TIMESTAMP: case K_DOUBLE: {
        long[] a = new long[count];
        for (int i = 0, at = pos; i < count; i++) a[i] = (long) I64.get(b, at + 8 * i);
        pos += 8 * count;
        return e.code == K_DOUBLE ? new PrimitiveList.Doubles(a, count) : new PrimitiveList.Longs(a, count);
      }
      case K_UINT32: {
        long[] a = new long[count];
        for (int i = 0, at = pos; i < count; i++) a[i] = (int) I32.get(b, at + 4 * i) & 0xFFFFFFFFL;
        pos += 4 * count;
        return new PrimitiveList.Longs(a, count);
      }
      case K_INT32: case K_WCHAR: {
        int[] a = new int[count];
        for (int i = 0, at = pos; i < count; i++) a[i] = (int) I32.get(b, at + 4 * i);
        pos += 4 * count;
        return new PrimitiveList.Ints(a, count);
      }
      case K_UINT16: {
        int[] a = new int[count];
        for (int i = 0, at = pos; i < count; i++) a[i] = (short) I16.get(b, at + 2 * i) & 0xFFFF;
        pos += 2 * count;
        return new PrimitiveList.Ints(a, count);
      }
      default:
        break;
    }
    List<Object> out = new ArrayList<>(count);
    switch (e.code) {
      case K_STRING:
        for (int i = 0; i < count; i++) out.add(string());
        break;
      case K_STRUCT: {
        StructType st = e.struct();
        for (int i = 0; i < count; i++) out.add(new Message(st, struct(st)));
        break;
      }
      default:
        for (int i = 0; i < count; i++) out.add(value(e));
        break;
    }
    return out;
  }
}

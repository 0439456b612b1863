package org.libfbe.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.libfbe.EnumType;
import org.libfbe.EnumValue;
import org.libfbe.Message;
import org.libfbe.Receiver;
import org.libfbe.StructType;

/**
 * The hand-written JNI entry points (bindings/java/native/): one native call per
 * message for encode, decode, verify and JSON, walking the Java object graph in C.
 * Not an API: org.libfbe calls these with the schema's own tables. The static
 * helpers are called from C to build and flatten collections in one call each.
 */
public final class Walk {
  static {
    NativeLibrary.load();
  }

  private Walk() {}

  static native void init();

  /** The native tables of a schema; enums: its EnumType[] (named values are cached). */
  public static native long bind(long schema, EnumType[] enums);

  /** Gives the native tables the schema's StructType objects (weakly held). */
  public static native void attach(long core, StructType[] structs);

  public static native void unbind(long core);

  public static native Message defaults(long core, StructType[] s, EnumType[] e, int index);

  public static native byte[] encode(long core, StructType[] s, EnumType[] e, int index, Message m, int model);

  public static native Message decode(long core, StructType[] s, EnumType[] e, int index,
      byte[] data, int off, int len, int model);

  /** The model size, or throws FbeException with the reason. */
  public static native long verify(long core, int index, byte[] data, int off, int len, int model);

  public static native String toJson(long core, StructType[] s, EnumType[] e, int index, Message m, boolean pretty);

  public static native Message fromJson(long core, StructType[] s, EnumType[] e, int index, byte[] utf8);

  public static native boolean equal(long core, StructType[] s, EnumType[] e, int index, Message a, Message b);

  public static native long senderNew(long core, String pkg, int model);

  public static native void senderFree(long sender);

  public static native byte[] senderSend(long sender, long core, StructType[] s, EnumType[] e, int index, Message m);

  public static native long senderBytes(long sender);

  public static native long receiverNew(long core, String pkg, int model);

  public static native void receiverFree(long receiver);

  public static native void receiverFeed(long receiver, long core, StructType[] s, EnumType[] e,
      Receiver self, byte[] data, int off, int len);

  /** what: 0 pending bytes, 1 received, 2 skipped, 3 reset. */
  public static native long receiverState(long receiver, int what);

  // ---- called from C

  static List<Object> list(Object[] items) {
    return new ArrayList<>(Arrays.asList(items));
  }

  static Set<Object> set(Object[] items) {
    return new LinkedHashSet<>(Arrays.asList(items));
  }

  static Map<Object, Object> map(Object[] flat) {
    Map<Object, Object> m = new LinkedHashMap<>(flat.length);
    for (int i = 0; i + 1 < flat.length; i += 2) m.put(flat[i], flat[i + 1]);
    return m;
  }

  static Object[] flatten(Map<?, ?> map) {
    Object[] out = new Object[map.size() * 2];
    int i = 0;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (i >= out.length) throw new java.util.ConcurrentModificationException();
      out[i++] = e.getKey();
      out[i++] = e.getValue();
    }
    return i == out.length ? out : Arrays.copyOf(out, i);
  }

  static java.math.BigDecimal decimal(String text) {
    return org.libfbe.NegativeZero.parseText(text);
  }

  static EnumValue enumValue(EnumType type, long value) {
    return type.of(value);
  }
}

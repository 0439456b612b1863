package org.libfbe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * onto slots and a byte tape of string/bytes contents (the core's tape,
 * core/include/fbe/internal/tape.h, in its FBE_TAPE_INT64 format), handed to C in ONE
 * native call. Both live in ONE block of direct memory ({@link #mem}: the slots, 8 bytes
 * each in the machine's order (C reads them as int64_t), in [0, base), the byte tape in
 * [base, capacity)), whose address the native calls take as a long: a call with
 * primitive arguments only (about 6 ns), where pinning a Java array costs about 18 ns
 * more. Java writes the slots and bytes there itself (ByteBuffer's absolute puts, which
 * the JIT compiles to plain stores), and copies out what C wrote. A slot costs about a
 * nanosecond here, so Java does the per-value work: {@link #putMessage} type-checks and
 * range-checks each value as it writes it (an error carries the value's path), and
 * {@link #getMessage} builds Messages from a tape C wrote (kept in a Java array: a
 * {@link Message.Saved}, a received message). One tape per thread, reused; a nested use
 * (a Map converted to a Message while flattening, a receiver's handler) gets a fresh one.
 */
final class Tape {
  private static final ThreadLocal<Tape> LOCAL = ThreadLocal.withInitial(Tape::lane);
  /** Every thread's own tape (weakly: a thread that ended drops its own), for {@link #inUse}. */
  private static final Map<Tape, Boolean> LANES = new java.util.WeakHashMap<>();
  private static final VarHandle USING;

  static {
    try {
      USING = MethodHandles.lookup().findVarHandle(Tape.class, "using", Object.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
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

  /** A slot of a tape in a Java array: 8 bytes in the machine's order. */
  private static final VarHandle SLOT = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
  /** A fresh tape's slots (its base) and bytes. */
  private static final int SLOTS = 256, BYTES = 1024;

  /** Reading (a tape C wrote, in a Java array): its slots in buf[0, base), the byte tape after them. */
  private final byte[] buf;
  /** Writing: the slots in mem[0, base) (base = 8 x the slot capacity), the byte tape in mem[base, memCap). */
  private int base;
  private int n, p, depth;
  private boolean busy;
  /**
   * The direct memory, its address and capacity. The Tape keeps it reachable through
   * every native call that is given its address (the callers use the Tape after it).
   */
  private ByteBuffer mem;
  private long addr;
  private int memCap;
  /** A thread's own tape (registered in LANES; a nested use's fresh one is not). */
  boolean lane;
  /** The Schema whose native call runs on this tape (Schema.begin), else null. */
  private volatile Object using;
  /** The native tables of the call's schema (Schema.begin). */
  long core;

  private static Tape lane() {
    Tape t = new Tape();
    t.lane = true;
    synchronized (LANES) {
      LANES.put(t, Boolean.TRUE);
    }
    return t;
  }

  /** A call on owner runs on this tape: a volatile store (ordered before the caller's check of owner's state). */
  void mark(Object owner) {
    using = owner;
  }

  void unmark() {
    USING.setRelease(this, null);
  }

  Object marked() {
    return (Object) USING.getOpaque(this);
  }

  /** How many threads' tapes run a call on owner right now (InFlight.close). */
  static int inUse(Object owner) {
    int n = 0;
    synchronized (LANES) {
      for (Tape t : LANES.keySet())
        if (t.using == owner) n++;
    }
    return n;
  }

  /** The slots' part a call starts with: what the largest value so far needed (kept, as the block is). */
  private int base0;

  private Tape() {
    this.buf = null;
    newMem(8 * SLOTS + BYTES);
    base = base0 = 8 * SLOTS;
  }

  /** A tape over a buffer C wrote (a received message, a saved one), for reading: base = 8 x its slots. */
  Tape(byte[] buf, int base) {
    this.buf = buf;
    this.base = base;
  }

  static Tape acquire() {
    Tape t = LOCAL.get();
    if (t.busy) t = new Tape();
    t.busy = true;
    t.n = t.p = t.depth = 0;
    t.base = t.base0;
    return t;
  }

  void release() {
    busy = false;
    if (memCap > 4 << 20) { // don't keep huge tapes (a new direct buffer for each huge message is the rarer cost)
      newMem(8 * SLOTS + BYTES);
      base = base0 = 8 * SLOTS;
    }
  }

  /** A new block of exactly cap bytes (what the old one held is not kept). */
  private void newMem(long cap) {
    if (cap > MAX_ARRAY) throw tooLarge();
    mem = null; // (the old one can go before the new one is made)
    ByteBuffer b = ByteBuffer.allocateDirect((int) cap).order(ByteOrder.nativeOrder());
    long a = Walk.address(b);
    if (a == 0 || (a & 7) != 0) throw new FbeException(Status.NOMEM, "no 8-aligned direct memory for the tape");
    mem = b;
    addr = a;
    memCap = (int) cap;
  }

  /** The block's address, for a native call. */
  long at() {
    return addr;
  }

  /** The two parts' capacities as C takes them: (slots << 32 | bytes). */
  long caps() {
    return (long) (base >>> 3) << 32 | (memCap - base);
  }

  /** The message(s) Java put on the tape: (slots << 32 | bytes). */
  long used() {
    return (long) n << 32 | p;
  }

  /** What Java put on the tape, for a native call that reads it: the block's address. */
  long sync() {
    return addr;
  }

  /** C said the value needs (slots << 32 | bytes): more room (its content is redone; the block kept when it is large enough). */
  void grow(long need) {
    long slots = need >>> 32, size = (int) need;
    int have = base >>> 3, cap = memCap - base;
    long s = slots > have ? grown(have, slots) : have, b = size > cap ? grown(cap, size) : cap;
    int total = total(8 * s, b);
    if (total > memCap) newMem(Math.max(total, Math.min(2L * memCap, MAX_ARRAY)));
    base = base0 = (int) (8 * s);
  }

  /** Inputs below this many bytes go onto the tape (a copy, no pin); C reads larger ones in place (one pin). */
  private static final int INPUT_ON_TAPE_BELOW = 4096;

  /**
   * Copies data[off, off+len) to the start of the byte part, for C to decode there: true;
   * false when it is large, or when the range is not the array's (C checks it, and throws
   * its error, the one check of the range).
   */
  boolean input(byte[] data, int off, int len) {
    if (len < 0 || len >= INPUT_ON_TAPE_BELOW || data == null || off < 0 || off > data.length - len) return false;
    if (len > memCap - base) newMem(Math.max((long) base + len, Math.min(2L * memCap, MAX_ARRAY)));
    mem.put(base, data, off, len);
    return true;
  }

  /** The first size bytes of an input on the tape (put there by {@link #input}), copied out. */
  byte[] inputCopy(int size) {
    byte[] b = new byte[size];
    mem.get(base, b, 0, size);
    return b;
  }

  /**
   * Room for size bytes of output after the tape's own bytes (p), keeping what is on the
   * tape (C reads it again).
   */
  void growOut(int size) {
    long need = (long) base + p + size;
    if (need > memCap) moveTo(total(base, grown(memCap - base, (long) p + size)), base);
  }

  /** The size bytes C wrote after the tape's own bytes. */
  byte[] out(int size) {
    byte[] b = new byte[size];
    mem.get(base + p, b, 0, size);
    return b;
  }

  String outText(int size) {
    byte[] b = new byte[size];
    mem.get(base + p, b, 0, size);
    return new String(b, 0, size, StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------ Java -> tape

  void putMessage(Message m) {
    putStruct(m.type, m);
  }

  /**
   * A message of st kept as the tape C wrote (used: slots << 32 | bytes, from the start):
   * a copy of those slots and bytes, made into values only when they are read.
   */
  Message saved(StructType st, long used) {
    int slots = (int) (used >>> 32), size = (int) used;
    byte[] tape = new byte[total(8L * slots, size)];
    mem.get(0, tape, 0, 8 * slots);
    mem.get(base, tape, 8 * slots, size);
    return new Message(st, new Message.Saved(tape, slots));
  }

  /** The values of a saved message's tape (one root struct of st, from the start). */
  static Object[] values(StructType st, Message.Saved saved) {
    return new Tape(saved.tape, 8 * saved.slots).getValues(st);
  }

  private void slot(long x) {
    if (n == base >>> 3) moreSlots(n + 1L);
    mem.putLong(n << 3, x);
    n++;
  }

  private long slotAt() {
    return (long) SLOT.get(buf, n++ << 3);
  }

  /** Room for `need` slots: the byte tape moves up (what is on it, [base, base+p), kept). */
  private void moreSlots(long need) {
    long s = grown(base >>> 3, need);
    moveTo(total(8 * s, memCap - base), (int) (8 * s));
    base0 = Math.max(base0, base);
  }

  /**
   * The slots' part newBase long in a block of at least cap bytes, what is on the tape
   * kept: in the same block when it is large enough (the byte tape moved up), else in a
   * new one.
   */
  private void moveTo(int cap, int newBase) {
    if (cap <= memCap) {
      if (p > 0) {
        byte[] bytes = new byte[p];
        mem.get(base, bytes, 0, p);
        mem.put(newBase, bytes, 0, p);
      }
      base = newBase;
      return;
    }
    ByteBuffer old = mem;
    newMem(Math.max(cap, Math.min(2L * memCap, MAX_ARRAY)));
    if (n > 0) mem.put(0, old, 0, n << 3);
    if (p > 0) mem.put(newBase, old, base, p);
    base = newBase;
  }

  private void room(long more) {
    int cap = memCap - base;
    if (p + more > cap) moveTo(total(base, grown(cap, p + more)), base);
  }

  private static int grown(int have, long need) {
    if (need > MAX_ARRAY) throw tooLarge();
    return (int) Math.max(need, Math.min((long) have * 2, MAX_ARRAY));
  }

  /** The block's length for slot bytes and tape bytes together. */
  private static int total(long slotBytes, long bytes) {
    if (slotBytes + bytes > MAX_ARRAY) throw tooLarge();
    return (int) (slotBytes + bytes);
  }

  private static FbeException tooLarge() {
    return new FbeException(Status.LIMIT, "the value is larger than a Java array");
  }

  private void putStruct(StructType st, Message m) {
    FieldType[] types = st.types;
    Message.Saved saved = m.saved();
    if (saved != null && m.type == st) { // still its decoded tape: that, as it is
      int slots = saved.slots, size = saved.tape.length - 8 * slots;
      if (n == 0 && p == 0 && saved.tape.length <= memCap) { // the whole tape: one copy, the bytes right after the slots
        mem.put(0, saved.tape, 0, saved.tape.length);
        base = 8 * slots;
      } else {
        if (n + slots > base >>> 3) moreSlots((long) n + slots);
        room(size);
        mem.put(n << 3, saved.tape, 0, 8 * slots);
        mem.put(base + p, saved.tape, 8 * slots, size);
      }
      n += slots;
      p += size;
      return;
    }
    Object[] values = m.values();
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
          mem.put(base + p, b, 0, b.length);
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
    if (items instanceof PrimitiveList && putPrimitive(e.code, (PrimitiveList) items, size)) return;
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

  /**
   * The elements of a decoded list still in its primitive form, written as they are when
   * every one fits the element kind (checked first): true; false (nothing written) when
   * the general way must look at them.
   */
  private boolean putPrimitive(int code, PrimitiveList l, int size) {
    if (l instanceof PrimitiveList.Longs) {
      long[] a = ((PrimitiveList.Longs) l).longs();
      if (a == null) return false;
      switch (code) {
        case K_INT64: case K_UINT64: case K_TIMESTAMP: break;
        case K_UINT32:
          for (int k = 0; k < size; k++) if (a[k] < 0 || a[k] > 0xFFFFFFFFL) return false;
          break;
        default: return false;
      }
      slots(a, size);
      return true;
    }
    if (l instanceof PrimitiveList.Doubles) {
      long[] bits = ((PrimitiveList.Doubles) l).bits();
      if (bits == null || code != K_DOUBLE) return false;
      slots(bits, size);
      return true;
    }
    int[] a = ((PrimitiveList.Ints) l).ints();
    if (a == null) return false;
    switch (code) {
      case K_INT32: break;
      case K_UINT16:
        for (int k = 0; k < size; k++) if (a[k] < 0 || a[k] > 0xFFFF) return false;
        break;
      case K_WCHAR: { // an Integer holds a wchar's 32 bits
        if (n + size > base >>> 3) moreSlots((long) n + size);
        ByteBuffer m = mem;
        for (int k = 0, at = n << 3; k < size; k++) m.putLong(at + (k << 3), a[k] & 0xFFFFFFFFL);
        n += size;
        return true;
      }
      default: return false;
    }
    if (n + size > base >>> 3) moreSlots((long) n + size);
    ByteBuffer m = mem;
    for (int k = 0, at = n << 3; k < size; k++) m.putLong(at + (k << 3), a[k]);
    n += size;
    return true;
  }

  /** count slots at once. */
  private void slots(long[] a, int count) {
    if (n + count > base >>> 3) moreSlots((long) n + count);
    ByteBuffer m = mem;
    for (int k = 0, at = n << 3; k < count; k++) m.putLong(at + (k << 3), a[k]);
    n += count;
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
    ByteBuffer m = mem;
    for (int i = 0, o = base + p; i < len; i++) m.put(o + i, (byte) s.charAt(i));
    p += len;
    slot(len);
  }

  /**
   * UTF-8 by hand: the JDK's encoder replaces an unpaired surrogate with '?'. Here it goes
   * on the tape as its 3 bytes (ED A0 80 for U+D800), which the core's check refuses with
   * the words every binding uses.
   */
  private void putUtf8(String s) {
    int len = s.length();
    room(3L * len);
    ByteBuffer m = mem;
    int start = base + p, o = start, i = 0;
    for (; i < len; i++) { // ASCII, the common case
      char c = s.charAt(i);
      if (c >= 0x80) break;
      m.put(o++, (byte) c);
    }
    if (i < len) { // the rest, through a Java array
      byte[] rest = new byte[3 * (len - i)];
      int k = utf8(s.substring(i), rest, 0);
      m.put(o, rest, 0, k);
      o += k;
    }
    p += o - start; // before the slot: a move of the byte tape keeps [base, base+p)
    slot(o - start);
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
    return new Message(st, getValues(st));
  }

  private Object[] getValues(StructType st) {
    FieldType[] types = st.types;
    Object[] values = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      FieldType t = types[i];
      switch (t.code) { // the commonest cases here, without a call
        case K_INT32: values[i] = (int) slotAt(); break;
        case K_INT64: case K_UINT64: case K_TIMESTAMP: values[i] = slotAt(); break;
        case K_DOUBLE: values[i] = Double.longBitsToDouble(slotAt()); break;
        case K_STRING: values[i] = getString(); break;
        case K_BOOL: values[i] = slotAt() != 0; break;
        case K_ENUM: case K_FLAGS: values[i] = getEnum(t.enumType()); break;
        case K_STRUCT: values[i] = getMessage(t.struct()); break;
        default: values[i] = get(t); break;
      }
    }
    return values;
  }

  private String getString() {
    int len = (int) slotAt();
    String s = new String(buf, base + p, len, StandardCharsets.UTF_8);
    p += len;
    return s;
  }

  /**
   * count elements of e as get(e) makes each; the commonest element kinds in a loop of
   * their own (the same values, without a switch per element).
   */
  private List<Object> getItems(FieldType e, int count) {
    switch (e.code) {
      case K_INT64: case K_UINT64: case K_TIMESTAMP: case K_UINT32: {
        long[] a = new long[count];
        for (int i = 0; i < count; i++) a[i] = slotAt();
        return new PrimitiveList.Longs(a, count);
      }
      case K_INT32: case K_UINT16: case K_WCHAR: {
        int[] a = new int[count];
        for (int i = 0; i < count; i++) a[i] = (int) slotAt();
        return new PrimitiveList.Ints(a, count);
      }
      case K_DOUBLE: {
        long[] a = new long[count];
        for (int i = 0; i < count; i++) a[i] = slotAt();
        return new PrimitiveList.Doubles(a, count);
      }
      default:
        break;
    }
    List<Object> out = new ArrayList<>(count);
    switch (e.code) {
      case K_STRING:
        for (int i = 0; i < count; i++) out.add(getString());
        break;
      case K_STRUCT: {
        StructType st = e.struct();
        for (int i = 0; i < count; i++) out.add(getMessage(st));
        break;
      }
      default:
        for (int i = 0; i < count; i++) out.add(get(e));
        break;
    }
    return out;
  }

  private EnumValue getEnum(EnumType e) {
    long x = slotAt();
    EnumValue[] dense = e.dense;
    long k = x - e.denseLo;
    if (dense != null && k >= 0 && k < dense.length && dense[(int) k] != null) return dense[(int) k];
    return e.of(x);
  }

  private Object get(FieldType t) {
    switch (t.code) {
      case K_BOOL: return slotAt() != 0;
      case K_INT8: return (byte) slotAt();
      case K_INT16: case K_BYTE: case K_UINT8: return (short) slotAt();
      case K_INT32: case K_UINT16: case K_WCHAR: return (int) slotAt();
      case K_CHAR: return (char) slotAt();
      case K_UINT32: case K_INT64: case K_UINT64: case K_TIMESTAMP: return slotAt();
      case K_FLOAT: return Float.intBitsToFloat((int) slotAt());
      case K_DOUBLE: return Double.longBitsToDouble(slotAt());
      case K_DECIMAL: {
        int len = (int) slotAt();
        String text = new String(buf, base + p, len, StandardCharsets.ISO_8859_1);
        p += len;
        return NegativeZero.parse(text);
      }
      case K_UUID: {
        long msb = slotAt();
        return new UUID(msb, slotAt());
      }
      case K_STRING: return getString();
      case K_BYTES: {
        int len = (int) slotAt();
        byte[] b = Arrays.copyOfRange(buf, base + p, base + p + len);
        p += len;
        return b;
      }
      case K_ENUM: case K_FLAGS: return getEnum(t.enumType());
      case K_STRUCT: return getMessage(t.struct());
      case K_OPTIONAL: return slotAt() != 0 ? get(t.element()) : null;
      case K_ARRAY: case K_VECTOR: case K_LIST: {
        int count = t.code == K_ARRAY ? t.arraySize() : (int) slotAt();
        return getItems(t.element(), count);
      }
      case K_SET: {
        int count = (int) slotAt();
        Set<Object> out = new LinkedHashSet<>(Math.max(16, count * 4 / 3 + 1));
        for (int i = 0; i < count; i++) out.add(get(t.element()));
        return out;
      }
      case K_MAP: case K_HASH: {
        int count = (int) slotAt();
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

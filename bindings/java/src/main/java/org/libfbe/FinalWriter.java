package org.libfbe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.RandomAccess;
import java.util.UUID;

/**
 * The final model of a message written in Java, for the structs {@link FinalReader}
 * reads (no decimals, sets, maps or hashes): the bytes the core's encode writes for what
 * the tape would carry to it, with no native call (about 25 ns of crossing and copying,
 * most of a small message's encode). It writes only what it can write as the core
 * would without deciding anything: values of their canonical classes within their
 * kinds' ranges, strings that are well-formed UTF-16, nesting within the core's depth,
 * a decoded message's tape as C wrote it. Anything else (a value to convert or to
 * refuse, a lone surrogate, a value nested deeper than the core allows) makes it give
 * up, and the message goes the general way (the tape, the core's encode), which writes
 * it or refuses it in the core's words. DirectPathsTest holds the two byte for byte on
 * every conformance record, and their refusals equal.
 */
final class FinalWriter {
  private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  /** A tape's slot in a Java array (the machine's order). */
  private static final VarHandle SLOT = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final ThreadLocal<FinalWriter> LOCAL = ThreadLocal.withInitial(FinalWriter::new);
  private static final int MAX_DEPTH = 256; // the core's FBE_DEFAULT_MAX_DEPTH: optionals and collections

  private static final int K_BOOL = 0, K_BYTE = 1, K_CHAR = 2, K_WCHAR = 3, K_INT8 = 4, K_UINT8 = 5,
      K_INT16 = 6, K_UINT16 = 7, K_INT32 = 8, K_UINT32 = 9, K_INT64 = 10, K_UINT64 = 11, K_FLOAT = 12,
      K_DOUBLE = 13, K_TIMESTAMP = 15, K_UUID = 16, K_STRING = 17, K_BYTES = 18,
      K_ENUM = 19, K_FLAGS = 20, K_STRUCT = 21, K_OPTIONAL = 22, K_ARRAY = 23, K_VECTOR = 24, K_LIST = 25;

  /** Why the walk stopped: the general way takes the message. */
  private static final class GiveUp extends RuntimeException {
    GiveUp() {
      super(null, null, false, false);
    }
  }

  private static final GiveUp GIVE_UP = new GiveUp();

  private byte[] b = new byte[1024];
  private int pos, depth;
  private boolean busy;
  /** A decoded message's tape being read: its array, slot and byte positions, where its bytes start. */
  private byte[] tape;
  private int n, p;

  // A struct's program, for a message still on the tape C wrote: one step per value in
  // the tape's order (nested structs spliced in), each a scalar's wire width (1, 2, 4,
  // 8) or F_*; an optional, array or collection step names its element's program,
  // which must be flat (scalars, strings, bytes, uuids and enums only): so the size of
  // the whole is found from the tape in one pass over the flags and counts (no buffer
  // to grow, no copy), and the bytes in a second.
  static final int F_BLOB = 0, F_BOOL = 9, F_UUID = 16, F_CHAR = 17, F_OPT = 18, F_VEC = 19, F_ARR = 20;

  /** A compiled program (see above). */
  static final class Program {
    static final Program NONE = new Program();
    final int[] ops;
    /** F_OPT, F_VEC, F_ARR: the element's program, at the step's index. */
    final Program[] elems;
    /** F_ARR: the count, at the step's index. */
    final int[] counts;
    /** Flat programs: the fixed bytes of a value (4 per string or bytes), its slots; else -1. */
    final int fixed, slots;

    /** NONE: no program (not flat either). */
    private Program() {
      ops = new int[0];
      elems = new Program[0];
      counts = new int[0];
      fixed = slots = -1;
      segFrom = segTo = segFixed = segSlots = new int[0];
    }

    /**
     * A program with optionals or collections, cut into segments: a run of its own
     * scalars, strings, bytes and uuids (steps [segFrom, segTo), segFixed bytes but for
     * the contents, segSlots slots), or one optional, array or collection (segTo = -1,
     * the step at segFrom).
     */
    final int[] segFrom, segTo, segFixed, segSlots;

    Program(int[] ops, Program[] elems, int[] counts) {
      this.ops = ops;
      this.elems = elems;
      this.counts = counts;
      int nseg = 0;
      for (int k = 0; k < ops.length; k++)
        if (ops[k] >= F_OPT || k == 0 || ops[k - 1] >= F_OPT) nseg++;
      int[] from = new int[nseg], to = new int[nseg], fx = new int[nseg], sl = new int[nseg];
      for (int k = 0, j = 0; k < ops.length; j++) {
        from[j] = k;
        if (ops[k] >= F_OPT) {
          to[j] = -1;
          k++;
          continue;
        }
        for (; k < ops.length && ops[k] < F_OPT; k++) {
          fx[j] += ops[k] == F_BLOB ? 4 : ops[k] == F_BOOL || ops[k] == F_CHAR ? 1 : ops[k];
          sl[j] += ops[k] == F_UUID ? 2 : 1;
        }
        to[j] = k;
      }
      segFrom = from;
      segTo = to;
      segFixed = fx;
      segSlots = sl;
      int f = 0, n = 0;
      for (int op : ops) {
        if (op >= F_OPT) {
          f = -1;
          break;
        }
        f += op == F_BLOB ? 4 : op == F_BOOL || op == F_CHAR ? 1 : op;
        n += op == F_UUID ? 2 : 1;
      }
      fixed = f;
      slots = f < 0 ? -1 : n;
    }
  }

  /** st's program, or Program.NONE when it has none (made once per struct; racing threads make the same). */
  static Program program(StructType st) {
    Program p = st.finalProgram;
    if (p == null) {
      st.finalProgram = Program.NONE; // (a struct reaching itself meanwhile: none, the general walk)
      List<int[]> steps = new java.util.ArrayList<>(); // {op, count} and its element program
      List<Program> elems = new java.util.ArrayList<>();
      p = steps(st, steps, elems, 0) ? make(steps, elems) : Program.NONE;
      st.finalProgram = p;
    }
    return p;
  }

  private static Program make(List<int[]> steps, List<Program> elems) {
    int n = steps.size();
    int[] ops = new int[n], counts = new int[n];
    Program[] es = new Program[n];
    for (int k = 0; k < n; k++) {
      ops[k] = steps.get(k)[0];
      counts[k] = steps.get(k)[1];
      es[k] = elems.get(k);
    }
    return new Program(ops, es, counts);
  }

  /** The step of a scalar, string, bytes, uuid or enum; -1 for anything else. */
  private static int scalarStep(FieldType t) {
    switch (t.code) {
      case K_BOOL: return F_BOOL;
      case K_CHAR: return F_CHAR;
      case K_BYTE: case K_WCHAR: case K_INT8: case K_UINT8: case K_INT16: case K_UINT16: case K_INT32: case K_UINT32:
      case K_INT64: case K_UINT64: case K_TIMESTAMP: case K_FLOAT: case K_DOUBLE:
        return wireSize(t.code);
      case K_UUID: return F_UUID;
      case K_STRING: case K_BYTES: return F_BLOB;
      case K_ENUM: case K_FLAGS: return wireSize(t.enumType().base().ordinal());
      default: return -1;
    }
  }

  private static boolean steps(StructType st, List<int[]> steps, List<Program> elems, int nesting) {
    if (nesting > 64) return false;
    for (FieldType t : st.types) {
      int op = scalarStep(t);
      if (op >= 0) {
        steps.add(new int[] {op, 0});
        elems.add(null);
        continue;
      }
      switch (t.code) {
        case K_STRUCT:
          if (!steps(t.struct(), steps, elems, nesting + 1)) return false;
          continue;
        case K_OPTIONAL: case K_VECTOR: case K_LIST: case K_ARRAY: {
          FieldType e = t.element();
          int eop = scalarStep(e);
          Program ep = eop >= 0 ? new Program(new int[] {eop}, new Program[1], new int[1])
              : e.code == K_STRUCT ? program(e.struct()) : Program.NONE;
          if (ep == Program.NONE || ep.fixed < 0) return false; // an element that is not flat: the general walk
          steps.add(new int[] {t.code == K_OPTIONAL ? F_OPT : t.code == K_ARRAY ? F_ARR : F_VEC, t.arraySize()});
          elems.add(ep);
          continue;
        }
        default:
          return false;
      }
    }
    return true;
  }

  /**
   * The message's final model, or null when the general way must write it (or refuse it).
   * Small entry points, so that the JIT inlines the one a call site takes whole.
   */
  static byte[] encode(Message m) {
    Message.Saved saved = m.saved();
    if (saved != null) {
      Program prog = m.type.finalProgram;
      if (prog == null) prog = program(m.type);
      if (prog != Program.NONE) return fromTape(m.type, prog, saved);
    }
    return fromValues(m);
  }

  /** A message still on the tape C wrote, by its struct's program. */
  private static byte[] fromTape(StructType st, Program prog, Message.Saved saved) {
    try {
      return saved(st, prog, saved);
    } catch (IndexOutOfBoundsException | NegativeArraySizeException e) {
      return null; // a tape that disagrees with the schema: the general way says so
    }
  }

  /** A message of Java values (or still on a tape, of a struct without a program): the walk below. */
  private static byte[] fromValues(Message m) {
    FinalWriter w = LOCAL.get();
    if (w.busy) w = new FinalWriter(); // (never re-entered today: no callback runs in here)
    w.busy = true;
    w.pos = 8;
    w.depth = 0;
    try {
      w.struct(m.type, m);
      byte[] out = Arrays.copyOf(w.b, w.pos);
      I32.set(out, 0, w.pos);
      I32.set(out, 4, m.type.typeId());
      return out;
    } catch (GiveUp e) {
      return null;
    } finally {
      w.busy = false;
      w.tape = null;
      if (w.b.length > 1 << 20) w.b = new byte[1024]; // don't keep huge buffers
    }
  }

  private void room(int more) {
    if (more > b.length - pos) {
      long need = (long) pos + more;
      if (need > Integer.MAX_VALUE - 8) throw GIVE_UP; // (the general way says why)
      b = Arrays.copyOf(b, (int) Math.max(need, Math.min(2L * b.length, Integer.MAX_VALUE - 8)));
    }
  }

  private void i8(long x) {
    room(1);
    b[pos++] = (byte) x;
  }

  private void i16(long x) {
    room(2);
    I16.set(b, pos, (short) x);
    pos += 2;
  }

  private void i32(long x) {
    room(4);
    I32.set(b, pos, (int) x);
    pos += 4;
  }

  private void i64(long x) {
    room(8);
    I64.set(b, pos, x);
    pos += 8;
  }

  /** An integer of wire size `size` (its low bytes). */
  private void sized(int size, long x) {
    switch (size) {
      case 1: i8(x); return;
      case 2: i16(x); return;
      case 4: i32(x); return;
      default: i64(x); return;
    }
  }

  private static int wireSize(int code) {
    switch (code) {
      case K_BOOL: case K_BYTE: case K_CHAR: case K_INT8: case K_UINT8: return 1;
      case K_INT16: case K_UINT16: return 2;
      case K_WCHAR: case K_INT32: case K_UINT32: case K_FLOAT: return 4;
      default: return 8;
    }
  }

  private void deeper() {
    if (++depth > MAX_DEPTH) throw GIVE_UP; // (the general way throws the core's error)
  }

  /**
   * A message still on the tape C wrote, of a struct with a program: its size from one
   * pass over the tape's flags and counts (the strings' and bytes' contents are all of
   * the tape's byte part), then each value written at its width. Levels: an optional or
   * a collection of the root is one, its flat elements none, within the core's depth.
   */
  private static byte[] saved(StructType st, Program prog, Message.Saved saved) {
    byte[] tape = saved.tape;
    int base = 8 * saved.slots;
    long size = 8L + (tape.length - base) + (prog.fixed >= 0 ? prog.fixed : fixedBytes(prog, tape));
    if (size > Integer.MAX_VALUE - 8) return null; // (the general way says why)
    byte[] out = new byte[(int) size];
    I32.set(out, 0, (int) size);
    I32.set(out, 4, st.typeId());
    int end = prog.fixed >= 0 ? flat(prog, tape, 0, base, out, 8) : nested(prog, tape, base, out);
    return end == size ? out : null; // (a tape that disagrees: the general way)
  }

  /** A program with optionals or collections: its fixed bytes, by the tape's flags and counts. */
  private static long fixedBytes(Program prog, byte[] tape) {
    int[] from = prog.segFrom, to = prog.segTo;
    long size = 0;
    for (int j = 0, n = 0; j < from.length; j++) {
      if (to[j] >= 0) {
        size += prog.segFixed[j];
        n += 8 * prog.segSlots[j];
        continue;
      }
      int k = from[j], op = prog.ops[k];
      Program e = prog.elems[k];
      long count;
      if (op == F_ARR) {
        count = prog.counts[k];
      } else {
        count = (long) SLOT.get(tape, n);
        n += 8;
        if (op == F_OPT) {
          size += 1;
          count = count != 0 ? 1 : 0;
        } else {
          size += 4;
        }
      }
      size += count * e.fixed;
      n += (int) (count * e.slots * 8);
    }
    return size;
  }

  /**
   * A program with optionals or collections (of flat elements) from the tape into out
   * from byte 8: the position after it.
   */
  private static int nested(Program prog, byte[] tape, int p, byte[] out) {
    int[] from = prog.segFrom, to = prog.segTo;
    int n = 0, pos = 8;
    for (int j = 0; j < from.length; j++) {
      int k = from[j];
      if (to[j] >= 0) { // a run of the program's own values
        int start = pos;
        pos = flatSteps(prog.ops, k, to[j], tape, n, p, out, pos);
        n += 8 * prog.segSlots[j];
        p += (pos - start) - prog.segFixed[j];
        continue;
      }
      int op = prog.ops[k], count;
      Program e = prog.elems[k];
      if (op == F_ARR) {
        count = prog.counts[k];
      } else {
        count = (int) (long) SLOT.get(tape, n);
        n += 8;
        if (op == F_OPT) {
          out[pos++] = (byte) (count != 0 ? 1 : 0);
          count = count != 0 ? 1 : 0;
        } else {
          I32.set(out, pos, count);
          pos += 4;
        }
      }
      if (e.ops.length == 1 && e.ops[0] == 8) { // 8-byte scalars: the slots are their bytes
        for (int i = 0; i < count; i++) I64.set(out, pos + 8 * i, (long) SLOT.get(tape, n + 8 * i));
        n += 8 * count;
        pos += 8 * count;
        continue;
      }
      int[] eops = e.ops;
      for (int i = 0; i < count; i++) {
        int start = pos;
        pos = flatSteps(eops, 0, eops.length, tape, n, p, out, pos);
        n += 8 * e.slots;
        p += (pos - start) - e.fixed;
      }
    }
    return pos;
  }

  /**
   * A flat program's values from the tape (slots from byte n, contents from byte p) into
   * out from pos: the position after them (the tape's positions after them follow: 8 x
   * its slots, and the contents written, the bytes past its fixed ones).
   */
  private static int flat(Program prog, byte[] tape, int n, int p, byte[] out, int pos) {
    return flatSteps(prog.ops, 0, prog.ops.length, tape, n, p, out, pos);
  }

  /** Steps [k, end) of scalars, strings, bytes, uuids and enums: as {@link #flat}. */
  private static int flatSteps(int[] ops, int k, int end, byte[] tape, int n, int p, byte[] out, int pos) {
    for (; k < end; k++) {
      int op = ops[k];
      long x = (long) SLOT.get(tape, n);
      n += 8;
      if (op == 8) {
        I64.set(out, pos, x);
        pos += 8;
      } else if (op == 4) {
        I32.set(out, pos, (int) x);
        pos += 4;
      } else if (op == F_BLOB) { // its bytes as C wrote them (a string's: UTF-8)
        int len = (int) x;
        I32.set(out, pos, len);
        System.arraycopy(tape, p, out, pos + 4, len);
        p += len;
        pos += 4 + len;
      } else if (op == F_UUID) {
        BE64.set(out, pos, x);
        BE64.set(out, pos + 8, (long) SLOT.get(tape, n));
        n += 8;
        pos += 16;
      } else if (op == 2) {
        I16.set(out, pos, (short) x);
        pos += 2;
      } else { // 1, F_CHAR, F_BOOL
        out[pos++] = (byte) (op == F_BOOL ? (x != 0 ? 1 : 0) : x);
      }
    }
    return pos;
  }

  // ------------------------------------------------------------------ from Java values (Tape.put's cases)

  private void struct(StructType st, Message m) {
    Message.Saved saved = m.saved();
    if (saved != null && m.type == st) { // still the tape C wrote: read from it
      byte[] was = tape;
      int wn = n, wp = p;
      tape = saved.tape;
      n = 0;
      p = 8 * saved.slots;
      savedStruct(st);
      tape = was;
      n = wn;
      p = wp;
      return;
    }
    FieldType[] types = st.types;
    Object[] values = m.values();
    if (values.length < types.length) throw GIVE_UP;
    for (int i = 0; i < types.length; i++) {
      FieldType t = types[i];
      Object v = values[i];
      switch (t.code) { // the commonest canonical cases here, without a call
        case K_INT32:
          if (v instanceof Integer) {
            i32((Integer) v);
            continue;
          }
          break;
        case K_INT64: case K_UINT64: case K_TIMESTAMP:
          if (v instanceof Long) {
            i64((Long) v);
            continue;
          }
          break;
        case K_DOUBLE:
          if (v instanceof Double) {
            i64(Double.doubleToRawLongBits((Double) v));
            continue;
          }
          break;
        case K_STRING:
          if (v instanceof String) {
            string((String) v);
            continue;
          }
          break;
        default:
          break;
      }
      value(t, v);
    }
  }

  /** v as a value of t, as Tape.put writes its canonical cases; anything else: give up. */
  private void value(FieldType t, Object v) {
    switch (t.code) {
      case K_BOOL:
        if (!(v instanceof Boolean)) throw GIVE_UP;
        i8((Boolean) v ? 1 : 0);
        return;
      case K_BYTE: case K_CHAR: case K_WCHAR: case K_INT8: case K_UINT8: case K_INT16: case K_UINT16:
      case K_INT32: case K_UINT32: case K_INT64: case K_UINT64: case K_TIMESTAMP: {
        long x;
        if (v instanceof Integer) x = t.code == K_WCHAR ? Integer.toUnsignedLong((Integer) v) : (Integer) v;
        else if (v instanceof Long) x = (Long) v;
        else if (v instanceof Short) x = (Short) v;
        else if (v instanceof Byte) x = (Byte) v;
        else if (v instanceof Character && (t.code == K_CHAR || t.code == K_WCHAR)) x = (Character) v;
        else throw GIVE_UP;
        if (x < t.min || x > t.max || (x < 0 && (t.code == K_UINT64 || t.code == K_TIMESTAMP) && !(v instanceof Long)))
          throw GIVE_UP;
        sized(wireSize(t.code), x);
        return;
      }
      case K_FLOAT:
        if (!(v instanceof Float)) throw GIVE_UP;
        i32(Float.floatToRawIntBits((Float) v));
        return;
      case K_DOUBLE:
        if (!(v instanceof Double)) throw GIVE_UP;
        i64(Double.doubleToRawLongBits((Double) v));
        return;
      case K_UUID: {
        if (!(v instanceof UUID)) throw GIVE_UP;
        room(16);
        BE64.set(b, pos, ((UUID) v).getMostSignificantBits());
        BE64.set(b, pos + 8, ((UUID) v).getLeastSignificantBits());
        pos += 16;
        return;
      }
      case K_STRING:
        if (!(v instanceof String)) throw GIVE_UP;
        string((String) v);
        return;
      case K_BYTES: {
        if (!(v instanceof byte[])) throw GIVE_UP;
        byte[] x = (byte[]) v;
        i32(x.length);
        room(x.length);
        System.arraycopy(x, 0, b, pos, x.length);
        pos += x.length;
        return;
      }
      case K_ENUM: case K_FLAGS:
        if (!(v instanceof EnumValue) || ((EnumValue) v).type != t.enumType()) throw GIVE_UP;
        sized(wireSize(t.enumType().base().ordinal()), ((EnumValue) v).value);
        return;
      case K_STRUCT:
        if (!(v instanceof Message) || !((Message) v).type.isA(t.struct())) throw GIVE_UP;
        struct(t.struct(), (Message) v); // a derived struct's message: its base fields
        return;
      case K_OPTIONAL:
        if (v == null) {
          i8(0);
          return;
        }
        deeper();
        i8(1);
        value(t.element(), v);
        depth--;
        return;
      case K_ARRAY: case K_VECTOR: case K_LIST: {
        if (!(v instanceof List)) throw GIVE_UP;
        List<?> list = (List<?>) v;
        int size = list.size();
        if (t.code == K_ARRAY) {
          if (size != t.arraySize()) throw GIVE_UP;
        } else {
          deeper();
          i32(size);
        }
        items(t.element(), list, size);
        if (t.code != K_ARRAY) depth--;
        return;
      }
      default: // decimal, set, map, hash: not FinalReader.readable, never here
        throw GIVE_UP;
    }
  }

  private void items(FieldType e, List<?> list, int size) {
    if (list instanceof PrimitiveList) {
      long[] a = null;
      if (list instanceof PrimitiveList.Longs && (e.code == K_INT64 || e.code == K_UINT64 || e.code == K_TIMESTAMP))
        a = ((PrimitiveList.Longs) list).longs();
      else if (list instanceof PrimitiveList.Doubles && e.code == K_DOUBLE)
        a = ((PrimitiveList.Doubles) list).bits();
      if (a != null) {
        room(8 * size);
        for (int k = 0; k < size; k++) I64.set(b, pos + 8 * k, a[k]);
        pos += 8 * size;
        return;
      }
      int[] ints = list instanceof PrimitiveList.Ints && e.code == K_INT32 ? ((PrimitiveList.Ints) list).ints() : null;
      if (ints != null) {
        room(4 * size);
        for (int k = 0; k < size; k++) I32.set(b, pos + 4 * k, ints[k]);
        pos += 4 * size;
        return;
      }
    }
    if (list instanceof RandomAccess) {
      for (int i = 0; i < size; i++) value(e, list.get(i));
    } else {
      int i = 0;
      for (Iterator<?> it = list.iterator(); it.hasNext(); i++) {
        if (i == size) throw GIVE_UP;
        value(e, it.next());
      }
      if (i != size) throw GIVE_UP;
    }
  }

  /** UTF-8, as the tape carries it; a lone surrogate (which the core refuses): give up. */
  private void string(String s) {
    int len = s.length();
    room(4 + 3 * len);
    int start = pos + 4, o = start, i = 0;
    byte[] b = this.b;
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
      } else if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c) || i + 1 == len || !Character.isLowSurrogate(s.charAt(i + 1))) throw GIVE_UP;
        int cp = Character.toCodePoint(c, s.charAt(++i));
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
    I32.set(b, pos, o - start);
    pos = o;
  }

  // ------------------------------------------------------------------ from a tape C wrote

  private long slot() {
    long x = (long) SLOT.get(tape, n << 3);
    n++;
    return x;
  }

  /** The bytes of a string or bytes (its length slot, its bytes on the byte tape: UTF-8 as C wrote it). */
  private void span() {
    int len = (int) slot();
    i32(len);
    room(len);
    System.arraycopy(tape, p, b, pos, len);
    p += len;
    pos += len;
  }

  private void savedStruct(StructType st) {
    for (FieldType t : st.types) savedValue(t);
  }

  private void savedValue(FieldType t) {
    switch (t.code) {
      case K_BOOL: i8(slot() != 0 ? 1 : 0); return;
      case K_BYTE: case K_CHAR: case K_INT8: case K_UINT8: i8(slot()); return;
      case K_INT16: case K_UINT16: i16(slot()); return;
      case K_WCHAR: case K_INT32: case K_UINT32: case K_FLOAT: i32(slot()); return;
      case K_INT64: case K_UINT64: case K_TIMESTAMP: case K_DOUBLE: i64(slot()); return;
      case K_UUID: {
        long msb = slot(), lsb = slot();
        room(16);
        BE64.set(b, pos, msb);
        BE64.set(b, pos + 8, lsb);
        pos += 16;
        return;
      }
      case K_STRING: case K_BYTES: span(); return;
      case K_ENUM: case K_FLAGS: sized(wireSize(t.enumType().base().ordinal()), slot()); return;
      case K_STRUCT: savedStruct(t.struct()); return;
      case K_OPTIONAL: // (levels counted as for Java values: the tape may sit deep inside them)
        if (slot() == 0) {
          i8(0);
          return;
        }
        deeper();
        i8(1);
        savedValue(t.element());
        depth--;
        return;
      case K_ARRAY: case K_VECTOR: case K_LIST: {
        int count = t.code == K_ARRAY ? t.arraySize() : (int) slot();
        if (t.code != K_ARRAY) {
          deeper();
          i32(count);
        }
        FieldType e = t.element();
        if (e.code == K_INT64 || e.code == K_UINT64 || e.code == K_TIMESTAMP || e.code == K_DOUBLE) {
          room(8 * count);
          for (int k = 0; k < count; k++) I64.set(b, pos + 8 * k, slot());
          pos += 8 * count;
        } else {
          for (int k = 0; k < count; k++) savedValue(e);
        }
        if (t.code != K_ARRAY) depth--;
        return;
      }
      default: // not FinalReader.readable: never here
        throw GIVE_UP;
    }
  }
}

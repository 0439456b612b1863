package org.libfbe;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The List a decoded collection of 64-bit integers ({@link Longs}: int64, uint64,
 * timestamp, uint32), of ints ({@link Ints}: int32, uint16, wchar) or of doubles
 * ({@link Doubles}) comes in: its elements in a primitive array, each boxed only when it
 * is read (as protobuf-java's LongArrayList, a thousand ids are one long[], not a
 * thousand Longs; a loop that unboxes what it reads allocates nothing). It is an
 * ordinary mutable List of the elements' canonical class: get gives a Long (Integer,
 * Double) as an ArrayList of them would, equals and hashCode are List's. A value of any
 * other class stored in it (set, add: a caller's own business, which encode then
 * refuses with its path, as for an ArrayList) turns it into a list of Objects for good.
 */
abstract class PrimitiveList extends AbstractList<Object> implements RandomAccess {
  int size;
  /** The general form, once a value not of the element class was stored (then the primitive array is dropped). */
  Object[] boxed;

  PrimitiveList(int size) {
    this.size = size;
  }

  @Override
  public final int size() {
    return size;
  }

  /** Element i boxed, in the primitive form. */
  abstract Object box(int i);

  /** Stores v at i when it is of the element class (primitive form): true; else false, nothing stored. */
  abstract boolean store(int i, Object v);

  /** v is of the element class (a non-null Long, Integer or Double). */
  abstract boolean accepts(Object v);

  /** Room for one more element, elements [at, size) moved up by one (primitive form). */
  abstract void openAt(int at);

  /** Elements (at, size) moved down by one (primitive form). */
  abstract void closeAt(int at);

  /** The primitive array dropped (the general form has it all). */
  abstract void dropPrimitive();

  @Override
  public final Object get(int i) {
    Objects.checkIndex(i, size);
    return boxed == null ? box(i) : boxed[i];
  }

  @Override
  public final Object set(int i, Object v) {
    Objects.checkIndex(i, size);
    if (boxed == null) {
      Object old = box(i);
      if (store(i, v)) return old;
      toGeneral();
    }
    Object old = boxed[i];
    boxed[i] = v;
    return old;
  }

  @Override
  public final void add(int i, Object v) {
    Objects.checkIndex(i, size + 1);
    if (boxed == null) {
      if (accepts(v)) {
        openAt(i);
        store(i, v);
        size++;
        modCount++;
        return;
      }
      toGeneral();
    }
    if (size == boxed.length) boxed = Arrays.copyOf(boxed, Math.max(8, size * 2));
    System.arraycopy(boxed, i, boxed, i + 1, size - i);
    boxed[i] = v;
    size++;
    modCount++;
  }

  @Override
  public final Object remove(int i) {
    Objects.checkIndex(i, size);
    Object old = get(i);
    if (boxed == null) {
      closeAt(i);
    } else {
      System.arraycopy(boxed, i + 1, boxed, i, size - i - 1);
      boxed[size - 1] = null;
    }
    size--;
    modCount++;
    return old;
  }

  private void toGeneral() {
    Object[] b = new Object[Math.max(8, size + 1)];
    for (int k = 0; k < size; k++) b[k] = box(k);
    boxed = b;
    dropPrimitive();
  }

  static int grown(int length) {
    return Math.max(8, length * 2);
  }

  /** 64-bit integers: Longs. */
  static final class Longs extends PrimitiveList {
    long[] a;

    Longs(long[] a, int size) {
      super(size);
      this.a = a;
    }

    /** The elements (the first size), or null in the general form. */
    long[] longs() {
      return boxed == null ? a : null;
    }

    @Override
    Object box(int i) {
      return a[i];
    }

    @Override
    boolean accepts(Object v) {
      return v instanceof Long;
    }

    @Override
    boolean store(int i, Object v) {
      if (!(v instanceof Long)) return false;
      a[i] = (Long) v;
      return true;
    }

    @Override
    void openAt(int at) {
      if (size == a.length) a = Arrays.copyOf(a, grown(a.length));
      System.arraycopy(a, at, a, at + 1, size - at);
    }

    @Override
    void closeAt(int at) {
      System.arraycopy(a, at + 1, a, at, size - at - 1);
    }

    @Override
    void dropPrimitive() {
      a = null;
    }
  }

  /** ints: Integers. */
  static final class Ints extends PrimitiveList {
    int[] a;

    Ints(int[] a, int size) {
      super(size);
      this.a = a;
    }

    int[] ints() {
      return boxed == null ? a : null;
    }

    @Override
    Object box(int i) {
      return a[i];
    }

    @Override
    boolean accepts(Object v) {
      return v instanceof Integer;
    }

    @Override
    boolean store(int i, Object v) {
      if (!(v instanceof Integer)) return false;
      a[i] = (Integer) v;
      return true;
    }

    @Override
    void openAt(int at) {
      if (size == a.length) a = Arrays.copyOf(a, grown(a.length));
      System.arraycopy(a, at, a, at + 1, size - at);
    }

    @Override
    void closeAt(int at) {
      System.arraycopy(a, at + 1, a, at, size - at - 1);
    }

    @Override
    void dropPrimitive() {
      a = null;
    }
  }

  /** doubles: Doubles (their bits kept, NaN payloads too). */
  static final class Doubles extends PrimitiveList {
    long[] bits;

    Doubles(long[] bits, int size) {
      super(size);
      this.bits = bits;
    }

    long[] bits() {
      return boxed == null ? bits : null;
    }

    @Override
    Object box(int i) {
      return Double.longBitsToDouble(bits[i]);
    }

    @Override
    boolean accepts(Object v) {
      return v instanceof Double;
    }

    @Override
    boolean store(int i, Object v) {
      if (!(v instanceof Double)) return false;
      bits[i] = Double.doubleToRawLongBits((Double) v);
      return true;
    }

    @Override
    void openAt(int at) {
      if (size == bits.length) bits = Arrays.copyOf(bits, grown(bits.length));
      System.arraycopy(bits, at, bits, at + 1, size - at);
    }

    @Override
    void closeAt(int at) {
      System.arraycopy(bits, at + 1, bits, at, size - at - 1);
    }

    @Override
    void dropPrimitive() {
      bits = null;
    }
  }
}

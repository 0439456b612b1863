package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The primitive-backed lists decoded collections of longs, ints and doubles come in
 * (PrimitiveList) behave as an ArrayList of the same elements under any sequence of
 * List operations (the same results, elements, equality, hash, iteration and
 * concurrent-modification checks), values of another class included; and a message
 * holding one encodes as with an ArrayList, refusing a bad element with its path.
 */
class PrimitiveListTest {
  /** A random walk of operations on the list and on an ArrayList copy: every result equal. */
  static void sameAsArrayList(List<Object> l, IntFunction<Object> element, long seed) {
    List<Object> want = new ArrayList<>(l);
    Random rnd = new Random(seed);
    for (int step = 0; step < 2000; step++) {
      int op = rnd.nextInt(8), size = want.size();
      Object v = rnd.nextInt(20) == 0 ? (rnd.nextBoolean() ? "text" : null) : element.apply(rnd.nextInt(1000) - 500);
      switch (op) {
        case 0: if (size > 0) { int i = rnd.nextInt(size); assertEquals(want.set(i, v), l.set(i, v)); } break;
        case 1: { int i = rnd.nextInt(size + 1); want.add(i, v); l.add(i, v); break; }
        case 2: if (size > 0) { int i = rnd.nextInt(size); assertEquals(want.remove(i), l.remove(i)); } break;
        case 3: assertEquals(want.add(v), l.add(v)); break;
        case 4: assertEquals(want.indexOf(v), l.indexOf(v)); break;
        case 5: if (size > 0) { int i = rnd.nextInt(size); assertEquals(want.get(i), l.get(i)); } break;
        case 6: if (size > 3 && rnd.nextInt(10) == 0) { want.subList(1, 3).clear(); l.subList(1, 3).clear(); } break;
        default: assertEquals(want.contains(v), l.contains(v)); break;
      }
      assertEquals(want.size(), l.size());
    }
    assertEquals(want, l);
    assertEquals(l, want);
    assertEquals(want.hashCode(), l.hashCode());
    assertEquals(want.toString(), l.toString());
    assertThrows(IndexOutOfBoundsException.class, () -> l.get(l.size()));
    assertThrows(IndexOutOfBoundsException.class, () -> l.set(-1, element.apply(1)));
    Iterator<Object> it = l.iterator();
    l.add(element.apply(3));
    assertThrows(ConcurrentModificationException.class, it::next);
  }

  @Test
  void primitiveListsBehaveAsArrayLists() {
    for (long seed = 1; seed <= 20; seed++) {
      sameAsArrayList(new PrimitiveList.Longs(new long[] {1, 2, 3}, 3), i -> (long) i * 1_000_000_007L, seed);
      sameAsArrayList(new PrimitiveList.Ints(new int[] {7, 0}, 1), i -> i, seed);
      sameAsArrayList(new PrimitiveList.Doubles(new long[0], 0), i -> i / 3.0, seed);
      // only the element class stays primitive: an Integer in a Longs is another value
      sameAsArrayList(new PrimitiveList.Longs(new long[] {5}, 1), i -> i % 2 == 0 ? (Object) (long) i : (Object) i, seed);
    }
  }

  @Test
  void decodedCollectionsComeAsPrimitiveListsAndEncodeBack() {
    String text = "package prim\n"
        + "struct C { int64[] a; uint32[] b; int32[] c; uint16[] d; wchar[] e; double[] f; timestamp[3] g; }\n";
    try (Schema s = Fbe.loadString(text, "prim.fbe", List.of())) {
      StructType c = s.struct("C");
      Message m = c.newMessage().set("a", List.of(1L, -2L)).set("b", List.of(0xFFFFFFFFL)).set("c", List.of(-3, 4))
          .set("d", List.of(65535)).set("e", List.of(0x1F600)).set("f", List.of(-0.0, Double.NaN))
          .set("g", List.of(1L, 2L, 3L));
      for (Model model : Model.values()) {
        for (boolean direct : new boolean[] {true, false}) {
          StructType.directDecode = direct;
          try {
            Message d = c.decode(m.encode(model), model);
            for (Field f : c.fields()) assertInstanceOf(PrimitiveList.class, d.getList(f.name()), f.name());
            assertEquals(m, d);
            assertEquals(m.toString(), d.toString());
            // changed in place, still primitive: encodes the change
            d.<Long>getList("a").set(1, 99L);
            d.<Integer>getList("c").add(0, 11);
            Message back = c.decode(d.encode(model), model);
            assertEquals(List.of(1L, 99L), back.getList("a"));
            assertEquals(List.of(11, -3, 4), back.getList("c"));
            // a value out of the element's range, or of another class: encode's refusal and path
            d.<Long>getList("b").set(0, 1L << 32);
            FbeException e = assertThrows(FbeException.class, () -> d.encode(model));
            assertEquals("b[0]", e.path());
            d.<Long>getList("b").set(0, 5L);
            d.<Integer>getList("d").set(0, 70000);
            assertEquals("d[0]", assertThrows(FbeException.class, () -> d.encode(model)).path());
            d.<Integer>getList("d").set(0, 1);
            @SuppressWarnings({"rawtypes", "unchecked"})
            List<Object> raw = (List) d.getList("f");
            raw.add("x");
            assertEquals("f[2]", assertThrows(FbeException.class, () -> d.encode(model)).path());
            raw.remove(2);
            assertTrue(c.decode(d.encode(model), model).sameValue(d));
          } finally {
            StructType.directDecode = true;
          }
        }
      }
    }
  }
}

package org.libfbe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.libfbe.internal.Walk;

/**
 * A schema enum or flags type. Its values are {@link EnumValue}s: the named ones are
 * shared constants, and any other value of the base type is a valid EnumValue too (a
 * newer writer's value survives decode and encode).
 */
public final class EnumType {
  private final String name;
  private final String fullName;
  private final boolean flags;
  private final Kind base;
  private final Map<String, EnumValue> byName = new LinkedHashMap<>();
  private final Map<Long, EnumValue> byValue = new HashMap<>();
  private final Map<Long, EnumValue> unnamed = new ConcurrentHashMap<>();
  /** The core's dense index of the enum (fbe_enum_index), and its schema (set once loaded). */
  final int index;
  Schema schema;
  /** Named values by number - denseLo, for the decoder (Tape); null when sparse. */
  EnumValue[] dense;
  long denseLo;

  EnumType(int index, String name, String fullName, boolean flags, Kind base) {
    this.index = index;
    this.name = name;
    this.fullName = fullName;
    this.flags = flags;
    this.base = base;
  }

  void addValue(String valueName, long value) {
    EnumValue v = byValue.get(value);
    if (v == null) {
      v = new EnumValue(this, value, valueName);
      byValue.put(value, v);
    }
    byName.put(valueName, v.name().equals(valueName) ? v : new EnumValue(this, value, valueName));
  }

  /** Called once the values are added: the decoder's table of named values. */
  void seal() {
    if (byValue.isEmpty()) return;
    long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
    for (long v : byValue.keySet()) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    if (hi - lo < 0 || hi - lo >= 256) return;
    EnumValue[] t = new EnumValue[(int) (hi - lo + 1)];
    for (EnumValue v : byValue.values()) t[(int) (v.value - lo)] = v;
    denseLo = lo;
    dense = t;
  }

  public String name() {
    return name;
  }

  public String fullName() {
    return fullName;
  }

  public boolean isFlags() {
    return flags;
  }

  /** The underlying integer kind (int32 unless the schema says otherwise). */
  public Kind base() {
    return base;
  }

  /** The named values, in declaration order. */
  public List<EnumValue> values() {
    return Collections.unmodifiableList(new ArrayList<>(byName.values()));
  }

  /**
   * The value named `name`; for flags also names and numbers joined by '|' ("a|b",
   * "good|64"), read by the core's rule (fbe_enum_parse).
   *
   * @throws FbeException ARGUMENT when the text is not a value of this type (the core's
   *     words, with the nearest name suggested)
   */
  public EnumValue of(String name) {
    EnumValue v = byName.get(name);
    if (v != null) return v;
    long core = schema.enter();
    try {
      return of(Walk.enumParse(core, index, Values.utf8(name)));
    } finally {
      schema.exit();
    }
  }

  /**
   * The value with this number (the 64-bit pattern, sign-extended for signed bases):
   * the named constant when there is one, else an unnamed value that keeps the number.
   *
   * @throws FbeException RANGE when the number does not fit the base type
   */
  public EnumValue of(long value) {
    EnumValue v = byValue.get(value);
    if (v != null) return v;
    if (!Values.fits(base, value)) throw Values.intRange(base, value);
    return unnamed.size() < 1024 ? unnamed.computeIfAbsent(value, k -> new EnumValue(this, k, null))
        : new EnumValue(this, value, null);
  }

  /** A value in the text form (fbe_text_write_enum): see {@link EnumValue#toString()}. */
  String text(long value) {
    long core = schema.enter();
    try {
      return new String(Walk.enumText(core, index, value), java.nio.charset.StandardCharsets.UTF_8);
    } finally {
      schema.exit();
    }
  }

  @Override
  public String toString() {
    return (flags ? "flags " : "enum ") + fullName;
  }
}

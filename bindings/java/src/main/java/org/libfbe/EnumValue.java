package org.libfbe;

import java.util.ArrayList;
import java.util.List;

/**
 * One value of an enum or flags type: its type, its number and, when the schema names
 * it, its name. Unnamed numbers are valid values (they come from newer writers). Equal
 * when of the same type with the same number.
 */
public final class EnumValue {
  final EnumType type;
  final long value;
  private final String name;

  EnumValue(EnumType type, long value, String name) {
    this.type = type;
    this.value = value;
    this.name = name;
  }

  public EnumType type() {
    return type;
  }

  /** The number (the 64-bit pattern, sign-extended for signed bases). */
  public long value() {
    return value;
  }

  /** The schema name, or null for a value the schema does not name. */
  public String name() {
    return name;
  }

  public boolean isNamed() {
    return name != null;
  }

  /** Flags: true when every bit of `other` is set here. */
  public boolean has(EnumValue other) {
    return (value & other.value) == other.value;
  }

  /** Flags: this OR other. */
  public EnumValue or(EnumValue other) {
    return type.of(value | other.value);
  }

  /** The name; for unnamed flags the set names joined by '|'; else the number. */
  @Override
  public String toString() {
    if (name != null) return name;
    if (type.isFlags() && value != 0) {
      List<String> parts = new ArrayList<>();
      long rest = value;
      for (EnumValue v : type.values()) {
        if (v.value != 0 && Long.bitCount(v.value) == 1 && (value & v.value) != 0) {
          parts.add(v.name);
          rest &= ~v.value;
        }
      }
      if (rest == 0 && !parts.isEmpty()) return String.join("|", parts);
    }
    return Long.toString(value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EnumValue && ((EnumValue) o).type == type && ((EnumValue) o).value == value;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(value) * 31 + type.fullName().hashCode();
  }
}

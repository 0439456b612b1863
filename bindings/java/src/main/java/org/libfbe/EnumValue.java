package org.libfbe;

/**
 * One value of an enum or flags type: its type, its number and, when the schema names
 * it, its name. Unnamed numbers are valid values (they come from newer writers). Equal
 * when of the same type with the same number.
 */
public final class EnumValue {
  final EnumType type;
  final long value;
  private final String name;
  private volatile String text; // toString(), made once (racing threads make the same)

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

  /**
   * The text form of the value (docs/TEXT.md, written by the core: fbe_text_write_enum),
   * as it prints inside a message: an enum's name, or its number when the schema names
   * none; flags as the names of every declared value whose bits are set, joined by '|',
   * then the bits left over ("initialized|calculated|good", "good|64", "64"). A value of
   * a closed schema prints {@code <invalid: the schema is closed>}.
   */
  @Override
  public String toString() {
    String t = text;
    if (t == null) {
      try {
        text = t = type.text(value);
      } catch (FbeException e) {
        return "<invalid: " + e.getMessage() + ">";
      }
    }
    return t;
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

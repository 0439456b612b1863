package org.libfbe;

/** A field of a struct (inherited fields come first in a struct's list). */
public final class Field {
  private final String name;
  private final int index;
  private final FieldType type;
  private final boolean key;

  Field(String name, int index, FieldType type, boolean key) {
    this.name = name.intern(); // the JVM's copy: a lookup by a literal name (the same object) hits by identity
    this.index = index;
    this.type = type;
    this.key = key;
  }

  public String name() {
    return name;
  }

  /** Position in the struct's flattened field list. */
  public int index() {
    return index;
  }

  public FieldType type() {
    return type;
  }

  /** Marked [key] in the schema. */
  public boolean isKey() {
    return key;
  }

  @Override
  public String toString() {
    return (key ? "[key] " : "") + type + " " + name;
  }
}

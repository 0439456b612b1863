package org.libfbe;

/** Every type form of the schema language, in the order of the core's fbe_kind. */
public enum Kind {
  BOOL, BYTE, CHAR, WCHAR, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64,
  FLOAT, DOUBLE, DECIMAL, TIMESTAMP, UUID, STRING, BYTES, ENUM, FLAGS, STRUCT,
  OPTIONAL, ARRAY, VECTOR, LIST, SET, MAP, HASH;

  private static final Kind[] ALL = values();

  static Kind of(int ordinal) {
    return ALL[ordinal];
  }

  /** The schema spelling: "int32", "vector", ... */
  public String schemaName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}

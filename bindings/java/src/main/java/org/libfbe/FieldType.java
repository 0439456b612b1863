package org.libfbe;

/** The type of a field, an element, a key or a value: a kind plus what it refers to. */
public final class FieldType {
  private final Kind kind;
  private final FieldType element;
  private final FieldType key;
  private StructType struct;
  private final EnumType enumType;
  private final int arraySize;

  FieldType(Kind kind, FieldType element, FieldType key, StructType struct, EnumType enumType, int arraySize) {
    this.kind = kind;
    this.element = element;
    this.key = key;
    this.struct = struct;
    this.enumType = enumType;
    this.arraySize = arraySize;
  }

  public Kind kind() {
    return kind;
  }

  /** Optional inner type; array/vector/list/set element; map/hash value. Else null. */
  public FieldType element() {
    return element;
  }

  /** Map/hash key type, else null. */
  public FieldType key() {
    return key;
  }

  /** STRUCT: the struct type. */
  public StructType struct() {
    return struct;
  }

  /** ENUM/FLAGS: the enum type. */
  public EnumType enumType() {
    return enumType;
  }

  /** ARRAY: the number of items. */
  public int arraySize() {
    return arraySize;
  }

  /** The schema spelling: "int32", "Order[]", "string?", "map<int32, Balance>", ... */
  @Override
  public String toString() {
    switch (kind) {
      case STRUCT: return struct.fullName();
      case ENUM: case FLAGS: return enumType.fullName();
      case OPTIONAL: return element + "?";
      case ARRAY: return element + "[" + arraySize + "]";
      case VECTOR: return element + "[]";
      case LIST: return element + "(list)";
      case SET: return "set<" + element + ">";
      case MAP: return "map<" + key + ", " + element + ">";
      case HASH: return "hash<" + key + ", " + element + ">";
      default: return kind.schemaName();
    }
  }
}

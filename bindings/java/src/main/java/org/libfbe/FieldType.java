package org.libfbe;

/** The type of a field, an element, a key or a value: a kind plus what it refers to. */
public final class FieldType {
  /** The schema, and the core's fbe_type of this type in it (named in the core's input errors). */
  final Schema schema;
  final long ptr;
  private final Kind kind;
  private final FieldType element;
  private final FieldType key;
  private StructType struct;
  private final EnumType enumType;
  private final int arraySize;
  /** Integer kinds: the range Values.checkInteger allows (read by Tape's fast path). */
  final long min, max;
  /** kind.ordinal(), for Tape's int switch. */
  final int code;

  FieldType(Schema schema, long ptr, Kind kind, FieldType element, FieldType key, StructType struct,
      EnumType enumType, int arraySize) {
    this.schema = schema;
    this.ptr = ptr;
    this.kind = kind;
    this.element = element;
    this.key = key;
    this.struct = struct;
    this.enumType = enumType;
    this.arraySize = arraySize;
    long lo = Long.MIN_VALUE, hi = Long.MAX_VALUE;
    switch (kind) {
      case BOOL: lo = 0; hi = 1; break;
      case INT8: lo = Byte.MIN_VALUE; hi = Byte.MAX_VALUE; break;
      case BYTE: case CHAR: case UINT8: lo = 0; hi = 0xFF; break;
      case INT16: lo = Short.MIN_VALUE; hi = Short.MAX_VALUE; break;
      case UINT16: lo = 0; hi = 0xFFFF; break;
      case INT32: lo = Integer.MIN_VALUE; hi = Integer.MAX_VALUE; break;
      case UINT32: lo = 0; hi = 0xFFFFFFFFL; break;
      case WCHAR: lo = 0; hi = 0xFFFFFFFFL; break; // an Integer holds its 32 bits (Tape reads it unsigned)
      default: break;
    }
    min = lo;
    max = hi;
    code = kind.ordinal();
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

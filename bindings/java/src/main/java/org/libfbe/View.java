package org.libfbe;

import java.lang.ref.Reference;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.libfbe.internal.Walk;

/**
 * A read-only view of one value of verified bytes, read in place by the core's fbe_view
 * (core/include/fbe/view.h): {@link StructType#view} verifies the bytes (the same verify,
 * limits and errors as {@link StructType#decode}) and gives the view of the root struct;
 * every getter then reads its field from the bytes, one native call each, without
 * decoding the rest. A nested struct, a collection or a map is itself a View
 * ({@link #view(String)}, {@link #at(int)}); an optional reads as its value, or null.
 *
 * <p>Values read as decode gives them, in the same classes ({@link #get(String)}; the
 * README's type table), with two differences of the core's view: a field an older writer
 * did not have whose default is dynamic (utc, uuid1, uuid4) reads as zero, and a set or
 * map reads its entries as written (decode keeps one per key; {@link #toValue()} does
 * too). {@link #toValue()} is the decoded value itself, {@link #toString()} and
 * {@link #toJson()} are the core's text and JSON of it (the decoded value's, exactly),
 * {@link #equals} is the core's deep equality against a view or a {@link Message}.
 *
 * <p>Lifetime: the view reads its own copy of the bytes, made once at the open, so
 * changing the array afterwards changes nothing the view reads (and no read can leave
 * the copy: the core checks every access against it). The copy is a Java array: a view
 * and the views made from it share it, the GC frees it with the last of them, and there
 * is no native state to close. A view keeps its Schema reachable, and a Schema that
 * made views keeps the core's schema (the types the views point at) until the Schema
 * itself is unreachable, so reading works after {@link Schema#close()} too;
 * {@link #toValue()} and equality with a Message, which need the schema's tables,
 * throw then, as every operation of a closed schema does. Immutable: share it between
 * threads freely (each read pins the copy for the length of its native call).
 *
 * <p>Cost: a getter is one native call (with a String, one lookup of the field by name
 * first; the getters by index skip it); a string is then made straight from the copy. Standard model: every access is O(1). Final
 * model: a field or element walks the ones before it (fbe/view.h), so reading every
 * element of a long variable-size collection by index is quadratic: decode it instead.
 */
public final class View {
  // How a view was reached from its parent (Walk.viewChild's `how`).
  private static final int FIELD = 0, AT = 1, KEY = 2, VALUE = 3;

  /** The view's own copy of the bytes, the model's end in it, the model (0 standard, 1 final), the open's limits. */
  private final byte[] data;
  private final long end;
  private final int model;
  private final Limits limits;
  /** The root struct's type, or the struct of a struct value; else null. */
  private final StructType struct;
  /** The value's type (never an optional: views read through them); null for the root. */
  private final FieldType type;
  private final Kind kind;
  /** The core's cursor: fbe_view's type, at, base, image. */
  private final long ctype, at, base, image;
  /** The value this one is inside (null for the root), how and where. */
  private final View parent;
  private final int how, index;

  private View(View from, byte[] data, long end, int model, Limits limits, StructType struct, FieldType type,
      long[] c, View parent, int how, int index) {
    this.data = from != null ? from.data : data;
    this.end = from != null ? from.end : end;
    this.model = from != null ? from.model : model;
    this.limits = from != null ? from.limits : limits;
    this.type = type;
    this.struct = struct != null ? struct : type != null && type.kind() == Kind.STRUCT ? type.struct() : null;
    this.kind = type != null ? type.kind() : Kind.STRUCT;
    this.ctype = c[0];
    this.at = c[1];
    this.base = c[2];
    this.image = c[3];
    this.parent = parent;
    this.how = how;
    this.index = index;
  }

  /**
   * StructType.view: the native call checks data[off, off+len) (decode's check, in C),
   * copies it, verifies the copy and opens the root view (decode's errors).
   */
  static View open(StructType st, byte[] data, int off, int len, Model model, Limits limits) {
    Limits l = Limits.of(limits);
    long[] c = new long[5];
    Schema schema = st.schema;
    long core = schema.enter();
    byte[] copy;
    try {
      schema.keepForViews(core);
      copy = Walk.viewOpen(core, st.index, data, off, len, model.ordinal(), l.maxDepth(), l.maxModelSize(),
          l.maxMemory(), c);
    } finally {
      schema.exit();
    }
    return new View(null, copy, c[4], model.ordinal(), l, st, null, c, null, FIELD, -1);
  }

  // ------------------------------------------------------------------ what it is

  /** The kind of the viewed value (STRUCT for a message's view; never OPTIONAL). */
  public Kind kind() {
    return kind;
  }

  /** The struct of a struct view, else null. */
  public StructType structType() {
    return struct;
  }

  /** The value's type as the schema declares it (null for the root view: see {@link #structType()}). */
  public FieldType fieldType() {
    return type;
  }

  private Field field(String name) {
    if (struct == null) throw new FbeException(Status.TYPE, "a " + describe() + " has no fields");
    return struct.field(name);
  }

  private Field field(int i) {
    if (struct == null) throw new FbeException(Status.TYPE, "a " + describe() + " has no fields");
    List<Field> fs = struct.fields();
    if (i < 0 || i >= fs.size())
      throw new FbeException(Status.NOT_FOUND, "no field " + i + " in " + struct.fullName() + " (" + fs.size() + " fields)");
    return fs.get(i);
  }

  private String describe() {
    return type != null ? type.toString() : kind.schemaName();
  }

  /** The type of item i (see the getters by index); an index past a collection's end is the native call's NOT_FOUND. */
  private FieldType itemType(int i) {
    if (struct != null) return field(i).type();
    switch (kind) {
      case ARRAY: case VECTOR: case LIST: case SET: case MAP: case HASH:
        if (i < 0) throw new FbeException(Status.NOT_FOUND, "index " + i + " out of range");
        return type.element();
      default:
        throw new FbeException(Status.TYPE, "a " + describe() + " has no items");
    }
  }

  // ------------------------------------------------------------------ navigation

  private View child(FieldType t, int how, int i) {
    long[] c = new long[4];
    int got;
    try {
      got = Walk.viewChild(data, end, model, ctype, at, base, image, how, i, c);
    } finally {
      Reference.reachabilityFence(this); // and so its Schema, whose core schema the cursor points into
    }
    if (got == 2) return null; // a null optional
    if (got == 0) throw new FbeException(Status.NOT_FOUND, "no such value in the " + describe());
    return new View(this, null, 0, 0, null, null, t.kind() == Kind.OPTIONAL ? t.element() : t, c, this, how, i);
  }

  /** The view of a field (a struct, collection or map field; any field reads this way): null for a null optional. */
  public View view(String field) {
    Field f = field(field);
    return child(f.type(), FIELD, f.index());
  }

  /** The view of field i (see {@link StructType#fields()}). */
  public View view(int field) {
    return child(field(field).type(), FIELD, field);
  }

  /** Element i of an array, vector, list or set (as written); a map's value i. Null for a null optional. */
  public View at(int i) {
    FieldType t = itemType(i);
    return child(t, struct == null && (kind == Kind.MAP || kind == Kind.HASH) ? VALUE : AT, i);
  }

  /** Key i of a map or hash (entries as written). */
  public View keyAt(int i) {
    itemType(i);
    if (kind != Kind.MAP && kind != Kind.HASH) throw new FbeException(Status.TYPE, "a " + describe() + " has no keys");
    return child(type.key(), KEY, i);
  }

  /** Value i of a map or hash (entries as written). */
  public View valueAt(int i) {
    itemType(i);
    if (kind != Kind.MAP && kind != Kind.HASH) throw new FbeException(Status.TYPE, "a " + describe() + " has no keys");
    return child(type.element(), VALUE, i);
  }

  /** The number of elements (array, vector, list, set: as written) or entries (map, hash). */
  public int count() {
    switch (kind) {
      case ARRAY: case VECTOR: case LIST: case SET: case MAP: case HASH:
        return (int) countOf(-1);
      default:
        throw new FbeException(Status.TYPE, "a " + describe() + " has no items");
    }
  }

  /** The count of a collection or map field ({@link #count()} of {@link #view(String)} in one call). */
  public int count(String field) {
    Field f = field(field);
    long n = countOf(f.index());
    if (n < 0) throw nullOptional(f.name());
    return (int) n;
  }

  private long countOf(int i) {
    try {
      return Walk.viewCount(data, end, model, ctype, at, base, image, i);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** An optional field that holds no value (for any other field: false). */
  public boolean isNull(String field) {
    Field f = field(field);
    return f.type().kind() == Kind.OPTIONAL && child(f.type(), FIELD, f.index()) == null;
  }

  private static FbeException nullOptional(String where) {
    return new FbeException(Status.NOT_FOUND, "the optional holds no value", where, -1, List.of());
  }

  // ------------------------------------------------------------------ values
  // By name: a field. By index: a struct's field i, a collection's element i, a map's
  // value i. The ...Value() forms: this view's own value (an element's, a key's).

  private long longOf(int i, String where) {
    try {
      return Walk.viewLong(data, end, model, ctype, at, base, image, i);
    } catch (FbeException e) {
      throw where == null ? e : e.under(where);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private double doubleOf(int i, String where) {
    try {
      return Walk.viewDouble(data, end, model, ctype, at, base, image, i);
    } catch (FbeException e) {
      throw where == null ? e : e.under(where);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private byte[] bytesOf(int i, String where) {
    try {
      return Walk.viewBytes(data, end, model, ctype, at, base, image, i);
    } catch (FbeException e) {
      throw where == null ? e : e.under(where);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** A string's or bytes' place in the copy (offset << 32 | length), or -1 when elsewhere (a schema default). */
  private long spanOf(int i, String where) {
    try {
      return Walk.viewSpan(data, end, model, ctype, at, base, image, i);
    } catch (FbeException e) {
      throw where == null ? e : e.under(where);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** A string, read from the copy where it is (one native call, one String). */
  private String stringOf(int i, String where) {
    long span = spanOf(i, where);
    return span >= 0 ? new String(data, (int) (span >>> 32), (int) span, StandardCharsets.UTF_8)
        : new String(bytesOf(i, where), StandardCharsets.UTF_8);
  }

  private byte[] blobOf(int i, String where) {
    long span = spanOf(i, where);
    if (span < 0) return bytesOf(i, where);
    int from = (int) (span >>> 32);
    return Arrays.copyOfRange(data, from, from + (int) span);
  }

  private static int toInt(long x, String where) {
    if (x != (int) x) throw new FbeException(Status.RANGE, "value " + x + " is not an int", where, -1, List.of());
    return (int) x;
  }

  /** Any integer kind, bool (0/1), char, wchar, enum, flags or timestamp (ns); uint64 as its 64 bits. */
  public long getLong(String field) {
    return longOf(field(field).index(), field);
  }

  public long getLong(int i) {
    itemType(i);
    return longOf(i, null);
  }

  public long longValue() {
    return longOf(-1, null);
  }

  /** An integer that fits an int (int8..int32, byte, uint8, uint16, char, wchar, enums); else RANGE. */
  public int getInt(String field) {
    return toInt(getLong(field), field);
  }

  public int getInt(int i) {
    return toInt(getLong(i), null);
  }

  public int intValue() {
    return toInt(longValue(), null);
  }

  /** A double or float. */
  public double getDouble(String field) {
    return doubleOf(field(field).index(), field);
  }

  public double getDouble(int i) {
    itemType(i);
    return doubleOf(i, null);
  }

  public double doubleValue() {
    return doubleOf(-1, null);
  }

  // Bulk: every element of an array, vector, list or set of scalars in ONE native call
  // (a getter per element is a native call each). Elements as the one-element getters
  // read them (longs: getLong's integers, bool, char, enums, timestamps; doubles: floats
  // and doubles); a collection of anything else is TYPE, a null optional element
  // NOT_FOUND, both with the element's index in the path.

  /** This collection's elements as longs. */
  public long[] longs() {
    return longsOf(-1, null);
  }

  /** A collection field's elements as longs (NOT_FOUND for a null optional field). */
  public long[] longs(String field) {
    return longsOf(field(field).index(), field);
  }

  /** This collection's elements as ints: each must fit (RANGE otherwise, as {@link #getInt}). */
  public int[] ints() {
    return toInts(longs(), null);
  }

  public int[] ints(String field) {
    return toInts(longs(field), field);
  }

  /** This collection's elements (floats or doubles) as doubles. */
  public double[] doubles() {
    return doublesOf(-1, null);
  }

  public double[] doubles(String field) {
    return doublesOf(field(field).index(), field);
  }

  private long[] longsOf(int i, String where) {
    try {
      return Walk.viewLongs(data, end, model, ctype, at, base, image, i);
    } catch (FbeException e) {
      throw where == null ? e : e.under(where);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private double[] doublesOf(int i, String where) {
    try {
      return Walk.viewDoubles(data, end, model, ctype, at, base, image, i);
    } catch (FbeException e) {
      throw where == null ? e : e.under(where);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private static int[] toInts(long[] x, String where) {
    int[] out = new int[x.length];
    for (int k = 0; k < x.length; k++) {
      if (x[k] != (int) x[k]) {
        FbeException e = new FbeException(Status.RANGE, "value " + x[k] + " is not an int", "[" + k + "]", -1, List.of());
        throw where == null ? e : e.under(where);
      }
      out[k] = (int) x[k];
    }
    return out;
  }

  public float getFloat(String field) {
    return (float) getDouble(field);
  }

  public float getFloat(int i) {
    return (float) getDouble(i);
  }

  public float floatValue() {
    return (float) doubleValue();
  }

  public boolean getBoolean(String field) {
    return getLong(field) != 0;
  }

  public boolean getBoolean(int i) {
    return getLong(i) != 0;
  }

  public boolean booleanValue() {
    return longValue() != 0;
  }

  public char getChar(String field) {
    return (char) getLong(field);
  }

  public String getString(String field) {
    return stringOf(field(field).index(), field);
  }

  public String getString(int i) {
    itemType(i);
    return stringOf(i, null);
  }

  public String stringValue() {
    return stringOf(-1, null);
  }

  /** Bytes (a copy). */
  public byte[] getBytes(String field) {
    return blobOf(field(field).index(), field);
  }

  public byte[] getBytes(int i) {
    itemType(i);
    return blobOf(i, null);
  }

  public byte[] bytesValue() {
    return blobOf(-1, null);
  }

  public BigDecimal getDecimal(String field) {
    return NegativeZero.parse(new String(bytesOf(field(field).index(), field), StandardCharsets.ISO_8859_1));
  }

  public UUID getUuid(String field) {
    return uuid(bytesOf(field(field).index(), field));
  }

  public EnumValue getEnum(String field) {
    Field f = field(field);
    FieldType t = f.type().kind() == Kind.OPTIONAL ? f.type().element() : f.type();
    if (t.enumType() == null) throw new FbeException(Status.TYPE, "field is a " + t + ", not an enum", field, -1, List.of());
    return enumOf(t.enumType(), getLong(field));
  }

  private static UUID uuid(byte[] b) {
    long msb = 0, lsb = 0;
    for (int k = 0; k < 8; k++) {
      msb = msb << 8 | (b[k] & 0xFF);
      lsb = lsb << 8 | (b[8 + k] & 0xFF);
    }
    return new UUID(msb, lsb);
  }

  private static EnumValue enumOf(EnumType e, long x) {
    EnumValue[] dense = e.dense;
    long k = x - e.denseLo;
    if (dense != null && k >= 0 && k < dense.length && dense[(int) k] != null) return dense[(int) k];
    return e.of(x);
  }

  /**
   * A field's value in decode's classes (the README's type table): scalars, strings,
   * bytes, decimals, uuids and enums as decode gives them; a struct, collection or map
   * as a View; a null optional as null.
   */
  public Object get(String field) {
    Field f = field(field);
    return valueOf(f.type(), f.index(), field);
  }

  /** Item i (a struct's field, a collection's element, a map's value) as {@link #get(String)}. */
  public Object get(int i) {
    return valueOf(itemType(i), i, null);
  }

  /** This view's own value as {@link #get(String)} gives it (a struct or collection: this view). */
  public Object value() {
    return valueOf(type, -1, null);
  }

  private Object valueOf(FieldType t, int i, String where) {
    if (t == null) return this; // the root
    Kind k = t.kind();
    if (k == Kind.OPTIONAL) { // an item (i >= 0: views themselves read through optionals)
      View v = child(t, struct != null ? FIELD : kind == Kind.MAP || kind == Kind.HASH ? VALUE : AT, i);
      return v == null ? null : v.value();
    }
    switch (k) {
      case BOOL: return longOf(i, where) != 0;
      case INT8: return (byte) longOf(i, where);
      case INT16: case BYTE: case UINT8: return (short) longOf(i, where);
      case INT32: case UINT16: case WCHAR: return (int) longOf(i, where);
      case CHAR: return (char) longOf(i, where);
      case UINT32: case INT64: case UINT64: case TIMESTAMP: return longOf(i, where);
      case FLOAT: return (float) doubleOf(i, where);
      case DOUBLE: return doubleOf(i, where);
      case DECIMAL: return NegativeZero.parse(new String(bytesOf(i, where), StandardCharsets.ISO_8859_1));
      case UUID: return uuid(bytesOf(i, where));
      case STRING: return stringOf(i, where);
      case BYTES: return blobOf(i, where);
      case ENUM: case FLAGS: return enumOf(t.enumType(), longOf(i, where));
      default: // struct, collections, maps: a view
        return i < 0 ? this : child(t, struct != null ? FIELD : kind == Kind.MAP || kind == Kind.HASH ? VALUE : AT, i);
    }
  }

  // ------------------------------------------------------------------ as a value

  /**
   * The decoded value: for a struct view the Message {@link StructType#decode} gives
   * (made by the core from the viewed bytes: a set or map keeps one entry per key,
   * dynamic defaults are computed); for a collection or map the value decode gives that
   * field or element (a List, Set or Map); for a scalar, {@link #value()}.
   */
  public Object toValue() {
    if (struct != null) return message();
    switch (kind) {
      case ARRAY: case VECTOR: case LIST: case SET: case MAP: case HASH:
        break;
      default:
        return value();
    }
    // Where decode puts this value in its parent's decoded value (the core made it).
    Object p = parent.toValue();
    if (how == FIELD) return ((Message) p).get(index);
    if (how == VALUE) return ((Map<?, ?>) p).get(parent.keyAt(index).toValue());
    List<Object> items = p instanceof List ? null : new ArrayList<>((java.util.Collection<?>) p);
    return items == null ? ((List<?>) p).get(index) : items.get(index);
  }

  /** A struct view's decoded Message (TYPE for another view). */
  public Message toMessage() {
    if (struct == null) throw new FbeException(Status.TYPE, "a " + describe() + " is not a struct");
    return message();
  }

  private Message message() {
    Schema schema = struct.schema;
    Tape t = schema.begin();
    try {
      long used;
      while ((used = Walk.viewToMessage(data, end, model, ctype, at, base, image, t.core, struct.index,
          limits.maxDepth(), limits.maxModelSize(), limits.maxMemory(), t.at(), t.caps())) < 0)
        t.grow(-1 - used);
      return t.saved(struct, used);
    } finally {
      schema.end(t);
      Reference.reachabilityFence(this);
    }
  }

  /** The JSON of the viewed value (compact), the core's: the decoded value's exactly. */
  public String toJson() {
    return write(1);
  }

  public String toJson(boolean pretty) {
    return write(pretty ? 2 : 1);
  }

  /** The text form (docs/TEXT.md) of the viewed value, the core's: the decoded value's toString(). */
  @Override
  public String toString() {
    return write(0);
  }

  private String write(int what) {
    try {
      return new String(Walk.viewWrite(data, end, model, ctype, at, base, image, what, limits.maxDepth(),
          limits.maxModelSize(), limits.maxMemory()), StandardCharsets.UTF_8);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * The core's deep equality (floats by bit pattern, decimals by value): against another
   * View, or, for a struct view, a Message of the same struct type.
   */
  @Override
  public boolean equals(Object o) {
    if (this == o) return true;
    if (o instanceof View) {
      View v = (View) o;
      try {
        return Walk.viewEqual(data, end, model, ctype, at, base, image, v.data, v.end, v.model, v.ctype, v.at, v.base, v.image);
      } finally {
        Reference.reachabilityFence(this);
        Reference.reachabilityFence(v);
      }
    }
    if (!(o instanceof Message) || struct == null || ((Message) o).type != struct) return false;
    Schema schema = struct.schema;
    Tape t = schema.begin();
    try {
      t.putMessage((Message) o);
      return Walk.viewEqualMessage(data, end, model, ctype, at, base, image, t.core, struct.index, t.at(), t.caps());
    } catch (FbeException e) {
      return false; // a message holding a value that cannot be encoded (as Message.equals)
    } finally {
      schema.end(t);
      Reference.reachabilityFence(this);
    }
  }

  /**
   * A struct view hashes as its Message ({@link Message#hashCode()}: the [key] fields), so
   * a view and an equal message hash alike; a scalar as its value; a collection 0.
   */
  @Override
  public int hashCode() {
    if (struct != null) return struct.hasKeys ? message().hashCode() : 0;
    switch (kind) {
      case DECIMAL: // equal by value (1.5 == 1.50), which BigDecimal's hash is not
      case ARRAY: case VECTOR: case LIST: case SET: case MAP: case HASH:
        return 0;
      case BYTES:
        return Arrays.hashCode(bytesValue());
      default:
        return Objects.hashCode(value());
    }
  }
}

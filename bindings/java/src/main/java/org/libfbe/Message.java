package org.libfbe;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.libfbe.internal.Walk;

/**
 * One value of a schema struct: a plain Java object holding its field values (in the
 * canonical classes listed in the README's type table), checked against the schema's
 * types on {@link #set}. Encoding, decoding and JSON are each one native call: the
 * message crosses as a {@link Tape} of primitive slots. Not thread-safe (like any
 * mutable Java object).
 *
 * <p>Equality is deep, over every field (floats by bit pattern, decimals by value,
 * bytes by content); toString() is the reference's form {@code Account(id=1,name="Test",...)}.
 */
public final class Message {
  final StructType type;
  final Object[] values;

  /** Called by the tape (decode, defaults) with values already in canonical form. */
  Message(StructType type, Object[] values) {
    this.type = type;
    this.values = values;
  }

  public StructType type() {
    return type;
  }

  /**
   * Sets a field, converting the value to the field's canonical class.
   *
   * @throws FbeException UNKNOWN_FIELD for an unknown field, TYPE or RANGE for a value
   *     that does not fit (path = the field, with the item for collections)
   */
  public Message set(String field, Object value) {
    Field f = type.field(field);
    values[f.index()] = Values.under(f.name(), () -> Values.check(f.type(), value));
    return this;
  }

  /** The field's value (null for an absent optional). */
  public Object get(String field) {
    return values[type.field(field).index()];
  }

  /** The value of field `index` (see {@link StructType#fields()}). */
  public Object get(int index) {
    return values[index];
  }

  private <T> T as(String field, Class<T> cls) {
    Object v = get(field);
    if (v == null || cls.isInstance(v)) return cls.cast(v);
    throw new FbeException(Status.TYPE, "field holds " + v.getClass().getSimpleName()
        + ", not " + cls.getSimpleName(), field, -1, List.of());
  }

  private Number number(String field) {
    Object v = get(field);
    if (v instanceof Number) return (Number) v;
    if (v instanceof Character) return (int) (Character) v;
    if (v instanceof EnumValue) return ((EnumValue) v).value();
    throw new FbeException(Status.TYPE, "field is not a number", field, -1, List.of());
  }

  /** Integer fields of 32 bits or less (int8..int32, byte, uint8, uint16, char, wchar, enums). */
  public int getInt(String field) {
    Number n = number(field);
    long x = n.longValue();
    if (n instanceof Double || n instanceof Float || n instanceof BigDecimal || x != (int) x)
      throw new FbeException(Status.RANGE, "value " + n + " is not an int", field, -1, List.of());
    return (int) x;
  }

  /** Any integer field, timestamps (ns) included; uint64 as its 64 bits. */
  public long getLong(String field) {
    Number n = number(field);
    if (n instanceof Double || n instanceof Float || n instanceof BigDecimal)
      throw new FbeException(Status.TYPE, "value " + n + " is not an integer", field, -1, List.of());
    return n.longValue();
  }

  public double getDouble(String field) {
    return number(field).doubleValue();
  }

  public float getFloat(String field) {
    return as(field, Float.class);
  }

  public boolean getBoolean(String field) {
    return as(field, Boolean.class);
  }

  public char getChar(String field) {
    return as(field, Character.class);
  }

  public String getString(String field) {
    return as(field, String.class);
  }

  public byte[] getBytes(String field) {
    return as(field, byte[].class);
  }

  public BigDecimal getDecimal(String field) {
    return as(field, BigDecimal.class);
  }

  public UUID getUuid(String field) {
    return as(field, UUID.class);
  }

  public EnumValue getEnum(String field) {
    return as(field, EnumValue.class);
  }

  public Message getMessage(String field) {
    return as(field, Message.class);
  }

  @SuppressWarnings("unchecked")
  public <T> List<T> getList(String field) {
    return as(field, List.class);
  }

  @SuppressWarnings("unchecked")
  public <T> Set<T> getSet(String field) {
    return as(field, Set.class);
  }

  @SuppressWarnings("unchecked")
  public <K, V> Map<K, V> getMap(String field) {
    return as(field, Map.class);
  }

  /** The standard model (versioned). */
  public byte[] encode() {
    return encode(Model.STANDARD);
  }

  public byte[] encode(Model model) {
    Schema schema = type.schema;
    long core = schema.enter();
    Tape t = Tape.acquire();
    try {
      t.putMessage(this);
      int size = Walk.encode(core, type.index, t.num, t.bytes, model.ordinal());
      if (size < 0) { // larger than the byte tape: grow it (keeping the strings) and again
        t.bytes = Arrays.copyOf(t.bytes, -1 - size);
        size = Walk.encode(core, type.index, t.num, t.bytes, model.ordinal());
      }
      return Arrays.copyOf(t.bytes, size);
    } finally {
      t.release();
      schema.exit();
    }
  }

  /** The library's JSON form (compact). */
  public String toJson() {
    return toJson(false);
  }

  public String toJson(boolean pretty) {
    Schema schema = type.schema;
    long core = schema.enter();
    Tape t = Tape.acquire();
    try {
      t.putMessage(this);
      int size = Walk.toJson(core, type.index, t.num, t.bytes, pretty);
      if (size < 0) { // as encode
        t.bytes = Arrays.copyOf(t.bytes, -1 - size);
        size = Walk.toJson(core, type.index, t.num, t.bytes, pretty);
      }
      return new String(t.bytes, 0, size, StandardCharsets.UTF_8);
    } finally {
      t.release();
      schema.exit();
    }
  }

  /** Field name to value, nested messages as maps too; {@link StructType#fromMap} reverses it. */
  public Map<String, Object> toMap() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Field f : type.fields()) out.put(f.name(), Values.plain(values[f.index()]));
    return out;
  }

  /** A deep copy (via the wire: what decode would give). */
  public Message copy() {
    return type.decodeTrusted(encode(Model.FINAL), Model.FINAL); // our own bytes
  }

  /** Equality by the core's rules (the one the conformance suite uses), in one native call. */
  public boolean sameValue(Message other) {
    if (other == null || other.type != type) return false;
    Schema schema = type.schema;
    long core = schema.enter();
    Tape t = Tape.acquire();
    try {
      t.putMessage(this);
      t.putMessage(other);
      return Walk.equal(core, type.index, t.num, t.bytes);
    } finally {
      t.release();
      schema.exit();
    }
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) return true;
    if (!(o instanceof Message) || ((Message) o).type != type) return false;
    Object[] other = ((Message) o).values;
    for (int i = 0; i < values.length; i++) if (!Values.equal(values[i], other[i])) return false;
    return true;
  }

  @Override
  public int hashCode() {
    int h = type.fullName().hashCode();
    for (Object v : values) h = 31 * h + Values.hash(v);
    return h;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(type.name()).append('(');
    for (Field f : type.fields()) {
      if (f.index() > 0) b.append(',');
      b.append(f.name()).append('=');
      Values.text(b, values[f.index()]);
    }
    return b.append(')').toString();
  }
}

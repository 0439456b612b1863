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
 * <p>What every language shares, decided by the core: {@link #toString()} is the text
 * form {@code Account(id=1,name="Test",...)} (docs/TEXT.md); {@link #equals} is deep
 * value equality (fbe_msg_equal: floats by bit pattern, decimals by value);
 * {@link #hashCode()} and {@link #compareTo} look at the [key] fields only
 * (fbe_msg_key_hash, fbe_msg_key_compare), as the reference's sorted and hashed
 * containers do.
 */
public final class Message implements Comparable<Message> {
  final StructType type;
  /**
   * The field values (an Object[], canonical classes), or, for a message made by C
   * (decode, fromJson, newMessage, a view's toValue) and not read yet, the tape C wrote
   * (a {@link Saved}): encode, JSON, text and equality send that tape back as it is, and
   * the first read or set makes the values from it; or, for a final model decoded and
   * not read yet, its verified bytes (a byte[]), read in Java on first use. Replaced
   * whole, written with release and read with acquire ordering ({@link #STATE}), so
   * threads that read one message at once each see a complete state (what was written
   * into a state before it was published is seen with it; no fence instruction on x86).
   */
  private Object state;

  private static final java.lang.invoke.VarHandle STATE;

  static {
    try {
      STATE = java.lang.invoke.MethodHandles.lookup().findVarHandle(Message.class, "state", Object.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** One root struct's tape as C wrote it: its slots (8 bytes each) in tape[0, 8 x slots), then its bytes. */
  static final class Saved {
    final byte[] tape;
    final int slots;

    Saved(byte[] tape, int slots) {
      this.tape = tape;
      this.slots = slots;
    }
  }

  /**
   * Called by decode: a message still in the verified final model it came in (the core
   * verified these bytes: StructType.decode), its values read from them in Java
   * ({@link FinalReader}) on the first read or set, or when the message crosses to C
   * (encode, JSON, text, equality).
   */
  Message(StructType type, byte[] verifiedFinal) {
    this.type = type;
    STATE.setRelease(this, verifiedFinal);
  }

  /** Called by the tape with values already in canonical form. */
  Message(StructType type, Object[] values) {
    this.type = type;
    STATE.setRelease(this, values);
  }

  /** Called by the tape: a message still on the tape C wrote. */
  Message(StructType type, Saved saved) {
    this.type = type;
    STATE.setRelease(this, saved);
  }

  /** The saved tape while the values have not been made, else null. */
  Saved saved() {
    Object s = STATE.getAcquire(this);
    return s instanceof Saved ? (Saved) s : null;
  }

  /** The values, made from the saved tape or the verified bytes on first use. */
  Object[] values() {
    Object s = STATE.getAcquire(this);
    if (s instanceof Object[]) return (Object[]) s;
    Object[] v = s instanceof byte[] ? FinalReader.values(type, (byte[]) s) : Tape.values(type, (Saved) s);
    STATE.setRelease(this, v);
    return v;
  }

  public StructType type() {
    return type;
  }

  /**
   * Sets a field, converting the value to the field's canonical class by the input table
   * (docs/INPUT.md).
   *
   * @throws FbeException UNKNOWN_FIELD for an unknown field (the nearest name suggested);
   *     TYPE, RANGE or ARGUMENT for a value that does not fit (path = the field, with the
   *     item for collections), in the core's words
   */
  public Message set(String field, Object value) {
    Field f = type.field(field);
    Object v = Values.under(f.name(), () -> Values.check(f.type(), value));
    values()[f.index()] = v;
    return this;
  }

  /** The field's value (null for an absent optional). */
  public Object get(String field) {
    return values()[type.field(field).index()];
  }

  /** The value of field `index` (see {@link StructType#fields()}). */
  public Object get(int index) {
    return values()[index];
  }

  /*
   * The typed getters: the field's value read once, and returned as it is when it holds
   * the getter's own canonical class (what decode and set() give); anything else (null,
   * another class, a value out of the getter's range) goes the general way (as, number),
   * which gives the same values and throws the same errors as before.
   */

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
    Object v = get(field);
    if (v instanceof Integer) return (Integer) v;
    if (v instanceof EnumValue) {
      long x = ((EnumValue) v).value;
      if (x == (int) x) return (int) x;
    }
    return intOf(field);
  }

  private int intOf(String field) {
    Number n = number(field);
    long x = n.longValue();
    if (n instanceof Double || n instanceof Float || n instanceof BigDecimal || x != (int) x)
      throw new FbeException(Status.RANGE, "value " + n + " is not an int", field, -1, List.of());
    return (int) x;
  }

  /** Any integer field, timestamps (ns) included; uint64 as its 64 bits. */
  public long getLong(String field) {
    Object v = get(field);
    if (v instanceof Long) return (Long) v;
    if (v instanceof Integer) return (Integer) v;
    return longOf(field);
  }

  private long longOf(String field) {
    Number n = number(field);
    if (n instanceof Double || n instanceof Float || n instanceof BigDecimal)
      throw new FbeException(Status.TYPE, "value " + n + " is not an integer", field, -1, List.of());
    return n.longValue();
  }

  public double getDouble(String field) {
    Object v = get(field);
    if (v instanceof Double) return (Double) v;
    return number(field).doubleValue();
  }

  public float getFloat(String field) {
    Object v = get(field);
    if (v instanceof Float) return (Float) v;
    return as(field, Float.class);
  }

  public boolean getBoolean(String field) {
    Object v = get(field);
    if (v instanceof Boolean) return (Boolean) v;
    return as(field, Boolean.class);
  }

  public char getChar(String field) {
    Object v = get(field);
    if (v instanceof Character) return (Character) v;
    return as(field, Character.class);
  }

  public String getString(String field) {
    Object v = get(field);
    if (v instanceof String) return (String) v;
    return as(field, String.class);
  }

  public byte[] getBytes(String field) {
    Object v = get(field);
    if (v instanceof byte[]) return (byte[]) v;
    return as(field, byte[].class);
  }

  public BigDecimal getDecimal(String field) {
    Object v = get(field);
    if (v instanceof BigDecimal) return (BigDecimal) v;
    return as(field, BigDecimal.class);
  }

  public UUID getUuid(String field) {
    Object v = get(field);
    if (v instanceof UUID) return (UUID) v;
    return as(field, UUID.class);
  }

  public EnumValue getEnum(String field) {
    Object v = get(field);
    if (v instanceof EnumValue) return (EnumValue) v;
    return as(field, EnumValue.class);
  }

  public Message getMessage(String field) {
    Object v = get(field);
    if (v instanceof Message) return (Message) v;
    return as(field, Message.class);
  }

  @SuppressWarnings("unchecked")
  public <T> List<T> getList(String field) {
    Object v = get(field);
    if (v instanceof List) return (List<T>) v;
    return as(field, List.class);
  }

  @SuppressWarnings("unchecked")
  public <T> Set<T> getSet(String field) {
    Object v = get(field);
    if (v instanceof Set) return (Set<T>) v;
    return as(field, Set.class);
  }

  @SuppressWarnings("unchecked")
  public <K, V> Map<K, V> getMap(String field) {
    Object v = get(field);
    if (v instanceof Map) return (Map<K, V>) v;
    return as(field, Map.class);
  }

  /** The standard model (versioned). */
  public byte[] encode() {
    return encode(Model.STANDARD);
  }

  public byte[] encode(Model model) {
    if (model == Model.FINAL && directEncode && javaEncode && FinalReader.readable(type)) { // in Java, no native call
      byte[] b = FinalWriter.encode(this);
      if (b != null) return b;
    }
    return (byte[]) write(WRITE_MODEL, model.ordinal(), false);
  }

  /** The library's JSON form (compact). */
  public String toJson() {
    return toJson(false);
  }

  public String toJson(boolean pretty) {
    return (String) write(WRITE_JSON, 0, pretty);
  }

  private static final int WRITE_MODEL = 0, WRITE_JSON = 1, WRITE_TEXT = 2;

  /**
   * Tests only: false makes encode take the general way alone (the tape read into the
   * core's value, then fbe_encode), which the core's straight walk from the tape
   * (fbei_tape_encode) and the final model written in Java ({@link FinalWriter}) must
   * match byte for byte.
   */
  static boolean directEncode = true; // (plain: set and read on the test's thread)
  /** Tests only: false leaves the final model to the core's straight walk (no {@link FinalWriter}). */
  static boolean javaEncode = true;
  private static final int ENCODE_GENERAL = 2; // Walk.encode's model bit

  /**
   * The message flattened onto the tape, and ONE native call writing it out: the model's
   * bytes (a byte[]), or the JSON or text form (a String).
   */
  private Object write(int what, int model, boolean pretty) {
    Schema schema = type.schema;
    Tape t = schema.begin();
    try {
      t.putMessage(this);
      int size = writeCall(what, t.core, t, model, pretty);
      if (size < 0) { // larger than the room after the tape: more room (the tape kept) and again
        t.growOut(-1 - size);
        size = writeCall(what, t.core, t, model, pretty);
      }
      return what == WRITE_MODEL ? t.out(size) : t.outText(size);
    } finally {
      schema.end(t);
    }
  }

  private int writeCall(int what, long core, Tape t, int model, boolean pretty) {
    switch (what) {
      case WRITE_MODEL:
        return Walk.encode(core, type.index, t.at(), t.caps(), t.used(), directEncode ? model : model | ENCODE_GENERAL);
      case WRITE_JSON: return Walk.toJson(core, type.index, t.at(), t.caps(), t.used(), pretty);
      default: return Walk.toText(core, type.index, t.at(), t.caps(), t.used());
    }
  }

  /**
   * Field name to value, deep: nested messages as maps, lists, sets and maps of them
   * copied the same way, scalars in their canonical classes (enums as EnumValues);
   * {@link StructType#fromMap} reverses it.
   */
  public Map<String, Object> toMap() {
    Map<String, Object> out = new LinkedHashMap<>();
    Object[] values = values();
    for (Field f : type.fields()) out.put(f.name(), Values.plain(values[f.index()]));
    return out;
  }

  /** A deep copy (via the wire: what decode would give; nothing shared with this one). */
  public Message copy() {
    return type.decodeTrusted(encode(Model.FINAL), Model.FINAL); // our own bytes
  }

  /**
   * Equality by the core's rules (fbe_msg_equal, the one the conformance suite uses), in
   * one native call: {@link #equals} without its catch (a field value that cannot be
   * encoded throws here).
   */
  public boolean sameValue(Message other) {
    if (other == null || other.type != type) return false;
    Schema schema = type.schema;
    Tape t = schema.begin();
    try {
      t.putMessage(this);
      t.putMessage(other);
      return Walk.equal(t.core, type.index, t.at(), t.caps());
    } finally {
      schema.end(t);
    }
  }

  /**
   * Deep value equality, the core's (fbe_msg_equal): a message of the same struct type
   * with equal fields, floats and doubles by bit pattern (NaN equals the same NaN, 0.0 is
   * not -0.0), decimals by value (1.5 equals 1.50), bytes, strings and collections by
   * content and order. A message holding a field value that cannot be encoded (set by
   * hand, past {@link #set}) equals only itself.
   */
  @Override
  public boolean equals(Object o) {
    if (this == o) return true;
    if (!(o instanceof Message) || ((Message) o).type != type) return false;
    try {
      return sameValue((Message) o);
    } catch (FbeException e) {
      return false;
    }
  }

  /**
   * The hash of the [key] fields (fbe_msg_key_hash): equal messages hash alike. A struct
   * without [key] fields hashes every message to 0 (so a HashSet of them compares each
   * with each), and so does a message whose key fields cannot be encoded.
   */
  @Override
  public int hashCode() {
    if (!type.hasKeys) return 0;
    Schema schema = type.schema;
    Tape t = null;
    try {
      t = schema.begin();
      t.putMessage(this);
      long h = Walk.keyHash(t.core, type.index, t.at(), t.caps());
      return (int) (h ^ (h >>> 32));
    } catch (FbeException e) {
      return 0;
    } finally {
      if (t != null) schema.end(t);
    }
  }

  /**
   * The order of the [key] fields, in schema order (fbe_msg_key_compare: numbers by value,
   * strings and bytes bytewise, ...), the reference's order for sorted containers. Not
   * consistent with {@link #equals}: messages with equal keys compare 0.
   *
   * @throws FbeException TYPE for a message of another struct type, or for a struct
   *     without [key] fields (its messages have no order)
   */
  @Override
  public int compareTo(Message other) {
    if (other.type != type) {
      long core = type.schema.enter();
      try {
        throw Walk.structTypeError(core, type.index, Got.STRUCT, Values.utf8(other.type.fullName()));
      } finally {
        type.schema.exit();
      }
    }
    Schema schema = type.schema;
    Tape t = schema.begin();
    try {
      t.putMessage(this);
      t.putMessage(other);
      return Walk.keyCompare(t.core, type.index, t.at(), t.caps());
    } finally {
      schema.end(t);
    }
  }

  /**
   * The text form (docs/TEXT.md), written by the core (fbe_msg_to_text) from the
   * message as encode sees it: {@code Order(id=1,symbol="EURUSD",side=buy,...)}, the same
   * in every language. Never throws: a message holding a value that cannot be encoded
   * prints {@code Order(<invalid: MESSAGE>)}, MESSAGE the error encode would throw.
   */
  @Override
  public String toString() {
    try {
      return (String) write(WRITE_TEXT, 0, false);
    } catch (FbeException e) {
      return type.name() + "(<invalid: " + e.getMessage() + ">)";
    }
  }
}

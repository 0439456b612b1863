package org.libfbe;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.libfbe.internal.Walk;

/**
 * A struct or message type of a loaded schema: its fields, and the operations that
 * create, decode, verify and read messages of it. Each operation is one native call
 * (the message crosses as a {@link Tape}).
 */
public final class StructType {
  final Schema schema;
  final int index;
  private final String name;
  private final String fullName;
  private final int typeId;
  private final boolean message;
  /** Some field is a [key] (fbe_struct_has_keys): the messages hash and order by them. */
  final boolean hasKeys;
  StructType base;
  List<Field> fields = List.of();
  Map<String, Field> byName = Map.of();
  /** The fields' types and names by index, for the tape. */
  FieldType[] types = new FieldType[0];
  String[] names = new String[0];
  /** FinalReader.readable's answer: 0 not yet known, 1 no, 2 yes. */
  int finalReadable;
  /** FinalWriter's program (FinalWriter.program; Program.NONE: it has none); null: not made yet. */
  FinalWriter.Program finalProgram;

  /**
   * Tests only: false makes decode take the core's decode alone (its value written onto
   * the tape), which a verified final model read in Java ({@link FinalReader}) must match.
   */
  static boolean directDecode = true; // (plain: set and read on the test's thread)

  StructType(Schema schema, int index, String name, String fullName, int typeId, boolean message, boolean hasKeys) {
    this.schema = schema;
    this.hasKeys = hasKeys;
    this.index = index;
    this.name = name;
    this.fullName = fullName;
    this.typeId = typeId;
    this.message = message;
  }

  void setFields(List<Field> list) {
    fields = Collections.unmodifiableList(list);
    Map<String, Field> m = new HashMap<>();
    for (Field f : list) m.put(f.name(), f);
    byName = m;
    int cap = Integer.highestOneBit(Math.max(4, list.size() * 2) - 1) << 1;
    String[] keys = new String[cap];
    Field[] hits = new Field[cap];
    for (Field f : list) {
      int i = f.name().hashCode() & (cap - 1);
      while (keys[i] != null) i = (i + 1) & (cap - 1);
      keys[i] = f.name();
      hits[i] = f;
    }
    internedNames = keys;
    internedFields = hits;
    types = new FieldType[list.size()];
    names = new String[list.size()];
    for (Field f : list) {
      types[f.index()] = f.type();
      names[f.index()] = f.name();
    }
  }

  public Schema schema() {
    return schema;
  }

  /** "Account". */
  public String name() {
    return name;
  }

  /** "proto.Account". */
  public String fullName() {
    return fullName;
  }

  /** The type id written in standard-model headers and protocol frames. */
  public int typeId() {
    return typeId;
  }

  /** Declared with `message` (part of its package's protocol). */
  public boolean isMessage() {
    return message;
  }

  private boolean request;
  private StructType response;
  private List<StructType> rejects = List.of();

  void setRequest(boolean request, StructType response, List<StructType> rejects) {
    this.request = request;
    this.response = response;
    this.rejects = List.copyOf(rejects);
  }

  /**
   * Marked {@code [request]} in the schema (SCHEMA.md 6.6): a {@link Client} sends it
   * with {@link Client#request}, a {@link Server} answers it (docs/CLIENT.md).
   */
  public boolean isRequest() {
    return request;
  }

  /** The request's {@code [response(...)]} type, or null (none: the request ends when it is sent). */
  public StructType response() {
    return response;
  }

  /** The request's {@code [reject(...)]} types, in the schema's order (empty when none). */
  public List<StructType> rejects() {
    return rejects;
  }

  /** The base struct, or null. */
  public StructType base() {
    return base;
  }

  /** This struct is `other` or derives from it (its fields start with other's). */
  public boolean isA(StructType other) {
    for (StructType s = this; s != null; s = s.base) if (s == other) return true;
    return false;
  }

  /**
   * Some field is marked [key] (inherited ones included): its messages hash and order by
   * those fields ({@link Message#hashCode()}, {@link Message#compareTo}).
   */
  public boolean hasKeys() {
    return hasKeys;
  }

  /** Every field, inherited ones first. */
  public List<Field> fields() {
    return fields;
  }

  /**
   * The field named `name`.
   *
   * @throws FbeException UNKNOWN_FIELD (a kind of NOT_FOUND) when the struct has no such field
   */
  public Field field(String name) {
    String[] keys = internedNames; // a name given as a literal is the field's own (interned) String
    int mask = keys.length - 1;
    for (int i = name == null ? 0 : name.hashCode() & mask; name != null; i = (i + 1) & mask) {
      String k = keys[i];
      if (k == name) return internedFields[i];
      if (k == null) break;
    }
    Field f = byName.get(name);
    if (f == null) throw unknownField(name);
    return f;
  }

  /** The field names (interned, as Field keeps them) by hash, open addressing: field(name) by identity first. */
  private String[] internedNames = new String[1];
  private Field[] internedFields = new Field[1];

  /** UNKNOWN_FIELD in the core's words: "unknown field 'symbl' of proto.Order (did you mean 'symbol'?)". */
  FbeException unknownField(String name) {
    long core = schema.enter();
    try {
      return Walk.unknownField(core, index, Values.utf8(name));
    } finally {
      schema.exit();
    }
  }

  /** A new message with every field at its schema default (utc/uuid defaults evaluated now). */
  public Message newMessage() {
    Tape t = schema.begin();
    try {
      long used;
      while ((used = Walk.defaults(t.core, index, t.at(), t.caps())) < 0) t.grow(-1 - used);
      return t.saved(this, used);
    } finally {
      schema.end(t);
    }
  }

  /**
   * A new message from a map of field name to value, nested structs as maps too (the
   * shape {@link Message#toMap()} gives); missing fields take their defaults.
   *
   * @throws FbeException UNKNOWN_FIELD for a name the struct does not have; what
   *     {@link Message#set} throws for a value (with its path)
   */
  public Message fromMap(Map<String, ?> values) {
    return fromAnyMap(values);
  }

  /** fromMap for a map given where a struct is expected (its keys are field names). */
  Message fromAnyMap(Map<?, ?> values) {
    Message m = newMessage();
    for (Map.Entry<?, ?> e : values.entrySet()) {
      Object k = e.getKey();
      if (!(k instanceof String)) throw unknownField(String.valueOf(k));
      m.set((String) k, e.getValue());
    }
    return m;
  }

  public byte[] encode(Map<String, ?> values) {
    return fromMap(values).encode(Model.STANDARD);
  }

  public byte[] encode(Map<String, ?> values, Model model) {
    return fromMap(values).encode(model);
  }

  public Message decode(byte[] data) {
    return decode(data, 0, data.length, Model.STANDARD);
  }

  public Message decode(byte[] data, Model model) {
    return decode(data, 0, data.length, model);
  }

  /**
   * Decodes the model at data[off..off+len), verified first: bytes {@link #verify} rejects
   * throw verify's FbeException (its reason, offset and path), so no message is made from
   * them.
   */
  public Message decode(byte[] data, int off, int len, Model model) {
    return decode(data, off, len, model, false, Limits.DEFAULT);
  }

  /** Decodes the buffer's remaining bytes (its position is not moved), verified first. */
  public Message decode(ByteBuffer data, Model model) {
    return decode(data, model, false, Limits.DEFAULT);
  }

  public Message decode(ByteBuffer data) {
    return decode(data, Model.STANDARD);
  }

  /**
   * The decode overloads with limits: crossing one throws FbeException LIMIT naming it
   * ("decoding needs more than the memory budget of N bytes (max_memory)").
   */
  public Message decode(byte[] data, Limits limits) {
    return decode(data, 0, data.length, Model.STANDARD, limits);
  }

  public Message decode(byte[] data, Model model, Limits limits) {
    return decode(data, 0, data.length, model, limits);
  }

  public Message decode(byte[] data, int off, int len, Model model, Limits limits) {
    return decode(data, off, len, model, false, limits);
  }

  public Message decode(ByteBuffer data, Model model, Limits limits) {
    return decode(data, model, false, limits);
  }

  public Message decode(ByteBuffer data, Limits limits) {
    return decode(data, Model.STANDARD, limits);
  }

  public Message decodeTrusted(byte[] data) {
    return decodeTrusted(data, 0, data.length, Model.STANDARD);
  }

  public Message decodeTrusted(byte[] data, Model model) {
    return decodeTrusted(data, 0, data.length, model);
  }

  /**
   * {@link #decode} without the verify, for bytes you trust or verified already (for
   * example a sibling message type of another schema version, whose type id differs:
   * FORMAT.md 8). Every offset and length is still checked (hostile bytes throw
   * FbeException, never crash), but what only verify checks is not.
   */
  public Message decodeTrusted(byte[] data, int off, int len, Model model) {
    return decode(data, off, len, model, true, Limits.DEFAULT);
  }

  public Message decodeTrusted(ByteBuffer data, Model model) {
    return decode(data, model, true, Limits.DEFAULT);
  }

  public Message decodeTrusted(ByteBuffer data) {
    return decodeTrusted(data, Model.STANDARD);
  }

  /** The decodeTrusted overloads with limits (the trusted decode keeps them too). */
  public Message decodeTrusted(byte[] data, Limits limits) {
    return decodeTrusted(data, 0, data.length, Model.STANDARD, limits);
  }

  public Message decodeTrusted(byte[] data, Model model, Limits limits) {
    return decodeTrusted(data, 0, data.length, model, limits);
  }

  public Message decodeTrusted(byte[] data, int off, int len, Model model, Limits limits) {
    return decode(data, off, len, model, true, limits);
  }

  public Message decodeTrusted(ByteBuffer data, Model model, Limits limits) {
    return decode(data, model, true, limits);
  }

  public Message decodeTrusted(ByteBuffer data, Limits limits) {
    return decodeTrusted(data, Model.STANDARD, limits);
  }

  private Message decode(byte[] data, int off, int len, Model model, boolean trusted, Limits limits) {
    if (!trusted && model == Model.FINAL && directDecode && FinalReader.readable(this) && data != null && off >= 0
        && len >= 0 && off <= data.length - len)
      return decodeFinal(data, off, len, limits);
    Limits l = Limits.of(limits);
    Tape t = schema.begin();
    try {
      long used;
      boolean inTape = t.input(data, off, len); // (again after a grow: a new block)
      while ((used = Walk.decode(t.core, index, data, off, len, inTape, model.ordinal(), trusted, l.maxDepth(),
          l.maxModelSize(), l.maxMemory(), t.at(), t.caps())) < 0) {
        t.grow(-1 - used);
        inTape = t.input(data, off, len);
      }
      return t.saved(this, used);
    } finally {
      schema.end(t);
    }
  }

  /**
   * A final model of a struct FinalReader reads: the core verifies the bytes (fbe_verify,
   * which is what fbe_decode does first: the same refusals, status, text, path and
   * offset, within the same limits), and the message keeps the verified bytes, its values
   * read from them in Java when first needed. A small input is copied onto the tape's
   * twin and verified there (no pin), then copied out of it; a larger one is copied
   * first and the copy verified in place.
   */
  private Message decodeFinal(byte[] data, int off, int len, Limits limits) {
    Limits l = Limits.of(limits);
    Tape t = schema.begin();
    try {
      byte[] own;
      if (t.input(data, off, len)) {
        long size = Walk.verifyAt(t.core, index, t.at(), t.caps(), len, Model.FINAL.ordinal(), l.maxDepth(),
            l.maxModelSize(), l.maxMemory());
        own = t.inputCopy((int) size);
      } else {
        own = java.util.Arrays.copyOfRange(data, off, off + len);
        Walk.verify(t.core, index, own, 0, len, Model.FINAL.ordinal(), l.maxDepth(), l.maxModelSize(), l.maxMemory());
      }
      return new Message(this, own);
    } finally {
      schema.end(t);
    }
  }

  private Message decode(ByteBuffer data, Model model, boolean trusted, Limits limits) {
    if (data.hasArray())
      return decode(data.array(), data.arrayOffset() + data.position(), data.remaining(), model, trusted, limits);
    byte[] copy = new byte[data.remaining()];
    data.duplicate().get(copy);
    return decode(copy, 0, copy.length, model, trusted, limits);
  }

  /**
   * A {@link View} of the message in data (standard model): verified as {@link #decode}
   * verifies (the same errors), then read in place, field by field, on access.
   */
  public View view(byte[] data) {
    return View.open(this, data, 0, data.length, Model.STANDARD, Limits.DEFAULT);
  }

  public View view(byte[] data, Model model) {
    return View.open(this, data, 0, data.length, model, Limits.DEFAULT);
  }

  public View view(byte[] data, Model model, Limits limits) {
    return View.open(this, data, 0, data.length, model, limits);
  }

  /** The view of data[off..off+len), within the limits (decode's). */
  public View view(byte[] data, int off, int len, Model model, Limits limits) {
    return View.open(this, data, off, len, model, limits);
  }

  /** The view of the buffer's remaining bytes (its position is not moved). */
  public View view(ByteBuffer data, Model model) {
    if (data.hasArray())
      return View.open(this, data.array(), data.arrayOffset() + data.position(), data.remaining(), model, Limits.DEFAULT);
    byte[] copy = new byte[data.remaining()];
    data.duplicate().get(copy);
    return View.open(this, copy, 0, copy.length, model, Limits.DEFAULT);
  }

  /**
   * Checks that the bytes start with a valid model of this type and returns its size.
   *
   * @throws FbeException with the reason, offset and path when they do not
   */
  public long verify(byte[] data) {
    return verify(data, Model.STANDARD);
  }

  public long verify(byte[] data, Model model) {
    return verify(data, model, Limits.DEFAULT);
  }

  public long verify(byte[] data, Limits limits) {
    return verify(data, Model.STANDARD, limits);
  }

  /** {@link #verify} within the limits (the same ones decode would apply). */
  public long verify(byte[] data, Model model, Limits limits) {
    Limits l = Limits.of(limits);
    int len = data.length;
    Tape t = schema.begin();
    try {
      if (t.input(data, 0, len)) // small: a copy on the tape, no pin
        return Walk.verifyAt(t.core, index, t.at(), t.caps(), len, model.ordinal(), l.maxDepth(), l.maxModelSize(),
            l.maxMemory());
      return Walk.verify(t.core, index, data, 0, len, model.ordinal(), l.maxDepth(), l.maxModelSize(), l.maxMemory());
    } finally {
      schema.end(t);
    }
  }

  /** {@link #verify} as a yes/no answer. */
  public boolean isValid(byte[] data) {
    return isValid(data, Model.STANDARD);
  }

  public boolean isValid(byte[] data, Model model) {
    return isValid(data, model, Limits.DEFAULT);
  }

  public boolean isValid(byte[] data, Limits limits) {
    return isValid(data, Model.STANDARD, limits);
  }

  public boolean isValid(byte[] data, Model model, Limits limits) {
    Limits.of(limits); // a missing argument is an error, not a "no"
    try {
      verify(data, model, limits);
      return true;
    } catch (FbeException e) {
      return false;
    }
  }

  /**
   * A message from the library's JSON form (FORMAT.md 10); missing members take defaults.
   *
   * @throws FbeException UNKNOWN_FIELD for a member the struct does not have (see
   *     {@link #fromJson(String, boolean)}), JSON for text that is not JSON, and the input
   *     table's errors for a value that does not fit its field
   */
  public Message fromJson(String json) {
    return fromJson(json, Limits.DEFAULT, false);
  }

  /**
   * {@link #fromJson(String)}; with {@code ignoreUnknown} the members the struct does not
   * have are skipped (JSON written with a newer schema) instead of refused.
   */
  public Message fromJson(String json, boolean ignoreUnknown) {
    return fromJson(json, Limits.DEFAULT, ignoreUnknown);
  }

  /**
   * {@link #fromJson(String)} within the limits: the text's length (max_model_size), its
   * nesting (max_depth) and what the values cost (max_memory).
   */
  public Message fromJson(String json, Limits limits) {
    return fromJson(json, limits, false);
  }

  public Message fromJson(String json, Limits limits, boolean ignoreUnknown) {
    Limits l = Limits.of(limits);
    byte[] utf8 = Tape.utf8(json); // a lone surrogate as its bytes, which the core refuses (not as '?')
    Tape t = schema.begin();
    try {
      long used;
      while ((used = Walk.fromJson(t.core, index, utf8, ignoreUnknown, l.maxDepth(), l.maxModelSize(),
          l.maxMemory(), t.at(), t.caps())) < 0)
        t.grow(-1 - used);
      return t.saved(this, used);
    } finally {
      schema.end(t);
    }
  }

  @Override
  public String toString() {
    return (message ? "message " : "struct ") + fullName;
  }
}

package org.libfbe.internal;

import org.libfbe.FbeException;
import org.libfbe.Receiver;

/**
 * The hand-written JNI entry points (bindings/java/native/): one native call per
 * operation. A message crosses as a tape (org.libfbe.Tape, fbe/internal/tape.h): a long[] of
 * slots and a byte[] of contents, flattened and built in Java; C reads the tape into
 * the core's value, or writes a decoded value onto it. Calls that write a tape return
 * 0, or (slots << 32 | bytes) when the tape is too small (grow it and call again).
 * Not an API: org.libfbe calls these with the schema's own tables.
 */
public final class Walk {
  static {
    NativeLibrary.load();
  }

  private Walk() {}

  /** The native tables of a schema (its structs in the Java StructType[] order). */
  public static native long bind(long schema);

  public static native void unbind(long core);

  /** A message of struct `index` with every field at its default, onto the tape. */
  public static native long defaults(long core, int index, long[] num, byte[] bytes);

  /**
   * Encodes the message on the tape and writes the bytes over the byte tape: returns
   * their size, or -1 - size when they do not fit it (nothing written).
   */
  public static native int encode(long core, int index, long[] num, byte[] bytes, int model);

  /**
   * Sets one member of limits (max_depth, max_model_size, max_memory) by the core's rule,
   * fbe_limits_set: the core's name and range checks; FbeException with its text.
   */
  public static native void limitsSet(long[] limits, String name, long value);

  /** What the core's text of an error (fbe_error_format) puts after the message: " at 'path'
   *  (offset N)" for a path in UTF-8 ("": none) and an offset (-1: none). */
  public static native byte[] errorWhere(byte[] path, long offset);

  // The calls below take the three members of org.libfbe.Limits (all 0: the defaults).

  /** Decodes data[off, off+len) onto the tape, verified first unless trusted. */
  public static native long decode(long core, int index, byte[] data, int off, int len, int model,
      boolean trusted, long maxDepth, long maxModelSize, long maxMemory, long[] num, byte[] bytes);

  /** The model size, or throws FbeException with the reason. */
  public static native long verify(long core, int index, byte[] data, int off, int len, int model,
      long maxDepth, long maxModelSize, long maxMemory);

  /** The message on the tape as JSON (UTF-8) over the byte tape: as {@link #encode}. */
  public static native int toJson(long core, int index, long[] num, byte[] bytes, boolean pretty);

  /** A message from JSON (UTF-8) onto the tape; unknown members refused unless ignoreUnknown. */
  public static native long fromJson(long core, int index, byte[] utf8, boolean ignoreUnknown, long maxDepth,
      long maxModelSize, long maxMemory, long[] num, byte[] bytes);

  /** The message on the tape in the text form (fbe_msg_to_text, UTF-8) over the byte tape: as {@link #encode}. */
  public static native int toText(long core, int index, long[] num, byte[] bytes);

  /** The core's equality of the two messages on the tape, one after the other. */
  public static native boolean equal(long core, int index, long[] num, byte[] bytes);

  /** The hash of the [key] fields of the message on the tape (fbe_msg_key_hash). */
  public static native long keyHash(long core, int index, long[] num, byte[] bytes);

  /** The order of the [key] fields of the two messages on the tape: -1, 0 or 1 (fbe_msg_key_compare). */
  public static native int keyCompare(long core, int index, long[] num, byte[] bytes);

  // Scalars from their text and back, judged by the core (bad text: FbeException ARGUMENT).

  /** {most, least} significant bits of a uuid's text (UTF-8). */
  public static native long[] uuidParse(byte[] text);

  /** A decimal's text as the core reads and writes it back (its scale kept). */
  public static native byte[] decimalParse(byte[] text);

  /** The value of an enum member's name, or of flags' "a|b|64" (fbe_enum_parse). */
  public static native long enumParse(long core, int enumIndex, byte[] text);

  /** One enum or flags value in the text form (fbe_text_write_enum), UTF-8. */
  public static native byte[] enumText(long core, int enumIndex, long value);

  // docs/INPUT.md: the core's words for a refused host value (fbe/internal/input.h).
  // Each returns the exception for the caller to throw. got: an org.libfbe.Got constant;
  // name: UTF-8 (the struct's, the enum's or the class's name; null when none); type:
  // the core's fbe_type of the field (org.libfbe.FieldType).

  public static native FbeException typeError(long type, int got, byte[] name);

  public static native FbeException structTypeError(long core, int index, int got, byte[] name);

  public static native FbeException unknownField(long core, int index, byte[] name);

  /** A name the schema has no type of; what: "type", "struct" or "enum". */
  public static native FbeException typeNotFound(long core, byte[] name, String what);

  public static native FbeException badText(int kind, byte[] text);

  public static native FbeException arrayLength(long type, int got);

  public static native FbeException intRange(int kind, boolean negative, long magnitude);

  public static native FbeException numberRange(int kind, byte[] text);

  public static native FbeException doubleRange(int kind, double value);

  public static native FbeException tooDeep();

  public static native long senderNew(long core, String pkg, int model);

  public static native void senderFree(long sender);

  public static native byte[] senderSend(long sender, long core, int index, long[] num, byte[] bytes);

  public static native long senderBytes(long sender);

  public static native long receiverNew(long core, String pkg, int model, long maxDepth, long maxModelSize,
      long maxMemory);

  public static native void receiverFree(long receiver);

  /** Calls self.deliver(structIndex, slots, bytes) for each message received. */
  public static native void receiverFeed(long receiver, long core, Receiver self, byte[] data, int off, int len);

  /** what: 0 pending bytes, 1 received, 2 skipped, 3 reset. */
  public static native long receiverState(long receiver, int what);
}

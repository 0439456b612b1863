package org.libfbe.internal;

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

  public static native long fromJson(long core, int index, byte[] utf8, long maxDepth, long maxModelSize,
      long maxMemory, long[] num, byte[] bytes);

  /** The core's equality of the two messages on the tape, one after the other. */
  public static native boolean equal(long core, int index, long[] num, byte[] bytes);

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

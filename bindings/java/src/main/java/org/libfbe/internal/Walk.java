package org.libfbe.internal;

import org.libfbe.FbeException;
import org.libfbe.Receiver;

/**
 * The hand-written JNI entry points (bindings/java/native/): one native call per
 * operation. A message crosses as a tape (org.libfbe.Tape, fbe/internal/tape.h): ONE
 * block of direct memory (the calling thread's Tape's direct ByteBuffer, passed as its
 * address `tape`: no array to pin, so a call takes primitives only) holding the slots (8
 * bytes each, the machine's order) and then the contents, flattened and built in Java;
 * C reads the tape into the core's value, or writes a decoded value onto it. Calls that
 * write a tape return the (slots << 32 | bytes) they wrote, or -1 - (slots << 32 |
 * bytes) when the tape is too small (grow it and call again). caps: the tape's two parts,
 * (slots << 32 | bytes) (Tape.caps(); the block is 8 x slots + bytes long), which C takes
 * as given; used: the message's own (slots << 32 | bytes) on it. Not an API: org.libfbe
 * calls these with the schema's own tables and its own live buffers only.
 */
public final class Walk {
  static {
    NativeLibrary.load();
  }

  private Walk() {}

  /** The native tables of a schema (its structs in the Java StructType[] order). */
  public static native long bind(long schema);

  public static native void unbind(long core);

  /** The address of a direct buffer's memory (0: not a direct buffer). */
  public static native long address(java.nio.ByteBuffer buffer);

  /** A message of struct `index` with every field at its default, onto the tape. */
  public static native long defaults(long core, int index, long tape, long caps);

  /**
   * Encodes the message on the tape (`used` of it) and writes the bytes after it, at byte
   * (int) used of the byte tape: returns their size, or -1 - size when they do not fit
   * (nothing written).
   */
  public static native int encode(long core, int index, long tape, long caps, long used, int model);

  /**
   * Sets one member of limits (max_depth, max_model_size, max_memory) by the core's rule,
   * fbe_limits_set: the core's name and range checks; FbeException with its text.
   */
  public static native void limitsSet(long[] limits, String name, long value);

  /** What the core's text of an error (fbe_error_format) puts after the message: " at 'path'
   *  (offset N)" for a path in UTF-8 ("": none) and an offset (-1: none). */
  public static native byte[] errorWhere(byte[] path, long offset);

  // The calls below take the three members of org.libfbe.Limits (all 0: the defaults).

  /**
   * Decodes data[off, off+len) onto the tape, verified first unless trusted; inTape: Java
   * copied those bytes to the start of the tape's byte part (C reads them there, and
   * writes the tape over them once decoded).
   */
  public static native long decode(long core, int index, byte[] data, int off, int len, boolean inTape, int model,
      boolean trusted, long maxDepth, long maxModelSize, long maxMemory, long tape, long caps);

  /** The model size, or throws FbeException with the reason. */
  public static native long verify(long core, int index, byte[] data, int off, int len, int model,
      long maxDepth, long maxModelSize, long maxMemory);

  /** The len bytes Java put at the start of the tape's byte part, verified: {@link #verify}. */
  public static native long verifyAt(long core, int index, long tape, long caps, int len, int model, long maxDepth,
      long maxModelSize, long maxMemory);

  /** The message on the tape as JSON (UTF-8) after it: as {@link #encode}. */
  public static native int toJson(long core, int index, long tape, long caps, long used, boolean pretty);

  /** A message from JSON (UTF-8) onto the tape; unknown members refused unless ignoreUnknown. */
  public static native long fromJson(long core, int index, byte[] utf8, boolean ignoreUnknown, long maxDepth,
      long maxModelSize, long maxMemory, long tape, long caps);

  /** The message on the tape in the text form (fbe_msg_to_text, UTF-8) after it: as {@link #encode}. */
  public static native int toText(long core, int index, long tape, long caps, long used);

  /** The core's equality of the two messages on the tape, one after the other. */
  public static native boolean equal(long core, int index, long tape, long caps);

  /** The hash of the [key] fields of the message on the tape (fbe_msg_key_hash). */
  public static native long keyHash(long core, int index, long tape, long caps);

  /** The order of the [key] fields of the two messages on the tape: -1, 0 or 1 (fbe_msg_key_compare). */
  public static native int keyCompare(long core, int index, long tape, long caps);

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

  // Views (bindings/java/native/view.c): the View's copy of the bytes, the model's end and
  // the model, and a cursor, fbe_view's {type, at, base, image}, as four longs.

  /**
   * Checks data[off, off+len) (ARGUMENT when out of the array's bounds), copies it and
   * verifies the copy as decode does: returns the copy; the root's cursor in out[0..4),
   * the model's size in out[4].
   */
  public static native byte[] viewOpen(long core, int index, byte[] data, int off, int len, int model, long maxDepth,
      long maxModelSize, long maxMemory, long[] out);

  /** A reference to the core's schema of core (taken for views), and its release. */
  public static native long schemaRetain(long core);

  public static native void schemaRelease(long schema);

  /** how: 0 field, 1 element, 2 map key, 3 map value; into out[4]: 1, 2 a null optional, 0 none. */
  public static native int viewChild(byte[] data, long end, int model, long type, long at, long base, long image,
      int how, int index, long[] out);

  /** Item index's count (-1: the view's own; a struct's field, a collection's element, a map's value); -1: null. */
  public static native long viewCount(byte[] data, long end, int model, long type, long at, long base, long image,
      int index);

  public static native long viewLong(byte[] data, long end, int model, long type, long at, long base, long image,
      int index);

  public static native double viewDouble(byte[] data, long end, int model, long type, long at, long base,
      long image, int index);

  /** Every element of a collection of integers (item index, as viewCount's) as viewLong reads one. */
  public static native long[] viewLongs(byte[] data, long end, int model, long type, long at, long base, long image,
      int index);

  /** Every element of a collection of floats or doubles. */
  public static native double[] viewDoubles(byte[] data, long end, int model, long type, long at, long base,
      long image, int index);

  /** A string's or bytes' (offset << 32 | length) in data; -1 when elsewhere (a default: viewBytes). */
  public static native long viewSpan(byte[] data, long end, int model, long type, long at, long base, long image,
      int index);

  /** A string's UTF-8, bytes, a decimal's text, a uuid's 16 bytes. */
  public static native byte[] viewBytes(byte[] data, long end, int model, long type, long at, long base,
      long image, int index);

  /** what: 0 the text form, 1 JSON, 2 pretty JSON (UTF-8), within the limits. */
  public static native byte[] viewWrite(byte[] data, long end, int model, long type, long at, long base,
      long image, int what, long maxDepth, long maxModelSize, long maxMemory);

  public static native boolean viewEqual(byte[] data, long end, int model, long type, long at, long base,
      long image, byte[] data2, long end2, int model2, long type2, long at2, long base2, long image2);

  /** A struct view against the message on the tape (struct index). */
  public static native boolean viewEqualMessage(byte[] data, long end, int model, long type, long at, long base,
      long image, long core, int index, long tape, long caps);

  /** A struct view's decoded message onto the tape, within the limits: as {@link #decode}. */
  public static native long viewToMessage(byte[] data, long end, int model, long type, long at, long base,
      long image, long core, int index, long maxDepth, long maxModelSize, long maxMemory, long tape, long caps);

  public static native long senderNew(long core, String pkg, int model);

  public static native void senderFree(long sender);

  public static native byte[] senderSend(long sender, long core, int index, long tape, long caps);

  public static native long senderBytes(long sender);

  /** The sender's log hook on or off; senderLogged: the text form of the last send it got (UTF-8), or null. */
  public static native void senderLog(long sender, boolean on);

  public static native byte[] senderLogged(long sender);

  public static native long receiverNew(long core, String pkg, int model, long maxDepth, long maxModelSize,
      long maxMemory);

  public static native void receiverFree(long receiver);

  /** Calls self.deliver(structIndex, slots, bytes) for each message received. */
  public static native void receiverFeed(long receiver, long core, Receiver self, byte[] data, int off, int len);

  /** The receiver's log hook (self.logged(text) during its feeds) on or off. */
  public static native void receiverLog(long receiver, boolean on);

  /** what: 0 pending bytes, 1 received, 2 skipped, 3 reset. */
  public static native long receiverState(long receiver, int what);
  // Request/response (bindings/java/native/rpc.c): a native peer (a client, server or
  // proxy) `h`; `self` the org.libfbe.Peer its callbacks go to (written, received,
  // logged, frame), `ends` a client's org.libfbe.Ends (ended), for the length of the call.

  /** kind: 0 client, 1 server, 2 proxy; pkg null: the root package; the limits of every frame received. */
  public static native long peerNew(long core, int kind, String pkg, int model, long maxDepth, long maxModelSize,
      long maxMemory, long maxPending, boolean verify);

  public static native void peerFree(long h);

  /** The core's send and receive log hooks on (self.logged) or off. */
  public static native void peerLog(long h, boolean on);

  /** fbe_client_request of the message on the tape (struct index). */
  public static native void clientRequest(long h, long core, Object self, Object ends, int index, long tape,
      long caps, long timeout, long now, long token);

  /** The message on the tape sent as it is. */
  public static native void peerSend(long h, long core, Object self, Object ends, int index, long tape, long caps);

  /** The request (requestIndex) and its reply (replyIndex) on the tape: fbe_reply_prepare, then sent. */
  public static native void serverReply(long h, long core, Object self, int requestIndex, int replyIndex, long tape,
      long caps);

  public static native void peerFeed(long h, long core, Object self, Object ends, byte[] data, int off, int len);

  /** fbe_client_watchdog: how many requests timed out. */
  public static native long clientWatchdog(long h, Object self, Object ends, long now);

  public static native void peerReset(long h, Object self, Object ends);

  /** fbe_client_next_deadline: -1 (UINT64_MAX) when none. */
  public static native long clientNextDeadline(long h);

  /** what: 0 pending requests, 1 bytes of a partial frame, 2 received, 3 skipped, 4 bytes sent. */
  public static native long peerCount(long h, int what);

  /** {is a [request] (1/0), its response's struct index or -1, its rejects' indexes...}. */
  public static native int[] requestInfo(long core, int index);
}

package org.libfbe;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.util.function.Consumer;
import org.libfbe.internal.Walk;

/**
 * Sends messages of a package's protocol (its `message` types and those of its
 * imports), each as one frame handed to the sink: a {@code Consumer<byte[]>} or an
 * OutputStream. Owns a native sender: close it (or leave it to the Cleaner).
 */
public final class Sender implements AutoCloseable {
  private static final class Handle implements Runnable {
    volatile long ptr;

    @Override
    public synchronized void run() {
      long p = ptr;
      ptr = 0;
      if (p != 0) Walk.senderFree(p);
    }
  }

  private final Schema schema;
  private final Consumer<byte[]> sink;
  private final Handle handle = new Handle();
  private final Cleaner.Cleanable cleanable;

  Sender(Schema schema, String pkg, Model model, Consumer<byte[]> sink) {
    this.schema = schema;
    this.sink = sink;
    handle.ptr = Walk.senderNew(schema.core(), pkg, model.ordinal());
    cleanable = Schema.CLEANER.register(this, handle);
  }

  static Consumer<byte[]> toStream(OutputStream out) {
    return bytes -> {
      try {
        out.write(bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }

  private long ptr() {
    long p = handle.ptr;
    if (p == 0) throw new FbeException(FbeException.Status.ARGUMENT, "the sender is closed");
    return p;
  }

  /**
   * Encodes the message (a message type of the protocol, else TYPE) and hands its
   * frame to the sink. Returns the frame size.
   */
  public int send(Message m) {
    long p = ptr(), core = schema.core();
    byte[] frame;
    Tape t = Tape.acquire();
    try {
      t.putMessage(m);
      frame = Walk.senderSend(p, core, m.type.index, t.num, t.bytes);
    } finally {
      t.release();
    }
    sink.accept(frame);
    return frame.length;
  }

  /** Bytes encoded so far. */
  public long bytesSent() {
    return Walk.senderBytes(ptr());
  }

  @Override
  public void close() {
    cleanable.clean();
  }
}

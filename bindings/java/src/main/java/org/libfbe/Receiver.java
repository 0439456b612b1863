package org.libfbe;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.libfbe.internal.Walk;

/**
 * Receives a package's protocol from a byte stream fed in chunks of any size: every
 * complete frame is verified, decoded and handed to the handler, in stream order;
 * frames of unknown type ids are skipped (counted). A frame that cannot be valid
 * throws FbeException (MALFORMED or LIMIT, with the stream offset) after the messages
 * before it were delivered; the receiver is then reset. An exception thrown by the
 * handler stops the feed and propagates; the bytes after that message stay buffered
 * and the next feed goes on with them. Owns a native receiver: close it.
 */
public final class Receiver implements AutoCloseable {
  private static final class Handle implements Runnable {
    volatile long ptr;

    @Override
    public synchronized void run() {
      long p = ptr;
      ptr = 0;
      if (p != 0) Walk.receiverFree(p);
    }
  }

  private final Schema schema;
  private final Consumer<Message> handler;
  private final Handle handle = new Handle();
  private final Cleaner.Cleanable cleanable;
  private boolean feeding;

  Receiver(Schema schema, String pkg, Model model, Consumer<Message> handler) {
    this.schema = schema;
    this.handler = handler;
    handle.ptr = Walk.receiverNew(schema.core(), pkg, model.ordinal());
    cleanable = Schema.CLEANER.register(this, handle);
  }

  /** Called from C for each message: its struct index and its tape. */
  void deliver(int struct, long[] num, byte[] bytes) {
    handler.accept(new Tape(num, bytes).getMessage(schema.structs[struct]));
  }

  private long ptr() {
    long p = handle.ptr;
    if (p == 0) throw new FbeException(FbeException.Status.ARGUMENT, "the receiver is closed");
    return p;
  }

  public void feed(byte[] data) {
    feed(data, 0, data.length);
  }

  public void feed(byte[] data, int off, int len) {
    long p = ptr();
    long core = schema.core();
    if (feeding) throw new FbeException(FbeException.Status.ARGUMENT, "a receiver cannot be fed from its own handler");
    feeding = true;
    schema.busy.incrementAndGet(); // the schema cannot be closed under the handler
    try {
      Walk.receiverFeed(p, core, this, data, off, len);
    } finally {
      schema.busy.decrementAndGet();
      feeding = false;
    }
  }

  public void feed(ByteBuffer data) {
    byte[] copy = new byte[data.remaining()];
    data.get(copy);
    feed(copy);
  }

  /** Feeds everything the stream gives until its end. Returns the bytes read. */
  public long readFrom(InputStream in) throws IOException {
    byte[] buf = new byte[64 * 1024];
    long total = 0;
    for (int n; (n = in.read(buf)) > 0; total += n) feed(buf, 0, n);
    return total;
  }

  /** Bytes of an incomplete frame held for the next feed. */
  public long pending() {
    return Walk.receiverState(ptr(), 0);
  }

  public long received() {
    return Walk.receiverState(ptr(), 1);
  }

  public long skipped() {
    return Walk.receiverState(ptr(), 2);
  }

  /** Drops any partial frame. */
  public void reset() {
    Walk.receiverState(ptr(), 3);
  }

  /**
   * Releases the native receiver. Not from its own handler (FbeException ARGUMENT).
   */
  @Override
  public void close() {
    if (feeding) throw new FbeException(FbeException.Status.ARGUMENT, "a receiver cannot be closed from its own handler");
    cleanable.clean();
  }
}

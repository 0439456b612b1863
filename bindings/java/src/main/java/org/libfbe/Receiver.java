package org.libfbe;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
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
  private final InFlight calls = new InFlight("receiver");
  private final Cleaner.Cleanable cleanable;
  /** The thread inside feed() or reset(), else null: a receiver is one stream. */
  private final AtomicReference<Thread> feeder = new AtomicReference<>();

  Receiver(Schema schema, String pkg, Model model, Consumer<Message> handler, Limits limits) {
    Limits l = Limits.of(limits);
    this.schema = schema;
    this.handler = handler;
    long core = schema.enter();
    try {
      handle.ptr = Walk.receiverNew(core, pkg, model.ordinal(), l.maxDepth(), l.maxModelSize(), l.maxMemory());
    } finally {
      schema.exit();
    }
    cleanable = Schema.CLEANER.register(this, handle);
  }

  private volatile LogHook log;

  /**
   * The log hook (FORMAT.md 9.5): every message received, once it is decoded and before
   * the handler gets it, as its text form (the core's, docs/TEXT.md); null: off. It runs
   * inside the feed; what it throws goes to the thread's uncaught-exception handler.
   * Refused (ARGUMENT) from the handler or while another thread feeds. Returns this receiver.
   */
  public Receiver setLog(LogHook hook) {
    long p = enter();
    try {
      takeStream("given a log hook");
      try {
        Walk.receiverLog(p, hook != null);
        log = hook;
      } finally {
        feeder.set(null);
      }
    } finally {
      exit();
    }
    return this;
  }

  /** Called from C with a received message's text form (UTF-8). */
  void logged(byte[] text) {
    log(log, LogHook.Direction.RECEIVE, text);
  }

  /** hook(direction, text), what it throws to the thread's uncaught-exception handler. */
  static void log(LogHook hook, LogHook.Direction direction, byte[] text) {
    if (hook == null) return;
    try {
      hook.log(direction, new String(text, java.nio.charset.StandardCharsets.UTF_8));
    } catch (Throwable t) {
      Peer.uncaught(t);
    }
  }

  /** Called from C for each message: its struct index and its tape (slots slots, then the bytes). */
  void deliver(int struct, byte[] tape, int slots) {
    handler.accept(new Tape(tape, 8 * slots).getMessage(schema.structs[struct]));
  }

  /** The native receiver, for one call: enter() ... finally exit() (see Schema.enter). */
  private long enter() {
    calls.enter();
    return handle.ptr;
  }

  private void exit() {
    calls.exit();
    Reference.reachabilityFence(this);
  }

  /** Takes the stream for feed() or reset(); refused from the handler or another thread. */
  private void takeStream(String what) {
    if (feeder.compareAndSet(null, Thread.currentThread())) return;
    throw new FbeException(Status.ARGUMENT, feeder.get() == Thread.currentThread()
        ? "a receiver cannot be " + what + " from its own handler"
        : "the receiver is being fed by another thread (feed one receiver from one thread at a time)");
  }

  public void feed(byte[] data) {
    feed(data, 0, data.length);
  }

  /**
   * Feeds data[off..off+len). The receiver and its schema stay in use until the handler
   * calls for these bytes have returned: closing either from a handler, or from another
   * thread meanwhile, is refused (FbeException ARGUMENT "... in use by N calls"); feeding
   * or resetting it from its handler or from a second thread meanwhile is refused too.
   */
  public void feed(byte[] data, int off, int len) {
    long p = enter();
    try {
      takeStream("fed");
      try {
        long core = schema.enter();
        try {
          Walk.receiverFeed(p, core, this, data, off, len);
        } finally {
          schema.exit();
        }
      } finally {
        feeder.set(null);
      }
    } finally {
      exit();
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

  private long state(int what) {
    long p = enter();
    try {
      return Walk.receiverState(p, what);
    } finally {
      exit();
    }
  }

  /** Bytes of an incomplete frame held for the next feed. */
  public long pending() {
    return state(0);
  }

  public long received() {
    return state(1);
  }

  public long skipped() {
    return state(2);
  }

  /** Drops any partial frame. Not from the handler, nor while another thread feeds. */
  public void reset() {
    long p = enter();
    try {
      takeStream("reset");
      try {
        Walk.receiverState(p, 3);
      } finally {
        feeder.set(null);
      }
    } finally {
      exit();
    }
  }

  /**
   * Releases the native receiver. Idempotent. Refused while a call is in flight: from its
   * own handler, or while another thread feeds it (FbeException ARGUMENT).
   */
  @Override
  public void close() {
    if (feeder.get() == Thread.currentThread())
      throw new FbeException(Status.ARGUMENT, "a receiver cannot be closed from its own handler");
    if (calls.close(null)) cleanable.clean();
  }
}

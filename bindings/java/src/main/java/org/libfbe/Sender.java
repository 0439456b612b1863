package org.libfbe;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
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
  private final InFlight calls = new InFlight("sender");
  private final Cleaner.Cleanable cleanable;

  Sender(Schema schema, String pkg, Model model, Consumer<byte[]> sink) {
    this.schema = schema;
    this.sink = sink;
    long core = schema.enter();
    try {
      handle.ptr = Walk.senderNew(core, pkg, model.ordinal());
    } finally {
      schema.exit();
    }
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

  /** The native sender, for one call: enter() ... finally exit() (see Schema.enter). */
  private long enter() {
    calls.enter();
    return handle.ptr;
  }

  private void exit() {
    calls.exit();
    Reference.reachabilityFence(this);
  }

  /**
   * Encodes the message (a message type of the protocol, else TYPE) and hands its
   * frame to the sink. Returns the frame size. Thread-safe: concurrent sends take turns
   * to encode (the sink may be called by several threads at once).
   */
  public int send(Message m) {
    byte[] frame, text = null;
    LogHook hook;
    long p = enter();
    try {
      Schema s = schema;
      Tape t = s.begin();
      try {
        t.putMessage(m);
        synchronized (handle) { // the native sender's frame buffer is one per sender
          frame = Walk.senderSend(p, t.core, m.type.index, t.at(), t.caps());
          hook = log;
          if (hook != null) text = Walk.senderLogged(p);
        }
      } finally {
        s.end(t);
      }
    } finally {
      exit();
    }
    if (text != null) Receiver.log(hook, LogHook.Direction.SEND, text);
    sink.accept(frame);
    return frame.length;
  }

  private LogHook log; // (guarded by handle)

  /**
   * The log hook (FORMAT.md 9.5): every message sent, once it is encoded and before the
   * sink takes its frame, as its text form (the core's, docs/TEXT.md); null: off. It runs
   * on the sending thread; what it throws goes to that thread's uncaught-exception
   * handler. Returns this sender.
   */
  public Sender setLog(LogHook hook) {
    long p = enter();
    try {
      synchronized (handle) {
        Walk.senderLog(p, hook != null);
        log = hook;
      }
    } finally {
      exit();
    }
    return this;
  }

  /** Bytes encoded so far. */
  public long bytesSent() {
    long p = enter();
    try {
      synchronized (handle) {
        return Walk.senderBytes(p);
      }
    } finally {
      exit();
    }
  }

  /**
   * Releases the native sender. Idempotent. Refused while another thread is inside
   * {@link #send} (FbeException ARGUMENT "the sender is in use by N calls"); the sink is
   * called after the send's native part, so it may close the sender.
   */
  @Override
  public void close() {
    if (calls.close(null)) cleanable.clean();
  }
}

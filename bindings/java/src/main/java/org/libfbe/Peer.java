package org.libfbe;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.libfbe.internal.Walk;

/**
 * What a {@link Client}, a {@link Server} and a {@link Proxy} share: one native peer
 * (bindings/java/native/rpc.c: the core's fbe_client, a receiver and sender of requests
 * and replies, or a proxy receiver), fed received bytes by {@link #feed} or a reader
 * ({@link #readFrom}, {@link #startReading}), writing what it sends to its sink or
 * output stream, with the core's log hook.
 *
 * <p><b>Threads.</b> Every method is thread-safe: each call holds the peer's lock (a
 * {@link ReentrantLock}) for the length of its native part, so calls from several threads
 * take turns at the native peer, and close() waits for a running call. The core calls
 * back from inside those calls, on the calling thread and with the lock held: a request
 * ending (its future completed, with its dependent actions that are not *Async), a
 * notification, a server's handler, a proxy's frame, the log hook, a sink. Those may call
 * this peer again (the lock is reentrant; a reset stops the feed after the message being
 * handled, as the core defines), but must not wait for another thread that uses it: that
 * thread waits for this call to end. Hand such work to an executor (thenApplyAsync & co.).
 *
 * <p><b>Output.</b> A {@code Consumer<byte[]>} sink gets each frame inside the call that
 * sends it (it may refuse by throwing: the core's IO error, with the exception as its
 * cause, and a request is then not made). An {@link OutputStream} is written by a writer
 * thread of the peer's, in the order the core sent the frames: neither a sender nor a
 * reader ever blocks on a full socket, so two peers over one connection cannot deadlock
 * on their buffers. A write that fails ends the output: a client is reset (its frames are
 * lost) and later sends are refused (IO, with the write's exception as the cause).
 *
 * <p><b>Lifetime.</b> The native peer lives until {@link #close()} (or the Cleaner, for a
 * peer dropped unclosed) and is never freed under a running call: close() from a
 * callback takes effect when the outermost call returns. Streams are the caller's: close
 * them too.
 */
public abstract sealed class Peer implements AutoCloseable permits Client, Server, Proxy {
  static final int CLIENT = 0, SERVER = 1, PROXY = 2;
  /** Native peers not yet freed (by close() or the Cleaner); the memory test reads it. */
  static final java.util.concurrent.atomic.AtomicLong LIVE = new java.util.concurrent.atomic.AtomicLong();
  private static final String[] KINDS = {"client", "server", "proxy"};

  /** The native peer, freed once by close() or the Cleaner (never refers to the Peer). */
  static final class Native implements Runnable {
    volatile long ptr;
    /** A client's requests: a client dropped unclosed ends them as reset, through the core. */
    final Ends ends;
    /** A client's own watchdog scheduler, shut down with it. */
    volatile ScheduledExecutorService scheduler;

    Native(Ends ends) {
      this.ends = ends;
    }

    @Override
    public synchronized void run() {
      long p = ptr;
      ptr = 0;
      ScheduledExecutorService s = scheduler;
      scheduler = null;
      if (s != null) s.shutdown();
      if (p == 0) return;
      try {
        if (ends != null) Walk.peerReset(p, null, ends); // (nothing pending after close(): a no-op)
      } finally {
        Walk.peerFree(p);
        LIVE.decrementAndGet();
      }
    }
  }

  final Schema schema;
  final int kind;
  /** The package (null: the schema's root) and model of every frame. */
  final String pkg;
  final Model model;
  final ReentrantLock lock = new ReentrantLock();
  final Native handle;
  private final Cleaner.Cleanable cleanable;
  private final Output output;
  private final LogHook log;
  /** close() was called: every call is refused; the native peer is freed by the outermost call. */
  boolean closed;
  /** What a callback of the running call threw (Java throws it when the call returns), and whether a sink's. */
  private Throwable thrown;
  private boolean thrownBySink;

  Peer(Schema schema, int kind, String pkg, Model model, Limits limits, long maxPending, boolean verify,
      Output output, LogHook log, Ends ends) {
    if (schema == null) throw new FbeException(Status.ARGUMENT, "a " + KINDS[kind] + " needs a schema");
    Limits l = Limits.of(limits);
    this.schema = schema;
    this.kind = kind;
    this.pkg = pkg;
    this.model = model == null ? Model.STANDARD : model;
    this.output = output;
    if (output instanceof StreamOutput) ((StreamOutput) output).peer = this;
    this.log = log;
    this.handle = new Native(ends);
    long core = schema.enter();
    try {
      handle.ptr = Walk.peerNew(core, kind, pkg, this.model.ordinal(), l.maxDepth(), l.maxModelSize(),
          l.maxMemory(), maxPending, verify);
    } finally {
      schema.exit();
    }
    LIVE.incrementAndGet();
    cleanable = Schema.CLEANER.register(this, handle);
    if (log != null) Walk.peerLog(handle.ptr, true);
  }

  // ------------------------------------------------------------------ calls

  /** One native call on the peer (its handle h), the lock held. */
  @FunctionalInterface
  interface NativeCall {
    void run(long h);
  }

  /** body with the lock held; then, from the outermost call, the native peer freed if close() was called meanwhile. */
  final <T> T locked(Supplier<T> body) {
    lock.lock();
    try {
      return body.get();
    } finally {
      release();
    }
  }

  final void locked(Runnable body) {
    locked(() -> {
      body.run();
      return null;
    });
  }

  /** Releases the lock (first freeing the native peer if it was closed and this is the outermost call). */
  private void release() {
    try {
      if (lock.getHoldCount() == 1 && closed && handle.ptr != 0) cleanable.clean();
    } finally {
      lock.unlock();
    }
  }

  /** The native peer for a call (the lock held); FbeException ARGUMENT once closed. */
  final long open() {
    if (closed || handle.ptr == 0) throw new FbeException(Status.ARGUMENT, "the " + KINDS[kind] + " is closed");
    return handle.ptr;
  }

  /** call on the open peer. */
  final void call(NativeCall c) {
    callOn(open(), c);
  }

  /**
   * One native call (the lock held). What its callbacks threw is thrown when it returns:
   * a sink's as the cause of the core's IO error (the send it refused), a handler's or
   * listener's as it is (it stopped the feed), an Error always as it is.
   */
  final void callOn(long h, NativeCall c) {
    Throwable outer = thrown;
    boolean outerBySink = thrownBySink;
    thrown = null;
    thrownBySink = false;
    Throwable t;
    boolean bySink;
    FbeException failed = null;
    try {
      try {
        c.run(h);
      } catch (FbeException e) {
        failed = e;
      }
    } finally {
      t = thrown;
      bySink = thrownBySink;
      thrown = outer;
      thrownBySink = outerBySink;
      Reference.reachabilityFence(this);
    }
    if (t == null) {
      if (failed != null) throw failed;
      return;
    }
    if (t instanceof Error) {
      if (failed != null) t.addSuppressed(failed);
      throw (Error) t;
    }
    if (bySink && failed != null) {
      try {
        failed.initCause(t);
      } catch (IllegalStateException alreadySet) {
        failed.addSuppressed(t);
      }
      throw failed;
    }
    if (t instanceof RuntimeException) throw (RuntimeException) t;
    throw new UndeclaredThrowableException(t);
  }

  private void stash(Throwable t, boolean bySink) {
    if (thrown == null) {
      thrown = t;
      thrownBySink = bySink;
    } else if (thrown != t) {
      thrown.addSuppressed(t);
    }
  }

  // ------------------------------------------------------------------ from C (rpc.c)

  /** A frame to send; false refuses it (the core's IO error). */
  final boolean written(byte[] frame) {
    try {
      output.take(frame);
      return true;
    } catch (Throwable t) {
      stash(t, true);
      return false;
    }
  }

  /** A received message (a client's notification, a server's request); false stops the feed. */
  final boolean received(int si, byte[] tape, int slots) {
    try {
      onMessage(new Message(schema.structs[si], new Message.Saved(tape, slots)));
      return true;
    } catch (Throwable t) {
      stash(t, false);
      return false;
    }
  }

  /** A proxy's frame; false stops the feed. */
  final boolean frame(int typeId, int si, byte[] frame) {
    try {
      onFrame(typeId, si >= 0 ? schema.structs[si] : null, frame);
      return true;
    } catch (Throwable t) {
      stash(t, false);
      return false;
    }
  }

  /** A log line of the core: what it throws goes to the thread's uncaught-exception handler. */
  final void logged(boolean sent, byte[] text) {
    LogHook l = log;
    if (l == null) return;
    try {
      l.log(sent ? LogHook.Direction.SEND : LogHook.Direction.RECEIVE, new String(text, StandardCharsets.UTF_8));
    } catch (Throwable t) {
      uncaught(t);
    }
  }

  static void uncaught(Throwable t) {
    Thread th = Thread.currentThread();
    try {
      th.getUncaughtExceptionHandler().uncaughtException(th, t);
    } catch (Throwable ignored) { // (the handler's own failure changes nothing either)
    }
  }

  void onMessage(Message m) {}

  void onFrame(int typeId, StructType type, byte[] frame) {}

  /** The output failed (a stream's write threw, on its writer thread): a client is reset. */
  void outputFailed() {}

  /** The input ended (a reader's stream ended or failed): a client is reset. */
  void inputEnded() {}

  // ------------------------------------------------------------------ the public part

  /** The schema this peer speaks. */
  public Schema schema() {
    return schema;
  }

  /**
   * Takes received bytes, in chunks of any size (a frame may span chunks). A frame that
   * cannot be valid throws the core's FbeException (MALFORMED or LIMIT, with its stream
   * offset): the frames before it were handled and the peer's partial frame is dropped
   * (a client's pending requests stay). An exception thrown by a handler or listener
   * stops the feed after its message and comes out of feed as it is; the bytes after
   * that message stay buffered and the next feed (even of no bytes) goes on with them.
   * A peer cannot be fed from its own callbacks (ARGUMENT).
   */
  public void feed(byte[] data, int off, int len) {
    if (data == null) throw new FbeException(Status.ARGUMENT, "data is null");
    locked(() -> call(h -> {
      long core = schema.enter();
      try {
        Walk.peerFeed(h, core, this, handle.ends, data, off, len);
      } finally {
        schema.exit();
      }
    }));
  }

  public void feed(byte[] data) {
    feed(data, 0, data == null ? 0 : data.length);
  }

  public void feed(ByteBuffer data) {
    byte[] copy = new byte[data.remaining()];
    data.get(copy);
    feed(copy);
  }

  /**
   * Feeds everything the stream gives, on the calling thread, until its end; returns the
   * bytes read. At the end of the stream (or when reading it throws) a client is reset:
   * its pending requests end with RESET, since no answer can come any more. An exception
   * of {@link #feed} comes out as it is (the reader may call readFrom again to go on).
   */
  public long readFrom(InputStream in) throws IOException {
    byte[] buf = new byte[64 * 1024];
    long total = 0;
    try {
      for (int n; (n = in.read(buf)) >= 0; ) {
        if (n == 0) continue;
        feed(buf, 0, n);
        total += n;
      }
    } catch (IOException e) {
      endInput();
      throw e;
    }
    endInput();
    return total;
  }

  private void endInput() {
    if (!isClosed()) inputEnded();
  }

  /**
   * {@link #readFrom} on a daemon thread of its own ("fbe-client-reader", ...): a future of
   * the bytes read, completed when the stream ends (exceptionally when reading or feeding
   * failed; a client is then reset). Once this peer is closed, the reader stops at its
   * next chunk and the future completes normally.
   */
  public CompletableFuture<Long> startReading(InputStream in) {
    return startReading(in, r -> {
      Thread t = new Thread(r, "fbe-" + KINDS[kind] + "-reader");
      t.setDaemon(true);
      t.start();
    });
  }

  /** {@link #startReading(InputStream)} as a task of the executor's. */
  public CompletableFuture<Long> startReading(InputStream in, Executor executor) {
    CompletableFuture<Long> done = new CompletableFuture<>();
    long[] total = {0};
    executor.execute(() -> {
      byte[] buf = new byte[64 * 1024];
      try {
        for (int n; (n = in.read(buf)) >= 0; ) {
          if (n == 0) continue;
          if (isClosed()) break;
          feed(buf, 0, n);
          total[0] += n;
        }
        endInput();
        done.complete(total[0]);
      } catch (Throwable t) {
        try {
          endInput();
        } catch (Throwable e) {
          t.addSuppressed(e);
        }
        if (isClosed()) done.complete(total[0]); // (closed meanwhile: the reader's end, not a failure)
        else done.completeExceptionally(t);
      }
    });
    return done;
  }

  private long count(int what) {
    return locked(() -> {
      long[] n = {0};
      call(h -> n[0] = Walk.peerCount(h, what));
      return n[0];
    });
  }

  /** Bytes of an incomplete frame held for the next feed. */
  public long pendingBytes() {
    return count(1);
  }

  /** Messages received (a proxy: frames of types its protocol knows). */
  public long received() {
    return count(2);
  }

  /** Frames of type ids the protocol does not know, skipped (a proxy hands them over too). */
  public long skipped() {
    return count(3);
  }

  /** Bytes sent so far (a proxy: 0). */
  public long bytesSent() {
    return count(4);
  }

  /** The package whose protocol this peer speaks (the schema's root package when none was named). */
  public String packageName() {
    return pkg != null ? pkg : schema.packageName();
  }

  public Model model() {
    return model;
  }

  /** close() was called. */
  public boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Releases the native peer (a client first ends its pending requests with RESET).
   * Idempotent. Waits for a call running on another thread; from a callback, takes effect
   * when the running call returns. Every later call throws FbeException ARGUMENT.
   */
  @Override
  public void close() {
    locked(() -> {
      if (closed) return;
      closed = true;
      closing();
    });
  }

  /**
   * What close() does before the native peer goes (the lock held, closed set): a reset,
   * which ends a client's pending requests, and, from a callback of a feed, stops that
   * feed after the current message (its native state is freed when it returns).
   */
  void closing() {
    callOn(handle.ptr, h -> Walk.peerReset(h, this, handle.ends));
  }

  /** A message this peer may take: one of its schema's types. */
  final void checkMessage(Message m, String what) {
    if (m == null) throw new FbeException(Status.ARGUMENT, what + " is null");
    if (m.type.schema != schema)
      throw new FbeException(Status.TYPE, what + " is a " + m.type.fullName() + " of another schema (" + m.type.schema
          + ") than this " + KINDS[kind] + "'s (" + schema + ")");
  }

  /** The message on the thread's tape, for one native call: run(h, core, tape). */
  interface TapeCall {
    void run(long h, long core, Tape t);
  }

  final void withTape(Message a, Message b, TapeCall c) {
    call(h -> {
      Tape t = schema.begin();
      try {
        t.putMessage(a);
        if (b != null) t.putMessage(b);
        c.run(h, t.core, t);
      } finally {
        schema.end(t);
      }
    });
  }

  final void sendMessage(Message m) {
    checkMessage(m, "the message");
    locked(() -> withTape(m, null,
        (h, core, t) -> Walk.peerSend(h, core, this, handle.ends, m.type.index, t.at(), t.caps())));
  }

  // ------------------------------------------------------------------ output

  /** Where a peer's frames go. */
  abstract static class Output {
    /** A frame the core sends, inside its call (the lock held): throwing refuses it. */
    abstract void take(byte[] frame);

    static Output of(Consumer<byte[]> sink) {
      if (sink == null) throw new FbeException(Status.ARGUMENT, "no sink for the frames (a Consumer<byte[]>)");
      return new Output() {
        @Override
        void take(byte[] frame) {
          sink.accept(frame);
        }
      };
    }

    static Output of(OutputStream out) {
      if (out == null) throw new FbeException(Status.ARGUMENT, "no output stream for the frames");
      return new StreamOutput(out);
    }
  }

  /**
   * An OutputStream written by a writer thread of its own ("fbe-client-writer", ...; a
   * daemon, started at the first frame, ending when idle for 10 s), never by the peer's
   * callers: frames are queued in the core's order inside the calls and written in that
   * order, then flushed when none waits. So neither a sender nor a reader (a server's
   * replies are made inside its feed) ever blocks on a full socket, and two peers over one
   * connection cannot deadlock on their buffers. A write that fails ends the output: its
   * queue is dropped, later frames are refused (IO, the failure as the cause) and the
   * peer is told (a client is reset: its frames are lost).
   */
  static final class StreamOutput extends Output {
    private static final long IDLE_NANOS = 10_000_000_000L;
    private final OutputStream out;
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>(); // guarded by this
    private boolean writing; // a writer thread runs (guarded by this)
    private volatile IOException failed;
    private Peer peer;

    StreamOutput(OutputStream out) {
      this.out = out;
    }

    @Override
    void take(byte[] frame) {
      IOException f = failed;
      if (f != null) throw new UncheckedIOException("the output failed earlier", f);
      synchronized (this) {
        queue.add(frame);
        if (writing) {
          notifyAll();
          return;
        }
        writing = true;
      }
      Thread t = new Thread(this::write, "fbe-" + KINDS[peer.kind] + "-writer");
      t.setDaemon(true);
      t.start();
    }

    /** The writer thread: frames in order, a flush when the queue is empty, until idle. */
    private void write() {
      try {
        for (;;) {
          byte[] frame;
          boolean last;
          synchronized (this) {
            long idleSince = System.nanoTime();
            while (queue.isEmpty()) {
              long left = IDLE_NANOS - (System.nanoTime() - idleSince);
              if (left <= 0) {
                writing = false;
                return;
              }
              wait(left / 1_000_000 + 1);
            }
            frame = queue.poll();
            last = queue.isEmpty();
          }
          out.write(frame);
          if (last) out.flush();
        }
      } catch (IOException e) {
        failed = e;
        synchronized (this) {
          queue.clear();
          writing = false;
        }
        try {
          peer.outputFailed();
        } catch (RuntimeException closedMeanwhile) { // (nothing left to tell)
        }
      } catch (InterruptedException e) {
        synchronized (this) {
          writing = false;
        }
      }
    }
  }

  /**
   * What every peer's builder sets: the package whose protocol it speaks (default: the
   * schema's root), the model of its frames (default: standard) and the limits of every
   * frame received (for a proxy: a frame's size, and with verify all three).
   */
  public abstract static sealed class Builder<B extends Builder<B>> permits Client.Builder, Server.Builder, Proxy.Builder {
    final Schema schema;
    String pkg;
    Model model = Model.STANDARD;
    Limits limits = Limits.DEFAULT;

    Builder(Schema schema) {
      this.schema = schema;
    }

    @SuppressWarnings("unchecked")
    private B self() {
      return (B) this;
    }

    /** The package whose protocol (its messages and its imports') the peer speaks; default: the schema's root. */
    public B pkg(String pkg) {
      this.pkg = pkg;
      return self();
    }

    /** The model of every frame sent and received (default: standard). */
    public B model(Model model) {
      this.model = model;
      return self();
    }

    /** The limits of every frame received. */
    public B limits(Limits limits) {
      this.limits = limits;
      return self();
    }
  }
}

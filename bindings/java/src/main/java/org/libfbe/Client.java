package org.libfbe;

import java.io.OutputStream;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.libfbe.internal.Walk;

/**
 * A client of a package's protocol (docs/CLIENT.md), over the core's fbe_client:
 * {@link #request} sends a message of a {@code [request]} type and returns a future of
 * its response. Which message answers which request, rejects (local, and global ones of
 * an imported package), timeouts, duplicate ids and the cap on pending requests are the
 * core's rules; this class turns the core's ends into futures and runs its watchdog.
 *
 * <pre>{@code
 * try (Client client = schema.client().build(socket.getOutputStream())) {
 *   client.startReading(socket.getInputStream());
 *   Message accepted = client.request(order, Duration.ofSeconds(5)).join();
 * }
 * }</pre>
 *
 * <p>A request ends exactly once: its future completes with the response (with null for a
 * request type without {@code [response(...)]}, as soon as it is sent), or exceptionally
 * with an {@link FbeException}: {@link RejectedException} ({@link Status#REJECTED}, its
 * {@code reject()} the reject received), {@link Status#TIMEOUT} "Timeout!" (past its
 * timeout when the watchdog looked), {@link Status#RESET} "Reset client!" ({@link #reset},
 * {@link #close}, the end of the input). ({@code join()} wraps it in a
 * CompletionException, {@code get()} in an ExecutionException.) Every other message
 * received goes to the notification listener. Cancelling a future does not end its
 * request in the core (it still counts as pending until it ends).
 *
 * <p>Timeouts run on the client's clock (nanoseconds; by default {@link System#nanoTime})
 * from a scheduler that calls the core's watchdog at its next deadline
 * (fbe_client_next_deadline): the builder's {@link ScheduledExecutorService}, or a daemon
 * thread of the client's own, made at the first request with a timeout (it ends when
 * idle and at close). With {@link Builder#manualWatchdog()} nothing runs by itself: call
 * {@link #watchdog(long)}.
 *
 * <p>Threads, output streams and lifetime: see {@link Peer} (every call thread-safe;
 * futures complete inside the call that ended them, on its thread).
 */
public final class Client extends Peer {
  /** The default clock's zero: its times are {@code System.nanoTime() - ORIGIN} (never negative). */
  private static final long ORIGIN = System.nanoTime();
  private static final LongSupplier NANO_CLOCK = () -> System.nanoTime() - ORIGIN;

  private final Ends ends;
  private final Consumer<Message> onNotify;
  private final LongSupplier clock;
  private final long defaultTimeout;
  private final boolean timers;
  private ScheduledExecutorService scheduler; // the builder's, or ours (made when first needed); under the lock
  private final boolean ownScheduler;
  private ScheduledFuture<?> timer;
  private long timerAt, timerSeq; // the deadline it runs at; which scheduling is the live one

  private Client(Builder b, Output output, Ends ends) {
    super(b.schema, CLIENT, b.pkg, b.model, b.limits, b.maxPending, false, output, b.log, ends);
    this.ends = ends;
    this.onNotify = b.onNotify;
    this.clock = b.clock != null ? b.clock : NANO_CLOCK;
    this.defaultTimeout = b.timeout;
    this.timers = b.timers;
    this.scheduler = b.scheduler;
    this.ownScheduler = b.scheduler == null;
  }

  /** How to make a client: {@link Schema#client()}. */
  public static final class Builder extends Peer.Builder<Builder> {
    private long maxPending;
    private long timeout;
    private Consumer<Message> onNotify;
    private LogHook log;
    private LongSupplier clock;
    private ScheduledExecutorService scheduler;
    private boolean timers = true;

    Builder(Schema schema) {
      super(schema);
    }




    /** How many requests may wait at once (0: the core's default, 65,536); past it a request is refused (LIMIT). */
    public Builder maxPending(long maxPending) {
      if (maxPending < 0) throw new FbeException(Status.RANGE, "maxPending must be 0 (the default) or more, not " + maxPending);
      this.maxPending = maxPending;
      return this;
    }

    /** The timeout of {@link Client#request(Message)} (default: none). */
    public Builder timeout(Duration timeout) {
      this.timeout = nanos(timeout);
      return this;
    }

    /** Gets every message received that is no pending request's answer (events, pushes, late answers). */
    public Builder onNotify(Consumer<Message> onNotify) {
      this.onNotify = onNotify;
      return this;
    }

    /** The log hook: every message sent and received, as its text form. */
    public Builder log(LogHook log) {
      this.log = log;
      return this;
    }

    /**
     * The clock: nanoseconds of any clock that does not go back, read as unsigned (default:
     * {@link System#nanoTime()} from an origin). Requests are made at its time, and the
     * scheduled watchdog looks at its time; a scripted clock goes with {@link #manualWatchdog()}.
     */
    public Builder clock(LongSupplier clock) {
      this.clock = clock;
      return this;
    }

    /** The executor that runs the watchdog at the next deadline (default: a daemon thread of the client's). */
    public Builder scheduler(ScheduledExecutorService scheduler) {
      this.scheduler = scheduler;
      return this;
    }

    /** No timer: timeouts are checked when {@link Client#watchdog(long)} is called. */
    public Builder manualWatchdog() {
      this.timers = false;
      return this;
    }

    /** A client writing each frame to sink, inside the call that sends it (a sink that throws refuses the frame). */
    public Client build(Consumer<byte[]> sink) {
      return new Client(this, Output.of(sink), new Ends(schema));
    }

    /** A client writing to out from a writer thread of its own, in the core's order (see {@link Peer}). */
    public Client build(OutputStream out) {
      return new Client(this, Output.of(out), new Ends(schema));
    }
  }

  /** A timeout in the core's nanoseconds: 0 for none (null or zero), saturated past 2^63-1. */
  static long nanos(Duration timeout) {
    if (timeout == null || timeout.isZero()) return 0;
    if (timeout.isNegative()) throw new FbeException(Status.RANGE, "a timeout must not be negative, not " + timeout);
    try {
      return timeout.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * Sends a request with the client's default timeout (none unless the builder gave one):
   * {@link #request(Message, Duration)}.
   */
  public CompletableFuture<Message> request(Message request) {
    return request0(request, defaultTimeout);
  }

  /**
   * Sends a message of a {@code [request]} type and returns a future of how it ends: the
   * response; null as soon as it is sent when its type has no {@code [response(...)]};
   * else a {@link RejectedException}, an FbeException TIMEOUT (past {@code timeout}, zero
   * or null for none) or RESET. The request is registered under its {@code id} before its
   * frame is sent, at the clock's time.
   *
   * @throws FbeException when the core refuses it and nothing is sent: TYPE (not a request
   *     type of this client's protocol), ARGUMENT (no usable {@code id}, or a pending request
   *     has an equal one; the client is closed), LIMIT (maxPending requests are pending), IO
   *     (the sink refused the frame: its exception is the cause)
   */
  public CompletableFuture<Message> request(Message request, Duration timeout) {
    return request0(request, nanos(timeout));
  }

  private CompletableFuture<Message> request0(Message request, long timeout) {
    checkMessage(request, "the request");
    CompletableFuture<Message> future = new CompletableFuture<>();
    locked(() -> {
      open();
      long now = clock.getAsLong();
      long token = ends.add(future);
      try {
        withTape(request, null, (h, core, t) -> Walk.clientRequest(h, core, this, ends, request.type.index, t.at(),
            t.caps(), timeout, now, token));
      } catch (RuntimeException | Error e) {
        ends.remove(token); // refused: nothing was registered
        throw e;
      }
      if (timeout != 0 && !future.isDone()) arm(deadline(now, timeout));
    });
    return future;
  }

  private static long deadline(long now, long timeout) {
    long d = now + timeout;
    return Long.compareUnsigned(d, now) < 0 ? -1 : d; // (saturated at 2^64-1)
  }

  /** Sends any message of the protocol as it is (a notification): no request is made. */
  public void send(Message message) {
    sendMessage(message);
  }

  /** {@link #watchdog(long)} at the clock's time. */
  public int watchdog() {
    return watchdog(clock.getAsLong());
  }

  /**
   * Ends every pending request whose start + timeout is at or before {@code nowNanos} (the
   * clock's nanoseconds, unsigned) with TIMEOUT "Timeout!", oldest first; how many.
   */
  public int watchdog(long nowNanos) {
    return locked(() -> watchdogLocked(nowNanos));
  }

  private int watchdogLocked(long now) {
    long[] n = {0};
    call(h -> n[0] = Walk.clientWatchdog(h, this, ends, now));
    return (int) Math.min(n[0], Integer.MAX_VALUE);
  }

  /**
   * Ends every pending request with RESET "Reset client!", oldest first, and drops a
   * partial frame received. From a callback of a feed, that feed stops after the message
   * being handled and the rest of its bytes are dropped (the core's rule).
   */
  public void reset() {
    locked(() -> call(h -> Walk.peerReset(h, this, ends)));
  }

  /** When the watchdog next ends a request (the clock's nanoseconds, unsigned), or empty when no pending request has a timeout. */
  public OptionalLong nextDeadline() {
    return locked(() -> {
      long[] next = {-1};
      call(h -> next[0] = Walk.clientNextDeadline(h));
      return next[0] == -1 ? OptionalLong.empty() : OptionalLong.of(next[0]);
    });
  }

  /** Requests waiting for their end (the core's count). */
  public int pending() {
    return locked(() -> {
      long[] n = {0};
      call(h -> n[0] = Walk.peerCount(h, 0));
      return (int) Math.min(n[0], Integer.MAX_VALUE);
    });
  }

  /** The clock's time now. */
  public long now() {
    return clock.getAsLong();
  }

  @Override
  void onMessage(Message m) {
    Consumer<Message> n = onNotify;
    if (n != null) n.accept(m);
  }

  @Override
  void inputEnded() {
    try {
      reset();
    } catch (FbeException closedMeanwhile) {
      if (!isClosed()) throw closedMeanwhile;
    }
  }

  @Override
  void outputFailed() {
    inputEnded(); // the frames are lost with the stream: no answer can come
  }

  /**
   * Ends every pending request with RESET (their futures complete exceptionally; dependent
   * actions run here), stops the watchdog (an own scheduler is shut down) and releases
   * the native client. Idempotent; waits for a call running on another thread; from a
   * callback it takes effect when the running call returns.
   */
  @Override
  public void close() {
    super.close();
  }

  @Override
  void closing() {
    if (timer != null) timer.cancel(false);
    timer = null;
    try {
      super.closing();
    } finally {
      if (ownScheduler && scheduler != null) { // (not shutdownNow: close may run on its thread, in a timeout's callback)
        scheduler.shutdown();
        scheduler = null;
        handle.scheduler = null;
      }
    }
  }

  // ------------------------------------------------------------------ the watchdog's timer

  /** The timer runs by `deadline` at the latest (the lock held). */
  private void arm(long deadline) {
    if (!timers || closed) return;
    if (timer != null && Long.compareUnsigned(timerAt, deadline) <= 0) return;
    schedule(deadline);
  }

  private void schedule(long deadline) {
    if (timer != null) timer.cancel(false);
    long delay = deadline - clock.getAsLong();
    long seq = ++timerSeq;
    timerAt = deadline;
    timer = scheduler().schedule(() -> onTimer(seq), delay < 0 ? 0 : delay, TimeUnit.NANOSECONDS);
  }

  private ScheduledExecutorService scheduler() {
    if (scheduler == null) {
      ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "fbe-client-watchdog");
        t.setDaemon(true);
        return t;
      });
      s.setRemoveOnCancelPolicy(true);
      s.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // (shutdown drops the timer)
      s.setKeepAliveTime(10, TimeUnit.SECONDS);
      s.allowCoreThreadTimeOut(true);
      scheduler = s;
      handle.scheduler = s;
    }
    return scheduler;
  }

  /** The watchdog at the clock's time, then the timer at the core's next deadline. */
  private void onTimer(long seq) {
    locked(() -> {
      if (seq != timerSeq || closed) return; // (replaced by an earlier one meanwhile)
      timer = null;
      watchdogLocked(clock.getAsLong());
      if (closed || timer != null) return; // (closed, or re-armed, by a callback of the watchdog)
      long[] next = {-1};
      call(h -> next[0] = Walk.clientNextDeadline(h));
      if (next[0] != -1) schedule(next[0]);
    });
  }
}

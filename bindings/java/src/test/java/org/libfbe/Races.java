package org.libfbe;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The lifetime races of issue 17, as a program: RaceTest runs it in a JVM of its own,
 * so a crash of that JVM (SIGSEGV in libfbejni) is a failed test, not a dead build.
 *
 * <pre>
 *   java -cp ... org.libfbe.Races cleaner SECONDS   schemas dropped unclosed while their
 *       calls run (verify, decode, encode, toJson, fromJson, newMessage, sameValue,
 *       sender, receiver), under GC pressure: the Cleaner must never free under a call
 *   java -cp ... org.libfbe.Races close SECONDS     schemas, senders and receivers closed
 *       while other threads use them: close is refused while calls are in flight (an
 *       FbeException ARGUMENT "... in use by N calls"), and succeeds once they end
 * </pre>
 *
 * Prints "races: ..." counts and exits 0; any unexpected exception exits 1.
 */
public final class Races {
  /** A message type whose calls take long enough for a GC to come in the middle. */
  static final String SCHEMA = "package race\n"
      + "message R { int32 id; string name; string[] tags; R2[] items; }\n"
      + "struct R2 { int64 a; string b; double? c; }\n";

  private Races() {}

  static Message big(Schema s, int n) {
    List<String> tags = new ArrayList<>();
    List<Message> items = new ArrayList<>();
    StructType r2 = s.struct("R2");
    for (int i = 0; i < n; i++) {
      tags.add("tag" + i);
      items.add(r2.newMessage().set("a", (long) i).set("b", "b" + i).set("c", i % 2 == 0 ? null : 0.5 * i));
    }
    return s.struct("R").newMessage().set("id", 7).set("name", "race").set("tags", tags).set("items", items);
  }

  static Schema load() {
    return Fbe.loadString(SCHEMA, "race.fbe", List.of());
  }

  public static void main(String[] args) throws Exception {
    String what = args[0];
    long seconds = Long.parseLong(args[1]);
    long counts = what.equals("cleaner") ? cleaner(seconds) : close(seconds);
    System.out.println("races: " + what + " " + counts + " calls in " + seconds + " s, no crash");
  }

  /** Runs `body` on `threads` threads until the deadline; the first unexpected throwable wins. */
  static long run(int threads, long seconds, AtomicLong calls, ThrowingRunnable body) throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> all = new ArrayList<>();
    for (int k = 0; k < threads; k++) {
      final int id = k;
      Thread t = new Thread(() -> {
        try {
          while (!stop.get() && System.nanoTime() < deadline) body.run(id);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          stop.set(true);
        }
      }, "race-" + k);
      all.add(t);
      t.start();
    }
    // GC pressure: garbage and explicit GCs, so the Cleaner runs all the time.
    Thread gc = new Thread(() -> {
      while (!stop.get() && System.nanoTime() < deadline) {
        System.gc();
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "race-gc");
    gc.start();
    for (Thread t : all) t.join();
    stop.set(true);
    gc.join();
    if (failure.get() != null) {
      failure.get().printStackTrace();
      System.exit(1);
    }
    return calls.get();
  }

  interface ThrowingRunnable {
    void run(int thread) throws Exception;
  }

  /** No close() anywhere: each call's schema is reachable only through the call itself. */
  static long cleaner(long seconds) throws Exception {
    byte[] bytes;
    String json;
    byte[] frames;
    try (Schema s = load()) {
      Message m = big(s, 2000);
      bytes = m.encode();
      json = m.toJson();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (Sender snd = s.sender(out)) {
        snd.send(m);
      }
      frames = out.toByteArray();
    }
    AtomicLong calls = new AtomicLong();
    return run(3, seconds, calls, id -> {
      byte[] garbage = new byte[64 << 10]; // allocation: young GCs between the calls
      garbage[id] = 1;
      long got;
      switch ((int) (calls.incrementAndGet() % 9)) {
        case 0: got = load().struct("R").verify(bytes); break;
        case 1: got = load().struct("R").decode(bytes).getInt("id"); break;
        case 2: got = load().struct("R").decodeTrusted(bytes).encode().length; break;
        case 3: got = load().struct("R").decode(bytes).toJson().length(); break;
        case 4: got = load().struct("R").fromJson(json).getInt("id"); break;
        case 5: got = load().struct("R2").newMessage().encode(Model.FINAL).length; break;
        case 6: {
          Message a = load().struct("R").decode(bytes);
          got = a.sameValue(a.copy()) ? 7 : 0;
          break;
        }
        case 7: got = load().sender(b -> { }, null, Model.STANDARD).send(load().struct("R").decode(bytes)) > 0 ? 7 : 0;
          break;
        default: {
          long[] seen = {0};
          load().receiver(msg -> seen[0] = msg.getInt("id")).feed(frames);
          got = seen[0];
          break;
        }
      }
      if (got <= 0) throw new AssertionError("a call gave " + got);
    });
  }

  /**
   * Two threads encode, decode, send and receive with a shared schema; a third closes the
   * schema, its sender and its receiver at random moments. A refused close must say "in
   * use"; a call on a closed object must say "closed"; after the users stop, every close
   * succeeds. Then a fresh schema, and again.
   */
  static long close(long seconds) throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    AtomicLong calls = new AtomicLong(), refused = new AtomicLong(), closedSeen = new AtomicLong();
    byte[] frames;
    try (Schema s = load()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (Sender snd = s.sender(out)) {
        snd.send(big(s, 500));
      }
      frames = out.toByteArray();
    }
    while (System.nanoTime() < deadline) {
      Schema s = load();
      Sender snd = s.sender(b -> { }, null, Model.STANDARD);
      Receiver rcv = s.receiver(m -> { });
      Message m = big(s, 500);
      byte[] bytes = m.encode();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> users = new ArrayList<>();
      for (int k = 0; k < 2; k++) {
        final int id = k;
        Thread t = new Thread(() -> {
          try {
            for (long i = 0; !stop.get(); i++) {
              try {
                switch ((int) ((i + id) % 5)) {
                  case 0: m.encode(); break;
                  case 1: s.struct("R").decode(bytes); break;
                  case 2: s.struct("R").verify(bytes); break;
                  case 3: snd.send(m); break;
                  default:
                    synchronized (rcv) { // one feeder at a time: a receiver is a stream
                      rcv.feed(frames);
                    }
                }
                calls.incrementAndGet();
              } catch (FbeException e) {
                if (!e.getMessage().contains("closed")) throw e;
                closedSeen.incrementAndGet();
              }
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        });
        users.add(t);
        t.start();
      }
      // Close while they run: refused ("in use by N calls") or done; then they see "closed".
      try {
        for (AutoCloseable c : List.<AutoCloseable>of(s, snd, rcv)) {
          Thread.sleep(2);
          try {
            c.close();
          } catch (FbeException e) {
            if (e.status() != Status.ARGUMENT || !e.getMessage().contains("in use"))
              throw new AssertionError("close refused with " + e, e);
            refused.incrementAndGet();
          }
        }
        Thread.sleep(2);
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      } finally {
        stop.set(true);
      }
      for (Thread t : users) t.join();
      if (failure.get() != null) {
        failure.get().printStackTrace();
        System.exit(1);
      }
      rcv.close(); // no call in flight any more: each close succeeds
      snd.close();
      s.close();
      if (!s.isClosed()) throw new AssertionError("the schema is still open after close()");
    }
    System.out.println("races: close refused " + refused.get() + " times, calls on closed objects refused "
        + closedSeen.get() + " times");
    return calls.get();
  }
}

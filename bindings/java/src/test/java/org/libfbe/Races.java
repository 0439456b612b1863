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
 *   java -cp ... org.libfbe.Races client SECONDS    clients (issue 22) closed while threads
 *       make requests and a feeder carries them through a server and back, and clients
 *       dropped unclosed with requests pending (some on their watchdog's timer), under GC
 *       pressure: no crash, and every request ends (answered, or RESET by close or the
 *       Cleaner)
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
    long counts = what.equals("cleaner") ? cleaner(seconds) : what.equals("client") ? client(seconds) : close(seconds);
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

  static final String RPC = "package rpcrace\n"
      + "[request]\n[response(Answer)]\n[reject(No)]\nmessage Ask { int64 id; string text; }\n"
      + "message Answer { int64 id; string text; }\n"
      + "message No { int64 id; string why; }\n";

  /**
   * Rounds of: two threads make requests on one client while a feeder carries its frames
   * through a server (which answers or rejects) and back, and a third thread closes the
   * client at a random moment; meanwhile clients are dropped unclosed with requests
   * pending. Every request made must end.
   */
  static long client(long seconds) throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    AtomicLong calls = new AtomicLong(), closedSeen = new AtomicLong(), cleaned = new AtomicLong();
    Schema s = Fbe.loadString(RPC, "rpcrace.fbe", List.of());
    StructType ask = s.struct("Ask"), answer = s.struct("Answer"), no = s.struct("No");
    List<java.util.concurrent.CompletableFuture<Message>> dropped = new ArrayList<>();
    AtomicLong ids = new AtomicLong();
    while (System.nanoTime() < deadline) {
      java.util.concurrent.ConcurrentLinkedQueue<byte[]> toServer = new java.util.concurrent.ConcurrentLinkedQueue<>(),
          toClient = new java.util.concurrent.ConcurrentLinkedQueue<>();
      Client client = s.client().build(toServer::add);
      Server server = s.server().handle(ask, a -> a.getLong("id") % 3 == 0
          ? no.newMessage().set("why", "third") : answer.newMessage().set("text", a.getString("text"))).build(toClient::add);
      List<java.util.concurrent.CompletableFuture<Message>> made = java.util.Collections.synchronizedList(new ArrayList<>());
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> users = new ArrayList<>();
      for (int k = 0; k < 3; k++) {
        final int id = k;
        Thread t = new Thread(() -> {
          try {
            while (!stop.get()) {
              try {
                if (id < 2) {
                  made.add(client.request(ask.newMessage().set("id", ids.incrementAndGet()).set("text", "q"),
                      java.time.Duration.ofMillis(id == 0 ? 0 : 5)));
                } else { // the feeder: the client's frames to the server, its answers back
                  for (byte[] b; (b = toServer.poll()) != null; ) server.feed(b);
                  for (byte[] b; (b = toClient.poll()) != null; ) client.feed(b);
                }
                calls.incrementAndGet();
              } catch (FbeException e) {
                if (!e.getMessage().contains("closed")) throw e;
                closedSeen.incrementAndGet();
                if (id < 2) Thread.yield();
              }
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }, "race-client-" + k);
        users.add(t);
        t.start();
      }
      // a client dropped with requests pending, one on its own watchdog's timer
      Client drop = s.client().build(b -> { });
      dropped.add(drop.request(ask.newMessage().set("id", 1L)));
      dropped.add(drop.request(ask.newMessage().set("id", 2L), java.time.Duration.ofMillis(1)));
      drop = null;
      byte[] garbage = new byte[1 << 20]; // (GC pressure)
      garbage[0] = 1;
      System.gc();
      try {
        Thread.sleep(3);
        client.close(); // while they run: waits for the running call, ends what is pending
        Thread.sleep(1);
      } finally {
        stop.set(true);
      }
      for (Thread t : users) t.join();
      if (failure.get() != null) {
        failure.get().printStackTrace();
        System.exit(1);
      }
      server.close();
      synchronized (made) {
        for (java.util.concurrent.CompletableFuture<Message> f : made)
          if (!f.isDone()) throw new AssertionError("a request of a closed client has not ended");
      }
    }
    // the dropped clients' requests end too, once the Cleaner has had them
    for (int round = 0; round < 1000 && !dropped.stream().allMatch(java.util.concurrent.CompletableFuture::isDone); round++) {
      java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
      Schema.CLEANER.register(new Object(), ran::countDown);
      System.gc();
      ran.await();
    }
    for (java.util.concurrent.CompletableFuture<Message> f : dropped) {
      if (!f.isDone()) throw new AssertionError("a request of a dropped client has not ended");
      cleaned.incrementAndGet();
    }
    s.close();
    System.out.println("races: client calls on closed clients refused " + closedSeen.get() + " times, "
        + cleaned.get() + " requests of dropped clients ended");
    return calls.get();
  }
}

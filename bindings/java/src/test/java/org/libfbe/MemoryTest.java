package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.libfbe.internal.FbeCore;

/**
 * Memory, counted exactly (no resident-size guesses, which move with the allocator, the
 * kernel, the JVM and the machine's load):
 * <ul>
 *   <li>the bytes the C core and the JNI walk hold ({@code FbeCore.memory_in_use()}, an
 *       exact count kept by the core) come back to exactly where they were after a
 *       million encode/decode cycles (plus JSON, verify, errors and schema loads), and
 *       after thousands of schemas dropped unclosed, once the Cleaner has run;
 *   <li>the Java heap after full GCs does not grow with the number of cycles: a leaked
 *       object (a JNI global reference, say) per cycle would keep at least 16 MB over a
 *       million; the bound is 4 MiB, a margin of four to one on the smallest leak, while
 *       what the JVM keeps between full GCs varies by well under 1 MiB.
 * </ul>
 * Surefire runs each test class in a JVM of its own (pom.xml: reuseForks=false), so no
 * other class's unclosed schemas are released by the Cleaner in the middle of a count.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
class MemoryTest {
  static final long HEAP_SLACK = 4L << 20;

  static long cycles(Schema s, int n) {
    StructType t = s.struct("Account");
    Message acc = Fixtures.account(s);
    long sum = 0;
    for (int i = 0; i < n; i++) {
      byte[] b = acc.encode(i % 2 == 0 ? Model.STANDARD : Model.FINAL);
      Message back = t.decode(b, i % 2 == 0 ? Model.STANDARD : Model.FINAL);
      sum += back.getInt("id") + b.length;
      if (i % 100 == 0) {
        sum += t.verify(acc.encode()) + back.toJson().length() + t.fromJson(back.toJson()).getInt("id");
        try {
          t.decode(b, 0, 9, Model.STANDARD);
        } catch (FbeException expected) {
          sum++;
        }
      }
    }
    return sum;
  }

  /**
   * Full GCs until the Cleaner has released every unreachable schema (Schema.LIVE down to
   * {@code live}). Each round is System.gc() and then a wait for the Cleaner to run a
   * sentinel action registered before that GC, so the Cleaner has been at work after it;
   * the loop ends when LIVE reaches {@code live}, or after 100 rounds in a row in which
   * it did not move (a number of GCs, never a time).
   */
  static void drainCleaner(long live) throws InterruptedException {
    long last = Schema.LIVE.get();
    for (int idle = 0; Schema.LIVE.get() > live && idle < 100; ) {
      CountDownLatch ran = new CountDownLatch(1);
      Schema.CLEANER.register(new Object(), ran::countDown); // unreachable at once
      System.gc();
      ran.await();
      long now = Schema.LIVE.get();
      idle = now < last ? 0 : idle + 1;
      last = now;
    }
  }

  /** [bytes the core holds, Java heap in use] after the Cleaner is done and a full GC. */
  static long[] settled(long live) throws InterruptedException {
    drainCleaner(live);
    System.gc();
    return new long[] {FbeCore.memory_in_use(), ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()};
  }

  static void assertNoGrowth(long[] before, long[] after, String what) {
    System.out.println("memory: " + what + ": core " + before[0] + " -> " + after[0] + " bytes, Java heap "
        + before[1] / 1024 + " -> " + after[1] / 1024 + " KiB");
    assertEquals(before[0], after[0], what + ": the core holds " + (after[0] - before[0]) + " more bytes");
    assertTrue(after[1] - before[1] < HEAP_SLACK, what + ": the Java heap grew by " + (after[1] - before[1]) + " bytes");
  }

  /** Makes the scratch pool's scratch (an arena block and a buffer the JNI skin keeps for
   * the next calls) exist before a count starts. */
  static void warmUp() {
    try (Schema s = Fixtures.proto()) {
      s.struct("Account").decode(Fixtures.account(s).encode());
    }
  }

  @Test
  void a_memoryInUseCountsTheCore() throws Exception {
    warmUp();
    long live = Schema.LIVE.get();
    long base = settled(live)[0];
    try (Schema s = Fixtures.proto()) {
      assertTrue(FbeCore.memory_in_use() > base, "a loaded schema is counted");
      s.struct("Account").newMessage().encode();
    }
    assertEquals(base, settled(live)[0], "a closed schema is uncounted");
  }

  @Test
  void b_millionCyclesDoNotLeak() throws Exception {
    long live = Schema.LIVE.get();
    try (Schema s = Fixtures.proto()) {
      cycles(s, 200_000); // warm up: JIT, the pool's scratch arena and buffer
      for (int i = 0; i < 200; i++) Fixtures.proto().close();
      long[] before = settled(live + 1);
      assertTrue(cycles(s, 1_000_000) > 0);
      for (int i = 0; i < 500; i++) Fixtures.proto().close();
      assertNoGrowth(before, settled(live + 1), "1,000,000 cycles and 500 schemas closed");
    }
  }

  @Test
  void c_unclosedSchemasAreCleaned() throws Exception {
    // Schemas dropped without close(): the Cleaner must release every native schema
    // once the garbage collector finds them unreachable.
    warmUp();
    long live = Schema.LIVE.get();
    long[] before = settled(live);
    Schema last = null;
    for (int i = 0; i < 3000; i++) {
      last = Fixtures.proto();
      last.struct("Account").newMessage().encode();
    }
    assertTrue(Schema.LIVE.get() > live, "loading did not count the native schemas"); // `last` is live
    last = null; // now every one of them is unreachable
    long[] after = settled(live);
    assertEquals(live, Schema.LIVE.get(), (Schema.LIVE.get() - live) + " native schemas the Cleaner did not release");
    assertNoGrowth(before, after, "3000 schemas dropped unclosed");
  }

  /**
   * One thread after another, each calling in once: each takes the pool's idle scratch
   * and gives it back, so a thread that ends leaves nothing behind (a scratch kept per
   * thread would leave a block for every thread that ever called in).
   */
  @Test
  void d_threadsThatEndLeaveNothing() throws Exception {
    long live = Schema.LIVE.get();
    try (Schema s = Fixtures.proto()) {
      StructType t = s.struct("Account");
      byte[] b = Fixtures.account(s).encode();
      java.util.concurrent.atomic.AtomicInteger ok = new java.util.concurrent.atomic.AtomicInteger();
      Runnable call = () -> {
        if (t.decode(b).getInt("id") == Fixtures.account(s).getInt("id")) ok.incrementAndGet();
      };
      call.run();
      long before = settled(live + 1)[0];
      for (int i = 0; i < 300; i++) {
        Thread th = new Thread(call);
        th.start();
        th.join();
      }
      assertEquals(301, ok.get());
      long after = settled(live + 1)[0];
      System.out.println("memory: 300 threads, one call each: core " + before + " -> " + after + " bytes");
      assertEquals(before, after, "300 ended threads left " + (after - before) + " bytes behind");
    }
  }

  /**
   * Request/response (issue 22): request cycles through a client and a server (answered,
   * rejected, timed out, reset; the log hooks on), a proxy's frames, and clients, servers
   * and proxies closed or dropped unclosed (the Cleaner frees those, ending their pending
   * requests) leave the core's memory exactly where it was.
   */
  @Test
  void e_requestCyclesDoNotLeak() throws Exception {
    warmUp();
    long live = Schema.LIVE.get();
    try (Schema s = Fbe.load(Fixtures.schemas().resolve("exchange.fbe"), List.of(Fixtures.schemas()))) {
      requestCycles(s, 20_000); // warm up
      long peers = Peer.LIVE.get();
      long[] before = settled(live + 1);
      long ended = requestCycles(s, 100_000);
      for (int i = 0; i < 500; i++) { // dropped unclosed, requests pending
        Client c = s.client().build(b -> { });
        c.request(s.struct("NewOrder").newMessage());
      }
      drainPeers(peers);
      assertEquals(peers, Peer.LIVE.get(), (Peer.LIVE.get() - peers) + " native peers the Cleaner did not free");
      assertTrue(ended > 0);
      assertNoGrowth(before, settled(live + 1), "100,000 request cycles and 500 clients dropped");
    }
  }

  /** n requests through a client and a server in memory; how many ended. */
  static long requestCycles(Schema s, int n) {
    java.io.ByteArrayOutputStream toServer = new java.io.ByteArrayOutputStream(), toClient = new java.io.ByteArrayOutputStream();
    long[] now = {0}, lines = {0}, frames = {0};
    StructType order = s.struct("NewOrder"), accepted = s.struct("OrderAccepted"), reject = s.struct("Reject");
    long ended = 0;
    try (Client client = s.client().clock(() -> now[0]).manualWatchdog().log((w, t) -> lines[0]++)
             .build(toServer::writeBytes);
         Server server = s.server().log((w, t) -> lines[0]++)
             .handle(order, o -> {
               double q = o.getDouble("quantity");
               if (q % 3 == 1) throw new RejectedException(reject.newMessage().set("reason", "no"));
               return q % 3 == 0 ? accepted.newMessage().set("order", 1) : null; // q % 3 == 2: no answer (times out)
             }).build(toClient::writeBytes);
         Proxy proxy = s.proxy().verify(true).build(f -> frames[0]++)) {
      java.util.List<java.util.concurrent.CompletableFuture<Message>> fs = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        now[0] += 10;
        fs.add(client.request(order.newMessage().set("quantity", (double) i), java.time.Duration.ofNanos(5)));
        if (i % 100 == 99) {
          byte[] b = toServer.toByteArray();
          toServer.reset();
          proxy.feed(b);
          server.feed(b);
          b = toClient.toByteArray();
          toClient.reset();
          client.feed(b);
          client.watchdog(now[0] + 100);
        }
      }
      client.reset();
      for (java.util.concurrent.CompletableFuture<Message> f : fs) if (f.isDone()) ended++;
    }
    if (frames[0] == 0 || lines[0] == 0) throw new AssertionError("no frames or log lines");
    return ended;
  }

  /** Full GCs until the Cleaner has freed every unreachable peer (as drainCleaner does for schemas). */
  static void drainPeers(long live) throws InterruptedException {
    long last = Peer.LIVE.get();
    for (int idle = 0; Peer.LIVE.get() > live && idle < 100; ) {
      CountDownLatch ran = new CountDownLatch(1);
      Schema.CLEANER.register(new Object(), ran::countDown);
      System.gc();
      ran.await();
      long now = Peer.LIVE.get();
      idle = now < last ? 0 : idle + 1;
      last = now;
    }
  }
}

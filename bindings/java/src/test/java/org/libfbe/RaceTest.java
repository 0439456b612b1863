package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifetime races of issue 17 (the Cleaner freeing a schema under its own call; close()
 * while other threads encode, decode, send and receive) and of issue 22's clients (closed
 * while other threads request and feed, dropped with requests pending), each run by {@link Races} in a
 * JVM of its own: a SIGSEGV there fails this test with the JVM's crash report instead of
 * killing the build. Before the fix each crashed within two seconds. Each runs
 * {@code fbe.race.seconds} (default 8; {@code mvn -f bindings/java test -Dtest=RaceTest
 * -Dfbe.race.seconds=300} for a long run).
 */
class RaceTest {
  static final long SECONDS = Long.getLong("fbe.race.seconds", 8);

  @TempDir Path tmp;

  @Test
  void cleanerNeverFreesUnderACall() throws Exception {
    race("cleaner");
  }

  @Test
  void closeIsRefusedWhileCallsAreInFlight() throws Exception {
    race("close");
  }

  /** Clients closed while threads request and feed, and dropped with requests pending (issue 22). */
  @Test
  void clientsClosedAndDroppedUnderLoad() throws Exception {
    race("client");
  }

  /**
   * The same rules without a race: while a receiver's handler runs (blocked on a latch),
   * another thread's schema.close(), receiver.close(), receiver.feed() and reset() are
   * refused, and the schema's other calls go on; once the feed has returned, both close.
   */
  @Test
  void closeFromAnotherThreadDuringAHandler() throws Exception {
    Schema s = Races.load();
    java.io.ByteArrayOutputStream frames = new java.io.ByteArrayOutputStream();
    try (Sender snd = s.sender(frames)) {
      snd.send(Races.big(s, 3));
    }
    CountDownLatch inside = new CountDownLatch(1), release = new CountDownLatch(1);
    Receiver r = s.receiver(m -> {
      inside.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread feeder = new Thread(() -> r.feed(frames.toByteArray()));
    feeder.start();
    inside.await();
    List<String> refused = new ArrayList<>();
    for (Runnable call : List.<Runnable>of(s::close, r::close, () -> r.feed(new byte[1]), r::reset)) {
      FbeException e = assertThrows(FbeException.class, call::run);
      assertEquals(Status.ARGUMENT, e.status());
      refused.add(e.getMessage());
    }
    assertEquals(List.of("the schema is in use by 1 call (close it once they have returned)",
        "the receiver is in use by 1 call (close it once they have returned)",
        "the receiver is being fed by another thread (feed one receiver from one thread at a time)",
        "the receiver is being fed by another thread (feed one receiver from one thread at a time)"), refused);
    assertEquals(3, s.struct("R").decode(Races.big(s, 3).encode()).getList("items").size());
    release.countDown();
    feeder.join();
    assertEquals(1, r.received());
    r.close();
    s.close();
    assertTrue(s.isClosed());
    assertEquals("the receiver is closed", assertThrows(FbeException.class, r::pending).getMessage());
    assertEquals("the schema is closed", assertThrows(FbeException.class, () -> s.struct("R").newMessage()).getMessage());
  }

  private void race(String what) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path log = tmp.resolve("out.txt");
    Process p = new ProcessBuilder(List.of(java.toString(), "-Xmx64m",
        "-XX:ErrorFile=" + tmp.resolve("hs_err_%p.log"), "-cp", System.getProperty("java.class.path"),
        Races.class.getName(), what, Long.toString(SECONDS)))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    // A generous guard against a hang (a deadlock is a failure too), not a timing assert.
    boolean ended = p.waitFor(SECONDS * 10 + 300, TimeUnit.SECONDS);
    if (!ended) p.destroyForcibly().waitFor();
    String out = Files.readString(log, StandardCharsets.UTF_8);
    StringBuilder crash = new StringBuilder();
    try (var files = Files.list(tmp)) {
      for (Path f : (Iterable<Path>) files::iterator)
        if (f.getFileName().toString().startsWith("hs_err"))
          Files.readAllLines(f).stream().limit(40).forEach(l -> crash.append(l).append('\n'));
    }
    assertTrue(ended, "the " + what + " race did not end:\n" + out);
    assertEquals(0, p.exitValue(), "the " + what + " race failed (exit " + p.exitValue() + "):\n" + out + crash);
    assertTrue(out.contains("races: " + what + " ") && out.contains("no crash"), out);
    System.out.print(out);
  }
}

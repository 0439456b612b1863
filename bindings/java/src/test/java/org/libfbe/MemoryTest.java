package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A million encode/decode cycles (plus JSON, verify, errors and schema loads) with
 * stable native memory: the process's resident size (VmRSS) after the run is within a
 * few MiB of what it was after a warm-up (the JVM heap is capped by surefire's -Xmx,
 * so what could grow is native memory).
 */
class MemoryTest {
  static long rssKiB() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status")))
      if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
    throw new IllegalStateException("no VmRSS");
  }

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

  @Test
  void millionCyclesKeepNativeMemoryStable() throws IOException {
    if (!Files.exists(Path.of("/proc/self/status"))) throw new IllegalStateException("needs /proc (Linux)");
    try (Schema s = Fixtures.proto()) {
      cycles(s, 200_000);
      for (int i = 0; i < 200; i++) Fixtures.proto().close();
      System.gc();
      long before = rssKiB();
      assertTrue(cycles(s, 1_000_000) > 0);
      for (int i = 0; i < 500; i++) Fixtures.proto().close();
      System.gc();
      long after = rssKiB();
      System.out.println("memory: VmRSS " + before + " KiB -> " + after + " KiB after 1,000,000 cycles");
      // A leak of one arena block, buffer or reference per cycle would be gigabytes (or
      // 16 MiB for a JNI global reference); the JVM's own noise stays within ~10 MiB.
      assertTrue(after - before < 24 * 1024, "VmRSS grew by " + (after - before) + " KiB");
    }
  }

  @Test
  void unclosedSchemasAreCleaned() throws Exception {
    // Schemas dropped without close(): the Cleaner must release every native schema
    // once the garbage collector finds them unreachable.
    long live = Schema.LIVE.get();
    Schema last = null;
    for (int i = 0; i < 3000; i++) {
      last = Fixtures.proto();
      last.struct("Account").newMessage().encode();
    }
    assertTrue(Schema.LIVE.get() > live, "loading did not count the native schemas");
    last = null; // now every one of them is unreachable
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (Schema.LIVE.get() > live && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    // (<=: schemas other tests dropped may be released meanwhile too)
    assertTrue(Schema.LIVE.get() <= live, (Schema.LIVE.get() - live) + " native schemas the Cleaner did not release");
  }
}

package org.libfbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * This binding's testee ({@code org.libfbe.Main testee}, as {@code java -jar fbe.jar
 * testee} runs it) through the shared conformance runner (tests/conformance/runner), as
 * ci/conformance.sh runs it: the public vectors, the malformed records, the versioning
 * records and the regression directories, each decoded record also printed (the text
 * op: toString(); alone, the runner holds it to nothing but an answer), every decode and
 * text request again with "view": true (answered from a View: the same answer), and the bad
 * inputs of behaviour.jsonl through both paths, JSON and native, each refused with its
 * status. Alone, so the comparison is untyped (no C testee to describe the types; the
 * matrix stage of ci/test.sh compares typed): every record runs, nothing fails, only
 * the _meta lines are skipped. And the conversations (docs/TESTEE.md: clients, servers
 * and proxies through Client, Server and Proxy), with the C testee as the reference pair
 * when build/release has it, else alone (each answer still held to the scripts'
 * expectations).
 */
class ConformanceTest {
  private static List<Path> files() throws IOException {
    List<Path> files = new ArrayList<>();
    for (String f : List.of("vectors.jsonl", "malformed.jsonl", "malformed-extra.jsonl", "versioning.jsonl"))
      files.add(Fixtures.conformance(f));
    try (Stream<Path> dirs = Files.list(Fixtures.root().resolve("tests/regressions/differential"))) {
      dirs.filter(d -> Files.isRegularFile(d.resolve("record.jsonl"))).sorted().forEach(files::add);
    }
    return files;
  }

  /** The non-blank lines of every file the runner is given (a directory: its *.jsonl). */
  private static List<String> recordLines(List<Path> files) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path p : files) {
      List<Path> jsonl = new ArrayList<>();
      if (Files.isDirectory(p)) {
        try (Stream<Path> s = Files.list(p)) {
          s.filter(f -> f.toString().endsWith(".jsonl")).sorted().forEach(jsonl::add);
        }
      } else {
        jsonl.add(p);
      }
      for (Path f : jsonl)
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8))
          if (!line.isBlank()) lines.add(line);
    }
    return lines;
  }

  /** A word for the shell, which the runner runs a testee's command with. */
  private static String quoted(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  @Test
  void testeeThroughTheRunner() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    String testee = String.join(" ", quoted(java), "-cp", quoted(classes), "org.libfbe.Main", "testee");
    List<Path> files = files();
    List<String> command = new ArrayList<>(List.of("python3",
        Fixtures.conformance("runner").toString(), "--describe-testee", "none", "--text", "--view",
        "--known-failures", Fixtures.conformance("known-failures/differential.txt").toString(),
        "--behaviour", Fixtures.conformance("behaviour.jsonl").toString(),
        "--testee", "java=" + testee));
    for (Path f : files) command.add(f.toString());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the runner did not end\n" + out);
    assertEquals(0, p.exitValue(), out);
    List<Path> all = new ArrayList<>(files);
    all.add(Fixtures.conformance("behaviour.jsonl")); // counted with the others, its _meta line too
    List<String> lines = recordLines(all);
    long meta = lines.stream().filter(l -> ((Map<?, ?>) Json.parse(l)).containsKey("_meta")).count();
    assertTrue(("\n" + out).contains("\n" + (lines.size() - meta) + " records, 1 testees: java\n"), out);
    assertTrue(out.contains("\nskipped: " + meta + (meta > 0 ? " (_meta " + meta + ")" : "") + "\n"), out);
    Matcher closing = Pattern.compile("^(\\d+) passed, 0 failed$", Pattern.MULTILINE).matcher(out);
    assertTrue(closing.find() && Long.parseLong(closing.group(1)) > lines.size(), out);
  }

  @Test
  void conversationsThroughTheRunner() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    String testee = String.join(" ", quoted(java), "-cp", quoted(classes), "org.libfbe.Main", "testee");
    Path scripts = Fixtures.conformance("conversations.jsonl");
    List<String> command = new ArrayList<>(List.of("python3", Fixtures.conformance("runner").toString(),
        "--describe-testee", "none"));
    Path c = Fixtures.root().resolve("build/release/bin/fbe");
    int testees = 1;
    if (Files.isExecutable(c)) {
      command.addAll(List.of("--testee", "c=" + quoted(c.toString()) + " testee"));
      testees = 2;
    }
    command.addAll(List.of("--testee", "java=" + testee, "--conversations", scripts.toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the runner did not end\n" + out);
    assertEquals(0, p.exitValue(), out);
    long n = Files.readAllLines(scripts, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).count();
    assertTrue(n > 0);
    // every script for every (client, server) pair of testees
    assertTrue(out.contains("\n" + n * testees * testees + " passed, 0 failed"), out);
  }
}

package org.libfbe.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/** The runner: checks every round trip, runs {@link Benchmarks} with JMH, prints JSON lines. */
public final class Main {
  private Main() {}

  static final String USAGE = """
      usage: java -jar benchmarks.jar [--quick|--smoke] [-I SCHEMAS_DIR] [--data DATA_DIR]

      JMH over the workloads account, small and large (DATA_DIR/NAME.json; default: the
      benchmarks/data beside this jar) for libfbe (standard and final models: encode,
      decode (verified, the default), decode_trusted (without the verify), verify),
      protobuf-java and Jackson (encode, decode). Every implementation
      round-trips the data first; a failure exits with status 1. Prints one JSON object
      per figure:
        {"lang":"java","impl":"libfbe|protobuf|jackson","workload":"account|small|large",
         "model":"standard|final|message|pojo","op":"encode|decode|decode_trusted|verify",
         "ns":<median over the measured iterations>,"spread_pct":<(max-min)/median>,"size":<bytes>}

        (default)  1 fork per figure, 3 warm-up and 7 measured iterations of 1 s
        --quick    1 fork, 2 warm-up and 3 measured iterations of 0.2 s (about 1.5 min)
        --smoke    in process, no warm-up, 1 iteration of 10 ms: proves that every
                   benchmark runs and round-trips its data (a few seconds)
      """;

  public static void main(String[] args) throws Exception {
    String mode = "full";
    String schemas = "schemas";
    String data = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> mode = "quick";
        case "--smoke" -> mode = "smoke";
        case "-I" -> schemas = i + 1 < args.length ? args[++i] : usage(2);
        case "--data" -> data = i + 1 < args.length ? args[++i] : usage(2);
        case "-h", "--help" -> usage(0);
        default -> usage(2);
      }
    }
    String schemasDir = Path.of(schemas).toAbsolutePath().toString();
    String dataDir = (data != null ? Path.of(data) : besideJar()).toAbsolutePath().normalize().toString();
    System.setProperty("fbe.schemas", schemasDir);
    System.setProperty("fbe.data", dataDir);

    // Every round trip checked before anything is timed; the sizes for the JSON lines.
    Map<String, Map<String, Integer>> sizes = new HashMap<>();
    try {
      for (Workload w : Workload.all()) {
        sizes.put(w.name, w.sizes());
        w.schema.close();
      }
    } catch (RuntimeException e) {
      System.err.println(e.getMessage() != null && e.getMessage().startsWith("bench:") ? e.getMessage() : "bench: " + e);
      System.exit(1);
    }

    ChainedOptionsBuilder o = new OptionsBuilder().include(Benchmarks.class.getName() + ".")
        .verbosity(VerboseMode.SILENT).shouldFailOnError(true);
    switch (mode) {
      case "smoke" -> {
        System.setProperty("jmh.ignoreLock", "true"); // a smoke run measures nothing, others may run beside it
        o.forks(0).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(10));
      }
      case "quick" -> o.forks(1).warmupIterations(2).warmupTime(TimeValue.milliseconds(200))
          .measurementIterations(3).measurementTime(TimeValue.milliseconds(200));
      default -> o.forks(1).warmupIterations(3).warmupTime(TimeValue.seconds(1))
          .measurementIterations(7).measurementTime(TimeValue.seconds(1));
    }
    o.jvmArgsAppend("-Dfbe.schemas=" + schemasDir, "-Dfbe.data=" + dataDir);

    List<RunResult> results = new ArrayList<>(new Runner(o.build()).run());
    results.sort((a, b) -> key(a).compareTo(key(b)));
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      String workload = r.getParams().getParam("workload");
      String[] parts = name.substring(name.lastIndexOf('.') + 1).split("_", 3); // impl_model_op
      List<Double> xs = new ArrayList<>();
      for (BenchmarkResult br : r.getBenchmarkResults())
        for (IterationResult ir : br.getIterationResults()) xs.add(ir.getPrimaryResult().getScore());
      Collections.sort(xs);
      int n = xs.size();
      double median = n % 2 == 1 ? xs.get(n / 2) : (xs.get(n / 2 - 1) + xs.get(n / 2)) / 2;
      double spread = (xs.get(n - 1) - xs.get(0)) / median * 100.0;
      System.out.printf(Locale.ROOT,
          "{\"lang\":\"java\",\"impl\":\"%s\",\"workload\":\"%s\",\"model\":\"%s\",\"op\":\"%s\","
              + "\"ns\":%.1f,\"spread_pct\":%.1f,\"size\":%d}%n",
          parts[0], workload, parts[1], parts[2], median, spread, sizes.get(workload).get(parts[0] + "_" + parts[1]));
    }
  }

  /** Sorts by workload (in Workload.NAMES' order), libfbe first (as the other harnesses), then by name. */
  private static String key(RunResult r) {
    String name = r.getParams().getBenchmark();
    String impl = name.substring(name.lastIndexOf('.') + 1).split("_")[0];
    return Workload.NAMES.indexOf(r.getParams().getParam("workload")) + "" + List.of("libfbe", "protobuf", "jackson").indexOf(impl) + name;
  }

  /** benchmarks/data, from the jar at benchmarks/java/target/benchmarks.jar (or the classes folder). */
  private static Path besideJar() throws Exception {
    Path self = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return self.getParent().getParent().getParent().resolve("data");
  }

  private static String usage(int status) {
    (status == 0 ? System.out : System.err).print(USAGE);
    System.exit(status);
    return null;
  }
}

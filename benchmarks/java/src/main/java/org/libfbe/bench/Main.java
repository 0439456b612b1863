package org.libfbe.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * java -jar benchmarks.jar [--quick] [-I SCHEMAS_DIR]: runs AccountBench with JMH and
 * prints one JSON object per figure, as the Python and Node benchmarks do:
 * {"lang":"java","impl":"libfbe|protobuf|jackson","workload":"account","model":...,
 *  "op":"encode|decode|verify","ns":<median over iterations>,"spread_pct":...,"size":...}
 * (model: "standard"/"final" for libfbe, "message" for protobuf, "pojo" for Jackson;
 * spread_pct = (max - min) / median of the measured iterations).
 * Default: 1 fork, 3 warm-up and 7 measured iterations of 1 s. --quick (CI): 1 fork,
 * 2 warm-up and 3 measured iterations of 0.2 s (about a minute in all).
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    boolean quick = false;
    String schemas = "schemas";
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--quick")) quick = true;
      else if (args[i].equals("-I") && i + 1 < args.length) schemas = args[++i];
      else {
        System.err.println("usage: java -jar benchmarks.jar [--quick] [-I SCHEMAS_DIR]");
        System.exit(2);
      }
    }
    String abs = java.nio.file.Path.of(schemas).toAbsolutePath().toString();
    System.setProperty("fbe.schemas", abs);
    Workload w = new Workload(); // fails early when a peer does not round trip
    Map<String, Integer> sizes = Map.of("libfbe_standard", w.standard.length, "libfbe_final", w.fin.length,
        "protobuf_message", w.protoBytes.length, "jackson_pojo", w.json.length);
    w.schema.close();

    ChainedOptionsBuilder o = new OptionsBuilder().include(AccountBench.class.getName() + ".")
        .forks(1).jvmArgsAppend("-Dfbe.schemas=" + abs).verbosity(VerboseMode.SILENT)
        .shouldFailOnError(true);
    if (quick)
      o.warmupIterations(2).warmupTime(TimeValue.milliseconds(200)).measurementIterations(3)
          .measurementTime(TimeValue.milliseconds(200));
    else
      o.warmupIterations(3).warmupTime(TimeValue.seconds(1)).measurementIterations(7)
          .measurementTime(TimeValue.seconds(1));
    List<RunResult> results = new ArrayList<>(new Runner(o.build()).run());
    results.sort((a, b) -> a.getParams().getBenchmark().compareTo(b.getParams().getBenchmark()));
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      String[] parts = name.substring(name.lastIndexOf('.') + 1).split("_");
      List<Double> xs = new ArrayList<>();
      for (BenchmarkResult br : r.getBenchmarkResults())
        for (IterationResult ir : br.getIterationResults()) xs.add(ir.getPrimaryResult().getScore());
      Collections.sort(xs);
      int n = xs.size();
      double median = n % 2 == 1 ? xs.get(n / 2) : (xs.get(n / 2 - 1) + xs.get(n / 2)) / 2;
      double spread = (xs.get(n - 1) - xs.get(0)) / median * 100.0;
      System.out.printf(java.util.Locale.ROOT,
          "{\"lang\":\"java\",\"impl\":\"%s\",\"workload\":\"account\",\"model\":\"%s\",\"op\":\"%s\","
              + "\"ns\":%.1f,\"spread_pct\":%.1f,\"size\":%d}%n",
          parts[0], parts[1], parts[2], median, spread, sizes.get(parts[0] + "_" + parts[1]));
    }
  }
}

package org.libfbe.bench;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
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

/**
 * The runner: checks every round trip, then runs every {@link Benchmarks} method in
 * interleaved rounds in this JVM (or under JMH, --jmh), and prints JSON lines.
 */
public final class Main {
  private Main() {}

  static final String USAGE = """
      usage: java -jar benchmarks.jar [--quick|--smoke] [--jmh] [-I SCHEMAS_DIR] [--data DATA_DIR]

      The workloads account, small and large (DATA_DIR/NAME.json; default: the
      benchmarks/data beside this jar) for libfbe (standard and final models: encode,
      decode (verified, the default), decode_trusted (without the verify), decode_all
      (decode, then read every field), verify), libfbe-view (decode: open a view of the
      bytes, verifying, and read one field; decode_all: open one and read every field),
      protobuf-java and Jackson (encode, decode, decode_all). Every implementation
      round-trips the data first; a failure exits with status 1. Prints one JSON object
      per figure:
        {"lang":"java","impl":"libfbe|libfbe-view|protobuf|jackson","workload":"account|small|large",
         "model":"standard|final|message|pojo","op":"encode|decode|decode_trusted|decode_all|verify",
         "ns":<median over the rounds>,"spread_pct":<(max-min)/median>,"size":<bytes>,
         "rounds":[<ns per operation in each round>]}

      Interleaved rounds (as the other languages' harnesses): every figure is warmed up,
      then each round runs every figure once for a fixed time, cell by cell (workload,
      then op), so the figures a ratio compares are measured moments apart; a figure is
      the median over the rounds. The loop calls each figure through one interface (a
      megamorphic call, the same few ns for every implementation).
        (default)  warm-up 0.5 s per figure, 7 rounds of 0.2 s
        --quick    warm-up 0.1 s, 3 rounds of 0.05 s
        --smoke    no warm-up, 1 round of a few operations: proves that every
                   benchmark runs and round-trips its data (a few seconds)
        --jmh      JMH instead, 1 fork per figure (not interleaved: "rounds" are its
                   measured iterations): 3 warm-up and 7 measured iterations of 1 s
                   (--quick: 2 and 3 of 0.2 s; --smoke: in process, 1 of 10 ms)
      """;

  /** One operation, as the rounds call it. */
  interface Op {
    Object run() throws Throwable;
  }

  /** What every operation's result goes to, so none can be dropped as unused. */
  static Object sink;

  static final List<String> OPS = List.of("encode", "decode", "decode_trusted", "decode_all", "verify");
  static final List<String> IMPLS = List.of("libfbe", "libfbe-view", "protobuf", "jackson");

  /** A benchmark method's impl_model_op; libfbeview is libfbe-view (no '-' in a Java name). */
  static String[] parts(String method) {
    String[] p = method.split("_", 3);
    if (p[0].equals("libfbeview")) p[0] = "libfbe-view";
    return p;
  }

  public static void main(String[] args) throws Throwable {
    String mode = "full";
    boolean jmh = false;
    String schemas = "schemas";
    String data = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> mode = "quick";
        case "--smoke" -> mode = "smoke";
        case "--jmh" -> jmh = true;
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
    if (jmh) runJmh(mode, schemasDir, dataDir, sizes);
    else runRounds(mode, sizes);
  }

  /** One figure: a benchmark method bound to one workload's state, and its rounds. */
  static final class Figure {
    final String impl, model, op, workload;
    final Op fn;
    long batch = 3;
    final List<Double> perOp = new ArrayList<>();

    Figure(String[] p, String workload, Op fn) {
      impl = p[0];
      model = p[1];
      op = p[2];
      this.workload = workload;
      this.fn = fn;
    }

    int order() {
      return (Workload.NAMES.indexOf(workload) * 10 + OPS.indexOf(op)) * 10 + IMPLS.indexOf(impl);
    }
  }

  static void repeat(Op fn, long n) throws Throwable {
    for (long i = 0; i < n; i++) sink = fn.run();
  }

  /** ns per operation of whole batches run for at least seconds. */
  static double runFor(Figure f, double seconds) throws Throwable {
    long iterations = 0;
    long t0 = System.nanoTime(), elapsed;
    do {
      repeat(f.fn, f.batch);
      iterations += f.batch;
      elapsed = System.nanoTime() - t0;
    } while (elapsed < seconds * 1e9);
    return (double) elapsed / iterations;
  }

  static void runRounds(String mode, Map<String, Map<String, Integer>> sizes) throws Throwable {
    int runs = mode.equals("full") ? 7 : mode.equals("quick") ? 3 : 1;
    double minTime = mode.equals("full") ? 0.2 : mode.equals("quick") ? 0.05 : 1e-9;
    double warmUp = mode.equals("full") ? 0.5 : mode.equals("quick") ? 0.1 : 0;

    List<Figure> figures = new ArrayList<>();
    List<Benchmarks> states = new ArrayList<>();
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    List<Method> methods = new ArrayList<>();
    for (Method m : Benchmarks.class.getMethods())
      if (m.isAnnotationPresent(org.openjdk.jmh.annotations.Benchmark.class)) methods.add(m);
    methods.sort((a, b) -> a.getName().compareTo(b.getName()));
    for (String name : Workload.NAMES) {
      Benchmarks b = new Benchmarks();
      b.workload = name;
      b.setup();
      states.add(b);
      for (Method m : methods) { // a lambda per method, as fast to call as a method reference
        CallSite site = LambdaMetafactory.metafactory(lookup, "run", MethodType.methodType(Op.class, Benchmarks.class),
            MethodType.methodType(Object.class), lookup.unreflect(m), MethodType.methodType(Object.class));
        figures.add(new Figure(parts(m.getName()), name, (Op) site.getTarget().invoke(b)));
      }
    }
    figures.sort((a, b) -> Integer.compare(a.order(), b.order()));

    for (Figure f : figures) {
      if (mode.equals("smoke")) continue;
      for (f.batch = 1; ; f.batch *= 2) { // batches of about 1 ms, so the clock is read rarely
        long t0 = System.nanoTime();
        repeat(f.fn, f.batch);
        if (System.nanoTime() - t0 >= 1_000_000 || f.batch >= 1L << 30) break;
      }
      runFor(f, warmUp);
    }
    for (int r = 0; r < runs; r++) // every other round backwards, so a drift within a cell cancels out
      for (int i = 0; i < figures.size(); i++) {
        Figure f = figures.get(r % 2 == 0 ? i : figures.size() - 1 - i);
        f.perOp.add(runFor(f, minTime));
      }
    for (Benchmarks b : states) b.close();

    figures.sort((a, b) -> key(a).compareTo(key(b)));
    for (Figure f : figures) {
      List<Double> xs = new ArrayList<>(f.perOp);
      Collections.sort(xs);
      int n = xs.size();
      double median = n % 2 == 1 ? xs.get(n / 2) : (xs.get(n / 2 - 1) + xs.get(n / 2)) / 2;
      double spread = (xs.get(n - 1) - xs.get(0)) / median * 100.0;
      StringBuilder rounds = new StringBuilder();
      for (double x : f.perOp)
        rounds.append(rounds.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.2f", x));
      print(f.impl, f.workload, f.model, f.op, median, spread, sizes, rounds.toString());
    }
  }

  static void print(String impl, String workload, String model, String op, double median, double spread,
      Map<String, Map<String, Integer>> sizes, String rounds) {
    String sizeKey = (impl.equals("libfbe-view") ? "libfbeview" : impl) + "_" + model;
    System.out.printf(Locale.ROOT,
        "{\"lang\":\"java\",\"impl\":\"%s\",\"workload\":\"%s\",\"model\":\"%s\",\"op\":\"%s\","
            + "\"ns\":%.1f,\"spread_pct\":%.1f,\"size\":%d%s}%n",
        impl, workload, model, op, median, spread, sizes.get(workload).get(sizeKey),
        rounds == null ? "" : ",\"rounds\":[" + rounds + "]");
  }

  /** Sorts by workload (in Workload.NAMES' order), libfbe first (as the other harnesses), then by name. */
  private static String key(Figure f) {
    return Workload.NAMES.indexOf(f.workload) + "" + IMPLS.indexOf(f.impl) + (f.model.equals("standard") ? "" : f.model)
        + OPS.indexOf(f.op);
  }

  static void runJmh(String mode, String schemasDir, String dataDir, Map<String, Map<String, Integer>> sizes)
      throws Exception {
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
    results.sort((a, b) -> jmhKey(a).compareTo(jmhKey(b)));
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      String workload = r.getParams().getParam("workload");
      String[] parts = parts(name.substring(name.lastIndexOf('.') + 1)); // impl_model_op
      List<Double> xs = new ArrayList<>();
      for (BenchmarkResult br : r.getBenchmarkResults())
        for (IterationResult ir : br.getIterationResults()) xs.add(ir.getPrimaryResult().getScore());
      Collections.sort(xs);
      int n = xs.size();
      double median = n % 2 == 1 ? xs.get(n / 2) : (xs.get(n / 2 - 1) + xs.get(n / 2)) / 2;
      double spread = (xs.get(n - 1) - xs.get(0)) / median * 100.0;
      print(parts[0], workload, parts[1], parts[2], median, spread, sizes, null); // not rounds: not interleaved
    }
  }

  private static String jmhKey(RunResult r) {
    String name = r.getParams().getBenchmark();
    String impl = parts(name.substring(name.lastIndexOf('.') + 1))[0];
    return Workload.NAMES.indexOf(r.getParams().getParam("workload")) + "" + IMPLS.indexOf(impl) + name;
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

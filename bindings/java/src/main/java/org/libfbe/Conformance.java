package org.libfbe;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar fbe.jar conformance [-I DIR]... FILE.jsonl...}: runs conformance
 * records (tests/conformance/, shared/conformance/README.md) through the Java binding,
 * as {@code fbe conformance} runs them through the C API: standard/final records are
 * verified (model size), decoded and compared with their JSON value (by the core's
 * equality), then encoded back to the exact bytes; malformed records must be rejected
 * by verify and their decode must end in a value or an FbeException; streams are sent,
 * then received whole, in chunks of every size from 1 to 64 and in random chunks;
 * standard-versioning records are read with the other schema version. Prints a FAIL
 * line per failure and ends with "N passed, N failed, N skipped".
 */
public final class Conformance {
  /** A failed record, with the reason. */
  static final class Fail extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Fail(String why) {
      super(why, null, false, false);
    }
  }

  enum Result { PASS, SKIP }

  private final List<Path> includes;
  private final Map<String, Schema> cache = new HashMap<>();
  int passed, failed, skipped;

  public Conformance(List<Path> includes) {
    this.includes = includes;
  }

  Schema schema(String pkg) {
    if (!cache.containsKey(pkg)) {
      Schema s = null;
      try {
        s = Fbe.loadPackage(pkg, includes);
      } catch (FbeException e) {
        for (String d : e.diagnostics()) System.err.println(d);
      }
      cache.put(pkg, s);
    }
    Schema s = cache.get(pkg);
    if (s == null) throw new Fail("cannot load schema of package '" + pkg + "'");
    return s;
  }

  private static String str(Map<String, Object> rec, String key) {
    Object v = rec.get(key);
    return v instanceof String ? (String) v : "";
  }

  private static byte[] hex(Map<String, Object> rec) {
    try {
      return HexFormat.of().parseHex(str(rec, "hex"));
    } catch (IllegalArgumentException e) {
      throw new Fail("bad hex");
    }
  }

  private static StructType type(Schema schema, String name, String pkg) {
    try {
      return schema.struct(name);
    } catch (FbeException e) {
      throw new Fail("no type '" + name + "' in package '" + pkg + "'");
    }
  }

  private static Message fromJson(StructType t, Object json) {
    try {
      return t.fromJson(Json.write(json));
    } catch (FbeException e) {
      throw new Fail("cannot read the record's JSON: " + e.getMessage());
    }
  }

  static void compareBytes(byte[] got, byte[] want, String what) {
    int n = Math.min(got.length, want.length), i = 0;
    while (i < n && got[i] == want[i]) i++;
    if (i < n)
      throw new Fail(String.format("%s bytes differ at offset %d: got %02x, want %02x", what, i, got[i] & 0xff, want[i] & 0xff));
    if (got.length != want.length)
      throw new Fail(what + " " + got.length + " bytes, want " + want.length + " (first " + n + " equal)");
  }

  private static void compareValues(Message got, Message want) {
    if (got.sameValue(want)) return;
    String a = got.toJson(), b = want.toJson();
    int i = 0, n = Math.min(a.length(), b.length());
    while (i < n && a.charAt(i) == b.charAt(i)) i++;
    int start = Math.max(i - 30, 0);
    throw new Fail("decoded value differs at JSON offset " + i + ": got ..." + a.substring(start, Math.min(a.length(), start + 60))
        + "... want ..." + b.substring(start, Math.min(b.length(), start + 60)) + "...");
  }

  Result runModel(Map<String, Object> rec) {
    Model model = "final".equals(rec.get("format")) ? Model.FINAL : Model.STANDARD;
    if (Boolean.TRUE.equals(rec.get("verify")) && !rec.containsKey("json")) return Result.SKIP;
    String pkg = str(rec, "schema");
    StructType t = type(schema(pkg), str(rec, "type"), pkg);
    byte[] data = hex(rec);
    if (Boolean.FALSE.equals(rec.get("verify"))) {
      boolean verified = t.isValid(data, model);
      try {
        t.decodeTrusted(data, model); // the decoder itself, without the verify that refuses them first
      } catch (FbeException e) {
        // an error is a fine answer; a crash is not
      }
      if (verified) throw new Fail("verify accepted malformed bytes");
      return Result.PASS;
    }
    long size;
    try {
      size = t.verify(data, model);
    } catch (FbeException e) {
      throw new Fail("verify rejected valid bytes: " + e.getMessage());
    }
    if (rec.get("size") instanceof Json.Num && size != Long.parseLong(rec.get("size").toString()))
      throw new Fail("model size " + size + ", expected " + rec.get("size"));
    Message got;
    try {
      got = t.decodeTrusted(data, model); // verified above
    } catch (FbeException e) {
      throw new Fail("decode failed: " + e.getMessage());
    }
    Message want = fromJson(t, rec.get("json"));
    compareValues(got, want);
    if (!Boolean.TRUE.equals(rec.get("decode_only"))) {
      byte[] encoded;
      try {
        encoded = want.encode(model);
      } catch (FbeException e) {
        throw new Fail("encode failed: " + e.getMessage());
      }
      compareBytes(encoded, data, "encoded");
      compareBytes(got.encode(model), data, "re-encoded (decoded value)");
    }
    return Result.PASS;
  }

  private static void receive(Schema schema, String pkg, Model model, byte[] data, List<Message> want,
      int chunk, long seed) {
    int[] next = {0};
    String how = seed != 0 ? "random chunks of up to" : "chunks of";
    String[] why = {null};
    try (Receiver r = schema.receiver(m -> {
      int i = next[0];
      if (i >= want.size()) why[0] = "received more than the " + want.size() + " messages sent";
      else if (m.type() != want.get(i).type())
        why[0] = "message " + i + " is a " + m.type().fullName() + ", want " + want.get(i).type().fullName();
      else if (!m.sameValue(want.get(i))) why[0] = "message " + i + " (" + m.type().fullName() + ") differs";
      if (why[0] != null) throw new Fail(why[0]);
      next[0] = i + 1;
    }, pkg, model)) {
      int at = 0;
      String error = null;
      while (at < data.length) {
        int n = data.length - at;
        if (chunk > 0) {
          long take = chunk;
          if (seed != 0) {
            seed ^= seed << 13;
            seed ^= seed >>> 7;
            seed ^= seed << 17;
            take = 1 + Long.remainderUnsigned(seed, chunk);
          }
          n = (int) Math.min(n, take);
        }
        try {
          r.feed(data, at, n);
        } catch (Fail f) {
          break;
        } catch (FbeException e) {
          error = "receiver error: " + e.getMessage();
          break;
        }
        at += n;
      }
      if (why[0] != null) throw new Fail(how + " " + chunk + ": " + why[0]);
      if (error != null) throw new Fail(how + " " + chunk + ": " + error);
      if (next[0] != want.size() || r.pending() != 0)
        throw new Fail(how + " " + chunk + ": " + next[0] + " of " + want.size() + " messages received, "
            + r.pending() + " bytes left");
    }
  }

  Result runStream(Map<String, Object> rec) {
    Model model = "stream-final".equals(rec.get("format")) ? Model.FINAL : Model.STANDARD;
    String pkg = str(rec, "schema");
    Schema schema = schema(pkg);
    byte[] data = hex(rec);
    if (!(rec.get("json") instanceof List)) throw new Fail("bad hex or no message list");
    List<Message> want = new ArrayList<>();
    for (Object o : (List<?>) rec.get("json")) {
      @SuppressWarnings("unchecked")
      Map<String, Object> item = (Map<String, Object>) o;
      String name = str(item, "schema") + "." + str(item, "type");
      StructType t = type(schema, name, pkg);
      if (!item.containsKey("json")) throw new Fail(name + ": no \"json\" value");
      want.add(fromJson(t, item.get("json")));
    }
    java.io.ByteArrayOutputStream sent = new java.io.ByteArrayOutputStream();
    try (Sender sender = schema.sender(sent, pkg, model)) {
      for (int i = 0; i < want.size(); i++) {
        try {
          sender.send(want.get(i));
        } catch (FbeException e) {
          throw new Fail("send of message " + i + " failed: " + e.getMessage());
        }
      }
    }
    byte[] out = sent.toByteArray();
    if (!java.util.Arrays.equals(out, data)) {
      int n = Math.min(out.length, data.length), i = 0;
      while (i < n && out[i] == data[i]) i++;
      throw new Fail("sent bytes differ at offset " + i + " (sent " + out.length + " bytes, want " + data.length + ")");
    }
    long seed = 0x9E3779B97F4A7C15L;
    for (byte c : str(rec, "id").getBytes(StandardCharsets.UTF_8)) seed = (seed ^ (c & 0xff)) * 0x100000001B3L;
    for (int chunk = 0; chunk <= 64; chunk++) receive(schema, pkg, model, data, want, chunk, 0);
    receive(schema, pkg, model, data, want, 64, seed | 1);
    return Result.PASS;
  }

  Result runVersioning(Map<String, Object> rec) {
    String pkg = str(rec, "reader_schema");
    Schema schema = schema(pkg);
    StructType t = type(schema, pkg + "." + str(rec, "reader_type"), pkg);
    byte[] data = hex(rec);
    String reason = "";
    boolean verified;
    try {
      t.verify(data, Model.STANDARD);
      verified = true;
    } catch (FbeException e) {
      verified = false;
      reason = e.getMessage();
    }
    if (rec.get("verify") instanceof Boolean && verified != (Boolean) rec.get("verify"))
      throw new Fail("verify says " + (verified ? "valid" : "invalid") + ", want "
          + ((Boolean) rec.get("verify") ? "valid" : "invalid") + (reason.isEmpty() ? "" : ": " + reason));
    if (!rec.containsKey("json")) return Result.PASS;
    Message got;
    try {
      got = t.decodeTrusted(data, Model.STANDARD); // verified above, or a sibling type
    } catch (FbeException e) {
      throw new Fail("decode failed: " + e.getMessage());
    }
    compareValues(got, fromJson(t, rec.get("json")));
    return Result.PASS;
  }

  /** Runs one record: null when it passed or was skipped (counted), else the reason. */
  String runRecord(Map<String, Object> rec) {
    Object fmt = rec.get("format");
    try {
      Result r;
      if ("standard".equals(fmt) || "final".equals(fmt)) r = runModel(rec);
      else if ("stream-standard".equals(fmt) || "stream-final".equals(fmt)) r = runStream(rec);
      else if ("standard-versioning".equals(fmt)) r = runVersioning(rec);
      else throw new Fail("unknown format '" + fmt + "'");
      if (r == Result.PASS) passed++;
      else skipped++;
      return null;
    } catch (Fail f) {
      failed++;
      return f.getMessage();
    } catch (RuntimeException e) { // anything but an FbeException where one was due
      failed++;
      return "unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  /** The records of a .jsonl file (blank lines skipped). */
  static List<Object> records(Path file) throws IOException {
    List<Object> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) continue;
      try {
        out.add(Json.parse(line));
      } catch (IllegalArgumentException e) {
        out.add(e);
      }
    }
    return out;
  }

  void runFile(Path file, PrintStream out) throws IOException {
    for (Object o : records(file)) {
      if (!(o instanceof Map)) {
        failed++;
        out.println("FAIL " + file + ": " + (o instanceof Exception ? ((Exception) o).getMessage() : "a record must be a JSON object"));
        continue;
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> rec = (Map<String, Object>) o;
      String why = runRecord(rec);
      if (why != null) out.println("FAIL " + (rec.get("id") instanceof String ? rec.get("id") : "(no id)") + ": " + why);
    }
  }

  static int main(List<String> args) {
    List<Path> includes = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("-I") && i + 1 < args.size()) includes.add(Path.of(args.get(++i)));
      else if (a.startsWith("-I") && a.length() > 2) includes.add(Path.of(a.substring(2)));
      else if (a.startsWith("-") && !a.equals("-")) {
        files.clear();
        break;
      } else files.add(Path.of(a));
    }
    if (files.isEmpty()) {
      System.err.println("usage: java -jar fbe.jar conformance [-I DIR]... FILE.jsonl...");
      return 2;
    }
    Conformance c = new Conformance(includes);
    int rc = 0;
    for (Path f : files) {
      try {
        c.runFile(f, System.out);
      } catch (IOException e) {
        System.err.println(f + ": " + e.getMessage());
        rc = 1;
      }
    }
    System.out.println(c.passed + " passed, " + c.failed + " failed, " + c.skipped + " skipped");
    System.out.flush();
    return c.failed > 0 ? 1 : rc;
  }
}

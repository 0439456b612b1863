package org.libfbe;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.libfbe.internal.FbeCore;
import org.libfbe.internal.fbe_status;

/**
 * {@code java -jar fbe.jar testee}: the Java testee of the cross-language conformance
 * runner (tests/conformance/README.md, docs/TESTEE.md): one JSON request per stdin line,
 * one JSON response per stdout line. A thin loop over the public API: an error response
 * carries the core's status name of an FbeException; {@code text} answers the decoded
 * message's toString(); {@code decode} and {@code text} with {@code "view": true} answer
 * from a {@link View} of the bytes (its toJson(), its toString()); an {@code encode} with {@code "native": true} builds the message
 * through newMessage() and set() ({@link TesteeValues}); the conversations' sessions
 * (client, server, proxy and their requests) go through {@link Client}, {@link Server} and
 * {@link Proxy} ({@link TesteeSessions}).
 */
final class Testee {
  private List<Path> include = List.of();
  private final Map<String, Schema> schemas = new HashMap<>();
  /** The conversations' clients, servers and proxies (docs/TESTEE.md), until close or the next load. */
  private final TesteeSessions sessions = new TesteeSessions(this::schema);
  /** The schema texts of the last load ("packages"), as NAME.fbe files; null when none. */
  private Path packagesDir;

  /**
   * Writes the schema texts of a load ("packages": {name: text}) as NAME.fbe files into a
   * fresh temporary directory (under $TMPDIR when set), where the loader finds them and
   * their imports by name.
   */
  private Path writePackages(Object texts) throws IOException {
    if (!(texts instanceof Map)) throw new IllegalArgumentException("\"packages\" must be an object: package name -> schema text");
    String tmp = System.getenv("TMPDIR");
    packagesDir = tmp == null || tmp.isEmpty() ? Files.createTempDirectory("fbe-testee-")
        : Files.createTempDirectory(Path.of(tmp), "fbe-testee-");
    for (Map.Entry<?, ?> e : ((Map<?, ?>) texts).entrySet()) {
      String name = String.valueOf(e.getKey());
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) throw new IllegalArgumentException("\"packages\": '" + name + "' is not a package name");
      if (!(e.getValue() instanceof String)) throw new IllegalArgumentException("\"packages\": the schema of " + name + " must be a string");
      Files.writeString(packagesDir.resolve(name + ".fbe"), (String) e.getValue(), StandardCharsets.UTF_8);
    }
    return packagesDir;
  }

  private void removePackages() {
    if (packagesDir == null) return;
    try (var files = Files.list(packagesDir)) {
      for (Path f : (Iterable<Path>) files::iterator) Files.deleteIfExists(f);
      Files.deleteIfExists(packagesDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      packagesDir = null;
    }
  }

  private Schema schema(String pkg) {
    Schema s = schemas.get(pkg);
    if (s == null) {
      s = Fbe.loadPackage(pkg, include);
      schemas.put(pkg, s);
    }
    return s;
  }

  private static String str(Map<String, Object> r, String k) {
    Object v = r.get(k);
    if (!(v instanceof String)) throw new IllegalArgumentException("request has no \"" + k + "\"");
    return (String) v;
  }

  private StructType type(Map<String, Object> r) {
    String pkg = str(r, "package");
    return schema(pkg).struct(pkg + "." + str(r, "type"));
  }

  private static Model model(Map<String, Object> r) {
    return "final".equals(r.get("model")) ? Model.FINAL : Model.STANDARD;
  }

  private static int size(Object v, int least, String what) {
    int n = -1;
    if (v instanceof Json.Num) {
      try {
        n = Integer.parseInt(v.toString());
      } catch (NumberFormatException e) {
        n = -1;
      }
    }
    if (n < least) throw new IllegalArgumentException(what);
    return n;
  }

  /**
   * The pieces (offset, length) a stream-decode request feeds (tests/conformance/README.md):
   * the sizes in "chunks" first, then the rest in pieces of "chunk_size", or as one last piece.
   */
  private static List<int[]> pieces(int length, Map<String, Object> r) {
    Object chunks = r.getOrDefault("chunks", List.of());
    String bad = "\"chunks\" must be an array of non-negative integers";
    if (!(chunks instanceof List)) throw new IllegalArgumentException(bad);
    Object stepValue = r.get("chunk_size");
    int step = stepValue == null ? 0 : size(stepValue, 1, "\"chunk_size\" must be a positive integer");
    List<int[]> out = new ArrayList<>();
    int pos = 0;
    for (Object o : (List<?>) chunks) {
      int n = Math.min(size(o, 0, bad), length - pos);
      out.add(new int[] {pos, n});
      pos += n;
    }
    if (step > 0) {
      for (; pos < length; pos += step) out.add(new int[] {pos, Math.min(step, length - pos)});
    } else if (pos < length || ((List<?>) chunks).isEmpty()) {
      out.add(new int[] {pos, length - pos});
    }
    return out;
  }

  private Message decoded(Map<String, Object> r) {
    StructType t = type(r);
    byte[] data = hex.parseHex(str(r, "hex"));
    return Boolean.TRUE.equals(r.get("trusted")) ? t.decodeTrusted(data, model(r)) : t.decode(data, model(r));
  }

  /**
   * "view": true answers through a View (docs/TESTEE.md). A view always opens verified
   * (the core has no unverified open), so a "trusted" request, whose bytes verify may
   * refuse, is answered by the trusted decode either way.
   */
  private static boolean viewed(Map<String, Object> r) {
    return Boolean.TRUE.equals(r.get("view")) && !Boolean.TRUE.equals(r.get("trusted"));
  }

  private View view(Map<String, Object> r) {
    return type(r).view(hex.parseHex(str(r, "hex")), model(r));
  }

  private final HexFormat hex = HexFormat.of();

  @SuppressWarnings("unchecked")
  Map<String, Object> handle(Map<String, Object> r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", true);
    switch (String.valueOf(r.get("op"))) {
      case "load": { // "packages" (schema texts) are found first, then "include"
        sessions.closeAll();
        for (Schema s : schemas.values()) s.close();
        schemas.clear();
        removePackages();
        List<Path> dirs = new ArrayList<>();
        if (r.containsKey("packages")) {
          try {
            dirs.add(writePackages(r.get("packages")));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        for (Object d : (List<Object>) r.getOrDefault("include", List.of())) dirs.add(Path.of((String) d));
        include = dirs;
        for (Object f : (List<Object>) r.getOrDefault("files", List.of())) Fbe.load(Path.of((String) f), include).close();
        return out;
      }
      case "encode": { // through the JSON reader, or (native) the constructors a program calls
        StructType t = type(r);
        Message m = Boolean.TRUE.equals(r.get("native")) ? TesteeValues.message(t, r.get("json"))
            : t.fromJson(Json.write(r.get("json")));
        out.put("hex", hex.formatHex(m.encode(model(r))));
        return out;
      }
      case "decode": // verified unless the request says "trusted": true
        out.put("json", new Json.Raw(viewed(r) ? view(r).toJson() : decoded(r).toJson()));
        return out;
      case "text": // decoded as decode does; the binding's own printing
        out.put("text", viewed(r) ? view(r).toString() : decoded(r).toString());
        return out;
      case "verify": {
        StructType t = type(r);
        byte[] data = hex.parseHex(str(r, "hex"));
        try {
          out.put("size", t.verify(data, model(r)));
          out.put("valid", true);
        } catch (FbeException e) {
          out.put("valid", false);
          out.put("reason", e.getMessage());
        }
        return out;
      }
      case "stream-encode": {
        String pkg = str(r, "package");
        Schema schema = schema(pkg);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (Sender sender = schema.sender(bytes, pkg, model(r))) {
          for (Object o : (List<Object>) r.get("messages")) {
            Map<String, Object> item = (Map<String, Object>) o;
            StructType t = schema.struct(str(item, "schema") + "." + str(item, "type"));
            sender.send(t.fromJson(Json.write(item.get("json"))));
          }
        }
        out.put("hex", hex.formatHex(bytes.toByteArray()));
        return out;
      }
      case "stream-decode": {
        String pkg = str(r, "package");
        List<Object> messages = new ArrayList<>();
        try (Receiver receiver = schema(pkg).receiver(m -> {
          Map<String, Object> item = new LinkedHashMap<>();
          String full = m.type().fullName();
          int dot = full.lastIndexOf('.');
          item.put("schema", full.substring(0, dot));
          item.put("type", full.substring(dot + 1));
          item.put("json", new Json.Raw(m.toJson()));
          messages.add(item);
        }, pkg, model(r))) {
          byte[] data = hex.parseHex(str(r, "hex"));
          for (int[] piece : pieces(data.length, r)) receiver.feed(data, piece[0], piece[1]);
          out.put("messages", messages);
          out.put("pending", receiver.pending());
        }
        return out;
      }
      default:
        if (TesteeSessions.OPS.contains(String.valueOf(r.get("op")))) return sessions.handle(r);
        out.put("ok", false);
        out.put("error", "unknown op " + r.get("op"));
        return out;
    }
  }

  /** The answer to one request line: the result, or an error response (never an exception). */
  Map<String, Object> answer(Map<String, Object> request) {
    Map<String, Object> response;
    try {
      response = handle(request);
    } catch (FbeException e) { // the library's error: the core's status name and text
      response = new LinkedHashMap<>();
      response.put("ok", false);
      response.put("status", FbeCore.fbe_status_name(fbe_status.swigToEnum(e.code())));
      response.put("error", e.getMessage());
    } catch (RuntimeException e) { // every failure is an error response, never a crash
      response = new LinkedHashMap<>();
      response.put("ok", false);
      response.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    return response;
  }

  static int main() throws java.io.IOException {
    Testee t = new Testee();
    Runtime.getRuntime().addShutdownHook(new Thread(t::removePackages));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isBlank()) continue;
      Map<String, Object> response;
      try {
        Object req = Json.parse(line);
        if (!(req instanceof Map)) throw new IllegalArgumentException("a request must be a JSON object");
        @SuppressWarnings("unchecked")
        Map<String, Object> r = (Map<String, Object>) req;
        if ("quit".equals(r.get("op"))) break;
        response = t.answer(r);
      } catch (RuntimeException e) { // a line that is not a request
        response = new LinkedHashMap<>();
        response.put("ok", false);
        response.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      out.print(Json.write(response) + "\n");
      out.flush();
    }
    return 0;
  }
}

package org.libfbe;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar fbe.jar testee}: the Java testee of the cross-language conformance
 * runner (tests/conformance/README.md): one JSON request per stdin line, one JSON
 * response per stdout line. A thin loop over the public API.
 */
final class Testee {
  private List<Path> include = List.of();
  private final Map<String, Schema> schemas = new HashMap<>();

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

  @SuppressWarnings("unchecked")
  Map<String, Object> handle(Map<String, Object> r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", true);
    HexFormat hex = HexFormat.of();
    switch (String.valueOf(r.get("op"))) {
      case "load": {
        List<Path> dirs = new ArrayList<>();
        for (Object d : (List<Object>) r.getOrDefault("include", List.of())) dirs.add(Path.of((String) d));
        include = dirs;
        for (Schema s : schemas.values()) s.close();
        schemas.clear();
        for (Object f : (List<Object>) r.getOrDefault("files", List.of())) Fbe.load(Path.of((String) f), include).close();
        return out;
      }
      case "encode":
        out.put("hex", hex.formatHex(type(r).fromJson(Json.write(r.get("json"))).encode(model(r))));
        return out;
      case "decode":
        out.put("json", new Json.Raw(type(r).decode(hex.parseHex(str(r, "hex")), model(r)).toJson()));
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
          receiver.feed(hex.parseHex(str(r, "hex")));
          out.put("messages", messages);
          out.put("pending", receiver.pending());
        }
        return out;
      }
      default:
        out.put("ok", false);
        out.put("error", "unknown op " + r.get("op"));
        return out;
    }
  }

  static int main() throws java.io.IOException {
    Testee t = new Testee();
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
        response = t.handle(r);
      } catch (RuntimeException e) { // every failure is an error response, never a crash
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

// The Java driver of the hostile suite (tests/hostile/README.md): runs ONE operation with
// the default limits and prints one JSON line, {"result":"ok","detail":...} or
// {"result":"error","type":class,"status":the core's status or null,"message":...}.
//
//   java -cp fbe.jar:CLASSES Driver OP SCHEMA TYPE INPUT [final]   (the operations of driver.py)
//
// run.py compiles it (javac -cp fbe.jar) into the build directory.
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.libfbe.Fbe;
import org.libfbe.FbeException;
import org.libfbe.Message;
import org.libfbe.Model;
import org.libfbe.Receiver;
import org.libfbe.Schema;
import org.libfbe.StructType;

public final class Driver {
  private static final int CHUNK = 65536;

  /** levels bodies linked by `next`, built from the innermost out (no recursion). */
  private static Message buildChain(StructType type, int levels) {
    Message value = type.newMessage().set("v", levels - 1);
    for (int i = levels - 2; i >= 0; i--) value = type.newMessage().set("v", i).set("next", value);
    return value;
  }

  private static String run(String op, String schemaPath, String typeName, String input, Model model)
      throws Exception {
    if (op.equals("load")) {
      Fbe.load(Path.of(input)).close();
      return "loaded";
    }
    try (Schema schema = Fbe.load(Path.of(schemaPath))) {
      StructType type = op.equals("receive") ? null : schema.struct(typeName);
      switch (op) {
        case "encode_chain": return buildChain(type, Integer.parseInt(input)).encode().length + " bytes";
        case "deep_hash": return "hash " + buildChain(type, Integer.parseInt(input)).hashCode();
        case "deep_eq":
          return "equal " + buildChain(type, Integer.parseInt(input)).equals(buildChain(type, Integer.parseInt(input)));
        case "deep_repr": return buildChain(type, Integer.parseInt(input)).toString().length() + " characters";
        case "deep_json": return buildChain(type, Integer.parseInt(input)).toJson().length() + " characters";
        default: break;
      }
      byte[] data = Files.readAllBytes(Path.of(input));
      switch (op) {
        case "decode":
          type.decode(data, model);
          return "decoded";
        case "verify": return "model size " + type.verify(data, model);
        case "reencode": {
          byte[] again = type.decode(data, model).encode(model);
          if (!Arrays.equals(again, data))
            throw new AssertionError("re-encoding gave other bytes (" + again.length + ", not " + data.length + ")");
          return "same " + again.length + " bytes";
        }
        case "from_json":
          type.fromJson(new String(data, java.nio.charset.StandardCharsets.UTF_8));
          return "read";
        case "receive": {
          long[] count = {0};
          try (Receiver receiver = schema.receiver(m -> count[0]++, typeName, model)) {
            for (int at = 0; at < data.length; at += CHUNK) receiver.feed(data, at, Math.min(CHUNK, data.length - at));
            return count[0] + " messages, " + receiver.pending() + " bytes pending";
          }
        }
        default: throw new IllegalArgumentException("unknown op " + op);
      }
    }
  }

  private static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  public static void main(String[] args) throws Exception {
    Model model = args.length > 4 && args[4].equals("final") ? Model.FINAL : Model.STANDARD;
    String line;
    try {
      line = "{\"result\":\"ok\",\"detail\":" + quote(run(args[0], args[1], args[2], args[3], model)) + "}";
    } catch (FbeException | StackOverflowError | OutOfMemoryError | AssertionError e) {
      String status = e instanceof FbeException ? quote("FBE_ERR_" + ((FbeException) e).status().name()) : "null";
      line = "{\"result\":\"error\",\"type\":" + quote(e.getClass().getSimpleName()) + ",\"status\":" + status
          + ",\"message\":" + quote(String.valueOf(e.getMessage())) + "}";
    }
    System.out.println(line);
  }
}

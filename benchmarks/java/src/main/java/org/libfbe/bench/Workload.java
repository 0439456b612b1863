package org.libfbe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Parser;
import fbebench.Bench;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.libfbe.Fbe;
import org.libfbe.Message;
import org.libfbe.Model;
import org.libfbe.Schema;
import org.libfbe.StructType;

/**
 * One workload (account, small, large: benchmarks/data/NAME.json, as
 * benchmarks/python/bench.py) in each implementation's form, built once from the data
 * file and checked to round-trip it before anything is timed. The schemas directory and
 * the data directory come from the system properties fbe.schemas and fbe.data.
 */
final class Workload {
  static final List<String> NAMES = List.of("account", "small", "large");

  /** The values as plain Java objects, for Jackson (unknown members fail the read). */
  public static final class JBalance {
    public String currency;
    public double amount;
  }

  public static final class JOrder {
    public int id;
    public String symbol;
    public int side;
    public int type;
    public double price;
    public double volume;
  }

  public static final class JAccount {
    public int id;
    public String name;
    public int state;
    public JBalance wallet;
    public JBalance asset;
    public List<JOrder> orders;
  }

  public static final class JSmall {
    public String name;
    public boolean spouse;
    public int siblings;
    public double money;
    public long birthday;
  }

  public static final class JLarge {
    public long[] ids;
    public List<String> names;
  }

  /** workload -> the .fbe file under the schemas directory, its struct, the POJO, the protobuf default. */
  private record Spec(String fbe, String struct, Class<?> pojo, com.google.protobuf.Message proto) {}

  private static final Map<String, Spec> SPECS = Map.of(
      "account", new Spec("proto.fbe", "Account", JAccount.class, Bench.Account.getDefaultInstance()),
      "small", new Spec("bench/small.fbe", "Small", JSmall.class, Bench.Small.getDefaultInstance()),
      "large", new Spec("bench/large.fbe", "Large", JLarge.class, Bench.Large.getDefaultInstance()));

  final String name;
  final Schema schema;
  final StructType type;
  final Message message;
  final byte[] standard;
  final byte[] fin;
  final com.google.protobuf.Message proto;
  final Parser<? extends com.google.protobuf.Message> protoParser;
  final byte[] protoBytes;
  final ObjectMapper mapper = new ObjectMapper();
  final Class<?> pojoClass;
  final Object pojo;
  final byte[] json;

  /** @throws IllegalStateException naming the implementation that does not round-trip the data */
  Workload(String name) {
    Spec spec = SPECS.get(name);
    if (spec == null) throw new IllegalArgumentException("unknown workload " + name);
    this.name = name;
    Path schemas = Path.of(System.getProperty("fbe.schemas", "schemas"));
    Path file = Path.of(System.getProperty("fbe.data", "benchmarks/data")).resolve(name + ".json");
    String text;
    JsonNode data;
    try {
      text = Files.readString(file);
      data = mapper.readTree(text);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
    }

    Path fbe = schemas.resolve(spec.fbe);
    schema = Fbe.load(fbe, List.of(schemas, fbe.getParent()));
    type = schema.struct(spec.struct);
    message = type.fromJson(text);
    standard = message.encode(Model.STANDARD);
    fin = message.encode(Model.FINAL);
    for (Model m : Model.values()) {
      byte[] bytes = m == Model.FINAL ? fin : standard;
      Message back = type.decode(bytes, m);
      check(back.equals(message) && same(tree(back.toJson()), data) && type.verify(bytes, m) == bytes.length
              && type.decodeTrusted(bytes, m).sameValue(back),
          "libfbe (" + m.name().toLowerCase(java.util.Locale.ROOT) + " model)");
    }

    pojoClass = spec.pojo;
    try {
      proto = fromJson(spec.proto.newBuilderForType(), data).build();
      protoParser = proto.getParserForType();
      protoBytes = proto.toByteArray();
      check(protoParser.parseFrom(protoBytes).equals(proto), "protobuf");

      pojo = mapper.treeToValue(data, pojoClass);
      json = mapper.writeValueAsBytes(pojo);
      check(same(mapper.readTree(json), data)
          && same(mapper.valueToTree(mapper.readValue(json, pojoClass)), data), "Jackson");

      // decode_all: every reader reads the data's values (the fold of the POJO, checked above)
      long all = Reads.pojo(name, mapper.readValue(json, pojoClass));
      long first = switch (name) { // the field libfbe-view's decode reads
        case "account" -> ((JAccount) pojo).id;
        case "small" -> Reads.fold(0, ((JSmall) pojo).name);
        default -> ((JLarge) pojo).ids.length;
      };
      check(Reads.proto(name, protoParser.parseFrom(protoBytes)) == all, "protobuf (every field)");
      for (Model m : Model.values()) {
        byte[] bytes = m == Model.FINAL ? fin : standard;
        String what = " (" + m.name().toLowerCase(java.util.Locale.ROOT) + " model, every field)";
        check(Reads.message(name, type.decode(bytes, m)) == all, "libfbe" + what);
        check(Reads.view(name, type.view(bytes, m)) == all, "libfbe-view" + what);
        check(Reads.first(name, type.view(bytes, m)) == first, "libfbe-view" + what);
      }
    } catch (IOException e) {
      throw new IllegalStateException("bench: " + name + ": " + e.getMessage(), e);
    }
  }

  private void check(boolean ok, String impl) {
    if (!ok) throw new IllegalStateException("bench: " + impl + " does not round trip the " + name + " data");
  }

  private JsonNode tree(String text) {
    try {
      return mapper.readTree(text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Equal JSON values, numbers by value (1000 and 1000.0 are the same). */
  private static boolean same(JsonNode a, JsonNode b) {
    Comparator<JsonNode> numeric = (x, y) -> {
      if (x.equals(y)) return 0;
      if (x.isNumber() && y.isNumber())
        return x.isIntegralNumber() && y.isIntegralNumber()
            ? x.bigIntegerValue().compareTo(y.bigIntegerValue())
            : Double.compare(x.doubleValue(), y.doubleValue());
      return 1;
    };
    return a.equals(numeric, b);
  }

  /** The data into a protobuf builder by its descriptor; a member the .proto lacks fails. */
  private static com.google.protobuf.Message.Builder fromJson(com.google.protobuf.Message.Builder b, JsonNode node) {
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      FieldDescriptor f = b.getDescriptorForType().findFieldByName(e.getKey());
      if (f == null)
        throw new IllegalStateException("bench: protobuf: " + b.getDescriptorForType().getName() + " has no field " + e.getKey());
      if (f.isRepeated())
        for (JsonNode x : e.getValue()) b.addRepeatedField(f, scalar(b, f, x));
      else
        b.setField(f, scalar(b, f, e.getValue()));
    }
    return b;
  }

  private static Object scalar(com.google.protobuf.Message.Builder b, FieldDescriptor f, JsonNode x) {
    return switch (f.getJavaType()) {
      case INT -> x.intValue();
      case LONG -> x.longValue();
      case DOUBLE -> x.doubleValue();
      case BOOLEAN -> x.booleanValue();
      case STRING -> x.textValue();
      case MESSAGE -> fromJson(b.newBuilderForField(f), x).build();
      default -> throw new IllegalStateException("bench: protobuf: field type " + f.getJavaType() + " not handled");
    };
  }

  /** The encoded size per implementation_model, for the JSON lines. */
  Map<String, Integer> sizes() {
    return Map.of("libfbe_standard", standard.length, "libfbe_final", fin.length,
        "libfbeview_standard", standard.length, "libfbeview_final", fin.length,
        "protobuf_message", protoBytes.length, "jackson_pojo", json.length);
  }

  static List<Workload> all() {
    List<Workload> out = new ArrayList<>();
    for (String n : NAMES) out.add(new Workload(n));
    return out;
  }
}

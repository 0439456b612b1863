package org.libfbe;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.libfbe.internal.FbeCore;
import org.libfbe.internal.fbe_loader;
import org.libfbe.internal.fbe_schema;

/**
 * Entry point: loads .fbe schemas at run time.
 *
 * <pre>{@code
 * try (Schema schema = Fbe.load(Path.of("schemas/proto.fbe"), List.of(Path.of("schemas")))) {
 *   Message acc = schema.struct("Account").newMessage().set("id", 1).set("name", "Test");
 *   byte[] bytes = acc.encode();
 * }
 * }</pre>
 */
public final class Fbe {
  private Fbe() {}

  /** The core's version ("0.1.0"). */
  public static String version() {
    return FbeCore.fbe_version();
  }

  /** Loads a schema file and its imports (found next to it, then on `include`). */
  public static Schema load(Path file, List<Path> include) {
    return load(include, l -> l.load_file(file.toString()));
  }

  public static Schema load(Path file) {
    return load(file, List.of());
  }

  /** Loads schema text; `name` is used in diagnostics and its directory for imports. */
  public static Schema loadString(String text, String name, List<Path> include) {
    return load(include, l -> l.load_string(text, name));
  }

  /** Loads package `name` by finding NAME.fbe on the include directories. */
  public static Schema loadPackage(String name, List<Path> include) {
    return load(include, l -> l.load_package(name));
  }

  private static Schema load(List<Path> include, java.util.function.Function<fbe_loader, fbe_schema> how) {
    fbe_loader loader = new fbe_loader();
    try {
      for (Path dir : include) loader.add_include(dir.toString());
      fbe_schema s = how.apply(loader);
      if (s == null) {
        List<String> diags = new ArrayList<>();
        String first = null;
        for (long i = 0; i < loader.diagnostic_count(); i++) {
          diags.add(loader.diagnostic(i));
          if (first == null && loader.diagnostic_is_error(i) != 0) first = loader.diagnostic(i);
        }
        throw new FbeException(Status.SCHEMA,
            "cannot load the schema: " + (first != null ? first : "unknown error"), "", -1, diags);
      }
      try {
        return SchemaBuilder.build(s);
      } catch (RuntimeException | Error e) {
        s.delete();
        throw e;
      }
    } finally {
      loader.delete();
    }
  }
}

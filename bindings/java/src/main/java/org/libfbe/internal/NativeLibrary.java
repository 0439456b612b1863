package org.libfbe.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads libfbejni once per class loader: the copy the jar carries at
 * {@code /native/<os>-<arch>/}{@link System#mapLibraryName} of {@code fbejni}
 * ({@code libfbejni.so}, {@code libfbejni.dylib}, {@code fbejni.dll}) is extracted to a temporary file (deleted
 * when the JVM exits) and loaded with {@link System#load}. The system property
 * {@code fbe.library.path} names another library file to load instead.
 */
public final class NativeLibrary {
  private static boolean loaded;

  private NativeLibrary() {}

  /** {@code linux-x86_64}, {@code linux-aarch64}, {@code darwin-aarch64}, {@code windows-x86_64}, ... */
  public static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("mac") || os.startsWith("darwin")) os = "darwin";
    else if (os.startsWith("windows")) os = "windows";
    else if (os.startsWith("linux")) os = "linux";
    if (arch.equals("amd64") || arch.equals("x86-64")) arch = "x86_64";
    if (arch.equals("arm64")) arch = "aarch64";
    return os + "-" + arch;
  }

  public static synchronized void load() {
    if (loaded) return;
    String override = System.getProperty("fbe.library.path");
    if (override != null) {
      System.load(Path.of(override).toAbsolutePath().toString());
    } else {
      String file = System.mapLibraryName("fbejni");
      String resource = "/native/" + platform() + "/" + file;
      try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
        if (in == null)
          throw new UnsatisfiedLinkError("libfbe: no native library for " + platform()
              + " in this jar (" + resource + "); build the jar on this platform");
        Path tmp = Files.createTempFile("libfbejni-", "-" + file);
        tmp.toFile().deleteOnExit();
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        System.load(tmp.toAbsolutePath().toString());
        // Mapped already: the file can go now (on systems that allow it).
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // deleteOnExit does it
        }
      } catch (IOException e) {
        throw new UncheckedIOException("libfbe: cannot extract " + resource, e);
      }
    }
    loaded = true;
  }
}

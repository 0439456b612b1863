package org.libfbe;

/** The jar's entry point: {@code java -jar fbe.jar testee|version}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    String cmd = args.length > 0 ? args[0] : "";
    int rc;
    switch (cmd) {
      case "testee": rc = Testee.main(); break;
      case "version": System.out.println("libfbe " + Fbe.version() + " (Java binding)"); rc = 0; break;
      default:
        System.err.println("usage: java -jar fbe.jar testee     (the conformance runner's protocol on stdin/stdout)\n"
            + "       java -jar fbe.jar version");
        rc = 2;
    }
    System.exit(rc);
  }
}

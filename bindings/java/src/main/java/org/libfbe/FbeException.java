package org.libfbe;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.libfbe.internal.Walk;

/**
 * Every libfbe failure: a wrong type or out-of-range value, malformed bytes, invalid
 * JSON, a schema with errors, a limit; a request that ended without its response
 * ({@link Status#REJECTED}: a {@link RejectedException} carrying the reject,
 * {@link Status#TIMEOUT} "Timeout!", {@link Status#RESET} "Reset client!"). Unchecked. {@link #path()} names the value
 * ("orders[2].symbol", "" for the whole message) and {@link #offset()} the byte offset
 * in the input (-1 when none applies).
 */
public class FbeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Status status;
  private final String reason;
  private final String path;
  private final long offset;
  private final List<String> diagnostics;
  private String text; // the core's text of it, made when first asked for (racing threads make the same)

  /** Called from C with the core's fbe_error and its text (fbe_error_format), UTF-8. */
  FbeException(int code, byte[] text, byte[] message, byte[] path, long offset) {
    this(Status.of(code), utf8(message), utf8(path), offset, List.of());
    this.text = utf8(text);
  }

  FbeException(Status status, String message, String path, long offset, List<String> diagnostics) {
    this.status = status;
    this.reason = message;
    this.path = path == null ? "" : path;
    this.offset = offset;
    this.diagnostics = List.copyOf(diagnostics);
  }

  FbeException(Status status, String message) {
    this(status, message, "", -1, List.of());
  }

  /** A copy of another (a subclass's: RejectedException), its text included. */
  FbeException(FbeException other) {
    this(other.status, other.reason, other.path, other.offset, other.diagnostics);
    this.text = other.text;
  }

  private static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /**
   * The core's text of the error, the same in every language: "message at 'path' (offset
   * N)", the path and the offset only when set (fbe_error_format; for an error Java raised
   * itself, the message and then what the core writes after it, Walk.errorWhere, so the
   * format lives only in the core).
   */
  @Override
  public String getMessage() {
    String t = text;
    if (t == null) {
      text = t = reason + utf8(Walk.errorWhere(path.getBytes(StandardCharsets.UTF_8), offset));
    }
    return t;
  }

  /** The status code ({@link Status#TYPE}, {@link Status#MALFORMED}, ...). */
  public Status status() {
    return status;
  }

  /** The status code as the core's number (fbe_status). */
  public int code() {
    return status.code();
  }

  /** The message without the path and offset. */
  public String reason() {
    return reason;
  }

  public String path() {
    return path;
  }

  public long offset() {
    return offset;
  }

  /** A schema load's diagnostics ("file:line:col: message"); empty otherwise. */
  public List<String> diagnostics() {
    return diagnostics;
  }

  /** A copy with `part` put in front of the path ("wallet" + "amount" = "wallet.amount"). */
  FbeException under(String part) {
    String p = path.isEmpty() ? part : path.startsWith("[") ? part + path : part + "." + path;
    return new FbeException(status, reason, p, offset, diagnostics);
  }
}

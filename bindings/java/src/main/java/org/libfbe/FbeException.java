package org.libfbe;

import java.util.List;

/**
 * Every libfbe failure: a wrong type or out-of-range value, malformed bytes, invalid
 * JSON, a schema with errors, a limit. Unchecked. {@link #path()} names the value
 * ("orders[2].symbol", "" for the whole message) and {@link #offset()} the byte offset
 * in the input (-1 when none applies).
 */
public class FbeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The core's status codes (fbe/error.h, FBE_STATUS_LIST), by value. */
  public enum Status {
    OK, NOMEM, ARGUMENT, SCHEMA, NOT_FOUND, TYPE, RANGE, MALFORMED, JSON, LIMIT, IO;

    static Status of(int code) {
      Status[] all = values();
      return code >= 0 && code < all.length ? all[code] : ARGUMENT;
    }
  }

  private final Status status;
  private final String reason;
  private final String path;
  private final long offset;
  private final List<String> diagnostics;

  /** Called from C with the core's fbe_error. */
  FbeException(int code, String message, String path, long offset) {
    this(Status.of(code), message, path, offset, List.of());
  }

  FbeException(Status status, String message, String path, long offset, List<String> diagnostics) {
    super(format(message, path, offset));
    this.status = status;
    this.reason = message;
    this.path = path == null ? "" : path;
    this.offset = offset;
    this.diagnostics = List.copyOf(diagnostics);
  }

  FbeException(Status status, String message) {
    this(status, message, "", -1, List.of());
  }

  private static String format(String message, String path, long offset) {
    StringBuilder b = new StringBuilder(message);
    if (path != null && !path.isEmpty()) b.append(" at path '").append(path).append('\'');
    if (offset >= 0) b.append(" (offset ").append(offset).append(')');
    return b.toString();
  }

  /** The status code ({@link Status#TYPE}, {@link Status#MALFORMED}, ...). */
  public Status status() {
    return status;
  }

  /** The status code as the core's number (fbe_status). */
  public int code() {
    return status.ordinal();
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
    FbeException e = new FbeException(status, reason, p, offset, diagnostics);
    return e;
  }
}

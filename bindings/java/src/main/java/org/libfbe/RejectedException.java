package org.libfbe;

/**
 * A request refused by its server ({@link Status#REJECTED}, docs/CLIENT.md): the future
 * of {@link Client#request} fails with one when a reject of the request's type (one of
 * its {@code [reject(...)]} types, a global one of an imported package included) with
 * the request's id is received. {@link #reject()} is that message; the exception's text
 * is the reject's text form, as the core writes it ({@code Reject(id="...",reason="...")}).
 *
 * <p>A {@link Server}'s handler may throw one made with {@link #RejectedException(Message)}:
 * its reject is then sent as the request's answer.
 */
public final class RejectedException extends FbeException {
  private static final long serialVersionUID = 1L;

  private final transient Message reject;

  /** The core's error of a rejected request (its status and text) with the reject. */
  RejectedException(FbeException error, Message reject) {
    super(error);
    this.reject = reject;
  }

  /** A reject for a server's handler to throw: {@code throw new RejectedException(reject)}. */
  public RejectedException(Message reject) {
    super(Status.REJECTED, textOf(reject));
    this.reject = reject;
  }

  private static String textOf(Message reject) {
    if (reject == null) throw new FbeException(Status.ARGUMENT, "a RejectedException needs its reject message");
    return reject.toString();
  }

  /** The reject received (or to send). */
  public Message reject() {
    return reject;
  }
}

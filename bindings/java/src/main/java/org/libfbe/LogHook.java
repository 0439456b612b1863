package org.libfbe;

/**
 * The log hook of a {@link Client} or {@link Server} (FORMAT.md 9.5, docs/CLIENT.md):
 * every message sent, once it is encoded and before it leaves, and every message
 * received, once it is decoded and before it is handled, as its text form (docs/TEXT.md,
 * written by the core: the same line in every language), e.g.
 * {@code NewOrder(id="00000000-0000-0000-0000-000000000001",symbol="EURUSD",side=buy,price=0.0,quantity=0.0)}.
 *
 * <p>It runs on the thread of the call that sent or received the message, inside that
 * call; an exception it throws goes to that thread's uncaught-exception handler and
 * changes nothing else.
 */
@FunctionalInterface
public interface LogHook {
  /** Which way the message went. */
  enum Direction {
    SEND, RECEIVE;

    /** "send" or "receive". */
    public String word() {
      return this == SEND ? "send" : "receive";
    }
  }

  void log(Direction direction, String text);
}

package org.libfbe;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The native calls running on an object with native state (a Schema, Sender or
 * Receiver), so that close() never frees it under one: every call enters before it
 * reads the native pointer and exits after the native code returned; close() succeeds
 * only when no call is in flight, and refuses otherwise (FbeException ARGUMENT "the
 * schema is in use by N calls"), like the Ruby binding. The Cleaner needs no count: it
 * frees only an unreachable object, and every call keeps its owner reachable until the
 * native code returned ({@code Reference.reachabilityFence} in the owner's exit()).
 *
 * <p>A Schema's calls on a thread's own tape are not counted here but on the tape (its
 * {@code using}, Schema.begin): one volatile store a call instead of two atomic updates.
 * close() marks the state CLOSING first, then looks at every thread's tape
 * ({@link Tape#inUse}): a call that marked its tape before the look is seen there (and
 * close refuses), one that marks it after sees CLOSING (and waits for the answer, then
 * goes on or finds the schema closed), as in Dekker's mutual exclusion.
 */
final class InFlight {
  /** The sign bit: closed; CLOSING: a close() is deciding; the rest: counted calls in flight. */
  private static final int CLOSED = Integer.MIN_VALUE, CLOSING = 1 << 30, COUNT = CLOSING - 1;
  private final AtomicInteger state = new AtomicInteger();
  private final String what;

  InFlight(String what) {
    this.what = what;
  }

  /** One more call; throws FbeException ARGUMENT when closed (waits while a close() decides). */
  void enter() {
    for (;;) {
      int s = state.get();
      if (s < 0) throw closed();
      if ((s & CLOSING) != 0) {
        Thread.onSpinWait();
        continue;
      }
      if (state.compareAndSet(s, s + 1)) return;
    }
  }

  void exit() {
    state.getAndDecrement();
  }

  /** Neither closed nor closing (read after a tape was marked: see the class comment). */
  boolean open() {
    return (state.get() & (CLOSED | CLOSING)) == 0;
  }

  FbeException closed() {
    return new FbeException(Status.ARGUMENT, "the " + what + " is closed");
  }

  boolean isClosed() {
    return state.get() < 0;
  }

  /**
   * Marks it closed when no call is in flight: true when this call closed it (the caller
   * frees the native state now), false when it was closed already. owner: the object
   * whose calls may be marked on the threads' tapes (a Schema), or null.
   *
   * @throws FbeException ARGUMENT while calls are in flight (nothing is freed)
   */
  boolean close(Object owner) {
    for (;;) {
      int s = state.get();
      if (s < 0) return false;
      if ((s & CLOSING) != 0) { // another close() is deciding
        Thread.onSpinWait();
        continue;
      }
      if (s > 0) throw inUse(s);
      if (state.compareAndSet(0, CLOSING)) break;
    }
    int marked = owner == null ? 0 : Tape.inUse(owner);
    if (marked > 0) {
      state.set(0);
      throw inUse(marked);
    }
    state.set(CLOSED);
    return true;
  }

  private FbeException inUse(int n) {
    return new FbeException(Status.ARGUMENT, "the " + what + " is in use by " + n
        + (n == 1 ? " call" : " calls") + " (close it once they have returned)");
  }
}

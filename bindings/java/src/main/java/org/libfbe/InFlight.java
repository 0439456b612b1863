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
 */
final class InFlight {
  /** The sign bit: closed; the rest: calls in flight. */
  private static final int CLOSED = Integer.MIN_VALUE;
  private final AtomicInteger state = new AtomicInteger();
  private final String what;

  InFlight(String what) {
    this.what = what;
  }

  /** One more call; throws FbeException ARGUMENT when closed. */
  void enter() {
    if (state.getAndIncrement() < 0) {
      state.getAndDecrement();
      throw closed();
    }
  }

  void exit() {
    state.getAndDecrement();
  }

  FbeException closed() {
    return new FbeException(Status.ARGUMENT, "the " + what + " is closed");
  }

  boolean isClosed() {
    return state.get() < 0;
  }

  /**
   * Marks it closed when no call is in flight: true when this call closed it (the caller
   * frees the native state now), false when it was closed already.
   *
   * @throws FbeException ARGUMENT while calls are in flight (nothing is freed)
   */
  boolean close() {
    for (;;) {
      int s = state.get();
      if (s < 0) return false;
      if (s > 0)
        throw new FbeException(Status.ARGUMENT, "the " + what + " is in use by " + s
            + (s == 1 ? " call" : " calls") + " (close it once they have returned)");
      if (state.compareAndSet(0, CLOSED)) return true;
    }
  }
}

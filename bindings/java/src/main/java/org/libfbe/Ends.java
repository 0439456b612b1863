package org.libfbe;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A client's requests in flight: the future of each by the token the core was given
 * (fbe_client_request), and the core's done callback that ends it ({@link #ended}, from
 * bindings/java/native/rpc.c). Guarded by the client's lock (every native call holds it).
 * Refers to nothing but the futures and the schema, so the Cleaner of a client dropped
 * unclosed can end its requests (as reset) without keeping the client reachable.
 */
final class Ends {
  /** fbe_request_end */
  static final int SENT = 0, RESPONDED = 1, REJECTED = 2, TIMED_OUT = 3, RESET = 4;

  private final Schema schema;
  private final Map<Long, CompletableFuture<Message>> futures = new HashMap<>();
  private long last;

  Ends(Schema schema) {
    this.schema = schema;
  }

  /** A new token for this future (it ends through {@link #ended}). */
  long add(CompletableFuture<Message> future) {
    long token = ++last;
    futures.put(token, future);
    return token;
  }

  /** A request the core refused (nothing was registered). */
  void remove(long token) {
    futures.remove(token);
  }

  int size() {
    return futures.size();
  }

  /**
   * Called from C when the request of `token` ended (fbe_request_end `end`): completes its
   * future with the response (null when SENT) or with the core's error, a
   * RejectedException carrying the reject when REJECTED. The message is the tape C wrote
   * (struct index si, -1: none), made into values when first read. Never throws.
   */
  void ended(long token, int end, int si, byte[] tape, int slots, FbeException error) {
    CompletableFuture<Message> f = futures.remove(token);
    if (f == null) return;
    try {
      Message m = si >= 0 ? new Message(schema.structs[si], new Message.Saved(tape, slots)) : null;
      if (error == null && (end >= REJECTED || (end == RESPONDED && m == null))) // (JNI could not make it)
        error = new FbeException(Status.NOMEM, "a request ended, but how could not be handed to Java (out of memory)");
      if (error == null) f.complete(m);
      else f.completeExceptionally(end == REJECTED && m != null ? new RejectedException(error, m) : error);
    } catch (Throwable t) { // (a VM error making the message: the request fails with it)
      f.completeExceptionally(t);
    }
  }
}
